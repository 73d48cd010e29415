/* tests/test_probe.c — the probe's parsers and fact readers (probe/facts.h),
 * its overheads and warnings (probe/probe.h) and its JSON document
 * (probe/probe_doc.h), on fixture files recorded from kernels
 * (tests/fixtures/probe/) and on machine trees built from them in a
 * temporary folder (the config gzip-compressed as /proc/config.gz is). No
 * measurement runs here: the live probe is tests/cli_probe_real.sh. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "probe/probe_doc.h"
#include "probe/facts.h"
#include "probe/measure.h"
#include "probe/charge.h"
#include "probe/probe.h"
#include "models/taskset.h"
#include "support/testutil.h"

static char *fixture(const char *name)
{
    char rel[128];
    snprintf(rel, sizeof rel, "tests/fixtures/probe/%s", name);
    char *text = rtp_probe_read_text("", tu_source_path(rel));
    assert_non_null(text);
    return text;
}

/* ---- parsers ---- */

static void test_cpulist(void **state)
{
    (void)state;
    rtp_cpumask m;
    char buf[64];
    assert_int_equal(rtp_probe_parse_cpulist("0-3,8\n", &m), 0);
    assert_int_equal(rtp_cpumask_count(&m), 5);
    assert_true(rtp_cpumask_has(&m, 8));
    assert_false(rtp_cpumask_has(&m, 4));
    rtp_cpumask_format(&m, buf, sizeof buf);
    assert_string_equal(buf, "0-3,8");
    assert_int_equal(rtp_probe_parse_cpulist("\n", &m), 0);
    assert_int_equal(rtp_cpumask_count(&m), 0);
    assert_int_equal(rtp_probe_parse_cpulist("4095", &m), 0);
    assert_int_equal(rtp_cpumask_next(&m, -1), 4095);
    assert_int_equal(rtp_cpumask_next(&m, 4095), -1);
    assert_int_equal(rtp_probe_parse_cpulist("0,2-2,64-65", &m), 0);
    rtp_cpumask_format(&m, buf, sizeof buf);
    assert_string_equal(buf, "0,2,64-65");
    const char *bad[] = {"3-1", "a", "0-", "-1", "4096", "1,,2", "1 2", "0-4096", "1;2"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_int_equal(rtp_probe_parse_cpulist(bad[i], &m), -1);
}

static void test_config_lines(void **state)
{
    (void)state;
    char *vm = fixture("config-vm-6.18"), *tuned = fixture("config-tuned-6.6");
    char v[64];
    assert_int_equal(rtp_probe_config_value(vm, "CONFIG_HZ", v, sizeof v), 1);
    assert_string_equal(v, "250");
    assert_int_equal(rtp_probe_config_value(vm, "CONFIG_PREEMPT_NONE", v, sizeof v), 1);
    assert_string_equal(v, "y");
    /* "# CONFIG_PREEMPT is not set" — and CONFIG_PREEMPT_NONE=y must not
     * read as CONFIG_PREEMPT. */
    assert_int_equal(rtp_probe_config_value(vm, "CONFIG_PREEMPT", v, sizeof v), 0);
    assert_int_equal(rtp_probe_config_value(vm, "CONFIG_HZ_1000", v, sizeof v), 0);
    assert_int_equal(rtp_probe_config_value(vm, "CONFIG_NOT_THERE", v, sizeof v), -1);
    assert_int_equal(rtp_probe_config_value(vm, "CONFIG_H", v, sizeof v), -1);
    assert_int_equal(rtp_probe_config_value(tuned, "CONFIG_HZ", v, sizeof v), 1);
    assert_string_equal(v, "1000");
    assert_int_equal(rtp_probe_config_value(tuned, "CONFIG_CC_VERSION_TEXT", v, sizeof v), 1);
    assert_string_equal(v, "\"gcc (Debian 12.2.0-14) 12.2.0\"");
    char small[4];
    assert_int_equal(rtp_probe_config_value(tuned, "CONFIG_HZ", small, sizeof small), 1);
    assert_string_equal(small, "100"); /* truncated, still terminated */
    free(vm);
    free(tuned);
}

static void test_features(void **state)
{
    (void)state;
    char *def = fixture("features-default"), *dl = fixture("features-hrtick-dl");
    assert_int_equal(rtp_probe_parse_feature(def, "HRTICK"), RTP_TRI_NO);
    assert_int_equal(rtp_probe_parse_feature(def, "HRTICK_DL"), RTP_TRI_NO);
    assert_int_equal(rtp_probe_parse_feature(dl, "HRTICK"), RTP_TRI_NO);
    assert_int_equal(rtp_probe_parse_feature(dl, "HRTICK_DL"), RTP_TRI_YES);
    assert_int_equal(rtp_probe_parse_feature(def, "WA_IDLE"), RTP_TRI_YES);
    assert_int_equal(rtp_probe_parse_feature(def, "HZ_BW"), RTP_TRI_UNKNOWN);
    assert_int_equal(rtp_probe_parse_feature(def, "WA"), RTP_TRI_UNKNOWN);
    /* whole words only */
    assert_int_equal(rtp_probe_parse_feature("NO_HRTICK HRTICK_DL", "HRTICK"), RTP_TRI_NO);
    assert_int_equal(rtp_probe_parse_feature("HRTICK_DLX", "HRTICK_DL"), RTP_TRI_UNKNOWN);
    free(def);
    free(dl);
}

static void test_choice_cmdline_release_stat(void **state)
{
    (void)state;
    char v[64];
    char *preempt = fixture("preempt-full");
    assert_int_equal(rtp_probe_parse_choice(preempt, v, sizeof v), 0);
    assert_string_equal(v, "full");
    free(preempt);
    assert_int_equal(rtp_probe_parse_choice("none [integrity] confidentiality\n", v, sizeof v), 0);
    assert_string_equal(v, "integrity");
    assert_int_equal(rtp_probe_parse_choice("none voluntary full", v, sizeof v), -1);
    assert_int_equal(rtp_probe_parse_choice("() x", v, sizeof v), -1);

    char *iso = fixture("cmdline-isolated"), *vm = fixture("cmdline-vm");
    assert_int_equal(rtp_probe_cmdline_param(iso, "isolcpus", v, sizeof v), 1);
    assert_string_equal(v, "managed_irq,domain,2-3");
    assert_int_equal(rtp_probe_cmdline_param(iso, "threadirqs", v, sizeof v), 1);
    assert_string_equal(v, "");
    /* words after " -- " belong to init */
    assert_int_equal(rtp_probe_cmdline_param(iso, "preempt", v, sizeof v), 1);
    assert_string_equal(v, "full");
    assert_int_equal(rtp_probe_cmdline_param(iso, "single", v, sizeof v), 0);
    assert_int_equal(rtp_probe_cmdline_param(iso, "nohz", v, sizeof v), 0);
    assert_int_equal(rtp_probe_cmdline_param(vm, "isolcpus", v, sizeof v), 0);
    assert_int_equal(rtp_probe_cmdline_param(vm, "addr", v, sizeof v), 0);
    free(iso);
    free(vm);

    int major = 0, minor = 0;
    assert_int_equal(rtp_probe_parse_release("6.18.44-fc-v1252", &major, &minor), 0);
    assert_int_equal(major, 6);
    assert_int_equal(minor, 18);
    assert_int_equal(rtp_probe_parse_release("5.10", &major, &minor), 0);
    assert_int_equal(minor, 10);
    assert_int_equal(rtp_probe_parse_release("v6.1", &major, &minor), -1);
    assert_int_equal(rtp_probe_parse_release("6", &major, &minor), -1);

    char *stat = fixture("stat-2cpu");
    uint64_t total = 0, steal = 0;
    assert_int_equal(rtp_probe_parse_stat(stat, 1, &total, &steal), 0);
    assert_int_equal(steal, 206);
    assert_int_equal(total, 46391 + 28 + 17854 + 1456359 + 1081 + 0 + 405 + 206);
    assert_int_equal(rtp_probe_parse_stat(stat, 2, &total, &steal), -1);
    assert_int_equal(rtp_probe_parse_stat("cpu0 1 2 3\n", 0, &total, &steal), -1);
    free(stat);
}

static void test_percentile(void **state)
{
    (void)state;
    int64_t v[100];
    for (int i = 0; i < 100; i++)
        v[i] = 100 - i; /* 100..1, unsorted */
    assert_int_equal(rtp_probe_percentile(v, 100, 99), 99);
    assert_int_equal(rtp_probe_percentile(v, 100, 50), 50);
    assert_int_equal(rtp_probe_percentile(v, 100, 100), 100);
    int64_t one = 7;
    assert_int_equal(rtp_probe_percentile(&one, 1, 99), 7);
    int64_t w[201];
    for (int i = 0; i < 201; i++)
        w[i] = i;
    assert_int_equal(rtp_probe_percentile(w, 201, 99), 198); /* ceil(198.99) = rank 199 */
}

/* ---- recorded machine trees ---- */

static void put(const char *root, const char *rel, const char *text)
{
    char path[512], cmd[600];
    snprintf(path, sizeof path, "%s%s", root, rel);
    char *slash = strrchr(path, '/');
    *slash = '\0';
    snprintf(cmd, sizeof cmd, "mkdir -p '%s'", path);
    assert_int_equal(system(cmd), 0);
    *slash = '/';
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void put_gz(const char *root, const char *rel, const char *text)
{
    char path[512];
    put(root, rel, "");
    snprintf(path, sizeof path, "%s%s", root, rel);
    gzFile g = gzopen(path, "wb");
    assert_non_null(g);
    assert_int_equal(gzputs(g, text), (int)strlen(text));
    gzclose(g);
}

static char *make_root(void)
{
    char *root = strdup("/tmp/rtp_probe_tree.XXXXXX");
    assert_non_null(mkdtemp(root));
    return root;
}

static void remove_root(char *root)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    assert_int_equal(system(cmd), 0);
    free(root);
}

/* This machine as recorded: 6.18 in a VM, HZ=250, PREEMPT_NONE with
 * PREEMPT_DYNAMIC, debugfs locked down (nothing under sys/kernel/debug). */
static char *vm_tree(void)
{
    char *root = make_root(), *config = fixture("config-vm-6.18"), *cmdline = fixture("cmdline-vm");
    put(root, "/proc/sys/kernel/osrelease", "6.18.44-fc-v1252\n");
    put_gz(root, "/proc/config.gz", config);
    put(root, "/proc/cmdline", cmdline);
    put(root, "/proc/loadavg", "2.50 1.00 0.50 3/145 1234\n");
    put(root, "/proc/cpuinfo", "processor\t: 0\nflags\t\t: fpu vme de pse tsc msr hypervisor lahf_lm\n");
    put(root, "/proc/sys/kernel/sched_rt_runtime_us", "950000\n");
    put(root, "/proc/sys/kernel/sched_rt_period_us", "1000000\n");
    put(root, "/proc/sys/kernel/sched_rr_timeslice_ms", "100\n");
    put(root, "/sys/devices/system/cpu/online", "0-1\n");
    put(root, "/sys/devices/system/cpu/isolated", "\n");
    put(root, "/sys/devices/system/cpu/cpu0/topology/thread_siblings_list", "0\n");
    put(root, "/sys/devices/system/cpu/cpu1/topology/thread_siblings_list", "1\n");
    put(root, "/sys/fs/cgroup/cpuset/cpuset.cpus", "0-1\n");
    free(config);
    free(cmdline);
    return root;
}

/* A tuned 6.6 host: HZ=1000, PREEMPT_DYNAMIC switched to full in debugfs,
 * HRTICK_DL on, CPUs 2-3 isolated and tickless, SMT pairs (0,2) (1,3),
 * powersave on CPU 0, RT throttling off, no hypervisor. */
static char *tuned_tree(void)
{
    char *root = make_root(), *config = fixture("config-tuned-6.6");
    char *features = fixture("features-hrtick-dl"), *preempt = fixture("preempt-full");
    char *cmdline = fixture("cmdline-isolated");
    put(root, "/proc/sys/kernel/osrelease", "6.6.0-rt\n");
    put(root, "/boot/config-6.6.0-rt", config); /* no /proc/config.gz */
    put(root, "/proc/cmdline", cmdline);
    put(root, "/proc/cpuinfo", "processor\t: 0\nflags\t\t: fpu vme de pse tsc\n");
    put(root, "/proc/sys/kernel/sched_rt_runtime_us", "-1\n");
    put(root, "/proc/sys/kernel/sched_rt_period_us", "1000000\n");
    put(root, "/sys/kernel/debug/sched/features", features);
    put(root, "/sys/kernel/debug/sched/preempt", preempt);
    put(root, "/sys/devices/system/cpu/online", "0-3\n");
    put(root, "/sys/devices/system/cpu/isolated", "2-3\n");
    put(root, "/sys/devices/system/cpu/nohz_full", "2-3\n");
    const char *sib[] = {"0,2\n", "1,3\n", "0,2\n", "1,3\n"};
    const char *gov[] = {"powersave\n", "performance\n", "performance\n", "performance\n"};
    for (int c = 0; c < 4; c++) {
        char rel[128];
        snprintf(rel, sizeof rel, "/sys/devices/system/cpu/cpu%d/topology/thread_siblings_list", c);
        put(root, rel, sib[c]);
        snprintf(rel, sizeof rel, "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_governor", c);
        put(root, rel, gov[c]);
    }
    put(root, "/sys/fs/cgroup/cpuset.cpus.effective", "0-3\n");
    free(config);
    free(features);
    free(preempt);
    free(cmdline);
    return root;
}

static int has_warning(const rtp_probe_report *r, const char *needle)
{
    for (size_t i = 0; i < r->warnings.n; i++)
        if (strstr(r->warnings.items[i], needle))
            return 1;
    return 0;
}

static void probe_tree(const char *root, const int *cpus, size_t n, rtp_probe_report *r)
{
    rtp_probe_opts o = rtp_probe_opts_default();
    o.root = root;
    o.cpus = cpus;
    o.n_cpus = n;
    rtp_diag diag;
    rtp_diag_clear(&diag);
    assert_int_equal(rtp_probe_run(&o, r, &diag), RTP_OK);
}

/* Linux's rounding of sched_rr_timeslice_ms (kernel/sched/rt.c,
 * sched_rr_handler): msecs_to_jiffies rounds up, <= 0 is RR_TIMESLICE
 * (100 x HZ / 1000 ticks); no exact tick at HZ = 300. */
static void test_rr_quantum(void **state)
{
    (void)state;
    rtp_probe_kernel k;
    memset(&k, 0, sizeof k);
    rtp_ns q = -1, t = -1;
    assert_false(rtp_probe_rr_quantum(&k, &q, &t)); /* unknown */
    k.hz = (rtp_fact){1, 250};
    k.rr_timeslice_ms = (rtp_fact){1, 1};
    assert_true(rtp_probe_rr_quantum(&k, &q, &t));
    assert_int_equal(q, 4000000); /* 1 ms -> 1 tick = 4 ms */
    k.rr_timeslice_ms.value = 9;
    assert_true(rtp_probe_rr_quantum(&k, &q, &t));
    assert_int_equal(q, 12000000); /* ceil(9 x 250 / 1000) = 3 ticks */
    k.rr_timeslice_ms.value = 0;
    assert_true(rtp_probe_rr_quantum(&k, &q, &t));
    assert_int_equal(q, 100000000);
    k.hz.value = 1000;
    k.rr_timeslice_ms.value = -5;
    assert_true(rtp_probe_rr_quantum(&k, &q, &t));
    assert_int_equal(q, 100000000);
    assert_int_equal(t, 1000000);
    k.hz.value = 300;
    q = t = -1;
    assert_false(rtp_probe_rr_quantum(&k, &q, &t));
    assert_int_equal(q, -1);
}

static void test_config_gz(void **state)
{
    (void)state;
    char *root = vm_tree(), *config = fixture("config-vm-6.18");
    char *back = rtp_probe_read_text(root, "/proc/config.gz");
    assert_non_null(back);
    assert_string_equal(back, config); /* inflated, byte for byte */
    free(back);
    free(config);
    assert_null(rtp_probe_read_text(root, "/proc/nothing"));
    remove_root(root);
}

static void test_vm_tree(void **state)
{
    (void)state;
    char *root = vm_tree();
    rtp_probe_report r;
    probe_tree(root, NULL, 0, &r);
    const rtp_probe_kernel *k = &r.kernel;
    assert_string_equal(k->release, "6.18.44-fc-v1252");
    assert_true(k->hz.known);
    assert_int_equal(k->hz.value, 250);
    assert_string_equal(k->hz_source, "/proc/config.gz");
    assert_string_equal(k->preempt, "none");
    assert_string_equal(k->lockdown, "integrity");
    assert_non_null(strstr(k->preempt_source, "locked down"));
    assert_int_equal(k->hrtick_dl, RTP_TRI_NO); /* default, debugfs locked down */
    assert_int_equal(k->dl_fair_server, RTP_TRI_YES);
    assert_true(k->has_dl_bandwidth);
    assert_int_equal(k->dl_bandwidth.num, 9);
    assert_int_equal(k->dl_bandwidth.den, 10);
    assert_int_equal(k->virtualized, RTP_TRI_YES);
    assert_true(k->has_isolated);
    assert_int_equal(rtp_cpumask_count(&k->isolated), 0);
    assert_string_equal(k->cpuset, "v1");
    /* SCHED_RR: 100 ms = 25 ticks of 4 ms at HZ = 250 */
    rtp_ns quantum = 0, tick = 0;
    assert_int_equal(k->rr_timeslice_ms.value, 100);
    assert_true(rtp_probe_rr_quantum(k, &quantum, &tick));
    assert_int_equal(quantum, 100000000);
    assert_int_equal(tick, 4000000);
    char *platform = rtp_probe_platform_to_json(&r);
    assert_non_null(strstr(platform, "\"rr_quantum\":\"100000000ns\",\"tick\":\"4000000ns\""));
    free(platform);
    assert_int_equal(r.n_cpus, 2);
    assert_true(r.has_loadavg);
    assert_false(r.has_overheads); /* nothing measured on a recorded tree */
    assert_true(has_warning(&r, "HZ=250 and HRTICK_DL off: a SCHED_DEADLINE budget is enforced "
                                "only every 4 ms, so a task that overruns its runtime can take "
                                "up to 4 ms from the others"));
    assert_true(has_warning(&r, "preemption model 'none'"));
    assert_true(has_warning(&r, "virtualized"));
    assert_true(has_warning(&r, "DL fair server"));
    assert_true(has_warning(&r, "admission stops at 0.9 per CPU"));
    assert_true(has_warning(&r, "no measured CPU is isolated"));
    assert_true(has_warning(&r, "load average was 2.50 on 2 CPUs"));
    assert_true(has_warning(&r, "no overheads were measured"));
    assert_false(has_warning(&r, "SMT"));
    assert_false(has_warning(&r, "governor"));
    rtp_probe_report_free(&r);
    remove_root(root);
}

static void test_tuned_tree(void **state)
{
    (void)state;
    char *root = tuned_tree();
    rtp_probe_report r;
    int cpus[] = {0, 2, 3};
    probe_tree(root, cpus, 3, &r);
    const rtp_probe_kernel *k = &r.kernel;
    assert_int_equal(k->hz.value, 1000);
    assert_string_equal(k->hz_source, "/boot/config-<release>");
    assert_string_equal(k->preempt, "full"); /* debugfs beats the config's voluntary */
    assert_string_equal(k->preempt_source, "/sys/kernel/debug/sched/preempt");
    assert_int_equal(k->hrtick, RTP_TRI_NO);
    assert_int_equal(k->hrtick_dl, RTP_TRI_YES);
    assert_int_equal(k->dl_fair_server, RTP_TRI_NO); /* 6.6 */
    assert_int_equal(k->dl_bandwidth.num, 1);        /* throttling off: all of it */
    assert_int_equal(k->dl_bandwidth.den, 1);
    assert_int_equal(k->virtualized, RTP_TRI_NO);
    assert_string_equal(k->lockdown, "none");
    assert_true(rtp_cpumask_has(&k->isolated, 2));
    assert_true(rtp_cpumask_has(&k->nohz_full, 3));
    assert_non_null(strstr(k->cmdline_isolation, "isolcpus=managed_irq,domain,2-3"));
    assert_non_null(strstr(k->cmdline_isolation, "threadirqs"));
    assert_string_equal(k->cpuset, "v2");
    assert_int_equal(r.n_cpus, 3);
    assert_int_equal(r.cpus[1].cpu, 2);
    assert_true(rtp_cpumask_has(&r.cpus[0].siblings, 2));
    assert_false(rtp_cpumask_has(&r.cpus[0].siblings, 0));
    assert_string_equal(r.cpus[0].governor, "powersave");
    assert_false(has_warning(&r, "HRTICK_DL"));
    assert_false(has_warning(&r, "preemption model"));
    assert_false(has_warning(&r, "virtualized"));
    assert_false(has_warning(&r, "fair server"));
    assert_false(has_warning(&r, "isolated"));
    assert_true(has_warning(&r, "RT throttling is off"));
    assert_true(has_warning(&r, "CPU 0 runs the cpufreq governor 'powersave'"));
    assert_true(has_warning(&r, "SMT siblings share a core (CPU 0 with 2, 2 with 0, 3 with 1)"));
    rtp_probe_report_free(&r);
    remove_root(root);
}

static void test_bad_cpus(void **state)
{
    (void)state;
    char *root = vm_tree();
    rtp_probe_opts o = rtp_probe_opts_default();
    rtp_probe_report r;
    rtp_diag diag;
    int cpus[] = {0, 5};
    o.root = root;
    o.cpus = cpus;
    o.n_cpus = 2;
    assert_int_equal(rtp_probe_run(&o, &r, &diag), RTP_EINPUT);
    assert_string_equal(diag.message, "--cpus: CPU 5 is not online (online: 0-1)");
    rtp_probe_report_free(&r);
    remove_root(root);
}

/* ---- overheads and the document ---- */

static rtp_probe_latency lat(rtp_ns max, rtp_ns p99)
{
    return (rtp_probe_latency){.measured = 1, .max_ns = max, .p99_ns = p99, .median_ns = p99 / 2,
                               .samples = 1000};
}

static void fake_report(rtp_probe_report *r)
{
    rtp_probe_report_init(r);
    r->n_cpus = 2;
    r->cpus = calloc(2, sizeof *r->cpus);
    assert_non_null(r->cpus);
    r->cpus[0] = (rtp_probe_cpu){.cpu = 2, .steal = -1, .fifo = lat(900, 300),
                                 .deadline = lat(1500, 200)};
    r->cpus[1] = (rtp_probe_cpu){.cpu = 5, .steal = 0.01, .fifo = lat(1200, 400)};
    r->cpus[0].context_switch = (rtp_probe_switch){.measured = 1, .median_ns = 10, .p99_ns = 70,
                                                   .max_ns = 900, .samples = 50};
    r->cpus[1].context_switch = (rtp_probe_switch){.measured = 1, .median_ns = 20, .p99_ns = 60,
                                                   .max_ns = 5000, .samples = 50};
}

static void test_overheads(void **state)
{
    (void)state;
    rtp_probe_report r;
    fake_report(&r);
    rtp_probe_overheads(&r);
    assert_true(r.has_overheads);
    assert_int_equal(r.release_latency_ns, 1500); /* max over CPUs and both policies */
    assert_int_equal(r.context_switch_ns, 70);    /* largest p99 */
    r.latency_stat = RTP_PROBE_STAT_P99;
    rtp_probe_overheads(&r);
    assert_int_equal(r.release_latency_ns, 400);
    assert_true(r.has_release_latency && r.has_context_switch);
    /* Without root only the context switch is measured;
     * the platform member still carries it (and only it). */
    r.cpus[0].fifo.measured = r.cpus[0].deadline.measured = r.cpus[1].fifo.measured = 0;
    rtp_probe_overheads(&r);
    assert_true(r.has_overheads && r.has_context_switch);
    assert_false(r.has_release_latency);
    assert_int_equal(r.context_switch_ns, 70);
    char *platform = rtp_probe_platform_to_json(&r);
    assert_non_null(platform);
    assert_non_null(strstr(platform, "\"context_switch\":\"70ns\""));
    assert_null(strstr(platform, "release_latency"));
    free(platform);
    r.cpus[0].context_switch.measured = r.cpus[1].context_switch.measured = 0;
    rtp_probe_overheads(&r);
    assert_false(r.has_overheads);
    rtp_probe_report_free(&r);
}

static void test_document(void **state)
{
    (void)state;
    rtp_probe_report r;
    fake_report(&r);
    r.seconds_ns = 5000000000;
    r.period_ns = 1000000;
    r.fifo_priority = 90;
    r.kernel.hz = (rtp_fact){1, 250};
    rtp_notes_add(&r.skipped, "SCHED_DEADLINE latency: %s", "a reason");
    rtp_probe_overheads(&r);
    rtp_probe_warn(&r);
    char *text = rtp_probe_report_to_json(&r, 1);
    assert_non_null(text);
    cJSON *doc = cJSON_Parse(text);
    assert_non_null(doc);
    cJSON *kernel = cJSON_GetObjectItemCaseSensitive(doc, "kernel");
    assert_int_equal(cJSON_GetObjectItemCaseSensitive(kernel, "hz")->valuedouble, 250);
    assert_true(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(kernel, "preempt")));
    assert_true(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(kernel, "hrtick_dl")));
    assert_true(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(kernel, "release")));
    cJSON *cpus = cJSON_GetObjectItemCaseSensitive(doc, "cpus");
    assert_int_equal(cJSON_GetArraySize(cpus), 2);
    cJSON *c1 = cJSON_GetArrayItem(cpus, 1);
    assert_int_equal(cJSON_GetObjectItemCaseSensitive(c1, "cpu")->valuedouble, 5);
    assert_true(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(c1, "deadline_latency")));
    cJSON *fifo = cJSON_GetObjectItemCaseSensitive(c1, "fifo_latency");
    assert_int_equal(cJSON_GetObjectItemCaseSensitive(fifo, "max")->valuedouble, 1200);
    assert_int_equal(cJSON_GetObjectItemCaseSensitive(fifo, "p99")->valuedouble, 400);
    assert_int_equal(cJSON_GetObjectItemCaseSensitive(fifo, "samples")->valuedouble, 1000);
    assert_int_equal(cJSON_GetObjectItemCaseSensitive(c1, "context_switch")->valuedouble, 60);
    cJSON *platform = cJSON_GetObjectItemCaseSensitive(doc, "platform");
    cJSON *pcpus = cJSON_GetObjectItemCaseSensitive(platform, "cpus");
    assert_int_equal(cJSON_GetArraySize(pcpus), 2);
    assert_int_equal(cJSON_GetArrayItem(pcpus, 0)->valuedouble, 2);
    cJSON *ov = cJSON_GetObjectItemCaseSensitive(platform, "overheads");
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(ov, "release_latency")->valuestring,
                        "1500ns");
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(ov, "context_switch")->valuestring,
                        "70ns");
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(doc, "skipped")), 1);
    assert_true(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(doc, "warnings")) >= 1);
    cJSON_Delete(doc);
    free(text);
    char *platform_text = rtp_probe_platform_to_json(&r);
    assert_string_equal(platform_text, "{\"cpus\":[2,5],\"overheads\":{\"release_latency\":"
                                       "\"1500ns\",\"context_switch\":\"70ns\"}}\n");
    free(platform_text);
    rtp_probe_report_free(&r);
}

