/* explore/sweep_doc.c — reading the sweep file (see sweep_doc.h). Fields are
 * read in a fixed order and the first problem stops the read, so the message
 * names one JSON path. */
#include "explore/sweep_doc.h"
#include "models/duration.h"
#include "models/arith.h"
#include "models/json_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


static const char *const deadline_names[] = {"implicit", "constrained", "arbitrary", NULL};
static const char *const generator_names[] = {"uunifast-discard", "randfixedsum", NULL};
static const char *const policy_names[] = {"edf", "fp", NULL};
static const char *const method_names[] = {"ffd", "bfd", "wfd", "nfd", "best", "ilp", "sfd",
                                           "ilp-colocate", "ffd-oblivious", NULL};
static const char *const priority_names[] = {"opa", "dm", "rm", NULL};

/* The static name in `names` equal to node's string, or an error listing them. */
static rtp_status read_name(const cJSON *node, const char *path, const char *const *names,
                            const char **out, rtp_diag *diag)
{
    char list[128] = "";
    for (const char *const *n = names; *n; n++) {
        if (cJSON_IsString(node) && strcmp(node->valuestring, *n) == 0) {
            *out = *n;
            return RTP_OK;
        }
        size_t used = strlen(list);
        snprintf(list + used, sizeof list - used, "%s\"%s\"", n == names ? "" : ", ", *n);
    }
    return rtp_diag_set(diag, RTP_EINPUT, path, "must be one of %s", list);
}

/* A name or a non-empty list of distinct names into out[0..max-1]. */
static rtp_status read_names(const cJSON *node, const char *path, const char *const *names,
                             const char **out, size_t max, size_t *count, rtp_diag *diag)
{
    char item_path[RTP_DIAG_PATH_SIZE];
    if (!cJSON_IsArray(node)) {
        *count = 1;
        return read_name(node, path, names, &out[0], diag);
    }
    size_t i = 0;
    if (cJSON_GetArraySize(node) == 0)
        return rtp_diag_set(diag, RTP_EINPUT, path, "must not be empty");
    for (const cJSON *c = node->child; c; c = c->next, i++) {
        rtp_json_path_index(item_path, sizeof item_path, path, i);
        const char *name;
        rtp_status st = read_name(c, item_path, names, &name, diag);
        if (st != RTP_OK)
            return st;
        for (size_t j = 0; j < i; j++)
            if (out[j] == name)
                return rtp_diag_set(diag, RTP_EINPUT, item_path, "\"%s\" is listed twice", name);
        if (i == max)
            return rtp_diag_set(diag, RTP_EINPUT, item_path, "too many entries");
        out[i] = name;
    }
    *count = i;
    return RTP_OK;
}

/* An integer or a non-empty list of distinct integers in [min, max]. */
static rtp_status read_ints(const rtp_json *doc, const cJSON *node, const char *path,
                            int64_t min, int64_t max, int64_t **out, size_t *count,
                            rtp_diag *diag)
{
    char item_path[RTP_DIAG_PATH_SIZE];
    size_t n = cJSON_IsArray(node) ? (size_t)cJSON_GetArraySize(node) : 1;
    if (n == 0 || n > RTP_SWEEP_MAX_ITEMS)
        return rtp_diag_set(diag, RTP_EINPUT, path, "must be a number or a list of 1..%d numbers",
                            RTP_SWEEP_MAX_ITEMS);
    if (!(*out = calloc(n, sizeof **out)))
        return rtp_diag_set(diag, RTP_ENOMEM, path, "out of memory");
    *count = n;
    if (!cJSON_IsArray(node))
        return rtp_json_int(doc, node, path, min, max, &(*out)[0], diag);
    size_t i = 0;
    for (const cJSON *c = node->child; c; c = c->next, i++) {
        rtp_json_path_index(item_path, sizeof item_path, path, i);
        rtp_status st = rtp_json_int(doc, c, item_path, min, max, &(*out)[i], diag);
        if (st != RTP_OK)
            return st;
        for (size_t j = 0; j < i; j++)
            if ((*out)[j] == (*out)[i])
                return rtp_diag_set(diag, RTP_EINPUT, item_path, "%lld is listed twice",
                                    (long long)(*out)[i]);
    }
    return RTP_OK;
}

