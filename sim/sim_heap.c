/* sim/sim_heap.c — the simulator's binary heaps of job indices (the jobs
 * not yet released, by release; the eligible jobs not running, by the
 * policy's rule), ordered by a caller's first(a, b) (sim_internal.h). */
#include "sim/sim_internal.h"

#include "models/grow.h"

rtp_status rtp_sim_heap_push(const rtp_sim *s, rtp_sim_heap *h, rtp_sim_order_fn first,
                             size_t v)
{
    if (RTP_GROW(h->idx, h->cap, h->len + 1) != 0)
        return RTP_ENOMEM;
    size_t i = h->len++;
    while (i > 0 && first(s, v, h->idx[(i - 1) / 2])) {
        h->idx[i] = h->idx[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h->idx[i] = v;
    return RTP_OK;
}

size_t rtp_sim_heap_pop(const rtp_sim *s, rtp_sim_heap *h, rtp_sim_order_fn first)
{
    size_t top = h->idx[0], v = h->idx[--h->len], i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= h->len)
            break;
        if (c + 1 < h->len && first(s, h->idx[c + 1], h->idx[c]))
            c++;
        if (!first(s, h->idx[c], v))
            break;
        h->idx[i] = h->idx[c];
        i = c;
    }
    if (h->len > 0)
        h->idx[i] = v;
    return top;
}

/* Restores the heap order of every element (after keys changed). */
void rtp_sim_heap_fix(const rtp_sim *s, rtp_sim_heap *h, rtp_sim_order_fn first)
{
    for (size_t k = 1; k < h->len; k++) {
        size_t v = h->idx[k], i = k;
        while (i > 0 && first(s, v, h->idx[(i - 1) / 2])) {
            h->idx[i] = h->idx[(i - 1) / 2];
            i = (i - 1) / 2;
        }
        h->idx[i] = v;
    }
}
