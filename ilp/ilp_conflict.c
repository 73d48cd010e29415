/* ilp/ilp_conflict.c — the conflict graph of a solve and its cliques.
 *
 * Two tasks conflict when they fail together on one CPU: their exact
 * utilization exceeds the capacity, or the exact test of the policy (the
 * same rtp_test the verifier uses) rejects the pair. Failure is monotone
 * (ilp_verify.c), so conflicting tasks never share a CPU in any feasible
 * partition, and a clique K of the graph gives the valid rows
 *   sum_{i in K} x[i][j] <= 1      on every CPU j
 * (the clique inequalities of the set-packing polytope [Pad73]), which
 * make a pigeonhole — more pairwise-conflicting tasks than CPUs — an
 * infeasible LP at the root instead of an exponential search. Pairs whose
 * allowed CPUs are disjoint never meet and get no edge.
 *
 * Cliques: a greedy cover (every edge in some clique, each clique grown from
 * an uncovered edge by the candidate with most neighbours among the
 * candidates), and the largest clique by a branch and bound with a greedy
 * colouring bound [TS03] under a node budget. Both are
 * heuristics for *finding* cliques; every clique they return is a clique. */
#include "ilp/ilp_internal.h"
#include "models/grow.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/ratio.h"

/* Members per clique cover, in total: beyond, the remaining edges are left
 * to the lazy no-good cuts (ilp_verify.c), which find them on demand. */
#define COVER_MEMBERS(n) ((n) * 24 + 4096)
/* Branch-and-bound nodes of the largest-clique search, and the largest n it
 * runs on (its scratch is n x n). */
#define MAX_CLIQUE_NODES 20000
#define MAX_CLIQUE_N 512

static int shares_a_cpu(const ilp_ctx *c, size_t a, size_t b)
{
    for (size_t j = 0; j < c->m; j++)
        if (c->allowed[ILP_AT(c, a, j)] && c->allowed[ILP_AT(c, b, j)])
            return 1;
    return 0;
}

/* *fails / *by_test for the pair (a, b). A resource limit in the test means
 * "unknown": no edge (sound: fewer edges only weaken the graph). */
static rtp_status pair(ilp_ctx *c, size_t a, size_t b, int *fails, int *by_test)
{
    *fails = *by_test = 0;
    c->sub[0] = c->tasks[a];
    c->sub[1] = c->tasks[b];
    if (rtp_load_cmp(c->sub, 2, RTP_LOAD_UTIL, c->opts->part.capacity) > 0) {
        *fails = 1;
        return RTP_OK;
    }
    rtp_test_result r;
    memset(&r, 0, sizeof r);
    rtp_status st = rtp_test_run(&c->test, c->sub, 2, &r, c->diag);
    if (st == RTP_ELIMIT) {
        rtp_diag_clear(c->diag);
        return RTP_OK;
    }
    if (st == RTP_OK && !r.schedulable)
        *fails = *by_test = 1;
    return st;
}

static size_t popcount_and(const uint64_t *a, const uint64_t *b, size_t words)
{
    size_t k = 0;
    for (size_t w = 0; w < words; w++)
        k += (size_t)__builtin_popcountll(a[w] & b[w]);
    return k;
}

static int empty(const uint64_t *a, size_t words)
{
    for (size_t w = 0; w < words; w++)
        if (a[w])
            return 0;
    return 1;
}

/* Lowest set bit (words * 64 when empty). */
static size_t first_bit(const uint64_t *a, size_t words)
{
    for (size_t w = 0; w < words; w++)
        if (a[w])
            return w * 64 + (size_t)__builtin_ctzll(a[w]);
    return words * 64;
}

static rtp_status add_clique(ilp_ctx *c, const size_t *members, size_t k, size_t *cap)
{
    size_t used = c->clique_start[c->n_cliques];
    if (RTP_GROW(c->clique_members, *cap, used + k) != 0)
        return RTP_ENOMEM;
    if (RTP_GROW(c->clique_start, c->cap_clique_start, c->n_cliques + 2) != 0)
        return RTP_ENOMEM;
    memcpy(c->clique_members + used, members, k * sizeof *members);
    c->clique_start[++c->n_cliques] = used + k;
    return RTP_OK;
}

