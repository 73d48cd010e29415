/* solver/analysis_doc.c — writer of the analyze document (see the header). */
#include "solver/analysis_doc.h"

#include "models/json_write.h"

#include <string.h>

/* The literal s (a string constant) at p; the end. */
#define PUT(p, s) (memcpy((p), (s), sizeof(s) - 1), (p) + sizeof(s) - 1)

static int bare(rtp_ns t)
{
    return t < RTP_JSON_INT_LIMIT && t > -RTP_JSON_INT_LIMIT;
}

/* task_object's bytes in compact layout, written straight into one
 * reservation: a batch line is mostly its task objects, and the generic
 * writer's per-value work (key length and escape scan, separator logic)
 * cost about as much as the analysis itself (measured: 11.2 us of a
 * 27 us set of 50 tasks). 0 when it does not apply (pretty output, or a
 * time written as a "<n>ns" string): task_object's generic path then. */
static int task_compact(rtp_json_writer *w, const rtp_analysis_task *t)
{
    if (w->pretty || t->has_locks || !bare(t->wcet_ns) || !bare(t->deadline_ns) || !bare(t->period_ns) ||
        !bare(t->jitter_ns) || !bare(t->blocking_ns) ||
        (t->has_wcet_max && t->wcet_max_ns >= 0 && !bare(t->wcet_max_ns)) || t->has_tardiness)
        return 0;
    const char *name = t->name ? t->name : "";
    size_t n = strlen(name);
    /* the braces, the name and nine members of at most 37 bytes (key and digits) */
    char *p = rtp_jw_raw_begin(w, NULL, 2 + 6 * n + 10 + 9 * 40);
    if (!p)
        return 1; /* the failure is sticky: rtp_jw_end reports it */
    p = PUT(p, "{\"name\":");
    p = rtp_jw_put_quoted(p, name, n);
    p = rtp_jw_put_int(PUT(p, ",\"wcet\":"), t->wcet_ns);
    p = rtp_jw_put_int(PUT(p, ",\"deadline\":"), t->deadline_ns);
    p = rtp_jw_put_int(PUT(p, ",\"period\":"), t->period_ns);
    if (t->jitter_ns)
        p = rtp_jw_put_int(PUT(p, ",\"jitter\":"), t->jitter_ns);
    if (t->blocking_ns)
        p = rtp_jw_put_int(PUT(p, ",\"blocking\":"), t->blocking_ns);
    if (t->has_priority)
        p = rtp_jw_put_int(PUT(p, ",\"priority\":"), t->priority);
    if (t->has_response)
        p = t->response_time_ns < 0
                ? PUT(p, ",\"response_time\":null")
                : rtp_jw_put_int(PUT(p, ",\"response_time\":"), t->response_time_ns);
    if (t->has_meets_deadline)
        p = t->meets_deadline ? PUT(p, ",\"meets_deadline\":true")
                              : PUT(p, ",\"meets_deadline\":false");
    if (t->has_wcet_max)
        p = t->wcet_max_ns < 0 ? PUT(p, ",\"wcet_max\":null")
                               : rtp_jw_put_int(PUT(p, ",\"wcet_max\":"), t->wcet_max_ns);
    *p++ = '}';
    rtp_jw_raw_end(w, p);
    return 1;
}

