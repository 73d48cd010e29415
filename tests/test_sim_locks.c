/* tests/test_sim_locks.c — sim/sim.h with shared resources
 * (rtp_sim_set_locks: the immediate priority ceiling protocol under FP
 * [SRL90], SRP under EDF [Bak91], MSRP's non-preemptive FIFO spinning
 * [GLD01]; sections at the start of each job) against solver/locks.h:
 *  - a hand trace of each protocol;
 *  - on thousands of tiny seeded partitioned sets (1-2 CPUs, two
 *    resources, local and global) across release offsets, sporadic gaps,
 *    release jitter (FP) and shorter executions: no simulated response above
 *    rtp_locks_partitioned's FP bound, no miss in a set its EDF test
 *    accepts, no simulated spin above the task's analysed spin;
 *  - FMLP+ [Bra11] against tests/support/fmlp_reference.c (test_fmlp's
 *    unit-step reference) trace for trace on seeded patterns, and no
 *    response above solver/fmlp.h's bound;
 *  - SchedCAT's published MSRP unit test (the set of test_locks'
 *    worked_examples): over 2,000 release patterns the simulated spins,
 *    blockings and responses stay within the published 7/1/1/0, 0/8/20/0 and
 *    37/39/82/92, and reach the spins of the tasks that can reach them. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim.h"
#include "solver/fmlp.h"
#include "solver/locks.h"
#include "support/fmlp_reference.h"
#include "solver/schedtest.h"
#include "support/testutil.h"

enum { MAXT = 5, MAXR = 2, MAXJ = 80 };

typedef struct observed {
    rtp_ns resp[MAXT], spin[MAXT], blocked[MAXT];
    int miss;
    rtp_ns until;
} observed;

static void on_done(void *ctx, const rtp_sim_job *job)
{
    observed *o = ctx;
    size_t i = job->task;
    rtp_ns r = job->finish_ns >= 0 ? job->finish_ns - job->arrival_ns
               : job->arrival_ns < o->until ? o->until - job->arrival_ns : 0;
    o->resp[i] = r > o->resp[i] ? r : o->resp[i];
    o->spin[i] = job->spin_ns > o->spin[i] ? job->spin_ns : o->spin[i];
    o->blocked[i] = job->blocked_ns > o->blocked[i] ? job->blocked_ns : o->blocked[i];
    if (job->finish_ns >= 0 ? job->finish_ns > job->deadline_ns : job->deadline_ns < o->until)
        o->miss = 1;
}

/* One release pattern through the engine: offsets in [0, T) (or all 0),
 * now and then a sporadic gap, jitter drawn in [0, J], executions mostly
 * the wcet. */
static void pattern(tu_rng *rng, rtp_policy policy, const rtp_task *t, size_t n,
                    const int *prio, const size_t *slot, size_t cpus, size_t n_res,
                    const int *msrp, rtp_ns horizon, observed *o)
{
    static tu_job jobs[MAXT * MAXJ];
    size_t nj = 0;
    int sync = tu_range(rng, 0, 3) == 0;
    for (size_t i = 0; i < n; i++) {
        rtp_ns a = sync ? 0 : tu_range(rng, 0, t[i].period_ns - 1), last = 0;
        for (int k = 0; k < MAXJ && a < horizon; k++) {
            rtp_ns rel = a + (t[i].jitter_ns ? tu_range(rng, 0, t[i].jitter_ns) : 0);
            rel = rel < last ? last : rel;
            rtp_ns c = tu_range(rng, 0, 4) ? t[i].wcet_ns : tu_range(rng, 1, t[i].wcet_ns);
            jobs[nj++] = (tu_job){i, a, rel, c};
            last = rel;
            a += t[i].period_ns + (tu_range(rng, 0, 6) ? 0 : tu_range(rng, 1, 5));
        }
    }
    tu_jobs_sort(jobs, nj);
    memset(o, 0, sizeof *o);
    o->until = horizon + 60;
    rtp_sim_hooks hooks = {.ctx = o, .done = on_done};
    rtp_sim *sim;
    rtp_diag d;
    assert_int_equal(rtp_sim_create(policy, (int)cpus, prio, n, &hooks, &sim, &d), RTP_OK);
    assert_int_equal(rtp_sim_set_locks(sim, t, slot, n_res, msrp, NULL, &d), RTP_OK);
    for (size_t k = 0; k < nj; k++) {
        rtp_sim_job j = {.task = jobs[k].task, .arrival_ns = jobs[k].arrival,
                         .release_ns = jobs[k].release,
                         .deadline_ns = jobs[k].arrival + t[jobs[k].task].deadline_ns,
                         .exec_ns = jobs[k].exec};
        assert_int_equal(rtp_sim_add(sim, &j, NULL, &d), RTP_OK);
    }
    assert_int_equal(rtp_sim_run(sim, o->until, &d), RTP_OK);
    rtp_sim_drain(sim);
    rtp_sim_free(sim);
}

