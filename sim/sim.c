/* sim/sim.c — the event-driven engine (see sim.h).
 *
 * State: a pool of jobs; a heap of jobs not yet released, by (release, seq);
 * per task a first-in first-out queue of released unfinished jobs, whose head
 * alone is eligible; a heap of eligible heads that are not running, by the
 * policy's rule; the M CPU slots. The clock jumps to the next release or
 * completion; at each instant completions are handled first, then releases,
 * then the best eligible jobs take the CPUs. */
#include "sim/sim.h"
#include "models/grow.h"

#include <stdlib.h>
#include <string.h>

#define NONE ((size_t)-1)

typedef struct sjob {
    rtp_sim_job pub;
    rtp_ns left;       /* execution still to do */
    size_t next;       /* next job in its task's queue, or next free slot */
    int cpu;           /* CPU slot while running, -1 otherwise */
} sjob;

typedef struct heap {
    size_t *idx;
    size_t len, cap;
} heap;

typedef struct tqueue {
    size_t head, tail, len;
} tqueue;

struct rtp_sim {
    int edf, m;
    int *prio;
    size_t n_tasks;
    rtp_sim_hooks hooks;
    sjob *jobs;
    size_t n_jobs, cap_jobs, free_list;
    heap future, ready;
    tqueue *queue;
    size_t *running;   /* per CPU slot: job index or NONE */
    rtp_ns *since;     /* start of the open segment of each slot */
    rtp_ns now;
    uint64_t next_seq;
};

/* Does job a run before job b? (sim.h states the rule.) */
static int better(const rtp_sim *s, size_t a, size_t b)
{
    const rtp_sim_job *x = &s->jobs[a].pub, *y = &s->jobs[b].pub;
    if (s->edf) {
        if (x->deadline_ns != y->deadline_ns)
            return x->deadline_ns < y->deadline_ns;
        if (x->task != y->task)
            return x->task < y->task;
    } else {
        if (s->prio[x->task] != s->prio[y->task])
            return s->prio[x->task] > s->prio[y->task];
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

typedef int (*order_fn)(const rtp_sim *, size_t, size_t);

static rtp_status heap_push(const rtp_sim *s, heap *h, order_fn first, size_t v)
{
    if (RTP_GROW(h->idx, h->cap, h->len + 1) != 0)
        return RTP_ENOMEM;
    size_t i = h->len++;
    while (i > 0 && first(s, v, h->idx[(i - 1) / 2])) {
        h->idx[i] = h->idx[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h->idx[i] = v;
    return RTP_OK;
}

static size_t heap_pop(const rtp_sim *s, heap *h, order_fn first)
{
    size_t top = h->idx[0], v = h->idx[--h->len], i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= h->len)
            break;
        if (c + 1 < h->len && first(s, h->idx[c + 1], h->idx[c]))
            c++;
        if (!first(s, h->idx[c], v))
            break;
        h->idx[i] = h->idx[c];
        i = c;
    }
    if (h->len > 0)
        h->idx[i] = v;
    return top;
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
        s->queue[i] = (tqueue){NONE, NONE, 0};
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
    s->jobs[k] = (sjob){.pub = *job, .left = job->exec_ns, .next = NONE, .cpu = -1};
    s->jobs[k].pub.seq = s->next_seq++;
    s->jobs[k].pub.finish_ns = -1;
    if (seq)
        *seq = s->jobs[k].pub.seq;
    return heap_push(s, &s->future, earlier, k);
}

static void release_slot(rtp_sim *s, size_t k)
{
    s->jobs[k].next = s->free_list;
    s->free_list = k;
}

static void close_segment(rtp_sim *s, int c)
{
    size_t k = s->running[c];
    if (k != NONE && s->now > s->since[c] && s->hooks.ran)
        s->hooks.ran(s->hooks.ctx, c, &s->jobs[k].pub, s->since[c], s->now);
    s->since[c] = s->now;
}

/* Completions at the clock: the next job of each finished task becomes eligible. */
static rtp_status complete(rtp_sim *s)
{
    for (int c = 0; c < s->m; c++) {
        size_t k = s->running[c];
        if (k == NONE || s->jobs[k].left > 0)
            continue;
        close_segment(s, c);
        s->running[c] = NONE;
        sjob *j = &s->jobs[k];
        j->cpu = -1;
        j->pub.finish_ns = s->now;
        if (s->hooks.done)
            s->hooks.done(s->hooks.ctx, &j->pub);
        tqueue *q = &s->queue[j->pub.task];
        q->head = j->next; /* a running job is always its task's head */
        if (--q->len == 0)
            q->tail = NONE;
        release_slot(s, k);
        if (q->head != NONE) {
            rtp_status st = heap_push(s, &s->ready, better, q->head);
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
        size_t k = heap_pop(s, &s->future, earlier);
        tqueue *q = &s->queue[s->jobs[k].pub.task];
        if (q->len++ == 0) {
            q->head = q->tail = k;
            rtp_status st = heap_push(s, &s->ready, better, k);
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
    while (s->ready.len > 0) {
        size_t best = s->ready.idx[0];
        int slot = -1;
        for (int c = 0; c < s->m && slot < 0; c++)
            if (s->running[c] == NONE)
                slot = c;
        if (slot < 0) {
            for (int c = 0; c < s->m; c++)
                if (slot < 0 || better(s, s->running[slot], s->running[c]))
                    slot = c;
            if (!better(s, best, s->running[slot]))
                break;
            size_t out = s->running[slot];
            close_segment(s, slot);
            s->jobs[out].cpu = -1;
            rtp_status st = heap_push(s, &s->ready, better, out);
            if (st != RTP_OK)
                return st;
        }
        heap_pop(s, &s->ready, better);
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
        if (st != RTP_OK)
            return st;
        rtp_ns next = until;
        if (s->future.len > 0 && s->jobs[s->future.idx[0]].pub.release_ns < next)
            next = s->jobs[s->future.idx[0]].pub.release_ns;
        for (int c = 0; c < s->m; c++)
            if (s->running[c] != NONE && s->now + s->jobs[s->running[c]].left < next)
                next = s->now + s->jobs[s->running[c]].left;
        for (int c = 0; c < s->m; c++)
            if (s->running[c] != NONE)
                s->jobs[s->running[c]].left -= next - s->now;
        s->now = next;
        st = complete(s);
        if (st != RTP_OK)
            return st;
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
    for (int c = 0; c < s->m; c++) {
        close_segment(s, c);
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
        s->queue[t] = (tqueue){NONE, NONE, 0};
    }
    while (s->future.len > 0) {
        size_t k = heap_pop(s, &s->future, earlier);
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
    free(s);
}
