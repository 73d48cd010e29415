/* tests/test_edf.c — solver/edf.h: the exact EDF test (QPA) and first_miss.
 *
 * References written here, slow and obviously correct:
 *  - demand enumeration: dbf(t) at every integer t up to H + max D (H the
 *    hyperperiod, a divisor of 720): for U <= 1, dbf(t + H) = dbf(t) + U H
 *    <= dbf(t) + H once t >= max D, so no miss can first appear later;
 *  - an EDF schedule simulation of every job due by 2H + 2 max D, each run
 *    to completion (ref_edf_simulate, tests/support/reference.h, on the
 *    library's one simulator, sim/sim.h; a miss = a job finishing after its
 *    absolute deadline; the earliest deadline among missed jobs is the
 *    smallest t with dbf(t) > t).
 * Thousands of seeded random sets, plus the same sets scaled by a prime
 * (scale invariance), published/hand-worked examples and 2^40-ns edge cases;
 * just below U = 1 the lattice search (solver/edf_near.c) against a sweep of
 * every t or every deadline up to La. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <gmp.h>
#include <stdlib.h>
#include <string.h>

#include "solver/edf.h"
#include "solver/edf_near.h"
#include "solver/edf_tail.h"
#include "support/reference.h"
#include "support/testutil.h"

static const rtp_ns divisors720[] = {2, 3, 4, 5, 6, 8, 9, 10, 12, 15, 16, 18, 20, 24, 30,
                                     36, 40, 45, 48, 60, 72, 80, 90, 120, 144, 180, 240, 360};
#define N_DIV (sizeof divisors720 / sizeof divisors720[0])

/* ---- references ---- */

static rtp_ns ref_dbf(const rtp_task *ts, size_t n, rtp_ns t)
{
    rtp_ns sum = 0;
    for (size_t i = 0; i < n; i++)
        for (rtp_ns d = ts[i].deadline_ns; d <= t; d += ts[i].period_ns)
            sum += ts[i].wcet_ns;
    return sum;
}

/* Returns 1 when schedulable; else 0 with *miss (0 when U > 1). */
static int ref_enumerate(const rtp_task *ts, size_t n, rtp_ns *miss)
{
    rtp_ns h = tu_hyperperiod(ts, n), max_d = 0, work = 0;
    for (size_t i = 0; i < n; i++)
        if (ts[i].deadline_ns > max_d)
            max_d = ts[i].deadline_ns;
    for (size_t i = 0; i < n; i++)
        work += h / ts[i].period_ns * ts[i].wcet_ns;
    *miss = 0;
    if (work > h)
        return 0;
    for (rtp_ns t = 1; t <= h + max_d; t++)
        if (ref_dbf(ts, n, t) > t) {
            *miss = t;
            return 0;
        }
    return 1;
}

/* ---- generators ---- */

static size_t random_set(tu_rng *rng, rtp_task *ts)
{
    size_t n = (size_t)tu_range(rng, 1, 6);
    int64_t target = tu_range(rng, 60, 110); /* percent, total */
    for (size_t i = 0; i < n; i++) {
        rtp_ns t = divisors720[tu_range(rng, 0, N_DIV - 1)];
        rtp_ns c = t * target / 100 / (rtp_ns)n + tu_range(rng, -1, 1);
        if (c < 1)
            c = 1;
        if (c > t)
            c = t;
        rtp_ns d;
        switch (tu_range(rng, 0, 3)) {
        case 0: d = t; break;
        case 1: d = tu_range(rng, c, t); break;           /* constrained */
        case 2: d = tu_range(rng, 1, t); break;           /* may be < C */
        default: d = tu_range(rng, t, 2 * t + 3); break; /* arbitrary */
        }
        ts[i] = tu_task(c, d, t);
    }
    return n;
}

static void check_against_references(const rtp_task *ts, size_t n, rtp_ns scale,
                                     int *counts)
{
    rtp_task scaled[8];
    for (size_t i = 0; i < n; i++)
        scaled[i] = tu_task(ts[i].wcet_ns * scale, ts[i].deadline_ns * scale,
                            ts[i].period_ns * scale);
    rtp_ns ref_miss;
    int ref_ok = ref_enumerate(ts, n, &ref_miss);
    rtp_edf_result r;
    rtp_diag diag;
    rtp_limits lim = rtp_limits_default();
    assert_int_equal(rtp_edf_qpa(scaled, n, 1, &lim, &r, &diag), RTP_OK);
    assert_int_equal(r.schedulable, ref_ok);
    if (!ref_ok && ref_miss > 0) {
        assert_true(r.has_first_miss);
        assert_int_equal(r.first_miss_ns, ref_miss * scale);
        assert_int_equal(ref_edf_simulate(ts, n), ref_miss);
        counts[1]++;
    } else if (!ref_ok) {
        assert_false(r.has_first_miss); /* U > 1: left out */
        counts[2]++;
    } else {
        assert_int_equal(ref_edf_simulate(ts, n), 0);
        counts[0]++;
    }
    /* Without want_first_miss, the same verdict and no first_miss. */
    assert_int_equal(rtp_edf_qpa(scaled, n, 0, &lim, &r, &diag), RTP_OK);
    assert_int_equal(r.schedulable, ref_ok);
    assert_false(r.has_first_miss);
}

static void test_random_vs_references(void **state)
{
    (void)state;
    tu_rng rng = {20261203};
    int counts[3] = {0, 0, 0}; /* schedulable, miss with U <= 1, U > 1 */
    rtp_task ts[8];
    for (int k = 0; k < 4000; k++) {
        size_t n = random_set(&rng, ts);
        check_against_references(ts, n, k % 4 == 0 ? 7919 : 1, counts);
    }
    /* The sample must exercise every outcome substantially. */
    assert_true(counts[0] > 500);
    assert_true(counts[1] > 500);
    assert_true(counts[2] > 200);
}

static void test_dbf(void **state)
{
    (void)state;
    rtp_task ts[2] = {tu_task(1, 3, 4), tu_task(2, 5, 5)};
    rtp_ns d = -1;
    assert_int_equal(rtp_edf_dbf(ts, 2, 2, &d), RTP_OK);
    assert_int_equal(d, 0);
    assert_int_equal(rtp_edf_dbf(ts, 2, 3, &d), RTP_OK);
    assert_int_equal(d, 1);
    assert_int_equal(rtp_edf_dbf(ts, 2, 10, &d), RTP_OK);
    assert_int_equal(d, 2 * 1 + 2 * 2); /* deadlines 3, 7 and 5, 10 */
    /* Past 2^63: a limit, never a wrapped value. */
    rtp_task big[3] = {tu_task(RTP_NS_LIMIT, 1, 1), tu_task(RTP_NS_LIMIT, 1, 1),
                       tu_task(RTP_NS_LIMIT, 1, 1)};
    assert_int_equal(rtp_edf_dbf(big, 3, 1, &d), RTP_ELIMIT);
}

