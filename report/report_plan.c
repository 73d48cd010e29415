/* report/report_plan.c — the sections about the plan itself: the verdicts
 * at the top, per CPU the load and the tasks tightest first, the
 * sensitivity margins, the proof or the refusal in words, and what emit
 * writes per task. Every number goes through the writers of report_html.c
 * with the JSON member it equals. */
#include "report/report_internal.h"

#include "deploy/locks.h"
#include "solver/fmlp.h"
#include "solver/locks.h"

#include "deploy/quote.h"
#include "deploy/script.h"
#include "heuristics/partition.h"
#include "models/effective.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static size_t failing_bins(const rpt *r)
{
    size_t failing = 0;
    for (size_t j = 0; j < r->plan->n_bins; j++)
        failing += r->bins[j].bin->n_tasks > 0 && r->bins[j].bin->n_cpus == 1 &&
                   !(r->bins[j].own.analysed && r->bins[j].own.schedulable);
    return failing;
}

static void badge(rpt *r, const char *kind, const char *head)
{
    h_fmt(r, "<li class=\"badge %s\">", kind);
    h_mark(r, kind);
    h_fmt(r, "<strong>%s</strong> ", head);
}

void rpt_section_summary(rpt *r)
{
    const rtp_plan *plan = r->plan;
    h_raw(r, "<header>\n<h1>Plan report: <span class=\"title\">");
    h_text(r, r->opts->title ? r->opts->title : "plan");
    h_raw(r, "</span></h1>\n<p class=\"lead\">");
    h_int(r, (long long)(r->n_placed + plan->n_unassigned), "count:tasks");
    h_raw(r, " tasks on ");
    h_int(r, (long long)plan->n_platform_cpus, "count:cpus");
    h_fmt(r, " CPU%s under %s; method ", plan->n_platform_cpus == 1 ? "" : "s",
          rpt_policy_words(r->fp ? RTP_POLICY_FP : RTP_POLICY_EDF, r->rr));
    h_string(r, plan->method[0] ? plan->method : "?", "plan:method");
    if (plan->chosen_placement[0]) {
        h_raw(r, " (placement ");
        h_string(r, plan->chosen_placement, "plan:chosen.placement");
        h_raw(r, ", order ");
        h_string(r, plan->chosen_order, "plan:chosen.order");
        h_raw(r, ")");
    }
    if (plan->status[0]) {
        h_raw(r, ", status ");
        h_string(r, plan->status, "plan:status");
    }
    h_raw(r, ".</p>\n<ul class=\"verdicts\">\n");
    if (r->all_schedulable) {
        badge(r, "ok", "Schedulable.");
        h_raw(r, "Every task is placed and every CPU passes the exact test of its policy, "
                 "checked again for this page.</li>\n");
    } else {
        badge(r, "bad", "Not schedulable.");
        if (plan->n_unassigned) {
            h_int(r, (long long)plan->n_unassigned, "count:unassigned");
            h_raw(r, " task(s) could not be placed. ");
        }
        if (failing_bins(r))
            h_raw(r, "Some CPU fails the exact test or could not be decided. ");
        h_raw(r, "<a href=\"#proof\">Why</a>.</li>\n");
    }
    if (r->deployable) {
        badge(r, "ok", "Deployable.");
        h_raw(r, "<code>rtpack emit</code> takes the plan as it is (budget ");
        h_ratio(r, r->deploy.budget, "opt:budget");
        h_raw(r, " per CPU). <a href=\"#emit\">What it writes</a>.</li>\n");
    } else {
        badge(r, "bad", "Not deployable.");
        h_raw(r, "<code>rtpack emit</code> refuses it: ");
        h_string(r, r->deploy_reason, "plan:deployable_reason");
        h_raw(r, "</li>\n");
    }
    if (r->rehearsal) {
        int ok = r->seen_misses == 0 && r->seen_over == 0 && r->rehearsal->machine_restored;
        badge(r, ok ? "ok" : "bad", ok ? "Rehearsal held." : "Rehearsal failed.");
        h_int(r, (long long)r->seen_misses, "count:misses");
        h_raw(r, " deadline miss(es) in ");
        h_int(r, (long long)r->seen_jobs, "count:jobs");
        h_raw(r, " jobs; ");
        h_int(r, (long long)r->seen_over, "count:over_bound");
        h_raw(r, " task(s) responded later than the analysis bound");
        if (!r->rehearsal->machine_restored)
            h_raw(r, "; the machine was not restored");
        h_raw(r, ". <a href=\"#rehearsal\">Details</a>.</li>\n");
    }
    if (r->probe) {
        badge(r, r->probe_covers ? "ok" : "warn", r->probe_covers ? "Overheads covered."
                                                                  : "Overheads not covered.");
        if (r->probe_covers)
            h_raw(r, "The plan's overheads are each at least what the probe measured.");
        else
            h_raw(r, "The probe measured more than the plan allows for; "
                     "<a href=\"#probe-check\">with the measured overheads</a> the CPUs are "
                     "judged again below.");
        h_raw(r, "</li>\n");
    }
    if (r->has_sens && r->sens.scaling.present && r->sens.scaling.exact) {
        badge(r, "info", "Margin.");
        h_raw(r, "Every wcet can be multiplied by up to ");
        h_decimal_text(r, r->sens.scaling.decimal, "plan:critical_scaling_factor");
        h_raw(r, " and the plan stays schedulable (the smallest critical scaling factor over "
                 "the CPUs). <a href=\"#margins\">Per task</a>.</li>\n");
    }
    h_raw(r, "</ul>\n</header>\n<nav aria-label=\"Contents\"><ol>"
             "<li><a href=\"#platform\">Platform and overheads</a></li>"
             "<li><a href=\"#cpus\">CPUs and tasks</a></li>");
    if (r->plan->n_resources > 0)
        h_raw(r, "<li><a href=\"#resources\">Shared resources</a></li>");
    h_raw(r,
             "<li><a href=\"#margins\">Margins</a></li>"
             "<li><a href=\"#proof\">Proof or refusal</a></li>"
             "<li><a href=\"#emit\">What emit writes</a></li>"
             "<li><a href=\"#schedule\">Schedule</a></li>");
    if (r->rehearsal)
        h_raw(r, "<li><a href=\"#rehearsal\">Rehearsal</a></li>");
    h_raw(r, "<li><a href=\"#reading\">Reading this page</a></li></ol></nav>\n<main>\n");
}

