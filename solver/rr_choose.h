/* solver/rr_choose.h — SCHED_FIFO or SCHED_RR for each tied priority level
 * of one CPU, chosen by the exact analyses (docs/spec.md "SCHED_RR",
 * "Choosing SCHED_RR"): the FIFO analysis of solver/fp.h and the SCHED_RR
 * bounds of solver/rr.h, each sound for its own policy, so whichever a level
 * takes, the bounds reported hold for the policy the plan then deploys.
 *
 * Rule (deterministic): levels are decided from the most urgent down, each
 * with the levels above as already decided and the levels below SCHED_FIFO;
 * a level takes SCHED_RR only when that is strictly better by, in turn,
 * (1) every task of the CPU meets its deadline, (2) every task of the level
 * meets its deadline, (3) the smaller worst bound among the level's tasks;
 * otherwise SCHED_FIFO. A level's choice changes only its own tasks' bounds
 * and, through turn switches (context_switch), those below it, never those
 * above, so a decided level stays as good as it was.
 *
 * Tasks are effective tasks (models/effective.h); times are rtp_ns. The
 * caller owns every array. Pure: no globals, safe from many threads. */
#ifndef RTP_RR_CHOOSE_H
#define RTP_RR_CHOOSE_H

#include "solver/schedtest.h"

/* One tied level's comparison: [0] with the level SCHED_FIFO, [1] SCHED_RR. */
typedef struct rtp_rr_level {
    int priority;        /* the level's priority number */
    int rr;              /* the choice: 1 = SCHED_RR */
    int usable;          /* 0: SCHED_RR not analysable with these terms (the
                          * task set's policies were kept) */
    int cpu_meets[2];    /* every task of the CPU meets its deadline */
    rtp_ns worst_ns[2];  /* the level's largest bound, -1 when one misses */
    size_t miss[2];      /* a task of the level that misses (n: none) */
    int rr_limit;        /* the SCHED_RR side passed limits->max_iterations:
                          * not compared, SCHED_FIFO kept ([1] unset) */
} rtp_rr_level;

/* The FP analysis of one CPU as it is deployed: rtp_fp_rta (SCHED_FIFO
 * among equals), then rtp_rr_rta where a tied level holds a SCHED_RR task.
 * Statuses are theirs. */
rtp_status rtp_rr_fp_rta(const rtp_task *tasks, size_t n, const int *priority,
                         const rtp_rr_params *rr, rtp_ns *response_time, int *schedulable,
                         const rtp_limits *limits, rtp_diag *diag);

/* Chooses every tied level's policy by the rule above and analyses the CPU
 * with the choice: rr_out[i] (n entries, or NULL) = task i's policy
 * (1 = SCHED_RR; a task of no tied level keeps tasks[i].rr), response_time
 * and *schedulable as rtp_rr_fp_rta's for the chosen policies. levels (n
 * entries, or NULL) gets one record per tied level, most urgent first,
 * *n_levels their count. When SCHED_RR cannot be analysed with rr (no
 * quantum; a tick that does not divide it; a context switch without a tick)
 * every task keeps its own policy (and every record says usable = 0).
 * A level whose SCHED_RR analysis passes the limits stays SCHED_FIFO
 * (rr_limit; SCHED_RR's bounds can take far longer to converge near a
 * level utilization of 1, and the SCHED_FIFO answer stands on its own);
 * otherwise RTP_ELIMIT / RTP_EINPUT as rtp_rr_fp_rta; RTP_ENOMEM. */
rtp_status rtp_rr_choose(const rtp_task *tasks, size_t n, const int *priority,
                         const rtp_rr_params *rr, unsigned char *rr_out, rtp_ns *response_time,
                         int *schedulable, rtp_rr_level *levels, size_t *n_levels,
                         const rtp_limits *limits, rtp_diag *diag);

#endif
