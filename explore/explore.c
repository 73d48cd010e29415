/* explore/explore.c — evaluating one sweep point (see explore.h): generate
 * each set, run every policy x method on it, time each run.
 *
 * Acceptance: a method accepts a set when its plan is feasible (every task
 * placed, every CPU passing the exact test of the policy). The ILP accepts on
 * "optimal" and on a time limit with a verified plan in hand; a time limit
 * without one, or RTP_ELIMIT from any method, is a time-out: neither accepted
 * nor a failure of the sweep; so is a method stopped by the per-set time
 * limit (opts->set_time_limit_ns becomes the rtp_limits deadline of that one
 * call, which the tests, the packing loop and the ILP check cooperatively).
 * Any other error stops the sweep (the lowest failing set index seen is
 * reported). An interrupt stops taking sets and stops the ones running;
 * those are not recorded (they are redone on --resume). */
#include "explore/explore_internal.h"
#include "heuristics/partition.h"
#include "ilp/ilp.h"
#include "models/effective.h"
#include "solver/locks.h"

#include <omp.h>
#include <stdlib.h>
#include <string.h>

enum { OUT_REJECTED = EXPLORE_REJECTED, OUT_ACCEPTED = EXPLORE_ACCEPTED,
       OUT_TIMEOUT = EXPLORE_TIMEOUT };

static int interrupted(const rtp_explore_opts *o)
{
    return o->interrupt && *o->interrupt;
}

static int cmp_name(const void *a, const void *b, void *tasks)
{
    const rtp_task *t = tasks;
    return strcmp(t[*(const size_t *)a].name, t[*(const size_t *)b].name);
}

/* The lock-oblivious baseline: first fit decreasing on the set without its
 * requests, then the placement checked with them by the lock-aware exact
 * test (solver/locks.h), as a lock-unaware tool would place and a real
 * system would then run it. *accepted = the plan places every task and
 * passes that check. */
static rtp_status oblivious(const rtp_taskset *ts, const int *cpus, size_t m, rtp_part_opts po,
                            int *accepted, rtp_diag *diag)
{
    size_t n = ts->n_tasks, nn = n ? n : 1;
    rtp_taskset bare = *ts;
    rtp_task *tasks = malloc(nn * sizeof *tasks), *placed = malloc(nn * sizeof *placed);
    size_t *by_name = malloc(nn * sizeof *by_name), *cpu = malloc(nn * sizeof *cpu);
    rtp_locks_task *out = malloc(nn * sizeof *out);
    rtp_plan plan;
    memset(&plan, 0, sizeof plan);
    *accepted = 0;
    rtp_status st = tasks && placed && by_name && cpu && out ? RTP_OK : rtp_oom(diag);
    for (size_t i = 0; st == RTP_OK && i < n; i++) {
        tasks[i] = ts->tasks[i];
        tasks[i].requests = NULL;
        tasks[i].n_requests = 0;
        by_name[i] = i;
    }
    bare.tasks = tasks;
    bare.resources = NULL;
    bare.n_resources = 0;
    po.placement = RTP_PLACE_FF;
    po.order = RTP_ORDER_UTIL;
    if (st == RTP_OK)
        st = rtp_part_pack(&bare, cpus, m, &po, &plan, diag);
    if (st == RTP_OK && plan.feasible && plan.n_unassigned == 0) {
        qsort_r(by_name, n, sizeof *by_name, cmp_name, tasks);
        size_t at = 0; /* the placed tasks, bin by bin, with their requests back */
        for (size_t j = 0; j < plan.n_bins; j++)
            for (size_t k = 0; k < plan.bins[j].n_tasks; k++, at++) {
                size_t lo = 0, hi = n; /* the task of this name */
                while (hi - lo > 1) {
                    size_t mid = (lo + hi) / 2;
                    if (strcmp(tasks[by_name[mid]].name, plan.bins[j].tasks[k].task.name) > 0)
                        hi = mid;
                    else
                        lo = mid;
                }
                placed[at] = ts->tasks[by_name[lo]];
                cpu[at] = j;
            }
        rtp_test test = rtp_test_exact(po.policy, po.priority, 1, po.limits);
        if ((st = rtp_effective_tasks(placed, n, &ts->platform.overheads, po.policy, placed,
                                      diag)) == RTP_OK)
            st = rtp_locks_partitioned(ts->resources, ts->n_resources, placed, n, cpu,
                                       plan.n_bins, &test, accepted, out, diag);
    }
    rtp_plan_free(&plan);
    free(tasks);
    free(placed);
    free(by_name);
    free(cpu);
    free(out);
    return st;
}

