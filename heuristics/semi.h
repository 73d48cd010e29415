/* heuristics/semi.h — semi-partitioned SCHED_FIFO plans: each task pinned to
 * one CPU where one admits it, else kept migrating over a chosen set of
 * CPUs (an affinity mask of two or more), admitted by the arbitrary-affinity
 * analysis of solver/apa.h [GCB13] under Linux's push/pull.
 *
 * Priorities are deadline-monotonic over the whole set (one order: tasks
 * with overlapping masks interact across CPUs). Tasks are placed as first
 * fit decreasing places them (decreasing utilization, ties by input order):
 * each takes the first single CPU of its affinity (by increasing id) where
 * every task placed so far and it pass the analysis; failing that, the
 * first mask of 2, 3, ... CPUs (in lexicographic order of CPU ids) where
 * they do and the masks of migrating tasks stay nested by priority
 * (rtp_apa_nested: push/pull strands no task); failing that it is
 * unassigned. A mask S is tried only while the
 * tasks pinned to its CPUs, those migrating over masks that meet it and the
 * task stay within capacity x |S| (exact utilization).
 *
 * What to expect: while every more urgent task is pinned, a mask never
 * admits a task that every single CPU of it rejects: for each CPU k the
 * pinned interference over the deadline window passes D - C, and [BC07]
 * clips each interferer at R - C + 1 <= D - C + 1 and averages over |S|, so
 * the subset bound passes D too (up to the edge where a carry-in workload
 * is below the synchronous one). Masks help where more urgent tasks
 * migrate already: through a task's given affinity, or rarely otherwise.
 * Preconditions are the analysis's: constrained deadlines, no blocking, no
 * shared resources, at most 64 CPUs; release jitter (J', the platform's
 * release latency included) is analysed.
 *
 * Times are rtp_ns. Ownership: the plan written is the caller's
 * (rtp_plan_free). Thread-safety: no globals; calls may run concurrently. */
#ifndef RTP_SEMI_H
#define RTP_SEMI_H

#include "models/plan.h"
#include "models/ratio.h"
#include "solver/schedtest.h"
#include "models/api.h"

RTP_API_BEGIN

/* Places ts's tasks on cpus[0..n_cpus-1] as above into *plan (method
 * "semi"). When every placed task is pinned the plan is partitioned (one
 * bin per CPU, per-CPU priorities and exact response times, as
 * rtp_part_pack writes them); when one migrates it is one cluster of every
 * CPU (one root domain, as push/pull needs) with test "apa", each task's
 * affinity its mask, priorities 1..n over the cluster and the [GCB13]
 * bounds. plan->feasible: no task unassigned. RTP_EINPUT outside the
 * preconditions (path and reason in diag) or when an affinity names a CPU
 * not in cpus[]; RTP_ELIMIT when the analysis passes limits. */
rtp_status rtp_semi_pack(const rtp_taskset *ts, const int *cpus, size_t n_cpus,
                         rtp_ratio capacity, const rtp_limits *limits, rtp_plan *plan,
                         rtp_diag *diag);

RTP_API_END
#endif
