/* explore/explore_run.c — the files of `rtpack explore` and `rtpack merge`
 * (see explore.h and docs/explore.md).
 *
 * A shard's points are p = K-1, K-1+N, ... in sweep order. Each output file
 * holds one block per finished point: results.csv and timing.csv one line per
 * policy x method, sets.jsonl one line per set. Blocks are appended in the
 * order sets.jsonl, timing.csv, results.csv and flushed to disk, so
 * results.csv is the commit record: --resume keeps its whole blocks (checking
 * every key) and cuts the other files to the same number of blocks. */
#include "explore/explore.h"
#include "explore/svg.h"
#include "models/text.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char results_header[] =
    "tasks,cpus,utilization,deadlines,policy,method,accepted,total,ratio,timeouts\n";
static const char timing_header[] =
    "tasks,cpus,utilization,deadlines,policy,method,sets,median_us,p99_us\n";

typedef struct out_paths {
    char dir[512], manifest[600], sweep[600], results[600], timing[600], jsonl[600],
        weighted[600], svg[600];
} out_paths;

static void make_paths(const char *dir, out_paths *p)
{
    snprintf(p->dir, sizeof p->dir, "%s", dir);
    snprintf(p->manifest, sizeof p->manifest, "%s/manifest.txt", dir);
    snprintf(p->sweep, sizeof p->sweep, "%s/sweep.json", dir);
    snprintf(p->results, sizeof p->results, "%s/results.csv", dir);
    snprintf(p->timing, sizeof p->timing, "%s/timing.csv", dir);
    snprintf(p->jsonl, sizeof p->jsonl, "%s/sets.jsonl", dir);
    snprintf(p->weighted, sizeof p->weighted, "%s/weighted.csv", dir);
    snprintf(p->svg, sizeof p->svg, "%s/acceptance.svg", dir);
}

static rtp_status io_error(rtp_diag *diag, const char *path, const char *what)
{
    return rtp_diag_set(diag, RTP_EINPUT, "", "%s: cannot %s: %s", path, what, strerror(errno));
}

static rtp_status write_text(const char *path, const char *text, size_t len, rtp_diag *diag)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return io_error(diag, path, "write");
    int ok = fwrite(text, 1, len, f) == len;
    ok = fclose(f) == 0 && ok;
    return ok ? RTP_OK : io_error(diag, path, "write");
}

/* Appends and forces the bytes to disk (a crash keeps whole blocks). */
static rtp_status append_text(const char *path, const char *text, size_t len, rtp_diag *diag)
{
    int fd = open(path, O_WRONLY | O_APPEND | O_CREAT, 0644);
    if (fd < 0)
        return io_error(diag, path, "append to");
    size_t done = 0;
    while (done < len) {
        ssize_t n = write(fd, text + done, len - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            close(fd);
            return io_error(diag, path, "append to");
        }
        done += (size_t)n;
    }
    int ok = fsync(fd) == 0 || errno == EINVAL;
    ok = close(fd) == 0 && ok;
    return ok ? RTP_OK : io_error(diag, path, "append to");
}

/* --- formatting ------------------------------------------------------------ */

static void put_row_prefix(rtp_text *b, const rtp_sweep *sw, size_t point, size_t p, size_t k)
{
    char key[160];
    rtp_sweep_point_key(sw, point, key, sizeof key);
    rtp_text_printf(b, "%s,%s,%s,", key, rtp_policy_name(sw->policies[p]),
                    rtp_explore_method_name(sw->methods[k]));
}

/* accepted/total to 6 places, rounded half up, in integers. */
static void put_ratio(rtp_text *b, int64_t accepted, int64_t total)
{
    int64_t micro = total ? (accepted * 2000000 + total) / (2 * total) : 0;
    rtp_text_printf(b, "%lld.%06lld", (long long)(micro / 1000000), (long long)(micro % 1000000));
}

