/* solver/fp.c — exact uniprocessor fixed-priority response times and
 * priority assignment, with release jitter and blocking.
 *
 * Tasks are effective tasks (models/effective.h): C_i is C', J_i is J'; B_i
 * is task i's blocking, taken as given for every priority order. A job of
 * task i arriving at a is released within [a, a + J_i], is due at a + D_i,
 * and its response is measured from a.
 *
 * Response time of task i ([Leh90], arbitrary deadlines; [ABRTW93], [Tin94]
 * for jitter and blocking in the busy-period form): a level-i busy period
 * starts at 0 when a lower-priority job has just entered a non-preemptible
 * section of length B_i; every higher task j has its first job arrive at
 * -J_j, released at 0, and the later ones released at arrival, so it
 * releases ceil((w + J_j) / T_j) jobs in [0, w); i's job q arrives at
 * a_q = q T_i - J_i (released at max(0, a_q)) and completes at the least
 * fixed point of
 *   w = B_i + (q + 1) C_i + sum_{j higher} ceil((w + J_j) / T_j) C_j;
 * R_q = w - a_q (the response includes J_i); jobs are examined while the
 * busy period lasts past the next release max(0, (q + 1) T_i - J_i). The
 * iteration starts at a valid lower bound (the previous job's completion,
 * or all first jobs' work) and stops as soon as w passes a_q + D_i: the
 * response is then reported as -1 (a miss). A task with J_i >= D_i misses
 * (a job released at the end of its window cannot finish by its deadline).
 *
 * Equal priorities run first-in first-out (SCHED_FIFO) by release time, the
 * jobs released at or before i's, ties included, first (worst case). Linux
 * keeps that order only for threads that sleep between jobs: a thread whose
 * next job is released by the time it completes a job does not sleep, stays
 * at the head of its priority's list (kernel/sched/rt.c: only a wake-up
 * joins the tail) and runs that job before tied jobs released earlier. A
 * job completes by its arrival + R_j and the next one is released no
 * earlier than arrival + T_j, so a thread with R_j < T_j never does that.
 * So the tied tasks whose bound is not below their period (or that miss)
 * are "late": each tied peer counts every job a late task releases, as if
 * it were of higher priority (sound for any order among them), and the
 * level is analysed again until no further task turns late. By induction
 * over the first instant a task outside the late set completes a job at or
 * after its next release (before it, the schedule obeys the analysis, whose
 * bound for that job is below its period), only late tasks are ever
 * backlogged, and every bound printed holds under Linux's rules. Where
 * nothing is late (every tied response below its period) the bounds are the
 * first-in first-out ones, exactly. Then, for FIFO peers,
 * the synchronous release of i is NOT the worst case (an equal-priority job
 * released just before i's, delayed by higher ones, still runs first): the
 * higher and equal tasks have the pattern above from 0 (their critical
 * instant) and i's job under analysis is released at r, as late as its
 * jitter allows (arrival r - J_i: more equal jobs are ahead of it and its
 * response counts from earlier), its earlier jobs arriving at
 * r - J_i - k T_i >= -J_i and released at max(0, arrival); then
 *   w = B_i + (floor(r / T_i) + 1) C_i
 *     + sum_{j equal} (floor((r + J_j) / T_j) + 1) C_j
 *     + sum_{j higher} ceil((w + J_j) / T_j) C_j,   w >= r + 1,
 * R = w - r + J_i. w only steps up where a floor steps, at r = k T_i or
 * r = k T_j - J_j (j equal, not late), and R falls between them, so those r in the
 * synchronous level-i busy period are examined. An r is skipped when its
 * release pattern leaves the CPU idle by r (the job then starts a later
 * busy period, covered by another r); that is monotone between candidates
 * (a later r releases i's earlier jobs later, so never fills an idle gap),
 * so the skip loses nothing. r a multiple of T_i is the synchronous pattern
 * itself, always busy.
 *
 * Many tasks (rtp_fp_rta): the tasks are analysed most urgent first; with
 * distinct priorities job 0 of each starts from the completion of the one
 * just above (a lower bound, see rtp_fp_rta), and its interference is read
 * from one sweep over the release times of the tasks above, which only
 * moves forward; elsewhere interference() visits only the tasks with a
 * second job before w. Verdict only (rtp_fp_verdict, OPA's candidates): a
 * level busy period past 64 jobs is searched for a late job at once
 * (far_jobs, solver/edf_near.c) instead of job by job.
 *
 * Busy periods: the level-i busy period is the least fixed point of
 * L = B_i + sum_{j at or above i} ceil((L + J_j) / T_j) C_j. When the level-i
 * utilization exceeds 1 (exact, models/ratio.h) it never ends and responses
 * grow without bound: a miss. When it is exactly 1 and some B_i or J_j is
 * non-zero it never ends either (work released in [0, t) exceeds t), yet
 * the answer exists. With H the hyperperiod of the level-i tasks and N = H /
 * T_i, let W_q(t) = B_i + (q + 1) C_i + sum_{j above} ceil((t + J_j) / T_j)
 * C_j (job q's fixed-point equation, in the busy period every job's
 * completion c_q is its least fixed point t > 0). Every ceil gains exactly
 * H / T_j when t grows by H (jitter included: (t + H + J_j) / T_j = (t +
 * J_j) / T_j + H / T_j), and job q + N has N C_i more of its own, so
 * W_{q+N}(t + H) = W_q(t) + H (N C_i + sum_j H / T_j C_j = H U = H): c_q +
 * H is a fixed point of job q + N, hence c_{q+N} <= c_q + H, and as job q +
 * N arrives exactly H after job q, R_{q+N} <= R_q. A late job q + N means
 * a late job q: jobs q < N decide, and the largest of their responses is
 * the WCRT. (Equality holds when i's jobs released by then number at most
 * q + N + 1, i.e. J_i <= (q + 1) T_i; with J_i > T_i the jobs already
 * pending at 0 may let job q + N finish earlier, never later.) The same
 * holds without B_i and J_j, where the busy period ends by H anyway (the
 * lattice search of far_jobs is then capped there too). FIFO peers: the
 * release offsets r < H suffice likewise. H past 2^63 ns is RTP_ELIMIT
 * where the busy period is endless.
 * Sums are 128-bit and saturate at 2^100, so nothing overflows. */
#include "solver/fp.h"
#include "solver/locks.h"

#include "models/arith.h"
#include "models/ratio.h"
#include "solver/edf_near.h"
#include "solver/fp_bound.h"
#include "solver/fp_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* The interference of the tasks analysed so far (most urgent first), swept
 * forward in time: `sum` = sum of ceil((t + J_j) / T_j) C_j at t = `at`
 * over them, each task's next release in a binary heap (rtp_fp_rta). */
