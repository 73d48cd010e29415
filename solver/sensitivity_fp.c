/* solver/sensitivity_fp.c — the critical scaling factor under fixed
 * priorities and OPA (see solver/sensitivity.c for the module,
 * solver/sensitivity.h for why it is exact).
 *
 * FP, fixed order, task i with higher-priority set hp (no equal priority):
 * the level-i busy period examines jobs q = 0, 1, ... (solver/fp.c); job q
 * arrives at a_q = q T_i - J_i and completes at w_q(alpha) = the least t > 0
 * with W_q(t) = B_i + (q + 1) C'_i + sum_{j in hp} ceil((t + J_j) / T_j)
 * C'_j <= t. W_q is constant on each interval (k T_j - J_j, (k+1) T_j -
 * J_j], so w_q(alpha) <= x iff some point t in (0, x] among {k T_j - J_j}
 * and x itself has alpha A_q(t) + K_q(t) <= t: w_q(alpha) <= x iff alpha <=
 * g_q(x) = max over those points of (t - K_q(t)) / A_q(t) [LSD89] [BB04].
 * Job q misses iff alpha > g_q(a_q + D_i); the busy period ends after job q
 * iff alpha <= g_q(a_{q+1}). Job q is examined only while the period has not
 * ended, so task i passes at alpha iff for every q: alpha <= max(g_q(a_q +
 * D_i), E_q) with E_q = max_{q' < q} g_{q'}(a_{q'+1}); plus the level-i
 * utilization bound alpha <= alpha_UL (above it the busy period never ends).
 * alpha_i = min over q of those maxima, and the scan stops once E_q reaches
 * the current minimum (every later term is at least E_q). Below alpha_UL the
 * busy period is finite, so E_q reaches any value < alpha_UL; at alpha_UL
 * with jitter or blocking it is endless and solver/fp.c examines the jobs q
 * < H / T_i only (responses repeat with the level hyperperiod H): the scan
 * stops there too. alpha* = min_i alpha_i.
 *
 * FP-OPA: alpha*(S) = min(max_k alpha_k(S), alpha*(S \ k*)), alpha_k(S) =
 * task k's factor below all of S \ {k}, k* a maximiser: at alpha*(S) the
 * task k* passes at the lowest level, so by Audsley's argument [Aud01] S \
 * k* is schedulable there; and no order does better than its lowest task.
 */
#include "solver/sensitivity_internal.h"

#include "models/arith.h"

#include <stdlib.h>
#include <string.h>

typedef struct fpjob {
    size_t i;
    const char *hp;  /* hp[j]: j is more urgent than i */
    rtp_ns q;
} fpjob;

/* ceil((t + J) / T) for t >= 1: jobs of j released in [0, t). */
static rtp_i128 jobs_before(const rtp_task *t, rtp_ns w)
{
    return ((rtp_i128)w + t->jitter_ns - 1) / t->period_ns + 1;
}

/* g_q(x) = max over the points t in (0, x] of (t - K_q(t)) / A_q(t) into
 * out; *found = 0 when x <= 0. Stops early (*reached = 1) at a point whose
 * value is >= stop (when stop is not NULL). */
static rtp_status fp_g(sctx *s, const fpjob *jb, rtp_i128 x, const mpq_t stop, mpq_t out,
                       int *found, int *reached)
{
    const rtp_task *ti = &s->e[jb->i];
    *found = 0;
    *reached = 0;
    if (x <= 0)
        return RTP_OK;
    if (x > INT64_MAX)
        return rtp_diag_set(s->diag, RTP_ELIMIT, "",
                            "critical scaling factor: a deadline passes 2^63 ns");
    mpq_t f;
    mpq_init(f);
    rtp_status st = RTP_OK;
    rtp_ns t = 0;
    while (t < x) {
        /* the next point: min(x, the first k T_j - J_j > t over hp) */
        rtp_ns next = (rtp_ns)x;
        for (size_t j = 0; j < s->n; j++) {
            if (!jb->hp[j])
                continue;
            const rtp_task *tj = &s->e[j];
            rtp_i128 p = ((rtp_i128)t + tj->jitter_ns) / tj->period_ns * tj->period_ns +
                     tj->period_ns - tj->jitter_ns;
            if (p < next)
                next = (rtp_ns)p;
        }
        t = next;
        if ((st = rtp_sens_spend(s)) != RTP_OK)
            break;
        rtp_i128 A = (rtp_i128)(jb->q + 1) * ti->wcet_ns, N = jb->q + 1;
        for (size_t j = 0; j < s->n; j++) {
            if (!jb->hp[j])
                continue;
            rtp_i128 k = jobs_before(&s->e[j], t);
            A += k * s->e[j].wcet_ns;
            N += k;
            if (A > BIG)
                break;
        }
        if (A > BIG || N > BIG / (s->c + 1)) {
            st = rtp_sens_too_big(s);
            break;
        }
        rtp_sens_qset(f, (rtp_i128)t - ti->blocking_ns - N * s->c, A);
        if (!*found || mpq_cmp(f, out) > 0) {
            mpq_set(out, f);
            *found = 1;
        }
        if (stop && mpq_cmp(f, stop) >= 0) {
            *reached = 1;
            break;
        }
    }
    mpq_clear(f);
    return st;
}

