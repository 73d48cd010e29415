/* heuristics/cluster.c — see cluster.h.
 *
 * The packing loop is rtp_part_pack's with clusters for CPUs: the same task
 * orders, the same four placements (Johnson 1974), admission by affinity,
 * exact capacity and the test of the cluster's size. Loads are exact GMP
 * rationals (a cluster's load per CPU divides a sum of fractions by its
 * size). */
#include "heuristics/cluster.h"

#include <gmp.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NONE ((size_t)-1)
#define N_CANDIDATES (RTP_N_PLACEMENTS * RTP_N_ORDERS)

/* ---- shapes ---- */

void rtp_cluster_list_free(rtp_cluster_list *list)
{
    for (size_t j = 0; list->cpus && j < list->n; j++)
        free(list->cpus[j]);
    free(list->cpus);
    free(list->len);
    memset(list, 0, sizeof *list);
}

/* A positive decimal at *p (advanced), 0 on error. */
static size_t read_count(const char **p)
{
    size_t v = 0;
    const char *s = *p;
    while (*s >= '0' && *s <= '9' && v < 100000)
        v = v * 10 + (size_t)(*s++ - '0');
    if (s == *p || (*s >= '0' && *s <= '9'))
        return 0;
    *p = s;
    return v;
}

rtp_status rtp_cluster_shape(const int *cpus, size_t n_cpus, const char *shape,
                             rtp_cluster_list *out, rtp_diag *diag)
{
    memset(out, 0, sizeof *out);
    size_t sizes[1024], n = 0, total = 0;
    const char *p = shape;
    size_t first = read_count(&p);
    if (first && *p == 'x') {
        p++;
        size_t each = read_count(&p);
        if (!each || *p || first > 1024)
            goto bad;
        for (; n < first; n++)
            sizes[n] = each;
    } else {
        sizes[n++] = first;
        while (first && *p == ',' && n < 1024) {
            p++;
            if (!(sizes[n++] = read_count(&p)))
                goto bad;
        }
        if (!first || *p)
            goto bad;
    }
    for (size_t j = 0; j < n; j++)
        total += sizes[j];
    if (total != n_cpus)
        return rtp_diag_set(diag, RTP_EINPUT, "--clusters",
                            "\"%s\" covers %zu CPUs, the platform has %zu", shape, total,
                            n_cpus);
    out->cpus = calloc(n, sizeof *out->cpus);
    out->len = calloc(n, sizeof *out->len);
    if (!out->cpus || !out->len)
        goto nomem;
    out->n = n;
    for (size_t j = 0, at = 0; j < n; at += sizes[j++]) {
        if (!(out->cpus[j] = malloc(sizes[j] * sizeof(int))))
            goto nomem;
        memcpy(out->cpus[j], cpus + at, sizes[j] * sizeof(int));
        out->len[j] = sizes[j];
    }
    return RTP_OK;
nomem:
    rtp_cluster_list_free(out);
    return rtp_diag_set(diag, RTP_ENOMEM, "", "out of memory");
bad:
    return rtp_diag_set(diag, RTP_EINPUT, "--clusters",
                        "\"%s\" is not a cluster shape (e.g. 2x2 or 3,1)", shape);
}

/* ---- task order: rtp_part_pack's ---- */

static rtp_ns divisor(const rtp_task *t, rtp_load_kind kind)
{
    return kind == RTP_LOAD_DENSITY && t->deadline_ns < t->period_ns ? t->deadline_ns
                                                                     : t->period_ns;
}

static int cmp_load(const rtp_task *a, const rtp_task *b, rtp_load_kind kind)
{
    __int128 l = (__int128)a->wcet_ns * divisor(b, kind);
    __int128 r = (__int128)b->wcet_ns * divisor(a, kind);
    return (l > r) - (l < r);
}

static int cmp_ns(rtp_ns a, rtp_ns b) { return (a > b) - (a < b); }

typedef struct order_ctx {
    const rtp_task *tasks;
    rtp_order order;
} order_ctx;

