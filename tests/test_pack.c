/* tests/test_pack.c — the packing engine (heuristics/pack.c) against a slow
 * reference written from the definitions (the plain loop of the engine it
 * replaced; loads exact in GMP from C / T and C / min(D, T), nothing shared
 * with the engine but the admission test it calls): for every task in
 * the order's sequence, every bin is a candidate (in scan order; sorted by
 * load for best and worst fit with a stable insertion sort), and admission
 * recomputes the bin's exact utilization (GMP) and runs the admission test
 * over the bin's tasks. The fast engine answers most admissions from
 * running sums and bounds (heuristics/pack_sum.h) and skips full bins with
 * an index; it must give the same assignment, the same plan verdict and the
 * same status on every set. Sets are seeded and built to hit the edges:
 * equal loads (identical and harmonic tasks, so best/worst-fit ties and
 * capacity met exactly), constrained and arbitrary deadlines, jitter,
 * blocking, overheads, affinities, capacities below 1, CPU ids out of
 * order, clusters of unequal sizes, every placement, order, fit measure,
 * priority rule and both admission kinds. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <gmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "heuristics/cluster.h"
#include "heuristics/partition.h"
#include "models/effective.h"
#include "solver/rr.h"
#include "support/testutil.h"

#define MAXN 48
#define MAXM 8
#define NONE ((size_t)-1)

/* ---- the reference: the previous engine ---- */

typedef struct ref_bins {
    int cpus[MAXM][MAXM];
    size_t len[MAXM];
    size_t n;
} ref_bins;

typedef struct ref_bin {
    size_t idx[MAXN];
    rtp_task tasks[MAXN];
    size_t len;
} ref_bin;

/* A task's load by its definition, exact: utilization C / T, density
 * C / min(D, T) [LL73] (written from the definition, not from the engine's
 * load sums, heuristics/pack_sum.h). */
static void ref_task_load(mpq_t out, const rtp_task *t, rtp_load_kind kind)
{
    rtp_ns den = t->period_ns;
    if (kind == RTP_LOAD_DENSITY && t->deadline_ns < den)
        den = t->deadline_ns;
    mpq_set_ui(out, (unsigned long)t->wcet_ns, (unsigned long)den);
    mpq_canonicalize(out);
}

/* (sum of the tasks' loads, plus extra) / size, exact. */
static void ref_load(mpq_t out, const rtp_task *tasks, size_t n, const rtp_task *extra,
                     rtp_load_kind kind, size_t size)
{
    mpq_t term;
    mpq_init(term);
    mpq_set_ui(out, 0, 1);
    for (size_t k = 0; k <= n; k++) {
        const rtp_task *t = k < n ? &tasks[k] : extra;
        if (!t)
            break;
        ref_task_load(term, t, kind);
        mpq_add(out, out, term);
    }
    mpq_set_ui(term, (unsigned long)size, 1);
    mpq_div(out, out, term);
    mpq_clear(term);
}

static int ref_cmp_bins(const ref_bin *x, size_t sx, const ref_bin *y, size_t sy,
                        rtp_load_kind kind)
{
    mpq_t a, b;
    mpq_inits(a, b, NULL);
    ref_load(a, x->tasks, x->len, NULL, kind, sx);
    ref_load(b, y->tasks, y->len, NULL, kind, sy);
    int c = mpq_cmp(a, b);
    mpq_clears(a, b, NULL);
    return (c > 0) - (c < 0);
}

static int ref_allowed(const rtp_task *t, const int *cpus, size_t len)
{
    for (size_t k = 0; t->affinity && k < len; k++) {
        int found = 0;
        for (size_t a = 0; a < t->affinity_len; a++)
            found = found || t->affinity[a] == cpus[k];
        if (!found)
            return 0;
    }
    return 1;
}

static int ref_order_cmp(const rtp_task *a, size_t ia, const rtp_task *b, size_t ib,
                         rtp_order order)
{
    int c = 0;
    switch (order) {
    case RTP_ORDER_UTIL:
    case RTP_ORDER_DENSITY: { /* larger load first */
        rtp_load_kind kind = order == RTP_ORDER_UTIL ? RTP_LOAD_UTIL : RTP_LOAD_DENSITY;
        mpq_t qa, qb;
        mpq_inits(qa, qb, NULL);
        ref_task_load(qa, a, kind);
        ref_task_load(qb, b, kind);
        c = mpq_cmp(qb, qa);
        c = (c > 0) - (c < 0);
        mpq_clears(qa, qb, NULL);
        break;
    }
    case RTP_ORDER_DEADLINE: c = (a->deadline_ns > b->deadline_ns) - (a->deadline_ns < b->deadline_ns); break;
    case RTP_ORDER_PERIOD: c = (a->period_ns > b->period_ns) - (a->period_ns < b->period_ns); break;
    case RTP_ORDER_INPUT: break;
    }
    return c ? c : (ia > ib) - (ia < ib);
}

