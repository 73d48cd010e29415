/* models/effective.h — the effective task terms every analysis uses
 * (docs/spec.md "Real-system terms" and "The SCHED_DEADLINE charge"): with
 * the platform's overheads,
 *   J' = jitter + release_latency,
 *   C' = wcet + ceil(wcet x noise_per_ms / 1 ms) + 2 x context_switch
 *        (+ deadline_charge when SCHED_DEADLINE runs the task: EDF, GEDF)
 *        + sum over its requests of count x lock (the lock overhead; with
 *        FMLP+ also 3 x context_switch), and its critical sections are held
 *        for rtp_request_held with the same overheads (solver/locks.h): the
 *        effective copy carries them in rtp_task.charged, so an analysis
 *        with other overheads than the document's (report's probe, a
 *        sweep) charges its sections with those, never with stale ones.
 * Why each term: a context switch into the job and one out of it are charged
 * to the job [BC07]; interrupts, the tick and a hypervisor take CPU time
 * from a running job in proportion to how long it runs (osnoise's view of
 * noise, docs/platform-notes.md); and SCHED_DEADLINE charges every job's
 * budget for the kernel's wake-up, switch-in and yield paths on top of the
 * job's own CPU time (kernel/sched/deadline.c, update_curr_dl_se), which a
 * runtime equal to the bare C' does not pay for: the job is throttled to its
 * next period and the overdraft is taken from its next budget [LinuxDL].
 *
 * One place computes them: analyses (solver/) read a task's wcet_ns as C' and
 * its jitter_ns as J', so every consumer (analyze, the partition heuristics,
 * OPA, the ILP, clusters, emit's re-check, sweeps, deployment budgets) turns
 * declared tasks into effective ones at its boundary with
 * rtp_effective_tasks, and keeps the declared tasks for its output
 * (utilization outputs stay the declared wcet / period). C' or J' past 2^62
 * ns is RTP_ELIMIT (exit 3), never a wrapped value. With deadline_charge
 * and noise_per_ms zero, C' is what it was before they existed.
 * Ownership: effective copies are shallow (names, cmd, affinity borrowed from
 * the declared tasks). Pure, no globals, thread-safe. */
#ifndef RTP_EFFECTIVE_H
#define RTP_EFFECTIVE_H

#include "models/taskset.h"

/* 1 when ov is NULL or every overhead is 0 (declared = effective). */
int rtp_overheads_zero(const rtp_overheads *ov);

/* 1 when C' differs from wcet under `policy` for some wcet (a context switch,
 * noise, or the charge under SCHED_DEADLINE): where outputs add
 * effective_utilization. */
int rtp_overheads_stretch(const rtp_overheads *ov, rtp_policy policy);

/* 1 when `policy` runs under SCHED_DEADLINE (EDF, GEDF): its jobs pay the
 * deadline charge. */
int rtp_policy_is_deadline(rtp_policy policy);

/* wcet + ceil(wcet x noise_per_ms / 1 ms): a job's own work with the noise
 * it meets while it runs. RTP_ELIMIT (out untouched) past 2^62 ns. */
rtp_status rtp_effective_noisy(rtp_ns wcet, const rtp_overheads *ov, rtp_ns *out);

/* The largest w >= 0 with rtp_effective_noisy(w) <= x (x >= 0): the inverse
 * that sensitivity uses to turn a largest C' back into a wcet. */
rtp_ns rtp_effective_noisy_inverse(rtp_ns x, const rtp_overheads *ov);

/* The per-job constant of C' under `policy`: 2 x context_switch, plus
 * deadline_charge under SCHED_DEADLINE. RTP_ELIMIT past 2^62 ns. */
rtp_status rtp_effective_fixed(const rtp_overheads *ov, rtp_policy policy, rtp_ns *out);

/* C' of one task under `policy`: what a SCHED_DEADLINE runtime must cover
 * (EDF, GEDF), or what a job of a SCHED_FIFO task costs its CPU (FP, GFP).
 * RTP_ELIMIT (out untouched) past 2^62 ns. ov may be NULL. */
rtp_status rtp_effective_wcet(const rtp_task *task, const rtp_overheads *ov,
                              rtp_policy policy, rtp_ns *out);

/* J' = jitter + release_latency of one task. RTP_ELIMIT past 2^62 ns. */
rtp_status rtp_effective_jitter(const rtp_task *task, const rtp_overheads *ov,
                                rtp_ns *out);

/* task->charged = *ov (all 0 when ov is NULL): the overheads the solver
 * holds task's critical sections with. rtp_effective_tasks sets it; a
 * caller that builds an effective task term by term (deploy's runtimes)
 * calls it with the overheads its plan was analysed with. RTP_ELIMIT (task
 * untouched) when a section held with them (rtp_request_held) passes 2^62
 * ns: what charged holds has always been checked. */
rtp_status rtp_effective_charge(rtp_task *task, const rtp_overheads *ov);

/* out[i] = tasks[i] with wcet_ns = C' (under `policy`), jitter_ns = J' and
 * charged = *ov (shallow copies; out may be tasks itself). RTP_ELIMIT naming the task
 * when a term passes 2^62 ns (out then partly written). */
rtp_status rtp_effective_tasks(const rtp_task *tasks, size_t n,
                               const rtp_overheads *ov, rtp_policy policy,
                               rtp_task *out, rtp_diag *diag);

/* rtp_effective_tasks into a malloc'd array of max(n, 1) entries (the
 * caller frees it with free()); NULL with RTP_ENOMEM or RTP_ELIMIT in
 * *status and diag. */
rtp_task *rtp_effective_new(const rtp_task *tasks, size_t n,
                            const rtp_overheads *ov, rtp_policy policy,
                            rtp_status *status, rtp_diag *diag);

/* 1 when some task has a non-zero jitter or blocking (read the effective
 * tasks: J' includes the release latency). Tests that do not model them
 * are then not applicable. */
int rtp_tasks_have_delays(const rtp_task *tasks, size_t n);

#endif
