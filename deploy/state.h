/* deploy/state.h — a deployment's recorded state, read from C (docs/spec.md
 * "Deployment state"). The launch script (deploy/launch.sh, whose preamble
 * lists the records) keeps deployment NAME's state in
 * STATE_DIR/NAME/state, one record per line, written before each change
 * it makes, and its task logs in LOG_DIR/NAME/LOGBASE.log. emit reads it
 * to refuse overwriting the script of a live deployment; rehearse reads the
 * PIDs and logs of what it deployed. Ownership: an rtp_deploy_state owns
 * its strings; free it with rtp_deploy_state_free. Thread-safe (no
 * globals); the files may change under a reader (a start in progress), so
 * a read is a snapshot. */
#ifndef RTP_DEPLOY_STATE_H
#define RTP_DEPLOY_STATE_H

#include "models/base.h"

#include <stddef.h>

/* The script's defaults; RTPACK_STATE_DIR and RTPACK_LOG_DIR override them
 * when it runs (the caller passes the same folder to these functions). */
#define RTP_DEPLOY_STATE_DIR "/run/rtpack"
#define RTP_DEPLOY_LOG_DIR "/var/log/rtpack"

typedef struct rtp_deploy_task_record {
    long pid;
    long long start_time; /* /proc/PID/stat field 22; -1 when not read */
    size_t bin;           /* bin index of the plan */
    char *log;            /* the task's log file (logdir/LOGBASE.log) */
    char *name;
} rtp_deploy_task_record;

typedef struct rtp_deploy_state {
    char *script;  /* absolute path of the script that ran start ("" if none) */
    char *root;    /* the cpuset folder */
    char *logdir;  /* LOG_DIR/NAME */
    long starter;  /* PID of the start process, 0 when not recorded */
    int started;   /* start finished (the "started" record) */
    size_t n_planned;
    rtp_deploy_task_record *tasks; /* in start order */
    size_t n_tasks, cap_tasks;
} rtp_deploy_state;

/* Reads STATE_DIR/NAME/state. RTP_EINPUT when it cannot be read or is not
 * a version-1 state file (diag says which). */
rtp_status rtp_deploy_state_read(const char *state_dir, const char *name,
                                 rtp_deploy_state *out, rtp_diag *diag);

void rtp_deploy_state_free(rtp_deploy_state *state);

/* 1 when the file at `path` (compared by device and inode) is the script
 * recorded by a deployment under state_dir that has not been stopped;
 * its name is copied to name (NUL-terminated, truncated to name_size).
 * 0 when not (or when path does not exist). */
int rtp_deploy_live_script(const char *state_dir, const char *path, char *name,
                           size_t name_size);

#endif
