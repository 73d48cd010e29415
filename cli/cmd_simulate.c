/* cli/cmd_simulate.c — `rtpack simulate FILE|PLAN`: options, the library's
 * simulation (sim/simulate.h: the schedule over a horizon, per task jobs,
 * misses, first miss and largest response, optionally the Gantt chart), and
 * printing (docs/spec.md "rtpack simulate"). Exit 0 when no job misses, 1
 * otherwise. */
#include "cli/cli.h"

#include "models/duration.h"
#include "models/fileio.h"
#include "models/plan.h"
#include "sim/simulate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct settings {
    rtp_policy policy;
    rtp_prio_rule priority;
    rtp_ns until_ns, from_ns;
    const char *overrun, *svg;
    rtp_limits limits;
} settings;

/* --from: a time, 0 included (the default, the chart's start: audit
 * rev13c found "--from 0" refused while the help gave 0 as the default). */
static int parse_from(const char *text, void *field, char *why, size_t why_size)
{
    rtp_ns *out = field;
    *out = -1;
    return cli_parse_time(text, out, why, why_size) == 0 || *out == 0 ? 0 : -1;
}

static const cli_option options[] = {
    {.name = "policy", .type = CLI_ENUM, CLI_TARGET(settings, policy), .choices = cli_policy_choices,
     .def = "edf", .help = "scheduling policy of a task set: one CPU (edf, fp) or one cluster "
                           "of --cpus M CPUs (gedf, gfp); a plan brings its own"},
    {.name = "priority", .type = CLI_ENUM, CLI_TARGET(settings, priority), .choices = cli_priority_choices,
     .def = "opa under fp, dm under gfp", .when = "policy=fp,gfp,gedf",
     .help = "fixed-priority order, as analyze computes it"},
    {.name = "until", .type = CLI_TIME, CLI_TARGET(settings, until_ns), .metavar = "T",
     .def = "hyperperiod + largest deadline", .help = "simulate [0, T)"},
    {.name = "overrun", .type = CLI_STRING, CLI_TARGET(settings, overrun), .metavar = "NAME:T",
     .help = "the first job of task NAME runs T instead of its wcet"},
    {.name = "svg", .type = CLI_STRING, CLI_TARGET(settings, svg), .metavar = "OUT.svg",
     .flags = CLI_FILE | CLI_OUTPUT, .help = "write the Gantt chart of [--from, --until] to OUT.svg"},
    {.name = "from", .type = CLI_CUSTOM, CLI_TARGET(settings, from_ns), .metavar = "T",
     .parse = parse_from, .wants = "a time such as 0, 5ms, 250us or 1s", .def = "0",
     .help = "the chart starts at T (with --svg; the simulation still starts at 0)"},
    {.name = "max-iterations", .type = CLI_INT, CLI_TARGET(settings, limits.max_iterations),
     .min = 1, .max = UINT64_MAX, .def = "50000000",
     .help = "fixed-point steps of the priority assignment before 'resource limit'"},
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

/* "NAME:T" (split at the last colon: names may hold colons); the name is
 * looked up by the library. */
static int parse_overrun(const cli_args *args, const char *text, char **name, rtp_ns *t)
{
    const char *colon = strrchr(text, ':');
    char why[160] = "";
    if (!colon || colon == text || cli_parse_time(colon + 1, t, why, sizeof why) != 0)
        return cli_usage_error(args, "--overrun wants NAME:T (a task and a time such as "
                                     "T2:7ms), got '%s'%s%s", text, why[0] ? ": " : "", why);
    if (!(*name = strndup(text, (size_t)(colon - text))))
        return cli_out_of_memory(args);
    return 0;
}

static void print_human(const rtp_simulation *r)
{
    const rtp_sim_doc *d = &r->doc;
    char until[40];
    rtp_duration_format(d->until_ns, until, sizeof until);
    printf("simulated [0, %s)%s\n", until,
           r->until_default ? " (hyperperiod + largest deadline)" : "");
    for (size_t b = 0; b < r->n_bins; b++) {
        char title[96];
        rtp_sim_bin_title(&r->bins[b], title, sizeof title);
        int locks = d->n_tasks > 0 && d->tasks[0].has_locks;
        printf("%s\n", title);
        printf("  %-20s %8s %10s %8s %14s %14s%s\n", "task", "priority", "jobs", "misses",
               "first miss", "max response", locks ? "   max blocking       max spin" : "");
        for (size_t k = 0; k < r->bins[b].n; k++) {
            const rtp_sim_doc_task *t = &d->tasks[r->bins[b].first + k];
            char prio[16] = "-", fm[40] = "-", rm[40] = "-", bl[40], sp[40];
            if (t->policy == RTP_POLICY_FP || t->policy == RTP_POLICY_GFP)
                snprintf(prio, sizeof prio, "%d", t->priority);
            if (t->first_miss_ns >= 0)
                rtp_duration_format(t->first_miss_ns, fm, sizeof fm);
            if (t->response_max_ns >= 0)
                rtp_duration_format(t->response_max_ns, rm, sizeof rm);
            printf("  %-20s %8s %10llu %8llu %14s %14s", t->name, prio,
                   (unsigned long long)t->jobs, (unsigned long long)t->misses, fm, rm);
            if (locks) {
                rtp_duration_format(t->blocking_max_ns, bl, sizeof bl);
                rtp_duration_format(t->spin_max_ns, sp, sizeof sp);
                printf(" %14s %14s", bl, sp);
            }
            printf("\n");
        }
    }
    for (size_t k = 0; k < r->n_unassigned; k++)
        printf("not simulated: %s is not placed by the plan\n", r->unassigned[k]);
    int terms = 0, rr = 0, affinity = 0;
    for (size_t k = 0; k < 5 && d->not_simulated[k]; k++) {
        int is_rr = !strcmp(d->not_simulated[k], "sched_rr");
        int is_affinity = !strcmp(d->not_simulated[k], "affinity");
        rr |= is_rr;
        affinity |= is_affinity;
        terms |= !is_rr && !is_affinity;
    }
    if (terms)
        printf("note: jitter, blocking and overheads are not simulated (every job is released "
               "at its arrival and runs its wcet): a miss shows the set unschedulable, no miss "
               "proves nothing here\n");
    if (rr)
        printf("note: SCHED_RR in a global cluster or under EDF is simulated as SCHED_FIFO "
               "(equal priorities first-in first-out); on one CPU under fp it is simulated\n");
    if (affinity)
        printf("note: an affinity naming no CPU of its cluster, or any affinity under gedf, is "
               "not simulated (the task may run on every CPU of the cluster)\n");
    printf("%s\n", d->schedulable ? "no deadline missed" : "deadlines missed");
}

static int write_svg(const cli_args *args, const settings *s, const rtp_simulation *r)
{
    const char *base = strrchr(args->positional[0], '/');
    base = base ? base + 1 : args->positional[0];
    char title[200];
    snprintf(title, sizeof title, "%s: simulated schedule",
             strcmp(args->positional[0], "-") == 0 ? "standard input" : base);
    char *svg = rtp_simulation_svg(r, title);
    if (!svg) {
        fprintf(stderr, "rtpack simulate: out of memory drawing the chart\n");
        return CLI_EXIT_LIMIT;
    }
    rtp_diag diag;
    rtp_diag_clear(&diag);
    rtp_status st = rtp_write_file(s->svg, svg, strlen(svg), 0644, &diag);
    free(svg);
    return st == RTP_OK ? CLI_EXIT_OK : cli_fail(args, s->svg, st, &diag);
}

static int run(const cli_args *args, void *opaque)
{
    settings *s = opaque;
    const char *file = args->positional[0], *shown = cli_shown_name(file);
    rtp_taskset ts;
    rtp_plan plan;
    rtp_simulation r;
    memset(&ts, 0, sizeof ts);
    memset(&plan, 0, sizeof plan);
    memset(&r, 0, sizeof r);
    char *overrun = NULL;
    rtp_diag diag;
    rtp_diag_clear(&diag);
    char *text = NULL;
    size_t len = 0;
    rtp_status st = rtp_read_file_max(file, (size_t)args->max_input, &text, &len, &diag);
    if (st != RTP_OK)
        return cli_fail(args, shown, st, &diag);
    int is_plan;
    st = rtp_doc_kind(text, len, &is_plan, &diag);
    if (st != RTP_OK) {
        free(text);
        return cli_fail(args, shown, st, &diag);
    }
    if (is_plan)
        st = rtp_plan_parse_json(text, len, &plan, &diag);
    else
        st = rtp_taskset_parse_json(text, len, &ts, &diag);
    free(text);
    int rc = CLI_EXIT_OK;
    if (st != RTP_OK) {
        rc = cli_fail(args, shown, st, &diag);
        goto done;
    }
    if (is_plan && (CLI_GIVEN(args, settings, policy) || CLI_GIVEN(args, settings, priority) ||
                    args->cpus)) {
        rc = cli_usage_error(args, "%s is a plan: it carries its own CPUs, policy and "
                                   "priorities (--policy, --priority and --cpus are for task "
                                   "sets)", shown);
        goto done;
    }
    if (CLI_GIVEN(args, settings, from_ns) && !s->svg) {
        rc = cli_usage_error(args, "--from sets where the chart starts: it needs --svg");
        goto done;
    }
    rtp_simulate_opts o = rtp_simulate_opts_default(s->policy);
    if (CLI_GIVEN(args, settings, priority))
        o.priority = s->priority;
    o.cpus_override = args->cpus;
    o.until_ns = s->until_ns;
    o.gantt = s->svg != NULL;
    o.gantt_from_ns = s->from_ns;
    o.limits = s->limits;
    if (s->overrun && (rc = parse_overrun(args, s->overrun, &overrun, &o.overrun_ns)) != 0)
        goto done;
    o.overrun_task = overrun;
    st = is_plan ? rtp_simulate_plan(&plan, &o, &r, &diag) : rtp_simulate(&ts, &o, &r, &diag);
    if (st != RTP_OK) {
        rc = r.option_error ? cli_usage_error(args, "%s", diag.message)
                            : cli_fail(args, shown, st, &diag);
        goto done;
    }
    /* the document first: out of memory there leaves no chart behind */
    char *json = args->json ? rtp_sim_doc_to_json(&r.doc, 1) : NULL;
    if (args->json && !json) {
        rc = cli_fail(args, shown, rtp_oom(&diag), &diag);
        goto done;
    }
    if (s->svg)
        rc = write_svg(args, s, &r);
    if (rc == CLI_EXIT_OK) {
        if (json)
            fputs(json, stdout);
        else
            print_human(&r);
        if (!r.doc.schedulable)
            rc = CLI_EXIT_NO;
    }
    free(json);
done:
    rtp_simulation_free(&r);
    free(overrun);
    rtp_taskset_free(&ts);
    rtp_plan_free(&plan);
    return rc;
}

const cli_command cli_cmd_simulate = {
    .name = "simulate",
    .summary = "Simulate the schedule of a task set or a plan and show it (table, JSON, "
               "Gantt chart).",
    .description =
        "Every task is released at 0 and then every period, and each job runs exactly its "
        "wcet (--overrun NAME:T makes the first job of NAME run T), preemptively, with ties "
        "broken as the analyses assume (EDF: earlier deadline, then input order; fixed "
        "priorities: first-in first-out among equal priorities). A task set runs on one CPU "
        "(edf, fp) or on one cluster of --cpus M CPUs (gedf, gfp) with the priorities "
        "analyze computes; a partition plan runs CPU by CPU (cluster by cluster) with its "
        "own policy and priorities. SCHED_RR ties on one CPU run Linux's run lists with "
        "the platform's quantum and tick; affinities in a gfp cluster are kept (a job "
        "waits only while every CPU of its mask runs a more urgent one). Shared resources run "
        "their protocols (ceilings under fp, SRP under edf, MSRP spinning across CPUs, "
        "FMLP+ suspension and boosting under fp; each job's critical sections first). Jitter, the given blocking and overheads are "
        "not simulated. The "
        "horizon is [0, --until), by default the hyperperiod plus the largest deadline "
        "(refused past 2^62 ns or 10^7 jobs: exit 3). --svg draws the Gantt chart of "
        "[--from, --until]; past 1500 execution boxes the chart stops at the first box left "
        "out and says so. Exit 0 when no job misses its deadline, 1 otherwise.",
    .operands = "FILE|PLAN",
    .operand_help = "a task-set document or a partition --json plan; - reads standard input",
    .min_operands = 1, .max_operands = 1,
    .examples = "rtpack simulate examples/textbook.json --policy fp --priority rm\n"
                "rtpack simulate examples/domino.json --overrun T2:7ms --svg domino.svg\n"
                "rtpack simulate examples/dhall.json --policy gedf --until 2s --json\n",
    .options = options,
    .settings_size = sizeof(settings),
    .init = init,
    .run = run,
};
