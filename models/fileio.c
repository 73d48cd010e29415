/* models/fileio.c — see fileio.h. */
#include "models/fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

rtp_status rtp_read_file_max(const char *path, size_t max_bytes, char **text, size_t *len,
                             rtp_diag *diag)
{
    int is_stdin = strcmp(path, "-") == 0;
    FILE *f = is_stdin ? stdin : fopen(path, "rb");
    if (!f)
        return rtp_diag_set(diag, RTP_EINPUT, "", "cannot open: %s", strerror(errno));
    size_t cap = 1 << 16, used = 0;
    char *buf = malloc(cap);
    rtp_status st = buf ? RTP_OK : rtp_diag_set(diag, RTP_ENOMEM, "", "out of memory");
    while (st == RTP_OK) {
        if (cap - used < 2) {
            size_t want = cap * 2 > max_bytes + 2 ? max_bytes + 2 : cap * 2;
            char *bigger = want > cap ? realloc(buf, want) : NULL;
            if (!bigger) {
                st = rtp_diag_set(diag, RTP_ENOMEM, "", "out of memory reading the input");
                break;
            }
            buf = bigger;
            cap = want;
        }
        size_t got = fread(buf + used, 1, cap - used - 1, f);
        used += got;
        if (used > max_bytes)
            st = rtp_diag_set(diag, RTP_ELIMIT, "",
                              "the input is larger than %zu bytes (--max-input-bytes)", max_bytes);
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

rtp_status rtp_write_file(const char *path, const char *data, size_t len, unsigned mode,
                          rtp_diag *diag)
{
    /* the temporary file goes beside the target: rename is atomic only
     * within one file system */
    size_t n = strlen(path);
    char *tmp = malloc(n + 16);
    if (!tmp)
        return rtp_diag_set(diag, RTP_ENOMEM, "", "out of memory");
    const char *slash = strrchr(path, '/');
    size_t dir = slash ? (size_t)(slash - path) + 1 : 0;
    snprintf(tmp, n + 16, "%.*s.%s.XXXXXX", (int)dir, path, path + dir);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        rtp_status st = write_error(diag, path, errno);
        free(tmp);
        return st;
    }
    int err = 0;
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
    if (close(fd) != 0 && !err)
        err = errno;
    if (!err && rename(tmp, path) != 0)
        err = errno;
    if (err)
        unlink(tmp);
    free(tmp);
    return err ? write_error(diag, path, err) : RTP_OK;
}
