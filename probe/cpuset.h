/* probe/cpuset.h — temporary one-CPU root domains for measuring
 * SCHED_DEADLINE per CPU (a SCHED_DEADLINE thread's affinity must equal its
 * root domain, so pinning one to a CPU needs a domain of that CPU alone).
 *
 * Under cgroup v1 (the layout of the launch script, docs/spec.md "Launch script"): per
 * measured CPU a child cpuset with cpuset.cpus = N, the root's mems and
 * cpu_exclusive = 1; the other CPUs of the root in one load-balanced
 * housekeeping child; the root's sched_load_balance turned off. close()
 * moves any thread left inside back to the root, removes the children and
 * writes the root's saved sched_load_balance back.
 *
 * The children are named "rtpack-probe.<pid>.lb<saved flag>.<what>", so a
 * probe killed with SIGKILL is cleaned up by the next one: the PID says it
 * is dead, the name says which flag to restore. open() refuses (and touches
 * nothing) when load balancing is already off at the root, a SCHED_DEADLINE
 * thread runs anywhere (its root domain would be rebuilt under it), or
 * another probe is live. Thread-safety: one session per process. */
#ifndef RTP_PROBE_CPUSET_H
#define RTP_PROBE_CPUSET_H

#include <stddef.h>

typedef struct rtp_probe_cpuset {
    char base[256];      /* the cgroup v1 cpuset mount */
    char **dirs;         /* children created, in order (owned) */
    size_t n_dirs, cap_dirs;
    char **join_tasks;   /* per measured CPU: its child's "tasks" file (owned) */
    size_t n_join;
    char root_tasks[300];
    int saved_lb;
    int lb_changed;
    int stale_pid;       /* open() cleaned up after this killed probe (0 = none) */
} rtp_probe_cpuset;

/* Creates the domains for cpus[0..n). 0 on success; else -1 with the reason
 * in why and nothing left changed (what was created is removed again). */
int rtp_probe_cpuset_open(const char *base, const int *cpus, size_t n, rtp_probe_cpuset *cs,
                          char *why, size_t why_size);

/* Undoes open(). 0 when everything was restored, else -1 with what is left
 * in why. Safe on a session whose open() failed. */
int rtp_probe_cpuset_close(rtp_probe_cpuset *cs, char *why, size_t why_size);

/* Removes children of dead probes under base and restores the flag their
 * names record. 0, or -1 with what is left in why; *live_pid = the PID of a
 * running probe found, *dead_pid = one whose leftovers were removed (0 if
 * none). */
int rtp_probe_cpuset_clean_stale(const char *base, int *live_pid, int *dead_pid, char *why,
                                 size_t why_size);

#endif
