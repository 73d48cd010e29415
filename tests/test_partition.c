/* tests/test_partition.c — partitioning heuristics (heuristics/partition.c).
 *
 * Published examples (the set of [DL78]; the textbook U = 23/24 set of
 * [But11], ch. 4), a crafted set on
 * which FFD, BFD, WFD and NFD differ, and seeded property tests: every plan
 * is re-checked against references written here (EDF: brute-force demand
 * bound over [1, H + Dmax]; FP: a simulation of the synchronous release on
 * the library's one simulator), and on small sets against exhaustive search over all partitions
 * (each subset's feasibility tabulated once). Periods divide H = 60 so the
 * references stay cheap. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "heuristics/partition.h"
#include "support/reference.h"
#include "support/testutil.h"

#define H 60
#define MAXN 32
#define MAXM 8

/* ---- task sets built in memory ---- */

typedef struct set {
    rtp_taskset ts;
    rtp_task tasks[MAXN];
    char names[MAXN][24];
    int affinity[MAXN][MAXM];
} set;

static void set_init(set *s, size_t n)
{
    memset(s, 0, sizeof *s);
    s->ts.time_unit_ns = 1;
    s->ts.tasks = s->tasks;
    s->ts.n_tasks = n;
    for (size_t i = 0; i < n; i++) {
        snprintf(s->names[i], sizeof s->names[i], "T%zu", i);
        s->tasks[i].name = s->names[i];
    }
}

static void set_task(set *s, size_t i, rtp_ns c, rtp_ns d, rtp_ns t)
{
    char *name = s->tasks[i].name;
    s->tasks[i] = tu_task(c, d, t);
    s->tasks[i].name = name;
}

/* Index of a plan task in the set, by name. */
static size_t index_of(const set *s, const rtp_task *t)
{
    for (size_t i = 0; i < s->ts.n_tasks; i++)
        if (strcmp(s->names[i], t->name) == 0)
            return i;
    fail_msg("task %s not in the set", t->name);
    return 0;
}

/* Bitmask of the set's tasks on bin j. */
static unsigned bin_mask(const set *s, const rtp_plan *plan, size_t j)
{
    unsigned mask = 0;
    for (size_t k = 0; k < plan->bins[j].n_tasks; k++)
        mask |= 1u << index_of(s, &plan->bins[j].tasks[k].task);
    return mask;
}

/* ---- references ---- */

/* Utilization of a mask in units of 1/H (periods divide H: exact). */
static int64_t load_h(const set *s, unsigned mask)
{
    int64_t sum = 0;
    for (size_t i = 0; i < s->ts.n_tasks; i++)
        if (mask >> i & 1)
            sum += s->tasks[i].wcet_ns * (H / s->tasks[i].period_ns);
    return sum;
}

static int fits_capacity(const set *s, unsigned mask, rtp_ratio cap)
{
    return (__int128)load_h(s, mask) * cap.den <= (__int128)cap.num * H;
}

/* EDF: U <= 1 and dbf(t) <= t for every t in [1, H + Dmax] ([BMR90]:
 * for t past that, dbf(t + H) = dbf(t) + U H). */
static int ref_edf(const set *s, unsigned mask)
{
    if (load_h(s, mask) > H)
        return 0;
    rtp_ns dmax = 0;
    for (size_t i = 0; i < s->ts.n_tasks; i++)
        if ((mask >> i & 1) && s->tasks[i].deadline_ns > dmax)
            dmax = s->tasks[i].deadline_ns;
    for (rtp_ns t = 1; t <= H + dmax; t++) {
        rtp_ns demand = 0;
        for (size_t i = 0; i < s->ts.n_tasks; i++) {
            const rtp_task *k = &s->tasks[i];
            if ((mask >> i & 1) && t >= k->deadline_ns)
                demand += ((t - k->deadline_ns) / k->period_ns + 1) * k->wcet_ns;
        }
        if (demand > t)
            return 0;
    }
    return 1;
}

/* FP: worst response time of task i below every task of `hp`, in the
 * synchronous release (the critical instant, [LL73]) simulated over [0, 2H)
 * by ref_periodic_simulate (the library's one simulator); the order among
 * the tasks of `hp` leaves i's responses unchanged. With U <= 1 every job
 * released in [0, H) completes by H. Returns -1 when the set is overloaded
 * (i's backlog then grows without bound). */
