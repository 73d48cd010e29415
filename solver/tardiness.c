/* solver/tardiness.c — the tardiness bounds of solver/tardiness.h.
 *
 * Every quantity is an exact rational (mpq_t): the conditions U <= m and
 * lambda = ceil(U) - 1 decide which terms enter, so a rounded U could both
 * accept an overloaded cluster and drop a term (SchedCAT's float sums do
 * both near integers). Only the final ceilings leave GMP. */
#include "solver/tardiness.h"

#include "models/arith.h"

#include <gmp.h>
#include <stdlib.h>
#include <string.h>

/* Task i as the sporadic model sees it: minimum release distance T - J'. */
static rtp_ns gap(const rtp_task *t)
{
    return t->period_ns - t->jitter_ns;
}

static void q_set(mpq_t q, rtp_ns num, rtp_ns den)
{
    mpz_set_si(mpq_numref(q), num);
    mpz_set_si(mpq_denref(q), den);
    mpq_canonicalize(q);
}

/* ceil(q) into *out, RTP_ELIMIT when it does not fit in rtp_ns. */
static rtp_status q_ceil(const mpq_t q, rtp_ns *out)
{
    mpz_t c;
    mpz_init(c);
    mpz_cdiv_q(c, mpq_numref(q), mpq_denref(q));
    int fits = mpz_fits_slong_p(c);
    if (fits)
        *out = mpz_get_si(c);
    mpz_clear(c);
    return fits ? RTP_OK : RTP_ELIMIT;
}

static int by_wcet_desc(const void *a, const void *b)
{
    rtp_ns x = ((const rtp_task *)a)->wcet_ns, y = ((const rtp_task *)b)->wcet_ns;
    return (x < y) - (x > y);
}

/* u_a > u_b first; C_a/G_a vs C_b/G_b cross-multiplied (< 2^124). */
static int by_util_desc(const void *a, const void *b)
{
    const rtp_task *x = a, *y = b;
    rtp_i128 l = (rtp_i128)x->wcet_ns * gap(y), r = (rtp_i128)y->wcet_ns * gap(x);
    return (l < r) - (l > r);
}

/* [DA08] Thm. 1 (Devi's thesis, Cor. 4.11): with lambda = ceil(U) - 1,
 * x = (sum of the lambda largest C - C_min) / (m - sum of the lambda - 1
 * largest u), tardiness_i <= C_i + ceil(x); x = 0 on one CPU. `sorted` is
 * scratch of n tasks. */
static rtp_status da_bound(const rtp_task *tasks, size_t n, int m, long lambda,
                           rtp_task *sorted, rtp_ns *x_out)
{
    *x_out = 0;
    if (m == 1 || lambda <= 0)
        return RTP_OK;
    memcpy(sorted, tasks, n * sizeof *sorted);
    qsort(sorted, n, sizeof *sorted, by_wcet_desc);
    rtp_i128 top = 0; /* n < 2^32 terms of < 2^62 */
    for (long k = 0; k < lambda && (size_t)k < n; k++)
        top += sorted[k].wcet_ns;
    top -= sorted[n - 1].wcet_ns;
    if (top <= 0)
        return RTP_OK;
    qsort(sorted, n, sizeof *sorted, by_util_desc);
    mpq_t den, u, x;
    mpq_inits(den, u, x, NULL);
    mpq_set_si(den, m, 1);
    for (long k = 0; k + 1 < lambda && (size_t)k < n; k++) {
        q_set(u, sorted[k].wcet_ns, gap(&sorted[k]));
        mpq_sub(den, den, u);
    }
    /* den > 0: lambda - 1 <= m - 2 utilizations, each <= 1 */
    mpz_set_si(mpq_numref(x), (long)(top >> 62));
    mpz_mul_2exp(mpq_numref(x), mpq_numref(x), 62);
    mpz_add_ui(mpq_numref(x), mpq_numref(x), (unsigned long)(top & (((rtp_i128)1 << 62) - 1)));
    mpz_set_ui(mpq_denref(x), 1);
    mpq_div(x, x, den);
    rtp_status st = q_ceil(x, x_out);
    mpq_clears(den, u, x, NULL);
    return st;
}

/* The compliant-vector search state: per task the line v_i(s) = v0_i + u_i s
 * of [EDB10]'s compliant-vector condition and its value at the current s. */
typedef struct cv_state {
    size_t n;
    mpq_t *v0, *u, *val;
    size_t *order, *scratch;
} cv_state;

