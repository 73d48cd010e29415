/* models/effective.h — the effective task terms every analysis uses
 * (docs/spec.md "Real-system terms"): with the platform's overheads,
 *   J' = jitter + release_latency,  C' = wcet + 2 x context_switch
 * (a context switch into the job and one out of it, charged to the job).
 *
 * One place computes them: analyses (solver/) read a task's wcet_ns as C' and
 * its jitter_ns as J', so every consumer (analyze, the partition heuristics,
 * OPA, the ILP, clusters, emit's re-check, sweeps, deployment budgets) turns
 * declared tasks into effective ones at its boundary with
 * rtp_effective_tasks, and keeps the declared tasks for its output
 * (utilization outputs stay the declared wcet / period). C' or J' past 2^62
 * ns is RTP_ELIMIT (exit 3), never a wrapped value.
 * Ownership: effective copies are shallow (names, cmd, affinity borrowed from
 * the declared tasks). Pure, no globals, thread-safe. */
#ifndef RTP_EFFECTIVE_H
#define RTP_EFFECTIVE_H

#include "models/taskset.h"

/* 1 when ov is NULL or both overheads are 0 (declared = effective). */
int rtp_overheads_zero(const rtp_overheads *ov);

/* C' = wcet + 2 x context_switch of one task: what a SCHED_DEADLINE runtime
 * must cover. RTP_ELIMIT (out untouched) past 2^62 ns. ov may be NULL. */
rtp_status rtp_effective_wcet(const rtp_task *task, const rtp_overheads *ov,
                              rtp_ns *out);

/* J' = jitter + release_latency of one task. RTP_ELIMIT past 2^62 ns. */
rtp_status rtp_effective_jitter(const rtp_task *task, const rtp_overheads *ov,
                                rtp_ns *out);

/* out[i] = tasks[i] with wcet_ns = C' and jitter_ns = J' (shallow copies;
 * out may be tasks itself). RTP_ELIMIT naming the task when a term passes
 * 2^62 ns (out then partly written). */
rtp_status rtp_effective_tasks(const rtp_task *tasks, size_t n,
                               const rtp_overheads *ov, rtp_task *out,
                               rtp_diag *diag);

/* rtp_effective_tasks into a malloc'd array of max(n, 1) entries (the
 * caller frees it with free()); NULL with RTP_ENOMEM or RTP_ELIMIT in
 * *status and diag. */
rtp_task *rtp_effective_new(const rtp_task *tasks, size_t n,
                            const rtp_overheads *ov, rtp_status *status,
                            rtp_diag *diag);

/* 1 when some task has a non-zero jitter or blocking (read the effective
 * tasks: J' includes the release latency). Tests that do not model them
 * are then not applicable. */
int rtp_tasks_have_delays(const rtp_task *tasks, size_t n);

#endif
