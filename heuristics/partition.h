/* heuristics/partition.h — partitioning by bin packing: first / best / worst /
 * next fit over a chosen task order, one shared packing loop (heuristics/
 * pack.h, which clusters use too: a CPU is a bin of size 1), admission by an
 * rtp_test (the exact test of the policy by default), per-task affinity and
 * a per-CPU utilization capacity. rtp_part_best runs every placement x order
 * candidate in parallel (OpenMP) and picks as docs/spec.md "rtpack
 * partition" says, with output that does not depend on the thread count.
 *
 * Ownership: the plan written is the caller's (rtp_plan_free).
 * Thread-safety: no globals; distinct calls may run concurrently. */
#ifndef RTP_PARTITION_H
#define RTP_PARTITION_H

#include "models/plan.h"
#include "models/ratio.h"
#include "solver/schedtest.h"
#include "solver/rr_choose.h"
#include "models/api.h"

RTP_API_BEGIN

/* RTP_PLACE_SF is Greedy Slacker [WB13] for FP: among the CPUs where every
 * CPU still passes with the task (spins re-checked), the one leaving the
 * largest minimum slack D - R over all placed tasks (ties: scan order).
 * It is outside the classic four that `best` always enumerates. */
typedef enum rtp_placement {
    RTP_PLACE_FF = 0, RTP_PLACE_BF, RTP_PLACE_WF, RTP_PLACE_NF, RTP_PLACE_SF
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

const char *rtp_placement_name(rtp_placement p); /* "ff", "bf", "wf", "nf", "sf" */
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
    int soft;                 /* EDF: admit by rtp_test_soft (bounded tardiness) */
    int keep_tie_policy;      /* FP, RTP_PRIO_GIVEN: 1 = the tasks' own SCHED_FIFO /
                               * SCHED_RR at tied levels; 0 = chosen per level
                               * (solver/rr_choose.h), in admission and plan */
    int threads;              /* rtp_part_best: 0 = OpenMP default */
    rtp_limits limits;
    /* Progress of long runs (optional, NULL = none), in placements, as
     * increments: a packing run announces its tasks when it starts
     * (`planned`; rtp_part_best all of its candidates' at once) and counts
     * them as they are placed or left unassigned (`placed`, every 1024 and
     * at its end). rtp_part_best calls it from its OpenMP threads at once:
     * it must be thread-safe. rtp_ilp_solve's warm start (rtp_part_best on
     * its opts.part) reports through it too; the ILP's search reports
     * nothing. */
    void (*progress)(void *ctx, uint64_t planned, uint64_t placed);
    void *progress_ctx;
} rtp_part_opts;

rtp_part_opts rtp_part_opts_default(void);

/* Packs ts's tasks on cpus[0..n_cpus-1] with one placement and order.
 * *plan receives every CPU and every task (placed or unassigned) with FP
 * priorities and response times; plan->feasible as docs/spec.md "rtpack
 * partition" defines it.
 *
 * Rules (deterministic): tasks are taken in the order's sequence, ties by
 * input order; CPUs are scanned by increasing Linux id. A CPU admits a task
 * when it is in the task's affinity, the CPU's utilization with the task
 * stays <= capacity (exact), and the admission test accepts the CPU's tasks
 * plus this one. FF takes the first admitting CPU; BF the admitting CPU with
 * the largest load (least room) by fit_measure, WF the smallest, ties to the
 * lowest id; NF (next fit [Joh74]) never returns to a CPU it left. A task
 * no CPU admits is unassigned. Tasks are listed per CPU and in `unassigned`
 * in input order. Every CPU is then checked with the exact test of the
 * policy (FP: rtp_fp_assign by opts->priority, then rtp_fp_rta).
 * RTP_EINPUT (path "tasks[i].affinity") when an affinity names a CPU not in
 * cpus[]; RTP_ELIMIT when an exact test hits a limit. */
rtp_status rtp_part_pack(const rtp_taskset *ts, const int *cpus, size_t n_cpus,
                         const rtp_part_opts *opts, rtp_plan *plan,
                         rtp_diag *diag);

/* The input rules of rtp_part_pack, rtp_part_best and the ILP: RTP_EINPUT
 * for no CPUs, a policy other than EDF/FP, an unknown placement or order, a
 * negative capacity, a task without a priority under FP with
 * RTP_PRIO_GIVEN ("tasks[i].priority"), or an affinity naming a CPU not in
 * cpus[0..n_cpus-1] ("tasks[i].affinity", "CPU c is not on the platform"). */
rtp_status rtp_part_check_input(const rtp_taskset *ts, const int *cpus, size_t n_cpus,
                                const rtp_part_opts *opts, rtp_diag *diag);

/* Every placement x order; the feasible plan with the smallest largest
 * per-CPU utilization, ties to the first in placement-major order. When no
 * candidate is feasible: the one with the fewest unassigned tasks (ties to
 * the first). Candidates run in an OpenMP loop (opts->threads threads, 0 =
 * default) into per-index slots reduced in index order, so the result does
 * not depend on the thread count. A candidate that hits RTP_ELIMIT is left
 * out when another is feasible; otherwise the limit is returned. */
