/* tests/test_arith.c — checked arithmetic (models/arith.h): edge tables at the
 * int64 limits, "out untouched on overflow", and seeded random operands
 * against an __int128 reference. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "models/arith.h"
#include "support/testutil.h"

#define MAX INT64_MAX
#define MIN INT64_MIN
#define SENTINEL ((rtp_ns)0x5EED5EED)

typedef rtp_status (*binop)(rtp_ns, rtp_ns, rtp_ns *);

typedef struct row {
    rtp_ns a, b;
    int ok;       /* 1: RTP_OK with `want`; 0: RTP_ELIMIT, out untouched */
    rtp_ns want;
} row;

static void run_table(binop op, const row *rows, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        rtp_ns out = SENTINEL;
        rtp_status st = op(rows[i].a, rows[i].b, &out);
        if (rows[i].ok) {
            assert_int_equal(st, RTP_OK);
            assert_int_equal(out, rows[i].want);
        } else {
            assert_int_equal(st, RTP_ELIMIT);
            assert_int_equal(out, SENTINEL);
        }
    }
}

#define N(rows) (sizeof rows / sizeof rows[0])

static void test_add(void **state)
{
    (void)state;
    static const row rows[] = {
        {0, 0, 1, 0},          {1, 2, 1, 3},         {MAX, 0, 1, MAX},
        {MAX, 1, 0, 0},        {MAX, MAX, 0, 0},     {MIN, 0, 1, MIN},
        {MIN, -1, 0, 0},       {MIN, MIN, 0, 0},     {MAX, MIN, 1, -1},
        {MAX - 1, 1, 1, MAX},  {MIN + 1, -1, 1, MIN},
        /* base.h: "a sum of two valid times never overflows" holds only
         * below the limit: 2^62 + (2^62 - 1) fits, 2^62 + 2^62 does not. */
        {RTP_NS_LIMIT, RTP_NS_LIMIT - 1, 1, MAX}, {RTP_NS_LIMIT, RTP_NS_LIMIT, 0, 0},
    };
    run_table(rtp_add, rows, N(rows));
}

static void test_sub(void **state)
{
    (void)state;
    static const row rows[] = {
        {0, 0, 1, 0},        {5, 7, 1, -2},      {MIN, 1, 0, 0},     {MIN, 0, 1, MIN},
        {MAX, -1, 0, 0},     {0, MIN, 0, 0},     {-1, MIN, 1, MAX},  {MAX, MAX, 1, 0},
        {MIN, MIN, 1, 0},    {MIN + 1, 1, 1, MIN},
    };
    run_table(rtp_sub, rows, N(rows));
}

static void test_mul(void **state)
{
    (void)state;
    static const row rows[] = {
        {0, MAX, 1, 0},           {MAX, 1, 1, MAX},           {MAX, 2, 0, 0},
        {MIN, 1, 1, MIN},         {MIN, -1, 0, 0},            {-1, MIN, 0, 0},
        {(rtp_ns)1 << 31, (rtp_ns)1 << 31, 1, (rtp_ns)1 << 62},
        {(rtp_ns)1 << 32, (rtp_ns)1 << 31, 0, 0},
        {(rtp_ns)1 << 32, -((rtp_ns)1 << 31), 1, MIN},
        {3037000499LL, 3037000499LL, 1, 3037000499LL * 3037000499LL},
        {3037000500LL, 3037000500LL, 0, 0},
        {-3, 4, 1, -12},
    };
    run_table(rtp_mul, rows, N(rows));
}

static void test_div_ceil(void **state)
{
    (void)state;
    static const row rows[] = {
        {0, 1, 1, 0},        {1, 1, 1, 1},       {7, 2, 1, 4},        {8, 2, 1, 4},
        {MAX, 1, 1, MAX},    {MAX, MAX, 1, 1},   {MAX - 1, MAX, 1, 1}, {MAX, 2, 1, MAX / 2 + 1},
        {1, MAX, 1, 1},      {-1, 1, 0, 0},      {5, 0, 0, 0},        {5, -1, 0, 0},
        {MIN, 1, 0, 0},
    };
    run_table(rtp_div_ceil, rows, N(rows));
}

