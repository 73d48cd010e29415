/* tests/test_explore.c — the sweep file reader (explore/sweep_doc.h), the
 * sweep points, one point's evaluation (thread-count invariance), resume and
 * merge refusals, and the science sanity checks: uniprocessor EDF
 * accepts every implicit-deadline set with U <= 1, and on 4 CPUs FFD accepts
 * only sets the ILP accepts, falling as U/m grows. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "explore/explore.h"
#include "heuristics/partition.h"
#include "ilp/ilp.h"
#include "solver/edf.h"
#include "solver/fp.h"
#include "support/testutil.h"

static rtp_status parse_doc(const char *text, rtp_sweep_doc *doc, rtp_diag *diag)
{
    rtp_diag_clear(diag);
    return rtp_sweep_doc_parse(text, strlen(text), doc, diag);
}

static void expect_error(const char *text, const char *path, const char *words)
{
    rtp_sweep_doc doc;
    rtp_diag diag;
    assert_int_equal(parse_doc(text, &doc, &diag), RTP_EINPUT);
    if (strcmp(diag.path, path) != 0 || !strstr(diag.message, words))
        print_message("got path '%s' message '%s'\n", diag.path, diag.message);
    assert_string_equal(diag.path, path);
    assert_non_null(strstr(diag.message, words));
}

#define BASE "\"tasks\": 5, \"cpus\": 2, \"utilization\": "

static void test_doc_errors(void **state)
{
    (void)state;
    expect_error("{" BASE "[\"0.5\"], \"method\": \"ffd\"}", "method", "unknown key");
    expect_error("{" BASE "[\"0.5\"], \"methods\": [\"ffd\", \"bfdd\"]}", "methods[1]", "one of");
    expect_error("{" BASE "[\"0.5\"], \"methods\": [\"ffd\", \"ffd\"]}", "methods[1]", "twice");
    expect_error("{" BASE "{\"from\": \"0.5\", \"to\": \"0.4\", \"step\": \"0.1\"}}",
                 "utilization.to", "below");
    expect_error("{" BASE "{\"from\": \"0.5\", \"to\": \"0.9\"}}", "utilization.step", "missing");
    expect_error("{" BASE "{\"from\": \"0.5\", \"to\": \"0.9\", \"step\": \"-1\"}}",
                 "utilization.step", "decimal");
    expect_error("{" BASE "[\"0.5\"], \"periods\": {\"min\": \"1.5ns\"}}", "periods.min", "whole");
    expect_error("{" BASE "[\"0.5\"], \"periods\": {\"set\": [\"1ms\"], \"min\": \"1ms\"}}",
                 "periods.set", "combined");
    expect_error("{" BASE "[\"0.5\"], \"deadlines\": \"sporadic\"}", "deadlines", "one of");
    expect_error("{" BASE "[\"0.5\"], \"policies\": [\"gedf\"]}", "policies[0]", "one of");
    expect_error("{\"cpus\": 2, \"utilization\": [\"0.5\"]}", "tasks", "missing");
    expect_error("{" BASE "[\"0.5\"], \"tasks\": 3}", "tasks", "duplicate");
    expect_error("{" BASE "[\"0.5\"], \"sets_per_point\": 1.5}", "sets_per_point", "whole");
    expect_error("{" BASE "[\"0.5\"], \"sets_jsonl\": 1}", "sets_jsonl", "true or false");
}

#define CS "\"cs_length\": {\"min\": \"1us\", \"max\": \"5us\"}"

static void test_doc_resource_errors(void **state)
{
    (void)state;
    expect_error("{" BASE "[\"0.5\"], \"resources\": 3}", "resources", "object");
    expect_error("{" BASE "[\"0.5\"], \"resources\": {\"count\": 2}}", "resources.cs_length",
                 "missing");
    expect_error("{" BASE "[\"0.5\"], \"resources\": {" CS "}}", "resources.count", "missing");
    expect_error("{" BASE "[\"0.5\"], \"resources\": {\"count\": 0, " CS "}}",
                 "resources.count", "");
    expect_error("{" BASE "[\"0.5\"], \"resources\": {\"count\": [2, 2], " CS "}}",
                 "resources.count[1]", "twice");
    expect_error("{" BASE "[\"0.5\"], \"resources\": {\"count\": 2, \"colour\": 1, " CS "}}",
                 "resources.colour", "unknown key");
    expect_error("{" BASE "[\"0.5\"], \"resources\": {\"count\": 2, \"access\": \"1.5\", " CS "}}",
                 "resources.access", "[0, 1]");
    expect_error("{" BASE "[\"0.5\"], \"resources\": {\"count\": 2, \"requests\": 0, " CS "}}",
                 "resources.requests", "");
    expect_error("{" BASE "[\"0.5\"], \"resources\": {\"count\": 2, \"cs_length\": "
                 "{\"min\": \"5us\", \"max\": \"1us\"}}}",
                 "resources.cs_length.max", "below min");
    expect_error("{" BASE "[\"0.5\"], \"resources\": {\"count\": 2, \"cs_length\": "
                 "[{\"min\": \"1us\", \"max\": \"5us\"}, {\"max\": \"5us\", \"min\": 1000}]}}",
                 "resources.cs_length[1]", "twice");
    expect_error("{" BASE "[\"0.5\"], \"resources\": {\"count\": 2, \"cs_length\": "
                 "[{\"min\": \"1us\"}]}}",
                 "resources.cs_length[0].max", "missing");
    expect_error("{" BASE "[\"0.5\"], \"resources\": {\"count\": 2, \"cs_length\": []}}",
                 "resources.cs_length", "list of 1..");
    expect_error("{" BASE "[\"0.5\"], \"methods\": [\"ffd\", \"ilp\"], \"resources\": "
                 "{\"count\": 2, " CS "}}", "methods[1]", "ilp-colocate");
    expect_error("{" BASE "[\"0.5\"], \"methods\": [\"sfd\"]}", "methods[0]", "\"fp\"");
    expect_error("{" BASE "[\"0.5\"], \"policies\": [\"fp\", \"edf\"], \"methods\": [\"sfd\"]}",
                 "methods[0]", "\"fp\"");
}

static void test_doc_utilizations_exact(void **state)
{
    (void)state;
    rtp_sweep_doc doc;
    rtp_diag diag;
    /* 0.1 + 0.1 + 0.1 is not 0.3 in binary; here it is, and `to` is included. */
    assert_int_equal(parse_doc("{" BASE "{\"from\": 0.1, \"to\": 0.3, \"step\": 0.1}}", &doc, &diag),
                     RTP_OK);
    assert_int_equal(doc.n_utilizations, 3);
    assert_true(doc.utilizations[2].num == 3 && doc.utilizations[2].den == 10);
    rtp_sweep_doc_free(&doc);
    assert_int_equal(parse_doc("{" BASE "{\"from\": \"0.5\", \"to\": \"1.0\", \"step\": \"0.03\"}}",
                               &doc, &diag), RTP_OK);
    assert_int_equal(doc.n_utilizations, 17); /* 0.5 .. 0.98 */
    assert_true(doc.utilizations[16].num == 49 && doc.utilizations[16].den == 50);
    rtp_sweep_doc_free(&doc);
    assert_int_equal(parse_doc("{" BASE "[0.65, \"0.7\"], \"deadlines\": \"constrained\"}", &doc,
                               &diag), RTP_OK);
    assert_true(doc.utilizations[0].num == 13 && doc.utilizations[0].den == 20);
    assert_int_equal(doc.n_deadlines, 1);
    assert_int_equal(doc.n_methods, 5); /* default: every heuristic */
    rtp_sweep_doc_free(&doc);
}

