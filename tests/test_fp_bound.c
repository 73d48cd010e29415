/* tests/test_fp_bound.c — the linear response bound (solver/fp_bound.h)
 * against the job-by-job walk of the level busy period, and its rational
 * scaling against the same set with every time multiplied out.
 *
 *  - Seeded sets of 1..4 tasks above task i (periods 7..60, utilization up
 *    to 1 with i, arbitrary deadlines, jitter up to 2 T, blocking): per set
 *    and from in {0, 1, 3}, the least D_i at which the bound holds is found
 *    by bisection (it is monotone in D_i); the walk's worst response of the
 *    jobs q >= from must be at most that D_i. Many of them are reached
 *    exactly, so a bound only a little too optimistic fails here.
 *  - alpha = p / r and a per-job constant: the same answer as the integer
 *    set with C r, p C + r per_job and every other time times r. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "solver/fp_bound.h"
#include "support/testutil.h"

/* The largest response of the jobs q >= from of task i (the last in ts,
 * below all others) in its level busy period (tu_fp_completion); -1 when the
 * busy period ends before job `from`, -2 past 4000 jobs. */
static rtp_ns walk_worst(const rtp_task *ts, size_t n, rtp_ns from)
{
    const rtp_task *ti = &ts[n - 1];
    rtp_ns worst = -1;
    for (rtp_ns q = 0; q < 4000; q++) {
        rtp_ns w = tu_fp_completion(ts, n, n - 1, q);
        rtp_ns arrival = q * ti->period_ns - ti->jitter_ns;
        if (q >= from && w - arrival > worst)
            worst = w - arrival;
        if (w <= arrival + ti->period_ns)
            return worst;
    }
    return -2;
}

static int holds(const rtp_task *ts, size_t n, rtp_ns from)
{
    char hp[8];
    for (size_t j = 0; j < n; j++)
        hp[j] = j + 1 < n;
    int h = -1;
    assert_int_equal(rtp_fp_bound_holds(ts, n, hp, n - 1, NULL, 0, from, &h), RTP_OK);
    return h;
}

static void test_bound_vs_walk(void **state)
{
    (void)state;
    tu_rng rng = {2709};
    int checked = 0, exact = 0;
    for (int s = 0; s < 4000; s++) {
        rtp_task ts[5];
        size_t n = (size_t)tu_range(&rng, 2, 5);
        rtp_ns num = 1, den = 1; /* 1 - U so far */
        for (size_t j = 0; j < n; j++) {
            rtp_ns t = tu_range(&rng, 7, 60);
            ts[j] = tu_task(1, 4 * t, t);
            if (j + 1 < n) {
                ts[j].wcet_ns = tu_range(&rng, 1, t / 2);
                num = num * t - ts[j].wcet_ns * den;
                den *= t;
            }
            if (tu_range(&rng, 0, 2) == 0)
                ts[j].jitter_ns = tu_range(&rng, 0, 2 * t);
        }
        rtp_task *last = &ts[n - 1];
        if (num <= 0)
            continue;
        rtp_ns c = num * last->period_ns / den - tu_range(&rng, 0, 2); /* U <= 1 */
        if (c < 1)
            continue;
        last->wcet_ns = c;
        last->blocking_ns = tu_range(&rng, 0, 1) ? tu_range(&rng, 0, 5) : 0;
        rtp_ns from = (rtp_ns[]){0, 1, 3}[s % 3];
        /* the least deadline the bound accepts, by bisection over D */
        rtp_ns lo = last->jitter_ns, hi = last->jitter_ns + 1;
        last->deadline_ns = hi;
        while (!holds(ts, n, from) && hi < ((rtp_ns)1 << 40)) {
            lo = hi;
            hi = 2 * hi - last->jitter_ns;
            last->deadline_ns = hi;
        }
        if (!holds(ts, n, from))
            continue; /* level utilization 1 and nothing proved: no bound */
        while (hi - lo > 1) {
            last->deadline_ns = lo + (hi - lo) / 2;
            if (holds(ts, n, from))
                hi = last->deadline_ns;
            else
                lo = last->deadline_ns;
        }
        last->deadline_ns = hi;
        rtp_ns worst = walk_worst(ts, n, from);
        if (worst == -2)
            continue;
        assert_true(worst <= hi);
        checked++;
        exact += worst >= hi - 2;
    }
    print_message("bound checked on %d sets, within 2 ns of the walk on %d\n", checked, exact);
    assert_true(checked > 2000);
    assert_true(exact > 20);
}

static void test_bound_scaled(void **state)
{
    (void)state;
    tu_rng rng = {2710};
    int agree = 0, held = 0;
    for (int s = 0; s < 2000; s++) {
        rtp_task ts[4], sc[4];
        size_t n = (size_t)tu_range(&rng, 2, 4);
        rtp_ns p = tu_range(&rng, 1, 9), r = tu_range(&rng, 1, 9), per_job = tu_range(&rng, 0, 2);
        for (size_t j = 0; j < n; j++) {
            rtp_ns t = tu_range(&rng, 10, 80);
            ts[j] = tu_task(tu_range(&rng, 1, t / (rtp_ns)n), tu_range(&rng, t / 2, 3 * t), t);
            ts[j].jitter_ns = tu_range(&rng, 0, 1) ? tu_range(&rng, 0, t / 2) : 0;
            ts[j].blocking_ns = tu_range(&rng, 0, 3);
            sc[j] = ts[j];
            sc[j].wcet_ns = p * ts[j].wcet_ns + r * per_job;
            sc[j].period_ns *= r;
            sc[j].deadline_ns *= r;
            sc[j].jitter_ns *= r;
            sc[j].blocking_ns *= r;
        }
        char hp[4];
        for (size_t j = 0; j < n; j++)
            hp[j] = j + 1 < n;
        mpq_t alpha;
        mpq_init(alpha);
        mpq_set_si(alpha, p, (unsigned long)r);
        mpq_canonicalize(alpha);
        rtp_ns from = tu_range(&rng, 0, 4);
        int a = -1, b = -1;
        assert_int_equal(rtp_fp_bound_holds(ts, n, hp, n - 1, alpha, per_job, from, &a), RTP_OK);
        assert_int_equal(rtp_fp_bound_holds(sc, n, hp, n - 1, NULL, 0, from, &b), RTP_OK);
        mpq_clear(alpha);
        assert_int_equal(a, b);
        agree++;
        held += a;
    }
    print_message("scaled: %d agree, %d hold\n", agree, held);
    assert_true(held > 100);
    assert_true(agree - held > 100);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bound_vs_walk),
        cmocka_unit_test(test_bound_scaled),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
