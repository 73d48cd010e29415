/* models/json_util.h — strict JSON reading and exact JSON writing on top of
 * cJSON, shared by every document reader/writer in models/.
 *
 * Reading: rtp_json_open parses the text (errors carry line and column),
 * rejects duplicate keys anywhere (cJSON keeps them), and records the text of
 * every number token, because cJSON keeps numbers only as doubles: a bare
 * integer is then read from its digits, exactly. Paths follow docs/spec.md
 * ("tasks[3].period"). Writing: times are exact integers (raw digits) below
 * 2^53 and "<n>ns" strings above. Ownership: an rtp_json owns its cJSON tree
 * until rtp_json_close. Thread-safety: no globals (cJSON's global error
 * pointer is never read). */
#ifndef RTP_JSON_UTIL_H
#define RTP_JSON_UTIL_H

#include <cjson/cJSON.h>

#include "models/base.h"

#define RTP_JSON_INT_LIMIT ((int64_t)1 << 53) /* bare integers must be below */

typedef struct rtp_json_number {
    const cJSON *node;
    const char *text; /* points into the parsed text */
    size_t len;
} rtp_json_number;

typedef struct rtp_json {
    cJSON *root;
    const char *text;
    size_t len;
    rtp_json_number *numbers; /* sorted by node address */
    size_t n_numbers;
} rtp_json;

/* Parses and checks duplicate keys. RTP_EINPUT with path/line/column. */
rtp_status rtp_json_open(rtp_json *doc, const char *text, size_t len,
                         rtp_diag *diag);
void rtp_json_close(rtp_json *doc);

/* Path helpers: out = "parent.key" (or "key" at top) / "parent[index]". */
void rtp_json_path_key(char *out, size_t size, const char *parent, const char *key);
void rtp_json_path_index(char *out, size_t size, const char *parent, size_t index);

/* RTP_EINPUT naming the first key of `object` not in `allowed` (NULL-ended). */
rtp_status rtp_json_check_keys(const cJSON *object, const char *path,
                               const char *const *allowed, rtp_diag *diag);

/* A time: a bare integer (in unit_ns, below 2^53) or a time string. Zero and
 * negative values are rejected unless allow_zero. */
rtp_status rtp_json_time(const rtp_json *doc, const cJSON *node, const char *path,
                         rtp_ns unit_ns, int allow_zero, rtp_ns *out,
                         rtp_diag *diag);

/* A bare JSON integer (digits only, no fraction or exponent) in [min, max]. */
rtp_status rtp_json_int(const rtp_json *doc, const cJSON *node, const char *path,
                        int64_t min, int64_t max, int64_t *out, rtp_diag *diag);

/* The number token's text ("0.65", "1e3"), or NULL when node is no number. */
const char *rtp_json_number_text(const rtp_json *doc, const cJSON *node,
                                 size_t *len);

/* A string member; RTP_EINPUT when not a string (or empty and !allow_empty). */
rtp_status rtp_json_string(const cJSON *node, const char *path, int allow_empty,
                           const char **out, rtp_diag *diag);

/* Exact writers: an integer as raw digits; a time as digits below 2^53, else
 * as a "<n>ns" string; a display double rounded to 10 significant digits. */
cJSON *rtp_json_new_int(int64_t value);
cJSON *rtp_json_new_time(rtp_ns value);
cJSON *rtp_json_new_display(double value);

/* Writers that never print a document with a member missing: add v under
 * key (push it onto an array); when v is NULL (its allocation failed) or the
 * add fails, v is freed and *bad = 1. */
void rtp_json_add(int *bad, cJSON *object, const char *key, cJSON *v);
void rtp_json_push(int *bad, cJSON *array, cJSON *v);

/* Prints and frees nothing: malloc'd text (caller frees), with a final
 * newline; NULL when out of memory. */
char *rtp_json_print(const cJSON *root, int pretty);

/* A set of borrowed C strings for linear-time duplicate checks. */
typedef struct rtp_nameset {
    const char **slots;
    size_t capacity;
} rtp_nameset;

rtp_status rtp_nameset_init(rtp_nameset *set, size_t expected);
/* Adds `name` (borrowed: it must outlive the set); 1 when already present. */
int rtp_nameset_add(rtp_nameset *set, const char *name);
void rtp_nameset_free(rtp_nameset *set);

struct rtp_task;
/* One task object of a task set or plan (models/taskset.c): name, wcet,
 * deadline (default period), period, cmd, affinity, priority, plus the
 * extra allowed keys (a NULL-terminated list, at most 8, or NULL) that the
 * caller reads itself. On error the task may hold partial allocations: free
 * it with rtp_task_free_fields. */
rtp_status rtp_task_from_json(const rtp_json *doc, const cJSON *node, const char *path,
                              rtp_ns unit, const char *const *extra_keys, struct rtp_task *task,
                              rtp_diag *diag);

struct rtp_overheads;
/* "platform.overheads" of a task set or plan (models/taskset.c): an object
 * with optional times release_latency and context_switch (0 allowed, unknown
 * keys rejected). */
rtp_status rtp_overheads_from_json(const rtp_json *doc, const cJSON *node, rtp_ns unit,
                                   struct rtp_overheads *ov, rtp_diag *diag);

#endif
