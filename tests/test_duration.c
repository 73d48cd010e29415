/* tests/test_duration.c — exact time strings (models/duration.h, docs/spec.md
 * "Times"): every unit, exact decimals, every error, the 2^62 limit, and
 * format -> parse round trips on seeded random values against an __int128
 * reference parser written here. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "models/duration.h"
#include "support/testutil.h"

#define SENTINEL ((rtp_ns)-777)
#define LIMIT RTP_NS_LIMIT

static void expect_ok(const char *text, rtp_ns want)
{
    rtp_ns out = SENTINEL;
    char why[128] = "";
    rtp_status st = rtp_duration_parse(text, &out, why, sizeof why);
    if (st != RTP_OK || out != want)
        fail_msg("\"%s\": want %lld, got status %d value %lld (%s)", text, (long long)want,
                 (int)st, (long long)out, why);
}

static void expect_bad(const char *text)
{
    rtp_ns out = SENTINEL;
    char why[128] = "";
    rtp_status st = rtp_duration_parse(text, &out, why, sizeof why);
    if (st != RTP_EINPUT || out != SENTINEL || why[0] == '\0')
        fail_msg("\"%s\": want RTP_EINPUT with a reason and *out untouched, got status %d "
                 "value %lld",
                 text, (int)st, (long long)out);
}

static void test_units(void **state)
{
    (void)state;
    expect_ok("1ns", 1);
    expect_ok("1us", 1000);
    expect_ok("1ms", 1000000);
    expect_ok("1s", 1000000000);
    expect_ok("0ns", 0); /* zero parses; the task reader rejects it */
    expect_ok("0s", 0);
    expect_ok("250us", 250000);
    expect_ok("250µs", 250000); /* U+00B5 micro sign */
    expect_ok("250μs", 250000); /* U+03BC Greek small mu */
    expect_ok("1.5µs", 1500);
    expect_ok("5ms", 5000000);
    expect_ok("16666666ns", 16666666);
    expect_ok("007ms", 7000000);
    assert_int_equal(rtp_duration_unit("ns"), 1);
    assert_int_equal(rtp_duration_unit("us"), 1000);
    assert_int_equal(rtp_duration_unit("ms"), 1000000);
    assert_int_equal(rtp_duration_unit("s"), 1000000000);
    assert_int_equal(rtp_duration_unit("m"), 0);
    assert_int_equal(rtp_duration_unit("MS"), 0);
    assert_int_equal(rtp_duration_unit(""), 0);
    assert_int_equal(rtp_duration_unit("min"), 0);
    assert_int_equal(rtp_duration_unit(NULL), 0);
}

static void test_exact_decimals(void **state)
{
    (void)state;
    expect_ok("16.666666ms", 16666666);
    expect_ok("1.5us", 1500);
    expect_ok("0.000000001s", 1);
    expect_ok("0.000001ms", 1);
    expect_ok("0.001us", 1);
    /* Trailing zeros do not count: 1.500000000000us is 1500 ns. (The value
     * "1.500000000000ns" is 1.5 ns, not whole: see test_errors.) */
    expect_ok("1.500000000000us", 1500);
    expect_ok("1.000000000000ns", 1);
    expect_ok("1.000000000000000000000000000000ns", 1);
    expect_ok("2.5000s", 2500000000);
    expect_ok("0.1s", 100000000);
    expect_ok("1.999999999s", 1999999999);
    expect_ok("3.0ns", 3);
    expect_ok("0.5ms", 500000);
    expect_ok("0.0s", 0);
}

static void test_errors(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "1.5ns",  "1.500000000000ns", "1.0000000001s", "0.0000000001s", "0.0001us", "0.0000001ms", "5",
        "ms",     "5 ms",          " 5ms",          "5ms ",     "-5ms",        "+5ms",
        "5MS",    "5Ms",           "5m",            "5sec",     "5min",        "5h",
        "1e3ns",  "1E3ns",         ".5ms",          "5.ms",     "5..5ms",      "5.5.5ms",
        "",       "ns",            ".ns",           "0x10ns",   "1,5ms",       "5msms",
        "5nss",   "5 ",            "five ms",       "5\tms",    "5ms\n",       "½ms",
        "5µ",     "1.5",           "NaN",           "infns",    "-0ns",       "5\xb5s",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        expect_bad(bad[i]);
}

