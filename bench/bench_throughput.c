/* bench/bench_throughput.c — the throughput goals as ratios in one run, with the
 * load average printed beside them:
 *   - reading: MB/s of the one-pass reader (rtp_taskset_parse_json) on
 *     5,000 task sets of 50 tasks as JSON lines (UUniFast-discard, U = 0.95,
 *     constrained deadlines, periods log-uniform in [1 ms, 1 s]), against
 *     today's cJSON-based reader (tests/support/json_reference.c) and, when
 *     built with it, the parse alone of jansson (duplicate keys rejected,
 *     exact 64-bit integers, but no JSON path and no number text);
 *   - per set: `rtpack analyze --batch --policy edf` CPU time minus the
 *     reading time, per set, against the median QPA time of the same sets;
 *     the same for `--policy fp` (OPA) against the median of OPA + RTA;
 *   - parallel batch: wall time of the same run with OMP_NUM_THREADS=1 vs 2,
 *     and of two independent 1-thread runs at once (what the machine gives
 *     two copies: the ceiling for two threads);
 *   - global: `analyze --batch --policy gedf`, 2,000 sets of 20 tasks on 4
 *     CPUs (U = 2.4, implicit deadlines), CPU time and its reading share.
 * Reading and QPA are thread CPU time, minimum of 3 runs; the CLI runs are
 * the child's CPU time (user + system) or wall time, minimum of 3.
 *
 * usage: bench_throughput [SETS (default 5000)] [read | fast | schedcat]
 * ("read": the reading table alone; "fast": the one-pass reader alone, for
 * perf record), or bench_throughput SETS threads BASE_RTPACK ROUNDS (2
 * threads against the ceiling on the EDF, FP and gedf batches, against a
 * base binary too when given, with the 2-thread runs' sleeps; ROUNDS
 * default 7: threads_only) */
#include "bench/bench_common.h"
#include "gen/gen.h"
#include "models/json_util.h"
#include "models/taskset.h"
#include "models/text.h"
#include "solver/edf.h"
#include "solver/global.h"
#include "solver/schedtest.h"
#include "solver/tardiness.h"
#include "support/json_reference.h"

#ifdef RTP_BENCH_JANSSON
#include <jansson.h>
#endif

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct lines {
    char *text;    /* all lines, '\n'-ended */
    size_t len;
    size_t *start; /* line k is text[start[k] .. start[k + 1] - 1) */
    size_t n;
    rtp_text plain; /* the same sets for schedcat_driver: "n C D T ..." per line */
} lines;

static lines make_lines(size_t sets, size_t n_tasks, rtp_ratio util, rtp_gen_deadlines dl,
                        uint64_t point)
{
    lines l = {NULL, 0, calloc(sets + 1, sizeof(size_t)), sets, {0}};
    size_t cap = 1 << 20;
    l.text = malloc(cap);
    rtp_gen_opts o = rtp_gen_opts_default();
    o.n_tasks = n_tasks;
    o.total_util = util;
    o.deadlines = dl;
    for (size_t k = 0; k < sets; k++) {
        rtp_taskset ts;
        rtp_diag diag;
        if (rtp_gen_taskset(&o, 17, point, k, &ts, &diag) != RTP_OK)
            exit(3);
        char *one = rtp_taskset_to_json(&ts, 0);
        size_t n = strlen(one);
        while (l.len + n + 1 > cap)
            l.text = realloc(l.text, cap *= 2);
        l.start[k] = l.len;
        memcpy(l.text + l.len, one, n);
        l.len += n;
        free(one);
        rtp_text_printf(&l.plain, "%zu", ts.n_tasks);
        for (size_t i = 0; i < ts.n_tasks; i++)
            rtp_text_printf(&l.plain, " %" PRId64 " %" PRId64 " %" PRId64, ts.tasks[i].wcet_ns,
                            ts.tasks[i].deadline_ns, ts.tasks[i].period_ns);
        rtp_text_printf(&l.plain, "\n");
        rtp_taskset_free(&ts);
    }
    l.start[sets] = l.len;
    return l;
}

