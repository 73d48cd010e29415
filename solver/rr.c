/* solver/rr.c — the SCHED_RR bounds of solver/rr.h.
 *
 * Notation: level p = the tasks of priority p; peers of i = the other tasks
 * of i's level; hp(i) = tasks of higher priority; Q the quantum, P the tick,
 * K = Q / P ticks; cs the context switch. A round-robin level ("rr level")
 * has two or more tasks, all SCHED_RR; a "switching level" has two or more
 * tasks, one SCHED_RR at least (its quantum expiries requeue threads). */
#include "solver/rr.h"

#include "models/arith.h"
#include "models/ratio.h"

#include <stdlib.h>

/* Downward rounds over the peers' bounds: each round only lowers bounds
 * (every input is sound), the references never needed more than a few. */
#define RR_ROUNDS 100
/* The turn arm's steps at a level of utilization exactly 1 (level_cap). */
#define RR_FULL_STEPS 200000

typedef struct ctx {
    const rtp_task *t;
    size_t n;
    const int *prio;
    const rtp_rr_params *rr;
    const rtp_limits *lim;
    uint64_t steps;
    size_t *size;         /* per task: its level's size */
    unsigned char *swl;   /* per task: its level is a switching level */
    unsigned char *rrl;   /* per task: its level is an rr level */
} ctx;

static rtp_i128 ceil_div(rtp_i128 a, rtp_i128 b)
{
    return a <= 0 ? 0 : (a + b - 1) / b;
}

/* Windows stay below 2^90 (the deadline cut, at most max_iterations jobs of
 * at most 2^62 each), but a product of a job count with a time can pass
 * 2^127: every such product saturates at 2^100, far past any deadline, so
 * sums of fewer than 2^26 of them still fit and the recurrence just stops. */
#define SAT ((rtp_i128)1 << 100)
static rtp_i128 sat_mul(rtp_i128 a, rtp_i128 b)
{
    rtp_i128 r;
    return __builtin_mul_overflow(a, b, &r) || r > SAT ? SAT : r;
}

/* Levels above p (strict) or at and above p: 2 cs per turn switch beyond C',
 * per switching level of s tasks at most s + floor((floor(w/P) + 1) / K)
 * expiries in a window w (every expiry after a thread's first needs K
 * charged ticks; a window holds at most floor(w/P) + 1 ticks). */
static rtp_i128 switches(const ctx *c, rtp_i128 w, int p, int strict)
{
    rtp_ns cs = c->rr->context_switch_ns;
    if (cs == 0)
        return 0;
    rtp_i128 k = c->rr->quantum_ns / c->rr->tick_ns, per = (w / c->rr->tick_ns + 1) / k, sum = 0;
    for (size_t j = 0; j < c->n; j++) {
        if (!c->swl[j] || c->prio[j] < p || (strict && c->prio[j] == p))
            continue;
        /* each task of the level adds 1; the level adds `per` once (first task) */
        int first = 1;
        for (size_t x = 0; x < j && first; x++)
            first = c->prio[x] != c->prio[j];
        sum += 1 + (first ? per : 0);
    }
    return sat_mul(2 * (rtp_i128)cs, sum);
}

static int step(ctx *c)
{
    return ++c->steps <= c->lim->max_iterations;
}

/* One step of an arm's recurrence: the next window length from w for jobs
 * 0..q of task i (R: the current bounds, for arm 2). */
typedef rtp_i128 (*step_fn)(ctx *c, size_t i, rtp_i128 q, rtp_i128 w, const rtp_ns *R);

/* The busy-period frame both arms share [Leh90][Tin94]: for q = 0, 1, ...
 * the least fixed point w_q of `next` from B + (q + 1) C, the bound max_q
 * (w_q - q T + J); the next job belongs to the stretch while w_q > (q + 1)
 * T - J (`at_equal`: also when equal, for arm 2, whose thread goes on
 * without blocking when its next job is released at its completion).
 * *out = -1 once a response passes the deadline. cap > 0: jobs 0..cap-1
 * only (level_cap says when they decide). */
static rtp_status busy(ctx *c, size_t i, step_fn next, int at_equal, const rtp_ns *R,
                       rtp_ns cap, rtp_ns *out)
{
    const rtp_task *ti = &c->t[i];
    rtp_i128 best = 0, C = ti->wcet_ns, T = ti->period_ns, J = ti->jitter_ns;
    *out = -1;
    for (rtp_i128 q = 0; cap == 0 || q < cap; q++) { /* cap: level_cap */
        rtp_i128 w = ti->blocking_ns + (q + 1) * C;
        for (;;) {
            if (!step(c))
                return RTP_ELIMIT;
            rtp_i128 nw = next(c, i, q, w, R);
            if (nw - q * T + J > ti->deadline_ns)
                return RTP_OK;
            if (nw == w)
                break;
            w = nw;
        }
        if (w - q * T + J > best)
            best = w - q * T + J;
        if (w < (q + 1) * T - J || (!at_equal && w == (q + 1) * T - J))
            break;
    }
    *out = (rtp_ns)best;
    return RTP_OK;
}