/* The previous rtp_pack_run's placement loop: where[i] = bin or NONE. */
static rtp_status ref_pack(const rtp_taskset *ts, const ref_bins *bins, rtp_policy policy,
                           int bound, const rtp_part_opts *opts, size_t *where)
{
    size_t n = ts->n_tasks, m = bins->n, order[MAXN], scan[MAXM], cand[MAXM];
    static ref_bin b[MAXM];
    rtp_task eff[MAXN], scratch[MAXN + 1];
    rtp_diag diag;
    rtp_status st = rtp_effective_tasks(ts->tasks, n, &ts->platform.overheads, policy, eff, &diag);
    if (st != RTP_OK)
        return st;
    memset(b, 0, sizeof b);
    for (size_t i = 0; i < n; i++) {
        where[i] = NONE;
        size_t k = i;
        for (; k > 0 && ref_order_cmp(&eff[i], i, &eff[order[k - 1]], order[k - 1],
                                      opts->order) < 0; k--)
            order[k] = order[k - 1];
        order[k] = i;
    }
    for (size_t j = 0; j < m; j++) { /* by smallest CPU id */
        size_t k = j;
        int low = bins->cpus[j][0];
        for (size_t c = 1; c < bins->len[j]; c++)
            low = bins->cpus[j][c] < low ? bins->cpus[j][c] : low;
        for (; k > 0; k--) {
            int other = bins->cpus[scan[k - 1]][0];
            for (size_t c = 1; c < bins->len[scan[k - 1]]; c++)
                other = bins->cpus[scan[k - 1]][c] < other ? bins->cpus[scan[k - 1]][c] : other;
            if (other <= low)
                break;
            scan[k] = scan[k - 1];
        }
        scan[k] = j;
    }
    size_t cursor = 0;
    mpq_t load, cap;
    mpq_inits(load, cap, NULL);
    mpq_set_ui(cap, (unsigned long)opts->capacity.num, (unsigned long)opts->capacity.den);
    mpq_canonicalize(cap);
    for (size_t pos = 0; pos < n && st == RTP_OK; pos++) {
        size_t i = order[pos], nc = 0, first = opts->placement == RTP_PLACE_NF ? cursor : 0;
        for (size_t s = first; s < m; s++)
            cand[nc++] = scan[s];
        int sign = opts->placement == RTP_PLACE_BF ? -1 : 1;
        for (size_t a = 1; (opts->placement == RTP_PLACE_BF || opts->placement == RTP_PLACE_WF) &&
                           a < nc; a++) {
            size_t x = cand[a], k = a;
            for (; k > 0; k--) {
                size_t y = cand[k - 1];
                int c = ref_cmp_bins(&b[x], bins->len[x], &b[y], bins->len[y], opts->fit_measure);
                if (sign * c >= 0)
                    break;
                cand[k] = y;
            }
            cand[k] = x;
        }
        for (size_t c = 0; c < nc && st == RTP_OK; c++) {
            size_t j = cand[c], size = bins->len[j];
            if (!ref_allowed(&eff[i], bins->cpus[j], size))
                continue;
            ref_load(load, b[j].tasks, b[j].len, &eff[i], RTP_LOAD_UTIL, size);
            if (mpq_cmp(load, cap) > 0)
                continue;
            size_t k = 0, cnt = 0;
            for (; k < b[j].len && b[j].idx[k] < i; k++)
                scratch[cnt++] = b[j].tasks[k];
            scratch[cnt++] = eff[i];
            for (; k < b[j].len; k++)
                scratch[cnt++] = b[j].tasks[k];
            rtp_test test = bound ? rtp_test_bound(policy, opts->limits)
                                  : rtp_test_exact(policy, opts->priority, (int)size, opts->limits);
            /* the engine's SCHED_RR terms and its choice at tied levels */
            test.rr = rtp_rr_params_of(ts->platform.rr_quantum_ns, ts->platform.tick_ns,
                                       &ts->platform.overheads);
            test.choose_ties = !opts->keep_tie_policy;
            rtp_test_result res;
            memset(&res, 0, sizeof res);
            if ((st = rtp_test_run(&test, scratch, cnt, &res, &diag)) != RTP_OK || !res.schedulable)
                continue;
            size_t at = b[j].len;
            for (; at > 0 && b[j].idx[at - 1] > i; at--) {
                b[j].idx[at] = b[j].idx[at - 1];
                b[j].tasks[at] = b[j].tasks[at - 1];
            }
            b[j].idx[at] = i;
            b[j].tasks[at] = eff[i];
            b[j].len++;
            where[i] = j;
            if (opts->placement == RTP_PLACE_NF)
                cursor = first + c;
            break;
        }
    }
    mpq_clears(load, cap, NULL);
    return st;
}