/* ---- CPUs and tasks ---- */

static void load_bars(rpt *r, const rpt_bin *b)
{
    double cpus = (double)b->bin->n_cpus, budget = rtp_ratio_double(r->deploy.budget);
    int stretch = rtp_overheads_stretch(&r->plan->overheads, r->plan->policy);
    rpt_seg u[2] = {{0, b->u / cpus, "u"}, {budget, b->u / cpus, "over"}};
    h_raw(r, "<div class=\"load\"><div class=\"load-row\"><span class=\"load-label\">"
             "utilization ");
    h_decimal(r, b->u, 4, "plan:%s.utilization", b->path);
    h_raw(r, "</span>");
    h_bar(r, u, b->u / cpus > budget ? 2 : 1, budget);
    h_raw(r, "</div>");
    if (stretch) {
        rpt_seg e[2] = {{0, b->u_eff / cpus, "ue"}, {budget, b->u_eff / cpus, "over"}};
        h_raw(r, "<div class=\"load-row\"><span class=\"load-label\">effective ");
        h_decimal(r, b->u_eff, 4, "plan:%s.effective_utilization", b->path);
        h_raw(r, "</span>");
        h_bar(r, e, b->u_eff / cpus > budget ? 2 : 1, budget);
        h_raw(r, "</div>");
    }
    h_raw(r, "<p class=\"legend\">Bars: share of ");
    if (b->bin->n_cpus > 1) {
        h_int(r, (long long)b->bin->n_cpus, "count:%s.cpus", b->path);
        h_raw(r, " CPUs");
    } else {
        h_raw(r, "the CPU");
    }
    h_raw(r, "; the dashed line is the real-time budget, ");
    h_ratio(r, r->deploy.budget, "opt:budget");
    h_raw(r, " per CPU (Linux's SCHED_DEADLINE admission and FIFO throttling limit); "
             "load past it is hatched.</p></div>\n");
}

static int bin_has_delays(const rtp_plan_bin *bin)
{
    for (size_t k = 0; k < bin->n_tasks; k++)
        if (bin->tasks[k].task.jitter_ns || bin->tasks[k].task.blocking_ns)
            return 1;
    return 0;
}

