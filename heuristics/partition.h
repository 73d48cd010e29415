/* heuristics/partition.h — partitioning by bin packing: first / best / worst /
 * next fit over a chosen task order, one shared packing loop, admission by an
 * rtp_test (the exact test of the policy by default), per-task affinity and
 * a per-CPU utilization capacity. rtp_part_best runs every placement x order
 * candidate in parallel (OpenMP) and picks as SPEC.md says, with output that
 * does not depend on the thread count.
 *
 * Ownership: the plan written is the caller's (rtp_plan_free).
 * Thread-safety: no globals; distinct calls may run concurrently. */
#ifndef RTP_PARTITION_H
#define RTP_PARTITION_H

#include "models/plan.h"
#include "models/ratio.h"
#include "solver/test.h"

typedef enum rtp_placement {
    RTP_PLACE_FF = 0, RTP_PLACE_BF, RTP_PLACE_WF, RTP_PLACE_NF
} rtp_placement;

typedef enum rtp_order {
    RTP_ORDER_UTIL = 0, /* decreasing utilization */
    RTP_ORDER_DENSITY,  /* decreasing wcet / min(deadline, period) */
    RTP_ORDER_DEADLINE, /* increasing deadline */
    RTP_ORDER_PERIOD,   /* increasing period */
    RTP_ORDER_INPUT
} rtp_order;

#define RTP_N_PLACEMENTS 4
#define RTP_N_ORDERS 5

const char *rtp_placement_name(rtp_placement p); /* "ff", "bf", "wf", "nf" */
const char *rtp_order_name(rtp_order o);         /* "util", "density", ... */
int rtp_placement_parse(const char *name, rtp_placement *out);
int rtp_order_parse(const char *name, rtp_order *out);

typedef struct rtp_part_opts {
    rtp_policy policy;        /* RTP_POLICY_EDF or RTP_POLICY_FP */
    rtp_prio_rule priority;   /* FP: rule used per CPU (default OPA) */
    rtp_placement placement;
    rtp_order order;
    rtp_ratio capacity;       /* per-CPU utilization cap (default 1/1) */
    rtp_load_kind fit_measure;/* best/worst fit: room by utilization or density */
    int bound_admission;      /* 1: utilization-bound test instead of exact */
    int threads;              /* rtp_part_best: 0 = OpenMP default */
    rtp_limits limits;
} rtp_part_opts;

rtp_part_opts rtp_part_opts_default(void);

/* Packs ts's tasks on cpus[0..n_cpus-1] with one placement and order.
 * *plan receives every CPU and every task (placed or unassigned) with FP
 * priorities and response times; plan->feasible as SPEC.md defines it. */
rtp_status rtp_part_pack(const rtp_taskset *ts, const int *cpus, size_t n_cpus,
                         const rtp_part_opts *opts, rtp_plan *plan,
                         rtp_diag *diag);

/* Every placement x order; the feasible plan with the smallest largest
 * per-CPU utilization, ties to the first in placement-major order. */
rtp_status rtp_part_best(const rtp_taskset *ts, const int *cpus, size_t n_cpus,
                         const rtp_part_opts *opts, rtp_plan *plan,
                         rtp_diag *diag);

#endif
