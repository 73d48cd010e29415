/* sim/periodic.c — the synchronous periodic model of `rtpack simulate` on
 * the engine of sim.c: jobs are added lazily, each release instant just
 * before the engine reaches it, so memory stays proportional to the
 * backlog, not to the horizon. */
#include "sim/sim.h"

#include "models/arith.h"
#include "models/duration.h"

#include <stdlib.h>
#include <string.h>

rtp_status rtp_sim_default_until(const rtp_task *tasks, size_t n, rtp_ns *until,
                                 rtp_diag *diag)
{
    rtp_ns h = 1, dmax = 0;
    for (size_t i = 0; i < n; i++) {
        if (rtp_lcm(h, tasks[i].period_ns, &h) != RTP_OK || h > RTP_NS_LIMIT)
            return rtp_diag_set(diag, RTP_ELIMIT, "",
                                "the hyperperiod is past 2^62 ns: give --until");
        if (tasks[i].deadline_ns > dmax)
            dmax = tasks[i].deadline_ns;
    }
    if (rtp_add(h, dmax, until) != RTP_OK || *until > RTP_NS_LIMIT)
        return rtp_diag_set(diag, RTP_ELIMIT, "",
                            "the hyperperiod plus the largest deadline is past 2^62 ns: "
                            "give --until");
    return RTP_OK;
}

/* Jobs released before `until`, or RTP_SIM_MAX_JOBS + 1 once past it. */
static uint64_t jobs_before(const rtp_task *tasks, size_t n, rtp_ns until)
{
    uint64_t total = 0;
    for (size_t i = 0; i < n && total <= RTP_SIM_MAX_JOBS; i++) {
        rtp_ns k = 0;
        (void)rtp_div_ceil(until, tasks[i].period_ns, &k);
        total += (uint64_t)k;
    }
    return total > RTP_SIM_MAX_JOBS ? RTP_SIM_MAX_JOBS + 1 : total;
}

rtp_status rtp_sim_count_jobs(const rtp_task *tasks, size_t n, rtp_ns until, uint64_t *jobs,
                              rtp_diag *diag)
{
    uint64_t total = jobs_before(tasks, n, until);
    if (total <= RTP_SIM_MAX_JOBS) {
        *jobs = total;
        return RTP_OK;
    }
    /* The longest horizon that holds 10^7 jobs (the count grows with the
     * horizon: binary search), and a round value at most that to offer. */
    rtp_ns lo = 0, hi = until; /* fits at lo, not at hi */
    while (hi - lo > 1) {
        rtp_ns mid = lo + (hi - lo) / 2;
        if (jobs_before(tasks, n, mid) <= RTP_SIM_MAX_JOBS)
            lo = mid;
        else
            hi = mid;
    }
    rtp_ns round = 1;
    while (lo / round >= 100)
        round *= 10;
    rtp_ns offer = lo / round * round;
    char at[32], most[32], suggest[32];
    rtp_duration_format(until, at, sizeof at);
    rtp_duration_format(lo, most, sizeof most);
    rtp_duration_format(offer > 0 ? offer : 1, suggest, sizeof suggest);
    return rtp_diag_set(diag, RTP_ELIMIT, "",
                        "more than 10^7 jobs before %s: simulate a shorter window, e.g. "
                        "--until %s (at most %s holds 10^7 jobs; --from picks where the SVG "
                        "starts)",
                        at, suggest, most);
}

typedef struct tally {
    const rtp_task *tasks;
    rtp_sim_task_stats *stats;
    rtp_ns until;
    rtp_sim_hooks user;
    rtp_sim_section_fn section;
} tally;

