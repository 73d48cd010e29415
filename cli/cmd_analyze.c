/* cli/cmd_analyze.c — `rtpack analyze`: every task of FILE on one CPU (exact
 * EDF / FP tests), or on one cluster of M CPUs (global sufficient tests); one
 * document (--json) or a table, or one compact result per line (--batch).
 * Exit: 0 schedulable, 1 not, 2 bad input, 3 limit (docs/spec.md). */
#include "cli/cli.h"
#include "cli/batch.h"
#include "solver/global.h"

#include "solver/analyze.h"
#include "models/duration.h"
#include "models/effective.h"
#include "models/ratio.h"
#include "solver/edf.h"
#include "solver/sensitivity.h"
#include "solver/schedtest.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What one analysis runs with; the options below write into it. */
typedef struct settings {
    rtp_policy policy;
    rtp_prio_rule priority;   /* default by policy when not given */
    rtp_limits limits;
    const char *batch;
    int cpus_override;        /* --cpus M, 0 when absent */
    int sensitivity;          /* --sensitivity */
} settings;

static const cli_option options[] = {
    {.name = "policy", .type = CLI_ENUM, CLI_TARGET(settings, policy), .choices = cli_policy_choices,
     .def = "edf", .help = "scheduling policy: one CPU (fp, edf) or one cluster of --cpus M "
                           "CPUs (gedf, gfp)"},
    {.name = "priority", .type = CLI_ENUM, CLI_TARGET(settings, priority), .choices = cli_priority_choices,
     .def = "opa under fp, dm under gfp", .when = "policy=fp,gfp,gedf",
     .help = "fixed-priority order"},
    {.name = "batch", .type = CLI_STRING, CLI_TARGET(settings, batch), .metavar = "FILE.jsonl",
     .flags = CLI_FILE,
     .help = "one task set per line in, one compact JSON result per line out (- for "
             "standard input)"},
    {.name = "max-iterations", .type = CLI_INT, CLI_TARGET(settings, limits.max_iterations),
     .min = 1, .max = UINT64_MAX, .def = "50000000",
     .help = "fixed-point steps per test before 'resource limit'"},
    {.name = "sensitivity", .type = CLI_FLAG, CLI_TARGET(settings, sensitivity),
     .help = "also per task the largest wcet keeping the set schedulable (wcet_max) and the "
             "critical scaling factor of all wcets (exact p/q and decimal)"},
    CLI_OPTION_CPUS,
    CLI_OPTION_JSON,
    CLI_OPTION_MAX_INPUT,
    CLI_END,
};

static void init(void *opaque)
{
    settings *s = opaque;
    s->policy = RTP_POLICY_EDF;
    s->limits = rtp_limits_default();
}

/* The library's options (solver/analyze.h) from the command's settings. */
static rtp_analyze_opts opts_of(const settings *s)
{
    rtp_analyze_opts o = rtp_analyze_opts_default(s->policy);
    o.priority = s->priority;
    o.limits = s->limits;
    o.cpus_override = s->cpus_override;
    o.sensitivity = s->sensitivity;
    return o;
}

/* ---- the human table ---- */

/* Why EDF fails at t (the smallest failing interval length). */
static void print_first_miss(const rtp_analysis *a, rtp_ns t)
{
    const rtp_task *eff = a->eff;
    size_t n = a->doc.n_tasks;
    char when[40], dem[40], blk[96] = "";
    for (size_t i = 0; i < n; i++) {
        if (eff[i].jitter_ns >= eff[i].deadline_ns) {
            rtp_duration_format(eff[i].jitter_ns, dem, sizeof dem);
            rtp_duration_format(eff[i].deadline_ns, when, sizeof when);
            printf("%s cannot meet its deadline: a job may be released %s after its arrival "
                   "(release jitter with the platform's release latency), not before its "
                   "deadline %s (first_miss = 1 ns)\n", eff[i].name, dem, when);
            return;
        }
    }
    rtp_ns demand = 0, blocking = rtp_edf_blocking(eff, n, t);
    rtp_duration_format(t, when, sizeof when);
    if (rtp_edf_dbf(eff, n, t, &demand) == RTP_OK)
        rtp_duration_format(demand, dem, sizeof dem);
    else
        snprintf(dem, sizeof dem, "more than 2^63 ns");
    if (blocking > 0) {
        char b[40];
        rtp_duration_format(blocking, b, sizeof b);
        snprintf(blk, sizeof blk, " + b(%s) = %s", when, b);
    }
    printf("first deadline miss at %s: after a synchronous release, the jobs due by %s need "
           "%s of CPU time (dbf(%s) = %s%s > %s), so a job due at %s misses (tasks with a "
           "deadline there:", when, when, dem, when, dem, blk, when, when);
    for (size_t i = 0; i < n; i++) {
        const rtp_task *k = &eff[i];
        rtp_ns first = k->deadline_ns - k->jitter_ns; /* first deadline after a release at 0 */
        if (t >= first && (t - first) % k->period_ns == 0)
            printf(" %s", k->name);
    }
    printf("). No earlier interval is overloaded.\n");
}

