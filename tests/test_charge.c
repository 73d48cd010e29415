/* tests/test_charge.c — the SCHED_DEADLINE charge and the noise
 * (docs/spec.md "The SCHED_DEADLINE charge") where users meet them: the
 * analysis of a declared set, partitioning (a heuristic and the ILP) and
 * emit's runtimes and re-check, each against a slow reference that computes
 * C' on its own (ref_c below, not models/effective.c) and decides with
 * demand enumeration over the hyperperiod (EDF) or simulation of release
 * patterns (FP), on thousands of seeded small sets. A consumer that forgot
 * a term, or applied the charge under FP, fails here. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "deploy/recheck.h"
#include "heuristics/partition.h"
#include "ilp/ilp.h"
#include "models/effective.h"
#include "solver/fp.h"
#include "solver/schedtest.h"
#include "support/reference.h"
#include "support/testutil.h"

#define MAXN 6

static const rtp_ns periods[] = {4, 5, 6, 8, 10, 12, 15, 20, 30, 40};

/* C' and J' as the contract writes them, in 128 bits. */
static rtp_ns ref_c(const rtp_task *t, const rtp_overheads *ov, int deadline)
{
    __int128 w = t->wcet_ns;
    __int128 c = w + (w * ov->noise_per_ms_ns + 999999) / 1000000 + 2 * ov->context_switch_ns +
                 (deadline ? ov->deadline_charge_ns : 0);
    return (rtp_ns)c;
}

static void ref_effective(const rtp_task *ts, size_t n, const rtp_overheads *ov, int deadline,
                          rtp_task *out)
{
    for (size_t i = 0; i < n; i++) {
        out[i] = ts[i];
        out[i].wcet_ns = ref_c(&ts[i], ov, deadline);
        out[i].jitter_ns = ts[i].jitter_ns + ov->release_latency_ns;
    }
}

/* A small set at a random load with random overheads; noise shares large
 * enough (25 % to ~100 %) that tiny wcets feel them. */
static size_t random_set(tu_rng *rng, rtp_task *ts, rtp_overheads *ov, size_t max_n)
{
    size_t n = (size_t)tu_range(rng, 1, (int64_t)max_n);
    for (size_t i = 0; i < n; i++) {
        rtp_ns t = periods[tu_range(rng, 0, 9)];
        rtp_ns c = tu_range(rng, 1, t / 3 + 1);
        rtp_ns d = tu_range(rng, 0, 2) ? t : tu_range(rng, c, t);
        ts[i] = tu_task(c, d, t);
        if (tu_range(rng, 0, 4) == 0)
            ts[i].jitter_ns = tu_range(rng, 0, 1);
    }
    memset(ov, 0, sizeof *ov);
    ov->context_switch_ns = tu_range(rng, 0, 3) == 0;
    ov->release_latency_ns = tu_range(rng, 0, 5) == 0;
    ov->deadline_charge_ns = tu_range(rng, 0, 2);
    static const rtp_ns shares[] = {0, 0, 250000, 500000, 999999};
    ov->noise_per_ms_ns = shares[tu_range(rng, 0, 4)];
    return n;
}

static int edf_ref(const rtp_task *ts, size_t n, const rtp_overheads *ov)
{
    rtp_task e[MAXN];
    ref_effective(ts, n, ov, 1, e);
    rtp_ns miss;
    return ref_edf_enumerate(e, n, &miss);
}

/* analyze: EDF with the charge against demand enumeration; FP (DM) without
 * it against simulated release patterns (exact bound = largest response). */
