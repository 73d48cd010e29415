/* probe/facts.c — kernel facts from procfs/sysfs/debugfs (see facts.h). */
#include "probe/facts.h"


#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#define TEXT_LIMIT ((size_t)64 << 20) /* a kernel .config is ~300 KiB */

/* --- parsers --- */

int rtp_probe_parse_cpulist(const char *text, rtp_cpumask *out)
{
    rtp_cpumask m;
    memset(&m, 0, sizeof m);
    const char *p = text;
    while (*p == ' ' || *p == '\t')
        p++;
    while (*p && *p != '\n') {
        char *end;
        if (!isdigit((unsigned char)*p))
            return -1;
        long lo = strtol(p, &end, 10), hi = lo;
        p = end;
        if (*p == '-') {
            if (!isdigit((unsigned char)p[1]))
                return -1;
            hi = strtol(p + 1, &end, 10);
            p = end;
        }
        if (lo < 0 || hi < lo || hi >= RTP_CPU_LIMIT)
            return -1;
        for (long c = lo; c <= hi; c++)
            rtp_cpumask_set(&m, (int)c);
        if (*p == ',')
            p++;
        else if (*p && *p != '\n')
            return -1;
    }
    *out = m;
    return 0;
}

/* Start of the line holding `needle` at its beginning, or NULL. */
static const char *line_starting(const char *text, const char *needle)
{
    size_t n = strlen(needle);
    for (const char *p = text; p && *p;) {
        if (strncmp(p, needle, n) == 0)
            return p;
        p = strchr(p, '\n');
        if (p)
            p++;
    }
    return NULL;
}

int rtp_probe_config_value(const char *config, const char *name, char *out, size_t size)
{
    char key[128];
    snprintf(key, sizeof key, "%s=", name);
    const char *line = line_starting(config, key);
    if (line) {
        line += strlen(key);
        size_t len = strcspn(line, "\n");
        if (len >= size)
            len = size ? size - 1 : 0;
        if (size) {
            memcpy(out, line, len);
            out[len] = '\0';
        }
        return 1;
    }
    snprintf(key, sizeof key, "# %s is not set", name);
    line = line_starting(config, key);
    if (line && (line[strlen(key)] == '\n' || line[strlen(key)] == '\0')) {
        if (size)
            out[0] = '\0';
        return 0;
    }
    return -1;
}

/* 1 when text holds `word` as a whole whitespace-separated word. */
static int has_word(const char *text, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = text; (p = strstr(p, word)) != NULL; p += n) {
        int start = p == text || isspace((unsigned char)p[-1]);
        int end = p[n] == '\0' || isspace((unsigned char)p[n]);
        if (start && end)
            return 1;
    }
    return 0;
}

rtp_tri rtp_probe_parse_feature(const char *features, const char *name)
{
    char off[96];
    snprintf(off, sizeof off, "NO_%s", name);
    if (has_word(features, name))
        return RTP_TRI_YES;
    if (has_word(features, off))
        return RTP_TRI_NO;
    return RTP_TRI_UNKNOWN;
}

int rtp_probe_parse_choice(const char *text, char *out, size_t size)
{
    for (const char *p = text; *p; p++) {
        char close = *p == '(' ? ')' : *p == '[' ? ']' : 0;
        if (!close)
            continue;
        const char *end = strchr(p + 1, close);
        if (!end || end == p + 1 || (size_t)(end - p - 1) >= size)
            return -1;
        memcpy(out, p + 1, (size_t)(end - p - 1));
        out[end - p - 1] = '\0';
        return 0;
    }
    return -1;
}

int rtp_probe_cmdline_param(const char *cmdline, const char *key, char *out, size_t size)
{
    size_t klen = strlen(key);
    int found = 0;
    for (const char *p = cmdline; *p;) {
        while (isspace((unsigned char)*p))
            p++;
        size_t len = strcspn(p, " \t\n");
        if (len == 0)
            break;
        if (len == 2 && strncmp(p, "--", 2) == 0)
            break; /* the rest belongs to init */
        if (strncmp(p, key, klen) == 0 && (len == klen || p[klen] == '=')) {
            size_t vlen = len > klen ? len - klen - 1 : 0;
            const char *v = p + klen + (len > klen);
            if (vlen >= size)
                vlen = size ? size - 1 : 0;
            if (size) {
                memcpy(out, v, vlen);
                out[vlen] = '\0';
            }
            found = 1; /* the last occurrence wins, as in the kernel */
        }
        p += len;
    }
    return found;
}

