/* solver/fp_bound.c — the linear response bound of solver/fp_bound.h.
 *
 * Why it holds (hp = the tasks above i, U = their utilization < 1, every
 * C'_j > 0; A(s) = sum_j C'_j ceil((s + J_j) / T_j), the work above released
 * before s > 0 in the critical pattern, its early jobs counted at 0). Job q
 * of i completes by its deadline y_q = q T_i + D_i - J_i iff some s in
 * (0, y_q] has s - A(s) >= B_i + (q + 1) C'_i (solver/fp.c). Let E(y) be the
 * work above executed in [0, y) by any work-conserving schedule of those
 * jobs alone: by Lindley's formula y - E(y) = max(0, max_{0<s<=y} (s -
 * A(s))), so job q meets when y_q - E(y_q) >= B_i + (q + 1) C'_i > 0.
 * Bound E by the lead over the fluid rate: for an order k = 1..m of the
 * tasks above (any order: E does not depend on it, so take fixed priorities
 * in that order), lead_k(y) = E_k(y) - U_k (y + J_k) and Lambda_k =
 * Lambda_{k-1} + C'_k (1 - U_{<=k}) / (1 - U_{<k}), Lambda_0 = 0; then the
 * leads of tasks 1..k sum to at most Lambda_k at every y >= 0 (cf. the
 * linear bound [BNRB09], here per level). Induction: let a < y be the
 * arrival of task k's last job released before y, u = y - a, N its jobs
 * released before y. (a) E_k(y) <= N C'_k and y + J_k >= (N - 1) T_k + u,
 * so lead_k(y) <= C'_k - U_k u; (b) k's earlier jobs executed at most their
 * work by a, and in [a, y) k runs only when 1..k-1 do not, which gives
 * lead_{<k}(y) + lead_k(y) <= (1 - U_{<=k}) u + lead_{<k}(a). Both with
 * lead_{<k} <= Lambda_{k-1}: the sum is at most Lambda_{k-1} + min(C'_k -
 * U_k u, (1 - U_{<=k}) u) <= Lambda_k (the two meet at u = C'_k / (1 -
 * U_{<k})). So E(y) <= U y + sum_j U_j J_j + Lambda_m, and job q meets when
 *   Lambda_m <= (1 - U)(D_i - J_i) - sum_j U_j J_j - B_i - C'_i + q T_i eta,
 * eta = 1 - U - U_i >= 0: the right side grows with q, so q = from decides
 * every later job (eta < 0: the busy period never ends, nothing is proved).
 * That covers the virtual completions of all jobs q >= from, hence the real
 * ones of the level-i busy period (solver/fp.c far_jobs). The order taken:
 * wcets ascending (the largest C' last, where its factor is smallest). */
#include "solver/fp_bound.h"

#include <stdlib.h>

typedef struct by_wcet {
    rtp_ns wcet;
    size_t index;
} by_wcet;

static int by_wcet_cmp(const void *x, const void *y)
{
    const by_wcet *a = x, *b = y;
    if (a->wcet != b->wcet)
        return (a->wcet > b->wcet) - (a->wcet < b->wcet);
    return (a->index > b->index) - (a->index < b->index);
}

/* out = alpha wcet + per_job (alpha NULL: 1). */
static void scaled(mpq_t out, mpq_srcptr alpha, rtp_ns wcet, rtp_ns per_job)
{
    mpq_set_si(out, wcet, 1);
    if (alpha)
        mpq_mul(out, out, alpha);
    mpq_t p;
    mpq_init(p);
    mpq_set_si(p, per_job, 1);
    mpq_add(out, out, p);
    mpq_clear(p);
}

rtp_status rtp_fp_bound_holds(const rtp_task *tasks, size_t n, const char *hp, size_t i,
                              mpq_srcptr alpha, rtp_ns per_job, rtp_ns from, int *holds)
{
    *holds = 0;
    const rtp_task *ti = &tasks[i];
    by_wcet *order = malloc((n ? n : 1) * sizeof *order);
    if (!order)
        return RTP_ENOMEM;
    size_t m = 0;
    for (size_t j = 0; j < n; j++)
        if (hp[j] && j != i)
            order[m++] = (by_wcet){tasks[j].wcet_ns, j};
    qsort(order, m, sizeof *order, by_wcet_cmp); /* C' is increasing in C */
    mpq_t c, u, pre, lam, rhs, x, room;
    mpq_inits(c, u, pre, lam, rhs, x, room, NULL);
    int ok = 1;
    for (size_t k = 0; k < m && ok; k++) { /* Lambda; minus sum U_j J_j into rhs */
        const rtp_task *tk = &tasks[order[k].index];
        scaled(c, alpha, tk->wcet_ns, per_job);
        mpq_set_si(x, tk->period_ns, 1);
        mpq_div(u, c, x); /* U_k */
        mpq_set_ui(room, 1, 1);
        mpq_sub(room, room, pre); /* 1 - U_{<k} > 0 */
        mpq_add(pre, pre, u);
        ok = mpq_cmp_ui(pre, 1, 1) < 0; /* U_{<=k} < 1 */
        if (ok) {
            mpq_set_ui(x, 1, 1);
            mpq_sub(x, x, pre);
            mpq_mul(x, x, c);
            mpq_div(x, x, room); /* C'_k (1 - U_{<=k}) / (1 - U_{<k}) */
            mpq_add(lam, lam, x);
        }
        mpq_set_si(x, tk->jitter_ns, 1);
        mpq_mul(x, x, u);
        mpq_sub(rhs, rhs, x);
    }
    if (ok && ti->deadline_ns > ti->jitter_ns) {
        mpq_set_ui(u, 1, 1);
        mpq_sub(u, u, pre); /* 1 - U */
        mpq_set_si(x, ti->deadline_ns - ti->jitter_ns, 1);
        mpq_mul(x, x, u);
        mpq_add(rhs, rhs, x);
        scaled(c, alpha, ti->wcet_ns, per_job);
        mpq_set_si(x, ti->blocking_ns, 1);
        mpq_add(x, x, c);
        mpq_sub(rhs, rhs, x);
        mpq_set_si(x, ti->period_ns, 1);
        mpq_div(c, c, x); /* U_i */
        mpq_sub(u, u, c); /* eta */
        if (mpq_sgn(u) >= 0) {
            mpq_set_si(x, from, 1);
            mpq_mul(u, u, x);
            mpq_set_si(x, ti->period_ns, 1);
            mpq_mul(u, u, x);
            mpq_add(rhs, rhs, u);
            *holds = mpq_cmp(lam, rhs) <= 0;
        }
    }
    mpq_clears(c, u, pre, lam, rhs, x, room, NULL);
    free(order);
    return RTP_OK;
}