/* The lock overhead (docs/spec.md "Lock overheads"): the largest p99 over
 * CPUs and kinds, written as platform.overheads.lock and per CPU under
 * "locks", read back as written; absent when not measured. */
static void test_lock_overhead(void **state)
{
    (void)state;
    rtp_probe_report r;
    fake_report(&r);
    rtp_probe_overheads(&r);
    assert_int_equal(r.lock_ns, 0);
    char *text = rtp_probe_platform_to_json(&r);
    assert_null(strstr(text, "lock"));
    free(text);
    const rtp_ns p99[2][RTP_PROBE_LOCK_KINDS] = {{2900, 170, 2100}, {2300, 160, 3100}};
    for (int i = 0; i < 2; i++)
        for (int k = 0; k < RTP_PROBE_LOCK_KINDS; k++)
            r.cpus[i].locks[k] = (rtp_probe_lock_cost){.measured = 1, .median_ns = 30,
                                                       .p99_ns = p99[i][k], .max_ns = 90000,
                                                       .samples = 6000};
    rtp_probe_overheads(&r);
    assert_int_equal(r.lock_ns, 3100);
    text = rtp_probe_platform_to_json(&r);
    assert_non_null(strstr(text, "\"lock\":\"3100ns\""));
    free(text);
    text = rtp_probe_report_to_json(&r, 0);
    assert_non_null(strstr(text, "\"locks\":{\"protect\":{\"median\":30,\"p99\":2900,"
                                 "\"max\":90000,\"samples\":6000},\"inherit\""));
    rtp_probe_report back;
    rtp_diag diag = {0};
    assert_int_equal(rtp_probe_report_parse_json(text, strlen(text), &back, &diag), RTP_OK);
    assert_int_equal(back.lock_ns, 3100);
    assert_int_equal(back.cpus[1].locks[2].p99_ns, 3100);
    assert_int_equal(back.cpus[0].locks[1].samples, 6000);
    char *again = rtp_probe_report_to_json(&back, 0);
    assert_string_equal(again, text);
    free(again);
    rtp_probe_report_free(&back);
    free(text);
    rtp_probe_report_free(&r);
}

