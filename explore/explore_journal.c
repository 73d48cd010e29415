/* explore/explore_journal.c — DIR/partial.txt, the sets of the point in
 * progress (see explore_internal.h): written as sets finish, so an
 * interrupted or killed run resumes inside the point instead of redoing it.
 * Only whole, valid lines count: a line cut by a crash is dropped (and the
 * file cut before it), so the worst a crash does is redo a few sets. */
#include "explore/explore_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void header(char *buf, size_t size, const rtp_sweep *sw, size_t point)
{
    char key[160], res[160];
    rtp_sweep_point_key(sw, point, key, sizeof key);
    rtp_sweep_point_resources(sw, point, res, sizeof res);
    snprintf(buf, size, "rtpack-explore-partial 1 point %zu %s%s%s\n", point, key,
             res[0] ? "," : "", res);
}

/* One line "INDEX O1 .. Oc T1 .. Tc\n" into the slots of its set; 0 when the
 * line is not exactly that. */
static int parse_line(const char *line, const char *end, size_t stride, size_t sets,
                      unsigned char *outcome, int64_t *time_ns, unsigned char *done)
{
    char *at;
    errno = 0;
    unsigned long long index = strtoull(line, &at, 10);
    if (at == line || errno || index >= sets || done[index])
        return 0;
    unsigned char o[18]; /* 2 policies x 9 methods at most */
    int64_t t[18];
    if (stride > 18)
        return 0;
    for (size_t c = 0; c < 2 * stride; c++) {
        if (*at != ' ')
            return 0;
        const char *from = ++at;
        long long v = strtoll(from, &at, 10);
        if (at == from || errno || v < 0 || (c < stride && v > EXPLORE_TIMEOUT))
            return 0;
        if (c < stride)
            o[c] = (unsigned char)v;
        else
            t[c - stride] = v;
    }
    if (at != end)
        return 0;
    for (size_t c = 0; c < stride; c++) {
        outcome[index * stride + c] = o[c];
        time_ns[c * sets + index] = t[c];
    }
    done[index] = 1;
    return 1;
}

rtp_status explore_journal_load(const char *path, const rtp_sweep *sw, size_t point,
                                unsigned char *outcome, int64_t *time_ns, unsigned char *done,
                                size_t *n_done, rtp_diag *diag)
{
    *n_done = 0;
    if (access(path, F_OK) != 0)
        return RTP_OK;
    char *text = NULL;
    size_t len = 0;
    rtp_status st = explore_read_named(path, &text, &len, diag);
    if (st != RTP_OK)
        return st;
    char head[400];
    header(head, sizeof head, sw, point);
    size_t hlen = strlen(head), keep = 0;
    if (len >= hlen && memcmp(text, head, hlen) == 0) {
        size_t stride = sw->n_policies * sw->n_methods, sets = (size_t)sw->doc.sets_per_point;
        keep = hlen;
        for (char *nl; keep < len && (nl = memchr(text + keep, '\n', len - keep)); keep = (size_t)(nl - text) + 1) {
            if (!parse_line(text + keep, nl, stride, sets, outcome, time_ns, done))
                break;
            ++*n_done;
        }
    }
    free(text);
    /* Another point's journal (its point finished, or another shard's) goes. */
    if (keep == 0 ? unlink(path) != 0 : truncate(path, (off_t)keep) != 0)
        return explore_io_error(diag, path, keep == 0 ? "remove" : "truncate");
    return RTP_OK;
}

FILE *explore_journal_open(const char *path, const rtp_sweep *sw, size_t point)
{
    FILE *f = fopen(path, "ab");
    if (f && fseek(f, 0, SEEK_END) == 0 && ftell(f) == 0) {
        char head[400];
        header(head, sizeof head, sw, point);
        fputs(head, f);
    }
    return f;
}

void explore_journal_put(FILE *f, size_t index, const unsigned char *outcome,
                         const int64_t *time_ns, size_t stride, size_t sets)
{
    fprintf(f, "%zu", index);
    for (size_t c = 0; c < stride; c++)
        fprintf(f, " %u", (unsigned)outcome[index * stride + c]);
    for (size_t c = 0; c < stride; c++)
        fprintf(f, " %lld", (long long)time_ns[c * sets + index]);
    fputc('\n', f);
}
