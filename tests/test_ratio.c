/* tests/test_ratio.c — exact decimals and exact load sums (models/ratio.h).
 *
 * Every rtp_load_cmp* answer is checked against a GMP rational reference
 * written here (sum of mpq wcet/divisor, compared with mpq_cmp): hand-built
 * sets that sit exactly on the bound or 2^-80 away from it (co-prime periods
 * near 2^40, so the 64.64 fixed-point enclosure cannot decide and the GMP
 * path must), and seeded random sets built to land within 1/period of the
 * bound. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <gmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/arith.h"
#include "models/load_sum.h"
#include "models/ratio.h"
#include "models/taskset.h"
#include "support/testutil.h"

/* ---- decimals ---- */

static void expect_parse(const char *text, int64_t num, int64_t den)
{
    rtp_ratio r = {-5, -5};
    char why[128] = "";
    rtp_status st = rtp_ratio_parse_decimal(text, &r, why, sizeof why);
    if (st != RTP_OK || r.num != num || r.den != den)
        fail_msg("\"%s\": want %lld/%lld, got status %d %lld/%lld (%s)", text, (long long)num,
                 (long long)den, (int)st, (long long)r.num, (long long)r.den, why);
}

static void expect_parse_bad(const char *text)
{
    rtp_ratio r = {-5, -5};
    char why[128] = "";
    rtp_status st = rtp_ratio_parse_decimal(text, &r, why, sizeof why);
    if (st != RTP_EINPUT || r.num != -5 || r.den != -5 || !why[0])
        fail_msg("\"%s\": want RTP_EINPUT, out untouched, got %d %lld/%lld", text, (int)st,
                 (long long)r.num, (long long)r.den);
}

static void test_parse_decimal(void **state)
{
    (void)state;
    expect_parse("0.95", 19, 20);
    expect_parse("1", 1, 1);
    expect_parse("2.5", 5, 2);
    expect_parse("0", 0, 1);
    expect_parse("0.0", 0, 1);
    expect_parse("0.50", 1, 2);
    expect_parse("0.65", 13, 20);
    expect_parse("1.000", 1, 1);
    expect_parse("007.25", 29, 4);
    expect_parse("0.1", 1, 10);
    expect_parse("0.33333333333333333", 33333333333333333LL, 100000000000000000LL);
    expect_parse("123456789012345678", 123456789012345678LL, 1);
    expect_parse("12345678.9012345678", 61728394506172839LL, 5000000000LL);
    expect_parse("0.00000000000000001", 1, 100000000000000000LL);
    static const char *const bad[] = {"",    ".5",   "5.",   "-1",  "+1",     "1e3",  "0,5",
                                      "1/2", " 1",   "1 ",   "abc", "1.2.3",  "0x1",  "inf",
                                      "1234567890123456789", "1.234567890123456789"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        expect_parse_bad(bad[i]);
}

static void expect_format(int64_t num, int64_t den, const char *want)
{
    char buf[64];
    rtp_ratio r = {num, den};
    rtp_ratio_format(r, buf, sizeof buf);
    if (strcmp(buf, want) != 0)
        fail_msg("%lld/%lld: want \"%s\", got \"%s\"", (long long)num, (long long)den, want, buf);
}

static void test_format(void **state)
{
    (void)state;
    expect_format(13, 20, "0.65");
    expect_format(3, 5, "0.6");
    expect_format(1, 1, "1");
    expect_format(0, 1, "0");
    expect_format(5, 2, "2.5");
    expect_format(1, 3, "1/3");
    expect_format(7, 6, "7/6");
    expect_format(1, 1024, "0.0009765625");
    expect_format(19, 20, "0.95");
    expect_format(1, 100000000000000000LL, "0.00000000000000001");
    /* Every decimal the parser accepts formats back to the same ratio. */
    static const char *const texts[] = {"0.65", "0.95", "2.5", "0.0009765625", "17", "0.05",
                                        "12345678.9012345678", "0.125"};
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        rtp_ratio r, back;
        char why[64], buf[64];
        assert_int_equal(rtp_ratio_parse_decimal(texts[i], &r, why, sizeof why), RTP_OK);
        rtp_ratio_format(r, buf, sizeof buf);
        assert_int_equal(rtp_ratio_parse_decimal(buf, &back, why, sizeof why), RTP_OK);
        assert_int_equal(rtp_ratio_cmp(r, back), 0);
        assert_int_equal(r.num, back.num);
        assert_int_equal(r.den, back.den);
    }
}

