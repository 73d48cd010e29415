/* tests/test_rehearse.c — rehearse/: the workload's job bookkeeping (slots,
 * skipped releases, misses, percentiles) against hand-worked schedules and
 * a slow reference on random job traces, and the machine snapshot on a
 * recorded cpuset tree, and the report document (docs/spec.md "rtpack
 * rehearse") member by member. The live rehearsal is cli_rehearse_real.sh. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>

#include "support/testutil.h"

#include "rehearse/guard.h"
#include "rehearse/joblog.h"
#include "rehearse/machine.h"
#include "rehearse/rehearse.h"
#include "rehearse/rehearse_doc.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void test_fifo_slots(void **state)
{
    (void)state;
    rtp_ns buf[8];
    rtp_joblog log;
    rtp_joblog_init(&log, 1000, 100, 60, 0, buf, 8);
    rtp_joblog_add(&log, 1000, 1050);   /* job 0: response 50 */
    assert_int_equal(rtp_joblog_next_arrival(&log), 1100);
    rtp_joblog_add(&log, 1100, 1290);   /* job 1: 190, a miss, late */
    rtp_joblog_add(&log, 1290, 1330);   /* job 2 starts at once: 130, a miss */
    rtp_joblog_add(&log, 1330, 1340);   /* job 3 (arrival 1300): 40 */
    assert_int_equal(log.jobs, 4);
    assert_int_equal(log.misses, 2);
    assert_int_equal(log.skipped, 0);
    assert_int_equal(log.response_max_ns, 190);
    assert_int_equal(rtp_joblog_percentile(buf, log.n, 50), 50);
    assert_int_equal(rtp_joblog_percentile(buf, log.n, 99), 190);
}

static void test_deadline_slots(void **state)
{
    (void)state;
    rtp_ns buf[2];
    rtp_joblog log;
    rtp_joblog_init(&log, 0, 100, 80, 1, buf, 2);
    rtp_joblog_add(&log, 0, 30);
    rtp_joblog_add(&log, 95, 130);   /* started early in slot 0's time: slot 1, 30 */
    rtp_joblog_add(&log, 420, 450);  /* slots 2 and 3 skipped: 2 misses; slot 4: 50 */
    rtp_joblog_add(&log, 500, 590);  /* 90 > 80: a miss (only 2 recorded) */
    assert_int_equal(log.jobs, 4);
    assert_int_equal(log.skipped, 2);
    assert_int_equal(log.misses, 3);
    assert_int_equal(log.response_max_ns, 90);
    assert_int_equal(log.n, 2);
    assert_int_equal(rtp_joblog_percentile(buf, 0, 99), -1);
}

/* Random traces: counts equal a direct recount of slots and responses,
 * over all slots or over a random window of them. */
static void test_random_traces(void **state)
{
    (void)state;
    tu_rng rng = {4242};
    for (int iter = 0; iter < 3000; iter++) {
        rtp_ns period = tu_range(&rng, 10, 1000), deadline = tu_range(&rng, 1, 2 * period);
        int by_start = (int)tu_range(&rng, 0, 1);
        size_t jobs = (size_t)tu_range(&rng, 1, 40);
        rtp_ns *buf = calloc(jobs, sizeof *buf), t = tu_range(&rng, 0, 1000), origin = t;
        rtp_joblog log;
        rtp_joblog_init(&log, origin, period, deadline, by_start, buf, jobs);
        int64_t from = 0, until = INT64_MAX;
        if (iter % 2) {
            from = tu_range(&rng, 0, 30);
            until = from + tu_range(&rng, 0, 60);
            log.count_from = from, log.count_until = until;
        }
        int64_t slot = 0;
        uint64_t misses = 0, skipped = 0, counted_jobs = 0;
        rtp_ns worst = 0;
        for (size_t k = 0; k < jobs; k++) {
            rtp_ns start = k == 0 ? origin : t + tu_range(&rng, 0, 3 * period);
            rtp_ns end = start + tu_range(&rng, 0, 2 * period);
            /* reference: the slot is the next one, or (by_start) the one the
             * start falls in when that is later */
            int64_t s = slot;
            for (int64_t c = slot + 1; by_start && origin + c * period <= start; c++)
                s = c;
            for (int64_t c = slot; c < s; c++)
                if (c >= from && c < until)
                    skipped++, misses++;
            rtp_ns response = end - (origin + s * period);
            if (s >= from && s < until) {
                misses += response > deadline;
                worst = response > worst ? response : worst;
                counted_jobs++;
            }
            slot = s + 1;
            rtp_joblog_add(&log, start, end);
            t = end;
        }
        assert_int_equal(log.misses, misses);
        assert_int_equal(log.skipped, skipped);
        assert_int_equal(log.response_max_ns, worst);
        assert_int_equal(log.jobs, counted_jobs);
        assert_true(log.n <= counted_jobs);
        free(buf);
    }
}

