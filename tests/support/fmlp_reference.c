/* tests/support/fmlp_reference.c — see fmlp_reference.h. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "support/fmlp_reference.h"

#include <string.h>

void fmlp_ref_clear(fmlp_ref *s)
{
    s->njobs = 0;
    s->order = 0;
    for (int r = 0; r < FMLP_REF_MAXR; r++) {
        s->owner[r] = -1;
        s->qlen[r] = 0;
    }
}

fmlp_ref_job *fmlp_ref_job_new(fmlp_ref *s, size_t i, int arrival, int release)
{
    fmlp_ref_job *j = &s->jobs[s->njobs++];
    memset(j, 0, sizeof *j);
    j->task = (int)i;
    j->arrival = arrival;
    j->release = release;
    j->waiting = j->holding = -1;
    return j;
}

void fmlp_ref_job_ready(fmlp_ref_job *j)
{
    if (j->nseg == 0)
        j->done = 1, j->release = -1; /* nothing to run: responds at its release */
    else
        j->left = j->segs[0].len;
}

/* Is job a's current holding boosted (FMLP+), and its urgency otherwise:
 * its priority, or above its resource's ceiling while it holds a PCP
 * resource (ahead of a job whose own priority equals the ceiling). */
static int boosted(const fmlp_ref *s, const fmlp_ref_job *a)
{
    return (a->holding >= 0 && s->ceil[a->holding] < 0) || a->after_left > 0;
}

static int urgency(const fmlp_ref *s, const fmlp_ref_job *a)
{
    int u = 2 * s->prio[a->task];
    if (a->holding >= 0 && s->ceil[a->holding] >= 0 && 2 * s->ceil[a->holding] + 1 > u)
        u = 2 * s->ceil[a->holding] + 1;
    return u;
}

/* The oldest unfinished job of task i, -1 none. */
static int head_of(fmlp_ref *s, size_t i)
{
    while (s->head[i] < s->last[i] && s->jobs[s->head[i]].done)
        s->head[i]++;
    return s->head[i] < s->last[i] ? s->head[i] : -1;
}

/* What CPU c runs at time t: a boosted holder (the earliest request first),
 * else the most urgent ready job; a job reaching a section requests it
 * first (zero time), and suspends when it is held. -1 = idle. */
static int pick(fmlp_ref *s, size_t c, int t)
{
    for (;;) {
        int best = -1;
        for (size_t i = 0; i < s->n; i++) {
            if (s->cpu[i] != c)
                continue;
            int k = head_of(s, i);
            if (k < 0 || s->jobs[k].release > t ||
                (s->jobs[k].waiting >= 0 && s->jobs[k].out_left == 0) ||
                (s->jobs[k].holding >= 0 && s->jobs[k].wake_at > t))
                continue; /* asleep, or not yet woken */
            const fmlp_ref_job *a = &s->jobs[k];
            if (best < 0) {
                best = k;
                continue;
            }
            const fmlp_ref_job *b = &s->jobs[best];
            int ab = boosted(s, a), bb = boosted(s, b);
            if (ab != bb ? ab
                         : ab ? (a->req_time != b->req_time ? a->req_time < b->req_time
                                                            : a->req_order < b->req_order)
                              : urgency(s, a) > urgency(s, b))
                best = k;
        }
        if (best < 0)
            return -1;
        fmlp_ref_job *j = &s->jobs[best];
        const fmlp_ref_seg *g = &j->segs[j->at];
        if (g->res < 0 || j->requested || j->after_left > 0)
            return best;
        j->requested = 1;
        j->req_time = t;
        j->req_order = s->order++;
        if (s->ceil[g->res] >= 0 && s->owner[g->res] >= 0)
            fail_msg("a ceiling resource found held: the simulation broke ICPP");
        if (s->owner[g->res] < 0 && s->qlen[g->res] == 0) {
            s->owner[g->res] = best;
            j->holding = g->res;
            return best;
        }
        s->queue[g->res][s->qlen[g->res]++] = best;
        j->waiting = g->res; /* suspended (after switching away): pick again */
        j->out_left = s->sw;
        s->suspensions++;
        if (j->out_left > 0)
            return best;
    }
}

/* One unit of job k ending at t + 1; a finished section hands its resource
 * to the head of the queue. */