/* Greedy edge clique cover. */
static rtp_status cover(ilp_ctx *c)
{
    size_t n = c->n, W = c->words, cap = 0;
    uint64_t *covered = calloc(n * W, sizeof *covered);
    uint64_t *cand = calloc(W, sizeof *cand);
    size_t *members = malloc(n * sizeof *members);
    size_t *deg = calloc(n, sizeof *deg);
    size_t *order = malloc(n * sizeof *order);
    c->clique_start = calloc(1, sizeof *c->clique_start);
    c->cap_clique_start = c->clique_start ? 1 : 0;
    rtp_status st = RTP_OK;
    if (!covered || !cand || !members || !deg || !order || !c->clique_start) {
        st = RTP_ENOMEM;
        goto done;
    }
    for (size_t i = 0; i < n; i++) {
        deg[i] = popcount_and(ILP_ROW(c, c->adj, i), ILP_ROW(c, c->adj, i), W);
        order[i] = i;
    }
    /* decreasing degree, ties by index (insertion sort: n is small) */
    for (size_t a = 1; a < n; a++)
        for (size_t b = a; b > 0 && deg[order[b - 1]] < deg[order[b]]; b--) {
            size_t t = order[b];
            order[b] = order[b - 1];
            order[b - 1] = t;
        }
    for (size_t r = 0; r < n && st == RTP_OK; r++) {
        size_t v = order[r];
        for (;;) {
            const uint64_t *av = ILP_ROW(c, c->adj, v), *cv = ILP_ROW(c, covered, v);
            size_t w = n;
            for (size_t q = 0; q < W && w == n; q++)
                if (av[q] & ~cv[q])
                    w = q * 64 + (size_t)__builtin_ctzll(av[q] & ~cv[q]);
            if (w == n)
                break;
            size_t k = 0;
            members[k++] = v;
            members[k++] = w;
            const uint64_t *aw = ILP_ROW(c, c->adj, w);
            for (size_t q = 0; q < W; q++)
                cand[q] = av[q] & aw[q];
            while (!empty(cand, W)) {
                size_t best = n, best_key = 0, best_new = 0;
                for (size_t q = 0; q < W; q++)
                    for (uint64_t bits = cand[q]; bits; bits &= bits - 1) {
                        size_t u = q * 64 + (size_t)__builtin_ctzll(bits);
                        size_t key = popcount_and(ILP_ROW(c, c->adj, u), cand, W), fresh = 0;
                        for (size_t p = 0; p < k; p++)
                            fresh += !ilp_bit(ILP_ROW(c, covered, u), members[p]);
                        if (best == n || key > best_key || (key == best_key && fresh > best_new)) {
                            best = u;
                            best_key = key;
                            best_new = fresh;
                        }
                    }
                members[k++] = best;
                const uint64_t *ab = ILP_ROW(c, c->adj, best);
                for (size_t q = 0; q < W; q++)
                    cand[q] &= ab[q];
            }
            for (size_t p = 0; p < k; p++)
                for (size_t q = 0; q < k; q++)
                    if (p != q)
                        ilp_set_bit(ILP_ROW(c, covered, members[p]), members[q]);
            if (c->clique_start[c->n_cliques] + k > COVER_MEMBERS(n))
                goto done; /* budget spent: the lazy cuts cover the rest */
            if ((st = add_clique(c, members, k, &cap)) != RTP_OK)
                goto done;
        }
    }
done:
    free(covered);
    free(cand);
    free(members);
    free(deg);
    free(order);
    return st;
}

/* Largest clique: branch and bound with a greedy colouring bound. */
typedef struct mc {
    const ilp_ctx *c;
    size_t *cur, n_cur;
    size_t *best, n_best;
    long nodes;
    uint64_t *pool;  /* per depth: 3 sets of `words` words */
    size_t *ord, *col; /* per depth: n entries each */
} mc;

