/* models/base.h — the vocabulary every rtpack module shares: time in integer
 * nanoseconds, status codes, the caller-owned diagnostic buffer, policies and
 * resource limits.
 *
 * Units: every time is an rtp_ns (signed 64-bit nanoseconds). Valid task times
 * lie in 1..RTP_NS_LIMIT (2^62); sums and products of them can overflow
 * int64_t, so they go through models/arith.h.
 * Ownership: rtp_diag is a plain value owned by the caller; the library writes
 * into it and never prints. Thread-safety: everything here is pure. */
#ifndef RTP_BASE_H
#define RTP_BASE_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include "models/api.h"

RTP_API_BEGIN

typedef int64_t rtp_ns;

/* Linux CPU ids handled everywhere (task sets, plans, sweeps, probe):
 * 0 .. RTP_CPU_LIMIT - 1, so a platform has at most RTP_CPU_LIMIT CPUs. */
#define RTP_CPU_LIMIT 4096

/* Largest time accepted from input (docs/spec.md "Times": past 2^62 ns is bad). */
#define RTP_NS_LIMIT ((rtp_ns)1 << 62)

/* One millisecond: the unit of platform.overheads.noise_per_ms. */
#define RTP_NS_PER_MS ((rtp_ns)1000000)

/* Status of a library call. The verdict of an analysis ("schedulable") is a
 * separate output: RTP_OK only says the answer was computed. */
typedef enum rtp_status {
    RTP_OK = 0,
    RTP_EINPUT,    /* bad input or usage: CLI exit 2 */
    RTP_ELIMIT,    /* a resource limit (iterations, overflow, time): exit 3 */
    RTP_ENOMEM,    /* allocation failed: exit 3 */
    RTP_EINTERNAL  /* a bug or an unexpected library failure: exit 3 */
} rtp_status;

/* Caller-owned diagnostic. `path` is the JSON path of the offending member in
 * docs/spec.md's form ("tasks[3].period", "platfrom"), empty when not applicable;
 * `line`/`column` are 1-based positions in the input text, 0 when unknown. */
#define RTP_DIAG_PATH_SIZE 160 /* JSON paths are built in buffers of this size */

typedef struct rtp_diag {
    char message[512];
    char path[RTP_DIAG_PATH_SIZE];
    int line;
    int column;
} rtp_diag;

/* Clears a diagnostic (safe on NULL). */
void rtp_diag_clear(rtp_diag *diag);

/* Records `path` (may be NULL or "") and a printf-style message, with
 * control characters shown as escapes ("\n", "\x01") so the diagnostic is
 * always one line whatever the input held; returns
 * `status` so callers can write `return rtp_diag_set(d, RTP_EINPUT, ...)`.
 * Safe on a NULL diag. */
