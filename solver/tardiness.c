/* solver/tardiness.c — the tardiness bounds of solver/tardiness.h.
 *
 * Every verdict and bound is exact. The quantities behind them — U against
 * m and lambda = ceil(U) - 1 (which decide which terms enter), Devi &
 * Anderson's x, the compliant-vector root s* — are sums of n rationals with
 * unrelated denominators (their common one passes 2^160 for a few co-prime
 * periods near 2^40). So each is first enclosed in 128-bit fixed point, every
 * term floored and ceiled at 2^-32 as models/ratio.c does for utilization
 * sums, and an answer is taken only when the whole enclosure lies on one side
 * of every boundary that matters; where it does not, or a step passes 128
 * bits, solver/tardiness_q.c answers in GMP rationals.
 *
 * The root needs no rationals at all: every lift ceil(s* - C_i/m) changes
 * only at multiples of 1/m, so P = ceil(m s*) gives them all as
 * ceil((P - C_i)/m); and since F(s) = S + (sum of the lambda largest v_i(s))
 * - m s is strictly decreasing, P is the one integer with F(P/m) <= 0 and
 * (P = 0 or F((P-1)/m) > 0). A double Dinkelbach iteration [Din67] guesses
 * P; two enclosed evaluations of F confirm it (doubles never decide). */
#include "solver/tardiness.h"
#include "solver/tardiness_q.h"

#include "models/load_sum.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- 128-bit enclosures ---- */

#define FX_ONE ((rtp_i128)1 << 32)
/* An enclosure gives up (to GMP) past these: with terms below 2^102 (integer
 * parts below 2^70) and fewer than 2^20 of them, every sum below, plus P
 * 2^32 < 2^112, stays under 2^127. */
#define FX_INT_CAP ((rtp_i128)1 << 70)
#define FX_MAX_TERMS ((size_t)1 << 20)

/* lo <= 2^32 v <= hi for a rational v. */
typedef struct fx {
    rtp_i128 lo, hi;
} fx;

/* Encloses x/d for 0 < d < 2^94 (so the remainder shifted by 32 fits); 0
 * when the quotient passes FX_INT_CAP. */
static int fx_div(rtp_i128 x, rtp_i128 d, fx *out)
{
    if (d < FX_ONE && x < INT64_MAX && x > INT64_MIN) {
        /* the same in 64-bit divisions, several times cheaper: r < d < 2^32 */
        int64_t q = (int64_t)x / (int64_t)d, r = (int64_t)x % (int64_t)d;
        if (r < 0) {
            q -= 1;
            r += (int64_t)d;
        }
        uint64_t shifted = (uint64_t)r << 32, f = shifted / (uint64_t)d;
        out->lo = (rtp_i128)q * FX_ONE + (rtp_i128)f;
        out->hi = out->lo + (f * (uint64_t)d != shifted);
        return 1;
    }
    rtp_i128 q = x / d, r = x % d;
    if (r < 0) {
        q -= 1;
        r += d;
    }
    if (q >= FX_INT_CAP || q <= -FX_INT_CAP)
        return 0;
    rtp_i128 f = (r << 32) / d;
    out->lo = q * FX_ONE + f;
    out->hi = out->lo + (f * d != r << 32);
    return 1;
}

/* u_i = C_i/(T_i - J'_i) enclosed (C <= T - J' < 2^62: a quotient of 0 or
 * 1, within the cap). */
static fx util(const rtp_task *t)
{
    fx u = {0, 0};
    fx_div(t->wcet_ns, rtp_tardiness_gap(t), &u);
    return u;
}

/* Orders idx[0..n) so that idx[0..k) name the k largest key[] values: for
 * k <= 8 (lambda < m: every cluster of up to 9 CPUs) by insertion into a
 * sorted idx[0..k), else by three-way quickselect ([lo, gt) above the
 * pivot, [gt, lt) equal, [lt, hi) below; key[idx[0, lo)] >= those of
 * [lo, hi) >= those of [hi, n), lo <= k <= hi). One body for the
 * enclosures' 128-bit ends and the guess's doubles. */