static void test_sweep_points(void **state)
{
    (void)state;
    const char *text = "{\"tasks\": [4, 6], \"cpus\": 2, \"utilization\": [\"0.5\", \"0.75\"], "
                       "\"deadlines\": [\"implicit\", \"arbitrary\"]}";
    rtp_sweep sw;
    rtp_diag diag;
    assert_int_equal(rtp_sweep_parse(text, strlen(text), &sw, &diag), RTP_OK);
    assert_int_equal(sw.n_points, 8);
    char key[128];
    rtp_sweep_point_key(&sw, 0, key, sizeof key);
    assert_string_equal(key, "4,2,0.5,implicit");
    rtp_sweep_point_key(&sw, 3, key, sizeof key);
    assert_string_equal(key, "4,2,0.75,arbitrary");
    rtp_sweep_point_key(&sw, 4, key, sizeof key);
    assert_string_equal(key, "6,2,0.5,implicit");
    /* Deadline models of one (n, m, U) share their random stream (paired). */
    assert_true(sw.points[0].stream == sw.points[1].stream);
    assert_true(sw.points[0].stream != sw.points[2].stream);
    rtp_gen_opts o = rtp_sweep_gen_opts(&sw, 3);
    assert_true(o.total_util.num == 3 && o.total_util.den == 2);
    rtp_sweep_free(&sw);
    /* A point the generator cannot meet is bad input naming the point. */
    text = "{\"tasks\": 2, \"cpus\": 4, \"utilization\": [\"0.4\", \"0.6\"]}";
    assert_int_equal(rtp_sweep_parse(text, strlen(text), &sw, &diag), RTP_EINPUT);
    assert_non_null(strstr(diag.message, "2,4,0.6,implicit"));
}

/* A sweep with resources: two more axes (count, then the length range,
 * innermost), their columns, and common random numbers along them: every
 * point of one (tasks, cpus, utilization) draws the same tasks. */
static void test_sweep_resource_points(void **state)
{
    (void)state;
    const char *text = "{\"tasks\": 6, \"cpus\": 2, \"utilization\": [\"0.5\"], \"resources\": "
                       "{\"count\": [1, 3], \"access\": \"0.75\", \"requests\": 2, \"cs_length\": "
                       "[{\"min\": \"1us\", \"max\": \"2us\"}, {\"min\": 50, \"max\": \"100us\"}]}, "
                       "\"periods\": {\"min\": \"10ms\", \"max\": \"100ms\"}}";
    rtp_sweep sw;
    rtp_diag diag;
    rtp_diag_clear(&diag);
    if (rtp_sweep_parse(text, strlen(text), &sw, &diag) != RTP_OK)
        fail_msg("%s", diag.message);
    assert_int_equal(sw.n_points, 4);
    char key[160];
    static const char *const want[] = {"1,0.75,2,1000,2000", "1,0.75,2,50,100000",
                                       "3,0.75,2,1000,2000", "3,0.75,2,50,100000"};
    rtp_taskset first;
    for (size_t p = 0; p < 4; p++) {
        rtp_sweep_point_resources(&sw, p, key, sizeof key);
        assert_string_equal(key, want[p]);
        rtp_sweep_point_key(&sw, p, key, sizeof key);
        assert_string_equal(key, "6,2,0.5,implicit");
        rtp_taskset ts;
        assert_int_equal(rtp_sweep_taskset(&sw, p, 5, &ts, &diag), RTP_OK);
        assert_int_equal(ts.n_resources, (size_t)sw.points[p].resources);
        for (size_t i = 0; i < ts.n_tasks; i++)
            for (size_t k = 0; k < ts.tasks[i].n_requests; k++) {
                const rtp_request *q = &ts.tasks[i].requests[k];
                assert_true(q->count >= 1 && q->count <= 2 &&
                            q->length_ns <= sw.points[p].cs_max_ns);
            }
        if (p == 0) {
            first = ts;
            continue;
        }
        for (size_t i = 0; i < ts.n_tasks; i++) /* the same tasks at every point */
            assert_true(ts.tasks[i].wcet_ns == first.tasks[i].wcet_ns &&
                        ts.tasks[i].period_ns == first.tasks[i].period_ns);
        rtp_taskset_free(&ts);
    }
    rtp_taskset_free(&first);
    /* without resources the columns are empty */
    rtp_sweep_free(&sw);
    text = "{\"tasks\": 6, \"cpus\": 2, \"utilization\": [\"0.5\"]}";
    assert_int_equal(rtp_sweep_parse(text, strlen(text), &sw, &diag), RTP_OK);
    rtp_sweep_point_resources(&sw, 0, key, sizeof key);
    assert_string_equal(key, "");
    rtp_sweep_free(&sw);
}