typedef struct sweep {
    rtp_ns *time;   /* heap: next release times, */
    size_t *task;   /* of these tasks */
    size_t len;
    rtp_ns at;      /* every release before `at` is in sum */
    rtp_i128 sum;
    size_t of;      /* the task whose interference it is (n: none) */
} sweep;

typedef struct rta_ctx {
    const rtp_task *tasks;
    size_t n;
    const int *priority;
    sweep sw;          /* time: NULL when not used */
    size_t above_of;   /* n, or a task whose more urgent tasks' wcets sum to */
    rtp_i128 above;    /* `above`, none of equal priority (rtp_fp_rta) */
    int verdict;       /* only "every job meets its deadline" is asked (far_jobs) */
    rtp_diag *diag;    /* far_jobs' check callback reports through it */
    unsigned char *late; /* n entries: a tied task its peers count as higher */
    rtp_task *scratch; /* n entries, for the level-i load check */
    size_t *by_key;    /* task indices by T - J ascending (see interference) */
    void *block;       /* the one allocation behind every array here and the
                        * spare ones below (ctx_init: an analysis runs once
                        * per packing step, ~10^5 times a second in a sweep,
                        * where eight small allocations per call were most
                        * of the sweep's malloc calls; once a second thread
                        * exists, glibc takes an arena lock on every call
                        * its per-thread cache does not serve) */
    void *sort;        /* n keyed_ns (or smaller) entries: sorting scratch */
    size_t *order;     /* n entries, analyse's order of urgency */
    rtp_ns *time;      /* n entries each: the sweep's heap when analyse */
    size_t *task;      /* uses it (sw.time then points here) */
    rtp_ns *response;  /* n entries: response times nobody asked for */
    size_t first_i;    /* interference's cache: the first jobs of the tasks */
    int first_eq;      /* interfering with first_i (with_equal first_eq), */
    rtp_i128 first;    /* first_i = n: none cached */
    uint64_t used, max_iterations;
    const rtp_limits *limits; /* deadline and interrupt, checked every 1024 steps */
} rta_ctx;

static rtp_status spend(rta_ctx *c, rtp_diag *diag)
{
    if (++c->used > c->max_iterations)
        return rtp_diag_set(diag, RTP_ELIMIT, "",
                            "fixed-priority response-time iteration passed %llu steps",
                            (unsigned long long)c->max_iterations);
    return (c->used & 1023) == 0 ? rtp_limits_check(c->limits, diag) : RTP_OK;
}

/* ceil((w + J) / T) for w >= 1: the jobs of a task with the critical
 * pattern released in [0, w). */
static rtp_i128 jobs_before(const rtp_task *t, rtp_ns w)
{
    rtp_ns x;
    if (!__builtin_add_overflow(w, t->jitter_ns, &x))
        return (x - 1) / t->period_ns + 1;
    return ((rtp_i128)w + t->jitter_ns - 1) / t->period_ns + 1;
}

static void heap_swap(sweep *h, size_t a, size_t b)
{
    rtp_ns t = h->time[a];
    h->time[a] = h->time[b];
    h->time[b] = t;
    size_t k = h->task[a];
    h->task[a] = h->task[b];
    h->task[b] = k;
}

static void heap_down(sweep *h, size_t x)
{
    for (;;) {
        size_t l = 2 * x + 1, m = x;
        if (l < h->len && h->time[l] < h->time[m])
            m = l;
        if (l + 1 < h->len && h->time[l + 1] < h->time[m])
            m = l + 1;
        if (m == x)
            return;
        heap_swap(h, x, m);
        x = m;
    }
}

/* Task j joins: its releases before `at` counted, its next one queued. */
static void sweep_add(sweep *h, const rtp_task *tasks, size_t j)
{
    const rtp_task *t = &tasks[j];
    rtp_ns k = (rtp_ns)((h->at + (rtp_i128)t->jitter_ns - 1) / t->period_ns + 1);
    h->sum += (rtp_i128)k * t->wcet_ns;
    rtp_i128 next = (rtp_i128)k * t->period_ns - t->jitter_ns;
    size_t x = h->len++;
    h->time[x] = next > INT64_MAX ? INT64_MAX : (rtp_ns)next;
    h->task[x] = j;
    while (x > 0 && h->time[(x - 1) / 2] > h->time[x]) {
        heap_swap(h, x, (x - 1) / 2);
        x = (x - 1) / 2;
    }
}

/* Moves `at` forward to w >= at, one release at a time while that is
 * cheap. A far jump (w near 2^62 with short periods would take 2^40 steps
 * and more) counts every queued task's releases before w in closed form
 * instead, as sweep_add does (the same sum and queue: only the cost
 * differs), so one call costs at most 2 len + 64 steps and a rebuild. */
static void sweep_to(sweep *h, const rtp_task *tasks, rtp_ns w)
{
    size_t steps = 2 * h->len + 64;
    while (h->len > 0 && h->time[0] < w && h->sum < RTP_I128_SATURATED && steps-- > 0) {
        const rtp_task *t = &tasks[h->task[0]];
        h->sum += t->wcet_ns;
        h->time[0] = h->time[0] > INT64_MAX - t->period_ns ? INT64_MAX
                                                           : h->time[0] + t->period_ns;
        heap_down(h, 0);
    }
    if (h->len > 0 && h->time[0] < w && h->sum < RTP_I128_SATURATED) {
        size_t len = h->len;
        h->len = 0;
        h->sum = 0;
        h->at = w;
        for (size_t x = 0; x < len; x++) {
            size_t j = h->task[x];
            if (h->sum < RTP_I128_SATURATED) {
                sweep_add(h, tasks, j); /* each term <= 2^63 2^62: no overflow */
            } else { /* saturated: the sum stays, the task waits at the end */
                h->task[h->len] = j;
                h->time[h->len++] = INT64_MAX;
            }
        }
    }
    h->at = w;
}

/* Does task j interfere with task i (priority above, equal too when
 * with_equal or j is late, see the top)? */
static int interferes(const rta_ctx *c, size_t i, size_t j, int with_equal)
{
    int p = c->priority[i];
    return j != i && (c->priority[j] > p || (c->priority[j] == p && (with_equal || c->late[j])));
}

