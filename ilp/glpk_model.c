/* ilp/glpk_model.c — see glpk_model.h. The only file that includes <glpk.h>. */
#include "ilp/glpk_model.h"
#include "models/fileio.h"

#include <errno.h>
#include <glpk.h>
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

struct rtp_glpk {
    glp_prob *P;   /* NULL once dead */
    int rows, cols;
    int *ind;      /* 1-based scratch for one row: cols + 1 entries */
    double *val;
    int *stamp;    /* per column: last row that used it (duplicate check) */
    int *priority; /* per column branching priority, or NULL (GLPK's choice) */
    int stamp_now;
    int cuts[4];   /* clique, cover, Gomory, MIR: GLP_ON / GLP_OFF */
    rtp_glpk_rowgen rowgen;
    void *rowgen_ctx;
};

/* glp_error_hook target: GLPK must not return from an error, so jump back to
 * the guarded call (GLPK's documented recovery path). */
typedef struct guard {
    jmp_buf env;
    int term_out; /* the thread's previous terminal setting, restored after */
} guard;

static void on_glpk_error(void *info)
{
    longjmp(((guard *)info)->env, 1);
}

static void guard_begin(guard *gd)
{
    gd->term_out = glp_term_out(GLP_OFF);
    glp_error_hook(on_glpk_error, gd);
}

static void guard_end(const guard *gd)
{
    glp_error_hook(NULL, NULL);
    glp_term_out(gd->term_out);
}

/* After a longjmp: GLPK's state in this thread is unusable; free it all. */
static rtp_status die(rtp_glpk *g)
{
    glp_free_env();
    g->P = NULL;
    return RTP_EINTERNAL;
}

rtp_status rtp_glpk_create(rtp_glpk **out)
{
    rtp_glpk *g = calloc(1, sizeof *g);
    if (!g)
        return RTP_ENOMEM;
    guard gd;
    if (setjmp(gd.env)) {
        free(g);
        glp_free_env();
        return RTP_EINTERNAL;
    }
    guard_begin(&gd);
    g->P = glp_create_prob();
    glp_set_prob_name(g->P, "rtpack_partition");
    glp_set_obj_dir(g->P, GLP_MIN);
    guard_end(&gd);
    *out = g;
    return RTP_OK;
}

void rtp_glpk_free(rtp_glpk *g)
{
    if (!g)
        return;
    if (g->P) {
        guard gd;
        if (setjmp(gd.env)) {
            glp_free_env();
        } else {
            guard_begin(&gd);
            glp_delete_prob(g->P);
            guard_end(&gd);
        }
    }
    free(g->ind);
    free(g->val);
    free(g->stamp);
    free(g->priority);
    free(g);
}

int rtp_glpk_rows(const rtp_glpk *g) { return g->rows; }

void rtp_glpk_set_rowgen(rtp_glpk *g, rtp_glpk_rowgen fn, void *ctx)
{
    g->rowgen = fn;
    g->rowgen_ctx = ctx;
}

void rtp_glpk_set_cuts(rtp_glpk *g, int clique, int cover, int gomory, int mir)
{
    g->cuts[0] = clique ? GLP_ON : GLP_OFF;
    g->cuts[1] = cover ? GLP_ON : GLP_OFF;
    g->cuts[2] = gomory ? GLP_ON : GLP_OFF;
    g->cuts[3] = mir ? GLP_ON : GLP_OFF;
}

rtp_status rtp_glpk_set_priority(rtp_glpk *g, int col, int priority)
{
    if (col < 0 || col >= g->cols)
        return RTP_EINTERNAL;
    if (!g->priority && !(g->priority = calloc((size_t)g->cols, sizeof *g->priority)))
        return RTP_ENOMEM;
    g->priority[col] = priority;
    return RTP_OK;
}
int rtp_glpk_cols(const rtp_glpk *g) { return g->cols; }

static int grow(rtp_glpk *g, int cols)
{
    int *ind = realloc(g->ind, (size_t)(cols + 1) * sizeof *ind);
    if (!ind)
        return -1;
    g->ind = ind;
    double *val = realloc(g->val, (size_t)(cols + 1) * sizeof *val);
    if (!val)
        return -1;
    g->val = val;
    int *stamp = realloc(g->stamp, (size_t)cols * sizeof *stamp);
    if (!stamp)
        return -1;
    g->stamp = stamp;
    g->stamp[cols - 1] = 0;
    if (g->priority) {
        int *pr = realloc(g->priority, (size_t)cols * sizeof *pr);
        if (!pr)
            return -1;
        g->priority = pr;
        g->priority[cols - 1] = 0;
    }
    return 0;
}