/* Worked examples. */
static void test_examples(void **state)
{
    (void)state;
    rtp_edf_result r;
    rtp_limits lim = rtp_limits_default();
    /* The seed article's textbook set T1(1,4) T2(2,6) T3(3,8): U = 23/24,
     * implicit deadlines, EDF-schedulable ([LL73]: U <= 1). */
    rtp_task text[3] = {tu_task(1, 4, 4), tu_task(2, 6, 6), tu_task(3, 8, 8)};
    assert_int_equal(rtp_edf_qpa(text, 3, 1, &lim, &r, NULL), RTP_OK);
    assert_true(r.schedulable);
    /* Deadlines 3, 4, 5 (hand-worked): dbf(3) = 1, dbf(4) = 3, dbf(5) = 6 > 5. */
    rtp_task tight[3] = {tu_task(1, 3, 4), tu_task(2, 4, 6), tu_task(3, 5, 8)};
    assert_int_equal(rtp_edf_qpa(tight, 3, 1, &lim, &r, NULL), RTP_OK);
    assert_false(r.schedulable);
    assert_true(r.has_first_miss);
    assert_int_equal(r.first_miss_ns, 5);
    /* Video task of the seed article: 5 ms every 16.666666 ms, deadline 10 ms. */
    rtp_task video = tu_task(5000000, 10000000, 16666666);
    assert_int_equal(rtp_edf_qpa(&video, 1, 1, &lim, &r, NULL), RTP_OK);
    assert_true(r.schedulable);
    /* wcet > deadline: simply unschedulable, first miss at the deadline. */
    rtp_task late = tu_task(5, 4, 10);
    assert_int_equal(rtp_edf_qpa(&late, 1, 1, &lim, &r, NULL), RTP_OK);
    assert_false(r.schedulable);
    assert_int_equal(r.first_miss_ns, 4);
    /* Regression: La = 31 < Lb; the busy-period iteration (24, 32) passed La
     * after one step and its first iterate 24 was taken as the bound, so the
     * miss at 25 (dbf = 17 + 3 + 6 = 26) went unseen: "schedulable". */
    rtp_task lab[3] = {tu_task(17, 25, 79), tu_task(1, 4, 10), tu_task(6, 21, 22)};
    assert_int_equal(rtp_edf_qpa(lab, 3, 1, &lim, &r, NULL), RTP_OK);
    assert_false(r.schedulable);
    assert_true(r.has_first_miss);
    assert_int_equal(r.first_miss_ns, 25);
    /* Empty set: schedulable. */
    assert_int_equal(rtp_edf_qpa(NULL, 0, 1, &lim, &r, NULL), RTP_OK);
    assert_true(r.schedulable);
}

/* (q^-1 mod p) by extended Euclid. */
static rtp_ns mod_inverse(rtp_ns q, rtp_ns p)
{
    __int128 r0 = p, r1 = q % p, s0 = 0, s1 = 1;
    while (r1 != 0) {
        __int128 k = r0 / r1, t = r0 - k * r1;
        r0 = r1;
        r1 = t;
        t = s0 - k * s1;
        s0 = s1;
        s1 = t;
    }
    return (rtp_ns)((s0 % p + p) % p);
}

/* Co-prime periods near 2^40 with U = 1 +- 1/(p q) ~ 1 +- 2^-80. */
static void test_precision(void **state)
{
    (void)state;
    const rtp_ns p = ((rtp_ns)1 << 40) - 1, q = ((rtp_ns)1 << 40) - 3; /* odd, differ by 2 */
    rtp_edf_result r;
    rtp_limits lim = rtp_limits_default();
    /* C1 q + C2 p = p q + 1: U = 1 + 1/(pq), not schedulable. */
    rtp_ns c1 = mod_inverse(q, p);
    rtp_ns c2 = (rtp_ns)(((__int128)p * q + 1 - (__int128)c1 * q) / p);
    assert_true(c1 >= 1 && c1 < p && c2 >= 1 && c2 <= q);
    rtp_task over[2] = {tu_task(c1, p, p), tu_task(c2, q, q)};
    assert_int_equal(rtp_edf_qpa(over, 2, 1, &lim, &r, NULL), RTP_OK);
    assert_false(r.schedulable);
    assert_false(r.has_first_miss);
    /* C1 q + C2 p = p q - 1: U = 1 - 1/(pq), implicit: schedulable. */
    c1 = p - mod_inverse(q, p); /* C1 q = -1 mod p */
    c2 = (rtp_ns)(((__int128)p * q - 1 - (__int128)c1 * q) / p);
    rtp_task under[2] = {tu_task(c1, p, p), tu_task(c2, q, q)};
    assert_int_equal(rtp_edf_qpa(under, 2, 1, &lim, &r, NULL), RTP_OK);
    assert_true(r.schedulable);
    /* U exactly 1, implicit deadlines: schedulable. */
    rtp_task exact[3] = {tu_task(p, 2 * p, 2 * p), tu_task(q, 4 * q, 4 * q),
                         tu_task(q, 4 * q, 4 * q)};
    assert_int_equal(rtp_edf_qpa(exact, 3, 1, &lim, &r, NULL), RTP_OK);
    assert_true(r.schedulable);
}

/* Periods 4 k_i with co-prime k_i near 2^38, C = T/4, so U = 3/4 exactly and
 * La = sum (T_i - D_i) (4 x sum (T - D) U / 1): few deadlines below it, which
 * a 128-bit enumeration checks. */
static int enumerate_upto(const rtp_task *ts, size_t n, rtp_ns upto, rtp_ns *miss)
{
    for (size_t i = 0; i < n; i++)
        for (rtp_ns t = ts[i].deadline_ns; t <= upto; t += ts[i].period_ns) {
            __int128 dem = 0;
            for (size_t j = 0; j < n; j++)
                if (t >= ts[j].deadline_ns)
                    dem += (__int128)((t - ts[j].deadline_ns) / ts[j].period_ns + 1) * ts[j].wcet_ns;
            if (dem > t && (*miss == 0 || t < *miss))
                *miss = t;
        }
    return *miss == 0;
}

