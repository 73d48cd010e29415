/* gen/rng.h — the counter-based random numbers of the generators.
 *
 * splitmix64 [SLF14]: the state is a 64-bit counter, each
 * draw mixes it with a fixed bijection, so a stream is fully defined by its
 * start value. rtp_rng_stream derives that start from (seed, point, index) by
 * mixing, so every task set is a pure function of those three numbers, on any
 * thread, shard or machine. Doubles come from the top 53 bits (exact), and
 * integer ranges use rejection (no modulo bias). Header-only, pure: the state
 * lives in the caller's rtp_rng. */
#ifndef RTP_RNG_H
#define RTP_RNG_H

#include <stdint.h>
#include "models/api.h"

RTP_API_BEGIN

typedef struct rtp_rng {
    uint64_t state;
} rtp_rng;

static inline uint64_t rtp_rng_mix(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static inline uint64_t rtp_rng_next(rtp_rng *rng)
{
    return rtp_rng_mix(rng->state += 0x9E3779B97F4A7C15ull);
}

/* The stream of task set `index` at sweep point `point` under `seed`. */
static inline rtp_rng rtp_rng_stream(uint64_t seed, uint64_t point, uint64_t index)
{
    uint64_t h = rtp_rng_mix(seed ^ 0x5EEDC0DE5EEDC0DEull);
    h = rtp_rng_mix(h ^ rtp_rng_mix(point + 0x9E3779B97F4A7C15ull));
    h = rtp_rng_mix(h ^ rtp_rng_mix(index + 0x632BE59BD9B4E019ull));
    rtp_rng rng = {h};
    return rng;
}

/* Uniform double in [0, 1), a multiple of 2^-53. */
static inline double rtp_rng_unit(rtp_rng *rng)
{
    return (double)(rtp_rng_next(rng) >> 11) * (1.0 / 9007199254740992.0);
}

/* Uniform integer in [lo, hi] (lo <= hi), unbiased by rejection. */
static inline int64_t rtp_rng_range(rtp_rng *rng, int64_t lo, int64_t hi)
{
    uint64_t span = (uint64_t)hi - (uint64_t)lo; /* hi - lo, no overflow */
    if (span == UINT64_MAX)
        return (int64_t)rtp_rng_next(rng);
    uint64_t n = span + 1, limit = UINT64_MAX - UINT64_MAX % n;
    uint64_t x;
    do
        x = rtp_rng_next(rng);
    while (x >= limit);
    return (int64_t)((uint64_t)lo + x % n);
}

RTP_API_END
#endif
