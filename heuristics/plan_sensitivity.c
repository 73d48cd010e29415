/* heuristics/plan_sensitivity.c — rtp_part_sensitivity and rtp_part_bounds
 * (partition.h): how close a plan is to failing, bin by bin. */
#include "heuristics/partition.h"

#include "models/effective.h"
#include "solver/rr.h"

#include "solver/sensitivity.h"
#include "solver/sensitivity_locks.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static rtp_status set_scaling(rtp_plan_scaling *dst, const rtp_scaling *src)
{
    dst->not_defined = src->not_defined;
    dst->present = !src->not_defined;
    int value = dst->present && src->exists;
    snprintf(dst->decimal, sizeof dst->decimal, "%s", value ? src->decimal : "");
    dst->exact = NULL;
    if (value && !(dst->exact = strdup(src->exact)))
        return RTP_ENOMEM;
    return RTP_OK;
}

/* One bin: wcet_max into its tasks, its factor into *sc. */
static rtp_status bin_sensitivity(const rtp_plan *plan, rtp_plan_bin *bin,
                                  const rtp_part_opts *opts, rtp_scaling *sc, rtp_diag *diag)
{
    size_t n = bin->n_tasks;
    rtp_task *tasks = malloc(n * sizeof *tasks);
    rtp_ns *wmax = malloc(n * sizeof *wmax);
    int *prio = malloc(n * sizeof *prio);
    rtp_status st = RTP_ENOMEM;
    if (!tasks || !wmax || !prio)
        goto done;
    for (size_t k = 0; k < n; k++) {
        tasks[k] = bin->tasks[k].task;
        prio[k] = bin->tasks[k].priority;
    }
    if ((sc->not_defined = rtp_sensitivity_rr_refusal(plan->policy, tasks, n, prio))) {
        st = RTP_OK;
        goto done;
    }
    rtp_policy policy = plan->policy;
    if (plan->clustered) /* a cluster is scheduled globally */
        policy = policy == RTP_POLICY_FP || policy == RTP_POLICY_GFP ? RTP_POLICY_GFP
                                                                     : RTP_POLICY_GEDF;
    rtp_test test = rtp_test_exact(policy, opts->priority, (int)bin->n_cpus, opts->limits);
    test.rr = rtp_rr_params_of(plan->rr_quantum_ns, plan->tick_ns, &plan->overheads);
    st = rtp_sensitivity_wcet_max(&test, tasks, n, &plan->overheads, wmax, diag);
    if (st == RTP_OK)
        st = rtp_sensitivity_scaling(&test, tasks, n, &plan->overheads, sc, diag);
    for (size_t k = 0; st == RTP_OK && k < n; k++) {
        bin->tasks[k].has_wcet_max = 1;
        bin->tasks[k].wcet_max_ns = wmax[k];
    }
done:
    free(tasks);
    free(wmax);
    free(prio);
    return st;
}

/* A plan with resources: wcet_max over the whole placement (spins and FMLP+
 * couple the CPUs; solver/sensitivity_locks.h), no factor. */
static rtp_status locks_sensitivity(rtp_plan *plan, const rtp_part_opts *opts, rtp_diag *diag)
{
    size_t n = 0, at = 0;
    for (size_t j = 0; j < plan->n_bins; j++)
        n += plan->bins[j].n_tasks;
    rtp_task *tasks = malloc((n ? n : 1) * sizeof *tasks);
    size_t *cpu = malloc((n ? n : 1) * sizeof *cpu);
    rtp_ns *wmax = malloc((n ? n : 1) * sizeof *wmax);
    rtp_status st = tasks && cpu && wmax ? RTP_OK : rtp_oom(diag);
    for (size_t j = 0; st == RTP_OK && j < plan->n_bins; j++)
        for (size_t k = 0; k < plan->bins[j].n_tasks; k++, at++) {
            tasks[at] = plan->bins[j].tasks[k].task;
            cpu[at] = j;
        }
    rtp_test test = rtp_test_exact(plan->policy, opts->priority, 1, opts->limits);
    if (st == RTP_OK)
        st = rtp_sensitivity_locks_wcet_max(&test, plan->resources, plan->n_resources, tasks, n,
                                            cpu, plan->n_bins, &plan->overheads, wmax, diag);
    rtp_scaling none;
    memset(&none, 0, sizeof none);
    none.not_defined = rtp_sensitivity_locks_no_factor();
    at = 0;
    for (size_t j = 0; st == RTP_OK && j < plan->n_bins; j++) {
        for (size_t k = 0; k < plan->bins[j].n_tasks; k++, at++) {
            plan->bins[j].tasks[k].has_wcet_max = 1;
            plan->bins[j].tasks[k].wcet_max_ns = wmax[at];
        }
        if (plan->bins[j].n_tasks > 0)
            st = set_scaling(&plan->bins[j].scaling, &none);
    }
    if (st == RTP_OK && n > 0)
        st = set_scaling(&plan->scaling, &none);
    free(tasks);
    free(cpu);
    free(wmax);
    return st;
}

