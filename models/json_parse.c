/* models/json_parse.c — rtp_json_open: the one-pass strict reader behind
 * every document of models/ (see json_util.h).
 *
 * One walk over the text builds the cJSON tree the readers walk, with every
 * node and string in an arena owned by the rtp_json (two or three mallocs per
 * document instead of one per node and string), remembers each number's
 * token text in its node and converts a plain integer token once, exactly
 * (RTP_JSON_PLAIN_INT), keeps each plain key's length (rtp_json_key_len),
 * rejects duplicate keys and U+0000 as the keys and strings are met, and
 * formats a JSON path or a line and column only when it reports an error.
 * Strings and digits are scanned eight bytes at a time.
 *
 * It accepts exactly the texts cJSON 1.7.15 accepts and stops at the same
 * byte on a syntax error (the same line and column), so its diagnostics are
 * the ones rtpack always gave; the differential tests (tests/test_json.c,
 * fuzz/fuzz_json.c) hold it to that against tests/support/json_reference.c,
 * today's cJSON-based reader. Two deliberate differences, both texts cJSON
 * silently changed: a raw NUL byte inside a string is U+0000 (cJSON cut the
 * string there) and a \u escape without four hex digits is a syntax error
 * (cJSON read it as U+0000 and cut the string). */
#include "models/json_util.h"

#include <stdalign.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the arena: blocks of at least the requested size, never moved ---- */

typedef struct block {
    struct block *next;
    size_t size, used;
    int borrowed; /* the caller's scratch: never freed here */
    alignas(max_align_t) unsigned char data[];
} block;

/* A new block in front of *head for `size` bytes (rounded), the first of it
 * handed out; NULL when out of memory. */
static void *arena_grow(block **head, size_t size, size_t hint)
{
    block *b = *head;
    size_t want = b ? 2 * b->size : hint;
    if (want < size)
        want = size;
    block *fresh = malloc(sizeof *fresh + want);
    if (!fresh)
        return NULL;
    fresh->next = b;
    fresh->size = want;
    fresh->used = size;
    fresh->borrowed = 0;
    *head = fresh;
    return fresh->data;
}

/* Inline: a task set takes one of these per node and per string. */
enum { GRAIN = alignof(max_align_t) }; /* every size is rounded up to a multiple */

static inline void *arena_alloc(block **head, size_t size, size_t hint)
{
    size = (size + GRAIN - 1) & ~((size_t)GRAIN - 1);
    block *b = *head;
    if (!b || b->size - b->used < size)
        return arena_grow(head, size, hint);
    void *p = b->data + b->used;
    b->used += size;
    return p;
}

static void arena_free(block *b)
{
    while (b) {
        block *next = b->next;
        if (!b->borrowed)
            free(b);
        b = next;
    }
}

/* ---- the parser ---- */

/* One open array or object: its current child, and that child's index. */
typedef struct frame {
    const cJSON *child;
    size_t index;
    int in_object;
} frame;

typedef struct parser {
    const unsigned char *s;
    size_t len, off, depth;
    block *arena;
    size_t hint;           /* size of the first arena block */
    rtp_diag *diag;
    rtp_status semantic;   /* first duplicate key or U+0000, reported after the
                            * whole text parsed (a syntax error wins) */
    int nomem;
    frame frames[CJSON_NESTING_LIMIT + 1];
} parser;

static inline void *alloc(parser *p, size_t size)
{
    void *m = arena_alloc(&p->arena, size, p->hint);
    if (!m)
        p->nomem = 1;
    return m;
}

/* White space as cJSON skips it (every byte up to 32); at the end of the
 * text it steps back onto the last byte, as cJSON does, which is where a
 * syntax error at the end is then reported. */
static inline void skip_ws(parser *p)
{
    if (p->off >= p->len || p->s[p->off] > 32) /* compact text: nothing to skip */
        return;
    while (p->off < p->len && p->s[p->off] <= 32)
        p->off++;
    if (p->off == p->len)
        p->off--;
}

