/* deploy/quote.c — see quote.h. */
#include "deploy/quote.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int rtp_quote_check_text(const char *s, char *why, size_t why_size)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        unsigned c = *p;
        size_t extra;
        unsigned code;
        if (c < 0x20 || c == 0x7f) {
            snprintf(why, why_size, "contains a control character (byte 0x%02x)", c);
            return -1;
        }
        if (c < 0x80) {
            p++;
            continue;
        }
        if (c >= 0xc2 && c <= 0xdf) {
            extra = 1;
            code = c & 0x1f;
        } else if (c >= 0xe0 && c <= 0xef) {
            extra = 2;
            code = c & 0x0f;
        } else if (c >= 0xf0 && c <= 0xf4) {
            extra = 3;
            code = c & 0x07;
        } else {
            snprintf(why, why_size, "is not valid UTF-8 (byte 0x%02x)", c);
            return -1;
        }
        for (size_t k = 1; k <= extra; k++) {
            if ((p[k] & 0xc0) != 0x80) {
                snprintf(why, why_size, "is not valid UTF-8 (truncated sequence)");
                return -1;
            }
            code = (code << 6) | (p[k] & 0x3f);
        }
        /* Overlong forms, surrogates, past U+10FFFF, and C1 controls. */
        if ((extra == 2 && code < 0x800) || (extra == 3 && code < 0x10000) ||
            (code >= 0xd800 && code <= 0xdfff) || code > 0x10ffff) {
            snprintf(why, why_size, "is not valid UTF-8 (bad sequence)");
            return -1;
        }
        if (code >= 0x80 && code <= 0x9f) {
            snprintf(why, why_size, "contains a control character (U+%04X)", code);
            return -1;
        }
        p += extra + 1;
    }
    return 0;
}

int rtp_quote_is_plain_name(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n > 64 || s[0] == '.' || s[0] == '-')
        return 0;
    return strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-") == n;
}

int rtp_quote_is_ident(const char *s)
{
    size_t n = strlen(s);
    return n >= 1 && n <= 32 &&
           strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_") == n;
}

void rtp_quote_sh(rtp_text *out, const char *s)
{
    rtp_text_append(out, "'");
    for (const char *p = s; *p; p++) {
        if (*p == '\'')
            rtp_text_append(out, "'\\''");
        else if (*p == '\\') /* outside the quotes: shellcheck (SC1003) flags '\' */
            rtp_text_append(out, "'\\\\'");
        else
            rtp_text_appendn(out, p, 1);
    }
    rtp_text_append(out, "'");
}

void rtp_quote_systemd(rtp_text *out, const char *s)
{
    rtp_text_append(out, "\"");
    for (const char *p = s; *p; p++) {
        switch (*p) {
        case '\\': rtp_text_append(out, "\\\\"); break;
        case '"': rtp_text_append(out, "\\\""); break;
        case '%': rtp_text_append(out, "%%"); break;
        case '$': rtp_text_append(out, "$$"); break;
        default: rtp_text_appendn(out, p, 1); break;
        }
    }
    rtp_text_append(out, "\"");
}

rtp_status rtp_quote_cmd_argv(const rtp_task *task, const char *path, char ***argv,
                              size_t *argc, char **storage, rtp_diag *diag)
{
    char why[96];
    *argv = NULL;
    *argc = 0;
    *storage = NULL;
    if (!task->cmd || task->cmd_len == 0)
        return rtp_diag_set(diag, RTP_EINPUT, path,
                            "missing: task \"%.60s\" has no command to launch", task->name);
    size_t cap = task->cmd_len;
    if (task->cmd_is_string) {
        if (!(*storage = strdup(task->cmd[0])))
            return rtp_diag_set(diag, RTP_ENOMEM, path, "out of memory");
        cap = strlen(*storage) / 2 + 1;
    }
    char **words = calloc(cap, sizeof *words);
    if (!words) {
        free(*storage);
        *storage = NULL;
        return rtp_diag_set(diag, RTP_ENOMEM, path, "out of memory");
    }
    size_t n = 0;
    if (task->cmd_is_string) {
        char *save = NULL;
        for (char *w = strtok_r(*storage, " ", &save); w; w = strtok_r(NULL, " ", &save))
            words[n++] = w;
    } else {
        for (size_t i = 0; i < task->cmd_len; i++)
            words[n++] = task->cmd[i];
    }
    *argv = words;
    *argc = n;
    if (n == 0)
        return rtp_diag_set(diag, RTP_EINPUT, path, "is empty: nothing to launch");
    for (size_t i = 0; i < n; i++) {
        if (!task->cmd_is_string && words[i][0] == '\0' && i == 0)
            return rtp_diag_set(diag, RTP_EINPUT, path, "the program name is empty");
        if (rtp_quote_check_text(words[i], why, sizeof why) != 0)
            return rtp_diag_set(diag, RTP_EINPUT, path, "word %zu %s", i + 1, why);
    }
    if (words[0][0] == '-')
        return rtp_diag_set(diag, RTP_EINPUT, path,
                            "the program name \"%.60s\" starts with '-'", words[0]);
    return RTP_OK;
}
