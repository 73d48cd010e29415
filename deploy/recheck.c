/* deploy/recheck.c — see recheck.h. */
#include "deploy/recheck.h"
#include "deploy/script.h"
#include "solver/apa.h"
#include "deploy/locks.h"
#include "models/effective.h"
#include "deploy/quote.h"
#include "solver/rr.h"
#include "solver/schedtest.h"
#include "solver/tardiness.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void rtp_deploy_refuse(rtp_diag *diag, const rtp_deploy_opts *opts, const char *path,
                       const char *fix, const char *fmt, ...)
{
    char reason[sizeof diag->message];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(reason, sizeof reason, fmt, ap);
    va_end(ap);
    if (opts->fix)
        fix = opts->fix;
    if (fix)
        rtp_diag_set(diag, RTP_OK, path, "%s; fix: %s", reason, fix);
    else
        rtp_diag_set(diag, RTP_OK, path, "%s", reason);
}

rtp_status rtp_deploy_runtime(const rtp_plan *plan, const rtp_task *task,
                              const rtp_deploy_opts *opts, rtp_ns *runtime, rtp_diag *diag)
{
    rtp_ns c;
    if (rtp_effective_wcet(task, &plan->overheads, plan->policy, &c) != RTP_OK)
        return rtp_diag_set(diag, RTP_ELIMIT, "", "task %s: wcet plus overheads passes 2^62 ns",
                            task->name);
    /* ceil(c (den + num) / den) in 128 bits; num, den < 2^63 and c < 2^62 */
    __int128 den = opts->runtime_margin.den, scaled = (__int128)c * (den + opts->runtime_margin.num);
    __int128 r = (scaled + den - 1) / den;
    /* Linux refuses runtime > deadline: the margin stops at the deadline,
     * but C' itself is never cut (C' > D stays a refusal, and the re-check
     * never sees less than the analysed C'). */
    if (r > task->deadline_ns)
        r = c > task->deadline_ns ? c : task->deadline_ns;
    if (r > ((__int128)1 << 62))
        return rtp_diag_set(diag, RTP_ELIMIT, "",
                            "task %s: its SCHED_DEADLINE runtime with --runtime-margin passes 2^62 ns",
                            task->name);
    *runtime = (rtp_ns)r;
    return RTP_OK;
}

const rtp_overheads *rtp_deploy_analysed(const rtp_plan *plan, const rtp_deploy_opts *opts)
{
    return opts->analysed ? opts->analysed : &plan->overheads;
}

int64_t rtp_linux_bw(rtp_ns runtime, rtp_ns period, int round_up)
{
    unsigned __int128 num = (unsigned __int128)runtime << RTP_LINUX_BW_SHIFT;
    unsigned __int128 q = num / (unsigned __int128)period;
    if (round_up && q * (unsigned __int128)period != num)
        q++;
    return (int64_t)q;
}

/* Linux's SCHED_DEADLINE parameter rules for one task (sched_setattr(2),
 * kernel __checkparam_dl). 0 = fine, else diag holds reason and fix. */
static int dl_params_refused(const rtp_task *t, const rtp_deploy_opts *opts, const char *path,
                             rtp_diag *diag)
{
    if (t->deadline_ns > t->period_ns) {
        rtp_deploy_refuse(diag, opts, path,
                          "make the deadline at most the period, or partition with --policy fp",
                          "deadline %lld ns > period %lld ns cannot be SCHED_DEADLINE (Linux "
                          "wants runtime <= deadline <= period)",
                          (long long)t->deadline_ns, (long long)t->period_ns);
        return 1;
    }
    if (t->wcet_ns < RTP_LINUX_DL_RUNTIME_MIN_NS) {
        rtp_deploy_refuse(diag, opts, path, "budget at least 1024 ns for this task",
                          "runtime (wcet) %lld ns is below Linux's SCHED_DEADLINE minimum of "
                          "1024 ns",
                          (long long)t->wcet_ns);
        return 1;
    }
    if (t->wcet_ns > t->deadline_ns) {
        rtp_deploy_refuse(diag, opts, path, "a longer deadline or a shorter wcet",
                          "runtime %lld ns (wcet and overheads) exceeds the deadline %lld ns "
                          "(Linux wants runtime <= deadline <= period, and the task cannot meet "
                          "it)",
                          (long long)t->wcet_ns, (long long)t->deadline_ns);
        return 1;
    }
    if (t->period_ns < RTP_LINUX_DL_PERIOD_MIN_NS || t->period_ns > RTP_LINUX_DL_PERIOD_MAX_NS) {
        rtp_deploy_refuse(diag, opts, path, "change the period, or partition with --policy fp",
                          "period %lld ns is outside Linux's SCHED_DEADLINE range 100 us .. "
                          "4.194304 s (sched_deadline_period_min_us / _max_us)",
                          (long long)t->period_ns);
        return 1;
    }
    return 0;
}