/* sum over tasks j != i with priority[j] above (equal too, when with_equal)
 * of ceil((w + J_j) / T_j) C_j, saturated. Every such task releases its
 * first job in [0, w) (w >= 1), and a second one only when T_j - J_j < w:
 * so the first jobs' sum is kept per task analysed, and only the tasks
 * with T_j - J_j < w (a prefix of by_key) are visited for the rest. With
 * many tasks most periods are longer than most responses: this is what
 * keeps the analysis of n tasks from costing n terms per step. */
static rtp_i128 interference(rta_ctx *c, size_t i, rtp_ns w, int with_equal)
{
    if (c->sw.time && c->sw.of == i && w >= c->sw.at) {
        sweep_to(&c->sw, c->tasks, w);
        return c->sw.sum;
    }
    if (c->first_i != i || c->first_eq != with_equal) {
        c->first = 0;
        for (size_t j = 0; j < c->n; j++)
            if (interferes(c, i, j, with_equal))
                c->first += c->tasks[j].wcet_ns; /* <= n 2^62: no overflow */
        c->first_i = i;
        c->first_eq = with_equal;
    }
    rtp_i128 sum = c->first;
    for (size_t x = 0; x < c->n && sum < RTP_I128_SATURATED; x++) {
        const rtp_task *t = &c->tasks[c->by_key[x]];
        if ((rtp_i128)t->period_ns - t->jitter_ns >= w)
            break; /* this one and the rest: one job each */
        if (interferes(c, i, c->by_key[x], with_equal))
            sum += (jobs_before(t, w) - 1) * t->wcet_ns;
    }
    return sum;
}

/* sign(level-i utilization - 1) over the tasks with priority >= p_i. */
static int level_cmp(const rta_ctx *c, size_t i)
{
    size_t m = 0;
    for (size_t j = 0; j < c->n; j++)
        if (c->priority[j] >= c->priority[i])
            c->scratch[m++] = c->tasks[j];
    rtp_ratio one = {1, 1};
    return rtp_load_cmp(c->scratch, m, RTP_LOAD_UTIL, one);
}

/* At level utilization exactly 1: *hyper = the hyperperiod H of the
 * level-i tasks (responses repeat with it, see the top), 0 when it passes
 * 2^63 ns and the busy period ends by itself; *endless = the level-i busy
 * period never ends (some blocking B_i or jitter J_j at or above i), and
 * then H past 2^63 ns is RTP_ELIMIT. */
static rtp_status level_hyperperiod(const rta_ctx *c, size_t i, rtp_ns *hyper, int *endless,
                                    rtp_diag *diag)
{
    int delays = c->tasks[i].blocking_ns > 0;
    for (size_t j = 0; j < c->n; j++)
        if (c->priority[j] >= c->priority[i])
            delays = delays || c->tasks[j].jitter_ns > 0;
    *hyper = 0;
    *endless = delays;
    rtp_ns h = 1;
    for (size_t j = 0; j < c->n; j++)
        if (c->priority[j] >= c->priority[i] && rtp_lcm(h, c->tasks[j].period_ns, &h) != RTP_OK)
            return delays ? rtp_diag_set(diag, RTP_ELIMIT, "",
                                         "fixed-priority analysis at utilization 1 needs the "
                                         "hyperperiod, which passes 2^63 ns")
                          : RTP_OK;
    *hyper = h;
    return RTP_OK;
}

/* Work released in [0, t) (1 <= t <= r) when the tasks at or above priority
 * p (but i) have the critical pattern, task i's job under analysis is
 * released at r and its earlier jobs arrive at r - J_i - k T_i
 * (1 <= k <= floor(r / T_i)), released at max(0, arrival); plus B_i. */
static rtp_i128 phased_work(rta_ctx *c, size_t i, rtp_ns r, rtp_ns t)
{
    const rtp_task *ti = &c->tasks[i];
    rtp_i128 sum = ti->blocking_ns + interference(c, i, t, 1);
    rtp_ns q = r / ti->period_ns, kmin = 0;
    /* job k is released before t iff r - J_i - k T_i < t iff
     * k >= floor((r - J_i - t) / T_i) + 1 */
    rtp_div_floor(r - ti->jitter_ns - t, ti->period_ns, &kmin); /* T > 0: cannot fail */
    kmin = kmin + 1 < 1 ? 1 : kmin + 1;
    if (q >= kmin)
        sum += (rtp_i128)(q - kmin + 1) * ti->wcet_ns;
    return sum;
}

/* With i's job under analysis released at r (not a multiple of T_i), does
 * the level-i busy period from 0 last past r? */
static rtp_status busy_past(rta_ctx *c, size_t i, rtp_ns r, int *busy, rtp_diag *diag)
{
    rtp_i128 t = phased_work(c, i, r, 1);
    for (;;) {
        if (t > r) {
            *busy = 1;
            return RTP_OK;
        }
        rtp_status st = spend(c, diag);
        if (st != RTP_OK)
            return st;
        rtp_i128 t2 = phased_work(c, i, r, (rtp_ns)t);
        if (t2 <= t) {
            *busy = 0;
            return RTP_OK;
        }
        t = t2;
    }
}

/* Iterates w = own + interference(w) upward from *w (a lower bound) to its
 * least fixed point, the completion of the job under analysis. *miss = 1,
 * and the iteration stops, as soon as w passes `deadline` (that job's
 * absolute deadline): nothing later can bring it back. */
static rtp_status settle(rta_ctx *c, size_t i, rtp_i128 own, rtp_i128 deadline, rtp_i128 *w, int *miss,
                         rtp_diag *diag)
{
    *miss = 0;
    for (;;) {
        if (*w > deadline) {
            *miss = 1;
            return RTP_OK;
        }
        rtp_status st = spend(c, diag);
        if (st != RTP_OK)
            return st;
        if (*w > INT64_MAX)
            return rtp_diag_set(diag, RTP_ELIMIT, "", "fixed-priority response passes 2^63 ns");
        rtp_i128 next = own + interference(c, i, (rtp_ns)*w, 0);
        if (next <= *w)
            return RTP_OK;
        *w = next;
    }
}

/* The end of the synchronous level-i busy period (least fixed point of
 * B_i + sum_{j at or above i} ceil((L + J_j) / T_j) C_j); the level
 * utilization is <= 1 and the period finite (checked by the caller). */
