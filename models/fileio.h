/* models/fileio.h — every file rtpack reads or writes goes through here, so
 * two promises hold everywhere (docs/spec.md "Limits"):
 * - reading is bounded: a file or standard input larger than `max_bytes`
 *   (RTP_INPUT_MAX_DEFAULT unless the caller says otherwise; the CLI's
 *   --max-input-bytes) stops being read at that size with RTP_ELIMIT, so
 *   /dev/zero or an endless pipe costs at most max_bytes of memory;
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

#define RTP_INPUT_MAX_DEFAULT ((size_t)256 << 20) /* 256 MiB */

/* Reads a whole file ("-" = standard input) into a malloc'd NUL-terminated
 * buffer of *len bytes. RTP_EINPUT when it cannot be opened or read,
 * RTP_ELIMIT past max_bytes, RTP_ENOMEM. */
rtp_status rtp_read_file_max(const char *path, size_t max_bytes, char **text, size_t *len,
                             rtp_diag *diag);

/* rtp_read_file_max with RTP_INPUT_MAX_DEFAULT. */
rtp_status rtp_read_file(const char *path, char **text, size_t *len, rtp_diag *diag);

/* Writes len bytes to path atomically (see above) with permissions `mode`
 * (e.g. 0644, 0755). */
rtp_status rtp_write_file(const char *path, const char *data, size_t len, unsigned mode,
                          rtp_diag *diag);

#endif