static void put_results_block(rtp_text *b, const rtp_sweep *sw, size_t point,
                              const rtp_explore_cell *cells)
{
    for (size_t p = 0; p < sw->n_policies; p++)
        for (size_t k = 0; k < sw->n_methods; k++) {
            const rtp_explore_cell *c = &cells[p * sw->n_methods + k];
            put_row_prefix(b, sw, point, p, k);
            rtp_text_printf(b, "%lld,%lld,", (long long)c->accepted, (long long)c->total);
            put_ratio(b, c->accepted, c->total);
            rtp_text_printf(b, ",%lld\n", (long long)c->timeouts);
        }
}

static void put_timing_block(rtp_text *b, const rtp_sweep *sw, size_t point,
                             const rtp_explore_cell *cells)
{
    for (size_t p = 0; p < sw->n_policies; p++)
        for (size_t k = 0; k < sw->n_methods; k++) {
            const rtp_explore_cell *c = &cells[p * sw->n_methods + k];
            put_row_prefix(b, sw, point, p, k);
            rtp_text_printf(b, "%lld,%lld.%03lld,%lld.%03lld\n", (long long)c->total,
                            (long long)(c->median_ns / 1000), (long long)(c->median_ns % 1000),
                            (long long)(c->p99_ns / 1000), (long long)(c->p99_ns % 1000));
        }
}

/* --- reading back ------------------------------------------------------------ */

/* Offsets of the starts of the complete lines of text after `skip` bytes,
 * plus one past the last complete line: offsets[0..*n]. */
static size_t *line_starts(const char *text, size_t len, size_t skip, size_t *n)
{
    size_t count = 0;
    for (size_t i = skip; i < len; i++)
        count += text[i] == '\n';
    size_t *at = malloc((count + 1) * sizeof *at);
    if (!at)
        return NULL;
    size_t k = 0;
    at[k++] = skip;
    for (size_t i = skip; i < len; i++)
        if (text[i] == '\n')
            at[k++] = i + 1;
    *n = count;
    return at;
}

/* Point of the j-th block of shard k/n. */
static size_t shard_point(size_t j, int k, int n)
{
    return j * (size_t)n + (size_t)(k - 1);
}

static size_t shard_size(const rtp_sweep *sw, int k, int n)
{
    return sw->n_points > (size_t)(k - 1) ? (sw->n_points - (size_t)k) / (size_t)n + 1 : 0;
}

/* Reads results.csv of shard k/n: *blocks whole points whose keys all match;
 * their cells go to table (and have[] = 1) when table != NULL; *end = byte
 * offset after the last whole block. A missing file is 0 blocks. */
/* rtp_read_file, with the file's path in the message (merge reads many). */
static rtp_status read_named(const char *path, char **text, size_t *len, rtp_diag *diag)
{
    rtp_status st = rtp_read_file(path, text, len, diag);
    if (st != RTP_OK && diag) {
        char reason[sizeof diag->message];
        snprintf(reason, sizeof reason, "%s", diag->message);
        rtp_diag_set(diag, st, "", "%s: %s", path, reason);
    }
    return st;
}

static rtp_status read_results(const rtp_sweep *sw, const char *path, int k, int n,
                               rtp_explore_cell *table, unsigned char *have, size_t *blocks,
                               size_t *end, rtp_diag *diag)
{
    char *text = NULL;
    size_t len = 0, lines = 0, pm = sw->n_policies * sw->n_methods;
    *blocks = 0;
    *end = 0;
    if (access(path, F_OK) != 0)
        return RTP_OK;
    rtp_status st = read_named(path, &text, &len, diag);
    if (st != RTP_OK)
        return st;
    size_t hlen = strlen(results_header);
    if (len < hlen || memcmp(text, results_header, hlen) != 0) {
        free(text);
        return rtp_diag_set(diag, RTP_EINPUT, "", "%s: not a results.csv of rtpack explore", path);
    }
    size_t *at = line_starts(text, len, hlen, &lines);
    if (!at) {
        free(text);
        return rtp_diag_set(diag, RTP_ENOMEM, "", "out of memory");
    }
    size_t limit = shard_size(sw, k, n), line = 0;
    rtp_text prefix;
    rtp_text_init(&prefix);
    while (*blocks < limit && line + pm <= lines && st == RTP_OK) {
        size_t point = shard_point(*blocks, k, n);
        for (size_t c = 0; c < pm && st == RTP_OK; c++, line++) {
            prefix.len = 0;
            put_row_prefix(&prefix, sw, point, c / sw->n_methods, c % sw->n_methods);
            const char *row = text + at[line];
            long long acc, tot, to;
            char tail;
            if (rtp_text_status(&prefix) != RTP_OK)
                st = rtp_diag_set(diag, RTP_ENOMEM, "", "out of memory");
            else if (strncmp(row, prefix.data, prefix.len) != 0 ||
                     sscanf(row + prefix.len, "%lld,%lld,%*[0-9.],%lld%c", &acc, &tot, &to,
                            &tail) != 4 || tail != '\n')
                st = rtp_diag_set(diag, RTP_EINPUT, "", "%s: line %zu is not the row of %.*s",
                                  path, line + 2, (int)prefix.len - 1, prefix.data);
            else if (table) {
                rtp_explore_cell *cell = &table[point * pm + c];
                cell->accepted = acc;
                cell->total = tot;
                cell->timeouts = to;
                have[point] = 1;
            }
        }
        if (st == RTP_OK)
            ++*blocks;
    }
    *end = at[*blocks * pm];
    rtp_text_free(&prefix);
    free(at);
    free(text);
    return st;
}

