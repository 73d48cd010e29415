/* solver/sensitivity_edf_walk.c — wcet_max under EDF: the walks over
 * demand points that lower every task's delta at once (QPA [ZB09] on h(t) +
 * max_k delta_k n_k(t)), with the bounds that limit where they look: the
 * set's utilization in fixed point, each task's reach (the linear envelope
 * [BRH90]) and its windows. The lattice callers are
 * solver/sensitivity_edf_wcet.c; the contract is
 * solver/sensitivity_edf_internal.h. */
#include "solver/sensitivity_edf_internal.h"
#include "solver/edf.h"

#include <math.h>
#include <stdlib.h>


/* U of the set in fixed point, 64 fraction bits, each term rounded down:
 * sum floor(C_i 2^64 / T_i), within n of U 2^64 below it (C_i <= 2^62:
 * each numerator at most 2^126). The setup's bounds in 128 bits instead of
 * GMP rationals (whose common denominator grows with every period). */
rtp_i128 rtp_sens_wm_util_fixed(const rtp_task *e, size_t n)
{
    rtp_i128 f = 0;
    for (size_t i = 0; i < n; i++)
        f += (rtp_i128)(((unsigned __int128)e[i].wcet_ns << 64) / (uint64_t)e[i].period_ns);
    return f;
}

/* floor((1 - U) T_k) (U <= 1) into *room; 0 when the fixed point of U
 * (rtp_sens_wm_util_fixed's u) leaves it open: (1 - U) T_k 2^64 lies in [T_k (2^64 -
 * u - n), T_k (2^64 - u)], whose ends' floors then differ. */
int rtp_sens_wm_util_room(const rtp_task *k, rtp_i128 u, size_t n, rtp_ns *room)
{
    rtp_i128 hi = (rtp_i128)k->period_ns * (((rtp_i128)1 << 64) - u); /* below 2^126 */
    rtp_i128 lo = hi - (rtp_i128)k->period_ns * (rtp_i128)n;
    if ((hi >> 64) != (lo >> 64)) /* arithmetic shift: floor */
        return 0;
    *room = (rtp_ns)(hi >> 64);
    return 1;
}


rtp_sens_wm_lin rtp_sens_wm_lin_terms(const rtp_task *e, size_t n, rtp_i128 u)
{
    rtp_i128 k0 = 0;
    rtp_ns bmax = 0;
    for (size_t i = 0; i < n; i++) {
        rtp_ns slack = e[i].period_ns - dstar(&e[i]);
        if (slack > 0) /* ceil(C (T - D*) / T), C (T - D*) below 2^124 */
            k0 += ((rtp_i128)e[i].wcet_ns * slack + e[i].period_ns - 1) / e[i].period_ns;
        if (e[i].blocking_ns > bmax)
            bmax = e[i].blocking_ns;
    }
    k0 += bmax;
    rtp_i128 eps = ((rtp_i128)1 << 64) - u - (rtp_i128)n;
    rtp_sens_wm_lin l = {(double)k0, (double)eps * 0x1p-64};
    return l;
}

/* reach_k: no t >= reach_k has h(t) + delta n_k(t) > t (task k, raised by
 * delta, fails nowhere there). A failure needs t >= D*_k, where n_k(t) <=
 * (t + (T_k - D*_k)^+) / T_k, so with x = delta / T_k it needs
 * (eps - x) t < k0 + x (T_k - D*_k)^+: reach_k = that bound rounded up
 * when eps > x, else RTP_NS_LIMIT (none below 2^62). delta = 0: the set's
 * own testing bound La [ZB09]. Computed in doubles as an upper bound with
 * margins of 1e-9 relative (each operation rounds by 2^-53 relative, the
 * inputs are within an ulp: a million times smaller), so a reach is never
 * below the exact bound; it only limits where the walks look. */
