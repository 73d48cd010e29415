/* probe/measure.c — latency and context-switch measurement threads (see
 * measure.h). The hot loops read the clock, sleep and store into arrays
 * allocated and touched before the start, so no allocation or page fault
 * happens while measuring. */
#include "probe/measure.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#ifndef SCHED_DEADLINE
#define SCHED_DEADLINE 6
#endif

#define SAMPLE_CAP ((size_t)1 << 21)       /* per thread */
#define LOOP_SAMPLES 2000                  /* loop-cost samples per CPU */
#define SWITCH_BURST_NS ((rtp_ns)2000000)  /* ping-pong 2 ms ... */
#define SWITCH_GAP_NS ((rtp_ns)8000000)    /* ... then rest 8 ms (RT throttling, fairness) */
#define START_DELAY_NS ((rtp_ns)2000000)

/* The kernel's struct sched_attr (sched_setattr(2)); glibc 2.36 has no wrapper. */
struct attr {
    uint32_t size, policy;
    uint64_t flags;
    int32_t nice;
    uint32_t priority;
    uint64_t runtime, deadline, period;
};

static int set_policy(rtp_probe_policy policy, int priority, rtp_ns runtime, rtp_ns period)
{
    struct attr a;
    memset(&a, 0, sizeof a);
    a.size = sizeof a;
    if (policy == RTP_PROBE_FIFO) {
        a.policy = SCHED_FIFO;
        a.priority = (uint32_t)priority;
    } else if (policy == RTP_PROBE_DEADLINE) {
        a.policy = SCHED_DEADLINE;
        a.runtime = (uint64_t)runtime;
        a.deadline = a.period = (uint64_t)period;
    } else {
        a.policy = SCHED_OTHER;
    }
    return syscall(SYS_sched_setattr, 0, &a, 0) == 0 ? 0 : errno;
}

static rtp_ns now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (rtp_ns)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void sleep_until(rtp_ns t)
{
    struct timespec ts = {(time_t)(t / 1000000000), (long)(t % 1000000000)};
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR) {
    }
}

static int stopped(const rtp_probe_job *run)
{
    return run->stop && *run->stop;
}

/* A start gate: every thread sets itself up, then waits until the caller has
 * started them all (go) or failed to (abort), so all CPUs measure at once. */
typedef struct gate {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    size_t ready;
    int state; /* 0 wait, 1 go, -1 abort */
} gate;

static void gate_init(gate *g)
{
    pthread_mutex_init(&g->lock, NULL);
    pthread_cond_init(&g->cond, NULL);
    g->ready = 0;
    g->state = 0;
}

/* In a thread: 1 = go, 0 = abort. */
static int gate_pass(gate *g)
{
    pthread_mutex_lock(&g->lock);
    g->ready++;
    pthread_cond_broadcast(&g->cond);
    while (g->state == 0)
        pthread_cond_wait(&g->cond, &g->lock);
    int go = g->state > 0;
    pthread_mutex_unlock(&g->lock);
    return go;
}

/* In the caller, once `started` threads exist: opens the gate when all
 * `wanted` started, else aborts them. */
static void gate_open(gate *g, size_t started, size_t wanted)
{
    pthread_mutex_lock(&g->lock);
    while (g->ready < started)
        pthread_cond_wait(&g->cond, &g->lock);
    g->state = started == wanted ? 1 : -1;
    pthread_cond_broadcast(&g->cond);
    pthread_mutex_unlock(&g->lock);
}

static void gate_destroy(gate *g)
{
    pthread_mutex_destroy(&g->lock);
    pthread_cond_destroy(&g->cond);
}

/* Writes this thread's id into a cgroup "tasks" file. */
static int join_cgroup(const char *tasks)
{
    int fd = open(tasks, O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return errno;
    char text[32];
    int len = snprintf(text, sizeof text, "%ld\n", (long)syscall(SYS_gettid));
    int rc = write(fd, text, (size_t)len) == len ? 0 : errno;
    close(fd);
    return rc;
}

static int pin(int cpu)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    return pthread_setaffinity_np(pthread_self(), sizeof set, &set);
}

static void block_signals(void)
{
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, NULL);
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

int64_t rtp_probe_percentile(int64_t *values, size_t n, int pct)
{
    if (n == 0)
        return 0;
    qsort(values, n, sizeof *values, cmp_i64);
    size_t rank = (size_t)(((unsigned __int128)n * (unsigned)pct + 99) / 100);
    return values[rank ? rank - 1 : 0];
}

/* --- latency --- */