/* A non-negative exact decimal: a string "0.65" or a JSON number read as its
 * shortest round-trip decimal form. */
static rtp_status read_decimal(const cJSON *node, const char *path, rtp_ratio *out,
                               rtp_diag *diag)
{
    char text[64], why[96];
    if (cJSON_IsString(node)) {
        snprintf(text, sizeof text, "%s", node->valuestring);
    } else if (cJSON_IsNumber(node)) {
        double v = node->valuedouble;
        for (int digits = 1; digits <= 17; digits++) {
            snprintf(text, sizeof text, "%.*g", digits, v);
            if (strtod(text, NULL) == v)
                break;
        }
        if (strchr(text, 'e'))
            return rtp_diag_set(diag, RTP_EINPUT, path,
                                "write this number as a decimal string (got %s)", text);
    } else {
        return rtp_diag_set(diag, RTP_EINPUT, path, "must be a decimal string like \"0.65\"");
    }
    if (rtp_ratio_parse_decimal(text, out, why, sizeof why) != RTP_OK)
        return rtp_diag_set(diag, RTP_EINPUT, path, "%s (got \"%.40s\")", why, text);
    return RTP_OK;
}

static rtp_status read_utilization(const cJSON *node, rtp_sweep_doc *d, rtp_diag *diag)
{
    static const char *const keys[] = {"from", "to", "step", NULL};
    char path[RTP_DIAG_PATH_SIZE];
    rtp_status st;
    const rtp_ratio zero = {0, 1};
    if (cJSON_IsArray(node)) {
        size_t n = (size_t)cJSON_GetArraySize(node), i = 0;
        if (n == 0 || n > RTP_SWEEP_MAX_ITEMS)
            return rtp_diag_set(diag, RTP_EINPUT, "utilization", "must list 1..%d values",
                                RTP_SWEEP_MAX_ITEMS);
        if (!(d->utilizations = calloc(n, sizeof *d->utilizations)))
            return rtp_diag_set(diag, RTP_ENOMEM, "utilization", "out of memory");
        for (const cJSON *c = node->child; c; c = c->next, i++) {
            rtp_json_path_index(path, sizeof path, "utilization", i);
            if ((st = read_decimal(c, path, &d->utilizations[i], diag)) != RTP_OK)
                return st;
            if (rtp_ratio_cmp(d->utilizations[i], zero) <= 0)
                return rtp_diag_set(diag, RTP_EINPUT, path, "must be positive");
        }
        d->n_utilizations = n;
        return RTP_OK;
    }
    if (!cJSON_IsObject(node))
        return rtp_diag_set(diag, RTP_EINPUT, "utilization",
                            "must be {\"from\", \"to\", \"step\"} or a list of decimals");
    if ((st = rtp_json_check_keys(node, "utilization", keys, diag)) != RTP_OK)
        return st;
    rtp_ratio r[3];
    for (int k = 0; k < 3; k++) {
        rtp_json_path_key(path, sizeof path, "utilization", keys[k]);
        const cJSON *item = cJSON_GetObjectItemCaseSensitive(node, keys[k]);
        if (!item)
            return rtp_diag_set(diag, RTP_EINPUT, path, "missing");
        if ((st = read_decimal(item, path, &r[k], diag)) != RTP_OK)
            return st;
        if (k != 1 && rtp_ratio_cmp(r[k], zero) <= 0)
            return rtp_diag_set(diag, RTP_EINPUT, path, "must be positive");
    }
    if (rtp_ratio_cmp(r[1], r[0]) < 0)
        return rtp_diag_set(diag, RTP_EINPUT, "utilization.to", "must not be below from");
    /* from + k step <= to, on the common denominator of from and step. */
    __int128 den = (__int128)r[0].den / rtp_gcd(r[0].den, r[2].den) * r[2].den;
    if (den > INT64_MAX / 4)
        return rtp_diag_set(diag, RTP_EINPUT, "utilization.step", "too many decimal places");
    __int128 from = r[0].num * (den / r[0].den), step = r[2].num * (den / r[2].den);
    __int128 to_scaled = (__int128)r[1].num * den; /* compare with value * r[1].den */
    __int128 count = (to_scaled / r[1].den - from) / step + 1;
    if (count > RTP_SWEEP_MAX_ITEMS)
        return rtp_diag_set(diag, RTP_EINPUT, "utilization.step",
                            "makes more than %d points", RTP_SWEEP_MAX_ITEMS);
    if (!(d->utilizations = calloc((size_t)count, sizeof *d->utilizations)))
        return rtp_diag_set(diag, RTP_ENOMEM, "utilization", "out of memory");
    size_t n = 0;
    for (__int128 v = from; v * r[1].den <= to_scaled; v += step) {
        int64_t g = rtp_gcd((int64_t)v, (int64_t)den);
        d->utilizations[n].num = (int64_t)v / g;
        d->utilizations[n].den = (int64_t)den / g;
        n++;
    }
    d->n_utilizations = n;
    return RTP_OK;
}

