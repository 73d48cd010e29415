/* probe/probe_doc.h — the result of `rtpack probe` (docs/spec.md "rtpack probe"):
 * kernel facts, per-CPU latency and context-switch measurements, the
 * `platform` member that pastes into a task set, the warnings and what was
 * skipped; its writer (models/json_write.h) and its reader
 * (probe_doc_read.c, on models/json_util.h's reading of cJSON).
 *
 * Units: every time is integer ns (rtp_ns); a fact that could not be
 * determined is "unknown" (a known flag of 0, RTP_TRI_UNKNOWN, or an empty
 * string) and is written as JSON null. CPU sets are fixed-size bit masks
 * (no allocation). Ownership: a report owns its cpus array and its note
 * strings; rtp_probe_report_free releases them. Thread-safety: no globals. */
#ifndef RTP_PROBE_DOC_H
#define RTP_PROBE_DOC_H

#include <stdint.h>

#include "models/base.h"
#include "models/ratio.h"

typedef struct rtp_cpumask {
    uint64_t bits[RTP_CPU_LIMIT / 64];
} rtp_cpumask;

void rtp_cpumask_set(rtp_cpumask *m, int cpu);
int rtp_cpumask_has(const rtp_cpumask *m, int cpu);
size_t rtp_cpumask_count(const rtp_cpumask *m);
/* Smallest CPU id > after in m (after = -1 for the first), -1 when none. */
int rtp_cpumask_next(const rtp_cpumask *m, int after);

/* A yes/no fact that may be unknown (JSON null). */
typedef enum rtp_tri { RTP_TRI_UNKNOWN = -1, RTP_TRI_NO = 0, RTP_TRI_YES = 1 } rtp_tri;

/* An integer fact that may be unknown. */
typedef struct rtp_fact {
    int known;
    int64_t value;
} rtp_fact;

typedef struct rtp_probe_kernel {
    char release[72];          /* "6.18.44-fc-v1252", "" unknown */
    rtp_fact hz;               /* CONFIG_HZ */
    char hz_source[48];        /* "/proc/config.gz", "/boot/config-..." */
    char preempt[16];          /* none|voluntary|full|lazy|rt, "" unknown */
    char preempt_source[160];
    rtp_tri hrtick, hrtick_dl; /* scheduler features HRTICK, HRTICK_DL */
    char hrtick_source[160];
    char lockdown[32];         /* none|integrity|confidentiality, "" unknown */
    rtp_fact rr_timeslice_ms;  /* /proc/sys/kernel/sched_rr_timeslice_ms */
    rtp_fact rt_runtime_us;    /* -1 = RT throttling off */
    rtp_fact rt_period_us;
    rtp_tri dl_fair_server;    /* Linux >= 6.12 */
    rtp_fact fair_runtime_ns;  /* per CPU, from debugfs when readable */
    rtp_fact fair_period_ns;
    int has_dl_bandwidth;      /* usable SCHED_DEADLINE bandwidth per CPU */
    rtp_ratio dl_bandwidth;
    rtp_tri virtualized;
    char hypervisor[48];       /* "KVM", "" unknown / none */
    int has_isolated;          /* /sys/devices/system/cpu/isolated readable */
    rtp_cpumask isolated;
    int has_nohz_full;
    rtp_cpumask nohz_full;
    char cmdline_isolation[160]; /* isolcpus=/nohz_full=/irqaffinity= words */
    char cpuset[8];            /* "v1", "v2", "" none found */
} rtp_probe_kernel;

/* The SCHED_RR quantum as Linux applies it (kernel/sched/rt.c,
 * sched_rr_handler): K = ceil(ms x HZ / 1000) ticks (msecs_to_jiffies rounds
 * up; the file reads back the value written), RR_TIMESLICE = 100 x HZ / 1000
 * ticks when ms <= 0; *tick_ns = 10^9 / HZ and *quantum_ns = K x *tick_ns.
 * 0 when HZ or the sysctl is unknown, or 10^9 / HZ is not a whole number of
 * ns (then no exact tick exists): both left untouched. */
int rtp_probe_rr_quantum(const rtp_probe_kernel *k, rtp_ns *quantum_ns, rtp_ns *tick_ns);

/* Wake-up (release-to-run) latency of one CPU under one policy. */
typedef struct rtp_probe_latency {
    int measured;
    rtp_ns max_ns, p99_ns, median_ns;
    uint64_t samples;
    uint64_t overruns; /* periods skipped because a wake-up came a period late */
} rtp_probe_latency;

typedef struct rtp_probe_switch {
    int measured;
    rtp_ns median_ns, p99_ns, max_ns; /* per switch, loop cost subtracted */
    rtp_ns loop_ns;                   /* the subtracted loop cost */
    uint64_t samples;
} rtp_probe_switch;

/* What SCHED_DEADLINE charged jobs of one length beyond their own execution
 * (probe/charge.h). Excess = budget consumed - own execution; wall = the
 * job's body in wall-clock time - own execution (the noise it met). */
