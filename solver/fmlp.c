/* solver/fmlp.c — the partitioned preemptive FMLP+ under FP (see fmlp.h). */
#include "solver/fmlp.h"

#include "models/arith.h"
#include "solver/fp.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* An unbounded response time or request count. */
#define INF INT64_MAX

typedef struct ctx {
    const rtp_task *t;
    size_t n;
    const size_t *cpu;
    size_t n_bins, n_res;
    const int *prio;
    int *local_prio;      /* n: prio on one bin, 0 elsewhere (pcp_blocking) */
    const rtp_ns *R;      /* response bounds (INF = none) the bounds read */
    rtp_ns *contrib;      /* n_res: each resource's share of the last bound */
    unsigned char *used;  /* used[c * n_res + q]: a task on bin c uses q */
    uint64_t steps, max_steps;
    const rtp_limits *limits;
    rtp_diag *diag;
} ctx;

static rtp_ns cap(rtp_i128 x)
{
    return x >= INF ? INF : (rtp_ns)x;
}

/* a + b for sums of bounds, saturated at INF (each operand <= 2^126). */
static rtp_i128 sat(rtp_i128 a, rtp_i128 b)
{
    return a + b >= INF ? INF : a + b;
}

int rtp_fmlp_present(const rtp_task *tasks, size_t n)
{
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < tasks[i].n_requests; k++)
            if (tasks[i].requests[k].susp)
                return 1;
    return 0;
}

/* The sections of j's k-th request pending in a window of length w:
 * ceil((w + R_j) / T_j) jobs x count (INF when R_j or w is). */
static rtp_ns pending(const ctx *c, size_t j, size_t k, rtp_ns w)
{
    if (w == INF || c->R[j] == INF)
        return INF;
    rtp_i128 jobs = ((rtp_i128)w + c->R[j] + c->t[j].period_ns - 1) / c->t[j].period_ns;
    return cap(jobs * c->t[j].requests[k].count); /* < 2^63 x 2^62 */
}

/* The largest m sections of j among its requests, each request r repeated
 * pending(j, r, w) times (top_m of [Bra11]); adds each resource's share to
 * c->contrib. */
static rtp_i128 top(ctx *c, size_t j, rtp_ns m, rtp_ns w)
{
    const rtp_task *t = &c->t[j];
    rtp_i128 sum = 0;
    unsigned char taken[64] = {0};
    size_t nr = t->n_requests < 64 ? t->n_requests : 64; /* rtp_fmlp_partitioned refuses more */
    for (size_t k = 0; k < nr; k++)
        taken[k] = !t->requests[k].susp; /* ceiling sections are not boosted */
    while (m > 0) {
        size_t best = nr;
        for (size_t k = 0; k < nr; k++)
            if (!taken[k] && (best == nr || rtp_task_held(t, k) > rtp_task_held(t, best)))
                best = k;
        if (best == nr)
            break;
        taken[best] = 1;
        rtp_ns num = pending(c, j, best, w);
        if (num > m)
            num = m;
        rtp_i128 part = (rtp_i128)num * rtp_task_held(t, best); /* < 2^125 */
        sum = sat(sum, part);
        c->contrib[t->requests[best].resource] = cap(c->contrib[t->requests[best].resource] + part);
        m -= num;
    }
    return sum;
}

/* times x the longest ceiling (PCP) section that can block i on its CPU
 * (rtp_locks_fp_term, with the tasks of other CPUs below everything: a local
 * resource has no users there), added to its resource's share. */
static rtp_i128 pcp_blocking(ctx *c, size_t i, rtp_ns times)
{
    for (size_t j = 0; j < c->n; j++)
        c->local_prio[j] = c->cpu[j] == c->cpu[i] ? c->prio[j] : 0;
    size_t bind;
    rtp_i128 b = (rtp_i128)times * rtp_locks_fp_term(c->t, c->n, c->local_prio, i, &bind);
    if (bind != RTP_LOCKS_NONE) /* < 2^63 x 2^62 */
        c->contrib[bind] = cap(c->contrib[bind] + b);
    return b;
}