/* ---- random sets ---- */

typedef struct set {
    rtp_taskset ts;
    rtp_task tasks[MAXN];
    char names[MAXN][24];
    int affinity[MAXN][MAXM];
    int cpus[MAXM];
    size_t m;
} set;

static rtp_ns pick_period(tu_rng *rng, int style)
{
    static const rtp_ns harmonic[] = {10, 20, 40, 80, 160};
    static const rtp_ns divisors[] = {6, 10, 12, 15, 20, 30, 60};
    switch (style) {
    case 0: return harmonic[tu_range(rng, 0, 4)];
    case 1: return divisors[tu_range(rng, 0, 6)];
    default: return tu_range(rng, 5, 1000000);
    }
}

static void random_set(tu_rng *rng, set *s)
{
    memset(s, 0, sizeof *s);
    size_t n = (size_t)tu_range(rng, 1, MAXN), m = (size_t)tu_range(rng, 1, MAXM);
    int style = (int)tu_range(rng, 0, 3); /* 3: identical tasks */
    int deadlines = (int)tu_range(rng, 0, 2), delays = tu_range(rng, 0, 3) == 0;
    s->m = m;
    for (size_t j = 0; j < m; j++)
        s->cpus[j] = (int)j;
    for (size_t j = m; j > 1; j--) { /* CPU ids out of order */
        size_t k = (size_t)tu_range(rng, 0, (int64_t)j - 1);
        int tmp = s->cpus[j - 1];
        s->cpus[j - 1] = s->cpus[k];
        s->cpus[k] = tmp;
    }
    s->ts.time_unit_ns = 1;
    s->ts.tasks = s->tasks;
    s->ts.n_tasks = n;
    /* Total utilization around m x (0.6 .. 1.2): some sets do not fit. */
    int64_t per_mille = tu_range(rng, 600, 1200) * (int64_t)m / (int64_t)n;
    rtp_ns same_t = pick_period(rng, style == 3 ? 1 : style);
    for (size_t i = 0; i < n; i++) {
        rtp_task *t = &s->tasks[i];
        snprintf(s->names[i], sizeof s->names[i], "T%zu", i);
        t->name = s->names[i];
        t->period_ns = style == 3 ? same_t : pick_period(rng, style);
        int64_t u = style == 3 ? per_mille : tu_range(rng, 1, 2 * per_mille > 1 ? 2 * per_mille : 1);
        t->wcet_ns = t->period_ns * u / 1000;
        t->wcet_ns = t->wcet_ns < 1 ? 1 : t->wcet_ns > t->period_ns ? t->period_ns : t->wcet_ns;
        t->deadline_ns = t->period_ns;
        if (deadlines == 1)
            t->deadline_ns = tu_range(rng, t->wcet_ns, t->period_ns);
        else if (deadlines == 2)
            t->deadline_ns = tu_range(rng, t->wcet_ns, 2 * t->period_ns);
        if (delays && tu_range(rng, 0, 1)) {
            t->jitter_ns = tu_range(rng, 0, t->deadline_ns / 4);
            t->blocking_ns = tu_range(rng, 0, 1) ? tu_range(rng, 0, t->wcet_ns) : 0;
        }
        if (tu_range(rng, 0, 9) == 0) { /* an affinity of one or two CPUs */
            t->affinity = s->affinity[i];
            t->affinity_len = (size_t)tu_range(rng, 1, 2);
            for (size_t a = 0; a < t->affinity_len; a++)
                s->affinity[i][a] = (int)tu_range(rng, 0, (int64_t)m - 1);
        }
        t->has_priority = 1;
        t->priority = (int)tu_range(rng, 1, 5);
    }
    if (tu_range(rng, 0, 5) == 0) {
        s->ts.platform.overheads.release_latency_ns = tu_range(rng, 0, 2);
        s->ts.platform.overheads.context_switch_ns = tu_range(rng, 0, 1);
        s->ts.platform.overheads.deadline_charge_ns = tu_range(rng, 0, 1);
    }
}

static rtp_part_opts random_opts(tu_rng *rng, int allow_bound)
{
    static const rtp_ratio caps[] = {{1, 1}, {1, 1}, {9, 10}, {3, 4}, {2, 3}, {1, 2}};
    rtp_part_opts o = rtp_part_opts_default();
    o.policy = tu_range(rng, 0, 1) ? RTP_POLICY_FP : RTP_POLICY_EDF;
    o.priority = (rtp_prio_rule)tu_range(rng, 0, 3);
    o.placement = (rtp_placement)tu_range(rng, 0, RTP_N_PLACEMENTS - 1);
    o.order = (rtp_order)tu_range(rng, 0, RTP_N_ORDERS - 1);
    o.capacity = caps[tu_range(rng, 0, 5)];
    o.fit_measure = tu_range(rng, 0, 1) ? RTP_LOAD_DENSITY : RTP_LOAD_UTIL;
    o.bound_admission = allow_bound && tu_range(rng, 0, 3) == 0;
    o.threads = 1;
    return o;
}

