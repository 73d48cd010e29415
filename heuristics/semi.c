/* heuristics/semi.c — see semi.h. */
#include "heuristics/semi.h"
#include "heuristics/partition.h"

#include "models/effective.h"
#include "models/arith.h"
#include "models/ratio.h"
#include "solver/apa.h"
#include "solver/fp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct semi {
    const rtp_task *eff; /* effective tasks (C'), by input index */
    size_t n;
    size_t *order;       /* input indices by decreasing utilization */
    uint64_t *mask;      /* by input index: the CPUs it got, 0 = unassigned */
    rtp_ns *bound;       /* by input index: its bound, once all are placed */
    rtp_task *pl;        /* the placed tasks, in placement order, and the one tried */
    size_t *at;          /* their input indices */
    uint64_t *pm;        /* their masks */
    int *pp;             /* their priorities: m + 1 .. 1 */
    rtp_ns *pr;          /* their bounds */
    size_t m;            /* placed so far */
    rtp_ratio capacity;  /* per CPU */
    rtp_task *load;      /* scratch for the capacity check */
    const rtp_limits *limits;
} semi;

/* Capacity: the tasks pinned to a CPU of S, those migrating over a mask
 * that meets S, and k stay within capacity x |S| (for a single CPU, its
 * own load; Linux throttles real-time work per CPU). Exact. */
static int within_capacity(const semi *s, size_t k, uint64_t S)
{
    size_t c = 0;
    for (size_t j = 0; j < s->n; j++)
        if (s->mask[j] && (s->mask[j] & S) &&
            (__builtin_popcountll(s->mask[j]) >= 2 || (s->mask[j] & ~S) == 0))
            s->load[c++] = s->eff[j];
    s->load[c++] = s->eff[k];
    rtp_ratio cap = {s->capacity.num * __builtin_popcountll(S), s->capacity.den};
    return rtp_load_cmp(s->load, c, RTP_LOAD_UTIL, cap) <= 0;
}

/* Do the m placed tasks and task k with mask S all pass (every bound within
 * its deadline, the migrating masks nested)? Priorities: the set's DM
 * ranks (prio), renumbered 1..m+1 among these tasks. */
static rtp_status try_mask(semi *s, size_t k, uint64_t S, const int *prio, int *ok,
                           rtp_diag *diag)
{
    size_t m = s->m, x, y;
    s->pl[m] = s->eff[k];
    s->pm[m] = S;
    s->at[m] = k;
    for (size_t p = 0; p <= m; p++) {
        s->pp[p] = 1;
        for (size_t q = 0; q <= m; q++)
            s->pp[p] += prio[s->at[q]] < prio[s->at[p]];
    }
    *ok = 0;
    if (!rtp_apa_nested(s->pm, m + 1, s->pp, &x, &y))
        return RTP_OK;
    rtp_global_verdict v;
    rtp_status st = rtp_apa_rta(s->pl, m + 1, s->pm, s->pp, s->limits, s->pr, &v, diag);
    *ok = st == RTP_OK && v == RTP_GLOBAL_ACCEPT;
    return st;
}

/* Task k (allowed: the CPUs of its affinity): the first single CPU, then
 * the first mask of 2, 3, ... CPUs in lexicographic order (only the whole
 * affinity past RTP_APA_ENUMERATE_MAX CPUs, where the analysis itself
 * stops enumerating). */
static rtp_status place(semi *s, size_t k, uint64_t allowed, const int *prio, rtp_diag *diag)
{
    int bit[64], a = 0;
    for (int c = 0; c < 64; c++)
        if (allowed >> c & 1)
            bit[a++] = c;
    for (int size = 1; size <= a; size++) {
        if (size > 1 && size < a && a > RTP_APA_ENUMERATE_MAX)
            continue;
        int pick[64];
        for (int x = 0; x < size; x++)
            pick[x] = x;
        for (;;) {
            rtp_status st = rtp_limits_check(s->limits, diag);
            uint64_t S = 0;
            for (int x = 0; x < size; x++)
                S |= (uint64_t)1 << bit[pick[x]];
            int ok = 0;
            if (st == RTP_OK && within_capacity(s, k, S))
                st = try_mask(s, k, S, prio, &ok, diag);
            if (st != RTP_OK)
                return st;
            if (ok) {
                s->mask[k] = S;
                s->m++;
                return RTP_OK;
            }
            int x = size - 1; /* the next combination */
            while (x >= 0 && pick[x] == a - size + x)
                x--;
            if (x < 0)
                break;
            pick[x]++;
            for (int z = x + 1; z < size; z++)
                pick[z] = pick[z - 1] + 1;
        }
    }
    return RTP_OK; /* no mask: unassigned */
}

