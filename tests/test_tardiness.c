/* tests/test_tardiness.c — the tardiness bounds of solver/tardiness.h:
 * hand-computed examples (arithmetic shown), the exact-utilization edges
 * where floating point decides wrongly, the preconditions, an obviously
 * correct reference (the compliant-vector root as the largest per-subset
 * root over every subset, Devi & Anderson's sums by plain sorting, both in
 * GMP rationals) on seeded sets, and soundness: no job of a seeded random
 * sporadic schedule under global EDF (the library's one simulator, sim/sim.h,
 * whose rules tests/test_sim.c validates; support/reference.h for the
 * synchronous periodic case) finishes later after its deadline than its
 * task's bound. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <gmp.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim.h"
#include "solver/tardiness.h"
#include "solver/tardiness_q.h"
#include "support/reference.h"
#include "support/testutil.h"

#define MAXN 8

static rtp_limits limits(void)
{
    return rtp_limits_default();
}

static void bounds(const rtp_task *ts, size_t n, int m, rtp_tardiness *out, int *bounded)
{
    rtp_limits l = limits();
    assert_int_equal(rtp_tardiness_bounds(ts, n, m, &l, out, bounded, NULL), RTP_OK);
}

/* Three tasks (5.5, 10) on 2 CPUs: U = 1.65, lambda = 1. DA: x = (5.5 -
 * 5.5) / 2 = 0, tardiness 5.5. CV: Y = 0, S_i = 5.5, S = 16.5, v0 = 5.5 -
 * 5.5 * 0.55 / 2 - 5.5 = -1.5125; s* = (16.5 - 1.5125) / (2 - 0.55) =
 * 10.3362..., response 5.5 + ceil(s* - 2.75) = 5.5 + 7.5862... -> in us
 * 13087, tardiness 3087. */
static void test_three_heavy(void **state)
{
    (void)state;
    rtp_task ts[3] = {tu_task(5500, 10000, 10000), tu_task(5500, 10000, 10000),
                      tu_task(5500, 10000, 10000)};
    rtp_tardiness t[3];
    int bounded = 0;
    bounds(ts, 3, 2, t, &bounded);
    assert_true(bounded);
    for (int i = 0; i < 3; i++) {
        assert_int_equal(t[i].da_ns, 5500);
        assert_int_equal(t[i].cv_ns, 3087);
        assert_int_equal(t[i].bound_ns, 3087);
    }
}

/* U = 10/25 + 4/5 + 5/7 + 3/35 = 2 exactly on 2 CPUs (a float sum reads
 * 2.0000000000000004 and calls it unbounded): lambda = 1, DA x = (10 - 3) /
 * 2 = 3.5 -> 4, tardiness C + 4. */
static void test_u_equals_m(void **state)
{
    (void)state;
    rtp_task ts[4] = {tu_task(10, 25, 25), tu_task(4, 5, 5), tu_task(5, 7, 7),
                      tu_task(3, 35, 35)};
    rtp_tardiness t[4];
    int bounded = 0;
    bounds(ts, 4, 2, t, &bounded);
    assert_true(bounded);
    rtp_ns da[4] = {14, 8, 9, 7}, cv[4] = {10, 7, 8, 7};
    for (int i = 0; i < 4; i++) {
        assert_int_equal(t[i].da_ns, da[i]);
        assert_int_equal(t[i].cv_ns, cv[i]);
    }
}

/* U = 2 + 1/(T1 T2) with T1, T2 primes near 1e9: overloaded on 2 CPUs (no
 * bound, where the float sum is exactly 2.0); on 3 CPUs lambda = 2 (the
 * float sum gives 1): x = (3999999795 - 999999928) / (3 - 1999999867 /
 * 999999866000004473) = 999999936.0000... -> 999999937. */
static void test_u_just_above_m(void **state)
{
    (void)state;
    rtp_task ts[3] = {tu_task(999999936, 999999937, 999999937),
                      tu_task(999999928, 999999929, 999999929),
                      tu_task(1999999867, 999999866000004473LL, 999999866000004473LL)};
    rtp_tardiness t[3];
    int bounded = 1;
    bounds(ts, 3, 2, t, &bounded);
    assert_false(bounded);
    for (int i = 0; i < 3; i++)
        assert_int_equal(t[i].bound_ns, -1);
    bounds(ts, 3, 3, t, &bounded);
    assert_true(bounded);
    assert_int_equal(t[0].da_ns, 999999936 + 999999937LL);
    assert_int_equal(t[2].da_ns, 1999999867 + 999999937LL);
    assert_int_equal(t[0].cv_ns, 1499999905);
    assert_int_equal(t[2].cv_ns, 2166666526);
}

