/* rehearse/shared_lock.h — the locks a rehearsal's workloads take
 * (docs/spec.md "Shared resources", "rtpack rehearse"): one file per
 * resource in the rehearsal's private folder, mapped shared by every
 * workload process, holding a process-shared mutex of the protocol emit
 * gives the resource (PTHREAD_PRIO_PROTECT with its ceiling,
 * PTHREAD_PRIO_INHERIT; deploy/locks.h) and, for MSRP, a FIFO ticket spin
 * lock taken at a raised SCHED_FIFO priority — exactly what `emit --format
 * header` tells an application to do. Not thread-safe per lock object
 * beyond what the lock itself guarantees; no globals. */
#ifndef RTP_REHEARSE_SHARED_LOCK_H
#define RTP_REHEARSE_SHARED_LOCK_H

#include "deploy/locks.h"

#include <pthread.h>
#include <stdatomic.h>

typedef struct rtp_shared_lock {
    pthread_mutex_t mutex;   /* PROTECT / INHERIT */
    atomic_uint next, owner; /* SPIN: tickets */
} rtp_shared_lock;

/* Creates (or replaces) the file at path holding a lock of `kind` with
 * `ceiling` (PROTECT). RTP_EINTERNAL with diag naming the call that failed. */
rtp_status rtp_shared_lock_create(const char *path, rtp_deploy_lock_kind kind, int ceiling,
                                  rtp_diag *diag);

/* The lock of the file at path, mapped shared; NULL (errno set) on failure. */
rtp_shared_lock *rtp_shared_lock_open(const char *path);

/* Takes / gives the lock the way its kind wants (SPIN: raise the caller to
 * SCHED_FIFO `priority` first, *restore = the priority to go back to).
 * 0 or an errno value. */
int rtp_shared_lock_take(rtp_shared_lock *l, rtp_deploy_lock_kind kind, int priority,
                         int *restore);
int rtp_shared_lock_give(rtp_shared_lock *l, rtp_deploy_lock_kind kind, int restore);

#endif
