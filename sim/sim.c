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

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define NONE ((size_t)-1)

enum { FREE_RUN = 0, SPIN, HOLD }; /* a job's state with resources */

typedef struct sjob {
    rtp_sim_job pub;
    rtp_ns left;       /* execution still to do */
    size_t next;       /* next job in its task's queue, or next free slot */
    int cpu;           /* CPU slot while running, -1 otherwise */
    /* with resources */
    int state, started;
    size_t req;        /* the request of its next or current section ... */
    rtp_ns done_in_req;/* ... and how many of that request's sections began */
    rtp_ns sec_left;   /* HOLD: the section's execution still to do */
    size_t res;        /* SPIN, HOLD: the resource */
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
    /* SCHED_RR (rtp_sim_set_rr): run-list order, quanta */
    int lists;
    uint64_t *stamp;   /* per task: its place in its priority's list (smaller first) */
    uint64_t next_stamp;
    int *rr;
    rtp_ns quantum, tick;
    rtp_ns *qleft;     /* per task: quantum left, in ticks (tick > 0) or ns */
    /* arbitrary affinities (rtp_sim_set_masks) */
    uint64_t *mask;
    size_t *last_task; /* per slot: the task that ran there just before the clock */
    size_t *newrun;    /* per slot: scratch of dispatch_apa */
    size_t *order;     /* the eligible jobs, best first: scratch of dispatch_apa */
    size_t cap_order;
    /* shared resources (rtp_sim_set_locks) */
    const rtp_task *tasks;
    size_t *slot_of;   /* per task */
    size_t n_res;
    int *msrp;         /* per resource */
    size_t *holder;    /* per resource: the job holding it, or NONE */
    size_t *fifo;      /* per resource: m places, its spinning requesters in order */
    size_t *fifo_len;
    int *ceil_prio;    /* per (slot, resource): FP ceiling, the users' highest priority */
    rtp_ns *ceil_dl;   /* per (slot, resource): SRP ceiling, the users' least deadline */
    rtp_ns *state_since; /* per slot: where the running job's current state began */
    rtp_sim_section_fn section;
};

/* With resources: a job spinning for or holding an MSRP resource is
 * non-preemptive; a holder of a ceiling resource under FP runs at its
 * ceiling. */
static int nonpreemptive(const rtp_sim *s, size_t k)
{
    return s->jobs[k].state != FREE_RUN && s->msrp[s->jobs[k].res];
}

static int effective_prio(const rtp_sim *s, size_t k)
{
    const sjob *j = &s->jobs[k];
    int p = s->prio[j->pub.task];
    if (j->state == HOLD && !s->msrp[j->res]) {
        int c = s->ceil_prio[s->slot_of[j->pub.task] * s->n_res + j->res];
        p = c > p ? c : p;
    }
    return p;
}

