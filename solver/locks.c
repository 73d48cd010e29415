/* solver/locks.c — blocking from critical sections (see locks.h). */
#include "solver/locks.h"

#include "models/arith.h"
#include "solver/fmlp.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

rtp_status rtp_locks_place(const rtp_resource *resources, size_t n_resources,
                           const rtp_task *tasks, size_t n, const size_t *cpu_of,
                           size_t n_bins, rtp_task *out, rtp_request **store,
                           rtp_diag *diag)
{
    size_t total = 0;
    for (size_t i = 0; i < n; i++)
        total += tasks[i].n_requests;
    *store = NULL;
    /* longest[r * n_bins + c]: the longest section on resource r of a task
     * on bin c (0 when none uses it there). */
    rtp_ns *longest = calloc(n_resources * n_bins + 1, sizeof *longest);
    rtp_request *req = malloc((total ? total : 1) * sizeof *req);
    rtp_status st = RTP_OK;
    if (!longest || !req) {
        st = rtp_oom(diag);
        goto done;
    }
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < tasks[i].n_requests; k++) {
            const rtp_request *q = &tasks[i].requests[k];
            rtp_ns *at = &longest[q->resource * n_bins + cpu_of[i]];
            rtp_ns held = rtp_task_held(&tasks[i], k);
            if (held > *at)
                *at = held;
        }
    size_t used = 0;
    for (size_t i = 0; i < n; i++) {
        out[i] = tasks[i];
        out[i].requests = tasks[i].n_requests ? req + used : NULL;
        for (size_t k = 0; k < tasks[i].n_requests; k++) {
            rtp_request *q = &req[used++];
            *q = tasks[i].requests[k];
            const rtp_ns *row = &longest[q->resource * n_bins];
            size_t bins = 0;
            rtp_i128 spin = 0;
            for (size_t c = 0; c < n_bins; c++) {
                bins += row[c] > 0;
                if (c != cpu_of[i])
                    spin += row[c]; /* <= n_bins 2^62 */
            }
            const rtp_resource *res = &resources[q->resource];
            if (bins > 1 && res->protocol == RTP_LOCK_CEILING) {
                char path[48];
                snprintf(path, sizeof path, "resources[%zu].protocol", q->resource);
                st = rtp_diag_set(diag, RTP_EINPUT, path,
                                  "\"%.40s\" is used on several CPUs, where a ceiling protocol "
                                  "does not apply; keep its users on one CPU or drop the "
                                  "protocol (MSRP)", res->name);
                goto done;
            }
            /* FMLP+ waits suspended: no spin, no non-preemptive section */
            q->np = !q->susp && (bins > 1 || res->protocol == RTP_LOCK_MSRP);
            if (!q->np)
                spin = 0;
            rtp_i128 charge = (rtp_i128)q->count * spin + out[i].wcet_ns;
            if (spin > RTP_NS_LIMIT || charge > RTP_NS_LIMIT) {
                st = rtp_diag_set(diag, RTP_ELIMIT, "", "%s: the spin of its critical sections "
                                  "passes 2^62 ns", tasks[i].name ? tasks[i].name : "a task");
                goto done;
            }
            q->spin_ns = (rtp_ns)spin;
            out[i].wcet_ns = (rtp_ns)charge;
        }
    }
    *store = req;
    req = NULL; /* the caller's now */
done:
    free(longest);
    free(req);
    return st;
}

rtp_ns rtp_locks_spin(const rtp_task *task)
{
    rtp_ns spin = 0;
    for (size_t k = 0; k < task->n_requests; k++)
        spin += task->requests[k].count * task->requests[k].spin_ns;
    return spin;
}

/* Does some task u other than `skip` with priority[u] >= level use resource
 * r? (The ceiling of r is at or above level [SRL90].) */
static int used_at_or_above(const rtp_task *tasks, size_t n, const int *priority, int level,
                            size_t r)
{
    for (size_t u = 0; u < n; u++)
        if (priority[u] >= level)
            for (size_t k = 0; k < tasks[u].n_requests; k++)
                if (tasks[u].requests[k].resource == r)
                    return 1;
    return 0;
}

