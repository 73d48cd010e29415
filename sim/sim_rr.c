/* sim/sim_rr.c — Linux's run lists and the SCHED_RR quantum on one CPU
 * under fixed priorities (sim.h "rtp_sim_set_rr", docs/spec.md "SCHED_RR",
 * kernel/sched/rt.c). The engine orders equal priorities by each thread's
 * stamp (its place in its list) and gives a waking thread a new stamp (the
 * tail); this file keeps the quantum and sends a thread whose quantum ran
 * out to the tail. */
#include "sim/sim_internal.h"

#include <stdlib.h>

rtp_status rtp_sim_set_rr(rtp_sim *s, const int *rr, rtp_ns quantum_ns, rtp_ns tick_ns,
                          rtp_diag *diag)
{
    if (s->edf || s->m != 1 || s->next_seq > 0 || s->rr || s->tasks || quantum_ns < 1 ||
        tick_ns < 0 ||
        (tick_ns > 0 && quantum_ns % tick_ns != 0))
        return rtp_diag_set(diag, RTP_EINPUT, "",
                            "SCHED_RR is simulated under fixed priorities on one CPU, set "
                            "before the first job, with a tick dividing the quantum");
    s->stamp = calloc(s->n_tasks + 1, sizeof *s->stamp);
    s->rr = calloc(s->n_tasks + 1, sizeof *s->rr);
    s->qleft = calloc(s->n_tasks + 1, sizeof *s->qleft);
    if (!s->stamp || !s->rr || !s->qleft)
        return rtp_oom(diag);
    s->lists = 1;
    s->quantum = quantum_ns;
    s->tick = tick_ns;
    for (size_t i = 0; i < s->n_tasks; i++) {
        s->rr[i] = rr[i] != 0;
        s->qleft[i] = tick_ns > 0 ? quantum_ns / tick_ns : quantum_ns;
    }
    return RTP_OK;
}

/* The tick charges the thread at the head; without a tick, `cur` (which
 * ran up to the clock) may have used its quantum up. An expired quantum is
 * refilled and sends its thread to the tail when a peer of its priority is
 * queued. */
void rtp_sim_rr_quantum(rtp_sim *s, size_t cur)
{
    size_t t;
    if (s->tick > 0) {
        if (s->now % s->tick != 0)
            return;
        size_t k = s->running[0];
        if (k == RTP_SIM_NONE || (s->ready.len > 0 && rtp_sim_better(s, s->ready.idx[0], k)))
            k = s->ready.len > 0 ? s->ready.idx[0] : RTP_SIM_NONE;
        if (k == RTP_SIM_NONE || !s->rr[t = s->jobs[k].pub.task] || --s->qleft[t] > 0)
            return;
        s->qleft[t] = s->quantum / s->tick;
    } else {
        if (cur == RTP_SIM_NONE || !s->rr[cur] || s->qleft[cur] > 0)
            return;
        s->qleft[t = cur] = s->quantum;
        if (s->queue[t].len == 0)
            return; /* it sleeps: it joins the tail when it wakes */
    }
    for (size_t u = 0; u < s->n_tasks; u++)
        if (u != t && s->prio[u] == s->prio[t] && s->queue[u].len > 0) {
            s->stamp[t] = s->next_stamp++;
            rtp_sim_heap_fix(s, &s->ready, rtp_sim_better);
            return;
        }
}
