/* models/ratio.c — exact rationals and exact load sums.
 *
 * A load sum S = sum wcet_i / divisor_i is compared with a bound in two
 * steps. First an enclosure in 64.64 fixed point: each term is floored and
 * ceiled at 2^-64, so lo <= 2^64 * S <= hi; when the bound's own enclosure
 * lies wholly on one side, that decides (almost always). Otherwise the sums
 * are recomputed as GMP rationals, which is exact at any size (the common
 * denominator of a few co-prime periods near 2^40 already passes 2^160). */
#include "models/ratio.h"
#include "models/arith.h"
#include "models/load_sum.h"
#include "models/taskset.h"

#include <gmp.h>
#include <stdio.h>
#include <string.h>


rtp_status rtp_ratio_parse_decimal(const char *text, rtp_ratio *out,
                                   char *why, size_t why_size)
{
    /* "<digits>[.<digits>]": value = digits / 10^(fraction digits), with
     * trailing fractional zeros dropped first so "0.50" needs only 1 place. */
    const char *p = text, *int_start = text;
    while (*p >= '0' && *p <= '9')
        p++;
    size_t int_len = (size_t)(p - int_start), frac_len = 0;
    const char *frac = p;
    if (*p == '.') {
        frac = ++p;
        while (*p >= '0' && *p <= '9')
            p++;
        frac_len = (size_t)(p - frac);
        if (frac_len == 0)
            int_len = 0; /* "1." is malformed */
    }
    if (int_len == 0 || *p != '\0') {
        snprintf(why, why_size, "not a decimal number (expected e.g. 0.95)");
        return RTP_EINPUT;
    }
    while (frac_len > 0 && frac[frac_len - 1] == '0')
        frac_len--;
    while (int_len > 0 && *int_start == '0') {
        int_start++;
        int_len--;
    }
    /* Significant digits: those of int * 10^frac_len + frac without its
     * leading zeros; at most 18 keep num and den = 10^frac_len in int64. */
    size_t lead = 0;
    if (int_len == 0)
        while (lead < frac_len && frac[lead] == '0')
            lead++;
    if (int_len + frac_len - lead > 18 || frac_len > 18) {
        snprintf(why, why_size, "more than 18 significant digits");
        return RTP_EINPUT;
    }
    int64_t num = 0, den = 1;
    for (size_t i = 0; i < int_len; i++)
        num = num * 10 + (int_start[i] - '0');
    for (size_t i = 0; i < frac_len; i++) {
        num = num * 10 + (frac[i] - '0');
        den *= 10;
    }
    int64_t g = rtp_gcd(num, den);
    out->num = num / g;
    out->den = den / g;
    return RTP_OK;
}

void rtp_ratio_format(rtp_ratio r, char *buf, size_t size)
{
    int64_t den = r.den;
    int twos = 0, fives = 0;
    while (den % 2 == 0) { den /= 2; twos++; }
    while (den % 5 == 0) { den /= 5; fives++; }
    int places = twos > fives ? twos : fives;
    if (den != 1 || places > 18) {
        snprintf(buf, size, "%lld/%lld", (long long)r.num, (long long)r.den);
        return;
    }
    int64_t pow10 = 1;
    for (int i = 0; i < places; i++)
        pow10 *= 10;
    /* num/den = num * (pow10/den) / pow10, computed in 128 bits. */
    __int128 scaled = (__int128)r.num * (pow10 / r.den);
    long long whole = (long long)(scaled / pow10);
    long long frac = (long long)(scaled % pow10);
    if (places == 0)
        snprintf(buf, size, "%lld", whole);
    else
        snprintf(buf, size, "%lld.%0*lld", whole, places, frac);
}

void rtp_ratio_format_above(double value, rtp_ratio limit, char *buf, size_t size)
{
    char why[64];
    for (int places = 4; places <= 17; places++) {
        rtp_ratio shown;
        snprintf(buf, size, "%.*f", places, value);
        if (rtp_ratio_parse_decimal(buf, &shown, why, sizeof why) != RTP_OK)
            break;
        if (rtp_ratio_cmp(shown, limit) > 0)
            return;
    }
    char text[48];
    rtp_ratio_format(limit, text, sizeof text);
    snprintf(buf, size, "just above %s", text);
}

int rtp_ratio_cmp(rtp_ratio a, rtp_ratio b)
{
    __int128 l = (__int128)a.num * b.den, r = (__int128)b.num * a.den;
    return (l > r) - (l < r);
}

double rtp_ratio_double(rtp_ratio r)
{
    return (double)r.num / (double)r.den;
}

static rtp_ns divisor_of(const rtp_task *t, rtp_load_kind kind)
{
    if (kind == RTP_LOAD_DENSITY && t->deadline_ns < t->period_ns)
        return t->deadline_ns;
    return t->period_ns;
}

/* Adds floor/ceil of 2^64 * wcet / divisor to *lo / *hi, saturating. */
static void enclose_term(rtp_ns wcet, rtp_ns divisor, rtp_u128 *lo, rtp_u128 *hi)
{
    rtp_u128 scaled = (rtp_u128)(uint64_t)wcet << 64; /* wcet < 2^63: fits */
    rtp_u128 q = scaled / (rtp_u128)(uint64_t)divisor;
    rtp_u128 qc = q + (scaled % (rtp_u128)(uint64_t)divisor != 0);
    *lo = (*lo >= RTP_LOAD_SUM_SAT || q >= RTP_LOAD_SUM_SAT - *lo) ? RTP_LOAD_SUM_SAT : *lo + q;
    *hi = (*hi >= RTP_LOAD_SUM_SAT || qc >= RTP_LOAD_SUM_SAT - *hi) ? RTP_LOAD_SUM_SAT : *hi + qc;
}

