/* tests/support/show_sched.c — rtp_show_sched, a test helper (never
 * installed): prints what the kernel's sched_getattr(2) reports for this
 * process, so tests/cli_launch_real.sh can see what rtpack-launch really
 * set, and echoes its arguments, so the test sees what the launcher passed.
 *
 *   rtp_show_sched [--spin NS] [--catch-xcpu] [--sleep] [--] [ARG...]
 *
 * Output, one item a line: "policy N", "flags 0xN" (SCHED_FLAG_* as the
 * kernel reports them), "runtime NS", "deadline NS", "period NS",
 * "sigxcpu ignored|default" (the disposition it started with), then
 * "arg WORD" per ARG. --spin then spins NS of wall-clock time reading
 * CLOCK_MONOTONIC (the vDSO: no system call), so under SCHED_DEADLINE the
 * kernel finds the budget exhausted only at a tick, as for any job that
 * computes past its runtime, and the tick that throttles the task raises
 * SIGXCPU under SCHED_FLAG_DL_OVERRUN (a task that reads its own CPU
 * clock, a system call, is throttled inside it instead, and the signal
 * then waits for a tick that finds the task running: docs/deploy.md);
 * --catch-xcpu counts SIGXCPU and prints "xcpu N" at the end (without it
 * SIGXCPU keeps the disposition it started with); --sleep then
 * waits for a signal (a task of a deployment). Exit 0, or 1 when
 * sched_getattr fails. */
#include "models/sched_attr.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static volatile sig_atomic_t xcpu;

static void on_xcpu(int sig)
{
    (void)sig;
    xcpu++;
}

static long long now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int main(int argc, char **argv)
{
    long long spin = 0;
    int catch_xcpu = 0, sleep_after = 0, i = 1;
    for (; i < argc && strncmp(argv[i], "--", 2) == 0; i++) {
        if (strcmp(argv[i], "--") == 0) {
            i++;
            break;
        } else if (strcmp(argv[i], "--spin") == 0 && i + 1 < argc) {
            spin = atoll(argv[++i]);
        } else if (strcmp(argv[i], "--catch-xcpu") == 0) {
            catch_xcpu = 1;
        } else if (strcmp(argv[i], "--sleep") == 0) {
            sleep_after = 1;
        } else {
            fprintf(stderr, "rtp_show_sched: unknown option %s\n", argv[i]);
            return 2;
        }
    }
    struct sigaction inherited;
    sigaction(SIGXCPU, NULL, &inherited);
    if (catch_xcpu) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_xcpu;
        sigaction(SIGXCPU, &sa, NULL);
    }
    struct sched_attr a;
    memset(&a, 0, sizeof a);
    if (rtp_sched_getattr(0, &a) != 0) {
        fprintf(stderr, "rtp_show_sched: sched_getattr: %s\n", strerror(errno));
        return 1;
    }
    printf("policy %u\nflags 0x%llx\nruntime %llu\ndeadline %llu\nperiod %llu\nsigxcpu %s\n",
           a.sched_policy, (unsigned long long)a.sched_flags,
           (unsigned long long)a.sched_runtime, (unsigned long long)a.sched_deadline,
           (unsigned long long)a.sched_period,
           inherited.sa_handler == SIG_IGN ? "ignored" : "default");
    for (; i < argc; i++)
        printf("arg %s\n", argv[i]);
    fflush(stdout);
    for (long long until = now_ns() + spin; spin > 0 && now_ns() < until;)
        ;
    if (catch_xcpu)
        printf("xcpu %d\n", (int)xcpu);
    fflush(stdout);
    while (sleep_after)
        pause();
    return 0;
}
