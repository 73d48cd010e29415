/* docs/examples/periodic.c — the release pattern rtpack's analysis assumes,
 * for a task started by an rtpack launch script (docs/deploy.md "Release
 * patterns"). The script has already set the policy (chrt), the CPU (its
 * cpuset) and, under SCHED_DEADLINE, runtime/deadline/period; the program
 * only has to release one job per period:
 *
 *   SCHED_DEADLINE: run the job, then sched_yield(). The kernel ends the
 *     job's reservation and wakes the thread at its next period with a
 *     fresh runtime, so jobs follow the kernel's period.
 *   SCHED_FIFO: run the job, then sleep until the next arrival with
 *     clock_nanosleep(TIMER_ABSTIME) on CLOCK_MONOTONIC: absolute times do
 *     not drift, and a late job starts the next at once (its release is
 *     then the late completion, within the analysed jitter only if the
 *     analysis says the job cannot be late).
 *
 * usage: periodic PERIOD_US JOBS    (the policy is read from the kernel and
 * named on standard error)
 * Build: cc -O2 -o periodic periodic.c
 *
 * The policy test masks SCHED_RESET_ON_FORK: the launch script starts
 * deadline tasks with `chrt -R -d`, and sched_getscheduler() then returns
 * SCHED_DEADLINE | SCHED_RESET_ON_FORK, which a plain == SCHED_DEADLINE
 * misses (the task would take the sleeping pattern under SCHED_DEADLINE). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#ifndef SCHED_DEADLINE
#define SCHED_DEADLINE 6 /* <linux/sched.h>; older C libraries lack it */
#endif
#ifndef SCHED_RESET_ON_FORK
#define SCHED_RESET_ON_FORK 0x40000000
#endif

static void job(void)
{
    /* the task's work goes here */
}

static void add_ns(struct timespec *t, long long ns)
{
    ns += t->tv_nsec;
    t->tv_sec += (time_t)(ns / 1000000000LL);
    t->tv_nsec = (long)(ns % 1000000000LL);
}

int main(int argc, char **argv)
{
    if (argc != 3)
        return fprintf(stderr, "usage: periodic PERIOD_US JOBS\n"), 2;
    long long period_ns = atoll(argv[1]) * 1000LL, jobs = atoll(argv[2]);
    int policy = sched_getscheduler(0);
    int deadline = policy != -1 && (policy & ~SCHED_RESET_ON_FORK) == SCHED_DEADLINE;
    fprintf(stderr, "periodic: %s: each job ends with %s\n",
            deadline ? "SCHED_DEADLINE" : "not SCHED_DEADLINE",
            deadline ? "sched_yield()" : "clock_nanosleep() to the next arrival");
    struct timespec next;
    clock_gettime(CLOCK_MONOTONIC, &next);
    for (long long k = 0; k < jobs; k++) {
        job();
        if (deadline) {
            sched_yield(); /* the next job starts at the next period */
        } else {
            add_ns(&next, period_ns);
            while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL) != 0)
                ; /* EINTR: sleep again until the same instant */
        }
    }
    return 0;
}
