/* ilp/ilp.h — exact partitioning as an integer program solved by GLPK
 * (x[i][j] = 1 when task i runs on CPU j), with lazily added demand rows
 * (EDF, [BB08]) and combinatorial Benders no-good cuts [CF06] (EDF
 * and FP), every GLPK answer re-verified with the exact integer tests; the model
 * is a relaxation of the exact problem, so "infeasible" is a proof. The
 * formulation and why FP uses cuts rather than a priority MILP: ilp/ilp.c.
 * Only ilp/glpk_*.c includes <glpk.h>.
 *
 * Status: OPTIMAL = a verified plan, optimal for the objective (balanced:
 * up to GLPK's objective tolerance, about 1e-7 relative, on the
 * utilization sums; the plan's feasibility itself is exact); INFEASIBLE = no partition exists; TIME_LIMIT = stopped, with
 * plan->feasible = 1 only when a verified plan is in hand (never reported
 * as infeasible). Units: times in ns, time_limit_s in wall-clock seconds.
 * Ownership: the plan written is the caller's. Thread-safety: no globals;
 * GLPK keeps one environment per thread, so solves may run in OpenMP threads. */
#ifndef RTP_ILP_H
#define RTP_ILP_H

#include "heuristics/partition.h"

typedef enum rtp_ilp_objective {
    RTP_ILP_FEASIBILITY = 0, /* any feasible partition (default) */
    RTP_ILP_MIN_CPUS,        /* fewest CPUs used */
    RTP_ILP_BALANCED         /* smallest largest per-CPU utilization */
} rtp_ilp_objective;

typedef enum rtp_ilp_status {
    RTP_ILP_OPTIMAL = 0,     /* solved: plan feasible (and optimal for the objective) */
    RTP_ILP_INFEASIBLE,      /* proof that no partition exists */
    RTP_ILP_TIME_LIMIT       /* stopped: plan->feasible tells whether one is in hand */
} rtp_ilp_status;

typedef struct rtp_ilp_opts {
    rtp_part_opts part;       /* policy, priority rule, capacity, limits */
    rtp_ilp_objective objective;
    double time_limit_s;      /* default 60 */
    const char *write_lp_path;/* write the final model (CPLEX LP) here, or NULL */
    int symmetry_breaking;    /* default 1 */
    int warm_start;           /* default 1: start from the best heuristic plan */
    int lp_rounding;          /* default 1: LP-guided first fit inside branch and bound */
} rtp_ilp_opts;

typedef struct rtp_ilp_stats {
    int rounds;               /* solve / verify / cut rounds (GLPK solves) */
    int cuts;                 /* rows added lazily */
    double seconds;
    int rows, cols;           /* size of the final model */
} rtp_ilp_stats;

rtp_ilp_opts rtp_ilp_opts_default(void);
const char *rtp_ilp_status_name(rtp_ilp_status status);     /* "optimal", ... */
const char *rtp_ilp_objective_name(rtp_ilp_objective obj);  /* "feasibility", "min-cpus", "balanced" */
int rtp_ilp_objective_parse(const char *name, rtp_ilp_objective *out);

/* Solves; *plan gets method "ilp" and status set; every task is placed
 * (feasible plan) or unassigned (no verified plan). `stats` may be NULL.
 * RTP_EINPUT as rtp_part_pack (no CPUs, bad policy, affinity off the
 * platform) or for a --write-lp path that exists and is not a regular file;
 * RTP_ELIMIT when an exact test hits a resource limit. */
rtp_status rtp_ilp_solve(const rtp_taskset *ts, const int *cpus, size_t n_cpus,
                         const rtp_ilp_opts *opts, rtp_plan *plan,
                         rtp_ilp_status *status, rtp_ilp_stats *stats,
                         rtp_diag *diag);

#endif