/* The sweep document's names (explore/sweep_doc.c, which cannot see the
 * enums of gen/ and explore/) and the engine's name tables stay in step:
 * every name the document accepts maps to the enum value it means. */
static void test_sweep_names_in_step(void **state)
{
    (void)state;
    static const struct { const char *name; rtp_gen_algo algo; } generators[] = {
        {"uunifast-discard", RTP_GEN_UUNIFAST_DISCARD}, {"randfixedsum", RTP_GEN_RANDFIXEDSUM}};
    static const struct { const char *name; rtp_prio_rule rule; } priorities[] = {
        {"opa", RTP_PRIO_OPA}, {"dm", RTP_PRIO_DM}, {"rm", RTP_PRIO_RM}};
    static const rtp_gen_deadlines deadlines[] = {RTP_DL_IMPLICIT, RTP_DL_CONSTRAINED,
                                                  RTP_DL_ARBITRARY};
    static const rtp_policy policies[] = {RTP_POLICY_EDF, RTP_POLICY_FP};
    static const rtp_explore_method methods[] = {
        RTP_EX_FFD, RTP_EX_BFD, RTP_EX_WFD, RTP_EX_NFD, RTP_EX_BEST,
        RTP_EX_ILP, RTP_EX_ILP_COLOCATE, RTP_EX_FFD_OBLIVIOUS};
    for (size_t g = 0; g < 2; g++) {
        for (size_t p = 0; p < 3; p++) {
            char text[512];
            snprintf(text, sizeof text,
                     "{\"tasks\": 4, \"cpus\": 2, \"utilization\": [\"0.5\"], \"generator\": \"%s\", "
                     "\"priority\": \"%s\", \"deadlines\": [\"implicit\", \"constrained\", "
                     "\"arbitrary\"], \"policies\": [\"edf\", \"fp\"], \"methods\": [\"ffd\", "
                     "\"bfd\", \"wfd\", \"nfd\", \"best\", \"ilp\", \"ilp-colocate\", "
                     "\"ffd-oblivious\"]}",
                     generators[g].name, priorities[p].name);
            rtp_sweep sw;
            rtp_diag diag;
            rtp_diag_clear(&diag);
            if (rtp_sweep_parse(text, strlen(text), &sw, &diag) != RTP_OK)
                fail_msg("%s: %s", text, diag.message);
            assert_int_equal(sw.gen.algo, generators[g].algo);
            assert_int_equal(sw.priority, priorities[p].rule);
            assert_int_equal(sw.n_points, 3);
            for (size_t k = 0; k < 3; k++)
                assert_int_equal(sw.points[k].deadlines, deadlines[k]);
            assert_int_equal(sw.n_policies, 2);
            for (size_t k = 0; k < 2; k++)
                assert_int_equal(sw.policies[k], policies[k]);
            assert_int_equal(sw.n_methods, 8);
            for (size_t k = 0; k < 8; k++) {
                assert_int_equal(sw.methods[k], methods[k]);
                assert_string_equal(rtp_explore_method_name(sw.methods[k]), sw.doc.methods[k]);
            }
            rtp_sweep_free(&sw);
        }
    }
    const char *text = "{\"tasks\": 4, \"cpus\": 2, \"utilization\": [\"0.5\"], \"policies\": "
                       "\"fp\", \"methods\": \"sfd\"}";
    rtp_sweep sw;
    rtp_diag diag;
    assert_int_equal(rtp_sweep_parse(text, strlen(text), &sw, &diag), RTP_OK);
    assert_int_equal(sw.methods[0], RTP_EX_SFD);
    assert_string_equal(rtp_explore_method_name(sw.methods[0]), "sfd");
    rtp_sweep_free(&sw);
}

static void test_point_thread_invariance(void **state)
{
    (void)state;
    const char *text = "{\"seed\": 9, \"sets_per_point\": 60, \"tasks\": 12, \"cpus\": 3, "
                       "\"utilization\": [\"0.85\"], \"deadlines\": \"constrained\", "
                       "\"policies\": [\"edf\", \"fp\"], \"sets_jsonl\": true}";
    rtp_sweep sw;
    rtp_diag diag;
    assert_int_equal(rtp_sweep_parse(text, strlen(text), &sw, &diag), RTP_OK);
    rtp_explore_cell a[10], b[10];
    char *ja = NULL, *jb = NULL;
    rtp_explore_opts one = {.threads = 1}, two = {.threads = 2};
    assert_int_equal(rtp_explore_point(&sw, 0, &one, a, &ja, &diag), RTP_OK);
    assert_int_equal(rtp_explore_point(&sw, 0, &two, b, &jb, &diag), RTP_OK);
    for (int c = 0; c < 10; c++) {
        assert_int_equal(a[c].accepted, b[c].accepted);
        assert_int_equal(a[c].total, 60);
        assert_int_equal(a[c].timeouts, b[c].timeouts);
    }
    assert_string_equal(ja, jb);
    /* The JSONL lines are task-set documents the reader accepts. */
    char *nl = strchr(ja, '\n');
    rtp_taskset ts;
    assert_int_equal(rtp_taskset_parse_json(ja, (size_t)(nl - ja), &ts, &diag), RTP_OK);
    assert_int_equal(ts.n_tasks, 12);
    assert_int_equal(ts.platform.n_cpus, 3);
    rtp_taskset_free(&ts);
    free(ja);
    free(jb);
    rtp_sweep_free(&sw);
}

