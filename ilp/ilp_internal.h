/* ilp/ilp_internal.h — shared state of one ILP solve, split over files:
 * ilp_model.c builds the GLPK model (ilp/glpk_model.h) and the warm-start
 * incumbent, ilp_verify.c checks CPUs with the exact integer tests and turns
 * failures into cuts and plans, ilp_round.c is the primal heuristic inside
 * branch and bound, ilp_conflict.c the conflict graph and its cliques,
 * ilp_proof.c the exact pre-checks and certificates, ilp.c runs the
 * solve / verify / cut loop.
 *
 * Relaxation rule: every row is valid for every exactly feasible partition
 * (coefficients rounded down, right-hand sides rounded up), so GLPK's
 * "infeasible" is a proof; GLPK's solutions are only candidates.
 * Ownership: an ilp_ctx owns its arrays and its model (ilp_ctx_free).
 * Thread-safety: one context per solve, no globals. */
#ifndef RTP_ILP_INTERNAL_H
#define RTP_ILP_INTERNAL_H

#include <stdint.h>
#include <time.h>

#include "ilp/glpk_model.h"
#include "ilp/ilp.h"

typedef struct ilp_flow ilp_flow;

typedef struct ilp_ctx {
    const rtp_task *tasks;    /* effective tasks (models/effective.h): every
                               * row and test reads C' and J' */
    const rtp_task *declared; /* the input's tasks: what plans carry */
    rtp_task *eff;            /* owned storage of `tasks` */
    int effective;            /* overheads make C' differ from wcet (explanations say so) */
    int colocate;             /* co-location rows: the set has requests (opts->colocate) */
    size_t n, m;              /* tasks, CPUs */
    const int *cpus;          /* Linux ids of the m CPUs */
    const rtp_ilp_opts *opts;
    rtp_test test;            /* exact uniprocessor test of the policy */
    rtp_test edf;             /* exact EDF with first_miss: source of demand rows */
    int *allowed;             /* n*m: task i may run on CPU j (affinity, alone-feasible) */
    double *util;             /* n: u_i rounded down (GLPK coefficient) */
    double cap_rhs;           /* capacity rounded up */
    rtp_glpk *g;
    int *xcol;                /* n*m: column of x[i][j], -1 when not allowed */
    int *ycol;                /* m: min-cpus "CPU used" columns, else NULL */
    int zcol;                 /* balanced: largest utilization column, else -1 */
    int *sym_class;           /* m: class id of interchangeable CPUs */
    size_t *order;            /* n: tasks by decreasing utilization (symmetry ranks) */
    rtp_ns *points;           /* demand-row points already added */
    size_t n_points, cap_points;
    /* scratch */
    rtp_task *sub;            /* n: tasks of one CPU */
    size_t *sub_idx;          /* n */
    int *prio;                /* n */
    rtp_ns *rt;               /* n */
    unsigned char *rr;        /* n: each task's policy (solver/rr_choose.h) */
    int *round_assign;        /* n: ilp_round's assignment */
    size_t *round_members;    /* m * n: ilp_round's tasks per CPU */
    size_t *round_count;      /* m */
    size_t *round_cpu;        /* m: candidate CPUs of one task */
    int *row_cols;            /* max(n, m) + 1 */
    double *row_vals;         /* max(n, m) + 1 */
    double start;             /* wall clock (ilp_now) at the call */
    double deadline;          /* wall clock when the time limit passes; 0 = none */
    /* conflict graph (ilp_conflict.c): bit b of row a = tasks a and b
     * conflict (fail together on one CPU); NULL when not built */
    uint64_t *adj;            /* n rows of `words` words */
    uint64_t *adj_test;       /* same shape: the pair fails the exact test itself
                               * (not only the capacity), for the explanation */
    size_t words;
    size_t *clique_members;   /* the clique cover, cliques back to back */
    size_t *clique_start;     /* n_cliques + 1 offsets into clique_members */
    size_t cap_clique_start;  /* its capacity (models/grow.h) */
    size_t n_cliques;
    size_t *max_clique;       /* the largest clique found */
    size_t n_max_clique;
    /* certificate (ilp_proof.c) */
    rtp_ilp_proof_kind proof;
    size_t *proof_tasks;      /* task indices */
    size_t n_proof_tasks;
    size_t proof_clique;      /* clique-volume: the first proof_clique tasks */
    size_t *proof_cpus;       /* CPU indices */
    size_t n_proof_cpus;
    char explanation[640];
    /* exact relaxation (ilp_flow.c) and the node check's scratch */
    ilp_flow *flow;
    int *open;                /* n * m */
    int *fixed;               /* n */
    size_t *cut_tasks;        /* n */
    int *cut_cpus;            /* m */
    rtp_ilp_stats *stats;     /* the caller's, or own_stats */
    rtp_ilp_stats own_stats;
    rtp_diag *diag;
} ilp_ctx;

static inline int ilp_bit(const uint64_t *row, size_t k)
{
    return (int)((row[k >> 6] >> (k & 63)) & 1u);
}

static inline void ilp_set_bit(uint64_t *row, size_t k)
{
    row[k >> 6] |= (uint64_t)1 << (k & 63);
}

