/* solver/apa.h — response-time bounds under fixed priorities with arbitrary
 * processor affinities (APA: each task may run on its own set of CPUs, as
 * Linux's push/pull SCHED_FIFO scheduler runs them), by the reduction of
 * [GCB13]: while a job of task i waits, every CPU of its mask runs a more
 * urgent job, so for every non-empty S within i's mask the global test on
 * |S| CPUs against the more urgent tasks whose masks meet S bounds i's
 * response; the bound is the smallest over S. The global test is [BC07]'s
 * response-time analysis (its workload bound uses only each interferer's
 * own response bound, valid whatever the platform); with |S| = 1 and every
 * such interferer pinned to that CPU, the exact uniprocessor analysis.
 * Release jitter is modelled (J' = jitter + the platform's release latency:
 * a job arrives at a and is ready within [a, a + J]; responses run from the
 * arrival): the analysed job's test runs from its release within D - J and
 * adds J, and every interferer's workload window spans its bound from its
 * arrival, J included (solver/apa.c).
 *
 * The scheduler assumed keeps the APA invariant (a ready job waits only
 * while every CPU of its mask runs a more urgent one). Linux's push/pull
 * keeps it when the masks of migrating tasks are nested by priority (always
 * on 2 CPUs); rtp_apa_nested says whether they are. Preconditions:
 * constrained deadlines and no blocking (else not applicable). Times are rtp_ns; masks are bit sets over the
 * indices of the cluster's CPU list (at most 64 CPUs). Pure: no globals,
 * safe from many threads. */
#ifndef RTP_APA_H
#define RTP_APA_H

#include "solver/global.h"

/* Subsets of a mask of more than this many CPUs are not all tried: the
 * whole mask and each single CPU are (each a valid bound; only tightness
 * differs). */
#define RTP_APA_ENUMERATE_MAX 12

/* Task i's mask from its affinity over cpus[0..n_cpus-1] (all of them when
 * the task has none); 0 when the affinity names no CPU of the list.
 * RTP_EINPUT past 64 CPUs. */
rtp_status rtp_apa_mask(const rtp_task *task, const int *cpus, size_t n_cpus, uint64_t *mask,
                        rtp_diag *diag);

/* Bounds under priority[] (1..n distinct, n = most urgent; RTP_EINPUT
 * otherwise) and mask[]: response_time[i] (n entries or NULL) the bound,
 * -1 when none within the deadline (or a more urgent task it depends on has
 * none); *verdict as the global tests' (RTP_GLOBAL_NA outside the
 * preconditions or when a mask is empty). RTP_ELIMIT past
 * limits->max_iterations. */
rtp_status rtp_apa_rta(const rtp_task *tasks, size_t n, const uint64_t *mask,
                       const int *priority, const rtp_limits *limits,
                       rtp_ns *response_time, rtp_global_verdict *verdict, rtp_diag *diag);

/* wcet_max[i] (caller array of n): the largest integer wcet (ns) of the
 * declared task i, every other task unchanged, with rtp_apa_rta still
 * accepting under the same priority[] and mask[] (C' and J' from ov under
 * GFP, models/effective.h); every entry -1 when it does not accept as given.
 * For a priority order that does not depend on the wcets (DM, RM, given:
 * under OPA the caller refuses), exact by bisection, because the accepted
 * wcets of a task are downward closed: every bound is a least fixed point
 * of an operator non-decreasing in every C' and in the bounds above it
 * (the uniprocessor form [ABRTW93]; [BC07]'s, whose workload bound
 * W(L, C) grows with C at fixed L and with L = x + R - C, where R - C
 * itself grows with C), the smallest over the subsets S keeps that, and a
 * task losing its bound only makes more tests fail (solver/apa.c);
 * tests/test_apa.c scans every wcet up to the deadline on seeded sets. A
 * wcet past D_k is rejected without a run (its C' alone passes D_k - J'_k). */
rtp_status rtp_apa_wcet_max(const rtp_task *tasks, size_t n, const rtp_overheads *ov,
                            const uint64_t *mask, const int *priority,
                            const rtp_limits *limits, rtp_ns *wcet_max, rtp_diag *diag);

/* 1 when for every two tasks x more urgent than y, both with masks of two or
 * more CPUs that meet, y's mask lies within x's: then a failed push of the
 * most urgent pushable task means every CPU of every less urgent pushable
 * task's mask runs a more urgent one, so push/pull strands no task. Else 0
 * and *x, *y name the first pair that breaks it. */
int rtp_apa_nested(const uint64_t *mask, size_t n, const int *priority, size_t *x, size_t *y);

#endif
