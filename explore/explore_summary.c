/* explore/explore_summary.c — weighted.csv and acceptance.svg, computed from
 * the rows of results.csv after a run or a merge (see explore_internal.h). */
#include "explore/explore_internal.h"
#include "explore/svg.h"

#include <stdlib.h>
#include <string.h>

/* Weighted schedulability [BBA10]:
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
