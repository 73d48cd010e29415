/* deploy/rtapp.c — see rtapp.h. */
#include "deploy/rtapp.h"
#include "deploy/quote.h"
#include "deploy/script.h"
#include "deploy/rtapp_doc.h"

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
 * whole microseconds, the wcet replaced by the SCHED_DEADLINE runtime
 * (rtp_deploy_runtime: C' and the margin), so the copy is checked with no
 * context switch and no margin; free with free_rounded. */
static rtp_status round_plan(const rtp_plan *plan, const rtp_deploy_opts *opts, rtp_plan *out,
                             rtp_diag *diag)
{
    *out = *plan;
    out->bins = calloc(plan->n_bins ? plan->n_bins : 1, sizeof *out->bins);
    if (!out->bins)
        return rtp_oom(diag);
    for (size_t j = 0; j < plan->n_bins; j++) {
        const rtp_plan_bin *bin = &plan->bins[j];
        out->bins[j] = *bin;
        out->bins[j].tasks = calloc(bin->n_tasks ? bin->n_tasks : 1, sizeof *bin->tasks);
        if (!out->bins[j].tasks)
            return rtp_oom(diag);
        for (size_t i = 0; i < bin->n_tasks; i++) {
            rtp_plan_task *pt = &out->bins[j].tasks[i];
            *pt = bin->tasks[i];
            /* deadline first: the runtime stops at the rounded deadline */
            pt->task.deadline_ns = rtp_ns_to_us_floor(pt->task.deadline_ns) * 1000;
            pt->task.period_ns = rtp_ns_to_us_floor(pt->task.period_ns) * 1000;
            rtp_status st = rtp_deploy_runtime(plan, &pt->task, opts, &pt->task.wcet_ns, diag);
            if (st != RTP_OK)
                return st;
            pt->task.wcet_ns = rtp_ns_to_us_ceil(pt->task.wcet_ns) * 1000;
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

/* The checks every rt-app output makes: no SCHED_DEADLINE flags (rt-app
 * cannot set them), plain thread names, times of at least 1 us, and the
 * plan rounded to whole microseconds passing rtp_deploy_check. *rounded is
 * always set (free it with free_rounded); *deployable = 0 with the reason
 * in diag when the rounded plan fails. */
static rtp_status prepare(const rtp_plan *plan, const rtp_deploy_opts *opts, rtp_plan *rounded,
                          int *deployable, rtp_diag *diag)
{
    char path[160], bin_path[48];
    size_t n;
    memset(rounded, 0, sizeof *rounded);
    *deployable = 0;
    rtp_status st = rtp_deploy_flags_check(plan, opts, 1, diag);
    if (st == RTP_OK)
        st = rtp_deploy_plain_names(plan, "rt-app needs a plain thread name", &n, diag);
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
    if ((st = round_plan(plan, opts, rounded, diag)) != RTP_OK)
        return st == RTP_ENOMEM ? rtp_diag_set(diag, RTP_ENOMEM, "", "out of memory") : st;
    rtp_deploy_opts exact = *opts;
    exact.runtime_margin = (rtp_ratio){0, 1};
    /* the rounded wcet is C' already (its lock overheads included): only
     * the release latency stays, and the critical sections and SCHED_RR
     * turns are charged with the plan's overheads, as the plan was analysed */
    exact.analysed = &plan->overheads;
    /* a plan that holds until it is rounded: partitioning again, the
     * re-check's usual fix, does not help it */
    exact.fix = "--format script deploys the plan unrounded, or leave rt-app room for the "
                "rounding (e.g. partition with a lower --capacity)";
    rounded->overheads.context_switch_ns = 0;
    rounded->overheads.deadline_charge_ns = 0;
    rounded->overheads.noise_per_ms_ns = 0;
    rounded->overheads.lock_ns = 0;
    st = rtp_deploy_check(rounded, &exact, deployable, diag);
    if (st == RTP_OK && !*deployable) {
        char refusal[sizeof diag->message];
        snprintf(refusal, sizeof refusal, "%s", diag->message);
        rtp_diag_set(diag, RTP_OK, diag->path, "after rounding to whole microseconds for rt-app "
                                               "(wcet up, deadline and period down): %s",
                     refusal);
    }
    return st;
}

/* The document of the tasks of bins [first, last) of the rounded plan
 * (runtimes) and of `plan` (each thread runs its declared wcet); NULL when
 * out of memory. */
static char *bins_doc(const rtp_plan *plan, const rtp_plan *rounded, size_t first, size_t last,
                      const rtp_deploy_opts *opts, const rtp_rtapp_global *global)
{
    size_t n = 0, k = 0;
    for (size_t j = first; j < last; j++)
        n += rounded->bins[j].n_tasks;
    rtp_rtapp_thread *threads = calloc(n ? n : 1, sizeof *threads);
    if (!threads)
        return NULL;
    int deadline = rtp_deploy_is_deadline(rounded);
    /* critical sections: each job's, in its requests' order, as whole
     * microseconds rounded up, before the rest of its run */
    size_t n_sec = 0;
    for (size_t j = first; j < last; j++)
        for (size_t i = 0; i < plan->bins[j].n_tasks; i++)
            for (size_t q = 0; q < plan->bins[j].tasks[i].task.n_requests; q++)
                n_sec += (size_t)plan->bins[j].tasks[i].task.requests[q].count;
    rtp_rtapp_section *sec = calloc(n_sec ? n_sec : 1, sizeof *sec);
    size_t n_ids = 0;
    for (size_t j = first; j < last; j++)
        n_ids += rounded->bins[j].n_tasks * rounded->bins[j].n_cpus;
    int *ids = malloc((n_ids ? n_ids : 1) * sizeof *ids); /* each thread's CPUs */
    if (!sec || !ids) {
        free(threads);
        free(sec);
        free(ids);
        return NULL;
    }
    size_t ids_used = 0;
    size_t used = 0;
    for (size_t j = first; j < last; j++) {
        const rtp_plan_bin *bin = &rounded->bins[j];
        for (size_t i = 0; i < bin->n_tasks; i++, k++) {
            const rtp_task *t = &bin->tasks[i].task;
            rtp_rtapp_thread *th = &threads[k];
            th->name = t->name;
            th->deadline = deadline;
            th->rr = !deadline && t->rr;
            th->priority = deadline ? 0 : rtp_deploy_fifo_priority(bin, i, opts);
            th->run_us = rtp_ns_to_us_ceil(plan->bins[j].tasks[i].task.wcet_ns);
            th->period_us = t->period_ns / 1000;
            th->dl_runtime_us = t->wcet_ns / 1000;
            th->dl_deadline_us = t->deadline_ns / 1000;
            th->dl_period_us = th->period_us;
            /* Deadline threads take their CPUs from the cpuset rt-app runs in. */
            th->cpus = deadline ? NULL : ids + ids_used; /* a migrating task: its mask */
            th->n_cpus = deadline ? 0 : rtp_deploy_task_cpus(bin, i, ids + ids_used);
            ids_used += th->n_cpus;
            const rtp_task *declared = &plan->bins[j].tasks[i].task;
            th->sections = sec + used;
            for (size_t q = 0; q < declared->n_requests; q++) {
                const rtp_request *rq = &declared->requests[q];
                for (rtp_ns c = 0; c < rq->count; c++) {
                    sec[used].lock = plan->resources[rq->resource].name;
                    sec[used].run_us = rtp_ns_to_us_ceil(rq->length_ns);
                    th->run_us -= th->run_us > sec[used].run_us ? sec[used].run_us : th->run_us;
                    used++;
                    th->n_sections++;
                }
            }
        }
    }
    char *json = rtp_rtapp_doc_to_json(threads, n, global);
    free(threads);
    free(sec);
    free(ids);
    return json;
}

rtp_status rtp_deploy_rtapp(const rtp_plan *plan, const rtp_deploy_opts *opts, char **json,
                            int *deployable, rtp_diag *diag)
{
    *json = NULL;
    *deployable = 0;
    if (rtp_deploy_is_deadline(plan))
        return rtp_diag_set(diag, RTP_EINPUT, "policy",
                            "one rt-app file would run an EDF plan as global EDF: an EDF plan "
                            "gets one file per CPU (cluster), started in its cpuset "
                            "(rtp_deploy_rtapp_files)");
    rtp_plan rounded;
    rtp_status st = prepare(plan, opts, &rounded, deployable, diag);
    if (st == RTP_OK && *deployable) {
        char basename[48];
        snprintf(basename, sizeof basename, "rtpack-%s", opts->name);
        rtp_rtapp_global global = {opts->duration_s, plan->bins[0].cpus[0], "./", basename,
                                   RTP_RTAPP_LOG_MB, plan->n_resources > 0};
        if (!(*json = bins_doc(plan, &rounded, 0, rounded.n_bins, opts, &global)))
            st = rtp_diag_set(diag, RTP_ENOMEM, "", "out of memory");
    }
    free_rounded(&rounded, plan->n_bins);
    return st;
}

/* Appends a file NAME with the given content (taken: freed with the list). */
static rtp_status add_file(rtp_deploy_file *files, size_t *n, const char *name, char *content,
                           int executable)
{
    rtp_deploy_file *f = &files[(*n)++];
    f->name = strdup(name);
    f->content = content;
    f->executable = executable;
    return f->name && f->content ? RTP_OK : RTP_ENOMEM;
}

rtp_status rtp_deploy_rtapp_files(const rtp_plan *plan, const rtp_deploy_opts *opts,
                                  const char *dir, rtp_deploy_file **files, size_t *n_files,
                                  int *deployable, rtp_diag *diag)
{
    *files = NULL;
    *n_files = 0;
    rtp_plan rounded;
    rtp_status st = prepare(plan, opts, &rounded, deployable, diag);
    rtp_deploy_file *list = NULL;
    char **paths = NULL;
    size_t n = 0;
    if (st == RTP_OK && *deployable) {
        list = calloc(plan->n_bins + 1, sizeof *list);
        paths = calloc(plan->n_bins ? plan->n_bins : 1, sizeof *paths);
        st = list && paths ? RTP_OK : RTP_ENOMEM;
    }
    for (size_t j = 0; list && paths && st == RTP_OK && j < plan->n_bins; j++) {
        if (plan->bins[j].n_tasks == 0)
            continue;
        char name[64], basename[48];
        snprintf(basename, sizeof basename, "rtpack-%s-%zu", opts->name, j);
        snprintf(name, sizeof name, "%s.rtapp.json", basename);
        size_t size = strlen(dir) + strlen(name) + 2;
        if (!(paths[j] = malloc(size))) {
            st = RTP_ENOMEM;
            break;
        }
        snprintf(paths[j], size, "%s/%s", dir, name);
        rtp_rtapp_global global = {opts->duration_s, plan->bins[j].cpus[0], dir, basename,
                                   RTP_RTAPP_LOG_MB, plan->n_resources > 0};
        st = add_file(list, &n, name, bins_doc(plan, &rounded, j, j + 1, opts, &global), 0);
    }
    if (list && paths && st == RTP_OK) {
        char *script = NULL, name[64];
        st = rtp_deploy_script_rtapp(&rounded, opts, (const char *const *)paths, &script, diag);
        snprintf(name, sizeof name, "rtpack-%s-rtapp.sh", opts->name);
        if (st == RTP_OK)
            st = add_file(list, &n, name, script, 1);
    }
    for (size_t j = 0; paths && j < plan->n_bins; j++)
        free(paths[j]);
    free(paths);
    free_rounded(&rounded, plan->n_bins);
    if (st != RTP_OK) {
        rtp_deploy_files_free(list, n);
        return st == RTP_ENOMEM ? rtp_diag_set(diag, st, "", "out of memory") : st;
    }
    *files = list;
    *n_files = n;
    return RTP_OK;
}
