/* probe/probe_doc_read.c — the reader of the document `rtpack probe --json`
 * writes (probe_doc.h), for commands that take it as input (rtpack report;
 * the rehearsal's reader is rehearse/rehearse_doc_read.c). Writer and reader hold each other
 * to the same form: every member the writer writes is required with its
 * type, nothing else is accepted, and a value the writer derives from
 * another (over_bound, a probe's platform.cpus) must agree with it, so a
 * truncated, hand-edited or foreign document is RTP_EINPUT at the path of
 * the first member that is wrong (docs/spec.md "Error messages"). */
#include "probe/probe_doc.h"

#include "models/doc_members.h"
#include "models/json_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- members, each required, at path.key ---- */

static rtp_status get_tri(const cJSON *obj, const char *path, const char *key, rtp_tri *out,
                          rtp_diag *diag)
{
    char field[RTP_DIAG_PATH_SIZE];
    const cJSON *item;
    rtp_status st = rtp_doc_need_nullable(obj, path, key, 1, &item, field, diag);
    if (st != RTP_OK)
        return st;
    if (!item) {
        *out = RTP_TRI_UNKNOWN;
        return RTP_OK;
    }
    if (!cJSON_IsBool(item))
        return rtp_diag_set(diag, RTP_EINPUT, field, "must be true, false or null");
    *out = cJSON_IsTrue(item) ? RTP_TRI_YES : RTP_TRI_NO;
    return RTP_OK;
}

/* A display number (a double: load averages, steal); null gives -1 when
 * nullable. */
static rtp_status get_display(const cJSON *obj, const char *path, const char *key, int nullable,
                              double *out, rtp_diag *diag)
{
    char field[RTP_DIAG_PATH_SIZE];
    const cJSON *item;
    rtp_status st = rtp_doc_need_nullable(obj, path, key, nullable, &item, field, diag);
    if (st != RTP_OK)
        return st;
    if (!item) {
        *out = -1;
        return RTP_OK;
    }
    if (!cJSON_IsNumber(item) || item->valuedouble < 0)
        return rtp_diag_set(diag, RTP_EINPUT, field, "must be a number >= 0");
    *out = item->valuedouble;
    return RTP_OK;
}

/* A list of CPU ids (or null, when nullable: *has = 0) into a mask. */
static rtp_status get_mask(const rtp_json *doc, const cJSON *obj, const char *path, const char *key,
                           int nullable, int *has, rtp_cpumask *out, rtp_diag *diag)
{
    char field[RTP_DIAG_PATH_SIZE];
    const cJSON *item;
    rtp_status st = rtp_doc_need_nullable(obj, path, key, nullable, &item, field, diag);
    if (st != RTP_OK)
        return st;
    memset(out, 0, sizeof *out);
    *has = 0;
    if (!item)
        return RTP_OK;
    int *ids = NULL;
    size_t n = 0;
    if ((st = rtp_json_cpu_list(doc, item, field, RTP_CPUS_DISTINCT, &ids, &n, diag)) != RTP_OK)
        return st;
    for (size_t k = 0; k < n; k++)
        rtp_cpumask_set(out, ids[k]);
    free(ids);
    *has = 1;
    return RTP_OK;
}

/* A list of one-line strings into notes. */
static rtp_status get_notes(const cJSON *obj, const char *path, const char *key, rtp_notes *notes,
                            rtp_diag *diag)
{
    char field[RTP_DIAG_PATH_SIZE], at[RTP_DIAG_PATH_SIZE];
    const cJSON *item;
    rtp_status st = rtp_doc_need(obj, path, key, &item, field, diag);
    if (st != RTP_OK)
        return st;
    if (!cJSON_IsArray(item))
        return rtp_diag_set(diag, RTP_EINPUT, field, "must be a list of strings");
    size_t k = 0;
    for (const cJSON *c = item->child; c; c = c->next, k++) {
        const char *s;
        rtp_json_path_index(at, sizeof at, field, k);
        if ((st = rtp_json_string(c, at, 0, &s, diag)) != RTP_OK)
            return st;
        if (strlen(s) >= 640) /* rtp_notes_add keeps lines of up to 639 bytes */
            return rtp_diag_set(diag, RTP_EINPUT, at, "longer than 639 bytes");
        rtp_notes_add(notes, "%s", s);
        if (notes->failed)
            return rtp_oom(diag);
    }
    return RTP_OK;
}

