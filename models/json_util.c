/* models/json_util.c — see json_util.h. */
#include "models/json_util.h"
#include "models/duration.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void rtp_json_path_key(char *out, size_t size, const char *parent, const char *key)
{
    if (parent && parent[0])
        snprintf(out, size, "%s.%s", parent, key);
    else
        snprintf(out, size, "%s", key);
}

void rtp_json_path_index(char *out, size_t size, const char *parent, size_t index)
{
    snprintf(out, size, "%s[%zu]", parent ? parent : "", index);
}

/* Line and column (1-based) of byte offset `at`. */
static void locate(const char *text, size_t at, int *line, int *column)
{
    int l = 1, c = 1;
    for (size_t i = 0; i < at; i++) {
        if (text[i] == '\n') {
            l++;
            c = 1;
        } else {
            c++;
        }
    }
    *line = l;
    *column = c;
}

/* Number tokens of the text, in document order (strings skipped). Sets
 * *nul_string to the ordinal (in document order, keys included) of the first
 * string holding a "\u0000" escape, which cJSON would silently turn into the
 * end of the string ("5ms\u0000junk" read as "5ms"). */
static size_t scan_numbers(const char *text, size_t len, rtp_json_number *out,
                           size_t *nul_string)
{
    size_t count = 0, strings = 0;
    for (size_t i = 0; i < len;) {
        char ch = text[i];
        if (ch == '"') {
            for (i++; i < len && text[i] != '"'; i++) {
                if (text[i] != '\\')
                    continue;
                if (nul_string && *nul_string == (size_t)-1 && i + 5 < len &&
                    text[i + 1] == 'u' && strncmp(text + i + 2, "0000", 4) == 0)
                    *nul_string = strings;
                i++;
            }
            i++;
            strings++;
        } else if (ch == '-' || (ch >= '0' && ch <= '9')) {
            size_t start = i;
            while (i < len && (strchr("+-.eE", text[i]) || (text[i] >= '0' && text[i] <= '9')))
                i++;
            if (out) {
                out[count].text = text + start;
                out[count].len = i - start;
            }
            count++;
        } else {
            i++;
        }
    }
    return count;
}

/* Pre-order walk: attaches nodes to tokens in document order. */
static void attach(const cJSON *node, rtp_json_number *numbers, size_t n, size_t *next)
{
    for (; node; node = node->next) {
        if (cJSON_IsNumber(node) && *next < n)
            numbers[(*next)++].node = node;
        if (node->child)
            attach(node->child, numbers, n, next);
    }
}

static int by_node(const void *a, const void *b)
{
    const rtp_json_number *x = a, *y = b;
    return (x->node > y->node) - (x->node < y->node);
}

/* ---- a set of names: open addressing over FNV-1a, so duplicate checks
 * stay linear (50k task names or keys in one object). ---- */

rtp_status rtp_nameset_init(rtp_nameset *set, size_t expected)
{
    size_t cap = 16;
    while (cap < 2 * expected + 1)
        cap *= 2;
    set->slots = calloc(cap, sizeof *set->slots);
    set->capacity = set->slots ? cap : 0;
    return set->slots ? RTP_OK : RTP_ENOMEM;
}

void rtp_nameset_free(rtp_nameset *set)
{
    free(set->slots);
    set->slots = NULL;
    set->capacity = 0;
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
    for (size_t i = (size_t)fnv1a(name) & mask;; i = (i + 1) & mask) {
        if (!set->slots[i]) {
            set->slots[i] = name;
            return 0;
        }
        if (strcmp(set->slots[i], name) == 0)
            return 1;
    }
}

/* Walk of check_duplicates: strings met so far (keys and values, in
 * document order) and the ordinal of the first one holding U+0000. */
typedef struct walk_state {
    size_t strings_seen;
    size_t nul_string;
} walk_state;

/* Counts one string; RTP_EINPUT at `path` when it is the one with U+0000. */
static rtp_status count_string(walk_state *walk, const char *path, const char *what,
                               rtp_diag *diag)
{
    if (walk->strings_seen++ == walk->nul_string)
        return rtp_diag_set(diag, RTP_EINPUT, path, "%s must not contain U+0000", what);
    return RTP_OK;
}

/* Duplicate keys (and U+0000 in strings) anywhere; `path` is the container's
 * path. */