/* Byte offset after `blocks` blocks of `per_block` lines (after a header of
 * hlen bytes), or RTP_EINPUT when the file is shorter. */
static rtp_status block_end(const char *path, size_t hlen, size_t per_block, size_t blocks,
                            size_t *end, char **keep_text, rtp_diag *diag)
{
    char *text = NULL;
    size_t len = 0, lines = 0;
    rtp_status st = read_named(path, &text, &len, diag);
    if (st != RTP_OK)
        return st;
    size_t *at = line_starts(text, len, hlen < len ? hlen : len, &lines);
    if (!at) {
        free(text);
        return rtp_diag_set(diag, RTP_ENOMEM, "", "out of memory");
    }
    if (lines < blocks * per_block)
        st = rtp_diag_set(diag, RTP_EINPUT, "", "%s: holds fewer whole points than results.csv",
                          path);
    else
        *end = at[blocks * per_block];
    free(at);
    if (keep_text && st == RTP_OK)
        *keep_text = text;
    else
        free(text);
    return st;
}

/* --- manifest ----------------------------------------------------------------- */

static rtp_status write_manifest(const char *path, const rtp_sweep *sw, int k, int n,
                                 rtp_diag *diag)
{
    char text[256];
    int len = snprintf(text, sizeof text,
                       "rtpack-explore-manifest 1\ngenerator_version %d\nsweep_hash %016llx\n"
                       "shard %d/%d\npoints %zu\n",
                       RTP_GEN_VERSION, (unsigned long long)sw->hash, k, n, sw->n_points);
    return write_text(path, text, (size_t)len, diag);
}

typedef struct manifest {
    int version, k, n;
    unsigned long long hash;
} manifest;

static rtp_status read_manifest(const char *path, manifest *m, rtp_diag *diag)
{
    char *text = NULL;
    size_t len;
    rtp_status st = read_named(path, &text, &len, diag);
    if (st != RTP_OK)
        return st;
    int fields = sscanf(text, "rtpack-explore-manifest 1\ngenerator_version %d\nsweep_hash %llx\n"
                              "shard %d/%d\n", &m->version, &m->hash, &m->k, &m->n);
    free(text);
    if (fields != 4 || m->k < 1 || m->k > m->n)
        return rtp_diag_set(diag, RTP_EINPUT, "", "%s: not an rtpack explore manifest", path);
    return RTP_OK;
}

/* The same sweep and generator version as `sw`. */
static rtp_status check_manifest(const manifest *m, const rtp_sweep *sw, const char *path,
                                 rtp_diag *diag)
{
    if (m->version != RTP_GEN_VERSION)
        return rtp_diag_set(diag, RTP_EINPUT, "",
                            "%s: made with generator version %d, this rtpack has version %d",
                            path, m->version, RTP_GEN_VERSION);
    if (m->hash != sw->hash)
        return rtp_diag_set(diag, RTP_EINPUT, "",
                            "%s: made from a different sweep (hash %016llx, expected %016llx)",
                            path, m->hash, (unsigned long long)sw->hash);
    return RTP_OK;
}

