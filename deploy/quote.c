/* deploy/quote.c — see quote.h. */
#include "deploy/quote.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
        return rtp_diag_set(diag, RTP_EINPUT, path, RTP_QUOTE_NO_CMD, task->name);
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
        if (rtp_text_check_plain(words[i], why, sizeof why) != 0)
            return rtp_diag_set(diag, RTP_EINPUT, path, "word %zu %s", i + 1, why);
    }
    if (words[0][0] == '-')
        return rtp_diag_set(diag, RTP_EINPUT, path,
                            "the program name \"%.60s\" starts with '-'", words[0]);
    return RTP_OK;
}