/* Outside the model: no bound (and no verdict) at all. */
static void not_bounded(const rtp_task *ts, size_t n, int m)
{
    rtp_tardiness t[2];
    int bounded = 1;
    bounds(ts, n, m, t, &bounded);
    assert_false(bounded);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(t[i].bound_ns, -1);
}

static void test_not_applicable(void **state)
{
    (void)state;
    rtp_tardiness t[2];
    int bounded = 1;
    rtp_task over[2] = {tu_task(11, 10, 10), tu_task(1, 10, 10)}; /* C > T */
    not_bounded(over, 2, 2);
    rtp_task blk[2] = {tu_task(5, 10, 10), tu_task(5, 10, 10)};
    blk[1].blocking_ns = 1;
    not_bounded(blk, 2, 2);
    rtp_task jit[2] = {tu_task(5, 10, 10), tu_task(5, 10, 10)};
    jit[0].jitter_ns = 6; /* T - J = 4 < C */
    not_bounded(jit, 2, 2);
    jit[0].jitter_ns = 2; /* J' differ: a deadline on the arrival grid can pass them */
    not_bounded(jit, 2, 2);
    /* the review's witness (rev6a): t0 3/7/3 (C/T/D), t1 1/8/8 with J' 6 on
     * one CPU; the old code gave t0 cv 0, but t1 arriving at 8 is released
     * at 14 with its deadline at 16 on the kernel's grid, ahead of t0's job
     * arriving at 14 (deadline 17): t1 runs 14-15, t0 15-18, 1 late */
    rtp_task wit[2] = {tu_task(3, 3, 7), tu_task(1, 8, 8)};
    wit[1].jitter_ns = 6;
    not_bounded(wit, 2, 1);
    jit[1].jitter_ns = 2; /* T - J = 8: U = 5/8 + 5/8; no DA (jitter), CV + 2 */
    bounds(jit, 2, 2, t, &bounded);
    assert_true(bounded);
    assert_int_equal(t[0].da_ns, -1);
    assert_true(t[0].cv_ns >= 2);
    rtp_limits l = limits();
    assert_int_equal(rtp_tardiness_bounds(jit, 2, 0, &l, t, &bounded, NULL), RTP_EINPUT);
}

/* The response Y + C + lift may pass 2^63 while the tardiness, D taken
 * off, fits (the second review's set: a = 2^62 / 2^62, b = 1 / D 1 / T
 * 2^62 on 2 CPUs; the sum was added in 64 bits and exited 3): cv =
 * 2^62 and 2^61 + 1. */
static void test_response_past_2_63(void **state)
{
    (void)state;
    const rtp_ns h = (rtp_ns)1 << 62;
    rtp_task ts[2] = {tu_task(h, h, h), tu_task(1, 1, h)};
    rtp_tardiness t[2];
    int bounded = 0;
    bounds(ts, 2, 2, t, &bounded);
    assert_true(bounded);
    assert_int_equal(t[0].cv_ns, h);
    assert_int_equal(t[1].cv_ns, h / 2 + 1);
}

/* ---- the slow reference ---- */

static void q_ns(mpq_t q, rtp_ns a, rtp_ns b)
{
    mpz_set_si(mpq_numref(q), a);
    mpz_set_si(mpq_denref(q), b);
    mpq_canonicalize(q);
}

static rtp_ns q_ceil(const mpq_t q)
{
    mpz_t c;
    mpz_init(c);
    mpz_cdiv_q(c, mpq_numref(q), mpq_denref(q));
    rtp_ns r = mpz_get_si(c);
    mpz_clear(c);
    return r;
}

/* The definitions as written ([DA08], [EGB10]) with T - J as the period and
 * J added back; every subset of size lambda enumerated. *bounded as the
 * solver's. */
