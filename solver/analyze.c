/* solver/analyze.c — rtp_analyze (solver/analyze.h): the exact test of the
 * policy on the effective tasks, the document's rows, and the sensitivity
 * when asked. Moved from cli/cmd_analyze.c so that the CLI, bench and the
 * Python package run the same code. */
#include "solver/analyze.h"

#include "models/effective.h"
#include "models/ratio.h"
#include "solver/apa.h"
#include "solver/fmlp.h"
#include "solver/locks.h"
#include "solver/rr.h"
#include "solver/schedtest.h"
#include "solver/sensitivity_locks.h"
#include "solver/tardiness.h"
#include <stdio.h>

#include <stdlib.h>
#include <string.h>

rtp_analyze_opts rtp_analyze_opts_default(rtp_policy policy)
{
    rtp_analyze_opts o;
    memset(&o, 0, sizeof o);
    o.policy = policy;
    o.priority = policy == RTP_POLICY_GFP ? RTP_PRIO_DM : RTP_PRIO_OPA;
    o.limits = rtp_limits_default();
    return o;
}

void rtp_analysis_free(rtp_analysis *a)
{
    free(a->wcet_max);
    free(a->tardiness);
    free(a->mask);
    rtp_scaling_free(&a->scaling);
    free(a->eff_copy);
    free(a->rows);
    free(a->priority);
    free(a->response);
}

static int is_global(rtp_policy p)
{
    return p == RTP_POLICY_GEDF || p == RTP_POLICY_GFP;
}

/* --sensitivity: wcet_max per task and the critical scaling factor into the
 * document (docs/spec.md "Sensitivity"). */
/* 1 when some task's mask is not the whole cluster of `cpus` CPUs: the
 * verdict is then the arbitrary-affinity analysis's (apa_masks, apa()). */
static int masks_restricted(const uint64_t *mask, size_t n, int cpus)
{
    uint64_t full = cpus >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << cpus) - 1;
    for (size_t i = 0; i < n; i++)
        if (mask[i] != full)
            return 1;
    return 0;
}

static rtp_status sensitivity(const rtp_taskset *ts, const rtp_test *test, rtp_analysis *a,
                              rtp_diag *diag)
{
    size_t n = ts->n_tasks;
    const char *rr = rtp_sensitivity_rr_refusal(test->policy, ts->tasks, n, a->priority);
    if (rr) { /* no wcet_max, no factor */
        memset(&a->scaling, 0, sizeof a->scaling);
        a->scaling.not_defined = rr;
        return RTP_OK;
    }
    int apa = a->mask && masks_restricted(a->mask, n, test->cpus);
    if (apa && test->policy == RTP_POLICY_GEDF) { /* not schedulable (gedf_restricted) */
        if (!(a->wcet_max = malloc((n ? n : 1) * sizeof *a->wcet_max)))
            return RTP_ENOMEM;
        for (size_t i = 0; i < n; i++) {
            a->wcet_max[i] = -1;
            a->rows[i].has_wcet_max = 1;
            a->rows[i].wcet_max_ns = -1;
        }
        return rtp_sensitivity_scaling(test, ts->tasks, n, &ts->platform.overheads,
                                       &a->scaling, diag); /* not defined on 2+ CPUs */
    }
    if (apa && test->priority == RTP_PRIO_OPA) { /* no wcet_max, no factor */
        memset(&a->scaling, 0, sizeof a->scaling);
        a->scaling.not_defined = "not computed for arbitrary affinities under OPA (the "
                                 "arbitrary-affinity analysis runs the order OPA chose, "
                                 "which moves with the wcets)";
        return RTP_OK;
    }
    if (!(a->wcet_max = malloc((n ? n : 1) * sizeof *a->wcet_max)))
        return RTP_ENOMEM;
    rtp_status st;
    if (apa) { /* the verdict is the APA analysis's (apa() below), not the global test's */
        st = rtp_apa_wcet_max(ts->tasks, n, &ts->platform.overheads, a->mask, a->priority,
                              &test->limits, a->wcet_max, diag);
        if (st == RTP_OK) /* a global cluster: the factor is not defined */
            st = rtp_sensitivity_scaling(test, ts->tasks, n, &ts->platform.overheads,
                                         &a->scaling, diag);
    } else if (rtp_tasks_have_requests(ts->tasks, n)) { /* one CPU: one bin, all local */
        size_t *cpu = calloc(n ? n : 1, sizeof *cpu);
        st = cpu ? rtp_sensitivity_locks_wcet_max(test, ts->resources, ts->n_resources,
                                                  ts->tasks, n, cpu, 1, &ts->platform.overheads,
                                                  a->wcet_max, diag)
                 : rtp_oom(diag);
        free(cpu);
        memset(&a->scaling, 0, sizeof a->scaling);
        a->scaling.not_defined = rtp_sensitivity_locks_no_factor();
    } else {
        st = rtp_sensitivity_wcet_max(test, ts->tasks, n, &ts->platform.overheads, a->wcet_max,
                                      diag);
        if (st == RTP_OK)
            st = rtp_sensitivity_scaling(test, ts->tasks, n, &ts->platform.overheads,
                                         &a->scaling, diag);
    }
    if (st != RTP_OK)
        return st;
    for (size_t i = 0; i < n; i++) {
        a->rows[i].has_wcet_max = 1;
        a->rows[i].wcet_max_ns = a->wcet_max[i];
    }
    a->doc.scaling.present = !a->scaling.unbounded && !a->scaling.not_defined;
    a->doc.scaling.exact = a->scaling.exact;
    a->doc.scaling.decimal = a->scaling.decimal;
    return RTP_OK;
}

