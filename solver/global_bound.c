/* solver/global_bound.c — the interference sums of solver/global_work.h as
 * piecewise-linear functions of the window length x, and the fixed-point
 * search over them.
 *
 * Every workload function here is a staircase of slope 0 or 1, so at any x
 * each term is linear for a known run; a minimum of such lines is linear up
 * to the first crossing, and a sum of the m - 1 largest (limited carry-in) is
 * convex. On a run where the total is linear or convex, its right slope at x
 * bounds it from below, which tells how far the search may jump without
 * passing the least fixed point. The plain iteration of the papers crawls one
 * ns per step when exactly m terms sit at their clamp x - C_k + 1 (the sum
 * then grows as fast as m x); these jumps remove that. */
#include "solver/global_work.h"

#include <stdlib.h>

#define GW_INF RTP_I128_SATURATED

static rtp_i128 lmin(rtp_i128 a, rtp_i128 b) { return a < b ? a : b; }

/* floor(a / b) for 0 <= a, 1 <= b: every caller's a is below 2^64 (sums of
 * two valid times), where the 64-bit division is several times cheaper than
 * the 128-bit one (which stays for anything larger). */
static rtp_i128 quot(rtp_i128 a, rtp_i128 b)
{
    if (a < ((rtp_i128)1 << 64) && b < ((rtp_i128)1 << 64))
        return (rtp_i128)((uint64_t)a / (uint64_t)b);
    return a / b;
}

/* floor(span / T) C + min(C, span mod T), span >= 0: +1 per step while
 * span mod T < C, flat for the rest of the period. */
static gw_term staircase(rtp_i128 span, const rtp_task *ti)
{
    rtp_i128 jobs = quot(span, ti->period_ns), r = span - jobs * ti->period_ns;
    gw_term t;
    t.value = jobs * ti->wcet_ns + lmin(ti->wcet_ns, r);
    t.slope = r < ti->wcet_ns;
    t.run = t.slope ? ti->wcet_ns - r : ti->period_ns - r;
    return t;
}

/* [GSYY09] eq. (6): W^CI(x) = floor(b / T) C + C + alpha, b =
 * [x - C]_0, alpha = [b mod T - (T - R)]_0^{C-1}. With q = b mod T - (T - R):
 * flat while q < 0; +1 per step while 0 <= q < C - 1; flat at C - 1 until the
 * period wraps, where the step (+C, alpha from C - 1 back to 0) is +1. */
static gw_term carry_in(rtp_i128 x, const rtp_task *ti, rtp_i128 r_i)
{
    rtp_i128 c = ti->wcet_ns, t = ti->period_ns;
    gw_term w;
    if (x < c) { /* b = 0 until x = C: W = C (alpha = 0 since R <= T) */
        w.value = c;
        w.slope = 0;
        w.run = c - x;
        return w;
    }
    rtp_i128 b = x - c, jobs = quot(b, t), r = b - jobs * t, q = r - (t - r_i);
    rtp_i128 alpha = q < 0 ? 0 : lmin(q, c - 1);
    w.value = jobs * c + c + alpha;
    if (q < 0) {
        w.slope = 0;
        w.run = -q;
    } else if (q < c - 1) {
        w.slope = 1;
        w.run = c - 1 - q;
    } else if (r == t - 1) {
        w.slope = 1;
        w.run = 1;
    } else {
        w.slope = 0;
        w.run = t - 1 - r;
    }
    return w;
}

/* min(a, b) of two lines (slopes 0 or 1), linear up to the first crossing. */
static gw_term tmin(gw_term a, gw_term b)
{
    rtp_i128 run = lmin(a.run, b.run);
    if (b.value < a.value || (b.value == a.value && b.slope < a.slope)) {
        gw_term s = a;
        a = b;
        b = s;
    }
    if (a.slope > b.slope) /* b is higher but flatter: equal at value gap */
        run = lmin(run, b.value - a.value);
    a.run = run;
    return a;
}

