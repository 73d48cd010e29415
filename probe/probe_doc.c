/* probe/probe_doc.c — the probe report and its writer (see the header). */
#include "probe/probe_doc.h"
#include "models/grow.h"

#include "models/json_write.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void rtp_cpumask_set(rtp_cpumask *m, int cpu)
{
    if (cpu >= 0 && cpu < RTP_CPU_LIMIT)
        m->bits[cpu / 64] |= (uint64_t)1 << (cpu % 64);
}

int rtp_cpumask_has(const rtp_cpumask *m, int cpu)
{
    return cpu >= 0 && cpu < RTP_CPU_LIMIT && (m->bits[cpu / 64] >> (cpu % 64) & 1);
}

size_t rtp_cpumask_count(const rtp_cpumask *m)
{
    size_t n = 0;
    for (size_t i = 0; i < RTP_CPU_LIMIT / 64; i++)
        n += (size_t)__builtin_popcountll(m->bits[i]);
    return n;
}

int rtp_cpumask_next(const rtp_cpumask *m, int after)
{
    for (int cpu = after + 1; cpu < RTP_CPU_LIMIT; cpu++) {
        uint64_t word = m->bits[cpu / 64] >> (cpu % 64);
        if (!word) {
            cpu = (cpu / 64) * 64 + 63;
            continue;
        }
        return cpu + __builtin_ctzll(word);
    }
    return -1;
}

void rtp_cpumask_format(const rtp_cpumask *m, char *buf, size_t size)
{
    size_t used = 0;
    if (size)
        buf[0] = '\0';
    for (int cpu = rtp_cpumask_next(m, -1); cpu >= 0 && used < size;) {
        int last = cpu;
        while (rtp_cpumask_has(m, last + 1))
            last++;
        int w = last == cpu ? snprintf(buf + used, size - used, "%s%d", used ? "," : "", cpu)
                            : snprintf(buf + used, size - used, "%s%d-%d", used ? "," : "", cpu,
                                       last);
        used += (size_t)w;
        cpu = rtp_cpumask_next(m, last);
    }
}

void rtp_notes_add(rtp_notes *notes, const char *fmt, ...)
{
    char line[640];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (RTP_GROW(notes->items, notes->cap, notes->n + 1) != 0) {
        notes->failed = 1;
        return;
    }
    char *copy = strdup(line);
    if (!copy) {
        notes->failed = 1;
        return;
    }
    notes->items[notes->n++] = copy;
}

void rtp_notes_free(rtp_notes *notes)
{
    for (size_t i = 0; i < notes->n; i++)
        free(notes->items[i]);
    free(notes->items);
    memset(notes, 0, sizeof *notes);
}

const char *rtp_probe_stat_name(rtp_probe_stat stat)
{
    return stat == RTP_PROBE_STAT_P99 ? "p99" : "max";
}

void rtp_probe_report_init(rtp_probe_report *r)
{
    memset(r, 0, sizeof *r);
    r->kernel.hrtick = r->kernel.hrtick_dl = RTP_TRI_UNKNOWN;
    r->kernel.dl_fair_server = r->kernel.virtualized = RTP_TRI_UNKNOWN;
}

void rtp_probe_report_free(rtp_probe_report *r)
{
    free(r->cpus);
    rtp_notes_free(&r->skipped);
    rtp_notes_free(&r->warnings);
    rtp_probe_report_init(r);
}

/* --- writer: small helpers that write null for unknown values --- */

static void str_or_null(rtp_json_writer *w, const char *key, const char *s)
{
    if (s && s[0])
        rtp_jw_string(w, key, s);
    else
        rtp_jw_null(w, key);
}

static void fact(rtp_json_writer *w, const char *key, rtp_fact f)
{
    if (f.known)
        rtp_jw_int(w, key, f.value);
    else
        rtp_jw_null(w, key);
}

static void tri(rtp_json_writer *w, const char *key, rtp_tri t)
{
    if (t == RTP_TRI_UNKNOWN)
        rtp_jw_null(w, key);
    else
        rtp_jw_bool(w, key, t == RTP_TRI_YES);
}