rtp_ns rtp_sens_wm_task_reach(const rtp_sens_wm_lin *l, const rtp_task *t, rtp_ns delta)
{
    double x = (double)delta / (double)t->period_ns;
    double c = dstar(t) < t->period_ns ? (double)(t->period_ns - dstar(t)) * x : 0;
    double den = (l->eps - x) - 1e-9 * (l->eps + x);
    if (!(den > 0))
        return RTP_NS_LIMIT;
    double q = ((l->k0 + c) * (1 + 1e-9) + 1) / den * (1 + 1e-9) + 1;
    return q < 0x1p62 ? (rtp_ns)ceil(q) : RTP_NS_LIMIT;
}

/* reach[k] of every task (0 where delta_k = 0: it cannot fail); the
 * largest of them. */
rtp_ns rtp_sens_wm_all_reach(const rtp_sens_wm_lin *l, const rtp_task *e, size_t n,
                             const rtp_ns *delta, rtp_ns *reach)
{
    rtp_ns top = 0;
    for (size_t k = 0; k < n; k++) {
        reach[k] = delta[k] > 0 ? rtp_sens_wm_task_reach(l, &e[k], delta[k]) : 0;
        if (reach[k] > top)
            top = reach[k];
    }
    return top;
}


void rtp_sens_wm_win_free(rtp_sens_wm_win *w)
{
    free(w->ko);
    free(w->kc);
    free(w->at);
    w->ko = NULL;
    w->kc = NULL;
    w->at = NULL;
}

int rtp_sens_wm_win_terms(const rtp_task *e, size_t n, rtp_i128 u, rtp_sens_wm_win *w)
{
    size_t m = n ? n : 1;
    w->ko = malloc(4 * m * sizeof *w->ko);
    w->kc = malloc(m * sizeof *w->kc);
    w->at = malloc(m * sizeof *w->at);
    if (!w->ko || !w->kc || !w->at) {
        rtp_sens_wm_win_free(w);
        return 0;
    }
    w->inv = w->ko + m;
    w->cadd = w->ko + 2 * m;
    w->cinv = w->ko + 3 * m;
    rtp_i128 k0 = 0;
    rtp_ns bmax = 0;
    w->n = w->c1 = w->c2 = n;
    for (size_t i = 0; i < n; i++) {
        if (e[i].blocking_ns > bmax)
            bmax = e[i].blocking_ns;
        if (w->c1 == n || e[i].wcet_ns > e[w->c1].wcet_ns) {
            w->c2 = w->c1;
            w->c1 = i;
        } else if (w->c2 == n || e[i].wcet_ns > e[w->c2].wcet_ns) {
            w->c2 = i;
        }
    }
    for (size_t i = 0; i < n; i++) {
        rtp_ns slack = e[i].period_ns - dstar(&e[i]);
        if (slack > 0) /* below 2^124 */
            k0 += ((rtp_i128)e[i].wcet_ns * slack + e[i].period_ns - 1) / e[i].period_ns;
    }
    w->eps_fix = ((rtp_i128)1 << 64) - u - (rtp_i128)n;
    for (size_t k = 0; k < n; k++) {
        rtp_ns slack = e[k].period_ns - dstar(&e[k]);
        rtp_i128 own = slack > 0 ? ((rtp_i128)e[k].wcet_ns * slack + e[k].period_ns - 1) /
                                       e[k].period_ns
                                 : 0;
        w->kc[k] = k0 - own + bmax;
        w->ko[k] = (double)w->kc[k] * (1 + 1e-12) + 1;
        rtp_i128 uk = (rtp_i128)(((unsigned __int128)e[k].wcet_ns << 64) /
                                 (uint64_t)e[k].period_ns);
        rtp_i128 g = w->eps_fix + uk; /* (1 - U_k') 2^64 or less */
        w->inv[k] = g > 0 ? 0x1p64 / (double)g * (1 + 1e-12) : 0;
        w->at[k] = -1;
    }
    return 1;
}

