/* cli/cmd_partition.c — `rtpack partition`: assign the tasks of FILE to CPUs
 * (or clusters), order priorities, print the plan (docs/spec.md "Plan
 * document"). Parses options, calls heuristics/partition or ilp/, prints, and
 * maps the verdict to the exit code: 0 feasible, 1 not, 2 bad input, 3 limit. */
#include "cli/cli.h"
#include "heuristics/cluster.h"
#include "heuristics/partition.h"
#include "ilp/ilp.h"
#include "models/duration.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const cli_option options[] = {
    {"policy", 1, "edf|fp (default edf)"},
    {"priority", 1, "rm|dm|opa|given (per CPU under fp, default opa)"},
    {"method", 1, "ffd|bfd|wfd|nfd|ilp|best (default best)"},
    {"order", 1, "util|density|deadline|period|input (default util)"},
    {"capacity", 1, "F: per-CPU utilization cap, e.g. 0.9 (default 1)"},
    {"time-limit", 1, "S: ILP time limit in seconds (default 60)"},
    {"objective", 1, "feasibility|min-cpus|balanced (ILP, default feasibility)"},
    {"write-lp", 1, "FILE: write the final ILP model in CPLEX LP format"},
    {"explain", 0, "when infeasible, say which task could not be placed and why"},
    {"fit", 1, "util|density: room measure of best/worst fit (default util)"},
    {"admission", 1, "exact|bound: admission test of the heuristics (default exact)"},
    {"clusters", 1, "SHAPE: clusters of the CPUs, \"2x2\" or \"3,1\" (global test per cluster)"},
    {"layouts", 1, "L,...: with best, compare partitioned,clustered,global layouts"},
    {NULL, 0, NULL},
};

typedef struct part_cli {
    rtp_part_opts opts;
    int use_ilp, use_best, explain;
    rtp_ilp_opts ilp;
} part_cli;

static int parse_options(const cli_args *args, part_cli *pc)
{
    memset(pc, 0, sizeof *pc);
    pc->opts = rtp_part_opts_default();
    pc->ilp = rtp_ilp_opts_default();
    pc->explain = cli_has(args, "explain");
    const char *v;
    if ((v = cli_get(args, "policy")) &&
        (rtp_policy_parse(v, &pc->opts.policy) != 0 ||
         (pc->opts.policy != RTP_POLICY_EDF && pc->opts.policy != RTP_POLICY_FP)))
        return cli_usage_error(args, "--policy wants edf or fp, got '%s'", v);
    if ((v = cli_get(args, "priority")) && rtp_prio_rule_parse(v, &pc->opts.priority) != 0)
        return cli_usage_error(args, "--priority wants rm, dm, opa or given, got '%s'", v);
    v = cli_get(args, "method");
    if (!v || strcmp(v, "best") == 0) {
        pc->use_best = 1;
    } else if (strcmp(v, "ilp") == 0) {
        pc->use_ilp = 1;
    } else {
        char placement[4] = "";
        if (strlen(v) == 3 && v[2] == 'd')
            memcpy(placement, v, 2);
        if (rtp_placement_parse(placement, &pc->opts.placement) != 0)
            return cli_usage_error(args, "--method wants ffd, bfd, wfd, nfd, ilp or best, got '%s'", v);
    }
    if ((v = cli_get(args, "order")) && rtp_order_parse(v, &pc->opts.order) != 0)
        return cli_usage_error(args, "--order wants util, density, deadline, period or input, got '%s'", v);
    if ((v = cli_get(args, "capacity"))) {
        char why[128];
        if (rtp_ratio_parse_decimal(v, &pc->opts.capacity, why, sizeof why) != RTP_OK)
            return cli_usage_error(args, "--capacity '%s': %s", v, why);
        if (pc->opts.capacity.num == 0)
            return cli_usage_error(args, "--capacity must be positive, got '%s'", v);
    }
    if ((v = cli_get(args, "fit"))) {
        if (strcmp(v, "util") == 0)
            pc->opts.fit_measure = RTP_LOAD_UTIL;
        else if (strcmp(v, "density") == 0)
            pc->opts.fit_measure = RTP_LOAD_DENSITY;
        else
            return cli_usage_error(args, "--fit wants util or density, got '%s'", v);
    }
    if ((v = cli_get(args, "admission"))) {
        if (strcmp(v, "exact") != 0 && strcmp(v, "bound") != 0)
            return cli_usage_error(args, "--admission wants exact or bound, got '%s'", v);
        pc->opts.bound_admission = strcmp(v, "bound") == 0;
    }
    if ((v = cli_get(args, "time-limit"))) {
        char *end = NULL;
        double s = strtod(v, &end);
        if (end == v || *end != '\0' || !isfinite(s) || s <= 0)
            return cli_usage_error(args, "--time-limit wants a positive number of seconds, got '%s'", v);
        pc->ilp.time_limit_s = s;
    }
    if ((v = cli_get(args, "objective")) && rtp_ilp_objective_parse(v, &pc->ilp.objective) != 0)
        return cli_usage_error(args, "--objective wants feasibility, min-cpus or balanced, got '%s'", v);
    pc->ilp.write_lp_path = cli_get(args, "write-lp");
    return 0;
}

