/* tests/test_apa.c — the arbitrary-affinity bounds of solver/apa.h: hand
 * examples (arithmetic shown), the two degenerate cases (every task pinned:
 * the exact uniprocessor analysis per CPU; every mask the whole cluster: no
 * worse than global FP's [BC07]), the push/pull nesting condition, and
 * soundness against a slow, obviously correct reference: a unit-step
 * simulation of an APA scheduler (each instant, jobs in priority order take
 * a free CPU of their mask, chosen at random; a job waits only while every
 * CPU of its mask runs a more urgent one) on seeded sets with random
 * masks, sporadic releases and shorter executions: no simulated response
 * above its bound; with release jitter, the same over seeded release
 * patterns within each job's jitter (extremes a third of the time each),
 * and a variant that ignores interferers' jitter must fail it. The
 * semi-partitioned plans of heuristics/semi.h: a hand example, and on
 * seeded sets every plan's bounds against the same simulation with the
 * plan's masks and priorities. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "heuristics/semi.h"
#include "models/effective.h"
#include "solver/apa.h"
#include "solver/fp.h"
#include "support/apa_reference.h"
#include "support/testutil.h"

#define MAXN APA_REF_MAXN

static rtp_global_verdict run(const rtp_task *ts, size_t n, const uint64_t *mask,
                              const int *prio, rtp_ns *resp)
{
    rtp_limits lim = rtp_limits_default();
    rtp_global_verdict v;
    assert_int_equal(rtp_apa_rta(ts, n, mask, prio, &lim, resp, &v, NULL), RTP_OK);
    return v;
}

/* a (6/10) pinned to CPU 0, b (5/10) to CPU 1, c (9/20) on both: no single
 * CPU has room for c, both together do. S = {1}: only b interferes, pinned
 * there: R = 9 + ceil(R/10) 5 -> 14 -> 19. S = {0}: 9 + 2 x 6 = 21 > 20.
 * S = {0,1}: [BC07] on 2 CPUs with a and b, 19 or more. R_c = 19. */
static void test_semi_partitioned(void **state)
{
    (void)state;
    rtp_task ts[3] = {tu_task(6, 10, 10), tu_task(5, 10, 10), tu_task(9, 20, 20)};
    uint64_t mask[3] = {1, 2, 3};
    int prio[3] = {3, 2, 1};
    rtp_ns r[3];
    assert_int_equal(run(ts, 3, mask, prio, r), RTP_GLOBAL_ACCEPT);
    assert_int_equal(r[0], 6);
    assert_int_equal(r[1], 5);
    assert_int_equal(r[2], 19);
    size_t x, y;
    assert_true(rtp_apa_nested(mask, 3, prio, &x, &y));
}

/* Only a strict subset works: t3 may use CPUs 0 and 2; with S = {0, 2}
 * three more urgent tasks that can run on CPU 2 interfere on 2 CPUs and the
 * bound passes D = 10; with S = {0} none can run there: R = C = 8. */
static void test_subset(void **state)
{
    (void)state;
    rtp_task ts[4] = {tu_task(2, 12, 12), tu_task(4, 15, 15), tu_task(1, 15, 15),
                      tu_task(8, 10, 10)};
    uint64_t mask[4] = {6, 6, 6, 5};
    int prio[4] = {4, 3, 2, 1};
    rtp_ns r[4];
    assert_int_equal(run(ts, 4, mask, prio, r), RTP_GLOBAL_ACCEPT);
    assert_int_equal(r[3], 8);
    /* not nested: t0 (urgent, {1,2}) and t3 ({0,2}) meet, t3's CPU 0 is
     * outside t0's mask */
    size_t x, y;
    assert_false(rtp_apa_nested(mask, 4, prio, &x, &y));
    assert_int_equal(x, 0);
    assert_int_equal(y, 3);
}

