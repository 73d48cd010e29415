/* tests/test_sim_rr_apa.c — sim/sim.h's SCHED_RR run lists and arbitrary
 * affinities (rtp_sim_set_rr, rtp_sim_set_masks), and rtpack simulate's use
 * of them (sim/simulate.h).
 *
 *  - Hand traces: SCHED_RR with the quantum carried over between jobs under
 *    tick accounting and without a tick; an APA set where only the
 *    migrating task's two CPUs together leave it room.
 *  - Trace for trace against the slow references the solver's tests hold
 *    the bounds to (tests/support/rr_reference.c, apa_reference.c), with the
 *    engine's own choices where the references leave one open (the order of
 *    an instant's events: completions, the tick, releases; ticks at
 *    multiples of P; a full quantum at 0; the APA CPU rule of sim.h): equal
 *    worst responses, pending jobs counted by their age, on seeded sets with
 *    jitter, sporadic gaps and shorter executions.
 *  - Against the bounds: no response the engine simulates passes
 *    solver/rr.h's (with and without a tick) or solver/apa.h's. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "sim/sim.h"
#include "sim/simulate.h"
#include "solver/apa.h"
#include "solver/fp.h"
#include "solver/rr.h"
#include "support/apa_reference.h"
#include "support/rr_reference.h"
#include "support/testutil.h"

typedef struct worst_ctx {
    rtp_ns *worst, until;
} worst_ctx;

static void on_done(void *ctx, const rtp_sim_job *job)
{
    worst_ctx *w = ctx;
    rtp_ns r = job->finish_ns >= 0 ? job->finish_ns - job->arrival_ns
               : job->arrival_ns < w->until ? w->until - job->arrival_ns : 0;
    if (r > w->worst[job->task])
        w->worst[job->task] = r;
}

/* The engine on jobs[0..n_jobs-1] up to `until`; worst[i] as the references
 * count it. rr: SCHED_RR flags (NULL: none), mask: APA masks (NULL: none). */
static void engine(size_t n, int m, const int *prio, const int *rr, rtp_ns quantum,
                   rtp_ns tick, const uint64_t *mask, tu_job *jobs, size_t n_jobs,
                   rtp_ns until, rtp_ns *worst)
{
    tu_jobs_sort(jobs, n_jobs);
    for (size_t i = 0; i < n; i++)
        worst[i] = 0;
    worst_ctx ctx = {worst, until};
    rtp_sim_hooks hooks = {&ctx, on_done, NULL};
    rtp_sim *sim;
    rtp_diag d;
    assert_int_equal(rtp_sim_create(RTP_POLICY_FP, m, prio, n, &hooks, &sim, &d), RTP_OK);
    if (rr)
        assert_int_equal(rtp_sim_set_rr(sim, rr, quantum, tick, &d), RTP_OK);
    if (mask)
        assert_int_equal(rtp_sim_set_masks(sim, mask, &d), RTP_OK);
    for (size_t k = 0; k < n_jobs; k++) {
        rtp_sim_job j = {.task = jobs[k].task, .arrival_ns = jobs[k].arrival,
                         .release_ns = jobs[k].release,
                         .deadline_ns = jobs[k].arrival + 1000000, .exec_ns = jobs[k].exec};
        assert_int_equal(rtp_sim_add(sim, &j, NULL, &d), RTP_OK);
    }
    assert_int_equal(rtp_sim_run(sim, until, &d), RTP_OK);
    rtp_sim_drain(sim);
    rtp_sim_free(sim);
}

/* The engine's worst responses equal the reference's; best[] keeps the
 * largest of each task over the patterns. */
static void same_worst(int set, int pattern, size_t n, const rtp_ns *got, const rtp_ns *ref,
                       rtp_ns *best)
{
    for (size_t i = 0; i < n; i++) {
        if (got[i] != ref[i]) {
            print_error("set %d pattern %d task %zu: engine %lld, reference %lld\n", set,
                        pattern, i, (long long)got[i], (long long)ref[i]);
            fail();
        }
        best[i] = got[i] > best[i] ? got[i] : best[i];
    }
}

