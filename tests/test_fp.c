/* tests/test_fp.c — solver/fp.h: exact response times and priority
 * assignment.
 *
 * References written here, slow and obviously correct:
 *  - a fixed-priority simulation in unit steps from the synchronous release
 *    (the critical instant): preemptive between priorities, first-in
 *    first-out among equal priorities (SCHED_FIFO), ties by release time and
 *    then the analysed task last (its worst case), then input order. The WCRT
 *    of task i is the largest response of its jobs released in [0, H), H the
 *    hyperperiod (a divisor of 720), which covers the first level-i busy
 *    period whenever the level-i utilization is <= 1. With equal priorities
 *    the synchronous release is not i's worst case (FIFO: an equal job
 *    released just before i's, delayed by higher ones, still runs first), so
 *    i is then also released at every phase 0..T_i-1 and the worst taken;
 *  - OPA's optimality: a distinct-priority order passing the exact test
 *    exists (every permutation tried, n <= 7) iff OPA finds one; and docs/spec.md's
 *    candidate rule replayed step by step with rtp_fp_rta. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "solver/fp.h"
#include "support/testutil.h"

static const rtp_ns divisors720[] = {2, 3, 4, 5, 6, 8, 9, 10, 12, 15, 16, 18, 20, 24, 30,
                                     36, 40, 45, 48, 60, 72, 80, 90, 120, 144, 180};
#define N_DIV (sizeof divisors720 / sizeof divisors720[0])
#define MAXN 8

/* Level-i utilization above 1? (integer: work in one hyperperiod vs H). */
static int level_overloaded(const rtp_task *ts, size_t n, const int *prio, size_t i)
{
    rtp_ns h = tu_hyperperiod(ts, n), work = 0;
    for (size_t j = 0; j < n; j++)
        if (prio[j] >= prio[i])
            work += h / ts[j].period_ns * ts[j].wcet_ns;
    return work > h;
}

/* ---- the simulation reference ---- */

typedef struct job {
    size_t task;
    rtp_ns release, left;
} job;

/* Does job a run before job b? Higher priority first; equal priorities in
 * release order, the analysed task last among simultaneous releases. */
static int before(const job *a, const job *b, const int *prio, size_t analysed)
{
    if (prio[a->task] != prio[b->task])
        return prio[a->task] > prio[b->task];
    if (a->release != b->release)
        return a->release < b->release;
    if ((a->task == analysed) != (b->task == analysed))
        return b->task == analysed;
    return a->task < b->task;
}

/* Largest response of task i's jobs released in [phase, phase + H) when i is
 * released at phase + k T_i and the others at k T_j; -2 when they do not all
 * complete within the horizon. */
static rtp_ns ref_wcrt_phased(const rtp_task *ts, size_t n, const int *prio, size_t i,
                              rtp_ns phase)
{
    rtp_ns h = tu_hyperperiod(ts, n), horizon = 40 * h + 4000 + phase;
    size_t cap = 4096, count = 0;
    job *jobs = malloc(cap * sizeof *jobs);
    rtp_ns worst = 0, pending_i = h / ts[i].period_ns;
    for (rtp_ns now = 0; pending_i > 0 && now < horizon; now++) {
        for (size_t j = 0; j < n; j++)
            if (j == i ? now >= phase && (now - phase) % ts[i].period_ns == 0
                       : now % ts[j].period_ns == 0) {
                if (count == cap)
                    jobs = realloc(jobs, (cap *= 2) * sizeof *jobs);
                jobs[count++] = (job){j, now, ts[j].wcet_ns};
            }
        size_t pick = count;
        for (size_t k = 0; k < count; k++)
            if (pick == count || before(&jobs[k], &jobs[pick], prio, i))
                pick = k;
        if (pick == count)
            continue;
        if (--jobs[pick].left == 0) {
            if (jobs[pick].task == i && jobs[pick].release < phase + h) {
                if (now + 1 - jobs[pick].release > worst)
                    worst = now + 1 - jobs[pick].release;
                pending_i--;
            }
            jobs[pick] = jobs[--count];
        }
    }
    free(jobs);
    return pending_i > 0 ? -2 : worst;
}

