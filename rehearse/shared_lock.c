/* rehearse/shared_lock.c — the rehearsal's shared locks (see the header). */
#include "rehearse/shared_lock.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

rtp_status rtp_shared_lock_create(const char *path, rtp_deploy_lock_kind kind, int ceiling,
                                  rtp_diag *diag)
{
    int fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0 || ftruncate(fd, sizeof(rtp_shared_lock)) != 0) {
        int e = errno;
        if (fd >= 0)
            close(fd);
        return rtp_diag_set(diag, RTP_EINTERNAL, "", "cannot create the lock file %s: %s", path,
                            strerror(e));
    }
    rtp_shared_lock *l = mmap(NULL, sizeof *l, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (l == MAP_FAILED)
        return rtp_diag_set(diag, RTP_EINTERNAL, "", "cannot map %s: %s", path, strerror(errno));
    memset(l, 0, sizeof *l);
    int e = 0;
    if (kind == RTP_LOCK_PROTECT || kind == RTP_LOCK_INHERIT) {
        pthread_mutexattr_t a;
        e = pthread_mutexattr_init(&a);
        if (!e)
            e = pthread_mutexattr_setpshared(&a, PTHREAD_PROCESS_SHARED);
        if (!e)
            e = pthread_mutexattr_setprotocol(&a, kind == RTP_LOCK_PROTECT ? PTHREAD_PRIO_PROTECT
                                                                          : PTHREAD_PRIO_INHERIT);
        if (!e && kind == RTP_LOCK_PROTECT)
            e = pthread_mutexattr_setprioceiling(&a, ceiling);
        if (!e)
            e = pthread_mutex_init(&l->mutex, &a);
        pthread_mutexattr_destroy(&a);
    }
    munmap(l, sizeof *l);
    if (e)
        return rtp_diag_set(diag, RTP_EINTERNAL, "", "cannot set up the mutex of %s: %s", path,
                            strerror(e));
    return RTP_OK;
}

rtp_shared_lock *rtp_shared_lock_open(const char *path)
{
    int fd = open(path, O_RDWR | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    rtp_shared_lock *l = mmap(NULL, sizeof *l, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    return l == MAP_FAILED ? NULL : l;
}

int rtp_shared_lock_take(rtp_shared_lock *l, rtp_deploy_lock_kind kind, int priority,
                         int *restore)
{
    if (kind != RTP_LOCK_SPIN)
        return pthread_mutex_lock(&l->mutex);
    struct sched_param was;
    int policy, e = pthread_getschedparam(pthread_self(), &policy, &was);
    if (!e)
        e = pthread_setschedprio(pthread_self(), priority);
    if (e)
        return e;
    *restore = was.sched_priority;
    unsigned ticket = atomic_fetch_add_explicit(&l->next, 1, memory_order_relaxed);
    while (atomic_load_explicit(&l->owner, memory_order_acquire) != ticket)
        ;
    return 0;
}

int rtp_shared_lock_give(rtp_shared_lock *l, rtp_deploy_lock_kind kind, int restore)
{
    if (kind != RTP_LOCK_SPIN)
        return pthread_mutex_unlock(&l->mutex);
    atomic_fetch_add_explicit(&l->owner, 1, memory_order_release);
    return pthread_setschedprio(pthread_self(), restore);
}
