/* tests/test_rr_choose.c — solver/rr_choose.h: SCHED_FIFO or SCHED_RR per
 * tied level. Hand cases: examples/rr-tied.json, where SCHED_FIFO lets the
 * 30 ms logger delay control past its deadline and SCHED_RR holds it to one
 * quantum (RR wins); two tied tasks with a 100 us context switch, where
 * SCHED_RR's turn switches make every bound larger (FIFO wins); a set
 * without ties, analysed exactly as before. Seeded sets (the SCHED_RR
 * reference's generator, tests/support/rr_reference.h): the choice is
 * consistent (the CPU analysed with the chosen policies gives the same
 * bounds), never worse than all tied levels SCHED_FIFO or all SCHED_RR, and
 * no simulated response under the chosen policies passes its bound. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "solver/fp.h"
#include "solver/rr.h"
#include "solver/rr_choose.h"
#include "support/rr_reference.h"
#include "support/testutil.h"

#define MS 1000000LL
#define MAXN RR_REF_MAXN

static rtp_task task(const char *name, rtp_ns c, rtp_ns t, int rr)
{
    rtp_task x;
    memset(&x, 0, sizeof x);
    x.name = (char *)name;
    x.wcet_ns = c;
    x.period_ns = x.deadline_ns = t;
    x.rr = rr;
    return x;
}

static void test_rr_wins(void **state)
{
    (void)state;
    rtp_task ts[3] = {task("sensor", 1 * MS, 10 * MS, 0), task("control", 2 * MS, 25 * MS, 0),
                      task("logger", 30 * MS, 100 * MS, 0)};
    int prio[3] = {2, 1, 1}, sched = 0;
    rtp_rr_params rr = {4 * MS, 1 * MS, 0};
    rtp_limits lim = rtp_limits_default();
    rtp_ns resp[3];
    unsigned char chosen[3];
    rtp_rr_level lv[3];
    size_t nl = 0;
    assert_int_equal(rtp_rr_fp_rta(ts, 3, prio, &rr, resp, &sched, &lim, NULL), RTP_OK);
    assert_false(sched); /* as SCHED_FIFO, control waits for the logger's 30 ms */
    assert_int_equal(rtp_rr_choose(ts, 3, prio, &rr, chosen, resp, &sched, lv, &nl, &lim, NULL),
                     RTP_OK);
    assert_true(sched);
    assert_int_equal(nl, 1);
    assert_int_equal(lv[0].priority, 1);
    assert_true(lv[0].rr && lv[0].usable);
    assert_false(lv[0].cpu_meets[0]);
    assert_int_equal(lv[0].miss[0], 1); /* control */
    assert_true(lv[0].cpu_meets[1]);
    assert_int_equal(lv[0].worst_ns[1], 38 * MS);
    assert_int_equal(chosen[0], 0);
    assert_int_equal(chosen[1], 1);
    assert_int_equal(chosen[2], 1);
    assert_int_equal(resp[1], 23 * MS);
    assert_int_equal(resp[2], 38 * MS);
    /* no usable SCHED_RR terms (a tick that does not divide the quantum):
     * the tasks' own policies, the level reported as not analysable */
    rtp_rr_params bad = {4 * MS, 3 * MS, 0};
    assert_int_equal(rtp_rr_choose(ts, 3, prio, &bad, chosen, resp, &sched, lv, &nl, &lim, NULL),
                     RTP_OK);
    assert_false(sched);
    assert_int_equal(nl, 1);
    assert_false(lv[0].usable);
    assert_int_equal(chosen[1] + chosen[2], 0);
}

static void test_fifo_wins(void **state)
{
    (void)state;
    /* C' = C + 2 cs already: the turn switches SCHED_RR adds are the difference */
    rtp_task ts[2] = {task("a", 1200000, 5 * MS, 1), task("b", 2200000, 40 * MS, 1)};
    int prio[2] = {1, 1}, sched = 0;
    rtp_rr_params rr = {4 * MS, 1 * MS, 100000};
    rtp_limits lim = rtp_limits_default();
    rtp_ns resp[2];
    unsigned char chosen[2];
    rtp_rr_level lv[2];
    size_t nl = 0;
    assert_int_equal(rtp_rr_choose(ts, 2, prio, &rr, chosen, resp, &sched, lv, &nl, &lim, NULL),
                     RTP_OK);
    assert_true(sched);
    assert_int_equal(nl, 1);
    assert_false(lv[0].rr);
    assert_true(lv[0].cpu_meets[0] && lv[0].cpu_meets[1]);
    assert_int_equal(lv[0].worst_ns[0], 3400000);
    assert_true(lv[0].worst_ns[1] > lv[0].worst_ns[0]);
    assert_int_equal(chosen[0] + chosen[1], 0); /* the tasks said rr: FIFO is better */
    assert_int_equal(resp[0], 3400000);
}

