/* report/report_run.c — the sections about the machine and the running
 * plan: the platform with its overheads (and the probe's measurements,
 * warnings and what its overheads would do to the plan), the simulated
 * schedule, the rehearsal beside every bound, and how to read the page. */
#include "report/report_internal.h"

#include "models/effective.h"
#include "sim/gantt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void yes_no(rpt *r, rtp_tri v)
{
    h_raw(r, v == RTP_TRI_YES ? "yes" : v == RTP_TRI_NO ? "no" : "unknown");
}

/* ---- platform and overheads ---- */

static void overhead_row(rpt *r, const char *label, const char *key, rtp_ns plan_ns,
                         int plan_written, rtp_ns probe_ns, int probe_written)
{
    h_fmt(r, "<tr><th scope=\"row\" data-label=\"overhead\">%s</th>", label);
    h_td(r, "in the plan", 1);
    if (plan_written)
        h_time(r, plan_ns, "plan:platform.overheads.%s", key);
    else
        h_raw(r, "<span class=\"none\">none</span>");
    h_raw(r, "</td>");
    if (r->probe) {
        h_td(r, "measured by the probe", 1);
        if (probe_written)
            h_time(r, probe_ns, "probe:platform.overheads.%s", key);
        else
            h_raw(r, "<span class=\"none\">none</span>");
        h_raw(r, "</td>");
    }
    h_raw(r, "</tr>\n");
}

static void overheads(rpt *r)
{
    const rtp_overheads *ov = &r->plan->overheads;
    const rtp_probe_report *p = r->probe;
    int has = !rtp_overheads_zero(ov), measured = p && p->has_overheads;
    /* the lock overhead, where some task takes a lock and it was given or measured */
    int lock = r->plan->n_resources > 0 && (ov->lock_ns != 0 || (measured && p->lock_ns != 0));
    h_raw(r, "<p>What a job costs its CPU and when it is released, as every analysis here "
             "counts it (<code>C\xE2\x80\xB2 = wcet + ceil(wcet \xC3\x97 noise per ms) + "
             "2 \xC3\x97 context switch");
    if (!r->fp)
        h_raw(r, " + deadline charge");
    if (lock)
        h_raw(r, " + count \xC3\x97 lock per request of a critical section");
    h_raw(r, "</code>, <code>J\xE2\x80\xB2 = jitter + release latency</code>).");
    if (lock)
        h_raw(r, " Each critical section is held length + lock (an FMLP+ section also a "
                 "wake-up and two context switches, which its request adds three of to C\xE2\x80\xB2; "
                 "docs/spec.md \"Lock overheads\").");
    if (!has)
        h_raw(r, " The plan carries no overheads: it assumes a machine that adds nothing.");
    h_raw(r, "</p>\n<div class=\"scroll\"><table class=\"cards narrow\"><caption>Overheads"
             "</caption><thead><tr><th scope=\"col\">overhead</th><th scope=\"col\" "
             "class=\"n\">in the plan</th>");
    if (p)
        h_raw(r, "<th scope=\"col\" class=\"n\">measured by the probe</th>");
    h_raw(r, "</tr></thead><tbody>\n");
    overhead_row(r, "release latency", "release_latency", ov->release_latency_ns, has,
                 measured ? p->release_latency_ns : 0, measured && p->has_release_latency);
    overhead_row(r, "context switch", "context_switch", ov->context_switch_ns, has,
                 measured ? p->context_switch_ns : 0, measured && p->has_context_switch);
    overhead_row(r, "deadline charge", "deadline_charge", ov->deadline_charge_ns,
                 ov->deadline_charge_ns != 0, measured ? p->deadline_charge_ns : 0,
                 measured && p->deadline_charge_ns != 0);
    overhead_row(r, "noise per ms", "noise_per_ms", ov->noise_per_ms_ns,
                 ov->noise_per_ms_ns != 0, measured ? p->noise_per_ms_ns : 0,
                 measured && p->noise_per_ms_ns != 0);
    if (lock)
        overhead_row(r, "lock", "lock", ov->lock_ns, ov->lock_ns != 0,
                     measured ? p->lock_ns : 0, measured && p->lock_ns != 0);
    h_raw(r, "</tbody></table></div>\n");
}