static int order_cmp(const void *pa, const void *pb, void *arg)
{
    const order_ctx *c = arg;
    size_t ia = *(const size_t *)pa, ib = *(const size_t *)pb;
    const rtp_task *a = &c->tasks[ia], *b = &c->tasks[ib];
    int r = 0;
    switch (c->order) {
    case RTP_ORDER_UTIL: r = cmp_load(b, a, RTP_LOAD_UTIL); break;
    case RTP_ORDER_DENSITY: r = cmp_load(b, a, RTP_LOAD_DENSITY); break;
    case RTP_ORDER_DEADLINE: r = cmp_ns(a->deadline_ns, b->deadline_ns); break;
    case RTP_ORDER_PERIOD: r = cmp_ns(a->period_ns, b->period_ns); break;
    case RTP_ORDER_INPUT: break;
    }
    return r ? r : (ia > ib) - (ia < ib); /* ties by input order */
}

/* ---- exact loads ---- */

/* out = sum of wcet / divisor over tasks (plus `extra` when not NULL). */
static void load_q(mpq_t out, const rtp_task *tasks, size_t n, const rtp_task *extra,
                   rtp_load_kind kind)
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
    mpq_clear(term);
}

/* ---- the packing state ---- */

typedef struct cbin {
    size_t *idx;     /* input indices, increasing */
    rtp_task *tasks; /* shallow copies of ts->tasks[idx[k]] */
    size_t len, cap;
} cbin;

typedef struct packer {
    const rtp_taskset *ts;
    const rtp_cluster_list *cl;
    const rtp_part_opts *opts;
    rtp_policy policy;  /* GEDF or GFP */
    cbin *bins;
    size_t *scan;       /* cluster indices by increasing smallest CPU id */
    size_t *where;      /* per task: cluster index or NONE */
    rtp_task *scratch;  /* n + 1 entries */
    mpq_t *load;        /* per cluster, for best / worst fit */
} packer;

static int in_list(const int *list, size_t len, int cpu)
{
    for (size_t k = 0; k < len; k++)
        if (list[k] == cpu)
            return 1;
    return 0;
}

/* Global scheduling migrates a task over its whole cluster. */
static int allowed(const rtp_task *t, const int *cpus, size_t len)
{
    for (size_t k = 0; t->affinity && k < len; k++)
        if (!in_list(t->affinity, t->affinity_len, cpus[k]))
            return 0;
    return 1;
}

static rtp_status bin_insert(cbin *b, const rtp_task *tasks, size_t i)
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

/* Does cluster j admit task i? The test sees the cluster's tasks with i
 * inserted in input order (the tie-break of DM / RM / OPA). */
static rtp_status admits(packer *p, size_t j, size_t i, int *fits, rtp_diag *diag)
{
    const rtp_task *task = &p->ts->tasks[i];
    const cbin *b = &p->bins[j];
    size_t size = p->cl->len[j];
    *fits = 0;
    if (!allowed(task, p->cl->cpus[j], size))
        return RTP_OK;
    mpq_t load, cap;
    mpq_inits(load, cap, NULL);
    load_q(load, b->tasks, b->len, task, RTP_LOAD_UTIL);
    mpz_set_si(mpq_numref(cap), p->opts->capacity.num);
    mpz_mul_ui(mpq_numref(cap), mpq_numref(cap), size);
    mpz_set_si(mpq_denref(cap), p->opts->capacity.den);
    mpq_canonicalize(cap);
    int over = mpq_cmp(load, cap) > 0;
    mpq_clears(load, cap, NULL);
    if (over)
        return RTP_OK;
    size_t k = 0, n = 0;
    for (; k < b->len && b->idx[k] < i; k++)
        p->scratch[n++] = b->tasks[k];
    p->scratch[n++] = *task;
    for (; k < b->len; k++)
        p->scratch[n++] = b->tasks[k];
    rtp_test test = rtp_test_exact(p->policy, p->opts->priority, (int)size, p->opts->limits);
    rtp_test_result res;
    memset(&res, 0, sizeof res);
    rtp_status st = rtp_test_run(&test, p->scratch, n, &res, diag);
    if (st == RTP_OK)
        *fits = res.schedulable;
    return st;
}

/* Stable insertion sort of candidate clusters by load per CPU (load by
 * opts->fit_measure, divided by the cluster's size): decreasing for best fit
 * (least room first), increasing for worst fit; ties keep the scan order. */
