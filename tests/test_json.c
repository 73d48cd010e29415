/* tests/test_json.c — the one-pass reader (models/json_parse.c) against
 * today's reader (tests/support/json_reference.c): the same accept/reject,
 * diagnostic (message, path, line, column) and tree on every document of
 * examples/ and tests/golden/ (task sets, plans, sweeps, batch lines), on
 * hand-picked corner cases, and on seeded random mutations of all of them;
 * plus the two deliberate differences (strings cJSON cut short); and the
 * streaming writer (rtp_json_writer) against cJSON's printer on random
 * trees, compact and pretty; and the one CPU-list reader (rtp_json_cpu_list)
 * under each of its rules. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/json_reference.h"
#include "support/json_tree.h"
#include "support/testutil.h"

typedef struct corpus {
    char **text;
    size_t *len;
    size_t n, cap;
} corpus;

static void add(corpus *c, const char *text, size_t len)
{
    if (c->n == c->cap) {
        c->cap = c->cap ? 2 * c->cap : 64;
        c->text = realloc(c->text, c->cap * sizeof *c->text);
        c->len = realloc(c->len, c->cap * sizeof *c->len);
        assert_non_null(c->text);
        assert_non_null(c->len);
    }
    c->text[c->n] = malloc(len + 1);
    assert_non_null(c->text[c->n]);
    memcpy(c->text[c->n], text, len);
    c->text[c->n][len] = '\0';
    c->len[c->n++] = len;
}

/* Every .json file under dir (recursively), and every line of .jsonl files. */
static void add_folder(corpus *c, const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        size_t n = strlen(e->d_name);
        int json = n > 5 && strcmp(e->d_name + n - 5, ".json") == 0;
        int jsonl = n > 6 && strcmp(e->d_name + n - 6, ".jsonl") == 0;
        if (!json && !jsonl) {
            add_folder(c, path);
            continue;
        }
        FILE *f = fopen(path, "rb");
        assert_non_null(f);
        char *buf = malloc(1 << 22);
        assert_non_null(buf);
        size_t len = fread(buf, 1, (1 << 22) - 1, f);
        fclose(f);
        if (json) {
            add(c, buf, len);
        } else {
            for (size_t start = 0; start < len;) {
                const char *nl = memchr(buf + start, '\n', len - start);
                size_t end = nl ? (size_t)(nl - buf) : len;
                add(c, buf + start, end - start);
                start = end + 1;
            }
        }
        free(buf);
    }
    closedir(d);
}