/* ---- probe --json ---- */

static rtp_status get_fact(const rtp_json *doc, const cJSON *obj, const char *path, const char *key,
                           int64_t min, rtp_fact *out, rtp_diag *diag)
{
    char field[RTP_DIAG_PATH_SIZE];
    const cJSON *item;
    rtp_status st = rtp_doc_need_nullable(obj, path, key, 1, &item, field, diag);
    out->known = 0;
    if (st != RTP_OK || !item)
        return st;
    out->known = 1;
    return rtp_json_int(doc, item, field, min, RTP_NS_LIMIT, &out->value, diag);
}

static rtp_status probe_kernel(const rtp_json *doc, const cJSON *node, rtp_probe_kernel *k,
                               rtp_diag *diag)
{
    static const char *const keys[] = {"release",
                                       "hz",
                                       "preempt",
                                       "hrtick",
                                       "hrtick_dl",
                                       "lockdown",
                                       "virtualized",
                                       "hypervisor",
                                       "rt_runtime_us",
                                       "rt_period_us",
                                       "dl_fair_server",
                                       "fair_server",
                                       "dl_bandwidth",
                                       "isolcpus",
                                       "nohz_full",
                                       "cmdline_isolation",
                                       "cpuset",
                                       "sources",
                                       "rr_timeslice_ms",
                                       "rr_quantum",
                                       "tick",
                                       NULL};
    static const char *const fair_keys[] = {"runtime", "period", NULL};
    static const char *const source_keys[] = {"hz", "preempt", "hrtick", NULL};
    const char *p = "kernel";
    char field[RTP_DIAG_PATH_SIZE];
    const cJSON *item;
    rtp_status st;
    if ((st = rtp_doc_keys(node, p, keys, diag)) ||
        (st = rtp_doc_text(node, p, "release", 1, k->release, sizeof k->release, diag)) ||
        (st = get_fact(doc, node, p, "hz", 1, &k->hz, diag)) ||
        (st = rtp_doc_text(node, p, "preempt", 1, k->preempt, sizeof k->preempt, diag)) ||
        (st = get_tri(node, p, "hrtick", &k->hrtick, diag)) ||
        (st = get_tri(node, p, "hrtick_dl", &k->hrtick_dl, diag)) ||
        (st = rtp_doc_text(node, p, "lockdown", 1, k->lockdown, sizeof k->lockdown, diag)) ||
        (st = get_tri(node, p, "virtualized", &k->virtualized, diag)) ||
        (st = rtp_doc_text(node, p, "hypervisor", 1, k->hypervisor, sizeof k->hypervisor, diag)) ||
        (st = get_fact(doc, node, p, "rt_runtime_us", -1, &k->rt_runtime_us, diag)) ||
        (st = get_fact(doc, node, p, "rt_period_us", 1, &k->rt_period_us, diag)) ||
        (st = get_tri(node, p, "dl_fair_server", &k->dl_fair_server, diag)) ||
        (st = rtp_doc_ratio(doc, node, p, "dl_bandwidth", 1, &k->has_dl_bandwidth, &k->dl_bandwidth,
                            diag)) ||
        (st = get_mask(doc, node, p, "isolcpus", 1, &k->has_isolated, &k->isolated, diag)) ||
        (st = get_mask(doc, node, p, "nohz_full", 1, &k->has_nohz_full, &k->nohz_full, diag)) ||
        (st = rtp_doc_text(node, p, "cmdline_isolation", 1, k->cmdline_isolation,
                           sizeof k->cmdline_isolation, diag)) ||
        (st = rtp_doc_text(node, p, "cpuset", 1, k->cpuset, sizeof k->cpuset, diag)) ||
        (st = rtp_doc_need(node, p, "fair_server", &item, field, diag)))
        return st;
    /* documents written before SCHED_RR's terms lack it; rr_quantum and
     * tick are derived from it and hz, so only checked for shape */
    if (cJSON_GetObjectItemCaseSensitive(node, "rr_timeslice_ms") &&
        (st = get_fact(doc, node, p, "rr_timeslice_ms", -1000000000, &k->rr_timeslice_ms,
                       diag)))
        return st;
    rtp_fact unused;
    if ((cJSON_GetObjectItemCaseSensitive(node, "rr_quantum") &&
         (st = get_fact(doc, node, p, "rr_quantum", 1, &unused, diag))) ||
        (cJSON_GetObjectItemCaseSensitive(node, "tick") &&
         (st = get_fact(doc, node, p, "tick", 1, &unused, diag))))
        return st;
    if (!cJSON_IsNull(item) &&
        ((st = rtp_doc_keys(item, field, fair_keys, diag)) ||
         (st = get_fact(doc, item, field, "runtime", 0, &k->fair_runtime_ns, diag)) ||
         (st = get_fact(doc, item, field, "period", 1, &k->fair_period_ns, diag))))
        return st;
    if ((st = rtp_doc_need(node, p, "sources", &item, field, diag)) ||
        (st = rtp_doc_keys(item, field, source_keys, diag)) ||
        (st = rtp_doc_text(item, field, "hz", 1, k->hz_source, sizeof k->hz_source, diag)) ||
        (st = rtp_doc_text(item, field, "preempt", 1, k->preempt_source, sizeof k->preempt_source,
                           diag)))
        return st;
    return rtp_doc_text(item, field, "hrtick", 1, k->hrtick_source, sizeof k->hrtick_source, diag);
}