/* ---- human output ---- */

static void print_cpu(const rtp_plan *plan, const rtp_plan_bin *bin, rtp_ratio capacity)
{
    double u = 0;
    for (size_t k = 0; k < bin->n_tasks; k++)
        u += (double)bin->tasks[k].task.wcet_ns / (double)bin->tasks[k].task.period_ns;
    if (plan->clustered) {
        printf("cluster of CPU%s", bin->n_cpus == 1 ? "" : "s");
        for (size_t k = 0; k < bin->n_cpus; k++)
            printf("%s%d", k ? "," : " ", bin->cpus[k]);
        printf(": utilization %.4f, room %.4f, %zu task%s, accepted by %s\n", u,
               rtp_ratio_double(capacity) * (double)bin->n_cpus - u, bin->n_tasks,
               bin->n_tasks == 1 ? "" : "s", bin->test[0] ? bin->test : "no test");
    } else {
        printf("CPU %d: utilization %.4f, room %.4f, %zu task%s\n", bin->cpus[0], u,
               rtp_ratio_double(capacity) - u, bin->n_tasks, bin->n_tasks == 1 ? "" : "s");
    }
    if (bin->n_tasks == 0)
        return;
    int fp = plan->policy == RTP_POLICY_FP;
    printf(fp ? "  %8s  %-16s %14s %14s %14s %14s %14s\n" : "  %-16s %14s %14s %14s\n",
           fp ? "priority" : "name", fp ? "name" : "wcet", fp ? "wcet" : "deadline",
           fp ? "deadline" : "period", "period", "response", "slack");
    /* FP: most urgent first; EDF: plan order. */
    for (int p = fp ? (int)bin->n_tasks : 0; p >= 0; p--) {
        for (size_t k = 0; k < bin->n_tasks; k++) {
            const rtp_plan_task *pt = &bin->tasks[k];
            if (fp && pt->priority != p)
                continue;
            char c[32], d[32], t[32], r[32] = "miss", s[32] = "-";
            rtp_duration_format(pt->task.wcet_ns, c, sizeof c);
            rtp_duration_format(pt->task.deadline_ns, d, sizeof d);
            rtp_duration_format(pt->task.period_ns, t, sizeof t);
            if (!fp) {
                printf("  %-16s %14s %14s %14s\n", pt->task.name, c, d, t);
                continue;
            }
            if (pt->response_time_ns >= 0) {
                rtp_duration_format(pt->response_time_ns, r, sizeof r);
                rtp_duration_format(pt->task.deadline_ns - pt->response_time_ns, s, sizeof s);
            }
            printf("  %8d  %-16s %14s %14s %14s %14s %14s\n", pt->priority, pt->task.name, c,
                   d, t, r, s);
        }
        if (!fp)
            break;
    }
}

static void print_human(const rtp_plan *plan, const part_cli *pc)
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
        printf(", priorities %s per CPU", rtp_prio_rule_name(pc->opts.priority));
    printf(")\n");
    for (size_t j = 0; j < plan->n_bins; j++)
        print_cpu(plan, &plan->bins[j], pc->opts.capacity);
    printf("unassigned:");
    for (size_t k = 0; k < plan->n_unassigned; k++)
        printf(" %s", plan->unassigned[k].task.name);
    printf("%s\n", plan->n_unassigned ? "" : " none");
}