static int by_value_desc(const void *pa, const void *pb)
{
    const gw_term *a = pa, *b = pb;
    if (a->value != b->value)
        return a->value > b->value ? -1 : 1;
    return (a->slope < b->slope) - (a->slope > b->slope);
}

void rtp_gw_interference(const gw_ctx *ctx, rtp_i128 x, rtp_i128 *value,
                         rtp_i128 *slope, rtp_i128 *run)
{
    const rtp_task *tk = ctx->tk;
    gw_term clamp = {x - tk->wcet_ns + 1, GW_INF, 1};
    rtp_i128 sum = 0, sl = 0, len = GW_INF;
    for (size_t j = 0; j < ctx->n_interferers; j++) {
        size_t i = ctx->interferers[j];
        const rtp_task *ti = &ctx->tasks[i];
        gw_term term;
        if (ctx->kind == GW_FP_LC) {
            gw_term nc = tmin(staircase(x, ti), clamp);
            gw_term ci = tmin(carry_in(x, ti, ctx->bound[i]), clamp);
            /* the excess max(ci - nc, 0): its right slope (ties at 0 take
             * the rising side) */
            gw_term ex = {ci.value - nc.value, 0, 0};
            int ds = ci.slope - nc.slope;
            ex.slope = ex.value > 0 || (ex.value == 0 && ds > 0) ? ds : 0;
            if (ex.value < 0)
                ex.value = 0;
            ctx->scratch[j] = ex;
            term = nc;
            len = lmin(len, ci.run);
        } else {
            gw_term w = staircase(x + ctx->bound[i] - ti->wcet_ns, ti);
            if (ctx->kind == GW_EDF) {
                gw_term j_ik = {ctx->cap[j], GW_INF, 0};
                w = tmin(w, j_ik);
            }
            if (ctx->scratch)
                ctx->scratch[j] = w;
            term = tmin(w, clamp);
        }
        sum += term.value;
        sl += term.slope;
        len = lmin(len, term.run);
    }
    if (ctx->kind == GW_FP_LC && ctx->m > 1) {
        /* The m - 1 largest excesses: a maximum over sets of lines, convex;
         * its right slope is the slopes' sum over the top set ordered by
         * (value, slope). */
        size_t keep = (size_t)ctx->m - 1;
        if (ctx->n_interferers > keep)
            qsort(ctx->scratch, ctx->n_interferers, sizeof *ctx->scratch, by_value_desc);
        for (size_t j = 0; j < ctx->n_interferers && j < keep; j++) {
            sum += ctx->scratch[j].value;
            sl += ctx->scratch[j].slope;
        }
    }
    *value = sum;
    *slope = sl;
    *run = len;
}

/* How far past x no fixed point can lie, from the terms before the clamp
 * as rtp_gw_interference left them in scratch (value a_j, slope s_j, run
 * r_j at x): the largest d >= 0 with G(d') >= 0 for every d' in [0, d], where
 * G(d) = sum_j min(a_j + s_j min(d, r_j), c + d) - m (c + d) and c is the
 * clamp at x. Each term is linear over its run and nondecreasing after it,
 * so a_j + s_j min(d, r_j) never exceeds it, and G(d) <= h(x + d); G(0) =
 * h(x) >= 0. G is concave (sums of minima of concave pieces, minus a line)
 * and G(d) <= top - m (c + d) with top = sum_j (a_j + s_j r_j), so Newton
 * steps from d = top / m - c downwards, d <- d - ceil(-G(d) / -G'(d)) with
 * G' a left slope (a supergradient), never pass the answer and lower d by
 * at least one each. This covers both the classic iterate and the linear
 * jump: G is exact over the common run of all terms. */
