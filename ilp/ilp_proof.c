/* ilp/ilp_proof.c — exact pre-checks before GLPK and the certificates of
 * infeasibility (the kinds are listed in ilp.h).
 *
 * Each check is a proof on its own, in exact arithmetic (utilization sums by
 * rtp_load_cmp and GMP rationals, conflicts by the exact test):
 * - utilization: a partition puts every task on a CPU whose utilization is
 *   at most the capacity, so U(all) <= capacity x M.
 * - affinity: likewise for a set S of tasks and the CPUs N(S) they may use:
 *   U(S) <= capacity x |N(S)| (Hall's condition [Hal35]). All of these
 *   hold at once exactly when the transportation problem "split every task's
 *   utilization over its CPUs, at most the capacity per CPU" is feasible, so
 *   a maximum flow decides them all and its minimum cut names a violated S
 *   (ilp_flow.c, in GMP integers).
 * - conflict-clique: tasks of a clique of the conflict graph need distinct
 *   CPUs: a matching of the clique into its allowed CPUs must exist; when
 *   none does, the vertices reachable by alternating paths from an
 *   unmatched one form a sub-clique Z with |N(Z)| = |Z| - 1 (Hall again).
 * - clique-volume: a clique K holds |K| distinct CPUs of N(K), of which at
 *   most |N(K) \ N(R)| lie outside N(R) for the tasks R that conflict with
 *   every task of K; R can use none of the CPUs holding K, so
 *   U(R) <= capacity x (|N(R)| - max(0, |K| - |N(K) \ N(R)|)).
 * A certificate is only ever built from one of these implications; the
 * tests (tests/test_ilp.c) re-check each with independent code. */
#include "ilp/ilp_internal.h"

#include <gmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/ratio.h"

static const char *const proof_names[] = {"",         "task-alone",      "utilization",
                                          "affinity", "conflict-clique", "clique-volume",
                                          "search"};

const char *rtp_ilp_proof_name(rtp_ilp_proof_kind k)
{
    return rtp_enum_name(proof_names, RTP_COUNT_OF(proof_names), (int)k);
}

/* ---- helpers ---- */

static void say(ilp_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void say(ilp_ctx *c, const char *fmt, ...)
{
    size_t len = strlen(c->explanation);
    if (len + 1 >= sizeof c->explanation)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->explanation + len, sizeof c->explanation - len, fmt, ap);
    va_end(ap);
}

static double util_of(const ilp_ctx *c, const size_t *idx, size_t k)
{
    double u = 0.0;
    for (size_t q = 0; q < k; q++)
        u += (double)c->tasks[idx[q]].wcet_ns / (double)c->tasks[idx[q]].period_ns;
    return u;
}

/* Exact sign(U(idx) - capacity x cpus), through the shared load comparison. */
static int util_cmp(ilp_ctx *c, const size_t *idx, size_t k, size_t cpus)
{
    rtp_ratio cap = c->opts->part.capacity, bound;
    __int128 num = (__int128)cap.num * (__int128)cpus;
    if (num > INT64_MAX)
        return -1; /* a bound past 2^63: no set of int64 utilizations reaches it here */
    bound.num = (int64_t)num;
    bound.den = cap.den;
    for (size_t q = 0; q < k; q++)
        c->sub[q] = c->tasks[idx[q]];
    return rtp_load_cmp(c->sub, k, RTP_LOAD_UTIL, bound);
}

/* U(idx) - capacity x cpus as a double, for the explanation only. */
static double excess(const ilp_ctx *c, const size_t *idx, size_t k, size_t cpus)
{
    mpq_t sum, term;
    mpq_init(sum);
    mpq_init(term);
    for (size_t q = 0; q < k; q++) {
        mpz_set_si(mpq_numref(term), c->tasks[idx[q]].wcet_ns);
        mpz_set_si(mpq_denref(term), c->tasks[idx[q]].period_ns);
        mpq_canonicalize(term);
        mpq_add(sum, sum, term);
    }
    mpz_set_si(mpq_numref(term), c->opts->part.capacity.num);
    mpz_mul_ui(mpq_numref(term), mpq_numref(term), (unsigned long)cpus);
    mpz_set_si(mpq_denref(term), c->opts->part.capacity.den);
    mpq_canonicalize(term);
    mpq_sub(sum, sum, term);
    double d = mpq_get_d(sum);
    mpq_clear(sum);
    mpq_clear(term);
    return d;
}

