/* heuristics/pack.c — see pack.h.
 *
 * One packing loop serves the four placements (first / best / worst / next
 * fit [Joh74], used for real-time partitioning since [DL78])
 * and both kinds of bin: they differ only in which admitting bin they take.
 * Loads and orders are compared exactly: 128-bit cross products for single
 * tasks, models/ratio's sums for bins of equal size (always so for CPUs), GMP
 * rationals when a load is divided by a cluster's size.
 *
 * Near-linear time: each bin keeps running sums (pack_sum.h), so capacity
 * and, on one CPU, most test verdicts cost O(1) instead of a pass over the
 * bin; the test runs only when the sums cannot decide. First and next fit
 * find the next bin with room in O(log bins) with a max-tree of free
 * capacity over the scan order; best and worst fit keep the bins sorted by
 * load (one bin moves per placement) and skip the full ones by binary
 * search. The bins tried, and their order, are those of the plain loop
 * (every bin in scan or load order, each admitted by affinity, capacity and
 * the test): tests/test_pack.c checks the plans are the same. */
#include "heuristics/pack.h"
#include "models/grow.h"

#include "heuristics/pack_sum.h"
#include "models/effective.h"
#include "solver/fmlp.h"
#include "solver/locks.h"
#include "solver/rr.h"
#include "solver/tardiness.h"

#include <gmp.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The task set's SCHED_RR terms for every test the packing runs. */
static rtp_rr_params rr_of(const rtp_taskset *ts)
{
    return rtp_rr_params_of(ts->platform.rr_quantum_ns, ts->platform.tick_ns,
                            &ts->platform.overheads);
}

#define NONE RTP_PLAN_UNASSIGNED /* no bin; in gather, no task */
#define N_CANDIDATES ((RTP_N_PLACEMENTS + 1) * RTP_N_ORDERS) /* with sf's */
#define PROGRESS_STEP 1024 /* placements between progress reports */

rtp_status rtp_pack_check_input(const rtp_taskset *ts, const rtp_part_opts *opts,
                                rtp_diag *diag)
{
    if ((unsigned)opts->placement > RTP_PLACE_SF || (unsigned)opts->order >= RTP_N_ORDERS)
        return rtp_diag_set(diag, RTP_EINPUT, "", "unknown placement or order");
    if (opts->placement == RTP_PLACE_SF && opts->policy != RTP_POLICY_FP)
        return rtp_diag_set(diag, RTP_EINPUT, "", "slack fit (Greedy Slacker) places by response "
                                                  "times: it needs --policy fp");
    if (opts->capacity.num < 0 || opts->capacity.den <= 0)
        return rtp_diag_set(diag, RTP_EINPUT, "", "capacity must be a non-negative ratio");
    int fp = opts->policy == RTP_POLICY_FP || opts->policy == RTP_POLICY_GFP;
    for (size_t i = 0; fp && opts->priority == RTP_PRIO_GIVEN && i < ts->n_tasks; i++) {
        if (!ts->tasks[i].has_priority) {
            char path[64];
            snprintf(path, sizeof path, "tasks[%zu].priority", i);
            return rtp_diag_set(diag, RTP_EINPUT, path,
                                "missing (--priority given needs every task's priority)");
        }
    }
    return RTP_OK;
}

int rtp_pack_has_cpu(const int *list, size_t len, int cpu)
{
    for (size_t k = 0; k < len; k++)
        if (list[k] == cpu)
            return 1;
    return 0;
}

rtp_status rtp_pack_check_affinity(const rtp_taskset *ts, const rtp_pack_bins *groups,
                                   const char *missing, rtp_diag *diag)
{
    for (size_t i = 0; i < ts->n_tasks; i++) {
        const rtp_task *t = &ts->tasks[i];
        for (size_t k = 0; t->affinity && k < t->affinity_len; k++) {
            int found = 0;
            for (size_t j = 0; j < groups->n && !found; j++)
                found = rtp_pack_has_cpu(groups->cpus[j], groups->len[j], t->affinity[k]);
            if (!found) {
                char path[64];
                snprintf(path, sizeof path, "tasks[%zu].affinity", i);
                return rtp_diag_set(diag, RTP_EINPUT, path, "CPU %d %s", t->affinity[k],
                                    missing);
            }
        }
    }
    return RTP_OK;
}

int rtp_pack_allowed(const rtp_task *t, const int *cpus, size_t len)
{
    for (size_t k = 0; t->affinity && k < len; k++)
        if (!rtp_pack_has_cpu(t->affinity, t->affinity_len, cpus[k]))
            return 0;
    return 1;
}

/* ---- exact loads ---- */

static rtp_ns divisor(const rtp_task *t, rtp_load_kind kind)
{
    return kind == RTP_LOAD_DENSITY && t->deadline_ns < t->period_ns ? t->deadline_ns
                                                                     : t->period_ns;
}

