/* sim/simulate.c — see simulate.h: which tasks run where (a task set's one
 * bin, a plan's bins), the one horizon, the periodic model bin by bin, and
 * the document's rows and notes. */
#include "sim/simulate.h"

#include "models/effective.h"
#include "sim/sim.h"
#include "solver/analyze.h"
#include "solver/apa.h"
#include "solver/fp.h"
#include "solver/global.h"
#include "solver/locks.h"
#include "solver/rr.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

rtp_simulate_opts rtp_simulate_opts_default(rtp_policy policy)
{
    return (rtp_simulate_opts){
        .policy = policy,
        .priority = policy == RTP_POLICY_GFP ? RTP_PRIO_DM : RTP_PRIO_OPA,
        .limits = rtp_limits_default(),
    };
}

static int fixed(rtp_policy p)
{
    return p == RTP_POLICY_FP || p == RTP_POLICY_GFP;
}

static rtp_status option_error(rtp_simulation *out, rtp_diag *diag, const char *message)
{
    out->option_error = 1;
    return rtp_diag_set(diag, RTP_EINPUT, "", "%s", message);
}

/* With critical sections the order is OPA over each level's blocking
 * (solver/locks.h): the one rtp_analyze computes, taken from it. */
static rtp_status locked_priorities(const rtp_taskset *ts, const rtp_simulate_opts *o,
                                    rtp_simulation *out, rtp_diag *diag)
{
    rtp_analyze_opts ao = rtp_analyze_opts_default(RTP_POLICY_FP);
    ao.priority = o->priority;
    ao.limits = o->limits;
    rtp_analysis a;
    rtp_status st = rtp_analyze(ts, &ao, &a, diag);
    if (st == RTP_OK) {
        memcpy(out->prio_store, a.priority, ts->n_tasks * sizeof *out->prio_store);
        out->bins[0].priority = out->prio_store;
    }
    rtp_analysis_free(&a);
    return st;
}

/* A task set: one bin with the priorities analyze gives (computed on the
 * effective tasks, as analyze does). */
static rtp_status from_taskset(const rtp_taskset *ts, const rtp_simulate_opts *o,
                               rtp_simulation *out, rtp_diag *diag)
{
    size_t n = ts->n_tasks;
    int global = o->policy == RTP_POLICY_GEDF || o->policy == RTP_POLICY_GFP;
    rtp_status st = RTP_OK;
    if (o->cpus_override > 1 && !global) {
        char why[200];
        snprintf(why, sizeof why, "--cpus %d with --policy %s: one CPU is simulated; use "
                                  "--policy gedf|gfp for one cluster, or simulate a partition "
                                  "plan", o->cpus_override, rtp_policy_name(o->policy));
        return option_error(out, diag, why);
    }
    if (!(out->bins = calloc(1, sizeof *out->bins)))
        return rtp_oom(diag);
    out->n_bins = 1;
    rtp_sim_bin *b = &out->bins[0];
    if (global) {
        st = rtp_taskset_cpu_ids(ts, o->cpus_override, &out->cpu_store, &b->n_cpus, diag);
        if (st != RTP_OK)
            return st;
    } else {
        if (!(out->cpu_store = malloc(sizeof *out->cpu_store)))
            return rtp_oom(diag);
        out->cpu_store[0] = ts->has_platform && ts->platform.n_cpus ? ts->platform.cpus[0] : 0;
        b->n_cpus = 1;
    }
    b->cpus = out->cpu_store;
    b->policy = o->policy;
    b->n = n;
    out->tasks = ts->tasks;
    out->n_tasks = n;
    if (!fixed(o->policy))
        return RTP_OK;
    out->prio_store = calloc(n ? n : 1, sizeof *out->prio_store);
    if (out->prio_store && o->policy == RTP_POLICY_FP && rtp_tasks_have_requests(ts->tasks, n))
        return locked_priorities(ts, o, out, diag);
    rtp_task *eff = out->prio_store ? rtp_effective_new(ts->tasks, n, &ts->platform.overheads,
                                                        o->policy, &st, diag)
                                    : NULL;
    if (!eff)
        return out->prio_store ? st : rtp_oom(diag);
    b->priority = out->prio_store;
    int found = 1;
    if (o->policy == RTP_POLICY_GFP && b->n_cpus > 1 && o->priority == RTP_PRIO_OPA)
        st = rtp_global_fp_opa(eff, n, (int)b->n_cpus, out->prio_store, &found, diag);
    else if (o->policy == RTP_POLICY_GFP && b->n_cpus > 1 && o->priority != RTP_PRIO_GIVEN)
        rtp_global_monotonic(eff, n, o->priority, out->prio_store);
    else
        st = rtp_fp_assign(eff, n, o->priority, out->prio_store, &found, &o->limits, diag);
    free(eff);
    return st;
}

