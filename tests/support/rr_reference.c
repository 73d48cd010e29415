/* tests/support/rr_reference.c — see rr_reference.h. */
#include "support/rr_reference.h"

#include <string.h>

/* The first queued thread of the highest level, -1 when none. */
static long pick(const size_t *list, size_t len, const int *prio)
{
    long best = -1;
    for (size_t k = 0; k < len; k++)
        if (best < 0 || prio[list[k]] > prio[best])
            best = (long)list[k];
    return best;
}

void rr_ref_simulate(const rtp_task *ts, size_t n, const int *prio, rtp_ns quantum,
                     rtp_ns tick, const rr_ref_scenario *sc, rtp_ns until, tu_rng *order,
                     const int *fixed, rtp_ns *worst, int *charged)
{
    int next[RR_REF_MAXN] = {0}, head[RR_REF_MAXN] = {0}, queued[RR_REF_MAXN] = {0};
    rtp_ns left[RR_REF_MAXN] = {0}, slice[RR_REF_MAXN];
    size_t list[RR_REF_MAXN]; /* the queued threads, by level; list order = queue order */
    size_t len = 0;
    rtp_ns K = quantum / tick;
    long curr = -1; /* the thread that ran in [t - 1, t) */
    for (size_t i = 0; i < n; i++) {
        slice[i] = sc->slice0[i];
        worst[i] = 0;
        if (charged)
            charged[i] = 0;
    }
    for (rtp_ns t = 0; t <= until; t++) {
        /* event kinds: 0 completions, 1 tick, 2 releases */
        int ev[3] = {fixed ? fixed[0] : 0, fixed ? fixed[1] : 1, fixed ? fixed[2] : 2};
        if (order)
            for (int k = 2; k > 0; k--) {
                int r = (int)tu_range(order, 0, k), x = ev[k];
                ev[k] = ev[r];
                ev[r] = x;
            }
        for (int e = 0; e < 3; e++) {
            if (ev[e] == 0 && curr >= 0 && left[curr] == 0 && head[curr] < next[curr]) {
                size_t c = (size_t)curr;
                rtp_ns r = t - sc->job[c][head[c]].arrival;
                worst[c] = r > worst[c] ? r : worst[c];
                head[c]++;
                if (head[c] < next[c]) {
                    left[c] = sc->job[c][head[c]].exec; /* same turn */
                } else {
                    queued[c] = 0; /* sleeps: leaves its list */
                    size_t k = 0;
                    while (list[k] != c)
                        k++;
                    memmove(list + k, list + k + 1, (len - k - 1) * sizeof *list);
                    len--;
                }
            } else if (ev[e] == 1 && (t - sc->phase) % tick == 0) {
                /* the thread current at the tick: the one that ran up to
                 * now when the tick comes first, else the one the events
                 * before it at this instant left at the head */
                long who = e == 0 ? curr : pick(list, len, prio);
                if (who < 0 || !ts[who].rr)
                    continue;
                size_t c = (size_t)who;
                if (charged)
                    charged[c]++;
                if (--slice[c] == 0) {
                    slice[c] = K;
                    int peer = 0;
                    for (size_t k = 0; k < len; k++)
                        peer |= list[k] != c && prio[list[k]] == prio[c];
                    if (peer && queued[c]) { /* to the tail of its level */
                        size_t k = 0;
                        while (list[k] != c)
                            k++;
                        memmove(list + k, list + k + 1, (len - k - 1) * sizeof *list);
                        list[len - 1] = c;
                    }
                }
            } else if (ev[e] == 2) {
                for (size_t i = 0; i < n; i++)
                    while (next[i] < sc->count[i] && sc->job[i][next[i]].release == t) {
                        if (!queued[i]) { /* wakes: tail */
                            queued[i] = 1;
                            list[len++] = i;
                            left[i] = sc->job[i][next[i]].exec;
                        }
                        next[i]++;
                    }
            }
        }
        curr = pick(list, len, prio);
        if (curr >= 0 && left[curr] > 0)
            left[curr]--;
    }
    for (size_t i = 0; i < n; i++)
        if (head[i] < next[i] && until - sc->job[i][head[i]].arrival > worst[i])
            worst[i] = until - sc->job[i][head[i]].arrival; /* still pending */
}

