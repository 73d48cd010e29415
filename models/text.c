/* models/text.c — see text.h. */
#include "models/text.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void rtp_text_init(rtp_text *t)
{
    memset(t, 0, sizeof *t);
}

void rtp_text_free(rtp_text *t)
{
    free(t->data);
    rtp_text_init(t);
}

static int reserve(rtp_text *t, size_t extra)
{
    if (t->failed)
        return -1;
    if (t->len + extra + 1 <= t->cap)
        return 0;
    size_t cap = t->cap ? t->cap : 256;
    while (cap < t->len + extra + 1)
        cap *= 2;
    char *bigger = realloc(t->data, cap);
    if (!bigger) {
        t->failed = 1;
        return -1;
    }
    t->data = bigger;
    t->cap = cap;
    return 0;
}

char *rtp_text_room(rtp_text *t, size_t n)
{
    return reserve(t, n) == 0 ? t->data + t->len : NULL;
}

void rtp_text_appendn(rtp_text *t, const char *s, size_t n)
{
    if (reserve(t, n) != 0)
        return;
    memcpy(t->data + t->len, s, n);
    t->len += n;
    t->data[t->len] = '\0';
}

void rtp_text_append(rtp_text *t, const char *s)
{
    rtp_text_appendn(t, s, strlen(s));
}

void rtp_text_printf(rtp_text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0) {
        t->failed = 1;
        return;
    }
    if (reserve(t, (size_t)n) != 0)
        return;
    va_start(ap, fmt);
    vsnprintf(t->data + t->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    t->len += (size_t)n;
}

rtp_status rtp_text_status(const rtp_text *t)
{
    return t->failed ? RTP_ENOMEM : RTP_OK;
}

char *rtp_text_take(rtp_text *t)
{
    char *out = t->failed ? NULL : (t->data ? t->data : strdup(""));
    if (t->failed)
        free(t->data);
    rtp_text_init(t);
    return out;
}

/* Format characters that reorder, hide or break the text around them on a
 * terminal (Unicode general categories Cf, Zl, Zp, the ones in use): a name
 * holding U+202E prints its tail backwards, U+2028 starts a new line,
 * U+200B makes "video" and "vi\u200bdeo" look the same. NULL for any other
 * code point. */
static const char *invisible(unsigned code)
{
    static const struct {
        unsigned lo, hi;
        const char *kind;
    } ranges[] = {
        {0x00ad, 0x00ad, "soft hyphen"},
        {0x061c, 0x061c, "bidirectional mark"},
        {0x180e, 0x180e, "invisible separator"},
        {0x200b, 0x200d, "zero-width character"},
        {0x200e, 0x200f, "bidirectional mark"},
        {0x2028, 0x2029, "line or paragraph separator"},
        {0x202a, 0x202e, "bidirectional override"},
        {0x2060, 0x2064, "invisible operator"},
        {0x2066, 0x2069, "bidirectional isolate"},
        {0x206a, 0x206f, "deprecated format character"},
        {0xfeff, 0xfeff, "zero-width no-break space"},
        {0xfff9, 0xfffb, "interlinear annotation"},
        {0xe0000, 0xe007f, "tag character"},
    };
    for (size_t i = 0; i < sizeof ranges / sizeof ranges[0]; i++)
        if (code >= ranges[i].lo && code <= ranges[i].hi)
            return ranges[i].kind;
    return NULL;
}

int rtp_text_check_plain(const char *s, char *why, size_t why_size)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        unsigned c = *p;
        size_t extra;
        unsigned code;
        if (c < 0x20 || c == 0x7f) {
            snprintf(why, why_size, "contains a control character (byte 0x%02x)", c);
            return -1;
        }
        if (c < 0x80) {
            p++;
            continue;
        }
        if (c >= 0xc2 && c <= 0xdf) {
            extra = 1;
            code = c & 0x1f;
        } else if (c >= 0xe0 && c <= 0xef) {
            extra = 2;
            code = c & 0x0f;
        } else if (c >= 0xf0 && c <= 0xf4) {
            extra = 3;
            code = c & 0x07;
        } else {
            snprintf(why, why_size, "is not valid UTF-8 (byte 0x%02x)", c);
            return -1;
        }
        for (size_t k = 1; k <= extra; k++) {
            if ((p[k] & 0xc0) != 0x80) {
                snprintf(why, why_size, "is not valid UTF-8 (truncated sequence)");
                return -1;
            }
            code = (code << 6) | (p[k] & 0x3f);
        }
        /* Overlong forms, surrogates, past U+10FFFF, and C1 controls. */
        if ((extra == 2 && code < 0x800) || (extra == 3 && code < 0x10000) ||
            (code >= 0xd800 && code <= 0xdfff) || code > 0x10ffff) {
            snprintf(why, why_size, "is not valid UTF-8 (bad sequence)");
            return -1;
        }
        if (code >= 0x80 && code <= 0x9f) {
            snprintf(why, why_size, "contains a control character (U+%04X)", code);
            return -1;
        }
        const char *kind = invisible(code);
        if (kind) {
            snprintf(why, why_size, "contains U+%04X (%s), which a terminal does not show as "
                     "itself", code, kind);
            return -1;
        }
        p += extra + 1;
    }
    return 0;
}

void rtp_text_append_xml(rtp_text *t, const char *s)
{
    for (const char *p = s; *p; p++) {
        switch (*p) {
        case '&': rtp_text_append(t, "&amp;"); break;
        case '<': rtp_text_append(t, "&lt;"); break;
        case '>': rtp_text_append(t, "&gt;"); break;
        case '"': rtp_text_append(t, "&quot;"); break;
        case '\'': rtp_text_append(t, "&apos;"); break;
        default: rtp_text_appendn(t, p, 1);
        }
    }
}
