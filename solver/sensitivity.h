/* solver/sensitivity.h — how much a schedulable set can grow (docs/spec.md
 * "Sensitivity"): per task the largest integer wcet keeping the set
 * schedulable (others unchanged), and the critical scaling factor alpha*,
 * the largest real alpha such that every wcet multiplied by alpha keeps it
 * schedulable [LSD89] (blocking, jitter and the platform's overheads
 * unchanged: C' = alpha x wcet + 2 x context_switch, J' = jitter +
 * release_latency; models/effective.h).
 *
 * Both are defined over an rtp_test (solver/schedtest.h): the same policy and
 * priority rule (OPA re-run at every size tried). Both rest on monotonicity:
 * a set schedulable at some wcet (or alpha) stays schedulable below it.
 *  - EDF: dbf(t) is non-decreasing in every C, U' too, and b(t) does not
 *    depend on C, so every condition of solver/edf.h only gets easier.
 *  - FP with a fixed order (RM/DM by period/deadline, given: none depends on
 *    a wcet): every response-time equation of solver/fp.h has its right-hand
 *    side non-decreasing in every C and the level busy period only shrinks,
 *    so every response is non-increasing as a C decreases ([LSD89]; the
 *    response-time analysis is sustainable in execution times [BB06]).
 *  - FP-OPA: the test says "some priority order passes"; each order's set of
 *    passing wcets is downward closed (previous point) and a union of
 *    downward-closed sets is downward closed; OPA finds an order whenever one
 *    exists [Aud01] (its per-level test is the exact RTA with blocking taken
 *    as given, which is OPA-compatible).
 *  - Global tests on m >= 2 CPUs (solver/global.h; effective tasks, every
 *    C >= 1; a set outside their preconditions is never accepted, whatever
 *    C). Let x = C_j grow, all else fixed.
 *    GFB: sum C/D grows, m - (m - 1) max C/D falls: downward closed.
 *    BCL, k != j: only W_j = N_j x + min(x, [D_k - N_j T_j]_0) moves (N_j
 *    does not depend on x), non-decreasing; lowering x lowers the sum or
 *    leaves it and every witness (0 < W_i <= D_k - C_k) as it was. k = j:
 *    with y = D_j - x, f(y) = sum_{i != j} min(W_i, y) is concave, f(0) =
 *    0, so f(y)/y is non-increasing: f(y) < m y stays true as y grows, and
 *    f(y) = m y with a witness means fewer than m terms sit at y, so f < m y
 *    just above. Downward closed.
 *    BAK is NOT: for k = j, beta_j(i) of a task with U_i > lambda_j falls
 *    by T_i / D_j^2 per ns of x, which can outrun the right-hand side.
 *    Counterexample (m = 2, tasks (C, D, T)): (7, 26, 32), (1, 24, 24),
 *    (x, 9, 17), (8, 12, 37) is rejected at x = 1 and accepted at x = 2.
 *    Its largest accepting x is computed exactly instead: its conditions
 *    are piecewise linear in x with rational breakpoints
 *    (sensitivity_global.c).
 *    Response-time bounds (global_work.h), for the analysed task k and an
 *    interferer i with bound R_i >= C_i: the clamped terms
 *    min(W_i(L), L - C_k + 1) with W_i(L) = staircase(L + R_i - C_i) are
 *    non-decreasing in C_i although W_i alone is not (it falls by one when
 *    L + R_i - C_i < T_i and <= C_i, but there it is at or above the clamp
 *    since C_k >= 1 and R_i >= C_i + 1); the EDF bound J_i^k and [GSYY09]'s
 *    W^NC and W^CI (one ns less of [L - C_i]_0 is made up by one ns more of
 *    C_i) are non-decreasing in C_i; all are non-decreasing in L and R_i;
 *    the limited carry-in sum is a maximum over sets of at most m - 1
 *    tasks of sums of such terms. In C_k itself: every condition reads
 *    I(y) < m y with y = L - C_k + 1 and I a sum (or a maximum of sums) of
 *    min(a_i, y), a_i free of C_k, so I(y)/y is non-increasing and a
 *    fixed point at C_k stays one below it. So each least fixed point R_k
 *    is non-decreasing in every C and every R_i it uses: FP's bounds by
 *    induction over priorities (RTA, RTA-LC; DM, RM, given orders do not
 *    depend on the wcets); EDF's slack iteration by running it side by side
 *    at the two wcets (every bound at the smaller is at most the one at the
 *    larger; a round without improvement repeats itself, so the smaller
 *    cannot stop before the round in which the larger accepts). DA and
 *    DA-LC per priority order likewise; gfp with OPA accepts exactly when
 *    some order passes DA or DA-LC (then the RTA on it passes: DA bounds its
 *    fixed point by D_k) or the RTA passes the DM order: a union of
 *    downward-closed sets.
 *    Every wcet up to wcet_max is then schedulable even where a test's
 *    accepting set has a gap: each test's proof holds for jobs that run
 *    less than the wcet it was given.
 *    So gfp bisects (with DM, RM or given priorities, whose order does
 *    not depend on the wcets, over the RTA-LC alone, which accepts whatever
 *    the RTA does, re-bounding only the tasks from the raised one's
 *    priority on, each search from its bound at the last accepted wcet;
 *    with OPA the maximum of the union's two parts, the DA orders by
 *    rounds of OPA and the RTA-LC under DM: sensitivity_global.c), and gedf takes the largest of
 *    GFB's, BCL's and the RTA's maxima (each bisected; the RTA's runs
 *    start from the lower bounds of r* the last accepted wcet left, and
 *    each accepted wcet caps the answer, sensitivity.c) and BAK's exact
 *    one (the maximum of a union is the maximum of the maxima).
 *    tests/test_sensitivity_global.c scans every wcet on thousands of small
 *    sets against these claims.
 * Hence wcet_max is the largest integer every condition allows. EDF: from
 * the demand points, x_k <= (t - h(t)) / n_k(t) at every step point t and
 * x_k <= (1 - U') T_k, for every task at once by QPA walks of h(t) +
 * max_k x_k n_k(t) lowering each x_k where it fails (over doubling ranges,
 * each task only up to where its raised demand's linear envelope can
 * exceed t), then the lattice search of solver/edf_near.c
 * (sensitivity_edf_wcet.c). FP with a fixed order,
 * every D <= T and no equal priorities: from Lehoczky's scheduling points
 * between each task's completion and deadline (sensitivity_fp.c); OPA where
 * DM is optimal the same with DM. Otherwise binary search on integers
 * between the declared wcet (passes) and min(D - J', T) - 2 x
 * context_switch (a larger C' misses under every policy: a job needs C'
 * after its release, and C'/T > 1 overloads the CPU); under FP on the
 * verdict alone (rtp_fp_verdict). alpha* is a maximum, not only a supremum
 * (every condition is a closed inequality in alpha), and is computed in
 * closed form as an exact rational (GMP), see sensitivity.c:
 *  - EDF: min(alpha_U, min over the demand step points t of
 *    (t - b(t) - 2 cs N(t)) / A(t)), A(t) = sum of the wcets of the jobs due
 *    by t and N(t) their count, with alpha_U the factor giving U' = 1; the
 *    step points that matter are found by QPA at the current candidate
 *    (Dinkelbach-style descent: each failure found lowers the candidate to
 *    that point's own factor). At alpha_U (U' = 1) every t >= max D* is
 *    decided at once from the tasks' residues (solver/edf_tail.c), so
 *    alpha* = alpha_U needs no busy period.
 *  - FP, fixed order: per task, Lehoczky's scheduling points [LSD89]
 *    [BB04] for each job of the level-i busy period, with jitter and
 *    blocking (past 64 jobs the candidate is taken once the linear bound
 *    of solver/fp_bound.h proves every later job in time); minimum over
 *    tasks. A task with equal given priorities
 *    (first-in first-out ties, solver/fp.c): per candidate release r of
 *    its job, the scheduling points of three conditions (the busy period
 *    has ended by r, the phased pattern idles before r, the job meets its
 *    deadline), each a closed condition alpha <= value; alpha_i = min over
 *    r of their maximum, a minimum over finitely many r (sensitivity_fifo.c).
 *  - FP-OPA: greedy per level (the task with the largest factor at the
 *    lowest level), exact by the OPA argument above.
 * alpha* is not defined under the global tests on 2 or more CPUs
 * (rtp_scaling.not_defined): their bounds count whole ns (the "+ 1" and
 * floor terms), so the verdict on a set scaled by p/q, checked with every
 * time multiplied by q, depends on q: e.g. gedf on 3 CPUs accepts (1, 4, 5),
 * (4, 5, 16), (11, 15, 16), (2, 14, 16), (3, 4, 8) and rejects it with every
 * time multiplied by 10. wcet_max, in the ns the tests count, is given.
 * Not computed (RTP_ELIMIT, never an approximation): an arithmetic overflow
 * or more than limits->max_iterations steps is RTP_ELIMIT too (e.g. EDF
 * below alpha_U when the failing deadlines that set alpha* lie deep in the
 * hyperperiod and the descent meets them one by one).
 *
 * Times are rtp_ns; tasks are the DECLARED tasks (wcet, jitter as in the
 * input) plus the platform's overheads. Ownership: rtp_scaling.exact is
 * malloc'd (rtp_scaling_free). Pure: no globals, thread-safe. */
