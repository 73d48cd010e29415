/* solver/sensitivity_edf.c — the critical scaling factor under EDF (see
 * solver/sensitivity.c for the module, solver/sensitivity.h for why it is
 * exact).
 *
 * EDF. Schedulable at alpha iff every D*_i > 0, U'(alpha) <= 1 and for every
 * demand step point t (k T_i + D*_i): alpha A(t) + c N(t) + b(t) <= t, with
 * A(t) = sum n_i(t) w_i, N(t) = sum n_i(t), n_i(t) the jobs of i due by t
 * (solver/edf.c). Each inequality gives alpha <= f(t) = (t - b(t) -
 * c N(t)) / A(t), and U' <= 1 gives alpha <= alpha_U = (1 - sum c / T_i) /
 * (sum w_i / T_i). So alpha* = min(alpha_U, min_t f(t)). Infinitely many t,
 * so: start at a = alpha_U and run QPA [ZB09] at alpha = a with its testing
 * bound L(a) (La when U'(a) < 1, else the busy-period bound Lb + t_B of
 * solver/edf.c, both valid with rational C'); no failure: alpha* = a; a
 * failure at t has f(t) < a: set a = f(t) and repeat. a strictly decreases
 * through finitely many values f(t) (t below L(alpha_U)), so this ends, at
 * the largest a that passes, which is min(alpha_U, min_t f(t)).
 * QPA on rationals: h(t) = a A(t) + c N(t) + b(t) is a step function of t
 * constant between step points; the walk visits step points only (from a
 * point t with h(t) < t, the largest step point <= h(t), which skips no
 * failure, as in solver/edf.c).
 * The first round, at alpha_U itself (U' = 1, where no La exists and the
 * busy period can be the hyperperiod): the descent's own walks over
 * growing prefixes (edf_doubling: most failures are early); when they find
 * none, QPA over short prefixes, then QPA below T0 = max D* and every t >=
 * T0 at once by the residue decomposition of solver/edf_tail.c; its
 * failing t (rebuilt by the Chinese remainder theorem) starts the descent.
 */
#include "solver/sensitivity_edf_internal.h"
#include "solver/edf.h"
#include "solver/edf_near.h"
#include "solver/edf_tail.h"

#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* In one pass over the tasks: the largest step point t <= x (k T_i + D*_i,
 * 0 if none) and, unless it is 0, A(t) and K(t) = c N(t) + b(t), so that
 * h(t) = a A(t) + K(t) (the same at x: no step point lies in (t, x]);
 * *big when A passes 2^120 or c N(t) could. With `small` (a constant at
 * each call: the body is compiled once per width) the caller knows A, N
 * and K were below 2^62 at some x' >= x (all only fall with x; every term
 * at most its sum): the same values in 64 bits without the checks, *big
 * left alone (the factor's walks at the median set of bench_analysis's
 * family spend half their time here: 0.84x per set in 64 bits). */
static inline __attribute__((always_inline)) void
edf_point(const sctx *s, const struct libdivide_u64_t *dv, rtp_ns x, rtp_ns *t, rtp_i128 *A,
          rtp_i128 *K, int *big, const int small)
{
    rtp_i128 sa = 0, sn = 0;
    rtp_ns sa64 = 0, sn64 = 0, b = 0, top = 0;
    if (!small)
        *big = 0;
    for (size_t i = 0; i < s->n; i++) {
        const rtp_task *k = &s->e[i];
        rtp_ns jobs = jobs_by(k, &dv[i], x);
        if (jobs == 0)
            continue;
        rtp_ns last = dstar(k) + (jobs - 1) * k->period_ns;
        if (last > top)
            top = last;
        if (small) {
            sa64 += jobs * k->wcet_ns;
            sn64 += jobs;
        } else if (!*big) {
            sa += (rtp_i128)jobs * k->wcet_ns;
            sn += jobs;
            *big = sa > BIG;
        }
        if (k->blocking_ns > b)
            b = k->blocking_ns;
    }
    *t = top;
    if (small) {
        *A = sa64;
        *K = (rtp_i128)(sn64 * s->c + b);
        return;
    }
    *big = *big || sn > BIG / (s->c + 1);
    *A = sa;
    *K = *big ? 0 : sn * s->c + b;
}