static void expand(mc *s, size_t depth)
{
    const ilp_ctx *c = s->c;
    size_t n = c->n, W = c->words;
    if (++s->nodes > MAX_CLIQUE_NODES)
        return;
    uint64_t *P = s->pool + depth * 3 * W, *U = P + W, *Q = U + W;
    size_t *ord = s->ord + depth * n, *col = s->col + depth * n, k = 0, colour = 0;
    memcpy(U, P, W * sizeof *U);
    while (!empty(U, W)) {
        colour++;
        memcpy(Q, U, W * sizeof *Q);
        while (!empty(Q, W)) {
            size_t v = first_bit(Q, W);
            U[v >> 6] &= ~((uint64_t)1 << (v & 63));
            Q[v >> 6] &= ~((uint64_t)1 << (v & 63));
            const uint64_t *av = ILP_ROW(c, c->adj, v);
            for (size_t q = 0; q < W; q++)
                Q[q] &= ~av[q];
            ord[k] = v;
            col[k++] = colour;
        }
    }
    uint64_t *next = P + 3 * W;
    for (size_t idx = k; idx-- > 0;) {
        if (s->n_cur + col[idx] <= s->n_best || s->nodes > MAX_CLIQUE_NODES)
            return;
        size_t v = ord[idx];
        s->cur[s->n_cur++] = v;
        const uint64_t *av = ILP_ROW(c, c->adj, v);
        for (size_t q = 0; q < W; q++)
            next[q] = P[q] & av[q];
        if (empty(next, W)) {
            if (s->n_cur > s->n_best) {
                memcpy(s->best, s->cur, s->n_cur * sizeof *s->cur);
                s->n_best = s->n_cur;
            }
        } else {
            expand(s, depth + 1);
        }
        s->n_cur--;
        P[v >> 6] &= ~((uint64_t)1 << (v & 63));
    }
}

static rtp_status largest(ilp_ctx *c)
{
    size_t n = c->n, W = c->words;
    c->max_clique = malloc((n ? n : 1) * sizeof *c->max_clique);
    if (!c->max_clique)
        return RTP_ENOMEM;
    for (size_t q = 0; q < c->n_cliques; q++) { /* start from the best cover clique */
        size_t k = c->clique_start[q + 1] - c->clique_start[q];
        if (k > c->n_max_clique) {
            memcpy(c->max_clique, c->clique_members + c->clique_start[q], k * sizeof *c->max_clique);
            c->n_max_clique = k;
        }
    }
    if (n > MAX_CLIQUE_N || n == 0)
        return RTP_OK;
    mc s = {c, malloc(n * sizeof(size_t)), 0, c->max_clique, c->n_max_clique, 0,
            calloc((n + 2) * 3 * W, sizeof(uint64_t)), malloc((n + 1) * n * sizeof(size_t)),
            malloc((n + 1) * n * sizeof(size_t))};
    rtp_status st = RTP_OK;
    if (!s.cur || !s.pool || !s.ord || !s.col) {
        st = RTP_ENOMEM;
    } else {
        for (size_t i = 0; i < n; i++)
            if (!empty(ILP_ROW(c, c->adj, i), W))
                ilp_set_bit(s.pool, i);
        expand(&s, 0);
        c->n_max_clique = s.n_best;
    }
    free(s.cur);
    free(s.pool);
    free(s.ord);
    free(s.col);
    return st;
}

rtp_status ilp_conflicts(ilp_ctx *c)
{
    size_t n = c->n;
    c->words = n / 64 + 1;
    c->adj = calloc(n * c->words + 1, sizeof *c->adj);
    c->adj_test = calloc(n * c->words + 1, sizeof *c->adj_test);
    if (!c->adj || !c->adj_test)
        return RTP_ENOMEM;
    long tested = 0;
    for (size_t a = 0; a < n; a++)
        for (size_t b = a + 1; b < n; b++) {
            if (!shares_a_cpu(c, a, b))
                continue;
            if ((++tested & 63) == 0 && c->deadline > 0 && ilp_now() > c->deadline)
                goto graph_done; /* the loop reports the time limit */
            int fails, by_test;
            rtp_status st = pair(c, a, b, &fails, &by_test);
            if (st != RTP_OK)
                return st;
            if (!fails)
                continue;
            ilp_set_bit(ILP_ROW(c, c->adj, a), b);
            ilp_set_bit(ILP_ROW(c, c->adj, b), a);
            if (by_test) {
                ilp_set_bit(ILP_ROW(c, c->adj_test, a), b);
                ilp_set_bit(ILP_ROW(c, c->adj_test, b), a);
            }
            c->stats->conflicts++;
        }
graph_done:;
    rtp_status st = cover(c);
    if (st == RTP_OK)
        st = largest(c);
    c->stats->cliques = (int)c->n_cliques;
    return st;
}

rtp_status ilp_clique_rows(ilp_ctx *c)
{
    rtp_status st = RTP_OK;
    for (size_t q = 0; q < c->n_cliques && st == RTP_OK; q++) {
        int added;
        st = ilp_set_rows(c, c->clique_members + c->clique_start[q],
                          c->clique_start[q + 1] - c->clique_start[q], 2, 1.0, "clq", q, &added);
    }
    return st;
}
