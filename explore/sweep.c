/* explore/sweep.c — sweep points, canonical text and hash (see sweep.h). */
#include "explore/sweep.h"
#include "models/arith.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const method_names[] = {"ffd", "bfd", "wfd", "nfd",
                                           "best", "ilp", "sfd", "ilp-colocate",
                                           "ffd-oblivious"};

const char *rtp_explore_method_name(rtp_explore_method m)
{
    return rtp_enum_name(method_names, RTP_COUNT_OF(method_names), (int)m);
}

static uint64_t fnv1a(uint64_t h, const char *text)
{
    for (; *text; text++)
        h = (h ^ (uint8_t)*text) * 1099511628211ull;
    return h;
}

static uint64_t fnv_ratio(uint64_t h, const char *label, rtp_ratio r)
{
    char buf[80];
    snprintf(buf, sizeof buf, "%s=%lld/%lld;", label, (long long)r.num, (long long)r.den);
    return fnv1a(h, buf);
}

static uint64_t fnv_int(uint64_t h, const char *label, int64_t v)
{
    char buf[64];
    snprintf(buf, sizeof buf, "%s=%lld;", label, (long long)v);
    return fnv1a(h, buf);
}

/* Every field that changes a number in the outputs enters the hash. */
static uint64_t sweep_hash(const rtp_sweep_doc *d)
{
    uint64_t h = fnv_int(1469598103934665603ull, "generator_version", RTP_GEN_VERSION);
    h = fnv_int(h, "seed", d->seed);
    h = fnv_int(h, "sets_per_point", d->sets_per_point);
    for (size_t i = 0; i < d->n_tasks; i++)
        h = fnv_int(h, "tasks", d->tasks[i]);
    for (size_t i = 0; i < d->n_cpus; i++)
        h = fnv_int(h, "cpus", d->cpus[i]);
    for (size_t i = 0; i < d->n_utilizations; i++)
        h = fnv_ratio(h, "util", d->utilizations[i]);
    h = fnv_int(h, "period_min", d->period_min_ns);
    h = fnv_int(h, "period_max", d->period_max_ns);
    h = fnv_int(h, "granularity", d->granularity_ns);
    h = fnv_int(h, "harmonic", d->harmonic);
    for (size_t i = 0; i < d->n_period_set; i++)
        h = fnv_int(h, "period_set", d->period_set[i]);
    for (size_t i = 0; i < d->n_deadlines; i++)
        h = fnv1a(fnv1a(h, "deadlines="), d->deadlines[i]);
    h = fnv1a(fnv1a(h, ";generator="), d->generator);
    for (size_t i = 0; i < d->n_policies; i++)
        h = fnv1a(fnv1a(h, ";policy="), d->policies[i]);
    for (size_t i = 0; i < d->n_methods; i++)
        h = fnv1a(fnv1a(h, ";method="), d->methods[i]);
    h = fnv1a(fnv1a(h, ";priority="), d->priority);
    h = fnv_ratio(h, "max_task_util", d->max_task_util);
    h = fnv_ratio(h, "constrained_factor", d->constrained_factor);
    h = fnv_ratio(h, "arbitrary_factor", d->arbitrary_factor);
    h = fnv_ratio(h, "time_limit", d->time_limit_s);
    h = fnv_int(h, "max_attempts", d->max_attempts);
    h = fnv_int(h, "sets_jsonl", d->sets_jsonl);
    if (d->n_resource_counts == 0) /* a sweep without resources keeps its hash */
        return h;
    for (size_t i = 0; i < d->n_resource_counts; i++)
        h = fnv_int(h, "resources", d->resource_counts[i]);
    h = fnv_ratio(h, "access", d->access);
    h = fnv_int(h, "requests", d->max_requests);
    for (size_t i = 0; i < d->n_cs_lengths; i++)
        h = fnv_int(fnv_int(h, "cs_min", d->cs_min_ns[i]), "cs_max", d->cs_max_ns[i]);
    return h;
}

rtp_gen_opts rtp_sweep_gen_opts(const rtp_sweep *sw, size_t point)
{
    rtp_gen_opts o = sw->gen;
    const rtp_sweep_point *p = &sw->points[point];
    o.n_tasks = (size_t)p->tasks;
    int64_t g = rtp_gcd(p->util.den, p->cpus);
    /* make_points checked that the product fits. */
    o.total_util.num = p->util.num * (p->cpus / g);
    o.total_util.den = p->util.den / g;
    o.deadlines = p->deadlines;
    o.n_resources = (size_t)p->resources;
    o.cs_min_ns = p->resources ? p->cs_min_ns : o.cs_min_ns;
    o.cs_max_ns = p->resources ? p->cs_max_ns : o.cs_max_ns;
    return o;
}