/* sign(load(a) - load(b)) for single tasks: exact 128-bit cross products. */
static int cmp_task_load(const rtp_task *a, const rtp_task *b, rtp_load_kind kind)
{
    __int128 l = (__int128)a->wcet_ns * divisor(b, kind);
    __int128 r = (__int128)b->wcet_ns * divisor(a, kind);
    return (l > r) - (l < r);
}

/* out = (sum of wcet / divisor over tasks, plus `extra` when not NULL) / size. */
static void load_q(mpq_t out, const rtp_task *tasks, size_t n, const rtp_task *extra,
                   rtp_load_kind kind, size_t size)
{
    mpq_t term;
    mpq_init(term);
    mpq_set_ui(out, 0, 1);
    for (size_t k = 0; k <= n; k++) {
        const rtp_task *t = k < n ? &tasks[k] : extra;
        if (!t)
            break;
        mpz_set_si(mpq_numref(term), t->wcet_ns);
        mpz_set_si(mpq_denref(term), divisor(t, kind));
        mpq_canonicalize(term);
        mpq_add(out, out, term);
    }
    mpq_set_ui(term, (unsigned long)size, 1);
    mpq_div(out, out, term);
    mpq_clear(term);
}

/* sign(load(a) / size_a - load(b) / size_b), exact. */
static int cmp_per_cpu(const rtp_task *a, size_t na, size_t size_a, const rtp_task *b,
                       size_t nb, size_t size_b, rtp_load_kind kind)
{
    if (size_a == size_b)
        return rtp_load_cmp_sets(a, na, b, nb, kind);
    mpq_t x, y;
    mpq_inits(x, y, NULL);
    load_q(x, a, na, NULL, kind, size_a);
    load_q(y, b, nb, NULL, kind, size_b);
    int c = mpq_cmp(x, y);
    mpq_clears(x, y, NULL);
    return (c > 0) - (c < 0);
}

/* Would tasks[0..n-1] plus `extra` pass capacity x size? (utilization, exact) */
static int over_capacity(const rtp_task *tasks, size_t n, const rtp_task *extra, size_t size,
                         rtp_ratio capacity)
{
    if (size == 1)
        return rtp_load_cmp_plus(tasks, n, extra, RTP_LOAD_UTIL, capacity) > 0;
    mpq_t load, cap;
    mpq_inits(load, cap, NULL);
    load_q(load, tasks, n, extra, RTP_LOAD_UTIL, size);
    mpz_set_si(mpq_numref(cap), capacity.num);
    mpz_set_si(mpq_denref(cap), capacity.den);
    mpq_canonicalize(cap);
    int over = mpq_cmp(load, cap) > 0;
    mpq_clears(load, cap, NULL);
    return over;
}

/* ---- task order ---- */

typedef struct order_ctx {
    const rtp_task *tasks;
    rtp_order order;
} order_ctx;

static int cmp_ns(rtp_ns a, rtp_ns b)
{
    return (a > b) - (a < b);
}

static int order_cmp(const void *pa, const void *pb, void *arg)
{
    const order_ctx *c = arg;
    size_t ia = *(const size_t *)pa, ib = *(const size_t *)pb;
    const rtp_task *a = &c->tasks[ia], *b = &c->tasks[ib];
    int r = 0;
    switch (c->order) {
    case RTP_ORDER_UTIL: r = cmp_task_load(b, a, RTP_LOAD_UTIL); break;
    case RTP_ORDER_DENSITY: r = cmp_task_load(b, a, RTP_LOAD_DENSITY); break;
    case RTP_ORDER_DEADLINE: r = cmp_ns(a->deadline_ns, b->deadline_ns); break;
    case RTP_ORDER_PERIOD: r = cmp_ns(a->period_ns, b->period_ns); break;
    case RTP_ORDER_INPUT: break;
    }
    return r ? r : (ia > ib) - (ia < ib); /* ties by input order: stable */
}

/* ---- the packing state ---- */


typedef struct bin {
    size_t *idx;      /* input indices of its tasks, increasing when `sorted` */
    size_t len, cap;
    int sorted;
    rtp_pack_sum sum; /* running summary of its effective tasks (pack_sum.h) */
} bin;

typedef struct packer {
    const rtp_pack_job *job;
    const rtp_part_opts *opts;
    rtp_task *eff;      /* per task: the effective task (C', J'), which every
                         * load, order and test decision reads */
    bin *bins;          /* per job bin */
    size_t *scan;       /* bin indices by increasing smallest CPU id */
    size_t *scan_pos;   /* per bin: its position in scan */
    size_t *where;      /* per task: bin index or NONE */
    rtp_task *scratch;  /* n + 1 entries: a bin plus one candidate */
    rtp_task *scratch2; /* n entries: a second bin (best / worst fit order) */
    rtp_load_sum *cap;  /* per bin: capacity x its CPUs */
    rtp_u128 *room;         /* first / next fit: max-tree over scan positions of
                         * an upper bound of each bin's free capacity */
    size_t width;       /* leaves of the tree (a power of 2 >= bins) */
    size_t *rank;       /* best / worst fit: the bins in the order tried */
    int uniform;        /* every bin has as many CPUs */
    int locks;          /* some task has critical sections (or slack fit):
                         * every admission checks all bins (pack_locks.c) */
    struct rtp_locks_task *lk; /* slack fit: n entries of scratch */
} packer;

