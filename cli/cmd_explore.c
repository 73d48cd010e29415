/* cli/cmd_explore.c — `rtpack explore`: batch design-space exploration over
 * generated task sets (explore/explore.h). Progress on stderr (a line updated
 * in place on a terminal, one line per interval otherwise) and always a
 * final summary line; SIGINT, SIGTERM and SIGHUP stop the run cleanly (what
 * is done stays, the summary says how to --resume), then the signal is
 * raised again so the caller sees how the process ended. */
#include "cli/cli.h"
#include "cli/progress.h"
#include "explore/explore.h"

#include "deploy/quote.h"
#include "models/text.h"

#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Progress (cli/progress.h): the library's callback copies the tally under
 * the reporter's lock; the line's detail adds points and time-outs. */
typedef struct progress {
    cli_progress line;
    rtp_explore_tally tally;
} progress;

static void on_progress(void *ctx, const rtp_explore_tally *tally)
{
    progress *p = ctx;
    cli_progress_lock(&p->line);
    p->tally = *tally;
    p->line.done = tally->sets_done;
    p->line.total = tally->sets_total;
    cli_progress_unlock(&p->line);
}

static void detail(const void *ctx, double rate, char *buf, size_t size)
{
    const rtp_explore_tally *t = &((const progress *)ctx)->tally;
    char r[32];
    cli_put_rate(r, sizeof r, rate);
    snprintf(buf, size, "%zu/%zu points, %s sets/s, %llu time-outs", t->points_done,
             t->points_total, r, (unsigned long long)t->timeouts);
}

/* A word of the resume command: bare when it is plain, else quoted. */
static void put_word(rtp_text *b, const char *word)
{
    rtp_text_append(b, " ");
    if (*word && strspn(word, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                              "0123456789_./:=@%+-,") == strlen(word))
        rtp_text_append(b, word);
    else
        rtp_quote_sh(b, word);
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
    double set_time_limit_s;  /* --set-time-limit S, 0 = none */
    double progress_s;        /* --progress-every S, 0 = default */
} explore_settings;

static const cli_option options[] = {
    {.name = "out", .type = CLI_STRING, CLI_TARGET(explore_settings, explore.out_dir),
     .metavar = "DIR", .flags = CLI_REQUIRED | CLI_DIR | CLI_OUTPUT,
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
    {.name = "set-time-limit", .type = CLI_SECONDS,
     CLI_TARGET(explore_settings, set_time_limit_s), .metavar = "S", .def = "none",
     .help = "seconds one method may spend on one set; past it the set counts as a "
             "time-out (undecided)"},
    {.name = "progress-every", .type = CLI_SECONDS, CLI_TARGET(explore_settings, progress_s),
     .metavar = "S", .def = "1 on a terminal, else 10",
     .help = "seconds between progress reports on standard error"},
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

/* The last line: what was done, and after an interrupt how to go on. */
static void summarize(const cli_args *args, const explore_settings *s, const progress *p,
                      const char *file, double seconds, int sig)
{
    const rtp_explore_tally *t = &p->tally;
    const char *dir = s->explore.out_dir;
    char took[32];
    cli_put_hms(took, sizeof took, seconds);
    if (p->line.shown)
        fputc('\n', stderr);
    char rate[32];
    cli_put_rate(rate, sizeof rate, seconds > 0 ? (double)t->sets_done / seconds : 0.0);
    fprintf(stderr, "explore: %s %llu/%llu sets in %s (%s sets/s), %zu/%zu points in %s, "
            "%llu time-outs (undecided)\n", sig ? "interrupted:" : "done:",
            (unsigned long long)t->sets_done, (unsigned long long)t->sets_total, took, rate,
            t->points_done, t->points_total, dir, (unsigned long long)t->timeouts);
    if (!sig)
        return;
    rtp_text cmd;
    rtp_text_init(&cmd);
    char shard[32], number[32];
    rtp_text_append(&cmd, "rtpack explore");
    if (strcmp(file, "-") == 0) { /* the sweep was copied into DIR */
        rtp_text tmp;
        rtp_text_init(&tmp);
        rtp_text_printf(&tmp, "%s/sweep.json", dir);
        put_word(&cmd, tmp.data ? tmp.data : "");
        rtp_text_free(&tmp);
    } else {
        put_word(&cmd, file);
    }
    put_word(&cmd, "--out");
    put_word(&cmd, dir);
    if (s->shard[1] > 1) {
        snprintf(shard, sizeof shard, "%d/%d", s->shard[0], s->shard[1]);
        put_word(&cmd, "--shard");
        put_word(&cmd, shard);
    }
    put_word(&cmd, "--resume");
    if (s->set_time_limit_s > 0) {
        snprintf(number, sizeof number, "%.17g", s->set_time_limit_s);
        put_word(&cmd, "--set-time-limit");
        put_word(&cmd, number);
    }
    if (s->explore.threads > 0) {
        snprintf(number, sizeof number, "%d", s->explore.threads);
        put_word(&cmd, "--threads");
        put_word(&cmd, number);
    }
    if (args->json)
        put_word(&cmd, "--json");
    fprintf(stderr, "explore: stopped by %s; the finished points and sets are kept; to "
            "continue:\n  %s\n", sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "SIGHUP",
            cmd.data ? cmd.data : "(out of memory)");
    rtp_text_free(&cmd);
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
    if (s->set_time_limit_s > 0) {
        if (s->set_time_limit_s > 1e9)
            return cli_usage_error(args, "--set-time-limit: at most 1e9 seconds");
        o.set_time_limit_ns = (rtp_ns)ceil(s->set_time_limit_s * 1e9);
    }
    progress p;
    memset(&p, 0, sizeof p);
    o.progress = on_progress;
    o.progress_ctx = &p;
    cli_stop_signals saved;
    volatile sig_atomic_t *interrupted = cli_stop_signals_catch(&saved);
    o.interrupt = interrupted;
    char *sweep = NULL;
    size_t len = 0;
    rtp_diag diag;
    rtp_diag_clear(&diag);
    rtp_status st = rtp_read_file_max(file, args->max_input, &sweep, &len, &diag);
    double start = cli_seconds_now();
    if (st == RTP_OK) {
        cli_progress_start(&p.line, "explore", "sets", s->progress_s, detail, &p);
        st = rtp_explore_run(sweep, len, &o, &diag);
        cli_progress_stop(&p.line, 0);
    }
    free(sweep);
    int sig = *interrupted;
    int rc = CLI_EXIT_OK;
    if (st == RTP_OK || (sig && st == RTP_ELIMIT))
        summarize(args, s, &p, file, cli_seconds_now() - start, sig);
    else
        rc = cli_fail(args, cli_shown_name(file), st, &diag);
    if (rc == CLI_EXIT_OK && args->json)
        rc = cli_print_explore_summary(args, o.out_dir);
    cli_stop_signals_restore(&saved);
    if (sig) { /* end as the signal would have ended us (exit status 128 + sig) */
        fflush(stdout);
        signal(sig, SIG_DFL);
        raise(sig);
    }
    return rc;
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
                "rtpack explore sweep.json --out part2/ --shard 2/3\n"
                "rtpack explore sweep.json --out results/ --set-time-limit 2\n",
    .options = options,
    .settings_size = sizeof(explore_settings),
    .init = init,
    .run = run,
};
