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

/* "K/N" with 1 <= K <= N. */
static int parse_shard(const char *text, void *field, char *why, size_t why_size)
{
    int *shard = field;
    char tail;
    (void)why;
    (void)why_size;
    if (sscanf(text, "%d/%d%c", &shard[0], &shard[1], &tail) != 2 || shard[1] < 1 ||
        shard[0] < 1 || shard[0] > shard[1])
        return -1;
    return 0;
}

typedef struct explore_settings {
    rtp_explore_opts explore;
    int shard[2];             /* --shard K/N */
} explore_settings;

static const cli_option options[] = {
    {.name = "out", .type = CLI_STRING, CLI_TARGET(explore_settings, explore.out_dir),
     .metavar = "DIR", .flags = CLI_REQUIRED | CLI_DIR,
     .help = "output folder (results.csv, timing.csv, acceptance.svg, ...)"},
    {.name = "shard", .type = CLI_CUSTOM, CLI_TARGET(explore_settings, shard), .metavar = "K/N",
     .parse = parse_shard, .wants = "K/N with 1 <= K <= N", .def = "1/1",
     .help = "run the K-th of N disjoint slices (points dealt round-robin)"},
    {.name = "resume", .type = CLI_FLAG, CLI_TARGET(explore_settings, explore.resume),
     .help = "continue the sweep already started in DIR"},
    {.name = "force", .type = CLI_FLAG, CLI_TARGET(explore_settings, explore.force),
     .help = "replace the results DIR already holds (start afresh)"},
    {.name = "threads", .type = CLI_INT, CLI_TARGET(explore_settings, explore.threads),
     .metavar = "T", .min = 1, .max = 1024, .def = "OMP_NUM_THREADS or all cores",
     .help = "OpenMP threads"},
    {.name = "json", .type = CLI_FLAG, CLI_TARGET(cli_args, json), .flags = CLI_IN_ARGS,
     .help = "print a summary of DIR (points done, acceptance per policy and method, files) "
             "as one JSON document"},
    CLI_OPTION_MAX_INPUT,
    CLI_END,
};

static void init(void *opaque)
{
    explore_settings *s = opaque;
    s->shard[0] = s->shard[1] = 1;
}

static int run(const cli_args *args, void *settings)
{
    explore_settings *s = settings;
    rtp_explore_opts o = s->explore;
    if (o.force && o.resume)
        return cli_usage_error(args, "--force replaces what --resume would continue: give one");
    const char *file = args->positional[0];
    o.shard_k = s->shard[0];
    o.shard_n = s->shard[1];
    progress_line line = {seconds_now(), 0.0, 0};
    if (isatty(STDERR_FILENO)) {
        o.progress = show_progress;
        o.progress_ctx = &line;
    }
    char *sweep = NULL;
    size_t len = 0;
    rtp_diag diag;
    rtp_diag_clear(&diag);
    rtp_status st = rtp_read_file_max(file, args->max_input, &sweep, &len, &diag);
    if (st == RTP_OK)
        st = rtp_explore_run(sweep, len, &o, &diag);
    free(sweep);
    if (line.shown)
        fputc('\n', stderr);
    if (st != RTP_OK)
        return cli_fail(args, cli_shown_name(file), st, &diag);
    return args->json ? cli_print_explore_summary(args, o.out_dir) : CLI_EXIT_OK;
}

const cli_command cli_cmd_explore = {
    .name = "explore",
    .summary = "Batch design-space exploration over generated task sets (OpenMP parallel): "
               "acceptance ratio per point x policy x method in DIR/results.csv.",
    .description =
        "The SWEEP file names the grid (tasks, CPUs, utilization per CPU, periods, deadline "
        "models, generator, policies, methods, sets per point). results.csv holds no "
        "timings, so the same sweep gives the same bytes for any thread count, any shard "
        "split (after rtpack merge) and any machine; timings go to timing.csv. A DIR that "
        "already holds results is refused unless --resume continues the same sweep or "
        "--force replaces them.",
    .operands = "SWEEP",
    .operand_help = "a sweep JSON document; - reads standard input",
    .min_operands = 1, .max_operands = 1,
    .examples = "rtpack explore sweep.json --out results/\n"
                "rtpack explore sweep.json --out part2/ --shard 2/3\n",
    .options = options,
    .settings_size = sizeof(explore_settings),
    .init = init,
    .run = run,
};