rtp_ns rtp_locks_fp_term(const rtp_task *tasks, size_t n, const int *priority, size_t i,
                         size_t *binding)
{
    rtp_ns best = 0;
    size_t bind = RTP_LOCKS_NONE;
    for (size_t j = 0; j < n; j++) {
        if (priority[j] >= priority[i])
            continue;
        for (size_t k = 0; k < tasks[j].n_requests; k++) {
            const rtp_request *q = &tasks[j].requests[k];
            if (q->susp)
                continue; /* FMLP+: boosted, not a ceiling section (solver/fmlp.h) */
            /* A non-preemptive section blocks every job above it; a ceiling
             * section only jobs at or below its resource's ceiling. */
            rtp_ns held = rtp_task_held(&tasks[j], k);
            rtp_ns len = q->np ? q->spin_ns + held : held;
            if (len > best &&
                (q->np || used_at_or_above(tasks, n, priority, priority[i], q->resource))) {
                best = len;
                bind = q->resource;
            }
        }
    }
    if (binding)
        *binding = bind;
    return best;
}

rtp_status rtp_locks_fp_blocking(const rtp_task *tasks, size_t n, const int *priority,
                                 rtp_task *out, rtp_diag *diag)
{
    /* all terms first: out may alias tasks, and a term reads every task */
    rtp_ns *term = malloc((n ? n : 1) * sizeof *term);
    if (!term)
        return rtp_oom(diag);
    for (size_t i = 0; i < n; i++)
        term[i] = rtp_locks_fp_term(tasks, n, priority, i, NULL);
    for (size_t i = 0; i < n; i++) {
        out[i] = tasks[i];
        if (rtp_add(tasks[i].blocking_ns, term[i], &out[i].blocking_ns) != RTP_OK) {
            free(term);
            return rtp_diag_set(diag, RTP_ELIMIT, "", "%s: blocking passes 2^62 ns",
                                tasks[i].name ? tasks[i].name : "a task");
        }
    }
    free(term);
    return RTP_OK;
}

static rtp_ns dstar(const rtp_task *t)
{
    return t->deadline_ns - t->jitter_ns;
}

/* The smallest deadline among the users of resource r: r's SRP ceiling is
 * at or above the preemption level of k iff it is <= D_k [Bak91]. */
static rtp_ns ceiling_deadline(const rtp_task *tasks, size_t n, size_t r)
{
    rtp_ns d = INT64_MAX;
    for (size_t u = 0; u < n; u++)
        for (size_t k = 0; k < tasks[u].n_requests; k++)
            if (tasks[u].requests[k].resource == r && tasks[u].deadline_ns < d)
                d = tasks[u].deadline_ns;
    return d;
}

/* What task j's x-th request can hold against a job of k: 0 when it cannot
 * block k. */
static rtp_ns holds_against(const rtp_task *tasks, size_t n, size_t k, size_t j, size_t x)
{
    if (j == k)
        return 0;
    const rtp_request *q = &tasks[j].requests[x];
    rtp_ns held = rtp_task_held(&tasks[j], x);
    if (q->np)
        return q->spin_ns + held;
    return ceiling_deadline(tasks, n, q->resource) <= tasks[k].deadline_ns ? held : 0;
}

/* Task k's term of b(t), the given blocking left out (D*_k <= t). */
static rtp_i128 edf_term(const rtp_task *tasks, size_t n, size_t k, rtp_ns t, size_t *binding)
{
    rtp_ns srp = 0, np = 0;
    size_t r_srp = RTP_LOCKS_NONE, r_np = RTP_LOCKS_NONE;
    for (size_t j = 0; j < n; j++) {
        if (tasks[j].deadline_ns <= t)
            continue;
        for (size_t x = 0; x < tasks[j].n_requests; x++) {
            const rtp_request *q = &tasks[j].requests[x];
            rtp_ns h = holds_against(tasks, n, k, j, x);
            if (q->np && h > np) {
                np = h;
                r_np = q->resource;
            } else if (!q->np && h > srp) {
                srp = h;
                r_srp = q->resource;
            }
        }
    }
    /* With release jitter, jobs that started while k had arrived but was
     * not yet released (t < D_s < D_k: a later absolute deadline, a higher
     * preemption level) sit on the stack above the ceiling holder and run
     * before k too (docs/spec.md "Shared resources"); none when J'_k = 0
     * (t >= D_k then). */
    rtp_i128 term = srp;
    for (size_t s = 0; srp > 0 && s < n; s++)
        if (s != k && tasks[s].deadline_ns > t && tasks[s].deadline_ns < tasks[k].deadline_ns)
            term += tasks[s].wcet_ns; /* <= n 2^62 */
    *binding = r_srp;
    if (np > term) {
        term = np;
        *binding = r_np;
    }
    return term;
}

