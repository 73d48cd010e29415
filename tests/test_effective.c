/* tests/test_effective.c — models/effective.h: J' = jitter + release_latency,
 * C' = wcet + ceil(wcet x noise_per_ms / 1 ms) + 2 x context_switch
 * (+ deadline_charge under SCHED_DEADLINE) (docs/spec.md "Real-system terms",
 * "The SCHED_DEADLINE charge"), the 2^62 limit on all of them (RTP_ELIMIT,
 * never a wrapped value), shallow copies and in-place use, and the noise's
 * inverse against a brute-force search. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "models/effective.h"
#include "support/testutil.h"

static void test_terms(void **state)
{
    (void)state;
    rtp_overheads ov = {70000, 3000, 0, 0, 0};
    rtp_task t = tu_task(120000, 500000, 1000000);
    t.jitter_ns = 5000;
    t.blocking_ns = 9000;
    t.name = "safety";
    rtp_ns c, j;
    assert_int_equal(rtp_effective_wcet(&t, &ov, RTP_POLICY_EDF, &c), RTP_OK);
    assert_int_equal(c, 126000);
    assert_int_equal(rtp_effective_jitter(&t, &ov, &j), RTP_OK);
    assert_int_equal(j, 75000);
    /* no overheads: declared = effective */
    assert_int_equal(rtp_effective_wcet(&t, NULL, RTP_POLICY_EDF, &c), RTP_OK);
    assert_int_equal(c, 120000);
    assert_true(rtp_overheads_zero(NULL));
    rtp_overheads zero = {0, 0, 0, 0, 0};
    assert_true(rtp_overheads_zero(&zero));
    assert_false(rtp_overheads_zero(&ov));

    rtp_task set[2] = {t, tu_task(1, 2, 3)};
    rtp_diag d;
    rtp_status st;
    rtp_task *eff = rtp_effective_new(set, 2, &ov, RTP_POLICY_FP, &st, &d);
    assert_non_null(eff);
    assert_int_equal(eff[0].wcet_ns, 126000);
    assert_int_equal(eff[0].jitter_ns, 75000);
    assert_int_equal(eff[0].blocking_ns, 9000); /* blocking is taken as given */
    assert_int_equal(eff[0].deadline_ns, 500000);
    assert_ptr_equal(eff[0].name, set[0].name); /* shallow */
    assert_int_equal(eff[1].wcet_ns, 6001);
    assert_int_equal(eff[1].jitter_ns, 70000);
    assert_true(rtp_tasks_have_delays(eff, 2));
    assert_false(rtp_tasks_have_delays(&set[1], 1));
    /* declared tasks are left alone */
    assert_int_equal(set[0].wcet_ns, 120000);
    free(eff);
    /* in place */
    assert_int_equal(rtp_effective_tasks(set, 2, &ov, RTP_POLICY_GFP, set, &d), RTP_OK);
    assert_int_equal(set[1].wcet_ns, 6001);
    assert_int_equal(set[1].jitter_ns, 70000);
}

static void test_limits(void **state)
{
    (void)state;
    const rtp_ns lim = RTP_NS_LIMIT;
    rtp_task t = tu_task(lim - 4, lim, lim);
    t.name = "big";
    rtp_overheads ov = {0, 2, 0, 0, 0};
    rtp_ns c = -1;
    assert_int_equal(rtp_effective_wcet(&t, &ov, RTP_POLICY_EDF, &c), RTP_OK);
    assert_int_equal(c, lim); /* exactly 2^62 is still a time */
    ov.context_switch_ns = 3;
    c = -1;
    assert_int_equal(rtp_effective_wcet(&t, &ov, RTP_POLICY_EDF, &c), RTP_ELIMIT);
    assert_int_equal(c, -1); /* untouched */
    ov.context_switch_ns = lim; /* 2 x 2^62 would wrap a naive sum */
    assert_int_equal(rtp_effective_wcet(&t, &ov, RTP_POLICY_EDF, &c), RTP_ELIMIT);
    t.jitter_ns = lim;
    rtp_overheads rl = {1, 0, 0, 0, 0};
    assert_int_equal(rtp_effective_jitter(&t, &rl, &c), RTP_ELIMIT);
    rl.release_latency_ns = 0;
    assert_int_equal(rtp_effective_jitter(&t, &rl, &c), RTP_OK);
    assert_int_equal(c, lim);
    rtp_diag d;
    rtp_diag_clear(&d);
    rtp_status st = RTP_OK;
    rtp_task set[2] = {t, tu_task(1, 2, 3)}; /* the first failing task is named */
    rtp_overheads both = {lim, lim, 0, 0, 0};
    assert_null(rtp_effective_new(set, 2, &both, RTP_POLICY_EDF, &st, &d));
    assert_int_equal(st, RTP_ELIMIT);
    assert_non_null(strstr(d.message, "2^62"));
    assert_non_null(strstr(d.message, "big"));
}

