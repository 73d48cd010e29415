/* solver/edf_tail.c — the EDF demand condition at U' = 1 for every
 * t >= T0 = max D*_i at once, without walking the busy period (see
 * solver/edf_tail.h; used by the exact test, solver/edf.c, at alpha = 1 and
 * by the critical scaling factor, solver/sensitivity_edf.c).
 *
 * At alpha with U'(alpha) = sum U'_i = 1, U'_i = (alpha w_i + c) / T_i, and
 * t >= T0 every task has n_i(t) = (t - D*_i - m_i(t)) / T_i + 1 jobs due
 * by t, m_i(t) = (t - D*_i) mod T_i, and b(t) = B (the largest blocking).
 * So h(t) = t + K0 - Phi(t) with K0 = B + sum U'_i (T_i - D*_i) and
 * Phi(t) = sum U'_i m_i(t): h(t) > t iff Phi(t) < K0. Phi depends on t
 * only through its residues, and every residue modulo the hyperperiod
 * occurs in [T0, T0 + H), so the tail fails iff min over all integers t of
 * Phi(t) < K0.
 *
 * The minimum without enumerating H: split the tasks into groups (tasks
 * whose periods share a large factor together) with periods' lcm L_k per
 * group, so Phi = sum_k Phi_k(t mod L_k). Let M = lcm over pairs of
 * gcd(L_k, L_l) and g_k = gcd(L_k, M). Residues (a_k mod L_k) come from one
 * t iff they are pairwise compatible modulo gcd(L_k, L_l) (the Chinese
 * remainder theorem, general moduli), iff a_k = rho (mod g_k) for one rho
 * modulo M (each gcd(L_k, L_l) divides M and L_k, hence g_k). So
 *   min_t Phi(t) = min over rho < M of sum_k best_k(rho mod g_k),
 *   best_k(r) = min { Phi_k(a) : 0 <= a < L_k, a = r (mod g_k) }.
 * Between two consecutive step points s < s' of a group (some m_i resets
 * at s) Phi_k(a) = Phi_k(s) + U'_k (a - s) with U'_k = the group's sum of
 * U'_i >= 0, so the first a >= s of each residue in [s, s') is the
 * interval's best: best_k costs min(L_k, steps_k g_k) updates. The grouping
 * is chosen among "merge two tasks when gcd(T_i, T_j) > theta" for the
 * thresholds theta among the pairwise gcds, by that cost plus M K; one
 * group (M = 1) is the hyperperiod walk itself. Everything is exact (GMP
 * rationals); a failing t is rebuilt by the Chinese remainder theorem. */
#include "solver/edf_tail.h"
#include "models/grow.h"

#include "models/arith.h"

#include <stdlib.h>
#include <string.h>

/* The inputs and the step budget of one call. */
typedef struct tctx {
    const rtp_task *e; /* wcet_ns = w, jitter_ns = J' */
    size_t n;
    rtp_ns c;          /* added to every job's alpha w */
    uint64_t *used, max;
} tctx;

/* One step; RTP_ELIMIT past the budget. */
static rtp_status spend(tctx *s)
{
    return ++*s->used <= s->max ? RTP_OK : RTP_ELIMIT;
}

/* q = v / 1 */
static void qset(mpq_t q, rtp_ns v)
{
    mpq_set_si(q, v, 1);
}

typedef struct grouping {
    size_t *group;   /* group of each task, 0 .. k-1 */
    size_t k;
    rtp_ns *lcm;     /* per group */
    rtp_ns m;        /* M */
    rtp_i128 cost;
} grouping;

static int cmp_ns(const void *x, const void *y)
{
    rtp_ns a = *(const rtp_ns *)x, b = *(const rtp_ns *)y;
    return (a > b) - (a < b);
}

static size_t find(size_t *up, size_t x)
{
    while (up[x] != x)
        x = up[x] = up[up[x]];
    return x;
}

/* The grouping for threshold theta into g (arrays of n); cost < 0 when an
 * lcm passes 2^62. */
