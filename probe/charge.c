/* probe/charge.c — the SCHED_DEADLINE charge and the noise (see charge.h).
 * A worker thread runs the jobs, a monitor thread reads the kernel's CPU
 * time of the worker between them; they share only the job counters and
 * the per-job arrays, written before the counter that publishes them. */
#include "probe/charge.h"
#include "probe/threads.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

const rtp_ns rtp_probe_charge_lengths[RTP_PROBE_CHARGE_LENGTHS] = {0, 100000, 1000000, 10000000};

/* Shares of the run per length: the short jobs give the fixed part most of
 * its samples, the long ones the slope (and fewer of them fit). */
static const int share[RTP_PROBE_CHARGE_LENGTHS] = {2, 2, 1, 3};
#define MAX_JOBS ((size_t)1 << 16) /* per worker, at most */
#define MONITOR_NAP_NS ((rtp_ns)20000)

typedef struct worker {
    const rtp_probe_job *run;
    int cpu;
    const char *join;
    rtp_gate *gate;
    _Atomic long tid;          /* set once the thread runs */
    _Atomic uint64_t started;  /* jobs begun (job k begins: started = k + 1) */
    _Atomic uint64_t done;     /* jobs ended (job k ends: done = k + 1) */
    _Atomic int finished;
    /* per job, written by the worker before `done` publishes it */
    int8_t *len;               /* length index; -1 = a baseline job (not a sample) */
    int64_t *own, *wall;
    int8_t *throttled;
    size_t cap;                /* entries of each per-job array */
    /* per job, written by the monitor */
    int64_t *consumed;         /* -1 = not read */
    int err;
    char what[96];
    int left_behind;
} worker;

static int stopped(const rtp_probe_job *run)
{
    return run->stop && *run->stop;
}

/* Runtime far above L, period three times that (charge.h). */
static rtp_ns runtime_for(rtp_ns len)
{
    return len + len / 4 + 500000;
}

/* One job: busy until `len` ns of own execution have passed. */
static void job(rtp_ns len, int64_t *own_out, int64_t *wall_out)
{
    rtp_ns t0 = rtp_thread_now(), prev = t0, own = 0;
    while (own < len) {
        rtp_ns t = rtp_thread_now(), step = t - prev;
        if (step <= RTP_CHARGE_STEP_NS)
            own += step;
        prev = t;
    }
    *own_out = own;
    *wall_out = prev - t0;
}

/* The jobs of one length until `end`: a baseline job first (the monitor's
 * first reading), then samples. */
static void run_length(worker *w, int k, rtp_ns end)
{
    rtp_ns len = rtp_probe_charge_lengths[k], runtime = runtime_for(len);
    int rc = rtp_thread_policy(RTP_PROBE_DEADLINE, 0, runtime, 3 * runtime, 0);
    if (rc) {
        w->err = rc;
        snprintf(w->what, sizeof w->what, "sched_setattr(SCHED_DEADLINE) on CPU %d", w->cpu);
        return;
    }
    sched_yield(); /* start on the kernel's period */
    for (int first = 1; rtp_thread_now() < end && !stopped(w->run); first = 0) {
        uint64_t j = atomic_load(&w->started);
        if (j >= w->cap)
            break;
        atomic_store(&w->started, j + 1);
        int64_t own, wall;
        job(len, &own, &wall);
        w->len[j] = (int8_t)(first ? -1 : k);
        w->own[j] = own;
        w->wall[j] = wall;
        w->throttled[j] = wall > runtime;
        atomic_store(&w->done, j + 1);
        sched_yield();
    }
    rtp_thread_policy(RTP_PROBE_OTHER, 0, 0, 0, 0);
    /* The kernel frees a reservation's bandwidth only at its 0-lag time,
     * within a period of leaving SCHED_DEADLINE [LinuxDL]: wait that out,
     * or the next length's admission may find it still taken. */
    rtp_thread_sleep(3 * runtime);
}

static void *worker_thread(void *arg)
{
    worker *w = arg;
    const rtp_probe_job *run = w->run;
    rtp_thread_block_signals();
    atomic_store(&w->tid, (long)syscall(SYS_gettid));
    int err = w->join ? rtp_thread_join_cgroup(w->join) : 0;
    if (err) {
        w->err = err;
        snprintf(w->what, sizeof w->what, "joining the CPU %d cpuset", w->cpu);
    }
    if (rtp_gate_pass(w->gate) && !err) {
        int total = 0;
        for (int k = 0; k < RTP_PROBE_CHARGE_LENGTHS; k++)
            total += share[k];
        rtp_ns start = rtp_thread_now();
        for (int k = 0, before = 0; k < RTP_PROBE_CHARGE_LENGTHS && !w->err; k++) {
            before += share[k];
            run_length(w, k, start + run->duration_ns * before / total);
        }
    }
    if (w->join && run->leave_tasks && rtp_thread_join_cgroup(run->leave_tasks) != 0)
        w->left_behind = 1;
    atomic_store(&w->finished, 1);
    return NULL;
}