/* Is a's utilization above b's? (exact: C_a T_b > C_b T_a) */
static int more_util(const rtp_task *a, const rtp_task *b)
{
    return (rtp_i128)a->wcet_ns * b->period_ns > (rtp_i128)b->wcet_ns * a->period_ns;
}

/* The preconditions of solver/apa.h, with the task and member named. */
static rtp_status check_input(const rtp_taskset *ts, const rtp_task *eff, size_t n_cpus,
                              rtp_diag *diag)
{
    char path[48];
    if (n_cpus > 64)
        return rtp_diag_set(diag, RTP_EINPUT, "platform.cpus",
                            "--method semi places tasks on at most 64 CPUs");
    if (rtp_tasks_have_requests(ts->tasks, ts->n_tasks))
        return rtp_diag_set(diag, RTP_EINPUT, "resources",
                            "--method semi does not model shared resources");
    for (size_t i = 0; i < ts->n_tasks; i++) {
        const char *member = NULL, *why = NULL;
        if (ts->tasks[i].rr)
            member = "policy", why = "semi-partitioned plans run SCHED_FIFO";
        else if (eff[i].deadline_ns > eff[i].period_ns)
            member = "deadline", why = "the arbitrary-affinity analysis needs deadlines at "
                                       "most the period";
        else if (eff[i].blocking_ns > 0)
            member = "blocking", why = "the arbitrary-affinity analysis does not model "
                                       "blocking";
        if (member) {
            snprintf(path, sizeof path, "tasks[%zu].%s", i, member);
            return rtp_diag_set(diag, RTP_EINPUT, path, "--method semi: %s", why);
        }
    }
    return RTP_OK;
}

/* Among the placed tasks whose mask is `sel` (pinned) or all of them
 * (sel == 0), how many are less urgent than k, plus 1: k's priority. */
static int rank_of(const semi *s, size_t k, uint64_t sel, const int *prio)
{
    int r = 1;
    for (size_t j = 0; j < s->n; j++)
        if (j != k && s->mask[j] && (!sel || s->mask[j] == sel) && prio[j] < prio[k])
            r++;
    return r;
}

static rtp_status build_plan(const rtp_taskset *ts, const int *cpus, size_t n_cpus,
                             const semi *s, const int *prio, rtp_plan *plan)
{
    int migrating = 0;
    for (size_t i = 0; i < s->n; i++)
        migrating |= __builtin_popcountll(s->mask[i]) >= 2;
    rtp_status st;
    if (!migrating) {
        st = rtp_plan_init_cpus(plan, RTP_POLICY_FP, cpus, n_cpus);
    } else {
        memset(plan, 0, sizeof *plan);
        plan->policy = RTP_POLICY_FP;
        plan->clustered = 1;
        plan->platform_cpus = malloc(n_cpus * sizeof *plan->platform_cpus);
        plan->bins = calloc(1, sizeof *plan->bins);
        if (plan->bins && (plan->bins[0].cpus = malloc(n_cpus * sizeof(int))))
            plan->n_bins = 1;
        st = plan->platform_cpus && plan->n_bins ? RTP_OK : RTP_ENOMEM;
        if (st == RTP_OK) {
            memcpy(plan->platform_cpus, cpus, n_cpus * sizeof *cpus);
            memcpy(plan->bins[0].cpus, cpus, n_cpus * sizeof *cpus);
            plan->n_platform_cpus = plan->bins[0].n_cpus = n_cpus;
            snprintf(plan->bins[0].test, sizeof plan->bins[0].test, "apa");
        }
    }
    snprintf(plan->method, sizeof plan->method, "semi");
    plan->overheads = ts->platform.overheads;
    plan->rr_quantum_ns = ts->platform.rr_quantum_ns;
    plan->tick_ns = ts->platform.tick_ns;
    plan->feasible = 1;
    int ids[64];
    for (size_t i = 0; i < s->n && st == RTP_OK; i++) {
        uint64_t mk = s->mask[i];
        if (!mk) {
            plan->feasible = 0;
            st = rtp_plan_add_task(plan, RTP_PLAN_UNASSIGNED, &ts->tasks[i], 0, -1);
            continue;
        }
        if (!migrating) {
            size_t cpu = (size_t)__builtin_ctzll(mk);
            st = rtp_plan_add_task(plan, cpu, &ts->tasks[i], rank_of(s, i, mk, prio),
                                   s->bound[i]);
            continue;
        }
        rtp_task t = ts->tasks[i]; /* the plan carries the mask as its affinity */
        t.affinity_len = 0;
        for (size_t c = 0; c < n_cpus; c++)
            if (mk >> c & 1)
                ids[t.affinity_len++] = cpus[c];
        t.affinity = ids;
        st = rtp_plan_add_task(plan, 0, &t, rank_of(s, i, 0, prio), s->bound[i]);
    }
    return st;
}