/* A(t) and K(t) = c N(t) + b(t): h(t) = a A(t) + K(t). */
static rtp_status edf_sums(sctx *s, rtp_ns t, rtp_i128 *A, rtp_i128 *K)
{
    rtp_i128 sa = 0, sn = 0;
    rtp_ns b = 0;
    for (size_t i = 0; i < s->n; i++) {
        const rtp_task *k = &s->e[i];
        rtp_ns d = dstar(k);
        if (d > t)
            continue;
        rtp_i128 jobs = (t - d) / k->period_ns + 1;
        sa += jobs * k->wcet_ns;
        sn += jobs;
        if (k->blocking_ns > b)
            b = k->blocking_ns;
        if (sa > BIG)
            return rtp_sens_too_big(s);
    }
    if (sn > BIG / (s->c + 1))
        return rtp_sens_too_big(s);
    *A = sa;
    *K = sn * s->c + b;
    return RTP_OK;
}

/* h(t) = a A(t) + c N(t) + b(t) into h. */
static rtp_status edf_load(sctx *s, const mpq_t a, rtp_ns t, mpq_t h, rtp_i128 *A, rtp_i128 *K)
{
    *A = *K = 0;
    rtp_status st = edf_sums(s, t, A, K);
    if (st != RTP_OK)
        return st;
    rtp_sens_qset(h, *A, 1);
    mpq_mul(h, h, a);
    mpq_t k;
    mpq_init(k);
    rtp_sens_qset(k, *K, 1);
    mpq_add(h, h, k);
    mpq_clear(k);
    return RTP_OK;
}

/* H + max(D*, t_B) + 1 with H the hyperperiod, 0 when that passes 2^62:
 * for t past H + max(D*, t_B), h(t) - t <= h(t - H) - (t - H) whenever U'
 * <= 1 (dbf gains U' H <= H over one hyperperiod, b is constant past
 * t_B), so a failure there implies one H earlier: every failure lies
 * below it, whatever the wcets. */
rtp_ns rtp_sens_edf_hyper_bound(const rtp_task *e, size_t n)
{
    rtp_ns hyper = 1, reach = 0;
    for (size_t i = 0; i < n; i++) {
        if (hyper > 0 && rtp_lcm(hyper, e[i].period_ns, &hyper) != RTP_OK)
            hyper = 0;
        if (dstar(&e[i]) > reach)
            reach = dstar(&e[i]); /* t_B is some D* too */
    }
    rtp_ns by_hyper = 0;
    if (hyper > 0 && rtp_add(hyper, reach, &by_hyper) == RTP_OK && by_hyper < RTP_NS_LIMIT)
        return by_hyper + 1;
    return 0;
}

/* An integer bound L with every failing t < L at alpha = a (U'(a) <= 1):
 * the smaller of H + max(D*, t_B) + 1 (when the hyperperiod H fits) and
 * La = (B + sum_{D* < T} (T - D*) U'_i) / (1 - U') rounded up when U' < 1
 * and it fits; with neither, and `busy`, the busy period Lb (least integer
 * w with ceil(sum ceil(w / T_i) C'_i) = w, an upper bound of the real one)
 * plus t_B; else 0. */
static rtp_status edf_bound(sctx *s, const mpq_t a, int busy, rtp_ns *bound)
{
    mpq_t u, num, term, cq;
    mpz_t z;
    mpq_inits(u, num, term, cq, NULL);
    mpz_init(z);
    rtp_status st = RTP_OK;
    rtp_ns bmax = 0, t_b = 0;
    for (size_t i = 0; i < s->n; i++) {
        const rtp_task *k = &s->e[i];
        rtp_sens_qset(cq, k->wcet_ns, 1);
        mpq_mul(cq, cq, a);
        rtp_sens_qset(term, s->c, 1);
        mpq_add(cq, cq, term); /* C'_i */
        rtp_sens_qset(term, k->period_ns, 1);
        mpq_div(term, cq, term); /* U'_i */
        mpq_add(u, u, term);
        if (dstar(k) < k->period_ns) {
            rtp_sens_qset(cq, k->period_ns - dstar(k), 1);
            mpq_mul(term, term, cq);
            mpq_add(num, num, term);
        }
        if (k->blocking_ns > bmax)
            bmax = k->blocking_ns;
        if (k->blocking_ns > 0 && dstar(k) > t_b)
            t_b = dstar(k);
    }
    rtp_ns by_hyper = rtp_sens_edf_hyper_bound(s->e, s->n);
    *bound = 0;
    if (mpq_cmp_ui(u, 1, 1) < 0) {
        rtp_sens_qset(term, bmax, 1);
        mpq_add(num, num, term);
        mpq_set_ui(term, 1, 1);
        mpq_sub(term, term, u);
        mpq_div(num, num, term);
        mpz_cdiv_q(z, mpq_numref(num), mpq_denref(num));
        if (mpz_cmp_si(z, RTP_NS_LIMIT) < 0)
            *bound = mpz_get_si(z) + 1;
    }
    if (by_hyper > 0 && (*bound == 0 || by_hyper < *bound))
        *bound = by_hyper;
    if (*bound == 0 && busy) {
        /* Lb: w <- ceil(sum ceil(w / T_i) C'_i) from ceil(sum C'_i). */
        rtp_ns w = 1;
        for (;;) {
            rtp_i128 sa = 0, sn = 0;
            for (size_t i = 0; i < s->n; i++) {
                rtp_i128 jobs = ((rtp_i128)w - 1) / s->e[i].period_ns + 1;
                sa += jobs * s->e[i].wcet_ns;
                sn += jobs;
            }
            if (sa > BIG || sn > BIG / (s->c + 1)) {
                st = rtp_sens_too_big(s);
                break;
            }
            rtp_sens_qset(term, sa, 1);
            mpq_mul(term, term, a);
            rtp_sens_qset(cq, sn * s->c, 1);
            mpq_add(term, term, cq);
            mpz_cdiv_q(z, mpq_numref(term), mpq_denref(term));
            if (mpz_cmp_si(z, RTP_NS_LIMIT) > 0) {
                st = rtp_diag_set(s->diag, RTP_ELIMIT, "",
                                  "critical scaling factor: EDF busy period passes 2^62 ns");
                break;
            }
            rtp_ns next = mpz_get_si(z);
            if (next <= w)
                break;
            w = next;
            if ((st = rtp_sens_spend(s)) != RTP_OK)
                break;
        }
        if (st == RTP_OK)
            *bound = w + t_b + 1;
    }
    mpz_clear(z);
    mpq_clears(u, num, term, cq, NULL);
    return st;
}

