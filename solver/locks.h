/* solver/locks.h — blocking computed from declared critical sections
 * (docs/spec.md "Shared resources"): the immediate priority ceiling
 * protocol under FP [SRL90], the stack resource policy under EDF [Bak91]
 * with Baruah's b(t) [Bar06], and the classic MSRP for resources whose users
 * sit on several CPUs [GLD01].
 *
 * How it fits the exact tests: a task's requests travel with the task
 * (rtp_task.requests), so a test stays a value. A placement of tasks onto
 * CPUs (rtp_locks_place) marks each request non-preemptive when MSRP runs
 * it and charges its spin: C'' = C' + sum count x spin. Then, per CPU,
 *   FP:  B_i = given_i + max(PCP_i, NP_i)        (rtp_locks_fp_blocking)
 *        PCP_i = the longest ceiling-protocol section of a lower-priority
 *        task on a resource some task at or above i's priority uses;
 *        NP_i  = the longest spin + section of a lower-priority task's
 *        non-preemptive request;
 *   EDF: dbf(t) + b(t) <= t for every t > 0      (rtp_locks_edf_qpa)
 *        b(t) = max over k with D_k - J'_k <= t of
 *               given_k + max(SRP_k(t), NP_k(t)),
 *        SRP_k(t) = the longest ceiling-protocol section of a task j != k
 *        with D_j > t on a resource used by some task of deadline <= D_k,
 *        NP_k(t) = the longest spin + section of a task j != k, D_j > t.
 * B_i depends on the set of lower-priority tasks only, so OPA [Aud01] may
 * compute each level's blocking from the tasks already below it.
 * Release jitter and SRP: Baker's one-blocking bound assumes releases at
 * arrival (docs/spec.md "Shared resources" has a witness); with J' > 0 the
 * jobs that started while k was not yet released are charged too: k's term
 * is given_k + max(SRP_k(t) + E_k(t), NP_k(t)), E_k(t) = the sum of C' over
 * s != k with t < D_s < D_k (charged when SRP_k(t) > 0; 0 without jitter).
 * Non-preemptive (MSRP) sections keep their bound with jitter: nothing
 * preempts them.
 * Tasks are effective tasks (models/effective.h). Times are rtp_ns, all
 * sums checked (RTP_ELIMIT past 2^62 ns). Pure, no globals, thread-safe;
 * allocations are the caller's where named. */
#ifndef RTP_LOCKS_H
#define RTP_LOCKS_H

#include "models/taskset.h"
#include "solver/edf.h"
#include "solver/schedtest.h"
#include "models/api.h"

RTP_API_BEGIN

/* No resource binds: the blocking is the given one. */
#define RTP_LOCKS_NONE ((size_t)-1)

/* Places tasks[i] on bin cpu_of[i] (0..n_bins-1): out[i] = tasks[i] with
 * wcet_ns = C' + spin_i, its requests copied into *store (malloc'd, the
 * caller frees it after out) with np and spin_ns set: a resource whose
 * users sit on two or more bins (or whose protocol is MSRP) is run by MSRP;
 * the spin of one request is the sum over the other bins of the longest
 * section any task there holds on it [GLD01]. RTP_EINPUT (path
 * "resources[r].protocol") when a resource declared "pcp"/"srp" has users
 * on several bins; RTP_ELIMIT past 2^62 ns. out may not alias tasks. */
rtp_status rtp_locks_place(const rtp_resource *resources, size_t n_resources,
                           const rtp_task *tasks, size_t n, const size_t *cpu_of,
                           size_t n_bins, rtp_task *out, rtp_request **store,
                           rtp_diag *diag);

/* spin_i of a placed task: sum over its requests of count x spin_ns
 * (<= its C'' - C', so it fits). */
rtp_ns rtp_locks_spin(const rtp_task *task);

/* max(PCP_i, NP_i) of task i among the tasks of one CPU under `priority`
 * (tasks with priority < priority[i] are below it; any value above every
 * level, e.g. n + 1, marks a task not yet below anything). *binding = the
 * resource of the longest section, RTP_LOCKS_NONE when 0; may be NULL. */
rtp_ns rtp_locks_fp_term(const rtp_task *tasks, size_t n, const int *priority, size_t i,
                         size_t *binding);

/* out[i] = tasks[i] with blocking_ns = given + rtp_locks_fp_term (out may
 * alias tasks). RTP_ELIMIT past 2^62 ns. */
rtp_status rtp_locks_fp_blocking(const rtp_task *tasks, size_t n, const int *priority,
                                 rtp_task *out, rtp_diag *diag);

/* b(t) (above) of one CPU's tasks, for t >= 1; *binding as for the FP term
 * (RTP_LOCKS_NONE when the given blocking or nothing binds). */
rtp_ns rtp_locks_edf_b(const rtp_task *tasks, size_t n, rtp_ns t, size_t *binding);

/* rtp_edf_qpa with b(t) above: exact, since b(t) is the given-blocking term
 * from the largest deadline of a task with requests on, where rtp_edf_qpa
 * decides, and below it every interval where b is constant is searched
 * with QPA's backward walk [ZB09] (first_miss by a forward scan of the
 * failing interval). RTP_ELIMIT when a walk passes limits->max_iterations. */
rtp_status rtp_locks_edf_qpa(const rtp_task *tasks, size_t n, int want_first_miss,
                             const rtp_limits *limits, rtp_edf_result *result,
                             rtp_diag *diag);

/* What the analysis says of one task of a partitioned set. */
typedef struct rtp_locks_task {
    rtp_ns spin_ns;      /* MSRP spin charged to its C' */
    rtp_ns suspension_ns;/* FMLP+: the remote blocking B^r, spent suspended
                          * (part of blocking_ns; solver/fmlp.h); else 0 */
    rtp_ns blocking_ns;  /* computed blocking, the given one not included:
                          * FP B_i - given_i; EDF the largest term of the task
                          * in b(t) (at t = D - J') - given */
    size_t binding;      /* the resource of blocking_ns, or RTP_LOCKS_NONE */
    int priority;        /* FP: 1..n on its CPU */
    rtp_ns response_ns;  /* FP: the WCRT, -1 = misses its deadline */
} rtp_locks_task;

/* Analyses tasks (effective, declared requests) placed on bins cpu_of[i]
 * with `test` (exact EDF or FP, cpus == 1) per bin, after
 * rtp_locks_place: *schedulable = every bin passes; out[i] (n entries) the
 * terms above. With FMLP+ resources the whole placement is analysed at once
 * by rtp_fmlp_partitioned (FP only: RTP_EINPUT under EDF). Errors as
 * rtp_locks_place and the test. */
rtp_status rtp_locks_partitioned(const rtp_resource *resources, size_t n_resources,
                                 const rtp_task *tasks, size_t n, const size_t *cpu_of,
                                 size_t n_bins, const rtp_test *test, int *schedulable,
                                 rtp_locks_task *out, rtp_diag *diag);

RTP_API_END
#endif
