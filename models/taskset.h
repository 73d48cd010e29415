/* models/taskset.h — the task-set model and its JSON form (docs/spec.md
 * "Task-set document").
 *
 * A task is (wcet, deadline, period) in integer ns plus optional release
 * jitter and blocking (0 when absent), launch command, CPU affinity and given
 * priority; the platform may state its overheads (docs/spec.md "Real-system
 * terms"; the effective terms they make are models/effective.h's).
 * Reading validates everything docs/spec.md asks for (unknown/duplicate
 * keys, duplicate names, exact times, platform shape) and reports the first problem as RTP_EINPUT with its JSON
 * path in the rtp_diag. cJSON is behind models/json_util.h (reading only:
 * documents are written by models/json_write.h); the modules that read
 * documents back (probe/, rehearse/, explore/) reach it through that header.
 * Ownership: an rtp_taskset owns all its strings and arrays; free it with
 * rtp_taskset_free. The names of the tasks a reader or generator made share
 * one allocation, the set's name block (one malloc per set, not one per
 * task: ~50 of them per set cost glibc's allocator 3% of a two-thread
 * batch); a task name anywhere else is that task's own allocation (a set
 * built by hand, a name replaced). Thread-safety: no globals (cJSON's global error pointer
 * is never used); distinct objects may be used from distinct threads. */
#ifndef RTP_TASKSET_H
#define RTP_TASKSET_H

#include "models/base.h"
#include "models/fileio.h"
#include "models/api.h"

RTP_API_BEGIN

/* The longest task name in bytes (UTF-8). */
#define RTP_TASK_NAME_MAX 255

/* A command Linux can run (docs/spec.md "Task-set document"): no word
 * longer than MAX_ARG_STRLEN - 1 (131071 bytes; execve says E2BIG), and the
 * whole argv — each word, its NUL and its pointer — within 128 KiB, the
 * argument space every Linux grants whatever its stack limit (ARG_MAX is a
 * quarter of the stack limit, never below 32 pages). A command past that
 * starts nowhere; a script holding 300,000 words crashed dash. */
#define RTP_CMD_WORD_MAX 131071
#define RTP_CMD_ARGV_MAX 131072

/* A resource's protocol (docs/spec.md "Shared resources"): AUTO is a
 * ceiling protocol (PCP under FP, SRP under EDF) while every user shares one
 * CPU and MSRP otherwise; CEILING insists on one CPU; MSRP always spins
 * non-preemptively; FMLP is the partitioned preemptive FMLP+ (FP only: a
 * waiting job suspends, solver/fmlp.h), on one CPU or several. */
typedef enum rtp_lock_protocol {
    RTP_LOCK_AUTO = 0,
    RTP_LOCK_CEILING,
    RTP_LOCK_MSRP,
    RTP_LOCK_FMLP
} rtp_lock_protocol;

typedef struct rtp_resource {
    char *name;
    rtp_lock_protocol protocol;
    int protocol_word;  /* 0, or 1 + the index of the word the input gave
                         * (auto, pcp, srp, msrp, fmlp+), written back as given */
} rtp_resource;

/* platform.overheads (times in ns, 0 when absent; docs/spec.md
 * "Real-system terms" and "The SCHED_DEADLINE charge"). */
typedef struct rtp_overheads {
    rtp_ns release_latency_ns; /* added to every task's jitter */
    rtp_ns context_switch_ns;  /* charged twice to every job's execution */
    rtp_ns deadline_charge_ns; /* SCHED_DEADLINE: budget a job consumes beyond
                                * its own CPU time (dispatch paths), per job */
    rtp_ns noise_per_ms_ns;    /* CPU time taken from a running job by
                                * interrupts, the tick, the hypervisor, per
                                * ms of its execution; < 1 ms */
    rtp_ns lock_ns;            /* "lock": one uncontended lock + unlock of
                                * a deployed lock, charged per critical
                                * section (rtp_request_held) */
} rtp_overheads;