static rtp_status read_periods(const rtp_json *doc, const cJSON *node, rtp_sweep_doc *d,
                               rtp_diag *diag)
{
    static const char *const keys[] = {"min", "max", "granularity", "harmonic", "set", NULL};
    char path[RTP_DIAG_PATH_SIZE];
    rtp_status st;
    if (!cJSON_IsObject(node))
        return rtp_diag_set(diag, RTP_EINPUT, "periods", "must be an object");
    if ((st = rtp_json_check_keys(node, "periods", keys, diag)) != RTP_OK)
        return st;
    rtp_ns *slots[] = {&d->period_min_ns, &d->period_max_ns, &d->granularity_ns};
    for (int k = 0; k < 3; k++) {
        const cJSON *item = cJSON_GetObjectItemCaseSensitive(node, keys[k]);
        rtp_json_path_key(path, sizeof path, "periods", keys[k]);
        if (item && (st = rtp_json_time(doc, item, path, 1, 0, slots[k], diag)) != RTP_OK)
            return st;
    }
    if (d->period_min_ns > d->period_max_ns)
        return rtp_diag_set(diag, RTP_EINPUT, "periods.max", "must not be below periods.min");
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(node, "harmonic");
    if (item) {
        if (!cJSON_IsBool(item))
            return rtp_diag_set(diag, RTP_EINPUT, "periods.harmonic", "must be true or false");
        d->harmonic = cJSON_IsTrue(item);
    }
    if (!(item = cJSON_GetObjectItemCaseSensitive(node, "set")))
        return RTP_OK;
    size_t n = cJSON_IsArray(item) ? (size_t)cJSON_GetArraySize(item) : 0, i = 0;
    if (n == 0 || n > RTP_SWEEP_MAX_ITEMS)
        return rtp_diag_set(diag, RTP_EINPUT, "periods.set", "must be a list of 1..%d times",
                            RTP_SWEEP_MAX_ITEMS);
    if (cJSON_GetObjectItemCaseSensitive(node, "harmonic") ||
        cJSON_GetObjectItemCaseSensitive(node, "min") || cJSON_GetObjectItemCaseSensitive(node, "max"))
        return rtp_diag_set(diag, RTP_EINPUT, "periods.set",
                            "cannot be combined with min, max or harmonic");
    if (!(d->period_set = calloc(n, sizeof *d->period_set)))
        return rtp_diag_set(diag, RTP_ENOMEM, "periods.set", "out of memory");
    d->n_period_set = n;
    for (const cJSON *c = item->child; c; c = c->next, i++) {
        rtp_json_path_index(path, sizeof path, "periods.set", i);
        if ((st = rtp_json_time(doc, c, path, 1, 0, &d->period_set[i], diag)) != RTP_OK)
            return st;
    }
    return RTP_OK;
}

