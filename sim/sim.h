/* sim/sim.h — the one scheduling simulator of rtpack: preemptive EDF or
 * fixed priorities on one CPU or globally on M identical CPUs, event-driven
 * (time jumps from one release or completion to the next) in exact integer ns.
 *
 * Two levels. The engine (rtp_sim_*) schedules explicit jobs that the caller
 * adds while it advances the clock, so tests can drive any release pattern
 * through it (tests/support/reference.c). rtp_sim_periodic runs the model of
 * docs/spec.md "rtpack simulate": every task released at 0 and then every
 * period, each job running exactly its wcet (or an overrun), and reports
 * per task jobs, misses, the first miss and the largest response.
 *
 * The rules are the analyses' (solver/edf.h, solver/fp.h): a ready job runs
 * before another when (EDF) its absolute deadline is earlier, then its task
 * comes first in the input, then it was added first; (FP) its task's
 * priority is larger (Linux convention), then it was released earlier
 * (first-in first-out among equal priorities, as SCHED_FIFO), then it was
 * added first. A task is one thread: only its oldest unfinished released job
 * may run, so its jobs never overlap and never run in parallel. The M best
 * eligible jobs run; a running job keeps its CPU until it finishes or is
 * preempted by a strictly better one (no needless migration).
 *
 * Two refinements, each switched on before the first job is added:
 * - rtp_sim_set_rr (FP on one CPU): Linux's run lists (docs/spec.md
 *   "SCHED_RR", kernel/sched/rt.c): equal priorities run in list order, a
 *   thread that wakes joins the tail, a preempted one keeps its place, a
 *   thread whose next job is already released goes on; a SCHED_RR thread's
 *   quantum carries over between jobs and, when it runs out, is refilled and
 *   sends the thread to the tail if another thread of its priority is
 *   queued. With a tick P the quantum is K = Q / P ticks, each tick (at
 *   multiples of P) charged to the thread at the head after the instant's
 *   completions (the order of an instant: completions, the tick, releases);
 *   without one it is Q ns of the thread's own execution.
 * - rtp_sim_set_masks (arbitrary affinities, [GCB13]): at every event the
 *   eligible jobs, best first, each take a CPU of their mask that no better
 *   job took: the one it ran on just before, else the one whose previous
 *   job was least urgent (an idle one first), lowest slot on ties; a job
 *   waits only while every CPU of its mask runs a better job (the APA
 *   invariant Linux's push/pull aims at; docs/spec.md "rtpack simulate").
 *
 * - rtp_sim_set_locks (shared resources, docs/spec.md "Shared resources"):
 *   every task is pinned to one CPU slot and each job runs its critical
 *   sections first, in the order of its requests (count sections of length
 *   each; a job shorter than them ends inside one); a resource whose users
 *   sit on one slot follows the ceiling protocols: under FP the immediate
 *   priority ceiling [SRL90] (the holder runs at the highest priority of the
 *   resource's users there), under EDF the stack resource policy [Bak91]
 *   (preemption levels by relative deadline: a job that has not started
 *   starts only when its relative deadline is below every deadline of the
 *   users of a resource held on its CPU); a resource marked MSRP [GLD01] is
 *   requested non-preemptively, the requester spinning on its CPU until the
 *   resources' FIFO queue (requests of one instant in slot order) hands it
 *   over, and held non-preemptively; a resource marked FMLP+ (FP only; every
 *   other resource then FMLP+ or a ceiling one, whose holder runs just above
 *   its ceiling and below boosted jobs) follows the partitioned preemptive FMLP+ [Bra11] as
 *   solver/fmlp.h analyses it: a job whose request finds the resource held
 *   suspends (leaves its CPU) in the resource's FIFO queue, requests of one
 *   instant queued in slot order (on one slot, a suspension lets the next
 *   job run and request at the same instant); a holder is boosted above
 *   every job of its slot that holds nothing, boosted jobs running in the
 *   order of their requests; the resource passes to the head of its queue
 *   when the section ends.
 *
 * The engine is sim.c; each refinement's rules are one file beside it
 * (sim_internal.h lists them).
 *
 * Units: rtp_ns; every time handed in lies in 0..2^62. Ownership: an
 * rtp_sim is created and freed by the caller; hooks are called
 * synchronously. Thread-safety: no globals; one rtp_sim per thread. */
#ifndef RTP_SIM_H
#define RTP_SIM_H

#include "models/base.h"
#include "models/taskset.h"

