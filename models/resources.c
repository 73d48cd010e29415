/* models/resources.c — the shared-resource members of a task set
 * (docs/spec.md "Shared resources"): top-level "resources" and each task's
 * "requests", read strictly and written back. */
#include "models/arith.h"
#include "models/json_util.h"
#include "models/json_write.h"
#include "models/taskset.h"
#include "models/text.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const char *const protocol_names[] = {"auto", "pcp", "srp", "msrp", "fmlp+", NULL};
static const rtp_lock_protocol protocol_of[] = {RTP_LOCK_AUTO, RTP_LOCK_CEILING,
                                                RTP_LOCK_CEILING, RTP_LOCK_MSRP,
                                                RTP_LOCK_FMLP};

const char *rtp_lock_protocol_name(rtp_lock_protocol p, rtp_policy policy)
{
    switch (p) {
    case RTP_LOCK_CEILING: return policy == RTP_POLICY_FP ? "pcp" : "srp";
    case RTP_LOCK_MSRP: return "msrp";
    case RTP_LOCK_FMLP: return "fmlp+";
    default: return "auto";
    }
}

static rtp_status read_resource(const cJSON *node, const char *path, rtp_resource *r,
                                rtp_diag *diag)
{
    static const char *const keys[] = {"name", "protocol", NULL};
    char field[RTP_DIAG_PATH_SIZE], why[96];
    if (!cJSON_IsObject(node))
        return rtp_diag_set(diag, RTP_EINPUT, path, "must be an object {\"name\": ...}");
    rtp_status st = rtp_json_check_keys(node, path, keys, diag);
    if (st != RTP_OK)
        return st;
    const char *s;
    rtp_json_path_key(field, sizeof field, path, "name");
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(node, "name");
    if (!item)
        return rtp_diag_set(diag, RTP_EINPUT, field, "missing");
    if ((st = rtp_json_string(item, field, 0, &s, diag)) != RTP_OK)
        return st;
    if (strlen(s) > RTP_TASK_NAME_MAX)
        return rtp_diag_set(diag, RTP_EINPUT, field, "longer than %d bytes", RTP_TASK_NAME_MAX);
    if (rtp_text_check_plain(s, why, sizeof why) != 0)
        return rtp_diag_set(diag, RTP_EINPUT, field, "%s", why);
    if (!(r->name = strdup(s)))
        return rtp_oom(diag);
    if ((item = cJSON_GetObjectItemCaseSensitive(node, "protocol"))) {
        rtp_json_path_key(field, sizeof field, path, "protocol");
        if ((st = rtp_json_string(item, field, 0, &s, diag)) != RTP_OK)
            return st;
        size_t k = 0;
        while (protocol_names[k] && strcmp(protocol_names[k], s) != 0)
            k++;
        if (!protocol_names[k])
            return rtp_diag_set(diag, RTP_EINPUT, field,
                                "unknown protocol \"%.40s\" (one of auto, pcp, srp, msrp, fmlp+)",
                                s);
        r->protocol = protocol_of[k];
        r->protocol_word = (int)k + 1;
    }
    return RTP_OK;
}

