/* heuristics/partition.c — see partition.h.
 *
 * Partitioning is heuristics/pack.c's engine with one bin per CPU: the one
 * packing loop of the four placements (first / best / worst / next fit
 * [Joh74], used for real-time partitioning since [DL78]), with
 * admission by affinity, exact capacity (rtp_load_cmp_plus) and the policy's
 * uniprocessor test (or the bound test), each CPU re-checked exactly. This
 * file adds the input rules and the `--explain` reasons (the names of the
 * orders and placements: heuristics/pack_names.c). */
#include "heuristics/partition.h"
#include "heuristics/pack.h"
#include "models/effective.h"
#include "solver/fp.h"
#include "solver/rr.h"

#include <stdlib.h>
#include <string.h>


rtp_part_opts rtp_part_opts_default(void)
{
    rtp_part_opts o;
    memset(&o, 0, sizeof o);
    o.policy = RTP_POLICY_EDF;
    o.priority = RTP_PRIO_OPA;
    o.placement = RTP_PLACE_FF;
    o.order = RTP_ORDER_UTIL;
    o.capacity.num = 1;
    o.capacity.den = 1;
    o.fit_measure = RTP_LOAD_UTIL;
    o.limits = rtp_limits_default();
    return o;
}

/* ---- packing: heuristics/pack.c with one bin per CPU ---- */

rtp_status rtp_part_check_input(const rtp_taskset *ts, const int *cpus, size_t m,
                                const rtp_part_opts *opts, rtp_diag *diag)
{
    if (m == 0)
        return rtp_diag_set(diag, RTP_EINPUT, "", "no CPUs to partition onto");
    if (opts->policy != RTP_POLICY_EDF && opts->policy != RTP_POLICY_FP)
        return rtp_diag_set(diag, RTP_EINPUT, "",
                            "partitioning needs a uniprocessor policy (edf or fp), not %s",
                            rtp_policy_name(opts->policy));
    rtp_status st = rtp_pack_check_input(ts, opts, diag);
    if (st != RTP_OK)
        return st;
    rtp_pack_bins platform = {&cpus, &m, 1};
    return rtp_pack_check_affinity(ts, &platform, "is not on the platform", diag);
}

/* Runs the engine (rtp_pack_best when `best`, else rtp_pack_run) on bins of
 * one CPU each, tested by the policy's uniprocessor test (size 1). */
static rtp_status pack_cpus(const rtp_taskset *ts, const int *cpus, size_t m,
                            const rtp_part_opts *opts, int best, rtp_plan *plan,
                            rtp_diag *diag)
{
    memset(plan, 0, sizeof *plan);
    rtp_status st = rtp_part_check_input(ts, cpus, m, opts, diag);
    if (st != RTP_OK)
        return st;
    const int **one = malloc(m * sizeof *one);
    size_t *len = malloc(m * sizeof *len);
    if (!one || !len) {
        st = rtp_diag_set(diag, RTP_ENOMEM, "", "out of memory");
        goto done;
    }
    for (size_t j = 0; j < m; j++) {
        one[j] = &cpus[j];
        len[j] = 1;
    }
    rtp_pack_job job = {ts, cpus, m, {one, len, m}, opts->policy, opts->bound_admission, 0};
    st = best ? rtp_pack_best(&job, opts, plan, diag) : rtp_pack_run(&job, opts, plan, diag);
done:
    free(one);
    free(len);
    return st;
}

rtp_status rtp_part_pack(const rtp_taskset *ts, const int *cpus, size_t n_cpus,
                         const rtp_part_opts *opts, rtp_plan *plan, rtp_diag *diag)
{
    return pack_cpus(ts, cpus, n_cpus, opts, 0, plan, diag);
}

rtp_status rtp_part_best(const rtp_taskset *ts, const int *cpus, size_t n_cpus,
                         const rtp_part_opts *opts, rtp_plan *plan, rtp_diag *diag)
{
    return pack_cpus(ts, cpus, n_cpus, opts, 1, plan, diag);
}

/* ---- explanation ---- */