static void task_table(rpt *r, const rpt_bin *b)
{
    int fp = r->fp, delays = bin_has_delays(b->bin);
    h_raw(r, "<table class=\"cards\"><caption>Tasks on ");
    h_bin_name(r, b);
    h_fmt(r, ", tightest first (%s)</caption><thead><tr>",
          fp ? "the least slack relative to the deadline" : "the least room for the wcet to grow");
    h_th(r, NULL, "task");
    h_th(r, "n", "wcet");
    h_th(r, "n", "deadline");
    h_th(r, "n", "period");
    if (delays) {
        h_th(r, "n", "jitter");
        h_th(r, "n", "blocking");
    }
    if (fp)
        h_th(r, "n", "priority");
    h_th(r, "n", fp ? "response bound" : "bound");
    h_th(r, "n", "slack");
    int locks = r->plan->n_resources > 0, susp = locks && rpt_plan_has_fmlp(r->plan);
    if (locks) {
        h_th(r, "n", "computed blocking");
        h_th(r, "n", "spin");
        if (susp)
            h_th(r, "n", "suspension");
        h_th(r, NULL, "by");
    }
    h_raw(r, "</tr></thead><tbody>\n");
    for (size_t o = 0; o < b->bin->n_tasks; o++) {
        const rpt_task *t = &b->tasks[b->order[o]];
        const rtp_task *k = &t->pt->task;
        int late = b->own.analysed && fp && t->response_ns < 0;
        h_fmt(r, "<tr%s>", late ? " class=\"miss\"" : "");
        h_raw(r, "<th scope=\"row\" data-label=\"task\">");
        h_name(r, k->name);
        h_raw(r, "</th>");
        h_td_time(r, "wcet", k->wcet_ns, "plan:%s.wcet", t->path);
        h_td_time(r, "deadline", k->deadline_ns, "plan:%s.deadline", t->path);
        h_td_time(r, "period", k->period_ns, "plan:%s.period", t->path);
        if (delays) {
            h_td_time(r, "jitter", k->jitter_ns, "plan:%s.jitter", t->path);
            h_td_time(r, "blocking", k->blocking_ns, "plan:%s.blocking", t->path);
        }
        if (fp) {
            h_td_int(r, "priority", t->pt->priority, "plan:%s.priority", t->path);
        }
        h_td(r, fp ? "response bound" : "bound", 1);
        if (late) {
            h_mark(r, "bad");
            h_raw(r, "past the deadline");
        } else if (fp) {
            h_time(r, t->response_ns, "plan:%s.response_time", t->path);
        }
        else if (b->own.analysed && b->own.schedulable)
            h_time(r, k->deadline_ns, "plan:%s.deadline", t->path);
        else
            h_time(r, -1, "none");
        h_raw(r, "</td>");
        h_td(r, "slack", 1);
        if (fp && t->response_ns >= 0)
            h_time(r, k->deadline_ns - t->response_ns, "slack:plan:%s", t->path);
        else
            h_time(r, -1, "none");
        h_raw(r, "</td>");
        if (locks && t->has_locks) {
            h_td_time(r, "computed blocking", t->blocking_ns, "plan:%s.computed_blocking",
                      t->path);
            h_td_time(r, "spin", t->spin_ns, "plan:%s.spin", t->path);
            if (susp)
                h_td_time(r, "suspension", t->suspension_ns, "plan:%s.suspension", t->path);
            h_td(r, "by", 0);
            if (t->binding < r->plan->n_resources)
                h_string(r, r->plan->resources[t->binding].name, "plan:%s.blocking_resource",
                         t->path);
            else
                h_raw(r, "none");
            h_raw(r, "</td>");
        } else if (locks) {
            h_raw(r, susp ? "<td></td><td></td><td></td><td></td>" : "<td></td><td></td><td></td>");
        }
        h_raw(r, "</tr>\n");
    }
    h_raw(r, "</tbody></table>\n");
}

void rpt_section_cpus(rpt *r)
{
    h_raw(r, "<section id=\"cpus\">\n<h2>CPUs and tasks</h2>\n<p>");
    if (r->fp)
        h_raw(r, "The response bound is each task's exact worst-case response time, computed "
                 "again here with the plan's priorities (response-time analysis <cite>[ABRTW93]"
                 "</cite>, from the arrival, release jitter included); slack is the deadline "
                 "minus that bound. Priorities are the plan's ranks, the largest the most "
                 "urgent.");
    if (r->fp && r->rr)
        h_raw(r, " On a tied level whose tasks run SCHED_RR the bound is the round-robin "
                 "analysis <cite>[MJN03]</cite> with Linux's quantum and tick, each turn "
                 "charged a context switch, as partition and emit compute it.");
    else
        h_raw(r, "Under EDF the exact test (processor demand <cite>[BMR90]</cite>) proves "
                 "that every job completes by its deadline, so the bound is the deadline "
                 "itself and no slack is claimed; the tasks are listed by how little their "
                 "wcet can grow (<a href=\"#margins\">margins</a>).");
    h_raw(r, "</p>\n");
    for (size_t j = 0; j < r->plan->n_bins; j++) {
        const rpt_bin *b = &r->bins[j];
        h_fmt(r, "<section class=\"cpu\" id=\"cpu-%zu\">\n<h3>", j);
        h_bin_name(r, b);
        h_fmt(r, " <small>%s", rpt_policy_words(b->policy, b->rr));
        if (b->bin->test[0]) {
            h_raw(r, ", accepted by ");
            h_string(r, b->bin->test, "plan:%s.test", b->path);
        }
        h_raw(r, "</small></h3>\n");
        if (b->bin->n_tasks == 0) {
            h_raw(r, "<p>No task runs here.</p>\n</section>\n");
            continue;
        }
        h_raw(r, "<p class=\"verdict\">");
        if (b->own.analysed && b->own.schedulable) {
            h_mark(r, "ok");
            h_raw(r, "<strong>Schedulable:</strong> the exact test passes.");
        } else if (b->own.analysed) {
            h_mark(r, "bad");
            h_raw(r, "<strong>Not schedulable:</strong> ");
            rpt_verdict_words(r, b, &b->own);
        } else if (b->bin->n_cpus > 1) {
            h_mark(r, b->bin->test[0] ? "ok" : "bad");
            h_raw(r, b->bin->test[0] ? "<strong>Accepted</strong> by the plan's global test "
                                       "(<a href=\"#proof\">see the proof</a>)."
                                     : "<strong>Not accepted</strong> by any global test.");
        } else {
            h_mark(r, "info");
            rpt_verdict_words(r, b, &b->own);
        }
        h_raw(r, "</p>\n");
        load_bars(r, b);
        h_raw(r, "<div class=\"scroll\">");
        task_table(r, b);
        h_raw(r, "</div>\n</section>\n");
    }
    if (r->plan->n_unassigned) {
        h_raw(r, "<p>");
        h_mark(r, "bad");
        h_raw(r, "Not placed: ");
        for (size_t k = 0; k < r->plan->n_unassigned; k++) {
            h_raw(r, k ? ", " : "");
            h_name(r, r->plan->unassigned[k].task.name);
        }
        h_raw(r, " (<a href=\"#proof\">why</a>).</p>\n");
    }
    h_raw(r, "</section>\n");
}