/* Each global EDF test's own verdict, so "n/a" (preconditions not met) is
 * told apart from "reject". */
static void print_global_edf_tests(const rtp_analysis *a, int cpus)
{
    rtp_global_report report;
    rtp_limits limits = rtp_limits_default();
    if (rtp_global_edf_report(a->eff, a->doc.n_tasks, cpus, &limits, &report, NULL) != RTP_OK)
        return;
    printf("tests:");
    for (int k = 0; k < RTP_GLOBAL_EDF_TESTS; k++)
        printf(" %s %s%s", report.test[k], rtp_global_verdict_name(report.verdict[k]),
               k + 1 < RTP_GLOBAL_EDF_TESTS ? "," : "\n");
}

/* Soft real-time under global EDF: each task's tardiness bound and which
 * bound gave it (solver/tardiness.h). */
static void print_tardiness(const rtp_analysis *a)
{
    const rtp_analysis_doc *d = &a->doc;
    printf("tardiness bounds (global EDF, utilization <= %d: every job completes at most this "
           "long after its deadline):\n", d->cpus);
    for (size_t i = 0; i < d->n_tasks; i++) {
        const rtp_analysis_task *r = &d->tasks[i];
        char t[40];
        rtp_duration_format(r->tardiness_ns, t, sizeof t);
        const char *by = r->tardiness_by;
        printf("  %-16s %12s  (%s)\n", r->name, t,
               !strcmp(by, "cv") ? "compliant vectors" : !strcmp(by, "da") ? "Devi & Anderson"
                                                                             : "hard test");
    }
}

/* A utilization for the table, never reading "1.0000" beside a verdict
 * that says it exceeds 1 (or is below it): 4 decimals, or as many as it
 * takes to read on the same side of 1 as the exact sum of `tasks`. */
static void show_util(const rtp_task *tasks, size_t n, double value, char *buf, size_t size)
{
    rtp_ratio one = {1, 1};
    int side = rtp_load_cmp(tasks, n, RTP_LOAD_UTIL, one);
    if (side > 0) {
        rtp_ratio_format_above(value, one, buf, size);
        return;
    }
    char why[64];
    for (int places = 4; places <= 17; places++) {
        rtp_ratio shown;
        snprintf(buf, size, "%.*f", places, value);
        if (side == 0 || rtp_ratio_parse_decimal(buf, &shown, why, sizeof why) != RTP_OK ||
            rtp_ratio_cmp(shown, one) < 0)
            return;
    }
    snprintf(buf, size, "just below 1");
}