/* Uniprocessor EDF is exact and U <= 1 is its whole condition for implicit
 * deadlines [LL73]: on one CPU every heuristic is that test. */
static void test_uniprocessor_edf_accepts_all(void **state)
{
    (void)state;
    int sets = 0;
    for (int round = 0; round < 1500; round++) {
        rtp_gen_opts o = rtp_gen_opts_default();
        o.n_tasks = (size_t)(1 + round % 12);
        o.total_util = (rtp_ratio){80 + round % 21, 100}; /* 0.80 .. 1.00 */
        o.algo = (rtp_gen_algo)(round % 2);
        o.period_max_ns = 100000000;
        rtp_taskset ts;
        rtp_diag diag;
        rtp_status st = rtp_gen_taskset(&o, 17, 1, (uint64_t)round, &ts, &diag);
        if (st == RTP_ELIMIT)
            continue;
        assert_int_equal(st, RTP_OK);
        assert_true(rtp_load_cmp(ts.tasks, ts.n_tasks, RTP_LOAD_UTIL, (rtp_ratio){1, 1}) <= 0);
        int cpu = 0;
        rtp_part_opts po = rtp_part_opts_default();
        rtp_plan plan;
        memset(&plan, 0, sizeof plan);
        assert_int_equal(rtp_part_pack(&ts, &cpu, 1, &po, &plan, &diag), RTP_OK);
        assert_true(plan.feasible);
        rtp_plan_free(&plan);
        rtp_taskset_free(&ts);
        sets++;
    }
    print_message("uniprocessor EDF accepted all %d sets with U <= 1\n", sets);
    assert_true(sets > 1400);
}

/* Per set on 4 CPUs: FFD feasible => ILP feasible (the ILP is exact), and
 * FFD's acceptance ratio does not rise with U/m. */
static void test_ffd_below_ilp_and_falling(void **state)
{
    (void)state;
    const char *text = "{\"seed\": 4, \"sets_per_point\": 30, \"tasks\": 8, \"cpus\": 4, "
                       "\"utilization\": {\"from\": \"0.6\", \"to\": \"1.0\", \"step\": \"0.1\"}, "
                       "\"periods\": {\"min\": \"1ms\", \"max\": \"100ms\"}, "
                       "\"generator\": \"randfixedsum\", \"deadlines\": [\"implicit\", \"constrained\"]}";
    rtp_sweep sw;
    rtp_diag diag;
    assert_int_equal(rtp_sweep_parse(text, strlen(text), &sw, &diag), RTP_OK);
    int cpus[4] = {0, 1, 2, 3};
    int64_t previous[2] = {INT64_MAX, INT64_MAX};
    int checked = 0;
    for (size_t p = 0; p < sw.n_points; p++) {
        rtp_gen_opts o = rtp_sweep_gen_opts(&sw, p);
        int64_t ffd_accepted = 0;
        for (int64_t i = 0; i < sw.doc.sets_per_point; i++) {
            rtp_taskset ts;
            assert_int_equal(rtp_gen_taskset(&o, 4, sw.points[p].stream, (uint64_t)i, &ts, &diag),
                             RTP_OK);
            rtp_part_opts po = rtp_part_opts_default();
            rtp_plan ffd, ilp;
            memset(&ffd, 0, sizeof ffd);
            memset(&ilp, 0, sizeof ilp);
            assert_int_equal(rtp_part_pack(&ts, cpus, 4, &po, &ffd, &diag), RTP_OK);
            rtp_ilp_opts io = rtp_ilp_opts_default();
            io.time_limit_s = 20;
            rtp_ilp_status status;
            rtp_ilp_stats stats;
            assert_int_equal(rtp_ilp_solve(&ts, cpus, 4, &io, &ilp, &status, &stats, &diag), RTP_OK);
            if (ffd.feasible)
                assert_true(ilp.feasible);
            if (status == RTP_ILP_INFEASIBLE)
                assert_false(ffd.feasible);
            ffd_accepted += ffd.feasible;
            rtp_plan_free(&ffd);
            rtp_plan_free(&ilp);
            rtp_taskset_free(&ts);
            checked++;
        }
        size_t model = (size_t)sw.points[p].deadlines;
        assert_true(ffd_accepted <= previous[model]);
        previous[model] = ffd_accepted;
    }
    print_message("FFD <= ILP on %d sets\n", checked);
    rtp_sweep_free(&sw);
}

static char *slurp(const char *path)
{
    char *text = NULL;
    size_t len;
    rtp_diag diag;
    return rtp_read_file(path, &text, &len, &diag) == RTP_OK ? text : NULL;
}

static const char small_sweep[] =
    "{\"seed\": 2, \"sets_per_point\": 12, \"tasks\": [5, 7], \"cpus\": 2, "
    "\"utilization\": {\"from\": \"0.6\", \"to\": \"0.9\", \"step\": \"0.1\"}, "
    "\"policies\": [\"edf\", \"fp\"], \"methods\": [\"ffd\", \"wfd\"], \"sets_jsonl\": true}";

static void run_into(const char *dir, const char *text, int k, int n, int resume,
                     rtp_status expect)
{
    rtp_explore_opts o;
    memset(&o, 0, sizeof o);
    o.out_dir = dir;
    o.shard_k = k;
    o.shard_n = n;
    o.resume = resume;
    rtp_diag diag;
    rtp_diag_clear(&diag);
    rtp_status st = rtp_explore_run(text, strlen(text), &o, &diag);
    if (st != expect)
        print_message("%s\n", diag.message);
    assert_int_equal(st, expect);
}