int rtp_probe_parse_release(const char *release, int *major, int *minor)
{
    char *end;
    if (!isdigit((unsigned char)release[0]))
        return -1;
    long a = strtol(release, &end, 10);
    if (*end != '.' || !isdigit((unsigned char)end[1]))
        return -1;
    long b = strtol(end + 1, &end, 10);
    if (a > 1000 || b > 1000)
        return -1;
    *major = (int)a;
    *minor = (int)b;
    return 0;
}

int rtp_probe_parse_stat(const char *stat, int cpu, uint64_t *total, uint64_t *steal)
{
    char key[32];
    snprintf(key, sizeof key, "cpu%d ", cpu);
    const char *line = line_starting(stat, key);
    if (!line)
        return -1;
    line += strlen(key);
    /* user nice system idle iowait irq softirq steal [guest guest_nice] */
    uint64_t v[8];
    for (int i = 0; i < 8; i++) {
        char *end;
        while (*line == ' ')
            line++;
        if (!isdigit((unsigned char)*line))
            return -1;
        v[i] = strtoull(line, &end, 10);
        line = end;
    }
    *total = 0;
    for (int i = 0; i < 8; i++)
        *total += v[i];
    *steal = v[7];
    return 0;
}

/* --- file reading --- */

static void join(char *out, const char *root, const char *rel)
{
    snprintf(out, RTP_PROBE_PATH_SIZE, "%s%s", root, rel);
}

char *rtp_probe_read_text(const char *root, const char *rel)
{
    char path[RTP_PROBE_PATH_SIZE];
    join(path, root, rel);
    /* gzread passes uncompressed files through unchanged. */
    gzFile f = gzopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    while (buf) {
        if (len + 1 == cap) {
            char *grown = cap < TEXT_LIMIT ? realloc(buf, cap * 2) : NULL;
            if (!grown) {
                free(buf);
                buf = NULL;
                errno = ENOMEM;
                break;
            }
            buf = grown;
            cap *= 2;
        }
        int n = gzread(f, buf + len, (unsigned)(cap - 1 - len));
        if (n < 0) {
            int saved = errno ? errno : EIO;
            free(buf);
            buf = NULL;
            errno = saved;
            break;
        }
        if (n == 0)
            break;
        len += (size_t)n;
    }
    gzclose(f);
    if (buf)
        buf[len] = '\0';
    return buf;
}

/* The first line of a small file, trailing newline removed; 0 or -1. */
static int read_line(const char *root, const char *rel, char *out, size_t size)
{
    char *text = rtp_probe_read_text(root, rel);
    if (!text)
        return -1;
    size_t len = strcspn(text, "\n");
    if (len >= size)
        len = size - 1;
    memcpy(out, text, len);
    out[len] = '\0';
    free(text);
    return 0;
}

static int read_int(const char *root, const char *rel, rtp_fact *out)
{
    char line[64], *end;
    if (read_line(root, rel, line, sizeof line) != 0)
        return -1;
    errno = 0;
    long long v = strtoll(line, &end, 10);
    if (end == line || *end != '\0' || errno)
        return -1;
    out->known = 1;
    out->value = v;
    return 0;
}

/* --- kernel facts --- */

/* "CONFIG_PREEMPT_NONE" -> "none" etc.: the model the kernel boots with. */
static const char *config_preempt(const char *config, const char **which)
{
    static const struct {
        const char *option, *model;
    } table[] = {
        {"CONFIG_PREEMPT_RT", "rt"},     {"CONFIG_PREEMPT_LAZY", "lazy"},
        {"CONFIG_PREEMPT", "full"},      {"CONFIG_PREEMPT_VOLUNTARY", "voluntary"},
        {"CONFIG_PREEMPT_NONE", "none"},
    };
    char value[16];
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        if (rtp_probe_config_value(config, table[i].option, value, sizeof value) == 1 &&
            strcmp(value, "y") == 0) {
            *which = table[i].option;
            return table[i].model;
        }
    }
    return NULL;
}

