/* solver/sensitivity.c — wcet_max by binary search over the exact test and
 * the critical scaling factor alpha* in closed form (see sensitivity.h for
 * why both are exact).
 *
 * Notation: task i has declared wcet w_i, c = 2 x context_switch (the same
 * for every task), C'_i = alpha w_i + c, J_i = J'_i, D*_i = D_i - J_i, B_i.
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
 *
 * FP, fixed order, task i with higher-priority set hp (no equal priority):
 * the level-i busy period examines jobs q = 0, 1, ... (solver/fp.c); job q
 * arrives at a_q = q T_i - J_i and completes at w_q(alpha) = the least t > 0
 * with W_q(t) = B_i + (q + 1) C'_i + sum_{j in hp} ceil((t + J_j) / T_j)
 * C'_j <= t. W_q is constant on each interval (k T_j - J_j, (k+1) T_j -
 * J_j], so w_q(alpha) <= x iff some point t in (0, x] among {k T_j - J_j}
 * and x itself has alpha A_q(t) + K_q(t) <= t: w_q(alpha) <= x iff alpha <=
 * g_q(x) = max over those points of (t - K_q(t)) / A_q(t) [LSD89] [BB04].
 * Job q misses iff alpha > g_q(a_q + D_i); the busy period ends after job q
 * iff alpha <= g_q(a_{q+1}). Job q is examined only while the period has not
 * ended, so task i passes at alpha iff for every q: alpha <= max(g_q(a_q +
 * D_i), E_q) with E_q = max_{q' < q} g_{q'}(a_{q'+1}); plus the level-i
 * utilization bound alpha <= alpha_UL (above it the busy period never ends).
 * alpha_i = min over q of those maxima, and the scan stops once E_q reaches
 * the current minimum (every later term is at least E_q). Below alpha_UL the
 * busy period is finite, so E_q reaches any value < alpha_UL; at alpha_UL
 * with jitter or blocking it is endless and solver/fp.c examines the jobs q
 * < H / T_i only (responses repeat with the level hyperperiod H): the scan
 * stops there too. alpha* = min_i alpha_i.
 *
 * FP-OPA: alpha*(S) = min(max_k alpha_k(S), alpha*(S \ k*)), alpha_k(S) =
 * task k's factor below all of S \ {k}, k* a maximiser: at alpha*(S) the
 * task k* passes at the lowest level, so by Audsley's argument [Aud01] S \
 * k* is schedulable there; and no order does better than its lowest task.
 *
 * Rationals are GMP mpq_t; integer sums are 128-bit and checked. */
#include "solver/sensitivity.h"

#include "models/arith.h"
#include "models/effective.h"
#include "solver/fp.h"

#include <gmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef __int128 i128;
#define BIG ((i128)1 << 120)

typedef struct sctx {
    const rtp_task *e; /* wcet_ns = declared w, jitter_ns = J' */
    size_t n;
    rtp_ns c;          /* 2 x context switch */
    uint64_t used, max;
    rtp_diag *diag;
} sctx;

static rtp_status spend(sctx *s)
{
    if (++s->used <= s->max)
        return RTP_OK;
    return rtp_diag_set(s->diag, RTP_ELIMIT, "",
                        "critical scaling factor not found in %llu steps",
                        (unsigned long long)s->max);
}

static rtp_status too_big(sctx *s)
{
    return rtp_diag_set(s->diag, RTP_ELIMIT, "",
                        "critical scaling factor: a demand passes 2^120");
}

static void zset(mpz_t z, i128 v)
{
    int neg = v < 0;
    unsigned __int128 u = neg ? -(unsigned __int128)v : (unsigned __int128)v;
    mpz_set_ui(z, (unsigned long)(uint64_t)(u >> 64));
    mpz_mul_2exp(z, z, 64);
    mpz_add_ui(z, z, (unsigned long)(uint64_t)u);
    if (neg)
        mpz_neg(z, z);
}

/* q = (num) / (den), canonical; den > 0. */
static void qset(mpq_t q, i128 num, i128 den)
{
    zset(mpq_numref(q), num);
    zset(mpq_denref(q), den);
    mpq_canonicalize(q);
}

/* alpha_U of the tasks with mask[i] set (all when mask NULL): (1 - sum c /
 * T) / (sum w / T). 0 when the numerator is <= 0 (no alpha > 0 fits). */
static int util_alpha(const sctx *s, const char *mask, mpq_t out)
{
    mpq_t num, den, term;
    mpq_inits(num, den, term, NULL);
    mpq_set_ui(num, 1, 1);
    for (size_t i = 0; i < s->n; i++) {
        if (mask && !mask[i])
            continue;
        qset(term, s->c, s->e[i].period_ns);
        mpq_sub(num, num, term);
        qset(term, s->e[i].wcet_ns, s->e[i].period_ns);
        mpq_add(den, den, term);
    }
    int ok = mpq_sgn(num) > 0 && mpq_sgn(den) > 0;
    if (ok)
        mpq_div(out, num, den);
    mpq_clears(num, den, term, NULL);
    return ok;
}

