/* heuristics/pack_sum.c — see pack_sum.h.
 *
 * Each verdict below is the answer the named test gives, argued from that
 * test's own definition (solver/edf.c, solver/schedtest.c, solver/fp.c):
 *  - EDF exact: J >= D for some task: not schedulable (edf.c step 0).
 *    U > 1: not schedulable (step 1). Every D - J >= T and no blocking:
 *    schedulable iff U <= 1 (step 2). Otherwise the density bound with
 *    jitter and blocking of solver/schedtest.c, sum C / min(D - J, T) +
 *    max B / (D - J) <= 1, proves dbf(t) + b(t) <= t for every t > 0, so
 *    the exact test accepts; above it, only the test knows.
 *  - EDF bound (rtp_test_bound): that same density sum <= 1 is the test
 *    (without jitter and blocking it is sum C / min(D, T) <= 1).
 *  - FP exact, no jitter or blocking: the hyperbolic bound [BBB03] on
 *    C / min(D, T) with priorities by min(D, T) means every task meets
 *    min(D, T) <= D, so response-time analysis accepts those priorities:
 *    DM when every D <= T, RM when every D >= T, and OPA [Aud01], optimal
 *    for the exact analysis, finds an order too. Equal keys may be ranked
 *    either way: tasks sharing a period count as one task of their summed
 *    utilization, which the product only overestimates.
 *  - FP bound (Liu & Layland [LL73] on C / min(D, T)): the bound n (2^(1/n)
 *    - 1) is above ln 2 for every n and below 1: a sum at most ln 2 passes,
 *    one above 1 fails. With jitter or blocking the test refuses the input,
 *    so the caller runs it to say so.
 * A verdict never skips a resource limit the exact test would report except
 * where the test cannot hit one (steps 0-2 of edf.c return before any
 * iteration); after a bound accepts, the exact analysis of the plan's CPUs
 * (pack.c's build_plan) still reports any limit it meets. */
#include "heuristics/pack_sum.h"

#define HYPER_ONE ((rtp_u128)1 << 62)
#define HYPER_TWO ((rtp_u128)1 << 63)
/* floor(2^64 ln 2) = 0xB17217F7D1CF79AB, rounded further down */
#define LN2_LO ((rtp_u128)0xB172170000000000ull)

static rtp_ns min_ns(rtp_ns a, rtp_ns b)
{
    return a < b ? a : b;
}

rtp_pack_sum rtp_pack_sum_empty(void)
{
    rtp_pack_sum s = {rtp_load_sum_zero(), rtp_load_sum_zero(), rtp_load_sum_zero(), 0, 1,
                      0, 0, 0, 0, 0, HYPER_ONE};
    return s;
}

/* t's blocking term B / (D - J) beats (b, d)? (0 / 1 when none) */
static int more_blocking(rtp_ns b, rtp_ns d, rtp_ns tb, rtp_ns td)
{
    return (rtp_i128)tb * d > (rtp_i128)b * td;
}

void rtp_pack_sum_add(rtp_pack_sum *s, const rtp_task *t)
{
    rtp_ns dm = min_ns(t->deadline_ns, t->period_ns), ds = t->deadline_ns - t->jitter_ns;
    rtp_load_sum_add(&s->util, t->wcet_ns, t->period_ns);
    rtp_load_sum_add(&s->density, t->wcet_ns, dm);
    if (ds <= 0) {
        s->late++;
    } else {
        rtp_load_sum_add(&s->slack, t->wcet_ns, min_ns(ds, t->period_ns));
        if (more_blocking(s->block_ns, s->block_d_ns, t->blocking_ns, ds)) {
            s->block_ns = t->blocking_ns;
            s->block_d_ns = ds;
        }
    }
    s->tight += ds < t->period_ns || t->blocking_ns > 0;
    s->delayed += t->jitter_ns > 0 || t->blocking_ns > 0;
    s->short_dl += t->deadline_ns < t->period_ns;
    s->long_dl += t->deadline_ns > t->period_ns;
    if (s->hyper <= HYPER_TWO) {
        rtp_u128 x = s->hyper * (rtp_u128)(dm + t->wcet_ns); /* < 2^127 */
        s->hyper = x / (rtp_u128)dm + (x % (rtp_u128)dm != 0);
        if (s->hyper > HYPER_TWO)
            s->hyper = HYPER_TWO + 1;
    }
}

