/* ilp/ilp_model.c — the static part of the integer program (ilp.h) and the
 * warm-start incumbent in its symmetry-broken form. */
#include "ilp/ilp_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/ratio.h"

static int affinity_has(const rtp_task *t, int cpu)
{
    if (!t->affinity)
        return 1;
    for (size_t a = 0; a < t->affinity_len; a++)
        if (t->affinity[a] == cpu)
            return 1;
    return 0;
}

/* x[i][j] exists when the task's affinity holds CPU j and the task passes the
 * exact test alone (the CPUs are identical, so alone means on any CPU). */
rtp_status ilp_allowed(ilp_ctx *c, int *some_task_homeless)
{
    *some_task_homeless = 0;
    for (size_t i = 0; i < c->n; i++) {
        int fails;
        rtp_status st = ilp_set_fails(c, &i, 1, &fails);
        if (st != RTP_OK)
            return st;
        size_t count = 0;
        for (size_t j = 0; j < c->m; j++) {
            int ok = !fails && affinity_has(&c->tasks[i], c->cpus[j]);
            c->allowed[ILP_AT(c, i, j)] = ok;
            count += (size_t)ok;
        }
        if (count == 0)
            *some_task_homeless = 1;
        const rtp_task *t = &c->tasks[i];
        c->util[i] = (double)t->wcet_ns / (double)t->period_ns * ILP_ROUND_DOWN;
    }
    rtp_ratio cap = c->opts->part.capacity;
    c->cap_rhs = (double)cap.num / (double)cap.den * (1.0 + 1e-12) + ILP_SLACK;
    return RTP_OK;
}

static rtp_status columns(ilp_ctx *c)
{
    char name[64];
    rtp_status st = RTP_OK;
    for (size_t i = 0; i < c->n && st == RTP_OK; i++)
        for (size_t j = 0; j < c->m && st == RTP_OK; j++) {
            c->xcol[ILP_AT(c, i, j)] = -1;
            if (!c->allowed[ILP_AT(c, i, j)])
                continue;
            snprintf(name, sizeof name, "x_%zu_%zu", i, j);
            st = rtp_glpk_add_col(c->g, name, 1, 0, 1, 0.0, &c->xcol[ILP_AT(c, i, j)]);
        }
    if (c->ycol)
        for (size_t j = 0; j < c->m && st == RTP_OK; j++) {
            snprintf(name, sizeof name, "used_%zu", j);
            st = rtp_glpk_add_col(c->g, name, 1, 0, 1, 1.0, &c->ycol[j]);
        }
    if (st == RTP_OK && c->opts->objective == RTP_ILP_BALANCED)
        st = rtp_glpk_add_col(c->g, "max_util", 0, 0.0, c->cap_rhs, 1.0, &c->zcol);
    return st;
}

/* Each task on exactly one allowed CPU. */
static rtp_status assignment_rows(ilp_ctx *c)
{
    char name[64];
    for (size_t i = 0; i < c->n; i++) {
        int len = 0;
        for (size_t j = 0; j < c->m; j++)
            if (c->xcol[ILP_AT(c, i, j)] >= 0) {
                c->row_cols[len] = c->xcol[ILP_AT(c, i, j)];
                c->row_vals[len++] = 1.0;
            }
        snprintf(name, sizeof name, "assign_%zu", i);
        rtp_status st = rtp_glpk_add_row(c->g, name, len, c->row_cols, c->row_vals, 1, 1.0);
        if (st != RTP_OK)
            return st;
    }
    return RTP_OK;
}

/* Per CPU: sum_i u_i x[i][j] <= capacity, necessary under both policies
 * (exact for implicit-deadline EDF). min-cpus multiplies the capacity by
 * used_j and adds x[i][j] <= used_j; balanced bounds the sum by max_util. */
static rtp_status capacity_rows(ilp_ctx *c)
{
    char name[64];
    for (size_t j = 0; j < c->m; j++) {
        int len = 0;
        for (size_t i = 0; i < c->n; i++)
            if (c->xcol[ILP_AT(c, i, j)] >= 0) {
                c->row_cols[len] = c->xcol[ILP_AT(c, i, j)];
                c->row_vals[len++] = c->util[i];
            }
        double rhs = c->cap_rhs;
        if (c->ycol || c->zcol >= 0) {
            c->row_cols[len] = c->ycol ? c->ycol[j] : c->zcol;
            c->row_vals[len++] = c->ycol ? -c->cap_rhs : -1.0;
            rhs = 0.0;
        }
        snprintf(name, sizeof name, "util_%zu", j);
        rtp_status st = rtp_glpk_add_row(c->g, name, len, c->row_cols, c->row_vals, 0, rhs);
        for (size_t i = 0; i < c->n && st == RTP_OK && c->ycol; i++) {
            int x = c->xcol[ILP_AT(c, i, j)];
            if (x < 0)
                continue;
            int cols[2] = {x, c->ycol[j]};
            double vals[2] = {1.0, -1.0};
            snprintf(name, sizeof name, "uses_%zu_%zu", i, j);
            st = rtp_glpk_add_row(c->g, name, 2, cols, vals, 0, 0.0);
        }
        if (st != RTP_OK)
            return st;
    }
    return RTP_OK;
}

/* Tasks with 2 u_i > capacity (exact) pairwise exclude each other: at most
 * one of them per CPU (a clique of the conflict graph). It turns the
 * pigeonhole "m + 1 tasks above half on m CPUs" into an infeasible LP. */