static const char *const corners[] = {
    "", " ", "\n\n", "{", "[", "}", "]", "[1,", "[1 ", "{\"a\"", "{\"a\":", "{\"a\" 1}",
    "{\"a\":1,}", "[1,]", "[,1]", "01", "-", "-0", "-.5", "1.", "1e", "1e5", "1E+05", "[1e]",
    "[1.5.3]", "[1-2]", "--1", "[0x10]", "1e999", "-1e999", "123456789012345678901234567890",
    "[9007199254740993]", "[1234567890123456789012345678901234567890123456789012345678901234567]",
    "\"\\u0000\"", "{\"a\\u0000b\": 1}", "[\"x\\u0000\"]", "{\"a\":1,\"a\":2}",
    "{\"a\":{\"b\":1,\"b\":1}}", "[{\"k\":1},{\"k\":1,\"k\":2}]", "\"\\ud800\"", "\"\\udc00\"",
    "\"\\ud83d\\ude00\"", "\"\\ud83d\\u0041\"", "\"\\u00e9\\u20ac\"", "\"abc", "\"abc\\",
    "\"a\\qb\"", "\"\\/\\b\\f\\n\\r\\t\\\"\\\\\"", "nul", "null", "nullx", "true ", "false\t",
    "[true,false,null]", "\xEF\xBB\xBF{}", "\xEF\xBB\xBF", "{} x", "{}\x01", "\x01{}", "{}\r\n",
    "{\"tasks\": [{\"name\": \"a\", \"wcet\": 1, \"period\": 4}]}",
    "{\"tasks\": [{\"name\": \"a\", \"wcet\": 1.5, \"period\": 4}]}",
    "{\"tasks\": [{\"name\": \"a\", \"wcet\": 1e3, \"period\": 4}]}",
    "{\"tasks\": [{\"name\": \"a\", \"wcet\": -1, \"period\": 4}]}",
    "{\"tasks\": [{\"name\": \"a\", \"wcet\": 9007199254740993, \"period\": 4}]}",
    "{\"tasks\": [{\"name\": \"a\", \"wcet\": \"5ms\", \"period\": \"1s\", \"deadline\": 7}]}",
    /* plain integers (read eight digits at a time, marked RTP_JSON_PLAIN_INT)
     * around 2^53, 18 and 19 digits, leading zeros, -0, the end of the text,
     * and the bytes around '0'..'9' after the digits */
    "{\"tasks\": [{\"name\": \"a\", \"wcet\": 9007199254740991, \"period\": 9007199254740991}]}",
    "{\"tasks\": [{\"name\": \"a\", \"wcet\": 9007199254740992, \"period\": 4}]}",
    "{\"tasks\": [{\"name\": \"a\", \"wcet\": -9007199254740992, \"period\": 4}]}",
    "{\"tasks\": [{\"name\": \"a\", \"wcet\": 999999999999999999, \"period\": 4}]}",
    "{\"tasks\": [{\"name\": \"a\", \"wcet\": 1000000000000000000, \"period\": 4}]}",
    "{\"tasks\": [{\"name\": \"a\", \"wcet\": 00000007, \"period\": 000000000012}]}",
    "{\"tasks\": [{\"name\": \"a\", \"wcet\": -0, \"period\": 4}]}",
    "{\"tasks\": [{\"name\": \"a\", \"wcet\": 1, \"period\": 4, \"jitter\": -0}]}",
    "{\"tasks\": [{\"name\": \"a\", \"wcet\": 1, \"period\": 4, \"priority\": 1000001}]}",
    "{\"tasks\": [{\"name\": \"a\", \"wcet\": 1, \"period\": 4, \"priority\": 12345678}]}",
    "{\"tasks\": [{\"name\": \"a\", \"wcet\": 1, \"period\": 4, \"priority\": -1}]}",
    "{\"tasks\": [{\"name\": \"a\", \"wcet\": 1, \"period\": 4, \"priority\": 1e2}]}",
    "{\"platform\": {\"cpus\": 12345678}, \"tasks\": []}",
    "[12345678/1]", "[12345678:1]", "[1234567/]", "[123456789,1]", "[12345678.5]", "[1234567e1]",
    "[-12345678]", "[-123456789012345678]", "[-1234567890123456789]", "7", "12345678",
    "123456789", "-1", "1234567890123456789",
    /* strings around the 8-byte scan and the short copy: lengths 7 to 17,
     * an escape or a quote at each side of a word, near the end of the text */
    "[\"1234567\"]", "[\"12345678\"]", "[\"123456789\"]", "[\"123456789012345\"]",
    "[\"1234567890123456\"]", "[\"12345678901234567\"]", "[\"1234567\\n\"]",
    "[\"12345678\\t9\"]", "[\"\\\"2345678\"]", "\"abcdefghijklmnop\"", "\"abcdefgh\"",
    "\"abcdefg", "\"abcdefgh", "\"abcdefghijklmnopq\\", "{\"abcdefghijklmnop\":1}",
    "{\"abcdefgh\":1,\"abcdefgh\":2}",
    /* task keys matched by their kept length (or, escaped, as C strings):
     * near misses of every key, and escaped spellings of real ones */
    "{\"tasks\": [{\"n\\u0061me\": \"a\", \"w\\u0063et\": 1, \"period\": 4}]}",
    "{\"tasks\": [{\"name\": \"a\", \"wcet\": 1, \"period\": 4, \"deadlin\\u0065\": 3}]}",
    "{\"tasks\": [{\"name\": \"a\", \"wce\": 1, \"period\": 4}]}",
    "{\"tasks\": [{\"name\": \"a\", \"wcetx\": 1, \"period\": 4}]}",
    "{\"tasks\": [{\"nam\": \"a\", \"wcet\": 1, \"period\": 4}]}",
    "{\"tasks\": [{\"name\": \"a\", \"wcet\": 1, \"periods\": 4}]}",
    "{\"tasks\": [{\"name\": \"a\", \"wcet\": 1, \"period\": 4, \"priorit\": 1}]}",
    "{\"tasks\": [{\"name\": \"a\", \"wcet\": 1, \"period\": 4, \"p\": 1}]}",
    "{\"tasks\": [{\"name\": \"a\", \"wcet\": 1, \"period\": 4, \"\": 1}]}",
    "{\"tasks\": [{\"name\": \"a\", \"wcet\": 1, \"period\": 4, \"deadlines\": 1}]}",
    ("{\"tasks\": [{\"name\": \"a\", \"wcet\": 1, \"period\": 4, \"jitter\": 1, "
     "\"blocking\": 2, \"cmd\": \"x\", \"affinity\": [0], \"priority\": 3, \"deadline\": 4}]}"),
    "{\"tasks\": [{\"name\": \"a\", \"wcet\": 1, \"period\": 4, \"jitters\": 1}]}",
    "{\"tasks\": [{\"name\": \"a\", \"wcet\": 1, \"period\": 4, \"blockin\": 1}]}",
    "{\"tasks\": [{\"name\": \"a\", \"wcet\": 1, \"period\": 4, \"cm\": 1}]}",
    "{\"tasks\": [{\"name\": \"a\", \"wcet\": 1, \"period\": 4, \"affinityy\": [0]}]}",
};

