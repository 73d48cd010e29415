/* tests/test_fmlp.c — solver/fmlp.h against a slow reference
 * (tests/support/fmlp_reference.c, shared with test_sim_locks): a unit-step
 * simulation of partitioned FP with the preemptive FMLP+ [Bra11] (a job
 * whose request finds the resource held suspends in its FIFO queue; a
 * holder is boosted above every non-boosted job of its CPU, boosted jobs in
 * the order of their requests; hand-over at the release) on thousands of
 * tiny seeded sets on 1-3 CPUs, across release offsets, sporadic delays,
 * release jitter, section positions and jobs shorter than their wcet (the
 * self-suspension anomalies); plus SchedCAT's numbers on a recorded corpus
 * [SchedCAT] and the worked example of docs/spec.md. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/testutil.h"

#include "gen/rng.h"
#include "models/effective.h"
#include "models/taskset.h"
#include "solver/fmlp.h"
#include "support/fmlp_reference.h"

enum { MAXT = FMLP_REF_MAXT, MAXR = FMLP_REF_MAXR, MAXSEG = FMLP_REF_MAXSEG,
       MAXJ = FMLP_REF_MAXJ };

typedef fmlp_ref sim;
typedef fmlp_ref_seg seg;
typedef fmlp_ref_job job;
typedef fmlp_ref_set draw;


/* Job j's plan: its sections (at most count per request, each 1..length
 * long, mostly the maximum) in a random order, plain execution (mostly all
 * that is left of the wcet) split around them. */
static void make_job(sim *s, size_t i, int arrival, int release, rtp_rng *rng)
{
    job *j = fmlp_ref_job_new(s, i, arrival, release);
    const rtp_task *t = &s->t[i];
    seg cs[MAXSEG];
    int ns = 0, used = 0;
    for (size_t k = 0; k < t->n_requests; k++)
        for (rtp_ns c = 0; c < t->requests[k].count && ns < MAXSEG / 2 - 1; c++) {
            if (rtp_rng_range(rng, 0, 5) == 0)
                continue; /* a request not issued */
            int len = (int)t->requests[k].length_ns;
            if (rtp_rng_range(rng, 0, 3) == 0)
                len = (int)rtp_rng_range(rng, 1, len);
            cs[ns].res = (int)t->requests[k].resource;
            cs[ns++].len = len;
            used += len;
        }
    for (int a = ns - 1; a > 0; a--) {
        int b = (int)rtp_rng_range(rng, 0, a);
        seg x = cs[a];
        cs[a] = cs[b];
        cs[b] = x;
    }
    int plain = (int)t->wcet_ns - used;
    if (rtp_rng_range(rng, 0, 3) == 0)
        plain = (int)rtp_rng_range(rng, 0, plain);
    /* plain execution cut at ns random points */
    for (int k = 0; k <= ns; k++) {
        int piece = k == ns ? plain : (int)rtp_rng_range(rng, 0, plain);
        plain -= piece;
        if (piece > 0)
            j->segs[j->nseg++] = (seg){-1, piece};
        if (k < ns)
            j->segs[j->nseg++] = cs[k];
    }
    fmlp_ref_job_ready(j);
}

/* One release pattern: the largest response per task (from arrival), -1
 * when a job of it did not finish within the horizon. */