/* One line per unassigned task: where it came closest and why it failed. */
static int print_explain(FILE *out, const cli_args *args, const rtp_plan *plan,
                         const part_cli *pc)
{
    if (strcmp(plan->status, "infeasible") == 0) {
        fprintf(out, "no partition of these tasks onto these CPUs passes the exact test "
                     "(the ILP proves it)\n");
        return 0;
    }
    if (plan->clustered) {
        for (size_t k = 0; k < plan->n_unassigned; k++)
            fprintf(out, "%s could not be placed: no cluster's global test accepts it with "
                         "the tasks placed before it\n", plan->unassigned[k].task.name);
        return 0;
    }
    for (size_t k = 0; k < plan->n_unassigned; k++) {
        rtp_part_miss miss;
        rtp_diag diag;
        rtp_diag_clear(&diag);
        rtp_status st = rtp_part_explain(plan, &pc->opts, k, &miss, &diag);
        if (st != RTP_OK)
            return cli_fail(args, "", st, &diag);
        fprintf(out, "%s could not be placed: ", plan->unassigned[k].task.name);
        if (miss.reason == RTP_MISS_NO_CPU) {
            fprintf(out, "its affinity allows no CPU of the platform\n");
            continue;
        }
        fprintf(out, "closest is CPU %d, utilization %.4f with it: ",
                plan->bins[miss.bin].cpus[0], miss.load_after);
        char t[32] = "";
        if (miss.reason == RTP_MISS_CAPACITY) {
            char cap[48];
            rtp_ratio_format(pc->opts.capacity, cap, sizeof cap);
            fprintf(out, "over the capacity %s\n", cap);
        } else if (miss.reason == RTP_MISS_HEURISTIC) {
            fprintf(out, "the exact test accepts it there, but %s%s did not place it "
                         "there (try another --method)\n",
                    plan->chosen_placement[0] ? plan->chosen_placement : plan->method,
                    plan->chosen_placement[0] ? "d" : "");
        } else if (plan->policy == RTP_POLICY_FP) {
            fprintf(out, "no priority order passes response-time analysis");
            if (miss.late_task)
                fprintf(out, " (deadline-monotonic: %s misses its deadline)", miss.late_task);
            fprintf(out, "\n");
        } else if (miss.has_first_miss) {
            rtp_duration_format(miss.first_miss_ns, t, sizeof t);
            fprintf(out, "processor demand exceeds the interval at t = %s (dbf(t) > t)\n", t);
        } else {
            fprintf(out, "the processor demand test fails\n");
        }
    }
    return 0;
}

/* ---- running ---- */

/* Clustered partitioning (docs/spec.md "rtpack partition"): bins are the
 * platform's clusters or --clusters SHAPE, admission is the global test of
 * each cluster's size; --layouts compares whole layouts of the platform. */
static int solve_clusters(const cli_args *args, const char *file, const rtp_taskset *ts,
                          part_cli *pc, const int *cpus, size_t n_cpus, rtp_plan *plan)
{
    const char *shape = cli_get(args, "clusters"), *layouts = cli_get(args, "layouts");
    rtp_cluster_list cl = {NULL, NULL, 0};
    int owned = 0, have = 0;
    rtp_diag diag;
    rtp_diag_clear(&diag);
    rtp_status st = RTP_OK;
    unsigned mask = 0;
    if (pc->use_ilp)
        return cli_usage_error(args, "--method ilp partitions onto single CPUs; it takes no "
                                     "--clusters, --layouts or platform.clusters (use --cpus M)");
    if (layouts && (!pc->use_best || rtp_layout_parse_list(layouts, &mask) != 0))
        return cli_usage_error(args, pc->use_best
                                         ? "--layouts wants a list of partitioned, clustered, global, got '%s'"
                                         : "--layouts compares layouts under --method best, got '%s'",
                               layouts);
    if (shape) {
        if ((st = rtp_cluster_shape(cpus, n_cpus, shape, &cl, &diag)) != RTP_OK)
            return cli_fail(args, "", st, &diag);
        owned = have = 1;
    } else if (args->cpus == 0 && ts->platform.n_clusters > 0) {
        cl.cpus = ts->platform.clusters;
        cl.len = ts->platform.cluster_len;
        cl.n = ts->platform.n_clusters;
        have = 1;
    }
    if (layouts) {
        rtp_layout chosen = RTP_LAYOUT_PARTITIONED;
        st = rtp_layout_best(ts, cpus, n_cpus, have ? &cl : NULL, mask, &pc->opts, plan,
                             &chosen, &diag);
        if (st == RTP_OK)
            snprintf(plan->chosen_layout, sizeof plan->chosen_layout, "%s",
                     rtp_layout_name(chosen));
    } else if (!have) {
        st = rtp_diag_set(&diag, RTP_EINPUT, "--clusters", "no clusters given");
    } else if (pc->use_best) {
        st = rtp_cluster_best(ts, cpus, n_cpus, &cl, &pc->opts, plan, &diag);
    } else {
        st = rtp_cluster_pack(ts, cpus, n_cpus, &cl, &pc->opts, plan, &diag);
    }
    if (owned)
        rtp_cluster_list_free(&cl);
    if (st != RTP_OK) {
        rtp_plan_free(plan);
        return cli_fail(args, file, st, &diag);
    }
    return plan->feasible ? CLI_EXIT_OK : CLI_EXIT_NO;
}