#include <stddef.h>
#include <stdint.h>
#include "models/api.h"

RTP_API_BEGIN

typedef struct rtp_sim_job {
    size_t task;        /* index of the task (0..n_tasks-1): tie rule, thread */
    rtp_ns arrival_ns;  /* responses are measured from here */
    rtp_ns release_ns;  /* the job becomes ready (>= arrival_ns with jitter) */
    rtp_ns deadline_ns; /* absolute */
    rtp_ns exec_ns;     /* execution time, >= 1 */
    uint64_t seq;       /* set by rtp_sim_add: 0, 1, 2, ... (last tie-break) */
    rtp_ns finish_ns;   /* set when it completes; -1 when reported unfinished */
    rtp_ns spin_ns;     /* with resources: time it spun for a global one (MSRP) */
    rtp_ns blocked_ns;  /* with resources: time it was ready while its CPU ran a job of
                         * lower priority (FP) or later deadline (EDF), spinning and
                         * suspension (FMLP+) included */
} rtp_sim_job;

/* Optional callbacks (any may be NULL). */
typedef struct rtp_sim_hooks {
    void *ctx;
    /* A job completed at job->finish_ns, or (rtp_sim_drain) had not
     * completed by the clock: finish_ns == -1. */
    void (*done)(void *ctx, const rtp_sim_job *job);
    /* `job` ran on CPU slot `cpu` (0..M-1) throughout [from, to), from < to. */
    void (*ran)(void *ctx, int cpu, const rtp_sim_job *job, rtp_ns from, rtp_ns to);
} rtp_sim_hooks;

/* How rtp_sim_set_locks runs a resource. */
enum { RTP_SIM_LOCK_CEILING = 0, RTP_SIM_LOCK_MSRP = 1, RTP_SIM_LOCK_FMLP = 2 };

/* What a job did with a resource over an interval (rtp_sim_section_fn). */
enum {
    RTP_SIM_HOLDING = 0,   /* held it (ceiling protocols, MSRP) */
    RTP_SIM_SPINNING = 1,  /* spun for it (MSRP) */
    RTP_SIM_SUSPENDED = 2, /* waited for it suspended, off its CPU (FMLP+) */
    RTP_SIM_BOOSTED = 3    /* held it, priority-boosted (FMLP+) */
};

/* With resources (rtp_sim_set_locks), called with the hooks' ctx: `job`
 * did `what` (RTP_SIM_HOLDING, ...) with `resource` throughout [from, to)
 * on CPU slot `cpu` (its own slot), inside a segment the ran hook reports
 * except while RTP_SIM_SUSPENDED. */
typedef void (*rtp_sim_section_fn)(void *ctx, int cpu, const rtp_sim_job *job, size_t resource,
                                   int what, rtp_ns from, rtp_ns to);

typedef struct rtp_sim rtp_sim;

/* A simulator of `n_tasks` tasks on `cpus` CPUs (>= 1) under `policy`:
 * EDF and GEDF use the deadline rule, FP and GFP the priority rule with
 * priority[task] (copied; NULL allowed for EDF). The clock starts at 0. */
rtp_status rtp_sim_create(rtp_policy policy, int cpus, const int *priority, size_t n_tasks,
                          const rtp_sim_hooks *hooks, rtp_sim **out, rtp_diag *diag);

/* SCHED_RR (see above): rr[task] non-zero for a SCHED_RR thread (copied),
 * quantum_ns >= 1, tick_ns 0 (none) or dividing quantum_ns. RTP_EINPUT
 * unless the simulator is FP on one CPU and no job was added yet. */
rtp_status rtp_sim_set_rr(rtp_sim *sim, const int *rr, rtp_ns quantum_ns, rtp_ns tick_ns,
                          rtp_diag *diag);

/* Affinity masks (see above): mask[task] a non-empty set of CPU slots
 * (bit c = slot c; copied). RTP_EINPUT past 64 CPUs, for an empty mask, or
 * once a job was added. */
rtp_status rtp_sim_set_masks(rtp_sim *sim, const uint64_t *mask, rtp_diag *diag);

/* Shared resources (see above): tasks[i] (its requests and relative
 * deadline; borrowed while the simulator lives) runs on CPU slot slot[i];
 * protocol[r] runs resource r: RTP_SIM_LOCK_MSRP, RTP_SIM_LOCK_FMLP, or
 * RTP_SIM_LOCK_CEILING, the ceiling protocol of the policy (its users must
 * then share one slot); `section` (may be NULL) is told about every
 * section, spin and suspension. RTP_EINPUT for a bad slot, resource index
 * or protocol, ceiling users on two slots, FMLP+ under EDF or beside
 * MSRP, together with SCHED_RR, or once a job was added. */