static void simulate(sim *s, rtp_rng *rng, int horizon, int *worst)
{
    fmlp_ref_clear(s);
    int tmax = 0;
    for (size_t i = 0; i < s->n; i++) {
        worst[i] = 0;
        s->head[i] = s->njobs;
        int a = (int)rtp_rng_range(rng, 0, (int)s->t[i].period_ns);
        if (rtp_rng_range(rng, 0, 2) == 0)
            a = 0; /* synchronous releases are often worst */
        while (a < horizon && s->njobs < MAXT * MAXJ) {
            int j = (int)s->t[i].jitter_ns;
            int rel = a + (j && rtp_rng_range(rng, 0, 1) ? (int)rtp_rng_range(rng, 0, j) : 0);
            make_job(s, i, a, rel, rng);
            a += (int)s->t[i].period_ns + (rtp_rng_range(rng, 0, 4) == 0
                                               ? (int)rtp_rng_range(rng, 1, 4) : 0);
        }
        s->last[i] = s->njobs;
        if (a > tmax)
            tmax = a;
    }
    int finish[MAXT * MAXJ];
    fmlp_ref_run(s, tmax + horizon, finish);
    for (int k = 0; k < s->njobs; k++) {
        const job *j = &s->jobs[k];
        int r = finish[k] < 0 ? -1 : finish[k] - j->arrival;
        if (worst[j->task] >= 0 && (r < 0 || r > worst[j->task]))
            worst[j->task] = r;
    }
}



/* rtp_fmlp_partitioned of d with the overheads ov (through
 * rtp_effective_tasks, as every command does); *d
 * is then replaced by the set with what the simulation runs as plain work
 * written out (docs/spec.md "Lock overheads"): each section lock longer,
 * each job count x lock + 2 x context_switch longer, the release latency
 * added to the jitter; a suspension's switches and wake-up the simulation
 * runs as events (sim.sw, sim.wake). With the lock overhead alone the
 * analysis equals, term for term, the analysis of the written-out set. */
static void analyse_with_overheads(draw *d, const rtp_overheads *ov, rtp_prio_rule rule,
                                   int *sched, rtp_locks_task *out, rtp_locks_task *naive)
{
    rtp_limits lim = rtp_limits_default();
    rtp_diag diag = {0};
    int found;
    draw y = *d;
    for (size_t i = 0; i < y.n; i++) {
        y.t[i].requests = y.rq[i];
        y.t[i].wcet_ns += 2 * ov->context_switch_ns;
        y.t[i].jitter_ns += ov->release_latency_ns;
        for (size_t q = 0; q < y.t[i].n_requests; q++) {
            y.rq[i][q].length_ns += ov->lock_ns;
            y.t[i].wcet_ns += y.rq[i][q].count * ov->lock_ns;
        }
    }
    rtp_task eff[MAXT];
    assert_int_equal(rtp_effective_tasks(d->t, d->n, ov, RTP_POLICY_FP, eff, &diag), RTP_OK);
    assert_int_equal(rtp_fmlp_partitioned(eff, d->n, d->cpu, d->cpus, rule, &lim, sched, &found,
                                          out, &diag),
                     RTP_OK);
    /* the teeth: the same analysis without the per-suspension switches and
     * wake-ups (the overheads of a job without locks only) */
    for (size_t i = 0; i < d->n; i++) {
        for (size_t q = 0; q < d->t[i].n_requests; q++)
            if (d->rq[i][q].susp)
                eff[i].wcet_ns -= 3 * d->rq[i][q].count * ov->context_switch_ns;
        eff[i].charged.context_switch_ns = eff[i].charged.release_latency_ns = 0;
    }
    int sched_naive;
    assert_int_equal(rtp_fmlp_partitioned(eff, d->n, d->cpu, d->cpus, rule, &lim, &sched_naive,
                                          &found, naive, &diag),
                     RTP_OK);
    if (ov->context_switch_ns == 0 && ov->release_latency_ns == 0) {
        rtp_locks_task outy[MAXT];
        int sched_y;
        assert_int_equal(rtp_fmlp_partitioned(y.t, y.n, y.cpu, y.cpus, rule, &lim, &sched_y,
                                              &found, outy, &diag),
                         RTP_OK);
        assert_int_equal(*sched, sched_y);
        for (size_t i = 0; i < d->n; i++) {
            assert_int_equal(out[i].response_ns, outy[i].response_ns);
            assert_int_equal(out[i].blocking_ns, outy[i].blocking_ns);
            assert_int_equal(out[i].suspension_ns, outy[i].suspension_ns);
            assert_int_equal(out[i].priority, outy[i].priority);
        }
    }
    *d = y;
    for (size_t i = 0; i < d->n; i++)
        d->t[i].requests = d->rq[i];
}