static char *write_temp(const char *data, size_t len)
{
    char *path = strdup("/tmp/bench_throughput_XXXXXX");
    int fd = mkstemp(path);
    if (fd < 0 || write(fd, data, len) != (ssize_t)len)
        exit(3);
    close(fd);
    return path;
}

typedef enum reader { FAST, REFERENCE, JANSSON } reader;

/* Reads every line once; thread CPU time in us (-1 when not built in). */
static double read_all(const lines *l, reader r)
{
    double t0 = bench_cpu_us();
    for (size_t k = 0; k < l->n; k++) {
        const char *s = l->text + l->start[k];
        size_t n = l->start[k + 1] - l->start[k];
        rtp_diag d;
        rtp_taskset ts;
        if (r == FAST) {
            if (rtp_taskset_parse_json(s, n, &ts, &d) != RTP_OK)
                exit(3);
            rtp_taskset_free(&ts);
        } else if (r == REFERENCE) {
            rtp_json doc;
            if (rtp_json_open_reference(&doc, s, n, &d) != RTP_OK ||
                rtp_taskset_from_json(&doc, &ts, &d) != RTP_OK)
                exit(3);
            rtp_taskset_free(&ts);
            rtp_json_close_reference(&doc);
        } else {
#ifdef RTP_BENCH_JANSSON
            json_error_t e;
            json_t *j = json_loadb(s, n, JSON_REJECT_DUPLICATES, &e);
            if (!j)
                exit(3);
            json_decref(j);
#else
            return -1;
#endif
        }
    }
    return bench_cpu_us() - t0;
}

static double min_read(const lines *l, reader r)
{
    double best = -1;
    for (int rep = 0; rep < 3; rep++) {
        double t = read_all(l, r);
        if (t >= 0 && (best < 0 || t < best))
            best = t;
    }
    return best;
}

/* Median thread-CPU time (us), minimum of 3 runs per set, of the exact test
 * `analyze --policy P` runs on each set: QPA itself for EDF (as the issue
 * states the goal), OPA + response-time analysis through rtp_test_run for
 * FP (arrays supplied, so nothing but the test is timed). */
static double test_median(const lines *l, rtp_policy policy)
{
    double *v = calloc(l->n, sizeof *v);
    rtp_limits lim = rtp_limits_default();
    rtp_test test = rtp_test_exact(policy, RTP_PRIO_OPA, 1, lim);
    for (size_t k = 0; k < l->n; k++) {
        rtp_taskset ts;
        rtp_diag d;
        if (rtp_taskset_parse_json(l->text + l->start[k], l->start[k + 1] - l->start[k], &ts,
                                   &d) != RTP_OK)
            exit(3);
        size_t n = ts.n_tasks ? ts.n_tasks : 1;
        int *prio = calloc(n, sizeof *prio);
        rtp_ns *resp = calloc(n, sizeof *resp);
        double best = -1;
        for (int rep = 0; rep < 3; rep++) {
            rtp_edf_result er;
            rtp_test_result r = {.priority = prio, .response_time = resp};
            double t0 = bench_cpu_us();
            if (policy == RTP_POLICY_EDF)
                rtp_edf_qpa(ts.tasks, ts.n_tasks, 0, &lim, &er, &d);
            else
                rtp_test_run(&test, ts.tasks, ts.n_tasks, &r, &d);
            double t = bench_cpu_us() - t0;
            if (best < 0 || t < best)
                best = t;
        }
        v[k] = best;
        free(prio);
        free(resp);
        rtp_taskset_free(&ts);
    }
    qsort(v, l->n, sizeof *v, bench_cmp_double);
    double m = v[l->n / 2];
    free(v);
    return m;
}

