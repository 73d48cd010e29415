/* ilp/ilp_flow.c — the exact fractional relaxation of partitioning as a
 * maximum flow (see ilp_internal.h, ilp_flow_cut).
 *
 * Splitting every task's utilization over the CPUs it may use, at most the
 * capacity per CPU, is a transportation problem: source -> task i (capacity
 * u_i) -> open CPU j (unbounded) -> sink (capacity minus the load of the
 * tasks fixed on j). It is feasible exactly when the maximum flow saturates
 * every task, and otherwise the source side of a minimum cut names tasks S
 * and CPUs C = N(S) with U(S) + fixed load on C > capacity x |C| (max-flow
 * min-cut [FF56]; the infeasibility certificate is Hall's
 * condition [Hal35]). All in integers: u_i L and capacity x L over the
 * common denominator L of every utilization and of the capacity, in GMP
 * (L passes 2^64 with a few co-prime periods), so the answer is exact.
 * Shortest augmenting paths [EK72] after a greedy start. */
#include "ilp/ilp_internal.h"

#include <gmp.h>
#include <stdlib.h>
#include <string.h>

#include "models/arith.h"

struct ilp_flow {
    size_t n, m;
    mpz_t *a;     /* n: u_i L */
    mpz_t cap;    /* capacity x L */
    mpz_t *s;     /* n: flow out of the source into task i */
    mpz_t *room;  /* m: what CPU j can still take */
    mpz_t *f;     /* n * m: flow task i -> CPU j */
    mpz_t t, r;   /* scratch */
    int *seen, *prev;
    size_t *queue;
};

void ilp_flow_free(ilp_flow *fl)
{
    if (!fl)
        return;
    for (size_t i = 0; fl->a && i < fl->n; i++)
        mpz_clears(fl->a[i], fl->s[i], NULL);
    for (size_t j = 0; fl->room && j < fl->m; j++)
        mpz_clear(fl->room[j]);
    for (size_t k = 0; fl->f && k < fl->n * fl->m; k++)
        mpz_clear(fl->f[k]);
    if (fl->a)
        mpz_clears(fl->cap, fl->t, fl->r, NULL);
    free(fl->a);
    free(fl->s);
    free(fl->room);
    free(fl->f);
    free(fl->seen);
    free(fl->prev);
    free(fl->queue);
    free(fl);
}

rtp_status ilp_flow_create(const ilp_ctx *c, ilp_flow **out)
{
    size_t n = c->n, m = c->m;
    ilp_flow *fl = calloc(1, sizeof *fl);
    if (!fl)
        return RTP_ENOMEM;
    fl->n = n;
    fl->m = m;
    mpz_t *a = malloc((n ? n : 1) * sizeof *a), *s = malloc((n ? n : 1) * sizeof *s);
    mpz_t *room = malloc(m * sizeof *room), *f = malloc((n ? n * m : 1) * sizeof *f);
    fl->seen = calloc(n + m, sizeof *fl->seen);
    fl->prev = calloc(n + m, sizeof *fl->prev);
    fl->queue = calloc(n + m, sizeof *fl->queue);
    if (!a || !s || !room || !f || !fl->seen || !fl->prev || !fl->queue) {
        free(a);
        free(s);
        free(room);
        free(f);
        fl->n = fl->m = 0;
        ilp_flow_free(fl);
        return RTP_ENOMEM;
    }
    fl->a = a;
    fl->s = s;
    fl->room = room;
    fl->f = f;
    for (size_t i = 0; i < n; i++)
        mpz_inits(a[i], s[i], NULL);
    for (size_t j = 0; j < m; j++)
        mpz_init(room[j]);
    for (size_t k = 0; k < n * m; k++)
        mpz_init(f[k]);
    mpz_inits(fl->cap, fl->t, fl->r, NULL);
    /* L = lcm of every reduced utilization denominator and the capacity's */
    mpz_t L, g;
    mpz_inits(L, g, NULL);
    mpz_set_si(L, c->opts->part.capacity.den);
    for (size_t i = 0; i < n; i++) {
        const rtp_task *t = &c->tasks[i];
        mpz_set_si(g, t->period_ns / rtp_gcd(t->wcet_ns, t->period_ns));
        mpz_lcm(L, L, g);
    }
    for (size_t i = 0; i < n; i++) { /* a_i = C_i L / T_i, exact */
        mpz_mul_si(a[i], L, c->tasks[i].wcet_ns);
        mpz_divexact_ui(a[i], a[i], (unsigned long)c->tasks[i].period_ns);
    }
    mpz_mul_si(fl->cap, L, c->opts->part.capacity.num);
    mpz_divexact_ui(fl->cap, fl->cap, (unsigned long)c->opts->part.capacity.den);
    mpz_clears(L, g, NULL);
    *out = fl;
    return RTP_OK;
}

