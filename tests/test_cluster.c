/* tests/test_cluster.c — clustered scheduling (heuristics/cluster.c):
 * the Dhall example both ways (global EDF rejects it on a 4-CPU cluster,
 * partitioning on 4 CPUs accepts it), clusters of one CPU reduce exactly to
 * rtp_part_pack (same assignment, verdict, priorities and response times on
 * seeded sets, every placement x order, EDF and FP), seeded soundness of
 * clustered plans against a simulation of each cluster (ref_periodic_simulate,
 * tests/support/reference.h: the library's one simulator), the layout
 * comparison, shapes, affinity and input errors. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "heuristics/cluster.h"
#include "models/plan.h"
#include "support/reference.h"
#include "support/testutil.h"

#define MS 1000000LL
#define MAXN 16

/* ---- task sets built in memory ---- */

typedef struct set {
    rtp_taskset ts;
    rtp_task tasks[MAXN];
    char names[MAXN][24];
} set;

static void set_init(set *s, size_t n)
{
    memset(s, 0, sizeof *s);
    s->ts.time_unit_ns = 1;
    s->ts.tasks = s->tasks;
    s->ts.n_tasks = n;
    for (size_t i = 0; i < n; i++)
        snprintf(s->names[i], sizeof s->names[i], "T%zu", i);
}

static void set_task(set *s, size_t i, rtp_ns c, rtp_ns d, rtp_ns t)
{
    s->tasks[i] = tu_task(c, d, t);
    s->tasks[i].name = s->names[i];
}

/* n clusters of `size` CPUs over 0..n*size-1 (static storage per call). */
typedef struct shape {
    int ids[16];
    int *lists[16];
    size_t len[16];
    rtp_cluster_list list;
} shape;

static void shape_init(shape *sh, size_t n, size_t size)
{
    for (size_t j = 0; j < n; j++) {
        for (size_t k = 0; k < size; k++)
            sh->ids[j * size + k] = (int)(j * size + k);
        sh->lists[j] = &sh->ids[j * size];
        sh->len[j] = size;
    }
    sh->list.cpus = sh->lists;
    sh->list.len = sh->len;
    sh->list.n = n;
}

static const int cpus8[8] = {0, 1, 2, 3, 4, 5, 6, 7};

/* ---- Dhall's example, both ways ---- */

/* Dhall & Liu [DL78], in the seed's form: four tasks of 1 ms every 999 ms and
 * one of 1000 ms every 1000 ms. On one 4-CPU cluster under global EDF the
 * set is rejected (and really misses: see tests/test_global.c); partitioned
 * on the same 4 CPUs (rtp_part_pack, EDF) it is accepted: the heavy task
 * alone on one CPU, the light ones together on another. */
static void dhall(set *s)
{
    set_init(s, 5);
    for (size_t i = 0; i < 4; i++)
        set_task(s, i, 1 * MS, 999 * MS, 999 * MS);
    set_task(s, 4, 1000 * MS, 1000 * MS, 1000 * MS);
}

static void test_dhall_both_ways(void **state)
{
    (void)state;
    set s;
    dhall(&s);
    rtp_part_opts opts = rtp_part_opts_default();
    rtp_plan plan;
    /* Partitioned on 4 CPUs: accepted. */
    assert_int_equal(rtp_part_pack(&s.ts, cpus8, 4, &opts, &plan, NULL), RTP_OK);
    assert_true(plan.feasible);
    rtp_plan_free(&plan);
    /* One global-EDF cluster of 4 CPUs: the heavy task goes in first (by
     * utilization); three light tasks still fit (one CPU each, accepted by
     * the response-time bound), the fourth does not. */
    shape one;
    shape_init(&one, 1, 4);
    assert_int_equal(rtp_cluster_pack(&s.ts, cpus8, 4, &one.list, &opts, &plan, NULL), RTP_OK);
    assert_false(plan.feasible);
    assert_int_equal(plan.n_unassigned, 1);
    assert_int_equal(plan.bins[0].n_tasks, 4);
    assert_string_equal(plan.bins[0].test, "rta");
    rtp_plan_free(&plan);
    /* Comparing the layouts picks the partitioned one. */
    rtp_layout chosen = RTP_LAYOUT_GLOBAL;
    unsigned mask;
    assert_int_equal(rtp_layout_parse_list("partitioned,global", &mask), 0);
    assert_int_equal(rtp_layout_best(&s.ts, cpus8, 4, NULL, mask, &opts, &plan, &chosen, NULL),
                     RTP_OK);
    assert_int_equal(chosen, RTP_LAYOUT_PARTITIONED);
    assert_true(plan.feasible);
    assert_false(plan.clustered);
    rtp_plan_free(&plan);
}

