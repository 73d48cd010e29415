/* solver/global.h — sufficient schedulability tests for global scheduling of
 * one cluster of m identical CPUs: global EDF (GFB [GFB], BAK [BAK], BCL
 * [BCL], the response-time bound of [BC07]) and global FP (RTA [BC07],
 * DA/DA-LC for OPA). Each test states its preconditions; outside them it is
 * "not applicable", never a verdict. m == 1 uses the exact uniprocessor tests.
 * Times are rtp_ns. Pure: no globals, safe from many threads.
 *
 * All tests work in discrete time on whole ns (every release and execution
 * time is a whole ns, so every scheduling event is too). Rational conditions
 * are compared exactly (GMP or cross-multiplied 128-bit integers); iterative
 * bounds use 128-bit sums and count their steps against
 * rtp_limits.max_iterations (RTP_ELIMIT when passed, never a guess).
 * Tasks are effective tasks (models/effective.h: wcet_ns is C' = wcet + 2 x
 * context switch, which these tests analyse). Common preconditions of every
 * m >= 2 test: constrained deadlines (D <= T for every task) and no release
 * jitter or blocking (J' = 0 and B = 0 for every task: the tests do not
 * model them), else RTP_GLOBAL_NA, never a verdict. A task with C > D, or a
 * total utilization above m, makes an applicable test reject. m == 1 is the
 * exact uniprocessor analysis, which models jitter and blocking. */
#ifndef RTP_GLOBAL_H
#define RTP_GLOBAL_H

#include "solver/schedtest.h"
#include "models/api.h"

RTP_API_BEGIN

/* Global EDF on test->cpus CPUs: accepted when any enabled test accepts;
 * result->accepted_by names it ("gfb", "bak", "bcl", "rta"), else NULL.
 * Tests run in that order (cheapest first); the first acceptance wins. With
 * cpus == 1: the exact uniprocessor test (rtp_edf_qpa; accepted_by "edf",
 * first_miss as rtp_edf_qpa gives it when test->want_first_miss). */
rtp_status rtp_global_edf(const rtp_test *test, const rtp_task *tasks, size_t n,
                          rtp_test_result *result, rtp_diag *diag);

/* Global FP on test->cpus CPUs with priorities by test->priority (DM, RM or
 * OPA with an OPA-compatible test); result->priority/response_time filled
 * when given.
 *
 * Priorities: DM / RM ties to the earlier task in input; OPA is Audsley's
 * algorithm with "DA or DA-LC" (both OPA-compatible [DB09])
 * trying candidates in reverse DM order; when it finds no order the DM order
 * is used and analysed. GIVEN needs distinct given priorities (the global
 * tests assume a strict order): with ties the set is not applicable
 * (schedulable 0, accepted_by NULL, response times -1). The final order is
 * always re-checked with response-time analysis: first [BC07] alone
 * (accepted_by "rta"), then the per-task minimum of it and the limited
 * carry-in bound of Guan et al. [GSYY09] (accepted_by "rta-lc").
 * response_time[i] = the bound, -1 when none is shown (the bound passes the
 * deadline, or a more urgent task has none). assignment_found = an order
 * passing the analysis was found (always 1 for DM/RM/GIVEN). With
 * cpus == 1: rtp_fp_assign + rtp_fp_rta (exact; accepted_by "rta", as
 * rtp_test_exact names it). */
rtp_status rtp_global_fp(const rtp_test *test, const rtp_task *tasks, size_t n,
                         rtp_test_result *result, rtp_diag *diag);

/* ---- the individual tests (m >= 2), for reports and unit tests ---- */

typedef enum rtp_global_verdict {
    RTP_GLOBAL_NA = 0,  /* preconditions not met: no verdict */
    RTP_GLOBAL_REJECT,  /* applicable; schedulability not shown */
    RTP_GLOBAL_ACCEPT   /* applicable; schedulable */
} rtp_global_verdict;

const char *rtp_global_verdict_name(rtp_global_verdict v); /* "n/a", ... */

/* GFB [GFB] (its density form for constrained deadlines as surveyed in
 * [BB11]):
 * sum C/D <= m - (m - 1) max C/D. Implicit deadlines: the utilization form. */
rtp_status rtp_global_gfb(const rtp_task *tasks, size_t n, int m,
                          rtp_global_verdict *verdict);