static rtp_ns ref_fp_wcrt(const set *s, unsigned hp, size_t i)
{
    if (load_h(s, hp | 1u << i) > H)
        return -1;
    rtp_task t[MAXN];
    int prio[MAXN];
    rtp_ns worst[MAXN];
    size_t n = 0;
    for (size_t j = 0; j < s->ts.n_tasks; j++)
        if (hp >> j & 1) {
            t[n] = s->tasks[j];
            prio[n++] = 2;
        }
    t[n] = s->tasks[i];
    prio[n] = 1;
    ref_periodic_simulate(t, n + 1, 1, prio, 2 * H, worst);
    return worst[n];
}

/* FP feasibility of every subset: some task can go lowest and the rest is
 * feasible (a search over all priority orders, one level at a time). */
static void ref_fp_table(const set *s, unsigned char *feasible)
{
    size_t n = s->ts.n_tasks;
    feasible[0] = 1;
    for (unsigned mask = 1; mask < (1u << n); mask++) {
        feasible[mask] = 0;
        if (load_h(s, mask) > H)
            continue;
        for (size_t i = 0; i < n && !feasible[mask]; i++) {
            if (!(mask >> i & 1) || !feasible[mask ^ (1u << i)])
                continue;
            rtp_ns r = ref_fp_wcrt(s, mask ^ (1u << i), i);
            feasible[mask] = r >= 0 && r <= s->tasks[i].deadline_ns;
        }
    }
}

static void ref_edf_table(const set *s, unsigned char *feasible)
{
    for (unsigned mask = 0; mask < (1u << s->ts.n_tasks); mask++)
        feasible[mask] = ref_edf(s, mask);
}

static int allowed_on(const set *s, unsigned mask, int cpu)
{
    for (size_t i = 0; i < s->ts.n_tasks; i++) {
        const rtp_task *t = &s->tasks[i];
        if (!(mask >> i & 1) || !t->affinity)
            continue;
        int ok = 0;
        for (size_t k = 0; k < t->affinity_len; k++)
            ok |= t->affinity[k] == cpu;
        if (!ok)
            return 0;
    }
    return 1;
}

/* Does any partition of all tasks onto the m CPUs pass (affinity, capacity
 * and the policy's feasibility)? Dynamic programming over CPUs: reach[mask]
 * = the first j CPUs can host exactly `mask`. */
static int exhaustive(const set *s, const int *cpus, size_t m, rtp_ratio cap,
                      const unsigned char *feasible)
{
    size_t n = s->ts.n_tasks;
    unsigned full = (1u << n) - 1;
    unsigned char *reach = calloc(full + 1, 1), *next = calloc(full + 1, 1);
    reach[0] = 1;
    for (size_t j = 0; j < m; j++) {
        memset(next, 0, full + 1);
        for (unsigned mask = 0; mask <= full; mask++) {
            /* every sub of mask that CPU j can host, with reach[mask ^ sub] */
            for (unsigned sub = mask;; sub = (sub - 1) & mask) {
                if (reach[mask ^ sub] && feasible[sub] && fits_capacity(s, sub, cap) &&
                    allowed_on(s, sub, cpus[j])) {
                    next[mask] = 1;
                    break;
                }
                if (sub == 0)
                    break;
            }
        }
        memcpy(reach, next, full + 1);
    }
    int found = reach[full];
    free(reach);
    free(next);
    return found;
}

/* ---- checking one plan ---- */

/* Every task exactly once; every CPU listed in platform order; affinity and
 * capacity respected; every CPU's tasks pass the reference (with exact or
 * sufficient admission, nothing unschedulable is ever placed); FP priorities
 * are 1..k and response times equal the simulation's. Returns 1 when the
 * plan is feasible, after checking that `feasible` agrees. */
static int check_structure(const set *s, const int *cpus, size_t m, const rtp_plan *plan)
{
    int seen[MAXN] = {0};
    assert_int_equal(plan->n_bins, m);
    assert_int_equal(plan->n_platform_cpus, m);
    for (size_t j = 0; j < m; j++) {
        assert_int_equal(plan->bins[j].cpus[0], cpus[j]);
        assert_true(allowed_on(s, bin_mask(s, plan, j), cpus[j]));
        for (size_t k = 0; k < plan->bins[j].n_tasks; k++)
            seen[index_of(s, &plan->bins[j].tasks[k].task)]++;
    }
    for (size_t k = 0; k < plan->n_unassigned; k++)
        seen[index_of(s, &plan->unassigned[k].task)]++;
    for (size_t i = 0; i < s->ts.n_tasks; i++)
        assert_int_equal(seen[i], 1);
    assert_int_equal(plan->feasible, plan->n_unassigned == 0);
    return plan->feasible;
}

