/* cli/cmd_partition.c — `rtpack partition`: assign the tasks of FILE to CPUs
 * (or clusters), order priorities, print the plan (docs/spec.md "Plan
 * document"). Parses options, calls partition/partition.h's one call, prints
 * (--explain: heuristics/partition.h's explanations), and maps the verdict to
 * the exit code: 0 feasible, 1 not, 2 bad input, 3 limit. */
#include "cli/cli.h"
#include "cli/progress.h"
#include "cli/explain_locks.h"
#include "models/duration.h"
#include "models/effective.h"
#include "partition/partition.h"
#include "solver/sensitivity.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct part_cli {
    rtp_partition_opts run;   /* what the library call takes (partition/partition.h) */
    int explain;
    double progress_s;        /* --progress-every S, 0 = default */
} part_cli;

static const cli_choice policies[] = {{"edf", RTP_POLICY_EDF}, {"fp", RTP_POLICY_FP}, {NULL, 0}};
static const cli_choice priorities[] = {
    {"rm", RTP_PRIO_RM}, {"dm", RTP_PRIO_DM}, {"opa", RTP_PRIO_OPA}, {"given", RTP_PRIO_GIVEN},
    {NULL, 0},
};
static const cli_choice methods[] = {
    {"ffd", RTP_PLACE_FF}, {"bfd", RTP_PLACE_BF}, {"wfd", RTP_PLACE_WF}, {"nfd", RTP_PLACE_NF},
    {"sfd", RTP_PLACE_SF}, {"ilp", RTP_METHOD_ILP},   {"best", RTP_METHOD_BEST},
    {"semi", RTP_METHOD_SEMI}, {NULL, 0},
};
static const cli_choice orders[] = {
    {"util", RTP_ORDER_UTIL},     {"density", RTP_ORDER_DENSITY}, {"deadline", RTP_ORDER_DEADLINE},
    {"period", RTP_ORDER_PERIOD}, {"input", RTP_ORDER_INPUT},     {NULL, 0},
};
static const cli_choice objectives[] = {
    {"feasibility", RTP_ILP_FEASIBILITY}, {"min-cpus", RTP_ILP_MIN_CPUS},
    {"balanced", RTP_ILP_BALANCED},       {NULL, 0},
};
static const cli_choice fits[] = {{"util", RTP_LOAD_UTIL}, {"density", RTP_LOAD_DENSITY}, {NULL, 0}};
static const cli_choice admissions[] = {{"exact", 0}, {"bound", 1}, {NULL, 0}};
static const cli_choice ties[] = {{"auto", 0}, {"given", 1}, {NULL, 0}};

static int parse_layouts(const char *text, void *field, char *why, size_t why_size)
{
    (void)why;
    (void)why_size;
    return rtp_layout_parse_list(text, field) == 0 && *(unsigned *)field ? 0 : -1;
}