static void reference(const rtp_task *ts, size_t n, int m, rtp_ns *da, rtp_ns *cv,
                      int *bounded)
{
    mpq_t U, u[MAXN], S, Si[MAXN], v0[MAXN], a, b, best, x;
    mpq_inits(U, S, a, b, best, x, NULL);
    rtp_ns g[MAXN], dmin = ts[0].deadline_ns;
    int implicit = 1;
    *bounded = 1;
    for (size_t i = 0; i < n; i++) {
        mpq_inits(u[i], Si[i], v0[i], NULL);
        g[i] = ts[i].period_ns - ts[i].jitter_ns;
        *bounded &= ts[i].wcet_ns <= g[i] && ts[i].blocking_ns == 0 &&
                    ts[i].jitter_ns == ts[0].jitter_ns;
        implicit &= ts[i].deadline_ns == ts[i].period_ns && ts[i].jitter_ns == 0;
        dmin = ts[i].deadline_ns < dmin ? ts[i].deadline_ns : dmin;
        q_ns(u[i], ts[i].wcet_ns, g[i]);
        mpq_add(U, U, u[i]);
    }
    *bounded &= mpq_cmp_si(U, m, 1) <= 0;
    long lambda = q_ceil(U) - 1;
    for (size_t i = 0; i < n; i++)
        da[i] = cv[i] = -1;
    if (*bounded) {
        /* DA: the lambda largest C (plain selection), lambda - 1 largest u */
        rtp_ns x_int = 0;
        if (implicit && m > 1 && lambda > 0) {
            int used[MAXN] = {0};
            rtp_ns top = 0, cmin = ts[0].wcet_ns;
            for (size_t i = 0; i < n; i++)
                cmin = ts[i].wcet_ns < cmin ? ts[i].wcet_ns : cmin;
            for (long k = 0; k < lambda; k++) {
                size_t w = n;
                for (size_t i = 0; i < n; i++)
                    if (!used[i] && (w == n || ts[i].wcet_ns > ts[w].wcet_ns))
                        w = i;
                used[w] = 1;
                top += ts[w].wcet_ns;
            }
            memset(used, 0, sizeof used);
            mpq_set_si(b, m, 1);
            for (long k = 0; k + 1 < lambda; k++) {
                size_t w = n;
                for (size_t i = 0; i < n; i++)
                    if (!used[i] && (w == n || mpq_cmp(u[i], u[w]) > 0))
                        w = i;
                used[w] = 1;
                mpq_sub(b, b, u[w]);
            }
            mpq_set_si(x, top - cmin > 0 ? top - cmin : 0, 1);
            mpq_div(x, x, b);
            x_int = q_ceil(x);
        }
        for (size_t i = 0; i < n && implicit; i++)
            da[i] = ts[i].wcet_ns + x_int;
        /* CV */
        for (size_t i = 0; i < n; i++) {
            rtp_ns y = ts[i].deadline_ns - dmin;
            if (y < g[i]) {
                q_ns(Si[i], (g[i] - y) * ts[i].wcet_ns, g[i]);
                mpq_add(S, S, Si[i]);
            }
            q_ns(a, ts[i].wcet_ns, m);
            mpq_mul(a, a, u[i]);
            mpq_set_si(v0[i], ts[i].wcet_ns, 1);
            mpq_sub(v0[i], v0[i], a);
            mpq_sub(v0[i], v0[i], Si[i]);
        }
        if (m == 1 && implicit) {
            for (size_t i = 0; i < n; i++)
                cv[i] = 0;
        } else {
            /* lambda <= 0: s* = S/m; else the largest per-subset root */
            q_ns(a, 1, m);
            mpq_mul(best, S, a);
            int first = 1;
            for (unsigned mask = 0; lambda > 0 && mask < 1u << n; mask++) {
                if (__builtin_popcount(mask) != lambda)
                    continue;
                mpq_set(a, S);
                mpq_set_si(b, m, 1);
                for (size_t i = 0; i < n; i++)
                    if (mask >> i & 1) {
                        mpq_add(a, a, v0[i]);
                        mpq_sub(b, b, u[i]);
                    }
                mpq_div(a, a, b);
                if (first || mpq_cmp(a, best) > 0)
                    mpq_set(best, a);
                first = 0;
            }
            if (mpq_sgn(best) < 0)
                mpq_set_ui(best, 0, 1);
            for (size_t i = 0; i < n; i++) {
                q_ns(a, ts[i].wcet_ns, m);
                mpq_sub(a, best, a);
                rtp_ns r = ts[i].deadline_ns - dmin + ts[i].wcet_ns + q_ceil(a);
                cv[i] = (r > ts[i].deadline_ns ? r - ts[i].deadline_ns : 0) + ts[i].jitter_ns;
            }
        }
    }
    for (size_t i = 0; i < n; i++)
        mpq_clears(u[i], Si[i], v0[i], NULL);
    mpq_clears(U, S, a, b, best, x, NULL);
}