static void task_object(rtp_json_writer *w, const rtp_analysis_task *t)
{
    if (task_compact(w, t))
        return;
    rtp_jw_open(w, NULL, 1);
    rtp_jw_string(w, "name", t->name ? t->name : "");
    rtp_jw_time(w, "wcet", t->wcet_ns);
    rtp_jw_time(w, "deadline", t->deadline_ns);
    rtp_jw_time(w, "period", t->period_ns);
    if (t->jitter_ns)
        rtp_jw_time(w, "jitter", t->jitter_ns);
    if (t->blocking_ns)
        rtp_jw_time(w, "blocking", t->blocking_ns);
    if (t->has_priority)
        rtp_jw_int(w, "priority", t->priority);
    if (t->has_response) {
        if (t->response_time_ns < 0)
            rtp_jw_null(w, "response_time");
        else
            rtp_jw_int(w, "response_time", t->response_time_ns);
    }
    if (t->has_meets_deadline)
        rtp_jw_bool(w, "meets_deadline", t->meets_deadline);
    if (t->has_locks) {
        rtp_jw_time(w, "computed_blocking", t->computed_blocking_ns);
        rtp_jw_time(w, "spin", t->spin_ns);
        if (t->blocking_resource)
            rtp_jw_string(w, "blocking_resource", t->blocking_resource);
        else
            rtp_jw_null(w, "blocking_resource");
        if (t->has_suspension)
            rtp_jw_time(w, "suspension", t->suspension_ns);
    }
    if (t->has_wcet_max) {
        if (t->wcet_max_ns < 0)
            rtp_jw_null(w, "wcet_max");
        else
            rtp_jw_time(w, "wcet_max", t->wcet_max_ns);
    }
    if (t->has_tardiness) {
        rtp_jw_int(w, "tardiness_bound", t->tardiness_ns);
        rtp_jw_string(w, "tardiness_bound_by", t->tardiness_by);
        if (t->tardiness_da_ns >= 0)
            rtp_jw_int(w, "tardiness_bound_da", t->tardiness_da_ns);
        if (t->tardiness_cv_ns >= 0)
            rtp_jw_int(w, "tardiness_bound_cv", t->tardiness_cv_ns);
    }
    rtp_jw_close(w);
}

/* Written as it goes (rtp_json_writer), in the layout cJSON printed it: a
 * batch line costs no tree and no allocation per value. */
rtp_status rtp_analysis_doc_write(rtp_text *out, const rtp_analysis_doc *doc, int pretty)
{
    rtp_json_writer w;
    rtp_jw_init(&w, out, pretty);
    rtp_jw_open(&w, NULL, 1);
    if (doc->line > 0)
        rtp_jw_int(&w, "line", doc->line);
    rtp_jw_string(&w, "policy", rtp_policy_name(doc->policy));
    if (doc->has_priority_rule)
        rtp_jw_string(&w, "priority", rtp_prio_rule_name(doc->priority_rule));
    if (doc->cpus > 0)
        rtp_jw_int(&w, "cpus", doc->cpus);
    rtp_jw_bool(&w, "schedulable", doc->schedulable);
    if (doc->has_assignment_found)
        rtp_jw_bool(&w, "assignment_found", doc->assignment_found);
    if (doc->has_test) {
        if (doc->test)
            rtp_jw_string(&w, "test", doc->test);
        else
            rtp_jw_null(&w, "test");
    }
    if (doc->not_applicable)
        rtp_jw_string(&w, "not_applicable", doc->not_applicable);
    rtp_jw_display(&w, "utilization", doc->utilization);
    if (doc->has_effective_utilization)
        rtp_jw_display(&w, "effective_utilization", doc->effective_utilization);
    if (doc->has_first_miss)
        rtp_jw_int(&w, "first_miss", doc->first_miss_ns);
    rtp_jw_scaling(&w, doc->scaling.present, doc->scaling.decimal, doc->scaling.exact);
    rtp_jw_open(&w, "tasks", 0);
    for (size_t i = 0; i < doc->n_tasks; i++)
        task_object(&w, &doc->tasks[i]);
    rtp_jw_close(&w);
    rtp_jw_close(&w);
    return rtp_jw_end(&w);
}

char *rtp_analysis_doc_to_json(const rtp_analysis_doc *doc, int pretty)
{
    rtp_text t;
    rtp_text_init(&t);
    rtp_analysis_doc_write(&t, doc, pretty);
    return rtp_text_take(&t);
}

rtp_status rtp_analysis_error_write(rtp_text *out, long line, const char *message)
{
    rtp_json_writer w;
    rtp_jw_init(&w, out, 0);
    rtp_jw_open(&w, NULL, 1);
    rtp_jw_int(&w, "line", line);
    rtp_jw_string(&w, "error", message ? message : "");
    rtp_jw_close(&w);
    return rtp_jw_end(&w);
}
