/* bench/bench_semi_sweep.c — acceptance of partitioned FP, semi-partitioned
 * FP (a task may keep an affinity mask of several CPUs, admitted by the
 * arbitrary-affinity analysis [GCB13]: heuristics/semi.h) and global FP
 * over the total utilization (docs/spec.md "rtpack partition", --method
 * semi; the plot docs/img/semi_sweep.svg is drawn from its CSV by
 * bench/semi_sweep_plot.py).
 *
 * Sets: `rtp_gen_taskset`, 10 tasks (each u <= 1/2), implicit deadlines,
 * periods 10..100 ms, on 4 CPUs. Per set and method, accepted = a feasible
 * plan (every task placed, every CPU or cluster passing its test):
 *   ffd    first fit decreasing by utilization, OPA per CPU, --capacity 0.9
 *          (Linux's real-time budget per CPU, emit's default);
 *   best   every placement x order, --capacity 0.9;
 *   semi   --method semi, --capacity 0.9 (DM over the set; a task no CPU
 *          admits may migrate over a set of CPUs within capacity x size);
 *   gfp    global FP on the 4 CPUs, DM, the sufficient tests of
 *          solver/global.h (no capacity: a global cluster's budget is the
 *          sum, never reached below U = 3.6).
 * The CSV also counts the semi plans accepted with a migrating task.
 *
 * usage: bench_semi_sweep [SETS_PER_POINT] > semi_sweep.csv
 * CSV: total_util,method,accepted,total,migrating — one row per point and
 * method. */
#include "gen/gen.h"
#include "heuristics/partition.h"
#include "heuristics/semi.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { CPUS = 4, TASKS = 10, METHODS = 4 };
static const char *const method_names[METHODS] = {"ffd", "best", "semi", "gfp"};

/* 1 when accepted; *migrating = a semi plan with a task on several CPUs. */
static int run_method(int m, const rtp_taskset *ts, int *migrating)
{
    static const int cpus[CPUS] = {0, 1, 2, 3};
    rtp_part_opts o = rtp_part_opts_default();
    o.policy = RTP_POLICY_FP;
    o.capacity = (rtp_ratio){9, 10};
    o.threads = 1;
    rtp_diag diag = {0};
    *migrating = 0;
    if (m == 3) {
        rtp_test t = rtp_test_exact(RTP_POLICY_GFP, RTP_PRIO_DM, CPUS, o.limits);
        rtp_test_result r;
        memset(&r, 0, sizeof r);
        return rtp_test_run(&t, ts->tasks, ts->n_tasks, &r, &diag) == RTP_OK && r.schedulable;
    }
    rtp_plan plan;
    memset(&plan, 0, sizeof plan);
    rtp_status st = m == 0   ? rtp_part_pack(ts, cpus, CPUS, &o, &plan, &diag)
                    : m == 1 ? rtp_part_best(ts, cpus, CPUS, &o, &plan, &diag)
                             : rtp_semi_pack(ts, cpus, CPUS, o.capacity, &o.limits, &plan, &diag);
    int ok = st == RTP_OK && plan.feasible && plan.n_unassigned == 0;
    *migrating = ok && plan.clustered;
    rtp_plan_free(&plan);
    return ok;
}

int main(int argc, char **argv)
{
    int sets = argc > 1 ? atoi(argv[1]) : 200;
    printf("total_util,method,accepted,total,migrating\n");
    for (int u10 = 16; u10 <= 36; u10 += 2) {
        long accepted[METHODS] = {0}, migrating = 0;
        rtp_gen_opts g = rtp_gen_opts_default();
        g.n_tasks = TASKS;
        g.total_util = (rtp_ratio){u10, 10};
        g.max_task_util = (rtp_ratio){1, 2};
        g.period_min_ns = 10000000;
        g.period_max_ns = 100000000;
        g.granularity_ns = 1000;
#pragma omp parallel for schedule(dynamic, 1) reduction(+ : accepted[:METHODS], migrating)
        for (int k = 0; k < sets; k++) {
            rtp_taskset ts;
            rtp_diag diag = {0};
            if (rtp_gen_taskset(&g, 28, (uint64_t)u10, (uint64_t)k, &ts, &diag) != RTP_OK)
                continue;
            for (int m = 0; m < METHODS; m++) {
                int mig;
                accepted[m] += run_method(m, &ts, &mig);
                migrating += mig;
            }
            rtp_taskset_free(&ts);
        }
        for (int m = 0; m < METHODS; m++)
            printf("%.1f,%s,%ld,%d,%ld\n", u10 / 10.0, method_names[m], accepted[m], sets,
                   m == 2 ? migrating : 0);
        fflush(stdout);
    }
    return 0;
}