static size_t allowed_count(const ilp_ctx *c, size_t i)
{
    size_t k = 0;
    for (size_t j = 0; j < c->m; j++)
        k += (size_t)c->allowed[ILP_AT(c, i, j)];
    return k;
}

/* Records the certificate: tasks idx[0..k-1] and the CPUs they may use
 * (by affinity; tasks that fail alone are homeless and use none). */
static rtp_status record(ilp_ctx *c, rtp_ilp_proof_kind kind, const size_t *idx, size_t k,
                         size_t clique)
{
    free(c->proof_tasks);
    free(c->proof_cpus);
    c->proof_tasks = malloc((k ? k : 1) * sizeof *c->proof_tasks);
    c->proof_cpus = malloc((c->m ? c->m : 1) * sizeof *c->proof_cpus);
    if (!c->proof_tasks || !c->proof_cpus)
        return RTP_ENOMEM;
    memcpy(c->proof_tasks, idx, k * sizeof *idx);
    c->n_proof_tasks = k;
    c->proof_clique = clique;
    c->n_proof_cpus = 0;
    for (size_t j = 0; j < c->m; j++) {
        int any = 0;
        for (size_t q = 0; q < k && !any; q++)
            any = c->allowed[ILP_AT(c, idx[q], j)];
        if (any)
            c->proof_cpus[c->n_proof_cpus++] = j;
    }
    c->proof = kind;
    c->stats->proof = kind;
    c->explanation[0] = '\0';
    return RTP_OK;
}

static void say_cap(ilp_ctx *c)
{
    char cap[48];
    rtp_ratio_format(c->opts->part.capacity, cap, sizeof cap);
    say(c, "%s", cap);
}

/* " (A, B, C and 5 more)" */
static void say_names(ilp_ctx *c, const size_t *idx, size_t k)
{
    say(c, " (");
    for (size_t q = 0; q < k && (q < 3 || k == 4); q++)
        say(c, "%s%s", q ? ", " : "", c->tasks[idx[q]].name ? c->tasks[idx[q]].name : "?");
    if (k > 4)
        say(c, " and %zu more", k - 3);
    say(c, ")");
}

static void say_cpus(ilp_ctx *c)
{
    say(c, "CPU%s ", c->n_proof_cpus == 1 ? "" : "s");
    for (size_t q = 0; q < c->n_proof_cpus && q < 8; q++)
        say(c, "%s%d", q ? "," : "", c->cpus[c->proof_cpus[q]]);
    if (c->n_proof_cpus > 8)
        say(c, ",...");
}

/* ---- the checks ---- */

static rtp_status task_alone(ilp_ctx *c, int *found)
{
    for (size_t i = 0; i < c->n; i++) {
        if (allowed_count(c, i) > 0)
            continue;
        rtp_status st = record(c, RTP_PROOF_TASK_ALONE, &i, 1, 0);
        if (st != RTP_OK)
            return st;
        /* its CPUs: the affinity (the exact test failed on every one) */
        c->n_proof_cpus = 0;
        for (size_t j = 0; j < c->m; j++) {
            const rtp_task *t = &c->tasks[i];
            int ok = !t->affinity;
            for (size_t a = 0; t->affinity && a < t->affinity_len; a++)
                ok |= t->affinity[a] == c->cpus[j];
            if (ok)
                c->proof_cpus[c->n_proof_cpus++] = j;
        }
        const char *name = c->tasks[i].name ? c->tasks[i].name : "?";
        if (util_cmp(c, &i, 1, 1) > 0) {
            say(c, "task %s alone has %sutilization %.10g, above the capacity ", name,
                c->effective ? "effective " : "", util_of(c, &i, 1));
            say_cap(c);
            say(c, " of any CPU");
        } else {
            say(c, "task %s misses its deadline even alone on a CPU (exact %s test)", name,
                c->opts->part.policy == RTP_POLICY_FP ? "fixed-priority" : "EDF");
        }
        *found = 1;
        return RTP_OK;
    }
    return RTP_OK;
}

static rtp_status total(ilp_ctx *c, int *found)
{
    size_t *all = malloc((c->n ? c->n : 1) * sizeof *all);
    if (!all)
        return RTP_ENOMEM;
    for (size_t i = 0; i < c->n; i++)
        all[i] = i;
    rtp_status st = RTP_OK;
    if (util_cmp(c, all, c->n, c->m) > 0) {
        st = record(c, RTP_PROOF_UTILIZATION, all, c->n, 0);
        if (st == RTP_OK) {
            say(c, "the total %sutilization of the %zu tasks, %.12g, exceeds %zu CPU%s x capacity ",
                c->effective ? "effective " : "", c->n, util_of(c, all, c->n), c->m,
                c->m == 1 ? "" : "s");
            say_cap(c);
            say(c, " (by %.3g)", excess(c, all, c->n, c->m));
            *found = 1;
        }
    }
    free(all);
    return st;
}