#define SELECT_TOP(name, key_t)                                                  \
    static void name(size_t *idx, size_t n, size_t k, const key_t *key)          \
    {                                                                            \
        for (size_t i = 0; k <= 8 && i < n; i++) {                               \
            size_t x = idx[i], j = i < k ? i : k;                                \
            if (j == k && (k == 0 || key[x] <= key[idx[k - 1]]))                 \
                continue;                                                        \
            if (j == k)                                                          \
                idx[i] = idx[--j]; /* the smallest kept moves to x's slot */     \
            for (; j > 0 && key[idx[j - 1]] < key[x]; j--)                       \
                idx[j] = idx[j - 1];                                             \
            idx[j] = x;                                                          \
        }                                                                        \
        size_t lo = 0, hi = n;                                                   \
        while (k > 8 && k > lo && k < hi && hi - lo > 1) {                       \
            key_t pivot = key[idx[lo + (hi - lo) / 2]];                          \
            size_t gt = lo, lt = hi, p = lo, x;                                  \
            while (p < lt) {                                                     \
                x = idx[p];                                                      \
                if (key[x] > pivot) {                                            \
                    idx[p++] = idx[gt];                                          \
                    idx[gt++] = x;                                               \
                } else if (key[x] < pivot) {                                     \
                    idx[p] = idx[--lt];                                          \
                    idx[lt] = x;                                                 \
                } else                                                           \
                    p++;                                                         \
            }                                                                    \
            if (k < gt)                                                          \
                hi = gt;                                                         \
            else if (k > lt)                                                     \
                lo = lt;                                                         \
            else                                                                 \
                break;                                                           \
        }                                                                        \
    }

SELECT_TOP(select_top, rtp_i128)
SELECT_TOP(select_top_double, double)

/* The sum of the k largest of n enclosed values, from their lower ends lo[]
 * when `inexact` of them have an upper end one above (the rest are exact):
 * the sum of the k largest grows with each value, so it lies between that
 * of the lower ends and that of the lower ends plus one for each of at most
 * min(k, inexact) inexact values. idx is scratch. */
static fx top_enclosed(const rtp_i128 *lo, size_t n, size_t k, size_t inexact, size_t *idx)
{
    for (size_t i = 0; i < n; i++)
        idx[i] = i;
    select_top(idx, n, k, lo);
    rtp_i128 sum = 0;
    for (size_t i = 0; i < k && i < n; i++)
        sum += lo[idx[i]];
    fx e = {sum, sum + (rtp_i128)(inexact < k ? inexact : k)};
    return e;
}

/* ---- U <= m and lambda ---- */

/* ceil(U), U = sum C/(T - J'), from the running sum of models/load_sum.h
 * (2^-64 enclosure, exact while the common denominator fits 63 bits; the
 * generators' "U = 2" sums land within 1e-9 of 2, past a 2^-32 enclosure):
 * 0 when neither tells. */
static int load_int(const rtp_task *tasks, size_t n, int m, int *ok, long *lambda)
{
    rtp_load_sum U = rtp_load_sum_zero();
    for (size_t i = 0; i < n; i++)
        rtp_load_sum_add(&U, tasks[i].wcet_ns, rtp_tardiness_gap(&tasks[i]));
    rtp_u128 one = (rtp_u128)1 << 64, c;
    if (U.den > 0)
        c = (rtp_u128)(U.num / U.den + (U.num % U.den != 0));
    else if (U.hi < RTP_LOAD_SUM_SAT && (U.lo + one - 1) >> 64 == (U.hi + one - 1) >> 64)
        c = (U.lo + one - 1) >> 64;
    else
        return 0;
    *ok = c <= (rtp_u128)m; /* U <= m iff ceil(U) <= m */
    *lambda = (long)c - 1;  /* c <= n */
    return 1;
}

/* 1 when the bounds apply (no blocking, every C' <= T - J', U <= m
 * exactly), with *lambda = ceil(U) - 1; *undecided on the integer path
 * alone when its enclosure cannot tell. */