static void test_cmp(void **state)
{
    (void)state;
    rtp_ratio a = {1, 3}, b = {333333333333333333LL, 1000000000000000000LL};
    assert_int_equal(rtp_ratio_cmp(a, b), 1);
    assert_int_equal(rtp_ratio_cmp(b, a), -1);
    assert_int_equal(rtp_ratio_cmp(a, a), 0);
    rtp_ratio big1 = {INT64_MAX, INT64_MAX - 1}, big2 = {INT64_MAX - 1, INT64_MAX - 2};
    assert_int_equal(rtp_ratio_cmp(big1, big2), -1); /* 1 + 1/(M-1) < 1 + 1/(M-2) */
    rtp_ratio half = {1, 2}, half2 = {4, 8};
    assert_int_equal(rtp_ratio_cmp(half, half2), 0);
    assert_true(rtp_ratio_double(half) == 0.5);
}


static void regression_leading_zero_counts_as_digit(void **state)
{
    (void)state;
    expect_parse("0.123456789012345678", 61728394506172839LL, 500000000000000000LL);
    expect_parse("0.000000000000000001", 1, 1000000000000000000LL);
}

/* ---- exact load sums ---- */

static rtp_ns divisor(const rtp_task *t, rtp_load_kind kind)
{
    return kind == RTP_LOAD_DENSITY && t->deadline_ns < t->period_ns ? t->deadline_ns
                                                                      : t->period_ns;
}

static void ref_sum(mpq_t acc, const rtp_task *tasks, size_t n, rtp_load_kind kind)
{
    mpq_t term;
    mpq_init(term);
    for (size_t i = 0; i < n; i++) {
        mpq_set_si(term, tasks[i].wcet_ns, (unsigned long)divisor(&tasks[i], kind));
        mpq_canonicalize(term);
        mpq_add(acc, acc, term);
    }
    mpq_clear(term);
}

static int sign(int v) { return (v > 0) - (v < 0); }

/* sign(sum(a) + sum(extra) - sum(b) - bound) by the reference. */
static int ref_cmp(const rtp_task *a, size_t na, const rtp_task *extra, const rtp_task *b,
                   size_t nb, rtp_ratio bound, rtp_load_kind kind)
{
    mpq_t left, right, q;
    mpq_inits(left, right, q, NULL);
    ref_sum(left, a, na, kind);
    if (extra)
        ref_sum(left, extra, 1, kind);
    ref_sum(right, b, nb, kind);
    mpq_set_si(q, bound.num, (unsigned long)bound.den);
    mpq_canonicalize(q);
    mpq_add(right, right, q);
    int s = sign(mpq_cmp(left, right));
    mpq_clears(left, right, q, NULL);
    return s;
}

static const rtp_ratio ONE = {1, 1};

static int64_t modinv(int64_t a, int64_t m)
{
    /* extended Euclid in __int128; a and m co-prime */
    __int128 t = 0, new_t = 1, r = m, new_r = a % m;
    while (new_r != 0) {
        __int128 q = r / new_r, tmp = t - q * new_t;
        t = new_t;
        new_t = tmp;
        tmp = r - q * new_r;
        r = new_r;
        new_r = tmp;
    }
    assert_true(r == 1);
    if (t < 0)
        t += m;
    return (int64_t)t;
}

/* Two tasks with co-prime periods p1, p2 and load exactly 1 + delta/(p1*p2),
 * delta in {-1, +1}: c1*p2 + c2*p1 = p1*p2 + delta. */
static void pair_near_one(rtp_ns p1, rtp_ns p2, int delta, rtp_task out[2])
{
    int64_t c1 = (int64_t)(((__int128)modinv(p2 % p1, p1) * (delta + p1)) % p1);
    __int128 rest = (__int128)p1 * p2 + delta - (__int128)c1 * p2;
    assert_true(rest % p1 == 0);
    out[0] = tu_task(c1, p1, p1);
    out[1] = tu_task((rtp_ns)(rest / p1), p2, p2);
    assert_true(out[0].wcet_ns > 0 && out[1].wcet_ns > 0);
}

