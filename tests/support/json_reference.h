/* tests/support/json_reference.h — today's strict reader as it was before
 * models/json_parse.c (cJSON's parser, then a scan of the text for number
 * tokens and U+0000 escapes, then a walk for duplicate keys), kept as the
 * slow reference the one-pass reader is tested against (tests/test_json.c,
 * fuzz/fuzz_json.c). Its tree has the same shape as rtp_json_open's: number
 * nodes carry their token text and length (valuestring, valueint), so the
 * readers of models/ run on either. Not thread-safe beyond what cJSON is. */
#ifndef RTP_TEST_JSON_REFERENCE_H
#define RTP_TEST_JSON_REFERENCE_H

#include "models/json_util.h"

rtp_status rtp_json_open_reference(rtp_json *doc, const char *text, size_t len, rtp_diag *diag);
/* Frees a document of rtp_json_open_reference (not of rtp_json_open). */
void rtp_json_close_reference(rtp_json *doc);


/* Reads text with both readers and compares them: the same status; on an
 * error the same message, path, line and column; on success the same tree
 * (types, keys, strings byte for byte, number tokens and doubles) and the
 * same task-set reading (status, diagnostic, every task). Exempt: texts
 * holding a NUL byte (the file layer rejects them; today's reader cut
 * strings there and read "3\0" as a number token), and a \u escape without
 * four hex digits when the fast reader rejects it (today's reader cut the
 * string there). Returns 0 when they agree, else 1 with the difference in
 * why. */
int rtp_json_differ(const char *text, size_t len, char *why, size_t why_size);

#endif