static int cmp_index(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return (x > y) - (x < y);
}

/* Bin j's tasks in input order into buf, with task i in its place unless i
 * is NONE (the tie-break of DM / RM / OPA sees input order); the count. */
static size_t gather(packer *p, size_t j, size_t i, rtp_task *buf)
{
    bin *b = &p->bins[j];
    if (!b->sorted) {
        qsort(b->idx, b->len, sizeof *b->idx, cmp_index);
        b->sorted = 1;
    }
    size_t k = 0, n = 0;
    for (; k < b->len && b->idx[k] < i; k++)
        buf[n++] = p->eff[b->idx[k]];
    if (i != NONE)
        buf[n++] = p->eff[i];
    for (; k < b->len; k++)
        buf[n++] = p->eff[b->idx[k]];
    return n;
}

/* capacity x size as a load sum; one that no compare can decide when the
 * product passes int64 (the exact path decides then). */
static rtp_load_sum capacity_sum(rtp_ratio capacity, size_t size)
{
    rtp_load_sum s = rtp_load_sum_zero();
    int64_t num;
    if (__builtin_mul_overflow(capacity.num, (int64_t)size, &num)) {
        s.hi = RTP_LOAD_SUM_SAT;
        s.den = 0;
    } else {
        rtp_load_sum_add(&s, num, capacity.den);
    }
    return s;
}

/* Would bin j's utilization with task i pass capacity x size? Exact: the
 * running sums decide almost always, the task list otherwise. */
static int over_cap(packer *p, size_t j, size_t i)
{
    rtp_load_sum x = p->bins[j].sum.util;
    rtp_load_sum_add(&x, p->eff[i].wcet_ns, p->eff[i].period_ns);
    int c = rtp_load_sum_cmp(&x, &p->cap[j]);
    if (c != 2)
        return c > 0;
    size_t n = gather(p, j, NONE, p->scratch);
    return over_capacity(p->scratch, n, &p->eff[i], p->job->bins.len[j], p->opts->capacity);
}

/* An upper bound of bin j's free capacity in 2^-64 units: a task whose
 * utilization's lower bound exceeds it cannot pass capacity there. */
static rtp_u128 room_of(const packer *p, size_t j)
{
    rtp_u128 cap = p->cap[j].hi, used = p->bins[j].sum.util.lo;
    if (cap >= RTP_LOAD_SUM_SAT)
        return ~(rtp_u128)0;
    return used >= cap ? 0 : cap - used;
}

static void tree_set(packer *p, size_t s)
{
    size_t x = s + p->width;
    p->room[x] = room_of(p, p->scan[s]);
    for (x >>= 1; x > 0; x >>= 1)
        p->room[x] = p->room[2 * x] > p->room[2 * x + 1] ? p->room[2 * x] : p->room[2 * x + 1];
}

/* The first scan position >= from whose room is >= need, or the bin count:
 * first and next fit skip full bins in O(log bins). */
static size_t tree_next(const packer *p, size_t from, rtp_u128 need)
{
    size_t m = p->job->bins.n, x = from + p->width;
    if (from >= m)
        return m;
    for (;;) {
        if (p->room[x] >= need) {
            while (x < p->width)
                x = p->room[2 * x] >= need ? 2 * x : 2 * x + 1;
            return x - p->width < m ? x - p->width : m;
        }
        while (x & 1) { /* a right child: its parent's range is done */
            if (x == 1)
                return m;
            x >>= 1;
        }
        x++;
    }
}

/* sign(per-CPU load of bin x - that of bin y) by opts->fit_measure, exact. */
static int load_cmp(packer *p, size_t x, size_t y)
{
    rtp_load_kind kind = p->opts->fit_measure;
    size_t sx = p->job->bins.len[x], sy = p->job->bins.len[y];
    if (sx == sy) {
        const rtp_pack_sum *a = &p->bins[x].sum, *b = &p->bins[y].sum;
        int c = kind == RTP_LOAD_DENSITY ? rtp_load_sum_cmp(&a->density, &b->density)
                                         : rtp_load_sum_cmp(&a->util, &b->util);
        if (c != 2)
            return c;
    }
    size_t na = gather(p, x, NONE, p->scratch), nb = gather(p, y, NONE, p->scratch2);
    return cmp_per_cpu(p->scratch, na, sx, p->scratch2, nb, sy, kind);
}

/* Is bin x tried before bin y? Best fit: the larger load (least room)
 * first, worst fit the smaller; equal loads in scan order. */
static int tried_before(packer *p, size_t x, size_t y)
{
    int c = load_cmp(p, x, y);
    if (c == 0)
        return p->scan_pos[x] < p->scan_pos[y];
    return p->opts->placement == RTP_PLACE_BF ? c > 0 : c < 0;
}

