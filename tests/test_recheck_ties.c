/* tests/test_recheck_ties.c — emit's re-check (deploy/recheck.c) of plans
 * whose CPU holds tied priorities with deadlines past their periods. Linux
 * runs a late tied thread's next job before tied jobs released earlier
 * (docs/spec.md "SCHED_RR", "Priorities"); solver/fp.c counts such a thread
 * as higher priority for its peers and solver/rr.c's bounds hold for any
 * order among equals, so the re-check no longer refuses these plans: it
 * analyses them. The reference is the unit-step simulation of Linux's run
 * lists (tests/support/rr_reference.h, SCHED_FIFO and SCHED_RR): seeded
 * one-CPU plans with ties, deadlines up to three periods, jitter, FIFO, RR
 * and mixed levels; every plan the re-check takes shows no simulated
 * response past its deadline. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "deploy/options.h"
#include "deploy/recheck.h"
#include "models/plan.h"
#include "support/rr_reference.h"
#include "support/testutil.h"

#define MAXN RR_REF_MAXN

static void test_late_ties_against_simulation(void **state)
{
    (void)state;
    tu_rng rng = {28202};
    rtp_deploy_opts opts = rtp_deploy_opts_default();
    int taken = 0, refused = 0, undecided = 0, late_ties = 0, past_period = 0;
    char names[MAXN][24];
    for (int k = 0; k < 3000; k++) {
        rtp_task ts[MAXN];
        int prio[MAXN];
        rtp_ns q, p;
        size_t n = rr_ref_random_set(&rng, ts, prio, &q, &p);
        int tied_late = 0;
        for (size_t i = 0; i < n; i++) {
            if (tu_range(&rng, 0, 2) == 0) /* a deadline past the period */
                ts[i].deadline_ns = ts[i].period_ns + tu_range(&rng, 1, 2 * ts[i].period_ns);
            snprintf(names[i], sizeof names[i], "t%zu", i);
            ts[i].name = names[i];
        }
        for (size_t i = 0; i < n; i++)
            for (size_t j = 0; j < n; j++)
                tied_late |= j != i && prio[j] == prio[i] && ts[i].deadline_ns > ts[i].period_ns;
        if (!tied_late)
            continue;
        rtp_plan plan;
        int cpu = 0;
        assert_int_equal(rtp_plan_init_cpus(&plan, RTP_POLICY_FP, &cpu, 1), RTP_OK);
        plan.feasible = 1;
        plan.rr_quantum_ns = q;
        plan.tick_ns = p;
        for (size_t i = 0; i < n; i++)
            assert_int_equal(rtp_plan_add_task(&plan, 0, &ts[i], prio[i], -1), RTP_OK);
        int deployable = -1;
        rtp_diag diag;
        rtp_diag_clear(&diag);
        rtp_status st = rtp_deploy_check(&plan, &opts, &deployable, &diag);
        rtp_plan_free(&plan);
        late_ties++;
        if (st == RTP_ELIMIT) { /* SCHED_RR's busy window near a level utilization of 1 */
            undecided++;
            continue;
        }
        assert_int_equal(st, RTP_OK);
        if (!deployable) {
            refused++;
            continue;
        }
        taken++;
        rtp_ns best[MAXN];
        rr_ref_worst(ts, n, prio, q, p, 30, &rng, best);
        for (size_t i = 0; i < n; i++) {
            if (best[i] > ts[i].deadline_ns)
                fail_msg("set %d task %zu: re-check took it, simulated %lld > deadline %lld", k,
                         i, (long long)best[i], (long long)ts[i].deadline_ns);
            past_period += best[i] > ts[i].period_ns;
        }
    }
    print_message("recheck ties: %d plans with a tied deadline past its period, %d taken, %d "
                  "refused, %d at the iteration limit; %d simulated responses past the period, "
                  "0 past the deadline\n",
                  late_ties, taken, refused, undecided, past_period);
    assert_true(taken > 300 && refused > 100 && past_period > 30);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_late_ties_against_simulation),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