static void test_large_coprime(void **state)
{
    (void)state;
    tu_rng rng = {40};
    const rtp_ns k[3] = {((rtp_ns)1 << 38) - 1, ((rtp_ns)1 << 38) + 1, ((rtp_ns)1 << 38) + 3};
    int outcomes[2] = {0, 0};
    for (int rep = 0; rep < 300; rep++) {
        rtp_task ts[3];
        rtp_ns la = 0;
        for (int i = 0; i < 3; i++) {
            rtp_ns t = 4 * k[i], c = k[i];
            rtp_ns d = tu_range(&rng, c / 2, t); /* some below C: misses */
            ts[i] = tu_task(c, d, t);
            la += t - d;
        }
        rtp_ns miss = 0;
        int ok = enumerate_upto(ts, 3, la + 1, &miss);
        rtp_edf_result r;
        rtp_limits lim = rtp_limits_default();
        assert_int_equal(rtp_edf_qpa(ts, 3, 1, &lim, &r, NULL), RTP_OK);
        assert_int_equal(r.schedulable, ok);
        if (!ok)
            assert_int_equal(r.first_miss_ns, miss);
        outcomes[ok]++;
    }
    assert_true(outcomes[0] > 20 && outcomes[1] > 20);
}

/* U = 1 with a constrained deadline and co-prime periods near 2^40: the busy
 * period is astronomically long. The residue decomposition decides the tail
 * past max D* when the periods' common factors keep it small; a miss below
 * the capped iteration still decides; otherwise the answer is a resource
 * limit, never a guess. */
static void test_limit(void **state)
{
    (void)state;
    const rtp_ns p = ((rtp_ns)1 << 40) - 1, q = ((rtp_ns)1 << 40) - 3;
    rtp_limits lim = rtp_limits_default();
    lim.max_iterations = 20000;
    rtp_edf_result r;
    rtp_diag diag;
    rtp_diag_clear(&diag);
    /* Past max D* the slack is (((t + 1) mod 2p) + (t mod 4q)) / 2 - 1/2,
     * below 0 only when t = -1 (mod 2p) and t = 0 (mod 4q): t odd and even
     * at once. So schedulable, decided in a few steps (was a limit). */
    rtp_task ts[3] = {tu_task(p, 2 * p - 1, 2 * p), tu_task(q, 4 * q, 4 * q),
                      tu_task(q, 4 * q, 4 * q)};
    for (int want = 0; want < 2; want++) {
        assert_int_equal(rtp_edf_qpa(ts, 3, want, &lim, &r, &diag), RTP_OK);
        assert_true(r.schedulable);
    }
    /* Periods ab, bc, ca for pairwise co-prime a, b, c near 2^20: every
     * grouping of the decomposition needs about abc = 2^60 residues, so the
     * tail is not decided, and the busy period passes the cap: a limit. */
    const rtp_ns a = 1048573, bb = 1048571, c = 1048569, w = 366500380679;
    rtp_task hard[3] = {tu_task(w, a * bb - 1, a * bb), tu_task(w, bb * c, bb * c),
                        tu_task(w, a * c, a * c)};
    assert_int_equal(rtp_edf_qpa(hard, 3, 1, &lim, &r, &diag), RTP_ELIMIT);
    assert_true(strlen(diag.message) > 0);
    assert_int_equal(rtp_edf_qpa(hard, 3, 0, &lim, &r, &diag), RTP_ELIMIT);
    /* A miss at 2q = p + q - 2 (dbf = p + q): found by the QPA probes of the
     * busy-period iteration; the QPA below the capped iterate alone ran out
     * of steps before it (a resource limit before the busy-period probes). */
    rtp_task early[3] = {tu_task(p, 2 * p - 5, 2 * p), tu_task(q, 2 * q, 4 * q),
                         tu_task(q, 4 * q, 4 * q)};
    assert_int_equal(rtp_edf_qpa(early, 3, 1, &lim, &r, &diag), RTP_OK);
    assert_false(r.schedulable);
    assert_int_equal(r.first_miss_ns, 2 * q);
    /* The same with an early miss: decided despite the cap. */
    rtp_task miss[3] = {tu_task(p, p - 1, 2 * p), tu_task(q, 2 * q, 4 * q),
                        tu_task(q, 4 * q, 4 * q)};
    assert_int_equal(rtp_edf_qpa(miss, 3, 1, &lim, &r, &diag), RTP_OK);
    assert_false(r.schedulable);
    assert_int_equal(r.first_miss_ns, p - 1);
}

/* ---- jitter and blocking (docs/spec.md "Real-system terms") ----
 *
 * References (tests/support/reference.h), written from the definitions, not
 * from solver/edf.c's algebra: the demand h(t) = dbf(t) + b(t) counted job
 * by job at every integer t up to 2H + 2 max D, and an EDF simulation of the
 * same jobs with one blocker job per blocking task (EDF is optimal on one
 * CPU, so a job set misses iff some window's demand exceeds it; the
 * earliest missed deadline over the runs is the smallest failing t). A task
 * with J >= D is not schedulable, first_miss 1 ns (docs/spec.md). */

static const rtp_ns divisors120[] = {2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 24, 30, 40, 60, 120};
#define N_DIV120 (sizeof divisors120 / sizeof divisors120[0])

static size_t random_delayed_set(tu_rng *rng, rtp_task *ts)
{
    size_t n = (size_t)tu_range(rng, 1, 5);
    int64_t target = tu_range(rng, 40, 110);
    for (size_t i = 0; i < n; i++) {
        rtp_ns t = divisors120[tu_range(rng, 0, N_DIV120 - 1)];
        rtp_ns c = t * target / 100 / (rtp_ns)n + tu_range(rng, -1, 1);
        c = c < 1 ? 1 : c > t ? t : c;
        rtp_ns d;
        switch (tu_range(rng, 0, 3)) {
        case 0: d = t; break;
        case 1: d = tu_range(rng, c, t); break;
        case 2: d = tu_range(rng, 1, t); break;
        default: d = tu_range(rng, t, 2 * t + 3); break;
        }
        ts[i] = tu_task(c, d, t);
        switch (tu_range(rng, 0, 5)) { /* jitter: none, small, up to D, past D (rare) */
        case 0: case 1: break;
        case 2: case 3: ts[i].jitter_ns = tu_range(rng, 1, d / 3 + 1); break;
        case 4: ts[i].jitter_ns = tu_range(rng, 0, d); break;
        default: ts[i].jitter_ns = tu_range(rng, 0, tu_range(rng, 0, 9) == 0 ? 2 * t : d / 2); break;
        }
        if (tu_range(rng, 0, 2) == 0)
            ts[i].blocking_ns = tu_range(rng, 1, tu_range(rng, 0, 3) == 0 ? t : c + 2);
    }
    return n;
}

/* U = 1 exactly (solver/edf.c's tail test and the busy-period probes):
 * constrained deadlines, jitter and blocking, periods dividing 60, every
 * verdict (with and without first_miss) against demand enumeration. */
