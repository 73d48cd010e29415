/* solver/sensitivity_fp.c — the critical scaling factor under fixed
 * priorities and OPA (see solver/sensitivity.c for the module,
 * solver/sensitivity.h for why it is exact).
 *
 * FP, fixed order, task i with higher-priority set hp and no equal one:
 * the level-i busy period examines jobs q = 0, 1, ... (solver/fp.c); job q
 * arrives at a_q = q T_i - J_i and completes at w_q(alpha) = the least t > 0
 * with W_q(t) = B_i + (q + 1) C'_i + sum_{j in hp} ceil((t + J_j) / T_j)
 * C'_j <= t. W_q is constant on each interval (k T_j - J_j, (k+1) T_j -
 * J_j], so w_q(alpha) <= x iff some point t in (0, x] among {k T_j - J_j}
 * and x itself has alpha A_q(t) + K_q(t) <= t: w_q(alpha) <= x iff alpha <=
 * g_q(x) = max over those points of (t - K_q(t)) / A_q(t) [LSD89] [BB04]
 * (rtp_sens_work_max, for any work function of this shape; a task with
 * equal-priority peers: sensitivity_fifo.c).
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
 * stops there too. Past 64 jobs, at job counts 2^k, the linear bound of
 * solver/fp_bound.h is tried at the candidate: when it proves every later
 * job in time there, the candidate is alpha_i (no walk to the end of a busy
 * period that a level utilization near 1 makes long, or endless with an
 * unknown hyperperiod). alpha* = min_i alpha_i.
 *
 * FP-OPA: alpha*(S) = min(max_k alpha_k(S), alpha*(S \ k*)), alpha_k(S) =
 * task k's factor below all of S \ {k}, k* a maximiser: at alpha*(S) the
 * task k* passes at the lowest level, so by Audsley's argument [Aud01] S \
 * k* is schedulable there; and no order does better than its lowest task.
 */
#include "solver/sensitivity_internal.h"
#include "models/grow.h"

#include "models/arith.h"
#include "solver/fp.h"
#include "solver/fp_bound.h"
#include "solver/fp_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The work of job q of task i below the sequences seq[0..nh) (the tasks
 * more urgent than i): its own q + 1 jobs always count. */
static rtp_sens_work job_work(const sctx *s, size_t i, rtp_ns q, const rtp_sens_seq *seq,
                              size_t nh)
{
    rtp_sens_work wk = {(rtp_i128)(q + 1) * s->e[i].wcet_ns, (rtp_i128)q + 1,
                        s->e[i].blocking_ns, seq, nh};
    return wk;
}

/* The sequences of the tasks with hp[j] set, critical pattern (first job
 * arriving at -J_j, released at 0); their count. */
static size_t hp_seqs(const sctx *s, const char *hp, rtp_sens_seq *seq)
{
    size_t m = 0;
    for (size_t j = 0; j < s->n; j++)
        if (hp[j]) {
            rtp_sens_seq q = {s->e[j].wcet_ns, -s->e[j].jitter_ns, s->e[j].period_ns, -1};
            seq[m++] = q;
        }
    return m;
}

/* Does job q's level-i busy period end by a_{q+1} at alpha = a (w_q(a) <=
 * a_{q+1}), or does job q miss at a (w_q(a) > a_q + D_i)? *w holds
 * w_{q-1}(a) on entry when *known (else the search starts at 0), w_q(a) on
 * return when it meets. Job q's work is at least job q - 1's at every t,
 * so no t < w_{q-1}(a) has W_q(t) <= t: the search may start after
 * ceil(w_{q-1}(a)) - 1 (a busy period of q jobs then costs O(q) points,
 * not O(q^2)). */
