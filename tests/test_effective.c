/* tests/test_effective.c — models/effective.h: J' = jitter + release_latency,
 * C' = wcet + 2 x context_switch (docs/spec.md "Real-system terms"), the
 * 2^62 limit on both (RTP_ELIMIT, never a wrapped value), shallow copies and
 * in-place use. */
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
    rtp_overheads ov = {70000, 3000};
    rtp_task t = tu_task(120000, 500000, 1000000);
    t.jitter_ns = 5000;
    t.blocking_ns = 9000;
    t.name = "safety";
    rtp_ns c, j;
    assert_int_equal(rtp_effective_wcet(&t, &ov, &c), RTP_OK);
    assert_int_equal(c, 126000);
    assert_int_equal(rtp_effective_jitter(&t, &ov, &j), RTP_OK);
    assert_int_equal(j, 75000);
    /* no overheads: declared = effective */
    assert_int_equal(rtp_effective_wcet(&t, NULL, &c), RTP_OK);
    assert_int_equal(c, 120000);
    assert_true(rtp_overheads_zero(NULL));
    rtp_overheads zero = {0, 0};
    assert_true(rtp_overheads_zero(&zero));
    assert_false(rtp_overheads_zero(&ov));

    rtp_task set[2] = {t, tu_task(1, 2, 3)};
    rtp_diag d;
    rtp_status st;
    rtp_task *eff = rtp_effective_new(set, 2, &ov, &st, &d);
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
    assert_int_equal(rtp_effective_tasks(set, 2, &ov, set, &d), RTP_OK);
    assert_int_equal(set[1].wcet_ns, 6001);
    assert_int_equal(set[1].jitter_ns, 70000);
}

static void test_limits(void **state)
{
    (void)state;
    const rtp_ns lim = RTP_NS_LIMIT;
    rtp_task t = tu_task(lim - 4, lim, lim);
    t.name = "big";
    rtp_overheads ov = {0, 2};
    rtp_ns c = -1;
    assert_int_equal(rtp_effective_wcet(&t, &ov, &c), RTP_OK);
    assert_int_equal(c, lim); /* exactly 2^62 is still a time */
    ov.context_switch_ns = 3;
    c = -1;
    assert_int_equal(rtp_effective_wcet(&t, &ov, &c), RTP_ELIMIT);
    assert_int_equal(c, -1); /* untouched */
    ov.context_switch_ns = lim; /* 2 x 2^62 would wrap a naive sum */
    assert_int_equal(rtp_effective_wcet(&t, &ov, &c), RTP_ELIMIT);
    t.jitter_ns = lim;
    rtp_overheads rl = {1, 0};
    assert_int_equal(rtp_effective_jitter(&t, &rl, &c), RTP_ELIMIT);
    rl.release_latency_ns = 0;
    assert_int_equal(rtp_effective_jitter(&t, &rl, &c), RTP_OK);
    assert_int_equal(c, lim);
    rtp_diag d;
    rtp_diag_clear(&d);
    rtp_status st = RTP_OK;
    rtp_task set[2] = {t, tu_task(1, 2, 3)}; /* the first failing task is named */
    rtp_overheads both = {lim, lim};
    assert_null(rtp_effective_new(set, 2, &both, &st, &d));
    assert_int_equal(st, RTP_ELIMIT);
    assert_non_null(strstr(d.message, "2^62"));
    assert_non_null(strstr(d.message, "big"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_terms),
        cmocka_unit_test(test_limits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
