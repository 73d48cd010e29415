/* sim/sim_doc.h — the document of `rtpack simulate` (docs/spec.md
 * "rtpack simulate"):
 *   { "until": T, "tasks": [ { "name", "cpu", "policy", "priority" (FP),
 *     "cpus" (global: the cluster), "jobs", "misses", "first_miss": T|null,
 *     "response_max": T|null, "blocking_max": T, "spin_max": T (with shared
 *     resources) } ], "schedulable_in_simulation": bool,
 *     "not_simulated": [...] (only when the set has jitter, blocking or
 *     overheads, which the simulation leaves out) }
 * Times are integer ns. Ownership: the document borrows every pointer.
 * No globals. */
#ifndef RTP_SIM_DOC_H
#define RTP_SIM_DOC_H

#include "models/base.h"

#include <stddef.h>
#include <stdint.h>
#include "models/api.h"

RTP_API_BEGIN

typedef struct rtp_sim_doc_task {
    const char *name;
    int cpu;                   /* Linux id of its CPU (a cluster's first CPU) */
    const int *cpus;           /* global: the cluster's CPU ids, else NULL */
    size_t n_cpus;
    rtp_policy policy;
    int priority;              /* FP and GFP: 1..n, n = most urgent */
    uint64_t jobs, misses;
    rtp_ns first_miss_ns;      /* -1: null */
    rtp_ns response_max_ns;    /* -1: null */
    int has_locks;             /* the set has shared resources: the two below are written */
    rtp_ns blocking_max_ns;    /* the longest a completed job waited while its CPU ran a less
                                * urgent job */
    rtp_ns spin_max_ns;        /* the longest a completed job spun for a global resource (MSRP) */
} rtp_sim_doc_task;

typedef struct rtp_sim_doc {
    rtp_ns until_ns;
    const rtp_sim_doc_task *tasks;
    size_t n_tasks;
    int schedulable;           /* no job missed */
    const char *not_simulated[5]; /* "jitter", "blocking", "overheads", "sched_rr",
                                   * "affinity"; NULL-padded */
} rtp_sim_doc;

/* The document, malloc'd with a final newline; NULL when out of memory. */
char *rtp_sim_doc_to_json(const rtp_sim_doc *doc, int pretty);

RTP_API_END
#endif
