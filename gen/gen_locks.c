/* gen/gen_locks.c — the shared resources of a generated set (gen.h): drawn
 * with integers only, from their own stream, after the tasks. */
#include "gen/gen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Uniform in [lo, hi] (hi - lo < 2^62: the modulo bias is below 2^-2). */
static rtp_ns uniform(rtp_rng *rng, rtp_ns lo, rtp_ns hi)
{
    return lo + (rtp_ns)(rtp_rng_next(rng) % (uint64_t)(hi - lo + 1));
}

rtp_status rtp_gen_requests(const rtp_gen_opts *o, uint64_t seed, uint64_t point,
                            uint64_t index, rtp_taskset *ts, rtp_diag *diag)
{
    size_t m = o->n_resources;
    rtp_rng rng = rtp_rng_stream(seed ^ 0x4C4F434B5345ull /* "LOCKSE" */, point, index);
    if (!(ts->resources = calloc(m, sizeof *ts->resources)))
        return rtp_oom(diag);
    for (size_t r = 0; r < m; r++) {
        char name[24];
        snprintf(name, sizeof name, "R%zu", r + 1);
        if (!(ts->resources[r].name = strdup(name)))
            return rtp_oom(diag);
        ts->n_resources = r + 1;
    }
    for (size_t i = 0; i < ts->n_tasks; i++) {
        rtp_task *t = &ts->tasks[i];
        if (!(t->requests = calloc(m, sizeof *t->requests)))
            return rtp_oom(diag);
        rtp_ns room = t->wcet_ns;
        for (size_t r = 0; r < m; r++) {
            /* every draw is made whether used or not: one task's cut does
             * not shift the next task's numbers */
            int uses = rtp_rng_next(&rng) % (uint64_t)o->access.den < (uint64_t)o->access.num;
            rtp_ns count = uniform(&rng, 1, o->max_requests);
            rtp_ns length = uniform(&rng, o->cs_min_ns, o->cs_max_ns);
            if (!uses || room < count)
                continue;
            if (length > room / count)
                length = room / count;
            rtp_request *q = &t->requests[t->n_requests++];
            q->resource = r;
            q->count = count;
            q->length_ns = length;
            room -= count * length;
        }
        if (t->n_requests == 0) {
            free(t->requests);
            t->requests = NULL;
        }
    }
    return RTP_OK;
}
