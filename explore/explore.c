/* explore/explore.c — evaluating sweep points (see explore.h): generate
 * each set, run every policy x method on it, time each run; points overlap
 * (the next one's sets start while the oldest one's last sets finish) and
 * are committed in order (struct run below).
 *
 * Acceptance: a method accepts a set when its plan is feasible (every task
 * placed, every CPU passing the exact test of the policy). The ILP accepts on
 * "optimal" and on a time limit with a verified plan in hand; a time limit
 * without one, or RTP_ELIMIT from any method, is a time-out: neither accepted
 * nor a failure of the sweep; so is a method stopped by the per-set time
 * limit (opts->set_time_limit_ns becomes the rtp_limits deadline of that one
 * call, which the tests, the packing loop and the ILP check cooperatively).
 * Any other error stops the sweep (the failure of the lowest point, and in
 * it of the lowest set index, seen is reported; the points before it are
 * committed, as when points ran one by one). An interrupt stops taking sets and stops the ones running;
 * those are not recorded (they are redone on --resume). */
#include "explore/explore_internal.h"
#include "heuristics/partition.h"
#include "ilp/ilp.h"
#include "models/effective.h"
#include "solver/locks.h"

#include <errno.h>
#include <omp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

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

/* One point in flight: its sets, their JSON lines, what is left to do. */
typedef struct slot {
    size_t j;                /* position in the run: point first + j * step */
    explore_sets sets;
    char **json;             /* NULL without sets.jsonl */
    size_t next;             /* next set to hand out */
    size_t left;             /* sets not finished yet */
} slot;

/* The shared state of a run's parallel region, touched under one critical
 * section (rtp_explore_state). Points are handed out set by set in order,
 * and the next point's sets start while the oldest point's last sets
 * finish (a thread waits only when two points are in flight and the
 * newer one's sets are all handed out, and a point's files are written
 * while the other threads work); at most two points are in flight, so the
 * journal's promise (explore_journal.c) covers every finished set, also
 * across a crash between a point's rows and the journal's rewrite
 * (explore_journal_load's prev). A point is committed once whole, oldest
 * first, by one thread at a time. */
typedef struct run {
    const rtp_sweep *sw;
    const rtp_explore_opts *o;
    size_t first, step, count, n_sets, stride;
    int *cpus;               /* 0 .. max CPUs - 1 */
    slot slots[2];           /* slots[j % 2] holds point j, for base <= j < base + 2 */
    size_t base;             /* oldest point not committed */
    size_t cursor;           /* point whose sets are being handed out */
    int committing;          /* a thread is committing slots[base % 2] */
    int stop;                /* a failure: hand out no more sets */
    size_t failure_key;      /* (j, index) of the first failure, SIZE_MAX = none */
    rtp_status failure;
    rtp_diag *diag;
    const char *journal_path;
    FILE *journal;           /* NULL: none */
    int64_t flushed_ns;      /* last fflush of the journal */
    rtp_explore_tally *tally;
    explore_commit commit;
    void *commit_ctx;
} run;

static void fail(run *r, size_t j, size_t index, rtp_status st, const rtp_diag *d)
{
    size_t key = j * (r->n_sets + 1) + index;
    if (key < r->failure_key) {
        r->failure_key = key;
        r->failure = st;
        *r->diag = *d;
    }
    r->stop = 1;
}

/* Empties slots[j % 2] for point j. */
static void slot_reset(run *r, size_t j)
{
    slot *s = &r->slots[j % 2];
    s->j = j;
    s->next = 0;
    s->left = r->n_sets;
    memset(s->sets.outcome, 0, r->n_sets * r->stride);
    memset(s->sets.done, 0, r->n_sets);
    memset(s->sets.time_ns, 0, r->n_sets * r->stride * sizeof *s->sets.time_ns);
    for (size_t i = 0; s->json && i < r->n_sets; i++) {
        free(s->json[i]);
        s->json[i] = NULL;
    }
}

/* Set i of slot s finished (under the state lock): the tally, the
 * journal, the progress callback. */