/* --- summary files --------------------------------------------------------------- */

/* Weighted schedulability (Bastoni, Brandenburg & Anderson 2010):
 * W = sum_u u S(u) / sum_u u over the utilizations of each (tasks, cpus,
 * deadlines, policy, method) curve; display value, 6 places. */
static char *weighted_csv(const rtp_sweep *sw, const rtp_explore_cell *table,
                          const unsigned char *have)
{
    rtp_text b;
    rtp_text_init(&b);
    const rtp_sweep_doc *d = &sw->doc;
    size_t pm = sw->n_policies * sw->n_methods, nu = d->n_utilizations, nd = d->n_deadlines;
    rtp_text_append(&b, "tasks,cpus,deadlines,policy,method,points,weighted_schedulability\n");
    for (size_t t = 0; t < d->n_tasks; t++)
        for (size_t c = 0; c < d->n_cpus; c++)
            for (size_t l = 0; l < nd; l++)
                for (size_t cell = 0; cell < pm; cell++) {
                    double num = 0.0, den = 0.0;
                    size_t used = 0;
                    for (size_t u = 0; u < nu; u++) {
                        size_t point = ((t * d->n_cpus + c) * nu + u) * nd + l;
                        const rtp_explore_cell *x = &table[point * pm + cell];
                        if (!have[point] || x->total == 0)
                            continue;
                        double util = rtp_ratio_double(d->utilizations[u]);
                        num += util * (double)x->accepted / (double)x->total;
                        den += util;
                        used++;
                    }
                    if (used == 0)
                        continue;
                    rtp_text_printf(&b, "%lld,%lld,%s,%s,%s,%zu,%.6f\n", (long long)d->tasks[t],
                                    (long long)d->cpus[c], d->deadlines[l],
                                    rtp_policy_name(sw->policies[cell / sw->n_methods]),
                                    rtp_explore_method_name(sw->methods[cell % sw->n_methods]),
                                    used, num / den);
                }
    return rtp_text_take(&b);
}

/* weighted.csv and acceptance.svg from the rows of results.csv. */
static rtp_status finish(const rtp_sweep *sw, const out_paths *paths, int k, int n,
                         rtp_diag *diag)
{
    size_t pm = sw->n_policies * sw->n_methods, blocks, end;
    rtp_explore_cell *table = calloc(sw->n_points * pm, sizeof *table);
    unsigned char *have = calloc(sw->n_points, 1);
    char *weighted = NULL, *svg = NULL;
    rtp_status st;
    if (!table || !have) {
        st = rtp_diag_set(diag, RTP_ENOMEM, "", "out of memory");
        goto done;
    }
    if ((st = read_results(sw, paths->results, k, n, table, have, &blocks, &end, diag)) != RTP_OK)
        goto done;
    if (!(weighted = weighted_csv(sw, table, have)) || !(svg = rtp_svg_acceptance(sw, table, have))) {
        st = rtp_diag_set(diag, RTP_ENOMEM, "", "out of memory");
        goto done;
    }
    if ((st = write_text(paths->weighted, weighted, strlen(weighted), diag)) == RTP_OK)
        st = write_text(paths->svg, svg, strlen(svg), diag);
done:
    free(weighted);
    free(svg);
    free(table);
    free(have);
    return st;
}

/* --- explore ------------------------------------------------------------------------ */

static rtp_status make_dir(const char *dir, rtp_diag *diag)
{
    if (mkdir(dir, 0755) != 0 && errno != EEXIST)
        return io_error(diag, dir, "create the folder");
    struct stat sb;
    if (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode))
        return rtp_diag_set(diag, RTP_EINPUT, "", "%s: not a folder", dir);
    return RTP_OK;
}

static rtp_status cut_file(const char *path, size_t end, rtp_diag *diag)
{
    return truncate(path, (off_t)end) == 0 ? RTP_OK : io_error(diag, path, "truncate");
}

/* Fresh start or resume: on return the files hold whole blocks only and
 * *done is the number of this shard's points already finished. */
