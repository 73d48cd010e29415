/* tests/test_report.c — `rtpack report` below the CLI (report/report.h,
 * probe/probe_doc_read.c, rehearse/rehearse_doc_read.c): the probe and rehearse documents read back exactly
 * as written (recorded fixtures and every field filled by hand), refused
 * with the path of the first wrong member (every truncation of a recorded
 * document included), what "belongs to the plan" means, and the page
 * itself: names escaped, the same bytes every time, the Gantt window's
 * rules, limits stated on the page instead of guessed. The page's numbers
 * against the CLI's JSON and the browser checks are tests/cli_report*.sh. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/fileio.h"
#include "models/plan.h"
#include "probe/probe_doc.h"
#include "rehearse/rehearse_doc.h"
#include "report/report.h"
#include "support/testutil.h"

#define FIXTURES "tests/fixtures/report/"

static char *slurp(const char *relative, size_t *len)
{
    char *text = NULL;
    rtp_diag diag;
    rtp_diag_clear(&diag);
    assert_int_equal(rtp_read_file(tu_source_path(relative), &text, len, &diag), RTP_OK);
    return text;
}

static void load_plan(const char *relative, rtp_plan *plan)
{
    size_t len;
    char *text = slurp(relative, &len);
    rtp_diag diag;
    rtp_diag_clear(&diag);
    assert_int_equal(rtp_plan_parse_json(text, len, plan, &diag), RTP_OK);
    free(text);
}

/* ---- the documents read back ---- */

static void recorded_documents_read_back_byte_for_byte(void **state)
{
    (void)state;
    size_t len;
    rtp_diag diag;
    rtp_diag_clear(&diag);
    char *text = slurp(FIXTURES "app12.probe.json", &len);
    rtp_probe_report p;
    assert_int_equal(rtp_probe_report_parse_json(text, len, &p, &diag), RTP_OK);
    char *again = rtp_probe_report_to_json(&p, 1);
    assert_non_null(again);
    assert_string_equal(again, text);
    free(again);
    free(text);
    rtp_probe_report_free(&p);

    text = slurp(FIXTURES "app12_fp.rehearsal.json", &len);
    rtp_rehearse_report r;
    assert_int_equal(rtp_rehearse_report_parse_json(text, len, &r, &diag), RTP_OK);
    assert_int_equal(r.n_tasks, 12);
    again = rtp_rehearse_report_to_json(&r, 1);
    assert_non_null(again);
    assert_string_equal(again, text);
    free(again);
    free(text);
    rtp_rehearse_report_free(&r);
}

