/* tests/test_sim.c — sim/sim.h: the scheduling simulator.
 *
 * The simulator is checked two ways, neither of them a second simulator:
 *  - a schedule validator: from the execution segments and completions the
 *    engine reports, every job runs exactly its execution time inside
 *    [release, completion], no CPU runs two jobs, no job runs on two CPUs,
 *    a task's jobs run one after the other, and between any two events the
 *    running jobs are exactly the M best eligible ones by the rule of
 *    sim.h (a strict total order, so this fixes the schedule); on thousands
 *    of seeded sets, uniprocessor and global, EDF and FP, deadlines below
 *    and past periods, equal priorities, overruns;
 *  - against the exact analyses on thousands of seeded synchronous periodic
 *    sets over the default horizon: EDF verdict and earliest miss equal
 *    QPA's (U <= 1, or every D <= T: past that a miss may lie beyond the
 *    horizon); FP with constrained deadlines and distinct priorities:
 *    verdict equals the RTA's, response_max equals the WCRT (the
 *    synchronous release is the critical instant [LL73]); global tests
 *    accepting => no simulated miss.
 * And the seed article's three figures (docs/tutorial.md). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "sim/sim.h"
#include "solver/edf.h"
#include "solver/fp.h"
#include "solver/global.h"
#include "support/testutil.h"

#define MAXN 8
#define MS 1000000LL

static const rtp_ns divisors[] = {2, 3, 4, 5, 6, 8, 9, 10, 12, 15, 16, 18, 20, 24, 30, 36, 40,
                                  45, 48, 60, 72, 80, 90, 120};
#define N_DIV (sizeof divisors / sizeof divisors[0])

/* ---- the schedule validator ---- */

typedef struct seg {
    int cpu;
    uint64_t seq;
    rtp_ns from, to;
} seg;

typedef struct trace {
    rtp_sim_job jobs[4096];
    size_t n_jobs;
    seg segs[16384];
    size_t n_segs;
} trace;

static void on_done(void *ctx, const rtp_sim_job *job)
{
    trace *t = ctx;
    assert_true(t->n_jobs < 4096);
    t->jobs[t->n_jobs++] = *job;
}

static void on_ran(void *ctx, int cpu, const rtp_sim_job *job, rtp_ns from, rtp_ns to)
{
    trace *t = ctx;
    assert_true(t->n_segs < 16384 && from < to);
    t->segs[t->n_segs++] = (seg){cpu, job->seq, from, to};
}

static const rtp_sim_job *by_seq(const trace *t, uint64_t seq)
{
    for (size_t k = 0; k < t->n_jobs; k++)
        if (t->jobs[k].seq == seq)
            return &t->jobs[k];
    fail_msg("segment of an unknown job %llu", (unsigned long long)seq);
    return NULL;
}

static int rule_before(int edf, const int *prio, const rtp_sim_job *a, const rtp_sim_job *b)
{
    if (edf ? a->deadline_ns != b->deadline_ns : prio[a->task] != prio[b->task])
        return edf ? a->deadline_ns < b->deadline_ns : prio[a->task] > prio[b->task];
    if (edf ? a->task != b->task : a->release_ns != b->release_ns)
        return edf ? a->task < b->task : a->release_ns < b->release_ns;
    return a->seq < b->seq;
}

/* Work done on job `seq` before time x. */
static rtp_ns done_before(const trace *t, uint64_t seq, rtp_ns x)
{
    rtp_ns w = 0;
    for (size_t s = 0; s < t->n_segs; s++)
        if (t->segs[s].seq == seq && t->segs[s].from < x)
            w += (t->segs[s].to < x ? t->segs[s].to : x) - t->segs[s].from;
    return w;
}

