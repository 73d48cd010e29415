/* solver/sensitivity_work.c — the largest scaling factor alpha that keeps a
 * work function W(t) = alpha A(t) + K(t) within t somewhere in (lo, x]
 * (rtp_sens_work_max), and the point where it settles (rtp_sens_work_settle),
 * for a work function that is constant between the releases of its
 * sequences: g(x) = max over those points of (t - K(t)) / A(t) [LSD89]
 * [BB04]. Shared by FP (sensitivity_fp.c) and equal priorities
 * (sensitivity_fifo.c); see sensitivity_fp.c for the derivation. */
#include "solver/sensitivity_internal.h"

#include "models/arith.h"

#include <stdlib.h>
#include <string.h>

/* Jobs of q released before t (t >= 1): released at max(0, phase + m T)
 * < t iff phase + m T < t. */
static rtp_i128 seq_count(const rtp_sens_seq *q, rtp_i128 t)
{
    rtp_i128 x = t - q->phase;
    if (x <= 0)
        return 0;
    /* 64-bit division where it fits (128-bit division is a library call) */
    rtp_i128 k = x <= INT64_MAX ? (rtp_i128)(((int64_t)x - 1) / q->period + 1)
                                : (x - 1) / q->period + 1;
    return q->count >= 0 && k > q->count ? q->count : k;
}

/* The first release time of q after t >= 0, or -1. */
static rtp_i128 seq_next(const rtp_sens_seq *q, rtp_i128 t)
{
    rtp_i128 d = t - q->phase;
    rtp_i128 m = q->phase > t ? 0
                 : d <= INT64_MAX ? (rtp_i128)((int64_t)d / q->period + 1)
                                  : d / q->period + 1;
    if (q->count >= 0 && m >= q->count)
        return -1;
    return q->phase + m * q->period;
}

rtp_status rtp_sens_work_sums(sctx *s, const rtp_sens_work *wk, rtp_i128 t, rtp_i128 *A,
                              rtp_i128 *N)
{
    rtp_i128 a = wk->a0, cnt = wk->n0;
    for (size_t k = 0; k < wk->n && a <= BIG; k++) {
        rtp_i128 m = seq_count(&wk->seq[k], t);
        a += m * wk->seq[k].w;
        cnt += m;
    }
    if (a > BIG || cnt > BIG / (s->c + 1))
        return rtp_sens_too_big(s);
    *A = a;
    *N = cnt;
    return RTP_OK;
}

/* sign(x1 / y1 - x2 / y2), y1, y2 > 0, in 128 bits when all four stay
 * below 2^63, else in GMP. */
static int frac_cmp(rtp_i128 x1, rtp_i128 y1, rtp_i128 x2, rtp_i128 y2)
{
    const rtp_i128 lim = (rtp_i128)1 << 63;
    if (x1 < lim && x1 > -lim && x2 < lim && x2 > -lim && y1 < lim && y2 < lim) {
        rtp_i128 l = x1 * y2, r = x2 * y1;
        return (l > r) - (l < r);
    }
    mpq_t a, b;
    mpq_inits(a, b, NULL);
    rtp_sens_qset(a, x1, y1);
    rtp_sens_qset(b, x2, y2);
    int c = mpq_cmp(a, b);
    mpq_clears(a, b, NULL);
    return c;
}

/* sign(num / den - stop), den > 0: frac_cmp where stop fits 63 bits. */
static int stop_cmp(rtp_i128 num, rtp_i128 den, const mpq_t stop, mpq_t scratch)
{
    if (mpz_fits_slong_p(mpq_numref(stop)) && mpz_fits_slong_p(mpq_denref(stop)))
        return frac_cmp(num, den, mpz_get_si(mpq_numref(stop)), mpz_get_si(mpq_denref(stop)));
    rtp_sens_qset(scratch, num, den);
    return mpq_cmp(scratch, stop);
}

/* The points are visited in increasing order, one release at a time, so
 * each sequence keeps its next release and the sums grow as they pass
 * (two divisions per sequence at the start, none per point). */
rtp_status rtp_sens_work_max(sctx *s, const rtp_sens_work *wk, rtp_i128 lo, rtp_i128 x,
                             const mpq_t stop, mpq_t out, int *found, int *reached)
{
    *found = 0;
    *reached = 0;
    if (x <= lo)
        return RTP_OK;
    if (x > INT64_MAX)
        return rtp_diag_set(s->diag, RTP_ELIMIT, "",
                            "critical scaling factor: a deadline passes 2^63 ns");
    rtp_i128 *next = malloc((wk->n ? wk->n : 1) * sizeof *next);
    if (!next)
        return rtp_oom(s->diag);
    /* A and N count the releases at or before t (those before the next
     * point); next[k] is sequence k's first release after t, or -1 */
    rtp_i128 A, N;
    rtp_status st = rtp_sens_work_sums(s, wk, lo + 1, &A, &N);
    for (size_t k = 0; k < wk->n; k++)
        next[k] = seq_next(&wk->seq[k], lo);
    rtp_i128 bn = 0, bd = 1; /* the best f so far, bn / bd */
    mpq_t f;
    mpq_init(f);
    for (rtp_i128 t = lo; t < x && st == RTP_OK;) {
        rtp_i128 at = x;
        for (size_t k = 0; k < wk->n; k++)
            if (next[k] > 0 && next[k] < at)
                at = next[k];
        t = at;
        if ((st = rtp_sens_spend(s)) != RTP_OK)
            break;
        if (A > BIG || N > BIG / (s->c + 1)) {
            st = rtp_sens_too_big(s);
            break;
        }
        rtp_i128 num = t - wk->b - N * s->c;
        if (!*found || frac_cmp(num, A, bn, bd) > 0) {
            bn = num;
            bd = A;
            *found = 1;
        }
        if (stop && stop_cmp(num, A, stop, f) >= 0) {
            *reached = 1;
            break;
        }
        for (size_t k = 0; k < wk->n; k++) {
            const rtp_sens_seq *q = &wk->seq[k];
            if (next[k] != t)
                continue;
            A += q->w;
            N++;
            next[k] += q->period;
            if (q->count >= 0 && (next[k] - q->phase) / q->period >= q->count)
                next[k] = -1;
        }
    }
    if (*found)
        rtp_sens_qset(out, bn, bd);
    mpq_clear(f);
    free(next);
    return st;
}

