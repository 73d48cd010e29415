/* bench/bench_explore.c — throughput of the sweep runner on the standard
 * sweep: n = 20 tasks, m = 4 CPUs, U/m = 0.5 .. 1.0 step 0.03,
 * constrained deadlines, ffd/bfd/wfd/best under EDF and FP, 500 sets per
 * point (or argv[1]). Reports task sets per second with 1 thread and with 2
 * (per thread too), and the 2-thread speed-up, checking that both runs give
 * the same counts. In memory: no files are written.
 * With "threads": two threads against the machine's ceiling instead
 * (bench_ceiling_table: 1 thread, 2 threads and two 1-thread copies at once,
 * alternated per round), each run a child process `rtpack explore SWEEP
 * --out DIR --force` on the same sweep (so the CLI's files are written, to
 * a temporary folder per copy), for this build's rtpack and, when given, a
 * base binary (main's, alternated with it).
 * Usage: bench_explore [SETS_PER_POINT] [threads [BASE_RTPACK [ROUNDS (7)]]] */
#include "bench/bench_common.h"
#include "explore/explore.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Runs every point with `threads` threads; returns wall seconds and *cpu
 * the process CPU seconds (contention from other processes inflates the
 * first, not the second), fills counts. */
static double run_all(const rtp_sweep *sw, int threads, int64_t *accepted, double *cpu)
{
    size_t pm = sw->n_policies * sw->n_methods;
    rtp_explore_cell *cells = calloc(pm, sizeof *cells);
    rtp_explore_opts o = {.threads = threads};
    double start = bench_wall_us() / 1e6, cpu_start = bench_process_cpu_us() / 1e6;
    for (size_t p = 0; p < sw->n_points; p++) {
        rtp_diag diag;
        rtp_diag_clear(&diag);
        if (rtp_explore_point(sw, p, &o, cells, NULL, &diag) != RTP_OK) {
            fprintf(stderr, "bench_explore: %s\n", diag.message);
            exit(3);
        }
        for (size_t c = 0; c < pm; c++)
            accepted[p * pm + c] = cells[c].accepted;
    }
    double elapsed = bench_wall_us() / 1e6 - start;
    *cpu = bench_process_cpu_us() / 1e6 - cpu_start;
    free(cells);
    return elapsed;
}

/* "threads" mode: the sweep to a file, two output folders, the table. */
static int threads_only(const char *text, long sets, const char *base, int rounds)
{
    char sweep[] = "/tmp/bench_explore_XXXXXX", dir[2][32] = {"/tmp/bench_explore_XXXXXX",
                                                               "/tmp/bench_explore_XXXXXX"};
    int fd = mkstemp(sweep);
    size_t len = strlen(text);
    if (fd < 0 || write(fd, text, len) != (ssize_t)len || close(fd) != 0 || !mkdtemp(dir[0]) ||
        !mkdtemp(dir[1]))
        return 3;
    const char *bins[2] = {RTP_BINARY, base};
    char *argv[2][2][7];
    char *const *argvs[2][2];
    int n_bins = base ? 2 : 1;
    for (int b = 0; b < n_bins; b++)
        for (int k = 0; k < 2; k++) {
            char *words[7] = {(char *)bins[b], "explore", sweep, "--out", dir[k], "--force", NULL};
            memcpy(argv[b][k], words, sizeof words);
            argvs[b][k] = argv[b][k];
        }
    static const char *const names[2] = {"new", "base"};
    char what[128];
    snprintf(what, sizeof what, "rtpack explore, standard sweep, %ld sets per point", sets);
    bench_ceiling_table(what, (char *const *const (*)[2])argvs, names, n_bins,
                        rounds >= 1 && rounds <= 64 ? rounds : 7);
    unlink(sweep);
    for (int k = 0; k < 2; k++) {
        char cmd[64];
        snprintf(cmd, sizeof cmd, "rm -rf %s", dir[k]);
        if (system(cmd) != 0)
            return 3;
    }
    return 0;
}

int main(int argc, char **argv)
{
    long sets = argc > 1 ? strtol(argv[1], NULL, 10) : 500;
    int threads = argc > 2 && strcmp(argv[2], "threads") == 0;
    if (sets < 1 || (argc > 2 && !threads)) {
        fprintf(stderr, "usage: bench_explore [SETS_PER_POINT] [threads [BASE_RTPACK "
                        "[ROUNDS]]]\n");
        return 2;
    }
    char text[512];
    snprintf(text, sizeof text,
             "{\"seed\": 1, \"sets_per_point\": %ld, \"tasks\": 20, \"cpus\": 4, "
             "\"utilization\": {\"from\": \"0.5\", \"to\": \"1.0\", \"step\": \"0.03\"}, "
             "\"periods\": {\"min\": \"1ms\", \"max\": \"1s\", \"granularity\": \"1us\"}, "
             "\"deadlines\": \"constrained\", \"generator\": \"uunifast-discard\", "
             "\"policies\": [\"edf\", \"fp\"], \"methods\": [\"ffd\", \"bfd\", \"wfd\", \"best\"]}",
             sets);
    if (threads)
        return threads_only(text, sets, argc > 3 && argv[3][0] ? argv[3] : NULL, argc > 4 ? atoi(argv[4]) : 7);
    rtp_sweep sw;
    rtp_diag diag;
    if (rtp_sweep_parse(text, strlen(text), &sw, &diag) != RTP_OK) {
        fprintf(stderr, "bench_explore: %s\n", diag.message);
        return 3;
    }
    size_t cells = sw.n_points * sw.n_policies * sw.n_methods;
    int64_t *a1 = calloc(cells, sizeof *a1), *a2 = calloc(cells, sizeof *a2);
    double total = (double)sets * (double)sw.n_points;
    double c1, c2, t1 = run_all(&sw, 1, a1, &c1), t2 = run_all(&sw, 2, a2, &c2);
    int same = memcmp(a1, a2, cells * sizeof *a1) == 0;
    printf("standard sweep: %zu points x %ld sets = %.0f task sets, %zu policy x method each\n",
           sw.n_points, sets, total, sw.n_policies * sw.n_methods);
    printf("1 thread : %8.3f s  %9.1f sets/s  (%.1f sets/s per thread; %.1f sets per CPU-second)\n",
           t1, total / t1, total / t1, total / c1);
    printf("2 threads: %8.3f s  %9.1f sets/s  (%.1f sets/s per thread; %.1f sets per CPU-second)\n",
           t2, total / t2, total / t2 / 2, total / c2);
    printf("parallel work overhead (CPU time 2 threads / 1 thread): %.2f\n", c2 / c1);
    printf("speed-up 2 vs 1 threads: %.2fx (target >= 1.8x); counts identical: %s (load average "
           "%.2f)\n", t1 / t2, same ? "yes" : "NO", bench_load_average());
    free(a1);
    free(a2);
    rtp_sweep_free(&sw);
    return same ? 0 : 1;
}
