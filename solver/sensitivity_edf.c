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
#include "solver/sensitivity_internal.h"
#include "solver/edf.h"
#include "solver/edf_internal.h"
#include "solver/edf_near.h"
#include "solver/edf_tail.h"

#include "models/arith.h"

#include <libdivide.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static rtp_ns dstar(const rtp_task *t)
{
    return t->deadline_ns - t->jitter_ns;
}

/* The walks' jobs n_i(t) = floor((t - D*_i) / T_i) + 1 divide by the
 * same periods at every step: libdivide's reciprocals of them (a
 * multiplication and a shift), computed once per walk. Alone, 20 tasks'
 * counts at random t of 0.1-20 s, periods 1-100 ms: 26 ns against 51 ns
 * with the division instruction and 43 ns with a hand-written
 * multiply-shift (Granlund-Montgomery; its 128-bit shift by a variable
 * count is the cost). In the walks the division was not what a step costs
 * (bench_analysis's family, 300 sets, per set against the division: the
 * factor's walks the same, wcet_max's 4% faster at the median); NULL when
 * out of memory. */
static struct libdivide_u64_t *dividers(const rtp_task *e, size_t n)
{
    struct libdivide_u64_t *dv = malloc((n ? n : 1) * sizeof *dv);
    for (size_t i = 0; dv && i < n; i++)
        dv[i] = libdivide_u64_gen((uint64_t)e[i].period_ns);
    return dv;
}

/* n_i(t): jobs of task k (divider dv) due by t. */
static inline rtp_ns jobs_by(const rtp_task *k, const struct libdivide_u64_t *dv, rtp_ns t)
{
    rtp_ns d = dstar(k);
    return t < d ? 0 : (rtp_ns)libdivide_u64_do((uint64_t)(t - d), dv) + 1;
}

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
static rtp_ns hyper_bound(const rtp_task *e, size_t n)
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
    rtp_ns by_hyper = hyper_bound(s->e, s->n);
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
    rtp_ns longest = 1, covered = 0, hb = hyper_bound(s->e, s->n);
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

/* ------------------------------------------------------------- wcet_max */

/* U of the set in fixed point, 64 fraction bits, each term rounded down:
 * sum floor(C_i 2^64 / T_i), within n of U 2^64 below it (C_i <= 2^62:
 * each numerator at most 2^126). The setup's bounds in 128 bits instead of
 * GMP rationals (whose common denominator grows with every period). */
static rtp_i128 util_fixed(const rtp_task *e, size_t n)
{
    rtp_i128 f = 0;
    for (size_t i = 0; i < n; i++)
        f += (rtp_i128)(((unsigned __int128)e[i].wcet_ns << 64) / (uint64_t)e[i].period_ns);
    return f;
}

/* floor((1 - U) T_k) (U <= 1) into *room; 0 when the fixed point of U
 * (util_fixed's u) leaves it open: (1 - U) T_k 2^64 lies in [T_k (2^64 -
 * u - n), T_k (2^64 - u)], whose ends' floors then differ. */
static int util_room(const rtp_task *k, rtp_i128 u, size_t n, rtp_ns *room)
{
    rtp_i128 hi = (rtp_i128)k->period_ns * (((rtp_i128)1 << 64) - u); /* below 2^126 */
    rtp_i128 lo = hi - (rtp_i128)k->period_ns * (rtp_i128)n;
    if ((hi >> 64) != (lo >> 64)) /* arithmetic shift: floor */
        return 0;
    *room = (rtp_ns)(hi >> 64);
    return 1;
}

/* The linear envelope of the set as given: h(t) <= (1 - eps) t + k0 for
 * every t >= 0, with eps = 1 - U and k0 = B + sum U_i (T_i - D*_i)^+
 * (dbf_i(t) <= U_i (t + (T_i - D*_i)^+), b <= B), in doubles: eps from
 * util_fixed's u rounded down (within n 2^-64), k0 with each term rounded
 * up to the ns (within n ns), then each within half an ulp. A smaller eps
 * and a larger k0 only raise a reach (task_reach), so only the last
 * rounding counts, which its margins cover. */
typedef struct wm_lin {
    double k0, eps;
} wm_lin;

static wm_lin lin_terms(const rtp_task *e, size_t n, rtp_i128 u)
{
    rtp_i128 k0 = 0;
    rtp_ns bmax = 0;
    for (size_t i = 0; i < n; i++) {
        rtp_ns slack = e[i].period_ns - dstar(&e[i]);
        if (slack > 0) /* ceil(C (T - D*) / T), C (T - D*) below 2^124 */
            k0 += ((rtp_i128)e[i].wcet_ns * slack + e[i].period_ns - 1) / e[i].period_ns;
        if (e[i].blocking_ns > bmax)
            bmax = e[i].blocking_ns;
    }
    k0 += bmax;
    rtp_i128 eps = ((rtp_i128)1 << 64) - u - (rtp_i128)n;
    wm_lin l = {(double)k0, (double)eps * 0x1p-64};
    return l;
}