/* Arm 1: the peers counted like higher priorities (sound for any order
 * among equals), plus the turn switches. */
static rtp_i128 agnostic_step(ctx *c, size_t i, rtp_i128 q, rtp_i128 w, const rtp_ns *R)
{
    (void)R;
    int p = c->prio[i];
    rtp_i128 nw = c->t[i].blocking_ns + (q + 1) * c->t[i].wcet_ns + switches(c, w, p, 0);
    for (size_t j = 0; j < c->n; j++)
        if (j != i && c->prio[j] >= p)
            nw += sat_mul(ceil_div(w + c->t[j].jitter_ns, c->t[j].period_ns), c->t[j].wcet_ns);
    return nw;
}

/* Arm 2 (rr levels, K >= 2, (K - 1) P > 2 cs): over i's pending stretch
 * (jobs k0..k0+q of i queued without a break) every peer has at most one turn
 * before each turn of i. A peer turn executes at most Q + P plus P per
 * higher-priority preemption in it (a tick with hp current charges nobody at
 * this level); a middle turn of i holds K charged ticks, so i needs at most
 * N(t) = 2 + floor((W + HP(t)) / ((K - 1) P - 2 cs)) turns (the first serves
 * the quantum carried over, the last the rest). With n_j(t) = ceil((t +
 * R_j) / T_j) jobs of peer j (R_j its current bound, none = unbounded):
 *   t = B + W + 2 cs N (|peers| + 1) + HP(t)
 *       + min(sum n_j C_j, sum min(n_j C_j, N (Q + P)) + P H(t))
 * HP(t) = sum_hp ceil((t + J_h) / T_h) C_h + the switches above, H(t) the hp
 * releases. */
static rtp_i128 turns_step(ctx *c, size_t i, rtp_i128 q, rtp_i128 t, const rtp_ns *R)
{
    const rtp_rr_params *rr = c->rr;
    int p = c->prio[i];
    rtp_i128 P = rr->tick_ns, Q = rr->quantum_ns, K = Q / P, cs = rr->context_switch_ns;
    rtp_i128 W = (q + 1) * c->t[i].wcet_ns, H = 0, HP = switches(c, t, p, 1);
    for (size_t h = 0; h < c->n; h++)
        if (c->prio[h] > p) {
            rtp_i128 k = ceil_div(t + c->t[h].jitter_ns, c->t[h].period_ns);
            H += k;
            HP += sat_mul(k, c->t[h].wcet_ns);
        }
    rtp_i128 N = 2 + (W + HP) / ((K - 1) * P - 2 * cs), cap = sat_mul(N, Q + P);
    rtp_i128 all = 0, capped = sat_mul(P, H);
    int unbounded = 0;
    for (size_t j = 0; j < c->n; j++) {
        if (j == i || c->prio[j] != p)
            continue;
        if (R[j] < 0) {
            unbounded = 1;
            capped += cap;
            continue;
        }
        rtp_i128 work = sat_mul(ceil_div(t + R[j], c->t[j].period_ns), c->t[j].wcet_ns);
        all += work;
        capped += work < cap ? work : cap;
    }
    rtp_i128 peers = unbounded || capped < all ? capped : all;
    return c->t[i].blocking_ns + W + sat_mul(sat_mul(2 * cs, N), (rtp_i128)c->size[i]) + HP +
           peers;
}

/* Arm 2's conditions: a tick, K >= 2, and a middle turn longer than its
 * switches. */
static int turns_apply(const rtp_rr_params *rr)
{
    return rr->tick_ns > 0 && rr->quantum_ns / rr->tick_ns >= 2 &&
           (rr->quantum_ns / rr->tick_ns - 1) * (rtp_i128)rr->tick_ns >
               2 * (rtp_i128)rr->context_switch_ns;
}

rtp_rr_params rtp_rr_params_of(rtp_ns quantum_ns, rtp_ns tick_ns, const rtp_overheads *ov)
{
    rtp_rr_params rr = {quantum_ns, tick_ns, ov->context_switch_ns};
    if (rr.quantum_ns == 0)
        rr.quantum_ns = RTP_RR_QUANTUM_DEFAULT_NS;
    return rr;
}

