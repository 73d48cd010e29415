/* solver/sensitivity_global.c — wcet_max under the sufficient global tests on
 * m >= 2 CPUs (solver/global.h); the proofs are in solver/sensitivity.h.
 *
 * Global FP: its test is downward closed in each wcet; its search is at the
 * end of this file (a fixed order, and OPA's union of orders). Global EDF accepts when
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

rtp_ns rtp_sens_gfb_guess(const rtp_task *e, size_t n, int m, size_t k)
{
    double dens = 0, dmax = 0, util = 0, d = (double)e[k].deadline_ns;
    for (size_t i = 0; i < n; i++) {
        if (i == k)
            continue;
        double l = (double)e[i].wcet_ns / (double)e[i].deadline_ns;
        dens += l;
        dmax = l > dmax ? l : dmax;
        util += (double)e[i].wcet_ns / (double)e[i].period_ns;
    }
    /* below the largest other density: dens + y / D + (m - 1) dmax <= m;
     * above it: dens + m y / D <= m */
    double y = d * (m - dens - (m - 1) * dmax);
    if (y > d * dmax)
        y = d * (m - dens) / m;
    double top = (double)e[k].period_ns * (m - util);
    y = y < top ? y : top;
    y = y < d ? y : d;
    return y >= 0 ? (rtp_ns)y : -1;
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

/* *fail = 1 when a condition k != j fails at C_j = lo: then at every x >= lo too
 * (each is downward closed in x, file comment), and BAK accepts no x in
 * [lo, hi]. From the integer enclosures of rtp_global_bak, n^2 terms
 * without GMP, where fixed_part's slacks cost n^2 rationals: on
 * bench_analysis's 20-task families BAK was never the answer, and this
 * settles most tasks (sensitivity.c searches BAK last, from the other
 * parts' best + 1). -1 when out of memory. */
static int others_fail(const rtp_task *e, size_t n, int m, size_t j, rtp_ns lo, int *fail)
{
    rtp_task *t = malloc(n * sizeof *t);
    if (!t)
        return -1;
    memcpy(t, e, n * sizeof *t);
    t[j].wcet_ns = lo;
    *fail = !gw_applicable(t, n); /* fixed_part's first check: BAK rejects */
    for (size_t k = 0; k < n && !*fail; k++)
        *fail = k != j && rtp_gw_bak_task(t, n, m, k) == 0;
    free(t);
    return 0;
}

