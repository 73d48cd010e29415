/* heuristics/cluster.c — see cluster.h.
 *
 * Clustered packing is heuristics/pack.c's engine with one bin per cluster:
 * the same task orders, the same four placements [Joh74], admission
 * by affinity over the whole cluster, exact capacity x size and the global
 * test of the cluster's size (solver/global.h). This file adds the shapes,
 * the cluster input rules and the comparison of layouts. */
#include "heuristics/cluster.h"
#include "heuristics/pack.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- shapes ---- */

void rtp_cluster_list_free(rtp_cluster_list *list)
{
    for (size_t j = 0; list->cpus && j < list->n; j++)
        free(list->cpus[j]);
    free(list->cpus);
    free(list->len);
    memset(list, 0, sizeof *list);
}

/* A positive decimal at *p (advanced), 0 on error. */
static size_t read_count(const char **p)
{
    size_t v = 0;
    const char *s = *p;
    while (*s >= '0' && *s <= '9' && v < 100000)
        v = v * 10 + (size_t)(*s++ - '0');
    if (s == *p || (*s >= '0' && *s <= '9'))
        return 0;
    *p = s;
    return v;
}

static rtp_status not_a_shape(const char *shape, rtp_diag *diag)
{
    return rtp_diag_set(diag, RTP_EINPUT, "--clusters",
                        "\"%s\" is not a cluster shape (e.g. 2x2 or 3,1)", shape);
}

rtp_status rtp_cluster_shape(const int *cpus, size_t n_cpus, const char *shape,
                             rtp_cluster_list *out, rtp_diag *diag)
{
    memset(out, 0, sizeof *out);
    size_t sizes[1024], n = 0, total = 0;
    const char *p = shape;
    size_t first = read_count(&p);
    if (first && *p == 'x') {
        p++;
        size_t each = read_count(&p);
        if (!each || *p || first > 1024)
            return not_a_shape(shape, diag);
        for (; n < first; n++)
            sizes[n] = each;
    } else {
        sizes[n++] = first;
        while (first && *p == ',' && n < 1024) {
            p++;
            if (!(sizes[n++] = read_count(&p)))
                return not_a_shape(shape, diag);
        }
        if (!first || *p)
            return not_a_shape(shape, diag);
    }
    for (size_t j = 0; j < n; j++)
        total += sizes[j];
    if (total != n_cpus)
        return rtp_diag_set(diag, RTP_EINPUT, "--clusters",
                            "\"%s\" covers %zu CPUs, the platform has %zu", shape, total,
                            n_cpus);
    out->cpus = calloc(n, sizeof *out->cpus);
    out->len = calloc(n, sizeof *out->len);
    if (!out->cpus || !out->len)
        goto done;
    out->n = n;
    for (size_t j = 0, at = 0; j < n; at += sizes[j++]) {
        if (!(out->cpus[j] = malloc(sizes[j] * sizeof(int))))
            goto done;
        memcpy(out->cpus[j], cpus + at, sizes[j] * sizeof(int));
        out->len[j] = sizes[j];
    }
    return RTP_OK;
done:
    rtp_cluster_list_free(out);
    return rtp_oom(diag);
}

/* ---- packing: heuristics/pack.c with one bin per cluster ---- */

static rtp_pack_bins view(const rtp_cluster_list *cl)
{
    rtp_pack_bins bins = {(const int *const *)cl->cpus, cl->len, cl->n};
    return bins;
}

static rtp_status validate(const rtp_taskset *ts, const int *cpus, size_t n_cpus,
                           const rtp_cluster_list *cl, const rtp_part_opts *opts,
                           rtp_diag *diag)
{
    if (!cl || cl->n == 0)
        return rtp_diag_set(diag, RTP_EINPUT, "platform.clusters", "no clusters to pack onto");
    rtp_status st = rtp_pack_check_input(ts, opts, diag);
    if (st != RTP_OK)
        return st;
    for (size_t j = 0; j < cl->n; j++) {
        if (cl->len[j] == 0)
            return rtp_diag_set(diag, RTP_EINPUT, "platform.clusters",
                                "cluster %zu has no CPUs", j);
        for (size_t k = 0; k < cl->len[j]; k++) {
            int cpu = cl->cpus[j][k];
            if (!rtp_pack_has_cpu(cpus, n_cpus, cpu))
                return rtp_diag_set(diag, RTP_EINPUT, "platform.clusters",
                                    "CPU %d is not on the platform", cpu);
            for (size_t j2 = 0; j2 <= j; j2++)
                for (size_t k2 = 0; k2 < (j2 == j ? k : cl->len[j2]); k2++)
                    if (cl->cpus[j2][k2] == cpu)
                        return rtp_diag_set(diag, RTP_EINPUT, "platform.clusters",
                                            "CPU %d is in two clusters", cpu);
        }
    }
    rtp_pack_bins bins = view(cl);
    return rtp_pack_check_affinity(ts, &bins, "is in no cluster", diag);
}

static rtp_policy global_policy(rtp_policy policy)
{
    return policy == RTP_POLICY_FP || policy == RTP_POLICY_GFP ? RTP_POLICY_GFP
                                                                 : RTP_POLICY_GEDF;
}