static void test_full_utilization_vs_references(void **state)
{
    (void)state;
    static const rtp_ns periods[] = {2, 3, 4, 5, 6, 10, 12, 15, 20, 30, 60};
    tu_rng rng = {1702};
    rtp_limits lim = rtp_limits_default();
    int counts[2] = {0, 0};
    for (int k = 0; k < 3000; k++) {
        rtp_task ts[6];
        size_t n;
        int64_t share;
        do { /* C_i = k_i, U = sum k_i / T_i = 1: shares of 60 */
            n = (size_t)tu_range(&rng, 1, 6);
            share = 0;
            for (size_t i = 0; i < n; i++) {
                rtp_ns t = periods[tu_range(&rng, 0, 10)], c = tu_range(&rng, 1, t);
                ts[i] = tu_task(c, tu_range(&rng, 0, 2) ? tu_range(&rng, c, t) : t, t);
                share += c * (60 / t);
            }
        } while (share != 60);
        for (size_t i = 0; i < n; i++) {
            if (tu_range(&rng, 0, 3) == 0)
                ts[i].jitter_ns = tu_range(&rng, 0, ts[i].deadline_ns - ts[i].wcet_ns);
            if (tu_range(&rng, 0, 3) == 0)
                ts[i].blocking_ns = tu_range(&rng, 0, ts[i].wcet_ns);
        }
        rtp_ns miss;
        int ok = ref_edf_enumerate(ts, n, &miss);
        rtp_edf_result r;
        for (int want = 0; want < 2; want++) {
            assert_int_equal(rtp_edf_qpa(ts, n, want, &lim, &r, NULL), RTP_OK);
            assert_int_equal(r.schedulable, ok);
            if (want && !ok)
                assert_int_equal(r.first_miss_ns, miss);
        }
        counts[ok]++;
    }
    assert_true(counts[0] > 300 && counts[1] > 300);
}

static void test_delays_vs_references(void **state)
{
    (void)state;
    tu_rng rng = {1996};
    int counts[4] = {0, 0, 0, 0}; /* schedulable, miss (U <= 1), U > 1, J >= D */
    int with_blocking = 0, with_jitter = 0, blocking_decides = 0;
    rtp_limits lim = rtp_limits_default();
    rtp_task ts[8], scaled[8];
    for (int k = 0; k < 4000; k++) {
        size_t n = random_delayed_set(&rng, ts);
        rtp_ns scale = k % 4 == 0 ? 7919 : 1;
        for (size_t i = 0; i < n; i++) {
            with_blocking += ts[i].blocking_ns > 0;
            with_jitter += ts[i].jitter_ns > 0;
            scaled[i] = ts[i];
            scaled[i].wcet_ns *= scale;
            scaled[i].deadline_ns *= scale;
            scaled[i].period_ns *= scale;
            scaled[i].jitter_ns *= scale;
            scaled[i].blocking_ns *= scale;
        }
        rtp_ns miss;
        int ok = ref_edf_enumerate(ts, n, &miss);
        rtp_edf_result r;
        assert_int_equal(rtp_edf_qpa(scaled, n, 1, &lim, &r, NULL), RTP_OK);
        if (r.schedulable != ok)
            print_error("set %d: qpa %d, enumeration %d (miss %lld)\n", k, r.schedulable, ok,
                        (long long)miss);
        assert_int_equal(r.schedulable, ok);
        int late = 0;
        for (size_t i = 0; i < n; i++)
            late |= ts[i].jitter_ns >= ts[i].deadline_ns;
        if (ok) {
            assert_false(r.has_first_miss);
            assert_int_equal(ref_edf_simulate(ts, n), 0);
            counts[0]++;
        } else if (late) {
            assert_true(r.has_first_miss);
            assert_int_equal(r.first_miss_ns, 1);
            counts[3]++;
            continue;
        } else if (miss > 0) {
            assert_true(r.has_first_miss);
            assert_int_equal(r.first_miss_ns, miss * scale);
            assert_int_equal(ref_edf_simulate(ts, n), miss);
            counts[1]++;
            /* blocking decided it when the set passes without any */
            rtp_task plain[8];
            memcpy(plain, ts, n * sizeof *ts);
            for (size_t i = 0; i < n; i++)
                plain[i].blocking_ns = 0;
            rtp_ns m2;
            blocking_decides += ref_edf_enumerate(plain, n, &m2);
        } else {
            assert_false(r.has_first_miss); /* U > 1 */
            counts[2]++;
        }
        /* rtp_edf_bound covers the first failure */
        rtp_ns bound = 0;
        assert_int_equal(rtp_edf_bound(scaled, n, &lim, &bound, NULL), RTP_OK);
        if (!ok && miss > 1)
            assert_true(bound == 0 || bound >= miss * scale);
    }
    assert_true(counts[0] > 800 && counts[1] > 800 && counts[2] > 200 && counts[3] > 30);
    assert_true(with_blocking > 2000 && with_jitter > 3000 && blocking_decides > 100);
}

/* Arbitrary periods 1..100 (hyperperiods far too long to enumerate), U < 1,
 * without and with jitter and blocking: a failure, if any, lies below the
 * busy period w = B + sum ceil((w + J) / T) C (Spuri's bound [Spu96], at
 * least as large as the ones edf.c derives), scanned here t by t with the
 * definition (ref_h). This is where La and the busy-period bound both
 * really decide. */
static void periods_vs_busy_period(uint64_t seed, int delays)
{
    tu_rng rng = {seed};
    int sched = 0, miss = 0;
    rtp_task ts[6];
    rtp_limits lim = rtp_limits_default();
    for (int k = 0; k < 5000; k++) {
        size_t n = (size_t)tu_range(&rng, 2, 5);
        __int128 un = 0, ud = 1;
        rtp_ns bmax = 0;
        for (size_t i = 0; i < n; i++) {
            rtp_ns t = tu_range(&rng, 1, 100), c = tu_range(&rng, 1, t / 3 + 1);
            ts[i] = tu_task(c, tu_range(&rng, c, delays ? 2 * t : t), t);
            if (delays) {
                ts[i].jitter_ns =
                    tu_range(&rng, 0, 2) ? tu_range(&rng, 0, ts[i].deadline_ns - 1) / 2 : 0;
                ts[i].blocking_ns = tu_range(&rng, 0, 2) == 0 ? tu_range(&rng, 1, 3 * c) : 0;
            }
            bmax = ts[i].blocking_ns > bmax ? ts[i].blocking_ns : bmax;
            un = un * t + c * ud;
            ud *= t;
        }
        if (un >= ud)
            continue;
        rtp_ns busy = 0, next = bmax;
        for (size_t i = 0; i < n; i++)
            next += ts[i].wcet_ns;
        while (next != busy) {
            busy = next;
            next = bmax;
            for (size_t i = 0; i < n; i++)
                next += ((busy + ts[i].jitter_ns - 1) / ts[i].period_ns + 1) * ts[i].wcet_ns;
        }
        rtp_ns first = 0;
        for (rtp_ns t = 1; t <= busy && !first; t++)
            if (ref_edf_h(ts, n, t) > t)
                first = t;
        rtp_edf_result r;
        assert_int_equal(rtp_edf_qpa(ts, n, 1, &lim, &r, NULL), RTP_OK);
        if (r.schedulable != !first)
            print_error("set %d: qpa %d, first failure by scan %lld\n", k, r.schedulable,
                        (long long)first);
        assert_int_equal(r.schedulable, !first);
        if (first) {
            assert_true(r.has_first_miss);
            assert_int_equal(r.first_miss_ns, first);
            miss++;
        } else {
            sched++;
        }
    }
    assert_true(sched > 1000 && miss > 500);
}