/* reach_k: no t >= reach_k has h(t) + delta n_k(t) > t (task k, raised by
 * delta, fails nowhere there). A failure needs t >= D*_k, where n_k(t) <=
 * (t + (T_k - D*_k)^+) / T_k, so with x = delta / T_k it needs
 * (eps - x) t < k0 + x (T_k - D*_k)^+: reach_k = that bound rounded up
 * when eps > x, else RTP_NS_LIMIT (none below 2^62). delta = 0: the set's
 * own testing bound La [ZB09]. Computed in doubles as an upper bound with
 * margins of 1e-9 relative (each operation rounds by 2^-53 relative, the
 * inputs are within an ulp: a million times smaller), so a reach is never
 * below the exact bound; it only limits where the walks look. */
static rtp_ns task_reach(const wm_lin *l, const rtp_task *t, rtp_ns delta)
{
    double x = (double)delta / (double)t->period_ns;
    double c = dstar(t) < t->period_ns ? (double)(t->period_ns - dstar(t)) * x : 0;
    double den = (l->eps - x) - 1e-9 * (l->eps + x);
    if (!(den > 0))
        return RTP_NS_LIMIT;
    double q = ((l->k0 + c) * (1 + 1e-9) + 1) / den * (1 + 1e-9) + 1;
    return q < 0x1p62 ? (rtp_ns)ceil(q) : RTP_NS_LIMIT;
}

/* reach[k] of every task (0 where delta_k = 0: it cannot fail); the
 * largest of them. */
static rtp_ns all_reach(const wm_lin *l, const rtp_task *e, size_t n, const rtp_ns *delta,
                        rtp_ns *reach)
{
    rtp_ns top = 0;
    for (size_t k = 0; k < n; k++) {
        reach[k] = delta[k] > 0 ? task_reach(l, &e[k], delta[k]) : 0;
        if (reach[k] > top)
            top = reach[k];
    }
    return top;
}

/* Each task's own window: task k raised by delta_k fails at t only where
 * n_k(t) = j >= 1 and
 *   t - B - sum_{i != k} U_i (t + (T_i - D*_i)^+) - (C_k + delta_k) j < 0,
 * as dbf_i(t) <= U_i (t + (T_i - D*_i)^+) for every i and t >= 0 [BRH90],
 * b(t) <= B, and k's own demand is exactly (C_k + delta_k) j. With d_j =
 * D*_k + (j - 1) T_k its j-th deadline and t = d_j + m, that is
 *   m < M_j = (K_k + (C_k + delta_k) j) / (1 - U_k') - d_j,
 * K_k = B + sum_{i != k} U_i (T_i - D*_i)^+, U_k' = sum_{i != k} U_i: only
 * the first M_j ns of each interval of k can fail for k (M_j = 0 at k's
 * reach, task_reach). Past a few longest periods, where the deltas keep
 * U' within a hair of 1, M_j falls by T_k (1 - U') / (1 - U_k') a job and
 * the windows are a small part of each period. ko[k] >= K_k and inv[k] >=
 * 1 / (1 - U_k') as doubles (0: not known, no window): both from
 * integers, K_k as B + the sum of ceil(C_i (T_i - D*_i)^+ / T_i) over i !=
 * k, 1 - U_k' >= (2^64 - u - n + u_k) 2^-64 with u = util_fixed's sum
 * (each term rounded down, so U <= (u + n) 2^-64) and u_k = floor(C_k
 * 2^64 / T_k) <= U_k 2^64; each conversion and operation after that
 * rounds by 2^-53 relative, covered by the margins of 1e-12 (win_m). */
typedef struct wm_win {
    double *ko, *inv;
    /* the companion window (win_companion): c1, c2 the tasks of the two
     * largest wcets, and per task k its terms at delta `at` */
    size_t n, c1, c2;
    rtp_i128 eps_fix, *kc; /* (2^64 - u - n), K_c as an integer */
    double *cadd, *cinv;
    rtp_ns *at;
} wm_win;

static void win_free(wm_win *w)
{
    free(w->ko);
    free(w->kc);
    free(w->at);
    w->ko = NULL;
    w->kc = NULL;
    w->at = NULL;
}

static int win_terms(const rtp_task *e, size_t n, rtp_i128 u, wm_win *w)
{
    size_t m = n ? n : 1;
    w->ko = malloc(4 * m * sizeof *w->ko);
    w->kc = malloc(m * sizeof *w->kc);
    w->at = malloc(m * sizeof *w->at);
    if (!w->ko || !w->kc || !w->at) {
        win_free(w);
        return 0;
    }
    w->inv = w->ko + m;
    w->cadd = w->ko + 2 * m;
    w->cinv = w->ko + 3 * m;
    rtp_i128 k0 = 0;
    rtp_ns bmax = 0;
    w->n = w->c1 = w->c2 = n;
    for (size_t i = 0; i < n; i++) {
        if (e[i].blocking_ns > bmax)
            bmax = e[i].blocking_ns;
        if (w->c1 == n || e[i].wcet_ns > e[w->c1].wcet_ns) {
            w->c2 = w->c1;
            w->c1 = i;
        } else if (w->c2 == n || e[i].wcet_ns > e[w->c2].wcet_ns) {
            w->c2 = i;
        }
    }
    for (size_t i = 0; i < n; i++) {
        rtp_ns slack = e[i].period_ns - dstar(&e[i]);
        if (slack > 0) /* below 2^124 */
            k0 += ((rtp_i128)e[i].wcet_ns * slack + e[i].period_ns - 1) / e[i].period_ns;
    }
    w->eps_fix = ((rtp_i128)1 << 64) - u - (rtp_i128)n;
    for (size_t k = 0; k < n; k++) {
        rtp_ns slack = e[k].period_ns - dstar(&e[k]);
        rtp_i128 own = slack > 0 ? ((rtp_i128)e[k].wcet_ns * slack + e[k].period_ns - 1) /
                                       e[k].period_ns
                                 : 0;
        w->kc[k] = k0 - own + bmax;
        w->ko[k] = (double)w->kc[k] * (1 + 1e-12) + 1;
        rtp_i128 uk = (rtp_i128)(((unsigned __int128)e[k].wcet_ns << 64) /
                                 (uint64_t)e[k].period_ns);
        rtp_i128 g = w->eps_fix + uk; /* (1 - U_k') 2^64 or less */
        w->inv[k] = g > 0 ? 0x1p64 / (double)g * (1 + 1e-12) : 0;
        w->at[k] = -1;
    }
    return 1;
}

