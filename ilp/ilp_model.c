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

/* Cardinality rows (cover inequalities of the knapsack rows, exact): with
 * tasks ranked by decreasing utilization, when every k + 1 tasks among the
 * first L exceed the capacity (the k + 1 smallest of them do, compared
 * exactly), at most k of those L share a CPU: sum_{rank < L} x[i][j] <= k.
 * k = 1 is the clique of tasks above half a CPU, which turns the pigeonhole
 * "m + 1 tasks above half on m CPUs" into an infeasible LP; a row whose set
 * is no larger than the previous k's is dominated and left out. */
static rtp_status cardinality_rows(ilp_ctx *c)
{
    size_t n = c->n, last = 0;
    rtp_ratio cap = c->opts->part.capacity;
    for (size_t r = 0; r < n; r++)
        c->sub[r] = c->tasks[c->order[r]];
    for (size_t k = 1; k + 1 <= n; k++) {
        size_t len = last > k + 1 ? last : k + 1;
        if (rtp_load_cmp(c->sub + len - k - 1, k + 1, RTP_LOAD_UTIL, cap) <= 0)
            continue; /* not even the k + 1 largest exceed */
        while (len < n && rtp_load_cmp(c->sub + len - k, k + 1, RTP_LOAD_UTIL, cap) > 0)
            len++;
        if (len <= last)
            continue;
        last = len;
        for (size_t j = 0; j < c->m; j++) {
            int cnt = 0;
            for (size_t r = 0; r < len; r++) {
                int col = c->xcol[ILP_AT(c, c->order[r], j)];
                if (col >= 0) {
                    c->row_cols[cnt] = col;
                    c->row_vals[cnt++] = 1.0;
                }
            }
            if ((size_t)cnt <= k)
                continue;
            char name[64];
            snprintf(name, sizeof name, "card_%zu_%zu", k, j);
            rtp_status st = rtp_glpk_add_row(c->g, name, cnt, c->row_cols, c->row_vals, 0, (double)k);
            if (st != RTP_OK)
                return st;
        }
        if (len == n)
            break; /* larger k: the same set with a weaker bound */
    }
    return RTP_OK;
}

static int uses(const rtp_task *t, size_t r)
{
    for (size_t k = 0; k < t->n_requests; k++)
        if (t->requests[k].resource == r)
            return 1;
    return 0;
}

/* Co-location (opts->colocate): the users u_0 < u_1 < ... of each resource
 * on one CPU, x[u_a][j] = x[u_(a+1)][j] on every CPU j (a missing column
 * is 0: the other is fixed to 0 there). */
