/* models/analysis_doc.c — writer of the analyze document (see the header). */
#include "models/analysis_doc.h"

#include "models/json_util.h"

static cJSON *task_object(const rtp_analysis_task *t)
{
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    cJSON_AddItemToObject(o, "name", cJSON_CreateString(t->name ? t->name : ""));
    cJSON_AddItemToObject(o, "wcet", rtp_json_new_time(t->wcet_ns));
    cJSON_AddItemToObject(o, "deadline", rtp_json_new_time(t->deadline_ns));
    cJSON_AddItemToObject(o, "period", rtp_json_new_time(t->period_ns));
    if (t->jitter_ns)
        cJSON_AddItemToObject(o, "jitter", rtp_json_new_time(t->jitter_ns));
    if (t->blocking_ns)
        cJSON_AddItemToObject(o, "blocking", rtp_json_new_time(t->blocking_ns));
    if (t->has_priority)
        cJSON_AddItemToObject(o, "priority", rtp_json_new_int(t->priority));
    if (t->has_response)
        cJSON_AddItemToObject(o, "response_time", t->response_time_ns < 0
                                                      ? cJSON_CreateNull()
                                                      : rtp_json_new_int(t->response_time_ns));
    if (t->has_meets_deadline)
        cJSON_AddItemToObject(o, "meets_deadline", cJSON_CreateBool(t->meets_deadline));
    if (t->has_wcet_max)
        cJSON_AddItemToObject(o, "wcet_max", t->wcet_max_ns < 0 ? cJSON_CreateNull()
                                                                : rtp_json_new_time(t->wcet_max_ns));
    return o;
}

void rtp_scaling_text_add(cJSON *object, const rtp_scaling_text *s)
{
    if (!s->present)
        return;
    cJSON_AddItemToObject(object, "critical_scaling_factor",
                          s->exact ? cJSON_CreateString(s->decimal) : cJSON_CreateNull());
    cJSON_AddItemToObject(object, "critical_scaling_factor_exact",
                          s->exact ? cJSON_CreateString(s->exact) : cJSON_CreateNull());
}

char *rtp_analysis_doc_to_json(const rtp_analysis_doc *doc, int pretty)
{
    cJSON *root = cJSON_CreateObject(), *tasks = cJSON_CreateArray();
    char *text = NULL;
    if (!root || !tasks)
        goto done;
    if (doc->line > 0)
        cJSON_AddItemToObject(root, "line", rtp_json_new_int(doc->line));
    cJSON_AddItemToObject(root, "policy", cJSON_CreateString(rtp_policy_name(doc->policy)));
    if (doc->has_priority_rule)
        cJSON_AddItemToObject(root, "priority",
                              cJSON_CreateString(rtp_prio_rule_name(doc->priority_rule)));
    if (doc->cpus > 0)
        cJSON_AddItemToObject(root, "cpus", rtp_json_new_int(doc->cpus));
    cJSON_AddItemToObject(root, "schedulable", cJSON_CreateBool(doc->schedulable));
    if (doc->has_assignment_found)
        cJSON_AddItemToObject(root, "assignment_found", cJSON_CreateBool(doc->assignment_found));
    if (doc->has_test)
        cJSON_AddItemToObject(root, "test", doc->test ? cJSON_CreateString(doc->test)
                                                      : cJSON_CreateNull());
    if (doc->not_applicable)
        cJSON_AddItemToObject(root, "not_applicable", cJSON_CreateString(doc->not_applicable));
    cJSON_AddItemToObject(root, "utilization", rtp_json_new_display(doc->utilization));
    if (doc->has_effective_utilization)
        cJSON_AddItemToObject(root, "effective_utilization",
                              rtp_json_new_display(doc->effective_utilization));
    if (doc->has_first_miss)
        cJSON_AddItemToObject(root, "first_miss", rtp_json_new_int(doc->first_miss_ns));
    rtp_scaling_text_add(root, &doc->scaling);
    for (size_t i = 0; i < doc->n_tasks; i++) {
        cJSON *t = task_object(&doc->tasks[i]);
        if (!t)
            goto done;
        cJSON_AddItemToArray(tasks, t);
    }
    cJSON_AddItemToObject(root, "tasks", tasks);
    tasks = NULL;
    text = rtp_json_print(root, pretty);
done:
    cJSON_Delete(tasks);
    cJSON_Delete(root);
    return text;
}

char *rtp_analysis_error_to_json(long line, const char *message)
{
    cJSON *root = cJSON_CreateObject();
    if (!root)
        return NULL;
    cJSON_AddItemToObject(root, "line", rtp_json_new_int(line));
    cJSON_AddItemToObject(root, "error", cJSON_CreateString(message ? message : ""));
    char *text = rtp_json_print(root, 0);
    cJSON_Delete(root);
    return text;
}
