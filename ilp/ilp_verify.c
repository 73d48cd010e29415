/* ilp/ilp_verify.c — exact verification of GLPK's candidates and the cuts a
 * failure yields (see ilp_internal.h and ilp.h for the theory). */
#include "ilp/ilp_internal.h"
#include "models/grow.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/ratio.h"
#include "solver/edf.h"
#include "solver/fmlp.h"
#include "solver/locks.h"

/* GLPK's primal feasibility tolerance is 1e-7: a row violated by less than
 * this (plus our own slack) would not cut the candidate off. */
#define ILP_CUT_MIN_VIOLATION 1e-6

static void load(ilp_ctx *c, const size_t *idx, size_t k)
{
    for (size_t q = 0; q < k; q++)
        c->sub[q] = c->tasks[idx[q]];
}

/* A CPU holding tasks idx[0..k-1] fails when their utilization exceeds the
 * capacity (exact) or the exact test of the policy rejects them. Failure is
 * monotone: every superset of a failing set fails (EDF demand and FP
 * interference only grow with more tasks), which makes the cuts valid. */
rtp_status ilp_set_fails(ilp_ctx *c, const size_t *idx, size_t k, int *fails)
{
    *fails = 0;
    if (k == 0)
        return RTP_OK;
    load(c, idx, k);
    if (rtp_load_cmp(c->sub, k, RTP_LOAD_UTIL, c->opts->part.capacity) > 0) {
        *fails = 1;
        return RTP_OK;
    }
    rtp_test_result r;
    memset(&r, 0, sizeof r);
    rtp_status st = rtp_test_run(&c->test, c->sub, k, &r, c->diag);
    if (st != RTP_OK)
        return st;
    *fails = !r.schedulable;
    return RTP_OK;
}

static rtp_status add_point(ilp_ctx *c, rtp_ns t)
{
    if (RTP_GROW(c->points, c->cap_points, c->n_points + 1) != 0)
        return RTP_ENOMEM;
    c->points[c->n_points++] = t;
    return RTP_OK;
}

/* Demand rows at t ([BMR90]; the static form is [BB08]):
 * sum_i dbf_i(t)/t x[i][j] <= 1 on every CPU j. Coefficients are rounded
 * down (a task whose dbf overflows gets 0: still a relaxation). Added only
 * when it cuts the current candidate (the set idx violates it by more than
 * GLPK's tolerance); the set's no-good cut covers the rest. */
static rtp_status demand_rows(ilp_ctx *c, const size_t *idx, size_t k, rtp_ns t)
{
    for (size_t p = 0; p < c->n_points; p++)
        if (c->points[p] == t)
            return RTP_OK;
    double *coef = calloc(c->n, sizeof *coef);
    if (!coef)
        return RTP_ENOMEM;
    for (size_t i = 0; i < c->n; i++) {
        rtp_ns d;
        if (rtp_edf_dbf(&c->tasks[i], 1, t, &d) == RTP_OK && d > 0)
            coef[i] = (double)d / (double)t * ILP_ROUND_DOWN;
    }
    double lhs = 0.0;
    for (size_t q = 0; q < k; q++)
        lhs += coef[idx[q]];
    rtp_status st = RTP_OK;
    if (lhs > 1.0 + ILP_SLACK + ILP_CUT_MIN_VIOLATION) {
        st = add_point(c, t);
        for (size_t j = 0; j < c->m && st == RTP_OK; j++) {
            int len = 0;
            double sum = 0.0;
            for (size_t i = 0; i < c->n; i++) {
                int col = c->xcol[ILP_AT(c, i, j)];
                if (col >= 0 && coef[i] > 0.0) {
                    c->row_cols[len] = col;
                    c->row_vals[len++] = coef[i];
                    sum += coef[i];
                }
            }
            if (sum <= 1.0 + ILP_SLACK)
                continue; /* cannot be violated on this CPU */
            char name[64];
            snprintf(name, sizeof name, "dem_%zu_%zu", c->n_points - 1, j);
            st = rtp_glpk_add_row(c->g, name, len, c->row_cols, c->row_vals, 0, 1.0 + ILP_SLACK);
            c->stats->cuts++;
        }
    }
    free(coef);
    return st;
}

/* Deletion filter [CD91]: drop each task in turn
 * (smallest utilization first) when the rest still fails. The result S is a
 * minimal failing set: every proper subset passes. idx is rewritten in place,
 * *k shrinks. */
static int by_util(const void *a, const void *b, void *arg)
{
    const double *u = arg;
    double ua = u[*(const size_t *)a], ub = u[*(const size_t *)b];
    return (ua > ub) - (ua < ub);
}