/* A seeded set of n tasks on m CPUs with U in about [0.6 m, m]: implicit,
 * constrained or arbitrary deadlines, sometimes jitter. Small integers so
 * schedules are short. */
static size_t random_set(tu_rng *rng, rtp_task *ts, int *m)
{
    *m = (int)tu_range(rng, 1, 4);
    size_t n = (size_t)tu_range(rng, (int64_t)*m + 1, MAXN);
    int kind = (int)tu_range(rng, 0, 3), jitter = tu_range(rng, 0, 4) == 0;
    rtp_ns common = jitter && tu_range(rng, 0, 1) ? tu_range(rng, 1, 3) : -1; /* every J' */
    for (size_t i = 0; i < n; i++) {
        rtp_ns t = tu_range(rng, 4, 40);
        rtp_ns c = tu_range(rng, 1, t);
        /* aim at U near m: per task about m/n */
        rtp_ns aim = t * *m / (rtp_ns)n;
        if (tu_range(rng, 0, 2) && aim >= 1)
            c = tu_range(rng, aim > 2 ? aim - 2 : 1, aim < t ? aim + (aim < t) : t);
        rtp_ns d = kind == 0 ? t : kind == 1 ? tu_range(rng, c, t) : tu_range(rng, c, 2 * t);
        ts[i] = tu_task(c, d, t);
        if (common >= 0)
            ts[i].jitter_ns = common;
        else if (jitter)
            ts[i].jitter_ns = tu_range(rng, 0, t - c);
    }
    return n;
}

static void test_against_reference(void **state)
{
    (void)state;
    tu_rng rng = {28};
    int seen_bounded = 0, seen_da = 0, seen_lambda = 0;
    for (int k = 0; k < 4000; k++) {
        rtp_task ts[MAXN];
        int m;
        size_t n = random_set(&rng, ts, &m);
        rtp_tardiness t[MAXN];
        rtp_ns da[MAXN], cv[MAXN];
        int bounded, ref_bounded;
        bounds(ts, n, m, t, &bounded);
        reference(ts, n, m, da, cv, &ref_bounded);
        assert_int_equal(bounded, ref_bounded);
        seen_bounded += bounded;
        for (size_t i = 0; i < n; i++) {
            assert_int_equal(t[i].da_ns, da[i]);
            assert_int_equal(t[i].cv_ns, cv[i]);
            rtp_ns want = da[i] >= 0 && da[i] < cv[i] ? da[i] : cv[i];
            assert_int_equal(t[i].bound_ns, want);
            seen_da += da[i] > ts[i].wcet_ns;
        }
        seen_lambda += bounded && m >= 3 && n >= 4;
    }
    /* the seeds reach every branch */
    assert_true(seen_bounded > 1500);
    assert_true(seen_da > 100);
    assert_true(seen_lambda > 100);
}

/* ---- soundness against simulation ---- */

typedef struct tally {
    const rtp_task *ts;
    rtp_ns worst[MAXN]; /* largest completion - (arrival + D), -1 none */
    int unfinished;
} tally;

static void on_done(void *ctx, const rtp_sim_job *job)
{
    tally *t = ctx;
    if (job->finish_ns < 0) {
        t->unfinished = 1;
        return;
    }
    rtp_ns late = job->finish_ns - (job->arrival_ns + t->ts[job->task].deadline_ns);
    if (late > t->worst[job->task])
        t->worst[job->task] = late;
}

/* One random sporadic schedule under global EDF: releases at least T apart
 * (often exactly), each released up to J after its arrival with its
 * deadline counted from the release (the model of solver/tardiness.h) or,
 * with `grid`, from the arrival (SCHED_DEADLINE's period grid), executing
 * C or less. Tie order among equal deadlines: the tasks' order in `ts`. */