/* Bin j's load grew: move it to its place in rank (binary search). */
static void rank_move(packer *p, size_t j)
{
    size_t m = p->job->bins.n, r = 0;
    while (p->rank[r] != j)
        r++;
    memmove(&p->rank[r], &p->rank[r + 1], (m - 1 - r) * sizeof *p->rank);
    size_t lo = 0, hi = m - 1;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (tried_before(p, j, p->rank[mid]))
            hi = mid;
        else
            lo = mid + 1;
    }
    memmove(&p->rank[lo + 1], &p->rank[lo], (m - 1 - lo) * sizeof *p->rank);
    p->rank[lo] = j;
}

static rtp_status bin_insert(packer *p, size_t j, size_t i)
{
    bin *b = &p->bins[j];
    if (RTP_GROW(b->idx, b->cap, b->len + 1) != 0)
        return RTP_ENOMEM;
    if (b->len > 0 && b->idx[b->len - 1] > i)
        b->sorted = 0;
    b->idx[b->len++] = i;
    rtp_pack_sum_add(&b->sum, &p->eff[i]);
    p->where[i] = j;
    if (p->room)
        tree_set(p, p->scan_pos[j]);
    if (p->rank)
        rank_move(p, j);
    return RTP_OK;
}

enum { FITS, NOT_ALLOWED, OVER_CAPACITY, TEST_REJECTS };

/* Does bin j admit task i? *why = FITS or the first failing rule. The
 * test is answered from the bin's summary when that decides (one CPU,
 * pack_sum.h), else run on the bin's tasks with i inserted. */
static rtp_status admits(packer *p, size_t j, size_t i, int *why, rtp_diag *diag)
{
    const rtp_pack_job *job = p->job;
    const rtp_task *task = &p->eff[i];
    size_t size = job->bins.len[j];
    if (!rtp_pack_allowed(task, job->bins.cpus[j], size)) {
        *why = NOT_ALLOWED;
        return RTP_OK;
    }
    if (over_cap(p, j, i)) {
        *why = OVER_CAPACITY;
        return RTP_OK;
    }
    *why = TEST_REJECTS;
    if (p->locks) { /* a placement changes the spin on every CPU: all bins */
        int sched;
        rtp_status st = rtp_pack_locks_check(job, p->opts, p->eff, p->where, i, j, &sched, NULL,
                                             diag);
        if (st == RTP_OK && sched)
            *why = FITS;
        return st;
    }
    if (size == 1 && !p->opts->soft) {
        int v = rtp_pack_sum_verdict(&p->bins[j].sum, task, job->policy, p->opts->priority,
                                     job->bound_admission);
        if (v != RTP_SUM_UNKNOWN) {
            *why = v == RTP_SUM_ACCEPT ? FITS : TEST_REJECTS;
            return RTP_OK;
        }
    }
    size_t n = gather(p, j, i, p->scratch);
    rtp_test test = job->bound_admission
                        ? rtp_test_bound(job->policy, p->opts->limits)
                        : rtp_test_exact(job->policy, p->opts->priority, (int)size,
                                         p->opts->limits);
    if (p->opts->soft)
        test = rtp_test_soft((int)size, p->opts->limits);
    test.rr = rr_of(job->ts);
    test.choose_ties = !p->opts->keep_tie_policy;
    rtp_test_result res;
    memset(&res, 0, sizeof res);
    rtp_status st = rtp_test_run(&test, p->scratch, n, &res, diag);
    if (st == RTP_OK && res.schedulable)
        *why = FITS;
    return st;
}

/* Best fit by utilization on equal bins: rank is by decreasing utilization,
 * so the bins capacity rejects are a prefix; its length by binary search. */
