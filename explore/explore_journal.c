/* explore/explore_journal.c — DIR/partial.txt, the sets of the point in
 * progress and of the next one (see explore_internal.h): written as sets finish, so an
 * interrupted or killed run resumes inside the point instead of redoing it.
 * Only whole, valid lines count: a line cut by a crash is dropped (and the
 * file cut before it), so the worst a crash does is redo a few sets. The
 * journal is replaced whole at a point's end (explore_journal_rewrite, then
 * explore_journal_install) as the results files are: a new file beside it,
 * on disk before rename() puts it in place, so a crash leaves the old
 * journal or the new one, never a cut one that lost the next point's
 * finished sets. */
#include "explore/explore_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
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

/* The journal's replacement while it is written: PATH.new (ENAMETOOLONG
 * and 0 when it does not fit). */
static int temp_path(char *buf, size_t size, const char *path)
{
    if ((size_t)snprintf(buf, size, "%s.new", path) < size)
        return 1;
    errno = ENAMETOOLONG;
    return 0;
}

/* The length of the header of `point` when text opens with it, else 0. */
static size_t opens_with(const char *text, size_t len, const rtp_sweep *sw, size_t point)
{
    char head[400];
    header(head, sizeof head, sw, point);
    size_t hlen = strlen(head);
    return len >= hlen && memcmp(text, head, hlen) == 0 ? hlen : 0;
}

/* One line "INDEX O1 .. Oc T1 .. Tc\n" into the slots of its set: INDEX -
 * skip * sets is set's index in at[0] or, past `sets`, in at[1]; a line
 * below skip * sets (a set of a point already in results.csv) is valid and
 * dropped. 0 when the line is not exactly that. */
static int parse_line(const char *line, const char *end, size_t stride, size_t sets,
                      size_t skip, explore_sets *at_sets, size_t n_at, size_t *n_done)
{
    char *at;
    errno = 0;
    unsigned long long index = strtoull(line, &at, 10);
    if (at == line || errno || index >= (skip + n_at) * sets)
        return 0;
    if (index < skip * sets)
        return 1; /* a set of the point already in results.csv */
    index -= skip * sets;
    size_t k = (size_t)(index / sets);
    explore_sets *s = &at_sets[k];
    index %= sets;
    if (s->done[index])
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
        s->outcome[index * stride + c] = o[c];
        s->time_ns[c * sets + index] = t[c];
    }
    s->done[index] = 1;
    n_done[k]++;
    return 1;
}

rtp_status explore_journal_load(const char *path, const rtp_sweep *sw, size_t point,
                                size_t prev, explore_sets *at, size_t n_at, size_t *n_done,
                                int *moved, rtp_diag *diag)
{
    *moved = 0;
    for (size_t k = 0; k < n_at; k++)
        n_done[k] = 0;
    char tmp[700]; /* a replacement a crash cut before its rename */
    if (!temp_path(tmp, sizeof tmp, path) || (unlink(tmp) != 0 && errno != ENOENT))
        return explore_io_error(diag, tmp, "remove");
    if (access(path, F_OK) != 0)
        return RTP_OK;
    char *text = NULL;
    size_t len = 0;
    rtp_status st = explore_read_named(path, &text, &len, diag);
    if (st != RTP_OK)
        return st;
    /* skip = 0: a journal of `point`, whose lines go to at[0..n_at); skip
     * = 1: a crash between the previous point's rows and the journal's
     * rewrite for `point` (explore.c's advance()) left the journal of
     * `prev`, whose lines past sets_per_point are `point`'s finished sets
     * (at[0]); the file stays until the caller replaces it with the new
     * journal holding them (*moved). Any other journal gives nothing. */
    size_t skip = 0, hlen = opens_with(text, len, sw, point);
    if (!hlen && prev != SIZE_MAX && (hlen = opens_with(text, len, sw, prev)) != 0) {
        skip = 1;
        n_at = 1;
        *moved = 1;
    }
    size_t stride = sw->n_policies * sw->n_methods, sets = (size_t)sw->doc.sets_per_point;
    size_t end = hlen; /* after the last whole, valid line */
    for (char *nl; hlen && end < len && (nl = memchr(text + end, '\n', len - end));
         end = (size_t)(nl - text) + 1)
        if (!parse_line(text + end, nl, stride, sets, skip, at, n_at, n_done))
            break;
    /* Another point's journal (its point finished, or another shard's)
     * goes; the previous point's stays until the caller replaces it. */
    size_t keep = hlen && !skip ? end : 0;
    free(text);
    if (skip)
        return RTP_OK;
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

/* Forces the folder holding `path` to disk, so the rename in it lasts. */
static int sync_folder(const char *path)
{
    char dir[700];
    const char *slash = strrchr(path, '/');
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) + 1 : 1, slash ? path : ".");
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) /* a folder we may write but not read (mode 0300, review rev11c): */
        return 0; /* the rename stands, only its durability is the file system's */
    int ok = fsync(fd) == 0 || errno == EINVAL; /* a file system that cannot */
    return close(fd) == 0 && ok ? 0 : -1;
}

FILE *explore_journal_rewrite(const char *path, const rtp_sweep *sw, size_t point,
                              const explore_sets *s, size_t stride, size_t sets)
{
    char tmp[700];
    if (!temp_path(tmp, sizeof tmp, path))
        return NULL;
    /* "x": a new file, so a FIFO or a link left at that name is not opened */
    if (unlink(tmp) != 0 && errno != ENOENT)
        return NULL;
    FILE *f = fopen(tmp, "wbx");
    if (!f)
        return NULL;
    char head[400];
    header(head, sizeof head, sw, point);
    fputs(head, f);
    for (size_t i = 0; i < sets; i++)
        if (s->done[i])
            explore_journal_put(f, i, s, i, stride, sets);
    if (fflush(f) != 0) {
        int err = errno;
        fclose(f);
        unlink(tmp);
        errno = err;
        return NULL;
    }
    return f;
}

int explore_journal_install(const char *path, int fd)
{
    char tmp[700];
    if (!temp_path(tmp, sizeof tmp, path) || (fsync(fd) != 0 && errno != EINVAL) ||
        rename(tmp, path) != 0)
        return -1;
    return sync_folder(path);
}

void explore_journal_put(FILE *f, size_t line_index, const explore_sets *s, size_t index,
                         size_t stride, size_t sets)
{
    fprintf(f, "%zu", line_index);
    for (size_t c = 0; c < stride; c++)
        fprintf(f, " %u", (unsigned)s->outcome[index * stride + c]);
    for (size_t c = 0; c < stride; c++)
        fprintf(f, " %lld", (long long)s->time_ns[c * sets + index]);
    fputc('\n', f);
}