static rtp_status level_busy_period(rta_ctx *c, size_t i, rtp_ns *end, rtp_diag *diag)
{
    const rtp_task *ti = &c->tasks[i];
    rtp_i128 busy = ti->blocking_ns + ti->wcet_ns + interference(c, i, 1, 1);
    for (;;) {
        rtp_status st = spend(c, diag);
        if (st != RTP_OK)
            return st;
        if (busy > INT64_MAX)
            return rtp_diag_set(diag, RTP_ELIMIT, "",
                                "fixed-priority busy period passes 2^63 ns");
        rtp_i128 next = ti->blocking_ns + jobs_before(ti, (rtp_ns)busy) * ti->wcet_ns +
                    interference(c, i, (rtp_ns)busy, 1);
        if (next <= busy)
            break;
        busy = next;
    }
    *end = (rtp_ns)busy;
    return RTP_OK;
}

/* Worst-case response of task i with equal-priority tasks (FIFO among them),
 * over the releases r described at the top; -1 when one passes D_i. */
static rtp_status fifo_wcrt(rta_ctx *c, size_t i, rtp_ns *response, rtp_diag *diag)
{
    const rtp_task *ti = &c->tasks[i];
    int p = c->priority[i];
    *response = -1;
    int cmp = level_cmp(c, i);
    if (cmp > 0)
        return RTP_OK; /* the busy period never ends: a miss */
    rtp_ns end = 0;
    int endless = 0;
    rtp_status st = cmp == 0 ? level_hyperperiod(c, i, &end, &endless, diag) : RTP_OK;
    if (st == RTP_OK && !endless)
        st = level_busy_period(c, i, &end, diag);
    if (st != RTP_OK)
        return st;
    rtp_i128 worst = 0;
    for (rtp_ns r = 0; r < end;) {
        int in_busy = 1;
        if (r % ti->period_ns != 0 && (st = busy_past(c, i, r, &in_busy, diag)) != RTP_OK)
            return st;
        if (in_busy) {
            rtp_i128 own = ti->blocking_ns + (rtp_i128)(r / ti->period_ns + 1) * ti->wcet_ns, w;
            for (size_t j = 0; j < c->n; j++)
                if (j != i && c->priority[j] == p && !c->late[j])
                    own += jobs_before(&c->tasks[j], r + 1) * c->tasks[j].wcet_ns;
            w = own > (rtp_i128)r + 1 ? own : (rtp_i128)r + 1;
            int miss = 0;
            rtp_i128 deadline = (rtp_i128)r - ti->jitter_ns + ti->deadline_ns;
            if ((st = settle(c, i, own, deadline, &w, &miss, diag)) != RTP_OK || miss)
                return st;
            if (w - r + ti->jitter_ns > worst)
                worst = w - r + ti->jitter_ns;
        }
        /* the next release of i (phase 0) or of an equal-priority task
         * (not a late one: its jobs are counted in interference) */
        rtp_ns next = INT64_MAX;
        for (size_t j = 0; j < c->n; j++) {
            if (j != i && (c->priority[j] != p || c->late[j]))
                continue;
            rtp_ns tj = c->tasks[j].period_ns, jj = j == i ? 0 : c->tasks[j].jitter_ns;
            rtp_i128 at = ((rtp_i128)r + jj) / tj * tj + tj - jj; /* first k T_j - J_j > r */
            if (at < next)
                next = (rtp_ns)at;
        }
        r = next;
    }
    *response = (rtp_ns)worst;
    return RTP_OK;
}

/* The search of solver/edf_near.c for a late job of task i (only more
 * urgent tasks above it), asked about the point y of job q = (y - D*_i) /
 * T_i: does its "virtual" completion, the least fixed point of W_q(t) =
 * B_i + (q + 1) C_i + sum_{j above} ceil((t + J_j) / T_j) C_j, pass y? */
typedef struct far_ctx {
    rta_ctx *c;
    size_t i;
    rtp_ns from;   /* jobs below it were examined already */
    mpq_t scale;   /* 1 / (1 - U_above), for job q's lower bound */
    mpq_t lift;    /* sum C_j J_j / T_j */
} far_ctx;

static rtp_status far_check(void *ctx, rtp_ns lo, rtp_ns hi, int want_first, rtp_ns *failed)
{
    far_ctx *f = ctx;
    rta_ctx *c = f->c;
    const rtp_task *ti = &c->tasks[f->i];
    (void)want_first;
    *failed = 0;
    rtp_ns dstar = ti->deadline_ns - ti->jitter_ns, p = ti->period_ns;
    rtp_ns q = lo <= dstar ? 0 : (lo - dstar + p - 1) / p;
    if (q < f->from)
        q = f->from;
    mpq_t x;
    mpz_t z;
    mpq_init(x);
    mpz_init(z);
    rtp_status st = RTP_OK;
    for (; (rtp_i128)q * p + dstar <= hi && st == RTP_OK; q++) {
        rtp_i128 own = ti->blocking_ns + (rtp_i128)(q + 1) * ti->wcet_ns, y = (rtp_i128)q * p + dstar;
        /* W_q(t) >= own + U t + sum C_j J_j / T_j (each ceil >= its argument):
         * its least fixed point is past (own + lift) / (1 - U) */
        mpz_set_si(mpq_numref(x), (long)(own >> 64)); /* own < 2^126 */
        mpz_mul_2exp(mpq_numref(x), mpq_numref(x), 64);
        mpz_add_ui(mpq_numref(x), mpq_numref(x), (unsigned long)(uint64_t)own);
        mpz_set_ui(mpq_denref(x), 1);
        mpq_add(x, x, f->lift);
        mpq_mul(x, x, f->scale);
        mpz_cdiv_q(z, mpq_numref(x), mpq_denref(x));
        rtp_i128 w = mpz_fits_slong_p(z) ? mpz_get_si(z) : (rtp_i128)y + 1;
        if (w < own)
            w = own;
        int miss = 0;
        st = settle(c, f->i, own, y, &w, &miss, c->diag);
        if (st == RTP_OK && miss) {
            *failed = (rtp_ns)y;
            break;
        }
    }
    mpz_clear(z);
    mpq_clear(x);
    return st;
}

/* Past the first `from` jobs of task i, is some job late? Every job q of the
 * synchronous pattern is due at y_q = q T_i + D_i - J_i and its virtual
 * completion (the least fixed point above, as if the busy period went on)
 * is at most its real one (work available earlier finishes no later): a
 * virtual miss is a real miss, and every real miss of the first busy
 * period is a virtual one. A virtual miss at q needs W_q(y_q) > y_q, i.e.
 * (with m_j(y) = (y + J_j - 1) mod T_j and U the utilization above)
 *   sum_j U_j m_j(y_q) + (1 - U - U_i) y_q
 *     < B_i + C_i - U_i D*_i + sum_j U_j (J_j - 1 + T_j),
 * EDF's condition below U' = 1 with the points y_q as the only base: the
 * lattice search finds every such q (solver/edf_near.c) and each is checked
 * exactly. At level utilization 1 with an endless busy period only jobs
 * q < jobs = H / T_i need looking at (see the top), so the search stops at
 * y_{jobs - 1}: clear below it, every job is clear. *decided = 0 when it
 * cannot cover every q (level utilization 1 with jobs = 0 or y past 2^62 ns,
 * or the search's budget). */