/* Against the simulation: no response above its bound, no miss in a set
 * the analysis accepts; the bound reached often enough to have teeth. The
 * analysis charges the overheads ov; the simulation runs them explicitly
 * (analyse_with_overheads). */
static void fmlp_against(const rtp_overheads *ov, int scale, int with_pcp, uint64_t stream,
                         int sets)
{
    int bounds = 0, reached = 0, accepted = 0, reached_suspending = 0, naive_exceeded = 0;
    long suspensions = 0;
    for (int x = 0; x < sets; x++) {
        rtp_rng rng = rtp_rng_stream(24, stream, (uint64_t)x);
        draw d;
        fmlp_ref_random_set(&d, &rng, with_pcp);
        for (size_t i = 0; i < d.n; i++) { /* room for the overheads' units */
            rtp_task *t = &d.t[i];
            t->wcet_ns *= scale;
            t->period_ns *= scale;
            t->deadline_ns *= scale;
            t->jitter_ns *= scale;
            for (size_t q = 0; q < t->n_requests; q++)
                d.rq[i][q].length_ns *= scale;
        }
        rtp_locks_task out[MAXT], naive[MAXT];
        int sched, prio[MAXT];
        rtp_prio_rule rule = x % 2 ? RTP_PRIO_OPA : RTP_PRIO_DM;
        analyse_with_overheads(&d, ov, rule, &sched, out, naive);
        for (size_t i = 0; i < d.n; i++)
            prio[i] = out[i].priority;
        accepted += sched;
        static sim s;
        memset(&s, 0, sizeof s);
        s.t = d.t;
        s.n = d.n;
        s.cpus = d.cpus;
        s.cpu = d.cpu;
        s.prio = prio;
        s.sw = (int)ov->context_switch_ns;
        s.wake = (int)ov->release_latency_ns;
        for (int r = 0; r < MAXR; r++) { /* ceilings from the priorities analysed */
            s.ceil[r] = -1;
            for (size_t i = 0; i < d.n; i++)
                for (size_t k = 0; k < d.t[i].n_requests; k++)
                    if (d.rq[i][k].resource == (size_t)r && !d.rq[i][k].susp &&
                        prio[i] > s.ceil[r])
                        s.ceil[r] = prio[i];
        }
        int best[MAXT] = {0};
        for (int k = 0; k < 50; k++) {
            int worst[MAXT];
            simulate(&s, &rng, 120 * scale, worst);
            for (size_t i = 0; i < d.n; i++) {
                if (out[i].response_ns < 0)
                    continue;
                if (worst[i] < 0 || worst[i] > out[i].response_ns) {
                    fprintf(stderr, "set %d task %zu: simulated %d, bound %lld\n", x, i,
                            worst[i], (long long)out[i].response_ns);
                    fail();
                }
                if (worst[i] > best[i])
                    best[i] = worst[i];
            }
        }
        for (size_t i = 0; i < d.n; i++)
            naive_exceeded += naive[i].response_ns >= 0 && naive[i].priority == out[i].priority &&
                              best[i] > naive[i].response_ns;
        for (size_t i = 0; i < d.n; i++)
            if (out[i].response_ns >= 0) {
                bounds++;
                reached += best[i] == out[i].response_ns;
                reached_suspending += best[i] == out[i].response_ns && out[i].suspension_ns > 0;
            }
        suspensions += s.suspensions;
    }
    fprintf(stderr,
            "fmlp+ (lock %lld, context switch %lld, release latency %lld): %d sets, %d "
            "accepted, %d bounds never exceeded, %d reached exactly (%d of tasks that can "
            "suspend), %ld suspensions simulated; %d responses above a bound that leaves "
            "out the suspensions' switches and wake-ups\n",
            (long long)ov->lock_ns, (long long)ov->context_switch_ns,
            (long long)ov->release_latency_ns, sets, accepted, bounds, reached,
            reached_suspending, suspensions, naive_exceeded);
    if (ov->context_switch_ns == 0 && ov->release_latency_ns == 0) {
        assert_true(accepted > sets / 10);
        assert_true(reached > bounds / 5);
        assert_true(reached_suspending > 0);
    } else { /* the charges are upper bounds: the simulation reaches fewer */
        assert_true(accepted > sets / 20);
        assert_true(reached > bounds / 10);
        assert_true(suspensions > sets);
        assert_true(naive_exceeded > 0);
    }
}

