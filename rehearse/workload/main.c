/* rehearse/workload/main.c — rtpack-workload, the synthetic task that
 * `rtpack rehearse` deploys in place of each task's command (docs/spec.md
 * "rtpack rehearse"). Each job does SPIN ns of its own work, as a computing
 * job of that wcet would: it is busy until CLOCK_MONOTONIC has advanced SPIN
 * ns in steps of at most RTP_WORK_STEP_NS (1 us); a longer step is time
 * something else took (preemption, an interrupt, the tick, the hypervisor),
 * which the job pays on top, as a real job does. The loop makes no system
 * call (the vDSO clock), so a budget overrun is noticed by the kernel at its
 * tick, as for a real job, not at the next syscall. Then it waits for its
 * next release with the pattern docs/deploy.md "Release
 * patterns" documents: sched_yield() under SCHED_DEADLINE, an absolute
 * clock_nanosleep under anything else. Responses go to a preallocated,
 * locked buffer (rehearse/joblog.h): nothing is printed or allocated while
 * jobs run. The arrival grid: under SCHED_DEADLINE the kernel's own periods,
 * from the thread's dl.deadline mapped to CLOCK_MONOTONIC with the offset
 * rehearse measured (--clock-offset, rehearse/dlclock.h), so a late first
 * wake-up is counted like any other; without the offset (or under another
 * policy) the first job's start, which hides that job's wake-up latency
 * ("grid first_job" in OUT). On SIGTERM or SIGINT (the launch script's stop), or after
 * --max-seconds, it writes its counts to OUT (a temporary file renamed) and
 * exits 0.
 *
 * With --window 1 it counts only the jobs released between SIGUSR1 and
 * SIGUSR2 (rehearse sends them once every task runs and when the measured
 * seconds end, so the jobs of the start and stop phases, when the other
 * tasks and the cpusets are not yet or no longer as planned, are not
 * counted) and creates OUT.ready once its handlers are in place (before
 * that, SIGUSR1 would end it).
 *
 * With --locks DIR and one --lock R:KIND:PRIO:COUNT:LENGTH per critical
 * section declaration (resource R's lock file DIR/R, rehearse/shared_lock.h;
 * KIND an rtp_deploy_lock_kind, PRIO the spin lock's FIFO priority), each
 * job first takes each lock COUNT times for LENGTH ns of its work (inside
 * SPIN ns), then does the rest; a lock that cannot be taken ends the program
 * with status 3 and no OUT (rehearse then reports the task).
 *
 * usage: rtpack-workload --period NS --deadline NS --spin NS --out FILE
 *                        [--max-seconds S] [--window 0|1] [--clock-offset NS]
 *                        [--locks DIR --lock R:KIND:PRIO:COUNT:LENGTH ...]
 * OUT: lines "jobs N", "misses N", "skipped N", "response_max NS",
 * "response_p99 NS" (-1 without jobs), "recorded N", "grid kernel|first_job",
 * "overruns N" (SIGXCPU received: the kernel's budget-overrun signal when
 * the task runs with SCHED_FLAG_DL_OVERRUN; a lower bound, one per tick that
 * finds the task over its budget at most). */
#include "rehearse/dlclock.h"
#include "rehearse/joblog.h"
#include "models/sched_attr.h"
#include "rehearse/shared_lock.h"

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>


#define MAX_RECORDED ((size_t)1 << 22) /* 32 MiB of responses */

#define RTP_WORK_STEP_NS 1000

/* The program's only globals: set by signals. */
static volatile sig_atomic_t stop, go, frozen, overruns;

static void on_signal(int sig)
{
    if (sig == SIGUSR1)
        go = 1;
    else if (sig == SIGUSR2)
        frozen = 1;
    else if (sig == SIGXCPU)
        overruns = overruns + 1;
    else
        stop = 1;
}

