/* deploy/rtapp.c — see rtapp.h. */
#include "deploy/rtapp.h"
#include "deploy/quote.h"
#include "models/rtapp_doc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int64_t rtp_ns_to_us_ceil(rtp_ns t)
{
    return t / 1000 + (t % 1000 != 0);
}

int64_t rtp_ns_to_us_floor(rtp_ns t)
{
    return t / 1000;
}

/* A shallow copy of the plan (task fields borrowed) with times rounded to
 * whole microseconds; free with free_rounded. */
static rtp_status round_plan(const rtp_plan *plan, rtp_plan *out)
{
    *out = *plan;
    out->bins = calloc(plan->n_bins ? plan->n_bins : 1, sizeof *out->bins);
    if (!out->bins)
        return RTP_ENOMEM;
    for (size_t j = 0; j < plan->n_bins; j++) {
        const rtp_plan_bin *bin = &plan->bins[j];
        out->bins[j] = *bin;
        out->bins[j].tasks = calloc(bin->n_tasks ? bin->n_tasks : 1, sizeof *bin->tasks);
        if (!out->bins[j].tasks)
            return RTP_ENOMEM;
        for (size_t i = 0; i < bin->n_tasks; i++) {
            rtp_plan_task *pt = &out->bins[j].tasks[i];
            *pt = bin->tasks[i];
            pt->task.wcet_ns = rtp_ns_to_us_ceil(pt->task.wcet_ns) * 1000;
            pt->task.deadline_ns = rtp_ns_to_us_floor(pt->task.deadline_ns) * 1000;
            pt->task.period_ns = rtp_ns_to_us_floor(pt->task.period_ns) * 1000;
        }
    }
    return RTP_OK;
}

static void free_rounded(rtp_plan *rounded, size_t n_bins)
{
    for (size_t j = 0; rounded->bins && j < n_bins; j++)
        free(rounded->bins[j].tasks);
    free(rounded->bins);
}

rtp_status rtp_deploy_rtapp(const rtp_plan *plan, const rtp_deploy_opts *opts, char **json,
                            int *deployable, rtp_text *warnings, rtp_diag *diag)
{
    char path[160], bin_path[48];
    *json = NULL;
    *deployable = 0;
    size_t n;
    rtp_status st = rtp_deploy_plain_names(plan, "rt-app needs a plain thread name", &n, diag);
    if (st != RTP_OK)
        return st;
    for (size_t j = 0; j < plan->n_bins; j++) {
        for (size_t i = 0; i < plan->bins[j].n_tasks; i++) {
            const rtp_task *t = &plan->bins[j].tasks[i].task;
            if (t->deadline_ns >= 1000 && t->period_ns >= 1000)
                continue;
            rtp_deploy_bin_path(plan, j, bin_path, sizeof bin_path);
            snprintf(path, sizeof path, "%s.tasks[%zu]", bin_path, i);
            rtp_diag_set(diag, RTP_OK, path, "rt-app counts in whole microseconds: a deadline "
                                             "or period below 1 us cannot be written");
            return RTP_OK;
        }
    }
    rtp_plan rounded;
    memset(&rounded, 0, sizeof rounded);
    st = round_plan(plan, &rounded);
    if (st == RTP_OK)
        st = rtp_deploy_check(&rounded, opts, deployable, diag);
    if (st == RTP_OK && !*deployable) {
        char reason[sizeof diag->message];
        snprintf(reason, sizeof reason, "%s", diag->message);
        rtp_diag_set(diag, RTP_OK, diag->path, "after rounding to whole microseconds for rt-app "
                                               "(wcet up, deadline and period down): %s",
                     reason);
    }
    rtp_rtapp_thread *threads = NULL;
    if (st == RTP_OK && *deployable && !(threads = calloc(n ? n : 1, sizeof *threads)))
        st = RTP_ENOMEM;
    int deadline = rtp_deploy_is_deadline(plan);
    size_t k = 0;
    for (size_t j = 0; threads && j < rounded.n_bins; j++) {
        const rtp_plan_bin *bin = &rounded.bins[j];
        for (size_t i = 0; i < bin->n_tasks; i++, k++) {
            const rtp_task *t = &bin->tasks[i].task;
            rtp_rtapp_thread *th = &threads[k];
            th->name = t->name;
            th->deadline = deadline;
            th->priority = deadline ? 0 : rtp_deploy_fifo_priority(bin, i, opts);
            th->run_us = t->wcet_ns / 1000;
            th->period_us = t->period_ns / 1000;
            th->dl_runtime_us = th->run_us;
            th->dl_deadline_us = t->deadline_ns / 1000;
            th->dl_period_us = th->period_us;
            th->cpus = deadline ? NULL : bin->cpus;
            th->n_cpus = deadline ? 0 : bin->n_cpus;
        }
    }
    if (threads && !(*json = rtp_rtapp_doc_to_json(threads, n, opts->duration_s)))
        st = RTP_ENOMEM;
    if (*json && deadline && n > 0)
        rtp_text_append(warnings, "warning: rt-app gives SCHED_DEADLINE threads no CPU affinity "
                                  "(Linux refuses one narrower than the root domain): they run "
                                  "under global EDF unless rt-app runs inside one cpuset per "
                                  "CPU\n");
    free(threads);
    free_rounded(&rounded, plan->n_bins);
    if (st == RTP_ENOMEM)
        return rtp_diag_set(diag, RTP_ENOMEM, "", "out of memory");
    return st;
}