/* resources.cs_length[i] (or resources.cs_length): {"min": T, "max": T}. */
static rtp_status read_cs_length(const rtp_json *doc, const cJSON *node, const char *path,
                                 rtp_ns *min, rtp_ns *max, rtp_diag *diag)
{
    static const char *const keys[] = {"min", "max", NULL};
    char item_path[RTP_DIAG_PATH_SIZE];
    rtp_ns *slots[] = {min, max};
    rtp_status st;
    if (!cJSON_IsObject(node))
        return rtp_diag_set(diag, RTP_EINPUT, path, "must be {\"min\": TIME, \"max\": TIME}");
    if ((st = rtp_json_check_keys(node, path, keys, diag)) != RTP_OK)
        return st;
    for (int k = 0; k < 2; k++) {
        const cJSON *item = cJSON_GetObjectItemCaseSensitive(node, keys[k]);
        rtp_json_path_key(item_path, sizeof item_path, path, keys[k]);
        if (!item)
            return rtp_diag_set(diag, RTP_EINPUT, item_path, "missing");
        if ((st = rtp_json_time(doc, item, item_path, 1, 0, slots[k], diag)) != RTP_OK)
            return st;
    }
    if (*max < *min)
        return rtp_diag_set(diag, RTP_EINPUT, item_path, "must not be below min");
    return RTP_OK;
}

/* "resources": {"count", "access", "requests", "cs_length"} (gen's --resources,
 * --access, --requests, --cs-length; count and cs_length may be lists). */
static rtp_status read_resources(const rtp_json *doc, const cJSON *node, rtp_sweep_doc *d,
                                 rtp_diag *diag)
{
    static const char *const keys[] = {"count", "access", "requests", "cs_length", NULL};
    char path[RTP_DIAG_PATH_SIZE];
    const rtp_ratio one = {1, 1};
    const cJSON *item;
    rtp_status st;
    if (!cJSON_IsObject(node))
        return rtp_diag_set(diag, RTP_EINPUT, "resources", "must be an object");
    if ((st = rtp_json_check_keys(node, "resources", keys, diag)) != RTP_OK)
        return st;
    if (!(item = cJSON_GetObjectItemCaseSensitive(node, "count")))
        return rtp_diag_set(diag, RTP_EINPUT, "resources.count", "missing");
    if ((st = read_ints(doc, item, "resources.count", 1, 1000, &d->resource_counts,
                        &d->n_resource_counts, diag)) != RTP_OK)
        return st;
    if ((item = cJSON_GetObjectItemCaseSensitive(node, "access"))) {
        if ((st = read_decimal(item, "resources.access", &d->access, diag)) != RTP_OK)
            return st;
        if (rtp_ratio_cmp(d->access, one) > 0)
            return rtp_diag_set(diag, RTP_EINPUT, "resources.access", "must be in [0, 1]");
    }
    if ((item = cJSON_GetObjectItemCaseSensitive(node, "requests")) &&
        (st = rtp_json_int(doc, item, "resources.requests", 1, 1000, &d->max_requests,
                           diag)) != RTP_OK)
        return st;
    if (!(item = cJSON_GetObjectItemCaseSensitive(node, "cs_length")))
        return rtp_diag_set(diag, RTP_EINPUT, "resources.cs_length", "missing");
    size_t n = cJSON_IsArray(item) ? (size_t)cJSON_GetArraySize(item) : 1, i = 0;
    if (n == 0 || n > RTP_SWEEP_MAX_ITEMS)
        return rtp_diag_set(diag, RTP_EINPUT, "resources.cs_length",
                            "must be {\"min\", \"max\"} or a list of 1..%d of them",
                            RTP_SWEEP_MAX_ITEMS);
    if (!(d->cs_min_ns = calloc(n, sizeof *d->cs_min_ns)) ||
        !(d->cs_max_ns = calloc(n, sizeof *d->cs_max_ns)))
        return rtp_diag_set(diag, RTP_ENOMEM, "resources.cs_length", "out of memory");
    d->n_cs_lengths = n;
    if (!cJSON_IsArray(item))
        return read_cs_length(doc, item, "resources.cs_length", &d->cs_min_ns[0],
                              &d->cs_max_ns[0], diag);
    for (const cJSON *c = item->child; c; c = c->next, i++) {
        rtp_json_path_index(path, sizeof path, "resources.cs_length", i);
        if ((st = read_cs_length(doc, c, path, &d->cs_min_ns[i], &d->cs_max_ns[i], diag)) !=
            RTP_OK)
            return st;
        for (size_t j = 0; j < i; j++)
            if (d->cs_min_ns[j] == d->cs_min_ns[i] && d->cs_max_ns[j] == d->cs_max_ns[i])
                return rtp_diag_set(diag, RTP_EINPUT, path, "is listed twice");
    }
    return RTP_OK;
}