/* Every field a writer can write, filled by hand, then unknowns (null). */
static void every_field_reads_back(void **state)
{
    (void)state;
    rtp_probe_report p;
    rtp_probe_report_init(&p);
    rtp_probe_kernel *k = &p.kernel;
    snprintf(k->release, sizeof k->release, "6.18.1-test");
    k->hz = (rtp_fact){1, 1000};
    snprintf(k->hz_source, sizeof k->hz_source, "/boot/config-6.18.1");
    snprintf(k->preempt, sizeof k->preempt, "full");
    snprintf(k->preempt_source, sizeof k->preempt_source, "debugfs");
    k->hrtick = RTP_TRI_YES;
    k->hrtick_dl = RTP_TRI_NO;
    snprintf(k->lockdown, sizeof k->lockdown, "none");
    k->rt_runtime_us = (rtp_fact){1, -1};
    k->rt_period_us = (rtp_fact){1, 1000000};
    k->dl_fair_server = RTP_TRI_YES;
    k->fair_runtime_ns = (rtp_fact){1, 50000000};
    k->fair_period_ns = (rtp_fact){1, 1000000000};
    k->has_dl_bandwidth = 1;
    k->dl_bandwidth = (rtp_ratio){17, 20};
    k->virtualized = RTP_TRI_NO;
    k->has_isolated = 1;
    rtp_cpumask_set(&k->isolated, 3);
    k->has_nohz_full = 1;
    snprintf(k->cmdline_isolation, sizeof k->cmdline_isolation, "isolcpus=3");
    snprintf(k->cpuset, sizeof k->cpuset, "v2");
    p.has_loadavg = 1;
    p.loadavg[0] = 0.25;
    p.loadavg[1] = 1.5;
    p.loadavg[2] = 12;
    p.online_cpus = 4;
    p.seconds_ns = 7000000000;
    p.period_ns = 500000;
    p.fifo_priority = 90;
    p.dl_runtime_ns = 100000;
    p.dl_pinning = "root_domain";
    p.switch_policy = "other";
    p.latency_stat = RTP_PROBE_STAT_P99;
    rtp_probe_cpu cpus[2];
    memset(cpus, 0, sizeof cpus);
    cpus[0].cpu = 3;
    cpus[0].has_siblings = 1;
    rtp_cpumask_set(&cpus[0].siblings, 7);
    snprintf(cpus[0].governor, sizeof cpus[0].governor, "performance");
    cpus[0].steal = 0.125;
    cpus[0].fifo = (rtp_probe_latency){1, 9000, 800, 40, 1000, 2};
    cpus[0].deadline = (rtp_probe_latency){1, 9100, 810, 41, 999, 0};
    cpus[0].context_switch = (rtp_probe_switch){1, 1400, 3900, 50000, 200, 51000};
    cpus[0].charge.measured = 1;
    for (int l = 0; l < RTP_PROBE_CHARGE_LENGTHS; l++)
        cpus[0].charge.len[l] = (rtp_probe_charge_len){l * 1000, 10u + (uint64_t)l, 100, 200,
                                                       300, 400, 500, (uint64_t)l};
    cpus[0].charge.fixed_ns = 212311;
    cpus[0].charge.per_ms_ns = 30705;
    cpus[1].cpu = 5;
    cpus[1].steal = -1;
    p.cpus = cpus;
    p.n_cpus = 2;
    p.has_overheads = p.has_release_latency = p.has_context_switch = 1;
    p.release_latency_ns = 9100;
    p.context_switch_ns = 3900;
    p.deadline_charge_ns = 212311;
    p.noise_per_ms_ns = 30705;
    rtp_notes_add(&p.skipped, "nothing \"quoted\" skipped");
    rtp_notes_add(&p.warnings, "one");
    rtp_notes_add(&p.warnings, "two, with 3 numbers: 4.5 ms");
    char *text = rtp_probe_report_to_json(&p, 0);
    assert_non_null(text);
    rtp_probe_report q;
    rtp_diag diag;
    rtp_diag_clear(&diag);
    assert_int_equal(rtp_probe_report_parse_json(text, strlen(text), &q, &diag), RTP_OK);
    char *again = rtp_probe_report_to_json(&q, 0);
    assert_string_equal(again, text);
    assert_int_equal(q.cpus[0].charge.len[2].throttled, 2);
    assert_int_equal(q.kernel.dl_bandwidth.num, 17);
    assert_int_equal(q.kernel.rt_runtime_us.value, -1);
    free(again);
    free(text);
    rtp_probe_report_free(&q);
    /* Everything unknown: nulls throughout. */
    p.cpus = NULL;
    p.n_cpus = 0;
    rtp_probe_report_free(&p);
    text = rtp_probe_report_to_json(&p, 1);
    assert_int_equal(rtp_probe_report_parse_json(text, strlen(text), &q, &diag), RTP_OK);
    again = rtp_probe_report_to_json(&q, 1);
    assert_string_equal(again, text);
    free(again);
    free(text);
    rtp_probe_report_free(&q);

    rtp_rehearse_task tasks[2] = {{"a", 0, 10, 1, 900, 800, 1000, 0, 7},
                                  {"b \"q\"", 1, 0, 0, -1, -1, -1, 0, 0}};
    rtp_rehearse_report r = {.seconds = 3, .load = {9, 10}, .runtime_margin = {1, 4}, .hog = 1,
                             .reclaim = 1, .overrun_signal = 1, .arrival_grid = "first_job",
                             .tasks = tasks, .n_tasks = 2, .machine_restored = 0};
    snprintf(r.left, sizeof r.left, "cpuset rtpack-x");
    text = rtp_rehearse_report_to_json(&r, 1);
    rtp_rehearse_report s;
    assert_int_equal(rtp_rehearse_report_parse_json(text, strlen(text), &s, &diag), RTP_OK);
    again = rtp_rehearse_report_to_json(&s, 1);
    assert_string_equal(again, text);
    assert_int_equal(s.runtime_margin.den, 4);
    assert_int_equal(s.tasks[0].overruns, 7);
    assert_int_equal(s.reclaim, 1);
    assert_string_equal(s.left, "cpuset rtpack-x");
    free(again);
    free(text);
    rtp_rehearse_report_free(&s);
}

