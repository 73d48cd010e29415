/* solver/sensitivity_global.c — wcet_max under the sufficient global tests on
 * m >= 2 CPUs (solver/global.h); the proofs are in solver/sensitivity.h.
 *
 * Global FP needs nothing here: its test is downward closed in each wcet, so
 * sensitivity.c's binary search over it is exact. Global EDF accepts when
 * "gfb or bak or bcl or rta" does; GFB, BCL and the RTA are downward closed
 * (each is searched by bisection, rtp_sens_gedf_parts), BAK is not: its condition for
 * the task k whose wcet grows can turn from false to true (the beta_k(i) of
 * a task i with U_i > lambda_k falls as lambda_k grows, by up to T_i / D_k
 * per unit of lambda_k, faster than the right-hand side falls). BAK's
 * largest accepting wcet is found here exactly instead, from its conditions
 * as functions of x = C'_j (every other time fixed):
 *  - k != j: sum_{i != j} min(1, beta_k(i)) + min(1, beta_k(j)(x)) <=
 *    m - (m - 1) lambda_k, where only beta_k(j) depends on x and it is
 *    non-decreasing in x (C_j appears with a positive coefficient in both
 *    terms, and the second starts at 0 where it switches on): downward
 *    closed, found by bisection on integers;
 *  - k = j: phi(x) = m x / D_j + sum_{i != j} min(1, beta_j(i)(x)) - m <= 0
 *    (beta_j(j) = lambda_j <= 1 moved to the left), continuous and
 *    piecewise linear in x with breakpoints where lambda_j = U_i
 *    (x = D_j C_i / T_i) and where beta_j(i) = 1 on its falling part; on
 *    each piece the largest integer with phi <= 0 follows from phi at the
 *    piece's two ends (exact rationals), pieces taken from the top;
 *  - the common necessary conditions: x <= D_j and total utilization <= m.
 * max of a union is the max of the maxima, so wcet_max is the largest of
 * the four tests' maxima (sensitivity.c). */
#include "solver/sensitivity_internal.h"

#include "solver/global.h"
#include "solver/global_work.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------ GFB, BCL, RTA one by one */

static rtp_status gfb_alone(const rtp_test *test, const rtp_task *tasks, size_t n,
                            rtp_test_result *result, rtp_diag *diag)
{
    return rtp_gw_edf_chain(test, tasks, n, RTP_GW_GFB, result, diag);
}

static rtp_status bcl_alone(const rtp_test *test, const rtp_task *tasks, size_t n,
                            rtp_test_result *result, rtp_diag *diag)
{
    return rtp_gw_edf_chain(test, tasks, n, RTP_GW_BCL, result, diag);
}

static rtp_status rta_alone(const rtp_test *test, const rtp_task *tasks, size_t n,
                            rtp_test_result *result, rtp_diag *diag)
{
    return rtp_gw_edf_chain(test, tasks, n, RTP_GW_RTA, result, diag);
}

size_t rtp_sens_gedf_parts(const rtp_test *test, rtp_test *parts)
{
    static const rtp_test_fn fn[RTP_SENS_GEDF_PARTS] = {gfb_alone, bcl_alone, rta_alone};
    static const char *const name[RTP_SENS_GEDF_PARTS] = {"gedf-gfb", "gedf-bcl", "gedf-rta"};
    for (size_t p = 0; p < RTP_SENS_GEDF_PARTS; p++) {
        parts[p] = *test;
        parts[p].run = fn[p];
        parts[p].name = name[p];
    }
    return RTP_SENS_GEDF_PARTS;
}

/* ------------------------------------------------------------ BAK */

typedef struct bak {
    const rtp_task *e;
    size_t n, j;
    int m;
    mpq_t *slack; /* k != j: m - (m - 1) lambda_k - sum_{i != j} min(1, beta_k(i)) */
    mpq_t one, beta, tmp, ci, ck;
} bak;

/* min(1, beta_k(i)) with the wcets ci, ck into b->beta. */
static void capped_beta(bak *b, size_t i, const mpq_t ci, size_t k, const mpq_t ck)
{
    rtp_gw_bak_beta(&b->e[i], ci, &b->e[k], ck, b->beta, b->tmp);
    if (mpq_cmp(b->beta, b->one) > 0)
        mpq_set(b->beta, b->one);
}

