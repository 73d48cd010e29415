/* models/load_sum.h — a running load sum for code that adds one task at a
 * time (heuristics/pack.c), computed in models/ratio.c beside the exact
 * sums it stands in for. Internal (not installed: it needs 128-bit
 * integers). Pure and thread-safe. */
#ifndef RTP_LOAD_SUM_H
#define RTP_LOAD_SUM_H

#include "models/arith.h"
#include "models/ratio.h"

/* Where the 64.64 enclosures of load sums saturate (then the exact sums
 * decide). */
#define RTP_LOAD_SUM_SAT ((rtp_u128)1 << 127)

/* A running load sum S = sum wcet / divisor, for packing that adds one task
 * at a time (heuristics/pack.c): the 64.64 fixed-point enclosure
 * lo <= 2^64 S <= hi of rtp_load_cmp (saturating at 2^127) and, while the
 * common denominator of the divisors fits 63 bits, S exactly as num / den
 * (den = 0 once it does not). Start from rtp_load_sum_zero(). */
typedef struct rtp_load_sum {
    rtp_u128 lo, hi;
    int64_t num, den;
} rtp_load_sum;

rtp_load_sum rtp_load_sum_zero(void);

/* *s += wcet / divisor (wcet >= 0, divisor >= 1). */
void rtp_load_sum_add(rtp_load_sum *s, int64_t wcet, int64_t divisor);

/* sign(a - b) when the enclosures or the exact values decide, else 2: the
 * caller then recomputes the sums exactly (rtp_load_cmp_sets, GMP). */
int rtp_load_sum_cmp(const rtp_load_sum *a, const rtp_load_sum *b);

#endif
