/* sim/sim_locks.c — shared resources in the simulator (sim.h
 * "rtp_sim_set_locks", docs/spec.md "Shared resources"): each task pinned
 * to its slot (by sim_apa.c's masks), each job running its sections first
 * in the order of its requests; a resource whose users share one slot runs
 * by the ceiling protocols (FP: the immediate priority ceiling [SRL90];
 * EDF: the stack resource policy [Bak91], a job that has not started waits
 * while a resource is held whose ceiling is at or below its relative
 * deadline), one marked MSRP [GLD01] by non-preemptive FIFO spinning and
 * non-preemptive holding. The engine asks here how resources order two
 * jobs, whether a job may start, and hands the instants of requests and
 * section ends over. */
#include "sim/sim_internal.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

rtp_status rtp_sim_set_locks(rtp_sim *s, const rtp_task *tasks, const size_t *slot,
                             size_t n_resources, const int *msrp, rtp_sim_section_fn section,
                             rtp_diag *diag)
{
    int bad = s->next_seq > 0 || s->tasks || s->lists || s->mask;
    for (size_t i = 0; i < s->n_tasks && !bad; i++) {
        bad = slot[i] >= (size_t)s->m;
        for (size_t q = 0; q < tasks[i].n_requests && !bad; q++)
            bad = tasks[i].requests[q].resource >= n_resources;
    }
    if (bad)
        return rtp_diag_set(diag, RTP_EINPUT, "",
                            "shared resources: every task on a CPU slot, every request on a "
                            "declared resource, set once before the first job, without "
                            "SCHED_RR");
    size_t cells = (size_t)s->m * (n_resources ? n_resources : 1);
    uint64_t *mask = calloc(s->n_tasks + 1, sizeof *mask);
    s->slot_of = malloc((s->n_tasks + 1) * sizeof *s->slot_of);
    s->msrp = calloc(n_resources + 1, sizeof *s->msrp);
    s->holder = malloc((n_resources + 1) * sizeof *s->holder);
    s->fifo = malloc(cells * sizeof *s->fifo);
    s->fifo_len = calloc(n_resources + 1, sizeof *s->fifo_len);
    s->ceil_prio = malloc(cells * sizeof *s->ceil_prio);
    s->ceil_dl = malloc(cells * sizeof *s->ceil_dl);
    s->state_since = calloc((size_t)s->m, sizeof *s->state_since);
    rtp_status st = RTP_OK;
    if (!mask || !s->slot_of || !s->msrp || !s->holder || !s->fifo || !s->fifo_len ||
        !s->ceil_prio || !s->ceil_dl || !s->state_since) {
        st = rtp_oom(diag);
        goto done;
    }
    for (size_t c = 0; c < cells; c++) {
        s->ceil_prio[c] = INT_MIN;
        s->ceil_dl[c] = INT64_MAX;
    }
    for (size_t r = 0; r < n_resources; r++) {
        s->msrp[r] = msrp[r] != 0;
        s->holder[r] = RTP_SIM_NONE;
    }
    for (size_t i = 0; i < s->n_tasks; i++) {
        s->slot_of[i] = slot[i];
        mask[i] = (uint64_t)1 << (slot[i] % 64);
        for (size_t q = 0; q < tasks[i].n_requests; q++) {
            size_t r = tasks[i].requests[q].resource, c = slot[i] * n_resources + r;
            if (s->prio[i] > s->ceil_prio[c])
                s->ceil_prio[c] = s->prio[i];
            if (tasks[i].deadline_ns < s->ceil_dl[c])
                s->ceil_dl[c] = tasks[i].deadline_ns;
        }
    }
    for (size_t r = 0; r < n_resources && st == RTP_OK; r++) {
        int slots = 0;
        for (size_t c = 0; c < (size_t)s->m; c++)
            slots += s->ceil_dl[c * n_resources + r] != INT64_MAX;
        if (slots > 1 && !s->msrp[r])
            st = rtp_diag_set(diag, RTP_EINPUT, "",
                              "shared resources: resource %zu has users on %d CPUs: it is "
                              "run by MSRP", r, slots);
    }
    if (st == RTP_OK && s->m > 64)
        st = rtp_diag_set(diag, RTP_EINPUT, "", "shared resources: at most 64 CPUs");
    if (st == RTP_OK)
        st = rtp_sim_apa_install(s, mask, diag);
    if (st == RTP_OK) {
        s->tasks = tasks;
        s->n_res = n_resources;
        s->section = section;
    }
done:
    free(mask);
    return st;
}

/* A job spinning for or holding an MSRP resource is non-preemptive. */
static int nonpreemptive(const rtp_sim *s, size_t k)
{
    return s->jobs[k].state != RTP_SIM_FREE && s->msrp[s->jobs[k].res];
}

/* A holder of a ceiling resource under FP runs at its ceiling. */
static int effective_prio(const rtp_sim *s, size_t k)
{
    const rtp_sim_sjob *j = &s->jobs[k];
    int p = s->prio[j->pub.task];
    if (j->state == RTP_SIM_HOLD && !s->msrp[j->res]) {
        int c = s->ceil_prio[s->slot_of[j->pub.task] * s->n_res + j->res];
        p = c > p ? c : p;
    }
    return p;
}