/* Fractional Hall condition: the exact relaxation (ilp_flow.c) with no
 * task fixed; its minimum cut is the violated set. */
static rtp_status affinity(ilp_ctx *c, int *found)
{
    int restricted = 0;
    for (size_t i = 0; i < c->n && !restricted; i++)
        restricted = allowed_count(c, i) < c->m;
    if (!restricted)
        return RTP_OK; /* every N(S) is all CPUs: the utilization check covers it */
    rtp_status st = c->flow ? RTP_OK : ilp_flow_create(c, &c->flow);
    if (st != RTP_OK)
        return st;
    for (size_t i = 0; i < c->n; i++) {
        c->fixed[i] = -1;
        for (size_t j = 0; j < c->m; j++)
            c->open[ILP_AT(c, i, j)] = c->allowed[ILP_AT(c, i, j)];
    }
    size_t k, cpus = 0, *set = c->cut_tasks;
    if (!ilp_flow_cut(c->flow, c->open, c->fixed, set, &k, c->cut_cpus))
        return RTP_OK;
    for (size_t j = 0; j < c->m; j++)
        cpus += (size_t)c->cut_cpus[j];
    if (util_cmp(c, set, k, cpus) <= 0) /* the cut must say so exactly */
        return rtp_diag_set(c->diag, RTP_EINTERNAL, "", "ILP: the affinity cut is not violated");
    if ((st = record(c, RTP_PROOF_AFFINITY, set, k, 0)) != RTP_OK)
        return st;
    say(c, "%zu task%s", k, k == 1 ? "" : "s");
    say_names(c, set, k);
    say(c, " may run only on ");
    say_cpus(c);
    say(c, " (affinity), and their %sutilization %.12g exceeds %zu x capacity ",
        c->effective ? "effective " : "", util_of(c, set, k), cpus);
    say_cap(c);
    say(c, " (by %.3g)", excess(c, set, k, cpus));
    *found = 1;
    return RTP_OK;
}

/* Kuhn's augmenting path [Kuh55] from clique member p; marks what it visits. */
static int kuhn(const ilp_ctx *c, const size_t *K, size_t p, int *match, int *seen_cpu,
                int *seen_task)
{
    seen_task[p] = 1;
    for (size_t j = 0; j < c->m; j++) {
        if (!c->allowed[ILP_AT(c, K[p], j)] || seen_cpu[j])
            continue;
        seen_cpu[j] = 1;
        if (match[j] < 0 || kuhn(c, K, (size_t)match[j], match, seen_cpu, seen_task)) {
            match[j] = (int)p;
            return 1;
        }
    }
    return 0;
}

/* A clique with no matching into its CPUs: *z receives the deficient
 * sub-clique (its CPUs number one fewer), *nz its size; 0 when matchable. */
static rtp_status deficient(const ilp_ctx *c, const size_t *K, size_t k, size_t *z, size_t *nz)
{
    *nz = 0;
    int *match = malloc(c->m * sizeof *match), *seen_cpu = malloc(c->m * sizeof *seen_cpu);
    int *seen_task = malloc((k ? k : 1) * sizeof *seen_task);
    if (!match || !seen_cpu || !seen_task) {
        free(match);
        free(seen_cpu);
        free(seen_task);
        return RTP_ENOMEM;
    }
    for (size_t j = 0; j < c->m; j++)
        match[j] = -1;
    for (size_t p = 0; p < k; p++) {
        memset(seen_cpu, 0, c->m * sizeof *seen_cpu);
        memset(seen_task, 0, k * sizeof *seen_task);
        if (kuhn(c, K, p, match, seen_cpu, seen_task))
            continue;
        for (size_t q = 0; q < k; q++)
            if (seen_task[q])
                z[(*nz)++] = K[q];
        break;
    }
    free(match);
    free(seen_cpu);
    free(seen_task);
    return RTP_OK;
}