/* The companion window of task k: with c != k the task of the largest
 * wcet (c1, else c2), k raised by delta fails at t only where
 *   t (1 - U + U_c - x_k) < K_c + x_k (T_k - D*_k)^+ + C_c n_c(t),
 * x_k = delta / T_k: dbf_i(t) <= U_i (t + (T_i - D*_i)^+) for i != c
 * (k included), delta n_k(t) <= x_k (t + (T_k - D*_k)^+), b <= B, and c's
 * demand exactly. A second necessary condition beside k's own window,
 * in c's intervals: the largest t' <= t where it may hold, t when t
 * does. The left factor from integers, (2^64 - u - n) + floor(C_c 2^64 /
 * T_c) - ceil(delta 2^64 / T_k) <= it 2^64 (its inverse then rounded up
 * by 1e-12, as in win_terms), K_c as in win_terms, x_k (T_k - D*_k)^+
 * rounded up to the ns; recomputed when delta moved. */
static rtp_ns win_companion(wm_win *w, const rtp_task *e, const struct libdivide_u64_t *dv,
                            size_t k, rtp_ns delta, rtp_ns t)
{
    size_t c = w->c1 != k ? w->c1 : w->c2;
    if (c >= w->n)
        return t; /* fewer than two tasks */
    if (w->at[k] != delta) {
        w->at[k] = delta;
        const rtp_task *tk = &e[k], *tc = &e[c];
        rtp_ns slack = tk->period_ns - dstar(tk);
        rtp_i128 xp = slack > 0 ? ((rtp_i128)delta * slack + tk->period_ns - 1) / tk->period_ns
                                : 0;
        rtp_i128 xf = (rtp_i128)((((unsigned __int128)delta << 64) + (uint64_t)tk->period_ns - 1) /
                                 (uint64_t)tk->period_ns);
        rtp_i128 uc = (rtp_i128)(((unsigned __int128)tc->wcet_ns << 64) /
                                 (uint64_t)tc->period_ns);
        rtp_i128 g = w->eps_fix + uc - xf;
        w->cinv[k] = g > 0 ? 0x1p64 / (double)g * (1 + 1e-12) : 0;
        w->cadd[k] = (double)(w->kc[c] + xp) * (1 + 1e-12) + 1;
    }
    if (w->cinv[k] == 0)
        return t;
    const rtp_task *tc = &e[c];
    rtp_ns j = jobs_by(tc, &dv[c], t);
    double q = (w->cadd[k] + (double)tc->wcet_ns * (double)j) * w->cinv[k] * (1 + 1e-12) + 1;
    if ((double)t < q)
        return t;
    rtp_ns d = j > 0 ? dstar(tc) + (j - 1) * tc->period_ns : 0;
    rtp_ns end = (rtp_ns)ceil(q) - 1; /* every t' that may hold is below q */
    return end >= d ? end : d - 1 < 0 ? 0 : d - 1;
}

/* M_j of task k (delta) rounded up: q within a few 2^-53 of (K_k + (C_k
 * + delta) j) / (1 - U_k') or above it, the subtraction within 2^-52 of
 * |q| + d_j, both covered by 1e-12 of them. */
static double win_m(const wm_win *w, const rtp_task *k, size_t ki, rtp_ns delta, rtp_ns j)
{
    rtp_ns d = dstar(k) + (j - 1) * k->period_ns;
    double q = (w->ko[ki] + (double)(k->wcet_ns + delta) * (double)j) * w->inv[ki] * (1 + 1e-12);
    return (q - (double)d) + (q + (double)d) * 1e-12 + 1;
}

/* The largest t' <= t where task k (delta, j = n_k(t) >= 1 jobs due by t)
 * may fail: t itself when t - d_j < M_j may hold; else the end of a
 * window below t. M_j falls with j by T_k (1 - U - delta / T_k) / (1 -
 * U_k') >= 0 a job (delta <= (1 - U) T_k), so past an empty window
 * (M_j <= 0) the next one down is at the first j' < j with M_j' > 0: j'
 * from that slope in doubles, checked by M_{j'+1} <= 0 rounded up (else
 * j' = j - 1); the windows of j' + 1 .. j are then all empty. */