/* The CPUs judged again with the probe's overheads. */
static void probe_check(rpt *r)
{
    h_raw(r, "<div id=\"probe-check\" class=\"callout warn\"><p>");
    h_mark(r, "warn");
    h_raw(r, "<strong>The probe measured more than the plan allows for.</strong> With the "
             "probe's overheads in place of the plan's");
    if (r->plan->n_resources > 0)
        h_raw(r, r->probe->lock_ns ? " (its lock overhead in every critical section)"
                                   : " (the plan's lock overhead: the probe measured none)");
    h_raw(r, ", each CPU's tasks judged again by the same exact test:</p><ul>\n");
    for (size_t j = 0; j < r->plan->n_bins; j++) {
        const rpt_bin *b = &r->bins[j];
        if (b->bin->n_tasks == 0 || b->bin->n_cpus != 1)
            continue;
        h_raw(r, "<li>");
        h_bin_name(r, b);
        h_raw(r, ": ");
        if (!b->probe.analysed) {
            h_mark(r, "info");
            rpt_verdict_words(r, b, &b->probe);
        } else if (b->probe.schedulable) {
            h_mark(r, "ok");
            h_raw(r, "schedulable.");
        } else {
            h_mark(r, "bad");
            h_raw(r, "not schedulable: ");
            rpt_verdict_words(r, b, &b->probe);
        }
        h_raw(r, "</li>\n");
    }
    h_raw(r, "</ul><p>To plan for this machine, paste the probe's <code>platform</code> member "
             "into the task set and partition again (docs/deploy.md).</p></div>\n");
}

static void kernel_facts(rpt *r)
{
    const rtp_probe_kernel *k = &r->probe->kernel;
    h_raw(r, "<dl class=\"facts\">\n<dt>kernel</dt><dd>");
    h_string(r, k->release[0] ? k->release : "unknown", "probe:kernel.release");
    h_raw(r, "</dd>\n<dt>tick</dt><dd>");
    if (k->hz.known) {
        h_raw(r, "HZ=");
        h_int(r, k->hz.value, "probe:kernel.hz");
    } else {
        h_raw(r, "unknown");
    }
    h_raw(r, "; SCHED_DEADLINE budgets enforced by the high-resolution tick (HRTICK_DL): ");
    yes_no(r, k->hrtick_dl);
    h_raw(r, "</dd>\n<dt>preemption model</dt><dd>");
    h_string(r, k->preempt[0] ? k->preempt : "unknown", "probe:kernel.preempt");
    h_raw(r, "</dd>\n<dt>virtualized</dt><dd>");
    yes_no(r, k->virtualized);
    if (k->hypervisor[0]) {
        h_raw(r, " (");
        h_string(r, k->hypervisor, "probe:kernel.hypervisor");
        h_raw(r, ")");
    }
    h_raw(r, "</dd>\n<dt>real-time throttling</dt><dd>");
    if (k->rt_runtime_us.known && k->rt_period_us.known && k->rt_runtime_us.value >= 0) {
        h_int(r, k->rt_runtime_us.value, "probe:kernel.rt_runtime_us");
        h_raw(r, " \xC2\xB5s of every ");
        h_int(r, k->rt_period_us.value, "probe:kernel.rt_period_us");
        h_raw(r, " \xC2\xB5s");
    } else {
        h_raw(r, k->rt_runtime_us.known ? "off" : "unknown");
    }
    h_raw(r, "; DL fair server: ");
    yes_no(r, k->dl_fair_server);
    h_raw(r, "</dd>\n<dt>usable SCHED_DEADLINE bandwidth</dt><dd>");
    if (k->has_dl_bandwidth) {
        h_ratio(r, k->dl_bandwidth, "probe:kernel.dl_bandwidth");
        h_raw(r, " per CPU (this page checks against ");
        h_ratio(r, r->deploy.budget, "opt:budget");
        h_raw(r, ")");
    } else {
        h_raw(r, "unknown");
    }
    h_raw(r, "</dd>\n<dt>measured</dt><dd>");
    h_decimal(r, (double)r->probe->seconds_ns / 1e9, 0, "probe:method.seconds");
    h_raw(r, " s");
    if (r->probe->has_loadavg) {
        h_raw(r, ", load average at the start ");
        for (int i = 0; i < 3; i++) {
            h_raw(r, i ? ", " : "");
            h_decimal(r, r->probe->loadavg[i], 2, "probe:load_average[%d]", i);
        }
    }
    h_raw(r, "</dd>\n</dl>\n");
}

