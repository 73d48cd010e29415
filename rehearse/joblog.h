/* rehearse/joblog.h — what the synthetic workload of `rtpack rehearse`
 * records about its own jobs (docs/spec.md "rtpack rehearse"), kept apart from the
 * program so the bookkeeping is tested without a real-time kernel.
 *
 * Arrivals lie on a grid: job k of a task arrives at origin + k x period,
 * origin being the start of its first job. A job's response is its
 * completion minus its arrival; it misses when that exceeds the deadline.
 * Under SCHED_DEADLINE the kernel releases a job at each period boundary
 * (the task yields after each job, docs/deploy.md "Release patterns"), so a
 * job belongs to the slot its start falls in, and a slot no job started in
 * is a skipped release, which counts as a miss. Under SCHED_FIFO the task
 * sleeps to each arrival and a late job starts the next at once: jobs take
 * the slots in order and none is skipped.
 *
 * Only slots in [count_from, count_until) are counted (default: all): the
 * workload keeps its release pattern while rehearse starts and stops the
 * other tasks, and counts only the jobs of the measured window.
 *
 * Times are rtp_ns. The log owns nothing: responses go to a caller buffer
 * of `cap` entries (the first cap jobs; counts and the maximum cover all).
 * Not thread-safe (one log per task); no allocation, so the workload's hot
 * path never calls malloc. */
#ifndef RTP_REHEARSE_JOBLOG_H
#define RTP_REHEARSE_JOBLOG_H

#include "models/base.h"

#include <stdint.h>

typedef struct rtp_joblog {
    rtp_ns origin_ns, period_ns, deadline_ns;
    int by_start;          /* 1: slot from the start time (SCHED_DEADLINE) */
    int64_t next_slot;     /* the first slot not yet taken */
    int64_t count_from, count_until; /* the slots counted (init: 0, INT64_MAX) */
    uint64_t jobs, misses, skipped;
    rtp_ns response_max_ns;
    rtp_ns *responses;     /* caller's buffer */
    size_t n, cap;
} rtp_joblog;

void rtp_joblog_init(rtp_joblog *log, rtp_ns origin, rtp_ns period, rtp_ns deadline,
                     int by_start, rtp_ns *buf, size_t cap);

/* The job that started at `start` and completed at `end` (start >= origin,
 * end >= start): it takes its slot; it and the slots it skipped are counted
 * where they lie in [count_from, count_until). */
void rtp_joblog_add(rtp_joblog *log, rtp_ns start, rtp_ns end);

/* The arrival of the next job (FIFO: the instant to sleep until). */
rtp_ns rtp_joblog_next_arrival(const rtp_joblog *log);

/* The p-th percentile (0 < p <= 100, nearest rank) of v[0..n-1], sorting v;
 * -1 when n == 0. */
rtp_ns rtp_joblog_percentile(rtp_ns *v, size_t n, int p);

#endif
