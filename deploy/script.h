/* deploy/script.h — the POSIX sh launch script of a plan (docs/spec.md
 * "Launch script", "Deployment state"; docs/deploy.md).
 *
 * `sh FILE start` checks root and the live kernel limits, creates one cpuset
 * per bin that has tasks (cgroup v1: cpus, mems copied from the parent,
 * cpu_exclusive=1 under EDF, the root's sched_load_balance saved and set to
 * 0, a load-balanced housekeeping cpuset for the other CPUs; cgroup v2:
 * cpuset.cpus.partition=root, with a CPU left to the root), then starts
 * every task in its cpuset, in a session of its own (setsid), its output in
 * a log file: EDF as `chrt -R -d --sched-runtime R --sched-deadline D
 * --sched-period P 0 CMD` (with opts->reclaim or overrun_signal as
 * `rtpack-launch --reset-on-fork [--reclaim] [--overrun-signal] --runtime R
 * --deadline D --period P -- CMD`, the script's start, check and run first
 * making sure the launcher exists), FP as `taskset -c CPUS chrt -f PRIO
 * CMD`; on the first failure it undoes everything. Each change is recorded
 * in the state file before it is made (deploy/state.h), so `stop` undoes
 * exactly what a start did, even a killed one, whatever the script file
 * says now. `status` reports each task as the kernel sees it; `check`
 * changes nothing. With opts->isolate the script also moves other
 * processes and IRQs to the CPUs the plan leaves free, and back on stop.
 * Hidden verbs for the systemd units: `cgroups-up`, `cgroups-down`, `run
 * BIN CMD...`. Times in the script are integer ns. The fixed part is
 * deploy/launch.sh. Every plan string reaches the script single-quoted
 * (deploy/quote.h).
 * Ownership: *script is malloc'd, the caller frees it. Thread-safe. */
#ifndef RTP_DEPLOY_SCRIPT_H
#define RTP_DEPLOY_SCRIPT_H

#include "deploy/recheck.h"
#include "models/text.h"
#include "models/api.h"

RTP_API_BEGIN

/* The launcher opts->launcher names by default (deploy/launcher/). */
#define RTP_DEPLOY_LAUNCHER "rtpack-launch"

/* 1 when the plan's deadline tasks start through the launcher: opts ask
 * for a flag chrt cannot set. */
int rtp_deploy_uses_launcher(const rtp_plan *plan, const rtp_deploy_opts *opts);

/* The SCHED_DEADLINE flags of opts (reclaim, overrun_signal) reach the
 * kernel only through the launcher, which the script and the systemd units
 * use for deadline tasks: RTP_EINPUT naming the option when a flag is set
 * and the plan is not SCHED_DEADLINE, or when `rtapp` (rt-app sets no
 * SCHED_DEADLINE flag). The emitters call it too. */
rtp_status rtp_deploy_flags_check(const rtp_plan *plan, const rtp_deploy_opts *opts, int rtapp,
                                  rtp_diag *diag);

/* Writes the script for a plan that rtp_deploy_check accepted. Warnings
 * (forking commands, ...) are appended to `warnings` (one line each).
 * RTP_EINPUT at the task's JSON path when a command is missing or unsafe. */
rtp_status rtp_deploy_script(const rtp_plan *plan, const rtp_deploy_opts *opts,
                             char **script, rtp_text *warnings, rtp_diag *diag);

/* The same script, but each bin j with bin_files[j] != NULL runs
 * `rt-app bin_files[j]` (an absolute path) inside its cpuset in place of
 * its tasks (deploy/rtapp.h): how a partitioned EDF rt-app workload gets
 * one root domain per CPU. */
rtp_status rtp_deploy_script_rtapp(const rtp_plan *plan, const rtp_deploy_opts *opts,
                                   const char *const *bin_files, char **script,
                                   rtp_diag *diag);

/* Appends one command word, quoted for its destination (rtp_quote_sh,
 * rtp_quote_systemd). */
typedef void (*rtp_quote_fn)(rtp_text *out, const char *word);

/* The task's command words (quote.h: rtp_quote_cmd_argv; opts->cmd_for's
 * when set), each quoted with `quote`, appended to out. */
/* Every placed task has a command to launch (its cmd, or opts->cmd_for's).
 * cmd is optional in plans, so a task without one makes the plan not
 * deployable as is by `script` or `systemd`, not malformed: *present = 0 and
 * diag (status RTP_OK, path "cpus[j].tasks[i].cmd") names the first such
 * task and the fix. rtp_deploy_cmd_words still refuses it (RTP_EINPUT). */
void rtp_deploy_cmds_present(const rtp_plan *plan, const rtp_deploy_opts *opts, int *present,
                             rtp_diag *diag);

rtp_status rtp_deploy_cmd_words(const rtp_plan *plan, size_t j, size_t i,
                                const rtp_deploy_opts *opts, rtp_quote_fn quote,
                                rtp_text *out, rtp_diag *diag);

/* The command words (EDF: chrt -R -d ..., or the launcher's; FP: taskset
 * -c ... chrt -f ...) that start task i of bin j, the task's own words
 * quoted with `quote`, appended to out; shared with the systemd emitter.
 * RTP_EINPUT when the task's command is missing or unsafe. */
rtp_status rtp_deploy_launch_words(const rtp_plan *plan, size_t j, size_t i,
                                   const rtp_deploy_opts *opts, rtp_quote_fn quote,
                                   rtp_text *out, rtp_diag *diag);

/* "0" or "2,3": bin j's CPUs as a Linux CPU list. */
void rtp_deploy_cpu_list(const rtp_plan_bin *bin, rtp_text *out);

/* Task i of the bin as deployed under SCHED_FIFO/RR: the bin's CPUs within
 * the task's affinity (its mask in a semi-partitioned plan, heuristics/
 * semi.h; every CPU of the bin for a task without one or covering it).
 * rtp_deploy_task_cpus writes them to out (bin->n_cpus entries) and returns
 * how many (0: the affinity names none, which rtp_deploy_check refuses);
 * rtp_deploy_task_cpu_list appends them as a Linux CPU list. */
size_t rtp_deploy_task_cpus(const rtp_plan_bin *bin, size_t i, int *out);
void rtp_deploy_task_cpu_list(const rtp_plan_bin *bin, size_t i, rtp_text *out);

RTP_API_END
#endif