static void test_no_ties(void **state)
{
    (void)state;
    rtp_task ts[3] = {task("a", 1 * MS, 4 * MS, 1), task("b", 2 * MS, 9 * MS, 0),
                      task("c", 3 * MS, 20 * MS, 0)};
    int prio[3] = {3, 2, 1}, s1 = 0, s2 = 0;
    rtp_rr_params rr = {4 * MS, 1 * MS, 0};
    rtp_limits lim = rtp_limits_default();
    rtp_ns r1[3], r2[3];
    unsigned char chosen[3];
    size_t nl = 7;
    assert_int_equal(rtp_fp_rta(ts, 3, prio, r1, &s1, &lim, NULL), RTP_OK);
    assert_int_equal(rtp_rr_choose(ts, 3, prio, &rr, chosen, r2, &s2, NULL, &nl, &lim, NULL),
                     RTP_OK);
    assert_int_equal(nl, 0);
    assert_int_equal(s1, s2);
    assert_memory_equal(r1, r2, sizeof r1);
    assert_int_equal(chosen[0], 1); /* untouched */
    assert_int_equal(chosen[1] + chosen[2], 0);
}

static int analyse_as(const rtp_task *ts, size_t n, const int *prio, const rtp_rr_params *rr,
                      const unsigned char *policy, rtp_ns *resp)
{
    rtp_task w[MAXN];
    memcpy(w, ts, n * sizeof *w);
    for (size_t i = 0; i < n; i++)
        w[i].rr = policy[i];
    rtp_limits lim = rtp_limits_default();
    int sched = 0;
    assert_int_equal(rtp_rr_fp_rta(w, n, prio, rr, resp, &sched, &lim, NULL), RTP_OK);
    return sched;
}

static void test_seeded(void **state)
{
    (void)state;
    tu_rng rng = {2828028};
    int sets = 0, rr_levels = 0, fifo_levels = 0, bounds = 0, reached = 0, rescued = 0;
    for (int k = 0; k < 6000; k++) {
        rtp_task ts[MAXN];
        int prio[MAXN];
        rtp_ns q, p;
        size_t n = rr_ref_random_set(&rng, ts, prio, &q, &p);
        rtp_rr_params rr = {q, p, (k & 1) ? (rtp_ns)tu_range(&rng, 0, 1) : 0};
        if (!rtp_rr_usable(&rr))
            continue;
        rtp_limits lim = rtp_limits_default();
        rtp_ns resp[MAXN], again[MAXN];
        unsigned char chosen[MAXN], fifo[MAXN], all_rr[MAXN];
        rtp_rr_level lv[MAXN];
        size_t nl = 0;
        int sched = 0;
        assert_int_equal(rtp_rr_choose(ts, n, prio, &rr, chosen, resp, &sched, lv, &nl, &lim,
                                       NULL),
                         RTP_OK);
        if (nl == 0)
            continue;
        sets++;
        for (size_t l = 0; l < nl; l++) {
            rr_levels += lv[l].rr;
            fifo_levels += !lv[l].rr;
        }
        /* consistent: the chosen policies analysed as given */
        assert_int_equal(analyse_as(ts, n, prio, &rr, chosen, again), sched);
        assert_memory_equal(again, resp, n * sizeof *resp);
        /* never worse than one policy for every tied level */
        for (size_t i = 0; i < n; i++) {
            int tied = 0;
            for (size_t j = 0; j < n; j++)
                tied |= j != i && prio[j] == prio[i];
            fifo[i] = tied ? 0 : chosen[i];
            all_rr[i] = tied ? 1 : chosen[i];
        }
        int sf = analyse_as(ts, n, prio, &rr, fifo, again);
        int sr = analyse_as(ts, n, prio, &rr, all_rr, again);
        if ((sf || sr) && !sched)
            fail_msg("set %d: all-FIFO %d, all-RR %d schedulable, the choice not", k, sf, sr);
        rescued += sched && !sf;
        if (rr.context_switch_ns > 0) /* the reference models no context switch */
            continue;
        rtp_task w[MAXN];
        memcpy(w, ts, n * sizeof *w);
        for (size_t i = 0; i < n; i++)
            w[i].rr = chosen[i];
        rtp_ns best[MAXN];
        rr_ref_worst(w, n, prio, q, p, 12, &rng, best);
        for (size_t i = 0; i < n; i++) {
            if (resp[i] < 0)
                continue;
            if (best[i] > resp[i])
                fail_msg("set %d task %zu: simulated %lld > bound %lld", k, i,
                         (long long)best[i], (long long)resp[i]);
            bounds++;
            reached += best[i] == resp[i];
        }
    }
    print_message("rr_choose: %d sets with ties, %d levels SCHED_RR, %d SCHED_FIFO, %d sets "
                  "schedulable only by the choice; %d bounds, %d reached, 0 exceeded\n",
                  sets, rr_levels, fifo_levels, rescued, bounds, reached);
    assert_true(sets > 4000 && rr_levels > 50 && fifo_levels > 1000 && rescued > 50);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rr_wins),
        cmocka_unit_test(test_fifo_wins),
        cmocka_unit_test(test_no_ties),
        cmocka_unit_test(test_seeded),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
