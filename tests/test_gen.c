/* tests/test_gen.c — the random task-set generators (gen/gen.h): same
 * stream same set, the exact total, caps and ranges, the distributions
 * (Kolmogorov-Smirnov with fixed seeds), impossible requests, and the
 * deterministic elementary functions against libm. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <float.h>
#include <gmp.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gen/gen.h"
#include "support/testutil.h"

#define GOLDEN_UUNIFAST 0xe249f0ba117649f8ull
#define GOLDEN_RANDFIXEDSUM 0x2108130decaffd19ull

static rtp_gen_opts opts(size_t n, int64_t unum, int64_t uden, rtp_gen_algo algo)
{
    rtp_gen_opts o = rtp_gen_opts_default();
    o.n_tasks = n;
    o.total_util = (rtp_ratio){unum, uden};
    o.algo = algo;
    return o;
}

static uint64_t hash_set(const rtp_taskset *ts)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < ts->n_tasks; i++) {
        rtp_ns v[3] = {ts->tasks[i].wcet_ns, ts->tasks[i].deadline_ns, ts->tasks[i].period_ns};
        for (int k = 0; k < 3; k++)
            for (int b = 0; b < 8; b++)
                h = (h ^ (uint8_t)(v[k] >> (8 * b))) * 1099511628211ull;
    }
    return h;
}

static void test_same_stream_same_set(void **state)
{
    (void)state;
    rtp_gen_opts o = opts(12, 27, 10, RTP_GEN_RANDFIXEDSUM);
    o.deadlines = RTP_DL_CONSTRAINED;
    rtp_taskset a, b, c;
    assert_int_equal(rtp_gen_taskset(&o, 7, 3, 11, &a, NULL), RTP_OK);
    assert_int_equal(rtp_gen_taskset(&o, 7, 3, 11, &b, NULL), RTP_OK);
    assert_int_equal(rtp_gen_taskset(&o, 7, 3, 12, &c, NULL), RTP_OK);
    char *ja = rtp_taskset_to_json(&a, 0), *jb = rtp_taskset_to_json(&b, 0);
    assert_string_equal(ja, jb);
    assert_true(hash_set(&a) != hash_set(&c));
    assert_string_equal(a.tasks[0].name, "T1");
    assert_string_equal(a.tasks[11].name, "T12");
    /* the names share the set's name block, exactly their bytes
     * (models/taskset.h): 9 x "Tk" + 3 x "T1k", with their NULs */
    assert_int_equal(a.name_block_size, 9 * 3 + 3 * 4);
    for (size_t i = 0, at = 0; i < a.n_tasks; at += strlen(a.tasks[i++].name) + 1)
        assert_ptr_equal(a.tasks[i].name, a.name_block + at);
    free(ja);
    free(jb);
    rtp_taskset_free(&a);
    rtp_taskset_free(&b);
    rtp_taskset_free(&c);
}

/* Pins the numbers drawn: if this changes, the sets of every published sweep
 * change, so RTP_GEN_VERSION must be bumped together with these values. */
static void test_golden_version(void **state)
{
    (void)state;
    assert_int_equal(RTP_GEN_VERSION, 1);
    rtp_gen_opts o = opts(10, 3, 1, RTP_GEN_UUNIFAST_DISCARD);
    o.deadlines = RTP_DL_CONSTRAINED;
    o.granularity_ns = 1000;
    rtp_taskset ts;
    assert_int_equal(rtp_gen_taskset(&o, 1, 0, 0, &ts, NULL), RTP_OK);
    uint64_t h1 = hash_set(&ts);
    rtp_taskset_free(&ts);
    o.algo = RTP_GEN_RANDFIXEDSUM;
    o.deadlines = RTP_DL_ARBITRARY;
    assert_int_equal(rtp_gen_taskset(&o, 1, 0, 0, &ts, NULL), RTP_OK);
    uint64_t h2 = hash_set(&ts);
    rtp_taskset_free(&ts);
    print_message("golden: %016llx %016llx\n", (unsigned long long)h1, (unsigned long long)h2);
    assert_true(h1 == GOLDEN_UUNIFAST);
    assert_true(h2 == GOLDEN_RANDFIXEDSUM);
}