static const cli_option options[] = {
    {.name = "policy", .type = CLI_ENUM, CLI_TARGET(part_cli, run.part.policy), .choices = policies,
     .def = "edf", .help = "scheduling policy on each CPU"},
    {.name = "priority", .type = CLI_ENUM, CLI_TARGET(part_cli, run.part.priority),
     .choices = priorities, .def = "opa", .when = "policy=fp",
     .help = "fixed-priority order on each CPU"},
    {.name = "ties", .type = CLI_ENUM, CLI_TARGET(part_cli, run.part.keep_tie_policy),
     .choices = ties, .def = "auto", .when = "priority=given",
     .help = "tasks sharing a priority on a CPU: SCHED_FIFO or SCHED_RR chosen per level by "
             "the exact analyses (auto), or each task's own policy (given)"},
    {.name = "method", .type = CLI_ENUM, CLI_TARGET(part_cli, run.method), .choices = methods,
     .def = "best",
     .help = "first/best/worst/next fit decreasing, slack fit (Greedy Slacker, fp), the exact "
             "ILP, the best of every "
             "fit x order, or semi-partitioned (fp: a task no CPU admits may migrate over "
             "a set of CPUs)"},
    {.name = "order", .type = CLI_ENUM, CLI_TARGET(part_cli, run.part.order), .choices = orders,
     .def = "util", .when = "method=ffd,bfd,wfd,nfd,sfd",
     .help = "task order of the fits: decreasing utilization or density, increasing deadline "
             "or period, or input order"},
    {.name = "capacity", .type = CLI_DECIMAL, CLI_TARGET(part_cli, run.part.capacity),
     .range = "(0, 1]", .def = "1", .help = "per-CPU utilization cap, e.g. 0.9"},
    {.name = "time-limit", .type = CLI_SECONDS, CLI_TARGET(part_cli, run.ilp.time_limit_s),
     .def = "60", .when = "method=ilp", .help = "ILP time limit in seconds"},
    {.name = "objective", .type = CLI_ENUM, CLI_TARGET(part_cli, run.ilp.objective),
     .choices = objectives, .def = "feasibility", .when = "method=ilp",
     .help = "what the ILP optimises"},
    {.name = "write-lp", .type = CLI_STRING, CLI_TARGET(part_cli, run.ilp.write_lp_path),
     .metavar = "FILE", .flags = CLI_FILE | CLI_OUTPUT, .when = "method=ilp",
     .help = "write the final ILP model in CPLEX LP format"},
    {.name = "colocate", .type = CLI_FLAG, CLI_TARGET(part_cli, run.ilp.colocate),
     .when = "method=ilp",
     .help = "shared resources: every resource's users on one CPU (the ILP's model then)"},
    {.name = "soft", .type = CLI_FLAG, CLI_TARGET(part_cli, run.part.soft), .when = "policy=edf",
     .help = "soft real-time: admit a CPU or cluster whose tardiness stays bounded (utilization "
             "<= its CPUs) when no hard test accepts it; labelled soft"},
    {.name = "explain", .type = CLI_FLAG, CLI_TARGET(part_cli, explain),
     .help = "when infeasible, say which task could not be placed and why"},
    {.name = "sensitivity", .type = CLI_FLAG, CLI_TARGET(part_cli, run.sensitivity),
     .help = "also per placed task its wcet_max and per CPU (and for the plan, the minimum) "
             "the critical scaling factor of the wcets"},
    {.name = "fit", .type = CLI_ENUM, CLI_TARGET(part_cli, run.part.fit_measure), .choices = fits,
     .def = "util", .when = "method=bfd,wfd,best", .help = "room measure of best and worst fit"},
    {.name = "admission", .type = CLI_ENUM, CLI_TARGET(part_cli, run.part.bound_admission),
     .choices = admissions, .def = "exact", .when = "method=ffd,bfd,wfd,nfd,best",
     .help = "admission test of the fits: the exact test or a utilization bound"},
    {.name = "clusters", .type = CLI_STRING, CLI_TARGET(part_cli, run.clusters), .metavar = "SHAPE",
     .help = "clusters of the CPUs, \"2x2\" or \"3,1\" (a global test per cluster)"},
    {.name = "layouts", .type = CLI_CUSTOM, CLI_TARGET(part_cli, run.layouts), .metavar = "L,...",
     .parse = parse_layouts, .wants = "a list of partitioned, clustered, global",
     .help = "with --method best, compare whole layouts: partitioned, clustered, global"},
    {.name = "progress-every", .type = CLI_SECONDS, CLI_TARGET(part_cli, progress_s),
     .metavar = "S", .def = "1 on a terminal, else 10", .when = "method=ffd,bfd,wfd,nfd,sfd,best",
     .help = "seconds between progress reports on standard error (placements made, rate, "
             "ETA); a run shorter than S prints none"},
    CLI_OPTION_CPUS,
    CLI_OPTION_JSON,
    CLI_OPTION_MAX_INPUT,
    CLI_END,
};

/* Progress of the fits (cli/progress.h): the library's increments, until
 * the packing is over. */
typedef struct part_progress {
    cli_progress p;
    int running;
} part_progress;

static void on_progress(void *ctx, uint64_t planned, uint64_t placed)
{
    cli_progress_add(&((part_progress *)ctx)->p, planned, placed);
}

static void progress_stop(void *ctx)
{
    part_progress *progress = ctx;
    if (progress->running)
        cli_progress_stop(&progress->p, 1);
    progress->running = 0;
}

static void detail(const void *ctx, double rate, char *buf, size_t size)
{
    (void)ctx;
    char r[32];
    cli_put_rate(r, sizeof r, rate);
    snprintf(buf, size, "%s placements/s", r);
}

static void init(void *opaque)
{
    part_cli *pc = opaque;
    pc->run = rtp_partition_opts_default();
}

/* ---- human output ---- */

/* Does some task of the plan have a jitter or a blocking (then the tables
 * show them; otherwise they are as they always were)? */
