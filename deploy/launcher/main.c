/* deploy/launcher/main.c — rtpack-launch: makes the calling process a
 * SCHED_DEADLINE task with the flags chrt cannot set (util-linux 2.38 sets
 * SCHED_FLAG_RESET_ON_FORK only), then execs the command in its place, so
 * the task runs with exactly what the kernel admitted. The launch scripts
 * of `rtpack emit --reclaim` / `--overrun-signal` start each deadline task
 * through it (docs/spec.md "rtpack-launch"); the flags: [LinuxDL] sections
 * 2.1 (SIGXCPU at overruns) and 2.2 (GRUB reclaiming [LB00]).
 *
 *   rtpack-launch --runtime NS --deadline NS --period NS [--reclaim]
 *                 [--overrun-signal] [--reset-on-fork] [--] CMD [ARG...]
 *
 * With --overrun-signal, CMD starts with SIGXCPU ignored (a disposition
 * exec keeps): its start-up runs on its first budget, and SIGXCPU's default
 * action would end it there, before it could install a handler (measured:
 * docs/platform-notes.md); a CMD that wants the signals installs a handler,
 * which replaces the ignored disposition.
 *
 * Exit status: 2 for a usage error, 126 when sched_setattr(2) refuses (the
 * cause named: admission, permission, parameters), 127 when CMD cannot be
 * executed (like env(1)); on success the process is CMD. It prints nothing
 * unless it fails, and never forks. */
#include "models/sched_attr.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { EXIT_USAGE = 2, EXIT_REFUSED = 126, EXIT_EXEC = 127 };

#define TIME_MAX_NS ((uint64_t)1 << 62) /* rtpack's bound on every time */
#define RUNTIME_MIN_NS 1024u            /* the kernel's 1 << DL_SCALE */
#define CAP_SYS_NICE_BIT 23             /* <linux/capability.h> */

static const char usage_text[] =
    "usage: rtpack-launch --runtime NS --deadline NS --period NS [--reclaim] "
    "[--overrun-signal] [--reset-on-fork] [--] CMD [ARG...]";

typedef struct launch {
    uint64_t runtime, deadline, period; /* ns; 0 = not given */
    uint64_t flags;                     /* SCHED_FLAG_* */
    char **cmd;                         /* NULL-terminated, argv's */
} launch;

static const struct time_option {
    const char *name;
    size_t offset;
} time_options[] = {
    {"runtime", offsetof(launch, runtime)},
    {"deadline", offsetof(launch, deadline)},
    {"period", offsetof(launch, period)},
};

static const struct flag_option {
    const char *name;
    uint64_t flag;
} flag_options[] = {
    {"reclaim", SCHED_FLAG_RECLAIM},
    {"overrun-signal", SCHED_FLAG_DL_OVERRUN},
    {"reset-on-fork", SCHED_FLAG_RESET_ON_FORK},
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* "rtpack-launch: MESSAGE; usage: ..." on stderr, exit 2. */
static void __attribute__((noreturn, format(printf, 1, 2))) usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("rtpack-launch: ", stderr);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "; %s\n", usage_text);
    exit(EXIT_USAGE);
}

/* A whole, positive number of ns up to 2^62: digits only. */
static uint64_t parse_ns(const char *name, const char *text)
{
    size_t len = strlen(text);
    uint64_t v = 0;
    int ok = len > 0 && len <= 19 && strspn(text, "0123456789") == len;
    for (size_t k = 0; ok && k < len; k++)
        v = v * 10 + (uint64_t)(text[k] - '0'); /* 19 digits fit in 64 bits */
    if (!ok || v == 0 || v > TIME_MAX_NS)
        usage_error("--%s wants a whole number of ns from 1 to 2^62, got '%s'", name, text);
    return v;
}

/* Reads the options up to the command ("--" or the first word that is not
 * an option) into *l; every error is a usage error. */