static rtp_status run_method(const rtp_sweep *sw, const rtp_explore_opts *o,
                             const rtp_taskset *ts, const int *cpus, size_t m,
                             rtp_policy policy, rtp_explore_method method, int64_t start,
                             unsigned char *outcome, rtp_diag *diag)
{
    static const rtp_placement placement[] = {RTP_PLACE_FF, RTP_PLACE_BF, RTP_PLACE_WF,
                                              RTP_PLACE_NF};
    rtp_part_opts po = rtp_part_opts_default();
    po.policy = policy;
    po.priority = sw->priority;
    po.threads = 1; /* the sweep is already parallel over sets */
    po.limits.interrupt = o->interrupt;
    po.limits.deadline_ns = o->set_time_limit_ns > 0 ? start + o->set_time_limit_ns : 0;
    rtp_plan plan;
    memset(&plan, 0, sizeof plan);
    rtp_status st;
    rtp_ilp_status ilp_status = RTP_ILP_OPTIMAL;
    if (method == RTP_EX_FFD_OBLIVIOUS) {
        int accepted;
        st = oblivious(ts, cpus, m, po, &accepted, diag);
        plan.feasible = accepted;
    } else if (method == RTP_EX_BEST) {
        st = rtp_part_best(ts, cpus, m, &po, &plan, diag);
    } else if (method == RTP_EX_ILP || method == RTP_EX_ILP_COLOCATE) {
        rtp_ilp_opts io = rtp_ilp_opts_default();
        io.part = po;
        io.colocate = method == RTP_EX_ILP_COLOCATE;
        io.time_limit_s = rtp_ratio_double(sw->doc.time_limit_s);
        rtp_ilp_stats stats;
        st = rtp_ilp_solve(ts, cpus, m, &io, &plan, &ilp_status, &stats, diag);
    } else {
        po.placement = method == RTP_EX_SFD ? RTP_PLACE_SF : placement[method];
        po.order = RTP_ORDER_UTIL;
        st = rtp_part_pack(ts, cpus, m, &po, &plan, diag);
    }
    if (st == RTP_OK)
        *outcome = plan.feasible ? OUT_ACCEPTED
                   : ilp_status == RTP_ILP_TIME_LIMIT ? OUT_TIMEOUT : OUT_REJECTED;
    else if (st == RTP_ELIMIT)
        *outcome = OUT_TIMEOUT;
    rtp_plan_free(&plan);
    return st == RTP_ELIMIT ? RTP_OK : st;
}

/* One set: draw it (rtp_sweep_taskset, the one draw Python's Sweep makes
 * too), then (when analyse) every policy x method (policy-major). */