static void print_verdict(const rtp_taskset *ts, const rtp_analysis *a)
{
    const rtp_analysis_doc *d = &a->doc;
    const rtp_overheads *ov = &ts->platform.overheads;
    char util[48];
    show_util(ts->tasks, d->n_tasks, d->utilization, util, sizeof util);
    printf("\ntotal utilization: %s\n", util);
    cli_print_overheads(ov, d->policy);
    if (d->has_effective_utilization) {
        show_util(a->eff, d->n_tasks, d->effective_utilization, util, sizeof util);
        printf("effective utilization (%s): %s\n", cli_effective_words(ov, d->policy), util);
    }
    rtp_ratio one = {1, 1};
    int overloaded = rtp_load_cmp(a->eff, d->n_tasks, RTP_LOAD_UTIL, one) > 0;
    switch (d->policy) {
    case RTP_POLICY_EDF:
        if (d->schedulable)
            printf("verdict: schedulable under EDF on one CPU (processor demand, exact)\n");
        else if (overloaded)
            printf("verdict: NOT schedulable under EDF: the total %sutilization exceeds 1\n",
                   d->has_effective_utilization ? "effective " : "");
        else {
            printf("verdict: NOT schedulable under EDF on one CPU\n");
            if (d->has_first_miss)
                print_first_miss(a, d->first_miss_ns);
        }
        break;
    case RTP_POLICY_FP:
        if (d->schedulable)
            printf("verdict: schedulable under fixed priorities (%s) on one CPU "
                   "(response-time analysis, exact)\n", rtp_prio_rule_name(d->priority_rule));
        else if (!d->assignment_found)
            printf("verdict: NOT schedulable: no fixed-priority order meets every deadline "
                   "(OPA found none); deadline-monotonic priorities shown\n");
        else
            printf("verdict: NOT schedulable under fixed priorities (%s): the tasks marked "
                   "MISSES exceed their deadlines\n", rtp_prio_rule_name(d->priority_rule));
        break;
    default:
        if (d->schedulable)
            printf("verdict: schedulable under global %s on %d CPU%s (accepted by %s)\n",
                   d->policy == RTP_POLICY_GEDF ? "EDF" : "FP", d->cpus, d->cpus == 1 ? "" : "s",
                   d->test);
        else if (d->not_applicable && d->cpus >= 2)
            printf("verdict: NOT shown schedulable under global %s on %d CPUs: not applicable "
                   "(%s; partition the tasks, or analyse one CPU, to have them analysed "
                   "exactly)\n",
                   d->policy == RTP_POLICY_GEDF ? "EDF" : "FP", d->cpus, d->not_applicable);
        else
            printf("verdict: NOT shown schedulable under global %s on %d CPU%s: no test "
                   "accepts (the tests are sufficient only)\n",
                   d->policy == RTP_POLICY_GEDF ? "EDF" : "FP", d->cpus, d->cpus == 1 ? "" : "s");
        if (d->policy == RTP_POLICY_GEDF && d->cpus >= 2)
            print_global_edf_tests(a, d->cpus);
        if (a->bounded)
            print_tardiness(a);
        break;
    }
}

/* --sensitivity in the table's words: margins as percentages. */
static void print_sensitivity(const rtp_analysis *a)
{
    const rtp_analysis_doc *d = &a->doc;
    printf("\nsensitivity (every other task unchanged):\n");
    for (size_t i = 0; i < d->n_tasks; i++) {
        const rtp_analysis_task *r = &d->tasks[i];
        char w[40], wm[40], pct[48];
        if (!r->has_wcet_max)
            continue; /* not computed: the factor's line says why */
        rtp_duration_format(r->wcet_ns, w, sizeof w);
        if (r->wcet_max_ns < 0) {
            printf("  %-16s wcet %s: no wcet_max (the set is not schedulable as given)\n",
                   r->name, w);
            continue;
        }
        rtp_duration_format(r->wcet_max_ns, wm, sizeof wm);
        printf("  %-16s wcet %s, wcet_max %s: wcet margin %s\n", r->name, w, wm,
               cli_percent_change((double)r->wcet_max_ns / (double)r->wcet_ns, pct,
                                  sizeof pct));
    }
    cli_print_scaling(&a->scaling, "");
}