static size_t rr_jobs(const rr_ref_scenario *sc, size_t n, tu_job *out)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        for (int j = 0; j < sc->count[i]; j++)
            out[k++] = (tu_job){i, sc->job[i][j].arrival, sc->job[i][j].release,
                              sc->job[i][j].exec};
    return k;
}

static void rr_flags(const rtp_task *ts, size_t n, int *rr)
{
    for (size_t i = 0; i < n; i++)
        rr[i] = ts[i].rr;
}

/* The carry-over witness of test_rr with the engine's order (completions,
 * the tick, releases) and P = 1, K = 3: j (C 50) and i (C 5, D 30), both
 * SCHED_RR at priority 5. i's job at 0 runs [0,5); charged at 1, 2, 3
 * (refilled: alone), 4: it sleeps with 2 ticks left. At 20 j wakes first:
 * j [20,23) (charged 21..23: to the tail, i queued), i [23,25) (charged 24,
 * 25: tail), j [25,28), i [28,31): R = 11, where a fresh quantum per job
 * would give i [23,26) and [29,31): 11 too, but with 3 turns of i. Without
 * a tick (Q = 3 ns of own execution) i's first job leaves 1 ns of quantum
 * (5 = 3 + 2): j [20,23), i [23,24), j [24,27), i [27,30), j [30,33),
 * i [33,34): R = 14, the carried-over residual costing i a turn. */
static void test_rr_hand_trace(void **state)
{
    (void)state;
    rtp_task ts[2] = {tu_task(50, 1000, 1000), tu_task(5, 30, 100)};
    ts[0].rr = ts[1].rr = 1;
    int prio[2] = {5, 5}, rr[2] = {1, 1};
    tu_job jobs[3] = {{0, 20, 20, 50}, {1, 0, 0, 5}, {1, 20, 20, 5}};
    rtp_ns worst[2];
    engine(2, 1, prio, rr, 3, 1, NULL, jobs, 3, 200, worst);
    assert_int_equal(worst[1], 11);
    assert_int_equal(worst[0], 55); /* j ends at 75: its 50 and i's 5 */
    engine(2, 1, prio, rr, 3, 0, NULL, jobs, 3, 200, worst);
    assert_int_equal(worst[1], 14);
    /* the reference agrees in the same order */
    static rr_ref_scenario sc;
    memset(&sc, 0, sizeof sc);
    sc.job[0][0] = (rr_ref_job){20, 20, 50};
    sc.job[1][0] = (rr_ref_job){0, 0, 5};
    sc.job[1][1] = (rr_ref_job){20, 20, 5};
    sc.count[0] = 1;
    sc.count[1] = 2;
    sc.slice0[0] = sc.slice0[1] = 3;
    static const int order[3] = {0, 1, 2};
    rtp_ns ref[2];
    rr_ref_simulate(ts, 2, prio, 3, 1, &sc, 200, NULL, order, ref, NULL);
    assert_int_equal(ref[1], 11);
}

