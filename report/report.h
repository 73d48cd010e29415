/* report/report.h — `rtpack report`: one self-contained HTML page that puts
 * what a design review asks of a plan side by side (docs/spec.md "rtpack
 * report"): the platform and its overheads (and a probe's measurements and
 * warnings), per CPU the load against the real-time budget and the tasks
 * tightest first with their response bounds and slack, the sensitivity
 * margins (wcet_max per task, the critical scaling factor [LSD89] per CPU),
 * the proof or the refusal in words, what `rtpack emit` writes per task, a
 * simulated Gantt window (sim/gantt.h) and, with a rehearsal, what the
 * machine did beside every bound.
 *
 * What the page claims is computed again, not read from the plan: every
 * CPU is analysed with the plan's own priorities (the exact test; C', J' of
 * models/effective.h), sensitivity is computed afresh (rtp_part_sensitivity
 * with opts->priority), and deployability is emit's own check
 * (rtp_deploy_check with opts->deploy, which also runs a cluster's global
 * test again; the page names a cluster's accepting test as the plan does). A part that hits a resource limit
 * (a sensitivity search, the EDF re-check deep in a hyperperiod) says so
 * on the page instead of showing a number.
 *
 * The page is XHTML-compatible HTML5 (well-formed XML: every element
 * closed, attributes quoted, only numeric character references), with its
 * CSS inline (report/report.css, compiled in), its charts inline SVG, a
 * Content-Security-Policy that forbids fetching anything, and no script.
 * Every number it shows is a <data value="V" data-j="DOC:PATH"> whose
 * value is exact and whose data-j names the JSON document and member it
 * equals ("plan:cpus[0].tasks[2].response_time", "rehearsal:tasks[1].bound",
 * "probe:cpus[0].fifo_latency.max", "sim:tasks[3].misses", "emit:NAME.runtime",
 * "opt:budget"), or a formula over one ("slack", "grow"; docs/spec.md), so a
 * test can hold the page to the CLI's JSON.
 *
 * Units: times are integer ns and are shown exactly, each in the largest of
 * s, ms, µs, ns that writes it with at most six decimals (16666666 ns is
 * "16.666666 ms"); utilizations with four decimals. Determinism: the page
 * depends only on the inputs and options: no clock, no locale (numbers are
 * formatted with integer arithmetic; the embedded Gantt chart uses printf's
 * %f, which the rtpack program runs in the C locale).
 * Ownership: inputs are borrowed; the page is appended to the caller's
 * rtp_text. Thread-safety: no globals; one call per thread. */
#ifndef RTP_REPORT_H
#define RTP_REPORT_H

#include "deploy/recheck.h"
#include "models/plan.h"
#include "probe/probe_doc.h"
#include "rehearse/rehearse_doc.h"
#include "models/text.h"

typedef struct rtp_report_opts {
    rtp_prio_rule priority; /* FP: the rule the plan was made with (partition's
                             * --priority): sensitivity re-runs it per CPU,
                             * explanations of unplaced tasks use it */
    rtp_ratio capacity;     /* partition's --capacity, for those explanations */
    rtp_deploy_opts deploy; /* emit's options: budget, runtime margin, FIFO range */
    int margin_given;       /* deploy.runtime_margin was chosen by the caller;
                             * 0: a rehearsal's own margin is used instead */
    rtp_ns window_ns;       /* Gantt window [0, window_ns); 0 = the default:
                             * the hyperperiod when at most RTP_REPORT_DEFAULT_JOBS
                             * jobs fall in it, else the largest period (or
                             * deadline) of the placed tasks */
    const char *title;      /* the page's title (the plan's file name); NULL = "plan" */
    const char *generator;  /* "rtpack 1.2.3", shown in the footer; NULL = none */
    rtp_limits limits;
} rtp_report_opts;

#define RTP_REPORT_DEFAULT_JOBS 500

/* priority OPA, capacity 1, emit's default deploy options, default window. */
rtp_report_opts rtp_report_opts_default(void);

/* Whether a rehearsal document belongs to the plan (docs/spec.md "rtpack
 * report"): its tasks are exactly the plan's placed tasks, each named once,
 * each on the first CPU of the bin that holds it, each with the bound the
 * plan gives it (FP: its response time, null without one; EDF: its
 * deadline); and when the caller chose a runtime margin, it is the one the
 * rehearsal ran with. RTP_OK, or RTP_EINPUT with the path of the first
 * member of the rehearsal document that does not match. */
rtp_status rtp_report_check_rehearsal(const rtp_plan *plan, const rtp_rehearse_report *r,
                                      const rtp_report_opts *opts, rtp_diag *diag);

/* Whether a probe document belongs to the plan: it measured every CPU on
 * which the plan places a task (its "cpus"). RTP_EINPUT with path "cpus"
 * naming the first CPU it lacks. */
rtp_status rtp_report_check_probe(const rtp_plan *plan, const rtp_probe_report *p,
                                  rtp_diag *diag);

/* Appends the page to `out` (rehearsal and probe may be NULL). Runs both
 * checks first. RTP_EINPUT (a document that does not belong, bad options:
 * the message names the option), RTP_ELIMIT (a Gantt window of more than
 * 10^7 jobs, or past 2^62 ns; C' past 2^62 ns), RTP_ENOMEM; on failure out
 * may hold part of a page: the caller discards it. */
rtp_status rtp_report_html(const rtp_plan *plan, const rtp_rehearse_report *rehearsal,
                           const rtp_probe_report *probe, const rtp_report_opts *opts,
                           rtp_text *out, rtp_diag *diag);

#endif
