/* cli/cmd_gen.c — `rtpack gen`: generate one random task set (gen/gen.h)
 * and print it as a task-set document (times as integer ns). */
#include "cli/cli.h"
#include "gen/gen.h"
#include "models/duration.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const cli_option options[] = {
    {"tasks", 1, "N: number of tasks"},
    {"utilization", 1, "U: total utilization (exact decimal, e.g. 2.5)"},
    {"seed", 1, "S: random seed (default 1)"},
    {"generator", 1, "uunifast-discard|randfixedsum (default uunifast-discard)"},
    {"periods", 1, "MIN:MAX period range, log-uniform (default 1ms:1s)"},
    {"deadlines", 1, "implicit|constrained|arbitrary (default implicit)"},
    {"max-task-util", 1, "F: per-task utilization cap in (0, 1] (default 1)"},
    {"granularity", 1, "G: periods are multiples of G (default 1ns)"},
    {"harmonic", 0, "periods MIN x 2^k within the range"},
    {"period-set", 1, "LIST: periods drawn uniformly from T1,T2,..."},
    {"constrained-factor", 1, "a: constrained D uniform in [C + a(T - C), T] (default 0.5)"},
    {"arbitrary-factor", 1, "b: arbitrary D uniform in [C, b T] (default 2)"},
    {"max-attempts", 1, "uunifast-discard draws before giving up (default 10000)"},
    {NULL, 0, NULL},
};

/* A time: "<digits>" (ns) or a time string "5ms". */
static int parse_time(const cli_args *args, const char *opt, const char *text, rtp_ns *out)
{
    char why[128];
    size_t len = strlen(text), digits = strspn(text, "0123456789");
    char buf[64];
    if (len > 0 && digits == len && len < 40) {
        snprintf(buf, sizeof buf, "%sns", text);
        text = buf;
    }
    rtp_ns value;
    if (rtp_duration_parse(text, &value, why, sizeof why) != RTP_OK)
        return cli_usage_error(args, "--%s: %s (got '%s')", opt, why, text);
    if (value < 1)
        return cli_usage_error(args, "--%s: must be positive (got '%s')", opt, text);
    *out = value;
    return 0;
}

static int parse_ratio(const cli_args *args, const char *opt, const char *text, rtp_ratio *out)
{
    char why[128];
    if (rtp_ratio_parse_decimal(text, out, why, sizeof why) != RTP_OK)
        return cli_usage_error(args, "--%s: %s (got '%s')", opt, why, text);
    return 0;
}

static int parse_u64(const cli_args *args, const char *opt, const char *text, uint64_t max,
                     uint64_t *out)
{
    char *end = NULL;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (text[0] < '0' || text[0] > '9' || *end != '\0' || errno != 0 || v > max)
        return cli_usage_error(args, "--%s wants a whole number up to %llu, got '%s'", opt,
                               (unsigned long long)max, text);
    *out = v;
    return 0;
}

static int parse_periods(const cli_args *args, rtp_gen_opts *o, rtp_ns **set)
{
    const char *text;
    int rc = 0;
    if ((text = cli_get(args, "periods"))) {
        const char *colon = strchr(text, ':');
        char min[64];
        if (!colon || (size_t)(colon - text) >= sizeof min)
            return cli_usage_error(args, "--periods wants MIN:MAX, e.g. 1ms:1s (got '%s')", text);
        memcpy(min, text, (size_t)(colon - text));
        min[colon - text] = '\0';
        if ((rc = parse_time(args, "periods", min, &o->period_min_ns)) ||
            (rc = parse_time(args, "periods", colon + 1, &o->period_max_ns)))
            return rc;
    }
    if ((text = cli_get(args, "granularity")) &&
        (rc = parse_time(args, "granularity", text, &o->granularity_ns)))
        return rc;
    o->harmonic = cli_has(args, "harmonic");
    if ((text = cli_get(args, "period-set"))) {
        size_t n = 1;
        for (const char *p = text; *p; p++)
            n += *p == ',';
        *set = calloc(n, sizeof **set);
        char *copy = strdup(text);
        if (!*set || !copy) {
            free(copy);
            return cli_usage_error(args, "out of memory");
        }
        size_t i = 0;
        for (char *save = NULL, *tok = strtok_r(copy, ",", &save); tok && !rc;
             tok = strtok_r(NULL, ",", &save))
            rc = parse_time(args, "period-set", tok, &(*set)[i++]);
        free(copy);
        o->period_set = *set;
        o->n_period_set = i;
        if (!rc && i != n)
            rc = cli_usage_error(args, "--period-set: empty entry in '%s'", text);
    }
    return rc;
}

