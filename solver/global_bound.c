/* solver/global_bound.c — the interference sums of solver/global_work.h as
 * piecewise-linear functions of the window length x, and the fixed-point
 * search over them.
 *
 * Every workload function here is a staircase of slope 0 or 1, so at any x
 * each term is linear for a known run; a minimum of such lines is linear up
 * to the first crossing, and a sum of the m - 1 largest (limited carry-in) is
 * convex. On a run where the total is linear or convex, its right slope at x
 * bounds it from below, which tells how far the search may jump without
 * passing the least fixed point. The plain iteration of the papers crawls one
 * ns per step when exactly m terms sit at their clamp x - C_k + 1 (the sum
 * then grows as fast as m x); these jumps remove that. */
#include "solver/global_work.h"

#include <stdlib.h>

/* One more step against the limits. */
static rtp_status count_step(uint64_t *steps, const rtp_limits *limits, rtp_diag *diag)
{
    if (++*steps > limits->max_iterations)
        return rtp_diag_set(diag, RTP_ELIMIT, "",
                            "global response-time bound: more than %llu iterations",
                            (unsigned long long)limits->max_iterations);
    if ((*steps & 1023) == 0 && rtp_limits_check(limits, diag) != RTP_OK)
        return RTP_ELIMIT;
    return RTP_OK;
}

/* Every function twice (solver/global_bound_t.h): in rtp_i128 for any valid
 * times, and in int64_t for the common case that narrow() admits. */
#define GW_WIDE 1
#define GW_INT rtp_i128
#define GW_TERM gw_term
#define GW_INF_V RTP_I128_SATURATED
#define GW_(name) name##_wide
#include "solver/global_bound_t.h"
#undef GW_WIDE
#undef GW_INT
#undef GW_TERM
#undef GW_INF_V
#undef GW_

typedef struct gw_term64 { /* gw_term in int64_t; fits in a gw_term's room */
    int64_t value, run;
    int slope;
} gw_term64;

#define GW_WIDE 0
#define GW_INT int64_t
#define GW_TERM gw_term64
#define GW_INF_V ((int64_t)1 << 62)
#define GW_(name) name##_narrow
#include "solver/global_bound_t.h"

void rtp_gw_interference(const gw_ctx *ctx, rtp_i128 x, rtp_i128 *value)
{
    rtp_i128 top;
    interference_wide(ctx, x, value, &top);
}

/* Whether the search fits int64_t. With B the largest period, deadline,
 * wcet or response bound of the task and its interferers (every C_i <= T_i),
 * N interferers and m CPUs, and x <= D_k <= B inside the loop: a term's
 * value before the clamp is at most 3B (span <= 2B, jobs C_i <= span) and
 * its finite run at most B; a cap J_i^k at most 2B; the sum, clamped, at
 * most (N + m) B; reach's top at most 4NB, its d too, m (c + d) at most
 * m (4N + 1) B and G within that; x + reach + 1 at most (4N + 2) B; the
 * "infinite" run 2^62 plus x below 2^63. All within (m + 2)(4N + 4) B <=
 * 2^62. */
static int fits(int m, size_t n_interferers, rtp_i128 b)
{
    return (rtp_i128)(m + 2) * (4 * (rtp_i128)n_interferers + 4) * b <= (rtp_i128)1 << 62;
}

static int narrow(const gw_ctx *ctx)
{
    const rtp_task *tk = ctx->tk;
    if (ctx->wide)
        return ctx->wide < 0;
    rtp_i128 b = tk->period_ns > tk->deadline_ns ? tk->period_ns : tk->deadline_ns;
    b = tk->wcet_ns > b ? tk->wcet_ns : b;
    for (size_t j = 0; j < ctx->n_interferers; j++) {
        size_t i = ctx->interferers[j];
        const rtp_task *ti = &ctx->tasks[i];
        /* bound[i] < C_i: none (-1), or DA's R_i = D_i below C_i, where a
         * window x + D_i - C_i can fall below 0 (rtp_global_fp_da on such
         * a task): that sum stays in rtp_i128 */
        if (ti->wcet_ns > ti->period_ns || ctx->bound[i] < ti->wcet_ns)
            return 0;
        b = ti->period_ns > b ? ti->period_ns : b;
        b = ti->deadline_ns > b ? ti->deadline_ns : b;
        b = ctx->bound[i] > b ? ctx->bound[i] : b;
    }
    return fits(ctx->m, ctx->n_interferers, b);
}

int rtp_gw_narrow_all(const rtp_task *tasks, size_t n, int m, rtp_ns max_bound)
{
    if (max_bound < 0)
        return 0;
    rtp_i128 b = max_bound;
    for (size_t i = 0; i < n; i++) {
        const rtp_task *ti = &tasks[i];
        if (ti->wcet_ns > ti->period_ns)
            return 0;
        b = ti->period_ns > b ? ti->period_ns : b;
        b = ti->deadline_ns > b ? ti->deadline_ns : b;
    }
    return fits(m, n, b); /* n >= every search's interferers */
}

rtp_i128 rtp_gw_interference_sum(const gw_ctx *ctx, rtp_ns x)
{
    if (ctx->kind != GW_EDF && x <= ctx->tk->deadline_ns && narrow(ctx)) {
        int64_t value, top; /* narrow()'s bounds hold for any x <= D_k */
        interference_narrow(ctx, x, &value, &top);
        return value;
    }
    rtp_i128 value, top;
    interference_wide(ctx, x, &value, &top);
    return value;
}

rtp_status rtp_gw_fixed_point(const gw_ctx *ctx, uint64_t *steps,
                              const rtp_limits *limits, rtp_ns *bound,
                              rtp_diag *diag)
{
    return narrow(ctx) ? fixed_point_narrow(ctx, steps, limits, bound, diag)
                       : fixed_point_wide(ctx, steps, limits, bound, diag);
}
