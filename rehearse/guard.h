/* rehearse/guard.h — a rehearsal never outlives rtpack unnoticed (docs/spec.md
 * "rtpack rehearse"): its deployment is recorded in the shared
 * state folder (RTP_DEPLOY_STATE_DIR, where every launch script's `check`
 * and `start` look for what holds the CPUs), a watchdog tears it down when
 * rtpack dies without doing so, and the next rehearsal stops a leftover whose
 * rtpack and watchdog are both gone.
 *
 * The watchdog is a child of rtpack in a session of its own (a terminal's
 * Ctrl-C or hang-up, and SIGTERM, do not reach it) that blocks reading a
 * pipe only rtpack can write: rtpack's death, SIGKILL included, closes it.
 * Unless rtpack wrote "done" first, the watchdog then waits for a start or
 * stop of the rehearsal's script still under way (a process running
 * `sh DIR/rehearse.sh`), runs the script's stop and removes the folder. Chosen over workloads that end themselves when
 * their parent dies (PR_SET_PDEATHSIG or a pipe): that would stop the tasks
 * but leave the cpusets and sched_load_balance = 0, which only the
 * script's stop restores. The workloads' own --max-seconds stays as the
 * last resort when the watchdog is killed too.
 *
 * A rehearsal's folder (`dir`) holds rehearse.sh, logs/, results/ and
 * `owner`: "rtpack PID START" and "watchdog PID START" (START: field 22 of
 * /proc/PID/stat, so a reused PID never passes for the process).
 * Not thread-safe (forks, waits); never prints. */
#ifndef RTP_REHEARSE_GUARD_H
#define RTP_REHEARSE_GUARD_H

#include "models/base.h"

#include <stddef.h>
#include <sys/types.h>

typedef struct rtp_rehearse_guard {
    int fd;    /* the pipe's write end (close-on-exec), -1 when none */
    pid_t pid; /* the watchdog */
} rtp_rehearse_guard;

/* Runs `sh SCRIPT VERB` with RTPACK_STATE_DIR = state_dir and
 * RTPACK_LOG_DIR = log_dir, its output to `out`, in a process group of its
 * own (a Ctrl-C at the terminal reaches rtpack only, which then stops the
 * run; a start or stop is never killed half way). The exit status, or -1
 * when it could not run. */
int rtp_rehearse_sh(const char *script, const char *verb, const char *state_dir,
                    const char *log_dir, const char *out);

/* Forks the watchdog of the rehearsal in `dir` (dir/rehearse.sh, dir/logs)
 * deployed under state_dir, and writes dir/owner. RTP_EINTERNAL when it
 * cannot (nothing is deployed then). */
rtp_status rtp_rehearse_guard_start(rtp_rehearse_guard *g, const char *dir,
                                    const char *state_dir, rtp_diag *diag);

/* The rehearsal tore itself down: the watchdog exits doing nothing, and is
 * reaped. Safe on a guard that never started. */
void rtp_rehearse_guard_disarm(rtp_rehearse_guard *g);

/* Before a rehearsal deploys: every deployment `rehearse_PID` under
 * state_dir whose rtpack and watchdog are both gone (or, without an owner
 * file, whose PID is gone) is stopped with its own script; one whose
 * watchdog is still at work is waited for (up to 30 s). `note` gets one
 * line naming each one stopped ("" when none). RTP_EINTERNAL when a
 * leftover cannot be stopped: diag names it and the exact command. A
 * rehearsal in progress (its rtpack alive) is left alone: the launch
 * script's clash check names it. */
rtp_status rtp_rehearse_leftovers(const char *state_dir, char *note, size_t size,
                                  rtp_diag *diag);

#endif