static void latency_cells(rpt *r, const rtp_probe_latency *l, size_t k, const char *key,
                          const char *label)
{
    char lab[64];
    snprintf(lab, sizeof lab, "%s max", label);
    h_td_time(r, lab, l->measured ? l->max_ns : -1, "probe:cpus[%zu].%s.max", k, key);
    snprintf(lab, sizeof lab, "%s p99", label);
    h_td_time(r, lab, l->measured ? l->p99_ns : -1, "probe:cpus[%zu].%s.p99", k, key);
}

static void probe_cpus(rpt *r)
{
    const rtp_probe_report *p = r->probe;
    h_raw(r, "<div class=\"scroll\"><table class=\"cards\"><caption>Measured per CPU: wake-up "
             "latency (largest and <abbr title=\"99th percentile\">p99</abbr>), context switch "
             "(<abbr title=\"99th percentile\">p99</abbr>), and the SCHED_DEADLINE charge "
             "(fixed per job, and per ms of execution)</caption><thead><tr>"
             "<th scope=\"col\">CPU</th><th scope=\"col\" class=\"n\">FIFO max</th>"
             "<th scope=\"col\" class=\"n\">FIFO <abbr title=\"99th percentile\">p99</abbr></th>"
             "<th scope=\"col\" class=\"n\">DEADLINE max</th><th scope=\"col\" class=\"n\">"
             "DEADLINE <abbr title=\"99th percentile\">p99</abbr></th><th scope=\"col\" "
             "class=\"n\">switch</th><th scope=\"col\" class=\"n\">charge</th><th "
             "scope=\"col\" class=\"n\">per ms</th></tr></thead><tbody>\n");
    for (size_t k = 0; k < p->n_cpus; k++) {
        const rtp_probe_cpu *c = &p->cpus[k];
        h_raw(r, "<tr><th scope=\"row\" data-label=\"CPU\">CPU\xC2\xA0");
        h_int(r, c->cpu, "probe:cpus[%zu].cpu", k);
        h_raw(r, "</th>");
        latency_cells(r, &c->fifo, k, "fifo_latency", "FIFO");
        latency_cells(r, &c->deadline, k, "deadline_latency", "DEADLINE");
        h_td_time(r, "switch", c->context_switch.measured ? c->context_switch.p99_ns : -1,
                  "probe:cpus[%zu].context_switch", k);
        h_td_time(r, "charge", c->charge.measured ? c->charge.fixed_ns : -1,
                  "probe:cpus[%zu].deadline_charge.fixed", k);
        h_td_time(r, "per ms", c->charge.measured ? c->charge.per_ms_ns : -1,
                  "probe:cpus[%zu].deadline_charge.per_ms", k);
        h_raw(r, "</tr>\n");
    }
    h_raw(r, "</tbody></table></div>\n");
}

static void notes(rpt *r, const rtp_notes *n, const char *key, const char *kind)
{
    h_raw(r, "<ul class=\"notes\">\n");
    for (size_t k = 0; k < n->n; k++) {
        h_raw(r, "<li>");
        h_mark(r, kind);
        h_string(r, n->items[k], "probe:%s[%zu]", key, k);
        h_raw(r, "</li>\n");
    }
    h_raw(r, "</ul>\n");
}

void rpt_section_platform(rpt *r)
{
    const rtp_plan *plan = r->plan;
    h_raw(r, "<section id=\"platform\">\n<h2>Platform and overheads</h2>\n<p>CPUs of the "
             "platform: ");
    for (size_t k = 0; k < plan->n_platform_cpus; k++) {
        h_raw(r, k ? ", " : "");
        h_int(r, plan->platform_cpus[k], "plan:platform.cpus[%zu]", k);
    }
    h_fmt(r, "; each runs its tasks under %s%s.</p>\n",
          rpt_policy_words(r->fp ? RTP_POLICY_FP : RTP_POLICY_EDF, r->rr),
          plan->clustered ? " (global inside a cluster of several CPUs)" : "");
    overheads(r);
    if (!r->probe) {
        h_raw(r, "</section>\n");
        return;
    }
    if (!r->probe_covers)
        probe_check(r);
    h_raw(r, "<h3 id=\"probe\">The machine, as the probe saw it</h3>\n");
    kernel_facts(r);
    probe_cpus(r);
    if (r->probe->warnings.n) {
        h_raw(r, "<h3>Probe warnings</h3>\n<p>Each says a fact of this machine and what it "
                 "means for a plan.</p>\n");
        notes(r, &r->probe->warnings, "warnings", "warn");
    }
    if (r->probe->skipped.n) {
        h_raw(r, "<h3>Not measured</h3>\n");
        notes(r, &r->probe->skipped, "skipped", "info");
    }
    h_raw(r, "</section>\n");
}

