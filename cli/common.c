/* cli/common.c — error printing, the task-set loading, the stop signals
 * and the explore summary shared by several commands. */
#include "cli/cli.h"
#include "explore/explore.h"
#include "models/duration.h"
#include "models/effective.h"
#include "solver/sensitivity.h"

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const int stop_signals[3] = {SIGINT, SIGTERM, SIGHUP};
static volatile sig_atomic_t stop_signal;

static void on_stop_signal(int sig)
{
    stop_signal = sig;
}

volatile sig_atomic_t *cli_stop_signals_catch(cli_stop_signals *saved)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    for (int i = 0; i < 3; i++)
        sigaction(stop_signals[i], &sa, saved ? &saved->old[i] : NULL);
    return &stop_signal;
}

void cli_stop_signals_restore(const cli_stop_signals *saved)
{
    for (int i = 0; i < 3; i++)
        sigaction(stop_signals[i], &saved->old[i], NULL);
}

int cli_usage_error(const cli_args *args, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "rtpack%s%s: ", args && args->command ? " " : "",
            args && args->command ? args->command : "");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return CLI_EXIT_USAGE;
}

int cli_fail(const cli_args *args, const char *file, rtp_status status,
             const rtp_diag *diag)
{
    char line[1024];
    rtp_diag shown = *diag;
    /* a library function without a diag of its own returns a bare RTP_ENOMEM */
    if (status == RTP_ENOMEM && !shown.message[0])
        snprintf(shown.message, sizeof shown.message, "out of memory");
    rtp_diag_format(&shown, file, line, sizeof line);
    if (status == RTP_ELIMIT)
        fprintf(stderr, "rtpack %s: resource limit: %s\n", args->command, line);
    else
        fprintf(stderr, "rtpack %s: %s\n", args->command, line);
    return rtp_status_exit_code(status);
}

int cli_out_of_memory(const cli_args *args)
{
    fprintf(stderr, "rtpack %s: out of memory\n", args->command);
    return CLI_EXIT_LIMIT;
}

const char *cli_shown_name(const char *file)
{
    return strcmp(file, "-") == 0 ? "<stdin>" : file;
}

int cli_load_taskset(const cli_args *args, const char *file, rtp_taskset *ts)
{
    rtp_diag diag;
    rtp_diag_clear(&diag);
    rtp_status st = rtp_taskset_load(file, args->max_input, ts, &diag);
    if (st != RTP_OK)
        return cli_fail(args, cli_shown_name(file), st, &diag);
    return 0;
}

int cli_load_plan(const cli_args *args, const char *file, rtp_plan *plan)
{
    rtp_diag diag;
    rtp_diag_clear(&diag);
    char *text = NULL;
    size_t len = 0;
    memset(plan, 0, sizeof *plan);
    rtp_status st = rtp_read_file_max(file, args->max_input, &text, &len, &diag);
    if (st == RTP_OK)
        st = rtp_plan_parse_json(text, len, plan, &diag);
    free(text);
    return st == RTP_OK ? 0 : cli_fail(args, cli_shown_name(file), st, &diag);
}

int cli_print_explore_summary(const cli_args *args, const char *dir)
{
    rtp_explore_summary summary;
    rtp_diag diag;
    rtp_diag_clear(&diag);
    rtp_status st = rtp_explore_summarize(dir, &summary, &diag);
    if (st != RTP_OK)
        return cli_fail(args, "", st, &diag);
    char *text = rtp_explore_summary_to_json(&summary, 1);
    rtp_explore_summary_free(&summary);
    if (!text) {
        fprintf(stderr, "rtpack %s: out of memory\n", args->command);
        return CLI_EXIT_LIMIT;
    }
    fputs(text, stdout);
    free(text);
    return CLI_EXIT_OK;
}

const char *cli_percent_change(double ratio, char *buf, size_t size)
{
    double pct = (ratio - 1.0) * 100.0;
    if (pct != 0.0 && pct > -0.001 && pct < 0.001) {
        snprintf(buf, size, "%+.2g%%", pct);
        return buf;
    }
    char num[48];
    snprintf(num, sizeof num, "%+.3f", pct);
    size_t len = strlen(num);
    while (len > 0 && num[len - 1] == '0')
        len--;
    if (len > 0 && num[len - 1] == '.')
        len--;
    num[len] = '\0';
    snprintf(buf, size, "%s%%", strcmp(num, "-0") == 0 ? "+0" : num);
    return buf;
}

void cli_print_scaling(const rtp_scaling *s, const char *indent)
{
    if (s->unbounded) {
        printf("%scritical scaling factor: unbounded (no tasks)\n", indent);
    } else if (s->not_defined) {
        printf("%scritical scaling factor: %s\n", indent, s->not_defined);
    } else if (!s->exists) {
        printf("%scritical scaling factor: none (no scaling of the wcets makes the set "
               "schedulable)\n", indent);
    } else {
        char pct[48];
        double ratio = strtod(s->decimal, NULL); /* display only */
        printf("%scritical scaling factor %s (%s): every wcet multiplied by up to that "
               "keeps the set schedulable", indent, s->decimal,
               cli_percent_change(ratio, pct, sizeof pct));
        if (strlen(s->exact) <= 40)
            printf(" (exactly %s)", s->exact);
        printf("\n");
    }
}

const cli_choice cli_policy_choices[] = {
    {"fp", RTP_POLICY_FP}, {"edf", RTP_POLICY_EDF}, {"gedf", RTP_POLICY_GEDF},
    {"gfp", RTP_POLICY_GFP}, {NULL, 0},
};
const cli_choice cli_priority_choices[] = {
    {"rm", RTP_PRIO_RM}, {"dm", RTP_PRIO_DM}, {"opa", RTP_PRIO_OPA}, {"given", RTP_PRIO_GIVEN},
    {NULL, 0},
};

void cli_print_overheads(const rtp_overheads *ov, rtp_policy policy)
{
    if (rtp_overheads_zero(ov))
        return;
    char rl[40], cs[40], dc[40], nz[40];
    rtp_duration_format(ov->release_latency_ns, rl, sizeof rl);
    rtp_duration_format(ov->context_switch_ns, cs, sizeof cs);
    printf("platform overheads: release latency %s (added to every jitter), context switch "
           "%s (charged twice to every job)", rl, cs);
    if (ov->noise_per_ms_ns != 0) {
        rtp_duration_format(ov->noise_per_ms_ns, nz, sizeof nz);
        printf(", noise %s per ms of execution", nz);
    }
    if (ov->deadline_charge_ns != 0 && rtp_policy_is_deadline(policy)) {
        rtp_duration_format(ov->deadline_charge_ns, dc, sizeof dc);
        printf(", SCHED_DEADLINE charge %s per job", dc);
    }
    printf("\n");
}

const char *cli_effective_words(const rtp_overheads *ov, rtp_policy policy)
{
    int noise = ov && ov->noise_per_ms_ns != 0;
    int charge = ov && ov->deadline_charge_ns != 0 && rtp_policy_is_deadline(policy);
    return noise && charge ? "wcet + noise + 2 x context switch + deadline charge"
           : noise         ? "wcet + noise + 2 x context switch"
           : charge        ? "wcet + 2 x context switch + deadline charge"
                           : "wcet + 2 x context switch";
}
