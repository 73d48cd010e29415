/* solver/sensitivity_edf_internal.h — what the files of EDF sensitivity
 * share (not installed): the critical scaling factor
 * (solver/sensitivity_edf.c, rtp_sens_edf), wcet_max's walks over demand
 * points (solver/sensitivity_edf_walk.c, rtp_sens_wm_*) and wcet_max's
 * lattice callers (solver/sensitivity_edf_wcet.c, rtp_sens_edf_wcet_max).
 * Tasks are effective tasks (C', D* = D - J'); times in ns. Pure: no
 * globals; the walks allocate only scratch, freed before they return;
 * rtp_sens_wm_win's arrays are owned by the struct (rtp_sens_wm_win_free). */
#ifndef RTP_SENSITIVITY_EDF_INTERNAL_H
#define RTP_SENSITIVITY_EDF_INTERNAL_H

#include "solver/sensitivity_internal.h"
#include "solver/edf_internal.h"

#include "models/arith.h"

#include <libdivide.h>
#include <stdlib.h>

static inline rtp_ns dstar(const rtp_task *t)
{
    return t->deadline_ns - t->jitter_ns;
}

/* The walks' jobs n_i(t) = floor((t - D*_i) / T_i) + 1 divide by the
 * same periods at every step: libdivide's reciprocals of them (a
 * multiplication and a shift), computed once per walk. Alone, 20 tasks'
 * counts at random t of 0.1-20 s, periods 1-100 ms: 26 ns against 51 ns
 * with the division instruction and 43 ns with a hand-written
 * multiply-shift (Granlund-Montgomery; its 128-bit shift by a variable
 * count is the cost). In the walks the division was not what a step costs
 * (bench_analysis's family, 300 sets, per set against the division: the
 * factor's walks the same, wcet_max's 4% faster at the median); NULL when
 * out of memory. */
static inline struct libdivide_u64_t *dividers(const rtp_task *e, size_t n)
{
    struct libdivide_u64_t *dv = malloc((n ? n : 1) * sizeof *dv);
    for (size_t i = 0; dv && i < n; i++)
        dv[i] = libdivide_u64_gen((uint64_t)e[i].period_ns);
    return dv;
}

/* n_i(t): jobs of task k (divider dv) due by t. */
static inline rtp_ns jobs_by(const rtp_task *k, const struct libdivide_u64_t *dv, rtp_ns t)
{
    rtp_ns d = dstar(k);
    return t < d ? 0 : (rtp_ns)libdivide_u64_do((uint64_t)(t - d), dv) + 1;
}

/* H + max(D*, t_B) + 1 (H the hyperperiod) or 0: every failure lies below
 * it whatever the wcets, while U' <= 1 (solver/sensitivity_edf.c). */
rtp_ns rtp_sens_edf_hyper_bound(const rtp_task *e, size_t n);

/* ------------------------------------------- wcet_max's walks (_walk.c) */

/* U 2^64 in fixed point, each term rounded down (within n below). */
rtp_i128 rtp_sens_wm_util_fixed(const rtp_task *e, size_t n);
/* floor((1 - U) T_k) into *room from u = rtp_sens_wm_util_fixed; 0 when the
 * fixed point cannot decide it. */
int rtp_sens_wm_util_room(const rtp_task *k, rtp_i128 u, size_t n, rtp_ns *room);

/* The linear envelope of the set as given: h(t) <= (1 - eps) t + k0 for
 * every t >= 0, with eps = 1 - U and k0 = B + sum U_i (T_i - D*_i)^+
 * (dbf_i(t) <= U_i (t + (T_i - D*_i)^+), b <= B), in doubles: eps from
 * rtp_sens_wm_util_fixed's u rounded down (within n 2^-64), k0 with each term rounded
 * up to the ns (within n ns), then each within half an ulp. A smaller eps
 * and a larger k0 only raise a reach (rtp_sens_wm_task_reach), so only the last
 * rounding counts, which its margins cover. */
typedef struct rtp_sens_wm_lin {
    double k0, eps;
} rtp_sens_wm_lin;