void rpt_verdict_words(rpt *r, const rpt_bin *b, const rpt_verdict *v)
{
    if (!v->analysed) {
        h_raw(r, "<span class=\"say\">");
        h_text(r, v->note);
        h_raw(r, "</span>.");
    } else if (v->jitter_late) {
        h_raw(r, "the release jitter of ");
        h_name(r, b->bin->tasks[v->late_task].task.name);
        h_raw(r, " with the release latency (J\xE2\x80\xB2) reaches its deadline: none of its "
                 "jobs can be proved on time.");
    } else if (v->late_task >= 0) {
        h_raw(r, "the worst-case response time of ");
        h_name(r, b->bin->tasks[v->late_task].task.name);
        h_raw(r, " passes its deadline.");
    } else if (v->first_miss_ns >= 0) {
        h_raw(r, "the processor demand of the jobs due within an interval of ");
        h_time(r, v->first_miss_ns, "analysis:first_miss");
        h_raw(r, " exceeds the interval (dbf(t) > t).");
    } else if (!v->schedulable) {
        h_raw(r, "its effective utilization exceeds one.");
    }
}

/* ---- margins ---- */

/* wcet_max / wcet rounded down to two decimals, as integers: "3.66". */
static void grow_text(rtp_ns wcet_max, rtp_ns wcet, char *buf, size_t size)
{
    __int128 hundredths = (__int128)wcet_max * 100 / wcet;
    snprintf(buf, size, "%lld.%02lld", (long long)(hundredths / 100),
             (long long)(hundredths % 100));
}

static void margin_table(rpt *r, const rpt_bin *b)
{
    size_t n = b->bin->n_tasks;
    h_raw(r, "<table class=\"cards\"><caption>Margins on ");
    h_bin_name(r, b);
    h_raw(r, ", the least first</caption><thead><tr>");
    h_th(r, NULL, "task");
    h_th(r, "n", "wcet");
    h_th(r, "n", "wcet_max");
    h_th(r, "n", "can grow");
    h_th(r, "barcol", "wcet within wcet_max");
    h_raw(r, "</tr></thead><tbody>\n");
    for (size_t o = 0; o < n; o++) {
        const rpt_task *t = &b->tasks[b->growth[o]];
        char g[48];
        h_raw(r, "<tr><th scope=\"row\" data-label=\"task\">");
        h_name(r, t->pt->task.name);
        h_raw(r, "</th>");
        h_td_time(r, "wcet", t->pt->task.wcet_ns, "plan:%s.wcet", t->path);
        h_td_time(r, "wcet_max", t->wcet_max_ns, "plan:%s.wcet_max", t->path);
        h_td(r, "can grow", 1);
        if (t->wcet_max_ns > 0) {
            grow_text(t->wcet_max_ns, t->pt->task.wcet_ns, g, sizeof g);
            h_fmt(r, "\xC3\x97<data value=\"%s\" data-j=\"grow:plan:%s\">%s</data>", g, t->path,
                  g);
        } else {
            h_time(r, -1, "none");
        }
        h_raw(r, "</td>");
        h_td(r, "wcet within wcet_max", 0);
        if (t->wcet_max_ns > 0) {
            rpt_seg s = {0, (double)t->pt->task.wcet_ns / (double)t->wcet_max_ns, "u"};
            h_bar(r, &s, 1, -1);
        }
        h_raw(r, "</td></tr>\n");
    }
    h_raw(r, "</tbody></table>\n");
}

