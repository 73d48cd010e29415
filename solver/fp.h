/* solver/fp.h — exact uniprocessor fixed-priority analysis: response-time
 * analysis [JP86] [ABRTW93] extended to arbitrary deadlines with Lehoczky's
 * level-i busy period [Leh90], and priority assignment RM [LL73] / DM [LW82]
 * / given / Audsley's OPA [Aud01].
 *
 * Priorities follow Linux and docs/spec.md "Priorities": larger = more
 * urgent; tasks with equal priority interfere with each other. Times are
 * rtp_ns. Pure: no globals, safe from many threads. */
#ifndef RTP_FP_H
#define RTP_FP_H

#include "models/taskset.h"
#include "models/api.h"

RTP_API_BEGIN

/* Worst-case response time of every task under `priority` (n entries).
 * response_time[i] = exact WCRT, or -1 when it exceeds the deadline (the
 * iteration stops there). *schedulable = all meet their deadlines.
 * RTP_ELIMIT when the iteration passes `limits` or overflows. */
rtp_status rtp_fp_rta(const rtp_task *tasks, size_t n, const int *priority,
                      rtp_ns *response_time, int *schedulable,
                      const rtp_limits *limits, rtp_diag *diag);

/* Priorities 1..n (n = most urgent) into priority[] by `rule`.
 * RTP_PRIO_GIVEN repeats the tasks' given priorities as a dense ranking
 * (equal given priorities share a number). RTP_PRIO_OPA tries at each level
 * from the lowest up the candidates in reverse DM order and takes the first
 * that passes (where DM is optimal, rtp_fp_dm_optimal, that is DM itself,
 * found by one response-time analysis); when no order exists *found = 0 and
 * priority[] holds DM.
 * For the other rules *found = 1. RTP_EINPUT for GIVEN when a task has no
 * priority. */
/* rtp_fp_rta's *schedulable alone, which can be cheaper: a long level busy
 * period is searched for a late job at once instead of job by job (near a
 * level utilization of 1 that walk can take millions of steps). */
rtp_status rtp_fp_verdict(const rtp_task *tasks, size_t n, const int *priority,
                          int *schedulable, const rtp_limits *limits, rtp_diag *diag);

/* No jitter, no blocking, every D <= T: deadline-monotonic priorities are
 * optimal [LW82] (some order passes iff DM does; a task moved below one of
 * later deadline completes with the same work by the earlier deadline), so
 * OPA's answer is DM's, at any wcets. */
int rtp_fp_dm_optimal(const rtp_task *tasks, size_t n);

rtp_status rtp_fp_assign(const rtp_task *tasks, size_t n, rtp_prio_rule rule,
                         int *priority, int *found, const rtp_limits *limits,
                         rtp_diag *diag);

RTP_API_END
#endif