/* The worst over i's phases when it shares its priority, else synchronous. */
static rtp_ns ref_wcrt(const rtp_task *ts, size_t n, const int *prio, size_t i)
{
    rtp_ns phases = 1, worst = 0;
    for (size_t j = 0; j < n; j++)
        if (j != i && prio[j] == prio[i])
            phases = ts[i].period_ns;
    for (rtp_ns phase = 0; phase < phases; phase++) {
        rtp_ns r = ref_wcrt_phased(ts, n, prio, i, phase);
        if (r < 0)
            return r;
        worst = r > worst ? r : worst;
    }
    return worst;
}

static size_t random_set(tu_rng *rng, rtp_task *ts, int *prio)
{
    size_t n = (size_t)tu_range(rng, 1, 5);
    int64_t target = tu_range(rng, 40, 105);
    for (size_t i = 0; i < n; i++) {
        rtp_ns t = divisors720[tu_range(rng, 0, N_DIV - 1)];
        rtp_ns c = t * target / 100 / (rtp_ns)n + tu_range(rng, -1, 1);
        c = c < 1 ? 1 : c > t ? t : c;
        rtp_ns d;
        switch (tu_range(rng, 0, 2)) {
        case 0: d = t; break;
        case 1: d = tu_range(rng, 1, t); break;
        default: d = tu_range(rng, t, 3 * t); break;
        }
        ts[i] = tu_task(c, d, t);
        prio[i] = (int)tu_range(rng, 1, (int64_t)n); /* equal priorities happen */
    }
    return n;
}

static void test_rta_vs_simulation(void **state)
{
    (void)state;
    tu_rng rng = {7};
    int met = 0, missed = 0, multi_job = 0, with_equal = 0;
    rtp_task ts[MAXN];
    int prio[MAXN];
    rtp_limits lim = rtp_limits_default();
    for (int k = 0; k < 3000; k++) {
        size_t n = random_set(&rng, ts, prio);
        rtp_ns resp[MAXN];
        int sched = -1;
        assert_int_equal(rtp_fp_rta(ts, n, prio, resp, &sched, &lim, NULL), RTP_OK);
        int all = 1;
        for (size_t i = 0; i < n; i++) {
            for (size_t j = 0; j < n; j++)
                with_equal += j != i && prio[j] == prio[i];
            if (level_overloaded(ts, n, prio, i)) {
                assert_int_equal(resp[i], -1);
                all = 0;
                continue;
            }
            rtp_ns ref = ref_wcrt(ts, n, prio, i);
            assert_true(ref > 0);
            if (ref > ts[i].deadline_ns) {
                assert_int_equal(resp[i], -1);
                all = 0;
                missed++;
            } else {
                if (resp[i] != ref)
                    print_error("task %zu of set %d: rta %lld, simulation %lld\n", i, k,
                                (long long)resp[i], (long long)ref);
                assert_int_equal(resp[i], ref);
                met++;
                multi_job += ref > ts[i].period_ns;
            }
        }
        assert_int_equal(sched, all);
    }
    assert_true(met > 2000 && missed > 500 && multi_job > 100 && with_equal > 1000);
}