rtp_status rtp_glpk_add_col(rtp_glpk *g, const char *name, int binary,
                            double lb, double ub, double obj, int *index)
{
    if (!g->P || g->cols == INT_MAX - 1)
        return RTP_EINTERNAL;
    if (!binary && !(isfinite(lb) && isfinite(ub) && lb <= ub))
        return RTP_EINTERNAL;
    if (!isfinite(obj) || (name && strlen(name) > 255))
        return RTP_EINTERNAL;
    if (grow(g, g->cols + 1) != 0)
        return RTP_ENOMEM;
    guard gd;
    if (setjmp(gd.env))
        return die(g);
    guard_begin(&gd);
    int j = glp_add_cols(g->P, 1);
    if (name)
        glp_set_col_name(g->P, j, name);
    if (binary) {
        glp_set_col_kind(g->P, j, GLP_BV);
    } else {
        glp_set_col_kind(g->P, j, GLP_CV);
        glp_set_col_bnds(g->P, j, lb == ub ? GLP_FX : GLP_DB, lb, ub);
    }
    glp_set_obj_coef(g->P, j, obj);
    guard_end(&gd);
    *index = g->cols++;
    return RTP_OK;
}

rtp_status rtp_glpk_add_row(rtp_glpk *g, const char *name, int len,
                            const int *cols, const double *vals, int equal,
                            double rhs)
{
    if (!g->P || len < 0 || len > g->cols || !isfinite(rhs) || g->rows == INT_MAX - 1)
        return RTP_EINTERNAL;
    if (name && strlen(name) > 255)
        return RTP_EINTERNAL;
    g->stamp_now++;
    for (int k = 0; k < len; k++) {
        int c = cols[k];
        if (c < 0 || c >= g->cols || g->stamp[c] == g->stamp_now || !isfinite(vals[k]))
            return RTP_EINTERNAL;
        g->stamp[c] = g->stamp_now;
        g->ind[k + 1] = c + 1;
        g->val[k + 1] = vals[k];
    }
    guard gd;
    if (setjmp(gd.env))
        return die(g);
    guard_begin(&gd);
    int i = glp_add_rows(g->P, 1);
    if (name)
        glp_set_row_name(g->P, i, name);
    glp_set_row_bnds(g->P, i, equal ? GLP_FX : GLP_UP, rhs, rhs);
    glp_set_mat_row(g->P, i, len, g->ind, g->val);
    guard_end(&gd);
    g->rows++;
    return RTP_OK;
}

/* Branch-and-bound callback: hands the caller's incumbent over once, at the
 * first heuristic hook (root node), then offers the caller's rounding
 * heuristic the node's LP solution now and then (at the 1st, 2nd, 4th, ...
 * and every 32nd hook), and branches on the fractional column of highest
 * priority (ties: largest LP value), up-branch first. */
typedef struct tree_info {
    rtp_glpk *g;
    const double *x; /* 1-based incumbent, or NULL */
    int given;
    rtp_glpk_heuristic heur;
    void *heur_ctx;
    double *lp, *sol; /* 0-based scratch for the heuristic, cols entries */
    long hooks;
    double *lb, *ub;  /* 0-based scratch for the row generator */
    int *cols;
} tree_info;

static void heuristic(glp_tree *tree, tree_info *h)
{
    long k = ++h->hooks;
    if ((k & (k - 1)) != 0 && k % 32 != 0)
        return;
    glp_prob *P = glp_ios_get_prob(tree);
    for (int j = 0; j < h->g->cols; j++)
        h->lp[j] = glp_get_col_prim(P, j + 1);
    if (!h->heur(h->heur_ctx, h->lp, h->sol))
        return;
    for (int j = 0; j < h->g->cols; j++) {
        if (!isfinite(h->sol[j]))
            return;
        h->g->val[j + 1] = h->sol[j];
    }
    glp_ios_heur_sol(tree, h->g->val);
}

/* GLP_IROWGEN: offers the node to the caller's row generator and adds the
 * row it writes to the subproblem (GLPK re-solves the node). Rows are
 * checked like rtp_glpk_add_row's: columns in range, no duplicate. */
static void rowgen(glp_tree *tree, tree_info *h)
{
    rtp_glpk *g = h->g;
    glp_prob *P = glp_ios_get_prob(tree);
    for (int j = 0; j < g->cols; j++) {
        h->lb[j] = glp_get_col_lb(P, j + 1);
        h->ub[j] = glp_get_col_ub(P, j + 1);
        h->lp[j] = glp_get_col_prim(P, j + 1);
    }
    double rhs = 0.0;
    int len = g->rowgen(g->rowgen_ctx, h->lb, h->ub, h->lp, h->cols, h->sol, &rhs);
    if (len < 0 || len > g->cols || !isfinite(rhs))
        return;
    g->stamp_now++;
    for (int k = 0; k < len; k++) {
        int c = h->cols[k];
        if (c < 0 || c >= g->cols || g->stamp[c] == g->stamp_now || !isfinite(h->sol[k]))
            return;
        g->stamp[c] = g->stamp_now;
        g->ind[k + 1] = c + 1;
        g->val[k + 1] = h->sol[k];
    }
    int i = glp_add_rows(P, 1);
    glp_set_row_bnds(P, i, GLP_UP, rhs, rhs);
    glp_set_mat_row(P, i, len, g->ind, g->val);
}