/* The kernel's CPU time of a thread (schedstat's first field), -1 on error. */
static int64_t cpu_time(int fd)
{
    char text[96];
    ssize_t n = pread(fd, text, sizeof text - 1, 0);
    if (n <= 0)
        return -1;
    text[n] = '\0';
    char *end;
    long long v = strtoll(text, &end, 10);
    return end == text ? -1 : (int64_t)v;
}

/* Reads the worker's CPU time after each job, while it waits for its next
 * period: valid when two reads agree and the next job has not begun. */
static void *monitor_thread(void *arg)
{
    worker *w = arg;
    rtp_thread_block_signals();
    if (w->join)
        rtp_thread_join_cgroup(w->join); /* same CPU: it runs while the worker waits */
    /* above every normal thread (a CPU hog too), below the worker */
    rtp_thread_policy(RTP_PROBE_FIFO, 1, 0, 0, 0);
    while (atomic_load(&w->tid) == 0 && !atomic_load(&w->finished))
        rtp_thread_sleep(MONITOR_NAP_NS);
    char path[64];
    snprintf(path, sizeof path, "/proc/self/task/%ld/schedstat", atomic_load(&w->tid));
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    uint64_t seen = 0;
    int64_t last = -1; /* the reading after job seen - 1, -1 = none */
    while (fd >= 0 && !atomic_load(&w->finished)) {
        uint64_t d = atomic_load(&w->done);
        if (d == seen) {
            rtp_thread_sleep(MONITOR_NAP_NS);
            continue;
        }
        rtp_thread_sleep(MONITOR_NAP_NS); /* let its sched_yield() finish */
        int64_t a = cpu_time(fd);
        rtp_thread_sleep(MONITOR_NAP_NS / 4);
        int64_t b = cpu_time(fd);
        int valid = a >= 0 && a == b && atomic_load(&w->started) == d && atomic_load(&w->done) == d;
        if (valid && last >= 0 && d == seen + 1)
            w->consumed[d - 1] = a - last;
        last = valid ? a : -1;
        seen = d;
    }
    if (fd >= 0)
        close(fd);
    rtp_thread_policy(RTP_PROBE_OTHER, 0, 0, 0, 0);
    if (w->join && w->run->leave_tasks && rtp_thread_join_cgroup(w->run->leave_tasks) != 0)
        w->left_behind = 1;
    return NULL;
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Nearest-rank 99.9th percentile of sorted values. */
static int64_t p999(const int64_t *sorted, size_t n)
{
    size_t rank = (size_t)(((unsigned __int128)n * 999 + 999) / 1000);
    return sorted[rank ? rank - 1 : 0];
}

/* The figures of one length over workers[0..n_workers-1]. */
static void summarize(const worker *ws, size_t n_workers, int k, int64_t *ex, int64_t *wall,
                      rtp_probe_charge_len *out)
{
    size_t n = 0, nw = 0;
    __int128 sum = 0;
    memset(out, 0, sizeof *out);
    out->length_ns = rtp_probe_charge_lengths[k];
    for (size_t i = 0; i < n_workers; i++) {
        const worker *w = &ws[i];
        uint64_t jobs = atomic_load(&w->done);
        for (uint64_t j = 0; j < jobs; j++) {
            if (w->len[j] != k)
                continue;
            if (w->throttled[j])
                out->throttled++;
            else
                wall[nw++] = w->wall[j] - w->own[j];
            if (w->consumed[j] < 0)
                continue;
            ex[n] = w->consumed[j] - w->own[j];
            sum += ex[n++];
        }
    }
    out->samples = n;
    if (n) {
        qsort(ex, n, sizeof *ex, cmp_i64);
        out->excess_mean_ns = (rtp_ns)(sum / (__int128)n);
        out->excess_p999_ns = p999(ex, n);
        out->excess_max_ns = ex[n - 1];
    }
    if (nw) {
        qsort(wall, nw, sizeof *wall, cmp_i64);
        out->wall_p999_ns = p999(wall, nw);
        out->wall_max_ns = wall[nw - 1];
    }
}

void rtp_probe_charge_fit(rtp_probe_charge *c)
{
    int lo = -1, hi = -1;
    for (int k = 0; k < RTP_PROBE_CHARGE_LENGTHS; k++)
        if (c->len[k].samples > 0) {
            if (lo < 0)
                lo = k;
            hi = k;
        }
    c->measured = lo >= 0;
    c->fixed_ns = c->per_ms_ns = 0;
    if (!c->measured)
        return;
    const rtp_probe_charge_len *a = &c->len[lo], *b = &c->len[hi];
    rtp_ns top = b->excess_max_ns > b->wall_max_ns ? b->excess_max_ns : b->wall_max_ns;
    rtp_ns span = b->length_ns - a->length_ns;
    if (span > 0 && top > a->excess_max_ns) /* ceil((top - base) x 1 ms / span) */
        c->per_ms_ns = (rtp_ns)(((__int128)(top - a->excess_max_ns) * 1000000 + span - 1) / span);
    if (c->per_ms_ns > 999999)
        c->per_ms_ns = 999999; /* below 1 ms (docs/spec.md) */
    for (int k = lo; k <= hi; k++) {
        const rtp_probe_charge_len *l = &c->len[k];
        if (l->samples == 0)
            continue;
        rtp_ns covered = (rtp_ns)((__int128)l->length_ns * c->per_ms_ns / 1000000);
        if (l->excess_max_ns - covered > c->fixed_ns)
            c->fixed_ns = l->excess_max_ns - covered;
    }
}

/* Room for every job the run can hold: the shortest period is 2 ms. */
static int alloc_worker(worker *w, rtp_ns duration)
{
    w->cap = (size_t)(duration / (3 * runtime_for(0))) + 64;
    if (w->cap > MAX_JOBS)
        w->cap = MAX_JOBS;
    w->len = rtp_thread_alloc_touched(w->cap * sizeof *w->len);
    w->own = rtp_thread_alloc_touched(w->cap * sizeof *w->own);
    w->wall = rtp_thread_alloc_touched(w->cap * sizeof *w->wall);
    w->throttled = rtp_thread_alloc_touched(w->cap * sizeof *w->throttled);
    w->consumed = rtp_thread_alloc_touched(w->cap * sizeof *w->consumed);
    if (!w->len || !w->own || !w->wall || !w->throttled || !w->consumed)
        return -1;
    memset(w->consumed, 0xff, w->cap * sizeof *w->consumed); /* -1 */
    return 0;
}

static void free_worker(worker *w)
{
    free(w->len);
    free(w->own);
    free(w->wall);
    free(w->throttled);
    free(w->consumed);
}

/* Per CPU figures (pinned), or every worker merged into each CPU. */
static int fill(worker *w, size_t n, int pinned, rtp_probe_charge *out)
{
    size_t room = 0;
    for (size_t i = 0; i < n; i++)
        room += w[i].cap;
    int64_t *ex = malloc(room * sizeof *ex), *wall = malloc(room * sizeof *wall);
    if (!ex || !wall) {
        free(ex);
        free(wall);
        return ENOMEM;
    }
    for (size_t i = 0; i < n; i++) {
        memset(&out[i], 0, sizeof out[i]);
        for (int k = 0; k < RTP_PROBE_CHARGE_LENGTHS; k++)
            summarize(pinned ? &w[i] : w, pinned ? 1 : n, k, ex, wall, &out[i].len[k]);
        rtp_probe_charge_fit(&out[i]);
    }
    free(ex);
    free(wall);
    return 0;
}

int rtp_probe_charge_run(const rtp_probe_job *run, rtp_probe_charge *out, char *why,
                         size_t why_size)
{
    size_t n = run->n_cpus, workers = 0, monitors = 0;
    worker *w = calloc(n, sizeof *w);
    pthread_t *tid = calloc(2 * n, sizeof *tid);
    rtp_gate g;
    int rc = 0;
    memset(out, 0, n * sizeof *out);
    if (!w || !tid) {
        rc = ENOMEM;
        goto done;
    }
    for (size_t i = 0; i < n; i++) {
        w[i].run = run;
        w[i].cpu = run->cpus[i];
        w[i].join = run->join_tasks ? run->join_tasks[i] : NULL;
        w[i].gate = &g;
        if (alloc_worker(&w[i], run->duration_ns) != 0) {
            rc = ENOMEM;
            goto done;
        }
    }
    rtp_gate_init(&g);
    for (; workers < n; workers++)
        if ((rc = pthread_create(&tid[workers], NULL, worker_thread, &w[workers])) != 0)
            break;
    for (; !rc && monitors < workers; monitors++)
        if ((rc = pthread_create(&tid[n + monitors], NULL, monitor_thread, &w[monitors])) != 0)
            break;
    /* the workers go only when every worker and monitor exists; a worker
     * ends with `finished` set either way, which ends its monitor */
    rtp_gate_open(&g, workers, monitors == n ? n : n + 1);
    for (size_t i = 0; i < workers; i++)
        pthread_join(tid[i], NULL);
    for (size_t i = 0; i < monitors; i++)
        pthread_join(tid[n + i], NULL);
    rtp_gate_destroy(&g);
    if (rc) {
        snprintf(why, why_size, "cannot start a measuring thread: %s", strerror(rc));
        goto done;
    }
    for (size_t i = 0; i < n && !rc; i++)
        if (w[i].err) {
            rc = w[i].err;
            snprintf(why, why_size, "%s: %s", w[i].what, strerror(rc));
        }
    for (size_t i = 0; i < n && !rc; i++)
        if (w[i].left_behind) {
            rc = EBUSY;
            snprintf(why, why_size, "a measuring thread could not leave the CPU %d cpuset",
                     w[i].cpu);
        }
    if (!rc && (rc = fill(w, n, run->join_tasks != NULL, out)) != 0)
        snprintf(why, why_size, "out of memory");
done:
    if (rc == ENOMEM && !why[0])
        snprintf(why, why_size, "out of memory");
    for (size_t i = 0; w && i < n; i++)
        free_worker(&w[i]);
    free(w);
    free(tid);
    return rc;
}
