/* bench/bench_analysis.c — time per exact uniprocessor test on seeded random
 * sets, reported as medians and as ratios against a baseline of the same run.
 *
 * Sets (gen/gen.h): UUniFast-discard, n = 10, 50, 200 tasks, U = 0.70 and
 * 0.95, periods log-uniform in [1 ms, 1 s], deadlines uniform in
 * [C + 0.5 (T - C), T]. Per set:
 *   - EDF: QPA (rtp_edf_qpa) against the classic processor-demand test that
 *     evaluates dbf at every absolute deadline up to the same bound L
 *     [BMR90], verdicts cross-checked;
 *   - FP: response-time analysis under DM (rtp_fp_rta), and OPA
 *     (rtp_fp_assign with RTP_PRIO_OPA: up to n(n+1)/2 single-task RTAs);
 *   - `analyze --batch` throughput: parse one JSON line, run the test, write
 *     the result document (the loop rtpack runs per line), sets per second;
 *   - the real-system terms (docs/spec.md): the same sets analysed as given,
 *     with release jitter (a quarter of each task's D - C at most) and
 *     blocking (on every third task, up to its wcet), and with platform
 *     overheads (effective tasks, models/effective.h), each as a ratio to
 *     the plain analysis of the same sets in the same run, load average
 *     printed beside them;
 *   - --sensitivity (solver/sensitivity.h): per set the plain exact test,
 *     wcet_max of every task and the critical scaling factor under EDF,
 *     FP-DM, FP-OPA and given priorities with ties (pairs of tasks share a
 *     priority), as ratios to the plain test of the same sets, with
 *     the count of sets answered (the others hit the step limit, 2 million
 *     here: an EDF factor at U' = 1 with huge hyperperiods) and the load
 *     average; periods are multiples of 1 ms in [10 ms, 1 s] (set period_set
 *     below) so hyperperiods stay within reach; and wcet_max under the
 *     global tests (gedf, gfp-dm, gfp-opa on 2 and 4 CPUs) against one run
 *     of the same test.
 *
 * Times are thread CPU time (CLOCK_THREAD_CPUTIME_ID).
 *
 *   - --sensitivity on the 20-task family (20 tasks, U = 0.8, periods
 *     1ms:100ms in 1 us; gen seeds 1..100): per policy the median plain
 *     test and sensitivity, their ratio, p99, max, max / median.
 *
 *   - --sensitivity on the arbitrary-deadline FP family (bench_sensitivity_
 *     arbitrary: 7 and 12 tasks, D up to 2T, jitter, blocking, overheads):
 *     per set decided or exit 3, time, ratio to the plain test.
 *
 * usage: bench_analysis [SETS (default 31)] [SEED (default 1)]
 * [sensitivity|sensitivity-global|family|arbitrary|floor|floor-edf] (the last word
 * runs the --sensitivity sections alone, the global one alone, the 20-task
 * family alone with SETS sets, the arbitrary-deadline family with SETS
 * sets, 60 in the issue, gedf wcet_max against its floor,
 * bench_gedf_floor, or EDF's, floor-edf: bench_edf_floor); after sensitivity-global a policy (gedf, gfp-dm,
 * gfp-opa) runs its lines alone */