/* ---- the schedule ---- */

/* simulate's not_simulated words on the page. */
static const char *left_out_words(const char *word)
{
    if (strcmp(word, "jitter") == 0)
        return "release jitter";
    if (strcmp(word, "blocking") == 0)
        return "the given blocking";
    if (strcmp(word, "overheads") == 0)
        return "the platform's overheads";
    if (strcmp(word, "sched_rr") == 0)
        return "SCHED_RR where the simulator runs it first-in first-out (in a cluster, under "
               "EDF, or beside shared resources)";
    return "an affinity naming no CPU of its cluster (the task runs on all of them)";
}

void rpt_section_schedule(rpt *r)
{
    h_raw(r, "<section id=\"schedule\">\n<h2>Schedule</h2>\n");
    if (!r->gantt_svg) {
        if (r->sim_note[0]) {
            h_raw(r, "<p>Not simulated: <code>rtpack simulate</code> refuses the plan "
                     "(<span class=\"say\">");
            h_text(r, r->sim_note);
            h_raw(r, "</span>).</p>\n</section>\n");
        } else {
            h_raw(r, "<p>No task is placed: there is nothing to simulate.</p>\n</section>\n");
        }
        return;
    }
    h_raw(r, "<p>The plan simulated from time zero to ");
    h_time(r, r->window_ns, "sim:until");
    h_raw(r, ". The window is ");
    h_text(r, r->window_rule);
    h_raw(r, ". Every task is released at time zero (the critical instant) and then every period, "
             "each job running exactly its wcet, each CPU under its own policy and "
             "priorities: the very simulation of <code>rtpack simulate</code> (SCHED_RR run "
             "lists, affinity masks, shared resources with their protocols). ");
    if (r->not_simulated[0]) {
        h_raw(r, "Not simulated, as <code>rtpack simulate</code> says too: ");
        for (size_t k = 0; k < 5 && r->not_simulated[k]; k++) {
            h_raw(r, k ? "; " : "");
            h_text(r, left_out_words(r->not_simulated[k]));
        }
        h_raw(r, ". ");
    }
    h_raw(r, "A miss here shows the plan unschedulable, no miss proves nothing beyond this "
             "window.");
    if (r->window_ns != r->window_asked_ns) {
        h_raw(r, " The window asked for ended at ");
        h_time(r, r->window_asked_ns, "analysis:window_asked");
        h_raw(r, "; it was shortened to where the first execution box past ");
        h_int(r, RTP_GANTT_MAX_BOXES, "const:gantt_max_boxes");
        h_raw(r, " would start, so the chart stays readable (<code>--window</code> chooses "
                 "another).");
    }
    h_raw(r, "</p>\n<figure class=\"gantt\"><div class=\"gantt-scroll\">");
    h_raw(r, r->gantt_svg);
    h_raw(r, "</div><figcaption>Up arrows: releases; down arrows: deadlines; boxes: "
             "execution, coloured per task; a missed deadline is marked with the word "
             "\xE2\x80\x9Cmiss\xE2\x80\x9D.</figcaption></figure>\n");
    h_raw(r, "<div class=\"scroll\"><table class=\"cards\"><caption>In the simulated "
             "window</caption><thead><tr><th scope=\"col\">task</th><th scope=\"col\" "
             "class=\"n\">jobs</th><th scope=\"col\" class=\"n\">misses</th><th scope=\"col\" "
             "class=\"n\">largest response</th>");
    if (r->plan->n_resources > 0)
        h_raw(r, "<th scope=\"col\" class=\"n\">longest blocking</th><th scope=\"col\" "
                 "class=\"n\">longest spin</th>");
    h_raw(r, "</tr></thead><tbody>\n");
    for (size_t j = 0; j < r->plan->n_bins; j++)
        for (size_t k = 0; k < r->bins[j].bin->n_tasks; k++) {
            const rpt_task *t = &r->bins[j].tasks[k];
            h_fmt(r, "<tr%s><th scope=\"row\" data-label=\"task\">",
                  t->sim.misses ? " class=\"miss\"" : "");
            h_name(r, t->pt->task.name);
            h_raw(r, "</th>");
            h_td_int(r, "jobs", (long long)t->sim.jobs, "sim:tasks[%zu].jobs", t->sim_index);
            h_td(r, "misses", 1);
            if (t->sim.misses)
                h_mark(r, "bad");
            h_int(r, (long long)t->sim.misses, "sim:tasks[%zu].misses", t->sim_index);
            h_raw(r, "</td>");
            h_td_time(r, "largest response", t->sim.response_max_ns,
                      "sim:tasks[%zu].response_max", t->sim_index);
            if (r->plan->n_resources > 0) {
                h_td_time(r, "longest blocking", t->sim.blocked_max_ns,
                          "sim:tasks[%zu].blocking_max", t->sim_index);
                h_td_time(r, "longest spin", t->sim.spin_max_ns, "sim:tasks[%zu].spin_max",
                          t->sim_index);
            }
            h_raw(r, "</tr>\n");
        }
    h_raw(r, "</tbody></table></div>\n</section>\n");
}