static void check_all(const rtp_task *t, size_t n, rtp_ratio bound, int want)
{
    assert_int_equal(ref_cmp(t, n, NULL, NULL, 0, bound, RTP_LOAD_UTIL), want);
    assert_int_equal(rtp_load_cmp(t, n, RTP_LOAD_UTIL, bound), want);
    if (n > 0) {
        rtp_ratio zero = {0, 1};
        assert_int_equal(rtp_load_cmp_plus(t, n - 1, &t[n - 1], RTP_LOAD_UTIL, bound), want);
        assert_int_equal(rtp_load_cmp_plus(t, n - 1, &t[n - 1], RTP_LOAD_UTIL, zero), n ? 1 : 0);
    }
}

static void test_load_exactly_one(void **state)
{
    (void)state;
    rtp_task thirds[3] = {tu_task(1, 3, 3), tu_task(1, 3, 3), tu_task(1, 3, 3)};
    check_all(thirds, 3, ONE, 0);
    rtp_task sevenths[7];
    for (int i = 0; i < 7; i++)
        sevenths[i] = tu_task(1, 7, 7);
    check_all(sevenths, 7, ONE, 0);
    /* One prime period near 2^40: c/p + (p-c)/p = 1. */
    rtp_ns p = 1099511627791LL; /* prime, > 2^40 */
    rtp_task split[2] = {tu_task(123456789, p, p), tu_task(p - 123456789, p, p)};
    check_all(split, 2, ONE, 0);
    /* Three distinct periods a*b, b*c, a*c (a, b, c co-prime near 2^20, so the
     * common denominator is near 2^60 and every term is inexact in 64.64). */
    int64_t a = 1048573, b = 1048571, c = 1048559; /* primes below 2^20 */
    int64_t c2 = 777777;
    /* c1*c + c2*a + c3*b = a*b*c with c1 chosen so b divides the rest. */
    int64_t c1 = (int64_t)(((__int128)(b - (c2 * (__int128)a) % b) % b * modinv(c % b, b)) % b);
    __int128 rest = (__int128)a * b * c - (__int128)c1 * c - (__int128)c2 * a;
    assert_true(c1 > 0 && rest > 0 && rest % b == 0);
    rtp_task three[3] = {tu_task(c1, a * b, a * b), tu_task(c2, b * c, b * c),
                         tu_task((rtp_ns)(rest / b), a * c, a * c)};
    check_all(three, 3, ONE, 0);
    /* Bound 3/4 hit exactly by 1/2 + 1/4 with big equal factors. */
    rtp_task quarter[2] = {tu_task((rtp_ns)1 << 60, (rtp_ns)1 << 61, (rtp_ns)1 << 61),
                           tu_task(3, 12, 12)};
    rtp_ratio three_quarters = {3, 4};
    check_all(quarter, 2, three_quarters, 0);
}

static void test_load_one_plus_minus_2_pow_80(void **state)
{
    (void)state;
    /* co-prime periods near 2^40: the difference from 1 is 1/(p1*p2) ~ 2^-80,
     * far below the enclosure's 2^-64 resolution. */
    static const rtp_ns periods[][2] = {
        {1099511627791LL, 1099511627817LL},
        {1099511627776LL + 1, 1099511627776LL + 3},
        {(rtp_ns)1 << 40, ((rtp_ns)1 << 40) - 1},
        {999999999989LL, 1000000000039LL},
    };
    for (size_t k = 0; k < sizeof periods / sizeof periods[0]; k++) {
        rtp_task over[2], under[2];
        pair_near_one(periods[k][0], periods[k][1], +1, over);
        pair_near_one(periods[k][0], periods[k][1], -1, under);
        check_all(over, 2, ONE, 1);
        check_all(under, 2, ONE, -1);
        assert_int_equal(rtp_load_cmp_sets(over, 2, under, 2, RTP_LOAD_UTIL), 1);
        assert_int_equal(rtp_load_cmp_sets(under, 2, over, 2, RTP_LOAD_UTIL), -1);
        assert_int_equal(rtp_load_cmp_sets(over, 2, over, 2, RTP_LOAD_UTIL), 0);
        /* Four co-prime-ish periods: two such pairs, 2 + 2^-80 - 2^-80 = 2. */
        rtp_task four[4] = {over[0], over[1], under[0], under[1]};
        rtp_ratio two = {2, 1};
        check_all(four, 4, two, 0);
        /* The same with density: deadlines below periods scale the same way. */
        rtp_task dense[2] = {tu_task(over[0].wcet_ns, over[0].period_ns, over[0].period_ns * 2),
                             tu_task(over[1].wcet_ns, over[1].period_ns, over[1].period_ns + 5)};
        assert_int_equal(rtp_load_cmp(dense, 2, RTP_LOAD_DENSITY, ONE), 1);
        assert_int_equal(rtp_load_cmp(dense, 2, RTP_LOAD_UTIL, ONE), -1);
    }
}