/* a = p / q in lowest terms as 128-bit integers when both fit a long
 * (small), read once for every step the walk takes at that a; else (alpha_U
 * itself, whose terms have the periods' lcm for a denominator) a in a
 * double for a first look at each comparison. */
typedef struct small_q {
    int small;
    rtp_i128 p, q;
    double d;
} small_q;

static small_q small_of(const mpq_t a)
{
    small_q f = {0, 0, 1, mpq_get_d(a)};
    if (mpz_fits_slong_p(mpq_numref(a)) && mpz_fits_slong_p(mpq_denref(a)))
        f = (small_q){1, mpz_get_si(mpq_numref(a)), mpz_get_si(mpq_denref(a)), f.d};
    return f;
}

/* sign(a A + K - t) for a = p / q in lowest terms, in 128 bits when p, q,
 * A, K, t all stay below 2^63 (each product below 2^126); else in doubles
 * when that is clear by more than their rounding (a's double within 2^-52
 * relative while it is a normal double, A, K and t within 2^-53, the
 * products and sums adding a few 2^-53 each: 2^-45 of the magnitudes
 * covers them; alpha_U can be as small as 1 / lcm T, below the doubles'
 * normal range), else exactly as the
 * integer sign(p A + q (K - t)) (no gcd: at alpha_U the walk spent most of
 * its time canonicalising rationals here). z: two scratch integers. */
static int over(const mpq_t a, small_q f, rtp_i128 A, rtp_i128 K, rtp_ns t, mpz_t z[2])
{
    const rtp_i128 lim = (rtp_i128)1 << 63;
    if (f.small && A < lim && K < lim) {
        rtp_i128 p = f.p, q = f.q;
        rtp_i128 l = p * A + q * K, r = q * t;
        return (l > r) - (l < r);
    }
    double ad = f.d * (double)A, v = ad + (double)K - (double)t;
    double err = (fabs(ad) + fabs((double)K) + fabs((double)t)) * 0x1p-45;
    if (f.d > 0x1p-1000 && isfinite(v) && isfinite(err) && fabs(v) > err)
        return v > 0 ? 1 : -1;
    rtp_sens_zset(z[0], A);
    mpz_mul(z[0], z[0], mpq_numref(a));
    rtp_sens_zset(z[1], K - t);
    mpz_addmul(z[0], z[1], mpq_denref(a));
    return mpz_sgn(z[0]);
}

/* floor(a A + K), known to be below t <= 2^62: floor(p A / q) + K. */
static rtp_ns load_floor(const mpq_t a, small_q f, rtp_i128 A, rtp_i128 K, mpz_t z[2])
{
    const rtp_i128 lim = (rtp_i128)1 << 63;
    if (f.small && A < lim && K < lim) {
        rtp_i128 p = f.p, q = f.q;
        return (rtp_ns)((p * A + q * K) / q); /* >= 0 */
    }
    rtp_sens_zset(z[0], A);
    mpz_mul(z[0], z[0], mpq_numref(a));
    mpz_fdiv_q(z[0], z[0], mpq_denref(a));
    return mpz_get_si(z[0]) + (rtp_ns)K;
}

