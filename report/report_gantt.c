/* report/report_gantt.c — the Gantt window of the page: the plan simulated
 * by rtp_simulate_plan, the very simulation `rtpack simulate PLAN --until W`
 * runs (sim/simulate.h; docs/spec.md "rtpack simulate": each CPU or
 * cluster under its policy and priorities, SCHED_RR run lists, affinity
 * masks, shared resources with their CPUs coupled), over [0, W), and drawn
 * by sim/gantt.h; what it leaves out is its own not_simulated list. A plan
 * simulate refuses (exit 2: e.g. resources in a cluster) gets no chart and
 * its reason on the page.
 *
 * The window: --window W when given; otherwise the hyperperiod when at
 * most RTP_REPORT_DEFAULT_JOBS jobs are released in it (the whole pattern
 * fits a readable chart), else the largest period or deadline of the placed
 * tasks (every task's first job, from the critical instant at 0). A window
 * of more than 10^7 jobs is refused (RTP_ELIMIT), as simulate refuses it.
 * The chart holds at most RTP_GANTT_MAX_BOXES execution boxes: past them
 * the window is shortened to where the first box left out starts (over all
 * CPUs, find_cut) and the schedule simulated over that window, so the chart
 * and the table beside it always cover the same window, and the page says
 * so. */
#include "report/report_internal.h"
#include "models/grow.h"

#include "models/arith.h"
#include "sim/gantt.h"
#include "sim/simulate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct lanes {
    rtp_task *tasks;        /* every placed task, bin after bin (shallow copies), the
                             * order of simulate's rows */
    size_t n;
} lanes;

static rtp_status collect(const rpt *r, lanes *l, rtp_diag *diag)
{
    l->tasks = rtp_alloc(r->n_placed, sizeof *l->tasks, diag);
    if (!l->tasks)
        return RTP_ENOMEM;
    for (size_t j = 0; j < r->plan->n_bins; j++)
        for (size_t k = 0; k < r->bins[j].bin->n_tasks; k++) {
            r->bins[j].tasks[k].sim_index = l->n;
            l->tasks[l->n++] = r->bins[j].bin->tasks[k].task;
        }
    return RTP_OK;
}

/* The default window (see the header comment). */
static void default_window(rpt *r, const lanes *l)
{
    rtp_ns h = 1, longest = 0;
    int h_ok = 1;
    for (size_t i = 0; i < l->n; i++) {
        if (h_ok && (rtp_lcm(h, l->tasks[i].period_ns, &h) != RTP_OK || h > RTP_NS_LIMIT))
            h_ok = 0;
        rtp_ns span = l->tasks[i].period_ns > l->tasks[i].deadline_ns ? l->tasks[i].period_ns
                                                                      : l->tasks[i].deadline_ns;
        if (span > longest)
            longest = span;
    }
    uint64_t jobs = 0;
    rtp_diag unused;
    if (h_ok && rtp_sim_count_jobs(l->tasks, l->n, h, &jobs, &unused) == RTP_OK &&
        jobs <= RTP_REPORT_DEFAULT_JOBS && h >= longest) {
        r->window_asked_ns = h;
        r->window_rule = "the hyperperiod";
    } else {
        r->window_asked_ns = longest;
        r->window_rule = "the largest period or deadline of the placed tasks (the hyperperiod "
                         "holds too many jobs for a readable chart)";
    }
}

/* Bin j alone (j < n_bins), or the whole plan (j == n_bins), simulated
 * over [0, until) with its chart recorded, into *out (freed by the caller
 * in every case). */
static rtp_status simulate_part(const rpt *r, size_t j, rtp_ns until, rtp_simulation *out,
                                rtp_diag *diag)
{
    rtp_plan view = *r->plan;
    if (j < r->plan->n_bins) {
        view.bins = &r->plan->bins[j];
        view.n_bins = 1;
        view.n_unassigned = 0;
    }
    rtp_simulate_opts o = rtp_simulate_opts_default(view.policy);
    o.until_ns = until;
    o.gantt = 1;
    rtp_status st = rtp_simulate_plan(&view, &o, out, diag);
    if (st == RTP_OK && out->gantt.failed)
        st = rtp_oom(diag);
    return st;
}

