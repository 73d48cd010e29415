/* models/plan.h — the partition plan (docs/spec.md "Plan document"): which CPU
 * or cluster each task runs on, its priority and response time under FP.
 *
 * The plan is self-contained: each placed task carries its own timing
 * (jitter and blocking too when non-zero) and command, and the plan the
 * platform's overheads, so `emit` needs nothing else. rtp_plan_to_json writes that
 * document; rtp_plan_parse_json reads it back (emit's input) with the same
 * strictness as the task-set reader. Ownership: an rtp_plan owns everything
 * it points to; free it with rtp_plan_free. Thread-safety: no globals. */
#ifndef RTP_PLAN_H
#define RTP_PLAN_H

#include "models/taskset.h"
#include "models/api.h"

RTP_API_BEGIN

typedef struct rtp_plan_task {
    rtp_task task;          /* deep copy: name, times, cmd, affinity; the
                             * input's given priority (FP) as task.priority,
                             * "given_priority" in JSON */
    int priority;           /* FP only: 1..n on its CPU, n = most urgent */
    rtp_ns response_time_ns;/* FP only: exact WCRT; -1 = exceeds deadline (null) */
    int has_wcet_max;       /* --sensitivity: "wcet_max" (-1 = null) */
    rtp_ns wcet_max_ns;
    int has_locks;          /* placed in a plan with resources: written as
                             * "computed_blocking", "spin", "blocking_resource"
                             * (docs/spec.md "Shared resources"); read back for
                             * their types only (analyses run again) */
    rtp_ns computed_blocking_ns;
    rtp_ns spin_ns;
    size_t binding;         /* resource index, (size_t)-1 = null */
    int has_suspension;     /* FMLP+ resources: "suspension" (read back for its
                             * type only) */
    rtp_ns suspension_ns;
} rtp_plan_task;

/* --sensitivity: the critical scaling factor of a bin or of the plan
 * (docs/spec.md "Sensitivity"); exact NULL with present = null. Written
 * only when present; read back for its type only (emit ignores it). */
typedef struct rtp_plan_scaling {
    int present;
    char *exact;            /* "p/q", owned */
    char decimal[64];
    const char *not_defined;/* static text: why there is no factor (global
                             * tests on 2+ CPUs); present = 0, not written */
} rtp_plan_scaling;

/* One bin: a CPU (n_cpus == 1) or, in a clustered plan, a cluster. */
typedef struct rtp_plan_bin {
    int *cpus;
    size_t n_cpus;
    char test[24];          /* clustered plans: the accepting test ("gfb"), "" = none */
    rtp_plan_task *tasks;
    size_t n_tasks;
    rtp_plan_scaling scaling;
} rtp_plan_bin;

/* The ILP's certificate of infeasibility (status "infeasible"), the plan
 * document's "proof" member (ilp/ilp.h lists the kinds). kind[0] == 0: none. */
typedef struct rtp_plan_proof {
    char kind[24];          /* "utilization", "task-alone", ..., "search" */
    char **tasks;           /* names of the tasks the proof is about */
    size_t n_tasks;
    size_t clique;          /* "clique-volume": tasks[0..clique-1] are the clique; else 0 */
    int *cpus;              /* the CPU ids those tasks may use */
    size_t n_cpus;
    char *explanation;      /* one sentence */
} rtp_plan_proof;