/* msrp[r] as solver/locks.h's placement decides it. */
static void msrp_of(const rtp_resource *res, size_t n_res, const rtp_task *t, size_t n,
                    const size_t *slot, size_t cpus, int *msrp, rtp_task *placed,
                    rtp_request **store)
{
    rtp_diag d;
    assert_int_equal(rtp_locks_place(res, n_res, t, n, slot, cpus, placed, store, &d), RTP_OK);
    for (size_t r = 0; r < n_res; r++)
        msrp[r] = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t q = 0; q < placed[i].n_requests; q++)
            msrp[placed[i].requests[q].resource] |= placed[i].requests[q].np;
}

typedef struct tiny {
    rtp_task t[MAXT];
    rtp_request req[MAXT][MAXR];
    rtp_resource res[MAXR];
    size_t slot[MAXT], n, cpus;
} tiny;

static void tiny_set(tu_rng *rng, tiny *x, size_t cpus, int jitter)
{
    static const rtp_ns periods[] = {6, 8, 10, 12, 15, 20, 24, 30};
    static char *const names[MAXR] = {"q", "r"};
    memset(x, 0, sizeof *x);
    x->cpus = cpus;
    x->n = (size_t)tu_range(rng, 2, MAXT);
    for (int r = 0; r < MAXR; r++)
        x->res[r] = (rtp_resource){names[r], RTP_LOCK_AUTO, 0};
    for (size_t i = 0; i < x->n; i++) {
        rtp_task *t = &x->t[i];
        t->period_ns = periods[tu_range(rng, 0, 7)];
        t->deadline_ns = t->period_ns - tu_range(rng, 0, t->period_ns / 2 - 1);
        t->wcet_ns = tu_range(rng, 1, t->period_ns / (rtp_ns)x->n + 1);
        t->jitter_ns = jitter && tu_range(rng, 0, 2) == 0 ? tu_range(rng, 1, jitter) : 0;
        t->requests = x->req[i];
        x->slot[i] = (size_t)tu_range(rng, 0, (int64_t)cpus - 1);
        rtp_ns room = t->wcet_ns;
        for (int r = 0; r < MAXR && room > 0; r++) {
            if (tu_range(rng, 0, 1))
                continue;
            rtp_request *q = &t->requests[t->n_requests++];
            q->resource = (size_t)r;
            q->count = room > 1 && tu_range(rng, 0, 3) == 0 ? 2 : 1;
            q->length_ns = tu_range(rng, 1, room / q->count);
            room -= q->count * q->length_ns;
        }
    }
}