static int by_time(const void *a, const void *b)
{
    rtp_ns x = *(const rtp_ns *)a, y = *(const rtp_ns *)b;
    return x < y ? -1 : x > y;
}

/* Where a chart of the plan over [0, until) must end to hold at most
 * RTP_GANTT_MAX_BOXES boxes. The recorder's own cap is one budget for the
 * whole chart while the bins are simulated one after another, so the first
 * bin could spend it all and cut the chart at zero: each bin is simulated
 * alone first (its recorder keeps its boxes up to its own cut), and the
 * window ends where the first box past the cap, over all bins, starts.
 * With shared resources the CPUs are one simulation, recorded in time
 * order: its own cut is the window's. */
static rtp_status find_cut(const rpt *r, rtp_ns until, rtp_ns *cut, rtp_diag *diag)
{
    size_t n = 0, cap = 0, parts = r->plan->n_resources > 0 ? 1 : r->plan->n_bins;
    rtp_ns *starts = NULL;
    rtp_status st = RTP_OK;
    *cut = until;
    for (size_t j = 0; j < parts && st == RTP_OK; j++) {
        if (parts > 1 && r->bins[j].bin->n_tasks == 0)
            continue;
        rtp_simulation one;
        st = simulate_part(r, parts > 1 ? j : r->plan->n_bins, until, &one, diag);
        if (st == RTP_OK && one.gantt.truncated && one.gantt.until < *cut)
            *cut = one.gantt.until;
        if (st == RTP_OK && RTP_GROW(starts, cap, n + one.gantt.n_boxes) != 0)
            st = rtp_oom(diag);
        for (size_t k = 0; st == RTP_OK && k < one.gantt.n_boxes; k++)
            starts[n++] = one.gantt.boxes[k].from;
        rtp_simulation_free(&one);
    }
    if (st == RTP_OK && n > RTP_GANTT_MAX_BOXES) {
        qsort(starts, n, sizeof *starts, by_time);
        if (starts[RTP_GANTT_MAX_BOXES] < *cut)
            *cut = starts[RTP_GANTT_MAX_BOXES];
    }
    free(starts);
    return st;
}

static rtp_status draw(rpt *r, const lanes *l, const rtp_gantt_rec *rec, rtp_diag *diag)
{
    rtp_gantt_task *gt = rtp_alloc(l->n, sizeof *gt, diag);
    rtp_gantt_section *sec = rtp_alloc(r->plan->n_bins, sizeof *sec, diag);
    char **names = rtp_alloc(l->n, sizeof *names, diag), *title = NULL;
    size_t n_sec = 0;
    rtp_status st = RTP_ENOMEM;
    if (!gt || !sec || !names)
        goto done;
    for (size_t j = 0; j < r->plan->n_bins; j++) {
        const rpt_bin *b = &r->bins[j];
        if (b->bin->n_tasks == 0)
            continue;
        int fixed = b->policy == RTP_POLICY_FP || b->policy == RTP_POLICY_GFP;
        snprintf(sec[n_sec].title, sizeof sec[n_sec].title, "%s: %s", b->name,
                 rpt_policy_words(b->policy, b->rr));
        sec[n_sec].first = b->tasks[0].sim_index;
        sec[n_sec].n = b->bin->n_tasks;
        sec[n_sec].cpu_ids = b->bin->cpus;
        sec[n_sec++].n_cpus = (int)b->bin->n_cpus;
        for (size_t k = 0; k < b->bin->n_tasks; k++) {
            const rtp_task *t = &b->bin->tasks[k].task;
            size_t i = b->tasks[k].sim_index;
            if (!(names[i] = rpt_clean_copy(t->name)))
                goto done;
            gt[i] = (rtp_gantt_task){names[i], t->wcet_ns, t->deadline_ns, t->period_ns, 0,
                                     fixed ? b->bin->tasks[k].priority : 0};
        }
    }
    char head[200];
    snprintf(head, sizeof head, "%.120s: simulated schedule",
             r->opts->title ? r->opts->title : "plan");
    if (!(title = rpt_clean_copy(head)))
        goto done;
    char *svg = rtp_gantt_svg(title, gt, l->n, sec, n_sec, rec);
    if (!svg)
        goto done;
    /* Inline in the page: the chart's own XML declaration would end it. */
    char *start = strstr(svg, "<svg");
    if (start) {
        memmove(svg, start, strlen(start) + 1);
        r->gantt_svg = svg;
        st = RTP_OK;
    } else {
        free(svg);
        st = rtp_diag_set(diag, RTP_EINTERNAL, "", "the Gantt chart has no <svg> element");
    }
done:
    for (size_t i = 0; names && i < l->n; i++)
        free(names[i]);
    free(names);
    free(title);
    free(gt);
    free(sec);
    return st == RTP_ENOMEM ? rtp_oom(diag) : st;
}

