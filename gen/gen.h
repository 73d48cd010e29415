/* gen/gen.h — random task-set generators for design-space exploration.
 *
 * Utilizations: UUniFast-discard ([BB05]; [DB11]:
 * redraw the whole vector while a task exceeds the cap) or RandFixedSum
 * ([Sta06]; [ESD10]: uniform over the capped
 * simplex, no discarding, so totals above 1 and near n x cap are cheap).
 * Periods: log-uniform in [min, max] as multiples of a granularity
 * [ESD10], harmonic (min x 2^k), or drawn from a given set. WCETs are
 * whole ns, rounded with a carried error so the total utilization misses the
 * requested one by less than 1/(2 x last period) (plus double rounding).
 * Deadlines: implicit; constrained uniform in [C + a(T - C), T]; arbitrary
 * uniform in [C, b x T].
 *
 * Reproducible: a set is a pure function of (options, seed, point, index).
 * Floating point uses +, -, *, / only (exp/log/pow are computed here from
 * them, not taken from libm), and the build forbids FMA contraction, so the
 * bytes are the same on every IEEE-754 machine. Versioned: any change to the
 * numbers drawn bumps RTP_GEN_VERSION, and `rtpack merge` refuses mixtures.
 * Ownership: rtp_gen_taskset fills a caller-owned rtp_taskset (free with
 * rtp_taskset_free). Thread-safety: pure, no globals. */
#ifndef RTP_GEN_H
#define RTP_GEN_H

#include "gen/rng.h"
#include "models/ratio.h"
#include "models/taskset.h"
#include "models/api.h"

RTP_API_BEGIN

#define RTP_GEN_VERSION 1

typedef enum rtp_gen_algo {
    RTP_GEN_UUNIFAST_DISCARD = 0,
    RTP_GEN_RANDFIXEDSUM
} rtp_gen_algo;

typedef enum rtp_gen_deadlines {
    RTP_DL_IMPLICIT = 0,
    RTP_DL_CONSTRAINED,
    RTP_DL_ARBITRARY
} rtp_gen_deadlines;

typedef struct rtp_gen_opts {
    size_t n_tasks;
    rtp_ratio total_util;       /* sum of wcet/period, > 0 */
    rtp_ratio max_task_util;    /* per-task cap in (0, 1]; default 1 */
    rtp_gen_algo algo;
    rtp_ns period_min_ns;       /* default 1 ms */
    rtp_ns period_max_ns;       /* default 1 s */
    rtp_ns granularity_ns;      /* periods are multiples of it; default 1 ns */
    int harmonic;               /* periods = base x 2^k, base = min rounded up */
    const rtp_ns *period_set;   /* when n_period_set > 0: uniform choice here */
    size_t n_period_set;
    rtp_gen_deadlines deadlines;
    rtp_ratio constrained_factor; /* a in [0, 1]; default 1/2 */
    rtp_ratio arbitrary_factor;   /* b >= 1; default 2 */
    uint32_t max_attempts;      /* UUniFast-discard draws per set; default 10000 */
    /* Shared resources (docs/spec.md "rtpack gen"), drawn after the tasks
     * from a stream of their own, so a set's tasks are the same bytes with
     * and without them: each of n_resources resources ("R1".."Rn") is used
     * by each task with probability `access`, count uniform in
     * 1..max_requests, length uniform in [cs_min_ns, cs_max_ns], cut so
     * that a task's count x length sum stays within its wcet (a request that
     * no longer fits is left out). n_resources 0 (the default): none. */
    size_t n_resources;
    rtp_ratio access;           /* in [0, 1]; default 1/2 */
    int64_t max_requests;       /* >= 1; default 1 */
    rtp_ns cs_min_ns, cs_max_ns;/* 1 <= min <= max; default 1 us .. 100 us */
} rtp_gen_opts;

rtp_gen_opts rtp_gen_opts_default(void);

/* "uunifast-discard" / "randfixedsum"; "implicit" / "constrained" /
 * "arbitrary". parse: 0 on success, -1 otherwise. */
const char *rtp_gen_algo_name(rtp_gen_algo algo);
int rtp_gen_algo_parse(const char *name, rtp_gen_algo *out);
const char *rtp_gen_deadlines_name(rtp_gen_deadlines dl);
int rtp_gen_deadlines_parse(const char *name, rtp_gen_deadlines *out);

/* RTP_EINPUT (one line in diag) for a request no draw can satisfy: no tasks,
 * total <= 0 or above n x cap, cap outside (0, 1], no period multiple of the
 * granularity in [min, max], factors out of range. */
rtp_status rtp_gen_check(const rtp_gen_opts *opts, rtp_diag *diag);

/* n utilizations summing to total (as doubles), each <= cap. RTP_ELIMIT
 * when UUniFast-discard rejects max_attempts draws in a row. */
rtp_status rtp_gen_utilizations(const rtp_gen_opts *opts, rtp_rng *rng,
                                double *util, rtp_diag *diag);

/* The task set of (seed, point, index): tasks "T1".."Tn", no platform.
 * Calls rtp_gen_check first. On error *out is left empty. */
rtp_status rtp_gen_taskset(const rtp_gen_opts *opts, uint64_t seed,
                           uint64_t point, uint64_t index, rtp_taskset *out,
                           rtp_diag *diag);

/* The resources and requests of a generated set (gen/gen_locks.c), from
 * stream (seed ^ a constant, point, index): see rtp_gen_opts. */
rtp_status rtp_gen_requests(const rtp_gen_opts *opts, uint64_t seed, uint64_t point,
                            uint64_t index, rtp_taskset *ts, rtp_diag *diag);

/* Deterministic elementary functions from +, -, *, / only (exposed for the
 * tests): natural log (x > 0), exp, and x^y for x > 0. */
double rtp_gen_log(double x);
double rtp_gen_exp(double x);
double rtp_gen_pow(double x, double y);

RTP_API_END
#endif