/* w_q(a): the least fixed point of W_q at alpha = a, iterated from the
 * lower bound in *w (rational, as solver/fp.c iterates in integers); stops
 * with *over = 1 as soon as it passes x. */
static rtp_status fp_w(sctx *s, const fpjob *jb, const mpq_t a, rtp_i128 x, mpq_t w, int *over)
{
    const rtp_task *ti = &s->e[jb->i];
    mpz_t k, num;
    mpq_t next, xq;
    mpz_inits(k, num, NULL);
    mpq_inits(next, xq, NULL);
    rtp_sens_zset(mpq_numref(xq), x);
    rtp_status st = RTP_OK;
    *over = 0;
    for (;;) {
        if (mpq_cmp(w, xq) > 0) {
            *over = 1;
            break;
        }
        if ((st = rtp_sens_spend(s)) != RTP_OK)
            break;
        /* A = (q + 1) w_i + sum k_j w_j, N = (q + 1) + sum k_j, k_j = ceil((w + J_j) / T_j) */
        mpz_t A, N;
        mpz_inits(A, N, NULL);
        mpz_set_si(N, jb->q + 1);
        mpz_mul_si(A, N, ti->wcet_ns);
        for (size_t j = 0; j < s->n; j++) {
            if (!jb->hp[j])
                continue;
            const rtp_task *tj = &s->e[j];
            mpz_mul_si(num, mpq_denref(w), tj->jitter_ns);
            mpz_add(num, num, mpq_numref(w));
            mpz_mul_si(k, mpq_denref(w), tj->period_ns);
            mpz_cdiv_q(k, num, k);
            mpz_add(N, N, k);
            mpz_addmul_ui(A, k, (unsigned long)tj->wcet_ns);
        }
        mpq_set_z(next, A);
        mpq_mul(next, next, a);
        mpz_mul_si(N, N, s->c);
        mpz_add_ui(N, N, (unsigned long)ti->blocking_ns);
        mpq_set_z(xq, N);
        mpq_add(next, next, xq);
        rtp_sens_zset(mpq_numref(xq), x);
        mpz_set_ui(mpq_denref(xq), 1);
        mpz_clears(A, N, NULL);
        if (mpq_cmp(next, w) <= 0)
            break;
        mpq_set(w, next);
    }
    mpz_clears(k, num, NULL);
    mpq_clears(next, xq, NULL);
    return st;
}

/* Does job q's level-i busy period end by a_{q+1} at alpha = a (w_q(a) <=
 * a_{q+1}), or does job q miss at a (w_q(a) > a_q + D_i)? */
static rtp_status fp_job(sctx *s, const fpjob *jb, const mpq_t a, int *ends, int *misses)
{
    const rtp_task *ti = &s->e[jb->i];
    rtp_i128 arr = (rtp_i128)jb->q * ti->period_ns - ti->jitter_ns;
    mpq_t w, own;
    mpq_inits(w, own, NULL);
    rtp_sens_qset(own, (rtp_i128)(jb->q + 1) * ti->wcet_ns, 1); /* own work: a lower bound */
    mpq_mul(w, own, a);
    rtp_sens_qset(own, (rtp_i128)(jb->q + 1) * s->c + ti->blocking_ns, 1);
    mpq_add(w, w, own);
    int over = 0;
    rtp_status st = fp_w(s, jb, a, arr + ti->deadline_ns, w, &over);
    *misses = over;
    *ends = 0;
    if (st == RTP_OK && !over) {
        rtp_sens_qset(own, arr + ti->period_ns, 1);
        *ends = mpq_cmp(w, own) <= 0;
    }
    mpq_clears(w, own, NULL);
    return st;
}

