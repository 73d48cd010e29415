/* heuristics/partition.c — see partition.h.
 *
 * One packing loop serves the four placements (Johnson 1974's first / best /
 * worst / next fit, used for real-time partitioning since Dhall & Liu 1978):
 * they differ only in which admitting CPU they take. Admission = affinity,
 * exact capacity (rtp_load_cmp_plus) and an rtp_test; the finished plan is
 * re-checked per CPU with the exact test of the policy. Loads and orders are
 * compared exactly (128-bit cross products or models/ratio's sums). */
#include "heuristics/partition.h"
#include "solver/fp.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NONE ((size_t)-1)
#define N_CANDIDATES (RTP_N_PLACEMENTS * RTP_N_ORDERS)

static const char *const placement_names[RTP_N_PLACEMENTS] = {"ff", "bf", "wf", "nf"};
static const char *const order_names[RTP_N_ORDERS] = {"util", "density", "deadline",
                                                      "period", "input"};

const char *rtp_placement_name(rtp_placement p)
{
    return (unsigned)p < RTP_N_PLACEMENTS ? placement_names[p] : "?";
}

const char *rtp_order_name(rtp_order o)
{
    return (unsigned)o < RTP_N_ORDERS ? order_names[o] : "?";
}

int rtp_placement_parse(const char *name, rtp_placement *out)
{
    for (int i = 0; i < RTP_N_PLACEMENTS; i++)
        if (strcmp(name, placement_names[i]) == 0) {
            *out = (rtp_placement)i;
            return 0;
        }
    return -1;
}

int rtp_order_parse(const char *name, rtp_order *out)
{
    for (int i = 0; i < RTP_N_ORDERS; i++)
        if (strcmp(name, order_names[i]) == 0) {
            *out = (rtp_order)i;
            return 0;
        }
    return -1;
}

rtp_part_opts rtp_part_opts_default(void)
{
    rtp_part_opts o;
    memset(&o, 0, sizeof o);
    o.policy = RTP_POLICY_EDF;
    o.priority = RTP_PRIO_OPA;
    o.placement = RTP_PLACE_FF;
    o.order = RTP_ORDER_UTIL;
    o.capacity.num = 1;
    o.capacity.den = 1;
    o.fit_measure = RTP_LOAD_UTIL;
    o.limits = rtp_limits_default();
    return o;
}

/* ---- task order ---- */

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
    const rtp_taskset *ts;
    const int *cpus;
    size_t m;
    const rtp_part_opts *opts;
    rtp_test admission;
    bin *bins;        /* per platform position */
    size_t *scan;     /* platform positions by increasing CPU id */
    size_t *where;    /* per task: platform position or NONE */
    rtp_task *scratch;/* n + 1 entries: a bin plus one candidate */
} packer;

static int allowed(const rtp_task *t, int cpu)
{
    if (!t->affinity)
        return 1;
    for (size_t k = 0; k < t->affinity_len; k++)
        if (t->affinity[k] == cpu)
            return 1;
    return 0;
}

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
    const rtp_task *task = &p->ts->tasks[i];
    const bin *b = &p->bins[j];
    *fits = 0;
    if (!allowed(task, p->cpus[j]))
        return RTP_OK;
    if (rtp_load_cmp_plus(b->tasks, b->len, task, RTP_LOAD_UTIL, p->opts->capacity) > 0)
        return RTP_OK;
    size_t k = 0, n = 0;
    for (; k < b->len && b->idx[k] < i; k++)
        p->scratch[n++] = b->tasks[k];
    p->scratch[n++] = *task;
    for (; k < b->len; k++)
        p->scratch[n++] = b->tasks[k];
    rtp_test_result res;
    memset(&res, 0, sizeof res);
    rtp_status st = rtp_test_run(&p->admission, p->scratch, n, &res, diag);
    if (st == RTP_OK)
        *fits = res.schedulable;
    return st;
}

/* Stable insertion sort of candidate positions by bin load: decreasing for
 * best fit (least room first), increasing for worst fit; equal loads keep
 * the increasing-id order of the scan. */
static void sort_by_room(const packer *p, size_t *cand, size_t nc)
{
    int sign = p->opts->placement == RTP_PLACE_BF ? -1 : 1;
    for (size_t a = 1; a < nc; a++) {
        size_t x = cand[a], k = a;
        while (k > 0) {
            const bin *bx = &p->bins[x], *by = &p->bins[cand[k - 1]];
            int c = rtp_load_cmp_sets(bx->tasks, bx->len, by->tasks, by->len,
                                      p->opts->fit_measure);
            if (sign * c >= 0)
                break;
            cand[k] = cand[k - 1];
            k--;
        }
        cand[k] = x;
    }
}