static void test_not_applicable(void **state)
{
    (void)state;
    rtp_task ts[2] = {tu_task(1, 10, 10), tu_task(1, 10, 10)};
    uint64_t mask[2] = {3, 3};
    int prio[2] = {2, 1};
    rtp_ns r[2];
    ts[1].blocking_ns = 1;
    assert_int_equal(run(ts, 2, mask, prio, r), RTP_GLOBAL_NA);
    ts[1].blocking_ns = 0;
    ts[1].deadline_ns = 11; /* past the period */
    ts[1].period_ns = 10;
    assert_int_equal(run(ts, 2, mask, prio, r), RTP_GLOBAL_NA);
    ts[1].deadline_ns = 10;
    mask[1] = 0; /* an affinity outside the cluster */
    assert_int_equal(run(ts, 2, mask, prio, r), RTP_GLOBAL_NA);
    mask[1] = 3;
    prio[1] = 2; /* ties */
    rtp_limits lim = rtp_limits_default();
    rtp_global_verdict v;
    assert_int_equal(rtp_apa_rta(ts, 2, mask, prio, &lim, r, &v, NULL), RTP_EINPUT);
    rtp_task t = tu_task(1, 1, 1);
    int aff[2] = {5, 7}, cpus[3] = {7, 6, 5};
    t.affinity = aff;
    t.affinity_len = 2;
    uint64_t m;
    assert_int_equal(rtp_apa_mask(&t, cpus, 3, &m, NULL), RTP_OK);
    assert_int_equal(m, 5); /* indices 0 (CPU 7) and 2 (CPU 5) */
}

/* Release jitter. a (6/10, J 2) pinned to CPU 0, b (5/10) to CPU 1, c
 * (5/20, J 3) on both. R_a = 6 + 2 = 8, R_b = 5. c from its release within
 * D - J = 17: S = {1}: w = 5 + ceil(w / 10) 5 -> 10; S = {0}: w = 5 +
 * ceil((w + 2) / 10) 6 -> 11 -> 17; S = {0,1} [BC07] with R_a = 8 from a's
 * arrival: at x = 10, W_a = staircase(10 + 8 - 6) = 6 + 2, clamped to 6,
 * W_b = staircase(10) = 5: 5 + floor(11 / 2) = 10. R_c = 10 + 3 = 13; with
 * no jitter at all, 10 (as before). J_c = 16: D - J = 4 < C: no bound. */
static void test_jitter_hand(void **state)
{
    (void)state;
    rtp_task ts[3] = {tu_task(6, 10, 10), tu_task(5, 10, 10), tu_task(5, 20, 20)};
    uint64_t mask[3] = {1, 2, 3};
    int prio[3] = {3, 2, 1};
    rtp_ns r[3];
    ts[0].jitter_ns = 2;
    ts[2].jitter_ns = 3;
    assert_int_equal(run(ts, 3, mask, prio, r), RTP_GLOBAL_ACCEPT);
    assert_int_equal(r[0], 8);
    assert_int_equal(r[1], 5);
    assert_int_equal(r[2], 13);
    mask[2] = 1; /* c pinned to CPU 0: S = {0} alone, 17 + 3 */
    assert_int_equal(run(ts, 3, mask, prio, r), RTP_GLOBAL_ACCEPT);
    assert_int_equal(r[2], 20);
    mask[2] = 3;
    ts[0].jitter_ns = ts[2].jitter_ns = 0;
    assert_int_equal(run(ts, 3, mask, prio, r), RTP_GLOBAL_ACCEPT);
    assert_int_equal(r[2], 10);
    ts[2].jitter_ns = 16;
    assert_int_equal(run(ts, 3, mask, prio, r), RTP_GLOBAL_REJECT);
    assert_int_equal(r[2], -1);
}

/* The seeded sets of apa_ref_random_set, 30 release patterns each, against
 * the bounds: 0 simulated responses above. With `jitter`, most tasks get
 * release jitter (up to D - C, now and then up to D) and every pattern its
 * releases within it; then a broken variant (interferers' bounds without
 * their jitter, i.e. jitter ignored in every carry-in and body window, J_k
 * added to the analysed task's own bound) must be caught exceeding on some
 * sets, or the test could not tell the two apart. */