/* alpha_i of task i below the tasks with hp[j] set (none equal to it),
 * capped at *cap when cap is not NULL (then best = min(alpha_i, cap));
 * stops early once best <= *floor (then only "alpha_i <= floor" is known).
 * Fast path: job q is checked at the current candidate with the rational
 * response-time iteration (fp_job); the exact g values are enumerated only
 * when a job misses there (the candidate then drops). Jobs whose busy period
 * goes on at the candidate are kept in `pending` until such an event needs
 * E_q. */
static rtp_status fp_task_alpha(sctx *s, size_t i, const char *hp, char *level,
                                const mpq_t cap, const mpq_t floor, mpq_t best, int *exists)
{
    const rtp_task *ti = &s->e[i];
    *exists = 0;
    if (ti->jitter_ns >= ti->deadline_ns)
        return RTP_OK;
    int delays = ti->blocking_ns > 0;
    rtp_ns hyper = 1;
    for (size_t j = 0; j < s->n; j++) {
        level[j] = hp[j] || j == i;
        if (!level[j])
            continue;
        delays = delays || s->e[j].jitter_ns > 0;
        if (hyper > 0 && rtp_lcm(hyper, s->e[j].period_ns, &hyper) != RTP_OK)
            hyper = 0; /* unknown: the scan then ends on E_q or the step budget */
    }
    if (!rtp_sens_util_alpha(s, level, best))
        return RTP_OK;
    rtp_ns jobs = delays ? hyper / ti->period_ns : 0;
    mpq_t ul, g, e;
    mpq_inits(ul, g, e, NULL);
    mpq_set(ul, best);
    if (cap && mpq_cmp(cap, best) < 0)
        mpq_set(best, cap);
    int has_e = 0, found, reached, ends, misses;
    rtp_ns *pending = NULL;
    size_t n_pending = 0, cap_pending = 0;
    rtp_status st = RTP_OK;
    fpjob jb = {i, hp, 0};
    for (rtp_ns q = 0;; q++) {
        jb.q = q;
        if ((st = fp_job(s, &jb, best, &ends, &misses)) != RTP_OK)
            break;
        if (misses) {
            /* the candidate drops to max(g_q(a_q + D), E_q), both exact */
            rtp_i128 arr = (rtp_i128)q * ti->period_ns - ti->jitter_ns;
            if ((st = fp_g(s, &jb, arr + ti->deadline_ns, best, g, &found, &reached)) != RTP_OK)
                break;
            for (size_t k = 0; k < n_pending && st == RTP_OK; k++) {
                fpjob pj = {i, hp, pending[k]};
                mpq_t ge;
                mpq_init(ge);
                int f2, r2;
                st = fp_g(s, &pj, (rtp_i128)(pending[k] + 1) * ti->period_ns - ti->jitter_ns, best,
                          ge, &f2, &r2);
                if (st == RTP_OK && f2 && (!has_e || mpq_cmp(ge, e) > 0)) {
                    mpq_set(e, ge);
                    has_e = 1;
                }
                mpq_clear(ge);
            }
            n_pending = 0;
            if (st != RTP_OK)
                break;
            if (!found && !has_e)
                goto done; /* job q misses at every alpha */
            if (!found || (has_e && mpq_cmp(e, g) > 0))
                mpq_set(g, e);
            if (mpq_cmp(g, best) < 0) /* always: job q misses at best */
                mpq_set(best, g);
            if (has_e && mpq_cmp(e, best) >= 0)
                break; /* at best the busy period ends before job q */
            if (floor && mpq_cmp(best, floor) <= 0)
                break;
            if ((st = fp_job(s, &jb, best, &ends, &misses)) != RTP_OK)
                break;
        }
        if (ends)
            break; /* E_q >= best: no later job lowers it */
        if (n_pending == cap_pending) {
            cap_pending = cap_pending ? 2 * cap_pending : 16;
            rtp_ns *bigger = realloc(pending, cap_pending * sizeof *pending);
            if (!bigger) {
                st = RTP_ENOMEM;
                break;
            }
            pending = bigger;
        }
        pending[n_pending++] = q;
        if (jobs > 0 && q + 1 >= jobs && mpq_equal(best, ul))
            break; /* at alpha_UL the responses repeat from here */
    }
    if (st == RTP_OK)
        *exists = mpq_sgn(best) > 0;
done:
    free(pending);
    mpq_clears(ul, g, e, NULL);
    return st;
}