/* ---------------------------------------------------------------- EDF */

static rtp_ns dstar(const rtp_task *t)
{
    return t->deadline_ns - t->jitter_ns;
}

/* Largest step point k T_i + D*_i <= x, 0 if none. */
static rtp_ns step_floor(const sctx *s, rtp_ns x)
{
    rtp_ns best = 0;
    for (size_t i = 0; i < s->n; i++) {
        rtp_ns d = dstar(&s->e[i]);
        if (d > x)
            continue;
        d += (x - d) / s->e[i].period_ns * s->e[i].period_ns;
        if (d > best)
            best = d;
    }
    return best;
}

/* h(t) = a A(t) + c N(t) + b(t) into h. */
static rtp_status edf_load(sctx *s, const mpq_t a, rtp_ns t, mpq_t h, i128 *A, i128 *K)
{
    i128 sa = 0, sn = 0;
    rtp_ns b = 0;
    *A = *K = 0;
    for (size_t i = 0; i < s->n; i++) {
        const rtp_task *k = &s->e[i];
        rtp_ns d = dstar(k);
        if (d > t)
            continue;
        i128 jobs = (t - d) / k->period_ns + 1;
        sa += jobs * k->wcet_ns;
        sn += jobs;
        if (k->blocking_ns > b)
            b = k->blocking_ns;
        if (sa > BIG)
            return too_big(s);
    }
    if (sn > BIG / (s->c + 1))
        return too_big(s);
    *A = sa;
    *K = sn * s->c + b;
    qset(h, sa, 1);
    mpq_mul(h, h, a);
    mpq_t k;
    mpq_init(k);
    qset(k, *K, 1);
    mpq_add(h, h, k);
    mpq_clear(k);
    return RTP_OK;
}

/* An integer bound L with every failing t < L at alpha = a (U'(a) <= 1):
 * the smaller of H + max(D*, t_B) + 1 (when the hyperperiod H fits) and
 * La = (B + sum_{D* < T} (T - D*) U'_i) / (1 - U') rounded up when U' < 1
 * and it fits; with neither, the busy period Lb (least integer w with ceil(sum
 * ceil(w / T_i) C'_i) = w, an upper bound of the real one) plus t_B. */