static void against_simulation(uint64_t seed, int sets, int jitter)
{
    tu_rng rng = {seed};
    int bounds = 0, attained = 0, migrating = 0, broken_above = 0;
    rtp_ns sum_bound = 0, sum_worst = 0;
    for (int k = 0; k < sets; k++) {
        rtp_task ts[MAXN], bare[MAXN];
        uint64_t mask[MAXN];
        int prio[MAXN], m;
        size_t n = apa_ref_random_set(&rng, ts, mask, prio, &m);
        for (size_t i = 0; jitter && i < n; i++) {
            int kind = (int)tu_range(&rng, 0, 5);
            ts[i].jitter_ns = kind == 0   ? 0
                              : kind == 1 ? tu_range(&rng, 0, ts[i].deadline_ns)
                                          : tu_range(&rng, 0, ts[i].deadline_ns -
                                                                  ts[i].wcet_ns);
            bare[i] = ts[i];
            bare[i].jitter_ns = 0;
        }
        rtp_ns r[MAXN], rb[MAXN], best[MAXN] = {0}, worst[MAXN];
        run(ts, n, mask, prio, r);
        if (jitter)
            run(bare, n, mask, prio, rb);
        for (int s = 0; s < 30; s++) {
            static apa_ref_scenario sc;
            apa_ref_scenario_draw(&rng, ts, n, 120, &sc);
            if (jitter)
                apa_ref_scenario_jitter(&rng, ts, n, &sc);
            apa_ref_simulate(&rng, n, mask, prio, m, &sc, 360, worst);
            for (size_t i = 0; i < n; i++)
                best[i] = worst[i] > best[i] ? worst[i] : best[i];
        }
        int caught = 0;
        for (size_t i = 0; i < n; i++) {
            caught |= jitter && rb[i] >= 0 && best[i] > rb[i] + ts[i].jitter_ns;
            if (r[i] < 0)
                continue;
            if (best[i] > r[i]) {
                print_error("set %d task %zu: simulated %lld > bound %lld\n", k, i,
                            (long long)best[i], (long long)r[i]);
                fail();
            }
            bounds++;
            attained += best[i] == r[i];
            migrating += __builtin_popcountll(mask[i]) >= 2;
            sum_bound += r[i];
            sum_worst += best[i];
        }
        broken_above += caught;
    }
    print_message("apa%s: %d task bounds (%d migrating), %d attained, 0 above, "
                  "bound / worst simulated %.3f", jitter ? " jitter" : "", bounds, migrating,
                  attained, (double)sum_bound / (double)sum_worst);
    if (jitter)
        print_message("; jitter-blind variant above on %d sets", broken_above);
    print_message("\n");
    assert_true(bounds > sets);
    assert_true(migrating > sets / 4);
    assert_true(!jitter || broken_above > 0);
}

static void test_against_simulation(void **state)
{
    (void)state;
    against_simulation(1328, 2500, 0);
}

static void test_jitter_against_simulation(void **state)
{
    (void)state;
    against_simulation(2807, 2000, 1);
}

/* The plan's tasks as the simulation takes them: effective tasks in plan
 * order, masks over CPU indices 0..m-1 (the platform is 0..m-1), distinct
 * priorities (a partitioned plan's per-CPU ranks, tasks on different CPUs
 * ordered by CPU: they never meet). Returns how many, with bounds. */
static size_t plan_tasks(const rtp_plan *plan, rtp_task *ts, uint64_t *mask, int *prio,
                         rtp_ns *bound)
{
    size_t n = 0;
    int key[MAXN];
    for (size_t j = 0; j < plan->n_bins; j++)
        for (size_t i = 0; i < plan->bins[j].n_tasks; i++, n++) {
            const rtp_plan_task *pt = &plan->bins[j].tasks[i];
            ts[n] = pt->task;
            bound[n] = pt->response_time_ns;
            mask[n] = 0;
            for (size_t k = 0; k < plan->bins[j].n_cpus; k++) {
                int in = !pt->task.affinity || !plan->clustered;
                for (size_t a = 0; !in && a < pt->task.affinity_len; a++)
                    in = pt->task.affinity[a] == plan->bins[j].cpus[k];
                if (in)
                    mask[n] |= (uint64_t)1 << plan->bins[j].cpus[k];
            }
            key[n] = pt->priority * 1000 + (int)(plan->n_bins - j);
        }
    for (size_t i = 0; i < n; i++) { /* ranks 1..n, n = most urgent */
        prio[i] = 1;
        for (size_t x = 0; x < n; x++)
            prio[i] += key[x] < key[i];
    }
    return n;
}

/* a (5/10) may use CPU 0 only, b (7/10) CPU 1 only, c (9/20) either. With
 * a capacity of 0.9 per CPU c fits on neither alone (0.95, 1.15) and
 * migrates over both (1.65 <= 1.8), bound 19 (S = {0}: 9 + 2 x 5); with
 * capacity 1 it is pinned to CPU 0, the same bound, and the plan is
 * partitioned. */
/* Packs ts on CPUs 0 and 1 at capacity num/den: a feasible plan, clustered
 * (c migrating) or not as asked; c's plan task (the last of bin 0). */