rtp_status rtp_sens_bak_max(const rtp_task *e, size_t n, int m, size_t j, rtp_ns lo,
                            rtp_ns hi, rtp_ns *best)
{
    *best = -1;
    int hopeless;
    if (others_fail(e, n, m, j, lo, &hopeless) != 0)
        return RTP_ENOMEM;
    if (hopeless)
        return RTP_OK;
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

/* ------------------------------------------------- the secant search */

/* Where the secant through the accepted xp < x (bounds rp, rx) reaches the
 * first deadline: the largest x + d with rx_i + d (rx_i - rp_i) / (x - xp)
 * <= D_i for every task whose bound rose. A guess only (the bounds are not
 * linear in the wcet): the search checks it with the test. */
static rtp_i128 secant(const rtp_task *e, size_t n, rtp_ns xp, const rtp_ns *rp, rtp_ns x,
                       const rtp_ns *rx)
{
    rtp_i128 best = (rtp_i128)1 << 100;
    for (size_t i = 0; i < n; i++) {
        rtp_i128 rise = (rtp_i128)rx[i] - rp[i], room = (rtp_i128)e[i].deadline_ns - rx[i];
        if (rise > 0 && room >= 0 && x + room * (x - xp) / rise < best)
            best = x + room * (x - xp) / rise;
    }
    return best;
}

/* Where the line through the margins mp at xp < x and mx at x reaches 0,
 * when they fall (a guess, as the secant's). */
static rtp_i128 margin_zero(rtp_ns xp, rtp_ns mp, rtp_ns x, rtp_ns mx)
{
    if (xp >= x || mx < 0 || mp <= mx)
        return (rtp_i128)1 << 100;
    return x + (rtp_i128)mx * (x - xp) / ((rtp_i128)mp - mx);
}

rtp_status rtp_sens_secant_max(const rtp_task *e, size_t n, size_t k, rtp_ns *lo, rtp_ns hi,
                               const rtp_ns *low, rtp_ns xp, rtp_ns *r, rtp_sens_run run,
                               void *ctx)
{
    rtp_ns *rp = r, *rx = r + n, *out = r + 2 * n;
    rtp_ns mp = -1, mx = -1, m_out = -1; /* the margins at xp, *lo and x */
    rtp_status st = RTP_OK;
    int ok, rejected = 0;
    while (st == RTP_OK) {
        /* in 128 bits: *lo and D_k both reach 2^62 (rev10b: UBSan on a set
         * with periods 2^62); below hi, the cap fits in int64_t */
        rtp_i128 cap = (rtp_i128)*lo + e[k].deadline_ns - low[k] + 1;
        if (cap < hi)
            hi = (rtp_ns)cap;
        if (hi - *lo <= 1)
            break;
        rtp_ns span = hi - *lo, x = *lo + span / 2;
        if (xp < *lo) {
            rtp_i128 g = secant(e, n, xp, rp, *lo, rx), z = margin_zero(xp, mp, *lo, mx);
            g = z < g ? z : g;
            if (g < hi && (!rejected || (g > *lo + span / 4 && g < hi - span / 4)))
                x = g > *lo ? (rtp_ns)g : *lo + 1;
        }
        if ((st = run(ctx, x, out, &m_out, &ok)) != RTP_OK)
            break;
        rejected = !ok;
        if (!ok) {
            hi = x;
            continue;
        }
        rtp_ns *t = rp; /* rp <- the bounds at *lo, rx <- those at x */
        rp = rx;
        rx = out;
        out = t;
        xp = *lo;
        *lo = x;
        mp = mx;
        mx = m_out;
    }
    return st;
}

/* ------------------------------------- the gedf RTA's cap from below */

/* rtp_sens_gedf_below_cap's run: the iteration from below alone with C'_k
 * = x + c (rtp_gw_edf_below), from start[]: lower bounds of r* at the
 * largest x it has found no bound missing at (r* is non-decreasing in
 * C_k, so they are lower bounds at every larger x, the only ones tried
 * after it), first the RTA's warm[] at lo. "Accepted" here is "not proved
 * rejected": that includes undecided runs (rounds or steps past their
 * budget), and it is never an acceptance of the RTA. start[k] is also
 * rtp_sens_secant_max's low[k]: a lower bound of task k's least fixed
 * point at its *lo (r*_k when the RTA accepts *lo; *lo may be a wcet it
 * rejects, review rev11a), and that point rises by at least d when C'_k
 * does (sensitivity.c, gedf_run), so its cap *lo + D_k - start[k] + 1 is a
 * wcet the RTA rejects. */
/* Rounds per run from below before it counts as undecided: near the cap
 * the iteration from below can crawl for thousands of rounds (one run of
 * 1.4 s cold on bench_analysis's 20-task sets); past the budget the run
 * proves nothing and the search goes on above it, so only the cap's
 * tightness depends on it (`bench_analysis 20 1 sensitivity-global gedf`:
 * 4, 8 and 16 within noise of each other). */
enum { GEDF_BELOW_ROUNDS = 2 };

typedef struct gedf_below {
    rtp_task *e;
    size_t n, k;
    int m;
    rtp_ns c, *start;
    const rtp_limits *limits;
    rtp_diag *diag;
} gedf_below;

static rtp_status below_run(void *ctx, rtp_ns x, rtp_ns *bounds, rtp_ns *margin, int *ok)
{
    gedf_below *g = ctx;
    rtp_ns keep = g->e[g->k].wcet_ns;
    int outcome = 1;
    *margin = -1;
    memcpy(bounds, g->start, g->n * sizeof *bounds);
    g->e[g->k].wcet_ns = x + g->c;
    rtp_status st = rtp_limits_check(g->limits, g->diag);
    if (st == RTP_OK)
        st = rtp_gw_edf_below(g->e, g->n, g->m, g->limits, GEDF_BELOW_ROUNDS, bounds, &outcome,
                              g->diag);
    g->e[g->k].wcet_ns = keep;
    *ok = outcome != 0;
    if (st == RTP_OK && *ok)
        memcpy(g->start, bounds, g->n * sizeof *bounds);
    return st;
}

rtp_status rtp_sens_gedf_below_cap(rtp_task *e, size_t n, int m, size_t k, rtp_ns c, rtp_ns lo,
                                   rtp_ns *hi, const rtp_ns *warm, const rtp_limits *limits,
                                   rtp_diag *diag)
{
    rtp_ns *start = malloc(4 * (n ? n : 1) * sizeof *start), *r = start + n;
    if (!start)
        return rtp_oom(diag);
    memcpy(start, warm, n * sizeof *start);
    memcpy(r + n, warm, n * sizeof *r); /* the secant's bounds at lo: a guess only */
    gedf_below g = {e, n, k, m, c, start, limits, diag};
    rtp_status st = rtp_sens_secant_max(e, n, k, &lo, *hi, start, lo, r, below_run, &g);
    if (st == RTP_OK)
        *hi = lo + 1;
    free(start);
    return st;
}

/* ------------------------------------------------------------ global FP */

/* Global FP on m >= 2 CPUs (rtp_sens_gfp_max).
 *
 * A fixed order (DM, RM, given distinct priorities: none depends on a
 * wcet). The test accepts iff the RTA with limited carry-in accepts
 * (rtp_global_fp: the RTA, else the RTA-LC, whose bound per task is the
 * smaller of both given the more urgent tasks' bounds, so each of its
 * bounds is at most the RTA's: it accepts whatever the RTA accepts).
 * Raising C'_k leaves the bounds of the more urgent tasks as they are, so
 * each bisection step re-bounds the tasks from k's position on, each search
 * starting at its bound under the last accepted wcet (every least fixed
 * point is non-decreasing in every C and every bound it uses,
 * solver/sensitivity.h, so those are lower bounds), and an accepted x caps
 * the answer at x + D_k - r_k(x) (in y = L - C_k every term only grows with
 * C_k, so r_k grows by at least what C_k does; the same growth starts k's
 * own search and strengthens rta_run's early rejection). First, though,
 * task k alone (own_run: its more urgent tasks' bounds stay fixed, so each
 * try is one task's bound): its largest accepted x caps the answer (the
 * whole test fails wherever k does) and is the answer when the whole test
 * accepts it, which one run then checks (bench_analysis's gfp-dm 20-task
 * 2-CPU family at U/m 0.6: 213 of 400 tasks); else the search over the
 * whole test runs below it.
 *
 * OPA. rtp_global_fp accepts iff Audsley's algorithm finds an order in
 * which every task passes "DA or DA-LC" against the tasks above it (then
 * the RTA on that order accepts: DA's interference with R_i = D_i at
 * L = D_k bounds the RTA's, whose R_i <= D_i, so D_k is a fixed point of
 * the RTA's equation, BC or LC alike), or else the RTA-LC accepts the DM
 * order. "DA or DA-LC" is OPA-compatible [DB09] [DB11]: a task's verdict
 * depends on the set of tasks above it, not on their order (R_i = D_i),
 * and holds for any subset of them (every term, and DA-LC's m - 1 largest
 * carry-in excesses max(CI - NC, 0), are >= 0), and so is the "or" of the
 * two. So OPA finds an order iff one exists [Aud01], and the accepted
 * wcets are A u F: A = the union over orders pi of DA(pi) (the wcets every
 * task of pi passes at its level), F = the RTA-LC's under DM. Each DA(pi)
 * is downward closed in C'_k (solver/sensitivity.h), so A is, and F is (the
 * fixed-order case): max(A u F) = max(max A, max F). max A, from an x in A
 * with the order pi OPA found for it: x0 = max DA(pi) >= x is in A; if OPA
 * finds no order at x0 + 1, nothing above x0 is in A (downward closed) and
 * max A = x0; else OPA's order pi1 there gives max DA(pi1) >= x0 + 1 in A,
 * and so on: a search over "OPA finds an order" whose every acceptance
 * jumps to the maximum under the order found (opa_max; on bench_analysis's
 * 20-task families a third of the tasks stop after the first OPA run, a
 * quarter would need 7 or more runs of the plain chain x0 + 1, x1 + 1, ...,
 * hence steps that double, so the runs stay logarithmic in D_k). max DA(pi) needs no
 * response-time bound: task k's own level and those below it (the levels
 * above do not see C'_k), each task's largest passing C'_k on its own
 * (their minimum is the maximum: each is downward closed). max F is
 * searched only when F accepts max A + 1 (else max F <= max A). */
typedef struct gfp {
    rtp_task *t; /* the effective tasks; t[k].wcet_ns the tried C'_k */
    const rtp_task *e;
    size_t n;
    int m;
    const rtp_limits *lim;
    rtp_diag *diag;
    int *prio;
    size_t *fixed;          /* the RTA-LC's order (DM under OPA), most urgent first */
    rtp_ns *base, *r, *low; /* its bounds at e, 3n for the search, lower bounds */
    rtp_ns *base_bc, *low_bc, *bc; /* [BC07]'s alone: at e, lower bounds, a run's */
    rtp_ns *own, *own_low;  /* own_run's 3n for the search, its lower bounds */
    rtp_ns *own_bc;         /* and [BC07]'s alone */
    size_t p;               /* the raised task's position in it */
    size_t *opa;            /* the order OPA found last */
    rtp_ns *deadlines;      /* DA's R_i = D_i */
    gw_term *scratch;
    rtp_i128 *w, *nc, *ci, *ex; /* da_pieces' terms, n each */
    size_t fail;            /* where the last rejected try of the RTA-LC failed (> p), or 0 */
    rtp_ns low_at, own_at;  /* the C'_k at which g->low, g->own_low[k] are the bounds */
    int lc_only;            /* the cheaper pass failed once in this search: skip it */
    int wide;               /* gw_ctx's for every search (-1: all fit int64_t) */
} gfp;

/* One RTA-LC run under g->fixed with C'_k = x, k = g->fixed[g->p] (an
 * rtp_sens_run): the bounds into bounds[] (those above p are g->base's:
 * they do not see C'_k), each search from g->low, which an acceptance
 * raises to them. First the cheaper pass without limited carry-in from p
 * on (one fixed point per task instead of two): its bounds are at least
 * the RTA-LC's (by induction down the order: the same bounds above p, and
 * below, [BC07]'s fixed point is non-decreasing in the bounds it uses and
 * at least the RTA-LC's minimum), so its acceptance is the RTA-LC's; they
 * are not lower bounds of the RTA-LC's, so g->low stays (it still bounds
 * them from below: they only grow with C'_k).
 * Before both, when a rejection failed at a task below p (the last one of
 * this task's search, or of the previous task's: g->fail, set from
 * last_fail): that task's RTA-LC bound with max(g->low, C') as the more
 * urgent tasks' bounds, and k's raised by what C'_k grew since g->low_at
 * (raising C'_k by d raises k's bound by at least d: every term, the clamp
 * included, only grows with C'_k, and so does the maximum over carry-in
 * choices), a lower bound of its bound in this run (the true ones are >=
 * these, which the formulas also need; the bound is non-decreasing in
 * them), so none there rejects the run at the cost of one task instead of
 * every task from p down to it. k's raised bound may pass D_k (even T_k,
 * where carry_in's R <= T assumption fails): then k's true bound is past
 * D_k too and the full run rejects anyway, so only the work changes.
 * [BC07]'s searches start at g->low_bc, its own bounds at the last
 * accepted run (D + 1 where it had none): they too only grow with C'_k
 * and with the more urgent bounds, and the smaller bound g->low is
 * often [GSYY09]'s, well below them (global_work.h, gw_fp_starts). */
/* Task k's two search starts for a try at C'_k = x, where they last held at
 * C'_k = at: both grow by what C'_k does (x - at), except a [BC07] start
 * past D_k (D_k + 1: that search found no bound), which stays. The caller
 * puts the old values (returned) back with start_restore. */
typedef struct start_pair {
    rtp_ns low, bc;
} start_pair;

static start_pair start_raise(rtp_ns *low, rtp_ns *bc, const rtp_task *tk, rtp_ns grow)
{
    start_pair old = {*low, *bc};
    *low += grow;
    if (old.bc <= tk->deadline_ns)
        *bc += grow;
    return old;
}

static void start_restore(rtp_ns *low, rtp_ns *bc, start_pair old)
{
    *low = old.low;
    *bc = old.bc;
}

static rtp_status rta_run(void *ctx, rtp_ns x, rtp_ns *bounds, rtp_ns *margin, int *ok)
{
    gfp *g = ctx;
    *margin = -1;
    size_t k = g->fixed[g->p];
    gw_fp_starts starts = {g->low, g->low_bc, g->wide};
    g->t[k].wcet_ns = x;
    rtp_status st = rtp_limits_check(g->lim, g->diag);
    if (st == RTP_OK && g->fail > g->p) {
        uint64_t steps = 0;
        rtp_ns b;
        for (size_t i = 0; i < g->n; i++) /* and every bound is at least its task's wcet */
            bounds[i] = g->low[i] > g->t[i].wcet_ns ? g->low[i] : g->t[i].wcet_ns;
        if (g->low[k] + (x - g->low_at) > bounds[k]) /* k's grows by what C'_k does */
            bounds[k] = g->low[k] + (x - g->low_at);
        st = rtp_gw_fp_bound(g->t, g->fixed, g->fail, g->m, 1, &starts, bounds, g->scratch,
                             &steps, g->lim, &b, NULL, g->diag);
        if (st == RTP_OK && b < 0) {
            *ok = 0;
            g->t[k].wcet_ns = g->e[k].wcet_ns;
            return st;
        }
    }
    /* k's searches start where its growth puts them */
    start_pair old = start_raise(&g->low[k], &g->low_bc[k], &g->t[k], x - g->low_at);
    memcpy(bounds, g->base, g->n * sizeof *bounds);
    if (st == RTP_OK && !g->lc_only)
        st = rtp_gw_fp_rta_from(g->t, g->n, g->m, g->fixed, g->p, 0, &starts, g->lim, bounds,
                                NULL, ok, g->diag);
    if (st == RTP_OK && !g->lc_only && *ok) {
        g->t[k].wcet_ns = g->e[k].wcet_ns;
        start_restore(&g->low[k], &g->low_bc[k], old);
        return st;
    }
    g->lc_only = 1;
    memcpy(bounds, g->base, g->n * sizeof *bounds);
    if (st == RTP_OK)
        st = rtp_gw_fp_rta_from(g->t, g->n, g->m, g->fixed, g->p, 1, &starts, g->lim, bounds,
                                g->bc, ok, g->diag);
    start_restore(&g->low[k], &g->low_bc[k], old);
    if (st == RTP_OK && *ok) {
        memcpy(g->low, bounds, g->n * sizeof *g->low);
        g->low_at = x;
        for (size_t q = g->p; q < g->n; q++) { /* none: past D from here on */
            size_t i = g->fixed[q];
            g->low_bc[i] = g->bc[i] >= 0 ? g->bc[i] : g->t[i].deadline_ns + 1;
        }
    }
    for (size_t q = g->p; st == RTP_OK && !*ok && q < g->n; q++)
        if (bounds[g->fixed[q]] < 0) {
            g->fail = q;
            break;
        }
    g->t[k].wcet_ns = g->e[k].wcet_ns;
    return st;
}

/* Task k = g->fixed[g->p] alone under the RTA-LC with C'_k = x (an
 * rtp_sens_run): the more urgent tasks keep their bounds g->base (they do not
 * see C'_k), the less urgent ones are not looked at. Its accepted x are
 * downward closed (k's bound is non-decreasing in C'_k) and include every x
 * the whole test accepts, so its largest is an upper bound of the answer.
 * bounds[] gets g->base with k's bound; an acceptance raises
 * g->own_low[k] to it (the least fixed points, from there on, only grow),
 * and k's search starts where that bound's growth puts it (g->own_at). */
static rtp_status own_run(void *ctx, rtp_ns x, rtp_ns *bounds, rtp_ns *margin, int *ok)
{
    gfp *g = ctx;
    *margin = -1;
    size_t k = g->fixed[g->p];
    uint64_t steps = 0;
    gw_fp_starts starts = {g->own_low, g->own_bc, g->wide};
    rtp_ns b = -1, bc = -1;
    g->t[k].wcet_ns = x;
    start_pair old = start_raise(&g->own_low[k], &g->own_bc[k], &g->t[k], x - g->own_at);
    rtp_status st = rtp_limits_check(g->lim, g->diag);
    memcpy(bounds, g->base, g->n * sizeof *bounds);
    if (st == RTP_OK)
        st = rtp_gw_fp_bound(g->t, g->fixed, g->p, g->m, 1, &starts, bounds, g->scratch, &steps,
                             g->lim, &b, &bc, g->diag);
    start_restore(&g->own_low[k], &g->own_bc[k], old);
    *ok = st == RTP_OK && b >= 0;
    if (*ok) {
        g->own_low[k] = bounds[k] = b;
        g->own_bc[k] = bc >= 0 ? bc : g->t[k].deadline_ns + 1;
        g->own_at = x;
    }
    g->t[k].wcet_ns = g->e[k].wcet_ns;
    return st;
}

/* DA and DA-LC of task j = g->opa[q] (rtp_gw_da_passes) split per
 * interferer: the terms before the clamp at L = D_j of the tasks
 * g->opa[first..first+count-1] into g->w (DA's W_i, span D_j + D_i - C_i),
 * g->nc and g->ci ([GSYY09]'s pieces without and with carry-in, R_i = D_i)
 * at the same offsets. None depends on C_j (only the clamp D_j - C_j + 1
 * does), nor on the wcet of any task but its own, so da_max computes them
 * once per level and again for the raised task's alone per try: a try
 * costs no division (da_decide) instead of two full interference sums.
 * rtp_gw_interference leaves them in the scratch: with m = 1, [GSYY09]'s
 * sum takes no carry-in piece, so scratch[0..N-1] holds every piece
 * without it and scratch[N..2N-1] every piece with it (global_work.h; the
 * m of the context is read for nothing else). */
static void da_pieces(gfp *g, size_t q, size_t first, size_t count)
{
    const rtp_task *tj = &g->t[g->opa[q]];
    gw_ctx c = {g->t, g->opa + first, count, g->deadlines, tj, 1, GW_FP_BC, g->scratch, NULL,
                0, 0, NULL, 0};
    rtp_i128 value;
    rtp_gw_interference(&c, tj->deadline_ns, &value);
    for (size_t j = 0; j < count; j++)
        g->w[first + j] = g->scratch[j].value;
    c.kind = GW_FP_LC;
    rtp_gw_interference(&c, tj->deadline_ns, &value);
    for (size_t j = 0; j < count; j++) {
        g->nc[first + j] = g->scratch[j].value;
        g->ci[first + j] = g->scratch[count + j].value;
    }
}

static rtp_i128 at_most(rtp_i128 a, rtp_i128 b)
{
    return a < b ? a : b;
}

static int larger_first(const void *pa, const void *pb)
{
    return *(const rtp_i128 *)pa > *(const rtp_i128 *)pb;
}

/* rtp_gw_da_passes(lc 0) || rtp_gw_da_passes(lc 1) for a task with clamp
 * y = D_j - C_j + 1 against the n_hp interferers whose pieces da_pieces
 * left: the same sums (global_bound_t.h: each term is its piece's value at
 * L clamped to y; [GSYY09]'s adds the m - 1 largest excesses max(ci' -
 * nc', 0) to the sum of the nc'), hence the same verdict. */
static int da_decide(gfp *g, size_t n_hp, rtp_i128 y)
{
    if (y < 1) /* C_j > D_j */
        return 0;
    rtp_i128 bc = 0, lc = 0, room = (rtp_i128)g->m * y;
    for (size_t j = 0; j < n_hp; j++) {
        rtp_i128 a = at_most(g->nc[j], y);
        bc += at_most(g->w[j], y);
        lc += a;
        g->ex[j] = at_most(g->ci[j], y) - a;
        if (g->ex[j] < 0)
            g->ex[j] = 0;
    }
    if (bc < room)
        return 1;
    size_t keep = (size_t)g->m - 1; /* the m - 1 largest: their sum, whatever the ties */
    gw_select_first(g->ex, n_hp, keep, sizeof *g->ex, larger_first);
    for (size_t j = 0; j < n_hp && j < keep; j++)
        lc += g->ex[j];
    return lc < room;
}

/* Task j = g->opa[q] passes DA or DA-LC against the tasks above it with
 * C'_k = x, k = g->opa[p], p <= q, given da_pieces for level q: k's own
 * pieces when it is an interferer (q > p), which change with x, first. */
static int da_level(gfp *g, size_t q, size_t p, rtp_ns x)
{
    const rtp_task *tj = &g->t[g->opa[q]];
    g->t[g->opa[p]].wcet_ns = x;
    if (q > p)
        da_pieces(g, q, p, 1);
    return da_decide(g, q, (rtp_i128)tj->deadline_ns - tj->wcet_ns + 1);
}

/* max DA(g->opa) over C'_k in [*lo, hi), k = g->opa[p], given *lo in it:
 * the minimum over the levels from p down of each one's largest passing
 * C'_k (bisection where it is below the current top), into *lo. */
static void da_max(gfp *g, size_t p, rtp_ns *lo, rtp_ns hi)
{
    size_t k = g->opa[p];
    for (size_t q = p; q < g->n && hi - *lo > 1; q++) {
        g->t[k].wcet_ns = hi - 1; /* most levels pass at the top: no pieces there */
        if (rtp_gw_da_passes(g->t, g->opa, q, g->m, g->opa[q], 0, g->wide, g->scratch,
                             g->deadlines) ||
            rtp_gw_da_passes(g->t, g->opa, q, g->m, g->opa[q], 1, g->wide, g->scratch,
                             g->deadlines))
            continue;
        da_pieces(g, q, 0, q);
        rtp_ns pass = *lo, fail = hi - 1;
        while (fail - pass > 1) {
            rtp_ns mid = pass + (fail - pass) / 2;
            if (da_level(g, q, p, mid))
                pass = mid;
            else
                fail = mid;
        }
        hi = fail;
    }
    *lo = hi - 1;
    g->t[k].wcet_ns = g->e[k].wcet_ns;
}

/* OPA's order for the tasks with C'_k = x into g->opa; *found. hint: an
 * order OPA found with C'_k no larger (rtp_gw_fp_opa_hint), or NULL. */
static rtp_status opa_at(gfp *g, size_t k, rtp_ns x, const size_t *hint, int *found)
{
    g->t[k].wcet_ns = x;
    rtp_status st = rtp_limits_check(g->lim, g->diag);
    if (st == RTP_OK)
        st = rtp_gw_fp_opa_hint(g->t, g->n, g->m, hint, k, g->prio, found, g->diag);
    if (st == RTP_OK && *found)
        st = gw_priority_order(g->prio, g->n, g->opa, "global FP analysis", g->diag);
    g->t[k].wcet_ns = g->e[k].wcet_ns;
    return st;
}

static size_t position(const size_t *order, size_t n, size_t k)
{
    size_t p = 0;
    while (p < n && order[p] != k)
        p++;
    return p;
}

/* max A (file comment above) from lo = e[k]'s C'_k, which OPA accepts with
 * the order g->opa: into *best. A galloping search over "OPA finds an
 * order" (lo in A, nothing from hi on): each try lo + step, the step
 * doubling after each acceptance (which lifts lo to the maximum under the
 * order found) and at most half the bracket; the first try just above the
 * first such maximum, mostly rejected. */
static rtp_status opa_max(gfp *g, size_t k, rtp_ns lo, rtp_ns hi, rtp_ns *best)
{
    rtp_status st = RTP_OK;
    rtp_ns step = 1;
    da_max(g, position(g->opa, g->n, k), &lo, hi);
    while (hi - lo > 1 && st == RTP_OK) {
        rtp_ns x = lo + (step < (hi - lo) / 2 ? step : (hi - lo) / 2);
        int found = 0;
        if ((st = opa_at(g, k, x, g->opa, &found)) != RTP_OK)
            break;
        if (!found) {
            hi = x;
            continue;
        }
        lo = x;
        da_max(g, position(g->opa, g->n, k), &lo, hi);
        step = step < hi ? 2 * step : step;
    }
    *best = lo;
    return st;
}

/* The fixed order of test->priority (DM under OPA) into g->fixed, and its
 * bounds at e into g->base; *ok = they all exist. */
static rtp_status fixed_order(gfp *g, const rtp_test *test, int *ok)
{
    rtp_status st = RTP_OK;
    int distinct = 1;
    *ok = 0;
    if (test->priority == RTP_PRIO_GIVEN)
        st = rtp_gw_given_ranks(g->e, g->n, g->prio, &distinct, g->diag);
    else
        rtp_global_monotonic(g->e, g->n,
                             test->priority == RTP_PRIO_RM ? RTP_PRIO_RM : RTP_PRIO_DM, g->prio);
    if (st != RTP_OK || !distinct) /* ties: not applicable, never accepted */
        return st;
    if ((st = gw_priority_order(g->prio, g->n, g->fixed, "global FP analysis", g->diag)) !=
        RTP_OK)
        return st;
    gw_fp_starts starts = {NULL, NULL, g->wide};
    return rtp_gw_fp_rta_from(g->e, g->n, g->m, g->fixed, 0, 1, &starts, g->lim, g->base,
                              g->base_bc, ok, g->diag);
}

rtp_status rtp_sens_gfp_max(const rtp_test *test, const rtp_task *e, size_t n, rtp_ns *cmax,
                            rtp_diag *diag)
{
    size_t cells = n ? n : 1;
    gfp g = {malloc(cells * sizeof *g.t), e, n, test->cpus, &test->limits, diag,
             malloc(cells * sizeof *g.prio), malloc(cells * sizeof *g.fixed),
             malloc(13 * cells * sizeof *g.base), NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
             0,
             malloc(2 * cells * sizeof *g.opa), malloc(cells * sizeof *g.deadlines),
             malloc(3 * cells * sizeof *g.scratch), malloc(4 * cells * sizeof *g.w), NULL, NULL,
             NULL, 0, 0, 0, 0, 0};
    rtp_status st = RTP_OK;
    int fixed_ok = 0, opa_found = 0;
    rtp_ns margin; /* rta_run's, unused here */
    size_t *opa0 = g.opa ? g.opa + n : NULL, last_fail = n; /* OPA's order at e */
    for (size_t i = 0; i < n; i++)
        cmax[i] = -1;
    if (!g.t || !g.prio || !g.fixed || !g.base || !g.opa || !g.deadlines || !g.scratch || !g.w) {
        st = rtp_oom(diag);
        goto done;
    }
    g.nc = g.w + cells;
    g.ci = g.w + 2 * cells;
    g.ex = g.w + 3 * cells;
    g.r = g.base + n;
    g.low = g.base + 4 * n;
    g.own_low = g.base + 5 * n;
    g.own = g.base + 6 * n;
    g.base_bc = g.base + 9 * n;
    g.low_bc = g.base + 10 * n;
    g.bc = g.base + 11 * n;
    g.own_bc = g.base + 12 * n;
    memcpy(g.t, e, n * sizeof *g.t);
    /* Every search here fits int64_t when rtp_gw_narrow_all says so for the
     * largest bound any of them uses: bounds of the more urgent tasks are
     * at most their D, but rta_run's early rejection raises k's by less
     * than D_k + 1 (and every tried C'_k is at most T_k). */
    rtp_ns b_max = 0;
    for (size_t i = 0; i < n; i++)
        b_max = e[i].deadline_ns > b_max ? e[i].deadline_ns : b_max;
    g.wide = b_max <= (rtp_ns)1 << 60 && rtp_gw_narrow_all(e, n, g.m, 2 * b_max + 1) ? -1 : 0;
    for (size_t i = 0; i < n; i++)
        g.deadlines[i] = e[i].deadline_ns;
    if (test->priority == RTP_PRIO_OPA && n > 0) {
        if ((st = opa_at(&g, 0, e[0].wcet_ns, NULL, &opa_found)) != RTP_OK)
            goto done;
        memcpy(opa0, g.opa, n * sizeof *opa0);
    }
    if ((st = fixed_order(&g, test, &fixed_ok)) != RTP_OK)
        goto done;
    for (size_t k = 0; k < n && st == RTP_OK; k++) {
        rtp_ns lo = e[k].wcet_ns, best = -1,
               hi = (e[k].deadline_ns < e[k].period_ns ? e[k].deadline_ns : e[k].period_ns) + 1;
        if (opa_found) {
            memcpy(g.opa, opa0, n * sizeof *g.opa);
            if ((st = opa_max(&g, k, lo, hi, &best)) != RTP_OK)
                break;
        }
        rtp_ns from = best < 0 ? lo : best + 1;
        int ok = fixed_ok && from < hi;
        g.p = position(g.fixed, n, k);
        g.fail = 0; /* the task that failed the last search first, when below k */
        for (size_t q = g.p + 1; q < n && last_fail < n; q++)
            if (g.fixed[q] == last_fail)
                g.fail = q;
        g.low_at = lo;
        g.lc_only = 0;
        memcpy(g.low, g.base, n * sizeof *g.low);
        for (size_t i = 0; i < n; i++) /* base_bc: -1 where none, past D_i (or not searched) */
            g.low_bc[i] = g.base_bc[i] >= 0 ? g.base_bc[i] : e[i].deadline_ns + 1;
        memcpy(g.r + n, g.base, n * sizeof *g.r); /* the bounds at from */
        if (ok && from > lo)
            st = rta_run(&g, from, g.r + n, &margin, &ok);
        if (st == RTP_OK && ok) {
            /* task k alone first: its largest x caps the answer, and is the
             * answer when the whole test accepts it */
            rtp_ns top = from;
            memcpy(g.own_low, g.low, n * sizeof *g.own_low);
            memcpy(g.own_bc, g.low_bc, n * sizeof *g.own_bc);
            g.own_at = g.low_at;
            memcpy(g.own + n, g.base, n * sizeof *g.own);
            g.own[n + k] = g.r[n + k];
            int top_ok = 1;
            st = rtp_sens_secant_max(g.t, n, k, &top, hi, g.own_low, from, g.own, own_run, &g);
            if (st == RTP_OK && top > from)
                st = rta_run(&g, top, g.own, &margin, &top_ok);
            if (st == RTP_OK && top_ok) {
                cmax[k] = top;
                continue;
            }
            hi = top;
        }
        if (st == RTP_OK && ok &&
            (st = rtp_sens_secant_max(g.t, n, k, &from, hi, g.low, from, g.r, rta_run, &g)) ==
                RTP_OK)
            best = from;
        cmax[k] = best;
        if (g.fail > g.p)
            last_fail = g.fixed[g.fail];
    }
done:
    if (st != RTP_OK)
        for (size_t i = 0; i < n; i++)
            cmax[i] = -1;
    free(g.t);
    free(g.prio);
    free(g.fixed);
    free(g.base);
    free(g.opa);
    free(g.deadlines);
    free(g.scratch);
    free(g.w);
    return st;
}
