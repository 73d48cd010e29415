/* partition/partition.h — what `rtpack partition` computes, as one call
 * (docs/spec.md "rtpack partition"): the CPUs of the set's platform (or
 * --cpus), the method (one fit, every fit x order, or the exact ILP), onto
 * single CPUs or clusters (--clusters, platform.clusters, --layouts), FP
 * priorities per CPU, sensitivity when asked, and whether `rtpack emit`
 * with its default options would take the plan (deploy/recheck.h
 * rtp_deploy_judge). It composes heuristics/partition.h, heuristics/
 * cluster.h, ilp/ilp.h and deploy/recheck.h, so it sits above all of them.
 *
 * Units: times in ns, capacities exact ratios. Ownership: the plan written
 * is the caller's (rtp_plan_free), also after an error (it is then empty).
 * Thread-safety: no globals; distinct calls may run concurrently (the
 * progress callback of opts->part, when set, must be thread-safe). */
#ifndef RTP_PARTITION_RUN_H
#define RTP_PARTITION_RUN_H

#include "heuristics/cluster.h"
#include "ilp/ilp.h"
#include "models/api.h"

RTP_API_BEGIN

/* rtp_partition_opts.method: an rtp_placement (one fit, in opts.part.order)
 * or one of these. */
#define RTP_METHOD_ILP (-1)  /* the exact ILP (ilp/ilp.h) */
#define RTP_METHOD_BEST (-2) /* every placement x order (rtp_part_best) */
#define RTP_METHOD_SEMI (-3) /* semi-partitioned FP (heuristics/semi.h rtp_semi_pack) */

typedef struct rtp_partition_opts {
    rtp_part_opts part;    /* policy, priority rule, order, capacity, fit, admission,
                            * soft, threads, limits, progress (the fits only: the ILP
                            * reports none, as `--progress-every` says) */
    rtp_ilp_opts ilp;      /* method ILP: objective, time limit, LP file; ilp.part is
                            * replaced by `part` */
    int method;            /* an rtp_placement, RTP_METHOD_ILP, RTP_METHOD_BEST or
                            * RTP_METHOD_SEMI (part.capacity and limits only) */
    int override_cpus;     /* CPUs 0..M-1 instead of the set's platform (0 = its
                            * platform, whose clusters are then used) */
    const char *clusters;  /* "KxS" or "S1,S2,..." over the CPUs (heuristics/cluster.h
                            * rtp_cluster_shape), or NULL */
    unsigned layouts;      /* 0, or with RTP_METHOD_BEST a mask of 1u << rtp_layout to
                            * compare (rtp_layout_best) */
    int sensitivity;       /* 1: wcet_max and critical scaling factors (rtp_part_sensitivity) */
    /* Optional (NULL = none): called once, with part.progress_ctx, when the
     * packing is over and before sensitivity and the judgement, so progress
     * reports can stop where the placements end (never for the ILP). */
    void (*packing_done)(void *ctx);
} rtp_partition_opts;

/* The defaults of `rtpack partition`: EDF, best, the platform's CPUs. */
rtp_partition_opts rtp_partition_opts_default(void);

typedef struct rtp_partition_info {
    int undecided;         /* the plan carries no verdict: the ILP stopped at its time
                            * limit without a verified plan (plan->status
                            * "time_limit"), or said optimal without one (an
                            * internal error); the CLI prints it and exits 3 */
    int options_error;     /* with RTP_EINPUT: the options alone are at fault (a rule
                            * between them, a --clusters shape), not the task set */
} rtp_partition_info;

/* The rules between options that need no task set (RTP_EINPUT, no path): a
 * method that is no placement, ILP, best or semi; layouts only with
 * RTP_METHOD_BEST; semi only under FP, without clusters, layouts or
 * sensitivity. */
rtp_status rtp_partition_check_opts(const rtp_partition_opts *opts, rtp_diag *diag);

/* Partitions ts into *plan (method, priorities, response times, the ILP's
 * status and proof, sensitivity when asked) and judges it for emit
 * (plan->deploy_judged). Clusters are used when opts->clusters or
 * opts->layouts is set, or the platform has clusters and override_cpus is 0.
 * RTP_OK whenever a plan was made, feasible or not (info->undecided: no
 * verdict). RTP_EINPUT for the rules of rtp_partition_check_opts, the ILP
 * with clusters or layouts, the bound admission with clusters (without
 * layouts), a set with shared-resource requests under the ILP, clusters,
 * sensitivity or the bound admission (not modelled yet), and the input rules
 * of the calls it makes; RTP_ELIMIT from the exact tests; the plan is then
 * empty. `info` may be NULL. */
rtp_status rtp_partition(const rtp_taskset *ts, const rtp_partition_opts *opts,
                         rtp_plan *plan, rtp_partition_info *info, rtp_diag *diag);

RTP_API_END
#endif