static int config_yes(const char *config, const char *name)
{
    char value[16];
    return config && rtp_probe_config_value(config, name, value, sizeof value) == 1 &&
           strcmp(value, "y") == 0;
}

static void read_config_facts(const char *root, rtp_probe_kernel *k, char **config_out,
                              rtp_notes *skipped)
{
    char rel[128], value[32];
    char *config = rtp_probe_read_text(root, "/proc/config.gz");
    const char *source = "/proc/config.gz";
    if (!config && k->release[0]) {
        snprintf(rel, sizeof rel, "/boot/config-%s", k->release);
        config = rtp_probe_read_text(root, rel);
        source = "/boot/config-<release>";
    }
    *config_out = config;
    if (!config) {
        rtp_notes_add(skipped, "kernel configuration: neither /proc/config.gz nor "
                               "/boot/config-%s is readable, so HZ and the build's "
                               "preemption model are unknown",
                      k->release[0] ? k->release : "<release>");
        return;
    }
    if (rtp_probe_config_value(config, "CONFIG_HZ", value, sizeof value) == 1) {
        char *end;
        long long hz = strtoll(value, &end, 10);
        if (end != value && *end == '\0' && hz > 0) {
            k->hz = (rtp_fact){1, hz};
            snprintf(k->hz_source, sizeof k->hz_source, "%s", source);
        }
    }
}

static void read_lockdown(const char *root, const char *config, const char *cmdline,
                          rtp_probe_kernel *k)
{
    char *text = rtp_probe_read_text(root, "/sys/kernel/security/lockdown");
    if (text) {
        rtp_probe_parse_choice(text, k->lockdown, sizeof k->lockdown);
        free(text);
        return;
    }
    char value[32];
    if (cmdline && rtp_probe_cmdline_param(cmdline, "lockdown", value, sizeof value) &&
        (strcmp(value, "integrity") == 0 || strcmp(value, "confidentiality") == 0))
        snprintf(k->lockdown, sizeof k->lockdown, "%s", value);
    else if (config_yes(config, "CONFIG_LOCK_DOWN_KERNEL_FORCE_CONFIDENTIALITY"))
        snprintf(k->lockdown, sizeof k->lockdown, "confidentiality");
    else if (config_yes(config, "CONFIG_LOCK_DOWN_KERNEL_FORCE_INTEGRITY"))
        snprintf(k->lockdown, sizeof k->lockdown, "integrity");
    else if (config && (!config_yes(config, "CONFIG_SECURITY_LOCKDOWN_LSM") ||
                        config_yes(config, "CONFIG_LOCK_DOWN_KERNEL_FORCE_NONE")))
        snprintf(k->lockdown, sizeof k->lockdown, "none"); /* at boot */
}

/* Locked down since boot: debugfs files cannot have been written, so the
 * scheduler's compile-time defaults still hold. */
static int locked_down(const rtp_probe_kernel *k)
{
    return strcmp(k->lockdown, "integrity") == 0 || strcmp(k->lockdown, "confidentiality") == 0;
}

static void read_preempt(const char *root, const char *config, const char *cmdline,
                         rtp_probe_kernel *k, rtp_notes *skipped)
{
    char *text = rtp_probe_read_text(root, "/sys/kernel/debug/sched/preempt");
    if (text) {
        int ok = rtp_probe_parse_choice(text, k->preempt, sizeof k->preempt) == 0;
        free(text);
        if (ok) {
            snprintf(k->preempt_source, sizeof k->preempt_source,
                     "/sys/kernel/debug/sched/preempt");
            return;
        }
    }
    const char *option = NULL, *model = config ? config_preempt(config, &option) : NULL;
    if (!model)
        return;
    char value[16];
    int dynamic = config_yes(config, "CONFIG_PREEMPT_DYNAMIC");
    if (dynamic && cmdline && rtp_probe_cmdline_param(cmdline, "preempt", value, sizeof value) &&
        (strcmp(value, "none") == 0 || strcmp(value, "voluntary") == 0 ||
         strcmp(value, "full") == 0 || strcmp(value, "lazy") == 0)) {
        snprintf(k->preempt, sizeof k->preempt, "%s", value);
        option = "preempt= on the kernel command line";
    } else {
        snprintf(k->preempt, sizeof k->preempt, "%s", model);
    }
    if (!dynamic)
        snprintf(k->preempt_source, sizeof k->preempt_source, "%s", option);
    else if (locked_down(k))
        snprintf(k->preempt_source, sizeof k->preempt_source,
                 "%s (PREEMPT_DYNAMIC; debugfs locked down, so unchanged since boot)", option);
    else {
        snprintf(k->preempt_source, sizeof k->preempt_source,
                 "%s (PREEMPT_DYNAMIC boot choice; debugfs unreadable)", option);
        rtp_notes_add(skipped, "preemption model: /sys/kernel/debug/sched/preempt is not "
                               "readable; reported the boot choice, which root can change "
                               "at run time");
    }
}

