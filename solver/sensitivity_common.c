/* solver/sensitivity_common.c — what every closed form of the critical
 * scaling factor shares (sensitivity_internal.h): the step budget, exact
 * rationals from 128-bit integers, the utilization bound alpha_U, and the
 * decimal form of alpha*. */
#include "solver/sensitivity_internal.h"

#include <stdio.h>
#include <string.h>

rtp_status rtp_sens_spend(sctx *s)
{
    return ++s->used <= s->max ? RTP_OK : rtp_sens_out_of_steps(s);
}

rtp_status rtp_sens_out_of_steps(sctx *s)
{
    return rtp_diag_set(s->diag, RTP_ELIMIT, "",
                        "critical scaling factor not found in %llu steps",
                        (unsigned long long)s->max);
}

void rtp_sens_zset(mpz_t z, rtp_i128 v)
{
    int neg = v < 0;
    rtp_u128 u = neg ? -(rtp_u128)v : (rtp_u128)v;
    mpz_set_ui(z, (unsigned long)(uint64_t)(u >> 64));
    mpz_mul_2exp(z, z, 64);
    mpz_add_ui(z, z, (unsigned long)(uint64_t)u);
    if (neg)
        mpz_neg(z, z);
}

/* q = (num) / (den), canonical; den > 0. */
void rtp_sens_qset(mpq_t q, rtp_i128 num, rtp_i128 den)
{
    rtp_sens_zset(mpq_numref(q), num);
    rtp_sens_zset(mpq_denref(q), den);
    mpq_canonicalize(q);
}

/* alpha_U of the tasks with mask[i] set (all when mask NULL): (1 - sum c /
 * T) / (sum w / T). 0 when the numerator is <= 0 (no alpha > 0 fits). Over
 * the common denominator L = lcm T: (L - c sum L / T) / (sum w L / T), one
 * gcd at the end instead of a canonical rational sum per task (whose
 * denominators grow with every period: the factor's setup spent ~13% of
 * it there on bench_analysis's family). */
int rtp_sens_util_alpha(const sctx *s, const char *mask, mpq_t out)
{
    mpz_t l, q, s1, s2;
    mpz_inits(l, q, s1, s2, NULL);
    mpz_set_ui(l, 1);
    for (size_t i = 0; i < s->n; i++)
        if (!mask || mask[i])
            mpz_lcm_ui(l, l, (unsigned long)s->e[i].period_ns);
    for (size_t i = 0; i < s->n; i++) {
        if (mask && !mask[i])
            continue;
        mpz_divexact_ui(q, l, (unsigned long)s->e[i].period_ns);
        mpz_add(s1, s1, q);
        mpz_addmul_ui(s2, q, (unsigned long)s->e[i].wcet_ns);
    }
    mpz_submul_ui(l, s1, (unsigned long)s->c); /* L - c sum L / T */
    int ok = mpz_sgn(l) > 0 && mpz_sgn(s2) > 0;
    if (ok) {
        mpz_set(mpq_numref(out), l);
        mpz_set(mpq_denref(out), s2);
        mpq_canonicalize(out);
    }
    mpz_clears(l, q, s1, s2, NULL);
    return ok;
}

/* ------------------------------------------------------------ outputs */

/* alpha rounded down to 9 significant digits, trailing zeros dropped. */
void rtp_sens_format_decimal(const mpq_t a, char *buf, size_t size)
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

int rtp_sens_scaled(const sctx *s, const mpq_t a, rtp_task *x)
{
    int fits = mpz_fits_slong_p(mpq_numref(a)) && mpz_fits_slong_p(mpq_denref(a));
    rtp_i128 p = fits ? mpz_get_si(mpq_numref(a)) : 0, q = fits ? mpz_get_si(mpq_denref(a)) : 0;
    for (size_t i = 0; i < s->n && fits; i++) {
        const rtp_task *t = &s->e[i];
        rtp_i128 c = p * t->wcet_ns + q * s->c, v[4] = {q * t->period_ns, q * t->deadline_ns,
                                                         q * t->jitter_ns, q * t->blocking_ns};
        fits = c <= RTP_NS_LIMIT;
        for (int k = 0; k < 4; k++)
            fits = fits && v[k] <= RTP_NS_LIMIT;
        if (fits) {
            x[i] = *t;
            x[i].wcet_ns = (rtp_ns)c;
            x[i].period_ns = (rtp_ns)v[0];
            x[i].deadline_ns = (rtp_ns)v[1];
            x[i].jitter_ns = (rtp_ns)v[2];
            x[i].blocking_ns = (rtp_ns)v[3];
        }
    }
    return fits;
}