static void check(rtp_policy policy, size_t cpus, int jitter, uint64_t seed, int sets,
                  int *checked, int *attained, int *accepted)
{
    tu_rng rng = {seed};
    rtp_test test = rtp_test_exact(policy, RTP_PRIO_OPA, 1, rtp_limits_default());
    for (int k = 0; k < sets; k++) {
        tiny x;
        tiny_set(&rng, &x, cpus, jitter);
        rtp_locks_task out[MAXT];
        int sched, prio[MAXT], msrp[MAXR];
        rtp_diag d;
        rtp_status st = rtp_locks_partitioned(x.res, MAXR, x.t, x.n, x.slot, cpus, &test,
                                              &sched, out, &d);
        assert_int_equal(st, RTP_OK);
        if (policy == RTP_POLICY_EDF && !sched)
            continue;
        rtp_task placed[MAXT];
        rtp_request *store;
        msrp_of(x.res, MAXR, x.t, x.n, x.slot, cpus, msrp, placed, &store);
        for (size_t i = 0; i < x.n; i++)
            prio[i] = out[i].priority;
        rtp_ns seen[MAXT] = {0}, spun[MAXT] = {0};
        for (int p = 0; p < 16; p++) {
            observed o;
            pattern(&rng, policy, x.t, x.n, policy == RTP_POLICY_FP ? prio : NULL, x.slot,
                    cpus, MAXR, msrp, 240, &o);
            if (policy == RTP_POLICY_EDF && o.miss)
                fail_msg("EDF set %d (seed %llu) accepted but a job missed", k,
                         (unsigned long long)seed);
            for (size_t i = 0; i < x.n; i++) {
                seen[i] = o.resp[i] > seen[i] ? o.resp[i] : seen[i];
                spun[i] = o.spin[i] > spun[i] ? o.spin[i] : spun[i];
            }
        }
        *accepted += policy == RTP_POLICY_EDF;
        for (size_t i = 0; i < x.n; i++) {
            /* a job spins at most once per request, each at most spin_ns */
            if (spun[i] > rtp_locks_spin(&placed[i]))
                fail_msg("set %d task %zu: spun %lld > analysed %lld", k, i,
                         (long long)spun[i], (long long)rtp_locks_spin(&placed[i]));
            if (policy != RTP_POLICY_FP || out[i].response_ns < 0)
                continue;
            (*checked)++;
            if (seen[i] > out[i].response_ns)
                fail_msg("FP set %d (seed %llu) task %zu: simulated %lld > bound %lld", k,
                         (unsigned long long)seed, i, (long long)seen[i],
                         (long long)out[i].response_ns);
            *attained += seen[i] == out[i].response_ns;
        }
        free(store);
    }
}

static void test_against_the_bounds(void **state)
{
    (void)state;
    int checked = 0, attained = 0, accepted = 0;
    check(RTP_POLICY_FP, 1, 0, 31, 800, &checked, &attained, &accepted);
    check(RTP_POLICY_FP, 2, 0, 32, 800, &checked, &attained, &accepted);
    check(RTP_POLICY_FP, 2, 2, 33, 500, &checked, &attained, &accepted);
    check(RTP_POLICY_EDF, 1, 0, 41, 800, &checked, &attained, &accepted);
    check(RTP_POLICY_EDF, 2, 0, 42, 800, &checked, &attained, &accepted);
    print_message("sim locks: %d FP bounds (%d attained), %d accepted EDF sets, 0 exceeded\n",
                  checked, attained, accepted);
    assert_true(checked > 3000);
    assert_true(accepted > 500);
    assert_true(attained * 10 > checked); /* the patterns reach the bound often */
}

/* Hand traces, one CPU unless said. FP: L (prio 1, C 4, q 3 at its start)
 * at 0, H (prio 2, C 1, uses q) at 1: L holds q at H's priority (the
 * ceiling) [0,3), H runs [3,4): H's response 3, blocking 2. EDF + SRP: the
 * same with deadlines 20 and 5: H may not start while L holds q (q's
 * ceiling is H's deadline): the same trace. MSRP on two CPUs: A (CPU 0,
 * q 4) and B (CPU 1, q 2) released at 0: A takes q first (slot order), B
 * spins [0,4) then holds [4,6); C (CPU 1, prio above B) released at 1 waits
 * for B's non-preemptive spin and section: C runs [6,7), response 6,
 * blocked 5. */
