/* deploy/emit.h — what `rtpack emit` makes of a plan, as one call into
 * memory (docs/spec.md "rtpack emit"): the rules between the format, the
 * options and the plan, the re-check (deploy/recheck.h), the warnings, and
 * the format's text (script, rt-app JSON of an FP plan, the re-checked plan
 * as JSON, the locks' C header) or files (systemd units; the rt-app files
 * and script of an EDF plan). Writing them is the caller's (models/fileio.h).
 *
 * Ownership: everything in rtp_emit_result is malloc'd; rtp_emit_result_free
 * frees it, after every call (failed ones too: the warnings gathered so far
 * stay; text and files are set only on success). Strings in the options are
 * borrowed. Thread-safety: pure, no
 * globals. */
#ifndef RTP_DEPLOY_EMIT_H
#define RTP_DEPLOY_EMIT_H

#include "deploy/options.h"
#include "deploy/systemd.h"
#include "models/plan.h"
#include "models/text.h"
#include "models/api.h"

RTP_API_BEGIN

typedef enum rtp_emit_format {
    RTP_EMIT_SCRIPT = 0, /* the launch script (deploy/script.h): text */
    RTP_EMIT_SYSTEMD,    /* units, target and script (deploy/systemd.h): files */
    RTP_EMIT_RTAPP,      /* rt-app (deploy/rtapp.h): FP text, EDF files */
    RTP_EMIT_JSON,       /* the plan, re-checked and judged deployable: text */
    RTP_EMIT_HEADER      /* the locks of a plan with resources, a C header: text */
} rtp_emit_format;

typedef struct rtp_emit_result {
    int deployable;         /* 0: Linux or the re-check refuses the plan (or a task has
                             * no command to launch): the reason in diag, RTP_OK */
    int options_error;      /* with RTP_EINPUT: the format or an option does not apply
                             * to this plan (the CLI's usage error) */
    char *text;             /* the one-file formats, else NULL */
    rtp_deploy_file *files; /* the folder formats, else NULL */
    size_t n_files;
    rtp_text warnings;      /* '\n'-ended lines for the user (standard error) */
} rtp_emit_result;

void rtp_emit_result_free(rtp_emit_result *out);

/* Emits `plan` in `format` with `opts` into *out (cleared first).
 * `plan_name` names the plan in messages ("the plan" when NULL); `dir` is
 * the absolute folder the rt-app files of an EDF plan will be written to
 * (they name it; RTP_EINPUT, options_error, when NULL), unused otherwise.
 * In order: the header format needs resources; rt-app cannot replay an MSRP
 * spin lock (and warns that its mutexes inherit, an FP plan with
 * resources); the SCHED_DEADLINE flags (rtp_deploy_flags_check) and a
 * launcher that this plan would not use (options_error); the re-check
 * (deployable); the warnings of priorities and locks; script and systemd
 * need every task's command (deployable); then the format. RTP_EINPUT for
 * options out of range (rtp_deploy_opts_check, options_error) and what the
 * emitters refuse; RTP_ELIMIT from the exact tests. */
rtp_status rtp_deploy_emit(const rtp_plan *plan, rtp_emit_format format,
                           const rtp_deploy_opts *opts,
                           const char *plan_name, const char *dir, rtp_emit_result *out,
                           rtp_diag *diag);

RTP_API_END
#endif
