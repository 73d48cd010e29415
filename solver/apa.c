/* solver/apa.c — the APA reduction of solver/apa.h. */
#include "solver/apa.h"
#include "models/effective.h"
#include "solver/global_work.h"

#include <stdlib.h>

rtp_status rtp_apa_mask(const rtp_task *task, const int *cpus, size_t n_cpus, uint64_t *mask,
                        rtp_diag *diag)
{
    if (n_cpus > 64)
        return rtp_diag_set(diag, RTP_EINPUT, "platform.cpus",
                            "arbitrary affinities are analysed on clusters of at most 64 CPUs");
    *mask = 0;
    for (size_t k = 0; k < n_cpus; k++) {
        int in = task->affinity == NULL;
        for (size_t a = 0; !in && a < task->affinity_len; a++)
            in = task->affinity[a] == cpus[k];
        if (in)
            *mask |= (uint64_t)1 << k;
    }
    return RTP_OK;
}

/* Exact uniprocessor response time of tk against the interferers (all
 * pinned to the one CPU of S), from tk's release, with their release jitter
 * [ABRTW93]: w = C + sum ceil((w + J_j) / T_j) C_j; -1 past tk's deadline,
 * which the caller has shortened by tk's own jitter (D - J_k). */
static rtp_status uni_rta(const rtp_task *tasks, const size_t *hp, size_t n_hp,
                          const rtp_task *tk, uint64_t *steps, const rtp_limits *limits,
                          rtp_ns *out)
{
    rtp_i128 r = tk->wcet_ns;
    for (;;) {
        if (++*steps > limits->max_iterations)
            return RTP_ELIMIT;
        rtp_i128 next = tk->wcet_ns;
        /* each term <= 2^124 (r <= D): stop adding once past the deadline */
        for (size_t x = 0; x < n_hp && next <= tk->deadline_ns; x++) {
            const rtp_task *j = &tasks[hp[x]];
            next += (r + j->jitter_ns + j->period_ns - 1) / j->period_ns * j->wcet_ns;
        }
        if (next > tk->deadline_ns) {
            *out = -1;
            return RTP_OK;
        }
        if (next == r)
            break;
        r = next;
    }
    *out = (rtp_ns)r;
    return RTP_OK;
}

/* The bound of task k from subset S: -1 when an interferer has no bound or
 * the test passes the deadline.
 *
 * Release jitter: a job of i arrives at a (its nominal time; periods are
 * kept between arrivals) and is released, ready, within [a, a + J_i];
 * response times run from the arrival, so r[i] includes J_i. Task k's job
 * is analysed from its release over the window where it is ready: the test
 * bounds that part within D_k - J_k, and J_k is added. Each interferer's
 * term is [BC07]'s workload bound W_i(x) = N C_i + min(C_i, x + R_i - C_i -
 * N T_i), N = floor((x + R_i - C_i) / T_i), whose derivation uses only that
 * every job of i runs within [a, a + R_i] with arrivals T_i apart: so with
 * R_i from the arrival it holds as written (in release terms the carry-in
 * window grows by J_i: x + J_i + (R_i - J_i) - C_i). Without jitter every
 * number is the one before. */
static rtp_status from_subset(const rtp_task *tasks, const uint64_t *mask, const size_t *order,
                              size_t p, const rtp_ns *r, uint64_t S, size_t *hp,
                              gw_term *scratch, uint64_t *steps, const rtp_limits *limits,
                              rtp_ns *out, rtp_diag *diag)
{
    size_t k = order[p], n_hp = 0;
    int pinned = 1, unbounded = 0;
    rtp_task tk = tasks[k];
    tk.deadline_ns -= tk.jitter_ns; /* below C_k (even < 0) when J_k is: no bound */
    *out = -1;
    for (size_t q = 0; q < p; q++) {
        size_t j = order[q];
        if (!(mask[j] & S))
            continue;
        unbounded |= r[j] < 0;
        pinned &= mask[j] == S;
        hp[n_hp++] = j;
    }
    int m = __builtin_popcountll(S);
    /* the uniprocessor form counts the interferers' releases only; the
     * global one needs each interferer's own bound */
    if (unbounded && !(m == 1 && pinned))
        return RTP_OK;
    rtp_status st;
    if (m == 1 && pinned) {
        if (uni_rta(tasks, hp, n_hp, &tk, steps, limits, out) != RTP_OK)
            return rtp_diag_set(diag, RTP_ELIMIT, NULL, "APA analysis passed --max-iterations");
        st = RTP_OK;
    } else {
        gw_ctx ctx = {tasks, hp, n_hp, r, &tk, m, GW_FP_BC, scratch, NULL, 0, 0, NULL, 0};
        st = rtp_gw_fixed_point(&ctx, steps, limits, out, diag);
    }
    if (st == RTP_OK && *out >= 0)
        *out += tk.jitter_ns; /* <= D_k: no overflow */
    return st;
}

/* The preconditions: constrained deadlines, no blocking, every mask
 * non-empty (release jitter is modelled: from_subset). */
static int applicable(const rtp_task *tasks, size_t n, const uint64_t *mask)
{
    for (size_t i = 0; i < n; i++)
        if (tasks[i].deadline_ns > tasks[i].period_ns || tasks[i].blocking_ns != 0 || !mask[i])
            return 0;
    return 1;
}