static rtp_ns win_limit(const wm_win *w, const rtp_task *k, size_t ki, rtp_ns delta, rtp_ns j,
                        rtp_ns t)
{
    if (w->inv[ki] == 0)
        return t;
    rtp_ns p = k->period_ns, d = dstar(k) + (j - 1) * p;
    double mj = win_m(w, k, ki, delta, j);
    if ((double)(t - d) < mj)
        return t;
    if (mj > 0)
        return d + (rtp_ns)ceil(mj) - 1;
    rtp_ns down = 1; /* j' = j - down */
    double slope = (double)p - (double)(k->wcet_ns + delta) * w->inv[ki];
    if (slope > 0 && -mj / slope < (double)j) {
        rtp_ns r = (rtp_ns)(-mj / slope) + 1;
        if (r > 1 && r < j && !(win_m(w, k, ki, delta, j - r + 1) > 0))
            down = r;
    }
    if (down >= j)
        return 0; /* j' = 0: no job of k due, the set as given passes */
    j -= down;
    d = dstar(k) + (j - 1) * p;
    mj = win_m(w, k, ki, delta, j);
    if (!(mj > 0))
        return d + p - 1; /* the estimate fell short: the interval's end */
    return mj < (double)p ? d + (rtp_ns)ceil(mj) - 1 : d + p - 1;
}

/* dbf(t) as rtp_edf_load, saturated at RTP_I128_SATURATED, with each
 * task's jobs due by t into jobs[] (dv: dividers). The walk asks for b(t)
 * and the step point below t apart: b is constant past the largest D*,
 * and the step point is needed only where h(t) = t. With `small` (the
 * caller knows dbf(t) < 2^62), in 64 bits: every term is at most the sum. */
static rtp_i128 load_jobs(const rtp_task *e, const struct libdivide_u64_t *dv, size_t n, rtp_ns t,
                          rtp_ns *jobs, int small)
{
    if (small) {
        rtp_ns h = 0;
        for (size_t i = 0; i < n; i++) {
            jobs[i] = jobs_by(&e[i], &dv[i], t);
            h += jobs[i] * e[i].wcet_ns;
        }
        return h;
    }
    rtp_i128 h = 0;
    for (size_t i = 0; i < n; i++) {
        jobs[i] = jobs_by(&e[i], &dv[i], t);
        if (h < RTP_I128_SATURATED)
            h += (rtp_i128)jobs[i] * e[i].wcet_ns;
    }
    return h > RTP_I128_SATURATED ? RTP_I128_SATURATED : h;
}

/* One QPA walk [ZB09] over [lo, bound] of h*(t) = h(t) + max_{k in set}
 * delta_k n_k(t), a non-decreasing step function stepping only at demand
 * step points (a maximum of such), lowering each delta_k violated at a
 * failing t to floor((t - h(t)) / n_k(t)): that lowers h* everywhere, so
 * every point already passed stays passed, and the walk goes on from t.
 * With reach (task_reach of each delta, or larger; NULL: none known), the
 * jump from t leaves out the tasks with reach_k <= h(t): every t' in [j, t],
 * j = h(t) + the largest delta_k n_k(t) of the others, passes, as a task
 * left out fails nowhere at t' >= h(t) and every other has h(t') + delta_k
 * n_k(t') <= h(t) + delta_k n_k(t) <= j <= t'. Lowered deltas keep their
 * reach valid (reach_k only grows with delta_k). A task with reach_k <= lo
 * fails nowhere in [lo, bound]: the walk leaves it out altogether (a jump
 * it would have shortened lands at j >= lo, or ends the walk), so the
 * walks past two longest periods, where few tasks reach, look at those
 * few per step (bench_analysis's family: see the commit). The deltas it
 * ends with do not depend on the points it visits: each is the least of
 * its start and floor((t - h(t)) / n_k(t)) over the failing t of [lo,
 * bound], as every value it takes is one of these and every t passes at
 * the end (so do the windows below: they skip only points where no
 * active task can fail with its current delta, hence none with the
 * final, smaller one).
 * With win (NULL: none) and at most three active tasks, before h(t): a t
 * outside every active task's windows (its own, win_limit, and the
 * companion's, win_companion; both necessary for a failure) goes on to
 * the largest t' < t inside them, which every skipped point passes. Only
 * with few tasks active: each window costs a division and a few products,
 * and with many active t is nearly always inside one (bench_sens_edf's
 * family, the 61 sets around the median: callgrind instructions of
 * wcet_max 0.87x with three, 0.88x with two, 0.89x with six, 1.6x with
 * every task). */
