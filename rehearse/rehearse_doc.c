/* rehearse/rehearse_doc.c — see rehearse_doc.h. */
#include "rehearse/rehearse_doc.h"
#include "models/json_write.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void rtp_rehearse_report_free(rtp_rehearse_report *report)
{
    free(report->tasks);
    free(report->steal);
    report->tasks = NULL;
    report->steal = NULL;
    report->n_tasks = report->n_steal = 0;
}

long long rtp_rehearse_steal_ppm_of(const rtp_rehearse_report *r, size_t i)
{
    return r->seconds > 0 ? r->steal[i].time_ns / 1000 / r->seconds : 0; /* ns / (s x 1e9) x 1e6 */
}

long long rtp_rehearse_steal_ppm(const rtp_rehearse_report *r, int *cpu)
{
    long long most = 0;
    *cpu = -1;
    for (size_t i = 0; r->seconds > 0 && i < r->n_steal; i++) {
        long long ppm = rtp_rehearse_steal_ppm_of(r, i);
        if (ppm > most || *cpu < 0) {
            most = ppm;
            *cpu = r->steal[i].cpu;
        }
    }
    return most;
}

int rtp_rehearse_over_bound(const rtp_rehearse_task *t)
{
    return t->bound_ns >= 0 && t->response_max_ns > t->bound_ns;
}

/* A ratio as its exact decimal when it has one (0.9), else "p/q". */
static void ratio(rtp_json_writer *w, const char *key, rtp_ratio r)
{
    char text[48];
    rtp_ratio_format(r, text, sizeof text);
    rtp_jw_number(w, key, text);
}

char *rtp_rehearse_report_to_json(const rtp_rehearse_report *r, int pretty)
{
    rtp_text out;
    rtp_json_writer w;
    rtp_text_init(&out);
    rtp_jw_init(&w, &out, pretty);
    rtp_jw_open(&w, NULL, 1);
    rtp_jw_int(&w, "seconds", r->seconds);
    ratio(&w, "load", r->load);
    ratio(&w, "runtime_margin", r->runtime_margin);
    rtp_jw_bool(&w, "hog", r->hog);
    if (r->reclaim)
        rtp_jw_bool(&w, "reclaim", 1);
    if (r->overrun_signal)
        rtp_jw_bool(&w, "overrun_signal", 1);
    if (r->arrival_grid)
        rtp_jw_string(&w, "arrival_grid", r->arrival_grid);
    else
        rtp_jw_null(&w, "arrival_grid");
    rtp_jw_open(&w, "tasks", 0);
    for (size_t k = 0; k < r->n_tasks; k++) {
        const rtp_rehearse_task *t = &r->tasks[k];
        rtp_jw_open(&w, NULL, 1);
        rtp_jw_string(&w, "name", t->name);
        rtp_jw_int(&w, "cpu", t->cpu);
        rtp_jw_int(&w, "jobs", (int64_t)t->jobs);
        rtp_jw_int(&w, "misses", (int64_t)t->misses);
        rtp_jw_time_or_null(&w, "response_max", t->response_max_ns);
        rtp_jw_time_or_null(&w, "response_p99", t->response_p99_ns);
        rtp_jw_time_or_null(&w, "bound", t->bound_ns);
        rtp_jw_bool(&w, "over_bound", rtp_rehearse_over_bound(t));
        if (r->overrun_signal)
            rtp_jw_int(&w, "overruns", t->overruns);
        rtp_jw_close(&w);
    }
    rtp_jw_close(&w);
    if (r->n_steal) {
        rtp_jw_open(&w, "hypervisor_steal", 0);
        for (size_t i = 0; i < r->n_steal; i++) {
            rtp_jw_open(&w, NULL, 1);
            rtp_jw_int(&w, "cpu", r->steal[i].cpu);
            rtp_jw_int(&w, "time", r->steal[i].time_ns);
            rtp_jw_close(&w);
        }
        rtp_jw_close(&w);
    }
    rtp_jw_bool(&w, "machine_restored", r->machine_restored);
    if (!r->machine_restored)
        rtp_jw_string(&w, "left", r->left);
    if (r->leftovers[0])
        rtp_jw_string(&w, "leftovers_stopped", r->leftovers);
    rtp_jw_close(&w);
    return rtp_jw_take(&w);
}

/* printf at the end of buf (size bytes in all), cut at its end. */
static void add(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void add(char *buf, size_t size, const char *fmt, ...)
{
    size_t used = strlen(buf);
    if (used + 1 >= size)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + used, size - used, fmt, ap);
    va_end(ap);
}

