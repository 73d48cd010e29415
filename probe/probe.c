/* probe/probe.c — the probe run: facts, measurements, overheads, warnings
 * (see probe.h). */
#include "probe/probe.h"

#include "models/duration.h"
#include "probe/charge.h"
#include "probe/cpuset.h"
#include "probe/facts.h"
#include "probe/lockcost.h"
#include "probe/measure.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <unistd.h>

#define DEBUGFS "/sys/kernel/debug"

rtp_probe_opts rtp_probe_opts_default(void)
{
    rtp_probe_opts o;
    memset(&o, 0, sizeof o);
    o.seconds_ns = (rtp_ns)10 * 1000000000;
    o.period_ns = 1000000;
    o.fifo_priority = 90;
    o.dl_runtime_ns = 200000;
    o.latency_stat = RTP_PROBE_STAT_MAX;
    o.root = "";
    o.cpuset_base = "/sys/fs/cgroup/cpuset";
    return o;
}

static int stopped(const rtp_probe_opts *o)
{
    return o->stop && *o->stop;
}

/* --- facts --- */

static int debugfs_mounted(void)
{
    char *mounts = rtp_probe_read_text("", "/proc/mounts");
    int found = mounts && strstr(mounts, " " DEBUGFS " debugfs ") != NULL;
    free(mounts);
    return found;
}

static int from_debugfs(const char *source)
{
    return strncmp(source, DEBUGFS, strlen(DEBUGFS)) == 0;
}

/* Reads the kernel facts; on the live machine as root, with debugfs not
 * mounted and the kernel not locked down, mounts it for the moment of the
 * reading (the preemption model, HRTICK_DL and the fair server live there). */
static rtp_status read_facts(const rtp_probe_opts *o, rtp_probe_report *r, rtp_diag *diag)
{
    int live = o->root[0] == '\0';
    rtp_probe_read_kernel(o->root, live, &r->kernel, &r->skipped);
    const rtp_probe_kernel *k = &r->kernel;
    int locked = strcmp(k->lockdown, "integrity") == 0 || strcmp(k->lockdown, "confidentiality") == 0;
    if (!live || geteuid() != 0 || locked || debugfs_mounted() ||
        (from_debugfs(k->preempt_source) && from_debugfs(k->hrtick_source)))
        return RTP_OK;
    if (mount("none", DEBUGFS, "debugfs", 0, NULL) != 0)
        return RTP_OK; /* the facts read without it stand */
    rtp_notes_free(&r->skipped);
    memset(&r->kernel, 0, sizeof r->kernel);
    r->kernel.hrtick = r->kernel.hrtick_dl = RTP_TRI_UNKNOWN;
    r->kernel.dl_fair_server = r->kernel.virtualized = RTP_TRI_UNKNOWN;
    rtp_probe_read_kernel(o->root, live, &r->kernel, &r->skipped);
    if (umount2(DEBUGFS, 0) != 0)
        return rtp_diag_set(diag, RTP_EINTERNAL, "",
                            "could not unmount the debugfs it mounted at " DEBUGFS ": %s; "
                            "unmount it by hand (umount " DEBUGFS ")",
                            strerror(errno));
    return RTP_OK;
}

static void read_loadavg(const rtp_probe_opts *o, rtp_probe_report *r)
{
    char *text = rtp_probe_read_text(o->root, "/proc/loadavg");
    if (text && sscanf(text, "%lf %lf %lf", &r->loadavg[0], &r->loadavg[1], &r->loadavg[2]) == 3)
        r->has_loadavg = 1;
    free(text);
}

/* The CPUs to measure: the given ones (each online and in our affinity) or
 * every such CPU. */
