/* solver/edf_near.h — internal to solver/ (not installed): the exact EDF
 * test just below U' = 1, where the testing interval (La ~ 1 / (1 - U'), the
 * busy period ~ the hyperperiod) is far too long for QPA to walk. A failing
 * t needs the deadlines of the tasks with the largest C' to fall just before
 * t at once, a simultaneous Diophantine approximation [ER10]; the search
 * enumerates the points of a lattice [LLL82] in a simplex and confirms each
 * candidate exactly (solver/edf_near.c). Tasks are effective tasks (C', D* =
 * D - J'). Units: ns. Pure and thread-safe; allocates only scratch it frees. */
#ifndef RTP_EDF_NEAR_H
#define RTP_EDF_NEAR_H

#include <gmp.h>

#include "solver/edf_internal.h"

/* Looks at the step points in [lo, hi] (1 <= lo <= hi): *failed = 0 when
 * none has h(t) > t, else such a t (the smallest one with want_first).
 * The exact test itself, for the tasks as the caller scales them. */
typedef rtp_status (*rtp_edf_near_check)(void *ctx, rtp_ns lo, rtp_ns hi, int want_first,
                                         rtp_ns *failed);

typedef struct rtp_edf_near_in {
    const rtp_task *tasks;   /* C'_i = alpha wcet_ns + per_job_ns; D* = D - J */
    size_t n;
    mpq_srcptr alpha;        /* NULL: alpha = 1 */
    rtp_ns per_job_ns;
    rtp_ns t_cap;            /* searched: t < min(La, t_cap), t_cap <= 2^62 */
    int want_first;          /* the smallest failure, not just one */
    rtp_edf_near_check check;
    void *check_ctx;
    rtp_edf_budget *b;       /* a lattice node is one step; check() spends its own */
    /* Optional (NULL: K0 and eps = 1 - U' of the tasks): the condition
     * searched is Phi(t) + eps t < K0 with these instead, for a caller whose
     * failures imply it (a relaxation; solver/sensitivity_edf_wcet.c). refresh,
     * when not NULL, is called before each chunk and may lower k0 or raise
     * eps (returning 1 when it did): failures found meanwhile tightened
     * them. */
    mpq_ptr k0, eps;
    int (*refresh)(void *ctx);
    /* Optional (0: 8): the interval is searched in chunks, each holding
     * this many times the expected candidates of all before it (8 when
     * the larger one would not fit the budget left). Every chunk sets up
     * each base's lattice afresh (its reduction and facets: about half
     * of a search of 10 dimensions), so a caller that expects no failure
     * takes fewer, larger chunks; one that wants the first failure soon,
     * smaller ones. */
    unsigned growth;
    /* Optional (0: 10): the most tasks in the lattice. More tasks mean
     * fewer candidate runs but more nodes per run: the enumeration's middle
     * levels hold many partial points that lift to none (a caller that
     * measured its own best sets it). */
    size_t dims_max;
    /* Optional (NULL: EDF's runs, each starting at a deadline of a task of
     * S): the points D*_b + q T_b of this task alone, which is not in the sum
     * (C' ignored; the fixed-priority search of solver/fp.c, where the
     * tasks' D* are the phases of their sawtooth terms and check() is
     * asked about single points). */
    const rtp_task *base;
} rtp_edf_near_in;

typedef struct rtp_edf_near_result {
    int decided;        /* 1: `failed` is exact for every t > 0 */
    rtp_ns failed;      /* 0: none; else a failing t (the smallest with want_first) */
    rtp_ns clear_below; /* decided = 0: no failure below this (La past t_cap) */
    rtp_ns bound;       /* La rounded up (0 when it passes 2^62), for messages */
    size_t dims;        /* tasks in the lattice */
} rtp_edf_near_result;

/* K0 = B + sum U'_i (T_i - D*_i) and eps = 1 - sum U'_i with C'_i = alpha
 * wcet_i + per_job_ns (alpha NULL: 1), exactly; cd (n entries or NULL) gets
 * each C'_i rounded. The search's terms, for callers that tighten them. */
void rtp_edf_near_terms(const rtp_task *tasks, size_t n, mpq_srcptr alpha, rtp_ns per_job_ns,
                        mpq_t k0, mpq_t eps, double *cd);

/* Preconditions: every D* >= 1 and U' <= 1 exactly (at U' = 1 only t <
 * t_cap is searched). RTP_ELIMIT (diag says what was searched) when the
 * budget runs out; RTP_OK with decided = 0 when the search cannot cover
 * every t (La past t_cap, or a lattice the floating-point reduction cannot
 * handle): the caller decides otherwise. */
rtp_status rtp_edf_near(const rtp_edf_near_in *in, rtp_edf_near_result *out, rtp_diag *diag);

#endif
