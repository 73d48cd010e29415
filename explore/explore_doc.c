/* explore/explore_doc.c — the explore / merge summary document (see
 * explore_doc.h). Counts are exact integers; "ratio" is a display value. */
#include "explore/explore_doc.h"
#include "models/json_util.h"

#include <stdio.h>
#include <stdlib.h>

static cJSON *total_object(int *bad, const rtp_explore_total *t)
{
    cJSON *o = cJSON_CreateObject();
    if (!o) {
        *bad = 1;
        return NULL;
    }
    rtp_json_add(bad, o, "policy", cJSON_CreateString(t->policy));
    rtp_json_add(bad, o, "method", cJSON_CreateString(t->method));
    rtp_json_add(bad, o, "accepted", rtp_json_new_int(t->accepted));
    rtp_json_add(bad, o, "total", rtp_json_new_int(t->total));
    rtp_json_add(bad, o, "ratio", t->total > 0 ? rtp_json_new_display((double)t->accepted /
                                                                      (double)t->total)
                                               : cJSON_CreateNull());
    rtp_json_add(bad, o, "timeouts", rtp_json_new_int(t->timeouts));
    return o;
}

char *rtp_explore_summary_to_json(const rtp_explore_summary *s, int pretty)
{
    int failed = 0, *bad = &failed;
    char shard[48];
    cJSON *root = cJSON_CreateObject(), *points = cJSON_CreateObject();
    cJSON *totals = cJSON_CreateArray(), *files = cJSON_CreateArray();
    snprintf(shard, sizeof shard, "%d/%d", s->shard_k, s->shard_n);
    if (!root)
        failed = 1;
    else {
        rtp_json_add(bad, root, "out", cJSON_CreateString(s->out_dir));
        rtp_json_add(bad, root, "shard", cJSON_CreateString(shard));
        rtp_json_add(bad, root, "complete", cJSON_CreateBool(s->points_done == s->points_in_shard));
        if (points) {
            rtp_json_add(bad, points, "done", rtp_json_new_int((int64_t)s->points_done));
            rtp_json_add(bad, points, "shard", rtp_json_new_int((int64_t)s->points_in_shard));
            rtp_json_add(bad, points, "sweep", rtp_json_new_int((int64_t)s->points_total));
        }
        rtp_json_add(bad, root, "points", points);
        points = NULL;
        rtp_json_add(bad, root, "sets_per_point", rtp_json_new_int(s->sets_per_point));
        rtp_json_add(bad, root, "sets",
                     rtp_json_new_int((int64_t)s->points_done * s->sets_per_point));
        for (size_t i = 0; totals && i < s->n_totals; i++)
            rtp_json_push(bad, totals, total_object(bad, &s->totals[i]));
        rtp_json_add(bad, root, "acceptance", totals);
        totals = NULL;
        for (size_t i = 0; files && i < s->n_files; i++)
            rtp_json_push(bad, files, cJSON_CreateString(s->files[i]));
        rtp_json_add(bad, root, "files", files);
        files = NULL;
    }
    char *text = failed ? NULL : rtp_json_print(root, pretty);
    cJSON_Delete(points);
    cJSON_Delete(totals);
    cJSON_Delete(files);
    cJSON_Delete(root);
    return text;
}

void rtp_explore_summary_free(rtp_explore_summary *s)
{
    free(s->totals);
    s->totals = NULL;
    s->n_totals = 0;
}
