/* models/json_write.h — the one JSON writer of rtpack's documents: text
 * laid out byte for byte as cJSON prints it, streamed into an rtp_text, so a
 * module that writes a document needs neither cJSON nor a tree (cJSON is for
 * reading: models/json_util.h). Values: times are exact integers (raw
 * digits) below 2^53 and "<n>ns" strings above; display doubles have 10
 * significant digits. Ownership: the writer borrows the caller's rtp_text.
 * Thread-safety: no globals; one writer per thread. */
#ifndef RTP_JSON_WRITE_H
#define RTP_JSON_WRITE_H

#include <stddef.h>
#include <stdint.h>

#include "models/base.h"
#include "models/text.h"

#define RTP_JSON_INT_LIMIT ((int64_t)1 << 53) /* bare integers must be below */

/* Decimal digits of v into buf (at least 21 bytes), NUL-terminated; the
 * length. */
size_t rtp_json_format_int(char *buf, int64_t v);
/* A display double into text: 10 significant digits, ".0" added to whole
 * values. */
void rtp_json_format_display(char *text, size_t size, double value);

/* A streaming writer of JSON text laid out byte for byte as cJSON prints
 * (compact, or pretty with tabs), for documents written per set (analyze's
 * batch lines) without building a tree: appended to the caller's rtp_text
 * (a batch thread reuses one buffer for all its lines), one reservation per
 * value, integers formatted by hand. `key` is the member name inside an
 * object and NULL inside an array or at the top. Values as the exact writers
 * above: times as digits below 2^53 else "<n>ns", display doubles with 10
 * significant digits. An allocation failure is sticky (the text's `failed`):
 * rtp_jw_end then says RTP_ENOMEM. Nesting deeper than RTP_JW_DEPTH is a
 * caller bug. */
#define RTP_JW_DEPTH 16
typedef struct rtp_json_writer {
    rtp_text *out;  /* the caller's; written from its current end */
    int pretty;
    int depth;
    unsigned char members[RTP_JW_DEPTH]; /* written so far at each level (0, 1 = some) */
    unsigned char object[RTP_JW_DEPTH];
} rtp_json_writer;

void rtp_jw_init(rtp_json_writer *w, rtp_text *out, int pretty);
void rtp_jw_open(rtp_json_writer *w, const char *key, int object); /* '{' or '[' */
void rtp_jw_close(rtp_json_writer *w);
void rtp_jw_string(rtp_json_writer *w, const char *key, const char *value);
void rtp_jw_int(rtp_json_writer *w, const char *key, int64_t value);
void rtp_jw_time(rtp_json_writer *w, const char *key, rtp_ns value);
void rtp_jw_display(rtp_json_writer *w, const char *key, double value);
void rtp_jw_bool(rtp_json_writer *w, const char *key, int value);
void rtp_jw_null(rtp_json_writer *w, const char *key);
/* A time, or null when negative (not measured, not bounded). */
void rtp_jw_time_or_null(rtp_json_writer *w, const char *key, rtp_ns value);
/* A number the caller formatted (an exact decimal such as a ratio's "0.9"),
 * written as it is: text must be a valid JSON number. */
void rtp_jw_number(rtp_json_writer *w, const char *key, const char *text);
/* Ends the document with a newline; RTP_ENOMEM when some append failed. */
rtp_status rtp_jw_end(rtp_json_writer *w);
/* Ends the document and hands over the whole text: malloc'd, the caller's;
 * NULL when some append failed (the text is freed then). */
char *rtp_jw_take(rtp_json_writer *w);

/* An array of ints as member `key`. */
void rtp_jw_int_array(rtp_json_writer *w, const char *key, const int *values, size_t n);
/* The critical scaling factor's two members, shared by the analyze and the
 * plan documents (docs/spec.md "Sensitivity"): "critical_scaling_factor"
 * (decimal) and "critical_scaling_factor_exact" ("p/q"), both null when
 * exact is NULL; nothing when !present. */
void rtp_jw_scaling(rtp_json_writer *w, int present, const char *decimal, const char *exact);

/* A value the caller lays out itself, for small objects written many times
 * (analyze's task objects in a batch line): rtp_jw_raw_begin writes what
 * precedes a value (the separator; in an object the key) and returns where
 * the value goes, with `room` bytes reserved (NULL once an allocation
 * failed); the caller writes valid JSON there, laid out as the writer would,
 * with the two put functions, and hands the end to rtp_jw_raw_end. */
char *rtp_jw_raw_begin(rtp_json_writer *w, const char *key, size_t room);
void rtp_jw_raw_end(rtp_json_writer *w, char *end);
/* s[0..n) as a JSON string at p (room for 2 + 6 n bytes), as the writer
 * quotes; the end. */
char *rtp_jw_put_quoted(char *p, const char *s, size_t n);
/* v in decimal at p (room for 21 bytes); the end. */
char *rtp_jw_put_int(char *p, int64_t v);

#endif