/* Runs argv (argv[0] is the program's path) with OMP_NUM_THREADS=threads and
 * standard output to `out` (NULL: /dev/null); *cpu gets the child's CPU
 * time, the return value its wall time (us). Exits on a status above 1. */
static double run_prog(char *const argv[], int threads, const char *out, double *cpu)
{
    struct rusage before, after;
    getrusage(RUSAGE_CHILDREN, &before);
    fflush(stdout); /* or the child's freopen prints it again */
    double t0 = bench_wall_us();
    pid_t pid = fork();
    if (pid == 0) {
        char th[16];
        snprintf(th, sizeof th, "%d", threads);
        setenv("OMP_NUM_THREADS", th, 1);
        if (!freopen(out ? out : "/dev/null", "w", stdout))
            _exit(3);
        execv(argv[0], argv);
        _exit(3);
    }
    int status;
    waitpid(pid, &status, 0);
    double wall = bench_wall_us() - t0;
    getrusage(RUSAGE_CHILDREN, &after);
    *cpu = (double)(after.ru_utime.tv_sec - before.ru_utime.tv_sec) * 1e6 +
           (double)(after.ru_utime.tv_usec - before.ru_utime.tv_usec) +
           (double)(after.ru_stime.tv_sec - before.ru_stime.tv_sec) * 1e6 +
           (double)(after.ru_stime.tv_usec - before.ru_stime.tv_usec);
    if (!WIFEXITED(status) || WEXITSTATUS(status) > 1) {
        fprintf(stderr, "bench_throughput: %s failed\n", argv[0]);
        exit(3);
    }
    return wall;
}

/* `rtpack analyze --batch FILE --policy P [--cpus M]`, as run_prog. */
static double run_cli(const char *file, const char *policy, int cpus, int threads,
                      const char *out, double *cpu)
{
    char m[16];
    snprintf(m, sizeof m, "%d", cpus);
    char *argv[] = {RTP_BINARY, "analyze", "--batch", (char *)file, "--policy", (char *)policy,
                    cpus > 0 ? "--cpus" : NULL, m, NULL};
    return run_prog(argv, threads, out, cpu);
}

static void min_cli(const char *file, const char *policy, int cpus, int threads, double *wall,
                    double *cpu)
{
    *wall = *cpu = -1;
    for (int rep = 0; rep < 3; rep++) {
        double c, w = run_cli(file, policy, cpus, threads, NULL, &c);
        if (*wall < 0 || w < *wall)
            *wall = w;
        if (*cpu < 0 || c < *cpu)
            *cpu = c;
    }
}

/* The command `bin analyze --batch FILE --policy P [--cpus M]` in argv[0..9)
 * (m: room for M's digits). */
static void batch_argv(char *argv[9], char m[16], const char *bin, const char *file,
                       const char *policy, int cpus)
{
    snprintf(m, 16, "%d", cpus);
    char *words[9] = {(char *)bin, "analyze", "--batch", (char *)file, "--policy",
                      (char *)policy, cpus > 0 ? "--cpus" : NULL, m, NULL};
    memcpy(argv, words, sizeof words);
}

/* Wall time (us) of two 1-thread `analyze --batch FILE --policy edf` runs
 * started together, minimum of 3: what this machine gives two independent
 * copies (shared caches, memory, clock), the ceiling for two threads of
 * one run. */
static double pair_wall(const char *file)
{
    char *argv[9], m[16];
    batch_argv(argv, m, RTP_BINARY, file, "edf", 0);
    char *const *both[2] = {argv, argv};
    double best = -1;
    for (int rep = 0; rep < 3; rep++) {
        double t = bench_run_copies(both, 2, 1).wall_us;
        if (best < 0 || t < best)
            best = t;
    }
    return best;
}

/* bench_ceiling_table on `analyze --batch FILE --policy P [--cpus M]` for
 * the new binary and, when given, a base. */
