/* ilp/ilp_internal.h — shared state of one ILP solve, split over three files:
 * ilp_model.c builds the GLPK model (ilp/glpk_model.h) and the warm-start
 * incumbent, ilp_verify.c checks CPUs with the exact integer tests and turns
 * failures into cuts and plans, ilp_round.c is the primal heuristic inside
 * branch and bound, ilp.c runs the solve / verify / cut loop.
 *
 * Relaxation rule: every row is valid for every exactly feasible partition
 * (coefficients rounded down, right-hand sides rounded up), so GLPK's
 * "infeasible" is a proof; GLPK's solutions are only candidates.
 * Ownership: an ilp_ctx owns its arrays and its model (ilp_ctx_free).
 * Thread-safety: one context per solve, no globals. */
#ifndef RTP_ILP_INTERNAL_H
#define RTP_ILP_INTERNAL_H

#include "ilp/glpk_model.h"
#include "ilp/ilp.h"

typedef struct ilp_ctx {
    const rtp_task *tasks;    /* effective tasks (models/effective.h): every
                               * row and test reads C' and J' */
    const rtp_task *declared; /* the input's tasks: what plans carry */
    rtp_task *eff;            /* owned storage of `tasks` */
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
    int *round_assign;        /* n: ilp_round's assignment */
    size_t *round_members;    /* m * n: ilp_round's tasks per CPU */
    size_t *round_count;      /* m */
    size_t *round_cpu;        /* m: candidate CPUs of one task */
    int *row_cols;            /* n + 1 */
    double *row_vals;         /* n + 1 */
    rtp_ilp_stats *stats;
    rtp_diag *diag;
} ilp_ctx;

/* Safe rounding of GLPK coefficients: a quotient of two int64 computed in
 * doubles is within 3 ulps (< 1e-15 relative) of the truth, so scaling it by
 * ILP_ROUND_DOWN rounds it down; right-hand sides get ILP_SLACK on top. */
#define ILP_ROUND_DOWN (1.0 - 1e-12)
#define ILP_SLACK 1e-9

#define ILP_AT(c, i, j) ((size_t)(i) * (c)->m + (size_t)(j))

/* ilp_verify.c */
rtp_status ilp_set_fails(ilp_ctx *c, const size_t *idx, size_t k, int *fails);
rtp_status ilp_cut_cpu(ilp_ctx *c, const size_t *idx, size_t k);
/* All CPUs of `assign` (task -> CPU index); *failed counts failing CPUs, and
 * with `cut` each failing CPU gets its cuts. */
rtp_status ilp_verify(ilp_ctx *c, const int *assign, int cut, int *failed);
rtp_status ilp_plan(ilp_ctx *c, const int *assign, rtp_plan *plan);

/* ilp_round.c: rtp_glpk_heuristic over an ilp_ctx */
int ilp_round(void *ctx, const double *lp, double *x);

/* ilp_model.c */
rtp_status ilp_allowed(ilp_ctx *c, int *some_task_homeless);
rtp_status ilp_build(ilp_ctx *c);
/* Incumbent vector (one value per column) of a verified assignment,
 * permuted into the symmetry-breaking order. */
rtp_status ilp_incumbent(ilp_ctx *c, const int *assign, double *x);

#endif
