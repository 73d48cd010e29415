/* sim/sim_internal.h — what the simulator's files share (not installed):
 * the state of an rtp_sim and the calls between the engine (sim.c: jobs,
 * queues, the clock, the M best jobs on M CPUs) and its rules, each in one
 * file: sim_heap.c (the binary heaps), sim_rr.c (Linux's run lists and the
 * SCHED_RR quantum), sim_apa.c (arbitrary affinities), sim_locks.c (shared
 * resources: the ceiling protocols, MSRP and FMLP+). sim.h states every
 * rule; each file's header says which part it implements.
 *
 * Units: rtp_ns. Ownership: everything hangs off the rtp_sim and is freed
 * by rtp_sim_free. Thread-safety: one rtp_sim per thread. */
#ifndef RTP_SIM_INTERNAL_H
#define RTP_SIM_INTERNAL_H

#include "sim/sim.h"

#define RTP_SIM_NONE ((size_t)-1)

/* A job's state with resources: running its own code, spinning for a
 * resource (MSRP), holding one, suspended in a resource's queue (FMLP+: off
 * its CPU, in no heap). */
enum { RTP_SIM_FREE = 0, RTP_SIM_SPIN, RTP_SIM_HOLD, RTP_SIM_WAIT };

typedef struct rtp_sim_sjob {
    rtp_sim_job pub;
    rtp_ns left;        /* execution still to do */
    size_t next;        /* next job in its task's queue, or next free slot */
    int cpu;            /* CPU slot while running, -1 otherwise */
    /* with resources */
    int state, started;
    size_t req;         /* the request of its next or current section ... */
    rtp_ns done_in_req; /* ... and how many of that request's sections began */
    rtp_ns sec_left;    /* HOLD: the section's execution still to do */
    size_t res;         /* SPIN, HOLD, WAIT: the resource */
    rtp_ns req_ns;      /* FMLP+: when it requested res ... */
    uint64_t req_seq;   /* ... and that request's place among all requests */
    rtp_ns wait_since;  /* WAIT: since when */
    /* the protocols' keys of rtp_sim_better, kept by sim_locks.c: ... */
    int np;             /* ... non-preemptive (MSRP: spinning or holding), first; */
    int boost;          /* ... boosted (FMLP+ holder), next, in req_seq order; */
    int64_t eprio;      /* ... FP: the priority it runs at, doubled (2 p; a
                         * ceiling's holder 2 c + 1, just above its ceiling c),
                         * then the earlier release */
} rtp_sim_sjob;

typedef struct rtp_sim_heap {
    size_t *idx;
    size_t len, cap;
} rtp_sim_heap;

typedef struct rtp_sim_tqueue {
    size_t head, tail, len;
} rtp_sim_tqueue;

struct rtp_sim {
    int edf, m;
    int *prio;
    size_t n_tasks;
    rtp_sim_hooks hooks;
    rtp_sim_sjob *jobs;
    size_t n_jobs, cap_jobs, free_list;
    rtp_sim_heap future, ready;
    rtp_sim_tqueue *queue;
    size_t *running;   /* per CPU slot: job index or RTP_SIM_NONE */
    rtp_ns *since;     /* start of the open segment of each slot */
    rtp_ns now;
    uint64_t next_seq;
    /* SCHED_RR (sim_rr.c): run-list order, quanta */
    int lists;
    uint64_t *stamp;   /* per task: its place in its priority's list (smaller first) */
    uint64_t next_stamp;
    int *rr;
    rtp_ns quantum, tick;
    rtp_ns *qleft;     /* per task: quantum left, in ticks (tick > 0) or ns */
    /* arbitrary affinities (sim_apa.c) */
    uint64_t *mask;
    size_t *last_task; /* per slot: the task that ran there just before the clock */
    size_t *newrun;    /* per slot: scratch of rtp_sim_apa_dispatch */
    size_t *order;     /* the eligible jobs, best first: scratch of rtp_sim_apa_dispatch */
    size_t cap_order;
    /* shared resources (sim_locks.c) */
    const rtp_task *tasks;
    size_t *slot_of;   /* per task */
    size_t n_res;
    int *proto;        /* per resource: RTP_SIM_LOCK_CEILING, _MSRP or _FMLP */
    size_t *holder;    /* per resource: the job holding it, or RTP_SIM_NONE */
    size_t *fifo;      /* the waiting requesters of resource r in order (MSRP: spinning,
                        * FMLP+: suspended) at fifo_off[r], one place per request of
                        * its users */
    size_t *fifo_off, *fifo_len;
    int *ceil_prio;    /* per (slot, resource): FP ceiling, the users' highest priority */
    rtp_ns *ceil_dl;   /* per (slot, resource): SRP ceiling, the users' least deadline */
    rtp_ns *state_since; /* per slot: where the running job's current state began */
    uint64_t next_req; /* FMLP+: requests so far */
    rtp_sim_section_fn section;
};

typedef int (*rtp_sim_order_fn)(const rtp_sim *, size_t, size_t);

/* sim_heap.c: binary heaps of job indices, first(a, b) saying a comes first. */
rtp_status rtp_sim_heap_push(const rtp_sim *s, rtp_sim_heap *h, rtp_sim_order_fn first,
                             size_t v);
size_t rtp_sim_heap_pop(const rtp_sim *s, rtp_sim_heap *h, rtp_sim_order_fn first);
void rtp_sim_heap_fix(const rtp_sim *s, rtp_sim_heap *h, rtp_sim_order_fn first);

/* sim.c: does job a run before job b (sim.h's rule, resources included)? */
int rtp_sim_better(const rtp_sim *s, size_t a, size_t b);
/* sim.c: reports slot c's open segment up to the clock (and its section). */
void rtp_sim_close_segment(rtp_sim *s, int c);

/* sim_rr.c: the quantum at the clock after its completions; `cur` is the
 * task that ran up to the clock (RTP_SIM_NONE: none). */
void rtp_sim_rr_quantum(rtp_sim *s, size_t cur);

/* sim_apa.c: installs masks (also for rtp_sim_set_locks's pinning) and
 * dispatches by them. */
rtp_status rtp_sim_apa_install(rtp_sim *s, const uint64_t *mask, rtp_diag *diag);
rtp_status rtp_sim_apa_dispatch(rtp_sim *s);

/* sim_locks.c, with resources (s->tasks set): */
/* SRP: may job k start on its CPU now? */
int rtp_sim_locks_may_start(const rtp_sim *s, size_t k);
/* Running jobs at the start of a section request it, slot by slot; a job
 * that suspends (FMLP+) leaves its slot, which is dispatched again and its
 * next job may request in turn, at the same instant. */
rtp_status rtp_sim_locks_enter(rtp_sim *s);
/* Sections that end at the clock hand their resources over. */
rtp_status rtp_sim_locks_leave(rtp_sim *s);
/* Spins, sections, suspensions and blocking over the next dt. */
void rtp_sim_locks_account(rtp_sim *s, rtp_ns dt);
/* Reports the suspensions open at the clock and forgets every holder and
 * queue (rtp_sim_drain forgets their jobs). */
void rtp_sim_locks_drain(rtp_sim *s);
/* The kind of interval (sim.h: RTP_SIM_HOLDING, ...) of job k's state. */
int rtp_sim_locks_what(const rtp_sim *s, size_t k);

#endif