static char *nested(size_t depth, int with_error)
{
    char *t = malloc(2 * depth + 8);
    size_t n = 0;
    for (size_t i = 0; i < depth; i++)
        t[n++] = '[';
    if (with_error)
        t[n++] = 'x';
    for (size_t i = 0; i < depth; i++)
        t[n++] = ']';
    t[n] = '\0';
    return t;
}

static void expect_agree(const char *text, size_t len)
{
    char why[1024];
    if (rtp_json_differ(text, len, why, sizeof why)) {
        FILE *f = fopen("test_json_failure.json", "wb"); /* for a closer look */
        if (f) {
            fwrite(text, 1, len, f);
            fclose(f);
        }
        fail_msg("readers differ on %zu bytes \"%.200s\": %s", len, text, why);
    }
}

static void test_corners(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof corners / sizeof *corners; i++)
        expect_agree(corners[i], strlen(corners[i]));
    for (size_t depth = 998; depth <= 1002; depth++) {
        for (int err = 0; err < 2; err++) {
            char *t = nested(depth, err);
            expect_agree(t, strlen(t));
            free(t);
        }
    }
}

/* The two texts today's reader read wrongly: the fast reader rejects them. */
static void test_deliberate_differences(void **state)
{
    (void)state;
    static const char raw_nul[] = "{\"tasks\": [{\"name\": \"a\", \"wcet\": \"5ms\0junk\", \"period\": 9}]}";
    rtp_json doc;
    rtp_diag d;
    rtp_diag_clear(&d);
    assert_int_equal(rtp_json_open(&doc, raw_nul, sizeof raw_nul - 1, &d), RTP_EINPUT);
    assert_string_equal(d.path, "tasks[0].wcet");
    assert_string_equal(d.message, "a string must not contain U+0000");
    static const char bad_hex[] = "{\"tasks\": [{\"name\": \"a\\uzzzzb\", \"wcet\": 1, \"period\": 9}]}";
    rtp_diag_clear(&d);
    assert_int_equal(rtp_json_open(&doc, bad_hex, sizeof bad_hex - 1, &d), RTP_EINPUT);
    assert_string_equal(d.message, "not valid JSON");
    assert_int_equal(d.line, 1);
    assert_int_equal(d.column, 23); /* on the backslash */
    char why[512];
    assert_int_equal(rtp_json_differ(raw_nul, sizeof raw_nul - 1, why, sizeof why), 0);
    assert_int_equal(rtp_json_differ(bad_hex, sizeof bad_hex - 1, why, sizeof why), 0);
}

/* One random edit: a byte changed, a JSON-ish token inserted, a span deleted
 * or duplicated, or the text cut short. */