#define ILP_ROW(c, set, i) ((set) + (size_t)(i) * (c)->words)

/* Wall-clock seconds (CLOCK_MONOTONIC): inline, so the files that time
 * their steps (ilp.c, ilp_conflict.c) need not call into each other. */
static inline double ilp_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Safe rounding of GLPK coefficients: a quotient of two int64 computed in
 * doubles is within 3 ulps (< 1e-15 relative) of the truth, so scaling it by
 * ILP_ROUND_DOWN rounds it down; right-hand sides get ILP_SLACK on top. */
#define ILP_ROUND_DOWN (1.0 - 1e-12)
#define ILP_SLACK 1e-9

#define ILP_AT(c, i, j) ((size_t)(i) * (c)->m + (size_t)(j))

/* ilp_verify.c */
/* On every CPU j where at least min_len of the tasks idx[0..k-1] may run:
 * the row sum of their x[i][j] <= rhs (0/1 coefficients, exact), named
 * "<prefix>_<tag>_<j>"; *added counts the rows. */
rtp_status ilp_set_rows(ilp_ctx *c, const size_t *idx, size_t k, size_t min_len, double rhs,
                        const char *prefix, size_t tag, int *added);
rtp_status ilp_set_fails(ilp_ctx *c, const size_t *idx, size_t k, int *fails);
rtp_status ilp_cut_cpu(ilp_ctx *c, const size_t *idx, size_t k);
/* All CPUs of `assign` (task -> CPU index); *failed counts failing CPUs, and
 * with `cut` each failing CPU gets its cuts. */
rtp_status ilp_verify(ilp_ctx *c, const int *assign, int cut, int *failed);
rtp_status ilp_plan(ilp_ctx *c, const int *assign, rtp_plan *plan);
/* A plan of a set with requests (c->colocate; its resources already set): per task
 * the computed blocking, spin, suspension and binding resource of the whole
 * placement (solver/locks.h), as partition's other methods write them. */
rtp_status ilp_plan_locks(ilp_ctx *c, const rtp_taskset *ts, const int *assign, rtp_plan *plan);

/* ilp_round.c: rtp_glpk_heuristic over an ilp_ctx */
int ilp_round(void *ctx, const double *lp, double *x);

/* ilp_conflict.c: the conflict graph (pairs tested with ilp_set_fails; a
 * pair whose test hits a resource limit counts as no conflict), then the
 * clique cover and the largest clique. Stops early, with the graph so far
 * (still sound: fewer edges), when c->deadline passes. */
rtp_status ilp_conflicts(ilp_ctx *c);
/* Clique rows: sum over a clique of x[i][j] <= 1 on every CPU j. */
rtp_status ilp_clique_rows(ilp_ctx *c);

/* ilp_proof.c: the pre-checks of opts->prechecks in order (task-alone,
 * utilization, affinity, conflict-clique, clique-volume); sets c->proof and
 * its tasks / CPUs / explanation for the first that proves infeasibility.
 * ilp_prove_search records the "search" certificate; ilp_proof_write copies
 * the certificate (if any) into *proof. */
rtp_status ilp_prove(ilp_ctx *c);
rtp_status ilp_prove_search(ilp_ctx *c);
rtp_status ilp_proof_write(const ilp_ctx *c, rtp_plan_proof *proof);

/* ilp_flow.c: the exact fractional relaxation as a max-flow in integers
 * (GMP) over the common denominator of the utilizations and the capacity.
 * ilp_flow_cut: open[i * m + j] = task i may go to CPU j, fixed[i] = the CPU
 * task i is fixed on or -1; returns 1 when no fractional assignment exists,
 * with set[0..*n_set-1] the unfixed tasks S and in_cut[j] the CPUs C of a
 * violated cut: N(S) within C and U(S) + fixed load on C > capacity x |C|
 * (S may be empty when tasks fixed on one CPU overfill it); else 0. */
rtp_status ilp_flow_create(const ilp_ctx *c, ilp_flow **out);
void ilp_flow_free(ilp_flow *fl);
int ilp_flow_cut(ilp_flow *fl, const int *open, const int *fixed, size_t *set, size_t *n_set,
                 int *in_cut);

/* ilp_verify.c: rtp_glpk_rowgen over an ilp_ctx — at a GLPK node whose
 * rounded capacity rows are tight, the exact relaxation with the node's
 * fixings; when it fails, the row "not all of the fixings that matter":
 * sum over fixed-to-1 pairs on C of x - sum over fixed-to-0 pairs of S
 * outside C of x <= (their count) - 1, with 0/1 coefficients (exact). */
int ilp_node_row(void *ctx, const double *lb, const double *ub, const double *x, int *cols,
                 double *vals, double *rhs);

/* ilp_model.c */
rtp_status ilp_allowed(ilp_ctx *c, int *some_task_homeless);
rtp_status ilp_build(ilp_ctx *c);
/* Incumbent vector (one value per column) of a verified assignment,
 * permuted into the symmetry-breaking order. */
rtp_status ilp_incumbent(ilp_ctx *c, const int *assign, double *x);

#endif
