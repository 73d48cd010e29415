/* partition/partition.c — `rtpack partition` as one call: the rules between
 * options, the CPUs, the method onto single CPUs or clusters, sensitivity,
 * and emit's judgement (partition/partition.h). */
#include "partition/partition.h"

#include "deploy/recheck.h"
#include "heuristics/semi.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

rtp_partition_opts rtp_partition_opts_default(void)
{
    rtp_partition_opts o;
    memset(&o, 0, sizeof o);
    o.part = rtp_part_opts_default();
    o.ilp = rtp_ilp_opts_default();
    o.method = RTP_METHOD_BEST;
    return o;
}

/* An error the options alone cause (no path, no task set). */
static rtp_status options_error(rtp_partition_info *info, rtp_diag *diag, const char *message)
{
    info->options_error = 1;
    return rtp_diag_set(diag, RTP_EINPUT, "", "%s", message);
}

static rtp_status check_opts(const rtp_partition_opts *opts, rtp_partition_info *info,
                             rtp_diag *diag)
{
    if (opts->method != RTP_METHOD_ILP && opts->method != RTP_METHOD_BEST &&
        opts->method != RTP_METHOD_SEMI &&
        (opts->method < RTP_PLACE_FF || opts->method > RTP_PLACE_SF))
        return options_error(info, diag, "unknown method");
    if (opts->layouts && opts->method != RTP_METHOD_BEST)
        return options_error(info, diag, "--layouts compares layouts under --method best");
    if (opts->method == RTP_METHOD_SEMI &&
        (opts->part.policy != RTP_POLICY_FP || opts->clusters || opts->sensitivity))
        return options_error(info, diag, "--method semi (semi-partitioned SCHED_FIFO, "
                                         "priorities deadline-monotonic over the set) needs "
                                         "--policy fp, and takes no --clusters, --layouts, "
                                         "--priority or --sensitivity");
    return RTP_OK;
}

rtp_status rtp_partition_check_opts(const rtp_partition_opts *opts, rtp_diag *diag)
{
    rtp_partition_info info;
    return check_opts(opts, &info, diag);
}

/* Clustered when asked for, or when the platform has clusters and --cpus
 * does not replace it. */
static int clustered(const rtp_taskset *ts, const rtp_partition_opts *opts)
{
    return opts->method != RTP_METHOD_SEMI && /* its own single cluster, when needed */
           (opts->clusters || opts->layouts ||
            (opts->override_cpus == 0 && ts->platform.n_clusters > 0));
}

/* What partitioning does not model of shared resources yet (docs/spec.md
 * "Shared resources"), in the order the CLI has always named it. */
static rtp_status check_resources(const rtp_taskset *ts, const rtp_partition_opts *opts,
                                  rtp_partition_info *info, rtp_diag *diag)
{
    if (!rtp_tasks_have_requests(ts->tasks, ts->n_tasks))
        return RTP_OK;
    const char *which = opts->method == RTP_METHOD_ILP && !opts->ilp.colocate ? "--method ilp"
                        : clustered(ts, opts)             ? "clusters and layouts"
                        : opts->part.bound_admission      ? "--admission"
                                                          : NULL;
    if (!which)
        return RTP_OK;
    info->options_error = 1;
    return rtp_diag_set(diag, RTP_EINPUT, "",
                        "%s does not model shared resources yet (the set has requests): use "
                        "--method ffd|bfd|wfd|nfd|best onto single CPUs%s",
                        which, opts->method == RTP_METHOD_ILP
                                   ? ", or --method ilp --colocate (every resource's users "
                                     "on one CPU)"
                                   : "");
}

/* Clustered partitioning (docs/spec.md "rtpack partition"): bins are the
 * platform's clusters or opts->clusters, admission is the global test of
 * each cluster's size; opts->layouts compares whole layouts. */