static void validate(const trace *t, int edf, int m, const int *prio, rtp_ns until)
{
    /* Work per job; segments inside [release, finish or until]. */
    for (size_t k = 0; k < t->n_jobs; k++) {
        const rtp_sim_job *j = &t->jobs[k];
        rtp_ns end = j->finish_ns >= 0 ? j->finish_ns : until;
        rtp_ns w = done_before(t, j->seq, end + 1);
        if (j->finish_ns >= 0)
            assert_int_equal(w, j->exec_ns);
        else
            assert_true(w < j->exec_ns);
    }
    for (size_t s = 0; s < t->n_segs; s++) {
        const rtp_sim_job *j = by_seq(t, t->segs[s].seq);
        assert_true(t->segs[s].from >= j->release_ns);
        assert_true(t->segs[s].to <= (j->finish_ns >= 0 ? j->finish_ns : until));
        assert_true(t->segs[s].cpu >= 0 && t->segs[s].cpu < m);
    }
    /* Event instants: releases, completions, segment ends. */
    rtp_ns *ev = malloc((2 * t->n_jobs + 2 * t->n_segs + 2) * sizeof *ev);
    size_t ne = 0;
    for (size_t k = 0; k < t->n_jobs; k++) {
        ev[ne++] = t->jobs[k].release_ns;
        if (t->jobs[k].finish_ns >= 0)
            ev[ne++] = t->jobs[k].finish_ns;
    }
    for (size_t s = 0; s < t->n_segs; s++) {
        ev[ne++] = t->segs[s].from;
        ev[ne++] = t->segs[s].to;
    }
    ev[ne++] = until;
    for (size_t e = 0; e < ne; e++) {
        rtp_ns x = ev[e], nxt = until; /* check [x, nxt) */
        for (size_t f = 0; f < ne; f++)
            if (ev[f] > x && ev[f] < nxt)
                nxt = ev[f];
        if (x >= until)
            continue;
        /* Running at x (a segment covering x) vs eligible at x. */
        uint64_t run[64];
        int cpu_used[64] = {0};
        size_t nrun = 0;
        for (size_t s = 0; s < t->n_segs; s++)
            if (t->segs[s].from <= x && x < t->segs[s].to) {
                assert_false(cpu_used[t->segs[s].cpu]);
                cpu_used[t->segs[s].cpu] = 1;
                for (size_t r = 0; r < nrun; r++)
                    assert_true(run[r] != t->segs[s].seq); /* one CPU per job */
                run[nrun++] = t->segs[s].seq;
                assert_true(t->segs[s].to >= nxt); /* constant until the next event */
            }
        const rtp_sim_job *elig[64];
        size_t nel = 0;
        for (size_t k = 0; k < t->n_jobs; k++) {
            const rtp_sim_job *j = &t->jobs[k];
            if (j->release_ns > x || (j->finish_ns >= 0 && j->finish_ns <= x))
                continue;
            int head = 1; /* no older unfinished job of the same task */
            for (size_t o = 0; o < t->n_jobs; o++) {
                const rtp_sim_job *p = &t->jobs[o];
                if (p->task == j->task && p->seq < j->seq &&
                    (p->finish_ns < 0 || p->finish_ns > x))
                    head = 0;
            }
            if (head)
                elig[nel++] = j;
        }
        assert_int_equal(nrun, nel < (size_t)m ? nel : (size_t)m);
        for (size_t r = 0; r < nrun; r++) {
            const rtp_sim_job *a = by_seq(t, run[r]);
            int is_elig = 0;
            for (size_t q = 0; q < nel; q++) {
                is_elig |= elig[q] == a;
                int running = 0;
                for (size_t r2 = 0; r2 < nrun; r2++)
                    running |= run[r2] == elig[q]->seq;
                if (!running && rule_before(edf, prio, elig[q], a))
                    fail_msg("at %lld a waiting job beats a running one", (long long)x);
            }
            assert_true(is_elig);
        }
    }
    free(ev);
}

/* ---- random sets ---- */