/* ---- the rehearsal ---- */

static const char *grid_words(const char *grid)
{
    if (!grid)
        return "not recorded";
    if (strcmp(grid, "kernel") == 0)
        return "the kernel's own SCHED_DEADLINE periods";
    if (strcmp(grid, "release") == 0)
        return "each task's absolute release times (wake-up latency counted)";
    return "each task's first job (the kernel's periods could not be read)";
}

/* Rows with a miss or over their bound first, then by largest response
 * relative to the bound, the largest first; ties in document order. */
typedef struct row {
    int bad;
    rtp_ns max, bound;
    size_t index;
} row;

static int row_cmp(const void *a, const void *b)
{
    const row *x = a, *y = b;
    if (x->bad != y->bad)
        return x->bad ? -1 : 1;
    __int128 l = (__int128)x->max * (y->bound > 0 ? y->bound : 1),
             g = (__int128)y->max * (x->bound > 0 ? x->bound : 1);
    if (l != g)
        return l > g ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

static void rehearsal_bar(rpt *r, const rtp_rehearse_task *t)
{
    if (t->response_max_ns < 0)
        return;
    double scale = (double)(t->bound_ns > t->response_max_ns ? t->bound_ns : t->response_max_ns);
    if (scale <= 0)
        scale = 1;
    double p = (double)t->response_p99_ns / scale, m = (double)t->response_max_ns / scale;
    double b = t->bound_ns >= 0 ? (double)t->bound_ns / scale : -1;
    rpt_seg segs[3] = {{0, p, "p99"}, {p, m, "max"}, {b, m, "over"}};
    h_bar(r, segs, b >= 0 && m > b ? 3 : 2, b);
}

static void rehearsal_rows(rpt *r)
{
    const rtp_rehearse_report *re = r->rehearsal;
    row *rows = malloc((re->n_tasks ? re->n_tasks : 1) * sizeof *rows);
    if (!rows) {
        r->out->failed = 1;
        return;
    }
    for (size_t k = 0; k < re->n_tasks; k++) {
        const rtp_rehearse_task *t = &re->tasks[k];
        rows[k] = (row){t->misses > 0 || rtp_rehearse_over_bound(t), t->response_max_ns,
                        t->bound_ns, k};
    }
    qsort(rows, re->n_tasks, sizeof *rows, row_cmp);
    for (size_t o = 0; o < re->n_tasks; o++) {
        size_t k = rows[o].index;
        const rtp_rehearse_task *t = &re->tasks[k];
        int over = rtp_rehearse_over_bound(t);
        h_fmt(r, "<tr%s><th scope=\"row\" data-label=\"task\">",
              rows[o].bad ? " class=\"miss\"" : "");
        h_name(r, t->name);
        h_raw(r, "</th>");
        h_td_int(r, "CPU", t->cpu, "rehearsal:tasks[%zu].cpu", k);
        h_td_int(r, "jobs", (long long)t->jobs, "rehearsal:tasks[%zu].jobs", k);
        h_td_int(r, "misses", (long long)t->misses, "rehearsal:tasks[%zu].misses", k);
        h_td_time(r, "bound", t->bound_ns, "rehearsal:tasks[%zu].bound", k);
        h_td_time(r, "p99", t->response_p99_ns, "rehearsal:tasks[%zu].response_p99", k);
        h_td_time(r, "max", t->response_max_ns, "rehearsal:tasks[%zu].response_max", k);
        if (re->overrun_signal)
            h_td_int(r, "overruns", t->overruns, "rehearsal:tasks[%zu].overruns", k);
        h_td(r, "verdict", 0);
        const char *kind = t->misses || over ? "bad" : t->jobs == 0 ? "info" : "ok";
        h_raw(r, "<span class=\"v\">");
        h_mark(r, kind);
        h_raw(r, t->misses && over ? "missed, over the bound"
                 : t->misses       ? "missed"
                 : over            ? "over the bound"
                 : t->jobs == 0    ? "no job"
                                   : "within the bound");
        h_raw(r, "</span>");
        h_raw(r, "</td>");
        h_td(r, "response against the bound", 0);
        rehearsal_bar(r, t);
        h_raw(r, "</td></tr>\n");
    }
    free(rows);
}

void rpt_section_rehearsal(rpt *r)
{
    const rtp_rehearse_report *re = r->rehearsal;
    h_raw(r, "<section id=\"rehearsal\">\n<h2>Rehearsal</h2>\n<p>The plan deployed on a "
             "machine exactly as <code>rtpack emit</code> writes it, with a synthetic "
             "workload in place of each command (<code>rtpack rehearse</code>). A response is "
             "a job's completion minus its arrival; a miss is a response past the deadline or "
             "a skipped release; the bound is what the analysis promised (");
    h_raw(r, r->fp ? "the response time" : "the deadline");
    h_raw(r, ").</p>\n<dl class=\"facts\">\n<dt>ran</dt><dd>");
    h_int(r, re->seconds, "rehearsal:seconds");
    h_raw(r, " s, each job doing ");
    h_ratio(r, re->load, "rehearsal:load");
    h_raw(r, " \xC3\x97 its wcet of its own work</dd>\n<dt>runtime margin</dt><dd>");
    h_ratio(r, re->runtime_margin, "rehearsal:runtime_margin");
    h_raw(r, "</dd>\n<dt>CPU hog beside it</dt><dd>");
    h_raw(r, re->hog ? "yes: a normal-priority busy loop on every CPU" : "no");
    if (!r->fp) {
        h_raw(r, "</dd>\n<dt>SCHED_DEADLINE flags</dt><dd>");
        h_raw(r, re->reclaim && re->overrun_signal ? "reclaiming unused bandwidth, SIGXCPU at "
                                                     "each overrun (counted per task)"
                 : re->reclaim                     ? "reclaiming unused bandwidth"
                 : re->overrun_signal ? "SIGXCPU at each overrun (counted per task)"
                                      : "none");
    }
    h_raw(r, "</dd>\n<dt>arrivals measured from</dt><dd>");
    h_raw(r, grid_words(re->arrival_grid));
    if (re->n_steal) { /* display only: the share of each CPU's window */
        h_raw(r, "</dd>\n<dt>hypervisor steal</dt><dd>");
        for (size_t i = 0; i < re->n_steal; i++) {
            char text[64];
            snprintf(text, sizeof text, "%sCPU %d: %.1f%%", i ? ", " : "", re->steal[i].cpu,
                     (double)rtp_rehearse_steal_ppm_of(re, i) / 1e4);
            h_raw(r, text);
        }
    }
    h_raw(r, "</dd>\n<dt>machine restored</dt><dd>");
    if (re->machine_restored) {
        h_mark(r, "ok");
        h_raw(r, "every cpuset, setting and real-time thread as before");
    } else {
        h_mark(r, "bad");
        h_string(r, re->left, "rehearsal:left");
    }
    h_raw(r, "</dd>\n</dl>\n<p class=\"verdict\">");
    if (r->seen_misses == 0 && r->seen_over == 0) {
        h_mark(r, "ok");
        h_raw(r, "<strong>Held:</strong> no deadline missed and every largest response "
                 "within its bound.");
    } else {
        h_mark(r, "bad");
        h_raw(r, "<strong>Failed:</strong> ");
        h_int(r, (long long)r->seen_misses, "count:misses");
        h_raw(r, " deadline miss(es); ");
        h_int(r, (long long)r->seen_over, "count:over_bound");
        h_raw(r, " task(s) whose largest response passed the bound: on this machine the "
                 "analysis' claim did not hold. The usual causes are overheads the plan does "
                 "not carry (<a href=\"#platform\">measure them</a>) and a loaded machine.");
        if (!r->fp && re->runtime_margin.num == 0)
            h_raw(r, " Under SCHED_DEADLINE with no runtime margin, a job the kernel charges "
                     "more than its own work (wake-up and switch paths, interrupts) exhausts "
                     "a runtime of exactly C\xE2\x80\xB2, is throttled to its next period "
                     "and skips that release: put the charge in the plan "
                     "(<code>platform.overheads.deadline_charge</code>) or rehearse with "
                     "<code>--runtime-margin</code> (<cite>docs/deploy.md \xC2\xA7" "8</cite>).");
    }
    h_raw(r, "</p>\n<div class=\"scroll\"><table class=\"cards\"><caption>Observed responses "
             "beside the bounds, problems first</caption><thead><tr><th scope=\"col\">task"
             "</th><th scope=\"col\" class=\"n\">CPU</th><th scope=\"col\" class=\"n\">jobs"
             "</th><th scope=\"col\" class=\"n\">misses</th><th scope=\"col\" class=\"n\">"
             "bound</th><th scope=\"col\" class=\"n\"><abbr title=\"99th percentile\">p99"
             "</abbr></th><th scope=\"col\" class=\"n\">max</th>");
    if (re->overrun_signal)
        h_th(r, "n", "overruns");
    h_raw(r, "<th scope=\"col\">verdict</th><th scope=\"col\" class=\"barcol\">response "
             "against the bound</th></tr></thead><tbody>\n");
    rehearsal_rows(r);
    h_raw(r, "</tbody></table></div>\n<p class=\"legend\">Bars: light, the "
             "<abbr title=\"99th percentile\">p99</abbr> response; dark, up to the largest; "
             "the dashed line is the bound, and what passes it is hatched. Each bar is "
             "scaled to the larger of its bound and its largest response.</p>\n</section>\n");
}

/* ---- reading ---- */

void rpt_section_reading(rpt *r)
{
    h_raw(r, "<section id=\"reading\">\n<h2>Reading this page</h2>\n<ul>\n"
             "<li><strong>Units.</strong> The plan keeps every time in integer nanoseconds; "
             "this page writes each exactly, in the largest of s, ms, \xC2\xB5s and ns that "
             "shows it with at most six decimals (so a period of one sixtieth of a second "
             "reads in ms with its nanoseconds). Utilizations have four decimals; the "
             "critical scaling factor is rounded down, as <code>rtpack partition "
             "--sensitivity</code> prints it.</li>\n"
             "<li><strong>Marks.</strong> \xE2\x9C\x94 holds; \xE2\x9C\x96 fails; "
             "\xE2\x9A\xA0 worth a look; \xE2\x84\xB9 for information. Every verdict is "
             "also written in words beside its mark; colour (the colour-blind-safe palette of "
             "<cite>[OI08]</cite>: blue for what holds, vermillion and a hatch for what fails, "
             "orange for notes) only repeats it.</li>\n"
             "<li><strong>Tightest first.</strong> ");
    h_raw(r, r->fp ? "Tasks are listed by slack divided by deadline, the smallest first."
                   : "Tasks are listed by wcet_max divided by wcet, the smallest first.");
    h_raw(r, "</li>\n<li><strong>Sources.</strong> Every number is an HTML "
             "<code>data</code> element whose <code>value</code> is exact and whose "
             "<code>data-j</code> names the JSON document and member it equals: "
             "<code>plan:</code> for <code>rtpack partition --sensitivity --json</code>, "
             "<code>emit:</code> for the launch script of <code>rtpack emit</code>, "
             "<code>sim:</code> for <code>rtpack simulate --json</code> over the same "
             "window");
    if (r->rehearsal)
        h_raw(r, ", <code>rehearsal:</code> for the rehearsal document");
    if (r->probe)
        h_raw(r, ", <code>probe:</code> for the probe document");
    h_raw(r, "; <code>opt:</code> is an option of this report, <code>analysis:</code> a "
             "figure of the analysis itself.</li>\n</ul>\n</section>\n");
}
