/* explore/explore_summary.c — weighted.csv and acceptance.svg, computed from
 * the rows of results.csv after a run or a merge (see explore_internal.h). */
#include "explore/explore_internal.h"
#include "explore/svg.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Weighted schedulability [BBA10]:
 * W = sum_u u S(u) / sum_u u over the utilizations of each (tasks, cpus,
 * deadlines, policy, method) curve; display value, 6 places. S counts
 * accepted sets; the upper column counts the undecided (time-outs) as
 * accepted too, so the truth lies between the two. */
static char *weighted_csv(const rtp_sweep *sw, const rtp_explore_cell *table,
                          const unsigned char *have)
{
    rtp_text b;
    rtp_text_init(&b);
    const rtp_sweep_doc *d = &sw->doc;
    size_t pm = sw->n_policies * sw->n_methods, nu = d->n_utilizations, nd = d->n_deadlines;
    size_t nr = explore_n_counts(sw), ns = explore_n_lengths(sw);
    rtp_text_printf(&b, "tasks,cpus,deadlines,policy,method,points,weighted_schedulability,"
                        "timeouts,weighted_schedulability_upper%s\n",
                    d->n_resource_counts ? ",resources,access,requests,cs_min_ns,cs_max_ns" : "");
    for (size_t t = 0; t < d->n_tasks; t++)
        for (size_t c = 0; c < d->n_cpus; c++)
            for (size_t l = 0; l < nd; l++)
                for (size_t rs = 0; rs < nr * ns; rs++)
                    for (size_t cell = 0; cell < pm; cell++) {
                        double num = 0.0, up = 0.0, den = 0.0;
                        size_t used = 0;
                        int64_t timeouts = 0;
                        for (size_t u = 0; u < nu; u++) {
                            size_t point = explore_point_index(sw, t, c, u, l, rs / ns, rs % ns);
                            const rtp_explore_cell *x = &table[point * pm + cell];
                            if (!have[point] || x->total == 0)
                                continue;
                            double util = rtp_ratio_double(d->utilizations[u]);
                            num += util * (double)x->accepted / (double)x->total;
                            up += util * (double)(x->accepted + x->timeouts) / (double)x->total;
                            den += util;
                            timeouts += x->timeouts;
                            used++;
                        }
                        if (used == 0)
                            continue;
                        char res[160];
                        rtp_sweep_point_resources(
                            sw, explore_point_index(sw, t, c, 0, l, rs / ns, rs % ns), res,
                            sizeof res);
                        rtp_text_printf(&b, "%lld,%lld,%s,%s,%s,%zu,%.6f,%lld,%.6f%s%s\n",
                                        (long long)d->tasks[t], (long long)d->cpus[c],
                                        d->deadlines[l],
                                        rtp_policy_name(sw->policies[cell / sw->n_methods]),
                                        rtp_explore_method_name(sw->methods[cell % sw->n_methods]),
                                        used, num / den, (long long)timeouts, up / den,
                                        res[0] ? "," : "", res);
                    }
    return rtp_text_take(&b);
}

rtp_status explore_finish(const rtp_sweep *sw, const explore_paths *paths, int k, int n,
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
    st = explore_read_results(sw, paths->results, k, n, table, have, &blocks, &end, diag);
    if (st != RTP_OK)
        goto done;
    if (!(weighted = weighted_csv(sw, table, have)) || !(svg = rtp_svg_acceptance(sw, table, have))) {
        st = rtp_diag_set(diag, RTP_ENOMEM, "", "out of memory");
        goto done;
    }
    if ((st = explore_write_text(paths->weighted, weighted, strlen(weighted), diag)) == RTP_OK)
        st = explore_write_text(paths->svg, svg, strlen(svg), diag);
done:
    free(weighted);
    free(svg);
    free(table);
    free(have);
    return st;
}

/* Sums the points the folder holds into out->totals (policy-major). */
static rtp_status sum_points(const rtp_sweep *sw, const explore_paths *paths,
                             rtp_explore_summary *out, rtp_diag *diag)
{
    size_t pm = sw->n_policies * sw->n_methods, end;
    rtp_explore_cell *table = calloc(sw->n_points * pm, sizeof *table);
    unsigned char *have = calloc(sw->n_points, 1);
    out->totals = calloc(pm, sizeof *out->totals);
    rtp_status st = table && have && out->totals
                        ? explore_read_results(sw, paths->results, out->shard_k, out->shard_n,
                                               table, have, &out->points_done, &end, diag)
                        : rtp_diag_set(diag, RTP_ENOMEM, "", "out of memory");
    for (size_t cell = 0; st == RTP_OK && cell < pm; cell++) {
        rtp_explore_total *t = &out->totals[cell];
        t->policy = rtp_policy_name(sw->policies[cell / sw->n_methods]);
        t->method = rtp_explore_method_name(sw->methods[cell % sw->n_methods]);
        for (size_t p = 0; p < sw->n_points; p++) {
            if (!have[p])
                continue;
            t->accepted += table[p * pm + cell].accepted;
            t->total += table[p * pm + cell].total;
            t->timeouts += table[p * pm + cell].timeouts;
        }
    }
    out->n_totals = st == RTP_OK ? pm : 0;
    free(table);
    free(have);
    return st;
}

rtp_status rtp_explore_summarize(const char *dir, rtp_explore_summary *out, rtp_diag *diag)
{
    memset(out, 0, sizeof *out);
    out->out_dir = dir;
    explore_paths paths;
    explore_make_paths(dir, &paths);
    explore_manifest m;
    rtp_sweep sw;
    memset(&sw, 0, sizeof sw);
    char *text = NULL;
    size_t len = 0;
    rtp_status st = explore_read_manifest(paths.manifest, &m, diag);
    if (st == RTP_OK && (st = explore_read_named(paths.sweep, &text, &len, diag)) == RTP_OK &&
        (st = rtp_sweep_parse(text, len, &sw, diag)) == RTP_OK &&
        (st = explore_check_manifest(&m, &sw, paths.manifest, diag)) == RTP_OK) {
        out->shard_k = m.k;
        out->shard_n = m.n;
        out->points_total = sw.n_points;
        out->points_in_shard = explore_shard_size(&sw, m.k, m.n);
        out->sets_per_point = sw.doc.sets_per_point;
        st = sum_points(&sw, &paths, out, diag);
    }
    const char *names[] = {"manifest.txt", "sweep.json",   "results.csv",   "timing.csv",
                           "sets.jsonl",   "weighted.csv", "acceptance.svg"};
    const char *full[] = {paths.manifest, paths.sweep,    paths.results, paths.timing,
                          paths.jsonl,    paths.weighted, paths.svg};
    for (size_t i = 0; st == RTP_OK && i < sizeof names / sizeof names[0]; i++)
        if (access(full[i], F_OK) == 0)
            out->files[out->n_files++] = names[i];
    free(text);
    rtp_sweep_free(&sw);
    if (st != RTP_OK)
        rtp_explore_summary_free(out);
    return st;
}