/* "each pair misses a deadline together", from the edge reasons. */
static void say_reason(ilp_ctx *c, const size_t *K, size_t k)
{
    size_t by_test = 0, pairs = 0;
    for (size_t p = 0; p < k; p++)
        for (size_t q = p + 1; q < k; q++) {
            pairs++;
            by_test += (size_t)ilp_bit(ILP_ROW(c, c->adj_test, K[p]), K[q]);
        }
    say(c, "each pair %s together",
        by_test == pairs ? "misses a deadline"
                         : by_test == 0 ? "exceeds the capacity"
                                        : "exceeds the capacity or misses a deadline");
}

/* Every clique found: the largest, then the cover's. */
static const size_t *clique_at(const ilp_ctx *c, size_t q, size_t *k)
{
    if (q == 0) {
        *k = c->n_max_clique;
        return c->max_clique;
    }
    *k = c->clique_start[q] - c->clique_start[q - 1];
    return c->clique_members + c->clique_start[q - 1];
}

static rtp_status clique(ilp_ctx *c, int *found)
{
    size_t *z = malloc((c->n ? c->n : 1) * sizeof *z);
    if (!z)
        return RTP_ENOMEM;
    rtp_status st = RTP_OK;
    for (size_t q = 0; q <= c->n_cliques && st == RTP_OK && !*found; q++) {
        size_t k, nz;
        const size_t *K = clique_at(c, q, &k);
        if (k < 2 || (st = deficient(c, K, k, z, &nz)) != RTP_OK || nz == 0)
            continue;
        if ((st = record(c, RTP_PROOF_CLIQUE, z, nz, 0)) != RTP_OK)
            break;
        say(c, "%zu tasks", nz);
        say_names(c, z, nz);
        say(c, " pairwise cannot share a CPU (");
        say_reason(c, z, nz);
        if (c->n_proof_cpus == c->m) {
            say(c, "); only %zu CPU%s", c->m, c->m == 1 ? "" : "s");
        } else {
            say(c, "); together they may use only %zu: ", c->n_proof_cpus);
            say_cpus(c);
        }
        *found = 1;
    }
    free(z);
    return st;
}

/* Scratch of the clique-volume check. */
typedef struct volume {
    size_t *set;      /* K then R */
    uint64_t *common; /* words */
    int *in_nk, *in_nr;
} volume;

/* The clique K minus member `drop` (k = none dropped) against the tasks R in
 * conflict with all of it. */
static rtp_status try_volume(ilp_ctx *c, volume *v, const size_t *K, size_t k, size_t drop,
                             int *found)
{
    size_t n = c->n, W = c->words, kk = 0;
    for (size_t p = 0; p < k; p++)
        if (p != drop)
            v->set[kk++] = K[p];
    if (kk == 0)
        return RTP_OK;
    memcpy(v->common, ILP_ROW(c, c->adj, v->set[0]), W * sizeof *v->common);
    for (size_t p = 1; p < kk; p++)
        for (size_t w = 0; w < W; w++)
            v->common[w] &= ILP_ROW(c, c->adj, v->set[p])[w];
    size_t r = 0;
    for (size_t i = 0; i < n; i++)
        if (ilp_bit(v->common, i))
            v->set[kk + r++] = i; /* never in K: no task conflicts with itself */
    if (r == 0)
        return RTP_OK;
    size_t nr = 0, outside = 0;
    for (size_t j = 0; j < c->m; j++) {
        v->in_nk[j] = v->in_nr[j] = 0;
        for (size_t p = 0; p < kk; p++)
            v->in_nk[j] |= c->allowed[ILP_AT(c, v->set[p], j)];
        for (size_t p = 0; p < r; p++)
            v->in_nr[j] |= c->allowed[ILP_AT(c, v->set[kk + p], j)];
        nr += (size_t)v->in_nr[j];
        outside += (size_t)(v->in_nk[j] && !v->in_nr[j]);
    }
    size_t held = kk > outside ? kk - outside : 0;
    size_t left = nr > held ? nr - held : 0;
    if (util_cmp(c, v->set + kk, r, left) <= 0)
        return RTP_OK;
    rtp_status st = record(c, RTP_PROOF_CLIQUE_VOLUME, v->set, kk + r, kk);
    if (st != RTP_OK)
        return st;
    say(c, "%zu tasks", kk);
    say_names(c, v->set, kk);
    say(c, " pairwise cannot share a CPU, so they hold %zu of the %zu CPUs open to %zu "
           "other task%s", held, nr, r, r == 1 ? "" : "s");
    say_names(c, v->set + kk, r);
    say(c, " that can share a CPU with none of them; those need %sutilization %.12g, more "
           "than the %zu CPU%s left x capacity ", c->effective ? "effective " : "",
        util_of(c, v->set + kk, r), left, left == 1 ? "" : "s");
    say_cap(c);
    *found = 1;
    return RTP_OK;
}

