/* deploy/rtapp.h — rt-app workloads that reproduce a plan [RTAPP]: one
 * thread per task running `run` = wcet every timer `period`, under
 * SCHED_DEADLINE (dl-runtime/dl-deadline/dl-period) or SCHED_FIFO
 * (priority, cpus), with "lock_pages" and per-thread logs.
 *
 * Which output is right (docs/spec.md "systemd units and rt-app JSON"):
 * an FP plan is one file, since a FIFO thread may be pinned to its CPU with
 * "cpus"; an EDF plan is one file per CPU (cluster) plus a launch script
 * that starts each rt-app inside that bin's exclusive cpuset, since Linux
 * refuses a deadline thread an affinity narrower than its root domain, and
 * one rt-app process with every thread would run them as global EDF.
 * rt-app takes whole microseconds, so times are rounded the safe way —
 * wcet/runtime up, deadline and period down — and the rounded plan is
 * re-checked (rtp_deploy_check) before anything is written.
 * Ownership: outputs are malloc'd, the caller frees them. Thread-safe. */
#ifndef RTP_DEPLOY_RTAPP_H
#define RTP_DEPLOY_RTAPP_H

#include "deploy/recheck.h"
#include "deploy/systemd.h"
#include "models/text.h"
#include "models/api.h"

RTP_API_BEGIN

/* ns -> us, rounded up / down (one named conversion per direction,
 * HACKING.md "Numbers"). */
int64_t rtp_ns_to_us_ceil(rtp_ns t);
int64_t rtp_ns_to_us_floor(rtp_ns t);

/* Per-thread log buffer, MB: rt-app writes it out at the end, so the
 * threads do no file I/O while they run. */
#define RTP_RTAPP_LOG_MB 4

/* The single file of an FP plan (logs to ./rtpack-NAME-*.log where rt-app
 * runs). *deployable = 0 with the reason in diag when the rounded plan
 * fails the re-check (then *json stays NULL). RTP_EINPUT for an EDF plan
 * (use rtp_deploy_rtapp_files) or when a task name is not a plain name
 * (quote.h: rt-app uses it as a thread and file name). */
rtp_status rtp_deploy_rtapp(const rtp_plan *plan, const rtp_deploy_opts *opts,
                            char **json, int *deployable, rtp_diag *diag);

/* The files of an EDF (or any) plan for folder `dir` (absolute; the files
 * name it): rtpack-NAME-BIN.rtapp.json per bin with tasks (logs into dir,
 * calibrated on the bin's first CPU) and rtpack-NAME-rtapp.sh, the launch
 * script (deploy/script.h) that runs `rt-app FILE` in each bin's cpuset.
 * Free with rtp_deploy_files_free. *deployable as above. */
rtp_status rtp_deploy_rtapp_files(const rtp_plan *plan, const rtp_deploy_opts *opts,
                                  const char *dir, rtp_deploy_file **files, size_t *n_files,
                                  int *deployable, rtp_diag *diag);

RTP_API_END
#endif