/* A task's critical sections on one resource: at most `count` per job,
 * each at most length_ns, not nested. np, susp and spin_ns are analysis
 * terms (solver/locks.h): np = the sections run non-preemptively (MSRP),
 * susp = a job waiting for one suspends (FMLP+, solver/fmlp.h), spin_ns =
 * the longest spin before one of them; as read, np is 1 only for an MSRP
 * resource, susp only for an FMLP+ one, and spin_ns is 0 (one CPU: nobody
 * to spin for). What the platform adds to a section (the lock overhead,
 * context switches, the wake-up) is not part of the request: it comes from
 * the overheads an analysis is given, rtp_request_held and rtp_task.charged
 * (docs/spec.md "Lock overheads"). */
typedef struct rtp_request {
    size_t resource;    /* index into the task set's resources */
    rtp_ns count;
    rtp_ns length_ns;
    int np;
    rtp_ns spin_ns;
    int susp;
} rtp_request;

typedef struct rtp_task {
    char *name;
    rtp_ns wcet_ns;
    rtp_ns deadline_ns; /* defaults to period_ns */
    rtp_ns period_ns;
    rtp_ns jitter_ns;   /* release jitter: released within [a, a + jitter] of arrival a */
    rtp_ns blocking_ns; /* longest blocking of one job by lower-priority /
                         * longer-deadline work on its CPU */
    char **cmd;         /* argv (cmd_len entries) or NULL */
    size_t cmd_len;
    int cmd_is_string;  /* input gave `cmd` as one string: cmd[0] holds it */
    int *affinity;      /* Linux CPU ids the task may use, NULL = any */
    size_t affinity_len;
    int has_priority;
    int priority;       /* given priority, larger = more urgent */
    rtp_request *requests; /* n_requests critical-section declarations, or NULL */
    size_t n_requests;
    int rr;             /* "policy": "rr": SCHED_RR among equal priorities
                         * (solver/rr.h), else SCHED_FIFO */
    rtp_overheads charged; /* an effective copy's overheads (models/effective.h):
                            * what the lock solvers hold this task's
                            * critical sections with (rtp_task_held) and
                            * wake an FMLP+ holder with; all 0 in a declared
                            * task, which nothing charges. Invariant: the
                            * overheads this copy's C' and J' were made
                            * with, every section held with them checked.
                            * Written only by rtp_effective_tasks (with C'
                            * and J', in the same call) and
                            * rtp_effective_charge (deploy's runtimes: the
                            * overheads its plan was analysed with,
                            * rtp_deploy_analysed); any other copy moves it
                            * with C' and J'. So it cannot go stale; the
                            * one other overhead an analysis takes, the
                            * switch of a SCHED_RR turn (rtp_test.rr), its
                            * callers take from the same overheads. */
} rtp_task;


typedef struct rtp_platform {
    int *cpus;          /* Linux CPU ids, in input order */
    size_t n_cpus;      /* 0 when platform.cpus is absent (cpus NULL) */
    int **clusters;     /* optional disjoint lists of CPU ids */
    size_t *cluster_len;
    size_t n_clusters;
    int cpus_given_as_count; /* input said "cpus": M */
    int has_overheads;       /* input had "overheads" (written back as given) */
    rtp_overheads overheads;
    rtp_ns rr_quantum_ns;    /* "rr_quantum": SCHED_RR quantum, 0 = not given
                              * (Linux's default, RTP_RR_QUANTUM_DEFAULT_NS) */
    rtp_ns tick_ns;          /* "tick": the scheduler tick period, 0 = not given */
} rtp_platform;

/* Linux's default SCHED_RR quantum, RR_TIMESLICE: 100 ms. */
#define RTP_RR_QUANTUM_DEFAULT_NS 100000000LL