static rtp_task *deployed_tasks(const rtp_plan *plan, size_t j, const rtp_deploy_opts *opts,
                                rtp_status *st, rtp_diag *diag);

rtp_task *rtp_deploy_bin_tasks(const rtp_plan *plan, size_t j, const rtp_deploy_opts *opts,
                               rtp_status *st, rtp_diag *diag)
{
    return deployed_tasks(plan, j, opts, st, diag);
}

/* The tasks of bin j as Linux will run them, in a malloc'd array (shallow
 * copies): J' as the jitter; as the execution time the SCHED_DEADLINE
 * runtime (rtp_deploy_runtime) under EDF, C' under FP, with the plan's
 * priorities. NULL with diag set (out of memory, a limit). */
static rtp_task *deployed_tasks(const rtp_plan *plan, size_t j, const rtp_deploy_opts *opts,
                                rtp_status *st, rtp_diag *diag)
{
    const rtp_plan_bin *bin = &plan->bins[j];
    int fp = !rtp_deploy_is_deadline(plan);
    rtp_task *tasks = calloc(bin->n_tasks ? bin->n_tasks : 1, sizeof *tasks);
    if (!tasks) {
        *st = rtp_diag_set(diag, RTP_ENOMEM, "", "out of memory");
        return NULL;
    }
    *st = RTP_OK;
    for (size_t i = 0; i < bin->n_tasks && *st == RTP_OK; i++) {
        tasks[i] = bin->tasks[i].task;
        tasks[i].has_priority = fp;
        tasks[i].priority = fp ? bin->tasks[i].priority : 0;
        *st = fp ? rtp_effective_wcet(&tasks[i], &plan->overheads, plan->policy,
                                      &tasks[i].wcet_ns)
                 : rtp_deploy_runtime(plan, &bin->tasks[i].task, opts, &tasks[i].wcet_ns, diag);
        if (*st == RTP_OK)
            *st = rtp_effective_jitter(&tasks[i], &plan->overheads, &tasks[i].jitter_ns);
        if (*st == RTP_OK)
            *st = rtp_effective_charge(&tasks[i], rtp_deploy_analysed(plan, opts));
        if (*st != RTP_OK && diag->message[0] == '\0')
            rtp_diag_set(diag, *st, "",
                         "task %s: wcet, jitter or a critical section plus overheads passes "
                         "2^62 ns",
                         tasks[i].name);
    }
    if (*st != RTP_OK) {
        free(tasks);
        return NULL;
    }
    return tasks;
}

/* SCHED_FIFO tasks of a cluster whose affinity is narrower than it (a
 * semi-partitioned plan, heuristics/semi.h): Linux's push/pull runs them on
 * their masks, so the cluster is analysed as arbitrary affinities [GCB13]
 * (solver/apa.h) with the plan's priorities, masks nested by priority.
 * *apa = 0 when every task may use the whole cluster. */
static rtp_status retest_masks(const rtp_plan_bin *bin, const rtp_task *tasks,
                               const rtp_limits *limits, int *apa, int *ok, rtp_diag *diag)
{
    size_t n = bin->n_tasks, x, y;
    uint64_t *mask = malloc((n ? n : 1) * sizeof *mask);
    int *prio = malloc((n ? n : 1) * sizeof *prio);
    rtp_status st = mask && prio ? RTP_OK : RTP_ENOMEM;
    uint64_t full = bin->n_cpus >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << bin->n_cpus) - 1;
    *apa = *ok = 0;
    for (size_t i = 0; i < n && st == RTP_OK; i++) {
        st = rtp_apa_mask(&tasks[i], bin->cpus, bin->n_cpus, &mask[i], diag);
        prio[i] = bin->tasks[i].priority;
        *apa |= st == RTP_OK && mask[i] != full;
    }
    if (st == RTP_OK && *apa && rtp_apa_nested(mask, n, prio, &x, &y)) {
        rtp_global_verdict v;
        st = rtp_apa_rta(tasks, n, mask, prio, limits, NULL, &v, diag);
        *ok = st == RTP_OK && v == RTP_GLOBAL_ACCEPT;
    }
    free(mask);
    free(prio);
    return st;
}

