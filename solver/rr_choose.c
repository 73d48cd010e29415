/* solver/rr_choose.c — see rr_choose.h.
 *
 * The levels are found by one sort of the priorities; each tied level costs
 * one more analysis of the CPU (its SCHED_RR side: its SCHED_FIFO side is
 * the analysis as decided so far), so a CPU with L tied levels is analysed
 * L + 1 times. */
#include "solver/rr_choose.h"

#include "solver/fp.h"
#include "solver/rr.h"

#include <stdlib.h>
#include <string.h>

rtp_status rtp_rr_fp_rta(const rtp_task *tasks, size_t n, const int *priority,
                         const rtp_rr_params *rr, rtp_ns *response_time, int *schedulable,
                         const rtp_limits *limits, rtp_diag *diag)
{
    rtp_status st = rtp_fp_rta(tasks, n, priority, response_time, schedulable, limits, diag);
    /* ties with SCHED_RR threads: the FIFO analysis does not hold there */
    if (st == RTP_OK && rtp_rr_present(tasks, n, priority))
        st = rtp_rr_rta(tasks, n, priority, rr, response_time, schedulable, limits, diag);
    return st;
}

typedef struct slot {
    int priority;
    size_t task;
} slot;

/* Most urgent first, then input order. */
static int by_priority(const void *a, const void *b)
{
    const slot *x = a, *y = b;
    if (x->priority != y->priority)
        return x->priority < y->priority ? 1 : -1;
    return (x->task > y->task) - (x->task < y->task);
}

/* Side k of lv from one analysis of the CPU. */
static void side(const int *priority, size_t n, const rtp_ns *R, int sched, rtp_rr_level *lv,
                 int k)
{
    lv->cpu_meets[k] = sched;
    lv->worst_ns[k] = 0;
    lv->miss[k] = n;
    for (size_t i = 0; i < n; i++) {
        if (priority[i] != lv->priority)
            continue;
        if (R[i] < 0 && lv->miss[k] == n)
            lv->miss[k] = i;
        if (R[i] < 0 || lv->worst_ns[k] < 0)
            lv->worst_ns[k] = -1;
        else if (R[i] > lv->worst_ns[k])
            lv->worst_ns[k] = R[i];
    }
}

/* The rule of rr_choose.h: SCHED_RR only when strictly better. */
static int rr_wins(const rtp_rr_level *lv)
{
    if (lv->cpu_meets[1] != lv->cpu_meets[0])
        return lv->cpu_meets[1];
    int meets0 = lv->worst_ns[0] >= 0, meets1 = lv->worst_ns[1] >= 0;
    if (meets0 != meets1)
        return meets1;
    return meets1 && lv->worst_ns[1] < lv->worst_ns[0];
}

rtp_status rtp_rr_choose(const rtp_task *tasks, size_t n, const int *priority,
                         const rtp_rr_params *rr, unsigned char *rr_out, rtp_ns *response_time,
                         int *schedulable, rtp_rr_level *levels, size_t *n_levels,
                         const rtp_limits *limits, rtp_diag *diag)
{
    size_t count = 0, tied = 0;
    slot *s = malloc((n ? n : 1) * sizeof *s);
    rtp_task *w = NULL;
    rtp_ns *other = NULL;
    if (!s)
        return rtp_oom(diag);
    for (size_t i = 0; i < n; i++)
        s[i] = (slot){priority[i], i};
    qsort(s, n, sizeof *s, by_priority);
    for (size_t k = 0; k + 1 < n; k++)
        tied += s[k].priority == s[k + 1].priority;
    rtp_status st = RTP_OK;
    if (tied == 0 || !rtp_rr_usable(rr)) { /* nothing to choose: the task set's policies */
        for (size_t a = 0, b; levels && a < n; a = b) {
            int all_rr = 1;
            for (b = a; b < n && s[b].priority == s[a].priority; b++)
                all_rr &= tasks[s[b].task].rr;
            if (b - a >= 2)
                levels[count++] = (rtp_rr_level){.priority = s[a].priority, .rr = all_rr};
        }
        st = rtp_rr_fp_rta(tasks, n, priority, rr, response_time, schedulable, limits, diag);
        for (size_t i = 0; rr_out && i < n; i++)
            rr_out[i] = (unsigned char)tasks[i].rr;
        goto done;
    }
    w = malloc(n * sizeof *w);
    other = malloc(n * sizeof *other);
    if (!w || !other) {
        st = rtp_oom(diag);
        goto done;
    }
    memcpy(w, tasks, n * sizeof *w);
    for (size_t k = 0; k < n; k++) /* every tied level SCHED_FIFO until its turn */
        if ((k > 0 && s[k - 1].priority == s[k].priority) ||
            (k + 1 < n && s[k + 1].priority == s[k].priority))
            w[s[k].task].rr = 0;
    st = rtp_rr_fp_rta(w, n, priority, rr, response_time, schedulable, limits, diag);
    for (size_t a = 0, b; st == RTP_OK && a < n; a = b) {
        for (b = a; b < n && s[b].priority == s[a].priority; b++)
            ;
        if (b - a < 2)
            continue;
        rtp_rr_level lv = {.priority = s[a].priority, .usable = 1};
        int sched = 0;
        side(priority, n, response_time, *schedulable, &lv, 0);
        for (size_t k = a; k < b; k++)
            w[s[k].task].rr = 1;
        st = rtp_rr_fp_rta(w, n, priority, rr, other, &sched, limits, diag);
        if (st == RTP_ELIMIT) {
            lv.rr_limit = 1;
            st = RTP_OK;
        } else if (st != RTP_OK) {
            break;
        } else {
            side(priority, n, other, sched, &lv, 1);
        }
        lv.rr = !lv.rr_limit && rr_wins(&lv);
        if (lv.rr) {
            memcpy(response_time, other, n * sizeof *other);
            *schedulable = sched;
        } else {
            for (size_t k = a; k < b; k++)
                w[s[k].task].rr = 0;
        }
        if (levels)
            levels[count] = lv;
        count++;
    }
    for (size_t i = 0; st == RTP_OK && rr_out && i < n; i++)
        rr_out[i] = (unsigned char)w[i].rr;
done:
    if (n_levels)
        *n_levels = count;
    free(s);
    free(w);
    free(other);
    return st;
}
