/* solver/global_bound_t.h — internal to solver/global_bound.c, which
 * includes it twice: the interference sums and the fixed-point search in one
 * integer type GW_INT (rtp_i128 with GW_WIDE 1, int64_t where
 * global_bound.c shows every value fits), terms GW_TERM, run "infinity"
 * GW_INF_V, each name through GW_(name). No include guard, on purpose. */

static GW_INT GW_(lmin)(GW_INT a, GW_INT b) { return a < b ? a : b; }

/* floor(a / b) for 0 <= a, 1 <= b: every caller's a is below 2^64 (sums of
 * two valid times), where the 64-bit division is several times cheaper than
 * the 128-bit one (which stays for anything larger). */
static GW_INT GW_(quot)(GW_INT a, GW_INT b)
{
#if GW_WIDE
    if (a >= ((GW_INT)1 << 64) || b >= ((GW_INT)1 << 64))
        return a / b;
#endif
    return (GW_INT)((uint64_t)a / (uint64_t)b);
}

/* floor(span / T) C + min(C, span mod T), span >= 0: +1 per step while
 * span mod T < C, flat for the rest of the period. */
static GW_TERM GW_(staircase)(GW_INT span, const rtp_task *ti)
{
    GW_INT jobs = GW_(quot)(span, ti->period_ns), r = span - jobs * ti->period_ns;
    GW_TERM t;
    t.value = jobs * ti->wcet_ns + GW_(lmin)(ti->wcet_ns, r);
    t.slope = r < ti->wcet_ns;
    t.run = t.slope ? ti->wcet_ns - r : ti->period_ns - r;
    return t;
}

/* [GSYY09] eq. (6): W^CI(x) = floor(b / T) C + C + alpha, b =
 * [x - C]_0, alpha = [b mod T - (T - R)]_0^{C-1}. With q = b mod T - (T - R):
 * flat while q < 0; +1 per step while 0 <= q < C - 1; flat at C - 1 until the
 * period wraps, where the step (+C, alpha from C - 1 back to 0) is +1.
 * Always inlined: with rtp_gw_interference_sum's second int64_t caller GCC
 * left it out of line, a call per term in the RTA-LC's search (callgrind:
 * 9% more instructions on gfp-dm's sensitivity). */
