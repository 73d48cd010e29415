/* models/fileio.h — every file rtpack reads or writes goes through here, so
 * two promises hold everywhere (docs/spec.md "Limits"):
 * - reading is bounded: a file or standard input larger than `max_bytes`
 *   (RTP_INPUT_MAX_DEFAULT unless the caller says otherwise; the CLI's
 *   --max-input-bytes) stops being read at that size with RTP_ELIMIT, so
 *   an endless pipe costs at most max_bytes of memory; a stream of lines
 *   (--batch) holds one line at a time, each under the same cap;
 * - writing is all or nothing: a file is written to a temporary file in
 *   its own folder, flushed to disk, then renamed over the target, so a
 *   failure (full disk, no permission, out of memory) leaves the old file or
 *   none, never a truncated one, and is RTP_EINTERNAL naming the path.
 * Ownership: read buffers are malloc'd for the caller. Thread-safe; no
 * globals. */
#ifndef RTP_FILEIO_H
#define RTP_FILEIO_H

#include "models/base.h"

#include <stddef.h>
#include <stdio.h>
#include "models/api.h"

RTP_API_BEGIN

#define RTP_INPUT_MAX_DEFAULT ((size_t)256 << 20) /* 256 MiB */

/* Reads a whole file ("-" = standard input) into a malloc'd NUL-terminated
 * buffer of *len bytes. RTP_EINPUT when it cannot be opened or read, or at
 * its first NUL byte (no text document holds one: /dev/zero stops at once;
 * line and column set); RTP_ELIMIT past max_bytes (a regular file before
 * reading, a stream after max_bytes + 1); RTP_ENOMEM. */
rtp_status rtp_read_file_max(const char *path, size_t max_bytes, char **text, size_t *len,
                             rtp_diag *diag);

/* rtp_read_file_max with RTP_INPUT_MAX_DEFAULT. */
rtp_status rtp_read_file(const char *path, char **text, size_t *len, rtp_diag *diag);

/* What rtpack writes to: a regular file (replaced whole) or a new path,
 * never anything else. A device node, FIFO, socket or folder named as an
 * output file is refused, because writing "all or nothing" renames a new
 * regular file over the target: as root, `--out /dev/null` would replace
 * /dev/null for the whole machine. Symbolic links are followed for the
 * check (a link to /dev/null is refused; a link to a regular file is
 * replaced by the file, as before). RTP_EINPUT naming the path and what it
 * is; RTP_OK for a regular file, a missing path, or one that cannot be
 * examined (the write then reports why it fails). `folder` = 1 checks an
 * output folder instead: a folder or a new path. */
rtp_status rtp_output_check(const char *path, int folder, rtp_diag *diag);

/* Writes len bytes to path atomically (see above) with permissions `mode`
 * (e.g. 0644, 0755); rtp_output_check first. */
rtp_status rtp_write_file(const char *path, const char *data, size_t len, unsigned mode,
                          rtp_diag *diag);

/* Several files as one: every target passes rtp_output_check before any is
 * written (checked through its folder, opened once: the temporary file and
 * the rename go through the same descriptor, so a folder on the way that
 * is swapped for a link meanwhile cannot redirect the rename onto a device
 * node); each is written under a temporary name first (".rtpack.*.tmp" in
 * the target's folder), and
 * only when all are on disk are they renamed over their targets, so a full
 * disk or a failed allocation changes none of them (a rename failing part
 * way, which needs the folder changed under us, leaves the earlier ones
 * renamed). */
typedef struct rtp_file_out {
    const char *path;
    const char *data;
    size_t len;
    unsigned mode;
} rtp_file_out;
rtp_status rtp_write_files(const rtp_file_out *files, size_t n, rtp_diag *diag);

#define RTP_LINES_CHUNK ((size_t)1 << 16)

/* A stream of lines ("-" = standard input) read with a cap per line, so a
 * --batch run holds one line at a time however long its input. */
typedef struct rtp_lines {
    FILE *f;
    int is_stdin;
    char *chunk;     /* RTP_LINES_CHUNK bytes read ahead; chunk[pos..end) unread */
    size_t pos, end;
    char *buf;       /* a line that spans chunks */
    size_t cap;
    size_t max_line; /* longest line accepted, in bytes */
    long number;     /* 1-based number of the line last returned */
    int stopped;     /* a read error or an over-long line ended the stream */
} rtp_lines;

/* RTP_EINPUT when it cannot be opened (close r anyway). */
rtp_status rtp_lines_open(rtp_lines *r, const char *path, size_t max_line, rtp_diag *diag);
/* The next line without its '\n', NUL-terminated in r's buffer (valid until
 * the next call); *line NULL at the end. RTP_EINPUT for a line holding a NUL
 * byte (the line is consumed) or a read error; RTP_ELIMIT for a line
 * longer than max_line; RTP_ENOMEM. r->number is the line's number in every
 * case. After a read error, an over-long line (its end cannot be found in
 * bounded time on a pipe) or RTP_ENOMEM the stream ends: the next call
 * gives *line NULL. */
rtp_status rtp_lines_next(rtp_lines *r, const char **line, size_t *len, rtp_diag *diag);
void rtp_lines_close(rtp_lines *r);

RTP_API_END
#endif
