/* solver/fp_internal.h — internal to solver/ (not installed): one task's
 * verdict of solver/fp.c for the callers that need it alone (the critical
 * scaling factor at a level utilization of 1, solver/sensitivity_fp.c).
 * Units: ns. Pure and thread-safe; allocates only scratch it frees. */
#ifndef RTP_FP_INTERNAL_H
#define RTP_FP_INTERNAL_H

#include "models/taskset.h"

/* Does every job of task i meet its deadline below the tasks with hp[j]
 * set (distinct priorities, none equal to i's; their order among
 * themselves does not matter to i), as rtp_fp_verdict decides it: *meets
 * = 1 or 0. *steps = the iteration steps spent, which limits caps.
 * RTP_ELIMIT (the budget, or 2^63 ns) and RTP_ENOMEM. */
rtp_status rtp_fp_task_meets(const rtp_task *tasks, size_t n, const char *hp, size_t i,
                             int *meets, uint64_t *steps, const rtp_limits *limits,
                             rtp_diag *diag);

#endif