static void test_random_periods_vs_busy_period(void **state)
{
    (void)state;
    periods_vs_busy_period(79, 0);
}

static void test_delays_random_periods_vs_busy_period(void **state)
{
    (void)state;
    periods_vs_busy_period(2006, 1);
}

/* Hand-worked cases of the definitions. */
static void test_delay_examples(void **state)
{
    (void)state;
    rtp_edf_result r;
    rtp_limits lim = rtp_limits_default();
    /* Jitter is a shorter deadline: (C 2, D 5, T 10, J 3) due 2 after its
     * release: alone it fits (h(2) = 2); add (C 1, D 2, T 10) and
     * h(2) = 3 > 2: first_miss 2. */
    rtp_task j2[2] = {tu_task(2, 5, 10), tu_task(1, 2, 10)};
    j2[0].jitter_ns = 3;
    assert_int_equal(rtp_edf_qpa(j2, 1, 1, &lim, &r, NULL), RTP_OK);
    assert_true(r.schedulable);
    assert_int_equal(rtp_edf_qpa(j2, 2, 1, &lim, &r, NULL), RTP_OK);
    assert_false(r.schedulable);
    assert_int_equal(r.first_miss_ns, 2);
    /* J >= D: a job released at the end of its window cannot finish in
     * time, whatever C: first_miss = 1 ns (docs/spec.md). */
    rtp_task late = tu_task(1, 5, 10);
    late.jitter_ns = 5;
    assert_int_equal(rtp_edf_qpa(&late, 1, 1, &lim, &r, NULL), RTP_OK);
    assert_false(r.schedulable);
    assert_true(r.has_first_miss);
    assert_int_equal(r.first_miss_ns, 1);
    assert_int_equal(rtp_edf_qpa(&late, 1, 0, &lim, &r, NULL), RTP_OK);
    assert_false(r.has_first_miss);
    /* ... even with U > 1 (first_miss is still the smallest failing t). */
    rtp_task over[2] = {late, tu_task(10, 10, 10)};
    assert_int_equal(rtp_edf_qpa(over, 2, 1, &lim, &r, NULL), RTP_OK);
    assert_false(r.schedulable);
    assert_int_equal(r.first_miss_ns, 1);
    /* Blocking counts only in windows where the blocked task's job fits:
     * a (C 2, D 4, T 10), b (C 3, D 9, T 10, B 4). b(t) = 4 from t = 9:
     * h(4) = 2, h(9) = 5 + 4 = 9 <= 9: schedulable; B 5: h(9) = 10 > 9. */
    rtp_task blk[2] = {tu_task(2, 4, 10), tu_task(3, 9, 10)};
    blk[1].blocking_ns = 4;
    assert_int_equal(rtp_edf_qpa(blk, 2, 1, &lim, &r, NULL), RTP_OK);
    assert_true(r.schedulable);
    assert_int_equal(rtp_edf_blocking(blk, 2, 8), 0);
    assert_int_equal(rtp_edf_blocking(blk, 2, 9), 4);
    blk[1].blocking_ns = 5;
    assert_int_equal(rtp_edf_qpa(blk, 2, 1, &lim, &r, NULL), RTP_OK);
    assert_false(r.schedulable);
    assert_int_equal(r.first_miss_ns, 9);
    /* U = 1 with blocking: no La, yet an exact answer (no resource limit).
     * Two (C 2, D 8, T 4), B 1 on the first: dbf(4k) = 4 (k - 1), h = 4k - 3
     * <= 4k: schedulable. With D 4: h(4) = 4 + 1 > 4. */
    rtp_task full[2] = {tu_task(2, 8, 4), tu_task(2, 8, 4)};
    full[0].blocking_ns = 1;
    assert_int_equal(rtp_edf_qpa(full, 2, 1, &lim, &r, NULL), RTP_OK);
    assert_true(r.schedulable);
    rtp_ns bound = 0;
    assert_int_equal(rtp_edf_bound(full, 2, &lim, &bound, NULL), RTP_OK);
    assert_int_equal(bound, 12); /* Lb 4 + t_B 8 */
    full[0].deadline_ns = full[1].deadline_ns = 4;
    assert_int_equal(rtp_edf_qpa(full, 2, 1, &lim, &r, NULL), RTP_OK);
    assert_false(r.schedulable);
    assert_int_equal(r.first_miss_ns, 4);
    /* Implicit deadlines and U < 1 no longer suffice with blocking:
     * (C 1, T 10) and (C 8, T 10, B 2): h(10) = 9 + 2 > 10. */
    rtp_task imp[2] = {tu_task(1, 10, 10), tu_task(8, 10, 10)};
    imp[1].blocking_ns = 2;
    assert_int_equal(rtp_edf_qpa(imp, 2, 1, &lim, &r, NULL), RTP_OK);
    assert_false(r.schedulable);
    assert_int_equal(r.first_miss_ns, 10);
    /* dbf with jitter past the deadline (public helper): floor((t + J - D) / T) + 1 jobs */
    rtp_ns d;
    late.jitter_ns = 25;
    assert_int_equal(rtp_edf_dbf(&late, 1, 1, &d), RTP_OK);
    assert_int_equal(d, 3); /* (1 + 25 - 5) / 10 + 1 = 3 jobs of 1 */
}

/* Huge jitter and blocking near 2^62: exact, or a limit, never wrong. */
static void test_delay_big_values(void **state)
{
    (void)state;
    const rtp_ns lim62 = RTP_NS_LIMIT;
    rtp_limits lim = rtp_limits_default();
    rtp_edf_result r;
    rtp_task ts[2] = {tu_task(1, lim62, lim62), tu_task(1, lim62, lim62)};
    ts[0].jitter_ns = lim62 - 2; /* D* = 2 */
    ts[1].blocking_ns = lim62 - 3;
    /* h(2) = 1; b steps at 2^62 where dbf = 2: h = 2^62 - 1 <= 2^62 */
    assert_int_equal(rtp_edf_qpa(ts, 2, 1, &lim, &r, NULL), RTP_OK);
    assert_true(r.schedulable);
    ts[1].blocking_ns = lim62 - 1; /* h(2^62) = 2^62 + 1 */
    assert_int_equal(rtp_edf_qpa(ts, 2, 1, &lim, &r, NULL), RTP_OK);
    assert_false(r.schedulable);
    assert_int_equal(r.first_miss_ns, lim62);
}