static int check_plan(const set *s, const int *cpus, size_t m, const rtp_part_opts *opts,
                      const rtp_plan *plan)
{
    for (size_t j = 0; j < m; j++) {
        unsigned mask = bin_mask(s, plan, j);
        assert_true(fits_capacity(s, mask, opts->capacity));
        if (opts->policy == RTP_POLICY_EDF) {
            assert_true(ref_edf(s, mask));
            continue;
        }
        size_t nb = plan->bins[j].n_tasks;
        for (size_t k = 0; k < nb; k++) {
            const rtp_plan_task *pt = &plan->bins[j].tasks[k];
            assert_true(pt->priority >= 1 && pt->priority <= (int)nb);
            unsigned hp = 0;
            for (size_t q = 0; q < nb; q++) {
                assert_true(q == k || plan->bins[j].tasks[q].priority != pt->priority);
                if (plan->bins[j].tasks[q].priority > pt->priority)
                    hp |= 1u << index_of(s, &plan->bins[j].tasks[q].task);
            }
            rtp_ns r = ref_fp_wcrt(s, hp, index_of(s, &pt->task));
            if (r < 0 || r > pt->task.deadline_ns || r != pt->response_time_ns) {
                for (size_t q = 0; q < nb; q++) {
                    const rtp_plan_task *x = &plan->bins[j].tasks[q];
                    print_message("  %s C=%lld D=%lld T=%lld prio %d rt %lld\n", x->task.name,
                                  (long long)x->task.wcet_ns, (long long)x->task.deadline_ns,
                                  (long long)x->task.period_ns, x->priority,
                                  (long long)x->response_time_ns);
                }
                fail_msg("%s: reference response time %lld, plan %lld (rule %s, bound %d)",
                         pt->task.name, (long long)r, (long long)pt->response_time_ns,
                         rtp_prio_rule_name(opts->priority), opts->bound_admission);
            }
        }
    }
    return check_structure(s, cpus, m, plan);
}

/* ---- random sets ---- */

static const rtp_ns periods[] = {3, 4, 5, 6, 10, 12, 15, 20, 30, 60};

static void random_set(tu_rng *rng, set *s, size_t n, size_t m, int deadlines)
{
    set_init(s, n);
    int heavy = (int)tu_range(rng, 2, 9); /* task utilization up to heavy/10 */
    for (size_t i = 0; i < n; i++) {
        rtp_ns t = periods[tu_range(rng, 0, 9)];
        rtp_ns c = tu_range(rng, 1, t * heavy / 10 > 1 ? t * heavy / 10 : 1);
        rtp_ns d = t;
        if (deadlines == 1)
            d = tu_range(rng, c, t);
        else if (deadlines == 2)
            d = tu_range(rng, c, 2 * t);
        set_task(s, i, c, d, t);
        if (tu_range(rng, 0, 4) == 0) { /* affinity: a random non-empty subset */
            size_t len = 0;
            for (size_t j = 0; j < m; j++)
                if (tu_range(rng, 0, 1))
                    s->affinity[i][len++] = (int)j;
            if (len == 0)
                s->affinity[i][len++] = (int)tu_range(rng, 0, (int64_t)m - 1);
            s->tasks[i].affinity = s->affinity[i];
            s->tasks[i].affinity_len = len;
        }
    }
}

typedef struct tally {
    long sets, plans, feasible, exist, best_feasible;
} tally;

/* All 20 packings and rtp_part_best on one set, checked; with `table`, also
 * against exhaustive search. */