static void read_hrtick(const char *root, const char *config, int major, int minor,
                        rtp_probe_kernel *k, rtp_notes *skipped)
{
    char *text = rtp_probe_read_text(root, "/sys/kernel/debug/sched/features");
    if (text) {
        k->hrtick = rtp_probe_parse_feature(text, "HRTICK");
        k->hrtick_dl = rtp_probe_parse_feature(text, "HRTICK_DL");
        free(text);
        snprintf(k->hrtick_source, sizeof k->hrtick_source, "/sys/kernel/debug/sched/features");
        return;
    }
    if (config && !config_yes(config, "CONFIG_SCHED_HRTICK")) {
        k->hrtick = k->hrtick_dl = RTP_TRI_NO;
        snprintf(k->hrtick_source, sizeof k->hrtick_source, "CONFIG_SCHED_HRTICK is not set");
        return;
    }
    /* kernel/sched/features.h: HRTICK is off by default, and HRTICK_DL
     * (split from it in Linux 5.10) too. */
    if (locked_down(k) && (major > 5 || (major == 5 && minor >= 10))) {
        k->hrtick = k->hrtick_dl = RTP_TRI_NO;
        snprintf(k->hrtick_source, sizeof k->hrtick_source,
                 "kernel default (debugfs locked down, so unchanged since boot)");
        return;
    }
    rtp_notes_add(skipped, "HRTICK/HRTICK_DL: /sys/kernel/debug/sched/features is not "
                           "readable (needs root and debugfs)");
}

static void read_fair_server(const char *root, int major, int minor, rtp_probe_kernel *k)
{
    if (major <= 0)
        return;
    k->dl_fair_server = (major > 6 || (major == 6 && minor >= 12)) ? RTP_TRI_YES : RTP_TRI_NO;
    if (k->dl_fair_server != RTP_TRI_YES)
        return;
    rtp_fact runtime = {0, 0}, period = {0, 0};
    if (read_int(root, "/sys/kernel/debug/sched/fair_server/cpu0/runtime", &runtime) == 0 &&
        read_int(root, "/sys/kernel/debug/sched/fair_server/cpu0/period", &period) == 0 &&
        runtime.value >= 0 && period.value > 0) {
        k->fair_runtime_ns = runtime;
        k->fair_period_ns = period;
    } else if (locked_down(k)) {
        /* kernel/sched/deadline.c: 50 ms every 1 s unless debugfs changed it. */
        k->fair_runtime_ns = (rtp_fact){1, 50 * 1000 * 1000};
        k->fair_period_ns = (rtp_fact){1, 1000 * 1000 * 1000};
    }
}

/* rt_runtime/rt_period (1 when throttling is off) minus the fair server's
 * share (its default 50 ms / 1 s when unreadable): what SCHED_DEADLINE
 * admission leaves per CPU. Exact. */