static void test_limit(void **state)
{
    (void)state;
    expect_ok("4611686018427387904ns", LIMIT); /* exactly 2^62 */
    expect_ok("4611686018427387903ns", LIMIT - 1);
    expect_ok("4611686018.427387904s", LIMIT);
    expect_ok("4611686018427387.904us", LIMIT);
    expect_ok("4611686018427.387904ms", LIMIT);
    expect_ok("04611686018427387904ns", LIMIT);
    expect_ok("4611686018427387904.000ns", LIMIT);
    expect_bad("4611686018427387905ns");
    expect_bad("4611686018.427387905s");
    expect_bad("4611686019s");
    expect_bad("4611686018427388us");
    expect_bad("9223372036854775807ns");
    expect_bad("9223372036854775808ns");
    expect_bad("18446744073709551616ns");
    expect_bad("99999999999999999999999999999999999999999999999999ns");
    expect_bad("99999999999999999999999999999999999999999999999999.5ns");
    expect_bad("340282366920938463463374607431768211457s"); /* 2^128 + 1 */
}

static void test_why_is_specific(void **state)
{
    (void)state;
    char why[128];
    rtp_ns out;
    assert_int_equal(rtp_duration_parse("1.5ns", &out, why, sizeof why), RTP_EINPUT);
    assert_non_null(strstr(why, "whole number of ns"));
    assert_int_equal(rtp_duration_parse("4611686018427387905ns", &out, why, sizeof why),
                     RTP_EINPUT);
    assert_non_null(strstr(why, "2^62"));
    /* A NULL or tiny reason buffer is tolerated. */
    assert_int_equal(rtp_duration_parse("x", &out, NULL, 0), RTP_EINPUT);
    char tiny[4];
    assert_int_equal(rtp_duration_parse("x", &out, tiny, sizeof tiny), RTP_EINPUT);
    assert_int_equal(strlen(tiny), 3);
}

static void test_scale(void **state)
{
    (void)state;
    rtp_ns out = SENTINEL;
    assert_int_equal(rtp_duration_scale(5, 1000000, &out), RTP_OK);
    assert_int_equal(out, 5000000);
    assert_int_equal(rtp_duration_scale(0, 1, &out), RTP_OK);
    assert_int_equal(out, 0);
    assert_int_equal(rtp_duration_scale(4611686018, 1000000000, &out), RTP_OK);
    assert_int_equal(out, 4611686018000000000LL);
    out = SENTINEL;
    assert_int_equal(rtp_duration_scale(4611686019, 1000000000, &out), RTP_EINPUT);
    assert_int_equal(rtp_duration_scale(LIMIT, 1, &out), RTP_OK);
    assert_int_equal(out, LIMIT);
    out = SENTINEL;
    assert_int_equal(rtp_duration_scale(LIMIT + 1, 1, &out), RTP_EINPUT);
    assert_int_equal(rtp_duration_scale(INT64_MAX, 1000, &out), RTP_EINPUT);
    assert_int_equal(rtp_duration_scale(-1, 1, &out), RTP_EINPUT);
    assert_int_equal(rtp_duration_scale(1, 0, &out), RTP_EINPUT);
    assert_int_equal(rtp_duration_scale(1, -1000, &out), RTP_EINPUT);
    assert_int_equal(out, SENTINEL);
}

static void expect_format(rtp_ns value, const char *want)
{
    char buf[64];
    rtp_duration_format(value, buf, sizeof buf);
    if (strcmp(buf, want) != 0)
        fail_msg("format(%lld): want \"%s\", got \"%s\"", (long long)value, want, buf);
}