static void thread_table(const char *what, const char *file, const char *policy, int cpus,
                         const char *const *bins, int n_bins, int rounds)
{
    char *argv[2][9], m[2][16];
    char *const *argvs[2][2];
    for (int b = 0; b < n_bins; b++) {
        batch_argv(argv[b], m[b], bins[b], file, policy, cpus);
        argvs[b][0] = argvs[b][1] = argv[b];
    }
    static const char *const names[2] = {"new", "base"};
    bench_ceiling_table(what, (char *const *const (*)[2])argvs, names, n_bins, rounds);
}

/* `bench_throughput SETS threads BASE_RTPACK ROUNDS` (the last two
 * optional): thread_table on
 * the EDF batch (SETS sets), the FP (OPA) batch (SETS / 10 of them) and a
 * gedf batch on 2 CPUs (SETS x 2 sets of 20 tasks, U = 1.2, implicit
 * deadlines: about as long as the EDF batch). */
static int threads_only(size_t sets, const char *base, int rounds, const lines *edf)
{
    const char *bins[2] = {RTP_BINARY, base};
    int n_bins = base ? 2 : 1;
    if (rounds < 1 || rounds > 64)
        rounds = 7;
    char *file = write_temp(edf->text, edf->len);
    char what[128];
    snprintf(what, sizeof what, "analyze --batch --policy edf, %zu sets", sets);
    thread_table(what, file, "edf", 0, bins, n_bins, rounds);
    size_t fsets = sets / 10 ? sets / 10 : 1;
    char *ffile = write_temp(edf->text, edf->start[fsets]);
    snprintf(what, sizeof what, "analyze --batch --policy fp (OPA), %zu sets", fsets);
    thread_table(what, ffile, "fp", 0, bins, n_bins, rounds);
    rtp_ratio u12 = {12, 10};
    lines g = make_lines(sets * 2, 20, u12, RTP_DL_IMPLICIT, 2);
    char *gfile = write_temp(g.text, g.len);
    snprintf(what, sizeof what, "analyze --batch --policy gedf --cpus 2, %zu sets", g.n);
    thread_table(what, gfile, "gedf", 2, bins, n_bins, rounds);
    unlink(file);
    unlink(ffile);
    unlink(gfile);
    free(file);
    free(ffile);
    free(gfile);
    free(g.text);
    free(g.start);
    rtp_text_free(&g.plain);
    return 0;
}

#ifdef RTP_SCHEDCAT_DRIVER
/* A whole file into a NUL-terminated buffer (exit on failure). */
static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        exit(3);
    rtp_text t = {0};
    char buf[1 << 16];
    size_t got;
    while ((got = fread(buf, 1, sizeof buf, f)) > 0)
        rtp_text_appendn(&t, buf, got);
    fclose(f);
    char *s = rtp_text_take(&t);
    if (!s)
        exit(3);
    return s;
}

/* The verdict of each line of `analyze --batch` output (1 schedulable). */
static unsigned char *cli_verdicts(const char *file, const char *policy, int cpus, size_t n)
{
    char out[] = "/tmp/bench_throughput_out_XXXXXX";
    int fd = mkstemp(out);
    if (fd < 0)
        exit(3);
    close(fd);
    double cpu;
    run_cli(file, policy, cpus, 1, out, &cpu);
    char *s = slurp(out), *line = s;
    unlink(out);
    unsigned char *v = calloc(n ? n : 1, 1);
    for (size_t k = 0; k < n; k++) {
        char *nl = strchr(line, '\n');
        if (!nl)
            exit(3);
        *nl = 0;
        v[k] = strstr(line, "\"schedulable\":true") != NULL;
        line = nl + 1;
    }
    free(s);
    return v;
}

/* schedcat_driver MODE FILE (and M when m > 0): minimum child CPU time over `reps` runs
 * (us), its output of the last run in *output (caller frees). */