static rtp_status choose_cpus(const rtp_probe_opts *o, rtp_probe_report *r, rtp_diag *diag)
{
    rtp_cpumask online, allowed;
    char list[256];
    memset(&allowed, 0, sizeof allowed);
    if (rtp_probe_read_online(o->root, &online) != 0)
        return rtp_diag_set(diag, RTP_EINTERNAL, "", "cannot read the online CPUs "
                                                     "(/sys/devices/system/cpu/online)");
    r->online_cpus = (int)rtp_cpumask_count(&online);
    cpu_set_t set;
    if (o->root[0] == '\0' && sched_getaffinity(0, sizeof set, &set) == 0) {
        for (int c = 0; c < CPU_SETSIZE && c < RTP_CPU_LIMIT; c++)
            if (CPU_ISSET(c, &set))
                rtp_cpumask_set(&allowed, c);
    } else {
        allowed = online;
    }
    rtp_cpumask chosen;
    memset(&chosen, 0, sizeof chosen);
    for (size_t i = 0; o->cpus && i < o->n_cpus; i++) {
        if (!rtp_cpumask_has(&online, o->cpus[i])) {
            rtp_cpumask_format(&online, list, sizeof list);
            return rtp_diag_set(diag, RTP_EINPUT, "", "--cpus: CPU %d is not online (online: %s)",
                                o->cpus[i], list);
        }
        if (!rtp_cpumask_has(&allowed, o->cpus[i])) {
            rtp_cpumask_format(&allowed, list, sizeof list);
            return rtp_diag_set(diag, RTP_EINPUT, "",
                                "--cpus: CPU %d is outside this process's CPU affinity (%s)",
                                o->cpus[i], list);
        }
        rtp_cpumask_set(&chosen, o->cpus[i]);
    }
    if (!o->cpus)
        for (size_t w = 0; w < RTP_CPU_LIMIT / 64; w++)
            chosen.bits[w] = online.bits[w] & allowed.bits[w];
    r->n_cpus = rtp_cpumask_count(&chosen);
    if (r->n_cpus == 0)
        return rtp_diag_set(diag, RTP_EINPUT, "", "no CPU to measure");
    if (!(r->cpus = calloc(r->n_cpus, sizeof *r->cpus)))
        return rtp_diag_set(diag, RTP_ENOMEM, "", "out of memory");
    size_t i = 0;
    for (int c = rtp_cpumask_next(&chosen, -1); c >= 0; c = rtp_cpumask_next(&chosen, c))
        rtp_probe_read_cpu(o->root, c, &r->cpus[i++]);
    return RTP_OK;
}

/* --- steal time --- */

typedef struct stat_snap {
    uint64_t total, steal;
    int ok;
} stat_snap;

static void snap_stat(const rtp_probe_report *r, stat_snap *s)
{
    char *text = rtp_probe_read_text("", "/proc/stat");
    for (size_t i = 0; i < r->n_cpus; i++)
        s[i].ok = text && rtp_probe_parse_stat(text, r->cpus[i].cpu, &s[i].total, &s[i].steal) == 0;
    free(text);
}

/* --- measurements --- */

/* Temporary one-CPU root domains for SCHED_DEADLINE threads (probe/cpuset.h),
 * their tasks files in run; 1 when pinned, 0 when the threads run on the
 * whole root domain instead (noted once, with why). */
static int pin_deadline(const rtp_probe_opts *o, rtp_probe_job *run, rtp_probe_report *r,
                        rtp_probe_cpuset *cs)
{
    char why[320];
    int pinned = 0;
    memset(cs, 0, sizeof *cs);
    if (strcmp(r->kernel.cpuset, "v1") != 0)
        snprintf(why, sizeof why, "no cgroup v1 cpuset controller");
    else if (rtp_probe_cpuset_open(o->cpuset_base, run->cpus, run->n_cpus, cs, why,
                                   sizeof why) == 0)
        pinned = 1;
    if (cs->stale_pid)
        rtp_notes_add(&r->warnings,
                      "cpusets left by a killed rtpack probe (PID %d) were removed and the "
                      "root cpuset's sched_load_balance restored: until then the kernel did not "
                      "balance load across those CPUs",
                      cs->stale_pid);
    if (!pinned && !r->dl_pinning)
        rtp_notes_add(&r->skipped, "SCHED_DEADLINE per CPU: %s; measured on the whole root "
                                   "domain instead",
                      why);
    r->dl_pinning = pinned ? "cpuset" : "root_domain";
    run->join_tasks = pinned ? cs->join_tasks : NULL;
    run->leave_tasks = pinned ? cs->root_tasks : NULL;
    return pinned;
}

/* Undoes pin_deadline; RTP_EINTERNAL when the machine is not restored. */
static rtp_status unpin_deadline(rtp_probe_job *run, int pinned, rtp_probe_cpuset *cs,
                                 rtp_diag *diag)
{
    char undo[320];
    run->join_tasks = NULL;
    run->leave_tasks = NULL;
    if (pinned && rtp_probe_cpuset_close(cs, undo, sizeof undo) != 0)
        return rtp_diag_set(diag, RTP_EINTERNAL, "", "the machine is not restored: %s", undo);
    return RTP_OK;
}

