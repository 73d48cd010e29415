/* probe/measure.h — the timing measurements of `rtpack probe`: wake-up
 * (release-to-run) latency of a periodic SCHED_FIFO or SCHED_DEADLINE thread
 * per CPU, and the cost of one context switch per CPU.
 *
 * Latency (the method of cyclictest): a thread sleeps with clock_nanosleep
 * (CLOCK_MONOTONIC, TIMER_ABSTIME) until each release r = start + k x period
 * and records now - r when it runs; one thread per CPU, all CPUs at once.
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

#include "models/probe_doc.h"

typedef enum rtp_probe_policy { RTP_PROBE_FIFO = 0, RTP_PROBE_DEADLINE, RTP_PROBE_OTHER } rtp_probe_policy;

typedef struct rtp_probe_job {
    const int *cpus;         /* the CPUs measured */
    size_t n_cpus;
    rtp_ns period_ns;        /* release period */
    rtp_ns duration_ns;      /* of this measurement */
    int fifo_priority;       /* 1..99 */
    rtp_ns dl_runtime_ns;    /* SCHED_DEADLINE runtime; deadline = period */
    /* SCHED_DEADLINE pinning: per CPU the cgroup "tasks" file a thread joins
     * before it asks for SCHED_DEADLINE (a one-CPU root domain), and the one
     * it goes back to; NULL = unpinned threads on the whole root domain,
     * each sample counted for the CPU it ran on. */
    char *const *join_tasks;
    const char *leave_tasks;
    volatile sig_atomic_t *stop; /* may be NULL */
} rtp_probe_job;

/* Latency under `policy` (FIFO or DEADLINE) on every CPU of run; out has
 * n_cpus entries (measured = 0 where nothing was recorded). 0 on success,
 * else an errno value with what failed in `why` (e.g. EPERM from
 * sched_setattr). A cgroup that could not be left is reported the same way
 * (*left_behind = 1). */
int rtp_probe_latency_run(const rtp_probe_job *run, rtp_probe_policy policy,
                          rtp_probe_latency *out, int *left_behind, char *why, size_t why_size);

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