void rpt_section_margins(rpt *r)
{
    h_raw(r, "<section id=\"margins\">\n<h2>Margins</h2>\n<p>How far the plan is from the "
             "edge, CPU by CPU: <em>wcet_max</em> is the largest wcet a task may have, every "
             "other task unchanged, with its CPU still schedulable; the <em>critical scaling "
             "factor</em> is the largest factor by which every wcet of the CPU may be "
             "multiplied at once <cite>[LSD89]</cite> (overheads, jitter and blocking "
             "unchanged). Both are exact and computed again here");
    if (r->fp) {
        h_raw(r, " with the priority rule <code>");
        h_raw(r, rtp_prio_rule_name(r->opts->priority));
        h_raw(r, "</code>");
        h_raw(r, " re-run at every size tried");
    }
    h_raw(r, ". The bar shows the wcet as a share of wcet_max: the shorter, the more room.</p>\n");
    if (r->n_placed == 0) {
        h_raw(r, "<p>No task is placed.</p>\n</section>\n");
        return;
    }
    if (!r->has_sens) {
        h_raw(r, "<p>");
        h_mark(r, "info");
        h_text(r, r->sens_note);
        h_raw(r, ".</p>\n</section>\n");
        return;
    }
    for (size_t j = 0; j < r->plan->n_bins; j++) {
        const rpt_bin *b = &r->bins[j];
        if (b->bin->n_tasks == 0)
            continue;
        h_raw(r, "<h3>");
        h_bin_name(r, b);
        h_raw(r, "</h3>\n<p>Critical scaling factor: ");
        const rtp_plan_scaling *s = b->scaling;
        if (s && s->present && s->exact) {
            h_raw(r, "<strong>\xC3\x97");
            h_decimal_text(r, s->decimal, "plan:%s.critical_scaling_factor", b->path);
            h_raw(r, "</strong> (exactly ");
            h_string(r, s->exact, "plan:%s.critical_scaling_factor_exact", b->path);
            h_raw(r, ").");
        } else if (s && s->not_defined) {
            h_raw(r, "<span class=\"say\">");
            h_text(r, s->not_defined);
            h_raw(r, "</span>.");
        } else {
            h_raw(r, "none: no scaling of the wcets makes this CPU schedulable.");
        }
        h_raw(r, "</p>\n<div class=\"scroll\">");
        margin_table(r, b);
        h_raw(r, "</div>\n");
    }
    h_raw(r, "</section>\n");
}

/* ---- proof or refusal ---- */

static void bin_proof(rpt *r, const rpt_bin *b)
{
    h_raw(r, "<li><strong>");
    h_bin_name(r, b);
    h_fmt(r, "</strong>, %s: ", rpt_policy_words(b->policy, b->rr));
    if (b->bin->n_cpus > 1) {
        h_mark(r, b->bin->test[0] ? "ok" : "bad");
        if (b->bin->test[0]) {
            h_raw(r, "the plan says the global test ");
            h_string(r, b->bin->test, "plan:%s.test", b->path);
            h_raw(r, " accepts this cluster (sufficient, not exact); emit's re-check below "
                     "runs it again.</li>\n");
        } else {
            h_raw(r, "no global test accepts this cluster.</li>\n");
        }
        return;
    }
    if (!b->own.analysed) {
        h_mark(r, "info");
        rpt_verdict_words(r, b, &b->own);
        h_raw(r, "</li>\n");
        return;
    }
    h_mark(r, b->own.schedulable ? "ok" : "bad");
    h_raw(r, b->own.schedulable ? "<strong>schedulable</strong>: "
                                : "<strong>not schedulable</strong>: ");
    if (!b->own.schedulable) {
        rpt_verdict_words(r, b, &b->own);
        h_raw(r, "</li>\n");
        return;
    }
    if (b->policy == RTP_POLICY_EDF) {
        h_raw(r, "the effective utilization is at most one and, for every interval length "
                 "<var>t</var>, the execution of the jobs that arrive and are due within it "
                 "(the processor demand <cite>[BMR90]</cite>, release jitter and blocking "
                 "included) is at most <var>t</var>");
        if (b->own.edf_bound_ns > 0) {
            h_raw(r, "; every interval up to the testing bound ");
            h_time(r, b->own.edf_bound_ns, "analysis:qpa_bound");
            h_raw(r, " was checked (QPA <cite>[ZB09]</cite>), and none longer can fail");
        } else {
            h_raw(r, " (here no interval needs checking: every deadline is at least its "
                     "period and the load is at most one)");
        }
        h_raw(r, ".</li>\n");
    } else {
        h_raw(r, "every task's exact worst-case response time, with the plan's priorities, is "
                 "within its deadline (response-time analysis <cite>[ABRTW93]</cite>; the "
                 "bounds are in the table above).</li>\n");
    }
}

