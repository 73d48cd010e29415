/* deploy/rtapp_doc.c — see rtapp_doc.h. */
#include "deploy/rtapp_doc.h"
#include "models/json_util.h"

#include <stdio.h>

char *rtp_rtapp_doc_to_json(const rtp_rtapp_thread *threads, size_t n,
                            const rtp_rtapp_global *g)
{
    cJSON *root = cJSON_CreateObject();
    int bad = 0;
    if (!root)
        return NULL;
    char calibration[24];
    snprintf(calibration, sizeof calibration, "CPU%d", g->calibration_cpu);
    cJSON *global = rtp_json_add_object(&bad, root, "global");
    rtp_json_add(&bad, global, "duration", rtp_json_new_int(g->duration_s));
    rtp_json_add(&bad, global, "calibration", cJSON_CreateString(calibration));
    rtp_json_add(&bad, global, "default_policy", cJSON_CreateString("SCHED_OTHER"));
    rtp_json_add(&bad, global, "lock_pages", cJSON_CreateTrue());
    rtp_json_add(&bad, global, "logdir", cJSON_CreateString(g->logdir));
    rtp_json_add(&bad, global, "log_basename", cJSON_CreateString(g->log_basename));
    rtp_json_add(&bad, global, "log_size", rtp_json_new_int(g->log_size_mb));
    cJSON *tasks = rtp_json_add_object(&bad, root, "tasks");
    for (size_t i = 0; i < n; i++) {
        const rtp_rtapp_thread *t = &threads[i];
        cJSON *obj = rtp_json_add_object(&bad, tasks, t->name);
        if (!obj)
            break;
        rtp_json_add(&bad, obj, "policy",
                     cJSON_CreateString(t->deadline ? "SCHED_DEADLINE" : "SCHED_FIFO"));
        rtp_json_add(&bad, obj, "priority", rtp_json_new_int(t->priority));
        if (t->deadline) {
            rtp_json_add(&bad, obj, "dl-runtime", rtp_json_new_int(t->dl_runtime_us));
            rtp_json_add(&bad, obj, "dl-deadline", rtp_json_new_int(t->dl_deadline_us));
            rtp_json_add(&bad, obj, "dl-period", rtp_json_new_int(t->dl_period_us));
        }
        if (t->cpus) {
            cJSON *cpus = rtp_json_add_array(&bad, obj, "cpus");
            for (size_t k = 0; cpus && k < t->n_cpus; k++)
                rtp_json_push(&bad, cpus, rtp_json_new_int(t->cpus[k]));
        }
        rtp_json_add(&bad, obj, "run", rtp_json_new_int(t->run_us));
        cJSON *timer = rtp_json_add_object(&bad, obj, "timer");
        rtp_json_add(&bad, timer, "ref", cJSON_CreateString(t->name));
        rtp_json_add(&bad, timer, "period", rtp_json_new_int(t->period_us));
    }
    char *text = bad ? NULL : rtp_json_print(root, 1);
    cJSON_Delete(root);
    return text;
}
