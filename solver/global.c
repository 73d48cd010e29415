/* solver/global.c — the two entry points of solver/global.h: one cluster
 * under global EDF or global FP. m == 1 goes to the exact uniprocessor
 * tests; m >= 2 runs the sufficient tests of global_edf.c / global_fp.c. */
#include "solver/global.h"
#include "solver/global_work.h"
#include "solver/schedtest_internal.h"

#include <stdio.h>

/* m == 1: the exact uniprocessor test of solver/schedtest.c for `policy`; an
 * acceptance is named `accepted_by`. */
static rtp_status uniprocessor(const rtp_test *test, rtp_policy policy, const char *accepted_by,
                               const rtp_task *tasks, size_t n, rtp_test_result *result,
                               rtp_diag *diag)
{
    rtp_test uni = rtp_test_exact(policy, test->priority, 1, test->limits);
    uni.want_first_miss = test->want_first_miss;
    rtp_status st = rtp_test_run(&uni, tasks, n, result, diag);
    result->accepted_by = st == RTP_OK && result->schedulable ? accepted_by : NULL;
    return st;
}

rtp_status rtp_gw_edf_chain(const rtp_test *test, const rtp_task *tasks, size_t n,
                           unsigned which, rtp_test_result *result, rtp_diag *diag)
{
    int m = test->cpus;
    /* Cheapest first; the first acceptance names the verdict. */
    rtp_global_verdict v = RTP_GLOBAL_NA;
    rtp_status st = RTP_OK;
    if ((which & RTP_GW_GFB) && (st = rtp_global_gfb(tasks, n, m, &v)) == RTP_OK &&
        v == RTP_GLOBAL_ACCEPT)
        result->accepted_by = "gfb";
    else if (!st && (which & RTP_GW_BAK) && (st = rtp_global_bak(tasks, n, m, &v)) == RTP_OK &&
             v == RTP_GLOBAL_ACCEPT)
        result->accepted_by = "bak";
    else if (!st && (which & RTP_GW_BCL) && (st = rtp_global_bcl(tasks, n, m, &v)) == RTP_OK &&
             v == RTP_GLOBAL_ACCEPT)
        result->accepted_by = "bcl";
    else if (!st && (which & RTP_GW_RTA) &&
             (st = rtp_global_edf_rta(tasks, n, m, &test->limits, NULL, &v, diag)) == RTP_OK &&
             v == RTP_GLOBAL_ACCEPT)
        result->accepted_by = "rta";
    if (st != RTP_OK)
        return st;
    result->schedulable = result->accepted_by != NULL;
    return RTP_OK;
}

rtp_status rtp_global_edf(const rtp_test *test, const rtp_task *tasks, size_t n,
                          rtp_test_result *result, rtp_diag *diag)
{
    int m = test->cpus;
    result->accepted_by = NULL;
    result->schedulable = 0;
    rtp_status st = gw_check_cpus(m, diag);
    if (st != RTP_OK)
        return st;
    if (m == 1)
        return uniprocessor(test, RTP_POLICY_EDF, "edf", tasks, n, result, diag);
    return rtp_gw_edf_chain(test, tasks, n, RTP_GW_ALL, result, diag);
}

rtp_status rtp_gw_given_ranks(const rtp_task *tasks, size_t n, int *priority, int *distinct,
                              rtp_diag *diag)
{
    *distinct = 1;
    for (size_t i = 0; i < n; i++) {
        if (!tasks[i].has_priority) {
            char path[48];
            snprintf(path, sizeof path, "tasks[%zu].priority", i);
            return rtp_diag_set(diag, RTP_EINPUT, path,
                                "--priority given needs a priority for every task");
        }
    }
    for (size_t i = 0; i < n; i++) {
        /* rank = 1 + number of distinct given values below this one */
        int rank = 1;
        for (size_t j = 0; j < n; j++) {
            int below = tasks[j].priority < tasks[i].priority;
            for (size_t l = 0; below && l < j; l++)
                below = tasks[l].priority != tasks[j].priority; /* count a value once */
            rank += below;
            if (j != i && tasks[j].priority == tasks[i].priority)
                *distinct = 0;
        }
        priority[i] = rank;
    }
    return RTP_OK;
}

rtp_status rtp_global_fp(const rtp_test *test, const rtp_task *tasks, size_t n,
                         rtp_test_result *result, rtp_diag *diag)
{
    int m = test->cpus;
    result->accepted_by = NULL;
    result->schedulable = 0;
    result->assignment_found = 0;
    rtp_status st = gw_check_cpus(m, diag);
    if (st != RTP_OK)
        return st;
    if (m == 1)
        return uniprocessor(test, RTP_POLICY_FP, "rta", tasks, n, result, diag);
    int *priority;
    rtp_ns *response;
    st = rtp_test_arrays(result, n, &priority, &response, diag);
    if (st != RTP_OK)
        return st;
    int found = 1;
    switch (test->priority) {
    case RTP_PRIO_DM:
    case RTP_PRIO_RM:
        rtp_global_monotonic(tasks, n, test->priority, priority);
        break;
    case RTP_PRIO_OPA:
        if ((st = rtp_global_fp_opa(tasks, n, m, priority, &found, diag)))
            goto done;
        break;
    case RTP_PRIO_GIVEN: {
        int distinct;
        if ((st = rtp_gw_given_ranks(tasks, n, priority, &distinct, diag)))
            goto done;
        if (!distinct) { /* not applicable: the global tests need a strict order */
            for (size_t i = 0; i < n; i++)
                response[i] = -1;
            goto done;
        }
        break;
    }
    default:
        st = rtp_diag_set(diag, RTP_EINPUT, "", "unknown priority rule");
        goto done;
    }
    /* The final order is re-checked with response-time analysis. */
    rtp_global_verdict v;
    if ((st = rtp_global_fp_rta(tasks, n, m, priority, 0, &test->limits, response, &v, diag)))
        goto done;
    if (v == RTP_GLOBAL_ACCEPT) {
        result->accepted_by = "rta";
    } else {
        if ((st = rtp_global_fp_rta(tasks, n, m, priority, 1, &test->limits, response, &v, diag)))
            goto done;
        if (v == RTP_GLOBAL_ACCEPT)
            result->accepted_by = "rta-lc";
    }
    result->schedulable = v == RTP_GLOBAL_ACCEPT;
    result->assignment_found = found || result->schedulable;
done:
    rtp_test_arrays_free(result, priority, response);
    return st;
}