static void test_analysis_vs_reference(void **state)
{
    (void)state;
    tu_rng rng = {2212};
    rtp_limits lim = rtp_limits_default();
    int edf_yes = 0, edf_no = 0, charge_decides = 0, fp_met = 0;
    for (int k = 0; k < 3000; k++) {
        rtp_task ts[MAXN];
        rtp_overheads ov;
        size_t n = random_set(&rng, ts, &ov, 4);
        rtp_status st;
        rtp_task *e = rtp_effective_new(ts, n, &ov, RTP_POLICY_EDF, &st, NULL);
        assert_non_null(e);
        rtp_test edf = rtp_test_exact(RTP_POLICY_EDF, RTP_PRIO_OPA, 1, lim);
        rtp_test_result r;
        memset(&r, 0, sizeof r);
        assert_int_equal(rtp_test_run(&edf, e, n, &r, NULL), RTP_OK);
        int ref = edf_ref(ts, n, &ov);
        assert_int_equal(r.schedulable, ref);
        edf_yes += ref;
        edf_no += !ref;
        rtp_overheads free_ov = ov;
        free_ov.deadline_charge_ns = 0;
        charge_decides += !ref && edf_ref(ts, n, &free_ov);
        free(e);

        /* FP under DM: no charge; the noise and switches are in C' */
        e = rtp_effective_new(ts, n, &ov, RTP_POLICY_FP, &st, NULL);
        assert_non_null(e);
        rtp_task ref_e[MAXN];
        ref_effective(ts, n, &ov, 0, ref_e);
        int prio[MAXN], found;
        rtp_ns resp[MAXN];
        for (size_t i = 0; i < n; i++)
            assert_int_equal(e[i].wcet_ns, ref_e[i].wcet_ns);
        assert_int_equal(rtp_fp_assign(ref_e, n, RTP_PRIO_DM, prio, &found, &lim, NULL), RTP_OK);
        int sched;
        assert_int_equal(rtp_fp_rta(e, n, prio, resp, &sched, &lim, NULL), RTP_OK);
        rtp_ns horizon, until;
        ref_fp_horizon(ref_e, n, &horizon, &until);
        for (size_t i = 0; i < n; i++) {
            if (resp[i] < 0)
                continue;
            ref_fp_acc acc = {0, 0, 0};
            ref_fp_critical(ref_e, n, prio, i, horizon, until, &acc);
            assert_false(acc.late);
            assert_false(acc.incomplete);
            assert_int_equal(acc.best, resp[i]);
            fp_met++;
        }
        free(e);
    }
    print_message("edf schedulable %d, not %d (the charge decides %d); fp bounds %d\n", edf_yes,
                  edf_no, charge_decides, fp_met);
    assert_true(edf_yes > 300 && edf_no > 300 && charge_decides > 100 && fp_met > 2000);
}

/* Every way to put n tasks on m CPUs, each CPU judged by the reference. */
static int exhaustive(const rtp_task *ts, size_t n, const rtp_overheads *ov, int m)
{
    int assign[MAXN] = {0};
    for (;;) {
        int ok = 1;
        for (int c = 0; c < m && ok; c++) {
            rtp_task bin[MAXN];
            size_t k = 0;
            for (size_t i = 0; i < n; i++)
                if (assign[i] == c)
                    bin[k++] = ts[i];
            ok = edf_ref(bin, k, ov);
        }
        if (ok)
            return 1;
        size_t i = 0;
        while (i < n && ++assign[i] == m)
            assign[i++] = 0;
        if (i == n)
            return 0;
    }
}

static void bins_hold(const rtp_plan *plan, const rtp_overheads *ov)
{
    for (size_t j = 0; j < plan->n_bins; j++) {
        rtp_task bin[MAXN];
        for (size_t i = 0; i < plan->bins[j].n_tasks; i++)
            bin[i] = plan->bins[j].tasks[i].task;
        assert_true(edf_ref(bin, plan->bins[j].n_tasks, ov));
    }
}

/* partition: ffd's plans and the ILP's hold by the reference; the ILP is
 * exact (a plan exactly when the exhaustive search finds one). */
static void test_partition_vs_exhaustive(void **state)
{
    (void)state;
    tu_rng rng = {2213};
    int cpus[2] = {0, 1}, feasible = 0, infeasible = 0;
    for (int k = 0; k < 300; k++) {
        rtp_taskset set;
        memset(&set, 0, sizeof set);
        rtp_task ts[MAXN];
        size_t n = random_set(&rng, ts, &set.platform.overheads, MAXN);
        for (size_t i = 0; i < n; i++) /* heavier tasks: two CPUs matter */
            ts[i].wcet_ns = tu_range(&rng, 1, ts[i].deadline_ns / 2 + 1);
        set.tasks = ts;
        set.n_tasks = n;
        set.time_unit_ns = 1;
        const rtp_overheads *ov = &set.platform.overheads;
        int any = exhaustive(ts, n, ov, 2);
        rtp_part_opts po = rtp_part_opts_default();
        po.policy = RTP_POLICY_EDF;
        rtp_plan plan;
        assert_int_equal(rtp_part_pack(&set, cpus, 2, &po, &plan, NULL), RTP_OK);
        if (plan.feasible)
            bins_hold(&plan, ov);
        assert_true(!plan.feasible || any);
        rtp_plan_free(&plan);

        rtp_ilp_opts io = rtp_ilp_opts_default();
        io.part = po;
        io.time_limit_s = 30;
        rtp_ilp_status status;
        assert_int_equal(rtp_ilp_solve(&set, cpus, 2, &io, &plan, &status, NULL, NULL), RTP_OK);
        assert_int_equal(status == RTP_ILP_OPTIMAL, any);
        assert_int_equal(status == RTP_ILP_INFEASIBLE, !any);
        if (plan.feasible)
            bins_hold(&plan, ov);
        feasible += any;
        infeasible += !any;
        rtp_plan_free(&plan);
    }
    print_message("feasible %d, infeasible %d\n", feasible, infeasible);
    assert_true(feasible > 50 && infeasible > 50);
}

