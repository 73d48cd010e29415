/* solver/sensitivity_locks.c — wcet_max with shared resources by bisection
 * over the lock-aware exact test (see sensitivity_locks.h). */
#include "solver/sensitivity_locks.h"
#include "solver/fmlp.h"
#include "solver/locks.h"
#include "models/effective.h"

#include <stdlib.h>
#include <string.h>

typedef struct probe {
    const rtp_test *test;
    const rtp_resource *resources;
    size_t n_resources, n, n_bins;
    const size_t *cpu_of;
    const rtp_overheads *ov;
    rtp_task *declared, *eff; /* the tasks as tried, and their effective copies */
    rtp_locks_task *out;
} probe;

/* *ok = the placement passes with the tasks of p->declared. A C' past 2^62
 * ns (RTP_ELIMIT from the effective terms) is above every deadline: fails. */
static rtp_status passes(const probe *p, int *ok, rtp_diag *diag)
{
    rtp_diag quiet;
    rtp_diag_clear(&quiet);
    rtp_status st = rtp_effective_tasks(p->declared, p->n, p->ov, p->test->policy, p->eff,
                                        &quiet);
    *ok = 0;
    if (st == RTP_ELIMIT)
        return RTP_OK;
    if (st != RTP_OK)
        return rtp_diag_set(diag, st, "", "%s", quiet.message);
    return rtp_locks_partitioned(p->resources, p->n_resources, p->eff, p->n, p->cpu_of,
                                 p->n_bins, p->test, ok, p->out, diag);
}

/* Task i's largest accepted wcet: lo passes, hi fails, bisected. */
static rtp_status largest(probe *p, size_t i, rtp_ns *answer, rtp_diag *diag)
{
    rtp_task *t = &p->declared[i];
    rtp_ns lo = t->wcet_ns, room = t->deadline_ns - t->jitter_ns;
    rtp_ns hi = (room < t->period_ns ? room : t->period_ns) + 1;
    rtp_status st = RTP_OK;
    while (hi - lo > 1 && st == RTP_OK) {
        rtp_ns mid = lo + (hi - lo) / 2;
        int ok;
        t->wcet_ns = mid;
        st = passes(p, &ok, diag);
        if (ok)
            lo = mid;
        else
            hi = mid;
    }
    *answer = lo;
    return st;
}

rtp_status rtp_sensitivity_locks_wcet_max(const rtp_test *test,
                                          const rtp_resource *resources, size_t n_resources,
                                          const rtp_task *tasks, size_t n, const size_t *cpu_of,
                                          size_t n_bins, const rtp_overheads *ov,
                                          rtp_ns *wcet_max, rtp_diag *diag)
{
    for (size_t i = 0; i < n; i++)
        wcet_max[i] = -1;
    if (test->priority == RTP_PRIO_OPA && test->policy == RTP_POLICY_FP &&
        rtp_fmlp_present(tasks, n))
        return rtp_diag_set(diag, RTP_EINPUT, "resources",
                            "--sensitivity of fmlp+ resources needs a fixed priority rule "
                            "(--priority dm, rm or given): FMLP+'s OPA (every R_j taken as "
                            "D_j) is not monotone in the wcets");
    probe p = {test, resources, n_resources, n, n_bins, cpu_of, ov,
               malloc((n ? n : 1) * sizeof(rtp_task)), malloc((n ? n : 1) * sizeof(rtp_task)),
               malloc((n ? n : 1) * sizeof(rtp_locks_task))};
    rtp_status st = RTP_OK;
    int ok = 0;
    if (!p.declared || !p.eff || !p.out) {
        st = rtp_oom(diag);
        goto done;
    }
    if (n > 0)
        memcpy(p.declared, tasks, n * sizeof *tasks);
    if ((st = passes(&p, &ok, diag)) != RTP_OK || !ok)
        goto done;
    for (size_t i = 0; i < n && st == RTP_OK; i++) {
        st = largest(&p, i, &wcet_max[i], diag);
        p.declared[i].wcet_ns = tasks[i].wcet_ns;
    }
    if (st != RTP_OK)
        for (size_t i = 0; i < n; i++)
            wcet_max[i] = -1;
done:
    free(p.declared);
    free(p.eff);
    free(p.out);
    return st;
}

const char *rtp_sensitivity_locks_no_factor(void)
{
    return "not computed for a set with shared resources (wcet_max is)";
}