static int solve(const cli_args *args, const char *file, const rtp_taskset *ts,
                 part_cli *pc, rtp_plan *plan)
{
    int *cpus = NULL;
    size_t n_cpus = 0;
    rtp_diag diag;
    rtp_diag_clear(&diag);
    rtp_status st = rtp_taskset_cpu_ids(ts, args->cpus, &cpus, &n_cpus, &diag);
    if (st != RTP_OK)
        return cli_fail(args, file, st, &diag);
    int rc = 0;
    if (cli_has(args, "clusters") || cli_has(args, "layouts") ||
        (args->cpus == 0 && ts->platform.n_clusters > 0)) {
        rc = solve_clusters(args, file, ts, pc, cpus, n_cpus, plan);
        free(cpus);
        return rc;
    }
    if (pc->use_ilp) {
        rtp_ilp_status ilp_status = RTP_ILP_TIME_LIMIT;
        rtp_ilp_stats stats;
        memset(&stats, 0, sizeof stats);
        pc->ilp.part = pc->opts;
        st = rtp_ilp_solve(ts, cpus, n_cpus, &pc->ilp, plan, &ilp_status, &stats, &diag);
        if (st == RTP_OK && ilp_status != RTP_ILP_INFEASIBLE && !plan->feasible)
            rc = CLI_EXIT_LIMIT; /* optimal must come with a plan; time_limit may not */
    } else if (pc->use_best) {
        st = rtp_part_best(ts, cpus, n_cpus, &pc->opts, plan, &diag);
    } else {
        st = rtp_part_pack(ts, cpus, n_cpus, &pc->opts, plan, &diag);
    }
    free(cpus);
    if (st != RTP_OK) {
        rtp_plan_free(plan);
        return cli_fail(args, file, st, &diag);
    }
    return rc ? rc : plan->feasible ? CLI_EXIT_OK : CLI_EXIT_NO;
}

static int run(const cli_args *args)
{
    int rc = 0;
    const char *file = cli_one_file(args, &rc);
    if (!file)
        return rc;
    part_cli pc;
    if ((rc = parse_options(args, &pc)) != 0)
        return rc;
    rtp_taskset ts;
    if ((rc = cli_load_taskset(args, file, &ts)) != 0)
        return rc;
    rtp_plan plan;
    memset(&plan, 0, sizeof plan);
    rc = solve(args, strcmp(file, "-") == 0 ? "<stdin>" : file, &ts, &pc, &plan);
    if (rc == CLI_EXIT_OK || rc == CLI_EXIT_NO || plan.n_bins > 0) {
        if (args->json) {
            char *text = rtp_plan_to_json(&plan, 1);
            if (!text) {
                fprintf(stderr, "rtpack partition: out of memory\n");
                rc = CLI_EXIT_LIMIT;
            } else {
                printf("%s\n", text);
                free(text);
            }
        } else {
            print_human(&plan, &pc);
        }
        if (rc == CLI_EXIT_LIMIT)
            fprintf(stderr, "rtpack partition: %s\n",
                    strcmp(plan.status, "time_limit") == 0
                        ? "resource limit: the ILP time limit passed before a verified plan"
                        : "internal error: the ILP reported a solution without a verified plan");
        if (pc.explain && !plan.feasible) {
            int erc = print_explain(args->json ? stderr : stdout, args, &plan, &pc);
            rc = erc ? erc : rc;
        }
    }
    rtp_plan_free(&plan);
    rtp_taskset_free(&ts);
    return rc;
}

const cli_command cli_cmd_partition = {
    "partition",
    "FILE [--cpus M] [--policy edf|fp] [--method ffd|bfd|wfd|nfd|ilp|best] [--order O] "
    "[--capacity F] [--clusters SHAPE] [--layouts L] [--explain] [--json]",
    "Assign the tasks of FILE to CPUs (or clusters), order priorities, print the plan.",
    options, run,
};
