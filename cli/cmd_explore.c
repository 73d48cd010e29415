/* cli/cmd_explore.c — `rtpack explore`: batch design-space exploration over
 * generated task sets (explore/explore.h), with a progress line on stderr when
 * stderr is a terminal. */
#include "cli/cli.h"
#include "explore/explore.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const cli_option options[] = {
    {"out", 1, "DIR: output folder (results.csv, timing.csv, acceptance.svg, ...)"},
    {"shard", 1, "K/N: run the K-th of N disjoint slices (points dealt round-robin)"},
    {"resume", 0, "continue the sweep already started in DIR"},
    {"threads", 1, "T: OpenMP threads (default: OMP_NUM_THREADS or all cores)"},
    {NULL, 0, NULL},
};

typedef struct progress_line {
    double start, last;
    int shown;
} progress_line;

static double seconds_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void show_progress(void *ctx, uint64_t done, uint64_t total)
{
    progress_line *p = ctx;
    double now = seconds_now();
    if (done < total && now - p->last < 0.25)
        return;
    p->last = now;
    p->shown = 1;
    double elapsed = now - p->start, rate = elapsed > 0 ? (double)done / elapsed : 0.0;
    long eta = rate > 0 ? (long)((double)(total - done) / rate + 0.5) : 0;
    fprintf(stderr, "\rexplore: %llu/%llu sets (%.0f%%), %.0f sets/s, ETA %ld:%02ld:%02ld  ",
            (unsigned long long)done, (unsigned long long)total,
            total ? 100.0 * (double)done / (double)total : 100.0, rate, eta / 3600,
            eta / 60 % 60, eta % 60);
}

static int parse_shard(const cli_args *args, const char *text, int *k, int *n)
{
    char tail;
    if (sscanf(text, "%d/%d%c", k, n, &tail) != 2 || *n < 1 || *k < 1 || *k > *n)
        return cli_usage_error(args, "--shard wants K/N with 1 <= K <= N, got '%s'", text);
    return 0;
}

static int run(const cli_args *args)
{
    int rc = 0;
    const char *file = cli_one_file(args, &rc);
    if (!file)
        return rc;
    rtp_explore_opts o;
    memset(&o, 0, sizeof o);
    o.shard_k = o.shard_n = 1;
    if (!(o.out_dir = cli_get(args, "out")))
        return cli_usage_error(args, "--out DIR is required");
    const char *text = cli_get(args, "shard");
    if (text && (rc = parse_shard(args, text, &o.shard_k, &o.shard_n)))
        return rc;
    if ((text = cli_get(args, "threads"))) {
        char *end;
        long t = strtol(text, &end, 10);
        if (*end || t < 1 || t > 1024)
            return cli_usage_error(args, "--threads wants 1..1024, got '%s'", text);
        o.threads = (int)t;
    }
    o.resume = cli_has(args, "resume");
    progress_line line = {seconds_now(), 0.0, 0};
    if (isatty(STDERR_FILENO)) {
        o.progress = show_progress;
        o.progress_ctx = &line;
    }
    char *sweep = NULL;
    size_t len = 0;
    rtp_diag diag;
    rtp_diag_clear(&diag);
    rtp_status st = rtp_read_file(file, &sweep, &len, &diag);
    if (st == RTP_OK)
        st = rtp_explore_run(sweep, len, &o, &diag);
    free(sweep);
    if (line.shown)
        fputc('\n', stderr);
    if (st != RTP_OK)
        return cli_fail(args, strcmp(file, "-") == 0 ? "<stdin>" : file, st, &diag);
    return CLI_EXIT_OK;
}

const cli_command cli_cmd_explore = {
    "explore", "SWEEP --out DIR [--shard K/N] [--resume]",
    "Batch design-space exploration over generated task sets (OpenMP parallel): acceptance "
    "ratio per point x policy x method in DIR/results.csv (see docs/explore.md).",
    options, run,
};
