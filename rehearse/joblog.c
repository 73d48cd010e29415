/* rehearse/joblog.c — see joblog.h. */
#include "rehearse/joblog.h"

#include <stdlib.h>

void rtp_joblog_init(rtp_joblog *log, rtp_ns origin, rtp_ns period, rtp_ns deadline,
                     int by_start, rtp_ns *buf, size_t cap)
{
    *log = (rtp_joblog){.origin_ns = origin, .period_ns = period, .deadline_ns = deadline,
                        .by_start = by_start, .count_until = INT64_MAX, .responses = buf,
                        .cap = cap};
}

/* How many of the slots [a, b) lie in the counted window. */
static uint64_t counted(const rtp_joblog *log, int64_t a, int64_t b)
{
    a = a > log->count_from ? a : log->count_from;
    b = b < log->count_until ? b : log->count_until;
    return b > a ? (uint64_t)(b - a) : 0;
}

void rtp_joblog_add(rtp_joblog *log, rtp_ns start, rtp_ns end)
{
    int64_t slot = log->next_slot;
    if (log->by_start) {
        int64_t at = (start - log->origin_ns) / log->period_ns;
        if (at > slot) {
            log->skipped += counted(log, slot, at);
            log->misses += counted(log, slot, at);
            slot = at;
        }
    }
    rtp_ns response = end - (log->origin_ns + slot * log->period_ns);
    log->next_slot = slot + 1;
    if (!counted(log, slot, slot + 1))
        return;
    log->jobs++;
    if (response > log->deadline_ns)
        log->misses++;
    if (response > log->response_max_ns)
        log->response_max_ns = response;
    if (log->n < log->cap)
        log->responses[log->n++] = response;
}

rtp_ns rtp_joblog_next_arrival(const rtp_joblog *log)
{
    return log->origin_ns + log->next_slot * log->period_ns;
}

static int ns_cmp(const void *a, const void *b)
{
    rtp_ns x = *(const rtp_ns *)a, y = *(const rtp_ns *)b;
    return (x > y) - (x < y);
}

rtp_ns rtp_joblog_percentile(rtp_ns *v, size_t n, int p)
{
    if (n == 0)
        return -1;
    qsort(v, n, sizeof *v, ns_cmp);
    size_t rank = ((size_t)p * n + 99) / 100; /* nearest rank: ceil(p n / 100) */
    return v[rank ? rank - 1 : 0];
}
