/* deploy/rtapp.h — an rt-app workload that reproduces a plan: one thread
 * per task running `run` = wcet every timer `period`, under SCHED_DEADLINE
 * (dl-runtime/dl-deadline/dl-period) or SCHED_FIFO (priority, cpus).
 *
 * rt-app takes whole microseconds, so times are rounded the safe way —
 * wcet/runtime up, deadline and period down — and the rounded plan is
 * re-checked (rtp_deploy_check) before anything is written. SCHED_DEADLINE
 * threads get no "cpus": Linux refuses a deadline task whose affinity is
 * narrower than its root domain, so they run in rt-app's root domain (a
 * warning says so). Ownership: *json is malloc'd, the caller frees it.
 * Thread-safe. */
#ifndef RTP_DEPLOY_RTAPP_H
#define RTP_DEPLOY_RTAPP_H

#include "deploy/linux_limits.h"
#include "models/text.h"

/* ns -> us, rounded up / down (one named conversion per direction,
 * HACKING.md "Numbers"). */
int64_t rtp_ns_to_us_ceil(rtp_ns t);
int64_t rtp_ns_to_us_floor(rtp_ns t);

/* *deployable = 0 with the reason in diag when the rounded plan fails the
 * re-check (then *json stays NULL). RTP_EINPUT when a task name is not a
 * plain name (quote.h: rt-app uses it as a thread and file name). */
rtp_status rtp_deploy_rtapp(const rtp_plan *plan, const rtp_deploy_opts *opts,
                            char **json, int *deployable, rtp_text *warnings,
                            rtp_diag *diag);

#endif