rtp_ns rtp_locks_edf_b(const rtp_task *tasks, size_t n, rtp_ns t, size_t *binding)
{
    rtp_i128 b = 0;
    size_t bind = RTP_LOCKS_NONE;
    for (size_t k = 0; k < n; k++) {
        if (dstar(&tasks[k]) > t)
            continue;
        size_t r;
        rtp_i128 term = edf_term(tasks, n, k, t, &r) + tasks[k].blocking_ns;
        if (term > b) {
            b = term;
            bind = r;
        }
    }
    if (binding)
        *binding = bind;
    /* past 2^62 ns every demand test fails (t <= 2^62): saturate there */
    return b > RTP_NS_LIMIT ? RTP_NS_LIMIT + 1 : (rtp_ns)b;
}

/* The largest point of demand change (D* + mT >= 1, m >= 0) below t, 0
 * when none; the smallest above t, INT64_MAX when none. */
static rtp_ns step_below(const rtp_task *tasks, size_t n, rtp_ns t)
{
    rtp_ns best = 0;
    for (size_t i = 0; i < n; i++) {
        rtp_ns d = dstar(&tasks[i]);
        if (d >= t)
            continue;
        rtp_ns s = d + (t - 1 - d) / tasks[i].period_ns * tasks[i].period_ns;
        if (s >= 1 && s > best)
            best = s;
    }
    return best;
}

static rtp_ns step_above(const rtp_task *tasks, size_t n, rtp_ns t)
{
    rtp_ns best = INT64_MAX;
    for (size_t i = 0; i < n; i++) {
        rtp_ns d = dstar(&tasks[i]), s;
        if (d > t)
            s = d;
        else if (rtp_add(d, ((t - d) / tasks[i].period_ns + 1) * tasks[i].period_ns, &s) !=
                 RTP_OK)
            continue; /* (t - d) < 2^63 and the product <= t - d + T: fits int64 */
        if (s < best)
            best = s;
    }
    return best;
}

typedef struct walk {
    const rtp_task *tasks;
    size_t n;
    uint64_t steps, max_steps;
    const rtp_limits *limits;
    rtp_diag *diag;
} walk;

/* *fails = dbf(t) + beta > t. */
static rtp_status over(walk *w, rtp_ns t, rtp_ns beta, rtp_ns *load, int *fails)
{
    if (++w->steps > w->max_steps)
        return rtp_diag_set(w->diag, RTP_ELIMIT, "",
                            "the blocking intervals' search passed %llu steps (--max-iterations)",
                            (unsigned long long)w->max_steps);
    if ((w->steps & 1023) == 0 && rtp_limits_check(w->limits, w->diag) != RTP_OK)
        return RTP_ELIMIT;
    rtp_ns d;
    if (rtp_edf_dbf(w->tasks, w->n, t, &d) != RTP_OK || rtp_add(d, beta, load) != RTP_OK)
        return rtp_diag_set(w->diag, RTP_ELIMIT, "", "the demand passes 2^62 ns");
    *fails = *load > t;
    return RTP_OK;
}

/* Is dbf(t) + beta <= t on [lo, hi]? QPA's backward walk [ZB09]: from h =
 * dbf(t) + beta < t every t' in [h, t] passes (dbf is non-decreasing); at h
 * = t the demand is constant down to the previous step. *fail = a failing
 * point (not the smallest), 0 when none. */
