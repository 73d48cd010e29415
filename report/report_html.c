/* report/report_html.c — the HTML writers of the page (report_internal.h):
 * escaping, exact numbers with their sources, marks, bars, the page frame.
 * No printf of a floating-point value anywhere: decimals are rounded to an
 * integer and printed as digits, so the page is the same in every locale. */
#include "report/report_internal.h"

#include "models/duration.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

extern const char rtp_report_css[]; /* report/report.css, cmake/embed.cmake */

void h_raw(rpt *r, const char *markup)
{
    rtp_text_append(r->out, markup);
}

void h_fmt(rpt *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *room = n < 0 ? NULL : rtp_text_room(r->out, (size_t)n);
    if (!room) {
        r->out->failed = 1;
        return;
    }
    va_start(ap, fmt);
    vsnprintf(room, (size_t)n + 1, fmt, ap);
    va_end(ap);
    r->out->len += (size_t)n;
}

/* Length of the valid UTF-8 sequence at s (1-4), or 0 when it is not one. */
static size_t utf8_len(const unsigned char *s)
{
    if (s[0] < 0x80)
        return 1;
    size_t n = s[0] >= 0xF0 && s[0] <= 0xF4 ? 4
               : s[0] >= 0xE0 && s[0] < 0xF0 ? 3
               : s[0] >= 0xC2 && s[0] < 0xE0 ? 2
                                             : 0;
    for (size_t k = 1; k < n; k++)
        if ((s[k] & 0xC0) != 0x80)
            return 0;
    if ((n == 3 && s[0] == 0xE0 && s[1] < 0xA0) || (n == 3 && s[0] == 0xED && s[1] >= 0xA0) ||
        (n == 4 && s[0] == 0xF0 && s[1] < 0x90) || (n == 4 && s[0] == 0xF4 && s[1] >= 0x90))
        return 0; /* overlong, surrogate, past U+10FFFF */
    return n;
}

/* Appends text to out with what XML 1.0 cannot hold (control characters,
 * C1, invalid UTF-8) as U+FFFD and, when escape, the five specials as
 * references. */
static void clean(rtp_text *out, const char *text, int escape)
{
    const unsigned char *s = (const unsigned char *)text;
    while (*s) {
        size_t n = utf8_len(s);
        if (n == 0 || (n == 1 && ((*s < 0x20 && *s != '\t' && *s != '\n') || *s == 0x7F)) ||
            (n == 2 && s[0] == 0xC2 && s[1] < 0xA0)) {
            rtp_text_append(out, "\xEF\xBF\xBD");
            s += n ? n : 1;
            continue;
        }
        const char *ref = !escape   ? NULL
                          : *s == '&' ? "&amp;" : *s == '<' ? "&lt;" : *s == '>' ? "&gt;"
                          : *s == '"' ? "&quot;" : *s == '\'' ? "&#39;" : NULL;
        if (ref)
            rtp_text_append(out, ref);
        else
            rtp_text_appendn(out, (const char *)s, n);
        s += n;
    }
}

/* Text escaped for XML and HTML alike, so the page stays well-formed
 * whatever a name holds. */
void h_text(rpt *r, const char *text)
{
    clean(r->out, text, 1);
}

char *rpt_clean_copy(const char *text)
{
    rtp_text t;
    rtp_text_init(&t);
    rtp_text_append(&t, "");
    clean(&t, text, 0);
    return t.failed ? (rtp_text_free(&t), NULL) : rtp_text_take(&t);
}

void h_name(rpt *r, const char *name)
{
    h_raw(r, "<span class=\"name\">");
    h_text(r, name);
    h_raw(r, "</span>");
}

void h_string(rpt *r, const char *text, const char *src_fmt, ...)
{
    char src[160];
    va_list ap;
    va_start(ap, src_fmt);
    vsnprintf(src, sizeof src, src_fmt, ap);
    va_end(ap);
    h_fmt(r, "<span class=\"txt\" data-j=\"%s\">", src);
    h_text(r, text);
    h_raw(r, "</span>");
}

void rpt_time_text(rtp_ns ns, char *buf, size_t size)
{
    char t[48];
    rtp_duration_format(ns, t, sizeof t);
    size_t len = strlen(t), digits = 0;
    while (digits < len && (t[digits] == '.' || (t[digits] >= '0' && t[digits] <= '9')))
        digits++;
    const char *unit = t + digits;
    snprintf(buf, size, "%.*s\xC2\xA0%s", (int)digits, t,
             strcmp(unit, "us") == 0 ? "\xC2\xB5s" : unit);
}