int rtp_sim_locks_cmp(const rtp_sim *s, size_t a, size_t b)
{
    if (nonpreemptive(s, a) != nonpreemptive(s, b))
        return nonpreemptive(s, a) ? 1 : -1;
    if (s->edf)
        return 0;
    /* a job of its ceiling's priority does not preempt a holder: the
     * holder joined that priority first (FIFO) */
    if (effective_prio(s, a) != effective_prio(s, b))
        return effective_prio(s, a) > effective_prio(s, b) ? 1 : -1;
    const rtp_sim_job *x = &s->jobs[a].pub, *y = &s->jobs[b].pub;
    if (x->release_ns != y->release_ns)
        return x->release_ns < y->release_ns ? 1 : -1;
    return 0;
}

/* A state change of the job running on slot c at the clock. */
static void set_state(rtp_sim *s, int c, int state)
{
    rtp_sim_close_segment(s, c);
    s->jobs[s->running[c]].state = state;
    s->state_since[c] = s->now;
}

/* The running job on slot c takes resource r (ceiling resources are never
 * held by another job when taken; MSRP ones may be: spin). */
static rtp_status take(rtp_sim *s, int c, size_t r)
{
    size_t k = s->running[c];
    rtp_sim_sjob *j = &s->jobs[k];
    const rtp_request *q = &s->tasks[j->pub.task].requests[j->req];
    j->res = r;
    j->done_in_req++;
    if (s->holder[r] == RTP_SIM_NONE) {
        s->holder[r] = k;
        j->sec_left = q->length_ns < j->left ? q->length_ns : j->left;
        set_state(s, c, RTP_SIM_HOLD);
        return RTP_OK;
    }
    if (!s->msrp[r])
        return RTP_EINTERNAL; /* the ceiling protocols exclude it */
    s->fifo[r * (size_t)s->m + s->fifo_len[r]++] = k;
    set_state(s, c, RTP_SIM_SPIN);
    return RTP_OK;
}

rtp_status rtp_sim_locks_enter(rtp_sim *s)
{
    for (int c = 0; c < s->m; c++) {
        size_t k = s->running[c];
        if (k == RTP_SIM_NONE || s->jobs[k].state != RTP_SIM_FREE || s->jobs[k].left == 0)
            continue;
        rtp_sim_sjob *j = &s->jobs[k];
        const rtp_task *t = &s->tasks[j->pub.task];
        while (j->req < t->n_requests && j->done_in_req >= t->requests[j->req].count) {
            j->req++;
            j->done_in_req = 0;
        }
        if (j->req < t->n_requests) {
            rtp_status st = take(s, c, t->requests[j->req].resource);
            if (st != RTP_OK)
                return st;
        }
    }
    return RTP_OK;
}

/* The resource passes to the first in its queue (MSRP) or is free again. */
void rtp_sim_locks_leave(rtp_sim *s)
{
    for (int c = 0; c < s->m; c++) {
        size_t k = s->running[c];
        if (k == RTP_SIM_NONE || s->jobs[k].state != RTP_SIM_HOLD || s->jobs[k].sec_left > 0)
            continue;
        size_t r = s->jobs[k].res;
        set_state(s, c, RTP_SIM_FREE);
        s->holder[r] = RTP_SIM_NONE;
        if (s->fifo_len[r] == 0)
            continue;
        size_t w = s->fifo[r * (size_t)s->m];
        memmove(&s->fifo[r * (size_t)s->m], &s->fifo[r * (size_t)s->m + 1],
                --s->fifo_len[r] * sizeof *s->fifo);
        rtp_sim_sjob *next = &s->jobs[w];
        const rtp_request *q = &s->tasks[next->pub.task].requests[next->req];
        s->holder[r] = w;
        next->sec_left = q->length_ns < next->left ? q->length_ns : next->left;
        set_state(s, next->cpu, RTP_SIM_HOLD);
    }
}

int rtp_sim_locks_may_start(const rtp_sim *s, size_t k)
{
    const rtp_sim_sjob *j = &s->jobs[k];
    if (!s->edf || j->started)
        return 1;
    size_t c = s->slot_of[j->pub.task];
    for (size_t r = 0; r < s->n_res; r++)
        if (!s->msrp[r] && s->holder[r] != RTP_SIM_NONE &&
            s->tasks[j->pub.task].deadline_ns >= s->ceil_dl[c * s->n_res + r])
            return 0;
    return 1;
}

/* Blocking: the time a ready job waits while its CPU runs a job of lower
 * priority (FP) or later deadline (EDF), spinning included. */
void rtp_sim_locks_account(rtp_sim *s, rtp_ns dt)
{
    for (int c = 0; c < s->m; c++) {
        rtp_sim_sjob *j = s->running[c] != RTP_SIM_NONE ? &s->jobs[s->running[c]] : NULL;
        if (j && j->state == RTP_SIM_SPIN)
            j->pub.spin_ns += dt;
        else if (j && j->state == RTP_SIM_HOLD)
            j->sec_left -= dt;
    }
    for (size_t k = 0; k < s->ready.len; k++) {
        rtp_sim_sjob *w = &s->jobs[s->ready.idx[k]];
        size_t r = s->running[s->slot_of[w->pub.task]];
        if (r == RTP_SIM_NONE)
            continue;
        const rtp_sim_job *x = &s->jobs[r].pub;
        if (s->edf ? x->deadline_ns > w->pub.deadline_ns
                   : s->prio[x->task] < s->prio[w->pub.task])
            w->pub.blocked_ns += dt;
    }
}
