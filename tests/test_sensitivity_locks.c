/* tests/test_sensitivity_locks.c — solver/sensitivity_locks.h: wcet_max of
 * tasks that share resources.
 *
 * On thousands of seeded small placements (1-3 CPUs, 2-5 tasks, 1-2
 * resources; PCP/SRP and MSRP under FP with DM and OPA and under EDF, FMLP+
 * under FP with DM (with OPA it is refused: the witness below); release jitter, given blocking and a context switch on some),
 * every task's wcet_max against an upward scan of the lock-aware exact test
 * (rtp_locks_partitioned, the whole placement): every wcet from the declared
 * one up to min(D - J, T) is tried, so the scan finds the largest accepted
 * wcet by its definition AND checks that nothing above the first rejection
 * is accepted again (the monotonicity bisection relies on); -1 everywhere
 * exactly when the placement fails as given. Then the CLI path: analyze and
 * partition --sensitivity of the example set. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "gen/rng.h"
#include "models/effective.h"
#include "solver/locks.h"
#include "solver/sensitivity_locks.h"
#include "support/testutil.h"

#include <stdlib.h>
#include <string.h>

enum { MAXT = 5, MAXR = 2 };

typedef struct draw {
    rtp_task t[MAXT];
    rtp_request rq[MAXT][MAXR];
    rtp_resource res[MAXR];
    size_t cpu[MAXT];
    size_t n, cpus, nres;
    rtp_overheads ov;
    rtp_test test;
} draw;

static void draw_set(draw *d, rtp_rng *rng, int kind)
{
    static const int periods[] = {6, 8, 10, 12, 15, 20, 24, 30};
    static char *names[MAXR] = {"R1", "R2"};
    memset(d, 0, sizeof *d);
    int fmlp = kind == 3, edf = kind == 2;
    d->cpus = (size_t)rtp_rng_range(rng, 1, 3);
    d->n = (size_t)rtp_rng_range(rng, 2, MAXT);
    d->nres = (size_t)rtp_rng_range(rng, 1, MAXR);
    for (size_t r = 0; r < d->nres; r++) {
        d->res[r].name = names[r];
        d->res[r].protocol = fmlp ? RTP_LOCK_FMLP
                             : rtp_rng_range(rng, 0, 3) == 0 ? RTP_LOCK_MSRP : RTP_LOCK_AUTO;
    }
    if (!fmlp && rtp_rng_range(rng, 0, 4) == 0)
        d->ov.context_switch_ns = 1;
    for (size_t i = 0; i < d->n; i++) {
        rtp_task *t = &d->t[i];
        t->period_ns = periods[rtp_rng_range(rng, 0, 7)];
        t->wcet_ns = rtp_rng_range(rng, 1, t->period_ns / 3 > 1 ? t->period_ns / 3 : 1);
        t->deadline_ns = rtp_rng_range(rng, t->wcet_ns + 2, t->period_ns);
        if (rtp_rng_range(rng, 0, 4) == 0)
            t->jitter_ns = rtp_rng_range(rng, 1, 2);
        if (rtp_rng_range(rng, 0, 5) == 0)
            t->blocking_ns = rtp_rng_range(rng, 1, 2);
        t->requests = d->rq[i];
        d->cpu[i] = (size_t)rtp_rng_range(rng, 0, (int64_t)d->cpus - 1);
        rtp_ns room = t->wcet_ns;
        for (size_t r = 0; r < d->nres && room > 0; r++) {
            if (rtp_rng_range(rng, 0, 2) == 0)
                continue;
            rtp_request *q = &d->rq[i][t->n_requests++];
            q->resource = r;
            q->np = d->res[r].protocol == RTP_LOCK_MSRP; /* as the reader marks them */
            q->susp = fmlp;
            q->count = rtp_rng_range(rng, 1, room >= 2 ? 2 : 1);
            q->length_ns = rtp_rng_range(rng, 1, room / q->count);
            room -= q->count * q->length_ns;
        }
    }
    rtp_prio_rule rule = kind == 0 || kind == 3 ? RTP_PRIO_DM : RTP_PRIO_OPA;
    d->test = rtp_test_exact(edf ? RTP_POLICY_EDF : RTP_POLICY_FP, rule, 1, rtp_limits_default());
}

/* The placement with task i at wcet x passes the lock-aware exact test. */
static int passes(draw *d, size_t i, rtp_ns x)
{
    rtp_task decl[MAXT], eff[MAXT];
    rtp_locks_task out[MAXT];
    memcpy(decl, d->t, d->n * sizeof *decl);
    decl[i].wcet_ns = x;
    rtp_diag diag = {0};
    int ok = 0;
    assert_int_equal(rtp_effective_tasks(decl, d->n, &d->ov, d->test.policy, eff, &diag), RTP_OK);
    assert_int_equal(rtp_locks_partitioned(d->res, d->nres, eff, d->n, d->cpu, d->cpus, &d->test,
                                           &ok, out, &diag),
                     RTP_OK);
    return ok;
}

