/* models/rtapp_doc.c — see rtapp_doc.h. */
#include "models/rtapp_doc.h"
#include "models/json_util.h"

#include <stdio.h>

char *rtp_rtapp_doc_to_json(const rtp_rtapp_thread *threads, size_t n,
                            const rtp_rtapp_global *g)
{
    cJSON *root = cJSON_CreateObject();
    if (!root)
        return NULL;
    char calibration[24];
    snprintf(calibration, sizeof calibration, "CPU%d", g->calibration_cpu);
    cJSON *global = cJSON_AddObjectToObject(root, "global");
    cJSON_AddItemToObject(global, "duration", rtp_json_new_int(g->duration_s));
    cJSON_AddStringToObject(global, "calibration", calibration);
    cJSON_AddStringToObject(global, "default_policy", "SCHED_OTHER");
    cJSON_AddTrueToObject(global, "lock_pages");
    cJSON_AddStringToObject(global, "logdir", g->logdir);
    cJSON_AddStringToObject(global, "log_basename", g->log_basename);
    cJSON_AddItemToObject(global, "log_size", rtp_json_new_int(g->log_size_mb));
    cJSON *tasks = cJSON_AddObjectToObject(root, "tasks");
    for (size_t i = 0; i < n; i++) {
        const rtp_rtapp_thread *t = &threads[i];
        cJSON *obj = cJSON_AddObjectToObject(tasks, t->name);
        if (!obj)
            break;
        cJSON_AddStringToObject(obj, "policy", t->deadline ? "SCHED_DEADLINE" : "SCHED_FIFO");
        cJSON_AddItemToObject(obj, "priority", rtp_json_new_int(t->priority));
        if (t->deadline) {
            cJSON_AddItemToObject(obj, "dl-runtime", rtp_json_new_int(t->dl_runtime_us));
            cJSON_AddItemToObject(obj, "dl-deadline", rtp_json_new_int(t->dl_deadline_us));
            cJSON_AddItemToObject(obj, "dl-period", rtp_json_new_int(t->dl_period_us));
        }
        if (t->cpus) {
            cJSON *cpus = cJSON_AddArrayToObject(obj, "cpus");
            for (size_t k = 0; cpus && k < t->n_cpus; k++)
                cJSON_AddItemToArray(cpus, rtp_json_new_int(t->cpus[k]));
        }
        cJSON_AddItemToObject(obj, "run", rtp_json_new_int(t->run_us));
        cJSON *timer = cJSON_AddObjectToObject(obj, "timer");
        cJSON_AddStringToObject(timer, "ref", t->name);
        cJSON_AddItemToObject(timer, "period", rtp_json_new_int(t->period_us));
    }
    char *text = rtp_json_print(root, 1);
    cJSON_Delete(root);
    return text;
}
