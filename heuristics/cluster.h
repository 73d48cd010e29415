/* heuristics/cluster.h — clustered scheduling: tasks packed onto clusters of
 * CPUs, each cluster under one global scheduler (global EDF or FP; on Linux
 * one exclusive cpuset root domain per cluster), and the comparison of the
 * partitioned, clustered and global layouts of one platform.
 *
 * Bins are clusters. A cluster admits a task when every CPU of the cluster
 * is in the task's affinity, the cluster's utilization with it stays within
 * capacity x its size (exact), and the global test for the cluster's size
 * accepts its tasks plus this one (solver/global.h via rtp_test_exact; a
 * cluster of one CPU uses the exact uniprocessor test, so clusters of size 1
 * reduce exactly to rtp_part_pack: both run heuristics/pack.h's one engine).
 * Ownership: plans are the caller's
 * (rtp_plan_free), cluster lists from rtp_cluster_shape too
 * (rtp_cluster_list_free). Thread-safety: no globals. */
#ifndef RTP_CLUSTER_H
#define RTP_CLUSTER_H

#include "heuristics/partition.h"
#include "models/api.h"

RTP_API_BEGIN

/* Disjoint lists of Linux CPU ids (a view: rtp_platform's clusters /
 * cluster_len / n_clusters can be used as they are). */
typedef struct rtp_cluster_list {
    int **cpus;
    size_t *len;
    size_t n;
} rtp_cluster_list;

/* `--clusters SHAPE` over the platform's CPUs in their order: "KxS" is K
 * clusters of S CPUs ("2x2"); "S1,S2,..." gives each size ("3,1"). The sizes
 * must add up to n_cpus. RTP_EINPUT (path "--clusters") otherwise. */
rtp_status rtp_cluster_shape(const int *cpus, size_t n_cpus, const char *shape,
                             rtp_cluster_list *out, rtp_diag *diag);
void rtp_cluster_list_free(rtp_cluster_list *list);

/* Packs ts's tasks onto `clusters` (of the platform cpus[0..n_cpus-1]) with
 * opts->placement and opts->order, following rtp_part_pack's rules with
 * clusters for CPUs: tasks in the order's sequence (ties by input order);
 * clusters scanned by increasing smallest CPU id; FF the first admitting
 * cluster, BF the admitting one with the largest load per CPU (load by
 * opts->fit_measure / size: the least room), WF the smallest, ties to the
 * scan order; NF never returns to a cluster it left. opts->policy EDF/GEDF
 * means global EDF, FP/GFP global FP (priorities by opts->priority, per
 * cluster). The plan is clustered (plan->clustered = 1; policy EDF/FP as the
 * user chose, a bin of several CPUs being scheduled globally): one bin per
 * cluster in the given order, each with its CPUs and bin->test = the test
 * that accepts its tasks
 * ("gfb", "bak", "bcl", "rta", "rta-lc"; "edf"/"rta" for one CPU; "" when
 * empty or none), FP priorities 1..n per cluster and response-time bounds.
 * plan->feasible = every task placed and every cluster accepted.
 * RTP_EINPUT for overlapping or empty clusters, a cluster CPU not on the
 * platform ("platform.clusters"), or an affinity CPU in no cluster
 * ("tasks[i].affinity"); RTP_ELIMIT when a test hits a limit. */
rtp_status rtp_cluster_pack(const rtp_taskset *ts, const int *cpus, size_t n_cpus,
                            const rtp_cluster_list *clusters,
                            const rtp_part_opts *opts, rtp_plan *plan,
                            rtp_diag *diag);

/* Every placement x order (OpenMP, reduced in index order): the feasible
 * plan whose largest per-CPU cluster load (utilization / size) is smallest,
 * ties to the first in placement-major order; with none feasible, the one
 * with the fewest unassigned tasks. plan->method "best", chosen_* set.
 * RTP_ELIMIT only when no candidate is feasible and one hit a limit. */
rtp_status rtp_cluster_best(const rtp_taskset *ts, const int *cpus, size_t n_cpus,
                            const rtp_cluster_list *clusters,
                            const rtp_part_opts *opts, rtp_plan *plan,
                            rtp_diag *diag);

/* Layouts of one platform for `--layouts partitioned,clustered,global`. */
typedef enum rtp_layout {
    RTP_LAYOUT_PARTITIONED = 0, /* one CPU per bin, uniprocessor tests */
    RTP_LAYOUT_CLUSTERED,       /* the given clusters, global tests */
    RTP_LAYOUT_GLOBAL           /* one cluster of every CPU */
} rtp_layout;

#define RTP_N_LAYOUTS 3

const char *rtp_layout_name(rtp_layout layout); /* "partitioned", ... */
/* Comma-separated layout names into a bit mask (1u << RTP_LAYOUT_...);
 * returns 0 on success, -1 on an unknown or empty name. */
int rtp_layout_parse_list(const char *text, unsigned *mask);

/* `--method best` across layouts: each layout in `mask` is built with its
 * best method (rtp_part_best; rtp_cluster_best on `clusters`; the global
 * layout as one cluster of all cpus) and the feasible plan with the most
 * room wins, i.e. the smallest largest per-CPU bin load (utilization /
 * CPUs of the bin), ties to the earlier layout (partitioned, clustered,
 * global); with none feasible, the fewest unassigned tasks. *chosen names
 * the winner. The clustered layout needs `clusters` (RTP_EINPUT "--layouts"
 * otherwise). A layout that hits RTP_ELIMIT is left out when another is
 * feasible, else the limit is returned. */
rtp_status rtp_layout_best(const rtp_taskset *ts, const int *cpus, size_t n_cpus,
                           const rtp_cluster_list *clusters, unsigned mask,
                           const rtp_part_opts *opts, rtp_plan *plan,
                           rtp_layout *chosen, rtp_diag *diag);

RTP_API_END
#endif