/* ---- clusters of one CPU are partitioning ---- */

static const rtp_ns periods[] = {2, 3, 4, 5, 6, 8, 10, 12, 15, 20};

static void random_set(tu_rng *rng, set *s, size_t n, int constrained)
{
    set_init(s, n);
    for (size_t i = 0; i < n; i++) {
        rtp_ns period = periods[tu_range(rng, 0, 9)];
        rtp_ns deadline = constrained ? tu_range(rng, (period + 1) / 2, period) : period;
        set_task(s, i, tu_range(rng, 1, (deadline + 1) / 2), deadline, period);
    }
}

static void assert_same_plan(const rtp_plan *a, const rtp_plan *b, int fp)
{
    assert_int_equal(a->feasible, b->feasible);
    assert_int_equal(a->n_bins, b->n_bins);
    assert_int_equal(a->n_unassigned, b->n_unassigned);
    for (size_t j = 0; j < a->n_bins; j++) {
        assert_int_equal(a->bins[j].n_tasks, b->bins[j].n_tasks);
        for (size_t k = 0; k < a->bins[j].n_tasks; k++) {
            const rtp_plan_task *x = &a->bins[j].tasks[k], *y = &b->bins[j].tasks[k];
            assert_string_equal(x->task.name, y->task.name);
            if (fp) {
                assert_int_equal(x->priority, y->priority);
                assert_int_equal(x->response_time_ns, y->response_time_ns);
            }
        }
    }
}

static void test_size_one_is_partitioning(void **state)
{
    (void)state;
    tu_rng rng = {20260811};
    shape singles;
    shape_init(&singles, 3, 1);
    long feasible = 0, total = 0;
    for (int s = 0; s < 150; s++) {
        set st;
        random_set(&rng, &st, (size_t)tu_range(&rng, 3, 8), s % 2);
        for (int fp = 0; fp < 2; fp++) {
            for (int k = 0; k < RTP_N_PLACEMENTS * RTP_N_ORDERS; k++) {
                rtp_part_opts opts = rtp_part_opts_default();
                opts.policy = fp ? RTP_POLICY_FP : RTP_POLICY_EDF;
                opts.priority = s % 3 == 0 ? RTP_PRIO_DM : RTP_PRIO_OPA;
                opts.placement = (rtp_placement)(k / RTP_N_ORDERS);
                opts.order = (rtp_order)(k % RTP_N_ORDERS);
                rtp_plan part, clus;
                assert_int_equal(rtp_part_pack(&st.ts, cpus8, 3, &opts, &part, NULL), RTP_OK);
                assert_int_equal(
                    rtp_cluster_pack(&st.ts, cpus8, 3, &singles.list, &opts, &clus, NULL),
                    RTP_OK);
                assert_true(clus.clustered);
                assert_int_equal(clus.policy, fp ? RTP_POLICY_FP : RTP_POLICY_EDF);
                assert_same_plan(&part, &clus, fp);
                for (size_t j = 0; j < clus.n_bins; j++)
                    if (clus.bins[j].n_tasks && clus.feasible)
                        assert_string_equal(clus.bins[j].test, fp ? "rta" : "edf");
                feasible += part.feasible;
                total++;
                rtp_plan_free(&part);
                rtp_plan_free(&clus);
            }
        }
    }
    assert_true(feasible > total / 10 && feasible < total);
}

/* ---- clustered plans are sound ---- */