/* Every condition k != j holds with C_j = x. */
static int others_hold(bak *b, rtp_ns x)
{
    mpq_t cx;
    mpq_init(cx);
    mpq_set_si(cx, x, 1);
    int ok = 1;
    for (size_t k = 0; k < b->n && ok; k++) {
        if (k == b->j)
            continue;
        mpq_set_si(b->ck, b->e[k].wcet_ns, 1);
        capped_beta(b, b->j, cx, k, b->ck);
        ok = mpq_cmp(b->beta, b->slack[k]) <= 0;
    }
    mpq_clear(cx);
    return ok;
}

/* phi(x) of condition k = j (file comment) at the rational x into out. */
static void phi(bak *b, const mpq_t x, mpq_t out)
{
    const rtp_task *tj = &b->e[b->j];
    mpq_set_si(out, b->m, 1);
    mpz_mul_si(mpq_denref(out), mpq_denref(out), tj->deadline_ns);
    mpq_canonicalize(out);
    mpq_mul(out, out, x);
    mpq_set_si(b->tmp, b->m, 1);
    mpq_sub(out, out, b->tmp);
    for (size_t i = 0; i < b->n; i++) {
        if (i == b->j)
            continue;
        mpq_set_si(b->ci, b->e[i].wcet_ns, 1);
        capped_beta(b, i, b->ci, b->j, x);
        mpq_add(out, out, b->beta);
    }
}

/* The breakpoints of phi inside (lo, hi), sorted from the top; *count. */
static int by_value_desc(const void *pa, const void *pb)
{
    return -mpq_cmp(*(const mpq_t *)pa, *(const mpq_t *)pb);
}

static void breakpoints(bak *b, const mpq_t lo, const mpq_t hi, mpq_t *out, size_t *count)
{
    const rtp_task *tj = &b->e[b->j];
    *count = 0;
    for (size_t i = 0; i < b->n; i++) {
        if (i == b->j)
            continue;
        const rtp_task *ti = &b->e[i];
        /* lambda_j = U_i: x = D_j C_i / T_i */
        mpq_t *p = &out[*count];
        mpq_set_si(*p, ti->wcet_ns, 1);
        mpz_mul_si(mpq_numref(*p), mpq_numref(*p), tj->deadline_ns);
        mpz_set_si(mpq_denref(*p), ti->period_ns);
        mpq_canonicalize(*p);
        if (mpq_cmp(*p, lo) > 0 && mpq_cmp(*p, hi) < 0)
            ++*count;
        /* beta_j(i) = 1 on its falling part, where beta_j(i)(x) =
         * beta_j(i)(0) - x T_i / D_j^2: x = (beta_j(i)(0) - 1) D_j^2 / T_i */
        p = &out[*count];
        mpq_set_si(b->ci, ti->wcet_ns, 1);
        mpq_set_ui(b->ck, 0, 1);
        rtp_gw_bak_beta(ti, b->ci, tj, b->ck, *p, b->tmp);
        mpq_sub(*p, *p, b->one);
        mpz_mul_si(mpq_numref(*p), mpq_numref(*p), tj->deadline_ns);
        mpz_mul_si(mpq_numref(*p), mpq_numref(*p), tj->deadline_ns);
        mpz_mul_si(mpq_denref(*p), mpq_denref(*p), ti->period_ns);
        mpq_canonicalize(*p);
        if (mpq_cmp(*p, lo) > 0 && mpq_cmp(*p, hi) < 0)
            ++*count;
    }
    qsort(out, *count, sizeof *out, by_value_desc);
}

/* The largest integer in [p, q] (q an integer, p <= q rational) with phi
 * <= 0, phi linear on [p, q]; 0 when none. */
static int piece_max(bak *b, const mpq_t p, const mpq_t q, mpz_t best)
{
    mpq_t fp, fq, r;
    mpq_inits(fp, fq, r, NULL);
    int found = 0;
    phi(b, q, fq);
    if (mpq_sgn(fq) <= 0) {
        mpz_set(best, mpq_numref(q));
        found = 1;
    } else {
        phi(b, p, fp);
        if (mpq_sgn(fp) <= 0) { /* the root r = p + (q - p) fp / (fp - fq) */
            mpq_sub(r, q, p);
            mpq_mul(r, r, fp);
            mpq_sub(fq, fp, fq);
            mpq_div(r, r, fq);
            mpq_add(r, r, p);
            mpz_fdiv_q(best, mpq_numref(r), mpq_denref(r));
            mpq_set_z(r, best);
            found = mpq_cmp(r, p) >= 0;
        }
    }
    mpq_clears(fp, fq, r, NULL);
    return found;
}