static void check_set(const set *s, size_t m, rtp_part_opts opts, const unsigned char *table,
                      tally *tl)
{
    int cpus[MAXM];
    for (size_t j = 0; j < m; j++)
        cpus[j] = (int)j;
    int exists = table ? exhaustive(s, cpus, m, opts.capacity, table) : -1;
    int any = 0;
    int64_t best_load = -1;
    int best_k = -1;
    tl->sets++;
    tl->exist += exists == 1;
    for (int k = 0; k < RTP_N_PLACEMENTS * RTP_N_ORDERS; k++) {
        opts.placement = (rtp_placement)(k / RTP_N_ORDERS);
        opts.order = (rtp_order)(k % RTP_N_ORDERS);
        rtp_plan plan;
        rtp_diag diag;
        rtp_diag_clear(&diag);
        assert_int_equal(rtp_part_pack(&s->ts, cpus, m, &opts, &plan, &diag), RTP_OK);
        int feasible = check_plan(s, cpus, m, &opts, &plan);
        tl->plans++;
        tl->feasible += feasible;
        if (feasible && exists == 0)
            fail_msg("a heuristic found a partition where exhaustive search finds none");
        if (feasible) {
            int64_t most = 0;
            for (size_t j = 0; j < m; j++)
                if (load_h(s, bin_mask(s, &plan, j)) > most)
                    most = load_h(s, bin_mask(s, &plan, j));
            if (!any || most < best_load) {
                best_load = most;
                best_k = k;
            }
            any = 1;
        }
        rtp_plan_free(&plan);
    }
    rtp_plan best;
    rtp_diag diag;
    rtp_diag_clear(&diag);
    opts.threads = 1;
    assert_int_equal(rtp_part_best(&s->ts, cpus, m, &opts, &best, &diag), RTP_OK);
    assert_int_equal(check_plan(s, cpus, m, &opts, &best), any);
    assert_string_equal(best.method, "best");
    if (any) {
        tl->best_feasible++;
        assert_string_equal(best.chosen_placement,
                            rtp_placement_name((rtp_placement)(best_k / RTP_N_ORDERS)));
        assert_string_equal(best.chosen_order, rtp_order_name((rtp_order)(best_k % RTP_N_ORDERS)));
    }
    rtp_plan_free(&best);
}

static void property_small(rtp_policy policy, long count, uint64_t seed)
{
    tu_rng rng = {seed};
    tally tl = {0};
    static unsigned char table[1u << 8];
    for (long it = 0; it < count; it++) {
        set s;
        size_t n = (size_t)tu_range(&rng, 1, 8), m = (size_t)tu_range(&rng, 1, 3);
        random_set(&rng, &s, n, m, (int)(it % 3));
        rtp_part_opts opts = rtp_part_opts_default();
        opts.policy = policy;
        if (it % 4 == 3) {
            opts.capacity.num = 9;
            opts.capacity.den = 10;
        }
        if (it % 5 == 4)
            opts.fit_measure = RTP_LOAD_DENSITY;
        if (policy == RTP_POLICY_FP)
            ref_fp_table(&s, table);
        else
            ref_edf_table(&s, table);
        check_set(&s, m, opts, table, &tl);
    }
    print_message("%s small: %ld sets, %ld plans, %ld feasible, partition exists for %ld sets, "
                  "best feasible for %ld\n", rtp_policy_name(policy), tl.sets, tl.plans,
                  tl.feasible, tl.exist, tl.best_feasible);
    assert_true(tl.best_feasible > count / 10 && tl.best_feasible < count);
}

static void test_property_small_edf(void **state)
{
    (void)state;
    property_small(RTP_POLICY_EDF, 2000, 11);
}

static void test_property_small_fp(void **state)
{
    (void)state;
    property_small(RTP_POLICY_FP, 1500, 12);
}

/* Larger sets, no exhaustive search: the per-plan references only, with
 * every admission variant (exact, bound; FP rules OPA, DM, RM). */
static void test_property_large(void **state)
{
    (void)state;
    tu_rng rng = {13};
    tally tl = {0};
    for (long it = 0; it < 400; it++) {
        set s;
        size_t n = (size_t)tu_range(&rng, 9, 24), m = (size_t)tu_range(&rng, 2, MAXM);
        random_set(&rng, &s, n, m, (int)(it % 3));
        rtp_part_opts opts = rtp_part_opts_default();
        opts.policy = it % 2 ? RTP_POLICY_FP : RTP_POLICY_EDF;
        opts.priority = (rtp_prio_rule)(it / 2 % 3); /* OPA, DM, RM */
        /* The bounds are sufficient for priorities by min(D, T), so only OPA
         * (optimal for the exact test) is sure to keep every CPU feasible. */
        opts.bound_admission = it % 7 == 0 && opts.priority == RTP_PRIO_OPA;
        check_set(&s, m, opts, NULL, &tl);
    }
    print_message("large: %ld sets, %ld plans, %ld feasible\n", tl.sets, tl.plans, tl.feasible);
    assert_true(tl.feasible > 0);
}

/* ---- examples ---- */