static void unplaced(rpt *r)
{
    rtp_part_opts po = rtp_part_opts_default();
    po.policy = r->fp ? RTP_POLICY_FP : RTP_POLICY_EDF;
    po.priority = r->opts->priority;
    po.capacity = r->opts->capacity;
    po.limits = r->opts->limits;
    for (size_t k = 0; k < r->plan->n_unassigned; k++) {
        h_raw(r, "<li>");
        h_mark(r, "bad");
        h_name(r, r->plan->unassigned[k].task.name);
        h_raw(r, " could not be placed: ");
        rtp_part_miss m;
        rtp_diag d;
        rtp_diag_clear(&d);
        if (r->plan->clustered) {
            h_raw(r, "no cluster's global test accepts it with the tasks placed before it.</li>\n");
            continue;
        }
        rtp_status st = rtp_part_explain(r->plan, &po, k, &m, &d);
        if (st != RTP_OK) {
            h_raw(r, "not explained (");
            h_text(r, d.message);
            h_raw(r, ").</li>\n");
            continue;
        }
        if (m.reason == RTP_MISS_NO_CPU) {
            h_raw(r, "its affinity allows no CPU of the platform.</li>\n");
            continue;
        }
        h_raw(r, "the closest is ");
        h_bin_name(r, &r->bins[m.bin]);
        h_raw(r, ", whose utilization would be ");
        if (m.reason == RTP_MISS_CAPACITY) { /* as many digits as it takes to read above it */
            char load[48];
            rtp_ratio_format_above(m.load_after, r->opts->capacity, load, sizeof load);
            h_decimal_text(r, load, "analysis:explain_load");
        } else {
            h_decimal(r, m.load_after, 4, "analysis:explain_load");
        }
        h_raw(r, " with it: ");
        if (m.reason == RTP_MISS_CAPACITY) {
            h_raw(r, "over the capacity ");
            h_ratio(r, r->opts->capacity, "opt:capacity");
        } else if (m.reason == RTP_MISS_HEURISTIC) {
            h_raw(r, "the exact test accepts it there, but the packing heuristic did not try it "
                     "(another --method may place it)");
        } else if (r->fp) {
            h_raw(r, "no priority order passes response-time analysis");
            if (m.late_task) {
                h_raw(r, " (deadline-monotonic: ");
                h_name(r, m.late_task);
                h_raw(r, " misses its deadline)");
            }
        } else if (m.has_first_miss) {
            h_raw(r, "the processor demand exceeds the interval at ");
            h_time(r, m.first_miss_ns, "analysis:first_miss");
        } else {
            h_raw(r, "the processor demand test fails");
        }
        h_raw(r, ".</li>\n");
    }
}

static void ilp_proof(rpt *r)
{
    const rtp_plan_proof *p = &r->plan->proof;
    h_raw(r, "<li>");
    h_mark(r, "bad");
    h_raw(r, "<strong>No partition of these tasks onto these CPUs passes the exact test</strong> "
             "(certificate ");
    h_string(r, p->kind, "plan:proof.kind");
    h_raw(r, "): ");
    h_string(r, p->explanation ? p->explanation : "", "plan:proof.explanation");
    if (p->n_tasks) {
        h_raw(r, " <span class=\"aside\">(the tasks: ");
        for (size_t k = 0; k < p->n_tasks; k++) {
            h_raw(r, k ? ", " : "");
            h_name(r, p->tasks[k]);
        }
        h_raw(r, p->n_cpus ? "; the CPUs they may use: " : "");
        for (size_t k = 0; k < p->n_cpus; k++) {
            h_raw(r, k ? ", " : "");
            h_int(r, p->cpus[k], "plan:proof.cpus[%zu]", k);
        }
        h_raw(r, ")</span>");
    }
    h_raw(r, "</li>\n");
}

void rpt_section_proof(rpt *r)
{
    h_raw(r, "<section id=\"proof\">\n<h2>Proof or refusal</h2>\n<p>What the verdicts rest "
             "on, in words. Each CPU's tasks are analysed with ");
    if (rtp_overheads_zero(&r->plan->overheads))
        h_raw(r, "no overheads (the plan carries none)");
    else
        h_raw(r, "the plan's overheads (<a href=\"#platform\">above</a>)");
    h_raw(r, ".</p>\n<ul class=\"proof\">\n");
    for (size_t j = 0; j < r->plan->n_bins; j++)
        if (r->bins[j].bin->n_tasks > 0)
            bin_proof(r, &r->bins[j]);
    if (r->plan->proof.kind[0])
        ilp_proof(r);
    else
        unplaced(r);
    h_raw(r, "<li><strong>Deployment</strong>: ");
    h_mark(r, r->deployable ? "ok" : "bad");
    if (r->deployable) {
        h_raw(r, "<strong>deployable</strong>: <code>rtpack emit</code> re-checks every CPU "
                 "with the exact test and Linux's limits (SCHED_DEADLINE runtime, deadline and "
                 "period rules, the bandwidth budget of ");
        h_ratio(r, r->deploy.budget, "opt:budget");
        h_raw(r, " per CPU, the SCHED_FIFO priority range) and takes the plan as it is.");
    } else {
        h_raw(r, "<strong>not deployable</strong>: <code>rtpack emit</code> refuses the "
                 "plan: ");
        h_string(r, r->deploy_reason, "plan:deployable_reason");
    }
    h_raw(r, "</li>\n</ul>\n</section>\n");
}