static size_t random_set(tu_rng *rng, rtp_task *ts, int *prio, int m, int constrained,
                         int distinct)
{
    size_t n = (size_t)tu_range(rng, 1, m > 1 ? 6 : 5);
    int64_t target = tu_range(rng, 40, 110) * m;
    for (size_t i = 0; i < n; i++) {
        rtp_ns t = divisors[tu_range(rng, 0, N_DIV - 1)];
        rtp_ns c = t * target / 100 / (rtp_ns)n + tu_range(rng, -1, 1);
        c = c < 1 ? 1 : c > t ? t : c;
        rtp_ns d = constrained || tu_range(rng, 0, 2) ? tu_range(rng, (c + 1) / 2, t)
                                                     : tu_range(rng, t, 3 * t);
        ts[i] = tu_task(c, d, t);
        prio[i] = distinct ? (int)i + 1 : (int)tu_range(rng, 1, (int64_t)n);
    }
    if (distinct) /* a random order */
        for (size_t i = n; i > 1; i--) {
            size_t j = (size_t)tu_range(rng, 0, (int64_t)i - 1);
            int x = prio[i - 1];
            prio[i - 1] = prio[j];
            prio[j] = x;
        }
    return n;
}

static void test_schedules_follow_the_rules(void **state)
{
    (void)state;
    tu_rng rng = {1616};
    static trace t;
    int runs = 0, preempted = 0, missed = 0;
    for (int k = 0; k < 3000; k++) {
        int m = k % 3 == 0 ? 1 : (int)tu_range(&rng, 1, 4);
        int edf = k % 2, equal = k % 5 == 0;
        rtp_task ts[MAXN];
        int prio[MAXN];
        size_t n = random_set(&rng, ts, prio, m, 0, !equal);
        rtp_policy pol = edf ? (m > 1 ? RTP_POLICY_GEDF : RTP_POLICY_EDF)
                             : (m > 1 ? RTP_POLICY_GFP : RTP_POLICY_FP);
        rtp_sim_periodic_opts opts = {.until_ns = 0, .overrun_task = -1};
        if (k % 7 == 0) {
            opts.overrun_task = (long)tu_range(&rng, 0, (int64_t)n - 1);
            opts.overrun_ns = tu_range(&rng, 1, 3 * ts[opts.overrun_task].wcet_ns);
        }
        memset(&t, 0, sizeof t);
        opts.hooks = (rtp_sim_hooks){&t, on_done, on_ran};
        rtp_sim_task_stats st[MAXN];
        rtp_ns until = 0;
        rtp_ns h = tu_hyperperiod(ts, n);
        if (h > 360)
            opts.until_ns = 400;
        assert_int_equal(rtp_sim_periodic(ts, n, pol, m, prio, &opts, st, &until, NULL), RTP_OK);
        validate(&t, edf, m, prio, until);
        runs++;
        preempted += t.n_segs > t.n_jobs;
        for (size_t i = 0; i < n; i++)
            missed += st[i].misses > 0;
    }
    assert_true(preempted > 1000 && missed > 300);
}

/* ---- against the exact analyses ---- */

static void test_edf_equals_qpa(void **state)
{
    (void)state;
    tu_rng rng = {2009};
    int ok = 0, miss = 0, skipped = 0;
    rtp_limits lim = rtp_limits_default();
    for (int k = 0; k < 4000; k++) {
        rtp_task ts[MAXN];
        int prio[MAXN];
        size_t n = random_set(&rng, ts, prio, 1, k % 2, 1);
        rtp_ns h = tu_hyperperiod(ts, n), work = 0;
        int constrained = 1;
        for (size_t i = 0; i < n; i++) {
            work += h / ts[i].period_ns * ts[i].wcet_ns;
            constrained &= ts[i].deadline_ns <= ts[i].period_ns;
        }
        rtp_edf_result r;
        assert_int_equal(rtp_edf_qpa(ts, n, 1, &lim, &r, NULL), RTP_OK);
        rtp_sim_periodic_opts opts = {.until_ns = 0, .overrun_task = -1};
        rtp_sim_task_stats st[MAXN];
        rtp_ns until;
        assert_int_equal(rtp_sim_periodic(ts, n, RTP_POLICY_EDF, 1, NULL, &opts, st, &until, NULL),
                         RTP_OK);
        rtp_ns first = -1;
        for (size_t i = 0; i < n; i++)
            if (st[i].first_miss_ns >= 0 && (first < 0 || st[i].first_miss_ns < first))
                first = st[i].first_miss_ns;
        if (work > h && !constrained) {
            skipped++; /* U > 1 with D > T: the first miss may lie past H + max D */
            assert_false(r.schedulable);
            continue;
        }
        assert_int_equal(first < 0, r.schedulable);
        if (r.has_first_miss)
            assert_int_equal(first, r.first_miss_ns);
        if (r.schedulable)
            ok++;
        else
            miss++;
    }
    assert_true(ok > 1000 && miss > 1000 && skipped < 1000);
}