#define WIN_MAX 3
static rtp_status combined_walk(const rtp_task *e, const struct libdivide_u64_t *dv, size_t n,
                                rtp_ns *delta, const char *in, const rtp_ns *reach,
                                wm_win *win, rtp_ns lo, rtp_ns bound,
                                rtp_edf_budget *bud, rtp_diag *diag)
{
    rtp_ns b = 0, d_min = INT64_MAX, d_max = 0;
    for (size_t i = 0; i < n; i++) {
        if (e[i].blocking_ns > b)
            b = e[i].blocking_ns;
        if (dstar(&e[i]) < d_min)
            d_min = dstar(&e[i]);
        if (dstar(&e[i]) > d_max)
            d_max = dstar(&e[i]);
    }
    rtp_ns *jobs = malloc((n ? n : 1) * sizeof *jobs);
    size_t *act = malloc((n ? n : 1) * sizeof *act), na = 0; /* the tasks that can fail */
    if (!jobs || !act) {
        free(jobs);
        free(act);
        return rtp_oom(diag);
    }
    for (size_t k = 0; k < n; k++)
        if (in[k] && (!reach || reach[k] > lo))
            act[na++] = k;
    rtp_status st = RTP_OK;
    rtp_ns t = rtp_edf_prev_deadline(e, n, bound + 1);
    /* dbf only falls as t does: 64 bits below 2^62 at the first t */
    int small = t > 0 && load_jobs(e, dv, n, t, jobs, 0) < RTP_NS_LIMIT;
    while (t > 0 && t >= lo) {
        if (rtp_edf_spend(bud, diag, "wcet_max: EDF QPA did not finish")) {
            st = RTP_ELIMIT;
            break;
        }
        if (win && na <= WIN_MAX) {
            /* outside every active task's window: on to the largest t' < t
             * inside one (nothing between fails), without h(t) */
            rtp_ns next = 0;
            for (size_t a = 0; a < na && next < t; a++) {
                size_t k = act[a];
                rtp_ns j = jobs_by(&e[k], &dv[k], t);
                rtp_ns c = j > 0 ? win_limit(win, &e[k], k, delta[k], j, t) : 0;
                if (c == t)
                    c = win_companion(win, e, dv, k, delta[k], t);
                if (c > next)
                    next = c;
            }
            if (next < t) {
                t = next;
                continue;
            }
        }
        rtp_i128 h = load_jobs(e, dv, n, t, jobs, small);
        if (b > 0) /* b(t) = B from the largest D* on */
            h += t >= d_max ? b : rtp_edf_blocking(e, n, t);
        /* h(t) <= t: the set as given passes (rtp_sensitivity_wcet_max
         * asks first); in 64 bits (the same values as in 128, which took a
         * third of the walks' time at the median set of bench_analysis's
         * family: see the commit): 0 <= t - h(t) < 2^62, and delta_k n_k(t)
         * < 2^63, since delta_k <= (1 - U) T_k < T_k and n_k(t) <= t / T_k
         * + 1. Were h to pass t (it cannot), every delta_k would fall to 0
         * there: on the safe side. */
        rtp_ns room = h > t ? 0 : (rtp_ns)(t - h), extra = 0, hn = h > t ? t : (rtp_ns)h;
        for (size_t a = 0; a < na; a++) {
            size_t k = act[a];
            rtp_ns need = delta[k] * jobs[k];
            if (need > room) {
                delta[k] = room / jobs[k];
                need = delta[k] * jobs[k];
            }
            if (need > extra && (!reach || reach[k] > hn))
                extra = need;
        }
        h += extra;
        if (h <= d_min)
            break;
        t = h < t ? (rtp_ns)h : rtp_edf_prev_deadline(e, n, t);
    }
    free(jobs);
    free(act);
    return st;
}

/* The walk past L0 (below): K* and eta of the relaxation every failure
 * satisfies, from the current deltas, and the exact check of a run. */
typedef struct wm_ctx {
    const rtp_task *e;
    const struct libdivide_u64_t *dv; /* dividers of e's periods */
    size_t n;
    rtp_ns *delta;
    char *in;          /* delta_k > 0 */
    double eps_d, k0_d; /* 1 - U and K0 of the set as given, rounded */
    rtp_ns from;       /* every t <= from is done */
    size_t only;       /* the relaxation of this task alone, or n: of them all */
    int with_b;
    mpq_t k0, base_k0, eps, base_eps, x, y;
    rtp_edf_budget *b;
    rtp_diag *diag;
} wm_ctx;

/* Task k fails at t with delta_k iff slack(t) < delta_k n_k(t), slack(t) =
 * eps t - K0 + Phi(t) past t_lo (solver/edf_near.c) and n_k(t) = (t - D*_k
 * - m_k(t) + T_k) / T_k, so Phi(t) + (eps - delta_k / T_k) t < K0 +
 * delta_k (T_k - D*_k) / T_k: every failure of every task satisfies Phi(t)
 * + eta t < K* with eta the least eps - delta_k / T_k and K* the largest
 * right-hand side (tasks with delta_k = 0 cannot fail). */
static int wm_refresh(void *ctx)
{
    wm_ctx *w = ctx;
    mpq_t k0, eps;
    mpq_inits(k0, eps, NULL);
    mpq_set(k0, w->base_k0);
    mpq_set(eps, w->base_eps);
    int any = 0;
    for (size_t k = 0; k < w->n; k++) {
        if (w->delta[k] == 0 || (w->only < w->n && k != w->only))
            continue;
        mpq_set_si(w->x, w->delta[k], (unsigned long)w->e[k].period_ns);
        mpq_canonicalize(w->x);
        mpq_sub(w->y, w->base_eps, w->x);
        if (!any || mpq_cmp(w->y, eps) < 0)
            mpq_set(eps, w->y);
        mpq_set_si(w->y, w->e[k].period_ns - dstar(&w->e[k]), 1);
        mpq_mul(w->y, w->y, w->x);
        mpq_add(w->y, w->y, w->base_k0);
        if (!any || mpq_cmp(w->y, k0) > 0)
            mpq_set(k0, w->y);
        any = 1;
    }
    if (!any)
        mpq_set_si(k0, 0, 1); /* nothing can fail */
    int changed = !mpq_equal(k0, w->k0) || !mpq_equal(eps, w->eps);
    mpq_set(w->k0, k0);
    mpq_set(w->eps, eps);
    mpq_clears(k0, eps, NULL);
    return changed;
}

