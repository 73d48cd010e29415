/* ilp/ilp.h — exact partitioning as an integer program solved by GLPK
 * (x[i][j] = 1 when task i runs on CPU j), with lazily added demand rows
 * (EDF, [BB08]) and combinatorial Benders no-good cuts [CF06] (EDF
 * and FP), every GLPK answer re-verified with the exact integer tests; the model
 * is a relaxation of the exact problem, so "infeasible" is a proof. The
 * formulation and why FP uses cuts rather than a priority MILP: ilp/ilp.c.
 * Only ilp/glpk_*.c includes <glpk.h>.
 *
 * Before GLPK, exact pre-checks (ilp/ilp_proof.c) look for a short reason
 * why no partition exists; INFEASIBLE always comes with a certificate in
 * plan->proof (kinds below; "search" when only GLPK's exhausted branch and
 * bound proves it).
 *
 * Status: OPTIMAL = a verified plan, optimal for the objective (balanced:
 * up to GLPK's objective tolerance, about 1e-7 relative, on the
 * utilization sums; the plan's feasibility itself is exact); INFEASIBLE =
 * no partition exists; TIME_LIMIT = stopped, with plan->feasible = 1 only
 * when a verified plan is in hand (never reported as infeasible). Units: times in ns, time_limit_s in wall-clock seconds.
 * Ownership: the plan written is the caller's. Thread-safety: no globals;
 * GLPK keeps one environment per thread, so solves may run in OpenMP threads. */
#ifndef RTP_ILP_H
#define RTP_ILP_H

#include "heuristics/partition.h"
#include "models/api.h"

RTP_API_BEGIN

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

/* Certificates of infeasibility, each a proof on its own ("tasks" = the
 * tasks it names, N(S) = the CPUs a set S may use: affinity, and CPUs only
 * where the task passes the exact test alone; "conflict" = two tasks fail
 * the exact test, or exceed the capacity, on one CPU together):
 *   task-alone      one task passes the exact test on no CPU it may use;
 *   utilization     the exact total utilization exceeds capacity x CPUs;
 *   affinity        a set S of tasks with U(S) > capacity x |N(S)| (Hall's
 *                   condition for the fractional assignment, found exactly
 *                   as a minimum cut);
 *   conflict-clique k tasks pairwise in conflict that can use fewer than k
 *                   CPUs (a pigeonhole; with affinity, Hall's condition for
 *                   matching the clique to distinct CPUs);
 *   clique-volume   a clique K (tasks[0..clique-1]) whose tasks hold |K|
 *                   distinct CPUs, and tasks R in conflict with all of K
 *                   whose utilization exceeds capacity x the CPUs left;
 *   search          GLPK's branch and bound exhausted every partition. */
typedef enum rtp_ilp_proof_kind {
    RTP_PROOF_NONE = 0,
    RTP_PROOF_TASK_ALONE,
    RTP_PROOF_UTILIZATION,
    RTP_PROOF_AFFINITY,
    RTP_PROOF_CLIQUE,
    RTP_PROOF_CLIQUE_VOLUME,
    RTP_PROOF_SEARCH
} rtp_ilp_proof_kind;

#define RTP_PROOF_BIT(kind) (1u << (kind))
/* The pre-checks run by default: every kind but search. */
#define RTP_PRECHECKS_ALL                                                              \
    (RTP_PROOF_BIT(RTP_PROOF_TASK_ALONE) | RTP_PROOF_BIT(RTP_PROOF_UTILIZATION) |     \
     RTP_PROOF_BIT(RTP_PROOF_AFFINITY) | RTP_PROOF_BIT(RTP_PROOF_CLIQUE) |             \
     RTP_PROOF_BIT(RTP_PROOF_CLIQUE_VOLUME))

/* GLPK's own cut generators (glp_iocp), for rtp_ilp_opts.glpk_cuts. */
#define RTP_GLPK_CUTS_CLIQUE 1u
#define RTP_GLPK_CUTS_COVER 2u
#define RTP_GLPK_CUTS_GOMORY 4u
#define RTP_GLPK_CUTS_MIR 8u