static void test_fp_equals_rta(void **state)
{
    (void)state;
    tu_rng rng = {1973};
    int met = 0, late = 0;
    rtp_limits lim = rtp_limits_default();
    for (int k = 0; k < 4000; k++) {
        rtp_task ts[MAXN];
        int prio[MAXN];
        size_t n = random_set(&rng, ts, prio, 1, 1, 1);
        rtp_ns resp[MAXN];
        int sched;
        assert_int_equal(rtp_fp_rta(ts, n, prio, resp, &sched, &lim, NULL), RTP_OK);
        rtp_sim_periodic_opts opts = {.until_ns = 0, .overrun_task = -1};
        rtp_sim_task_stats st[MAXN];
        rtp_ns until;
        assert_int_equal(rtp_sim_periodic(ts, n, RTP_POLICY_FP, 1, prio, &opts, st, &until, NULL),
                         RTP_OK);
        int all = 1;
        for (size_t i = 0; i < n; i++) {
            if (resp[i] >= 0) {
                assert_int_equal(st[i].misses, 0);
                assert_int_equal(st[i].response_max_ns, resp[i]);
                met++;
            } else {
                assert_true(st[i].misses > 0);
                assert_int_equal(st[i].first_miss_ns, ts[i].deadline_ns); /* the first job */
                late++;
                all = 0;
            }
        }
        assert_int_equal(all, sched);
    }
    assert_true(met > 4000 && late > 1000);
}

static void test_global_acceptance_means_no_miss(void **state)
{
    (void)state;
    tu_rng rng = {2007};
    int accepted = 0, missed = 0;
    for (int k = 0; k < 3000; k++) {
        int m = (int)tu_range(&rng, 2, 4), fp = k % 2;
        rtp_task ts[MAXN];
        int prio[MAXN];
        size_t n = random_set(&rng, ts, prio, m, 1, 1);
        rtp_test test = rtp_test_exact(fp ? RTP_POLICY_GFP : RTP_POLICY_GEDF, RTP_PRIO_DM, m,
                                       rtp_limits_default());
        rtp_ns resp[MAXN];
        rtp_test_result res = {.priority = prio, .response_time = resp};
        assert_int_equal(rtp_test_run(&test, ts, n, &res, NULL), RTP_OK);
        rtp_sim_periodic_opts opts = {.until_ns = tu_hyperperiod(ts, n) > 720 ? 1440 : 0,
                                      .overrun_task = -1};
        rtp_sim_task_stats st[MAXN];
        rtp_ns until;
        assert_int_equal(rtp_sim_periodic(ts, n, fp ? RTP_POLICY_GFP : RTP_POLICY_GEDF, m, prio,
                                          &opts, st, &until, NULL), RTP_OK);
        uint64_t misses = 0;
        for (size_t i = 0; i < n; i++)
            misses += st[i].misses;
        if (res.schedulable) {
            assert_int_equal(misses, 0);
            accepted++;
        }
        missed += misses > 0;
    }
    assert_true(accepted > 300 && missed > 300);
}

/* ---- the seed article's figures (docs/tutorial.md) ---- */

static void run_set(const rtp_task *ts, size_t n, rtp_policy pol, int m, const int *prio,
                    long overrun_task, rtp_ns overrun, rtp_ns until, rtp_sim_task_stats *st)
{
    rtp_sim_periodic_opts opts = {.until_ns = until, .overrun_task = overrun_task,
                                  .overrun_ns = overrun};
    rtp_ns used;
    assert_int_equal(rtp_sim_periodic(ts, n, pol, m, prio, &opts, st, &used, NULL), RTP_OK);
}

/* The textbook set (1,4) (2,6) (3,8), U = 23/24 (examples/textbook.json,
 * [LL73]'s setting): EDF meets every deadline over the hyperperiod; each of
 * the six fixed-priority orders misses one. */
