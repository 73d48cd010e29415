/* tests/support/rr_reference.h — the slow, obviously correct reference for
 * SCHED_RR: a unit-step simulation of one CPU under the rules of
 * kernel/sched/rt.c (docs/spec.md "SCHED_RR"): one list per priority, the
 * head of the highest non-empty list runs, a woken thread joins the tail, a
 * preempted thread keeps its place and its remaining quantum, the tick
 * charges the thread current at the tick, an expired quantum is refilled and
 * moves the thread to the tail only when another thread shares its list, the
 * remaining quantum carries over between jobs, a thread whose next job is
 * already released goes on in the same turn. Used by test_rr (against the
 * bounds of solver/rr.h) and test_sim (against sim/sim.h's engine: equal
 * responses with the events of an instant in its fixed order). */
#ifndef RTP_RR_REFERENCE_H
#define RTP_RR_REFERENCE_H

#include "models/taskset.h"
#include "support/testutil.h"

#define RR_REF_MAXN 6
#define RR_REF_MAXJ 64

typedef struct rr_ref_job {
    rtp_ns arrival, release, exec;
} rr_ref_job;

typedef struct rr_ref_scenario {
    rr_ref_job job[RR_REF_MAXN][RR_REF_MAXJ];
    int count[RR_REF_MAXN];
    rtp_ns slice0[RR_REF_MAXN]; /* remaining ticks of each thread at 0, 1..K */
    rtp_ns phase;               /* ticks at phase + k P */
} rr_ref_scenario;

/* The simulation of tasks ts[0..n-1] (ts[i].rr: SCHED_RR) under priorities
 * prio, quantum and tick in time units, up to `until`; worst[i] = the
 * largest response of task i (arrival to completion), including jobs still
 * pending at `until` (their age). `order` picks the order of events at each
 * instant from a seeded stream; NULL: `fixed` (0 completions, 1 the tick, 2
 * releases). charged[i] counts ticks charged to i (may be NULL). */
void rr_ref_simulate(const rtp_task *ts, size_t n, const int *prio, rtp_ns quantum,
                     rtp_ns tick, const rr_ref_scenario *sc, rtp_ns until, tu_rng *order,
                     const int *fixed, rtp_ns *worst, int *charged);

/* Seeded sets: 2..5 tasks on three priority levels (ties likely), most
 * tasks SCHED_RR (some levels mix FIFO and RR), tick *p 1..3, quantum *q of
 * 1..4 ticks, some with jitter; returns n. */
size_t rr_ref_random_set(tu_rng *rng, rtp_task *ts, int *prio, rtp_ns *q, rtp_ns *p);

/* A random pattern up to `horizon`: synchronous or random offsets, jitter
 * drawn 0..J or J, sporadic gaps, shorter executions, a random tick phase
 * and remaining quantum per thread. */
void rr_ref_random_scenario(tu_rng *rng, const rtp_task *ts, size_t n, rtp_ns q, rtp_ns p,
                            rtp_ns horizon, rr_ref_scenario *sc);

/* best[i] = task i's largest response over `patterns` random patterns
 * (rr_ref_random_scenario up to 160, simulated to 480, events of an instant
 * in a random order), under the tasks' own policies. */
void rr_ref_worst(const rtp_task *ts, size_t n, const int *prio, rtp_ns q, rtp_ns p,
                  int patterns, tu_rng *rng, rtp_ns *best);

#endif