#include "bench/bench_common.h"
#include "gen/gen.h"
#include "solver/analyze.h"
#include "models/effective.h"
#include "solver/edf.h"
#include "solver/fp.h"
#include "solver/global.h"
#include "solver/global_work.h"
#include "solver/sensitivity.h"
#include "solver/schedtest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double median(double *v, size_t n)
{
    qsort(v, n, sizeof *v, bench_cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The baseline: dbf at every absolute deadline <= bound, each in O(n). */
static int enumerate_demand(const rtp_task *t, size_t n, rtp_ns bound)
{
    for (size_t i = 0; i < n; i++)
        for (rtp_ns d = t[i].deadline_ns; d <= bound; d += t[i].period_ns) {
            rtp_ns demand;
            if (rtp_edf_dbf(t, n, d, &demand) != RTP_OK || demand > d)
                return 0;
        }
    return 1;
}

/* One batch line's work, as rtpack analyze --batch does it: the same library
 * calls (solver/analyze.h). */
static int batch_once(const char *line, size_t len, const rtp_analyze_opts *opts)
{
    rtp_taskset ts;
    rtp_diag diag;
    if (rtp_taskset_parse_json(line, len, &ts, &diag) != RTP_OK)
        return -1;
    rtp_analysis a;
    int ok = rtp_analyze(&ts, opts, &a, &diag) == RTP_OK;
    if (ok) {
        a.doc.line = 1;
        char *out = rtp_analysis_doc_to_json(&a.doc, 0);
        ok = out != NULL;
        free(out);
    }
    rtp_analysis_free(&a);
    rtp_taskset_free(&ts);
    return ok;
}

static uint64_t mix(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* A generated family: n tasks, total utilization u, deadline model dl, gen's
 * other defaults. */
static rtp_gen_opts family(size_t n, rtp_ratio u, rtp_gen_deadlines dl)
{
    rtp_gen_opts o = rtp_gen_opts_default();
    o.n_tasks = n;
    o.total_util = u;
    o.deadlines = dl;
    return o;
}

/* Periods 1 ms .. 100 ms at 1 us (the sensitivity families). */
static void periods_1ms_100ms(rtp_gen_opts *o)
{
    o->period_min_ns = 1000000;
    o->period_max_ns = 100000000;
    o->granularity_ns = 1000;
}

/* Median thread-CPU time (us) of EDF QPA, FP RTA (DM) and OPA over the sets
 * as given (variant 0), with jitter and blocking (1), or with overheads of
 * 20 us release latency and 5 us context switch applied as effective tasks
 * (2); *sched counts EDF-schedulable sets. */
static void terms_point(size_t n_tasks, rtp_ratio util, size_t sets, uint64_t seed, int variant,
                        double out[3], size_t *sched)
{
    rtp_limits lim = rtp_limits_default();
    double *v[3];
    for (int k = 0; k < 3; k++)
        v[k] = calloc(sets, sizeof(double));
    *sched = 0;
    rtp_gen_opts o = family(n_tasks, util, RTP_DL_CONSTRAINED);
    for (size_t k = 0; k < sets; k++) {
        rtp_taskset ts;
        rtp_diag diag;
        if (rtp_gen_taskset(&o, seed, 200 + n_tasks, k, &ts, &diag) != RTP_OK)
            exit(3);
        rtp_task *t = ts.tasks;
        size_t n = ts.n_tasks;
        if (variant == 1) {
            for (size_t i = 0; i < n; i++) {
                uint64_t r = mix(seed * 1000003 + k * 1009 + i);
                t[i].jitter_ns = (rtp_ns)(r % (uint64_t)((t[i].deadline_ns - t[i].wcet_ns) / 4 + 1));
                if (i % 3 == 0)
                    t[i].blocking_ns = 1 + (rtp_ns)((r >> 32) % (uint64_t)t[i].wcet_ns);
            }
        } else if (variant == 2) {
            rtp_overheads ov = {20000, 5000, 0, 0, 0};
            if (rtp_effective_tasks(t, n, &ov, RTP_POLICY_EDF, t, &diag) != RTP_OK)
                exit(3);
        }
        rtp_edf_result er;
        int prio[200], found, ok;
        rtp_ns resp[200];
        double t0 = bench_cpu_us();
        rtp_edf_qpa(t, n, 0, &lim, &er, &diag);
        double t1 = bench_cpu_us();
        rtp_fp_assign(t, n, RTP_PRIO_DM, prio, &found, &lim, &diag);
        rtp_fp_rta(t, n, prio, resp, &ok, &lim, &diag);
        double t2 = bench_cpu_us();
        rtp_fp_assign(t, n, RTP_PRIO_OPA, prio, &found, &lim, &diag);
        double t3 = bench_cpu_us();
        v[0][k] = t1 - t0;
        v[1][k] = t2 - t1;
        v[2][k] = t3 - t2;
        *sched += (size_t)er.schedulable;
        rtp_taskset_free(&ts);
    }
    for (int k = 0; k < 3; k++) {
        out[k] = median(v[k], sets);
        free(v[k]);
    }
}

static void bench_terms(size_t sets, uint64_t seed)
{
    printf("# real-system terms: medians in microseconds, ratios to the plain sets "
           "(load average %.2f)\n", bench_load_average());
    printf("%5s %5s %-9s %9s %9s %9s %9s %9s %9s %6s\n", "n", "U", "terms", "edf_qpa",
           "ratio", "fp_rta_dm", "ratio", "fp_opa", "ratio", "edf_ok");
    const size_t sizes[] = {10, 50};
    const rtp_ratio utils[] = {{70, 100}, {90, 100}};
    static const char *const names[] = {"none", "jit+blk", "overhead"};
    for (size_t si = 0; si < 2; si++)
        for (size_t ui = 0; ui < 2; ui++) {
            double base[3] = {1, 1, 1};
            for (int variant = 0; variant < 3; variant++) {
                double m[3];
                size_t ok;
                terms_point(sizes[si], utils[ui], sets, seed, variant, m, &ok);
                if (variant == 0)
                    memcpy(base, m, sizeof base);
                printf("%5zu %5.2f %-9s %9.1f %9.2f %9.1f %9.2f %9.1f %9.2f %6zu\n", sizes[si],
                       rtp_ratio_double(utils[ui]), names[variant], m[0], m[0] / base[0], m[1],
                       m[1] / base[1], m[2], m[2] / base[2], ok);
            }
            fflush(stdout);
        }
    printf("# load average after: %.2f\n", bench_load_average());
}

/* --sensitivity against the plain test: medians over the sets where all
 * three finished. */
static void bench_sensitivity(size_t sets, uint64_t seed)
{
    printf("# --sensitivity: medians in microseconds over the answered sets, ratios to the "
           "plain exact test (load average %.2f)\n", bench_load_average());
    printf("%5s %5s %-7s %9s %9s %9s %9s %9s %8s\n", "n", "U", "policy", "plain", "wcet_max",
           "ratio", "factor", "ratio", "answered");
    static const rtp_ns periods[] = {10000000, 20000000, 25000000, 40000000, 50000000,
                                     100000000, 200000000, 250000000, 500000000, 1000000000};
    const size_t sizes[] = {5, 10, 20};
    const rtp_ratio utils[] = {{70, 100}, {90, 100}};
    /* fp-ties: given priorities from the deadline-monotonic rank halved, so
     * tasks pair up on equal priorities (FIFO ties, solver/sensitivity_fifo.c) */
    struct { rtp_policy policy; rtp_prio_rule rule; const char *name; } kinds[] = {
        {RTP_POLICY_EDF, RTP_PRIO_OPA, "edf"}, {RTP_POLICY_FP, RTP_PRIO_DM, "fp-dm"},
        {RTP_POLICY_FP, RTP_PRIO_OPA, "fp-opa"}, {RTP_POLICY_FP, RTP_PRIO_GIVEN, "fp-ties"}};
    rtp_limits lim = rtp_limits_default();
    lim.max_iterations = 2000000;
    double *v[3];
    for (int k = 0; k < 3; k++)
        v[k] = calloc(sets, sizeof(double));
    rtp_ns *wmax = calloc(32, sizeof *wmax);
    for (size_t si = 0; si < 3; si++)
        for (size_t ui = 0; ui < 2; ui++)
            for (size_t ki = 0; ki < sizeof kinds / sizeof kinds[0]; ki++) {
                rtp_gen_opts o = family(sizes[si], utils[ui], RTP_DL_CONSTRAINED);
                o.period_set = periods;
                o.n_period_set = sizeof periods / sizeof periods[0];
                rtp_test test = rtp_test_exact(kinds[ki].policy, kinds[ki].rule, 1, lim);
                size_t done = 0;
                for (size_t k = 0; k < sets; k++) {
                    rtp_taskset ts;
                    rtp_diag diag;
                    if (rtp_gen_taskset(&o, seed, 300 + si * 2 + ui, k, &ts, &diag) != RTP_OK)
                        exit(3);
                    if (kinds[ki].rule == RTP_PRIO_GIVEN)
                        for (size_t i = 0; i < ts.n_tasks; i++) {
                            int rank = 0; /* tasks more urgent by DM */
                            for (size_t j = 0; j < ts.n_tasks; j++)
                                rank += ts.tasks[j].deadline_ns < ts.tasks[i].deadline_ns ||
                                        (ts.tasks[j].deadline_ns == ts.tasks[i].deadline_ns &&
                                         j < i);
                            ts.tasks[i].has_priority = 1;
                            ts.tasks[i].priority = (int)(ts.n_tasks - (size_t)rank + 1) / 2;
                        }
                    rtp_test_result r;
                    memset(&r, 0, sizeof r);
                    rtp_scaling sc;
                    double t0 = bench_cpu_us();
                    rtp_status s0 = rtp_test_run(&test, ts.tasks, ts.n_tasks, &r, &diag);
                    double t1 = bench_cpu_us();
                    rtp_status s1 = rtp_sensitivity_wcet_max(&test, ts.tasks, ts.n_tasks, NULL,
                                                             wmax, &diag);
                    double t2 = bench_cpu_us();
                    rtp_status s2 = rtp_sensitivity_scaling(&test, ts.tasks, ts.n_tasks, NULL,
                                                            &sc, &diag);
                    double t3 = bench_cpu_us();
                    rtp_scaling_free(&sc);
                    if (s0 == RTP_OK && s1 == RTP_OK && s2 == RTP_OK) {
                        v[0][done] = t1 - t0;
                        v[1][done] = t2 - t1;
                        v[2][done] = t3 - t2;
                        done++;
                    }
                    rtp_taskset_free(&ts);
                }
                double m[3] = {0, 0, 0};
                for (int k = 0; done && k < 3; k++)
                    m[k] = median(v[k], done);
                printf("%5zu %5.2f %-7s %9.1f %9.1f %9.1f %9.1f %9.1f %5zu/%zu\n", sizes[si],
                       rtp_ratio_double(utils[ui]), kinds[ki].name, m[0], m[1],
                       m[0] > 0 ? m[1] / m[0] : 0, m[2], m[0] > 0 ? m[2] / m[0] : 0, done, sets);
                fflush(stdout);
            }
    for (int k = 0; k < 3; k++)
        free(v[k]);
    free(wmax);
    printf("# load average after: %.2f\n", bench_load_average());
}

/* Set k (0-based) of the sensitivity family below: gen seed k + 1. */
static void family_20(size_t k, rtp_taskset *ts)
{
    rtp_gen_opts o = family(20, (rtp_ratio){8, 10}, RTP_DL_CONSTRAINED);
    periods_1ms_100ms(&o);
    rtp_diag diag;
    if (rtp_gen_taskset(&o, k + 1, 0, 0, ts, &diag) != RTP_OK)
        exit(3);
}

/* The sensitivity family: `rtpack gen --tasks 20 --utilization 0.8
 * --deadlines constrained --periods 1ms:100ms --granularity 1us --seed S`,
 * S = 1..sets, under EDF, FP-DM and FP-OPA: per set the plain exact test
 * and wcet_max + the factor; medians, the ratio of the medians, and the
 * worst set against the median (the goal: none above 10x). */
static void bench_sensitivity_family(size_t sets)
{
    printf("# --sensitivity on the 20-task family (20 tasks, U = 0.8, periods 1ms:100ms in 1 us): "
           "microseconds (load average %.2f)\n", bench_load_average());
    printf("%-7s %9s %9s %9s %9s %9s %9s %8s\n", "policy", "plain", "sens", "ratio", "p99",
           "max", "max/med", "answered");
    struct { rtp_policy policy; rtp_prio_rule rule; const char *name; } kinds[] = {
        {RTP_POLICY_EDF, RTP_PRIO_OPA, "edf"}, {RTP_POLICY_FP, RTP_PRIO_DM, "fp-dm"},
        {RTP_POLICY_FP, RTP_PRIO_OPA, "fp-opa"}};
    double *plain = calloc(sets, sizeof(double)), *sens = calloc(sets, sizeof(double));
    rtp_ns wmax[20];
    for (size_t ki = 0; ki < 3; ki++) {
        rtp_test test = rtp_test_exact(kinds[ki].policy, kinds[ki].rule, 1, rtp_limits_default());
        size_t done = 0;
        for (size_t k = 0; k < sets; k++) {
            rtp_taskset ts;
            rtp_diag diag;
            family_20(k, &ts);
            rtp_test_result r;
            memset(&r, 0, sizeof r);
            rtp_scaling sc;
            double t0 = bench_cpu_us();
            rtp_status s0 = rtp_test_run(&test, ts.tasks, ts.n_tasks, &r, &diag);
            double t1 = bench_cpu_us();
            rtp_status s1 = rtp_sensitivity_wcet_max(&test, ts.tasks, ts.n_tasks, NULL, wmax,
                                                     &diag);
            rtp_status s2 = rtp_sensitivity_scaling(&test, ts.tasks, ts.n_tasks, NULL, &sc,
                                                    &diag);
            double t2 = bench_cpu_us();
            rtp_scaling_free(&sc);
            if (s0 == RTP_OK && s1 == RTP_OK && s2 == RTP_OK) {
                plain[done] = t1 - t0;
                sens[done] = t2 - t1;
                done++;
            }
            rtp_taskset_free(&ts);
        }
        double mp = done ? median(plain, done) : 0, ms = done ? median(sens, done) : 0;
        double p99 = done ? sens[(done - 1) * 99 / 100] : 0, mx = done ? sens[done - 1] : 0;
        printf("%-7s %9.1f %9.1f %9.1f %9.1f %9.1f %9.1f %5zu/%zu\n", kinds[ki].name, mp, ms,
               mp > 0 ? ms / mp : 0, p99, mx, ms > 0 ? mx / ms : 0, done, sets);
        fflush(stdout);
    }
    free(plain);
    free(sens);
}

/* The arbitrary-deadline FP family: 60 seeded uniprocessor sets,
 * 30 of 7 tasks and 30 of 12, U = 0.69, periods 1ms:100ms in 1 us, D
 * uniform in [C, 2T] (gen's arbitrary deadlines), release jitter uniform up
 * to T/5 (below D), blocking on every third task up to its wcet, and the
 * platform overheads of bench_terms (20 us release latency, 5 us context
 * switch), under DM. Per set: the plain exact test, then wcet_max of every
 * task and the factor with the default limits (decided, or exit 3 = a
 * resource limit), their thread CPU time and its ratio to the plain test. */
static void bench_sensitivity_arbitrary(size_t sets, uint64_t seed)
{
    printf("# --sensitivity, FP-DM, arbitrary deadlines + jitter + blocking + overheads "
           "(load average %.2f)\n", bench_load_average());
    printf("%4s %3s %6s %-8s %-8s %10s %10s %9s\n", "set", "n", "sched", "wcet_max", "factor",
           "plain_us", "sens_us", "ratio");
    rtp_test test = rtp_test_exact(RTP_POLICY_FP, RTP_PRIO_DM, 1, rtp_limits_default());
    rtp_overheads ov = {20000, 5000, 0, 0, 0};
    size_t decided = 0, sched = 0, n_yes = 0;
    double *yes = calloc(sets ? sets : 1, sizeof(double)); /* ratios, schedulable and decided */
    for (size_t k = 0; k < sets; k++) {
        rtp_gen_opts o = family(k < sets / 2 ? 7 : 12, (rtp_ratio){69, 100}, RTP_DL_ARBITRARY);
        periods_1ms_100ms(&o);
        rtp_taskset ts;
        rtp_diag diag;
        if (rtp_gen_taskset(&o, seed, 400 + o.n_tasks, k, &ts, &diag) != RTP_OK)
            exit(3);
        rtp_task *t = ts.tasks;
        for (size_t i = 0; i < ts.n_tasks; i++) {
            uint64_t r = mix(seed * 1000003 + k * 1009 + i + 77);
            rtp_ns jmax = t[i].period_ns / 5 < t[i].deadline_ns ? t[i].period_ns / 5
                                                                : t[i].deadline_ns - 1;
            t[i].jitter_ns = (rtp_ns)(r % (uint64_t)(jmax + 1));
            if (i % 3 == 0)
                t[i].blocking_ns = 1 + (rtp_ns)((r >> 32) % (uint64_t)t[i].wcet_ns);
        }
        rtp_task *eff = malloc(ts.n_tasks * sizeof *eff);
        if (!eff || rtp_effective_tasks(t, ts.n_tasks, &ov, RTP_POLICY_FP, eff, &diag) != RTP_OK)
            exit(3);
        rtp_test_result r;
        memset(&r, 0, sizeof r);
        rtp_scaling sc;
        rtp_ns wmax[12];
        double t0 = bench_cpu_us();
        rtp_status s0 = rtp_test_run(&test, eff, ts.n_tasks, &r, &diag);
        double t1 = bench_cpu_us();
        rtp_status s1 = RTP_OK, s2 = RTP_OK;
        int ok = s0 == RTP_OK && r.schedulable;
        if (ok)
            s1 = rtp_sensitivity_wcet_max(&test, t, ts.n_tasks, &ov, wmax, &diag);
        if (s0 == RTP_OK)
            s2 = rtp_sensitivity_scaling(&test, t, ts.n_tasks, &ov, &sc, &diag);
        double t3 = bench_cpu_us();
        if (s0 == RTP_OK && s2 == RTP_OK)
            rtp_scaling_free(&sc);
        decided += s0 == RTP_OK && s1 == RTP_OK && s2 == RTP_OK;
        sched += (size_t)ok;
        if (ok && s1 == RTP_OK && s2 == RTP_OK && t1 > t0)
            yes[n_yes++] = (t3 - t1) / (t1 - t0);
        printf("%4zu %3zu %6s %-8s %-8s %10.1f %10.1f %9.1f%s%s\n", k, ts.n_tasks,
               s0 != RTP_OK ? "exit3" : ok ? "yes" : "no",
               !ok ? "-" : s1 == RTP_OK ? "decided" : "exit3", s2 == RTP_OK ? "decided" : "exit3",
               t1 - t0, t3 - t1, t1 > t0 ? (t3 - t1) / (t1 - t0) : 0,
               s0 == RTP_OK && s1 == RTP_OK && s2 == RTP_OK ? "" : "  # ",
               s0 == RTP_OK && s1 == RTP_OK && s2 == RTP_OK ? "" : diag.message);
        fflush(stdout);
        free(eff);
        rtp_taskset_free(&ts);
    }
    double med = n_yes ? median(yes, n_yes) : 0;
    printf("# decided %zu/%zu (schedulable %zu); schedulable and decided: ratio median %.1f, "
           "max %.1f; load average after: %.2f\n", decided, sets, sched, med,
           n_yes ? yes[n_yes - 1] : 0, bench_load_average());
    free(yes);
}

/* wcet_max under the global tests (m = 2 and 4 CPUs, total utilization 0.4 m
 * and 0.6 m, constrained deadlines, periods log-uniform in [1 ms, 1 s])
 * against one run of the same test: medians over the sets the test accepts
 * (the others cost one run). gedf: bisection over GFB and BCL, the secant
 * search over the RTA, BAK's exact maximum; gfp: task k alone, then the
 * secant search over the fixed order's RTA-LC (DM, RM) when the whole test
 * rejects k's own maximum, with OPA first the DA levels of the orders OPA
 * finds (solver/sensitivity_global.c). */
static void bench_sensitivity_global(size_t sets, uint64_t seed, const char *only)
{
    printf("# --sensitivity, global tests: wcet_max of every task, medians in microseconds "
           "over the accepted sets, ratio to one run of the test (load average %.2f)\n",
           bench_load_average());
    printf("%5s %4s %5s %-7s %9s %9s %9s %8s\n", "n", "m", "U/m", "policy", "plain",
           "wcet_max", "ratio", "accepted");
    const size_t sizes[] = {5, 10, 20};
    const int cpus[] = {2, 4};
    const rtp_ratio per_cpu[] = {{40, 100}, {60, 100}};
    struct { rtp_policy policy; rtp_prio_rule rule; const char *name; } kinds[] = {
        {RTP_POLICY_GEDF, RTP_PRIO_DM, "gedf"}, {RTP_POLICY_GFP, RTP_PRIO_DM, "gfp-dm"},
        {RTP_POLICY_GFP, RTP_PRIO_OPA, "gfp-opa"}};
    double *plain = calloc(sets, sizeof(double)), *wm = calloc(sets, sizeof(double));
    rtp_ns *wmax = calloc(32, sizeof *wmax);
    for (size_t si = 0; si < 3; si++)
        for (size_t mi = 0; mi < 2; mi++)
            for (size_t ui = 0; ui < 2; ui++)
                for (size_t ki = 0; ki < 3; ki++) {
                    if (only && strcmp(only, kinds[ki].name) != 0)
                        continue;
                    rtp_gen_opts o =
                        family(sizes[si], (rtp_ratio){per_cpu[ui].num * cpus[mi], per_cpu[ui].den},
                               RTP_DL_CONSTRAINED);
                    rtp_test test = rtp_test_exact(kinds[ki].policy, kinds[ki].rule, cpus[mi],
                                                   rtp_limits_default());
                    size_t done = 0;
                    for (size_t k = 0; k < sets; k++) {
                        rtp_taskset ts;
                        rtp_diag diag;
                        if (rtp_gen_taskset(&o, seed, 400 + si * 4 + mi * 2 + ui, k, &ts,
                                            &diag) != RTP_OK)
                            exit(3);
                        rtp_test_result r;
                        memset(&r, 0, sizeof r);
                        double t0 = bench_cpu_us();
                        rtp_status s0 = rtp_test_run(&test, ts.tasks, ts.n_tasks, &r, &diag);
                        double t1 = bench_cpu_us();
                        rtp_status s1 = rtp_sensitivity_wcet_max(&test, ts.tasks, ts.n_tasks,
                                                                 NULL, wmax, &diag);
                        double t2 = bench_cpu_us();
                        if (s0 == RTP_OK && s1 == RTP_OK && r.schedulable) {
                            plain[done] = t1 - t0;
                            wm[done] = t2 - t1;
                            done++;
                        }
                        rtp_taskset_free(&ts);
                    }
                    double mp = done ? median(plain, done) : 0, mw = done ? median(wm, done) : 0;
                    printf("%5zu %4d %5.2f %-7s %9.1f %9.1f %9.1f %5zu/%zu\n", sizes[si],
                           cpus[mi], rtp_ratio_double(per_cpu[ui]), kinds[ki].name, mp, mw,
                           mp > 0 ? mw / mp : 0, done, sets);
                    fflush(stdout);
                }
    free(plain);
    free(wm);
    free(wmax);
    printf("# load average after: %.2f\n", bench_load_average());
}

/* The floor of any exact gedf wcet_max search that decides with today's
 * RTA runs (`floor`): given the answer w_k (the library's search), an
 * exact search must still see the chain reject at w_k + 1 (the RTA too:
 * one run, unless it rejects the declared set) and accept at w_k (one RTA
 * run where GFB, BAK and BCL reject there). Each is timed here at its
 * cheapest known start: the rejection from D with the declared set's lower
 * bounds of r* as warm (as the search's runs), the acceptance from the
 * state that rejection reached (upper bounds of r* at w_k). 20 tasks, U/m
 * 0.4 and 0.6 on 2 and 4 CPUs, the sets of sensitivity-global. */
static double timed_rta(const rtp_task *e, size_t n, int m, const rtp_ns *warm0, rtp_ns *above,
                        int *ok)
{
    rtp_ns warm[64];
    rtp_diag diag;
    rtp_global_verdict v = RTP_GLOBAL_NA;
    rtp_limits lim = rtp_limits_default();
    memcpy(warm, warm0, n * sizeof *warm);
    double t0 = bench_cpu_us();
    rtp_status st = rtp_gw_edf_rta_from(e, n, m, &lim, warm, above, NULL, NULL, &v, &diag);
    double t1 = bench_cpu_us();
    *ok = st == RTP_OK ? v == RTP_GLOBAL_ACCEPT : -1;
    return t1 - t0;
}

static int cheap_accepts(const rtp_task *e, size_t n, int m)
{
    rtp_global_verdict a = RTP_GLOBAL_NA, b = RTP_GLOBAL_NA, c = RTP_GLOBAL_NA;
    rtp_global_gfb(e, n, m, &a);
    rtp_global_bak(e, n, m, &b);
    rtp_global_bcl(e, n, m, &c);
    return a == RTP_GLOBAL_ACCEPT || b == RTP_GLOBAL_ACCEPT || c == RTP_GLOBAL_ACCEPT;
}

static int plain_accepts(const rtp_test *test, const rtp_task *e, size_t n)
{
    rtp_test_result r;
    rtp_diag diag;
    memset(&r, 0, sizeof r);
    return rtp_test_run(test, e, n, &r, &diag) == RTP_OK ? r.schedulable : -1;
}

static void bench_gedf_floor(size_t sets, uint64_t seed)
{
    printf("# gedf wcet_max: the search against the floor of an exact search by RTA runs "
           "(medians in us over the accepted sets; load average %.2f)\n",
           bench_load_average());
    printf("#  plain: the chain (it stops at GFB where GFB accepts); rta: one plain RTA run on "
           "the declared set; wcet_max: the search; floor: its two runs per task; /plain, "
           "/rta: ratios of medians; rej, acc: median run; edges: wcet_max accepted and + 1 "
           "rejected by the plain chain (bad: misses, and floor runs that disagree)\n");
    printf("%2s %5s %7s %7s %9s %9s %7s %6s %6s %5s %6s %6s %5s %5s %6s %3s %s\n", "m", "U/m",
           "plain", "rta", "wcet_max", "floor", "/plain", "floor", "/rta", "floor", "rej",
           "acc", "rej/s", "acc/s", "edges", "bad", "sets");
    const int cpus[] = {2, 4};
    const rtp_ratio per_cpu[] = {{40, 100}, {60, 100}};
    double *plain = calloc(sets, sizeof(double)), *wm = calloc(sets, sizeof(double)),
           *fl = calloc(sets, sizeof(double)),
           *rej = calloc(64 * sets, sizeof(double)), *acc = calloc(64 * sets, sizeof(double)),
           *one_rta = calloc(sets, sizeof(double));
    rtp_ns wmax[64], warm0[64], above[64];
    for (size_t mi = 0; mi < 2; mi++)
        for (size_t ui = 0; ui < 2; ui++) {
            rtp_gen_opts o = family(20, (rtp_ratio){per_cpu[ui].num * cpus[mi], per_cpu[ui].den},
                                    RTP_DL_CONSTRAINED);
            int m = cpus[mi];
            rtp_test test = rtp_test_exact(RTP_POLICY_GEDF, RTP_PRIO_DM, m, rtp_limits_default());
            size_t done = 0, n_rej = 0, n_acc = 0, bad = 0, edges = 0;
            for (size_t s = 0; s < sets; s++) {
                rtp_taskset ts;
                rtp_diag diag;
                if (rtp_gen_taskset(&o, seed, 400 + 2 * 4 + mi * 2 + ui, s, &ts, &diag) != RTP_OK)
                    exit(3);
                rtp_task *e = ts.tasks;
                size_t n = ts.n_tasks;
                rtp_test_result r;
                memset(&r, 0, sizeof r);
                double t0 = bench_cpu_us();
                rtp_status s0 = rtp_test_run(&test, e, n, &r, &diag);
                double t1 = bench_cpu_us();
                rtp_status s1 = rtp_sensitivity_wcet_max(&test, e, n, NULL, wmax, &diag);
                double t2 = bench_cpu_us();
                if (s0 != RTP_OK || s1 != RTP_OK || !r.schedulable || n > 64) {
                    rtp_taskset_free(&ts);
                    continue;
                }
                rtp_global_verdict v;
                rtp_limits lim = rtp_limits_default();
                double t3 = bench_cpu_us();
                rtp_global_edf_rta(e, n, m, &lim, NULL, &v, &diag); /* one plain RTA run */
                one_rta[done] = bench_cpu_us() - t3;
                int ok, rta_ok;
                for (size_t i = 0; i < n; i++)
                    warm0[i] = e[i].wcet_ns;
                double f = timed_rta(e, n, m, warm0, NULL, &rta_ok); /* the search runs it too */
                rtp_gw_edf_rta_from(e, n, m, &lim, warm0, NULL, NULL, NULL, &v, &diag);
                for (size_t k = 0; k < n; k++) {
                    rtp_ns keep = e[k].wcet_ns, w = wmax[k];
                    rtp_ns top = e[k].deadline_ns - e[k].jitter_ns;
                    top = e[k].period_ns < top ? e[k].period_ns : top;
                    for (size_t i = 0; i < n; i++)
                        above[i] = e[i].deadline_ns;
                    int edge = 1; /* the plain chain accepts at w and rejects at w + 1 */
                    if (w + 1 <= top) {
                        e[k].wcet_ns = w + 1;
                        edge = plain_accepts(&test, e, n) == 0;
                    }
                    e[k].wcet_ns = w;
                    edge = edge && plain_accepts(&test, e, n) == 1;
                    bad += !edge;
                    edges++;
                    if (rta_ok == 1 && w + 1 <= top) { /* the chain rejects at w + 1 */
                        e[k].wcet_ns = w + 1;
                        double t = timed_rta(e, n, m, warm0, above, &ok);
                        bad += ok != 0 || cheap_accepts(e, n, m);
                        f += t;
                        rej[n_rej++] = t;
                    }
                    e[k].wcet_ns = w;
                    if (!cheap_accepts(e, n, m)) { /* the RTA must accept at w */
                        double t = timed_rta(e, n, m, warm0, above, &ok);
                        bad += ok != 1;
                        f += t;
                        acc[n_acc++] = t;
                    }
                    e[k].wcet_ns = keep;
                }
                plain[done] = t1 - t0;
                wm[done] = t2 - t1;
                fl[done] = f;
                done++;
                rtp_taskset_free(&ts);
            }
            double mp = done ? median(plain, done) : 0, mw = done ? median(wm, done) : 0,
                   mf = done ? median(fl, done) : 0, mo = done ? median(one_rta, done) : 0,
                   mj = n_rej ? median(rej, n_rej) : 0, ma = n_acc ? median(acc, n_acc) : 0;
            printf("%2d %5.2f %7.1f %7.1f %9.1f %9.1f %7.0f %6.0f %6.1f %5.1f %6.1f %6.1f %5.1f "
                   "%5.1f %6zu %3zu %zu/%zu\n",
                   m, rtp_ratio_double(per_cpu[ui]), mp, mo, mw, mf, mp > 0 ? mw / mp : 0,
                   mp > 0 ? mf / mp : 0, mo > 0 ? mw / mo : 0, mo > 0 ? mf / mo : 0, mj, ma,
                   done ? (double)n_rej / done : 0, done ? (double)n_acc / done : 0, edges, bad,
                   done, sets);
            fflush(stdout);
        }
    free(plain);
    free(wm);
    free(fl);
    free(rej);
    free(acc);
    free(one_rta);
    printf("# load average after: %.2f\n", bench_load_average());
}

/* The floor of an EDF wcet_max search that confirms each answer with the
 * plain exact test (`floor-edf`): given w_k (the library's search), such
 * a search must still see the test accept the set with C_k = w_k and
 * reject it with w_k + 1 (unless w_k + 1 passes D*_k, where C_k > D*_k
 * rejects without a run: then only the acceptance is counted; past U' = 1
 * the test's own first check rejects, and that run is timed). Both are timed
 * here on bench_analysis's family (the sets of `family`); the edges are
 * checked as they go (bad: an acceptance or a rejection that disagrees).
 * Per set the search against its own floor, and the largest floor against
 * the median search. What follows holds for confirming searches only (a
 * search that certifies its answers otherwise is not bounded by this): one
 * meeting max/median <= 10 needs a median of at least the largest floor
 * / 10, and one meeting 20x the plain test a median of at least the median
 * floor; both goals at once are out of its reach when the largest floor
 * passes 10 x 20 median plain tests. */
static void bench_edf_floor(size_t sets)
{
    printf("# EDF wcet_max against the floor of confirming each answer by the plain exact test "
           "(20-task family, seeds 1..%zu; us; load average %.2f)\n",
           sets, bench_load_average());
    printf("#  plain: QPA on the declared set; search: wcet_max of all 20 tasks; acc, rej: the "
           "plain test at w_k and w_k + 1 summed over the tasks; floor = acc + rej\n");
    rtp_test test = rtp_test_exact(RTP_POLICY_EDF, RTP_PRIO_OPA, 1, rtp_limits_default());
    double *plain = calloc(sets, sizeof(double)), *search = calloc(sets, sizeof(double)),
           *acc = calloc(sets, sizeof(double)), *rej = calloc(sets, sizeof(double)),
           *fl = calloc(sets, sizeof(double)), *per = calloc(sets, sizeof(double));
    rtp_ns wmax[20];
    size_t done = 0, bad = 0, below = 0;
    for (size_t k = 0; k < sets; k++) {
        rtp_taskset ts;
        rtp_diag diag;
        family_20(k, &ts);
        rtp_task *e = ts.tasks;
        size_t n = ts.n_tasks;
        double t0 = bench_cpu_us();
        int ok0 = plain_accepts(&test, e, n);
        double t1 = bench_cpu_us();
        rtp_status s1 = rtp_sensitivity_wcet_max(&test, e, n, NULL, wmax, &diag);
        double t2 = bench_cpu_us();
        if (ok0 != 1 || s1 != RTP_OK || n > 20) {
            rtp_taskset_free(&ts);
            continue;
        }
        rtp_ns ceiling[20]; /* D*_k */
        for (size_t i = 0; i < n; i++)
            ceiling[i] = e[i].deadline_ns - e[i].jitter_ns;
        double a = 0, r = 0;
        for (size_t i = 0; i < n; i++) {
            rtp_ns keep = e[i].wcet_ns;
            e[i].wcet_ns = wmax[i];
            double u0 = bench_cpu_us();
            int at = plain_accepts(&test, e, n);
            double u1 = bench_cpu_us();
            a += u1 - u0;
            bad += at != 1;
            if (wmax[i] + 1 <= ceiling[i]) {
                e[i].wcet_ns = wmax[i] + 1;
                u0 = bench_cpu_us();
                int above = plain_accepts(&test, e, n);
                u1 = bench_cpu_us();
                r += u1 - u0;
                bad += above != 0;
            }
            e[i].wcet_ns = keep;
        }
        plain[done] = t1 - t0;
        search[done] = t2 - t1;
        acc[done] = a;
        rej[done] = r;
        fl[done] = a + r;
        per[done] = (t2 - t1) / (a + r);
        below += t2 - t1 < a + r;
        done++;
        rtp_taskset_free(&ts);
    }
    if (!done) {
        printf("# no set decided\n");
        return;
    }
    double mp = median(plain, done), msr = median(search, done), ma = median(acc, done),
           mr = median(rej, done), mf = median(fl, done), mper = median(per, done);
    double worst_fl = fl[done - 1], worst_se = search[done - 1]; /* sorted by median() */
    printf("%7s %9s %9s %9s %9s %9s %9s %9s %9s %5s\n", "plain", "search", "acc", "rej",
           "floor", "srch/pl", "floor/pl", "srch/fl", "max s/fl", "bad");
    printf("%7.1f %9.1f %9.1f %9.1f %9.1f %9.1f %9.1f %9.2f %9.2f %5zu\n", mp, msr, ma, mr, mf,
           msr / mp, mf / mp, mper, per[done - 1], bad);
    printf("# medians over %zu sets; srch/fl: median and max of each set's search over its own "
           "floor; %zu of %zu sets searched below their floor\n", done, below, done);
    printf("# tail: the largest floor is %.1f us = %.0f median searches (the largest search "
           "%.1f us = %.0f); a confirming search within max/median 10 needs a median of "
           "%.0fx the plain test\n", worst_fl, worst_fl / msr, worst_se, worst_se / msr,
           worst_fl / 10 / mp);
    free(plain);
    free(search);
    free(acc);
    free(rej);
    free(fl);
    free(per);
    printf("# load average after: %.2f\n", bench_load_average());
}

int main(int argc, char **argv)
{
    size_t sets = argc > 1 ? (size_t)strtoul(argv[1], NULL, 10) : 31;
    uint64_t seed = argc > 2 ? strtoull(argv[2], NULL, 10) : 1;
    if (sets == 0)
        sets = 1;
    if (argc > 3 && strcmp(argv[3], "sensitivity") == 0) {
        bench_sensitivity(sets, seed);
        bench_sensitivity_family(100);
        bench_sensitivity_global(sets, seed, NULL);
        return 0;
    }
    if (argc > 3 && strcmp(argv[3], "family") == 0) {
        bench_sensitivity_family(sets);
        return 0;
    }
    if (argc > 3 && strcmp(argv[3], "arbitrary") == 0) {
        bench_sensitivity_arbitrary(sets, seed);
        return 0;
    }
    if (argc > 3 && strcmp(argv[3], "floor") == 0) {
        bench_gedf_floor(sets, seed);
        return 0;
    }
    if (argc > 3 && strcmp(argv[3], "floor-edf") == 0) {
        bench_edf_floor(sets);
        return 0;
    }
    if (argc > 3 && strcmp(argv[3], "sensitivity-global") == 0) {
        bench_sensitivity_global(sets, seed, argc > 4 ? argv[4] : NULL);
        return 0;
    }
    const size_t sizes[] = {10, 50, 200};
    const rtp_ratio utils[] = {{70, 100}, {95, 100}};
    rtp_limits lim = rtp_limits_default();
    double *qpa_us = calloc(sets, sizeof(double)), *enum_us = calloc(sets, sizeof(double)),
           *rta_us = calloc(sets, sizeof(double)), *opa_us = calloc(sets, sizeof(double));
    printf("# bench_analysis: %zu sets per point, seed %llu; medians in microseconds\n", sets,
           (unsigned long long)seed);
    printf("%5s %5s %10s %12s %9s %10s %10s %9s %6s %6s\n", "n", "U", "edf_qpa", "edf_enum",
           "enum/qpa", "fp_rta_dm", "fp_opa", "opa/rta", "edf_ok", "opa_ok");
    for (size_t si = 0; si < 3; si++)
        for (size_t ui = 0; ui < 2; ui++) {
            rtp_gen_opts o = family(sizes[si], utils[ui], RTP_DL_CONSTRAINED);
            size_t edf_ok = 0, opa_ok = 0;
            for (size_t k = 0; k < sets; k++) {
                rtp_taskset ts;
                rtp_diag diag;
                if (rtp_gen_taskset(&o, seed, si * 2 + ui, k, &ts, &diag) != RTP_OK) {
                    fprintf(stderr, "gen: %s\n", diag.message);
                    return 3;
                }
                const rtp_task *t = ts.tasks;
                size_t n = ts.n_tasks;
                rtp_edf_result er;
                double t0 = bench_cpu_us();
                rtp_status st = rtp_edf_qpa(t, n, 0, &lim, &er, &diag);
                double t1 = bench_cpu_us();
                rtp_ns bound = 0;
                int enum_ok = 1;
                if (st == RTP_OK && rtp_edf_bound(t, n, &lim, &bound, &diag) == RTP_OK)
                    enum_ok = enumerate_demand(t, n, bound);
                double t2 = bench_cpu_us();
                if (st != RTP_OK || enum_ok != er.schedulable) {
                    fprintf(stderr, "EDF mismatch or limit on set %zu\n", k);
                    return 3;
                }
                int prio[200], found;
                rtp_ns resp[200];
                int sched;
                rtp_fp_assign(t, n, RTP_PRIO_DM, prio, &found, &lim, &diag);
                double t3 = bench_cpu_us();
                rtp_fp_rta(t, n, prio, resp, &sched, &lim, &diag);
                double t4 = bench_cpu_us();
                rtp_fp_assign(t, n, RTP_PRIO_OPA, prio, &found, &lim, &diag);
                double t5 = bench_cpu_us();
                qpa_us[k] = t1 - t0;
                enum_us[k] = t2 - t1;
                rta_us[k] = t4 - t3;
                opa_us[k] = t5 - t4;
                edf_ok += (size_t)er.schedulable;
                opa_ok += (size_t)found;
                rtp_taskset_free(&ts);
            }
            double q = median(qpa_us, sets), e = median(enum_us, sets),
                   r = median(rta_us, sets), p = median(opa_us, sets);
            printf("%5zu %5.2f %10.1f %12.1f %9.1f %10.1f %10.1f %9.1f %6zu %6zu\n", sizes[si],
                   rtp_ratio_double(utils[ui]), q, e, e / q, r, p, p / r, edf_ok, opa_ok);
            fflush(stdout);
        }

    /* Batch throughput: the lines are generated first, then parsed and
     * analysed in one timed loop. */
    for (size_t si = 0; si < 2; si++) {
        rtp_gen_opts o = family(sizes[si], (rtp_ratio){80, 100}, RTP_DL_CONSTRAINED);
        size_t lines = 2000;
        char **text = calloc(lines, sizeof *text);
        for (size_t k = 0; k < lines; k++) {
            rtp_taskset ts;
            rtp_diag diag;
            if (rtp_gen_taskset(&o, seed, 100 + si, k, &ts, &diag) != RTP_OK)
                return 3;
            text[k] = rtp_taskset_to_json(&ts, 0);
            rtp_taskset_free(&ts);
        }
        for (int pol = 0; pol < 2; pol++) {
            rtp_analyze_opts ao = rtp_analyze_opts_default(pol ? RTP_POLICY_FP : RTP_POLICY_EDF);
            ao.limits = lim;
            double t0 = bench_cpu_us();
            for (size_t k = 0; k < lines; k++)
                if (batch_once(text[k], strlen(text[k]), &ao) < 0)
                    return 3;
            double secs = (bench_cpu_us() - t0) / 1e6;
            printf("batch n=%zu U=0.80 %s: %.0f sets/s\n", sizes[si], pol ? "fp-opa" : "edf",
                   (double)lines / secs);
        }
        for (size_t k = 0; k < lines; k++)
            free(text[k]);
        free(text);
    }
    bench_terms(sets, seed);
    bench_sensitivity(sets, seed);
    bench_sensitivity_family(100);
    bench_sensitivity_global(sets, seed, NULL);
    free(qpa_us);
    free(enum_us);
    free(rta_us);
    free(opa_us);
    return 0;
}