int rtp_rr_present(const rtp_task *tasks, size_t n, const int *priority)
{
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++)
            if (i != j && tasks[i].rr && priority[i] == priority[j])
                return 1;
    return 0;
}

int rtp_rr_usable(const rtp_rr_params *rr)
{
    return rr->quantum_ns > 0 && (rr->tick_ns <= 0 || rr->quantum_ns % rr->tick_ns == 0) &&
           (rr->tick_ns > 0 || rr->context_switch_ns == 0);
}

static rtp_status check(const ctx *c, rtp_diag *diag)
{
    const rtp_rr_params *rr = c->rr;
    if (rr->quantum_ns <= 0) /* a caller that passes no SCHED_RR terms */
        return rtp_diag_set(diag, RTP_EINPUT, "tasks",
                            "SCHED_RR tasks share a priority: only rtpack analyze analyses "
                            "SCHED_RR ties in this version");
    if (rr->tick_ns > 0 && rr->quantum_ns % rr->tick_ns != 0)
        return rtp_diag_set(diag, RTP_EINPUT, "platform.tick",
                            "the SCHED_RR quantum is a whole number of ticks on Linux: the tick "
                            "must divide platform.rr_quantum");
    if (rr->tick_ns == 0 && rr->context_switch_ns > 0)
        return rtp_diag_set(diag, RTP_EINPUT, "platform.tick",
                            "missing: SCHED_RR tasks share a priority and the context switch is "
                            "not 0; their turn switches are counted in ticks (rtpack probe "
                            "reports the tick)");
    return RTP_OK;
}

/* Task i's level (the tasks at or above its priority) at utilization
 * exactly 1, with no context switch: arm 1's recurrence is then fp.c's with
 * the peers counted as higher priorities, and with any blocking B_i or
 * jitter J_j among them its busy period never ends, yet jobs q < N = H /
 * T_i decide (H the level's hyperperiod; solver/fp.c's header: every term
 * gains exactly H / T_j C_j when t grows by H and job q + N has N C_i more,
 * so W_{q+N}(t + H) = W_q(t) + H U = W_q(t) + H, c_q + H is a fixed point
 * of job q + N's equation, the least one is no later, and R_{q+N} <= R_q).
 * *cap = N then, else 0 (no cap: below 1 or without delays the busy period
 * ends by itself, above 1 responses grow until one passes its deadline).
 * *full = the level's utilization is exactly 1 (arm 2, whose peer windows
 * t + R_j act as jitter, may then never end: it runs on a step budget of
 * its own, RR_FULL_STEPS, past which arm 1's bound stands). RTP_ELIMIT
 * when H passes 2^63 ns. Review
 * rev13b found such sets exiting 3 after the whole iteration budget. */
static rtp_status level_cap(const ctx *c, size_t i, rtp_task *scratch, rtp_ns *cap, int *full,
                            rtp_diag *diag)
{
    size_t m = 0;
    int p = c->prio[i], delays = c->t[i].blocking_ns > 0;
    for (size_t j = 0; j < c->n; j++)
        if (c->prio[j] >= p) {
            scratch[m++] = c->t[j];
            delays |= c->t[j].jitter_ns > 0;
        }
    rtp_ratio one = {1, 1};
    *cap = 0;
    *full = rtp_load_cmp(scratch, m, RTP_LOAD_UTIL, one) == 0;
    if (!*full || !delays || c->rr->context_switch_ns != 0)
        return RTP_OK;
    rtp_ns h = 1;
    for (size_t j = 0; j < m; j++)
        if (rtp_lcm(h, scratch[j].period_ns, &h) != RTP_OK)
            return rtp_diag_set(diag, RTP_ELIMIT, "", "SCHED_RR analysis at utilization 1 "
                                "needs the hyperperiod, which passes 2^63 ns");
    *cap = h / c->t[i].period_ns;
    return RTP_OK;
}

/* 1 when some task declares a given blocking (a section rtpack cannot see). */
static int any_given_blocking(const rtp_task *tasks, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (tasks[i].blocking_ns > 0)
            return 1;
    return 0;
}