static rtp_status probe_method(const rtp_json *doc, const cJSON *node, rtp_probe_report *r,
                               rtp_diag *diag)
{
    static const char *const keys[] = {"seconds",
                                       "period",
                                       "fifo_priority",
                                       "deadline_runtime",
                                       "deadline_pinning",
                                       "context_switch_policy",
                                       "release_latency_stat",
                                       NULL};
    static const char *const pinnings[] = {"cpuset", "root_domain", NULL};
    static const char *const policies[] = {"fifo", "other", NULL};
    static const char *const stats[] = {"max", "p99", NULL};
    const char *p = "method", *stat = NULL;
    double seconds = 0;
    int64_t prio = 0;
    rtp_status st;
    if ((st = rtp_doc_keys(node, p, keys, diag)) ||
        (st = get_display(node, p, "seconds", 0, &seconds, diag)) ||
        (st = rtp_doc_time(doc, node, p, "period", 0, &r->period_ns, diag)) ||
        (st = rtp_doc_int(doc, node, p, "fifo_priority", 0, 99, &prio, diag)) ||
        (st = rtp_doc_time(doc, node, p, "deadline_runtime", 0, &r->dl_runtime_ns, diag)) ||
        (st = rtp_doc_choice(node, p, "deadline_pinning", 1, pinnings, &r->dl_pinning, diag)) ||
        (st = rtp_doc_choice(node, p, "context_switch_policy", 1, policies, &r->switch_policy,
                             diag)) ||
        (st = rtp_doc_choice(node, p, "release_latency_stat", 0, stats, &stat, diag)))
        return st;
    if (seconds > 86400.0 * 365)
        return rtp_diag_set(diag, RTP_EINPUT, "method.seconds", "implausibly long");
    r->seconds_ns = (rtp_ns)(seconds * 1e9 + 0.5); /* written from whole ns as seconds */
    r->fifo_priority = (int)prio;
    r->latency_stat = strcmp(stat, "p99") == 0 ? RTP_PROBE_STAT_P99 : RTP_PROBE_STAT_MAX;
    return RTP_OK;
}

