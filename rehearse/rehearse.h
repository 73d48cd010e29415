/* rehearse/rehearse.h — `rtpack rehearse` (docs/spec.md "rtpack rehearse"): deploy a
 * plan on this machine exactly as `emit --format script` would, with
 * rtpack-workload (rehearse/workload/main.c) in place of every task's
 * command, run it, tear it down, and report per task what the jobs saw next
 * to what the analysis promised. This is the loop that shows whether the
 * theory holds on the machine: a plan that passes here under the expected
 * load has met its deadlines on this kernel, with this release latency and
 * this runtime margin; one that misses says which task and by how much.
 *
 * Steps: re-check the plan (deploy/recheck.h; not deployable is
 * RTP_EINPUT), snapshot the machine (rehearse/machine.h), write the script
 * into a private folder under `scratch_parent` with the state and log
 * folders beside it, `sh SCRIPT start`, open every workload's counting
 * window (SIGUSR1) once all are ready, wait `seconds` (or until *interrupt
 * turns non-zero), close the windows (SIGUSR2), `sh SCRIPT stop` (SIGTERM:
 * every workload writes its result), read the results, snapshot again,
 * remove the folder.
 * Each job of task t burns floor(load x wcet_t) ns of CPU time. The bound
 * is the plan's response time under FP (null when none) and the deadline
 * under EDF; both count from the job's arrival, as the workload does. Under
 * SCHED_DEADLINE the arrivals are the kernel's own periods (the offset
 * between its clock and CLOCK_MONOTONIC measured first, rehearse/dlclock.h);
 * when that cannot be measured, the first job's start (report->grid_note).
 * With `hog`, a SCHED_OTHER busy loop pinned to each online CPU runs from
 * before start to the end of the measured window (a busy machine), and dies
 * with this process. The report is returned only once every workload and
 * hog has exited.
 *
 * The calling process becomes a child subreaper (PR_SET_CHILD_SUBREAPER), so
 * the workloads, orphaned when the launch script's shell exits, are reaped
 * here: the report comes only once no workload process is left, not even a
 * zombie that still shows as a real-time thread.
 *
 * The deployment is recorded under opts->state_dir like any other, guarded
 * by a watchdog that tears it down if rtpack dies first, and leftovers of
 * earlier rehearsals whose rtpack and watchdog are gone are stopped before
 * this one deploys (rehearse/guard.h; report->leftovers says which).
 *
 * Needs root (cpusets, real-time policies). Ownership: the report
 * (rehearse/rehearse_doc.h) owns its tasks (rtp_rehearse_report_free). Not thread-safe: it runs processes and
 * changes the machine; run one at a time. Never prints. */
#ifndef RTP_REHEARSE_H
#define RTP_REHEARSE_H

#include "deploy/recheck.h"
#include "models/plan.h"
#include "models/ratio.h"
#include "rehearse/rehearse_doc.h"

#include <signal.h>

typedef struct rtp_rehearse_opts {
    int seconds;                  /* how long the workload runs, >= 1 */
    rtp_ratio load;               /* fraction of the wcet each job burns, (0, 1] */
    int hog;                      /* a SCHED_OTHER busy loop pinned to every CPU */
    rtp_deploy_opts deploy;       /* as emit's; name and cmd_for are set here */
    const char *workload;         /* absolute path of rtpack-workload */
    const char *scratch_parent;   /* where the private folder goes ("/tmp") */
    const char *state_dir;        /* where the deployment's state goes, NULL =
                                   * RTP_DEPLOY_STATE_DIR: shared with every launch
                                   * script, so a later check/start sees a leftover */
    const volatile sig_atomic_t *interrupt; /* non-zero: stop early; may be NULL */
} rtp_rehearse_opts;

/* Runs the rehearsal. RTP_EINPUT: the plan is not deployable or the options
 * are bad (diag says why; nothing was changed). RTP_EINTERNAL: it could not
 * deploy (start failed: report->script_output), a task left no result, or
 * the machine differs afterwards (report->left); the report is filled as
 * far as it got. RTP_OK: every task reported (misses or not). */
rtp_status rtp_rehearse_run(const rtp_plan *plan, const rtp_rehearse_opts *opts,
                            rtp_rehearse_report *report, rtp_diag *diag);

/* 1 when rtp_rehearse_bounds holds bin's tasks to deadline + tardiness
 * bound: an EDF plan made with partition --soft, the bin accepted by the
 * soft test (test "soft"); a bin a hard test accepted meets its deadlines
 * (tardiness 0, as analyze says). Pure. */
int rtp_rehearse_soft_bin(const rtp_plan *plan, const rtp_plan_bin *bin);

/* The bound rehearse holds each placed task to, out[k] for the k-th task in
 * the plan's bin order: under FP its response_time (-1: none), on one CPU
 * without shared resources the one the re-check proves
 * (rtp_deploy_bin_responses), not the plan's member; under EDF
 * its deadline, and in a soft bin (rtp_rehearse_soft_bin) its deadline
 * plus its tardiness bound on the bin's effective tasks (solver/tardiness.h;
 * the deadline alone where the bounds do not apply). `report` checks a
 * rehearsal against the same numbers. Pure. RTP_ENOMEM, RTP_ELIMIT. */
rtp_status rtp_rehearse_bounds(const rtp_plan *plan, const rtp_limits *limits, rtp_ns *out,
                               rtp_diag *diag);


#endif
