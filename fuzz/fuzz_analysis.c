/* fuzz/fuzz_analysis.c — differential libFuzzer target for the exact
 * analyses of solver/: the input bytes become a small task set (n <= 6) and
 * every answer is compared with a slow reference written here:
 *   - rtp_edf_qpa: verdict and first_miss against brute-force dbf over
 *     [1, H + Dmax] [BMR90], U > 1 by exact cross-products;
 *   - rtp_fp_rta (priorities by rtp_fp_assign, DM/RM/OPA/given with ties):
 *     response times against a unit-step simulation of the level-i tasks
 *     released at 0 (FIFO among equal priorities, the task under study last
 *     at equal release times; when it shares its priority, released at every
 *     phase 0..T-1 instead) until the schedule repeats;
 *     OPA "not found" against every permutation (n <= 5);
 *   - rtp_global_edf / rtp_global_fp on m = 2 or 3 (sufficient tests): an accepted
 *     set must not miss in a unit-step simulation, synchronous and with
 *     offsets taken from the input.
 *   - with release jitter and blocking (mode bit 0x08): rtp_edf_qpa against
 *     the demand of the definition and an EDF simulation, rtp_fp_rta against
 *     simulated legal release patterns (tests/support/reference.h: the
 *     critical instant and patterns drawn from the input), both directions;
 *     the global tests on m >= 2 must not accept (not applicable);
 * Tiny max_iterations (from the input) must give the right answer or
 * RTP_ELIMIT, never another verdict. "Huge" inputs (times near 2^62) only
 * check: no crash, no sanitizer report, status OK or RTP_ELIMIT.
 * A broken rule aborts, which libFuzzer reports with the input saved. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "solver/edf.h"
#include "solver/fp.h"
#include "solver/global.h"
#include "models/effective.h"
#include "solver/schedtest.h"
#include "support/reference.h"
#include "support/testutil.h"

#define MAX_TASKS 6
#define MAX_HYPER 5040 /* simulation horizons stay a few thousand steps */

#define CHECK(cond)                                                               \
    do {                                                                          \
        if (!(cond)) {                                                            \
            fprintf(stderr, "fuzz_analysis: broken rule: %s (line %d)\n", #cond,  \
                    __LINE__);                                                    \
            dump(tasks, n);                                                       \
            abort();                                                              \
        }                                                                         \
    } while (0)

typedef struct reader {
    const uint8_t *data;
    size_t size, at;
} reader;

static unsigned byte(reader *r)
{
    return r->at < r->size ? r->data[r->at++] : 0;
}

static void dump(const rtp_task *tasks, size_t n)
{
    for (size_t i = 0; i < n; i++)
        fprintf(stderr, "  task %zu: C=%lld D=%lld T=%lld J=%lld B=%lld prio=%d\n", i,
                (long long)tasks[i].wcet_ns, (long long)tasks[i].deadline_ns,
                (long long)tasks[i].period_ns, (long long)tasks[i].jitter_ns,
                (long long)tasks[i].blocking_ns, tasks[i].priority);
}

