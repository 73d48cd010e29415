/* explore/explore_rows.c — the rows of results.csv and timing.csv: written
 * one block per point, read back (with every key checked) for --resume,
 * merge and the summary files (see explore_internal.h). */
#include "explore/explore_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define RESOURCE_COLUMNS ",resources,access,requests,cs_min_ns,cs_max_ns"
#define RESULTS_COLUMNS "tasks,cpus,utilization,deadlines,policy,method,accepted,total,ratio," \
                        "timeouts"
#define TIMING_COLUMNS "tasks,cpus,utilization,deadlines,policy,method,sets,median_us,p99_us"

const char *explore_results_header(const rtp_sweep *sw)
{
    return sw->doc.n_resource_counts ? RESULTS_COLUMNS RESOURCE_COLUMNS "\n"
                                     : RESULTS_COLUMNS "\n";
}

const char *explore_timing_header(const rtp_sweep *sw)
{
    return sw->doc.n_resource_counts ? TIMING_COLUMNS RESOURCE_COLUMNS "\n" : TIMING_COLUMNS "\n";
}

/* The end of a row: the resource columns (in a sweep with them) and '\n'. */
static void put_row_end(rtp_text *b, const rtp_sweep *sw, size_t point)
{
    char res[160];
    rtp_sweep_point_resources(sw, point, res, sizeof res);
    rtp_text_printf(b, "%s%s\n", res[0] ? "," : "", res);
}

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

void explore_put_results(rtp_text *b, const rtp_sweep *sw, size_t point,
                         const rtp_explore_cell *cells)
{
    for (size_t p = 0; p < sw->n_policies; p++)
        for (size_t k = 0; k < sw->n_methods; k++) {
            const rtp_explore_cell *c = &cells[p * sw->n_methods + k];
            put_row_prefix(b, sw, point, p, k);
            rtp_text_printf(b, "%lld,%lld,", (long long)c->accepted, (long long)c->total);
            put_ratio(b, c->accepted, c->total);
            rtp_text_printf(b, ",%lld", (long long)c->timeouts);
            put_row_end(b, sw, point);
        }
}

void explore_put_timing(rtp_text *b, const rtp_sweep *sw, size_t point,
                        const rtp_explore_cell *cells)
{
    for (size_t p = 0; p < sw->n_policies; p++)
        for (size_t k = 0; k < sw->n_methods; k++) {
            const rtp_explore_cell *c = &cells[p * sw->n_methods + k];
            put_row_prefix(b, sw, point, p, k);
            rtp_text_printf(b, "%lld,%lld.%03lld,%lld.%03lld", (long long)c->total,
                            (long long)(c->median_ns / 1000), (long long)(c->median_ns % 1000),
                            (long long)(c->p99_ns / 1000), (long long)(c->p99_ns % 1000));
            put_row_end(b, sw, point);
        }
}

size_t explore_n_counts(const rtp_sweep *sw)
{
    return sw->doc.n_resource_counts ? sw->doc.n_resource_counts : 1;
}

size_t explore_n_lengths(const rtp_sweep *sw)
{
    return sw->doc.n_resource_counts ? sw->doc.n_cs_lengths : 1;
}

size_t explore_point_index(const rtp_sweep *sw, size_t t, size_t c, size_t u, size_t l,
                           size_t r, size_t s)
{
    const rtp_sweep_doc *d = &sw->doc;
    size_t k = ((t * d->n_cpus + c) * d->n_utilizations + u) * d->n_deadlines + l;
    return (k * explore_n_counts(sw) + r) * explore_n_lengths(sw) + s;
}

size_t *explore_line_starts(const char *text, size_t len, size_t skip, size_t *n)
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

size_t explore_shard_point(size_t j, int k, int n)
{
    return j * (size_t)n + (size_t)(k - 1);
}

size_t explore_shard_size(const rtp_sweep *sw, int k, int n)
{
    return sw->n_points > (size_t)(k - 1) ? (sw->n_points - (size_t)k) / (size_t)n + 1 : 0;
}

