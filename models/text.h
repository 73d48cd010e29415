/* models/text.h — a growable text buffer with printf-style appends and a
 * sticky out-of-memory flag, so writers (deploy scripts, unit files,
 * warnings; bench CSV and SVG output) check once at the end instead of after
 * every line.
 *
 * Ownership: an rtp_text owns its buffer; rtp_text_take hands it to the
 * caller, rtp_text_free releases it. Thread-safety: no globals. */
#ifndef RTP_TEXT_H
#define RTP_TEXT_H

#include <stddef.h>

#include "models/base.h"
#include "models/api.h"

RTP_API_BEGIN

typedef struct rtp_text {
    char *data;    /* NUL-terminated, or NULL before the first append */
    size_t len;
    size_t cap;
    int failed;    /* an allocation failed: the content is incomplete */
} rtp_text;

void rtp_text_init(rtp_text *t);
void rtp_text_free(rtp_text *t);

void rtp_text_append(rtp_text *t, const char *s);
/* Room for n more bytes and the NUL at data + len (the caller writes there,
 * adds what it wrote to len and ends it with '\0'); NULL once an allocation
 * failed. For writers that reserve once per value instead of per piece. */
char *rtp_text_room(rtp_text *t, size_t n);
void rtp_text_appendn(rtp_text *t, const char *s, size_t n);
void rtp_text_printf(rtp_text *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Appends s with the five XML specials escaped (&amp; &lt; &gt; &quot;
 * &apos;), for text and attribute values of SVG and other XML output. */
void rtp_text_append_xml(rtp_text *t, const char *s);

/* RTP_ENOMEM when an append failed, else RTP_OK. */
rtp_status rtp_text_status(const rtp_text *t);

/* The buffer (malloc'd, "" when empty; NULL on failure), now the caller's;
 * t is left empty. */
char *rtp_text_take(rtp_text *t);

/* 0 when s is valid UTF-8 without control characters (C0, DEL, C1) and
 * without the format characters that reorder, hide or break text (bidi
 * overrides and marks such as U+202E, U+2028/U+2029, zero-width
 * characters, U+FEFF): text that prints as itself on a terminal and in
 * every output format; otherwise -1 and a short reason in why ("contains a
 * control character (byte 0x1b)", "contains U+202E (bidirectional
 * override), which a terminal does not show as itself"). */
int rtp_text_check_plain(const char *s, char *why, size_t why_size);

RTP_API_END
#endif
