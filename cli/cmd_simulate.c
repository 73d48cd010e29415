/* cli/cmd_simulate.c — `rtpack simulate FILE|PLAN`: the schedule itself
 * (sim/sim.h) over a horizon, per task jobs, misses, first miss and largest
 * response, and optionally its Gantt chart (sim/gantt.h). A task set is
 * simulated on one CPU (edf, fp) or one cluster (gedf, gfp) with the
 * priorities analyze would give; a plan CPU by CPU (cluster by cluster)
 * with its own policy and priorities (docs/spec.md "rtpack simulate").
 * Exit 0 when no job misses, 1 otherwise. */
#include "cli/cli.h"

#include "models/duration.h"
#include "models/effective.h"
#include "models/fileio.h"
#include "models/plan.h"
#include "sim/sim_doc.h"
#include "sim/gantt.h"
#include "sim/sim.h"
#include "solver/fp.h"
#include "solver/global.h"

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
    {.name = "from", .type = CLI_TIME, CLI_TARGET(settings, from_ns), .metavar = "T",
     .def = "0", .help = "the chart starts at T (with --svg; the simulation still starts at 0)"},
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

/* One CPU or cluster simulated on its own. */
typedef struct bin {
    rtp_policy policy;
    int *cpus;
    size_t n_cpus;
    rtp_task *tasks;     /* borrowed */
    size_t n, first;     /* its tasks are all[first .. first + n - 1] */
    int *prio;           /* owned; FP only */
} bin;

typedef struct world {
    rtp_task *all;       /* every simulated task, bin after bin (borrowed) */
    size_t n;
    bin *bins;
    size_t n_bins;
    const char **unassigned;
    size_t n_unassigned;
    rtp_taskset ts;
    rtp_plan plan;
    rtp_task *plan_tasks;
    int *ts_cpus;
} world;

static void world_free(world *w)
{
    for (size_t b = 0; b < w->n_bins; b++)
        free(w->bins[b].prio);
    free(w->bins);
    free(w->unassigned);
    free(w->plan_tasks);
    free(w->ts_cpus);
    rtp_taskset_free(&w->ts);
    rtp_plan_free(&w->plan);
}

static int fixed(rtp_policy p)
{
    return p == RTP_POLICY_FP || p == RTP_POLICY_GFP;
}

/* A task set: one bin with the priorities analyze gives (computed on the
 * effective tasks, as analyze does). */
static rtp_status from_taskset(world *w, const cli_args *args, const settings *s,
                               rtp_diag *diag)
{
    size_t n = w->ts.n_tasks;
    int global = s->policy == RTP_POLICY_GEDF || s->policy == RTP_POLICY_GFP;
    rtp_status st = RTP_OK;
    w->bins = calloc(1, sizeof *w->bins);
    if (!w->bins)
        return RTP_ENOMEM;
    w->n_bins = 1;
    bin *b = &w->bins[0];
    if (global) {
        st = rtp_taskset_cpu_ids(&w->ts, args->cpus, &w->ts_cpus, &b->n_cpus, diag);
        if (st != RTP_OK)
            return st;
    } else {
        w->ts_cpus = malloc(sizeof *w->ts_cpus);
        if (!w->ts_cpus)
            return RTP_ENOMEM;
        w->ts_cpus[0] = w->ts.has_platform && w->ts.platform.n_cpus ? w->ts.platform.cpus[0] : 0;
        b->n_cpus = 1;
    }
    b->cpus = w->ts_cpus;
    b->policy = s->policy;
    b->tasks = w->ts.tasks;
    b->n = n;
    w->all = w->ts.tasks;
    w->n = n;
    if (!fixed(s->policy))
        return RTP_OK;
    b->prio = calloc(n ? n : 1, sizeof *b->prio);
    rtp_task *eff = rtp_effective_new(w->ts.tasks, n, &w->ts.platform.overheads, s->policy, &st,
                                   diag);
    if (!b->prio || !eff) {
        free(eff);
        return b->prio ? st : RTP_ENOMEM;
    }
    int found = 1;
    if (s->policy == RTP_POLICY_GFP && b->n_cpus > 1 && s->priority == RTP_PRIO_OPA)
        st = rtp_global_fp_opa(eff, n, (int)b->n_cpus, b->prio, &found, diag);
    else if (s->policy == RTP_POLICY_GFP && b->n_cpus > 1 && s->priority != RTP_PRIO_GIVEN)
        rtp_global_monotonic(eff, n, s->priority, b->prio);
    else
        st = rtp_fp_assign(eff, n, s->priority, b->prio, &found, &s->limits, diag);
    free(eff);
    return st;
}

