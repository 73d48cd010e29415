/* rehearse/dlclock.c — see dlclock.h. */
#include "rehearse/dlclock.h"
#include "models/sched_attr.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define TRIES 5
#define RUNTIME_NS 1000000 /* far above a yield's cost, even on a busy VM */
#define PERIOD_NS 10000000
#define WATCHDOG_S 3

static rtp_ns mono(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (rtp_ns)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* sched_setattr of thread tid (0 = the caller). */
static int set_attr(pid_t tid, int policy, rtp_ns runtime, rtp_ns period)
{
    struct sched_attr a;
    memset(&a, 0, sizeof a);
    a.size = sizeof a;
    a.sched_policy = (uint32_t)policy;
    a.sched_runtime = (uint64_t)runtime;
    a.sched_deadline = a.sched_period = (uint64_t)period;
    return rtp_sched_setattr(tid, &a) == 0 ? 0 : errno;
}

rtp_ns rtp_dlclock_deadline(void)
{
    char text[8192];
    int fd = open("/proc/thread-self/sched", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t n = read(fd, text, sizeof text - 1);
    close(fd);
    if (n <= 0)
        return -1;
    text[n] = '\0';
    const char *p = strstr(text, "dl.deadline");
    p = p ? strchr(p, ':') : NULL;
    if (!p)
        return -1;
    char *end;
    long long v = strtoll(p + 1, &end, 10);
    return end == p + 1 || v <= 0 ? -1 : (rtp_ns)v;
}

typedef struct try_ctx {
    rtp_dlclock best;
    int found, err;
    char what[64];
    _Atomic pid_t tid;
    _Atomic int done, abandon;
} try_ctx;

static void *measure_thread(void *arg)
{
    try_ctx *c = arg;
    atomic_store(&c->tid, (pid_t)syscall(SYS_gettid));
    for (int t = 0; t < TRIES && !atomic_load(&c->abandon); t++) {
        rtp_ns b = mono();
        int rc = set_attr(0, SCHED_DEADLINE, RUNTIME_NS, PERIOD_NS);
        rtp_ns a = mono();
        if (rc) {
            c->err = rc;
            snprintf(c->what, sizeof c->what, "sched_setattr(SCHED_DEADLINE)");
            break;
        }
        sched_yield(); /* to the next period: deadline = rq_set + D + P */
        rtp_ns dl = rtp_dlclock_deadline();
        set_attr(0, SCHED_OTHER, 0, 0);
        /* Past that deadline before the next try: a thread that comes back
         * to SCHED_DEADLINE while its old deadline lies ahead keeps it
         * (no new reservation), which would misplace rq_set. */
        struct timespec wait = {0, 3 * PERIOD_NS};
        nanosleep(&wait, NULL);
        if (dl < 0) {
            c->err = ENOENT;
            snprintf(c->what, sizeof c->what, "reading dl.deadline from /proc/thread-self/sched");
            break;
        }
        /* every try's interval holds the offset: keep their intersection */
        rtp_ns rq_set = dl - 2 * (rtp_ns)PERIOD_NS, lo = rq_set - a, hi = rq_set - b;
        if (c->found) {
            rtp_ns old_lo = c->best.offset_ns - c->best.width_ns;
            lo = lo > old_lo ? lo : old_lo;
            hi = hi < c->best.offset_ns ? hi : c->best.offset_ns;
        }
        if (lo > hi) {
            c->err = EIO;
            snprintf(c->what, sizeof c->what, "the tries disagree (%lld ns apart)",
                     (long long)(lo - hi));
            c->found = 0;
            break;
        }
        c->best = (rtp_dlclock){hi, hi - lo};
        c->found = 1;
    }
    atomic_store(&c->done, 1);
    return NULL;
}

int rtp_dlclock_measure(rtp_dlclock *out, char *why, size_t why_size)
{
    try_ctx c;
    memset(&c, 0, sizeof c);
    pthread_t t;
    int rc = pthread_create(&t, NULL, measure_thread, &c);
    if (rc) {
        snprintf(why, why_size, "cannot start a thread: %s", strerror(rc));
        return rc;
    }
    /* The kernel has been seen (6.18, a busy VM) to leave such a thread
     * throttled after its yield for good, its replenishment never coming:
     * after WATCHDOG_S the thread is put back under SCHED_OTHER, which lets
     * it finish, and the measurement counts as failed. */
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += WATCHDOG_S;
    if (pthread_timedjoin_np(t, NULL, &until) != 0) {
        pid_t tid = atomic_load(&c.tid);
        atomic_store(&c.abandon, 1); /* no further try once it runs again */
        if (tid > 0)
            set_attr(tid, SCHED_OTHER, 0, 0);
        pthread_join(t, NULL);
        snprintf(why, why_size, "the kernel did not release its SCHED_DEADLINE thread within "
                                "%d s of a sched_yield()", WATCHDOG_S);
        return ETIMEDOUT;
    }
    if (!c.found) {
        snprintf(why, why_size, "%s%s%s", c.what, c.err == EIO ? "" : ": ",
                 c.err == EIO ? "" : strerror(c.err));
        return c.err ? c.err : EIO;
    }
    *out = c.best;
    return 0;
}
