/* deploy/recheck.h — what Linux accepts, and the re-check every emitter
 * runs before it writes anything (its options: deploy/options.h) (docs/spec.md "rtpack emit").
 *
 * A plan is deployable when (1) it says feasible and places every task,
 * (2) every bin passes the exact test of its policy again with the plan's own
 * priorities (a hand-edited plan is re-analysed, not trusted), and (3) Linux
 * would take it: SCHED_DEADLINE wants 1024 ns <= runtime <= deadline <=
 * period (runtime: rtp_deploy_runtime; the EDF re-check of (2) runs with
 * the runtimes as the execution times, so the margin is proved too) and sched_deadline_period_{min,max}_us (defaults 100 us and
 * 4.194304 s) around the period; per root domain the summed bandwidth
 * runtime/period must stay within `budget` x CPUs (sched_rt_runtime_us /
 * sched_rt_period_us = 0.95, minus the fair server's 0.05 per CPU since
 * Linux 6.12: 0.90 by default); SCHED_FIFO loads above the same budget are
 * throttled, so they are refused too; plan priorities must fit the FIFO
 * range, and tasks sharing one may not have a deadline past the period
 * (Linux breaks the first-in first-out order the analysis assumes when such
 * a thread is late; see recheck.c). Bandwidth sums are exact rationals (models/ratio.h).
 * Thread-safety: pure, no globals. */
#ifndef RTP_DEPLOY_RECHECK_H
#define RTP_DEPLOY_RECHECK_H

#include "deploy/options.h"
#include "models/plan.h"
#include "models/api.h"

RTP_API_BEGIN

#define RTP_LINUX_DL_RUNTIME_MIN_NS ((rtp_ns)1024)          /* 1 << DL_SCALE */
#define RTP_LINUX_DL_PERIOD_MIN_NS ((rtp_ns)100 * 1000)     /* default sysctl */
#define RTP_LINUX_DL_PERIOD_MAX_NS ((rtp_ns)4194304 * 1000) /* default sysctl */
#define RTP_LINUX_BW_SHIFT 20                               /* kernel BW_SHIFT */

/* The SCHED_DEADLINE runtime of a task of `plan`: its effective C' (wcet +
 * its noise + 2 x context_switch + the SCHED_DEADLINE charge,
 * models/effective.h; under an FP plan, whose rt-app run time this also is,
 * without the charge) times 1 + runtime_margin, rounded
 * up to a whole ns, and never above the task's deadline (Linux's rule): the
 * margin is cut to D - C' when it would pass it, C' itself never (C' > D is
 * left for the re-check to refuse). Why a margin: the kernel charges a job for more than the
 * job's own work (wake-up and switch paths, interrupts, a virtual CPU's
 * steal), and with HZ=250 and HRTICK_DL off it only notices an exhausted
 * budget at the next tick; a job whose runtime is its bare C' is throttled
 * until its next period whenever that extra time pushes it past C' (the
 * default and the measurements behind it: docs/deploy.md). RTP_ELIMIT past
 * 2^62 ns. */
rtp_status rtp_deploy_runtime(const rtp_plan *plan, const rtp_task *task,
                              const rtp_deploy_opts *opts, rtp_ns *runtime, rtp_diag *diag);

/* The overheads `plan` was analysed with: opts->analysed, else the plan's
 * own. The re-check holds critical sections and charges SCHED_RR turns
 * with them. */
const rtp_overheads *rtp_deploy_analysed(const rtp_plan *plan, const rtp_deploy_opts *opts);

/* The kernel's fixed-point bandwidth to_ratio(period, runtime) =
 * (runtime << 20) / period, rounded down (as the kernel) or up. */
int64_t rtp_linux_bw(rtp_ns runtime, rtp_ns period, int round_up);

/* The tasks of bin j as Linux will run them, in a malloc'd array (shallow
 * copies, the caller frees the array): J' as the jitter; as the execution
 * time the SCHED_DEADLINE runtime under EDF, C' under FP; the plan's
 * priorities. NULL with *st and diag set. */
rtp_task *rtp_deploy_bin_tasks(const rtp_plan *plan, size_t j, const rtp_deploy_opts *opts,
                               rtp_status *st, rtp_diag *diag);

/* The response times the re-check proves for bin j (into rt, n_tasks of
 * it) when the bin is one CPU of a fixed-priority plan without shared
 * resources and opts->analysed is NULL: the exact test on the deployed
 * tasks (rtp_deploy_bin_tasks) with the plan's priorities; *have = 1 then
 * and the bin passes. *have = 0 (rt unspecified) for any other bin or when
 * it fails. What emit --format json writes and rehearse holds each job to,
 * in place of the plan's own response_time members: a hand-edited plan is
 * re-analysed, not trusted, and the re-analysis's bounds are the proved
 * ones (review rev13c: a plan edited to claim 5 ns went out as such). */
rtp_status rtp_deploy_bin_responses(const rtp_plan *plan, size_t j, const rtp_deploy_opts *opts,
                                    rtp_ns *rt, int *have, rtp_diag *diag);

/* Records a refusal of the re-check in diag (status RTP_OK, `path`): the
 * reason (printf-style), then "; fix: " and opts->fix when set, else `fix`
 * when not NULL. Every refusal goes through here, so a caller chooses the
 * fix without parsing the message. */
void rtp_deploy_refuse(rtp_diag *diag, const rtp_deploy_opts *opts, const char *path,
                       const char *fix, const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* The re-check described above. RTP_OK with *deployable = 1, or
 * *deployable = 0 and diag holding the reason and the fix (path = the
 * offending member). RTP_EINPUT for bad options or task names that are
 * not safe text (quote.h); RTP_ELIMIT from the exact tests. */
rtp_status rtp_deploy_check(const rtp_plan *plan, const rtp_deploy_opts *opts,
                            int *deployable, rtp_diag *diag);

/* rtp_deploy_check's verdict written into the plan (deploy_judged,
 * deployable, deployable_reason "PATH: reason; fix: ..."), so the plan
 * document says whether emit would take it. A check that cannot finish
 * (resource limit, bad text) is "not deployable" with its message; out of
 * memory (or an internal error) is no verdict: returned, with diag, and the
 * plan is left unjudged. */
rtp_status rtp_deploy_judge(rtp_plan *plan, const rtp_deploy_opts *opts, rtp_diag *diag);

RTP_API_END
#endif
