/* models/arith.h — checked integer arithmetic on rtp_ns (and gcd/lcm).
 *
 * Every helper returns RTP_OK and writes *out, or returns RTP_ELIMIT on
 * overflow (or a negative operand where one is not allowed) and leaves *out
 * untouched. Built on __builtin_*_overflow and __int128; inline because the
 * exact tests call them in their inner loops. Pure and thread-safe. */
#ifndef RTP_ARITH_H
#define RTP_ARITH_H

#include "models/base.h"

/* 128-bit intermediates of the exact tests (demand, interference, response
 * sums): a product of two valid times (<= 2^62 each) fits in 2^124. */
typedef __int128 rtp_i128;
typedef unsigned __int128 rtp_u128;

/* A sum stops growing here: it has passed every bound it is compared with
 * (deadlines and windows are at most 2^62), and adding one more term of at
 * most 2^124 to a value below it cannot overflow 2^127. */
#define RTP_I128_SATURATED ((rtp_i128)1 << 100)

static inline rtp_status rtp_add(rtp_ns a, rtp_ns b, rtp_ns *out)
{
    rtp_ns r;
    if (__builtin_add_overflow(a, b, &r))
        return RTP_ELIMIT;
    *out = r;
    return RTP_OK;
}

static inline rtp_status rtp_sub(rtp_ns a, rtp_ns b, rtp_ns *out)
{
    rtp_ns r;
    if (__builtin_sub_overflow(a, b, &r))
        return RTP_ELIMIT;
    *out = r;
    return RTP_OK;
}

static inline rtp_status rtp_mul(rtp_ns a, rtp_ns b, rtp_ns *out)
{
    rtp_ns r;
    if (__builtin_mul_overflow(a, b, &r))
        return RTP_ELIMIT;
    *out = r;
    return RTP_OK;
}

/* ceil(a / b) for a >= 0, b > 0. */
static inline rtp_status rtp_div_ceil(rtp_ns a, rtp_ns b, rtp_ns *out)
{
    if (a < 0 || b <= 0)
        return RTP_ELIMIT;
    *out = a / b + (a % b != 0);
    return RTP_OK;
}

/* floor(a / b) for b > 0 (a may be negative: rounds toward minus infinity). */
static inline rtp_status rtp_div_floor(rtp_ns a, rtp_ns b, rtp_ns *out)
{
    if (b <= 0)
        return RTP_ELIMIT;
    rtp_ns q = a / b;
    if ((a % b != 0) && (a < 0))
        q -= 1;
    *out = q;
    return RTP_OK;
}

/* a * b / c rounded down, with a 128-bit intermediate (a, b >= 0, c > 0). */
static inline rtp_status rtp_muldiv_floor(rtp_ns a, rtp_ns b, rtp_ns c, rtp_ns *out)
{
    if (a < 0 || b < 0 || c <= 0)
        return RTP_ELIMIT;
    unsigned __int128 q = ((unsigned __int128)a * (unsigned __int128)b) / (unsigned __int128)c;
    if (q > (unsigned __int128)INT64_MAX)
        return RTP_ELIMIT;
    *out = (rtp_ns)q;
    return RTP_OK;
}

/* Greatest common divisor of two non-negative values (gcd(0, 0) = 0). */
static inline rtp_ns rtp_gcd(rtp_ns a, rtp_ns b)
{
    while (b != 0) {
        rtp_ns r = a % b;
        a = b;
        b = r;
    }
    return a;
}

/* Least common multiple of two positive values, overflow-checked. */
static inline rtp_status rtp_lcm(rtp_ns a, rtp_ns b, rtp_ns *out)
{
    if (a <= 0 || b <= 0)
        return RTP_ELIMIT;
    return rtp_mul(a / rtp_gcd(a, b), b, out);
}

#endif