static rtp_status probe_latency(const rtp_json *doc, const cJSON *obj, const char *path,
                                const char *key, rtp_probe_latency *l, rtp_diag *diag)
{
    static const char *const keys[] = {"max", "p99", "median", "samples", "overruns", NULL};
    char field[RTP_DIAG_PATH_SIZE];
    const cJSON *item;
    rtp_status st = rtp_doc_need_nullable(obj, path, key, 1, &item, field, diag);
    if (st != RTP_OK || !item)
        return st;
    l->measured = 1;
    if ((st = rtp_doc_keys(item, field, keys, diag)) ||
        (st = rtp_doc_time(doc, item, field, "max", 0, &l->max_ns, diag)) ||
        (st = rtp_doc_time(doc, item, field, "p99", 0, &l->p99_ns, diag)) ||
        (st = rtp_doc_time(doc, item, field, "median", 0, &l->median_ns, diag)) ||
        (st = rtp_doc_count(doc, item, field, "samples", &l->samples, diag)))
        return st;
    return rtp_doc_count(doc, item, field, "overruns", &l->overruns, diag);
}

static rtp_status probe_switch(const rtp_json *doc, const cJSON *node, const char *path,
                               rtp_probe_switch *s, rtp_diag *diag)
{
    static const char *const keys[] = {"median", "p99", "max", "loop", "samples", NULL};
    char field[RTP_DIAG_PATH_SIZE];
    const cJSON *stats;
    rtp_ns p99 = -1;
    rtp_status st;
    if ((st = rtp_doc_time(doc, node, path, "context_switch", 1, &p99, diag)) ||
        (st = rtp_doc_need(node, path, "context_switch_stats", &stats, field, diag)))
        return st;
    if (cJSON_IsNull(stats) != (p99 < 0)) {
        rtp_json_path_key(field, sizeof field, path, "context_switch");
        return rtp_diag_set(diag, RTP_EINPUT, field,
                            "must be null exactly when context_switch_stats is");
    }
    if (cJSON_IsNull(stats))
        return RTP_OK;
    s->measured = 1;
    if ((st = rtp_doc_keys(stats, field, keys, diag)) ||
        (st = rtp_doc_time(doc, stats, field, "median", 0, &s->median_ns, diag)) ||
        (st = rtp_doc_time(doc, stats, field, "p99", 0, &s->p99_ns, diag)) ||
        (st = rtp_doc_time(doc, stats, field, "max", 0, &s->max_ns, diag)) ||
        (st = rtp_doc_time(doc, stats, field, "loop", 0, &s->loop_ns, diag)) ||
        (st = rtp_doc_count(doc, stats, field, "samples", &s->samples, diag)))
        return st;
    if (s->p99_ns != p99) {
        rtp_json_path_key(field, sizeof field, path, "context_switch");
        return rtp_diag_set(diag, RTP_EINPUT, field, "must be context_switch_stats.p99");
    }
    return RTP_OK;
}

