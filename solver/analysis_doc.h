/* solver/analysis_doc.h — the result document of `rtpack analyze --json`
 * (docs/spec.md "analyze --json") and its batch-line forms, written from a plain
 * struct with models' streaming writer (models/json_write.h), so neither the
 * solver nor the CLI touches cJSON.
 *
 * Times are integer ns (exact: raw JSON integers for response_time and
 * first_miss; wcet/deadline/period as in task-set documents); "utilization"
 * is a display double. Ownership: the writers return malloc'd text (caller
 * frees), NULL when out of memory; the struct only borrows its strings.
 * Thread-safety: pure, no globals. */
#ifndef RTP_ANALYSIS_DOC_H
#define RTP_ANALYSIS_DOC_H

#include "models/base.h"
#include "models/text.h"
#include "models/api.h"

RTP_API_BEGIN

typedef struct rtp_analysis_task {
    const char *name;
    rtp_ns wcet_ns, deadline_ns, period_ns;
    rtp_ns jitter_ns, blocking_ns; /* declared; written when non-zero */
    int has_priority;         /* FP: "priority" */
    int priority;
    int has_response;         /* FP: "response_time" (null when -1) */
    rtp_ns response_time_ns;  /* exact WCRT, -1 = exceeds the deadline */
    int has_meets_deadline;   /* FP: "meets_deadline" */
    int meets_deadline;
    int has_wcet_max;         /* --sensitivity: "wcet_max" (null when -1) */
    rtp_ns wcet_max_ns;
    int has_locks;            /* the set declares critical sections (docs/spec.md
                               * "Shared resources"): "computed_blocking",
                               * "spin", "blocking_resource" */
    rtp_ns computed_blocking_ns;
    rtp_ns spin_ns;
    const char *blocking_resource; /* NULL = null (nothing binds) */
    int has_suspension;       /* FMLP+ resources: "suspension" (solver/fmlp.h) */
    rtp_ns suspension_ns;
    int has_tardiness;        /* global EDF, U <= M: "tardiness_bound",
                               * "tardiness_bound_by" (what gave it: "da",
                               * "cv" or the accepting hard test),
                               * "tardiness_bound_da" (left out when -1),
                               * "tardiness_bound_cv" (solver/tardiness.h) */
    rtp_ns tardiness_ns, tardiness_da_ns, tardiness_cv_ns;
    const char *tardiness_by;
} rtp_analysis_task;

/* The critical scaling factor as written (docs/spec.md "Sensitivity"):
 * "critical_scaling_factor" (decimal string) and
 * "critical_scaling_factor_exact" ("p/q"), both null when exact is NULL. */
typedef struct rtp_scaling_text {
    int present;              /* 0: both members left out */
    const char *decimal;
    const char *exact;
} rtp_scaling_text;

typedef struct rtp_analysis_doc {
    long line;                /* batch mode: > 0 adds "line": N first */
    rtp_policy policy;
    int has_priority_rule;    /* FP / GFP: "priority": "opa" */
    rtp_prio_rule priority_rule;
    int cpus;                 /* global policies: "cpus": M (0 = left out) */
    int schedulable;
    int has_assignment_found; /* FP: "assignment_found" */
    int assignment_found;
    int has_test;             /* global policies: "test": name or null */
    const char *test;         /* NULL = null */
    const char *not_applicable; /* global policies: why no test applies
                                 * ("not_applicable": text), NULL = left out */
    double utilization;       /* display only, never a verdict */
    int has_effective_utilization; /* "effective_utilization" (C'/T): when the
                                    * platform's context_switch is non-zero */
    double effective_utilization;
    int has_first_miss;       /* EDF: "first_miss" */
    rtp_ns first_miss_ns;
    rtp_scaling_text scaling; /* --sensitivity */
    const rtp_analysis_task *tasks;
    size_t n_tasks;
} rtp_analysis_doc;

/* The document; pretty = indented, else one compact line. Ends with '\n'. */
char *rtp_analysis_doc_to_json(const rtp_analysis_doc *doc, int pretty);
/* The same text appended to out (batch threads reuse one buffer for many
 * lines); RTP_ENOMEM when an append failed (out's `failed` is then set). */
rtp_status rtp_analysis_doc_write(rtp_text *out, const rtp_analysis_doc *doc, int pretty);

/* A bad batch line appended to out: {"line": N, "error": "MESSAGE"} on one
 * line, '\n' ended; RTP_ENOMEM as above. */
rtp_status rtp_analysis_error_write(rtp_text *out, long line, const char *message);

RTP_API_END
#endif