void rtp_sweep_point_key(const rtp_sweep *sw, size_t point, char *buf, size_t size)
{
    const rtp_sweep_point *p = &sw->points[point];
    char util[48];
    rtp_ratio_format(p->util, util, sizeof util);
    snprintf(buf, size, "%lld,%lld,%s,%s", (long long)p->tasks, (long long)p->cpus, util,
             rtp_gen_deadlines_name(p->deadlines));
}

void rtp_sweep_point_resources(const rtp_sweep *sw, size_t point, char *buf, size_t size)
{
    const rtp_sweep_point *p = &sw->points[point];
    char access[48];
    if (p->resources == 0) {
        snprintf(buf, size, "%s", "");
        return;
    }
    rtp_ratio_format(sw->doc.access, access, sizeof access);
    snprintf(buf, size, "%lld,%s,%lld,%lld,%lld", (long long)p->resources, access,
             (long long)sw->doc.max_requests, (long long)p->cs_min_ns, (long long)p->cs_max_ns);
}

/* The point's key for messages: its columns with their names. */
static void point_label(const rtp_sweep *sw, size_t point, char *buf, size_t size)
{
    char key[128], res[160];
    rtp_sweep_point_key(sw, point, key, sizeof key);
    rtp_sweep_point_resources(sw, point, res, sizeof res);
    if (res[0])
        snprintf(buf, size, "%s,%s (tasks,cpus,utilization,deadlines,resources,access,requests,"
                            "cs_min_ns,cs_max_ns)", key, res);
    else
        snprintf(buf, size, "%s (tasks,cpus,utilization,deadlines)", key);
}

static rtp_status map_names(rtp_sweep *sw, rtp_diag *diag)
{
    const rtp_sweep_doc *d = &sw->doc;
    sw->gen = rtp_gen_opts_default();
    if (rtp_gen_algo_parse(d->generator, &sw->gen.algo) != 0 ||
        rtp_prio_rule_parse(d->priority, &sw->priority) != 0)
        return rtp_diag_set(diag, RTP_EINTERNAL, "", "sweep names out of step");
    for (size_t i = 0; i < d->n_policies; i++)
        if (rtp_policy_parse(d->policies[i], &sw->policies[i]) != 0)
            return rtp_diag_set(diag, RTP_EINTERNAL, "", "sweep names out of step");
    sw->n_policies = d->n_policies;
    for (size_t i = 0; i < d->n_methods; i++) {
        int k = rtp_enum_find(method_names, RTP_COUNT_OF(method_names), d->methods[i]);
        if (k < 0)
            return rtp_diag_set(diag, RTP_EINTERNAL, "", "sweep names out of step");
        sw->methods[i] = (rtp_explore_method)k;
    }
    sw->n_methods = d->n_methods;
    sw->gen.max_task_util = d->max_task_util;
    sw->gen.period_min_ns = d->period_min_ns;
    sw->gen.period_max_ns = d->period_max_ns;
    sw->gen.granularity_ns = d->granularity_ns;
    sw->gen.harmonic = d->harmonic;
    sw->gen.period_set = d->period_set;
    sw->gen.n_period_set = d->n_period_set;
    sw->gen.constrained_factor = d->constrained_factor;
    sw->gen.arbitrary_factor = d->arbitrary_factor;
    sw->gen.max_attempts = (uint32_t)d->max_attempts;
    sw->gen.access = d->access;
    sw->gen.max_requests = d->max_requests;
    return RTP_OK;
}