/* The run [lo, hi] past `from`: skipped when the least slack there (eps lo
 * - K0 + sum U_i min m_i, each minimum 0 when a deadline of i falls inside)
 * covers every delta_k n_k(hi) by more than its rounding; else walked as in
 * combined_walk, lowering the deltas. Reports no failure (the search goes
 * on over every candidate run). */
static rtp_status wm_check(void *ctx, rtp_ns lo, rtp_ns hi, int want_first, rtp_ns *failed)
{
    wm_ctx *w = ctx;
    (void)want_first;
    *failed = 0;
    if (lo <= w->from)
        lo = w->from + 1;
    if (lo > hi)
        return RTP_OK;
    double slack = w->eps_d * (double)lo - w->k0_d;
    double ab = fabs(w->eps_d * (double)lo) + fabs(w->k0_d);
    for (size_t i = 0; i < w->n; i++) {
        const rtp_task *ti = &w->e[i];
        rtp_ns d = dstar(ti), p = ti->period_ns;
        rtp_ns m = lo >= d ? (lo - d) % p : p - 1 - (d - lo - 1) % p; /* (lo - D*) mod T */
        if (m + (hi - lo) >= p)
            continue;
        double term = (double)ti->wcet_ns / (double)p * (double)m;
        slack += term;
        ab += term;
    }
    double need = 0;
    for (size_t k = 0; k < w->n; k++) {
        w->in[k] = w->delta[k] > 0;
        double x = (double)w->delta[k] * (double)jobs_by(&w->e[k], &w->dv[k], hi);
        if (x > need)
            need = x;
    }
    if (slack - need > 1e-9 * (ab + need) + 2)
        return RTP_OK;
    for (size_t k = 0; k < w->n; k++)
        w->in[k] = w->delta[k] > 0;
    return combined_walk(w->e, w->dv, w->n, w->delta, w->in, NULL, NULL, lo, hi, w->b, w->diag);
}

/* The runs the lattice search would enumerate for the relaxation of w
 * past `from` with the task of the largest wcet alone in its lattice:
 * (K* / eta - from) / its period, in doubles (an estimate: it only decides
 * whether to search); HUGE_VAL when eta <= 0. */
static double wm_runs(const wm_ctx *w, rtp_ns from)
{
    size_t c = 0;
    for (size_t i = 1; i < w->n; i++)
        if (w->e[i].wcet_ns > w->e[c].wcet_ns)
            c = i;
    double eps = mpq_get_d(w->eps), la = mpq_get_d(w->k0) / eps;
    return eps > 0 ? (la - (double)from) / (double)w->e[c].period_ns : HUGE_VAL;
}

/* Past L0, when some delta keeps U' within a hair of 1: every t at once by
 * the lattice search of solver/edf_near.c on the relaxation above (of task
 * `only`, on the set with its wcet raised by its delta, when only < n: its
 * own, tighter one). *done = 0 when it could not cover every t, or was not
 * tried as wm_runs passes max_runs (HUGE_VAL: always tried). */
static rtp_status wm_near(const rtp_task *e, const struct libdivide_u64_t *dv, size_t n,
                          rtp_ns *delta, rtp_ns from, size_t only, double max_runs,
                          const rtp_limits *lim, int *done, rtp_diag *diag)
{
    /* 2^18 steps at most (a sixteenth of the budget when smaller): a
     * lattice of structured periods can hold many near-alignments, which
     * the tasks taken one by one (their busy periods) settle sooner */
    uint64_t cap = (lim ? *lim : rtp_limits_default()).max_iterations / 16;
    rtp_edf_budget b = {0, cap < ((uint64_t)1 << 18) ? cap : (uint64_t)1 << 18, lim};
    wm_ctx w = {.e = e, .dv = dv, .n = n, .delta = delta, .from = from, .only = only, .b = &b,
                .diag = diag};
    rtp_task *raised = NULL; /* only < n: the tasks the lattice is drawn for */
    if (only < n) {
        if (!(raised = malloc(n * sizeof *raised)))
            return rtp_oom(diag);
        memcpy(raised, e, n * sizeof *raised);
        raised[only].wcet_ns += delta[only];
    }
    mpq_inits(w.k0, w.base_k0, w.eps, w.base_eps, w.x, w.y, NULL);
    rtp_ns bmax = 0;
    rtp_edf_near_terms(e, n, NULL, 0, w.base_k0, w.base_eps, NULL);
    for (size_t i = 0; i < n; i++)
        if (e[i].blocking_ns > bmax)
            bmax = e[i].blocking_ns;
    w.with_b = bmax > 0;
    w.eps_d = mpq_get_d(w.base_eps);
    w.k0_d = mpq_get_d(w.base_k0);
    if (!(w.in = malloc(n ? n : 1))) {
        mpq_clears(w.k0, w.base_k0, w.eps, w.base_eps, w.x, w.y, NULL);
        free(raised);
        return rtp_oom(diag);
    }
    wm_refresh(&w);
    /* chunks growing 64-fold (not 8): these searches seldom fail, and
     * each chunk sets every base's lattice up again (bench_sens_edf
     * family 300, against 8, alternated twice: p99 0.86-0.90, max
     * 0.85-0.87, median the same; 512: max 0.77 but a set 3.3x slower).
     * At most 7 tasks in the lattice (not 10): a search of 10 visited ~100
     * nodes per candidate run, most in the middle levels and lifting to
     * no run (bench_sens_edf family seed 147, 15 searches: 19-3,678 runs,
     * 481-55,148 nodes); 7 trades a few more runs for far fewer nodes.
     * Any S is exact (solver/edf_near.c checks every candidate run), so
     * only the time changes. callgrind, the family's four slowest sets
     * (every search of a set, the factor's too) at most 10 / 9 / 8 / 7 /
     * 6 tasks: 2,717 / 1,921 / 1,469 / 1,284 / 2,953 M instructions (6:
     * 2.5x 7's on seed 147); wcet_max's at 7, the six slowest: 3,285 ->
     * 1,797 M */
    rtp_edf_near_in in = {.tasks = raised ? raised : e, .n = n, .t_cap = RTP_NS_LIMIT,
                          .check = wm_check,
                          .check_ctx = &w, .b = &b, .k0 = w.k0, .eps = w.eps,
                          .refresh = wm_refresh, .growth = 64, .dims_max = 7};
    rtp_edf_near_result r = {0};
    rtp_status st = RTP_OK;
    if (!(wm_runs(&w, from) > max_runs))
        st = rtp_edf_near(&in, &r, diag);
    *done = st == RTP_OK && r.decided;
    if (st == RTP_ELIMIT && rtp_limits_check(lim, diag) == RTP_OK)
        st = RTP_OK; /* only this quarter was spent: the deltas so far stay upper bounds */
    mpq_clears(w.k0, w.base_k0, w.eps, w.base_eps, w.x, w.y, NULL);
    free(w.in);
    free(raised);
    return st;
}

