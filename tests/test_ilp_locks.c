/* tests/test_ilp_locks.c — the ILP with shared resources (ilp/ilp.h,
 * opts.colocate) against exhaustive search: on small seeded sets with
 * critical sections (PCP/SRP and FMLP+ resources, FP and EDF) every
 * assignment that keeps each resource's users on one CPU is checked with
 * the exact lock-aware analysis of the whole placement (solver/locks.h);
 * the ILP finds a plan exactly when one exists, its plan co-locates and
 * passes, and its "infeasible" is never wrong. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "gen/rng.h"
#include "ilp/ilp.h"
#include "solver/locks.h"
#include "support/testutil.h"

enum { MAXN = 7, MAXM = 3, MAXR = 3 };

typedef struct set {
    rtp_taskset ts;
    rtp_task tasks[MAXN];
    rtp_request rq[MAXN][MAXR];
    rtp_resource res[MAXR];
    char names[MAXN][24], res_names[MAXR][24]; /* "T" + any size_t */
    int cpus[MAXM];
    size_t m;
} set;

static void draw(set *s, rtp_rng *rng, int fmlp)
{
    static const rtp_ns periods[] = {10, 12, 15, 20, 24, 30, 40};
    memset(s, 0, sizeof *s);
    size_t n = (size_t)rtp_rng_range(rng, 3, MAXN), nres = (size_t)rtp_rng_range(rng, 1, MAXR);
    s->m = (size_t)rtp_rng_range(rng, 2, MAXM);
    s->ts.time_unit_ns = 1;
    s->ts.tasks = s->tasks;
    s->ts.n_tasks = n;
    s->ts.resources = s->res;
    s->ts.n_resources = nres;
    for (size_t j = 0; j < s->m; j++)
        s->cpus[j] = (int)j;
    for (size_t r = 0; r < nres; r++) {
        snprintf(s->res_names[r], sizeof s->res_names[r], "R%zu", r);
        s->res[r].name = s->res_names[r];
        s->res[r].protocol = fmlp ? RTP_LOCK_FMLP : RTP_LOCK_AUTO;
    }
    for (size_t i = 0; i < n; i++) {
        rtp_task *t = &s->tasks[i];
        snprintf(s->names[i], sizeof s->names[i], "T%zu", i);
        t->name = s->names[i];
        t->period_ns = periods[rtp_rng_range(rng, 0, 6)];
        t->wcet_ns = rtp_rng_range(rng, 1, t->period_ns * 2 / 3);
        t->deadline_ns = rtp_rng_range(rng, t->wcet_ns, t->period_ns);
        t->requests = s->rq[i];
        rtp_ns room = t->wcet_ns;
        for (size_t r = 0; r < nres && room > 0; r++) {
            if (rtp_rng_range(rng, 0, 2) != 0)
                continue;
            rtp_request *q = &s->rq[i][t->n_requests++];
            q->resource = r;
            q->susp = fmlp;
            q->count = 1;
            q->length_ns = rtp_rng_range(rng, 1, room);
            room -= q->length_ns;
        }
    }
}

static int shares(const rtp_task *a, const rtp_task *b)
{
    for (size_t x = 0; x < a->n_requests; x++)
        for (size_t y = 0; y < b->n_requests; y++)
            if (a->requests[x].resource == b->requests[y].resource)
                return 1;
    return 0;
}

/* Does the assignment keep every resource's users on one CPU, and pass? */
static int passes(const set *s, const size_t *cpu, const rtp_test *test)
{
    size_t n = s->ts.n_tasks;
    for (size_t a = 0; a < n; a++)
        for (size_t b = a + 1; b < n; b++)
            if (cpu[a] != cpu[b] && shares(&s->tasks[a], &s->tasks[b]))
                return 0;
    rtp_locks_task out[MAXN];
    int sched;
    rtp_diag d = {0};
    assert_int_equal(rtp_locks_partitioned(s->res, s->ts.n_resources, s->tasks, n, cpu, s->m,
                                           test, &sched, out, &d),
                     RTP_OK);
    return sched;
}

/* Some co-located assignment passes (every one of m^n). */
static int exists(const set *s, const rtp_test *test)
{
    size_t n = s->ts.n_tasks, cpu[MAXN] = {0};
    for (;;) {
        if (passes(s, cpu, test))
            return 1;
        size_t i = 0;
        while (i < n && ++cpu[i] == s->m)
            cpu[i++] = 0;
        if (i == n)
            return 0;
    }
}

static void against_search(void **state)
{
    (void)state;
    int feasible = 0, infeasible = 0;
    for (int x = 0; x < 1000; x++) {
        rtp_rng rng = rtp_rng_stream(24, 2, (uint64_t)x);
        int fmlp = x % 3 == 2;
        rtp_policy policy = fmlp || x % 2 ? RTP_POLICY_FP : RTP_POLICY_EDF;
        set s;
        draw(&s, &rng, fmlp);
        rtp_ilp_opts o = rtp_ilp_opts_default();
        o.part.policy = policy;
        o.time_limit_s = 30.0;
        o.colocate = 1;
        rtp_test test = rtp_test_exact(policy, o.part.priority, 1, o.part.limits);
        int want = exists(&s, &test);
        rtp_plan p;
        rtp_ilp_status status;
        rtp_diag d = {0};
        assert_int_equal(rtp_ilp_solve(&s.ts, s.cpus, s.m, &o, &p, &status, NULL, &d), RTP_OK);
        if (want != (status == RTP_ILP_OPTIMAL))
            fail_msg("set %d: exhaustive search %d, ILP %s", x, want,
                     rtp_ilp_status_name(status));
        if (status == RTP_ILP_OPTIMAL) {
            size_t cpu[MAXN];
            int locks = rtp_tasks_have_requests(s.tasks, s.ts.n_tasks);
            assert_true(p.feasible);
            assert_int_equal(p.n_resources, locks ? s.ts.n_resources : 0);
            for (size_t j = 0; j < p.n_bins; j++)
                for (size_t k = 0; k < p.bins[j].n_tasks; k++) {
                    const rtp_plan_task *pt = &p.bins[j].tasks[k];
                    assert_int_equal(pt->has_locks, locks);
                    cpu[pt->task.name[1] - '0'] = j;
                }
            assert_true(passes(&s, cpu, &test));
            feasible++;
        } else {
            assert_int_equal(status, RTP_ILP_INFEASIBLE);
            infeasible++;
        }
        rtp_plan_free(&p);
    }
    fprintf(stderr, "ilp --colocate: %d feasible, %d infeasible, all as exhaustive search\n",
            feasible, infeasible);
    assert_true(feasible > 40 && infeasible > 40);
}

/* Without colocate a set with requests is refused (exit 2), never solved
 * in a model that cannot see MSRP's spin. */
static void needs_colocate(void **state)
{
    (void)state;
    rtp_rng rng = rtp_rng_stream(24, 3, 0);
    set s;
    do
        draw(&s, &rng, 0);
    while (!rtp_tasks_have_requests(s.tasks, s.ts.n_tasks));
    rtp_ilp_opts o = rtp_ilp_opts_default();
    rtp_plan p;
    rtp_ilp_status status;
    rtp_diag d = {0};
    assert_int_equal(rtp_ilp_solve(&s.ts, s.cpus, s.m, &o, &p, &status, NULL, &d), RTP_EINPUT);
    assert_string_equal(d.path, "resources");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(needs_colocate),
        cmocka_unit_test(against_search),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