/* The sweep run whole into dir; its results.csv, malloc'd: what every
 * interrupted, resumed or merged run must reproduce byte for byte. */
static char *whole_run(const char *dir, const char *sweep)
{
    char path[700];
    run_into(dir, sweep, 1, 1, 0, RTP_OK);
    snprintf(path, sizeof path, "%s/results.csv", dir);
    char *full = slurp(path);
    assert_non_null(full);
    return full;
}

/* DIR_A/NAME and DIR_B/NAME hold the same bytes. */
static void same_file(const char *dir_a, const char *dir_b, const char *name)
{
    char path[700];
    snprintf(path, sizeof path, "%s/%s", dir_a, name);
    char *a = slurp(path);
    snprintf(path, sizeof path, "%s/%s", dir_b, name);
    char *b = slurp(path);
    assert_non_null(a);
    assert_non_null(b);
    assert_string_equal(a, b);
    free(a);
    free(b);
}

static void remove_tree(const char *root)
{
    char cmd[700];
    snprintf(cmd, sizeof cmd, "rm -rf %s", root);
    assert_int_equal(system(cmd), 0);
}

static void test_resume_and_merge(void **state)
{
    (void)state;
    char root[] = "/tmp/rtp_explore_XXXXXX";
    assert_non_null(mkdtemp(root));
    char one[600], cut[600], shard[3][600], merged[600], other[600], path[700];
    snprintf(one, sizeof one, "%s/one", root);
    snprintf(cut, sizeof cut, "%s/cut", root);
    snprintf(merged, sizeof merged, "%s/merged", root);
    snprintf(other, sizeof other, "%s/other", root);
    run_into(one, small_sweep, 1, 1, 0, RTP_OK);
    run_into(one, small_sweep, 1, 1, 0, RTP_EINPUT); /* refuses to overwrite */

    /* A crash inside the third point: results cut mid-line, then --resume. */
    char *full = whole_run(cut, small_sweep);
    snprintf(path, sizeof path, "%s/results.csv", cut);
    size_t keep = 0;
    for (int lines = 0; lines < 1 + 2 * 4 + 3; keep++)
        lines += full[keep] == '\n';
    assert_int_equal(truncate(path, (off_t)keep + 7), 0);
    run_into(cut, small_sweep, 1, 1, 1, RTP_OK);
    char *again = slurp(path);
    assert_string_equal(full, again);
    free(again);

    /* Three shards merged give the single run's bytes (JSONL too). */
    for (int k = 0; k < 3; k++) {
        snprintf(shard[k], sizeof shard[k], "%s/shard%d", root, k + 1);
        run_into(shard[k], small_sweep, k + 1, 3, 0, RTP_OK);
    }
    rtp_diag diag;
    const char *dirs[3] = {shard[2], shard[0], shard[1]};
    assert_int_equal(rtp_explore_merge(dirs, 3, merged, 0, &diag), RTP_OK);
    static const char *const files[] = {"results.csv", "sets.jsonl", "weighted.csv",
                                        "acceptance.svg"};
    for (int f = 0; f < 4; f++)
        same_file(one, merged, files[f]);
    free(full);

    /* Refusals: a missing shard, a repeated one, another sweep, another
     * generator version. */
    assert_int_equal(rtp_explore_merge(dirs, 2, merged, 0, &diag), RTP_EINPUT);
    assert_non_null(strstr(diag.message, "shard 2/3 missing (given: 1/3 from "));
    assert_int_equal(rtp_explore_merge(dirs, 3, merged, 0, &diag), RTP_EINPUT);
    assert_non_null(strstr(diag.message, "already holds results"));
    assert_int_equal(rtp_explore_merge(dirs, 3, merged, 1, &diag), RTP_OK);
    const char *twice[3] = {shard[0], shard[0], shard[1]};
    assert_int_equal(rtp_explore_merge(twice, 3, merged, 0, &diag), RTP_EINPUT);
    assert_non_null(strstr(diag.message, "twice"));
    char *changed = strdup(small_sweep);
    changed[9] = '3'; /* "seed": 3 */
    run_into(other, changed, 2, 3, 0, RTP_OK);
    const char *mixed[3] = {shard[0], other, shard[2]};
    assert_int_equal(rtp_explore_merge(mixed, 3, merged, 0, &diag), RTP_EINPUT);
    assert_non_null(strstr(diag.message, "different sweep"));
    run_into(shard[0], changed, 1, 3, 1, RTP_EINPUT); /* resume another sweep */
    free(changed);
    snprintf(path, sizeof path, "%s/manifest.txt", shard[1]);
    char *manifest = slurp(path);
    char *v = strstr(manifest, "generator_version 1");
    v[strlen("generator_version ")] = '7';
    FILE *f = fopen(path, "w");
    fputs(manifest, f);
    fclose(f);
    free(manifest);
    assert_int_equal(rtp_explore_merge(dirs, 3, merged, 0, &diag), RTP_EINPUT);
    assert_non_null(strstr(diag.message, "generator version 7"));
    remove_tree(root);
}

/* A sweep with resources: its header, and three shards merged and a run
 * cut inside a block and resumed give the single run's bytes. */