static const rtp_plan_task *semi_c(const rtp_taskset *ts, int num, int den, int clustered,
                                   rtp_plan *plan)
{
    int cpus[2] = {0, 1};
    rtp_limits lim = rtp_limits_default();
    rtp_ratio cap = {num, den};
    assert_int_equal(rtp_semi_pack(ts, cpus, 2, cap, &lim, plan, NULL), RTP_OK);
    assert_true(plan->feasible);
    assert_int_equal(plan->clustered, clustered);
    const rtp_plan_task *c = &plan->bins[0].tasks[plan->bins[0].n_tasks - 1];
    assert_string_equal(c->task.name, "c");
    return c;
}

static void test_semi_hand(void **state)
{
    (void)state;
    rtp_task t[3] = {tu_task(5, 10, 10), tu_task(7, 10, 10), tu_task(9, 20, 20)};
    int a0[1] = {0}, a1[1] = {1}, cpus[2] = {0, 1};
    t[0].affinity = a0;
    t[0].affinity_len = 1;
    t[1].affinity = a1;
    t[1].affinity_len = 1;
    t[0].name = "a";
    t[1].name = "b";
    t[2].name = "c";
    rtp_taskset ts;
    memset(&ts, 0, sizeof ts);
    ts.tasks = t;
    ts.n_tasks = 3;
    rtp_limits lim = rtp_limits_default();
    rtp_plan plan;
    const rtp_plan_task *c = semi_c(&ts, 9, 10, 1, &plan);
    assert_int_equal(plan.n_bins, 1);
    assert_string_equal(plan.bins[0].test, "apa");
    assert_string_equal(plan.method, "semi");
    assert_int_equal(c->task.affinity_len, 2);
    assert_int_equal(c->priority, 1);
    assert_int_equal(c->response_time_ns, 19);
    assert_int_equal(plan.bins[0].tasks[0].priority, 3);
    rtp_plan_free(&plan);
    c = semi_c(&ts, 1, 1, 0, &plan);
    assert_int_equal(plan.bins[0].n_tasks, 2); /* a and c */
    assert_int_equal(c->response_time_ns, 19);
    assert_int_equal(c->priority, 1);
    rtp_plan_free(&plan);
    /* a release latency of 1 (J' = 1 for all): a's bound 6; c on CPU 0 from
     * its release w = 9 + ceil((w + 1) / 10) 5 -> 14 -> 19 <= D - J = 19,
     * bound 20; migrating at capacity 0.9, S = {0} gives the same 20 */
    ts.platform.overheads.release_latency_ns = 1;
    c = semi_c(&ts, 1, 1, 0, &plan);
    assert_int_equal(plan.bins[0].tasks[0].response_time_ns, 6);
    assert_int_equal(c->response_time_ns, 20);
    rtp_plan_free(&plan);
    c = semi_c(&ts, 9, 10, 1, &plan);
    assert_int_equal(c->task.affinity_len, 2);
    assert_int_equal(c->response_time_ns, 20);
    rtp_plan_free(&plan);
    rtp_ratio cap = {9, 10};
    ts.platform.overheads.release_latency_ns = 2; /* c: 9 + 2 x 5 = 19 > D - J = 18 */
    assert_int_equal(rtp_semi_pack(&ts, cpus, 2, cap, &lim, &plan, NULL), RTP_OK);
    assert_false(plan.feasible);
    rtp_plan_free(&plan);
    ts.platform.overheads.release_latency_ns = 0;
    /* outside the analysis' preconditions: one line naming the member */
    t[2].blocking_ns = 1;
    rtp_diag d;
    rtp_diag_clear(&d);
    assert_int_equal(rtp_semi_pack(&ts, cpus, 2, cap, &lim, &plan, &d), RTP_EINPUT);
    assert_string_equal(d.path, "tasks[2].blocking");
}

/* Seeded sets on 2..3 CPUs, capacity 0.9 or 1, some affinities given, in
 * half of them release jitter up to D - C on some tasks: every
 * semi-partitioned plan's bounds hold in the APA simulation with the plan's
 * masks, priorities and jitter, and its masks are nested by priority. */