/* Stable merge sort of order[lo, hi) by val descending. */
static void sort_desc(cv_state *c, size_t lo, size_t hi)
{
    if (hi - lo < 2)
        return;
    size_t mid = lo + (hi - lo) / 2, a = lo, b = mid, k = lo;
    sort_desc(c, lo, mid);
    sort_desc(c, mid, hi);
    while (a < mid || b < hi)
        c->scratch[k++] = b >= hi || (a < mid && mpq_cmp(c->val[c->order[a]],
                                                         c->val[c->order[b]]) >= 0)
                              ? c->order[a++]
                              : c->order[b++];
    memcpy(c->order + lo, c->scratch + lo, (hi - lo) * sizeof *c->order);
}

/* s* = the least s >= 0 with S + (sum of the lambda largest v_i(s)) <= m s
 * [EGB10]. The left side minus m s is convex, piecewise linear and strictly
 * decreasing (the lambda <= m - 1 slopes u_i <= 1 sum below m), so Newton's
 * step from s = 0 — the root of the line of the lambda largest values at s —
 * never passes s* and reaches it after finitely many distinct lines
 * (Dinkelbach's iteration [Din67]). */
static rtp_status cv_root(cv_state *c, const mpq_t S, int m, long lambda,
                          const rtp_limits *limits, mpq_t s)
{
    mpq_t a, b;
    mpq_inits(a, b, NULL);
    rtp_status st = RTP_OK;
    mpq_set_ui(s, 0, 1);
    for (uint64_t step = 0;; step++) {
        if (step >= limits->max_iterations) {
            st = RTP_ELIMIT;
            break;
        }
        for (size_t i = 0; i < c->n; i++) {
            mpq_mul(c->val[i], c->u[i], s);
            mpq_add(c->val[i], c->val[i], c->v0[i]);
            c->order[i] = i;
        }
        sort_desc(c, 0, c->n);
        mpq_set(a, S);              /* the active line: a - b s' */
        mpq_set_si(b, m, 1);
        for (long k = 0; k < lambda && (size_t)k < c->n; k++) {
            mpq_add(a, a, c->v0[c->order[k]]);
            mpq_sub(b, b, c->u[c->order[k]]);
        }
        mpq_div(a, a, b);           /* its root */
        if (mpq_cmp(a, s) <= 0)
            break;
        mpq_set(s, a);
    }
    mpq_clears(a, b, NULL);
    return st;
}

static void cv_free(cv_state *c)
{
    for (size_t i = 0; c->val && i < c->n; i++)
        mpq_clears(c->v0[i], c->u[i], c->val[i], NULL);
    free(c->v0);
    free(c->u);
    free(c->val);
    free(c->order);
    free(c->scratch);
}

/* [EGB10] with G-EDF's priority points Y_i = D_i - min D (a uniform shift
 * of every priority point changes no decision): response_i <= Y_i + C_i +
 * ceil(s* - C_i/m), tardiness = that - D_i, at least 0. On one CPU with
 * implicit deadlines EDF meets every deadline at U <= 1 [LL73]. */
static rtp_status cv_bound(const rtp_task *tasks, size_t n, int m, long lambda,
                           const rtp_limits *limits, rtp_ns *tard)
{
    int implicit = 1;
    rtp_ns dmin = tasks[0].deadline_ns;
    for (size_t i = 0; i < n; i++) {
        implicit &= tasks[i].deadline_ns == tasks[i].period_ns && tasks[i].jitter_ns == 0;
        if (tasks[i].deadline_ns < dmin)
            dmin = tasks[i].deadline_ns;
    }
    if (m == 1 && implicit) {
        memset(tard, 0, n * sizeof *tard);
        return RTP_OK;
    }
    cv_state c = {.n = n};
    rtp_status st = RTP_ENOMEM;
    c.v0 = malloc(n * sizeof *c.v0);
    c.u = malloc(n * sizeof *c.u);
    c.val = malloc(n * sizeof *c.val);
    c.order = malloc(n * sizeof *c.order);
    c.scratch = malloc(n * sizeof *c.scratch);
    if (!c.v0 || !c.u || !c.val || !c.order || !c.scratch) {
        free(c.v0), free(c.u), free(c.val), free(c.order), free(c.scratch);
        return RTP_ENOMEM;
    }
    for (size_t i = 0; i < n; i++)
        mpq_inits(c.v0[i], c.u[i], c.val[i], NULL);
    mpq_t S, Si, t, s;
    mpq_inits(S, Si, t, s, NULL);
    for (size_t i = 0; i < n; i++) {
        const rtp_task *k = &tasks[i];
        rtp_ns y = k->deadline_ns - dmin, g = gap(k);
        q_set(c.u[i], k->wcet_ns, g);
        /* S_i = C_i max(0, 1 - Y_i/T_i) */
        if (y < g) {
            q_set(Si, g - y, g);
            mpq_set_si(t, k->wcet_ns, 1);
            mpq_mul(Si, Si, t);
        } else
            mpq_set_ui(Si, 0, 1);
        mpq_add(S, S, Si);
        /* v0_i = C_i - C_i u_i / m - S_i */
        mpq_set_si(c.v0[i], k->wcet_ns, 1);
        mpq_mul(t, c.v0[i], c.u[i]);
        q_set(s, 1, m);
        mpq_mul(t, t, s);
        mpq_sub(c.v0[i], c.v0[i], t);
        mpq_sub(c.v0[i], c.v0[i], Si);
    }
    if (lambda <= 0) {
        q_set(t, 1, m);
        mpq_mul(s, S, t);
        st = RTP_OK;
    } else
        st = cv_root(&c, S, m, lambda, limits, s);
    for (size_t i = 0; i < n && st == RTP_OK; i++) {
        const rtp_task *k = &tasks[i];
        rtp_ns lift, r;
        q_set(t, k->wcet_ns, m);
        mpq_sub(t, s, t);
        st = q_ceil(t, &lift);
        /* response from the release = Y + C + lift; tardiness from the
         * arrival adds J' back */
        if (st == RTP_OK &&
            (__builtin_add_overflow(k->deadline_ns - dmin, k->wcet_ns, &r) ||
             __builtin_add_overflow(r, lift, &r)))
            st = RTP_ELIMIT;
        if (st == RTP_OK) {
            r = r > k->deadline_ns ? r - k->deadline_ns : 0;
            if (__builtin_add_overflow(r, k->jitter_ns, &tard[i]))
                st = RTP_ELIMIT;
        }
    }
    mpq_clears(S, Si, t, s, NULL);
    cv_free(&c);
    return st;
}