static int plan_has_delays(const rtp_plan *plan)
{
    for (size_t j = 0; j < plan->n_bins; j++)
        for (size_t k = 0; k < plan->bins[j].n_tasks; k++)
            if (plan->bins[j].tasks[k].task.jitter_ns || plan->bins[j].tasks[k].task.blocking_ns)
                return 1;
    return 0;
}

/* --sensitivity lines of one bin: margins as percentages. */
static void print_bin_scaling(const rtp_plan_bin *bin)
{
    rtp_scaling sc = {0, bin->scaling.exact != NULL, bin->scaling.exact, "",
                      bin->scaling.not_defined};
    snprintf(sc.decimal, sizeof sc.decimal, "%s", bin->scaling.decimal);
    cli_print_scaling(&sc, "  ");
    for (size_t k = 0; k < bin->n_tasks; k++) {
        const rtp_plan_task *pt = &bin->tasks[k];
        char w[40], wm[40], pct[48];
        if (!pt->has_wcet_max)
            continue;
        rtp_duration_format(pt->task.wcet_ns, w, sizeof w);
        if (pt->wcet_max_ns < 0) {
            printf("  %-16s wcet %s: no wcet_max (this CPU is not schedulable as planned)\n",
                   pt->task.name, w);
            continue;
        }
        rtp_duration_format(pt->wcet_max_ns, wm, sizeof wm);
        printf("  %-16s wcet %s, wcet_max %s: wcet margin %s\n", pt->task.name, w, wm,
               cli_percent_change((double)pt->wcet_max_ns / (double)pt->task.wcet_ns, pct,
                                  sizeof pct));
    }
}

static void print_cpu(const rtp_plan *plan, const rtp_plan_bin *bin, rtp_ratio capacity,
                      int delays)
{
    double u = 0, ue = 0;
    for (size_t k = 0; k < bin->n_tasks; k++) {
        const rtp_task *t = &bin->tasks[k].task;
        rtp_ns c = t->wcet_ns;
        rtp_effective_wcet(t, &plan->overheads, plan->policy, &c); /* valid plans: cannot fail */
        u += (double)t->wcet_ns / (double)t->period_ns;
        ue += (double)c / (double)t->period_ns;
    }
    char eff[64] = "";
    if (rtp_overheads_stretch(&plan->overheads, plan->policy))
        snprintf(eff, sizeof eff, " (effective %.4f)", ue);
    if (plan->clustered) {
        printf("cluster of CPU%s", bin->n_cpus == 1 ? "" : "s");
        for (size_t k = 0; k < bin->n_cpus; k++)
            printf("%s%d", k ? "," : " ", bin->cpus[k]);
        printf(": utilization %.4f%s, room %.4f, %zu task%s, accepted by %s\n", u, eff,
               rtp_ratio_double(capacity) * (double)bin->n_cpus - (eff[0] ? ue : u),
               bin->n_tasks, bin->n_tasks == 1 ? "" : "s",
               !strcmp(bin->test, "soft") ? "soft (bounded tardiness: rtpack analyze --policy "
                                            "gedf gives each task's bound)"
               : bin->test[0]             ? bin->test
                                          : "no test");
    } else {
        printf("CPU %d: utilization %.4f%s, room %.4f, %zu task%s%s\n", bin->cpus[0], u, eff,
               rtp_ratio_double(capacity) - (eff[0] ? ue : u), bin->n_tasks,
               bin->n_tasks == 1 ? "" : "s",
               !strcmp(bin->test, "soft") ? ", soft (bounded tardiness)" : "");
    }
    if (bin->n_tasks == 0)
        return;
    int fp = plan->policy == RTP_POLICY_FP;
    if (fp)
        printf("  %8s  %-16s %14s %14s %14s", "priority", "name", "wcet", "deadline", "period");
    else
        printf("  %-16s %14s %14s %14s", "name", "wcet", "deadline", "period");
    if (delays)
        printf(" %14s %14s", "jitter", "blocking");
    printf(fp ? " %14s %14s\n" : "\n", "response", "slack");
    /* FP: most urgent first; EDF: plan order. */
    for (int p = fp ? (int)bin->n_tasks : 0; p >= 0; p--) {
        for (size_t k = 0; k < bin->n_tasks; k++) {
            const rtp_plan_task *pt = &bin->tasks[k];
            if (fp && pt->priority != p)
                continue;
            char c[32], d[32], t[32], r[32] = "miss", s[32] = "-", j[32], b[32];
            rtp_duration_format(pt->task.wcet_ns, c, sizeof c);
            rtp_duration_format(pt->task.deadline_ns, d, sizeof d);
            rtp_duration_format(pt->task.period_ns, t, sizeof t);
            rtp_duration_format(pt->task.jitter_ns, j, sizeof j);
            rtp_duration_format(pt->task.blocking_ns, b, sizeof b);
            if (fp)
                printf("  %8d  %-16s %14s %14s %14s", pt->priority, pt->task.name, c, d, t);
            else
                printf("  %-16s %14s %14s %14s", pt->task.name, c, d, t);
            if (delays)
                printf(" %14s %14s", j, b);
            if (!fp) {
                printf("\n");
                continue;
            }
            if (pt->response_time_ns >= 0) {
                rtp_duration_format(pt->response_time_ns, r, sizeof r);
                rtp_duration_format(pt->task.deadline_ns - pt->response_time_ns, s, sizeof s);
            }
            printf(" %14s %14s\n", r, s);
        }
        if (!fp)
            break;
    }
    if (bin->scaling.present || bin->scaling.not_defined)
        print_bin_scaling(bin);
}

