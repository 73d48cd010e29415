/* tests/support/reference.c — see reference.h. */
#include "support/reference.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PJOBS 96

static void broken(const char *what)
{
    fprintf(stderr, "reference: broken invariant: %s\n", what);
    abort();
}

rtp_ns ref_hyperperiod(const rtp_task *ts, size_t n)
{
    rtp_ns h = 1;
    for (size_t i = 0; i < n; i++) {
        rtp_ns a = h, b = ts[i].period_ns;
        while (b) {
            rtp_ns r = a % b;
            a = b;
            b = r;
        }
        h = h / a * ts[i].period_ns;
    }
    return h;
}

static rtp_ns max_deadline(const rtp_task *ts, size_t n)
{
    rtp_ns d = 0;
    for (size_t i = 0; i < n; i++)
        d = ts[i].deadline_ns > d ? ts[i].deadline_ns : d;
    return d;
}

/* ---- EDF ---- */

rtp_ns ref_edf_h(const rtp_task *ts, size_t n, rtp_ns t)
{
    rtp_ns sum = 0, b = 0;
    for (size_t i = 0; i < n; i++) {
        for (rtp_ns a = -ts[i].jitter_ns; a + ts[i].deadline_ns <= t; a += ts[i].period_ns)
            if (a + ts[i].deadline_ns >= 0)
                sum += ts[i].wcet_ns;
        if (ts[i].deadline_ns - ts[i].jitter_ns <= t && ts[i].blocking_ns > b)
            b = ts[i].blocking_ns;
    }
    return sum + b;
}

int ref_edf_enumerate(const rtp_task *ts, size_t n, rtp_ns *miss)
{
    rtp_ns h = ref_hyperperiod(ts, n), work = 0;
    *miss = 0;
    for (size_t i = 0; i < n; i++) {
        if (ts[i].jitter_ns >= ts[i].deadline_ns) {
            *miss = 1;
            return 0;
        }
        work += h / ts[i].period_ns * ts[i].wcet_ns;
    }
    if (work > h)
        return 0;
    /* h(t + H) = h(t) + U H <= h(t) + H once t is past every D and every
     * step of b: a first failure lies before H + max D. */
    rtp_ns upto = 2 * h + 2 * max_deadline(ts, n);
    for (rtp_ns t = 1; t <= upto; t++)
        if (ref_edf_h(ts, n, t) > t) {
            *miss = t;
            return 0;
        }
    return 1;
}

/* EDF simulation of the jobs due by `horizon` plus one blocker job. */
static rtp_ns edf_run(const rtp_task *ts, size_t n, rtp_ns horizon, rtp_ns blocker_len,
                      rtp_ns blocker_due)
{
    size_t cap = 64, jobs = 0;
    rtp_ns *rel = malloc(cap * sizeof *rel), *due = malloc(cap * sizeof *due),
           *left = malloc(cap * sizeof *left);
    if (!rel || !due || !left)
        broken("out of memory");
    for (size_t i = 0; i <= n; i++) {
        if (i == n) {
            if (blocker_len > 0) {
                rel[jobs] = 0;
                due[jobs] = blocker_due;
                left[jobs++] = blocker_len;
            }
            break;
        }
        for (rtp_ns a = -ts[i].jitter_ns; a + ts[i].deadline_ns <= horizon; a += ts[i].period_ns) {
            if (a + ts[i].deadline_ns < 0)
                continue;
            if (jobs + 1 >= cap) {
                cap *= 2;
                rel = realloc(rel, cap * sizeof *rel);
                due = realloc(due, cap * sizeof *due);
                left = realloc(left, cap * sizeof *left);
                if (!rel || !due || !left)
                    broken("out of memory");
            }
            rel[jobs] = a > 0 ? a : 0;
            due[jobs] = a + ts[i].deadline_ns;
            left[jobs++] = ts[i].wcet_ns;
        }
    }
    rtp_ns earliest = 0;
    size_t done = 0;
    for (rtp_ns now = 0; done < jobs; now++) {
        size_t pick = jobs;
        for (size_t j = 0; j < jobs; j++)
            if (left[j] > 0 && rel[j] <= now && (pick == jobs || due[j] < due[pick]))
                pick = j;
        if (pick == jobs)
            continue;
        if (--left[pick] == 0) {
            done++;
            if (now + 1 > due[pick] && (earliest == 0 || due[pick] < earliest))
                earliest = due[pick];
        }
    }
    free(rel);
    free(due);
    free(left);
    return earliest;
}

rtp_ns ref_edf_simulate(const rtp_task *ts, size_t n)
{
    rtp_ns horizon = 2 * ref_hyperperiod(ts, n) + 2 * max_deadline(ts, n);
    rtp_ns best = edf_run(ts, n, horizon, 0, 0);
    for (size_t j = 0; j < n; j++) {
        if (ts[j].blocking_ns == 0)
            continue;
        rtp_ns m = edf_run(ts, n, horizon, ts[j].blocking_ns, ts[j].deadline_ns - ts[j].jitter_ns);
        if (m > 0 && (best == 0 || m < best))
            best = m;
    }
    return best;
}