static rtp_status probe_charge(const rtp_json *doc, const cJSON *obj, const char *path,
                               rtp_probe_charge *c, rtp_diag *diag)
{
    static const char *const keys[] = {"lengths", "fixed", "per_ms", NULL};
    static const char *const len_keys[] = {"length",      "samples",   "budget_excess",
                                           "wall_excess", "throttled", NULL};
    static const char *const excess_keys[] = {"mean", "p99_9", "max", NULL};
    static const char *const wall_keys[] = {"p99_9", "max", NULL};
    char field[RTP_DIAG_PATH_SIZE], lens_path[RTP_DIAG_PATH_SIZE], at[RTP_DIAG_PATH_SIZE];
    char sub[RTP_DIAG_PATH_SIZE];
    const cJSON *item, *lens, *x;
    rtp_status st = rtp_doc_need_nullable(obj, path, "deadline_charge", 1, &item, field, diag);
    if (st != RTP_OK || !item)
        return st;
    c->measured = 1;
    if ((st = rtp_doc_keys(item, field, keys, diag)) ||
        (st = rtp_doc_time(doc, item, field, "fixed", 0, &c->fixed_ns, diag)) ||
        (st = rtp_doc_time(doc, item, field, "per_ms", 0, &c->per_ms_ns, diag)) ||
        (st = rtp_doc_need(item, field, "lengths", &lens, lens_path, diag)))
        return st;
    if (!cJSON_IsArray(lens) || cJSON_GetArraySize(lens) != RTP_PROBE_CHARGE_LENGTHS)
        return rtp_diag_set(diag, RTP_EINPUT, lens_path, "must be a list of %d job lengths",
                            RTP_PROBE_CHARGE_LENGTHS);
    int k = 0;
    for (const cJSON *one = lens->child; one; one = one->next, k++) {
        rtp_probe_charge_len *l = &c->len[k];
        rtp_json_path_index(at, sizeof at, lens_path, (size_t)k);
        if ((st = rtp_doc_keys(one, at, len_keys, diag)) ||
            (st = rtp_doc_time(doc, one, at, "length", 0, &l->length_ns, diag)) ||
            (st = rtp_doc_count(doc, one, at, "samples", &l->samples, diag)) ||
            (st = rtp_doc_count(doc, one, at, "throttled", &l->throttled, diag)) ||
            (st = rtp_doc_need(one, at, "budget_excess", &x, sub, diag)) ||
            (st = rtp_doc_keys(x, sub, excess_keys, diag)) ||
            (st = rtp_doc_time(doc, x, sub, "mean", 0, &l->excess_mean_ns, diag)) ||
            (st = rtp_doc_time(doc, x, sub, "p99_9", 0, &l->excess_p999_ns, diag)) ||
            (st = rtp_doc_time(doc, x, sub, "max", 0, &l->excess_max_ns, diag)) ||
            (st = rtp_doc_need(one, at, "wall_excess", &x, sub, diag)) ||
            (st = rtp_doc_keys(x, sub, wall_keys, diag)) ||
            (st = rtp_doc_time(doc, x, sub, "p99_9", 0, &l->wall_p999_ns, diag)) ||
            (st = rtp_doc_time(doc, x, sub, "max", 0, &l->wall_max_ns, diag)))
            return st;
    }
    return RTP_OK;
}

/* "locks" (absent when not measured, as in documents of earlier probes):
 * every kind, each with its four numbers. */
static rtp_status probe_locks(const rtp_json *doc, const cJSON *obj, const char *path,
                              rtp_probe_lock_cost *l, rtp_diag *diag)
{
    static const char *const keys[] = {"median", "p99", "max", "samples", NULL};
    char field[RTP_DIAG_PATH_SIZE], sub[RTP_DIAG_PATH_SIZE];
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, "locks"), *x;
    rtp_status st;
    if (!item)
        return RTP_OK;
    rtp_json_path_key(field, sizeof field, path, "locks");
    if ((st = rtp_doc_keys(item, field, rtp_probe_lock_names, diag)))
        return st;
    for (int k = 0; k < RTP_PROBE_LOCK_KINDS; k++) {
        l[k].measured = 1;
        if ((st = rtp_doc_need(item, field, rtp_probe_lock_names[k], &x, sub, diag)) ||
            (st = rtp_doc_keys(x, sub, keys, diag)) ||
            (st = rtp_doc_time(doc, x, sub, "median", 0, &l[k].median_ns, diag)) ||
            (st = rtp_doc_time(doc, x, sub, "p99", 0, &l[k].p99_ns, diag)) ||
            (st = rtp_doc_time(doc, x, sub, "max", 0, &l[k].max_ns, diag)) ||
            (st = rtp_doc_count(doc, x, sub, "samples", &l[k].samples, diag)))
            return st;
    }
    return RTP_OK;
}