static void print_table(const rtp_taskset *ts, const rtp_analysis *a)
{
    const rtp_analysis_doc *d = &a->doc;
    /* jitter and blocking columns only when some task has one (the table is
     * otherwise as it always was) */
    int delays = rtp_tasks_have_delays(ts->tasks, ts->n_tasks);
    printf("policy: %s", rtp_policy_name(d->policy));
    if (d->has_priority_rule)
        printf(", priorities: %s", rtp_prio_rule_name(d->priority_rule));
    if (d->cpus > 0)
        printf(", %d CPU%s", d->cpus, d->cpus == 1 ? "" : "s");
    printf("\n\n%-16s %12s %12s %12s", "name", "wcet", "deadline", "period");
    if (delays)
        printf(" %12s %12s", "jitter", "blocking");
    printf(" %11s %8s %12s %12s  %s\n", "utilization", "priority", "response", "slack",
           "verdict");
    for (size_t i = 0; i < d->n_tasks; i++) {
        const rtp_analysis_task *r = &d->tasks[i];
        char c[40], dl[40], p[40], prio[16] = "-", resp[40] = "-", slack[40] = "-";
        rtp_duration_format(r->wcet_ns, c, sizeof c);
        rtp_duration_format(r->deadline_ns, dl, sizeof dl);
        rtp_duration_format(r->period_ns, p, sizeof p);
        if (r->has_priority)
            snprintf(prio, sizeof prio, "%d", r->priority);
        const char *verdict = d->schedulable ? "ok" : d->not_applicable ? "n/a" : "-";
        if (r->has_response && r->response_time_ns >= 0) {
            rtp_duration_format(r->response_time_ns, resp, sizeof resp);
            rtp_duration_format(r->deadline_ns - r->response_time_ns, slack, sizeof slack);
            verdict = "ok";
        } else if (r->has_response) {
            snprintf(resp, sizeof resp, "> deadline");
            verdict = "MISSES";
        }
        printf("%-16s %12s %12s %12s", r->name, c, dl, p);
        if (delays) {
            char j[40], b[40];
            rtp_duration_format(r->jitter_ns, j, sizeof j);
            rtp_duration_format(r->blocking_ns, b, sizeof b);
            printf(" %12s %12s", j, b);
        }
        printf(" %11.4f %8s %12s %12s  %s\n", (double)r->wcet_ns / (double)r->period_ns, prio,
               resp, slack, verdict);
    }
    print_verdict(ts, a);
    if (a->wcet_max || a->scaling.not_defined)
        print_sensitivity(a);
}

/* ---- batch mode (the pipeline: cli/batch.c) ---- */

/* The result line of a line that failed, appended to out: its kind (2 bad,
 * 3 limit), or -1 when out of memory (no result line: the run stops). */
static int batch_error(rtp_text *out, long line, rtp_status st, const rtp_diag *diag)
{
    if (st == RTP_ENOMEM)
        return -1;
    char where[1024], msg[1200];
    rtp_diag_format(diag, NULL, where, sizeof where);
    if (st == RTP_EINPUT)
        snprintf(msg, sizeof msg, "%s", where);
    else
        snprintf(msg, sizeof msg, "%s: %s",
                 st == RTP_ELIMIT ? "resource limit" : rtp_status_name(st), where);
    if (rtp_analysis_error_write(out, line, msg) != RTP_OK)
        return -1;
    return st == RTP_EINPUT ? 2 : 3;
}

/* Analyses one line, its result line appended to out (called from the
 * pipeline's threads, each with its own out: no shared state); its kind as
 * batch_error's, 0 when analysed. */
static int batch_line(const char *text, size_t len, long line, const void *ctx, rtp_text *out)
{
    const settings *s = ctx;
    rtp_taskset ts;
    rtp_diag diag;
    rtp_diag_clear(&diag);
    rtp_status st = rtp_taskset_parse_json(text, len, &ts, &diag);
    if (st == RTP_OK) {
        rtp_analysis a;
        rtp_analyze_opts o = opts_of(s);
        st = rtp_analyze(&ts, &o, &a, &diag);
        if (st == RTP_OK) {
            a.doc.line = line;
            st = rtp_analysis_doc_write(out, &a.doc, 0);
        }
        rtp_analysis_free(&a);
        rtp_taskset_free(&ts);
    }
    return st == RTP_OK ? 0 : batch_error(out, line, st, &diag);
}