/* A plan: one bin per CPU or cluster that has tasks. */
static rtp_status from_plan(const rtp_plan *p, rtp_simulation *out, rtp_diag *diag)
{
    size_t n = 0;
    for (size_t b = 0; b < p->n_bins; b++)
        n += p->bins[b].n_tasks;
    out->task_copy = calloc(n ? n : 1, sizeof *out->task_copy);
    out->prio_store = calloc(n ? n : 1, sizeof *out->prio_store);
    out->bins = calloc(p->n_bins ? p->n_bins : 1, sizeof *out->bins);
    out->unassigned = calloc(p->n_unassigned ? p->n_unassigned : 1, sizeof *out->unassigned);
    if (!out->task_copy || !out->prio_store || !out->bins || !out->unassigned)
        return rtp_oom(diag);
    for (size_t k = 0; k < p->n_unassigned; k++)
        out->unassigned[out->n_unassigned++] = p->unassigned[k].task.name;
    int edf = p->policy == RTP_POLICY_EDF || p->policy == RTP_POLICY_GEDF;
    for (size_t b = 0; b < p->n_bins; b++) {
        const rtp_plan_bin *pb = &p->bins[b];
        if (pb->n_tasks == 0)
            continue;
        rtp_sim_bin *x = &out->bins[out->n_bins++];
        x->policy = pb->n_cpus > 1 ? (edf ? RTP_POLICY_GEDF : RTP_POLICY_GFP)
                                   : (edf ? RTP_POLICY_EDF : RTP_POLICY_FP);
        x->cpus = pb->cpus;
        x->n_cpus = pb->n_cpus;
        x->first = out->n_tasks;
        x->n = pb->n_tasks;
        x->priority = edf ? NULL : &out->prio_store[x->first];
        for (size_t k = 0; k < pb->n_tasks; k++) {
            out->task_copy[out->n_tasks] = pb->tasks[k].task; /* shallow: the plan owns it */
            out->prio_store[out->n_tasks++] = pb->tasks[k].priority;
        }
    }
    out->tasks = out->task_copy;
    return RTP_OK;
}

static rtp_status find_overrun(const rtp_simulate_opts *o, rtp_simulation *out, rtp_diag *diag)
{
    out->overrun_index = -1;
    if (!o->overrun_task)
        return RTP_OK;
    for (size_t i = 0; i < out->n_tasks; i++)
        if (strcmp(out->tasks[i].name, o->overrun_task) == 0) {
            out->overrun_index = (long)i;
            out->overrun_ns = o->overrun_ns;
            return RTP_OK;
        }
    out->option_error = 1;
    return rtp_diag_set(diag, RTP_EINPUT, "", "--overrun: no task named '%s'%s",
                        o->overrun_task,
                        out->n_unassigned ? " among the plan's placed tasks" : "");
}

/* The platform terms of the task set or plan simulated. */
typedef struct source {
    const rtp_overheads *ov;
    rtp_ns rr_quantum_ns, tick_ns;
    const rtp_resource *resources;
    size_t n_resources;
} source;

static int has_requests(const rtp_simulation *out, const source *src)
{
    int any = src->n_resources > 0;
    for (size_t i = 0; i < out->n_tasks && !any; i++)
        any = out->tasks[i].n_requests > 0;
    return any;
}

/* With shared resources the bins (single CPUs) run as one simulation, each
 * task pinned to its bin's slot, so MSRP's spinning and FMLP+'s queues
 * couple them: slot[i] its bin, protocol[r] how r is run (an fmlp+ one by
 * FMLP+, else solver/locks.h's placement decides between MSRP and the
 * ceiling protocol, and refuses what the analysis refuses), cpu_ids[b] the
 * bin's CPU. */