static rtp_status probe_cpu(const rtp_json *doc, const cJSON *node, const char *path,
                            rtp_probe_cpu *c, rtp_diag *diag)
{
    static const char *const keys[] = {"cpu",
                                       "smt_siblings",
                                       "governor",
                                       "steal",
                                       "fifo_latency",
                                       "deadline_latency",
                                       "context_switch",
                                       "context_switch_stats",
                                       "deadline_charge",
                                       "locks",
                                       NULL};
    char field[RTP_DIAG_PATH_SIZE];
    const cJSON *item;
    rtp_status st;
    if ((st = rtp_doc_keys(node, path, keys, diag)) ||
        (st = rtp_doc_need(node, path, "cpu", &item, field, diag)) ||
        (st = rtp_json_cpu_id(doc, item, field, &c->cpu, diag)) ||
        (st = get_mask(doc, node, path, "smt_siblings", 1, &c->has_siblings, &c->siblings, diag)) ||
        (st = rtp_doc_text(node, path, "governor", 1, c->governor, sizeof c->governor, diag)) ||
        (st = get_display(node, path, "steal", 1, &c->steal, diag)) ||
        (st = probe_latency(doc, node, path, "fifo_latency", &c->fifo, diag)) ||
        (st = probe_latency(doc, node, path, "deadline_latency", &c->deadline, diag)) ||
        (st = probe_switch(doc, node, path, &c->context_switch, diag)) ||
        (st = probe_charge(doc, node, path, &c->charge, diag)))
        return st;
    return probe_locks(doc, node, path, c->locks, diag);
}

/* platform: cpus (the measured CPUs, in the order of `cpus`) and overheads. */
static rtp_status probe_platform(const rtp_json *doc, const cJSON *node, rtp_probe_report *r,
                                 rtp_diag *diag)
{
    static const char *const keys[] = {"cpus", "overheads", "rr_quantum", "tick", NULL};
    static const char *const ov_keys[] = {"release_latency", "context_switch", "deadline_charge",
                                          "noise_per_ms", "lock", NULL};
    char field[RTP_DIAG_PATH_SIZE];
    const cJSON *item;
    int *ids = NULL;
    size_t n = 0;
    rtp_status st;
    if ((st = rtp_doc_keys(node, "platform", keys, diag)) ||
        (st = rtp_doc_need(node, "platform", "cpus", &item, field, diag)) ||
        (st = rtp_json_cpu_list(doc, item, field, 0, &ids, &n, diag)))
        return st;
    for (size_t k = 0; k < n || k < r->n_cpus; k++)
        if (k >= n || k >= r->n_cpus || ids[k] != r->cpus[k].cpu) {
            free(ids);
            return rtp_diag_set(diag, RTP_EINPUT, "platform.cpus",
                                "must list the measured CPUs of \"cpus\", in their order");
        }
    free(ids);
    item = cJSON_GetObjectItemCaseSensitive(node, "overheads");
    if (!item)
        return RTP_OK;
    const char *p = "platform.overheads";
    r->has_overheads = 1;
    /* each overhead is there when it was measured (a probe without root
     * has the context switch only) */
    r->has_release_latency = cJSON_GetObjectItemCaseSensitive(item, "release_latency") != NULL;
    r->has_context_switch = cJSON_GetObjectItemCaseSensitive(item, "context_switch") != NULL;
    if ((st = rtp_doc_keys(item, p, ov_keys, diag)) ||
        (r->has_release_latency &&
         (st = rtp_doc_time(doc, item, p, "release_latency", 0, &r->release_latency_ns, diag))) ||
        (r->has_context_switch &&
         (st = rtp_doc_time(doc, item, p, "context_switch", 0, &r->context_switch_ns, diag))))
        return st;
    if (!r->has_release_latency && !r->has_context_switch)
        return rtp_diag_set(diag, RTP_EINPUT, p,
                            "holds neither release_latency nor "
                            "context_switch: a probe writes overheads only with one of them");
    if (cJSON_GetObjectItemCaseSensitive(item, "deadline_charge") &&
        (st = rtp_doc_time(doc, item, p, "deadline_charge", 0, &r->deadline_charge_ns, diag)))
        return st;
    if (cJSON_GetObjectItemCaseSensitive(item, "noise_per_ms") &&
        (st = rtp_doc_time(doc, item, p, "noise_per_ms", 0, &r->noise_per_ms_ns, diag)))
        return st;
    if (cJSON_GetObjectItemCaseSensitive(item, "lock") &&
        (st = rtp_doc_time(doc, item, p, "lock", 0, &r->lock_ns, diag)))
        return st;
    return RTP_OK;
}