static void test_format(void **state)
{
    (void)state;
    expect_format(0, "0ns");
    expect_format(1, "1ns");
    expect_format(999, "999ns");
    expect_format(1000, "1us");
    expect_format(1500, "1.5us");
    expect_format(1001, "1.001us");
    expect_format(5000000, "5ms");
    expect_format(16666666, "16.666666ms");
    expect_format(1000000000, "1s");
    expect_format(1000000001, "1000.000001ms");
    expect_format(1234567891, "1234.567891ms");
    expect_format(2500000000, "2.5s");
    expect_format(LIMIT, "4611686018427.387904ms");
    char tiny[4];
    rtp_duration_format(16666666, tiny, sizeof tiny);
    assert_int_equal(strlen(tiny), 3);
}

/* Reference: "<int>.<frac><unit>" -> ns via one __int128 numerator, or -1
 * when not whole / out of range. Independent of the library's algorithm. */
static rtp_ns reference(uint64_t whole, const char *frac, rtp_ns unit)
{
    __int128 num = whole, den = 1;
    for (const char *p = frac; *p; p++) {
        num = num * 10 + (*p - '0');
        den *= 10;
    }
    num *= unit;
    if (num % den != 0 || num / den > LIMIT)
        return -1;
    return (rtp_ns)(num / den);
}

static void test_random_against_reference(void **state)
{
    (void)state;
    static const char *const names[] = {"ns", "us", "ms", "s"};
    static const rtp_ns units[] = {1, 1000, 1000000, 1000000000};
    tu_rng rng = {42};
    int accepted = 0;
    for (int i = 0; i < 100000; i++) {
        int u = (int)tu_range(&rng, 0, 3);
        uint64_t whole = (uint64_t)tu_range(&rng, 0, tu_range(&rng, 0, 1) ? 9999999999LL : 99);
        char frac[16] = "";
        int frac_len = (int)tu_range(&rng, 0, 12);
        for (int k = 0; k < frac_len; k++)
            frac[k] = (char)('0' + (tu_range(&rng, 0, 2) ? 0 : tu_range(&rng, 0, 9)));
        frac[frac_len] = '\0';
        char text[64];
        if (frac_len > 0)
            snprintf(text, sizeof text, "%llu.%s%s", (unsigned long long)whole, frac, names[u]);
        else
            snprintf(text, sizeof text, "%llu%s", (unsigned long long)whole, names[u]);
        rtp_ns want = reference(whole, frac, units[u]);
        if (want >= 0) {
            expect_ok(text, want);
            accepted++;
        } else {
            expect_bad(text);
        }
    }
    assert_true(accepted > 20000 && accepted < 90000); /* both sides exercised */
}

static void test_format_round_trip(void **state)
{
    (void)state;
    tu_rng rng = {7};
    char buf[64];
    for (int i = 0; i < 100000; i++) {
        rtp_ns v;
        switch (tu_range(&rng, 0, 3)) {
        case 0: v = tu_range(&rng, 0, LIMIT); break;
        case 1: v = tu_range(&rng, 0, 100000) * (rtp_ns)1000 * tu_range(&rng, 1, 1000000); break;
        case 2: v = LIMIT - tu_range(&rng, 0, 1000000); break;
        default: v = tu_range(&rng, 0, 5000000000LL); break;
        }
        rtp_duration_format(v, buf, sizeof buf);
        rtp_ns back = SENTINEL;
        char why[128];
        if (rtp_duration_parse(buf, &back, why, sizeof why) != RTP_OK || back != v)
            fail_msg("round trip %lld -> \"%s\" -> %lld", (long long)v, buf, (long long)back);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_units),
        cmocka_unit_test(test_exact_decimals),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_limit),
        cmocka_unit_test(test_why_is_specific),
        cmocka_unit_test(test_scale),
        cmocka_unit_test(test_format),
        cmocka_unit_test(test_random_against_reference),
        cmocka_unit_test(test_format_round_trip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