/* The companion window of task k: with c != k the task of the largest
 * wcet (c1, else c2), k raised by delta fails at t only where
 *   t (1 - U + U_c - x_k) < K_c + x_k (T_k - D*_k)^+ + C_c n_c(t),
 * x_k = delta / T_k: dbf_i(t) <= U_i (t + (T_i - D*_i)^+) for i != c
 * (k included), delta n_k(t) <= x_k (t + (T_k - D*_k)^+), b <= B, and c's
 * demand exactly. A second necessary condition beside k's own window,
 * in c's intervals: the largest t' <= t where it may hold, t when t
 * does. The left factor from integers, (2^64 - u - n) + floor(C_c 2^64 /
 * T_c) - ceil(delta 2^64 / T_k) <= it 2^64 (its inverse then rounded up
 * by 1e-12, as in rtp_sens_wm_win_terms), K_c as in rtp_sens_wm_win_terms, x_k (T_k - D*_k)^+
 * rounded up to the ns; recomputed when delta moved. */
static rtp_ns win_companion(rtp_sens_wm_win *w, const rtp_task *e, const struct libdivide_u64_t *dv,
                            size_t k, rtp_ns delta, rtp_ns t)
{
    size_t c = w->c1 != k ? w->c1 : w->c2;
    if (c >= w->n)
        return t; /* fewer than two tasks */
    if (w->at[k] != delta) {
        w->at[k] = delta;
        const rtp_task *tk = &e[k], *tc = &e[c];
        rtp_ns slack = tk->period_ns - dstar(tk);
        rtp_i128 xp = slack > 0 ? ((rtp_i128)delta * slack + tk->period_ns - 1) / tk->period_ns
                                : 0;
        rtp_i128 xf = (rtp_i128)((((unsigned __int128)delta << 64) + (uint64_t)tk->period_ns - 1) /
                                 (uint64_t)tk->period_ns);
        rtp_i128 uc = (rtp_i128)(((unsigned __int128)tc->wcet_ns << 64) /
                                 (uint64_t)tc->period_ns);
        rtp_i128 g = w->eps_fix + uc - xf;
        w->cinv[k] = g > 0 ? 0x1p64 / (double)g * (1 + 1e-12) : 0;
        w->cadd[k] = (double)(w->kc[c] + xp) * (1 + 1e-12) + 1;
    }
    if (w->cinv[k] == 0)
        return t;
    const rtp_task *tc = &e[c];
    rtp_ns j = jobs_by(tc, &dv[c], t);
    double q = (w->cadd[k] + (double)tc->wcet_ns * (double)j) * w->cinv[k] * (1 + 1e-12) + 1;
    if ((double)t < q)
        return t;
    rtp_ns d = j > 0 ? dstar(tc) + (j - 1) * tc->period_ns : 0;
    rtp_ns end = (rtp_ns)ceil(q) - 1; /* every t' that may hold is below q */
    return end >= d ? end : d - 1 < 0 ? 0 : d - 1;
}

/* M_j of task k (delta) rounded up: q within a few 2^-53 of (K_k + (C_k
 * + delta) j) / (1 - U_k') or above it, the subtraction within 2^-52 of
 * |q| + d_j, both covered by 1e-12 of them. */
static double win_m(const rtp_sens_wm_win *w, const rtp_task *k, size_t ki, rtp_ns delta, rtp_ns j)
{
    rtp_ns d = dstar(k) + (j - 1) * k->period_ns;
    double q = (w->ko[ki] + (double)(k->wcet_ns + delta) * (double)j) * w->inv[ki] * (1 + 1e-12);
    return (q - (double)d) + (q + (double)d) * 1e-12 + 1;
}

/* The largest t' <= t where task k (delta, j = n_k(t) >= 1 jobs due by t)
 * may fail: t itself when t - d_j < M_j may hold; else the end of a
 * window below t. M_j falls with j by T_k (1 - U - delta / T_k) / (1 -
 * U_k') >= 0 a job (delta <= (1 - U) T_k), so past an empty window
 * (M_j <= 0) the next one down is at the first j' < j with M_j' > 0: j'
 * from that slope in doubles, checked by M_{j'+1} <= 0 rounded up (else
 * j' = j - 1); the windows of j' + 1 .. j are then all empty. */