/* QPA at alpha = a over the step points in [lo, bound): *failed = a
 * failing step point, or 0. With `lower`, a failing t instead lowers a to
 * its own f(t) = (t - K(t)) / A(t) and the walk goes on from t: h only falls
 * as a does, so every point passed stays passed, and at the end a passes
 * every point of [lo, bound) (Dinkelbach [Din67] in one walk); *failed is
 * then -1 when some f(t) <= 0 (no alpha > 0 passes), else 0. */
static rtp_status edf_walk(sctx *s, mpq_t a, int lower, rtp_ns lo, rtp_ns bound,
                           rtp_ns *failed, rtp_i128 *fa, rtp_i128 *fk)
{
    rtp_ns dmin = INT64_MAX;
    for (size_t i = 0; i < s->n; i++)
        if (dstar(&s->e[i]) < dmin)
            dmin = dstar(&s->e[i]);
    struct libdivide_u64_t *dv = dividers(s->e, s->n);
    if (!dv)
        return rtp_oom(s->diag);
    mpz_t scratch[2];
    mpz_inits(scratch[0], scratch[1], NULL);
    small_q f = small_of(a);
    rtp_status st = RTP_OK;
    rtp_ns t = 0;
    rtp_i128 A = 0, K = 0;
    int big = 0;
    edf_point(s, dv, bound - 1, &t, &A, &K, &big, 0);
    /* the walk's x only falls: 64 bits from here on when they fit, N(t)
     * below 2^62 too as c N <= K (c > 0) or N <= A (every wcet >= 1) */
    int small = !big && A < RTP_NS_LIMIT && K < RTP_NS_LIMIT;
    for (size_t i = 0; small && s->c == 0 && i < s->n; i++)
        small = s->e[i].wcet_ns >= 1;
    *failed = 0;
    while (t > 0 && t >= lo) {
        if ((st = rtp_sens_spend(s)) != RTP_OK)
            break;
        if (big) {
            st = rtp_sens_too_big(s);
            break;
        }
        int cmp = over(a, f, A, K, t, scratch);
        if (cmp > 0 && !lower) {
            *failed = t;
            *fa = A;
            *fk = K;
            break;
        }
        if (cmp > 0) {
            if (t - K <= 0) {
                *failed = -1;
                break;
            }
            rtp_sens_qset(a, t - K, A); /* now a A + K = t */
            f = small_of(a);
            cmp = 0;
        }
        if (over(a, f, A, K, dmin, scratch) <= 0)
            break; /* h(t) <= the smallest D*: nothing below t fails */
        rtp_ns x = cmp < 0 ? load_floor(a, f, A, K, scratch) : t - 1;
        if (small)
            edf_point(s, dv, x, &t, &A, &K, &big, 1);
        else
            edf_point(s, dv, x, &t, &A, &K, &big, 0);
    }
    mpz_clears(scratch[0], scratch[1], NULL);
    free(dv);
    return st;
}

/* QPA at alpha = a over the step points < bound. */
static rtp_status edf_qpa(sctx *s, const mpq_t a, rtp_ns bound, rtp_ns *failed,
                          rtp_i128 *fa, rtp_i128 *fk)
{
    return edf_walk(s, (mpq_ptr)a, 0, 1, bound, failed, fa, fk); /* read only: lower = 0 */
}

/* The exact check solver/edf_near.c asks for, at alpha = a: any failure,
 * or (lower) the walk that lowers a; and the search's K0 and eps at the
 * current a (they only tighten as a falls). */
typedef struct near_ctx {
    sctx *s;
    mpq_ptr a;
    int lower, none;     /* none: some f(t) <= 0 */
    rtp_i128 fa, fk;
    mpq_t k0, eps, seen; /* seen: the a they were computed at */
} near_ctx;

static rtp_status near_check(void *ctx, rtp_ns lo, rtp_ns hi, int want_first, rtp_ns *failed)
{
    near_ctx *c = ctx;
    (void)want_first;
    rtp_status st = edf_walk(c->s, c->a, c->lower, lo, hi + 1, failed, &c->fa, &c->fk);
    if (*failed < 0) {
        c->none = 1;
        *failed = lo; /* stops the search */
    }
    return st;
}

/* K0(a) = B + sum U'_i (T_i - D*_i) and eps(a) = 1 - sum U'_i, U'_i = (a
 * w_i + c) / T_i; 1 when a moved since the last call. */