static void test_div_floor(void **state)
{
    (void)state;
    static const row rows[] = {
        {7, 2, 1, 3},       {-7, 2, 1, -4},     {-8, 2, 1, -4},   {0, 5, 1, 0},
        {-1, MAX, 1, -1},   {MAX, MAX, 1, 1},   {MIN, 1, 1, MIN}, {MIN, MAX, 1, -2},
        {MIN, 2, 1, MIN / 2}, {5, 0, 0, 0},     {5, -2, 0, 0},    {MIN, -1, 0, 0},
    };
    run_table(rtp_div_floor, rows, N(rows));
}

static void test_muldiv_floor(void **state)
{
    (void)state;
    struct {
        rtp_ns a, b, c;
        int ok;
        rtp_ns want;
    } rows[] = {
        {MAX, MAX, MAX, 1, MAX},          /* 128-bit intermediate */
        {MAX, 2, 2, 1, MAX},              {MAX, 2, 1, 0, 0},
        {MAX, MAX, 1, 0, 0},              {0, MAX, 1, 1, 0},
        {7, 3, 2, 1, 10},                 {(rtp_ns)1 << 62, 4, 2, 0, 0},
        {(rtp_ns)1 << 62, 3, 2, 1, ((rtp_ns)1 << 62) + ((rtp_ns)1 << 61)},
        {-1, 1, 1, 0, 0},                 {1, -1, 1, 0, 0},
        {1, 1, 0, 0, 0},                  {1, 1, -1, 0, 0},
        {MAX, MAX - 1, MAX, 1, MAX - 1},
    };
    for (size_t i = 0; i < N(rows); i++) {
        rtp_ns out = SENTINEL;
        rtp_status st = rtp_muldiv_floor(rows[i].a, rows[i].b, rows[i].c, &out);
        assert_int_equal(st, rows[i].ok ? RTP_OK : RTP_ELIMIT);
        assert_int_equal(out, rows[i].ok ? rows[i].want : SENTINEL);
    }
}

static void test_gcd_lcm(void **state)
{
    (void)state;
    assert_int_equal(rtp_gcd(0, 0), 0);
    assert_int_equal(rtp_gcd(0, 9), 9);
    assert_int_equal(rtp_gcd(9, 0), 9);
    assert_int_equal(rtp_gcd(12, 18), 6);
    assert_int_equal(rtp_gcd(MAX, MAX), MAX);
    assert_int_equal(rtp_gcd(MAX, 7), 7); /* 2^63-1 = 7 * 73 * 127 * 337 * 92737 * 649657 */
    assert_int_equal(rtp_gcd((rtp_ns)1 << 62, (rtp_ns)3 << 40), (rtp_ns)1 << 40);
    static const row rows[] = {
        {4, 6, 1, 12},        {1, MAX, 1, MAX},     {MAX, MAX, 1, MAX},
        {MAX, 2, 0, 0},       {(rtp_ns)1 << 62, (rtp_ns)1 << 61, 1, (rtp_ns)1 << 62},
        {(rtp_ns)1 << 62, 3, 0, 0},  {3037000500LL, 3037000501LL, 0, 0}, /* co-prime, product > MAX */
        {0, 5, 0, 0},         {5, 0, 0, 0},         {-4, 6, 0, 0},
        {1000000007LL, 998244353LL, 1, 1000000007LL * 998244353LL},
    };
    run_table(rtp_lcm, rows, N(rows));
}

