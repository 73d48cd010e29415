/* sim/sim_locks.c — shared resources in the simulator (sim.h
 * "rtp_sim_set_locks", docs/spec.md "Shared resources"): each task pinned
 * to its slot (by sim_apa.c's masks), each job running its sections first
 * in the order of its requests; a resource whose users share one slot runs
 * by the ceiling protocols (FP: the immediate priority ceiling [SRL90];
 * EDF: the stack resource policy [Bak91], a job that has not started waits
 * while a resource is held whose ceiling is at or below its relative
 * deadline), one marked MSRP [GLD01] by non-preemptive FIFO spinning and
 * non-preemptive holding, one marked FMLP+ [Bra11] by suspension in a FIFO
 * queue and priority boosting of its holder (boosted jobs in the order of
 * their requests). The engine orders jobs by the keys kept here on every
 * change of state, asks here whether a job may start, and hands the
 * instants of requests and section ends over. */
#include "sim/sim_internal.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* Which protocols the requests use: refuses what sim.h refuses (FMLP+
 * under EDF or beside MSRP). */
static int bad_protocols(const rtp_sim *s, const rtp_task *tasks, size_t n_resources,
                         const int *protocol)
{
    int fmlp = 0, msrp = 0;
    for (size_t r = 0; r < n_resources; r++)
        if (protocol[r] < RTP_SIM_LOCK_CEILING || protocol[r] > RTP_SIM_LOCK_FMLP)
            return 1;
    for (size_t i = 0; i < s->n_tasks; i++)
        for (size_t q = 0; q < tasks[i].n_requests; q++) {
            int p = protocol[tasks[i].requests[q].resource];
            fmlp |= p == RTP_SIM_LOCK_FMLP;
            msrp |= p == RTP_SIM_LOCK_MSRP;
        }
    return fmlp && (msrp || s->edf);
}