static void log_set(run *r, slot *s, size_t i)
{
    const unsigned char *outcome = &s->sets.outcome[i * r->stride];
    for (size_t c = 0; c < r->stride; c++)
        r->tally->timeouts += outcome[c] == OUT_TIMEOUT;
    r->tally->sets_done++;
    if (r->journal) {
        size_t line = s->j == r->base ? i : r->n_sets + i;
        explore_journal_put(r->journal, line, &s->sets, i, r->stride, r->n_sets);
        int64_t now = rtp_monotonic_ns();
        if (now - r->flushed_ns >= 1000000000) { /* a crash loses at most ~1 s */
            fflush(r->journal);
            r->flushed_ns = now;
        }
    }
    if (r->o->progress)
        r->o->progress(r->o->progress_ctx, r->tally);
}

/* The cells of a whole point: counts in index order, timing ranks. */
static void point_cells(const run *r, slot *s, rtp_explore_cell *cells)
{
    size_t sets = r->n_sets;
    for (size_t c = 0; c < r->stride; c++) {
        rtp_explore_cell *cell = &cells[c];
        memset(cell, 0, sizeof *cell);
        for (size_t i = 0; i < sets; i++) { /* index order */
            unsigned char out = s->sets.outcome[i * r->stride + c];
            cell->accepted += out == OUT_ACCEPTED;
            cell->timeouts += out == OUT_TIMEOUT;
        }
        cell->total = (int64_t)sets;
        int64_t *t = &s->sets.time_ns[c * sets];
        qsort(t, sets, sizeof *t, cmp_i64);
        cell->median_ns = rank(t, sets, 50);
        cell->p99_ns = rank(t, sets, 99);
    }
}

/* After point base was committed (under the state lock): the journal now
 * names the next point (its sets finished so far rewritten with their own
 * indices, into the replacement that *install says the caller must put in
 * place), its slot becomes point base + 2's. */
static rtp_status advance(run *r, int *install)
{
    size_t j = r->base + 1;
    rtp_status st = RTP_OK;
    r->tally->points_done++;
    if (r->journal) {
        fclose(r->journal);
        r->journal = NULL;
        if (j < r->count) {
            /* closed first: the old journal on disk holds the next point's
             * sets in case a crash comes before the rename */
            r->journal = explore_journal_rewrite(r->journal_path, r->sw, r->first + j * r->step,
                                                 &r->slots[j % 2].sets, r->stride, r->n_sets);
            if (!r->journal)
                st = explore_io_error(r->diag, r->journal_path, "write");
            *install = r->journal != NULL;
            r->flushed_ns = rtp_monotonic_ns();
        } else if (unlink(r->journal_path) != 0 && errno != ENOENT) {
            st = explore_io_error(r->diag, r->journal_path, "remove");
        }
    }
    if (r->base + 2 < r->count)
        slot_reset(r, r->base + 2);
    r->base = j;
    if (r->o->progress)
        r->o->progress(r->o->progress_ctx, r->tally);
    return st;
}

/* 1 when the oldest point is whole and no failure stops it (a failure in
 * a later point leaves it to be committed, as when points ran one by one). */
static int whole(const run *r)
{
    return r->base < r->count && r->slots[r->base % 2].left == 0 &&
           r->failure_key >= (r->base + 1) * (r->n_sets + 1);
}

/* Commits whole points, oldest first, while the calling thread holds the
 * commit; the files are written outside the state lock. */
static void commit_points(run *r, rtp_explore_cell *cells, rtp_text *jsonl)
{
    for (;;) {
        slot *s = &r->slots[r->base % 2];
        size_t j = r->base;
        point_cells(r, s, cells);
        rtp_diag d;
        rtp_diag_clear(&d);
        rtp_status st = RTP_OK;
        jsonl->len = 0;
        for (size_t i = 0; s->json && i < r->n_sets; i++)
            rtp_text_append(jsonl, s->json[i]);
        if (s->json && rtp_text_status(jsonl) != RTP_OK)
            st = rtp_diag_set(&d, RTP_ENOMEM, "", "out of memory");
        if (st == RTP_OK)
            st = r->commit(r->commit_ctx, r->first + j * r->step, cells,
                           s->json ? (jsonl->data ? jsonl->data : "") : NULL, &d);
        int more, install = 0, fd = -1;
#pragma omp critical(rtp_explore_state)
        {
            if (st == RTP_OK && (st = advance(r, &install)) != RTP_OK)
                d = *r->diag;
            if (install)
                fd = fileno(r->journal);
            if (st != RTP_OK)
                fail(r, j, r->n_sets, st, &d);
            more = whole(r);
            if (!install)
                r->committing = more;
        }
        if (install) {
            /* The new journal goes in place outside the lock (its fsyncs
             * take milliseconds), still holding the commit, so no other
             * thread writes a replacement meanwhile; sets finished in
             * between are appended to it already. */
            if (explore_journal_install(r->journal_path, fd) != 0)
                st = explore_io_error(&d, r->journal_path, "write");
#pragma omp critical(rtp_explore_state)
            {
                if (st != RTP_OK)
                    fail(r, j, r->n_sets, st, &d);
                more = whole(r);
                r->committing = more;
            }
        }
        if (!more)
            return;
    }
}

