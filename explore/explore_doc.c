/* explore/explore_doc.c — the explore / merge summary document (see
 * explore_doc.h). Counts are exact integers; "ratio" is a display value. */
#include "explore/explore_doc.h"
#include "models/json_write.h"

#include <stdio.h>
#include <stdlib.h>

static void total_object(rtp_json_writer *w, const rtp_explore_total *t)
{
    rtp_jw_open(w, NULL, 1);
    rtp_jw_string(w, "policy", t->policy);
    rtp_jw_string(w, "method", t->method);
    rtp_jw_int(w, "accepted", t->accepted);
    rtp_jw_int(w, "total", t->total);
    if (t->total > 0)
        rtp_jw_display(w, "ratio", (double)t->accepted / (double)t->total);
    else
        rtp_jw_null(w, "ratio");
    rtp_jw_int(w, "timeouts", t->timeouts);
    rtp_jw_close(w);
}

char *rtp_explore_summary_to_json(const rtp_explore_summary *s, int pretty)
{
    rtp_text out;
    rtp_json_writer w;
    char shard[48];
    snprintf(shard, sizeof shard, "%d/%d", s->shard_k, s->shard_n);
    rtp_text_init(&out);
    rtp_jw_init(&w, &out, pretty);
    rtp_jw_open(&w, NULL, 1);
    rtp_jw_string(&w, "out", s->out_dir);
    rtp_jw_string(&w, "shard", shard);
    rtp_jw_bool(&w, "complete", s->points_done == s->points_in_shard);
    rtp_jw_open(&w, "points", 1);
    rtp_jw_int(&w, "done", (int64_t)s->points_done);
    rtp_jw_int(&w, "shard", (int64_t)s->points_in_shard);
    rtp_jw_int(&w, "sweep", (int64_t)s->points_total);
    rtp_jw_close(&w);
    rtp_jw_int(&w, "sets_per_point", s->sets_per_point);
    rtp_jw_int(&w, "sets", (int64_t)s->points_done * s->sets_per_point);
    rtp_jw_open(&w, "acceptance", 0);
    for (size_t i = 0; i < s->n_totals; i++)
        total_object(&w, &s->totals[i]);
    rtp_jw_close(&w);
    rtp_jw_open(&w, "files", 0);
    for (size_t i = 0; i < s->n_files; i++)
        rtp_jw_string(&w, NULL, s->files[i]);
    rtp_jw_close(&w);
    rtp_jw_close(&w);
    return rtp_jw_take(&w);
}

void rtp_explore_summary_free(rtp_explore_summary *s)
{
    free(s->totals);
    s->totals = NULL;
    s->n_totals = 0;
}