static rtp_status lock_setup(const rtp_simulation *out, const source *src, size_t *slot,
                             int *protocol, int *cpu_ids, rtp_diag *diag)
{
    int edf = out->bins[0].policy == RTP_POLICY_EDF || out->bins[0].policy == RTP_POLICY_GEDF;
    for (size_t r = 0; r < src->n_resources; r++) {
        char path[RTP_DIAG_PATH_SIZE];
        snprintf(path, sizeof path, "resources[%zu].protocol", r);
        if (edf && src->resources[r].protocol == RTP_LOCK_FMLP)
            return rtp_diag_set(diag, RTP_EINPUT, path,
                                "fmlp+ is simulated, as it is analysed, under fixed priorities "
                                "only (--policy fp, or an fp plan)");
    }
    for (size_t b = 0; b < out->n_bins; b++) {
        if (out->bins[b].n_cpus > 1)
            return rtp_diag_set(diag, RTP_EINPUT, "resources",
                                "shared resources are simulated on single CPUs (a task set "
                                "under edf or fp, or a partitioned plan), not in a cluster of "
                                "%zu", out->bins[b].n_cpus);
        cpu_ids[b] = out->bins[b].cpus[0];
        for (size_t k = 0; k < out->bins[b].n; k++)
            slot[out->bins[b].first + k] = b;
    }
    rtp_task *placed = calloc(out->n_tasks ? out->n_tasks : 1, sizeof *placed);
    rtp_request *store = NULL;
    if (!placed)
        return rtp_oom(diag);
    rtp_status st = rtp_locks_place(src->resources, src->n_resources, out->tasks, out->n_tasks,
                                    slot, out->n_bins, placed, &store, diag);
    for (size_t i = 0; i < out->n_tasks && st == RTP_OK; i++)
        for (size_t q = 0; q < placed[i].n_requests; q++)
            if (placed[i].requests[q].np)
                protocol[placed[i].requests[q].resource] = RTP_SIM_LOCK_MSRP;
    for (size_t r = 0; r < src->n_resources && st == RTP_OK; r++)
        if (src->resources[r].protocol == RTP_LOCK_FMLP)
            protocol[r] = RTP_SIM_LOCK_FMLP;
    free(placed);
    free(store);
    return st;
}

/* Per bin, how its tasks are scheduled beyond the policy: SCHED_RR on one
 * CPU under fp (rr[] and the quantum), affinities in a gfp cluster (mask[],
 * NULL when every task may run on every CPU of it). *rr_left / *aff_left:
 * SCHED_RR tasks scheduled as SCHED_FIFO (in a cluster or under EDF), an
 * affinity naming no CPU of its cluster, or narrower than a gedf cluster
 * (the task runs on all of them). */
/* 1 when two of the n priorities are equal. Priorities are 1..n (sim.h);
 * `seen` is n ints of zeroed scratch, left zeroed: one pass, not n^2. */
static int tied(const int *priority, size_t n, int *seen)
{
    int any = 0;
    for (size_t k = 0; k < n && !any; k++) {
        size_t p = (size_t)priority[k] - 1;
        any = p < n && seen[p]++;
    }
    memset(seen, 0, n * sizeof *seen);
    return any;
}