static void test_textbook(void **state)
{
    (void)state;
    rtp_task ts[3] = {tu_task(1 * MS, 4 * MS, 4 * MS), tu_task(2 * MS, 6 * MS, 6 * MS),
                      tu_task(3 * MS, 8 * MS, 8 * MS)};
    rtp_sim_task_stats st[3];
    run_set(ts, 3, RTP_POLICY_EDF, 1, NULL, -1, 0, 0, st);
    for (size_t i = 0; i < 3; i++) {
        assert_int_equal(st[i].misses, 0);
        assert_int_equal(st[i].jobs, (32 * MS + ts[i].period_ns - 1) / ts[i].period_ns); /* until H + max D */
    }
    static const int orders[6][3] = {{3, 2, 1}, {3, 1, 2}, {2, 3, 1},
                                     {1, 3, 2}, {2, 1, 3}, {1, 2, 3}};
    for (int o = 0; o < 6; o++) {
        run_set(ts, 3, RTP_POLICY_FP, 1, orders[o], -1, 0, 0, st);
        uint64_t misses = st[0].misses + st[1].misses + st[2].misses;
        assert_true(misses > 0);
    }
    /* Rate monotonic: T3 (lowest) misses its first deadline at 8 ms. */
    run_set(ts, 3, RTP_POLICY_FP, 1, orders[0], -1, 0, 0, st);
    assert_int_equal(st[2].first_miss_ns, 8 * MS);
    assert_int_equal(st[0].misses + st[1].misses, 0);
}

/* The domino effect (examples/domino.json: (1,4) (2,6) (2,8) ms, schedulable
 * under EDF and under rate monotonic): the first job of T2 overruns to 7 ms.
 * Under EDF the overrun is paid by the other tasks, T1 included; under rate
 * monotonic T1 (more urgent than T2) is untouched and T3 (less urgent) pays. */
static void test_domino(void **state)
{
    (void)state;
    rtp_task ts[3] = {tu_task(1 * MS, 4 * MS, 4 * MS), tu_task(2 * MS, 6 * MS, 6 * MS),
                      tu_task(2 * MS, 8 * MS, 8 * MS)};
    static const int rm[3] = {3, 2, 1};
    rtp_sim_task_stats st[3];
    run_set(ts, 3, RTP_POLICY_EDF, 1, NULL, -1, 0, 0, st);
    assert_int_equal(st[0].misses + st[1].misses + st[2].misses, 0);
    run_set(ts, 3, RTP_POLICY_FP, 1, rm, -1, 0, 0, st);
    assert_int_equal(st[0].misses + st[1].misses + st[2].misses, 0);
    run_set(ts, 3, RTP_POLICY_EDF, 1, NULL, 1, 7 * MS, 0, st);
    assert_true(st[0].misses > 0 && st[2].misses > 0);
    run_set(ts, 3, RTP_POLICY_FP, 1, rm, 1, 7 * MS, 0, st);
    assert_int_equal(st[0].misses, 0);
    assert_true(st[1].misses > 0 && st[2].misses > 0);
}

/* Dhall's effect [DL78] (examples/dhall.json): four light tasks (1 ms every
 * 999 ms) and one heavy (1000 ms every 1000 ms) on 4 CPUs. Global EDF runs
 * the light ones first on all four CPUs, so the heavy task finishes at
 * 1001 ms, past its deadline at 1000 ms... seen at 1000 ms (first_miss).
 * Partitioned (heavy alone on a CPU) nothing misses. */
