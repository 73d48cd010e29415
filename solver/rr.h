/* solver/rr.h — response-time bounds on one CPU under fixed priorities where
 * tasks of equal priority run SCHED_RR (round robin with Linux's quantum,
 * kernel/sched/rt.c; POSIX compound scheduling, analysed after [MJN03]).
 *
 * Linux's rules (docs/spec.md "SCHED_RR"): the head of the highest non-empty
 * priority list runs; a woken thread joins the tail; a preempted thread stays
 * at the head and later completes the unexpired part of its quantum; the
 * quantum is counted in scheduler ticks charged to the thread current at the
 * tick; when it runs out it is refilled and the thread goes to the tail only
 * if another thread shares its priority; the remaining quantum carries over
 * from one job to the next. A per-job fresh-quantum bound is therefore
 * unsound, and so is analysing the ties first-in first-out.
 *
 * Each task's bound is the smaller of (1) the busy-period analysis with its
 * equal-priority peers counted as higher priority (sound for any order) and
 * (2) at a level whose tasks are all SCHED_RR, with K >= 2 ticks per quantum,
 * the pending-stretch bound that caps each peer by the turns the task needs
 * under tick accounting, refined downward over the peers' own bounds. Turn
 * switches beyond the two per job in C' are charged to every task at or
 * below a round-robin level. With critical sections on the CPU (any task
 * with requests: ceilings, MSRP) only (1) is used (rr.c says why). Tasks
 * are effective tasks (models/effective.h);
 * times are rtp_ns. Pure: no globals, safe from many threads. */
#ifndef RTP_RR_H
#define RTP_RR_H

#include "solver/schedtest.h"

/* SCHED_RR's terms from a platform's (or plan's) rr_quantum (Linux's
 * 100 ms when 0), tick (0 = not given) and overheads' context switch. */
rtp_rr_params rtp_rr_params_of(rtp_ns quantum_ns, rtp_ns tick_ns, const rtp_overheads *ov);

/* 1 when rtp_rr_rta can analyse SCHED_RR ties with rr: a quantum, a tick
 * (when given) that divides it, and a tick when the context switch is not 0
 * (rtp_rr_rta's RTP_EINPUT cases otherwise). */
int rtp_rr_usable(const rtp_rr_params *rr);

/* 1 when some priority level holds two or more tasks and one of them is
 * SCHED_RR (the FIFO analysis of solver/fp.h then does not hold there). */
int rtp_rr_present(const rtp_task *tasks, size_t n, const int *priority);

/* Replaces response_time[i] (rtp_fp_rta's, FIFO among equals) by the bound
 * above for every task at a round-robin level, and for every task below one
 * when the context switch is not 0; -1 where the bound exceeds the deadline.
 * *schedulable: every task meets its deadline. RTP_EINPUT when the
 * parameters are unusable (quantum 0: the caller passed none; a tick that does not divide it; a
 * context switch with no tick to count turns by); RTP_ELIMIT when an
 * iteration passes limits->max_iterations or overflows. */
rtp_status rtp_rr_rta(const rtp_task *tasks, size_t n, const int *priority,
                      const rtp_rr_params *rr, rtp_ns *response_time, int *schedulable,
                      const rtp_limits *limits, rtp_diag *diag);

#endif