/* Seeded sets: 2..5 tasks on three priority levels (ties likely), most
 * tasks SCHED_RR (some levels mix FIFO and RR), tick 1..3, K = 1..4 ticks,
 * some with jitter. */
size_t rr_ref_random_set(tu_rng *rng, rtp_task *ts, int *prio, rtp_ns *q, rtp_ns *p)
{
    size_t n = (size_t)tu_range(rng, 2, 5);
    *p = tu_range(rng, 1, 3);
    *q = *p * tu_range(rng, 1, 4);
    int jitter = tu_range(rng, 0, 3) == 0;
    for (size_t i = 0; i < n; i++) {
        rtp_ns t = tu_range(rng, 4, 40);
        rtp_ns c = tu_range(rng, 1, t / (rtp_ns)n + 1);
        if (tu_range(rng, 0, 4) == 0)
            c = tu_range(rng, 1, t); /* a long peer now and then */
        rtp_ns d = tu_range(rng, 0, 1) ? t : tu_range(rng, c, t);
        ts[i] = tu_task(c, d, t);
        ts[i].rr = tu_range(rng, 0, 4) != 0;
        ts[i].jitter_ns = jitter ? tu_range(rng, 0, t / 4) : 0;
        prio[i] = (int)tu_range(rng, 1, 3);
    }
    if (tu_range(rng, 0, 2) == 0) {
        /* where the turn cap matters: a short and a long RR peer, light
         * work above, a quantum of 2..4 ticks */
        *q = *p * tu_range(rng, 2, 4);
        rtp_ns ts_t = tu_range(rng, 15, 40);
        ts[0] = tu_task(tu_range(rng, 1, 3), ts_t, ts_t);
        ts[1] = tu_task(tu_range(rng, 8, 30), 100, 100);
        ts[0].rr = ts[1].rr = 1;
        prio[0] = prio[1] = 2;
        for (size_t i = 2; i < n; i++)
            if (prio[i] == 3)
                ts[i] = tu_task(1, ts[i].period_ns + 10, ts[i].period_ns + 10);
    }
    return n;
}

void rr_ref_random_scenario(tu_rng *rng, const rtp_task *ts, size_t n, rtp_ns q, rtp_ns p,
                            rtp_ns horizon, rr_ref_scenario *sc)
{
    memset(sc, 0, sizeof *sc);
    int sync = tu_range(rng, 0, 2) == 0;
    sc->phase = tu_range(rng, 0, p - 1);
    for (size_t i = 0; i < n; i++) {
        sc->slice0[i] = tu_range(rng, 1, q / p);
        rtp_ns a = sync ? 0 : tu_range(rng, 0, ts[i].period_ns), last = 0;
        while (a < horizon && sc->count[i] < RR_REF_MAXJ) {
            rtp_ns rel = a + (tu_range(rng, 0, 1) ? ts[i].jitter_ns
                                                  : tu_range(rng, 0, ts[i].jitter_ns));
            rel = rel < last ? last : rel; /* a thread's jobs in order */
            rtp_ns c = tu_range(rng, 0, 4) ? ts[i].wcet_ns : tu_range(rng, 1, ts[i].wcet_ns);
            sc->job[i][sc->count[i]++] = (rr_ref_job){a, rel, c};
            last = rel;
            a += ts[i].period_ns + (tu_range(rng, 0, 5) ? 0 : tu_range(rng, 1, 5));
        }
    }
}

void rr_ref_worst(const rtp_task *ts, size_t n, const int *prio, rtp_ns q, rtp_ns p,
                  int patterns, tu_rng *rng, rtp_ns *best)
{
    static rr_ref_scenario sc; /* large: one per test program (not reentrant) */
    for (size_t i = 0; i < n; i++)
        best[i] = 0;
    for (int s = 0; s < patterns; s++) {
        rtp_ns worst[RR_REF_MAXN];
        rr_ref_random_scenario(rng, ts, n, q, p, 160, &sc);
        rr_ref_simulate(ts, n, prio, q, p, &sc, 480, rng, NULL, worst, NULL);
        for (size_t i = 0; i < n; i++)
            best[i] = worst[i] > best[i] ? worst[i] : best[i];
    }
}
