/* solver/sensitivity_fifo.c — the factor alpha_i of a task with
 * equal-priority peers under the FIFO-tie analysis of solver/fp.c (see
 * solver/sensitivity.c for the module, solver/sensitivity.h for the
 * contract).
 *
 * Task i, more urgent tasks hp, equal ones eq (FIFO by release), level =
 * hp + eq + i. solver/fp.c examines the candidate releases r of i's job
 * (0, the multiples of T_i, the k T_j - J_j > 0 of eq) below the end L of
 * the synchronous level-i busy period; one that is not a multiple of T_i
 * only when its phased pattern keeps the CPU busy past r; and it fails
 * when such a job completes after r - J_i + D_i. With alpha in every C'
 * and rtp_sens_work_max (a condition "W(t) <= t for some t in an interval"
 * holds iff alpha <= the largest value at the interval's points), each
 * part is a closed condition on alpha:
 *  - r >= L(alpha) iff alpha <= S_r: the synchronous level work (B_i, every
 *    level task from -J_j) meets t somewhere in (0, r];
 *  - not busy past r iff alpha <= P_r: the phased work (B_i, hp and eq
 *    from -J_j, i's q = floor(r / T_i) earlier jobs arriving at r - J_i -
 *    k T_i, k = 1..q) meets t somewhere in (0, r] (P_r = -inf when r is a
 *    multiple of T_i);
 *  - the job meets its deadline iff alpha <= G_r: B_i, i's q + 1 jobs and
 *    the eq jobs released at or before r always count, hp from -J_j, and
 *    the work meets t somewhere in (r, r - J_i + D_i].
 * So task i passes at alpha iff alpha <= alpha_UL (the level utilization
 * reaches 1 there) and alpha <= M_r = max(S_r, P_r, G_r) for every
 * candidate r: alpha_i = min(alpha_UL, min_r M_r). The minimum is attained
 * (alpha_i is a maximum, not a supremum): S_r is non-decreasing in r (a
 * growing interval), so once S_r >= the current minimum m every later r
 * holds at m; below alpha_UL the busy period is finite, so S_r reaches m.
 * At alpha_UL itself with blocking or jitter in the level the busy period
 * never ends and solver/fp.c examines r < H (the level hyperperiod) only;
 * the conditions of r >= H hold there whenever those of r - H do: at
 * level utilization 1 the job pattern of r is that of r - H shifted by H
 * with H more work (G_r's condition is the same), and the phased work of r
 * past H is that of r - H shifted, so it meets t whenever the other does
 * (P_r's condition is implied). So the scan stops at H there.
 *
 * The scan: with the current candidate m (alpha_UL, or the cap), each r is
 * checked at m by the rational iterations (rtp_sens_work_settle); only when
 * r is examined and misses at m are S_r, P_r and G_r enumerated, and m
 * drops to their maximum (< m). */
#include "solver/sensitivity_internal.h"

#include "models/arith.h"

#include <stdlib.h>

typedef struct fifo {
    sctx *s;
    size_t i, nh, ne;
    rtp_sens_seq *seq; /* hp (nh), eq (ne), then one slot for i */
    int endless;       /* at the candidate the busy period never ends */
    mpq_t busy_end;    /* else L at the candidate */
} fifo;

/* The synchronous level work: slot = i from -J_i. */
static rtp_sens_work sync_work(fifo *f)
{
    const rtp_task *ti = &f->s->e[f->i];
    rtp_sens_seq own = {ti->wcet_ns, -ti->jitter_ns, ti->period_ns, -1};
    f->seq[f->nh + f->ne] = own;
    rtp_sens_work wk = {0, 0, ti->blocking_ns, f->seq, f->nh + f->ne + 1};
    return wk;
}

/* The phased work of release r: slot = i's q earlier jobs, the first
 * arriving at r - J_i - q T_i. */
