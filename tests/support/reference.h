/* tests/support/reference.h — slow, obviously correct references for the
 * exact analyses with release jitter and blocking (docs/spec.md
 * "Real-system terms") and for the periodic schedule, shared by the cmocka
 * tests (test_edf, test_fp, test_global, test_cluster, test_partition) and
 * the differential fuzz target (fuzz/fuzz_analysis.c). Small integer times
 * only (hyperperiods of a few hundred). Pure C, no cmocka: a broken
 * invariant of a reference itself aborts. Not thread-safe (static scratch).
 * The references choose which jobs exist (release patterns, blockers); the
 * schedule itself is the library's one simulator (sim/sim.h), whose rules
 * tests/test_sim.c validates independently.
 *
 * EDF: the demand of the definition, h(t) = dbf(t) + b(t), counted job by
 * job from arrivals (not from the closed form), and an EDF simulation of the
 * jobs of the worst release pattern with one blocker job per blocking task.
 *
 * FP: a simulation of one explicit release pattern (arrivals a_k,
 * a_{k+1} >= a_k + T; releases in [a_k, a_k + J], never going back in time:
 * one thread runs one job after the other; a finite pattern is legal, a
 * sporadic task may stop). Preemptive fixed priorities, equal priorities
 * first-in first-out by release, the analysed task i last among equal
 * releases. Blocking: a task below i (not simulated otherwise) may enter a
 * non-preemptible section of length B_i whenever no job at or above i's
 * priority is pending, at chosen instants before that instant's releases, so
 * i's jobs are blocked at most once per busy period, as by a lower-priority
 * job holding a resource. Only i's responses (from arrival) are measured:
 * the section may also delay more urgent tasks, which leaves i's completions
 * unchanged. Every simulated response is thus a lower bound of the true
 * worst case. Pattern families: the critical instant (ref_fp_critical),
 * random legal patterns (ref_fp_random), and every phase and 0/J jitter of
 * the first jobs of tiny sets (ref_fp_exhaustive).
 *
 * Periodic: the synchronous periodic schedule on m CPUs
 * (ref_periodic_simulate), the soundness reference of the sufficient global
 * tests (test_global) and of clustered plans (test_cluster), and on one CPU
 * the critical instant of fixed priorities (test_partition). A miss there
 * proves the set unschedulable; no miss proves nothing beyond that release
 * pattern when m > 1. */
#ifndef RTP_TEST_REFERENCE_H
#define RTP_TEST_REFERENCE_H

#include <stdint.h>

#include "models/taskset.h"

#define REF_MAXN 8

/* lcm of the periods (small periods: unchecked). */
rtp_ns ref_hyperperiod(const rtp_task *ts, size_t n);

/* ---- EDF ---- */

/* h(t): jobs arriving at k T - J (k >= 0) due in [0, t], plus the largest
 * B of a task whose job fits in the window (D - J <= t). */
rtp_ns ref_edf_h(const rtp_task *ts, size_t n, rtp_ns t);

/* 1 = schedulable; else 0 with *miss = smallest failing t (0 when U > 1,
 * 1 when some J >= D), scanning every t up to 2H + 2 max D. */
int ref_edf_enumerate(const rtp_task *ts, size_t n, rtp_ns *miss);

/* EDF simulation of the jobs due by 2H + 2 max D, released at max(0, a),
 * once with no blocker and once per blocking task j with a job of length
 * B_j released at 0 due at D_j - J_j: the earliest missed deadline over the
 * runs, 0 if none. */
rtp_ns ref_edf_simulate(const rtp_task *ts, size_t n);

/* ---- FP ---- */

typedef struct ref_fp_acc {
    rtp_ns best;     /* largest simulated response of the analysed task */
    int late;        /* some pattern made it miss its deadline */
    int incomplete;  /* some pattern left one of its jobs unfinished */
} ref_fp_acc;

/* Family (1): X = the largest jitter; every other task's first job arrives
 * J before X and every job is released as early as allowed but not before
 * X; task i at every phase, each one of its jobs in turn released as late as
 * allowed; a blocker at X. i's jobs arrive before `horizon`; the simulation
 * runs to `until`. */
void ref_fp_critical(const rtp_task *ts, size_t n, const int *prio, size_t i,
                     rtp_ns horizon, rtp_ns until, ref_fp_acc *acc);

/* Family (2): `count` random legal patterns from *seed (splitmix64): random
 * phases, per-job jitter (often 0 or J), sporadic gaps, blockers at random
 * idle instants. */
void ref_fp_random(uint64_t *seed, const rtp_task *ts, size_t n, const int *prio,
                   size_t i, rtp_ns horizon, rtp_ns until, int count, ref_fp_acc *acc);

/* Family (3): every phase and every 0/J jitter of the first three jobs of
 * every task, with and without a blocker at the first free instant (tiny
 * sets only: prod T_j x 8 x 2 patterns). */
void ref_fp_exhaustive(const rtp_task *ts, size_t n, const int *prio, size_t i,
                       rtp_ns horizon, rtp_ns until, ref_fp_acc *acc);

/* The three families' usual horizons for a set: i's jobs arriving in the
 * first two hyperperiods after the critical instant. */
void ref_fp_horizon(const rtp_task *ts, size_t n, rtp_ns *horizon, rtp_ns *until);

/* ---- periodic ---- */

/* Global EDF (priority == NULL) or global FP (priority[], larger = more
 * urgent) of tasks[0..n-1] on m CPUs (m = 1: uniprocessor), every task released at 0, T, 2T, ...
 * before `horizon`, each job running its wcet (rtp_sim_periodic). Returns 1
 * when a job due by `horizon` completes after its deadline or not at all;
 * worst[i] = the largest response of a completed job of task i (0 when
 * none). Equal priorities are served first-in first-out, so a caller that
 * compares with an analysis assuming a strict order gives distinct ones. */
int ref_periodic_simulate(const rtp_task *ts, size_t n, int m, const int *priority,
                          rtp_ns horizon, rtp_ns *worst);

#endif