static rtp_status prepare(const rtp_sweep *sw, const char *text, size_t len,
                          const rtp_explore_opts *o, const out_paths *paths, size_t *done,
                          rtp_diag *diag)
{
    int has_results = access(paths->results, F_OK) == 0;
    rtp_status st;
    *done = 0;
    if (has_results && !o->resume)
        return rtp_diag_set(diag, RTP_EINPUT, "",
                            "%s already holds results: add --resume to continue that sweep, "
                            "or choose another --out", paths->dir);
    if (has_results) {
        manifest m;
        size_t end, t_end = 0, j_end = 0;
        if ((st = read_manifest(paths->manifest, &m, diag)) != RTP_OK ||
            (st = check_manifest(&m, sw, paths->manifest, diag)) != RTP_OK)
            return st;
        if (m.k != o->shard_k || m.n != o->shard_n)
            return rtp_diag_set(diag, RTP_EINPUT, "", "%s: holds shard %d/%d, not %d/%d",
                                paths->manifest, m.k, m.n, o->shard_k, o->shard_n);
        if ((st = read_results(sw, paths->results, m.k, m.n, NULL, NULL, done, &end, diag)) != RTP_OK ||
            (st = block_end(paths->timing, strlen(timing_header),
                            sw->n_policies * sw->n_methods, *done, &t_end, NULL, diag)) != RTP_OK ||
            (sw->doc.sets_jsonl &&
             (st = block_end(paths->jsonl, 0, (size_t)sw->doc.sets_per_point, *done, &j_end,
                             NULL, diag)) != RTP_OK))
            return st;
        if ((st = cut_file(paths->results, end, diag)) != RTP_OK ||
            (st = cut_file(paths->timing, t_end, diag)) != RTP_OK)
            return st;
        return sw->doc.sets_jsonl ? cut_file(paths->jsonl, j_end, diag) : RTP_OK;
    }
    if ((st = write_manifest(paths->manifest, sw, o->shard_k, o->shard_n, diag)) != RTP_OK ||
        (st = write_text(paths->sweep, text, len, diag)) != RTP_OK ||
        (st = write_text(paths->timing, timing_header, strlen(timing_header), diag)) != RTP_OK ||
        (sw->doc.sets_jsonl && (st = write_text(paths->jsonl, "", 0, diag)) != RTP_OK))
        return st;
    /* results.csv last: its presence marks a started sweep. */
    return write_text(paths->results, results_header, strlen(results_header), diag);
}

typedef struct progress_relay {
    const rtp_explore_opts *opts;
    uint64_t base, total;
} progress_relay;

static void relay(void *ctx, uint64_t done, uint64_t total)
{
    (void)total;
    progress_relay *r = ctx;
    r->opts->progress(r->opts->progress_ctx, r->base + done, r->total);
}

static rtp_status append_point(const rtp_sweep *sw, const out_paths *paths, size_t point,
                               const rtp_explore_cell *cells, const char *jsonl, rtp_diag *diag)
{
    rtp_text timing, results;
    rtp_text_init(&timing);
    rtp_text_init(&results);
    put_timing_block(&timing, sw, point, cells);
    put_results_block(&results, sw, point, cells);
    rtp_status st = RTP_OK;
    if (rtp_text_status(&timing) != RTP_OK || rtp_text_status(&results) != RTP_OK)
        st = rtp_diag_set(diag, RTP_ENOMEM, "", "out of memory");
    if (st == RTP_OK && jsonl)
        st = append_text(paths->jsonl, jsonl, strlen(jsonl), diag);
    if (st == RTP_OK)
        st = append_text(paths->timing, timing.data, timing.len, diag);
    if (st == RTP_OK)
        st = append_text(paths->results, results.data, results.len, diag);
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
    out_paths paths;
    make_paths(o->out_dir, &paths);
    size_t done = 0, mine = shard_size(&sw, o->shard_k, o->shard_n);
    rtp_explore_cell *cells = calloc(sw.n_policies * sw.n_methods, sizeof *cells);
    if (!cells) {
        st = rtp_diag_set(diag, RTP_ENOMEM, "", "out of memory");
        goto done;
    }
    if ((st = make_dir(o->out_dir, diag)) != RTP_OK ||
        (st = prepare(&sw, text, len, o, &paths, &done, diag)) != RTP_OK)
        goto done;
    uint64_t sets = (uint64_t)sw.doc.sets_per_point;
    progress_relay r = {o, 0, (mine - done) * sets};
    for (size_t j = done; j < mine && st == RTP_OK; j++) {
        size_t point = shard_point(j, o->shard_k, o->shard_n);
        char *jsonl = NULL;
        st = rtp_explore_point(&sw, point, o->threads, cells, sw.doc.sets_jsonl ? &jsonl : NULL,
                               o->progress ? relay : NULL, &r, diag);
        if (st == RTP_OK)
            st = append_point(&sw, &paths, point, cells, jsonl, diag);
        free(jsonl);
        r.base += sets;
    }
    if (st == RTP_OK)
        st = finish(&sw, &paths, o->shard_k, o->shard_n, diag);
done:
    free(cells);
    rtp_sweep_free(&sw);
    return st;
}