void rtp_rehearse_verdict(const rtp_rehearse_report *r, char *verdict, size_t vsize,
                          char *advice, size_t asize)
{
    unsigned long long jobs = 0, misses = 0;
    size_t missing = 0, over = 0, worst = 0, tight = 0;
    double worst_share = -1, tight_use = -1;
    verdict[0] = advice[0] = '\0';
    for (size_t k = 0; k < r->n_tasks; k++) {
        const rtp_rehearse_task *t = &r->tasks[k];
        jobs += t->jobs;
        misses += t->misses;
        missing += t->misses > 0;
        over += t->bound_ns > 0 && t->response_max_ns > t->bound_ns;
        double share = t->jobs ? (double)t->misses / (double)t->jobs : (t->misses ? 1.0 : 0.0);
        if (share > worst_share) {
            worst_share = share;
            worst = k;
        }
        double use = t->bound_ns > 0 && t->response_max_ns >= 0
                         ? (double)t->response_max_ns / (double)t->bound_ns
                         : -1;
        if (use > tight_use) {
            tight_use = use;
            tight = k;
        }
    }
    if (!r->machine_restored) {
        add(verdict, vsize, "the machine is not as it was: %s", r->left);
        add(advice, asize, "undo what is left by hand (the cpusets under /sys/fs/cgroup/cpuset, "
                           "their tasks, sched_load_balance) before any other deployment");
        return;
    }
    if (misses == 0 && over == 0) {
        add(verdict, vsize, "PASS: no miss in %llu jobs over %d s", jobs, r->seconds);
        if (tight_use >= 0)
            add(verdict, vsize, "; the largest response used %.0f%% of its bound (%s)",
                tight_use * 100, r->tasks[tight].name);
        add(advice, asize, "%s",
            tight_use > 0.9
                ? "little headroom: rehearse longer (--seconds 60 or more) under the load the "
                  "tasks will see, and put the machine's measured overheads (rtpack probe) in "
                  "the platform before trusting it"
                : "rehearse longer (--seconds 60 or more) under the load the tasks will see "
                  "before trusting it: a short quiet run shows the mechanism, not the worst "
                  "case");
        return;
    }
    const rtp_rehearse_task *w = &r->tasks[worst];
    add(verdict, vsize, "FAIL: %zu of %zu tasks missed deadlines (%llu misses in %llu jobs)",
        missing, r->n_tasks, misses, jobs);
    if (w->misses > w->jobs)
        add(verdict, vsize, "; worst %s: %llu misses but only %llu jobs ran: it skipped releases",
            w->name, w->misses, w->jobs);
    else if (w->misses)
        add(verdict, vsize, "; worst %s: %llu of %llu jobs (%.0f%%)", w->name, w->misses,
            w->jobs, 100 * worst_share);
    if (over)
        add(verdict, vsize, "; %zu task%s responded later than the analysed bound", over,
            over == 1 ? "" : "s");
    double share = jobs ? (double)misses / (double)jobs : 1.0;
    int stolen_cpu;
    long long stolen = rtp_rehearse_steal_ppm(r, &stolen_cpu);
    if (stolen >= RTP_REHEARSE_STEAL_PPM)
        add(advice, asize, "the hypervisor took %.1f%% of CPU %d during the run (its steal "
                           "time): stalls no probe bounds and no plan absorbs, so these misses "
                           "say nothing about the plan; rehearse again when the host is quiet "
                           "(a steal well under 1%%), and deploy on CPUs the host does not "
                           "overcommit",
            (double)stolen / 1e4, stolen_cpu);
    else if (r->deadline_policy && r->runtime_margin.num == 0 && worst_share > 0.01)
        add(advice, asize, "SCHED_DEADLINE enforces each runtime (the bare C' here) and the "
                           "kernel charges a job more than its own work (switches, interrupts, "
                           "the 4 ms tick when HRTICK_DL is off), so jobs are throttled: "
                           "measure that charge (sudo rtpack probe --seconds 60), put its "
                           "platform (deadline_charge) in the task set and partition again, "
                           "or rehearse again with --runtime-margin 0.2 (or more); if that "
                           "does not fit, partition with a lower --capacity to leave room "
                           "for it");
    else if (share < 0.01 && w->misses <= w->jobs)
        add(advice, asize, "rare misses come from the machine's latency spikes, not the plan: "
                           "measure them (sudo rtpack probe --seconds 60), put its platform "
                           "(release latency, context switch) in the task set and partition "
                           "again; isolate the plan's CPUs (emit --isolate)");
    else
        add(advice, asize, "the analysis does not see what this machine costs: measure it "
                           "(sudo rtpack probe --seconds 60), put its platform in the task set "
                           "and partition again%s",
            r->deadline_policy
                ? "; a larger --runtime-margin gives SCHED_DEADLINE jobs room for the "
                  "kernel's charge"
                : "; a task that skips releases is starved by higher priorities: give it "
                  "room (a lower --capacity)");
}