static void simulate(tu_rng *rng, const rtp_task *ts, size_t n, int m, rtp_ns horizon,
                     int grid, tally *out)
{
    memset(out, 0, sizeof *out);
    out->ts = ts;
    for (size_t i = 0; i < n; i++)
        out->worst[i] = -1;
    rtp_sim_hooks hooks = {out, on_done, NULL};
    rtp_sim *sim = NULL;
    assert_int_equal(rtp_sim_create(RTP_POLICY_GEDF, m, NULL, n, &hooks, &sim, NULL), RTP_OK);
    rtp_ns total = 0;
    int mode = (int)tu_range(rng, 0, 2);
    for (size_t i = 0; i < n; i++) {
        rtp_ns a = mode == 0 ? 0 : tu_range(rng, 0, ts[i].period_ns);
        while (a < horizon) {
            rtp_ns rel = a + (tu_range(rng, 0, 1) ? ts[i].jitter_ns : tu_range(rng, 0, ts[i].jitter_ns));
            rtp_ns c = tu_range(rng, 0, 5) ? ts[i].wcet_ns : tu_range(rng, 1, ts[i].wcet_ns);
            rtp_sim_job job = {.task = i, .arrival_ns = a, .release_ns = rel,
                               .deadline_ns = (grid ? a : rel) + ts[i].deadline_ns,
                               .exec_ns = c};
            assert_int_equal(rtp_sim_add(sim, &job, NULL, NULL), RTP_OK);
            total += c;
            rtp_ns next = a + ts[i].period_ns + (tu_range(rng, 0, 5) ? 0 : tu_range(rng, 1, 6));
            /* keep releases in order: the next release after this one */
            a = next + ts[i].jitter_ns < rel ? rel : next;
        }
    }
    assert_int_equal(rtp_sim_run(sim, horizon + total + 1, NULL), RTP_OK);
    rtp_sim_drain(sim);
    rtp_sim_free(sim);
}

static void test_simulation(void **state)
{
    (void)state;
    tu_rng rng = {2028};
    int late_seen = 0, attained = 0, checked = 0;
    rtp_ns tight = INT64_MAX;
    for (int k = 0; k < 2000; k++) {
        rtp_task ts[MAXN];
        int m;
        size_t n = random_set(&rng, ts, &m);
        rtp_tardiness t[MAXN];
        int bounded;
        bounds(ts, n, m, t, &bounded);
        if (!bounded)
            continue;
        for (int p = 0; p < 40; p++) {
            tally got;
            simulate(&rng, ts, n, m, 12 * 40, p % 2, &got); /* both deadline models */
            assert_false(got.unfinished);
            for (size_t i = 0; i < n; i++) {
                if (got.worst[i] > t[i].bound_ns) {
                    print_error("task %zu of set %d: simulated tardiness %lld > bound %lld\n", i,
                                k, (long long)got.worst[i], (long long)t[i].bound_ns);
                    fail();
                }
                late_seen += got.worst[i] > 0;
                attained += got.worst[i] > 0 && got.worst[i] == t[i].bound_ns;
                /* tightness: the smallest bound / simulated, x1000 */
                if (got.worst[i] > 0 && t[i].bound_ns * 1000 / got.worst[i] < tight)
                    tight = t[i].bound_ns * 1000 / got.worst[i];
            }
        }
        /* the synchronous periodic case too (ties by input order) */
        int no_jitter = 1;
        for (size_t i = 0; i < n; i++)
            no_jitter &= ts[i].jitter_ns == 0;
        if (no_jitter) {
            rtp_ns worst[MAXN];
            ref_periodic_simulate(ts, n, m, NULL, 12 * 40, worst);
            for (size_t i = 0; i < n; i++)
                assert_true(worst[i] - ts[i].deadline_ns <= t[i].bound_ns);
        }
        checked++;
    }
    print_message("tardiness: %d sets, %d task-patterns late, %d at the bound, "
                  "tightest bound / simulated %lld/1000\n", checked, late_seen, attained,
                  (long long)tight);
    assert_true(checked > 800);
    assert_true(late_seen > 200); /* the schedules do overload */
}

/* The soft admission as a test value: the hard tests first (their name),
 * then bounded tardiness ("soft"), never at U > m. */