/* Per task the computed blocking, spin and binding resource (docs/spec.md
 * "Shared resources"): all tasks on one CPU, so every resource is local. */
static rtp_status lock_terms(const rtp_taskset *ts, rtp_analysis *a, const rtp_test *test,
                             rtp_diag *diag)
{
    size_t n = ts->n_tasks;
    size_t *cpu = calloc(n ? n : 1, sizeof *cpu);
    rtp_locks_task *out = malloc((n ? n : 1) * sizeof *out);
    int sched;
    rtp_status st = !cpu || !out ? rtp_oom(diag)
                                 : rtp_locks_partitioned(ts->resources, ts->n_resources, a->eff,
                                                         n, cpu, 1, test, &sched, out, diag);
    for (size_t i = 0; st == RTP_OK && i < n; i++) {
        rtp_analysis_task *r = &a->rows[i];
        r->has_locks = 1;
        r->computed_blocking_ns = out[i].blocking_ns;
        r->spin_ns = out[i].spin_ns;
        r->blocking_resource =
            out[i].binding == RTP_LOCKS_NONE ? NULL : ts->resources[out[i].binding].name;
        r->has_suspension = rtp_fmlp_present(a->eff, n);
        r->suspension_ns = out[i].suspension_ns;
    }
    free(cpu);
    free(out);
    return st;
}

/* Each task's mask over the cluster's CPUs; *restricted = some mask is not
 * the whole cluster. */
static rtp_status apa_masks(const rtp_taskset *ts, const int *ids, size_t n_ids, rtp_analysis *a,
                            int *restricted, rtp_diag *diag)
{
    size_t n = ts->n_tasks;
    if (!(a->mask = malloc((n ? n : 1) * sizeof *a->mask)))
        return RTP_ENOMEM;
    uint64_t full = n_ids >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << n_ids) - 1;
    for (size_t i = 0; i < n; i++) {
        if (!ts->tasks[i].affinity)
            a->mask[i] = full;
        else if (n_ids > 64)
            return rtp_diag_set(diag, RTP_EINPUT, "platform.cpus",
                                "arbitrary affinities are analysed on clusters of at most 64 "
                                "CPUs");
        else {
            rtp_status st = rtp_apa_mask(&ts->tasks[i], ids, n_ids, &a->mask[i], diag);
            if (st != RTP_OK)
                return st;
        }
    }
    *restricted = masks_restricted(a->mask, n, (int)n_ids);
    return RTP_OK;
}

/* gfp with restricted masks: the APA bounds under the order the global
 * analysis chose (any strict order is analysed soundly); "apa" when every
 * task has one. Not applicable when push/pull may strand a task (masks not
 * nested by priority) or outside the tests' preconditions. */