/* emit: runtime = min(ceil(C' (1 + margin)), D) with the charge, and the
 * re-check refuses exactly the plans whose runtimes fail the reference. */
static void test_emit_runtimes(void **state)
{
    (void)state;
    tu_rng rng = {2214};
    int cpu = 0, refused = 0, taken = 0;
    for (int k = 0; k < 1500; k++) {
        rtp_task ts[MAXN];
        rtp_overheads ov;
        size_t n = random_set(&rng, ts, &ov, 4);
        for (size_t i = 0; i < n; i++) /* periods of 0.4 to 4 ms, as Linux takes them */
            ts[i].wcet_ns *= 100000, ts[i].deadline_ns *= 100000, ts[i].period_ns *= 100000;
        ov.deadline_charge_ns *= 50000;
        rtp_plan plan;
        memset(&plan, 0, sizeof plan);
        assert_int_equal(rtp_plan_init_cpus(&plan, RTP_POLICY_EDF, &cpu, 1), RTP_OK);
        plan.overheads = ov;
        for (size_t i = 0; i < n; i++) {
            char name[24];
            snprintf(name, sizeof name, "t%zu", i);
            ts[i].name = name;
            assert_int_equal(rtp_plan_add_task(&plan, 0, &ts[i], 0, -1), RTP_OK);
            ts[i].name = NULL;
        }
        plan.feasible = 1;
        rtp_deploy_opts opts = rtp_deploy_opts_default();
        opts.budget = (rtp_ratio){1, 1};
        opts.runtime_margin = (rtp_ratio){tu_range(&rng, 0, 2), 10};
        rtp_task with_runtime[MAXN];
        for (size_t i = 0; i < n; i++) {
            rtp_ns r = -1, c = ref_c(&ts[i], &ov, 1);
            assert_int_equal(rtp_deploy_runtime(&plan, &plan.bins[0].tasks[i].task, &opts, &r,
                                                NULL), RTP_OK);
            __int128 want = ((__int128)c * (opts.runtime_margin.den + opts.runtime_margin.num) +
                             opts.runtime_margin.den - 1) / opts.runtime_margin.den;
            if (want > ts[i].deadline_ns)
                want = c > ts[i].deadline_ns ? c : ts[i].deadline_ns;
            assert_int_equal(r, (rtp_ns)want);
            with_runtime[i] = ts[i];
            with_runtime[i].wcet_ns = r;
            with_runtime[i].jitter_ns = ts[i].jitter_ns + ov.release_latency_ns;
        }
        int want_ok = 1;
        for (size_t i = 0; i < n; i++) /* Linux: runtime <= deadline */
            want_ok &= with_runtime[i].wcet_ns <= with_runtime[i].deadline_ns;
        /* EDF on the runtimes: the worst release pattern simulated */
        want_ok = want_ok && ref_edf_simulate(with_runtime, n) == 0;
        int deployable = -1;
        rtp_diag d;
        rtp_diag_clear(&d);
        assert_int_equal(rtp_deploy_check(&plan, &opts, &deployable, &d), RTP_OK);
        if (deployable != want_ok)
            print_error("set %d: deployable %d, reference %d (%s)\n", k, deployable, want_ok,
                        d.message);
        assert_int_equal(deployable, want_ok);
        refused += !deployable;
        taken += deployable;
        rtp_plan_free(&plan);
    }
    print_message("emit took %d, refused %d\n", taken, refused);
    assert_true(taken > 200 && refused > 200);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_analysis_vs_reference),
        cmocka_unit_test(test_partition_vs_exhaustive),
        cmocka_unit_test(test_emit_runtimes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
