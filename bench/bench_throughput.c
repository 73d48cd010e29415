/* bench/bench_throughput.c — issue 17's goals as ratios in one run, with the
 * load average printed beside them:
 *   - reading: MB/s of the one-pass reader (rtp_taskset_parse_json) on
 *     5,000 task sets of 50 tasks as JSON lines (UUniFast-discard, U = 0.95,
 *     constrained deadlines, periods log-uniform in [1 ms, 1 s]), against
 *     today's cJSON-based reader (tests/support/json_reference.c) and, when
 *     built with it, the parse alone of jansson (duplicate keys rejected,
 *     exact 64-bit integers, but no JSON path and no number text);
 *   - per set: `rtpack analyze --batch --policy edf` CPU time minus the
 *     reading time, per set, against the median QPA time of the same sets;
 *   - parallel batch: wall time of the same run with OMP_NUM_THREADS=1 vs 2;
 *   - global: `analyze --batch --policy gedf`, 2,000 sets of 20 tasks on 4
 *     CPUs (U = 2.4, implicit deadlines), CPU time and its reading share.
 * Reading and QPA are thread CPU time, minimum of 3 runs; the CLI runs are
 * the child's CPU time (user + system) or wall time, minimum of 3.
 *
 * usage: bench_throughput [SETS (default 5000)] */
#include "gen/gen.h"
#include "models/json_util.h"
#include "models/taskset.h"
#include "solver/edf.h"
#include "support/json_reference.h"

#ifdef RTP_BENCH_JANSSON
#include <jansson.h>
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double cpu_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static double wall_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static double load_average(void)
{
    double l = -1;
    FILE *f = fopen("/proc/loadavg", "r");
    if (f) {
        if (fscanf(f, "%lf", &l) != 1)
            l = -1;
        fclose(f);
    }
    return l;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

typedef struct lines {
    char *text;    /* all lines, '\n'-ended */
    size_t len;
    size_t *start; /* line k is text[start[k] .. start[k + 1] - 1) */
    size_t n;
} lines;

static lines make_lines(size_t sets, size_t n_tasks, rtp_ratio util, rtp_gen_deadlines dl,
                        uint64_t point)
{
    lines l = {NULL, 0, calloc(sets + 1, sizeof(size_t)), sets};
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
        rtp_taskset_free(&ts);
    }
    l.start[sets] = l.len;
    return l;
}

static char *write_temp(const lines *l)
{
    char *path = strdup("/tmp/bench_throughput_XXXXXX");
    int fd = mkstemp(path);
    if (fd < 0 || write(fd, l->text, l->len) != (ssize_t)l->len)
        exit(3);
    close(fd);
    return path;
}

typedef enum reader { FAST, REFERENCE, JANSSON } reader;

