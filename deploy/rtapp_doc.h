/* deploy/rtapp_doc.h — writes an rt-app workload description (rt-app's JSON
 * "global" + "tasks" objects; see rt-app's doc/tutorial.txt) from plain
 * values, so that deploy/ never touches cJSON (HACKING.md "Architecture").
 *
 * Times are whole microseconds, rt-app's unit; the caller rounds them.
 * Every field rt-app would otherwise default (dl-period, priority) is
 * written. Ownership: the returned text is malloc'd, the caller frees it.
 * Thread-safety: no globals. */
#ifndef RTP_RTAPP_DOC_H
#define RTP_RTAPP_DOC_H

#include <stddef.h>
#include <stdint.h>

/* One critical section of a job: "lockK": lock, "runK": run_us,
 * "unlockK": lock (K counts a thread's sections), before the job's "run". */
typedef struct rtp_rtapp_section {
    const char *lock;
    int64_t run_us;
} rtp_rtapp_section;

typedef struct rtp_rtapp_thread {
    const char *name;       /* thread name and timer reference */
    int deadline;           /* 1 = SCHED_DEADLINE, 0 = SCHED_FIFO or SCHED_RR */
    int rr;                 /* not deadline: SCHED_RR */
    int priority;           /* SCHED_FIFO priority (0 under SCHED_DEADLINE) */
    int64_t run_us;         /* execution per job ("run") */
    int64_t period_us;      /* job release period ("timer") */
    int64_t dl_runtime_us, dl_deadline_us, dl_period_us; /* SCHED_DEADLINE only */
    const int *cpus;        /* affinity, NULL = none written */
    size_t n_cpus;
    const rtp_rtapp_section *sections; /* n_sections, in order, or NULL */
    size_t n_sections;
} rtp_rtapp_thread;

/* rt-app's "global" object. */
typedef struct rtp_rtapp_global {
    int duration_s;           /* "duration" */
    int calibration_cpu;      /* "calibration": "CPU<n>" */
    const char *logdir;       /* "logdir" */
    const char *log_basename; /* "log_basename" */
    int log_size_mb;          /* "log_size": per-thread buffer, written at the end */
    int pi_enabled;           /* "pi_enabled": true (every mutex PTHREAD_PRIO_INHERIT);
                               * left out when 0 */
} rtp_rtapp_global;

/* The rt-app document (pretty-printed, final newline), with "lock_pages":
 * true (no page fault in a real-time thread); NULL when out of memory. */
char *rtp_rtapp_doc_to_json(const rtp_rtapp_thread *threads, size_t n,
                            const rtp_rtapp_global *global);

#endif