/* ---- what emit writes ---- */

static void launch_words(rpt *r, size_t j, size_t i)
{
    rtp_text words;
    rtp_text_init(&words);
    rtp_diag d;
    rtp_diag_clear(&d);
    rtp_status st = rtp_deploy_launch_words(r->plan, j, i, &r->deploy, rtp_quote_sh, &words, &d);
    if (st == RTP_OK)
        st = rtp_text_status(&words);
    if (st == RTP_OK && words.data) {
        h_raw(r, "<code>");
        h_text(r, words.data);
        h_raw(r, "</code>");
    } else if (st == RTP_ENOMEM) {
        r->out->failed = 1;
    } else {
        h_raw(r, "<span class=\"none\">not launchable: ");
        h_text(r, d.message);
        h_raw(r, "</span>");
    }
    rtp_text_free(&words);
}

void rpt_section_emit(rpt *r)
{
    int edf = !r->fp;
    h_raw(r, "<section id=\"emit\">\n<h2>What emit writes</h2>\n<p>");
    h_raw(r, r->deployable ? "Per task, what <code>rtpack emit --format script</code> starts"
                           : "<code>rtpack emit</code> refuses this plan (see above); were it "
                             "taken, these are the parameters it would use");
    if (edf) {
        h_raw(r, ": SCHED_DEADLINE with <code>runtime = min(ceil(C\xE2\x80\xB2 \xC3\x97 (1 + "
                 "margin)), deadline)</code>, runtime margin ");
        h_ratio(r, r->deploy.runtime_margin, "opt:runtime_margin");
        h_raw(r, ", where C\xE2\x80\xB2 is the wcet plus the overheads charged to a job "
                 "(<a href=\"#platform\">above</a>)");
        if (r->rehearsal && !r->opts->margin_given)
            h_raw(r, "; the margin is the one the rehearsal ran with");
        if (rtp_deploy_reclaims(r->plan, &r->deploy))
            h_raw(r, ". The tasks start through <code>rtpack-launch</code> with "
                     "SCHED_FLAG_RECLAIM: a job charged past its runtime may use bandwidth "
                     "the others leave unused instead of being throttled (<cite>docs/deploy.md "
                     "\xC2\xA7" "9</cite>)");
        if (r->deploy.overrun_signal)
            h_raw(r, ". Each budget overrun sends the task SIGXCPU");
    } else {
        h_raw(r, ": SCHED_FIFO with the plan's ranks mapped onto priorities ");
        h_int(r, r->deploy.fifo_lo, "opt:fifo_lo");
        h_raw(r, " to ");
        h_int(r, r->deploy.fifo_hi, "opt:fifo_hi");
        h_raw(r, " (order and ties kept), pinned to the task's CPU");
    }
    h_raw(r, ". The command is the line of the launch script that starts the task.</p>\n"
             "<div class=\"scroll\"><table class=\"cards\"><caption>Launch parameters per "
             "task</caption><thead><tr>");
    h_th(r, NULL, "task");
    h_th(r, NULL, "CPU");
    h_th(r, NULL, "policy");
    h_th(r, "n", edf ? "runtime" : "priority");
    h_th(r, "n", "deadline");
    h_th(r, "n", "period");
    h_th(r, NULL, "command");
    h_raw(r, "</tr></thead><tbody>\n");
    for (size_t j = 0; j < r->plan->n_bins; j++) {
        const rpt_bin *b = &r->bins[j];
        for (size_t i = 0; i < b->bin->n_tasks; i++) {
            const rpt_task *t = &b->tasks[i];
            h_raw(r, "<tr><th scope=\"row\" data-label=\"task\">");
            h_name(r, t->pt->task.name);
            h_raw(r, "</th>");
            h_td(r, "CPU", 0);
            for (size_t c = 0; c < b->bin->n_cpus; c++) {
                h_raw(r, c ? "," : "");
                if (r->plan->clustered)
                    h_int(r, b->bin->cpus[c], "plan:%s.cpus[%zu]", b->path, c);
                else
                    h_int(r, b->bin->cpus[c], "plan:%s.cpu", b->path);
            }
            h_raw(r, "</td>");
            h_td(r, "policy", 0);
            h_raw(r, edf ? "SCHED_DEADLINE" : "SCHED_FIFO");
            h_raw(r, "</td>");
            h_td(r, edf ? "runtime" : "priority", 1);
            if (edf)
                h_time(r, t->has_runtime ? t->runtime_ns : -1, "emit:%s.runtime", t->path);
            else
                h_int(r, t->fifo_priority, "emit:%s.priority", t->path);
            h_raw(r, "</td>");
            h_td_time(r, "deadline", t->pt->task.deadline_ns, "plan:%s.deadline", t->path);
            h_td_time(r, "period", t->pt->task.period_ns, "plan:%s.period", t->path);
            h_td(r, "command", 0);
            launch_words(r, j, i);
            h_raw(r, "</td></tr>\n");
        }
    }
    h_raw(r, "</tbody></table></div>\n</section>\n");
}

