/* report/report_internal.h — what the parts of the page share (not
 * installed): the model of the plan that every section draws from, built
 * once by report_model.c, and the HTML writers of report_html.c. Every
 * writer appends to r->out, whose out-of-memory flag is sticky, so the
 * sections write on and rtp_report_html checks once at the end. */
#ifndef RTP_REPORT_INTERNAL_H
#define RTP_REPORT_INTERNAL_H

#include "report/report.h"

#include "sim/sim.h"

#include <stdint.h>

/* One placed task as the page shows it. */
typedef struct rpt_task {
    const rtp_plan_task *pt;   /* the plan's, borrowed */
    char path[64];             /* its object in the plan document, "cpus[0].tasks[2]" */
    rtp_ns c_eff;              /* C' under the plan's policy (models/effective.h) */
    rtp_ns response_ns;        /* FP: exact worst-case response time with the plan's
                                * priorities, computed here; -1: past the deadline
                                * (or the CPU was not analysed) */
    rtp_ns wcet_max_ns;        /* -1: none (its CPU is not schedulable) or not computed */
    int has_runtime;           /* EDF: emit's SCHED_DEADLINE runtime is runtime_ns */
    rtp_ns runtime_ns;
    int fifo_priority;         /* FP: emit's SCHED_FIFO priority */
    size_t sim_index;          /* its row in `rtpack simulate PLAN --json` */
    int has_locks;             /* the plan has resources: the terms below, computed
                                * again for the whole placement (solver/locks.h) */
    rtp_ns blocking_ns, spin_ns, suspension_ns;
    size_t binding;            /* resource index, RTP_LOCKS_NONE = none */
    rtp_sim_task_stats sim;    /* in the Gantt window */
} rpt_task;

/* The exact test of one CPU (analyse in report_model.c). */
typedef struct rpt_verdict {
    int analysed;              /* the test ran to an answer */
    int schedulable;           /* that answer */
    long late_task;            /* FP, not schedulable: the first task of the bin past
                                * its deadline; -1 */
    rtp_ns first_miss_ns;      /* EDF, not schedulable: the smallest interval whose
                                * demand exceeds it; -1 when U' > 1 decides */
    int jitter_late;           /* EDF: late_task's J' reaches its deadline (the test's
                                * first miss is then 1 ns) */
    rtp_ns edf_bound_ns;       /* EDF, schedulable: QPA's testing bound (0: none needed) */
    char note[360];            /* not analysed: why (a library message, shown as it is) */
} rpt_verdict;

/* One bin (a CPU, or a cluster in a clustered plan). */
typedef struct rpt_bin {
    const rtp_plan_bin *bin;
    char path[32];             /* "cpus[0]", "clusters[1]" */
    char name[48];             /* "CPU 0", "CPUs 2,3" */
    rtp_policy policy;         /* EDF or FP on one CPU, GEDF or GFP on a cluster */
    int rr;                    /* some task runs SCHED_RR (a tied level) */
    rpt_task *tasks;           /* bin->n_tasks entries, in the plan's order */
    size_t *order;             /* indices into tasks, the tightest first */
    size_t *growth;            /* indices into tasks by wcet_max / wcet, the least first */
    double u, u_eff;           /* display: sum of wcet/T and of C'/T */
    rpt_verdict own;           /* with the plan's overheads (one-CPU bins with tasks) */
    rpt_verdict probe;         /* with the probe's, when the plan's are lower */
    const rtp_plan_scaling *scaling; /* the critical scaling factor, when computed */
} rpt_bin;

typedef struct rpt {
    rtp_text *out;
    const rtp_plan *plan;
    const rtp_rehearse_report *rehearsal; /* may be NULL */
    const rtp_probe_report *probe;        /* may be NULL */
    const rtp_report_opts *opts;
    rtp_deploy_opts deploy;    /* opts->deploy, with the rehearsal's margin unless given */
    rpt_bin *bins;             /* plan->n_bins */
    size_t n_placed;
    int fp;                    /* the plan's policy is FP (or GFP) */
    int rr;                    /* some bin has a SCHED_RR task */
    rtp_plan sens;             /* a copy of the plan holding the sensitivity results */
    int has_sens;
    char sens_note[400];       /* why there are none, when !has_sens */
    int deployable;
    char deploy_reason[700];   /* emit's refusal: "PATH: reason; fix: ..." */
    int all_schedulable;       /* every bin with tasks analysed and schedulable */
    rtp_ns window_ns, window_asked_ns;
    const char *window_rule;   /* how the window was chosen, in words */
    char *gantt_svg;           /* the chart without its XML declaration, owned */
    const char *not_simulated[5]; /* the window's simulation leaves them out (sim/sim_doc.h's
                                * words: "jitter", "blocking", "overheads", ...), NULL-ended */
    char sim_note[700];        /* no chart although tasks are placed: simulate's reason */
    int probe_covers;          /* the plan's overheads are each at least the probe's */
    uint64_t seen_misses, seen_jobs; /* the rehearsal's totals */
    size_t seen_over;          /* its tasks whose largest response passed the bound */
} rpt;

