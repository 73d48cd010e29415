/* solver/sensitivity_locks.h — wcet_max of tasks that share resources
 * (docs/spec.md "Sensitivity", "Shared resources"): per task the largest
 * integer wcet (ns) with every other task unchanged, every task on its bin,
 * the task's critical sections as declared (the wcet only grows, so it never
 * falls below their sum), and the whole placement still accepted by the
 * lock-aware exact test rtp_locks_partitioned (solver/locks.h: PCP/SRP,
 * MSRP's spins and non-preemptive sections, FMLP+ under FP; OPA re-run per
 * CPU when the test's rule is OPA). One CPU (`analyze`) is one bin.
 *
 * Exact by bisection on integers, because the accepted wcets of a task form
 * a downward-closed set (monotonicity; tests/test_sensitivity_locks.c scans
 * every wcet from the declared one up to the cap on thousands of sets):
 *  - the spins rtp_locks_place charges, and every blocking term of a fixed
 *    priority order (PCP_i, NP_i: longest sections and spins of the tasks
 *    below) depend on section lengths and the order only, not on any wcet;
 *    C'' = C' + spin grows with the wcet;
 *  - FP with a fixed order: the response-time analysis is sustainable in
 *    the execution times [BB06]; OPA: each order's accepted wcets are
 *    downward closed and OPA (its per-level blocking from the tasks below,
 *    an OPA-compatible test [Aud01]) finds an order whenever one exists, so
 *    the union is downward closed;
 *  - EDF+SRP: dbf(t) and U' grow with C', and so does b(t), whose jitter
 *    term E_k(t) is a sum of C' (solver/locks.h);
 *  - FMLP+ with a fixed order (DM, RM, given): every response is the least
 *    fixed point of an operator that is non-decreasing in every C and every
 *    response (remote and local blocking count requests in windows of a
 *    response's length, the suspension jitter R_h - C_h grows with the
 *    interference), so it is non-decreasing in every C, and so is each
 *    deadline check. FMLP+ with OPA is refused (RTP_EINPUT): its OPA takes
 *    every R_j as D_j (solver/fmlp.h), a sufficient test whose choice of
 *    order can fail at a wcet and succeed at a larger one (one CPU, R1
 *    fmlp+: (C, D, T) = (x, 9, 10) with 2 sections of 1 and (3, 10, 12),
 *    J = 2, one section of 3: accepted at x = 3 and 6, rejected at 4 and 5).
 * Bracket: the declared wcet passes; min(D - J, T) + 1 fails under every
 * policy (C' >= wcet: a job needs C' after its release, and C'/T > 1
 * overloads its CPU), so at most ~62 tests per task.
 *
 * The critical scaling factor is not computed with resources (see
 * rtp_sensitivity_locks_no_factor). Times are rtp_ns, tasks DECLARED
 * (wcet, jitter as in the input) plus the overheads ov. Pure, no globals,
 * thread-safe. */
#ifndef RTP_SENSITIVITY_LOCKS_H
#define RTP_SENSITIVITY_LOCKS_H

#include "models/taskset.h"
#include "solver/schedtest.h"
#include "models/api.h"

RTP_API_BEGIN

/* wcet_max[i] (caller array of n) for tasks on bins cpu_of[i]
 * (0..n_bins-1) under `test` (exact EDF or FP, cpus == 1); every entry -1
 * when the placement does not pass as given. RTP_EINPUT (path
 * "resources") for fmlp+ resources under FP with OPA; other errors as
 * rtp_locks_partitioned (RTP_ELIMIT: a resource limit in the test). */
rtp_status rtp_sensitivity_locks_wcet_max(const rtp_test *test,
                                          const rtp_resource *resources, size_t n_resources,
                                          const rtp_task *tasks, size_t n, const size_t *cpu_of,
                                          size_t n_bins, const rtp_overheads *ov,
                                          rtp_ns *wcet_max, rtp_diag *diag);

/* Why a set with requests has no critical scaling factor (static text,
 * for rtp_scaling.not_defined). */
const char *rtp_sensitivity_locks_no_factor(void);

RTP_API_END
#endif
