/* explore/explore.h — `rtpack explore` and `rtpack merge`: acceptance ratios of
 * partitioning methods over generated task sets (docs/explore.md).
 *
 * Sets are handed to OpenMP threads one at a time in (point, index) order;
 * the next point's sets start while the last ones of the oldest point in
 * progress finish (at most two points in flight), and points are written
 * in order. Every set is a pure function of (seed, point, index) and each
 * outcome lands in its own slot, summed in index order, so counts never
 * depend on the thread count.
 * Points are dealt to shards round-robin (point p goes to shard p mod N + 1);
 * each finished point is appended to DIR/results.csv (and timing.csv,
 * sets.jsonl) and flushed to disk; the sets of the points in progress go to
 * DIR/partial.txt as they finish (flushed at least once a second), so a crash
 * loses at most a second of work and --resume continues with the sets not
 * yet done. DIR/manifest.txt records the sweep hash, generator version, shard
 * and set time limit; `merge` checks them.
 *
 * Ownership: outputs go to files under the caller's DIR; cells are caller
 * arrays. Thread-safety: no globals; the progress callback is called from
 * one thread at a time. */
#ifndef RTP_EXPLORE_H
#define RTP_EXPLORE_H

#include "explore/sweep.h"
#include "explore/explore_doc.h"
#include "models/api.h"

RTP_API_BEGIN

/* Outcome of one policy x method over one point's sets. */
typedef struct rtp_explore_cell {
    int64_t accepted;    /* sets the method placed feasibly */
    int64_t total;       /* sets evaluated */
    int64_t timeouts;    /* not decided: ILP time limit without a plan, or a
                          * resource limit in an exact test (not accepted) */
    int64_t median_ns;   /* analysis time per set (nearest rank) */
    int64_t p99_ns;
} rtp_explore_cell;

/* How far a run is: passed to the progress callback after every finished
 * set and every finished point, from one thread at a time. */
typedef struct rtp_explore_tally {
    uint64_t sets_done;     /* sets this run finished */
    uint64_t sets_total;    /* sets this run has to do (a resumed run: what was left) */
    uint64_t timeouts;      /* set x method runs this run could not decide */
    size_t points_done;     /* the shard's whole points in results.csv */
    size_t points_total;    /* the shard's points */
} rtp_explore_tally;

typedef void (*rtp_explore_progress)(void *ctx, const rtp_explore_tally *tally);

typedef struct rtp_explore_opts {
    const char *out_dir;
    int shard_k, shard_n;   /* 1..N of N; 1/1 = the whole sweep */
    int resume;
    int force;              /* replace the results DIR holds (not with resume) */
    int threads;            /* 0 = OpenMP default */
    rtp_ns set_time_limit_ns; /* per set and method (generation not counted); past
                               * it the method stops (rtp_limits.deadline_ns) and the
                               * set counts as a time-out; 0 = none */
    const volatile sig_atomic_t *interrupt; /* non-zero: stop soon, keep what is done
                                             * (RTP_ELIMIT "interrupted"); may be NULL */
    rtp_explore_progress progress; /* may be NULL */
    void *progress_ctx;
} rtp_explore_opts;

/* Evaluates point `point` with o->threads, o->set_time_limit_ns,
 * o->interrupt and o->progress (o->out_dir and the shard are not used):
 * cells[policy * n_methods + method]. With jsonl != NULL, *jsonl gets every
 * set as one compact task-set document per line (malloc'd, caller frees).
 * RTP_ELIMIT "interrupted" when o->interrupt was set before every set was
 * done (cells are then not written). */
rtp_status rtp_explore_point(const rtp_sweep *sw, size_t point, const rtp_explore_opts *o,
                             rtp_explore_cell *cells, char **jsonl, rtp_diag *diag);

/* Runs the sweep (text = the sweep file, copied to DIR/sweep.json) into
 * opts->out_dir, then writes weighted.csv and acceptance.svg from all rows
 * in results.csv. RTP_EINPUT when DIR already holds results and neither
 * resume nor force, or when resuming a different sweep or set time limit.
 * Interrupted: the finished points stay, the finished sets of the point in
 * progress stay in DIR/partial.txt (--resume takes them), the summary files
 * are written from the finished points, and the return is RTP_ELIMIT
 * "interrupted". */
rtp_status rtp_explore_run(const char *text, size_t len, const rtp_explore_opts *opts,
                           rtp_diag *diag);

/* Combines the outputs of shards 1..N (any order) into out_dir, giving the
 * results.csv (and timing.csv, sets.jsonl) a single run would have given.
 * RTP_EINPUT when the shards' manifests disagree (sweep hash, generator
 * version, N), a shard is missing (named) or repeated, one is incomplete, or
 * out_dir already holds results and !force. */
rtp_status rtp_explore_merge(const char *const *dirs, size_t n_dirs, const char *out_dir,
                             int force, rtp_diag *diag);

/* What folder `dir` holds (a shard, a whole run or a merge): its shard, the
 * whole points in results.csv, and accepted / total per policy x method
 * summed over them. *out borrows static strings and dir; free it with
 * rtp_explore_summary_free. */
rtp_status rtp_explore_summarize(const char *dir, rtp_explore_summary *out, rtp_diag *diag);

RTP_API_END
#endif