typedef struct rtp_ilp_opts {
    rtp_part_opts part;       /* policy, priority rule, capacity, limits */
    rtp_ilp_objective objective;
    double time_limit_s;      /* default 60 */
    const char *write_lp_path;/* write the final model (CPLEX LP) here, or NULL */
    int symmetry_breaking;    /* default 1 */
    int warm_start;           /* default 1: start from the best heuristic plan */
    int lp_rounding;          /* default 1: LP-guided first fit inside branch and bound */
    unsigned prechecks;       /* RTP_PROOF_BIT(kind) runs that pre-check; default
                               * RTP_PRECHECKS_ALL (task-alone always runs: a task
                               * with no CPU leaves the model without a column) */
    int conflict_rows;        /* default 1: clique rows of the conflict graph */
    int exact_nodes;          /* default 1: at GLPK's nodes, the exact utilization
                               * relaxation (a max-flow in integers) prunes what
                               * the rounded rows cannot see (ilp/ilp_flow.c) */
    unsigned glpk_cuts;       /* RTP_GLPK_CUTS_* (default: see ilp.c) */
    int colocate;             /* default 0; 1: every resource's users share one CPU
                               * (co-location rows), which a set with requests
                               * needs: the model is then the co-located partitions,
                               * every resource local (PCP/SRP/FMLP+ per CPU), and
                               * "infeasible" a proof for that model. Turns the warm
                               * start and the LP rounding off (their plans need not
                               * co-locate). */
} rtp_ilp_opts;

typedef struct rtp_ilp_stats {
    int rounds;               /* solve / verify / cut rounds (GLPK solves) */
    int cuts;                 /* rows added lazily */
    double seconds;
    double precheck_seconds;  /* conflict graph and pre-checks */
    int rows, cols;           /* size of the final model */
    long conflicts;           /* conflicting task pairs found */
    int node_cuts;            /* rows from the exact node check (exact_nodes) */
    int cliques;              /* cliques in the cover (rows: one per CPU each) */
    rtp_ilp_proof_kind proof; /* the certificate kind when infeasible, else NONE */
} rtp_ilp_stats;

rtp_ilp_opts rtp_ilp_opts_default(void);
const char *rtp_ilp_status_name(rtp_ilp_status status);     /* "optimal", ... */
const char *rtp_ilp_proof_name(rtp_ilp_proof_kind kind);  /* "task-alone", ...; "" for NONE */

/* Solves; *plan gets method "ilp" and status set; every task is placed
 * (feasible plan) or unassigned (no verified plan); with INFEASIBLE,
 * plan->proof holds the certificate (task names, CPU ids, one sentence). `stats` may be NULL.
 * RTP_EINPUT as rtp_part_pack (no CPUs, bad policy, affinity off the
 * platform) or for a --write-lp path that exists and is not a regular file;
 * RTP_ELIMIT when an exact test hits a resource limit. */
rtp_status rtp_ilp_solve(const rtp_taskset *ts, const int *cpus, size_t n_cpus,
                         const rtp_ilp_opts *opts, rtp_plan *plan,
                         rtp_ilp_status *status, rtp_ilp_stats *stats,
                         rtp_diag *diag);

/* The exact pre-checks alone (opts->prechecks; no GLPK): *proof receives a
 * certificate of infeasibility (proof->kind non-empty) or stays empty when
 * none of them proves one. The caller frees it (rtp_plan_proof_free). The
 * same input rules and errors as rtp_ilp_solve. Cheap: O(n^2) exact pair
 * tests for the conflict graph, an exact max-flow when affinities restrict. */
rtp_status rtp_ilp_precheck(const rtp_taskset *ts, const int *cpus, size_t n_cpus,
                            const rtp_ilp_opts *opts, rtp_plan_proof *proof,
                            rtp_ilp_stats *stats, rtp_diag *diag);

RTP_API_END
#endif
