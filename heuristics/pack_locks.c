/* heuristics/pack_locks.c — the packing engine's admission and plan check
 * for task sets with critical sections (see pack.h): MSRP's spin on one CPU
 * depends on where the other users of a resource sit, so placing a task
 * re-checks every bin (solver/locks.h), and the plan's priorities and
 * response times come from the same whole-placement analysis. */
#include "heuristics/pack.h"

#include "solver/locks.h"
#include "solver/rr.h"

#include <stdlib.h>

/* 1 when the placement puts the users of a ceiling resource ("protocol":
 * "pcp" or "srp": its users share one CPU) on two CPUs. The packer must not
 * make such a placement: the CPU does not admit the task, and the fit tries
 * the next one. Bad input (exit 2) is only for a placement the user gave
 * (solver/locks.c); the packer used to pass on that error and exit 2 on a
 * set a co-located plan fits (review rev13a). -1: out of memory. */
static int spreads_ceiling(const rtp_pack_job *job, const rtp_task *tasks, const size_t *cpu,
                           size_t m)
{
    size_t n_res = job->ts->n_resources, *first = malloc((n_res ? n_res : 1) * sizeof *first);
    if (!first)
        return -1;
    for (size_t r = 0; r < n_res; r++)
        first[r] = (size_t)-1;
    int spread = 0;
    for (size_t k = 0; k < m && !spread; k++)
        for (size_t q = 0; q < tasks[k].n_requests && !spread; q++) {
            size_t r = tasks[k].requests[q].resource;
            if (job->ts->resources[r].protocol != RTP_LOCK_CEILING)
                continue;
            if (first[r] == (size_t)-1)
                first[r] = cpu[k];
            spread = first[r] != cpu[k];
        }
    free(first);
    return spread;
}

rtp_status rtp_pack_locks_check(const rtp_pack_job *job, const rtp_part_opts *opts,
                                const rtp_task *eff, const size_t *where, size_t extra,
                                size_t extra_bin, int *schedulable, rtp_locks_task *out,
                                rtp_diag *diag)
{
    size_t n = job->ts->n_tasks, m = 0;
    rtp_task *tasks = malloc((n ? n : 1) * sizeof *tasks);
    size_t *cpu = malloc((n ? n : 1) * sizeof *cpu), *index = malloc((n ? n : 1) * sizeof *index);
    rtp_locks_task *got = malloc((n ? n : 1) * sizeof *got);
    rtp_status st = RTP_OK;
    if (!tasks || !cpu || !index || !got) {
        st = rtp_oom(diag);
        goto done;
    }
    for (size_t i = 0; i < n; i++) {
        size_t b = i == extra ? extra_bin : where[i];
        if (b == (size_t)-1)
            continue;
        tasks[m] = eff[i];
        cpu[m] = b;
        index[m++] = i;
    }
    int spread = spreads_ceiling(job, tasks, cpu, m);
    if (spread) {
        *schedulable = 0;
        st = spread < 0 ? rtp_oom(diag) : RTP_OK;
        goto done;
    }
    rtp_test test = rtp_test_exact(job->policy, opts->priority, 1, opts->limits);
    test.rr = rtp_rr_params_of(job->ts->platform.rr_quantum_ns, job->ts->platform.tick_ns,
                               &job->ts->platform.overheads);
    st = rtp_locks_partitioned(job->ts->resources, job->ts->n_resources, tasks, m, cpu,
                               job->bins.n, &test, schedulable, got, diag);
    for (size_t k = 0; st == RTP_OK && out && k < m; k++)
        out[index[k]] = got[k];
done:
    free(tasks);
    free(cpu);
    free(index);
    free(got);
    return st;
}
