/* tests/support/testutil.h — helpers shared by the cmocka tests: a seeded
 * RNG (splitmix64, same numbers on every machine), task construction, and
 * running the built `rtpack` binary (RTP_BINARY) to check exit codes and
 * output. Include after the cmocka prerequisites. */
#ifndef RTP_TESTUTIL_H
#define RTP_TESTUTIL_H

#include <stddef.h>
#include <stdint.h>

#include "models/taskset.h"

typedef struct tu_rng {
    uint64_t state;
} tu_rng;

uint64_t tu_next(tu_rng *rng);
/* Uniform in [lo, hi] (inclusive). */
int64_t tu_range(tu_rng *rng, int64_t lo, int64_t hi);

/* A task with a static name buffer-free form: name may be NULL. */
rtp_task tu_task(rtp_ns wcet, rtp_ns deadline, rtp_ns period);

/* A job to hand to sim/sim.h's engine, and the order the engine is fed in
 * (release, then task: the references' order of one instant's releases). */
typedef struct tu_job {
    size_t task;
    rtp_ns arrival, release, exec;
} tu_job;
void tu_jobs_sort(tu_job *jobs, size_t n);

/* The completion of job q of task i below every other task of ts (their
 * critical pattern: first jobs at -J_j; jitter and blocking as in
 * solver/fp.c): the least fixed point from 1 of B_i + (q + 1) C_i + sum_j
 * ceil((w + J_j) / T_j) C_j, plain integers (small reference sets). */
rtp_ns tu_fp_completion(const rtp_task *ts, size_t n, size_t i, rtp_ns q);

/* lcm of the periods, unchecked: for the small periods of reference checks. */
rtp_ns tu_hyperperiod(const rtp_task *ts, size_t n);

/* The largest C of task k in [lo, hi) that accepts(ts, n, ctx) holds at,
 * given that it holds at lo and its accepted wcets are downward closed:
 * plain bisection, each step one call (ts[k].wcet_ns restored). The slow
 * reference the sensitivity tests hold wcet_max to. */
rtp_ns tu_bisect_wcet(rtp_task *ts, size_t n, size_t k, rtp_ns lo, rtp_ns hi,
                      int (*accepts)(const rtp_task *ts, size_t n, const void *ctx),
                      const void *ctx);

/* Rearranges a[0..n-1] into the next permutation in lexicographic order;
 * 0 after the last one (a then left as it was; at once when n < 2). */
int tu_next_permutation(int *a, size_t n);

/* Runs `rtpack ARGS` (a shell word string, e.g. "analyze x.json --json"),
 * feeding `stdin_text` (may be NULL). Captures stdout/stderr into malloc'd
 * strings (caller frees; pass NULL to discard). Returns the exit status. */
int tu_run_cli(const char *args, const char *stdin_text, char **out, char **err);

/* Path of a file under the source tree (static buffer per call site is not
 * thread-safe; tests are single-threaded). */
const char *tu_source_path(const char *relative);

/* Writes text to a fresh temporary file and returns its path (malloc'd). */
char *tu_write_temp(const char *text);

#endif