/* Runs the exact test of the plan's policy on the deployed tasks of bin j
 * with the plan's own priorities; *ok = verdict. */
static rtp_status retest_bin(const rtp_plan *plan, size_t j, const rtp_deploy_opts *opts,
                             const rtp_task *tasks, int *ok, rtp_diag *diag)
{
    const rtp_plan_bin *bin = &plan->bins[j];
    int fp = !rtp_deploy_is_deadline(plan);
    rtp_policy policy;
    if (bin->n_cpus > 1)
        policy = fp ? RTP_POLICY_GFP : RTP_POLICY_GEDF;
    else
        policy = fp ? RTP_POLICY_FP : RTP_POLICY_EDF;
    if (plan->n_resources > 0) { /* rtp_deploy_locks_check: every bin at once */
        *ok = 1;
        return RTP_OK;
    }
    int apa = 0;
    if (fp && bin->n_cpus > 1) {
        rtp_status st = retest_masks(bin, tasks, &opts->limits, &apa, ok, diag);
        if (st != RTP_OK || apa)
            return st;
    }
    rtp_test test = plan->soft && !fp ? rtp_test_soft((int)bin->n_cpus, opts->limits)
                                      : rtp_test_exact(policy, RTP_PRIO_GIVEN, (int)bin->n_cpus,
                                                       opts->limits);
    test.rr = rtp_rr_params_of(plan->rr_quantum_ns, plan->tick_ns,
                               rtp_deploy_analysed(plan, opts));
    rtp_test_result result;
    memset(&result, 0, sizeof result);
    rtp_status st = rtp_test_run(&test, tasks, bin->n_tasks, &result, diag);
    *ok = st == RTP_OK && result.schedulable;
    return st;
}

rtp_status rtp_deploy_bin_responses(const rtp_plan *plan, size_t j, const rtp_deploy_opts *opts,
                                    rtp_ns *rt, int *have, rtp_diag *diag)
{
    const rtp_plan_bin *bin = &plan->bins[j];
    *have = 0;
    if (rtp_deploy_is_deadline(plan) || bin->n_cpus != 1 || plan->n_resources > 0 ||
        opts->analysed)
        return RTP_OK;
    rtp_status st;
    rtp_task *tasks = deployed_tasks(plan, j, opts, &st, diag);
    if (!tasks)
        return st;
    rtp_test test = rtp_test_exact(RTP_POLICY_FP, RTP_PRIO_GIVEN, 1, opts->limits);
    test.rr = rtp_rr_params_of(plan->rr_quantum_ns, plan->tick_ns, &plan->overheads);
    rtp_test_result result;
    memset(&result, 0, sizeof result);
    result.response_time = rt;
    st = rtp_test_run(&test, tasks, bin->n_tasks, &result, diag);
    *have = st == RTP_OK && result.schedulable;
    free(tasks);
    return st;
}

/* The checks of one bin on its deployed tasks: 1 with diag holding the
 * reason when refused; *st set when a check cannot finish. */