static void test_hand_traces(void **state)
{
    (void)state;
    rtp_request lq[1] = {{0, 1, 3, 0, 0, 0}}, hq[1] = {{0, 1, 1, 0, 0, 0}};
    rtp_task t[2] = {tu_task(4, 20, 100), tu_task(1, 5, 100)};
    t[0].requests = lq;
    t[0].n_requests = 1;
    t[1].requests = hq;
    t[1].n_requests = 1;
    size_t slot[3] = {0, 0, 0};
    int msrp[1] = {0}, prio[3] = {1, 2, 3};
    for (int edf = 0; edf < 2; edf++) {
        observed o = {.until = 50};
        rtp_sim_hooks hooks = {.ctx = &o, .done = on_done};
        rtp_sim *sim;
        rtp_diag d;
        assert_int_equal(rtp_sim_create(edf ? RTP_POLICY_EDF : RTP_POLICY_FP, 1,
                                        edf ? NULL : prio, 2, &hooks, &sim, &d), RTP_OK);
        assert_int_equal(rtp_sim_set_locks(sim, t, slot, 1, msrp, NULL, &d), RTP_OK);
        rtp_sim_job l = {.task = 0, .arrival_ns = 0, .release_ns = 0, .deadline_ns = 20,
                         .exec_ns = 4};
        rtp_sim_job h = {.task = 1, .arrival_ns = 1, .release_ns = 1, .deadline_ns = 6,
                         .exec_ns = 1};
        assert_int_equal(rtp_sim_add(sim, &l, NULL, &d), RTP_OK);
        assert_int_equal(rtp_sim_add(sim, &h, NULL, &d), RTP_OK);
        assert_int_equal(rtp_sim_run(sim, 50, &d), RTP_OK);
        rtp_sim_free(sim);
        assert_int_equal(o.resp[1], 3);
        assert_int_equal(o.blocked[1], 2);
        assert_int_equal(o.resp[0], 5);
    }
    /* MSRP */
    rtp_request aq[1] = {{0, 1, 4, 0, 0, 0}}, bq[1] = {{0, 1, 2, 0, 0, 0}};
    rtp_task m[3] = {tu_task(4, 50, 50), tu_task(2, 50, 50), tu_task(1, 50, 50)};
    m[0].requests = aq;
    m[0].n_requests = 1;
    m[1].requests = bq;
    m[1].n_requests = 1;
    size_t mslot[3] = {0, 1, 1};
    int global[1] = {1}, mprio[3] = {1, 1, 2};
    observed o = {.until = 50};
    rtp_sim_hooks hooks = {.ctx = &o, .done = on_done};
    rtp_sim *sim;
    rtp_diag d;
    assert_int_equal(rtp_sim_create(RTP_POLICY_FP, 2, mprio, 3, &hooks, &sim, &d), RTP_OK);
    assert_int_equal(rtp_sim_set_locks(sim, m, mslot, 1, global, NULL, &d), RTP_OK);
    rtp_sim_job ja = {.task = 0, .arrival_ns = 0, .release_ns = 0, .deadline_ns = 50,
                      .exec_ns = 4};
    rtp_sim_job jb = {.task = 1, .arrival_ns = 0, .release_ns = 0, .deadline_ns = 50,
                      .exec_ns = 2};
    rtp_sim_job jc = {.task = 2, .arrival_ns = 1, .release_ns = 1, .deadline_ns = 50,
                      .exec_ns = 1};
    assert_int_equal(rtp_sim_add(sim, &ja, NULL, &d), RTP_OK);
    assert_int_equal(rtp_sim_add(sim, &jb, NULL, &d), RTP_OK);
    assert_int_equal(rtp_sim_add(sim, &jc, NULL, &d), RTP_OK);
    assert_int_equal(rtp_sim_run(sim, 50, &d), RTP_OK);
    rtp_sim_free(sim);
    assert_int_equal(o.resp[0], 4);
    assert_int_equal(o.spin[1], 4);
    assert_int_equal(o.resp[1], 6);
    assert_int_equal(o.resp[2], 6);
    assert_int_equal(o.blocked[2], 5);
}

/* SchedCAT's published MSRP unit test (tests/locking.py; test_locks'
 * worked_examples): four tasks of C 30, T 100/120/130/140, t1 on CPU 0, the
 * others on CPU 1, q shared by t1 (1), t2 (5), t3 (7), r by t3 (10) and t4
 * (20); published spins 7/1/1/0, local blockings 0/8/20/0, responses
 * 37/39/82/92. */
