/* deploy/options.h — what every emitter is told (rtp_deploy_opts: budget,
 * SCHED_FIFO range, names, cgroups, SCHED_DEADLINE flags), their defaults
 * and range check, and the decisions that follow from a plan and its
 * options alone (which priorities a bin keeps, whether its tasks run
 * SCHED_DEADLINE and reclaim, bin paths and plain names for messages).
 * Linux's own rules and the re-check are deploy/recheck.h. Thread-safety:
 * pure, no globals. */
#ifndef RTP_DEPLOY_OPTIONS_H
#define RTP_DEPLOY_OPTIONS_H

#include "models/plan.h"
#include "models/ratio.h"
#include "models/text.h"
#include "models/api.h"

RTP_API_BEGIN

typedef enum rtp_cgroup_mode {
    RTP_CGROUP_AUTO = 0, /* detected by the script at run time */
    RTP_CGROUP_V1,
    RTP_CGROUP_V2
} rtp_cgroup_mode;

/* Emitter options. Strings are borrowed (the caller keeps them alive). */
typedef struct rtp_deploy_opts {
    rtp_ratio budget;         /* usable real-time bandwidth per CPU, (0, 1];
                               * SCHED_DEADLINE        admission compares in the kernel's 2^20
                               * fixed point against        floor(budget x 2^20) per CPU */
    int fifo_lo, fifo_hi;     /* SCHED_FIFO priorities used, 1 <= lo <= hi <= 99 */
    const char *name;         /* deployment name, [A-Za-z0-9_]{1,32} */
    rtp_cgroup_mode cgroup;   /* script default; RTPACK_CGROUP overrides */
    const char *cgroup_root;  /* script default, NULL = detect; RTPACK_CGROUP_ROOT
                                 overrides */
    int duration_s;           /* rtapp: seconds rt-app runs (>= 1) */
    int isolate;              /* script: move other processes and IRQs off the plan's CPUs */
    rtp_ratio runtime_margin; /* SCHED_DEADLINE runtime = ceil(C' x (1 + margin)),
                                 margin >= 0 */
    /* SCHED_DEADLINE flags chrt cannot set: with either, the script and the
     * systemd units start deadline tasks through `launcher --reset-on-fork
     * [--reclaim] [--overrun-signal] --runtime R --deadline D --period P --
     * CMD` (deploy/launcher/, rtpack-launch) instead of `chrt -R -d`. */
    int reclaim;          /* SCHED_FLAG_RECLAIM, GRUB reclaiming of unused bandwidth:
                           * 1 on, 0 off, RTP_RECLAIM_AUTO (the default): on exactly
                           * when the plan carries a measured deadline_charge
                           * (rtp_deploy_reclaims, docs/deploy.md section 9) */
    int overrun_signal;   /* SCHED_FLAG_DL_OVERRUN: SIGXCPU at each budget overrun
                           */
    const char *launcher; /* NULL = "rtpack-launch", looked up on PATH by the
                           * script; else a command name or an absolute path */
    rtp_limits limits;    /* for the exact re-check */
    /* When set, the command words of task i of bin j (NULL-terminated,
     * owned by the caller, quoted like a plan's cmd) in place of the task's
     * own cmd: how rehearse deploys a synthetic workload exactly as the
     * plan's script would. NULL = the plan's cmd. */
    const char *const *(*cmd_for)(void *ctx, size_t j, size_t i);
    void *cmd_ctx;
    /* The overheads the plan was analysed with, for what the re-check
     * charges beyond each C': critical sections held (rtp_effective_charge)
     * and the switch of each SCHED_RR turn (rtp_rr_params_of); NULL = the
     * plan's (rtp_deploy_analysed). rt-app's re-check sets the plan's here:
     * it judges a copy whose wcets are C' already, rounded, and whose
     * overheads are zeroed so that C' is not charged twice. */
    const rtp_overheads *analysed;
    /* When set, the fix every refusal of the re-check names, in place of
     * its own (rtp_deploy_refuse); NULL = each refusal's own. rt-app's
     * re-check of the rounded plan sets its own: a plan that holds until
     * it is rounded is not fixed by partitioning again. */
    const char *fix;
} rtp_deploy_opts;