static double run_schedcat(const char *mode, const char *file, int m, int reps, char **output)
{
    char out[] = "/tmp/bench_throughput_out_XXXXXX", ms[16];
    int fd = mkstemp(out);
    if (fd < 0)
        exit(3);
    close(fd);
    snprintf(ms, sizeof ms, "%d", m);
    char *argv[] = {RTP_SCHEDCAT_DRIVER, (char *)mode, (char *)file, m > 0 ? ms : NULL, NULL};
    double best = -1;
    for (int rep = 0; rep < reps; rep++) {
        double c;
        run_prog(argv, 1, out, &c);
        if (best < 0 || c < best)
            best = c;
    }
    *output = slurp(out);
    unlink(out);
    return best;
}

/* Line k of the driver's output (its fields), or NULL past the sets. */
static const char *driver_line(const char *output, size_t k)
{
    const char *p = output;
    while (k-- > 0 && p) {
        p = strchr(p, '\n');
        p = p ? p + 1 : NULL;
    }
    return p && *p != '#' ? p : NULL;
}

/* The driver's "# read-us R analysis-us A" line into *read / *analysis. */
static void driver_times(const char *output, double *read, double *analysis)
{
    const char *p = strstr(output, "# read-us ");
    *read = *analysis = -1;
    if (p && sscanf(p, "# read-us %lf analysis-us %lf", read, analysis) != 2)
        exit(3);
}

/* (a) EDF: `analyze --batch --policy edf` (cpu_rtpack, its minimum of 3)
 * vs SchedCAT's QPATest on the same sets in the text form, and the
 * verdicts of both, set by set. */
static void compare_edf(const lines *l, const char *jsonl, double cpu_rtpack)
{
    char *plain = write_temp(l->plain.data, l->plain.len), *output;
    double cpu = run_schedcat("qpa", plain, 0, 3, &output), rd, an;
    driver_times(output, &rd, &an);
    unsigned char *mine = cli_verdicts(jsonl, "edf", 0, l->n);
    size_t differ = 0, yes = 0;
    for (size_t k = 0; k < l->n; k++) {
        const char *line = driver_line(output, k);
        if (!line)
            exit(3);
        int theirs = line[0] == '1';
        yes += mine[k];
        if (theirs != mine[k] && differ++ < 5)
            printf("  verdicts differ on set %zu: rtpack %d, SchedCAT %d\n", k + 1, mine[k],
                   theirs);
    }
    printf("SchedCAT QPATest on the same sets (text form): %.1f ms CPU (reading %.1f ms, QPA "
           "%.1f ms)\n", cpu / 1e3, rd / 1e3, an / 1e3);
    printf("EDF batch end to end: SchedCAT / rtpack = %.2fx (goal >= 5x); verdicts: %zu of %zu "
           "differ (%zu schedulable) (load %.2f)\n\n", cpu / cpu_rtpack, differ, l->n, yes,
           bench_load_average());
    free(mine);
    free(output);
    unlink(plain);
    free(plain);
}

/* (b) gedf: the batch (cpu_rtpack) vs SchedCAT's chain GFB, BAK, BCL,
 * iterative BCL; then every test alone on both sides, timed per test, and
 * the verdicts compared: gfb, bak, bcl must agree set by set; rtpack's rta
 * ([BC07], which dominates iterative BCL) must accept every set iterative
 * BCL accepts. */
