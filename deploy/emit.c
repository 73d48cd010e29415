/* deploy/emit.c — `rtpack emit` as one call (deploy/emit.h): the rules
 * between format, options and plan, the re-check, the warnings, the text. */
#include "deploy/emit.h"

#include "deploy/locks.h"
#include "deploy/recheck.h"
#include "deploy/rtapp.h"
#include "deploy/script.h"

#include <stdlib.h>
#include <string.h>

void rtp_emit_result_free(rtp_emit_result *out)
{
    free(out->text);
    rtp_deploy_files_free(out->files, out->n_files);
    rtp_text_free(&out->warnings);
    memset(out, 0, sizeof *out);
    rtp_text_init(&out->warnings);
}

/* A rule between the format, the options and the plan. */
static rtp_status options_error(rtp_emit_result *out, rtp_status st)
{
    out->options_error = st == RTP_EINPUT;
    return st;
}

/* rt-app has mutexes (one process: the threads of its file) with one
 * global PTHREAD_PRIO_INHERIT switch, no ceiling and no spin lock: an MSRP
 * resource cannot be replayed, and a local one is an inheritance mutex
 * (warned about: not the ceiling protocol analysed). */
static rtp_status rtapp_locks(const rtp_plan *plan, const rtp_deploy_opts *opts,
                              const char *name, rtp_emit_result *out, rtp_diag *diag)
{
    if (plan->n_resources == 0)
        return RTP_OK;
    rtp_deploy_lock *locks = calloc(plan->n_resources, sizeof *locks);
    int ok = 0;
    rtp_diag scratch;
    rtp_diag_clear(&scratch);
    if (!locks)
        return rtp_oom(diag);
    if (rtp_deploy_locks(plan, opts, locks, &ok, &scratch) != RTP_OK || !ok)
        ok = 0; /* the re-check says why; nothing to add here */
    rtp_status st = RTP_OK;
    for (size_t r = 0; ok && st == RTP_OK && r < plan->n_resources; r++)
        if (locks[r].kind == RTP_LOCK_SPIN)
            st = options_error(out,
                               rtp_diag_set(diag, RTP_EINPUT, "",
                                            "%s: resource \"%s\" is an MSRP spin lock, which "
                                            "rt-app cannot replay (its mutexes suspend); emit "
                                            "--format header gives the application the lock "
                                            "instead",
                                            name, plan->resources[r].name));
    if (ok && st == RTP_OK && !rtp_deploy_is_deadline(plan))
        rtp_text_printf(&out->warnings, "warning: rt-app has no ceiling mutexes: its locks are "
                                        "PTHREAD_PRIO_INHERIT (\"pi_enabled\"), not the "
                                        "immediate ceiling protocol the analysis assumes\n");
    free(locks);
    return st;
}

/* The plan's locks as a C header (deploy/locks.h). */
static rtp_status lock_header(const rtp_plan *plan, const rtp_deploy_opts *opts, char **text,
                              rtp_diag *diag)
{
    rtp_deploy_lock *locks = calloc(plan->n_resources + 1, sizeof *locks);
    int ok;
    rtp_status st = !locks ? rtp_oom(diag) : rtp_deploy_locks(plan, opts, locks, &ok, diag);
    if (st == RTP_OK) {
        rtp_text t;
        rtp_text_init(&t);
        rtp_deploy_lock_header(plan, opts, locks, &t);
        if ((st = rtp_text_status(&t)) == RTP_OK)
            *text = rtp_text_take(&t);
        else
            st = rtp_oom(diag);
        rtp_text_free(&t);
    }
    free(locks);
    return st;
}

/* The priority and lock warnings of a plan the re-check accepted. */
static void plan_warnings(const rtp_plan *plan, const rtp_deploy_opts *opts,
                          rtp_emit_result *out)
{
    rtp_diag diag;
    rtp_diag_clear(&diag);
    rtp_deploy_priority_warnings(plan, opts, &out->warnings);
    rtp_deploy_lock *locks = calloc(plan->n_resources + 1, sizeof *locks);
    int ok;
    if (locks && rtp_deploy_locks(plan, opts, locks, &ok, &diag) == RTP_OK)
        rtp_deploy_lock_warnings(plan, locks, &out->warnings);
    free(locks);
}

/* The format itself, for a plan the re-check accepted. */
/* The re-checked plan document: the plan as judged deployable, each
 * response_time the re-check proves in place of the plan's own
 * (rtp_deploy_bin_responses; a hand-edited bound is not passed on). The
 * copy is shallow but for the bins and the task rows it rewrites. */