static void none(rpt *r)
{
    h_raw(r, "<span class=\"none\">\xE2\x80\x94</span>");
}

/* A time (is_time) or a count as <data>, the source from fmt and ap. */
static void number(rpt *r, int is_time, long long v, const char *src_fmt, va_list ap)
    __attribute__((format(printf, 4, 0)));
static void number(rpt *r, int is_time, long long v, const char *src_fmt, va_list ap)
{
    if (v < 0) {
        none(r);
        return;
    }
    char src[160], shown[64];
    vsnprintf(src, sizeof src, src_fmt, ap);
    if (is_time)
        rpt_time_text(v, shown, sizeof shown);
    else
        snprintf(shown, sizeof shown, "%lld", v);
    h_fmt(r, "<data value=\"%lld\" data-j=\"%s\">%s</data>", v, src, shown);
}

void h_time(rpt *r, rtp_ns ns, const char *src_fmt, ...)
{
    va_list ap;
    va_start(ap, src_fmt);
    number(r, 1, ns, src_fmt, ap);
    va_end(ap);
}

void h_int(rpt *r, long long v, const char *src_fmt, ...)
{
    va_list ap;
    va_start(ap, src_fmt);
    number(r, 0, v, src_fmt, ap);
    va_end(ap);
}

void h_td_time(rpt *r, const char *label, rtp_ns ns, const char *src_fmt, ...)
{
    va_list ap;
    h_td(r, label, 1);
    va_start(ap, src_fmt);
    number(r, 1, ns, src_fmt, ap);
    va_end(ap);
    h_raw(r, "</td>");
}

void h_td_int(rpt *r, const char *label, long long v, const char *src_fmt, ...)
{
    va_list ap;
    h_td(r, label, 1);
    va_start(ap, src_fmt);
    number(r, 0, v, src_fmt, ap);
    va_end(ap);
    h_raw(r, "</td>");
}

void rpt_decimal(double v, int decimals, char *buf, size_t size)
{
    int64_t scale = 1;
    for (int k = 0; k < decimals; k++)
        scale *= 10;
    if (!(v >= 0) || v > 1e9) { /* display values only; these never occur */
        snprintf(buf, size, "?");
        return;
    }
    int64_t n = (int64_t)(v * (double)scale + 0.5);
    if (decimals == 0)
        snprintf(buf, size, "%lld", (long long)n);
    else
        snprintf(buf, size, "%lld.%0*lld", (long long)(n / scale), decimals,
                 (long long)(n % scale));
}

void h_decimal(rpt *r, double v, int decimals, const char *src_fmt, ...)
{
    char src[160], shown[48];
    va_list ap;
    va_start(ap, src_fmt);
    vsnprintf(src, sizeof src, src_fmt, ap);
    va_end(ap);
    rpt_decimal(v, decimals, shown, sizeof shown);
    h_fmt(r, "<data value=\"%s\" data-j=\"%s\">%s</data>", shown, src, shown);
}

void h_decimal_text(rpt *r, const char *text, const char *src_fmt, ...)
{
    char src[160];
    va_list ap;
    va_start(ap, src_fmt);
    vsnprintf(src, sizeof src, src_fmt, ap);
    va_end(ap);
    h_fmt(r, "<data value=\"");
    h_text(r, text);
    h_fmt(r, "\" data-j=\"%s\">", src);
    h_text(r, text);
    h_raw(r, "</data>");
}

void h_th(rpt *r, const char *cls, const char *text)
{
    h_fmt(r, "<th scope=\"col\"%s%s%s>%s</th>", cls ? " class=\"" : "", cls ? cls : "",
          cls ? "\"" : "", text);
}

void h_td(rpt *r, const char *label, int numeric)
{
    h_fmt(r, "<td%s data-label=\"%s\">", numeric ? " class=\"n\"" : "", label);
}

void h_bin_name(rpt *r, const rpt_bin *b)
{
    h_raw(r, b->bin->n_cpus == 1 ? "CPU\xC2\xA0" : "CPUs\xC2\xA0");
    for (size_t k = 0; k < b->bin->n_cpus; k++) {
        h_raw(r, k ? "," : "");
        if (r->plan->clustered)
            h_int(r, b->bin->cpus[k], "plan:%s.cpus[%zu]", b->path, k);
        else
            h_int(r, b->bin->cpus[k], "plan:%s.cpu", b->path);
    }
}

void h_ratio(rpt *r, rtp_ratio v, const char *src)
{
    char text[48];
    rpt_decimal(rtp_ratio_double(v), 4, text, sizeof text);
    size_t len = strlen(text);
    while (len > 0 && text[len - 1] == '0' && strchr(text, '.'))
        text[--len] = '\0';
    if (len > 0 && text[len - 1] == '.')
        text[--len] = '\0';
    h_fmt(r, "<data value=\"%s\" data-j=\"%s\">%s</data>", text, src, text);
}

