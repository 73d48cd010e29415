/* cli/cmd_probe.c — `rtpack probe`: measure this machine (probe/probe.h) and
 * print the report, or its JSON document with --json. SIGINT, SIGTERM and
 * SIGHUP end the measurement early; the library then restores the machine
 * before this command exits 3. */
#include "cli/cli.h"
#include "models/duration.h"
#include "probe/probe_doc.h"
#include "probe/probe.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct probe_settings {
    rtp_probe_opts probe;
    cli_cpu_list cpus;        /* --cpus LIST */
    int seconds;              /* --seconds S */
} probe_settings;

static const cli_choice stats[] = {
    {"max", RTP_PROBE_STAT_MAX}, {"p99", RTP_PROBE_STAT_P99}, {NULL, 0},
};

/* A time from 100us to 100ms. */
static int parse_period(const char *text, void *field, char *why, size_t why_size)
{
    rtp_ns *p = field;
    if (cli_parse_time(text, p, why, why_size) != 0)
        return -1;
    return *p >= 100000 && *p <= 100000000 ? 0 : -1;
}

static const cli_option options[] = {
    {.name = "cpus", .type = CLI_CPUS, CLI_TARGET(probe_settings, cpus),
     .def = "every online CPU", .help = "CPUs to measure, e.g. 0,2-3"},
    {.name = "seconds", .type = CLI_INT, CLI_TARGET(probe_settings, seconds), .metavar = "S",
     .min = 1, .max = 3600, .def = "10", .help = "measuring time in whole seconds"},
    {.name = "period", .type = CLI_CUSTOM, CLI_TARGET(probe_settings, probe.period_ns),
     .metavar = "T", .parse = parse_period, .wants = "a time from 100us to 100ms",
     .def = "1ms", .help = "wake-up period"},
    {.name = "release-latency", .type = CLI_ENUM,
     CLI_TARGET(probe_settings, probe.latency_stat), .choices = stats, .def = "max",
     .help = "the statistic platform.overheads.release_latency takes"},
    CLI_OPTION_JSON,
    CLI_END,
};