static void test_resources_shards_and_resume(void **state)
{
    (void)state;
    static const char sweep[] =
        "{\"seed\": 24, \"sets_per_point\": 8, \"tasks\": 6, \"cpus\": 2, "
        "\"utilization\": [\"0.6\"], \"periods\": {\"min\": \"10ms\", \"max\": \"100ms\"}, "
        "\"policies\": \"fp\", \"methods\": [\"ffd-oblivious\", \"ffd\", \"sfd\", \"best\", "
        "\"ilp-colocate\"], \"resources\": {\"count\": [1, 2], \"access\": \"0.5\", "
        "\"cs_length\": [{\"min\": \"50us\", \"max\": \"100us\"}, "
        "{\"min\": \"1ms\", \"max\": \"2ms\"}]}}";
    char root[] = "/tmp/rtp_explore_XXXXXX";
    assert_non_null(mkdtemp(root));
    char one[600], cut[600], shard[3][600], merged[600], path[700];
    snprintf(one, sizeof one, "%s/one", root);
    snprintf(cut, sizeof cut, "%s/cut", root);
    snprintf(merged, sizeof merged, "%s/merged", root);
    char *full = whole_run(one, sweep);
    assert_non_null(strstr(full, "ratio,timeouts,resources,access,requests,cs_min_ns,cs_max_ns\n"
                                 "6,2,0.6,implicit,fp,ffd-oblivious,"));
    assert_non_null(strstr(full, ",2,0.5,1,1000000,2000000\n"));
    for (int k = 0; k < 3; k++) {
        snprintf(shard[k], sizeof shard[k], "%s/shard%d", root, k + 1);
        run_into(shard[k], sweep, k + 1, 3, 0, RTP_OK);
    }
    rtp_diag diag;
    const char *dirs[3] = {shard[1], shard[2], shard[0]};
    assert_int_equal(rtp_explore_merge(dirs, 3, merged, 0, &diag), RTP_OK);
    run_into(cut, sweep, 1, 1, 0, RTP_OK);
    snprintf(path, sizeof path, "%s/results.csv", cut);
    size_t keep = 0;
    for (int lines = 0; lines < 1 + 5 * 2 + 2; keep++) /* into the third point */
        lines += full[keep] == '\n';
    assert_int_equal(truncate(path, (off_t)keep + 9), 0);
    run_into(cut, sweep, 1, 1, 1, RTP_OK);
    static const char *const files[] = {"results.csv", "weighted.csv", "acceptance.svg"};
    for (int f = 0; f < 3; f++) {
        same_file(one, merged, files[f]);
        same_file(one, cut, files[f]);
    }
    free(full);
    remove_tree(root);
}

/* Interrupts the run (through the flag the CLI's signal handler sets) once
 * `after` sets are done. */
typedef struct stopper {
    volatile sig_atomic_t flag;
    uint64_t after;
} stopper;

static void stop_after(void *ctx, const rtp_explore_tally *t)
{
    stopper *s = ctx;
    if (t->sets_done >= s->after)
        s->flag = 1;
}

static rtp_status run_opts(const char *dir, const char *text, rtp_explore_opts *o, rtp_diag *d)
{
    o->out_dir = dir;
    o->shard_k = o->shard_n = 1;
    rtp_diag_clear(d);
    return rtp_explore_run(text, strlen(text), o, d);
}

static size_t count_lines(const char *path)
{
    char *text = slurp(path);
    size_t n = 0;
    for (const char *c = text; c && *c; c++)
        n += *c == '\n';
    free(text);
    return n;
}

/* Interrupted inside a point: the finished sets stay in
 * partial.txt, --resume takes them and gives the uninterrupted bytes; so does
 * a journal whose last line a crash cut; a stale journal of a finished point
 * is dropped. */
static void test_interrupt_and_resume_inside_a_point(void **state)
{
    (void)state;
    char root[] = "/tmp/rtp_explore_XXXXXX";
    assert_non_null(mkdtemp(root));
    char one[600], cut[600], path[700], partial[700];
    snprintf(one, sizeof one, "%s/one", root);
    snprintf(cut, sizeof cut, "%s/cut", root);
    snprintf(partial, sizeof partial, "%s/partial.txt", cut);
    char *full = whole_run(one, small_sweep);
    rtp_diag diag;
    /* 12 sets per point: stop in the third point, after 29 sets. */
    stopper s = {0, 29};
    rtp_explore_opts o = {.threads = 2, .interrupt = &s.flag, .progress = stop_after,
                          .progress_ctx = &s};
    assert_int_equal(run_opts(cut, small_sweep, &o, &diag), RTP_ELIMIT);
    assert_string_equal(diag.message, "interrupted");
    assert_true(count_lines(partial) >= 1 + 29 - 24); /* header + the third point's sets */
    snprintf(path, sizeof path, "%s/acceptance.svg", cut);
    assert_int_equal(access(path, F_OK), 0); /* summary files of what is done */
    /* Resume twice more with interrupts, the last time with a cut line. */
    for (int round = 0; round < 2; round++) {
        stopper again = {0, 5};
        rtp_explore_opts r = {.threads = 1, .resume = 1, .interrupt = &again.flag,
                              .progress = stop_after, .progress_ctx = &again};
        assert_int_equal(run_opts(cut, small_sweep, &r, &diag), RTP_ELIMIT);
    }
    size_t lines = count_lines(partial);
    assert_true(lines >= 2);
    FILE *f = fopen(partial, "a");
    fputs("3 1 0", f); /* a line a crash cut */
    fclose(f);
    rtp_explore_opts r = {.threads = 2, .resume = 1};
    assert_int_equal(run_opts(cut, small_sweep, &r, &diag), RTP_OK);
    assert_int_not_equal(access(partial, F_OK), 0); /* removed once its point is written */
    snprintf(path, sizeof path, "%s/results.csv", cut);
    char *again = slurp(path);
    assert_string_equal(full, again);
    free(again);
    /* A journal of a point already in results.csv is dropped, not used. */
    f = fopen(partial, "w");
    fputs("rtpack-explore-partial 1 point 0 5,2,0.6,implicit\n0 0 0 0 0 1 1 1 1\n", f);
    fclose(f);
    assert_int_equal(run_opts(cut, small_sweep, &r, &diag), RTP_OK);
    assert_int_not_equal(access(partial, F_OK), 0);
    again = slurp(path);
    assert_string_equal(full, again);
    free(again);
    free(full);
    remove_tree(root);
}

typedef struct first_tally {
    int seen;
    uint64_t sets_total;
} first_tally;