static int near_refresh(void *ctx)
{
    near_ctx *c = ctx;
    if (mpq_equal(c->a, c->seen))
        return 0;
    mpq_set(c->seen, c->a);
    rtp_edf_near_terms(c->s->e, c->s->n, c->a, c->s->c, c->k0, c->eps, NULL);
    return 1;
}

/* The lattice search of solver/edf_near.c at alpha = a (U'(a) <= 1) over t
 * < min(La, cap): a failing t (lower = 0), or a lowered until none fails
 * (lower; *failed = -1 when no alpha > 0 passes); *decided = 0 when it
 * cannot cover every t (then nothing is known past what a says). */
static rtp_status edf_near(sctx *s, mpq_t a, int lower, rtp_ns cap, uint64_t steps,
                           int *decided, rtp_ns *failed, rtp_i128 *fa, rtp_i128 *fk)
{
    near_ctx c = {.s = s, .a = a, .lower = lower};
    mpq_inits(c.k0, c.eps, c.seen, NULL);
    mpq_set_si(c.seen, -1, 1);
    near_refresh(&c);
    /* at most `steps` of the budget: a lattice of structured periods can
     * hold many near-alignments, which the caller then settles otherwise.
     * At most 8 tasks in the lattice, as wcet_max's searches (wm_near: 7;
     * callgrind, the family's six slowest sets with wcet_max's at 7, the
     * factor's at 10 / 8 / 6: 1,797 / 1,576 / 1,589 M instructions) */
    uint64_t left = s->max > s->used ? s->max - s->used : 0;
    rtp_edf_budget b = {0, steps < left ? steps : left, NULL};
    rtp_edf_near_in in = {.tasks = s->e, .n = s->n, .alpha = a, .per_job_ns = s->c, .t_cap = cap,
                          .check = near_check, .check_ctx = &c, .b = &b, .k0 = c.k0,
                          .eps = c.eps, .refresh = near_refresh, .dims_max = 8};
    rtp_edf_near_result r;
    rtp_status st = rtp_edf_near(&in, &r, s->diag);
    s->used += b.used;
    mpq_clears(c.k0, c.eps, c.seen, NULL);
    if (st == RTP_ELIMIT && s->used < s->max) {
        /* only the share was spent; a candidate lowered meanwhile stays an
         * upper bound (it fell to failures' own factors) */
        rtp_diag_clear(s->diag);
        *decided = 0;
        *failed = c.none ? -1 : 0;
        return RTP_OK;
    }
    if (st == RTP_ELIMIT)
        return rtp_sens_out_of_steps(s);
    *decided = st == RTP_OK && (r.decided || c.none);
    *failed = st != RTP_OK ? 0 : c.none ? -1 : lower ? 0 : r.failed;
    *fa = c.fa;
    *fk = c.fk;
    return st;
}

/* Is the testing bound at alpha long enough for the lattice search? Past
 * 16 longest periods: below alpha_U the candidate sits just under a
 * failure's own factor, where U' is within a hair of 1 and QPA's steps are
 * about (1 - U') t long, so a walk over a bound of 16..2^14 periods visits
 * nearly every deadline (bench_analysis's family: 250-2,500 steps, 0.1-0.5 ms),
 * which the search skips (median 2.4x, p90 3.9x faster on that family;
 * the plain test keeps 2^14, solver/edf.c). */
static int near_one(const sctx *s, rtp_ns bound)
{
    rtp_ns longest = 1;
    for (size_t i = 0; i < s->n; i++)
        if (s->e[i].period_ns > longest)
            longest = s->e[i].period_ns;
    return bound / longest > ((rtp_ns)1 << 4);
}

/* At alpha_U the testing bound is the busy period at U' = 1, which can be
 * as long as the hyperperiod H; a failure, when there is one, is often near
 * one end of [0, H]: once every task has released, dbf(t + H) = dbf(t) + H
 * and b is constant, so h - t repeats with period H. Parts 0 and 2: QPA
 * over growing prefixes [0, L) (QPA decides "a failure below L" exactly for
 * any L; the common case, and cheaper than the residue decomposition), L =
 * base and 8 base (part 0), 64 and 512 base (part 2, after the lattice
 * search: at U' = 1 QPA's steps are short, and the long prefixes cost the
 * slowest sets of bench_analysis's family 4,000-28,000 steps, of which the
 * search needs a fraction when it finds the failure itself); part 1
 * (when that decomposition cannot decide): the step points just below H (t
 * = H - delta with delta = m T_i - D*_i ascending); each for a bounded
 * number of steps. *failed = a failing point, or 0. */
