/* rehearse/machine.h — the parts of the machine a deployment changes, as
 * text, so `rtpack rehearse` can say whether it left the machine as it
 * found it (docs/spec.md "rtpack rehearse": machine_restored). One line per cpuset
 * folder (with its sched_load_balance or partition setting) under the
 * cgroup v1 cpuset hierarchy or, without one, the cgroup v2 tree, and one
 * per real-time thread (SCHED_FIFO, SCHED_RR, SCHED_DEADLINE) with its
 * policy and priority; sorted, so two snapshots compare with strcmp.
 * Ownership: the caller frees the text. Reads /sys and /proc only;
 * thread-safe. */
#ifndef RTP_REHEARSE_MACHINE_H
#define RTP_REHEARSE_MACHINE_H

#include "models/base.h"

#include <stddef.h>

/* *text = the snapshot (malloc'd). `cgroup_base` is /sys/fs/cgroup unless
 * a test points it elsewhere; `proc` likewise /proc. */
rtp_status rtp_machine_snapshot(const char *cgroup_base, const char *proc, char **text,
                                rtp_diag *diag);

/* One line saying how `after` differs from `before` ("cpuset rtpack-x/0
 * left behind", "thread 123 (foo) SCHED_FIFO 60 left running", ...), or
 * "" when they are equal; at most `size` bytes. */
void rtp_machine_diff(const char *before, const char *after, char *out, size_t size);

#endif
