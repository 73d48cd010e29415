/* probe/probe_doc.c — the probe report and its writer (see the header). */
#include "probe/probe_doc.h"

#include "models/json_util.h"

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
    if (notes->n == notes->cap) {
        size_t cap = notes->cap ? 2 * notes->cap : 8;
        char **grown = realloc(notes->items, cap * sizeof *grown);
        if (!grown) {
            notes->failed = 1;
            return;
        }
        notes->items = grown;
        notes->cap = cap;
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

/* --- writer: small helpers that add null for unknown values --- */

static cJSON *str_or_null(const char *s)
{
    return s && s[0] ? cJSON_CreateString(s) : cJSON_CreateNull();
}

static cJSON *fact(rtp_fact f)
{
    return f.known ? rtp_json_new_int(f.value) : cJSON_CreateNull();
}

static cJSON *tri(rtp_tri t)
{
    return t == RTP_TRI_UNKNOWN ? cJSON_CreateNull() : cJSON_CreateBool(t == RTP_TRI_YES);
}

static cJSON *mask_array(int *bad, const rtp_cpumask *m)
{
    cJSON *a = cJSON_CreateArray();
    for (int cpu = rtp_cpumask_next(m, -1); a && cpu >= 0; cpu = rtp_cpumask_next(m, cpu))
        rtp_json_push(bad, a, rtp_json_new_int(cpu));
    return a;
}

static cJSON *ns_string(rtp_ns ns)
{
    char text[32];
    snprintf(text, sizeof text, "%lldns", (long long)ns);
    return cJSON_CreateString(text);
}

static cJSON *kernel_object(int *bad, const rtp_probe_kernel *k)
{
    cJSON *o = cJSON_CreateObject(), *src = cJSON_CreateObject();
    if (!o || !src) {
        cJSON_Delete(o);
        cJSON_Delete(src);
        return NULL;
    }
    rtp_json_add(bad, o, "release", str_or_null(k->release));
    rtp_json_add(bad, o, "hz", fact(k->hz));
    rtp_json_add(bad, o, "preempt", str_or_null(k->preempt));
    rtp_json_add(bad, o, "hrtick", tri(k->hrtick));
    rtp_json_add(bad, o, "hrtick_dl", tri(k->hrtick_dl));
    rtp_json_add(bad, o, "lockdown", str_or_null(k->lockdown));
    rtp_json_add(bad, o, "virtualized", tri(k->virtualized));
    rtp_json_add(bad, o, "hypervisor", str_or_null(k->hypervisor));
    rtp_json_add(bad, o, "rt_runtime_us", fact(k->rt_runtime_us));
    rtp_json_add(bad, o, "rt_period_us", fact(k->rt_period_us));
    rtp_json_add(bad, o, "dl_fair_server", tri(k->dl_fair_server));
    if (k->fair_runtime_ns.known && k->fair_period_ns.known) {
        cJSON *fs = cJSON_CreateObject();
        if (fs) {
            rtp_json_add(bad, fs, "runtime", rtp_json_new_int(k->fair_runtime_ns.value));
            rtp_json_add(bad, fs, "period", rtp_json_new_int(k->fair_period_ns.value));
        }
        rtp_json_add(bad, o, "fair_server", fs);
    } else {
        rtp_json_add(bad, o, "fair_server", cJSON_CreateNull());
    }
    char text[64];
    if (k->has_dl_bandwidth) {
        rtp_ratio_format(k->dl_bandwidth, text, sizeof text);
        rtp_json_add(bad, o, "dl_bandwidth", cJSON_CreateString(text));
    } else {
        rtp_json_add(bad, o, "dl_bandwidth", cJSON_CreateNull());
    }
    rtp_json_add(bad, o, "isolcpus", k->has_isolated ? mask_array(bad, &k->isolated) : cJSON_CreateNull());
    rtp_json_add(bad, o, "nohz_full", k->has_nohz_full ? mask_array(bad, &k->nohz_full) : cJSON_CreateNull());
    rtp_json_add(bad, o, "cmdline_isolation", str_or_null(k->cmdline_isolation));
    rtp_json_add(bad, o, "cpuset", str_or_null(k->cpuset));
    rtp_json_add(bad, src, "hz", str_or_null(k->hz_source));
    rtp_json_add(bad, src, "preempt", str_or_null(k->preempt_source));
    rtp_json_add(bad, src, "hrtick", str_or_null(k->hrtick_source));
    rtp_json_add(bad, o, "sources", src);
    return o;
}

static cJSON *latency_object(int *bad, const rtp_probe_latency *l)
{
    if (!l->measured)
        return cJSON_CreateNull();
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    rtp_json_add(bad, o, "max", rtp_json_new_int(l->max_ns));
    rtp_json_add(bad, o, "p99", rtp_json_new_int(l->p99_ns));
    rtp_json_add(bad, o, "median", rtp_json_new_int(l->median_ns));
    rtp_json_add(bad, o, "samples", rtp_json_new_int((int64_t)l->samples));
    rtp_json_add(bad, o, "overruns", rtp_json_new_int((int64_t)l->overruns));
    return o;
}

static cJSON *switch_object(int *bad, const rtp_probe_switch *s)
{
    if (!s->measured)
        return cJSON_CreateNull();
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    rtp_json_add(bad, o, "median", rtp_json_new_int(s->median_ns));
    rtp_json_add(bad, o, "p99", rtp_json_new_int(s->p99_ns));
    rtp_json_add(bad, o, "max", rtp_json_new_int(s->max_ns));
    rtp_json_add(bad, o, "loop", rtp_json_new_int(s->loop_ns));
    rtp_json_add(bad, o, "samples", rtp_json_new_int((int64_t)s->samples));
    return o;
}

static cJSON *charge_object(int *bad, const rtp_probe_charge *c)
{
    if (!c->measured)
        return cJSON_CreateNull();
    cJSON *o = cJSON_CreateObject(), *lens = cJSON_CreateArray();
    if (!o || !lens) {
        cJSON_Delete(o);
        cJSON_Delete(lens);
        return NULL;
    }
    for (int k = 0; k < RTP_PROBE_CHARGE_LENGTHS; k++) {
        const rtp_probe_charge_len *l = &c->len[k];
        cJSON *one = cJSON_CreateObject(), *ex = cJSON_CreateObject(), *wall = cJSON_CreateObject();
        *bad |= !one || !ex || !wall;
        rtp_json_add(bad, one, "length", rtp_json_new_int(l->length_ns));
        rtp_json_add(bad, one, "samples", rtp_json_new_int((int64_t)l->samples));
        rtp_json_add(bad, ex, "mean", rtp_json_new_int(l->excess_mean_ns));
        rtp_json_add(bad, ex, "p99_9", rtp_json_new_int(l->excess_p999_ns));
        rtp_json_add(bad, ex, "max", rtp_json_new_int(l->excess_max_ns));
        rtp_json_add(bad, one, "budget_excess", ex);
        rtp_json_add(bad, wall, "p99_9", rtp_json_new_int(l->wall_p999_ns));
        rtp_json_add(bad, wall, "max", rtp_json_new_int(l->wall_max_ns));
        rtp_json_add(bad, one, "wall_excess", wall);
        rtp_json_add(bad, one, "throttled", rtp_json_new_int((int64_t)l->throttled));
        rtp_json_push(bad, lens, one);
    }
    rtp_json_add(bad, o, "lengths", lens);
    rtp_json_add(bad, o, "fixed", rtp_json_new_int(c->fixed_ns));
    rtp_json_add(bad, o, "per_ms", rtp_json_new_int(c->per_ms_ns));
    return o;
}

static cJSON *cpu_object(int *bad, const rtp_probe_cpu *c)
{
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    rtp_json_add(bad, o, "cpu", rtp_json_new_int(c->cpu));
    rtp_json_add(bad, o, "smt_siblings", c->has_siblings ? mask_array(bad, &c->siblings) : cJSON_CreateNull());
    rtp_json_add(bad, o, "governor", str_or_null(c->governor));
    rtp_json_add(bad, o, "steal", c->steal >= 0 ? rtp_json_new_display(c->steal) : cJSON_CreateNull());
    rtp_json_add(bad, o, "fifo_latency", latency_object(bad, &c->fifo));
    rtp_json_add(bad, o, "deadline_latency", latency_object(bad, &c->deadline));
    rtp_json_add(bad, o, "context_switch",
        c->context_switch.measured ? rtp_json_new_int(c->context_switch.p99_ns) : cJSON_CreateNull());
    rtp_json_add(bad, o, "context_switch_stats", switch_object(bad, &c->context_switch));
    rtp_json_add(bad, o, "deadline_charge", charge_object(bad, &c->charge));
    return o;
}

static cJSON *method_object(int *bad, const rtp_probe_report *r)
{
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    rtp_json_add(bad, o, "seconds", rtp_json_new_display((double)r->seconds_ns / 1e9));
    rtp_json_add(bad, o, "period", rtp_json_new_int(r->period_ns));
    rtp_json_add(bad, o, "fifo_priority", rtp_json_new_int(r->fifo_priority));
    rtp_json_add(bad, o, "deadline_runtime", rtp_json_new_int(r->dl_runtime_ns));
    rtp_json_add(bad, o, "deadline_pinning", str_or_null(r->dl_pinning));
    rtp_json_add(bad, o, "context_switch_policy", str_or_null(r->switch_policy));
    rtp_json_add(bad, o, "release_latency_stat", cJSON_CreateString(rtp_probe_stat_name(r->latency_stat)));
    return o;
}

static cJSON *platform_object(int *bad, const rtp_probe_report *r)
{
    cJSON *o = cJSON_CreateObject(), *cpus = cJSON_CreateArray();
    if (!o || !cpus) {
        cJSON_Delete(o);
        cJSON_Delete(cpus);
        return NULL;
    }
    for (size_t i = 0; i < r->n_cpus; i++)
        rtp_json_push(bad, cpus, rtp_json_new_int(r->cpus[i].cpu));
    rtp_json_add(bad, o, "cpus", cpus);
    if (r->has_overheads) {
        cJSON *ov = cJSON_CreateObject();
        if (ov) {
            if (r->has_release_latency)
                rtp_json_add(bad, ov, "release_latency", ns_string(r->release_latency_ns));
            if (r->has_context_switch)
                rtp_json_add(bad, ov, "context_switch", ns_string(r->context_switch_ns));
            if (r->deadline_charge_ns != 0)
                rtp_json_add(bad, ov, "deadline_charge", ns_string(r->deadline_charge_ns));
            if (r->noise_per_ms_ns != 0)
                rtp_json_add(bad, ov, "noise_per_ms", ns_string(r->noise_per_ms_ns));
        }
        rtp_json_add(bad, o, "overheads", ov);
    }
    return o;
}

static cJSON *notes_array(int *bad, const rtp_notes *notes)
{
    cJSON *a = cJSON_CreateArray();
    for (size_t i = 0; a && i < notes->n; i++)
        rtp_json_push(bad, a, cJSON_CreateString(notes->items[i]));
    return a;
}

char *rtp_probe_report_to_json(const rtp_probe_report *r, int pretty)
{
    cJSON *root = cJSON_CreateObject(), *cpus = cJSON_CreateArray();
    char *text = NULL;
    int failed = 0, *bad = &failed;
    if (!root || !cpus)
        goto done;
    rtp_json_add(bad, root, "kernel", kernel_object(bad, &r->kernel));
    if (r->has_loadavg) {
        cJSON *la = cJSON_CreateArray();
        for (int i = 0; la && i < 3; i++)
            rtp_json_push(bad, la, rtp_json_new_display(r->loadavg[i]));
        rtp_json_add(bad, root, "load_average", la);
    } else {
        rtp_json_add(bad, root, "load_average", cJSON_CreateNull());
    }
    rtp_json_add(bad, root, "online_cpus", r->online_cpus > 0 ? rtp_json_new_int(r->online_cpus) : cJSON_CreateNull());
    rtp_json_add(bad, root, "method", method_object(bad, r));
    for (size_t i = 0; i < r->n_cpus; i++) {
        rtp_json_push(bad, cpus, cpu_object(bad, &r->cpus[i]));
    }
    rtp_json_add(bad, root, "cpus", cpus);
    cpus = NULL;
    rtp_json_add(bad, root, "platform", platform_object(bad, r));
    rtp_json_add(bad, root, "skipped", notes_array(bad, &r->skipped));
    rtp_json_add(bad, root, "warnings", notes_array(bad, &r->warnings));
    if (!failed)
        text = rtp_json_print(root, pretty);
done:
    cJSON_Delete(cpus);
    cJSON_Delete(root);
    return text;
}

char *rtp_probe_platform_to_json(const rtp_probe_report *r)
{
    int failed = 0;
    cJSON *o = platform_object(&failed, r);
    char *text = o && !failed ? rtp_json_print(o, 0) : NULL;
    cJSON_Delete(o);
    return text;
}