rtp_status rtp_apa_rta(const rtp_task *tasks, size_t n, const uint64_t *mask,
                       const int *priority, const rtp_limits *limits,
                       rtp_ns *response_time, rtp_global_verdict *verdict, rtp_diag *diag)
{
    *verdict = RTP_GLOBAL_NA;
    for (size_t i = 0; response_time && i < n; i++)
        response_time[i] = -1;
    if (!applicable(tasks, n, mask))
        return RTP_OK;
    rtp_status st = RTP_OK;
    size_t *order = malloc((n ? n : 1) * sizeof *order);
    size_t *hp = malloc((n ? n : 1) * sizeof *hp);
    rtp_ns *r = malloc((n ? n : 1) * sizeof *r);
    gw_term *scratch = malloc((n ? n : 1) * sizeof *scratch);
    if (!order || !hp || !r || !scratch) {
        st = rtp_oom(diag);
        goto done;
    }
    if ((st = gw_priority_order(priority, n, order, "arbitrary-affinity analysis", diag)) !=
        RTP_OK)
        goto done;
    uint64_t steps = 0;
    int all = 1;
    for (size_t p = 0; p < n && st == RTP_OK; p++) {
        size_t k = order[p];
        uint64_t a = mask[k];
        r[k] = -1;
        /* every non-empty S within a (or a and its single CPUs when large),
         * each a valid bound [GCB13]: keep the smallest */
        int all_subsets = __builtin_popcountll(a) <= RTP_APA_ENUMERATE_MAX;
        for (uint64_t S = a, bit = a; st == RTP_OK;) {
            rtp_ns b;
            st = from_subset(tasks, mask, order, p, r, S, hp, scratch, &steps, limits, &b,
                             diag);
            if (st == RTP_OK && b >= 0 && (r[k] < 0 || b < r[k]))
                r[k] = b;
            if (all_subsets) {
                if (S == 0 || (S = (S - 1) & a) == 0)
                    break;
            } else {
                if (!bit)
                    break;
                S = bit & -bit; /* the single CPUs in turn */
                bit &= bit - 1;
            }
        }
        all &= r[k] >= 0;
    }
    if (st == RTP_OK) {
        *verdict = all ? RTP_GLOBAL_ACCEPT : RTP_GLOBAL_REJECT;
        for (size_t i = 0; response_time && i < n; i++)
            response_time[i] = r[i];
    }
done:
    free(order);
    free(hp);
    free(r);
    free(scratch);
    return st;
}

int rtp_apa_nested(const uint64_t *mask, size_t n, const int *priority, size_t *x, size_t *y)
{
    for (size_t a = 0; a < n; a++)
        for (size_t b = 0; b < n; b++) {
            if (priority[a] <= priority[b] || __builtin_popcountll(mask[a]) < 2 ||
                __builtin_popcountll(mask[b]) < 2 || !(mask[a] & mask[b]))
                continue;
            if (mask[b] & ~mask[a]) {
                *x = a;
                *y = b;
                return 0;
            }
        }
    return 1;
}

/* rtp_apa_rta's verdict on the effective tasks e with task k's declared
 * wcet x (e[k] restored): *ok = 0 also when C'(x) passes 2^62 ns, which
 * passes D_k. */
static rtp_status accepts_at(const rtp_task *tasks, rtp_task *e, size_t n, size_t k, rtp_ns x,
                             const rtp_overheads *ov, const uint64_t *mask,
                             const int *priority, const rtp_limits *limits, int *ok,
                             rtp_diag *diag)
{
    rtp_task t = tasks[k];
    rtp_ns keep = e[k].wcet_ns;
    t.wcet_ns = x;
    *ok = 0;
    if (rtp_effective_wcet(&t, ov, RTP_POLICY_GFP, &e[k].wcet_ns) != RTP_OK)
        return RTP_OK;
    rtp_global_verdict v;
    rtp_status st = rtp_apa_rta(e, n, mask, priority, limits, NULL, &v, diag);
    e[k].wcet_ns = keep;
    *ok = st == RTP_OK && v == RTP_GLOBAL_ACCEPT;
    return st;
}

rtp_status rtp_apa_wcet_max(const rtp_task *tasks, size_t n, const rtp_overheads *ov,
                            const uint64_t *mask, const int *priority,
                            const rtp_limits *limits, rtp_ns *wcet_max, rtp_diag *diag)
{
    for (size_t i = 0; i < n; i++)
        wcet_max[i] = -1;
    if (n == 0)
        return RTP_OK;
    rtp_status st = RTP_OK;
    rtp_task *e = rtp_effective_new(tasks, n, ov, RTP_POLICY_GFP, &st, diag);
    if (!e)
        return st;
    rtp_global_verdict v;
    if ((st = rtp_apa_rta(e, n, mask, priority, limits, NULL, &v, diag)) != RTP_OK ||
        v != RTP_GLOBAL_ACCEPT)
        goto done;
    for (size_t k = 0; k < n && st == RTP_OK; k++) {
        /* lo accepted, hi rejected: hi = D_k + 1 needs no run */
        rtp_ns lo = tasks[k].wcet_ns, hi = tasks[k].deadline_ns + 1;
        while (st == RTP_OK && hi - lo > 1) {
            rtp_ns mid = lo + (hi - lo) / 2;
            int ok;
            st = accepts_at(tasks, e, n, k, mid, ov, mask, priority, limits, &ok, diag);
            if (ok)
                lo = mid;
            else
                hi = mid;
        }
        wcet_max[k] = lo;
    }
    if (st != RTP_OK)
        for (size_t i = 0; i < n; i++)
            wcet_max[i] = -1;
done:
    free(e);
    return st;
}