/* Random operands near the limits against the __int128 reference. */
static rtp_ns pick(tu_rng *rng)
{
    switch (tu_range(rng, 0, 5)) {
    case 0: return MAX - tu_range(rng, 0, 3);
    case 1: return MIN + tu_range(rng, 0, 3);
    case 2: return tu_range(rng, -4, 4);
    case 3: return (rtp_ns)(tu_next(rng) >> tu_range(rng, 0, 63)) * (tu_range(rng, 0, 1) ? 1 : -1);
    case 4: return (rtp_ns)1 << tu_range(rng, 0, 62);
    default: return (rtp_ns)tu_next(rng);
    }
}

static int fits(__int128 v) { return v >= MIN && v <= MAX; }

static void test_random_against_int128(void **state)
{
    (void)state;
    tu_rng rng = {20261203};
    for (int i = 0; i < 200000; i++) {
        rtp_ns a = pick(&rng), b = pick(&rng), c = pick(&rng), out = SENTINEL;
        __int128 wide = (__int128)a + b;
        assert_int_equal(rtp_add(a, b, &out), fits(wide) ? RTP_OK : RTP_ELIMIT);
        assert_true(out == (fits(wide) ? (rtp_ns)wide : SENTINEL));
        out = SENTINEL;
        wide = (__int128)a - b;
        assert_int_equal(rtp_sub(a, b, &out), fits(wide) ? RTP_OK : RTP_ELIMIT);
        assert_true(out == (fits(wide) ? (rtp_ns)wide : SENTINEL));
        out = SENTINEL;
        wide = (__int128)a * b;
        assert_int_equal(rtp_mul(a, b, &out), fits(wide) ? RTP_OK : RTP_ELIMIT);
        assert_true(out == (fits(wide) ? (rtp_ns)wide : SENTINEL));
        /* division: reference by the definition q*b <= a < (q+1)*b */
        out = SENTINEL;
        if (b > 0) {
            assert_int_equal(rtp_div_floor(a, b, &out), RTP_OK);
            assert_true((__int128)out * b <= a && ((__int128)out + 1) * b > a);
            if (a >= 0) {
                assert_int_equal(rtp_div_ceil(a, b, &out), RTP_OK);
                assert_true((__int128)out * b >= a && ((__int128)out - 1) * b < a);
            }
        } else {
            assert_int_equal(rtp_div_floor(a, b, &out), RTP_ELIMIT);
            assert_int_equal(rtp_div_ceil(a, b, &out), RTP_ELIMIT);
            assert_true(out == SENTINEL);
        }
        out = SENTINEL;
        if (a >= 0 && b >= 0 && c > 0) {
            unsigned __int128 q = (unsigned __int128)a * (unsigned __int128)b / (unsigned __int128)c;
            int ok = q <= (unsigned __int128)MAX;
            assert_int_equal(rtp_muldiv_floor(a, b, c, &out), ok ? RTP_OK : RTP_ELIMIT);
            assert_true(out == (ok ? (rtp_ns)q : SENTINEL));
        } else {
            assert_int_equal(rtp_muldiv_floor(a, b, c, &out), RTP_ELIMIT);
            assert_true(out == SENTINEL);
        }
        if (a > 0 && b > 0) {
            rtp_ns g = rtp_gcd(a, b);
            assert_true(g > 0 && a % g == 0 && b % g == 0 && rtp_gcd(a / g, b / g) == 1);
            unsigned __int128 l = (unsigned __int128)(a / g) * (unsigned __int128)b;
            int ok = l <= (unsigned __int128)MAX;
            out = SENTINEL;
            assert_int_equal(rtp_lcm(a, b, &out), ok ? RTP_OK : RTP_ELIMIT);
            assert_true(out == (ok ? (rtp_ns)l : SENTINEL));
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_add),          cmocka_unit_test(test_sub),
        cmocka_unit_test(test_mul),          cmocka_unit_test(test_div_ceil),
        cmocka_unit_test(test_div_floor),    cmocka_unit_test(test_muldiv_floor),
        cmocka_unit_test(test_gcd_lcm),      cmocka_unit_test(test_random_against_int128),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