/* alpha* under fixed priorities prio[] (no two equal). Tasks are taken in
 * increasing order of their first job's factor g_0(D_i - J_i) (an upper
 * bound of alpha_i) and each is capped at the minimum so far, so a task
 * whose own factor is larger (often one reaching level utilization 1, whose
 * exact busy period can be long) stops as soon as its busy period at the cap
 * ends. */
typedef struct ranked {
    mpq_t key;
    size_t index;
} ranked;

static int ranked_cmp(const void *x, const void *y)
{
    const ranked *a = x, *b = y;
    int c = mpq_cmp(a->key, b->key);
    return c ? c : (a->index > b->index) - (a->index < b->index);
}

rtp_status rtp_sens_fp_fixed(sctx *s, const int *prio, mpq_t out, int *exists)
{
    char *hp = malloc(2 * s->n);
    ranked *order = malloc(s->n * sizeof *order);
    if (!hp || !order) {
        free(hp);
        free(order);
        return RTP_ENOMEM;
    }
    rtp_status st = RTP_OK;
    for (size_t i = 0; i < s->n; i++) {
        order[i].index = i;
        mpq_init(order[i].key);
        for (size_t j = 0; j < s->n; j++)
            hp[j] = prio[j] > prio[i];
        fpjob jb = {i, hp, 0};
        int found = 0, reached;
        if (st == RTP_OK)
            st = fp_g(s, &jb, s->e[i].deadline_ns - s->e[i].jitter_ns, NULL, order[i].key,
                      &found, &reached);
        if (!found)
            mpq_set_si(order[i].key, -1, 1);
    }
    if (st == RTP_OK)
        qsort(order, s->n, sizeof *order, ranked_cmp);
    mpq_t a;
    mpq_init(a);
    *exists = 1;
    for (size_t r = 0; r < s->n && st == RTP_OK && *exists; r++) {
        size_t i = order[r].index;
        for (size_t j = 0; j < s->n; j++)
            hp[j] = prio[j] > prio[i];
        st = fp_task_alpha(s, i, hp, hp + s->n, r ? out : NULL, NULL, a, exists);
        if (st == RTP_OK && *exists && (r == 0 || mpq_cmp(a, out) < 0))
            mpq_set(out, a);
    }
    mpq_clear(a);
    for (size_t i = 0; i < s->n; i++)
        mpq_clear(order[i].key);
    free(order);
    free(hp);
    return st;
}

/* alpha* under OPA: greedy per level from the lowest (see the top). With
 * cur = the minimum over the levels so far (>= alpha*), a task whose factor
 * reaches cur may be taken at once: it passes at alpha* (>= cur is >=
 * alpha*), which is all the exchange argument needs; so factors are capped
 * at cur, and a candidate is abandoned once it cannot beat the best one of
 * its level. */
rtp_status rtp_sens_fp_opa(sctx *s, mpq_t out, int *exists)
{
    char *left = malloc(3 * s->n);
    if (!left)
        return RTP_ENOMEM;
    char *hp = left + s->n;
    memset(left, 1, s->n);
    mpq_t a, top;
    mpq_inits(a, top, NULL);
    rtp_status st = RTP_OK;
    *exists = 1;
    for (size_t level = 0; level < s->n && st == RTP_OK && *exists; level++) {
        size_t pick = s->n;
        for (size_t k = 0; k < s->n && st == RTP_OK; k++) {
            if (!left[k])
                continue;
            for (size_t j = 0; j < s->n; j++)
                hp[j] = left[j] && j != k;
            int ok = 0;
            st = fp_task_alpha(s, k, hp, hp + s->n, level ? out : NULL,
                               pick < s->n ? top : NULL, a, &ok);
            if (st == RTP_OK && ok && (pick == s->n || mpq_cmp(a, top) > 0)) {
                mpq_set(top, a);
                pick = k;
                if (level && mpq_cmp(top, out) >= 0)
                    break; /* reaches cur: take it */
            }
        }
        if (st != RTP_OK)
            break;
        if (pick == s->n) {
            *exists = 0;
            break;
        }
        if (level == 0 || mpq_cmp(top, out) < 0)
            mpq_set(out, top);
        left[pick] = 0;
    }
    mpq_clears(a, top, NULL);
    free(left);
    return st;
}
