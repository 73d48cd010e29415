/* sim/sim_apa.c — arbitrary processor affinities (sim.h "rtp_sim_set_masks",
 * [GCB13]): at every event the eligible jobs, best first, each take a CPU
 * of their mask that no better job took: the one it ran on just before,
 * else the one whose previous job was least urgent (an idle one first),
 * lowest slot on ties; a job waits only while every CPU of its mask runs a
 * better job. rtp_sim_set_locks pins each task to its slot through the same
 * masks (partitioned EDF too). */
#include "sim/sim_internal.h"

#include "models/grow.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

rtp_status rtp_sim_apa_install(rtp_sim *s, const uint64_t *mask, rtp_diag *diag)
{
    int bad = s->m > 64 || s->next_seq > 0 || s->mask;
    for (size_t i = 0; i < s->n_tasks && !bad; i++)
        bad = (s->m < 64 ? mask[i] & (((uint64_t)1 << s->m) - 1) : mask[i]) == 0;
    if (bad)
        return rtp_diag_set(diag, RTP_EINPUT, "",
                            "affinity masks: fixed priorities on at most 64 CPUs, each mask "
                            "naming one of them, set before the first job");
    s->mask = malloc((s->n_tasks + 1) * sizeof *s->mask);
    s->last_task = malloc((size_t)s->m * sizeof *s->last_task);
    s->newrun = malloc((size_t)s->m * sizeof *s->newrun);
    if (!s->mask || !s->last_task || !s->newrun)
        return rtp_oom(diag);
    memcpy(s->mask, mask, s->n_tasks * sizeof *s->mask);
    for (int c = 0; c < s->m; c++)
        s->last_task[c] = RTP_SIM_NONE;
    return RTP_OK;
}

rtp_status rtp_sim_set_masks(rtp_sim *s, const uint64_t *mask, rtp_diag *diag)
{
    if (s->edf)
        return rtp_diag_set(diag, RTP_EINPUT, "", "affinity masks: fixed priorities only");
    return rtp_sim_apa_install(s, mask, diag);
}

/* How urgent the job that ran on slot c just before the clock was: an idle
 * slot is the least urgent. */
static long occupant(const rtp_sim *s, int c)
{
    return s->last_task[c] == RTP_SIM_NONE ? (long)INT_MIN - 1 : (long)s->prio[s->last_task[c]];
}

rtp_status rtp_sim_apa_dispatch(rtp_sim *s)
{
    size_t n = 0;
    if (RTP_GROW(s->order, s->cap_order, s->ready.len + (size_t)s->m) != 0 ||
        RTP_GROW(s->ready.idx, s->ready.cap, s->ready.len + (size_t)s->m) != 0)
        return RTP_ENOMEM;
    for (size_t k = 0; k < s->ready.len; k++)
        s->order[n++] = s->ready.idx[k];
    for (int c = 0; c < s->m; c++)
        if (s->running[c] != RTP_SIM_NONE)
            s->order[n++] = s->running[c];
    for (size_t k = 1; k < n; k++) { /* insertion sort: few jobs are eligible at once */
        size_t v = s->order[k], i = k;
        for (; i > 0 && rtp_sim_better(s, v, s->order[i - 1]); i--)
            s->order[i] = s->order[i - 1];
        s->order[i] = v;
    }
    uint64_t claimed = 0, all = s->m == 64 ? ~(uint64_t)0 : ((uint64_t)1 << s->m) - 1;
    for (int c = 0; c < s->m; c++)
        s->newrun[c] = RTP_SIM_NONE;
    s->ready.len = 0;
    for (size_t k = 0; k < n; k++) {
        size_t job = s->order[k], task = s->jobs[job].pub.task;
        uint64_t free = s->mask[task] & all & ~claimed;
        int pick = -1;
        if (s->tasks && !rtp_sim_locks_may_start(s, job))
            free = 0;
        for (int c = 0; c < s->m && free; c++) {
            if (!(free >> c & 1))
                continue;
            if (s->last_task[c] == task) {
                pick = c;
                break;
            }
            if (pick < 0 || occupant(s, c) < occupant(s, pick))
                pick = c;
        }
        if (pick < 0) {
            s->order[s->ready.len++] = job; /* waits: every CPU of its mask runs a better job */
            continue;
        }
        claimed |= (uint64_t)1 << pick;
        s->newrun[pick] = job;
    }
    for (int c = 0; c < s->m; c++)
        if (s->running[c] != s->newrun[c]) {
            rtp_sim_close_segment(s, c);
            if (s->running[c] != RTP_SIM_NONE && s->jobs[s->running[c]].cpu == c)
                s->jobs[s->running[c]].cpu = -1;
        }
    for (int c = 0; c < s->m; c++)
        if (s->running[c] != s->newrun[c]) {
            s->running[c] = s->newrun[c];
            s->since[c] = s->now;
            if (s->newrun[c] != RTP_SIM_NONE) {
                s->jobs[s->newrun[c]].cpu = c;
                s->jobs[s->newrun[c]].started = 1;
            }
        }
    for (size_t k = 0; k < s->ready.len; k++) /* the waiting jobs, best first: a heap */
        s->ready.idx[k] = s->order[k];
    for (size_t k = 0; k < s->ready.len; k++)
        s->jobs[s->ready.idx[k]].cpu = -1;
    return RTP_OK;
}
