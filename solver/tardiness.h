/* solver/tardiness.h — per-task tardiness bounds under global EDF on m CPUs
 * (soft real-time: every job completes, at most a bounded time after its
 * deadline) whenever the total utilization is at most m: Devi & Anderson's
 * bound [DA08] (implicit deadlines) and the compliant-vector bound
 * [EDB10][EGB10] (any deadline), computed exactly: 128-bit integer
 * enclosures, GMP rationals where those cannot decide (solver/tardiness_q.h).
 *
 * Model: sporadic tasks, one thread each (a job starts only after its
 * predecessor completed), preemptive global EDF by absolute deadline, as
 * SCHED_DEADLINE runs a root domain (docs/platform-notes.md). Tasks are
 * effective tasks (models/effective.h: wcet_ns = C'). A task with release
 * jitter J' is analysed with the minimum distance between two releases,
 * T - J', and its deadline counted from the release; the bound returned is
 * measured from the arrival, so J' is added back. Deployed, SCHED_DEADLINE
 * puts each deadline at arrival + D instead (the kernel's period grid):
 * with every task's J' equal (a machine's release latency, the common
 * case) no schedule past the bounds has been seen in that model either
 * (test_tardiness simulates both; evidence, not a proof), while tasks whose
 * J' differ can exceed them there, so the bounds apply only when every J'
 * is the same. Blocking is not modelled: a task with blocking_ns > 0 makes
 * the bounds not applicable.
 * Times are rtp_ns. Pure: no globals, safe from many threads. */
#ifndef RTP_TARDINESS_H
#define RTP_TARDINESS_H

#include "models/taskset.h"
#include "solver/schedtest.h"

/* One task's bounds on completion - (arrival + deadline), clipped at 0;
 * -1 where the bound does not apply. */
typedef struct rtp_tardiness {
    rtp_ns bound_ns; /* the smaller of the two below, -1 when neither applies */
    rtp_ns da_ns;    /* [DA08]: only when every deadline equals its period and
                      * no task has jitter */
    rtp_ns cv_ns;    /* [EGB10] with priority points at the deadlines */
} rtp_tardiness;

/* Fills out[0..n-1] and *bounded: 1 when the bounds apply (no blocking,
 * every J' the same, every C' <= T - J', sum C'/(T - J') <= m exactly),
 * else 0 and every bound
 * -1. RTP_ELIMIT when a bound does not fit in rtp_ns or the compliant-vector
 * search takes more than limits->max_iterations steps; RTP_EINPUT for m < 1
 * or n == 0 with out NULL; RTP_ENOMEM. */
rtp_status rtp_tardiness_bounds(const rtp_task *tasks, size_t n, int m,
                                const rtp_limits *limits, rtp_tardiness *out,
                                int *bounded, rtp_diag *diag);

/* Soft real-time admission of one cluster of `cpus` CPUs (1 = one CPU)
 * under (global) EDF, as a test value (solver/schedtest.h) named "soft": the
 * exact (cpus = 1) or global tests first; a set they do not accept is
 * accepted when the tardiness bounds above apply (accepted_by "soft"):
 * every job completes, at most its task's bound after its deadline. */
rtp_test rtp_test_soft(int cpus, rtp_limits limits);

#endif