static void test_schedcat_msrp_example(void **state)
{
    (void)state;
    rtp_resource res[2] = {{"q", RTP_LOCK_AUTO, 0}, {"r", RTP_LOCK_AUTO, 0}};
    rtp_request rq[4][2] = {{{0, 1, 1, 0, 0, 0}},
                            {{0, 1, 5, 0, 0, 0}},
                            {{0, 1, 7, 0, 0, 0}, {1, 1, 10, 0, 0, 0}},
                            {{1, 1, 20, 0, 0, 0}}};
    rtp_task t[4];
    const rtp_ns T[4] = {100, 120, 130, 140};
    const size_t nreq[4] = {1, 1, 2, 1}, slot[4] = {0, 1, 1, 1};
    int prio[4] = {4, 3, 2, 1};
    for (int i = 0; i < 4; i++) {
        t[i] = tu_task(30, T[i], T[i]);
        t[i].requests = rq[i];
        t[i].n_requests = nreq[i];
    }
    int msrp[2];
    rtp_task placed[4];
    rtp_request *store;
    msrp_of(res, 2, t, 4, slot, 2, msrp, placed, &store);
    free(store);
    assert_true(msrp[0] && !msrp[1]);
    tu_rng rng = {4242};
    rtp_ns spin[4] = {0}, blocked[4] = {0}, resp[4] = {0};
    for (int p = 0; p < 2000; p++) {
        observed o;
        pattern(&rng, RTP_POLICY_FP, t, 4, prio, slot, 2, 2, msrp, 560, &o);
        for (int i = 0; i < 4; i++) {
            spin[i] = o.spin[i] > spin[i] ? o.spin[i] : spin[i];
            blocked[i] = o.blocked[i] > blocked[i] ? o.blocked[i] : blocked[i];
            resp[i] = o.resp[i] > resp[i] ? o.resp[i] : resp[i];
        }
    }
    const rtp_ns pspin[4] = {7, 1, 1, 0}, pblock[4] = {0, 8, 20, 0}, presp[4] = {37, 39, 82, 92};
    for (int i = 0; i < 4; i++) {
        print_message("t%d: spin %lld (published %lld), blocked %lld (local blocking %lld + "
                      "spin), response %lld (bound %lld)\n", i + 1, (long long)spin[i],
                      (long long)pspin[i], (long long)blocked[i], (long long)pblock[i],
                      (long long)resp[i], (long long)presp[i]);
        assert_true(spin[i] <= pspin[i]);
        assert_true(resp[i] <= presp[i]);
    }
    /* t2 and t3 wait for t1's 1-unit section when both ask at once (CPU 0
     * goes first); t4 never spins */
    assert_int_equal(spin[1], 1);
    assert_int_equal(spin[2], 1);
    assert_int_equal(spin[3], 0);
}

/* FMLP+: the engine's jobs run their sections first, in the order of their
 * requests, each cut to the execution left; the reference gets the same
 * segments. */
static void fmlp_segments(const rtp_task *t, rtp_ns exec, fmlp_ref_job *j)
{
    rtp_ns left = exec;
    for (size_t q = 0; q < t->n_requests; q++)
        for (rtp_ns c = 0; c < t->requests[q].count && left > 0; c++) {
            rtp_ns len = t->requests[q].length_ns < left ? t->requests[q].length_ns : left;
            j->segs[j->nseg++] = (fmlp_ref_seg){(int)t->requests[q].resource, (int)len};
            left -= len;
        }
    if (left > 0)
        j->segs[j->nseg++] = (fmlp_ref_seg){-1, (int)left};
    fmlp_ref_job_ready(j);
}

static void on_finish(void *ctx, const rtp_sim_job *job)
{
    ((rtp_ns *)ctx)[job->seq] = job->finish_ns;
}

/* Distinct priorities on each CPU (the two simulators break ties alike
 * only then). */
static int distinct(const fmlp_ref_set *d, const int *prio)
{
    for (size_t i = 0; i < d->n; i++)
        for (size_t k = i + 1; k < d->n; k++)
            if (d->cpu[i] == d->cpu[k] && prio[i] == prio[k])
                return 0;
    return 1;
}

/* One pattern through both: offsets (often synchronous), sporadic gaps,
 * jitter, now and then a shorter execution; every completion equal, every
 * response within its bound. Returns the jobs compared. */