/* A plan: one bin per CPU or cluster that has tasks. */
static rtp_status from_plan(world *w, rtp_diag *diag)
{
    const rtp_plan *p = &w->plan;
    size_t n = 0;
    for (size_t b = 0; b < p->n_bins; b++)
        n += p->bins[b].n_tasks;
    w->plan_tasks = calloc(n ? n : 1, sizeof *w->plan_tasks);
    w->bins = calloc(p->n_bins ? p->n_bins : 1, sizeof *w->bins);
    w->unassigned = calloc(p->n_unassigned ? p->n_unassigned : 1, sizeof *w->unassigned);
    if (!w->plan_tasks || !w->bins || !w->unassigned)
        return RTP_ENOMEM;
    for (size_t k = 0; k < p->n_unassigned; k++)
        w->unassigned[w->n_unassigned++] = p->unassigned[k].task.name;
    for (size_t b = 0; b < p->n_bins; b++) {
        const rtp_plan_bin *pb = &p->bins[b];
        if (pb->n_tasks == 0)
            continue;
        bin *x = &w->bins[w->n_bins++];
        int edf = p->policy == RTP_POLICY_EDF || p->policy == RTP_POLICY_GEDF;
        x->policy = pb->n_cpus > 1 ? (edf ? RTP_POLICY_GEDF : RTP_POLICY_GFP)
                                   : (edf ? RTP_POLICY_EDF : RTP_POLICY_FP);
        x->cpus = pb->cpus;
        x->n_cpus = pb->n_cpus;
        x->first = w->n;
        x->tasks = &w->plan_tasks[w->n];
        x->n = pb->n_tasks;
        if (!edf && !(x->prio = calloc(pb->n_tasks, sizeof *x->prio)))
            return RTP_ENOMEM;
        for (size_t k = 0; k < pb->n_tasks; k++) {
            w->plan_tasks[w->n++] = pb->tasks[k].task; /* shallow: the plan owns it */
            if (!edf)
                x->prio[k] = pb->tasks[k].priority;
        }
    }
    w->all = w->plan_tasks;
    (void)diag;
    return RTP_OK;
}

/* "NAME:T" (split at the last colon: names may hold colons). */
static int parse_overrun(const cli_args *args, const world *w, const char *text, long *task,
                         rtp_ns *t)
{
    const char *colon = strrchr(text, ':');
    char why[160] = "";
    if (!colon || colon == text || cli_parse_time(colon + 1, t, why, sizeof why) != 0)
        return cli_usage_error(args, "--overrun wants NAME:T (a task and a time such as "
                                     "T2:7ms), got '%s'%s%s", text, why[0] ? ": " : "", why);
    for (size_t i = 0; i < w->n; i++)
        if (strlen(w->all[i].name) == (size_t)(colon - text) &&
            strncmp(w->all[i].name, text, (size_t)(colon - text)) == 0) {
            *task = (long)i;
            return 0;
        }
    return cli_usage_error(args, "--overrun: no task named '%.*s'%s", (int)(colon - text), text,
                           w->n_unassigned ? " among the plan's placed tasks" : "");
}

static const char *policy_words(rtp_policy p)
{
    switch (p) {
    case RTP_POLICY_EDF: return "EDF";
    case RTP_POLICY_FP: return "fixed priority";
    case RTP_POLICY_GEDF: return "global EDF";
    default: return "global fixed priority";
    }
}