/* --- merge --------------------------------------------------------------------------- */

typedef struct shard_in {
    out_paths paths;
    manifest m;
    char *timing, *jsonl;  /* whole files */
    size_t *timing_at, *jsonl_at;
} shard_in;

static rtp_status load_shard(const rtp_sweep *sw, shard_in *s, rtp_diag *diag)
{
    size_t blocks, end, lines, t_end, j_end;
    rtp_status st = read_results(sw, s->paths.results, s->m.k, s->m.n, NULL, NULL, &blocks,
                                 &end, diag);
    if (st != RTP_OK)
        return st;
    size_t want = shard_size(sw, s->m.k, s->m.n);
    if (blocks != want)
        return rtp_diag_set(diag, RTP_EINPUT, "",
                            "%s: shard %d/%d is incomplete (%zu of %zu points): finish it with "
                            "rtpack explore --resume", s->paths.dir, s->m.k, s->m.n, blocks, want);
    size_t hlen = strlen(timing_header);
    if ((st = block_end(s->paths.timing, hlen, sw->n_policies * sw->n_methods, blocks, &t_end,
                        &s->timing, diag)) != RTP_OK)
        return st;
    if (!(s->timing_at = line_starts(s->timing, t_end, hlen, &lines)))
        return rtp_diag_set(diag, RTP_ENOMEM, "", "out of memory");
    if (!sw->doc.sets_jsonl)
        return RTP_OK;
    if ((st = block_end(s->paths.jsonl, 0, (size_t)sw->doc.sets_per_point, blocks, &j_end,
                        &s->jsonl, diag)) != RTP_OK)
        return st;
    if (!(s->jsonl_at = line_starts(s->jsonl, j_end, 0, &lines)))
        return rtp_diag_set(diag, RTP_ENOMEM, "", "out of memory");
    return RTP_OK;
}

/* Point p's block of a file whose blocks hold `per` lines (line offsets at). */
static void put_block(rtp_text *b, const char *text, const size_t *at, size_t j, size_t per)
{
    size_t from = at[j * per], to = at[(j + 1) * per];
    rtp_text_printf(b, "%.*s", (int)(to - from), text + from);
}