static void init(void *opaque)
{
    probe_settings *s = opaque;
    s->probe = rtp_probe_opts_default();
    s->seconds = (int)(s->probe.seconds_ns / 1000000000);
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

/* The SCHED_DEADLINE charge per CPU and job length (docs/spec.md "rtpack
 * probe"). */
static void print_charge(const rtp_probe_report *r)
{
    int any = 0;
    for (size_t i = 0; i < r->n_cpus; i++)
        any |= r->cpus[i].charge.measured;
    if (!any)
        return;
    printf("\nSCHED_DEADLINE charge per job beyond its own execution (ns)\n"
           "  %-8s %10s %8s %10s %10s %10s %10s %10s %9s\n", "CPU", "job", "samples",
           "mean", "p99.9", "max", "wall p99.9", "wall max", "throttled");
    for (size_t i = 0; i < r->n_cpus; i++) {
        const rtp_probe_charge *c = &r->cpus[i].charge;
        if (!c->measured)
            continue;
        for (int k = 0; k < RTP_PROBE_CHARGE_LENGTHS; k++) {
            const rtp_probe_charge_len *l = &c->len[k];
            char len[24];
            rtp_duration_format(l->length_ns, len, sizeof len);
            printf("  cpu %-4d %10s %8llu %10lld %10lld %10lld %10lld %10lld %9llu\n",
                   r->cpus[i].cpu, l->length_ns ? len : "empty",
                   (unsigned long long)l->samples, (long long)l->excess_mean_ns,
                   (long long)l->excess_p999_ns, (long long)l->excess_max_ns,
                   (long long)l->wall_p999_ns, (long long)l->wall_max_ns,
                   (unsigned long long)l->throttled);
        }
        printf("  cpu %-4d fit: %lld ns per job + %lld ns per ms of execution\n", r->cpus[i].cpu,
               (long long)c->fixed_ns, (long long)c->per_ms_ns);
    }
}

/* Lock + unlock per deployed kind (docs/spec.md "Lock overheads"). */
static void print_locks(const rtp_probe_report *r)
{
    int any = 0;
    for (size_t i = 0; i < r->n_cpus; i++)
        any |= r->cpus[i].locks[0].measured;
    if (!any)
        return;
    printf("\nlock + unlock, uncontended (ns)\n  %-8s %-8s %10s %10s %10s %8s\n", "CPU", "kind",
           "median", "p99", "max", "samples");
    for (size_t i = 0; i < r->n_cpus; i++)
        for (int k = 0; k < RTP_PROBE_LOCK_KINDS && r->cpus[i].locks[k].measured; k++) {
            const rtp_probe_lock_cost *l = &r->cpus[i].locks[k];
            printf("  cpu %-4d %-8s %10lld %10lld %10lld %8llu\n", r->cpus[i].cpu,
                   rtp_probe_lock_names[k], (long long)l->median_ns, (long long)l->p99_ns,
                   (long long)l->max_ns, (unsigned long long)l->samples);
        }
}

static int print_human(const cli_args *args, const rtp_probe_report *r)
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
    print_charge(r);
    print_locks(r);
    char *platform = rtp_probe_platform_to_json(r);
    if (!platform)
        return cli_out_of_memory(args);
    printf("\nplatform (release_latency = %s over CPUs and policies, context_switch = largest "
           "p99%s%s), paste into a task set:\n  \"platform\": %s",
           rtp_probe_stat_name(r->latency_stat),
           r->deadline_charge_ns || r->noise_per_ms_ns
               ? ", deadline_charge and noise_per_ms = the largest fit over CPUs"
               : "",
           r->lock_ns ? ", lock = largest p99 over CPUs and kinds" : "", platform);
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

static int run(const cli_args *args, void *settings)
{
    probe_settings *s = settings;
    rtp_probe_opts o = s->probe;
    int rc;
    o.cpus = s->cpus.ids;
    o.n_cpus = s->cpus.n;
    o.seconds_ns = (rtp_ns)s->seconds * 1000000000;
    if (o.dl_runtime_ns > o.period_ns / 5)
        o.dl_runtime_ns = o.period_ns / 5;
    const char *root = getenv("RTPACK_PROBE_ROOT"); /* tests: a recorded tree */
    if (root && root[0])
        o.root = root;
    o.stop = cli_stop_signals_catch(NULL);
    rtp_probe_report report;
    rtp_diag diag;
    rtp_diag_clear(&diag);
    rtp_status st = rtp_probe_run(&o, &report, &diag);
    if (st != RTP_OK) {
        rtp_probe_report_free(&report);
        return cli_fail(args, "", st, &diag);
    }
    if (args->json) {
        char *text = rtp_probe_report_to_json(&report, 1);
        rc = text ? CLI_EXIT_OK : cli_out_of_memory(args);
        if (text)
            fputs(text, stdout);
        free(text);
    } else {
        rc = print_human(args, &report);
    }
    rtp_probe_report_free(&report);
    return rc;
}

const cli_command cli_cmd_probe = {
    .name = "probe",
    .summary = "Measure this machine for the analysis: kernel facts and per-CPU real-time "
               "latencies, with a platform member to paste into a task set.",
    .description =
        "Kernel facts: HZ, preemption model, HRTICK_DL, RT throttling, the DL fair server, "
        "isolation, SMT, cpufreq, virtualization. Per CPU: SCHED_FIFO and SCHED_DEADLINE "
        "wake-up latency, context-switch cost, and the budget SCHED_DEADLINE charges a job "
        "beyond its own execution (jobs of 0, 100 us, 1 ms and 10 ms). The platform member "
        "carries overheads (release_latency, context_switch, deadline_charge, noise_per_ms) "
        "for the analysis. Needs root for the real-time "
        "measurements (without it, it reports what it can and says what it skipped); leaves "
        "the machine as it found it. SIGINT, SIGTERM and SIGHUP end the measurement early "
        "(exit 3, machine restored).",
    .examples = "rtpack probe --seconds 5\n"
                "rtpack probe --cpus 2-3 --json > machine.json\n",
    .options = options,
    .settings_size = sizeof(probe_settings),
    .init = init,
    .run = run,
};
