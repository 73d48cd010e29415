/* rehearse/dlclock.h — where the kernel's SCHED_DEADLINE periods lie on
 * CLOCK_MONOTONIC, so that a rehearsal measures a job's response from its
 * true arrival (docs/spec.md "rtpack rehearse").
 *
 * The kernel keeps a SCHED_DEADLINE thread's absolute deadline
 * (`dl.deadline` in /proc/<tid>/sched) on the run queue's clock (rq_clock,
 * sched_clock based), which differs from CLOCK_MONOTONIC by a constant
 * offset on a machine with a stable sched_clock (about 1.1 ms on the VMs
 * this project runs on). The offset is measured as the kernel sets it:
 * sched_setattr(SCHED_DEADLINE) gives a new reservation the deadline
 * rq_clock + D [LinuxDL]; after one sched_yield() the thread's deadline is
 * exactly that plus one period. With CLOCK_MONOTONIC read just before (b)
 * and after (a) the call, offset = rq_set - mono lies in [rq_set - a,
 * rq_set - b]; the intersection of a few tries' intervals is kept (each try
 * once the previous try's deadline has passed: a thread back under
 * SCHED_DEADLINE before that keeps its old deadline; tries that do not
 * intersect are an error), and its upper end used,
 * so an arrival computed as deadline - D - offset is never later than the
 * true one (responses are never underestimated, by at most the width).
 *
 * Needs a SCHED_DEADLINE admission of 1 ms every 10 ms for a moment, and at
 * most 3 s: a thread the kernel does not release after its yield (seen once
 * on a busy VM: throttled for good) is put back under SCHED_OTHER and the
 * measurement fails (ETIMEDOUT) instead of hanging.
 * Thread-safety: starts and joins its own short-lived thread; no globals. */
#ifndef RTP_REHEARSE_DLCLOCK_H
#define RTP_REHEARSE_DLCLOCK_H

#include "models/base.h"

#include <stddef.h>

typedef struct rtp_dlclock {
    rtp_ns offset_ns;  /* rq_clock - CLOCK_MONOTONIC, the upper end */
    rtp_ns width_ns;   /* of the interval it was taken from */
} rtp_dlclock;

/* 0, or an errno (why says what failed: no root, admission, /proc). */
int rtp_dlclock_measure(rtp_dlclock *out, char *why, size_t why_size);

/* The absolute deadline of the calling SCHED_DEADLINE thread's current job
 * (rq_clock ns) from /proc/thread-self/sched; -1 when it cannot be read. */
rtp_ns rtp_dlclock_deadline(void);

#endif