static void test_rr_equals_reference(void **state)
{
    (void)state;
    tu_rng rng = {2828};
    int sets = 0, compared = 0, bounds = 0, attained = 0;
    for (int k = 0; k < 2000; k++) {
        rtp_task ts[RR_REF_MAXN];
        int prio[RR_REF_MAXN], rr[RR_REF_MAXN];
        rtp_ns q, p, resp[RR_REF_MAXN], exact[RR_REF_MAXN];
        size_t n = rr_ref_random_set(&rng, ts, prio, &q, &p);
        if (!rtp_rr_present(ts, n, prio))
            continue;
        rr_flags(ts, n, rr);
        rtp_limits lim = rtp_limits_default();
        int sched;
        rtp_rr_params with_tick = {q, p, 0}, no_tick = {q, 0, 0};
        assert_int_equal(rtp_fp_rta(ts, n, prio, resp, &sched, &lim, NULL), RTP_OK);
        memcpy(exact, resp, sizeof resp);
        assert_int_equal(rtp_rr_rta(ts, n, prio, &with_tick, resp, &sched, &lim, NULL), RTP_OK);
        assert_int_equal(rtp_rr_rta(ts, n, prio, &no_tick, exact, &sched, &lim, NULL), RTP_OK);
        rtp_ns best[RR_REF_MAXN] = {0}, best_exact[RR_REF_MAXN] = {0};
        for (int s = 0; s < 10; s++) {
            static rr_ref_scenario sc;
            static tu_job jobs[RR_REF_MAXN * RR_REF_MAXJ];
            rr_ref_random_scenario(&rng, ts, n, q, p, 160, &sc);
            sc.phase = 0; /* the engine's ticks: multiples of P, a full quantum at 0 */
            for (size_t i = 0; i < n; i++)
                sc.slice0[i] = q / p;
            rtp_ns ref[RR_REF_MAXN], got[RR_REF_MAXN];
            static const int order[3] = {0, 1, 2};
            rr_ref_simulate(ts, n, prio, q, p, &sc, 480, NULL, order, ref, NULL);
            size_t nj = rr_jobs(&sc, n, jobs);
            engine(n, 1, prio, rr, q, p, NULL, jobs, nj, 480, got);
            same_worst(k, s, n, got, ref, best);
            compared++;
            engine(n, 1, prio, rr, q, 0, NULL, jobs, nj, 480, got);
            for (size_t i = 0; i < n; i++)
                best_exact[i] = got[i] > best_exact[i] ? got[i] : best_exact[i];
        }
        for (size_t i = 0; i < n; i++) {
            /* FIFO-only ties are solver/fp.h's (first-in first-out by
             * release), not the run lists' (test_rr says why) */
            int tie = 0, rr_here = ts[i].rr;
            for (size_t j = 0; j < n; j++)
                if (j != i && prio[j] == prio[i]) {
                    tie = 1;
                    rr_here |= ts[j].rr;
                }
            if (tie && !rr_here)
                continue;
            for (int e = 0; e < 2; e++) {
                rtp_ns bound = e ? exact[i] : resp[i], seen = e ? best_exact[i] : best[i];
                if (bound < 0)
                    continue;
                if (seen > bound) {
                    print_error("set %d task %zu (%s): simulated %lld > bound %lld\n", k, i,
                                e ? "no tick" : "tick", (long long)seen, (long long)bound);
                    fail();
                }
                bounds++;
                attained += seen == bound;
            }
        }
        sets++;
    }
    print_message("sim rr: %d sets, %d patterns equal to the reference, %d bounds, %d "
                  "attained, 0 above\n", sets, compared, bounds, attained);
    assert_true(compared > 10000);
    assert_true(bounds > 3000);
}

/* test_apa's semi-partitioned set: a (6/10) on CPU 0, b (5/10) on CPU 1,
 * c (9/20) on both, priorities a > b > c. At 0 a and b take their CPUs and
 * c waits (every CPU of its mask runs a better job); b ends at 5 and c takes
 * CPU 1 [5,10) (a ends at 6: c keeps CPU 1, no migration); at 10 a and b
 * return and c waits again; b ends at 15 and c runs [15,19): R = 19,
 * solver/apa.h's bound (S = {1}: 9 + ceil(R/10) 5). */
static void test_apa_hand_trace(void **state)
{
    (void)state;
    int prio[3] = {3, 2, 1};
    uint64_t mask[3] = {1, 2, 3};
    tu_job jobs[6] = {{0, 0, 0, 6}, {0, 10, 10, 6}, {1, 0, 0, 5}, {1, 10, 10, 5},
                    {2, 0, 0, 9}, {2, 20, 20, 9}};
    rtp_ns worst[3];
    engine(3, 2, prio, NULL, 0, 0, mask, jobs, 6, 40, worst);
    assert_int_equal(worst[0], 6);
    assert_int_equal(worst[1], 5);
    assert_int_equal(worst[2], 19);
}

