/* report/report_model.c — the model of the plan the page draws from
 * (report_internal.h): each CPU analysed again with the plan's priorities
 * and overheads (and with a probe's, when the plan's are lower), the
 * sensitivity on a copy of the plan, emit's verdict and per-task
 * parameters, the rehearsal's totals, and the two orders in
 * which each CPU's table lists its tasks. */
#include "report/report_internal.h"

#include "heuristics/partition.h"
#include "models/effective.h"
#include "solver/edf.h"
#include "solver/fmlp.h"
#include "solver/fp.h"
#include "solver/locks.h"
#include "solver/rr.h"
#include "solver/rr_choose.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "CPU 0" or "CPUs 2,3" (a cluster). */
static void bin_name(const rtp_plan_bin *b, char *buf, size_t size)
{
    size_t used = (size_t)snprintf(buf, size, "CPU%s ", b->n_cpus == 1 ? "" : "s");
    for (size_t k = 0; k < b->n_cpus && used < size; k++)
        used += (size_t)snprintf(buf + used, size - used, "%s%d", k ? "," : "", b->cpus[k]);
}

/* A plan with resources: bin b analysed with the blocking and spin of the
 * whole placement (solver/locks.h, what partition and emit compute), the
 * plan's priorities given. FP: the response bounds; EDF: the demand test
 * with b(t) on the bin's placed tasks, its testing bound at least the
 * largest deadline of a task with requests (b(t) is searched up to there).
 * With `response` (the plan's own overheads) the tasks get their terms. */
static rtp_status analyse_locks(const rpt *r, const rpt_bin *b, const rtp_overheads *ov,
                                rtp_ns *response, rpt_verdict *v, rtp_diag *d)
{
    const rtp_plan *plan = r->plan;
    size_t n = 0, first = 0, m = 0, bi = (size_t)(b - r->bins);
    for (size_t j = 0; j < plan->n_bins; j++) {
        if (j == bi)
            first = n;
        n += plan->bins[j].n_tasks;
    }
    rtp_task *all = rtp_alloc(n, sizeof *all, d), *bin = rtp_alloc(n, sizeof *bin, d);
    rtp_task *placed = rtp_alloc(n, sizeof *placed, d);
    size_t *cpu = rtp_alloc(n, sizeof *cpu, d);
    rtp_locks_task *out = rtp_alloc(n, sizeof *out, d);
    rtp_request *store = NULL;
    rtp_status st = !all || !bin || !placed || !cpu || !out ? RTP_ENOMEM : RTP_OK;
    for (size_t j = 0, i = 0; st == RTP_OK && j < plan->n_bins; j++)
        for (size_t k = 0; k < plan->bins[j].n_tasks; k++, i++) {
            all[i] = plan->bins[j].tasks[k].task;
            all[i].has_priority = r->fp;
            all[i].priority = plan->bins[j].tasks[k].priority;
            cpu[i] = j;
        }
    if (st == RTP_OK)
        st = rtp_effective_tasks(all, n, ov, b->policy, all, d);
    rtp_test test = rtp_test_exact(b->policy, RTP_PRIO_GIVEN, 1, r->opts->limits);
    test.want_first_miss = 1;
    test.rr = rtp_rr_params_of(plan->rr_quantum_ns, plan->tick_ns, ov);
    int sched = 0;
    if (st == RTP_OK)
        st = rtp_locks_partitioned(plan->resources, plan->n_resources, all, n, cpu,
                                   plan->n_bins, &test, &sched, out, d);
    size_t nb = b->bin->n_tasks;
    if (st == RTP_OK && r->fp) {
        v->schedulable = 1;
        for (size_t k = 0; k < nb; k++) {
            if (response)
                response[k] = out[first + k].response_ns;
            if (out[first + k].response_ns < 0 && v->late_task < 0)
                v->late_task = (long)k;
            v->schedulable &= out[first + k].response_ns >= 0;
        }
    } else if (st == RTP_OK) {
        rtp_ns last = 0;
        st = rtp_locks_place(plan->resources, plan->n_resources, all, n, cpu, plan->n_bins,
                             placed, &store, d);
        for (size_t k = 0; st == RTP_OK && k < nb; k++) {
            bin[m++] = placed[first + k];
            if (placed[first + k].n_requests > 0 && placed[first + k].deadline_ns > last)
                last = placed[first + k].deadline_ns;
        }
        rtp_test_result res = {0};
        if (st == RTP_OK && (st = rtp_test_run(&test, bin, m, &res, d)) == RTP_OK) {
            v->schedulable = res.schedulable;
            if (res.has_first_miss)
                v->first_miss_ns = res.first_miss_ns;
            if (res.schedulable &&
                (st = rtp_edf_bound(bin, m, &r->opts->limits, &v->edf_bound_ns, d)) == RTP_OK &&
                v->edf_bound_ns < last)
                v->edf_bound_ns = last;
        }
    }
    for (size_t k = 0; st == RTP_OK && response && k < nb; k++) {
        rpt_task *t = &b->tasks[k];
        t->has_locks = 1;
        t->blocking_ns = out[first + k].blocking_ns;
        t->spin_ns = out[first + k].spin_ns;
        t->suspension_ns = out[first + k].suspension_ns;
        t->binding = out[first + k].binding;
    }
    free(all);
    free(bin);
    free(placed);
    free(cpu);
    free(out);
    free(store);
    return st;
}

