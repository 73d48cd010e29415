/* explore/explore_run.c — `rtpack explore` (rtp_explore_run, see explore.h
 * and docs/explore.md): a fresh start or a --resume, then this shard's points
 * in order, each appended to the output files as one block.
 *
 * A shard's points are p = K-1, K-1+N, ... in sweep order. Each output file
 * holds one block per finished point: results.csv and timing.csv one line per
 * policy x method, sets.jsonl one line per set. Blocks are appended in the
 * order sets.jsonl, timing.csv, results.csv and flushed to disk, so
 * results.csv is the commit record: --resume keeps its whole blocks (checking
 * every key) and cuts the other files to the same number of blocks. Inside
 * the points in progress, partial.txt holds the sets already done (see
 * explore_journal.c, explore.c); it is replaced for the next point once a
 * point's block is written, and a journal left from a point already in
 * results.csv is dropped on resume. */
#include "explore/explore_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static rtp_status cut_file(const char *path, size_t end, rtp_diag *diag)
{
    return truncate(path, (off_t)end) == 0 ? RTP_OK : explore_io_error(diag, path, "truncate");
}

/* Fresh start or resume: on return the files hold whole blocks only and
 * *done is the number of this shard's points already finished. */
static rtp_status prepare(const rtp_sweep *sw, const char *text, size_t len,
                          const rtp_explore_opts *o, const explore_paths *paths, size_t *done,
                          rtp_diag *diag)
{
    int has_results = access(paths->results, F_OK) == 0;
    rtp_status st;
    *done = 0;
    if (has_results && !o->resume && !o->force)
        return rtp_diag_set(diag, RTP_EINPUT, "",
                            "%s already holds results: add --resume to continue that sweep, "
                            "--force to replace them, or choose another --out", paths->dir);
    if (has_results && o->force) {
        /* results.csv first: until it is written again the folder is not a
         * started sweep, so a crash in between leaves nothing to resume. */
        if ((unlink(paths->results) != 0 && errno != ENOENT) ||
            (unlink(paths->jsonl) != 0 && errno != ENOENT) ||
            (unlink(paths->partial) != 0 && errno != ENOENT))
            return explore_io_error(diag, paths->dir, "replace the results in");
    } else if (has_results) {
        explore_manifest m;
        size_t end, t_end = 0, j_end = 0;
        if ((st = explore_read_manifest(paths->manifest, &m, diag)) != RTP_OK ||
            (st = explore_check_manifest(&m, sw, paths->manifest, diag)) != RTP_OK)
            return st;
        if (m.k != o->shard_k || m.n != o->shard_n)
            return rtp_diag_set(diag, RTP_EINPUT, "", "%s: holds shard %d/%d, not %d/%d",
                                paths->manifest, m.k, m.n, o->shard_k, o->shard_n);
        if (m.set_time_limit_ns != o->set_time_limit_ns) /* time-outs would not compare */
            return rtp_diag_set(diag, RTP_EINPUT, "",
                                "%s: started with --set-time-limit %lldns, not %lldns: resume "
                                "with the same limit, or --force to start afresh",
                                paths->manifest, (long long)m.set_time_limit_ns,
                                (long long)o->set_time_limit_ns);
        if ((st = explore_read_results(sw, paths->results, m.k, m.n, NULL, NULL, done, &end,
                                       diag)) != RTP_OK ||
            (st = explore_block_end(paths->timing, strlen(explore_timing_header(sw)),
                                    sw->n_policies * sw->n_methods, *done, &t_end, NULL,
                                    diag)) != RTP_OK ||
            (sw->doc.sets_jsonl &&
             (st = explore_block_end(paths->jsonl, 0, (size_t)sw->doc.sets_per_point, *done,
                                     &j_end, NULL, diag)) != RTP_OK))
            return st;
        if ((st = cut_file(paths->results, end, diag)) != RTP_OK ||
            (st = cut_file(paths->timing, t_end, diag)) != RTP_OK)
            return st;
        return sw->doc.sets_jsonl ? cut_file(paths->jsonl, j_end, diag) : RTP_OK;
    }
    const char *th = explore_timing_header(sw), *rh = explore_results_header(sw);
    if (unlink(paths->partial) != 0 && errno != ENOENT)
        return explore_io_error(diag, paths->partial, "remove");
    if ((st = explore_write_manifest(paths->manifest, sw, o->shard_k, o->shard_n,
                                     o->set_time_limit_ns, diag)) != RTP_OK ||
        (st = explore_write_text(paths->sweep, text, len, diag)) != RTP_OK ||
        (st = explore_write_text(paths->timing, th, strlen(th), diag)) != RTP_OK ||
        (sw->doc.sets_jsonl && (st = explore_write_text(paths->jsonl, "", 0, diag)) != RTP_OK))
        return st;
    /* results.csv last: its presence marks a started sweep. */
    return explore_write_text(paths->results, rh, strlen(rh), diag);
}