static int parse_opts(const cli_args *args, rtp_gen_opts *o, uint64_t *seed, rtp_ns **set)
{
    const char *text;
    uint64_t v = 0;
    int rc;
    if (!(text = cli_get(args, "tasks")))
        return cli_usage_error(args, "--tasks N is required");
    if ((rc = parse_u64(args, "tasks", text, 100000, &v)))
        return rc;
    o->n_tasks = (size_t)v;
    if (!(text = cli_get(args, "utilization")))
        return cli_usage_error(args, "--utilization U is required");
    if ((rc = parse_ratio(args, "utilization", text, &o->total_util)))
        return rc;
    *seed = 1;
    if ((text = cli_get(args, "seed")) && (rc = parse_u64(args, "seed", text, UINT64_MAX, seed)))
        return rc;
    if ((text = cli_get(args, "generator")) && rtp_gen_algo_parse(text, &o->algo) != 0)
        return cli_usage_error(args, "--generator must be uunifast-discard or randfixedsum");
    if ((text = cli_get(args, "deadlines")) && rtp_gen_deadlines_parse(text, &o->deadlines) != 0)
        return cli_usage_error(args, "--deadlines must be implicit, constrained or arbitrary");
    if ((text = cli_get(args, "max-task-util")) &&
        (rc = parse_ratio(args, "max-task-util", text, &o->max_task_util)))
        return rc;
    if ((text = cli_get(args, "constrained-factor")) &&
        (rc = parse_ratio(args, "constrained-factor", text, &o->constrained_factor)))
        return rc;
    if ((text = cli_get(args, "arbitrary-factor")) &&
        (rc = parse_ratio(args, "arbitrary-factor", text, &o->arbitrary_factor)))
        return rc;
    if ((text = cli_get(args, "max-attempts"))) {
        if ((rc = parse_u64(args, "max-attempts", text, UINT32_MAX, &v)))
            return rc;
        o->max_attempts = (uint32_t)v;
    }
    return parse_periods(args, o, set);
}

static int run(const cli_args *args)
{
    if (args->n_positional != 0)
        return cli_usage_error(args, "takes no FILE argument");
    rtp_gen_opts o = rtp_gen_opts_default();
    uint64_t seed = 1;
    rtp_ns *set = NULL;
    int rc = parse_opts(args, &o, &seed, &set);
    if (rc) {
        free(set);
        return rc;
    }
    rtp_taskset ts;
    rtp_diag diag;
    rtp_diag_clear(&diag);
    rtp_status st = rtp_gen_taskset(&o, seed, 0, 0, &ts, &diag);
    free(set);
    if (st != RTP_OK)
        return cli_fail(args, "", st, &diag);
    if (args->cpus > 0) {
        ts.has_platform = 1;
        ts.platform.cpus_given_as_count = 1;
        ts.platform.n_cpus = (size_t)args->cpus;
        ts.platform.cpus = calloc((size_t)args->cpus, sizeof *ts.platform.cpus);
        for (int i = 0; ts.platform.cpus && i < args->cpus; i++)
            ts.platform.cpus[i] = i;
        if (!ts.platform.cpus)
            ts.has_platform = 0;
    }
    char *text = rtp_taskset_to_json(&ts, 1);
    rtp_taskset_free(&ts);
    if (!text) {
        fprintf(stderr, "rtpack gen: out of memory\n");
        return CLI_EXIT_LIMIT;
    }
    fputs(text, stdout);
    free(text);
    return CLI_EXIT_OK;
}

const cli_command cli_cmd_gen = {
    "gen",
    "--tasks N --utilization U [--seed S] [--generator uunifast-discard|randfixedsum] "
    "[--periods MIN:MAX] [--deadlines implicit|constrained|arbitrary] [--max-task-util F]",
    "Generate a random task set (UUniFast-discard or RandFixedSum utilizations, log-uniform "
    "periods) and print it as a task-set document with times in integer ns. Same arguments, "
    "same bytes, on any machine.",
    options, run,
};
