/* solver/sensitivity_edf_wcet.c — wcet_max under EDF
 * (rtp_sens_edf_wcet_max): the bound from U' <= 1 and each first
 * deadline, the walks of solver/sensitivity_edf_walk.c over growing
 * ranges, then the lattice search of solver/edf_near.c past them (wm_*),
 * then Dinkelbach [Din67] on the exact test for what is left. */
#include "solver/sensitivity_edf_internal.h"
#include "solver/edf_near.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The walk past L0 (below): K* and eta of the relaxation every failure
 * satisfies, from the current deltas, and the exact check of a run. */
typedef struct wm_ctx {
    const rtp_task *e;
    const struct libdivide_u64_t *dv; /* dividers of e's periods */
    size_t n;
    rtp_ns *delta;
    char *in;          /* delta_k > 0 */
    double eps_d, k0_d; /* 1 - U and K0 of the set as given, rounded */
    rtp_ns from;       /* every t <= from is done */
    size_t only;       /* the relaxation of this task alone, or n: of them all */
    int with_b;
    mpq_t k0, base_k0, eps, base_eps, x, y;
    rtp_edf_budget *b;
    rtp_diag *diag;
} wm_ctx;

/* Task k fails at t with delta_k iff slack(t) < delta_k n_k(t), slack(t) =
 * eps t - K0 + Phi(t) past t_lo (solver/edf_near.c) and n_k(t) = (t - D*_k
 * - m_k(t) + T_k) / T_k, so Phi(t) + (eps - delta_k / T_k) t < K0 +
 * delta_k (T_k - D*_k) / T_k: every failure of every task satisfies Phi(t)
 * + eta t < K* with eta the least eps - delta_k / T_k and K* the largest
 * right-hand side (tasks with delta_k = 0 cannot fail). */
static int wm_refresh(void *ctx)
{
    wm_ctx *w = ctx;
    mpq_t k0, eps;
    mpq_inits(k0, eps, NULL);
    mpq_set(k0, w->base_k0);
    mpq_set(eps, w->base_eps);
    int any = 0;
    for (size_t k = 0; k < w->n; k++) {
        if (w->delta[k] == 0 || (w->only < w->n && k != w->only))
            continue;
        mpq_set_si(w->x, w->delta[k], (unsigned long)w->e[k].period_ns);
        mpq_canonicalize(w->x);
        mpq_sub(w->y, w->base_eps, w->x);
        if (!any || mpq_cmp(w->y, eps) < 0)
            mpq_set(eps, w->y);
        mpq_set_si(w->y, w->e[k].period_ns - dstar(&w->e[k]), 1);
        mpq_mul(w->y, w->y, w->x);
        mpq_add(w->y, w->y, w->base_k0);
        if (!any || mpq_cmp(w->y, k0) > 0)
            mpq_set(k0, w->y);
        any = 1;
    }
    if (!any)
        mpq_set_si(k0, 0, 1); /* nothing can fail */
    int changed = !mpq_equal(k0, w->k0) || !mpq_equal(eps, w->eps);
    mpq_set(w->k0, k0);
    mpq_set(w->eps, eps);
    mpq_clears(k0, eps, NULL);
    return changed;
}

/* The run [lo, hi] past `from`: skipped when the least slack there (eps lo
 * - K0 + sum U_i min m_i, each minimum 0 when a deadline of i falls inside)
 * covers every delta_k n_k(hi) by more than its rounding; else walked as in
 * rtp_sens_wm_walk, lowering the deltas. Reports no failure (the search goes
 * on over every candidate run). */