/* The fit covers every measured length's largest budget excess with
 * fixed + per_ms x L, and the slope carries the shortest job's excess up to
 * the longest job's (budget or wall, whichever is larger). */
static void test_charge_fit(void **state)
{
    (void)state;
    rtp_probe_charge c;
    memset(&c, 0, sizeof c);
    const rtp_ns ex[4] = {20000, 110000, 60000, 400000}, wall[4] = {0, 100000, 50000, 420000};
    for (int k = 0; k < RTP_PROBE_CHARGE_LENGTHS; k++)
        c.len[k] = (rtp_probe_charge_len){.length_ns = rtp_probe_charge_lengths[k],
                                          .samples = 10, .excess_max_ns = ex[k],
                                          .wall_max_ns = wall[k]};
    rtp_probe_charge_fit(&c);
    assert_true(c.measured);
    assert_int_equal(c.per_ms_ns, 40000); /* (420000 - 20000) / 10 ms */
    /* 100 us: 110000 - 4000 = 106000 is the binding length */
    assert_int_equal(c.fixed_ns, 106000);
    for (int k = 0; k < RTP_PROBE_CHARGE_LENGTHS; k++)
        assert_true(c.fixed_ns + c.len[k].length_ns * c.per_ms_ns / 1000000 >= ex[k]);
    /* the longest length unmeasured: the slope comes from the longest measured */
    c.len[3].samples = 0;
    rtp_probe_charge_fit(&c);
    assert_int_equal(c.per_ms_ns, 40000); /* (60000 - 20000) / 1 ms */
    assert_int_equal(c.fixed_ns, 106000);
    /* nothing measured */
    for (int k = 0; k < RTP_PROBE_CHARGE_LENGTHS; k++)
        c.len[k].samples = 0;
    rtp_probe_charge_fit(&c);
    assert_false(c.measured);
    assert_int_equal(c.fixed_ns + c.per_ms_ns, 0);
    /* a slope of a whole ms per ms or more is cut below 1 ms (the reader's rule) */
    c.len[0] = (rtp_probe_charge_len){.length_ns = 0, .samples = 1, .excess_max_ns = 0};
    c.len[1] = (rtp_probe_charge_len){.length_ns = 100000, .samples = 1, .excess_max_ns = 300000};
    rtp_probe_charge_fit(&c);
    assert_int_equal(c.per_ms_ns, 999999);
    assert_true(c.fixed_ns + 100000 * c.per_ms_ns / 1000000 >= 300000);
}