static rtp_status apa(rtp_analysis *a, size_t n, const rtp_analyze_opts *s, rtp_test_result *res,
                      rtp_diag *diag)
{
    size_t x, y;
    res->accepted_by = NULL;
    res->schedulable = 0;
    for (size_t i = 0; i < n; i++)
        a->response[i] = -1;
    if (!rtp_apa_nested(a->mask, n, a->priority, &x, &y)) {
        snprintf(a->why, sizeof a->why,
                 "Linux's push/pull may strand %s: its CPUs are not within those of the more "
                 "urgent %s (arbitrary affinities are analysed when the masks of migrating "
                 "tasks are nested by priority)", a->eff[y].name, a->eff[x].name);
        return RTP_OK;
    }
    rtp_global_verdict v;
    rtp_status st = rtp_apa_rta(a->eff, n, a->mask, a->priority, &s->limits, a->response, &v,
                                diag);
    if (st != RTP_OK)
        return st;
    if (v == RTP_GLOBAL_NA)
        snprintf(a->why, sizeof a->why, "the arbitrary-affinity analysis does not model blocking "
                 "and needs constrained deadlines and every affinity to name a CPU of the "
                 "cluster");
    res->schedulable = v == RTP_GLOBAL_ACCEPT;
    res->accepted_by = res->schedulable ? "apa" : NULL;
    return RTP_OK;
}

/* gedf with an affinity narrower than the cluster: the global EDF tests
 * (and the tardiness bounds) assume every task may run on every CPU, and
 * Linux gives a SCHED_DEADLINE task no narrower affinity than its root
 * domain, so nothing is claimed (review rev13b: the tests' "schedulable"
 * on a set whose affinities overload one CPU). */
static void gedf_restricted(rtp_analysis *a, rtp_test_result *res)
{
    res->schedulable = 0;
    res->accepted_by = NULL;
    res->has_first_miss = 0;
    snprintf(a->why, sizeof a->why,
             "the global EDF tests assume every task may run on every CPU of the cluster, and "
             "SCHED_DEADLINE takes no narrower affinity: give the tasks no affinity, or use "
             "gfp (arbitrary affinities under SCHED_FIFO) or partition");
}