/* One thread's work: take a set, run it, record it; commit what is whole. */
static void work(run *r, rtp_explore_cell *cells, rtp_text *jsonl)
{
    for (;;) {
        slot *s = NULL;
        size_t i = 0;
        int analyse = 0, quit = 0, wait = 0, commit = 0;
#pragma omp critical(rtp_explore_state)
        {
            if (!r->committing && whole(r))
                commit = r->committing = 1;
            while (!commit && !s && !quit && !wait) {
                slot *c = &r->slots[r->cursor % 2];
                if (r->stop || interrupted(r->o) || r->cursor >= r->count)
                    quit = 1;
                else if (r->cursor >= r->base + 2)
                    wait = 1; /* the oldest point's last sets still run */
                else if (c->next == r->n_sets)
                    r->cursor++;
                else if (c->sets.done[c->next] && !c->json)
                    c->next++;
                else {
                    s = c;
                    i = c->next++;
                    analyse = !c->sets.done[i];
                }
            }
        }
        if (commit) {
            commit_points(r, cells, jsonl);
            continue;
        }
        if (quit)
            return;
        if (wait) {
            struct timespec nap = {0, 200000};
            nanosleep(&nap, NULL);
            continue;
        }
        rtp_diag local;
        rtp_diag_clear(&local);
        size_t point = r->first + s->j * r->step;
        rtp_status st = run_set(r->sw, r->o, point, r->cpus, i, analyse, s->sets.outcome,
                                s->sets.time_ns, r->stride, s->json ? &s->json[i] : NULL,
                                &local);
#pragma omp critical(rtp_explore_state)
        {
            if (st != RTP_OK) {
                fail(r, s->j, i, st, &local);
            } else if (!interrupted(r->o)) { /* a set cut by the interrupt is redone */
                if (analyse) {
                    log_set(r, s, i);
                    s->sets.done[i] = 1;
                }
                s->left--;
            }
        }
    }
}

static rtp_status slots_alloc(run *r, int want_jsonl)
{
    for (int k = 0; k < 2; k++) {
        slot *s = &r->slots[k];
        s->sets.outcome = calloc(r->n_sets * r->stride, 1);
        s->sets.done = calloc(r->n_sets, 1);
        s->sets.time_ns = calloc(r->n_sets * r->stride, sizeof *s->sets.time_ns);
        s->json = want_jsonl ? calloc(r->n_sets, sizeof *s->json) : NULL;
        if (!s->sets.outcome || !s->sets.done || !s->sets.time_ns || (want_jsonl && !s->json))
            return RTP_ENOMEM;
        s->j = (size_t)k;
        s->left = r->n_sets;
    }
    return RTP_OK;
}

static void slots_free(run *r)
{
    for (int k = 0; k < 2; k++) {
        slot *s = &r->slots[k];
        for (size_t i = 0; s->json && i < r->n_sets; i++)
            free(s->json[i]);
        free(s->json);
        free(s->sets.outcome);
        free(s->sets.done);
        free(s->sets.time_ns);
    }
}