/* ---- FP ---- */

typedef struct pattern {
    rtp_ns arrival[REF_MAXN][PJOBS], release[REF_MAXN][PJOBS];
    int count[REF_MAXN];
    rtp_ns block_at[8]; /* instants where the blocker may start, -1 = unused */
} pattern;

typedef struct sjob {
    size_t task;
    rtp_ns arrival, release, left;
} sjob;

/* Does job a run before job b (both pending)? */
static int before(const sjob *a, const sjob *b, const int *prio, size_t i)
{
    int pa = prio[a->task], pb = prio[b->task];
    if (pa != pb)
        return pa > pb;
    if (a->release != b->release)
        return a->release < b->release;
    if ((a->task == i) != (b->task == i))
        return b->task == i;
    if (a->task != b->task)
        return a->task < b->task;
    return a->arrival < b->arrival;
}

/* Largest response of i's jobs in the pattern; -2 when one does not
 * complete by `until`; *late = some job of i missed D_i. */
static rtp_ns simulate(const rtp_task *ts, size_t n, const int *prio, size_t i,
                       const pattern *pt, rtp_ns until, int *late)
{
    static sjob jobs[REF_MAXN * PJOBS];
    size_t count = 0, next[REF_MAXN] = {0};
    int pending_i = pt->count[i];
    rtp_ns worst = 0, blocked_until = 0;
    *late = 0;
    for (rtp_ns now = 0; pending_i > 0 && now < until; now++) {
        int level_pending = 0;
        for (size_t k = 0; k < count; k++)
            level_pending |= prio[jobs[k].task] >= prio[i];
        for (int b = 0; b < 8 && ts[i].blocking_ns > 0; b++)
            if (pt->block_at[b] == now && !level_pending && blocked_until <= now)
                blocked_until = now + ts[i].blocking_ns;
        for (size_t j = 0; j < n; j++)
            while ((int)next[j] < pt->count[j] && pt->release[j][next[j]] == now) {
                jobs[count++] = (sjob){j, pt->arrival[j][next[j]], now, ts[j].wcet_ns};
                next[j]++;
            }
        if (blocked_until > now)
            continue; /* the non-preemptible section runs */
        size_t pick = count;
        for (size_t k = 0; k < count; k++)
            if (pick == count || before(&jobs[k], &jobs[pick], prio, i))
                pick = k;
        if (pick == count)
            continue;
        if (--jobs[pick].left == 0) {
            if (jobs[pick].task == i) {
                rtp_ns r = now + 1 - jobs[pick].arrival;
                worst = r > worst ? r : worst;
                *late |= r > ts[i].deadline_ns;
                pending_i--;
            }
            jobs[pick] = jobs[--count];
        }
    }
    return pending_i > 0 ? -2 : worst;
}

/* Appends a job; releases never go back in time. */
static void add_job(pattern *pt, size_t j, rtp_ns arrival, rtp_ns release)
{
    int k = pt->count[j];
    if (k >= PJOBS)
        broken("pattern too long");
    if (k > 0 && release < pt->release[j][k - 1])
        release = pt->release[j][k - 1];
    pt->arrival[j][k] = arrival;
    pt->release[j][k] = release;
    pt->count[j] = k + 1;
}

/* Legality, checked independently of how the pattern was built. */
static void check_legal(const rtp_task *ts, size_t n, const pattern *pt)
{
    for (size_t j = 0; j < n; j++)
        for (int k = 0; k < pt->count[j]; k++) {
            const rtp_ns a = pt->arrival[j][k], r = pt->release[j][k];
            if (r < a || r > a + ts[j].jitter_ns || r < 0)
                broken("release outside [arrival, arrival + jitter]");
            if (k > 0 && (a < pt->arrival[j][k - 1] + ts[j].period_ns ||
                          r < pt->release[j][k - 1]))
                broken("arrivals closer than the period, or releases out of order");
        }
}

static void run(const rtp_task *ts, size_t n, const int *prio, size_t i, const pattern *pt,
                rtp_ns until, ref_fp_acc *acc)
{
    check_legal(ts, n, pt);
    int late = 0;
    rtp_ns r = simulate(ts, n, prio, i, pt, until, &late);
    if (r == -2)
        acc->incomplete = 1;
    else if (r > acc->best)
        acc->best = r;
    acc->late |= late;
}