static rtp_status edf_probe(sctx *s, const mpq_t a, int part, rtp_ns *failed, rtp_i128 *fa,
                            rtp_i128 *fk)
{
    rtp_ns base = 1, hyper = 1;
    for (size_t i = 0; i < s->n; i++) {
        rtp_ns x = dstar(&s->e[i]) + s->e[i].period_ns;
        if (x > base)
            base = x;
        if (hyper > 0 && rtp_lcm(hyper, s->e[i].period_ns, &hyper) != RTP_OK)
            hyper = 0;
    }
    *failed = 0;
    rtp_status st = RTP_OK;
    const uint64_t max = s->max; /* each probe may use a quarter of what is left */
    s->max = s->used + (max - s->used) / 4;
    for (int round = 0; round < 4 && base < RTP_NS_LIMIT / 8 && !*failed && st == RTP_OK;
         round++, base *= 8)
        if (part == 0 ? round < 2 : part == 2 && round >= 2)
            st = edf_qpa(s, a, base, failed, fa, fk);
    s->max = max;
    if (st == RTP_ELIMIT) {
        st = RTP_OK; /* a probe ran out: not a verdict */
        *failed = 0;
        rtp_diag_clear(s->diag);
    }
    if (st != RTP_OK || *failed || hyper <= base || part != 1)
        return st;
    s->max = s->used + (max - s->used) / 4;
    rtp_ns *delta = malloc(s->n * sizeof *delta);
    if (!delta)
        return RTP_ENOMEM;
    for (size_t i = 0; i < s->n; i++) { /* the smallest m T_i - D*_i >= 0 */
        rtp_ns t = s->e[i].period_ns, d = dstar(&s->e[i]);
        delta[i] = (d + t - 1) / t * t - d;
    }
    mpq_t h, tq;
    mpq_inits(h, tq, NULL);
    for (int step = 0; step < 100000 && st == RTP_OK; step++) {
        rtp_ns dl = INT64_MAX;
        for (size_t i = 0; i < s->n; i++)
            if (delta[i] < dl)
                dl = delta[i];
        if (dl >= hyper - base)
            break; /* the prefixes covered the rest */
        for (size_t i = 0; i < s->n; i++)
            if (delta[i] == dl)
                delta[i] += s->e[i].period_ns;
        if ((st = rtp_sens_spend(s)) != RTP_OK || (st = edf_load(s, a, hyper - dl, h, fa, fk)) != RTP_OK)
            break;
        rtp_sens_qset(tq, hyper - dl, 1);
        if (mpq_cmp(h, tq) > 0) {
            *failed = hyper - dl;
            break;
        }
    }
    mpq_clears(h, tq, NULL);
    free(delta);
    s->max = max;
    if (st == RTP_ELIMIT) {
        st = RTP_OK;
        rtp_diag_clear(s->diag);
    }
    return st;
}

/* At alpha_U (U' = 1): the step points below T0 = max D* by QPA, every t
 * >= T0 at once by solver/edf_tail.c. *decided = 1 with *failed = 0 (no
 * failure: alpha* = alpha_U) or a failing point and its A, K; *decided = 0
 * when the tail was not decided (too costly, or its failure lies past
 * 2^62 ns): the caller probes and walks the busy period. */
static rtp_status edf_at_one(sctx *s, const mpq_t a, int quick, int *decided, rtp_ns *failed,
                             rtp_i128 *fa, rtp_i128 *fk)
{
    rtp_ns t0 = 0;
    for (size_t i = 0; i < s->n; i++)
        if (dstar(&s->e[i]) > t0)
            t0 = dstar(&s->e[i]);
    *decided = 0;
    rtp_status st = edf_qpa(s, a, t0, failed, fa, fk);
    if (st != RTP_OK || *failed) {
        *decided = st == RTP_OK;
        return st;
    }
    /* the decomposition in rationals costs a microsecond or so a step:
     * quick, beyond 2^16 steps the lattice search (edf_near) goes first */
    rtp_ns tail = 0;
    uint64_t cap = s->max;
    if (quick && s->used + ((uint64_t)1 << 16) < s->max)
        cap = s->used + ((uint64_t)1 << 16);
    st = rtp_edf_tail(s->e, s->n, s->c, a, t0, &s->used, cap, decided, &tail);
    if (st == RTP_ELIMIT && quick && s->used < s->max) {
        *decided = 0; /* only the quick cap was spent */
        return RTP_OK;
    }
    if (st == RTP_ELIMIT)
        st = rtp_sens_out_of_steps(s);
    if (st != RTP_OK || !*decided)
        return st;
    if (tail < 0) {
        *decided = 0;
        return RTP_OK;
    }
    *failed = tail;
    if (tail > 0) {
        mpq_t h;
        mpq_init(h);
        st = edf_load(s, a, tail, h, fa, fk);
        mpq_clear(h);
    }
    return st;
}

