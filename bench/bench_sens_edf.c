/* bench/bench_sens_edf.c — EDF sensitivity (wcet_max of every task, the
 * critical scaling factor) per set, answers and thread CPU times, one line
 * per set, for comparing two builds on the same sets: answers must be
 * identical (or both exit 3), times as per-set ratios.
 *
 * Families (SETS sets each, seeds FIRST..FIRST + SETS - 1):
 *   family  gen: 20 tasks, U = 0.8, constrained, periods 1ms:100ms at 1 us
 *           (bench_analysis's sensitivity family);
 *   near    gen: 10 tasks, U = 0.99 / 0.999 / 0.9999 in turn, constrained,
 *           periods 1ms:100ms at 1 us;
 *   deep    5-8 tasks, U 0.60-0.97, periods 50-5,000 ns, D in
 *           [C + (T - C) / 2, T], blocking on some (test_edf_deep's kind);
 *   fdeep   4-7 tasks, U 0.50-0.95, periods 50-2,000 ns, D in
 *           [C + (T - C) / 3, T] (test_edf_factor_deep's kind);
 *   top     4-8 tasks, U 0.97-1.00, periods 50-5,000 ns, blocking on some;
 *   huge    2-6 tasks, U 0.5-0.99, periods 2^40-2^61 ns (hyperperiods past
 *           2^62), jitter on some.
 * Per line: family seed, then "w" status time_us wcet_max..., then "f"
 * status time_us factor (exact). Times are the minimum of REPS runs. The
 * first and last lines are `#` comments: the load average at the start and
 * at the end (the machine is shared; compare times within one load).
 *
 * With check as the fifth word, each wcet_max is also held to the plain exact test
 * (accepted at wcet_max, rejected one ns above; "edge" and the count of
 * disagreements, -1 when the plain test exits 3) after the line.
 *
 * usage: bench_sens_edf FAMILY SETS [REPS (default 1)] [FIRST seed (default 1)] [check] */
#include "bench/bench_common.h"
#include "gen/gen.h"
#include "gen/rng.h"
#include "solver/schedtest.h"
#include "solver/sensitivity.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* n tasks, U from u_lo to u_hi per mille split by random weights, periods
 * p_lo..p_hi, D in [C + (T - C) / div, T], blocking on some every third
 * task when asked, jitter (below D - C) on some when asked. */
static size_t mid_set(rtp_rng *s, int64_t n_lo, int64_t n_hi, int64_t u_lo, int64_t u_hi,
                      rtp_ns p_lo, rtp_ns p_hi, rtp_ns div, int blocking, int jitter,
                      rtp_task *ts)
{
    size_t n = (size_t)rtp_rng_range(s, n_lo, n_hi);
    int64_t w[8], sum = 0, u = rtp_rng_range(s, u_lo, u_hi);
    for (size_t i = 0; i < n; i++)
        sum += w[i] = rtp_rng_range(s, 1, 100);
    for (size_t i = 0; i < n; i++) {
        memset(&ts[i], 0, sizeof ts[i]);
        rtp_ns p = rtp_rng_range(s, p_lo, p_hi);
        rtp_ns c = (rtp_ns)((__int128)p * u * w[i] / (1000 * sum));
        c = c < 1 ? 1 : c;
        ts[i].wcet_ns = c;
        ts[i].period_ns = p;
        ts[i].deadline_ns = rtp_rng_range(s, c + (p - c) / div, p);
        if (blocking && i % 3 == 0 && rtp_rng_range(s, 0, 1))
            ts[i].blocking_ns = rtp_rng_range(s, 1, c);
        if (jitter && rtp_rng_range(s, 0, 2) == 0)
            ts[i].jitter_ns = rtp_rng_range(s, 0, (ts[i].deadline_ns - c) / 4);
    }
    return n;
}