/* A tied level's side: its worst bound, or the task that misses. */
static void tie_side(FILE *out, const rtp_plan_bin *bin, const rtp_rr_level *lv, int k)
{
    char w[32];
    fprintf(out, "%s ", k ? "SCHED_RR" : "SCHED_FIFO");
    if (lv->worst_ns[k] < 0) {
        fprintf(out, "misses %s", bin->tasks[lv->miss[k]].task.name);
        return;
    }
    rtp_duration_format(lv->worst_ns[k], w, sizeof w);
    fprintf(out, "worst %s%s", w, lv->cpu_meets[k] ? "" : " (a task below misses)");
}

/* Why each tied level of one-CPU bin j runs SCHED_FIFO or SCHED_RR
 * (solver/rr_choose.h's rule): one line per level, nothing without ties or
 * with --ties given. */
static int print_ties(FILE *out, const cli_args *args, const rtp_plan *plan, size_t j,
                      const part_cli *pc)
{
    const rtp_plan_bin *bin = &plan->bins[j];
    if (plan->policy != RTP_POLICY_FP || pc->run.part.priority != RTP_PRIO_GIVEN ||
        pc->run.part.keep_tie_policy || plan->clustered || plan->n_resources > 0 ||
        bin->n_tasks < 2)
        return 0;
    rtp_rr_level *lv = malloc(bin->n_tasks * sizeof *lv);
    size_t n = 0;
    rtp_diag diag;
    rtp_diag_clear(&diag);
    if (!lv)
        return cli_out_of_memory(args);
    rtp_status st = rtp_part_ties(plan, &pc->run.part, j, lv, &n, &diag);
    if (st != RTP_OK) {
        free(lv);
        return cli_fail(args, "", st, &diag);
    }
    for (size_t l = 0; l < n; l++) {
        fprintf(out, "  tied priority %d (", lv[l].priority);
        const char *sep = "";
        for (size_t i = 0; i < bin->n_tasks; i++)
            if (bin->tasks[i].priority == lv[l].priority) {
                fprintf(out, "%s%s", sep, bin->tasks[i].task.name);
                sep = ", ";
            }
        fprintf(out, "): %s", lv[l].rr ? "SCHED_RR" : "SCHED_FIFO");
        if (!lv[l].usable) {
            fprintf(out, ", the task set's (SCHED_RR is not analysable with this quantum, tick "
                         "and context switch)\n");
            continue;
        }
        fprintf(out, "; ");
        tie_side(out, bin, &lv[l], 0);
        if (lv[l].rr_limit)
            fprintf(out, ", SCHED_RR's analysis passed the iteration limit\n");
        else {
            fprintf(out, ", ");
            tie_side(out, bin, &lv[l], 1);
            fprintf(out, "\n");
        }
    }
    free(lv);
    return 0;
}