static void test_soft_test(void **state)
{
    (void)state;
    rtp_task heavy[3] = {tu_task(55, 100, 100), tu_task(55, 100, 100), tu_task(55, 100, 100)};
    rtp_task light[2] = {tu_task(1, 100, 100), tu_task(1, 100, 100)};
    rtp_task over[3] = {tu_task(90, 100, 100), tu_task(90, 100, 100), tu_task(90, 100, 100)};
    rtp_test soft = rtp_test_soft(2, limits());
    rtp_test_result r;
    assert_int_equal(rtp_test_run(&soft, heavy, 3, &r, NULL), RTP_OK);
    assert_true(r.schedulable);
    assert_string_equal(r.accepted_by, "soft");
    assert_int_equal(rtp_test_run(&soft, light, 2, &r, NULL), RTP_OK);
    assert_true(r.schedulable);
    assert_string_equal(r.accepted_by, "gfb");
    assert_int_equal(rtp_test_run(&soft, over, 3, &r, NULL), RTP_OK);
    assert_false(r.schedulable);
    rtp_test one = rtp_test_soft(1, limits()); /* one CPU: EDF, U <= 1 */
    rtp_task d[2] = {tu_task(4, 5, 10), tu_task(4, 5, 10)};
    assert_int_equal(rtp_test_run(&one, d, 2, &r, NULL), RTP_OK);
    assert_true(r.schedulable);
    assert_string_equal(r.accepted_by, "soft");
}

/* ---- the integer path against the rationals ---- */

#define PATHS_N 40

/* Families of the comparison: periods log-uniform over [1 ms, 1 s] in ns;
 * round periods (1, 2, 4, 5, 10 x 10 ms, whole-ms C: U is often exactly an
 * integer); periods near 2^62 (steps past 128 bits); all three with
 * implicit, constrained or arbitrary deadlines and sometimes jitter. */
enum { FAM_NS, FAM_ROUND, FAM_HUGE, FAM_COUNT };

static rtp_ns log_uniform(tu_rng *rng, rtp_ns lo, rtp_ns hi)
{
    double f = (double)tu_range(rng, 0, 1 << 30) / (double)(1 << 30);
    rtp_ns v = (rtp_ns)((double)lo * pow((double)hi / (double)lo, f));
    return v < lo ? lo : v > hi ? hi : v;
}

static size_t family_set(tu_rng *rng, int fam, rtp_task *ts, int *m)
{
    *m = (int)tu_range(rng, 1, tu_range(rng, 0, 3) ? 8 : 16); /* lambda > 8: quickselect */
    size_t n = (size_t)tu_range(rng, (int64_t)*m + 1, PATHS_N);
    int kind = (int)tu_range(rng, 0, 2), jitter = tu_range(rng, 0, 3) == 0;
    /* per task about m/n of a CPU, so U lands in about [0.5 m, 1.2 m] */
    int64_t share = 1000 * *m / (int64_t)n;
    for (size_t i = 0; i < n; i++) {
        static const rtp_ns round[5] = {10, 20, 40, 50, 100};
        rtp_ns t = fam == FAM_NS      ? log_uniform(rng, 1000000, 1000000000)
                   : fam == FAM_ROUND ? round[tu_range(rng, 0, 4)] * 1000000
                                      : tu_range(rng, (rtp_ns)1 << 61, (rtp_ns)1 << 62);
        int64_t permille = tu_range(rng, share / 2 + 1, share * 3 / 2 + 1);
        rtp_ns c = (rtp_ns)((rtp_i128)t * (permille > 1000 ? 1000 : permille) / 1000);
        if (fam == FAM_ROUND)
            c = c / 1000000 * 1000000;
        c = c < 1 ? 1 : c;
        rtp_ns d = kind == 0 ? t : kind == 1 ? tu_range(rng, c, t) : tu_range(rng, c, 2 * t);
        ts[i] = tu_task(c, d, t);
        if (jitter && tu_range(rng, 0, 1))
            ts[i].jitter_ns = tu_range(rng, 0, (t - c) / 4);
    }
    /* half of the jitter sets with one J' for every task (the bounds apply
     * only then): the largest any task drew, where it fits every task */
    if (jitter && tu_range(rng, 0, 1)) {
        rtp_ns j = 0;
        for (size_t i = 0; i < n; i++)
            j = ts[i].jitter_ns > j ? ts[i].jitter_ns : j;
        for (size_t i = 0; i < n; i++)
            ts[i].jitter_ns = j <= ts[i].period_ns - ts[i].wcet_ns ? j : 0;
    }
    return n;
}