static void enclose_tasks(const rtp_task *tasks, size_t n, rtp_load_kind kind,
                          rtp_u128 *lo, rtp_u128 *hi)
{
    for (size_t i = 0; i < n; i++)
        enclose_term(tasks[i].wcet_ns, divisor_of(&tasks[i], kind), lo, hi);
}

static void mpq_add_tasks(mpq_t acc, const rtp_task *tasks, size_t n,
                          rtp_load_kind kind)
{
    mpq_t term;
    mpq_init(term);
    for (size_t i = 0; i < n; i++) {
        mpz_set_si(mpq_numref(term), tasks[i].wcet_ns);
        mpz_set_si(mpq_denref(term), divisor_of(&tasks[i], kind));
        mpq_canonicalize(term);
        mpq_add(acc, acc, term);
    }
    mpq_clear(term);
}

/* sign((A + extra) - (B or bound)), where each side is a task list; the
 * right side adds `bound` when has_bound. */
static int compare(const rtp_task *a, size_t na, const rtp_task *extra,
                   const rtp_task *b, size_t nb, int has_bound, rtp_ratio bound,
                   rtp_load_kind kind)
{
    rtp_u128 alo = 0, ahi = 0, blo = 0, bhi = 0;
    enclose_tasks(a, na, kind, &alo, &ahi);
    if (extra)
        enclose_tasks(extra, 1, kind, &alo, &ahi);
    enclose_tasks(b, nb, kind, &blo, &bhi);
    if (has_bound && bound.den > 0 && bound.num >= 0)
        enclose_term(bound.num, bound.den, &blo, &bhi);
    if (ahi < RTP_LOAD_SUM_SAT && bhi < RTP_LOAD_SUM_SAT) {
        if (ahi < blo)
            return -1;
        if (alo > bhi)
            return 1;
        if (alo == ahi && blo == bhi && alo == blo)
            return 0;
    }
    mpq_t left, right, term;
    mpq_inits(left, right, term, NULL);
    mpq_add_tasks(left, a, na, kind);
    if (extra)
        mpq_add_tasks(left, extra, 1, kind);
    mpq_add_tasks(right, b, nb, kind);
    if (has_bound) {
        mpz_set_si(mpq_numref(term), bound.num);
        mpz_set_si(mpq_denref(term), bound.den);
        mpq_canonicalize(term);
        mpq_add(right, right, term);
    }
    int sign = mpq_cmp(left, right);
    mpq_clears(left, right, term, NULL);
    return (sign > 0) - (sign < 0);
}

int rtp_load_cmp(const rtp_task *tasks, size_t n, rtp_load_kind kind,
                 rtp_ratio bound)
{
    return compare(tasks, n, NULL, NULL, 0, 1, bound, kind);
}

int rtp_load_cmp_sets(const rtp_task *a, size_t na, const rtp_task *b,
                      size_t nb, rtp_load_kind kind)
{
    rtp_ratio zero = {0, 1};
    return compare(a, na, NULL, b, nb, 0, zero, kind);
}

int rtp_load_cmp_plus(const rtp_task *tasks, size_t n, const rtp_task *extra,
                      rtp_load_kind kind, rtp_ratio bound)
{
    return compare(tasks, n, extra, NULL, 0, 1, bound, kind);
}

rtp_load_sum rtp_load_sum_zero(void)
{
    rtp_load_sum s = {0, 0, 0, 1};
    return s;
}

void rtp_load_sum_add(rtp_load_sum *s, int64_t wcet, int64_t divisor)
{
    enclose_term(wcet, divisor, &s->lo, &s->hi);
    if (s->den == 0)
        return;
    /* num/den + wcet/divisor over lcm(den, divisor) */
    int64_t g = rtp_gcd(s->den, divisor), den, a, b;
    if (__builtin_mul_overflow(s->den / g, divisor, &den) ||
        __builtin_mul_overflow(s->num, divisor / g, &a) ||
        __builtin_mul_overflow(wcet, s->den / g, &b) || __builtin_add_overflow(a, b, &s->num)) {
        s->den = 0;
        return;
    }
    s->den = den;
}

int rtp_load_sum_cmp(const rtp_load_sum *a, const rtp_load_sum *b)
{
    if (a->hi < RTP_LOAD_SUM_SAT && b->hi < RTP_LOAD_SUM_SAT) {
        if (a->hi < b->lo)
            return -1;
        if (a->lo > b->hi)
            return 1;
    }
    if (a->den == 0 || b->den == 0)
        return 2;
    __int128 l = (__int128)a->num * b->den, r = (__int128)b->num * a->den;
    return (l > r) - (l < r);
}

double rtp_load_double(const rtp_task *tasks, size_t n, rtp_load_kind kind)
{
    double sum = 0.0;
    for (size_t i = 0; i < n; i++)
        sum += (double)tasks[i].wcet_ns / (double)divisor_of(&tasks[i], kind);
    return sum;
}

double rtp_load_exact_double(const rtp_task *tasks, size_t n, rtp_load_kind kind)
{
    mpq_t sum;
    mpq_init(sum);
    mpq_add_tasks(sum, tasks, n, kind);
    double value = mpq_get_d(sum);
    mpq_clear(sum);
    return value;
}