/* Published examples. */
static void test_golden(void **state)
{
    (void)state;
    rtp_limits lim = rtp_limits_default();
    rtp_ns resp[3];
    int sched;
    /* Burns & Wellings [BW09],
     * response-time analysis example: a (C 3, T 7), b (3, 12), c (5, 20),
     * priorities by RM: R = 3, 6, 20. */
    rtp_task bw[3] = {tu_task(3, 7, 7), tu_task(3, 12, 12), tu_task(5, 20, 20)};
    int bw_prio[3] = {3, 2, 1};
    assert_int_equal(rtp_fp_rta(bw, 3, bw_prio, resp, &sched, &lim, NULL), RTP_OK);
    assert_int_equal(resp[0], 3);
    assert_int_equal(resp[1], 6);
    assert_int_equal(resp[2], 20);
    assert_true(sched);
    /* Lehoczky [Leh90], arbitrary deadlines: tau1 (C 26, T 70) above tau2
     * (C 62, T 100). tau2's jobs respond in 114, 102, 116, 104, 118, 106, 94:
     * the worst is the fifth job, 118 (the first alone would say 114). */
    rtp_task lz[2] = {tu_task(26, 70, 70), tu_task(62, 118, 100)};
    int lz_prio[2] = {2, 1};
    assert_int_equal(rtp_fp_rta(lz, 2, lz_prio, resp, &sched, &lim, NULL), RTP_OK);
    assert_int_equal(resp[1], 118);
    assert_true(sched);
    lz[1].deadline_ns = 117;
    assert_int_equal(rtp_fp_rta(lz, 2, lz_prio, resp, &sched, &lim, NULL), RTP_OK);
    assert_int_equal(resp[1], -1);
    assert_false(sched);
    /* The seed article's textbook set under RM: T3 misses (w: 6, 7, 9 > 8). */
    rtp_task text[3] = {tu_task(1, 4, 4), tu_task(2, 6, 6), tu_task(3, 8, 8)};
    int rm[3], found;
    assert_int_equal(rtp_fp_assign(text, 3, RTP_PRIO_RM, rm, &found, &lim, NULL), RTP_OK);
    assert_int_equal(rm[0], 3);
    assert_int_equal(rm[2], 1);
    assert_int_equal(rtp_fp_rta(text, 3, rm, resp, &sched, &lim, NULL), RTP_OK);
    assert_int_equal(resp[0], 1);
    assert_int_equal(resp[1], 3);
    assert_int_equal(resp[2], -1);
    /* ... and no order works: OPA finds none and falls back to DM. */
    int opa[3];
    assert_int_equal(rtp_fp_assign(text, 3, RTP_PRIO_OPA, opa, &found, &lim, NULL), RTP_OK);
    assert_false(found);
    assert_int_equal(opa[0], 3);
    assert_int_equal(opa[1], 2);
    assert_int_equal(opa[2], 1);
    /* Equal priorities interfere: each waits for the other's job. */
    rtp_task eq[2] = {tu_task(2, 10, 10), tu_task(3, 10, 10)};
    int eq_prio[2] = {1, 1};
    assert_int_equal(rtp_fp_rta(eq, 2, eq_prio, resp, &sched, &lim, NULL), RTP_OK);
    assert_int_equal(resp[0], 5);
    assert_int_equal(resp[1], 5);
    /* Regression (fuzz_analysis): FIFO among equal priorities is not worst at
     * the synchronous release. a (C 7, D 12, T 40) and c (C 1, T 4) share a
     * priority below b (C 4, T 12). Synchronously a completes at 12, but its
     * job at 40 waits for c's job released at 36 (delayed by b until 40),
     * then c's job at 40, and b again at 48: it completes at 53, R = 13 > 12.
     * The old analysis took only the synchronous release: "schedulable". */
    rtp_task fifo[3] = {tu_task(7, 12, 40), tu_task(4, 6, 12), tu_task(1, 30, 4)};
    int fifo_prio[3] = {1, 2, 1};
    assert_int_equal(rtp_fp_rta(fifo, 3, fifo_prio, resp, &sched, &lim, NULL), RTP_OK);
    assert_int_equal(resp[0], -1);
    assert_int_equal(resp[1], 4);
    assert_int_equal(resp[2], 13);
    assert_false(sched);
    fifo[0].deadline_ns = 13;
    assert_int_equal(rtp_fp_rta(fifo, 3, fifo_prio, resp, &sched, &lim, NULL), RTP_OK);
    assert_int_equal(resp[0], 13);
    assert_true(sched);
    /* The video task alone: 5 ms. */
    rtp_task video = tu_task(5000000, 10000000, 16666666);
    int one = 1;
    assert_int_equal(rtp_fp_rta(&video, 1, &one, resp, &sched, &lim, NULL), RTP_OK);
    assert_int_equal(resp[0], 5000000);
}