static void group_by(const tctx *s, rtp_ns theta, size_t *up, grouping *g)
{
    size_t n = s->n;
    for (size_t i = 0; i < n; i++)
        up[i] = i;
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++)
            if (rtp_gcd(s->e[i].period_ns, s->e[j].period_ns) > theta)
                up[find(up, i)] = find(up, j);
    g->k = 0;
    g->cost = -1;
    for (size_t i = 0; i < n; i++)
        g->group[i] = find(up, i);
    for (size_t i = 0; i < n; i++) { /* roots renumbered 0 .. k-1 in order of first task */
        size_t r = g->group[i], first = i;
        for (size_t j = 0; j < i; j++)
            if (g->group[j] == r) {
                first = j;
                break;
            }
        up[i] = first == i ? g->k++ : up[first];
    }
    for (size_t i = 0; i < n; i++)
        g->group[i] = up[i];
    for (size_t k = 0; k < g->k; k++)
        g->lcm[k] = 1;
    for (size_t i = 0; i < n; i++)
        if (rtp_lcm(g->lcm[g->group[i]], s->e[i].period_ns, &g->lcm[g->group[i]]) != RTP_OK ||
            g->lcm[g->group[i]] > RTP_NS_LIMIT)
            return;
    g->m = 1;
    for (size_t k = 0; k < g->k; k++)
        for (size_t l = k + 1; l < g->k; l++)
            if (rtp_lcm(g->m, rtp_gcd(g->lcm[k], g->lcm[l]), &g->m) != RTP_OK ||
                g->m > RTP_NS_LIMIT)
                return;
    rtp_i128 cost = (rtp_i128)g->m * (rtp_i128)g->k;
    for (size_t i = 0; i < n; i++) {
        size_t k = g->group[i];
        rtp_i128 steps = g->lcm[k] / s->e[i].period_ns, gk = rtp_gcd(g->lcm[k], g->m);
        rtp_i128 upd = steps * gk < g->lcm[k] ? steps * gk : g->lcm[k];
        cost += steps * (rtp_i128)(n + 1) + upd;
    }
    g->cost = cost;
}

/* best[r] (r < gk) and an argument arg[r] for one group. */
static rtp_status group_table(tctx *s, const grouping *g, size_t k, const mpq_t *u, rtp_ns gk,
                              mpq_t *best, rtp_ns *arg)
{
    rtp_ns L = g->lcm[k];
    size_t cnt = 0, cap = 0;
    rtp_ns *pts = NULL;
    rtp_status st = RTP_OK;
    for (size_t i = 0; i < s->n && st == RTP_OK; i++) {
        if (g->group[i] != k)
            continue;
        const rtp_task *t = &s->e[i];
        for (rtp_ns p = (t->deadline_ns - t->jitter_ns) % t->period_ns; p < L; p += t->period_ns) {
            if (RTP_GROW(pts, cap, cnt + 1) != 0) {
                st = RTP_ENOMEM;
                break;
            }
            pts[cnt++] = p;
        }
    }
    char *set = st == RTP_OK ? calloc((size_t)gk, 1) : NULL;
    if (!set) {
        free(pts);
        return RTP_ENOMEM;
    }
    qsort(pts, cnt, sizeof *pts, cmp_ns);
    mpq_t phi, v, uk, term;
    mpq_inits(phi, v, uk, term, NULL);
    for (size_t i = 0; i < s->n; i++)
        if (g->group[i] == k)
            mpq_add(uk, uk, u[i]);
    for (size_t j = 0; j < cnt && st == RTP_OK; j++) {
        if (j > 0 && pts[j] == pts[j - 1])
            continue;
        rtp_ns at = pts[j], next = j + 1 < cnt ? pts[j + 1] : pts[0] + L;
        for (size_t jj = j + 1; jj < cnt && pts[jj] == at; jj++)
            next = jj + 1 < cnt ? pts[jj + 1] : pts[0] + L;
        mpq_set_ui(phi, 0, 1);
        for (size_t i = 0; i < s->n; i++) {
            if (g->group[i] != k)
                continue;
            const rtp_task *t = &s->e[i];
            rtp_ns d = t->deadline_ns - t->jitter_ns, r = ((at - d) % t->period_ns + t->period_ns) %
                                                           t->period_ns;
            qset(term, r);
            mpq_mul(term, term, u[i]);
            mpq_add(phi, phi, term);
        }
        rtp_ns len = next - at, span = len < gk ? len : gk;
        for (rtp_ns delta = 0; delta < span; delta++) {
            if ((st = spend(s)) != RTP_OK)
                break;
            rtp_ns r = (at + delta) % gk;
            qset(v, delta);
            mpq_mul(v, v, uk);
            mpq_add(v, v, phi);
            if (!set[r] || mpq_cmp(v, best[r]) < 0) {
                mpq_set(best[r], v);
                arg[r] = (at + delta) % L;
                set[r] = 1;
            }
        }
    }
    mpq_clears(phi, v, uk, term, NULL);
    free(set);
    free(pts);
    return st;
}