/* The path of the member being read (frames 0..depth-1), in the form of
 * rtp_json_path_key/index; only called to report an error. */
static void current_path(const parser *p, char *out, size_t size)
{
    char prev[sizeof ((rtp_diag *)0)->path] = "";
    out[0] = '\0';
    for (size_t d = 0; d < p->depth; d++) {
        const frame *f = &p->frames[d];
        if (f->in_object)
            rtp_json_path_key(out, size, prev, f->child && f->child->string ? f->child->string : "");
        else
            rtp_json_path_index(out, size, prev, f->index);
        snprintf(prev, sizeof prev, "%s", out);
    }
}

static void semantic_error(parser *p, const char *what)
{
    if (p->semantic != RTP_OK)
        return;
    char path[sizeof ((rtp_diag *)0)->path];
    current_path(p, path, sizeof path);
    p->semantic = rtp_diag_set(p->diag, RTP_EINPUT, path, "%s", what);
}

static int hex4(const unsigned char *h, unsigned *out)
{
    unsigned v = 0;
    for (int i = 0; i < 4; i++) {
        unsigned char c = h[i];
        unsigned d = c >= '0' && c <= '9'   ? (unsigned)(c - '0')
                     : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10)
                     : c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10)
                                            : 16u;
        if (d == 16)
            return 0;
        v = v * 16 + d;
    }
    *out = v;
    return 1;
}

/* One \u escape (or a surrogate pair) at `in` (before `end`, the closing
 * quote) written as UTF-8 at *out; the bytes of input used, 0 when invalid. */