/* Raises the last task's C to the largest value with U <= m (by bisection
 * on the exact sum): U within 1/T of m, where the enclosure must defer. */
static void near_m(rtp_task *ts, size_t n, int m)
{
    rtp_ns lo = 1, hi = rtp_tardiness_gap(&ts[n - 1]);
    long lambda;
    while (lo < hi) {
        ts[n - 1].wcet_ns = lo + (hi - lo + 1) / 2;
        if (rtp_tardiness_q_load(ts, n, m, &lambda))
            lo = ts[n - 1].wcet_ns;
        else
            hi = ts[n - 1].wcet_ns - 1;
    }
    ts[n - 1].wcet_ns = lo;
}

/* One set by `path`: status, bounded, the three bounds per task. */
typedef struct path_out {
    rtp_status st;
    int bounded, undecided;
    rtp_tardiness t[PATHS_N];
} path_out;

static void by_path(const rtp_task *ts, size_t n, int m, rtp_tardiness_path path, path_out *o)
{
    rtp_limits l = limits();
    rtp_diag d;
    o->st = rtp_tardiness_bounds_via(ts, n, m, &l, path, o->t, &o->bounded, &o->undecided, &d);
}

static void assert_same(const path_out *a, const path_out *b, size_t n)
{
    assert_int_equal(a->st, b->st);
    assert_int_equal(a->bounded, b->bounded);
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(a->t[i].bound_ns, b->t[i].bound_ns);
        assert_int_equal(a->t[i].da_ns, b->t[i].da_ns);
        assert_int_equal(a->t[i].cv_ns, b->t[i].cv_ns);
    }
}

/* Every set: the product's answer (integer enclosures, GMP fallback) equals
 * the GMP path's, and so does the integer path's wherever it decides alone;
 * it must decide almost every set of the ordinary families. */
static void test_integer_path(void **state)
{
    (void)state;
    tu_rng rng = {27};
    int sets[FAM_COUNT + 1] = {0}, decided[FAM_COUNT + 1] = {0}, bounded[FAM_COUNT + 1] = {0};
    for (int k = 0; k < 6000; k++) {
        int fam = k % (FAM_COUNT + 1), m; /* FAM_COUNT: FAM_NS raised to U near m */
        rtp_task ts[PATHS_N];
        size_t n = family_set(&rng, fam == FAM_COUNT ? FAM_NS : fam, ts, &m);
        if (fam == FAM_COUNT)
            near_m(ts, n, m);
        path_out q, i, a;
        by_path(ts, n, m, RTP_TARDINESS_Q, &q);
        by_path(ts, n, m, RTP_TARDINESS_INT, &i);
        by_path(ts, n, m, RTP_TARDINESS_AUTO, &a);
        assert_false(q.undecided || a.undecided);
        assert_same(&a, &q, n);
        if (!i.undecided)
            assert_same(&i, &q, n);
        sets[fam]++;
        decided[fam] += !i.undecided;
        bounded[fam] += q.bounded;
    }
    print_message("tardiness paths: sets / integer path decided / bounded: ns %d/%d/%d, "
                  "round %d/%d/%d, near 2^62 %d/%d/%d, U near m %d/%d/%d\n",
                  sets[0], decided[0], bounded[0], sets[1], decided[1], bounded[1], sets[2],
                  decided[2], bounded[2], sets[3], decided[3], bounded[3]);
    /* the families reach both paths and both sides of U <= m */
    for (int f = 0; f <= FAM_COUNT; f++)
        assert_true(bounded[f] > sets[f] / 10 && bounded[f] < sets[f]);
    assert_true(decided[FAM_NS] > sets[FAM_NS] * 95 / 100);
    assert_true(decided[FAM_HUGE] < sets[FAM_HUGE]);
    assert_true(decided[FAM_COUNT] < sets[FAM_COUNT]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_three_heavy),
        cmocka_unit_test(test_u_equals_m),
        cmocka_unit_test(test_u_just_above_m),
        cmocka_unit_test(test_not_applicable),
        cmocka_unit_test(test_response_past_2_63),
        cmocka_unit_test(test_against_reference),
        cmocka_unit_test(test_simulation),
        cmocka_unit_test(test_soft_test),
        cmocka_unit_test(test_integer_path),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