rtp_status(rtp_diag_set)(rtp_diag *diag, rtp_status status, const char *path,
                        const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* The same call, with its value spelled out where the caller is compiled:
 * the function lives in another file, so without this an optimiser cannot
 * know that `return rtp_diag_set(d, RTP_EINPUT, ...)` never returns RTP_OK,
 * and warns that an output set only on success "may be used
 * uninitialized". `status` is evaluated twice: pass a constant or a plain
 * variable. */
static inline rtp_status rtp_diag_status_(rtp_status recorded, rtp_status status)
{
    (void)recorded;
    return status;
}
#define rtp_diag_set(diag, status, ...) \
    rtp_diag_status_((rtp_diag_set)((diag), (status), __VA_ARGS__), (status))

/* Replaces the path of the diagnostic recorded last (escaped as above), for
 * readers that build a member's path only when it is reported. Safe on
 * NULL. */
void rtp_diag_set_path(rtp_diag *diag, const char *path);

/* The one out-of-memory answer: "out of memory" in diag (safe on NULL);
 * returns RTP_ENOMEM, so a failed allocation reads
 * `if (!p) return rtp_oom(diag);`. */
rtp_status rtp_oom(rtp_diag *diag);

/* calloc(n, size) with the product checked: NULL (and "out of memory" in
 * diag) when it overflows or the allocation fails. Every allocation whose
 * failure has a diag to tell goes through here or rtp_oom. */
void *rtp_alloc(size_t n, size_t size, rtp_diag *diag);

/* One line "FILE: PATH: MESSAGE" (parts that are empty are left out) into buf. */
void rtp_diag_format(const rtp_diag *diag, const char *file, char *buf,
                     size_t size);

/* Process exit code (docs/spec.md "Exit status") for a failed status: 2 for
 * RTP_EINPUT, else 3. */
int rtp_status_exit_code(rtp_status status);

const char *rtp_status_name(rtp_status status);

/* Enum name tables (names[value] for each value of an enum): one lookup in
 * each direction, the count always taken from the table itself. */
#define RTP_COUNT_OF(array) (sizeof(array) / sizeof((array)[0]))
/* names[value], or "?" when value is not below count. */
const char *rtp_enum_name(const char *const *names, size_t count, int value);
/* The index of `name` (may be NULL) in names[0..count-1], or -1. */
int rtp_enum_find(const char *const *names, size_t count, const char *name);

/* Scheduling policy of a CPU or cluster. */
typedef enum rtp_policy {
    RTP_POLICY_EDF = 0, /* uniprocessor EDF (SCHED_DEADLINE on one CPU) */
    RTP_POLICY_FP,      /* uniprocessor fixed priority (SCHED_FIFO) */
    RTP_POLICY_GEDF,    /* global EDF on a cluster */
    RTP_POLICY_GFP      /* global fixed priority on a cluster */
} rtp_policy;

const char *rtp_policy_name(rtp_policy policy);
/* Parses "edf", "fp", "gedf", "gfp"; returns 0 on success, -1 otherwise. */
int rtp_policy_parse(const char *name, rtp_policy *out);

/* Fixed-priority assignment rule (docs/spec.md "Priorities"). */
typedef enum rtp_prio_rule {
    RTP_PRIO_OPA = 0, /* Audsley's optimal priority assignment [Aud01] */
    RTP_PRIO_DM,      /* deadline monotonic, ties by input order */
    RTP_PRIO_RM,      /* rate monotonic, ties by input order */
    RTP_PRIO_GIVEN    /* the tasks' own `priority` fields */
} rtp_prio_rule;

const char *rtp_prio_rule_name(rtp_prio_rule rule);
int rtp_prio_rule_parse(const char *name, rtp_prio_rule *out);

/* Resource limits handed down to every analysis (never global state).
 * A limit reached is RTP_ELIMIT ("resource limit"), never a guessed verdict.
 * deadline_ns and interrupt are checked cooperatively: by the exact tests
 * every 1024 iterations and at every call, by the packing and ILP loops at
 * every step, so a caller bounds the time of one whole method call without
 * signals or threads inside the library. */
typedef struct rtp_limits {
    uint64_t max_iterations; /* fixed-point / busy-period steps per test */
    rtp_ns deadline_ns;      /* rtp_monotonic_ns() instant after which work stops; 0 = none */
    const volatile sig_atomic_t *interrupt; /* non-zero: stop as soon as seen; may be NULL */
} rtp_limits;

/* Defaults: 50 million iterations, no deadline, no interrupt. */
rtp_limits rtp_limits_default(void);

/* CLOCK_MONOTONIC in ns (the clock of rtp_limits.deadline_ns). */
rtp_ns rtp_monotonic_ns(void);

/* RTP_ELIMIT ("time limit reached" or "interrupted") when limits (may be
 * NULL) has a deadline that has passed or an interrupt that is set, else
 * RTP_OK. Reads the clock only when a deadline is set. */
rtp_status rtp_limits_check(const rtp_limits *limits, rtp_diag *diag);

RTP_API_END
#endif