/* The simulation's results: per task its row, and what it left out. */
static void keep(rpt *r, const rtp_simulation *sim)
{
    for (size_t j = 0; j < r->plan->n_bins; j++)
        for (size_t k = 0; k < r->bins[j].bin->n_tasks; k++) {
            rpt_task *t = &r->bins[j].tasks[k];
            const rtp_sim_doc_task *row = &sim->doc.tasks[t->sim_index];
            t->sim = (rtp_sim_task_stats){row->jobs, row->misses, row->first_miss_ns,
                                          row->response_max_ns, row->spin_max_ns,
                                          row->blocking_max_ns};
        }
    for (size_t k = 0; k < 5 && sim->doc.not_simulated[k]; k++)
        r->not_simulated[k] = sim->doc.not_simulated[k];
}

rtp_status rpt_gantt_build(rpt *r, rtp_diag *diag)
{
    lanes l = {NULL, 0};
    rtp_simulation sim;
    memset(&sim, 0, sizeof sim);
    rtp_status st = collect(r, &l, diag);
    if (st != RTP_OK || l.n == 0)
        goto done;
    if (r->opts->window_ns > 0) {
        r->window_asked_ns = r->opts->window_ns;
        r->window_rule = "chosen with --window";
    } else {
        default_window(r, &l);
    }
    uint64_t jobs = 0;
    rtp_diag d;
    if (rtp_sim_count_jobs(l.tasks, l.n, r->window_asked_ns, &jobs, &d) != RTP_OK) {
        char w[64];
        rpt_time_text(r->window_asked_ns, w, sizeof w);
        st = rtp_diag_set(diag, RTP_ELIMIT, "", "the Gantt window [0, %s) holds more than 10^7 "
                                                "jobs: give a shorter --window", w);
        goto done;
    }
    rtp_diag_clear(&d);
    st = find_cut(r, r->window_asked_ns, &r->window_ns, &d);
    if (st == RTP_EINPUT || st == RTP_ELIMIT) { /* simulate refuses the plan: the page says why */
        snprintf(r->sim_note, sizeof r->sim_note, "%s%s%s", d.path, d.path[0] ? ": " : "",
                 d.message);
        st = RTP_OK;
        goto done;
    }
    if (st != RTP_OK) {
        *diag = d;
        goto done;
    }
    st = simulate_part(r, r->plan->n_bins, r->window_ns, &sim, diag);
    if (st == RTP_OK && sim.gantt.truncated) /* find_cut's window holds the cap's boxes */
        st = rtp_diag_set(diag, RTP_EINTERNAL, "", "the Gantt chart was cut after its window "
                                                   "was chosen to fit");
    if (st == RTP_OK) {
        keep(r, &sim);
        st = draw(r, &l, &sim.gantt, diag);
    }
done:
    rtp_simulation_free(&sim);
    free(l.tasks);
    return st;
}