static void keep_first(void *ctx, const rtp_explore_tally *t)
{
    first_tally *f = ctx;
    if (!f->seen++)
        f->sets_total = t->sets_total;
}

/* Resumes small_sweep (12 sets per point) from a results.csv cut after
 * `points` whole points (2 policies x 2 methods: 4 rows each) and a journal
 * naming point 0 that holds point 0's set 3 and the next point's set 5
 * (INDEX 12 + 5), with 2 threads: the sets the resume has left at its
 * start, and whether results.csv is then the uninterrupted run's. */
static uint64_t resume_from_journal(size_t points, int *same)
{
    char root[] = "/tmp/rtp_explore_XXXXXX";
    assert_non_null(mkdtemp(root));
    char dir[600], path[700], partial[700];
    snprintf(dir, sizeof dir, "%s/j", root);
    snprintf(path, sizeof path, "%s/results.csv", dir);
    snprintf(partial, sizeof partial, "%s/partial.txt", dir);
    char *full = whole_run(dir, small_sweep);
    const char *cut = strchr(full, '\n') + 1;
    for (size_t row = 0; row < 4 * points; row++)
        cut = strchr(cut, '\n') + 1;
    FILE *f = fopen(path, "w");
    fwrite(full, 1, (size_t)(cut - full), f);
    fclose(f);
    f = fopen(partial, "w");
    fputs("rtpack-explore-partial 1 point 0 5,2,0.6,implicit\n", f);
    fputs("3 1 1 1 1 5 5 5 5\n17 1 1 1 1 5 5 5 5\n", f);
    fclose(f);
    first_tally t = {0, 0};
    rtp_explore_opts o = {.threads = 2, .resume = 1, .progress = keep_first, .progress_ctx = &t};
    rtp_diag diag;
    assert_int_equal(run_opts(dir, small_sweep, &o, &diag), RTP_OK);
    assert_int_not_equal(access(partial, F_OK), 0); /* removed after the last point */
    char *again = slurp(path);
    *same = strcmp(again, full) == 0;
    free(again);
    free(full);
    remove_tree(root);
    return t.sets_total;
}

/* The next point's sets start while the oldest point's last ones finish, so
 * the journal also holds sets of the next point (INDEX = sets_per_point +
 * its index): --resume takes both points' sets. */
static void test_resume_takes_the_next_points_sets(void **state)
{
    (void)state;
    int same = 0;
    assert_int_equal(resume_from_journal(0, &same), 8 * 12 - 2); /* both lines taken */
    assert_true(same);
}

/* A crash after a point's rows were written, before the journal was
 * rewritten for the next point (rev10d): the journal still names the
 * finished point; --resume takes its lines of the next point (INDEX >=
 * sets_per_point) and drops the finished point's, and the results are the
 * uninterrupted run's. */
static void test_resume_after_commit_before_rewrite(void **state)
{
    (void)state;
    int same = 0;
    assert_int_equal(resume_from_journal(1, &same), 7 * 12 - 1); /* point 1's line taken */
    assert_true(same);
}

/* The lines of DIR/partial.txt that hold the next point's sets (INDEX >=
 * 12, small_sweep's sets per point). */
FILE *__real_fopen(const char *path, const char *mode);

static int next_point_lines(const char *dir)
{
    char path[700], line[200];
    snprintf(path, sizeof path, "%s/partial.txt", dir);
    FILE *f = __real_fopen(path, "r");
    int n = 0;
    while (f && fgets(line, sizeof line, f))
        n += line[0] != 'r' && strtoul(line, NULL, 10) >= 12;
    if (f)
        fclose(f);
    return n;
}

/* fopen, wrapped in this program (-Wl,--wrap=fopen, tests/CMakeLists.txt):
 * in the child of test_crash_inside_the_journal_rewrite (RTP_TEST_CRASH_DIR
 * set), the first time the journal's rewrite at a point's end opens a file
 * for writing while the journal holds sets of the next point, the process
 * writes their count to DIR.lines and dies there (SIGKILL), as a kill -9 or a
 * power loss would take it. */
FILE *__wrap_fopen(const char *path, const char *mode);
FILE *__wrap_fopen(const char *path, const char *mode)
{
    const char *dir = getenv("RTP_TEST_CRASH_DIR");
    int lines = 0;
    if (dir && mode[0] == 'w' && strncmp(path, dir, strlen(dir)) == 0 &&
        strstr(path, "/partial.txt"))
        lines = next_point_lines(dir);
    FILE *f = __real_fopen(path, mode);
    if (f && lines > 0) {
        char note[700];
        snprintf(note, sizeof note, "%s.lines", dir);
        FILE *n = __real_fopen(note, "w");
        if (n) {
            fprintf(n, "%d\n", lines);
            fclose(n);
        }
        raise(SIGKILL);
    }
    return f;
}

/* The child's run (main with --crash-run DIR): small_sweep, 2 threads. */
static int crash_run(const char *dir)
{
    rtp_explore_opts o = {.threads = 2, .force = 1};
    rtp_diag diag;
    return run_opts(dir, small_sweep, &o, &diag) == RTP_OK ? 0 : 1;
}

/* A crash inside the journal's rewrite at a point's end (in the child, with
 * 2 threads, when the journal holds finished sets of the next point): the
 * journal on disk is the old one or the new one, never one the rewrite had
 * emptied, so --resume takes every next-point set the journal held (before
 * the rewrite was atomic it took none) and results.csv is the uninterrupted
 * run's. A run whose rewrites all came before any next-point set finished
 * is tried again. */