static void section_title(const bin *b, char *buf, size_t size)
{
    if (b->n_cpus == 1)
        snprintf(buf, size, "CPU %d: %s", b->cpus[0], policy_words(b->policy));
    else
        snprintf(buf, size, "CPUs %d..%d (%zu): %s", b->cpus[0], b->cpus[b->n_cpus - 1],
                 b->n_cpus, policy_words(b->policy));
}

static void print_human(const world *w, const rtp_sim_doc *d, const settings *s)
{
    char until[40];
    rtp_duration_format(d->until_ns, until, sizeof until);
    printf("simulated [0, %s)%s\n", until,
           s->until_ns ? "" : " (hyperperiod + largest deadline)");
    for (size_t b = 0; b < w->n_bins; b++) {
        char title[96];
        section_title(&w->bins[b], title, sizeof title);
        printf("%s\n", title);
        printf("  %-20s %8s %10s %8s %14s %14s\n", "task", "priority", "jobs", "misses",
               "first miss", "max response");
        for (size_t k = 0; k < w->bins[b].n; k++) {
            const rtp_sim_doc_task *t = &d->tasks[w->bins[b].first + k];
            char prio[16] = "-", fm[40] = "-", rm[40] = "-";
            if (fixed(t->policy))
                snprintf(prio, sizeof prio, "%d", t->priority);
            if (t->first_miss_ns >= 0)
                rtp_duration_format(t->first_miss_ns, fm, sizeof fm);
            if (t->response_max_ns >= 0)
                rtp_duration_format(t->response_max_ns, rm, sizeof rm);
            printf("  %-20s %8s %10llu %8llu %14s %14s\n", t->name, prio,
                   (unsigned long long)t->jobs, (unsigned long long)t->misses, fm, rm);
        }
    }
    for (size_t k = 0; k < w->n_unassigned; k++)
        printf("not simulated: %s is not placed by the plan\n", w->unassigned[k]);
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
        printf("note: SCHED_RR is simulated as SCHED_FIFO (equal priorities first-in "
               "first-out); the SCHED_RR analysis is checked against the kernel's rules in "
               "tests/test_rr.c\n");
    if (affinity)
        printf("note: affinities are not simulated under gfp (every task may run on every CPU "
               "of its cluster)\n");
    printf("%s\n", d->schedulable ? "no deadline missed" : "deadlines missed");
}

static int write_svg(const cli_args *args, const world *w, const settings *s,
                     const rtp_gantt_rec *rec, long overrun_task, rtp_ns overrun_ns)
{
    rtp_gantt_task *gt = calloc(w->n ? w->n : 1, sizeof *gt);
    rtp_gantt_section *sec = calloc(w->n_bins ? w->n_bins : 1, sizeof *sec);
    char *svg = NULL;
    int rc = CLI_EXIT_LIMIT;
    if (!gt || !sec)
        goto done;
    for (size_t b = 0; b < w->n_bins; b++) {
        const bin *x = &w->bins[b];
        section_title(x, sec[b].title, sizeof sec[b].title);
        sec[b].first = x->first;
        sec[b].n = x->n;
        sec[b].cpu_ids = x->cpus;
        sec[b].n_cpus = (int)x->n_cpus;
        for (size_t k = 0; k < x->n; k++) {
            const rtp_task *t = &x->tasks[k];
            gt[x->first + k] = (rtp_gantt_task){t->name, t->wcet_ns, t->deadline_ns,
                                                t->period_ns, 0, x->prio ? x->prio[k] : 0};
        }
    }
    if (overrun_task >= 0)
        gt[overrun_task].overrun_ns = overrun_ns;
    const char *base = strrchr(args->positional[0], '/');
    base = base ? base + 1 : args->positional[0];
    char title[200];
    snprintf(title, sizeof title, "%s: simulated schedule",
             strcmp(args->positional[0], "-") == 0 ? "standard input" : base);
    svg = rtp_gantt_svg(title, gt, w->n, sec, w->n_bins, rec);
    if (!svg) {
        fprintf(stderr, "rtpack simulate: out of memory drawing the chart\n");
        goto done;
    }
    rtp_diag diag;
    rtp_diag_clear(&diag);
    rtp_status st = rtp_write_file(s->svg, svg, strlen(svg), 0644, &diag);
    rc = st == RTP_OK ? CLI_EXIT_OK : cli_fail(args, s->svg, st, &diag);
done:
    free(svg);
    free(gt);
    free(sec);
    return rc;
}