/* SCHED_FIFO and SCHED_DEADLINE latency in alternating rounds; SCHED_DEADLINE
 * per CPU inside temporary one-CPU root domains, else on the whole root
 * domain. RTP_EINTERNAL when the cpusets could not be undone. */
static rtp_status measure_latency(const rtp_probe_opts *o, rtp_probe_job *run, int fifo,
                                  int deadline, rtp_probe_report *r, rtp_diag *diag)
{
    rtp_probe_cpuset cs;
    int pinned = 0;
    if (!fifo && !deadline)
        return RTP_OK;
    if (deadline)
        pinned = pin_deadline(o, run, r, &cs);
    rtp_probe_latency *lat = calloc(2 * r->n_cpus, sizeof *lat);
    if (!lat) {
        rtp_status st = unpin_deadline(run, pinned, &cs, diag);
        return st != RTP_OK ? st : rtp_diag_set(diag, RTP_ENOMEM, "", "out of memory");
    }
    run->policies = fifo && deadline ? RTP_PROBE_BOTH : fifo ? RTP_PROBE_ONLY_FIFO : RTP_PROBE_ONLY_DL;
    rtp_probe_latency_status status;
    rtp_probe_latency_run(run, lat, lat + r->n_cpus, &status);
    if (unpin_deadline(run, pinned, &cs, diag) != RTP_OK) {
        free(lat);
        return RTP_EINTERNAL;
    }
    if (fifo && status.err[0])
        rtp_notes_add(&r->skipped, "SCHED_FIFO latency: %s", status.why[0]);
    if (deadline && status.err[1]) {
        rtp_notes_add(&r->skipped, "SCHED_DEADLINE latency: %s", status.why[1]);
        r->dl_pinning = NULL;
    }
    for (size_t i = 0; i < r->n_cpus; i++) {
        r->cpus[i].fifo = lat[i];
        r->cpus[i].deadline = lat[r->n_cpus + i];
    }
    free(lat);
    return RTP_OK;
}

/* The SCHED_DEADLINE charge and the noise (probe/charge.h), pinned like the
 * latencies. */
static rtp_status measure_charge(const rtp_probe_opts *o, rtp_probe_job *run,
                                 rtp_probe_report *r, rtp_diag *diag)
{
    rtp_probe_cpuset cs;
    int pinned = pin_deadline(o, run, r, &cs);
    rtp_probe_charge *charge = calloc(r->n_cpus, sizeof *charge);
    char why[256] = "";
    int rc = charge ? rtp_probe_charge_run(run, charge, why, sizeof why) : ENOMEM;
    rtp_status st = unpin_deadline(run, pinned, &cs, diag);
    if (rc)
        rtp_notes_add(&r->skipped, "SCHED_DEADLINE charge: %s", charge ? why : "out of memory");
    for (size_t i = 0; !rc && i < r->n_cpus; i++)
        r->cpus[i].charge = charge[i];
    free(charge);
    return st;
}

static void measure_switch(rtp_probe_job *run, int fifo, rtp_probe_report *r)
{
    char why[256];
    rtp_probe_switch *sw = calloc(r->n_cpus, sizeof *sw);
    if (!sw) {
        rtp_notes_add(&r->skipped, "context switch: out of memory");
        return;
    }
    if (rtp_probe_switch_run(run, fifo ? RTP_PROBE_FIFO : RTP_PROBE_OTHER, sw, why,
                             sizeof why) != 0) {
        rtp_notes_add(&r->skipped, "context switch: %s", why);
    } else {
        r->switch_policy = fifo ? "fifo" : "other";
        for (size_t i = 0; i < r->n_cpus; i++)
            r->cpus[i].context_switch = sw[i];
    }
    free(sw);
}

/* The lock overhead of every deployed kind (probe/lockcost.h). */
static void measure_locks(rtp_probe_job *run, rtp_probe_report *r)
{
    char why[256];
    rtp_probe_lock_cost *lc = calloc(r->n_cpus * RTP_PROBE_LOCK_KINDS, sizeof *lc);
    if (!lc) {
        rtp_notes_add(&r->skipped, "lock overhead: out of memory");
        return;
    }
    if (rtp_probe_lock_run(run, lc, why, sizeof why) != 0)
        rtp_notes_add(&r->skipped, "lock overhead: %s", why);
    else
        for (size_t i = 0; i < r->n_cpus; i++)
            memcpy(r->cpus[i].locks, &lc[i * RTP_PROBE_LOCK_KINDS], sizeof r->cpus[i].locks);
    free(lc);
}