rtp_status rtp_part_sensitivity(rtp_plan *plan, const rtp_part_opts *opts, rtp_diag *diag)
{
    int single = !plan->clustered;
    for (size_t j = 0; j < plan->n_bins; j++)
        single = single && plan->bins[j].n_cpus == 1;
    if (plan->n_resources > 0 && !single)
        return rtp_diag_set(diag, RTP_EINPUT, "resources",
                            "sensitivity does not model shared resources in clusters");
    if (plan->n_resources > 0)
        return locks_sensitivity(plan, opts, diag);
    rtp_scaling low; /* the minimum; not defined when one bin's is not */
    memset(&low, 0, sizeof low);
    low.unbounded = 1;
    rtp_status st = RTP_OK;
    for (size_t j = 0; j < plan->n_bins && st == RTP_OK; j++) {
        rtp_plan_bin *bin = &plan->bins[j];
        if (bin->n_tasks == 0)
            continue;
        rtp_scaling sc;
        memset(&sc, 0, sizeof sc);
        st = bin_sensitivity(plan, bin, opts, &sc, diag);
        if (st == RTP_OK)
            st = set_scaling(&bin->scaling, &sc);
        if (sc.not_defined)
            low.not_defined = sc.not_defined;
        if (st == RTP_OK && !low.not_defined && rtp_scaling_cmp(&sc, &low) < 0) {
            rtp_scaling_free(&low);
            st = rtp_scaling_copy(&low, &sc);
        }
        rtp_scaling_free(&sc);
    }
    if (st == RTP_OK && (!low.unbounded || low.not_defined))
        st = set_scaling(&plan->scaling, &low);
    rtp_scaling_free(&low);
    return st;
}

rtp_status rtp_part_bounds(const rtp_plan *plan, const rtp_part_opts *opts, size_t j,
                           rtp_ns *bound, rtp_diag *diag)
{
    const rtp_plan_bin *bin = &plan->bins[j];
    size_t n = bin->n_tasks;
    if (plan->clustered || bin->n_cpus != 1)
        return rtp_diag_set(diag, RTP_EINPUT, "", "no per-task bound on a cluster of CPUs");
    int fp = plan->policy == RTP_POLICY_FP;
    for (size_t i = 0; fp && i < n; i++) {
        bound[i] = bin->tasks[i].response_time_ns;
        if (bound[i] < 0)
            return rtp_diag_set(diag, RTP_EINPUT, "", "CPU %d does not pass as it is",
                                bin->cpus[0]);
    }
    if (fp || n == 0)
        return RTP_OK;
    rtp_task *a = malloc(n * sizeof *a);
    if (!a)
        return rtp_oom(diag);
    rtp_status st;
    for (size_t i = 0; i < n; i++)
        a[i] = bin->tasks[i].task;
    st = rtp_effective_tasks(a, n, &plan->overheads, RTP_POLICY_EDF, a, diag);
    rtp_test test = rtp_test_exact(RTP_POLICY_EDF, opts->priority, 1, opts->limits);
    rtp_test_result r;
    for (size_t i = 0; i < n && st == RTP_OK; i++) {
        rtp_ns deadline = a[i].deadline_ns, lo = 0, hi = deadline; /* fails at lo, passes at hi */
        memset(&r, 0, sizeof r);
        st = rtp_test_run(&test, a, n, &r, diag);
        if (st == RTP_OK && !r.schedulable) {
            st = rtp_diag_set(diag, RTP_EINPUT, "", "CPU %d does not pass as it is", bin->cpus[0]);
            break;
        }
        while (st == RTP_OK && hi - lo > 1) {
            rtp_ns mid = lo + (hi - lo) / 2;
            a[i].deadline_ns = mid;
            memset(&r, 0, sizeof r);
            st = rtp_test_run(&test, a, n, &r, diag);
            if (r.schedulable)
                hi = mid;
            else
                lo = mid;
        }
        a[i].deadline_ns = deadline;
        bound[i] = hi;
    }
    free(a);
    return st;
}
