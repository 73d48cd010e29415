/* rehearse/rehearse_doc_read.c — the reader of the document `rtpack rehearse
 * --json` writes (rehearse_doc.h), for rtpack report --rehearsal. As the
 * probe's reader (probe/probe_doc_read.c): every member the writer writes is
 * required with its type, nothing else is accepted, and over_bound must
 * agree with the times it derives from (docs/spec.md "Error messages"). */
#include "rehearse/rehearse_doc.h"

#include "models/doc_members.h"
#include "models/json_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- rehearse --json ---- */

/* A flag the writer writes only when set: absent is 0, present must be true. */
static rtp_status get_set_flag(const cJSON *obj, const char *path, const char *key, int *out,
                               rtp_diag *diag)
{
    *out = 0;
    if (!cJSON_GetObjectItemCaseSensitive(obj, key))
        return RTP_OK;
    rtp_status st = rtp_doc_bool(obj, path, key, out, diag);
    if (st == RTP_OK && !*out) {
        char field[RTP_DIAG_PATH_SIZE];
        rtp_json_path_key(field, sizeof field, path, key);
        return rtp_diag_set(diag, RTP_EINPUT, field, "written only when true");
    }
    return st;
}

static rtp_status rehearse_task(const rtp_json *doc, const cJSON *node, const char *path,
                                int overrun_signal, rtp_rehearse_task *t, rtp_diag *diag)
{
    static const char *const keys[] = {"name",   "cpu",          "jobs",
                                       "misses", "response_max", "response_p99",
                                       "bound",  "over_bound",   NULL};
    static const char *const keys_overruns[] = {
        "name",         "cpu",   "jobs",       "misses",   "response_max",
        "response_p99", "bound", "over_bound", "overruns", NULL};
    char field[RTP_DIAG_PATH_SIZE];
    const cJSON *item;
    int64_t cpu = 0;
    uint64_t jobs = 0, misses = 0;
    int over = 0;
    rtp_status st;
    if ((st = rtp_doc_keys(node, path, overrun_signal ? keys_overruns : keys, diag)) ||
        (st = rtp_doc_text(node, path, "name", 0, t->name, sizeof t->name, diag)) ||
        (st = rtp_doc_need(node, path, "cpu", &item, field, diag)) ||
        (st = rtp_json_int(doc, item, field, 0, RTP_CPU_LIMIT - 1, &cpu, diag)) ||
        (st = rtp_doc_count(doc, node, path, "jobs", &jobs, diag)) ||
        (st = rtp_doc_count(doc, node, path, "misses", &misses, diag)) ||
        (st = rtp_doc_time(doc, node, path, "response_max", 1, &t->response_max_ns, diag)) ||
        (st = rtp_doc_time(doc, node, path, "response_p99", 1, &t->response_p99_ns, diag)) ||
        (st = rtp_doc_time(doc, node, path, "bound", 1, &t->bound_ns, diag)) ||
        (st = rtp_doc_bool(node, path, "over_bound", &over, diag)))
        return st;
    t->cpu = (int)cpu;
    t->jobs = jobs;
    t->misses = misses;
    if (overrun_signal) { /* SIGXCPU counted per task only with --overrun-signal
                           */
        uint64_t overruns = 0;
        if ((st = rtp_doc_count(doc, node, path, "overruns", &overruns, diag)) != RTP_OK)
            return st;
        t->overruns = (long long)overruns;
    }
    if ((t->response_max_ns < 0) != (t->response_p99_ns < 0) ||
        t->response_p99_ns > t->response_max_ns) {
        rtp_json_path_key(field, sizeof field, path, "response_p99");
        return rtp_diag_set(diag, RTP_EINPUT, field,
                            "must be null exactly when response_max is, and at most it");
    }
    if (over != rtp_rehearse_over_bound(t)) {
        rtp_json_path_key(field, sizeof field, path, "over_bound");
        return rtp_diag_set(diag, RTP_EINPUT, field, "is %s, but response_max is %s the bound",
                            over ? "true" : "false", over ? "within" : "above");
    }
    return RTP_OK;
}