static rtp_sens_work phased_work(fifo *f, rtp_ns r)
{
    const rtp_task *ti = &f->s->e[f->i];
    rtp_ns q = r / ti->period_ns;
    rtp_sens_seq own = {ti->wcet_ns, r - ti->jitter_ns - q * ti->period_ns, ti->period_ns, q};
    f->seq[f->nh + f->ne] = own;
    rtp_sens_work wk = {0, 0, ti->blocking_ns, f->seq, f->nh + f->ne + 1};
    return wk;
}

/* The work of i's job released at r. */
static rtp_status job_work(fifo *f, rtp_ns r, rtp_sens_work *wk)
{
    const rtp_task *ti = &f->s->e[f->i];
    rtp_sens_work eq = {0, 0, 0, f->seq + f->nh, f->ne};
    rtp_i128 a, n;
    rtp_status st = rtp_sens_work_sums(f->s, &eq, (rtp_i128)r + 1, &a, &n);
    rtp_ns q = r / ti->period_ns;
    wk->a0 = a + (rtp_i128)(q + 1) * ti->wcet_ns;
    wk->n0 = n + q + 1;
    wk->b = ti->blocking_ns;
    wk->seq = f->seq;
    wk->n = f->nh;
    return st;
}

/* L at the candidate m (or endless). */
static rtp_status busy_end(fifo *f, const mpq_t m, const mpq_t ul, int delays)
{
    f->endless = delays && mpq_equal(m, ul);
    if (f->endless)
        return RTP_OK;
    rtp_sens_work wk = sync_work(f);
    int holds = 0;
    rtp_status st = rtp_sens_work_settle(f->s, &wk, m, 0, INT64_MAX, &holds, f->busy_end);
    if (st == RTP_OK && !holds)
        st = rtp_diag_set(f->s->diag, RTP_ELIMIT, "",
                          "critical scaling factor: a busy period passes 2^63 ns");
    return st;
}

/* max(S_r, P_r, G_r) into m; *found = 0 when all are -inf. */
static rtp_status drop(fifo *f, rtp_ns r, rtp_ns deadline, mpq_t m, int *found)
{
    const rtp_task *ti = &f->s->e[f->i];
    mpq_t v;
    mpq_init(v);
    int fv = 0, reached;
    *found = 0;
    rtp_sens_work wk;
    rtp_status st = job_work(f, r, &wk);
    for (int part = 0; part < 3 && st == RTP_OK; part++) {
        if (part == 1)
            wk = sync_work(f);
        else if (part == 2 && r % ti->period_ns == 0)
            break;
        else if (part == 2)
            wk = phased_work(f, r);
        rtp_i128 lo = part == 0 ? r : 0, hi = part == 0 ? deadline : r;
        st = rtp_sens_work_max(f->s, &wk, lo, hi, NULL, v, &fv, &reached);
        if (st == RTP_OK && fv && (!*found || mpq_cmp(v, m) > 0)) {
            mpq_set(m, v);
            *found = 1;
        }
    }
    mpq_clear(v);
    return st;
}

/* The next candidate release after r: i's next multiple of T_i or eq's
 * next k T_j - J_j. */
static rtp_ns next_release(const fifo *f, rtp_ns r)
{
    rtp_ns tp = f->s->e[f->i].period_ns;
    rtp_i128 next = ((rtp_i128)r / tp + 1) * tp;
    for (size_t k = f->nh; k < f->nh + f->ne; k++) {
        const rtp_sens_seq *q = &f->seq[k];
        rtp_i128 at = ((rtp_i128)r - q->phase) / q->period * q->period + q->period + q->phase;
        if (at < next)
            next = at;
    }
    return next > INT64_MAX ? INT64_MAX : (rtp_ns)next;
}

/* The sequences of hp and eq into f->seq (one slot left for i); 0 or
 * RTP_ENOMEM. level (n entries, or NULL) marks the tasks at or above i. */
static rtp_status fifo_init(fifo *f, const int *prio, char *level)
{
    sctx *s = f->s;
    f->seq = malloc((s->n + 1) * sizeof *f->seq);
    if (!f->seq)
        return RTP_ENOMEM;
    for (int pass = 0; pass < 2; pass++) /* hp first, then eq */
        for (size_t j = 0; j < s->n; j++) {
            if (level)
                level[j] = prio[j] >= prio[f->i];
            if (j == f->i || prio[j] < prio[f->i] || (prio[j] == prio[f->i]) != pass)
                continue;
            rtp_sens_seq q = {s->e[j].wcet_ns, -s->e[j].jitter_ns, s->e[j].period_ns, -1};
            f->seq[f->nh + f->ne] = q;
            *(pass ? &f->ne : &f->nh) += 1;
        }
    return RTP_OK;
}