/* Condition k = j over [lo, top], pieces from the top: *best or -1. */
static rtp_status own_condition(bak *b, rtp_ns lo, rtp_ns top, rtp_ns *best)
{
    size_t nb = 2 * b->n;
    mpq_t *bp = malloc(nb * sizeof *bp);
    if (!bp)
        return RTP_ENOMEM;
    for (size_t t = 0; t < nb; t++)
        mpq_init(bp[t]);
    mpq_t qlo, qhi, q;
    mpz_t z;
    mpq_inits(qlo, qhi, q, NULL);
    mpz_init(z);
    mpq_set_si(qlo, lo, 1);
    mpq_set_si(qhi, top, 1);
    breakpoints(b, qlo, qhi, bp, &nb);
    for (size_t t = 0; t <= nb; t++) {
        const mpq_t *p = t < nb ? &bp[t] : &qlo;
        mpz_fdiv_q(z, mpq_numref(qhi), mpq_denref(qhi)); /* q = floor(top of the piece) */
        mpq_set_z(q, z);
        if (mpq_cmp(q, *p) >= 0 && piece_max(b, *p, q, z)) {
            *best = mpz_get_si(z);
            break;
        }
        mpq_set(qhi, *p);
    }
    mpz_clear(z);
    mpq_clears(qlo, qhi, q, NULL);
    for (size_t t = 0; t < 2 * b->n; t++)
        mpq_clear(bp[t]);
    free(bp);
    return RTP_OK;
}

/* The conditions that do not depend on C_j and the bound on x that total
 * utilization <= m puts: 0 when BAK rejects whatever C_j is. */
static int fixed_part(bak *b, rtp_ns *hi)
{
    const rtp_task *tj = &b->e[b->j];
    if (!gw_applicable(b->e, b->n))
        return 0;
    mpq_t rest;
    mpq_init(rest);
    mpq_set_si(rest, b->m, 1);
    int ok = 1;
    for (size_t i = 0; i < b->n && ok; i++) {
        if (i == b->j)
            continue;
        ok = b->e[i].wcet_ns <= b->e[i].deadline_ns;
        mpq_set_si(b->tmp, b->e[i].wcet_ns, (unsigned long)b->e[i].period_ns);
        mpq_canonicalize(b->tmp);
        mpq_sub(rest, rest, b->tmp);
    }
    /* x / T_j <= rest */
    mpz_mul_si(mpq_numref(rest), mpq_numref(rest), tj->period_ns);
    if (ok && mpq_sgn(rest) < 0)
        ok = 0;
    if (ok) {
        mpz_t z;
        mpz_init(z);
        mpz_fdiv_q(z, mpq_numref(rest), mpq_denref(rest));
        if (mpz_cmp_si(z, *hi) < 0)
            *hi = mpz_get_si(z);
        mpz_clear(z);
    }
    if (tj->deadline_ns < *hi)
        *hi = tj->deadline_ns;
    /* slack[k] for k != j */
    for (size_t k = 0; k < b->n && ok; k++) {
        if (k == b->j)
            continue;
        const rtp_task *tk = &b->e[k];
        mpq_set_si(b->slack[k], b->m - 1, 1);
        mpq_set_si(b->ck, tk->wcet_ns, 1);
        mpq_mul(b->slack[k], b->slack[k], b->ck);
        mpz_mul_si(mpq_denref(b->slack[k]), mpq_denref(b->slack[k]), tk->deadline_ns);
        mpq_canonicalize(b->slack[k]);
        mpq_set_si(b->tmp, b->m, 1);
        mpq_sub(b->slack[k], b->tmp, b->slack[k]);
        for (size_t i = 0; i < b->n; i++) {
            if (i == b->j)
                continue;
            mpq_set_si(b->ci, b->e[i].wcet_ns, 1);
            capped_beta(b, i, b->ci, k, b->ck);
            mpq_sub(b->slack[k], b->slack[k], b->beta);
        }
        ok = mpq_sgn(b->slack[k]) >= 0;
    }
    mpq_clear(rest);
    return ok;
}