/* ---- shared resources ---- */

int rpt_plan_has_fmlp(const rtp_plan *plan)
{
    for (size_t r = 0; r < plan->n_resources; r++)
        if (plan->resources[r].protocol == RTP_LOCK_FMLP)
            return 1;
    return 0;
}

/* Per resource: its protocol as the analysis ran it, where its users sit,
 * and what emit makes of it (deploy/locks.h). */
void rpt_section_resources(rpt *r)
{
    const rtp_plan *plan = r->plan;
    if (plan->n_resources == 0)
        return;
    rtp_deploy_lock *locks = calloc(plan->n_resources, sizeof *locks);
    int ok = 0;
    rtp_diag d;
    rtp_diag_clear(&d);
    if (locks && rtp_deploy_locks(plan, &r->deploy, locks, &ok, &d) != RTP_OK)
        ok = 0;
    h_raw(r, "<section id=\"resources\">\n<h2>Shared resources</h2>\n<p>The blocking in the "
             "tables above is computed from the declared critical sections for the whole "
             "placement (<code>solver/locks.h</code>): a resource whose users share one CPU "
             "runs the ceiling protocol (PCP under FP <cite>[SRL90]</cite>, SRP under EDF "
             "<cite>[Bak91]</cite>), one whose users sit on several CPUs MSRP <cite>[GLD01]"
             "</cite> (spin charged to the wcet), and an <code>fmlp+</code> one the FMLP+ "
             "<cite>[Bra11]</cite> (suspension counted as execution). The margins are not "
             "computed on this page for such a plan (the sensitivity does not model critical "
             "sections); the schedule below is <code>rtpack simulate</code>'s of the plan, "
             "which runs the protocols (or the reason it refuses the plan).</p>\n");
    h_raw(r, "<div class=\"scroll\"><table class=\"cards\"><caption>Resources</caption>"
             "<thead><tr>");
    h_th(r, NULL, "resource");
    h_th(r, NULL, "protocol");
    h_th(r, NULL, "users on");
    h_th(r, NULL, "emit writes");
    h_th(r, "n", "ceiling");
    h_raw(r, "</tr></thead><tbody>\n");
    for (size_t q = 0; q < plan->n_resources; q++) {
        const rtp_resource *res = &plan->resources[q];
        size_t first = (size_t)-1, bins = 0;
        for (size_t j = 0; j < plan->n_bins; j++) {
            int here = 0;
            for (size_t k = 0; k < plan->bins[j].n_tasks && !here; k++)
                for (size_t x = 0; x < plan->bins[j].tasks[k].task.n_requests; x++)
                    here |= plan->bins[j].tasks[k].task.requests[x].resource == q;
            if (here) {
                bins++;
                if (first == (size_t)-1)
                    first = j;
            }
        }
        const char *proto = res->protocol == RTP_LOCK_FMLP ? "fmlp+"
                            : res->protocol == RTP_LOCK_MSRP || bins > 1 ? "msrp"
                            : r->fp ? "pcp" : "srp";
        h_raw(r, "<tr><th scope=\"row\" data-label=\"resource\">");
        h_string(r, res->name, "plan:resources[%zu].name", q);
        h_raw(r, "</th>");
        h_td(r, "protocol", 0);
        h_text(r, bins == 0 ? "unused" : proto);
        h_raw(r, "</td>");
        h_td(r, "users on", 0);
        if (bins == 0)
            h_raw(r, "no task");
        else if (bins == 1)
            h_bin_name(r, &r->bins[first]);
        else
            h_int(r, (long long)bins, "count:resources[%zu].cpus", q);
        if (bins > 1)
            h_raw(r, " CPUs");
        h_raw(r, "</td>");
        h_td(r, "emit writes", 0);
        const rtp_deploy_lock *l = locks && ok ? &locks[q] : NULL;
        h_raw(r, !l ? "not deployable (see emit below)"
                 : l->kind == RTP_LOCK_PROTECT ? "<code>PTHREAD_PRIO_PROTECT</code> mutex"
                 : l->kind == RTP_LOCK_INHERIT ? "<code>PTHREAD_PRIO_INHERIT</code> mutex"
                 : l->kind == RTP_LOCK_SPIN    ? "FIFO spin lock (<code>RTPACK_SPIN</code>)"
                                               : "nothing (no task uses it)");
        h_raw(r, "</td>");
        h_td(r, "ceiling", 1);
        if (l && (l->kind == RTP_LOCK_PROTECT || l->kind == RTP_LOCK_SPIN))
            h_int(r, l->ceiling, "emit:resources[%zu].ceiling", q);
        else
            h_time(r, -1, "none");
        h_raw(r, "</td></tr>\n");
    }
    h_raw(r, "</tbody></table></div>\n</section>\n");
    free(locks);
}