static int applies(const rtp_task *tasks, size_t n, int m, rtp_tardiness_path path,
                   int *undecided, long *lambda)
{
    /* Tasks whose J' differ: not applicable. SCHED_DEADLINE's periods put
     * each deadline at arrival + D (docs/deploy.md "Release patterns"), and
     * then a task released late behind one with less jitter exceeds the
     * bounds of the release-based model (review rev6a, 2026-12-06: C/T/D/J
     * 3/7/3/0 and 1/8/8/6 on one CPU, cv 0, observed 1) */
    for (size_t i = 0; i < n; i++)
        if (tasks[i].blocking_ns > 0 || rtp_tardiness_gap(&tasks[i]) < tasks[i].wcet_ns ||
            tasks[i].jitter_ns != tasks[0].jitter_ns)
            return 0;
    int ok;
    if (path != RTP_TARDINESS_Q && load_int(tasks, n, m, &ok, lambda))
        return ok;
    if (path == RTP_TARDINESS_INT) {
        *undecided = 1;
        return 0;
    }
    return rtp_tardiness_q_load(tasks, n, m, lambda);
}

/* ---- scratch ---- */

/* Per-task scratch of one call, one block (the 16-byte-aligned 128-bit
 * arrays first): enclosure ends, the double guess's lines, an index. */
typedef struct scratch {
    rtp_i128 *lo, *hi;
    double *v0, *u, *val;
    size_t *idx;
} scratch;

/* The block to free, NULL when out of memory. */
static void *scratch_new(size_t n, scratch *w)
{
    char *block = malloc(n * (2 * sizeof(rtp_i128) + 3 * sizeof(double) + sizeof(size_t)));
    if (!block)
        return NULL;
    w->lo = (rtp_i128 *)block;
    w->hi = w->lo + n;
    w->v0 = (double *)(w->hi + n);
    w->u = w->v0 + n;
    w->val = w->u + n;
    w->idx = (size_t *)(w->val + n);
    return block;
}

/* ---- [DA08] ---- */

/* u_a > u_b first; C_a/G_a vs C_b/G_b cross-multiplied (< 2^124). */
static int by_util_desc(const void *a, const void *b)
{
    const rtp_task *x = a, *y = b;
    rtp_i128 l = (rtp_i128)x->wcet_ns * rtp_tardiness_gap(y),
             r = (rtp_i128)y->wcet_ns * rtp_tardiness_gap(x);
    return (l < r) - (l > r);
}

/* ceil(top / den), den = m minus the sum of the lambda - 1 largest
 * utilizations, from the enclosure of that sum (top_enclosed): then
 * top 2^32 / den.hi <= x <= top 2^32 / den.lo. */
static int da_int(const rtp_task *tasks, size_t n, int m, long lambda, rtp_i128 top,
                  scratch *w, rtp_i128 *x)
{
    if (n >= FX_MAX_TERMS || top >= (rtp_i128)1 << 94)
        return 0;
    size_t k = (size_t)lambda - 1, inexact = 0;
    for (size_t i = 0; i < n; i++) {
        fx u = util(&tasks[i]);
        w->lo[i] = u.lo;
        inexact += u.hi != u.lo;
    }
    fx top_u = top_enclosed(w->lo, n, k, inexact, w->idx), den = {m * FX_ONE - top_u.hi,
                                                           m * FX_ONE - top_u.lo};
    if (den.lo <= 0)
        return 0;
    rtp_i128 num = top << 32, a = num / den.hi + (num % den.hi != 0),
             b = num / den.lo + (num % den.lo != 0);
    *x = a;
    return a == b;
}

/* [DA08] Thm. 1 (Devi's thesis, Cor. 4.11): with lambda = ceil(U) - 1,
 * x = (sum of the lambda largest C - C_min) / (m - sum of the lambda - 1
 * largest u), tardiness_i <= C_i + ceil(x); x = 0 on one CPU. */
