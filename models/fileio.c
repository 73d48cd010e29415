/* models/fileio.c — see fileio.h. */
#include "models/fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static rtp_status too_long(rtp_diag *diag, const char *what, size_t max)
{
    return rtp_diag_set(diag, RTP_ELIMIT, "", "%s larger than %zu bytes (--max-input-bytes)",
                        what, max);
}

/* RTP_EINPUT at the first NUL byte of text[0..len), with its position. */
static rtp_status check_nul(const char *text, size_t len, rtp_diag *diag)
{
    const char *nul = memchr(text, '\0', len);
    if (!nul)
        return RTP_OK;
    int line = 1, column = 1;
    for (const char *p = text; p < nul; p++) {
        column = *p == '\n' ? 1 : column + 1;
        line += *p == '\n';
    }
    rtp_diag_set(diag, RTP_EINPUT, "", "a NUL byte: not a text document");
    if (diag) {
        diag->line = line;
        diag->column = column;
    }
    return RTP_EINPUT;
}

/* Grows *buf to hold at least `need` bytes, doubling up to `limit`. */
static int grow(char **buf, size_t *cap, size_t need, size_t limit)
{
    if (need <= *cap)
        return 1;
    size_t bigger = *cap ? *cap : 1 << 16;
    while (bigger < need)
        bigger = bigger > limit / 2 ? limit : bigger * 2;
    if (bigger < need)
        bigger = need;
    char *p = realloc(*buf, bigger);
    if (!p)
        return 0;
    *buf = p;
    *cap = bigger;
    return 1;
}

rtp_status rtp_read_file_max(const char *path, size_t max_bytes, char **text, size_t *len,
                         rtp_diag *diag)
{
    size_t max = max_bytes;
    int is_stdin = strcmp(path, "-") == 0;
    FILE *f = is_stdin ? stdin : fopen(path, "rb");
    if (!f)
        return rtp_diag_set(diag, RTP_EINPUT, "", "cannot open: %s", strerror(errno));
    struct stat sb;
    rtp_status st = RTP_OK;
    if (fstat(fileno(f), &sb) == 0 && S_ISREG(sb.st_mode) && (uintmax_t)sb.st_size > max)
        st = too_long(diag, "the input is", max);
    char *buf = NULL;
    size_t cap = 0, used = 0;
    /* Room for max + 1 bytes and the final NUL: one byte past the cap tells
     * a long input from one of exactly max bytes. */
    while (st == RTP_OK) {
        if (!grow(&buf, &cap, used + 2, max + 2)) {
            st = rtp_diag_set(diag, RTP_ENOMEM, "", "out of memory");
            break;
        }
        size_t got = fread(buf + used, 1, cap - used - 1, f);
        if ((st = check_nul(buf, used + got, diag)) != RTP_OK)
            break;
        used += got;
        if (used > max)
            st = too_long(diag, "the input is", max);
        else if (got == 0)
            break;
    }
    if (st == RTP_OK && ferror(f))
        st = rtp_diag_set(diag, RTP_EINPUT, "", "cannot read: %s", strerror(errno));
    if (!is_stdin)
        fclose(f);
    if (st != RTP_OK) {
        free(buf);
        return st;
    }
    buf[used] = '\0';
    *text = buf;
    *len = used;
    return RTP_OK;
}

rtp_status rtp_read_file(const char *path, char **text, size_t *len, rtp_diag *diag)
{
    return rtp_read_file_max(path, RTP_INPUT_MAX_DEFAULT, text, len, diag);
}

static rtp_status write_error(rtp_diag *diag, const char *path, int err)
{
    return rtp_diag_set(diag, RTP_EINTERNAL, "", "cannot write %s: %s", path, strerror(err));
}

static const char *file_kind(mode_t mode)
{
    return S_ISDIR(mode)    ? "a folder"
           : S_ISCHR(mode)  ? "a character device"
           : S_ISBLK(mode)  ? "a block device"
           : S_ISFIFO(mode) ? "a named pipe (FIFO)"
           : S_ISSOCK(mode) ? "a socket"
           : S_ISREG(mode)  ? "a regular file"
                            : "not a regular file";
}

/* RTP_OK when an output of kind `folder` may be written where a file of
 * `mode` is, else the refusal naming path and what it is. */