static int run(const cli_args *args, void *opaque)
{
    settings *s = opaque;
    const char *file = args->positional[0], *shown = cli_shown_name(file);
    if (!CLI_GIVEN(args, settings, priority))
        s->priority = s->policy == RTP_POLICY_GFP ? RTP_PRIO_DM : RTP_PRIO_OPA;
    world w;
    memset(&w, 0, sizeof w);
    rtp_diag diag;
    rtp_diag_clear(&diag);
    char *text = NULL;
    size_t len = 0;
    rtp_status st = rtp_read_file_max(file, (size_t)args->max_input, &text, &len, &diag);
    if (st != RTP_OK)
        return cli_fail(args, shown, st, &diag);
    int is_plan = rtp_doc_is_plan(text, len);
    if (is_plan)
        st = rtp_plan_parse_json(text, len, &w.plan, &diag);
    else
        st = rtp_taskset_parse_json(text, len, &w.ts, &diag);
    free(text);
    int rc = CLI_EXIT_OK;
    if (st != RTP_OK) {
        rc = cli_fail(args, shown, st, &diag);
        goto done;
    }
    if ((rc = is_plan ? cli_refuse_plan_requests(args, file, &w.plan)
                      : cli_refuse_requests(args, file, &w.ts)) != 0)
        goto done;
    if (is_plan && (CLI_GIVEN(args, settings, policy) || CLI_GIVEN(args, settings, priority) ||
                    args->cpus)) {
        rc = cli_usage_error(args, "%s is a plan: it carries its own CPUs, policy and "
                                   "priorities (--policy, --priority and --cpus are for task "
                                   "sets)", shown);
        goto done;
    }
    if (!is_plan && args->cpus > 1 && !(s->policy == RTP_POLICY_GEDF ||
                                        s->policy == RTP_POLICY_GFP)) {
        rc = cli_usage_error(args, "--cpus %d with --policy %s: one CPU is simulated; use "
                                   "--policy gedf|gfp for one cluster, or simulate a "
                                   "partition plan", args->cpus, rtp_policy_name(s->policy));
        goto done;
    }
    if (CLI_GIVEN(args, settings, from_ns) && !s->svg) {
        rc = cli_usage_error(args, "--from sets where the chart starts: it needs --svg");
        goto done;
    }
    st = is_plan ? from_plan(&w, &diag) : from_taskset(&w, args, s, &diag);
    if (st != RTP_OK) {
        rc = cli_fail(args, shown, st, &diag);
        goto done;
    }
    long overrun_task = -1;
    rtp_ns overrun_ns = 0;
    if (s->overrun && (rc = parse_overrun(args, &w, s->overrun, &overrun_task, &overrun_ns)))
        goto done;
    /* One horizon for every bin, checked for the whole set. */
    rtp_ns until = s->until_ns;
    uint64_t jobs = 0;
    st = until > 0 ? RTP_OK : rtp_sim_default_until(w.all, w.n, &until, &diag);
    if (st == RTP_OK)
        st = rtp_sim_count_jobs(w.all, w.n, until, &jobs, &diag);
    if (st != RTP_OK) {
        rc = cli_fail(args, shown, st, &diag);
        goto done;
    }
    if (s->svg && s->from_ns >= until) {
        rc = cli_usage_error(args, "--from must lie before the end of the simulation (%lld ns)",
                             (long long)until);
        goto done;
    }
    rtp_sim_doc_task *rows = calloc(w.n ? w.n : 1, sizeof *rows);
    rtp_sim_task_stats *stats = calloc(w.n ? w.n : 1, sizeof *stats);
    rtp_gantt_rec rec;
    rtp_gantt_rec_init(&rec, s->from_ns, until);
    if (!rows || !stats) {
        st = RTP_ENOMEM;
        goto sim_done;
    }
    for (size_t b = 0; b < w.n_bins && st == RTP_OK; b++) {
        const bin *x = &w.bins[b];
        long local_overrun = overrun_task >= (long)x->first &&
                                     overrun_task < (long)(x->first + x->n)
                                 ? overrun_task - (long)x->first : -1;
        rtp_sim_periodic_opts opts = {.until_ns = until, .overrun_task = local_overrun,
                                      .overrun_ns = overrun_ns};
        if (s->svg)
            opts.hooks = rtp_gantt_rec_hooks(&rec, x->first, x->cpus);
        rtp_ns used;
        st = rtp_sim_periodic(x->tasks, x->n, x->policy, (int)x->n_cpus, x->prio, &opts,
                              &stats[x->first], &used, &diag);
        for (size_t k = 0; k < x->n; k++) {
            const rtp_sim_task_stats *t = &stats[x->first + k];
            rows[x->first + k] = (rtp_sim_doc_task){
                .name = x->tasks[k].name, .cpu = x->cpus[0],
                .cpus = x->n_cpus > 1 ? x->cpus : NULL, .n_cpus = x->n_cpus,
                .policy = x->policy, .priority = x->prio ? x->prio[k] : 0, .jobs = t->jobs,
                .misses = t->misses, .first_miss_ns = t->first_miss_ns,
                .response_max_ns = t->response_max_ns};
        }
    }
sim_done:
    if (st != RTP_OK) {
        rc = cli_fail(args, shown, st, &diag);
    } else {
        rtp_sim_doc doc = {.until_ns = until, .tasks = rows, .n_tasks = w.n, .schedulable = 1};
        size_t k = 0;
        int jitter = 0, blocking = 0, rr = 0, affinity = 0;
        for (size_t i = 0; i < w.n; i++) {
            doc.schedulable &= rows[i].misses == 0;
            jitter |= w.all[i].jitter_ns != 0;
            blocking |= w.all[i].blocking_ns != 0;
            rr |= w.all[i].rr;
        }
        /* a cluster under gfp runs every task on every CPU of it here */
        for (size_t b = 0; b < w.n_bins; b++)
            for (size_t t = 0; w.bins[b].policy == RTP_POLICY_GFP && t < w.bins[b].n; t++)
                affinity |= w.bins[b].tasks[t].affinity != NULL;
        const rtp_overheads *ov = is_plan ? &w.plan.overheads : &w.ts.platform.overheads;
        if (jitter)
            doc.not_simulated[k++] = "jitter";
        if (blocking)
            doc.not_simulated[k++] = "blocking";
        if (!rtp_overheads_zero(ov))
            doc.not_simulated[k++] = "overheads";
        if (rr)
            doc.not_simulated[k++] = "sched_rr";
        if (affinity)
            doc.not_simulated[k++] = "affinity";
        if (s->svg)
            rc = write_svg(args, &w, s, &rec, overrun_task, overrun_ns);
        if (rc == CLI_EXIT_OK) {
            if (args->json) {
                char *out = rtp_sim_doc_to_json(&doc, 1);
                if (out)
                    fputs(out, stdout);
                else
                    rc = CLI_EXIT_LIMIT;
                free(out);
            } else {
                print_human(&w, &doc, s);
            }
            if (rc == CLI_EXIT_OK && !doc.schedulable)
                rc = CLI_EXIT_NO;
        }
    }
    rtp_gantt_rec_free(&rec);
    free(rows);
    free(stats);
done:
    world_free(&w);
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
        "own policy and priorities. Jitter, blocking and overheads are not simulated. The "
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