static rtp_i128 reach(const gw_ctx *ctx, rtp_i128 c)
{
    rtp_i128 m = ctx->m, top = 0;
    for (size_t j = 0; j < ctx->n_interferers; j++) {
        const gw_term *w = &ctx->scratch[j];
        top += w->value + (w->slope ? w->run : 0); /* a slope-1 run is finite */
    }
    rtp_i128 d = top / m - c; /* >= 0: top >= interference(x) >= m c */
    while (d > 0) {
        rtp_i128 clamp = c + d, g = -m * clamp, slope = -m;
        for (size_t j = 0; j < ctx->n_interferers; j++) {
            const gw_term *w = &ctx->scratch[j];
            rtp_i128 f = w->value + (w->slope ? lmin(d, w->run) : 0);
            if (f >= clamp) {
                g += clamp;
                slope += 1;
            } else {
                g += f;
                slope += w->slope && d <= w->run;
            }
        }
        if (g >= 0)
            break;
        d -= (-g - slope - 1) / -slope; /* slope < 0 here: G(0) >= 0 > G(d) */
    }
    return d > 0 ? d : 0;
}

/* GW_EDF: J_i^k = floor(D_k / T_i) C_i + min(C_i, [D_k mod T_i - S_i]_0)
 * with S_i = D_i - bound[i], fixed while bound[] is. */
static void fill_caps(const gw_ctx *ctx)
{
    const rtp_task *tk = ctx->tk;
    for (size_t j = 0; ctx->kind == GW_EDF && j < ctx->n_interferers; j++) {
        const rtp_task *ti = &ctx->tasks[ctx->interferers[j]];
        rtp_i128 jobs = quot(tk->deadline_ns, ti->period_ns);
        rtp_i128 rest = tk->deadline_ns - jobs * ti->period_ns -
                        (ti->deadline_ns - ctx->bound[ctx->interferers[j]]);
        ctx->cap[j] = jobs * ti->wcet_ns + (rest > 0 ? lmin(ti->wcet_ns, rest) : 0);
    }
}

/* One more step against the limits. */
static rtp_status count_step(uint64_t *steps, const rtp_limits *limits, rtp_diag *diag)
{
    if (++*steps > limits->max_iterations)
        return rtp_diag_set(diag, RTP_ELIMIT, "",
                            "global response-time bound: more than %llu iterations",
                            (unsigned long long)limits->max_iterations);
    if ((*steps & 1023) == 0 && rtp_limits_check(limits, diag) != RTP_OK)
        return RTP_ELIMIT;
    return RTP_OK;
}

rtp_status rtp_gw_fixed_point(const gw_ctx *ctx, uint64_t *steps,
                              const rtp_limits *limits, rtp_ns *bound,
                              rtp_diag *diag)
{
    const rtp_task *tk = ctx->tk;
    rtp_i128 x = ctx->from > tk->wcet_ns ? ctx->from : tk->wcet_ns, m = ctx->m;
    rtp_status st;
    *bound = -1;
    fill_caps(ctx);
    int concave = ctx->kind != GW_FP_LC && ctx->scratch != NULL;
    while (x <= tk->deadline_ns) {
        if ((st = count_step(steps, limits, diag)) != RTP_OK)
            return st;
        rtp_i128 omega, slope, run;
        rtp_gw_interference(ctx, x, &omega, &slope, &run);
        /* h(x) = omega - m (x - C_k + 1) < 0  <=>  C_k + floor(omega/m) <= x */
        rtp_i128 h = omega - m * (x - tk->wcet_ns + 1);
        if (h < 0) {
            *bound = (rtp_ns)x;
            return RTP_OK;
        }
        if (concave) {
            x += reach(ctx, x - tk->wcet_ns + 1) + 1;
            continue;
        }
        /* On [x, x + run]: h(x + d) >= h + (slope - m) d. */
        rtp_i128 jump = run, fall = m - slope;
        if (fall > 0 && h / fall + 1 < jump)
            jump = h / fall + 1;
        rtp_i128 iterate = tk->wcet_ns + omega / m; /* > x here */
        x = x + jump > iterate ? x + jump : iterate;
    }
    return RTP_OK;
}
