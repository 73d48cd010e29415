/* models/rehearse_doc.c — see rehearse_doc.h. */
#include "models/rehearse_doc.h"
#include "models/json_util.h"

#include <stdlib.h>

void rtp_rehearse_report_free(rtp_rehearse_report *report)
{
    free(report->tasks);
    report->tasks = NULL;
    report->n_tasks = 0;
}

int rtp_rehearse_over_bound(const rtp_rehearse_task *t)
{
    return t->bound_ns >= 0 && t->response_max_ns > t->bound_ns;
}

/* A ratio as its exact decimal when it has one (0.9), else "p/q". */
static cJSON *ratio(rtp_ratio r)
{
    char text[48];
    rtp_ratio_format(r, text, sizeof text);
    return cJSON_CreateRaw(text);
}

char *rtp_rehearse_report_to_json(const rtp_rehearse_report *r, int pretty)
{
    cJSON *root = cJSON_CreateObject(), *tasks = cJSON_CreateArray();
    char *text = NULL;
    int failed = 0, *bad = &failed;
    if (!root || !tasks)
        goto done;
    rtp_json_add(bad, root, "seconds", rtp_json_new_int(r->seconds));
    rtp_json_add(bad, root, "load", ratio(r->load));
    rtp_json_add(bad, root, "runtime_margin", ratio(r->runtime_margin));
    rtp_json_add(bad, root, "hog", cJSON_CreateBool(r->hog));
    if (r->reclaim)
        rtp_json_add(bad, root, "reclaim", cJSON_CreateBool(1));
    if (r->overrun_signal)
        rtp_json_add(bad, root, "overrun_signal", cJSON_CreateBool(1));
    rtp_json_add(bad, root, "arrival_grid",
                 r->arrival_grid ? cJSON_CreateString(r->arrival_grid) : cJSON_CreateNull());
    for (size_t k = 0; k < r->n_tasks; k++) {
        const rtp_rehearse_task *t = &r->tasks[k];
        cJSON *o = cJSON_CreateObject();
        if (o) {
            rtp_json_add(bad, o, "name", cJSON_CreateString(t->name));
            rtp_json_add(bad, o, "cpu", rtp_json_new_int(t->cpu));
            rtp_json_add(bad, o, "jobs", rtp_json_new_int((int64_t)t->jobs));
            rtp_json_add(bad, o, "misses", rtp_json_new_int((int64_t)t->misses));
            rtp_json_add(bad, o, "response_max", rtp_json_new_time_or_null(t->response_max_ns));
            rtp_json_add(bad, o, "response_p99", rtp_json_new_time_or_null(t->response_p99_ns));
            rtp_json_add(bad, o, "bound", rtp_json_new_time_or_null(t->bound_ns));
            rtp_json_add(bad, o, "over_bound", cJSON_CreateBool(rtp_rehearse_over_bound(t)));
            if (r->overrun_signal)
                rtp_json_add(bad, o, "overruns", rtp_json_new_int(t->overruns));
        }
        rtp_json_push(bad, tasks, o);
    }
    rtp_json_add(bad, root, "tasks", tasks);
    tasks = NULL;
    rtp_json_add(bad, root, "machine_restored", cJSON_CreateBool(r->machine_restored));
    if (!r->machine_restored)
        rtp_json_add(bad, root, "left", cJSON_CreateString(r->left));
    if (r->leftovers[0])
        rtp_json_add(bad, root, "leftovers_stopped", cJSON_CreateString(r->leftovers));
    if (!failed)
        text = rtp_json_print(root, pretty);
done:
    cJSON_Delete(tasks);
    cJSON_Delete(root);
    return text;
}
