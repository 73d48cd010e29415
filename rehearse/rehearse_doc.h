/* rehearse/rehearse_doc.h — the report of `rtpack rehearse` (docs/spec.md
 * "rtpack rehearse") and its JSON document:
 *   { "seconds": S, "load": F, "runtime_margin": F, "hog": bool,
 *     "reclaim": bool, "overrun_signal": bool (both only when set),
 *     "arrival_grid": "kernel"|"first_job"|"release", "tasks": [ { "name",
 *     "cpu", "jobs", "misses", "response_max", "response_p99", "bound",
 *     "over_bound", "overruns" (only with overrun_signal) } ],
 *     "hypervisor_steal": [ { "cpu", "time" } ] (only when the host
 *     reports steal), "machine_restored": bool, "left": "..." (only when
 *     not restored) }
 * Times are integer ns (null: no job, or no bound). Ownership: the report
 * owns its task array (rtp_rehearse_report_free). No globals. */
#ifndef RTP_REHEARSE_DOC_H
#define RTP_REHEARSE_DOC_H

#include "models/base.h"
#include "models/ratio.h"

#include <stddef.h>

typedef struct rtp_rehearse_task {
    char name[80];
    int cpu;                      /* the first CPU of its bin */
    unsigned long long jobs, misses;
    rtp_ns response_max_ns, response_p99_ns; /* -1: no job */
    rtp_ns bound_ns;              /* -1: none (FP without a response time) */
    int kernel_grid;              /* SCHED_DEADLINE arrivals from the kernel's deadline */
    long long overruns;           /* SIGXCPU received (with --overrun-signal), a lower bound */
} rtp_rehearse_task;

/* 1 when the task's largest observed response passed its bound. */
int rtp_rehearse_over_bound(const rtp_rehearse_task *t);

/* The time the hypervisor took from one CPU of the plan during the measured
 * window (/proc/stat's steal column, USER_HZ ticks: a 10 ms resolution on
 * these machines). */
typedef struct rtp_rehearse_steal {
    int cpu;
    rtp_ns time_ns;
} rtp_rehearse_steal;

typedef struct rtp_rehearse_report {
    int seconds;                  /* as run (fewer when interrupted) */
    rtp_ratio load, runtime_margin;
    int hog;                      /* a normal-priority CPU hog ran on every CPU */
    int reclaim, overrun_signal;  /* as emit's --reclaim, --overrun-signal */
    const char *arrival_grid;     /* "kernel", "first_job" or "release" */
    char grid_note[320];          /* why "first_job", "" otherwise */
    rtp_rehearse_task *tasks;
    size_t n_tasks;
    int machine_restored;
    char left[400];               /* what is left when not restored */
    char script_output[600];      /* the tail of start's output when it failed */
    char leftovers[600];          /* earlier rehearsals' leftovers stopped first, "" = none */
    int deadline_policy;          /* the plan ran under SCHED_DEADLINE (EDF) */
    rtp_rehearse_steal *steal;    /* per CPU of the plan, ascending; owned */
    size_t n_steal;               /* 0: the host reports no steal (or no window ran) */
} rtp_rehearse_report;

/* The share of its window the hypervisor took from the CPU of r->steal[i],
 * in parts per million of `seconds` (0 when no second ran). */
long long rtp_rehearse_steal_ppm_of(const rtp_rehearse_report *r, size_t i);

/* The largest share of its CPU's window the hypervisor took, in parts per
 * million of `seconds` (0 without steal data). The verdict's advice blames
 * the host from RTP_REHEARSE_STEAL_PPM on: on these VMs a quiet host steals
 * 3,000-5,000 ppm, and the runs that missed every try lost 80,000-560,000. */
#define RTP_REHEARSE_STEAL_PPM 50000
long long rtp_rehearse_steal_ppm(const rtp_rehearse_report *r, int *cpu);

/* The verdict of a rehearsal in one line, and the advice its numbers
 * support (docs/spec.md "rtpack rehearse"): PASS with the largest share of
 * a bound any response used, or FAIL naming how many tasks missed and the
 * worst (by share of missed jobs; more misses than jobs = skipped
 * releases) and responses past the analysed bound; the advice follows from
 * them (SCHED_DEADLINE throttling without a runtime margin, rare latency
 * spikes, overheads the analysis does not know, a machine not restored,
 * a hypervisor that took RTP_REHEARSE_STEAL_PPM or more of a CPU).
 * Both NUL-terminated, cut to their sizes. */
void rtp_rehearse_verdict(const rtp_rehearse_report *r, char *verdict, size_t vsize,
                          char *advice, size_t asize);

void rtp_rehearse_report_free(rtp_rehearse_report *report);

/* The document, malloc'd with a final newline; NULL when out of memory. */
char *rtp_rehearse_report_to_json(const rtp_rehearse_report *report, int pretty);

/* Reads the document back (rehearse/rehearse_doc_read.c; rtpack report --rehearsal):
 * every member the writer writes is required, with its type, and nothing
 * else is accepted; over_bound must agree with response_max and bound.
 * RTP_EINPUT with the JSON path (a truncated document: "not valid JSON"
 * with line and column), RTP_ENOMEM. grid_note and script_output are not
 * in the document and stay empty. *out is the caller's to free, also on
 * failure (left empty then). */
rtp_status rtp_rehearse_report_parse_json(const char *text, size_t len,
                                          rtp_rehearse_report *out, rtp_diag *diag);

#endif
