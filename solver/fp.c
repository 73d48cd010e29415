/* solver/fp.c — exact uniprocessor fixed-priority response times and
 * priority assignment.
 *
 * Response time of task i ([Leh90], arbitrary deadlines; [JP86] / [ABRTW93]
 * when one job suffices): from the synchronous
 * release, job q (released at a = q T_i) completes at the least fixed point of
 *   w = (q + 1) C_i + sum_{j higher} ceil(w / T_j) C_j;
 * R_q = w - a; jobs are examined while the level-i busy period lasts past
 * (q + 1) T_i. The iteration starts at a valid lower bound (the previous
 * job's completion, or all first jobs' work) and stops as soon as w passes
 * a + D_i: the response is then reported as -1 (a miss).
 * Equal priorities run first-in first-out (SCHED_FIFO), the jobs released at
 * or before i's, ties included, first (worst case). Then the synchronous
 * release of i is NOT the worst case (an equal-priority job released just
 * before i's, delayed by higher ones, still runs first): the higher and
 * equal tasks are released together at 0 (their critical instant) and i's
 * job at every r in the synchronous level-i busy period where an equal task
 * or i (phase 0) releases (R = w - r only falls between them), its earlier
 * jobs at r - k T_i >= 0, and
 *   w = (floor(r / T_i) + 1) C_i + sum_{j equal} (floor(r / T_j) + 1) C_j
 *     + sum_{j higher} ceil(w / T_j) C_j;
 * an r is skipped when that release pattern leaves the CPU idle by r (the
 * job then starts a later busy period, covered by another r).
 * When the level-i utilization exceeds 1 (exact, models/ratio.h) the busy
 * period never ends and responses grow without bound: a miss.
 * Sums are 128-bit and saturate at 2^100, so nothing overflows. */
#include "solver/fp.h"

#include "models/ratio.h"

#include <stdio.h>
#include <stdlib.h>

typedef __int128 i128;
#define SATURATED ((i128)1 << 100)

typedef struct rta_ctx {
    const rtp_task *tasks;
    size_t n;
    const int *priority;
    rtp_task *scratch; /* n entries, for the level-i load check */
    uint64_t used, max_iterations;
} rta_ctx;

static rtp_status spend(rta_ctx *c, rtp_diag *diag)
{
    if (++c->used <= c->max_iterations)
        return RTP_OK;
    return rtp_diag_set(diag, RTP_ELIMIT, "",
                        "fixed-priority response-time iteration passed %llu steps",
                        (unsigned long long)c->max_iterations);
}

/* sum over tasks j != i with priority[j] above (equal too, when with_equal)
 * of ceil(w / T_j) C_j, saturated. */
static i128 interference(const rta_ctx *c, size_t i, rtp_ns w, int with_equal)
{
    i128 sum = 0;
    int p = c->priority[i];
    for (size_t j = 0; j < c->n && sum < SATURATED; j++) {
        if (j == i || c->priority[j] < p || (c->priority[j] == p && !with_equal))
            continue;
        rtp_ns jobs = (w - 1) / c->tasks[j].period_ns + 1; /* ceil, w >= 1 */
        sum += (i128)jobs * c->tasks[j].wcet_ns;
    }
    return sum;
}

/* Is the utilization of the level-i tasks (priority >= p_i) above 1? */
static int level_overloaded(const rta_ctx *c, size_t i)
{
    size_t m = 0;
    for (size_t j = 0; j < c->n; j++)
        if (c->priority[j] >= c->priority[i])
            c->scratch[m++] = c->tasks[j];
    rtp_ratio one = {1, 1};
    return rtp_load_cmp(c->scratch, m, RTP_LOAD_UTIL, one) > 0;
}

/* Work released in [0, t) when the tasks at or above priority p (but i) are
 * released at 0 and i at phase, phase + T_i, ... (saturated). */
static i128 phased_work(const rta_ctx *c, size_t i, rtp_ns phase, rtp_ns t)
{
    i128 sum = interference(c, i, t, 1);
    if (t > phase)
        sum += (i128)((t - phase - 1) / c->tasks[i].period_ns + 1) * c->tasks[i].wcet_ns;
    return sum;
}