static void dl_bandwidth(rtp_probe_kernel *k)
{
    if (!k->rt_runtime_us.known || !k->rt_period_us.known || k->rt_period_us.value <= 0 ||
        k->dl_fair_server == RTP_TRI_UNKNOWN)
        return;
    __int128 num = k->rt_runtime_us.value, den = k->rt_period_us.value;
    if (num < 0)
        num = den;
    if (k->dl_fair_server == RTP_TRI_YES) {
        __int128 fr = 50, fp = 1000;
        if (k->fair_runtime_ns.known && k->fair_period_ns.known) {
            fr = k->fair_runtime_ns.value;
            fp = k->fair_period_ns.value;
        }
        num = num * fp - fr * den;
        den = den * fp;
    }
    if (num < 0)
        num = 0;
    __int128 g = num, b = den;
    while (b != 0) {
        __int128 r = g % b;
        g = b;
        b = r;
    }
    if (g > 1) {
        num /= g;
        den /= g;
    }
    if (den > INT64_MAX)
        return;
    k->has_dl_bandwidth = 1;
    k->dl_bandwidth = (rtp_ratio){(int64_t)num, (int64_t)den};
}

static const char *hypervisor_from_text(const char *text)
{
    static const struct {
        const char *needle, *name;
    } table[] = {
        {"KVM", "KVM"},         {"QEMU", "QEMU"},           {"VMware", "VMware"},
        {"VirtualBox", "VirtualBox"}, {"Xen", "Xen"},       {"xen", "Xen"},
        {"Microsoft", "Hyper-V"}, {"Amazon EC2", "KVM"},    {"Google", "KVM"},
        {"Firecracker", "KVM"}, {"innotek", "VirtualBox"},  {"Bochs", "QEMU"},
    };
    for (size_t i = 0; text && i < sizeof table / sizeof table[0]; i++)
        if (strstr(text, table[i].needle))
            return table[i].name;
    return NULL;
}

static void read_virtualization(const char *root, int live, rtp_probe_kernel *k)
{
    char line[128];
    const char *name = NULL;
    if (read_line(root, "/sys/hypervisor/type", line, sizeof line) == 0 && line[0])
        name = hypervisor_from_text(line) ? hypervisor_from_text(line) : "unknown";
    if (!name && read_line(root, "/sys/class/dmi/id/sys_vendor", line, sizeof line) == 0)
        name = hypervisor_from_text(line);
    if (!name && read_line(root, "/sys/class/dmi/id/product_name", line, sizeof line) == 0)
        name = hypervisor_from_text(line);
#if defined(__x86_64__) || defined(__i386__)
    unsigned a, b, c, d;
    if (!name && live && __get_cpuid(1, &a, &b, &c, &d) && (c >> 31 & 1)) {
        char vendor[13];
        __cpuid(0x40000000, a, b, c, d);
        memcpy(vendor, &b, 4);
        memcpy(vendor + 4, &c, 4);
        memcpy(vendor + 8, &d, 4);
        vendor[12] = '\0';
        static const char *const known[][2] = {
            {"KVMKVMKVM", "KVM"},       {"Microsoft Hv", "Hyper-V"}, {"VMwareVMware", "VMware"},
            {"XenVMMXenVMM", "Xen"},    {"TCGTCGTCGTCG", "QEMU"},    {"bhyve bhyve", "bhyve"},
            {"ACRNACRNACRN", "ACRN"},   {" lrpepyh  vr", "Parallels"},
        };
        for (size_t i = 0; !name && i < sizeof known / sizeof known[0]; i++)
            if (strstr(vendor, known[i][0]))
                name = known[i][1];
        if (!name) { /* an unknown signature: keep it if it is printable */
            int printable = vendor[0] != '\0';
            for (int i = 0; vendor[i]; i++)
                printable &= vendor[i] >= ' ' && vendor[i] <= '~';
            if (printable)
                snprintf(k->hypervisor, sizeof k->hypervisor, "%s", vendor);
        }
    }
#endif
    char *cpuinfo = rtp_probe_read_text(root, "/proc/cpuinfo");
    int flag = cpuinfo && has_word(cpuinfo, "hypervisor");
    if (name || flag)
        k->virtualized = RTP_TRI_YES;
    else if (cpuinfo)
        k->virtualized = RTP_TRI_NO;
    free(cpuinfo);
    if (name)
        snprintf(k->hypervisor, sizeof k->hypervisor, "%s", name);
}