void h_mark(rpt *r, const char *kind)
{
    const char *sign = strcmp(kind, "ok") == 0     ? "\xE2\x9C\x94"
                       : strcmp(kind, "bad") == 0  ? "\xE2\x9C\x96"
                       : strcmp(kind, "warn") == 0 ? "\xE2\x9A\xA0"
                                                   : "\xE2\x84\xB9";
    h_fmt(r, "<span class=\"mark %s\">%s</span> ", kind, sign);
}

void h_bar(rpt *r, const rpt_seg *segs, size_t n, double limit)
{
    char a[32], b[32];
    h_raw(r, "<svg class=\"bar\" xmlns=\"http://www.w3.org/2000/svg\" width=\"100%\" "
             "height=\"16\" aria-hidden=\"true\" focusable=\"false\">"
             "<rect class=\"track\" x=\"0\" y=\"0\" width=\"100%\" height=\"16\"/>");
    for (size_t k = 0; k < n; k++) {
        double from = segs[k].from < 0 ? 0 : segs[k].from > 1 ? 1 : segs[k].from;
        double to = segs[k].to > 1 ? 1 : segs[k].to < from ? from : segs[k].to;
        rpt_decimal(from * 100, 2, a, sizeof a);
        rpt_decimal((to - from) * 100, 2, b, sizeof b);
        h_fmt(r, "<rect class=\"%s\" x=\"%s%%\" y=\"2\" width=\"%s%%\" height=\"12\"/>",
              segs[k].cls, a, b);
    }
    if (limit >= 0) {
        rpt_decimal((limit > 1 ? 1 : limit) * 100, 2, a, sizeof a);
        h_fmt(r, "<line class=\"limit\" x1=\"%s%%\" y1=\"0\" x2=\"%s%%\" y2=\"16\"/>", a, a);
    }
    h_raw(r, "</svg>");
}

void h_page_begin(rpt *r, const char *title)
{
    h_raw(r, "<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\" "
             "xml:lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n"
             "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n"
             /* Self-contained by rule: the browser may fetch nothing at all. */
             "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
             "style-src 'unsafe-inline'\"/>\n");
    if (r->opts->generator) {
        h_raw(r, "<meta name=\"generator\" content=\"");
        h_text(r, r->opts->generator);
        h_raw(r, "\"/>\n");
    }
    h_raw(r, "<title>Plan report: ");
    h_text(r, title);
    h_raw(r, "</title>\n<style>\n");
    h_raw(r, rtp_report_css);
    h_raw(r, "</style>\n</head>\n<body>\n"
             /* One hatch for every bar: what passes a limit is hatched as well as coloured. */
             "<svg class=\"defs\" xmlns=\"http://www.w3.org/2000/svg\" width=\"0\" height=\"0\" "
             "aria-hidden=\"true\" focusable=\"false\"><defs><pattern id=\"rtp-hatch\" "
             "width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" "
             "patternTransform=\"rotate(45)\"><rect width=\"6\" height=\"6\" fill=\"#D55E00\"/>"
             "<rect width=\"2\" height=\"6\" fill=\"#ffffff\"/></pattern></defs></svg>\n");
}

void h_page_end(rpt *r)
{
    h_raw(r, "</main>\n<footer><p>Written by ");
    if (r->opts->generator) {
        h_raw(r, "<code>");
        h_text(r, r->opts->generator);
        h_raw(r, "</code>");
    } else {
        h_raw(r, "rtpack");
    }
    h_raw(r, " from the plan, the options");
    if (r->rehearsal || r->probe)
        h_raw(r, r->rehearsal && r->probe ? ", the rehearsal and the probe"
                 : r->rehearsal           ? " and the rehearsal"
                                          : " and the probe");
    h_raw(r, " alone: no clock, no network, no script. The same inputs give the same "
             "bytes.</p></footer>\n</body>\n</html>\n");
}

const char *rpt_policy_words(rtp_policy policy, int rr)
{
    switch (policy) {
    case RTP_POLICY_EDF: return "EDF (SCHED_DEADLINE)";
    case RTP_POLICY_FP:
        return rr ? "fixed priority (SCHED_FIFO; SCHED_RR on tied levels)"
                  : "fixed priority (SCHED_FIFO)";
    case RTP_POLICY_GEDF: return "global EDF (SCHED_DEADLINE)";
    default: return "global fixed priority (SCHED_FIFO)";
    }
}
