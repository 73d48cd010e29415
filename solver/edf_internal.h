/* solver/edf_internal.h — internal to solver/ (not installed): the pieces of
 * the exact EDF test (solver/edf.c) that the search near U' = 1
 * (solver/edf_near.c) runs on parts of the time line. Tasks are effective
 * tasks (C', and D* = D - J' for the deadline counted from the release).
 * Units: ns. Pure and thread-safe; only rtp_edf_scan allocates (and frees). */
#ifndef RTP_EDF_INTERNAL_H
#define RTP_EDF_INTERNAL_H

#include "models/arith.h"
#include "models/taskset.h"

/* A step budget: `used` counts, `max` caps; limits' deadline and interrupt
 * are checked every 1024 steps. */
typedef struct rtp_edf_budget {
    uint64_t used, max;
    const rtp_limits *limits;
} rtp_edf_budget;

/* Non-zero when the budget is spent or the caller's deadline passed or
 * interrupt is set; the message says which, after `what`. Inline: edf.c's
 * walks and edf_near.c's search both count steps with it. */
static inline int rtp_edf_spend(rtp_edf_budget *b, rtp_diag *diag, const char *what)
{
    if (++b->used > b->max) {
        rtp_diag_set(diag, RTP_ELIMIT, "", "%s in %llu iterations", what,
                     (unsigned long long)b->max);
        return 1;
    }
    rtp_diag scratch;
    if ((b->used & 1023) == 0 && rtp_limits_check(b->limits, &scratch) != RTP_OK) {
        rtp_diag_set(diag, RTP_ELIMIT, "", "%s: %s", what, scratch.message);
        return 1;
    }
    return 0;
}

/* h(t) = dbf(t) + b(t) (b left out when with_blocking = 0), saturated at
 * RTP_I128_SATURATED; t >= 0. */
rtp_i128 rtp_edf_load(const rtp_task *tasks, size_t n, rtp_ns t, int with_blocking);

/* Largest step point k T_i + D*_i (k >= 0) strictly below x; 0 if none. */
rtp_ns rtp_edf_prev_deadline(const rtp_task *tasks, size_t n, rtp_ns x);

/* QPA [ZB09] over the step points in [lo, hi] (lo >= 1): walks down from the
 * last one; *failed_at = a t in [lo, hi] with h(t) > t, or 0 when none. A
 * walk that reaches h(t) <= d_min (the smallest D*) stops there. */
rtp_status rtp_edf_walk(const rtp_task *tasks, size_t n, int with_blocking, rtp_ns lo,
                        rtp_ns hi, rtp_ns d_min, rtp_edf_budget *b, rtp_ns *failed_at,
                        rtp_diag *diag);

/* The smallest step point t in [from, upto] with h(t) > t (one must exist:
 * `upto` fails), scanning upward, into *out. */
rtp_status rtp_edf_scan(const rtp_task *tasks, size_t n, rtp_ns from, rtp_ns upto,
                        rtp_edf_budget *b, rtp_ns *out, rtp_diag *diag);

/* The exact test (solver/edf.h) answering with some failing t instead of
 * the smallest: *failed = a t with h(t) > t, or 0 when schedulable. The set
 * must have U' <= 1 (else *failed = 0 too: check U' first). */
rtp_status rtp_edf_failure(const rtp_task *tasks, size_t n, const rtp_limits *limits,
                           rtp_ns *failed, rtp_diag *diag);

#endif