static rtp_status make_points(rtp_sweep *sw, rtp_diag *diag)
{
    const rtp_sweep_doc *d = &sw->doc;
    size_t nr = d->n_resource_counts ? d->n_resource_counts : 1;
    size_t ncs = d->n_resource_counts ? d->n_cs_lengths : 1;
    /* six factors of at most RTP_SWEEP_MAX_ITEMS (10^4) each fit 128 bits */
    unsigned __int128 count = (unsigned __int128)d->n_tasks * d->n_cpus * d->n_utilizations *
                              d->n_deadlines * nr * ncs;
    if (count > 1000000)
        return rtp_diag_set(diag, RTP_EINPUT, "", "the sweep has %.0Lf points (at most 1000000)",
                            (long double)count);
    size_t n = (size_t)count;
    if (!(sw->points = calloc(n, sizeof *sw->points)))
        return rtp_diag_set(diag, RTP_ENOMEM, "", "out of memory");
    for (size_t k = 0; k < n; k++) { /* k = ((((t c) u) l) r) s, mixed radix */
        size_t at = k, s = at % ncs, r = (at /= ncs) % nr, l = (at /= nr) % d->n_deadlines;
        size_t u = (at /= d->n_deadlines) % d->n_utilizations;
        size_t c = (at /= d->n_utilizations) % d->n_cpus, t = at / d->n_cpus;
        rtp_sweep_point *p = &sw->points[k];
        p->tasks = d->tasks[t];
        p->cpus = d->cpus[c];
        p->util = d->utilizations[u];
        if (rtp_gen_deadlines_parse(d->deadlines[l], &p->deadlines) != 0)
            return rtp_diag_set(diag, RTP_EINTERNAL, "", "sweep names out of step");
        /* Deadline model and resources left out: models share periods and
         * WCETs, and every resource point of a (tasks, cpus, util) draws the
         * same tasks and the same random numbers for their sections (common
         * random numbers along the critical-section axis). */
        p->stream = rtp_rng_mix(rtp_rng_mix(rtp_rng_mix((uint64_t)p->tasks) ^ (uint64_t)p->cpus) ^
                                rtp_rng_mix((uint64_t)p->util.num) ^
                                ((uint64_t)p->util.den << 20));
        if (d->n_resource_counts) {
            p->resources = d->resource_counts[r];
            p->cs_min_ns = d->cs_min_ns[s];
            p->cs_max_ns = d->cs_max_ns[s];
        }
    }
    sw->n_points = n;
    for (size_t k = 0; k < n; k++) {
        int64_t total;
        if (__builtin_mul_overflow(sw->points[k].util.num, sw->points[k].cpus, &total))
            return rtp_diag_set(diag, RTP_EINPUT, "utilization", "too many digits");
        rtp_gen_opts o = rtp_sweep_gen_opts(sw, k);
        rtp_diag why;
        rtp_diag_clear(&why);
        if (rtp_gen_check(&o, &why) != RTP_OK) {
            char key[400];
            point_label(sw, k, key, sizeof key);
            return rtp_diag_set(diag, RTP_EINPUT, "", "point %s: %s", key, why.message);
        }
    }
    return RTP_OK;
}

rtp_status rtp_sweep_parse(const char *text, size_t len, rtp_sweep *out, rtp_diag *diag)
{
    memset(out, 0, sizeof *out);
    rtp_status st = rtp_sweep_doc_parse(text, len, &out->doc, diag);
    if (st != RTP_OK)
        return st;
    if ((st = map_names(out, diag)) != RTP_OK || (st = make_points(out, diag)) != RTP_OK) {
        rtp_sweep_free(out);
        return st;
    }
    out->hash = sweep_hash(&out->doc);
    return RTP_OK;
}

void rtp_sweep_free(rtp_sweep *sw)
{
    if (!sw)
        return;
    rtp_sweep_doc_free(&sw->doc);
    free(sw->points);
    memset(sw, 0, sizeof *sw);
}

rtp_sweep *rtp_sweep_open(const char *text, size_t len, rtp_diag *diag)
{
    rtp_sweep *sw = malloc(sizeof *sw);
    if (!sw) {
        rtp_oom(diag);
        return NULL;
    }
    if (rtp_sweep_parse(text, len, sw, diag) != RTP_OK) {
        free(sw);
        return NULL;
    }
    return sw;
}

void rtp_sweep_close(rtp_sweep *sw)
{
    rtp_sweep_free(sw);
    free(sw);
}

size_t rtp_sweep_n_points(const rtp_sweep *sw)
{
    return sw->n_points;
}

/* The one draw of a sweep's set (seed, the point's stream, index): explore's
 * run_set and Python's Sweep both make it here. */
rtp_status rtp_sweep_taskset(const rtp_sweep *sw, size_t point, size_t index,
                             rtp_taskset *out, rtp_diag *diag)
{
    memset(out, 0, sizeof *out);
    /* the library's callers pass these unchecked (the Python package) */
    if (point >= sw->n_points)
        return rtp_diag_set(diag, RTP_EINPUT, "", "point %zu: the sweep has %zu points", point,
                            sw->n_points);
    if (index >= (size_t)sw->doc.sets_per_point)
        return rtp_diag_set(diag, RTP_EINPUT, "", "set %zu: the sweep draws %zu sets per point",
                            index, (size_t)sw->doc.sets_per_point);
    rtp_gen_opts gen = rtp_sweep_gen_opts(sw, point);
    rtp_status st = rtp_gen_taskset(&gen, (uint64_t)sw->doc.seed, sw->points[point].stream,
                                    index, out, diag);
    if (st == RTP_EINPUT) { /* a draw the point cannot have: say which */
        char key[400], why[sizeof diag->message];
        point_label(sw, point, key, sizeof key);
        snprintf(why, sizeof why, "%s", diag ? diag->message : "");
        return rtp_diag_set(diag, st, "", "point %s, set %zu: %s", key, index, why);
    }
    return st;
}