typedef struct lat_worker {
    const rtp_probe_job *run;
    rtp_probe_policy policy;
    int cpu;               /* pinned CPU, or -1 (unpinned) */
    const char *join;      /* cgroup tasks file, or NULL */
    gate *gate;
    int64_t *samples;
    int16_t *sample_cpu;   /* unpinned: CPU of each sample */
    size_t n, cap;
    uint64_t overruns;
    int err, left_behind;
    char what[96];
} lat_worker;

static void lat_setup(lat_worker *w)
{
    const rtp_probe_job *run = w->run;
    int rc = 0;
    if (w->join && (rc = join_cgroup(w->join)) != 0)
        snprintf(w->what, sizeof w->what, "joining the CPU %d cpuset", w->cpu);
    else if (!w->join && w->cpu >= 0 && (rc = pin(w->cpu)) != 0)
        snprintf(w->what, sizeof w->what, "pinning a thread to CPU %d", w->cpu);
    else if ((rc = set_policy(w->policy, run->fifo_priority, run->dl_runtime_ns,
                              run->period_ns)) != 0)
        snprintf(w->what, sizeof w->what, "sched_setattr(%s)",
                 w->policy == RTP_PROBE_DEADLINE ? "SCHED_DEADLINE" : "SCHED_FIFO");
    w->err = rc;
}

static void lat_loop(lat_worker *w)
{
    const rtp_probe_job *run = w->run;
    rtp_ns period = run->period_ns;
    rtp_ns next = (now_ns() + START_DELAY_NS) / period * period + period;
    rtp_ns end = next + run->duration_ns;
    while (next < end && !stopped(run)) {
        sleep_until(next);
        rtp_ns t = now_ns();
        if (w->n < w->cap) {
            w->samples[w->n] = t - next;
            if (w->sample_cpu)
                w->sample_cpu[w->n] = (int16_t)sched_getcpu();
            w->n++;
        }
        next += period;
        if (t >= next) { /* woke a whole period late: those releases are lost */
            uint64_t lost = (uint64_t)((t - next) / period) + 1;
            w->overruns += lost;
            next += (rtp_ns)lost * period;
        }
    }
}

static void *lat_thread(void *arg)
{
    lat_worker *w = arg;
    block_signals();
    lat_setup(w);
    if (gate_pass(w->gate) && !w->err)
        lat_loop(w);
    if (!w->err || w->policy == RTP_PROBE_DEADLINE)
        set_policy(RTP_PROBE_OTHER, 0, 0, 0);
    if (w->join && w->run->leave_tasks && join_cgroup(w->run->leave_tasks) != 0)
        w->left_behind = 1;
    return NULL;
}

static void summarize(int64_t *values, size_t n, uint64_t overruns, rtp_probe_latency *out)
{
    memset(out, 0, sizeof *out);
    if (n == 0)
        return;
    out->measured = 1;
    out->samples = n;
    out->overruns = overruns;
    out->median_ns = rtp_probe_percentile(values, n, 50);
    out->p99_ns = values[(size_t)(((unsigned __int128)n * 99 + 99) / 100) - 1];
    out->max_ns = values[n - 1];
}

/* Unpinned threads: gather every sample of CPU k from all workers. */
static void summarize_by_cpu(lat_worker *w, size_t n_workers, const rtp_probe_job *run,
                             rtp_probe_latency *out)
{
    size_t total = 0;
    for (size_t i = 0; i < n_workers; i++)
        total += w[i].n;
    int64_t *buf = malloc((total ? total : 1) * sizeof *buf);
    for (size_t k = 0; k < run->n_cpus; k++) {
        size_t n = 0;
        for (size_t i = 0; buf && i < n_workers; i++)
            for (size_t s = 0; s < w[i].n; s++)
                if (w[i].sample_cpu[s] == run->cpus[k])
                    buf[n++] = w[i].samples[s];
        summarize(buf, n, 0, &out[k]);
    }
    free(buf);
}

static void *alloc_touched(size_t bytes)
{
    void *p = malloc(bytes);
    if (p)
        memset(p, 0, bytes); /* fault the pages in before measuring */
    return p;
}

