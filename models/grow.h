/* models/grow.h — the one growable array (git's ALLOC_GROW idea; text has
 * its own twin, models/text.h): RTP_GROW(items, cap, need) makes sure the
 * malloc'd array `items`, `cap` elements long, has room for `need`
 * elements, doubling the capacity (at least 16 elements, at least `need`),
 * so appending n elements costs O(n) copies in all. The byte count is
 * checked for overflow. 0 on success; -1 when out of memory or too large,
 * with `items` and `cap` left as they were (still the caller's to free).
 * Ownership: the array stays the caller's. Thread-safety: pure. */
#ifndef RTP_GROW_H
#define RTP_GROW_H

#include <stddef.h>

/* *(T **)array grown to hold `need` elements of `size` bytes; see above. */
int rtp_grow(void *array, size_t *cap, size_t need, size_t size);

/* Inline when there is room already: the call only when it must grow. */
#define RTP_GROW(items, cap, need) \
    ((need) <= (cap) ? 0 : rtp_grow(&(items), &(cap), (need), sizeof *(items)))

#endif
