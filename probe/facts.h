/* probe/facts.h — the kernel facts that decide whether a real-time plan holds
 * on a Linux machine (docs/spec.md "rtpack probe"), read from procfs, sysfs,
 * debugfs and the kernel configuration under a root folder: "" reads the
 * live machine, a fixture tree reads a recorded one (tests).
 *
 * The parsers are pure functions over text (one per file format) so they are
 * tested on fixture lines. The readers never change the machine: mounting
 * debugfs for a moment is the caller's decision (probe/probe.c). Facts that
 * cannot be determined stay unknown (probe/probe_doc.h). Thread-safety: no
 * globals; the readers only read files. */
#ifndef RTP_PROBE_FACTS_H
#define RTP_PROBE_FACTS_H

#include "probe/probe_doc.h"

/* Buffers for paths under the root folder (/sys, /proc or a recorded tree). */
#define RTP_PROBE_PATH_SIZE 512

/* --- parsers --- */

/* A kernel CPU list "0-3,8\n" ("" = empty). 0, or -1 for malformed text or
 * an id >= RTP_CPU_LIMIT (out untouched then). */
int rtp_probe_parse_cpulist(const char *text, rtp_cpumask *out);

/* The value of NAME in a kernel .config text: 1 with the value ("y", "250",
 * quotes kept) in out, 0 for "# NAME is not set", -1 when absent. */
int rtp_probe_config_value(const char *config, const char *name, char *out, size_t size);

/* A scheduler feature in /sys/kernel/debug/sched/features ("HRTICK" on,
 * "NO_HRTICK" off, whole words only); RTP_TRI_UNKNOWN when absent. */
rtp_tri rtp_probe_parse_feature(const char *features, const char *name);

/* The current choice of a sysfs/debugfs selector: "none (voluntary) full"
 * and "none [integrity] confidentiality" give "voluntary" / "integrity".
 * 0, or -1 when no choice is marked. */
int rtp_probe_parse_choice(const char *text, char *out, size_t size);

/* The value of "key=value" in a kernel command line (words before " -- "
 * only); 1 found, 0 absent. A bare word "key" gives 1 and "". */
int rtp_probe_cmdline_param(const char *cmdline, const char *key, char *out, size_t size);

/* "6.18.44-fc" -> 6, 18. 0, or -1 when not "<major>.<minor>". */
int rtp_probe_parse_release(const char *release, int *major, int *minor);

/* The busy and steal jiffies of "cpuN" in a /proc/stat text. 0, or -1 when
 * the line is missing or has no steal column. */
int rtp_probe_parse_stat(const char *stat, int cpu, uint64_t *total, uint64_t *steal);

/* --- readers (root "" = this machine) --- */

/* A whole text file under root into a malloc'd string (gzip-compressed files
 * such as /proc/config.gz are inflated); NULL with errno set on failure. */
char *rtp_probe_read_text(const char *root, const char *rel);

/* Fills k from the files under root. `skipped` receives one line per fact
 * that could not be read and why. live = 1 also asks the CPU itself (CPUID)
 * for a hypervisor. Never fails: unknown facts stay unknown. */
void rtp_probe_read_kernel(const char *root, int live, rtp_probe_kernel *k, rtp_notes *skipped);

/* The online CPUs (sys/devices/system/cpu/online); 0, or -1. */
int rtp_probe_read_online(const char *root, rtp_cpumask *online);

/* Per-CPU facts: SMT siblings, cpufreq governor. */
void rtp_probe_read_cpu(const char *root, int cpu, rtp_probe_cpu *c);

#endif