rtp_status rtp_sens_edf_wcet_max(const rtp_task *e, size_t n, const rtp_limits *lim,
                                 rtp_ns *delta, rtp_diag *diag)
{
    char *in = calloc(n ? n : 1, 1);
    rtp_ns *reach = malloc((n ? n : 1) * sizeof *reach);
    rtp_task *m = malloc((n ? n : 1) * sizeof *m);
    struct libdivide_u64_t *dv = dividers(e, n);
    if (!in || !reach || !m || !dv) {
        free(in);
        free(reach);
        free(m);
        free(dv);
        return rtp_oom(diag);
    }
    mpq_t free_u, x;
    mpq_inits(free_u, x, NULL);
    rtp_status st = RTP_OK;
    /* U' <= 1: delta_k <= floor((1 - U) T_k), in 128 bits, else exactly */
    rtp_i128 u = util_fixed(e, n);
    int exact_u = 0;
    int with_b = 0;
    for (size_t i = 0; i < n; i++)
        with_b = with_b || e[i].blocking_ns > 0;
    for (size_t k = 0; k < n && st == RTP_OK; k++) {
        if (!util_room(&e[k], u, n, &delta[k])) {
            if (!exact_u) {
                mpq_set_ui(free_u, 1, 1);
                for (size_t i = 0; i < n; i++) {
                    mpq_set_si(x, e[i].wcet_ns, (unsigned long)e[i].period_ns);
                    mpq_canonicalize(x);
                    mpq_sub(free_u, free_u, x);
                }
                exact_u = 1;
            }
            mpq_set_si(x, e[k].period_ns, 1);
            mpq_mul(x, x, free_u);
            mpz_t z;
            mpz_init(z);
            mpz_fdiv_q(z, mpq_numref(x), mpq_denref(x));
            delta[k] = mpz_get_si(z); /* < T_k */
            mpz_clear(z);
        }
        /* its first deadline D*_k: delta_k <= D*_k - h(D*_k) */
        rtp_i128 slack = (rtp_i128)dstar(&e[k]) - rtp_edf_load(e, n, dstar(&e[k]), with_b);
        if (slack < delta[k])
            delta[k] = (rtp_ns)slack;
        in[k] = delta[k] > 0; /* 0: nothing to add, the set as given passes */
    }
    /* Every t up to L0 = 2^13 longest periods (or the hyperperiod bound) by
     * QPA walks over doubling ranges: [1, L1] with L1 = 2 longest periods
     * (most binding points lie early), then (L, 2 L] while the largest
     * reach (task_reach) of the deltas the last walk left lies past L, each
     * task dropping out of the jumps past its own reach, so a delta lowered
     * by an early point shortens every later walk; these at most 2^15 steps
     * in all, a sixteenth of the budget when smaller (then L stays where the
     * last whole walk ended). Past L, when the deltas still need more, the
     * lattice search; tasks it cannot settle one by one. Family of
     * bench_analysis (300 sets), against one walk over 64 periods: median
     * 1.9x faster with L0 = 64 periods, 2.8-3x with 2^13 (p90 2.9x), the
     * same answers. */
    wm_lin lin = lin_terms(e, n, u);
    wm_win win = {0};
    if (!win_terms(e, n, u, &win))
        st = rtp_oom(diag);
    rtp_ns longest = 1;
    for (size_t k = 0; k < n; k++)
        if (e[k].period_ns > longest)
            longest = e[k].period_ns;
    rtp_ns l0 = longest < RTP_NS_LIMIT >> 13 ? longest << 13 : RTP_NS_LIMIT;
    /* past the hyperperiod bound nothing fails, whatever the deltas (U' <= 1) */
    rtp_ns hb = hyper_bound(e, n);
    if (hb > 0 && hb < l0)
        l0 = hb;
    rtp_ns l1 = longest <= l0 / 2 ? 2 * longest : l0;
    rtp_ns top = all_reach(&lin, e, n, delta, reach), covered = top < l1 ? top : l1;
    uint64_t max = (lim ? *lim : rtp_limits_default()).max_iterations;
    rtp_edf_budget bud = {0, max, lim};
    if (st == RTP_OK)
        st = combined_walk(e, dv, n, delta, in, reach, &win, 1, covered, &bud, diag);
    top = all_reach(&lin, e, n, delta, reach);
    uint64_t share = max / 16 < ((uint64_t)1 << 15) ? max / 16 : (uint64_t)1 << 15;
    uint64_t stretch = max / 16 < ((uint64_t)1 << 17) ? max / 16 : (uint64_t)1 << 17;
    rtp_ns from = covered;
    rtp_edf_budget more = {0, share, lim};
    while (st == RTP_OK && top > covered && covered < l0) {
        rtp_ns hi = top < l0 ? top : l0;
        if (covered <= l0 / 2 && hi > 2 * covered)
            hi = 2 * covered;
        for (size_t k = 0; k < n; k++)
            in[k] = delta[k] > 0;
        /* up to 2^17 steps (a sixteenth of the budget when smaller) when
         * the steps per ns so far, times what is left up to the largest
         * reach, say the walks end there: the tasks' own lattice searches
         * that follow cost 1-4 ms each (bench_analysis's family: the sets
         * that reach 1,024 longest periods within 2^15 steps have their
         * largest reach at 1,200-25,000 of them) */
        double rate = covered > from ? (double)more.used / (double)(covered - from) : 0;
        more.max = more.used > 0 && rate * (double)(top - covered) <= (double)(stretch - more.used)
                       ? stretch
                       : share;
        if (more.used >= more.max)
            break;
        st = combined_walk(e, dv, n, delta, in, reach, &win, covered + 1, hi, &more, diag);
        if (st == RTP_ELIMIT && rtp_limits_check(lim, diag) == RTP_OK) {
            rtp_diag_clear(diag); /* only the share was spent: the deltas stay upper bounds */
            st = RTP_OK;
            break;
        }
        covered = hi;
        top = all_reach(&lin, e, n, delta, reach);
    }
    /* a reach of RTP_NS_LIMIT is "none below 2^62", not a bound: a failure
     * past 2^62 ns (the plain test looks there, solver/edf.c) stays possible */
    int done = (top <= covered && top < RTP_NS_LIMIT) || (hb > 0 && covered == hb);
    /* The search on the relaxation of every task at once (K* the largest
     * right-hand side, eta the least slope) only when it should end soon:
     * far from U' = 1 one task of the largest wcet is its whole lattice
     * and it takes each of that task's runs below K* / eta (wm_runs; 6-10
     * steps a run, ~75 ns a step), where each task's own search (lattices
     * of 7-10 tasks, ~0.75 us a step) takes 1,000-10,000 steps. Family of
     * bench_analysis (seeds 1-300: the 21 sets that get here), it ended at
     * its cap (undecided, 2-28 ms lost) in every set past 41,600 runs and
     * decided in every set below 27,700, where it won over the tasks one
     * by one (per task 1-4 ms) only beside more than a task per 4,000 runs. */
    size_t nact = 0;
    for (size_t k = 0; k < n; k++)
        nact += delta[k] > 0 && reach[k] > covered;
    double max_runs = 4000.0 * (double)nact < 30000 ? 4000.0 * (double)nact : 30000; /* 0: none */
    if (st == RTP_OK && !done)
        st = wm_near(e, dv, n, delta, covered, n, max_runs, lim, &done, diag);
    /* the rest one by one: the search on each task's own relaxation, else
     * Dinkelbach [Din67] on the exact test, each failure t lowering delta_k
     * to its own floor((t - h(t)) / n_k(t)). Dinkelbach alone, from the
     * delta left here, was never faster than the search (bench_sens_edf's
     * five slowest family sets, 77 tasks: 1.0-31x slower per task): most
     * answers are that delta itself, and proving it takes one exact test
     * just below U' = 1, the same lattice search on the raised set plus
     * the plain test's own walks. */
    memcpy(m, e, n * sizeof *m);
    for (size_t k = 0; k < n && st == RTP_OK && !done; k++) {
        if (delta[k] == 0)
            continue;
        rtp_ns own_reach = task_reach(&lin, &e[k], delta[k]);
        int own = own_reach < RTP_NS_LIMIT && own_reach <= covered;
        if (!own &&
            (st = wm_near(e, dv, n, delta, covered, k, HUGE_VAL, lim, &own, diag)) != RTP_OK)
            break;
        if (own || delta[k] == 0)
            continue;
        for (;;) {
            rtp_ns failed = 0;
            m[k].wcet_ns = e[k].wcet_ns + delta[k];
            if ((st = rtp_edf_failure(m, n, lim, &failed, diag)) != RTP_OK || failed == 0)
                break;
            rtp_i128 h = rtp_edf_load(e, n, failed, with_b);
            delta[k] = (rtp_ns)((failed - h) / jobs_by(&e[k], &dv[k], failed));
        }
        m[k].wcet_ns = e[k].wcet_ns;
    }
    mpq_clears(free_u, x, NULL);
    win_free(&win);
    free(in);
    free(reach);
    free(m);
    free(dv);
    return st;
}