typedef struct rtp_taskset {
    rtp_ns time_unit_ns;  /* unit of bare integers; 1 = ns */
    int has_platform;
    rtp_platform platform;
    rtp_task *tasks;
    size_t n_tasks;
    rtp_resource *resources; /* top-level "resources", or NULL */
    size_t n_resources;
    char *name_block;      /* NULL, or one allocation of name_block_size bytes
                            * holding the NUL-terminated names that point
                            * into it; they are freed with it, never alone
                            * (to rename such a task, point its name at a
                            * new allocation, which the set then owns) */
    size_t name_block_size;
} rtp_taskset;

/* The protocol's name in outputs: "pcp" (FP) or "srp" (EDF) for a ceiling
 * protocol, "msrp", "auto". */
const char *rtp_lock_protocol_name(rtp_lock_protocol p, rtp_policy policy);

/* Frees n resources and their names (res may be NULL). */
void rtp_resources_free(rtp_resource *res, size_t n);

/* Deep copy of n resources into *to (NULL when n == 0). RTP_ENOMEM. */
rtp_status rtp_resources_copy(const rtp_resource *from, size_t n, rtp_resource **to);

/* How long an analysis with the overheads ov (NULL: none) takes a section
 * of q to hold its resource: length_ns + lock, and for a suspension-based
 * (FMLP+) request also release_latency + 2 x context_switch: the holder's
 * wake-up after the hand-over, its switch in and the switch away after the
 * section [Bra11]. The one place this length is computed: C'
 * (rtp_effective_wcet), the check of rtp_effective_charge and the solvers
 * (rtp_task_held) all come here. RTP_ELIMIT (*out untouched) past 2^62 ns. */
rtp_status rtp_request_held(const rtp_request *q, const rtp_overheads *ov, rtp_ns *out);

/* rtp_request_held of task's k-th request with task->charged, for the
 * solvers. It fits: whatever sets charged has checked every section of the
 * task with it (rtp_effective_tasks, rtp_effective_charge), and a declared
 * task's charged is all 0 (the length itself). A task whose charged was
 * set otherwise, against that contract, gets RTP_NS_LIMIT (more than any
 * deadline: no test passes with it), never a wrapped value. */
static inline rtp_ns rtp_task_held(const rtp_task *task, size_t k)
{
    rtp_ns held; /* inline: the lock solvers' inner loops call it */
    return rtp_request_held(&task->requests[k], &task->charged, &held) == RTP_OK ? held
                                                                                 : RTP_NS_LIMIT;
}

/* 1 when some task declares a critical section. */
int rtp_tasks_have_requests(const rtp_task *tasks, size_t n);

/* Parses a task-set document of `len` bytes (need not be NUL-terminated).
 * On error returns RTP_EINPUT (or RTP_ENOMEM) and leaves *out zeroed. */
rtp_status rtp_taskset_parse_json(const char *text, size_t len,
                                  rtp_taskset *out, rtp_diag *diag);

/* rtp_read_file_max (models/fileio.h) + rtp_taskset_parse_json. */
rtp_status rtp_taskset_load(const char *path, size_t max_bytes, rtp_taskset *out,
                            rtp_diag *diag);

/* Writes the set as a task-set document (times as integer ns, time_unit
 * "ns") into a malloc'd string owned by the caller; NULL when out of memory. */
char *rtp_taskset_to_json(const rtp_taskset *ts, int pretty);

void rtp_taskset_free(rtp_taskset *ts);

/* Deep copy of one task into *dst, its name its own allocation (caller
 * frees with rtp_task_free_fields, which is not for a task of a set:
 * rtp_taskset_free frees those). */
rtp_status rtp_task_copy(rtp_task *dst, const rtp_task *src);
void rtp_task_free_fields(rtp_task *task);

/* The CPU ids to use: 0..override_cpus-1 when override_cpus > 0, else the
 * platform's. RTP_EINPUT when neither is given (docs/spec.md: usage error).
 * *cpus is malloc'd, owned by the caller. */
rtp_status rtp_taskset_cpu_ids(const rtp_taskset *ts, int override_cpus,
                               int **cpus, size_t *n_cpus, rtp_diag *diag);

RTP_API_END
#endif
