/* report/report_gantt.c — the Gantt window of the page: the plan simulated
 * CPU by CPU (cluster by cluster) with its own policy and priorities, as
 * `rtpack simulate PLAN` does (sim/sim.h; docs/spec.md "rtpack simulate"),
 * over [0, W), and drawn by sim/gantt.h.
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

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct lanes {
    rtp_task *tasks;        /* every placed task, bin after bin (shallow copies) */
    int *prio;              /* FP: the plan's priorities, same order */
    size_t n;
} lanes;

static rtp_status collect(const rpt *r, lanes *l, rtp_diag *diag)
{
    l->tasks = rtp_alloc(r->n_placed, sizeof *l->tasks, diag);
    l->prio = rtp_alloc(r->n_placed, sizeof *l->prio, diag);
    if (!l->tasks || !l->prio)
        return RTP_ENOMEM;
    for (size_t j = 0; j < r->plan->n_bins; j++)
        for (size_t k = 0; k < r->bins[j].bin->n_tasks; k++) {
            r->bins[j].tasks[k].sim_index = l->n;
            l->prio[l->n] = r->bins[j].bin->tasks[k].priority;
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

/* Simulates bin j over [0, until), its boxes into rec, its tasks' results
 * into their sim (when keep). */
static rtp_status simulate_bin(rpt *r, const lanes *l, size_t j, rtp_ns until,
                               rtp_gantt_rec *rec, int keep, rtp_diag *diag)
{
    rpt_bin *b = &r->bins[j];
    size_t n = b->bin->n_tasks, first = b->tasks[0].sim_index;
    rtp_sim_task_stats *stats = rtp_alloc(n, sizeof *stats, diag);
    if (!stats)
        return RTP_ENOMEM;
    int fixed = b->policy == RTP_POLICY_FP || b->policy == RTP_POLICY_GFP;
    rtp_sim_periodic_opts o = {.until_ns = until, .overrun_task = -1,
                               .hooks = rtp_gantt_rec_hooks(rec, first, b->bin->cpus)};
    rtp_ns used;
    rtp_status st = rtp_sim_periodic(&l->tasks[first], n, b->policy, (int)b->bin->n_cpus,
                                     fixed ? &l->prio[first] : NULL, &o, stats, &used, diag);
    for (size_t k = 0; st == RTP_OK && keep && k < n; k++)
        b->tasks[k].sim = stats[k];
    free(stats);
    if (st == RTP_OK && rec->failed)
        st = rtp_oom(diag);
    return st;
}

static int by_time(const void *a, const void *b)
{
    rtp_ns x = *(const rtp_ns *)a, y = *(const rtp_ns *)b;
    return x < y ? -1 : x > y;
}

/* Where a chart of every bin over [0, until) must end to hold at most
 * RTP_GANTT_MAX_BOXES boxes. The recorder's own cap is one budget for the
 * whole chart while the bins are simulated one after another, so the first
 * bin could spend it all and cut the chart at zero: each bin is simulated
 * alone first (its recorder keeps its boxes up to its own cut), and the
 * window ends where the first box past the cap, over all bins, starts. */
static rtp_status find_cut(rpt *r, const lanes *l, rtp_ns until, rtp_ns *cut, rtp_diag *diag)
{
    size_t n = 0, cap = 0;
    rtp_ns *starts = NULL;
    rtp_status st = RTP_OK;
    *cut = until;
    for (size_t j = 0; j < r->plan->n_bins && st == RTP_OK; j++) {
        if (r->bins[j].bin->n_tasks == 0)
            continue;
        rtp_gantt_rec one;
        rtp_gantt_rec_init(&one, 0, until);
        st = simulate_bin(r, l, j, until, &one, 0, diag);
        if (st == RTP_OK && one.truncated && one.until < *cut)
            *cut = one.until;
        if (st == RTP_OK && RTP_GROW(starts, cap, n + one.n_boxes) != 0)
            st = rtp_oom(diag);
        for (size_t k = 0; st == RTP_OK && k < one.n_boxes; k++)
            starts[n++] = one.boxes[k].from;
        rtp_gantt_rec_free(&one);
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
                 rpt_policy_words(b->policy));
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

rtp_status rpt_gantt_build(rpt *r, rtp_diag *diag)
{
    if (r->plan->n_resources > 0)
        return RTP_OK; /* the simulator does not model critical sections yet */
    lanes l = {NULL, NULL, 0};
    rtp_gantt_rec rec;
    rtp_gantt_rec_init(&rec, 0, 0);
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
    st = find_cut(r, &l, r->window_asked_ns, &r->window_ns, diag);
    rtp_gantt_rec_init(&rec, 0, r->window_ns);
    for (size_t j = 0; j < r->plan->n_bins && st == RTP_OK; j++)
        if (r->bins[j].bin->n_tasks > 0)
            st = simulate_bin(r, &l, j, r->window_ns, &rec, 1, diag);
    if (st == RTP_OK && rec.truncated) /* find_cut's window holds the cap's boxes at most */
        st = rtp_diag_set(diag, RTP_EINTERNAL, "", "the Gantt chart was cut after its window "
                                                   "was chosen to fit");
    if (st == RTP_OK)
        st = draw(r, &l, &rec, diag);
done:
    rtp_gantt_rec_free(&rec);
    free(l.tasks);
    free(l.prio);
    return st;
}