/* solver/edf_tail.c directly (its failure branch is rarely reached
 * through the exact test or the critical scaling factor: short QPA
 * prefixes find most failures first):
 * sets at U = 1 exactly, alpha = 1, against h(t) > t counted job by job
 * (ref_edf_h) over every t in [T0, T0 + H); a failing t it returns must
 * fail and lie at or past T0. Periods with mixed gcds split the tasks into
 * groups. */
static void test_tail_vs_enumeration(void **state)
{
    (void)state;
    static const rtp_ns periods[] = {4, 6, 7, 9, 10, 12, 14, 15, 21, 35};
    tu_rng rng = {16};
    int fails = 0, holds = 0;
    mpq_t one;
    mpq_init(one);
    mpq_set_ui(one, 1, 1);
    for (int s = 0; s < 10000; s++) {
        rtp_task ts[4];
        size_t n = (size_t)tu_range(&rng, 2, 4);
        mpq_t u, term;
        mpq_inits(u, term, NULL);
        for (size_t i = 0; i + 1 < n; i++) {
            rtp_ns t = periods[tu_range(&rng, 0, 9)];
            ts[i] = tu_task(tu_range(&rng, 1, t / 2), t, t);
            mpq_set_si(term, ts[i].wcet_ns, (unsigned long)t);
            mpq_canonicalize(term);
            mpq_add(u, u, term);
        }
        /* the last task fills U to 1 when 1 - U = C / T has 1 <= C <= T */
        rtp_ns t = periods[tu_range(&rng, 0, 9)];
        mpq_set_ui(term, 1, 1);
        mpq_sub(term, term, u);
        mpq_set_si(u, t, 1);
        mpq_mul(term, term, u);
        int ok = mpz_cmp_ui(mpq_denref(term), 1) == 0 && mpq_sgn(term) > 0 &&
                 mpz_cmp_si(mpq_numref(term), t) <= 0;
        if (ok)
            ts[n - 1] = tu_task(mpz_get_si(mpq_numref(term)), t, t);
        mpq_clears(u, term, NULL);
        if (!ok)
            continue;
        rtp_ns t0 = 0;
        for (size_t i = 0; i < n; i++) {
            if (tu_range(&rng, 0, 2) == 0)
                ts[i].deadline_ns = tu_range(&rng, ts[i].wcet_ns, ts[i].period_ns);
            if (tu_range(&rng, 0, 5) == 0)
                ts[i].jitter_ns = tu_range(&rng, 0, ts[i].deadline_ns - 1);
            if (tu_range(&rng, 0, 3) == 0)
                ts[i].blocking_ns = tu_range(&rng, 0, 2);
            if (ts[i].deadline_ns - ts[i].jitter_ns > t0)
                t0 = ts[i].deadline_ns - ts[i].jitter_ns;
        }
        uint64_t used = 0;
        int decided = 0;
        rtp_ns failed = 0;
        assert_int_equal(rtp_edf_tail(ts, n, 0, one, t0, &used, 100000000, &decided, &failed),
                         RTP_OK);
        assert_true(decided);
        rtp_ns h = ref_hyperperiod(ts, n), first = 0;
        for (rtp_ns x = t0; x < t0 + h && !first; x++)
            if (ref_edf_h(ts, n, x) > x)
                first = x;
        assert_int_equal(failed != 0, first != 0);
        if (failed) {
            assert_true(failed >= t0);
            assert_true(ref_edf_h(ts, n, failed) > failed);
        }
        fails += failed != 0;
        holds += failed == 0;
    }
    mpq_clear(one);
    assert_true(fails > 500);
    assert_true(holds > 400);
}


/* The smallest t in [1, upto] with h(t) > t, or 0: every integer t, the
 * demand kept job by job as t grows (each task's next deadline k T + D - J),
 * b(t) the largest blocking of a task with D - J <= t. */
static rtp_ns ref_first_failure(const rtp_task *ts, size_t n, rtp_ns upto)
{
    rtp_ns next[8], demand = 0, blocked = 0;
    for (size_t i = 0; i < n; i++)
        next[i] = ts[i].deadline_ns - ts[i].jitter_ns;
    for (rtp_ns t = 1; t <= upto; t++) {
        for (size_t i = 0; i < n; i++)
            if (next[i] == t) {
                demand += ts[i].wcet_ns;
                next[i] += ts[i].period_ns;
                if (ts[i].blocking_ns > blocked)
                    blocked = ts[i].blocking_ns;
            }
        if (demand + blocked > t)
            return t;
    }
    return 0;
}

/* The exact check solver/edf_near.c asks for: QPA over [lo, hi] and the
 * smallest failure by an upward scan (solver/edf_internal.h). */
typedef struct walk_ctx {
    const rtp_task *ts;
    size_t n;
    rtp_edf_budget *b;
    rtp_diag *diag;
} walk_ctx;

static rtp_status walk_check(void *ctx, rtp_ns lo, rtp_ns hi, int want_first, rtp_ns *failed)
{
    walk_ctx *w = ctx;
    rtp_ns b = 0;
    for (size_t i = 0; i < w->n; i++)
        if (w->ts[i].blocking_ns > b)
            b = w->ts[i].blocking_ns;
    rtp_status st = rtp_edf_walk(w->ts, w->n, b > 0, lo, hi, 1, w->b, failed, w->diag);
    if (st == RTP_OK && *failed && want_first)
        st = rtp_edf_scan(w->ts, w->n, lo, *failed, w->b, failed, w->diag);
    return st;
}

/* solver/edf_near.c directly, on sets just below U = 1 small enough to scan:
 * periods 3..300 (mostly co-prime, sometimes sharing factors), constrained
 * and arbitrary deadlines, jitter and blocking; the last wcet fills U up to
 * just below 1. Every t up to max(La, t_lo) is scanned (past both no t can
 * fail: Phi >= 0). The smallest failure must match; without want_first any
 * failure it reports must fail. The same sets through rtp_edf_qpa too. */