static rtp_status solve_clusters(const rtp_taskset *ts, const rtp_partition_opts *opts,
                                 const int *cpus, size_t n_cpus, rtp_plan *plan,
                                 rtp_partition_info *info, rtp_diag *diag)
{
    if (opts->method == RTP_METHOD_ILP)
        return options_error(info, diag, "--method ilp partitions onto single CPUs; it takes "
                                         "no --clusters, --layouts or platform.clusters (use "
                                         "--cpus M)");
    if (opts->part.bound_admission && !opts->layouts)
        return options_error(info, diag, "--admission applies to partitioned CPUs; clusters "
                                         "are admitted by their global test");
    rtp_cluster_list cl = {NULL, NULL, 0};
    int owned = 0, have = 0;
    rtp_status st = RTP_OK;
    if (opts->clusters) {
        if ((st = rtp_cluster_shape(cpus, n_cpus, opts->clusters, &cl, diag)) != RTP_OK) {
            info->options_error = 1;
            return st;
        }
        owned = have = 1;
    } else if (opts->override_cpus == 0 && ts->platform.n_clusters > 0) {
        cl.cpus = ts->platform.clusters;
        cl.len = ts->platform.cluster_len;
        cl.n = ts->platform.n_clusters;
        have = 1;
    }
    if (opts->layouts) {
        rtp_layout chosen = RTP_LAYOUT_PARTITIONED;
        st = rtp_layout_best(ts, cpus, n_cpus, have ? &cl : NULL, opts->layouts, &opts->part,
                             plan, &chosen, diag);
        if (st == RTP_OK)
            snprintf(plan->chosen_layout, sizeof plan->chosen_layout, "%s",
                     rtp_layout_name(chosen));
    } else if (opts->method == RTP_METHOD_BEST) {
        st = rtp_cluster_best(ts, cpus, n_cpus, &cl, &opts->part, plan, diag);
    } else {
        rtp_part_opts part = opts->part;
        part.placement = (rtp_placement)opts->method;
        st = rtp_cluster_pack(ts, cpus, n_cpus, &cl, &part, plan, diag);
    }
    if (owned)
        rtp_cluster_list_free(&cl);
    return st;
}

/* Onto single CPUs: one fit, every fit x order, or the ILP. */
static rtp_status solve_cpus(const rtp_taskset *ts, const rtp_partition_opts *opts,
                             const int *cpus, size_t n_cpus, rtp_plan *plan,
                             rtp_partition_info *info, rtp_diag *diag)
{
    if (opts->method == RTP_METHOD_BEST)
        return rtp_part_best(ts, cpus, n_cpus, &opts->part, plan, diag);
    if (opts->method == RTP_METHOD_SEMI)
        return rtp_semi_pack(ts, cpus, n_cpus, opts->part.capacity, &opts->part.limits, plan,
                             diag);
    if (opts->method != RTP_METHOD_ILP) {
        rtp_part_opts part = opts->part;
        part.placement = (rtp_placement)opts->method;
        return rtp_part_pack(ts, cpus, n_cpus, &part, plan, diag);
    }
    rtp_ilp_opts ilp = opts->ilp;
    ilp.part = opts->part;
    /* `--progress-every` reports the fits; the ILP's warm start stays quiet. */
    ilp.part.progress = NULL;
    ilp.part.progress_ctx = NULL;
    rtp_ilp_status status = RTP_ILP_TIME_LIMIT;
    rtp_status st = rtp_ilp_solve(ts, cpus, n_cpus, &ilp, plan, &status, NULL, diag);
    /* Optimal must come with a plan; a time limit may not. */
    if (st == RTP_OK && status != RTP_ILP_INFEASIBLE && !plan->feasible)
        info->undecided = 1;
    return st;
}

rtp_status rtp_partition(const rtp_taskset *ts, const rtp_partition_opts *opts,
                         rtp_plan *plan, rtp_partition_info *info, rtp_diag *diag)
{
    rtp_partition_info scratch;
    if (!info)
        info = &scratch;
    memset(info, 0, sizeof *info);
    memset(plan, 0, sizeof *plan);
    int *cpus = NULL;
    size_t n_cpus = 0;
    rtp_status st = check_opts(opts, info, diag);
    if (st == RTP_OK)
        st = check_resources(ts, opts, info, diag);
    if (st == RTP_OK)
        st = rtp_taskset_cpu_ids(ts, opts->override_cpus, &cpus, &n_cpus, diag);
    if (st != RTP_OK)
        goto done;
    st = clustered(ts, opts) ? solve_clusters(ts, opts, cpus, n_cpus, plan, info, diag)
                             : solve_cpus(ts, opts, cpus, n_cpus, plan, info, diag);
    if (opts->packing_done && opts->method != RTP_METHOD_ILP)
        opts->packing_done(opts->part.progress_ctx);
    if (st == RTP_OK && opts->sensitivity && !info->undecided)
        st = rtp_part_sensitivity(plan, &opts->part, diag);
    if (st == RTP_OK) {
        /* Whether emit, with its defaults, would take this plan. */
        rtp_deploy_opts deploy = rtp_deploy_opts_default();
        deploy.limits = opts->part.limits;
        st = rtp_deploy_judge(plan, &deploy, diag);
    }
done:
    free(cpus);
    if (st != RTP_OK)
        rtp_plan_free(plan);
    return st;
}