static size_t mutate(tu_rng *rng, char *buf, size_t len, size_t cap)
{
    static const char *const tokens[] = {"\"", "\\", "\\u0000", "\\u00", ",", ":", "{", "}",
                                         "[", "]", "0", "-", "e", ".", "1e5", " ", "\n", "\0",
                                         "null", "\"name\"", "\"a\":1,", "9007199254740993"};
    size_t at = len ? (size_t)tu_range(rng, 0, (int64_t)len) : 0;
    switch (tu_range(rng, 0, 4)) {
    case 0:
        if (len)
            buf[at < len ? at : len - 1] = (char)tu_range(rng, 0, 255);
        break;
    case 1: {
        size_t k = (size_t)tu_range(rng, 0, sizeof tokens / sizeof *tokens - 1);
        size_t n = tokens[k][0] ? strlen(tokens[k]) : 1;
        if (len + n < cap) {
            memmove(buf + at + n, buf + at, len - at);
            memcpy(buf + at, tokens[k], n);
            len += n;
        }
        break;
    }
    case 2: {
        size_t n = (size_t)tu_range(rng, 0, 8);
        if (at + n > len)
            n = len - at;
        memmove(buf + at, buf + at + n, len - at - n);
        len -= n;
        break;
    }
    case 3: {
        size_t n = (size_t)tu_range(rng, 1, 24);
        if (at + n <= len && len + n < cap) {
            memmove(buf + at + n, buf + at, len - at);
            len += n; /* the span at..at+n is now doubled */
        }
        break;
    }
    default:
        len = at;
    }
    return len;
}

static void test_corpus_and_mutations(void **state)
{
    (void)state;
    corpus c = {0};
    add_folder(&c, tu_source_path("examples"));
    add_folder(&c, tu_source_path("tests/golden"));
    for (size_t i = 0; i < sizeof corners / sizeof *corners; i++)
        add(&c, corners[i], strlen(corners[i]));
    assert_true(c.n > 40);
    tu_rng rng = {20261204};
    size_t checked = 0;
    for (size_t i = 0; i < c.n; i++) {
        expect_agree(c.text[i], c.len[i]);
        checked++;
        /* mutations of the first 4 KiB (longer documents are cut there) */
        size_t base = c.len[i] < 4096 ? c.len[i] : 4096;
        size_t cap = base + 256;
        char *buf = malloc(cap);
        assert_non_null(buf);
        for (int m = 0; m < 300; m++) {
            memcpy(buf, c.text[i], base);
            size_t len = base;
            int edits = (int)tu_range(&rng, 1, 3);
            for (int e = 0; e < edits; e++)
                len = mutate(&rng, buf, len, cap);
            expect_agree(buf, len);
            checked++;
        }
        free(buf);
        free(c.text[i]);
    }
    free(c.text);
    free(c.len);
    print_message("%zu documents compared\n", checked);
}

/* ---- the streaming writer against cJSON's printer ---- */

/* A random tree of objects, arrays, strings (any byte but NUL), integers
 * (as tu_json_new_int's raw digits), booleans and nulls. */
static cJSON *random_tree(tu_rng *rng, int depth)
{
    int kind = (int)tu_range(rng, 0, depth >= 4 ? 3 : 5);
    if (kind == 0) {
        char s[16];
        size_t n = (size_t)tu_range(rng, 0, sizeof s - 1);
        for (size_t i = 0; i < n; i++)
            s[i] = (char)tu_range(rng, 1, 255);
        s[n] = '\0';
        return cJSON_CreateString(s);
    }
    if (kind == 1)
        return tu_json_new_int(tu_range(rng, INT64_MIN + 1, INT64_MAX));
    if (kind == 2)
        return cJSON_CreateBool((int)tu_range(rng, 0, 1));
    if (kind == 3)
        return cJSON_CreateNull();
    cJSON *c = kind == 4 ? cJSON_CreateObject() : cJSON_CreateArray();
    int n = (int)tu_range(rng, 0, 4);
    for (int i = 0; i < n; i++) {
        cJSON *child = random_tree(rng, depth + 1);
        if (kind == 4) {
            char key[32];
            snprintf(key, sizeof key, "k%d\t\"%d", i, (int)tu_range(rng, 0, 9));
            cJSON_AddItemToObject(c, key, child);
        } else {
            cJSON_AddItemToArray(c, child);
        }
    }
    return c;
}