static rtp_ns win_limit(const rtp_sens_wm_win *w, const rtp_task *k, size_t ki, rtp_ns delta,
                        rtp_ns j, rtp_ns t)
{
    if (w->inv[ki] == 0)
        return t;
    rtp_ns p = k->period_ns, d = dstar(k) + (j - 1) * p;
    double mj = win_m(w, k, ki, delta, j);
    if ((double)(t - d) < mj)
        return t;
    if (mj > 0)
        return d + (rtp_ns)ceil(mj) - 1;
    rtp_ns down = 1; /* j' = j - down */
    double slope = (double)p - (double)(k->wcet_ns + delta) * w->inv[ki];
    if (slope > 0 && -mj / slope < (double)j) {
        rtp_ns r = (rtp_ns)(-mj / slope) + 1;
        if (r > 1 && r < j && !(win_m(w, k, ki, delta, j - r + 1) > 0))
            down = r;
    }
    if (down >= j)
        return 0; /* j' = 0: no job of k due, the set as given passes */
    j -= down;
    d = dstar(k) + (j - 1) * p;
    mj = win_m(w, k, ki, delta, j);
    if (!(mj > 0))
        return d + p - 1; /* the estimate fell short: the interval's end */
    return mj < (double)p ? d + (rtp_ns)ceil(mj) - 1 : d + p - 1;
}

/* dbf(t) as rtp_edf_load, saturated at RTP_I128_SATURATED, with each
 * task's jobs due by t into jobs[] (dv: dividers). The walk asks for b(t)
 * and the step point below t apart: b is constant past the largest D*,
 * and the step point is needed only where h(t) = t. With `small` (the
 * caller knows dbf(t) < 2^62), in 64 bits: every term is at most the sum. */
static rtp_i128 load_jobs(const rtp_task *e, const struct libdivide_u64_t *dv, size_t n, rtp_ns t,
                          rtp_ns *jobs, int small)
{
    if (small) {
        rtp_ns h = 0;
        for (size_t i = 0; i < n; i++) {
            jobs[i] = jobs_by(&e[i], &dv[i], t);
            h += jobs[i] * e[i].wcet_ns;
        }
        return h;
    }
    rtp_i128 h = 0;
    for (size_t i = 0; i < n; i++) {
        jobs[i] = jobs_by(&e[i], &dv[i], t);
        if (h < RTP_I128_SATURATED)
            h += (rtp_i128)jobs[i] * e[i].wcet_ns;
    }
    return h > RTP_I128_SATURATED ? RTP_I128_SATURATED : h;
}

/* One QPA walk [ZB09] over [lo, bound] of h*(t) = h(t) + max_{k in set}
 * delta_k n_k(t), a non-decreasing step function stepping only at demand
 * step points (a maximum of such), lowering each delta_k violated at a
 * failing t to floor((t - h(t)) / n_k(t)): that lowers h* everywhere, so
 * every point already passed stays passed, and the walk goes on from t.
 * With reach (rtp_sens_wm_task_reach of each delta, or larger; NULL: none known), the
 * jump from t leaves out the tasks with reach_k <= h(t): every t' in [j, t],
 * j = h(t) + the largest delta_k n_k(t) of the others, passes, as a task
 * left out fails nowhere at t' >= h(t) and every other has h(t') + delta_k
 * n_k(t') <= h(t) + delta_k n_k(t) <= j <= t'. Lowered deltas keep their
 * reach valid (reach_k only grows with delta_k). A task with reach_k <= lo
 * fails nowhere in [lo, bound]: the walk leaves it out altogether (a jump
 * it would have shortened lands at j >= lo, or ends the walk), so the
 * walks past two longest periods, where few tasks reach, look at those
 * few per step (bench_analysis's family: see the commit). The deltas it
 * ends with do not depend on the points it visits: each is the least of
 * its start and floor((t - h(t)) / n_k(t)) over the failing t of [lo,
 * bound], as every value it takes is one of these and every t passes at
 * the end (so do the windows below: they skip only points where no
 * active task can fail with its current delta, hence none with the
 * final, smaller one).
 * With win (NULL: none) and at most three active tasks, before h(t): a t
 * outside every active task's windows (its own, win_limit, and the
 * companion's, win_companion; both necessary for a failure) goes on to
 * the largest t' < t inside them, which every skipped point passes. Only
 * with few tasks active: each window costs a division and a few products,
 * and with many active t is nearly always inside one (bench_sens_edf's
 * family, the 61 sets around the median: callgrind instructions of
 * wcet_max 0.87x with three, 0.88x with two, 0.89x with six, 1.6x with
 * every task). */
