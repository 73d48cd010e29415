/* solver/edf.h — exact uniprocessor EDF test: processor demand
 * [BMR90] checked with QPA [ZB09] up to
 * L = min(La, Lb) (La only when U < 1, Lb the synchronous busy period).
 *
 * Times are rtp_ns. Pure: no globals, safe from many threads; allocates only
 * small scratch arrays, freed before return. */
#ifndef RTP_EDF_H
#define RTP_EDF_H

#include "models/taskset.h"

typedef struct rtp_edf_result {
    int schedulable;
    int has_first_miss;    /* set only when not schedulable and computed */
    rtp_ns first_miss_ns;  /* smallest t with dbf(t) > t */
} rtp_edf_result;

/* Demand bound function of the set at interval length t [BMR90]:
 * sum over tasks of max(0, floor((t - D) / T) + 1) * C. RTP_ELIMIT on
 * overflow. */
rtp_status rtp_edf_dbf(const rtp_task *tasks, size_t n, rtp_ns t,
                       rtp_ns *demand);

/* Exact EDF schedulability. With want_first_miss, an unschedulable set with
 * U <= 1 also gets first_miss (the smallest failing t, found by an upward
 * scan of absolute deadlines); with U > 1 it is left out. RTP_ELIMIT when a
 * bound or the busy-period iteration passes `limits` (the answer is then
 * unknown, never guessed); each phase (busy period, QPA, first-miss scan)
 * may take limits->max_iterations steps. limits may be NULL (defaults). */
rtp_status rtp_edf_qpa(const rtp_task *tasks, size_t n, int want_first_miss,
                       const rtp_limits *limits, rtp_edf_result *result,
                       rtp_diag *diag);

/* The testing interval QPA uses: L = min(La, Lb) (see rtp_edf_qpa), for
 * the benchmark's full-enumeration baseline and for reports. *bound = 0 when
 * no interval is needed (U > 1, or every deadline >= period with U <= 1).
 * RTP_ELIMIT when Lb passes `limits` and La does not apply. */
rtp_status rtp_edf_bound(const rtp_task *tasks, size_t n, const rtp_limits *limits,
                         rtp_ns *bound, rtp_diag *diag);

#endif
