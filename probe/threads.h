/* probe/threads.h — what the measuring threads of `rtpack probe` share
 * (probe/measure.c, probe/charge.c): setting a thread's scheduling policy
 * with sched_setattr(2) (glibc 2.36 has no wrapper), joining a cgroup,
 * pinning, a start gate that lets every CPU's thread begin at once, the
 * monotonic clock in rtp_ns, and buffers faulted in before measuring.
 * Internal to probe/ (not installed). Thread-safety: every function acts on
 * the calling thread or on the object passed; no globals. */
#ifndef RTP_PROBE_THREADS_H
#define RTP_PROBE_THREADS_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "probe/measure.h"

/* Puts the calling thread under `policy`: FIFO at `priority`, DEADLINE
 * with runtime / deadline = period and sched_flags `flags`, or OTHER.
 * 0 or the errno of sched_setattr. */
int rtp_thread_policy(rtp_probe_policy policy, int priority, rtp_ns runtime, rtp_ns period,
                      uint64_t flags);

rtp_ns rtp_thread_now(void);               /* CLOCK_MONOTONIC */
void rtp_thread_sleep_until(rtp_ns t);     /* absolute CLOCK_MONOTONIC; EINTR retried */
void rtp_thread_sleep(rtp_ns ns);          /* relative */
int rtp_thread_join_cgroup(const char *tasks); /* this thread's id into a "tasks" file; 0 or errno */
int rtp_thread_pin(int cpu);                /* 0 or errno */
void rtp_thread_block_signals(void);       /* the caller's handler sees them, not us */
void *rtp_thread_alloc_touched(size_t bytes); /* malloc + zero: pages faulted in */

/* A start gate: every thread sets itself up, then waits until the caller
 * has started them all (go) or failed to (abort), so all CPUs measure at
 * once. */
typedef struct rtp_gate {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    size_t ready;
    int state; /* 0 wait, 1 go, -1 abort */
} rtp_gate;

void rtp_gate_init(rtp_gate *g);
int rtp_gate_pass(rtp_gate *g);            /* in a thread: 1 = go, 0 = abort */
void rtp_gate_open(rtp_gate *g, size_t started, size_t wanted); /* in the caller */
void rtp_gate_destroy(rtp_gate *g);

#endif