static int bin_refused(const rtp_plan *plan, size_t j, const rtp_deploy_opts *opts,
                       const rtp_task *tasks, const char *bin_path, const char *cpus,
                       rtp_status *st, rtp_diag *diag)
{
    const rtp_plan_bin *bin = &plan->bins[j];
    int deadline = rtp_deploy_is_deadline(plan), max_priority = 0;
    char path[160];
    *st = RTP_OK;
    int *ids = malloc((bin->n_cpus ? bin->n_cpus : 1) * sizeof *ids);
    if (!ids) {
        *st = rtp_diag_set(diag, RTP_ENOMEM, "", "out of memory");
        return 1;
    }
    for (size_t i = 0; i < bin->n_tasks; i++) {
        snprintf(path, sizeof path, "%s.tasks[%zu]", bin_path, i);
        size_t mine = rtp_deploy_task_cpus(bin, i, ids);
        if (mine == 0 || (deadline && mine < bin->n_cpus)) {
            free(ids);
            /* SCHED_DEADLINE: sched_setattr fails with EPERM unless the
             * thread may run on its whole root domain (sched-deadline.rst
             * section 5; docs/spec.md "rtpack emit") */
            rtp_deploy_refuse(diag, opts, path,
                              mine == 0 ? NULL
                                        : "give it the whole cluster, or use --policy fp "
                                          "(SCHED_FIFO takes any mask)",
                              mine == 0 ? "task %s: its affinity names none of CPU %s"
                                        : "task %s may run on only some of CPUs %s: Linux "
                                          "refuses SCHED_DEADLINE for a thread whose affinity is "
                                          "not its whole root domain (sched_setattr fails with "
                                          "EPERM)",
                              tasks[i].name, cpus);
            return 1;
        }
        if (deadline && dl_params_refused(&tasks[i], opts, path, diag)) {
            free(ids);
            return 1;
        }
        if (bin->tasks[i].priority > max_priority)
            max_priority = bin->tasks[i].priority;
    }
    free(ids);
    if (!deadline && max_priority > opts->fifo_hi - opts->fifo_lo + 1) {
        rtp_deploy_refuse(diag, opts, bin_path, "widen --fifo-range",
                          "CPU %s needs %d SCHED_FIFO priority levels but --fifo-range %d:%d "
                          "has %d",
                     cpus, max_priority, opts->fifo_lo, opts->fifo_hi,
                     opts->fifo_hi - opts->fifo_lo + 1);
        return 1;
    }
    int ok = 0;
    if ((*st = retest_bin(plan, j, opts, tasks, &ok, diag)) != RTP_OK)
        return 1;
    if (!ok) {
        int margin = deadline && opts->runtime_margin.num > 0;
        rtp_deploy_refuse(diag, opts, bin_path,
                          margin ? "a smaller --runtime-margin, or partition again with a lower "
                                   "--capacity to leave room for it"
                                 : "partition again (rtpack partition) instead of editing the plan",
                          "CPU %s fails the exact %s test with the plan's %s%s", cpus,
                     bin->n_cpus > 1 ? (deadline ? "global EDF"
                                        : bin->test[0] && strcmp(bin->test, "apa") == 0
                                            ? "arbitrary-affinity (apa)"
                                            : "global fixed-priority")
                                     : (deadline ? "EDF" : "fixed-priority"),
                     deadline ? "tasks" : "priorities",
                     margin ? " and the runtimes of --runtime-margin as execution times" : "");
        return 1;
    }
    char budget[64];
    rtp_deploy_budget_format(opts->budget, budget, sizeof budget);
    if (deadline) {
        /* SCHED_DEADLINE admission as the kernel does it (__dl_overflow):
         * each runtime/period in 2^20 fixed point, rounded down, summed,
         * against the per-CPU cap in the same units. The launch script's
         * pre-check computes the same sum (deploy/script.c). Runtimes are
         * at most their periods here (dl_params_refused), so the sum
         * fits. */
        int64_t need = 0, cap = (int64_t)(((__int128)opts->budget.num << RTP_LINUX_BW_SHIFT) /
                                          opts->budget.den) * (int64_t)bin->n_cpus;
        for (size_t i = 0; i < bin->n_tasks; i++)
            need += rtp_linux_bw(tasks[i].wcet_ns, tasks[i].period_ns, 0);
        if (need <= cap)
            return 0;
        rtp_deploy_refuse(diag, opts, bin_path,
                          "partition with --capacity 0.9, or raise the kernel's budget and pass "
                          "--budget",
                          "CPU %s: SCHED_DEADLINE bandwidth %lld/1048576 exceeds Linux's "
                          "admission limit of %lld/1048576 (--budget %s per CPU: "
                          "sched_rt_runtime_us / sched_rt_period_us minus the fair server's "
                          "share since Linux 6.12, in the kernel's 2^20 fixed point)",
                     cpus, (long long)need, (long long)cap, budget);
        return 1;
    }
    rtp_ratio bound = {opts->budget.num * (int64_t)bin->n_cpus, opts->budget.den};
    if (rtp_load_cmp(tasks, bin->n_tasks, RTP_LOAD_UTIL, bound) > 0) {
        char shown[48];
        double load = rtp_load_double(tasks, bin->n_tasks, RTP_LOAD_UTIL);
        rtp_ratio_format_above(load, bound, shown, sizeof shown);
        rtp_deploy_refuse(diag, opts, bin_path,
                          "partition with --capacity 0.9, or raise the kernel's budget and pass "
                          "--budget",
                          "CPU %s: SCHED_FIFO utilization %s exceeds Linux's real-time budget "
                          "of %s per CPU (sched_rt_runtime_us / sched_rt_period_us, minus the "
                          "fair server's 0.05 since Linux 6.12): RT throttling would stop the "
                          "tasks",
                     cpus, shown, budget);
        return 1;
    }
    return 0;
}