/* Reads every line once; thread CPU time in us (-1 when not built in). */
static double read_all(const lines *l, reader r)
{
    double t0 = cpu_us();
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
    return cpu_us() - t0;
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

/* Median thread-CPU time (us) of QPA over the sets (read beforehand). */
static double qpa_median(const lines *l)
{
    double *v = calloc(l->n, sizeof *v);
    rtp_limits lim = rtp_limits_default();
    for (size_t k = 0; k < l->n; k++) {
        rtp_taskset ts;
        rtp_diag d;
        if (rtp_taskset_parse_json(l->text + l->start[k], l->start[k + 1] - l->start[k], &ts,
                                   &d) != RTP_OK)
            exit(3);
        rtp_edf_result er;
        double best = -1;
        for (int rep = 0; rep < 3; rep++) {
            double t0 = cpu_us();
            rtp_edf_qpa(ts.tasks, ts.n_tasks, 0, &lim, &er, &d);
            double t = cpu_us() - t0;
            if (best < 0 || t < best)
                best = t;
        }
        v[k] = best;
        rtp_taskset_free(&ts);
    }
    qsort(v, l->n, sizeof *v, cmp_double);
    double m = v[l->n / 2];
    free(v);
    return m;
}

/* Runs `rtpack analyze --batch FILE --policy P [--cpus M]` with
 * OMP_NUM_THREADS=threads, output to /dev/null; *cpu gets the child's CPU
 * time, the return value its wall time (us). */
static double run_cli(const char *file, const char *policy, int cpus, int threads, double *cpu)
{
    struct rusage before, after;
    getrusage(RUSAGE_CHILDREN, &before);
    fflush(stdout); /* or the child's freopen prints it again */
    double t0 = wall_us();
    pid_t pid = fork();
    if (pid == 0) {
        char th[16], m[16];
        snprintf(th, sizeof th, "%d", threads);
        snprintf(m, sizeof m, "%d", cpus);
        setenv("OMP_NUM_THREADS", th, 1);
        if (!freopen("/dev/null", "w", stdout))
            _exit(3);
        if (cpus > 0)
            execl(RTP_BINARY, "rtpack", "analyze", "--batch", file, "--policy", policy,
                  "--cpus", m, (char *)NULL);
        else
            execl(RTP_BINARY, "rtpack", "analyze", "--batch", file, "--policy", policy,
                  (char *)NULL);
        _exit(3);
    }
    int status;
    waitpid(pid, &status, 0);
    double wall = wall_us() - t0;
    getrusage(RUSAGE_CHILDREN, &after);
    *cpu = (double)(after.ru_utime.tv_sec - before.ru_utime.tv_sec) * 1e6 +
           (double)(after.ru_utime.tv_usec - before.ru_utime.tv_usec) +
           (double)(after.ru_stime.tv_sec - before.ru_stime.tv_sec) * 1e6 +
           (double)(after.ru_stime.tv_usec - before.ru_stime.tv_usec);
    if (!WIFEXITED(status) || WEXITSTATUS(status) > 1) {
        fprintf(stderr, "bench_throughput: rtpack analyze failed\n");
        exit(3);
    }
    return wall;
}

static void min_cli(const char *file, const char *policy, int cpus, int threads, double *wall,
                    double *cpu)
{
    *wall = *cpu = -1;
    for (int rep = 0; rep < 3; rep++) {
        double c, w = run_cli(file, policy, cpus, threads, &c);
        if (*wall < 0 || w < *wall)
            *wall = w;
        if (*cpu < 0 || c < *cpu)
            *cpu = c;
    }
}

int main(int argc, char **argv)
{
    size_t sets = argc > 1 ? (size_t)strtoull(argv[1], NULL, 10) : 5000;
    rtp_ratio u95 = {95, 100}, u24 = {24, 10};
    lines edf = make_lines(sets, 50, u95, RTP_DL_CONSTRAINED, 1);
    double mb = (double)edf.len / 1e6;
    printf("issue 17 throughput: %zu sets x 50 tasks, U = 0.95, constrained, %.1f MB of JSON "
           "lines; load average %.2f\n\n", sets, mb, load_average());

    static const char *const names[] = {"one-pass reader (models/json_parse.c)",
                                        "today's reader (cJSON + scan + walk)",
                                        "jansson 2.14 parse only"};
    double t[3];
    for (int r = 0; r < 3; r++)
        t[r] = min_read(&edf, (reader)r);
    printf("%-40s %9s %9s %13s\n", "reading", "ms", "MB/s", "vs today");
    for (int r = 0; r < 3; r++) {
        if (t[r] < 0)
            printf("%-40s %9s\n", names[r], "(not built)");
        else
            printf("%-40s %9.1f %9.1f %12.2fx\n", names[r], t[r] / 1e3, mb / (t[r] / 1e6),
                   t[1] / t[r]);
    }
    double mbs = mb / (t[0] / 1e6);
    printf("goal >= 200 MB/s: %.2fx of the goal (load %.2f)\n\n", mbs / 200, load_average());

    double qpa = qpa_median(&edf);
    char *file = write_temp(&edf);
    double wall1, cpu1, wall2, cpu2;
    min_cli(file, "edf", 0, 1, &wall1, &cpu1);
    double per_set = (cpu1 - t[0]) / (double)sets;
    printf("analyze --batch --policy edf, 1 thread: %.1f ms CPU (%.1f ms wall), reading %.1f ms\n",
           cpu1 / 1e3, wall1 / 1e3, t[0] / 1e3);
    printf("analysis + output per set %.2f us, QPA median %.2f us: %.2fx the median (goal <= 2x, "
           "load %.2f)\n\n", per_set, qpa, per_set / qpa, load_average());

    min_cli(file, "edf", 0, 2, &wall2, &cpu2);
    printf("batch wall time, 1 thread %.1f ms, 2 threads %.1f ms: speed-up %.2fx (goal >= 1.8x, "
           "load %.2f)\n\n", wall1 / 1e3, wall2 / 1e3, wall1 / wall2, load_average());
    unlink(file);
    free(file);

    size_t gsets = sets * 2 / 5;
    lines g = make_lines(gsets, 20, u24, RTP_DL_IMPLICIT, 2);
    char *gfile = write_temp(&g);
    double gread = min_read(&g, FAST), gwall, gcpu;
    min_cli(gfile, "gedf", 4, 1, &gwall, &gcpu);
    printf("analyze --batch --policy gedf --cpus 4, %zu sets x 20 tasks, U = 2.4: %.1f ms CPU, "
           "reading %.1f ms (%.0f%%), %.1f us per set (load %.2f)\n", gsets, gcpu / 1e3,
           gread / 1e3, 100 * gread / gcpu, gcpu / (double)gsets, load_average());
    unlink(gfile);
    free(gfile);
    free(edf.text);
    free(edf.start);
    free(g.text);
    free(g.start);
    return 0;
}
