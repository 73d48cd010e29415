/* models/json_util.c — see json_util.h. */
#include "models/json_util.h"
#include "models/duration.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Appends n bytes of s at out[*used], as far as size allows (one byte kept
 * for the NUL): the paths are truncated exactly as snprintf would, without
 * its cost (a path is built for every member read). */
static void put(char *out, size_t size, size_t *used, const char *s, size_t n)
{
    size_t room = size - 1 - *used;
    if (n > room)
        n = room;
    memcpy(out + *used, s, n);
    *used += n;
}

void rtp_json_path_key(char *out, size_t size, const char *parent, const char *key)
{
    size_t used = 0;
    if (size == 0)
        return;
    if (parent && parent[0]) {
        put(out, size, &used, parent, strlen(parent));
        put(out, size, &used, ".", 1);
    }
    put(out, size, &used, key, strlen(key));
    out[used] = '\0';
}

void rtp_json_path_index(char *out, size_t size, const char *parent, size_t index)
{
    char digits[24];
    size_t n = sizeof digits;
    do {
        digits[--n] = (char)('0' + index % 10);
        index /= 10;
    } while (index > 0);
    size_t used = 0;
    if (size == 0)
        return;
    if (parent)
        put(out, size, &used, parent, strlen(parent));
    put(out, size, &used, "[", 1);
    put(out, size, &used, digits + n, sizeof digits - n);
    put(out, size, &used, "]", 1);
    out[used] = '\0';
}

/* ---- a set of names: open addressing over FNV-1a, so duplicate checks
 * stay linear (50k task names or keys in one object). ---- */

static size_t nameset_capacity(size_t expected)
{
    size_t cap = 16;
    while (cap < 2 * expected + 1)
        cap *= 2;
    return cap;
}

rtp_status rtp_nameset_init(rtp_nameset *set, size_t expected)
{
    size_t cap = nameset_capacity(expected);
    set->slots = calloc(cap, sizeof *set->slots);
    set->capacity = set->slots ? cap : 0;
    set->borrowed = 0;
    return set->slots ? RTP_OK : RTP_ENOMEM;
}

rtp_status rtp_nameset_init_in(rtp_nameset *set, size_t expected, rtp_nameset_slot *buffer,
                               size_t room)
{
    size_t cap = nameset_capacity(expected);
    if (cap > room)
        return rtp_nameset_init(set, expected);
    memset(buffer, 0, cap * sizeof *buffer);
    set->slots = buffer;
    set->capacity = cap;
    set->borrowed = 1;
    return RTP_OK;
}

void rtp_nameset_free(rtp_nameset *set)
{
    if (!set->borrowed)
        free(set->slots);
    set->slots = NULL;
    set->capacity = 0;
    set->borrowed = 0;
}

