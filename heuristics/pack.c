/* heuristics/pack.c — see pack.h.
 *
 * One packing loop serves the four placements (first / best / worst / next
 * fit [Joh74], used for real-time partitioning since [DL78])
 * and both kinds of bin: they differ only in which admitting bin they take.
 * Loads and orders are compared exactly: 128-bit cross products for single
 * tasks, models/ratio's sums for bins of equal size (always so for CPUs), GMP
 * rationals when a load is divided by a cluster's size. */
#include "heuristics/pack.h"

#include "models/effective.h"

#include <gmp.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NONE ((size_t)-1)
#define N_CANDIDATES (RTP_N_PLACEMENTS * RTP_N_ORDERS)

rtp_status rtp_pack_check_input(const rtp_taskset *ts, const rtp_part_opts *opts,
                                rtp_diag *diag)
{
    if ((unsigned)opts->placement >= RTP_N_PLACEMENTS || (unsigned)opts->order >= RTP_N_ORDERS)
        return rtp_diag_set(diag, RTP_EINPUT, "", "unknown placement or order");
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
    size_t *idx;     /* input indices, increasing */
    rtp_task *tasks; /* shallow copies of ts->tasks[idx[k]] */
    size_t len, cap;
} bin;

typedef struct packer {
    const rtp_pack_job *job;
    const rtp_part_opts *opts;
    rtp_task *eff;    /* per task: the effective task (C', J'), which every
                       * load, order and test decision reads */
    bin *bins;        /* per job bin */
    size_t *scan;     /* bin indices by increasing smallest CPU id */
    size_t *where;    /* per task: bin index or NONE */
    rtp_task *scratch;/* n + 1 entries: a bin plus one candidate */
} packer;

static rtp_status bin_insert(bin *b, const rtp_task *tasks, size_t i)
{
    if (b->len == b->cap) {
        size_t cap = b->cap ? 2 * b->cap : 8;
        size_t *idx = realloc(b->idx, cap * sizeof *idx);
        if (idx)
            b->idx = idx;
        rtp_task *t = realloc(b->tasks, cap * sizeof *t);
        if (t)
            b->tasks = t;
        if (!idx || !t)
            return RTP_ENOMEM;
        b->cap = cap;
    }
    size_t pos = b->len;
    while (pos > 0 && b->idx[pos - 1] > i)
        pos--;
    memmove(&b->idx[pos + 1], &b->idx[pos], (b->len - pos) * sizeof *b->idx);
    memmove(&b->tasks[pos + 1], &b->tasks[pos], (b->len - pos) * sizeof *b->tasks);
    b->idx[pos] = i;
    b->tasks[pos] = tasks[i];
    b->len++;
    return RTP_OK;
}

/* Does bin `j` admit task `i`? The test sees the bin's tasks with i inserted
 * in input order (the tie-break of DM / RM / OPA). */
static rtp_status admits(packer *p, size_t j, size_t i, int *fits, rtp_diag *diag)
{
    const rtp_pack_job *job = p->job;
    const rtp_task *task = &p->eff[i];
    const bin *b = &p->bins[j];
    size_t size = job->bins.len[j];
    *fits = 0;
    if (!rtp_pack_allowed(task, job->bins.cpus[j], size) ||
        over_capacity(b->tasks, b->len, task, size, p->opts->capacity))
        return RTP_OK;
    size_t k = 0, n = 0;
    for (; k < b->len && b->idx[k] < i; k++)
        p->scratch[n++] = b->tasks[k];
    p->scratch[n++] = *task;
    for (; k < b->len; k++)
        p->scratch[n++] = b->tasks[k];
    rtp_test test = job->bound_admission
                        ? rtp_test_bound(job->policy, p->opts->limits)
                        : rtp_test_exact(job->policy, p->opts->priority, (int)size,
                                         p->opts->limits);
    rtp_test_result res;
    memset(&res, 0, sizeof res);
    rtp_status st = rtp_test_run(&test, p->scratch, n, &res, diag);
    if (st == RTP_OK)
        *fits = res.schedulable;
    return st;
}