rtp_status rtp_resources_from_json(const cJSON *node, rtp_resource **list, size_t *count,
                                   rtp_diag *diag)
{
    if (!cJSON_IsArray(node))
        return rtp_diag_set(diag, RTP_EINPUT, "resources", "must be a list of resources");
    size_t n = (size_t)cJSON_GetArraySize(node), i = 0;
    if (n == 0)
        return RTP_OK;
    rtp_resource *res = *list = calloc(n, sizeof *res);
    if (!res)
        return rtp_oom(diag);
    char path[RTP_DIAG_PATH_SIZE];
    for (const cJSON *c = node->child; c; c = c->next, i++) {
        rtp_json_path_index(path, sizeof path, "resources", i);
        *count = i + 1;
        rtp_status st = read_resource(c, path, &res[i], diag);
        if (st != RTP_OK)
            return st;
        for (size_t k = 0; k < i; k++)
            if (strcmp(res[k].name, res[i].name) == 0) {
                char at[RTP_DIAG_PATH_SIZE];
                rtp_json_path_key(at, sizeof at, path, "name");
                return rtp_diag_set(diag, RTP_EINPUT, at, "duplicate resource name \"%.60s\"",
                                    res[i].name);
            }
    }
    /* FMLP+ beside spin-lock (MSRP) sections, or beside resources whose
     * protocol the placement decides (auto), is not analysed; beside
     * declared ceiling (pcp) resources it is: a suspending job is blocked
     * by one such section per resumption (solver/fmlp.h). */
    for (size_t a = 0; a < n; a++)
        for (size_t b = 0; b < n; b++)
            if (res[a].protocol == RTP_LOCK_FMLP && res[b].protocol != RTP_LOCK_FMLP &&
                res[b].protocol != RTP_LOCK_CEILING) {
                rtp_json_path_index(path, sizeof path, "resources", b);
                char at[RTP_DIAG_PATH_SIZE];
                rtp_json_path_key(at, sizeof at, path, "protocol");
                return rtp_diag_set(diag, RTP_EINPUT, at,
                                    "\"%.40s\" is fmlp+, \"%.40s\" is neither fmlp+ nor pcp: "
                                    "FMLP+ is analysed beside fmlp+ and pcp resources only",
                                    res[a].name, res[b].name);
            }
    return RTP_OK;
}

/* One request object into *q (count and length against the task's wcet). */
static rtp_status read_request(const rtp_json *doc, const cJSON *node, const char *path,
                               rtp_ns unit, const rtp_resource *res, size_t n_res,
                               const rtp_task *task, rtp_request *q, rtp_diag *diag)
{
    static const char *const keys[] = {"resource", "count", "length", NULL};
    char field[RTP_DIAG_PATH_SIZE];
    if (!cJSON_IsObject(node))
        return rtp_diag_set(diag, RTP_EINPUT, path,
                            "must be an object {\"resource\", \"count\", \"length\"}");
    rtp_status st = rtp_json_check_keys(node, path, keys, diag);
    if (st != RTP_OK)
        return st;
    for (size_t k = 0; keys[k]; k++)
        if (!cJSON_GetObjectItemCaseSensitive(node, keys[k])) {
            rtp_json_path_key(field, sizeof field, path, keys[k]);
            return rtp_diag_set(diag, RTP_EINPUT, field, "missing");
        }
    const char *name;
    rtp_json_path_key(field, sizeof field, path, "resource");
    if ((st = rtp_json_string(cJSON_GetObjectItemCaseSensitive(node, "resource"), field, 0,
                              &name, diag)) != RTP_OK)
        return st;
    size_t r = 0;
    while (r < n_res && strcmp(res[r].name, name) != 0)
        r++;
    if (r == n_res)
        return rtp_diag_set(diag, RTP_EINPUT, field,
                            "unknown resource \"%.60s\" (not in the top-level \"resources\")",
                            name);
    q->resource = r;
    q->np = res[r].protocol == RTP_LOCK_MSRP;
    q->susp = res[r].protocol == RTP_LOCK_FMLP;
    int64_t count;
    rtp_json_path_key(field, sizeof field, path, "count");
    if ((st = rtp_json_int(doc, cJSON_GetObjectItemCaseSensitive(node, "count"), field, 1,
                           INT64_C(1) << 62, &count, diag)) != RTP_OK)
        return st;
    q->count = count;
    rtp_json_path_key(field, sizeof field, path, "length");
    if ((st = rtp_json_time(doc, cJSON_GetObjectItemCaseSensitive(node, "length"), field, unit,
                            0, &q->length_ns, diag)) != RTP_OK)
        return st;
    if (q->length_ns > task->wcet_ns)
        return rtp_diag_set(diag, RTP_EINPUT, field,
                            "a critical section longer than the task's wcet");
    return RTP_OK;
}