static rtp_status interval(walk *w, rtp_ns lo, rtp_ns hi, rtp_ns beta, rtp_ns *fail)
{
    *fail = 0;
    for (rtp_ns t = hi;;) {
        rtp_ns h;
        int bad;
        rtp_status st = over(w, t, beta, &h, &bad);
        if (st != RTP_OK)
            return st;
        if (bad) {
            *fail = t;
            return RTP_OK;
        }
        if (t == lo)
            return RTP_OK;
        if (h < t) {
            if (h < lo)
                return RTP_OK;
            t = h;
        } else {
            rtp_ns s = step_below(w->tasks, w->n, t);
            t = s < lo ? lo : s;
        }
    }
}

/* The smallest failing t of [lo, hi] (one is known to exist): lo and every
 * demand step above it, in order. */
static rtp_status first_in(walk *w, rtp_ns lo, rtp_ns hi, rtp_ns beta, rtp_ns *first)
{
    for (rtp_ns t = lo; t <= hi; t = step_above(w->tasks, w->n, t)) {
        rtp_ns h;
        int bad;
        rtp_status st = over(w, t, beta, &h, &bad);
        if (st != RTP_OK)
            return st;
        if (bad) {
            *first = t;
            return RTP_OK;
        }
    }
    return rtp_diag_set(w->diag, RTP_EINTERNAL, "", "locks: a failing interval without a failure");
}

static int ns_cmp(const void *a, const void *b)
{
    rtp_ns x = *(const rtp_ns *)a, y = *(const rtp_ns *)b;
    return (x > y) - (x < y);
}

rtp_status rtp_locks_edf_qpa(const rtp_task *tasks, size_t n, int want_first_miss,
                             const rtp_limits *limits, rtp_edf_result *result,
                             rtp_diag *diag)
{
    rtp_status st;
    /* The bound below (b(t) with the started-jobs term E_k) counts one job
     * per task on the preemption stack and lets no job of k's own task hold
     * a section against k. Both hold only while a task's jobs are released
     * in order, J' <= T: with J' > T two jobs of one task can be on the
     * stack, and a later job of k's task can hold a resource against k
     * (counterexamples in docs/spec.md "Shared resources"). Not analysed:
     * exit 3, never a plain "schedulable" (SPEC's SRP-with-jitter rule). */
    int any_requests = 0;
    for (size_t j = 0; j < n; j++)
        any_requests |= tasks[j].n_requests > 0;
    for (size_t j = 0; any_requests && j < n; j++)
        if (tasks[j].jitter_ns > tasks[j].period_ns)
            return rtp_diag_set(diag, RTP_ELIMIT, "",
                                "EDF with shared resources: task %s has release jitter J' = "
                                "%" PRId64 " ns above its period %" PRId64 " ns; the SRP "
                                "blocking bound is established only for J' <= T",
                                tasks[j].name ? tasks[j].name : "(unnamed)",
                                tasks[j].jitter_ns, tasks[j].period_ns);
    /* From t_last = the largest deadline of a task with requests on, no
     * section can block (D_j > t fails for all), and b(t) is the given
     * blocking's: rtp_edf_qpa decides there, and it is a necessary
     * condition everywhere (b(t) >= the given term). */
    if ((st = rtp_edf_qpa(tasks, n, want_first_miss, limits, result, diag)) != RTP_OK)
        return st;
    rtp_ns t_last = 0;
    for (size_t j = 0; j < n; j++)
        if (tasks[j].n_requests > 0 && tasks[j].deadline_ns > t_last)
            t_last = tasks[j].deadline_ns;
    /* b changes only where a task enters (D*_k) or leaves the blockers or
     * the started jobs of the jitter term (D_j). */
    rtp_ns *pts = malloc((2 * n + 1) * sizeof *pts);
    if (!pts)
        return rtp_oom(diag);
    size_t m = 0;
    pts[m++] = 1;
    for (size_t i = 0; i < n; i++) {
        if (dstar(&tasks[i]) > 1 && dstar(&tasks[i]) < t_last)
            pts[m++] = dstar(&tasks[i]);
        if (tasks[i].deadline_ns < t_last)
            pts[m++] = tasks[i].deadline_ns;
    }
    qsort(pts, m, sizeof *pts, ns_cmp);
    size_t u = 0;
    for (size_t a = 0; a < m; a++)
        if (u == 0 || pts[a] != pts[u - 1])
            pts[u++] = pts[a];
    walk w = {tasks, n, 0, limits && limits->max_iterations ? limits->max_iterations : UINT64_MAX,
              limits, diag};
    rtp_ns fail = 0;
    for (size_t a = 0; a < u && st == RTP_OK && !fail; a++) {
        rtp_ns lo = pts[a], hi = (a + 1 < u ? pts[a + 1] : t_last) - 1;
        if (hi < lo)
            continue;
        rtp_ns beta = rtp_locks_edf_b(tasks, n, lo, NULL);
        if ((st = interval(&w, lo, hi, beta, &fail)) == RTP_OK && fail && want_first_miss)
            st = first_in(&w, lo, hi, beta, &fail);
    }
    free(pts);
    if (st != RTP_OK || !fail)
        return st;
    if (result->schedulable) {
        result->has_first_miss = want_first_miss;
        result->first_miss_ns = fail;
    } else if (result->has_first_miss && fail < result->first_miss_ns) {
        result->first_miss_ns = fail; /* a set over U > 1 keeps "no first miss" */
    }
    result->schedulable = 0;
    return RTP_OK;
}