static rtp_plan pack(const set *s, const int *cpus, size_t m, rtp_policy policy,
                     rtp_placement placement, rtp_order order)
{
    rtp_part_opts opts = rtp_part_opts_default();
    opts.policy = policy;
    opts.placement = placement;
    opts.order = order;
    rtp_plan plan;
    rtp_diag diag;
    rtp_diag_clear(&diag);
    assert_int_equal(rtp_part_pack(&s->ts, cpus, m, &opts, &plan, &diag), RTP_OK);
    check_structure(s, cpus, m, &plan);
    return plan;
}

static const int cpus4[] = {0, 1, 2, 3};

/* Dhall & Liu [DL78]: m light tasks and one task of utilization 1 defeat
 * global EDF/RM on m CPUs; partitioned, the heavy task simply gets a CPU. */
static void test_dhall(void **state)
{
    (void)state;
    set s;
    set_init(&s, 5);
    for (size_t i = 0; i < 4; i++)
        set_task(&s, i, 1000000, 999000000, 999000000);
    set_task(&s, 4, 1000000000, 1000000000, 1000000000);
    for (int pol = 0; pol < 2; pol++) {
        /* decreasing utilization puts the heavy task first; worst fit in
         * another order spreads the light ones over every CPU first */
        for (int p = 0; p < RTP_N_PLACEMENTS; p++) {
            rtp_plan plan = pack(&s, cpus4, 4, (rtp_policy)pol, (rtp_placement)p,
                                 RTP_ORDER_UTIL);
            assert_true(plan.feasible);
            for (size_t j = 0; j < 4; j++) /* the heavy task is alone */
                if (bin_mask(&s, &plan, j) & 1u << 4)
                    assert_int_equal(plan.bins[j].n_tasks, 1);
            rtp_plan_free(&plan);
        }
        rtp_part_opts opts = rtp_part_opts_default();
        opts.policy = (rtp_policy)pol;
        rtp_plan plan;
        assert_int_equal(rtp_part_best(&s.ts, cpus4, 4, &opts, &plan, NULL), RTP_OK);
        assert_true(plan.feasible);
        assert_string_equal(plan.chosen_placement, "ff");
        assert_string_equal(plan.chosen_order, "util");
        rtp_plan_free(&plan);
        opts.placement = RTP_PLACE_WF;
        opts.order = RTP_ORDER_INPUT;
        assert_int_equal(rtp_part_pack(&s.ts, cpus4, 4, &opts, &plan, NULL), RTP_OK);
        assert_false(plan.feasible);
        assert_string_equal(plan.unassigned[0].task.name, "T4");
        rtp_plan_free(&plan);
    }
}

/* Buttazzo [But11], ch. 4: (1,4) (2,6) (3,8),
 * U = 23/24: EDF fits one CPU, RM/any fixed priority needs two. */
static void test_textbook(void **state)
{
    (void)state;
    set s;
    set_init(&s, 3);
    set_task(&s, 0, 1, 4, 4);
    set_task(&s, 1, 2, 6, 6);
    set_task(&s, 2, 3, 8, 8);
    rtp_part_opts opts = rtp_part_opts_default();
    rtp_plan plan;
    rtp_diag diag;
    assert_int_equal(rtp_part_best(&s.ts, cpus4, 1, &opts, &plan, &diag), RTP_OK);
    assert_true(plan.feasible);
    rtp_plan_free(&plan);
    opts.policy = RTP_POLICY_FP;
    assert_int_equal(rtp_part_best(&s.ts, cpus4, 1, &opts, &plan, &diag), RTP_OK);
    assert_false(plan.feasible);
    assert_int_equal(plan.n_unassigned, 1);
    rtp_part_miss miss;
    assert_int_equal(rtp_part_explain(&plan, &opts, 0, &miss, &diag), RTP_OK);
    assert_int_equal(miss.reason, RTP_MISS_TEST);
    assert_int_equal(miss.bin, 0);
    assert_non_null(miss.late_task);
    rtp_plan_free(&plan);
    assert_int_equal(rtp_part_best(&s.ts, cpus4, 2, &opts, &plan, &diag), RTP_OK);
    assert_true(plan.feasible);
    rtp_plan_free(&plan);
}

/* examples/four_packings.json: utilizations .57 .45 .44 .08 .05 on 3 CPUs.
 * FF {A,D,E}{B,C}{}; BF {A,E}{B,C,D}{}; WF {A}{B,E}{C,D}; NF {A}{B,C,D}{E}. */
