/* solver/sensitivity.h — how much a schedulable set can grow (docs/spec.md
 * "Sensitivity"): per task the largest integer wcet keeping the set
 * schedulable (others unchanged), and the critical scaling factor alpha*,
 * the largest real alpha such that every wcet multiplied by alpha keeps it
 * schedulable [LSD89] (blocking, jitter and the platform's overheads
 * unchanged: C' = alpha x wcet + 2 x context_switch, J' = jitter +
 * release_latency; models/effective.h).
 *
 * Both are defined over an rtp_test (solver/test.h): the same policy and
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
 * Hence wcet_max is found exactly by binary search on integers between the
 * declared wcet (passes) and min(D - J', T) - 2 x context_switch (a larger
 * C' misses under every policy: a job needs C' after its release, and
 * C'/T > 1 overloads the CPU). alpha* is a maximum, not only a supremum
 * (every condition is a closed inequality in alpha), and is computed in
 * closed form as an exact rational (GMP), see sensitivity.c:
 *  - EDF: min(alpha_U, min over the demand step points t of
 *    (t - b(t) - 2 cs N(t)) / A(t)), A(t) = sum of the wcets of the jobs due
 *    by t and N(t) their count, with alpha_U the factor giving U' = 1; the
 *    step points that matter are found by QPA at the current candidate
 *    (Dinkelbach-style descent: each failure found lowers the candidate to
 *    that point's own factor). At alpha_U (U' = 1) every t >= max D* is
 *    decided at once from the tasks' residues (sensitivity_tail.c), so
 *    alpha* = alpha_U needs no busy period.
 *  - FP, fixed order: per task, Lehoczky's scheduling points [LSD89]
 *    [BB04] for each job of the level-i busy period, with jitter and
 *    blocking; minimum over tasks. A task with equal given priorities
 *    (first-in first-out ties, solver/fp.c): per candidate release r of
 *    its job, the scheduling points of three conditions (the busy period
 *    has ended by r, the phased pattern idles before r, the job meets its
 *    deadline), each a closed condition alpha <= value; alpha_i = min over
 *    r of their maximum, a minimum over finitely many r (sensitivity_fifo.c).
 *  - FP-OPA: greedy per level (the task with the largest factor at the
 *    lowest level), exact by the OPA argument above.
 * Not computed (RTP_ELIMIT, never an approximation): both outputs under the
 * global tests on 2 or more CPUs (sufficient tests not known to be monotone
 * in the wcets, e.g. BAK's condition for task k has C_k on both sides, and
 * BAK's is quadratic in them, so neither a binary search nor a rational
 * closed form is shown exact there). An arithmetic overflow
 * or more than limits->max_iterations steps is RTP_ELIMIT too (e.g. EDF
 * below alpha_U when the failing deadlines that set alpha* lie deep in the
 * hyperperiod and the descent meets them one by one).
 *
 * Times are rtp_ns; tasks are the DECLARED tasks (wcet, jitter as in the
 * input) plus the platform's overheads. Ownership: rtp_scaling.exact is
 * malloc'd (rtp_scaling_free). Pure: no globals, thread-safe. */
#ifndef RTP_SENSITIVITY_H
#define RTP_SENSITIVITY_H

#include "solver/test.h"

/* The critical scaling factor of one set. */
typedef struct rtp_scaling {
    int unbounded;    /* no task: every factor keeps the set schedulable */
    int exists;       /* some alpha > 0 keeps it schedulable: exact, decimal set */
    char *exact;      /* "p/q" in lowest terms (q may be 1: "p/1"), malloc'd */
    char decimal[64]; /* alpha* rounded down to 9 significant digits, "1.08" */
} rtp_scaling;

/* wcet_max[i] (caller array of n) = the largest integer wcet (ns) of task i
 * with the others unchanged and `test` still accepting; every entry -1 when
 * the set is not schedulable as given. */
rtp_status rtp_sensitivity_wcet_max(const rtp_test *test, const rtp_task *tasks, size_t n,
                                    const rtp_overheads *ov, rtp_ns *wcet_max,
                                    rtp_diag *diag);

/* alpha* of the set under `test` into *out (zeroed first; free it with
 * rtp_scaling_free). exists = 0 when no alpha > 0 makes the set
 * schedulable (e.g. some J' >= D, or the overheads alone fill the CPU). */
rtp_status rtp_sensitivity_scaling(const rtp_test *test, const rtp_task *tasks, size_t n,
                                   const rtp_overheads *ov, rtp_scaling *out,
                                   rtp_diag *diag);

/* sign(a - b) with "no alpha" lowest and "unbounded" highest. */
int rtp_scaling_cmp(const rtp_scaling *a, const rtp_scaling *b);

/* Deep copy (dst must not own anything). RTP_ENOMEM on failure. */
rtp_status rtp_scaling_copy(rtp_scaling *dst, const rtp_scaling *src);

void rtp_scaling_free(rtp_scaling *s);

#endif