static void on_tree(glp_tree *tree, void *info)
{
    tree_info *h = info;
    int reason = glp_ios_reason(tree);
    if (reason == GLP_IROWGEN && h->g->rowgen) {
        rowgen(tree, h);
    } else if (reason == GLP_IHEUR && h->x && !h->given) {
        h->given = 1;
        glp_ios_heur_sol(tree, h->x);
    } else if (reason == GLP_IHEUR && h->heur) {
        heuristic(tree, h);
    } else if (reason == GLP_IBRANCH && h->g->priority) {
        glp_prob *P = glp_ios_get_prob(tree);
        int best = 0;
        double best_value = 0.0;
        for (int j = 1; j <= h->g->cols; j++) {
            if (!glp_ios_can_branch(tree, j))
                continue;
            double v = glp_get_col_prim(P, j);
            if (!best || h->g->priority[j - 1] > h->g->priority[best - 1] ||
                (h->g->priority[j - 1] == h->g->priority[best - 1] && v > best_value)) {
                best = j;
                best_value = v;
            }
        }
        if (best)
            glp_ios_branch_upon(tree, best, GLP_UP_BRNCH);
    }
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* GLPK's tm_lim (ms) for what is left of `seconds` since `start`, at least
 * 1 ms; INT_MAX (GLPK's "no limit") when seconds <= 0. */
static int limit_ms(double seconds, double start)
{
    if (seconds <= 0)
        return INT_MAX;
    double ms = ceil((seconds - (now_s() - start)) * 1000.0);
    if (ms < 1.0)
        return 1;
    return ms >= (double)INT_MAX ? INT_MAX : (int)ms;
}

static rtp_status solve(rtp_glpk *g, double time_limit_s, tree_info *h,
                        rtp_glpk_outcome *outcome)
{
    double start = now_s();
    glp_smcp sm;
    glp_init_smcp(&sm);
    sm.msg_lev = GLP_MSG_OFF;
    sm.tm_lim = limit_ms(time_limit_s, start);
    glp_iocp io;
    glp_init_iocp(&io);
    io.msg_lev = GLP_MSG_OFF;
    io.presolve = GLP_OFF; /* the callback's incumbent is in the original columns */
    io.mip_gap = 0.0;
    io.clq_cuts = g->cuts[0];
    io.cov_cuts = g->cuts[1];
    io.gmi_cuts = g->cuts[2];
    io.mir_cuts = g->cuts[3];
    if (h->x || h->heur || g->priority || g->rowgen) {
        io.cb_func = on_tree;
        io.cb_info = h;
    }
    guard gd;
    if (setjmp(gd.env))
        return die(g);
    guard_begin(&gd);
    /* glp_intopt without presolve needs an optimal LP basis first. Rows
     * added since the last solve are basic, so the old basis stays valid;
     * should the factorisation still fail, restart from a fresh basis. */
    int rc = glp_simplex(g->P, &sm);
    if (rc == GLP_EBADB || rc == GLP_ESING || rc == GLP_ECOND) {
        glp_adv_basis(g->P, 0);
        rc = glp_simplex(g->P, &sm);
    }
    rtp_status st = RTP_OK;
    if (rc == GLP_ETMLIM) {
        *outcome = RTP_GLPK_TIME_NONE;
    } else if (rc != 0) {
        st = RTP_EINTERNAL;
    } else if (glp_get_status(g->P) == GLP_NOFEAS) {
        *outcome = RTP_GLPK_INFEASIBLE;
    } else if (glp_get_status(g->P) != GLP_OPT) {
        st = RTP_EINTERNAL; /* every column is bounded: nothing else is possible */
    } else {
        io.tm_lim = limit_ms(time_limit_s, start);
        rc = glp_intopt(g->P, &io);
        int mip = glp_mip_status(g->P);
        if (rc == 0 && mip == GLP_OPT)
            *outcome = RTP_GLPK_OPTIMAL;
        else if (rc == 0 && mip == GLP_NOFEAS)
            *outcome = RTP_GLPK_INFEASIBLE;
        else if (rc == GLP_ETMLIM)
            *outcome = mip == GLP_FEAS ? RTP_GLPK_TIME_SOLUTION : RTP_GLPK_TIME_NONE;
        else
            st = RTP_EINTERNAL;
    }
    guard_end(&gd);
    return st;
}

rtp_status rtp_glpk_solve(rtp_glpk *g, double time_limit_s,
                          const double *incumbent, rtp_glpk_heuristic heur,
                          void *heur_ctx, rtp_glpk_outcome *outcome)
{
    if (!g->P)
        return RTP_EINTERNAL;
    tree_info h = {g, NULL, 0, heur, heur_ctx, NULL, NULL, 0, NULL, NULL, NULL};
    double *x1 = NULL;
    if (incumbent) {
        if (!(x1 = malloc((size_t)(g->cols + 1) * sizeof *x1)))
            return RTP_ENOMEM;
        for (int j = 0; j < g->cols; j++) {
            if (!isfinite(incumbent[j])) {
                free(x1);
                return RTP_EINTERNAL;
            }
            x1[j + 1] = incumbent[j];
        }
        h.x = x1;
    }
    if (heur || g->rowgen) {
        h.lp = malloc((size_t)(g->cols + 1) * sizeof *h.lp);
        h.sol = malloc((size_t)(g->cols + 1) * sizeof *h.sol);
    }
    if (g->rowgen) {
        h.lb = malloc((size_t)(g->cols + 1) * sizeof *h.lb);
        h.ub = malloc((size_t)(g->cols + 1) * sizeof *h.ub);
        h.cols = malloc((size_t)(g->cols + 1) * sizeof *h.cols);
    }
    rtp_status st = RTP_ENOMEM;
    if ((!(heur || g->rowgen) || (h.lp && h.sol)) && (!g->rowgen || (h.lb && h.ub && h.cols)))
        st = solve(g, time_limit_s, &h, outcome);
    free(x1);
    free(h.lp);
    free(h.sol);
    free(h.lb);
    free(h.ub);
    free(h.cols);
    return st;
}

double rtp_glpk_value(const rtp_glpk *g, int col)
{
    if (!g->P || col < 0 || col >= g->cols)
        return 0.0;
    return glp_mip_col_val(g->P, col + 1);
}

/* The mode to give the new file: the old file's (a link followed, as
 * every output of rtpack: models/fileio.h), or 0644 when absent. */
static mode_t old_mode(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 && S_ISREG(sb.st_mode) ? sb.st_mode & 0777 : 0644;
}

rtp_status rtp_glpk_lp_path_ok(const char *path, rtp_diag *diag)
{
    return rtp_output_check(path, 0, diag);
}

rtp_status rtp_glpk_write_lp(rtp_glpk *g, const char *path, rtp_diag *diag)
{
    if (!g->P)
        return RTP_EINTERNAL;
    rtp_status st = rtp_output_check(path, 0, diag);
    if (st != RTP_OK)
        return st;
    /* GLPK writes only to a named file: a scratch one, read back and put
     * in place by the one writer of every rtpack output (models/fileio.h:
     * the target's folder pinned, a temporary file renamed over it) */
    const char *dir = getenv("TMPDIR");
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s/rtpack-lp-XXXXXX", dir && *dir ? dir : "/tmp");
    int fd = mkstemp(tmp);
    if (fd < 0)
        return rtp_diag_set(diag, RTP_EINTERNAL, "", "--write-lp %s: cannot create a scratch "
                            "file in %s: %s", path, dir && *dir ? dir : "/tmp", strerror(errno));
    close(fd);
    guard gd;
    if (setjmp(gd.env)) {
        unlink(tmp);
        return die(g);
    }
    guard_begin(&gd);
    errno = 0;
    int rc = glp_write_lp(g->P, NULL, tmp);
    int err = errno;
    guard_end(&gd);
    char *text = NULL;
    size_t len = 0;
    if (rc != 0)
        st = rtp_diag_set(diag, RTP_EINTERNAL, "", "--write-lp %s: GLPK could not write the "
                          "model%s%s", path, err ? ": " : "", err ? strerror(err) : "");
    else if ((st = rtp_read_file_max(tmp, SIZE_MAX / 2, &text, &len, diag)) == RTP_OK)
        st = rtp_write_file(path, text, len, (unsigned)old_mode(path), diag);
    unlink(tmp);
    free(text);
    return st;
}

rtp_status rtp_glpk_read_lp_counts(const char *path, int *rows, int *cols,
                                   int *binaries, rtp_diag *diag)
{
    glp_prob *volatile P = NULL;
    guard gd;
    if (setjmp(gd.env)) {
        glp_free_env();
        return RTP_EINTERNAL;
    }
    guard_begin(&gd);
    P = glp_create_prob();
    int rc = glp_read_lp(P, NULL, path);
    if (rc == 0) {
        *rows = glp_get_num_rows(P);
        *cols = glp_get_num_cols(P);
        *binaries = glp_get_num_bin(P);
    }
    glp_delete_prob(P);
    guard_end(&gd);
    if (rc != 0)
        return rtp_diag_set(diag, RTP_EINPUT, "", "%s: GLPK cannot read it as CPLEX LP", path);
    return RTP_OK;
}
