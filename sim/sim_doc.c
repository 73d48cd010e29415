/* sim/sim_doc.c — see sim_doc.h. */
#include "sim/sim_doc.h"
#include "models/json_util.h"

#include <stdlib.h>

char *rtp_sim_doc_to_json(const rtp_sim_doc *d, int pretty)
{
    cJSON *root = cJSON_CreateObject(), *tasks = cJSON_CreateArray();
    char *text = NULL;
    int failed = 0, *bad = &failed;
    if (!root || !tasks)
        goto done;
    rtp_json_add(bad, root, "until", rtp_json_new_time(d->until_ns));
    for (size_t k = 0; k < d->n_tasks; k++) {
        const rtp_sim_doc_task *t = &d->tasks[k];
        cJSON *o = cJSON_CreateObject();
        if (o) {
            rtp_json_add(bad, o, "name", cJSON_CreateString(t->name));
            rtp_json_add(bad, o, "cpu", rtp_json_new_int(t->cpu));
            if (t->cpus) {
                cJSON *ids = cJSON_CreateArray();
                for (size_t c = 0; ids && c < t->n_cpus; c++)
                    rtp_json_push(bad, ids, rtp_json_new_int(t->cpus[c]));
                rtp_json_add(bad, o, "cpus", ids);
            }
            rtp_json_add(bad, o, "policy", cJSON_CreateString(rtp_policy_name(t->policy)));
            if (t->policy == RTP_POLICY_FP || t->policy == RTP_POLICY_GFP)
                rtp_json_add(bad, o, "priority", rtp_json_new_int(t->priority));
            rtp_json_add(bad, o, "jobs", rtp_json_new_int((int64_t)t->jobs));
            rtp_json_add(bad, o, "misses", rtp_json_new_int((int64_t)t->misses));
            rtp_json_add(bad, o, "first_miss", rtp_json_new_time_or_null(t->first_miss_ns));
            rtp_json_add(bad, o, "response_max", rtp_json_new_time_or_null(t->response_max_ns));
        }
        rtp_json_push(bad, tasks, o);
    }
    rtp_json_add(bad, root, "tasks", tasks);
    tasks = NULL;
    rtp_json_add(bad, root, "schedulable_in_simulation", cJSON_CreateBool(d->schedulable));
    if (d->not_simulated[0]) {
        cJSON *ns = cJSON_CreateArray();
        for (size_t k = 0; ns && k < 3 && d->not_simulated[k]; k++)
            rtp_json_push(bad, ns, cJSON_CreateString(d->not_simulated[k]));
        rtp_json_add(bad, root, "not_simulated", ns);
    }
    if (!failed)
        text = rtp_json_print(root, pretty);
done:
    cJSON_Delete(tasks);
    cJSON_Delete(root);
    return text;
}

int rtp_doc_is_plan(const char *text, size_t len)
{
    rtp_json doc;
    if (rtp_json_open(&doc, text, len, NULL) != RTP_OK)
        return 0; /* the task-set reader reports what is wrong */
    int plan = cJSON_IsObject(doc.root) && !cJSON_GetObjectItemCaseSensitive(doc.root, "tasks");
    rtp_json_close(&doc);
    return plan;
}
