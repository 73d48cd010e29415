/* solver/schedtest.h — a schedulability test as a small value: name + function +
 * parameters. Heuristics, the ILP's verifier, the sweeps and priority
 * assignment all take one as their "fits" predicate, so first/best/worst/next
 * fit share one packing loop whatever the policy.
 *
 * A test reads `tasks` only; per-task outputs go to caller-owned arrays of n
 * entries (or NULL when not wanted). Thread-safety: a test value is
 * immutable and its run function re-entrant, so one value may be shared by
 * many OpenMP threads. */
#ifndef RTP_SCHEDTEST_H
#define RTP_SCHEDTEST_H

#include "models/taskset.h"
#include "models/api.h"

RTP_API_BEGIN

typedef struct rtp_test_result {
    int schedulable;        /* the verdict, meaningful when status == RTP_OK */
    int assignment_found;   /* FP: an order passing the test was found */
    int *priority;          /* in: caller array of n or NULL; out: FP priorities */
    rtp_ns *response_time;  /* in: caller array of n or NULL; out: FP WCRTs, -1 = miss */
    int has_first_miss;     /* EDF only */
    rtp_ns first_miss_ns;
    const char *accepted_by;/* global tests: the accepting test's name, else NULL */
    unsigned char *rr;      /* in: caller array of n or NULL; out (FP on one CPU):
                             * each task's policy, 1 = SCHED_RR (the chosen one
                             * under choose_ties, else the task's own) */
} rtp_test_result;

struct rtp_test;
typedef rtp_status (*rtp_test_fn)(const struct rtp_test *test,
                                  const rtp_task *tasks, size_t n,
                                  rtp_test_result *result, rtp_diag *diag);

/* SCHED_RR's platform terms (solver/rr.h): the quantum, the scheduler tick
 * that counts it (0 = not given), the context switch charged per turn. */
typedef struct rtp_rr_params {
    rtp_ns quantum_ns;
    rtp_ns tick_ns;
    rtp_ns context_switch_ns;
} rtp_rr_params;

typedef struct rtp_test {
    const char *name;        /* "edf", "fp-opa", "fp-dm", "ll-bound", "gedf", ... */
    rtp_test_fn run;
    rtp_policy policy;
    rtp_prio_rule priority;  /* FP policies */
    int cpus;                /* processors the tasks share (1 = uniprocessor) */
    int want_first_miss;     /* EDF: compute first_miss when unschedulable */
    rtp_limits limits;
    rtp_rr_params rr;        /* FP on one CPU with SCHED_RR ties (solver/rr.h) */
    int choose_ties;         /* FP on one CPU, RTP_PRIO_GIVEN: each tied level
                              * SCHED_FIFO or SCHED_RR by solver/rr_choose.h
                              * instead of the tasks' own policies */
} rtp_test;

/* The exact test of `policy` on `cpus` processors (cpus > 1 only for the
 * global policies, which use sufficient tests; cpus == 1 always uses the
 * exact uniprocessor test, and then names it in accepted_by: "edf" or "rta"
 * when it accepts). Names: "edf", "fp-opa", "fp-dm", "fp-rm", "fp-given",
 * "gedf", "gfp". FP: priorities by `priority` (rtp_fp_assign), then
 * rtp_fp_rta; schedulable = assignment_found && every deadline met. */
rtp_test rtp_test_exact(rtp_policy policy, rtp_prio_rule priority, int cpus,
                        rtp_limits limits);

/* Utilization-bound admission for the benchmark comparison: Liu & Layland
 * [LL73] under FP-RM / hyperbolic bound [BBB03];
 * sufficient only, never a default. FP (and GFP): "ll-bound", Liu & Layland
 * on wcet / min(deadline, period), priorities by min(deadline, period) (RM
 * for implicit deadlines) written to result->priority, response_time not
 * written. EDF (and GEDF): "density-bound", density <= 1 (exact U <= 1 when
 * every deadline >= period). Exact comparisons, no floating point. */
rtp_test rtp_test_bound(rtp_policy policy, rtp_limits limits);

/* The hyperbolic bound prod (1 + wcet / min(deadline, period)) <= 2 under the
 * same priorities as the FP "ll-bound" (which it dominates). */
rtp_test rtp_test_hyperbolic(rtp_limits limits);

/* Runs test->run after clearing `result`'s scalar fields. RTP_EINPUT when
 * a task's times lie outside the readers' ranges (period and deadline in
 * [1, 2^62] ns, wcet, jitter and blocking in [0, 2^62]): tasks built by hand
 * get an answer, never a division by zero or a verdict on negative times. */
rtp_status rtp_test_run(const rtp_test *test, const rtp_task *tasks, size_t n,
                        rtp_test_result *result, rtp_diag *diag);

RTP_API_END
#endif