static int make(const char *fam, uint64_t seed, rtp_taskset *ts, rtp_task *own, size_t *n)
{
    rtp_diag diag;
    if (!strcmp(fam, "family") || !strcmp(fam, "near")) {
        rtp_gen_opts o = rtp_gen_opts_default();
        int near = !strcmp(fam, "near");
        static const rtp_ratio u_near[3] = {{99, 100}, {999, 1000}, {9999, 10000}};
        o.n_tasks = near ? 10 : 20;
        o.total_util = near ? u_near[seed % 3] : (rtp_ratio){8, 10};
        o.deadlines = RTP_DL_CONSTRAINED;
        o.period_min_ns = 1000000;
        o.period_max_ns = 100000000;
        o.granularity_ns = 1000;
        if (rtp_gen_taskset(&o, seed, 0, 0, ts, &diag) != RTP_OK)
            return 0;
        *n = ts->n_tasks;
        return 1;
    }
    rtp_rng s = rtp_rng_stream(seed, (uint64_t)fam[0] * 256 + (uint64_t)fam[1], 0);
    ts->tasks = own;
    if (!strcmp(fam, "deep"))
        *n = mid_set(&s, 5, 8, 600, 970, 50, 5000, 2, 1, 0, own);
    else if (!strcmp(fam, "fdeep"))
        *n = mid_set(&s, 4, 7, 500, 950, 50, 2000, 3, 0, 0, own);
    else if (!strcmp(fam, "top"))
        *n = mid_set(&s, 4, 8, 970, 1000, 50, 5000, 2, 1, 0, own);
    else if (!strcmp(fam, "huge"))
        *n = mid_set(&s, 2, 6, 500, 990, (rtp_ns)1 << 40, (rtp_ns)1 << 61, 2, 0, 1, own);
    else
        return 0;
    return 1;
}

/* Disagreements of wcet_max with the plain exact test (accepted at
 * wcet_max, rejected one ns above; -1 as soon as the test exits 3). */
static int edges(const rtp_test *test, rtp_task *t, size_t n, const rtp_ns *wm)
{
    int bad = 0;
    for (size_t k = 0; k < n && wm[k] >= 0; k++) {
        rtp_ns keep = t[k].wcet_ns;
        for (int more = 0; more < 2; more++) {
            rtp_test_result r;
            memset(&r, 0, sizeof r);
            rtp_diag diag;
            t[k].wcet_ns = wm[k] + more;
            if (rtp_test_run(test, t, n, &r, &diag) != RTP_OK) {
                t[k].wcet_ns = keep;
                return -1;
            }
            bad += r.schedulable != !more;
        }
        t[k].wcet_ns = keep;
    }
    return bad;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: bench_sens_edf FAMILY SETS [REPS] [FIRST]\n");
        return 2;
    }
    const char *fam = argv[1];
    size_t sets = (size_t)strtoull(argv[2], NULL, 10);
    int reps = argc > 3 ? atoi(argv[3]) : 1;
    uint64_t first = argc > 4 ? strtoull(argv[4], NULL, 10) : 1;
    rtp_test test = rtp_test_exact(RTP_POLICY_EDF, RTP_PRIO_OPA, 1, rtp_limits_default());
    printf("# load average %.2f at the start\n", bench_load_average());
    for (uint64_t seed = first; seed < first + sets; seed++) {
        rtp_taskset ts;
        memset(&ts, 0, sizeof ts);
        rtp_task own[8];
        size_t n = 0;
        if (!make(fam, seed, &ts, own, &n)) {
            fprintf(stderr, "cannot make %s %llu\n", fam, (unsigned long long)seed);
            return 2;
        }
        rtp_ns wm[32];
        rtp_diag diag;
        rtp_status sw = RTP_OK, sf = RTP_OK;
        double tw = 1e300, tf = 1e300;
        char factor[512] = "-";
        for (int r = 0; r < reps; r++) {
            double t0 = bench_cpu_us();
            sw = rtp_sensitivity_wcet_max(&test, ts.tasks, n, NULL, wm, &diag);
            double t1 = bench_cpu_us();
            rtp_scaling sc;
            sf = rtp_sensitivity_scaling(&test, ts.tasks, n, NULL, &sc, &diag);
            double t2 = bench_cpu_us();
            if (t1 - t0 < tw)
                tw = t1 - t0;
            if (t2 - t1 < tf)
                tf = t2 - t1;
            if (sf == RTP_OK) {
                snprintf(factor, sizeof factor, "%s", sc.exists ? sc.exact : "none");
                rtp_scaling_free(&sc);
            }
        }
        printf("%s %llu w %d %.1f", fam, (unsigned long long)seed, (int)sw, tw);
        for (size_t i = 0; sw == RTP_OK && i < n; i++)
            printf(" %lld", (long long)wm[i]);
        printf(" f %d %.1f %s", (int)sf, tf, sf == RTP_OK ? factor : "-");
        if (argc > 5 && !strcmp(argv[5], "check") && sw == RTP_OK)
            printf(" edge %d", edges(&test, ts.tasks, n, wm));
        printf("\n");
        if (ts.tasks != own)
            rtp_taskset_free(&ts);
    }
    printf("# load average %.2f at the end\n", bench_load_average());
    return 0;
}
