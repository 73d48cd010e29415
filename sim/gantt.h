/* sim/gantt.h — the Gantt chart of a simulated schedule as a self-contained
 * SVG file (no plotting library): one section per CPU (or global cluster),
 * one lane per task in it; release instants as up arrows, deadlines as down
 * arrows, execution as boxes coloured per task (colour-blind-safe palette
 * [OI08], red kept for misses), execution past a deadline and missed
 * deadlines in red, a time axis in ns, µs, ms or s chosen from the window,
 * and a legend; with shared resources, critical sections as a dark bar over
 * the box (boosted ones, FMLP+, framed), spinning as a striped box and
 * suspension as a dashed empty box. Drawn over a window [from, until]
 * of the simulation.
 *
 * A recorder (rtp_gantt_rec) collects boxes and misses from the simulator's
 * hooks, bin by bin; it keeps at most RTP_GANTT_MAX_BOXES boxes and then
 * shortens the window to end where the first box it had to leave out
 * starts (the chart says so), so a long horizon gives a readable chart of
 * its beginning instead of an unreadable one of everything.
 * Ownership: the recorder owns its arrays (rtp_gantt_rec_free); the chart
 * is malloc'd text for the caller. Thread-safety: no globals. */
#ifndef RTP_GANTT_H
#define RTP_GANTT_H

#include "sim/sim.h"
#include "models/api.h"

RTP_API_BEGIN

#define RTP_GANTT_MAX_BOXES 1500

typedef struct rtp_gantt_task {
    const char *name;
    rtp_ns wcet_ns, deadline_ns, period_ns;
    rtp_ns overrun_ns;      /* first job's execution when it overruns, else 0 */
    int priority;           /* fixed priority shown beside the lane, 0 = none */
} rtp_gantt_task;

/* A CPU or a global cluster: its lanes are tasks[first .. first + n - 1]. */
typedef struct rtp_gantt_section {
    char title[96];         /* "CPU 0: EDF", "CPUs 0-3: global EDF" */
    size_t first, n;
    const int *cpu_ids;     /* Linux ids of the section's CPU slots */
    int n_cpus;
} rtp_gantt_section;

typedef struct rtp_gantt_box {
    size_t task;            /* index into the chart's tasks */
    int cpu;                /* Linux id */
    rtp_ns from, to;
    int late;               /* runs past its job's deadline */
} rtp_gantt_box;

/* A critical section or a spin inside an execution box, or a suspension
 * (shared resources). */
typedef struct rtp_gantt_lock {
    size_t task;
    rtp_ns from, to;
    size_t resource;        /* index into the recorder's resource_names */
    int what;               /* sim/sim.h: RTP_SIM_HOLDING, _SPINNING, _SUSPENDED, _BOOSTED */
} rtp_gantt_lock;

typedef struct rtp_gantt_rec {
    rtp_ns from, until;     /* the window asked for; until shrinks when capped */
    int truncated;          /* the cap shortened the window */
    size_t task_offset;     /* the bin being simulated: its first task ... */
    const int *cpu_ids;     /* ... and its CPU ids by slot */
    rtp_gantt_box *boxes;
    size_t n_boxes, cap_boxes;
    rtp_gantt_box *misses;  /* missed deadlines: task and, in `from`, the deadline */
    size_t n_misses, cap_misses;
    int failed;             /* out of memory */
    rtp_gantt_lock *locks;  /* sections and spins (rtp_gantt_rec_section) */
    size_t n_locks, cap_locks;
    const char *const *resource_names; /* borrowed; labels sections (may be NULL) */
} rtp_gantt_rec;

/* A recorder of the window [from, until]. */
void rtp_gantt_rec_init(rtp_gantt_rec *rec, rtp_ns from, rtp_ns until);
/* Hooks for rtp_sim_periodic_opts.hooks: the next bin's tasks start at
 * task_offset in the chart, its CPU slots are cpu_ids. */
rtp_sim_hooks rtp_gantt_rec_hooks(rtp_gantt_rec *rec, size_t task_offset, const int *cpu_ids);
/* rtp_sim_periodic_opts.section beside those hooks: records critical
 * sections and spins (drawn over the execution boxes) and suspensions. */
void rtp_gantt_rec_section(void *rec, int cpu, const rtp_sim_job *job, size_t resource,
                           int what, rtp_ns from, rtp_ns to);
void rtp_gantt_rec_free(rtp_gantt_rec *rec);

/* The chart of what `rec` recorded; `title` heads it. NULL when out of memory. */
char *rtp_gantt_svg(const char *title, const rtp_gantt_task *tasks, size_t n_tasks,
                    const rtp_gantt_section *sections, size_t n_sections,
                    const rtp_gantt_rec *rec);

RTP_API_END
#endif