/* sign(x + c / d - 1), or 2 when the sums cannot decide. */
static int plus_cmp_one(rtp_load_sum x, rtp_ns c, rtp_ns d)
{
    rtp_load_sum one = rtp_load_sum_zero();
    rtp_load_sum_add(&one, 1, 1);
    rtp_load_sum_add(&x, c, d);
    return rtp_load_sum_cmp(&x, &one);
}

/* sign(density with jitter and blocking - 1) of the summary plus t (1 when
 * a task is late), or 2. */
static int slack_cmp_one(const rtp_pack_sum *s, const rtp_task *t)
{
    rtp_ns ds = t->deadline_ns - t->jitter_ns;
    if (s->late || ds <= 0)
        return 1;
    rtp_load_sum x = s->slack;
    rtp_ns b = s->block_ns, d = s->block_d_ns;
    if (more_blocking(b, d, t->blocking_ns, ds)) {
        b = t->blocking_ns;
        d = ds;
    }
    if (b > 0)
        rtp_load_sum_add(&x, b, d);
    return plus_cmp_one(x, t->wcet_ns, min_ns(ds, t->period_ns));
}

static int edf_verdict(const rtp_pack_sum *s, const rtp_task *t, int bound)
{
    int slack = slack_cmp_one(s, t);
    if (bound)
        return slack == 2 ? RTP_SUM_UNKNOWN : slack <= 0;
    if (s->late || t->deadline_ns <= t->jitter_ns)
        return RTP_SUM_REJECT;
    int util = plus_cmp_one(s->util, t->wcet_ns, t->period_ns);
    if (util == 1)
        return RTP_SUM_REJECT;
    int loose = !s->tight && t->deadline_ns - t->jitter_ns >= t->period_ns && !t->blocking_ns;
    if (loose && util != 2)
        return RTP_SUM_ACCEPT;
    return slack <= 0 ? RTP_SUM_ACCEPT : RTP_SUM_UNKNOWN;
}

static int fp_verdict(const rtp_pack_sum *s, const rtp_task *t, rtp_prio_rule priority,
                      int bound)
{
    if (s->delayed || t->jitter_ns > 0 || t->blocking_ns > 0)
        return RTP_SUM_UNKNOWN;
    rtp_ns dm = min_ns(t->deadline_ns, t->period_ns);
    if (bound) {
        rtp_load_sum x = s->density;
        rtp_load_sum_add(&x, t->wcet_ns, dm);
        if (x.hi <= LN2_LO)
            return RTP_SUM_ACCEPT;
        return plus_cmp_one(s->density, t->wcet_ns, dm) == 1 ? RTP_SUM_REJECT
                                                             : RTP_SUM_UNKNOWN;
    }
    int order_fits = priority == RTP_PRIO_OPA ||
                     (priority == RTP_PRIO_DM && !s->long_dl && t->deadline_ns <= t->period_ns) ||
                     (priority == RTP_PRIO_RM && !s->short_dl && t->deadline_ns >= t->period_ns);
    if (order_fits && s->hyper <= HYPER_TWO &&
        s->hyper * (rtp_u128)(dm + t->wcet_ns) <= HYPER_TWO * (rtp_u128)dm)
        return RTP_SUM_ACCEPT;
    return RTP_SUM_UNKNOWN;
}

int rtp_pack_sum_verdict(const rtp_pack_sum *s, const rtp_task *t, rtp_policy policy,
                         rtp_prio_rule priority, int bound)
{
    if (policy == RTP_POLICY_EDF || policy == RTP_POLICY_GEDF)
        return edf_verdict(s, t, bound);
    return fp_verdict(s, t, priority, bound);
}