static void parse(int argc, char **argv, launch *l)
{
    int i = 1;
    memset(l, 0, sizeof *l);
    for (; i < argc; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "--") == 0) {
            i++;
            break;
        }
        if (arg[0] != '-')
            break;
        if (strcmp(arg, "--help") == 0) {
            printf("%s\n", usage_text);
            exit(0);
        }
        if (arg[1] != '-')
            usage_error("unknown option '%s'", arg);
        const char *name = arg + 2, *eq = strchr(name, '=');
        size_t len = eq ? (size_t)(eq - name) : strlen(name);
        int known = 0;
        for (size_t k = 0; k < COUNT(time_options); k++) {
            const struct time_option *o = &time_options[k];
            if (strlen(o->name) != len || strncmp(name, o->name, len) != 0)
                continue;
            uint64_t *field = (uint64_t *)((char *)l + o->offset);
            if (*field)
                usage_error("--%s given twice", o->name);
            if (!eq && i + 1 >= argc)
                usage_error("--%s wants a value (ns)", o->name);
            *field = parse_ns(o->name, eq ? eq + 1 : argv[++i]);
            known = 1;
        }
        for (size_t k = 0; k < COUNT(flag_options); k++) {
            const struct flag_option *o = &flag_options[k];
            if (strlen(o->name) != len || strncmp(name, o->name, len) != 0)
                continue;
            if (eq)
                usage_error("--%s takes no value", o->name);
            if (l->flags & o->flag)
                usage_error("--%s given twice", o->name);
            l->flags |= o->flag;
            known = 1;
        }
        if (!known)
            usage_error("unknown option '%s'", arg);
    }
    for (size_t k = 0; k < COUNT(time_options); k++)
        if (*(const uint64_t *)((const char *)l + time_options[k].offset) == 0)
            usage_error("missing --%s", time_options[k].name);
    if (i >= argc)
        usage_error("no command to run");
    if (l->runtime < RUNTIME_MIN_NS)
        usage_error("--runtime %llu ns is below the kernel's minimum of %u ns",
                    (unsigned long long)l->runtime, RUNTIME_MIN_NS);
    if (l->runtime > l->deadline || l->deadline > l->period)
        usage_error("--runtime %llu, --deadline %llu, --period %llu: the kernel wants runtime "
                    "<= deadline <= period",
                    (unsigned long long)l->runtime, (unsigned long long)l->deadline,
                    (unsigned long long)l->period);
    l->cmd = argv + i;
}

/* The first line of a /proc or /sys file starting with `key` (or the first
 * line for key ""), its rest into buf; 0, or -1. */
static int read_line(const char *path, const char *key, char *buf, size_t size)
{
    FILE *f = fopen(path, "r");
    char line[256];
    int found = -1;
    while (f && found && fgets(line, sizeof line, f)) {
        if (strncmp(line, key, strlen(key)) != 0)
            continue;
        snprintf(buf, size, "%s", line + strlen(key));
        buf[strcspn(buf, "\n")] = '\0';
        found = 0;
    }
    if (f)
        fclose(f);
    return found;
}

/* A /proc/sys integer, or `otherwise` when unreadable. */
static long long sysctl_value(const char *path, long long otherwise)
{
    char buf[64], *end;
    if (read_line(path, "", buf, sizeof buf) != 0)
        return otherwise;
    long long v = strtoll(buf, &end, 10);
    return end == buf ? otherwise : v;
}

/* 1 when this process holds CAP_SYS_NICE, 0 when not, -1 unknown. */
static int has_sys_nice(void)
{
    char buf[64], *end;
    if (read_line("/proc/self/status", "CapEff:", buf, sizeof buf) != 0)
        return -1;
    unsigned long long caps = strtoull(buf, &end, 16);
    return end == buf ? -1 : (int)((caps >> CAP_SYS_NICE_BIT) & 1);
}