/* The report: members in the contract's order, times as integer ns, null
 * for a task without jobs or without a bound, exact decimals for load and
 * margin, "left" only when the machine is not restored. */
static void test_report_json(void **state)
{
    (void)state;
    rtp_rehearse_task tasks[2] = {
        {.name = "a", .cpu = 0, .jobs = 300, .misses = 2, .response_max_ns = 1500000,
         .response_p99_ns = 900000, .bound_ns = 1000000},
        {.name = "b\"q", .cpu = 3, .jobs = 0, .misses = 0, .response_max_ns = -1,
         .response_p99_ns = -1, .bound_ns = -1},
    };
    rtp_rehearse_report r;
    memset(&r, 0, sizeof r);
    r.seconds = 3;
    r.load = (rtp_ratio){9, 10};
    r.runtime_margin = (rtp_ratio){1, 10};
    r.tasks = tasks;
    r.n_tasks = 2;
    r.machine_restored = 1;
    r.hog = 1;
    r.arrival_grid = "kernel";
    char *doc = rtp_rehearse_report_to_json(&r, 0);
    assert_non_null(doc);
    assert_string_equal(doc,
        "{\"seconds\":3,\"load\":0.9,\"runtime_margin\":0.1,\"hog\":true,"
        "\"arrival_grid\":\"kernel\",\"tasks\":["
        "{\"name\":\"a\",\"cpu\":0,\"jobs\":300,\"misses\":2,\"response_max\":1500000,"
        "\"response_p99\":900000,\"bound\":1000000,\"over_bound\":true},"
        "{\"name\":\"b\\\"q\",\"cpu\":3,\"jobs\":0,\"misses\":0,\"response_max\":null,"
        "\"response_p99\":null,\"bound\":null,\"over_bound\":false}],"
        "\"machine_restored\":true}\n");
    /* over the bound: only when a bound exists and the largest response passed it */
    assert_true(rtp_rehearse_over_bound(&tasks[0]));
    assert_false(rtp_rehearse_over_bound(&tasks[1]));
    tasks[0].response_max_ns = 1000000;
    assert_false(rtp_rehearse_over_bound(&tasks[0]));
    tasks[0].response_max_ns = 1500000;
    free(doc);
    /* the hypervisor's steal per CPU: written after the tasks, read back */
    rtp_rehearse_steal steal[2] = {{0, 40000000}, {3, 3010000000}};
    r.steal = steal;
    r.n_steal = 2;
    doc = rtp_rehearse_report_to_json(&r, 0);
    assert_non_null(doc);
    assert_non_null(strstr(doc, "\"over_bound\":false}],\"hypervisor_steal\":[{\"cpu\":0,"
                                "\"time\":40000000},{\"cpu\":3,\"time\":3010000000}],"
                                "\"machine_restored\":true}"));
    int cpu;
    assert_int_equal(rtp_rehearse_steal_ppm(&r, &cpu), 1003333); /* 3.01 s of 3 s: ticks */
    assert_int_equal(cpu, 3);
    rtp_rehearse_report back;
    rtp_diag diag;
    assert_int_equal(rtp_rehearse_report_parse_json(doc, strlen(doc), &back, &diag), RTP_OK);
    assert_int_equal(back.n_steal, 2);
    assert_int_equal(back.steal[1].cpu, 3);
    assert_int_equal(back.steal[1].time_ns, 3010000000);
    rtp_rehearse_report_free(&back);
    free(doc);
    static const struct {
        const char *steal, *path;
    } bad[] = {
        {"[{\"cpu\":3,\"time\":1},{\"cpu\":0,\"time\":1}]", "hypervisor_steal[1]"},
        {"[{\"cpu\":0,\"time\":4000000001}]", "hypervisor_steal[0].time"},
        {"[{\"cpu\":0}]", "hypervisor_steal[0].time"},
        {"{}", "hypervisor_steal"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        char text[512];
        snprintf(text, sizeof text, "{\"seconds\":3,\"load\":1,\"runtime_margin\":0,"
                 "\"hog\":false,\"arrival_grid\":\"release\",\"tasks\":[],"
                 "\"hypervisor_steal\":%s,\"machine_restored\":true}", bad[k].steal);
        assert_int_equal(rtp_rehearse_report_parse_json(text, strlen(text), &back, &diag),
                         RTP_EINPUT);
        assert_string_equal(diag.path, bad[k].path);
    }
    r.steal = NULL;
    r.n_steal = 0;
    r.machine_restored = 0;
    snprintf(r.left, sizeof r.left, "cpuset rtpack-x-0 still there");
    r.n_tasks = 0;
    doc = rtp_rehearse_report_to_json(&r, 0);
    assert_non_null(doc);
    assert_non_null(strstr(doc, "\"tasks\":[],\"machine_restored\":false,"
                                "\"left\":\"cpuset rtpack-x-0 still there\"}"));
    free(doc);
}

static void mk(const char *path, const char *file, const char *text)
{
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "mkdir -p '%s' && printf '%s' > '%s/%s'", path, text, path, file);
    assert_int_equal(system(cmd), 0);
}