void ref_fp_horizon(const rtp_task *ts, size_t n, rtp_ns *horizon, rtp_ns *until)
{
    rtp_ns h = ref_hyperperiod(ts, n), max_d = max_deadline(ts, n), max_j = 0;
    for (size_t j = 0; j < n; j++)
        max_j = ts[j].jitter_ns > max_j ? ts[j].jitter_ns : max_j;
    *horizon = max_j + 2 * h + max_d + 2;
    *until = *horizon + 4 * h + 4 * max_d + 64;
}

void ref_fp_critical(const rtp_task *ts, size_t n, const int *prio, size_t i,
                     rtp_ns horizon, rtp_ns until, ref_fp_acc *acc)
{
    static pattern pt;
    rtp_ns x = 0;
    for (size_t j = 0; j < n; j++)
        x = ts[j].jitter_ns > x ? ts[j].jitter_ns : x;
    const rtp_task *ti = &ts[i];
    for (rtp_ns phase = x - ti->jitter_ns; phase < x - ti->jitter_ns + ti->period_ns; phase++) {
        for (int late = 0; late < PJOBS - 1; late++) {
            rtp_ns late_arrival = phase + late * ti->period_ns;
            if (late_arrival >= horizon)
                break;
            memset(&pt, 0, sizeof pt);
            for (int b = 0; b < 8; b++)
                pt.block_at[b] = b == 0 ? x : -1;
            for (size_t j = 0; j < n; j++) {
                rtp_ns first = j == i ? phase : x - ts[j].jitter_ns;
                for (rtp_ns a = first; a < horizon && pt.count[j] < PJOBS - 1;
                     a += ts[j].period_ns) {
                    rtp_ns rel = a >= x ? a : a + ts[j].jitter_ns < x ? a + ts[j].jitter_ns : x;
                    if (j == i && a == late_arrival)
                        rel = a + ts[j].jitter_ns;
                    add_job(&pt, j, a, rel);
                }
            }
            run(ts, n, prio, i, &pt, until, acc);
        }
    }
}

static uint64_t next_random(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* Uniform in [lo, hi]. */
static rtp_ns pick(uint64_t *s, rtp_ns lo, rtp_ns hi)
{
    return lo + (rtp_ns)(next_random(s) % (uint64_t)(hi - lo + 1));
}

void ref_fp_random(uint64_t *seed, const rtp_task *ts, size_t n, const int *prio, size_t i,
                   rtp_ns horizon, rtp_ns until, int count, ref_fp_acc *acc)
{
    static pattern pt;
    for (int c = 0; c < count; c++) {
        memset(&pt, 0, sizeof pt);
        for (int b = 0; b < 8; b++)
            pt.block_at[b] = pick(seed, 0, 3) ? pick(seed, 0, horizon / 2) : -1;
        for (size_t j = 0; j < n; j++) {
            int mode = (int)pick(seed, 0, 3);
            rtp_ns a = pick(seed, 0, ts[j].period_ns + ts[j].jitter_ns), jj = ts[j].jitter_ns;
            while (a < horizon && pt.count[j] < PJOBS - 1) {
                rtp_ns d = 0;
                switch (mode) {
                case 0: d = pick(seed, 0, jj); break;
                case 1: d = pick(seed, 0, 1) ? jj : 0; break;
                case 2: d = pt.count[j] == 0 ? jj : 0; break;
                default: d = pick(seed, 0, 4) ? 0 : jj; break;
                }
                add_job(&pt, j, a, a + d);
                a += ts[j].period_ns + (pick(seed, 0, 7) == 0 ? pick(seed, 1, 3) : 0);
            }
        }
        run(ts, n, prio, i, &pt, until, acc);
    }
}

void ref_fp_exhaustive(const rtp_task *ts, size_t n, const int *prio, size_t i,
                       rtp_ns horizon, rtp_ns until, ref_fp_acc *acc)
{
    static pattern pt;
    long choices[REF_MAXN], total = 1;
    for (size_t j = 0; j < n; j++) {
        choices[j] = (long)ts[j].period_ns * (ts[j].jitter_ns > 0 ? 8 : 1);
        total *= choices[j];
    }
    for (long code = 0; code < total * 2; code++) {
        memset(&pt, 0, sizeof pt);
        long rest = code / 2;
        for (int b = 0; b < 8; b++)
            pt.block_at[b] = code % 2 ? b : -1; /* the first free instant among 0..7 */
        for (size_t j = 0; j < n; j++) {
            long c = rest % choices[j];
            rest /= choices[j];
            rtp_ns phase = c % ts[j].period_ns;
            long bits = c / ts[j].period_ns;
            int k = 0;
            for (rtp_ns a = phase; a < horizon && pt.count[j] < PJOBS - 1;
                 a += ts[j].period_ns, k++)
                add_job(&pt, j, a, a + (k < 3 && (bits >> k) & 1 ? ts[j].jitter_ns : 0));
        }
        run(ts, n, prio, i, &pt, until, acc);
    }
}