/* B^r_i and B^l_i (fmlp.h) with the windows c->R. */
static void bounds(ctx *c, size_t i, rtp_ns *remote, rtp_ns *local)
{
    const rtp_task *ti = &c->t[i];
    rtp_ns w = c->R[i];
    memset(c->contrib, 0, c->n_res * sizeof *c->contrib);
    rtp_i128 br = 0, direct = 0, n_i = 0;
    rtp_ns wake = ti->charged.release_latency_ns;
    for (size_t a = 0; a < ti->n_requests; a++)
        if (ti->requests[a].susp) /* a ceiling (PCP) request never suspends */
            n_i += ti->requests[a].count;
    for (size_t bin = 0; bin < c->n_bins; bin++) {
        rtp_i128 x = 0, issued = 0; /* X_ic, I_ic */
        for (size_t a = 0; a < ti->n_requests; a++) {
            const rtp_request *q = &ti->requests[a];
            if (!q->susp)
                continue;
            if (c->used[bin * c->n_res + q->resource])
                issued += q->count;
            for (size_t j = 0; j < c->n; j++) {
                if (j == i || c->cpu[j] != bin)
                    continue;
                for (size_t k = 0; k < c->t[j].n_requests; k++)
                    if (c->t[j].requests[k].resource == q->resource) {
                        rtp_ns mj = pending(c, j, k, w);
                        x += mj < q->count ? mj : q->count;
                    }
            }
        }
        direct += x;
        if (bin == c->cpu[i])
            continue;
        rtp_ns m = cap(x < issued ? x : issued);
        for (size_t j = 0; m > 0 && j < c->n; j++)
            if (c->cpu[j] == bin)
                br = sat(br, top(c, j, m, w));
    }
    /* one boosted lower-priority section per arrival: the release and each
     * resumption, at most one resumption per direct blocking; each of those
     * resumptions may come the release latency after the hand-over [Bra11]
     * (SchedCAT's suspension increase: the wake-up), spent suspended */
    rtp_i128 resumptions = n_i < direct ? n_i : direct;
    br = sat(br, resumptions * wake); /* < 2^63 x 2^62 */
    rtp_ns arrivals = cap(resumptions + 1);
    /* a ceiling section of a lower-priority job at each arrival too: a
     * suspending job may be blocked by one after every resumption [RSL88]
     * (the PCP bound of one blocking holds only without suspensions) */
    rtp_i128 bl = pcp_blocking(c, i, arrivals);
    for (size_t j = 0; j < c->n; j++)
        if (j != i && c->cpu[j] == c->cpu[i] && c->prio[j] <= c->prio[i])
            bl = sat(bl, top(c, j, arrivals, w));
    *remote = cap(br);
    *local = cap(bl);
}

/* Response bound of i (fmlp.h): w = own + sum over h at or above i of
 * ceil((w + J*_h) / T_h) C_h; INF when w + J'_i passes D_i. susp_jitter[h]
 * is J*_h (INF when h suspends without a bound). */
static rtp_status rta(ctx *c, size_t i, rtp_ns own, const rtp_ns *jstar, rtp_ns *resp)
{
    const rtp_task *ti = &c->t[i];
    *resp = INF;
    rtp_i128 w = own;
    for (size_t h = 0; h < c->n; h++)
        if (h != i && c->cpu[h] == c->cpu[i] && c->prio[h] >= c->prio[i]) {
            if (jstar[h] == INF)
                return RTP_OK;
            w += c->t[h].wcet_ns;
        }
    for (;;) {
        if (w + ti->jitter_ns > ti->deadline_ns)
            return RTP_OK;
        if (++c->steps > c->max_steps)
            return rtp_diag_set(c->diag, RTP_ELIMIT, "",
                                "the FMLP+ response-time iteration passed %" PRIu64
                                " steps (--max-iterations)", c->max_steps);
        if ((c->steps & 1023) == 0 && rtp_limits_check(c->limits, c->diag) != RTP_OK)
            return RTP_ELIMIT;
        rtp_i128 next = own;
        for (size_t h = 0; h < c->n; h++)
            if (h != i && c->cpu[h] == c->cpu[i] && c->prio[h] >= c->prio[i])
                next = sat(next, ((w + jstar[h] + c->t[h].period_ns - 1) / c->t[h].period_ns) *
                                     c->t[h].wcet_ns); /* w <= 2^62, J* < 2^63: < 2^127 */
        if (next == w) {
            *resp = (rtp_ns)(w + ti->jitter_ns);
            return RTP_OK;
        }
        w = next;
    }
}

/* J*_h: R_h - C_h for a task that suspends (B^r_h > 0), else J'_h. */
static rtp_ns jitter_star(const ctx *c, size_t h, rtp_ns remote)
{
    if (remote == 0)
        return c->t[h].jitter_ns;
    return c->R[h] == INF ? INF : c->R[h] - c->t[h].wcet_ns;
}