static void mask_array(rtp_json_writer *w, const char *key, int has, const rtp_cpumask *m)
{
    if (!has) {
        rtp_jw_null(w, key);
        return;
    }
    rtp_jw_open(w, key, 0);
    for (int cpu = rtp_cpumask_next(m, -1); cpu >= 0; cpu = rtp_cpumask_next(m, cpu))
        rtp_jw_int(w, NULL, cpu);
    rtp_jw_close(w);
}

static void ns_string(rtp_json_writer *w, const char *key, rtp_ns ns)
{
    char text[32];
    snprintf(text, sizeof text, "%lldns", (long long)ns);
    rtp_jw_string(w, key, text);
}

int rtp_probe_rr_quantum(const rtp_probe_kernel *k, rtp_ns *quantum_ns, rtp_ns *tick_ns)
{
    if (!k->hz.known || k->hz.value <= 0 || k->hz.value > 100000 || !k->rr_timeslice_ms.known ||
        1000000000 % k->hz.value != 0 || k->rr_timeslice_ms.value > 1000000000)
        return 0;
    int64_t hz = k->hz.value, ms = k->rr_timeslice_ms.value;
    int64_t ticks = ms <= 0 ? 100 * hz / 1000 : (ms * hz + 999) / 1000;
    if (ticks < 1)
        return 0;
    *tick_ns = 1000000000 / hz;
    *quantum_ns = ticks * *tick_ns;
    return 1;
}

static void kernel_object(rtp_json_writer *w, const rtp_probe_kernel *k)
{
    rtp_jw_open(w, "kernel", 1);
    str_or_null(w, "release", k->release);
    fact(w, "hz", k->hz);
    str_or_null(w, "preempt", k->preempt);
    tri(w, "hrtick", k->hrtick);
    tri(w, "hrtick_dl", k->hrtick_dl);
    str_or_null(w, "lockdown", k->lockdown);
    tri(w, "virtualized", k->virtualized);
    str_or_null(w, "hypervisor", k->hypervisor);
    if (k->rr_timeslice_ms.known) { /* documents recorded before SCHED_RR's terms lack it */
        rtp_ns quantum, tick;
        int rr = rtp_probe_rr_quantum(k, &quantum, &tick);
        fact(w, "rr_timeslice_ms", k->rr_timeslice_ms);
        if (rr) {
            rtp_jw_int(w, "rr_quantum", quantum);
            rtp_jw_int(w, "tick", tick);
        } else {
            rtp_jw_null(w, "rr_quantum");
            rtp_jw_null(w, "tick");
        }
    }
    fact(w, "rt_runtime_us", k->rt_runtime_us);
    fact(w, "rt_period_us", k->rt_period_us);
    tri(w, "dl_fair_server", k->dl_fair_server);
    if (k->fair_runtime_ns.known && k->fair_period_ns.known) {
        rtp_jw_open(w, "fair_server", 1);
        rtp_jw_int(w, "runtime", k->fair_runtime_ns.value);
        rtp_jw_int(w, "period", k->fair_period_ns.value);
        rtp_jw_close(w);
    } else {
        rtp_jw_null(w, "fair_server");
    }
    char text[64];
    if (k->has_dl_bandwidth) {
        rtp_ratio_format(k->dl_bandwidth, text, sizeof text);
        rtp_jw_string(w, "dl_bandwidth", text);
    } else {
        rtp_jw_null(w, "dl_bandwidth");
    }
    mask_array(w, "isolcpus", k->has_isolated, &k->isolated);
    mask_array(w, "nohz_full", k->has_nohz_full, &k->nohz_full);
    str_or_null(w, "cmdline_isolation", k->cmdline_isolation);
    str_or_null(w, "cpuset", k->cpuset);
    rtp_jw_open(w, "sources", 1);
    str_or_null(w, "hz", k->hz_source);
    str_or_null(w, "preempt", k->preempt_source);
    str_or_null(w, "hrtick", k->hrtick_source);
    rtp_jw_close(w);
    rtp_jw_close(w);
}

