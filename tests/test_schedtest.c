/* tests/test_schedtest.c — solver/schedtest.h: tests as values (exact EDF / FP,
 * dispatch of the global policies), and the utilization-bound admissions.
 *
 * The bounds are checked against references written here with GMP
 * rationals: Liu & Layland [LL73] as (1 + U/n)^n <= 2 by repeated
 * multiplication, the hyperbolic bound [BBB03] as a product of (1 + U_i);
 * and against the exact tests they must never contradict (a bound accepts
 * only schedulable sets), on seeded random sets, including sets placed right
 * at the bound. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <gmp.h>
#include <string.h>

#include "solver/schedtest.h"
#include "support/testutil.h"

static rtp_ns short_period(const rtp_task *t)
{
    return t->deadline_ns < t->period_ns ? t->deadline_ns : t->period_ns;
}

static int ref_ll(const rtp_task *ts, size_t n)
{
    mpq_t u, term, x, acc;
    mpq_inits(u, term, x, acc, NULL);
    for (size_t i = 0; i < n; i++) {
        mpq_set_ui(term, (unsigned long)ts[i].wcet_ns, (unsigned long)short_period(&ts[i]));
        mpq_canonicalize(term);
        mpq_add(u, u, term);
    }
    mpq_set_ui(term, (unsigned long)n, 1);
    mpq_div(x, u, term);
    mpq_set_ui(term, 1, 1);
    mpq_add(x, x, term);
    mpq_set_ui(acc, 1, 1);
    for (size_t i = 0; i < n; i++)
        mpq_mul(acc, acc, x);
    mpq_set_ui(term, 2, 1);
    int ok = mpq_cmp(acc, term) <= 0;
    mpq_clears(u, term, x, acc, NULL);
    return ok;
}

static int ref_hyperbolic(const rtp_task *ts, size_t n)
{
    mpq_t acc, term;
    mpq_inits(acc, term, NULL);
    mpq_set_ui(acc, 1, 1);
    for (size_t i = 0; i < n; i++) {
        rtp_ns t = short_period(&ts[i]);
        mpq_set_ui(term, (unsigned long)(ts[i].wcet_ns + t), (unsigned long)t);
        mpq_canonicalize(term);
        mpq_mul(acc, acc, term);
    }
    mpq_set_ui(term, 2, 1);
    int ok = mpq_cmp(acc, term) <= 0;
    mpq_clears(acc, term, NULL);
    return ok;
}

static int verdict(const rtp_test *test, const rtp_task *ts, size_t n)
{
    rtp_test_result r;
    memset(&r, 0, sizeof r);
    rtp_diag diag;
    assert_int_equal(rtp_test_run(test, ts, n, &r, &diag), RTP_OK);
    return r.schedulable;
}

static void test_bounds_vs_references(void **state)
{
    (void)state;
    tu_rng rng = {1973};
    rtp_limits lim = rtp_limits_default();
    rtp_test ll = rtp_test_bound(RTP_POLICY_FP, lim), hyp = rtp_test_hyperbolic(lim),
             dens = rtp_test_bound(RTP_POLICY_EDF, lim),
             rm = rtp_test_exact(RTP_POLICY_FP, RTP_PRIO_DM, 1, lim),
             edf = rtp_test_exact(RTP_POLICY_EDF, RTP_PRIO_OPA, 1, lim);
    assert_string_equal(ll.name, "ll-bound");
    int accepted[3] = {0, 0, 0}, rejected[3] = {0, 0, 0};
    for (int k = 0; k < 3000; k++) {
        rtp_task ts[12];
        size_t n = (size_t)tu_range(&rng, 1, 12);
        int64_t target = tu_range(&rng, 50, 110);
        for (size_t i = 0; i < n; i++) {
            rtp_ns t = tu_range(&rng, 10, 100000);
            rtp_ns c = t * target / 100 / (rtp_ns)n;
            c = c < 1 ? 1 : c > t ? t : c;
            rtp_ns d = k % 3 ? t : tu_range(&rng, c, t);
            ts[i] = tu_task(c, d, t);
        }
        int a = verdict(&ll, ts, n), b = verdict(&hyp, ts, n), c = verdict(&dens, ts, n);
        assert_int_equal(a, ref_ll(ts, n));
        assert_int_equal(b, ref_hyperbolic(ts, n));
        assert_true(!a || b); /* hyperbolic dominates LL */
        if (a || b)
            assert_true(verdict(&rm, ts, n)); /* sufficient: DM on min(D, T) passes */ /* sufficient: DM on min(D, T) passes */
        if (c)
            assert_true(verdict(&edf, ts, n));
        accepted[0] += a, accepted[1] += b, accepted[2] += c;
        rejected[0] += !a, rejected[1] += !b, rejected[2] += !c;
    }
    for (int i = 0; i < 3; i++)
        assert_true(accepted[i] > 300 && rejected[i] > 300);
}

