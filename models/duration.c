/* models/duration.c — exact time strings. The decimal "<int>.<frac><unit>"
 * is read as (int * 10^k + frac) * unit / 10^k with k = digits of frac after
 * trailing zeros are dropped; it is a whole number of ns exactly when 10^k
 * divides frac * unit, which we check in 128-bit integers (no rounding). */
#include "models/duration.h"

#include <stdio.h>
#include <string.h>

static const struct {
    const char *name;
    rtp_ns ns;
} units[] = {{"ns", 1},           {"us", 1000},           {"ms", 1000000},
             {"s", 1000000000},    {"\u00b5s", 1000},      {"\u03bcs", 1000}};
/* Formatting uses the first four; "µs" (micro sign) and "μs" (Greek mu) are
 * read as aliases of "us". */

rtp_ns rtp_duration_unit(const char *name)
{
    for (size_t i = 0; name && i < sizeof units / sizeof units[0]; i++)
        if (strcmp(name, units[i].name) == 0)
            return units[i].ns;
    return 0;
}

static rtp_status fail(char *why, size_t size, const char *reason)
{
    if (why && size)
        snprintf(why, size, "%s", reason);
    return RTP_EINPUT;
}

static int is_digit(char c) { return c >= '0' && c <= '9'; }

rtp_status rtp_duration_parse(const char *text, rtp_ns *out, char *why,
                              size_t why_size)
{
    static const char *shape =
        "not a time: expected <digits>[.<digits>]<unit> with unit ns, us (or µs), ms or s";
    const char *p = text;
    /* Invariant: whole < 2^63 / 10 before each step, so whole * 10 + d fits;
     * anything at or past RTP_NS_LIMIT is rejected at the end anyway. */
    unsigned __int128 whole = 0;
    int int_digits = 0, too_big = 0;
    while (is_digit(*p)) {
        if (!too_big) {
            whole = whole * 10 + (unsigned)(*p - '0');
            if (whole > (unsigned __int128)RTP_NS_LIMIT)
                too_big = 1;
        }
        p++;
        int_digits++;
    }
    if (int_digits == 0)
        return fail(why, why_size, shape);
    const char *frac = NULL;
    size_t frac_len = 0;
    if (*p == '.') {
        frac = ++p;
        while (is_digit(*p))
            p++;
        frac_len = (size_t)(p - frac);
        if (frac_len == 0)
            return fail(why, why_size, shape);
    }
    rtp_ns unit = rtp_duration_unit(p);
    if (unit == 0)
        return fail(why, why_size, shape);
    while (frac_len > 0 && frac[frac_len - 1] == '0')
        frac_len--;
    /* ns resolution: at most 9 significant fractional digits can be whole. */
    if (frac_len > 9)
        return fail(why, why_size, "not a whole number of ns");
    unsigned __int128 frac_value = 0, scale = 1;
    for (size_t i = 0; i < frac_len; i++) {
        frac_value = frac_value * 10 + (unsigned)(frac[i] - '0');
        scale *= 10;
    }
    unsigned __int128 frac_ns = frac_value * (unsigned __int128)unit;
    if (frac_ns % scale != 0)
        return fail(why, why_size, "not a whole number of ns");
    if (too_big)
        return fail(why, why_size, "past the limit of 2^62 ns");
    unsigned __int128 total = whole * (unsigned __int128)unit + frac_ns / scale;
    if (total > (unsigned __int128)RTP_NS_LIMIT)
        return fail(why, why_size, "past the limit of 2^62 ns");
    *out = (rtp_ns)total;
    return RTP_OK;
}

rtp_status rtp_duration_scale(int64_t count, rtp_ns unit_ns, rtp_ns *out)
{
    rtp_ns v;
    if (count < 0 || unit_ns <= 0 || __builtin_mul_overflow(count, unit_ns, &v) ||
        v > RTP_NS_LIMIT)
        return RTP_EINPUT;
    *out = v;
    return RTP_OK;
}

void rtp_duration_format(rtp_ns value, char *buf, size_t size)
{
    if (value < 0) {
        snprintf(buf, size, "-");
        return;
    }
    /* The largest unit whose fraction has at most 6 digits and that keeps the
     * value exact (every ns value is exact in "ns"). */
    for (int i = 3; i >= 1; i--) {
        rtp_ns unit = units[i].ns;
        if (value < unit)
            continue;
        rtp_ns whole = value / unit, rest = value % unit;
        if (rest == 0) {
            snprintf(buf, size, "%lld%s", (long long)whole, units[i].name);
            return;
        }
        int digits = i == 3 ? 9 : i == 2 ? 6 : 3;
        char frac[24];
        snprintf(frac, sizeof frac, "%0*lld", digits, (long long)rest);
        size_t len = strlen(frac);
        while (len > 0 && frac[len - 1] == '0')
            frac[--len] = '\0';
        if (len <= 6) {
            snprintf(buf, size, "%lld.%s%s", (long long)whole, frac, units[i].name);
            return;
        }
    }
    snprintf(buf, size, "%lldns", (long long)value);
}
