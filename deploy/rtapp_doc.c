/* deploy/rtapp_doc.c — see rtapp_doc.h. */
#include "deploy/rtapp_doc.h"
#include "models/json_write.h"

#include <stdio.h>

char *rtp_rtapp_doc_to_json(const rtp_rtapp_thread *threads, size_t n,
                            const rtp_rtapp_global *g)
{
    rtp_text out;
    rtp_json_writer w;
    char calibration[24];
    snprintf(calibration, sizeof calibration, "CPU%d", g->calibration_cpu);
    rtp_text_init(&out);
    rtp_jw_init(&w, &out, 1);
    rtp_jw_open(&w, NULL, 1);
    rtp_jw_open(&w, "global", 1);
    rtp_jw_int(&w, "duration", g->duration_s);
    rtp_jw_string(&w, "calibration", calibration);
    rtp_jw_string(&w, "default_policy", "SCHED_OTHER");
    rtp_jw_bool(&w, "lock_pages", 1);
    rtp_jw_string(&w, "logdir", g->logdir);
    rtp_jw_string(&w, "log_basename", g->log_basename);
    rtp_jw_int(&w, "log_size", g->log_size_mb);
    if (g->pi_enabled)
        rtp_jw_bool(&w, "pi_enabled", 1);
    rtp_jw_close(&w);
    rtp_jw_open(&w, "tasks", 1);
    for (size_t i = 0; i < n; i++) {
        const rtp_rtapp_thread *t = &threads[i];
        rtp_jw_open(&w, t->name, 1);
        rtp_jw_string(&w, "policy", t->deadline ? "SCHED_DEADLINE"
                                     : t->rr     ? "SCHED_RR"
                                                 : "SCHED_FIFO");
        rtp_jw_int(&w, "priority", t->priority);
        if (t->deadline) {
            rtp_jw_int(&w, "dl-runtime", t->dl_runtime_us);
            rtp_jw_int(&w, "dl-deadline", t->dl_deadline_us);
            rtp_jw_int(&w, "dl-period", t->dl_period_us);
        }
        if (t->cpus)
            rtp_jw_int_array(&w, "cpus", t->cpus, t->n_cpus);
        for (size_t k = 0; k < t->n_sections; k++) {
            /* rt-app matches an event by its key's prefix: numbered keys
             * keep the object's keys unique */
            char key[32];
            snprintf(key, sizeof key, "lock%zu", k);
            rtp_jw_string(&w, key, t->sections[k].lock);
            snprintf(key, sizeof key, "run%zu", k);
            rtp_jw_int(&w, key, t->sections[k].run_us);
            snprintf(key, sizeof key, "unlock%zu", k);
            rtp_jw_string(&w, key, t->sections[k].lock);
        }
        rtp_jw_int(&w, "run", t->run_us);
        rtp_jw_open(&w, "timer", 1);
        rtp_jw_string(&w, "ref", t->name);
        rtp_jw_int(&w, "period", t->period_us);
        rtp_jw_close(&w);
        rtp_jw_close(&w);
    }
    rtp_jw_close(&w);
    rtp_jw_close(&w);
    return rtp_jw_take(&w);
}