static void test_assign_rules(void **state)
{
    (void)state;
    rtp_limits lim = rtp_limits_default();
    int p[4], found;
    /* RM / DM ties go to the task that comes first in the input. */
    rtp_task ts[4] = {tu_task(1, 9, 10), tu_task(1, 5, 10), tu_task(1, 5, 20), tu_task(1, 20, 5)};
    assert_int_equal(rtp_fp_assign(ts, 4, RTP_PRIO_RM, p, &found, &lim, NULL), RTP_OK);
    assert_true(found);
    assert_int_equal(p[3], 4);
    assert_int_equal(p[0], 3);
    assert_int_equal(p[1], 2);
    assert_int_equal(p[2], 1);
    assert_int_equal(rtp_fp_assign(ts, 4, RTP_PRIO_DM, p, &found, &lim, NULL), RTP_OK);
    assert_int_equal(p[1], 4);
    assert_int_equal(p[2], 3);
    assert_int_equal(p[0], 2);
    assert_int_equal(p[3], 1);
    /* Given: a dense ranking, equal values share a number. */
    ts[0].has_priority = ts[1].has_priority = ts[2].has_priority = ts[3].has_priority = 1;
    ts[0].priority = 10;
    ts[1].priority = 5;
    ts[2].priority = 10;
    ts[3].priority = 99;
    assert_int_equal(rtp_fp_assign(ts, 4, RTP_PRIO_GIVEN, p, &found, &lim, NULL), RTP_OK);
    assert_int_equal(p[0], 2);
    assert_int_equal(p[1], 1);
    assert_int_equal(p[2], 2);
    assert_int_equal(p[3], 3);
    ts[1].has_priority = 0;
    rtp_diag diag;
    rtp_diag_clear(&diag);
    assert_int_equal(rtp_fp_assign(ts, 4, RTP_PRIO_GIVEN, p, &found, &lim, &diag), RTP_EINPUT);
    assert_string_equal(diag.path, "tasks[1].priority");
}

/* ---- OPA ---- */

static int next_permutation(int *a, size_t n)
{
    size_t i = n - 1;
    while (i > 0 && a[i - 1] >= a[i])
        i--;
    if (i == 0)
        return 0;
    size_t j = n - 1;
    while (a[j] <= a[i - 1])
        j--;
    int t = a[i - 1];
    a[i - 1] = a[j];
    a[j] = t;
    for (size_t l = i, r = n - 1; l < r; l++, r--) {
        t = a[l];
        a[l] = a[r];
        a[r] = t;
    }
    return 1;
}

static int any_order_works(const rtp_task *ts, size_t n)
{
    int perm[MAXN];
    for (size_t i = 0; i < n; i++)
        perm[i] = (int)i + 1;
    do {
        rtp_ns resp[MAXN];
        int sched;
        rtp_limits lim = rtp_limits_default();
        assert_int_equal(rtp_fp_rta(ts, n, perm, resp, &sched, &lim, NULL), RTP_OK);
        if (sched)
            return 1;
    } while (next_permutation(perm, n));
    return 0;
}

/* docs/spec.md's rule replayed: level 1 upward, candidates by reverse DM (largest
 * deadline first, later input first among equals), other unassigned tasks
 * all above the candidate. */
static int ref_opa(const rtp_task *ts, size_t n, int *out)
{
    int assigned[MAXN] = {0};
    for (int level = 1; level <= (int)n; level++) {
        int taken = 0;
        for (size_t pass = 0; pass < n && !taken; pass++) {
            size_t cand = n; /* the pass-th least urgent by DM */
            for (size_t i = 0; i < n; i++) {
                if (assigned[i])
                    continue;
                size_t less = 0; /* unassigned tasks less urgent than i by DM */
                for (size_t j = 0; j < n; j++)
                    less += !assigned[j] && j != i &&
                            (ts[j].deadline_ns > ts[i].deadline_ns ||
                             (ts[j].deadline_ns == ts[i].deadline_ns && j > i));
                if (less == pass)
                    cand = i;
            }
            if (cand == n)
                break;
            int prio[MAXN], next = level + 1;
            for (size_t i = 0; i < n; i++)
                prio[i] = assigned[i] ? assigned[i] : i == cand ? level : next++;
            rtp_ns resp[MAXN];
            int sched;
            rtp_limits lim = rtp_limits_default();
            assert_int_equal(rtp_fp_rta(ts, n, prio, resp, &sched, &lim, NULL), RTP_OK);
            if (resp[cand] >= 0) {
                assigned[cand] = level;
                taken = 1;
            }
        }
        if (!taken)
            return 0;
    }
    memcpy(out, assigned, n * sizeof *out);
    return 1;
}