static rtp_status bin_rules(const rtp_simulation *out, const rtp_sim_bin *x, const source *src,
                            rtp_ns until, int *rr, uint64_t *mask, rtp_sim_periodic_opts *po,
                            int *rr_left, int *aff_left, rtp_diag *diag)
{
    const rtp_task *t = &out->tasks[x->first];
    int any_rr = 0, restricted = 0;
    for (size_t k = 0; k < x->n; k++)
        any_rr |= rr[k] = t[k].rr;
    if (any_rr && (x->policy != RTP_POLICY_FP || x->n_cpus != 1))
        *rr_left = 1;
    else if (any_rr) {
        rtp_rr_params p = rtp_rr_params_of(src->rr_quantum_ns, src->tick_ns, src->ov);
        if (p.tick_ns > 0 && p.quantum_ns % p.tick_ns != 0)
            return rtp_diag_set(diag, RTP_EINPUT, "platform.tick",
                                "the SCHED_RR quantum is a whole number of ticks on Linux: the "
                                "tick must divide platform.rr_quantum");
        /* every tick (or quantum expiry) is an event: as many as jobs at most */
        if (until / (p.tick_ns > 0 ? p.tick_ns : p.quantum_ns) > (rtp_ns)RTP_SIM_MAX_JOBS)
            return rtp_diag_set(diag, RTP_ELIMIT, "",
                                "more than 10^7 SCHED_RR %s before the horizon: simulate a "
                                "shorter window (--until)", p.tick_ns > 0 ? "ticks" : "quanta");
        po->rr = rr;
        po->rr_quantum_ns = p.quantum_ns;
        po->tick_ns = p.tick_ns;
    }
    /* Equal SCHED_FIFO priorities on one CPU run on Linux's run lists too
     * (sim.h): a thread whose next job is already released goes on at the
     * head, which solver/fp.c's analysis of ties assumes; no RR thread, so
     * the quantum never applies. */
    if (!any_rr && x->policy == RTP_POLICY_FP && x->n_cpus == 1 && x->priority &&
        tied(x->priority, x->n, rr)) {
        po->rr = rr;
        po->rr_quantum_ns = 1;
        po->tick_ns = 0;
    }
    if (x->policy != RTP_POLICY_GFP && x->policy != RTP_POLICY_GEDF)
        return RTP_OK;
    uint64_t full = x->n_cpus >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << x->n_cpus) - 1;
    for (size_t k = 0; k < x->n; k++) {
        mask[k] = full;
        if (!t[k].affinity)
            continue;
        rtp_diag ignored;
        if (x->n_cpus > 64 ||
            rtp_apa_mask(&t[k], x->cpus, x->n_cpus, &mask[k], &ignored) != RTP_OK ||
            mask[k] == 0) {
            mask[k] = full;
            *aff_left = 1;
        }
        restricted |= mask[k] != full;
    }
    /* global EDF runs every task on the whole cluster, as SCHED_DEADLINE
     * does (Linux takes no narrower affinity for it): said, not simulated */
    if (x->policy == RTP_POLICY_GEDF) {
        *aff_left |= restricted;
        return RTP_OK;
    }
    po->mask = restricted ? mask : NULL;
    return RTP_OK;
}

/* What the periodic model leaves out, in the document's order. */
static void notes(rtp_simulation *out, const rtp_overheads *ov, int rr, int affinity)
{
    int jitter = 0, blocking = 0;
    size_t k = 0;
    for (size_t i = 0; i < out->n_tasks; i++) {
        jitter |= out->tasks[i].jitter_ns != 0;
        blocking |= out->tasks[i].blocking_ns != 0;
    }
    if (jitter)
        out->doc.not_simulated[k++] = "jitter";
    if (blocking)
        out->doc.not_simulated[k++] = "blocking";
    if (!rtp_overheads_zero(ov))
        out->doc.not_simulated[k++] = "overheads";
    if (rr)
        out->doc.not_simulated[k++] = "sched_rr";
    if (affinity)
        out->doc.not_simulated[k++] = "affinity";
}

/* With shared resources: every bin in one simulation (lock_setup). */
static rtp_status run_locks(const rtp_simulate_opts *o, const source *src, rtp_ns until,
                            rtp_simulation *out, rtp_sim_task_stats *stats, rtp_diag *diag)
{
    size_t n = out->n_tasks;
    size_t *slot = calloc(n ? n : 1, sizeof *slot);
    int *protocol = calloc(src->n_resources + 1, sizeof *protocol);
    int *cpu_ids = calloc(out->n_bins + 1, sizeof *cpu_ids);
    out->resource_names = calloc(src->n_resources + 1, sizeof *out->resource_names);
    rtp_status st = slot && protocol && cpu_ids && out->resource_names ? RTP_OK : rtp_oom(diag);
    for (size_t r = 0; r < src->n_resources && st == RTP_OK; r++)
        out->resource_names[r] = src->resources[r].name;
    if (st == RTP_OK)
        st = lock_setup(out, src, slot, protocol, cpu_ids, diag);
    if (st == RTP_OK) {
        rtp_sim_periodic_opts po = {.until_ns = until, .overrun_task = out->overrun_index,
                                    .overrun_ns = o->overrun_ns, .slot = slot,
                                    .n_resources = src->n_resources,
                                    .protocol = protocol};
        if (o->gantt) {
            po.hooks = rtp_gantt_rec_hooks(&out->gantt, 0, cpu_ids);
            po.section = rtp_gantt_rec_section;
            out->gantt.resource_names = out->resource_names;
        }
        rtp_ns used;
        st = rtp_sim_periodic(out->tasks, n, out->bins[0].policy, (int)out->n_bins,
                              out->prio_store, &po, stats, &used, diag);
        out->gantt.cpu_ids = NULL; /* freed below; only recording used it */
    }
    free(slot);
    free(protocol);
    free(cpu_ids);
    return st;
}