/* Every set: total in (U - 1/T_min, U] (exactly compared), wcet in
 * [1, cap T], period in range and a multiple of the granularity, deadline
 * in the model's range. When U = n x cap, every wcet is floor(cap T) and the
 * total may fall short by up to n / T_min (gen.h). */
static void check_set(const rtp_gen_opts *o, const rtp_taskset *ts)
{
    assert_int_equal(ts->n_tasks, o->n_tasks);
    rtp_ns tmin = INT64_MAX;
    for (size_t i = 0; i < ts->n_tasks; i++) {
        const rtp_task *t = &ts->tasks[i];
        tmin = t->period_ns < tmin ? t->period_ns : tmin;
        assert_true(t->period_ns >= o->period_min_ns && t->period_ns <= o->period_max_ns);
        assert_int_equal(t->period_ns % o->granularity_ns, 0);
        assert_true(t->wcet_ns >= 1);
        assert_true((__int128)t->wcet_ns * o->max_task_util.den <=
                    (__int128)t->period_ns * o->max_task_util.num);
        __int128 c = t->wcet_ns, d = t->deadline_ns, p = t->period_ns;
        switch (o->deadlines) {
        case RTP_DL_IMPLICIT:
            assert_true(d == p);
            break;
        case RTP_DL_CONSTRAINED: /* C + a(T - C) <= D <= T */
            assert_true(d <= p);
            assert_true(d * o->constrained_factor.den >=
                        c * o->constrained_factor.den + (p - c) * o->constrained_factor.num);
            break;
        case RTP_DL_ARBITRARY: /* C <= D <= bT */
            assert_true(d >= c);
            assert_true(d * o->arbitrary_factor.den <= p * o->arbitrary_factor.num);
            break;
        }
    }
    rtp_ratio u = o->total_util;
    rtp_ratio lo = {u.num * tmin - u.den, u.den * tmin};
    assert_true(rtp_load_cmp(ts->tasks, ts->n_tasks, RTP_LOAD_UTIL, u) <= 0);
    if ((__int128)u.num * o->max_task_util.den ==
        (__int128)o->max_task_util.num * (int64_t)o->n_tasks * u.den) /* U = n cap */
        lo.num = u.num * tmin - u.den * (int64_t)o->n_tasks;
    assert_true(rtp_load_cmp(ts->tasks, ts->n_tasks, RTP_LOAD_UTIL, lo) >= 0);
}

static void test_exact_total_and_ranges(void **state)
{
    (void)state;
    tu_rng rng = {2024};
    int sets = 0;
    for (int round = 0; round < 3000; round++) {
        size_t n = (size_t)tu_range(&rng, 1, 24);
        rtp_gen_algo algo = (rtp_gen_algo)tu_range(&rng, 0, 1);
        int64_t cap_pct = tu_range(&rng, 20, 100);
        /* total in (0, n cap], well inside for UUniFast-discard */
        int64_t max_pct = (int64_t)n * cap_pct * (algo == RTP_GEN_RANDFIXEDSUM ? 100 : 35) / 100;
        int64_t total_pct = tu_range(&rng, 1, max_pct < 1 ? 1 : max_pct);
        if (algo == RTP_GEN_UUNIFAST_DISCARD && n > 1 && total_pct >= (int64_t)n * cap_pct)
            continue;
        rtp_gen_opts o = opts(n, total_pct, 100, algo);
        o.max_task_util = (rtp_ratio){cap_pct, 100};
        o.deadlines = (rtp_gen_deadlines)tu_range(&rng, 0, 2);
        o.period_min_ns = tu_range(&rng, 1, 10000) * 1000;
        o.period_max_ns = o.period_min_ns * tu_range(&rng, 1, 1000);
        o.granularity_ns = tu_range(&rng, 0, 1) ? 1 : 1000;
        o.harmonic = tu_range(&rng, 0, 4) == 0;
        o.constrained_factor = (rtp_ratio){tu_range(&rng, 0, 10), 10};
        o.arbitrary_factor = (rtp_ratio){tu_range(&rng, 10, 40), 10};
        rtp_taskset ts;
        rtp_diag diag;
        rtp_status st = rtp_gen_taskset(&o, (uint64_t)round, 5, 9, &ts, &diag);
        if (st == RTP_ELIMIT)
            continue; /* discard budget spent: allowed, never a wrong set */
        if (st != RTP_OK)
            print_message("%s\n", diag.message);
        assert_int_equal(st, RTP_OK);
        check_set(&o, &ts);
        rtp_taskset_free(&ts);
        sets++;
    }
    print_message("checked %d generated sets\n", sets);
    assert_true(sets > 2500);
}

