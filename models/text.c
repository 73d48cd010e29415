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