static void test_apa_equals_reference(void **state)
{
    (void)state;
    tu_rng rng = {1329};
    int compared = 0, bounds = 0, attained = 0, migrating = 0;
    for (int k = 0; k < 2000; k++) {
        rtp_task ts[APA_REF_MAXN];
        uint64_t mask[APA_REF_MAXN];
        int prio[APA_REF_MAXN], m;
        size_t n = apa_ref_random_set(&rng, ts, mask, prio, &m);
        rtp_limits lim = rtp_limits_default();
        rtp_global_verdict v;
        rtp_ns r[APA_REF_MAXN], best[APA_REF_MAXN] = {0};
        assert_int_equal(rtp_apa_rta(ts, n, mask, prio, &lim, r, &v, NULL), RTP_OK);
        for (int s = 0; s < 10; s++) {
            static apa_ref_scenario sc;
            static tu_job jobs[APA_REF_MAXN * APA_REF_MAXJ];
            apa_ref_scenario_draw(&rng, ts, n, 120, &sc);
            rtp_ns ref[APA_REF_MAXN], got[APA_REF_MAXN];
            apa_ref_simulate(NULL, n, mask, prio, m, &sc, 360, ref);
            size_t nj = 0;
            for (size_t i = 0; i < n; i++)
                for (int j = 0; j < sc.count[i]; j++)
                    jobs[nj++] = (tu_job){i, sc.arr[i][j], sc.arr[i][j], sc.exec[i][j]};
            engine(n, m, prio, NULL, 0, 0, mask, jobs, nj, 360, got);
            same_worst(k, s, n, got, ref, best);
            compared++;
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
    print_message("sim apa: %d patterns equal to the reference, %d task bounds (%d migrating), "
                  "%d attained, 0 above\n", compared, bounds, migrating, attained);
    assert_true(compared == 20000);
    assert_true(bounds > 3000);
}

/* rtpack simulate's use: SCHED_RR simulated on one CPU (the example's two
 * tied tasks: no "sched_rr" left out), affinities in a gfp cluster. */
static void test_simulate_uses_them(void **state)
{
    (void)state;
    rtp_taskset ts;
    rtp_diag d;
    assert_int_equal(rtp_taskset_load(tu_source_path("examples/rr-tied.json"), 1 << 20, &ts, &d),
                     RTP_OK);
    rtp_simulate_opts o = rtp_simulate_opts_default(RTP_POLICY_FP);
    o.priority = RTP_PRIO_GIVEN;
    rtp_simulation r;
    assert_int_equal(rtp_simulate(&ts, &o, &r, &d), RTP_OK);
    assert_null(r.doc.not_simulated[0]);
    assert_int_equal(r.doc.tasks[2].response_max_ns, 38000000); /* logger: the bound, 38 ms */
    rtp_simulation_free(&r);
    o = rtp_simulate_opts_default(RTP_POLICY_GEDF); /* SCHED_RR is not simulated there */
    o.cpus_override = 2;
    assert_int_equal(rtp_simulate(&ts, &o, &r, &d), RTP_OK);
    assert_string_equal(r.doc.not_simulated[0], "sched_rr");
    rtp_simulation_free(&r);
    ts.platform.tick_ns = 3000000; /* does not divide 4 ms */
    o = rtp_simulate_opts_default(RTP_POLICY_FP);
    assert_int_equal(rtp_simulate(&ts, &o, &r, &d), RTP_EINPUT);
    assert_string_equal(d.path, "platform.tick");
    rtp_simulation_free(&r);
    rtp_taskset_free(&ts);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rr_hand_trace),
        cmocka_unit_test(test_rr_equals_reference),
        cmocka_unit_test(test_apa_hand_trace),
        cmocka_unit_test(test_apa_equals_reference),
        cmocka_unit_test(test_simulate_uses_them),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