#ifndef RTP_SENSITIVITY_H
#define RTP_SENSITIVITY_H

#include "solver/schedtest.h"
#include "models/api.h"

RTP_API_BEGIN

/* The critical scaling factor of one set. */
typedef struct rtp_scaling {
    int unbounded;    /* no task: every factor keeps the set schedulable */
    int exists;       /* some alpha > 0 keeps it schedulable: exact, decimal set */
    char *exact;      /* "p/q" in lowest terms (q may be 1: "p/1"), malloc'd */
    char decimal[64]; /* alpha* rounded down to 9 significant digits, "1.08" */
    const char *not_defined; /* static text: why alpha* has no value for this
                              * test (global tests on 2+ CPUs); exists = 0 */
} rtp_scaling;

/* wcet_max[i] (caller array of n) = the largest integer wcet (ns) of task i
 * with the others unchanged and `test` still accepting; every entry -1 when
 * the set is not schedulable as given. */
rtp_status rtp_sensitivity_wcet_max(const rtp_test *test, const rtp_task *tasks, size_t n,
                                    const rtp_overheads *ov, rtp_ns *wcet_max,
                                    rtp_diag *diag);

/* alpha* of the set under `test` into *out (zeroed first; free it with
 * rtp_scaling_free). exists = 0 when no alpha > 0 makes the set
 * schedulable (e.g. some J' >= D, or the overheads alone fill the CPU), or
 * when not_defined is set (RTP_OK then). */
rtp_status rtp_sensitivity_scaling(const rtp_test *test, const rtp_task *tasks, size_t n,
                                   const rtp_overheads *ov, rtp_scaling *out,
                                   rtp_diag *diag);

/* Why neither wcet_max nor alpha* is computed for these tasks, or NULL:
 * under FP, tasks tied under SCHED_RR (rtp_rr_present), since this module
 * scales under the SCHED_FIFO analysis of ties, whose numbers are not the
 * deployed policy's (docs/spec.md "Choosing SCHED_RR"). analyze and
 * partition both ask it before scaling. */
const char *rtp_sensitivity_rr_refusal(rtp_policy policy, const rtp_task *tasks, size_t n,
                                       const int *priority);

/* sign(a - b) with "no alpha" lowest and "unbounded" highest (not_defined
 * counts as "no alpha": callers check it first). */
int rtp_scaling_cmp(const rtp_scaling *a, const rtp_scaling *b);

/* Deep copy (dst must not own anything). RTP_ENOMEM on failure. */
rtp_status rtp_scaling_copy(rtp_scaling *dst, const rtp_scaling *src);

void rtp_scaling_free(rtp_scaling *s);

RTP_API_END
#endif