/* own demand C + B^r + B^l + given, INF past 2^62 */
static rtp_ns own_demand(const rtp_task *t, rtp_ns remote, rtp_ns local)
{
    rtp_i128 s = (rtp_i128)t->wcet_ns + remote + local + t->blocking_ns;
    return s > RTP_NS_LIMIT ? INF : (rtp_ns)s;
}

/* Audsley per bin with R_j = D_j in every bound (fmlp.h). */
static rtp_status opa(ctx *c, rtp_ns *R, int *prio, const int *dm, rtp_ns *remote,
                      rtp_ns *jstar, int *found)
{
    size_t n = c->n;
    for (size_t i = 0; i < n; i++)
        R[i] = c->t[i].deadline_ns;
    rtp_ns local;
    for (size_t i = 0; i < n; i++)
        bounds(c, i, &remote[i], &local); /* B^r reads no priority */
    for (size_t i = 0; i < n; i++)
        jstar[i] = jitter_star(c, i, remote[i]);
    *found = 1;
    for (size_t bin = 0; bin < c->n_bins; bin++) {
        size_t m = 0;
        for (size_t i = 0; i < n; i++)
            if (c->cpu[i] == bin) {
                prio[i] = (int)n + 1; /* not yet placed: above everything */
                m++;
            }
        int ok = 1;
        for (int level = 1; ok && (size_t)level <= m; level++) {
            ok = 0;
            /* candidates in reverse DM order: DM rank 1 first */
            for (int rank = 1; !ok && (size_t)rank <= m; rank++)
                for (size_t i = 0; i < n; i++) {
                    if (c->cpu[i] != bin || dm[i] != rank || prio[i] != (int)n + 1)
                        continue;
                    prio[i] = level;
                    rtp_ns r, rem;
                    bounds(c, i, &rem, &local);
                    rtp_ns own = own_demand(&c->t[i], rem, local);
                    rtp_status st = own == INF ? RTP_OK : rta(c, i, own, jstar, &r);
                    if (st != RTP_OK)
                        return st;
                    if (own != INF && r != INF) {
                        ok = 1;
                        break;
                    }
                    prio[i] = (int)n + 1;
                }
        }
        if (!ok) {
            *found = 0;
            for (size_t i = 0; i < n; i++)
                if (c->cpu[i] == bin)
                    prio[i] = dm[i];
        }
    }
    return RTP_OK;
}

/* Priorities per bin by rule (DM always into dm[] for OPA's candidates). */
static rtp_status assign(ctx *c, rtp_prio_rule rule, int *prio, int *dm, rtp_diag *diag)
{
    rtp_task *bin = malloc((c->n ? c->n : 1) * sizeof *bin);
    int *p = malloc((c->n ? c->n : 1) * sizeof *p);
    rtp_status st = !bin || !p ? rtp_oom(diag) : RTP_OK;
    for (size_t b = 0; st == RTP_OK && b < c->n_bins; b++) {
        size_t m = 0;
        for (size_t i = 0; i < c->n; i++)
            if (c->cpu[i] == b)
                bin[m++] = c->t[i];
        for (int pass = 0; pass < 2 && st == RTP_OK && m > 0; pass++) {
            int found;
            rtp_prio_rule r = pass ? (rule == RTP_PRIO_OPA ? RTP_PRIO_DM : rule) : RTP_PRIO_DM;
            if ((st = rtp_fp_assign(bin, m, r, p, &found, c->limits, diag)) != RTP_OK)
                break;
            for (size_t i = 0, x = 0; i < c->n; i++)
                if (c->cpu[i] == b)
                    (pass ? prio : dm)[i] = p[x++];
        }
    }
    free(bin);
    free(p);
    return st;
}