int rtp_probe_latency_run(const rtp_probe_job *run, rtp_probe_policy policy,
                          rtp_probe_latency *out, int *left_behind, char *why, size_t why_size)
{
    size_t n = run->n_cpus;
    int unpinned = policy == RTP_PROBE_DEADLINE && !run->join_tasks;
    size_t cap = (size_t)(run->duration_ns / run->period_ns) + 16;
    if (cap > SAMPLE_CAP)
        cap = SAMPLE_CAP;
    lat_worker *w = calloc(n, sizeof *w);
    pthread_t *tid = calloc(n, sizeof *tid);
    gate g;
    int rc = 0;
    *left_behind = 0;
    memset(out, 0, n * sizeof *out);
    if (!w || !tid) {
        snprintf(why, why_size, "out of memory");
        rc = ENOMEM;
        goto done;
    }
    for (size_t i = 0; i < n; i++) {
        w[i] = (lat_worker){.run = run, .policy = policy, .cpu = unpinned ? -1 : run->cpus[i],
                            .join = run->join_tasks ? run->join_tasks[i] : NULL,
                            .gate = &g, .cap = cap};
        w[i].samples = alloc_touched(cap * sizeof *w[i].samples);
        w[i].sample_cpu = unpinned ? alloc_touched(cap * sizeof *w[i].sample_cpu) : NULL;
        if (!w[i].samples || (unpinned && !w[i].sample_cpu)) {
            snprintf(why, why_size, "out of memory");
            rc = ENOMEM;
            goto done;
        }
    }
    gate_init(&g);
    size_t started = 0;
    for (; started < n; started++)
        if ((rc = pthread_create(&tid[started], NULL, lat_thread, &w[started])) != 0)
            break;
    if (started < n)
        snprintf(why, why_size, "cannot start a measuring thread: %s", strerror(rc));
    gate_open(&g, started, n);
    for (size_t i = 0; i < started; i++)
        pthread_join(tid[i], NULL);
    gate_destroy(&g);
    for (size_t i = 0; i < n; i++) {
        if (w[i].left_behind)
            *left_behind = 1;
        if (w[i].err && !rc) {
            rc = w[i].err;
            snprintf(why, why_size, "%s: %s", w[i].what, strerror(rc));
        }
    }
    if (unpinned)
        summarize_by_cpu(w, n, run, out);
    else
        for (size_t i = 0; i < n; i++)
            summarize(w[i].samples, w[i].n, w[i].overruns, &out[i]);
done:
    for (size_t i = 0; w && i < n; i++) {
        free(w[i].samples);
        free(w[i].sample_cpu);
    }
    free(w);
    free(tid);
    return rc;
}

/* --- context switch --- */

typedef struct switch_pair {
    const rtp_probe_job *run;
    rtp_probe_policy policy;
    int cpu;
    gate *gate;
    _Atomic int turn;   /* 0: the leader's, 1: the partner's, 2: quit */
    _Atomic int spare;  /* a futex word nobody waits on (loop cost) */
    int64_t *samples;   /* round trips, then per-switch costs */
    size_t n, cap;
    int64_t loop[LOOP_SAMPLES];
    int err[2];
} switch_pair;

static long futex(_Atomic int *word, int op, int value)
{
    return syscall(SYS_futex, (int *)word, op | FUTEX_PRIVATE_FLAG, value, NULL, NULL, 0);
}

static int switch_setup(switch_pair *p)
{
    int rc = pin(p->cpu);
    if (!rc && p->policy == RTP_PROBE_FIFO)
        rc = set_policy(RTP_PROBE_FIFO, p->run->fifo_priority, 0, 0);
    return rc;
}

static void *switch_partner(void *arg)
{
    switch_pair *p = arg;
    block_signals();
    p->err[1] = switch_setup(p);
    if (!gate_pass(p->gate))
        atomic_store(&p->turn, 2);
    for (;;) {
        int t = atomic_load(&p->turn);
        if (t == 2)
            break;
        if (t == 0) {
            futex(&p->turn, FUTEX_WAIT, 0);
            continue;
        }
        atomic_store(&p->turn, 0);
        futex(&p->turn, FUTEX_WAKE, 1);
    }
    set_policy(RTP_PROBE_OTHER, 0, 0, 0);
    return NULL;
}

/* One round trip: hand the word over and wait until it comes back. */
static void round_trip(switch_pair *p)
{
    atomic_store(&p->turn, 1);
    futex(&p->turn, FUTEX_WAKE, 1);
    while (atomic_load(&p->turn) == 1)
        futex(&p->turn, FUTEX_WAIT, 1);
}