static void test_four_packings(void **state)
{
    (void)state;
    rtp_taskset ts;
    rtp_diag diag;
    rtp_diag_clear(&diag);
    assert_int_equal(rtp_taskset_load(tu_source_path("examples/four_packings.json"), RTP_INPUT_MAX_DEFAULT, &ts, &diag),
                     RTP_OK);
    static const char *const expect[4][3] = {
        {"ADE", "BC", ""}, {"AE", "BCD", ""}, {"A", "BE", "CD"}, {"A", "BCD", "E"}};
    for (int pol = 0; pol < 2; pol++)
        for (int p = 0; p < RTP_N_PLACEMENTS; p++) {
            rtp_part_opts opts = rtp_part_opts_default();
            opts.policy = (rtp_policy)pol;
            opts.placement = (rtp_placement)p;
            rtp_plan plan;
            assert_int_equal(rtp_part_pack(&ts, cpus4, 3, &opts, &plan, &diag), RTP_OK);
            assert_true(plan.feasible);
            for (size_t j = 0; j < 3; j++) {
                char got[8] = "";
                for (size_t k = 0; k < plan.bins[j].n_tasks; k++)
                    strcat(got, plan.bins[j].tasks[k].task.name);
                assert_string_equal(got, expect[p][j]);
            }
            rtp_plan_free(&plan);
        }
    rtp_taskset_free(&ts);
}

/* Next fit never goes back: .5 .6 .5 .4 in input order on 2 CPUs. */
static void test_next_fit_closes_cpus(void **state)
{
    (void)state;
    set s;
    set_init(&s, 4);
    set_task(&s, 0, 5, 10, 10);
    set_task(&s, 1, 6, 10, 10);
    set_task(&s, 2, 5, 10, 10);
    set_task(&s, 3, 4, 10, 10);
    rtp_plan nf = pack(&s, cpus4, 2, RTP_POLICY_EDF, RTP_PLACE_NF, RTP_ORDER_INPUT);
    assert_false(nf.feasible);
    assert_int_equal(nf.n_unassigned, 1);
    assert_string_equal(nf.unassigned[0].task.name, "T2");
    rtp_part_opts opts = rtp_part_opts_default();
    rtp_part_miss miss;
    rtp_diag diag;
    assert_int_equal(rtp_part_explain(&nf, &opts, 0, &miss, &diag), RTP_OK);
    assert_int_equal(miss.reason, RTP_MISS_HEURISTIC); /* CPU 0 had room */
    assert_int_equal(miss.bin, 0);
    rtp_plan_free(&nf);
    rtp_plan ff = pack(&s, cpus4, 2, RTP_POLICY_EDF, RTP_PLACE_FF, RTP_ORDER_INPUT);
    assert_true(ff.feasible);
    rtp_plan_free(&ff);
}

static void test_affinity_and_capacity(void **state)
{
    (void)state;
    set s;
    set_init(&s, 2);
    set_task(&s, 0, 5, 10, 10);
    set_task(&s, 1, 5, 10, 10);
    s.affinity[1][0] = 3;
    s.tasks[1].affinity = s.affinity[1];
    s.tasks[1].affinity_len = 1;
    rtp_plan plan = pack(&s, cpus4, 4, RTP_POLICY_EDF, RTP_PLACE_FF, RTP_ORDER_UTIL);
    assert_int_equal(bin_mask(&s, &plan, 0), 1u);
    assert_int_equal(bin_mask(&s, &plan, 3), 2u);
    rtp_plan_free(&plan);

    rtp_part_opts opts = rtp_part_opts_default();
    opts.capacity.num = 9;
    opts.capacity.den = 10;
    s.tasks[1].affinity = NULL;
    assert_int_equal(rtp_part_pack(&s.ts, cpus4, 1, &opts, &plan, NULL), RTP_OK);
    assert_false(plan.feasible); /* 0.5 + 0.5 > 0.9 */
    rtp_part_miss miss;
    assert_int_equal(rtp_part_explain(&plan, &opts, 0, &miss, NULL), RTP_OK);
    assert_int_equal(miss.reason, RTP_MISS_CAPACITY);
    rtp_plan_free(&plan);
    opts.capacity.num = 1;
    opts.capacity.den = 1;
    assert_int_equal(rtp_part_pack(&s.ts, cpus4, 1, &opts, &plan, NULL), RTP_OK);
    assert_true(plan.feasible);
    rtp_plan_free(&plan);

    /* an affinity naming a CPU the platform lacks */
    s.affinity[1][0] = 5;
    s.tasks[1].affinity = s.affinity[1];
    rtp_diag diag;
    rtp_diag_clear(&diag);
    assert_int_equal(rtp_part_pack(&s.ts, cpus4, 4, &opts, &plan, &diag), RTP_EINPUT);
    assert_string_equal(diag.path, "tasks[1].affinity");
    assert_int_equal(rtp_part_best(&s.ts, cpus4, 4, &opts, &plan, &diag), RTP_EINPUT);
    assert_int_equal(rtp_part_pack(&s.ts, cpus4, 0, &opts, &plan, &diag), RTP_EINPUT);
}