static rtp_status da_bound(const rtp_task *tasks, size_t n, int m, long lambda,
                           rtp_tardiness_path path, scratch *w, int *undecided,
                           rtp_ns *x_out)
{
    *x_out = 0;
    if (m == 1 || lambda <= 0)
        return RTP_OK;
    rtp_ns cmin = tasks[0].wcet_ns;
    for (size_t i = 0; i < n; i++) {
        w->lo[i] = tasks[i].wcet_ns;
        cmin = tasks[i].wcet_ns < cmin ? tasks[i].wcet_ns : cmin;
    }
    /* n < 2^32 terms of < 2^62 */
    rtp_i128 top = top_enclosed(w->lo, n, (size_t)lambda, 0, w->idx).lo - cmin, x;
    if (top <= 0)
        return RTP_OK;
    if (path != RTP_TARDINESS_Q && da_int(tasks, n, m, lambda, top, w, &x)) {
        if (x > INT64_MAX)
            return RTP_ELIMIT;
        *x_out = (rtp_ns)x;
        return RTP_OK;
    }
    if (path == RTP_TARDINESS_INT) {
        *undecided = 1;
        return RTP_OK;
    }
    rtp_task *sorted = malloc(n * sizeof *sorted);
    if (!sorted)
        return RTP_ENOMEM;
    memcpy(sorted, tasks, n * sizeof *sorted);
    qsort(sorted, n, sizeof *sorted, by_util_desc);
    rtp_status st = rtp_tardiness_q_da(sorted, m, lambda, top, x_out);
    free(sorted);
    return st;
}

/* ---- [EGB10] ---- */

/* The integer path's view of one set: F's constant S enclosed, per-task
 * scratch for the enclosures of v_i(P/m), and the double guess's lines. */
typedef struct cv_int {
    const rtp_task *tasks;
    size_t n;
    int m;
    long lambda;
    rtp_ns dmin;
    fx S;
    double Sd;
    scratch w;
} cv_int;

/* Y_i = D_i - dmin, and min(Y_i, T_i - J'_i) as S_i uses it. */
static rtp_ns cv_y(const cv_int *c, const rtp_task *t)
{
    rtp_ns y = t->deadline_ns - c->dmin, g = rtp_tardiness_gap(t);
    return y < g ? y : g;
}

/* sign(F(P/m)) from the enclosures: 1 above 0, -1 at most 0, 0 when they
 * straddle 0 or a step passes 128 bits. With G = T - J' and Y' = min(Y, G),
 * v_i(P/m) = C_i - S_i + C_i (P - C_i)/(m G_i) = C_i (m Y'_i + P - C_i)/(m G_i),
 * one fraction per task, enclosed (fx_div: an upper end at most one above
 * the lower); the sum of the lambda largest by top_enclosed. */
static int cv_sign(cv_int *c, rtp_i128 P)
{
    size_t k = (size_t)(c->lambda > 0 ? c->lambda : 0), inexact = 0;
    for (size_t i = 0; i < c->n; i++) {
        const rtp_task *t = &c->tasks[i];
        rtp_i128 f = (rtp_i128)c->m * cv_y(c, t) + P - t->wcet_ns, w;
        fx v;
        if (__builtin_mul_overflow(f, (rtp_i128)t->wcet_ns, &w) ||
            !fx_div(w, (rtp_i128)c->m * rtp_tardiness_gap(t), &v))
            return 0;
        c->w.lo[i] = v.lo;
        inexact += v.hi != v.lo;
    }
    fx top = top_enclosed(c->w.lo, c->n, k, inexact, c->w.idx);
    rtp_i128 lo = c->S.lo - P * FX_ONE + top.lo, hi = c->S.hi - P * FX_ONE + top.hi;
    return lo > 0 ? 1 : hi <= 0 ? -1 : 0;
}

/* s* in doubles by the iteration of solver/tardiness_q.c: a guess only. */
static double cv_guess(cv_int *c)
{
    size_t k = (size_t)(c->lambda > 0 ? c->lambda : 0);
    double s = 0;
    for (int step = 0; step < 64; step++) {
        for (size_t i = 0; i < c->n; i++) {
            c->w.val[i] = c->w.v0[i] + c->w.u[i] * s;
            c->w.idx[i] = i;
        }
        select_top_double(c->w.idx, c->n, k, c->w.val);
        double a = c->Sd, b = c->m;
        for (size_t j = 0; j < k; j++) {
            a += c->w.v0[c->w.idx[j]];
            b -= c->w.u[c->w.idx[j]];
        }
        if (!(a / b > s))
            break;
        s = a / b;
    }
    return s;
}

/* P = ceil(m s*): the guess, moved by at most a few steps until F's signs
 * at P/m and (P-1)/m confirm it; 0 when they cannot. s* >= 0, so P = 0
 * needs only F(0) <= 0. */
