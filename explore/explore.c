/* explore/explore.c — evaluating one sweep point (see explore.h): generate
 * each set, run every policy x method on it, time each run.
 *
 * Acceptance: a method accepts a set when its plan is feasible (every task
 * placed, every CPU passing the exact test of the policy). The ILP accepts on
 * "optimal" and on a time limit with a verified plan in hand; a time limit
 * without one, or RTP_ELIMIT from any method, is a time-out: neither accepted
 * nor a failure of the sweep. Any other error stops the sweep (the lowest
 * failing set index seen is reported). */
#include "explore/explore.h"
#include "heuristics/partition.h"
#include "ilp/ilp.h"

#include <omp.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { OUT_REJECTED = 0, OUT_ACCEPTED = 1, OUT_TIMEOUT = 2 };

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static rtp_status run_method(const rtp_sweep *sw, const rtp_taskset *ts, const int *cpus,
                             size_t m, rtp_policy policy, rtp_explore_method method,
                             unsigned char *outcome, rtp_diag *diag)
{
    static const rtp_placement placement[] = {RTP_PLACE_FF, RTP_PLACE_BF, RTP_PLACE_WF,
                                              RTP_PLACE_NF};
    rtp_part_opts po = rtp_part_opts_default();
    po.policy = policy;
    po.priority = sw->priority;
    po.threads = 1; /* the sweep is already parallel over sets */
    rtp_plan plan;
    memset(&plan, 0, sizeof plan);
    rtp_status st;
    rtp_ilp_status ilp_status = RTP_ILP_OPTIMAL;
    if (method == RTP_EX_BEST) {
        st = rtp_part_best(ts, cpus, m, &po, &plan, diag);
    } else if (method == RTP_EX_ILP) {
        rtp_ilp_opts io = rtp_ilp_opts_default();
        io.part = po;
        io.time_limit_s = rtp_ratio_double(sw->doc.time_limit_s);
        rtp_ilp_stats stats;
        st = rtp_ilp_solve(ts, cpus, m, &io, &plan, &ilp_status, &stats, diag);
    } else {
        po.placement = placement[method];
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

/* One set: generate, then every policy x method (policy-major). */
static rtp_status run_set(const rtp_sweep *sw, size_t point, const rtp_gen_opts *gen,
                          const int *cpus, size_t index, unsigned char *outcome,
                          int64_t *time_ns, size_t stride, char **json, rtp_diag *diag)
{
    rtp_taskset ts;
    rtp_status st = rtp_gen_taskset(gen, (uint64_t)sw->doc.seed, sw->points[point].stream,
                                    index, &ts, diag);
    if (st != RTP_OK)
        return st;
    size_t m = (size_t)sw->points[point].cpus;
    for (size_t p = 0; p < sw->n_policies && st == RTP_OK; p++)
        for (size_t k = 0; k < sw->n_methods && st == RTP_OK; k++) {
            size_t cell = p * sw->n_methods + k;
            int64_t start = now_ns();
            st = run_method(sw, &ts, cpus, m, sw->policies[p], sw->methods[k],
                            &outcome[index * stride + cell], diag);
            time_ns[cell * (size_t)sw->doc.sets_per_point + index] = now_ns() - start;
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

rtp_status rtp_explore_point(const rtp_sweep *sw, size_t point, int threads,
                             rtp_explore_cell *cells, char **jsonl,
                             rtp_explore_progress progress, void *progress_ctx,
                             rtp_diag *diag)
{
    size_t sets = (size_t)sw->doc.sets_per_point, stride = sw->n_policies * sw->n_methods;
    size_t m = (size_t)sw->points[point].cpus;
    rtp_gen_opts gen = rtp_sweep_gen_opts(sw, point);
    unsigned char *outcome = calloc(sets * stride, 1);
    int64_t *time_ns = calloc(sets * stride, sizeof *time_ns);
    char **json = jsonl ? calloc(sets, sizeof *json) : NULL;
    int *cpus = malloc(m * sizeof *cpus);
    rtp_status st = RTP_OK;
    if (!outcome || !time_ns || !cpus || (jsonl && !json)) {
        st = rtp_diag_set(diag, RTP_ENOMEM, "", "out of memory");
        goto done;
    }
    for (size_t i = 0; i < m; i++)
        cpus[i] = (int)i;
    uint64_t finished = 0;
    size_t first_failure = sets; /* lowest failing index seen, under critical */
    rtp_status first_status = RTP_OK;
    int failed = 0;
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads > 0 ? threads : omp_get_max_threads())
    for (size_t i = 0; i < sets; i++) {
        int stop;
#pragma omp atomic read
        stop = failed;
        if (stop)
            continue;
        rtp_diag local;
        rtp_diag_clear(&local);
        rtp_status set_status = run_set(sw, point, &gen, cpus, i, outcome, time_ns, stride,
                                        json ? &json[i] : NULL, &local);
        uint64_t done_now;
#pragma omp atomic capture
        done_now = ++finished;
        if (set_status != RTP_OK) {
#pragma omp critical(rtp_explore_failure)
            if (i < first_failure) {
                first_failure = i;
                first_status = set_status;
                *diag = local;
            }
#pragma omp atomic write
            failed = 1;
        }
        if (progress && omp_get_thread_num() == 0)
            progress(progress_ctx, done_now, sets);
    }
    if (first_failure < sets) {
        st = first_status;
        goto done;
    }
    for (size_t c = 0; c < stride; c++) {
        rtp_explore_cell *cell = &cells[c];
        memset(cell, 0, sizeof *cell);
        for (size_t i = 0; i < sets; i++) { /* index order */
            unsigned char o = outcome[i * stride + c];
            cell->accepted += o == OUT_ACCEPTED;
            cell->timeouts += o == OUT_TIMEOUT;
        }
        cell->total = (int64_t)sets;
        int64_t *t = &time_ns[c * sets];
        qsort(t, sets, sizeof *t, cmp_i64);
        cell->median_ns = rank(t, sets, 50);
        cell->p99_ns = rank(t, sets, 99);
    }
    if (progress)
        progress(progress_ctx, sets, sets);
    if (jsonl && !(*jsonl = join_lines(json, sets)))
        st = rtp_diag_set(diag, RTP_ENOMEM, "", "out of memory");
done:
    for (size_t i = 0; json && i < sets; i++)
        free(json[i]);
    free(json);
    free(outcome);
    free(time_ns);
    free(cpus);
    return st;
}