typedef struct rtp_plan {
    int feasible;
    rtp_policy policy;      /* EDF or FP per CPU (GEDF/GFP inside clusters) */
    char method[16];        /* "ffd", "bfd", "wfd", "nfd", "ilp", "best" */
    char status[16];        /* ILP only: "optimal", "infeasible", "time_limit"; "" */
    char chosen_placement[8];  /* --method best: "ff", "bf", "wf", "nf", "sf"; "" */
    char chosen_order[12];     /* --method best: "util", ...; "" */
    char chosen_layout[16];    /* --layouts: "partitioned", "clustered", "global"; "" */
    int clustered;          /* bins are clusters: JSON has "clusters" not "cpus" */
    int *platform_cpus;     /* every CPU id of the platform */
    size_t n_platform_cpus;
    rtp_overheads overheads;/* the task set's platform.overheads (written when
                             * non-zero): emit re-checks with the same C', J' */
    int soft;               /* partition --soft: bins admitted by bounded tardiness
                             * ("soft": true; solver/tardiness.h) */
    rtp_ns rr_quantum_ns;   /* the task set's platform.rr_quantum and tick (0 = */
    rtp_ns tick_ns;         /* not given; written when non-zero): SCHED_RR */
    rtp_plan_bin *bins;     /* every CPU (or cluster) of the platform, empty too */
    size_t n_bins;
    rtp_plan_task *unassigned;
    size_t n_unassigned;
    rtp_plan_proof proof;   /* ILP, status "infeasible": why no partition exists */
    /* Whether emit would take the plan as it is (deploy/recheck.h,
     * emit's defaults), set by whoever judged it: written as "deployable"
     * (and "deployable_reason" when not) only when deploy_judged. Read back,
     * both are accepted and ignored: emit judges again. */
    int deploy_judged;
    int deployable;
    char deployable_reason[600];
    rtp_plan_scaling scaling; /* the minimum over the bins */
    rtp_resource *resources;  /* the task set's shared resources (owned; the
                               * tasks' requests index them), written as
                               * "resources" when there are any */
    size_t n_resources;
} rtp_plan;

/* Allocates n_bins empty bins (one CPU id each, from cpus[]) and copies the
 * platform list. */
rtp_status rtp_plan_init_cpus(rtp_plan *plan, rtp_policy policy,
                              const int *cpus, size_t n_cpus);

/* The bin index of a task that no bin holds (rtp_plan_add_task). */
#define RTP_PLAN_UNASSIGNED ((size_t)-1)

/* Appends a deep copy of `task` to a bin (bin_index < n_bins) or, with
 * bin_index == RTP_PLAN_UNASSIGNED, to `unassigned`. A task list grows
 * geometrically: its array has room for 8 tasks, or the next power of two
 * of its count when that is more, as rtp_plan_add_task and
 * rtp_plan_parse_json allocate it; a list allocated otherwise gets no task
 * appended. */
rtp_status rtp_plan_add_task(rtp_plan *plan, size_t bin_index,
                             const rtp_task *task, int priority,
                             rtp_ns response_time_ns);

/* Copies ts's resources into the plan (docs/spec.md "Shared resources"). */
rtp_status rtp_plan_set_resources(rtp_plan *plan, const rtp_taskset *ts);

/* Sets *proof (copies every string; replaces an earlier proof). */
rtp_status rtp_plan_proof_set(rtp_plan_proof *proof, const char *kind,
                              const char *const *tasks, size_t n_tasks,
                              size_t clique, const int *cpus, size_t n_cpus,
                              const char *explanation);
void rtp_plan_proof_free(rtp_plan_proof *proof);

/* The plan document (docs/spec.md), malloc'd (caller frees); NULL on out of memory.
 * Utilizations are printed for display only. */
char *rtp_plan_to_json(const rtp_plan *plan, int pretty);

/* Reads a plan document with the strictness of the task-set reader. */
rtp_status rtp_plan_parse_json(const char *text, size_t len, rtp_plan *out,
                               rtp_diag *diag);

void rtp_plan_free(rtp_plan *plan);

/* 1 when `text` is a JSON object without "tasks" and with an array "cpus"
 * or a member only plans have ("feasible", "method", "clusters", ...): a
 * plan document, not a task set; how commands taking FILE or PLAN tell them
 * apart. */
int rtp_doc_is_plan(const char *text, size_t len);

/* rtp_doc_is_plan into *is_plan, with RTP_ENOMEM when the document could
 * not be read for want of memory (rtp_doc_is_plan then says "not a plan",
 * and the task-set reader, given memory again, would blame the wrong
 * member); RTP_OK otherwise, a malformed document included (*is_plan 0:
 * the task-set reader says what is wrong). */
rtp_status rtp_doc_kind(const char *text, size_t len, int *is_plan, rtp_diag *diag);

RTP_API_END
#endif
