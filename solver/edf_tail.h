/* solver/edf_tail.h — internal to solver/ (not installed): the EDF demand
 * condition at total utilization exactly 1 for every t >= T0 at once, by
 * the residue (Chinese remainder) decomposition of solver/edf_tail.c. The
 * exact test (solver/edf.c) asks it at alpha = 1 on the effective tasks;
 * the critical scaling factor (solver/sensitivity_edf.c) at alpha_U.
 *
 * Units: ns. Exact (GMP rationals). Pure and thread-safe; allocates only
 * what it frees. */
#ifndef RTP_EDF_TAIL_H
#define RTP_EDF_TAIL_H

#include <gmp.h>

#include "models/taskset.h"

/* With U'_i = (alpha w_i + per_job_ns) / T_i summing to exactly 1, w_i =
 * tasks[i].wcet_ns, D*_i = D_i - J'_i (tasks[i].jitter_ns is J') and
 * blocking the largest tasks[i].blocking_ns: is h(t) <= t for every
 * t >= t0 = max D*_i? Steps are counted in *used against max: when the
 * cheapest decomposition would pass the budget nothing is decided
 * (*decided = 0, RTP_OK); RTP_ELIMIT when a step passes it anyway (no diag:
 * the caller names its own limit); RTP_ENOMEM. Decided: *failed = 0 (no
 * failure at any t >= t0), a failing t >= t0, or -1 (a failure past
 * 2^62 ns). */
rtp_status rtp_edf_tail(const rtp_task *tasks, size_t n, rtp_ns per_job_ns, const mpq_t alpha,
                        rtp_ns t0, uint64_t *used, uint64_t max, int *decided, rtp_ns *failed);

#endif