static int cv_confirm(cv_int *c, rtp_i128 *out)
{
    double g = ceil(cv_guess(c) * c->m);
    if (!(g < 0x1p80))
        return 0;
    rtp_i128 P = g > 0 ? (rtp_i128)g : 0;
    for (int tries = 0; tries < 4; tries++) {
        int at = cv_sign(c, P);
        if (at == 0)
            return 0;
        if (at > 0) {
            P++;
            continue;
        }
        int below = P == 0 ? 1 : cv_sign(c, P - 1);
        if (below == 0)
            return 0;
        if (below > 0) {
            *out = P;
            return 1;
        }
        P--;
    }
    return 0;
}

/* lift[i] = ceil(s* - C_i/m) on the integer path; *done = 0 when it cannot
 * decide. RTP_ELIMIT when a lift does not fit in rtp_ns. */
static rtp_status lift_int(const rtp_task *tasks, size_t n, int m, long lambda, rtp_ns dmin,
                           scratch *w, rtp_ns *lift, int *done)
{
    *done = 0;
    if (n >= FX_MAX_TERMS)
        return RTP_OK;
    cv_int c = {.tasks = tasks, .n = n, .m = m, .lambda = lambda, .dmin = dmin, .w = *w};
    for (size_t i = 0; i < n; i++) {
        const rtp_task *t = &tasks[i];
        rtp_ns y = cv_y(&c, t), g = rtp_tardiness_gap(t);
        fx s = {0, 0}; /* S_i = C_i (G_i - Y'_i)/G_i <= C_i: within the cap */
        if (!fx_div((rtp_i128)t->wcet_ns * (g - y), g, &s))
            return RTP_OK;
        c.S.lo += s.lo;
        c.S.hi += s.hi;
        double C = (double)t->wcet_ns, Si = C * (double)(g - y) / (double)g;
        c.w.u[i] = C / (double)g;
        c.w.v0[i] = C - C * c.w.u[i] / m - Si;
        c.Sd += Si;
    }
    rtp_i128 P;
    if (!cv_confirm(&c, &P))
        return RTP_OK;
    *done = 1;
    for (size_t i = 0; i < n; i++) {
        rtp_i128 a = P - tasks[i].wcet_ns, l = a / m + (a % m > 0);
        if (l > INT64_MAX || l < INT64_MIN)
            return RTP_ELIMIT;
        lift[i] = (rtp_ns)l;
    }
    return RTP_OK;
}

/* [EGB10] with G-EDF's priority points Y_i = D_i - min D (a uniform shift
 * of every priority point changes no decision): response_i <= Y_i + C_i +
 * ceil(s* - C_i/m), tardiness = that - D_i, at least 0. On one CPU with
 * implicit deadlines EDF meets every deadline at U <= 1 [LL73]. */
static rtp_status cv_bound(const rtp_task *tasks, size_t n, int m, long lambda, int implicit,
                           const rtp_limits *limits, rtp_tardiness_path path, scratch *w,
                           int *undecided, rtp_ns *tard)
{
    rtp_ns dmin = tasks[0].deadline_ns;
    for (size_t i = 0; i < n; i++)
        if (tasks[i].deadline_ns < dmin)
            dmin = tasks[i].deadline_ns;
    if (m == 1 && implicit) {
        memset(tard, 0, n * sizeof *tard);
        return RTP_OK;
    }
    int done = 0;
    rtp_status st = path != RTP_TARDINESS_Q
                        ? lift_int(tasks, n, m, lambda, dmin, w, tard, &done)
                        : RTP_OK;
    if (st == RTP_OK && !done) {
        if (path == RTP_TARDINESS_INT) {
            *undecided = 1;
            return RTP_OK;
        }
        st = rtp_tardiness_q_lift(tasks, n, m, lambda, dmin, limits, tard);
    }
    for (size_t i = 0; i < n && st == RTP_OK; i++) {
        const rtp_task *k = &tasks[i];
        /* response from the release = Y + C + lift, in 128 bits (each term
         * is an rtp_ns: the sum may pass 2^63 while the tardiness, after D
         * is taken off, fits); tardiness from the arrival adds J' back */
        rtp_i128 r = (rtp_i128)(k->deadline_ns - dmin) + k->wcet_ns + tard[i];
        r = r > k->deadline_ns ? r - k->deadline_ns : 0;
        r += k->jitter_ns;
        if (r > INT64_MAX)
            st = RTP_ELIMIT;
        else
            tard[i] = (rtp_ns)r;
    }
    return st;
}