static void test_dhall(void **state)
{
    (void)state;
    rtp_task ts[5];
    for (int i = 0; i < 4; i++)
        ts[i] = tu_task(1 * MS, 999 * MS, 999 * MS);
    ts[4] = tu_task(1000 * MS, 1000 * MS, 1000 * MS);
    rtp_sim_task_stats st[5];
    static trace t;
    memset(&t, 0, sizeof t);
    rtp_sim_periodic_opts opts = {.until_ns = 2000 * MS, .overrun_task = -1,
                                  .hooks = {&t, on_done, on_ran}};
    rtp_ns until;
    assert_int_equal(rtp_sim_periodic(ts, 5, RTP_POLICY_GEDF, 4, NULL, &opts, st, &until, NULL),
                     RTP_OK);
    assert_int_equal(st[4].first_miss_ns, 1000 * MS);
    for (size_t k = 0; k < t.n_jobs; k++)
        if (t.jobs[k].task == 4 && t.jobs[k].arrival_ns == 0)
            assert_int_equal(t.jobs[k].finish_ns, 1001 * MS);
    for (int i = 0; i < 4; i++)
        assert_int_equal(st[i].misses, 0);
    /* Partitioned: the heavy task alone, the light ones on another CPU. */
    run_set(&ts[4], 1, RTP_POLICY_EDF, 1, NULL, -1, 0, 2000 * MS, st);
    assert_int_equal(st[0].misses, 0);
    run_set(ts, 4, RTP_POLICY_EDF, 1, NULL, -1, 0, 2000 * MS, st);
    for (int i = 0; i < 4; i++)
        assert_int_equal(st[i].misses, 0);
}

/* Limits and the engine's input checks. */
static void test_limits(void **state)
{
    (void)state;
    rtp_task ts[2] = {tu_task(1, 3, 1000000007LL), tu_task(1, 5, 1000000009LL * 1000000)};
    rtp_ns until;
    rtp_diag d;
    assert_int_equal(rtp_sim_default_until(ts, 2, &until, &d), RTP_ELIMIT);
    assert_non_null(strstr(d.message, "2^62"));
    rtp_task small[1] = {tu_task(1, 2, 2)};
    uint64_t jobs;
    assert_int_equal(rtp_sim_count_jobs(small, 1, 20000001, &jobs, &d), RTP_ELIMIT);
    /* in time units, with a horizon that fits (it once said "before
     * 8334000000000 ns: give a shorter --until") */
    assert_string_equal(d.message, "more than 10^7 jobs before 20.000001ms: simulate a shorter "
                                   "window, e.g. --until 20ms (at most 20ms holds 10^7 jobs; "
                                   "--from picks where the SVG starts)");
    rtp_task two[2] = {tu_task(1, 3, 3), tu_task(1, 7, 7)};
    assert_int_equal(rtp_sim_count_jobs(two, 2, (rtp_ns)1 << 40, &jobs, &d), RTP_ELIMIT);
    /* jobs(u) = ceil(u/3) + ceil(u/7) <= 10^7 holds up to u = 21000000 */
    assert_non_null(strstr(d.message, "--until 21ms (at most 21ms holds"));
    assert_int_equal(rtp_sim_count_jobs(two, 2, 21000000, &jobs, &d), RTP_OK);
    assert_int_equal(rtp_sim_count_jobs(two, 2, 21000001, &jobs, &d), RTP_ELIMIT);
    assert_int_equal(rtp_sim_count_jobs(small, 1, 20000000, &jobs, &d), RTP_OK);
    assert_int_equal(jobs, 10000000);
    rtp_sim *sim;
    assert_int_equal(rtp_sim_create(RTP_POLICY_FP, 1, NULL, 1, NULL, &sim, &d), RTP_EINPUT);
    assert_int_equal(rtp_sim_create(RTP_POLICY_EDF, 1, NULL, 1, NULL, &sim, &d), RTP_OK);
    assert_int_equal(rtp_sim_run(sim, 5, &d), RTP_OK);
    rtp_sim_job late = {.task = 0, .arrival_ns = 4, .release_ns = 4, .deadline_ns = 9,
                        .exec_ns = 1};
    assert_int_equal(rtp_sim_add(sim, &late, NULL, &d), RTP_EINPUT); /* in the past */
    assert_int_equal(rtp_sim_run(sim, 4, &d), RTP_EINPUT);
    rtp_sim_free(sim);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_schedules_follow_the_rules),
        cmocka_unit_test(test_edf_equals_qpa),
        cmocka_unit_test(test_fp_equals_rta),
        cmocka_unit_test(test_global_acceptance_means_no_miss),
        cmocka_unit_test(test_textbook),
        cmocka_unit_test(test_domino),
        cmocka_unit_test(test_dhall),
        cmocka_unit_test(test_limits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