static void on_done(void *ctx, const rtp_sim_job *job)
{
    tally *t = ctx;
    rtp_sim_task_stats *st = &t->stats[job->task];
    /* A job still pending at `until` has waited and spun an unknown total:
     * the maxima count completed jobs only, as the response does. */
    if (job->finish_ns >= 0) {
        if (job->finish_ns - job->arrival_ns > st->response_max_ns)
            st->response_max_ns = job->finish_ns - job->arrival_ns;
        if (job->spin_ns > st->spin_max_ns)
            st->spin_max_ns = job->spin_ns;
        if (job->blocked_ns > st->blocked_max_ns)
            st->blocked_max_ns = job->blocked_ns;
    }
    int late = job->finish_ns >= 0 ? job->finish_ns > job->deadline_ns
                                   : job->deadline_ns <= t->until;
    if (late) {
        st->misses++;
        if (st->first_miss_ns < 0 || job->deadline_ns < st->first_miss_ns)
            st->first_miss_ns = job->deadline_ns;
    }
    if (t->user.done)
        t->user.done(t->user.ctx, job);
}

static void on_ran(void *ctx, int cpu, const rtp_sim_job *job, rtp_ns from, rtp_ns to)
{
    tally *t = ctx;
    if (t->user.ran)
        t->user.ran(t->user.ctx, cpu, job, from, to);
}

static void on_section(void *ctx, int cpu, const rtp_sim_job *job, size_t resource,
                       int what, rtp_ns from, rtp_ns to)
{
    tally *t = ctx;
    if (t->section)
        t->section(t->user.ctx, cpu, job, resource, what, from, to);
}

rtp_status rtp_sim_periodic(const rtp_task *tasks, size_t n, rtp_policy policy, int cpus,
                            const int *priority, const rtp_sim_periodic_opts *opts,
                            rtp_sim_task_stats *stats, rtp_ns *until_out, rtp_diag *diag)
{
    rtp_ns until = opts->until_ns;
    rtp_status st = RTP_OK;
    if (until <= 0)
        st = rtp_sim_default_until(tasks, n, &until, diag);
    uint64_t jobs = 0;
    if (st == RTP_OK)
        st = rtp_sim_count_jobs(tasks, n, until, &jobs, diag);
    if (st != RTP_OK)
        return st;
    *until_out = until;
    for (size_t i = 0; i < n; i++)
        stats[i] = (rtp_sim_task_stats){.first_miss_ns = -1, .response_max_ns = -1};
    tally t = {tasks, stats, until, opts->hooks, opts->section};
    rtp_sim_hooks hooks = {.ctx = &t, .done = on_done, .ran = on_ran};
    rtp_sim *sim = NULL;
    rtp_ns *next = calloc(n + 1, sizeof *next);
    if (!next)
        return rtp_oom(diag);
    st = rtp_sim_create(policy, cpus, priority, n, &hooks, &sim, diag);
    if (st == RTP_OK && opts->rr)
        st = rtp_sim_set_rr(sim, opts->rr, opts->rr_quantum_ns, opts->tick_ns, diag);
    if (st == RTP_OK && opts->mask)
        st = rtp_sim_set_masks(sim, opts->mask, diag);
    if (st == RTP_OK && opts->slot)
        st = rtp_sim_set_locks(sim, tasks, opts->slot, opts->n_resources, opts->protocol,
                               on_section, diag);
    /* Release instants in order; at each, the tasks in input order. */
    for (rtp_ns now = 0; st == RTP_OK && now < until;) {
        st = rtp_sim_run(sim, now, diag);
        rtp_ns soonest = until;
        for (size_t i = 0; i < n && st == RTP_OK; i++) {
            if (next[i] == now) {
                int first = now == 0;
                rtp_sim_job job = {
                    .task = i, .arrival_ns = now, .release_ns = now,
                    .deadline_ns = now + tasks[i].deadline_ns,
                    .exec_ns = first && (long)i == opts->overrun_task ? opts->overrun_ns
                                                                     : tasks[i].wcet_ns};
                st = rtp_sim_add(sim, &job, NULL, diag);
                stats[i].jobs++;
                /* Past 2^62 stands for "not before until". */
                next[i] = now + tasks[i].period_ns;
            }
            if (next[i] < soonest)
                soonest = next[i];
        }
        now = soonest;
    }
    if (st == RTP_OK)
        st = rtp_sim_run(sim, until, diag);
    if (st == RTP_OK)
        rtp_sim_drain(sim);
    rtp_sim_free(sim);
    free(next);
    return st;
}