static void against_simulation(void **state)
{
    (void)state;
    const rtp_overheads none = {0, 0, 0, 0, 0};
    fmlp_against(&none, 1, 0, 4, 3000);
}

/* FMLP+ beside a local ceiling (PCP) resource (docs/spec.md "Shared
 * resources"): a suspending job blocked by a lower-priority ceiling section
 * after each resumption [RSL88]; without and with overheads. */
static void beside_pcp_against_simulation(void **state)
{
    (void)state;
    const rtp_overheads none = {0, 0, 0, 0, 0}, all = {1, 1, 0, 0, 1};
    fmlp_against(&none, 1, 1, 9, 2000);
    fmlp_against(&all, 4, 1, 10, 800);
}

/* docs/spec.md "Lock overheads" under FMLP+: the lock overhead alone, then
 * with a context switch and a release latency (the switches and wake-up of
 * every suspension run by the simulation). */
static void overheads_against_simulation(void **state)
{
    (void)state;
    const rtp_overheads lock = {0, 0, 0, 0, 1};
    fmlp_against(&lock, 1, 0, 5, 1500);
    /* times x 4: the sets keep room for the switches' units */
    const rtp_overheads sw = {0, 1, 0, 0, 0}, wake = {2, 0, 0, 0, 0}, all = {1, 1, 0, 0, 1};
    fmlp_against(&sw, 4, 0, 6, 1000);
    fmlp_against(&wake, 4, 0, 7, 1000);
    fmlp_against(&all, 4, 0, 8, 1000);
}

/* SchedCAT's part_fmlp_bounds + its suspension-aware RTA at the fixed
 * point (the comparison driver of HACKING.md "Against SchedCAT"), recorded:
 * per task remote, local, response. */
static void schedcat_corpus(void **state)
{
    (void)state;
    /* docs/spec.md's example: h on CPU 0; m, lo on CPU 1; g global */
    draw d;
    memset(&d, 0, sizeof d);
    const rtp_ns C[3] = {10, 10, 20}, T[3] = {50, 100, 200};
    const rtp_request rq[3][2] = {{{0, 1, 1, 0, 0, 1}},
                                  {{0, 1, 2, 0, 0, 1}},
                                  {{0, 1, 3, 0, 0, 1}, {1, 1, 4, 0, 0, 1}}};
    const size_t nreq[3] = {1, 1, 2}, cpu[3] = {0, 1, 1};
    for (size_t i = 0; i < 3; i++) {
        d.t[i].wcet_ns = C[i];
        d.t[i].period_ns = d.t[i].deadline_ns = T[i];
        d.t[i].has_priority = 1;
        d.t[i].priority = 3 - (int)i;
        memcpy(d.rq[i], rq[i], sizeof rq[i]);
        d.t[i].requests = d.rq[i];
        d.t[i].n_requests = nreq[i];
        d.cpu[i] = cpu[i];
    }
    rtp_locks_task out[3];
    int sched, found;
    rtp_limits lim = rtp_limits_default();
    rtp_diag diag = {0};
    assert_int_equal(rtp_fmlp_partitioned(d.t, 3, d.cpu, 2, RTP_PRIO_GIVEN, &lim, &sched,
                                          &found, out, &diag),
                     RTP_OK);
    /* SchedCAT: fmlpp h remote=6 local=0 resp=16; m remote=1 local=7
     * resp=18; lo remote=1 local=0 resp=31 */
    const rtp_ns remote[3] = {6, 1, 1}, local[3] = {0, 7, 0}, resp[3] = {16, 18, 31};
    assert_true(sched);
    for (size_t i = 0; i < 3; i++) {
        assert_int_equal(out[i].suspension_ns, remote[i]);
        assert_int_equal(out[i].blocking_ns - out[i].suspension_ns, local[i]);
        assert_int_equal(out[i].response_ns, resp[i]);
        assert_int_equal(out[i].spin_ns, 0);
    }
    /* h waits for m's section on g, and for lo's on g, which waits for
     * lo's boosted section on l there (transitive): l's 4 is the largest
     * share */
    assert_int_equal(out[0].binding, 1);
}