static rtp_status check_duplicates(const cJSON *node, const char *path, walk_state *walk,
                                   rtp_diag *diag)
{
    rtp_status st;
    char child_path[sizeof diag->path];
    size_t index = 0;
    rtp_nameset keys = {NULL, 0};
    if (cJSON_IsObject(node) && rtp_nameset_init(&keys, (size_t)cJSON_GetArraySize(node)) != RTP_OK)
        return rtp_diag_set(diag, RTP_ENOMEM, path, "out of memory");
    for (const cJSON *c = node->child; c; c = c->next, index++) {
        if (cJSON_IsObject(node)) {
            rtp_json_path_key(child_path, sizeof child_path, path, c->string ? c->string : "");
            st = count_string(walk, child_path, "a key", diag);
            if (st == RTP_OK && c->string && rtp_nameset_add(&keys, c->string))
                st = rtp_diag_set(diag, RTP_EINPUT, child_path, "duplicate key");
        } else {
            rtp_json_path_index(child_path, sizeof child_path, path, index);
            st = RTP_OK;
        }
        if (st == RTP_OK && cJSON_IsString(c))
            st = count_string(walk, child_path, "a string", diag);
        if (st == RTP_OK && c->child)
            st = check_duplicates(c, child_path, walk, diag);
        if (st != RTP_OK) {
            rtp_nameset_free(&keys);
            return st;
        }
    }
    rtp_nameset_free(&keys);
    return RTP_OK;
}

/* Open arrays and objects at byte `at` (brackets inside strings skipped): a
 * parse that stops at cJSON's nesting limit is not a syntax error. */
static size_t depth_at(const char *text, size_t at)
{
    size_t depth = 0;
    int in_string = 0;
    for (size_t i = 0; i < at; i++) {
        char c = text[i];
        if (in_string) {
            if (c == '\\')
                i++;
            else if (c == '"')
                in_string = 0;
        } else if (c == '"') {
            in_string = 1;
        } else if (c == '[' || c == '{') {
            depth++;
        } else if ((c == ']' || c == '}') && depth > 0) {
            depth--;
        }
    }
    return depth;
}

rtp_status rtp_json_open(rtp_json *doc, const char *text, size_t len, rtp_diag *diag)
{
    memset(doc, 0, sizeof *doc);
    const char *end = NULL;
    doc->root = cJSON_ParseWithLengthOpts(text, len, &end, 0);
    if (!doc->root) {
        size_t at = end && end >= text && end <= text + len ? (size_t)(end - text) : 0;
        if (depth_at(text, at) >= CJSON_NESTING_LIMIT)
            rtp_diag_set(diag, RTP_EINPUT, "",
                         "arrays and objects nested more than %d deep (the reader's limit)",
                         CJSON_NESTING_LIMIT);
        else
            rtp_diag_set(diag, RTP_EINPUT, "", "not valid JSON");
        if (diag)
            locate(text, at, &diag->line, &diag->column);
        return RTP_EINPUT;
    }
    /* Only white space may follow the document. */
    for (size_t at = (size_t)(end - text); at < len; at++) {
        if (!strchr(" \t\r\n", text[at])) {
            rtp_json_close(doc);
            rtp_diag_set(diag, RTP_EINPUT, "", "not valid JSON: text after the document");
            if (diag)
                locate(text, at, &diag->line, &diag->column);
            return RTP_EINPUT;
        }
    }
    doc->text = text;
    doc->len = len;
    walk_state walk = {0, (size_t)-1};
    size_t n = scan_numbers(text, len, NULL, &walk.nul_string);
    if (n > 0) {
        doc->numbers = calloc(n, sizeof *doc->numbers);
        if (!doc->numbers) {
            rtp_json_close(doc);
            return rtp_diag_set(diag, RTP_ENOMEM, "", "out of memory");
        }
        scan_numbers(text, len, doc->numbers, NULL);
        size_t attached = 0;
        attach(doc->root, doc->numbers, n, &attached);
        if (attached != n) {
            rtp_json_close(doc);
            return rtp_diag_set(diag, RTP_EINTERNAL, "", "number tokens do not match the parse");
        }
        doc->n_numbers = n;
        qsort(doc->numbers, n, sizeof *doc->numbers, by_node);
    }
    rtp_status st = RTP_OK;
    if (cJSON_IsString(doc->root) && walk.nul_string == 0)
        st = rtp_diag_set(diag, RTP_EINPUT, "", "strings must not contain U+0000");
    if (st == RTP_OK)
        st = check_duplicates(doc->root, "", &walk, diag);
    if (st != RTP_OK)
        rtp_json_close(doc);
    return st;
}