static uint64_t fnv1a(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

int rtp_nameset_add(rtp_nameset *set, const char *name)
{
    size_t mask = set->capacity - 1;
    uint64_t h = fnv1a(name);
    for (size_t i = (size_t)h & mask;; i = (i + 1) & mask) {
        rtp_nameset_slot *slot = &set->slots[i];
        if (!slot->name) {
            slot->name = name;
            slot->hash = h;
            return 0;
        }
        if (slot->hash == h && rtp_same_string(slot->name, name))
            return 1;
    }
}

rtp_status rtp_json_check_keys(const cJSON *object, const char *path,
                               const char *const *allowed, rtp_diag *diag)
{
    char key_path[sizeof diag->path];
    for (const cJSON *c = object->child; c; c = c->next) {
        int known = 0;
        for (const char *const *a = allowed; *a && !known; a++)
            known = strcmp(*a, c->string) == 0;
        if (!known) {
            rtp_json_path_key(key_path, sizeof key_path, path, c->string);
            return rtp_diag_set(diag, RTP_EINPUT, key_path, "unknown key");
        }
    }
    return RTP_OK;
}

/* The token text rtp_json_open keeps in a number node (json_parse.c sets
 * valuestring and valueint to it). */
const char *rtp_json_number_text(const rtp_json *doc, const cJSON *node, size_t *len)
{
    (void)doc;
    if (!cJSON_IsNumber(node) || !node->valuestring)
        return NULL;
    *len = (size_t)node->valueint;
    return node->valuestring;
}

/* Reads a bare integer from its token text; 1 on success. *too_big when the
 * magnitude reaches 2^53. */
static int token_integer(const char *text, size_t len, int64_t *out, int *too_big)
{
    size_t i = 0;
    int negative = 0;
    if (i < len && text[i] == '-') {
        negative = 1;
        i++;
    }
    if (i == len)
        return 0;
    int64_t value = 0;
    *too_big = 0;
    for (; i < len; i++) {
        if (text[i] < '0' || text[i] > '9')
            return 0;
        if (value < RTP_JSON_INT_LIMIT)
            value = value * 10 + (text[i] - '0');
    }
    if (value >= RTP_JSON_INT_LIMIT)
        *too_big = 1;
    *out = negative ? -value : value;
    return 1;
}

/* A number node's integer (token_integer's contract), from valuedouble when
 * the reader marked the token RTP_JSON_PLAIN_INT, else from its text (set in
 * *text, *len; NULL when the node has none). */
static inline int node_integer(const rtp_json *doc, const cJSON *node, const char **text,
                               size_t *len, int64_t *out, int *too_big)
{
    if (node->type & RTP_JSON_PLAIN_INT) {
        double d = node->valuedouble;
        *too_big = !(d < 0x1p53 && d > -0x1p53);
        *out = *too_big ? 0 : (int64_t)d;
        return 1;
    }
    *text = rtp_json_number_text(doc, node, len);
    return *text && token_integer(*text, *len, out, too_big);
}

rtp_status rtp_json_int(const rtp_json *doc, const cJSON *node, const char *path,
                        int64_t min, int64_t max, int64_t *out, rtp_diag *diag)
{
    size_t len = 0;
    const char *text = NULL;
    int64_t value;
    int too_big = 0;
    if (!cJSON_IsNumber(node) || !node_integer(doc, node, &text, &len, &value, &too_big))
        return rtp_diag_set(diag, RTP_EINPUT, path, "must be a whole number (a JSON integer)");
    /* a bare integer is exact only below 2^53 (too_big): the range said is
     * the one a value can be given in (review rev13a: "between 1 and 2^62"
     * for a count of 2^53 read as inside it) */
    int64_t top = max < RTP_JSON_INT_LIMIT - 1 ? max : RTP_JSON_INT_LIMIT - 1;
    if (too_big || value < min || value > max)
        return rtp_diag_set(diag, RTP_EINPUT, path, "must be between %lld and %lld",
                            (long long)min, (long long)top);
    *out = value;
    return RTP_OK;
}

rtp_status rtp_json_cpu_id(const rtp_json *doc, const cJSON *node, const char *path, int *out,
                           rtp_diag *diag)
{
    int64_t id;
    rtp_status st = rtp_json_int(doc, node, path, 0, RTP_CPU_LIMIT - 1, &id, diag);
    if (st == RTP_OK)
        *out = (int)id;
    return st;
}

rtp_status rtp_json_cpu_list(const rtp_json *doc, const cJSON *node, const char *path,
                             unsigned rules, int **ids, size_t *count, rtp_diag *diag)
{
    if (!cJSON_IsArray(node))
        return rtp_diag_set(diag, RTP_EINPUT, path, "must be a list of CPU ids");
    size_t n = (size_t)cJSON_GetArraySize(node), i = 0;
    if (n == 0 && (rules & RTP_CPUS_NONEMPTY))
        return rtp_diag_set(diag, RTP_EINPUT, path, "must not be empty");
    int *list = calloc(n ? n : 1, sizeof *list);
    if (!list)
        return rtp_diag_set(diag, RTP_ENOMEM, path, "out of memory");
    char item_path[RTP_DIAG_PATH_SIZE];
    rtp_status st = RTP_OK;
    for (const cJSON *c = node->child; c && st == RTP_OK; c = c->next, i++) {
        rtp_json_path_index(item_path, sizeof item_path, path, i);
        st = rtp_json_cpu_id(doc, c, item_path, &list[i], diag);
        for (size_t j = 0; st == RTP_OK && (rules & RTP_CPUS_DISTINCT) && j < i; j++)
            if (list[j] == list[i])
                st = rtp_diag_set(diag, RTP_EINPUT, item_path, "CPU %d is listed twice", list[i]);
    }
    if (st != RTP_OK) {
        free(list);
        return st;
    }
    *ids = list;
    *count = n;
    return RTP_OK;
}

/* A bare time that is not a JSON integer: say what it is (a fraction, an
 * exponent, a value past the limit), not just "not a whole number". */
static rtp_status not_integer_time(const cJSON *node, const char *text, size_t len,
                                   rtp_ns unit_ns, const char *path, rtp_diag *diag)
{
    int shown = text ? (int)(len < 40 ? len : 40) : 0;
    const char *t = text ? text : "";
    double ns = node->valuedouble * (double)unit_ns;
    if (node->valuedouble < 0)
        return rtp_diag_set(diag, RTP_EINPUT, path, "%.*s is negative: a time must be positive",
                            shown, t);
    if (!(ns < (double)RTP_NS_LIMIT + 1.0))
        return rtp_diag_set(diag, RTP_EINPUT, path,
                            "%.*s is past the limit of 2^62 ns (a bare time must be a JSON "
                            "integer below 2^53; write large times as strings, e.g. "
                            "\"4611686018427387904ns\")", shown, t);
    if (memchr(t, 'e', len) || memchr(t, 'E', len))
        return rtp_diag_set(diag, RTP_EINPUT, path,
                            "%.*s is written with an exponent: a bare time must be a plain JSON "
                            "integer (write it in digits, or as a string such as \"1.5ms\")",
                            shown, t);
    return rtp_diag_set(diag, RTP_EINPUT, path,
                        "%.*s has a fraction: a bare time must be a JSON integer in time_unit "
                        "(write \"1.5ms\" as a string)", shown, t);
}

rtp_status rtp_json_time(const rtp_json *doc, const cJSON *node, const char *path,
                         rtp_ns unit_ns, int allow_zero, rtp_ns *out, rtp_diag *diag)
{
    rtp_ns value;
    int type = node ? node->type & 0xFF : cJSON_Invalid; /* cJSON_Is* without a call */
    if (type == cJSON_Number) {
        size_t len = 0;
        const char *text = NULL;
        int64_t count;
        int too_big = 0;
        if (!node_integer(doc, node, &text, &len, &count, &too_big))
            return not_integer_time(node, text, len, unit_ns, path, diag);
        if (too_big)
            return rtp_diag_set(diag, RTP_EINPUT, path,
                                "bare integer of 2^53 or more: write large times as strings "
                                "(e.g. \"9007199254740993ns\")");
        if (count < 0)
            return rtp_diag_set(diag, RTP_EINPUT, path, "must be %s (got %lld)",
                                allow_zero ? "zero or positive" : "positive", (long long)count);
        if (rtp_duration_scale(count, unit_ns, &value) != RTP_OK)
            return rtp_diag_set(diag, RTP_EINPUT, path, "past the limit of 2^62 ns");
    } else if (type == cJSON_String) {
        char why[128];
        if (rtp_duration_parse(node->valuestring, &value, why, sizeof why) != RTP_OK)
            return rtp_diag_set(diag, RTP_EINPUT, path, "%s (got \"%.40s\")", why,
                                node->valuestring);
    } else {
        return rtp_diag_set(diag, RTP_EINPUT, path,
                            "must be a time: a JSON integer or a string like \"5ms\"%s",
                            cJSON_IsBool(node) ? ", not a boolean" : "");
    }
    if (value == 0 && !allow_zero)
        return rtp_diag_set(diag, RTP_EINPUT, path, "must be positive (got 0)");
    *out = value;
    return RTP_OK;
}

rtp_status rtp_json_string(const cJSON *node, const char *path, int allow_empty,
                           const char **out, rtp_diag *diag)
{
    if (!node || (node->type & 0xFF) != cJSON_String) /* cJSON_IsString without a call */
        return rtp_diag_set(diag, RTP_EINPUT, path, "must be a string");
    if (!allow_empty && node->valuestring[0] == '\0')
        return rtp_diag_set(diag, RTP_EINPUT, path, "must not be empty");
    *out = node->valuestring;
    return RTP_OK;
}