static rtp_status fp_job(sctx *s, const rtp_sens_work *wk, size_t i, rtp_ns q, const mpq_t a,
                         mpq_t w, int *known, int *ends, int *misses)
{
    const rtp_task *ti = &s->e[i];
    rtp_i128 arr = (rtp_i128)q * ti->period_ns - ti->jitter_ns, lo = 0;
    if (*known) {
        mpz_t z;
        mpz_init(z);
        mpz_cdiv_q(z, mpq_numref(w), mpq_denref(w));
        lo = mpz_get_si(z) - 1;
        mpz_clear(z);
    }
    int holds = 0;
    rtp_status st = rtp_sens_work_settle(s, wk, a, lo, arr + ti->deadline_ns, &holds, w);
    *misses = !holds;
    *known = st == RTP_OK && holds;
    *ends = *known && mpq_cmp_si(w, (long)(arr + ti->period_ns), 1) <= 0;
    return st;
}

/* RTP_ELIMIT for task i's level at alpha_UL (utilization 1, an endless
 * busy period whose responses repeat after `jobs` jobs, 0: a hyperperiod
 * past 2^63 ns), saying what was tried (`how`). */
static rtp_status endless_limit(sctx *s, size_t i, const mpq_t ul, rtp_ns jobs, const char *how)
{
    char a[48], rep[96] = "its level hyperperiod passes 2^63 ns";
    rtp_sens_format_decimal(ul, a, sizeof a);
    if (jobs > 0)
        snprintf(rep, sizeof rep, "its responses repeat after %lld jobs (the level hyperperiod)",
                 (long long)jobs);
    return rtp_diag_set(s->diag, RTP_ELIMIT, "",
                        "critical scaling factor not found in %llu steps: at alpha_U = %s the "
                        "level utilization of tasks[%zu] is 1 and its busy period never ends; "
                        "%s, %s", (unsigned long long)s->max, a, i, rep, how);
}

/* At alpha_UL task i's level utilization is exactly 1 (with jitter or
 * blocking its busy period never ends): does it pass there? Asked of
 * solver/fp.c on the multiplied-out integers (rtp_sens_scaled), where the
 * jobs q < H / T_i decide (R_{q + H/T_i} <= R_q, proved there) and the
 * lattice search of its far_jobs covers them at once, in integers, where
 * the rational walk below would visit every one. *meets = 0 too when those
 * times pass 2^62 ns (the walk then). Out of steps: RTP_ELIMIT saying what
 * was tried (the walk would spend at least as many: at alpha_UL it visits
 * the same jobs until the first late one, which the check finds too). */
static rtp_status meets_at_limit(sctx *s, size_t i, const char *hp, const mpq_t ul, rtp_ns jobs,
                                 int *meets)
{
    *meets = 0;
    rtp_task *x = malloc(s->n * sizeof *x);
    if (!x)
        return RTP_ENOMEM;
    rtp_status st = RTP_OK;
    if (rtp_sens_scaled(s, ul, x)) {
        rtp_limits lim = rtp_limits_default();
        lim.max_iterations = s->max > s->used ? s->max - s->used : 0;
        uint64_t steps = 0;
        rtp_diag d;
        st = rtp_fp_task_meets(x, s->n, hp, i, meets, &steps, &lim, &d);
        s->used += steps;
        if (st == RTP_ELIMIT)
            st = jobs > 0 ? endless_limit(s, i, ul, jobs, "which the lattice search and the "
                                                          "job walk in integers did not cover")
                          : rtp_diag_set(s->diag, RTP_ELIMIT, "", "%s", d.message);
        else if (st != RTP_OK)
            st = rtp_diag_set(s->diag, st, "", "%s", d.message);
    }
    free(x);
    return st;
}