/* The exact test of one CPU with the overheads `ov`: EDF processor demand
 * [BMR90] by QPA [ZB09], FP response-time analysis [ABRTW93] with the
 * plan's priorities, and on a tied level of SCHED_RR tasks the SCHED_RR
 * bounds (solver/rr.h), each turn charged the switch of `ov`, as emit's
 * re-check and partition charge it. response[] (n entries, may be NULL) gets FP's WCRTs.
 * A resource limit is not an error here: the verdict is then "not
 * analysed" and its note says why. */
static rtp_status analyse(const rpt *r, const rpt_bin *b, const rtp_overheads *ov,
                          rtp_ns *response, rpt_verdict *v, rtp_diag *diag)
{
    const rtp_plan_bin *bin = b->bin;
    size_t n = bin->n_tasks;
    rtp_task *declared = rtp_alloc(n, sizeof *declared, diag), *eff = NULL;
    int *prio = rtp_alloc(n, sizeof *prio, diag);
    rtp_ns *resp = response ? response : rtp_alloc(n, sizeof *resp, diag);
    rtp_status st = RTP_ENOMEM;
    *v = (rpt_verdict){0, 0, -1, -1, 0, 0, ""};
    if (!declared || !prio || !resp)
        goto done;
    rtp_diag d;
    rtp_diag_clear(&d);
    if (r->plan->n_resources > 0) {
        st = analyse_locks(r, b, ov, response, v, &d);
        goto verdict;
    }
    for (size_t k = 0; k < n; k++) {
        declared[k] = bin->tasks[k].task;
        prio[k] = bin->tasks[k].priority;
    }
    if (!(eff = rtp_effective_new(declared, n, ov, b->policy, &st, diag)))
        goto done;
    if (b->policy == RTP_POLICY_EDF) {
        rtp_edf_result res;
        st = rtp_edf_qpa(eff, n, 1, &r->opts->limits, &res, &d);
        if (st == RTP_OK && res.schedulable)
            st = rtp_edf_bound(eff, n, &r->opts->limits, &v->edf_bound_ns, &d);
        v->schedulable = res.schedulable;
        if (res.has_first_miss)
            v->first_miss_ns = res.first_miss_ns;
        for (size_t k = 0; st == RTP_OK && !v->schedulable && k < n && v->late_task < 0; k++)
            if (eff[k].jitter_ns >= eff[k].deadline_ns) { /* docs/spec.md "rtpack simulate" */
                v->late_task = (long)k;
                v->jitter_late = 1;
            }
    } else {
        /* as deployed: SCHED_RR levels with their turns' switches (solver/rr.h) */
        rtp_rr_params rr = rtp_rr_params_of(r->plan->rr_quantum_ns, r->plan->tick_ns, ov);
        st = rtp_rr_fp_rta(eff, n, prio, &rr, resp, &v->schedulable, &r->opts->limits, &d);
        for (size_t k = 0; st == RTP_OK && !v->schedulable && k < n && v->late_task < 0; k++)
            if (resp[k] < 0)
                v->late_task = (long)k;
    }
verdict:
    if (st == RTP_OK) {
        v->analysed = 1;
    } else if (st == RTP_ELIMIT) {
        snprintf(v->note, sizeof v->note, "not decided: the exact test hit a resource limit "
                                          "(%.200s)", d.message);
        st = RTP_OK;
    } else if (st == RTP_EINPUT && r->plan->n_resources > 0) { /* e.g. fmlp+ under EDF */
        snprintf(v->note, sizeof v->note, "not analysed: %.300s", d.message);
        st = RTP_OK;
    } else {
        *diag = d;
    }
done:
    free(declared);
    free(eff);
    free(prio);
    if (resp != response)
        free(resp);
    return st;
}

