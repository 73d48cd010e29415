/* cli/cmd_probe.c — `rtpack probe`: measure this machine (probe/probe.h) and
 * print the report, or its JSON document with --json. SIGINT, SIGTERM and
 * SIGHUP end the measurement early; the library then restores the machine
 * before this command exits 3. */
#include "cli/cli.h"
#include "models/duration.h"
#include "models/probe_doc.h"
#include "probe/facts.h"
#include "probe/probe.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The one piece of process state a signal handler needs. */
static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
    (void)sig;
    interrupted = 1;
}

static const cli_option options[] = {
    {"cpus", 1, "LIST: CPUs to measure, e.g. 0,2-3 (default: every online CPU)"},
    {"seconds", 1, "S: measuring time in whole seconds, 1..3600 (default 10)"},
    {"period", 1, "T: wake-up period, 100us..100ms (default 1ms)"},
    {"release-latency", 1, "max|p99: the statistic platform.overheads.release_latency takes "
                           "(default max)"},
    {NULL, 0, NULL},
};

static int parse_cpus(const cli_args *args, const char *text, int **cpus, size_t *n)
{
    rtp_cpumask m;
    if (!text[0] || rtp_probe_parse_cpulist(text, &m) != 0 || rtp_cpumask_count(&m) == 0)
        return cli_usage_error(args, "--cpus wants a CPU list such as 0,2-3 (ids below %d), "
                                     "got '%s'",
                               RTP_CPU_LIMIT, text);
    *n = rtp_cpumask_count(&m);
    if (!(*cpus = calloc(*n, sizeof **cpus)))
        return cli_usage_error(args, "out of memory");
    size_t i = 0;
    for (int c = rtp_cpumask_next(&m, -1); c >= 0; c = rtp_cpumask_next(&m, c))
        (*cpus)[i++] = c;
    return 0;
}

static int parse_opts(const cli_args *args, rtp_probe_opts *o, int **cpus)
{
    const char *text;
    char why[128];
    int rc;
    if (args->n_positional != 0)
        return cli_usage_error(args, "takes no FILE argument");
    if ((text = cli_get(args, "cpus")) && (rc = parse_cpus(args, text, cpus, &o->n_cpus)))
        return rc;
    o->cpus = *cpus;
    if ((text = cli_get(args, "seconds"))) {
        char *end = NULL;
        long s = strtol(text, &end, 10);
        if (text[0] < '0' || text[0] > '9' || *end != '\0' || s < 1 || s > 3600)
            return cli_usage_error(args, "--seconds wants a whole number from 1 to 3600, got '%s'",
                                   text);
        o->seconds_ns = (rtp_ns)s * 1000000000;
    }
    if ((text = cli_get(args, "period"))) {
        rtp_ns p;
        if (rtp_duration_parse(text, &p, why, sizeof why) != RTP_OK)
            return cli_usage_error(args, "--period: %s (got '%s')", why, text);
        if (p < 100000 || p > 100000000)
            return cli_usage_error(args, "--period must be from 100us to 100ms, got '%s'", text);
        o->period_ns = p;
        if (o->dl_runtime_ns > p / 5)
            o->dl_runtime_ns = p / 5;
    }
    if ((text = cli_get(args, "release-latency"))) {
        if (strcmp(text, "max") == 0)
            o->latency_stat = RTP_PROBE_STAT_MAX;
        else if (strcmp(text, "p99") == 0)
            o->latency_stat = RTP_PROBE_STAT_P99;
        else
            return cli_usage_error(args, "--release-latency must be max or p99, got '%s'", text);
    }
    return 0;
}

static const char *tri_word(rtp_tri t, const char *yes, const char *no)
{
    return t == RTP_TRI_UNKNOWN ? "unknown" : t == RTP_TRI_YES ? yes : no;
}

static const char *or_unknown(const char *s)
{
    return s && s[0] ? s : "unknown";
}

static void print_kernel(const rtp_probe_report *r)
{
    const rtp_probe_kernel *k = &r->kernel;
    char a[256], b[256];
    printf("kernel\n  release          %s\n", or_unknown(k->release));
    if (k->hz.known)
        printf("  HZ               %lld (%s)\n", (long long)k->hz.value, k->hz_source);
    else
        printf("  HZ               unknown\n");
    printf("  preemption       %s%s%s%s\n", or_unknown(k->preempt), k->preempt_source[0] ? " (" : "",
           k->preempt_source, k->preempt_source[0] ? ")" : "");
    printf("  HRTICK           %s, HRTICK_DL %s%s%s%s\n", tri_word(k->hrtick, "on", "off"),
           tri_word(k->hrtick_dl, "on", "off"), k->hrtick_source[0] ? " (" : "", k->hrtick_source,
           k->hrtick_source[0] ? ")" : "");
    if (k->rt_runtime_us.known && k->rt_period_us.known)
        printf("  RT throttling    %lld us of every %lld us\n", (long long)k->rt_runtime_us.value,
               (long long)k->rt_period_us.value);
    printf("  DL fair server   %s", tri_word(k->dl_fair_server, "yes", "no"));
    if (k->fair_runtime_ns.known && k->fair_period_ns.known)
        printf(" (%lld ns every %lld ns)", (long long)k->fair_runtime_ns.value,
               (long long)k->fair_period_ns.value);
    if (k->has_dl_bandwidth) {
        rtp_ratio_format(k->dl_bandwidth, a, sizeof a);
        printf("; usable SCHED_DEADLINE bandwidth %s per CPU", a);
    }
    printf("\n  virtualized      %s%s%s%s\n", tri_word(k->virtualized, "yes", "no"),
           k->hypervisor[0] ? " (" : "", k->hypervisor, k->hypervisor[0] ? ")" : "");
    rtp_cpumask_format(&k->isolated, a, sizeof a);
    rtp_cpumask_format(&k->nohz_full, b, sizeof b);
    printf("  isolcpus         %s; nohz_full %s\n", k->has_isolated ? (a[0] ? a : "none") : "unknown",
           k->has_nohz_full ? (b[0] ? b : "none") : "unknown");
    if (k->cmdline_isolation[0])
        printf("  command line     %s\n", k->cmdline_isolation);
    printf("  lockdown         %s\n  cpuset           %s\n", or_unknown(k->lockdown),
           k->cpuset[0] ? k->cpuset : "none found");
}