/* Methods that do not apply to the sweep's sets: Greedy Slacker places by
 * FP response times, and the ILP models resources only co-located. */
static rtp_status check_methods(const rtp_sweep_doc *d, rtp_diag *diag)
{
    char path[RTP_DIAG_PATH_SIZE];
    for (size_t i = 0; i < d->n_methods; i++) {
        rtp_json_path_index(path, sizeof path, "methods", i);
        if (strcmp(d->methods[i], "sfd") == 0)
            for (size_t p = 0; p < d->n_policies; p++)
                if (strcmp(d->policies[p], "fp") != 0)
                    return rtp_diag_set(diag, RTP_EINPUT, path,
                                        "\"sfd\" (Greedy Slacker) needs policies [\"fp\"]");
        if (strcmp(d->methods[i], "ilp") == 0 && d->n_resource_counts > 0)
            return rtp_diag_set(diag, RTP_EINPUT, path,
                                "the ILP models shared resources only with every resource's "
                                "users on one CPU: use \"ilp-colocate\"");
    }
    return RTP_OK;
}

static rtp_status read_options(const cJSON *root, rtp_sweep_doc *d, rtp_diag *diag)
{
    static const char *const ratio_keys[] = {"max_task_util", "constrained_factor",
                                             "arbitrary_factor", "time_limit"};
    rtp_ratio *ratio_slots[] = {&d->max_task_util, &d->constrained_factor,
                                &d->arbitrary_factor, &d->time_limit_s};
    rtp_status st;
    const cJSON *item;
    for (int k = 0; k < 4; k++)
        if ((item = cJSON_GetObjectItemCaseSensitive(root, ratio_keys[k])) &&
            (st = read_decimal(item, ratio_keys[k], ratio_slots[k], diag)) != RTP_OK)
            return st;
    if ((item = cJSON_GetObjectItemCaseSensitive(root, "sets_jsonl"))) {
        if (!cJSON_IsBool(item))
            return rtp_diag_set(diag, RTP_EINPUT, "sets_jsonl", "must be true or false");
        d->sets_jsonl = cJSON_IsTrue(item);
    }
    if ((item = cJSON_GetObjectItemCaseSensitive(root, "priority")))
        return read_name(item, "priority", priority_names, &d->priority, diag);
    return RTP_OK;
}

