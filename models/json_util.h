/* models/json_util.h — strict JSON reading and exact JSON writing on top of
 * cJSON, shared by every document reader/writer in models/.
 *
 * Reading: rtp_json_open parses the text in one pass into a cJSON tree held
 * in an arena (errors carry line and column), rejects duplicate keys and
 * U+0000 anywhere, and keeps the text of every number token, so a bare
 * integer is read from its digits, exactly. Paths follow docs/spec.md
 * ("tasks[3].period"). Writing: times are exact integers (raw digits) below
 * 2^53 and "<n>ns" strings above. Ownership: an rtp_json owns its cJSON tree
 * until rtp_json_close. Thread-safety: no globals (cJSON's global error
 * pointer is never read). */
#ifndef RTP_JSON_UTIL_H
#define RTP_JSON_UTIL_H

#include <cjson/cJSON.h>

#include "models/base.h"
#include "models/text.h"
#include "models/json_write.h"


/* Set in a number node's type by rtp_json_open when its token is a plain
 * integer (an optional '-' and 1 to 18 digits): its valuedouble, exact below
 * 2^53 in magnitude, is then the integer, and rtp_json_int and rtp_json_time
 * need not read the digits again. Trees built otherwise (the reference
 * reader of the tests) lack it and are read from the token text. cJSON's
 * own tests look at the low byte of the type only. */
#define RTP_JSON_PLAIN_INT (1 << 12)

/* rtp_json_open also keeps the length of a member's key, when written
 * without escapes and up to RTP_JSON_KEY_LEN_MAX bytes, in bits 16 to 30 of
 * the member's type (0 otherwise, and in trees built another way), so a
 * reader matching keys compares them as words (rtp_json_key_len). */
#define RTP_JSON_KEY_LEN_SHIFT 16
#define RTP_JSON_KEY_LEN_MAX 0x7FFF
static inline size_t rtp_json_key_len(const cJSON *member)
{
    return ((unsigned)member->type >> RTP_JSON_KEY_LEN_SHIFT) & RTP_JSON_KEY_LEN_MAX;
}

/* A parsed document. Its nodes and strings live in one arena (freed by
 * rtp_json_close, never by cJSON_Delete); a number node keeps its token text
 * (valuestring, pointing into `text`, flagged cJSON_IsReference) and that
 * text's length (valueint). */
typedef struct rtp_json {
    cJSON *root;
    const char *text;
    size_t len;
    void *arena;
} rtp_json;

/* Parses in one pass (models/json_parse.c): duplicate keys anywhere and
 * U+0000 in keys and strings are RTP_EINPUT with the member's path; syntax
 * errors have path "" and the line and column where cJSON 1.7.15 stops. The
 * text must outlive the document. */
rtp_status rtp_json_open(rtp_json *doc, const char *text, size_t len,
                         rtp_diag *diag);
void rtp_json_close(rtp_json *doc);
/* rtp_json_open with `scratch` (aligned to max_align_t, scratch_size bytes,
 * outliving the document) as the arena's first block: a reader that opens
 * and closes a document in one call gives a stack buffer and allocates
 * nothing for a document that fits (a task set of 50 tasks takes ~20 KiB). */
rtp_status rtp_json_open_scratch(rtp_json *doc, const char *text, size_t len, void *scratch,
                                 size_t scratch_size, rtp_diag *diag);

/* The diagnostic of a text that is not JSON, stopped at byte `at`:
 * "not valid JSON" (or the nesting limit, or text after the document when
 * after_document), with its line and column. Returns RTP_EINPUT, or
 * RTP_ELIMIT at the nesting limit (CJSON_NESTING_LIMIT, 1000). */
rtp_status rtp_json_syntax_error(const char *text, size_t len, size_t at, int after_document,
                                 rtp_diag *diag);

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

/* A Linux CPU id: a bare JSON integer in 0..RTP_CPU_LIMIT - 1. */
rtp_status rtp_json_cpu_id(const rtp_json *doc, const cJSON *node, const char *path, int *out,
                           rtp_diag *diag);

/* The rules that differ between the CPU lists of the documents (docs/spec.md
 * "Task-set document", "Plan document"). RTP_CPUS_NONEMPTY: [] is refused
 * ("must not be empty"): a task set's platform.cpus, clusters and
 * affinities, a plan's clusters[j].cpus. RTP_CPUS_DISTINCT: an id given
 * twice is refused at its second place ("CPU N is listed twice"): a task
 * set's lists and a plan's platform.cpus; a plan's bins leave it to the
 * cross-bin check (a CPU in one bin only), a proof's cpus are only echoed. */
enum { RTP_CPUS_NONEMPTY = 1u, RTP_CPUS_DISTINCT = 2u };