static int print_human(const cli_args *args, const rtp_plan *plan, const part_cli *pc)
{
    printf("feasible: %s  (method %s", plan->feasible ? "yes" : "no", plan->method);
    if (plan->chosen_layout[0])
        printf(", %s layout", plan->chosen_layout);
    if (plan->chosen_placement[0])
        printf(": %s + %s order", plan->chosen_placement, plan->chosen_order);
    if (plan->status[0])
        printf(", %s", plan->status);
    printf("; policy %s", rtp_policy_name(plan->policy));
    if (plan->policy == RTP_POLICY_FP)
        printf(", priorities %s per CPU", rtp_prio_rule_name(pc->run.part.priority));
    printf(")\n");
    cli_print_overheads(&plan->overheads, plan->policy);
    int delays = plan_has_delays(plan);
    for (size_t j = 0; j < plan->n_bins; j++) {
        print_cpu(plan, &plan->bins[j], pc->run.part.capacity, delays);
        int rc = print_ties(stdout, args, plan, j, pc);
        if (rc)
            return rc;
    }
    printf("unassigned:");
    for (size_t k = 0; k < plan->n_unassigned; k++)
        printf(" %s", plan->unassigned[k].task.name);
    printf("%s\n", plan->n_unassigned ? "" : " none");
    if (plan->proof.kind[0])
        printf("proof (%s): %s\n", plan->proof.kind, plan->proof.explanation);
    if (plan->scaling.present || plan->scaling.not_defined) {
        rtp_scaling sc = {0, plan->scaling.exact != NULL, plan->scaling.exact, "",
                          plan->scaling.not_defined};
        snprintf(sc.decimal, sizeof sc.decimal, "%s", plan->scaling.decimal);
        printf("plan (the smallest over the CPUs): ");
        cli_print_scaling(&sc, "");
    }
    if (plan->deploy_judged)
        printf("deployable: %s%s\n", plan->deployable ? "yes (rtpack emit takes it)" : "no: ",
               plan->deployable ? "" : plan->deployable_reason);
    return 0;
}

/* A task that fails alone on an empty CPU: which of its own terms breaks
 * its deadline (docs/spec.md "Real-system terms": J' = jitter +
 * release_latency, C' = wcet + 2 x context_switch), and a fix that can work
 * (more CPUs or another method cannot). */
static void explain_alone(FILE *out, const rtp_plan *plan, const rtp_task *task,
                          const rtp_part_miss *m)
{
    char d[32], j[32], c[32], b[32], rl[32], sum[32], p[32];
    rtp_duration_format(task->deadline_ns, d, sizeof d);
    rtp_duration_format(m->jitter_eff_ns, j, sizeof j);
    rtp_duration_format(m->wcet_eff_ns, c, sizeof c);
    rtp_duration_format(m->blocking_ns, b, sizeof b);
    rtp_duration_format(plan->overheads.release_latency_ns, rl, sizeof rl);
    rtp_duration_format(task->period_ns, p, sizeof p);
    __int128 total = (__int128)m->jitter_eff_ns + m->wcet_eff_ns + m->blocking_ns;
    rtp_duration_format(total > RTP_NS_LIMIT ? RTP_NS_LIMIT : (rtp_ns)total, sum, sizeof sum);
    int latency = plan->overheads.release_latency_ns > 0;
    fprintf(out, "it misses its deadline even alone on an empty CPU, so no CPU count and no "
                 "--method can place it: ");
    if (m->jitter_eff_ns >= task->deadline_ns) {
        char own[32];
        rtp_duration_format(task->jitter_ns, own, sizeof own);
        if (latency)
            fprintf(out, "its release jitter J' = %s (its jitter %s + the platform's "
                         "release_latency %s) is not below its deadline %s; fix: a deadline "
                         "above J' plus its execution, or a smaller release_latency (measured "
                         "on isolated CPUs; rtpack probe --release-latency p99 takes the 99th "
                         "percentile)\n",
                    j, own, rl, d);
        else
            fprintf(out, "its release jitter %s is not below its deadline %s; fix: a deadline "
                         "above its jitter plus its execution, or a smaller jitter\n", j, d);
    } else if (m->wcet_eff_ns > task->deadline_ns) {
        fprintf(out, "its execution C' = %s (%s) exceeds its deadline %s; fix: a smaller wcet "
                     "or a longer deadline\n", c, cli_effective_words(&plan->overheads, plan->policy),
                d);
    } else if (m->wcet_eff_ns > task->period_ns) {
        fprintf(out, "its execution C' = %s exceeds its period %s (utilization above 1); "
                     "fix: a smaller wcet or a longer period\n", c, p);
    } else {
        if (m->blocking_ns)
            fprintf(out, "J' + C' + blocking = %s + %s + %s = %s", j, c, b, sum);
        else
            fprintf(out, "J' + C' = %s + %s = %s", j, c, sum);
        fprintf(out, " (J' = jitter%s, C' = %s) exceeds its deadline %s; fix: a longer "
                     "deadline, or less %s\n",
                latency ? " + release_latency" : "",
                cli_effective_words(&plan->overheads, plan->policy), d,
                m->blocking_ns ? "jitter, execution or blocking" : "jitter or execution");
    }
}

