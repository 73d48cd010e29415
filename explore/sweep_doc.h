/* explore/sweep_doc.h — the sweep file of `rtpack explore` (docs/spec.md "Sweep
 * document"), read with the strictness of the task-set
 * reader: unknown and duplicate keys, bad values and bad names are
 * RTP_EINPUT naming the JSON path ("utilization.step", "methods[2]").
 *
 * Utilizations (per CPU) are exact rationals: decimal strings, or JSON
 * numbers read as the shortest decimal that gives back the same double
 * (0.65 is 13/20); `from`..`to` by `step` includes `to`. Names (deadline
 * models, generator, policies, methods, priority rule) are validated here and
 * kept as pointers to static strings. Ownership: an rtp_sweep_doc owns its
 * arrays; free with rtp_sweep_doc_free. Thread-safety: no globals. */
#ifndef RTP_SWEEP_DOC_H
#define RTP_SWEEP_DOC_H

#include "models/ratio.h"
#include "models/api.h"

RTP_API_BEGIN

#define RTP_SWEEP_MAX_ITEMS 10000 /* entries of any list, points of a range */

typedef struct rtp_sweep_doc {
    int64_t seed;                  /* default 1; 0..2^53-1 */
    int64_t sets_per_point;        /* default 100 */
    int64_t *tasks;                /* task counts, in file order */
    size_t n_tasks;
    int64_t *cpus;                 /* CPU counts */
    size_t n_cpus;
    rtp_ratio *utilizations;       /* per CPU, in sweep order */
    size_t n_utilizations;
    rtp_ns period_min_ns;          /* default 1 ms */
    rtp_ns period_max_ns;          /* default 1 s */
    rtp_ns granularity_ns;         /* default 1 ns */
    int harmonic;                  /* periods.harmonic, default false */
    rtp_ns *period_set;            /* periods.set, NULL when absent */
    size_t n_period_set;
    const char *deadlines[3];      /* "implicit" | "constrained" | "arbitrary" */
    size_t n_deadlines;            /* default ["implicit"] */
    const char *generator;         /* "uunifast-discard" (default) | "randfixedsum" */
    const char *policies[2];       /* "edf" | "fp"; default ["edf"] */
    size_t n_policies;
    const char *methods[9];        /* "ffd" "bfd" "wfd" "nfd" "best" "ilp" "sfd"
                                    * "ilp-colocate" "ffd-oblivious" */
    size_t n_methods;              /* default the first five */
    const char *priority;          /* FP rule per CPU: "opa" (default) | "dm" | "rm" */
    rtp_ratio max_task_util;       /* default 1 */
    rtp_ratio constrained_factor;  /* default 0.5 */
    rtp_ratio arbitrary_factor;    /* default 2 */
    rtp_ratio time_limit_s;        /* per set, for "ilp"; default 10 */
    int64_t max_attempts;          /* uunifast-discard draws; default 10000 */
    int sets_jsonl;                /* write sets.jsonl; default false */
    /* "resources" (docs/spec.md "Sweep document"): shared resources drawn
     * as `rtpack gen --resources` does; n_resource_counts == 0 when absent. */
    int64_t *resource_counts;      /* resources.count: 1..1000 each, an axis */
    size_t n_resource_counts;
    rtp_ratio access;              /* resources.access in [0, 1]; default 1/2 */
    int64_t max_requests;          /* resources.requests, 1..1000; default 1 */
    rtp_ns *cs_min_ns, *cs_max_ns; /* resources.cs_length: the innermost axis */
    size_t n_cs_lengths;
} rtp_sweep_doc;

/* Parses `len` bytes. On error RTP_EINPUT/RTP_ENOMEM with diag set and *out
 * zeroed (nothing to free). */
rtp_status rtp_sweep_doc_parse(const char *text, size_t len, rtp_sweep_doc *out,
                               rtp_diag *diag);

void rtp_sweep_doc_free(rtp_sweep_doc *doc);

RTP_API_END
#endif