static void *switch_leader(void *arg)
{
    switch_pair *p = arg;
    const rtp_probe_job *run = p->run;
    block_signals();
    p->err[0] = switch_setup(p);
    int ok = gate_pass(p->gate) && !p->err[0] && !p->err[1];
    /* The loop without a partner: a wake nobody waits for and a wait that
     * returns at once, as each side does once per round trip. */
    for (int i = 0; ok && i < LOOP_SAMPLES; i++) {
        rtp_ns t0 = now_ns();
        futex(&p->spare, FUTEX_WAKE, 1);
        futex(&p->spare, FUTEX_WAIT, 1);
        p->loop[i] = now_ns() - t0;
    }
    rtp_ns next = now_ns() + START_DELAY_NS, end = next + run->duration_ns;
    while (ok && next < end && !stopped(run)) {
        sleep_until(next);
        rtp_ns burst_end = next + SWITCH_BURST_NS;
        while (p->n < p->cap && !stopped(run)) {
            rtp_ns t0 = now_ns();
            round_trip(p);
            rtp_ns t1 = now_ns();
            p->samples[p->n++] = t1 - t0;
            if (t1 >= burst_end)
                break;
        }
        next += SWITCH_BURST_NS + SWITCH_GAP_NS;
    }
    atomic_store(&p->turn, 2);
    futex(&p->turn, FUTEX_WAKE, 1);
    set_policy(RTP_PROBE_OTHER, 0, 0, 0);
    return NULL;
}

static void switch_summary(switch_pair *p, rtp_probe_switch *out)
{
    memset(out, 0, sizeof *out);
    if (p->n == 0)
        return;
    int64_t loop = rtp_probe_percentile(p->loop, LOOP_SAMPLES, 50);
    for (size_t i = 0; i < p->n; i++) {
        int64_t one = (p->samples[i] - 2 * loop) / 2;
        p->samples[i] = one > 0 ? one : 0;
    }
    out->measured = 1;
    out->samples = p->n;
    out->loop_ns = loop;
    out->median_ns = rtp_probe_percentile(p->samples, p->n, 50);
    out->p99_ns = p->samples[(size_t)(((unsigned __int128)p->n * 99 + 99) / 100) - 1];
    out->max_ns = p->samples[p->n - 1];
}

int rtp_probe_switch_run(const rtp_probe_job *run, rtp_probe_policy policy,
                         rtp_probe_switch *out, char *why, size_t why_size)
{
    size_t n = run->n_cpus;
    switch_pair *p = calloc(n, sizeof *p);
    pthread_t *tid = calloc(2 * n, sizeof *tid);
    gate g;
    int rc = 0;
    memset(out, 0, n * sizeof *out);
    /* at most one round trip per 500 ns over the burst share of the run */
    size_t cap = (size_t)(run->duration_ns / 500 / 5) + 1024;
    if (cap > SAMPLE_CAP)
        cap = SAMPLE_CAP;
    if (!p || !tid) {
        rc = ENOMEM;
        goto done;
    }
    for (size_t i = 0; i < n; i++) {
        p[i].run = run;
        p[i].policy = policy;
        p[i].cpu = run->cpus[i];
        p[i].gate = &g;
        p[i].cap = cap;
        if (!(p[i].samples = alloc_touched(cap * sizeof *p[i].samples))) {
            rc = ENOMEM;
            goto done;
        }
    }
    gate_init(&g);
    size_t started = 0;
    for (; started < 2 * n; started++) {
        switch_pair *pair = &p[started / 2];
        if ((rc = pthread_create(&tid[started], NULL,
                                 started % 2 ? switch_partner : switch_leader, pair)) != 0)
            break;
    }
    if (started < 2 * n)
        snprintf(why, why_size, "cannot start a measuring thread: %s", strerror(rc));
    gate_open(&g, started, 2 * n);
    for (size_t i = 0; i < started; i++)
        pthread_join(tid[i], NULL);
    gate_destroy(&g);
    for (size_t i = 0; i < n && !rc; i++) {
        int err = p[i].err[0] ? p[i].err[0] : p[i].err[1];
        if (err) {
            rc = err;
            snprintf(why, why_size, "%s on CPU %d: %s",
                     policy == RTP_PROBE_FIFO ? "sched_setattr(SCHED_FIFO)" : "pinning a thread",
                     p[i].cpu, strerror(err));
        }
    }
    for (size_t i = 0; i < n && !rc; i++)
        switch_summary(&p[i], &out[i]);
done:
    if (rc == ENOMEM)
        snprintf(why, why_size, "out of memory");
    for (size_t i = 0; p && i < n; i++)
        free(p[i].samples);
    free(p);
    free(tid);
    return rc;
}

static void *fifo_try(void *arg)
{
    int *result = arg;
    *result = set_policy(RTP_PROBE_FIFO, result[1], 0, 0) == 0;
    set_policy(RTP_PROBE_OTHER, 0, 0, 0);
    return NULL;
}

int rtp_probe_fifo_allowed(int priority)
{
    int box[2] = {0, priority};
    pthread_t t;
    if (pthread_create(&t, NULL, fifo_try, box) != 0)
        return 0;
    pthread_join(t, NULL);
    return box[0];
}
