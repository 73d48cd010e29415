/* ilp/glpk_model.h — the only door to GLPK (the only file that includes
 * <glpk.h> is glpk_model.c): a 0/1 + continuous minimisation model built row
 * by row, solved with glp_simplex + glp_intopt under a wall-clock limit, and
 * written in CPLEX LP format.
 *
 * GLPK aborts the process on a bad index or count (its xerror), so every call
 * here validates its arguments first (column range, duplicate columns, finite
 * numbers) and runs GLPK under glp_error_hook: should GLPK still fail, the
 * hook longjmps back, glp_free_env() releases the thread's GLPK state and the
 * model turns "dead" (every later call returns RTP_EINTERNAL). Output is
 * silenced (glp_term_out, msg_lev). GLPK deletes an output file before
 * writing it, so rtp_glpk_write_lp hands it a scratch file of our own and
 * puts the text in place through models/fileio.h, as every rtpack output.
 *
 * Columns and rows are 0-based here. Ownership: rtp_glpk_create allocates,
 * rtp_glpk_free releases. Thread-safety: GLPK keeps one environment per
 * thread (docs/platform-notes.md), so distinct models may live in distinct
 * threads; one model must stay in one thread. */
#ifndef RTP_GLPK_MODEL_H
#define RTP_GLPK_MODEL_H

#include "models/base.h"

typedef struct rtp_glpk rtp_glpk;

typedef enum rtp_glpk_outcome {
    RTP_GLPK_OPTIMAL = 0,   /* proven optimal integer solution */
    RTP_GLPK_INFEASIBLE,    /* proven: no integer solution */
    RTP_GLPK_TIME_SOLUTION, /* time limit with an integer incumbent */
    RTP_GLPK_TIME_NONE      /* time limit, no integer solution */
} rtp_glpk_outcome;

rtp_status rtp_glpk_create(rtp_glpk **out);
void rtp_glpk_free(rtp_glpk *g);

/* Appends a column: binary (bounds 0..1) or continuous in [lb, ub], with
 * objective coefficient `obj`; *index receives its 0-based index. */
rtp_status rtp_glpk_add_col(rtp_glpk *g, const char *name, int binary,
                            double lb, double ub, double obj, int *index);

/* Appends the row sum_k vals[k] * x[cols[k]] <= rhs (or == rhs with
 * `equal`). Columns must exist and be distinct; numbers finite. */
rtp_status rtp_glpk_add_row(rtp_glpk *g, const char *name, int len,
                            const int *cols, const double *vals, int equal,
                            double rhs);

/* Branching priority of a column (default 0): branch and bound branches on
 * the fractional column of highest priority, up-branch first. Setting any
 * priority replaces GLPK's own branching rule. */
rtp_status rtp_glpk_set_priority(rtp_glpk *g, int col, int priority);

/* GLPK's own cut generators in glp_intopt (glp_iocp clq_cuts, cov_cuts,
 * gmi_cuts, mir_cuts); all off by default. */
void rtp_glpk_set_cuts(rtp_glpk *g, int clique, int cover, int gomory, int mir);

int rtp_glpk_rows(const rtp_glpk *g);
int rtp_glpk_cols(const rtp_glpk *g);

/* A primal heuristic: from a node's LP solution `lp` (one value per column)
 * write an integer solution into `x` and return 1, or return 0. Like the
 * incumbent below, x must satisfy every row: GLPK does not check. */
typedef int (*rtp_glpk_heuristic)(void *ctx, const double *lp, double *x);

/* Lazy rows inside branch and bound (GLPK's GLP_IROWGEN, at every node whose
 * LP relaxation is solved): given the node's column bounds lb / ub and LP
 * solution x (one value per column), write one row sum_k vals[k] *
 * x[cols[k]] <= *rhs (at most one entry per column) and return its length,
 * or return -1 for none. The row must be valid for the whole model. */
typedef int (*rtp_glpk_rowgen)(void *ctx, const double *lb, const double *ub,
                               const double *x, int *cols, double *vals,
                               double *rhs);
void rtp_glpk_set_rowgen(rtp_glpk *g, rtp_glpk_rowgen fn, void *ctx);

/* Minimises. time_limit_s <= 0 means no limit. `incumbent` (one value per
 * column, or NULL) is a feasible integer solution handed to the branch and
 * bound as its first incumbent; `heur` (or NULL) is offered node LP
 * solutions now and then. */
rtp_status rtp_glpk_solve(rtp_glpk *g, double time_limit_s,
                          const double *incumbent, rtp_glpk_heuristic heur,
                          void *heur_ctx, rtp_glpk_outcome *outcome);

/* Value of a column in the last integer solution (solve said OPTIMAL or
 * TIME_SOLUTION). */
double rtp_glpk_value(const rtp_glpk *g, int col);

/* Writes the model in CPLEX LP format to `path` (rtp_write_file: replaced
 * whole, mode 0644 or the old file's). RTP_EINPUT when `path` is neither a
 * regular file nor a new path (rtp_output_check); RTP_EINTERNAL naming the
 * path and the reason when it cannot be written (a full disk). */
rtp_status rtp_glpk_write_lp(rtp_glpk *g, const char *path, rtp_diag *diag);

/* The check rtp_glpk_write_lp makes before writing (rtp_output_check), for
 * callers that want to refuse a bad path before a long solve. */
rtp_status rtp_glpk_lp_path_ok(const char *path, rtp_diag *diag);

/* Reads an LP file back with GLPK (round-trip check) and reports its row,
 * column and binary-column counts. RTP_EINPUT when GLPK cannot read it. */
rtp_status rtp_glpk_read_lp_counts(const char *path, int *rows, int *cols,
                                   int *binaries, rtp_diag *diag);

#endif