rtp_status rtp_part_best(const rtp_taskset *ts, const int *cpus, size_t n_cpus,
                         const rtp_part_opts *opts, rtp_plan *plan,
                         rtp_diag *diag);

/* Why an unassigned task of a plan could not be placed, for `--explain`. */
typedef enum rtp_part_reason {
    RTP_MISS_NO_CPU = 0, /* its affinity allows no CPU of the plan */
    RTP_MISS_CAPACITY,   /* the closest CPU's utilization would pass capacity */
    RTP_MISS_TEST,       /* the exact test of the policy rejects the closest CPU */
    RTP_MISS_HEURISTIC,  /* the closest CPU would take it: the heuristic did not
                          * try it (next fit, or a bound admission test) */
    RTP_MISS_ALONE,      /* it fails the exact test alone on an empty CPU: no
                          * CPU count and no method places it (the terms below
                          * say what breaks its deadline) */
    RTP_MISS_CAPACITY_ALONE /* its utilization alone passes capacity */
} rtp_part_reason;

typedef struct rtp_part_miss {
    rtp_part_reason reason;
    size_t bin;            /* closest bin (index into plan->bins), unless NO_CPU
                            * or *_ALONE */
    double load_after;     /* display only: that CPU's utilization with the task
                            * (effective: C' / T with the plan's overheads); alone
                            * for RTP_MISS_CAPACITY_ALONE */
    int has_first_miss;    /* EDF, RTP_MISS_TEST: smallest t with dbf(t) > t */
    rtp_ns first_miss_ns;
    const char *late_task; /* FP, RTP_MISS_TEST: a task (name in the plan) that
                            * misses its deadline under deadline-monotonic order */
    /* The task's own terms (docs/spec.md "Real-system terms"), set for every
     * reason but NO_CPU: J' = jitter + release_latency, C' = wcet + 2 x
     * context_switch, its given blocking. */
    rtp_ns jitter_eff_ns, wcet_eff_ns, blocking_ns;
} rtp_part_miss;

/* Explains plan->unassigned[k], the binding cause first: an affinity that
 * allows no CPU; a task that fails the exact test alone on an empty CPU
 * (RTP_MISS_ALONE: its own J' and C' break its deadline, so more CPUs or
 * another method cannot help); a task whose utilization alone passes
 * capacity; else the closest CPU (the one in the task's affinity whose
 * utilization with the task is smallest, exact, ties to the lowest id) and
 * why it refused (capacity or the exact test with the tasks there), or that
 * it would take it (the heuristic's choice). */
rtp_status rtp_part_explain(const rtp_plan *plan, const rtp_part_opts *opts,
                            size_t k, rtp_part_miss *miss, rtp_diag *diag);

/* `--explain` of a feasible plan (docs/spec.md "rtpack partition"): per task
 * of one-CPU bin j, the bound the analysis proves, bound[i] in ns. FP: its
 * worst-case response time under the plan's priorities (the plan's own).
 * EDF: the shortest deadline it could have, every other task unchanged,
 * with the CPU still passing the exact processor-demand test [Bar06]
 * (binary search: the demand only grows as one deadline shrinks, so the
 * verdict is monotone in it); it is at most its deadline. The slack is
 * deadline - bound. RTP_EINPUT for a cluster of 2+ CPUs (its global tests
 * give no per-task bound) or a bin that does not pass as it is. */
rtp_status rtp_part_bounds(const rtp_plan *plan, const rtp_part_opts *opts, size_t j,
                           rtp_ns *bound, rtp_diag *diag);

/* The tied priority levels of one-CPU FP bin j and why each runs
 * SCHED_FIFO or SCHED_RR (`partition`'s table and --explain): rtp_rr_choose
 * on the bin's effective tasks with the plan's priorities and SCHED_RR
 * terms, which repeats the choice the plan was made with. levels: at least
 * bin->n_tasks entries; *n_levels their count (0 when no level is tied).
 * RTP_EINPUT for a cluster of 2+ CPUs, an EDF plan or one with shared
 * resources (none is chosen there); RTP_ELIMIT as the analysis. */
rtp_status rtp_part_ties(const rtp_plan *plan, const rtp_part_opts *opts, size_t j,
                         rtp_rr_level *levels, size_t *n_levels, rtp_diag *diag);

/* --sensitivity on a plan (docs/spec.md "Sensitivity"; solver/sensitivity.h):
 * every placed task's wcet_max and every non-empty bin's critical scaling
 * factor, each bin analysed alone with the plan's policy, opts->priority
 * (OPA re-run per bin) and overheads by the exact test (the --capacity cap is
 * not a schedulability condition and is not applied); plan->scaling = the
 * minimum over the bins (left out when every bin is empty). A cluster of
 * 2+ CPUs is RTP_ELIMIT (solver/sensitivity.h). */
rtp_status rtp_part_sensitivity(rtp_plan *plan, const rtp_part_opts *opts, rtp_diag *diag);

RTP_API_END
#endif
