/* probe/measure.h — the timing measurements of `rtpack probe`: wake-up
 * (release-to-run) latency of a periodic SCHED_FIFO or SCHED_DEADLINE thread
 * per CPU, and the cost of one context switch per CPU.
 *
 * Latency (the method of cyclictest): a thread sleeps with clock_nanosleep
 * (CLOCK_MONOTONIC, TIMER_ABSTIME) until each release r = start + k x period
 * and records now - r when it runs; one thread per CPU, all CPUs at once,
 * switching between SCHED_FIFO and SCHED_DEADLINE every round so that both
 * policies see the same background load.
 * Context switch: two threads on one CPU hand a futex word back and forth
 * (two switches per round trip); the same loop without a partner is the
 * loop cost, so one switch = (round trip - 2 x loop) / 2, per sample.
 *
 * Every thread blocks all signals (the caller's handler sets `stop`, which
 * the threads poll at least once per period), restores SCHED_OTHER before it
 * exits, and leaves a cgroup it joined. Times are rtp_ns from CLOCK_MONOTONIC.
 * Thread-safety: no globals; one call at a time per process is sensible (the
 * threads compete for the same CPUs). */
#ifndef RTP_PROBE_MEASURE_H
#define RTP_PROBE_MEASURE_H

#include <signal.h>

#include "probe/probe_doc.h"

typedef enum rtp_probe_policy { RTP_PROBE_FIFO = 0, RTP_PROBE_DEADLINE, RTP_PROBE_OTHER } rtp_probe_policy;

/* Which latencies one run measures. */
typedef enum rtp_probe_which { RTP_PROBE_BOTH = 0, RTP_PROBE_ONLY_FIFO, RTP_PROBE_ONLY_DL } rtp_probe_which;

typedef struct rtp_probe_job {
    const int *cpus;         /* the CPUs measured */
    size_t n_cpus;
    rtp_ns period_ns;        /* release period */
    rtp_ns duration_ns;      /* of this measurement */
    rtp_ns round_ns;         /* latency: length of one policy's round */
    rtp_probe_which policies;
    int fifo_priority;       /* 1..99 */
    rtp_ns dl_runtime_ns;    /* SCHED_DEADLINE runtime; deadline = period */
    /* Pinning: per CPU the cgroup "tasks" file a thread joins first (a
     * one-CPU root domain, so SCHED_DEADLINE is pinned too), and the one it
     * goes back to; NULL = SCHED_FIFO pinned by affinity and SCHED_DEADLINE
     * unpinned on the whole root domain, each of its samples counted for
     * the CPU it was taken on. */
    char *const *join_tasks;
    const char *leave_tasks;
    volatile sig_atomic_t *stop; /* may be NULL */
} rtp_probe_job;

/* What went wrong per policy ([0] SCHED_FIFO, [1] SCHED_DEADLINE). */
typedef struct rtp_probe_latency_status {
    int err[2];             /* errno of the first failure, 0 = fine */
    char why[2][160];       /* what failed, e.g. "sched_setattr(SCHED_DEADLINE): ..." */
    int left_behind;        /* a thread could not leave its cgroup */
} rtp_probe_latency_status;

/* Wake-up latency on every CPU of run, one thread per CPU; with both
 * policies each thread alternates SCHED_FIFO and SCHED_DEADLINE rounds of
 * round_ns on a time grid shared by all CPUs, so the two see the same load.
 * fifo and deadline have n_cpus entries (measured = 0 where nothing was
 * recorded). 0, or an errno when no thread could run (status says why). */
int rtp_probe_latency_run(const rtp_probe_job *run, rtp_probe_latency *fifo,
                          rtp_probe_latency *deadline, rtp_probe_latency_status *status);

/* Context-switch cost on every CPU with two threads under `policy` (FIFO at
 * run->fifo_priority, or OTHER). Same return convention. */
int rtp_probe_switch_run(const rtp_probe_job *run, rtp_probe_policy policy,
                         rtp_probe_switch *out, char *why, size_t why_size);

/* 1 when this process may run a thread under SCHED_FIFO at `priority`
 * (tried on a short-lived thread, nothing else changes). */
int rtp_probe_fifo_allowed(int priority);

/* Nearest-rank percentile (0 < pct <= 100) of n values, sorting them. */
int64_t rtp_probe_percentile(int64_t *values, size_t n, int pct);

#endif
