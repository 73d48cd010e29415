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
 * busy period can be the hyperperiod): QPA over short prefixes (most
 * failures are early), then QPA below T0 = max D* and every t >= T0 at once
 * by the residue decomposition of solver/edf_tail.c; its failing t
 * (rebuilt by the Chinese remainder theorem) starts the descent.
 */
#include "solver/sensitivity_internal.h"
#include "solver/edf_tail.h"

#include "models/arith.h"

#include <stdlib.h>

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
static rtp_status edf_load(sctx *s, const mpq_t a, rtp_ns t, mpq_t h, rtp_i128 *A, rtp_i128 *K)
{
    rtp_i128 sa = 0, sn = 0;
    rtp_ns b = 0;
    *A = *K = 0;
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
    rtp_sens_qset(h, sa, 1);
    mpq_mul(h, h, a);
    mpq_t k;
    mpq_init(k);
    rtp_sens_qset(k, *K, 1);
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
    if (*bound == 0) {
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

/* QPA at alpha = a over the step points < bound: *failed = a failing step
 * point, or 0. */
static rtp_status edf_qpa(sctx *s, const mpq_t a, rtp_ns bound, rtp_ns *failed,
                          rtp_i128 *fa, rtp_i128 *fk)
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
        rtp_i128 A = 0, K = 0;
        if ((st = rtp_sens_spend(s)) != RTP_OK || (st = edf_load(s, a, t, h, &A, &K)) != RTP_OK)
            break;
        rtp_sens_qset(tq, t, 1);
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

/* At alpha_U the testing bound is the busy period at U' = 1, which can be
 * as long as the hyperperiod H; a failure, when there is one, is often near
 * one end of [0, H]: once every task has released, dbf(t + H) = dbf(t) + H
 * and b is constant, so h - t repeats with period H. Part 0: QPA over
 * growing prefixes [0, L) (QPA decides "a failure below L" exactly for any
 * L; the common case, and cheaper than the residue decomposition); part 1
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
        if (part == 0)
            st = edf_qpa(s, a, base, failed, fa, fk);
    s->max = max;
    if (st == RTP_ELIMIT) {
        st = RTP_OK; /* a probe ran out: not a verdict */
        *failed = 0;
        rtp_diag_clear(s->diag);
    }
    if (st != RTP_OK || *failed || hyper <= base || part == 0)
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
static rtp_status edf_at_one(sctx *s, const mpq_t a, int *decided, rtp_ns *failed, rtp_i128 *fa,
                             rtp_i128 *fk)
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
    rtp_ns tail = 0;
    st = rtp_edf_tail(s->e, s->n, s->c, a, t0, &s->used, s->max, decided, &tail);
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
    rtp_status st = RTP_OK;
    for (int first = !loose; !loose; first = 0) {
        rtp_ns bound, failed = 0;
        rtp_i128 A = 0, K = 0;
        int decided = 0;
        if (first && (st = edf_probe(s, out, 0, &failed, &A, &K)) != RTP_OK)
            return st;
        if (first && !failed && (st = edf_at_one(s, out, &decided, &failed, &A, &K)) != RTP_OK)
            return st;
        if (decided && !failed)
            break; /* alpha* = alpha_U */
        if (first && !failed && (st = edf_probe(s, out, 1, &failed, &A, &K)) != RTP_OK)
            return st;
        if (!failed) {
            if ((st = edf_bound(s, out, &bound)) != RTP_OK) {
                if (st == RTP_ELIMIT && first) {
                    char dec[64];
                    rtp_sens_format_decimal(out, dec, sizeof dec);
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
        rtp_sens_qset(out, failed - K, A); /* f(t) < the previous candidate */
    }
    *exists = 1;
    return st;
}