static void test_load_edges(void **state)
{
    (void)state;
    rtp_ratio zero = {0, 1};
    assert_int_equal(rtp_load_cmp(NULL, 0, RTP_LOAD_UTIL, zero), 0);
    assert_int_equal(rtp_load_cmp(NULL, 0, RTP_LOAD_UTIL, ONE), -1);
    assert_int_equal(rtp_load_cmp_sets(NULL, 0, NULL, 0, RTP_LOAD_DENSITY), 0);
    /* Extreme magnitudes: wcet 2^62 over period 1, and 1 over 2^62. */
    rtp_task huge[3] = {tu_task(RTP_NS_LIMIT, 1, 1), tu_task(RTP_NS_LIMIT, 1, 1),
                        tu_task(RTP_NS_LIMIT, 1, 1)};
    rtp_ratio big = {INT64_MAX, 1};
    assert_int_equal(rtp_load_cmp(huge, 3, RTP_LOAD_UTIL, big), 1);
    assert_int_equal(rtp_load_cmp(huge, 1, RTP_LOAD_UTIL, big), -1);
    rtp_ratio limit = {RTP_NS_LIMIT * 1, 1};
    assert_int_equal(rtp_load_cmp(huge, 1, RTP_LOAD_UTIL, limit), 0);
    rtp_task tiny[2] = {tu_task(1, RTP_NS_LIMIT, RTP_NS_LIMIT), tu_task(1, RTP_NS_LIMIT, RTP_NS_LIMIT)};
    rtp_ratio eps = {1, (int64_t)1 << 61};
    assert_int_equal(rtp_load_cmp(tiny, 2, RTP_LOAD_UTIL, eps), 0);
    assert_int_equal(rtp_load_cmp(tiny, 1, RTP_LOAD_UTIL, eps), -1);
    /* density uses min(deadline, period); arbitrary deadlines use the period */
    rtp_task arb = tu_task(2, 10, 4);
    rtp_ratio half = {1, 2};
    assert_int_equal(rtp_load_cmp(&arb, 1, RTP_LOAD_DENSITY, half), 0);
    rtp_task con = tu_task(2, 4, 10);
    assert_int_equal(rtp_load_cmp(&con, 1, RTP_LOAD_DENSITY, half), 0);
    assert_int_equal(rtp_load_cmp(&con, 1, RTP_LOAD_UTIL, half), -1);
    /* wcet > deadline is valid input: load above 1 */
    rtp_task over = tu_task(11, 10, 10);
    assert_int_equal(rtp_load_cmp(&over, 1, RTP_LOAD_UTIL, ONE), 1);
    assert_true(rtp_load_double(&con, 1, RTP_LOAD_DENSITY) == 0.5);
    assert_true(rtp_load_double(&con, 1, RTP_LOAD_UTIL) == 0.2);
}

/* Random sets: the last task's wcet is chosen so the sum lands within
 * 1/period of the bound (below, on, or above it), plus fully random sets. */