/* Every clique found, whole and with each member dropped in turn: the
 * cover's cliques are maximal, so the tasks that conflict with all of a
 * clique are mostly found by leaving one member out. */
static rtp_status clique_volume(ilp_ctx *c, int *found)
{
    volume v = {malloc((c->n ? c->n : 1) * sizeof(size_t)), malloc(c->words * sizeof(uint64_t)),
                malloc(c->m * sizeof(int)), malloc(c->m * sizeof(int))};
    rtp_status st = v.set && v.common && v.in_nk && v.in_nr ? RTP_OK : RTP_ENOMEM;
    for (size_t q = 0; q <= c->n_cliques && st == RTP_OK && !*found; q++) {
        size_t k;
        const size_t *K = clique_at(c, q, &k);
        for (size_t drop = k + 1; drop-- > 0 && st == RTP_OK && !*found;)
            st = try_volume(c, &v, K, k, drop, found);
    }
    free(v.set);
    free(v.common);
    free(v.in_nk);
    free(v.in_nr);
    return st;
}

/* ---- entry points ---- */

rtp_status ilp_prove(ilp_ctx *c)
{
    unsigned want = c->opts->prechecks;
    int found = 0;
    rtp_status st = task_alone(c, &found);
    if (st == RTP_OK && !found && (want & RTP_PROOF_BIT(RTP_PROOF_UTILIZATION)))
        st = total(c, &found);
    if (st == RTP_OK && !found && (want & RTP_PROOF_BIT(RTP_PROOF_AFFINITY)))
        st = affinity(c, &found);
    int cliques = (want & (RTP_PROOF_BIT(RTP_PROOF_CLIQUE) | RTP_PROOF_BIT(RTP_PROOF_CLIQUE_VOLUME))) != 0;
    if (st == RTP_OK && !found && (cliques || c->opts->conflict_rows))
        st = ilp_conflicts(c);
    if (st == RTP_OK && !found && (want & RTP_PROOF_BIT(RTP_PROOF_CLIQUE)))
        st = clique(c, &found);
    if (st == RTP_OK && !found && (want & RTP_PROOF_BIT(RTP_PROOF_CLIQUE_VOLUME)))
        st = clique_volume(c, &found);
    return st;
}

rtp_status ilp_prove_search(ilp_ctx *c)
{
    size_t *all = malloc((c->n ? c->n : 1) * sizeof *all);
    if (!all)
        return RTP_ENOMEM;
    for (size_t i = 0; i < c->n; i++)
        all[i] = i;
    rtp_status st = record(c, RTP_PROOF_SEARCH, all, c->n, 0);
    free(all);
    if (st == RTP_OK)
        say(c, "GLPK's branch and bound found no partition of the %zu tasks onto the %zu CPU%s "
               "that passes the exact test (%d solve%s, %d lazy rows); no shorter reason was found",
            c->n, c->m, c->m == 1 ? "" : "s", c->stats->rounds, c->stats->rounds == 1 ? "" : "s",
            c->stats->cuts);
    return st;
}

rtp_status ilp_proof_write(const ilp_ctx *c, rtp_plan_proof *proof)
{
    if (c->proof == RTP_PROOF_NONE)
        return RTP_OK;
    const char **names = malloc((c->n_proof_tasks ? c->n_proof_tasks : 1) * sizeof *names);
    int *ids = malloc((c->n_proof_cpus ? c->n_proof_cpus : 1) * sizeof *ids);
    rtp_status st = names && ids ? RTP_OK : RTP_ENOMEM;
    for (size_t q = 0; q < c->n_proof_tasks && st == RTP_OK; q++)
        names[q] = c->tasks[c->proof_tasks[q]].name;
    for (size_t q = 0; q < c->n_proof_cpus && st == RTP_OK; q++)
        ids[q] = c->cpus[c->proof_cpus[q]];
    if (st == RTP_OK)
        st = rtp_plan_proof_set(proof, rtp_ilp_proof_name(c->proof), names, c->n_proof_tasks,
                                c->proof_clique, ids, c->n_proof_cpus, c->explanation);
    free(names);
    free(ids);
    return st;
}
