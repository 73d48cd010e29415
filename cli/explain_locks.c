/* cli/explain_locks.c — `partition --explain` of a set with shared
 * resources (docs/spec.md "Shared resources"): which resource costs what.
 * A feasible plan: per CPU and task its bound, the blocking the protocols
 * charge it (and the resource behind it) and its MSRP spin. An unassigned
 * task: per CPU it may use, what placing it there would break, with the
 * spin and blocking it would meet, each CPU analysed with the spins of the
 * whole placement (solver/locks.h). */
#include "cli/explain_locks.h"

#include "models/duration.h"
#include "models/effective.h"
#include "solver/locks.h"
#include "solver/rr.h"

#include <stdlib.h>
#include <string.h>

static const char *res_name(const rtp_plan *plan, size_t r)
{
    return r < plan->n_resources ? plan->resources[r].name : "-";
}

static void time_text(rtp_ns t, char *buf, size_t size)
{
    if (t < 0)
        snprintf(buf, size, "miss");
    else
        rtp_duration_format(t, buf, size);
}

/* The plan's placed tasks (and, when extra != NULL, that task on CPU
 * extra_bin) analysed at once: *sched, out[] in the order of tasks[]. */
static rtp_status analyse(const rtp_plan *plan, const rtp_part_opts *opts,
                          const rtp_task *extra, size_t extra_bin, rtp_task *tasks,
                          size_t *cpu, size_t *n, int *sched, rtp_locks_task *out,
                          rtp_diag *diag)
{
    size_t m = 0;
    for (size_t j = 0; j < plan->n_bins; j++)
        for (size_t i = 0; i < plan->bins[j].n_tasks; i++) {
            tasks[m] = plan->bins[j].tasks[i].task;
            cpu[m++] = j;
        }
    if (extra) {
        tasks[m] = *extra;
        cpu[m++] = extra_bin;
    }
    *n = m;
    rtp_status st = rtp_effective_tasks(tasks, m, &plan->overheads, plan->policy, tasks, diag);
    if (st != RTP_OK)
        return st;
    rtp_test test = rtp_test_exact(plan->policy, opts->priority, 1, opts->limits);
    test.rr = rtp_rr_params_of(plan->rr_quantum_ns, plan->tick_ns, &plan->overheads);
    return rtp_locks_partitioned(plan->resources, plan->n_resources, tasks, m, cpu, plan->n_bins,
                                 &test, sched, out, diag);
}

/* What fails with the candidate on bin j: the first late task (FP) or
 * the first failing CPU (EDF). */
static void what_fails(FILE *out, const rtp_plan *plan, const rtp_task *tasks, const size_t *cpu,
                       size_t n, size_t j, const rtp_locks_task *lk)
{
    if (plan->policy == RTP_POLICY_FP) {
        for (size_t k = 0; k < n; k++)
            if (lk[k].response_ns < 0) {
                fprintf(out, "%s misses its deadline", tasks[k].name);
                if (cpu[k] != j)
                    fprintf(out, " on CPU %d", plan->bins[cpu[k]].cpus[0]);
                return;
            }
        fprintf(out, "no priority order passes");
        return;
    }
    fprintf(out, "the processor demand test fails");
}

int rtp_cli_explain_locks(FILE *out, const cli_args *args, rtp_plan *plan,
                          const rtp_part_opts *opts)
{
    size_t total = plan->n_unassigned + 1;
    for (size_t j = 0; j < plan->n_bins; j++)
        total += plan->bins[j].n_tasks;
    rtp_task *tasks = malloc(total * sizeof *tasks);
    size_t *cpu = malloc(total * sizeof *cpu);
    rtp_locks_task *lk = malloc(total * sizeof *lk);
    rtp_diag diag;
    rtp_diag_clear(&diag);
    rtp_status st = !tasks || !cpu || !lk ? rtp_oom(&diag) : RTP_OK;
    size_t n = 0;
    int sched = 0;
    char a[32], b[32], c[32], d[32];
    if (st == RTP_OK && plan->feasible) {
        st = analyse(plan, opts, NULL, 0, tasks, cpu, &n, &sched, lk, &diag);
        if (st == RTP_OK)
            fprintf(out, "why it holds: per task the bound the analysis proves (%s), the "
                         "blocking its resources charge it and by which resource, and its "
                         "spin on global (MSRP) resources:\n",
                    plan->policy == RTP_POLICY_FP ? "its worst-case response time"
                                                  : "EDF: its deadline, the demand test "
                                                    "passing with b(t)");
        for (size_t j = 0; st == RTP_OK && j < plan->n_bins; j++) {
            if (plan->bins[j].n_tasks == 0)
                continue;
            fprintf(out, "CPU %d:\n  %-20s %12s %12s %12s %20s %12s\n", plan->bins[j].cpus[0],
                    "name", "deadline", "bound", "blocking", "by", "spin");
            for (size_t k = 0; k < n; k++) {
                if (cpu[k] != j)
                    continue;
                rtp_ns bound = plan->policy == RTP_POLICY_FP ? lk[k].response_ns
                                                             : tasks[k].deadline_ns;
                rtp_duration_format(tasks[k].deadline_ns, a, sizeof a);
                time_text(bound, b, sizeof b);
                rtp_duration_format(lk[k].blocking_ns, c, sizeof c);
                rtp_duration_format(lk[k].spin_ns, d, sizeof d);
                fprintf(out, "  %-20s %12s %12s %12s %20s %12s\n", tasks[k].name, a, b, c,
                        lk[k].binding == RTP_LOCKS_NONE ? "-" : res_name(plan, lk[k].binding),
                        d);
            }
        }
    }
    for (size_t u = 0; st == RTP_OK && !plan->feasible && u < plan->n_unassigned; u++) {
        const rtp_task *t = &plan->unassigned[u].task;
        fprintf(out, "%s could not be placed:", t->name);
        int any = 0;
        for (size_t j = 0; st == RTP_OK && j < plan->n_bins; j++) {
            int allowed = !t->affinity;
            for (size_t x = 0; !allowed && x < t->affinity_len; x++)
                allowed = t->affinity[x] == plan->bins[j].cpus[0];
            if (!allowed)
                continue;
            st = analyse(plan, opts, t, j, tasks, cpu, &n, &sched, lk, &diag);
            if (st != RTP_OK)
                break;
            const rtp_locks_task *me = &lk[n - 1];
            rtp_duration_format(me->spin_ns, a, sizeof a);
            rtp_duration_format(me->blocking_ns, b, sizeof b);
            fprintf(out, "%s on CPU %d ", any++ ? ";" : "", plan->bins[j].cpus[0]);
            if (sched)
                fprintf(out, "every CPU would pass (the fit did not try it there)");
            else
                what_fails(out, plan, tasks, cpu, n, j, lk);
            fprintf(out, ", where it would spin %s and be blocked %s (%s)", a, b,
                    me->binding == RTP_LOCKS_NONE ? "no resource"
                                                  : res_name(plan, me->binding));
        }
        fprintf(out, "%s\n", any ? "; fix: more CPUs, shorter critical sections, or keep the "
                                   "users of a resource on fewer CPUs"
                                 : " its affinity allows no CPU of the platform");
    }
    free(tasks);
    free(cpu);
    free(lk);
    return st == RTP_OK ? 0 : cli_fail(args, "", st, &diag);
}