static void test_load_random(void **state)
{
    (void)state;
    tu_rng rng = {1203};
    int signs[3] = {0, 0, 0}, decided = 0, exact_ties = 0;
    mpq_t rest, term;
    mpq_inits(rest, term, NULL);
    for (int iter = 0; iter < 4000; iter++) {
        rtp_task t[12];
        size_t n = (size_t)tu_range(&rng, 1, 12);
        rtp_load_kind kind = tu_range(&rng, 0, 1) ? RTP_LOAD_DENSITY : RTP_LOAD_UTIL;
        int64_t den = tu_range(&rng, 1, 1000), num = tu_range(&rng, 0, 3 * den);
        rtp_ratio bound = {num, den};
        int64_t g = rtp_gcd(num, den);
        bound.num /= g;
        bound.den /= g;
        rtp_ns pmax = (rtp_ns)1 << tu_range(&rng, 4, 44);
        for (size_t i = 0; i < n; i++) {
            rtp_ns period = tu_range(&rng, 1, pmax);
            rtp_ns deadline = tu_range(&rng, 0, 2) ? period : tu_range(&rng, 1, 2 * period);
            rtp_ns d = kind == RTP_LOAD_DENSITY && deadline < period ? deadline : period;
            t[i] = tu_task(tu_range(&rng, 1, d / (rtp_ns)n + 1), deadline, period);
        }
        if (tu_range(&rng, 0, 3) != 0) {
            /* aim the last wcet at the bound: w = (bound - rest) * d, +-0/1 */
            mpq_set_si(rest, bound.num, (unsigned long)bound.den);
            mpq_set_ui(term, 0, 1);
            ref_sum(term, t, n - 1, kind);
            mpq_sub(rest, rest, term);
            rtp_ns d = divisor(&t[n - 1], kind);
            mpz_t w;
            mpz_init(w);
            mpz_mul_si(w, mpq_numref(rest), d);
            mpz_fdiv_q(w, w, mpq_denref(rest));
            long aim = mpz_get_si(w) + (long)tu_range(&rng, -1, 1);
            mpz_clear(w);
            if (mpq_sgn(rest) > 0 && aim >= 1 && aim <= RTP_NS_LIMIT)
                t[n - 1].wcet_ns = aim;
        }
        if (tu_range(&rng, 0, 3) == 0) {
            /* the bound is the exact sum, when it fits an rtp_ratio */
            mpq_set_ui(term, 0, 1);
            ref_sum(term, t, n, kind);
            if (mpz_fits_slong_p(mpq_numref(term)) && mpz_fits_slong_p(mpq_denref(term))) {
                bound.num = mpz_get_si(mpq_numref(term));
                bound.den = mpz_get_si(mpq_denref(term));
            }
        }
        int want = ref_cmp(t, n, NULL, NULL, 0, bound, kind);
        signs[want + 1]++;
        assert_int_equal(rtp_load_cmp(t, n, kind, bound), want);
        assert_int_equal(rtp_load_cmp_plus(t, n - 1, &t[n - 1], kind, bound), want);
        size_t split = (size_t)tu_range(&rng, 0, (int64_t)n);
        rtp_ratio zero = {0, 1};
        assert_int_equal(rtp_load_cmp_sets(t, split, t + split, n - split, kind),
                         ref_cmp(t, split, NULL, t + split, n - split, zero, kind));
        /* running sums: decided (exact or enclosed) or 2, never wrong */
        rtp_load_sum x = rtp_load_sum_zero(), y = rtp_load_sum_zero(), b = rtp_load_sum_zero();
        for (size_t i = 0; i < n; i++)
            rtp_load_sum_add(i < split ? &x : &y, t[i].wcet_ns, divisor(&t[i], kind));
        int c = rtp_load_sum_cmp(&x, &y);
        decided += c != 2;
        if (c != 2)
            assert_int_equal(c, ref_cmp(t, split, NULL, t + split, n - split, zero, kind));
        rtp_load_sum_add(&b, bound.num, bound.den);
        for (size_t i = 0; i < split; i++)
            rtp_load_sum_add(&y, t[i].wcet_ns, divisor(&t[i], kind));
        c = rtp_load_sum_cmp(&y, &b);
        exact_ties += c == 0 && want == 0;
        if (c != 2)
            assert_int_equal(c, want);
    }
    assert_true(decided > 3000 && exact_ties > 100);
    mpq_clears(rest, term, NULL);
    /* all three answers occur, "equal" among them */
    assert_true(signs[0] > 200 && signs[1] > 200 && signs[2] > 200);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_decimal),
        cmocka_unit_test(test_format),
        cmocka_unit_test(test_cmp),
        cmocka_unit_test(test_load_exactly_one),
        cmocka_unit_test(test_load_one_plus_minus_2_pow_80),
        cmocka_unit_test(test_load_edges),
        cmocka_unit_test(test_load_random),
        cmocka_unit_test(regression_leading_zero_counts_as_digit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