/* 1 when row[0..len) is exactly the row explore_put_results writes for
 * these counts after `prefix` (which it extends). */
static int same_row(rtp_text *prefix, const rtp_sweep *sw, size_t point, const char *row,
                    size_t len, long long acc, long long tot, long long to)
{
    rtp_text_printf(prefix, "%lld,%lld,", acc, tot);
    put_ratio(prefix, acc, tot);
    rtp_text_printf(prefix, ",%lld", to);
    put_row_end(prefix, sw, point);
    return rtp_text_status(prefix) == RTP_OK && prefix->len == len &&
           memcmp(prefix->data, row, len) == 0;
}

rtp_status explore_read_results(const rtp_sweep *sw, const char *path, int k, int n,
                                rtp_explore_cell *table, unsigned char *have, size_t *blocks,
                                size_t *end, rtp_diag *diag)
{
    char *text = NULL;
    size_t len = 0, lines = 0, pm = sw->n_policies * sw->n_methods;
    *blocks = 0;
    *end = 0;
    if (access(path, F_OK) != 0)
        return RTP_OK;
    rtp_status st = explore_read_named(path, &text, &len, diag);
    if (st != RTP_OK)
        return st;
    const char *header = explore_results_header(sw);
    size_t hlen = strlen(header);
    if (len < hlen || memcmp(text, header, hlen) != 0) {
        free(text);
        return rtp_diag_set(diag, RTP_EINPUT, "", "%s: not a results.csv of rtpack explore", path);
    }
    size_t *at = explore_line_starts(text, len, hlen, &lines);
    if (!at) {
        free(text);
        return rtp_diag_set(diag, RTP_ENOMEM, "", "out of memory");
    }
    size_t limit = explore_shard_size(sw, k, n), line = 0;
    rtp_text prefix;
    rtp_text_init(&prefix);
    while (*blocks < limit && line + pm <= lines && st == RTP_OK) {
        size_t point = explore_shard_point(*blocks, k, n);
        for (size_t c = 0; c < pm && st == RTP_OK; c++, line++) {
            prefix.len = 0;
            put_row_prefix(&prefix, sw, point, c / sw->n_methods, c % sw->n_methods);
            const char *row = text + at[line];
            size_t row_len = at[line + 1] - at[line];
            long long acc, tot, to;
            char tail;
            if (rtp_text_status(&prefix) != RTP_OK)
                st = rtp_diag_set(diag, RTP_ENOMEM, "", "out of memory");
            else if (strncmp(row, prefix.data, prefix.len) != 0 ||
                     sscanf(row + prefix.len, "%lld,%lld,%*[0-9.],%lld%c", &acc, &tot, &to,
                            &tail) != 4 || (tail != '\n' && tail != ','))
                st = rtp_diag_set(diag, RTP_EINPUT, "", "%s: line %zu is not the row of %.*s",
                                  path, line + 2, (int)prefix.len - 1, prefix.data);
            /* The counts a run can have written, and the row it writes for
             * them byte for byte (ratio included): a tampered or damaged
             * row is refused, never merged ("accepted 999 of 400"). */
            else if (tot != sw->doc.sets_per_point || acc < 0 || to < 0 || acc + to > tot ||
                     !same_row(&prefix, sw, point, row, row_len, acc, tot, to))
                st = rtp_diag_set(diag, RTP_EINPUT, "",
                                  "%s: line %zu: %lld accepted and %lld time-outs of %lld sets "
                                  "is not a row rtpack explore writes (%lld sets per point)",
                                  path, line + 2, acc, to, tot,
                                  (long long)sw->doc.sets_per_point);
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

rtp_status explore_block_end(const char *path, size_t hlen, size_t per_block, size_t blocks,
                             size_t *end, char **keep_text, rtp_diag *diag)
{
    char *text = NULL;
    size_t len = 0, lines = 0;
    rtp_status st = explore_read_named(path, &text, &len, diag);
    if (st != RTP_OK)
        return st;
    size_t *at = explore_line_starts(text, len, hlen < len ? hlen : len, &lines);
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