static rtp_status wm_check(void *ctx, rtp_ns lo, rtp_ns hi, int want_first, rtp_ns *failed)
{
    wm_ctx *w = ctx;
    (void)want_first;
    *failed = 0;
    if (lo <= w->from)
        lo = w->from + 1;
    if (lo > hi)
        return RTP_OK;
    double slack = w->eps_d * (double)lo - w->k0_d;
    double ab = fabs(w->eps_d * (double)lo) + fabs(w->k0_d);
    for (size_t i = 0; i < w->n; i++) {
        const rtp_task *ti = &w->e[i];
        rtp_ns d = dstar(ti), p = ti->period_ns;
        rtp_ns m = lo >= d ? (lo - d) % p : p - 1 - (d - lo - 1) % p; /* (lo - D*) mod T */
        if (m + (hi - lo) >= p)
            continue;
        double term = (double)ti->wcet_ns / (double)p * (double)m;
        slack += term;
        ab += term;
    }
    double need = 0;
    for (size_t k = 0; k < w->n; k++) {
        w->in[k] = w->delta[k] > 0;
        double x = (double)w->delta[k] * (double)jobs_by(&w->e[k], &w->dv[k], hi);
        if (x > need)
            need = x;
    }
    if (slack - need > 1e-9 * (ab + need) + 2)
        return RTP_OK;
    for (size_t k = 0; k < w->n; k++)
        w->in[k] = w->delta[k] > 0;
    return rtp_sens_wm_walk(w->e, w->dv, w->n, w->delta, w->in, NULL, NULL, lo, hi, w->b, w->diag);
}

/* The runs the lattice search would enumerate for the relaxation of w
 * past `from` with the task of the largest wcet alone in its lattice:
 * (K* / eta - from) / its period, in doubles (an estimate: it only decides
 * whether to search); HUGE_VAL when eta <= 0. */
static double wm_runs(const wm_ctx *w, rtp_ns from)
{
    size_t c = 0;
    for (size_t i = 1; i < w->n; i++)
        if (w->e[i].wcet_ns > w->e[c].wcet_ns)
            c = i;
    double eps = mpq_get_d(w->eps), la = mpq_get_d(w->k0) / eps;
    return eps > 0 ? (la - (double)from) / (double)w->e[c].period_ns : HUGE_VAL;
}

/* Past L0, when some delta keeps U' within a hair of 1: every t at once by
 * the lattice search of solver/edf_near.c on the relaxation above (of task
 * `only`, on the set with its wcet raised by its delta, when only < n: its
 * own, tighter one). *done = 0 when it could not cover every t, or was not
 * tried as wm_runs passes max_runs (HUGE_VAL: always tried). */
