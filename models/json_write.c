/* models/json_write.c — see json_write.h. */
#include "models/json_write.h"

#include <stdio.h>
#include <string.h>

/* Decimal digits of v into buf (at least 21 bytes), NUL-terminated; the
 * length. The length first (from the bit length, then one comparison), then
 * the digits in place from the end, two per division: a batch line prints
 * ~150 integers, and building them in a scratch to copy made the copy wait
 * on the narrow stores. */
size_t rtp_json_format_int(char *buf, int64_t v)
{
    static const char pairs[] = "00010203040506070809101112131415161718192021222324"
                                "25262728293031323334353637383940414243444546474849"
                                "50515253545556575859606162636465666768697071727374"
                                "75767778798081828384858687888990919293949596979899";
    static const uint64_t pow10[20] = {
        1u, 10u, 100u, 1000u, 10000u, 100000u, 1000000u, 10000000u, 100000000u,
        1000000000u, 10000000000u, 100000000000u, 1000000000000u, 10000000000000u,
        100000000000000u, 1000000000000000u, 10000000000000000u, 100000000000000000u,
        1000000000000000000u, 10000000000000000000u};
    uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    int t = ((64 - __builtin_clzll(u | 1)) * 1233) >> 12; /* floor or ceil of log10 */
    size_t len = (size_t)(t + (u >= pow10[t])) + (u == 0) + (v < 0);
    char *q = buf + len;
    *q = '\0';
    while (u >= 100) {
        q -= 2;
        memcpy(q, pairs + 2 * (u % 100), 2);
        u /= 100;
    }
    if (u >= 10)
        memcpy(q - 2, pairs + 2 * u, 2);
    else
        q[-1] = (char)('0' + u);
    if (v < 0)
        buf[0] = '-';
    return len;
}

/* A display double: 10 significant digits, ".0" added to whole values. */
void rtp_json_format_display(char *text, size_t size, double value)
{
    snprintf(text, size, "%.10g", value);
    if (!strchr(text, '.') && !strchr(text, 'e') && !strchr(text, 'n') && !strchr(text, 'i'))
        strcat(text, ".0");
}


/* ---- the streaming writer ---- */

void rtp_jw_init(rtp_json_writer *w, rtp_text *out, int pretty)
{
    memset(w, 0, sizeof *w);
    w->out = out;
    w->pretty = pretty;
}

static char *put_tabs(char *p, int n)
{
    size_t k = (size_t)(n < 16 ? n : 16);
    memset(p, '\t', k);
    return p + k;
}

/* s[0..n) with cJSON's escapes (quote, backslash, \b \f \n \r \t, other
 * bytes below 32 as \u00xx, everything else as it is) at p, which has room
 * for 6 n bytes; the end. */
static char *put_escaped(char *p, const char *s, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 32 && c != '"' && c != '\\') {
            *p++ = (char)c;
            continue;
        }
        *p++ = '\\';
        switch (c) {
        case '"': *p++ = '"'; break;
        case '\\': *p++ = '\\'; break;
        case '\b': *p++ = 'b'; break;
        case '\f': *p++ = 'f'; break;
        case '\n': *p++ = 'n'; break;
        case '\r': *p++ = 'r'; break;
        case '\t': *p++ = 't'; break;
        default:
            memcpy(p, "u00", 3);
            p[3] = hex[c >> 4];
            p[4] = hex[c & 15];
            p += 5;
        }
    }
    return p;
}

/* s[0..n) quoted at p (room for 2 + 6 n bytes); the end. Names and keys
 * seldom need an escape: their plain bytes are copied as they are checked,
 * and the escaping loop runs only from the first byte that needs one. */
static inline char *put_quoted(char *p, const char *s, size_t n)
{
    size_t i = 0;
    *p++ = '"';
    for (; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c < 32 || c == '"' || c == '\\')
            break;
        p[i] = (char)c;
    }
    p += i;
    if (i < n)
        p = put_escaped(p, s + i, n - i);
    *p++ = '"';
    return p;
}

/* Starts a value: room for what comes before it (the separator, and in an
 * object the indented quoted key) and `extra` bytes of value, one
 * reservation per value; where the value goes, NULL once an allocation
 * failed. */
static char *begin(rtp_json_writer *w, const char *key, size_t extra)
{
    int d = w->depth - 1;
    int keyed = d >= 0 && w->object[d];
    size_t klen = keyed && key ? strlen(key) : 0;
    size_t need = 2 + 16 + (2 + 6 * klen) + 2 + extra;
    rtp_text *t = w->out;
    char *p = t->len + need < t->cap ? t->data + t->len : rtp_text_room(t, need);
    if (!p || d < 0)
        return p;
    if (w->members[d]) {
        *p++ = ',';
        if (w->pretty)
            *p++ = w->object[d] ? '\n' : ' ';
    }
    w->members[d] = 1;
    if (!keyed)
        return p;
    if (w->pretty)
        p = put_tabs(p, w->depth);
    p = put_quoted(p, key ? key : "", klen);
    *p++ = ':';
    if (w->pretty)
        *p++ = '\t';
    return p;
}