/* With i released at phase (> 0), does the level-i busy period from 0 last
 * past r? */
static rtp_status busy_past(rta_ctx *c, size_t i, rtp_ns phase, rtp_ns r, int *busy,
                            rtp_diag *diag)
{
    i128 t = phased_work(c, i, phase, 1);
    for (;;) {
        if (t > r) {
            *busy = 1;
            return RTP_OK;
        }
        rtp_status st = spend(c, diag);
        if (st != RTP_OK)
            return st;
        i128 t2 = phased_work(c, i, phase, (rtp_ns)t);
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
static rtp_status settle(rta_ctx *c, size_t i, i128 own, i128 deadline, i128 *w, int *miss,
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
        i128 next = own + interference(c, i, (rtp_ns)*w, 0);
        if (next <= *w)
            return RTP_OK;
        *w = next;
    }
}

/* Worst-case response of task i with equal-priority tasks (FIFO among them),
 * over the releases r described at the top; -1 when one passes D_i. */
static rtp_status fifo_wcrt(rta_ctx *c, size_t i, rtp_ns *response, rtp_diag *diag)
{
    const rtp_task *ti = &c->tasks[i];
    int p = c->priority[i];
    *response = -1;
    if (level_overloaded(c, i))
        return RTP_OK; /* the busy period never ends: a miss */
    /* The synchronous level-i busy period (its least fixed point). */
    i128 busy = ti->wcet_ns + interference(c, i, 1, 1);
    for (;;) {
        rtp_status st = spend(c, diag);
        if (st != RTP_OK)
            return st;
        if (busy > INT64_MAX)
            return rtp_diag_set(diag, RTP_ELIMIT, "",
                                "fixed-priority busy period passes 2^63 ns");
        i128 next = phased_work(c, i, 0, (rtp_ns)busy);
        if (next <= busy)
            break;
        busy = next;
    }
    i128 worst = 0;
    for (rtp_ns r = 0; r < (rtp_ns)busy;) {
        rtp_ns phase = r % ti->period_ns;
        int in_busy = 1;
        rtp_status st = phase == 0 ? RTP_OK : busy_past(c, i, phase, r, &in_busy, diag);
        if (st != RTP_OK)
            return st;
        if (in_busy) {
            i128 own = (i128)(r / ti->period_ns + 1) * ti->wcet_ns, w;
            for (size_t j = 0; j < c->n; j++)
                if (j != i && c->priority[j] == p)
                    own += (i128)(r / c->tasks[j].period_ns + 1) * c->tasks[j].wcet_ns;
            w = own > (i128)r + 1 ? own : (i128)r + 1;
            int miss = 0;
            if ((st = settle(c, i, own, (i128)r + ti->deadline_ns, &w, &miss, diag)) != RTP_OK ||
                miss)
                return st;
            if (w - r > worst)
                worst = w - r;
        }
        /* the next release of i (phase 0) or of an equal-priority task */
        rtp_ns next = INT64_MAX;
        for (size_t j = 0; j < c->n; j++) {
            if (j != i && c->priority[j] != p)
                continue;
            rtp_ns tj = c->tasks[j].period_ns, at = r / tj * tj;
            at = at > INT64_MAX - tj ? INT64_MAX : at + tj;
            if (at < next)
                next = at;
        }
        r = next;
    }
    *response = (rtp_ns)worst;
    return RTP_OK;
}

/* Worst-case response of task i, or -1 when some job misses its deadline. */
static rtp_status task_wcrt(rta_ctx *c, size_t i, rtp_ns *response, rtp_diag *diag)
{
    const rtp_task *ti = &c->tasks[i];
    int p = c->priority[i];
    i128 first_jobs = 0;
    for (size_t j = 0; j < c->n; j++) {
        if (j == i || c->priority[j] < p)
            continue;
        if (c->priority[j] == p)
            return fifo_wcrt(c, i, response, diag);
        first_jobs += c->tasks[j].wcet_ns;
    }
    /* Only higher priorities: the synchronous release is the critical
     * instant; jobs 0, 1, ... while the level-i busy period lasts. */
    i128 w = first_jobs + ti->wcet_ns, worst = 0;
    *response = -1;
    for (rtp_ns q = 0;; q++) {
        i128 a = (i128)q * ti->period_ns, next = a + ti->period_ns;
        if (next > INT64_MAX)
            return rtp_diag_set(diag, RTP_ELIMIT, "",
                                "fixed-priority busy period passes 2^63 ns");
        i128 own = (i128)(q + 1) * ti->wcet_ns; /* jobs 0..q */
        if (w < own)
            w = own;
        int miss = 0;
        rtp_status st = settle(c, i, own, a + ti->deadline_ns, &w, &miss, diag);
        if (st != RTP_OK || miss)
            return st;
        if (w - a > worst)
            worst = w - a;
        if (w <= next)
            break; /* w is then also where the level-i busy period ends */
        if (q == 0 && level_overloaded(c, i))
            return RTP_OK; /* the busy period never ends: a miss */
        w += ti->wcet_ns; /* job q + 1 completes at least C_i later */
    }
    *response = (rtp_ns)worst;
    return RTP_OK;
}

static rtp_status ctx_init(rta_ctx *c, const rtp_task *tasks, size_t n,
                           const int *priority, const rtp_limits *limits)
{
    c->tasks = tasks;
    c->n = n;
    c->priority = priority;
    c->used = 0;
    c->max_iterations = (limits ? *limits : rtp_limits_default()).max_iterations;
    c->scratch = malloc((n ? n : 1) * sizeof *c->scratch);
    return c->scratch ? RTP_OK : RTP_ENOMEM;
}

rtp_status rtp_fp_rta(const rtp_task *tasks, size_t n, const int *priority,
                      rtp_ns *response_time, int *schedulable,
                      const rtp_limits *limits, rtp_diag *diag)
{
    rta_ctx c;
    rtp_status st = ctx_init(&c, tasks, n, priority, limits);
    *schedulable = 1;
    for (size_t i = 0; i < n && st == RTP_OK; i++) {
        st = task_wcrt(&c, i, &response_time[i], diag);
        if (response_time[i] < 0)
            *schedulable = 0;
    }
    free(c.scratch);
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
        return RTP_ENOMEM;
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
    int *trial = malloc((n ? n : 1) * sizeof *trial);
    if (!trial)
        return RTP_ENOMEM;
    const int unassigned = (int)n + 1;
    for (size_t i = 0; i < n; i++)
        trial[i] = unassigned;
    rta_ctx c;
    rtp_status st = ctx_init(&c, tasks, n, trial, limits);
    *found = 1;
    for (int level = 1; st == RTP_OK && level <= (int)n && *found; level++) {
        *found = 0;
        for (size_t k = n; k-- > 0 && st == RTP_OK && !*found;) {
            size_t cand = dm[k];
            if (trial[cand] != unassigned)
                continue;
            trial[cand] = level;
            rtp_ns r;
            st = task_wcrt(&c, cand, &r, diag);
            if (st == RTP_OK && r >= 0)
                *found = 1;
            else
                trial[cand] = unassigned;
        }
    }
    if (st == RTP_OK && *found)
        for (size_t i = 0; i < n; i++)
            priority[i] = trial[i];
    free(c.scratch);
    free(trial);
    return st;
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
        return RTP_ENOMEM;
    rtp_status st = monotonic_order(tasks, n, rule == RTP_PRIO_RM ? RTP_PRIO_RM : RTP_PRIO_DM,
                                    order);
    if (st == RTP_OK) {
        for (size_t r = 0; r < n; r++)
            priority[order[r]] = (int)(n - r);
        if (rule == RTP_PRIO_OPA)
            st = opa(tasks, n, order, priority, found, limits, diag);
    }
    free(order);
    return st;
}