static void test_clustered_plans_sound(void **state)
{
    (void)state;
    tu_rng rng = {20260812};
    shape two_by_two;
    shape_init(&two_by_two, 2, 2);
    long clusters_checked = 0, feasible = 0;
    for (int s = 0; s < 1500; s++) {
        set st;
        random_set(&rng, &st, (size_t)tu_range(&rng, 5, 10), s % 2);
        int fp = s % 4 >= 2;
        rtp_part_opts opts = rtp_part_opts_default();
        opts.policy = fp ? RTP_POLICY_GFP : RTP_POLICY_GEDF;
        opts.priority = s % 8 < 4 ? RTP_PRIO_OPA : RTP_PRIO_DM;
        opts.placement = (rtp_placement)(s % RTP_N_PLACEMENTS);
        opts.order = (rtp_order)(s % RTP_N_ORDERS);
        rtp_plan plan;
        assert_int_equal(
            rtp_cluster_pack(&st.ts, cpus8, 4, &two_by_two.list, &opts, &plan, NULL), RTP_OK);
        feasible += plan.feasible;
        size_t placed = plan.n_unassigned;
        for (size_t j = 0; j < plan.n_bins; j++) {
            const rtp_plan_bin *b = &plan.bins[j];
            placed += b->n_tasks;
            assert_int_equal(b->n_cpus, 2);
            if (b->n_tasks == 0 || !b->test[0])
                continue;
            rtp_task t[MAXN];
            int prio[MAXN];
            int64_t worst[MAXN];
            for (size_t k = 0; k < b->n_tasks; k++) {
                t[k] = b->tasks[k].task;
                prio[k] = b->tasks[k].priority;
            }
            int64_t h = tu_hyperperiod(t, b->n_tasks);
            if (ref_periodic_simulate(t, b->n_tasks, 2, fp ? prio : NULL, 2 * h, worst))
                fail_msg("set %d cluster %zu: accepted by %s, simulation misses", s, j, b->test);
            for (size_t k = 0; fp && k < b->n_tasks; k++)
                assert_true(worst[k] <= b->tasks[k].response_time_ns);
            clusters_checked++;
        }
        assert_int_equal(placed, st.ts.n_tasks);
        rtp_plan_free(&plan);
    }
    assert_true(clusters_checked > 1000);
    assert_true(feasible > 100);
}

/* ---- comparing layouts ---- */

