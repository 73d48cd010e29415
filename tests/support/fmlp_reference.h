/* tests/support/fmlp_reference.h — the slow, obviously correct reference
 * for the partitioned, preemptive FMLP+ [Bra11] under fixed priorities: a
 * unit-step simulation in which, at every unit and on every CPU in order,
 * the CPU runs a boosted holder (the earliest request first), else its most
 * urgent ready job; a job reaching a section requests it (zero time) and
 * suspends in the resource's FIFO queue when it is held; a finished section
 * hands the resource to the head of its queue; a ceiling (PCP) resource's
 * holder runs just above its ceiling, below boosted holders; a
 * suspension's context switches and wake-up (sw, wake) run as events.
 * Used by test_fmlp (against solver/fmlp.h's bounds, with jobs of any
 * shape, overheads and PCP beside FMLP+) and test_sim_locks
 * (against sim/sim.h's engine, trace for trace, with the engine's job
 * shape: sections first, in request order). */
#ifndef RTP_FMLP_REFERENCE_H
#define RTP_FMLP_REFERENCE_H

#include "gen/rng.h"
#include "models/taskset.h"

enum { FMLP_REF_MAXT = 6, FMLP_REF_MAXR = 3, FMLP_REF_MAXSEG = 16, FMLP_REF_MAXJ = 64 };

typedef struct fmlp_ref_seg {
    int res; /* -1 = plain execution */
    int len;
} fmlp_ref_seg;

typedef struct fmlp_ref_job {
    int task, arrival, release, done;
    fmlp_ref_seg segs[FMLP_REF_MAXSEG];
    int nseg, at, left;
    int requested, waiting, holding; /* in the current section */
    long req_time;
    int req_order; /* ties of one instant: the order of the requests */
    /* the overheads of a suspension, run explicitly (docs/spec.md "Lock
     * overheads"): out_left = the switch away still to run before the job
     * sleeps (not boosted), wake_at = when a job handed the resource after
     * sleeping is woken, in_left = its switch back in (boosted, before the
     * section), after_left = the switch after its section (boosted) */
    int out_left, in_left, after_left, resumed, wake_at;
} fmlp_ref_job;

typedef struct fmlp_ref {
    const rtp_task *t;
    size_t n, cpus;
    const size_t *cpu;
    const int *prio;
    fmlp_ref_job jobs[FMLP_REF_MAXT * FMLP_REF_MAXJ];
    int njobs;
    int head[FMLP_REF_MAXT], last[FMLP_REF_MAXT]; /* task i's jobs: head..last-1, head unfinished */
    int owner[FMLP_REF_MAXR];             /* job holding it, -1 */
    int queue[FMLP_REF_MAXR][FMLP_REF_MAXT * FMLP_REF_MAXJ];/* FIFO of waiting jobs */
    int qlen[FMLP_REF_MAXR];
    int order;
    long suspensions; /* requests that found their resource held */
    int sw, wake;     /* context switch and wake-up latency, in units */
    int ceil[FMLP_REF_MAXR];   /* a ceiling (PCP) resource's ceiling, -1 for FMLP+ */
} fmlp_ref;

/* A new pattern: no job, every resource free (t, n, cpus, cpu, prio, sw,
 * wake and ceil stay). */
void fmlp_ref_clear(fmlp_ref *s);

/* Task i's next job (jobs are added task after task: head[i] = njobs
 * before its first, last[i] = njobs after its last); the caller appends
 * its segments, then calls fmlp_ref_job_ready. */
fmlp_ref_job *fmlp_ref_job_new(fmlp_ref *s, size_t i, int arrival, int release);
void fmlp_ref_job_ready(fmlp_ref_job *j);

/* Runs every unit up to `end` or until no work is left; finish[k] = the
 * completion of job k, its arrival when it had nothing to run, -1 when
 * unfinished. */
void fmlp_ref_run(fmlp_ref *s, int end, int *finish);

/* A seeded tiny set: 2..6 tasks on 1..3 CPUs, 1..3 fmlp+ resources, periods
 * in 6..30, some jitter; with_pcp: the last of two or more resources is a
 * ceiling (PCP) resource, its users moved onto the CPU of the first. */
typedef struct fmlp_ref_set {
    rtp_task t[FMLP_REF_MAXT];
    rtp_request rq[FMLP_REF_MAXT][FMLP_REF_MAXR];
    size_t cpu[FMLP_REF_MAXT];
    size_t n, cpus;
} fmlp_ref_set;
void fmlp_ref_random_set(fmlp_ref_set *d, rtp_rng *rng, int with_pcp);

#endif