static void compare_gedf(const lines *l, const char *jsonl, int m, double cpu_rtpack)
{
    char *plain = write_temp(l->plain.data, l->plain.len), *chain, *each;
    double cpu = run_schedcat("gedf", plain, m, 3, &chain), rd, an;
    driver_times(chain, &rd, &an);
    unsigned char *mine = cli_verdicts(jsonl, "gedf", m, l->n);
    run_schedcat("gedf-each", plain, m, 1, &each);
    double theirs_us[4] = {0, 0, 0, 0}, mine_us[4] = {0, 0, 0, 0}, tard_us = 0;
    const char *tl = strstr(each, "# test-us ");
    if (!tl || sscanf(tl, "# test-us %lf %lf %lf %lf", &theirs_us[0], &theirs_us[1],
                      &theirs_us[2], &theirs_us[3]) != 4)
        exit(3);
    static const char *const names[4] = {"gfb", "bak", "bcl", "rta/bcl-iter"};
    size_t differ[4] = {0, 0, 0, 0}, acc_mine[4] = {0, 0, 0, 0}, acc_theirs[4] = {0, 0, 0, 0};
    size_t chain_differ = 0, chain_yes = 0, rtpack_more = 0;
    rtp_limits lim = rtp_limits_default();
    for (size_t k = 0; k < l->n; k++) {
        const char *line = driver_line(each, k), *cl = driver_line(chain, k);
        int th[4];
        if (!line || !cl || sscanf(line, "%d %d %d %d", &th[0], &th[1], &th[2], &th[3]) != 4)
            exit(3);
        chain_yes += mine[k];
        chain_differ += !mine[k] && cl[0] == '1';
        rtpack_more += mine[k] && cl[0] != '1';
        rtp_taskset ts;
        rtp_diag d;
        if (rtp_taskset_parse_json(l->text + l->start[k], l->start[k + 1] - l->start[k], &ts,
                                   &d) != RTP_OK)
            exit(3);
        rtp_global_verdict v[4];
        double t0 = bench_cpu_us();
        rtp_global_gfb(ts.tasks, ts.n_tasks, m, &v[0]);
        double t1 = bench_cpu_us();
        rtp_global_bak(ts.tasks, ts.n_tasks, m, &v[1]);
        double t2 = bench_cpu_us();
        rtp_global_bcl(ts.tasks, ts.n_tasks, m, &v[2]);
        double t3 = bench_cpu_us();
        if (rtp_global_edf_rta(ts.tasks, ts.n_tasks, m, &lim, NULL, &v[3], &d) != RTP_OK)
            exit(3);
        double t4 = bench_cpu_us();
        rtp_tardiness tard[64];
        int bounded;
        if (ts.n_tasks > 64 ||
            rtp_tardiness_bounds(ts.tasks, ts.n_tasks, m, &lim, tard, &bounded, &d) != RTP_OK)
            exit(3);
        tard_us += bench_cpu_us() - t4;
        mine_us[0] += t1 - t0;
        mine_us[1] += t2 - t1;
        mine_us[2] += t3 - t2;
        mine_us[3] += t4 - t3;
        for (int j = 0; j < 4; j++) {
            int a = v[j] == RTP_GLOBAL_ACCEPT;
            acc_mine[j] += a;
            acc_theirs[j] += th[j];
            /* equal for gfb/bak/bcl; for rta only "accepts less" is a bug */
            if (j < 3 ? a != th[j] : (th[j] && !a)) {
                if (differ[j]++ < 5)
                    printf("  %s differs on set %zu: rtpack %d, SchedCAT %d\n", names[j], k + 1,
                           a, th[j]);
            }
        }
        rtp_taskset_free(&ts);
    }
    printf("SchedCAT GFB, BAK, BCL, iterative BCL (first acceptance wins) on the same sets: %.1f "
           "ms CPU (reading %.1f ms, tests %.1f ms)\n", cpu / 1e3, rd / 1e3, an / 1e3);
    printf("gedf batch end to end: SchedCAT / rtpack = %.2fx (goal > 1x); %zu of %zu accepted by "
           "rtpack, %zu of them not by SchedCAT, %zu accepted by SchedCAT only (load %.2f)\n",
           cpu / cpu_rtpack, chain_yes, l->n, rtpack_more, chain_differ, bench_load_average());
    printf("%-14s %12s %12s %9s %14s %12s\n", "test alone", "rtpack ms", "SchedCAT ms",
           "ratio", "accepts r / S", "mismatches");
    for (int j = 0; j < 4; j++)
        printf("%-14s %12.2f %12.2f %8.2fx %7zu / %-6zu %12zu\n", names[j], mine_us[j] / 1e3,
               theirs_us[j] / 1e3, theirs_us[j] / mine_us[j], acc_mine[j], acc_theirs[j],
               differ[j]);
    printf("(rta/bcl-iter: rtpack's [BC07] response-time test vs SchedCAT's iterative BCL; a "
           "mismatch is a set BCL-iter accepts and rta does not; load %.2f)\n",
           bench_load_average());
    /* every gedf analysis also bounds tardiness, which the chain does not */
    printf("tardiness bounds alone (rtpack only, every set): %.2f ms, %.0f%% of the batch's "
           "CPU time (load %.2f)\n\n", tard_us / 1e3, 100 * tard_us / cpu_rtpack,
           bench_load_average());
    free(mine);
    free(chain);
    free(each);
    unlink(plain);
    free(plain);
}
#endif

