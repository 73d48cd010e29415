/* deploy/systemd.h — systemd units for a plan: one .service per task and a
 * .target that starts them all (docs/spec.md "systemd units and rt-app JSON").
 *
 * FP tasks: CPUAffinity=, CPUSchedulingPolicy=fifo, CPUSchedulingPriority=.
 * EDF tasks: systemd has no SCHED_DEADLINE and no exclusive cpusets, so a
 * oneshot unit runs the launch script's `cgroups-up`/`cgroups-down`, and each
 * task's ExecStart goes through the script's `run BIN chrt -R -d ...`
 * wrapper, which joins the bin's cpuset first. The script is one of the
 * files; units expect it at /etc/rtpack/rtpack-NAME.sh. What systemd cannot
 * express is written in the target's comment. Task names must be plain
 * names (quote.h): they become unit names. Ownership: the files and their
 * strings are malloc'd; free with rtp_deploy_files_free. Thread-safe. */
#ifndef RTP_DEPLOY_SYSTEMD_H
#define RTP_DEPLOY_SYSTEMD_H

#include "deploy/recheck.h"
#include "models/text.h"
#include "models/api.h"

RTP_API_BEGIN

typedef struct rtp_deploy_file {
    char *name;     /* file name, no directory part */
    char *content;
    int executable; /* 1 for the script */
} rtp_deploy_file;

rtp_status rtp_deploy_systemd(const rtp_plan *plan, const rtp_deploy_opts *opts,
                              rtp_deploy_file **files, size_t *n_files,
                              rtp_text *warnings, rtp_diag *diag);

void rtp_deploy_files_free(rtp_deploy_file *files, size_t n_files);

RTP_API_END
#endif