rtp_status rtp_semi_pack(const rtp_taskset *ts, const int *cpus, size_t n_cpus,
                         rtp_ratio capacity, const rtp_limits *limits, rtp_plan *plan,
                         rtp_diag *diag)
{
    memset(plan, 0, sizeof *plan);
    size_t n = ts->n_tasks;
    rtp_part_opts popts = rtp_part_opts_default();
    popts.policy = RTP_POLICY_FP;
    rtp_status st = rtp_part_check_input(ts, cpus, n_cpus, &popts, diag);
    if (st != RTP_OK)
        return st;
    rtp_task *eff = rtp_effective_new(ts->tasks, n, &ts->platform.overheads, RTP_POLICY_FP,
                                      &st, diag);
    if (!eff)
        return st;
    semi s = {eff, n, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0, capacity, NULL, limits};
    int *prio = malloc((n ? n : 1) * sizeof *prio), found;
    s.order = malloc((n ? n : 1) * sizeof *s.order);
    s.mask = calloc(n ? n : 1, sizeof *s.mask);
    s.bound = malloc((n ? n : 1) * sizeof *s.bound);
    s.pl = malloc((n ? n : 1) * sizeof *s.pl);
    s.at = malloc((n ? n : 1) * sizeof *s.at);
    s.pm = malloc((n ? n : 1) * sizeof *s.pm);
    s.pp = malloc((n ? n : 1) * sizeof *s.pp);
    s.pr = malloc((n ? n : 1) * sizeof *s.pr);
    s.load = malloc((n ? n : 1) * sizeof *s.load);
    if (!prio || !s.order || !s.mask || !s.bound || !s.pl || !s.at || !s.pm || !s.pp || !s.pr ||
        !s.load)
        st = rtp_oom(diag);
    if (st == RTP_OK)
        st = check_input(ts, eff, n_cpus, diag);
    if (st == RTP_OK)
        st = rtp_fp_assign(eff, n, RTP_PRIO_DM, prio, &found, limits, diag);
    for (size_t i = 0; i < n && st == RTP_OK; i++)
        s.order[i] = i;
    if (st == RTP_OK) /* decreasing utilization (exact), ties by input order */
        for (size_t i = 1; i < n; i++)
            for (size_t j = i; j > 0 && more_util(&eff[s.order[j]], &eff[s.order[j - 1]]); j--) {
                size_t t = s.order[j];
                s.order[j] = s.order[j - 1];
                s.order[j - 1] = t;
            }
    for (size_t r = 0; r < n && st == RTP_OK; r++) {
        size_t k = s.order[r];
        uint64_t allowed = 0;
        if ((st = rtp_apa_mask(&ts->tasks[k], cpus, n_cpus, &allowed, diag)) == RTP_OK)
            st = place(&s, k, allowed, prio, diag);
    }
    if (st == RTP_OK) { /* the final bounds: the last accepted analysis */
        int ok = 1;
        for (size_t p = 0; p < s.m; p++)
            s.bound[s.at[p]] = -1;
        if (s.m > 0) {
            s.m--;
            st = try_mask(&s, s.at[s.m], s.mask[s.at[s.m]], prio, &ok, diag);
            s.m++;
        }
        for (size_t p = 0; p < s.m && st == RTP_OK; p++)
            s.bound[s.at[p]] = s.pr[p];
    }
    if (st == RTP_OK)
        st = build_plan(ts, cpus, n_cpus, &s, prio, plan);
    if (st == RTP_ENOMEM)
        rtp_oom(diag);
    if (st != RTP_OK)
        rtp_plan_free(plan);
    free(prio);
    free(s.order);
    free(s.mask);
    free(s.bound);
    free(s.pl);
    free(s.at);
    free(s.pm);
    free(s.pp);
    free(s.pr);
    free(s.load);
    free(eff);
    return st;
}