/* Runs the engine (rtp_pack_best when `best`, else rtp_pack_run) on the
 * clusters, each tested by the global test of its size (exact admission:
 * opts->bound_admission is for partitioning only). */
static rtp_status pack_clusters(const rtp_taskset *ts, const int *cpus, size_t n_cpus,
                                const rtp_cluster_list *cl, const rtp_part_opts *opts,
                                int best, rtp_plan *plan, rtp_diag *diag)
{
    memset(plan, 0, sizeof *plan);
    rtp_status st = validate(ts, cpus, n_cpus, cl, opts, diag);
    if (st != RTP_OK)
        return st;
    rtp_pack_job job = {ts, cpus, n_cpus, view(cl), global_policy(opts->policy), 0, 1};
    return best ? rtp_pack_best(&job, opts, plan, diag) : rtp_pack_run(&job, opts, plan, diag);
}

rtp_status rtp_cluster_pack(const rtp_taskset *ts, const int *cpus, size_t n_cpus,
                            const rtp_cluster_list *clusters, const rtp_part_opts *opts,
                            rtp_plan *plan, rtp_diag *diag)
{
    return pack_clusters(ts, cpus, n_cpus, clusters, opts, 0, plan, diag);
}

rtp_status rtp_cluster_best(const rtp_taskset *ts, const int *cpus, size_t n_cpus,
                            const rtp_cluster_list *clusters, const rtp_part_opts *opts,
                            rtp_plan *plan, rtp_diag *diag)
{
    return pack_clusters(ts, cpus, n_cpus, clusters, opts, 1, plan, diag);
}

/* ---- layouts ---- */

static const char *const layout_names[RTP_N_LAYOUTS] = {"partitioned", "clustered", "global"};

const char *rtp_layout_name(rtp_layout layout)
{
    return rtp_enum_name(layout_names, RTP_N_LAYOUTS, (int)layout);
}

int rtp_layout_parse_list(const char *text, unsigned *mask)
{
    *mask = 0;
    const char *p = text;
    for (;;) {
        size_t len = strcspn(p, ",");
        int found = -1;
        for (int l = 0; l < RTP_N_LAYOUTS; l++)
            if (strlen(layout_names[l]) == len && strncmp(p, layout_names[l], len) == 0)
                found = l;
        if (found < 0)
            return -1;
        *mask |= 1u << found;
        if (p[len] == '\0')
            return 0;
        p += len + 1;
    }
}

rtp_status rtp_layout_best(const rtp_taskset *ts, const int *cpus, size_t n_cpus,
                           const rtp_cluster_list *clusters, unsigned mask,
                           const rtp_part_opts *opts, rtp_plan *plan, rtp_layout *chosen,
                           rtp_diag *diag)
{
    memset(plan, 0, sizeof *plan);
    if (mask == 0 || (mask >> RTP_N_LAYOUTS) != 0)
        return rtp_diag_set(diag, RTP_EINPUT, "--layouts", "no known layout to compare");
    if ((mask & (1u << RTP_LAYOUT_CLUSTERED)) && (!clusters || clusters->n == 0))
        return rtp_diag_set(diag, RTP_EINPUT, "--layouts",
                            "the clustered layout needs platform.clusters or --clusters");
    /* Only the layouts in the mask run; cands/status/diags hold them in
     * layout order, map[] says which layout each is. */
    rtp_plan cands[RTP_N_LAYOUTS];
    rtp_status status[RTP_N_LAYOUTS];
    rtp_diag diags[RTP_N_LAYOUTS];
    int map[RTP_N_LAYOUTS], count = 0;
    rtp_part_opts o = *opts;
    for (int l = 0; l < RTP_N_LAYOUTS; l++) {
        if (!(mask & (1u << l)))
            continue;
        int c = count++;
        map[c] = l;
        rtp_diag_clear(&diags[c]);
        if (l == RTP_LAYOUT_PARTITIONED) {
            o.policy = global_policy(opts->policy) == RTP_POLICY_GFP ? RTP_POLICY_FP
                                                                     : RTP_POLICY_EDF;
            status[c] = rtp_part_best(ts, cpus, n_cpus, &o, &cands[c], &diags[c]);
        } else if (l == RTP_LAYOUT_CLUSTERED) {
            status[c] = rtp_cluster_best(ts, cpus, n_cpus, clusters, opts, &cands[c],
                                         &diags[c]);
        } else {
            int *all = (int *)cpus; /* one cluster of every CPU (read only) */
            size_t len = n_cpus;
            rtp_cluster_list whole = {&all, &len, 1};
            status[c] = rtp_cluster_pack(ts, cpus, n_cpus, &whole, opts, &cands[c], &diags[c]);
            if (status[c] == RTP_OK)
                snprintf(cands[c].method, sizeof cands[c].method, "best");
        }
        if (status[c] == RTP_EINPUT || status[c] == RTP_ENOMEM) { /* fatal for all */
            if (diag)
                *diag = diags[c];
            for (int k = 0; k < c; k++)
                if (status[k] == RTP_OK)
                    rtp_plan_free(&cands[k]);
            return status[c];
        }
    }
    int pick;
    rtp_status st = rtp_pack_settle(cands, status, diags, count, plan, &pick, diag);
    if (pick >= 0)
        *chosen = (rtp_layout)map[pick];
    return st;
}