/* The plan's assignment as bin indices per task (by name "T<i>"). */
static void plan_where(const rtp_plan *plan, size_t n, size_t *where)
{
    for (size_t i = 0; i < n; i++)
        where[i] = NONE;
    for (size_t j = 0; j < plan->n_bins; j++)
        for (size_t k = 0; k < plan->bins[j].n_tasks; k++)
            where[strtoul(plan->bins[j].tasks[k].task.name + 1, NULL, 10)] = j;
}

static void check_same(const set *s, rtp_status got_st, const rtp_plan *plan,
                       rtp_status ref_st, const size_t *ref_where, uint64_t seed)
{
    if (ref_st != RTP_OK || got_st != RTP_OK) {
        if (got_st != ref_st)
            fail_msg("seed %llu: status %d, reference %d", (unsigned long long)seed, got_st, ref_st);
        return;
    }
    size_t where[MAXN];
    plan_where(plan, s->ts.n_tasks, where);
    for (size_t i = 0; i < s->ts.n_tasks; i++)
        if (where[i] != ref_where[i])
            fail_msg("seed %llu: task %zu on bin %lld, reference %lld", (unsigned long long)seed,
                     i, (long long)where[i], (long long)ref_where[i]);
}

/* Partitioned: one bin per CPU, CPUs in the set's (shuffled) order. */
static void test_partition_differential(void **state)
{
    (void)state;
    static set s;
    long accepted = 0, total = 3000;
    for (long k = 0; k < total; k++) {
        uint64_t seed = 0x9ac0000 + (uint64_t)k;
        tu_rng rng = {seed};
        random_set(&rng, &s);
        rtp_part_opts o = random_opts(&rng, 1);
        ref_bins bins;
        bins.n = s.m;
        for (size_t j = 0; j < s.m; j++) {
            bins.cpus[j][0] = s.cpus[j];
            bins.len[j] = 1;
        }
        size_t ref_where[MAXN];
        rtp_status ref_st = ref_pack(&s.ts, &bins, o.policy, o.bound_admission, &o, ref_where);
        rtp_plan plan;
        rtp_diag diag;
        rtp_status st = rtp_part_pack(&s.ts, s.cpus, s.m, &o, &plan, &diag);
        check_same(&s, st, &plan, ref_st, ref_where, seed);
        if (st == RTP_OK) {
            accepted += plan.feasible;
            rtp_plan_free(&plan);
        }
    }
    /* The sets are near the limit: both answers must be common. */
    assert_true(accepted > total / 10 && accepted < total * 9 / 10);
}

/* Clustered: random shapes (sizes 1..3), global tests, per-CPU loads. */
static void test_cluster_differential(void **state)
{
    (void)state;
    static set s;
    for (long k = 0; k < 800; k++) {
        uint64_t seed = 0xc1c0000 + (uint64_t)k;
        tu_rng rng = {seed};
        random_set(&rng, &s);
        s.ts.n_tasks = s.ts.n_tasks > 16 ? 16 : s.ts.n_tasks; /* global tests are slower */
        rtp_part_opts o = random_opts(&rng, 0);
        ref_bins bins;
        int *lists[MAXM];
        size_t lens[MAXM];
        bins.n = 0;
        for (size_t c = 0; c < s.m; bins.n++) {
            size_t len = (size_t)tu_range(&rng, 1, 3);
            len = len > s.m - c ? s.m - c : len;
            for (size_t q = 0; q < len; q++)
                bins.cpus[bins.n][q] = s.cpus[c + q];
            bins.len[bins.n] = len;
            lists[bins.n] = bins.cpus[bins.n];
            lens[bins.n] = len;
            c += len;
        }
        for (size_t i = 0; i < s.ts.n_tasks; i++) /* an affinity must cover a whole cluster */
            s.tasks[i].affinity = NULL;
        rtp_cluster_list cl = {lists, lens, bins.n};
        rtp_policy global = o.policy == RTP_POLICY_FP ? RTP_POLICY_GFP : RTP_POLICY_GEDF;
        size_t ref_where[MAXN];
        rtp_status ref_st = ref_pack(&s.ts, &bins, global, 0, &o, ref_where);
        rtp_plan plan;
        rtp_diag diag;
        rtp_status st = rtp_cluster_pack(&s.ts, s.cpus, s.m, &cl, &o, &plan, &diag);
        check_same(&s, st, &plan, ref_st, ref_where, seed);
        if (st == RTP_OK)
            rtp_plan_free(&plan);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_partition_differential),
        cmocka_unit_test(test_cluster_differential),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
