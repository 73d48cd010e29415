/* explore/sweep.h — a sweep file turned into the list of points `rtpack
 * explore` evaluates (docs/explore.md).
 *
 * A point is (tasks, cpus, utilization per CPU, deadline model) and, in a
 * sweep with "resources", (number of resources, critical-section length
 * range); points are enumerated nested in that order (the row order of
 * docs/spec.md), and each point is
 * evaluated under every policy x method. The sweep's identity is a 64-bit
 * FNV-1a hash of a canonical text of every parsed field plus RTP_GEN_VERSION:
 * shards and resumed runs must carry the same one. Ownership: rtp_sweep owns
 * its arrays (rtp_sweep_free). Thread-safety: read-only after parsing. */
#ifndef RTP_SWEEP_H
#define RTP_SWEEP_H

#include "gen/gen.h"
#include "explore/sweep_doc.h"
#include "models/api.h"

RTP_API_BEGIN

typedef enum rtp_explore_method {
    RTP_EX_FFD = 0, RTP_EX_BFD, RTP_EX_WFD, RTP_EX_NFD, RTP_EX_BEST, RTP_EX_ILP,
    RTP_EX_SFD,         /* slack fit decreasing (Greedy Slacker), FP only */
    RTP_EX_ILP_COLOCATE, /* the ILP with --colocate */
    RTP_EX_FFD_OBLIVIOUS /* ffd placing the set without its requests, the
                          * placement then checked with them (explore.c) */
} rtp_explore_method;

const char *rtp_explore_method_name(rtp_explore_method m); /* "ffd", ..., "ffd-oblivious" */

typedef struct rtp_sweep_point {
    int64_t tasks;
    int64_t cpus;
    rtp_ratio util;               /* per CPU, as in the sweep */
    rtp_gen_deadlines deadlines;
    uint64_t stream;              /* RNG point key: hash of (tasks, cpus, util) */
    int64_t resources;            /* 0 in a sweep without "resources" */
    rtp_ns cs_min_ns, cs_max_ns;
} rtp_sweep_point;

typedef struct rtp_sweep {
    rtp_sweep_doc doc;
    rtp_sweep_point *points;
    size_t n_points;
    rtp_policy policies[2];
    size_t n_policies;
    rtp_explore_method methods[9];
    size_t n_methods;
    rtp_prio_rule priority;       /* FP rule on each CPU */
    rtp_gen_opts gen;             /* template: n_tasks and total_util per point */
    uint64_t hash;
} rtp_sweep;

/* Parses and checks a sweep file: besides the format, every point must be a
 * request the generator can meet (RTP_EINPUT naming the point otherwise). */
rtp_status rtp_sweep_parse(const char *text, size_t len, rtp_sweep *out, rtp_diag *diag);
void rtp_sweep_free(rtp_sweep *sw);

/* The generator options of one point (borrowing sw's period set). */
rtp_gen_opts rtp_sweep_gen_opts(const rtp_sweep *sw, size_t point);

/* "tasks,cpus,utilization,deadlines" of a point, e.g. "20,4,0.65,implicit". */
void rtp_sweep_point_key(const rtp_sweep *sw, size_t point, char *buf, size_t size);

/* The resource columns of a point, "resources,access,requests,cs_min_ns,
 * cs_max_ns" (e.g. "4,0.25,2,2500,5000"); "" in a sweep without resources. */
void rtp_sweep_point_resources(const rtp_sweep *sw, size_t point, char *buf, size_t size);

/* For callers that do not see the struct (the Python package): a sweep
 * parsed into the heap (NULL on error, diag says why; rtp_sweep_close frees
 * it), its number of points, and the task set `rtpack explore` evaluates as
 * set `index` (0 .. sets_per_point - 1) of point `point` (explore draws it
 * with this call too; RTP_EINPUT naming the point and the set when the
 * generator cannot meet it, or when point or index is out of range; *out is
 * zeroed first). */
rtp_sweep *rtp_sweep_open(const char *text, size_t len, rtp_diag *diag);
void rtp_sweep_close(rtp_sweep *sw);
size_t rtp_sweep_n_points(const rtp_sweep *sw);
rtp_status rtp_sweep_taskset(const rtp_sweep *sw, size_t point, size_t index,
                             rtp_taskset *out, rtp_diag *diag);

RTP_API_END
#endif