/* The two new terms: noise scales with the wcet (rounded up), the charge is
 * paid under SCHED_DEADLINE only. */
static void test_charge_and_noise(void **state)
{
    (void)state;
    rtp_overheads ov = {0, 3000, 40000, 12000, 0}; /* 12 us per ms = 1.2 % */
    rtp_task t = tu_task(2500001, 10000000, 10000000);
    t.name = "ctl";
    rtp_ns c;
    /* 2500001 x 12000 / 1e6 = 30000.012 -> 30001 */
    assert_int_equal(rtp_effective_wcet(&t, &ov, RTP_POLICY_FP, &c), RTP_OK);
    assert_int_equal(c, 2500001 + 30001 + 6000);
    assert_int_equal(rtp_effective_wcet(&t, &ov, RTP_POLICY_GFP, &c), RTP_OK);
    assert_int_equal(c, 2500001 + 30001 + 6000);
    assert_int_equal(rtp_effective_wcet(&t, &ov, RTP_POLICY_EDF, &c), RTP_OK);
    assert_int_equal(c, 2500001 + 30001 + 6000 + 40000);
    assert_int_equal(rtp_effective_wcet(&t, &ov, RTP_POLICY_GEDF, &c), RTP_OK);
    assert_int_equal(c, 2500001 + 30001 + 6000 + 40000);
    assert_true(rtp_policy_is_deadline(RTP_POLICY_EDF));
    assert_false(rtp_policy_is_deadline(RTP_POLICY_FP));
    rtp_overheads only_charge = {0, 0, 1, 0, 0}, only_noise = {0, 0, 0, 1, 0};
    assert_false(rtp_overheads_zero(&only_charge));
    assert_false(rtp_overheads_zero(&only_noise));
    /* a whole number of ns of noise is not rounded up further */
    t.wcet_ns = 1000000;
    assert_int_equal(rtp_effective_noisy(t.wcet_ns, &ov, &c), RTP_OK);
    assert_int_equal(c, 1012000);
    rtp_ns fixed = -1;
    assert_int_equal(rtp_effective_fixed(&ov, RTP_POLICY_EDF, &fixed), RTP_OK);
    assert_int_equal(fixed, 46000);
    assert_int_equal(rtp_effective_fixed(NULL, RTP_POLICY_EDF, &fixed), RTP_OK);
    assert_int_equal(fixed, 0);
    /* limits: noise on a wcet near 2^62, the charge on top */
    const rtp_ns lim = RTP_NS_LIMIT;
    rtp_overheads big = {0, 0, 1, 999999, 0};
    assert_int_equal(rtp_effective_noisy(lim / 2, &big, &c), RTP_OK);
    assert_int_equal(c, lim / 2 + (rtp_ns)(((__int128)(lim / 2) * 999999 + 999999) / 1000000));
    assert_int_equal(rtp_effective_noisy(lim / 2 + lim / 1000, &big, &c), RTP_ELIMIT);
    t.wcet_ns = lim;
    big.noise_per_ms_ns = 0;
    assert_int_equal(rtp_effective_wcet(&t, &big, RTP_POLICY_FP, &c), RTP_OK);
    assert_int_equal(rtp_effective_wcet(&t, &big, RTP_POLICY_EDF, &c), RTP_ELIMIT);
}

/* rtp_effective_noisy_inverse(x) is the largest w with noisy(w) <= x:
 * against a walk from 0 on small values, and against its neighbours on
 * random large ones. */
static void test_noise_inverse(void **state)
{
    (void)state;
    tu_rng rng = {22};
    for (int round = 0; round < 3000; round++) {
        rtp_overheads ov = {0, 0, 0, tu_range(&rng, 0, 999999), 0};
        if (round % 5 == 0)
            ov.noise_per_ms_ns = tu_range(&rng, 0, 3);
        rtp_ns x = round < 1500 ? tu_range(&rng, 0, 3000) : tu_range(&rng, 0, RTP_NS_LIMIT / 2);
        rtp_ns w = rtp_effective_noisy_inverse(x, &ov), nw, nw1;
        assert_true(w >= 0);
        assert_int_equal(rtp_effective_noisy(w, &ov, &nw), RTP_OK);
        assert_true(nw <= x);
        assert_int_equal(rtp_effective_noisy(w + 1, &ov, &nw1), RTP_OK);
        assert_true(nw1 > x);
        if (x <= 3000) { /* brute force */
            rtp_ns best = -1;
            for (rtp_ns v = 0; v <= x; v++) {
                rtp_ns nv;
                assert_int_equal(rtp_effective_noisy(v, &ov, &nv), RTP_OK);
                if (nv <= x)
                    best = v;
            }
            assert_int_equal(w, best);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_terms),
        cmocka_unit_test(test_limits),
        cmocka_unit_test(test_charge_and_noise),
        cmocka_unit_test(test_noise_inverse),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