/* alpha_i of task i below the tasks with hp[j] set (none equal to it),
 * capped at *cap when cap is not NULL (then best = min(alpha_i, cap));
 * stops early once best <= *floor (then only "alpha_i <= floor" is known).
 * Fast path: job q is checked at the current candidate with the rational
 * response-time iteration (fp_job); the exact g values are enumerated only
 * when a job misses there (the candidate then drops). Jobs whose busy period
 * goes on at the candidate are kept in `pending` until such an event needs
 * E_q. Each job's g is taken over its own window only (points after a_q):
 * at a point t, (t - K_q(t)) / A_q(t) falls with q wherever it is > 0 (A_q
 * and the job count in K_q grow with q), so a positive value at t <= a_q is
 * at most that of the job q' < q whose window (a_q', a_q'+1] holds t,
 * already in E_q. max(g_q(a_q + D_i), E_q) is therefore the same whenever
 * it is > 0 (and <= 0 both ways: then no alpha > 0 passes), and the scan
 * visits each point once instead of once per later job (q^2 / 2 points in
 * a long busy period: the reviewer's set took 2.6 s and then passed the
 * step budget at job 17,692). */
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
    mpq_t ul, g, e, w;
    mpq_inits(ul, g, e, w, NULL);
    int known = 0; /* w = w_{q-1}(best) (fp_job) */
    mpq_set(ul, best);
    if (cap && mpq_cmp(cap, best) < 0)
        mpq_set(best, cap);
    int has_e = 0, found, reached, ends, misses;
    rtp_ns *pending = NULL;
    size_t n_pending = 0, cap_pending = 0;
    rtp_status st = RTP_OK;
    rtp_sens_seq *seq = malloc(s->n * sizeof *seq);
    if (!seq) {
        st = RTP_ENOMEM;
        goto done;
    }
    size_t nh = hp_seqs(s, hp, seq);
    if (mpq_equal(best, ul)) {
        int meets = 0;
        if ((st = meets_at_limit(s, i, hp, ul, jobs, &meets)) != RTP_OK)
            goto done;
        if (meets) {
            *exists = 1; /* alpha_i <= alpha_UL always */
            goto done;
        }
    }
    rtp_ns walked = 0;
    for (rtp_ns q = 0;; q = ++walked) {
        rtp_sens_work jb = job_work(s, i, q, seq, nh);
        if ((st = fp_job(s, &jb, i, q, best, w, &known, &ends, &misses)) != RTP_OK)
            break;
        if (misses) {
            /* the candidate drops to max(g_q(a_q + D), E_q), both exact */
            rtp_i128 arr = (rtp_i128)q * ti->period_ns - ti->jitter_ns;
            if ((st = rtp_sens_work_max(s, &jb, arr > 0 ? arr : 0, arr + ti->deadline_ns, best,
                                        g, &found, &reached)) != RTP_OK)
                break;
            for (size_t k = 0; k < n_pending && st == RTP_OK; k++) {
                rtp_sens_work pj = job_work(s, i, pending[k], seq, nh);
                rtp_i128 from = (rtp_i128)pending[k] * ti->period_ns - ti->jitter_ns;
                mpq_t ge;
                mpq_init(ge);
                int f2, r2;
                st = rtp_sens_work_max(s, &pj, from > 0 ? from : 0,
                                       from + ti->period_ns, best, ge, &f2, &r2);
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
            if (mpq_sgn(best) <= 0)
                break; /* no alpha > 0 passes (best only falls) */
            if (has_e && mpq_cmp(e, best) >= 0)
                break; /* at best the busy period ends before job q */
            if (floor && mpq_cmp(best, floor) <= 0)
                break;
            known = 0; /* best fell: w_{q-1} at it is not known */
            if ((st = fp_job(s, &jb, i, q, best, w, &known, &ends, &misses)) != RTP_OK)
                break;
        }
        if (ends)
            break; /* E_q >= best: no later job lowers it */
        if (q >= 63 && ((q + 1) & q) == 0) {
            /* jobs 0..q meet at best; a long (or, at alpha_UL, endless)
             * busy period: if the linear bound proves every later job in
             * time at best too, task i passes there, so alpha_i >= best */
            int met = 0;
            if ((st = rtp_fp_bound_holds(s->e, s->n, hp, i, best, s->c, q + 1, &met)) != RTP_OK)
                break;
            if (met)
                break;
        }
        if (RTP_GROW(pending, cap_pending, n_pending + 1) != 0) {
            st = RTP_ENOMEM;
            break;
        }
        pending[n_pending++] = q;
        if (jobs > 0 && q + 1 >= jobs && mpq_equal(best, ul))
            break; /* at alpha_UL the responses repeat from here */
    }
    if (st == RTP_ELIMIT && delays && mpq_equal(best, ul)) {
        char how[160];
        snprintf(how, sizeof how, "and the job walk in rationals found no late job in the "
                 "first %lld (the multiplied-out times pass 2^62 ns: no search in integers)",
                 (long long)walked);
        st = endless_limit(s, i, ul, jobs, how);
    }
    if (st == RTP_OK)
        *exists = mpq_sgn(best) > 0;
done:
    free(seq);
    free(pending);
    mpq_clears(ul, g, e, w, NULL);
    return st;
}