/* text with the first `from` replaced by `to` (malloc'd). */
static char *edit(const char *text, const char *from, const char *to)
{
    const char *at = strstr(text, from);
    assert_non_null(at);
    size_t head = (size_t)(at - text), n = strlen(text) - strlen(from) + strlen(to);
    char *out = malloc(n + 1);
    memcpy(out, text, head);
    strcpy(out + head, to);
    strcat(out, at + strlen(from));
    return out;
}

static void refused(int probe, const char *text, const char *path)
{
    rtp_diag diag;
    rtp_diag_clear(&diag);
    rtp_status st;
    if (probe) {
        rtp_probe_report p;
        st = rtp_probe_report_parse_json(text, strlen(text), &p, &diag);
        rtp_probe_report_free(&p);
    } else {
        rtp_rehearse_report r;
        st = rtp_rehearse_report_parse_json(text, strlen(text), &r, &diag);
        rtp_rehearse_report_free(&r);
    }
    if (st != RTP_EINPUT || strcmp(diag.path, path) != 0)
        fail_msg("want RTP_EINPUT at \"%s\", got status %d at \"%s\": %s", path, st, diag.path,
                 diag.message);
}

static void bad_documents_name_the_member(void **state)
{
    (void)state;
    size_t len;
    char *r = slurp(FIXTURES "app12_fp.rehearsal.json", &len);
    static const struct { const char *from, *to, *path; } rcases[] = {
        {"\"hog\":", "\"hogg\":", "hogg"},
        {"\"over_bound\":\ttrue", "\"over_bound\":\tfalse", "tasks[0].over_bound"},
        {"\"machine_restored\":\ttrue", "\"machine_restored\":\ttrue, \"left\": \"x\"", "left"},
        {"\"machine_restored\":\ttrue", "\"machine_restored\":\tfalse", "left"},
        {"\"response_p99\":\t238629", "\"response_p99\":\t9999999", "tasks[0].response_p99"},
        {"\"jobs\":\t10001", "\"jobs\":\t-1", "tasks[0].jobs"},
        {"\"arrival_grid\":\t\"release\"", "\"arrival_grid\":\t\"wall\"", "arrival_grid"},
        {"\"load\":\t1", "\"load\":\t\"much\"", "load"},
        {"\"name\":\t\"ctrl_yaw\"", "\"name\":\t7", "tasks[1].name"},
        {"\"cpu\":\t1", "\"cpu\":\t4096", "tasks[7].cpu"},
        {"\"hog\":\tfalse", "\"hog\":\tfalse, \"reclaim\": false", "reclaim"},
        {"\"hog\":\tfalse", "\"hog\":\tfalse, \"overrun_signal\": true", "tasks[0].overruns"},
        {"\"over_bound\":\ttrue", "\"over_bound\":\ttrue, \"overruns\": 1", "tasks[0].overruns"},
    };
    for (size_t k = 0; k < sizeof rcases / sizeof rcases[0]; k++) {
        char *bad = edit(r, rcases[k].from, rcases[k].to);
        refused(0, bad, rcases[k].path);
        free(bad);
    }
    /* Every truncation is refused, never read as a shorter document. */
    for (size_t cut = 0; cut + 1 < len; cut += 3) {
        char keep = r[cut];
        r[cut] = '\0';
        rtp_rehearse_report rr;
        rtp_diag diag;
        rtp_diag_clear(&diag);
        assert_int_equal(rtp_rehearse_report_parse_json(r, cut, &rr, &diag), RTP_EINPUT);
        rtp_rehearse_report_free(&rr);
        r[cut] = keep;
    }
    free(r);
    char *p = slurp(FIXTURES "app12.probe.json", &len);
    static const struct { const char *from, *to, *path; } pcases[] = {
        {"\"cpus\":\t[0, 1]", "\"cpus\":\t[1, 0]", "platform.cpus"},
        {"\"hz\":\t250", "\"hz\":\t\"250\"", "kernel.hz"},
        {"\"fixed\":\t212311", "\"fixd\":\t212311", "cpus[0].deadline_charge.fixd"},
        {"\"context_switch\":\t3965", "\"context_switch\":\t3966", "cpus[0].context_switch"},
        {"\"release_latency_stat\":\t\"max\"", "\"release_latency_stat\":\t\"p98\"",
         "method.release_latency_stat"},
        {"\"warnings\":\t[", "\"warnings\":\t[1, ", "warnings[0]"},
    };
    for (size_t k = 0; k < sizeof pcases / sizeof pcases[0]; k++) {
        char *bad = edit(p, pcases[k].from, pcases[k].to);
        refused(1, bad, pcases[k].path);
        free(bad);
    }
    for (size_t cut = 0; cut + 1 < len; cut += 11) {
        rtp_probe_report pp;
        rtp_diag diag;
        rtp_diag_clear(&diag);
        assert_int_equal(rtp_probe_report_parse_json(p, cut, &pp, &diag), RTP_EINPUT);
        rtp_probe_report_free(&pp);
    }
    free(p);
}