static rtp_status edf_bound(sctx *s, const mpq_t a, rtp_ns *bound)
{
    mpq_t u, num, term, cq;
    mpz_t z;
    mpq_inits(u, num, term, cq, NULL);
    mpz_init(z);
    rtp_status st = RTP_OK;
    rtp_ns bmax = 0, t_b = 0;
    for (size_t i = 0; i < s->n; i++) {
        const rtp_task *k = &s->e[i];
        qset(cq, k->wcet_ns, 1);
        mpq_mul(cq, cq, a);
        qset(term, s->c, 1);
        mpq_add(cq, cq, term); /* C'_i */
        qset(term, k->period_ns, 1);
        mpq_div(term, cq, term); /* U'_i */
        mpq_add(u, u, term);
        if (dstar(k) < k->period_ns) {
            qset(cq, k->period_ns - dstar(k), 1);
            mpq_mul(term, term, cq);
            mpq_add(num, num, term);
        }
        if (k->blocking_ns > bmax)
            bmax = k->blocking_ns;
        if (k->blocking_ns > 0 && dstar(k) > t_b)
            t_b = dstar(k);
    }
    /* H + max(D*, t_B): for t past it, h(t) - t <= h(t - H) - (t - H) at any
     * alpha <= alpha_U (dbf gains U' H <= H over one hyperperiod H, b is
     * constant past t_B), so a failure there implies one H earlier. */
    rtp_ns hyper = 1, reach = t_b;
    for (size_t i = 0; i < s->n; i++) {
        if (hyper > 0 && rtp_lcm(hyper, s->e[i].period_ns, &hyper) != RTP_OK)
            hyper = 0;
        if (dstar(&s->e[i]) > reach)
            reach = dstar(&s->e[i]);
    }
    rtp_ns by_hyper = 0;
    if (hyper > 0 && rtp_add(hyper, reach, &by_hyper) == RTP_OK && by_hyper < RTP_NS_LIMIT)
        by_hyper++;
    else
        by_hyper = 0;
    *bound = 0;
    if (mpq_cmp_ui(u, 1, 1) < 0) {
        qset(term, bmax, 1);
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
    if (*bound == 0) {
        /* Lb: w <- ceil(sum ceil(w / T_i) C'_i) from ceil(sum C'_i). */
        rtp_ns w = 1;
        for (;;) {
            i128 sa = 0, sn = 0;
            for (size_t i = 0; i < s->n; i++) {
                i128 jobs = ((i128)w - 1) / s->e[i].period_ns + 1;
                sa += jobs * s->e[i].wcet_ns;
                sn += jobs;
            }
            if (sa > BIG || sn > BIG / (s->c + 1)) {
                st = too_big(s);
                break;
            }
            qset(term, sa, 1);
            mpq_mul(term, term, a);
            qset(cq, sn * s->c, 1);
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
            if ((st = spend(s)) != RTP_OK)
                break;
        }
        if (st == RTP_OK)
            *bound = w + t_b + 1;
    }
    mpz_clear(z);
    mpq_clears(u, num, term, cq, NULL);
    return st;
}

/* QPA at alpha = a over the step points < bound: *failed = a failing step
 * point, or 0. */
static rtp_status edf_qpa(sctx *s, const mpq_t a, rtp_ns bound, rtp_ns *failed,
                          i128 *fa, i128 *fk)
{
    rtp_ns dmin = INT64_MAX;
    for (size_t i = 0; i < s->n; i++)
        if (dstar(&s->e[i]) < dmin)
            dmin = dstar(&s->e[i]);
    mpq_t h, tq;
    mpz_t z;
    mpq_inits(h, tq, NULL);
    mpz_init(z);
    rtp_status st = RTP_OK;
    rtp_ns t = step_floor(s, bound - 1);
    *failed = 0;
    while (t > 0) {
        i128 A = 0, K = 0;
        if ((st = spend(s)) != RTP_OK || (st = edf_load(s, a, t, h, &A, &K)) != RTP_OK)
            break;
        qset(tq, t, 1);
        int cmp = mpq_cmp(h, tq);
        if (cmp > 0) {
            *failed = t;
            *fa = A;
            *fk = K;
            break;
        }
        mpq_set_si(tq, dmin, 1);
        if (mpq_cmp(h, tq) <= 0)
            break;
        if (cmp < 0) {
            mpz_fdiv_q(z, mpq_numref(h), mpq_denref(h));
            t = step_floor(s, mpz_get_si(z));
        } else {
            t = step_floor(s, t - 1);
        }
    }
    mpz_clear(z);
    mpq_clears(h, tq, NULL);
    return st;
}

/* At alpha_U (U' = 1) the testing bound is the busy period at U' = 1, which
 * can be as long as the hyperperiod H; a failure, when there is one, is
 * often near one end of [0, H]: once every task has released, dbf(t + H) =
 * dbf(t) + H and b is constant, so h - t repeats with period H. So first:
 * QPA over growing prefixes [0, L) (QPA decides "a failure below L" exactly
 * for any L), then the step points just below H (t = H - delta with delta =
 * m T_i - D*_i ascending), each for a bounded number of steps; only when
 * none fails is the busy period computed. *failed = a failing point, or 0. */
static rtp_status edf_probe(sctx *s, const mpq_t a, rtp_ns *failed, i128 *fa, i128 *fk)
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
        st = edf_qpa(s, a, base, failed, fa, fk);
    s->max = max;
    if (st == RTP_ELIMIT) {
        st = RTP_OK; /* a probe ran out: not a verdict */
        *failed = 0;
        rtp_diag_clear(s->diag);
    }
    if (st != RTP_OK || *failed || hyper <= base)
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
        if ((st = spend(s)) != RTP_OK || (st = edf_load(s, a, hyper - dl, h, fa, fk)) != RTP_OK)
            break;
        qset(tq, hyper - dl, 1);
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

static void format_decimal(const mpq_t a, char *buf, size_t size);

static rtp_status edf_alpha(sctx *s, mpq_t out, int *exists)
{
    *exists = 0;
    int loose = 1;
    for (size_t i = 0; i < s->n; i++) {
        if (dstar(&s->e[i]) <= 0)
            return RTP_OK;
        loose = loose && dstar(&s->e[i]) >= s->e[i].period_ns && s->e[i].blocking_ns == 0;
    }
    if (!util_alpha(s, NULL, out))
        return RTP_OK;
    rtp_status st = RTP_OK;
    for (int first = !loose; !loose; first = 0) {
        rtp_ns bound, failed = 0;
        i128 A = 0, K = 0;
        if (first && (st = edf_probe(s, out, &failed, &A, &K)) != RTP_OK)
            return st;
        if (!failed) {
            if ((st = edf_bound(s, out, &bound)) != RTP_OK) {
                if (st == RTP_ELIMIT && first) {
                    char dec[64];
                    format_decimal(out, dec, sizeof dec);
                    rtp_diag_set(s->diag, RTP_ELIMIT, "",
                                 "critical scaling factor: no deadline fails near either end "
                                 "of the hyperperiod at %s (the factor giving U' = 1, an upper "
                                 "bound), and the busy period at U' = 1 that would confirm it "
                                 "is past %llu steps (--max-iterations)",
                                 dec, (unsigned long long)s->max);
                }
                return st;
            }
            if ((st = edf_qpa(s, out, bound, &failed, &A, &K)) != RTP_OK)
                return st;
        }
        if (failed == 0)
            break;
        if (failed - K <= 0)
            return RTP_OK; /* alpha A(t) + K(t) <= t needs alpha <= 0 */
        qset(out, failed - K, A); /* f(t) < the previous candidate */
    }
    *exists = 1;
    return st;
}

/* ----------------------------------------------------------------- FP */

typedef struct fpjob {
    size_t i;
    const char *hp;  /* hp[j]: j is more urgent than i */
    rtp_ns q;
} fpjob;

/* ceil((t + J) / T) for t >= 1: jobs of j released in [0, t). */
static i128 jobs_before(const rtp_task *t, rtp_ns w)
{
    return ((i128)w + t->jitter_ns - 1) / t->period_ns + 1;
}

/* g_q(x) = max over the points t in (0, x] of (t - K_q(t)) / A_q(t) into
 * out; *found = 0 when x <= 0. Stops early (*reached = 1) at a point whose
 * value is >= stop (when stop is not NULL). */
static rtp_status fp_g(sctx *s, const fpjob *jb, i128 x, const mpq_t stop, mpq_t out,
                       int *found, int *reached)
{
    const rtp_task *ti = &s->e[jb->i];
    *found = 0;
    *reached = 0;
    if (x <= 0)
        return RTP_OK;
    if (x > INT64_MAX)
        return rtp_diag_set(s->diag, RTP_ELIMIT, "",
                            "critical scaling factor: a deadline passes 2^63 ns");
    mpq_t f;
    mpq_init(f);
    rtp_status st = RTP_OK;
    rtp_ns t = 0;
    while (t < x) {
        /* the next point: min(x, the first k T_j - J_j > t over hp) */
        rtp_ns next = (rtp_ns)x;
        for (size_t j = 0; j < s->n; j++) {
            if (!jb->hp[j])
                continue;
            const rtp_task *tj = &s->e[j];
            i128 p = ((i128)t + tj->jitter_ns) / tj->period_ns * tj->period_ns +
                     tj->period_ns - tj->jitter_ns;
            if (p < next)
                next = (rtp_ns)p;
        }
        t = next;
        if ((st = spend(s)) != RTP_OK)
            break;
        i128 A = (i128)(jb->q + 1) * ti->wcet_ns, N = jb->q + 1;
        for (size_t j = 0; j < s->n; j++) {
            if (!jb->hp[j])
                continue;
            i128 k = jobs_before(&s->e[j], t);
            A += k * s->e[j].wcet_ns;
            N += k;
            if (A > BIG)
                break;
        }
        if (A > BIG || N > BIG / (s->c + 1)) {
            st = too_big(s);
            break;
        }
        qset(f, (i128)t - ti->blocking_ns - N * s->c, A);
        if (!*found || mpq_cmp(f, out) > 0) {
            mpq_set(out, f);
            *found = 1;
        }
        if (stop && mpq_cmp(f, stop) >= 0) {
            *reached = 1;
            break;
        }
    }
    mpq_clear(f);
    return st;
}

/* w_q(a): the least fixed point of W_q at alpha = a, iterated from the
 * lower bound in *w (rational, as solver/fp.c iterates in integers); stops
 * with *over = 1 as soon as it passes x. */
static rtp_status fp_w(sctx *s, const fpjob *jb, const mpq_t a, i128 x, mpq_t w, int *over)
{
    const rtp_task *ti = &s->e[jb->i];
    mpz_t k, num;
    mpq_t next, xq;
    mpz_inits(k, num, NULL);
    mpq_inits(next, xq, NULL);
    zset(mpq_numref(xq), x);
    rtp_status st = RTP_OK;
    *over = 0;
    for (;;) {
        if (mpq_cmp(w, xq) > 0) {
            *over = 1;
            break;
        }
        if ((st = spend(s)) != RTP_OK)
            break;
        /* A = (q + 1) w_i + sum k_j w_j, N = (q + 1) + sum k_j, k_j = ceil((w + J_j) / T_j) */
        mpz_t A, N;
        mpz_inits(A, N, NULL);
        mpz_set_si(N, jb->q + 1);
        mpz_mul_si(A, N, ti->wcet_ns);
        for (size_t j = 0; j < s->n; j++) {
            if (!jb->hp[j])
                continue;
            const rtp_task *tj = &s->e[j];
            mpz_mul_si(num, mpq_denref(w), tj->jitter_ns);
            mpz_add(num, num, mpq_numref(w));
            mpz_mul_si(k, mpq_denref(w), tj->period_ns);
            mpz_cdiv_q(k, num, k);
            mpz_add(N, N, k);
            mpz_addmul_ui(A, k, (unsigned long)tj->wcet_ns);
        }
        mpq_set_z(next, A);
        mpq_mul(next, next, a);
        mpz_mul_si(N, N, s->c);
        mpz_add_ui(N, N, (unsigned long)ti->blocking_ns);
        mpq_set_z(xq, N);
        mpq_add(next, next, xq);
        zset(mpq_numref(xq), x);
        mpz_set_ui(mpq_denref(xq), 1);
        mpz_clears(A, N, NULL);
        if (mpq_cmp(next, w) <= 0)
            break;
        mpq_set(w, next);
    }
    mpz_clears(k, num, NULL);
    mpq_clears(next, xq, NULL);
    return st;
}

/* Does job q's level-i busy period end by a_{q+1} at alpha = a (w_q(a) <=
 * a_{q+1}), or does job q miss at a (w_q(a) > a_q + D_i)? */
static rtp_status fp_job(sctx *s, const fpjob *jb, const mpq_t a, int *ends, int *misses)
{
    const rtp_task *ti = &s->e[jb->i];
    i128 arr = (i128)jb->q * ti->period_ns - ti->jitter_ns;
    mpq_t w, own;
    mpq_inits(w, own, NULL);
    qset(own, (i128)(jb->q + 1) * ti->wcet_ns, 1); /* own work: a lower bound */
    mpq_mul(w, own, a);
    qset(own, (i128)(jb->q + 1) * s->c + ti->blocking_ns, 1);
    mpq_add(w, w, own);
    int over = 0;
    rtp_status st = fp_w(s, jb, a, arr + ti->deadline_ns, w, &over);
    *misses = over;
    *ends = 0;
    if (st == RTP_OK && !over) {
        qset(own, arr + ti->period_ns, 1);
        *ends = mpq_cmp(w, own) <= 0;
    }
    mpq_clears(w, own, NULL);
    return st;
}

/* alpha_i of task i below the tasks with hp[j] set (none equal to it),
 * capped at *cap when cap is not NULL (then best = min(alpha_i, cap));
 * stops early once best <= *floor (then only "alpha_i <= floor" is known).
 * Fast path: job q is checked at the current candidate with the rational
 * response-time iteration (fp_job); the exact g values are enumerated only
 * when a job misses there (the candidate then drops). Jobs whose busy period
 * goes on at the candidate are kept in `pending` until such an event needs
 * E_q. */
static rtp_status fp_task_alpha(sctx *s, size_t i, const char *hp, char *level,
                                const mpq_t cap, const mpq_t floor, mpq_t best, int *exists)
{
    const rtp_task *ti = &s->e[i];
    *exists = 0;
    if (ti->jitter_ns >= ti->deadline_ns)
        return RTP_OK;
    int delays = ti->blocking_ns > 0;
    rtp_ns hyper = 1;
    for (size_t j = 0; j < s->n; j++) {
        level[j] = hp[j] || j == i;
        if (!level[j])
            continue;
        delays = delays || s->e[j].jitter_ns > 0;
        if (hyper > 0 && rtp_lcm(hyper, s->e[j].period_ns, &hyper) != RTP_OK)
            hyper = 0; /* unknown: the scan then ends on E_q or the step budget */
    }
    if (!util_alpha(s, level, best))
        return RTP_OK;
    rtp_ns jobs = delays ? hyper / ti->period_ns : 0;
    mpq_t ul, g, e;
    mpq_inits(ul, g, e, NULL);
    mpq_set(ul, best);
    if (cap && mpq_cmp(cap, best) < 0)
        mpq_set(best, cap);
    int has_e = 0, found, reached, ends, misses;
    rtp_ns *pending = NULL;
    size_t n_pending = 0, cap_pending = 0;
    rtp_status st = RTP_OK;
    fpjob jb = {i, hp, 0};
    for (rtp_ns q = 0;; q++) {
        jb.q = q;
        if ((st = fp_job(s, &jb, best, &ends, &misses)) != RTP_OK)
            break;
        if (misses) {
            /* the candidate drops to max(g_q(a_q + D), E_q), both exact */
            i128 arr = (i128)q * ti->period_ns - ti->jitter_ns;
            if ((st = fp_g(s, &jb, arr + ti->deadline_ns, best, g, &found, &reached)) != RTP_OK)
                break;
            for (size_t k = 0; k < n_pending && st == RTP_OK; k++) {
                fpjob pj = {i, hp, pending[k]};
                mpq_t ge;
                mpq_init(ge);
                int f2, r2;
                st = fp_g(s, &pj, (i128)(pending[k] + 1) * ti->period_ns - ti->jitter_ns, best,
                          ge, &f2, &r2);
                if (st == RTP_OK && f2 && (!has_e || mpq_cmp(ge, e) > 0)) {
                    mpq_set(e, ge);
                    has_e = 1;
                }
                mpq_clear(ge);
            }
            n_pending = 0;
            if (st != RTP_OK)
                break;
            if (!found && !has_e)
                goto done; /* job q misses at every alpha */
            if (!found || (has_e && mpq_cmp(e, g) > 0))
                mpq_set(g, e);
            if (mpq_cmp(g, best) < 0) /* always: job q misses at best */
                mpq_set(best, g);
            if (has_e && mpq_cmp(e, best) >= 0)
                break; /* at best the busy period ends before job q */
            if (floor && mpq_cmp(best, floor) <= 0)
                break;
            if ((st = fp_job(s, &jb, best, &ends, &misses)) != RTP_OK)
                break;
        }
        if (ends)
            break; /* E_q >= best: no later job lowers it */
        if (n_pending == cap_pending) {
            cap_pending = cap_pending ? 2 * cap_pending : 16;
            rtp_ns *bigger = realloc(pending, cap_pending * sizeof *pending);
            if (!bigger) {
                st = RTP_ENOMEM;
                break;
            }
            pending = bigger;
        }
        pending[n_pending++] = q;
        if (jobs > 0 && q + 1 >= jobs && mpq_equal(best, ul))
            break; /* at alpha_UL the responses repeat from here */
    }
    if (st == RTP_OK)
        *exists = mpq_sgn(best) > 0;
done:
    free(pending);
    mpq_clears(ul, g, e, NULL);
    return st;
}

/* alpha* under fixed priorities prio[] (no two equal). Tasks are taken in
 * increasing order of their first job's factor g_0(D_i - J_i) (an upper
 * bound of alpha_i) and each is capped at the minimum so far, so a task
 * whose own factor is larger (often one reaching level utilization 1, whose
 * exact busy period can be long) stops as soon as its busy period at the cap
 * ends. */
typedef struct ranked {
    mpq_t key;
    size_t index;
} ranked;

static int ranked_cmp(const void *x, const void *y)
{
    const ranked *a = x, *b = y;
    int c = mpq_cmp(a->key, b->key);
    return c ? c : (a->index > b->index) - (a->index < b->index);
}

static rtp_status fp_fixed(sctx *s, const int *prio, mpq_t out, int *exists)
{
    char *hp = malloc(2 * s->n);
    ranked *order = malloc(s->n * sizeof *order);
    if (!hp || !order) {
        free(hp);
        free(order);
        return RTP_ENOMEM;
    }
    rtp_status st = RTP_OK;
    for (size_t i = 0; i < s->n; i++) {
        order[i].index = i;
        mpq_init(order[i].key);
        for (size_t j = 0; j < s->n; j++)
            hp[j] = prio[j] > prio[i];
        fpjob jb = {i, hp, 0};
        int found = 0, reached;
        if (st == RTP_OK)
            st = fp_g(s, &jb, s->e[i].deadline_ns - s->e[i].jitter_ns, NULL, order[i].key,
                      &found, &reached);
        if (!found)
            mpq_set_si(order[i].key, -1, 1);
    }
    if (st == RTP_OK)
        qsort(order, s->n, sizeof *order, ranked_cmp);
    mpq_t a;
    mpq_init(a);
    *exists = 1;
    for (size_t r = 0; r < s->n && st == RTP_OK && *exists; r++) {
        size_t i = order[r].index;
        for (size_t j = 0; j < s->n; j++)
            hp[j] = prio[j] > prio[i];
        st = fp_task_alpha(s, i, hp, hp + s->n, r ? out : NULL, NULL, a, exists);
        if (st == RTP_OK && *exists && (r == 0 || mpq_cmp(a, out) < 0))
            mpq_set(out, a);
    }
    mpq_clear(a);
    for (size_t i = 0; i < s->n; i++)
        mpq_clear(order[i].key);
    free(order);
    free(hp);
    return st;
}

/* alpha* under OPA: greedy per level from the lowest (see the top). With
 * cur = the minimum over the levels so far (>= alpha*), a task whose factor
 * reaches cur may be taken at once: it passes at alpha* (>= cur is >=
 * alpha*), which is all the exchange argument needs; so factors are capped
 * at cur, and a candidate is abandoned once it cannot beat the best one of
 * its level. */
static rtp_status fp_opa(sctx *s, mpq_t out, int *exists)
{
    char *left = malloc(3 * s->n);
    if (!left)
        return RTP_ENOMEM;
    char *hp = left + s->n;
    memset(left, 1, s->n);
    mpq_t a, top;
    mpq_inits(a, top, NULL);
    rtp_status st = RTP_OK;
    *exists = 1;
    for (size_t level = 0; level < s->n && st == RTP_OK && *exists; level++) {
        size_t pick = s->n;
        for (size_t k = 0; k < s->n && st == RTP_OK; k++) {
            if (!left[k])
                continue;
            for (size_t j = 0; j < s->n; j++)
                hp[j] = left[j] && j != k;
            int ok = 0;
            st = fp_task_alpha(s, k, hp, hp + s->n, level ? out : NULL,
                               pick < s->n ? top : NULL, a, &ok);
            if (st == RTP_OK && ok && (pick == s->n || mpq_cmp(a, top) > 0)) {
                mpq_set(top, a);
                pick = k;
                if (level && mpq_cmp(top, out) >= 0)
                    break; /* reaches cur: take it */
            }
        }
        if (st != RTP_OK)
            break;
        if (pick == s->n) {
            *exists = 0;
            break;
        }
        if (level == 0 || mpq_cmp(top, out) < 0)
            mpq_set(out, top);
        left[pick] = 0;
    }
    mpq_clears(a, top, NULL);
    free(left);
    return st;
}

/* ------------------------------------------------------------ outputs */

/* alpha rounded down to 9 significant digits, trailing zeros dropped. */
static void format_decimal(const mpq_t a, char *buf, size_t size)
{
    mpz_t m, p, lo, hi;
    mpz_inits(m, p, lo, hi, NULL);
    mpz_set_ui(lo, 100000000);
    mpz_set_ui(hi, 1000000000);
    long k = 8 - (long)mpz_sizeinbase(mpq_numref(a), 10) +
             (long)mpz_sizeinbase(mpq_denref(a), 10);
    for (;;) { /* m = floor(a 10^k) */
        if (k >= 0) {
            mpz_ui_pow_ui(p, 10, (unsigned long)k);
            mpz_mul(m, mpq_numref(a), p);
            mpz_fdiv_q(m, m, mpq_denref(a));
        } else {
            mpz_ui_pow_ui(p, 10, (unsigned long)-k);
            mpz_mul(p, p, mpq_denref(a));
            mpz_fdiv_q(m, mpq_numref(a), p);
        }
        if (mpz_cmp(m, lo) < 0)
            k++;
        else if (mpz_cmp(m, hi) >= 0)
            k--;
        else
            break;
    }
    char digits[16];
    mpz_get_str(digits, 10, m); /* 9 digits */
    char out[64];
    size_t o = 0;
    if (k <= 0) {
        o += (size_t)snprintf(out, sizeof out, "%s", digits);
        for (long z = 0; z < -k && o + 1 < sizeof out; z++)
            out[o++] = '0';
        out[o] = '\0';
    } else {
        int whole = 9 - (int)k; /* digits before the point */
        if (whole > 0) {
            memcpy(out, digits, (size_t)whole);
            o = (size_t)whole;
        } else {
            out[o++] = '0';
        }
        out[o++] = '.';
        for (int z = whole; z < 0 && o + 10 < sizeof out; z++)
            out[o++] = '0';
        for (int d = whole > 0 ? whole : 0; d < 9; d++)
            out[o++] = digits[d];
        while (out[o - 1] == '0')
            o--;
        if (out[o - 1] == '.')
            o--;
        out[o] = '\0';
    }
    snprintf(buf, size, "%s", out);
    mpz_clears(m, p, lo, hi, NULL);
}

static rtp_status fill_scaling(const mpq_t a, rtp_scaling *out)
{
    size_t len = mpz_sizeinbase(mpq_numref(a), 10) + mpz_sizeinbase(mpq_denref(a), 10) + 3;
    out->exact = malloc(len);
    if (!out->exact)
        return RTP_ENOMEM;
    mpz_get_str(out->exact, 10, mpq_numref(a));
    size_t at = strlen(out->exact);
    out->exact[at++] = '/';
    mpz_get_str(out->exact + at, 10, mpq_denref(a));
    format_decimal(a, out->decimal, sizeof out->decimal);
    out->exists = 1;
    return RTP_OK;
}

/* Global tests on 2 or more CPUs: see sensitivity.h. */
static int global_cluster(const rtp_test *test)
{
    return (test->policy == RTP_POLICY_GEDF || test->policy == RTP_POLICY_GFP) &&
           test->cpus > 1;
}

static rtp_status not_exact_global(const rtp_test *test, rtp_diag *diag)
{
    return rtp_diag_set(diag, RTP_ELIMIT, "",
                        "sensitivity is not computed under the sufficient global tests "
                        "(%d CPUs): they are not known to be monotone in the wcets, so no "
                        "search over them is shown exact",
                        test->cpus);
}

/* Effective copies with wcet = declared (c separate) and J' applied. */
static rtp_task *scaling_tasks(const rtp_task *tasks, size_t n, const rtp_overheads *ov,
                               rtp_ns *c, rtp_status *st, rtp_diag *diag)
{
    rtp_overheads jit = {ov ? ov->release_latency_ns : 0, 0};
    *c = 0;
    if (ov && rtp_mul(ov->context_switch_ns, 2, c) != RTP_OK) {
        *st = rtp_diag_set(diag, RTP_ELIMIT, "", "2 x context_switch passes 2^63 ns");
        return NULL;
    }
    return rtp_effective_new(tasks, n, &jit, st, diag);
}

rtp_status rtp_sensitivity_scaling(const rtp_test *test, const rtp_task *tasks, size_t n,
                                   const rtp_overheads *ov, rtp_scaling *out,
                                   rtp_diag *diag)
{
    memset(out, 0, sizeof *out);
    if (n == 0) {
        out->unbounded = 1;
        return RTP_OK;
    }
    if (global_cluster(test))
        return not_exact_global(test, diag);
    rtp_status st = RTP_OK;
    sctx s = {NULL, n, 0, 0, test->limits.max_iterations, diag};
    rtp_task *e = scaling_tasks(tasks, n, ov, &s.c, &st, diag);
    if (!e)
        return st;
    s.e = e;
    int *prio = NULL;
    mpq_t a;
    mpq_init(a);
    int exists = 0;
    if (test->policy == RTP_POLICY_EDF || test->policy == RTP_POLICY_GEDF) {
        st = edf_alpha(&s, a, &exists);
    } else if (test->priority == RTP_PRIO_OPA) {
        st = fp_opa(&s, a, &exists);
    } else if (!(prio = malloc(n * sizeof *prio))) {
        st = RTP_ENOMEM;
    } else {
        int found;
        st = rtp_fp_assign(e, n, test->priority, prio, &found, &test->limits, diag);
        for (size_t i = 0; st == RTP_OK && i < n; i++)
            for (size_t j = i + 1; j < n; j++)
                if (prio[i] == prio[j]) {
                    st = rtp_diag_set(diag, RTP_ELIMIT, "",
                                      "critical scaling factor is not computed with equal "
                                      "given priorities (tasks %s and %s)",
                                      tasks[i].name ? tasks[i].name : "?",
                                      tasks[j].name ? tasks[j].name : "?");
                    break;
                }
        if (st == RTP_OK)
            st = fp_fixed(&s, prio, a, &exists);
    }
    if (st == RTP_OK && exists)
        st = fill_scaling(a, out);
    mpq_clear(a);
    free(prio);
    free(e);
    return st;
}

/* ------------------------------------------------------------ wcet_max */

static rtp_status passes(const rtp_test *test, const rtp_task *e, size_t n, int *ok,
                         rtp_diag *diag)
{
    rtp_test_result r;
    memset(&r, 0, sizeof r);
    rtp_status st = rtp_test_run(test, e, n, &r, diag);
    *ok = st == RTP_OK && r.schedulable;
    return st;
}

rtp_status rtp_sensitivity_wcet_max(const rtp_test *test, const rtp_task *tasks, size_t n,
                                    const rtp_overheads *ov, rtp_ns *wcet_max,
                                    rtp_diag *diag)
{
    for (size_t i = 0; i < n; i++)
        wcet_max[i] = -1;
    if (n == 0)
        return RTP_OK;
    if (global_cluster(test))
        return not_exact_global(test, diag);
    rtp_status st = RTP_OK;
    rtp_ns c = 0;
    rtp_task *e = rtp_effective_new(tasks, n, ov, &st, diag);
    if (!e)
        return st;
    if (ov)
        c = 2 * ov->context_switch_ns; /* C' = wcet + c fitted in rtp_effective_new */
    int ok = 0;
    if ((st = passes(test, e, n, &ok, diag)) != RTP_OK || !ok)
        goto done;
    for (size_t k = 0; k < n && st == RTP_OK; k++) {
        rtp_ns keep = e[k].wcet_ns, lo = tasks[k].wcet_ns;
        rtp_ns room = e[k].deadline_ns - e[k].jitter_ns;
        if (e[k].period_ns < room)
            room = e[k].period_ns;
        rtp_ns hi = room - c + 1; /* fails: C' > min(D - J', T) */
        while (hi - lo > 1 && st == RTP_OK) {
            rtp_ns mid = lo + (hi - lo) / 2;
            e[k].wcet_ns = mid + c;
            if ((st = passes(test, e, n, &ok, diag)) == RTP_OK) {
                if (ok)
                    lo = mid;
                else
                    hi = mid;
            }
        }
        e[k].wcet_ns = keep;
        wcet_max[k] = lo;
    }
done:
    free(e);
    if (st != RTP_OK)
        for (size_t i = 0; i < n; i++)
            wcet_max[i] = -1;
    return st;
}

/* ------------------------------------------------------------- values */

int rtp_scaling_cmp(const rtp_scaling *a, const rtp_scaling *b)
{
    int ra = a->unbounded ? 2 : a->exists, rb = b->unbounded ? 2 : b->exists;
    if (ra != 1 || rb != 1)
        return (ra > rb) - (ra < rb);
    mpq_t x, y;
    mpq_inits(x, y, NULL);
    mpq_set_str(x, a->exact, 10);
    mpq_set_str(y, b->exact, 10);
    int cmp = mpq_cmp(x, y);
    mpq_clears(x, y, NULL);
    return (cmp > 0) - (cmp < 0);
}

rtp_status rtp_scaling_copy(rtp_scaling *dst, const rtp_scaling *src)
{
    *dst = *src;
    if (!src->exact)
        return RTP_OK;
    dst->exact = strdup(src->exact);
    return dst->exact ? RTP_OK : RTP_ENOMEM;
}

void rtp_scaling_free(rtp_scaling *s)
{
    if (!s)
        return;
    free(s->exact);
    s->exact = NULL;
}
