/* probe/lockcost.h — the lock overhead `rtpack probe` measures
 * (docs/spec.md "Lock overheads" and "rtpack probe"): per CPU, a thread
 * pinned there under SCHED_FIFO at the probe's priority takes and releases,
 * uncontended, each kind of lock rtpack deploys (deploy/locks.h,
 * rehearse/shared_lock.h), in short bursts of tries with the kinds
 * interleaved so that each sees the same background load:
 *   protect: a process-shared PTHREAD_PRIO_PROTECT mutex whose ceiling is
 *            one above the thread's priority (so the lock raises it and the
 *            unlock restores it: the two priority changes every deployed
 *            ceiling lock pays);
 *   inherit: a process-shared PTHREAD_PRIO_INHERIT mutex (uncontended: the
 *            user-space fast path; its contended path is a suspension,
 *            charged by the FMLP+ analysis, solver/fmlp.h);
 *   spin:    the MSRP ticket lock's sequence: raise to one above the
 *            thread's priority, take a ticket, pass it on, restore.
 * One try = CLOCK_MONOTONIC after the unlock - before the lock (one clock
 * read included: a little more, never less, than the pair costs).
 * Every thread blocks signals, polls `stop` between bursts, returns to
 * SCHED_OTHER before it exits. Times rtp_ns. No globals; one call at a
 * time per process is sensible. */
#ifndef RTP_PROBE_LOCKCOST_H
#define RTP_PROBE_LOCKCOST_H

#include "probe/measure.h"

/* Tries per kind and CPU, in bursts of RTP_PROBE_LOCK_BURST a few ms apart. */
#define RTP_PROBE_LOCK_TRIES 6000
#define RTP_PROBE_LOCK_BURST 100

/* out[i * RTP_PROBE_LOCK_KINDS + k]: kind k on run->cpus[i]. Needs
 * SCHED_FIFO at run->fifo_priority (1..98, so the ceiling fits). 0, or an
 * errno with why saying what failed. */
int rtp_probe_lock_run(const rtp_probe_job *run, rtp_probe_lock_cost *out, char *why,
                       size_t why_size);

#endif