/* The gedf batch of one family: CPU time, reading share and, when built
 * with SchedCAT, the comparison. */
static void gedf_family(size_t gsets, size_t n_tasks, rtp_ratio util, rtp_gen_deadlines dl,
                        uint64_t point)
{
    lines g = make_lines(gsets, n_tasks, util, dl, point);
    char *gfile = write_temp(g.text, g.len);
    double gread = min_read(&g, FAST), gwall, gcpu;
    min_cli(gfile, "gedf", 4, 1, &gwall, &gcpu);
    printf("analyze --batch --policy gedf --cpus 4, %zu sets x %zu tasks, U = %.1f, %s deadlines: "
           "%.1f ms CPU, reading %.1f ms (%.0f%%), %.1f us per set (load %.2f)\n", gsets, n_tasks,
           (double)util.num / (double)util.den,
           dl == RTP_DL_IMPLICIT ? "implicit" : "constrained", gcpu / 1e3, gread / 1e3,
           100 * gread / gcpu, gcpu / (double)gsets, bench_load_average());
#ifdef RTP_SCHEDCAT_DRIVER
    compare_gedf(&g, gfile, 4, gcpu);
#endif
    unlink(gfile);
    free(gfile);
    free(g.text);
    free(g.start);
    rtp_text_free(&g.plain);
}