rtp_status rtp_sim_set_locks(rtp_sim *sim, const rtp_task *tasks, const size_t *slot,
                             size_t n_resources, const int *protocol,
                             rtp_sim_section_fn section, rtp_diag *diag);

/* Adds a job released at or after the clock (RTP_EINPUT otherwise, or for a
 * bad task index or exec_ns < 1). Jobs of one task must be added in release
 * order. *job is copied; its seq is returned in *seq when seq is non-NULL. */
rtp_status rtp_sim_add(rtp_sim *sim, const rtp_sim_job *job, uint64_t *seq, rtp_diag *diag);

/* Runs the schedule up to `until` (>= the clock): every completion at or
 * before `until` is reported; jobs released exactly at `until` are not yet
 * ready (a caller may still add a job there that wins every tie it can). */
rtp_status rtp_sim_run(rtp_sim *sim, rtp_ns until, rtp_diag *diag);

/* The clock. */
rtp_ns rtp_sim_now(const rtp_sim *sim);

/* Jobs of `task` released before the clock and not completed by it. */
size_t rtp_sim_backlog(const rtp_sim *sim, size_t task);

/* Reports the open execution segments up to the clock (ran) and every
 * job not completed (done, finish_ns = -1), then forgets those jobs. */
void rtp_sim_drain(rtp_sim *sim);

void rtp_sim_free(rtp_sim *sim);

/* ---- the periodic model of `rtpack simulate` ---- */

#define RTP_SIM_MAX_JOBS 10000000ULL /* docs/spec.md: refused past 10^7 jobs */

typedef struct rtp_sim_task_stats {
    uint64_t jobs;         /* released in [0, until) */
    uint64_t misses;       /* due by `until` and completed after the deadline or not at all */
    rtp_ns first_miss_ns;  /* absolute deadline of the first such job; -1: none */
    rtp_ns response_max_ns;/* largest completion - arrival; -1: no job completed */
    rtp_ns spin_max_ns;    /* with resources: the largest spin_ns of a completed job, else 0 */
    rtp_ns blocked_max_ns; /* with resources: the largest blocked_ns of a completed job,
                            * else 0 */
} rtp_sim_task_stats;

typedef struct rtp_sim_periodic_opts {
    rtp_ns until_ns;       /* horizon; 0 = rtp_sim_default_until */
    long overrun_task;     /* the task whose first job runs overrun_ns; -1 = none */
    rtp_ns overrun_ns;
    rtp_sim_hooks hooks;   /* also told about every job and segment (Gantt charts) */
    const int *rr;         /* non-NULL: rtp_sim_set_rr with rr_quantum_ns, tick_ns */
    rtp_ns rr_quantum_ns, tick_ns;
    const uint64_t *mask;  /* non-NULL: rtp_sim_set_masks */
    const size_t *slot;    /* non-NULL: rtp_sim_set_locks(tasks, slot, n_resources,
                            * protocol, section) */
    size_t n_resources;
    const int *protocol;
    rtp_sim_section_fn section;
} rtp_sim_periodic_opts;

/* The hyperperiod plus the largest deadline (RTP_ELIMIT, saying so, when it
 * is past 2^62 ns). */
rtp_status rtp_sim_default_until(const rtp_task *tasks, size_t n, rtp_ns *until,
                                 rtp_diag *diag);

/* Jobs released in [0, until) by the periodic model (RTP_ELIMIT past
 * RTP_SIM_MAX_JOBS, saying so). */
rtp_status rtp_sim_count_jobs(const rtp_task *tasks, size_t n, rtp_ns until, uint64_t *jobs,
                              rtp_diag *diag);

/* Simulates tasks[0..n-1] (releases at k x period_ns, deadlines
 * k x period_ns + deadline_ns, executions wcet_ns; jitter, blocking and
 * overheads play no part) up to the horizon, into stats[0..n-1]; *until_out
 * gets the horizon used. */
rtp_status rtp_sim_periodic(const rtp_task *tasks, size_t n, rtp_policy policy, int cpus,
                            const int *priority, const rtp_sim_periodic_opts *opts,
                            rtp_sim_task_stats *stats, rtp_ns *until_out, rtp_diag *diag);

RTP_API_END
#endif