rtp_status rtp_sens_fifo_first(sctx *s, size_t i, const int *prio, mpq_t key, int *found)
{
    fifo f = {.s = s, .i = i};
    rtp_sens_work wk;
    int reached;
    *found = 0;
    rtp_status st = fifo_init(&f, prio, NULL);
    if (st == RTP_OK && (st = job_work(&f, 0, &wk)) == RTP_OK)
        st = rtp_sens_work_max(s, &wk, 0, s->e[i].deadline_ns - s->e[i].jitter_ns, NULL, key,
                               found, &reached);
    free(f.seq);
    return st;
}

rtp_status rtp_sens_fp_fifo(sctx *s, size_t i, const int *prio, const mpq_t cap, mpq_t best,
                            int *exists)
{
    const rtp_task *ti = &s->e[i];
    *exists = 0;
    if (ti->jitter_ns >= ti->deadline_ns)
        return RTP_OK;
    fifo f = {.s = s, .i = i};
    char *level = malloc(s->n);
    if (!level || fifo_init(&f, prio, level) != RTP_OK) {
        free(level);
        free(f.seq);
        return RTP_ENOMEM;
    }
    int delays = ti->blocking_ns > 0;
    rtp_ns hyper = 1;
    for (size_t j = 0; j < s->n; j++) {
        if (!level[j])
            continue;
        delays = delays || s->e[j].jitter_ns > 0;
        if (hyper > 0 && rtp_lcm(hyper, s->e[j].period_ns, &hyper) != RTP_OK)
            hyper = 0; /* unknown: the scan ends on L or the step budget */
    }
    mpq_t ul;
    mpq_inits(ul, f.busy_end, NULL);
    rtp_status st = RTP_OK;
    if (!rtp_sens_util_alpha(s, level, ul))
        goto done; /* the overheads alone fill the level */
    mpq_set(best, cap && mpq_cmp(cap, ul) < 0 ? cap : ul);
    st = busy_end(&f, best, ul, delays);
    for (rtp_ns r = 0; st == RTP_OK; r = next_release(&f, r)) {
        if (f.endless ? hyper > 0 && r >= hyper : mpq_cmp_si(f.busy_end, (long)r, 1) <= 0) {
            *exists = 1; /* every later r holds at best */
            break;
        }
        if ((st = rtp_sens_spend(s)) != RTP_OK)
            break;
        int examined = r % ti->period_ns == 0, holds = 0;
        if (!examined) {
            rtp_sens_work wk = phased_work(&f, r);
            st = rtp_sens_work_settle(s, &wk, best, 0, r, &holds, NULL);
            examined = !holds;
        }
        rtp_i128 deadline = (rtp_i128)r - ti->jitter_ns + ti->deadline_ns;
        if (st != RTP_OK || !examined)
            continue;
        if (deadline > INT64_MAX) {
            st = rtp_diag_set(s->diag, RTP_ELIMIT, "",
                              "critical scaling factor: a deadline passes 2^63 ns");
            break;
        }
        rtp_sens_work wk;
        if ((st = job_work(&f, r, &wk)) != RTP_OK ||
            (st = rtp_sens_work_settle(s, &wk, best, r, deadline, &holds, NULL)) != RTP_OK ||
            holds)
            continue;
        int found = 0;
        if ((st = drop(&f, r, (rtp_ns)deadline, best, &found)) != RTP_OK)
            break;
        if (!found || mpq_sgn(best) <= 0)
            goto done; /* release r misses at every alpha > 0 */
        st = busy_end(&f, best, ul, delays);
    }
done:
    mpq_clears(ul, f.busy_end, NULL);
    free(level);
    free(f.seq);
    return st;
}