/* Right at the bounds: n = 1 with U = 1 passes LL and hyperbolic; two tasks
 * with (1 + u1)(1 + u2) = 2 exactly pass the hyperbolic bound, one ns more
 * fails; Liu & Layland's irrational bound for n = 2 (0.8284...) separates
 * 828427/1000000 (pass) from 828428/1000000 (fail). */
static void test_bound_edges(void **state)
{
    (void)state;
    rtp_limits lim = rtp_limits_default();
    rtp_test ll = rtp_test_bound(RTP_POLICY_FP, lim), hyp = rtp_test_hyperbolic(lim);
    rtp_task one = tu_task(7, 7, 7);
    assert_true(verdict(&ll, &one, 1));
    assert_true(verdict(&hyp, &one, 1));
    rtp_task pair[2] = {tu_task(1, 3, 3), tu_task(1, 2, 2)}; /* 4/3 * 3/2 = 2 */
    assert_true(verdict(&hyp, pair, 2));
    pair[1] = tu_task(1000001, 2000000, 2000000);
    assert_false(verdict(&hyp, pair, 2));
    rtp_task ll_pass[2] = {tu_task(414213, 1000000, 1000000), tu_task(414214, 1000000, 1000000)};
    assert_true(verdict(&ll, ll_pass, 2));
    rtp_task ll_fail[2] = {tu_task(414214, 1000000, 1000000), tu_task(414214, 1000000, 1000000)};
    assert_false(verdict(&ll, ll_fail, 2));
    /* Large n near the limit ln 2: exercised by the fixed-point fast path and
     * the exact fallback alike. */
    rtp_task many[64];
    for (int i = 0; i < 64; i++)
        many[i] = tu_task(10000 + i, 1000000 + 7 * i, 1000000 + 7 * i);
    assert_int_equal(verdict(&ll, many, 64), ref_ll(many, 64));
}

/* Tasks built by hand outside the readers' ranges: RTP_EINPUT from every
 * test, never a division by zero (audit rev13c: period 0 was SIGFPE) or a
 * verdict on negative times. */
static void test_hand_built_out_of_range(void **state)
{
    (void)state;
    rtp_limits lim = rtp_limits_default();
    rtp_test tests[] = {rtp_test_exact(RTP_POLICY_EDF, RTP_PRIO_OPA, 1, lim),
                        rtp_test_exact(RTP_POLICY_FP, RTP_PRIO_DM, 1, lim),
                        rtp_test_exact(RTP_POLICY_GEDF, RTP_PRIO_OPA, 2, lim),
                        rtp_test_exact(RTP_POLICY_GFP, RTP_PRIO_DM, 2, lim),
                        rtp_test_bound(RTP_POLICY_EDF, lim)};
    for (int bad = 0; bad < 6; bad++) {
        rtp_task t[2] = {tu_task(1, 4, 4), tu_task(2, 6, 6)};
        if (bad == 0)
            t[1].period_ns = 0;
        else if (bad == 1)
            t[1].period_ns = -3;
        else if (bad == 2)
            t[1].wcet_ns = -3;
        else if (bad == 3)
            t[1].deadline_ns = 0;
        else if (bad == 4)
            t[1].jitter_ns = -1;
        else
            t[1].period_ns = RTP_NS_LIMIT + 1;
        for (size_t k = 0; k < sizeof tests / sizeof *tests; k++) {
            rtp_test_result r;
            rtp_diag diag;
            memset(&r, 0, sizeof r);
            assert_int_equal(rtp_test_run(&tests[k], t, 2, &r, &diag), RTP_EINPUT);
            assert_false(r.schedulable);
            assert_non_null(strstr(diag.message, "task 1"));
        }
    }
}

