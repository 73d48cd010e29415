/* models/doc_members.h — the members of a document as its reader requires
 * them, for the readers of the command documents (probe/probe_doc_read.c,
 * rehearse/rehearse_doc_read.c): each member is required at path.key with
 * its type, and an error is RTP_EINPUT at that path (docs/spec.md "Error
 * messages"). On top of models/json_util.h's tree; `field` buffers are
 * RTP_DIAG_PATH_SIZE bytes. Thread-safety: pure. */
#ifndef RTP_DOC_MEMBERS_H
#define RTP_DOC_MEMBERS_H

#include "models/json_util.h"
#include "models/ratio.h"

rtp_status rtp_doc_need(const cJSON *obj, const char *path, const char *key, const cJSON **item,
                        char *field, rtp_diag *diag);
/* rtp_doc_need, then *item = NULL when the member is null and `nullable`:
 * the one place a nullable member's null is recognised. */
rtp_status rtp_doc_need_nullable(const cJSON *obj, const char *path, const char *key,
                                 int nullable, const cJSON **item, char *field, rtp_diag *diag);
/* An object with exactly the keys `keys` (NULL-ended); optional ones may be
 * absent, the others must be there (read by the caller). */
rtp_status rtp_doc_keys(const cJSON *node, const char *path, const char *const *keys,
                        rtp_diag *diag);
rtp_status rtp_doc_int(const rtp_json *doc, const cJSON *obj, const char *path, const char *key,
                       int64_t min, int64_t max, int64_t *out, rtp_diag *diag);
/* A count of events (jobs, samples): 0 .. 2^53 - 1. */
rtp_status rtp_doc_count(const rtp_json *doc, const cJSON *obj, const char *path, const char *key,
                         uint64_t *out, rtp_diag *diag);
/* A time in ns (0 allowed), or null when nullable (then *out = -1). */
rtp_status rtp_doc_time(const rtp_json *doc, const cJSON *obj, const char *path, const char *key,
                        int nullable, rtp_ns *out, rtp_diag *diag);
rtp_status rtp_doc_bool(const cJSON *obj, const char *path, const char *key, int *out,
                        rtp_diag *diag);
/* A string (or null, read as "", when nullable) into a buffer of `size`. */
rtp_status rtp_doc_text(const cJSON *obj, const char *path, const char *key, int nullable,
                        char *buf, size_t size, rtp_diag *diag);
/* One of `names` (NULL-ended), returned as the table's own static string;
 * null gives NULL when nullable. */
rtp_status rtp_doc_choice(const cJSON *obj, const char *path, const char *key, int nullable,
                          const char *const *names, const char **out, rtp_diag *diag);
/* An exact ratio written as a decimal number (0.9) or a string "0.9" / "p/q".
 */
rtp_status rtp_doc_ratio(const rtp_json *doc, const cJSON *obj, const char *path, const char *key,
                         int nullable, int *has, rtp_ratio *out, rtp_diag *diag);

#endif