static int run_batch(const cli_args *args, const char *file, const settings *s)
{
    rtp_lines in;
    rtp_diag diag;
    rtp_diag_clear(&diag);
    rtp_status st = rtp_lines_open(&in, file, (size_t)args->max_input, &diag);
    if (st != RTP_OK) {
        rtp_lines_close(&in);
        return cli_fail(args, cli_shown_name(file), st, &diag);
    }
    int flags = cli_batch_run(&in, omp_get_max_threads(), batch_line, batch_error, s, stdout);
    rtp_lines_close(&in);
    return flags & 4   ? CLI_EXIT_LIMIT
           : flags & 1 ? CLI_EXIT_USAGE
           : flags & 2 ? CLI_EXIT_LIMIT
                       : CLI_EXIT_OK;
}

/* --cpus M > 1 means nothing to a one-CPU test: a usage error that says what
 * the user may have meant. Prints it and returns 1, else 0. */
static int one_cpu_check(const cli_args *args, const settings *s)
{
    if (args->cpus <= 1 || s->policy == RTP_POLICY_GEDF || s->policy == RTP_POLICY_GFP)
        return 0;
    cli_usage_error(args, "--cpus %d under --policy %s would still analyse one CPU: use "
                          "--policy gedf or gfp for one cluster of %d CPUs, or rtpack partition "
                          "to place the tasks on %d CPUs",
                    args->cpus, rtp_policy_name(s->policy), args->cpus, args->cpus);
    return 1;
}

static int run(const cli_args *args, void *opaque)
{
    settings *s = opaque;
    s->cpus_override = args->cpus;
    if (!CLI_GIVEN(args, settings, priority))
        s->priority = s->policy == RTP_POLICY_GFP ? RTP_PRIO_DM : RTP_PRIO_OPA;
    if (s->batch) {
        if (args->n_positional != 0)
            return cli_usage_error(args, "--batch takes the input file; no FILE argument too");
        return one_cpu_check(args, s) ? CLI_EXIT_USAGE : run_batch(args, s->batch, s);
    }
    if (args->n_positional == 0)
        return cli_usage_error(args, "missing FILE (use - for standard input)");
    const char *file = args->positional[0];
    rtp_taskset ts;
    int rc = cli_load_taskset(args, file, &ts); /* bad input first, as for every FILE */
    if (rc)
        return rc;
    if (one_cpu_check(args, s)) {
        rtp_taskset_free(&ts);
        return CLI_EXIT_USAGE;
    }
    rtp_analysis a;
    rtp_diag diag;
    rtp_diag_clear(&diag);
    rtp_analyze_opts o = opts_of(s);
    rtp_status st = rtp_analyze(&ts, &o, &a, &diag);
    if (st != RTP_OK) {
        rc = cli_fail(args, cli_shown_name(file), st, &diag);
    } else if (args->json) {
        char *text = rtp_analysis_doc_to_json(&a.doc, 1);
        if (text) {
            fputs(text, stdout);
            free(text);
        }
        rc = !text ? cli_out_of_memory(args) : a.doc.schedulable ? CLI_EXIT_OK : CLI_EXIT_NO;
    } else {
        print_table(&ts, &a);
        rc = a.doc.schedulable ? CLI_EXIT_OK : CLI_EXIT_NO;
    }
    rtp_analysis_free(&a);
    rtp_taskset_free(&ts);
    return rc;
}

const cli_command cli_cmd_analyze = {
    .name = "analyze",
    .summary = "Analyse all tasks of FILE on one CPU (or one cluster of --cpus M CPUs).",
    .description =
        "Under fp and edf the tests are exact: processor demand with QPA for EDF, "
        "response-time analysis for fixed priorities (rm, dm, Audsley's OPA or the given "
        "priorities). Under gedf and gfp the tasks share one cluster of M CPUs and sufficient "
        "tests decide (GFB, BAK, BCL, Bertogna-Cirinei response times); the document names "
        "the test that accepts. With --batch, every line of FILE.jsonl is one task set and "
        "gets one compact JSON result line, in input order.",
    .operands = "FILE",
    .operand_help = "a task-set JSON document; - reads standard input",
    .min_operands = 0, .max_operands = 1,
    .examples = "rtpack analyze examples/textbook.json --policy fp\n"
                "rtpack analyze set.json --policy gedf --cpus 4 --json\n"
                "rtpack analyze --batch sets.jsonl --policy edf > results.jsonl\n",
    .options = options,
    .settings_size = sizeof(settings),
    .init = init,
    .run = run,
};