static int fmlp_pattern(fmlp_ref *s, const fmlp_ref_set *d, const rtp_locks_task *out,
                        rtp_rng *rng, int *reached)
{
    static rtp_ns exec[FMLP_REF_MAXT * FMLP_REF_MAXJ], got[FMLP_REF_MAXT * FMLP_REF_MAXJ];
    static int want[FMLP_REF_MAXT * FMLP_REF_MAXJ];
    const int horizon = 120;
    int protocol[FMLP_REF_MAXR];
    for (int r = 0; r < FMLP_REF_MAXR; r++) /* the reference's ceiling resources: PCP */
        protocol[r] = s->ceil[r] >= 0 ? RTP_SIM_LOCK_CEILING : RTP_SIM_LOCK_FMLP;
    fmlp_ref_clear(s);
    int tmax = 0;
    for (size_t i = 0; i < d->n; i++) {
        const rtp_task *t = &d->t[i];
        s->head[i] = s->njobs;
        int a = rtp_rng_range(rng, 0, 2) == 0 ? 0 : (int)rtp_rng_range(rng, 0, t->period_ns);
        while (a < horizon && s->njobs < FMLP_REF_MAXT * FMLP_REF_MAXJ) {
            int rel = a + (t->jitter_ns && rtp_rng_range(rng, 0, 1)
                               ? (int)rtp_rng_range(rng, 0, t->jitter_ns) : 0);
            rtp_ns c = rtp_rng_range(rng, 0, 4) ? t->wcet_ns : rtp_rng_range(rng, 1, t->wcet_ns);
            exec[s->njobs] = c;
            fmlp_segments(t, c, fmlp_ref_job_new(s, i, a, rel));
            a += (int)t->period_ns + (rtp_rng_range(rng, 0, 4) ? 0 : (int)rtp_rng_range(rng, 1, 4));
        }
        s->last[i] = s->njobs;
        tmax = a > tmax ? a : tmax;
    }
    fmlp_ref_run(s, tmax + horizon, want);
    rtp_sim_hooks hooks = {.ctx = got, .done = on_finish};
    rtp_sim *sim;
    rtp_diag diag;
    assert_int_equal(rtp_sim_create(RTP_POLICY_FP, (int)d->cpus, s->prio, d->n, &hooks, &sim,
                                    &diag), RTP_OK);
    assert_int_equal(rtp_sim_set_locks(sim, d->t, d->cpu, FMLP_REF_MAXR, protocol, NULL, &diag),
                     RTP_OK);
    for (int k = 0; k < s->njobs; k++) {
        const fmlp_ref_job *j = &s->jobs[k];
        rtp_sim_job job = {.task = (size_t)j->task, .arrival_ns = j->arrival,
                           .release_ns = j->release,
                           .deadline_ns = j->arrival + d->t[j->task].deadline_ns,
                           .exec_ns = exec[k]};
        assert_int_equal(rtp_sim_add(sim, &job, NULL, &diag), RTP_OK);
    }
    assert_int_equal(rtp_sim_run(sim, tmax + horizon, &diag), RTP_OK);
    rtp_sim_drain(sim);
    rtp_sim_free(sim);
    for (int k = 0; k < s->njobs; k++) {
        const fmlp_ref_job *j = &s->jobs[k];
        if (got[k] != want[k])
            fprintf(stderr, "fmlp+ job %d of task %d (arrival %d): engine %lld, reference %d\n",
                    k, j->task, j->arrival, (long long)got[k], want[k]);
        assert_int_equal(got[k], want[k]);
        rtp_ns bound = out[j->task].response_ns;
        if (bound >= 0) {
            assert_true(want[k] >= 0 && want[k] - j->arrival <= bound);
            reached[j->task] |= want[k] - j->arrival == bound;
        }
    }
    return s->njobs;
}

/* FMLP+ is simulated under FP only and beside ceiling resources only, never
 * beside MSRP (models/resources.c refuses those sets, solver/fmlp.h
 * analyses FP). */
static void test_fmlp_refusals(void **state)
{
    (void)state;
    rtp_request rq[2] = {{.resource = 0, .count = 1, .length_ns = 1, .susp = 1},
                         {.resource = 1, .count = 1, .length_ns = 1}};
    rtp_task t[2] = {{.wcet_ns = 2, .deadline_ns = 10, .period_ns = 10, .requests = &rq[0],
                      .n_requests = 1},
                     {.wcet_ns = 2, .deadline_ns = 10, .period_ns = 10, .requests = &rq[1],
                      .n_requests = 1}};
    const size_t slot[2] = {0, 1};
    const int prio[2] = {1, 1}, mixed[2] = {RTP_SIM_LOCK_FMLP, RTP_SIM_LOCK_MSRP},
              fmlp[2] = {RTP_SIM_LOCK_FMLP, RTP_SIM_LOCK_FMLP}, bad[2] = {3, 0},
              pcp[2] = {RTP_SIM_LOCK_FMLP, RTP_SIM_LOCK_CEILING};
    rtp_sim *sim;
    rtp_diag d;
    assert_int_equal(rtp_sim_create(RTP_POLICY_FP, 2, prio, 2, NULL, &sim, &d), RTP_OK);
    assert_int_equal(rtp_sim_set_locks(sim, t, slot, 2, mixed, NULL, &d), RTP_EINPUT);
    assert_int_equal(rtp_sim_set_locks(sim, t, slot, 2, bad, NULL, &d), RTP_EINPUT);
    assert_int_equal(rtp_sim_set_locks(sim, t, slot, 2, fmlp, NULL, &d), RTP_OK);
    rtp_sim_free(sim);
    assert_int_equal(rtp_sim_create(RTP_POLICY_FP, 2, prio, 2, NULL, &sim, &d), RTP_OK);
    assert_int_equal(rtp_sim_set_locks(sim, t, slot, 2, pcp, NULL, &d), RTP_OK);
    rtp_sim_free(sim);
    assert_int_equal(rtp_sim_create(RTP_POLICY_EDF, 2, NULL, 2, NULL, &sim, &d), RTP_OK);
    assert_int_equal(rtp_sim_set_locks(sim, t, slot, 2, fmlp, NULL, &d), RTP_EINPUT);
    rtp_sim_free(sim);
}