static rtp_status refusal(const char *path, mode_t mode, int folder, rtp_diag *diag)
{
    struct stat sb = {.st_mode = mode};
    if (folder ? S_ISDIR(sb.st_mode) : S_ISREG(sb.st_mode))
        return RTP_OK;
    if (folder)
        return rtp_diag_set(diag, RTP_EINPUT, "", "%s is %s, not a folder: give a folder or a "
                            "new path", path, file_kind(sb.st_mode));
    return rtp_diag_set(diag, RTP_EINPUT, "",
                        "%s is %s: rtpack writes only regular files or new paths (it "
                        "replaces the file whole); give another path",
                        path, file_kind(sb.st_mode));
}

rtp_status rtp_output_check(const char *path, int folder, rtp_diag *diag)
{
    struct stat sb;
    if (stat(path, &sb) != 0)
        return RTP_OK; /* new (or unreadable: the write says why) */
    return refusal(path, sb.st_mode, folder, diag);
}

/* One output while it is written: the folder it goes in, opened once, so
 * that the check, the temporary file and the rename all act on that one
 * folder. Checking a path and renaming over the same path later could land
 * in another folder if one on the way was swapped for a link in between
 * (review rev13c replaced a device node that way: emit 18 times in 1,326
 * runs); through the folder's descriptor nothing on the way is looked up
 * again. */
typedef struct pinned {
    int dir;          /* the folder, O_DIRECTORY; -1 when not open */
    const char *base; /* the name within it */
    char tmp[64];     /* the temporary file's name within it, "" = none */
} pinned;

/* Opens path's folder into *p and checks what stands at its name there
 * (the entry itself: a link is replaced by the rename, and is refused when
 * it leads to anything but a regular file, as rtp_output_check does). */
static rtp_status pin(const char *path, pinned *p, rtp_diag *diag)
{
    const char *slash = strrchr(path, '/');
    p->base = slash ? slash + 1 : path;
    p->tmp[0] = '\0';
    if (!*p->base)
        return rtp_diag_set(diag, RTP_EINPUT, "", "%s names a folder, not a file", path);
    size_t dlen = slash ? (size_t)(slash - path) : 0;
    char *dir = malloc(dlen + 2);
    if (!dir)
        return rtp_oom(diag);
    snprintf(dir, dlen + 2, "%.*s", (int)(slash ? (dlen ? dlen : 1) : 1), slash ? path : ".");
    p->dir = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    int err = errno;
    free(dir);
    if (p->dir < 0)
        return write_error(diag, path, err);
    struct stat sb;
    if (fstatat(p->dir, p->base, &sb, AT_SYMLINK_NOFOLLOW) != 0)
        return RTP_OK; /* new (or unreadable: the write says why) */
    if (S_ISLNK(sb.st_mode) && fstatat(p->dir, p->base, &sb, 0) != 0)
        return RTP_OK; /* a dangling link: replaced */
    return refusal(path, sb.st_mode, 0, diag);
}

/* Writes data to a new temporary file in p's folder, flushed to disk (its
 * name in p->tmp). On failure nothing is left and p->tmp is "". */