/* BAK [BAK] (in the form restated by [BCL]): for every k, with
 * lambda_k = C_k/D_k,
 * sum_i min(1, beta_k(i)) <= m (1 - lambda_k) + lambda_k, where
 * beta_k(i) = U_i (1 + (T_i - D_i)/D_k), plus (C_i - lambda_k T_i)/D_k when
 * lambda_k < U_i. Exact: a 128-bit integer enclosure decides, GMP rationals
 * only when it cannot. */
rtp_status rtp_global_bak(const rtp_task *tasks, size_t n, int m,
                          rtp_global_verdict *verdict);

/* BCL [BCL] [BCL09]: for every k,
 * with W_i = N_i C_i + min(C_i, [D_k - N_i T_i]_0), N_i = floor((D_k - D_i)
 * / T_i) + 1 (0 when D_i > D_k): sum_{i != k} min(W_i, D_k - C_k)
 * < m (D_k - C_k), or == with some i != k having 0 < W_i <= D_k - C_k.
 * (Both sides multiplied by D_k: integers only.) */
rtp_status rtp_global_bcl(const rtp_task *tasks, size_t n, int m,
                          rtp_global_verdict *verdict);

/* [BC07], Sect. 5: response-time bounds under global
 * EDF, R_k = C_k + floor(1/m sum_{i != k} min(W_i(R_k), J_i^k, R_k - C_k + 1))
 * with W_i the workload bound using R_i = D_i - S_i and J_i^k the EDF
 * interference bound, iterated over slacks S_i (all 0 at first) until every
 * task fits or no slack improves. response_time (n entries or NULL): the last
 * bound of each task, -1 where none <= D was found. */
rtp_status rtp_global_edf_rta(const rtp_task *tasks, size_t n, int m,
                              const rtp_limits *limits, rtp_ns *response_time,
                              rtp_global_verdict *verdict, rtp_diag *diag);

/* Response-time analysis for global FP under priority[] (1..n, n = most
 * urgent, all distinct, else RTP_EINPUT): [BC07]
 * (R_k = C_k + floor(1/m sum_{hp} min(W_i(R_k), R_k - C_k + 1))); with
 * limited_carry_in, each task's bound is the smaller of that and [GSYY09]
 * (at most m - 1 carry-in tasks). response_time as above. */
rtp_status rtp_global_fp_rta(const rtp_task *tasks, size_t n, int m,
                             const int *priority, int limited_carry_in,
                             const rtp_limits *limits, rtp_ns *response_time,
                             rtp_global_verdict *verdict, rtp_diag *diag);

/* The deadline-based tests for one task k against the tasks with
 * higher[i] != 0 (their order does not matter: OPA-compatible,
 * [DB09]): DA ([BCL09]: the FP workload bound with
 * R_i = D_i at L = D_k, sum of min(W_i, D_k - C_k + 1) < m (D_k - C_k + 1))
 * and, with limited_carry_in, DA-LC (the same with the limited carry-in of
 * [GSYY09]). *passes = 0 outside constrained deadlines. */
rtp_status rtp_global_fp_da(const rtp_task *tasks, size_t n, int m, size_t k,
                            const unsigned char *higher, int limited_carry_in,
                            int *passes, rtp_diag *diag);

/* Audsley's OPA [Aud01] with "DA or DA-LC" on m CPUs: at each level from the lowest
 * up, candidates in reverse deadline-monotonic order, the first that passes
 * is taken. *found = 0 when no order exists; priority[] then holds DM. */
rtp_status rtp_global_fp_opa(const rtp_task *tasks, size_t n, int m,
                             int *priority, int *found, rtp_diag *diag);

/* Deadline- or rate-monotonic priorities 1..n (n = most urgent), ties to the
 * earlier task in input. rule is RTP_PRIO_DM or RTP_PRIO_RM. */
void rtp_global_monotonic(const rtp_task *tasks, size_t n, rtp_prio_rule rule,
                          int *priority);

/* Every global EDF test's verdict, in order gfb, bak, bcl, rta (m >= 2). */
#define RTP_GLOBAL_EDF_TESTS 4
typedef struct rtp_global_report {
    const char *test[RTP_GLOBAL_EDF_TESTS];
    rtp_global_verdict verdict[RTP_GLOBAL_EDF_TESTS];
} rtp_global_report;

rtp_status rtp_global_edf_report(const rtp_task *tasks, size_t n, int m,
                                 const rtp_limits *limits,
                                 rtp_global_report *report, rtp_diag *diag);

RTP_API_END
#endif