static rtp_status clique_rows(ilp_ctx *c)
{
    for (size_t j = 0; j < c->m; j++) {
        int len = 0;
        for (size_t i = 0; i < c->n; i++) {
            rtp_task twice[2] = {c->tasks[i], c->tasks[i]};
            int col = c->xcol[ILP_AT(c, i, j)];
            if (col >= 0 && rtp_load_cmp(twice, 2, RTP_LOAD_UTIL, c->opts->part.capacity) > 0) {
                c->row_cols[len] = col;
                c->row_vals[len++] = 1.0;
            }
        }
        if (len < 2)
            continue;
        char name[64];
        snprintf(name, sizeof name, "big_%zu", j);
        rtp_status st = rtp_glpk_add_row(c->g, name, len, c->row_cols, c->row_vals, 0, 1.0);
        if (st != RTP_OK)
            return st;
    }
    return RTP_OK;
}

static int same_column(const ilp_ctx *c, size_t j, size_t k)
{
    for (size_t i = 0; i < c->n; i++)
        if (c->allowed[ILP_AT(c, i, j)] != c->allowed[ILP_AT(c, i, k)])
            return 0;
    return 1;
}

/* CPUs are interchangeable when every task may use both or neither (all
 * have the same capacity). sym_class[j] = first CPU of j's class. */
static void classes(ilp_ctx *c)
{
    for (size_t j = 0; j < c->m; j++) {
        c->sym_class[j] = (int)j;
        for (size_t k = 0; k < j; k++)
            if (c->sym_class[k] == (int)k && same_column(c, j, k)) {
                c->sym_class[j] = (int)k;
                break;
            }
    }
}

/* Within a class j_1 < ... < j_k: the lowest task index on j_l is above the
 * lowest on j_(l-1) and empty CPUs come last:
 *   x[i][j_l] <= sum_{i' < i} x[i'][j_(l-1)]   (l >= 2).
 * Valid: sorting a class's CPUs by their lowest task index maps any
 * feasible partition onto one that satisfies every row (Margot 2010 calls
 * the family "orbitopal"). */
static rtp_status symmetry_rows(ilp_ctx *c)
{
    char name[64];
    for (size_t j = 0; j < c->m; j++) {
        if (c->sym_class[j] == (int)j)
            continue;
        size_t prev = j; /* previous member of j's class */
        while (c->sym_class[--prev] != c->sym_class[j])
            ;
        int len = 1;
        for (size_t i = 0; i < c->n; i++) {
            int col = c->xcol[ILP_AT(c, i, j)];
            if (col < 0)
                continue;
            c->row_cols[0] = col;
            c->row_vals[0] = 1.0;
            snprintf(name, sizeof name, "sym_%zu_%zu", i, j);
            rtp_status st = rtp_glpk_add_row(c->g, name, len, c->row_cols, c->row_vals, 0, 0.0);
            if (st != RTP_OK)
                return st;
            c->row_cols[len] = c->xcol[ILP_AT(c, i, prev)];
            c->row_vals[len++] = -1.0;
        }
    }
    return RTP_OK;
}

rtp_status ilp_build(ilp_ctx *c)
{
    rtp_status st = rtp_glpk_create(&c->g);
    if (st == RTP_OK)
        st = columns(c);
    if (st == RTP_OK)
        st = assignment_rows(c);
    if (st == RTP_OK)
        st = capacity_rows(c);
    if (st == RTP_OK)
        st = clique_rows(c);
    classes(c);
    if (st == RTP_OK && c->opts->symmetry_breaking)
        st = symmetry_rows(c);
    return st;
}

rtp_status ilp_incumbent(ilp_ctx *c, const int *assign, double *x)
{
    size_t m = c->m;
    size_t *low = malloc(2 * m * sizeof *low);
    if (!low)
        return RTP_ENOMEM;
    size_t *perm = low + m;
    for (size_t j = 0; j < m; j++)
        low[j] = c->n;
    for (size_t i = c->n; i-- > 0;)
        low[assign[i]] = i;
    /* Sort each class's CPUs by lowest task index (empty last): the old CPU
     * whose lowest index ranks r inside its class moves to the r-th member. */
    for (size_t j = 0; j < m; j++) {
        if (!c->opts->symmetry_breaking) {
            perm[j] = j;
            continue;
        }
        size_t rank = 0;
        for (size_t k = 0; k < m; k++)
            if (c->sym_class[k] == c->sym_class[j] && (low[k] < low[j] || (low[k] == low[j] && k < j)))
                rank++;
        size_t target = 0;
        for (size_t k = 0; k < m; k++)
            if (c->sym_class[k] == c->sym_class[j] && rank-- == 0) {
                target = k;
                break;
            }
        perm[j] = target;
    }
    int cols = rtp_glpk_cols(c->g);
    for (int k = 0; k < cols; k++)
        x[k] = 0.0;
    double *load = calloc(m, sizeof *load);
    rtp_status st = load ? RTP_OK : RTP_ENOMEM;
    for (size_t i = 0; i < c->n && st == RTP_OK; i++) {
        size_t j = perm[assign[i]];
        int col = c->xcol[ILP_AT(c, i, j)];
        if (col < 0) {
            st = RTP_EINTERNAL;
            break;
        }
        x[col] = 1.0;
        load[j] += c->util[i];
        if (c->ycol)
            x[c->ycol[j]] = 1.0;
    }
    if (st == RTP_OK && c->zcol >= 0) {
        double z = 0.0;
        for (size_t j = 0; j < m; j++)
            z = load[j] > z ? load[j] : z;
        x[c->zcol] = z < c->cap_rhs ? z : c->cap_rhs;
    }
    free(load);
    free(low);
    return st;
}