rtp_status rtp_analyze(const rtp_taskset *ts, const rtp_analyze_opts *s, rtp_analysis *a,
                       rtp_diag *diag)
{
    size_t n = ts->n_tasks;
    memset(a, 0, sizeof *a);
    int cpus = 1, restricted = 0;
    if (is_global(s->policy)) {
        int *ids = NULL;
        size_t n_ids = 0;
        rtp_status st = rtp_taskset_cpu_ids(ts, s->cpus_override, &ids, &n_ids, diag);
        /* gfp with an affinity narrower than the cluster: Linux's push/pull
         * runs the tasks on their masks (solver/apa.h); gedf: the global EDF
         * tests assume every task may run on every CPU (below) */
        if (st == RTP_OK && n_ids >= 2)
            st = apa_masks(ts, ids, n_ids, a, &restricted, diag);
        free(ids);
        if (st != RTP_OK)
            return st;
        cpus = (int)n_ids;
    }
    rtp_status st;
    /* without overheads C' = C and J' = J: no copy (a batch line's tasks
     * were copied only to be read) */
    if (rtp_overheads_zero(&ts->platform.overheads))
        a->eff = ts->tasks;
    else if (!(a->eff = a->eff_copy =
                   rtp_effective_new(ts->tasks, n, &ts->platform.overheads, s->policy, &st, diag)))
        return st;
    a->rows = calloc(n ? n : 1, sizeof *a->rows);
    a->priority = calloc(n ? n : 1, sizeof *a->priority);
    a->response = malloc((n ? n : 1) * sizeof *a->response);
    if (!a->rows || !a->priority || !a->response)
        return RTP_ENOMEM;
    for (size_t i = 0; i < n; i++)
        a->response[i] = -2; /* "not computed" */
    rtp_test test = rtp_test_exact(s->policy, s->priority, cpus, s->limits);
    test.want_first_miss = 1;
    test.rr = rtp_rr_params_of(ts->platform.rr_quantum_ns, ts->platform.tick_ns,
                               &ts->platform.overheads);
    rtp_test_result res;
    memset(&res, 0, sizeof res);
    int fixed = s->policy == RTP_POLICY_FP || s->policy == RTP_POLICY_GFP;
    if (fixed) {
        res.priority = a->priority;
        res.response_time = a->response;
    }
    st = rtp_test_run(&test, a->eff, n, &res, diag);
    if (st == RTP_OK && restricted && s->policy == RTP_POLICY_GFP)
        st = apa(a, n, s, &res, diag);
    if (st == RTP_OK && restricted && s->policy == RTP_POLICY_GEDF)
        gedf_restricted(a, &res);
    if (st != RTP_OK)
        return st;
    /* soft real-time: tardiness bounds whenever U <= M, whatever the hard
     * tests said (docs/spec.md "analyze --json"); not with affinities, which
     * their analyses [DA08] [EGB10] do not model either */
    if (s->policy == RTP_POLICY_GEDF && !restricted) {
        if (!(a->tardiness = malloc((n ? n : 1) * sizeof *a->tardiness)))
            return RTP_ENOMEM;
        st = rtp_tardiness_bounds(a->eff, n, cpus, &s->limits, a->tardiness, &a->bounded,
                                  diag);
        /* a hard test accepted: every bound is 0 whatever [DA08]/[EGB10]
         * give, so when theirs cannot be computed (past 2^63 ns or
         * --max-iterations: rtp_tardiness_bounds then gives neither) the
         * bounds are the hard test's 0 and both of their members are left
         * out (docs/spec.md "analyze --json"); without a hard test's 0 the
         * bound is the answer asked for: a resource limit */
        if (st == RTP_ELIMIT && res.schedulable) {
            rtp_diag_clear(diag);
            for (size_t i = 0; i < n; i++)
                a->tardiness[i].bound_ns = 0; /* da_ns, cv_ns stay -1 */
            a->bounded = 1;
            st = RTP_OK;
        }
        if (st != RTP_OK)
            return st;
    }
    rtp_analysis_doc *d = &a->doc;
    d->policy = s->policy;
    d->has_priority_rule = fixed;
    d->priority_rule = s->priority;
    d->cpus = is_global(s->policy) ? cpus : 0;
    d->schedulable = res.schedulable;
    d->has_assignment_found = s->policy == RTP_POLICY_FP;
    d->assignment_found = res.assignment_found;
    d->has_test = is_global(s->policy);
    d->test = res.accepted_by;
    /* (the APA analysis models jitter: its own reason, a->why, when it does
     * not apply) */
    if (is_global(s->policy) && cpus >= 2 && !res.schedulable && !restricted &&
        rtp_tasks_have_delays(a->eff, n))
        d->not_applicable = "the global tests do not model release jitter or blocking";
    if (a->why[0])
        d->not_applicable = a->why;
    d->utilization = rtp_load_double(ts->tasks, n, RTP_LOAD_UTIL);
    d->has_effective_utilization = rtp_overheads_stretch(&ts->platform.overheads, s->policy);
    if (d->has_effective_utilization) /* exact (GMP): only when it is shown */
        d->effective_utilization = rtp_load_exact_double(a->eff, n, RTP_LOAD_UTIL);
    d->has_first_miss = res.has_first_miss;
    d->first_miss_ns = res.first_miss_ns;
    for (size_t i = 0; i < n; i++) {
        const rtp_task *t = &ts->tasks[i];
        rtp_analysis_task *r = &a->rows[i];
        r->name = t->name;
        r->wcet_ns = t->wcet_ns;
        r->deadline_ns = t->deadline_ns;
        r->period_ns = t->period_ns;
        r->jitter_ns = t->jitter_ns;
        r->blocking_ns = t->blocking_ns;
        r->has_priority = fixed && a->priority[i] > 0;
        r->priority = a->priority[i];
        /* not applicable: no response bound is claimed either way */
        r->has_response = fixed && a->response[i] != -2 && !d->not_applicable;
        r->response_time_ns = a->response[i];
        r->has_meets_deadline = r->has_response;
        r->meets_deadline = a->response[i] >= 0;
        r->has_tardiness = a->bounded;
        if (a->bounded) {
            /* a hard test's acceptance is the tighter statement: 0 */
            r->tardiness_ns = res.schedulable ? 0 : a->tardiness[i].bound_ns;
            r->tardiness_by = res.schedulable ? res.accepted_by
                              : r->tardiness_ns == a->tardiness[i].cv_ns ? "cv" : "da";
            r->tardiness_da_ns = a->tardiness[i].da_ns;
            r->tardiness_cv_ns = a->tardiness[i].cv_ns;
        }
    }
    d->tasks = a->rows;
    d->n_tasks = n;
    if (rtp_tasks_have_requests(ts->tasks, n)) {
        if ((st = lock_terms(ts, a, &test, diag)) != RTP_OK)
            return st;
    }
    return s->sensitivity ? sensitivity(ts, &test, a, diag) : RTP_OK;
}