static rtp_status probe_load(const cJSON *root, rtp_probe_report *r, rtp_diag *diag)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(root, "load_average");
    if (!item)
        return rtp_diag_set(diag, RTP_EINPUT, "load_average", "missing");
    if (cJSON_IsNull(item))
        return RTP_OK;
    if (!cJSON_IsArray(item) || cJSON_GetArraySize(item) != 3)
        return rtp_diag_set(diag, RTP_EINPUT, "load_average", "must be a list of 3 numbers");
    int k = 0;
    for (const cJSON *c = item->child; c; c = c->next, k++) {
        if (!cJSON_IsNumber(c) || c->valuedouble < 0) {
            char at[RTP_DIAG_PATH_SIZE];
            rtp_json_path_index(at, sizeof at, "load_average", (size_t)k);
            return rtp_diag_set(diag, RTP_EINPUT, at, "must be a number >= 0");
        }
        r->loadavg[k] = c->valuedouble;
    }
    r->has_loadavg = 1;
    return RTP_OK;
}

rtp_status rtp_probe_report_parse_json(const char *text, size_t len, rtp_probe_report *out,
                                       rtp_diag *diag)
{
    static const char *const keys[] = {"kernel",   "load_average", "online_cpus", "method", "cpus",
                                       "platform", "skipped",      "warnings",    NULL};
    rtp_probe_report_init(out);
    rtp_json doc;
    rtp_status st = rtp_json_open(&doc, text, len, diag);
    if (st != RTP_OK)
        return st;
    const cJSON *root = doc.root, *item;
    char field[RTP_DIAG_PATH_SIZE];
    rtp_fact online = {0, 0};
    if ((st = rtp_doc_keys(root, "", keys, diag)) ||
        (st = rtp_doc_need(root, "", "kernel", &item, field, diag)) ||
        (st = probe_kernel(&doc, item, &out->kernel, diag)) || (st = probe_load(root, out, diag)) ||
        (st = get_fact(&doc, root, "", "online_cpus", 1, &online, diag)) ||
        (st = rtp_doc_need(root, "", "method", &item, field, diag)) ||
        (st = probe_method(&doc, item, out, diag)) ||
        (st = rtp_doc_need(root, "", "cpus", &item, field, diag)))
        goto done;
    out->online_cpus = online.known ? (int)online.value : 0;
    if (!cJSON_IsArray(item)) {
        st = rtp_diag_set(diag, RTP_EINPUT, "cpus", "must be a list of CPU objects");
        goto done;
    }
    size_t n = (size_t)cJSON_GetArraySize(item);
    if (!(out->cpus = rtp_alloc(n ? n : 1, sizeof *out->cpus, diag))) {
        st = RTP_ENOMEM;
        goto done;
    }
    for (const cJSON *c = item->child; c && st == RTP_OK; c = c->next) {
        rtp_probe_cpu *cpu = &out->cpus[out->n_cpus];
        cpu->steal = -1;
        rtp_json_path_index(field, sizeof field, "cpus", out->n_cpus++);
        st = probe_cpu(&doc, c, field, cpu, diag);
        for (size_t k = 0; st == RTP_OK && k + 1 < out->n_cpus; k++)
            if (out->cpus[k].cpu == cpu->cpu)
                st = rtp_diag_set(diag, RTP_EINPUT, field, "CPU %d is listed twice", cpu->cpu);
    }
    if (st == RTP_OK && !(st = rtp_doc_need(root, "", "platform", &item, field, diag)) &&
        !(st = probe_platform(&doc, item, out, diag)) &&
        !(st = get_notes(root, "", "skipped", &out->skipped, diag)))
        st = get_notes(root, "", "warnings", &out->warnings, diag);
done:
    rtp_json_close(&doc);
    if (st != RTP_OK)
        rtp_probe_report_free(out);
    return st;
}
