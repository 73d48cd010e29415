/* sim/sim.c — the event-driven engine (see sim.h); its rules beyond the
 * policy live beside it (sim_internal.h: sim_rr.c, sim_apa.c, sim_locks.c).
 *
 * State: a pool of jobs; a heap of jobs not yet released, by (release, seq);
 * per task a first-in first-out queue of released unfinished jobs, whose head
 * alone is eligible; a heap of eligible heads that are not running, by the
 * policy's rule; the M CPU slots. The clock jumps to the next release or
 * completion; at each instant completions are handled first, then releases,
 * then the best eligible jobs take the CPUs. */
#include "sim/sim_internal.h"

#include "models/grow.h"

#include <stdlib.h>
#include <string.h>

#define NONE RTP_SIM_NONE

int rtp_sim_better(const rtp_sim *s, size_t a, size_t b)
{
    const rtp_sim_job *x = &s->jobs[a].pub, *y = &s->jobs[b].pub;
    if (s->tasks) { /* the protocols' keys (sim_internal.h) */
        const rtp_sim_sjob *p = &s->jobs[a], *q = &s->jobs[b];
        if (p->np != q->np)
            return p->np;
        if (!s->edf && p->boost != q->boost)
            return p->boost;
        if (!s->edf && p->boost) /* [Bra11]: boosted jobs in the order of their requests */
            return p->req_seq < q->req_seq;
        /* a ceiling's holder runs just above the ceiling (sim_locks.c) */
        if (!s->edf && p->eprio != q->eprio)
            return p->eprio > q->eprio;
        if (!s->edf && x->release_ns != y->release_ns)
            return x->release_ns < y->release_ns;
    }
    if (s->edf) {
        if (x->deadline_ns != y->deadline_ns)
            return x->deadline_ns < y->deadline_ns;
        if (x->task != y->task)
            return x->task < y->task;
    } else {
        if (s->prio[x->task] != s->prio[y->task])
            return s->prio[x->task] > s->prio[y->task];
        if (s->lists && x->task != y->task)
            return s->stamp[x->task] < s->stamp[y->task];
        if (x->release_ns != y->release_ns)
            return x->release_ns < y->release_ns;
    }
    return x->seq < y->seq;
}

static int earlier(const rtp_sim *s, size_t a, size_t b)
{
    const rtp_sim_job *x = &s->jobs[a].pub, *y = &s->jobs[b].pub;
    if (x->release_ns != y->release_ns)
        return x->release_ns < y->release_ns;
    return x->seq < y->seq;
}

rtp_status rtp_sim_create(rtp_policy policy, int cpus, const int *priority, size_t n_tasks,
                          const rtp_sim_hooks *hooks, rtp_sim **out, rtp_diag *diag)
{
    *out = NULL;
    int edf = policy == RTP_POLICY_EDF || policy == RTP_POLICY_GEDF;
    if (cpus < 1 || (!edf && n_tasks > 0 && !priority))
        return rtp_diag_set(diag, RTP_EINPUT, "", "simulation needs >= 1 CPU%s",
                            edf ? "" : " and a priority per task");
    rtp_sim *s = calloc(1, sizeof *s);
    if (!s)
        return rtp_oom(diag);
    s->edf = edf;
    s->m = cpus;
    s->n_tasks = n_tasks;
    s->free_list = NONE;
    if (hooks)
        s->hooks = *hooks;
    s->prio = calloc(n_tasks + 1, sizeof *s->prio);
    s->queue = calloc(n_tasks + 1, sizeof *s->queue);
    s->running = malloc((size_t)cpus * sizeof *s->running);
    s->since = calloc((size_t)cpus, sizeof *s->since);
    if (!s->prio || !s->queue || !s->running || !s->since) {
        rtp_sim_free(s);
        return rtp_oom(diag);
    }
    for (size_t i = 0; i < n_tasks; i++) {
        s->prio[i] = edf ? 0 : priority[i];
        s->queue[i] = (rtp_sim_tqueue){NONE, NONE, 0};
    }
    for (int c = 0; c < cpus; c++)
        s->running[c] = NONE;
    *out = s;
    return RTP_OK;
}