/* sets seeded sets (stream 5; with_pcp: stream 6, the last resource of
 * each set a ceiling (PCP) one on one CPU, run just above its ceiling and
 * below boosted jobs by both), 20 patterns each. */
static void fmlp_against_reference(int with_pcp, int sets)
{
    int used = 0, bounds = 0, reached_n = 0, pcp_sets = 0;
    long jobs = 0;
    static fmlp_ref s;
    for (int x = 0; x < sets; x++) {
        rtp_rng rng = rtp_rng_stream(24, with_pcp ? 6 : 5, (uint64_t)x);
        fmlp_ref_set d;
        fmlp_ref_random_set(&d, &rng, with_pcp);
        rtp_locks_task out[FMLP_REF_MAXT];
        int sched, found, prio[FMLP_REF_MAXT], reached[FMLP_REF_MAXT] = {0};
        rtp_limits lim = rtp_limits_default();
        rtp_diag diag;
        assert_int_equal(rtp_fmlp_partitioned(d.t, d.n, d.cpu, d.cpus,
                                              x % 2 ? RTP_PRIO_OPA : RTP_PRIO_DM, &lim, &sched,
                                              &found, out, &diag),
                         RTP_OK);
        for (size_t i = 0; i < d.n; i++)
            prio[i] = out[i].priority;
        if (!distinct(&d, prio))
            continue;
        used++;
        s.t = d.t;
        s.n = d.n;
        s.cpus = d.cpus;
        s.cpu = d.cpu;
        s.prio = prio;
        int any_pcp = 0;
        for (int r = 0; r < FMLP_REF_MAXR; r++) { /* no overheads (sw = wake = 0) */
            s.ceil[r] = -1; /* FMLP+, unless a non-suspending (PCP) user: its ceiling */
            for (size_t i = 0; i < d.n; i++)
                for (size_t k = 0; k < d.t[i].n_requests; k++)
                    if (d.rq[i][k].resource == (size_t)r && !d.rq[i][k].susp) {
                        s.ceil[r] = prio[i] > s.ceil[r] ? prio[i] : s.ceil[r];
                        any_pcp = 1;
                    }
        }
        pcp_sets += any_pcp;
        for (int p = 0; p < 20; p++)
            jobs += fmlp_pattern(&s, &d, out, &rng, reached);
        for (size_t i = 0; i < d.n; i++) {
            bounds += out[i].response_ns >= 0;
            reached_n += reached[i];
        }
    }
    fprintf(stderr, "fmlp+%s: %d sets (%d with a pcp resource) x 20 patterns, %ld jobs "
                    "completed alike in the engine and the reference; %d bounds never "
                    "exceeded, %d reached\n",
            with_pcp ? " beside pcp" : "", used, pcp_sets, jobs, bounds, reached_n);
    assert_true(used > sets / 2);
    assert_true(!with_pcp || pcp_sets > used / 3);
    assert_true(reached_n > bounds / 5);
}

static void test_fmlp_against_reference(void **state)
{
    (void)state;
    fmlp_against_reference(0, 1500);
}

static void test_fmlp_pcp_against_reference(void **state)
{
    (void)state;
    fmlp_against_reference(1, 1500);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hand_traces),
        cmocka_unit_test(test_against_the_bounds),
        cmocka_unit_test(test_schedcat_msrp_example),
        cmocka_unit_test(test_fmlp_refusals),
        cmocka_unit_test(test_fmlp_against_reference),
        cmocka_unit_test(test_fmlp_pcp_against_reference),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
