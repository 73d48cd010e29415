/* solver/tardiness_q.c — solver/tardiness_q.h: every quantity an exact
 * rational (mpq_t). The conditions U <= m and lambda = ceil(U) - 1 decide
 * which terms enter, so a rounded U could both accept an overloaded cluster
 * and drop a term (SchedCAT's float sums do both near integers). Only the
 * final ceilings leave GMP. */
#include "solver/tardiness_q.h"

#include <gmp.h>
#include <stdlib.h>
#include <string.h>

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

int rtp_tardiness_q_load(const rtp_task *tasks, size_t n, int m, long *lambda)
{
    mpq_t U, u;
    mpq_inits(U, u, NULL);
    for (size_t i = 0; i < n; i++) {
        q_set(u, tasks[i].wcet_ns, rtp_tardiness_gap(&tasks[i]));
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

rtp_status rtp_tardiness_q_da(const rtp_task *by_util, int m, long lambda, rtp_i128 top,
                              rtp_ns *x_out)
{
    mpq_t den, u, x;
    mpq_inits(den, u, x, NULL);
    mpq_set_si(den, m, 1);
    for (long k = 0; k + 1 < lambda; k++) {
        q_set(u, by_util[k].wcet_ns, rtp_tardiness_gap(&by_util[k]));
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

rtp_status rtp_tardiness_q_lift(const rtp_task *tasks, size_t n, int m, long lambda,
                                rtp_ns dmin, const rtp_limits *limits, rtp_ns *lift)
{
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
        rtp_ns y = k->deadline_ns - dmin, g = rtp_tardiness_gap(k);
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
        q_set(t, tasks[i].wcet_ns, m);
        mpq_sub(t, s, t);
        st = q_ceil(t, &lift[i]);
    }
    mpq_clears(S, Si, t, s, NULL);
    cv_free(&c);
    return st;
}