static void test_crash_inside_the_journal_rewrite(void **state)
{
    (void)state;
    char root[] = "/tmp/rtp_explore_XXXXXX";
    assert_non_null(mkdtemp(root));
    char one[600], dir[600], path[700], note[700], env[700];
    snprintf(one, sizeof one, "%s/one", root);
    snprintf(dir, sizeof dir, "%s/crash", root);
    snprintf(note, sizeof note, "%s.lines", dir);
    snprintf(env, sizeof env, "RTP_TEST_CRASH_DIR=%s", dir);
    char *full = whole_run(one, small_sweep);
    int killed = 0;
    for (int attempt = 0; attempt < 20 && !killed; attempt++) {
        char name[] = "test_explore", flag[] = "--crash-run";
        char *argv[] = {name, flag, dir, NULL}, *envp[] = {env, NULL};
        pid_t pid;
        int status;
        assert_int_equal(posix_spawn(&pid, "/proc/self/exe", NULL, NULL, argv, envp), 0);
        assert_int_equal(waitpid(pid, &status, 0), pid);
        killed = WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
        if (!killed)
            assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    }
    assert_true(killed);
    char *text = slurp(note);
    uint64_t lines = strtoull(text, NULL, 10);
    free(text);
    snprintf(path, sizeof path, "%s/results.csv", dir);
    uint64_t points_written = (count_lines(path) - 1) / 4; /* 2 policies x 2 methods */
    first_tally t = {0, 0};
    rtp_explore_opts o = {.threads = 2, .resume = 1, .progress = keep_first, .progress_ctx = &t};
    rtp_diag diag;
    assert_int_equal(run_opts(dir, small_sweep, &o, &diag), RTP_OK);
    assert_int_equal(t.sets_total, (8 - points_written) * 12 - lines);
    char *again = slurp(path);
    assert_string_equal(full, again);
    snprintf(path, sizeof path, "%s/partial.txt.new", dir);
    assert_int_not_equal(access(path, F_OK), 0); /* the crash's leftover is gone */
    free(again);
    free(full);
    remove_tree(root);
}

/* --set-time-limit: a method past its limit is a time-out, never a
 * rejection; the limit is in the manifest, and resume with another is
 * refused. The deadline itself stops the exact tests. */
static void test_set_time_limit(void **state)
{
    (void)state;
    rtp_task t[3] = {{0}};
    for (int i = 0; i < 3; i++) {
        t[i].wcet_ns = 3 + i;
        t[i].period_ns = t[i].deadline_ns = 10 + 3 * i;
    }
    rtp_limits lim = rtp_limits_default();
    rtp_edf_result er;
    rtp_diag diag;
    assert_int_equal(rtp_edf_qpa(t, 3, 1, &lim, &er, &diag), RTP_OK);
    lim.deadline_ns = 1; /* long past */
    assert_int_equal(rtp_edf_qpa(t, 3, 1, &lim, &er, &diag), RTP_ELIMIT);
    assert_string_equal(diag.message, "time limit reached");
    lim.deadline_ns = rtp_monotonic_ns() + 3600 * (rtp_ns)1000000000;
    volatile sig_atomic_t stop = 1;
    lim.interrupt = &stop;
    int prio[3], sched;
    rtp_ns resp[3];
    assert_int_equal(rtp_fp_rta(t, 3, prio, resp, &sched, &lim, &diag), RTP_ELIMIT);
    assert_string_equal(diag.message, "interrupted");
    stop = 0;
    for (int i = 0; i < 3; i++)
        prio[i] = 3 - i;
    assert_int_equal(rtp_fp_rta(t, 3, prio, resp, &sched, &lim, &diag), RTP_OK);

    char root[] = "/tmp/rtp_explore_XXXXXX";
    assert_non_null(mkdtemp(root));
    char dir[600], path[700];
    snprintf(dir, sizeof dir, "%s/limited", root);
    rtp_explore_opts o = {.threads = 2, .set_time_limit_ns = 1};
    assert_int_equal(run_opts(dir, small_sweep, &o, &diag), RTP_OK);
    snprintf(path, sizeof path, "%s/results.csv", dir);
    char *text = slurp(path);
    /* Every row: accepted 0, timeouts = total = 12. */
    size_t rows = count_lines(path) - 1;
    char *line = strchr(text, '\n') + 1;
    for (size_t i = 0; i < rows; i++, line = strchr(line, '\n') + 1) {
        char *end = strchr(line, '\n');
        assert_true(end - line > 18);
        assert_memory_equal(end - 17, ",0,12,0.000000,12\n", 18);
    }
    assert_int_equal(rows, 2 * 4 * 2 * 2);
    free(text);
    snprintf(path, sizeof path, "%s/manifest.txt", dir);
    text = slurp(path);
    assert_non_null(strstr(text, "\nset_time_limit_ns 1\n"));
    free(text);
    rtp_explore_opts r = {.threads = 1, .resume = 1, .set_time_limit_ns = 2};
    assert_int_equal(run_opts(dir, small_sweep, &r, &diag), RTP_EINPUT);
    assert_non_null(strstr(diag.message, "--set-time-limit"));
    remove_tree(root);
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--crash-run") == 0)
        return crash_run(argv[2]);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_doc_errors),
        cmocka_unit_test(test_doc_resource_errors),
        cmocka_unit_test(test_sweep_resource_points),
        cmocka_unit_test(test_doc_utilizations_exact),
        cmocka_unit_test(test_sweep_points),
        cmocka_unit_test(test_sweep_names_in_step),
        cmocka_unit_test(test_point_thread_invariance),
        cmocka_unit_test(test_uniprocessor_edf_accepts_all),
        cmocka_unit_test(test_ffd_below_ilp_and_falling),
        cmocka_unit_test(test_resume_and_merge),
        cmocka_unit_test(test_resources_shards_and_resume),
        cmocka_unit_test(test_interrupt_and_resume_inside_a_point),
        cmocka_unit_test(test_resume_takes_the_next_points_sets),
        cmocka_unit_test(test_resume_after_commit_before_rewrite),
        cmocka_unit_test(test_crash_inside_the_journal_rewrite),
        cmocka_unit_test(test_set_time_limit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