static void latency_object(rtp_json_writer *w, const char *key, const rtp_probe_latency *l)
{
    if (!l->measured) {
        rtp_jw_null(w, key);
        return;
    }
    rtp_jw_open(w, key, 1);
    rtp_jw_int(w, "max", l->max_ns);
    rtp_jw_int(w, "p99", l->p99_ns);
    rtp_jw_int(w, "median", l->median_ns);
    rtp_jw_int(w, "samples", (int64_t)l->samples);
    rtp_jw_int(w, "overruns", (int64_t)l->overruns);
    rtp_jw_close(w);
}

static void switch_object(rtp_json_writer *w, const rtp_probe_switch *s)
{
    if (!s->measured) {
        rtp_jw_null(w, "context_switch_stats");
        return;
    }
    rtp_jw_open(w, "context_switch_stats", 1);
    rtp_jw_int(w, "median", s->median_ns);
    rtp_jw_int(w, "p99", s->p99_ns);
    rtp_jw_int(w, "max", s->max_ns);
    rtp_jw_int(w, "loop", s->loop_ns);
    rtp_jw_int(w, "samples", (int64_t)s->samples);
    rtp_jw_close(w);
}

static void charge_object(rtp_json_writer *w, const rtp_probe_charge *c)
{
    if (!c->measured) {
        rtp_jw_null(w, "deadline_charge");
        return;
    }
    rtp_jw_open(w, "deadline_charge", 1);
    rtp_jw_open(w, "lengths", 0);
    for (int k = 0; k < RTP_PROBE_CHARGE_LENGTHS; k++) {
        const rtp_probe_charge_len *l = &c->len[k];
        rtp_jw_open(w, NULL, 1);
        rtp_jw_int(w, "length", l->length_ns);
        rtp_jw_int(w, "samples", (int64_t)l->samples);
        rtp_jw_open(w, "budget_excess", 1);
        rtp_jw_int(w, "mean", l->excess_mean_ns);
        rtp_jw_int(w, "p99_9", l->excess_p999_ns);
        rtp_jw_int(w, "max", l->excess_max_ns);
        rtp_jw_close(w);
        rtp_jw_open(w, "wall_excess", 1);
        rtp_jw_int(w, "p99_9", l->wall_p999_ns);
        rtp_jw_int(w, "max", l->wall_max_ns);
        rtp_jw_close(w);
        rtp_jw_int(w, "throttled", (int64_t)l->throttled);
        rtp_jw_close(w);
    }
    rtp_jw_close(w);
    rtp_jw_int(w, "fixed", c->fixed_ns);
    rtp_jw_int(w, "per_ms", c->per_ms_ns);
    rtp_jw_close(w);
}

const char *const rtp_probe_lock_names[RTP_PROBE_LOCK_KINDS + 1] = {"protect", "inherit", "spin",
                                                                   NULL};

/* "locks": per deployed kind the cost of lock + unlock; left out when not
 * measured (so documents of earlier probes read back byte for byte). */
static void locks_object(rtp_json_writer *w, const rtp_probe_lock_cost *l)
{
    if (!l[0].measured)
        return;
    rtp_jw_open(w, "locks", 1);
    for (int k = 0; k < RTP_PROBE_LOCK_KINDS; k++) {
        rtp_jw_open(w, rtp_probe_lock_names[k], 1);
        rtp_jw_int(w, "median", l[k].median_ns);
        rtp_jw_int(w, "p99", l[k].p99_ns);
        rtp_jw_int(w, "max", l[k].max_ns);
        rtp_jw_int(w, "samples", (int64_t)l[k].samples);
        rtp_jw_close(w);
    }
    rtp_jw_close(w);
}

static void cpu_object(rtp_json_writer *w, const rtp_probe_cpu *c)
{
    rtp_jw_open(w, NULL, 1);
    rtp_jw_int(w, "cpu", c->cpu);
    mask_array(w, "smt_siblings", c->has_siblings, &c->siblings);
    str_or_null(w, "governor", c->governor);
    if (c->steal >= 0)
        rtp_jw_display(w, "steal", c->steal);
    else
        rtp_jw_null(w, "steal");
    latency_object(w, "fifo_latency", &c->fifo);
    latency_object(w, "deadline_latency", &c->deadline);
    if (c->context_switch.measured)
        rtp_jw_int(w, "context_switch", c->context_switch.p99_ns);
    else
        rtp_jw_null(w, "context_switch");
    switch_object(w, &c->context_switch);
    charge_object(w, &c->charge);
    locks_object(w, c->locks);
    rtp_jw_close(w);
}