static void read_isolation(const char *root, const char *cmdline, rtp_probe_kernel *k)
{
    char *text = rtp_probe_read_text(root, "/sys/devices/system/cpu/isolated");
    if (text && rtp_probe_parse_cpulist(text, &k->isolated) == 0)
        k->has_isolated = 1;
    free(text);
    text = rtp_probe_read_text(root, "/sys/devices/system/cpu/nohz_full");
    if (text) {
        /* "(null)" when nohz_full= was not given */
        if (rtp_probe_parse_cpulist(text, &k->nohz_full) == 0 || strstr(text, "(null)"))
            k->has_nohz_full = 1;
        free(text);
    } else if (k->has_isolated) {
        k->has_nohz_full = 1; /* no CONFIG_NO_HZ_FULL: no CPU is tickless */
    }
    static const char *const keys[] = {"isolcpus", "nohz_full", "rcu_nocbs", "irqaffinity",
                                       "threadirqs", "preempt", NULL};
    size_t used = 0;
    char value[128];
    for (size_t i = 0; cmdline && keys[i]; i++) {
        if (!rtp_probe_cmdline_param(cmdline, keys[i], value, sizeof value))
            continue;
        int w = snprintf(k->cmdline_isolation + used, sizeof k->cmdline_isolation - used,
                         "%s%s%s%s", used ? " " : "", keys[i], value[0] ? "=" : "", value);
        if (w < 0 || (size_t)w >= sizeof k->cmdline_isolation - used)
            break;
        used += (size_t)w;
    }
}

static int exists(const char *root, const char *rel)
{
    char path[RTP_PROBE_PATH_SIZE];
    join(path, root, rel);
    FILE *f = fopen(path, "r");
    if (f)
        fclose(f);
    return f != NULL;
}

static void read_cpuset_mode(const char *root, rtp_probe_kernel *k)
{
    if (exists(root, "/sys/fs/cgroup/cpuset/cpuset.cpus"))
        snprintf(k->cpuset, sizeof k->cpuset, "v1");
    else if (exists(root, "/sys/fs/cgroup/cpuset.cpus.effective"))
        snprintf(k->cpuset, sizeof k->cpuset, "v2");
}

void rtp_probe_read_kernel(const char *root, int live, rtp_probe_kernel *k, rtp_notes *skipped)
{
    int major = 0, minor = 0;
    if (read_line(root, "/proc/sys/kernel/osrelease", k->release, sizeof k->release) != 0)
        k->release[0] = '\0';
    if (k->release[0] && rtp_probe_parse_release(k->release, &major, &minor) != 0)
        major = minor = 0;
    char *config = NULL, *cmdline = rtp_probe_read_text(root, "/proc/cmdline");
    read_config_facts(root, k, &config, skipped);
    read_lockdown(root, config, cmdline, k);
    read_preempt(root, config, cmdline, k, skipped);
    read_hrtick(root, config, major, minor, k, skipped);
    read_int(root, "/proc/sys/kernel/sched_rr_timeslice_ms", &k->rr_timeslice_ms);
    read_int(root, "/proc/sys/kernel/sched_rt_runtime_us", &k->rt_runtime_us);
    read_int(root, "/proc/sys/kernel/sched_rt_period_us", &k->rt_period_us);
    read_fair_server(root, major, minor, k);
    dl_bandwidth(k);
    read_virtualization(root, live, k);
    read_isolation(root, cmdline, k);
    read_cpuset_mode(root, k);
    free(config);
    free(cmdline);
}

int rtp_probe_read_online(const char *root, rtp_cpumask *online)
{
    char *text = rtp_probe_read_text(root, "/sys/devices/system/cpu/online");
    int rc = text ? rtp_probe_parse_cpulist(text, online) : -1;
    free(text);
    return rc;
}

void rtp_probe_read_cpu(const char *root, int cpu, rtp_probe_cpu *c)
{
    char rel[128];
    c->cpu = cpu;
    c->steal = -1;
    snprintf(rel, sizeof rel, "/sys/devices/system/cpu/cpu%d/topology/thread_siblings_list", cpu);
    char *text = rtp_probe_read_text(root, rel);
    if (text && rtp_probe_parse_cpulist(text, &c->siblings) == 0) {
        c->has_siblings = 1;
        c->siblings.bits[cpu / 64] &= ~((uint64_t)1 << (cpu % 64));
    }
    free(text);
    snprintf(rel, sizeof rel, "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_governor", cpu);
    if (read_line(root, rel, c->governor, sizeof c->governor) != 0)
        c->governor[0] = '\0';
}