static void sort_by_load(packer *p, size_t *cand, size_t nc)
{
    int sign = p->opts->placement == RTP_PLACE_BF ? -1 : 1;
    mpq_t size;
    mpq_init(size);
    for (size_t c = 0; c < nc; c++) {
        const cbin *b = &p->bins[cand[c]];
        load_q(p->load[cand[c]], b->tasks, b->len, NULL, p->opts->fit_measure);
        mpq_set_ui(size, (unsigned long)p->cl->len[cand[c]], 1);
        mpq_div(p->load[cand[c]], p->load[cand[c]], size);
    }
    mpq_clear(size);
    for (size_t a = 1; a < nc; a++) {
        size_t x = cand[a], k = a;
        while (k > 0 && sign * mpq_cmp(p->load[x], p->load[cand[k - 1]]) < 0) {
            cand[k] = cand[k - 1];
            k--;
        }
        cand[k] = x;
    }
}

static rtp_status place_all(packer *p, const size_t *order, size_t *cand, rtp_diag *diag)
{
    size_t cursor = 0, m = p->cl->n; /* next fit: scan position of the current cluster */
    rtp_placement pl = p->opts->placement;
    for (size_t pos = 0; pos < p->ts->n_tasks; pos++) {
        size_t i = order[pos], nc = 0, first = pl == RTP_PLACE_NF ? cursor : 0;
        for (size_t s = first; s < m; s++)
            cand[nc++] = p->scan[s];
        if (pl == RTP_PLACE_BF || pl == RTP_PLACE_WF)
            sort_by_load(p, cand, nc);
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

static rtp_status init_plan(rtp_plan *plan, rtp_policy policy, const int *cpus, size_t n_cpus,
                            const rtp_cluster_list *cl)
{
    memset(plan, 0, sizeof *plan);
    plan->policy = policy;
    plan->clustered = 1;
    plan->platform_cpus = malloc((n_cpus ? n_cpus : 1) * sizeof *plan->platform_cpus);
    plan->bins = calloc(cl->n ? cl->n : 1, sizeof *plan->bins);
    if (!plan->platform_cpus || !plan->bins)
        return RTP_ENOMEM;
    memcpy(plan->platform_cpus, cpus, n_cpus * sizeof *cpus);
    plan->n_platform_cpus = n_cpus;
    for (size_t j = 0; j < cl->n; j++) {
        if (!(plan->bins[j].cpus = malloc(cl->len[j] * sizeof(int))))
            return RTP_ENOMEM;
        memcpy(plan->bins[j].cpus, cl->cpus[j], cl->len[j] * sizeof(int));
        plan->bins[j].n_cpus = cl->len[j];
        plan->n_bins = j + 1;
    }
    return RTP_OK;
}

static rtp_status build_plan(const packer *p, const int *cpus, size_t n_cpus, rtp_plan *plan,
                             rtp_diag *diag)
{
    size_t n = p->ts->n_tasks;
    int is_fp = p->policy == RTP_POLICY_GFP;
    /* The plan names the user's policy (SPEC.md: partition --policy edf|fp);
     * a bin of several CPUs is global scheduling of that policy, and its
     * `test` names the global test that accepted it. */
    rtp_status st = init_plan(plan, is_fp ? RTP_POLICY_FP : RTP_POLICY_EDF, cpus, n_cpus, p->cl);
    int *priority = calloc(n ? n : 1, sizeof *priority);
    rtp_ns *response = calloc(n ? n : 1, sizeof *response);
    if (st != RTP_OK || !priority || !response) {
        st = rtp_diag_set(diag, RTP_ENOMEM, "", "out of memory");
        goto done;
    }
    snprintf(plan->method, sizeof plan->method, "%sd",
             rtp_placement_name(p->opts->placement));
    int feasible = 1;
    for (size_t j = 0; j < p->cl->n; j++) {
        const cbin *b = &p->bins[j];
        if (b->len == 0)
            continue;
        /* The cluster's verdict, with its priorities and response bounds. */
        rtp_test test = rtp_test_exact(p->policy, p->opts->priority, (int)p->cl->len[j],
                                       p->opts->limits);
        rtp_test_result res;
        memset(&res, 0, sizeof res);
        res.priority = priority;
        res.response_time = response;
        if ((st = rtp_test_run(&test, b->tasks, b->len, &res, diag)) != RTP_OK)
            goto done;
        feasible = feasible && res.schedulable;
        if (res.schedulable && res.accepted_by)
            snprintf(plan->bins[j].test, sizeof plan->bins[j].test, "%s", res.accepted_by);
        for (size_t k = 0; k < b->len; k++)
            if ((st = rtp_plan_add_task(plan, j, &b->tasks[k], is_fp ? priority[k] : 0,
                                        is_fp ? response[k] : -1)) != RTP_OK)
                goto done;
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

static size_t smallest_cpu(const rtp_cluster_list *cl, size_t j)
{
    int low = cl->cpus[j][0];
    for (size_t k = 1; k < cl->len[j]; k++)
        if (cl->cpus[j][k] < low)
            low = cl->cpus[j][k];
    return (size_t)(unsigned)low;
}

static rtp_status validate(const rtp_taskset *ts, const int *cpus, size_t n_cpus,
                           const rtp_cluster_list *cl, const rtp_part_opts *opts,
                           rtp_diag *diag)
{
    if (!cl || cl->n == 0)
        return rtp_diag_set(diag, RTP_EINPUT, "platform.clusters", "no clusters to pack onto");
    if ((unsigned)opts->placement >= RTP_N_PLACEMENTS || (unsigned)opts->order >= RTP_N_ORDERS)
        return rtp_diag_set(diag, RTP_EINPUT, "", "unknown placement or order");
    if (opts->capacity.num < 0 || opts->capacity.den <= 0)
        return rtp_diag_set(diag, RTP_EINPUT, "", "capacity must be a non-negative ratio");
    for (size_t j = 0; j < cl->n; j++) {
        if (cl->len[j] == 0)
            return rtp_diag_set(diag, RTP_EINPUT, "platform.clusters",
                                "cluster %zu has no CPUs", j);
        for (size_t k = 0; k < cl->len[j]; k++) {
            int cpu = cl->cpus[j][k];
            if (!in_list(cpus, n_cpus, cpu))
                return rtp_diag_set(diag, RTP_EINPUT, "platform.clusters",
                                    "CPU %d is not on the platform", cpu);
            for (size_t j2 = 0; j2 <= j; j2++)
                for (size_t k2 = 0; k2 < (j2 == j ? k : cl->len[j2]); k2++)
                    if (cl->cpus[j2][k2] == cpu)
                        return rtp_diag_set(diag, RTP_EINPUT, "platform.clusters",
                                            "CPU %d is in two clusters", cpu);
        }
    }
    for (size_t i = 0; i < ts->n_tasks; i++) {
        const rtp_task *t = &ts->tasks[i];
        for (size_t k = 0; t->affinity && k < t->affinity_len; k++) {
            int found = 0;
            for (size_t j = 0; j < cl->n && !found; j++)
                found = in_list(cl->cpus[j], cl->len[j], t->affinity[k]);
            if (!found) {
                char path[64];
                snprintf(path, sizeof path, "tasks[%zu].affinity", i);
                return rtp_diag_set(diag, RTP_EINPUT, path, "CPU %d is in no cluster",
                                    t->affinity[k]);
            }
        }
    }
    return RTP_OK;
}

static rtp_policy global_policy(rtp_policy policy)
{
    return policy == RTP_POLICY_FP || policy == RTP_POLICY_GFP ? RTP_POLICY_GFP
                                                                 : RTP_POLICY_GEDF;
}

rtp_status rtp_cluster_pack(const rtp_taskset *ts, const int *cpus, size_t n_cpus,
                            const rtp_cluster_list *clusters, const rtp_part_opts *opts,
                            rtp_plan *plan, rtp_diag *diag)
{
    memset(plan, 0, sizeof *plan);
    rtp_status st = validate(ts, cpus, n_cpus, clusters, opts, diag);
    if (st != RTP_OK)
        return st;
    size_t n = ts->n_tasks, m = clusters->n;
    packer p = {ts, clusters, opts, global_policy(opts->policy),
                calloc(m, sizeof(cbin)), malloc(m * sizeof(size_t)),
                malloc((n ? n : 1) * sizeof(size_t)), malloc((n + 1) * sizeof(rtp_task)),
                malloc(m * sizeof(mpq_t))};
    size_t *order = malloc((n ? n : 1) * sizeof *order);
    size_t *cand = malloc(m * sizeof *cand);
    if (!p.bins || !p.scan || !p.where || !p.scratch || !p.load || !order || !cand) {
        free(p.load);
        p.load = NULL;
        st = rtp_diag_set(diag, RTP_ENOMEM, "", "out of memory");
        goto done;
    }
    for (size_t j = 0; j < m; j++) {
        mpq_init(p.load[j]);
        size_t k = j;
        for (; k > 0 && smallest_cpu(clusters, p.scan[k - 1]) > smallest_cpu(clusters, j); k--)
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
        st = build_plan(&p, cpus, n_cpus, plan, diag);
done:
    if (st != RTP_OK)
        rtp_plan_free(plan);
    for (size_t j = 0; p.bins && j < m; j++) {
        free(p.bins[j].idx);
        free(p.bins[j].tasks);
    }
    for (size_t j = 0; p.load && j < m; j++)
        mpq_clear(p.load[j]);
    free(p.load);
    free(p.bins);
    free(p.scan);
    free(p.where);
    free(p.scratch);
    free(order);
    free(cand);
    return st;
}

/* ---- best of all candidates, and of all layouts ---- */

/* out = the largest per-CPU load of a plan: max over bins of utilization /
 * number of CPUs of the bin (0 for a plan without tasks). */
static void max_cpu_load(const rtp_plan *plan, mpq_t out)
{
    mpq_t load, term;
    mpq_inits(load, term, NULL);
    mpq_set_ui(out, 0, 1);
    for (size_t j = 0; j < plan->n_bins; j++) {
        const rtp_plan_bin *b = &plan->bins[j];
        mpq_set_ui(load, 0, 1);
        for (size_t k = 0; k < b->n_tasks; k++) {
            mpz_set_si(mpq_numref(term), b->tasks[k].task.wcet_ns);
            mpz_set_si(mpq_denref(term), b->tasks[k].task.period_ns);
            mpq_canonicalize(term);
            mpq_add(load, load, term);
        }
        mpq_set_ui(term, (unsigned long)(b->n_cpus ? b->n_cpus : 1), 1);
        mpq_div(load, load, term);
        if (mpq_cmp(load, out) > 0)
            mpq_set(out, load);
    }
    mpq_clears(load, term, NULL);
}

/* The pick among candidate plans (status[k] == RTP_OK ones): the feasible
 * one with the smallest largest per-CPU load, else the fewest unassigned,
 * ties to the lowest index; -1 when none finished. *limit / *failed = first
 * candidate that hit a limit / failed otherwise, or -1. */
static int pick_plan(const rtp_plan *cands, const rtp_status *status, int count, int *win,
                     int *limit, int *failed)
{
    int fallback = -1;
    *win = *limit = *failed = -1;
    mpq_t best, load;
    mpq_inits(best, load, NULL);
    for (int k = 0; k < count; k++) {
        if (status[k] != RTP_OK) {
            if (status[k] == RTP_ELIMIT && *limit < 0)
                *limit = k;
            else if (status[k] != RTP_ELIMIT && *failed < 0)
                *failed = k;
            continue;
        }
        if (cands[k].feasible) {
            max_cpu_load(&cands[k], load);
            if (*win < 0 || mpq_cmp(load, best) < 0) {
                *win = k;
                mpq_set(best, load);
            }
        } else if (fallback < 0 || cands[k].n_unassigned < cands[fallback].n_unassigned) {
            fallback = k;
        }
    }
    mpq_clears(best, load, NULL);
    return *win >= 0 ? *win : fallback;
}

/* Keeps cands[pick] in *plan (or returns the failure), frees the others. */
static rtp_status settle(rtp_plan *cands, const rtp_status *status, const rtp_diag *diags,
                         int count, rtp_plan *plan, int *picked, rtp_diag *diag)
{
    int win, limit, failed;
    int pick = pick_plan(cands, status, count, &win, &limit, &failed);
    rtp_status st = RTP_OK;
    if (failed >= 0)
        st = status[failed];
    else if (win < 0 && limit >= 0)
        st = status[limit];
    if (st != RTP_OK) {
        if (diag)
            *diag = diags[failed >= 0 ? failed : limit];
        pick = -1;
    }
    for (int k = 0; k < count; k++) {
        if (k == pick)
            *plan = cands[k];
        else if (status[k] == RTP_OK)
            rtp_plan_free(&cands[k]);
    }
    *picked = pick;
    return st;
}

rtp_status rtp_cluster_best(const rtp_taskset *ts, const int *cpus, size_t n_cpus,
                            const rtp_cluster_list *clusters, const rtp_part_opts *opts,
                            rtp_plan *plan, rtp_diag *diag)
{
    memset(plan, 0, sizeof *plan);
    rtp_status st = validate(ts, cpus, n_cpus, clusters, opts, diag);
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
        status[k] = rtp_cluster_pack(ts, cpus, n_cpus, clusters, &o, &cands[k], &diags[k]);
    }
    int pick;
    st = settle(cands, status, diags, N_CANDIDATES, plan, &pick, diag);
    if (pick >= 0) {
        snprintf(plan->method, sizeof plan->method, "best");
        snprintf(plan->chosen_placement, sizeof plan->chosen_placement, "%s",
                 rtp_placement_name((rtp_placement)(pick / RTP_N_ORDERS)));
        snprintf(plan->chosen_order, sizeof plan->chosen_order, "%s",
                 rtp_order_name((rtp_order)(pick % RTP_N_ORDERS)));
    }
    return st;
}

static const char *const layout_names[RTP_N_LAYOUTS] = {"partitioned", "clustered", "global"};

const char *rtp_layout_name(rtp_layout layout)
{
    return (unsigned)layout < RTP_N_LAYOUTS ? layout_names[layout] : "?";
}

int rtp_layout_parse_list(const char *text, unsigned *mask)
{
    *mask = 0;
    const char *p = text;
    for (;;) {
        size_t len = strcspn(p, ",");
        int found = -1;
        for (int l = 0; l < RTP_N_LAYOUTS; l++)
            if (strlen(layout_names[l]) == len && strncmp(p, layout_names[l], len) == 0)
                found = l;
        if (found < 0)
            return -1;
        *mask |= 1u << found;
        if (p[len] == '\0')
            return 0;
        p += len + 1;
    }
}

rtp_status rtp_layout_best(const rtp_taskset *ts, const int *cpus, size_t n_cpus,
                           const rtp_cluster_list *clusters, unsigned mask,
                           const rtp_part_opts *opts, rtp_plan *plan, rtp_layout *chosen,
                           rtp_diag *diag)
{
    memset(plan, 0, sizeof *plan);
    if (mask == 0 || (mask >> RTP_N_LAYOUTS) != 0)
        return rtp_diag_set(diag, RTP_EINPUT, "--layouts", "no known layout to compare");
    if ((mask & (1u << RTP_LAYOUT_CLUSTERED)) && (!clusters || clusters->n == 0))
        return rtp_diag_set(diag, RTP_EINPUT, "--layouts",
                            "the clustered layout needs platform.clusters or --clusters");
    /* Only the layouts in the mask run; cands/status/diags hold them in
     * layout order, map[] says which layout each is. */
    rtp_plan cands[RTP_N_LAYOUTS];
    rtp_status status[RTP_N_LAYOUTS];
    rtp_diag diags[RTP_N_LAYOUTS];
    int map[RTP_N_LAYOUTS], count = 0;
    rtp_part_opts o = *opts;
    for (int l = 0; l < RTP_N_LAYOUTS; l++) {
        if (!(mask & (1u << l)))
            continue;
        int c = count++;
        map[c] = l;
        rtp_diag_clear(&diags[c]);
        if (l == RTP_LAYOUT_PARTITIONED) {
            o.policy = global_policy(opts->policy) == RTP_POLICY_GFP ? RTP_POLICY_FP
                                                                     : RTP_POLICY_EDF;
            status[c] = rtp_part_best(ts, cpus, n_cpus, &o, &cands[c], &diags[c]);
        } else if (l == RTP_LAYOUT_CLUSTERED) {
            status[c] = rtp_cluster_best(ts, cpus, n_cpus, clusters, opts, &cands[c],
                                         &diags[c]);
        } else {
            int *all = (int *)cpus; /* one cluster of every CPU (read only) */
            size_t len = n_cpus;
            rtp_cluster_list whole = {&all, &len, 1};
            status[c] = rtp_cluster_pack(ts, cpus, n_cpus, &whole, opts, &cands[c], &diags[c]);
            if (status[c] == RTP_OK)
                snprintf(cands[c].method, sizeof cands[c].method, "best");
        }
        if (status[c] == RTP_EINPUT || status[c] == RTP_ENOMEM) { /* fatal for all */
            if (diag)
                *diag = diags[c];
            for (int k = 0; k < c; k++)
                if (status[k] == RTP_OK)
                    rtp_plan_free(&cands[k]);
            return status[c];
        }
    }
    int pick;
    rtp_status st = settle(cands, status, diags, count, plan, &pick, diag);
    if (pick >= 0)
        *chosen = (rtp_layout)map[pick];
    return st;
}