/* An upper bound of La at alpha = a: when U'(a) < 1 every failing t lies
 * below (B + sum U'_i (T_i - D*_i)^+) / (1 - U'(a)) [ZB09] (edf_bound's La),
 * here in doubles with margins of 1e-9 relative (a rounded up, each sum
 * within n x 2^-53 of its value), so never below it; RTP_NS_LIMIT when
 * U'(a) may reach 1 or the bound passes 2^62. */
static rtp_ns la_upper(const sctx *s, const mpq_t a)
{
    double ad = mpq_get_d(a) * (1 + 1e-12), u = 0, k0 = 0, b = 0;
    for (size_t i = 0; i < s->n; i++) {
        const rtp_task *k = &s->e[i];
        double t = (double)k->period_ns, ui = (ad * (double)k->wcet_ns + (double)s->c) / t;
        u += ui;
        if (dstar(k) < k->period_ns)
            k0 += ui * (double)(k->period_ns - dstar(k));
        if ((double)k->blocking_ns > b)
            b = (double)k->blocking_ns;
    }
    double den = (1 - u) - 1e-9 * (1 + u);
    if (!(den > 0))
        return RTP_NS_LIMIT;
    double q = ((b + k0) * (1 + 1e-9) + 1) / den * (1 + 1e-9) + 2;
    return q < 0x1p62 ? (rtp_ns)ceil(q) : RTP_NS_LIMIT;
}

/* From a candidate a >= alpha* (alpha_U or a failure's own factor), before
 * the lattice search: the lowering walk over [1, 2 T_max] and then
 * doubling ranges (L, 2 L], each only as far as La at the candidate it
 * leaves (la_upper: none at U' = 1; a failure lowers the candidate, and La
 * with it), up to 64 longest periods, the hyperperiod bound and 2^14
 * steps. *decided = 1 when every t below La (or the hyperperiod bound) was
 * walked: the candidate is alpha* (*failed = 0), or no alpha > 0 passes
 * (*failed = -1); else the candidate is still an upper bound of alpha*
 * and the caller goes on. Family of bench_analysis (300 sets), against
 * the probes at alpha_U and the lattice search below it: the factor's
 * median 185 -> 54-65 us, the same factors. */
static rtp_status edf_doubling(sctx *s, mpq_t a, int *decided, rtp_ns *failed, rtp_i128 *fa,
                               rtp_i128 *fk)
{
    rtp_ns longest = 1, covered = 0, hb = rtp_sens_edf_hyper_bound(s->e, s->n);
    for (size_t i = 0; i < s->n; i++)
        if (s->e[i].period_ns > longest)
            longest = s->e[i].period_ns;
    rtp_ns cap = longest < RTP_NS_LIMIT / 64 ? 64 * longest : RTP_NS_LIMIT;
    if (hb > 0 && hb < cap)
        cap = hb;
    const uint64_t max = s->max;
    if (s->used + ((uint64_t)1 << 14) < max)
        s->max = s->used + ((uint64_t)1 << 14);
    rtp_status st = RTP_OK;
    *decided = 0;
    *failed = 0;
    for (;;) {
        rtp_ns la = la_upper(s, a); /* RTP_NS_LIMIT: none known, not a bound */
        if ((la < RTP_NS_LIMIT && la - 1 <= covered) || (hb > 0 && hb - 1 <= covered)) {
            *decided = 1;
            break;
        }
        rtp_ns hi = covered == 0 ? 2 * longest : 2 * covered;
        if (hi > la - 1)
            hi = la - 1;
        if (hi <= covered || hi > cap ||
            (st = edf_walk(s, a, 1, covered + 1, hi + 1, failed, fa, fk)) != RTP_OK)
            break; /* hi <= covered: 2^62 reached, La unknown */
        covered = hi;
        if (*failed < 0) {
            *decided = 1;
            break;
        }
    }
    s->max = max;
    if (st == RTP_ELIMIT && s->used <= max) {
        st = RTP_OK; /* only the share was spent: the candidate stays an upper bound */
        *failed = 0;
        rtp_diag_clear(s->diag);
    }
    return st;
}