static rtp_status shrink(ilp_ctx *c, size_t *idx, size_t *k)
{
    qsort_r(idx, *k, sizeof *idx, by_util, c->util);
    size_t q = 0;
    while (q < *k) {
        size_t dropped = idx[q];
        memmove(idx + q, idx + q + 1, (*k - q - 1) * sizeof *idx);
        int fails;
        rtp_status st = ilp_set_fails(c, idx, *k - 1, &fails);
        if (st != RTP_OK)
            return st;
        if (fails) {
            (*k)--;
        } else {
            memmove(idx + q + 1, idx + q, (*k - q - 1) * sizeof *idx);
            idx[q++] = dropped;
        }
    }
    return RTP_OK;
}

rtp_status ilp_set_rows(ilp_ctx *c, const size_t *idx, size_t k, size_t min_len, double rhs,
                        const char *prefix, size_t tag, int *added)
{
    *added = 0;
    for (size_t j = 0; j < c->m; j++) {
        int len = 0;
        for (size_t q = 0; q < k; q++) {
            int col = c->xcol[ILP_AT(c, idx[q], j)];
            if (col >= 0) {
                c->row_cols[len] = col;
                c->row_vals[len++] = 1.0;
            }
        }
        if ((size_t)len < min_len)
            continue;
        char name[64];
        snprintf(name, sizeof name, "%s_%zu_%zu", prefix, tag, j);
        rtp_status st = rtp_glpk_add_row(c->g, name, len, c->row_cols, c->row_vals, 0, rhs);
        if (st != RTP_OK)
            return st;
        (*added)++;
    }
    return RTP_OK;
}

/* No-good cut (combinatorial Benders [CF06]): the minimal failing set S may
 * not share any CPU: sum_{i in S} x[i][j] <= |S| - 1 for every CPU j where
 * all of S may run (elsewhere it is implied). */
static rtp_status no_good(ilp_ctx *c, const size_t *idx, size_t k)
{
    int added;
    rtp_status st = ilp_set_rows(c, idx, k, k, (double)k - 1.0, "cut", (size_t)c->stats->cuts,
                                 &added);
    c->stats->cuts += added;
    return st;
}

rtp_status ilp_cut_cpu(ilp_ctx *c, const size_t *idx, size_t k)
{
    /* A demand row from EDF's first miss: under EDF it is the failure
     * itself; under FP it is a necessary condition (EDF is optimal on one
     * CPU), useful whenever EDF fails too. */
    load(c, idx, k);
    rtp_edf_result er;
    rtp_status st = rtp_edf_qpa(c->sub, k, 1, &c->edf.limits, &er, c->diag);
    if (st == RTP_OK && !er.schedulable && er.has_first_miss)
        st = demand_rows(c, idx, k, er.first_miss_ns);
    if (st == RTP_ELIMIT) { /* demand rows are optional: skip, keep the no-good */
        rtp_diag_clear(c->diag);
        st = RTP_OK;
    }
    if (st != RTP_OK)
        return st;
    size_t *set = malloc((k ? k : 1) * sizeof *set);
    if (!set)
        return RTP_ENOMEM;
    memcpy(set, idx, k * sizeof *set);
    size_t len = k;
    st = shrink(c, set, &len);
    if (st == RTP_OK)
        st = no_good(c, set, len);
    free(set);
    return st;
}

rtp_status ilp_verify(ilp_ctx *c, const int *assign, int cut, int *failed)
{
    *failed = 0;
    for (size_t j = 0; j < c->m; j++) {
        size_t k = 0;
        for (size_t i = 0; i < c->n; i++)
            if (assign[i] == (int)j)
                c->sub_idx[k++] = i;
        int fails;
        rtp_status st = ilp_set_fails(c, c->sub_idx, k, &fails);
        if (st == RTP_OK && fails && cut)
            st = ilp_cut_cpu(c, c->sub_idx, k);
        if (st != RTP_OK)
            return st;
        *failed += fails;
    }
    return RTP_OK;
}

/* The exact node check (ilp_internal.h). A rounded capacity row can be
 * violated by less than GLPK's tolerance (about 1e-7) without GLPK noticing,
 * so near-boundary loads (a total over the capacity by one part in 10^9)
 * would be explored leaf by leaf; the exact relaxation sees them at once.
 * It only runs where a rounded row is within ILP_TIGHT of the capacity:
 * elsewhere the LP solution itself is an exact fractional assignment. */
#define ILP_TIGHT 1e-6