/* The shared packing loop. */
static rtp_status place_all(packer *p, const size_t *order, size_t *cand, rtp_diag *diag)
{
    size_t cursor = 0; /* next fit: scan position of the current CPU */
    for (size_t pos = 0; pos < p->ts->n_tasks; pos++) {
        size_t i = order[pos], nc = 0, first = 0;
        rtp_placement pl = p->opts->placement;
        if (pl == RTP_PLACE_NF)
            first = cursor;
        for (size_t s = first; s < p->m; s++)
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
            if ((st = bin_insert(&p->bins[cand[c]], p->ts->tasks, i)) != RTP_OK)
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

/* Exact verdict for one CPU, with FP priorities and response times. */
static rtp_status check_cpu(const rtp_part_opts *opts, const rtp_task *tasks, size_t n,
                            int *priority, rtp_ns *response, int *ok, rtp_diag *diag)
{
    *ok = 1;
    if (n == 0)
        return RTP_OK;
    if (opts->policy == RTP_POLICY_FP) {
        int found = 0, sched = 0;
        rtp_status st = rtp_fp_assign(tasks, n, opts->priority, priority, &found,
                                      &opts->limits, diag);
        if (st == RTP_OK)
            st = rtp_fp_rta(tasks, n, priority, response, &sched, &opts->limits, diag);
        *ok = found && sched;
        return st;
    }
    rtp_test exact = rtp_test_exact(opts->policy, opts->priority, 1, opts->limits);
    rtp_test_result res;
    memset(&res, 0, sizeof res);
    rtp_status st = rtp_test_run(&exact, tasks, n, &res, diag);
    *ok = res.schedulable;
    return st;
}

static rtp_status build_plan(const packer *p, rtp_plan *plan, rtp_diag *diag)
{
    const rtp_part_opts *opts = p->opts;
    size_t n = p->ts->n_tasks;
    rtp_status st = rtp_plan_init_cpus(plan, opts->policy, p->cpus, p->m);
    if (st != RTP_OK)
        return st;
    snprintf(plan->method, sizeof plan->method, "%sd", rtp_placement_name(opts->placement));
    int *priority = calloc(n ? n : 1, sizeof *priority);
    rtp_ns *response = calloc(n ? n : 1, sizeof *response);
    if (!priority || !response) {
        st = RTP_ENOMEM;
        goto done;
    }
    int feasible = 1;
    for (size_t j = 0; j < p->m; j++) {
        const bin *b = &p->bins[j];
        int ok = 0;
        if ((st = check_cpu(opts, b->tasks, b->len, priority, response, &ok, diag)) != RTP_OK)
            goto done;
        feasible = feasible && ok;
        for (size_t k = 0; k < b->len; k++) {
            int is_fp = opts->policy == RTP_POLICY_FP;
            st = rtp_plan_add_task(plan, j, &b->tasks[k], is_fp ? priority[k] : 0,
                                   is_fp ? response[k] : 0);
            if (st != RTP_OK)
                goto done;
        }
    }
    for (size_t i = 0; i < n; i++) {
        if (p->where[i] != NONE)
            continue;
        feasible = 0;
        if ((st = rtp_plan_add_task(plan, NONE, &p->ts->tasks[i], 0, -1)) != RTP_OK)
            goto done;
    }
    plan->feasible = feasible;
done:
    free(priority);
    free(response);
    return st;
}

static rtp_status validate(const rtp_taskset *ts, const int *cpus, size_t m,
                           const rtp_part_opts *opts, rtp_diag *diag)
{
    if (m == 0)
        return rtp_diag_set(diag, RTP_EINPUT, "", "no CPUs to partition onto");
    if (opts->policy != RTP_POLICY_EDF && opts->policy != RTP_POLICY_FP)
        return rtp_diag_set(diag, RTP_EINPUT, "",
                            "partitioning needs a uniprocessor policy (edf or fp), not %s",
                            rtp_policy_name(opts->policy));
    if ((unsigned)opts->placement >= RTP_N_PLACEMENTS || (unsigned)opts->order >= RTP_N_ORDERS)
        return rtp_diag_set(diag, RTP_EINPUT, "", "unknown placement or order");
    if (opts->capacity.num < 0 || opts->capacity.den <= 0)
        return rtp_diag_set(diag, RTP_EINPUT, "", "capacity must be a non-negative ratio");
    for (size_t i = 0; i < ts->n_tasks; i++) {
        const rtp_task *t = &ts->tasks[i];
        for (size_t k = 0; t->affinity && k < t->affinity_len; k++) {
            size_t j = 0;
            while (j < m && cpus[j] != t->affinity[k])
                j++;
            if (j == m) {
                char path[64];
                snprintf(path, sizeof path, "tasks[%zu].affinity", i);
                return rtp_diag_set(diag, RTP_EINPUT, path,
                                    "CPU %d is not on the platform", t->affinity[k]);
            }
        }
    }
    return RTP_OK;
}

rtp_status rtp_part_pack(const rtp_taskset *ts, const int *cpus, size_t n_cpus,
                         const rtp_part_opts *opts, rtp_plan *plan, rtp_diag *diag)
{
    memset(plan, 0, sizeof *plan);
    rtp_status st = validate(ts, cpus, n_cpus, opts, diag);
    if (st != RTP_OK)
        return st;
    size_t n = ts->n_tasks, m = n_cpus;
    packer p = {ts, cpus, m, opts,
                opts->bound_admission ? rtp_test_bound(opts->policy, opts->limits)
                                      : rtp_test_exact(opts->policy, opts->priority, 1,
                                                       opts->limits),
                calloc(m, sizeof(bin)), malloc(m * sizeof(size_t)),
                malloc((n ? n : 1) * sizeof(size_t)), malloc((n + 1) * sizeof(rtp_task))};
    size_t *order = malloc((n ? n : 1) * sizeof *order);
    size_t *cand = malloc(m * sizeof *cand);
    if (!p.bins || !p.scan || !p.where || !p.scratch || !order || !cand) {
        st = RTP_ENOMEM;
        goto done;
    }
    for (size_t j = 0; j < m; j++) {
        size_t k = j;
        for (; k > 0 && cpus[p.scan[k - 1]] > cpus[j]; k--)
            p.scan[k] = p.scan[k - 1];
        p.scan[k] = j;
    }
    for (size_t i = 0; i < n; i++) {
        order[i] = i;
        p.where[i] = NONE;
    }
    order_ctx oc = {ts->tasks, opts->order};
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
    free(order);
    free(cand);
    return st;
}

/* ---- best of all candidates ---- */

/* Shallow copies of a plan bin's tasks into buf; returns the count. */
static size_t gather(const rtp_plan_bin *b, rtp_task *buf)
{
    for (size_t k = 0; k < b->n_tasks; k++)
        buf[k] = b->tasks[k].task;
    return b->n_tasks;
}

/* Index of the bin with the largest utilization (exact, first on ties). */
static size_t max_bin(const rtp_plan *plan, rtp_task *a, rtp_task *b)
{
    size_t best = 0;
    for (size_t j = 1; j < plan->n_bins; j++) {
        size_t na = gather(&plan->bins[j], a), nb = gather(&plan->bins[best], b);
        if (rtp_load_cmp_sets(a, na, b, nb, RTP_LOAD_UTIL) > 0)
            best = j;
    }
    return best;
}

/* sign(largest bin utilization of x - that of y), exact. */
static int cmp_max_load(const rtp_plan *x, const rtp_plan *y, rtp_task *a, rtp_task *b)
{
    size_t jx = max_bin(x, a, b), jy = max_bin(y, a, b);
    size_t na = gather(&x->bins[jx], a), nb = gather(&y->bins[jy], b);
    return rtp_load_cmp_sets(a, na, b, nb, RTP_LOAD_UTIL);
}

rtp_status rtp_part_best(const rtp_taskset *ts, const int *cpus, size_t n_cpus,
                         const rtp_part_opts *opts, rtp_plan *plan, rtp_diag *diag)
{
    memset(plan, 0, sizeof *plan);
    rtp_status st = validate(ts, cpus, n_cpus, opts, diag);
    if (st != RTP_OK)
        return st;
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
        status[k] = rtp_part_pack(ts, cpus, n_cpus, &o, &cands[k], &diags[k]);
    }
    /* Reduce in index order: the thread count cannot change the answer. */
    size_t n = ts->n_tasks;
    rtp_task *a = malloc((n ? n : 1) * sizeof *a), *b = malloc((n ? n : 1) * sizeof *b);
    int win = -1, fallback = -1, limit = -1, failed = -1;
    for (int k = 0; k < N_CANDIDATES; k++) {
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
    if (!a || !b)
        st = RTP_ENOMEM;
    else if (failed >= 0)
        st = status[failed];
    else if (win < 0 && limit >= 0)
        st = status[limit];
    if (st != RTP_OK) {
        int from = failed >= 0 ? failed : limit;
        if (diag && from >= 0)
            *diag = diags[from];
        pick = -1;
    }
    for (int k = 0; k < N_CANDIDATES; k++) {
        if (k == pick)
            *plan = cands[k];
        else if (status[k] == RTP_OK)
            rtp_plan_free(&cands[k]);
    }
    if (pick >= 0) {
        snprintf(plan->method, sizeof plan->method, "best");
        snprintf(plan->chosen_placement, sizeof plan->chosen_placement, "%s",
                 placement_names[pick / RTP_N_ORDERS]);
        snprintf(plan->chosen_order, sizeof plan->chosen_order, "%s",
                 order_names[pick % RTP_N_ORDERS]);
    }
    free(a);
    free(b);
    return st;
}

/* ---- explanation ---- */

rtp_status rtp_part_explain(const rtp_plan *plan, const rtp_part_opts *opts, size_t k,
                            rtp_part_miss *miss, rtp_diag *diag)
{
    memset(miss, 0, sizeof *miss);
    miss->reason = RTP_MISS_NO_CPU;
    miss->bin = NONE;
    if (k >= plan->n_unassigned || plan->clustered)
        return rtp_diag_set(diag, RTP_EINTERNAL, "", "no such unassigned task");
    const rtp_task *task = &plan->unassigned[k].task;
    size_t most = 1;
    for (size_t j = 0; j < plan->n_bins; j++)
        most = plan->bins[j].n_tasks + 1 > most ? plan->bins[j].n_tasks + 1 : most;
    rtp_task *a = malloc(most * sizeof *a), *b = malloc(most * sizeof *b);
    int *priority = malloc(most * sizeof *priority);
    rtp_ns *response = malloc(most * sizeof *response);
    rtp_status st = RTP_OK;
    if (!a || !b || !priority || !response) {
        st = RTP_ENOMEM;
        goto done;
    }
    for (size_t j = 0; j < plan->n_bins; j++) {
        const rtp_plan_bin *bj = &plan->bins[j];
        if (!allowed(task, bj->cpus[0]))
            continue;
        if (miss->bin != NONE) {
            size_t na = gather(bj, a), nb = gather(&plan->bins[miss->bin], b);
            int c = rtp_load_cmp_sets(a, na, b, nb, RTP_LOAD_UTIL);
            if (c > 0 || (c == 0 && bj->cpus[0] > plan->bins[miss->bin].cpus[0]))
                continue;
        }
        miss->bin = j;
    }
    if (miss->bin == NONE)
        goto done;
    size_t n = gather(&plan->bins[miss->bin], a);
    a[n++] = *task;
    miss->load_after = rtp_load_double(a, n, RTP_LOAD_UTIL);
    if (rtp_load_cmp(a, n, RTP_LOAD_UTIL, opts->capacity) > 0) {
        miss->reason = RTP_MISS_CAPACITY;
        goto done;
    }
    rtp_test exact = rtp_test_exact(opts->policy, opts->priority, 1, opts->limits);
    exact.want_first_miss = 1;
    rtp_test_result res;
    memset(&res, 0, sizeof res);
    if ((st = rtp_test_run(&exact, a, n, &res, diag)) != RTP_OK)
        goto done;
    miss->reason = res.schedulable ? RTP_MISS_HEURISTIC : RTP_MISS_TEST;
    miss->has_first_miss = res.has_first_miss;
    miss->first_miss_ns = res.first_miss_ns;
    if (res.schedulable || opts->policy != RTP_POLICY_FP)
        goto done;
    int found = 0, sched = 0;
    if ((st = rtp_fp_assign(a, n, RTP_PRIO_DM, priority, &found, &opts->limits, diag)) ==
            RTP_OK &&
        (st = rtp_fp_rta(a, n, priority, response, &sched, &opts->limits, diag)) == RTP_OK)
        for (size_t i = 0; i < n && !miss->late_task; i++)
            if (response[i] < 0)
                miss->late_task = a[i].name;
done:
    free(a);
    free(b);
    free(priority);
    free(response);
    return st;
}