static size_t unicode_escape(const unsigned char *in, const unsigned char *end, char **out,
                             int *nul)
{
    unsigned first, second, cp;
    if (end - in < 6 || !hex4(in + 2, &first) || (first >= 0xDC00 && first <= 0xDFFF))
        return 0;
    size_t used = 6;
    cp = first;
    if (first >= 0xD800 && first <= 0xDBFF) {
        if (end - in < 12 || in[6] != '\\' || in[7] != 'u' || !hex4(in + 8, &second) ||
            second < 0xDC00 || second > 0xDFFF)
            return 0;
        cp = 0x10000 + (((first & 0x3FF) << 10) | (second & 0x3FF));
        used = 12;
    }
    unsigned char *o = (unsigned char *)*out;
    if (cp < 0x80) {
        *o++ = (unsigned char)cp;
        *nul |= cp == 0;
    } else if (cp < 0x800) {
        *o++ = (unsigned char)(0xC0 | (cp >> 6));
        *o++ = (unsigned char)(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        *o++ = (unsigned char)(0xE0 | (cp >> 12));
        *o++ = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
        *o++ = (unsigned char)(0x80 | (cp & 0x3F));
    } else {
        *o++ = (unsigned char)(0xF0 | (cp >> 18));
        *o++ = (unsigned char)(0x80 | ((cp >> 12) & 0x3F));
        *o++ = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
        *o++ = (unsigned char)(0x80 | (cp & 0x3F));
    }
    *out = (char *)o;
    return used;
}

/* Non-zero when one of the 8 bytes at s is a quote, a backslash or NUL, its
 * lowest set bit in the first such byte, so a string is scanned 8 bytes at a
 * time: (v - 0x01..01) & ~v & 0x80..80 is non-zero exactly when some byte of
 * v is zero, and exact in the lowest such byte (a borrow only goes up), and
 * x ^ c has a zero byte where x has byte c. */
static inline uint64_t special8(const unsigned char *s)
{
    const uint64_t ones = 0x0101010101010101u, high = 0x8080808080808080u;
    uint64_t x, q, b;
    memcpy(&x, s, 8);
    q = x ^ (ones * '"');
    b = x ^ (ones * '\\');
    return (((x - ones) & ~x) | ((q - ones) & ~q) | ((b - ones) & ~b)) & high;
}

/* A string at p->off (on its opening quote): the unescaped text, NUL
 * terminated, in the arena; *nul when it holds U+0000. NULL on a syntax
 * error, with p->off where cJSON stops: just after the opening quote when the
 * string does not end, on the backslash of a bad escape. */
static char *unescape(parser *p, char *out, size_t start, size_t end, int *nul);

/* Inline (keys and values of every member come here); escapes are
 * unescape's. */
static inline __attribute__((always_inline)) char *parse_string(parser *p, int *nul,
                                                                 size_t *plain_len)
{
    size_t start = p->off + 1, end = start;
    int escapes = 0;
    *nul = 0;
    if (p->s[p->off] != '"') {
        p->off = start; /* cJSON stops one byte on */
        return NULL;
    }
    uint64_t special = 0;
    while (end + 8 <= p->len && !(special = special8(p->s + end)))
        end += 8;
    if (special) /* on to the first quote, backslash or NUL */
        end += (size_t)__builtin_ctzll(special) / 8;
    while (end < p->len && p->s[end] != '"') {
        unsigned char c = p->s[end];
        if (c == '\\') {
            if (end + 1 >= p->len) {
                p->off = start;
                return NULL;
            }
            escapes = 1;
            end++;
        } else if (c == '\0') {
            *nul = 1;
        }
        end++;
    }
    if (end >= p->len) {
        p->off = start;
        return NULL;
    }
    size_t n = end - start;
    char *out = alloc(p, n + 1);
    if (!out)
        return NULL;
    if (!escapes) {
        /* a short string (most keys and names) in one fixed-size copy, which
         * alloc's rounding of sizes to a multiple of GRAIN leaves room for */
        if (n < GRAIN && start + GRAIN <= p->len)
            memcpy(out, p->s + start, GRAIN);
        else
            memcpy(out, p->s + start, n);
        out[n] = '\0';
        p->off = end + 1;
        *plain_len = n;
        return out;
    }
    *plain_len = 0;
    return unescape(p, out, start, end, nul);
}

/* The text of the string p->s[start, end) with escapes, into out (room for
 * end - start + 1 bytes); as parse_string. */
static char *unescape(parser *p, char *out, size_t start, size_t end, int *nul)
{
    char *o = out;
    const unsigned char *in = p->s + start, *stop = p->s + end;
    while (in < stop) {
        if (*in != '\\') {
            *o++ = (char)*in++;
            continue;
        }
        size_t used = 2;
        switch (in[1]) {
        case 'b': *o++ = '\b'; break;
        case 'f': *o++ = '\f'; break;
        case 'n': *o++ = '\n'; break;
        case 'r': *o++ = '\r'; break;
        case 't': *o++ = '\t'; break;
        case '"': case '\\': case '/': *o++ = (char)in[1]; break;
        case 'u':
            used = unicode_escape(in, stop, &o, nul);
            break;
        default:
            used = 0;
        }
        if (used == 0) {
            p->off = (size_t)(in - p->s);
            return NULL;
        }
        in += used;
    }
    *o = '\0';
    p->off = end + 1;
    return out;
}

/* The value of the digits at t (at least 8 bytes readable) in *v, up to 8
 * of them; how many (0 to 8). Bytes minus '0' are 0..9 exactly for digits;
 * a byte past the first non-digit may be garbled by a borrow or carry from
 * below it, which matters not; the digits, shifted to the top bytes, are
 * then summed in pairs, fours and eights by three multiplications. */
static inline size_t eight_digits(const unsigned char *t, uint64_t *v)
{
    const uint64_t zeros = 0x3030303030303030u, high = 0x8080808080808080u;
    uint64_t x;
    memcpy(&x, t, 8);
    x -= zeros;
    uint64_t not_digit = ((x + 0x7676767676767676u) | x) & high;
    size_t n = not_digit ? (size_t)__builtin_ctzll(not_digit) / 8 : 8;
    if (n == 0)
        return 0;
    x <<= 8 * (8 - n); /* drops the bytes past the digits */
    x = (x * 2561) >> 8; /* 10 * 256 + 1 */
    x = ((x & 0x00FF00FF00FF00FFu) * 6553601) >> 16; /* 100 * 65536 + 1 */
    *v = ((x & 0x0000FFFF0000FFFFu) * 42949672960001u) >> 32; /* 10000 * 2^32 + 1 */
    return n;
}

static int number_char(unsigned char c)
{
    return (c >= '0' && c <= '9') || c == '+' || c == '-' || c == 'e' || c == 'E' || c == '.';
}

/* The rest of parse_number, out of line: the run of number characters at t
 * (at least `from` of them, at most `left`) read by strtod into *value; the
 * bytes it used, 0 when none (or out of memory, p->nomem set). */
static size_t strtod_token(parser *p, const unsigned char *t, size_t from, size_t left,
                           double *value)
{
    size_t n = from;
    while (n < left && number_char(t[n]))
        n++;
    char small[64], *copy = n < sizeof small ? small : malloc(n + 1), *after;
    if (!copy) {
        p->nomem = 1;
        return 0;
    }
    memcpy(copy, t, n);
    copy[n] = '\0';
    *value = strtod(copy, &after);
    size_t used = (size_t)(after - copy);
    if (copy != small)
        free(copy);
    return used;
}

/* A number at p->off: the token is the longest prefix strtod reads of the
 * run of number characters there, as cJSON reads it (Debian's 1.7.15 reads
 * the whole run since the fix of CVE-2023-26819). Plain integers of up to
 * 18 digits are converted here (exactly, and to the double strtod gives);
 * anything else goes through strtod (strtod_token, out of line: this is
 * inline, three per task). */
static inline __attribute__((always_inline)) int parse_number(parser *p, cJSON *node)
{
    const unsigned char *t = p->s + p->off;
    size_t left = p->len - p->off, first = t[0] == '-', i = first;
    int64_t v = 0;
    /* one walk for the common token, a plain integer ended by a byte that
     * is no number character */
    if (i + 8 <= left) {
        uint64_t head = 0;
        size_t n = eight_digits(t + i, &head);
        v = (int64_t)head;
        i += n;
    }
    while (i < left && i - first < 18 && t[i] >= '0' && t[i] <= '9') {
        v = v * 10 + (t[i] - '0');
        i++;
    }
    size_t used;
    if (i > first && (i == left || !number_char(t[i]))) {
        node->valuedouble = first ? -(double)v : (double)v;
        node->type = RTP_JSON_PLAIN_INT;
        used = i;
    } else if (!(used = strtod_token(p, t, i, left, &node->valuedouble))) {
        return 0;
    }
    node->type |= cJSON_Number | cJSON_IsReference;
    /* the token text and its length, for rtp_json_number_text (a reference:
     * never freed) */
    node->valuestring = (char *)t;
    node->valueint = (int)used;
    p->off += used;
    return 1;
}

static int parse_value(parser *p, cJSON *node);

/* A string value at p->off (on its quote). */
static inline __attribute__((always_inline)) int string_value(parser *p, cJSON *node)
{
    int nul;
    size_t len;
    if (!(node->valuestring = parse_string(p, &nul, &len)))
        return 0;
    node->type = cJSON_String;
    if (nul)
        semantic_error(p, p->depth > 0 ? "a string must not contain U+0000"
                                       : "strings must not contain U+0000");
    return 1;
}

/* 1 when the byte at p->off is c: where compact text has the byte a step
 * expects, skip_ws need not run. */
static inline int at(const parser *p, unsigned char c)
{
    return p->off < p->len && p->s[p->off] == c;
}

/* Keys of one object met so far: compared pairwise while few, then hashed. */
typedef struct keys {
    size_t count;
    rtp_nameset set;
} keys;

static int key_seen(parser *p, keys *k, const cJSON *first, const cJSON *last)
{
    if (k->count++ < 16) {
        for (const cJSON *c = first; c != last; c = c->next)
            if (rtp_same_string(c->string, last->string))
                return 1;
        return 0;
    }
    if (!k->set.slots) {
        if (rtp_nameset_init(&k->set, 64) != RTP_OK) {
            p->nomem = 1;
            return 0;
        }
        for (const cJSON *c = first; c != last; c = c->next)
            rtp_nameset_add(&k->set, c->string);
    } else if (2 * k->count + 1 > k->set.capacity) {
        rtp_nameset bigger;
        if (rtp_nameset_init(&bigger, 2 * k->count) != RTP_OK) {
            p->nomem = 1;
            return 0;
        }
        for (const cJSON *c = first; c != last; c = c->next)
            rtp_nameset_add(&bigger, c->string);
        rtp_nameset_free(&k->set);
        k->set = bigger;
    }
    return rtp_nameset_add(&k->set, last->string);
}

/* An array (object when `object`): cJSON's steps, offsets included. */
static int parse_container(parser *p, cJSON *node, int object)
{
    if (p->depth >= CJSON_NESTING_LIMIT)
        return 0;
    frame *f = &p->frames[p->depth++];
    f->child = NULL;
    f->index = 0;
    f->in_object = object;
    keys k = {0, {NULL, 0, 0}};
    cJSON *head = NULL, *tail = NULL;
    int ok = 0;
    const unsigned char close = object ? '}' : ']';
    p->off++;
    skip_ws(p);
    if (p->off < p->len && p->s[p->off] == close)
        goto finish;
    if (p->off >= p->len) {
        p->off--;
        goto done;
    }
    p->off--;
    do {
        cJSON *c = alloc(p, sizeof *c);
        if (!c)
            goto done;
        memset(c, 0, sizeof *c);
        if (tail) {
            tail->next = c;
            c->prev = tail;
            f->index++;
        } else {
            head = c;
        }
        tail = c;
        f->child = c;
        p->off++;
        size_t key_len = 0;
        if (object) {
            int nul;
            if (!at(p, '"'))
                skip_ws(p);
            if (p->off >= p->len || !(c->string = parse_string(p, &nul, &key_len)))
                goto done;
            if (nul || key_len > RTP_JSON_KEY_LEN_MAX)
                key_len = 0;
            if (nul)
                semantic_error(p, "a key must not contain U+0000");
            else if (p->semantic == RTP_OK && key_seen(p, &k, head, c))
                semantic_error(p, "duplicate key");
            if (!at(p, ':')) {
                skip_ws(p);
                if (!at(p, ':'))
                    goto done;
            }
            p->off++;
        }
        skip_ws(p);
        /* the common values here, the rest through parse_value */
        int ok_value = at(p, '"') ? string_value(p, c)
                       : p->off < p->len && p->s[p->off] >= '0' && p->s[p->off] <= '9'
                           ? parse_number(p, c)
                           : parse_value(p, c);
        if (!ok_value)
            goto done;
        c->type |= (int)(key_len << RTP_JSON_KEY_LEN_SHIFT); /* after the value set its type */
        if (!at(p, ','))
            skip_ws(p);
    } while (at(p, ','));
    if (p->off >= p->len || p->s[p->off] != close)
        goto done;
finish:
    if (head)
        head->prev = tail;
    node->type = object ? cJSON_Object : cJSON_Array;
    node->child = head;
    p->off++;
    p->depth--;
    ok = 1;
done:
    if (k.set.slots) /* past 16 keys only: no call per object */
        rtp_nameset_free(&k.set);
    return ok && !p->nomem;
}

static int parse_value(parser *p, cJSON *node)
{
    const unsigned char *t = p->s + p->off;
    size_t left = p->len - p->off;
    if (left == 0)
        return 0;
    /* cJSON tries the three literals first; their first letters start
     * nothing else, so one look at the byte picks the same branch */
    if (*t == 'n' && left >= 4 && memcmp(t, "null", 4) == 0) {
        node->type = cJSON_NULL;
        p->off += 4;
        return 1;
    }
    if (*t == 'f' && left >= 5 && memcmp(t, "false", 5) == 0) {
        node->type = cJSON_False;
        p->off += 5;
        return 1;
    }
    if (*t == 't' && left >= 4 && memcmp(t, "true", 4) == 0) {
        node->type = cJSON_True;
        node->valueint = 1;
        p->off += 4;
        return 1;
    }
    if (*t == '"')
        return string_value(p, node);
    if (*t == '-' || (*t >= '0' && *t <= '9'))
        return parse_number(p, node);
    if (*t == '[' || *t == '{')
        return parse_container(p, node, *t == '{');
    return 0;
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

/* Open arrays and objects at byte `at` (brackets inside strings skipped): a
 * parse that stops at the nesting limit is not a syntax error. */
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

rtp_status rtp_json_syntax_error(const char *text, size_t len, size_t at, int after_document,
                                 rtp_diag *diag)
{
    /* Deeper nesting is the reader's limit (exit 3), not a syntax error. */
    rtp_status st = RTP_EINPUT;
    if (after_document)
        rtp_diag_set(diag, st, "", "not valid JSON: text after the document");
    else if (depth_at(text, at) >= CJSON_NESTING_LIMIT)
        st = rtp_diag_set(diag, RTP_ELIMIT, "",
                          "arrays and objects nested more than %d deep (the reader's limit)",
                          CJSON_NESTING_LIMIT);
    else
        rtp_diag_set(diag, st, "", "not valid JSON");
    if (diag)
        locate(text, at < len ? at : len, &diag->line, &diag->column);
    return st;
}

rtp_status rtp_json_open_scratch(rtp_json *doc, const char *text, size_t len, void *scratch,
                                 size_t scratch_size, rtp_diag *diag)
{
    memset(doc, 0, sizeof *doc);
    parser state, *p = &state; /* on the stack: no allocation per document */
    p->s = (const unsigned char *)text;
    p->len = len;
    p->off = 0;
    p->depth = 0;
    p->arena = NULL;
    if (scratch && scratch_size > sizeof(block) + 1024 &&
        (uintptr_t)scratch % alignof(max_align_t) == 0) {
        p->arena = scratch;
        p->arena->next = NULL;
        p->arena->size = scratch_size - sizeof(block);
        p->arena->used = 0;
        p->arena->borrowed = 1;
    }
    /* a task set takes about five times its text in nodes and strings; a
     * large document grows the arena by doubling blocks instead */
    p->hint = len < 1365 ? 8192 : len < ((size_t)1 << 18) ? 6 * len : (size_t)1 << 20;
    p->diag = diag;
    p->semantic = RTP_OK;
    p->nomem = 0;
    cJSON *root = alloc(p, sizeof *root);
    int ok = root != NULL && len > 0;
    if (ok) {
        memset(root, 0, sizeof *root);
        if (len >= 5 && memcmp(text, "\xEF\xBB\xBF", 3) == 0)
            p->off = 3;
        skip_ws(p);
        ok = parse_value(p, root);
    }
    rtp_status st = p->semantic;
    if (p->nomem) {
        st = rtp_diag_set(diag, RTP_ENOMEM, "", "out of memory");
    } else if (!ok) {
        st = rtp_json_syntax_error(text, len, p->off < len ? p->off : len ? len - 1 : 0, 0, diag);
    } else {
        /* only white space may follow (and NUL bytes, as rtpack always let
         * through; the file layer rejects them) */
        for (size_t at = p->off; at < len; at++) {
            char c = text[at];
            if (c != ' ' && c != '\t' && c != '\r' && c != '\n' && c != '\0') {
                st = rtp_json_syntax_error(text, len, at, 1, diag);
                break;
            }
        }
    }
    if (st != RTP_OK) {
        arena_free(p->arena);
    } else {
        doc->root = root;
        doc->text = text;
        doc->len = len;
        doc->arena = p->arena;
    }
    return st;
}

rtp_status rtp_json_open(rtp_json *doc, const char *text, size_t len, rtp_diag *diag)
{
    return rtp_json_open_scratch(doc, text, len, NULL, 0, diag);
}

void rtp_json_close(rtp_json *doc)
{
    arena_free(doc->arena);
    memset(doc, 0, sizeof *doc);
}