rtp_status rtp_rr_rta(const rtp_task *tasks, size_t n, const int *priority,
                      const rtp_rr_params *rr, rtp_ns *response_time, int *schedulable,
                      const rtp_limits *limits, rtp_diag *diag)
{
    ctx c = {.t = tasks, .n = n, .prio = priority, .rr = rr, .lim = limits};
    rtp_status st = check(&c, diag);
    if (st != RTP_OK)
        return st;
    c.size = calloc(n ? n : 1, sizeof *c.size);
    c.swl = calloc(n ? n : 1, 1);
    c.rrl = calloc(n ? n : 1, 1);
    rtp_ns *R = malloc((n ? n : 1) * sizeof *R), *cap = calloc(n ? n : 1, sizeof *cap);
    unsigned char *affected = calloc(n ? n : 1, 1), *full = calloc(n ? n : 1, 1);
    rtp_task *scratch = malloc((n ? n : 1) * sizeof *scratch);
    if (!c.size || !c.swl || !c.rrl || !R || !affected || !cap || !full || !scratch) {
        st = rtp_oom(diag);
        goto fail;
    }
    for (size_t i = 0; i < n; i++) {
        int any_rr = 0, all_rr = 1;
        for (size_t j = 0; j < n; j++)
            if (priority[j] == priority[i]) {
                c.size[i]++;
                any_rr |= tasks[j].rr;
                all_rr &= tasks[j].rr;
            }
        c.swl[i] = c.size[i] >= 2 && any_rr;
        c.rrl[i] = c.size[i] >= 2 && all_rr;
    }
    /* Which tasks FIFO's analysis no longer covers: those of a switching
     * level, and with a context switch those below one (its turn switches
     * are work above them). Lower tasks otherwise see the same work above
     * them whatever the order among equals, so rtp_fp_rta's bound stands. */
    for (size_t i = 0; i < n; i++) {
        affected[i] = c.swl[i];
        for (size_t j = 0; j < n && !affected[i]; j++)
            affected[i] = rr->context_switch_ns > 0 && c.swl[j] && priority[j] > priority[i];
    }
    for (size_t i = 0; i < n && st == RTP_OK; i++) {
        R[i] = response_time[i];
        int level_full = 0;
        if (affected[i] && (st = level_cap(&c, i, scratch, &cap[i], &level_full, diag)) == RTP_OK)
            st = busy(&c, i, agnostic_step, 0, NULL, cap[i], &R[i]);
        full[i] = (unsigned char)level_full;
    }
    /* Critical sections (ceilings, MSRP's non-preemptive spins) run a thread
     * above its level, where its quantum can expire without sending it to
     * the tail of its own list; Linux puts a thread whose priority drops at
     * the head of its new list (__sched_setscheduler's ENQUEUE_HEAD, which
     * PTHREAD_PRIO_PROTECT goes through), so a peer can run a refilled
     * quantum right after its section: a turn is no longer at most Q + P.
     * The turn arm is then left out; arm 1 holds for any order. A given
     * `blocking` is such a section too, declared by its number: the section
     * may be a tied peer's (witness, ns, quantum 2, tick 1: i 1/40/16 and j
     * 30/100/100 tied RR, H 1/100/100 above them blocked 20 by j's ceiling
     * section; j runs 20 in its section, drops to the head with a refilled
     * quantum, H runs, i responds in 23 > the turn arm's 15). */
    int turns = turns_apply(rr) && !rtp_tasks_have_requests(tasks, n) &&
                !any_given_blocking(tasks, n);
    for (int round = 0, changed = 1; round < RR_ROUNDS && changed && st == RTP_OK; round++) {
        changed = 0;
        for (size_t i = 0; i < n && st == RTP_OK; i++) {
            rtp_ns b;
            if (!c.rrl[i] || !turns)
                continue;
            /* at a level filling the CPU the turn arm's busy period may
             * never end (level_cap): it gets RR_FULL_STEPS of the budget,
             * and past them arm 1's bound stands (any bound it reaches by
             * then is sound as ever) */
            rtp_limits sub = *limits;
            if (full[i] && sub.max_iterations - c.steps > RR_FULL_STEPS)
                sub.max_iterations = c.steps + RR_FULL_STEPS;
            c.lim = &sub;
            st = busy(&c, i, turns_step, 1, R, 0, &b);
            c.lim = limits;
            if (st == RTP_ELIMIT && full[i] && c.steps > sub.max_iterations &&
                sub.max_iterations < limits->max_iterations)
                st = RTP_OK, b = -1;
            if (st != RTP_OK || b < 0)
                continue;
            if (R[i] < 0 || b < R[i]) {
                R[i] = b;
                changed = 1;
            }
        }
    }
    if (st == RTP_ELIMIT && c.steps > limits->max_iterations)
        rtp_diag_set(diag, RTP_ELIMIT, NULL,
                     "SCHED_RR response-time analysis passed --max-iterations");
    if (st == RTP_OK) {
        *schedulable = 1;
        for (size_t i = 0; i < n; i++) {
            response_time[i] = R[i];
            *schedulable &= R[i] >= 0;
        }
    }
fail:
    free(cap);
    free(full);
    free(scratch);
    free(c.size);
    free(c.swl);
    free(c.rrl);
    free(R);
    free(affected);
    return st;
}
