/* tests/support/apa_reference.c — see apa_reference.h. */
#include "support/apa_reference.h"

#include <limits.h>

void apa_ref_scenario_draw(tu_rng *rng, const rtp_task *ts, size_t n, rtp_ns horizon,
                           apa_ref_scenario *sc)
{
    int sync = tu_range(rng, 0, 2) == 0;
    for (size_t i = 0; i < n; i++) {
        sc->count[i] = 0;
        rtp_ns a = sync ? 0 : tu_range(rng, 0, ts[i].period_ns);
        while (a < horizon && sc->count[i] < APA_REF_MAXJ) {
            sc->arr[i][sc->count[i]] = sc->rel[i][sc->count[i]] = a;
            sc->exec[i][sc->count[i]++] = tu_range(rng, 0, 4) ? ts[i].wcet_ns
                                                              : tu_range(rng, 1, ts[i].wcet_ns);
            a += ts[i].period_ns + (tu_range(rng, 0, 5) ? 0 : tu_range(rng, 1, 4));
        }
    }
}

void apa_ref_scenario_jitter(tu_rng *rng, const rtp_task *ts, size_t n, apa_ref_scenario *sc)
{
    for (size_t i = 0; i < n; i++) {
        rtp_ns jit = ts[i].jitter_ns;
        for (int h = 0; h < sc->count[i]; h++) {
            int kind = (int)tu_range(rng, 0, 2);
            rtp_ns d = kind == 0 ? 0 : kind == 1 ? jit : tu_range(rng, 0, jit);
            rtp_ns r = sc->arr[i][h] + d;
            sc->rel[i][h] = h > 0 && sc->rel[i][h - 1] > r ? sc->rel[i][h - 1] : r;
        }
    }
}

static long urgency(const long *occ, const int *prio, int c)
{
    return occ[c] < 0 ? (long)INT_MIN - 1 : prio[occ[c]];
}

/* sim.h's choice among the free CPUs: the task's previous one, else the one
 * whose previous job was least urgent (idle first), lowest index on ties. */
static int rule(uint64_t free, size_t task, const long *occ, const int *prio, int m)
{
    int pick = -1;
    for (int c = 0; c < m; c++) {
        if (!(free >> c & 1))
            continue;
        if (occ[c] == (long)task)
            return c;
        if (pick < 0 || urgency(occ, prio, c) < urgency(occ, prio, pick))
            pick = c;
    }
    return pick;
}

void apa_ref_simulate(tu_rng *pick, size_t n, const uint64_t *mask,
                      const int *prio, int m, const apa_ref_scenario *sc, rtp_ns until,
                      rtp_ns *worst)
{
    int head[APA_REF_MAXN] = {0};
    rtp_ns left[APA_REF_MAXN] = {0};
    long occ[64], next_occ[64]; /* the task on each CPU in the previous unit, -1 idle */
    for (int c = 0; c < m; c++)
        occ[c] = -1;
    for (size_t i = 0; i < n; i++)
        worst[i] = 0;
    size_t by_prio[APA_REF_MAXN];
    for (size_t i = 0; i < n; i++)
        by_prio[n - (size_t)prio[i]] = i;
    for (rtp_ns t = 0; t < until; t++) {
        uint64_t busy = 0;
        for (int c = 0; c < m; c++)
            next_occ[c] = -1;
        for (size_t x = 0; x < n; x++) {
            size_t i = by_prio[x];
            if (head[i] >= sc->count[i] || sc->rel[i][head[i]] > t)
                continue;
            if (left[i] == 0)
                left[i] = sc->exec[i][head[i]];
            uint64_t free = mask[i] & ~busy & (((uint64_t)1 << m) - 1);
            if (!free)
                continue; /* every CPU of its mask runs a more urgent job */
            int c;
            if (pick) {
                int k = (int)tu_range(pick, 0, __builtin_popcountll(free) - 1);
                while (k--)
                    free &= free - 1;
                c = __builtin_ctzll(free);
            } else {
                c = rule(free, i, occ, prio, m);
            }
            busy |= (uint64_t)1 << c;
            next_occ[c] = (long)i;
            if (--left[i] == 0) {
                rtp_ns r = t + 1 - sc->arr[i][head[i]];
                worst[i] = r > worst[i] ? r : worst[i];
                head[i]++;
            }
        }
        for (int c = 0; c < m; c++)
            occ[c] = next_occ[c];
    }
    for (size_t i = 0; i < n; i++)
        if (head[i] < sc->count[i] && sc->arr[i][head[i]] < until &&
            until - sc->arr[i][head[i]] > worst[i])
            worst[i] = until - sc->arr[i][head[i]];
}

size_t apa_ref_random_set(tu_rng *rng, rtp_task *ts, uint64_t *mask, int *prio, int *m)
{
    *m = (int)tu_range(rng, 2, 3);
    size_t n = (size_t)tu_range(rng, 2, APA_REF_MAXN);
    for (size_t i = 0; i < n; i++) {
        rtp_ns t = tu_range(rng, 4, 30);
        rtp_ns c = tu_range(rng, 1, t * *m / (rtp_ns)n + 1);
        c = c > t ? t : c;
        ts[i] = tu_task(c, tu_range(rng, c, t), t);
        do
            mask[i] = (uint64_t)tu_range(rng, 1, (1 << *m) - 1);
        while (!mask[i]);
    }
    /* deadline-monotonic priorities, ties by index */
    for (size_t i = 0; i < n; i++) {
        prio[i] = 1;
        for (size_t j = 0; j < n; j++)
            if (ts[j].deadline_ns > ts[i].deadline_ns ||
                (ts[j].deadline_ns == ts[i].deadline_ns && j > i))
                prio[i]++;
    }
    return n;
}
