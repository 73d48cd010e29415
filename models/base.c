/* models/base.c — diagnostics, status names and enum <-> name tables. */
#include "models/base.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void rtp_diag_clear(rtp_diag *diag)
{
    if (diag)
        memset(diag, 0, sizeof *diag);
}

/* Copies src into dst (size bytes), control characters escaped. */
static void copy_escaped(char *dst, size_t size, const char *src)
{
    size_t used = 0;
    for (; *src && used + 1 < size; src++) {
        unsigned char ch = (unsigned char)*src;
        char esc[8];
        if (ch == '\n')
            snprintf(esc, sizeof esc, "\\n");
        else if (ch == '\t')
            snprintf(esc, sizeof esc, "\\t");
        else if (ch < 0x20 || ch == 0x7f)
            snprintf(esc, sizeof esc, "\\x%02x", ch);
        else {
            dst[used++] = (char)ch;
            continue;
        }
        size_t len = strlen(esc);
        if (used + len + 1 > size)
            break;
        memcpy(dst + used, esc, len);
        used += len;
    }
    dst[used] = '\0';
}

rtp_status(rtp_diag_set)(rtp_diag *diag, rtp_status status, const char *path,
                        const char *fmt, ...)
{
    if (!diag)
        return status;
    char raw[sizeof diag->message];
    copy_escaped(diag->path, sizeof diag->path, path ? path : "");
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(raw, sizeof raw, fmt, ap);
    va_end(ap);
    copy_escaped(diag->message, sizeof diag->message, raw);
    return status;
}

void rtp_diag_set_path(rtp_diag *diag, const char *path)
{
    if (diag)
        copy_escaped(diag->path, sizeof diag->path, path ? path : "");
}

void rtp_diag_format(const rtp_diag *diag, const char *file, char *buf,
                     size_t size)
{
    const char *msg = diag && diag->message[0] ? diag->message : "unknown error";
    const char *path = diag ? diag->path : "";
    char where[64] = "";
    if (diag && diag->line > 0)
        snprintf(where, sizeof where, " (line %d, column %d)", diag->line, diag->column);
    if (file && *file && path[0])
        snprintf(buf, size, "%s: %s: %s%s", file, path, msg, where);
    else if (file && *file)
        snprintf(buf, size, "%s: %s%s", file, msg, where);
    else if (path[0])
        snprintf(buf, size, "%s: %s%s", path, msg, where);
    else
        snprintf(buf, size, "%s%s", msg, where);
}

int rtp_status_exit_code(rtp_status status)
{
    switch (status) {
    case RTP_OK: return 0;
    case RTP_EINPUT: return 2;
    default: return 3;
    }
}

const char *rtp_status_name(rtp_status status)
{
    switch (status) {
    case RTP_OK: return "ok";
    case RTP_EINPUT: return "bad input";
    case RTP_ELIMIT: return "resource limit";
    case RTP_ENOMEM: return "out of memory";
    case RTP_EINTERNAL: return "internal error";
    }
    return "unknown status";
}

static const char *const policy_names[] = {"edf", "fp", "gedf", "gfp"};
static const char *const prio_names[] = {"opa", "dm", "rm", "given"};

const char *rtp_enum_name(const char *const *names, size_t count, int value)
{
    return value >= 0 && (size_t)value < count ? names[value] : "?";
}

int rtp_enum_find(const char *const *names, size_t count, const char *name)
{
    for (size_t i = 0; name && i < count; i++)
        if (strcmp(names[i], name) == 0)
            return (int)i;
    return -1;
}

const char *rtp_policy_name(rtp_policy policy)
{
    return rtp_enum_name(policy_names, RTP_COUNT_OF(policy_names), (int)policy);
}

int rtp_policy_parse(const char *name, rtp_policy *out)
{
    int i = rtp_enum_find(policy_names, RTP_COUNT_OF(policy_names), name);
    if (i < 0)
        return -1;
    *out = (rtp_policy)i;
    return 0;
}

const char *rtp_prio_rule_name(rtp_prio_rule rule)
{
    return rtp_enum_name(prio_names, RTP_COUNT_OF(prio_names), (int)rule);
}

int rtp_prio_rule_parse(const char *name, rtp_prio_rule *out)
{
    int i = rtp_enum_find(prio_names, RTP_COUNT_OF(prio_names), name);
    if (i < 0)
        return -1;
    *out = (rtp_prio_rule)i;
    return 0;
}

rtp_limits rtp_limits_default(void)
{
    rtp_limits limits = {50u * 1000u * 1000u, 0, NULL};
    return limits;
}

rtp_ns rtp_monotonic_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (rtp_ns)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

rtp_status rtp_limits_check(const rtp_limits *limits, rtp_diag *diag)
{
    if (!limits)
        return RTP_OK;
    if (limits->interrupt && *limits->interrupt)
        return rtp_diag_set(diag, RTP_ELIMIT, "", "interrupted");
    if (limits->deadline_ns > 0 && rtp_monotonic_ns() >= limits->deadline_ns)
        return rtp_diag_set(diag, RTP_ELIMIT, "", "time limit reached");
    return RTP_OK;
}

rtp_status rtp_oom(rtp_diag *diag)
{
    return rtp_diag_set(diag, RTP_ENOMEM, "", "out of memory");
}

void *rtp_alloc(size_t n, size_t size, rtp_diag *diag)
{
    size_t bytes;
    void *p = __builtin_mul_overflow(n, size, &bytes) ? NULL : calloc(n ? n : 1, size ? size : 1);
    if (!p)
        rtp_oom(diag);
    return p;
}