/* tests/fixtures/fmlp_schedcat.txt: SchedCAT's bounds and responses on 77
 * accepted sets of its generator (1-3 CPUs), recorded; every one equal. */
enum { RECT = 32, RECQ = 8 };
typedef struct rec {
    struct {
        rtp_task t[RECT];
        rtp_request rq[RECT][RECQ];
        size_t cpu[RECT], n, cpus;
    } d;
    char names[RECT][16], res[RECT * RECQ][16];
    size_t n_res;
} rec;

static size_t res_index(rec *r, const char *name)
{
    for (size_t k = 0; k < r->n_res; k++)
        if (strcmp(r->res[k], name) == 0)
            return k;
    snprintf(r->res[r->n_res], sizeof r->res[0], "%s", name);
    return r->n_res++;
}

static void schedcat_recorded(void **state)
{
    (void)state;
    FILE *f = fopen(tu_source_path("tests/fixtures/fmlp_schedcat.txt"), "r");
    assert_non_null(f);
    static rec r;
    char line[512], name[16];
    int sets = 0, values = 0, analysed = 0, sched = 0;
    rtp_locks_task out[RECT];
    while (fgets(line, sizeof line, f)) {
        long long c, t, d, cpu, prio, rem, loc, tot, resp;
        int used;
        if (line[0] == '#')
            continue;
        if (strncmp(line, "set ", 4) == 0) {
            memset(&r, 0, sizeof r);
            analysed = 0;
            assert_int_equal(sscanf(line, "set %*s %zu", &r.d.cpus), 1);
        } else if (sscanf(line, "task %15s %lld %lld %lld %lld %lld%n", name, &c, &t, &d, &cpu,
                          &prio, &used) == 6) {
            size_t i = r.d.n++;
            assert_true(i < RECT);
            rtp_task *k = &r.d.t[i];
            snprintf(r.names[i], sizeof r.names[i], "%s", name);
            *k = (rtp_task){.name = r.names[i], .wcet_ns = c, .period_ns = t, .deadline_ns = d,
                            .has_priority = 1, .priority = (int)prio, .requests = r.d.rq[i]};
            r.d.cpu[i] = (size_t)cpu;
            char rn[16];
            long long cnt, len;
            for (char *p = strtok(line + used, " \n"); p; p = strtok(NULL, " \n")) {
                assert_int_equal(sscanf(p, "%15[^:]:%lld:%lld", rn, &cnt, &len), 3);
                assert_true(k->n_requests < RECQ);
                r.d.rq[i][k->n_requests++] = (rtp_request){res_index(&r, rn), cnt, len, 0, 0, 1};
            }
        } else if (strncmp(line, "end", 3) == 0) {
            assert_true(analysed && sched);
            sets++;
        } else {
            if (!analysed) { /* the set's tasks are all read */
                int found;
                rtp_limits lim = rtp_limits_default();
                rtp_diag diag = {0};
                assert_int_equal(rtp_fmlp_partitioned(r.d.t, r.d.n, r.d.cpu, r.d.cpus,
                                                      RTP_PRIO_GIVEN, &lim, &sched, &found, out,
                                                      &diag),
                                 RTP_OK);
                analysed = 1;
            }
            assert_int_equal(sscanf(line, "expect %15s %lld %lld %lld %lld", name, &rem, &loc,
                                    &tot, &resp),
                             5);
            size_t i = 0;
            while (i < r.d.n && strcmp(r.names[i], name) != 0)
                i++;
            assert_true(i < r.d.n);
            assert_int_equal(out[i].suspension_ns, rem);
            assert_int_equal(out[i].blocking_ns - out[i].suspension_ns, loc);
            assert_int_equal(out[i].blocking_ns, tot);
            assert_int_equal(out[i].response_ns, resp);
            values += 4;
        }
    }
    fclose(f);
    fprintf(stderr, "fmlp+: %d recorded SchedCAT sets, %d values equal\n", sets, values);
    assert_int_equal(sets, 77);
}

