/* solver/global_fp.c — global fixed-priority analysis of solver/global.h:
 * response-time bounds of [BC07] and [GSYY09], the deadline-based DA / DA-LC
 * tests and Audsley's OPA over them [DB09], and monotonic priority orders. */
#include "solver/global.h"
#include "solver/global_work.h"

#include <stdlib.h>

static rtp_status nomem(rtp_diag *diag)
{
    return rtp_diag_set(diag, RTP_ENOMEM, "", "out of memory");
}

/* a more urgent than b under `rule` (DM: deadline, RM: period; ties to the
 * earlier task in input). */
static int more_urgent(const rtp_task *tasks, rtp_prio_rule rule, size_t a, size_t b)
{
    rtp_ns ka = rule == RTP_PRIO_RM ? tasks[a].period_ns : tasks[a].deadline_ns;
    rtp_ns kb = rule == RTP_PRIO_RM ? tasks[b].period_ns : tasks[b].deadline_ns;
    return ka < kb || (ka == kb && a < b);
}

void rtp_global_monotonic(const rtp_task *tasks, size_t n, rtp_prio_rule rule,
                          int *priority)
{
    /* priority = 1 + the number of tasks that are less urgent: O(n^2), fine
     * for the few hundred tasks of one cluster and free of allocation. */
    for (size_t i = 0; i < n; i++) {
        int below = 0;
        for (size_t j = 0; j < n; j++)
            below += (j != i && more_urgent(tasks, rule, i, j));
        priority[i] = below + 1;
    }
}

rtp_status rtp_gw_fp_bound(const rtp_task *tasks, const size_t *order, size_t p, int m,
                           int limited_carry_in, const gw_fp_starts *starts, const rtp_ns *r,
                           gw_term *scratch, uint64_t *steps, const rtp_limits *limits,
                           rtp_ns *bound, rtp_ns *bc_bound, rtp_diag *diag)
{
    size_t k = order[p];
    const rtp_ns *start = starts ? starts->start : NULL;
    const rtp_ns *from = starts && starts->start_bc ? starts->start_bc : start;
    gw_ctx ctx = {tasks, order, p, r, &tasks[k], m, GW_FP_BC, scratch, NULL,
                  from ? from[k] : 0, starts ? starts->wide : 0, NULL, 0};
    rtp_ns bc, lc = -1;
    rtp_status st = rtp_gw_fixed_point(&ctx, steps, limits, &bc, diag);
    /* [GSYY09]'s search matters only below [BC07]'s bound, so it stops
     * there: most of its steps are spared, and its sums jump less far than
     * [BC07]'s. */
    ctx.kind = GW_FP_LC;
    ctx.from = start ? start[k] : 0;
    ctx.last = bc >= 0 ? bc - 1 : tasks[k].deadline_ns;
    if (st == RTP_OK && limited_carry_in && ctx.last >= tasks[k].wcet_ns)
        st = rtp_gw_fixed_point(&ctx, steps, limits, &lc, diag);
    /* Both are valid upper bounds given valid bounds r[] of the more
     * urgent tasks, so their minimum is one too. */
    *bound = bc < 0 ? lc : (lc < 0 ? bc : (bc < lc ? bc : lc));
    if (bc_bound)
        *bc_bound = bc;
    return st;
}

rtp_status rtp_gw_fp_rta_from(const rtp_task *tasks, size_t n, int m, const size_t *order,
                              size_t from, int limited_carry_in, const gw_fp_starts *starts,
                              const rtp_limits *limits, rtp_ns *r, rtp_ns *bc, int *all_fit,
                              rtp_diag *diag)
{
    gw_term *scratch = malloc(3 * (n ? n : 1) * sizeof *scratch);
    if (!scratch)
        return nomem(diag);
    rtp_status st = RTP_OK;
    uint64_t steps = 0;
    *all_fit = 1;
    for (size_t p = from; p < n; p++) {
        size_t k = order[p];
        r[k] = -1;
        if (bc)
            bc[k] = -1;
        if (!*all_fit)
            continue; /* a more urgent task has no bound: none for k either */
        if ((st = rtp_gw_fp_bound(tasks, order, p, m, limited_carry_in, starts, r, scratch,
                                  &steps, limits, &r[k], bc ? &bc[k] : NULL, diag)))
            break;
        *all_fit = r[k] >= 0;
    }
    free(scratch);
    return st;
}