#define RTP_RECLAIM_AUTO (-1)

/* The default budget, exactly what this kernel admits by default: the
 * root domain's sched_rt_runtime_us / sched_rt_period_us = 0.95 and the
 * fair server's 50 ms / 1 s = 0.05 each in the kernel's 2^20 fixed point,
 * floor(0.95 x 2^20) - floor(0.05 x 2^20) = 996147 - 52428 = 943719 per
 * CPU: "0.9" to a user, 943719/1048576 exactly. With it, emit's admission
 * check and the launch script's pre-check (which reads the same numbers
 * from the live kernel) agree to the last unit. */
#define RTP_DEPLOY_BUDGET_DEFAULT ((rtp_ratio){943719, 1048576})

/* budget RTP_DEPLOY_BUDGET_DEFAULT, FIFO 51..98, name "plan", cgroup auto,
 * no root, 10 s, reclaim auto. */
rtp_deploy_opts rtp_deploy_opts_default(void);

/* A budget as users read it: "0.9 (the kernel's 943719/1048576)" for the
 * default, else its decimal. */
void rtp_deploy_budget_format(rtp_ratio budget, char *buf, size_t size);

/* RTP_EINPUT with a message naming the option when opts are out of range. */
rtp_status rtp_deploy_opts_check(const rtp_deploy_opts *opts, rtp_diag *diag);

/* Default SCHED_FIFO range: above the kernel's threaded IRQ handlers
 * (SCHED_FIFO 50, kernel/irq/manage.c) and below its per-CPU stop and
 * watchdog threads at 99. */
#define RTP_DEPLOY_FIFO_LO 51
#define RTP_DEPLOY_FIFO_HI 98

/* 1 when bin j keeps its tasks' given priorities (partition --priority
 * given): every task has one, all lie in [fifo_lo, fifo_hi], and they order
 * the tasks exactly as the plan's ranks do (ties included). */
int rtp_deploy_keeps_given(const rtp_plan_bin *bin, const rtp_deploy_opts *opts);

/* SCHED_FIFO priority of task i of a bin: its given priority when the bin
 * keeps them, else fifo_lo + rank - 1 (rank 1..n, n = most urgent; order
 * and ties kept). */
int rtp_deploy_fifo_priority(const rtp_plan_bin *bin, size_t i, const rtp_deploy_opts *opts);

/* One warning line per FP bin whose tasks all have given priorities that
 * the bin cannot keep (out of range or in another order than the plan's),
 * saying what is used instead. */
void rtp_deploy_priority_warnings(const rtp_plan *plan, const rtp_deploy_opts *opts,
                                  rtp_text *warnings);

/* 1 when the bin runs SCHED_DEADLINE (policy EDF or GEDF). */
int rtp_deploy_is_deadline(const rtp_plan *plan);

/* 1 when the plan's SCHED_DEADLINE tasks start with SCHED_FLAG_RECLAIM:
 * opts->reclaim 1, or RTP_RECLAIM_AUTO and the plan was made with a
 * measured platform.overheads.deadline_charge (a measurement bounds only
 * what it saw: reclaiming lets a job charged past it use bandwidth the
 * others leave unused instead of being throttled to its next period). */
int rtp_deploy_reclaims(const rtp_plan *plan, const rtp_deploy_opts *opts);

/* "cpus[3]" or "clusters[3]": the JSON path of bin j. */
void rtp_deploy_bin_path(const rtp_plan *plan, size_t j, char *buf, size_t size);

/* *n_tasks = the plan's task count; RTP_EINPUT at the first task whose name
 * is not plain (deploy/quote.h), the message "<need> (1-64 of ...)". */
rtp_status rtp_deploy_plain_names(const rtp_plan *plan, const char *need, size_t *n_tasks,
                                  rtp_diag *diag);

/* "0", "2,3": the bin's CPUs for messages. */
void rtp_deploy_cpu_words(const rtp_plan_bin *bin, char *buf, size_t size);

RTP_API_END
#endif