#define WIN_MAX 3
rtp_status rtp_sens_wm_walk(const rtp_task *e, const struct libdivide_u64_t *dv, size_t n,
                            rtp_ns *delta, const char *in, const rtp_ns *reach,
                            rtp_sens_wm_win *win, rtp_ns lo, rtp_ns bound,
                            rtp_edf_budget *bud, rtp_diag *diag)
{
    rtp_ns b = 0, d_min = INT64_MAX, d_max = 0;
    for (size_t i = 0; i < n; i++) {
        if (e[i].blocking_ns > b)
            b = e[i].blocking_ns;
        if (dstar(&e[i]) < d_min)
            d_min = dstar(&e[i]);
        if (dstar(&e[i]) > d_max)
            d_max = dstar(&e[i]);
    }
    rtp_ns *jobs = malloc((n ? n : 1) * sizeof *jobs);
    size_t *act = malloc((n ? n : 1) * sizeof *act), na = 0; /* the tasks that can fail */
    if (!jobs || !act) {
        free(jobs);
        free(act);
        return rtp_oom(diag);
    }
    for (size_t k = 0; k < n; k++)
        if (in[k] && (!reach || reach[k] > lo))
            act[na++] = k;
    rtp_status st = RTP_OK;
    rtp_ns t = rtp_edf_prev_deadline(e, n, bound + 1);
    /* dbf only falls as t does: 64 bits below 2^62 at the first t */
    int small = t > 0 && load_jobs(e, dv, n, t, jobs, 0) < RTP_NS_LIMIT;
    while (t > 0 && t >= lo) {
        if (rtp_edf_spend(bud, diag, "wcet_max: EDF QPA did not finish")) {
            st = RTP_ELIMIT;
            break;
        }
        if (win && na <= WIN_MAX) {
            /* outside every active task's window: on to the largest t' < t
             * inside one (nothing between fails), without h(t) */
            rtp_ns next = 0;
            for (size_t a = 0; a < na && next < t; a++) {
                size_t k = act[a];
                rtp_ns j = jobs_by(&e[k], &dv[k], t);
                rtp_ns c = j > 0 ? win_limit(win, &e[k], k, delta[k], j, t) : 0;
                if (c == t)
                    c = win_companion(win, e, dv, k, delta[k], t);
                if (c > next)
                    next = c;
            }
            if (next < t) {
                t = next;
                continue;
            }
        }
        rtp_i128 h = load_jobs(e, dv, n, t, jobs, small);
        if (b > 0) /* b(t) = B from the largest D* on */
            h += t >= d_max ? b : rtp_edf_blocking(e, n, t);
        /* h(t) <= t: the set as given passes (rtp_sensitivity_wcet_max
         * asks first); in 64 bits (the same values as in 128, which took a
         * third of the walks' time at the median set of bench_analysis's
         * family: see the commit): 0 <= t - h(t) < 2^62, and delta_k n_k(t)
         * < 2^63, since delta_k <= (1 - U) T_k < T_k and n_k(t) <= t / T_k
         * + 1. Were h to pass t (it cannot), every delta_k would fall to 0
         * there: on the safe side. */
        rtp_ns room = h > t ? 0 : (rtp_ns)(t - h), extra = 0, hn = h > t ? t : (rtp_ns)h;
        for (size_t a = 0; a < na; a++) {
            size_t k = act[a];
            rtp_ns need = delta[k] * jobs[k];
            if (need > room) {
                delta[k] = room / jobs[k];
                need = delta[k] * jobs[k];
            }
            if (need > extra && (!reach || reach[k] > hn))
                extra = need;
        }
        h += extra;
        if (h <= d_min)
            break;
        t = h < t ? (rtp_ns)h : rtp_edf_prev_deadline(e, n, t);
    }
    free(jobs);
    free(act);
    return st;
}
