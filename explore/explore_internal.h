/* explore/explore_internal.h — the output folder of `rtpack explore`, shared
 * by explore_run.c (explore, --resume) and explore_merge.c (merge); not
 * installed.
 *
 * A folder holds manifest.txt (sweep hash, generator version, shard),
 * sweep.json, results.csv, timing.csv, sets.jsonl (optional) and the summary
 * files weighted.csv and acceptance.svg. explore_files.c writes files and the
 * manifest, explore_rows.c writes and reads back the CSV blocks (one block per
 * point, one row per policy x method), explore_summary.c the summary files.
 * Errors name the file. Thread-safety: no globals. */
#ifndef RTP_EXPLORE_INTERNAL_H
#define RTP_EXPLORE_INTERNAL_H

#include "explore/explore.h"
#include "models/text.h"

/* explore_files.c */
typedef struct explore_paths {
    char dir[512], manifest[600], sweep[600], results[600], timing[600], jsonl[600],
        weighted[600], svg[600];
} explore_paths;

void explore_make_paths(const char *dir, explore_paths *p);
/* RTP_EINPUT "PATH: cannot WHAT: strerror(errno)". */
rtp_status explore_io_error(rtp_diag *diag, const char *path, const char *what);
rtp_status explore_write_text(const char *path, const char *text, size_t len, rtp_diag *diag);
/* Appends and forces the bytes to disk (a crash keeps whole blocks). */
rtp_status explore_append_text(const char *path, const char *text, size_t len, rtp_diag *diag);
/* rtp_read_file, with the file's path in the message (merge reads many). */
rtp_status explore_read_named(const char *path, char **text, size_t *len, rtp_diag *diag);
rtp_status explore_make_dir(const char *dir, rtp_diag *diag);

typedef struct explore_manifest {
    int version, k, n;
    unsigned long long hash;
} explore_manifest;

rtp_status explore_write_manifest(const char *path, const rtp_sweep *sw, int k, int n,
                                  rtp_diag *diag);
rtp_status explore_read_manifest(const char *path, explore_manifest *m, rtp_diag *diag);
/* The same sweep and generator version as `sw`. */
rtp_status explore_check_manifest(const explore_manifest *m, const rtp_sweep *sw,
                                  const char *path, rtp_diag *diag);

/* explore_rows.c */
extern const char explore_results_header[];
extern const char explore_timing_header[];

/* One point's block: cells[policy * n_methods + method]. */
void explore_put_results(rtp_text *b, const rtp_sweep *sw, size_t point,
                         const rtp_explore_cell *cells);
void explore_put_timing(rtp_text *b, const rtp_sweep *sw, size_t point,
                        const rtp_explore_cell *cells);
/* Offsets of the starts of the complete lines of text after `skip` bytes,
 * plus one past the last complete line: offsets[0..*n] (malloc'd, or NULL). */
size_t *explore_line_starts(const char *text, size_t len, size_t skip, size_t *n);
/* Point of the j-th block of shard k/n, and the number of points of k/n. */
size_t explore_shard_point(size_t j, int k, int n);
size_t explore_shard_size(const rtp_sweep *sw, int k, int n);
/* Reads results.csv of shard k/n: *blocks whole points whose keys all match;
 * their cells go to table (and have[] = 1) when table != NULL; *end = byte
 * offset after the last whole block. A missing file is 0 blocks. */
rtp_status explore_read_results(const rtp_sweep *sw, const char *path, int k, int n,
                                rtp_explore_cell *table, unsigned char *have, size_t *blocks,
                                size_t *end, rtp_diag *diag);
/* Byte offset after `blocks` blocks of `per_block` lines (after a header of
 * hlen bytes), or RTP_EINPUT when the file is shorter. With keep_text, the
 * file's text on success (caller frees). */
rtp_status explore_block_end(const char *path, size_t hlen, size_t per_block, size_t blocks,
                             size_t *end, char **keep_text, rtp_diag *diag);

/* explore_summary.c: weighted.csv and acceptance.svg from the rows of
 * results.csv of shard k/n. */
rtp_status explore_finish(const rtp_sweep *sw, const explore_paths *paths, int k, int n,
                          rtp_diag *diag);

#endif