static rtp_status measure(const rtp_probe_opts *o, rtp_probe_report *r, rtp_diag *diag)
{
    int *cpus = calloc(r->n_cpus, sizeof *cpus);
    stat_snap *before = calloc(r->n_cpus, sizeof *before), *after = calloc(r->n_cpus, sizeof *after);
    rtp_status st = RTP_OK;
    if (!cpus || !before || !after) {
        st = rtp_diag_set(diag, RTP_ENOMEM, "", "out of memory");
        goto done;
    }
    for (size_t i = 0; i < r->n_cpus; i++)
        cpus[i] = r->cpus[i].cpu;
    rtp_probe_job run = {.cpus = cpus, .n_cpus = r->n_cpus, .period_ns = o->period_ns,
                         .fifo_priority = o->fifo_priority, .dl_runtime_ns = o->dl_runtime_ns,
                         .stop = o->stop};
    int root = geteuid() == 0;
    int fifo = rtp_probe_fifo_allowed(o->fifo_priority);
    int locked = root && mlockall(MCL_CURRENT | MCL_FUTURE) == 0;
    snap_stat(r, before);
    /* 2/5 of the time for the latencies (FIFO and DEADLINE rounds of at
     * most 500 ms alternating), 2/5 for the SCHED_DEADLINE charge (its
     * fixed part has a long tail: samples matter), 1/5 for the context
     * switch. */
    run.duration_ns = o->seconds_ns * 2 / 5;
    run.round_ns = run.duration_ns / 8;
    if (run.round_ns > 500000000)
        run.round_ns = 500000000;
    if (run.round_ns < 10 * o->period_ns)
        run.round_ns = 10 * o->period_ns;
    if (!fifo)
        rtp_notes_add(&r->skipped, "SCHED_FIFO latency: this process may not use SCHED_FIFO "
                                   "(run as root, or grant CAP_SYS_NICE)");
    if (!root)
        rtp_notes_add(&r->skipped, "SCHED_DEADLINE latency: needs root (CAP_SYS_NICE, and "
                                   "cpusets to pin a thread to one CPU)");
    st = measure_latency(o, &run, fifo, root, r, diag);
    run.duration_ns = o->seconds_ns * 2 / 5;
    if (root && st == RTP_OK && !stopped(o))
        st = measure_charge(o, &run, r, diag);
    else if (!root)
        rtp_notes_add(&r->skipped, "SCHED_DEADLINE charge: needs root (CAP_SYS_NICE, and "
                                   "cpusets to pin a thread to one CPU)");
    run.duration_ns = o->seconds_ns / 5;
    if (st == RTP_OK && !stopped(o))
        measure_switch(&run, fifo, r);
    if (st == RTP_OK && !stopped(o) && fifo)
        measure_locks(&run, r);
    else if (!fifo)
        rtp_notes_add(&r->skipped, "lock overhead: needs SCHED_FIFO (the deployed locks raise "
                                   "the thread's FIFO priority; run as root, or grant "
                                   "CAP_SYS_NICE)");
    snap_stat(r, after);
    for (size_t i = 0; i < r->n_cpus; i++)
        if (before[i].ok && after[i].ok && after[i].total > before[i].total)
            r->cpus[i].steal = (double)(after[i].steal - before[i].steal) /
                               (double)(after[i].total - before[i].total);
    if (locked)
        munlockall();
done:
    free(cpus);
    free(before);
    free(after);
    return st;
}

/* --- overheads and warnings --- */

static rtp_ns pick(const rtp_probe_latency *l, rtp_probe_stat stat)
{
    return stat == RTP_PROBE_STAT_P99 ? l->p99_ns : l->max_ns;
}

