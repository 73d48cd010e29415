/* solver/edf.h — exact uniprocessor EDF test: processor demand
 * [BMR90] with release jitter and SRP-style blocking [Spu96] [Bar06],
 * checked with QPA [ZB09] up to a testing bound
 * derived in edf.c (min of the La and busy-period bounds).
 *
 * Tasks are effective tasks (models/effective.h): wcet_ns is C', jitter_ns
 * is J'. Times are rtp_ns. Pure: no globals, safe from many threads;
 * allocates only small scratch arrays, freed before return. */
#ifndef RTP_EDF_H
#define RTP_EDF_H

#include "models/taskset.h"
#include "models/api.h"

RTP_API_BEGIN

typedef struct rtp_edf_result {
    int schedulable;
    int has_first_miss;    /* set only when not schedulable and computed */
    rtp_ns first_miss_ns;  /* smallest t with dbf(t) + b(t) > t */
} rtp_edf_result;

/* Demand bound function of the set at interval length t >= 1 (docs/spec.md
 * "Real-system terms"): sum over tasks of
 * max(0, floor((t + J - D) / T) + 1) * C. RTP_ELIMIT on overflow. */
rtp_status rtp_edf_dbf(const rtp_task *tasks, size_t n, rtp_ns t,
                       rtp_ns *demand);

/* Blocking term b(t) = max { blocking of tasks with D - J <= t } (0 if
 * none): a job of such a task fits wholly in a window of length t. */
rtp_ns rtp_edf_blocking(const rtp_task *tasks, size_t n, rtp_ns t);

/* Exact EDF schedulability: not schedulable when some J >= D (first_miss =
 * 1 ns) or U > 1; else schedulable iff dbf(t) + b(t) <= t for every t > 0.
 * With want_first_miss, an unschedulable set with U <= 1 (or one with J >=
 * D) also gets first_miss (the smallest failing t, found by an upward scan
 * of absolute deadlines); with U > 1 it is left out. RTP_ELIMIT when a bound
 * or the busy-period iteration passes `limits` (the answer is then unknown,
 * never guessed); each phase (busy period, QPA, first-miss scan) may take
 * limits->max_iterations steps. limits may be NULL (defaults). */
rtp_status rtp_edf_qpa(const rtp_task *tasks, size_t n, int want_first_miss,
                       const rtp_limits *limits, rtp_edf_result *result,
                       rtp_diag *diag);

/* The testing bound QPA uses (see edf.c), for the benchmark's
 * full-enumeration baseline and for reports: every failing t, if any, is
 * below it. *bound = 0 when no interval is needed (U > 1, some J >= D, or
 * every D - J >= T with no blocking and U <= 1). RTP_ELIMIT when the busy
 * period passes `limits` and La does not apply. */
rtp_status rtp_edf_bound(const rtp_task *tasks, size_t n, const rtp_limits *limits,
                         rtp_ns *bound, rtp_diag *diag);

RTP_API_END
#endif