rtp_status rtp_deploy_check(const rtp_plan *plan, const rtp_deploy_opts *opts, int *deployable,
                            rtp_diag *diag)
{
    char path[160], why[96], cpus[64];
    *deployable = 0;
    rtp_status st = rtp_deploy_opts_check(opts, diag);
    if (st != RTP_OK)
        return st;
    /* Names first: every later message may quote them. */
    for (size_t j = 0; j < plan->n_bins; j++) {
        for (size_t i = 0; i < plan->bins[j].n_tasks; i++) {
            rtp_deploy_bin_path(plan, j, cpus, sizeof cpus);
            snprintf(path, sizeof path, "%s.tasks[%zu].name", cpus, i);
            if (rtp_text_check_plain(plan->bins[j].tasks[i].task.name, why, sizeof why) != 0)
                return rtp_diag_set(diag, RTP_EINPUT, path, "the task name %s", why);
        }
    }
    if (!plan->feasible || plan->n_unassigned > 0) {
        rtp_deploy_refuse(diag, opts, plan->n_unassigned ? "unassigned" : "feasible", NULL,
                          "the plan is not feasible (%zu task(s) unassigned); rtpack partition "
                          "--explain says why each was not placed and what can fix it",
                     plan->n_unassigned);
        return RTP_OK;
    }
    for (size_t j = 0; j < plan->n_bins; j++) {
        const rtp_plan_bin *bin = &plan->bins[j];
        char bin_path[48];
        rtp_deploy_bin_path(plan, j, bin_path, sizeof bin_path);
        rtp_deploy_cpu_words(bin, cpus, sizeof cpus);
        rtp_task *tasks = deployed_tasks(plan, j, opts, &st, diag);
        if (!tasks)
            return st;
        int refused = bin_refused(plan, j, opts, tasks, bin_path, cpus, &st, diag);
        free(tasks);
        if (st != RTP_OK || refused)
            return st;
    }
    /* shared resources: the whole placement at once (MSRP spins depend on
     * every CPU), and what Linux can realise of each protocol */
    if (plan->n_resources > 0 &&
        ((st = rtp_deploy_locks_check(plan, opts, deployable, diag)) != RTP_OK || !*deployable))
        return st;
    *deployable = 1;
    return RTP_OK;
}

rtp_status rtp_deploy_judge(rtp_plan *plan, const rtp_deploy_opts *opts, rtp_diag *out)
{
    rtp_diag diag;
    rtp_diag_clear(&diag);
    int deployable = 0;
    rtp_status st = rtp_deploy_check(plan, opts, &deployable, &diag);
    if (st == RTP_ENOMEM || st == RTP_EINTERNAL) { /* no answer about the plan */
        if (out)
            *out = diag;
        return st;
    }
    plan->deploy_judged = 1;
    plan->deployable = st == RTP_OK && deployable;
    plan->deployable_reason[0] = '\0';
    if (plan->deployable)
        return RTP_OK;
    if (st == RTP_ELIMIT)
        snprintf(plan->deployable_reason, sizeof plan->deployable_reason,
                 "the re-check hit a resource limit: %s", diag.message);
    else
        rtp_diag_format(&diag, NULL, plan->deployable_reason, sizeof plan->deployable_reason);
    return RTP_OK;
}