static rtp_status judged_json(const rtp_plan *plan, const rtp_deploy_opts *opts, char **text,
                              rtp_diag *diag)
{
    rtp_plan judged = *plan;
    judged.deploy_judged = judged.deployable = 1;
    size_t nb = plan->n_bins;
    rtp_plan_bin *bins = malloc((nb ? nb : 1) * sizeof *bins);
    rtp_plan_task **rows = calloc(nb ? nb : 1, sizeof *rows);
    rtp_status st = bins && rows ? RTP_OK : rtp_oom(diag);
    for (size_t j = 0; j < nb && st == RTP_OK; j++) {
        const rtp_plan_bin *bin = &plan->bins[j];
        bins[j] = *bin;
        rtp_ns *rt = malloc((bin->n_tasks ? bin->n_tasks : 1) * sizeof *rt);
        int have = 0;
        if (!rt || !(rows[j] = malloc((bin->n_tasks ? bin->n_tasks : 1) * sizeof *rows[j])))
            st = rtp_oom(diag);
        else
            st = rtp_deploy_bin_responses(plan, j, opts, rt, &have, diag);
        for (size_t i = 0; st == RTP_OK && i < bin->n_tasks; i++) {
            rows[j][i] = bin->tasks[i];
            if (have)
                rows[j][i].response_time_ns = rt[i];
        }
        if (st == RTP_OK)
            bins[j].tasks = rows[j];
        free(rt);
    }
    judged.bins = bins;
    if (st == RTP_OK && !(*text = rtp_plan_to_json(&judged, 1)))
        st = rtp_oom(diag);
    for (size_t j = 0; rows && j < nb; j++)
        free(rows[j]);
    free(rows);
    free(bins);
    return st;
}

static rtp_status render(const rtp_plan *plan, rtp_emit_format format,
                         const rtp_deploy_opts *opts, const char *dir, rtp_emit_result *out,
                         rtp_diag *diag)
{
    int edf = rtp_deploy_is_deadline(plan);
    if (format == RTP_EMIT_SCRIPT || format == RTP_EMIT_SYSTEMD) {
        rtp_deploy_cmds_present(plan, opts, &out->deployable, diag);
        if (!out->deployable)
            return RTP_OK;
    }
    if (format == RTP_EMIT_RTAPP && edf && !dir)
        return options_error(out,
                             rtp_diag_set(diag, RTP_EINPUT, "",
                                          "--format rtapp writes one file per CPU (cluster) of "
                                          "an EDF plan and the script that starts each in its "
                                          "cpuset: give --out DIR"));
    switch (format) {
    case RTP_EMIT_SCRIPT:
        return rtp_deploy_script(plan, opts, &out->text, &out->warnings, diag);
    case RTP_EMIT_SYSTEMD:
        return rtp_deploy_systemd(plan, opts, &out->files, &out->n_files, &out->warnings, diag);
    case RTP_EMIT_RTAPP:
        return edf ? rtp_deploy_rtapp_files(plan, opts, dir, &out->files, &out->n_files,
                                            &out->deployable, diag)
                   : rtp_deploy_rtapp(plan, opts, &out->text, &out->deployable, diag);
    case RTP_EMIT_HEADER:
        return lock_header(plan, opts, &out->text, diag);
    case RTP_EMIT_JSON:
        return judged_json(plan, opts, &out->text, diag);
    }
    return rtp_diag_set(diag, RTP_EINPUT, "", "unknown format");
}

rtp_status rtp_deploy_emit(const rtp_plan *plan, rtp_emit_format format,
                           const rtp_deploy_opts *opts, const char *plan_name, const char *dir,
                           rtp_emit_result *out, rtp_diag *diag)
{
    memset(out, 0, sizeof *out);
    rtp_text_init(&out->warnings);
    const char *name = plan_name ? plan_name : "the plan";
    rtp_status st = rtp_deploy_opts_check(opts, diag);
    if (st != RTP_OK)
        return options_error(out, st);
    if ((unsigned)format > RTP_EMIT_HEADER)
        return options_error(out, rtp_diag_set(diag, RTP_EINPUT, "", "unknown format"));
    if (format == RTP_EMIT_HEADER && plan->n_resources == 0)
        return options_error(out,
                             rtp_diag_set(diag, RTP_EINPUT, "",
                                          "--format header writes the locks of a plan with "
                                          "shared resources; %s has none",
                                          name));
    if (format == RTP_EMIT_RTAPP && (st = rtapp_locks(plan, opts, name, out, diag)) != RTP_OK)
        return st;
    /* a flag this plan or format cannot use */
    if ((st = rtp_deploy_flags_check(plan, opts, format == RTP_EMIT_RTAPP, diag)) != RTP_OK)
        return options_error(out, st);
    if (opts->launcher && !rtp_deploy_uses_launcher(plan, opts))
        return options_error(out,
                             rtp_diag_set(diag, RTP_EINPUT, "",
                                          "--launcher means nothing for this plan: its tasks "
                                          "do not start through a launcher (it is not "
                                          "SCHED_DEADLINE, or it has no --reclaim, no measured "
                                          "deadline_charge and no --overrun-signal)"));
    if ((st = rtp_deploy_check(plan, opts, &out->deployable, diag)) != RTP_OK ||
        !out->deployable)
        return st;
    plan_warnings(plan, opts, out);
    st = render(plan, format, opts, dir, out, diag);
    if (st == RTP_OK && rtp_text_status(&out->warnings) != RTP_OK)
        st = rtp_oom(diag);
    if (st != RTP_OK || !out->deployable) { /* never a partial output */
        free(out->text);
        rtp_deploy_files_free(out->files, out->n_files);
        out->text = NULL;
        out->files = NULL;
        out->n_files = 0;
    }
    return st;
}