/* Tasks by priority, least urgent first (ties by index). */
typedef struct rank {
    int prio;
    size_t index;
} rank;

static int rank_cmp(const void *x, const void *y)
{
    const rank *a = x, *b = y;
    if (a->prio != b->prio)
        return (a->prio > b->prio) - (a->prio < b->prio);
    return (a->index > b->index) - (a->index < b->index);
}

/* alpha* under fixed priorities prio[] (a task with equal-priority peers:
 * rtp_sens_fp_fifo). Tasks are taken in increasing order of their first
 * job's factor g_0(D_i - J_i) below the more urgent tasks (an upper bound
 * of alpha_i, equal peers only adding work) and each is capped at the
 * minimum so far, so a task whose own factor is larger (often one reaching
 * level utilization 1, whose exact busy period can be long) stops as soon
 * as its busy period at the cap ends. */
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
    rtp_sens_seq *seq = malloc(s->n * sizeof *seq);
    if (!hp || !order || !seq) {
        free(hp);
        free(order);
        free(seq);
        return RTP_ENOMEM;
    }
    rtp_status st = RTP_OK;
    /* Job 0 of a task that meets its deadline as declared (alpha = 1) has
     * g_0 >= 1, and its points before that completion w have f(t) < 1 (W(t)
     * > t there): its key is the largest f(t) over [w, D*] alone (D <= T,
     * where the response is job 0's). */
    rtp_task *one = malloc(s->n * sizeof *one);
    rtp_ns *resp = malloc(s->n * sizeof *resp);
    int sched = 0;
    if (one && resp) {
        memcpy(one, s->e, s->n * sizeof *one);
        for (size_t i = 0; i < s->n; i++)
            one[i].wcet_ns += s->c; /* C' at alpha = 1 */
        rtp_limits lim = rtp_limits_default();
        lim.max_iterations = s->max > s->used ? s->max - s->used : 0;
        rtp_diag scratch;
        if (rtp_fp_rta(one, s->n, prio, resp, &sched, &lim, &scratch) != RTP_OK)
            for (size_t i = 0; i < s->n; i++)
                resp[i] = -1; /* no window then: every point is looked at */
    }
    /* Distinct priorities: the levels are nested and the last one holds
     * every task, so alpha_UL of the whole set (alpha_U) is the least of
     * them and bounds the last task's alpha_i (fp_task_alpha starts there
     * too); min(key_i, alpha_U) then stands for min(key_i, alpha_UL_i) of
     * each task with D <= T without changing the minimum, and costs one
     * sum of utilizations instead of one per task. A key scan may also stop
     * at a value >= the least exact upper bound so far (alpha_U, the keys
     * scanned to the end): that value still bounds alpha* from above, so
     * it serves as a cap and leaves the minimum as it is. */
    mpq_t a, all, stop;
    mpq_inits(a, all, stop, NULL);
    int distinct = 1;
    for (size_t i = 0; i < s->n && distinct; i++)
        for (size_t j = i + 1; j < s->n && distinct; j++)
            distinct = prio[i] != prio[j];
    int all_ok = distinct && rtp_sens_util_alpha(s, NULL, all);
    if (all_ok)
        mpq_set(stop, all);
    rank *urgency = malloc(s->n * sizeof *urgency); /* least urgent first */
    for (size_t i = 0; urgency && i < s->n; i++)
        urgency[i] = (rank){prio[i], i};
    if (urgency)
        qsort(urgency, s->n, sizeof *urgency, rank_cmp);
    for (size_t r = 0; r < s->n; r++) {
        size_t i = urgency ? urgency[r].index : r;
        order[i].index = i;
        mpq_init(order[i].key);
        int ties = 0;
        for (size_t j = 0; j < s->n; j++) {
            hp[j] = prio[j] > prio[i];
            ties = ties || (j != i && prio[j] == prio[i]);
        }
        rtp_sens_work jb = job_work(s, i, 0, seq, hp_seqs(s, hp, seq));
        int found = 0, reached;
        if (st == RTP_OK && ties)
            st = rtp_sens_fifo_first(s, i, prio, order[i].key, &found);
        else if (st == RTP_OK) {
            /* D <= T: the response is job 0's (its busy period ends with it) */
            rtp_ns lo = resp && resp[i] > 0 && s->e[i].deadline_ns <= s->e[i].period_ns
                            ? resp[i] - s->e[i].jitter_ns - 1
                            : 0;
            st = rtp_sens_work_max(s, &jb, lo > 0 ? lo : 0,
                                   s->e[i].deadline_ns - s->e[i].jitter_ns,
                                   all_ok ? stop : NULL, order[i].key, &found, &reached);
            if (st == RTP_OK && all_ok && found && !reached && mpq_cmp(order[i].key, stop) < 0)
                mpq_set(stop, order[i].key);
        }
        if (!found)
            mpq_set_si(order[i].key, -1, 1);
    }
    free(seq);
    free(one);
    free(resp);
    free(urgency);
    if (st == RTP_OK)
        qsort(order, s->n, sizeof *order, ranked_cmp);
    /* the smallest key bounds alpha* from above; <= 0 (or none): no alpha */
    *exists = st == RTP_OK && mpq_sgn(order[0].key) > 0;
    if (distinct && *exists)
        *exists = all_ok;
    for (size_t r = 0; r < s->n && st == RTP_OK && *exists; r++) {
        size_t i = order[r].index;
        int ties = 0;
        for (size_t j = 0; j < s->n; j++) {
            hp[j] = prio[j] > prio[i];
            ties = ties || (j != i && prio[j] == prio[i]);
        }
        /* the first task is capped at its own key (>= alpha*), the others
         * at the minimum so far */
        mpq_srcptr cap = r ? out : order[0].key;
        if (ties) {
            st = rtp_sens_fp_fifo(s, i, prio, cap, a, exists);
        } else if (s->e[i].deadline_ns <= s->e[i].period_ns) {
            /* D <= T: the busy period ends with job 0 once it meets, so
             * alpha_i = min(g_0, alpha_UL) (above alpha_UL it never ends) */
            char *level = hp + s->n;
            for (size_t j = 0; j < s->n && !distinct; j++)
                level[j] = hp[j] || j == i;
            if (distinct)
                mpq_set(a, all);
            else
                *exists = rtp_sens_util_alpha(s, level, a);
            if (*exists && mpq_cmp(order[r].key, a) < 0)
                mpq_set(a, order[r].key);
            *exists = *exists && mpq_sgn(a) > 0;
        } else {
            st = fp_task_alpha(s, i, hp, hp + s->n, cap, NULL, a, exists);
        }
        if (st == RTP_OK && *exists && (r == 0 || mpq_cmp(a, out) < 0))
            mpq_set(out, a);
    }
    mpq_clears(a, all, stop, NULL);
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