rtp_status rtp_global_fp_rta(const rtp_task *tasks, size_t n, int m,
                             const int *priority, int limited_carry_in,
                             const rtp_limits *limits, rtp_ns *response_time,
                             rtp_global_verdict *verdict, rtp_diag *diag)
{
    rtp_status st = gw_begin(m, n, response_time, diag);
    if (st != RTP_OK)
        return st;
    *verdict = RTP_GLOBAL_NA;
    if (!gw_applicable(tasks, n))
        return RTP_OK;
    size_t *order = malloc((n ? n : 1) * sizeof *order);
    rtp_ns *r = malloc((n ? n : 1) * sizeof *r);
    int all_fit = 0;
    if (!order || !r)
        st = nomem(diag);
    else if ((st = gw_priority_order(priority, n, order, "global FP analysis", diag)) == RTP_OK)
        st = rtp_gw_fp_rta_from(tasks, n, m, order, 0, limited_carry_in, NULL, limits, r, NULL,
                                &all_fit, diag);
    if (st == RTP_OK) {
        *verdict = all_fit ? RTP_GLOBAL_ACCEPT : RTP_GLOBAL_REJECT;
        for (size_t i = 0; response_time && i < n; i++)
            response_time[i] = r[i];
    }
    free(order);
    free(r);
    return st;
}

int rtp_gw_da_passes(const rtp_task *tasks, const size_t *hp, size_t n_hp, int m, size_t k,
                     int lc, int wide, gw_term *scratch, const rtp_ns *deadlines)
{
    const rtp_task *tk = &tasks[k];
    if (tk->wcet_ns > tk->deadline_ns)
        return 0;
    gw_ctx ctx = {tasks, hp, n_hp, deadlines, tk, m, lc ? GW_FP_LC : GW_FP_BC, scratch, NULL, 0,
                  wide, NULL, 0};
    return rtp_gw_interference_sum(&ctx, tk->deadline_ns) <
           (rtp_i128)m * (tk->deadline_ns - tk->wcet_ns + 1);
}

rtp_status rtp_global_fp_da(const rtp_task *tasks, size_t n, int m, size_t k,
                            const unsigned char *higher, int limited_carry_in,
                            int *passes, rtp_diag *diag)
{
    *passes = 0;
    rtp_status st = gw_check_cpus(m, diag);
    if (st != RTP_OK)
        return st;
    if (!gw_applicable(tasks, n))
        return RTP_OK;
    size_t *hp = malloc((n ? n : 1) * sizeof *hp);
    rtp_ns *deadlines = malloc((n ? n : 1) * sizeof *deadlines);
    gw_term *scratch = malloc(3 * (n ? n : 1) * sizeof *scratch);
    if (!hp || !deadlines || !scratch) {
        st = nomem(diag);
    } else {
        size_t n_hp = 0;
        for (size_t i = 0; i < n; i++) {
            deadlines[i] = tasks[i].deadline_ns;
            if (i != k && higher[i])
                hp[n_hp++] = i;
        }
        *passes =
            rtp_gw_da_passes(tasks, hp, n_hp, m, k, limited_carry_in, 0, scratch, deadlines);
    }
    free(hp);
    free(deadlines);
    free(scratch);
    return st;
}

rtp_status rtp_global_fp_opa(const rtp_task *tasks, size_t n, int m,
                             int *priority, int *found, rtp_diag *diag)
{
    return rtp_gw_fp_opa_hint(tasks, n, m, NULL, n, priority, found, diag);
}