static void write_tree(rtp_json_writer *w, const cJSON *node, const char *key)
{
    if (cJSON_IsObject(node) || cJSON_IsArray(node)) {
        rtp_jw_open(w, key, cJSON_IsObject(node));
        for (const cJSON *c = node->child; c; c = c->next)
            write_tree(w, c, c->string);
        rtp_jw_close(w);
    } else if (cJSON_IsString(node)) {
        rtp_jw_string(w, key, node->valuestring);
    } else if (cJSON_IsRaw(node)) {
        rtp_jw_int(w, key, strtoll(node->valuestring, NULL, 10));
    } else if (cJSON_IsBool(node)) {
        rtp_jw_bool(w, key, cJSON_IsTrue(node));
    } else {
        rtp_jw_null(w, key);
    }
}

static void test_writer_as_cjson(void **state)
{
    (void)state;
    tu_rng rng = {17};
    for (int k = 0; k < 3000; k++) {
        cJSON *tree = random_tree(&rng, 0);
        for (int pretty = 0; pretty < 2; pretty++) {
            char *want = tu_json_print(tree, pretty);
            rtp_text text;
            rtp_text_init(&text);
            rtp_json_writer w;
            rtp_jw_init(&w, &text, pretty);
            write_tree(&w, tree, NULL);
            assert_int_equal(rtp_jw_end(&w), RTP_OK);
            char *got = rtp_text_take(&text);
            assert_non_null(want);
            assert_non_null(got);
            if (strcmp(want, got) != 0)
                fail_msg("writer differs from cJSON (pretty %d):\n%s\nvs\n%s", pretty, got, want);
            free(want);
            free(got);
        }
        cJSON_Delete(tree);
    }
    /* times and display values as the tree writers make them */
    static const rtp_ns times[] = {1, 9007199254740991, 9007199254740992, 4611686018427387904};
    static const double shown[] = {0.0, 1.0, 0.95, 1.0000000001, 123456789012.5, 1e-7};
    for (size_t i = 0; i < 4; i++) {
        cJSON *a = cJSON_CreateArray();
        cJSON_AddItemToArray(a, tu_json_new_time(times[i]));
        cJSON_AddItemToArray(a, tu_json_new_display(shown[i]));
        cJSON_AddItemToArray(a, tu_json_new_display(shown[i + 2]));
        char *want = tu_json_print(a, 0);
        rtp_text text;
        rtp_text_init(&text);
        rtp_json_writer w;
        rtp_jw_init(&w, &text, 0);
        rtp_jw_open(&w, NULL, 0);
        rtp_jw_time(&w, NULL, times[i]);
        rtp_jw_display(&w, NULL, shown[i]);
        rtp_jw_display(&w, NULL, shown[i + 2]);
        rtp_jw_close(&w);
        assert_int_equal(rtp_jw_end(&w), RTP_OK);
        char *got = rtp_text_take(&text);
        assert_string_equal(got, want);
        free(want);
        free(got);
        cJSON_Delete(a);
    }
}

/* The writer's integers against printf's, independently of cJSON (the tree
 * writers share the writer's digit code): every power of ten and its
 * neighbours, the extremes, and 200,000 seeded values of every length. Two
 * values per document, so the buffer is appended to as a batch thread does. */
static void test_writer_integers(void **state)
{
    (void)state;
    int64_t fixed[64];
    size_t nf = 0;
    int64_t p = 1;
    for (int e = 0; e <= 18; e++) {
        fixed[nf++] = p - 1;
        fixed[nf++] = p;
        fixed[nf++] = -p;
        if (e < 18)
            p *= 10;
    }
    fixed[nf++] = INT64_MAX;
    fixed[nf++] = INT64_MIN + 1;
    fixed[nf++] = INT64_MIN;
    tu_rng rng = {23};
    rtp_text text;
    rtp_text_init(&text);
    for (size_t k = 0; k < 200000 + nf; k++) {
        int64_t v = k < nf ? fixed[k] : (int64_t)(tu_next(&rng) >> tu_range(&rng, 0, 63));
        if (k >= nf && (k & 1))
            v = -v;
        size_t at = text.len;
        rtp_json_writer w;
        rtp_jw_init(&w, &text, 0);
        rtp_jw_open(&w, NULL, 0);
        rtp_jw_int(&w, NULL, v);
        rtp_jw_int(&w, NULL, v / 7);
        rtp_jw_close(&w);
        assert_int_equal(rtp_jw_end(&w), RTP_OK);
        char want[64];
        snprintf(want, sizeof want, "[%" PRId64 ",%" PRId64 "]\n", v, v / 7);
        assert_string_equal(text.data + at, want);
        if (text.len > 4096)
            text.len = 0;
    }
    rtp_text_free(&text);
}