/* ---- belonging ---- */

static void expect_misfit(const rtp_plan *plan, rtp_rehearse_report *r,
                          const rtp_report_opts *opts, const char *path)
{
    rtp_diag diag;
    rtp_diag_clear(&diag);
    assert_int_equal(rtp_report_check_rehearsal(plan, r, opts, &diag), RTP_EINPUT);
    assert_string_equal(diag.path, path);
    assert_non_null(strstr(diag.message, strcmp(path, "runtime_margin") == 0 ? "--runtime-margin"
                                                                             : "not of this plan"));
}

static void a_rehearsal_belongs_to_its_plan_only(void **state)
{
    (void)state;
    rtp_plan plan;
    load_plan(FIXTURES "app12_fp.plan.json", &plan);
    size_t len;
    char *text = slurp(FIXTURES "app12_fp.rehearsal.json", &len);
    rtp_rehearse_report r;
    rtp_diag diag;
    rtp_diag_clear(&diag);
    assert_int_equal(rtp_rehearse_report_parse_json(text, len, &r, &diag), RTP_OK);
    free(text);
    rtp_report_opts opts = rtp_report_opts_default();
    assert_int_equal(rtp_report_check_rehearsal(&plan, &r, &opts, &diag), RTP_OK);
    rtp_rehearse_task keep = r.tasks[3];
    snprintf(r.tasks[3].name, sizeof r.tasks[3].name, "video_capturer");
    expect_misfit(&plan, &r, &opts, "tasks[3].name");
    r.tasks[3] = keep;
    r.tasks[3].cpu = 1;
    expect_misfit(&plan, &r, &opts, "tasks[3].cpu");
    r.tasks[3] = keep;
    r.tasks[3].bound_ns += 1; /* the plan's response time, 4.35 ms, and no other */
    expect_misfit(&plan, &r, &opts, "tasks[3].bound");
    r.tasks[3] = keep;
    r.n_tasks--; /* a rehearsal of fewer tasks */
    expect_misfit(&plan, &r, &opts, "tasks");
    r.n_tasks++;
    r.tasks[4] = r.tasks[3];
    expect_misfit(&plan, &r, &opts, "tasks[4].name");
    free(r.tasks);
    text = slurp(FIXTURES "app12_fp.rehearsal.json", &len);
    assert_int_equal(rtp_rehearse_report_parse_json(text, len, &r, &diag), RTP_OK);
    free(text);
    opts.margin_given = 1;
    opts.deploy.runtime_margin = (rtp_ratio){1, 10};
    expect_misfit(&plan, &r, &opts, "runtime_margin");
    opts.deploy.runtime_margin = (rtp_ratio){0, 1};
    assert_int_equal(rtp_report_check_rehearsal(&plan, &r, &opts, &diag), RTP_OK);
    rtp_rehearse_report_free(&r);

    rtp_probe_report p;
    text = slurp(FIXTURES "app12.probe.json", &len);
    assert_int_equal(rtp_probe_report_parse_json(text, len, &p, &diag), RTP_OK);
    free(text);
    assert_int_equal(rtp_report_check_probe(&plan, &p, &diag), RTP_OK);
    p.cpus[1].cpu = 5;
    assert_int_equal(rtp_report_check_probe(&plan, &p, &diag), RTP_EINPUT);
    assert_string_equal(diag.path, "cpus");
    assert_non_null(strstr(diag.message, "CPU 1"));
    rtp_probe_report_free(&p);
    rtp_plan_free(&plan);
}