static rtp_status write_merged(const rtp_sweep *sw, shard_in *shards, int n, const char *text,
                               size_t len, const out_paths *out, rtp_diag *diag)
{
    rtp_text results, timing, jsonl;
    rtp_text_init(&results);
    rtp_text_init(&timing);
    rtp_text_init(&jsonl);
    size_t pm = sw->n_policies * sw->n_methods;
    rtp_explore_cell *table = calloc(sw->n_points * pm, sizeof *table);
    unsigned char *have = calloc(sw->n_points, 1);
    rtp_status st = RTP_OK;
    if (!table || !have)
        st = rtp_diag_set(diag, RTP_ENOMEM, "", "out of memory");
    for (int i = 0; i < n && st == RTP_OK; i++) {
        size_t blocks, end;
        st = read_results(sw, shards[i].paths.results, shards[i].m.k, n, table, have, &blocks,
                          &end, diag);
    }
    rtp_text_append(&results, results_header);
    rtp_text_append(&timing, timing_header);
    for (size_t p = 0; p < sw->n_points && st == RTP_OK; p++) {
        shard_in *s = &shards[p % (size_t)n]; /* shards[] is sorted by K */
        size_t j = p / (size_t)n;
        put_results_block(&results, sw, p, &table[p * pm]);
        put_block(&timing, s->timing, s->timing_at, j, pm);
        if (sw->doc.sets_jsonl)
            put_block(&jsonl, s->jsonl, s->jsonl_at, j, (size_t)sw->doc.sets_per_point);
    }
    if (st == RTP_OK && (rtp_text_status(&results) != RTP_OK ||
                         rtp_text_status(&timing) != RTP_OK || rtp_text_status(&jsonl) != RTP_OK))
        st = rtp_diag_set(diag, RTP_ENOMEM, "", "out of memory");
    if (st == RTP_OK && (st = make_dir(out->dir, diag)) == RTP_OK &&
        (st = write_manifest(out->manifest, sw, 1, 1, diag)) == RTP_OK &&
        (st = write_text(out->sweep, text, len, diag)) == RTP_OK &&
        (st = write_text(out->timing, timing.data, timing.len, diag)) == RTP_OK &&
        (!sw->doc.sets_jsonl ||
         (st = write_text(out->jsonl, jsonl.data ? jsonl.data : "", jsonl.len, diag)) == RTP_OK) &&
        (st = write_text(out->results, results.data, results.len, diag)) == RTP_OK)
        st = finish(sw, out, 1, 1, diag);
    rtp_text_free(&results);
    rtp_text_free(&timing);
    rtp_text_free(&jsonl);
    free(table);
    free(have);
    return st;
}

rtp_status rtp_explore_merge(const char *const *dirs, size_t n_dirs, const char *out_dir,
                             rtp_diag *diag)
{
    if (n_dirs == 0)
        return rtp_diag_set(diag, RTP_EINPUT, "", "no shard folders given");
    shard_in *shards = calloc(n_dirs, sizeof *shards);
    char *text = NULL;
    size_t len = 0;
    rtp_sweep sw;
    memset(&sw, 0, sizeof sw);
    out_paths out;
    make_paths(out_dir, &out);
    rtp_status st = shards ? RTP_OK : rtp_diag_set(diag, RTP_ENOMEM, "", "out of memory");
    if (st == RTP_OK) {
        make_paths(dirs[0], &shards[0].paths);
        if ((st = read_named(shards[0].paths.sweep, &text, &len, diag)) == RTP_OK)
            st = rtp_sweep_parse(text, len, &sw, diag);
    }
    for (size_t i = 0; i < n_dirs && st == RTP_OK; i++) {
        shard_in s;
        memset(&s, 0, sizeof s);
        make_paths(dirs[i], &s.paths);
        if (strcmp(s.paths.dir, out.dir) == 0)
            st = rtp_diag_set(diag, RTP_EINPUT, "", "--out %s is one of the shards", out_dir);
        else if ((st = read_manifest(s.paths.manifest, &s.m, diag)) == RTP_OK &&
                 (st = check_manifest(&s.m, &sw, s.paths.manifest, diag)) == RTP_OK) {
            if ((size_t)s.m.n != n_dirs)
                st = rtp_diag_set(diag, RTP_EINPUT, "", "%s: shard %d/%d, but %zu folders given",
                                  s.paths.dir, s.m.k, s.m.n, n_dirs);
            else if (shards[s.m.k - 1].m.k != 0)
                st = rtp_diag_set(diag, RTP_EINPUT, "", "%s: shard %d/%d is given twice",
                                  s.paths.dir, s.m.k, s.m.n);
            else
                shards[s.m.k - 1] = s;
        }
    }
    for (size_t i = 0; i < n_dirs && st == RTP_OK; i++)
        st = load_shard(&sw, &shards[i], diag);
    if (st == RTP_OK)
        st = write_merged(&sw, shards, (int)n_dirs, text, len, &out, diag);
    for (size_t i = 0; shards && i < n_dirs; i++) {
        free(shards[i].timing);
        free(shards[i].jsonl);
        free(shards[i].timing_at);
        free(shards[i].jsonl_at);
    }
    free(shards);
    free(text);
    rtp_sweep_free(&sw);
    return st;
}
