/* deploy/locks.h — shared resources on Linux (docs/spec.md "Shared
 * resources"): how each resource of a plan is realised, the re-check of a
 * plan with resources, and the C header `emit --format header` writes.
 *
 * SCHED_FIFO plans: a local resource is a PTHREAD_PRIO_PROTECT mutex whose
 * ceiling is the FIFO priority of its most urgent user (the immediate
 * priority ceiling protocol [SRL90]); a resource run by MSRP [GLD01] is a
 * FIFO-ordered spin lock taken at a FIFO priority above every task of the
 * plan (fifo_hi + 1), so its section is non-preemptive on its CPU.
 * SCHED_DEADLINE plans: PTHREAD_PRIO_PROTECT fails with EINVAL there, so a
 * local resource is a PTHREAD_PRIO_INHERIT mutex; its holder is boosted
 * into the deadline class unthrottled while boosted (bandwidth beyond its
 * runtime), and inheritance is not SRP (warned about, both points); an MSRP
 * resource cannot be deployed (no user-space non-preemptive section for a
 * deadline task): refused. FMLP+ resources (FP plans only) are written as
 * PTHREAD_PRIO_INHERIT mutexes with a warning: Linux queues PI waiters by
 * priority and boosts by inheritance, which is not FMLP+ [Bra11].
 * (docs/platform-notes.md.)
 * Pure, no globals, thread-safe; outputs are the caller's. */
#ifndef RTP_DEPLOY_LOCKS_H
#define RTP_DEPLOY_LOCKS_H

#include "deploy/recheck.h"

typedef enum rtp_deploy_lock_kind {
    RTP_LOCK_UNUSED = 0, /* no task of the plan uses it */
    RTP_LOCK_PROTECT,    /* PTHREAD_PRIO_PROTECT, ceiling = a FIFO priority */
    RTP_LOCK_INHERIT,    /* PTHREAD_PRIO_INHERIT (SCHED_DEADLINE plans) */
    RTP_LOCK_SPIN        /* MSRP: FIFO spin lock at FIFO priority `ceiling` */
} rtp_deploy_lock_kind;

typedef struct rtp_deploy_lock {
    rtp_deploy_lock_kind kind;
    int ceiling;         /* PROTECT: the ceiling; SPIN: the priority; else 0 */
    int global;          /* users on two or more CPUs */
} rtp_deploy_lock;

/* out[r] for each of plan->n_resources. *ok = 0 with the reason in diag
 * (status RTP_OK) when Linux cannot realise one (MSRP under
 * SCHED_DEADLINE, no FIFO priority left above fifo_hi). */
rtp_status rtp_deploy_locks(const rtp_plan *plan, const rtp_deploy_opts *opts,
                            rtp_deploy_lock *out, int *ok, rtp_diag *diag);

/* The re-check of a plan with resources: rtp_deploy_locks, then every bin
 * with the deployed tasks (rtp_deploy_bin_tasks) analysed at once with the
 * spins and blocking of the whole placement (solver/locks.h), the plan's
 * priorities. *ok = 0 with the reason in diag (status RTP_OK). */
rtp_status rtp_deploy_locks_check(const rtp_plan *plan, const rtp_deploy_opts *opts, int *ok,
                                  rtp_diag *diag);

/* The header for the application: per resource its protocol and ceiling
 * (macros RTPACK_LOCK_<i>_*, i = the resource's index, with its name as a
 * C string) and rtpack_lock_init(), which sets up a process-shared mutex
 * of that protocol. Appended to out. */
void rtp_deploy_lock_header(const rtp_plan *plan, const rtp_deploy_opts *opts,
                            const rtp_deploy_lock *locks, rtp_text *out);

/* The warning lines (each '\n'-ended) emit prints for a SCHED_DEADLINE plan
 * with resources; nothing otherwise. */
void rtp_deploy_lock_warnings(const rtp_plan *plan, const rtp_deploy_lock *locks,
                              rtp_text *out);

#endif