/* w = a A + c N + b */
static void work_at(sctx *s, const rtp_sens_work *wk, const mpq_t a, rtp_i128 A, rtp_i128 N,
                    mpq_t w, mpq_t tmp)
{
    rtp_sens_qset(w, A, 1);
    mpq_mul(w, w, a);
    rtp_sens_qset(tmp, N * s->c + wk->b, 1);
    mpq_add(w, w, tmp);
}

/* rtp_sens_work_settle with alpha = p / q >= 0 in 64-bit integers and every
 * value a numerator over q in 128 bits (the iteration of an FP factor's
 * long busy period visits millions of points; GMP rationals made each cost
 * ~1 us). Returns 0, having decided nothing, when a product would pass 2^127
 * (the caller then iterates in GMP). */
static int settle_fixed(sctx *s, const rtp_sens_work *wk, rtp_i128 p, rtp_i128 q, rtp_i128 lo,
                        rtp_i128 x, int *holds, mpq_t at, rtp_status *st)
{
    rtp_i128 A, N, w, next, v, lim_lo, lim_x;
    if (__builtin_mul_overflow(lo, q, &lim_lo) || __builtin_mul_overflow(x, q, &lim_x))
        return 0;
    /* v = p A + q (c N + b) */
#define WORK(out) (__builtin_mul_overflow(p, A, &(out)) ||                                      \
                   __builtin_mul_overflow(N, (rtp_i128)s->c, &v) ||                            \
                   __builtin_add_overflow(v, (rtp_i128)wk->b, &v) ||                           \
                   __builtin_mul_overflow(v, q, &v) || __builtin_add_overflow(out, v, &(out)))
    if ((*st = rtp_sens_work_sums(s, wk, lo + 1, &A, &N)) != RTP_OK)
        return 1;
    if (WORK(w))
        return 0;
    *holds = 0;
    for (;;) {
        if (w <= lim_lo) {
            *holds = 1; /* W(lo+) <= lo: done just after lo */
            break;
        }
        if (w > lim_x || (*st = rtp_sens_spend(s)) != RTP_OK)
            break;
        /* released before w = at or before ceil(w) - 1 (release times are integers) */
        if ((*st = rtp_sens_work_sums(s, wk, (w + q - 1) / q, &A, &N)) != RTP_OK)
            break;
        if (WORK(next))
            return 0;
        if (next <= w) {
            *holds = 1;
            break;
        }
        w = next;
    }
#undef WORK
    if (at)
        rtp_sens_qset(at, w, q);
    return 1;
}

rtp_status rtp_sens_work_settle(sctx *s, const rtp_sens_work *wk, const mpq_t a, rtp_i128 lo,
                                rtp_i128 x, int *holds, mpq_t at)
{
    rtp_status st = RTP_OK;
    if (mpq_sgn(a) >= 0 && mpz_fits_slong_p(mpq_numref(a)) && mpz_fits_slong_p(mpq_denref(a)) &&
        settle_fixed(s, wk, mpz_get_si(mpq_numref(a)), mpz_get_si(mpq_denref(a)), lo, x, holds,
                     at, &st))
        return st;
    mpq_t w, next, tmp;
    mpz_t z;
    mpq_inits(w, next, tmp, NULL);
    mpz_init(z);
    *holds = 0;
    rtp_i128 A, N;
    st = rtp_sens_work_sums(s, wk, lo + 1, &A, &N); /* released at or before lo */
    if (st == RTP_OK)
        work_at(s, wk, a, A, N, w, tmp);
    while (st == RTP_OK) {
        if (mpq_cmp_si(w, (long)lo, 1) <= 0) {
            *holds = 1; /* W(lo+) <= lo: done just after lo */
            break;
        }
        if (mpq_cmp_si(w, (long)x, 1) > 0 || (st = rtp_sens_spend(s)) != RTP_OK)
            break;
        /* released before w = at or before ceil(w) - 1 (release times are integers) */
        mpz_cdiv_q(z, mpq_numref(w), mpq_denref(w));
        if ((st = rtp_sens_work_sums(s, wk, mpz_get_si(z), &A, &N)) != RTP_OK)
            break;
        work_at(s, wk, a, A, N, next, tmp);
        if (mpq_cmp(next, w) <= 0) {
            *holds = 1;
            break;
        }
        mpq_set(w, next);
    }
    if (at)
        mpq_set(at, w);
    mpz_clear(z);
    mpq_clears(w, next, tmp, NULL);
    return st;
}
