/* solver/analyze.h — what `rtpack analyze` computes, as one library call: a
 * task set's exact verdict on one CPU (EDF processor demand, FP response
 * times with the chosen priority order) or one cluster (global tests), with
 * the platform's overheads applied (models' effective tasks), and optionally
 * the sensitivity (wcet_max per task, critical scaling factor), filled into
 * the result document the CLI prints (solver/analysis_doc.h).
 *
 * Times are rtp_ns. Ownership: rtp_analyze fills a caller-owned
 * rtp_analysis whose arrays it allocates; rtp_analysis_free releases them
 * (also after a failed call). The document borrows the task names from the
 * task set, which must outlive it. Thread-safety: pure, no globals; many
 * threads may analyse at once (each its own rtp_analysis). */
#ifndef RTP_ANALYZE_H
#define RTP_ANALYZE_H

#include "models/base.h"
#include "models/taskset.h"
#include "solver/analysis_doc.h"
#include "solver/sensitivity.h"
#include "solver/tardiness.h"
#include "models/api.h"

RTP_API_BEGIN

typedef struct rtp_analyze_opts {
    rtp_policy policy;        /* edf, fp (one CPU), gedf, gfp (one cluster) */
    rtp_prio_rule priority;   /* fp, gfp (and gedf's fp-based tests) */
    rtp_limits limits;
    int cpus_override;        /* global policies: M CPUs; 0 = the task set's platform */
    int sensitivity;          /* also wcet_max and the critical scaling factor */
} rtp_analyze_opts;

/* Defaults for `policy`: OPA under fp, DM under gfp (as the CLI), default
 * limits, no sensitivity. */
rtp_analyze_opts rtp_analyze_opts_default(rtp_policy policy);

typedef struct rtp_analysis {
    rtp_analysis_doc doc;      /* the result, as `rtpack analyze --json` writes it */
    const rtp_task *eff;       /* the tasks the tests saw: the declared ones when the
                                * platform has no overheads, else eff_copy (C', J') */
    rtp_task *eff_copy;
    rtp_analysis_task *rows;   /* doc.tasks */
    int *priority;
    rtp_ns *response;
    rtp_ns *wcet_max;          /* sensitivity only */
    rtp_scaling scaling;       /* sensitivity only */
    uint64_t *mask;            /* gfp: each task's CPUs (solver/apa.h), or NULL */
    char why[320];             /* not applicable: the APA reason, "" when none */
    rtp_tardiness *tardiness;  /* gedf: per task, NULL otherwise */
    int bounded;               /* gedf: the tardiness bounds apply */
} rtp_analysis;

/* Analyses ts into *out. RTP_OK: out->doc.schedulable is the verdict;
 * RTP_EINPUT: the set cannot be analysed as asked (diag says why);
 * RTP_ELIMIT: a resource limit; RTP_ENOMEM. Free *out in every case. */
rtp_status rtp_analyze(const rtp_taskset *ts, const rtp_analyze_opts *opts, rtp_analysis *out,
                       rtp_diag *diag);
void rtp_analysis_free(rtp_analysis *a);

RTP_API_END
#endif