void rtp_probe_overheads(rtp_probe_report *r)
{
    int have_latency = 0, have_switch = 0;
    r->release_latency_ns = r->context_switch_ns = 0;
    r->deadline_charge_ns = r->noise_per_ms_ns = r->lock_ns = 0;
    for (size_t i = 0; i < r->n_cpus; i++) {
        const rtp_probe_cpu *c = &r->cpus[i];
        const rtp_probe_latency *l[2] = {&c->fifo, &c->deadline};
        for (int k = 0; k < 2; k++) {
            if (!l[k]->measured)
                continue;
            have_latency = 1;
            if (pick(l[k], r->latency_stat) > r->release_latency_ns)
                r->release_latency_ns = pick(l[k], r->latency_stat);
        }
        if (c->context_switch.measured) {
            have_switch = 1;
            if (c->context_switch.p99_ns > r->context_switch_ns)
                r->context_switch_ns = c->context_switch.p99_ns;
        }
        for (int k = 0; k < RTP_PROBE_LOCK_KINDS; k++) /* p99, as the switch */
            if (c->locks[k].measured && c->locks[k].p99_ns > r->lock_ns)
                r->lock_ns = c->locks[k].p99_ns;
        if (c->charge.measured) { /* the largest over CPUs, like the others */
            if (c->charge.fixed_ns > r->deadline_charge_ns)
                r->deadline_charge_ns = c->charge.fixed_ns;
            if (c->charge.per_ms_ns > r->noise_per_ms_ns)
                r->noise_per_ms_ns = c->charge.per_ms_ns;
        }
    }
    /* Each one that was measured: without root the context switch is
     * (SCHED_OTHER), the release latency is not, and dropping the switch
     * too made a platform member that charged nothing at all. */
    r->has_release_latency = have_latency;
    r->has_context_switch = have_switch;
    r->has_overheads = have_latency || have_switch;
}

static void tick_words(const rtp_probe_kernel *k, char *buf, size_t size)
{
    rtp_ns tick = (rtp_ns)1000000000 / k->hz.value;
    if (tick % 1000000 == 0)
        snprintf(buf, size, "%lld ms", (long long)(tick / 1000000));
    else
        snprintf(buf, size, "%.2f ms", (double)tick / 1e6);
}

static void warn_kernel(rtp_probe_report *r)
{
    const rtp_probe_kernel *k = &r->kernel;
    char tick[32], text[64];
    if (k->hz.known && k->hz.value > 0 && k->hrtick_dl != RTP_TRI_YES) {
        tick_words(k, tick, sizeof tick);
        rtp_notes_add(&r->warnings,
                      "HZ=%lld and HRTICK_DL %s: a SCHED_DEADLINE budget is enforced only every "
                      "%s, so a task that overruns its runtime can take up to %s from the others",
                      (long long)k->hz.value, k->hrtick_dl == RTP_TRI_NO ? "off" : "unknown (off by default)",
                      tick, tick);
    }
    if (strcmp(k->preempt, "none") == 0 || strcmp(k->preempt, "voluntary") == 0)
        rtp_notes_add(&r->warnings,
                      "preemption model '%s': a real-time task that wakes while its CPU runs "
                      "kernel code waits until that code finishes or yields, so its release "
                      "latency includes the longest such kernel section (full or rt preemption "
                      "bounds it)",
                      k->preempt);
    if (k->virtualized == RTP_TRI_YES) {
        double steal = -1;
        for (size_t i = 0; i < r->n_cpus; i++)
            if (r->cpus[i].steal > steal)
                steal = r->cpus[i].steal;
        char stolen[96] = "";
        if (steal >= 0)
            snprintf(stolen, sizeof stolen, " (steal counted during the probe: %.1f%%, if the "
                     "host reports it)", 100 * steal);
        rtp_notes_add(&r->warnings,
                      "virtualized%s%s%s: the host can stop a virtual CPU at any moment%s, so "
                      "no latency measured here bounds what a task will see",
                      k->hypervisor[0] ? " (" : "", k->hypervisor, k->hypervisor[0] ? ")" : "",
                      stolen);
    }
    if (k->dl_fair_server == RTP_TRI_YES) {
        long long run_ms = k->fair_runtime_ns.known ? k->fair_runtime_ns.value / 1000000 : 50;
        long long per_ms = k->fair_period_ns.known ? k->fair_period_ns.value / 1000000 : 1000;
        if (k->has_dl_bandwidth)
            rtp_ratio_format(k->dl_bandwidth, text, sizeof text);
        else
            snprintf(text, sizeof text, "0.90");
        rtp_notes_add(&r->warnings,
                      "the DL fair server (Linux >= 6.12) reserves %lld ms of every %lld ms on "
                      "each CPU for normal tasks: SCHED_DEADLINE admission stops at %s per CPU, "
                      "and a SCHED_FIFO task can be held back up to %lld ms in each %lld ms "
                      "while normal tasks are starved",
                      run_ms, per_ms, text, run_ms, per_ms);
    }
    if (k->rt_runtime_us.known && k->rt_runtime_us.value < 0)
        rtp_notes_add(&r->warnings,
                      "RT throttling is off (sched_rt_runtime_us = -1): a runaway SCHED_FIFO "
                      "task can starve everything else on its CPU, including kernel threads "
                      "the system needs");
    else if (k->rt_runtime_us.known && k->rt_period_us.known && k->dl_fair_server != RTP_TRI_YES)
        rtp_notes_add(&r->warnings,
                      "RT throttling: real-time tasks get at most %lld us of every %lld us per "
                      "CPU, so a SCHED_FIFO load above that share is stopped for the rest of "
                      "each period",
                      (long long)k->rt_runtime_us.value, (long long)k->rt_period_us.value);
}

