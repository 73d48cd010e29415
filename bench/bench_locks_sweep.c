/* bench/bench_locks_sweep.c — acceptance of lock-aware partitioning as
 * critical sections grow (docs/spec.md "Shared resources"; the plot
 * docs/img/locks_sweep.svg is drawn from its CSV by bench/locks_sweep_plot.py).
 *
 * Sets: `rtp_gen_taskset` with shared resources (gen.h), M CPUs, FP with
 * OPA per CPU. Per set and method, accepted = a plan whose every CPU passes
 * the exact test with the spins and blocking of its placement
 * (solver/locks.h):
 *   ffd-oblivious  first fit decreasing on the set without its requests,
 *                  the placement then checked with them (today's ffd);
 *   ilp-oblivious  the exact ILP on the set without its requests, checked
 *                  the same way (an optimal lock-oblivious placement);
 *   ffd            first fit decreasing, admission with the spins re-checked;
 *   sfd            slack fit (Greedy Slacker [WB13]);
 *   best           every placement x order, sf included.
 *
 * usage: bench_locks_sweep [SETS_PER_POINT] > locks_sweep.csv
 * CSV: cs_max_us,method,accepted,total — one row per point and method. */
#include "gen/gen.h"
#include "heuristics/partition.h"
#include "ilp/ilp.h"
#include "solver/locks.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { CPUS = 4, TASKS = 12, METHODS = 5 };
static const char *const method_names[METHODS] = {"ffd-oblivious", "ilp-oblivious", "ffd",
                                                  "sfd", "best"};
static const long cs_max_us[] = {5, 10, 25, 50, 100, 250, 500, 1000};

/* Is the plan's placement of ts (names T1..Tn) schedulable with its locks? */
static int check_locked(const rtp_taskset *ts, const rtp_plan *plan, const rtp_part_opts *o)
{
    if (!plan->feasible || plan->n_unassigned > 0)
        return 0;
    size_t cpu[TASKS];
    for (size_t j = 0; j < plan->n_bins; j++)
        for (size_t k = 0; k < plan->bins[j].n_tasks; k++)
            cpu[strtoul(plan->bins[j].tasks[k].task.name + 1, NULL, 10) - 1] = j;
    rtp_test test = rtp_test_exact(RTP_POLICY_FP, o->priority, 1, o->limits);
    rtp_locks_task out[TASKS];
    int sched = 0;
    rtp_diag diag = {0};
    return rtp_locks_partitioned(ts->resources, ts->n_resources, ts->tasks, ts->n_tasks, cpu,
                                 CPUS, &test, &sched, out, &diag) == RTP_OK &&
           sched;
}

static int run_method(int m, const rtp_taskset *ts, const rtp_part_opts *base)
{
    static const int cpus[CPUS] = {0, 1, 2, 3};
    rtp_part_opts o = *base;
    rtp_plan plan;
    rtp_diag diag = {0};
    memset(&plan, 0, sizeof plan);
    int ok = 0;
    if (m <= 1) { /* the same tasks without their requests */
        rtp_taskset bare = *ts;
        rtp_task tasks[TASKS];
        for (size_t i = 0; i < ts->n_tasks; i++) {
            tasks[i] = ts->tasks[i];
            tasks[i].requests = NULL;
            tasks[i].n_requests = 0;
        }
        bare.tasks = tasks;
        bare.resources = NULL;
        bare.n_resources = 0;
        rtp_status st;
        if (m == 0) {
            st = rtp_part_pack(&bare, cpus, CPUS, &o, &plan, &diag);
        } else {
            rtp_ilp_opts io = rtp_ilp_opts_default();
            io.part = o;
            io.time_limit_s = 10;
            rtp_ilp_status status;
            rtp_ilp_stats stats;
            st = rtp_ilp_solve(&bare, cpus, CPUS, &io, &plan, &status, &stats, &diag);
        }
        ok = st == RTP_OK && check_locked(ts, &plan, &o);
    } else {
        o.placement = m == 3 ? RTP_PLACE_SF : RTP_PLACE_FF;
        rtp_status st = m == 4 ? rtp_part_best(ts, cpus, CPUS, &o, &plan, &diag)
                               : rtp_part_pack(ts, cpus, CPUS, &o, &plan, &diag);
        ok = st == RTP_OK && plan.feasible && plan.n_unassigned == 0;
    }
    rtp_plan_free(&plan);
    return ok;
}

int main(int argc, char **argv)
{
    int sets = argc > 1 ? atoi(argv[1]) : 200;
    size_t points = sizeof cs_max_us / sizeof *cs_max_us;
    printf("cs_max_us,method,accepted,total\n");
    for (size_t p = 0; p < points; p++) {
        long accepted[METHODS] = {0};
        rtp_gen_opts g = rtp_gen_opts_default();
        g.n_tasks = TASKS;
        g.total_util = (rtp_ratio){26, 10}; /* 0.65 per CPU */
        g.max_task_util = (rtp_ratio){1, 2};
        g.period_min_ns = 10000000;
        g.period_max_ns = 100000000;
        g.granularity_ns = 1000;
        g.n_resources = 4;
        g.access = (rtp_ratio){1, 4};
        g.max_requests = 2;
        g.cs_min_ns = cs_max_us[p] * 500; /* [max / 2, max] */
        g.cs_max_ns = cs_max_us[p] * 1000;
        rtp_part_opts base = rtp_part_opts_default();
        base.policy = RTP_POLICY_FP;
        base.priority = RTP_PRIO_OPA;
        base.threads = 1;
#pragma omp parallel for schedule(dynamic, 1) reduction(+ : accepted[:METHODS])
        for (int k = 0; k < sets; k++) {
            rtp_taskset ts;
            rtp_diag diag = {0};
            /* point 0 for every length: the same tasks at each point */
            if (rtp_gen_taskset(&g, 24, 0, (uint64_t)k, &ts, &diag) != RTP_OK)
                continue;
            for (int m = 0; m < METHODS; m++)
                accepted[m] += run_method(m, &ts, &base);
            rtp_taskset_free(&ts);
        }
        for (int m = 0; m < METHODS; m++)
            printf("%ld,%s,%ld,%d\n", cs_max_us[p], method_names[m], accepted[m], sets);
        fflush(stdout);
    }
    return 0;
}