rtp_sens_wm_lin rtp_sens_wm_lin_terms(const rtp_task *e, size_t n, rtp_i128 u);
/* reach_k: no t >= it has h(t) + delta n_k(t) > t (an upper bound, in
 * doubles with margins; RTP_NS_LIMIT: none below 2^62). */
rtp_ns rtp_sens_wm_task_reach(const rtp_sens_wm_lin *l, const rtp_task *t, rtp_ns delta);
/* reach[k] of every task (0 where delta_k = 0); the largest of them. */
rtp_ns rtp_sens_wm_all_reach(const rtp_sens_wm_lin *l, const rtp_task *e, size_t n,
                             const rtp_ns *delta, rtp_ns *reach);

/* Each task's own window: task k raised by delta_k fails at t only where
 * n_k(t) = j >= 1 and
 *   t - B - sum_{i != k} U_i (t + (T_i - D*_i)^+) - (C_k + delta_k) j < 0,
 * as dbf_i(t) <= U_i (t + (T_i - D*_i)^+) for every i and t >= 0 [BRH90],
 * b(t) <= B, and k's own demand is exactly (C_k + delta_k) j. With d_j =
 * D*_k + (j - 1) T_k its j-th deadline and t = d_j + m, that is
 *   m < M_j = (K_k + (C_k + delta_k) j) / (1 - U_k') - d_j,
 * K_k = B + sum_{i != k} U_i (T_i - D*_i)^+, U_k' = sum_{i != k} U_i: only
 * the first M_j ns of each interval of k can fail for k (M_j = 0 at k's
 * reach, rtp_sens_wm_task_reach). Past a few longest periods, where the deltas keep
 * U' within a hair of 1, M_j falls by T_k (1 - U') / (1 - U_k') a job and
 * the windows are a small part of each period. ko[k] >= K_k and inv[k] >=
 * 1 / (1 - U_k') as doubles (0: not known, no window): both from
 * integers, K_k as B + the sum of ceil(C_i (T_i - D*_i)^+ / T_i) over i !=
 * k, 1 - U_k' >= (2^64 - u - n + u_k) 2^-64 with u = rtp_sens_wm_util_fixed's sum
 * (each term rounded down, so U <= (u + n) 2^-64) and u_k = floor(C_k
 * 2^64 / T_k) <= U_k 2^64; each conversion and operation after that
 * rounds by 2^-53 relative, covered by the margins of 1e-12 (win_m). */
typedef struct rtp_sens_wm_win {
    double *ko, *inv;
    /* the companion window (win_companion): c1, c2 the tasks of the two
     * largest wcets, and per task k its terms at delta `at` */
    size_t n, c1, c2;
    rtp_i128 eps_fix, *kc; /* (2^64 - u - n), K_c as an integer */
    double *cadd, *cinv;
    rtp_ns *at;
} rtp_sens_wm_win;

/* Fills w for the set as given (u from rtp_sens_wm_util_fixed); 0 when out
 * of memory (w then holds nothing to free). */
int rtp_sens_wm_win_terms(const rtp_task *e, size_t n, rtp_i128 u, rtp_sens_wm_win *w);
void rtp_sens_wm_win_free(rtp_sens_wm_win *w);

/* One QPA walk [ZB09] over [lo, bound] of h(t) + max_{k in set} delta_k
 * n_k(t), lowering each delta_k (in[k] set) violated at a failing t to
 * floor((t - h(t)) / n_k(t)); reach and win (NULL: none) only skip points
 * that cannot fail (solver/sensitivity_edf_walk.c says why). dv: dividers
 * of e's periods. RTP_ELIMIT when bud is spent (the deltas are then still
 * upper bounds). */
rtp_status rtp_sens_wm_walk(const rtp_task *e, const struct libdivide_u64_t *dv, size_t n,
                            rtp_ns *delta, const char *in, const rtp_ns *reach,
                            rtp_sens_wm_win *win, rtp_ns lo, rtp_ns bound,
                            rtp_edf_budget *bud, rtp_diag *diag);

#endif