static void test_opa_vs_permutations(void **state)
{
    (void)state;
    tu_rng rng = {2001};
    int outcomes[2] = {0, 0};
    rtp_limits lim = rtp_limits_default();
    for (int k = 0; k < 600; k++) {
        rtp_task ts[MAXN];
        int unused[MAXN];
        size_t n = random_set(&rng, ts, unused);
        if (k % 10 == 0)
            n = (size_t)tu_range(&rng, 6, 7);
        for (size_t i = 0; i < n; i++) {
            rtp_ns t = divisors720[tu_range(&rng, 0, N_DIV - 1)];
            rtp_ns c = tu_range(&rng, 1, t * 2 / (rtp_ns)n + 1);
            c = c > t ? t : c;
            ts[i] = tu_task(c, tu_range(&rng, c, 2 * t), t);
        }
        int prio[MAXN], found = -1, dm[MAXN], dm_found;
        assert_int_equal(rtp_fp_assign(ts, n, RTP_PRIO_OPA, prio, &found, &lim, NULL), RTP_OK);
        assert_int_equal(found, any_order_works(ts, n));
        outcomes[found]++;
        if (found) {
            int ref[MAXN];
            assert_true(ref_opa(ts, n, ref));
            assert_memory_equal(prio, ref, n * sizeof *prio);
            rtp_ns resp[MAXN];
            int sched;
            assert_int_equal(rtp_fp_rta(ts, n, prio, resp, &sched, &lim, NULL), RTP_OK);
            assert_true(sched);
        } else {
            assert_int_equal(rtp_fp_assign(ts, n, RTP_PRIO_DM, dm, &dm_found, &lim, NULL), RTP_OK);
            assert_memory_equal(prio, dm, n * sizeof *prio);
        }
    }
    assert_true(outcomes[0] > 100 && outcomes[1] > 100);
}

/* Co-prime periods near 2^40: no overflow, and a level-i utilization of
 * exactly 1 with a huge busy period is a resource limit, never a guess. */
static void test_large_and_limits(void **state)
{
    (void)state;
    const rtp_ns p = ((rtp_ns)1 << 40) - 1, q = ((rtp_ns)1 << 40) - 3;
    rtp_task ts[2] = {tu_task(p / 2, p, p), tu_task(q / 3, q, q)};
    int prio[2] = {2, 1};
    rtp_ns resp[2];
    int sched;
    rtp_limits lim = rtp_limits_default();
    assert_int_equal(rtp_fp_rta(ts, 2, prio, resp, &sched, &lim, NULL), RTP_OK);
    assert_int_equal(resp[0], p / 2);
    assert_int_equal(resp[1], q / 3 + p / 2); /* one preemption */
    /* Arbitrary deadlines, level utilization exactly 1: busy period p q. */
    rtp_task full[2] = {tu_task(p - (p - 1) / 2, p, p), tu_task((q - 1) / 2, 3 * q, q)};
    lim.max_iterations = 10000;
    rtp_diag diag;
    rtp_diag_clear(&diag);
    rtp_status st = rtp_fp_rta(full, 2, prio, resp, &sched, &lim, &diag);
    assert_true(st == RTP_ELIMIT || (st == RTP_OK && resp[1] == -1));
    /* Level utilization above 1: a miss at once, not an endless busy period. */
    rtp_task over[2] = {tu_task(p / 2 + 1, p, p), tu_task(q / 2 + 1, 5 * q, q)};
    assert_int_equal(rtp_fp_rta(over, 2, prio, resp, &sched, &lim, NULL), RTP_OK);
    assert_int_equal(resp[1], -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_golden),
        cmocka_unit_test(test_assign_rules),
        cmocka_unit_test(test_rta_vs_simulation),
        cmocka_unit_test(test_opa_vs_permutations),
        cmocka_unit_test(test_large_and_limits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