static rtp_ns now(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (rtp_ns)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* ns of own work (the loop's own steps of the monotonic clock). */
static void work(rtp_ns ns)
{
    rtp_ns prev = now(CLOCK_MONOTONIC), own = 0;
    while (own < ns) {
        rtp_ns t = now(CLOCK_MONOTONIC), step = t - prev;
        if (step <= RTP_WORK_STEP_NS)
            own += step;
        prev = t;
    }
}

static void sleep_until(rtp_ns t)
{
    struct timespec ts = {.tv_sec = (time_t)(t / 1000000000), .tv_nsec = (long)(t % 1000000000)};
    while (!stop && clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
        ;
}

static int write_result(const char *path, rtp_joblog *log, int kernel_grid)
{
    char tmp[4096];
    if ((size_t)snprintf(tmp, sizeof tmp, "%s.tmp", path) >= sizeof tmp)
        return -1;
    FILE *f = fopen(tmp, "w");
    if (!f)
        return -1;
    fprintf(f, "jobs %llu\nmisses %llu\nskipped %llu\nresponse_max %lld\nresponse_p99 %lld\n"
               "recorded %zu\ngrid %s\noverruns %lld\n",
            (unsigned long long)log->jobs, (unsigned long long)log->misses,
            (unsigned long long)log->skipped, (long long)(log->jobs ? log->response_max_ns : -1),
            (long long)rtp_joblog_percentile(log->responses, log->n, 99), log->n,
            kernel_grid ? "kernel" : "first_job", (long long)overruns);
    int bad = ferror(f) | fclose(f);
    return bad || rename(tmp, path) != 0 ? -1 : 0;
}

static int touch_ready(const char *out)
{
    char path[4096];
    if ((size_t)snprintf(path, sizeof path, "%s.ready", out) >= sizeof path)
        return -1;
    FILE *f = fopen(path, "w");
    return f && fclose(f) == 0 ? 0 : -1;
}

#define MAX_LOCKS 64

typedef struct section {
    rtp_shared_lock *lock;
    int kind, priority;
    long long count;
    rtp_ns length;
} section;

/* The --lock declarations, their files opened; the count, or -1 (message
 * printed). */
static int open_locks(int argc, char **argv, section *sec)
{
    const char *dir = NULL;
    int n = 0;
    for (int i = 1; i + 1 < argc; i += 2)
        if (strcmp(argv[i], "--locks") == 0)
            dir = argv[i + 1];
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--lock") != 0)
            continue;
        unsigned r;
        char path[4200];
        if (!dir || n == MAX_LOCKS ||
            sscanf(argv[i + 1], "%u:%d:%d:%lld:%lld", &r, &sec[n].kind, &sec[n].priority,
                   &sec[n].count, (long long *)&sec[n].length) != 5 ||
            (size_t)snprintf(path, sizeof path, "%s/%u", dir, r) >= sizeof path)
            return fprintf(stderr, "rtpack-workload: bad --lock %s\n", argv[i + 1]), -1;
        if (!(sec[n].lock = rtp_shared_lock_open(path)))
            return fprintf(stderr, "rtpack-workload: cannot open %s: %s\n", path,
                           strerror(errno)), -1;
        n++;
    }
    return n;
}

/* One job's critical sections (each inside its lock); the ns they took
 * from the job's work, or -1 when a lock failed (message printed). */
static rtp_ns sections(const section *sec, int n)
{
    rtp_ns used = 0;
    for (int k = 0; k < n; k++)
        for (long long c = 0; c < sec[k].count; c++) {
            int restore = 0, e = rtp_shared_lock_take(sec[k].lock, sec[k].kind,
                                                      sec[k].priority, &restore);
            if (!e) {
                work(sec[k].length);
                e = rtp_shared_lock_give(sec[k].lock, sec[k].kind, restore);
            }
            if (e)
                return fprintf(stderr, "rtpack-workload: a lock failed: %s\n", strerror(e)), -1;
            used += sec[k].length;
        }
    return used;
}

static long long arg(int argc, char **argv, const char *name, long long def)
{
    for (int i = 1; i + 1 < argc; i += 2)
        if (strcmp(argv[i], name) == 0)
            return atoll(argv[i + 1]);
    return def;
}

int main(int argc, char **argv)
{
    const char *out = NULL;
    for (int i = 1; i + 1 < argc; i += 2)
        if (strcmp(argv[i], "--out") == 0)
            out = argv[i + 1];
    rtp_ns period = arg(argc, argv, "--period", 0), deadline = arg(argc, argv, "--deadline", 0);
    rtp_ns burn = arg(argc, argv, "--spin", -1);
    long long max_s = arg(argc, argv, "--max-seconds", 3600);
    long long window = arg(argc, argv, "--window", 0);
    long long offset = arg(argc, argv, "--clock-offset", INT64_MIN);
    if (!out || period <= 0 || deadline <= 0 || burn < 0 || max_s < 1 || argc % 2 == 0 ||
        (window != 0 && window != 1)) {
        fprintf(stderr, "usage: rtpack-workload --period NS --deadline NS --spin NS --out FILE "
                        "[--max-seconds S] [--window 0|1] [--clock-offset NS]\n");
        return 2;
    }
    section sec[MAX_LOCKS];
    int n_sec = open_locks(argc, argv, sec);
    if (n_sec < 0)
        return 3;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal; /* no SA_RESTART: a sleep ends with EINTR */
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGUSR1, &sa, NULL);
    sigaction(SIGUSR2, &sa, NULL);
    sigaction(SIGXCPU, &sa, NULL);
    if (window && touch_ready(out) != 0)
        return fprintf(stderr, "rtpack-workload: cannot create %s.ready\n", out), 3;
    size_t cap = (size_t)(max_s + 1) * (1000000000 / period + 1);
    cap = cap > MAX_RECORDED ? MAX_RECORDED : cap;
    rtp_ns *buf = malloc(cap * sizeof *buf);
    if (!buf)
        return fprintf(stderr, "rtpack-workload: out of memory\n"), 3;
    memset(buf, 0, cap * sizeof *buf); /* touch every page before the first job */
    mlockall(MCL_CURRENT | MCL_FUTURE); /* best effort: a failure costs page faults only */
    /* chrt -R adds SCHED_RESET_ON_FORK to the policy the kernel reports */
    int by_start = (sched_getscheduler(0) & ~SCHED_RESET_ON_FORK) == SCHED_DEADLINE;
    /* Under SCHED_DEADLINE the kernel's periods began when the launch
     * script set the policy, before this program was loaded (which used
     * part of that period's runtime): wait for the next period, so the
     * first job, and with it the arrival grid, starts on the kernel's. */
    if (by_start)
        sched_yield();
    /* The kernel's period this runs in ends its deadline at dl: reading it
     * costs this period's budget, so the jobs start at the next one, which
     * begins at dl - D + T (or whole periods later if the read overdrew the
     * budget: those slots come before the counting window). */
    rtp_ns dl = by_start && offset != INT64_MIN ? rtp_dlclock_deadline() : -1;
    if (dl > 0)
        sched_yield();
    rtp_joblog log;
    rtp_ns first = now(CLOCK_MONOTONIC), origin = first;
    rtp_ns end_at = first + (rtp_ns)max_s * 1000000000;
    int kernel_grid = dl > 0 && dl - deadline + period - offset <= first;
    if (kernel_grid)
        origin = dl - deadline + period - offset;
    rtp_joblog_init(&log, origin, period, deadline, by_start, buf, cap);
    if (window)
        log.count_from = log.count_until = INT64_MAX;
    for (rtp_ns start = first; !stop && start < end_at;) {
        /* the window opens (closes) at the first job after the signal */
        if (window && go && log.count_from == INT64_MAX)
            log.count_from = log.next_slot;
        if (window && frozen && log.count_until == INT64_MAX)
            log.count_until = log.next_slot > log.count_from ? log.next_slot : log.count_from;
        rtp_ns in_sections = n_sec ? sections(sec, n_sec) : 0;
        if (in_sections < 0)
            return 3;
        work(burn > in_sections ? burn - in_sections : 0);
        rtp_joblog_add(&log, start, now(CLOCK_MONOTONIC));
        if (by_start)
            sched_yield(); /* SCHED_DEADLINE: the kernel releases the next job */
        else
            sleep_until(rtp_joblog_next_arrival(&log));
        start = now(CLOCK_MONOTONIC);
    }
    if (write_result(out, &log, kernel_grid) != 0)
        return fprintf(stderr, "rtpack-workload: cannot write %s\n", out), 3;
    free(buf);
    return 0;
}