rtp_status rtp_sim_set_locks(rtp_sim *s, const rtp_task *tasks, const size_t *slot,
                             size_t n_resources, const int *protocol,
                             rtp_sim_section_fn section, rtp_diag *diag)
{
    int bad = s->next_seq > 0 || s->tasks || s->lists || s->mask;
    for (size_t i = 0; i < s->n_tasks && !bad; i++) {
        bad = slot[i] >= (size_t)s->m;
        for (size_t q = 0; q < tasks[i].n_requests && !bad; q++)
            bad = tasks[i].requests[q].resource >= n_resources;
    }
    if (bad || bad_protocols(s, tasks, n_resources, protocol))
        return rtp_diag_set(diag, RTP_EINPUT, "",
                            "shared resources: every task on a CPU slot, every request on a "
                            "declared resource, FMLP+ under fixed priorities and not beside "
                            "MSRP, set once before the first job, without SCHED_RR");
    size_t cells = (size_t)s->m * (n_resources ? n_resources : 1), places = 0;
    for (size_t i = 0; i < s->n_tasks; i++)
        places += tasks[i].n_requests;
    uint64_t *mask = calloc(s->n_tasks + 1, sizeof *mask);
    s->slot_of = malloc((s->n_tasks + 1) * sizeof *s->slot_of);
    s->proto = calloc(n_resources + 1, sizeof *s->proto);
    s->holder = malloc((n_resources + 1) * sizeof *s->holder);
    s->fifo = malloc((places + 1) * sizeof *s->fifo);
    s->fifo_off = calloc(n_resources + 1, sizeof *s->fifo_off);
    s->fifo_len = calloc(n_resources + 1, sizeof *s->fifo_len);
    s->ceil_prio = malloc(cells * sizeof *s->ceil_prio);
    s->ceil_dl = malloc(cells * sizeof *s->ceil_dl);
    s->state_since = calloc((size_t)s->m, sizeof *s->state_since);
    rtp_status st = RTP_OK;
    if (!mask || !s->slot_of || !s->proto || !s->holder || !s->fifo || !s->fifo_off ||
        !s->fifo_len || !s->ceil_prio || !s->ceil_dl || !s->state_since) {
        st = rtp_oom(diag);
        goto done;
    }
    for (size_t c = 0; c < cells; c++) {
        s->ceil_prio[c] = INT_MIN;
        s->ceil_dl[c] = INT64_MAX;
    }
    for (size_t r = 0; r < n_resources; r++) {
        s->proto[r] = protocol[r];
        s->holder[r] = RTP_SIM_NONE;
    }
    /* a task waits in a queue with at most one request at a time: one place
     * per request of the resource's users (fifo_off counts them first) */
    for (size_t i = 0; i < s->n_tasks; i++) {
        s->slot_of[i] = slot[i];
        mask[i] = (uint64_t)1 << (slot[i] % 64);
        for (size_t q = 0; q < tasks[i].n_requests; q++) {
            size_t r = tasks[i].requests[q].resource, c = slot[i] * n_resources + r;
            s->fifo_off[r + 1]++;
            if (s->prio[i] > s->ceil_prio[c])
                s->ceil_prio[c] = s->prio[i];
            if (tasks[i].deadline_ns < s->ceil_dl[c])
                s->ceil_dl[c] = tasks[i].deadline_ns;
        }
    }
    for (size_t r = 0; r < n_resources; r++)
        s->fifo_off[r + 1] += s->fifo_off[r];
    for (size_t r = 0; r < n_resources && st == RTP_OK; r++) {
        int slots = 0;
        for (size_t c = 0; c < (size_t)s->m; c++)
            slots += s->ceil_dl[c * n_resources + r] != INT64_MAX;
        if (slots > 1 && s->proto[r] == RTP_SIM_LOCK_CEILING)
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
    const rtp_sim_sjob *j = &s->jobs[k];
    return (j->state == RTP_SIM_SPIN || j->state == RTP_SIM_HOLD) &&
           s->proto[j->res] == RTP_SIM_LOCK_MSRP;
}

/* A holder of an FMLP+ resource is boosted. */
static int boosted(const rtp_sim *s, size_t k)
{
    const rtp_sim_sjob *j = &s->jobs[k];
    return j->state == RTP_SIM_HOLD && s->proto[j->res] == RTP_SIM_LOCK_FMLP;
}

/* A holder of a ceiling resource under FP runs just above its ceiling
 * (2 c + 1 against the 2 p of a job at priority p): ahead of a job whose
 * own priority is the ceiling, however early that job was released. Without
 * suspensions such a job is always released after the holder started (else
 * the holder could not have run), so "the earlier release first" gave the
 * same order; beside FMLP+ a job released earlier can come back from a
 * suspension while a lower-priority job holds the ceiling, and the holder
 * stays ahead of it, as ICPP's exclusion needs (tests/support/
 * fmlp_reference.c runs the same rule). */
static int64_t effective_prio(const rtp_sim *s, size_t k)
{
    const rtp_sim_sjob *j = &s->jobs[k];
    int64_t p = s->prio[j->pub.task]; /* any int: 2 p + 1 fits in 64 bits */
    if (j->state == RTP_SIM_HOLD && s->proto[j->res] == RTP_SIM_LOCK_CEILING) {
        int64_t c = s->ceil_prio[s->slot_of[j->pub.task] * s->n_res + j->res];
        return 2 * (c > p ? c : p) + 1;
    }
    return 2 * p;
}

/* Job k's state becomes `state`: its keys for the engine's order
 * (sim_internal.h) follow. */
static void change(rtp_sim *s, size_t k, int state)
{
    rtp_sim_sjob *j = &s->jobs[k];
    j->state = state;
    j->np = nonpreemptive(s, k);
    j->boost = boosted(s, k);
    j->eprio = effective_prio(s, k);
}

int rtp_sim_locks_what(const rtp_sim *s, size_t k)
{
    const rtp_sim_sjob *j = &s->jobs[k];
    if (j->state == RTP_SIM_SPIN)
        return RTP_SIM_SPINNING;
    if (j->state == RTP_SIM_WAIT)
        return RTP_SIM_SUSPENDED;
    return boosted(s, k) ? RTP_SIM_BOOSTED : RTP_SIM_HOLDING;
}

/* A state change of the job running on slot c at the clock. */
static void set_state(rtp_sim *s, int c, int state)
{
    rtp_sim_close_segment(s, c);
    change(s, s->running[c], state);
    s->state_since[c] = s->now;
}

static void hold(rtp_sim *s, size_t k, size_t r)
{
    rtp_sim_sjob *j = &s->jobs[k];
    const rtp_request *q = &s->tasks[j->pub.task].requests[j->req];
    s->holder[r] = k;
    j->sec_left = q->length_ns < j->left ? q->length_ns : j->left;
}

/* The running job on slot c requests resource r: it holds it when free;
 * ceiling resources are never held by another job then; else it queues,
 * spinning on its slot (MSRP) or suspended off it (FMLP+, the slot left
 * empty). */
static rtp_status take(rtp_sim *s, int c, size_t r)
{
    size_t k = s->running[c];
    rtp_sim_sjob *j = &s->jobs[k];
    j->res = r;
    j->done_in_req++;
    j->req_ns = s->now;
    j->req_seq = s->next_req++;
    if (s->holder[r] == RTP_SIM_NONE) {
        hold(s, k, r);
        set_state(s, c, RTP_SIM_HOLD);
        return RTP_OK;
    }
    if (s->proto[r] == RTP_SIM_LOCK_CEILING)
        return RTP_EINTERNAL; /* the ceiling protocols exclude it */
    s->fifo[s->fifo_off[r] + s->fifo_len[r]++] = k;
    if (s->proto[r] == RTP_SIM_LOCK_MSRP) {
        set_state(s, c, RTP_SIM_SPIN);
        return RTP_OK;
    }
    rtp_sim_close_segment(s, c);
    s->running[c] = RTP_SIM_NONE;
    j->cpu = -1;
    change(s, k, RTP_SIM_WAIT);
    j->wait_since = s->now;
    return RTP_OK;
}

rtp_status rtp_sim_locks_enter(rtp_sim *s)
{
    for (int c = 0; c < s->m; c++)
        for (;;) {
            size_t k = s->running[c];
            if (k == RTP_SIM_NONE || s->jobs[k].state != RTP_SIM_FREE || s->jobs[k].left == 0)
                break;
            rtp_sim_sjob *j = &s->jobs[k];
            const rtp_task *t = &s->tasks[j->pub.task];
            while (j->req < t->n_requests && j->done_in_req >= t->requests[j->req].count) {
                j->req++;
                j->done_in_req = 0;
            }
            if (j->req == t->n_requests)
                break;
            rtp_status st = take(s, c, t->requests[j->req].resource);
            if (st == RTP_OK && s->running[c] == RTP_SIM_NONE)
                st = rtp_sim_apa_dispatch(s); /* suspended: slot c runs its next job */
            else if (st == RTP_OK)
                break;
            if (st != RTP_OK)
                return st;
        }
    return RTP_OK;
}

/* Tells the section hook that job k waited suspended for its resource
 * until the clock. */
static void suspended(rtp_sim *s, size_t k)
{
    const rtp_sim_sjob *j = &s->jobs[k];
    if (s->section && s->now > j->wait_since)
        s->section(s->hooks.ctx, (int)s->slot_of[j->pub.task], &j->pub, j->res,
                   RTP_SIM_SUSPENDED, j->wait_since, s->now);
}

/* The resource passes to the first in its queue, or is free again. */
rtp_status rtp_sim_locks_leave(rtp_sim *s)
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
        size_t *queue = &s->fifo[s->fifo_off[r]], w = queue[0];
        memmove(queue, queue + 1, --s->fifo_len[r] * sizeof *queue);
        hold(s, w, r);
        if (s->proto[r] == RTP_SIM_LOCK_MSRP) {
            set_state(s, s->jobs[w].cpu, RTP_SIM_HOLD);
            continue;
        }
        suspended(s, w); /* FMLP+: it resumes boosted */
        change(s, w, RTP_SIM_HOLD);
        rtp_status st = rtp_sim_heap_push(s, &s->ready, rtp_sim_better, w);
        if (st != RTP_OK)
            return st;
    }
    return RTP_OK;
}