static void test_period_set(void **state)
{
    (void)state;
    static const rtp_ns set[] = {5000000, 10000000, 20000000};
    rtp_gen_opts o = opts(30, 5, 2, RTP_GEN_RANDFIXEDSUM);
    o.period_set = set;
    o.n_period_set = 3;
    int seen[3] = {0, 0, 0};
    rtp_taskset ts;
    assert_int_equal(rtp_gen_taskset(&o, 3, 0, 0, &ts, NULL), RTP_OK);
    for (size_t i = 0; i < ts.n_tasks; i++)
        for (int k = 0; k < 3; k++)
            seen[k] += ts.tasks[i].period_ns == set[k];
    assert_int_equal(seen[0] + seen[1] + seen[2], 30);
    assert_true(seen[0] > 0 && seen[1] > 0 && seen[2] > 0);
    rtp_taskset_free(&ts);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* One-sample KS statistic of sorted x against a CDF. */
static double ks_one(double *x, size_t n, double (*cdf)(double, double), double param)
{
    qsort(x, n, sizeof *x, cmp_double);
    double d = 0.0;
    for (size_t i = 0; i < n; i++) {
        double f = cdf(x[i], param);
        double a = fabs((double)(i + 1) / (double)n - f), b = fabs(f - (double)i / (double)n);
        d = fmax(d, fmax(a, b));
    }
    return d;
}

/* Beta(1, k) CDF: 1 - (1 - x)^k, the marginal of a uniform point of the
 * (k+1)-simplex [BB05]. */
static double beta_1k(double x, double k) { return 1.0 - pow(1.0 - x, k); }
static double uniform01(double x, double unused) { (void)unused; return x; }

#define KS_SAMPLES 4000
#define KS_CRIT_1PCT(n) (1.63 / sqrt((double)(n)))

static void test_uunifast_marginals_beta(void **state)
{
    (void)state;
    for (int algo = 0; algo < 2; algo++) {
        rtp_gen_opts o = opts(5, 1, 1, (rtp_gen_algo)algo); /* cap 1 never binds */
        double *first = malloc(KS_SAMPLES * sizeof *first), *last = malloc(KS_SAMPLES * sizeof *last);
        double u[5];
        for (size_t s = 0; s < KS_SAMPLES; s++) {
            rtp_rng rng = rtp_rng_stream(99, (uint64_t)algo, s);
            assert_int_equal(rtp_gen_utilizations(&o, &rng, u, NULL), RTP_OK);
            double sum = u[0] + u[1] + u[2] + u[3] + u[4];
            assert_true(fabs(sum - 1.0) < 1e-12);
            first[s] = u[0];
            last[s] = u[4];
        }
        double d1 = ks_one(first, KS_SAMPLES, beta_1k, 4.0), d2 = ks_one(last, KS_SAMPLES, beta_1k, 4.0);
        print_message("%s KS D = %.4f, %.4f (1%% critical %.4f)\n", rtp_gen_algo_name((rtp_gen_algo)algo),
                      d1, d2, KS_CRIT_1PCT(KS_SAMPLES));
        assert_true(d1 < KS_CRIT_1PCT(KS_SAMPLES));
        assert_true(d2 < KS_CRIT_1PCT(KS_SAMPLES));
        free(first);
        free(last);
    }
}

/* Above 1 with a cap, both algorithms sample uniformly over the capped
 * simplex: their marginals must agree (two-sample KS). */
static void test_capped_algorithms_agree(void **state)
{
    (void)state;
    double *x[2];
    double u[4];
    for (int algo = 0; algo < 2; algo++) {
        rtp_gen_opts o = opts(4, 5, 2, (rtp_gen_algo)algo); /* U = 2.5, cap 1 */
        x[algo] = malloc(KS_SAMPLES * sizeof(double));
        for (size_t s = 0; s < KS_SAMPLES; s++) {
            rtp_rng rng = rtp_rng_stream(5, 100 + (uint64_t)algo, s);
            assert_int_equal(rtp_gen_utilizations(&o, &rng, u, NULL), RTP_OK);
            for (int i = 0; i < 4; i++)
                assert_true(u[i] >= 0.0 && u[i] <= 1.0);
            x[algo][s] = u[s % 4];
        }
        qsort(x[algo], KS_SAMPLES, sizeof(double), cmp_double);
    }
    double d = 0.0;
    size_t i = 0, j = 0;
    while (i < KS_SAMPLES && j < KS_SAMPLES) {
        double v = fmin(x[0][i], x[1][j]);
        while (i < KS_SAMPLES && x[0][i] <= v)
            i++;
        while (j < KS_SAMPLES && x[1][j] <= v)
            j++;
        d = fmax(d, fabs((double)i - (double)j) / KS_SAMPLES);
    }
    double crit = 1.63 * sqrt(2.0 / KS_SAMPLES);
    print_message("two-sample KS D = %.4f (1%% critical %.4f)\n", d, crit);
    assert_true(d < crit);
    free(x[0]);
    free(x[1]);
}


/* Stafford's RandFixedSum with its whole tables, as gen.c had it before it
 * kept only the band the draw reads: the slow reference (same operations,
 * so the same doubles). */
static void ref_randfixedsum(size_t n, double s, rtp_rng *rng, double *x)
{
    double *w = calloc(n * (n + 1), sizeof *w), *t = calloc(n * n, sizeof *t);
    double *s1 = malloc(n * sizeof *s1), *s2 = malloc(n * sizeof *s2);
    assert_non_null(w);
    assert_non_null(t);
#define W(i, j) w[(i) * (n + 1) + (j)]
#define T(i, j) t[(i) * n + (j)]
    double kf = floor(s);
    if (kf > (double)(n - 1))
        kf = (double)(n - 1);
    if (kf < 0.0)
        kf = 0.0;
    size_t k = (size_t)kf;
    if (s < kf)
        s = kf;
    if (s > kf + 1.0)
        s = kf + 1.0;
    for (size_t i = 0; i < n; i++) {
        s1[i] = s - (kf - (double)i);
        s2[i] = (kf + (double)(n - i)) - s;
    }
    W(0, 1) = DBL_MAX;
    const double tiny = 4.9406564584124654e-324;
    for (size_t i = 2; i <= n; i++) {
        size_t r = i - 1;
        for (size_t j = 1; j <= i; j++) {
            double tmp1 = W(r - 1, j) * s1[j - 1] / (double)i;
            double tmp2 = W(r - 1, j - 1) * s2[n - i + j - 1] / (double)i;
            W(r, j) = tmp1 + tmp2;
            double tmp3 = W(r, j) + tiny;
            int right = s2[n - i + j - 1] > s1[j - 1];
            T(r - 1, j - 1) = right ? tmp2 / tmp3 : 1.0 - tmp1 / tmp3;
        }
    }
    double sm = 0.0, pr = 1.0;
    size_t j = k + 1;
    for (size_t i = n - 1; i >= 1; i--) {
        double rt = rtp_rng_unit(rng), rs = rtp_rng_unit(rng);
        int e = rt <= T(i - 1, j - 1);
        double sx = rtp_gen_pow(rs, 1.0 / (double)i);
        sm += (1.0 - sx) * pr * s / (double)(i + 1);
        pr *= sx;
        x[n - i - 1] = sm + pr * (double)e;
        s -= (double)e;
        j -= (size_t)e;
    }
    x[n - 1] = sm + pr * s;
#undef W
#undef T
    free(w), free(t), free(s1), free(s2);
    for (size_t i = n - 1; i >= 1; i--) {
        size_t pick = (size_t)rtp_rng_range(rng, 0, (int64_t)i);
        double tmp = x[i];
        x[i] = x[pick];
        x[pick] = tmp;
    }
}

/* gen.c's banded RandFixedSum against the full tables, bit for bit: n 1..400,
 * totals from near 0 to near n x cap (k = floor(U / cap) from 0 to n - 1),
 * caps 1, 1/2, 3/10; and a band past 2^26 numbers refused up front. */
static void test_randfixedsum_band(void **state)
{
    (void)state;
    tu_rng pick = {2727};
    double *a = malloc(400 * sizeof *a), *b = malloc(400 * sizeof *b);
    for (int c = 0; c < 600; c++) {
        size_t n = (size_t)tu_range(&pick, 1, c % 10 == 0 ? 400 : 40);
        static const int64_t caps[][2] = {{1, 1}, {1, 2}, {3, 10}};
        const int64_t *cap = caps[tu_range(&pick, 0, 2)];
        int64_t den = 1000, num = tu_range(&pick, 1, (int64_t)n * den * cap[0] / cap[1]);
        rtp_gen_opts o = opts(n, num, den, RTP_GEN_RANDFIXEDSUM);
        o.max_task_util = (rtp_ratio){cap[0], cap[1]};
        rtp_rng r1 = rtp_rng_stream(27, (uint64_t)c, 1), r2 = r1;
        assert_int_equal(rtp_gen_utilizations(&o, &r1, a, NULL), RTP_OK);
        double capd = (double)cap[0] / (double)cap[1];
        ref_randfixedsum(n, ((double)num / (double)den) / capd, &r2, b);
        for (size_t i = 0; i < n; i++)
            assert_true(a[i] == b[i] * capd);
        assert_true(r1.state == r2.state);
    }
    free(a);
    free(b);
    rtp_gen_opts o = opts(100000, 50000, 1, RTP_GEN_RANDFIXEDSUM);
    rtp_rng r = rtp_rng_stream(1, 0, 0);
    double *u = malloc(100000 * sizeof *u);
    rtp_diag d;
    assert_int_equal(rtp_gen_utilizations(&o, &r, u, &d), RTP_ELIMIT);
    assert_non_null(strstr(d.message, "randfixedsum"));
    o = opts(100000, 9, 10, RTP_GEN_RANDFIXEDSUM); /* the band of U = 0.9: 2 wide */
    assert_int_equal(rtp_gen_utilizations(&o, &r, u, &d), RTP_OK);
    free(u);
}

static void test_log_uniform_periods(void **state)
{
    (void)state;
    rtp_gen_opts o = opts(50, 1, 1, RTP_GEN_UUNIFAST_DISCARD);
    o.period_min_ns = 1000000;
    o.period_max_ns = 1000000000;
    double *x = malloc(KS_SAMPLES * sizeof *x);
    double lo = log(1e6), span = log(1e9 + 1) - lo;
    for (size_t s = 0; s < KS_SAMPLES / 50; s++) {
        rtp_taskset ts;
        assert_int_equal(rtp_gen_taskset(&o, 11, 0, s, &ts, NULL), RTP_OK);
        for (size_t i = 0; i < 50; i++)
            x[s * 50 + i] = (log((double)ts.tasks[i].period_ns) - lo) / span;
        rtp_taskset_free(&ts);
    }
    double d = ks_one(x, KS_SAMPLES, uniform01, 0.0);
    print_message("log-period KS D = %.4f\n", d);
    assert_true(d < KS_CRIT_1PCT(KS_SAMPLES));
    free(x);
}

static void test_impossible_requests(void **state)
{
    (void)state;
    rtp_taskset ts;
    rtp_diag diag;
    rtp_gen_opts o = opts(4, 41, 10, RTP_GEN_RANDFIXEDSUM); /* 4.1 > 4 x 1 */
    assert_int_equal(rtp_gen_taskset(&o, 1, 0, 0, &ts, &diag), RTP_EINPUT);
    assert_non_null(strstr(diag.message, "impossible"));
    o = opts(4, 2, 1, RTP_GEN_RANDFIXEDSUM);
    o.max_task_util = (rtp_ratio){1, 2}; /* exactly n x cap: every task at 1/2 */
    assert_int_equal(rtp_gen_taskset(&o, 1, 0, 0, &ts, &diag), RTP_OK);
    rtp_taskset_free(&ts);
    o.algo = RTP_GEN_UUNIFAST_DISCARD;
    assert_int_equal(rtp_gen_taskset(&o, 1, 0, 0, &ts, &diag), RTP_EINPUT);
    o = opts(8, 79, 10, RTP_GEN_UUNIFAST_DISCARD); /* 7.9 of 8: discards forever */
    o.max_attempts = 200;
    assert_int_equal(rtp_gen_taskset(&o, 1, 0, 0, &ts, &diag), RTP_ELIMIT);
    o = opts(0, 1, 1, RTP_GEN_UUNIFAST_DISCARD);
    assert_int_equal(rtp_gen_taskset(&o, 1, 0, 0, &ts, &diag), RTP_EINPUT);
    o = opts(3, 1, 1, RTP_GEN_UUNIFAST_DISCARD);
    o.period_min_ns = 1500;
    o.period_max_ns = 1900;
    o.granularity_ns = 1000; /* no multiple of 1us in [1.5us, 1.9us] */
    assert_int_equal(rtp_gen_taskset(&o, 1, 0, 0, &ts, &diag), RTP_EINPUT);
    o.granularity_ns = 100;
    o.max_task_util = (rtp_ratio){3, 2};
    assert_int_equal(rtp_gen_taskset(&o, 1, 0, 0, &ts, &diag), RTP_EINPUT);
    /* regression: periods up to 2^62 ns are fine unless deadlines are
     * arbitrary (factor 2 would pass 2^62); implicit was refused */
    o = opts(3, 1, 1, RTP_GEN_UUNIFAST_DISCARD);
    o.period_min_ns = 1000000000;
    o.period_max_ns = RTP_NS_LIMIT;
    assert_int_equal(rtp_gen_taskset(&o, 1, 0, 0, &ts, &diag), RTP_OK);
    rtp_taskset_free(&ts);
    o.deadlines = RTP_DL_ARBITRARY;
    assert_int_equal(rtp_gen_taskset(&o, 1, 0, 0, &ts, &diag), RTP_EINPUT);
}

static void test_elementary_functions(void **state)
{
    (void)state;
    tu_rng rng = {77};
    for (int i = 0; i < 20000; i++) {
        double x = ldexp((double)tu_range(&rng, 1, 1 << 30), (int)tu_range(&rng, -60, 40));
        assert_true(fabs(rtp_gen_log(x) - log(x)) <= 1e-14 * fmax(1.0, fabs(log(x))));
        double y = (double)tu_range(&rng, -700000, 700000) / 1000.0;
        assert_true(fabs(rtp_gen_exp(y) - exp(y)) <= 1e-13 * exp(y));
        double r = (double)tu_range(&rng, 1, 1 << 30) / (double)(1 << 30);
        double k = (double)tu_range(&rng, 1, 100);
        assert_true(fabs(rtp_gen_pow(r, 1.0 / k) - pow(r, 1.0 / k)) <= 1e-13);
    }
}

static void test_cli_gen(void **state)
{
    (void)state;
    char *a = NULL, *b = NULL, *err = NULL;
    const char *args = "gen --tasks 6 --utilization 1.75 --seed 42 --deadlines constrained "
                       "--periods 1ms:100ms --generator randfixedsum --cpus 2";
    assert_int_equal(tu_run_cli(args, NULL, &a, NULL), 0);
    assert_int_equal(tu_run_cli(args, NULL, &b, NULL), 0);
    assert_string_equal(a, b);
    rtp_taskset ts;
    assert_int_equal(rtp_taskset_parse_json(a, strlen(a), &ts, NULL), RTP_OK);
    assert_int_equal(ts.n_tasks, 6);
    assert_int_equal(ts.platform.n_cpus, 2);
    rtp_taskset_free(&ts);
    free(a);
    free(b);
    assert_int_equal(tu_run_cli("gen --tasks 3 --utilization 3.5", NULL, NULL, &err), 2);
    assert_non_null(strstr(err, "impossible"));
    free(err);
    assert_int_equal(tu_run_cli("gen --tasks 3 --utilization 1 --periods 5ms", NULL, NULL, NULL), 2);
    assert_int_equal(tu_run_cli("gen --utilization 1", NULL, NULL, NULL), 2);
}

/* Periods of a few ns cannot carry every total (each wcet
 * is at least 1 ns). A set is never handed back with another utilization
 * than asked for: over seeded requests with short periods, every set
 * returned has U - 1/T_min < sum C/T <= U (exact, GMP), and every other
 * answer is RTP_EINPUT saying "impossible"; the two cases of the issue are
 * refused. */
static void test_short_periods_never_miss_the_total(void **state)
{
    (void)state;
    rtp_taskset ts;
    rtp_diag diag;
    rtp_gen_opts o = opts(5, 1, 1, RTP_GEN_UUNIFAST_DISCARD);
    o.period_min_ns = o.period_max_ns = 1; /* every set would have U = 5 */
    assert_int_equal(rtp_gen_taskset(&o, 1, 0, 0, &ts, &diag), RTP_EINPUT);
    assert_non_null(strstr(diag.message, "impossible"));
    o = opts(100, 1, 2, RTP_GEN_UUNIFAST_DISCARD);
    o.period_min_ns = 100;
    o.period_max_ns = 200; /* sets came out at U = 0.706 */
    assert_int_equal(rtp_gen_taskset(&o, 1, 0, 0, &ts, &diag), RTP_EINPUT);
    assert_non_null(strstr(diag.message, "impossible"));
    rtp_rng rng = rtp_rng_stream(23, 4, 0);
    mpq_t sum, term, want, low;
    mpq_inits(sum, term, want, low, NULL);
    int made = 0, refused = 0;
    for (int k = 0; k < 3000; k++) {
        o = opts((size_t)rtp_rng_range(&rng, 1, 40), rtp_rng_range(&rng, 1, 1000), 1000,
                 rtp_rng_range(&rng, 0, 1) ? RTP_GEN_RANDFIXEDSUM : RTP_GEN_UUNIFAST_DISCARD);
        o.period_min_ns = rtp_rng_range(&rng, 1, 300);
        o.period_max_ns = o.period_min_ns * rtp_rng_range(&rng, 1, 5);
        o.max_task_util = (rtp_ratio){rtp_rng_range(&rng, 500, 1000), 1000};
        o.max_attempts = 200;
        if (rtp_gen_check(&o, NULL) != RTP_OK)
            continue;
        rtp_status st = rtp_gen_taskset(&o, 9, (uint64_t)k, 0, &ts, &diag);
        if (st == RTP_ELIMIT)
            continue; /* uunifast-discard near n x cap */
        if (st != RTP_OK) {
            assert_int_equal(st, RTP_EINPUT);
            assert_non_null(strstr(diag.message, "impossible"));
            refused++;
            continue;
        }
        made++;
        mpq_set_ui(sum, 0, 1);
        rtp_ns t_min = ts.tasks[0].period_ns;
        for (size_t i = 0; i < ts.n_tasks; i++) {
            mpq_set_ui(term, (unsigned long)ts.tasks[i].wcet_ns,
                       (unsigned long)ts.tasks[i].period_ns);
            mpq_canonicalize(term);
            mpq_add(sum, sum, term);
            t_min = ts.tasks[i].period_ns < t_min ? ts.tasks[i].period_ns : t_min;
        }
        mpq_set_si(want, o.total_util.num, (unsigned long)o.total_util.den);
        mpq_canonicalize(want);
        mpq_set_ui(term, 1, (unsigned long)t_min);
        mpq_sub(low, want, term);
        /* at n x cap the caps may hold the total lower (gen.h) */
        int at_cap = (__int128)o.total_util.num * o.max_task_util.den ==
                     (__int128)o.max_task_util.num * (int64_t)o.n_tasks * o.total_util.den;
        if (mpq_cmp(sum, want) > 0 || (!at_cap && mpq_cmp(sum, low) <= 0))
            fail_msg("request %d: n %zu, U %lld/%lld, periods %lld..%lld: total %.9f", k,
                     o.n_tasks, (long long)o.total_util.num, (long long)o.total_util.den,
                     (long long)o.period_min_ns, (long long)o.period_max_ns, mpq_get_d(sum));
        rtp_taskset_free(&ts);
    }
    mpq_clears(sum, term, want, low, NULL);
    print_message("short periods: %d sets made, %d refused\n", made, refused);
    assert_true(made > 500 && refused > 100);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_stream_same_set),
        cmocka_unit_test(test_golden_version),
        cmocka_unit_test(test_exact_total_and_ranges),
        cmocka_unit_test(test_period_set),
        cmocka_unit_test(test_uunifast_marginals_beta),
        cmocka_unit_test(test_capped_algorithms_agree),
        cmocka_unit_test(test_randfixedsum_band),
        cmocka_unit_test(test_log_uniform_periods),
        cmocka_unit_test(test_impossible_requests),
        cmocka_unit_test(test_short_periods_never_miss_the_total),
        cmocka_unit_test(test_elementary_functions),
        cmocka_unit_test(test_cli_gen),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