static rtp_status far_jobs(rta_ctx *c, size_t i, rtp_ns from, rtp_ns jobs, int *late,
                           int *decided, rtp_diag *diag)
{
    const rtp_task *ti = &c->tasks[i];
    *late = *decided = 0;
    size_t m = 0;
    rtp_task *hp = malloc((c->n ? c->n : 1) * sizeof *hp);
    if (!hp)
        return rtp_oom(diag);
    far_ctx f = {.c = c, .i = i, .from = from};
    mpq_t u, eta, k, x;
    mpq_inits(f.scale, f.lift, u, eta, k, x, NULL);
    for (size_t j = 0; j < c->n; j++) {
        if (!interferes(c, i, j, 0))
            continue;
        const rtp_task *tj = &c->tasks[j];
        hp[m] = *tj; /* its sawtooth's phase 1 - J_j as the D* of solver/edf_near.c */
        hp[m].deadline_ns = 1;
        hp[m].blocking_ns = 0;
        m++;
        mpq_set_si(x, tj->wcet_ns, (unsigned long)tj->period_ns);
        mpq_canonicalize(x);
        mpq_add(u, u, x);
        mpq_set_si(eta, tj->jitter_ns, 1);
        mpq_mul(eta, eta, x);
        mpq_add(f.lift, f.lift, eta);
        mpq_set_si(eta, tj->jitter_ns - 1 + tj->period_ns, 1);
        mpq_mul(eta, eta, x);
        mpq_add(k, k, eta);
    }
    mpq_set_ui(f.scale, 1, 1);
    mpq_sub(f.scale, f.scale, u);
    mpq_inv(f.scale, f.scale); /* U < 1: the level utilization is at most 1 */
    mpq_set_si(x, ti->wcet_ns, (unsigned long)ti->period_ns);
    mpq_canonicalize(x);
    mpq_set_ui(eta, 1, 1);
    mpq_sub(eta, eta, u);
    mpq_sub(eta, eta, x);
    mpq_set_si(u, ti->deadline_ns - ti->jitter_ns, 1);
    mpq_mul(x, x, u);
    mpq_sub(k, k, x);
    mpq_set_si(x, ti->blocking_ns + ti->wcet_ns, 1);
    mpq_add(k, k, x);
    /* K past the largest sawtooth sum (every C_j above): the condition
     * excludes no job while (1 - U - U_i) y < K - sum C_j; a stretch of more
     * than 4096 jobs (or an endless one) is left to the walk */
    mpq_set_ui(x, 0, 1);
    for (size_t j = 0; j < m; j++) {
        mpq_set_si(u, hp[j].wcet_ns, 1);
        mpq_add(x, x, u);
    }
    mpq_sub(x, k, x);
    if (mpq_sgn(x) > 0) {
        mpq_set_si(u, ti->period_ns, 4096);
        mpq_mul(u, u, eta); /* 4096 T_i eta */
        if (mpq_cmp(x, u) >= 0) {
            mpq_clears(f.scale, f.lift, u, eta, k, x, NULL);
            free(hp);
            return RTP_OK; /* not decided */
        }
    }
    rtp_task base = *ti;
    /* a quarter of what is left for the lattice's nodes, a quarter for the
     * jobs it has checked: where sum C_j over the tasks above is below the
     * bound the condition excludes no job over a long stretch, and then
     * the walk goes on with the rest */
    uint64_t left = c->max_iterations > c->used ? c->max_iterations - c->used : 0;
    uint64_t max = c->max_iterations; /* the checks' settle steps: a quarter too */
    rtp_edf_budget b = {0, left / 4, c->limits};
    c->max_iterations = c->used + left / 4;
    rtp_ns cap = RTP_NS_LIMIT; /* past the last job's point y_{jobs - 1}, when known */
    rtp_i128 y_last = (rtp_i128)(jobs - 1) * ti->period_ns + ti->deadline_ns - ti->jitter_ns;
    if (jobs > 0 && y_last < RTP_NS_LIMIT)
        cap = (rtp_ns)y_last + 1;
    rtp_edf_near_in in = {.tasks = hp, .n = m, .t_cap = cap, .check = far_check,
                          .check_ctx = &f, .b = &b, .k0 = k, .eps = eta, .base = &base};
    rtp_edf_near_result r;
    size_t keep = c->sw.of;
    c->sw.of = c->n; /* far points: not the sweep's */
    c->diag = diag;
    rtp_status st = mpq_sgn(eta) >= 0 ? rtp_edf_near(&in, &r, diag) : RTP_OK;
    c->sw.of = keep;
    c->max_iterations = max;
    c->used += b.used; /* the search's nodes; far_check's steps counted as they went */
    if (st == RTP_OK && mpq_sgn(eta) >= 0) {
        *late = r.failed > 0;
        *decided = r.decided || (cap < RTP_NS_LIMIT && r.clear_below >= cap);
    }
    if (st == RTP_ELIMIT && c->used < c->max_iterations &&
        rtp_limits_check(c->limits, diag) == RTP_OK) {
        rtp_diag_clear(diag); /* only the share: not decided, the walk goes on */
        st = RTP_OK;
    }
    mpq_clears(f.scale, f.lift, u, eta, k, x, NULL);
    free(hp);
    return st;
}

/* *met = 1 when the linear bound of solver/fp_bound.h proves every job q >=
 * from of task i in time (near a level utilization of 1 the lattice search
 * of far_jobs finds a candidate at nearly every job). */
static rtp_status bound_jobs(rta_ctx *c, size_t i, rtp_ns from, int *met, rtp_diag *diag)
{
    char *hp = malloc(c->n ? c->n : 1);
    if (!hp)
        return rtp_oom(diag);
    for (size_t j = 0; j < c->n; j++)
        hp[j] = (char)interferes(c, i, j, 0);
    rtp_status st = rtp_fp_bound_holds(c->tasks, c->n, hp, i, NULL, 0, from, met);
    free(hp);
    return st == RTP_OK ? st : rtp_oom(diag);
}