#define RTP_PROBE_CHARGE_LENGTHS 4 /* 0, 100 us, 1 ms, 10 ms */
typedef struct rtp_probe_charge_len {
    rtp_ns length_ns;          /* own execution per job */
    uint64_t samples;          /* jobs whose budget was read */
    rtp_ns excess_mean_ns, excess_p999_ns, excess_max_ns;
    rtp_ns wall_p999_ns, wall_max_ns;
    uint64_t throttled;        /* jobs stopped by their (generous) budget */
} rtp_probe_charge_len;

typedef struct rtp_probe_charge {
    int measured;
    rtp_probe_charge_len len[RTP_PROBE_CHARGE_LENGTHS];
    rtp_ns fixed_ns;           /* fitted deadline_charge */
    rtp_ns per_ms_ns;          /* fitted noise_per_ms */
} rtp_probe_charge;

/* What taking and releasing one lock costs, uncontended, per kind that
 * rtpack deploys (docs/spec.md "Lock overheads", probe/lockcost.h): a
 * PTHREAD_PRIO_PROTECT mutex, a PTHREAD_PRIO_INHERIT mutex, the MSRP
 * ticket spin lock with its priority raise and restore. Per try, lock +
 * unlock in wall-clock time. */
#define RTP_PROBE_LOCK_KINDS 3
/* "protect", "inherit", "spin", NULL: the kinds' names in the document */
extern const char *const rtp_probe_lock_names[RTP_PROBE_LOCK_KINDS + 1];
typedef struct rtp_probe_lock_cost {
    int measured;
    rtp_ns median_ns, p99_ns, max_ns;
    uint64_t samples;
} rtp_probe_lock_cost;

typedef struct rtp_probe_cpu {
    int cpu;
    rtp_cpumask siblings;  /* SMT siblings other than cpu itself */
    int has_siblings;
    char governor[32];     /* cpufreq scaling_governor, "" none */
    double steal;          /* share of the run stolen by the host, < 0 unknown */
    rtp_probe_latency fifo, deadline;
    rtp_probe_switch context_switch;
    rtp_probe_charge charge;
    rtp_probe_lock_cost locks[RTP_PROBE_LOCK_KINDS];
} rtp_probe_cpu;

/* A growable list of owned one-line strings (warnings, skipped items). */
typedef struct rtp_notes {
    char **items;
    size_t n, cap;
    int failed; /* an allocation failed: the list is incomplete */
} rtp_notes;

/* Appends a formatted line (sets failed on out of memory). */
void rtp_notes_add(rtp_notes *notes, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void rtp_notes_free(rtp_notes *notes);

typedef enum rtp_probe_stat { RTP_PROBE_STAT_MAX = 0, RTP_PROBE_STAT_P99 } rtp_probe_stat;
const char *rtp_probe_stat_name(rtp_probe_stat stat);

typedef struct rtp_probe_report {
    rtp_probe_kernel kernel;
    int has_loadavg;
    double loadavg[3];        /* /proc/loadavg when the probe started */
    int online_cpus;          /* 0 unknown */
    /* How it measured. */
    rtp_ns seconds_ns;        /* --seconds */
    rtp_ns period_ns;         /* wake-up period */
    int fifo_priority;
    rtp_ns dl_runtime_ns;     /* SCHED_DEADLINE runtime (deadline = period) */
    const char *dl_pinning;   /* "cpuset", "root_domain" or NULL (not run) */
    const char *switch_policy;/* "fifo", "other" or NULL */
    rtp_probe_stat latency_stat;
    rtp_probe_cpu *cpus;      /* owned */
    size_t n_cpus;
    /* The platform member: each overhead that was measured (without root
     * the context switch is, the release latency is not), and
     * has_overheads when either was. */
    int has_overheads;
    int has_release_latency, has_context_switch;
    rtp_ns release_latency_ns;
    rtp_ns context_switch_ns;
    rtp_ns deadline_charge_ns; /* 0 when not measured: then not written */
    rtp_ns noise_per_ms_ns;
    rtp_ns lock_ns;            /* the largest lock p99: 0 when not measured */
    rtp_notes skipped;
    rtp_notes warnings;
} rtp_probe_report;

void rtp_probe_report_init(rtp_probe_report *r);
void rtp_probe_report_free(rtp_probe_report *r);

/* The --json document; pretty = indented. Malloc'd, '\n' ended; NULL when
 * out of memory. */
char *rtp_probe_report_to_json(const rtp_probe_report *r, int pretty);

/* Reads the --json document back (probe/probe_doc_read.c; rtpack report
 * --probe) with the same rules as rtp_rehearse_report_parse_json: every
 * member the writer writes, of its type, nothing else; platform.cpus must
 * list the CPUs of "cpus" in order. A value the writer shows rounded
 * (method.seconds, steal, load averages) comes back as that display value.
 * RTP_EINPUT with the JSON path, RTP_ENOMEM; *out is initialised first and
 * left empty on failure (rtp_probe_report_free is safe either way). */
rtp_status rtp_probe_report_parse_json(const char *text, size_t len, rtp_probe_report *out,
                                       rtp_diag *diag);

/* The platform member alone, compact ("{"cpus":[0,1],"overheads":{...}}"). */
char *rtp_probe_platform_to_json(const rtp_probe_report *r);

/* "0-3,6" form of a mask into buf ("" when empty). */
void rtp_cpumask_format(const rtp_cpumask *m, char *buf, size_t size);

#endif
