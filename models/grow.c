/* models/grow.c — see grow.h. */
#include "models/grow.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define GROW_MIN 16

int rtp_grow(void *array, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return 0;
    size_t want = *cap ? *cap : GROW_MIN;
    while (want < need)
        want = want <= SIZE_MAX / 2 ? 2 * want : need;
    if (size != 0 && want > SIZE_MAX / size)
        return -1;
    void *old, *grown;
    memcpy(&old, array, sizeof old); /* array is a T **: read it as a pointer */
    grown = realloc(old, want * size);
    if (!grown)
        return -1;
    memcpy(array, &grown, sizeof grown);
    *cap = want;
    return 0;
}