/* Worst-case response of task i, or -1 when some job misses its deadline. */
static rtp_status task_wcrt(rta_ctx *c, size_t i, rtp_i128 start, rtp_ns *response,
                            rtp_i128 *done0, rtp_diag *diag)
{
    const rtp_task *ti = &c->tasks[i];
    int p = c->priority[i];
    *response = -1;
    if (done0)
        *done0 = 0;
    if (ti->jitter_ns >= ti->deadline_ns)
        return RTP_OK; /* released at the end of its window, it cannot finish in time */
    rtp_i128 first_jobs = 0;
    for (size_t j = 0; j < c->n && c->above_of != i; j++) {
        if (j == i || c->priority[j] < p)
            continue;
        if (c->priority[j] == p)
            return fifo_wcrt(c, i, response, diag);
        first_jobs += c->tasks[j].wcet_ns;
    }
    if (c->above_of == i)
        first_jobs = c->above;
    /* Only higher priorities: the critical pattern above; jobs 0, 1, ...
     * while the level-i busy period lasts (at most `jobs` of them when the
     * level utilization is 1 and the period endless). */
    rtp_i128 w = ti->blocking_ns + first_jobs + ti->wcet_ns, worst = 0;
    if (start > w)
        w = start; /* a lower bound of job 0's completion (rtp_fp_rta) */
    rtp_ns jobs = 0;
    for (rtp_ns q = 0;; q++) {
        rtp_i128 a = (rtp_i128)q * ti->period_ns - ti->jitter_ns;       /* arrival of job q */
        rtp_i128 next = a + ti->period_ns;                         /* that of job q + 1 */
        if (next > INT64_MAX)
            return rtp_diag_set(diag, RTP_ELIMIT, "",
                                "fixed-priority busy period passes 2^63 ns");
        rtp_i128 own = ti->blocking_ns + (rtp_i128)(q + 1) * ti->wcet_ns; /* jobs 0..q */
        if (w < own)
            w = own;
        int miss = 0;
        rtp_status st = settle(c, i, own, a + ti->deadline_ns, &w, &miss, diag);
        if (q == 0 && done0)
            *done0 = w; /* at most job 0's completion, exactly it unless a miss */
        if (st == RTP_ELIMIT && jobs > 0 && c->used > c->max_iterations)
            return rtp_diag_set(diag, RTP_ELIMIT, "",
                                "fixed-priority response-time iteration passed %llu steps: the "
                                "level utilization of tasks[%zu] is 1, its responses repeat "
                                "after %lld jobs (the level hyperperiod), and %s reached job %lld",
                                (unsigned long long)c->max_iterations, i, (long long)jobs,
                                c->verdict ? "the search found no late job; the walk"
                                           : "the walk for the largest response",
                                (long long)q);
        if (st != RTP_OK || miss)
            return st;
        if (w - a > worst)
            worst = w - a;
        if (w <= next)
            break; /* job q + 1 is released after the busy period ends */
        if (q == 0) {
            int cmp = level_cmp(c, i);
            if (cmp > 0)
                return RTP_OK; /* the busy period never ends: a miss */
            rtp_ns hyper = 0;
            int endless = 0;
            if (cmp == 0 && (st = level_hyperperiod(c, i, &hyper, &endless, diag)) != RTP_OK)
                return st;
            jobs = hyper / ti->period_ns; /* 0: the busy period ends by itself */
        }
        if (jobs > 0 && q + 1 == jobs)
            break; /* the responses repeat from here */
        if (c->verdict && q + 1 == 64) { /* a long busy period: the rest at once */
            int late = 0, decided = 0;
            if ((st = bound_jobs(c, i, q + 1, &decided, diag)) != RTP_OK)
                return st;
            if (!decided && (st = far_jobs(c, i, q + 1, jobs, &late, &decided, diag)) != RTP_OK)
                return st;
            if (decided) {
                *response = late ? -1 : (rtp_ns)worst; /* verdict only: not the WCRT */
                return RTP_OK;
            }
        }
        w += ti->wcet_ns; /* job q + 1 completes at least C_i later */
    }
    *response = (rtp_ns)worst;
    return RTP_OK;
}

/* Indices sorted by T - J, for interference(). */
typedef struct keyed_ns {
    rtp_i128 key;
    size_t index;
} keyed_ns;

static int keyed_ns_cmp(const void *a, const void *b)
{
    const keyed_ns *x = a, *y = b;
    return (x->key > y->key) - (x->key < y->key);
}

static rtp_status ctx_init(rta_ctx *c, const rtp_task *tasks, size_t n,
                           const int *priority, const rtp_limits *limits)
{
    c->tasks = tasks;
    c->n = n;
    c->priority = priority;
    c->used = 0;
    c->max_iterations = (limits ? *limits : rtp_limits_default()).max_iterations;
    c->limits = limits;
    c->first_i = n;
    c->first_eq = 0;
    c->first = 0;
    memset(&c->sw, 0, sizeof c->sw);
    c->sw.of = n;
    c->above_of = n;
    c->above = 0;
    c->verdict = 0;
    c->diag = NULL;
    /* Every array of the analysis in one block, each part a multiple of
     * 16 bytes long (n rounded up to even) so that every part keeps
     * malloc's alignment, keyed_ns's 128-bit key first. */
    size_t even = n + (n & 1) + 2 * (n == 0);
    char *at = c->block = malloc(even * (sizeof(keyed_ns) + sizeof(rtp_task) + 5 * sizeof(size_t) +
                                         1));
    if (!at) {
        c->late = NULL;
        return RTP_ENOMEM;
    }
    keyed_ns *k = c->sort = (keyed_ns *)(void *)at;
    at += even * sizeof(keyed_ns);
    c->scratch = (rtp_task *)(void *)at;
    at += even * sizeof(rtp_task);
    c->by_key = (size_t *)(void *)at;
    c->order = (size_t *)(void *)(at += even * sizeof(size_t));
    c->time = (rtp_ns *)(void *)(at += even * sizeof(size_t));
    c->task = (size_t *)(void *)(at += even * sizeof(rtp_ns));
    c->response = (rtp_ns *)(void *)(at += even * sizeof(size_t));
    c->late = (unsigned char *)(at += even * sizeof(rtp_ns));
    memset(c->late, 0, n);
    for (size_t i = 0; i < n; i++) {
        k[i].key = (rtp_i128)tasks[i].period_ns - tasks[i].jitter_ns;
        k[i].index = i;
    }
    qsort(k, n, sizeof *k, keyed_ns_cmp);
    for (size_t i = 0; i < n; i++)
        c->by_key[i] = k[i].index;
    return RTP_OK;
}

static void ctx_free(rta_ctx *c)
{
    free(c->block);
    c->block = NULL;
}