/* ---- the page ---- */

static char name_buf[4][64];

/* One CPU, EDF, tasks (wcet, deadline, period) in us. */
static void small_plan(rtp_plan *plan, const rtp_ns (*t)[3], size_t n, const char *first_name)
{
    int cpu = 0;
    memset(plan, 0, sizeof *plan);
    assert_int_equal(rtp_plan_init_cpus(plan, RTP_POLICY_EDF, &cpu, 1), RTP_OK);
    plan->feasible = 1;
    snprintf(plan->method, sizeof plan->method, "ffd");
    for (size_t k = 0; k < n; k++) {
        if (k == 0)
            snprintf(name_buf[k], sizeof name_buf[k], "%s", first_name);
        else
            snprintf(name_buf[k], sizeof name_buf[k], "t%zu", k);
        rtp_task task = tu_task(t[k][0] * 1000, t[k][1] * 1000, t[k][2] * 1000);
        task.name = name_buf[k];
        assert_int_equal(rtp_plan_add_task(plan, 0, &task, 0, -1), RTP_OK);
    }
}

static char *render(const rtp_plan *plan, const rtp_report_opts *opts, rtp_status want)
{
    rtp_text out;
    rtp_text_init(&out);
    rtp_diag diag;
    rtp_diag_clear(&diag);
    rtp_status st = rtp_report_html(plan, NULL, NULL, opts, &out, &diag);
    if (st != want)
        fail_msg("rtp_report_html: status %d, want %d: %s", st, want, diag.message);
    if (st != RTP_OK) {
        rtp_text_free(&out);
        return NULL;
    }
    return rtp_text_take(&out);
}

static void names_are_escaped_and_the_bytes_repeat(void **state)
{
    (void)state;
    static const rtp_ns t[3][3] = {{1000, 4000, 4000}, {1000, 5000, 5000}, {2000, 10000, 10000}};
    rtp_plan plan;
    small_plan(&plan, t, 3, "<b>&\"x'\x01\xff");
    rtp_report_opts opts = rtp_report_opts_default();
    opts.title = "set <1> & co";
    char *a = render(&plan, &opts, RTP_OK), *b = render(&plan, &opts, RTP_OK);
    assert_string_equal(a, b);
    assert_null(strstr(a, "<b>"));
    assert_null(strstr(a, "<1>"));
    assert_null(strstr(a, "\x01"));
    assert_null(strstr(a, "<?xml"));
    assert_null(strstr(a, "<script"));
    assert_non_null(strstr(a, "&lt;b&gt;&amp;&quot;x&#39;\xEF\xBF\xBD\xEF\xBF\xBD"));
    assert_non_null(strstr(a, "set &lt;1&gt; &amp; co"));
    assert_non_null(strstr(a, "default-src 'none'"));
    assert_non_null(strstr(a, "<svg"));
    free(a);
    free(b);
    rtp_plan_free(&plan);
}