static inline __attribute__((always_inline)) GW_TERM
GW_(carry_in)(GW_INT x, const rtp_task *ti, GW_INT r_i)
{
    GW_INT c = ti->wcet_ns, t = ti->period_ns;
    GW_TERM w;
    if (x < c) { /* b = 0 until x = C: W = C (alpha = 0 since R <= T) */
        w.value = c;
        w.slope = 0;
        w.run = c - x;
        return w;
    }
    GW_INT b = x - c, jobs = GW_(quot)(b, t), r = b - jobs * t, q = r - (t - r_i);
    GW_INT alpha = q < 0 ? 0 : GW_(lmin)(q, c - 1);
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
static GW_TERM GW_(tmin)(GW_TERM a, GW_TERM b)
{
    GW_INT run = GW_(lmin)(a.run, b.run);
    if (b.value < a.value || (b.value == a.value && b.slope < a.slope)) {
        GW_TERM s = a;
        a = b;
        b = s;
    }
    if (a.slope > b.slope) /* b is higher but flatter: equal at value gap */
        run = GW_(lmin)(run, b.value - a.value);
    a.run = run;
    return a;
}

/* The excesses' order: larger value first, among equal values the rising
 * (slope 1) first. */
static int GW_(larger_first)(const void *pa, const void *pb)
{
    const GW_TERM *a = pa, *b = pb;
    return a->value > b->value || (a->value == b->value && a->slope > b->slope);
}

/* reach()'s top: *top += w's value at the end of its run (a slope-1 run is
 * finite); a sum past GW_INT (terms near GW_INF_V, found by fuzz_analysis)
 * leaves top unknown: -1. */
static void GW_(add_top)(GW_INT *top, GW_TERM w)
{
    GW_INT add = w.value + (w.slope ? w.run : 0);
    if (*top >= 0 && __builtin_add_overflow(*top, add, top))
        *top = -1;
}

/* rtp_gw_interference (solver/global_work.h) in GW_INT for kind =
 * ctx->kind, always inlined with a constant kind (interference() below)
 * so that each kind's loop has no test of the others; *top also gets
 * reach()'s sum over the terms it leaves in scratch[0..N-1]. For GW_FP_LC
 * (N interferers) scratch[N..2N-1] holds the carry-in pieces and
 * scratch[2N..3N-1] the excesses (their run: the interferer's position);
 * scratch[0..N-1] gets, for the m - 1 largest positive excesses, their
 * carry-in piece and for every other interferer its piece without carry-in
 * (fixed_point() below says why reach() may take those). */
static inline __attribute__((always_inline)) void
GW_(interference_of)(const gw_ctx *ctx, gw_kind kind, GW_INT x, GW_INT *value, GW_INT *top)
{
    GW_TERM *scratch = (GW_TERM *)ctx->scratch;
    const GW_INT *cap = (const GW_INT *)ctx->cap;
    const rtp_task *tk = ctx->tk;
    size_t n_i = ctx->n_interferers;
    GW_TERM clamp = {x - tk->wcet_ns + 1, GW_INF_V, 1};
    GW_INT sum = 0, top_sum = 0;
    for (size_t j = 0; j < n_i; j++) {
        size_t i = ctx->interferers[j];
        const rtp_task *ti = &ctx->tasks[i];
        GW_TERM term;
        if (kind == GW_FP_LC) {
            GW_TERM nc_piece = GW_(staircase)(x, ti);
            GW_TERM ci_piece = GW_(carry_in)(x, ti, ctx->bound[i]);
            GW_TERM nc = GW_(tmin)(nc_piece, clamp);
            GW_TERM ci = GW_(tmin)(ci_piece, clamp);
            /* the excess max(ci - nc, 0): its right slope (ties at 0 take
             * the rising side) */
            GW_TERM ex = {ci.value - nc.value, (GW_INT)j, 0};
            int ds = ci.slope - nc.slope;
            ex.slope = ex.value > 0 || (ex.value == 0 && ds > 0) ? ds : 0;
            if (ex.value < 0)
                ex.value = 0;
            scratch[j] = nc_piece;
            scratch[n_i + j] = ci_piece;
            scratch[2 * n_i + j] = ex;
            term = nc;
        } else {
            GW_TERM w;
            if (kind == GW_EDF && x >= cap[n_i + j]) {
                /* W_i >= J_i^k from here on (W_i is nondecreasing): the
                 * term is J_i^k for every larger x, no division */
                w.value = cap[j];
                w.slope = 0;
                w.run = GW_INF_V;
            } else {
                w = GW_(staircase)(x + ctx->bound[i] - ti->wcet_ns, ti);
                if (kind == GW_EDF) {
                    GW_TERM j_ik = {cap[j], GW_INF_V, 0};
                    w = GW_(tmin)(w, j_ik);
                }
            }
            scratch[j] = w;
            GW_(add_top)(&top_sum, w);
            term = GW_(tmin)(w, clamp);
        }
        sum += term.value;
    }
    if (kind == GW_FP_LC) {
        /* The m - 1 largest excesses, ordered by (value, slope): among
         * equal values the rising ones, whose carry-in pieces then go to
         * reach() (any tie-break is sound, reach()'s comment; this one
         * keeps its jumps as they were). */
        GW_TERM *ex = scratch + 2 * n_i;
        size_t keep = (size_t)ctx->m - 1;
        gw_select_first(ex, n_i, keep, sizeof *ex, GW_(larger_first));
        for (size_t j = 0; j < n_i && j < keep; j++) {
            sum += ex[j].value;
            if (ex[j].value > 0) /* in S: its carry-in piece */
                scratch[ex[j].run] = scratch[n_i + (size_t)ex[j].run];
        }
        for (size_t j = 0; j < n_i; j++)
            GW_(add_top)(&top_sum, scratch[j]);
    }
    *value = sum;
    *top = top_sum;
}

/* interference_of, one copy per kind (measured: the gedf RTA alone in
 * 0.9x the time of the one loop with the tests); inlined into the search
 * as well (GCC left the int64_t copy out of line, a call per step, once
 * the unused slope and run sums went: callgrind, 840 RTA calls, the same
 * 216 million instructions as with them when inlined). */
static inline __attribute__((always_inline)) void
GW_(interference)(const gw_ctx *ctx, GW_INT x, GW_INT *value, GW_INT *top)
{
    switch (ctx->kind) {
    case GW_EDF:
        GW_(interference_of)(ctx, GW_EDF, x, value, top);
        break;
    case GW_FP_LC:
        GW_(interference_of)(ctx, GW_FP_LC, x, value, top);
        break;
    default:
        GW_(interference_of)(ctx, GW_FP_BC, x, value, top);
    }
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
 * jump: G is exact over the common run of all terms.
 * GW_FP_LC [GSYY09]: its sum at x is I(x) = sum_j nc_j'(x) + the m - 1
 * largest [ci_j'(x) - nc_j'(x)]_0 (' = clamped, nc_j the staircase without
 * carry-in, ci_j the carry-in workload), i.e. the maximum over sets S of at
 * most m - 1 interferers of I_S(x) = sum_{j not in S} nc_j'(x) +
 * sum_{j in S} ci_j'(x). Take S = the m - 1 largest excesses at x that are
 * positive (ties: any of them; m = 1: S empty): I_S(x) = I(x), and
 * I(x + d) >= I_S(x + d) for every d >= 0 (a maximum is at least any of its
 * members). nc_j and ci_j are nondecreasing (at ci_j's period wrap it gains
 * C_j and loses alpha <= C_j - 1) and linear over the run of their pieces
 * at x (carry_in(): R_j >= C_j keeps the slope-1 run inside the period), so
 * with a_j, s_j, r_j their unclamped piece at x (ci_j's for j in S, nc_j's
 * else), the clamped term min(., x + d - C_k + 1) = min(., c + d) is at
 * least min(a_j + s_j min(d, r_j), c + d): G above is <= I_S(x + d) -
 * m (c + d) <= h(x + d), concave, G(0) = I_S(x) - m c = h(x) >= 0, and
 * top >= I(x) >= m c as before. So the same Newton steps skip no fixed
 * point of the RTA-LC either. */
static GW_INT GW_(reach)(const gw_ctx *ctx, GW_INT c, GW_INT top)
{
    const GW_TERM *scratch = (const GW_TERM *)ctx->scratch;
    GW_INT m = ctx->m;
    GW_INT d = top / m - c; /* >= 0: top >= interference(x) >= m c */
    while (d > 0) {
        GW_INT clamp = c + d, g = -m * clamp, slope = -m;
        for (size_t j = 0; j < ctx->n_interferers; j++) {
            const GW_TERM *w = &scratch[j];
            GW_INT f = w->value + (w->slope ? GW_(lmin)(d, w->run) : 0);
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

/* (global_edf.c's cert_task() restates these GW_EDF terms piecewise for
 * the jumps: a change here changes it too.)
 * GW_EDF: J_i^k = floor(D_k / T_i) C_i + min(C_i, [D_k mod T_i - S_i]_0)
 * with S_i = D_i - bound[i], fixed while bound[] is (the quotient and
 * D_k mod T_i - D_i from ctx->pair, no division); and, after the n caps,
 * the least x whose window's W_i (staircase of span x + bound[i] - C_i) is
 * >= J_i^k: the span jobs T_i + e for J_i^k = jobs C_i + e, e > 0, else
 * (jobs - 1) T_i + C_i (0 when jobs = 0). Past it the term is J_i^k and
 * its staircase (a division) is not needed. The staircase needs C_i <= T_i
 * (so does W_i's formula; the RTA's sets have C <= D <= T): otherwise never. */
static void GW_(fill_caps)(const gw_ctx *ctx)
{
    GW_INT *cap = (GW_INT *)ctx->cap; /* NULL unless GW_EDF: no offset from it here */
    for (size_t j = 0; ctx->kind == GW_EDF && j < ctx->n_interferers; j++) {
        size_t i = ctx->interferers[j];
        const rtp_task *ti = &ctx->tasks[i];
        GW_INT c = ti->wcet_ns, bound = ctx->bound[i];
        GW_INT jobs = ctx->pair[2 * i], rest = ctx->pair[2 * i + 1] + bound;
        GW_INT e = rest > 0 ? GW_(lmin)(c, rest) : 0;
        GW_INT span = e > 0 ? jobs * ti->period_ns + e : jobs > 0 ? (jobs - 1) * ti->period_ns + c : 0;
        cap[j] = jobs * c + e;
        cap[ctx->n_interferers + j] = c <= ti->period_ns ? span - bound + c : GW_INF_V;
    }
}

/* rtp_gw_fixed_point's search in GW_INT. */
static rtp_status GW_(fixed_point)(const gw_ctx *ctx, uint64_t *steps, const rtp_limits *limits,
                                   rtp_ns *bound, rtp_diag *diag)
{
    const rtp_task *tk = ctx->tk;
    GW_INT x = ctx->from > tk->wcet_ns ? ctx->from : tk->wcet_ns, m = ctx->m;
    rtp_status st;
    *bound = -1;
    GW_INT end = ctx->last > 0 && ctx->last < tk->deadline_ns ? ctx->last : tk->deadline_ns;
    GW_(fill_caps)(ctx);
    while (x <= end) {
        if ((st = count_step(steps, limits, diag)) != RTP_OK)
            return st;
        GW_INT omega, top;
        GW_(interference)(ctx, x, &omega, &top);
        /* h(x) = omega - m (x - C_k + 1) < 0  <=>  C_k + floor(omega/m) <= x */
        GW_INT h = omega - m * (x - tk->wcet_ns + 1);
        if (h < 0) {
            *bound = (rtp_ns)x;
            return RTP_OK;
        }
        /* top unknown (-1): the next point, no jump */
        x += (top >= 0 ? GW_(reach)(ctx, x - tk->wcet_ns + 1, top) : 0) + 1;
    }
    return RTP_OK;
}