/* ------------------------------------------------------------- wcet_max */

/* ceil((t + J) / T): the jobs of a task with the critical pattern released
 * in [0, t), t >= 1. */
static rtp_ns released(const rtp_task *k, rtp_ns t)
{
    return (t + k->jitter_ns - 1) / k->period_ns + 1;
}

rtp_status rtp_sens_fp_wcet_max(const rtp_task *e, size_t n, const int *prio,
                                const rtp_limits *lim, rtp_ns *delta, int *handled,
                                rtp_diag *diag)
{
    *handled = 0;
    for (size_t i = 0; i < n; i++) {
        if (e[i].deadline_ns > e[i].period_ns)
            return RTP_OK; /* several jobs per busy period: bisection */
        for (size_t j = i + 1; j < n; j++)
            if (prio[j] == prio[i])
                return RTP_OK; /* FIFO ties: bisection */
    }
    rtp_ns *resp = malloc((n ? n : 1) * sizeof *resp), *best = malloc((n ? n : 1) * sizeof *best);
    rtp_ns *cnt = malloc((n ? n : 1) * sizeof *cnt);
    rank *order = malloc((n ? n : 1) * sizeof *order);
    rtp_status st = resp && best && cnt && order ? RTP_OK : rtp_oom(diag);
    for (size_t i = 0; st == RTP_OK && i < n; i++)
        order[i] = (rank){prio[i], i};
    if (st == RTP_OK)
        qsort(order, n, sizeof *order, rank_cmp);
    int sched = 0;
    uint64_t used = 0, max = (lim ? *lim : rtp_limits_default()).max_iterations;
    if (st == RTP_OK)
        st = rtp_fp_rta(e, n, prio, resp, &sched, lim, diag);
    if (st == RTP_OK && !sched)
        st = rtp_diag_set(diag, RTP_EINTERNAL, "", "wcet_max: the set must be schedulable");
    for (size_t k = 0; k < n; k++)
        delta[k] = INT64_MAX;
    /* Least urgent first: delta[k] is a minimum over the tasks i of their
     * best[k], so task i's scan stops once every best[k] it bounds has
     * reached delta[k] (open counts those still below; more points only
     * raise them), and the least urgent tasks, whose windows hold the most
     * points, usually set the minima the others then reach at once. */
    for (size_t r = 0; r < n && st == RTP_OK; r++) {
        size_t i = order[r].index;
        const rtp_task *ti = &e[i];
        rtp_ns dstar = ti->deadline_ns - ti->jitter_ns, done = resp[i] - ti->jitter_ns;
        size_t open = 0;
        for (size_t k = 0; k < n; k++) {
            best[k] = -1;
            open += k == i || prio[k] > prio[i];
        }
        /* job 0 meets its deadline iff W(t) <= t at some t in (0, D*]
         * among the release instants m T_j - J_j and D* itself (W is
         * constant between them [LSD89] [BB04]); with C'_k raised by x,
         * W grows by x n_k(t), so x <= (t - W(t)) / n_k(t) there. Below the
         * completion at the declared wcets W(t) > t: only [done, D*] counts.
         * D <= T: the busy period ends with job 0 once it meets (solver/fp.c). */
        for (size_t j = 0; j <= n && open > 0; j++) {
            if (j < n && prio[j] <= prio[i])
                continue;
            rtp_ns t = dstar;
            if (j < n) { /* the first release instant of j at or after `done` */
                rtp_ns p = e[j].period_ns, m = (done + e[j].jitter_ns + p - 1) / p;
                t = m * p - e[j].jitter_ns;
            }
            for (; t <= dstar && open > 0; t = j < n ? t + e[j].period_ns : dstar + 1) {
                if (t < 1 || t < done)
                    continue;
                if (++used > max) {
                    st = rtp_diag_set(diag, RTP_ELIMIT, "", "wcet_max not found in %llu steps",
                                      (unsigned long long)max);
                    break;
                }
                if ((used & 1023) == 0 && (st = rtp_limits_check(lim, diag)) != RTP_OK)
                    break;
                rtp_i128 w = ti->blocking_ns + ti->wcet_ns;
                for (size_t h = 0; h < n; h++)
                    if (prio[h] > prio[i])
                        w += (rtp_i128)(cnt[h] = released(&e[h], t)) * e[h].wcet_ns;
                if (w > t)
                    continue;
                rtp_ns slack = (rtp_ns)(t - w);
                if (slack > best[i]) {
                    open -= best[i] < delta[i] && slack >= delta[i];
                    best[i] = slack;
                }
                for (size_t h = 0; h < n; h++) /* a division only where it can win */
                    if (prio[h] > prio[i] && (rtp_i128)(best[h] + 1) * cnt[h] <= slack) {
                        rtp_ns x = slack / cnt[h];
                        open -= best[h] < delta[h] && x >= delta[h];
                        best[h] = x;
                    }
            }
            if (st != RTP_OK)
                break;
        }
        for (size_t k = 0; k < n && st == RTP_OK; k++)
            if ((k == i || prio[k] > prio[i]) && best[k] < delta[k])
                delta[k] = best[k];
    }
    *handled = st == RTP_OK;
    free(resp);
    free(best);
    free(cnt);
    free(order);
    return st;
}