rtp_status rtp_requests_from_json(const rtp_json *doc, const cJSON *node, const char *path,
                                  rtp_ns unit, const rtp_resource *res, size_t n_res,
                                  rtp_task *task, rtp_diag *diag)
{
    char field[RTP_DIAG_PATH_SIZE];
    if (!cJSON_IsArray(node))
        return rtp_diag_set(diag, RTP_EINPUT, path, "must be a list of requests");
    size_t n = (size_t)cJSON_GetArraySize(node), i = 0;
    if (n == 0)
        return RTP_OK;
    if (!(task->requests = calloc(n, sizeof *task->requests)))
        return rtp_oom(diag);
    rtp_i128 total = 0;
    for (const cJSON *c = node->child; c; c = c->next, i++) {
        rtp_json_path_index(field, sizeof field, path, i);
        task->n_requests = i + 1;
        rtp_request *q = &task->requests[i];
        rtp_status st = read_request(doc, c, field, unit, res, n_res, task, q, diag);
        if (st != RTP_OK)
            return st;
        for (size_t k = 0; k < i; k++)
            if (task->requests[k].resource == q->resource) {
                char at[RTP_DIAG_PATH_SIZE];
                rtp_json_path_key(at, sizeof at, field, "resource");
                return rtp_diag_set(diag, RTP_EINPUT, at,
                                    "resource \"%.60s\" named twice in one task's requests",
                                    res[q->resource].name);
            }
        /* Non-nested sections run one after another inside the job. */
        total += (rtp_i128)q->count * q->length_ns;
        if (total > task->wcet_ns) {
            char at[RTP_DIAG_PATH_SIZE];
            rtp_json_path_key(at, sizeof at, field, "count");
            return rtp_diag_set(diag, RTP_EINPUT, at,
                                "count x length of the task's critical sections exceeds its wcet");
        }
    }
    return RTP_OK;
}

void rtp_resources_write(rtp_json_writer *w, const rtp_resource *res, size_t n_res)
{
    rtp_jw_open(w, "resources", 0);
    for (size_t r = 0; r < n_res; r++) {
        rtp_jw_open(w, NULL, 1);
        rtp_jw_string(w, "name", res[r].name);
        if (res[r].protocol_word)
            rtp_jw_string(w, "protocol", protocol_names[res[r].protocol_word - 1]);
        rtp_jw_close(w);
    }
    rtp_jw_close(w);
}

void rtp_requests_write(rtp_json_writer *w, const rtp_resource *res, const rtp_task *task)
{
    rtp_jw_open(w, "requests", 0);
    for (size_t i = 0; i < task->n_requests; i++) {
        const rtp_request *q = &task->requests[i];
        rtp_jw_open(w, NULL, 1);
        rtp_jw_string(w, "resource", res[q->resource].name);
        rtp_jw_int(w, "count", q->count);
        rtp_jw_time(w, "length", q->length_ns);
        rtp_jw_close(w);
    }
    rtp_jw_close(w);
}

void rtp_resources_free(rtp_resource *res, size_t n_res)
{
    for (size_t r = 0; res && r < n_res; r++)
        free(res[r].name);
    free(res);
}

rtp_status rtp_resources_copy(const rtp_resource *from, size_t n, rtp_resource **to)
{
    *to = NULL;
    if (n == 0)
        return RTP_OK;
    rtp_resource *res = calloc(n, sizeof *res);
    if (!res)
        return RTP_ENOMEM;
    for (size_t r = 0; r < n; r++) {
        res[r] = from[r];
        if (!(res[r].name = strdup(from[r].name))) {
            rtp_resources_free(res, r);
            return RTP_ENOMEM;
        }
    }
    *to = res;
    return RTP_OK;
}

int rtp_tasks_have_requests(const rtp_task *tasks, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (tasks[i].n_requests > 0)
            return 1;
    return 0;
}

rtp_status rtp_request_held(const rtp_request *q, const rtp_overheads *ov, rtp_ns *out)
{
    if (!ov) {
        *out = q->length_ns;
        return RTP_OK;
    }
    /* every term within 0..2^62: the sum fits 128 bits */
    rtp_i128 held = (rtp_i128)q->length_ns + ov->lock_ns;
    if (q->susp)
        held += (rtp_i128)ov->release_latency_ns + 2 * (rtp_i128)ov->context_switch_ns;
    if (held > RTP_NS_LIMIT)
        return RTP_ELIMIT;
    *out = (rtp_ns)held;
    return RTP_OK;
}