static int64_t gcd64(int64_t a, int64_t b)
{
    while (b) {
        int64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* ---- small sets: decoding ---- */

static const int64_t periods[] = {1,  2,  3,  4,  5,  6,  8,  9,  10, 12, 15, 18, 20, 24,
                                  30, 36, 40, 45, 60, 72, 90, 7,  11, 14, 21, 35, 13, 16};

/* *hyper = 0 when the hyperperiod passes MAX_HYPER. any_period: periods
 * 1..100 (long hyperperiods, where La and Lb both matter), else from the
 * table above. */
static void decode_small(reader *r, rtp_task *tasks, size_t n, int any_period,
                         int64_t *hyper)
{
    int64_t h = 1;
    for (size_t i = 0; i < n; i++) {
        rtp_task *t = &tasks[i];
        memset(t, 0, sizeof *t);
        int64_t period = any_period ? 1 + byte(r) % 100
                                    : periods[byte(r) % (sizeof periods / sizeof *periods)];
        unsigned shape = byte(r);
        int64_t wcet = 1 + byte(r) % (period + 1 + (shape & 1)); /* sometimes C > T */
        int64_t deadline;
        switch ((shape >> 1) % 4) {
        case 0: deadline = period; break;
        case 1: deadline = 1 + byte(r) % period; break;        /* constrained */
        case 2: deadline = 1 + byte(r) % (3 * period); break;  /* arbitrary */
        default: deadline = wcet + byte(r) % 3; break;         /* tight */
        }
        t->wcet_ns = wcet;
        t->deadline_ns = deadline;
        t->period_ns = period;
        t->has_priority = 1;
        t->priority = (int)(byte(r) % 4);
        if (h > 0)
            h = h / gcd64(h, period) * period;
        if (h > MAX_HYPER)
            h = 0;
    }
    *hyper = h;
}

/* sign(U - 1) by exact fractions (periods <= 100, n <= 6: fits 128 bits). */
static int util_cmp(const rtp_task *tasks, size_t n)
{
    __int128 num = 0, den = 1;
    for (size_t i = 0; i < n; i++) {
        num = num * tasks[i].period_ns + (__int128)tasks[i].wcet_ns * den;
        den *= tasks[i].period_ns;
    }
    return (num > den) - (num < den);
}

/* The synchronous busy period (least fixed point of sum ceil(w/T) C), or 0
 * when it passes `cap`. */
static int64_t ref_busy_period(const rtp_task *tasks, size_t n, int64_t cap)
{
    int64_t w = 0, next = 0;
    for (size_t i = 0; i < n; i++)
        next += tasks[i].wcet_ns;
    while (next != w) {
        w = next;
        if (w > cap)
            return 0;
        next = 0;
        for (size_t i = 0; i < n; i++)
            next += ((w - 1) / tasks[i].period_ns + 1) * tasks[i].wcet_ns;
    }
    return w;
}

/* ---- EDF reference ---- */

static int64_t ref_dbf(const rtp_task *tasks, size_t n, int64_t t)
{
    int64_t sum = 0;
    for (size_t i = 0; i < n; i++)
        if (t >= tasks[i].deadline_ns)
            sum += ((t - tasks[i].deadline_ns) / tasks[i].period_ns + 1) * tasks[i].wcet_ns;
    return sum;
}

static void check_edf(const rtp_task *tasks, size_t n, int64_t h, uint64_t max_iter)
{
    int64_t dmax = 0, miss = 0;
    for (size_t i = 0; i < n; i++)
        dmax = tasks[i].deadline_ns > dmax ? tasks[i].deadline_ns : dmax;
    int overloaded = util_cmp(tasks, n) > 0;
    /* U <= 1: a miss, if any, is due by H + Dmax [BMR90] and
     * within the synchronous busy period [Spu96]; the latter is used
     * for long hyperperiods. */
    int64_t upto = h > 0 ? h + dmax : overloaded ? 0 : ref_busy_period(tasks, n, 200000);
    if (upto == 0 && !overloaded)
        return; /* no affordable reference */
    for (int64_t t = 1; t <= upto && !miss; t++)
        if (ref_dbf(tasks, n, t) > t)
            miss = t;
    int want = !overloaded && !miss;
    rtp_limits lim = {.max_iterations = max_iter};
    for (int fm = 0; fm <= 1; fm++) {
        rtp_edf_result res;
        rtp_diag diag;
        rtp_diag_clear(&diag);
        rtp_status st = rtp_edf_qpa(tasks, n, fm, &lim, &res, &diag);
        if (max_iter < 1000 && st == RTP_ELIMIT)
            continue;
        if (st != RTP_OK)
            fprintf(stderr, "edf status %d: %s\n", (int)st, diag.message);
        CHECK(st == RTP_OK);
        if (res.schedulable != want)
            fprintf(stderr, "edf: got %d want %d (ref miss %lld, U>1 %d)\n", res.schedulable,
                    want, (long long)miss, overloaded);
        CHECK(res.schedulable == want);
        if (fm && !want && !overloaded) {
            if (!res.has_first_miss || res.first_miss_ns != miss)
                fprintf(stderr, "edf first_miss: got %d/%lld want %lld\n", res.has_first_miss,
                        (long long)res.first_miss_ns, (long long)miss);
            CHECK(res.has_first_miss && res.first_miss_ns == miss);
        } else {
            CHECK(!res.has_first_miss);
        }
    }
    /* The bound must cover the first miss when U <= 1, and (its contract)
     * reach min(La, Lb): La [GRS96] with every term, Lb the
     * busy period. This catches a short bound without needing a miss past
     * it, which is rare. */
    rtp_ns bound = 0;
    rtp_diag diag;
    int loose = 1;
    for (size_t i = 0; i < n; i++)
        loose = loose && tasks[i].deadline_ns >= tasks[i].period_ns;
    if (max_iter >= 1000 && !overloaded && !loose) {
        CHECK(rtp_edf_bound(tasks, n, &lim, &bound, &diag) == RTP_OK);
        if (miss)
            CHECK(bound >= miss);
        int64_t lb = ref_busy_period(tasks, n, 10000000), target = lb;
        __int128 prod = 1, num = 0, den = 0;
        for (size_t i = 0; i < n; i++)
            prod *= tasks[i].period_ns;
        den = prod;
        for (size_t i = 0; i < n; i++) {
            __int128 share = prod / tasks[i].period_ns * tasks[i].wcet_ns; /* U_i prod */
            num += (__int128)(tasks[i].period_ns - tasks[i].deadline_ns) * share;
            den -= share;
        }
        if (den > 0) { /* U < 1 */
            __int128 la = num > 0 ? (num + den - 1) / den : 0;
            for (size_t i = 0; i < n; i++)
                if (tasks[i].deadline_ns - tasks[i].period_ns > la)
                    la = tasks[i].deadline_ns - tasks[i].period_ns;
            if (lb == 0 || la < target)
                target = (int64_t)la;
        }
        if (lb > 0 || den > 0) {
            if (bound < target)
                fprintf(stderr, "edf bound %lld below min(La, Lb) = %lld\n", (long long)bound,
                        (long long)target);
            CHECK(bound >= target);
        }
    }
    /* dbf itself */
    for (int64_t t = 0; t <= upto; t += 1 + (t / 64)) {
        rtp_ns d;
        CHECK(rtp_edf_dbf(tasks, n, t, &d) == RTP_OK && d == ref_dbf(tasks, n, t));
    }
}

/* ---- uniprocessor FP reference ---- */

#define MAX_PENDING 64

/* Worst response of task k under `prio`, simulating only tasks with
 * priority >= prio[k], all released at 0 but k at `phase`; FIFO among equals
 * with k last at equal release times. -1 when a response passes D_k or the
 * level is overloaded; -2 when the schedule was not seen to repeat. */
static int64_t ref_fp_response(const rtp_task *tasks, size_t n, const int *prio, size_t k,
                               int64_t h, int64_t phase)
{
    size_t idx[MAX_TASKS], m = 0;
    for (size_t j = 0; j < n; j++)
        if (prio[j] >= prio[k])
            idx[m++] = j;
    int64_t sum = 0;
    for (size_t a = 0; a < m; a++)
        sum += h / tasks[idx[a]].period_ns * tasks[idx[a]].wcet_ns;
    if (sum > h)
        return -1;
    /* pending jobs: per task a FIFO of (release, remaining) */
    int64_t rel[MAX_TASKS][MAX_PENDING], rem[MAX_TASKS][MAX_PENDING];
    int cnt[MAX_TASKS] = {0};
    int64_t worst = 0, prev_state[MAX_TASKS] = {0};
    for (int64_t t = 0;; t++) {
        if (t % h == 0 && t > 0) {
            int same = 1, empty = 1;
            for (size_t a = 0; a < m; a++) {
                int64_t backlog = 0;
                for (int q = 0; q < cnt[a]; q++)
                    backlog += rem[a][q];
                same = same && backlog == prev_state[a];
                empty = empty && backlog == 0;
                prev_state[a] = backlog;
            }
            if (empty || same)
                return worst;
            if (t >= 8 * h)
                return -2;
        }
        for (size_t a = 0; a < m; a++)
            if (idx[a] == k ? t >= phase && (t - phase) % tasks[k].period_ns == 0
                            : t % tasks[idx[a]].period_ns == 0) {
                if (cnt[a] == MAX_PENDING)
                    return -2;
                rel[a][cnt[a]] = t;
                rem[a][cnt[a]] = tasks[idx[a]].wcet_ns;
                cnt[a]++;
            }
        /* pick: highest priority, then earliest release, k last at ties */
        int best = -1;
        for (size_t a = 0; a < m; a++) {
            if (!cnt[a])
                continue;
            if (best < 0) {
                best = (int)a;
                continue;
            }
            size_t ja = idx[a], jb = idx[best];
            if (prio[ja] != prio[jb]) {
                if (prio[ja] > prio[jb])
                    best = (int)a;
                continue;
            }
            if (rel[a][0] != rel[best][0]) {
                if (rel[a][0] < rel[best][0])
                    best = (int)a;
                continue;
            }
            if (jb == k)
                best = (int)a;
        }
        if (best < 0)
            continue;
        if (--rem[best][0] == 0) {
            if (idx[best] == k) {
                int64_t r = t + 1 - rel[best][0];
                if (r > tasks[k].deadline_ns)
                    return -1;
                if (r > worst)
                    worst = r;
            }
            memmove(rel[best], rel[best] + 1, (size_t)(cnt[best] - 1) * sizeof(int64_t));
            memmove(rem[best], rem[best] + 1, (size_t)(cnt[best] - 1) * sizeof(int64_t));
            cnt[best]--;
        }
        if (t > tasks[k].deadline_ns + phase + 16 * h)
            return -2;
    }
}

/* Compares rtp_fp_rta under prio with the simulation; returns its verdict. */
static int check_rta(const rtp_task *tasks, size_t n, const int *prio, int64_t h,
                     uint64_t max_iter)
{
    rtp_ns resp[MAX_TASKS];
    int sched = -1;
    rtp_limits lim = {.max_iterations = max_iter};
    rtp_diag diag;
    rtp_diag_clear(&diag);
    rtp_status st = rtp_fp_rta(tasks, n, prio, resp, &sched, &lim, &diag);
    if (max_iter < 1000 && st == RTP_ELIMIT)
        return -1;
    if (st != RTP_OK)
        fprintf(stderr, "fp status %d: %s\n", (int)st, diag.message);
    CHECK(st == RTP_OK);
    int all = 1, known = 1;
    int64_t wants[MAX_TASKS];
    for (size_t k = 0; k < n; k++) {
        /* with equal priorities, k's release phase matters (FIFO) */
        int64_t phases = 1, want = 0;
        for (size_t j = 0; j < n; j++)
            if (j != k && prio[j] == prio[k])
                phases = tasks[k].period_ns;
        if (phases * h > 40000) {
            wants[k] = -3; /* too slow to simulate */
            continue;
        }
        for (int64_t ph = 0; ph < phases && want >= 0; ph++) {
            int64_t r = ref_fp_response(tasks, n, prio, k, h, ph);
            want = r < 0 ? r : r > want ? r : want;
        }
        wants[k] = want;
    }
    for (size_t k = 0; k < n; k++) {
        int64_t want = wants[k];
        if (want < -1) {
            known = 0; /* too slow, or the reference gave up (should not happen with U <= 1) */
            continue;
        }
        /* A tied task whose first-in first-out response is not below its
         * period (or unknown) is "late" in solver/fp.c: Linux may run its
         * next job before tied jobs released earlier, so the analysis counts
         * its jobs as a higher priority's and this first-in first-out
         * reference is only a lower bound for its peers. */
        int tie = 0, late = 0;
        for (size_t j = 0; j < n; j++)
            if (prio[j] == prio[k]) {
                tie |= j != k;
                late |= wants[j] < 0 || wants[j] >= tasks[j].period_ns;
            }
        if (tie && late) {
            CHECK(resp[k] == -1 || (want >= 0 && resp[k] >= want));
            all = all && resp[k] >= 0;
            continue;
        }
        if (resp[k] != want)
            fprintf(stderr, "fp: task %zu got %lld want %lld (prio %d %d %d %d %d %d)\n", k,
                    (long long)resp[k], (long long)want, prio[0], n > 1 ? prio[1] : 0,
                    n > 2 ? prio[2] : 0, n > 3 ? prio[3] : 0, n > 4 ? prio[4] : 0,
                    n > 5 ? prio[5] : 0);
        CHECK(resp[k] == want);
        all = all && want >= 0;
    }
    if (!known)
        return -1;
    CHECK(sched == all);
    return all;
}

static void check_fp(const rtp_task *tasks, size_t n, int64_t h, uint64_t max_iter)
{
    static const rtp_prio_rule rules[] = {RTP_PRIO_GIVEN, RTP_PRIO_DM, RTP_PRIO_RM,
                                          RTP_PRIO_OPA};
    rtp_limits lim = {.max_iterations = max_iter};
    for (size_t r = 0; r < sizeof rules / sizeof *rules; r++) {
        int prio[MAX_TASKS], found = -1;
        rtp_diag diag;
        rtp_diag_clear(&diag);
        rtp_status st = rtp_fp_assign(tasks, n, rules[r], prio, &found, &lim, &diag);
        if (max_iter < 1000 && st == RTP_ELIMIT)
            continue;
        CHECK(st == RTP_OK);
        for (size_t i = 0; i < n; i++)
            CHECK(prio[i] >= 1 && prio[i] <= (int)n);
        int verdict = check_rta(tasks, n, prio, h, max_iter);
        if (rules[r] != RTP_PRIO_OPA)
            continue;
        if (found && verdict >= 0)
            CHECK(verdict == 1);
        if (!found && n <= 5 && max_iter >= 1000) {
            /* no strict order of the n tasks may pass */
            int perm[MAX_TASKS], sched;
            rtp_ns resp[MAX_TASKS];
            for (size_t i = 0; i < n; i++)
                perm[i] = (int)i + 1;
            do {
                CHECK(rtp_fp_rta(tasks, n, perm, resp, &sched, &lim, &diag) == RTP_OK);
                CHECK(!sched);
            } while (tu_next_permutation(perm, n));
        }
    }
}

/* ---- global (m >= 2) reference: a unit-step simulation ---- */

/* Does any job miss, releases at offset[i] + k T_i, over the horizon?
 * edf: earliest absolute deadline first (ties by index), else by prio.
 * worst (n entries or NULL): raised to each task's largest response seen. */
static int global_misses(const rtp_task *tasks, size_t n, int m, int edf, const int *prio,
                         const int64_t *offset, int64_t horizon, int64_t *worst)
{
    int64_t rel[MAX_TASKS][MAX_PENDING], rem[MAX_TASKS][MAX_PENDING];
    int cnt[MAX_TASKS] = {0};
    for (int64_t t = 0; t < horizon; t++) {
        for (size_t i = 0; i < n; i++) {
            if (t >= offset[i] && (t - offset[i]) % tasks[i].period_ns == 0) {
                if (cnt[i] == MAX_PENDING)
                    return 1;
                rel[i][cnt[i]] = t;
                rem[i][cnt[i]] = tasks[i].wcet_ns;
                cnt[i]++;
            }
            if (cnt[i] && t >= rel[i][0] + tasks[i].deadline_ns)
                return 1;
        }
        /* each task runs its oldest job (jobs of a task are sequential) */
        int chosen[MAX_TASKS] = {0};
        for (int cpu = 0; cpu < m; cpu++) {
            int best = -1;
            for (size_t i = 0; i < n; i++) {
                if (!cnt[i] || chosen[i])
                    continue;
                if (best < 0) {
                    best = (int)i;
                    continue;
                }
                if (edf) {
                    int64_t di = rel[i][0] + tasks[i].deadline_ns,
                            db = rel[best][0] + tasks[best].deadline_ns;
                    if (di < db)
                        best = (int)i;
                } else if (prio[i] > prio[best]) {
                    best = (int)i;
                }
            }
            if (best < 0)
                break;
            chosen[best] = 1;
        }
        for (size_t i = 0; i < n; i++)
            if (chosen[i] && --rem[i][0] == 0) {
                if (worst && t + 1 - rel[i][0] > worst[i])
                    worst[i] = t + 1 - rel[i][0];
                memmove(rel[i], rel[i] + 1, (size_t)(cnt[i] - 1) * sizeof(int64_t));
                memmove(rem[i], rem[i] + 1, (size_t)(cnt[i] - 1) * sizeof(int64_t));
                cnt[i]--;
            }
    }
    for (size_t i = 0; i < n; i++)
        if (cnt[i] && horizon >= rel[i][0] + tasks[i].deadline_ns)
            return 1;
    return 0;
}

static void check_global(const rtp_task *tasks, size_t n, int64_t h, reader *r)
{
    const int m = 2 + (int)(byte(r) % 2);
    int64_t zero[MAX_TASKS] = {0}, offset[MAX_TASKS], omax = 0, dmax = 0;
    for (size_t i = 0; i < n; i++) {
        offset[i] = byte(r) % (tasks[i].period_ns + 1);
        omax = offset[i] > omax ? offset[i] : omax;
        dmax = tasks[i].deadline_ns > dmax ? tasks[i].deadline_ns : dmax;
    }
    if (h > 1000)
        return;
    int64_t horizon = omax + 3 * h + dmax;
    rtp_limits lim = {.max_iterations = 1000000};
    rtp_test ge = rtp_test_exact(RTP_POLICY_GEDF, RTP_PRIO_DM, m, lim);
    rtp_test_result res;
    rtp_diag diag;
    memset(&res, 0, sizeof res);
    rtp_status st = rtp_test_run(&ge, tasks, n, &res, &diag);
    CHECK(st == RTP_OK || st == RTP_ELIMIT);
    if (st == RTP_OK && res.schedulable) {
        if (global_misses(tasks, n, m, 1, NULL, zero, horizon, NULL) ||
            global_misses(tasks, n, m, 1, NULL, offset, horizon, NULL))
            fprintf(stderr, "gedf accepted by %s but misses\n", res.accepted_by);
        CHECK(!global_misses(tasks, n, m, 1, NULL, zero, horizon, NULL));
        CHECK(!global_misses(tasks, n, m, 1, NULL, offset, horizon, NULL));
    }
    /* each global EDF test on its own */
    rtp_global_report rep;
    if (rtp_global_edf_report(tasks, n, m, &lim, &rep, &diag) == RTP_OK)
        for (int k = 0; k < RTP_GLOBAL_EDF_TESTS; k++)
            if (rep.verdict[k] == RTP_GLOBAL_ACCEPT) {
                if (global_misses(tasks, n, m, 1, NULL, zero, horizon, NULL) ||
                    global_misses(tasks, n, m, 1, NULL, offset, horizon, NULL))
                    fprintf(stderr, "gedf test %s accepts but misses\n", rep.test[k]);
                CHECK(!global_misses(tasks, n, m, 1, NULL, zero, horizon, NULL));
                CHECK(!global_misses(tasks, n, m, 1, NULL, offset, horizon, NULL));
            }
    /* The EDF response bounds of [BC07] bound what happens */
    rtp_ns edf_resp[MAX_TASKS];
    rtp_global_verdict v;
    if (rtp_global_edf_rta(tasks, n, m, &lim, edf_resp, &v, &diag) == RTP_OK &&
        v == RTP_GLOBAL_ACCEPT) {
        int64_t seen[MAX_TASKS] = {0};
        CHECK(!global_misses(tasks, n, m, 1, NULL, zero, horizon, seen));
        CHECK(!global_misses(tasks, n, m, 1, NULL, offset, horizon, seen));
        for (size_t i = 0; i < n; i++)
            CHECK(edf_resp[i] >= tasks[i].wcet_ns && seen[i] <= edf_resp[i]);
    }
    static const rtp_prio_rule rules[] = {RTP_PRIO_DM, RTP_PRIO_RM, RTP_PRIO_OPA,
                                          RTP_PRIO_GIVEN};
    for (size_t k = 0; k < sizeof rules / sizeof *rules; k++) {
        rtp_test gf = rtp_test_exact(RTP_POLICY_GFP, rules[k], m, lim);
        int prio[MAX_TASKS];
        rtp_ns resp[MAX_TASKS];
        memset(&res, 0, sizeof res);
        res.priority = prio;
        res.response_time = resp;
        st = rtp_test_run(&gf, tasks, n, &res, &diag);
        CHECK(st == RTP_OK || st == RTP_ELIMIT);
        if (st != RTP_OK || !res.schedulable)
            continue;
        for (size_t i = 0; i < n; i++)
            CHECK(resp[i] >= tasks[i].wcet_ns && resp[i] <= tasks[i].deadline_ns);
        if (global_misses(tasks, n, m, 0, prio, zero, horizon, NULL) ||
            global_misses(tasks, n, m, 0, prio, offset, horizon, NULL))
            fprintf(stderr, "gfp (rule %d) accepted by %s but misses\n", (int)rules[k],
                    res.accepted_by);
        int64_t seen[MAX_TASKS] = {0};
        CHECK(!global_misses(tasks, n, m, 0, prio, zero, horizon, seen));
        CHECK(!global_misses(tasks, n, m, 0, prio, offset, horizon, seen));
        for (size_t i = 0; i < n; i++)
            CHECK(seen[i] <= resp[i]); /* the bounds bound what happens */
    }
}

/* ---- huge values: no crash, OK or RTP_ELIMIT ---- */

static rtp_ns huge_time(reader *r)
{
    static const rtp_ns base[] = {RTP_NS_LIMIT, RTP_NS_LIMIT - 1, RTP_NS_LIMIT / 2 + 1,
                                  RTP_NS_LIMIT / 3, 4611686018427387847LL /* prime */,
                                  1, 2, 3, 1000000007, (rtp_ns)1 << 31, (rtp_ns)1 << 40};
    unsigned b = byte(r);
    rtp_ns v = base[b % (sizeof base / sizeof *base)];
    rtp_ns delta = (rtp_ns)(byte(r) % 16);
    if (b & 0x80)
        v = v > delta ? v - delta : v;
    else if (v <= RTP_NS_LIMIT - delta)
        v += delta;
    return v < 1 ? 1 : v;
}

static void check_huge(reader *r, size_t n)
{
    rtp_task tasks[MAX_TASKS];
    for (size_t i = 0; i < n; i++) {
        memset(&tasks[i], 0, sizeof tasks[i]);
        tasks[i].wcet_ns = huge_time(r);
        tasks[i].period_ns = huge_time(r);
        tasks[i].deadline_ns = byte(r) & 1 ? tasks[i].period_ns : huge_time(r);
        tasks[i].has_priority = 1;
        tasks[i].priority = (int)(byte(r) % 3);
    }
    rtp_limits lim = {.max_iterations = 20000};
    rtp_diag diag;
    rtp_edf_result er;
    rtp_status st = rtp_edf_qpa(tasks, n, 1, &lim, &er, &diag);
    CHECK(st == RTP_OK || st == RTP_ELIMIT);
    if (st == RTP_OK && er.has_first_miss) {
        rtp_ns d;
        CHECK(!er.schedulable);
        CHECK(rtp_edf_dbf(tasks, n, er.first_miss_ns, &d) != RTP_OK || d > er.first_miss_ns);
    }
    rtp_ns bound;
    st = rtp_edf_bound(tasks, n, &lim, &bound, &diag);
    CHECK(st == RTP_OK || st == RTP_ELIMIT);
    for (int rule = 0; rule < 4; rule++) {
        int prio[MAX_TASKS], found, sched;
        rtp_ns resp[MAX_TASKS];
        st = rtp_fp_assign(tasks, n, (rtp_prio_rule)rule, prio, &found, &lim, &diag);
        CHECK(st == RTP_OK || st == RTP_ELIMIT);
        if (st != RTP_OK)
            continue;
        st = rtp_fp_rta(tasks, n, prio, resp, &sched, &lim, &diag);
        CHECK(st == RTP_OK || st == RTP_ELIMIT);
        if (st == RTP_OK)
            for (size_t i = 0; i < n; i++)
                CHECK(resp[i] == -1 || (resp[i] >= tasks[i].wcet_ns &&
                                        resp[i] <= tasks[i].deadline_ns));
    }
    for (int m = 1; m <= 3; m++) {
        rtp_test_result res;
        int prio[MAX_TASKS];
        rtp_ns resp[MAX_TASKS];
        rtp_test ge = rtp_test_exact(RTP_POLICY_GEDF, RTP_PRIO_DM, m, lim);
        memset(&res, 0, sizeof res);
        st = rtp_test_run(&ge, tasks, n, &res, &diag);
        CHECK(st == RTP_OK || st == RTP_ELIMIT);
        for (int rule = 0; rule < 4; rule++) {
            rtp_test gf = rtp_test_exact(RTP_POLICY_GFP, (rtp_prio_rule)rule, m, lim);
            memset(&res, 0, sizeof res);
            res.priority = prio;
            res.response_time = resp;
            st = rtp_test_run(&gf, tasks, n, &res, &diag);
            CHECK(st == RTP_OK || st == RTP_ELIMIT);
        }
        if (m >= 2) {
            rtp_global_report rep;
            st = rtp_global_edf_report(tasks, n, m, &lim, &rep, &diag);
            CHECK(st == RTP_OK || st == RTP_ELIMIT);
        }
    }
}

/* ---- jitter and blocking ---- */

static void check_delays(const rtp_task *tasks, size_t n, int64_t h, reader *r)
{
    rtp_limits lim = {.max_iterations = 1000000};
    rtp_diag diag;
    /* EDF: verdict and first_miss against the definition and a simulation */
    rtp_ns miss = 0;
    int want = ref_edf_enumerate(tasks, n, &miss);
    rtp_edf_result er;
    CHECK(rtp_edf_qpa(tasks, n, 1, &lim, &er, &diag) == RTP_OK);
    if (er.schedulable != want || (miss > 0 && (!er.has_first_miss || er.first_miss_ns != miss)))
        fprintf(stderr, "edf with delays: got %d/%lld want %d/%lld\n", er.schedulable,
                (long long)er.first_miss_ns, want, (long long)miss);
    CHECK(er.schedulable == want);
    if (miss > 0)
        CHECK(er.has_first_miss && er.first_miss_ns == miss);
    int late = 0;
    for (size_t i = 0; i < n; i++)
        late |= tasks[i].jitter_ns >= tasks[i].deadline_ns;
    if (!late && (want || miss > 0) && h <= 360)
        CHECK(ref_edf_simulate(tasks, n) == miss);
    /* FP: every priority rule, every task against simulated patterns */
    static const rtp_prio_rule rules[] = {RTP_PRIO_GIVEN, RTP_PRIO_DM, RTP_PRIO_OPA};
    uint64_t seed = byte(r) | (uint64_t)byte(r) << 8;
    rtp_ns horizon, until;
    ref_fp_horizon(tasks, n, &horizon, &until);
    for (size_t k = 0; k < sizeof rules / sizeof *rules; k++) {
        int prio[MAX_TASKS], found, sched;
        rtp_ns resp[MAX_TASKS];
        CHECK(rtp_fp_assign(tasks, n, rules[k], prio, &found, &lim, &diag) == RTP_OK);
        CHECK(rtp_fp_rta(tasks, n, prio, resp, &sched, &lim, &diag) == RTP_OK);
        ref_fp_acc accs[MAX_TASKS];
        int64_t refs[MAX_TASKS];
        for (size_t i = 0; i < n && h <= 40; i++) {
            int64_t work = 0;
            for (size_t j = 0; j < n; j++)
                if (prio[j] >= prio[i])
                    work += h / tasks[j].period_ns * tasks[j].wcet_ns;
            ref_fp_acc acc = {0, 0, 0};
            refs[i] = -1;
            if (work <= h && tasks[i].jitter_ns < tasks[i].deadline_ns) {
                ref_fp_critical(tasks, n, prio, i, horizon, until, &acc);
                ref_fp_random(&seed, tasks, n, prio, i, horizon, until, 20, &acc);
                refs[i] = acc.late || acc.incomplete ? -1 : acc.best;
            }
            accs[i] = acc;
        }
        for (size_t i = 0; i < n && h <= 40; i++) {
            int64_t work = 0;
            for (size_t j = 0; j < n; j++)
                if (prio[j] >= prio[i])
                    work += h / tasks[j].period_ns * tasks[j].wcet_ns;
            if (work > h || tasks[i].jitter_ns >= tasks[i].deadline_ns) {
                CHECK(resp[i] == -1);
                continue;
            }
            ref_fp_acc acc = accs[i];
            int tie = 0, late = 0; /* a late tie: first-in first-out is a lower bound */
            for (size_t j = 0; j < n; j++)
                if (prio[j] == prio[i]) {
                    tie |= j != i;
                    late |= refs[j] < 0 || refs[j] >= tasks[j].period_ns;
                }
            if (tie && late) {
                CHECK(resp[i] == -1 || (refs[i] >= 0 && resp[i] >= refs[i]));
                continue;
            }
            if (resp[i] >= 0 ? acc.late || acc.incomplete || acc.best != resp[i]
                             : !acc.late && !acc.incomplete)
                fprintf(stderr, "fp with delays: task %zu got %lld, simulated %lld (late %d)\n",
                        i, (long long)resp[i], (long long)acc.best, acc.late);
            if (resp[i] >= 0)
                CHECK(!acc.late && !acc.incomplete && acc.best == resp[i]);
            else
                CHECK(acc.late || acc.incomplete);
        }
    }
    /* global tests do not model jitter or blocking: never an acceptance */
    if (rtp_tasks_have_delays(tasks, n))
        for (int m = 2; m <= 3; m++) {
            rtp_test_result res;
            rtp_test ge = rtp_test_exact(RTP_POLICY_GEDF, RTP_PRIO_DM, m, lim);
            memset(&res, 0, sizeof res);
            CHECK(rtp_test_run(&ge, tasks, n, &res, &diag) == RTP_OK && !res.schedulable);
            rtp_test gf = rtp_test_exact(RTP_POLICY_GFP, RTP_PRIO_DM, m, lim);
            memset(&res, 0, sizeof res);
            CHECK(rtp_test_run(&gf, tasks, n, &res, &diag) == RTP_OK && !res.schedulable);
        }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    reader r = {data, size, 0};
    unsigned mode = byte(&r);
    size_t n = (size_t)(byte(&r) % (MAX_TASKS + 1)); /* 0 too: empty sets */
    if ((mode & 0x0f) == 0x0f) {
        check_huge(&r, n);
        return 0;
    }
    rtp_task tasks[MAX_TASKS];
    int64_t h = 1;
    decode_small(&r, tasks, n, (mode & 0xc0) == 0xc0, &h);
    /* mostly the default budget; sometimes a tiny one (OK must stay right) */
    if (mode & 0x08) {
        if (h == 0 || h > 720)
            return 0; /* the references need a short hyperperiod */
        for (size_t i = 0; i < n; i++) {
            unsigned b = byte(&r);
            if (b & 1)
                tasks[i].jitter_ns = byte(&r) % (b & 2 ? tasks[i].deadline_ns + 2
                                                     : tasks[i].period_ns / 2 + 1);
            if (b & 4)
                tasks[i].blocking_ns = 1 + byte(&r) % (tasks[i].wcet_ns + 2);
        }
        check_delays(tasks, n, h, &r);
        return 0;
    }
    uint64_t max_iter = (mode & 0x30) == 0x30 ? 1 + byte(&r) % 8 : 1000000;
    check_edf(tasks, n, h, max_iter);
    if (h == 0)
        return 0; /* the simulations need a short hyperperiod */
    check_fp(tasks, n, h, max_iter);
    if (n <= 5 && max_iter >= 1000)
        check_global(tasks, n, h, &r);
    return 0;
}
