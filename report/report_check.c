/* report/report_check.c — whether a rehearsal or a probe document belongs
 * to the plan (report.h; docs/spec.md "rtpack report"). A rehearsal carries
 * no copy of its plan, so it belongs when everything it does record agrees
 * with the plan: the set of tasks, the CPU each ran on, the bound each was
 * held to, and the runtime margin it ran with; a probe belongs when it
 * measured every CPU the plan runs tasks on. */
#include "report/report.h"

#include "models/json_util.h"
#include "rehearse/rehearse.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The placed task named `name`: its bin and its index in the plan's bin
 * order (rtp_rehearse_bounds's), or 0 when none. */
static int find(const rtp_plan *plan, const char *name, size_t *bin, size_t *flat)
{
    for (size_t j = 0, k = 0; j < plan->n_bins; j++)
        for (size_t i = 0; i < plan->bins[j].n_tasks; i++, k++)
            if (strcmp(plan->bins[j].tasks[i].task.name, name) == 0) {
                *bin = j;
                *flat = k;
                return 1;
            }
    return 0;
}

static const char *shown(rtp_ns v, char *buf, size_t size)
{
    if (v < 0)
        snprintf(buf, size, "null");
    else
        snprintf(buf, size, "%lld ns", (long long)v);
    return buf;
}

static const char *const tail = ": this rehearsal is not of this plan";

/* Row k of the rehearsal against the plan: named once, placed, on its
 * bin's first CPU, held to bounds[] of its task. */
static rtp_status check_task(const rtp_plan *plan, const rtp_rehearse_report *r, size_t k,
                             const rtp_ns *bounds, rtp_diag *diag)
{
    char path[RTP_DIAG_PATH_SIZE], a[40], b[40];
    const rtp_rehearse_task *t = &r->tasks[k];
    size_t j = 0, f = 0;
    rtp_json_path_index(path, sizeof path, "tasks", k);
    size_t len = strlen(path);
    for (size_t e = 0; e < k; e++)
        if (strcmp(r->tasks[e].name, t->name) == 0) {
            snprintf(path + len, sizeof path - len, ".name");
            return rtp_diag_set(diag, RTP_EINPUT, path, "task \"%.60s\" is listed twice%s",
                                t->name, tail);
        }
    if (!find(plan, t->name, &j, &f)) {
        snprintf(path + len, sizeof path - len, ".name");
        return rtp_diag_set(diag, RTP_EINPUT, path, "the plan places no task \"%.60s\"%s",
                            t->name, tail);
    }
    const rtp_plan_bin *bin = &plan->bins[j];
    if (t->cpu != bin->cpus[0]) {
        snprintf(path + len, sizeof path - len, ".cpu");
        return rtp_diag_set(diag, RTP_EINPUT, path,
                            "%.60s ran on CPU %d; the plan places it on CPU %d%s", t->name,
                            t->cpu, bin->cpus[0], tail);
    }
    if (t->bound_ns != bounds[f]) {
        int fp = plan->policy == RTP_POLICY_FP || plan->policy == RTP_POLICY_GFP;
        snprintf(path + len, sizeof path - len, ".bound");
        return rtp_diag_set(diag, RTP_EINPUT, path, "%s for %.60s; the plan's bound (%s) is %s%s",
                            shown(t->bound_ns, a, sizeof a), t->name,
                            fp            ? "its response time"
                            : rtp_rehearse_soft_bin(plan, bin)
                                ? "its deadline plus its tardiness bound"
                                          : "its deadline",
                            shown(bounds[f], b, sizeof b), tail);
    }
    return RTP_OK;
}

rtp_status rtp_report_check_rehearsal(const rtp_plan *plan, const rtp_rehearse_report *r,
                                      const rtp_report_opts *opts, rtp_diag *diag)
{
    char a[40], b[40];
    size_t placed = 0;
    for (size_t j = 0; j < plan->n_bins; j++)
        placed += plan->bins[j].n_tasks;
    rtp_limits limits = opts ? opts->limits : rtp_limits_default();
    rtp_ns *bounds = calloc(placed ? placed : 1, sizeof *bounds);
    if (!bounds)
        return rtp_diag_set(diag, RTP_ENOMEM, "", "out of memory");
    rtp_status st = rtp_rehearse_bounds(plan, &limits, bounds, diag);
    for (size_t k = 0; k < r->n_tasks && st == RTP_OK; k++)
        st = check_task(plan, r, k, bounds, diag);
    free(bounds);
    if (st != RTP_OK)
        return st;
    if (r->n_tasks != placed) {
        for (size_t j = 0; j < plan->n_bins; j++)
            for (size_t i = 0; i < plan->bins[j].n_tasks; i++) {
                const char *name = plan->bins[j].tasks[i].task.name;
                int seen = 0;
                for (size_t k = 0; k < r->n_tasks && !seen; k++)
                    seen = strcmp(r->tasks[k].name, name) == 0;
                if (!seen)
                    return rtp_diag_set(diag, RTP_EINPUT, "tasks",
                                        "has no row for the plan's task \"%.60s\"%s", name, tail);
            }
    }
    if (opts && opts->margin_given &&
        rtp_ratio_cmp(opts->deploy.runtime_margin, r->runtime_margin) != 0) {
        rtp_ratio_format(r->runtime_margin, a, sizeof a);
        rtp_ratio_format(opts->deploy.runtime_margin, b, sizeof b);
        return rtp_diag_set(diag, RTP_EINPUT, "runtime_margin",
                            "the rehearsal ran with %s, --runtime-margin asks for %s: the "
                            "runtimes shown would not be the ones rehearsed", a, b);
    }
    return RTP_OK;
}

rtp_status rtp_report_check_probe(const rtp_plan *plan, const rtp_probe_report *p,
                                  rtp_diag *diag)
{
    for (size_t j = 0; j < plan->n_bins; j++) {
        if (plan->bins[j].n_tasks == 0)
            continue;
        for (size_t c = 0; c < plan->bins[j].n_cpus; c++) {
            int id = plan->bins[j].cpus[c], measured = 0;
            for (size_t k = 0; k < p->n_cpus && !measured; k++)
                measured = p->cpus[k].cpu == id;
            if (!measured) {
                char list[160] = "";
                for (size_t k = 0, used = 0; k < p->n_cpus && used < sizeof list; k++)
                    used += (size_t)snprintf(list + used, sizeof list - used, "%s%d",
                                             k ? "," : "", p->cpus[k].cpu);
                return rtp_diag_set(diag, RTP_EINPUT, "cpus",
                                    "the probe measured CPUs %s; the plan runs tasks on CPU %d: "
                                    "this probe is not of the plan's machine",
                                    list[0] ? list : "(none)", id);
            }
        }
    }
    return RTP_OK;
}