/* Ends what begin started at the end p. */
static void end(rtp_json_writer *w, char *p)
{
    w->out->len = (size_t)(p - w->out->data);
    *p = '\0';
}

void rtp_jw_open(rtp_json_writer *w, const char *key, int object)
{
    char *p = begin(w, key, 2);
    if (p) {
        *p++ = object ? '{' : '[';
        if (object && w->pretty)
            *p++ = '\n';
        end(w, p);
    }
    if (w->depth < RTP_JW_DEPTH) {
        w->members[w->depth] = 0;
        w->object[w->depth] = (unsigned char)(object != 0);
    }
    w->depth++;
}

void rtp_jw_close(rtp_json_writer *w)
{
    int d = --w->depth;
    char *p = rtp_text_room(w->out, 2 + 16);
    if (!p)
        return;
    if (!w->object[d]) {
        *p++ = ']';
    } else {
        if (w->pretty) {
            if (w->members[d])
                *p++ = '\n';
            p = put_tabs(p, d);
        }
        *p++ = '}';
    }
    end(w, p);
}

void rtp_jw_string(rtp_json_writer *w, const char *key, const char *value)
{
    if (!value)
        value = "";
    size_t n = strlen(value);
    char *p = begin(w, key, 2 + 6 * n);
    if (p)
        end(w, put_quoted(p, value, n));
}

/* Room for the 21 bytes format_int may write. */
#define INT_ROOM 21

void rtp_jw_int(rtp_json_writer *w, const char *key, int64_t value)
{
    char *p = begin(w, key, INT_ROOM);
    if (p)
        end(w, p + rtp_json_format_int(p, value));
}

void rtp_jw_time(rtp_json_writer *w, const char *key, rtp_ns value)
{
    if (value < RTP_JSON_INT_LIMIT && value > -RTP_JSON_INT_LIMIT) {
        rtp_jw_int(w, key, value);
        return;
    }
    char text[40];
    size_t n = rtp_json_format_int(text, value);
    memcpy(text + n, "ns", 3);
    rtp_jw_string(w, key, text);
}

/* A literal value (digits, true, false, null) of n bytes. */
static void literal(rtp_json_writer *w, const char *key, const char *text, size_t n)
{
    char *p = begin(w, key, n);
    if (p) {
        memcpy(p, text, n);
        end(w, p + n);
    }
}

void rtp_jw_display(rtp_json_writer *w, const char *key, double value)
{
    char text[40];
    rtp_json_format_display(text, sizeof text, value);
    literal(w, key, text, strlen(text));
}

void rtp_jw_bool(rtp_json_writer *w, const char *key, int value)
{
    if (value)
        literal(w, key, "true", 4);
    else
        literal(w, key, "false", 5);
}

void rtp_jw_null(rtp_json_writer *w, const char *key)
{
    literal(w, key, "null", 4);
}

void rtp_jw_time_or_null(rtp_json_writer *w, const char *key, rtp_ns value)
{
    if (value < 0)
        rtp_jw_null(w, key);
    else
        rtp_jw_time(w, key, value);
}

void rtp_jw_number(rtp_json_writer *w, const char *key, const char *text)
{
    literal(w, key, text, strlen(text));
}

char *rtp_jw_raw_begin(rtp_json_writer *w, const char *key, size_t room)
{
    return begin(w, key, room);
}

void rtp_jw_raw_end(rtp_json_writer *w, char *p)
{
    end(w, p);
}

char *rtp_jw_put_quoted(char *p, const char *s, size_t n)
{
    return put_quoted(p, s, n);
}

char *rtp_jw_put_int(char *p, int64_t v)
{
    return p + rtp_json_format_int(p, v);
}

rtp_status rtp_jw_end(rtp_json_writer *w)
{
    rtp_text_appendn(w->out, "\n", 1);
    return rtp_text_status(w->out);
}

char *rtp_jw_take(rtp_json_writer *w)
{
    rtp_jw_end(w);
    return rtp_text_take(w->out);
}

void rtp_jw_int_array(rtp_json_writer *w, const char *key, const int *values, size_t n)
{
    rtp_jw_open(w, key, 0);
    for (size_t i = 0; i < n; i++)
        rtp_jw_int(w, NULL, values[i]);
    rtp_jw_close(w);
}

void rtp_jw_scaling(rtp_json_writer *w, int present, const char *decimal, const char *exact)
{
    if (!present)
        return;
    if (exact) {
        rtp_jw_string(w, "critical_scaling_factor", decimal);
        rtp_jw_string(w, "critical_scaling_factor_exact", exact);
    } else {
        rtp_jw_null(w, "critical_scaling_factor");
        rtp_jw_null(w, "critical_scaling_factor_exact");
    }
}