/* Two orders of a bin's tasks, ties in the plan's order: by slack relative
 * to the deadline (a task past its deadline first), and by wcet_max / wcet
 * (a task without wcet_max first). The tables list the tasks tightest
 * first: by slack under FP, by growth under EDF (whose bound is the
 * deadline itself); the margins by growth. */
typedef struct key {
    int missing;   /* no slack / no margin: sorts first */
    __int128 num, den;
    size_t index;
} key;

static int key_cmp(const void *a, const void *b)
{
    const key *x = a, *y = b;
    if (x->missing != y->missing)
        return x->missing ? -1 : 1;
    __int128 l = x->num * y->den, g = y->num * x->den;
    if (!x->missing && l != g)
        return l < g ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

static rtp_status sort_tasks(rpt_bin *b, int by_slack, size_t *order, rtp_diag *diag)
{
    size_t n = b->bin->n_tasks;
    key *keys = rtp_alloc(n, sizeof *keys, diag);
    if (!keys)
        return RTP_ENOMEM;
    for (size_t k = 0; k < n; k++) {
        const rpt_task *t = &b->tasks[k];
        keys[k].index = k;
        if (by_slack) {
            keys[k].missing = t->response_ns < 0;
            keys[k].num = t->pt->task.deadline_ns - t->response_ns;
            keys[k].den = t->pt->task.deadline_ns;
        } else {
            keys[k].missing = t->wcet_max_ns < 0;
            keys[k].num = t->wcet_max_ns;
            keys[k].den = t->pt->task.wcet_ns;
        }
    }
    qsort(keys, n, sizeof *keys, key_cmp);
    for (size_t k = 0; k < n; k++)
        order[k] = keys[k].index;
    free(keys);
    return RTP_OK;
}

/* Sensitivity on a copy (rtp_part_sensitivity writes into the plan it is
 * given; the plan document is the one deep copy models/ offers). */
static rtp_status sensitivity(rpt *r, rtp_diag *diag)
{
    if (r->plan->n_resources > 0) { /* as partition --sensitivity refuses them */
        snprintf(r->sens_note, sizeof r->sens_note,
                 "not computed: the sensitivity analysis does not model shared resources yet");
        return RTP_OK;
    }
    char *text = rtp_plan_to_json(r->plan, 0);
    if (!text)
        return rtp_oom(diag);
    rtp_diag d;
    rtp_diag_clear(&d);
    rtp_status st = rtp_plan_parse_json(text, strlen(text), &r->sens, &d);
    free(text);
    if (st == RTP_ENOMEM)
        return rtp_oom(diag);
    if (st != RTP_OK) { /* a plan built in memory with names no document may hold */
        snprintf(r->sens_note, sizeof r->sens_note,
                 "not computed: the plan does not read back as a plan document (%.300s)",
                 d.message);
        return RTP_OK;
    }
    rtp_part_opts po = rtp_part_opts_default();
    po.policy = r->fp ? RTP_POLICY_FP : RTP_POLICY_EDF;
    po.priority = r->opts->priority;
    po.capacity = r->opts->capacity;
    po.limits = r->opts->limits;
    rtp_diag_clear(&d);
    st = rtp_part_sensitivity(&r->sens, &po, &d);
    if (st == RTP_ELIMIT) {
        snprintf(r->sens_note, sizeof r->sens_note,
                 "not computed: the search hit a resource limit (%.300s)", d.message);
        return RTP_OK;
    }
    if (st != RTP_OK) {
        *diag = d;
        return st;
    }
    r->has_sens = 1;
    for (size_t j = 0; j < r->plan->n_bins; j++) {
        rpt_bin *b = &r->bins[j];
        b->scaling = &r->sens.bins[j].scaling;
        for (size_t k = 0; k < b->bin->n_tasks; k++) {
            const rtp_plan_task *s = &r->sens.bins[j].tasks[k];
            b->tasks[k].wcet_max_ns = s->has_wcet_max ? s->wcet_max_ns : -1;
        }
    }
    return RTP_OK;
}

/* emit's verdict, as rtp_deploy_judge words it. */
static rtp_status deployability(rpt *r, rtp_diag *diag)
{
    rtp_diag d;
    rtp_diag_clear(&d);
    int ok = 0;
    rtp_status st = rtp_deploy_check(r->plan, &r->deploy, &ok, &d);
    if (st == RTP_ENOMEM || st == RTP_EINTERNAL) {
        *diag = d;
        return st;
    }
    r->deployable = st == RTP_OK && ok;
    if (st == RTP_ELIMIT)
        snprintf(r->deploy_reason, sizeof r->deploy_reason,
                 "the re-check hit a resource limit: %s", d.message);
    else if (!r->deployable)
        rtp_diag_format(&d, NULL, r->deploy_reason, sizeof r->deploy_reason);
    return RTP_OK;
}

/* The lock overhead counts only where some task takes a lock: a plan
 * without critical sections is covered whatever the probe's lock. */
static int covers(const rtp_plan *plan, const rtp_probe_report *p)
{
    const rtp_overheads *ov = &plan->overheads;
    return ov->release_latency_ns >= p->release_latency_ns &&
           ov->context_switch_ns >= p->context_switch_ns &&
           ov->deadline_charge_ns >= p->deadline_charge_ns &&
           ov->noise_per_ms_ns >= p->noise_per_ms_ns &&
           (plan->n_resources == 0 || ov->lock_ns >= p->lock_ns);
}

static rtp_status build_bin(rpt *r, size_t j, rtp_diag *diag)
{
    const rtp_plan *plan = r->plan;
    rpt_bin *b = &r->bins[j];
    const rtp_plan_bin *bin = b->bin = &plan->bins[j];
    size_t n = bin->n_tasks;
    int edf = plan->policy == RTP_POLICY_EDF || plan->policy == RTP_POLICY_GEDF;
    b->policy = bin->n_cpus > 1 ? (edf ? RTP_POLICY_GEDF : RTP_POLICY_GFP)
                                : (edf ? RTP_POLICY_EDF : RTP_POLICY_FP);
    for (size_t k = 0; k < n; k++)
        b->rr |= bin->tasks[k].task.rr;
    r->rr |= b->rr;
    rtp_deploy_bin_path(plan, j, b->path, sizeof b->path);
    bin_name(bin, b->name, sizeof b->name);
    if (!(b->tasks = rtp_alloc(n, sizeof *b->tasks, diag)) ||
        !(b->order = rtp_alloc(n, sizeof *b->order, diag)) ||
        !(b->growth = rtp_alloc(n, sizeof *b->growth, diag)))
        return RTP_ENOMEM;
    rtp_ns *resp = rtp_alloc(n, sizeof *resp, diag);
    if (!resp)
        return RTP_ENOMEM;
    rtp_status st = RTP_OK;
    for (size_t k = 0; k < n && st == RTP_OK; k++) {
        rpt_task *t = &b->tasks[k];
        t->pt = &bin->tasks[k];
        t->response_ns = -1;
        t->wcet_max_ns = -1;
        t->sim.response_max_ns = t->sim.first_miss_ns = -1;
        snprintf(t->path, sizeof t->path, "%s.tasks[%zu]", b->path, k);
        if ((st = rtp_effective_wcet(&t->pt->task, &plan->overheads, b->policy, &t->c_eff)) !=
            RTP_OK) {
            st = rtp_diag_set(diag, RTP_ELIMIT, "", "task %.80s: wcet plus overheads passes "
                                                    "2^62 ns", t->pt->task.name);
            break;
        }
        b->u += (double)t->pt->task.wcet_ns / (double)t->pt->task.period_ns;
        b->u_eff += (double)t->c_eff / (double)t->pt->task.period_ns;
        if (edf) {
            rtp_diag d;
            rtp_diag_clear(&d);
            t->has_runtime =
                rtp_deploy_runtime(plan, &t->pt->task, &r->deploy, &t->runtime_ns, &d) == RTP_OK;
        } else {
            t->fifo_priority = rtp_deploy_fifo_priority(bin, k, &r->deploy);
        }
        r->n_placed++;
    }
    if (st == RTP_OK && n > 0 && bin->n_cpus == 1)
        st = analyse(r, b, &plan->overheads, resp, &b->own, diag);
    for (size_t k = 0; st == RTP_OK && k < n; k++)
        b->tasks[k].response_ns = b->own.analysed && !edf       ? resp[k]
                                  : bin->n_cpus > 1 && !edf ? bin->tasks[k].response_time_ns
                                                            : -1;
    if (st == RTP_OK && n > 0 && bin->n_cpus == 1 && r->probe && r->probe->has_overheads &&
        !r->probe_covers) {
        /* a probe that measured no lock (0) leaves the plan's */
        rtp_overheads ov = {r->probe->release_latency_ns, r->probe->context_switch_ns,
                            r->probe->deadline_charge_ns, r->probe->noise_per_ms_ns,
                            r->probe->lock_ns ? r->probe->lock_ns : plan->overheads.lock_ns};
        st = analyse(r, b, &ov, NULL, &b->probe, diag);
    }
    free(resp);
    return st;
}

rtp_status rpt_model_build(rpt *r, rtp_diag *diag)
{
    const rtp_plan *plan = r->plan;
    r->deploy = r->opts->deploy;
    if (!r->opts->margin_given && r->rehearsal)
        r->deploy.runtime_margin = r->rehearsal->runtime_margin;
    if (r->rehearsal) { /* emit's parameters as the rehearsal deployed them */
        r->deploy.reclaim = r->rehearsal->reclaim;
        r->deploy.overrun_signal = r->rehearsal->overrun_signal;
    }
    r->fp = plan->policy == RTP_POLICY_FP || plan->policy == RTP_POLICY_GFP;
    r->probe_covers = !r->probe || !r->probe->has_overheads || covers(plan, r->probe);
    if (!(r->bins = rtp_alloc(plan->n_bins, sizeof *r->bins, diag)))
        return RTP_ENOMEM;
    rtp_status st = RTP_OK;
    for (size_t j = 0; j < plan->n_bins && st == RTP_OK; j++)
        st = build_bin(r, j, diag);
    if (st == RTP_OK)
        st = sensitivity(r, diag);
    if (st == RTP_OK)
        st = deployability(r, diag);
    r->all_schedulable = plan->n_unassigned == 0;
    for (size_t j = 0; st == RTP_OK && j < plan->n_bins; j++) {
        rpt_bin *b = &r->bins[j];
        if (b->bin->n_tasks > 0 && b->bin->n_cpus == 1)
            r->all_schedulable &= b->own.analysed && b->own.schedulable;
        else if (b->bin->n_tasks > 0) /* a cluster: its global test, as the plan names it */
            r->all_schedulable &= b->bin->test[0] != '\0';
        st = sort_tasks(b, r->fp, b->order, diag);
        if (st == RTP_OK)
            st = sort_tasks(b, 0, b->growth, diag);
    }
    /* The rehearsal's totals, for the verdicts. */
    for (size_t k = 0; st == RTP_OK && r->rehearsal && k < r->rehearsal->n_tasks; k++) {
        const rtp_rehearse_task *t = &r->rehearsal->tasks[k];
        r->seen_misses += t->misses;
        r->seen_jobs += t->jobs;
        r->seen_over += (size_t)rtp_rehearse_over_bound(t);
    }
    return st;
}

void rpt_model_free(rpt *r)
{
    for (size_t j = 0; r->bins && j < r->plan->n_bins; j++) {
        free(r->bins[j].tasks);
        free(r->bins[j].order);
        free(r->bins[j].growth);
    }
    free(r->bins);
    free(r->gantt_svg);
    rtp_plan_free(&r->sens);
    r->bins = NULL;
    r->gantt_svg = NULL;
}