/* The largest fit over CPUs goes into the platform member, which a task set
 * reads back as it is. */
static void test_charge_platform(void **state)
{
    (void)state;
    rtp_probe_report r;
    fake_report(&r);
    r.cpus[0].charge = (rtp_probe_charge){.measured = 1, .fixed_ns = 30000, .per_ms_ns = 9000};
    r.cpus[1].charge = (rtp_probe_charge){.measured = 1, .fixed_ns = 25000, .per_ms_ns = 12000};
    rtp_probe_overheads(&r);
    assert_int_equal(r.deadline_charge_ns, 30000);
    assert_int_equal(r.noise_per_ms_ns, 12000);
    char *platform = rtp_probe_platform_to_json(&r);
    assert_string_equal(platform, "{\"cpus\":[2,5],\"overheads\":{\"release_latency\":"
                                  "\"1500ns\",\"context_switch\":\"70ns\",\"deadline_charge\":"
                                  "\"30000ns\",\"noise_per_ms\":\"12000ns\"}}\n");
    char doc[512];
    snprintf(doc, sizeof doc, "{\"platform\": %s, \"tasks\": []}", platform);
    rtp_taskset ts;
    rtp_diag d;
    assert_int_equal(rtp_taskset_parse_json(doc, strlen(doc), &ts, &d), RTP_OK);
    assert_int_equal(ts.platform.overheads.deadline_charge_ns, 30000);
    assert_int_equal(ts.platform.overheads.noise_per_ms_ns, 12000);
    rtp_taskset_free(&ts);
    free(platform);
    rtp_probe_report_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cpulist),
        cmocka_unit_test(test_config_lines),
        cmocka_unit_test(test_features),
        cmocka_unit_test(test_choice_cmdline_release_stat),
        cmocka_unit_test(test_percentile),
        cmocka_unit_test(test_rr_quantum),
        cmocka_unit_test(test_config_gz),
        cmocka_unit_test(test_vm_tree),
        cmocka_unit_test(test_tuned_tree),
        cmocka_unit_test(test_bad_cpus),
        cmocka_unit_test(test_overheads),
        cmocka_unit_test(test_document),
        cmocka_unit_test(test_lock_overhead),
        cmocka_unit_test(test_charge_fit),
        cmocka_unit_test(test_charge_platform),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