/* Does job a run before job b? (sim.h states the rule.) */
static int better(const rtp_sim *s, size_t a, size_t b)
{
    const rtp_sim_job *x = &s->jobs[a].pub, *y = &s->jobs[b].pub;
    if (s->tasks) {
        if (nonpreemptive(s, a) != nonpreemptive(s, b))
            return nonpreemptive(s, a);
        /* a job of its ceiling's priority does not preempt a holder: the
         * holder joined that priority first (FIFO) */
        if (!s->edf && effective_prio(s, a) != effective_prio(s, b))
            return effective_prio(s, a) > effective_prio(s, b);
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

/* Restores the heap order of every element (after keys changed). */
static void heap_fix(const rtp_sim *s, heap *h, order_fn first)
{
    for (size_t k = 1; k < h->len; k++) {
        size_t v = h->idx[k], i = k;
        while (i > 0 && first(s, v, h->idx[(i - 1) / 2])) {
            h->idx[i] = h->idx[(i - 1) / 2];
            i = (i - 1) / 2;
        }
        h->idx[i] = v;
    }
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

rtp_status rtp_sim_set_rr(rtp_sim *s, const int *rr, rtp_ns quantum_ns, rtp_ns tick_ns,
                          rtp_diag *diag)
{
    if (s->edf || s->m != 1 || s->next_seq > 0 || s->rr || s->tasks || quantum_ns < 1 ||
        tick_ns < 0 ||
        (tick_ns > 0 && quantum_ns % tick_ns != 0))
        return rtp_diag_set(diag, RTP_EINPUT, "",
                            "SCHED_RR is simulated under fixed priorities on one CPU, set "
                            "before the first job, with a tick dividing the quantum");
    s->stamp = calloc(s->n_tasks + 1, sizeof *s->stamp);
    s->rr = calloc(s->n_tasks + 1, sizeof *s->rr);
    s->qleft = calloc(s->n_tasks + 1, sizeof *s->qleft);
    if (!s->stamp || !s->rr || !s->qleft)
        return rtp_oom(diag);
    s->lists = 1;
    s->quantum = quantum_ns;
    s->tick = tick_ns;
    for (size_t i = 0; i < s->n_tasks; i++) {
        s->rr[i] = rr[i] != 0;
        s->qleft[i] = tick_ns > 0 ? quantum_ns / tick_ns : quantum_ns;
    }
    return RTP_OK;
}

/* The masks; under EDF only rtp_sim_set_locks installs them (one CPU each:
 * partitioned EDF). */
static rtp_status install_masks(rtp_sim *s, const uint64_t *mask, rtp_diag *diag)
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
        s->last_task[c] = NONE;
    return RTP_OK;
}

rtp_status rtp_sim_set_masks(rtp_sim *s, const uint64_t *mask, rtp_diag *diag)
{
    if (s->edf)
        return rtp_diag_set(diag, RTP_EINPUT, "", "affinity masks: fixed priorities only");
    return install_masks(s, mask, diag);
}

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
        s->holder[r] = NONE;
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
        st = install_masks(s, mask, diag);
    if (st == RTP_OK) {
        s->tasks = tasks;
        s->n_res = n_resources;
        s->section = section;
    }
done:
    free(mask);
    return st;
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
    s->jobs[k].pub.spin_ns = s->jobs[k].pub.blocked_ns = 0;
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
    if (k != NONE && s->tasks && s->jobs[k].state != FREE_RUN && s->section) {
        rtp_ns from = s->state_since[c] > s->since[c] ? s->state_since[c] : s->since[c];
        if (s->now > from)
            s->section(s->hooks.ctx, c, &s->jobs[k].pub, s->jobs[k].res,
                             s->jobs[k].state == SPIN, from, s->now);
    }
    s->since[c] = s->now;
}

/* A state change of the job running on slot c at the clock. */
static void set_state(rtp_sim *s, int c, int state)
{
    close_segment(s, c);
    s->jobs[s->running[c]].state = state;
    s->state_since[c] = s->now;
}

/* The running job on slot c takes resource r (sim.h: ceiling resources are
 * never held by another job when taken; MSRP ones may be: spin). */
static rtp_status take(rtp_sim *s, int c, size_t r)
{
    size_t k = s->running[c];
    sjob *j = &s->jobs[k];
    const rtp_request *q = &s->tasks[j->pub.task].requests[j->req];
    j->res = r;
    j->done_in_req++;
    if (s->holder[r] == NONE) {
        s->holder[r] = k;
        j->sec_left = q->length_ns < j->left ? q->length_ns : j->left;
        set_state(s, c, HOLD);
        return RTP_OK;
    }
    if (!s->msrp[r])
        return RTP_EINTERNAL; /* the ceiling protocols exclude it */
    s->fifo[r * (size_t)s->m + s->fifo_len[r]++] = k;
    set_state(s, c, SPIN);
    return RTP_OK;
}

/* Running jobs at the start of a section enter it, in slot order. */
static rtp_status enter_sections(rtp_sim *s)
{
    for (int c = 0; c < s->m; c++) {
        size_t k = s->running[c];
        if (k == NONE || s->jobs[k].state != FREE_RUN || s->jobs[k].left == 0)
            continue;
        sjob *j = &s->jobs[k];
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

/* Sections that end at the clock: the resource passes to the first in its
 * queue (MSRP) or is free again. */
static void leave_sections(rtp_sim *s)
{
    for (int c = 0; c < s->m; c++) {
        size_t k = s->running[c];
        if (k == NONE || s->jobs[k].state != HOLD || s->jobs[k].sec_left > 0)
            continue;
        size_t r = s->jobs[k].res;
        set_state(s, c, FREE_RUN);
        s->holder[r] = NONE;
        if (s->fifo_len[r] == 0)
            continue;
        size_t w = s->fifo[r * (size_t)s->m];
        memmove(&s->fifo[r * (size_t)s->m], &s->fifo[r * (size_t)s->m + 1],
                --s->fifo_len[r] * sizeof *s->fifo);
        sjob *next = &s->jobs[w];
        const rtp_request *q = &s->tasks[next->pub.task].requests[next->req];
        s->holder[r] = w;
        next->sec_left = q->length_ns < next->left ? q->length_ns : next->left;
        set_state(s, next->cpu, HOLD);
    }
}

/* SRP: may job k start on its CPU (its relative deadline below every
 * ceiling of a resource held there)? */
static int may_start(const rtp_sim *s, size_t k)
{
    const sjob *j = &s->jobs[k];
    if (!s->edf || j->started)
        return 1;
    size_t c = s->slot_of[j->pub.task];
    for (size_t r = 0; r < s->n_res; r++)
        if (!s->msrp[r] && s->holder[r] != NONE &&
            s->tasks[j->pub.task].deadline_ns >= s->ceil_dl[c * s->n_res + r])
            return 0;
    return 1;
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
            if (s->lists) /* the thread wakes: the tail of its list */
                s->stamp[s->jobs[k].pub.task] = s->next_stamp++;
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

/* How urgent the job that ran on slot c just before the clock was: an idle
 * slot is the least urgent. */
static long occupant(const rtp_sim *s, int c)
{
    return s->last_task[c] == NONE ? (long)INT_MIN - 1 : (long)s->prio[s->last_task[c]];
}

/* Arbitrary affinities (sim.h): the eligible jobs, best first, each take
 * the CPU of their mask the rule picks among those no better job took. */
static rtp_status dispatch_apa(rtp_sim *s)
{
    size_t n = 0;
    if (RTP_GROW(s->order, s->cap_order, s->ready.len + (size_t)s->m) != 0 ||
        RTP_GROW(s->ready.idx, s->ready.cap, s->ready.len + (size_t)s->m) != 0)
        return RTP_ENOMEM;
    for (size_t k = 0; k < s->ready.len; k++)
        s->order[n++] = s->ready.idx[k];
    for (int c = 0; c < s->m; c++)
        if (s->running[c] != NONE)
            s->order[n++] = s->running[c];
    for (size_t k = 1; k < n; k++) { /* insertion sort: few jobs are eligible at once */
        size_t v = s->order[k], i = k;
        for (; i > 0 && better(s, v, s->order[i - 1]); i--)
            s->order[i] = s->order[i - 1];
        s->order[i] = v;
    }
    uint64_t claimed = 0, all = s->m == 64 ? ~(uint64_t)0 : ((uint64_t)1 << s->m) - 1;
    for (int c = 0; c < s->m; c++)
        s->newrun[c] = NONE;
    s->ready.len = 0;
    for (size_t k = 0; k < n; k++) {
        size_t job = s->order[k], task = s->jobs[job].pub.task;
        uint64_t free = s->mask[task] & all & ~claimed;
        int pick = -1;
        if (s->tasks && !may_start(s, job))
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
            close_segment(s, c);
            if (s->running[c] != NONE && s->jobs[s->running[c]].cpu == c)
                s->jobs[s->running[c]].cpu = -1;
        }
    for (int c = 0; c < s->m; c++)
        if (s->running[c] != s->newrun[c]) {
            s->running[c] = s->newrun[c];
            s->since[c] = s->now;
            if (s->newrun[c] != NONE) {
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

/* The best eligible jobs take free CPUs, then preempt the worst running
 * ones while strictly better. */
static rtp_status dispatch(rtp_sim *s)
{
    if (s->mask)
        return dispatch_apa(s);
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

/* With resources, over the next dt: spins, sections, and the time each
 * ready job waits while its CPU runs a less urgent one (blocking). */
static void account(rtp_sim *s, rtp_ns dt)
{
    for (int c = 0; c < s->m; c++) {
        sjob *j = s->running[c] != NONE ? &s->jobs[s->running[c]] : NULL;
        if (j && j->state == SPIN)
            j->pub.spin_ns += dt;
        else if (j && j->state == HOLD)
            j->sec_left -= dt;
    }
    for (size_t k = 0; k < s->ready.len; k++) {
        sjob *w = &s->jobs[s->ready.idx[k]];
        size_t r = s->running[s->slot_of[w->pub.task]];
        if (r == NONE)
            continue;
        const rtp_sim_job *x = &s->jobs[r].pub;
        if (s->edf ? x->deadline_ns > w->pub.deadline_ns
                   : s->prio[x->task] < s->prio[w->pub.task])
            w->pub.blocked_ns += dt;
    }
}

/* SCHED_RR's quantum at the clock, after its completions (sim.h): the tick
 * charges the thread at the head; without a tick, `cur` (which ran up to
 * the clock) may have used its quantum up. An expired quantum is refilled
 * and sends its thread to the tail when a peer of its priority is queued. */
static void quantum(rtp_sim *s, size_t cur)
{
    size_t t;
    if (s->tick > 0) {
        if (s->now % s->tick != 0)
            return;
        size_t k = s->running[0];
        if (k == NONE || (s->ready.len > 0 && better(s, s->ready.idx[0], k)))
            k = s->ready.len > 0 ? s->ready.idx[0] : NONE;
        if (k == NONE || !s->rr[t = s->jobs[k].pub.task] || --s->qleft[t] > 0)
            return;
        s->qleft[t] = s->quantum / s->tick;
    } else {
        if (cur == NONE || !s->rr[cur] || s->qleft[cur] > 0)
            return;
        s->qleft[t = cur] = s->quantum;
        if (s->queue[t].len == 0)
            return; /* it sleeps: it joins the tail when it wakes */
    }
    for (size_t u = 0; u < s->n_tasks; u++)
        if (u != t && s->prio[u] == s->prio[t] && s->queue[u].len > 0) {
            s->stamp[t] = s->next_stamp++;
            heap_fix(s, &s->ready, better);
            return;
        }
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
            st = enter_sections(s);
        if (st != RTP_OK)
            return st == RTP_EINTERNAL
                       ? rtp_diag_set(diag, st, "", "simulation: a ceiling resource was "
                                                    "taken while held")
                       : st;
        rtp_ns next = until;
        if (s->future.len > 0 && s->jobs[s->future.idx[0]].pub.release_ns < next)
            next = s->jobs[s->future.idx[0]].pub.release_ns;
        for (int c = 0; c < s->m; c++) {
            const sjob *j = s->running[c] != NONE ? &s->jobs[s->running[c]] : NULL;
            if (!j || j->state == SPIN)
                continue; /* a spinning job waits for a handover, itself an event */
            rtp_ns end = s->now + (j->state == HOLD ? j->sec_left : j->left);
            next = end < next ? end : next;
        }
        size_t cur = s->lists && s->running[0] != NONE ? s->jobs[s->running[0]].pub.task : NONE;
        if (cur != NONE && s->rr[cur]) { /* the next tick, or where its quantum runs out */
            rtp_ns q = s->tick > 0 ? (s->now / s->tick + 1) * s->tick : s->now + s->qleft[cur];
            next = q < next ? q : next;
        }
        if (s->tasks)
            account(s, next - s->now);
        for (int c = 0; c < s->m; c++) {
            if (s->last_task)
                s->last_task[c] = s->running[c] != NONE ? s->jobs[s->running[c]].pub.task : NONE;
            if (s->running[c] != NONE && s->jobs[s->running[c]].state != SPIN)
                s->jobs[s->running[c]].left -= next - s->now;
        }
        if (cur != NONE && s->rr[cur] && s->tick == 0)
            s->qleft[cur] -= next - s->now;
        s->now = next;
        if (s->tasks)
            leave_sections(s);
        st = complete(s);
        if (st != RTP_OK)
            return st;
        if (s->lists)
            quantum(s, cur);
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
    free(s->stamp);
    free(s->rr);
    free(s->qleft);
    free(s->mask);
    free(s->last_task);
    free(s->newrun);
    free(s->order);
    free(s->slot_of);
    free(s->msrp);
    free(s->holder);
    free(s->fifo);
    free(s->fifo_len);
    free(s->ceil_prio);
    free(s->ceil_dl);
    free(s->state_since);
    free(s);
}
