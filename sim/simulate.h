/* sim/simulate.h — what `rtpack simulate` computes, as one library call
 * (docs/spec.md "rtpack simulate"): a task set on one CPU (edf, fp) or one
 * cluster (gedf, gfp) with the priorities analyze gives, or a partition plan
 * CPU by CPU (cluster by cluster) with its own policy and priorities, each
 * simulated over one horizon by the periodic model (sim/sim.h), into the
 * result document (sim/sim_doc.h) and, when asked, the Gantt chart's
 * recording (sim/gantt.h).
 *
 * Times are rtp_ns. Ownership: rtp_simulate and rtp_simulate_plan fill a
 * caller-owned rtp_simulation whose arrays they allocate;
 * rtp_simulation_free releases them (also after a failed call). The result
 * borrows task names, CPU lists and priorities from the task set or plan,
 * which must outlive it. Thread-safety: no globals; many threads may
 * simulate at once (each its own rtp_simulation). */
#ifndef RTP_SIMULATE_H
#define RTP_SIMULATE_H

#include "models/base.h"
#include "models/plan.h"
#include "models/taskset.h"
#include "sim/gantt.h"
#include "sim/sim_doc.h"
#include "models/api.h"

RTP_API_BEGIN

typedef struct rtp_simulate_opts {
    rtp_policy policy;          /* a task set's: edf, fp (one CPU), gedf, gfp (one cluster);
                                 * a plan brings its own */
    rtp_prio_rule priority;     /* a task set's fixed-priority order, computed as analyze does */
    int cpus_override;          /* gedf, gfp: M CPUs; 0 = the task set's platform */
    rtp_ns until_ns;            /* simulate [0, until); 0 = hyperperiod + largest deadline */
    const char *overrun_task;   /* the task whose first job runs overrun_ns; NULL = none */
    rtp_ns overrun_ns;
    int gantt;                  /* record the Gantt chart of [gantt_from_ns, until] */
    rtp_ns gantt_from_ns;
    rtp_limits limits;          /* the priority assignment's */
} rtp_simulate_opts;

/* Defaults for `policy`: OPA under fp, DM under gfp (as the CLI), the
 * default horizon and limits, no overrun, no chart. */
rtp_simulate_opts rtp_simulate_opts_default(rtp_policy policy);

/* One CPU or cluster simulated on its own: its tasks are the result's
 * tasks[first .. first + n - 1]. */
typedef struct rtp_sim_bin {
    rtp_policy policy;
    const int *cpus;            /* Linux ids */
    size_t n_cpus;
    size_t first, n;
    const int *priority;        /* fixed priorities (1..n, n most urgent), NULL under EDF */
} rtp_sim_bin;

typedef struct rtp_simulation {
    rtp_sim_doc doc;            /* the result, as `rtpack simulate --json` writes it */
    rtp_sim_doc_task *rows;     /* doc.tasks */
    rtp_sim_bin *bins;
    size_t n_bins;
    const rtp_task *tasks;      /* every simulated task, bin after bin (borrowed copies) */
    size_t n_tasks;
    const char **unassigned;    /* a plan's tasks it does not place (not simulated) */
    size_t n_unassigned;
    long overrun_index;         /* into tasks, -1 = none */
    rtp_ns overrun_ns;          /* that task's first job's execution */
    int until_default;          /* the horizon is the default one */
    int option_error;           /* RTP_EINPUT came from an option (no such task for
                                 * overrun_task, a chart start past the horizon, a one-CPU
                                 * policy with several CPUs), not from the document */
    rtp_gantt_rec gantt;        /* opts.gantt: the recording */
    const char **resource_names;/* with shared resources: their names (borrowed strings) */
    /* owned storage behind the borrowed views above */
    rtp_task *task_copy;
    int *prio_store;
    int *cpu_store;
} rtp_simulation;

/* Simulates a task set (RTP_OK: out->doc.schedulable says whether no job
 * missed). RTP_EINPUT: the set cannot be simulated as asked (diag says why,
 * out->option_error whether an option is to blame); RTP_ELIMIT: the horizon
 * is past 2^62 ns or holds more than 10^7 jobs, or the priority assignment
 * ran past its limits; RTP_ENOMEM. Free *out in every case. */
rtp_status rtp_simulate(const rtp_taskset *ts, const rtp_simulate_opts *opts,
                        rtp_simulation *out, rtp_diag *diag);

/* The same for a partition plan (opts' policy, priority and cpus_override
 * are not used). */
rtp_status rtp_simulate_plan(const rtp_plan *plan, const rtp_simulate_opts *opts,
                             rtp_simulation *out, rtp_diag *diag);

/* "CPU 0: EDF", "CPUs 0..3 (4): global EDF": a bin's heading in the table
 * and the chart. */
void rtp_sim_bin_title(const rtp_sim_bin *bin, char *buf, size_t size);

/* The recorded Gantt chart (opts.gantt) as SVG text headed by `title`,
 * malloc'd; NULL when out of memory or nothing was recorded. */
char *rtp_simulation_svg(const rtp_simulation *sim, const char *title);

void rtp_simulation_free(rtp_simulation *sim);

RTP_API_END
#endif