rtp_status rtp_fmlp_partitioned(const rtp_task *tasks, size_t n, const size_t *cpu_of,
                                size_t n_bins, rtp_prio_rule rule, const rtp_limits *limits,
                                int *schedulable, int *found, rtp_locks_task *out,
                                rtp_diag *diag)
{
    *schedulable = 0;
    *found = 1;
    size_t n_res = 1;
    for (size_t i = 0; i < n; i++) {
        if (tasks[i].deadline_ns > tasks[i].period_ns)
            return rtp_diag_set(diag, RTP_ELIMIT, "",
                                "FMLP+: task %s has a deadline past its period; the "
                                "suspension-aware analysis covers D <= T only (not analysed)",
                                tasks[i].name ? tasks[i].name : "(unnamed)");
        if (tasks[i].rr)
            return rtp_diag_set(diag, RTP_EINPUT, "resources",
                                "fmlp+ is not analysed with SCHED_RR tasks (task %s)",
                                tasks[i].name ? tasks[i].name : "(unnamed)");
        if (tasks[i].n_requests > 64)
            return rtp_diag_set(diag, RTP_ELIMIT, "", "FMLP+: more than 64 requests in a task");
        for (size_t k = 0; k < tasks[i].n_requests; k++)
            if (tasks[i].requests[k].resource + 1 > n_res)
                n_res = tasks[i].requests[k].resource + 1;
    }
    size_t nn = n ? n : 1;
    int *prio = malloc(nn * sizeof *prio), *dm = malloc(nn * sizeof *dm);
    rtp_ns *R = malloc(nn * sizeof *R), *next = malloc(nn * sizeof *next);
    rtp_ns *remote = malloc(nn * sizeof *remote), *local = malloc(nn * sizeof *local);
    rtp_ns *jstar = malloc(nn * sizeof *jstar);
    rtp_ns *contrib = malloc(n_res * sizeof *contrib);
    unsigned char *used = calloc(n_bins * n_res + 1, 1);
    int *local_prio = malloc(nn * sizeof *local_prio);
    ctx c = {tasks, n, cpu_of, n_bins, n_res, prio, local_prio, R, contrib, used, 0,
             limits && limits->max_iterations ? limits->max_iterations : UINT64_MAX, limits,
             diag};
    rtp_status st = RTP_OK;
    if (!prio || !dm || !R || !next || !remote || !local || !jstar || !contrib || !used ||
        !local_prio) {
        st = rtp_oom(diag);
        goto done;
    }
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < tasks[i].n_requests; k++)
            used[cpu_of[i] * n_res + tasks[i].requests[k].resource] = 1;
    if ((st = assign(&c, rule, prio, dm, diag)) != RTP_OK)
        goto done;
    if (rule == RTP_PRIO_OPA && (st = opa(&c, R, prio, dm, remote, jstar, found)) != RTP_OK)
        goto done;
    /* the least fixed point from R = C upward [Bra11] */
    for (size_t i = 0; i < n; i++)
        R[i] = tasks[i].wcet_ns;
    for (int changed = 1; changed;) {
        changed = 0;
        if ((st = rtp_limits_check(limits, diag)) != RTP_OK)
            goto done;
        for (size_t i = 0; i < n; i++)
            bounds(&c, i, &remote[i], &local[i]);
        for (size_t i = 0; i < n; i++)
            jstar[i] = jitter_star(&c, i, remote[i]);
        for (size_t i = 0; i < n; i++) {
            rtp_ns own = own_demand(&tasks[i], remote[i], local[i]);
            next[i] = INF;
            if (own != INF && (st = rta(&c, i, own, jstar, &next[i])) != RTP_OK)
                goto done;
            if (next[i] < R[i]) /* the bounds grow with R: never seen */
                st = rtp_diag_set(diag, RTP_EINTERNAL, "", "FMLP+: a non-monotone fixed point");
            if (st != RTP_OK)
                goto done;
            changed |= next[i] != R[i];
        }
        memcpy(R, next, n * sizeof *R);
    }
    *schedulable = *found;
    for (size_t i = 0; i < n; i++) {
        rtp_locks_task *o = &out[i];
        bounds(&c, i, &remote[i], &local[i]);
        o->spin_ns = 0;
        o->suspension_ns = remote[i];
        o->blocking_ns = cap((rtp_i128)remote[i] + local[i]);
        o->binding = RTP_LOCKS_NONE;
        for (size_t q = 0; q < n_res; q++)
            if (contrib[q] > 0 && (o->binding == RTP_LOCKS_NONE || contrib[q] > contrib[o->binding]))
                o->binding = q;
        o->priority = prio[i];
        o->response_ns = R[i] == INF ? -1 : R[i];
        *schedulable = *schedulable && R[i] != INF;
    }
done:
    free(prio);
    free(dm);
    free(R);
    free(next);
    free(remote);
    free(local);
    free(jstar);
    free(contrib);
    free(used);
    free(local_prio);
    return st;
}