static void test_exact_tests(void **state)
{
    (void)state;
    rtp_limits lim = rtp_limits_default();
    rtp_task text[3] = {tu_task(1, 4, 4), tu_task(2, 6, 6), tu_task(3, 8, 8)};
    rtp_test edf = rtp_test_exact(RTP_POLICY_EDF, RTP_PRIO_OPA, 1, lim);
    rtp_test opa = rtp_test_exact(RTP_POLICY_FP, RTP_PRIO_OPA, 1, lim);
    assert_string_equal(edf.name, "edf");
    assert_string_equal(opa.name, "fp-opa");
    rtp_test_result r;
    memset(&r, 0, sizeof r);
    assert_int_equal(rtp_test_run(&edf, text, 3, &r, NULL), RTP_OK);
    assert_true(r.schedulable);
    /* FP with and without caller arrays. */
    int prio[3];
    rtp_ns resp[3];
    memset(&r, 0, sizeof r);
    r.priority = prio;
    r.response_time = resp;
    assert_int_equal(rtp_test_run(&opa, text, 3, &r, NULL), RTP_OK);
    assert_false(r.schedulable);
    assert_false(r.assignment_found);
    assert_int_equal(prio[0], 3);
    assert_int_equal(resp[2], -1);
    memset(&r, 0, sizeof r);
    assert_int_equal(rtp_test_run(&opa, text, 2, &r, NULL), RTP_OK);
    assert_true(r.schedulable);
    assert_true(r.assignment_found);
    /* EDF first miss through the test value. */
    rtp_task tight[3] = {tu_task(1, 3, 4), tu_task(2, 4, 6), tu_task(3, 5, 8)};
    edf.want_first_miss = 1;
    memset(&r, 0, sizeof r);
    assert_int_equal(rtp_test_run(&edf, tight, 3, &r, NULL), RTP_OK);
    assert_false(r.schedulable);
    assert_true(r.has_first_miss);
    assert_int_equal(r.first_miss_ns, 5);
    /* Global policies on one CPU are the exact uniprocessor tests. */
    rtp_test g1 = rtp_test_exact(RTP_POLICY_GEDF, RTP_PRIO_DM, 1, lim);
    memset(&r, 0, sizeof r);
    assert_int_equal(rtp_test_run(&g1, text, 3, &r, NULL), RTP_OK);
    assert_true(r.schedulable);
    assert_string_equal(r.accepted_by, "edf");
    rtp_test f1 = rtp_test_exact(RTP_POLICY_GFP, RTP_PRIO_DM, 1, lim);
    memset(&r, 0, sizeof r);
    assert_int_equal(rtp_test_run(&f1, text, 3, &r, NULL), RTP_OK);
    assert_false(r.schedulable);
    assert_null(r.accepted_by);
    /* On M > 1 they go to solver/global.h. */
    rtp_test g2 = rtp_test_exact(RTP_POLICY_GEDF, RTP_PRIO_DM, 2, lim);
    assert_int_equal(g2.cpus, 2);
    memset(&r, 0, sizeof r);
    assert_int_equal(rtp_test_run(&g2, text, 3, &r, NULL), RTP_OK);
    /* A missing test is an internal error, not a verdict. */
    assert_int_equal(rtp_test_run(NULL, text, 3, &r, NULL), RTP_EINTERNAL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exact_tests),
        cmocka_unit_test(test_hand_built_out_of_range),
        cmocka_unit_test(test_bound_edges),
        cmocka_unit_test(test_bounds_vs_references),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