/* explore_points_run's commit: a whole point's blocks to the files. */
typedef struct files {
    const rtp_sweep *sw;
    const explore_paths *paths;
} files;

static rtp_status append_point(void *ctx, size_t point, const rtp_explore_cell *cells,
                               const char *jsonl, rtp_diag *diag)
{
    const files *f = ctx;
    const rtp_sweep *sw = f->sw;
    const explore_paths *paths = f->paths;
    rtp_text timing, results;
    rtp_text_init(&timing);
    rtp_text_init(&results);
    explore_put_timing(&timing, sw, point, cells);
    explore_put_results(&results, sw, point, cells);
    rtp_status st = RTP_OK;
    if (rtp_text_status(&timing) != RTP_OK || rtp_text_status(&results) != RTP_OK)
        st = rtp_diag_set(diag, RTP_ENOMEM, "", "out of memory");
    if (st == RTP_OK && jsonl)
        st = explore_append_text(paths->jsonl, jsonl, strlen(jsonl), diag);
    if (st == RTP_OK)
        st = explore_append_text(paths->timing, timing.data, timing.len, diag);
    if (st == RTP_OK)
        st = explore_append_text(paths->results, results.data, results.len, diag);
    rtp_text_free(&timing);
    rtp_text_free(&results);
    return st;
}

rtp_status rtp_explore_run(const char *text, size_t len, const rtp_explore_opts *o,
                           rtp_diag *diag)
{
    if (o->shard_n < 1 || o->shard_k < 1 || o->shard_k > o->shard_n)
        return rtp_diag_set(diag, RTP_EINPUT, "", "--shard K/N needs 1 <= K <= N");
    rtp_sweep sw;
    rtp_status st = rtp_sweep_parse(text, len, &sw, diag);
    if (st != RTP_OK)
        return st;
    explore_paths paths;
    explore_make_paths(o->out_dir, &paths);
    size_t done = 0, mine = explore_shard_size(&sw, o->shard_k, o->shard_n);
    if ((st = explore_make_dir(&paths, diag)) != RTP_OK ||
        (st = prepare(&sw, text, len, o, &paths, &done, diag)) != RTP_OK)
        goto done;
    uint64_t sets = (uint64_t)sw.doc.sets_per_point;
    rtp_explore_tally tally = {0, (mine - done) * sets, 0, done, mine};
    files f = {&sw, &paths};
    st = explore_points_run(&sw, explore_shard_point(done, o->shard_k, o->shard_n),
                            (size_t)o->shard_n, mine - done, o, paths.partial, &tally,
                            sw.doc.sets_jsonl, append_point, &f, diag);
    if (st == RTP_OK && unlink(paths.partial) != 0 && errno != ENOENT) /* a stale one */
        st = explore_io_error(diag, paths.partial, "remove");
    if (st == RTP_OK || (o->interrupt && *o->interrupt)) { /* keep what is done */
        rtp_diag keep = *diag;
        rtp_status fin = explore_finish(&sw, &paths, o->shard_k, o->shard_n, diag);
        if (st != RTP_OK && fin == RTP_OK)
            *diag = keep;
        st = st != RTP_OK ? st : fin;
    }
done:
    rtp_sweep_free(&sw);
    return st;
}