/* One line per unassigned task: where it came closest and why it failed. */
static int print_explain(FILE *out, const cli_args *args, const rtp_plan *plan,
                         const part_cli *pc)
{
    if (strcmp(plan->status, "infeasible") == 0) {
        fprintf(out, "no partition of these tasks onto these CPUs passes the exact test: %s\n",
                plan->proof.explanation ? plan->proof.explanation : "the ILP proves it");
        return 0;
    }
    if (plan->clustered) {
        for (size_t k = 0; k < plan->n_unassigned; k++) {
            const rtp_task *t = &plan->unassigned[k].task;
            int delays = t->jitter_ns || t->blocking_ns || plan->overheads.release_latency_ns;
            fprintf(out, "%s could not be placed: no cluster's global test accepts it with "
                         "the tasks placed before it%s%s\n", t->name,
                    delays ? " (the global tests do not model release jitter or blocking: "
                             "they are not applicable to it on a cluster of several CPUs)"
                           : "",
                    pc->run.part.soft
                        ? "; nor does the soft test (bounded tardiness needs no blocking, "
                          "one J' for every task, every C' <= T - J' and the sum of C'/(T - J') "
                          "at most the cluster's CPUs, J' = jitter + release latency; fix: less "
                          "execution or release latency, longer periods, or more CPUs)"
                        : "");
        }
        return 0;
    }
    for (size_t k = 0; k < plan->n_unassigned; k++) {
        rtp_part_miss miss;
        rtp_diag diag;
        rtp_diag_clear(&diag);
        rtp_status st = rtp_part_explain(plan, &pc->run.part, k, &miss, &diag);
        if (st != RTP_OK)
            return cli_fail(args, "", st, &diag);
        const rtp_task *task = &plan->unassigned[k].task;
        fprintf(out, "%s could not be placed: ", task->name);
        if (miss.reason == RTP_MISS_NO_CPU) {
            fprintf(out, "its affinity allows no CPU of the platform; fix: give it an "
                         "affinity that names CPUs of the platform, or add those CPUs\n");
            continue;
        }
        if (miss.reason == RTP_MISS_ALONE) {
            explain_alone(out, plan, task, &miss);
            continue;
        }
        if (miss.reason == RTP_MISS_CAPACITY_ALONE) {
            char load[48], cap[48];
            rtp_ratio_format_above(miss.load_after, pc->run.part.capacity, load, sizeof load);
            rtp_ratio_format(pc->run.part.capacity, cap, sizeof cap);
            fprintf(out, "its own utilization %s passes --capacity %s: no CPU takes it, "
                         "however many; fix: raise --capacity (at most 1), or lower its "
                         "wcet\n", load, cap);
            continue;
        }
        char load[48];
        if (miss.reason == RTP_MISS_CAPACITY)
            rtp_ratio_format_above(miss.load_after, pc->run.part.capacity, load, sizeof load);
        else
            snprintf(load, sizeof load, "%.4f", miss.load_after);
        fprintf(out, "closest is CPU %d, utilization %s with it: ", plan->bins[miss.bin].cpus[0],
                load);
        char t[32] = "";
        /* It fits alone: the other tasks are the cause, so a CPU of its own
         * (more CPUs) or another placement (--method ilp is exact) can work. */
        const char *fix = "; fix: it fits on an empty CPU: partition with more CPUs, or try "
                          "--method ilp, which finds a placement whenever one exists\n";
        if (miss.reason == RTP_MISS_CAPACITY) {
            char cap[48];
            rtp_ratio_format(pc->run.part.capacity, cap, sizeof cap);
            fprintf(out, "over the capacity %s%s", cap, fix);
        } else if (miss.reason == RTP_MISS_HEURISTIC) {
            fprintf(out, "the exact test accepts it there, but %s%s did not place it "
                         "there; fix: --method best or ilp\n",
                    plan->chosen_placement[0] ? plan->chosen_placement : plan->method,
                    plan->chosen_placement[0] ? "d" : "");
        } else if (plan->policy == RTP_POLICY_FP) {
            fprintf(out, "no priority order passes response-time analysis");
            if (miss.late_task)
                fprintf(out, " (deadline-monotonic: %s misses its deadline)", miss.late_task);
            fprintf(out, "%s", fix);
        } else if (miss.has_first_miss) {
            rtp_duration_format(miss.first_miss_ns, t, sizeof t);
            fprintf(out, "processor demand exceeds the interval at t = %s (dbf(t) > t)%s", t,
                    fix);
        } else {
            fprintf(out, "the processor demand test fails%s", fix);
        }
    }
    return 0;
}