static rtp_status wm_near(const rtp_task *e, const struct libdivide_u64_t *dv, size_t n,
                          rtp_ns *delta, rtp_ns from, size_t only, double max_runs,
                          const rtp_limits *lim, int *done, rtp_diag *diag)
{
    /* 2^18 steps at most (a sixteenth of the budget when smaller): a
     * lattice of structured periods can hold many near-alignments, which
     * the tasks taken one by one (their busy periods) settle sooner */
    uint64_t cap = (lim ? *lim : rtp_limits_default()).max_iterations / 16;
    rtp_edf_budget b = {0, cap < ((uint64_t)1 << 18) ? cap : (uint64_t)1 << 18, lim};
    wm_ctx w = {.e = e, .dv = dv, .n = n, .delta = delta, .from = from, .only = only, .b = &b,
                .diag = diag};
    rtp_task *raised = NULL; /* only < n: the tasks the lattice is drawn for */
    if (only < n) {
        if (!(raised = malloc(n * sizeof *raised)))
            return rtp_oom(diag);
        memcpy(raised, e, n * sizeof *raised);
        raised[only].wcet_ns += delta[only];
    }
    mpq_inits(w.k0, w.base_k0, w.eps, w.base_eps, w.x, w.y, NULL);
    rtp_ns bmax = 0;
    rtp_edf_near_terms(e, n, NULL, 0, w.base_k0, w.base_eps, NULL);
    for (size_t i = 0; i < n; i++)
        if (e[i].blocking_ns > bmax)
            bmax = e[i].blocking_ns;
    w.with_b = bmax > 0;
    w.eps_d = mpq_get_d(w.base_eps);
    w.k0_d = mpq_get_d(w.base_k0);
    if (!(w.in = malloc(n ? n : 1))) {
        mpq_clears(w.k0, w.base_k0, w.eps, w.base_eps, w.x, w.y, NULL);
        free(raised);
        return rtp_oom(diag);
    }
    wm_refresh(&w);
    /* chunks growing 64-fold (not 8): these searches seldom fail, and
     * each chunk sets every base's lattice up again (bench_sens_edf
     * family 300, against 8, alternated twice: p99 0.86-0.90, max
     * 0.85-0.87, median the same; 512: max 0.77 but a set 3.3x slower).
     * At most 7 tasks in the lattice (not 10): a search of 10 visited ~100
     * nodes per candidate run, most in the middle levels and lifting to
     * no run (bench_sens_edf family seed 147, 15 searches: 19-3,678 runs,
     * 481-55,148 nodes); 7 trades a few more runs for far fewer nodes.
     * Any S is exact (solver/edf_near.c checks every candidate run), so
     * only the time changes. callgrind, the family's four slowest sets
     * (every search of a set, the factor's too) at most 10 / 9 / 8 / 7 /
     * 6 tasks: 2,717 / 1,921 / 1,469 / 1,284 / 2,953 M instructions (6:
     * 2.5x 7's on seed 147); wcet_max's at 7, the six slowest: 3,285 ->
     * 1,797 M */
    rtp_edf_near_in in = {.tasks = raised ? raised : e, .n = n, .t_cap = RTP_NS_LIMIT,
                          .check = wm_check,
                          .check_ctx = &w, .b = &b, .k0 = w.k0, .eps = w.eps,
                          .refresh = wm_refresh, .growth = 64, .dims_max = 7};
    rtp_edf_near_result r = {0};
    rtp_status st = RTP_OK;
    if (!(wm_runs(&w, from) > max_runs))
        st = rtp_edf_near(&in, &r, diag);
    *done = st == RTP_OK && r.decided;
    if (st == RTP_ELIMIT && rtp_limits_check(lim, diag) == RTP_OK)
        st = RTP_OK; /* only this quarter was spent: the deltas so far stay upper bounds */
    mpq_clears(w.k0, w.base_k0, w.eps, w.base_eps, w.x, w.y, NULL);
    free(w.in);
    free(raised);
    return st;
}

