/* explore/explore_doc.h — the summary document `rtpack explore --json` and
 * `rtpack merge --json` print (docs/spec.md "rtpack explore and rtpack
 * merge"): what an output folder holds, written from a plain struct by
 * models' streaming writer (models/json_write.h).
 *
 * Ownership: rtp_explore_summary_to_json returns malloc'd text (caller frees),
 * NULL when out of memory; the summary owns `totals` (free it with
 * rtp_explore_summary_free) and borrows every string. Thread-safety: pure. */
#ifndef RTP_EXPLORE_DOC_H
#define RTP_EXPLORE_DOC_H

#include "models/base.h"
#include "models/api.h"

RTP_API_BEGIN

/* One policy x method summed over the points the folder holds. */
typedef struct rtp_explore_total {
    const char *policy, *method;
    int64_t accepted, total, timeouts;
} rtp_explore_total;

#define RTP_EXPLORE_MAX_FILES 8

typedef struct rtp_explore_summary {
    const char *out_dir;
    int shard_k, shard_n;        /* 1/1 for a whole sweep or a merge */
    size_t points_done;          /* whole points in results.csv */
    size_t points_in_shard;      /* points the shard runs (the sweep's, for 1/1) */
    size_t points_total;         /* points of the whole sweep */
    int64_t sets_per_point;
    rtp_explore_total *totals;   /* policies x methods, in the sweep's order */
    size_t n_totals;
    const char *files[RTP_EXPLORE_MAX_FILES]; /* names inside out_dir */
    size_t n_files;
} rtp_explore_summary;

/* {"out", "shard": "K/N", "complete", "points": {"done", "shard", "sweep"},
 * "sets_per_point", "sets", "acceptance": [{"policy", "method", "accepted",
 * "total", "ratio", "timeouts"}], "files": [...]}, '\n' ended. */
char *rtp_explore_summary_to_json(const rtp_explore_summary *s, int pretty);
void rtp_explore_summary_free(rtp_explore_summary *s);

RTP_API_END
#endif
