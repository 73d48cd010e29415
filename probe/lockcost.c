/* probe/lockcost.c — the lock overhead per CPU and kind (see lockcost.h). */
#include "probe/lockcost.h"
#include "probe/threads.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { PROTECT = 0, INHERIT, SPIN };

typedef struct lock_thread {
    const rtp_probe_job *run;
    int cpu;
    rtp_gate *gate;
    int64_t *samples[RTP_PROBE_LOCK_KINDS]; /* RTP_PROBE_LOCK_TRIES each */
    size_t n[RTP_PROBE_LOCK_KINDS];
    int err;
    char what[64];
} lock_thread;

static int mutex_of(pthread_mutex_t *m, int protocol, int ceiling)
{
    pthread_mutexattr_t a;
    int e = pthread_mutexattr_init(&a);
    if (!e)
        e = pthread_mutexattr_setpshared(&a, PTHREAD_PROCESS_SHARED);
    if (!e)
        e = pthread_mutexattr_setprotocol(&a, protocol);
    if (!e && protocol == PTHREAD_PRIO_PROTECT)
        e = pthread_mutexattr_setprioceiling(&a, ceiling);
    if (!e)
        e = pthread_mutex_init(m, &a);
    pthread_mutexattr_destroy(&a);
    return e;
}

/* One try of kind k: lock + unlock, in ns; < 0 on failure (errno in *err). */
static int64_t try_once(int k, pthread_mutex_t *m, atomic_uint *next, atomic_uint *owner,
                        int prio, int raised, int *err)
{
    rtp_ns t0 = rtp_thread_now();
    int e;
    if (k == SPIN) {
        /* the MSRP ticket lock's path (rehearse/shared_lock.c) */
        e = pthread_setschedprio(pthread_self(), raised);
        unsigned ticket = atomic_fetch_add_explicit(next, 1, memory_order_relaxed);
        while (atomic_load_explicit(owner, memory_order_acquire) != ticket)
            ;
        atomic_fetch_add_explicit(owner, 1, memory_order_release);
        if (!e)
            e = pthread_setschedprio(pthread_self(), prio);
    } else {
        e = pthread_mutex_lock(m);
        if (!e)
            e = pthread_mutex_unlock(m);
    }
    rtp_ns t1 = rtp_thread_now();
    if (e) {
        *err = e;
        return -1;
    }
    return t1 - t0;
}

static void *lock_main(void *arg)
{
    lock_thread *t = arg;
    const rtp_probe_job *run = t->run;
    int prio = run->fifo_priority, raised = prio < 99 ? prio + 1 : 99;
    pthread_mutex_t m[2];
    atomic_uint next = 0, owner = 0;
    int made = 0;
    rtp_thread_block_signals();
    if ((t->err = rtp_thread_pin(t->cpu)) != 0)
        snprintf(t->what, sizeof t->what, "pinning a thread");
    else if ((t->err = rtp_thread_policy(RTP_PROBE_FIFO, prio, 0, 0, 0)) != 0)
        snprintf(t->what, sizeof t->what, "sched_setattr(SCHED_FIFO)");
    else if ((t->err = mutex_of(&m[PROTECT], PTHREAD_PRIO_PROTECT, raised)) != 0 ||
             (made = 1, t->err = mutex_of(&m[INHERIT], PTHREAD_PRIO_INHERIT, 0)) != 0)
        snprintf(t->what, sizeof t->what, "pthread_mutex_init");
    else
        made = 2;
    if (!rtp_gate_pass(t->gate) || t->err)
        goto out;
    /* bursts of each kind in turn, a short sleep between them: the other
     * threads of the CPU run, and the kinds share the same conditions */
    while (t->n[SPIN] < RTP_PROBE_LOCK_TRIES && !(run->stop && *run->stop)) {
        for (int k = 0; k < RTP_PROBE_LOCK_KINDS && !t->err; k++)
            for (int b = 0; b < RTP_PROBE_LOCK_BURST && t->n[k] < RTP_PROBE_LOCK_TRIES; b++) {
                int64_t d = try_once(k, k == SPIN ? NULL : &m[k], &next, &owner, prio, raised,
                                     &t->err);
                if (d < 0) {
                    snprintf(t->what, sizeof t->what, "%s lock + unlock",
                             rtp_probe_lock_names[k]);
                    break;
                }
                t->samples[k][t->n[k]++] = d;
            }
        if (t->err)
            break;
        rtp_thread_sleep(2000000);
    }
out:
    if (made >= 1)
        pthread_mutex_destroy(&m[PROTECT]);
    if (made >= 2)
        pthread_mutex_destroy(&m[INHERIT]);
    rtp_thread_policy(RTP_PROBE_OTHER, 0, 0, 0, 0);
    return NULL;
}

static void summary(int64_t *v, size_t n, rtp_probe_lock_cost *out)
{
    memset(out, 0, sizeof *out);
    if (n == 0)
        return;
    out->measured = 1;
    out->samples = n;
    out->median_ns = rtp_probe_percentile(v, n, 50);
    out->p99_ns = rtp_probe_percentile(v, n, 99);
    out->max_ns = v[n - 1]; /* sorted by the percentile */
}

int rtp_probe_lock_run(const rtp_probe_job *run, rtp_probe_lock_cost *out, char *why,
                       size_t why_size)
{
    size_t n = run->n_cpus;
    lock_thread *th = calloc(n ? n : 1, sizeof *th);
    pthread_t *tid = calloc(n ? n : 1, sizeof *tid);
    rtp_gate g;
    int rc = 0;
    memset(out, 0, n * RTP_PROBE_LOCK_KINDS * sizeof *out);
    if (!th || !tid) {
        rc = ENOMEM;
        goto done;
    }
    for (size_t i = 0; i < n; i++) {
        th[i].run = run;
        th[i].cpu = run->cpus[i];
        th[i].gate = &g;
        for (int k = 0; k < RTP_PROBE_LOCK_KINDS; k++)
            if (!(th[i].samples[k] =
                      rtp_thread_alloc_touched(RTP_PROBE_LOCK_TRIES * sizeof(int64_t)))) {
                rc = ENOMEM;
                goto done;
            }
    }
    rtp_gate_init(&g);
    size_t started = 0;
    for (; started < n; started++)
        if ((rc = pthread_create(&tid[started], NULL, lock_main, &th[started])) != 0)
            break;
    if (started < n)
        snprintf(why, why_size, "cannot start a measuring thread: %s", strerror(rc));
    rtp_gate_open(&g, started, n);
    for (size_t i = 0; i < started; i++)
        pthread_join(tid[i], NULL);
    rtp_gate_destroy(&g);
    for (size_t i = 0; i < n && !rc; i++)
        if (th[i].err) {
            rc = th[i].err;
            snprintf(why, why_size, "%s on CPU %d: %s", th[i].what, th[i].cpu, strerror(rc));
        }
    for (size_t i = 0; i < n && !rc; i++)
        for (int k = 0; k < RTP_PROBE_LOCK_KINDS; k++)
            summary(th[i].samples[k], th[i].n[k], &out[i * RTP_PROBE_LOCK_KINDS + k]);
done:
    if (rc == ENOMEM)
        snprintf(why, why_size, "out of memory");
    for (size_t i = 0; th && i < n; i++)
        for (int k = 0; k < RTP_PROBE_LOCK_KINDS; k++)
            free(th[i].samples[k]);
    free(th);
    free(tid);
    return rc;
}