/* The horizon, then every bin over it. */
static rtp_status run(const rtp_simulate_opts *o, const source *src, rtp_simulation *out,
                      rtp_diag *diag)
{
    rtp_status st = find_overrun(o, out, diag);
    rtp_ns until = o->until_ns;
    uint64_t jobs = 0;
    out->until_default = until <= 0;
    if (st == RTP_OK && until <= 0)
        st = rtp_sim_default_until(out->tasks, out->n_tasks, &until, diag);
    if (st == RTP_OK)
        st = rtp_sim_count_jobs(out->tasks, out->n_tasks, until, &jobs, diag);
    if (st != RTP_OK)
        return st;
    if (o->gantt && o->gantt_from_ns >= until) {
        char why[120];
        snprintf(why, sizeof why, "--from must lie before the end of the simulation (%lld ns)",
                 (long long)until);
        return option_error(out, diag, why);
    }
    size_t n = out->n_tasks;
    rtp_sim_task_stats *stats = calloc(n ? n : 1, sizeof *stats);
    int *rr = calloc(n ? n : 1, sizeof *rr), rr_left = 0, aff_left = 0;
    uint64_t *mask = calloc(n ? n : 1, sizeof *mask);
    out->rows = calloc(n ? n : 1, sizeof *out->rows);
    if (!stats || !rr || !mask || !out->rows) {
        st = rtp_oom(diag);
        goto done;
    }
    if (o->gantt)
        rtp_gantt_rec_init(&out->gantt, o->gantt_from_ns, until);
    if (has_requests(out, src)) { /* SCHED_RR is not simulated together with them */
        st = run_locks(o, src, until, out, stats, diag);
        for (size_t i = 0; i < n; i++)
            rr_left |= out->tasks[i].rr;
        goto rows;
    }
    for (size_t b = 0; b < out->n_bins && st == RTP_OK; b++) {
        const rtp_sim_bin *x = &out->bins[b];
        long local = out->overrun_index >= (long)x->first &&
                             out->overrun_index < (long)(x->first + x->n)
                         ? out->overrun_index - (long)x->first : -1;
        rtp_sim_periodic_opts po = {.until_ns = until, .overrun_task = local,
                                    .overrun_ns = o->overrun_ns};
        if (o->gantt)
            po.hooks = rtp_gantt_rec_hooks(&out->gantt, x->first, x->cpus);
        st = bin_rules(out, x, src, until, &rr[x->first], &mask[x->first], &po, &rr_left,
                       &aff_left, diag);
        if (st != RTP_OK)
            break;
        rtp_ns used;
        st = rtp_sim_periodic(&out->tasks[x->first], x->n, x->policy, (int)x->n_cpus,
                              x->priority, &po, &stats[x->first], &used, diag);
    }
rows:
    for (size_t b = 0; b < out->n_bins && st == RTP_OK; b++) {
        const rtp_sim_bin *x = &out->bins[b];
        for (size_t k = 0; k < x->n; k++) {
            const rtp_sim_task_stats *t = &stats[x->first + k];
            out->rows[x->first + k] = (rtp_sim_doc_task){
                .name = out->tasks[x->first + k].name, .cpu = x->cpus[0],
                .cpus = x->n_cpus > 1 ? x->cpus : NULL, .n_cpus = x->n_cpus,
                .policy = x->policy, .priority = x->priority ? x->priority[k] : 0,
                .jobs = t->jobs, .misses = t->misses, .first_miss_ns = t->first_miss_ns,
                .response_max_ns = t->response_max_ns, .has_locks = has_requests(out, src),
                .blocking_max_ns = t->blocked_max_ns, .spin_max_ns = t->spin_max_ns};
        }
    }
    if (st == RTP_OK) {
        out->doc = (rtp_sim_doc){.until_ns = until, .tasks = out->rows, .n_tasks = n,
                                 .schedulable = 1};
        for (size_t i = 0; i < n; i++)
            out->doc.schedulable &= out->rows[i].misses == 0;
        notes(out, src->ov, rr_left, aff_left);
    }
done:
    free(stats);
    free(rr);
    free(mask);
    return st;
}

