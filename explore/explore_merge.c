/* explore/explore_merge.c — `rtpack merge` (rtp_explore_merge, see
 * explore.h): checks that the shard folders are one whole sweep, then writes
 * the files a single run would have written, point by point in sweep order. */
#include "explore/explore_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct shard_in {
    explore_paths paths;
    explore_manifest m;
    char *timing, *jsonl;  /* whole files */
    size_t *timing_at, *jsonl_at;
} shard_in;

static rtp_status trailing(const char *path, size_t end, rtp_diag *diag)
{
    return rtp_diag_set(diag, RTP_EINPUT, "",
                        "%s: text after the shard's last point (from byte %zu) that rtpack "
                        "explore did not write: remove it, or run the shard again",
                        path, end);
}

static rtp_status load_shard(const rtp_sweep *sw, shard_in *s, rtp_diag *diag)
{
    size_t blocks, end, lines, t_end, j_end;
    rtp_status st = explore_read_results(sw, s->paths.results, s->m.k, s->m.n, NULL, NULL,
                                         &blocks, &end, diag);
    if (st != RTP_OK)
        return st;
    size_t want = explore_shard_size(sw, s->m.k, s->m.n);
    if (blocks != want)
        return rtp_diag_set(diag, RTP_EINPUT, "",
                            "%s: shard %d/%d is incomplete (%zu of %zu points): finish it with "
                            "rtpack explore --resume", s->paths.dir, s->m.k, s->m.n, blocks, want);
    /* A finished shard ends with its last block: anything after it was
     * not written by explore (a resumed run cuts a partial block away). */
    struct stat sb;
    if (stat(s->paths.results, &sb) == 0 && (size_t)sb.st_size != end)
        return trailing(s->paths.results, end, diag);
    size_t hlen = strlen(explore_timing_header(sw));
    if ((st = explore_block_end(s->paths.timing, hlen, sw->n_policies * sw->n_methods, blocks,
                                &t_end, &s->timing, diag)) != RTP_OK)
        return st;
    if (strlen(s->timing) != t_end)
        return trailing(s->paths.timing, t_end, diag);
    if (!(s->timing_at = explore_line_starts(s->timing, t_end, hlen, &lines)))
        return rtp_diag_set(diag, RTP_ENOMEM, "", "out of memory");
    if (!sw->doc.sets_jsonl)
        return RTP_OK;
    if ((st = explore_block_end(s->paths.jsonl, 0, (size_t)sw->doc.sets_per_point, blocks,
                                &j_end, &s->jsonl, diag)) != RTP_OK)
        return st;
    if (strlen(s->jsonl) != j_end)
        return trailing(s->paths.jsonl, j_end, diag);
    if (!(s->jsonl_at = explore_line_starts(s->jsonl, j_end, 0, &lines)))
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
                               size_t len, const explore_paths *out, rtp_diag *diag)
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
        st = explore_read_results(sw, shards[i].paths.results, shards[i].m.k, n, table, have,
                                  &blocks, &end, diag);
    }
    rtp_text_append(&results, explore_results_header(sw));
    rtp_text_append(&timing, explore_timing_header(sw));
    for (size_t p = 0; p < sw->n_points && st == RTP_OK; p++) {
        shard_in *s = &shards[p % (size_t)n]; /* shards[] is sorted by K */
        size_t j = p / (size_t)n;
        explore_put_results(&results, sw, p, &table[p * pm]);
        put_block(&timing, s->timing, s->timing_at, j, pm);
        if (sw->doc.sets_jsonl)
            put_block(&jsonl, s->jsonl, s->jsonl_at, j, (size_t)sw->doc.sets_per_point);
    }
    if (st == RTP_OK && (rtp_text_status(&results) != RTP_OK ||
                         rtp_text_status(&timing) != RTP_OK || rtp_text_status(&jsonl) != RTP_OK))
        st = rtp_diag_set(diag, RTP_ENOMEM, "", "out of memory");
    if (st == RTP_OK && (st = explore_make_dir(out, diag)) == RTP_OK &&
        (st = explore_write_manifest(out->manifest, sw, 1, 1, shards[0].m.set_time_limit_ns, diag)) == RTP_OK &&
        (st = explore_write_text(out->sweep, text, len, diag)) == RTP_OK &&
        (st = explore_write_text(out->timing, timing.data, timing.len, diag)) == RTP_OK &&
        (!sw->doc.sets_jsonl ||
         (st = explore_write_text(out->jsonl, jsonl.data ? jsonl.data : "", jsonl.len,
                                  diag)) == RTP_OK) &&
        (st = explore_write_text(out->results, results.data, results.len, diag)) == RTP_OK)
        st = explore_finish(sw, out, 1, 1, diag);
    rtp_text_free(&results);
    rtp_text_free(&timing);
    rtp_text_free(&jsonl);
    free(table);
    free(have);
    return st;
}

/* "2/3, 3/3 missing (given: 1/3 from DIR)": every shard K of N is in
 * by_k at index K - 1, or reported. */
