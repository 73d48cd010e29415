/* tests/support/reference.c — see reference.h. */
#include "support/reference.h"

#include "sim/sim.h"

#include <limits.h>
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

/* The earliest deadline among jobs that complete after it. */
static void late_deadline(void *ctx, const rtp_sim_job *job)
{
    rtp_ns *earliest = ctx;
    if (job->finish_ns > job->deadline_ns && (*earliest == 0 || job->deadline_ns < *earliest))
        *earliest = job->deadline_ns;
}

/* EDF simulation (the library's engine, sim/sim.h) of the jobs due by
 * `horizon` plus one blocker job (task n, last in every tie), each run to
 * completion. */
static rtp_ns edf_run(const rtp_task *ts, size_t n, rtp_ns horizon, rtp_ns blocker_len,
                      rtp_ns blocker_due)
{
    rtp_ns earliest = 0, work = blocker_len;
    rtp_sim_hooks hooks = {&earliest, late_deadline, NULL};
    rtp_sim *sim = NULL;
    if (rtp_sim_create(RTP_POLICY_EDF, 1, NULL, n + 1, &hooks, &sim, NULL) != RTP_OK)
        broken("simulator");
    if (blocker_len > 0) {
        rtp_sim_job b = {.task = n, .arrival_ns = 0, .release_ns = 0,
                         .deadline_ns = blocker_due, .exec_ns = blocker_len};
        if (rtp_sim_add(sim, &b, NULL, NULL) != RTP_OK)
            broken("blocker job");
    }
    for (size_t i = 0; i < n; i++)
        for (rtp_ns a = -ts[i].jitter_ns; a + ts[i].deadline_ns <= horizon; a += ts[i].period_ns) {
            if (a + ts[i].deadline_ns < 0)
                continue;
            rtp_sim_job j = {.task = i, .arrival_ns = a, .release_ns = a > 0 ? a : 0,
                             .deadline_ns = a + ts[i].deadline_ns, .exec_ns = ts[i].wcet_ns};
            if (rtp_sim_add(sim, &j, NULL, NULL) != RTP_OK)
                broken("job");
            work += ts[i].wcet_ns;
        }
    /* Every job is released by `horizon`: all complete by horizon + work. */
    if (rtp_sim_run(sim, horizon + work + 1, NULL) != RTP_OK)
        broken("simulation");
    for (size_t i = 0; i <= n; i++)
        if (rtp_sim_backlog(sim, i) != 0)
            broken("a job left unfinished");
    rtp_sim_free(sim);
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

typedef struct fp_tally {
    const rtp_task *ts;
    size_t i;
    rtp_ns worst;
    int late, pending_i;
} fp_tally;

static void fp_done(void *ctx, const rtp_sim_job *job)
{
    fp_tally *t = ctx;
    if (job->task != t->i || job->finish_ns < 0)
        return;
    rtp_ns r = job->finish_ns - job->arrival_ns;
    t->worst = r > t->worst ? r : t->worst;
    t->late |= r > t->ts[t->i].deadline_ns;
    t->pending_i--;
}

/* Largest response of i's jobs in the pattern; -2 when one does not
 * complete by `until`; *late = some job of i missed D_i. The schedule is
 * the library's engine (sim/sim.h): jobs are added with i's last, so among
 * equal priorities and equal releases i runs last; the blocker is a job of
 * an extra task n above every priority, added at an instant of block_at
 * when nothing at or above i's level is pending and no blocker runs. */
static rtp_ns simulate(const rtp_task *ts, size_t n, const int *prio, size_t i,
                       const pattern *pt, rtp_ns until, int *late)
{
    int p[REF_MAXN + 1];
    for (size_t j = 0; j < n; j++)
        p[j] = prio[j];
    p[n] = INT_MAX;
    fp_tally t = {ts, i, 0, 0, pt->count[i]};
    rtp_sim_hooks hooks = {&t, fp_done, NULL};
    rtp_sim *sim = NULL;
    if (rtp_sim_create(RTP_POLICY_FP, 1, p, n + 1, &hooks, &sim, NULL) != RTP_OK)
        broken("simulator");
    for (size_t k = 0; k < n; k++) {
        size_t j = k == n - 1 ? i : k < i ? k : k + 1; /* i last */
        for (int q = 0; q < pt->count[j]; q++) {
            rtp_sim_job job = {.task = j, .arrival_ns = pt->arrival[j][q],
                               .release_ns = pt->release[j][q],
                               .deadline_ns = pt->arrival[j][q] + ts[j].deadline_ns,
                               .exec_ns = ts[j].wcet_ns};
            if (rtp_sim_add(sim, &job, NULL, NULL) != RTP_OK)
                broken("job");
        }
    }
    for (rtp_ns last = -1;;) {
        rtp_ns at = -1; /* the next blocking instant, in order, once each */
        for (int b = 0; b < 8; b++)
            if (pt->block_at[b] > last && pt->block_at[b] < until &&
                (at < 0 || pt->block_at[b] < at))
                at = pt->block_at[b];
        if (at < 0 || ts[i].blocking_ns == 0)
            break;
        if (rtp_sim_run(sim, at, NULL) != RTP_OK)
            broken("simulation");
        int level_pending = rtp_sim_backlog(sim, n) > 0;
        for (size_t j = 0; j < n; j++)
            level_pending |= prio[j] >= prio[i] && rtp_sim_backlog(sim, j) > 0;
        rtp_sim_job blocker = {.task = n, .arrival_ns = at, .release_ns = at,
                               .deadline_ns = RTP_NS_LIMIT, .exec_ns = ts[i].blocking_ns};
        if (!level_pending && rtp_sim_add(sim, &blocker, NULL, NULL) != RTP_OK)
            broken("blocker");
        last = at;
    }
    if (rtp_sim_run(sim, until, NULL) != RTP_OK)
        broken("simulation");
    rtp_sim_free(sim);
    *late = t.late;
    return t.pending_i > 0 ? -2 : t.worst;
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

/* ---- periodic ---- */

int ref_periodic_simulate(const rtp_task *ts, size_t n, int m, const int *priority,
                          rtp_ns horizon, rtp_ns *worst)
{
    rtp_sim_task_stats *stats = calloc(n + 1, sizeof *stats);
    if (!stats)
        broken("out of memory");
    rtp_sim_periodic_opts opts = {.until_ns = horizon, .overrun_task = -1};
    rtp_ns until = 0;
    if (rtp_sim_periodic(ts, n, priority ? RTP_POLICY_GFP : RTP_POLICY_GEDF, m, priority,
                         &opts, stats, &until, NULL) != RTP_OK || until != horizon)
        broken("periodic simulation");
    int miss = 0;
    for (size_t i = 0; i < n; i++) {
        miss |= stats[i].misses > 0;
        worst[i] = stats[i].response_max_ns > 0 ? stats[i].response_max_ns : 0;
    }
    free(stats);
    return miss;
}