static void test_layouts(void **state)
{
    (void)state;
    rtp_part_opts opts = rtp_part_opts_default();
    rtp_plan plan;
    rtp_layout chosen;
    unsigned all;
    assert_int_equal(rtp_layout_parse_list("partitioned,clustered,global", &all), 0);
    /* Three tasks (2, 4) on 2 CPUs: partitioned, one CPU carries 1.0; one
     * global-EDF cluster carries 0.75 per CPU (GFB: 1.5 <= 2 - 0.5): global
     * has the most room. */
    set s;
    set_init(&s, 3);
    for (size_t i = 0; i < 3; i++)
        set_task(&s, i, 2, 4, 4);
    unsigned pg = (1u << RTP_LAYOUT_PARTITIONED) | (1u << RTP_LAYOUT_GLOBAL);
    assert_int_equal(rtp_layout_best(&s.ts, cpus8, 2, NULL, pg, &opts, &plan, &chosen, NULL),
                     RTP_OK);
    assert_int_equal(chosen, RTP_LAYOUT_GLOBAL);
    assert_true(plan.feasible);
    assert_true(plan.clustered);
    assert_int_equal(plan.n_bins, 1);
    assert_string_equal(plan.bins[0].test, "gfb");
    assert_string_equal(plan.method, "best");
    rtp_plan_free(&plan);
    /* Six tasks (2, 4) on 4 CPUs as 2x2: partitioned 1.0, clustered 0.75,
     * global 0.75 (accepted by the response-time bound): a tie, which goes
     * to the earlier layout, clustered. */
    set_init(&s, 6);
    for (size_t i = 0; i < 6; i++)
        set_task(&s, i, 2, 4, 4);
    shape two_by_two;
    shape_init(&two_by_two, 2, 2);
    assert_int_equal(
        rtp_layout_best(&s.ts, cpus8, 4, &two_by_two.list, all, &opts, &plan, &chosen, NULL),
        RTP_OK);
    assert_int_equal(chosen, RTP_LAYOUT_CLUSTERED);
    assert_true(plan.feasible);
    assert_int_equal(plan.n_bins, 2);
    assert_int_equal(plan.bins[0].n_tasks, 3);
    assert_string_equal(plan.chosen_placement, "ff");
    char *json = rtp_plan_to_json(&plan, 0);
    assert_non_null(strstr(json, "\"clusters\":[{\"cpus\":[0,1],\"test\":\"gfb\""));
    free(json);
    rtp_plan_free(&plan);
    /* Global FP, same shape: the plan carries priorities and bounds. */
    opts.policy = RTP_POLICY_GFP;
    assert_int_equal(
        rtp_cluster_best(&s.ts, cpus8, 4, &two_by_two.list, &opts, &plan, NULL), RTP_OK);
    assert_true(plan.feasible);
    assert_int_equal(plan.policy, RTP_POLICY_FP);
    assert_int_equal(plan.bins[0].tasks[0].priority, 3); /* DM ties: input order */
    assert_int_equal(plan.bins[0].tasks[0].response_time_ns, 2);
    assert_int_equal(plan.bins[0].tasks[2].response_time_ns, 4);
    rtp_plan_free(&plan);
    /* Clustered without clusters is a usage error. */
    rtp_diag diag;
    rtp_diag_clear(&diag);
    assert_int_equal(rtp_layout_best(&s.ts, cpus8, 4, NULL, all, &opts, &plan, &chosen, &diag),
                     RTP_EINPUT);
    assert_string_equal(diag.path, "--layouts");
    assert_int_equal(rtp_layout_parse_list("partitioned,bogus", &all), -1);
    assert_int_equal(rtp_layout_parse_list("", &all), -1);
}

/* Best and worst fit over clusters of different sizes compare the load per
 * CPU: utilizations 0.3, 0.2, 0.02 onto {0, 1} and {2}. Worst fit: 0.3 to
 * the first (tie at 0), 0.2 to {2} (0 < 0.15), 0.02 back to {0, 1} (0.15 <
 * 0.2). Best fit keeps filling {0, 1}. */
static void test_fit_by_load_per_cpu(void **state)
{
    (void)state;
    set s;
    set_init(&s, 3);
    set_task(&s, 0, 30, 100, 100);
    set_task(&s, 1, 20, 100, 100);
    set_task(&s, 2, 2, 100, 100);
    int c01[2] = {0, 1}, c2[1] = {2};
    int *lists[2] = {c01, c2};
    size_t len[2] = {2, 1};
    rtp_cluster_list cl = {lists, len, 2};
    rtp_part_opts opts = rtp_part_opts_default();
    rtp_plan plan;
    opts.placement = RTP_PLACE_WF;
    assert_int_equal(rtp_cluster_pack(&s.ts, cpus8, 3, &cl, &opts, &plan, NULL), RTP_OK);
    assert_int_equal(plan.bins[0].n_tasks, 2);
    assert_string_equal(plan.bins[1].tasks[0].task.name, "T1");
    assert_string_equal(plan.method, "wfd");
    rtp_plan_free(&plan);
    opts.placement = RTP_PLACE_BF;
    assert_int_equal(rtp_cluster_pack(&s.ts, cpus8, 3, &cl, &opts, &plan, NULL), RTP_OK);
    assert_int_equal(plan.bins[0].n_tasks, 3);
    rtp_plan_free(&plan);
    /* rtp_cluster_best picks worst fit: largest per-CPU load 0.2, not 0.26. */
    assert_int_equal(rtp_cluster_best(&s.ts, cpus8, 3, &cl, &opts, &plan, NULL), RTP_OK);
    assert_string_equal(plan.chosen_placement, "wf");
    rtp_plan_free(&plan);
}

/* ---- shapes, affinity and bad input ---- */