rtp_status rtp_sens_bak_max(const rtp_task *e, size_t n, int m, size_t j, rtp_ns lo,
                            rtp_ns hi, rtp_ns *best)
{
    *best = -1;
    bak b;
    b.e = e;
    b.n = n;
    b.j = j;
    b.m = m;
    if (!(b.slack = malloc(n * sizeof *b.slack)))
        return RTP_ENOMEM;
    for (size_t k = 0; k < n; k++)
        mpq_init(b.slack[k]);
    mpq_inits(b.one, b.beta, b.tmp, b.ci, b.ck, NULL);
    mpq_set_ui(b.one, 1, 1);
    rtp_status st = RTP_OK;
    if (fixed_part(&b, &hi) && lo <= hi && others_hold(&b, lo)) {
        rtp_ns ok = lo, fail = hi + 1; /* conditions k != j: downward closed */
        while (fail - ok > 1) {
            rtp_ns mid = ok + (fail - ok) / 2;
            if (others_hold(&b, mid))
                ok = mid;
            else
                fail = mid;
        }
        st = own_condition(&b, lo, ok, best);
    }
    mpq_clears(b.one, b.beta, b.tmp, b.ci, b.ck, NULL);
    for (size_t k = 0; k < n; k++)
        mpq_clear(b.slack[k]);
    free(b.slack);
    return st;
}

/* Global FP with a monotonic order. The test accepts iff the RTA with
 * limited carry-in accepts (rtp_global_fp: the RTA, else the RTA-LC, whose
 * bound per task is the smaller of both given the more urgent tasks'
 * bounds, so each of its bounds is at most the RTA's: it accepts whatever
 * the RTA accepts). Raising C'_k leaves the bounds of the more urgent tasks
 * as they are, so each bisection step re-bounds the tasks from k's
 * position on, each search starting at its bound under the last accepted
 * wcet (every least fixed point is non-decreasing in every C and every
 * bound it uses, solver/sensitivity.h, so those are lower bounds), and an
 * accepted x caps the answer at x + D_k - r_k(x) (in y = L - C_k every
 * term only grows with C_k, so r_k grows by at least what C_k does).
 * Same answers as bisection over the whole test (test_sensitivity_global). */
rtp_status rtp_sens_gfp_max(const rtp_task *e, size_t n, int m, rtp_prio_rule rule,
                            const rtp_limits *lim, rtp_ns *cmax, rtp_diag *diag)
{
    size_t cells = n ? n : 1;
    int *prio = malloc(cells * sizeof *prio);
    size_t *order = malloc(cells * sizeof *order);
    rtp_ns *base = malloc(cells * sizeof *base), *r = malloc(cells * sizeof *r);
    rtp_ns *low = malloc(cells * sizeof *low);
    rtp_task *t = malloc(cells * sizeof *t);
    rtp_status st = RTP_OK;
    int fit = 0;
    if (!prio || !order || !base || !r || !low || !t) {
        st = rtp_oom(diag);
        goto done;
    }
    memcpy(t, e, n * sizeof *t);
    rtp_global_monotonic(e, n, rule, prio);
    if ((st = gw_priority_order(prio, n, order, "global FP analysis", diag)) != RTP_OK ||
        (st = rtp_gw_fp_rta_from(e, n, m, order, 0, 1, NULL, lim, base, &fit, diag)) != RTP_OK)
        goto done;
    for (size_t p = 0; p < n && st == RTP_OK; p++) {
        size_t k = order[p];
        rtp_ns lo = e[k].wcet_ns, hi = e[k].deadline_ns < e[k].period_ns ? e[k].deadline_ns
                                                                         : e[k].period_ns;
        hi++; /* C' > min(D, T) misses (J' = 0 here) */
        if (!fit) {
            cmax[k] = -1; /* not reached: e is accepted */
            continue;
        }
        memcpy(low, base, n * sizeof *low);
        if (lo + e[k].deadline_ns - base[k] + 1 < hi)
            hi = lo + e[k].deadline_ns - base[k] + 1;
        while (hi - lo > 1) {
            int ok = 0;
            t[k].wcet_ns = lo + (hi - lo) / 2;
            memcpy(r, base, n * sizeof *r); /* the more urgent tasks' bounds */
            if ((st = rtp_limits_check(lim, diag)) != RTP_OK ||
                (st = rtp_gw_fp_rta_from(t, n, m, order, p, 1, low, lim, r, &ok, diag)) != RTP_OK)
                break;
            if (!ok) {
                hi = t[k].wcet_ns;
                continue;
            }
            lo = t[k].wcet_ns;
            memcpy(low, r, n * sizeof *low);
            if (lo + e[k].deadline_ns - r[k] + 1 < hi)
                hi = lo + e[k].deadline_ns - r[k] + 1;
        }
        t[k].wcet_ns = e[k].wcet_ns;
        cmax[k] = lo;
    }
done:
    free(prio);
    free(order);
    free(base);
    free(r);
    free(low);
    free(t);
    return st;
}
