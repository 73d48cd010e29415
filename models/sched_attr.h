/* models/sched_attr.h — the kernel's sched_setattr(2) and sched_getattr(2)
 * for every caller (rtpack-launch, the probe's measuring threads, the
 * rehearsal's deadline clock and workload, the tests' show_sched): struct
 * sched_attr, SCHED_DEADLINE, SCHED_RESET_ON_FORK and the SCHED_FLAG_* bits, each defined here only where
 * the C library's headers lack it (glibc has the struct since 2.41; before
 * that the kernel's <linux/sched/types.h> cannot be included beside
 * <sched.h>: both define struct sched_param), and the two calls through
 * syscall(2), which every glibc has. Times in the struct are ns. Header
 * only: no state, safe from any thread. */
#ifndef RTP_MODELS_SCHED_ATTR_H
#define RTP_MODELS_SCHED_ATTR_H

#include <linux/sched.h> /* SCHED_DEADLINE, SCHED_FLAG_* (kernel UAPI) */
#include <sched.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

#ifndef SCHED_DEADLINE
#define SCHED_DEADLINE 6
#endif
#ifndef SCHED_RESET_ON_FORK
#define SCHED_RESET_ON_FORK 0x40000000 /* or'ed into sched_setscheduler's policy */
#endif
#ifndef SCHED_FLAG_RESET_ON_FORK
#define SCHED_FLAG_RESET_ON_FORK 0x01
#endif
#ifndef SCHED_FLAG_RECLAIM
#define SCHED_FLAG_RECLAIM 0x02 /* GRUB reclaiming, Linux 4.13 */
#endif
#ifndef SCHED_FLAG_DL_OVERRUN
#define SCHED_FLAG_DL_OVERRUN 0x04 /* SIGXCPU at each budget overrun, Linux 4.16 */
#endif

#ifndef SCHED_ATTR_SIZE_VER0 /* glibc >= 2.41 defines both in <sched.h> */
#define SCHED_ATTR_SIZE_VER0 48
struct sched_attr {
    uint32_t size; /* sizeof the struct: the kernel accepts VER0 and later sizes */
    uint32_t sched_policy;
    uint64_t sched_flags;
    int32_t sched_nice;      /* SCHED_OTHER, SCHED_BATCH */
    uint32_t sched_priority; /* SCHED_FIFO, SCHED_RR */
    uint64_t sched_runtime;  /* SCHED_DEADLINE, ns */
    uint64_t sched_deadline;
    uint64_t sched_period;
};
#endif

/* sched_setattr(pid, attr, 0): 0, or -1 with errno. */
static inline int rtp_sched_setattr(pid_t pid, const struct sched_attr *attr)
{
    return (int)syscall(SYS_sched_setattr, pid, attr, 0u);
}

/* sched_getattr(pid, attr, sizeof *attr, 0): 0, or -1 with errno. */
static inline int rtp_sched_getattr(pid_t pid, struct sched_attr *attr)
{
    return (int)syscall(SYS_sched_getattr, pid, attr, (unsigned)sizeof *attr, 0u);
}

#endif