/* CPUs are scanned by increasing Linux id; the plan keeps platform order. */
static void test_cpu_ids(void **state)
{
    (void)state;
    set s;
    set_init(&s, 3);
    set_task(&s, 0, 6, 10, 10);
    set_task(&s, 1, 6, 10, 10);
    set_task(&s, 2, 6, 10, 10);
    static const int ids[] = {7, 2, 5};
    rtp_plan plan = pack(&s, ids, 3, RTP_POLICY_EDF, RTP_PLACE_FF, RTP_ORDER_INPUT);
    assert_int_equal(plan.bins[1].cpus[0], 2);
    assert_int_equal(bin_mask(&s, &plan, 1), 1u);
    assert_int_equal(bin_mask(&s, &plan, 2), 2u);
    assert_int_equal(bin_mask(&s, &plan, 0), 4u);
    rtp_plan_free(&plan);
    set_init(&s, 0); /* no tasks: feasible, every CPU listed */
    plan = pack(&s, ids, 3, RTP_POLICY_FP, RTP_PLACE_BF, RTP_ORDER_UTIL);
    assert_true(plan.feasible);
    assert_int_equal(plan.n_bins, 3);
    rtp_plan_free(&plan);
}

/* rtp_part_best gives the same document with 1 and 2 threads. */
static void test_best_thread_count(void **state)
{
    (void)state;
    tu_rng rng = {14};
    for (int it = 0; it < 40; it++) {
        set s;
        random_set(&rng, &s, 24, 4, it % 3);
        rtp_part_opts opts = rtp_part_opts_default();
        opts.policy = it % 2 ? RTP_POLICY_FP : RTP_POLICY_EDF;
        char *text[2];
        for (int t = 0; t < 2; t++) {
            opts.threads = t + 1;
            rtp_plan plan;
            assert_int_equal(rtp_part_best(&s.ts, cpus4, 4, &opts, &plan, NULL), RTP_OK);
            text[t] = rtp_plan_to_json(&plan, 0);
            rtp_plan_free(&plan);
        }
        assert_string_equal(text[0], text[1]);
        free(text[0]);
        free(text[1]);
    }
}

/* The progress callback (partition.h): every run announces what it will
 * place and counts exactly that many placements; rtp_part_best announces
 * its 20 candidates at once (before any placement) and counts theirs from
 * two threads. The counts are atomics, as a thread-safe callback's are. */
typedef struct progress_tally {
    _Atomic uint64_t planned, placed, calls;
    _Atomic int placed_before_planned;
} progress_tally;

static void count(void *ctx, uint64_t planned, uint64_t placed)
{
    progress_tally *t = ctx;
    if (placed && t->planned == 0)
        t->placed_before_planned = 1;
    t->planned += planned;
    t->placed += placed;
    t->calls++;
}

static void test_progress(void **state)
{
    (void)state;
    tu_rng rng = {15};
    for (int it = 0; it < 20; it++) {
        set s;
        random_set(&rng, &s, 24, 4, it % 3);
        rtp_part_opts opts = rtp_part_opts_default();
        opts.policy = it % 2 ? RTP_POLICY_FP : RTP_POLICY_EDF;
        opts.threads = 2;
        opts.placement = (rtp_placement)(it % RTP_N_PLACEMENTS);
        for (int best = 0; best < 2; best++) {
            progress_tally t = {0};
            opts.progress = count;
            opts.progress_ctx = &t;
            rtp_plan plan;
            assert_int_equal(best ? rtp_part_best(&s.ts, cpus4, 4, &opts, &plan, NULL)
                                  : rtp_part_pack(&s.ts, cpus4, 4, &opts, &plan, NULL),
                             RTP_OK);
            uint64_t n = s.ts.n_tasks * (best ? RTP_N_PLACEMENTS * RTP_N_ORDERS : 1);
            assert_int_equal(t.planned, n);
            assert_int_equal(t.placed, n);
            assert_false(t.placed_before_planned);
            /* one announcement, then one report per run (fewer than 1024 tasks) */
            assert_int_equal(t.calls, 1 + (best ? RTP_N_PLACEMENTS * RTP_N_ORDERS : 1));
            rtp_plan_free(&plan);
        }
    }
}