static void latency_cells(const rtp_probe_latency *l, char *buf, size_t size)
{
    if (l->measured)
        snprintf(buf, size, "%10lld %10lld %8llu", (long long)l->max_ns, (long long)l->p99_ns,
                 (unsigned long long)l->samples);
    else
        snprintf(buf, size, "%10s %10s %8s", "-", "-", "-");
}

static void print_cpus(const rtp_probe_report *r)
{
    char fifo[64], dl[64], sw[32], steal[16];
    printf("\nper CPU (ns)     %-30s %-30s %10s %7s %s\n", "SCHED_FIFO max/p99/samples",
           "SCHED_DEADLINE max/p99/samples", "switch p99", "steal", "governor");
    for (size_t i = 0; i < r->n_cpus; i++) {
        const rtp_probe_cpu *c = &r->cpus[i];
        latency_cells(&c->fifo, fifo, sizeof fifo);
        latency_cells(&c->deadline, dl, sizeof dl);
        if (c->context_switch.measured)
            snprintf(sw, sizeof sw, "%lld", (long long)c->context_switch.p99_ns);
        else
            snprintf(sw, sizeof sw, "-");
        if (c->steal >= 0)
            snprintf(steal, sizeof steal, "%.2f%%", 100 * c->steal);
        else
            snprintf(steal, sizeof steal, "-");
        printf("  cpu %-4d       %s %s %10s %7s %s\n", c->cpu, fifo, dl, sw, steal,
               c->governor[0] ? c->governor : "none");
    }
}

static int print_human(const rtp_probe_report *r)
{
    printf("rtpack probe: %zu CPU%s measured for %lld s (wake-ups every %lld ns, SCHED_FIFO "
           "priority %d, SCHED_DEADLINE %lld/%lld ns",
           r->n_cpus, r->n_cpus == 1 ? "" : "s", (long long)(r->seconds_ns / 1000000000),
           (long long)r->period_ns, r->fifo_priority, (long long)r->dl_runtime_ns,
           (long long)r->period_ns);
    if (r->dl_pinning)
        printf(" pinned by %s", strcmp(r->dl_pinning, "cpuset") == 0 ? "one-CPU cpusets"
                                                                     : "the root domain");
    printf(")\n");
    if (r->has_loadavg)
        printf("load average at start: %.2f %.2f %.2f\n", r->loadavg[0], r->loadavg[1],
               r->loadavg[2]);
    printf("\n");
    print_kernel(r);
    print_cpus(r);
    char *platform = rtp_probe_platform_to_json(r);
    if (!platform) {
        fprintf(stderr, "rtpack probe: out of memory\n");
        return CLI_EXIT_LIMIT;
    }
    printf("\nplatform (release_latency = %s over CPUs and policies, context_switch = largest "
           "p99), paste into a task set:\n  \"platform\": %s",
           rtp_probe_stat_name(r->latency_stat), platform);
    free(platform);
    if (r->skipped.n)
        printf("\nskipped:\n");
    for (size_t i = 0; i < r->skipped.n; i++)
        printf("  - %s\n", r->skipped.items[i]);
    printf("\nwarnings:\n");
    for (size_t i = 0; i < r->warnings.n; i++)
        printf("  - %s\n", r->warnings.items[i]);
    if (!r->warnings.n)
        printf("  (none)\n");
    return CLI_EXIT_OK;
}

static int run(const cli_args *args)
{
    rtp_probe_opts o = rtp_probe_opts_default();
    int *cpus = NULL;
    int rc = parse_opts(args, &o, &cpus);
    if (rc) {
        free(cpus);
        return rc;
    }
    const char *root = getenv("RTPACK_PROBE_ROOT"); /* tests: a recorded tree */
    if (root && root[0])
        o.root = root;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    o.stop = &interrupted;
    rtp_probe_report report;
    rtp_diag diag;
    rtp_diag_clear(&diag);
    rtp_status st = rtp_probe_run(&o, &report, &diag);
    free(cpus);
    if (st != RTP_OK) {
        rtp_probe_report_free(&report);
        return cli_fail(args, "", st, &diag);
    }
    if (args->json) {
        char *text = rtp_probe_report_to_json(&report, 1);
        if (text)
            fputs(text, stdout);
        else
            fprintf(stderr, "rtpack probe: out of memory\n");
        rc = text ? CLI_EXIT_OK : CLI_EXIT_LIMIT;
        free(text);
    } else {
        rc = print_human(&report);
    }
    rtp_probe_report_free(&report);
    return rc;
}

const cli_command cli_cmd_probe = {
    "probe",
    "[--cpus LIST] [--seconds S] [--period T] [--release-latency max|p99] [--json]",
    "Measure this machine for the analysis: kernel facts (HZ, preemption model, HRTICK_DL, RT "
    "throttling, DL fair server, isolation, SMT, cpufreq, virtualization), per-CPU SCHED_FIFO "
    "and SCHED_DEADLINE wake-up latency and context-switch cost, and a platform member with "
    "overheads to paste into a task set. Needs root for the real-time measurements; leaves "
    "the machine as it found it.",
    options, run,
};
