/* probe/probe.h — `rtpack probe`: measures this machine for the terms a
 * task set's analysis needs (docs/spec.md "rtpack probe"): kernel facts
 * (probe/facts.h), per-CPU SCHED_FIFO and SCHED_DEADLINE wake-up latency and
 * context-switch cost (probe/measure.h), the `platform` member with
 * `overheads` that pastes into a task set, and one warning per fact that
 * can break a plan, each saying its consequence.
 *
 * Overheads: release_latency is the largest `latency_stat` (max by default:
 * the analysis wants a bound, and the observed maximum is the closest thing
 * a measurement gives) over every measured CPU and both policies;
 * context_switch is the largest per-CPU p99 of one switch; lock is the
 * largest per-CPU p99 of one uncontended lock + unlock over the deployed
 * kinds (probe/lockcost.h; the p99 for the switch's reason: a slower try
 * was interrupted, which the release latency and the noise account for).
 * All are observations over the run, not proofs: the warnings say so.
 *
 * The machine is left as found: every thread returns to SCHED_OTHER and
 * exits, the temporary cpusets (probe/cpuset.h) are removed and the root's
 * sched_load_balance restored, a debugfs mounted for the facts is
 * unmounted; `stop` (set from a signal handler by the caller) ends the
 * measurement early and the same clean-up runs. Times are rtp_ns.
 * Ownership: the report (probe/probe_doc.h) is the caller's. Thread-safety:
 * one probe per machine at a time (the caller holds the machine lock). */
#ifndef RTP_PROBE_PROBE_H
#define RTP_PROBE_PROBE_H

#include <signal.h>

#include "probe/probe_doc.h"

typedef struct rtp_probe_opts {
    const int *cpus;          /* CPUs to measure; NULL = every online CPU we may use */
    size_t n_cpus;
    rtp_ns seconds_ns;        /* total: 4/5 latency (FIFO and DEADLINE rounds), 1/5 switch */
    rtp_ns period_ns;         /* wake-up period */
    int fifo_priority;
    rtp_ns dl_runtime_ns;
    rtp_probe_stat latency_stat;
    const char *root;         /* "" = this machine; a fixture tree: facts only, no measurement */
    const char *cpuset_base;  /* cgroup v1 cpuset mount */
    volatile sig_atomic_t *stop;
} rtp_probe_opts;

/* 10 s, 1 ms period, FIFO priority 90, DEADLINE 200 us every 1 ms, max,
 * root "", /sys/fs/cgroup/cpuset. */
rtp_probe_opts rtp_probe_opts_default(void);

/* Runs the probe into *report (initialised here; free it with
 * rtp_probe_report_free even on failure). RTP_EINPUT for a CPU that is not
 * online or not usable by this process; RTP_ELIMIT when interrupted through
 * `stop` (the machine is restored); RTP_EINTERNAL when something could not
 * be restored (the message says what is left). */
rtp_status rtp_probe_run(const rtp_probe_opts *opts, rtp_probe_report *report, rtp_diag *diag);

/* The warnings of a filled report (appended to report->warnings): pure,
 * exposed for tests. */
void rtp_probe_warn(rtp_probe_report *report);

/* Fills report->has_overheads and the overheads from the per-CPU results. */
void rtp_probe_overheads(rtp_probe_report *report);

#endif