static rtp_status colocation_rows(ilp_ctx *c)
{
    char name[96];
    size_t n_res = 0;
    for (size_t i = 0; i < c->n; i++)
        for (size_t k = 0; k < c->tasks[i].n_requests; k++)
            if (c->tasks[i].requests[k].resource + 1 > n_res)
                n_res = c->tasks[i].requests[k].resource + 1;
    for (size_t r = 0; r < n_res; r++) {
        size_t prev = c->n;
        for (size_t i = 0; i < c->n; i++) {
            if (!uses(&c->tasks[i], r))
                continue;
            for (size_t j = 0; prev < c->n && j < c->m; j++) {
                int len = 0, a = c->xcol[ILP_AT(c, prev, j)], b = c->xcol[ILP_AT(c, i, j)];
                if (a >= 0) {
                    c->row_cols[len] = a;
                    c->row_vals[len++] = 1.0;
                }
                if (b >= 0) {
                    c->row_cols[len] = b;
                    c->row_vals[len++] = -1.0;
                }
                snprintf(name, sizeof name, "colocate_%zu_%zu_%zu", r, i, j);
                rtp_status st = len == 0 ? RTP_OK
                                         : rtp_glpk_add_row(c->g, name, len, c->row_cols,
                                                            c->row_vals, 1, 0.0);
                if (st != RTP_OK)
                    return st;
            }
            prev = i;
        }
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

/* Symmetry breaking inside a class of interchangeable CPUs j_0 < j_1 < ...,
 * with tasks ranked by decreasing utilization (c->order). The orbitopal
 * column inequalities [KP08]
 *   x[i][j_l] <= sum_{i' ranked before i} x[i'][j_(l-1)]      (l >= 1)
 * say that the best-ranked task of j_l ranks below that of j_(l-1) and empty
 * CPUs come last; sorting a class's CPUs by best rank maps every feasible
 * partition onto one that satisfies them all, so each is valid. Only the
 * "staircase" part is added: the rows of the l best-ranked tasks on j_l
 * (task of rank r only on the first r + 1 CPUs, and so on). On sets
 * feasible by construction (tests/test_ilp.c) the full family, which keeps
 * one partition per orbit, made GLPK's search time out where the staircase
 * needed under 3 s, while infeasibility proofs (the hard set of
 * bench/bench_ilp.c) were as fast with the staircase. */
static rtp_status symmetry_rows(ilp_ctx *c)
{
    char name[64];
    for (size_t j = 0; j < c->m; j++) {
        size_t pos = 0, prev = 0; /* j's place in its class; the member before */
        for (size_t k = 0; k < j; k++)
            if (c->sym_class[k] == c->sym_class[j]) {
                pos++;
                prev = k;
            }
        int len = 1;
        for (size_t r = 0; r < c->n && (size_t)len <= pos; r++) {
            size_t i = c->order[r];
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

/* Decreasing utilization, exactly (C_a T_b vs C_b T_a in 128 bits), ties
 * by input order. */
static int by_util_desc(const void *a, const void *b, void *arg)
{
    const rtp_task *t = arg;
    size_t ia = *(const size_t *)a, ib = *(const size_t *)b;
    __int128 ua = (__int128)t[ia].wcet_ns * t[ib].period_ns;
    __int128 ub = (__int128)t[ib].wcet_ns * t[ia].period_ns;
    if (ua != ub)
        return ua < ub ? 1 : -1;
    return (ia > ib) - (ia < ib);
}

rtp_status ilp_build(ilp_ctx *c)
{
    for (size_t i = 0; i < c->n; i++)
        c->order[i] = i;
    qsort_r(c->order, c->n, sizeof *c->order, by_util_desc, (void *)c->tasks);
    rtp_status st = rtp_glpk_create(&c->g);
    if (st == RTP_OK)
        st = columns(c);
    if (st == RTP_OK)
        st = assignment_rows(c);
    if (st == RTP_OK)
        st = capacity_rows(c);
    if (st == RTP_OK)
        st = cardinality_rows(c);
    if (st == RTP_OK && c->colocate)
        st = colocation_rows(c);
    classes(c);
    if (st == RTP_OK && c->opts->symmetry_breaking)
        st = symmetry_rows(c);
    if (st == RTP_OK && c->opts->conflict_rows && c->adj)
        st = ilp_clique_rows(c);
    if (st == RTP_OK && c->opts->exact_nodes) {
        if (!c->flow)
            st = ilp_flow_create(c, &c->flow);
        if (st == RTP_OK)
            rtp_glpk_set_rowgen(c->g, ilp_node_row, c);
    }
    if (st == RTP_OK) {
        unsigned cuts = c->opts->glpk_cuts;
        rtp_glpk_set_cuts(c->g, (cuts & RTP_GLPK_CUTS_CLIQUE) != 0, (cuts & RTP_GLPK_CUTS_COVER) != 0,
                          (cuts & RTP_GLPK_CUTS_GOMORY) != 0, (cuts & RTP_GLPK_CUTS_MIR) != 0);
    }
    /* Branch on big tasks first, up-branch first: first-fit-decreasing
     * with backtracking, guided by the LP (GLPK's own rule was slower on
     * near-full packings in bench/bench_ilp.c). */
    for (size_t r = 0; r < c->n && st == RTP_OK; r++)
        for (size_t j = 0; j < c->m && st == RTP_OK; j++)
            if (c->xcol[ILP_AT(c, c->order[r], j)] >= 0)
                st = rtp_glpk_set_priority(c->g, c->xcol[ILP_AT(c, c->order[r], j)], (int)(c->n - r));
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
    for (size_t r = c->n; r-- > 0;)
        low[assign[c->order[r]]] = r;
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
