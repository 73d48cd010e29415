/* models/rtapp_doc.h — writes an rt-app workload description (rt-app's JSON
 * "global" + "tasks" objects; see rt-app's doc/tutorial.txt) from plain
 * values, so that deploy/ never touches cJSON (HACKING.md "Layers").
 *
 * Times are whole microseconds, rt-app's unit; the caller rounds them.
 * Every field rt-app would otherwise default (dl-period, priority) is
 * written. Ownership: the returned text is malloc'd, the caller frees it.
 * Thread-safety: no globals. */
#ifndef RTP_RTAPP_DOC_H
#define RTP_RTAPP_DOC_H

#include <stddef.h>
#include <stdint.h>

typedef struct rtp_rtapp_thread {
    const char *name;       /* thread name and timer reference */
    int deadline;           /* 1 = SCHED_DEADLINE, 0 = SCHED_FIFO */
    int priority;           /* SCHED_FIFO priority (0 under SCHED_DEADLINE) */
    int64_t run_us;         /* execution per job ("run") */
    int64_t period_us;      /* job release period ("timer") */
    int64_t dl_runtime_us, dl_deadline_us, dl_period_us; /* SCHED_DEADLINE only */
    const int *cpus;        /* affinity, NULL = none written */
    size_t n_cpus;
} rtp_rtapp_thread;

/* The rt-app document (pretty-printed, final newline); NULL when out of
 * memory. duration_s: rt-app's global "duration". */
char *rtp_rtapp_doc_to_json(const rtp_rtapp_thread *threads, size_t n, int duration_s);

#endif