static rtp_status run_set(const rtp_sweep *sw, const rtp_explore_opts *o, size_t point,
                          const int *cpus, size_t index, int analyse, unsigned char *outcome,
                          int64_t *time_ns, size_t stride, char **json, rtp_diag *diag)
{
    rtp_taskset ts;
    rtp_status st = rtp_sweep_taskset(sw, point, index, &ts, diag);
    if (st != RTP_OK)
        return st;
    size_t m = (size_t)sw->points[point].cpus;
    for (size_t p = 0; analyse && p < sw->n_policies && st == RTP_OK; p++)
        for (size_t k = 0; k < sw->n_methods && st == RTP_OK; k++) {
            size_t cell = p * sw->n_methods + k;
            int64_t start = rtp_monotonic_ns();
            st = run_method(sw, o, &ts, cpus, m, sw->policies[p], sw->methods[k], start,
                            &outcome[index * stride + cell], diag);
            time_ns[cell * (size_t)sw->doc.sets_per_point + index] = rtp_monotonic_ns() - start;
        }
    if (st == RTP_OK && json) {
        ts.has_platform = 1;
        ts.platform.cpus_given_as_count = 1;
        ts.platform.n_cpus = m;
        ts.platform.cpus = malloc(m * sizeof(int));
        if (ts.platform.cpus)
            memcpy(ts.platform.cpus, cpus, m * sizeof(int));
        if (!ts.platform.cpus || !(*json = rtp_taskset_to_json(&ts, 0)))
            st = rtp_diag_set(diag, RTP_ENOMEM, "", "out of memory");
    }
    rtp_taskset_free(&ts);
    return st;
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Nearest-rank percentile q/100 of n sorted values. */
static int64_t rank(const int64_t *sorted, size_t n, int q)
{
    size_t r = (n * (size_t)q + 99) / 100;
    return sorted[r == 0 ? 0 : r - 1];
}

static char *join_lines(char **lines, size_t n)
{
    size_t total = 1;
    for (size_t i = 0; i < n; i++)
        total += strlen(lines[i]);
    char *out = malloc(total), *at = out;
    for (size_t i = 0; out && i < n; i++) {
        size_t len = strlen(lines[i]);
        memcpy(at, lines[i], len);
        at += len;
    }
    if (out)
        *at = '\0';
    return out;
}

/* The bookkeeping of one point's parallel loop, touched under one critical
 * section: the journal, the tally, the progress callback. */
typedef struct point_log {
    FILE *journal;           /* NULL: none */
    int64_t flushed_ns;      /* last fflush of the journal */
    rtp_explore_tally *tally;
    const rtp_explore_opts *o;
} point_log;

static void log_set(point_log *log, size_t i, const unsigned char *outcome,
                    const int64_t *time_ns, size_t stride, size_t sets)
{
    for (size_t c = 0; c < stride; c++)
        log->tally->timeouts += outcome[i * stride + c] == OUT_TIMEOUT;
    log->tally->sets_done++;
    if (log->journal) {
        explore_journal_put(log->journal, i, outcome, time_ns, stride, sets);
        int64_t now = rtp_monotonic_ns();
        if (now - log->flushed_ns >= 1000000000) { /* a crash loses at most ~1 s */
            fflush(log->journal);
            log->flushed_ns = now;
        }
    }
    if (log->o->progress)
        log->o->progress(log->o->progress_ctx, log->tally);
}

rtp_status explore_point_run(const rtp_sweep *sw, size_t point, const rtp_explore_opts *o,
                             const char *journal, rtp_explore_tally *tally,
                             rtp_explore_cell *cells, char **jsonl, rtp_diag *diag)
{
    size_t sets = (size_t)sw->doc.sets_per_point, stride = sw->n_policies * sw->n_methods;
    size_t m = (size_t)sw->points[point].cpus, n_done = 0;
    unsigned char *outcome = calloc(sets * stride, 1), *done = calloc(sets, 1);
    int64_t *time_ns = calloc(sets * stride, sizeof *time_ns);
    char **json = jsonl ? calloc(sets, sizeof *json) : NULL;
    int *cpus = malloc(m * sizeof *cpus);
    point_log log = {NULL, rtp_monotonic_ns(), tally, o};
    rtp_status st = RTP_OK;
    if (!outcome || !done || !time_ns || !cpus || (jsonl && !json)) {
        st = rtp_diag_set(diag, RTP_ENOMEM, "", "out of memory");
        goto done;
    }
    for (size_t i = 0; i < m; i++)
        cpus[i] = (int)i;
    if (journal) {
        if ((st = explore_journal_load(journal, sw, point, outcome, time_ns, done, &n_done,
                                       diag)) != RTP_OK)
            goto done;
        tally->sets_total -= n_done < tally->sets_total ? n_done : tally->sets_total;
        if (!(log.journal = explore_journal_open(journal, sw, point))) {
            st = explore_io_error(diag, journal, "write");
            goto done;
        }
    }
    size_t first_failure = sets; /* lowest failing index seen, under critical */
    rtp_status first_status = RTP_OK;
    int failed = 0;
#pragma omp parallel for schedule(dynamic, 1) num_threads(o->threads > 0 ? o->threads : omp_get_max_threads())
    for (size_t i = 0; i < sets; i++) {
        int stop;
#pragma omp atomic read
        stop = failed;
        if (stop || interrupted(o) || (done[i] && !json))
            continue;
        rtp_diag local;
        rtp_diag_clear(&local);
        rtp_status set_status = run_set(sw, o, point, cpus, i, !done[i], outcome, time_ns, stride,
                                        json ? &json[i] : NULL, &local);
        if (set_status != RTP_OK) {
#pragma omp critical(rtp_explore_failure)
            if (i < first_failure) {
                first_failure = i;
                first_status = set_status;
                *diag = local;
            }
#pragma omp atomic write
            failed = 1;
        } else if (!done[i] && !interrupted(o)) { /* a set cut by the interrupt is redone */
#pragma omp critical(rtp_explore_log)
            log_set(&log, i, outcome, time_ns, stride, sets);
            done[i] = 1;
        }
    }
    if (log.journal && fclose(log.journal) != 0 && first_failure == sets) {
        log.journal = NULL;
        st = explore_io_error(diag, journal, "write");
        goto done;
    }
    log.journal = NULL;
    if (first_failure < sets) {
        st = first_status;
        goto done;
    }
    for (size_t i = 0; i < sets; i++)
        if (!done[i]) {
            st = rtp_diag_set(diag, RTP_ELIMIT, "", "interrupted");
            goto done;
        }
    for (size_t c = 0; c < stride; c++) {
        rtp_explore_cell *cell = &cells[c];
        memset(cell, 0, sizeof *cell);
        for (size_t i = 0; i < sets; i++) { /* index order */
            unsigned char out = outcome[i * stride + c];
            cell->accepted += out == OUT_ACCEPTED;
            cell->timeouts += out == OUT_TIMEOUT;
        }
        cell->total = (int64_t)sets;
        int64_t *t = &time_ns[c * sets];
        qsort(t, sets, sizeof *t, cmp_i64);
        cell->median_ns = rank(t, sets, 50);
        cell->p99_ns = rank(t, sets, 99);
    }
    if (jsonl && !(*jsonl = join_lines(json, sets)))
        st = rtp_diag_set(diag, RTP_ENOMEM, "", "out of memory");
done:
    if (log.journal)
        fclose(log.journal);
    for (size_t i = 0; json && i < sets; i++)
        free(json[i]);
    free(json);
    free(outcome);
    free(done);
    free(time_ns);
    free(cpus);
    return st;
}

rtp_status rtp_explore_point(const rtp_sweep *sw, size_t point, const rtp_explore_opts *o,
                             rtp_explore_cell *cells, char **jsonl, rtp_diag *diag)
{
    rtp_explore_tally tally = {0, (uint64_t)sw->doc.sets_per_point, 0, 0, 1};
    return explore_point_run(sw, point, o, NULL, &tally, cells, jsonl, diag);
}