static rtp_status check_missing(const shard_in *by_k, int n, rtp_diag *diag)
{
    char missing[160] = "", given[512] = "";
    size_t m_used = 0, g_used = 0;
    int n_missing = 0;
    for (int k = 0; k < n; k++) {
        if (by_k[k].m.k == 0 && m_used < sizeof missing) {
            n_missing++;
            m_used += (size_t)snprintf(missing + m_used, sizeof missing - m_used, "%s%d/%d",
                                       m_used ? ", " : "", k + 1, n);
        } else if (by_k[k].m.k != 0 && g_used < sizeof given) {
            g_used += (size_t)snprintf(given + g_used, sizeof given - g_used, "%s%d/%d from %s",
                                       g_used ? ", " : "", k + 1, n, by_k[k].paths.dir);
        }
    }
    if (n_missing == 0)
        return RTP_OK;
    return rtp_diag_set(diag, RTP_EINPUT, "", "shard%s %s missing (given: %s)",
                        n_missing > 1 ? "s" : "", missing, given);
}

/* Reads every folder's manifest into a new array by K (*by_k, N entries):
 * one sweep, one split, each shard once, none missing. */
static rtp_status collect(const char *const *dirs, size_t n_dirs, const rtp_sweep *sw,
                          const explore_paths *out, shard_in **by_k, int *n, rtp_diag *diag)
{
    shard_in *read = calloc(n_dirs, sizeof *read);
    rtp_status st = read ? RTP_OK : rtp_diag_set(diag, RTP_ENOMEM, "", "out of memory");
    for (size_t i = 0; i < n_dirs && st == RTP_OK; i++) {
        shard_in *s = &read[i];
        explore_make_paths(dirs[i], &s->paths);
        if (strcmp(s->paths.dir, out->dir) == 0)
            st = rtp_diag_set(diag, RTP_EINPUT, "", "--out %s is one of the shards", out->dir);
        else if ((st = explore_read_manifest(s->paths.manifest, &s->m, diag)) == RTP_OK &&
                 (st = explore_check_manifest(&s->m, sw, s->paths.manifest, diag)) == RTP_OK &&
                 s->m.n != read[0].m.n)
            st = rtp_diag_set(diag, RTP_EINPUT, "",
                              "%s holds shard %d/%d but %s holds shard %d/%d: shards of two "
                              "different splits", read[0].paths.dir, read[0].m.k, read[0].m.n,
                              s->paths.dir, s->m.k, s->m.n);
        else if (st == RTP_OK && s->m.set_time_limit_ns != read[0].m.set_time_limit_ns)
            st = rtp_diag_set(diag, RTP_EINPUT, "",
                              "%s ran with --set-time-limit %lldns but %s with %lldns: their "
                              "time-outs do not compare", read[0].paths.dir,
                              (long long)read[0].m.set_time_limit_ns, s->paths.dir,
                              (long long)s->m.set_time_limit_ns);
    }
    *n = st == RTP_OK ? read[0].m.n : 0;
    if (st == RTP_OK && !(*by_k = calloc((size_t)*n, sizeof **by_k)))
        st = rtp_diag_set(diag, RTP_ENOMEM, "", "out of memory");
    for (size_t i = 0; i < n_dirs && st == RTP_OK; i++) {
        shard_in *slot = &(*by_k)[read[i].m.k - 1];
        if (slot->m.k != 0)
            st = rtp_diag_set(diag, RTP_EINPUT, "", "%s: shard %d/%d is given twice (also %s)",
                              read[i].paths.dir, read[i].m.k, read[i].m.n, slot->paths.dir);
        else
            *slot = read[i];
    }
    if (st == RTP_OK)
        st = check_missing(*by_k, *n, diag);
    free(read);
    return st;
}

rtp_status rtp_explore_merge(const char *const *dirs, size_t n_dirs, const char *out_dir,
                             int force, rtp_diag *diag)
{
    if (n_dirs == 0)
        return rtp_diag_set(diag, RTP_EINPUT, "", "no shard folders given");
    shard_in *shards = NULL;
    char *text = NULL;
    size_t len = 0;
    int n = 0;
    rtp_sweep sw;
    memset(&sw, 0, sizeof sw);
    explore_paths out, first;
    explore_make_paths(out_dir, &out);
    explore_make_paths(dirs[0], &first);
    rtp_status st = explore_read_named(first.sweep, &text, &len, diag);
    if (st == RTP_OK && (st = rtp_sweep_parse(text, len, &sw, diag)) == RTP_OK)
        st = collect(dirs, n_dirs, &sw, &out, &shards, &n, diag);
    for (int k = 0; k < n && st == RTP_OK; k++)
        st = load_shard(&sw, &shards[k], diag);
    if (st == RTP_OK && !force && access(out.results, F_OK) == 0)
        st = rtp_diag_set(diag, RTP_EINPUT, "",
                          "%s already holds results: choose another --out, or add --force to "
                          "replace them", out.dir);
    if (st == RTP_OK)
        st = write_merged(&sw, shards, n, text, len, &out, diag);
    for (int k = 0; shards && k < n; k++) {
        free(shards[k].timing);
        free(shards[k].jsonl);
        free(shards[k].timing_at);
        free(shards[k].jsonl_at);
    }
    free(shards);
    free(text);
    rtp_sweep_free(&sw);
    return st;
}