/* Breadth-first search in the residual graph from every unsaturated open
 * task; returns the CPU with room it reaches, or -1 (then seen[] marks the
 * source side of a minimum cut). Nodes: tasks 0..n-1, CPUs n..n+m-1. */
static int bfs(ilp_flow *fl, const int *open, const int *fixed)
{
    size_t n = fl->n, m = fl->m, head = 0, tail = 0;
    memset(fl->seen, 0, (n + m) * sizeof *fl->seen);
    for (size_t i = 0; i < n; i++)
        if (fixed[i] < 0 && mpz_cmp(fl->s[i], fl->a[i]) < 0) {
            fl->seen[i] = 1;
            fl->prev[i] = -1;
            fl->queue[tail++] = i;
        }
    while (head < tail) {
        size_t x = fl->queue[head++];
        if (x < n) {
            for (size_t j = 0; j < m; j++) {
                if (!open[x * m + j] || fl->seen[n + j])
                    continue;
                fl->seen[n + j] = 1;
                fl->prev[n + j] = (int)x;
                if (mpz_sgn(fl->room[j]) > 0)
                    return (int)j;
                fl->queue[tail++] = n + j;
            }
        } else {
            size_t j = x - n;
            for (size_t i = 0; i < n; i++)
                if (!fl->seen[i] && mpz_sgn(fl->f[i * m + j]) > 0) {
                    fl->seen[i] = 1;
                    fl->prev[i] = (int)x;
                    fl->queue[tail++] = i;
                }
        }
    }
    return -1;
}

/* Pushes the bottleneck along the path found by bfs to CPU `sink`. */
static void augment(ilp_flow *fl, int sink)
{
    size_t n = fl->n, m = fl->m, node = n + (size_t)sink;
    mpz_set(fl->t, fl->room[sink]);
    for (;;) {
        size_t i = (size_t)fl->prev[node];
        if (fl->prev[i] < 0) {
            mpz_sub(fl->r, fl->a[i], fl->s[i]);
            if (mpz_cmp(fl->r, fl->t) < 0)
                mpz_set(fl->t, fl->r);
            break;
        }
        size_t back = (size_t)fl->prev[i] - n;
        if (mpz_cmp(fl->f[i * m + back], fl->t) < 0)
            mpz_set(fl->t, fl->f[i * m + back]);
        node = n + back;
    }
    mpz_sub(fl->room[sink], fl->room[sink], fl->t);
    for (node = n + (size_t)sink;;) {
        size_t i = (size_t)fl->prev[node], j = node - n;
        mpz_add(fl->f[i * m + j], fl->f[i * m + j], fl->t);
        if (fl->prev[i] < 0) {
            mpz_add(fl->s[i], fl->s[i], fl->t);
            break;
        }
        size_t back = (size_t)fl->prev[i] - n;
        mpz_sub(fl->f[i * m + back], fl->f[i * m + back], fl->t);
        node = n + back;
    }
}

int ilp_flow_cut(ilp_flow *fl, const int *open, const int *fixed, size_t *set, size_t *n_set,
                 int *in_cut)
{
    size_t n = fl->n, m = fl->m;
    *n_set = 0;
    for (size_t j = 0; j < m; j++) {
        mpz_set(fl->room[j], fl->cap);
        in_cut[j] = 0;
    }
    for (size_t i = 0; i < n; i++)
        if (fixed[i] >= 0)
            mpz_sub(fl->room[fixed[i]], fl->room[fixed[i]], fl->a[i]);
    for (size_t j = 0; j < m; j++)
        if (mpz_sgn(fl->room[j]) < 0) { /* the tasks fixed on j alone overfill it */
            in_cut[j] = 1;
            return 1;
        }
    /* greedy start: each task fills its open CPUs in order */
    for (size_t i = 0; i < n; i++) {
        mpz_set_ui(fl->s[i], 0);
        for (size_t j = 0; j < m; j++) {
            mpz_t *fij = &fl->f[i * m + j];
            mpz_set_ui(*fij, 0);
            if (fixed[i] >= 0 || !open[i * m + j])
                continue;
            mpz_sub(fl->t, fl->a[i], fl->s[i]);
            if (mpz_cmp(fl->room[j], fl->t) < 0)
                mpz_set(fl->t, fl->room[j]);
            if (mpz_sgn(fl->t) <= 0)
                continue;
            mpz_set(*fij, fl->t);
            mpz_add(fl->s[i], fl->s[i], fl->t);
            mpz_sub(fl->room[j], fl->room[j], fl->t);
        }
    }
    int sink;
    while ((sink = bfs(fl, open, fixed)) >= 0)
        augment(fl, sink);
    int short_of = 0;
    for (size_t i = 0; i < n; i++)
        short_of |= fixed[i] < 0 && mpz_cmp(fl->s[i], fl->a[i]) < 0;
    if (!short_of)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (fl->seen[i])
            set[(*n_set)++] = i;
    for (size_t j = 0; j < m; j++)
        in_cut[j] = fl->seen[n + j];
    return 1;
}