rtp_status rtp_sim_add(rtp_sim *s, const rtp_sim_job *job, uint64_t *seq, rtp_diag *diag)
{
    if (job->task >= s->n_tasks || job->exec_ns < 1 || job->release_ns < s->now ||
        job->arrival_ns > job->release_ns)
        return rtp_diag_set(diag, RTP_EINPUT, "",
                            "simulated job of task %zu: bad task, execution or release",
                            job->task);
    size_t k;
    if (s->free_list != NONE) {
        k = s->free_list;
        s->free_list = s->jobs[k].next;
    } else {
        if (RTP_GROW(s->jobs, s->cap_jobs, s->n_jobs + 1) != 0)
            return rtp_oom(diag);
        k = s->n_jobs++;
    }
    s->jobs[k] = (rtp_sim_sjob){.pub = *job, .left = job->exec_ns, .next = NONE, .cpu = -1,
                                .eprio = 2 * (int64_t)s->prio[job->task]}; /* sim_locks.c's scale */
    s->jobs[k].pub.seq = s->next_seq++;
    s->jobs[k].pub.finish_ns = -1;
    s->jobs[k].pub.spin_ns = s->jobs[k].pub.blocked_ns = 0;
    if (seq)
        *seq = s->jobs[k].pub.seq;
    return rtp_sim_heap_push(s, &s->future, earlier, k);
}

static void release_slot(rtp_sim *s, size_t k)
{
    s->jobs[k].next = s->free_list;
    s->free_list = k;
}

void rtp_sim_close_segment(rtp_sim *s, int c)
{
    size_t k = s->running[c];
    if (k != NONE && s->now > s->since[c] && s->hooks.ran)
        s->hooks.ran(s->hooks.ctx, c, &s->jobs[k].pub, s->since[c], s->now);
    if (k != NONE && s->tasks && s->jobs[k].state != RTP_SIM_FREE && s->section) {
        rtp_ns from = s->state_since[c] > s->since[c] ? s->state_since[c] : s->since[c];
        if (s->now > from)
            s->section(s->hooks.ctx, c, &s->jobs[k].pub, s->jobs[k].res,
                       rtp_sim_locks_what(s, k), from, s->now);
    }
    s->since[c] = s->now;
}

/* Completions at the clock: the next job of each finished task becomes eligible. */
static rtp_status complete(rtp_sim *s)
{
    for (int c = 0; c < s->m; c++) {
        size_t k = s->running[c];
        if (k == NONE || s->jobs[k].left > 0)
            continue;
        rtp_sim_close_segment(s, c);
        s->running[c] = NONE;
        rtp_sim_sjob *j = &s->jobs[k];
        j->cpu = -1;
        j->pub.finish_ns = s->now;
        if (s->hooks.done)
            s->hooks.done(s->hooks.ctx, &j->pub);
        rtp_sim_tqueue *q = &s->queue[j->pub.task];
        q->head = j->next; /* a running job is always its task's head */
        if (--q->len == 0)
            q->tail = NONE;
        release_slot(s, k);
        if (q->head != NONE) {
            rtp_status st = rtp_sim_heap_push(s, &s->ready, rtp_sim_better, q->head);
            if (st != RTP_OK)
                return st;
        }
    }
    return RTP_OK;
}

/* Releases at or before the clock join their task's queue. */
static rtp_status admit(rtp_sim *s)
{
    while (s->future.len > 0 && s->jobs[s->future.idx[0]].pub.release_ns <= s->now) {
        size_t k = rtp_sim_heap_pop(s, &s->future, earlier);
        rtp_sim_tqueue *q = &s->queue[s->jobs[k].pub.task];
        if (q->len++ == 0) {
            if (s->lists) /* the thread wakes: the tail of its list */
                s->stamp[s->jobs[k].pub.task] = s->next_stamp++;
            q->head = q->tail = k;
            rtp_status st = rtp_sim_heap_push(s, &s->ready, rtp_sim_better, k);
            if (st != RTP_OK)
                return st;
        } else {
            s->jobs[q->tail].next = k;
            q->tail = k;
        }
    }
    return RTP_OK;
}

/* The best eligible jobs take free CPUs, then preempt the worst running
 * ones while strictly better. */
static rtp_status dispatch(rtp_sim *s)
{
    if (s->mask)
        return rtp_sim_apa_dispatch(s);
    while (s->ready.len > 0) {
        size_t best = s->ready.idx[0];
        int slot = -1;
        for (int c = 0; c < s->m && slot < 0; c++)
            if (s->running[c] == NONE)
                slot = c;
        if (slot < 0) {
            for (int c = 0; c < s->m; c++)
                if (slot < 0 || rtp_sim_better(s, s->running[slot], s->running[c]))
                    slot = c;
            if (!rtp_sim_better(s, best, s->running[slot]))
                break;
            size_t out = s->running[slot];
            rtp_sim_close_segment(s, slot);
            s->jobs[out].cpu = -1;
            rtp_status st = rtp_sim_heap_push(s, &s->ready, rtp_sim_better, out);
            if (st != RTP_OK)
                return st;
        }
        rtp_sim_heap_pop(s, &s->ready, rtp_sim_better);
        s->running[slot] = best;
        s->since[slot] = s->now;
        s->jobs[best].cpu = slot;
    }
    return RTP_OK;
}

