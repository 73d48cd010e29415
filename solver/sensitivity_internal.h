/* solver/sensitivity_internal.h — what the files of the sensitivity
 * module share (not installed): the computation's context, exact rational
 * helpers and the two closed forms. See solver/sensitivity.c. */
#ifndef RTP_SENSITIVITY_INTERNAL_H
#define RTP_SENSITIVITY_INTERNAL_H

#include "solver/sensitivity.h"

#include "models/arith.h"

#include <gmp.h>

#define BIG ((rtp_i128)1 << 120)

typedef struct sctx {
    const rtp_task *e; /* wcet_ns = declared w, jitter_ns = J' */
    size_t n;
    rtp_ns c;          /* 2 x context switch */
    uint64_t used, max;
    rtp_diag *diag;
} sctx;

/* One step of the computation; RTP_ELIMIT past s->max. */
rtp_status rtp_sens_spend(sctx *s);
/* RTP_ELIMIT with the message of a spent budget. */
rtp_status rtp_sens_out_of_steps(sctx *s);
/* RTP_ELIMIT: a demand passes 2^120. Inline, so that callers' optimiser
 * sees it never returns RTP_OK (outputs set only on success are then
 * never "maybe uninitialized"). */
static inline rtp_status rtp_sens_too_big(sctx *s)
{
    return rtp_diag_set(s->diag, RTP_ELIMIT, "",
                        "critical scaling factor: a demand passes 2^120");
}
/* q = num / den (den > 0), canonical. */
void rtp_sens_qset(mpq_t q, rtp_i128 num, rtp_i128 den);
void rtp_sens_zset(mpz_t z, rtp_i128 v);
/* alpha_U of the tasks with mask[i] set (all when NULL): (1 - sum c / T) /
 * (sum w / T); 0 when the numerator is <= 0 (no alpha > 0 fits). */
int rtp_sens_util_alpha(const sctx *s, const char *mask, mpq_t out);
/* The tasks at alpha = a = p / q (a > 0) with every time multiplied by q,
 * into x (s->n entries): C = p w + q c, T, D, J, B times q, integers on which
 * the tests of solver/fp.c decide exactly what they would at a. 0 when one
 * passes 2^62 ns (x then partly written). */
int rtp_sens_scaled(const sctx *s, const mpq_t a, rtp_task *x);
/* alpha rounded down to 9 significant digits, trailing zeros dropped. */
void rtp_sens_format_decimal(const mpq_t a, char *buf, size_t size);

/* Work released before t as a function of alpha (sensitivity_fp.c):
 * W_alpha(t) = alpha A(t) + c N(t) + b for t > 0, where A and N are the
 * declared wcets and the count of the jobs released before t: n0 jobs
 * (wcets a0) counted at every t, plus each sequence's jobs released at
 * max(0, phase + m period), m = 0 .. count - 1 (count < 0: no end). A and N
 * only step at the release times, so W is constant on each interval
 * (s, s'] between consecutive ones. */
typedef struct rtp_sens_seq {
    rtp_ns w, phase, period, count;
} rtp_sens_seq;

typedef struct rtp_sens_work {
    rtp_i128 a0, n0;
    rtp_ns b;
    const rtp_sens_seq *seq;
    size_t n;
} rtp_sens_work;

/* A(t), N(t) at an integer t >= 1 (jobs released at or before t - 1). */
rtp_status rtp_sens_work_sums(sctx *s, const rtp_sens_work *wk, rtp_i128 t, rtp_i128 *A,
                              rtp_i128 *N);
/* The largest (p - c N(p) - b) / A(p) over the points p in (lo, x] (the
 * release times there, and x) into out: W_alpha(t) <= t for some t in
 * (lo, x] iff alpha <= it ([LSD89]: W is constant between the points, so
 * the condition at a point covers its interval). *found = 0 when x <= lo.
 * With stop, the scan ends (*reached = 1) at a point whose value is >= stop. */
rtp_status rtp_sens_work_max(sctx *s, const rtp_sens_work *wk, rtp_i128 lo, rtp_i128 x,
                             const mpq_t stop, mpq_t out, int *found, int *reached);
/* At alpha = a: the least t > lo with W_a(t) <= t, iterated from W_a(lo+)
 * (a lower bound), when it is <= x (x <= 2^63 - 1): *holds = 1 and, when at
 * is not NULL, t into at (a value <= lo means just after lo); *holds = 0 as
 * soon as the iteration passes x. */
rtp_status rtp_sens_work_settle(sctx *s, const rtp_sens_work *wk, const mpq_t a, rtp_i128 lo,
                                rtp_i128 x, int *holds, mpq_t at);

/* wcet_max under EDF of the effective tasks e (schedulable as given): the
 * largest delta[k] such that C'_k + delta[k] keeps e schedulable, the
 * others unchanged (sensitivity_edf_wcet.c). */
rtp_status rtp_sens_edf_wcet_max(const rtp_task *e, size_t n, const rtp_limits *lim,
                                 rtp_ns *delta, rtp_diag *diag);
/* Fixed priorities, every D <= T, no equal priorities (else *handled =
 * 0, nothing done): wcet_max from Lehoczky's scheduling points, delta[k]
 * the largest addition to C'_k keeping the schedulable set e schedulable
 * under prio[] (sensitivity_fp.c). */
rtp_status rtp_sens_fp_wcet_max(const rtp_task *e, size_t n, const int *prio,
                                const rtp_limits *lim, rtp_ns *delta, int *handled,
                                rtp_diag *diag);
/* alpha* under EDF (sensitivity_edf.c); *exists = 0 when none > 0. */
rtp_status rtp_sens_edf(sctx *s, mpq_t out, int *exists);
/* alpha* under FP with priorities prio[] (equal ones: FIFO ties), and
 * under OPA (sensitivity_fp.c). */