static void test_snapshot_and_diff(void **state)
{
    (void)state;
    char dir[] = "/tmp/rtp_machine_XXXXXX", cg[200], proc[200], path[300];
    assert_non_null(mkdtemp(dir));
    snprintf(cg, sizeof cg, "%s/cg", dir);
    snprintf(proc, sizeof proc, "%s/proc", dir);
    snprintf(path, sizeof path, "%s/cpuset", cg);
    mk(path, "cpuset.sched_load_balance", "1\\n");
    mk(proc, "x", "");
    char *before = NULL, *after = NULL, diff[400];
    rtp_diag diag;
    assert_int_equal(rtp_machine_snapshot(cg, proc, &before, &diag), RTP_OK);
    assert_string_equal(before, "");
    snprintf(path, sizeof path, "%s/cpuset/rtpack-x-0", cg);
    mk(path, "cpuset.sched_load_balance", "0\\n");
    assert_int_equal(rtp_machine_snapshot(cg, proc, &after, &diag), RTP_OK);
    assert_string_equal(after, "cpuset rtpack-x-0 0\n");
    rtp_machine_diff(before, after, diff, sizeof diff);
    assert_string_equal(diff, "cpuset rtpack-x-0 0: new since before the rehearsal (left behind)");
    rtp_machine_diff(after, before, diff, sizeof diff);
    assert_string_equal(diff, "cpuset rtpack-x-0 0: gone since before the rehearsal");
    rtp_machine_diff(after, after, diff, sizeof diff);
    assert_string_equal(diff, "");
    free(before);
    free(after);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

/* The verdict and advice (rehearse once printed numbers and exit 1,
 * no verdict, no advice), on the numbers and around them. */
static void test_verdict(void **state)
{
    (void)state;
    rtp_rehearse_task tasks[3] = {
        {.name = "ctrl_left", .jobs = 3458, .misses = 2990, .response_max_ns = 9000000,
         .response_p99_ns = 8000000, .bound_ns = 1000000},
        {.name = "monitor", .jobs = 1191, .misses = 2500, .response_max_ns = 3000000,
         .response_p99_ns = 2000000, .bound_ns = 500000},
        {.name = "log", .jobs = 100, .misses = 0, .response_max_ns = 500000,
         .response_p99_ns = 400000, .bound_ns = 100000000},
    };
    rtp_rehearse_report r;
    memset(&r, 0, sizeof r);
    r.seconds = 10;
    r.tasks = tasks;
    r.n_tasks = 3;
    r.machine_restored = 1;
    r.deadline_policy = 1;
    char v[1024], a[1024];
    rtp_rehearse_verdict(&r, v, sizeof v, a, sizeof a);
    assert_string_equal(v, "FAIL: 2 of 3 tasks missed deadlines (5490 misses in 4749 jobs); "
                           "worst monitor: 2500 misses but only 1191 jobs ran: it skipped "
                           "releases; 2 tasks responded later than the analysed bound");
    assert_non_null(strstr(a, "--runtime-margin 0.2"));
    r.runtime_margin = (rtp_ratio){2, 10}; /* the margin was given: measure the machine */
    rtp_rehearse_verdict(&r, v, sizeof v, a, sizeof a);
    assert_non_null(strstr(a, "rtpack probe"));
    assert_null(strstr(a, "--runtime-margin 0.2"));
    /* rare misses under FP: latency spikes */
    r.deadline_policy = 0;
    tasks[0].misses = 3;
    tasks[1].misses = 0;
    tasks[1].response_max_ns = 400000;
    rtp_rehearse_verdict(&r, v, sizeof v, a, sizeof a);
    assert_string_equal(v, "FAIL: 1 of 3 tasks missed deadlines (3 misses in 4749 jobs); worst "
                           "ctrl_left: 3 of 3458 jobs (0%); 1 task responded later than the "
                           "analysed bound");
    assert_non_null(strstr(a, "rare misses come from the machine's latency spikes"));
    /* the same misses while the host stole 5 % of a CPU: the host, not the plan */
    rtp_rehearse_steal steal[2] = {{0, 40000000}, {1, 499990000}};
    r.steal = steal;
    r.n_steal = 2;
    rtp_rehearse_verdict(&r, v, sizeof v, a, sizeof a);
    assert_non_null(strstr(a, "rare misses")); /* 4.9999 %: below the line */
    steal[1].time_ns = 500000000;
    rtp_rehearse_verdict(&r, v, sizeof v, a, sizeof a);
    assert_string_equal(a, "the hypervisor took 5.0% of CPU 1 during the run (its steal time): "
                           "stalls no probe bounds and no plan absorbs, so these misses say "
                           "nothing about the plan; rehearse again when the host is quiet (a "
                           "steal well under 1%), and deploy on CPUs the host does not "
                           "overcommit");
    r.steal = NULL;
    r.n_steal = 0;
    /* no miss: PASS with the tightest bound used */
    tasks[0].misses = 0;
    tasks[0].response_max_ns = 950000;
    rtp_rehearse_verdict(&r, v, sizeof v, a, sizeof a);
    assert_string_equal(v, "PASS: no miss in 4749 jobs over 10 s; the largest response used "
                           "95% of its bound (ctrl_left)");
    assert_non_null(strstr(a, "little headroom"));
    r.machine_restored = 0;
    snprintf(r.left, sizeof r.left, "cpuset rtpack-x-0 still there");
    rtp_rehearse_verdict(&r, v, sizeof v, a, sizeof a);
    assert_string_equal(v, "the machine is not as it was: cpuset rtpack-x-0 still there");
    char small[16];
    rtp_rehearse_verdict(&r, small, sizeof small, a, sizeof a);
    assert_int_equal(strlen(small), sizeof small - 1); /* cut, terminated */
}

/* A fake rehearsal under state_dir: STATE (rehearse_NAME/state naming
 * DIR/rehearse.sh), DIR/owner with the given processes, and a script that
 * records its call in DIR/../calls and exits `rc` (removing the state, as
 * stop does, when rc is 0). `script` 0 leaves the script out. */
static void fake_rehearsal(const char *root, const char *name, const char *owner, int script,
                           int rc)
{
    char path[600], dir[512];
    snprintf(dir, sizeof dir, "%s/scratch-%s", root, name);
    assert_int_equal(mkdir(dir, 0700), 0);
    snprintf(path, sizeof path, "%s/state/%s", root, name);
    assert_int_equal(mkdir(path, 0700), 0);
    snprintf(path, sizeof path, "%s/state/%s/state", root, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "version 1\nstarter 1\nscript %s/rehearse.sh\n", dir);
    fclose(f);
    snprintf(path, sizeof path, "%s/owner", dir);
    assert_non_null(f = fopen(path, "w"));
    fputs(owner, f);
    fclose(f);
    if (!script)
        return;
    snprintf(path, sizeof path, "%s/rehearse.sh", dir);
    assert_non_null(f = fopen(path, "w"));
    fprintf(f, "echo \"%s $1 $RTPACK_STATE_DIR\" >> %s/calls\n", name, root);
    if (rc == 0)
        fprintf(f, "rm -r \"$RTPACK_STATE_DIR/%s\"\n", name);
    fprintf(f, "exit %d\n", rc);
    fclose(f);
}

/* The next rehearsal stops the leftovers of earlier ones whose rtpack and
 * watchdog are gone, with their own script's stop, and says so; leaves one
 * whose rtpack runs alone; names a leftover it cannot stop and the command
 * (the live kill -9 is cli_rehearse_orphan_real.sh). */
static void test_leftovers(void **state)
{
    (void)state;
    char root[] = "/tmp/rtp_leftovers_XXXXXX", path[600], note[600], owner[200];
    assert_non_null(mkdtemp(root));
    snprintf(path, sizeof path, "%s/state", root);
    assert_int_equal(mkdir(path, 0700), 0);
    /* PIDs above the kernel's limit (4194304) never run */
    fake_rehearsal(root, "rehearse_999999991",
                   "rtpack 999999991 5 watchdog 999999992 6\n", 1, 0);
    FILE *f = fopen("/proc/self/stat", "r");
    assert_non_null(f);
    char stat[1024];
    size_t got = fread(stat, 1, sizeof stat - 1, f);
    fclose(f);
    stat[got] = '\0';
    long long me;
    assert_int_equal(sscanf(strrchr(stat, ')') + 1, " %*c %*s %*s %*s %*s %*s %*s %*s %*s %*s "
                            "%*s %*s %*s %*s %*s %*s %*s %*s %*s %lld", &me), 1);
    snprintf(owner, sizeof owner, "rtpack %ld %lld watchdog 999999993 1\n", (long)getpid(), me);
    fake_rehearsal(root, "rehearse_1", owner, 1, 0); /* in progress: this process */
    rtp_diag diag;
    rtp_diag_clear(&diag);
    snprintf(path, sizeof path, "%s/state", root);
    assert_int_equal(rtp_rehearse_leftovers(path, note, sizeof note, &diag), RTP_OK);
    assert_non_null(strstr(note, "stopped the leftover of rehearsal rehearse_999999991 (its "
                                 "rtpack, pid 999999991, and its watchdog were killed)"));
    assert_null(strstr(note, "rehearse_1 "));
    snprintf(path, sizeof path, "%s/calls", root);
    assert_non_null(f = fopen(path, "r"));
    char line[600];
    assert_non_null(fgets(line, sizeof line, f));
    fclose(f);
    snprintf(path, sizeof path, "rehearse_999999991 stop %s/state\n", root);
    assert_string_equal(line, path);
    snprintf(path, sizeof path, "%s/scratch-rehearse_999999991", root);
    assert_int_not_equal(access(path, F_OK), 0); /* its folder went with it */
    snprintf(path, sizeof path, "%s/state/rehearse_1/state", root);
    assert_int_equal(access(path, F_OK), 0); /* left alone */
    /* a stop that fails, a script that is gone: named, with the command */
    fake_rehearsal(root, "rehearse_999999994", "rtpack 999999994 1 watchdog 999999995 1\n", 1,
                   1);
    snprintf(path, sizeof path, "%s/state", root);
    assert_int_equal(rtp_rehearse_leftovers(path, note, sizeof note, &diag), RTP_EINTERNAL);
    assert_non_null(strstr(diag.message, "the leftover of rehearsal rehearse_999999994 "
                                         "(rtpack pid 999999994 is gone) did not stop (exit 1"));
    assert_non_null(strstr(diag.message, "sh "));
    snprintf(path, sizeof path, "rm -r %s/state/rehearse_999999994", root);
    assert_int_equal(system(path), 0);
    fake_rehearsal(root, "rehearse_999999996", "rtpack 999999996 1 watchdog 999999997 1\n", 0,
                   0);
    snprintf(path, sizeof path, "%s/state", root);
    assert_int_equal(rtp_rehearse_leftovers(path, note, sizeof note, &diag), RTP_EINTERNAL);
    assert_non_null(strstr(diag.message, "cannot be stopped: its script"));
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    assert_int_equal(system(cmd), 0);
}

/* rtp_rehearse_bounds holds an FP CPU's jobs to the bounds the re-check
 * proves, not to the plan's response_time members (review rev13c: a plan
 * edited to say logger responds within 5 ns, or within 1 s, was rehearsed
 * against those numbers): the members edited, the bounds are the exact
 * test's, 6.75 / 0.25 / 26.75 ms (examples/plan_fp.json's first CPU). */
static void test_bounds_reanalysed(void **state)
{
    (void)state;
    const char *text =
        "{\"feasible\":true,\"method\":\"ffd\",\"policy\":\"fp\",\"platform\":{\"cpus\":[0]},"
        "\"cpus\":[{\"cpu\":0,\"tasks\":["
        "{\"name\":\"video\",\"wcet\":5000000,\"deadline\":10000000,\"period\":16666666,"
        "\"cmd\":\"v\",\"priority\":2,\"response_time\":999999999},"
        "{\"name\":\"control\",\"wcet\":250000,\"deadline\":1000000,\"period\":1000000,"
        "\"cmd\":\"c\",\"priority\":3,\"response_time\":250000},"
        "{\"name\":\"logger\",\"wcet\":10000000,\"deadline\":100000000,\"period\":100000000,"
        "\"cmd\":\"l\",\"priority\":1,\"response_time\":5}]}],\"unassigned\":[]}";
    rtp_plan plan;
    rtp_diag diag;
    rtp_status st = rtp_plan_parse_json(text, strlen(text), &plan, &diag);
    if (st != RTP_OK)
        fail_msg("%s: %s", diag.path, diag.message);
    rtp_limits lim = rtp_limits_default();
    rtp_ns b[3];
    assert_int_equal(rtp_rehearse_bounds(&plan, &lim, b, &diag), RTP_OK);
    assert_int_equal(b[0], 6750000);
    assert_int_equal(b[1], 250000);
    assert_int_equal(b[2], 26750000);
    rtp_plan_free(&plan);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fifo_slots),
        cmocka_unit_test(test_deadline_slots),
        cmocka_unit_test(test_random_traces),
        cmocka_unit_test(test_snapshot_and_diff),
        cmocka_unit_test(test_report_json),
        cmocka_unit_test(test_leftovers),
        cmocka_unit_test(test_verdict),
        cmocka_unit_test(test_bounds_reanalysed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