static void test_semi_plans(void **state)
{
    (void)state;
    tu_rng rng = {2813};
    int plans = 0, feasible = 0, migrating = 0, bounds = 0, jittered = 0;
    for (int k = 0; k < 1500; k++) {
        rtp_task t[MAXN];
        uint64_t given[MAXN];
        int prio[MAXN], m;
        size_t n = apa_ref_random_set(&rng, t, given, prio, &m);
        int cpus[3] = {0, 1, 2}, ids[MAXN][3], jitter = k % 2;
        for (size_t i = 0; i < n; i++) {
            t[i].name = "x";
            if (jitter && tu_range(&rng, 0, 1))
                t[i].jitter_ns = tu_range(&rng, 0, t[i].deadline_ns - t[i].wcet_ns);
            if (tu_range(&rng, 0, 3) == 0) { /* an affinity from the random mask */
                t[i].affinity = ids[i];
                t[i].affinity_len = 0;
                for (int c = 0; c < m; c++)
                    if (given[i] >> c & 1)
                        ids[i][t[i].affinity_len++] = c;
            }
        }
        rtp_taskset ts;
        memset(&ts, 0, sizeof ts);
        ts.tasks = t;
        ts.n_tasks = n;
        rtp_limits lim = rtp_limits_default();
        rtp_ratio cap = {tu_range(&rng, 0, 1) ? 9 : 1, tu_range(&rng, 0, 1) ? 10 : 1};
        cap.num = cap.den == 1 ? 1 : cap.num;
        rtp_plan plan;
        assert_int_equal(rtp_semi_pack(&ts, cpus, (size_t)m, cap, &lim, &plan, NULL), RTP_OK);
        plans++;
        feasible += plan.feasible;
        rtp_task pt[MAXN];
        uint64_t mask[MAXN];
        int pp[MAXN];
        rtp_ns bound[MAXN], best[MAXN] = {0}, worst[MAXN];
        size_t np = plan_tasks(&plan, pt, mask, pp, bound);
        size_t x, y;
        assert_true(rtp_apa_nested(mask, np, pp, &x, &y));
        for (int s = 0; s < 20; s++) {
            static apa_ref_scenario sc;
            apa_ref_scenario_draw(&rng, pt, np, 120, &sc);
            apa_ref_scenario_jitter(&rng, pt, np, &sc);
            apa_ref_simulate(&rng, np, mask, pp, m, &sc, 360, worst);
            for (size_t i = 0; i < np; i++)
                best[i] = worst[i] > best[i] ? worst[i] : best[i];
        }
        for (size_t i = 0; i < np; i++) {
            jittered += pt[i].jitter_ns > 0;
            assert_true(bound[i] >= 0 && bound[i] <= pt[i].deadline_ns);
            if (best[i] > bound[i]) {
                print_error("set %d task %zu: simulated %lld > bound %lld\n", k, i,
                            (long long)best[i], (long long)bound[i]);
                fail();
            }
            bounds++;
            migrating += __builtin_popcountll(mask[i]) >= 2;
        }
        rtp_plan_free(&plan);
    }
    print_message("semi: %d plans, %d feasible, %d placed bounds (%d migrating, %d with "
                  "jitter), 0 above\n", plans, feasible, bounds, migrating, jittered);
    assert_true(feasible > 300 && migrating > 10 && jittered > 500);
}

/* Pinned tasks only: per CPU exactly solver/fp.h's response times (in half
 * the sets with release jitter); full masks: no worse than global FP's
 * [BC07] (S = the cluster is one of the subsets tried). */
static void test_degenerate(void **state)
{
    (void)state;
    tu_rng rng = {77};
    rtp_limits lim = rtp_limits_default();
    for (int k = 0; k < 1000; k++) {
        rtp_task ts[MAXN];
        uint64_t mask[MAXN];
        int prio[MAXN], m;
        size_t n = apa_ref_random_set(&rng, ts, mask, prio, &m);
        rtp_ns r[MAXN], g[MAXN];
        for (size_t i = 0; i < n; i++) {
            mask[i] = (uint64_t)1 << tu_range(&rng, 0, m - 1);
            if (k % 2) /* half the sets with jitter: [ABRTW93]'s recurrence, as fp.h's */
                ts[i].jitter_ns = tu_range(&rng, 0, ts[i].deadline_ns - ts[i].wcet_ns);
        }
        run(ts, n, mask, prio, r);
        for (int c = 0; c < m; c++) {
            rtp_task on[MAXN];
            int p[MAXN];
            size_t idx[MAXN], cnt = 0;
            for (size_t i = 0; i < n; i++)
                if (mask[i] == (uint64_t)1 << c) {
                    idx[cnt] = i;
                    p[cnt] = prio[i];
                    on[cnt++] = ts[i];
                }
            rtp_ns fr[MAXN];
            int sched;
            assert_int_equal(rtp_fp_rta(on, cnt, p, fr, &sched, &lim, NULL), RTP_OK);
            for (size_t x = 0; x < cnt; x++)
                assert_int_equal(r[idx[x]], fr[x]);
        }
        for (size_t i = 0; i < n; i++) {
            mask[i] = ((uint64_t)1 << m) - 1;
            ts[i].jitter_ns = 0; /* the global tests model none */
        }
        run(ts, n, mask, prio, r);
        rtp_global_verdict v;
        assert_int_equal(rtp_global_fp_rta(ts, n, m, prio, 0, &lim, g, &v, NULL), RTP_OK);
        for (size_t i = 0; i < n; i++)
            if (g[i] >= 0)
                assert_true(r[i] >= 0 && r[i] <= g[i]);
    }
}

