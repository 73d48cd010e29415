/* models/effective.c — effective task terms (see effective.h). */
#include "models/effective.h"

#include "models/arith.h"

#include <stdlib.h>

int rtp_overheads_zero(const rtp_overheads *ov)
{
    return !ov || (ov->release_latency_ns == 0 && ov->context_switch_ns == 0 &&
                   ov->deadline_charge_ns == 0 && ov->noise_per_ms_ns == 0 &&
                   ov->lock_ns == 0);
}

int rtp_overheads_stretch(const rtp_overheads *ov, rtp_policy policy)
{
    return ov && (ov->context_switch_ns != 0 || ov->noise_per_ms_ns != 0 || ov->lock_ns != 0 ||
                  (rtp_policy_is_deadline(policy) && ov->deadline_charge_ns != 0));
}

int rtp_policy_is_deadline(rtp_policy policy)
{
    return policy == RTP_POLICY_EDF || policy == RTP_POLICY_GEDF;
}

/* a + k b with every value in 0..2^62: RTP_ELIMIT past 2^62. */
static rtp_status add_times(rtp_ns a, rtp_ns b, int k, rtp_ns *out)
{
    rtp_ns scaled, sum;
    if (rtp_mul(b, k, &scaled) != RTP_OK || rtp_add(a, scaled, &sum) != RTP_OK ||
        sum > RTP_NS_LIMIT)
        return RTP_ELIMIT;
    *out = sum;
    return RTP_OK;
}

rtp_status rtp_effective_noisy(rtp_ns wcet, const rtp_overheads *ov, rtp_ns *out)
{
    rtp_ns nu = ov ? ov->noise_per_ms_ns : 0;
    /* wcet, nu < 2^62: the product fits 124 bits */
    __int128 extra = ((__int128)wcet * nu + RTP_NS_PER_MS - 1) / RTP_NS_PER_MS;
    if (extra > RTP_NS_LIMIT)
        return RTP_ELIMIT;
    return add_times(wcet, (rtp_ns)extra, 1, out);
}

rtp_ns rtp_effective_noisy_inverse(rtp_ns x, const rtp_overheads *ov)
{
    /* w = floor(x M / (M + nu)), M = 1 ms: w (M + nu) <= x M gives
     * ceil(w nu / M) <= x - w, and (w + 1)(M + nu) > x M gives
     * w + 1 + ceil((w + 1) nu / M) > x. */
    rtp_ns nu = ov ? ov->noise_per_ms_ns : 0;
    return (rtp_ns)((__int128)x * RTP_NS_PER_MS / (RTP_NS_PER_MS + nu));
}

rtp_status rtp_effective_fixed(const rtp_overheads *ov, rtp_policy policy, rtp_ns *out)
{
    if (!ov) {
        *out = 0;
        return RTP_OK;
    }
    return add_times(rtp_policy_is_deadline(policy) ? ov->deadline_charge_ns : 0,
                     ov->context_switch_ns, 2, out);
}

rtp_status rtp_effective_wcet(const rtp_task *task, const rtp_overheads *ov, rtp_policy policy,
                              rtp_ns *out)
{
    rtp_ns noisy, fixed;
    if (rtp_effective_noisy(task->wcet_ns, ov, &noisy) != RTP_OK ||
        rtp_effective_fixed(ov, policy, &fixed) != RTP_OK ||
        add_times(noisy, fixed, 1, &noisy) != RTP_OK)
        return RTP_ELIMIT;
    /* Each critical section takes and releases its lock, and an FMLP+
     * request may suspend: a switch away, one back and one after the
     * section [Bra11] (eq. 7.3, as SchedCAT's charge_semaphore_overheads):
     * work the job runs beyond its declared wcet (docs/spec.md "Lock
     * overheads"). The section as held (rtp_request_held) must fit too:
     * the solvers then read it unchecked through rtp_task_held. */
    rtp_ns lock = ov ? ov->lock_ns : 0, sw = ov ? ov->context_switch_ns : 0;
    for (size_t k = 0; k < task->n_requests; k++) {
        const rtp_request *q = &task->requests[k];
        rtp_ns per = lock, held;
        if ((q->susp && add_times(per, sw, 3, &per) != RTP_OK) ||
            rtp_request_held(q, ov, &held) != RTP_OK ||
            rtp_mul(q->count, per, &per) != RTP_OK || add_times(noisy, per, 1, &noisy) != RTP_OK)
            return RTP_ELIMIT;
    }
    *out = noisy;
    return RTP_OK;
}

rtp_status rtp_effective_jitter(const rtp_task *task, const rtp_overheads *ov, rtp_ns *out)
{
    return add_times(task->jitter_ns, ov ? ov->release_latency_ns : 0, 1, out);
}

rtp_status rtp_effective_charge(rtp_task *task, const rtp_overheads *ov)
{
    rtp_ns held;
    for (size_t k = 0; k < task->n_requests; k++)
        if (rtp_request_held(&task->requests[k], ov, &held) != RTP_OK)
            return RTP_ELIMIT;
    task->charged = ov ? *ov : (rtp_overheads){0};
    return RTP_OK;
}

rtp_status rtp_effective_tasks(const rtp_task *tasks, size_t n, const rtp_overheads *ov,
                               rtp_policy policy, rtp_task *out, rtp_diag *diag)
{
    for (size_t i = 0; i < n; i++) {
        rtp_ns c, j;
        if (rtp_effective_wcet(&tasks[i], ov, policy, &c) != RTP_OK)
            return rtp_diag_set(diag, RTP_ELIMIT, "",
                                "task \"%.60s\": wcet plus its overheads passes 2^62 ns",
                                tasks[i].name ? tasks[i].name : "");
        if (rtp_effective_jitter(&tasks[i], ov, &j) != RTP_OK)
            return rtp_diag_set(diag, RTP_ELIMIT, "",
                                "task \"%.60s\": jitter + release_latency passes 2^62 ns",
                                tasks[i].name ? tasks[i].name : "");
        if (&out[i] != &tasks[i])
            out[i] = tasks[i];
        out[i].wcet_ns = c;
        out[i].jitter_ns = j;
        /* rtp_effective_wcet checked every section held with ov */
        out[i].charged = ov ? *ov : (rtp_overheads){0};
    }
    return RTP_OK;
}

rtp_task *rtp_effective_new(const rtp_task *tasks, size_t n, const rtp_overheads *ov,
                            rtp_policy policy, rtp_status *status, rtp_diag *diag)
{
    rtp_task *out = malloc((n ? n : 1) * sizeof *out);
    if (!out) {
        *status = rtp_diag_set(diag, RTP_ENOMEM, "", "out of memory");
        return NULL;
    }
    *status = rtp_effective_tasks(tasks, n, ov, policy, out, diag);
    if (*status != RTP_OK) {
        free(out);
        return NULL;
    }
    return out;
}

int rtp_tasks_have_delays(const rtp_task *tasks, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (tasks[i].jitter_ns != 0 || tasks[i].blocking_ns != 0)
            return 1;
    return 0;
}