/* order[] = task indices by priority, most urgent first (ties by index). */
typedef struct ranked_int {
    int prio;
    size_t index;
} ranked_int;

static int ranked_int_cmp(const void *a, const void *b)
{
    const ranked_int *x = a, *y = b;
    if (x->prio != y->prio)
        return x->prio > y->prio ? -1 : 1;
    return (x->index > y->index) - (x->index < y->index);
}

/* k: n entries of scratch. */
static void by_priority(const int *priority, size_t n, ranked_int *k, size_t *order)
{
    for (size_t i = 0; i < n; i++) {
        k[i].prio = priority[i];
        k[i].index = i;
    }
    qsort(k, n, sizeof *k, ranked_int_cmp);
    for (size_t i = 0; i < n; i++)
        order[i] = k[i].index;
}

/* The tied level ending at order[last] (two tasks or more, each analysed
 * once): while some task of it is not late yet its bound is not below its
 * period (or it misses), mark it late and analyse the level again (see the
 * top). Bounds only grow, so a miss stays a miss. */
static rtp_status late_ties(rta_ctx *c, const size_t *order, size_t last,
                            rtp_ns *response_time, rtp_diag *diag)
{
    size_t first = last;
    while (first > 0 && c->priority[order[first - 1]] == c->priority[order[last]])
        first--;
    for (;;) {
        int more = 0;
        for (size_t x = first; x <= last; x++) {
            size_t j = order[x];
            if (!c->late[j] && (response_time[j] < 0 || response_time[j] >= c->tasks[j].period_ns))
                more = c->late[j] = 1;
        }
        if (!more)
            return RTP_OK;
        c->first_i = c->n; /* interference's cache: the late set changed */
        for (size_t x = first; x <= last; x++) {
            rtp_status st = task_wcrt(c, order[x], 0, &response_time[order[x]], NULL, diag);
            if (st != RTP_OK)
                return st;
        }
    }
}

/* rtp_fp_rta, and rtp_fp_verdict when verdict (responses are then
 * meaningful only as "-1 = a miss"; the first miss ends it; response_time
 * may then be NULL). */
static rtp_status analyse(const rtp_task *tasks, size_t n, const int *priority,
                          rtp_ns *response_time, int *schedulable, int verdict,
                          const rtp_limits *limits, rtp_diag *diag)
{
    *schedulable = 1;
    if (rtp_limits_check(limits, diag) != RTP_OK)
        return RTP_ELIMIT;
    rta_ctx c;
    rtp_status st = ctx_init(&c, tasks, n, priority, limits);
    c.verdict = verdict;
    if (st == RTP_OK && !response_time)
        response_time = c.response;
    /* Most urgent first, each task's job 0 starting from the completion of
     * the one just above it, prev: with distinct priorities hp(i) = hp(prev)
     * + prev, so W_i(t) >= W_prev(t) - B_prev + B_i + C_i > t for every t
     * below prev's completion when B_i + C_i >= B_prev (each task above
     * releases a first job in [0, t)). A response of many short periods
     * otherwise climbs there one release at a time. */
    size_t *order = c.order;
    if (st == RTP_OK)
        by_priority(priority, n, c.sort, order);
    /* With distinct priorities the tasks above each task are those already
     * analysed, and the points where job 0's interference is asked only
     * grow from one task to the next (from the chained start above): one
     * sweep over the release times serves them all, each release counted
     * once (sweep; other points fall back to the sum itself). */
    int distinct = 1;
    for (size_t r = 1; r < n && st == RTP_OK; r++)
        distinct = distinct && priority[order[r]] != priority[order[r - 1]];
    if (st == RTP_OK && distinct && n > 1) {
        c.sw.time = c.time;
        c.sw.task = c.task;
        c.sw.at = 1;
    }
    rtp_i128 done = 0;
    for (size_t r = 0; r < n && st == RTP_OK; r++) {
        size_t i = order[r], prev = r ? order[r - 1] : n;
        int strict = prev < n && priority[prev] > priority[i] &&
                     (r < 2 || priority[order[r - 2]] > priority[prev]) &&
                     (r + 1 >= n || priority[order[r + 1]] < priority[i]) &&
                     (rtp_i128)tasks[i].blocking_ns + tasks[i].wcet_ns >= tasks[prev].blocking_ns;
        c.sw.of = i;
        if (c.sw.time)
            c.above_of = i; /* distinct: the tasks above are those before */
        st = task_wcrt(&c, i, strict ? done : 0, &response_time[i], &done, diag);
        if (response_time[i] < 0)
            *schedulable = 0;
        if (verdict && !*schedulable)
            break;
        if (st == RTP_OK && r > 0 && priority[prev] == priority[i] &&
            (r + 1 == n || priority[order[r + 1]] != priority[i]))
            st = late_ties(&c, order, r, response_time, diag);
        for (size_t x = r + 1; x-- > 0 && priority[order[x]] == priority[i];)
            if (response_time[order[x]] < 0)
                *schedulable = 0;
        if (verdict && !*schedulable)
            break;
        if (c.sw.time) {
            sweep_add(&c.sw, tasks, i);
            c.above += tasks[i].wcet_ns; /* <= n 2^62 */
        }
    }
    ctx_free(&c);
    return st;
}

rtp_status rtp_fp_rta(const rtp_task *tasks, size_t n, const int *priority,
                      rtp_ns *response_time, int *schedulable,
                      const rtp_limits *limits, rtp_diag *diag)
{
    return analyse(tasks, n, priority, response_time, schedulable, 0, limits, diag);
}

rtp_status rtp_fp_verdict(const rtp_task *tasks, size_t n, const int *priority,
                          int *schedulable, const rtp_limits *limits, rtp_diag *diag)
{
    return analyse(tasks, n, priority, NULL, schedulable, 1, limits, diag);
}

rtp_status rtp_fp_task_meets(const rtp_task *tasks, size_t n, const char *hp, size_t i,
                             int *meets, uint64_t *steps, const rtp_limits *limits,
                             rtp_diag *diag)
{
    *meets = 0;
    *steps = 0;
    if (rtp_limits_check(limits, diag) != RTP_OK)
        return RTP_ELIMIT;
    int *prio = malloc((n ? n : 1) * sizeof *prio);
    if (!prio)
        return rtp_oom(diag);
    for (size_t j = 0; j < n; j++)
        prio[j] = j == i ? 1 : hp[j] ? 2 : 0; /* 0: below i, not in its level */
    rta_ctx c;
    rtp_status st = ctx_init(&c, tasks, n, prio, limits);
    if (st != RTP_OK) {
        st = rtp_oom(diag);
    } else {
        c.verdict = 1;
        rtp_ns r = -1;
        st = task_wcrt(&c, i, 0, &r, NULL, diag);
        *meets = st == RTP_OK && r >= 0;
        *steps = c.used;
    }
    ctx_free(&c);
    free(prio);
    return st;
}