rtp_status rtp_sim_run(rtp_sim *s, rtp_ns until, rtp_diag *diag)
{
    if (until < s->now)
        return rtp_diag_set(diag, RTP_EINPUT, "", "simulation clock cannot go back");
    while (s->now < until) {
        rtp_status st = admit(s);
        if (st == RTP_OK)
            st = dispatch(s);
        if (st == RTP_OK && s->tasks)
            st = rtp_sim_locks_enter(s);
        if (st != RTP_OK)
            return st == RTP_EINTERNAL
                       ? rtp_diag_set(diag, st, "", "simulation: a ceiling resource was "
                                                    "taken while held")
                       : st;
        rtp_ns next = until;
        if (s->future.len > 0 && s->jobs[s->future.idx[0]].pub.release_ns < next)
            next = s->jobs[s->future.idx[0]].pub.release_ns;
        for (int c = 0; c < s->m; c++) {
            const rtp_sim_sjob *j = s->running[c] != NONE ? &s->jobs[s->running[c]] : NULL;
            if (!j || j->state == RTP_SIM_SPIN)
                continue; /* a spinning job waits for a handover, itself an event */
            rtp_ns end = s->now + (j->state == RTP_SIM_HOLD ? j->sec_left : j->left);
            next = end < next ? end : next;
        }
        size_t cur = s->lists && s->running[0] != NONE ? s->jobs[s->running[0]].pub.task : NONE;
        if (cur != NONE && s->rr[cur]) { /* the next tick, or where its quantum runs out */
            rtp_ns q = s->tick > 0 ? (s->now / s->tick + 1) * s->tick : s->now + s->qleft[cur];
            next = q < next ? q : next;
        }
        if (s->tasks)
            rtp_sim_locks_account(s, next - s->now);
        for (int c = 0; c < s->m; c++) {
            if (s->last_task)
                s->last_task[c] = s->running[c] != NONE ? s->jobs[s->running[c]].pub.task : NONE;
            if (s->running[c] != NONE && s->jobs[s->running[c]].state != RTP_SIM_SPIN)
                s->jobs[s->running[c]].left -= next - s->now;
        }
        if (cur != NONE && s->rr[cur] && s->tick == 0)
            s->qleft[cur] -= next - s->now;
        s->now = next;
        st = s->tasks ? rtp_sim_locks_leave(s) : RTP_OK;
        if (st == RTP_OK)
            st = complete(s);
        if (st != RTP_OK)
            return st;
        if (s->lists)
            rtp_sim_rr_quantum(s, cur);
    }
    return RTP_OK;
}

rtp_ns rtp_sim_now(const rtp_sim *s)
{
    return s->now;
}

size_t rtp_sim_backlog(const rtp_sim *s, size_t task)
{
    return task < s->n_tasks ? s->queue[task].len : 0;
}

void rtp_sim_drain(rtp_sim *s)
{
    if (s->tasks)
        rtp_sim_locks_drain(s);
    for (int c = 0; c < s->m; c++) {
        rtp_sim_close_segment(s, c);
        s->running[c] = NONE;
    }
    for (size_t t = 0; t < s->n_tasks; t++) {
        for (size_t k = s->queue[t].head; k != NONE;) {
            size_t next = s->jobs[k].next;
            if (s->hooks.done)
                s->hooks.done(s->hooks.ctx, &s->jobs[k].pub);
            release_slot(s, k);
            k = next;
        }
        s->queue[t] = (rtp_sim_tqueue){NONE, NONE, 0};
    }
    while (s->future.len > 0) {
        size_t k = rtp_sim_heap_pop(s, &s->future, earlier);
        if (s->hooks.done)
            s->hooks.done(s->hooks.ctx, &s->jobs[k].pub);
        release_slot(s, k);
    }
    s->ready.len = 0;
}

void rtp_sim_free(rtp_sim *s)
{
    if (!s)
        return;
    free(s->prio);
    free(s->queue);
    free(s->running);
    free(s->since);
    free(s->jobs);
    free(s->future.idx);
    free(s->ready.idx);
    free(s->stamp);
    free(s->rr);
    free(s->qleft);
    free(s->mask);
    free(s->last_task);
    free(s->newrun);
    free(s->order);
    free(s->slot_of);
    free(s->proto);
    free(s->holder);
    free(s->fifo);
    free(s->fifo_off);
    free(s->fifo_len);
    free(s->ceil_prio);
    free(s->ceil_dl);
    free(s->state_since);
    free(s);
}
