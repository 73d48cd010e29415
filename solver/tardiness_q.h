/* solver/tardiness_q.h — the three quantities behind the tardiness bounds of
 * solver/tardiness.h in exact rationals (GMP): whether U <= m (and lambda),
 * Devi & Anderson's x [DA08], and the compliant-vector lifts [EGB10].
 * solver/tardiness.c decides them in 128-bit integer enclosures first and
 * calls these only where an enclosure cannot (a value within about n 2^-32
 * of a boundary, or a step past 128 bits); tests/test_tardiness.c runs both
 * paths on the same sets and requires identical answers. Internal to the
 * solver. Times are rtp_ns. Pure: no globals, safe from many threads. */
#ifndef RTP_TARDINESS_Q_H
#define RTP_TARDINESS_Q_H

#include "models/arith.h"
#include "solver/tardiness.h"

/* Task i as the sporadic model sees it: minimum release distance T - J'. */
static inline rtp_ns rtp_tardiness_gap(const rtp_task *t)
{
    return t->period_ns - t->jitter_ns;
}

/* U = sum C/(T - J') exactly: returns 1 when U <= m; *lambda = ceil(U) - 1.
 * Every task has C <= T - J'. */
int rtp_tardiness_q_load(const rtp_task *tasks, size_t n, int m, long *lambda);

/* *x = ceil(top / (m - sum of the first lambda - 1 utilizations of
 * by_util)), by_util sorted by C/(T - J') descending, 2 <= lambda + 1 <= m;
 * RTP_ELIMIT when it does not fit in rtp_ns. */
rtp_status rtp_tardiness_q_da(const rtp_task *by_util, int m, long lambda, rtp_i128 top,
                              rtp_ns *x);

/* lift[i] = ceil(s* - C_i/m) for the compliant-vector root s* [EGB10] with
 * priority points Y_i = D_i - dmin; RTP_ELIMIT when a lift does not fit in
 * rtp_ns or the root search takes more than limits->max_iterations steps,
 * RTP_ENOMEM. */
rtp_status rtp_tardiness_q_lift(const rtp_task *tasks, size_t n, int m, long lambda,
                                rtp_ns dmin, const rtp_limits *limits, rtp_ns *lift);

/* Which path rtp_tardiness_bounds_via takes: integer enclosures with the
 * rationals as fallback (what rtp_tardiness_bounds does), the enclosures
 * alone (*undecided = 1 and every bound -1 where they cannot decide), or the
 * rationals alone. The last two exist for the tests' comparison. */
typedef enum rtp_tardiness_path {
    RTP_TARDINESS_AUTO = 0,
    RTP_TARDINESS_INT,
    RTP_TARDINESS_Q
} rtp_tardiness_path;

/* rtp_tardiness_bounds by `path`; *undecided as above (0 otherwise). */
rtp_status rtp_tardiness_bounds_via(const rtp_task *tasks, size_t n, int m,
                                    const rtp_limits *limits, rtp_tardiness_path path,
                                    rtp_tardiness *out, int *bounded, int *undecided,
                                    rtp_diag *diag);

#endif
