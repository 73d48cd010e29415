/* tests/test_apa.c — the arbitrary-affinity bounds of solver/apa.h: hand
 * examples (arithmetic shown), the two degenerate cases (every task pinned:
 * the exact uniprocessor analysis per CPU; every mask the whole cluster: no
 * worse than global FP's [BC07]), the push/pull nesting condition, and
 * soundness against a slow, obviously correct reference: a unit-step
 * simulation of an APA scheduler (each instant, jobs in priority order take
 * a free CPU of their mask, chosen at random; a job waits only while every
 * CPU of its mask runs a more urgent one) on seeded sets with random
 * masks, sporadic releases and shorter executions: no simulated response
 * above its bound. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

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
    ts[1].jitter_ns = 1;
    assert_int_equal(run(ts, 2, mask, prio, r), RTP_GLOBAL_NA);
    ts[1].jitter_ns = 0;
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

static void test_against_simulation(void **state)
{
    (void)state;
    tu_rng rng = {1328};
    int bounds = 0, attained = 0, migrating = 0;
    for (int k = 0; k < 2500; k++) {
        rtp_task ts[MAXN];
        uint64_t mask[MAXN];
        int prio[MAXN], m;
        size_t n = apa_ref_random_set(&rng, ts, mask, prio, &m);
        rtp_ns r[MAXN], best[MAXN] = {0}, worst[MAXN];
        run(ts, n, mask, prio, r);
        for (int s = 0; s < 30; s++) {
            static apa_ref_scenario sc;
            apa_ref_scenario_draw(&rng, ts, n, 120, &sc);
            apa_ref_simulate(&rng, n, mask, prio, m, &sc, 360, worst);
            for (size_t i = 0; i < n; i++)
                best[i] = worst[i] > best[i] ? worst[i] : best[i];
        }
        for (size_t i = 0; i < n; i++) {
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
        }
    }
    print_message("apa: %d task bounds (%d migrating), %d attained, 0 above\n", bounds,
                  migrating, attained);
    assert_true(bounds > 3000);
    assert_true(migrating > 1000);
}

/* Pinned tasks only: per CPU exactly solver/fp.h's response times; full
 * masks: no worse than global FP's [BC07] (S = the cluster is one of the
 * subsets tried). */
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
        for (size_t i = 0; i < n; i++)
            mask[i] = (uint64_t)1 << tu_range(&rng, 0, m - 1);
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
        for (size_t i = 0; i < n; i++)
            mask[i] = ((uint64_t)1 << m) - 1;
        run(ts, n, mask, prio, r);
        rtp_global_verdict v;
        assert_int_equal(rtp_global_fp_rta(ts, n, m, prio, 0, &lim, g, &v, NULL), RTP_OK);
        for (size_t i = 0; i < n; i++)
            if (g[i] >= 0)
                assert_true(r[i] >= 0 && r[i] <= g[i]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_semi_partitioned),
        cmocka_unit_test(test_subset),
        cmocka_unit_test(test_not_applicable),
        cmocka_unit_test(test_degenerate),
        cmocka_unit_test(test_against_simulation),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