static rtp_status write_temp(pinned *p, const char *path, const char *data, size_t len,
                             unsigned mode, rtp_diag *diag)
{
    int fd = -1, err = 0;
    /* a name no other file has: O_EXCL says so; the number only makes a
     * clash with a leftover of another run unlikely */
    unsigned long salt = (unsigned long)getpid() * 2654435761UL ^ (unsigned long)(uintptr_t)p;
    for (int attempt = 0; fd < 0 && attempt < 100; attempt++) {
        snprintf(p->tmp, sizeof p->tmp, ".rtpack.%08lx.%02d.tmp", salt & 0xffffffffUL, attempt);
        fd = openat(p->dir, p->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
        err = fd < 0 ? errno : 0;
        if (fd < 0 && err != EEXIST)
            break;
    }
    for (size_t done = 0; done < len && !err;) {
        ssize_t got = write(fd, data + done, len - done);
        if (got < 0 && errno != EINTR)
            err = errno;
        else if (got > 0)
            done += (size_t)got;
    }
    if (!err && fchmod(fd, (mode_t)mode) != 0)
        err = errno;
    if (!err && fsync(fd) != 0 && errno != EINVAL)
        err = errno;
    if (fd >= 0 && close(fd) != 0 && !err)
        err = errno;
    if (!err)
        return RTP_OK;
    if (fd >= 0)
        unlinkat(p->dir, p->tmp, 0);
    p->tmp[0] = '\0';
    return write_error(diag, path, err);
}

rtp_status rtp_write_file(const char *path, const char *data, size_t len, unsigned mode,
                          rtp_diag *diag)
{
    rtp_file_out one = {path, data, len, mode};
    return rtp_write_files(&one, 1, diag);
}

rtp_status rtp_write_files(const rtp_file_out *files, size_t n, rtp_diag *diag)
{
    pinned *p = calloc(n ? n : 1, sizeof *p);
    if (!p)
        return rtp_oom(diag);
    for (size_t i = 0; i < n; i++)
        p[i].dir = -1;
    rtp_status st = RTP_OK;
    for (size_t i = 0; i < n && st == RTP_OK; i++)
        st = pin(files[i].path, &p[i], diag);
    for (size_t i = 0; i < n && st == RTP_OK; i++)
        st = write_temp(&p[i], files[i].path, files[i].data, files[i].len, files[i].mode, diag);
    /* every file is on disk under its temporary name: only renames remain */
    for (size_t i = 0; i < n && st == RTP_OK; i++) {
        if (renameat(p[i].dir, p[i].tmp, p[i].dir, p[i].base) != 0)
            st = write_error(diag, files[i].path, errno);
        else
            p[i].tmp[0] = '\0';
    }
    for (size_t i = 0; i < n; i++) {
        if (p[i].tmp[0])
            unlinkat(p[i].dir, p[i].tmp, 0);
        if (p[i].dir >= 0)
            close(p[i].dir);
    }
    free(p);
    return st;
}

rtp_status rtp_lines_open(rtp_lines *r, const char *path, size_t max_line, rtp_diag *diag)
{
    memset(r, 0, sizeof *r);
    r->max_line = max_line;
    r->chunk = malloc(RTP_LINES_CHUNK + 1);
    if (!r->chunk)
        return rtp_diag_set(diag, RTP_ENOMEM, "", "out of memory");
    r->is_stdin = strcmp(path, "-") == 0;
    r->f = r->is_stdin ? stdin : fopen(path, "rb");
    if (!r->f)
        return rtp_diag_set(diag, RTP_EINPUT, "", "cannot open: %s", strerror(errno));
    return RTP_OK;
}

/* Appends chunk bytes to the line being assembled, within the cap. */
static rtp_status append(rtp_lines *r, const char *p, size_t n, size_t *used, rtp_diag *diag)
{
    if (n > r->max_line - *used)
        return too_long(diag, "the line is", r->max_line);
    if (!grow(&r->buf, &r->cap, *used + n + 1, r->max_line + 1))
        return rtp_diag_set(diag, RTP_ENOMEM, "", "out of memory");
    memcpy(r->buf + *used, p, n);
    *used += n;
    return RTP_OK;
}

rtp_status rtp_lines_next(rtp_lines *r, const char **line, size_t *len, rtp_diag *diag)
{
    size_t used = 0; /* bytes of this line already copied into r->buf */
    int partial = 0;
    rtp_status st = RTP_OK;
    *line = NULL;
    *len = 0;
    if (r->stopped)
        return RTP_OK;
    for (;;) {
        if (r->pos == r->end) {
            r->pos = 0;
            r->end = fread(r->chunk, 1, RTP_LINES_CHUNK, r->f);
            if (r->end == 0) {
                if (ferror(r->f)) {
                    r->stopped = 1;
                    r->number++;
                    return rtp_diag_set(diag, RTP_EINPUT, "", "cannot read: %s",
                                        strerror(errno));
                }
                if (!partial)
                    return RTP_OK;
                break; /* a last line without '\n' */
            }
        }
        char *start = r->chunk + r->pos;
        char *nl = memchr(start, '\n', r->end - r->pos);
        size_t n = nl ? (size_t)(nl - start) : r->end - r->pos;
        r->pos += n + (nl != NULL);
        if (nl && !partial && n <= r->max_line) {
            /* The whole line is in the chunk: no copy. */
            r->number++;
            *nl = '\0';
            if ((st = check_nul(start, n, diag)) != RTP_OK)
                return st;
            *line = start;
            *len = n;
            return RTP_OK;
        }
        partial = 1;
        if ((st = append(r, start, n, &used, diag)) != RTP_OK) {
            r->stopped = 1;
            r->number++;
            return st;
        }
        if (nl)
            break;
    }
    r->number++;
    r->buf[used] = '\0';
    if ((st = check_nul(r->buf, used, diag)) != RTP_OK)
        return st;
    *line = r->buf;
    *len = used;
    return RTP_OK;
}

void rtp_lines_close(rtp_lines *r)
{
    if (r->f && !r->is_stdin)
        fclose(r->f);
    free(r->buf);
    free(r->chunk);
    memset(r, 0, sizeof *r);
}