static void step(fmlp_ref *s, int k, int t, int *finish)
{
    fmlp_ref_job *j = &s->jobs[k];
    if (j->waiting >= 0 && j->out_left > 0) {
        j->out_left--; /* switching away; asleep when done */
        return;
    }
    if (j->holding >= 0 && j->in_left > 0) {
        j->in_left--;
        return;
    }
    if (j->after_left > 0) {
        if (--j->after_left == 0 && j->at == j->nseg) {
            j->done = 1;
            finish[k] = t + 1;
        }
        return;
    }
    if (--j->left > 0)
        return;
    const fmlp_ref_seg *g = &j->segs[j->at];
    if (g->res >= 0) {
        int r = g->res;
        s->owner[r] = -1;
        j->holding = -1;
        if (s->qlen[r] > 0) {
            int w = s->queue[r][0];
            fmlp_ref_job *n = &s->jobs[w];
            memmove(s->queue[r], s->queue[r] + 1, (size_t)(--s->qlen[r]) * sizeof(int));
            s->owner[r] = w;
            n->waiting = -1;
            n->holding = r;
            /* still switching away: it never slept, nothing to wake */
            n->resumed = n->out_left == 0;
            n->wake_at = n->resumed ? t + 1 + s->wake : t + 1;
            n->in_left = n->resumed ? s->sw : 0;
            n->out_left = 0;
        }
        j->after_left = j->resumed ? s->sw : 0;
        j->resumed = 0;
    }
    j->requested = 0;
    if (++j->at == j->nseg && j->after_left == 0) {
        j->done = 1;
        finish[k] = t + 1;
    } else if (j->at < j->nseg) {
        j->left = j->segs[j->at].len;
    }
}

void fmlp_ref_run(fmlp_ref *s, int end, int *finish)
{
    for (int k = 0; k < s->njobs; k++)
        finish[k] = s->jobs[k].done ? s->jobs[k].arrival : -1;
    for (int t = 0; t < end; t++) {
        int run[FMLP_REF_MAXT], busy = 0;
        for (size_t c = 0; c < s->cpus; c++)
            busy |= (run[c] = pick(s, c, t)) >= 0;
        for (size_t c = 0; c < s->cpus; c++)
            if (run[c] >= 0)
                step(s, run[c], t, finish);
        int left = 0;
        for (size_t i = 0; i < s->n && !left; i++)
            left = head_of(s, i) >= 0;
        if (!left && !busy)
            break;
    }
}

void fmlp_ref_random_set(fmlp_ref_set *d, rtp_rng *rng, int with_pcp)
{
    static const int periods[] = {6, 8, 10, 12, 15, 20, 24, 30};
    memset(d, 0, sizeof *d);
    d->cpus = (size_t)rtp_rng_range(rng, 1, 3);
    d->n = (size_t)rtp_rng_range(rng, 2, FMLP_REF_MAXT);
    int nres = (int)rtp_rng_range(rng, 1, FMLP_REF_MAXR);
    for (size_t i = 0; i < d->n; i++) {
        rtp_task *t = &d->t[i];
        t->period_ns = periods[rtp_rng_range(rng, 0, 7)];
        t->wcet_ns = rtp_rng_range(rng, 1, t->period_ns / 3 > 1 ? t->period_ns / 3 : 1);
        t->deadline_ns = rtp_rng_range(rng, t->wcet_ns, t->period_ns);
        if (rtp_rng_range(rng, 0, 4) == 0)
            t->jitter_ns = rtp_rng_range(rng, 1, 3);
        t->requests = d->rq[i];
        d->cpu[i] = (size_t)rtp_rng_range(rng, 0, (int64_t)d->cpus - 1);
        rtp_ns room = t->wcet_ns;
        for (int r = 0; r < nres && room > 0; r++) {
            if (rtp_rng_range(rng, 0, 2) == 0)
                continue;
            rtp_request *q = &d->rq[i][t->n_requests++];
            q->resource = (size_t)r;
            q->susp = 1;
            q->count = rtp_rng_range(rng, 1, room >= 2 ? 2 : 1);
            q->length_ns = rtp_rng_range(rng, 1, room / q->count);
            room -= q->count * q->length_ns;
        }
    }
    if (!with_pcp || nres < 2)
        return;
    int home = -1;
    for (size_t i = 0; i < d->n; i++)
        for (size_t k = 0; k < d->t[i].n_requests; k++)
            if (d->rq[i][k].resource == (size_t)nres - 1) {
                d->rq[i][k].susp = 0;
                if (home < 0)
                    home = (int)d->cpu[i];
                d->cpu[i] = (size_t)home;
            }
}