static void against_scan(void **state)
{
    (void)state;
    int sets = 6000, schedulable = 0, answers = 0, raised = 0;
    for (int x = 0; x < sets; x++) {
        rtp_rng rng = rtp_rng_stream(27, 24, (uint64_t)x);
        draw d;
        draw_set(&d, &rng, x % 4);
        rtp_ns wmax[MAXT];
        rtp_diag diag = {0};
        assert_int_equal(rtp_sensitivity_locks_wcet_max(&d.test, d.res, d.nres, d.t, d.n, d.cpu,
                                                        d.cpus, &d.ov, wmax, &diag),
                         RTP_OK);
        int given = passes(&d, 0, d.t[0].wcet_ns);
        schedulable += given;
        for (size_t i = 0; i < d.n; i++) {
            if (!given) {
                assert_int_equal(wmax[i], -1);
                continue;
            }
            rtp_ns cap = d.t[i].deadline_ns - d.t[i].jitter_ns, best = d.t[i].wcet_ns;
            cap = cap < d.t[i].period_ns ? cap : d.t[i].period_ns;
            int failed = 0;
            for (rtp_ns w = d.t[i].wcet_ns + 1; w <= cap + 1; w++) {
                int ok = passes(&d, i, w);
                if (ok && failed)
                    fail_msg("set %d task %zu: rejected below %lld, accepted again at %lld", x,
                             i, (long long)best + 1, (long long)w);
                if (ok)
                    best = w;
                failed |= !ok;
            }
            if (wmax[i] != best)
                fail_msg("set %d task %zu: wcet_max %lld, the scan %lld", x, i,
                         (long long)wmax[i], (long long)best);
            answers++;
            raised += best > d.t[i].wcet_ns;
        }
    }
    print_message("%d sets, %d pass as given, %d wcet_max checked (%d above the declared)\n",
                  sets, schedulable, answers, raised);
    assert_true(schedulable > sets / 4 && raised > answers / 2); /* the check has teeth */
}

/* FMLP+ under OPA is refused, and the witness of why: one CPU, the OPA
 * verdict accepts x = 3 and 6 and rejects 4 and 5. */
static void fmlp_opa_refused(void **state)
{
    (void)state;
    draw d;
    memset(&d, 0, sizeof d);
    d.n = 2;
    d.cpus = 1;
    d.nres = 1;
    d.res[0] = (rtp_resource){"R1", RTP_LOCK_FMLP, 0};
    d.rq[0][0] = (rtp_request){.resource = 0, .count = 2, .length_ns = 1, .susp = 1};
    d.rq[1][0] = (rtp_request){.resource = 0, .count = 1, .length_ns = 3, .susp = 1};
    d.t[0] = tu_task(3, 9, 10);
    d.t[1] = tu_task(3, 10, 12);
    d.t[1].jitter_ns = 2;
    for (size_t i = 0; i < 2; i++) {
        d.t[i].requests = d.rq[i];
        d.t[i].n_requests = 1;
    }
    d.test = rtp_test_exact(RTP_POLICY_FP, RTP_PRIO_OPA, 1, rtp_limits_default());
    int want[] = {1, 0, 0, 1};
    for (int x = 3; x <= 6; x++)
        assert_int_equal(passes(&d, 0, x), want[x - 3]);
    rtp_ns wmax[2];
    rtp_diag diag = {0};
    assert_int_equal(rtp_sensitivity_locks_wcet_max(&d.test, d.res, 1, d.t, 2, d.cpu, 1, &d.ov,
                                                    wmax, &diag),
                     RTP_EINPUT);
    assert_non_null(strstr(diag.message, "not monotone"));
    d.test = rtp_test_exact(RTP_POLICY_FP, RTP_PRIO_DM, 1, rtp_limits_default());
    assert_int_equal(rtp_sensitivity_locks_wcet_max(&d.test, d.res, 1, d.t, 2, d.cpu, 1, &d.ov,
                                                    wmax, &diag),
                     RTP_OK);
    assert_int_equal(wmax[0], 3); /* DM: T0 above T1, 4 fails (blocking 9) */
}

/* The CLI: analyze and partition give wcet_max and say why no factor. */
static void cli_paths(void **state)
{
    (void)state;
    const char *ex = tu_source_path("examples/shared_resources.json");
    char args[1024], *out = NULL, *err = NULL;
    snprintf(args, sizeof args, "partition %s --cpus 2 --policy fp --sensitivity --json", ex);
    assert_int_equal(tu_run_cli(args, NULL, &out, &err), 0);
    assert_non_null(strstr(out, "\"wcet_max\""));
    assert_null(strstr(out, "critical_scaling_factor\""));
    free(out);
    free(err);
    snprintf(args, sizeof args, "partition %s --cpus 2 --policy fp --sensitivity", ex);
    assert_int_equal(tu_run_cli(args, NULL, &out, &err), 0);
    assert_non_null(strstr(out, "not computed for a set with shared resources"));
    free(out);
    free(err);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(against_scan),
        cmocka_unit_test(fmlp_opa_refused),
        cmocka_unit_test(cli_paths),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