/* With a hint (global_work.h), level lv is "in step" while every level
 * below it took the hint's task: the tasks assigned so far, hence each
 * candidate's set of more urgent tasks, are the hint run's. The candidates
 * the hint run tried there before its pick failed then, with the same
 * tasks above them and no wcet larger than now: DA's and DA-LC's
 * interference is non-decreasing in every interferer's wcet and their
 * condition is downward closed in the candidate's own (solver/sensitivity.h),
 * so they fail again and the scan starts at the hint's pick. Once the
 * changed task is assigned in step, every later level sees exactly the
 * hint run's tasks and wcets: the hint's picks pass again, the rest of the
 * order is the hint's. Past the first level whose pick fails, the plain scan. */
rtp_status rtp_gw_fp_opa_hint(const rtp_task *tasks, size_t n, int m, const size_t *hint,
                              size_t changed, int *priority, int *found, rtp_diag *diag)
{
    *found = 0;
    rtp_status st = gw_check_cpus(m, diag);
    if (st != RTP_OK)
        return st;
    rtp_global_monotonic(tasks, n, RTP_PRIO_DM, priority);
    if (!gw_applicable(tasks, n))
        return RTP_OK;
    size_t *by_dm = malloc((n ? n : 1) * sizeof *by_dm); /* most urgent first */
    size_t *hp = malloc((n ? n : 1) * sizeof *hp);
    int *level = calloc(n ? n : 1, sizeof *level);       /* 0 = unassigned */
    rtp_ns *deadlines = malloc((n ? n : 1) * sizeof *deadlines);
    gw_term *scratch = malloc(3 * (n ? n : 1) * sizeof *scratch);
    if (!by_dm || !hp || !level || !deadlines || !scratch) {
        free(by_dm); free(hp); free(level); free(deadlines); free(scratch);
        return nomem(diag);
    }
    rtp_ns d_max = 0;
    int feasible = 1;
    for (size_t i = 0; i < n; i++) {
        by_dm[n - (size_t)priority[i]] = i;
        deadlines[i] = tasks[i].deadline_ns;
        d_max = deadlines[i] > d_max ? deadlines[i] : d_max;
        feasible &= tasks[i].wcet_ns <= tasks[i].deadline_ns;
    }
    /* every DA sum below in int64_t when that fits for them all (R_i =
     * D_i). Each window x + D_i - C_i is >= 0 only when every C_i <= D_i:
     * an interferer with C_i > D_i + D_k gives a negative one, whose
     * staircase signed 64-bit arithmetic may not take (UBSan,
     * test_wcet_max's raised wcets); such a set gets no order (that task
     * passes at no level), and its sums stay in 128 bits (wide = 1), as
     * before the int64_t path. */
    int wide = !feasible ? 1 : rtp_gw_narrow_all(tasks, n, m, d_max) ? -1 : 0;
    int ok = 1, in_step = hint != NULL;
    for (int lv = 1; ok && (size_t)lv <= n; lv++) {
        ok = 0;
        size_t pick = in_step ? hint[n - (size_t)lv] : 0;
        if (in_step && level[changed]) { /* the hint's order from here on */
            level[pick] = lv;
            ok = 1;
            continue;
        }
        int skip = in_step; /* the hint run's failed candidates, before its pick */
        for (size_t c = n; c-- > 0 && !ok;) { /* reverse DM order */
            size_t k = by_dm[c];
            skip = skip && k != pick;
            if (level[k] || skip)
                continue;
            size_t n_hp = 0;
            for (size_t i = 0; i < n; i++)
                if (i != k && !level[i])
                    hp[n_hp++] = i;
            if (rtp_gw_da_passes(tasks, hp, n_hp, m, k, 0, wide, scratch, deadlines) ||
                rtp_gw_da_passes(tasks, hp, n_hp, m, k, 1, wide, scratch, deadlines)) {
                level[k] = lv;
                ok = 1;
            }
        }
        in_step = in_step && ok && level[pick] == lv;
    }
    if (ok) {
        for (size_t i = 0; i < n; i++)
            priority[i] = level[i];
        *found = 1;
    }
    free(by_dm); free(hp); free(level); free(deadlines); free(scratch);
    return RTP_OK;
}