int rtp_sim_locks_may_start(const rtp_sim *s, size_t k)
{
    const rtp_sim_sjob *j = &s->jobs[k];
    if (!s->edf || j->started)
        return 1;
    size_t c = s->slot_of[j->pub.task];
    for (size_t r = 0; r < s->n_res; r++)
        if (s->proto[r] == RTP_SIM_LOCK_CEILING && s->holder[r] != RTP_SIM_NONE &&
            s->tasks[j->pub.task].deadline_ns >= s->ceil_dl[c * s->n_res + r])
            return 0;
    return 1;
}

/* Blocking: the time a job waits suspended, or ready while its CPU runs a
 * job of lower priority (FP) or later deadline (EDF), spinning included. */
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
    for (size_t r = 0; r < s->n_res; r++)
        for (size_t q = 0; s->proto[r] == RTP_SIM_LOCK_FMLP && q < s->fifo_len[r]; q++)
            s->jobs[s->fifo[s->fifo_off[r] + q]].pub.blocked_ns += dt;
}

void rtp_sim_locks_drain(rtp_sim *s)
{
    for (size_t r = 0; r < s->n_res; r++) {
        for (size_t q = 0; s->proto[r] == RTP_SIM_LOCK_FMLP && q < s->fifo_len[r]; q++)
            suspended(s, s->fifo[s->fifo_off[r] + q]);
        s->fifo_len[r] = 0;
        s->holder[r] = RTP_SIM_NONE;
    }
}