/* --explain of a feasible plan: per CPU its load and critical scaling
 * factor, per task the bound the analysis proves, the slack to its
 * deadline and how much its wcet may grow (docs/spec.md "rtpack
 * partition"). The sensitivity is computed here when --sensitivity did not
 * (the plan was printed already). */
static int print_bounds(FILE *out, const cli_args *args, rtp_plan *plan, const part_cli *pc)
{
    rtp_diag diag;
    rtp_diag_clear(&diag);
    int margins = pc->run.sensitivity;
    if (!margins && !plan->clustered) {
        rtp_status st = rtp_part_sensitivity(plan, &pc->run.part, &diag);
        if (st == RTP_ELIMIT)
            fprintf(out, "(margins left out: %s)\n", diag.message);
        else if (st != RTP_OK)
            return cli_fail(args, "", st, &diag);
        margins = st == RTP_OK;
    }
    fprintf(out, "why it holds: per task the bound the analysis proves (%s), the slack to its "
                 "deadline, and the margin its wcet has (wcet_max - wcet, the others "
                 "unchanged):\n",
            plan->policy == RTP_POLICY_FP
                ? "its worst-case response time"
                : "EDF: the shortest deadline its CPU would still meet for it");
    for (size_t j = 0; j < plan->n_bins; j++) {
        const rtp_plan_bin *bin = &plan->bins[j];
        if (bin->n_tasks == 0)
            continue;
        if (strcmp(bin->test, "apa") == 0) { /* --method semi: the [GCB13] bounds */
            fprintf(out, "cluster of %zu CPUs from CPU %d: accepted by apa (each task on its "
                         "mask, its bound by the arbitrary-affinity analysis)\n  %-16s %14s "
                         "%14s %14s\n", bin->n_cpus, bin->cpus[0], "name", "deadline", "bound",
                    "slack");
            for (size_t i = 0; i < bin->n_tasks; i++) {
                const rtp_plan_task *pt = &bin->tasks[i];
                char d[32], b[32], sl[32];
                rtp_duration_format(pt->task.deadline_ns, d, sizeof d);
                rtp_duration_format(pt->response_time_ns, b, sizeof b);
                rtp_duration_format(pt->task.deadline_ns - pt->response_time_ns, sl, sizeof sl);
                fprintf(out, "  %-16s %14s %14s %14s\n", pt->task.name, d, b, sl);
            }
            continue;
        }
        if (plan->clustered || bin->n_cpus != 1) {
            fprintf(out, "cluster of %zu CPUs from CPU %d: accepted by %s (a sufficient global "
                         "test: no per-task bound)\n",
                    bin->n_cpus, bin->cpus[0], bin->test[0] ? bin->test : "no test");
            continue;
        }
        rtp_ns *bound = malloc(bin->n_tasks * sizeof *bound);
        if (!bound)
            return cli_out_of_memory(args);
        rtp_diag_clear(&diag);
        rtp_status st = rtp_part_bounds(plan, &pc->run.part, j, bound, &diag);
        if (st != RTP_OK) {
            free(bound);
            return cli_fail(args, "", st, &diag);
        }
        fprintf(out, "CPU %d:", bin->cpus[0]);
        if (bin->scaling.present && bin->scaling.exact)
            fprintf(out, " every wcet may grow by a factor %s and it still passes",
                    bin->scaling.decimal);
        fprintf(out, "\n  %-16s %14s %14s %14s %14s\n", "name", "deadline", "bound", "slack",
                "margin");
        for (size_t i = 0; i < bin->n_tasks; i++) {
            const rtp_plan_task *pt = &bin->tasks[i];
            char d[32], b[32], sl[32], mg[40] = "-";
            rtp_duration_format(pt->task.deadline_ns, d, sizeof d);
            rtp_duration_format(bound[i], b, sizeof b);
            rtp_duration_format(pt->task.deadline_ns - bound[i], sl, sizeof sl);
            if (margins && pt->has_wcet_max && pt->wcet_max_ns >= pt->task.wcet_ns) {
                mg[0] = '+';
                rtp_duration_format(pt->wcet_max_ns - pt->task.wcet_ns, mg + 1, sizeof mg - 1);
            }
            fprintf(out, "  %-16s %14s %14s %14s %14s\n", pt->task.name, d, b, sl, mg);
        }
        free(bound);
        int rc = args->json ? print_ties(out, args, plan, j, pc) : 0; /* else in the table */
        if (rc)
            return rc;
    }
    return 0;
}