static void test_names(void **state)
{
    (void)state;
    rtp_placement p;
    rtp_order o;
    assert_int_equal(rtp_placement_parse("wf", &p), 0);
    assert_int_equal(p, RTP_PLACE_WF);
    assert_int_equal(rtp_order_parse("density", &o), 0);
    assert_int_equal(o, RTP_ORDER_DENSITY);
    assert_int_equal(rtp_placement_parse("wfd", &p), -1);
    assert_int_equal(rtp_order_parse("utilization", &o), -1);
    assert_string_equal(rtp_placement_name(RTP_PLACE_NF), "nf");
    assert_string_equal(rtp_order_name(RTP_ORDER_PERIOD), "period");
}

/* --explain's EDF bound (rtp_part_bounds): for each task of a schedulable
 * one-CPU bin, the smallest deadline D' with the bin still schedulable, the
 * others unchanged. Checked on 400 seeded small bins (jitter included)
 * against a linear scan of D' = 1, 2, ... with the demand enumeration of
 * tests/support/reference.c; FP bounds are the plan's response times. */
static void test_edf_bounds(void **state)
{
    (void)state;
    tu_rng rng = {2323};
    char names[REF_MAXN][24];
    int checked = 0;
    for (int iter = 0; iter < 400; iter++) {
        size_t n = (size_t)tu_range(&rng, 1, 5);
        rtp_task t[REF_MAXN];
        /* periods with a short hyperperiod (48): the reference enumerates it */
        static const rtp_ns short_periods[] = {3, 4, 6, 8, 12, 16, 24};
        for (size_t i = 0; i < n; i++) {
            rtp_ns period = short_periods[tu_range(&rng, 0, 6)];
            t[i] = tu_task(tu_range(&rng, 1, period / 2 > 1 ? period / 2 : 1), 0, period);
            t[i].deadline_ns = tu_range(&rng, t[i].wcet_ns, period + 6);
            t[i].jitter_ns = tu_range(&rng, 0, 2) == 0 ? tu_range(&rng, 0, 3) : 0;
            snprintf(names[i], sizeof names[i], "t%zu", i);
            t[i].name = names[i];
        }
        rtp_ns miss;
        if (!ref_edf_enumerate(t, n, &miss))
            continue;
        rtp_plan plan;
        int cpu = 0;
        assert_int_equal(rtp_plan_init_cpus(&plan, RTP_POLICY_EDF, &cpu, 1), RTP_OK);
        plan.feasible = 1;
        for (size_t i = 0; i < n; i++)
            assert_int_equal(rtp_plan_add_task(&plan, 0, &t[i], 0, -1), RTP_OK);
        rtp_ns bound[REF_MAXN];
        rtp_part_opts opts = rtp_part_opts_default();
        rtp_diag diag;
        assert_int_equal(rtp_part_bounds(&plan, &opts, 0, bound, &diag), RTP_OK);
        for (size_t i = 0; i < n; i++) {
            rtp_ns d = t[i].deadline_ns, want = d;
            for (rtp_ns x = 1; x <= d; x++) {
                t[i].deadline_ns = x;
                if (ref_edf_enumerate(t, n, &miss)) {
                    want = x;
                    break;
                }
            }
            t[i].deadline_ns = d;
            if (bound[i] != want)
                fail_msg("set %d task %zu: bound %lld, the smallest deadline that passes is "
                         "%lld", iter, i, (long long)bound[i], (long long)want);
            checked++;
        }
        rtp_plan_free(&plan);
    }
    print_message("EDF bounds: %d tasks checked\n", checked);
    assert_true(checked > 300);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_edf_bounds),
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_dhall),
        cmocka_unit_test(test_textbook),
        cmocka_unit_test(test_four_packings),
        cmocka_unit_test(test_next_fit_closes_cpus),
        cmocka_unit_test(test_affinity_and_capacity),
        cmocka_unit_test(test_cpu_ids),
        cmocka_unit_test(test_best_thread_count),
        cmocka_unit_test(test_progress),
        cmocka_unit_test(test_property_small_edf),
        cmocka_unit_test(test_property_small_fp),
        cmocka_unit_test(test_property_large),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