/* A list of CPU ids (rtp_json_cpu_id each) at `path` under `rules` (RTP_CPUS_*
 * or 0); not a list: "must be a list of CPU ids". On success *ids is
 * malloc'd (never NULL, even when empty; the caller frees) and *count set;
 * on an error both are left alone. */
rtp_status rtp_json_cpu_list(const rtp_json *doc, const cJSON *node, const char *path,
                             unsigned rules, int **ids, size_t *count, rtp_diag *diag);

/* The number token's text ("0.65", "1e3"), or NULL when node is no number. */
const char *rtp_json_number_text(const rtp_json *doc, const cJSON *node,
                                 size_t *len);

/* A string member; RTP_EINPUT when not a string (or empty and !allow_empty). */
rtp_status rtp_json_string(const cJSON *node, const char *path, int allow_empty,
                           const char **out, rtp_diag *diag);

/* 1 when a and b are the same C string: inline, for the short keys and
 * names the readers compare (a call to strcmp cost more than the compare). */
static inline int rtp_same_string(const char *a, const char *b)
{
    while (*a && *a == *b) {
        a++;
        b++;
    }
    return *a == *b;
}

/* A set of borrowed C strings for linear-time duplicate checks; each slot
 * keeps its name's hash, so a probe compares strings only on equal hashes
 * (task names such as T1..T50 share prefixes and collide in the table). */
typedef struct rtp_nameset_slot {
    const char *name;
    uint64_t hash;
} rtp_nameset_slot;
typedef struct rtp_nameset {
    rtp_nameset_slot *slots;
    size_t capacity;
    int borrowed; /* slots are the caller's buffer (rtp_nameset_init_in) */
} rtp_nameset;

rtp_status rtp_nameset_init(rtp_nameset *set, size_t expected);
/* rtp_nameset_init in the caller's `buffer` of `room` slots when the table
 * fits there (a task set's names: no allocation per set), else as
 * rtp_nameset_init. */
rtp_status rtp_nameset_init_in(rtp_nameset *set, size_t expected, rtp_nameset_slot *buffer,
                               size_t room);
/* Adds `name` (borrowed: it must outlive the set); 1 when already present. */
int rtp_nameset_add(rtp_nameset *set, const char *name);
void rtp_nameset_free(rtp_nameset *set);

/* The members of one task into an open object (the task-set and the plan
 * writers): name, times, cmd, affinity, and its given priority when
 * with_priority (a plan writes its own ranking instead). */
struct rtp_task;
struct rtp_overheads;
void rtp_task_members(rtp_json_writer *w, const struct rtp_task *task, int with_priority);
/* {"release_latency": T, "context_switch": T} (both written), plus
 * "deadline_charge" and "noise_per_ms" when non-zero, as member `key`. */
void rtp_overheads_write(rtp_json_writer *w, const char *key, const struct rtp_overheads *ov);

struct rtp_task;
/* One task object of a task set or plan (models/taskset.c): name, wcet,
 * deadline (default period), period, cmd, affinity, priority, plus the
 * extra allowed keys (a NULL-terminated list, at most 8, or NULL) that the
 * caller reads itself. On error the task may hold partial allocations: free
 * it with rtp_task_free_fields. */
rtp_status rtp_task_from_json(const rtp_json *doc, const cJSON *node, const char *path,
                              rtp_ns unit, const char *const *extra_keys, struct rtp_task *task,
                              rtp_diag *diag);

struct rtp_taskset;
/* The task set of a parsed document (models/taskset.c); on error *out is
 * left zeroed. */
rtp_status rtp_taskset_from_json(const rtp_json *doc, struct rtp_taskset *out, rtp_diag *diag);

/* Top-level "resources" and one task's "requests" (models/resources.c;
 * docs/spec.md "Shared resources"): the reading rules of that section, the
 * first problem as RTP_EINPUT with its path; partial allocations stay in
 * *list / task for their free. The writers add "resources" / "requests" to
 * the object the streaming writer is in. */
struct rtp_resource;
rtp_status rtp_resources_from_json(const cJSON *node, struct rtp_resource **list,
                                   size_t *count, rtp_diag *diag);
rtp_status rtp_requests_from_json(const rtp_json *doc, const cJSON *node, const char *path,
                                  rtp_ns unit, const struct rtp_resource *res, size_t n_res,
                                  struct rtp_task *task, rtp_diag *diag);
void rtp_resources_write(rtp_json_writer *w, const struct rtp_resource *res, size_t n_res);
void rtp_requests_write(rtp_json_writer *w, const struct rtp_resource *res,
                        const struct rtp_task *task);

struct rtp_overheads;
/* "platform.overheads" of a task set or plan (models/taskset.c): an object
 * with optional times release_latency and context_switch (0 allowed, unknown
 * keys rejected). */
rtp_status rtp_overheads_from_json(const rtp_json *doc, const cJSON *node, rtp_ns unit,
                                   struct rtp_overheads *ov, rtp_diag *diag);

#endif
