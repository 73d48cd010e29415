/* probe/threads.c — see threads.h. */
#include "probe/threads.h"
#include "models/sched_attr.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>


int rtp_thread_policy(rtp_probe_policy policy, int priority, rtp_ns runtime, rtp_ns period,
                      uint64_t flags)
{
    struct sched_attr a;
    memset(&a, 0, sizeof a);
    a.size = sizeof a;
    if (policy == RTP_PROBE_FIFO) {
        a.sched_policy = SCHED_FIFO;
        a.sched_priority = (uint32_t)priority;
    } else if (policy == RTP_PROBE_DEADLINE) {
        a.sched_policy = SCHED_DEADLINE;
        a.sched_flags = flags;
        a.sched_runtime = (uint64_t)runtime;
        a.sched_deadline = a.sched_period = (uint64_t)period;
    } else {
        a.sched_policy = SCHED_OTHER;
    }
    return rtp_sched_setattr(0, &a) == 0 ? 0 : errno;
}

rtp_ns rtp_thread_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (rtp_ns)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

void rtp_thread_sleep_until(rtp_ns t)
{
    struct timespec ts = {(time_t)(t / 1000000000), (long)(t % 1000000000)};
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR) {
    }
}

void rtp_thread_sleep(rtp_ns ns)
{
    rtp_thread_sleep_until(rtp_thread_now() + ns);
}

int rtp_thread_join_cgroup(const char *tasks)
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

int rtp_thread_pin(int cpu)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    return pthread_setaffinity_np(pthread_self(), sizeof set, &set);
}

void rtp_thread_block_signals(void)
{
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, NULL);
}

void *rtp_thread_alloc_touched(size_t bytes)
{
    void *p = malloc(bytes);
    if (p)
        memset(p, 0, bytes); /* fault the pages in before measuring */
    return p;
}

void rtp_gate_init(rtp_gate *g)
{
    pthread_mutex_init(&g->lock, NULL);
    pthread_cond_init(&g->cond, NULL);
    g->ready = 0;
    g->state = 0;
}

int rtp_gate_pass(rtp_gate *g)
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

void rtp_gate_open(rtp_gate *g, size_t started, size_t wanted)
{
    pthread_mutex_lock(&g->lock);
    while (g->ready < started)
        pthread_cond_wait(&g->cond, &g->lock);
    g->state = started == wanted ? 1 : -1;
    pthread_cond_broadcast(&g->cond);
    pthread_mutex_unlock(&g->lock);
}

void rtp_gate_destroy(rtp_gate *g)
{
    pthread_mutex_destroy(&g->lock);
    pthread_cond_destroy(&g->cond);
}