rtp_status explore_points_run(const rtp_sweep *sw, size_t first, size_t step, size_t count,
                              const rtp_explore_opts *o, const char *journal,
                              rtp_explore_tally *tally, int want_jsonl, explore_commit commit,
                              void *commit_ctx, rtp_diag *diag)
{
    run r = {.sw = sw, .o = o, .first = first, .step = step, .count = count,
             .n_sets = (size_t)sw->doc.sets_per_point, .stride = sw->n_policies * sw->n_methods};
    r.failure_key = SIZE_MAX;
    r.diag = diag;
    r.journal_path = journal;
    r.flushed_ns = rtp_monotonic_ns();
    r.tally = tally;
    r.commit = commit;
    r.commit_ctx = commit_ctx;
    int threads = o->threads > 0 ? o->threads : omp_get_max_threads();
    size_t m = 1;
    for (size_t j = 0; j < count; j++)
        if ((size_t)sw->points[first + j * step].cpus > m)
            m = (size_t)sw->points[first + j * step].cpus;
    rtp_status st = RTP_OK;
    if (count == 0)
        return RTP_OK;
    r.cpus = malloc(m * sizeof *r.cpus);
    if (!r.cpus || slots_alloc(&r, want_jsonl) != RTP_OK) {
        st = rtp_diag_set(diag, RTP_ENOMEM, "", "out of memory");
        goto done;
    }
    for (size_t i = 0; i < m; i++)
        r.cpus[i] = (int)i;
    if (journal) {
        explore_sets at[2] = {r.slots[0].sets, r.slots[1].sets};
        size_t n_done[2] = {0, 0};
        int moved = 0;
        if ((st = explore_journal_load(journal, sw, first, first >= step ? first - step : SIZE_MAX,
                                       at, count > 1 ? 2 : 1, n_done, &moved, diag)) != RTP_OK)
            goto done;
        for (size_t k = 0; k < 2 && k < count; k++) {
            size_t n = n_done[k] < tally->sets_total ? n_done[k] : tally->sets_total;
            tally->sets_total -= n;
            if (!want_jsonl)
                r.slots[k].left -= n_done[k];
        }
        r.journal = moved ? explore_journal_rewrite(journal, sw, first, &at[0], r.stride, r.n_sets)
                          : explore_journal_open(journal, sw, first);
        if (!r.journal || (moved && explore_journal_install(journal, fileno(r.journal)) != 0)) {
            st = explore_io_error(diag, journal, "write");
            goto done;
        }
    }
#pragma omp parallel num_threads(threads)
    {
        rtp_explore_cell *cells = calloc(r.stride, sizeof *cells);
        rtp_text jsonl;
        rtp_text_init(&jsonl);
        if (cells) {
            work(&r, cells, &jsonl);
        } else {
            rtp_diag d;
            rtp_diag_clear(&d);
            rtp_diag_set(&d, RTP_ENOMEM, "", "out of memory");
#pragma omp critical(rtp_explore_state)
            fail(&r, 0, 0, RTP_ENOMEM, &d);
        }
        free(cells);
        rtp_text_free(&jsonl);
    }
    if (r.journal && fclose(r.journal) != 0 && r.failure_key == SIZE_MAX) {
        r.journal = NULL;
        st = explore_io_error(diag, journal, "write");
        goto done;
    }
    r.journal = NULL;
    if (r.failure_key != SIZE_MAX)
        st = r.failure;
    else if (r.base < count)
        st = rtp_diag_set(diag, RTP_ELIMIT, "", "interrupted");
done:
    if (r.journal)
        fclose(r.journal);
    slots_free(&r);
    free(r.cpus);
    return st;
}

/* rtp_explore_point's commit: the cells and lines to the caller. */
typedef struct point_out {
    rtp_explore_cell *cells;
    size_t n_cells;
    char **jsonl;
} point_out;

static rtp_status keep_point(void *ctx, size_t point, const rtp_explore_cell *cells,
                             const char *jsonl, rtp_diag *diag)
{
    point_out *out = ctx;
    (void)point;
    memcpy(out->cells, cells, out->n_cells * sizeof *cells);
    if (out->jsonl && !(*out->jsonl = strdup(jsonl)))
        return rtp_diag_set(diag, RTP_ENOMEM, "", "out of memory");
    return RTP_OK;
}

rtp_status rtp_explore_point(const rtp_sweep *sw, size_t point, const rtp_explore_opts *o,
                             rtp_explore_cell *cells, char **jsonl, rtp_diag *diag)
{
    rtp_explore_tally tally = {0, (uint64_t)sw->doc.sets_per_point, 0, 0, 1};
    point_out out = {cells, sw->n_policies * sw->n_methods, jsonl};
    return explore_points_run(sw, point, 1, 1, o, NULL, &tally, jsonl != NULL, keep_point, &out,
                              diag);
}