static void warn_cpus(rtp_probe_report *r)
{
    const rtp_probe_kernel *k = &r->kernel;
    char list[256];
    int isolated = 0;
    for (size_t i = 0; i < r->n_cpus; i++)
        if ((k->has_isolated && rtp_cpumask_has(&k->isolated, r->cpus[i].cpu)) ||
            (k->has_nohz_full && rtp_cpumask_has(&k->nohz_full, r->cpus[i].cpu)))
            isolated = 1;
    if (k->has_isolated && !isolated)
        rtp_notes_add(&r->warnings,
                      "no measured CPU is isolated (isolcpus/nohz_full unset): ordinary tasks, "
                      "kernel threads, interrupts and the scheduler tick share the real-time "
                      "CPUs, so their non-preemptible work adds to every release latency");
    for (size_t i = 0; i < r->n_cpus; i++) {
        const char *g = r->cpus[i].governor;
        int seen = 0;
        for (size_t j = 0; j < i; j++)
            seen |= strcmp(r->cpus[j].governor, g) == 0;
        if (!g[0] || strcmp(g, "performance") == 0 || seen)
            continue;
        rtp_cpumask m;
        memset(&m, 0, sizeof m);
        for (size_t j = i; j < r->n_cpus; j++)
            if (strcmp(r->cpus[j].governor, g) == 0)
                rtp_cpumask_set(&m, r->cpus[j].cpu);
        rtp_cpumask_format(&m, list, sizeof list);
        rtp_notes_add(&r->warnings,
                      "CPU %s run%s the cpufreq governor '%s', not 'performance': the clock "
                      "speeds up only after load appears, so a job can run longer than a WCET "
                      "measured at full speed",
                      list, rtp_cpumask_count(&m) > 1 ? "" : "s", g);
    }
    size_t used = 0;
    list[0] = '\0';
    for (size_t i = 0; i < r->n_cpus && used < sizeof list; i++) {
        if (!r->cpus[i].has_siblings || rtp_cpumask_count(&r->cpus[i].siblings) == 0)
            continue;
        char sib[64];
        rtp_cpumask_format(&r->cpus[i].siblings, sib, sizeof sib);
        used += (size_t)snprintf(list + used, sizeof list - used, "%s%d with %s", used ? ", " : "",
                                 r->cpus[i].cpu, sib);
    }
    if (used)
        rtp_notes_add(&r->warnings,
                      "SMT siblings share a core (CPU %s): work on one slows the other, so a "
                      "WCET measured with the sibling idle may not hold when both run",
                      list);
}