int ilp_node_row(void *arg, const double *lb, const double *ub, const double *x, int *cols,
                 double *vals, double *rhs)
{
    ilp_ctx *c = arg;
    size_t n = c->n, m = c->m;
    int tight = 0;
    for (size_t j = 0; j < m && !tight; j++) {
        double load = 0.0;
        for (size_t i = 0; i < n; i++) {
            int col = c->xcol[ILP_AT(c, i, j)];
            if (col >= 0)
                load += c->util[i] * x[col];
        }
        tight = load > c->cap_rhs - ILP_SLACK - ILP_TIGHT;
    }
    if (!tight)
        return -1;
    for (size_t i = 0; i < n; i++) {
        c->fixed[i] = -1;
        for (size_t j = 0; j < m; j++) {
            int col = c->xcol[ILP_AT(c, i, j)];
            c->open[ILP_AT(c, i, j)] = col >= 0 && ub[col] > 0.5;
            if (col >= 0 && lb[col] > 0.5)
                c->fixed[i] = (int)j;
        }
    }
    size_t k;
    if (!ilp_flow_cut(c->flow, c->open, c->fixed, c->cut_tasks, &k, c->cut_cpus))
        return -1;
    int len = 0, ones = 0;
    for (size_t i = 0; i < n; i++) /* the fixings onto C that load it */
        if (c->fixed[i] >= 0 && c->cut_cpus[c->fixed[i]]) {
            cols[len] = c->xcol[ILP_AT(c, i, (size_t)c->fixed[i])];
            vals[len++] = 1.0;
            ones++;
        }
    for (size_t q = 0; q < k; q++) /* the fixings that keep S inside C */
        for (size_t j = 0; j < m; j++) {
            int col = c->xcol[ILP_AT(c, c->cut_tasks[q], j)];
            if (col >= 0 && !c->cut_cpus[j] && ub[col] < 0.5) {
                cols[len] = col;
                vals[len++] = -1.0;
            }
        }
    *rhs = (double)ones - 1.0;
    c->stats->node_cuts++;
    return len;
}

/* The plan of a verified assignment: tasks in input order on each CPU, FP
 * priorities and response times from the exact test (OPA by default). */
rtp_status ilp_plan(ilp_ctx *c, const int *assign, rtp_plan *plan)
{
    for (size_t j = 0; j < c->m; j++) {
        size_t k = 0;
        for (size_t i = 0; i < c->n; i++)
            if (assign[i] == (int)j)
                c->sub_idx[k++] = i;
        if (k == 0)
            continue;
        load(c, c->sub_idx, k);
        rtp_test_result r;
        memset(&r, 0, sizeof r);
        r.priority = c->prio;
        r.response_time = c->rt;
        r.rr = c->rr;
        for (size_t q = 0; q < k; q++) /* the tests that leave it alone: the tasks' own */
            c->rr[q] = (unsigned char)c->sub[q].rr;
        rtp_status st = rtp_test_run(&c->test, c->sub, k, &r, c->diag);
        if (st != RTP_OK)
            return st;
        if (!r.schedulable)
            return rtp_diag_set(c->diag, RTP_EINTERNAL, "", "ILP: a verified CPU failed its re-check");
        int fp = c->opts->part.policy == RTP_POLICY_FP;
        for (size_t q = 0; q < k; q++) {
            st = rtp_plan_add_task(plan, j, &c->declared[c->sub_idx[q]], fp ? c->prio[q] : 0,
                                   fp ? c->rt[q] : 0);
            if (st != RTP_OK)
                return st;
            plan->bins[j].tasks[plan->bins[j].n_tasks - 1].task.rr = c->rr[q];
        }
    }
    plan->feasible = 1;
    return RTP_OK;
}

rtp_status ilp_plan_locks(ilp_ctx *c, const rtp_taskset *ts, const int *assign, rtp_plan *plan)
{
    rtp_status st = RTP_OK;
    size_t *cpu = malloc((c->n ? c->n : 1) * sizeof *cpu);
    size_t *next = calloc(c->m + 1, sizeof *next);
    rtp_locks_task *out = malloc((c->n ? c->n : 1) * sizeof *out);
    int sched = 0, suspends = rtp_fmlp_present(c->tasks, c->n);
    if (st == RTP_OK && (!cpu || !next || !out))
        st = RTP_ENOMEM;
    for (size_t i = 0; st == RTP_OK && i < c->n; i++)
        cpu[i] = (size_t)assign[i];
    if (st == RTP_OK)
        st = rtp_locks_partitioned(ts->resources, ts->n_resources, c->tasks, c->n, cpu, c->m,
                                   &c->test, &sched, out, c->diag);
    if (st == RTP_OK && !sched)
        st = rtp_diag_set(c->diag, RTP_EINTERNAL, "", "ILP: a verified plan failed its re-check");
    /* ilp_plan added each CPU's tasks in input order */
    for (size_t i = 0; st == RTP_OK && i < c->n; i++) {
        rtp_plan_task *pt = &plan->bins[cpu[i]].tasks[next[cpu[i]]++];
        pt->has_locks = 1;
        pt->computed_blocking_ns = out[i].blocking_ns;
        pt->spin_ns = out[i].spin_ns;
        pt->binding = out[i].binding;
        pt->has_suspension = suspends;
        pt->suspension_ns = out[i].suspension_ns;
    }
    free(cpu);
    free(next);
    free(out);
    return st;
}