/* x = r (mod m) merged with y (mod l) into x (mod lcm); compatible moduli
 * (see the top). */
static void crt(mpz_t x, mpz_t m, rtp_ns y, rtp_ns l)
{
    mpz_t g, ml, inv, d;
    mpz_inits(g, ml, inv, d, NULL);
    mpz_set_si(ml, l);
    mpz_gcd(g, m, ml);
    mpz_set_si(d, y);
    mpz_sub(d, d, x);
    mpz_divexact(d, d, g);     /* (y - x) / g */
    mpz_divexact(ml, ml, g);   /* l / g */
    mpz_divexact(inv, m, g);   /* m / g */
    if (mpz_cmp_ui(ml, 1) > 0)
        mpz_invert(inv, inv, ml);
    else
        mpz_set_ui(inv, 0);
    mpz_mul(d, d, inv);
    mpz_mod(d, d, ml);
    mpz_addmul(x, m, d);
    mpz_mul(m, m, ml);
    mpz_mod(x, x, m);
    mpz_clears(g, ml, inv, d, NULL);
}

rtp_status rtp_edf_tail(const rtp_task *tasks, size_t n, rtp_ns per_job_ns, const mpq_t a,
                        rtp_ns t0, uint64_t *used, uint64_t max, int *decided, rtp_ns *failed)
{
    tctx sc = {tasks, n, per_job_ns, used, max}, *s = &sc;
    *decided = 0;
    *failed = 0;
    grouping g = {0}, try = {0};
    size_t *up = malloc(n * sizeof *up);
    g.group = malloc(n * sizeof *g.group);
    g.lcm = malloc(n * sizeof *g.lcm);
    try.group = malloc(n * sizeof *try.group);
    try.lcm = malloc(n * sizeof *try.lcm);
    rtp_ns *thetas = malloc((n * (n - 1) / 2 + 1) * sizeof *thetas);
    mpq_t *u = malloc(n * sizeof *u), **best = calloc(n, sizeof *best);
    rtp_ns **arg = calloc(n, sizeof *arg), *gk = calloc(n, sizeof *gk);
    rtp_status st = RTP_OK;
    if (!up || !g.group || !g.lcm || !try.group || !try.lcm || !thetas || !u || !best || !arg ||
        !gk) {
        st = RTP_ENOMEM;
        goto done;
    }
    /* the thresholds: 0 (one group when all periods share a factor) and
     * every pairwise gcd; the cheapest grouping wins */
    size_t nt = 0;
    thetas[nt++] = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++)
            thetas[nt++] = rtp_gcd(s->e[i].period_ns, s->e[j].period_ns);
    qsort(thetas, nt, sizeof *thetas, cmp_ns);
    size_t distinct = 0;
    for (size_t q = 0; q < nt; q++)
        if (q == 0 || thetas[q] != thetas[distinct - 1])
            thetas[distinct++] = thetas[q];
    /* at most 64 of them, spread over the sorted list (any grouping is
     * exact; this only bounds the search for a cheap one) */
    size_t stride = distinct > 64 ? (distinct + 63) / 64 : 1;
    g.cost = -1;
    for (size_t q = 0; q < distinct; q += stride) {
        if ((st = spend(s)) != RTP_OK)
            goto done;
        group_by(s, thetas[q], up, &try);
        if (try.cost >= 0 && (g.cost < 0 || try.cost < g.cost)) {
            grouping keep = g;
            g = try;
            try = keep;
        }
    }
    if (g.cost < 0 || g.cost > (rtp_i128)(s->max - *s->used))
        goto done; /* not decided here: the caller walks the busy period */
    for (size_t i = 0; i < n; i++) {
        mpq_init(u[i]);
        qset(u[i], s->e[i].wcet_ns);
        mpq_mul(u[i], u[i], a);
        mpq_t cq;
        mpq_init(cq);
        qset(cq, s->c);
        mpq_add(u[i], u[i], cq);
        qset(cq, s->e[i].period_ns);
        mpq_div(u[i], u[i], cq);
        mpq_clear(cq);
    }
    for (size_t k = 0; k < g.k && st == RTP_OK; k++) {
        gk[k] = rtp_gcd(g.lcm[k], g.m);
        best[k] = malloc((size_t)gk[k] * sizeof *best[k]);
        arg[k] = malloc((size_t)gk[k] * sizeof *arg[k]);
        if (!best[k] || !arg[k]) {
            free(best[k]);
            best[k] = NULL;
            st = RTP_ENOMEM;
            break;
        }
        for (rtp_ns r = 0; r < gk[k]; r++)
            mpq_init(best[k][r]);
        st = group_table(s, &g, k, (const mpq_t *)u, gk[k], best[k], arg[k]);
    }
    mpq_t k0, sum, low, term;
    mpq_inits(k0, sum, low, term, NULL);
    rtp_ns bmax = 0, rho_low = 0;
    for (size_t i = 0; i < n; i++) {
        const rtp_task *t = &s->e[i];
        qset(term, t->period_ns - (t->deadline_ns - t->jitter_ns));
        mpq_mul(term, term, u[i]);
        mpq_add(k0, k0, term);
        if (t->blocking_ns > bmax)
            bmax = t->blocking_ns;
    }
    qset(term, bmax);
    mpq_add(k0, k0, term);
    for (rtp_ns rho = 0; rho < g.m && st == RTP_OK; rho++) {
        if ((st = spend(s)) != RTP_OK)
            break;
        mpq_set_ui(sum, 0, 1);
        for (size_t k = 0; k < g.k; k++)
            mpq_add(sum, sum, best[k][rho % gk[k]]);
        if (rho == 0 || mpq_cmp(sum, low) < 0) {
            mpq_set(low, sum);
            rho_low = rho;
        }
    }
    if (st == RTP_OK) {
        *decided = 1;
        if (mpq_cmp(low, k0) < 0) { /* a failure: t from the residues, >= t0 */
            mpz_t x, m;
            mpz_inits(x, m, NULL);
            mpz_set_ui(m, 1);
            for (size_t k = 0; k < g.k; k++)
                crt(x, m, arg[k][rho_low % gk[k]], g.lcm[k]);
            if (mpz_cmp_si(x, t0) < 0) { /* x + m ceil((t0 - x) / m) */
                mpz_t d;
                mpz_init(d);
                mpz_set_si(d, t0);
                mpz_sub(d, d, x);
                mpz_cdiv_q(d, d, m);
                mpz_addmul(x, d, m);
                mpz_clear(d);
            }
            *failed = mpz_cmp_si(x, RTP_NS_LIMIT) <= 0 ? mpz_get_si(x) : -1;
            mpz_clears(x, m, NULL);
        }
    }
    mpq_clears(k0, sum, low, term, NULL);
    for (size_t i = 0; i < n; i++)
        mpq_clear(u[i]);
    for (size_t k = 0; k < g.k; k++) {
        if (best[k])
            for (rtp_ns r = 0; r < gk[k]; r++)
                mpq_clear(best[k][r]);
        free(best[k]);
        free(arg[k]);
    }
done:
    free(up);
    free(g.group);
    free(g.lcm);
    free(try.group);
    free(try.lcm);
    free(thetas);
    free(u);
    free(best);
    free(arg);
    free(gk);
    return st;
}