/* Indices sorted by key (deadline or period), ties by input order. */
typedef struct keyed {
    rtp_ns key;
    size_t index;
} keyed;

static int keyed_cmp(const void *a, const void *b)
{
    const keyed *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return x->index < y->index ? -1 : (x->index > y->index);
}

/* order[0] = most urgent by `rule` (DM or RM). */
static rtp_status monotonic_order(const rtp_task *tasks, size_t n, rtp_prio_rule rule,
                                  size_t *order)
{
    keyed *k = malloc((n ? n : 1) * sizeof *k);
    if (!k)
        return RTP_ENOMEM;
    for (size_t i = 0; i < n; i++) {
        k[i].key = rule == RTP_PRIO_RM ? tasks[i].period_ns : tasks[i].deadline_ns;
        k[i].index = i;
    }
    qsort(k, n, sizeof *k, keyed_cmp);
    for (size_t i = 0; i < n; i++)
        order[i] = k[i].index;
    free(k);
    return RTP_OK;
}

static int int_cmp(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static rtp_status given_ranking(const rtp_task *tasks, size_t n, int *priority,
                                rtp_diag *diag)
{
    for (size_t i = 0; i < n; i++)
        if (!tasks[i].has_priority) {
            char path[48];
            snprintf(path, sizeof path, "tasks[%zu].priority", i);
            return rtp_diag_set(diag, RTP_EINPUT, path,
                                "missing priority (needed by --priority given)");
        }
    /* Dense ranking: the position of each value among the distinct values. */
    int *values = malloc((n ? n : 1) * sizeof *values);
    if (!values)
        return rtp_oom(diag);
    for (size_t i = 0; i < n; i++)
        values[i] = tasks[i].priority;
    qsort(values, n, sizeof *values, int_cmp);
    size_t distinct = 0;
    for (size_t i = 0; i < n; i++)
        if (distinct == 0 || values[distinct - 1] != values[i])
            values[distinct++] = values[i];
    for (size_t i = 0; i < n; i++) {
        const int *at = bsearch(&tasks[i].priority, values, distinct, sizeof *values, int_cmp);
        priority[i] = (int)(at - values) + 1;
    }
    free(values);
    return RTP_OK;
}

/* Audsley's OPA [Aud01]: levels 1 (lowest) .. n; at each, the unassigned tasks in
 * reverse DM order, the first whose response (all other unassigned tasks
 * above it) meets its deadline takes the level. */
static rtp_status opa(const rtp_task *tasks, size_t n, const size_t *dm,
                      int *priority, int *found, const rtp_limits *limits,
                      rtp_diag *diag)
{
    int *trial = calloc(n ? n : 1, sizeof *trial); /* calloc: -O3 sees n = 0 */
    if (!trial)
        return rtp_oom(diag);
    const int unassigned = (int)n + 1;
    for (size_t i = 0; i < n; i++)
        trial[i] = unassigned;
    /* With critical sections a candidate's blocking comes from the tasks
     * already below it (solver/locks.h), set in a copy before its test. */
    rtp_task *own = NULL;
    if (rtp_tasks_have_requests(tasks, n)) {
        if (!(own = malloc(n * sizeof *own))) {
            free(trial);
            return rtp_oom(diag);
        }
        memcpy(own, tasks, n * sizeof *own);
    }
    rta_ctx c;
    rtp_status st = ctx_init(&c, own ? own : tasks, n, trial, limits);
    c.verdict = 1; /* a candidate only passes or not */
    *found = 1;
    for (int level = 1; st == RTP_OK && level <= (int)n && *found; level++) {
        *found = 0;
        for (size_t k = n; k-- > 0 && st == RTP_OK && !*found;) {
            size_t cand = dm[k];
            if (trial[cand] != unassigned)
                continue;
            trial[cand] = level;
            c.first_i = n; /* the priorities changed: interference's cache too */
            rtp_ns r;
            if (own && rtp_add(tasks[cand].blocking_ns,
                               rtp_locks_fp_term(tasks, n, trial, cand, NULL),
                               &own[cand].blocking_ns) != RTP_OK)
                st = rtp_diag_set(diag, RTP_ELIMIT, "", "blocking passes 2^62 ns");
            if (st == RTP_OK)
                st = task_wcrt(&c, cand, 0, &r, NULL, diag);
            if (st == RTP_OK && r >= 0)
                *found = 1;
            else
                trial[cand] = unassigned;
        }
    }
    if (st == RTP_OK && *found)
        for (size_t i = 0; i < n; i++)
            priority[i] = trial[i];
    ctx_free(&c);
    free(own);
    free(trial);
    return st;
}

int rtp_fp_dm_optimal(const rtp_task *tasks, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (tasks[i].jitter_ns != 0 || tasks[i].blocking_ns != 0 || tasks[i].n_requests != 0 ||
            tasks[i].deadline_ns > tasks[i].period_ns)
            return 0;
    return 1;
}

rtp_status rtp_fp_assign(const rtp_task *tasks, size_t n, rtp_prio_rule rule,
                         int *priority, int *found, const rtp_limits *limits,
                         rtp_diag *diag)
{
    *found = 1;
    if (rule == RTP_PRIO_GIVEN)
        return given_ranking(tasks, n, priority, diag);
    size_t *order = malloc((n ? n : 1) * sizeof *order);
    if (!order)
        return rtp_oom(diag);
    rtp_status st = monotonic_order(tasks, n, rule == RTP_PRIO_RM ? RTP_PRIO_RM : RTP_PRIO_DM,
                                    order);
    if (st == RTP_OK) {
        for (size_t r = 0; r < n; r++)
            priority[order[r]] = (int)(n - r);
        if (rule == RTP_PRIO_OPA && rtp_fp_dm_optimal(tasks, n)) {
            /* OPA's first candidate at each level is the DM one, which
             * passes there exactly when DM passes; when DM fails no order
             * passes: OPA's answer is DM's (docs/spec.md "Priorities") */
            st = rtp_fp_verdict(tasks, n, priority, found, limits, diag);
        } else if (rule == RTP_PRIO_OPA) {
            st = opa(tasks, n, order, priority, found, limits, diag);
        }
    }
    free(order);
    return st;
}
