/* solver/fp_bound.h — internal to solver/ (not installed): a linear bound
 * on every job's response under fixed priorities with arbitrary deadlines,
 * jitter and blocking, for the level busy periods that are too long to walk
 * (level utilization within a hair of 1, or exactly 1 with an unknown
 * hyperperiod). It only ever proves "no late job" (a sufficient test); the
 * callers fall back to their exact searches when it does not hold, so
 * verdicts stay exact. Units: ns; wcets scaled as C' = alpha C + per_job
 * (alpha an exact rational). Pure and thread-safe; allocates only scratch
 * it frees. */
#ifndef RTP_FP_BOUND_H
#define RTP_FP_BOUND_H

#include <gmp.h>

#include "models/taskset.h"

/* *holds = 1 when every job q >= from of task i (priority below the tasks
 * with hp[j] set, none equal to it, critical pattern of solver/fp.c: the
 * tasks above first arrive at -J_j, job q of i at q T_i - J_i) meets its
 * deadline for certain, else 0 (not known). alpha NULL: alpha = 1.
 * RTP_ENOMEM only. */
rtp_status rtp_fp_bound_holds(const rtp_task *tasks, size_t n, const char *hp, size_t i,
                              mpq_srcptr alpha, rtp_ns per_job, rtp_ns from, int *holds);

#endif
