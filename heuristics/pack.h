/* heuristics/pack.h — the one bin-packing engine behind rtp_part_pack and
 * rtp_cluster_pack (and their *_best): bins are groups of CPUs, a CPU being
 * a group of one and a cluster a group of several, filled by first / best /
 * worst / next fit [Joh74] over a task order. Every decision reads
 * the effective tasks (models/effective.h: C' and J' with the task set's
 * platform.overheads); plans keep the declared tasks and the overheads. A
 * bin of `size` CPUs admits a task when its affinity covers every CPU of the
 * bin, the bin's (effective) utilization with it stays <= capacity x size
 * (exact), and the bin's test accepts (rtp_test_exact(policy, priority, size): the exact uniprocessor
 * test for size 1, the global tests of solver/global.h beyond). Loads per
 * CPU are load / size, compared exactly.
 *
 * Ownership: plans written are the caller's (rtp_plan_free); job views are
 * borrowed. Thread-safety: no globals; rtp_pack_best runs its candidates in
 * an OpenMP loop reduced in index order. */
#ifndef RTP_PACK_H
#define RTP_PACK_H

#include "heuristics/partition.h"

/* A read-only view of groups of Linux CPU ids: group j is
 * cpus[j][0..len[j]-1]. */
typedef struct rtp_pack_bins {
    const int *const *cpus;
    const size_t *len;
    size_t n;
} rtp_pack_bins;

typedef struct rtp_pack_job {
    const rtp_taskset *ts;
    const int *platform;   /* every CPU of the platform, for the plan */
    size_t n_platform;
    rtp_pack_bins bins;    /* the bins, in plan order (validated by the caller) */
    rtp_policy policy;     /* the tests': EDF / FP per CPU, GEDF / GFP per cluster */
    int bound_admission;   /* 1: admit by rtp_test_bound(policy) instead */
    int clustered;         /* the plan's bins are clusters (plan->clustered) */
} rtp_pack_job;

/* RTP_EINPUT unless opts' placement and order are known, its capacity is a
 * non-negative ratio and, under FP with RTP_PRIO_GIVEN, every task has a
 * priority (path "tasks[i].priority"). */
rtp_status rtp_pack_check_input(const rtp_taskset *ts, const rtp_part_opts *opts,
                                rtp_diag *diag);

/* RTP_EINPUT (path "tasks[i].affinity", "CPU c <missing>") when an affinity
 * names a CPU in none of the groups. */
rtp_status rtp_pack_check_affinity(const rtp_taskset *ts, const rtp_pack_bins *groups,
                                   const char *missing, rtp_diag *diag);

/* Is cpu in list[0..len-1]? */
int rtp_pack_has_cpu(const int *list, size_t len, int cpu);

/* Does task t's affinity cover every CPU of cpus[0..len-1]? (A bin under a
 * global scheduler migrates its tasks over all of its CPUs.) */
int rtp_pack_allowed(const rtp_task *t, const int *cpus, size_t len);

/* Packs job->ts with opts->placement and opts->order (rules: partition.h's
 * rtp_part_pack, bins for CPUs, scanned by increasing smallest CPU id), then
 * checks every non-empty bin with the exact test of job->policy for its size:
 * FP priorities and response times, bin->test = the accepting global test.
 * plan->method "ffd" / "bfd" / "wfd" / "nfd". No input validation. */
rtp_status rtp_pack_run(const rtp_pack_job *job, const rtp_part_opts *opts,
                        rtp_plan *plan, rtp_diag *diag);

/* Every placement x order (OpenMP, opts->threads), picked by rtp_pack_settle;
 * plan->method "best", chosen_placement / chosen_order set. */
rtp_status rtp_pack_best(const rtp_pack_job *job, const rtp_part_opts *opts,
                         rtp_plan *plan, rtp_diag *diag);

/* The pick among count candidate plans (those with status[k] == RTP_OK are
 * owned here): the feasible plan with the smallest largest per-CPU bin load
 * (utilization / CPUs of the bin), ties to the lowest index; with none
 * feasible, the fewest unassigned tasks. The pick moves to *plan (*picked =
 * its index), the others are freed. A candidate that failed otherwise than
 * RTP_ELIMIT fails the whole; RTP_ELIMIT only when none is feasible (its
 * diag copied, *picked = -1). */
rtp_status rtp_pack_settle(rtp_plan *cands, const rtp_status *status,
                           const rtp_diag *diags, int count, rtp_plan *plan,
                           int *picked, rtp_diag *diag);

/* Shallow copies of a plan bin's tasks into buf; returns the count. */
size_t rtp_pack_gather(const rtp_plan_bin *from, rtp_task *buf);

/* sign(utilization per CPU of x - that of y), exact; a and b are scratch
 * buffers of at least x->n_tasks and y->n_tasks entries. */
int rtp_pack_cmp_bins(const rtp_plan_bin *x, const rtp_plan_bin *y, rtp_task *a,
                      rtp_task *b);

struct rtp_locks_task;
/* Task sets with critical sections (heuristics/pack_locks.c): the exact test
 * of job->policy (one CPU per bin; clusters are refused by the test) on
 * every bin of the placement where[] (input index -> bin, (size_t)-1 =
 * unplaced), with task `extra` moved to extra_bin when extra < n:
 * *schedulable = every bin passes; out (n entries or NULL) gets each placed
 * task's terms, priority and response time (solver/locks.h). */
rtp_status rtp_pack_locks_check(const rtp_pack_job *job, const rtp_part_opts *opts,
                                const rtp_task *eff, const size_t *where, size_t extra,
                                size_t extra_bin, int *schedulable,
                                struct rtp_locks_task *out, rtp_diag *diag);

#endif
