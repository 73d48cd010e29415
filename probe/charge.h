/* probe/charge.h — what SCHED_DEADLINE charges a job beyond the job's own
 * execution, and the noise a running job meets (docs/spec.md "rtpack probe"
 * and "The SCHED_DEADLINE charge"): the measurements behind
 * platform.overheads.deadline_charge and noise_per_ms.
 *
 * Per CPU (inside its one-CPU root domain when the caller gives cgroup
 * "tasks" files, as for the latencies), one SCHED_DEADLINE thread runs jobs
 * of each length L in {0, 100 us, 1 ms, 10 ms} of its own execution, each
 * job ended by sched_yield() and released by the kernel's replenishment, the
 * pattern docs/deploy.md recommends. A job's own execution is the time its
 * busy loop advances CLOCK_MONOTONIC in steps of at most
 * RTP_CHARGE_STEP_NS; a longer step is noise, time something else took
 * (an interrupt, the tick, the hypervisor): osnoise's method [LinuxOSN].
 * The budget a job consumed is the CPU time the kernel accounted to the
 * thread during it (schedstat's first field: the delta update_curr_dl_se
 * also takes from dl_se->runtime [LinuxDL]), read by a monitor thread on
 * the same CPU while the job's thread waits for its next period, and only
 * when two reads agree and the next job has not begun. Per job:
 *   budget excess = consumed - own,  wall excess = body's wall time - own.
 * Each length runs with a runtime far above L (L + L/4 + 500 us, period
 * three times that), so the budget never cuts a job short; a job that was cut
 * anyway is counted as throttled and left out of the wall figures. The
 * monitor runs SCHED_FIFO 1 (above any normal thread, a CPU hog included,
 * below the worker), so it reads between the jobs even on a busy CPU.
 *
 * Fit (rtp_probe_charge_fit): per_ms is the slope that carries the largest
 * excess of the shortest job up to that of the longest (either kind), fixed
 * the smallest constant with fixed + per_ms x L covering every measured
 * length's largest budget excess: C' = wcet + ceil(wcet x per_ms / 1 ms) +
 * fixed then covers what every job measured was charged.
 *
 * Threads block every signal (the caller's handler sets run->stop, polled
 * between jobs), return to SCHED_OTHER and leave their cgroup before they
 * exit. Times are rtp_ns. Thread-safety: one run per process at a time. */
#ifndef RTP_PROBE_CHARGE_H
#define RTP_PROBE_CHARGE_H

#include "probe/measure.h"

#define RTP_CHARGE_STEP_NS ((rtp_ns)1000)

/* The lengths measured, shortest first. */
extern const rtp_ns rtp_probe_charge_lengths[RTP_PROBE_CHARGE_LENGTHS];

/* Measures every CPU of run (run->join_tasks / leave_tasks as for the
 * latencies; NULL = one unpinned thread per CPU on the whole root domain,
 * every CPU then gets the merged figures) for run->duration_ns in all.
 * out has run->n_cpus entries, fitted. 0, or an errno when nothing could
 * be measured (why says what failed). */
int rtp_probe_charge_run(const rtp_probe_job *run, rtp_probe_charge *out, char *why,
                         size_t why_size);

/* Fills c->fixed_ns and c->per_ms_ns from c->len (pure; for tests). */
void rtp_probe_charge_fit(rtp_probe_charge *c);

#endif