rtp_status rtp_sens_fp_fixed(sctx *s, const int *prio, mpq_t out, int *exists);
rtp_status rtp_sens_fp_opa(sctx *s, mpq_t out, int *exists);
/* alpha_i of task i, which has equal-priority peers under prio[] (FIFO
 * ties, sensitivity_fifo.c), capped at *cap when cap is not NULL: best =
 * min(alpha_i, cap); *exists = 0 when no alpha > 0 passes. */
rtp_status rtp_sens_fp_fifo(sctx *s, size_t i, const int *prio, const mpq_t cap, mpq_t best,
                            int *exists);
/* The factor G_0 of task i's job released at 0 under FIFO ties (an upper
 * bound of its alpha_i: release 0 is always examined) into key; *found = 0
 * when there is none (J' >= D). */
rtp_status rtp_sens_fifo_first(sctx *s, size_t i, const int *prio, mpq_t key, int *found);

/* Global EDF on test->cpus >= 2 CPUs as its parts whose accepted wcets are
 * downward closed, cheapest first: GFB, BCL, the RTA, each alone, into
 * parts[] (RTP_SENS_GEDF_PARTS); returns their count (sensitivity_global.c). */
#define RTP_SENS_GEDF_PARTS 3
#define RTP_SENS_GEDF_RTA 2 /* the index of the RTA among them */
size_t rtp_sens_gedf_parts(const rtp_test *test, rtp_test *parts);
/* A guess (doubles: no answer depends on it) of the largest C'_k at which
 * GFB accepts the effective tasks e on m CPUs, the others unchanged: its
 * condition sum_i C_i/D_i + (m - 1) max_i C_i/D_i <= m, linear in C'_k on
 * each side of the largest other density, with C'_k <= D_k and total
 * utilization <= m; -1 when none. */
rtp_ns rtp_sens_gfb_guess(const rtp_task *e, size_t n, int m, size_t k);
/* The largest integer x in [lo, hi] such that BAK accepts the effective
 * tasks e on m CPUs with e[j].wcet_ns = x, into *best; -1 when none. */
rtp_status rtp_sens_bak_max(const rtp_task *e, size_t n, int m, size_t j, rtp_ns lo,
                            rtp_ns hi, rtp_ns *best);
/* One try of rtp_sens_secant_max: the test at x into *ok and, on
 * acceptance, every task's bound there into bounds[] (n entries) and into
 * *margin a measure that falls towards 0 as x nears the largest accepted
 * x, roughly in proportion (-1: none; a guess only, no answer depends on
 * it). */
typedef rtp_status (*rtp_sens_run)(void *ctx, rtp_ns x, rtp_ns *bounds, rtp_ns *margin,
                                   int *ok);
/* The largest x in [*lo, hi) that run accepts, into *lo, given that it
 * accepts at *lo with the bounds r[n..2n) and, when xp < *lo, at xp with
 * the bounds r[0..n) (r has 3n entries, the last n scratch), that its
 * accepted x are downward closed and that low[k] (which run may raise on
 * acceptance) is a lower bound of task k's bound at *lo that rises by at
 * least d when x does (so *lo + D_k - low[k] caps the answer). The same
 * answer as bisection (an accepted *lo and a rejected hi, until 1 apart),
 * with fewer runs: each try is the secant's guess through the two latest
 * accepted x (where it reaches the first deadline), or where the line
 * through their margins reaches 0 when that comes first; after a rejection
 * only when it lies in the inner half of (*lo, hi), else the middle (so the
 * bracket shrinks by at least a quarter every second try); the middle too
 * when the guess is at or past hi (sensitivity_global.c). Used by the gedf
 * RTA (sensitivity.c) and gfp's fixed orders. */
rtp_status rtp_sens_secant_max(const rtp_task *e, size_t n, size_t k, rtp_ns *lo, rtp_ns hi,
                               const rtp_ns *low, rtp_ns xp, rtp_ns *r, rtp_sens_run run,
                               void *ctx);

/* The gedf RTA with C'_k = x + c on the effective tasks e (restored),
 * given warm[], lower bounds of its r* at lo and so at every larger x (the
 * RTA need not accept lo: only x + 1's rejection is proved here):
 * lowers *hi (> lo, where the RTA rejects) to x + 1 for an x in [lo, *hi)
 * where the iteration from below alone (rtp_gw_edf_below) is not proved to
 * reject and x + 1 is proved rejected (by that iteration, by
 * rtp_sens_secant_max's cap, or it is the caller's *hi). That x is the
 * search's boundary, not always the largest such x: undecided runs count
 * as not rejected, so "not proved rejected" need not be monotone in x
 * (review rev11a). Soundness needs only x + 1: the RTA's verdict is
 * downward closed in C_k and the iteration from below never passes its
 * least fixed point (global_edf.c), so a missing bound there is one for
 * the RTA, which rejects x + 1 and every larger wcet: its largest accepted
 * wcet is at most x, and is x when it accepts x (sensitivity_global.c). */
rtp_status rtp_sens_gedf_below_cap(rtp_task *e, size_t n, int m, size_t k, rtp_ns c, rtp_ns lo,
                                   rtp_ns *hi, const rtp_ns *warm, const rtp_limits *limits,
                                   rtp_diag *diag);

/* Global FP on test->cpus >= 2 CPUs under test->priority (DM, RM, given,
 * OPA): cmax[k] = the largest C'_k (effective tasks e, the others
 * unchanged) the test accepts, e itself accepted; -1 everywhere on an
 * error (sensitivity_global.c). */
rtp_status rtp_sens_gfp_max(const rtp_test *test, const rtp_task *e, size_t n, rtp_ns *cmax,
                            rtp_diag *diag);

#endif
