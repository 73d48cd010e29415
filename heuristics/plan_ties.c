/* heuristics/plan_ties.c — rtp_part_ties (partition.h): the SCHED_FIFO /
 * SCHED_RR choice of a plan's tied levels, analysed again for the reasons
 * (solver/rr_choose.h). */
#include "heuristics/partition.h"

#include "models/effective.h"
#include "solver/rr.h"

#include <stdlib.h>
#include <string.h>

static int by_value(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

rtp_status rtp_part_ties(const rtp_plan *plan, const rtp_part_opts *opts, size_t j,
                         rtp_rr_level *levels, size_t *n_levels, rtp_diag *diag)
{
    const rtp_plan_bin *bin = &plan->bins[j];
    size_t n = bin->n_tasks;
    *n_levels = 0;
    if (plan->clustered || bin->n_cpus != 1 || plan->policy != RTP_POLICY_FP ||
        plan->n_resources > 0)
        return rtp_diag_set(diag, RTP_EINPUT, "",
                            "tied levels are chosen on single FP CPUs without shared resources");
    if (n == 0)
        return RTP_OK;
    rtp_task *a = malloc(n * sizeof *a);
    int *priority = malloc(n * sizeof *priority), *sorted = malloc(n * sizeof *sorted);
    rtp_ns *response = malloc(n * sizeof *response);
    rtp_status st = !a || !priority || !sorted || !response ? rtp_oom(diag) : RTP_OK;
    int tied = 0; /* most bins have no tie: no analysis then */
    if (st == RTP_OK) {
        for (size_t i = 0; i < n; i++) {
            a[i] = bin->tasks[i].task;
            priority[i] = sorted[i] = bin->tasks[i].priority;
        }
        qsort(sorted, n, sizeof *sorted, by_value);
        for (size_t k = 0; k + 1 < n && !tied; k++)
            tied = sorted[k] == sorted[k + 1];
    }
    if (st == RTP_OK && tied)
        st = rtp_effective_tasks(a, n, &plan->overheads, RTP_POLICY_FP, a, diag);
    rtp_rr_params rr = rtp_rr_params_of(plan->rr_quantum_ns, plan->tick_ns, &plan->overheads);
    int sched = 0;
    if (st == RTP_OK && tied)
        st = rtp_rr_choose(a, n, priority, &rr, NULL, response, &sched, levels, n_levels,
                           &opts->limits, diag);
    free(a);
    free(priority);
    free(sorted);
    free(response);
    return st;
}