/* ---- running ---- */

static int run(const cli_args *args, void *settings)
{
    part_cli *pc = settings;
    const char *file = args->positional[0];
    rtp_diag diag;
    rtp_diag_clear(&diag);
    pc->run.override_cpus = args->cpus;
    if (pc->run.method == RTP_METHOD_SEMI) { /* DM over the set: what the header names */
        if (CLI_GIVEN(args, part_cli, run.part.priority))
            return cli_usage_error(args, "--method semi orders priorities deadline-monotonic "
                                         "over the set; it takes no --priority");
        pc->run.part.priority = RTP_PRIO_DM;
    }
    /* The rules between options come before the file is read. */
    if (rtp_partition_check_opts(&pc->run, &diag) != RTP_OK)
        return cli_fail(args, "", RTP_EINPUT, &diag);
    rtp_taskset ts;
    int rc = cli_load_taskset(args, file, &ts);
    if (rc)
        return rc;
    rtp_plan plan;
    rtp_partition_info info;
    /* Progress lines while the fits run (never for the ILP), stopped before
     * anything else is printed, so an error never lands on a progress line. */
    part_progress progress = {.running = pc->run.method != RTP_METHOD_ILP};
    if (progress.running) {
        cli_progress_start(&progress.p, "partition", "placements", pc->progress_s, detail, NULL);
        pc->run.part.progress = on_progress;
        pc->run.part.progress_ctx = &progress;
        pc->run.packing_done = progress_stop;
    }
    rtp_status st = rtp_partition(&ts, &pc->run, &plan, &info, &diag);
    progress_stop(&progress);
    pc->run.part.progress = NULL; /* --explain's calls below report nothing */
    pc->run.part.progress_ctx = NULL;
    rtp_taskset_free(&ts);
    if (st != RTP_OK)
        return cli_fail(args, info.options_error ? "" : cli_shown_name(file), st, &diag);
    rc = info.undecided ? CLI_EXIT_LIMIT : plan.feasible ? CLI_EXIT_OK : CLI_EXIT_NO;
    if (args->json) {
        char *text = rtp_plan_to_json(&plan, 1);
        if (!text) {
            rtp_plan_free(&plan);
            return cli_out_of_memory(args);
        }
        printf("%s\n", text);
        free(text);
    } else {
        int prc = print_human(args, &plan, pc);
        if (prc) {
            rtp_plan_free(&plan);
            return prc;
        }
    }
    if (info.undecided)
        fprintf(stderr, "rtpack partition: %s\n",
                strcmp(plan.status, "time_limit") == 0
                    ? "resource limit: the ILP time limit passed before a verified plan"
                    : "internal error: the ILP reported a solution without a verified plan");
    if (pc->explain) {
        FILE *out = args->json ? stderr : stdout;
        int erc = plan.n_resources > 0 ? rtp_cli_explain_locks(out, args, &plan, &pc->run.part)
                  : plan.feasible     ? print_bounds(out, args, &plan, pc)
                                      : print_explain(out, args, &plan, pc);
        rc = erc ? erc : rc;
    }
    rtp_plan_free(&plan);
    return rc;
}

const cli_command cli_cmd_partition = {
    .name = "partition",
    .summary = "Assign the tasks of FILE to CPUs (or clusters), order priorities, print the plan.",
    .description =
        "Every CPU of the plan passes the exact test of the policy (processor demand for EDF, "
        "response-time analysis for fixed priorities); a clustered plan passes a global test "
        "per cluster. --method best tries every fit with every order and keeps the feasible "
        "plan with the smallest largest per-CPU utilization; --method ilp is exact and says "
        "so when no partition exists. The JSON plan is what rtpack emit reads.",
    .operands = "FILE",
    .operand_help = "a task-set JSON document; - reads standard input",
    .min_operands = 1, .max_operands = 1,
    .examples = "rtpack partition examples/quickstart.json --policy fp\n"
                "rtpack partition set.json --cpus 4 --capacity 0.9 --json > plan.json\n"
                "rtpack partition set.json --method ilp --objective min-cpus --explain\n",
    .options = options,
    .settings_size = sizeof(part_cli),
    .init = init,
    .run = run,
};