/* Stable insertion sort of candidate bins by load per CPU (opts->fit_measure):
 * decreasing for best fit (least room first), increasing for worst fit;
 * equal loads keep the scan order. */
static void sort_by_room(const packer *p, size_t *cand, size_t nc)
{
    int sign = p->opts->placement == RTP_PLACE_BF ? -1 : 1;
    const size_t *size = p->job->bins.len;
    for (size_t a = 1; a < nc; a++) {
        size_t x = cand[a], k = a;
        while (k > 0) {
            size_t y = cand[k - 1];
            const bin *bx = &p->bins[x], *by = &p->bins[y];
            int c = cmp_per_cpu(bx->tasks, bx->len, size[x], by->tasks, by->len, size[y],
                                p->opts->fit_measure);
            if (sign * c >= 0)
                break;
            cand[k] = y;
            k--;
        }
        cand[k] = x;
    }
}

/* The shared packing loop. */
static rtp_status place_all(packer *p, const size_t *order, size_t *cand, rtp_diag *diag)
{
    size_t cursor = 0, m = p->job->bins.n; /* next fit: scan position of the current bin */
    rtp_placement pl = p->opts->placement;
    for (size_t pos = 0; pos < p->job->ts->n_tasks; pos++) {
        size_t i = order[pos], nc = 0, first = pl == RTP_PLACE_NF ? cursor : 0;
        for (size_t s = first; s < m; s++)
            cand[nc++] = p->scan[s];
        if (pl == RTP_PLACE_BF || pl == RTP_PLACE_WF)
            sort_by_room(p, cand, nc);
        for (size_t c = 0; c < nc; c++) {
            int fits = 0;
            rtp_status st = admits(p, cand[c], i, &fits, diag);
            if (st != RTP_OK)
                return st;
            if (!fits)
                continue;
            if ((st = bin_insert(&p->bins[cand[c]], p->eff, i)) != RTP_OK)
                return st;
            p->where[i] = cand[c];
            if (pl == RTP_PLACE_NF)
                cursor = first + c;
            break;
        }
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
static rtp_status build_plan(const packer *p, rtp_plan *plan, rtp_diag *diag)
{
    const rtp_pack_job *job = p->job;
    const rtp_part_opts *opts = p->opts;
    size_t n = job->ts->n_tasks;
    int is_fp = job->policy == RTP_POLICY_FP || job->policy == RTP_POLICY_GFP;
    rtp_status st = init_plan(plan, is_fp ? RTP_POLICY_FP : RTP_POLICY_EDF, job);
    int *priority = calloc(n ? n : 1, sizeof *priority);
    rtp_ns *response = calloc(n ? n : 1, sizeof *response);
    if (st != RTP_OK || !priority || !response) {
        st = rtp_diag_set(diag, RTP_ENOMEM, "", "out of memory");
        goto done;
    }
    snprintf(plan->method, sizeof plan->method, "%sd", rtp_placement_name(opts->placement));
    int feasible = 1;
    for (size_t j = 0; j < job->bins.n; j++) {
        const bin *b = &p->bins[j];
        if (b->len == 0)
            continue;
        rtp_test test = rtp_test_exact(job->policy, opts->priority, (int)job->bins.len[j],
                                       opts->limits);
        rtp_test_result res;
        memset(&res, 0, sizeof res);
        res.priority = priority;
        res.response_time = response;
        if ((st = rtp_test_run(&test, b->tasks, b->len, &res, diag)) != RTP_OK)
            goto done;
        feasible = feasible && res.schedulable;
        if (res.schedulable && res.accepted_by)
            snprintf(plan->bins[j].test, sizeof plan->bins[j].test, "%s", res.accepted_by);
        for (size_t k = 0; k < b->len; k++) /* the plan keeps the declared tasks */
            if ((st = rtp_plan_add_task(plan, j, &job->ts->tasks[b->idx[k]], is_fp ? priority[k] : 0,
                                        is_fp ? response[k] : -1)) != RTP_OK)
                goto done;
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

rtp_status rtp_pack_run(const rtp_pack_job *job, const rtp_part_opts *opts, rtp_plan *plan,
                        rtp_diag *diag)
{
    memset(plan, 0, sizeof *plan);
    size_t n = job->ts->n_tasks, m = job->bins.n;
    packer p = {job, opts, NULL, calloc(m, sizeof(bin)), malloc(m * sizeof(size_t)),
                malloc((n ? n : 1) * sizeof(size_t)), malloc((n + 1) * sizeof(rtp_task))};
    size_t *order = malloc((n ? n : 1) * sizeof *order);
    size_t *cand = malloc(m * sizeof *cand);
    rtp_status st;
    if (!p.bins || !p.scan || !p.where || !p.scratch || !order || !cand) {
        st = rtp_diag_set(diag, RTP_ENOMEM, "", "out of memory");
        goto done;
    }
    if (!(p.eff = rtp_effective_new(job->ts->tasks, n, &job->ts->platform.overheads, &st, diag)))
        goto done;
    for (size_t j = 0; j < m; j++) {
        size_t k = j;
        for (; k > 0 && smallest_cpu(&job->bins, p.scan[k - 1]) > smallest_cpu(&job->bins, j);
             k--)
            p.scan[k] = p.scan[k - 1];
        p.scan[k] = j;
    }
    for (size_t i = 0; i < n; i++) {
        order[i] = i;
        p.where[i] = NONE;
    }
    order_ctx oc = {p.eff, opts->order};
    qsort_r(order, n, sizeof *order, order_cmp, &oc);
    if ((st = place_all(&p, order, cand, diag)) == RTP_OK)
        st = build_plan(&p, plan, diag);
done:
    if (st != RTP_OK)
        rtp_plan_free(plan);
    for (size_t j = 0; p.bins && j < m; j++) {
        free(p.bins[j].idx);
        free(p.bins[j].tasks);
    }
    free(p.bins);
    free(p.scan);
    free(p.where);
    free(p.scratch);
    free(p.eff);
    free(order);
    free(cand);
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

rtp_status rtp_pack_best(const rtp_pack_job *job, const rtp_part_opts *opts, rtp_plan *plan,
                         rtp_diag *diag)
{
    rtp_plan cands[N_CANDIDATES];
    rtp_status status[N_CANDIDATES];
    rtp_diag diags[N_CANDIDATES];
    int threads = opts->threads > 0 ? opts->threads : omp_get_max_threads();
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
    for (int k = 0; k < N_CANDIDATES; k++) {
        rtp_part_opts o = *opts;
        o.placement = (rtp_placement)(k / RTP_N_ORDERS);
        o.order = (rtp_order)(k % RTP_N_ORDERS);
        rtp_diag_clear(&diags[k]);
        status[k] = rtp_pack_run(job, &o, &cands[k], &diags[k]);
    }
    /* Reduced in index order: the thread count cannot change the answer. */
    int pick;
    memset(plan, 0, sizeof *plan);
    rtp_status st = rtp_pack_settle(cands, status, diags, N_CANDIDATES, plan, &pick, diag);
    if (pick >= 0) {
        snprintf(plan->method, sizeof plan->method, "best");
        snprintf(plan->chosen_placement, sizeof plan->chosen_placement, "%s",
                 rtp_placement_name((rtp_placement)(pick / RTP_N_ORDERS)));
        snprintf(plan->chosen_order, sizeof plan->chosen_order, "%s",
                 rtp_order_name((rtp_order)(pick % RTP_N_ORDERS)));
    }
    return st;
}