/* ---- the CPU-list reader ---- */

/* Reads `text` (a JSON value) under `rules`: RTP_OK with `want` ids
 * (count first), or the status with `path` and `message`. */
static void cpu_list_case(const char *text, unsigned rules, rtp_status want_st,
                          const char *path, const char *message, size_t count, ...)
{
    rtp_json doc;
    rtp_diag d;
    rtp_diag_clear(&d);
    assert_int_equal(rtp_json_open(&doc, text, strlen(text), &d), RTP_OK);
    static int untouched;
    int *ids = &untouched; /* must stay so on an error */
    size_t n = 12345;
    rtp_status st = rtp_json_cpu_list(&doc, doc.root, "x.cpus", rules, &ids, &n, &d);
    rtp_json_close(&doc);
    if (st != want_st)
        fail_msg("%s (rules %u): status %d, want %d: %s %s", text, rules, (int)st, (int)want_st,
                 d.path, d.message);
    if (st != RTP_OK) {
        assert_string_equal(d.path, path);
        assert_string_equal(d.message, message);
        assert_ptr_equal(ids, &untouched);
        assert_int_equal(n, 12345);
        return;
    }
    assert_non_null(ids);
    assert_int_equal(n, count);
    va_list ap;
    va_start(ap, count);
    for (size_t i = 0; i < count; i++)
        assert_int_equal(ids[i], va_arg(ap, int));
    va_end(ap);
    free(ids);
}

static void test_cpu_list_rules(void **state)
{
    (void)state;
    const unsigned both = RTP_CPUS_NONEMPTY | RTP_CPUS_DISTINCT;
    for (unsigned rules = 0; rules <= both; rules++) {
        /* every rule: a list of ids in 0..4095, in the order given */
        cpu_list_case("[3, 0, 4095]", rules, RTP_OK, "", "", 3, 3, 0, 4095);
        cpu_list_case("{\"a\": 1}", rules, RTP_EINPUT, "x.cpus", "must be a list of CPU ids", 0);
        cpu_list_case("2", rules, RTP_EINPUT, "x.cpus", "must be a list of CPU ids", 0);
        cpu_list_case("[0, 4096]", rules, RTP_EINPUT, "x.cpus[1]", "must be between 0 and 4095",
                      0);
        cpu_list_case("[-1]", rules, RTP_EINPUT, "x.cpus[0]", "must be between 0 and 4095", 0);
        cpu_list_case("[1, \"2\"]", rules, RTP_EINPUT, "x.cpus[1]",
                      "must be a whole number (a JSON integer)", 0);
        cpu_list_case("[1.0]", rules, RTP_EINPUT, "x.cpus[0]",
                      "must be a whole number (a JSON integer)", 0);
        /* the two rules that differ between documents */
        if (rules & RTP_CPUS_NONEMPTY)
            cpu_list_case("[]", rules, RTP_EINPUT, "x.cpus", "must not be empty", 0);
        else
            cpu_list_case("[]", rules, RTP_OK, "", "", 0);
        if (rules & RTP_CPUS_DISTINCT)
            cpu_list_case("[2, 5, 2]", rules, RTP_EINPUT, "x.cpus[2]", "CPU 2 is listed twice",
                          0);
        else
            cpu_list_case("[2, 5, 2]", rules, RTP_OK, "", "", 3, 2, 5, 2);
    }
    /* the first error in document order is the one reported */
    cpu_list_case("[7, 7, 5000]", RTP_CPUS_DISTINCT, RTP_EINPUT, "x.cpus[1]",
                  "CPU 7 is listed twice", 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_corners),
        cmocka_unit_test(test_deliberate_differences),
        cmocka_unit_test(test_corpus_and_mutations),
        cmocka_unit_test(test_writer_as_cjson),
        cmocka_unit_test(test_writer_integers),
        cmocka_unit_test(test_cpu_list_rules),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