/* U = sum C/(T - J') exactly; *lambda = ceil(U) - 1. 0 when the bounds do
 * not apply (blocking, C > T - J', U > m). */
static int applies(const rtp_task *tasks, size_t n, int m, long *lambda)
{
    for (size_t i = 0; i < n; i++)
        if (tasks[i].blocking_ns > 0 || gap(&tasks[i]) < tasks[i].wcet_ns)
            return 0;
    mpq_t U, u;
    mpq_inits(U, u, NULL);
    for (size_t i = 0; i < n; i++) {
        q_set(u, tasks[i].wcet_ns, gap(&tasks[i]));
        mpq_add(U, U, u);
    }
    int ok = mpq_cmp_si(U, m, 1) <= 0;
    mpz_t c;
    mpz_init(c);
    mpz_cdiv_q(c, mpq_numref(U), mpq_denref(U));
    *lambda = mpz_get_si(c) - 1; /* <= m - 1 when ok */
    mpz_clear(c);
    mpq_clears(U, u, NULL);
    return ok;
}

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

rtp_status rtp_tardiness_bounds(const rtp_task *tasks, size_t n, int m,
                                const rtp_limits *limits, rtp_tardiness *out,
                                int *bounded, rtp_diag *diag)
{
    if (m < 1)
        return rtp_diag_set(diag, RTP_EINPUT, NULL, "tardiness: m = %d CPUs", m);
    *bounded = 0;
    for (size_t i = 0; i < n; i++)
        out[i].bound_ns = out[i].da_ns = out[i].cv_ns = -1;
    long lambda = 0;
    if (n == 0 || !applies(tasks, n, m, &lambda))
        return RTP_OK;
    int implicit = 1;
    for (size_t i = 0; i < n; i++)
        implicit &= tasks[i].deadline_ns == tasks[i].period_ns && tasks[i].jitter_ns == 0;
    rtp_ns *cv = malloc(n * sizeof *cv);
    rtp_task *sorted = implicit ? malloc(n * sizeof *sorted) : NULL;
    if (!cv || (implicit && !sorted)) {
        free(cv);
        free(sorted);
        return rtp_oom(diag);
    }
    rtp_ns x = 0;
    rtp_status st = implicit ? da_bound(tasks, n, m, lambda, sorted, &x) : RTP_OK;
    if (st == RTP_OK)
        st = cv_bound(tasks, n, m, lambda, limits, cv);
    for (size_t i = 0; i < n && st == RTP_OK; i++) {
        out[i].cv_ns = cv[i];
        if (implicit && __builtin_add_overflow(tasks[i].wcet_ns, x, &out[i].da_ns))
            st = RTP_ELIMIT;
        out[i].bound_ns = implicit && out[i].da_ns < cv[i] ? out[i].da_ns : cv[i];
    }
    free(cv);
    free(sorted);
    if (st == RTP_ENOMEM)
        return rtp_oom(diag);
    if (st == RTP_ELIMIT) {
        for (size_t i = 0; i < n; i++)
            out[i].bound_ns = out[i].da_ns = out[i].cv_ns = -1;
        return rtp_diag_set(diag, RTP_ELIMIT, NULL,
                            "tardiness bound beyond 2^63 ns or past --max-iterations");
    }
    *bounded = 1;
    return RTP_OK;
}
