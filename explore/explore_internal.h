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

#include <stdio.h>

/* explore_files.c */
typedef struct explore_paths {
    char dir[512], manifest[600], sweep[600], results[600], timing[600], jsonl[600],
        weighted[600], svg[600], partial[600];
} explore_paths;

void explore_make_paths(const char *dir, explore_paths *p);
/* RTP_EINTERNAL (exit 3) "PATH: cannot WHAT: strerror(errno)". */
rtp_status explore_io_error(rtp_diag *diag, const char *path, const char *what);
rtp_status explore_write_text(const char *path, const char *text, size_t len, rtp_diag *diag);
/* Appends and forces the bytes to disk (a crash keeps whole blocks). */
rtp_status explore_append_text(const char *path, const char *text, size_t len, rtp_diag *diag);
/* rtp_read_file, with the file's path in the message (merge reads many). */
rtp_status explore_read_named(const char *path, char **text, size_t *len, rtp_diag *diag);
/* Creates the folder p->dir when missing; RTP_EINPUT (nothing written)
 * when it, or any file it may get, is not a folder / a regular file. */
rtp_status explore_make_dir(const explore_paths *p, rtp_diag *diag);

typedef struct explore_manifest {
    int version, k, n;
    unsigned long long hash;
    rtp_ns set_time_limit_ns; /* 0 = none (and in manifests written before it) */
} explore_manifest;

rtp_status explore_write_manifest(const char *path, const rtp_sweep *sw, int k, int n,
                                  rtp_ns set_time_limit_ns, rtp_diag *diag);
rtp_status explore_read_manifest(const char *path, explore_manifest *m, rtp_diag *diag);
/* The same sweep and generator version as `sw`. */
rtp_status explore_check_manifest(const explore_manifest *m, const rtp_sweep *sw,
                                  const char *path, rtp_diag *diag);

/* The sets of one point in flight: outcome[index * stride + c] (0
 * rejected, 1 accepted, 2 time-out), time_ns[c * sets + index] (analysis
 * time in ns), done[index] = 1 once set `index` is finished. */
typedef struct explore_sets {
    unsigned char *outcome, *done;
    int64_t *time_ns;
} explore_sets;

/* Called by explore_points_run with each finished point, in point order,
 * from one thread at a time: cells[policy * n_methods + method], jsonl
 * (NULL without sets.jsonl) every set's line in index order. */
typedef rtp_status (*explore_commit)(void *ctx, size_t point, const rtp_explore_cell *cells,
                                     const char *jsonl, rtp_diag *diag);

/* explore.c: evaluates the points first, first + step, ... (count of them)
 * in order, each handed to commit once whole. With journal != NULL
 * (DIR/partial.txt), the sets that file holds for the first two points are
 * taken as done and each set finished now is added to it. tally counts the
 * sets and points of this call (points_done grows after each commit). */
rtp_status explore_points_run(const rtp_sweep *sw, size_t first, size_t step, size_t count,
                              const rtp_explore_opts *o, const char *journal,
                              rtp_explore_tally *tally, int want_jsonl, explore_commit commit,
                              void *commit_ctx, rtp_diag *diag);

/* explore_journal.c: the sets of the points in progress, one line each:
 * "INDEX O1 .. Oc T1 .. Tc" (outcome per policy x method: 0 rejected, 1
 * accepted, 2 time-out; analysis times in ns), after a header naming the
 * oldest point in progress; INDEX is the set's index in that point, or
 * sets_per_point + its index in the shard's next point (whose sets start
 * while the last ones of the oldest finish). Loading keeps the whole valid
 * lines of a journal of `point` (and cuts the file after them); a journal
 * of another point is removed. */
enum { EXPLORE_REJECTED = 0, EXPLORE_ACCEPTED = 1, EXPLORE_TIMEOUT = 2 };
/* at[0] gets the sets of `point`, at[1] (when n_at == 2) those of the next
 * point; n_done[k] counts them. A journal of `prev` (the shard's point
 * before `point`, SIZE_MAX for none: a crash came after its rows were
 * written, before the journal's rewrite) gives its next point's sets to
 * at[0] and stays: *moved is 1, and the caller replaces it with
 * explore_journal_rewrite. A replacement a crash left unfinished
 * (PATH.new) is removed. */
rtp_status explore_journal_load(const char *path, const rtp_sweep *sw, size_t point,
                                size_t prev, explore_sets *at, size_t n_at, size_t *n_done,
                                int *moved, rtp_diag *diag);
/* Opens it for appending (writing the header when new). NULL on failure. */
FILE *explore_journal_open(const char *path, const rtp_sweep *sw, size_t point);
/* Replacing it at a point's end, in two steps so that the second (the
 * fsyncs) can run outside explore.c's state lock: explore_journal_rewrite
 * writes the journal of `point` holding s's finished sets (sets per point,
 * stride outcomes each) under their own indices to a new file beside it
 * (PATH.new) and returns that open for appending (NULL, errno set, on
 * failure); explore_journal_install(path, its descriptor) forces it to
 * disk, renames it over PATH and forces the folder to disk (0, or -1 with
 * errno). Lines appended in between go to the new journal; a crash at any
 * moment leaves the old journal or the new one whole. */
FILE *explore_journal_rewrite(const char *path, const rtp_sweep *sw, size_t point,
                              const explore_sets *s, size_t stride, size_t sets);
int explore_journal_install(const char *path, int fd);
/* One line for set `index` of s, written as line_index. */
void explore_journal_put(FILE *f, size_t line_index, const explore_sets *s, size_t index,
                         size_t stride, size_t sets);

/* explore_rows.c: the headers of sw's files (a sweep with resources has
 * the columns resources,access,requests,cs_min_ns,cs_max_ns last). */
const char *explore_results_header(const rtp_sweep *sw);
const char *explore_timing_header(const rtp_sweep *sw);

/* One point's block: cells[policy * n_methods + method]. */
void explore_put_results(rtp_text *b, const rtp_sweep *sw, size_t point,
                         const rtp_explore_cell *cells);
void explore_put_timing(rtp_text *b, const rtp_sweep *sw, size_t point,
                        const rtp_explore_cell *cells);
/* The index of the point with these axis indices (r and s 0 in a sweep
 * without resources): the mixed-radix order of make_points (sweep.c). */
size_t explore_point_index(const rtp_sweep *sw, size_t t, size_t c, size_t u, size_t l,
                           size_t r, size_t s);
/* The number of resource counts and of length ranges (1 and 1 without). */
size_t explore_n_counts(const rtp_sweep *sw);
size_t explore_n_lengths(const rtp_sweep *sw);

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
