/* heuristics/pack_sum.h — the running summary of one bin of the packing
 * engine (heuristics/pack.c), updated in O(1) per task placed, and the
 * admission verdicts it decides without running a test over the bin's
 * tasks: utilization and density sums (models/ratio.h's rtp_load_sum:
 * fixed-point enclosures, exact while the denominators fit), the largest
 * blocking term, counts of the task shapes that rule a shortcut out, and
 * the hyperbolic product [BBB03].
 *
 * A verdict is RTP_SUM_ACCEPT or RTP_SUM_REJECT only when the test it
 * stands for (rtp_test_exact or rtp_test_bound of the job, on a bin of one
 * CPU) is known to answer so; RTP_SUM_UNKNOWN sends the caller to that test.
 * Internal to heuristics/. Pure, no allocation; thread-safe per summary. */
#ifndef RTP_PACK_SUM_H
#define RTP_PACK_SUM_H

#include "models/arith.h"
#include "models/load_sum.h"
#include "models/taskset.h"

typedef struct rtp_pack_sum {
    rtp_load_sum util;       /* sum C / T */
    rtp_load_sum density;    /* sum C / min(D, T) */
    rtp_load_sum slack;      /* sum C / min(D - J, T) over tasks with D - J > 0 */
    rtp_ns block_ns;         /* the largest B / (D - J) as the pair (B, D - J) */
    rtp_ns block_d_ns;
    size_t late;             /* tasks with J >= D */
    size_t tight;            /* tasks with D - J < T or B > 0 */
    size_t delayed;          /* tasks with J > 0 or B > 0 */
    size_t short_dl, long_dl;/* tasks with D < T, D > T */
    rtp_u128 hyper;          /* upper bound of 2^62 prod (1 + C / min(D, T)),
                              * kept at most 2^63 + 1 */
} rtp_pack_sum;

enum { RTP_SUM_REJECT = 0, RTP_SUM_ACCEPT = 1, RTP_SUM_UNKNOWN = -1 };

rtp_pack_sum rtp_pack_sum_empty(void);

/* Accounts task t (an effective task) to the summary. */
void rtp_pack_sum_add(rtp_pack_sum *s, const rtp_task *t);

/* The verdict of the one-CPU admission test on the summarised tasks plus
 * t: bound = 0 for rtp_test_exact(policy, priority, 1) (EDF: processor
 * demand; FP: the priority rule then response times), 1 for
 * rtp_test_bound(policy). policy EDF / GEDF or FP / GFP. */
int rtp_pack_sum_verdict(const rtp_pack_sum *s, const rtp_task *t, rtp_policy policy,
                         rtp_prio_rule priority, int bound);

#endif