static rtp_status read_sweep(const rtp_json *doc, rtp_sweep_doc *d, rtp_diag *diag)
{
    static const char *const keys[] = {
        "seed", "sets_per_point", "tasks", "cpus", "utilization", "periods", "deadlines",
        "generator", "policies", "methods", "priority", "max_task_util", "constrained_factor",
        "arbitrary_factor", "time_limit", "max_attempts", "sets_jsonl", "resources", NULL};
    const cJSON *root = doc->root, *item;
    if (!cJSON_IsObject(root))
        return rtp_diag_set(diag, RTP_EINPUT, "", "the sweep must be a JSON object");
    rtp_status st = rtp_json_check_keys(root, "", keys, diag);
    if (st != RTP_OK)
        return st;
    if ((item = cJSON_GetObjectItemCaseSensitive(root, "seed")) &&
        (st = rtp_json_int(doc, item, "seed", 0, RTP_JSON_INT_LIMIT - 1, &d->seed, diag)) != RTP_OK)
        return st;
    if ((item = cJSON_GetObjectItemCaseSensitive(root, "sets_per_point")) &&
        (st = rtp_json_int(doc, item, "sets_per_point", 1, 1000000, &d->sets_per_point,
                           diag)) != RTP_OK)
        return st;
    if (!(item = cJSON_GetObjectItemCaseSensitive(root, "tasks")))
        return rtp_diag_set(diag, RTP_EINPUT, "tasks", "missing");
    if ((st = read_ints(doc, item, "tasks", 1, 100000, &d->tasks, &d->n_tasks, diag)) != RTP_OK)
        return st;
    if (!(item = cJSON_GetObjectItemCaseSensitive(root, "cpus")))
        return rtp_diag_set(diag, RTP_EINPUT, "cpus", "missing");
    if ((st = read_ints(doc, item, "cpus", 1, RTP_CPU_LIMIT, &d->cpus, &d->n_cpus, diag)) != RTP_OK)
        return st;
    if (!(item = cJSON_GetObjectItemCaseSensitive(root, "utilization")))
        return rtp_diag_set(diag, RTP_EINPUT, "utilization", "missing");
    if ((st = read_utilization(item, d, diag)) != RTP_OK)
        return st;
    if ((item = cJSON_GetObjectItemCaseSensitive(root, "periods")) &&
        (st = read_periods(doc, item, d, diag)) != RTP_OK)
        return st;
    if ((item = cJSON_GetObjectItemCaseSensitive(root, "deadlines")) &&
        (st = read_names(item, "deadlines", deadline_names, d->deadlines, 3, &d->n_deadlines,
                         diag)) != RTP_OK)
        return st;
    if ((item = cJSON_GetObjectItemCaseSensitive(root, "generator")) &&
        (st = read_name(item, "generator", generator_names, &d->generator, diag)) != RTP_OK)
        return st;
    if ((item = cJSON_GetObjectItemCaseSensitive(root, "policies")) &&
        (st = read_names(item, "policies", policy_names, d->policies, 2, &d->n_policies,
                         diag)) != RTP_OK)
        return st;
    if ((item = cJSON_GetObjectItemCaseSensitive(root, "methods")) &&
        (st = read_names(item, "methods", method_names, d->methods, 9, &d->n_methods,
                         diag)) != RTP_OK)
        return st;
    if ((item = cJSON_GetObjectItemCaseSensitive(root, "resources")) &&
        (st = read_resources(doc, item, d, diag)) != RTP_OK)
        return st;
    if ((st = check_methods(d, diag)) != RTP_OK)
        return st;
    if ((item = cJSON_GetObjectItemCaseSensitive(root, "max_attempts")) &&
        (st = rtp_json_int(doc, item, "max_attempts", 1, 1000000000, &d->max_attempts,
                           diag)) != RTP_OK)
        return st;
    return read_options(root, d, diag);
}

static void set_defaults(rtp_sweep_doc *d)
{
    memset(d, 0, sizeof *d);
    d->seed = 1;
    d->sets_per_point = 100;
    d->period_min_ns = 1000000;
    d->period_max_ns = 1000000000;
    d->granularity_ns = 1;
    d->deadlines[0] = deadline_names[0];
    d->n_deadlines = 1;
    d->generator = generator_names[0];
    d->policies[0] = policy_names[0];
    d->n_policies = 1;
    for (d->n_methods = 0; d->n_methods < 5; d->n_methods++)
        d->methods[d->n_methods] = method_names[d->n_methods];
    d->priority = priority_names[0];
    d->max_task_util = (rtp_ratio){1, 1};
    d->constrained_factor = (rtp_ratio){1, 2};
    d->arbitrary_factor = (rtp_ratio){2, 1};
    d->time_limit_s = (rtp_ratio){10, 1};
    d->max_attempts = 10000;
    d->access = (rtp_ratio){1, 2};
    d->max_requests = 1;
}

rtp_status rtp_sweep_doc_parse(const char *text, size_t len, rtp_sweep_doc *out,
                               rtp_diag *diag)
{
    rtp_json doc;
    set_defaults(out);
    rtp_status st = rtp_json_open(&doc, text, len, diag);
    if (st != RTP_OK) {
        memset(out, 0, sizeof *out);
        return st;
    }
    st = read_sweep(&doc, out, diag);
    rtp_json_close(&doc);
    if (st != RTP_OK) {
        rtp_sweep_doc_free(out);
        return st;
    }
    return RTP_OK;
}

void rtp_sweep_doc_free(rtp_sweep_doc *doc)
{
    if (!doc)
        return;
    free(doc->tasks);
    free(doc->cpus);
    free(doc->utilizations);
    free(doc->period_set);
    free(doc->resource_counts);
    free(doc->cs_min_ns);
    free(doc->cs_max_ns);
    memset(doc, 0, sizeof *doc);
}