rtp_status rtp_part_explain(const rtp_plan *plan, const rtp_part_opts *opts, size_t k,
                            rtp_part_miss *miss, rtp_diag *diag)
{
    memset(miss, 0, sizeof *miss);
    miss->reason = RTP_MISS_NO_CPU;
    miss->bin = RTP_PLAN_UNASSIGNED;
    if (plan->n_resources > 0) /* one CPU's test cannot see the spins: cli/explain_locks.c */
        return rtp_diag_set(diag, RTP_EINPUT, "resources",
                            "the per-CPU explanation does not model shared resources");
    if (k >= plan->n_unassigned || plan->clustered)
        return rtp_diag_set(diag, RTP_EINTERNAL, "", "no such unassigned task");
    const rtp_task *task = &plan->unassigned[k].task;
    rtp_status st0 = rtp_effective_wcet(task, &plan->overheads, opts->policy, &miss->wcet_eff_ns);
    if (st0 == RTP_OK)
        st0 = rtp_effective_jitter(task, &plan->overheads, &miss->jitter_eff_ns);
    if (st0 != RTP_OK)
        return rtp_diag_set(diag, st0, "", "task %s: wcet or jitter plus overheads passes 2^62 ns",
                            task->name);
    miss->blocking_ns = task->blocking_ns;
    int allowed = 0;
    for (size_t j = 0; j < plan->n_bins && !allowed; j++)
        allowed = rtp_pack_allowed(task, plan->bins[j].cpus, plan->bins[j].n_cpus);
    if (!allowed)
        return RTP_OK; /* RTP_MISS_NO_CPU */
    /* Alone on an empty CPU: the cause no CPU count or method can remove. */
    rtp_task alone;
    if ((st0 = rtp_effective_tasks(task, 1, &plan->overheads, opts->policy, &alone, diag)) !=
        RTP_OK)
        return st0;
    rtp_test exact1 = rtp_test_exact(opts->policy, opts->priority, 1, opts->limits);
    exact1.rr = rtp_rr_params_of(plan->rr_quantum_ns, plan->tick_ns, &plan->overheads);
    exact1.choose_ties = !opts->keep_tie_policy;
    rtp_test_result r1;
    memset(&r1, 0, sizeof r1);
    if ((st0 = rtp_test_run(&exact1, &alone, 1, &r1, diag)) != RTP_OK)
        return st0;
    if (!r1.schedulable) {
        miss->reason = RTP_MISS_ALONE;
        return RTP_OK;
    }
    if (rtp_load_cmp(&alone, 1, RTP_LOAD_UTIL, opts->capacity) > 0) {
        miss->reason = RTP_MISS_CAPACITY_ALONE;
        miss->load_after = rtp_load_double(&alone, 1, RTP_LOAD_UTIL);
        return RTP_OK;
    }
    size_t most = 1;
    for (size_t j = 0; j < plan->n_bins; j++)
        most = plan->bins[j].n_tasks + 1 > most ? plan->bins[j].n_tasks + 1 : most;
    rtp_task *a = malloc(most * sizeof *a), *b = malloc(most * sizeof *b);
    int *priority = malloc(most * sizeof *priority);
    rtp_ns *response = malloc(most * sizeof *response);
    rtp_status st = RTP_OK;
    if (!a || !b || !priority || !response) {
        st = RTP_ENOMEM;
        goto done;
    }
    for (size_t j = 0; j < plan->n_bins; j++) {
        const rtp_plan_bin *bj = &plan->bins[j];
        if (!rtp_pack_allowed(task, bj->cpus, bj->n_cpus))
            continue;
        if (miss->bin != RTP_PLAN_UNASSIGNED) {
            int c = rtp_pack_cmp_bins(bj, &plan->bins[miss->bin], a, b);
            if (c > 0 || (c == 0 && bj->cpus[0] > plan->bins[miss->bin].cpus[0]))
                continue;
        }
        miss->bin = j;
    }
    if (miss->bin == RTP_PLAN_UNASSIGNED)
        goto done;
    size_t n = rtp_pack_gather(&plan->bins[miss->bin], a);
    a[n++] = *task;
    /* the decisions were taken on the effective tasks: explain with them */
    if ((st = rtp_effective_tasks(a, n, &plan->overheads, opts->policy, a, diag)) != RTP_OK)
        goto done;
    miss->load_after = rtp_load_double(a, n, RTP_LOAD_UTIL);
    if (rtp_load_cmp(a, n, RTP_LOAD_UTIL, opts->capacity) > 0) {
        miss->reason = RTP_MISS_CAPACITY;
        goto done;
    }
    rtp_test exact = rtp_test_exact(opts->policy, opts->priority, 1, opts->limits);
    exact.want_first_miss = 1;
    exact.rr = rtp_rr_params_of(plan->rr_quantum_ns, plan->tick_ns, &plan->overheads);
    exact.choose_ties = !opts->keep_tie_policy;
    rtp_test_result res;
    memset(&res, 0, sizeof res);
    if ((st = rtp_test_run(&exact, a, n, &res, diag)) != RTP_OK)
        goto done;
    miss->reason = res.schedulable ? RTP_MISS_HEURISTIC : RTP_MISS_TEST;
    miss->has_first_miss = res.has_first_miss;
    miss->first_miss_ns = res.first_miss_ns;
    if (res.schedulable || opts->policy != RTP_POLICY_FP)
        goto done;
    int found = 0, sched = 0;
    if ((st = rtp_fp_assign(a, n, RTP_PRIO_DM, priority, &found, &opts->limits, diag)) ==
            RTP_OK &&
        (st = rtp_fp_rta(a, n, priority, response, &sched, &opts->limits, diag)) == RTP_OK)
        for (size_t i = 0; i < n && !miss->late_task; i++)
            if (response[i] < 0)
                miss->late_task = a[i].name;
done:
    free(a);
    free(b);
    free(priority);
    free(response);
    return st;
}