rtp_status rtp_locks_partitioned(const rtp_resource *resources, size_t n_resources,
                                 const rtp_task *tasks, size_t n, const size_t *cpu_of,
                                 size_t n_bins, const rtp_test *test, int *schedulable,
                                 rtp_locks_task *out, rtp_diag *diag)
{
    *schedulable = 1;
    rtp_request *store = NULL;
    rtp_task *placed = malloc((n ? n : 1) * sizeof *placed);
    rtp_task *bin = malloc((n ? n : 1) * sizeof *bin);
    size_t *index = malloc((n ? n : 1) * sizeof *index);
    int *prio = malloc((n ? n : 1) * sizeof *prio);
    rtp_ns *resp = malloc((n ? n : 1) * sizeof *resp);
    rtp_status st = RTP_OK;
    if (!placed || !bin || !index || !prio || !resp) {
        st = rtp_oom(diag);
        goto done;
    }
    if ((st = rtp_locks_place(resources, n_resources, tasks, n, cpu_of, n_bins, placed, &store,
                              diag)) != RTP_OK)
        goto done;
    if (rtp_fmlp_present(placed, n)) {
        int found;
        if (test->policy != RTP_POLICY_FP)
            st = rtp_diag_set(diag, RTP_EINPUT, "resources",
                              "fmlp+ (a suspension-based protocol) is analysed under fp only");
        else
            st = rtp_fmlp_partitioned(placed, n, cpu_of, n_bins, test->priority, &test->limits,
                                      schedulable, &found, out, diag);
        goto done;
    }
    for (size_t c = 0; c < n_bins && st == RTP_OK; c++) {
        size_t m = 0;
        for (size_t i = 0; i < n; i++)
            if (cpu_of[i] == c) {
                index[m] = i;
                bin[m++] = placed[i];
            }
        if (m == 0)
            continue;
        rtp_test_result r = {0};
        r.priority = prio;
        r.response_time = resp;
        if ((st = rtp_test_run(test, bin, m, &r, diag)) != RTP_OK)
            break;
        *schedulable = *schedulable && r.schedulable;
        for (size_t x = 0; x < m; x++) {
            rtp_locks_task *o = &out[index[x]];
            o->spin_ns = rtp_locks_spin(&bin[x]);
            o->suspension_ns = 0;
            if (test->policy == RTP_POLICY_FP) {
                o->priority = prio[x];
                o->response_ns = resp[x];
                o->blocking_ns = rtp_locks_fp_term(bin, m, prio, x, &o->binding);
            } else {
                /* k's own term is largest at t = D*_k: blockers only leave */
                rtp_ns t = dstar(&bin[x]) < 1 ? 1 : dstar(&bin[x]);
                rtp_i128 term = edf_term(bin, m, x, t, &o->binding);
                o->priority = 0;
                o->response_ns = -1;
                o->blocking_ns = term > RTP_NS_LIMIT ? RTP_NS_LIMIT + 1 : (rtp_ns)term;
            }
        }
    }
done:
    free(store);
    free(placed);
    free(bin);
    free(index);
    free(prio);
    free(resp);
    return st;
}