void rtp_json_close(rtp_json *doc)
{
    cJSON_Delete(doc->root);
    free(doc->numbers);
    memset(doc, 0, sizeof *doc);
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

const char *rtp_json_number_text(const rtp_json *doc, const cJSON *node, size_t *len)
{
    rtp_json_number key = {node, NULL, 0};
    const rtp_json_number *hit =
        bsearch(&key, doc->numbers, doc->n_numbers, sizeof key, by_node);
    if (!hit)
        return NULL;
    *len = hit->len;
    return hit->text;
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

rtp_status rtp_json_int(const rtp_json *doc, const cJSON *node, const char *path,
                        int64_t min, int64_t max, int64_t *out, rtp_diag *diag)
{
    size_t len = 0;
    const char *text = cJSON_IsNumber(node) ? rtp_json_number_text(doc, node, &len) : NULL;
    int64_t value;
    int too_big = 0;
    if (!text || !token_integer(text, len, &value, &too_big))
        return rtp_diag_set(diag, RTP_EINPUT, path, "must be a whole number (a JSON integer)");
    if (too_big || value < min || value > max)
        return rtp_diag_set(diag, RTP_EINPUT, path, "must be between %lld and %lld",
                            (long long)min, (long long)max);
    *out = value;
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
    if (cJSON_IsString(node)) {
        char why[128];
        if (rtp_duration_parse(node->valuestring, &value, why, sizeof why) != RTP_OK)
            return rtp_diag_set(diag, RTP_EINPUT, path, "%s (got \"%.40s\")", why,
                                node->valuestring);
    } else if (cJSON_IsNumber(node)) {
        size_t len = 0;
        const char *text = rtp_json_number_text(doc, node, &len);
        int64_t count;
        int too_big = 0;
        if (!text || !token_integer(text, len, &count, &too_big))
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
    if (!cJSON_IsString(node))
        return rtp_diag_set(diag, RTP_EINPUT, path, "must be a string");
    if (!allow_empty && node->valuestring[0] == '\0')
        return rtp_diag_set(diag, RTP_EINPUT, path, "must not be empty");
    *out = node->valuestring;
    return RTP_OK;
}

cJSON *rtp_json_new_int(int64_t value)
{
    char digits[32];
    snprintf(digits, sizeof digits, "%lld", (long long)value);
    return cJSON_CreateRaw(digits);
}

cJSON *rtp_json_new_time(rtp_ns value)
{
    if (value < RTP_JSON_INT_LIMIT && value > -RTP_JSON_INT_LIMIT)
        return rtp_json_new_int(value);
    char text[40];
    snprintf(text, sizeof text, "%lldns", (long long)value);
    return cJSON_CreateString(text);
}

cJSON *rtp_json_new_display(double value)
{
    char text[40];
    snprintf(text, sizeof text, "%.10g", value);
    if (!strchr(text, '.') && !strchr(text, 'e') && !strchr(text, 'n') && !strchr(text, 'i'))
        strcat(text, ".0");
    return cJSON_CreateRaw(text);
}

void rtp_json_add(int *bad, cJSON *object, const char *key, cJSON *v)
{
    if (!v || !cJSON_AddItemToObject(object, key, v)) {
        cJSON_Delete(v);
        *bad = 1;
    }
}

void rtp_json_push(int *bad, cJSON *array, cJSON *v)
{
    if (!v || !cJSON_AddItemToArray(array, v)) {
        cJSON_Delete(v);
        *bad = 1;
    }
}

char *rtp_json_print(const cJSON *root, int pretty)
{
    char *body = pretty ? cJSON_Print(root) : cJSON_PrintUnformatted(root);
    if (!body)
        return NULL;
    size_t len = strlen(body);
    char *out = malloc(len + 2);
    if (out) {
        memcpy(out, body, len);
        out[len] = '\n';
        out[len + 1] = '\0';
    }
    cJSON_free(body);
    return out;
}