static void the_gantt_window_follows_its_rules(void **state)
{
    (void)state;
    /* Hyperperiod 20 ms, 11 jobs: the whole hyperperiod. */
    static const rtp_ns small[3][3] = {{1000, 4000, 4000}, {1000, 5000, 5000},
                                       {2000, 10000, 10000}};
    rtp_plan plan;
    small_plan(&plan, small, 3, "a");
    rtp_report_opts opts = rtp_report_opts_default();
    char *page = render(&plan, &opts, RTP_OK);
    assert_non_null(strstr(page, "data-j=\"sim:until\">20\xC2\xA0ms</data>. The window is the "
                                 "hyperperiod"));
    free(page);
    rtp_plan_free(&plan);
    /* Hyperperiod 10 s of 1 ms jobs: the largest period instead. */
    static const rtp_ns big[2][3] = {{100, 1000, 1000}, {1000, 10000000, 10000000}};
    small_plan(&plan, big, 2, "a");
    page = render(&plan, &opts, RTP_OK);
    assert_non_null(strstr(page, "The window is the largest period"));
    /* 10 s of 1 ms jobs make more than 1500 boxes: the window is shortened
     * (to where the first box left out starts) and the page says so; the
     * table covers the same window. */
    assert_non_null(strstr(page, "data-j=\"analysis:window_asked\">10\xC2\xA0s</data>"));
    assert_non_null(strstr(page, "data-j=\"sim:until\">1.498\xC2\xA0s</data>"));
    free(page);
    /* --window: as asked; past 10^7 jobs refused. */
    opts.window_ns = 3000000;
    page = render(&plan, &opts, RTP_OK);
    assert_non_null(strstr(page, "data-j=\"sim:until\">3\xC2\xA0ms</data>. The window is chosen "
                                 "with --window"));
    assert_null(strstr(page, "window_asked"));
    free(page);
    opts.window_ns = (rtp_ns)1 << 45; /* 35 million jobs of the 1 ms task */
    assert_null(render(&plan, &opts, RTP_ELIMIT));
    rtp_plan_free(&plan);
}

static void a_limit_is_said_not_guessed(void **state)
{
    (void)state;
    static const rtp_ns t[3][3] = {{1000, 4000, 4000}, {1000, 5000, 5000}, {2000, 10000, 10000}};
    rtp_plan plan;
    small_plan(&plan, t, 3, "a");
    rtp_report_opts opts = rtp_report_opts_default();
    static volatile sig_atomic_t stop = SIGINT; /* every exact test stops at once */
    opts.limits.interrupt = &stop;
    char *page = render(&plan, &opts, RTP_OK);
    assert_non_null(strstr(page, "resource limit"));
    assert_null(strstr(page, "<strong>Schedulable:</strong>"));
    free(page);
    /* Out-of-range options are bad input, nothing rendered. */
    opts = rtp_report_opts_default();
    opts.deploy.budget = (rtp_ratio){3, 2};
    assert_null(render(&plan, &opts, RTP_EINPUT));
    rtp_plan_free(&plan);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(recorded_documents_read_back_byte_for_byte),
        cmocka_unit_test(every_field_reads_back),
        cmocka_unit_test(bad_documents_name_the_member),
        cmocka_unit_test(a_rehearsal_belongs_to_its_plan_only),
        cmocka_unit_test(names_are_escaped_and_the_bytes_repeat),
        cmocka_unit_test(the_gantt_window_follows_its_rules),
        cmocka_unit_test(a_limit_is_said_not_guessed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
