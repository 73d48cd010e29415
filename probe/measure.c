/* probe/measure.c — latency and context-switch measurement threads (see
 * measure.h). The hot loops read the clock, sleep and store into arrays
 * allocated and touched before the start, so no allocation or page fault
 * happens while measuring. */
#include "probe/measure.h"
#include "probe/threads.h"

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

#define SAMPLE_CAP ((size_t)1 << 21)       /* per thread */
#define LOOP_SAMPLES 2000                  /* loop-cost samples per CPU */
#define SWITCH_BURST_NS ((rtp_ns)2000000)  /* ping-pong 2 ms ... */
#define SWITCH_GAP_NS ((rtp_ns)8000000)    /* ... then rest 8 ms (RT throttling, fairness) */
#define START_DELAY_NS ((rtp_ns)2000000)

static int set_policy(rtp_probe_policy policy, int priority, rtp_ns runtime, rtp_ns period)
{
    return rtp_thread_policy(policy, priority, runtime, period, 0);
}

static int stopped(const rtp_probe_job *run)
{
    return run->stop && *run->stop;
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

/* One CPU's samples under one policy. */
typedef struct lat_series {
    int64_t *samples;
    int16_t *cpu;          /* unpinned: the CPU of each sample, else NULL */
    size_t n, cap;
    uint64_t overruns;
    int err;               /* errno of the failed setup, 0 = fine */
    char what[96];
} lat_series;

typedef struct lat_worker {
    const rtp_probe_job *run;
    int cpu;
    const char *join;      /* cgroup tasks file, or NULL */
    cpu_set_t all;         /* the process's affinity (unpinned SCHED_DEADLINE) */
    rtp_gate *gate;
    lat_series series[2];  /* [0] SCHED_FIFO, [1] SCHED_DEADLINE */
    int left_behind;
} lat_worker;

/* Puts the thread under series k's policy; 0 or errno (recorded). */
static int lat_switch(lat_worker *w, int k)
{
    const rtp_probe_job *run = w->run;
    lat_series *s = &w->series[k];
    int rc = set_policy(RTP_PROBE_OTHER, 0, 0, 0);
    if (!rc && !w->join) /* FIFO pinned; DEADLINE on the whole root domain */
        rc = k == 0 ? rtp_thread_pin(w->cpu)
                    : pthread_setaffinity_np(pthread_self(), sizeof w->all, &w->all);
    if (rc) {
        snprintf(s->what, sizeof s->what, "setting the affinity of a thread for CPU %d", w->cpu);
    } else if ((rc = set_policy(k ? RTP_PROBE_DEADLINE : RTP_PROBE_FIFO, run->fifo_priority,
                                run->dl_runtime_ns, run->period_ns)) != 0) {
        snprintf(s->what, sizeof s->what, "sched_setattr(%s)",
                 k ? "SCHED_DEADLINE" : "SCHED_FIFO");
    }
    s->err = rc;
    return rc;
}

/* Periodic wake-ups from `next` until `end`, recorded into s. */
static void lat_round(lat_worker *w, lat_series *s, rtp_ns next, rtp_ns end)
{
    const rtp_probe_job *run = w->run;
    rtp_ns period = run->period_ns;
    while (next < end && !stopped(run)) {
        rtp_thread_sleep_until(next);
        rtp_ns t = rtp_thread_now();
        if (s->n < s->cap) {
            s->samples[s->n] = t - next;
            if (s->cpu)
                s->cpu[s->n] = (int16_t)sched_getcpu();
            s->n++;
        }
        next += period;
        if (t >= next) { /* woke a whole period late: those releases are lost */
            uint64_t lost = (uint64_t)((t - next) / period) + 1;
            s->overruns += lost;
            next += (rtp_ns)lost * period;
        }
    }
}

/* Rounds on a grid of absolute times shared by every CPU, alternating the
 * wanted policies, so both see the same load; a policy whose setup fails
 * leaves its rounds to the other. */
static void *lat_thread(void *arg)
{
    lat_worker *w = arg;
    const rtp_probe_job *run = w->run;
    rtp_thread_block_signals();
    int err = w->join ? rtp_thread_join_cgroup(w->join) : 0;
    if (err) {
        for (int k = 0; k < 2; k++) {
            w->series[k].err = err;
            snprintf(w->series[k].what, sizeof w->series[k].what, "joining the CPU %d cpuset",
                     w->cpu);
        }
    }
    if (rtp_gate_pass(w->gate) && !err) {
        rtp_ns period = run->period_ns, round = run->round_ns;
        rtp_ns start = (rtp_thread_now() + START_DELAY_NS) / period * period + period;
        rtp_ns end = start + run->duration_ns;
        for (int r = 0; start + r * round < end && !stopped(run); r++) {
            int k = (run->policies == RTP_PROBE_BOTH) ? r % 2 : run->policies == RTP_PROBE_ONLY_DL;
            if (w->series[k].err)
                k = !k;
            if (w->series[k].err || !w->series[k].samples)
                break;
            if (lat_switch(w, k) != 0) {
                r--; /* this round goes to the other policy */
                continue;
            }
            rtp_ns from = start + r * round, to = from + round < end ? from + round : end;
            rtp_ns next = (rtp_thread_now() / period + 1) * period;
            lat_round(w, &w->series[k], next > from ? next : from, to);
        }
    }
    set_policy(RTP_PROBE_OTHER, 0, 0, 0);
    if (w->join && run->leave_tasks && rtp_thread_join_cgroup(run->leave_tasks) != 0)
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

/* Unpinned series: every sample counted for the CPU it was taken on. */
static void summarize_by_cpu(lat_worker *w, size_t n_workers, int k, const rtp_probe_job *run,
                             rtp_probe_latency *out)
{
    size_t total = 0;
    for (size_t i = 0; i < n_workers; i++)
        total += w[i].series[k].n;
    int64_t *buf = malloc((total ? total : 1) * sizeof *buf);
    for (size_t c = 0; c < run->n_cpus; c++) {
        size_t n = 0;
        for (size_t i = 0; buf && i < n_workers; i++)
            for (size_t s = 0; s < w[i].series[k].n; s++)
                if (w[i].series[k].cpu[s] == run->cpus[c])
                    buf[n++] = w[i].series[k].samples[s];
        summarize(buf, n, 0, &out[c]);
    }
    free(buf);
}

static int lat_alloc(lat_worker *w, const rtp_probe_job *run, size_t cap)
{
    for (int k = 0; k < 2; k++) {
        int wanted = run->policies == RTP_PROBE_BOTH || (run->policies == RTP_PROBE_ONLY_DL) == k;
        if (!wanted)
            continue;
        lat_series *s = &w->series[k];
        s->cap = cap;
        s->samples = rtp_thread_alloc_touched(cap * sizeof *s->samples);
        if (k == 1 && !run->join_tasks)
            s->cpu = rtp_thread_alloc_touched(cap * sizeof *s->cpu);
        if (!s->samples || (k == 1 && !run->join_tasks && !s->cpu))
            return -1;
    }
    return 0;
}

int rtp_probe_latency_run(const rtp_probe_job *run, rtp_probe_latency *fifo,
                          rtp_probe_latency *deadline, rtp_probe_latency_status *status)
{
    size_t n = run->n_cpus;
    size_t cap = (size_t)(run->duration_ns / run->period_ns) + 16;
    if (cap > SAMPLE_CAP)
        cap = SAMPLE_CAP;
    lat_worker *w = calloc(n, sizeof *w);
    pthread_t *tid = calloc(n, sizeof *tid);
    rtp_gate g;
    int rc = 0;
    memset(status, 0, sizeof *status);
    memset(fifo, 0, n * sizeof *fifo);
    memset(deadline, 0, n * sizeof *deadline);
    cpu_set_t all;
    CPU_ZERO(&all);
    sched_getaffinity(0, sizeof all, &all);
    if (!w || !tid) {
        rc = ENOMEM;
        goto done;
    }
    for (size_t i = 0; i < n; i++) {
        w[i].run = run;
        w[i].cpu = run->cpus[i];
        w[i].join = run->join_tasks ? run->join_tasks[i] : NULL;
        w[i].all = all;
        w[i].gate = &g;
        if (lat_alloc(&w[i], run, cap) != 0) {
            rc = ENOMEM;
            goto done;
        }
    }
    rtp_gate_init(&g);
    size_t started = 0;
    for (; started < n; started++)
        if ((rc = pthread_create(&tid[started], NULL, lat_thread, &w[started])) != 0)
            break;
    rtp_gate_open(&g, started, n);
    for (size_t i = 0; i < started; i++)
        pthread_join(tid[i], NULL);
    rtp_gate_destroy(&g);
    if (rc) {
        snprintf(status->why[0], sizeof status->why[0], "cannot start a measuring thread: %s",
                 strerror(rc));
        status->err[0] = status->err[1] = rc;
        snprintf(status->why[1], sizeof status->why[1], "%s", status->why[0]);
        goto done;
    }
    for (size_t i = 0; i < n; i++) {
        status->left_behind |= w[i].left_behind;
        for (int k = 0; k < 2; k++) {
            const lat_series *s = &w[i].series[k];
            if (s->err && !status->err[k]) {
                status->err[k] = s->err;
                snprintf(status->why[k], sizeof status->why[k], "%s: %s", s->what,
                         strerror(s->err));
            }
        }
    }
    for (size_t i = 0; i < n; i++)
        summarize(w[i].series[0].samples, w[i].series[0].n, w[i].series[0].overruns, &fifo[i]);
    if (run->join_tasks)
        for (size_t i = 0; i < n; i++)
            summarize(w[i].series[1].samples, w[i].series[1].n, w[i].series[1].overruns,
                      &deadline[i]);
    else
        summarize_by_cpu(w, n, 1, run, deadline);
done:
    if (rc == ENOMEM) {
        for (int k = 0; k < 2; k++) {
            status->err[k] = ENOMEM;
            snprintf(status->why[k], sizeof status->why[k], "out of memory");
        }
    }
    for (size_t i = 0; w && i < n; i++) {
        for (int k = 0; k < 2; k++) {
            free(w[i].series[k].samples);
            free(w[i].series[k].cpu);
        }
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
    rtp_gate *gate;
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
    int rc = rtp_thread_pin(p->cpu);
    if (!rc && p->policy == RTP_PROBE_FIFO)
        rc = set_policy(RTP_PROBE_FIFO, p->run->fifo_priority, 0, 0);
    return rc;
}

static void *switch_partner(void *arg)
{
    switch_pair *p = arg;
    rtp_thread_block_signals();
    p->err[1] = switch_setup(p);
    if (!rtp_gate_pass(p->gate))
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
    rtp_thread_block_signals();
    p->err[0] = switch_setup(p);
    int ok = rtp_gate_pass(p->gate) && !p->err[0] && !p->err[1];
    /* The loop without a partner: a wake nobody waits for and a wait that
     * returns at once, as each side does once per round trip. */
    for (int i = 0; ok && i < LOOP_SAMPLES; i++) {
        rtp_ns t0 = rtp_thread_now();
        futex(&p->spare, FUTEX_WAKE, 1);
        futex(&p->spare, FUTEX_WAIT, 1);
        p->loop[i] = rtp_thread_now() - t0;
    }
    rtp_ns next = rtp_thread_now() + START_DELAY_NS, end = next + run->duration_ns;
    while (ok && next < end && !stopped(run)) {
        rtp_thread_sleep_until(next);
        rtp_ns burst_end = next + SWITCH_BURST_NS;
        while (p->n < p->cap && !stopped(run)) {
            rtp_ns t0 = rtp_thread_now();
            round_trip(p);
            rtp_ns t1 = rtp_thread_now();
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
    rtp_gate g;
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
        if (!(p[i].samples = rtp_thread_alloc_touched(cap * sizeof *p[i].samples))) {
            rc = ENOMEM;
            goto done;
        }
    }
    rtp_gate_init(&g);
    size_t started = 0;
    for (; started < 2 * n; started++) {
        switch_pair *pair = &p[started / 2];
        if ((rc = pthread_create(&tid[started], NULL,
                                 started % 2 ? switch_partner : switch_leader, pair)) != 0)
            break;
    }
    if (started < 2 * n)
        snprintf(why, why_size, "cannot start a measuring thread: %s", strerror(rc));
    rtp_gate_open(&g, started, 2 * n);
    for (size_t i = 0; i < started; i++)
        pthread_join(tid[i], NULL);
    rtp_gate_destroy(&g);
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