/* At alpha_U (U' = 1) when the walks found no failure: short prefixes, the
 * residues when cheap, the lattice search below 2^62 ns, long prefixes,
 * the residues with the whole budget, the far end of the hyperperiod, the
 * busy period. *failed = a failing point (its A, K), or 0: none at all. */
static rtp_status edf_at_u(sctx *s, mpq_t out, rtp_ns *failed, rtp_i128 *A, rtp_i128 *K)
{
    rtp_ns bound = 0;
    int decided = 0;
    *failed = 0;
    rtp_status st = edf_probe(s, out, 0, failed, A, K);
    if (st == RTP_OK && !*failed)
        st = edf_at_one(s, out, 1, &decided, failed, A, K);
    if (st == RTP_OK && !*failed && !decided)
        st = edf_near(s, out, 0, RTP_NS_LIMIT, (uint64_t)1 << 20, &decided, failed, A, K);
    if (st == RTP_OK && !*failed && !decided)
        st = edf_probe(s, out, 2, failed, A, K);
    if (st == RTP_OK && !*failed && !decided)
        st = edf_at_one(s, out, 0, &decided, failed, A, K);
    if (st == RTP_OK && !*failed && !decided)
        st = edf_probe(s, out, 1, failed, A, K);
    if (st == RTP_OK && !*failed && !decided) {
        if ((st = edf_bound(s, out, 1, &bound)) == RTP_ELIMIT) {
            char dec[64];
            rtp_sens_format_decimal(out, dec, sizeof dec);
            return rtp_diag_set(s->diag, RTP_ELIMIT, "",
                                "critical scaling factor: no deadline fails below 2^62 ns at "
                                "%s (the factor giving U' = 1, an upper bound), and the busy "
                                "period at U' = 1 that would confirm it is past %llu steps "
                                "(--max-iterations)", dec, (unsigned long long)s->max);
        }
        if (st == RTP_OK)
            st = edf_qpa(s, out, bound, failed, A, K);
    }
    return st;
}

rtp_status rtp_sens_edf(sctx *s, mpq_t out, int *exists)
{
    *exists = 0;
    int loose = 1;
    for (size_t i = 0; i < s->n; i++) {
        if (dstar(&s->e[i]) <= 0)
            return RTP_OK;
        loose = loose && dstar(&s->e[i]) >= s->e[i].period_ns && s->e[i].blocking_ns == 0;
    }
    if (!rtp_sens_util_alpha(s, NULL, out))
        return RTP_OK;
    *exists = loose; /* every D* >= T, no blocking: alpha* = alpha_U */
    if (loose)
        return RTP_OK;
    /* First the lowering walks over doubling ranges at alpha_U itself: at
     * U' = 1 most sets fail within a few longest periods, and the walk
     * lowers the candidate there and goes on below alpha_U. */
    rtp_ns bound = 0, failed = 0;
    rtp_i128 A = 0, K = 0;
    int decided = 0;
    mpq_t alpha_u;
    mpq_init(alpha_u);
    mpq_set(alpha_u, out);
    rtp_status st = edf_doubling(s, out, &decided, &failed, &A, &K);
    int lowered = mpq_cmp(out, alpha_u) < 0;
    mpq_clear(alpha_u);
    if (st == RTP_OK && !decided && !lowered) {
        /* nothing failed there: alpha_U's own search, then the walks from
         * the first failure's factor */
        if ((st = edf_at_u(s, out, &failed, &A, &K)) != RTP_OK || failed == 0) {
            *exists = st == RTP_OK;
            return st; /* no failure: alpha* = alpha_U */
        }
        if (failed - K <= 0)
            return RTP_OK; /* alpha A(t) + K(t) <= t needs alpha <= 0 */
        rtp_sens_qset(out, failed - K, A); /* f(t) < alpha_U */
        st = edf_doubling(s, out, &decided, &failed, &A, &K);
    }
    if (st != RTP_OK || decided) {
        *exists = st == RTP_OK && failed >= 0;
        return st;
    }
    /* Below alpha_U, past the walks: the lattice search where the testing
     * bound is past 16 periods or 2^62, QPA below the bound otherwise, both
     * lowering the candidate at every failing t they meet. */
    if ((st = edf_bound(s, out, 0, &bound)) == RTP_OK && (bound == 0 || near_one(s, bound)))
        st = edf_near(s, out, 1, RTP_NS_LIMIT, s->max / 2, &decided, &failed, &A, &K);
    if (st == RTP_OK && !decided && (st = edf_bound(s, out, 1, &bound)) == RTP_OK)
        st = edf_walk(s, out, 1, 1, bound, &failed, &A, &K);
    *exists = st == RTP_OK && failed >= 0;
    return st;
}