static void method_object(rtp_json_writer *w, const rtp_probe_report *r)
{
    rtp_jw_open(w, "method", 1);
    rtp_jw_display(w, "seconds", (double)r->seconds_ns / 1e9);
    rtp_jw_int(w, "period", r->period_ns);
    rtp_jw_int(w, "fifo_priority", r->fifo_priority);
    rtp_jw_int(w, "deadline_runtime", r->dl_runtime_ns);
    str_or_null(w, "deadline_pinning", r->dl_pinning);
    str_or_null(w, "context_switch_policy", r->switch_policy);
    rtp_jw_string(w, "release_latency_stat", rtp_probe_stat_name(r->latency_stat));
    rtp_jw_close(w);
}

/* The platform member (key "platform"; NULL for the document of its own). */
static void platform_object(rtp_json_writer *w, const char *key, const rtp_probe_report *r)
{
    rtp_jw_open(w, key, 1);
    rtp_jw_open(w, "cpus", 0); /* the ids of the measured CPUs */
    for (size_t i = 0; i < r->n_cpus; i++)
        rtp_jw_int(w, NULL, r->cpus[i].cpu);
    rtp_jw_close(w);
    if (r->has_overheads) {
        rtp_jw_open(w, "overheads", 1);
        if (r->has_release_latency)
            ns_string(w, "release_latency", r->release_latency_ns);
        if (r->has_context_switch)
            ns_string(w, "context_switch", r->context_switch_ns);
        if (r->deadline_charge_ns != 0)
            ns_string(w, "deadline_charge", r->deadline_charge_ns);
        if (r->noise_per_ms_ns != 0)
            ns_string(w, "noise_per_ms", r->noise_per_ms_ns);
        if (r->lock_ns != 0)
            ns_string(w, "lock", r->lock_ns);
        rtp_jw_close(w);
    }
    /* SCHED_RR's terms for the analysis (docs/spec.md "SCHED_RR") */
    rtp_ns quantum, tick;
    if (rtp_probe_rr_quantum(&r->kernel, &quantum, &tick)) {
        ns_string(w, "rr_quantum", quantum);
        ns_string(w, "tick", tick);
    }
    rtp_jw_close(w);
}

static void notes_array(rtp_json_writer *w, const char *key, const rtp_notes *notes)
{
    rtp_jw_open(w, key, 0);
    for (size_t i = 0; i < notes->n; i++)
        rtp_jw_string(w, NULL, notes->items[i]);
    rtp_jw_close(w);
}

char *rtp_probe_report_to_json(const rtp_probe_report *r, int pretty)
{
    rtp_text out;
    rtp_json_writer w;
    rtp_text_init(&out);
    rtp_jw_init(&w, &out, pretty);
    rtp_jw_open(&w, NULL, 1);
    kernel_object(&w, &r->kernel);
    if (r->has_loadavg) {
        rtp_jw_open(&w, "load_average", 0);
        for (int i = 0; i < 3; i++)
            rtp_jw_display(&w, NULL, r->loadavg[i]);
        rtp_jw_close(&w);
    } else {
        rtp_jw_null(&w, "load_average");
    }
    if (r->online_cpus > 0)
        rtp_jw_int(&w, "online_cpus", r->online_cpus);
    else
        rtp_jw_null(&w, "online_cpus");
    method_object(&w, r);
    rtp_jw_open(&w, "cpus", 0);
    for (size_t i = 0; i < r->n_cpus; i++)
        cpu_object(&w, &r->cpus[i]);
    rtp_jw_close(&w);
    platform_object(&w, "platform", r);
    notes_array(&w, "skipped", &r->skipped);
    notes_array(&w, "warnings", &r->warnings);
    rtp_jw_close(&w);
    return rtp_jw_take(&w);
}

char *rtp_probe_platform_to_json(const rtp_probe_report *r)
{
    rtp_text out;
    rtp_json_writer w;
    rtp_text_init(&out);
    rtp_jw_init(&w, &out, 0);
    platform_object(&w, NULL, r);
    return rtp_jw_take(&w);
}
