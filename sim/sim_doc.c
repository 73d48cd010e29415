/* sim/sim_doc.c — see sim_doc.h. */
#include "sim/sim_doc.h"
#include "models/json_write.h"

char *rtp_sim_doc_to_json(const rtp_sim_doc *d, int pretty)
{
    rtp_text out;
    rtp_json_writer w;
    rtp_text_init(&out);
    rtp_jw_init(&w, &out, pretty);
    rtp_jw_open(&w, NULL, 1);
    rtp_jw_time(&w, "until", d->until_ns);
    rtp_jw_open(&w, "tasks", 0);
    for (size_t k = 0; k < d->n_tasks; k++) {
        const rtp_sim_doc_task *t = &d->tasks[k];
        rtp_jw_open(&w, NULL, 1);
        rtp_jw_string(&w, "name", t->name);
        rtp_jw_int(&w, "cpu", t->cpu);
        if (t->cpus)
            rtp_jw_int_array(&w, "cpus", t->cpus, t->n_cpus);
        rtp_jw_string(&w, "policy", rtp_policy_name(t->policy));
        if (t->policy == RTP_POLICY_FP || t->policy == RTP_POLICY_GFP)
            rtp_jw_int(&w, "priority", t->priority);
        rtp_jw_int(&w, "jobs", (int64_t)t->jobs);
        rtp_jw_int(&w, "misses", (int64_t)t->misses);
        rtp_jw_time_or_null(&w, "first_miss", t->first_miss_ns);
        rtp_jw_time_or_null(&w, "response_max", t->response_max_ns);
        if (t->has_locks) {
            rtp_jw_time(&w, "blocking_max", t->blocking_max_ns);
            rtp_jw_time(&w, "spin_max", t->spin_max_ns);
        }
        rtp_jw_close(&w);
    }
    rtp_jw_close(&w);
    rtp_jw_bool(&w, "schedulable_in_simulation", d->schedulable);
    if (d->not_simulated[0]) {
        rtp_jw_open(&w, "not_simulated", 0);
        for (size_t k = 0; k < 5 && d->not_simulated[k]; k++)
            rtp_jw_string(&w, NULL, d->not_simulated[k]);
        rtp_jw_close(&w);
    }
    rtp_jw_close(&w);
    return rtp_jw_take(&w);
}