static void warn_measurements(rtp_probe_report *r)
{
    uint64_t samples = 0, overruns = 0;
    int worst_cpu = -1;
    for (size_t i = 0; i < r->n_cpus; i++) {
        const rtp_probe_cpu *c = &r->cpus[i];
        uint64_t o = c->fifo.overruns + c->deadline.overruns;
        if (o > 0 && (worst_cpu < 0 || o > overruns)) {
            worst_cpu = c->cpu;
            overruns = o;
        }
        if (c->fifo.samples > samples)
            samples = c->fifo.samples;
        if (c->deadline.samples > samples)
            samples = c->deadline.samples;
    }
    char period[32];
    snprintf(period, sizeof period, "%.3g ms", (double)r->period_ns / 1e6);
    if (worst_cpu >= 0)
        rtp_notes_add(&r->warnings,
                      "CPU %d woke a whole period (%s) late %llu time(s): a task with a %s "
                      "period there would have lost releases",
                      worst_cpu, period, (unsigned long long)overruns, period);
    if (samples > 0)
        rtp_notes_add(&r->warnings,
                      "the latencies come from at most %llu wake-ups per CPU and policy: the "
                      "true worst case can be larger, so measure longer (--seconds 60 or more) "
                      "under the load the tasks will see before relying on the overheads",
                      (unsigned long long)samples);
    if (r->has_release_latency && r->latency_stat == RTP_PROBE_STAT_P99)
        rtp_notes_add(&r->warnings,
                      "release_latency is the p99, not the maximum: about 1%% of the measured "
                      "wake-ups came later than the analysis will assume");
    if (!r->has_overheads)
        rtp_notes_add(&r->warnings,
                      "no overheads were measured (see skipped), so the platform member carries "
                      "none: an analysis with it assumes a kernel that costs nothing");
    else if (!r->has_release_latency)
        rtp_notes_add(&r->warnings,
                      "the release latency was not measured (see skipped; it needs root), so "
                      "the platform member carries the context switch only: an analysis with "
                      "it assumes every job is released on time; run the probe as root");
    else if (!r->has_context_switch)
        rtp_notes_add(&r->warnings,
                      "the context switch was not measured (see skipped), so the platform "
                      "member carries the release latency only: an analysis with it charges "
                      "jobs nothing for switching");
    if (r->dl_pinning && strcmp(r->dl_pinning, "root_domain") == 0)
        rtp_notes_add(&r->warnings,
                      "SCHED_DEADLINE was measured on the whole root domain, not pinned per CPU "
                      "(see skipped), so each CPU's figures come from whichever thread the "
                      "kernel placed there");
    if (r->deadline_charge_ns > 0 || r->noise_per_ms_ns > 0) {
        char fixed[32], noise[32];
        rtp_duration_format(r->deadline_charge_ns, fixed, sizeof fixed);
        rtp_duration_format(r->noise_per_ms_ns, noise, sizeof noise);
        rtp_notes_add(&r->warnings,
                      "SCHED_DEADLINE charged a job up to %s beyond its own execution, plus %s "
                      "per ms it ran (interrupts, the tick, the hypervisor): a runtime of bare "
                      "wcet + 2 x context_switch is throttled to its next period and the "
                      "overdraft taken from the next budget; with the platform member pasted, "
                      "partition and emit add both (deadline_charge and noise_per_ms)",
                      fixed, noise);
    }
    if (r->has_loadavg && r->online_cpus > 0 && r->loadavg[0] > r->online_cpus)
        rtp_notes_add(&r->warnings,
                      "the load average was %.2f on %d CPUs when the probe started: the "
                      "latencies reflect that load, not an idle machine",
                      r->loadavg[0], r->online_cpus);
}

void rtp_probe_warn(rtp_probe_report *r)
{
    warn_kernel(r);
    warn_cpus(r);
    warn_measurements(r);
}

rtp_status rtp_probe_run(const rtp_probe_opts *o, rtp_probe_report *r, rtp_diag *diag)
{
    rtp_probe_report_init(r);
    r->seconds_ns = o->seconds_ns;
    r->period_ns = o->period_ns;
    r->fifo_priority = o->fifo_priority;
    r->dl_runtime_ns = o->dl_runtime_ns;
    r->latency_stat = o->latency_stat;
    if (o->period_ns <= 0 || o->seconds_ns <= 0 || o->dl_runtime_ns <= 0 ||
        o->dl_runtime_ns > o->period_ns || o->fifo_priority < 1 || o->fifo_priority > 99)
        return rtp_diag_set(diag, RTP_EINPUT, "", "probe options out of range");
    read_loadavg(o, r);
    rtp_status st = read_facts(o, r, diag);
    if (st == RTP_OK)
        st = choose_cpus(o, r, diag);
    if (st != RTP_OK)
        return st;
    if (o->root[0] != '\0')
        rtp_notes_add(&r->skipped, "measurements: the facts come from a recorded tree (%s)",
                      o->root);
    else if ((st = measure(o, r, diag)) != RTP_OK)
        return st;
    if (stopped(o))
        return rtp_diag_set(diag, RTP_ELIMIT, "",
                            "interrupted before the measurements finished (every thread is "
                            "stopped and every setting restored)");
    rtp_probe_overheads(r);
    rtp_probe_warn(r);
    if (r->skipped.failed || r->warnings.failed)
        return rtp_diag_set(diag, RTP_ENOMEM, "", "out of memory");
    return RTP_OK;
}