/* ---- the entry points ---- */

static rtp_status run_soft(const rtp_test *test, const rtp_task *tasks, size_t n,
                           rtp_test_result *result, rtp_diag *diag)
{
    rtp_test hard = rtp_test_exact(RTP_POLICY_GEDF, test->priority, test->cpus, test->limits);
    rtp_status st = rtp_test_run(&hard, tasks, n, result, diag);
    if (st != RTP_OK || result->schedulable)
        return st;
    rtp_tardiness *t = malloc((n ? n : 1) * sizeof *t);
    if (!t)
        return rtp_oom(diag);
    int bounded = 0;
    st = rtp_tardiness_bounds(tasks, n, test->cpus, &test->limits, t, &bounded, diag);
    free(t);
    if (st == RTP_OK && bounded) {
        result->schedulable = 1;
        result->accepted_by = "soft";
    }
    return st;
}

rtp_test rtp_test_soft(int cpus, rtp_limits limits)
{
    rtp_test t = rtp_test_exact(RTP_POLICY_GEDF, RTP_PRIO_DM, cpus, limits);
    t.name = "soft";
    t.run = run_soft;
    return t;
}

rtp_status rtp_tardiness_bounds_via(const rtp_task *tasks, size_t n, int m,
                                    const rtp_limits *limits, rtp_tardiness_path path,
                                    rtp_tardiness *out, int *bounded, int *undecided,
                                    rtp_diag *diag)
{
    if (m < 1)
        return rtp_diag_set(diag, RTP_EINPUT, NULL, "tardiness: m = %d CPUs", m);
    *bounded = *undecided = 0;
    for (size_t i = 0; i < n; i++)
        out[i].bound_ns = out[i].da_ns = out[i].cv_ns = -1;
    long lambda = 0;
    if (n == 0 || !applies(tasks, n, m, path, undecided, &lambda))
        return RTP_OK;
    int implicit = 1; /* every D = T and no jitter: [DA08] applies */
    for (size_t i = 0; i < n; i++)
        implicit &= tasks[i].deadline_ns == tasks[i].period_ns && tasks[i].jitter_ns == 0;
    scratch w;
    rtp_ns *cv = malloc(n * sizeof *cv);
    void *block = scratch_new(n, &w);
    if (!cv || !block) {
        free(cv);
        free(block);
        return rtp_oom(diag);
    }
    rtp_ns x = 0;
    rtp_status st = implicit ? da_bound(tasks, n, m, lambda, path, &w, undecided, &x) : RTP_OK;
    if (st == RTP_OK && !*undecided)
        st = cv_bound(tasks, n, m, lambda, implicit, limits, path, &w, undecided, cv);
    for (size_t i = 0; i < n && st == RTP_OK && !*undecided; i++) {
        out[i].cv_ns = cv[i];
        if (implicit && __builtin_add_overflow(tasks[i].wcet_ns, x, &out[i].da_ns))
            st = RTP_ELIMIT;
        out[i].bound_ns = implicit && out[i].da_ns < cv[i] ? out[i].da_ns : cv[i];
    }
    free(cv);
    free(block);
    if (st == RTP_ENOMEM)
        return rtp_oom(diag);
    if (st == RTP_ELIMIT || *undecided) {
        for (size_t i = 0; i < n; i++)
            out[i].bound_ns = out[i].da_ns = out[i].cv_ns = -1;
        if (*undecided)
            return RTP_OK;
        return rtp_diag_set(diag, RTP_ELIMIT, NULL,
                            "tardiness bound beyond 2^63 ns or past --max-iterations");
    }
    *bounded = 1;
    return RTP_OK;
}

rtp_status rtp_tardiness_bounds(const rtp_task *tasks, size_t n, int m,
                                const rtp_limits *limits, rtp_tardiness *out,
                                int *bounded, rtp_diag *diag)
{
    int undecided;
    return rtp_tardiness_bounds_via(tasks, n, m, limits, RTP_TARDINESS_AUTO, out, bounded,
                                    &undecided, diag);
}