static void test_shapes(void **state)
{
    (void)state;
    const int ids[4] = {2, 3, 6, 7};
    rtp_cluster_list cl;
    rtp_diag diag;
    assert_int_equal(rtp_cluster_shape(ids, 4, "2x2", &cl, NULL), RTP_OK);
    assert_int_equal(cl.n, 2);
    assert_int_equal(cl.cpus[1][0], 6);
    assert_int_equal(cl.len[1], 2);
    rtp_cluster_list_free(&cl);
    assert_int_equal(rtp_cluster_shape(ids, 4, "3,1", &cl, NULL), RTP_OK);
    assert_int_equal(cl.n, 2);
    assert_int_equal(cl.len[0], 3);
    assert_int_equal(cl.cpus[1][0], 7);
    rtp_cluster_list_free(&cl);
    static const char *const bad[] = {"2x", "x2", "0x4", "2x3", "3,", ",1", "4,0", "2y2", "",
                                      "1,1,1"};
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        rtp_diag_clear(&diag);
        assert_int_equal(rtp_cluster_shape(ids, 4, bad[k], &cl, &diag), RTP_EINPUT);
        assert_string_equal(diag.path, "--clusters");
    }
}

static void test_affinity_and_errors(void **state)
{
    (void)state;
    set s;
    set_init(&s, 3);
    for (size_t i = 0; i < 3; i++)
        set_task(&s, i, 1, 10, 10);
    int aff01[2] = {0, 1}, aff2[1] = {2}, aff0[1] = {0};
    s.tasks[0].affinity = aff01, s.tasks[0].affinity_len = 2;
    s.tasks[1].affinity = aff2, s.tasks[1].affinity_len = 1;
    s.tasks[2].affinity = aff0, s.tasks[2].affinity_len = 1;
    int c01[2] = {0, 1}, c2[1] = {2};
    int *lists[2] = {c01, c2};
    size_t len[2] = {2, 1};
    rtp_cluster_list cl = {lists, len, 2};
    rtp_part_opts opts = rtp_part_opts_default();
    rtp_plan plan;
    assert_int_equal(rtp_cluster_pack(&s.ts, cpus8, 3, &cl, &opts, &plan, NULL), RTP_OK);
    /* T2 may use CPU 0 only, but cluster {0, 1} would migrate it to 1. */
    assert_int_equal(plan.bins[0].n_tasks, 1);
    assert_string_equal(plan.bins[0].tasks[0].task.name, "T0");
    assert_string_equal(plan.bins[1].tasks[0].task.name, "T1");
    assert_int_equal(plan.n_unassigned, 1);
    assert_false(plan.feasible);
    rtp_plan_free(&plan);

    rtp_diag diag;
    int aff5[1] = {5};
    s.tasks[2].affinity = aff5;
    rtp_diag_clear(&diag);
    assert_int_equal(rtp_cluster_pack(&s.ts, cpus8, 3, &cl, &opts, &plan, &diag), RTP_EINPUT);
    assert_string_equal(diag.path, "tasks[2].affinity");
    s.tasks[2].affinity = NULL, s.tasks[2].affinity_len = 0;
    c2[0] = 1; /* overlaps {0, 1} */
    rtp_diag_clear(&diag);
    assert_int_equal(rtp_cluster_pack(&s.ts, cpus8, 3, &cl, &opts, &plan, &diag), RTP_EINPUT);
    assert_string_equal(diag.path, "platform.clusters");
    c2[0] = 9; /* not on the platform */
    rtp_diag_clear(&diag);
    assert_int_equal(rtp_cluster_best(&s.ts, cpus8, 3, &cl, &opts, &plan, &diag), RTP_EINPUT);
    assert_string_equal(diag.path, "platform.clusters");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dhall_both_ways),
        cmocka_unit_test(test_size_one_is_partitioning),
        cmocka_unit_test(test_clustered_plans_sound),
        cmocka_unit_test(test_layouts),
        cmocka_unit_test(test_fit_by_load_per_cpu),
        cmocka_unit_test(test_shapes),
        cmocka_unit_test(test_affinity_and_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
