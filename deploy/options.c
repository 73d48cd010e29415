/* deploy/options.c — see options.h. */
#include "deploy/options.h"
#include "deploy/quote.h"

#include <stdio.h>
#include <string.h>

rtp_deploy_opts rtp_deploy_opts_default(void)
{
    rtp_deploy_opts opts;
    memset(&opts, 0, sizeof opts);
    opts.budget = RTP_DEPLOY_BUDGET_DEFAULT;
    opts.fifo_lo = RTP_DEPLOY_FIFO_LO;
    opts.fifo_hi = RTP_DEPLOY_FIFO_HI;
    opts.name = "plan";
    opts.cgroup = RTP_CGROUP_AUTO;
    opts.cgroup_root = NULL;
    opts.duration_s = 10;
    opts.limits = rtp_limits_default();
    opts.runtime_margin = (rtp_ratio){0, 1};
    opts.reclaim = RTP_RECLAIM_AUTO;
    return opts;
}

void rtp_deploy_budget_format(rtp_ratio budget, char *buf, size_t size)
{
    rtp_ratio def = RTP_DEPLOY_BUDGET_DEFAULT;
    if (rtp_ratio_cmp(budget, def) == 0)
        snprintf(buf, size, "0.9 (the kernel's %lld/%lld)", (long long)def.num,
                 (long long)def.den);
    else
        rtp_ratio_format(budget, buf, size);
}

rtp_status rtp_deploy_opts_check(const rtp_deploy_opts *opts, rtp_diag *diag)
{
    char why[96];
    if (opts->budget.num <= 0 || opts->budget.den <= 0 || opts->budget.num > opts->budget.den)
        return rtp_diag_set(diag, RTP_EINPUT, "", "--budget must be in (0, 1]");
    if (opts->fifo_lo < 1 || opts->fifo_hi > 99 || opts->fifo_lo > opts->fifo_hi)
        return rtp_diag_set(diag, RTP_EINPUT, "", "--fifo-range wants LO:HI with 1 <= LO <= HI <= 99");
    if (!opts->name || !rtp_quote_is_ident(opts->name))
        return rtp_diag_set(diag, RTP_EINPUT, "",
                            "--name wants 1 to 32 characters of A-Z a-z 0-9 _ (it names cgroup folders)");
    if (opts->cgroup_root) {
        const char *r = opts->cgroup_root;
        if (r[0] != '/' || rtp_text_check_plain(r, why, sizeof why) != 0 || strstr(r, "/../") ||
            (strlen(r) >= 3 && strcmp(r + strlen(r) - 3, "/..") == 0))
            return rtp_diag_set(diag, RTP_EINPUT, "",
                                "--cgroup-root wants an absolute path without '..' or control characters");
    }
    if (opts->runtime_margin.num < 0 || opts->runtime_margin.den <= 0)
        return rtp_diag_set(diag, RTP_EINPUT, "", "--runtime-margin must be >= 0");
    if (opts->duration_s < 1)
        return rtp_diag_set(diag, RTP_EINPUT, "", "--duration wants a whole number of seconds >= 1");
    const char *l = opts->launcher;
    if (l && (!*l || *l == '-' || (strchr(l, '/') && *l != '/') ||
              rtp_text_check_plain(l, why, sizeof why) != 0))
        return rtp_diag_set(diag, RTP_EINPUT, "",
                            "--launcher wants a command name (looked up on PATH) or an absolute "
                            "path, without control characters or a leading '-'");
    return RTP_OK;
}


/* -1, 0, 1 as a < b, a == b, a > b. */
static int sign(int a, int b)
{
    return (a > b) - (a < b);
}

int rtp_deploy_keeps_given(const rtp_plan_bin *bin, const rtp_deploy_opts *opts)
{
    for (size_t a = 0; a < bin->n_tasks; a++) {
        const rtp_plan_task *ta = &bin->tasks[a];
        if (!ta->task.has_priority || ta->task.priority < opts->fifo_lo ||
            ta->task.priority > opts->fifo_hi)
            return 0;
        for (size_t b = 0; b < a; b++) {
            const rtp_plan_task *tb = &bin->tasks[b];
            if (sign(ta->priority, tb->priority) != sign(ta->task.priority, tb->task.priority))
                return 0;
        }
    }
    return bin->n_tasks > 0;
}

int rtp_deploy_fifo_priority(const rtp_plan_bin *bin, size_t i, const rtp_deploy_opts *opts)
{
    if (rtp_deploy_keeps_given(bin, opts))
        return bin->tasks[i].task.priority;
    return opts->fifo_lo + bin->tasks[i].priority - 1;
}

void rtp_deploy_priority_warnings(const rtp_plan *plan, const rtp_deploy_opts *opts,
                                  rtp_text *warnings)
{
    char cpus[64];
    if (rtp_deploy_is_deadline(plan))
        return;
    for (size_t j = 0; j < plan->n_bins; j++) {
        const rtp_plan_bin *bin = &plan->bins[j];
        size_t given = 0;
        for (size_t i = 0; i < bin->n_tasks; i++)
            given += bin->tasks[i].task.has_priority != 0;
        if (given == 0 || given < bin->n_tasks || rtp_deploy_keeps_given(bin, opts))
            continue;
        rtp_deploy_cpu_words(bin, cpus, sizeof cpus);
        rtp_text_printf(warnings, "warning: CPU %s: the given priorities do not fit --fifo-range "
                                  "%d:%d (or do not order the tasks as the plan does): the plan's "
                                  "ranks are used, from %d up\n",
                        cpus, opts->fifo_lo, opts->fifo_hi, opts->fifo_lo);
    }
}

int rtp_deploy_is_deadline(const rtp_plan *plan)
{
    return plan->policy == RTP_POLICY_EDF || plan->policy == RTP_POLICY_GEDF;
}

int rtp_deploy_reclaims(const rtp_plan *plan, const rtp_deploy_opts *opts)
{
    return rtp_deploy_is_deadline(plan) &&
           (opts->reclaim == 1 ||
            (opts->reclaim == RTP_RECLAIM_AUTO && plan->overheads.deadline_charge_ns > 0));
}

void rtp_deploy_bin_path(const rtp_plan *plan, size_t j, char *buf, size_t size)
{
    snprintf(buf, size, "%s[%zu]", plan->clustered ? "clusters" : "cpus", j);
}

rtp_status rtp_deploy_plain_names(const rtp_plan *plan, const char *need, size_t *n_tasks,
                                  rtp_diag *diag)
{
    char path[160], bin_path[48];
    *n_tasks = 0;
    for (size_t j = 0; j < plan->n_bins; j++) {
        for (size_t i = 0; i < plan->bins[j].n_tasks; i++, ++*n_tasks) {
            if (rtp_quote_is_plain_name(plan->bins[j].tasks[i].task.name))
                continue;
            rtp_deploy_bin_path(plan, j, bin_path, sizeof bin_path);
            snprintf(path, sizeof path, "%s.tasks[%zu].name", bin_path, i);
            return rtp_diag_set(diag, RTP_EINPUT, path,
                                "%s (1-64 of A-Z a-z 0-9 _ . -, not starting with . or -)", need);
        }
    }
    return RTP_OK;
}

void rtp_deploy_cpu_words(const rtp_plan_bin *bin, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t k = 0; k < bin->n_cpus && used < size; k++)
        used += (size_t)snprintf(buf + used, size - used, "%s%d", k ? "," : "", bin->cpus[k]);
}