static void test_near_vs_enumeration(void **state)
{
    (void)state;
    tu_rng rng = {27};
    int fails = 0, holds = 0, deep = 0, capped = 0;
    for (int k = 0; k < 6000; k++) {
        rtp_task ts[8];
        size_t n = (size_t)tu_range(&rng, 1, 7);
        rtp_ns base = tu_range(&rng, 0, 3) == 0 ? tu_range(&rng, 2, 6) : 1;
        mpq_t u, term, k0;
        mpq_inits(u, term, k0, NULL);
        for (size_t i = 0; i < n; i++) {
            rtp_ns t = base * tu_range(&rng, 3, 300 / base);
            rtp_ns c = i + 1 < n ? tu_range(&rng, 1, t / (rtp_ns)n + 1) : 1;
            ts[i] = tu_task(c, t, t);
            if (i + 1 < n) {
                mpq_set_si(term, c, (unsigned long)t);
                mpq_canonicalize(term);
                mpq_add(u, u, term);
            }
        }
        /* the last wcet: the largest C with U < 1 */
        rtp_task *last = &ts[n - 1];
        mpq_set_ui(term, 1, 1);
        mpq_sub(term, term, u);
        mpz_t z;
        mpz_init(z);
        mpz_mul_si(z, mpq_numref(term), last->period_ns);
        mpz_cdiv_q(z, z, mpq_denref(term));
        rtp_ns c = mpz_get_si(z) - 1;
        mpz_clear(z);
        if (c < 1) {
            mpq_clears(u, term, k0, NULL);
            continue;
        }
        last->wcet_ns = c;
        rtp_ns t_lo = 1, bmax = 0;
        for (size_t i = 0; i < n; i++) {
            rtp_task *t = &ts[i];
            switch (tu_range(&rng, 0, 5)) {
            case 0: t->deadline_ns = tu_range(&rng, t->wcet_ns, t->period_ns); break;
            case 1: case 2: /* near the period: failures are rare and late */
                t->deadline_ns = t->period_ns - tu_range(&rng, 0, t->period_ns / 8);
                break;
            case 3: t->deadline_ns = tu_range(&rng, t->period_ns, 2 * t->period_ns + 3); break;
            default: break;
            }
            if (tu_range(&rng, 0, 4) == 0)
                t->jitter_ns = tu_range(&rng, 0, t->deadline_ns - 1);
            if (tu_range(&rng, 0, 4) == 0)
                t->blocking_ns = tu_range(&rng, 1, t->wcet_ns + 2);
            rtp_ns d = t->deadline_ns - t->jitter_ns;
            if (d - t->period_ns > t_lo)
                t_lo = d - t->period_ns;
            if (t->blocking_ns > 0 && d > t_lo)
                t_lo = d;
            if (t->blocking_ns > bmax)
                bmax = t->blocking_ns;
            mpq_set_si(term, t->wcet_ns, (unsigned long)t->period_ns);
            mpq_canonicalize(term);
            mpq_set_si(u, t->period_ns - d, 1);
            mpq_mul(term, term, u);
            mpq_add(k0, k0, term);
        }
        /* La = K0 / (1 - U), with 1 - U = (1 - U_others) - C_last / T_last */
        mpq_set_si(u, bmax, 1);
        mpq_add(k0, k0, u);
        mpq_set_ui(u, 0, 1);
        for (size_t i = 0; i < n; i++) {
            mpq_set_si(term, ts[i].wcet_ns, (unsigned long)ts[i].period_ns);
            mpq_canonicalize(term);
            mpq_add(u, u, term);
        }
        mpq_set_ui(term, 1, 1);
        mpq_sub(term, term, u);
        assert_true(mpq_sgn(term) > 0);
        mpq_div(k0, k0, term);
        double la = mpq_get_d(k0);
        mpq_clears(u, term, k0, NULL);
        rtp_ns upto = (la > (double)t_lo ? (rtp_ns)la + 2 : t_lo) ;
        if (upto > 400000)
            continue;
        rtp_ns ref = ref_first_failure(ts, n, upto);
        rtp_edf_budget b = {0, 100000000, NULL};
        rtp_edf_near_result nr;
        rtp_diag diag;
        walk_ctx wc = {ts, n, &b, &diag};
        rtp_edf_near_in in = {.tasks = ts, .n = n, .t_cap = RTP_NS_LIMIT, .want_first = 1,
                              .check = walk_check, .check_ctx = &wc, .b = &b};
        assert_int_equal(rtp_edf_near(&in, &nr, &diag), RTP_OK);
        assert_true(nr.decided);
        assert_int_equal(nr.failed, ref);
        b.used = 0;
        in.want_first = 0;
        assert_int_equal(rtp_edf_near(&in, &nr, &diag), RTP_OK);
        assert_true(nr.decided);
        assert_int_equal(nr.failed != 0, ref != 0);
        if (nr.failed)
            assert_true(ref_edf_h(ts, n, nr.failed) > nr.failed);
        b.used = 0; /* chunks growing 64-fold (sensitivity's searches) */
        in.want_first = 1;
        in.growth = 64;
        assert_int_equal(rtp_edf_near(&in, &nr, &diag), RTP_OK);
        assert_true(nr.decided);
        assert_int_equal(nr.failed, ref);
        size_t dims = nr.dims;
        b.used = 0; /* at most 2 tasks in the lattice: the same answer */
        in.dims_max = 2;
        assert_int_equal(rtp_edf_near(&in, &nr, &diag), RTP_OK);
        assert_true(nr.decided);
        assert_int_equal(nr.failed, ref);
        assert_true(nr.dims <= 2);
        capped += dims > 2;
        in.dims_max = 0;
        rtp_edf_result r;
        rtp_limits lim = rtp_limits_default();
        assert_int_equal(rtp_edf_qpa(ts, n, 1, &lim, &r, &diag), RTP_OK);
        assert_int_equal(r.schedulable, ref == 0);
        if (ref)
            assert_int_equal(r.first_miss_ns, ref);
        fails += ref != 0;
        holds += ref == 0;
        deep += ref > 1000;
    }
    print_message("near: %d fail, %d hold, %d fail past 1000, %d capped\n", fails, holds, deep,
                  capped);
    assert_true(capped > 10); /* the cap of 2 changed the lattice (21 sets) */
    assert_true(fails > 1000);
    assert_true(holds > 1000);
    assert_true(deep > 100);
}

/* The smallest failing t <= upto, or 0, visiting only the deadlines (the
 * step points) in increasing order: for long intervals. */
static rtp_ns ref_first_failure_events(const rtp_task *ts, size_t n, rtp_ns upto)
{
    rtp_ns next[8], demand = 0, blocked = 0;
    for (size_t i = 0; i < n; i++)
        next[i] = ts[i].deadline_ns - ts[i].jitter_ns;
    for (;;) {
        rtp_ns t = INT64_MAX;
        for (size_t i = 0; i < n; i++)
            if (next[i] < t)
                t = next[i];
        if (t > upto)
            return 0;
        for (size_t i = 0; i < n; i++)
            if (next[i] == t) {
                demand += ts[i].wcet_ns;
                next[i] += ts[i].period_ns;
                if (ts[i].blocking_ns > blocked)
                    blocked = ts[i].blocking_ns;
            }
        if (demand + blocked > t)
            return t;
    }
}

