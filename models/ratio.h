/* models/ratio.h — exact non-negative rationals for bounds given as decimals
 * (--capacity 0.9, sweep utilizations "0.65") and exact utilization sums.
 *
 * rtp_ratio is num/den in lowest terms, den > 0. Utilization sums use a fast
 * 128-bit fixed-point enclosure first and GMP rationals (mpq_t) only when the
 * enclosure cannot decide, so verdicts are exact at any size. double appears
 * only in the *_double display helpers. Pure and thread-safe. */
#ifndef RTP_RATIO_H
#define RTP_RATIO_H

#include "models/base.h"
#include "models/api.h"

RTP_API_BEGIN

typedef struct rtp_ratio {
    int64_t num;
    int64_t den;
} rtp_ratio;

/* Parses a non-negative decimal "0.95", "1", "2.5" (at most 18 significant
 * digits) exactly. RTP_EINPUT with a reason on error. */
rtp_status rtp_ratio_parse_decimal(const char *text, rtp_ratio *out,
                                   char *why, size_t why_size);

/* Shortest decimal form when den is a product of 2s and 5s ("0.65"); else
 * "num/den". */
void rtp_ratio_format(rtp_ratio r, char *buf, size_t size);

/* For messages "LOAD exceeds LIMIT": `value` (the display double of a load
 * known exactly to exceed `limit`) with 4 decimals, or as many more as it
 * takes to read above limit ("0.99000001" against 0.99); "just above 0.99"
 * when a double cannot show the difference. */
void rtp_ratio_format_above(double value, rtp_ratio limit, char *buf, size_t size);

/* sign(a - b) exactly. */
int rtp_ratio_cmp(rtp_ratio a, rtp_ratio b);

double rtp_ratio_double(rtp_ratio r);

/* Which load a sum measures: utilization wcet/period or density
 * wcet/min(deadline, period). */
typedef enum rtp_load_kind { RTP_LOAD_UTIL = 0, RTP_LOAD_DENSITY } rtp_load_kind;

struct rtp_task;

/* sign(sum over tasks of load - bound), exact. */
int rtp_load_cmp(const struct rtp_task *tasks, size_t n, rtp_load_kind kind,
                 rtp_ratio bound);

/* sign(load(a) - load(b)) for two task arrays, exact (best/worst fit). */
int rtp_load_cmp_sets(const struct rtp_task *a, size_t na,
                      const struct rtp_task *b, size_t nb, rtp_load_kind kind);

/* sign(load(a) + extra.wcet/extra.divisor - bound): the admission question
 * "does one more task still fit under the capacity" without copying. */
int rtp_load_cmp_plus(const struct rtp_task *tasks, size_t n,
                      const struct rtp_task *extra, rtp_load_kind kind,
                      rtp_ratio bound);

/* Display value of a load sum (never used in a verdict). */
double rtp_load_double(const struct rtp_task *tasks, size_t n,
                       rtp_load_kind kind);

/* The same sum computed exactly (GMP) and only then rounded to a double:
 * for a display value that must agree with the exact verdict's side of 1. */
double rtp_load_exact_double(const struct rtp_task *tasks, size_t n,
                             rtp_load_kind kind);

RTP_API_END
#endif