rtp_status rtp_simulate(const rtp_taskset *ts, const rtp_simulate_opts *opts,
                        rtp_simulation *out, rtp_diag *diag)
{
    memset(out, 0, sizeof *out);
    out->overrun_index = -1;
    rtp_status st = from_taskset(ts, opts, out, diag);
    source src = {&ts->platform.overheads, ts->platform.rr_quantum_ns, ts->platform.tick_ns,
                  ts->resources, ts->n_resources};
    return st == RTP_OK ? run(opts, &src, out, diag) : st;
}

rtp_status rtp_simulate_plan(const rtp_plan *plan, const rtp_simulate_opts *opts,
                             rtp_simulation *out, rtp_diag *diag)
{
    memset(out, 0, sizeof *out);
    out->overrun_index = -1;
    rtp_status st = from_plan(plan, out, diag);
    source src = {&plan->overheads, plan->rr_quantum_ns, plan->tick_ns, plan->resources,
                  plan->n_resources};
    return st == RTP_OK ? run(opts, &src, out, diag) : st;
}

static const char *policy_words(rtp_policy p)
{
    switch (p) {
    case RTP_POLICY_EDF: return "EDF";
    case RTP_POLICY_FP: return "fixed priority";
    case RTP_POLICY_GEDF: return "global EDF";
    default: return "global fixed priority";
    }
}

void rtp_sim_bin_title(const rtp_sim_bin *b, char *buf, size_t size)
{
    if (b->n_cpus == 1)
        snprintf(buf, size, "CPU %d: %s", b->cpus[0], policy_words(b->policy));
    else
        snprintf(buf, size, "CPUs %d..%d (%zu): %s", b->cpus[0], b->cpus[b->n_cpus - 1],
                 b->n_cpus, policy_words(b->policy));
}

char *rtp_simulation_svg(const rtp_simulation *s, const char *title)
{
    rtp_gantt_task *gt = calloc(s->n_tasks ? s->n_tasks : 1, sizeof *gt);
    rtp_gantt_section *sec = calloc(s->n_bins ? s->n_bins : 1, sizeof *sec);
    char *svg = NULL;
    if (!gt || !sec)
        goto done;
    for (size_t b = 0; b < s->n_bins; b++) {
        const rtp_sim_bin *x = &s->bins[b];
        rtp_sim_bin_title(x, sec[b].title, sizeof sec[b].title);
        sec[b].first = x->first;
        sec[b].n = x->n;
        sec[b].cpu_ids = x->cpus;
        sec[b].n_cpus = (int)x->n_cpus;
        for (size_t k = 0; k < x->n; k++) {
            const rtp_task *t = &s->tasks[x->first + k];
            gt[x->first + k] = (rtp_gantt_task){t->name, t->wcet_ns, t->deadline_ns,
                                                t->period_ns, 0,
                                                x->priority ? x->priority[k] : 0};
        }
    }
    if (s->overrun_index >= 0)
        gt[s->overrun_index].overrun_ns = s->overrun_ns;
    svg = rtp_gantt_svg(title, gt, s->n_tasks, sec, s->n_bins, &s->gantt);
done:
    free(gt);
    free(sec);
    return svg;
}

void rtp_simulation_free(rtp_simulation *s)
{
    if (!s)
        return;
    rtp_gantt_rec_free(&s->gantt);
    free(s->rows);
    free(s->resource_names);
    free(s->bins);
    free(s->unassigned);
    free(s->task_copy);
    free(s->prio_store);
    free(s->cpu_store);
    memset(s, 0, sizeof *s);
}