/* The CPUs this process may run on, "0-3,6", into buf ("?" on failure). */
static void affinity_text(char *buf, size_t size)
{
    cpu_set_t set;
    size_t used = 0;
    snprintf(buf, size, "?");
    if (sched_getaffinity(0, sizeof set, &set) != 0)
        return;
    for (int c = 0; c < CPU_SETSIZE && used < size; c++) {
        if (!CPU_ISSET(c, &set) || (c > 0 && CPU_ISSET(c - 1, &set)))
            continue;
        int last = c;
        while (last + 1 < CPU_SETSIZE && CPU_ISSET(last + 1, &set))
            last++;
        used += (size_t)snprintf(buf + used, size - used, last > c ? "%s%d-%d" : "%s%d",
                                 used ? "," : "", c, last);
    }
}

/* One line naming why sched_setattr failed with `err`; exit 126. */
static void __attribute__((noreturn)) refused(int err, const launch *l)
{
    char cpus[256];
    affinity_text(cpus, sizeof cpus);
    fprintf(stderr, "rtpack-launch: sched_setattr(SCHED_DEADLINE, runtime %llu, deadline %llu, "
                    "period %llu ns): %s: ",
            (unsigned long long)l->runtime, (unsigned long long)l->deadline,
            (unsigned long long)l->period, strerror(err));
    if (err == EBUSY) {
        fprintf(stderr, "admission refused: the SCHED_DEADLINE bandwidth of the root domain of "
                        "CPUs %s is taken (its deadline tasks may reserve sched_rt_runtime_us / "
                        "sched_rt_period_us of each CPU, less the fair server's share since "
                        "Linux 6.12): stop a deadline task there or ask for less\n",
                cpus);
    } else if (err == EPERM) {
        int nice = has_sys_nice();
        if (nice == 0)
            fprintf(stderr, "SCHED_DEADLINE needs root (CAP_SYS_NICE), which this process "
                            "lacks\n");
        else if (sysctl_value("/proc/sys/kernel/sched_rt_runtime_us", -1) == 0)
            fprintf(stderr, "sched_rt_runtime_us is 0: the kernel grants SCHED_DEADLINE no "
                            "bandwidth\n");
        else
            fprintf(stderr, "%sthis process may run on CPUs %s, which is not its whole root "
                            "domain: a SCHED_DEADLINE task is confined by an exclusive cpuset "
                            "(a root domain of its own), never by taskset or "
                            "sched_setaffinity\n",
                    nice < 0 ? "it needs root (CAP_SYS_NICE); or " : "", cpus);
    } else if (err == EINVAL) {
        long long lo = sysctl_value("/proc/sys/kernel/sched_deadline_period_min_us", -1);
        long long hi = sysctl_value("/proc/sys/kernel/sched_deadline_period_max_us", -1);
        if ((lo > 0 && l->period < (uint64_t)lo * 1000) ||
            (hi > 0 && l->period > (uint64_t)hi * 1000))
            fprintf(stderr, "the period is outside sched_deadline_period_min_us.._max_us = "
                            "%lld..%lld us\n",
                    lo, hi);
        else
            fprintf(stderr, "the kernel refused the parameters or flags 0x%llx (SCHED_FLAG_"
                            "RECLAIM needs Linux 4.13, SCHED_FLAG_DL_OVERRUN 4.16)\n",
                    (unsigned long long)l->flags);
    } else {
        fputs("SCHED_DEADLINE not set\n", stderr);
    }
    exit(EXIT_REFUSED);
}

int main(int argc, char **argv)
{
    launch l;
    parse(argc, argv, &l);
    struct sched_attr attr;
    memset(&attr, 0, sizeof attr);
    attr.size = sizeof attr;
    attr.sched_policy = SCHED_DEADLINE;
    attr.sched_flags = l.flags;
    attr.sched_runtime = l.runtime;
    attr.sched_deadline = l.deadline;
    attr.sched_period = l.period;
    if (l.flags & SCHED_FLAG_DL_OVERRUN)
        signal(SIGXCPU, SIG_IGN); /* before the first budget can run out */
    if (rtp_sched_setattr(0, &attr) != 0)
        refused(errno, &l);
    execvp(l.cmd[0], l.cmd);
    fprintf(stderr, "rtpack-launch: cannot run '%s': %s\n", l.cmd[0], strerror(errno));
    return EXIT_EXEC;
}