rtp_status rtp_sens_edf_wcet_max(const rtp_task *e, size_t n, const rtp_limits *lim,
                                 rtp_ns *delta, rtp_diag *diag)
{
    char *in = calloc(n ? n : 1, 1);
    rtp_ns *reach = malloc((n ? n : 1) * sizeof *reach);
    rtp_task *m = malloc((n ? n : 1) * sizeof *m);
    struct libdivide_u64_t *dv = dividers(e, n);
    if (!in || !reach || !m || !dv) {
        free(in);
        free(reach);
        free(m);
        free(dv);
        return rtp_oom(diag);
    }
    mpq_t free_u, x;
    mpq_inits(free_u, x, NULL);
    rtp_status st = RTP_OK;
    /* U' <= 1: delta_k <= floor((1 - U) T_k), in 128 bits, else exactly */
    rtp_i128 u = rtp_sens_wm_util_fixed(e, n);
    int exact_u = 0;
    int with_b = 0;
    for (size_t i = 0; i < n; i++)
        with_b = with_b || e[i].blocking_ns > 0;
    for (size_t k = 0; k < n && st == RTP_OK; k++) {
        if (!rtp_sens_wm_util_room(&e[k], u, n, &delta[k])) {
            if (!exact_u) {
                mpq_set_ui(free_u, 1, 1);
                for (size_t i = 0; i < n; i++) {
                    mpq_set_si(x, e[i].wcet_ns, (unsigned long)e[i].period_ns);
                    mpq_canonicalize(x);
                    mpq_sub(free_u, free_u, x);
                }
                exact_u = 1;
            }
            mpq_set_si(x, e[k].period_ns, 1);
            mpq_mul(x, x, free_u);
            mpz_t z;
            mpz_init(z);
            mpz_fdiv_q(z, mpq_numref(x), mpq_denref(x));
            delta[k] = mpz_get_si(z); /* < T_k */
            mpz_clear(z);
        }
        /* its first deadline D*_k: delta_k <= D*_k - h(D*_k) */
        rtp_i128 slack = (rtp_i128)dstar(&e[k]) - rtp_edf_load(e, n, dstar(&e[k]), with_b);
        if (slack < delta[k])
            delta[k] = (rtp_ns)slack;
        in[k] = delta[k] > 0; /* 0: nothing to add, the set as given passes */
    }
    /* Every t up to L0 = 2^13 longest periods (or the hyperperiod bound) by
     * QPA walks over doubling ranges: [1, L1] with L1 = 2 longest periods
     * (most binding points lie early), then (L, 2 L] while the largest
     * reach (rtp_sens_wm_task_reach) of the deltas the last walk left lies past L, each
     * task dropping out of the jumps past its own reach, so a delta lowered
     * by an early point shortens every later walk; these at most 2^15 steps
     * in all, a sixteenth of the budget when smaller (then L stays where the
     * last whole walk ended). Past L, when the deltas still need more, the
     * lattice search; tasks it cannot settle one by one. Family of
     * bench_analysis (300 sets), against one walk over 64 periods: median
     * 1.9x faster with L0 = 64 periods, 2.8-3x with 2^13 (p90 2.9x), the
     * same answers. */
    rtp_sens_wm_lin lin = rtp_sens_wm_lin_terms(e, n, u);
    rtp_sens_wm_win win = {0};
    if (!rtp_sens_wm_win_terms(e, n, u, &win))
        st = rtp_oom(diag);
    rtp_ns longest = 1;
    for (size_t k = 0; k < n; k++)
        if (e[k].period_ns > longest)
            longest = e[k].period_ns;
    rtp_ns l0 = longest < RTP_NS_LIMIT >> 13 ? longest << 13 : RTP_NS_LIMIT;
    /* past the hyperperiod bound nothing fails, whatever the deltas (U' <= 1) */
    rtp_ns hb = rtp_sens_edf_hyper_bound(e, n);
    if (hb > 0 && hb < l0)
        l0 = hb;
    rtp_ns l1 = longest <= l0 / 2 ? 2 * longest : l0;
    rtp_ns top = rtp_sens_wm_all_reach(&lin, e, n, delta, reach), covered = top < l1 ? top : l1;
    uint64_t max = (lim ? *lim : rtp_limits_default()).max_iterations;
    rtp_edf_budget bud = {0, max, lim};
    if (st == RTP_OK)
        st = rtp_sens_wm_walk(e, dv, n, delta, in, reach, &win, 1, covered, &bud, diag);
    top = rtp_sens_wm_all_reach(&lin, e, n, delta, reach);
    uint64_t share = max / 16 < ((uint64_t)1 << 15) ? max / 16 : (uint64_t)1 << 15;
    uint64_t stretch = max / 16 < ((uint64_t)1 << 17) ? max / 16 : (uint64_t)1 << 17;
    rtp_ns from = covered;
    rtp_edf_budget more = {0, share, lim};
    while (st == RTP_OK && top > covered && covered < l0) {
        rtp_ns hi = top < l0 ? top : l0;
        if (covered <= l0 / 2 && hi > 2 * covered)
            hi = 2 * covered;
        for (size_t k = 0; k < n; k++)
            in[k] = delta[k] > 0;
        /* up to 2^17 steps (a sixteenth of the budget when smaller) when
         * the steps per ns so far, times what is left up to the largest
         * reach, say the walks end there: the tasks' own lattice searches
         * that follow cost 1-4 ms each (bench_analysis's family: the sets
         * that reach 1,024 longest periods within 2^15 steps have their
         * largest reach at 1,200-25,000 of them) */
        double rate = covered > from ? (double)more.used / (double)(covered - from) : 0;
        more.max = more.used > 0 && rate * (double)(top - covered) <= (double)(stretch - more.used)
                       ? stretch
                       : share;
        if (more.used >= more.max)
            break;
        st = rtp_sens_wm_walk(e, dv, n, delta, in, reach, &win, covered + 1, hi, &more, diag);
        if (st == RTP_ELIMIT && rtp_limits_check(lim, diag) == RTP_OK) {
            rtp_diag_clear(diag); /* only the share was spent: the deltas stay upper bounds */
            st = RTP_OK;
            break;
        }
        covered = hi;
        top = rtp_sens_wm_all_reach(&lin, e, n, delta, reach);
    }
    /* a reach of RTP_NS_LIMIT is "none below 2^62", not a bound: a failure
     * past 2^62 ns (the plain test looks there, solver/edf.c) stays possible */
    int done = (top <= covered && top < RTP_NS_LIMIT) || (hb > 0 && covered == hb);
    /* The search on the relaxation of every task at once (K* the largest
     * right-hand side, eta the least slope) only when it should end soon:
     * far from U' = 1 one task of the largest wcet is its whole lattice
     * and it takes each of that task's runs below K* / eta (wm_runs; 6-10
     * steps a run, ~75 ns a step), where each task's own search (lattices
     * of 7-10 tasks, ~0.75 us a step) takes 1,000-10,000 steps. Family of
     * bench_analysis (seeds 1-300: the 21 sets that get here), it ended at
     * its cap (undecided, 2-28 ms lost) in every set past 41,600 runs and
     * decided in every set below 27,700, where it won over the tasks one
     * by one (per task 1-4 ms) only beside more than a task per 4,000 runs. */
    size_t nact = 0;
    for (size_t k = 0; k < n; k++)
        nact += delta[k] > 0 && reach[k] > covered;
    double max_runs = 4000.0 * (double)nact < 30000 ? 4000.0 * (double)nact : 30000; /* 0: none */
    if (st == RTP_OK && !done)
        st = wm_near(e, dv, n, delta, covered, n, max_runs, lim, &done, diag);
    /* the rest one by one: the search on each task's own relaxation, else
     * Dinkelbach [Din67] on the exact test, each failure t lowering delta_k
     * to its own floor((t - h(t)) / n_k(t)). Dinkelbach alone, from the
     * delta left here, was never faster than the search (bench_sens_edf's
     * five slowest family sets, 77 tasks: 1.0-31x slower per task): most
     * answers are that delta itself, and proving it takes one exact test
     * just below U' = 1, the same lattice search on the raised set plus
     * the plain test's own walks. */
    memcpy(m, e, n * sizeof *m);
    for (size_t k = 0; k < n && st == RTP_OK && !done; k++) {
        if (delta[k] == 0)
            continue;
        rtp_ns own_reach = rtp_sens_wm_task_reach(&lin, &e[k], delta[k]);
        int own = own_reach < RTP_NS_LIMIT && own_reach <= covered;
        if (!own &&
            (st = wm_near(e, dv, n, delta, covered, k, HUGE_VAL, lim, &own, diag)) != RTP_OK)
            break;
        if (own || delta[k] == 0)
            continue;
        for (;;) {
            rtp_ns failed = 0;
            m[k].wcet_ns = e[k].wcet_ns + delta[k];
            if ((st = rtp_edf_failure(m, n, lim, &failed, diag)) != RTP_OK || failed == 0)
                break;
            rtp_i128 h = rtp_edf_load(e, n, failed, with_b);
            delta[k] = (rtp_ns)((failed - h) / jobs_by(&e[k], &dv[k], failed));
        }
        m[k].wcet_ns = e[k].wcet_ns;
    }
    mpq_clears(free_u, x, NULL);
    rtp_sens_wm_win_free(&win);
    free(in);
    free(reach);
    free(m);
    free(dv);
    return st;
}
