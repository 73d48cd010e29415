/* solver/fmlp.h — the partitioned, preemptive FMLP+ [Bra11] under FP: a
 * job that requests a held resource suspends in the resource's FIFO queue;
 * the holder is priority-boosted above every non-boosted job of its CPU,
 * boosted jobs running in the order of their requests.
 *
 * Bounds (docs/spec.md "Shared resources", [Bra11] as SchedCAT computes
 * them, [SchedCAT]) for task i with response bound R_i, where a task j has
 * at most nj_j(D) = ceil((D + R_j) / T_j) jobs pending in a window of
 * length D and M_jq = nj_j(R_i) count_jq requests of q:
 *   X_ic = sum over q used by i, j != i on CPU c using q: min(M_jq, N_iq)
 *   B^r_i = sum over CPUs c != P(i), j on c: the largest min(X_ic, I_ic)
 *           sections of j (any resource: a holder there waits for boosted
 *           holders of other resources), I_ic = sum of N_iq over the q some
 *           task on c uses — the remote blocking, spent suspended;
 *   B^l_i = sum over j != i on P(i) with priority <= i's: the largest
 *           A_i = min(N_i + 1, sum_c X_ic + 1) sections of j (one boosted
 *           section per arrival: the release and each resumption).
 * Response times: the job's own suspension counted as execution, every
 * higher-priority task h that can suspend (B^r_h > 0) given release jitter
 * R_h - C_h [BNWB18] [CNHY19]:
 *   w = C_i + B^r_i + B^l_i + G_i + sum_{h >= i, h != i} ceil((w + J*_h) / T_h) C_h,
 *   R_i = w + J'_i <= D_i,
 * and since R appears in the bounds, all R are iterated from R_i = C_i to
 * the least fixed point (the bounds grow with R: the iteration is monotone).
 * Tasks of equal priority count as higher priority (sound for FIFO ties).
 * Overheads ([Bra11] eq. 7.3, SchedCAT's charge_semaphore_overheads;
 * docs/spec.md "Lock overheads"): each section counts as held for
 * rtp_request_held (length + lock + the holder's wake-up latency + its
 * switch in and the switch after), C' holds count x (lock + 3 switches)
 * per request (models/effective.h), J' the release latency, and B^r_i
 * adds one wake-up latency per possible resumption, min(N_i, sum_c X_ic).
 * Preconditions (else RTP_ELIMIT, "not analysed"): every D <= T; SCHED_RR
 * ties are not analysed here. Times are rtp_ns, sums checked; allocation
 * is internal and freed; pure, thread-safe. */
#ifndef RTP_FMLP_H
#define RTP_FMLP_H

#include "models/taskset.h"
#include "solver/locks.h"
#include "models/api.h"

RTP_API_BEGIN

/* Does some task hold a request with susp set (an FMLP+ resource)? */
int rtp_fmlp_present(const rtp_task *tasks, size_t n);

/* FP analysis of tasks (effective, requests as placed by rtp_locks_place)
 * on bins cpu_of[i] (0..n_bins-1) with priorities per bin by `rule`
 * (RTP_PRIO_OPA: Audsley's algorithm per bin with every R_j taken as D_j in
 * the bounds, valid for an order in which every task meets its deadline;
 * when no order exists, DM and *found = 0). out[i]: priority, response_ns
 * (-1 = no bound within D_i: then every task whose bound depends on it
 * misses too), blocking_ns = B^r + B^l, suspension_ns = B^r, spin 0,
 * binding = the resource with the largest share of the blocking.
 * *schedulable = *found and every response within its deadline.
 * RTP_ELIMIT outside the preconditions or past limits; RTP_EINPUT for
 * RTP_PRIO_GIVEN without priorities. */
rtp_status rtp_fmlp_partitioned(const rtp_task *tasks, size_t n, const size_t *cpu_of,
                                size_t n_bins, rtp_prio_rule rule, const rtp_limits *limits,
                                int *schedulable, int *found, rtp_locks_task *out,
                                rtp_diag *diag);

RTP_API_END
#endif