/* "hypervisor_steal": per CPU, ascending, each time within the run. */
static rtp_status steal_list(const rtp_json *doc, const cJSON *list, rtp_rehearse_report *out,
                             rtp_diag *diag)
{
    static const char *const keys[] = {"cpu", "time", NULL};
    if (!cJSON_IsArray(list))
        return rtp_diag_set(diag, RTP_EINPUT, "hypervisor_steal", "must be a list of objects");
    size_t n = (size_t)cJSON_GetArraySize(list);
    if (!(out->steal = rtp_alloc(n ? n : 1, sizeof *out->steal, diag)))
        return RTP_ENOMEM;
    char path[RTP_DIAG_PATH_SIZE];
    for (const cJSON *c = list->child; c; c = c->next) {
        rtp_json_path_index(path, sizeof path, "hypervisor_steal", out->n_steal);
        int64_t cpu = 0, time = 0;
        rtp_status st;
        if ((st = rtp_doc_keys(c, path, keys, diag)) ||
            (st = rtp_doc_int(doc, c, path, "cpu", 0, RTP_CPU_LIMIT - 1, &cpu, diag)) ||
            (st = rtp_doc_int(doc, c, path, "time", 0, ((int64_t)out->seconds + 1) * 1000000000, &time,
                              diag)))
            return st;
        if (out->n_steal && cpu <= out->steal[out->n_steal - 1].cpu)
            return rtp_diag_set(diag, RTP_EINPUT, path, "cpu must ascend");
        out->steal[out->n_steal].cpu = (int)cpu;
        out->steal[out->n_steal++].time_ns = time;
    }
    return RTP_OK;
}

rtp_status rtp_rehearse_report_parse_json(const char *text, size_t len, rtp_rehearse_report *out,
                                          rtp_diag *diag)
{
    static const char *const keys[] = {
        "seconds",      "load",  "runtime_margin",   "hog",  "reclaim",           "overrun_signal",
        "arrival_grid", "tasks", "machine_restored", "left", "leftovers_stopped",
        "hypervisor_steal", NULL};
    static const char *const grids[] = {"kernel", "first_job", "release", NULL};
    memset(out, 0, sizeof *out);
    rtp_json doc;
    rtp_status st = rtp_json_open(&doc, text, len, diag);
    if (st != RTP_OK)
        return st;
    const cJSON *root = doc.root, *tasks, *left;
    char field[RTP_DIAG_PATH_SIZE];
    int64_t seconds = 0;
    int has;
    if ((st = rtp_doc_keys(root, "", keys, diag)) ||
        (st = rtp_doc_int(&doc, root, "", "seconds", 0, 86400, &seconds, diag)) ||
        (st = rtp_doc_ratio(&doc, root, "", "load", 0, &has, &out->load, diag)) ||
        (st = rtp_doc_ratio(&doc, root, "", "runtime_margin", 0, &has, &out->runtime_margin,
                            diag)) ||
        (st = rtp_doc_bool(root, "", "hog", &out->hog, diag)) ||
        (st = get_set_flag(root, "", "reclaim", &out->reclaim, diag)) ||
        (st = get_set_flag(root, "", "overrun_signal", &out->overrun_signal, diag)) ||
        (st = rtp_doc_choice(root, "", "arrival_grid", 1, grids, &out->arrival_grid, diag)) ||
        (st = rtp_doc_bool(root, "", "machine_restored", &out->machine_restored, diag)) ||
        (st = rtp_doc_need(root, "", "tasks", &tasks, field, diag)))
        goto done;
    out->seconds = (int)seconds;
    left = cJSON_GetObjectItemCaseSensitive(root, "left");
    if (left && out->machine_restored) {
        st = rtp_diag_set(diag, RTP_EINPUT, "left", "only written when machine_restored is false");
        goto done;
    }
    if (!out->machine_restored &&
        (st = rtp_doc_text(root, "", "left", 0, out->left, sizeof out->left, diag)))
        goto done;
    if (cJSON_GetObjectItemCaseSensitive(root, "leftovers_stopped") &&
        (st = rtp_doc_text(root, "", "leftovers_stopped", 0, out->leftovers, sizeof out->leftovers,
                           diag)))
        goto done;
    const cJSON *steal = cJSON_GetObjectItemCaseSensitive(root, "hypervisor_steal");
    if (steal && (st = steal_list(&doc, steal, out, diag)) != RTP_OK)
        goto done;
    if (!cJSON_IsArray(tasks)) {
        st = rtp_diag_set(diag, RTP_EINPUT, "tasks", "must be a list of task objects");
        goto done;
    }
    size_t n = (size_t)cJSON_GetArraySize(tasks);
    if (!(out->tasks = rtp_alloc(n ? n : 1, sizeof *out->tasks, diag))) {
        st = RTP_ENOMEM;
        goto done;
    }
    for (const cJSON *c = tasks->child; c && st == RTP_OK; c = c->next) {
        rtp_json_path_index(field, sizeof field, "tasks", out->n_tasks);
        st = rehearse_task(&doc, c, field, out->overrun_signal, &out->tasks[out->n_tasks++], diag);
    }
done:
    rtp_json_close(&doc);
    if (st != RTP_OK)
        rtp_rehearse_report_free(out);
    return st;
}