/* rtp_apa_wcet_max against a scan (review rev13b found analyze's gfp
 * --sensitivity with affinities reporting the global test's wcet_max, above
 * what the APA analysis accepts): on seeded sets with jitter (half of them)
 * and overheads (a third), every wcet from the declared one to D_k + 1 is
 * accepted by rtp_apa_rta (on the effective tasks) exactly when it is at
 * most wcet_max[k], which also checks that the accepted wcets are downward
 * closed, as the bisection assumes; -1 everywhere when the set fails as
 * given. */
static void test_wcet_max_scan(void **state)
{
    (void)state;
    tu_rng rng = {4242};
    rtp_limits lim = rtp_limits_default();
    int accepted_sets = 0;
    for (int k = 0; k < 600; k++) {
        rtp_task ts[MAXN], e[MAXN];
        uint64_t mask[MAXN];
        int prio[MAXN], m;
        size_t n = apa_ref_random_set(&rng, ts, mask, prio, &m);
        for (size_t i = 0; i < n && k % 2; i++)
            ts[i].jitter_ns = tu_range(&rng, 0, (ts[i].deadline_ns - ts[i].wcet_ns) / 2);
        rtp_overheads ov = {0};
        if (k % 3 == 0) {
            ov.release_latency_ns = tu_range(&rng, 0, 2);
            ov.context_switch_ns = tu_range(&rng, 0, 1);
        }
        rtp_ns wm[MAXN];
        assert_int_equal(rtp_apa_wcet_max(ts, n, &ov, mask, prio, &lim, wm, NULL), RTP_OK);
        assert_int_equal(rtp_effective_tasks(ts, n, &ov, RTP_POLICY_GFP, e, NULL), RTP_OK);
        rtp_global_verdict v;
        assert_int_equal(rtp_apa_rta(e, n, mask, prio, &lim, NULL, &v, NULL), RTP_OK);
        for (size_t i = 0; i < n; i++) {
            if (v != RTP_GLOBAL_ACCEPT) {
                assert_int_equal(wm[i], -1);
                continue;
            }
            rtp_task keep = ts[i];
            for (rtp_ns x = keep.wcet_ns; x <= keep.deadline_ns + 1; x++) {
                ts[i].wcet_ns = x;
                assert_int_equal(rtp_effective_tasks(ts, n, &ov, RTP_POLICY_GFP, e, NULL),
                                 RTP_OK);
                rtp_global_verdict w;
                assert_int_equal(rtp_apa_rta(e, n, mask, prio, &lim, NULL, &w, NULL), RTP_OK);
                assert_int_equal(w == RTP_GLOBAL_ACCEPT, x <= wm[i]);
            }
            ts[i] = keep;
        }
        accepted_sets += v == RTP_GLOBAL_ACCEPT;
    }
    assert_true(accepted_sets > 100); /* the scan saw real searches */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_semi_partitioned),
        cmocka_unit_test(test_subset),
        cmocka_unit_test(test_not_applicable),
        cmocka_unit_test(test_degenerate),
        cmocka_unit_test(test_against_simulation),
        cmocka_unit_test(test_jitter_hand),
        cmocka_unit_test(test_jitter_against_simulation),
        cmocka_unit_test(test_semi_hand),
        cmocka_unit_test(test_semi_plans),
        cmocka_unit_test(test_wcet_max_scan),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