/* Through rtp_edf_qpa and the lattice search directly, sets so close to
 * U = 1 that the exact test takes the lattice search (La past 2^14 periods): periods 1000..5000, deadlines
 * within 1/8 .. 1/1024 of the period, the last two wcets chosen for the
 * smallest 1 - U > 0 they allow (about 1 / (T T')); every deadline up to
 * La scanned. */
static void test_near_deep_vs_enumeration(void **state)
{
    (void)state;
    tu_rng rng = {2727};
    int fails = 0, holds = 0, sets = 0;
    while (sets < 120) {
        rtp_task ts[8];
        size_t n = (size_t)tu_range(&rng, 3, 6);
        mpq_t u, term, best, k0;
        mpq_inits(u, term, best, k0, NULL);
        for (size_t i = 0; i < n; i++) {
            rtp_ns t = tu_range(&rng, 1000, 5000);
            ts[i] = tu_task(i + 2 < n ? tu_range(&rng, 1, t / (rtp_ns)n) : 1, t, t);
            if (i + 2 < n) {
                mpq_set_si(term, ts[i].wcet_ns, (unsigned long)t);
                mpq_canonicalize(term);
                mpq_add(u, u, term);
            }
        }
        rtp_task *a = &ts[n - 2], *b = &ts[n - 1];
        rtp_ns best_a = 0, best_b = 0;
        mpq_t left_one;
        mpq_init(left_one);
        for (rtp_ns ca = 1; ca < a->period_ns; ca++) {
            /* 1 - U - ca / Ta, then the largest cb below it */
            mpq_set_si(term, ca, (unsigned long)a->period_ns);
            mpq_canonicalize(term);
            mpq_add(term, term, u);
            mpq_neg(term, term);
            mpq_set_ui(left_one, 1, 1);
            mpq_add(term, term, left_one);
            if (mpq_sgn(term) <= 0)
                break;
            mpz_t z;
            mpz_init(z);
            mpz_mul_si(z, mpq_numref(term), b->period_ns);
            mpz_cdiv_q(z, z, mpq_denref(term));
            rtp_ns cb = mpz_get_si(z) - 1;
            mpz_clear(z);
            if (cb < 1)
                continue;
            mpq_t left;
            mpq_init(left);
            mpq_set_si(left, cb, (unsigned long)b->period_ns);
            mpq_canonicalize(left);
            mpq_sub(left, term, left);
            if (best_a == 0 || mpq_cmp(left, best) < 0) {
                mpq_set(best, left);
                best_a = ca;
                best_b = cb;
            }
            mpq_clear(left);
        }
        mpq_clear(left_one);
        a->wcet_ns = best_a;
        b->wcet_ns = best_b;
        rtp_ns bmax = 0, spread = (rtp_ns)1 << tu_range(&rng, 3, 10);
        for (size_t i = 0; i < n; i++) {
            rtp_task *t = &ts[i];
            t->deadline_ns = t->period_ns - tu_range(&rng, 0, t->period_ns / spread);
            if (tu_range(&rng, 0, 5) == 0)
                t->jitter_ns = tu_range(&rng, 0, 40);
            if (tu_range(&rng, 0, 5) == 0)
                t->blocking_ns = tu_range(&rng, 1, 40);
            if (t->blocking_ns > bmax)
                bmax = t->blocking_ns;
            mpq_set_si(term, t->wcet_ns, (unsigned long)t->period_ns);
            mpq_canonicalize(term);
            mpq_set_si(u, t->period_ns - t->deadline_ns + t->jitter_ns, 1);
            mpq_mul(term, term, u);
            mpq_add(k0, k0, term);
        }
        mpq_set_si(u, bmax, 1);
        mpq_add(k0, k0, u);
        mpq_div(k0, k0, best);
        double la = mpq_get_d(k0);
        mpq_clears(u, term, best, k0, NULL);
        if (best_a == 0 || la > 2e9 || la < 1e8)
            continue;
        sets++;
        rtp_ns ref = ref_first_failure_events(ts, n, (rtp_ns)la + 2);
        rtp_edf_result r;
        rtp_diag diag;
        rtp_limits lim = rtp_limits_default();
        /* the lattice search itself with chunks growing 8-fold (the exact
         * test's) and 64-fold (wcet_max's), each many chunks here */
        for (unsigned grow = 8; grow <= 64; grow *= 8) {
            rtp_edf_budget bud = {0, 100000000, NULL};
            rtp_edf_near_result nr;
            walk_ctx wc = {ts, n, &bud, &diag};
            rtp_edf_near_in in = {.tasks = ts, .n = n, .t_cap = RTP_NS_LIMIT,
                                  .want_first = 1, .check = walk_check, .check_ctx = &wc,
                                  .b = &bud, .growth = grow};
            assert_int_equal(rtp_edf_near(&in, &nr, &diag), RTP_OK);
            assert_true(nr.decided);
            assert_int_equal(nr.failed, ref);
        }
        assert_int_equal(rtp_edf_qpa(ts, n, 1, &lim, &r, &diag), RTP_OK);
        assert_int_equal(r.schedulable, ref == 0);
        if (ref)
            assert_int_equal(r.first_miss_ns, ref);
        assert_int_equal(rtp_edf_qpa(ts, n, 0, &lim, &r, &diag), RTP_OK);
        assert_int_equal(r.schedulable, ref == 0);
        fails += ref != 0;
        holds += ref == 0;
    }
    print_message("near, deep: %d fail, %d hold\n", fails, holds);
    assert_true(fails > 20);
    assert_true(holds > 20);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dbf),
        cmocka_unit_test(test_examples),
        cmocka_unit_test(test_random_vs_references),
        cmocka_unit_test(test_random_periods_vs_busy_period),
        cmocka_unit_test(test_precision),
        cmocka_unit_test(test_large_coprime),
        cmocka_unit_test(test_tail_vs_enumeration),
        cmocka_unit_test(test_near_vs_enumeration),
        cmocka_unit_test(test_near_deep_vs_enumeration),
        cmocka_unit_test(test_limit),
        cmocka_unit_test(test_delay_examples),
        cmocka_unit_test(test_delay_big_values),
        cmocka_unit_test(test_delays_vs_references),
        cmocka_unit_test(test_full_utilization_vs_references),
        cmocka_unit_test(test_delays_random_periods_vs_busy_period),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