/* report_model.c: builds everything above but out and the sections' text;
 * rpt_model_free releases what it owns. */
rtp_status rpt_model_build(rpt *r, rtp_diag *diag);
void rpt_model_free(rpt *r);

/* report_gantt.c: the window, the simulation (rtp_simulate_plan, as
 * `rtpack simulate PLAN`) into tasks[].sim, the chart. */
rtp_status rpt_gantt_build(rpt *r, rtp_diag *diag);

/* ---- report_html.c: writers ---- */

/* Markup as it is (trusted text: the page's own words and tags). */
void h_raw(rpt *r, const char *markup);
/* Markup with printf; only for integers and trusted strings. */
void h_fmt(rpt *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Text from the inputs, escaped (names, commands, warnings). */
void h_text(rpt *r, const char *text);
/* A malloc'd copy of text with what XML cannot hold replaced by U+FFFD (for
 * names handed to the Gantt chart, which escapes only the specials); NULL
 * when out of memory. */
char *rpt_clean_copy(const char *text);
/* A task name: <span class="name">, escaped. */
void h_name(rpt *r, const char *name);
/* A string member of a JSON document shown verbatim:
 * <span class="txt" data-j="SRC">, escaped. */
void h_string(rpt *r, const char *text, const char *src_fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Numbers: <data value="V" data-j="SRC">shown</data> with SRC from src_fmt
 * (a path, no input text in it). A negative time or count shows as an em
 * dash with no value. */
void h_time(rpt *r, rtp_ns ns, const char *src_fmt, ...) __attribute__((format(printf, 3, 4)));
void h_int(rpt *r, long long v, const char *src_fmt, ...) __attribute__((format(printf, 3, 4)));
/* A whole numeric cell: h_td(label, numeric), the number, </td>. */
void h_td_time(rpt *r, const char *label, rtp_ns ns, const char *src_fmt, ...)
    __attribute__((format(printf, 4, 5)));
void h_td_int(rpt *r, const char *label, long long v, const char *src_fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* v >= 0 shown with `decimals` decimals (rounded half up; integer
 * formatting, no locale). */
void h_decimal(rpt *r, double v, int decimals, const char *src_fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* A decimal given as text (an exact factor "1.47058821"): shown as is. */
void h_decimal_text(rpt *r, const char *text, const char *src_fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* v >= 0 with `decimals` decimals into buf, by integer rounding. */
void rpt_decimal(double v, int decimals, char *buf, size_t size);
/* A time as the page writes it: "16.666666 ms" with a no-break space. */
void rpt_time_text(rtp_ns ns, char *buf, size_t size);

/* A column heading (cls may be NULL: "n" right-aligns numbers), and the
 * opening of a cell whose label the phone layout shows beside its value. */
void h_th(rpt *r, const char *cls, const char *text);
void h_td(rpt *r, const char *label, int numeric);
/* A bin's name with its CPU ids as numbers: "CPU 0", "CPUs 2,3". */
void h_bin_name(rpt *r, const rpt_bin *b);
/* An exact ratio (a budget, a margin) rounded to four decimals, trailing
 * zeros dropped ("0.9"), as a number from `src`. */
void h_ratio(rpt *r, rtp_ratio v, const char *src);

/* A verdict mark: kind "ok" (✔), "bad" (✖), "warn" (⚠), "info" (ℹ). The
 * caller writes the verdict in words after it: shape and words, never
 * colour alone. */
void h_mark(rpt *r, const char *kind);

/* A horizontal bar (inline SVG, print-safe): segments of [0, 1] of the
 * track, each with a CSS class; `limit` >= 0 draws a dashed marker there.
 * Hidden from assistive technology: the numbers beside it carry the
 * meaning. */
typedef struct rpt_seg {
    double from, to;
    const char *cls;
} rpt_seg;
void h_bar(rpt *r, const rpt_seg *segs, size_t n, double limit);

/* The opening of the page (doctype, head with the CSS, body) and its end. */
void h_page_begin(rpt *r, const char *title);
void h_page_end(rpt *r);

/* A verdict's failing condition (or why there is none) in words, for bin b. */
void rpt_verdict_words(rpt *r, const rpt_bin *b, const rpt_verdict *v);

/* ---- the sections (report_plan.c, report_run.c) ---- */
void rpt_section_summary(rpt *r);
void rpt_section_platform(rpt *r);
void rpt_section_cpus(rpt *r);
void rpt_section_resources(rpt *r); /* nothing without resources */
/* Some resource of the plan is fmlp+ (a "suspension" column). */
int rpt_plan_has_fmlp(const rtp_plan *plan);
void rpt_section_margins(rpt *r);
void rpt_section_proof(rpt *r);
void rpt_section_emit(rpt *r);
void rpt_section_schedule(rpt *r);
void rpt_section_rehearsal(rpt *r);
void rpt_section_reading(rpt *r);

/* Words for a bin's policy: "EDF (SCHED_DEADLINE)", "fixed priority
 * (SCHED_FIFO)", "global EDF", "global fixed priority". */
const char *rpt_policy_words(rtp_policy policy, int rr);

#endif