static size_t first_roomy(packer *p, size_t i)
{
    size_t lo = 0, hi = p->job->bins.n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (over_cap(p, p->rank[mid], i))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Greedy Slacker [WB13]: task i on the admitting bin (every bin passing,
 * spins re-checked) with the largest minimum slack D - R over the placed
 * tasks and i; ties to the first in scan order. */
static rtp_status slack_fit(packer *p, size_t i, rtp_diag *diag)
{
    size_t n = p->job->ts->n_tasks, m = p->job->bins.n, best = NONE;
    rtp_ns best_slack = 0;
    for (size_t s = 0; s < m; s++) {
        size_t j = p->scan[s];
        int why, sched;
        rtp_status st = admits(p, j, i, &why, diag);
        if (st == RTP_OK && why == FITS)
            st = rtp_pack_locks_check(p->job, p->opts, p->eff, p->where, i, j, &sched, p->lk,
                                      diag);
        if (st != RTP_OK)
            return st;
        if (why != FITS)
            continue;
        rtp_ns slack = INT64_MAX;
        for (size_t k = 0; k < n; k++)
            if ((k == i || p->where[k] != NONE) &&
                p->eff[k].deadline_ns - p->lk[k].response_ns < slack)
                slack = p->eff[k].deadline_ns - p->lk[k].response_ns;
        if (best == NONE || slack > best_slack) {
            best = j;
            best_slack = slack;
        }
    }
    return best == NONE ? RTP_OK : bin_insert(p, best, i);
}

/* Places task i by the rules of partition.h: the first admitting bin in
 * scan order (first fit; next fit from *cursor, which it moves), or in rank
 * order (best / worst fit). Full bins are skipped without a test: by the
 * room tree for first and next fit, by the capacity prefix (best fit) or
 * suffix (worst fit) of rank when loads are utilizations of equal bins. */
static rtp_status place(packer *p, size_t i, size_t *cursor, rtp_diag *diag)
{
    size_t m = p->job->bins.n;
    rtp_placement pl = p->opts->placement;
    rtp_status st = RTP_OK;
    int why = NOT_ALLOWED;
    if (pl == RTP_PLACE_FF || pl == RTP_PLACE_NF) {
        rtp_load_sum u = rtp_load_sum_zero();
        rtp_load_sum_add(&u, p->eff[i].wcet_ns, p->eff[i].period_ns);
        size_t s = pl == RTP_PLACE_NF ? *cursor : 0;
        for (; (s = tree_next(p, s, u.lo)) < m; s++) {
            if ((st = admits(p, p->scan[s], i, &why, diag)) != RTP_OK || why == FITS)
                break;
        }
        if (st == RTP_OK && why == FITS) {
            if (pl == RTP_PLACE_NF)
                *cursor = s;
            return bin_insert(p, p->scan[s], i);
        }
        return st;
    }
    if (pl == RTP_PLACE_SF)
        return slack_fit(p, i, diag);
    int by_util = p->uniform && p->opts->fit_measure == RTP_LOAD_UTIL;
    size_t k = by_util && pl == RTP_PLACE_BF ? first_roomy(p, i) : 0;
    for (; k < m; k++) {
        if ((st = admits(p, p->rank[k], i, &why, diag)) != RTP_OK)
            return st;
        if (why == FITS)
            return bin_insert(p, p->rank[k], i);
        if (why == OVER_CAPACITY && by_util)
            break; /* worst fit: every later bin is at least as full */
    }
    return RTP_OK;
}

/* ---- the plan ---- */

static rtp_status init_plan(rtp_plan *plan, rtp_policy policy, const rtp_pack_job *job)
{
    const rtp_pack_bins *bins = &job->bins;
    plan->policy = policy;
    plan->clustered = job->clustered;
    plan->overheads = job->ts->platform.overheads;
    plan->rr_quantum_ns = job->ts->platform.rr_quantum_ns;
    plan->tick_ns = job->ts->platform.tick_ns;
    plan->platform_cpus = malloc((job->n_platform ? job->n_platform : 1) * sizeof(int));
    plan->bins = calloc(bins->n ? bins->n : 1, sizeof *plan->bins);
    if (!plan->platform_cpus || !plan->bins)
        return RTP_ENOMEM;
    memcpy(plan->platform_cpus, job->platform, job->n_platform * sizeof(int));
    plan->n_platform_cpus = job->n_platform;
    for (size_t j = 0; j < bins->n; j++) {
        if (!(plan->bins[j].cpus = malloc(bins->len[j] * sizeof(int))))
            return RTP_ENOMEM;
        memcpy(plan->bins[j].cpus, bins->cpus[j], bins->len[j] * sizeof(int));
        plan->bins[j].n_cpus = bins->len[j];
        plan->n_bins = j + 1;
    }
    return RTP_OK;
}

/* Every bin's exact verdict with FP priorities and response times; the
 * plan's policy is the user's EDF or FP (docs/spec.md "rtpack partition":
 * --policy edf|fp), a bin of several CPUs being global scheduling of that
 * policy with `test` naming the global test that accepted it. */
static rtp_status build_plan(packer *p, rtp_plan *plan, rtp_diag *diag)
{
    const rtp_pack_job *job = p->job;
    const rtp_part_opts *opts = p->opts;
    size_t n = job->ts->n_tasks;
    int is_fp = job->policy == RTP_POLICY_FP || job->policy == RTP_POLICY_GFP;
    rtp_status st = init_plan(plan, is_fp ? RTP_POLICY_FP : RTP_POLICY_EDF, job);
    plan->soft = opts->soft;
    int *priority = calloc(n ? n : 1, sizeof *priority);
    rtp_ns *response = calloc(n ? n : 1, sizeof *response);
    unsigned char *chosen = calloc(n ? n : 1, 1);
    rtp_locks_task *lk = p->locks ? malloc((n ? n : 1) * sizeof *lk) : NULL;
    if (st != RTP_OK || !priority || !response || !chosen || (p->locks && !lk)) {
        st = rtp_diag_set(diag, RTP_ENOMEM, "", "out of memory");
        goto done;
    }
    snprintf(plan->method, sizeof plan->method, "%sd", rtp_placement_name(opts->placement));
    int feasible = 1;
    if (p->locks) {
        if ((st = rtp_pack_locks_check(job, opts, p->eff, p->where, NONE, NONE, &feasible, lk,
                                       diag)) != RTP_OK ||
            (st = rtp_plan_set_resources(plan, job->ts)) != RTP_OK)
            goto done;
    }
    for (size_t j = 0; j < job->bins.n; j++) {
        const bin *b = &p->bins[j];
        if (b->len == 0)
            continue;
        if (p->locks) {
            gather(p, j, NONE, p->scratch); /* sorts b->idx: the plan's input order */
            for (size_t k = 0; k < b->len; k++) {
                const rtp_locks_task *t = &lk[b->idx[k]];
                if ((st = rtp_plan_add_task(plan, j, &job->ts->tasks[b->idx[k]],
                                            is_fp ? t->priority : 0,
                                            is_fp ? t->response_ns : -1)) != RTP_OK)
                    goto done;
                rtp_plan_task *pt = &plan->bins[j].tasks[plan->bins[j].n_tasks - 1];
                pt->has_locks = 1;
                pt->computed_blocking_ns = t->blocking_ns;
                pt->spin_ns = t->spin_ns;
                pt->binding = t->binding;
                pt->has_suspension = rtp_fmlp_present(p->eff, n);
                pt->suspension_ns = t->suspension_ns;
            }
            continue;
        }
        size_t len = gather(p, j, NONE, p->scratch);
        rtp_test test = opts->soft ? rtp_test_soft((int)job->bins.len[j], opts->limits)
                                   : rtp_test_exact(job->policy, opts->priority,
                                                    (int)job->bins.len[j], opts->limits);
        test.rr = rr_of(job->ts);
        test.choose_ties = !opts->keep_tie_policy;
        rtp_test_result res;
        memset(&res, 0, sizeof res);
        res.priority = priority;
        res.response_time = response;
        res.rr = chosen;
        for (size_t k = 0; k < len; k++) /* the tests that leave it alone: the tasks' own */
            chosen[k] = (unsigned char)p->scratch[k].rr;
        if ((st = rtp_test_run(&test, p->scratch, len, &res, diag)) != RTP_OK)
            goto done;
        feasible = feasible && res.schedulable;
        if (res.schedulable && res.accepted_by)
            snprintf(plan->bins[j].test, sizeof plan->bins[j].test, "%s", res.accepted_by);
        for (size_t k = 0; k < b->len; k++) { /* the plan keeps the declared tasks */
            if ((st = rtp_plan_add_task(plan, j, &job->ts->tasks[b->idx[k]], is_fp ? priority[k] : 0,
                                        is_fp ? response[k] : -1)) != RTP_OK)
                goto done;
            plan->bins[j].tasks[plan->bins[j].n_tasks - 1].task.rr = chosen[k]; /* rr_choose.h */
        }
    }
    for (size_t i = 0; i < n; i++) {
        if (p->where[i] != NONE)
            continue;
        feasible = 0;
        if ((st = rtp_plan_add_task(plan, NONE, &job->ts->tasks[i], 0, -1)) != RTP_OK)
            goto done;
    }
    plan->feasible = feasible;
done:
    free(priority);
    free(response);
    free(chosen);
    free(lk);
    return st;
}

static int smallest_cpu(const rtp_pack_bins *bins, size_t j)
{
    int low = bins->cpus[j][0];
    for (size_t k = 1; k < bins->len[j]; k++)
        if (bins->cpus[j][k] < low)
            low = bins->cpus[j][k];
    return low;
}

/* Scan order, capacities and the placement's index (room tree or rank). */
static rtp_status init_packer(packer *p)
{
    const rtp_pack_bins *bins = &p->job->bins;
    size_t m = bins->n, n = p->job->ts->n_tasks, w = 1;
    int fits_by_scan = p->opts->placement == RTP_PLACE_FF || p->opts->placement == RTP_PLACE_NF;
    while (w < m)
        w *= 2;
    p->width = w;
    p->bins = calloc(m ? m : 1, sizeof *p->bins);
    p->scan = malloc((m ? m : 1) * sizeof *p->scan);
    p->scan_pos = malloc((m ? m : 1) * sizeof *p->scan_pos);
    p->cap = malloc((m ? m : 1) * sizeof *p->cap);
    p->where = malloc((n ? n : 1) * sizeof *p->where);
    p->scratch = malloc((n + 1) * sizeof *p->scratch);
    p->scratch2 = malloc((n + 1) * sizeof *p->scratch2);
    if (fits_by_scan)
        p->room = calloc(2 * w, sizeof *p->room);
    else
        p->rank = malloc((m ? m : 1) * sizeof *p->rank);
    if (!p->bins || !p->scan || !p->scan_pos || !p->cap || !p->where || !p->scratch ||
        !p->scratch2 || (fits_by_scan ? !p->room : !p->rank))
        return RTP_ENOMEM;
    p->uniform = 1;
    for (size_t j = 0; j < m; j++) {
        size_t k = j;
        for (; k > 0 && smallest_cpu(bins, p->scan[k - 1]) > smallest_cpu(bins, j); k--)
            p->scan[k] = p->scan[k - 1];
        p->scan[k] = j;
        p->bins[j].sorted = 1;
        p->bins[j].sum = rtp_pack_sum_empty();
        p->cap[j] = capacity_sum(p->opts->capacity, bins->len[j]);
        p->uniform = p->uniform && bins->len[j] == bins->len[0];
    }
    for (size_t s = 0; s < m; s++) {
        p->scan_pos[p->scan[s]] = s;
        if (p->rank)
            p->rank[s] = p->scan[s]; /* empty bins: equal loads, scan order */
        else
            tree_set(p, s);
    }
    for (size_t i = 0; i < n; i++)
        p->where[i] = NONE;
    return RTP_OK;
}

static void free_packer(packer *p)
{
    for (size_t j = 0; p->bins && j < p->job->bins.n; j++)
        free(p->bins[j].idx);
    free(p->bins);
    free(p->scan);
    free(p->scan_pos);
    free(p->cap);
    free(p->where);
    free(p->scratch);
    free(p->scratch2);
    free(p->room);
    free(p->rank);
    free(p->eff);
    free(p->lk);
}

rtp_status rtp_pack_run(const rtp_pack_job *job, const rtp_part_opts *opts, rtp_plan *plan,
                        rtp_diag *diag)
{
    memset(plan, 0, sizeof *plan);
    size_t n = job->ts->n_tasks;
    packer p;
    memset(&p, 0, sizeof p);
    p.job = job;
    p.opts = opts;
    size_t *order = malloc((n ? n : 1) * sizeof *order);
    rtp_status st = init_packer(&p);
    if (st != RTP_OK || !order) {
        st = rtp_diag_set(diag, RTP_ENOMEM, "", "out of memory");
        goto done;
    }
    if (!(p.eff = rtp_effective_new(job->ts->tasks, n, &job->ts->platform.overheads, job->policy,
                                     &st, diag)))
        goto done;
    p.locks = rtp_tasks_have_requests(job->ts->tasks, n) || opts->placement == RTP_PLACE_SF;
    if (opts->placement == RTP_PLACE_SF && !(p.lk = malloc((n ? n : 1) * sizeof *p.lk))) {
        st = rtp_oom(diag);
        goto done;
    }
    for (size_t i = 0; i < n; i++)
        order[i] = i;
    order_ctx oc = {p.eff, opts->order};
    qsort_r(order, n, sizeof *order, order_cmp, &oc);
    size_t cursor = 0; /* next fit: scan position of the current bin */
    if (opts->progress)
        opts->progress(opts->progress_ctx, n, 0);
    for (size_t pos = 0; pos < n && st == RTP_OK; pos++) {
        /* the deadline and interrupt of opts->limits, which the tests
         * skipped by the running sums would have checked */
        if ((st = rtp_limits_check(&opts->limits, diag)) == RTP_OK)
            st = place(&p, order[pos], &cursor, diag);
        if (opts->progress && ((pos + 1) % PROGRESS_STEP == 0 || pos + 1 == n || st != RTP_OK))
            opts->progress(opts->progress_ctx, 0, pos % PROGRESS_STEP + 1);
    }
    if (st == RTP_OK)
        st = build_plan(&p, plan, diag);
done:
    if (st != RTP_OK)
        rtp_plan_free(plan);
    free_packer(&p);
    free(order);
    return st;
}

/* ---- best of all candidates ---- */

size_t rtp_pack_gather(const rtp_plan_bin *from, rtp_task *buf)
{
    for (size_t k = 0; k < from->n_tasks; k++)
        buf[k] = from->tasks[k].task;
    return from->n_tasks;
}

int rtp_pack_cmp_bins(const rtp_plan_bin *x, const rtp_plan_bin *y, rtp_task *a, rtp_task *b)
{
    size_t na = rtp_pack_gather(x, a), nb = rtp_pack_gather(y, b);
    return cmp_per_cpu(a, na, x->n_cpus, b, nb, y->n_cpus, RTP_LOAD_UTIL);
}

/* Index of the bin with the largest utilization per CPU (first on ties). */
static size_t max_bin(const rtp_plan *plan, rtp_task *a, rtp_task *b)
{
    size_t best = 0;
    for (size_t j = 1; j < plan->n_bins; j++)
        if (rtp_pack_cmp_bins(&plan->bins[j], &plan->bins[best], a, b) > 0)
            best = j;
    return best;
}

/* sign(largest per-CPU load of x - that of y), exact. */
static int cmp_max_load(const rtp_plan *x, const rtp_plan *y, rtp_task *a, rtp_task *b)
{
    return rtp_pack_cmp_bins(&x->bins[max_bin(x, a, b)], &y->bins[max_bin(y, a, b)], a, b);
}

rtp_status rtp_pack_settle(rtp_plan *cands, const rtp_status *status, const rtp_diag *diags,
                           int count, rtp_plan *plan, int *picked, rtp_diag *diag)
{
    size_t most = 1; /* the largest bin of any candidate: scratch size */
    for (int k = 0; k < count; k++)
        for (size_t j = 0; status[k] == RTP_OK && j < cands[k].n_bins; j++)
            most = cands[k].bins[j].n_tasks > most ? cands[k].bins[j].n_tasks : most;
    rtp_task *a = malloc(most * sizeof *a), *b = malloc(most * sizeof *b);
    int win = -1, fallback = -1, limit = -1, failed = -1;
    for (int k = 0; k < count; k++) {
        if (status[k] != RTP_OK) {
            if (status[k] == RTP_ELIMIT && limit < 0)
                limit = k;
            else if (status[k] != RTP_ELIMIT && failed < 0)
                failed = k;
            continue;
        }
        if (cands[k].feasible) {
            if (a && b && (win < 0 || cmp_max_load(&cands[k], &cands[win], a, b) < 0))
                win = k;
        } else if (fallback < 0 || cands[k].n_unassigned < cands[fallback].n_unassigned) {
            fallback = k;
        }
    }
    int pick = win >= 0 ? win : fallback;
    rtp_status st = RTP_OK;
    if (!a || !b)
        st = rtp_diag_set(diag, RTP_ENOMEM, "", "out of memory");
    else if (failed >= 0)
        st = status[failed];
    else if (win < 0 && limit >= 0)
        st = status[limit];
    if (st != RTP_OK) {
        int from = failed >= 0 ? failed : limit;
        if (diag && from >= 0 && a && b)
            *diag = diags[from];
        pick = -1;
    }
    for (int k = 0; k < count; k++) {
        if (k == pick)
            *plan = cands[k];
        else if (status[k] == RTP_OK)
            rtp_plan_free(&cands[k]);
    }
    *picked = pick;
    free(a);
    free(b);
    return st;
}

/* A candidate's progress: its placements count, its announcement does not
 * (rtp_pack_best made it for all). ctx is the caller's opts. */
static void placed_only(void *ctx, uint64_t planned, uint64_t placed)
{
    const rtp_part_opts *opts = ctx;
    (void)planned;
    if (placed)
        opts->progress(opts->progress_ctx, 0, placed);
}

/* Candidate k of rtp_pack_best: placement k / RTP_N_ORDERS, order k %
 * RTP_N_ORDERS, into cands[k], status[k], diags[k]. */
static void candidate(const rtp_pack_job *job, const rtp_part_opts *opts, int k, rtp_plan *cands,
                      rtp_status *status, rtp_diag *diags)
{
    rtp_part_opts o = *opts;
    o.placement = (rtp_placement)(k / RTP_N_ORDERS);
    o.order = (rtp_order)(k % RTP_N_ORDERS);
    if (opts->progress) {
        o.progress = placed_only;
        o.progress_ctx = (void *)opts;
    }
    rtp_diag_clear(&diags[k]);
    status[k] = rtp_pack_run(job, &o, &cands[k], &diags[k]);
}

rtp_status rtp_pack_best(const rtp_pack_job *job, const rtp_part_opts *opts, rtp_plan *plan,
                         rtp_diag *diag)
{
    rtp_plan cands[N_CANDIDATES];
    rtp_status status[N_CANDIDATES];
    rtp_diag diags[N_CANDIDATES];
    int threads = opts->threads > 0 ? opts->threads : omp_get_max_threads();
    /* slack fit joins the classic placements for FP sets with critical
     * sections (docs/spec.md "Shared resources"); other sets keep the 20 */
    int count = RTP_N_PLACEMENTS * RTP_N_ORDERS;
    if (job->policy == RTP_POLICY_FP && rtp_tasks_have_requests(job->ts->tasks, job->ts->n_tasks))
        count = N_CANDIDATES;
    if (opts->progress) /* announced here at once, so the total is known from the start */
        opts->progress(opts->progress_ctx, (uint64_t)count * job->ts->n_tasks, 0);
    /* One thread (as every sweep's set asks): no parallel region, which
     * libgomp would open as a nested team per call, with a futex wake at
     * its end (~4 system calls per set in `rtpack explore`). */
    if (threads == 1)
        for (int k = 0; k < count; k++)
            candidate(job, opts, k, cands, status, diags);
    else
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
        for (int k = 0; k < count; k++)
            candidate(job, opts, k, cands, status, diags);
    /* Reduced in index order: the thread count cannot change the answer. */
    int pick;
    memset(plan, 0, sizeof *plan);
    rtp_status st = rtp_pack_settle(cands, status, diags, count, plan, &pick, diag);
    if (pick >= 0) {
        snprintf(plan->method, sizeof plan->method, "best");
        snprintf(plan->chosen_placement, sizeof plan->chosen_placement, "%s",
                 rtp_placement_name((rtp_placement)(pick / RTP_N_ORDERS)));
        snprintf(plan->chosen_order, sizeof plan->chosen_order, "%s",
                 rtp_order_name((rtp_order)(pick % RTP_N_ORDERS)));
    }
    return st;
}