/* D > T is outside the analysis: not analysed, never a verdict. */
static void preconditions(void **state)
{
    (void)state;
    rtp_request q = {0, 1, 1, 0, 0, 1};
    rtp_task t[1];
    memset(t, 0, sizeof t);
    t[0].name = "a";
    t[0].wcet_ns = 2;
    t[0].period_ns = 10;
    t[0].deadline_ns = 11;
    t[0].requests = &q;
    t[0].n_requests = 1;
    size_t cpu[1] = {0};
    rtp_locks_task out[1];
    int sched = 1, found;
    rtp_limits lim = rtp_limits_default();
    rtp_diag diag = {0};
    assert_int_equal(rtp_fmlp_partitioned(t, 1, cpu, 1, RTP_PRIO_DM, &lim, &sched, &found, out,
                                          &diag),
                     RTP_ELIMIT);
    assert_false(sched);
    assert_true(rtp_fmlp_present(t, 1));
    q.susp = 0;
    assert_false(rtp_fmlp_present(t, 1));
}

/* Times near 2^62 ns with many requests: the sums saturate, the analysis
 * answers (here: not schedulable) and never wraps. */
static void large_values(void **state)
{
    (void)state;
    enum { N = 12 };
    rtp_request q[N][2];
    rtp_task t[N];
    size_t cpu[N];
    memset(t, 0, sizeof t);
    for (size_t i = 0; i < N; i++) {
        t[i].name = "x";
        t[i].period_ns = t[i].deadline_ns = (rtp_ns)1 << 62;
        t[i].wcet_ns = (rtp_ns)1 << 61;
        q[i][0] = (rtp_request){0, (rtp_ns)1 << 30, (rtp_ns)1 << 30, 0, 0, 1};
        q[i][1] = (rtp_request){1, 1, (rtp_ns)1 << 60, 0, 0, 1};
        t[i].requests = q[i];
        t[i].n_requests = 2;
        cpu[i] = i % 4;
    }
    rtp_locks_task out[N];
    int sched = 1, found;
    rtp_limits lim = rtp_limits_default();
    rtp_diag diag = {0};
    for (int rule = 0; rule < 2; rule++) {
        assert_int_equal(rtp_fmlp_partitioned(t, N, cpu, 4, rule ? RTP_PRIO_OPA : RTP_PRIO_DM,
                                              &lim, &sched, &found, out, &diag),
                         RTP_OK);
        assert_false(sched);
        for (size_t i = 0; i < N; i++)
            assert_true(out[i].blocking_ns >= out[i].suspension_ns &&
                        out[i].suspension_ns >= 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(schedcat_corpus),
        cmocka_unit_test(schedcat_recorded),
        cmocka_unit_test(preconditions),
        cmocka_unit_test(large_values),
        cmocka_unit_test(against_simulation),
        cmocka_unit_test(overheads_against_simulation),
        cmocka_unit_test(beside_pcp_against_simulation),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