int main(int argc, char **argv)
{
    size_t sets = argc > 1 ? (size_t)strtoull(argv[1], NULL, 10) : 5000;
    int schedcat_only = argc > 2 && strcmp(argv[2], "schedcat") == 0;
    int fast_only = argc > 2 && strcmp(argv[2], "fast") == 0;
    int read_only = fast_only || (argc > 2 && strcmp(argv[2], "read") == 0);
    rtp_ratio u95 = {95, 100};
    lines edf = make_lines(sets, 50, u95, RTP_DL_CONSTRAINED, 1);
    if (argc > 2 && strcmp(argv[2], "threads") == 0)
        return threads_only(sets, argc > 3 && argv[3][0] ? argv[3] : NULL, argc > 4 ? atoi(argv[4]) : 7, &edf);
    double mb = (double)edf.len / 1e6;
    printf("throughput: %zu sets x 50 tasks, U = 0.95, constrained, %.1f MB of JSON "
           "lines; load average %.2f\n\n", sets, mb, bench_load_average());

    static const char *const names[] = {"one-pass reader (models/json_parse.c)",
                                        "today's reader (cJSON + scan + walk)",
                                        "jansson 2.14 parse only"};
    double t[3] = {-1, -1, -1};
    for (int r = 0; r < (schedcat_only || fast_only ? 1 : 3); r++)
        t[r] = min_read(&edf, (reader)r);
    if (!schedcat_only) {
        printf("%-40s %9s %9s %13s\n", "reading", "ms", "MB/s", "vs today");
        for (int r = 0; r < 3; r++) {
            if (t[r] < 0)
                printf("%-40s %9s\n", names[r], fast_only ? "(not run)" : "(not built)");
            else if (t[1] < 0)
                printf("%-40s %9.1f %9.1f\n", names[r], t[r] / 1e3, mb / (t[r] / 1e6));
            else
                printf("%-40s %9.1f %9.1f %12.2fx\n", names[r], t[r] / 1e3, mb / (t[r] / 1e6),
                       t[1] / t[r]);
        }
        double mbs = mb / (t[0] / 1e6);
        printf("goal >= 200 MB/s: %.2fx of the goal (load %.2f)\n\n", mbs / 200,
               bench_load_average());
    }
    if (read_only) {
        free(edf.text);
        free(edf.start);
        rtp_text_free(&edf.plain);
        return 0;
    }

    char *file = write_temp(edf.text, edf.len);
    double wall1, cpu1, wall2, cpu2;
    min_cli(file, "edf", 0, 1, &wall1, &cpu1);
    printf("analyze --batch --policy edf, 1 thread: %.1f ms CPU (%.1f ms wall), reading %.1f ms\n",
           cpu1 / 1e3, wall1 / 1e3, t[0] / 1e3);
    if (!schedcat_only) {
        double qpa = test_median(&edf, RTP_POLICY_EDF), per_set = (cpu1 - t[0]) / (double)sets;
        printf("analysis + output per set %.2f us, QPA median %.2f us: %.2fx the median (goal <= "
               "2x, load %.2f)\n", per_set, qpa, per_set / qpa, bench_load_average());
        double fwall, fcpu;
        min_cli(file, "fp", 0, 1, &fwall, &fcpu);
        double fp = test_median(&edf, RTP_POLICY_FP), fp_set = (fcpu - t[0]) / (double)sets;
        printf("analyze --batch --policy fp (OPA), 1 thread: %.1f ms CPU; analysis + output per "
               "set %.2f us, OPA + RTA median %.2f us: %.2fx the median (goal <= 2x, load "
               "%.2f)\n\n", fcpu / 1e3, fp_set, fp, fp_set / fp, bench_load_average());
        min_cli(file, "edf", 0, 2, &wall2, &cpu2);
        printf("batch wall time, 1 thread %.1f ms, 2 threads %.1f ms: speed-up %.2fx (goal >= "
               "1.8x, load %.2f)\n", wall1 / 1e3, wall2 / 1e3, wall1 / wall2, bench_load_average());
        double pair = pair_wall(file), ceiling = 2 * wall1 / pair;
        printf("two 1-thread runs at once: %.1f ms, %.2fx the throughput of one (the machine's "
               "ceiling for two threads); 2 threads reach %.2f of it (load %.2f)\n\n",
               pair / 1e3, ceiling, wall1 / wall2 / ceiling, bench_load_average());
    }
#ifdef RTP_SCHEDCAT_DRIVER
    compare_edf(&edf, file, cpu1);
#else
    printf("(SchedCAT comparisons not built: configure with -DRTP_SCHEDCAT_DIR=...)\n\n");
#endif
    unlink(file);
    free(file);
    free(edf.text);
    free(edf.start);
    rtp_text_free(&edf.plain);

    rtp_ratio u24 = {24, 10};
    gedf_family(sets * 2 / 5, 20, u24, RTP_DL_IMPLICIT, 2);
#ifdef RTP_SCHEDCAT_DRIVER
    rtp_ratio u20 = {20, 10};
    gedf_family(sets * 2 / 5, 20, u24, RTP_DL_CONSTRAINED, 3);
    /* fewer, lighter tasks: BAK and BCL then accept some sets alone too */
    gedf_family(sets * 2 / 5, 8, u20, RTP_DL_IMPLICIT, 4);
#endif
    return 0;
}
