/* tests/test_taskset.c — the task-set reader and writer (models/taskset.h,
 * docs/spec.md "Task-set document"): one test per bad input with the exact
 * JSON path the contract expects, the valid corner cases, time_unit
 * scaling, exact round trips (parse -> to_json -> parse gives identical
 * tasks) on seeded random sets with times past 2^53, and
 * rtp_taskset_cpu_ids.
 *
 * Tests named regression_* pin defects found in review (now fixed). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "models/taskset.h"
#include "support/testutil.h"


#define INT_LIMIT ((rtp_ns)1 << 53) /* bare JSON integers stay below */

static int parse(const char *json, rtp_taskset *ts, rtp_diag *d)
{
    rtp_diag_clear(d);
    return rtp_taskset_parse_json(json, strlen(json), ts, d);
}

/* Bad input: RTP_EINPUT, exactly `path`, a message, and *out left zeroed. */
static void bad_at(const char *json, const char *path)
{
    rtp_taskset ts;
    memset(&ts, 0x5a, sizeof ts);
    rtp_diag d;
    rtp_status st = parse(json, &ts, &d);
    if (st != RTP_EINPUT || strcmp(d.path, path) != 0 || d.message[0] == '\0')
        fail_msg("%s\n  want RTP_EINPUT at \"%s\", got status %d at \"%s\": %s", json, path,
                 (int)st, d.path, d.message);
    rtp_taskset zero;
    memset(&zero, 0, sizeof zero);
    if (memcmp(&ts, &zero, sizeof ts) != 0)
        fail_msg("%s\n  *out not zeroed after an error", json);
    if (strchr(d.message, '\n') || strchr(d.path, '\n'))
        fail_msg("%s\n  diagnostic is not one line: %s", json, d.message);
}

/* bad_at with exactly `message` too. */
static void bad_says(const char *json, const char *path, const char *message)
{
    bad_at(json, path);
    rtp_taskset ts;
    rtp_diag d;
    assert_int_equal(parse(json, &ts, &d), RTP_EINPUT);
    if (strcmp(d.message, message) != 0)
        fail_msg("%s\n  want \"%s\", got \"%s\"", json, message, d.message);
}

/* Valid input: parses, one task set handed back to the caller. */
static void good(const char *json, rtp_taskset *ts)
{
    rtp_diag d;
    rtp_status st = parse(json, ts, &d);
    if (st != RTP_OK)
        fail_msg("%s\n  want RTP_OK, got %d at \"%s\": %s", json, (int)st, d.path, d.message);
}

/* A task set with one task whose members are `members` (after the name). */
static const char *one_task(const char *members)
{
    static char buf[1024];
    snprintf(buf, sizeof buf, "{\"tasks\": [{\"name\": \"a\", %s}]}", members);
    return buf;
}

static void test_not_json(void **state)
{
    (void)state;
    rtp_taskset ts;
    rtp_diag d;
    assert_int_equal(parse("{\"tasks\": [\n  {\"name\": }\n]}", &ts, &d), RTP_EINPUT);
    assert_string_equal(d.path, "");
    assert_int_equal(d.line, 2);
    assert_int_equal(d.column, 12);
    assert_int_equal(parse("", &ts, &d), RTP_EINPUT);
    assert_int_equal(d.line, 1);
    assert_int_equal(parse("{\"tasks\": []} x", &ts, &d), RTP_EINPUT);
    assert_int_equal(d.line, 1);
    assert_int_equal(d.column, 15);
    assert_int_equal(parse("{\"tasks\": []}\n\n{}", &ts, &d), RTP_EINPUT);
    assert_int_equal(d.line, 3);
    assert_int_equal(d.column, 1);
    static const char *const broken[] = {
        "{",  "{\"tasks\": [}", "{\"tasks\": [],}", "{'tasks': []}", "{\"tasks\": [] /* c */}",
        "nul", "{\"tasks\": [{\"name\": \"a\", \"wcet\": 1, \"period\": 2,}]}",
    };
    for (size_t i = 0; i < sizeof broken / sizeof broken[0]; i++) {
        assert_int_equal(parse(broken[i], &ts, &d), RTP_EINPUT);
        assert_true(d.line >= 1 && d.column >= 1);
    }
    /* Not NUL-terminated: only `len` bytes are read. */
    const char text[] = "{\"tasks\": []}GARBAGE";
    assert_int_equal(rtp_taskset_parse_json(text, 13, &ts, &d), RTP_OK);
    rtp_taskset_free(&ts);
}

static void test_document_shape(void **state)
{
    (void)state;
    bad_at("[]", "");
    bad_at("5", "");
    bad_at("null", "");
    bad_at("{}", "tasks");
    bad_at("{\"tasks\": {}}", "tasks");
    bad_at("{\"tasks\": null}", "tasks");
    bad_at("{\"tasks\": [5]}", "tasks[0]");
    bad_at("{\"tasks\": [{\"name\": \"a\", \"wcet\": 1, \"period\": 2}, []]}", "tasks[1]");
    bad_at("{\"platfrom\": {\"cpus\": 2}, \"tasks\": []}", "platfrom");
    bad_at("{\"tasks\": [], \"Tasks\": []}", "Tasks");
    bad_at("{\"time_unit\": \"min\", \"tasks\": []}", "time_unit");
    bad_at("{\"time_unit\": \"MS\", \"tasks\": []}", "time_unit");
    bad_at("{\"time_unit\": 1, \"tasks\": []}", "time_unit");
    bad_at("{\"time_unit\": null, \"tasks\": []}", "time_unit");
}

static void test_missing_and_non_positive_times(void **state)
{
    (void)state;
    bad_at(one_task("\"period\": 4"), "tasks[0].wcet");
    bad_at(one_task("\"wcet\": 1"), "tasks[0].period");
    bad_at("{\"tasks\": [{\"name\": \"a\", \"wcet\": 1, \"period\": 2},"
           " {\"name\": \"b\", \"wcet\": 1}]}",
           "tasks[1].period");
    bad_at(one_task("\"wcet\": 0, \"period\": 4"), "tasks[0].wcet");
    bad_at(one_task("\"wcet\": -1, \"period\": 4"), "tasks[0].wcet");
    bad_at(one_task("\"wcet\": -0, \"period\": 4"), "tasks[0].wcet");
    bad_at(one_task("\"wcet\": \"0ms\", \"period\": 4"), "tasks[0].wcet");
    bad_at(one_task("\"wcet\": \"-5ms\", \"period\": 4"), "tasks[0].wcet");
    bad_at(one_task("\"wcet\": 1, \"period\": 0"), "tasks[0].period");
    bad_at(one_task("\"wcet\": 1, \"period\": -4"), "tasks[0].period");
    bad_at(one_task("\"wcet\": 1, \"period\": 4, \"deadline\": 0"), "tasks[0].deadline");
    bad_at(one_task("\"wcet\": 1, \"period\": 4, \"deadline\": -3"), "tasks[0].deadline");
    bad_at(one_task("\"wcet\": 1, \"period\": 4, \"deadline\": \"0s\""), "tasks[0].deadline");
    bad_at(one_task("\"wcet\": null, \"period\": 4"), "tasks[0].wcet");
    bad_at(one_task("\"wcet\": 1, \"period\": 4, \"deadline\": null"), "tasks[0].deadline");
}

static void test_fractional_and_big_times(void **state)
{
    (void)state;
    bad_at(one_task("\"wcet\": \"1.5ns\", \"period\": 4"), "tasks[0].wcet");
    bad_at(one_task("\"wcet\": 1.5, \"period\": 4"), "tasks[0].wcet");
    /* cJSON rounds this to 1.0; the reader must look at the token text. */
    bad_at(one_task("\"wcet\": 1.0000000000000001, \"period\": 4"), "tasks[0].wcet");
    bad_at(one_task("\"wcet\": 1, \"period\": 4.0000000000000001"), "tasks[0].period");
    bad_at(one_task("\"wcet\": 1, \"period\": \"1.0000000000000001ms\""), "tasks[0].period");
    bad_at(one_task("\"wcet\": 1, \"period\": \"4611686018427387905ns\""), "tasks[0].period");
    bad_at(one_task("\"wcet\": 1, \"period\": \"4611686018.427387905s\""), "tasks[0].period");
    bad_at(one_task("\"wcet\": 1, \"period\": \"99999999999999999999999ns\""), "tasks[0].period");
    /* bare integers of 2^53 or more */
    bad_at(one_task("\"wcet\": 1, \"period\": 9007199254740993"), "tasks[0].period");
    bad_at(one_task("\"wcet\": 1, \"period\": 9007199254740992"), "tasks[0].period");
    bad_at(one_task("\"wcet\": 1, \"period\": 18446744073709551617"), "tasks[0].period");
    bad_at(one_task("\"wcet\": -9007199254740993, \"period\": 4"), "tasks[0].wcet");
    /* a bare integer scaled by time_unit past 2^62 */
    bad_at("{\"time_unit\": \"s\", \"tasks\": [{\"name\": \"a\", \"wcet\": 1,"
           " \"period\": 4611686019}]}",
           "tasks[0].period");
    bad_at("{\"time_unit\": \"ms\", \"tasks\": [{\"name\": \"a\", \"wcet\": 1,"
           " \"period\": 9007199254740991}]}",
           "tasks[0].period");
    /* the largest values that are fine */
    rtp_taskset ts;
    good(one_task("\"wcet\": 9007199254740991, \"period\": \"4611686018427387904ns\""), &ts);
    assert_int_equal(ts.tasks[0].wcet_ns, 9007199254740991LL);
    assert_int_equal(ts.tasks[0].period_ns, RTP_NS_LIMIT);
    rtp_taskset_free(&ts);
    good("{\"time_unit\": \"s\", \"tasks\": [{\"name\": \"a\", \"wcet\": 1,"
         " \"period\": 4611686018}]}",
         &ts);
    assert_int_equal(ts.tasks[0].period_ns, 4611686018000000000LL);
    rtp_taskset_free(&ts);
}

/* Number forms that are whole but not plain digits ("1.0", "1e3", "01"):
 * The contract leaves it open whether they are accepted; either way the result
 * is never a wrong value. */
static void test_number_forms_never_wrong(void **state)
{
    (void)state;
    static const struct {
        const char *token;
        rtp_ns value;
    } forms[] = {{"1.0", 1}, {"1e3", 1000}, {"1E3", 1000}, {"10e-1", 1}, {"01", 1},
                 {"1.00000000000000000000000001", -1}, {"0.5e1", 5}, {"2e0", 2}};
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
        char members[128];
        snprintf(members, sizeof members, "\"wcet\": %s, \"period\": 10000", forms[i].token);
        rtp_taskset ts;
        rtp_diag d;
        rtp_status st = parse(one_task(members), &ts, &d);
        if (st == RTP_OK) {
            if (ts.tasks[0].wcet_ns != forms[i].value)
                fail_msg("%s read as %lld", forms[i].token, (long long)ts.tasks[0].wcet_ns);
            rtp_taskset_free(&ts);
        } else {
            assert_int_equal(st, RTP_EINPUT);
            assert_string_equal(d.path, "tasks[0].wcet");
        }
    }
}

static void test_booleans_and_wrong_types(void **state)
{
    (void)state;
    bad_at(one_task("\"wcet\": true, \"period\": 4"), "tasks[0].wcet");
    bad_at(one_task("\"wcet\": 1, \"period\": false"), "tasks[0].period");
    bad_at(one_task("\"wcet\": 1, \"period\": 4, \"deadline\": true"), "tasks[0].deadline");
    bad_at(one_task("\"wcet\": [1], \"period\": 4"), "tasks[0].wcet");
    bad_at(one_task("\"wcet\": {\"ms\": 1}, \"period\": 4"), "tasks[0].wcet");
    bad_at("{\"tasks\": [{\"name\": 5, \"wcet\": 1, \"period\": 4}]}", "tasks[0].name");
    bad_at("{\"tasks\": [{\"name\": \"\", \"wcet\": 1, \"period\": 4}]}", "tasks[0].name");
    bad_at("{\"tasks\": [{\"name\": null, \"wcet\": 1, \"period\": 4}]}", "tasks[0].name");
    bad_at("{\"tasks\": [{\"wcet\": 1, \"period\": 4}]}", "tasks[0].name");
    bad_at("{\"tasks\": [{\"name\": true, \"wcet\": 1, \"period\": 4}]}", "tasks[0].name");
}

static void test_unknown_and_duplicate_keys(void **state)
{
    (void)state;
    bad_at(one_task("\"wcet\": 1, \"perod\": 4"), "tasks[0].perod");
    bad_at(one_task("\"wcet\": 1, \"period\": 4, \"Period\": 4"), "tasks[0].Period");
    bad_at(one_task("\"wcet\": 1, \"period\": 4, \"response_time\": 1"),
           "tasks[0].response_time");
    bad_at("{\"tasks\": [{\"name\": \"a\", \"wcet\": 1, \"period\": 4},"
           " {\"name\": \"b\", \"wcet\": 1, \"period\": 4, \"wcet_ns\": 1}]}",
           "tasks[1].wcet_ns");
    bad_at(one_task("\"wcet\": 1, \"period\": 4, \"wcet\": 2"), "tasks[0].wcet");
    bad_at(one_task("\"wcet\": 1, \"period\": 4, \"period\": 4"), "tasks[0].period");
    bad_at("{\"tasks\": [], \"tasks\": []}", "tasks");
    bad_at("{\"time_unit\": \"ns\", \"time_unit\": \"ns\", \"tasks\": []}", "time_unit");
    bad_at("{\"platform\": {\"cpus\": 2, \"cpus\": 2}, \"tasks\": []}", "platform.cpus");
    bad_at("{\"tasks\": [{\"name\": \"a\", \"wcet\": 1, \"period\": 4},"
           " {\"name\": \"b\", \"name\": \"c\", \"wcet\": 1, \"period\": 4}]}",
           "tasks[1].name");
}

/* A task set of n tasks t0, t1, ...; the last one named t0 when dup. */
static char *named_tasks(size_t n, int dup)
{
    size_t size = 64 * n + 64, used = 0;
    char *json = malloc(size);
    assert_non_null(json);
    used += (size_t)snprintf(json, size, "{\"tasks\": [");
    for (size_t i = 0; i < n; i++)
        used += (size_t)snprintf(json + used, size - used,
                                 "%s{\"name\": \"t%zu\", \"wcet\": 1, \"period\": 9}",
                                 i ? ", " : "", dup && i + 1 == n ? 0 : i);
    snprintf(json + used, size - used, "]}");
    return json;
}

static void test_duplicate_task_names(void **state)
{
    (void)state;
    bad_at("{\"tasks\": [{\"name\": \"x\", \"wcet\": 1, \"period\": 4},"
           " {\"name\": \"y\", \"wcet\": 1, \"period\": 4},"
           " {\"name\": \"x\", \"wcet\": 1, \"period\": 4}]}",
           "tasks[2].name");
    bad_at("{\"tasks\": [{\"name\": \"x\", \"wcet\": 1, \"period\": 4},"
           " {\"name\": \"x\", \"wcet\": 1, \"period\": 4}]}",
           "tasks[1].name");
    /* names differ in case only: distinct */
    rtp_taskset ts;
    good("{\"tasks\": [{\"name\": \"x\", \"wcet\": 1, \"period\": 4},"
         " {\"name\": \"X\", \"wcet\": 1, \"period\": 4}]}",
         &ts);
    assert_int_equal(ts.n_tasks, 2);
    rtp_taskset_free(&ts);
    /* the name set sits in a stack buffer up to 127 tasks and on the heap
     * past it: a duplicate at the end is found on both sides, and distinct
     * names are accepted */
    static const size_t counts[] = {126, 127, 128, 129, 400};
    for (size_t k = 0; k < sizeof counts / sizeof *counts; k++) {
        char path[32];
        snprintf(path, sizeof path, "tasks[%zu].name", counts[k] - 1);
        char *json = named_tasks(counts[k], 1);
        bad_at(json, path);
        free(json);
        json = named_tasks(counts[k], 0);
        good(json, &ts);
        assert_int_equal(ts.n_tasks, counts[k]);
        rtp_taskset_free(&ts);
        free(json);
    }
}

static void test_platform(void **state)
{
    (void)state;
    static const char *const t = "\"tasks\": []";
    char buf[512];
#define PF(platform) (snprintf(buf, sizeof buf, "{\"platform\": %s, %s}", platform, t), buf)
    bad_at(PF("{\"cpus\": 0}"), "platform.cpus");
    bad_at(PF("{\"cpus\": -1}"), "platform.cpus");
    bad_at(PF("{\"cpus\": 1.5}"), "platform.cpus");
    bad_at(PF("{\"cpus\": true}"), "platform.cpus");
    bad_at(PF("{\"cpus\": \"4\"}"), "platform.cpus");
    bad_at(PF("{\"cpus\": 9007199254740993}"), "platform.cpus");
    bad_at(PF("{\"cpus\": []}"), "platform.cpus");
    bad_at(PF("{\"cpus\": [0, 0]}"), "platform.cpus[1]");
    bad_at(PF("{\"cpus\": [2, 3, 6, 3]}"), "platform.cpus[3]");
    bad_at(PF("{\"cpus\": [-1]}"), "platform.cpus[0]");
    bad_at(PF("{\"cpus\": [0, \"1\"]}"), "platform.cpus[1]");
    bad_at(PF("{\"cpus\": [0, 1.5]}"), "platform.cpus[1]");
    bad_at(PF("{\"cpus\": [[0]]}"), "platform.cpus[0]");
    bad_at(PF("{\"clusters\": [[0]]}"), "platform.cpus");
    bad_at(PF("[0, 1]"), "platform");
    bad_at(PF("4"), "platform");
    bad_at(PF("{\"cpus\": 2, \"cpu\": 2}"), "platform.cpu");
    bad_at(PF("{\"cpus\": 4, \"clusters\": [[0, 1], [1, 2]]}"), "platform.clusters[1][0]");
    bad_at(PF("{\"cpus\": 4, \"clusters\": [[0, 1], [2, 3, 0]]}"), "platform.clusters[1][2]");
    bad_at(PF("{\"cpus\": 4, \"clusters\": [[0, 5]]}"), "platform.clusters[0][1]");
    bad_at(PF("{\"cpus\": [2, 3], \"clusters\": [[0]]}"), "platform.clusters[0][0]");
    bad_at(PF("{\"cpus\": 4, \"clusters\": []}"), "platform.clusters");
    bad_at(PF("{\"cpus\": 4, \"clusters\": [[]]}"), "platform.clusters[0]");
    bad_at(PF("{\"cpus\": 4, \"clusters\": [0, 1]}"), "platform.clusters[0]");
    bad_at(PF("{\"cpus\": 4, \"clusters\": [[0, 0]]}"), "platform.clusters[0][1]");
    bad_at(PF("{\"cpus\": 4, \"clusters\": {\"a\": [0]}}"), "platform.clusters");

    rtp_taskset ts;
    /* platform.cpus is optional: overheads alone (or nothing) are a platform */
    good(PF("{}"), &ts);
    assert_true(ts.has_platform && ts.platform.n_cpus == 0 && ts.platform.cpus == NULL);
    char *back = rtp_taskset_to_json(&ts, 0);
    assert_non_null(back);
    assert_null(strstr(back, "cpus"));
    free(back);
    rtp_taskset_free(&ts);
    good(PF("{\"overheads\": {\"context_switch\": 3}}"), &ts);
    assert_true(ts.platform.has_overheads && ts.platform.n_cpus == 0);
    assert_int_equal(ts.platform.overheads.context_switch_ns, 3);
    rtp_taskset_free(&ts);
    good(PF("{\"cpus\": 4}"), &ts);
    assert_true(ts.has_platform && ts.platform.cpus_given_as_count);
    assert_int_equal(ts.platform.n_cpus, 4);
    for (int i = 0; i < 4; i++)
        assert_int_equal(ts.platform.cpus[i], i);
    rtp_taskset_free(&ts);
    good(PF("{\"cpus\": [2, 3, 6, 7], \"clusters\": [[2, 3], [7]]}"), &ts);
    assert_false(ts.platform.cpus_given_as_count);
    assert_int_equal(ts.platform.n_cpus, 4);
    assert_int_equal(ts.platform.cpus[2], 6);
    assert_int_equal(ts.platform.n_clusters, 2);
    assert_int_equal(ts.platform.cluster_len[0], 2);
    assert_int_equal(ts.platform.clusters[0][1], 3);
    assert_int_equal(ts.platform.clusters[1][0], 7);
    rtp_taskset_free(&ts);
#undef PF
}

static void test_cmd_affinity_priority(void **state)
{
    (void)state;
    bad_at(one_task("\"wcet\": 1, \"period\": 4, \"cmd\": \"\""), "tasks[0].cmd");
    bad_at(one_task("\"wcet\": 1, \"period\": 4, \"cmd\": []"), "tasks[0].cmd");
    bad_at(one_task("\"wcet\": 1, \"period\": 4, \"cmd\": 5"), "tasks[0].cmd");
    bad_at(one_task("\"wcet\": 1, \"period\": 4, \"cmd\": null"), "tasks[0].cmd");
    bad_at(one_task("\"wcet\": 1, \"period\": 4, \"cmd\": {\"a\": \"b\"}"), "tasks[0].cmd");
    bad_at(one_task("\"wcet\": 1, \"period\": 4, \"cmd\": [\"\"]"), "tasks[0].cmd[0]");
    bad_at(one_task("\"wcet\": 1, \"period\": 4, \"cmd\": [1]"), "tasks[0].cmd[0]");
    bad_at(one_task("\"wcet\": 1, \"period\": 4, \"cmd\": [\"a\", 2]"), "tasks[0].cmd[1]");
    bad_at(one_task("\"wcet\": 1, \"period\": 4, \"cmd\": [\"a\", [\"b\"]]"), "tasks[0].cmd[1]");
    bad_at(one_task("\"wcet\": 1, \"period\": 4, \"affinity\": []"), "tasks[0].affinity");
    bad_at(one_task("\"wcet\": 1, \"period\": 4, \"affinity\": 0"), "tasks[0].affinity");
    bad_at(one_task("\"wcet\": 1, \"period\": 4, \"affinity\": \"0-3\""), "tasks[0].affinity");
    bad_at(one_task("\"wcet\": 1, \"period\": 4, \"affinity\": [0, 0]"), "tasks[0].affinity[1]");
    bad_at(one_task("\"wcet\": 1, \"period\": 4, \"affinity\": [-1]"), "tasks[0].affinity[0]");
    bad_at(one_task("\"wcet\": 1, \"period\": 4, \"affinity\": [\"1\"]"), "tasks[0].affinity[0]");
    bad_at(one_task("\"wcet\": 1, \"period\": 4, \"affinity\": [true]"), "tasks[0].affinity[0]");
    bad_at(one_task("\"wcet\": 1, \"period\": 4, \"priority\": \"1\""), "tasks[0].priority");
    bad_at(one_task("\"wcet\": 1, \"period\": 4, \"priority\": 1.5"), "tasks[0].priority");
    bad_at(one_task("\"wcet\": 1, \"period\": 4, \"priority\": true"), "tasks[0].priority");
    bad_at(one_task("\"wcet\": 1, \"period\": 4, \"priority\": -1"), "tasks[0].priority");
    bad_at(one_task("\"wcet\": 1, \"period\": 4, \"priority\": null"), "tasks[0].priority");
    bad_at(one_task("\"wcet\": 1, \"period\": 4, \"priority\": 9007199254740993"),
           "tasks[0].priority");

    rtp_taskset ts;
    good(one_task("\"wcet\": 1, \"period\": 4, \"cmd\": \"sleep 1 && echo hi\","
                  " \"affinity\": [3, 1], \"priority\": 7"),
         &ts);
    rtp_task *a = &ts.tasks[0];
    assert_int_equal(a->cmd_len, 1);
    assert_true(a->cmd_is_string);
    assert_string_equal(a->cmd[0], "sleep 1 && echo hi");
    assert_int_equal(a->affinity_len, 2);
    assert_int_equal(a->affinity[0], 3);
    assert_int_equal(a->affinity[1], 1);
    assert_true(a->has_priority);
    assert_int_equal(a->priority, 7);
    rtp_taskset_free(&ts);
    good(one_task("\"wcet\": 1, \"period\": 4, \"cmd\": [\"tool\", \" \", \"--fast\"]"), &ts);
    a = &ts.tasks[0];
    assert_int_equal(a->cmd_len, 3);
    assert_false(a->cmd_is_string);
    assert_string_equal(a->cmd[1], " ");
    assert_string_equal(a->cmd[2], "--fast");
    assert_null(a->affinity);
    assert_false(a->has_priority);
    rtp_taskset_free(&ts);
    /* Every word non-empty, a string not blank. */
    bad_says(one_task("\"wcet\": 1, \"period\": 4, \"cmd\": [\"tool\", \"\", \"--fast\"]"),
             "tasks[0].cmd[1]", "must not be empty");
    bad_says(one_task("\"wcet\": 1, \"period\": 4, \"cmd\": \"   \""), "tasks[0].cmd",
             "holds only spaces: no command to launch");
}

/* Every CPU list of a task set (platform.cpus, platform.clusters[k],
 * tasks[i].affinity) follows one rule, docs/spec.md "Task-set document":
 * a non-empty list of distinct ids in 0..4095 (models/json_util.h,
 * RTP_CPUS_NONEMPTY | RTP_CPUS_DISTINCT), said the same way at each place. */
static const char *cpu_list_at(int place, const char *list)
{
    static char json[256];
    if (place == 0)
        snprintf(json, sizeof json, "{\"platform\": {\"cpus\": %s}, \"tasks\": []}", list);
    else if (place == 1)
        snprintf(json, sizeof json,
                 "{\"platform\": {\"cpus\": 8, \"clusters\": [[0], %s]}, \"tasks\": []}", list);
    else
        snprintf(json, sizeof json, "{\"tasks\": [{\"name\": \"a\", \"wcet\": 1, \"period\": 4, "
                 "\"affinity\": %s}]}", list);
    return json;
}

static void test_cpu_list_rules(void **state)
{
    (void)state;
    static const char *const at[3] = {"platform.cpus", "platform.clusters[1]",
                                      "tasks[0].affinity"};
    char path[64];
    for (int k = 0; k < 3; k++) {
        bad_says(cpu_list_at(k, "[]"), at[k], "must not be empty");
        snprintf(path, sizeof path, "%s[2]", at[k]);
        bad_says(cpu_list_at(k, "[1, 3, 1]"), path, "CPU 1 is listed twice");
        snprintf(path, sizeof path, "%s[1]", at[k]);
        bad_says(cpu_list_at(k, "[1, 4096]"), path, "must be between 0 and 4095");
        bad_says(cpu_list_at(k, "{}"), at[k], k == 0 ? "must be a CPU count or a list of CPU ids"
                                                     : "must be a list of CPU ids");
        rtp_taskset ts;
        good(cpu_list_at(k, "[3, 1]"), &ts);
        const int *ids = k == 0 ? ts.platform.cpus
                         : k == 1 ? ts.platform.clusters[1] : ts.tasks[0].affinity;
        assert_int_equal(ids[0], 3);
        assert_int_equal(ids[1], 1);
        rtp_taskset_free(&ts);
    }
}

static void test_valid_corner_cases(void **state)
{
    (void)state;
    rtp_taskset ts;
    good("{\"tasks\": []}", &ts); /* empty task list: valid */
    assert_int_equal(ts.n_tasks, 0);
    assert_false(ts.has_platform);
    assert_int_equal(ts.time_unit_ns, 1);
    rtp_taskset_free(&ts);
    /* wcet > deadline: valid (simply unschedulable); deadlines default to
     * the period; constrained and arbitrary deadlines. */
    good("{\"tasks\": [{\"name\": \"late\", \"wcet\": \"20ms\", \"deadline\": \"10ms\","
         " \"period\": \"30ms\"}, {\"name\": \"imp\", \"wcet\": 1, \"period\": 7},"
         " {\"name\": \"arb\", \"wcet\": 2, \"deadline\": 9, \"period\": 5}]}",
         &ts);
    assert_int_equal(ts.n_tasks, 3);
    assert_string_equal(ts.tasks[0].name, "late");
    assert_int_equal(ts.tasks[0].wcet_ns, 20000000);
    assert_int_equal(ts.tasks[0].deadline_ns, 10000000);
    assert_int_equal(ts.tasks[0].period_ns, 30000000);
    assert_int_equal(ts.tasks[1].deadline_ns, 7);
    assert_int_equal(ts.tasks[2].deadline_ns, 9);
    rtp_taskset_free(&ts);
    /* docs/spec.md's own example */
    good("{\"time_unit\": \"ns\", \"platform\": { \"cpus\": 4 }, \"tasks\": ["
         "{ \"name\": \"video\", \"wcet\": \"5ms\", \"deadline\": \"10ms\","
         " \"period\": \"16666666ns\", \"cmd\": [\"video_processing_tool\", \"--fast\"] },"
         "{ \"name\": \"T1\", \"wcet\": 1, \"period\": 4 } ] }",
         &ts);
    assert_int_equal(ts.tasks[0].period_ns, 16666666);
    assert_int_equal(ts.tasks[0].deadline_ns, 10000000);
    assert_int_equal(ts.tasks[1].wcet_ns, 1);
    rtp_taskset_free(&ts);
    /* names are arbitrary UTF-8 with escapes */
    good("{\"tasks\": [{\"name\": \"caf\\u00e9 \\\"q\\\" \\\\\", \"wcet\": 1, \"period\": 4}]}",
         &ts);
    assert_string_equal(ts.tasks[0].name, "caf\xc3\xa9 \"q\" \\");
    rtp_taskset_free(&ts);
}

static void test_time_unit_scaling(void **state)
{
    (void)state;
    static const struct {
        const char *unit;
        rtp_ns ns;
    } units[] = {{"ns", 1}, {"us", 1000}, {"ms", 1000000}, {"s", 1000000000}};
    for (size_t i = 0; i < 4; i++) {
        char json[256];
        snprintf(json, sizeof json,
                 "{\"time_unit\": \"%s\", \"tasks\": [{\"name\": \"a\", \"wcet\": 3,"
                 " \"deadline\": 7, \"period\": \"5ms\"}]}",
                 units[i].unit);
        rtp_taskset ts;
        good(json, &ts);
        assert_int_equal(ts.time_unit_ns, units[i].ns);
        assert_int_equal(ts.tasks[0].wcet_ns, 3 * units[i].ns);
        assert_int_equal(ts.tasks[0].deadline_ns, 7 * units[i].ns);
        assert_int_equal(ts.tasks[0].period_ns, 5000000); /* strings keep their own unit */
        /* written back in ns, read back identical */
        char *text = rtp_taskset_to_json(&ts, 1);
        assert_non_null(text);
        assert_non_null(strstr(text, "\"time_unit\":\t\"ns\""));
        rtp_taskset back;
        good(text, &back);
        assert_int_equal(back.tasks[0].wcet_ns, ts.tasks[0].wcet_ns);
        assert_int_equal(back.tasks[0].deadline_ns, ts.tasks[0].deadline_ns);
        free(text);
        rtp_taskset_free(&back);
        rtp_taskset_free(&ts);
    }
}

/* ---- round trips ---- */

static void assert_same_task(const rtp_task *a, const rtp_task *b)
{
    assert_string_equal(a->name, b->name);
    assert_int_equal(a->wcet_ns, b->wcet_ns);
    assert_int_equal(a->deadline_ns, b->deadline_ns);
    assert_int_equal(a->period_ns, b->period_ns);
    assert_int_equal(a->cmd_len, b->cmd_len);
    assert_int_equal(a->cmd_is_string, b->cmd_is_string);
    assert_int_equal(a->cmd == NULL, b->cmd == NULL);
    for (size_t i = 0; i < a->cmd_len; i++)
        assert_string_equal(a->cmd[i], b->cmd[i]);
    assert_int_equal(a->affinity_len, b->affinity_len);
    assert_int_equal(a->affinity == NULL, b->affinity == NULL);
    for (size_t i = 0; i < a->affinity_len; i++)
        assert_int_equal(a->affinity[i], b->affinity[i]);
    assert_int_equal(a->has_priority, b->has_priority);
    assert_int_equal(a->priority, b->priority);
}

static void assert_same_set(const rtp_taskset *a, const rtp_taskset *b)
{
    assert_int_equal(a->n_tasks, b->n_tasks);
    for (size_t i = 0; i < a->n_tasks; i++)
        assert_same_task(&a->tasks[i], &b->tasks[i]);
    assert_int_equal(a->has_platform, b->has_platform);
    assert_int_equal(a->platform.n_cpus, b->platform.n_cpus);
    assert_int_equal(a->platform.cpus_given_as_count, b->platform.cpus_given_as_count);
    for (size_t i = 0; i < a->platform.n_cpus; i++)
        assert_int_equal(a->platform.cpus[i], b->platform.cpus[i]);
    assert_int_equal(a->platform.n_clusters, b->platform.n_clusters);
    for (size_t k = 0; k < a->platform.n_clusters; k++) {
        assert_int_equal(a->platform.cluster_len[k], b->platform.cluster_len[k]);
        for (size_t j = 0; j < a->platform.cluster_len[k]; j++)
            assert_int_equal(a->platform.clusters[k][j], b->platform.clusters[k][j]);
    }
}

static rtp_ns random_time(tu_rng *rng)
{
    switch (tu_range(rng, 0, 3)) {
    case 0: return tu_range(rng, 1, 1000);
    case 1: return tu_range(rng, 1, INT_LIMIT - 1);
    case 2: return tu_range(rng, (int64_t)1 << 53, RTP_NS_LIMIT); /* written as a string */
    default: return tu_range(rng, 1, 100000) * 1000000;
    }
}

/* Builds a random document text with times in random forms (bare integers
 * in time_unit, unit strings, decimals), and the expected values. */
static void random_document(tu_rng *rng, char *json, size_t size, rtp_ns *want, size_t *n)
{
    static const char *const unit_names[] = {"ns", "us", "ms", "s"};
    static const rtp_ns unit_ns[] = {1, 1000, 1000000, 1000000000};
    int tu = (int)tu_range(rng, 0, 3);
    size_t used = (size_t)snprintf(json, size, "{\"time_unit\": \"%s\", ", unit_names[tu]);
    if (tu_range(rng, 0, 1))
        used += (size_t)snprintf(json + used, size - used,
                                 "\"platform\": {\"cpus\": [5, 1, 9], \"clusters\": [[9], [1, 5]]}, ");
    used += (size_t)snprintf(json + used, size - used, "\"tasks\": [");
    *n = (size_t)tu_range(rng, 0, 6);
    for (size_t i = 0; i < *n; i++) {
        used += (size_t)snprintf(json + used, size - used, "%s{\"name\": \"t%zu\"", i ? ", " : "", i);
        static const char *const keys[] = {"wcet", "deadline", "period"};
        for (int k = 0; k < 3; k++) {
            rtp_ns v = random_time(rng);
            want[3 * i + (size_t)k] = v;
            int form = (int)tu_range(rng, 0, 2);
            if (form == 0 && v % unit_ns[tu] == 0 && v / unit_ns[tu] < INT_LIMIT - 1)
                used += (size_t)snprintf(json + used, size - used, ", \"%s\": %lld", keys[k],
                                         (long long)(v / unit_ns[tu]));
            else if (form == 1 && v % 1000 == 0)
                used += (size_t)snprintf(json + used, size - used, ", \"%s\": \"%lld.%03lldms\"",
                                         keys[k], (long long)(v / 1000000),
                                         (long long)(v / 1000 % 1000));
            else if (form == 2)
                used += (size_t)snprintf(json + used, size - used, ", \"%s\": \"%lld.%09llds\"",
                                         keys[k], (long long)(v / 1000000000),
                                         (long long)(v % 1000000000));
            else
                used += (size_t)snprintf(json + used, size - used, ", \"%s\": \"%lldns\"", keys[k],
                                         (long long)v);
        }
        if (tu_range(rng, 0, 1))
            used += (size_t)snprintf(json + used, size - used, ", \"cmd\": [\"prog\", \"-n\", \"%zu\"]", i);
        else if (tu_range(rng, 0, 1))
            used += (size_t)snprintf(json + used, size - used, ", \"cmd\": \"run %zu\"", i);
        if (tu_range(rng, 0, 1))
            used += (size_t)snprintf(json + used, size - used, ", \"affinity\": [1, 9]");
        if (tu_range(rng, 0, 1))
            used += (size_t)snprintf(json + used, size - used, ", \"priority\": %lld",
                                     (long long)tu_range(rng, 0, 1000000));
        used += (size_t)snprintf(json + used, size - used, "}");
    }
    snprintf(json + used, size - used, "]}");
}

static void test_round_trip_random(void **state)
{
    (void)state;
    tu_rng rng = {99};
    char json[8192];
    rtp_ns want[18];
    for (int iter = 0; iter < 2000; iter++) {
        size_t n;
        random_document(&rng, json, sizeof json, want, &n);
        rtp_taskset ts, back, again;
        good(json, &ts);
        assert_int_equal(ts.n_tasks, n);
        for (size_t i = 0; i < n; i++) {
            assert_int_equal(ts.tasks[i].wcet_ns, want[3 * i]);
            assert_int_equal(ts.tasks[i].deadline_ns, want[3 * i + 1]);
            assert_int_equal(ts.tasks[i].period_ns, want[3 * i + 2]);
        }
        char *text = rtp_taskset_to_json(&ts, (int)(iter & 1));
        assert_non_null(text);
        good(text, &back);
        assert_same_set(&ts, &back);
        assert_int_equal(back.time_unit_ns, 1);
        /* the writer is a fixed point: writing the read-back gives the same bytes */
        char *text2 = rtp_taskset_to_json(&back, (int)(iter & 1));
        assert_string_equal(text, text2);
        good(text2, &again);
        assert_same_set(&ts, &again);
        /* big times are strings, small ones bare integers */
        for (size_t i = 0; i < n; i++) {
            char needle[64];
            for (int k = 0; k < 3; k++) {
                rtp_ns v = want[3 * i + (size_t)k];
                snprintf(needle, sizeof needle, v >= ((rtp_ns)1 << 53) ? "\"%lldns\"" : "%lld",
                         (long long)v);
                assert_non_null(strstr(text, needle));
            }
        }
        free(text);
        free(text2);
        rtp_taskset_free(&ts);
        rtp_taskset_free(&back);
        rtp_taskset_free(&again);
    }
}

static void test_big_times_written_as_strings(void **state)
{
    (void)state;
    rtp_taskset ts;
    good(one_task("\"wcet\": 9007199254740991, \"period\": \"9007199254740993ns\","
                  " \"deadline\": \"4611686018427387904ns\""),
         &ts);
    char *text = rtp_taskset_to_json(&ts, 0);
    assert_non_null(strstr(text, "\"wcet\":9007199254740991"));
    assert_non_null(strstr(text, "\"period\":\"9007199254740993ns\""));
    assert_non_null(strstr(text, "\"deadline\":\"4611686018427387904ns\""));
    assert_int_equal(text[strlen(text) - 1], '\n');
    rtp_taskset back;
    good(text, &back);
    assert_same_set(&ts, &back);
    free(text);
    rtp_taskset_free(&ts);
    rtp_taskset_free(&back);
}

static void test_task_copy(void **state)
{
    (void)state;
    rtp_taskset ts;
    good(one_task("\"wcet\": 1, \"period\": 4, \"cmd\": [\"a\", \"b\"], \"affinity\": [2],"
                  " \"priority\": 3"),
         &ts);
    rtp_task copy;
    assert_int_equal(rtp_task_copy(&copy, &ts.tasks[0]), RTP_OK);
    assert_same_task(&copy, &ts.tasks[0]);
    assert_ptr_not_equal(copy.name, ts.tasks[0].name);
    assert_ptr_not_equal(copy.cmd, ts.tasks[0].cmd);
    assert_ptr_not_equal(copy.cmd[0], ts.tasks[0].cmd[0]);
    assert_ptr_not_equal(copy.affinity, ts.tasks[0].affinity);
    rtp_taskset_free(&ts); /* the copy outlives its source */
    assert_string_equal(copy.cmd[1], "b");
    rtp_task_free_fields(&copy);
    assert_null(copy.name);
    rtp_task bare = tu_task(1, 2, 3), bare_copy;
    assert_int_equal(rtp_task_copy(&bare_copy, &bare), RTP_OK);
    assert_null(bare_copy.name);
    assert_int_equal(bare_copy.period_ns, 3);
    rtp_task_free_fields(&bare_copy);
    rtp_task_free_fields(NULL);
    rtp_taskset_free(NULL);
}

/* Every name of a set lies in its name block, one after another, and the
 * block is exactly their bytes (models/taskset.h). */
static void assert_names_in_block(const rtp_taskset *ts)
{
    size_t used = 0;
    for (size_t i = 0; i < ts->n_tasks; i++) {
        assert_ptr_equal(ts->tasks[i].name, ts->name_block + used);
        used += strlen(ts->tasks[i].name) + 1;
    }
    assert_int_equal(used, ts->name_block_size);
}

static void test_name_block(void **state)
{
    (void)state;
    char longest[RTP_TASK_NAME_MAX + 1], json[1024];
    memset(longest, 'x', RTP_TASK_NAME_MAX);
    longest[RTP_TASK_NAME_MAX] = '\0';
    snprintf(json, sizeof json,
             "{\"tasks\": [{\"period\": 4, \"wcet\": 1, \"name\": \"a\"},"
             " {\"name\": \"%s\", \"wcet\": 1, \"period\": 4},"
             " {\"name\": \"\\u00e9t\\u00e9 \\ud83d\\ude00\", \"wcet\": 1, \"period\": 4},"
             " {\"name\": \"b\", \"wcet\": 1, \"period\": 4}]}",
             longest);
    rtp_taskset ts;
    good(json, &ts);
    assert_int_equal(ts.n_tasks, 4);
    assert_string_equal(ts.tasks[1].name, longest);
    assert_string_equal(ts.tasks[2].name, "\u00e9t\u00e9 \U0001F600");
    assert_names_in_block(&ts);
    /* a renamed task owns its new name: freed with the set, the old bytes
     * with the block (ASan's build sees a leak or a bad free) */
    ts.tasks[2].name = strdup("renamed");
    rtp_taskset_free(&ts);
    assert_null(ts.name_block);
    /* a set that fails after some names frees them all, *out zeroed */
    rtp_diag d;
    assert_int_equal(parse("{\"tasks\": [{\"name\": \"a\", \"wcet\": 1, \"period\": 4},"
                           " {\"name\": \"b\", \"wcet\": 0, \"period\": 4}]}",
                           &ts, &d),
                     RTP_EINPUT);
    assert_string_equal(d.path, "tasks[1].wcet");
    assert_null(ts.name_block);
    assert_null(ts.tasks);
    /* names past the limit and non-strings are refused, not written */
    char *over = malloc(RTP_TASK_NAME_MAX + 64);
    assert_non_null(over);
    memset(over, 0, RTP_TASK_NAME_MAX + 64);
    snprintf(over, RTP_TASK_NAME_MAX + 64, "{\"tasks\": [{\"name\": \"%sy\", \"wcet\": 1, \"period\": 4}]}", longest);
    bad_at(over, "tasks[0].name");
    free(over);
    bad_at("{\"tasks\": [{\"name\": \"a\", \"wcet\": 1, \"period\": 4}, {\"name\": 7}]}",
           "tasks[1].name");
    /* a set built by hand: each name its own allocation, no block */
    rtp_taskset hand;
    memset(&hand, 0, sizeof hand);
    hand.n_tasks = 2;
    hand.tasks = calloc(2, sizeof *hand.tasks);
    assert_non_null(hand.tasks);
    hand.tasks[0].name = strdup("x");
    hand.tasks[1].name = strdup("y");
    rtp_taskset_free(&hand);
}

static void test_cpu_ids(void **state)
{
    (void)state;
    rtp_taskset ts;
    rtp_diag d;
    int *cpus = NULL;
    size_t n = 0;
    good("{\"tasks\": []}", &ts);
    rtp_diag_clear(&d);
    assert_int_equal(rtp_taskset_cpu_ids(&ts, 0, &cpus, &n, &d), RTP_EINPUT);
    assert_true(d.message[0] != '\0');
    assert_int_equal(rtp_taskset_cpu_ids(&ts, 3, &cpus, &n, &d), RTP_OK);
    assert_int_equal(n, 3);
    assert_int_equal(cpus[0], 0);
    assert_int_equal(cpus[2], 2);
    free(cpus);
    rtp_taskset_free(&ts);

    good("{\"platform\": {\"cpus\": [2, 3, 6, 7]}, \"tasks\": []}", &ts);
    assert_int_equal(rtp_taskset_cpu_ids(&ts, 0, &cpus, &n, &d), RTP_OK);
    assert_int_equal(n, 4);
    assert_int_equal(cpus[0], 2);
    assert_int_equal(cpus[3], 7);
    free(cpus);
    /* --cpus M overrides the platform: CPUs 0..M-1 */
    assert_int_equal(rtp_taskset_cpu_ids(&ts, 2, &cpus, &n, &d), RTP_OK);
    assert_int_equal(n, 2);
    assert_int_equal(cpus[0], 0);
    assert_int_equal(cpus[1], 1);
    free(cpus);
    rtp_taskset_free(&ts);

    /* a platform without cpus needs --cpus, like no platform */
    good("{\"platform\": {\"overheads\": {}}, \"tasks\": []}", &ts);
    assert_int_equal(rtp_taskset_cpu_ids(&ts, 0, &cpus, &n, &d), RTP_EINPUT);
    assert_int_equal(rtp_taskset_cpu_ids(&ts, 2, &cpus, &n, &d), RTP_OK);
    assert_int_equal(n, 2);
    free(cpus);
    rtp_taskset_free(&ts);

    good("{\"platform\": {\"cpus\": 2}, \"tasks\": []}", &ts);
    assert_int_equal(rtp_taskset_cpu_ids(&ts, 0, &cpus, &n, &d), RTP_OK);
    assert_int_equal(n, 2);
    assert_int_equal(cpus[1], 1);
    free(cpus);
    rtp_taskset_free(&ts);
}

static void test_load_file(void **state)
{
    (void)state;
    rtp_taskset ts;
    rtp_diag d;
    char *path = tu_write_temp("{\"tasks\": [{\"name\": \"a\", \"wcet\": \"1ms\", \"period\": \"2ms\"}]}");
    assert_non_null(path);
    rtp_diag_clear(&d);
    assert_int_equal(rtp_taskset_load(path, RTP_INPUT_MAX_DEFAULT, &ts, &d), RTP_OK);
    assert_int_equal(ts.tasks[0].period_ns, 2000000);
    rtp_taskset_free(&ts);
    unlink(path);
    free(path);
    memset(&ts, 0x5a, sizeof ts);
    assert_int_equal(rtp_taskset_load("/nonexistent/rtpack/ts.json", RTP_INPUT_MAX_DEFAULT, &ts, &d), RTP_EINPUT);
    assert_true(d.message[0] != '\0');
    assert_null(ts.tasks);
    assert_int_equal(rtp_taskset_load("/tmp", RTP_INPUT_MAX_DEFAULT, &ts, &d), RTP_EINPUT); /* a directory */
    /* a large file (past the reader's first 64 KiB buffer) */
    size_t size = 300000, used = 0;
    char *big = malloc(size);
    used += (size_t)snprintf(big, size, "{\"tasks\": [");
    int count = 0;
    while (used < size - 200) {
        used += (size_t)snprintf(big + used, size - used,
                                 "%s{\"name\": \"t%d\", \"wcet\": 1, \"period\": 9}",
                                 count ? ", " : "", count);
        count++;
    }
    snprintf(big + used, size - used, "]}");
    path = tu_write_temp(big);
    assert_int_equal(rtp_taskset_load(path, RTP_INPUT_MAX_DEFAULT, &ts, &d), RTP_OK);
    assert_int_equal(ts.n_tasks, (size_t)count);
    rtp_taskset_free(&ts);
    unlink(path);
    free(path);
    free(big);
}

/* ---- defects found in review (see the file comment) ---- */

static void regression_embedded_nul_in_strings(void **state)
{
    (void)state;
    bad_at(one_task("\"wcet\": \"5ms\\u0000junk\", \"period\": \"10ms\""), "tasks[0].wcet");
    bad_at("{\"tasks\": [{\"name\": \"a\\u0000b\", \"wcet\": 1, \"period\": 4}]}",
           "tasks[0].name");
}

/* Bad input whose offending text holds a newline still gives one line. */
static void one_line(const char *json)
{
    rtp_taskset ts;
    rtp_diag d;
    assert_int_equal(parse(json, &ts, &d), RTP_EINPUT);
    if (strchr(d.message, '\n') || strchr(d.path, '\n'))
        fail_msg("%s\n  diagnostic spans lines: %s: %s", json, d.path, d.message);
}

static void regression_diagnostic_lines(void **state)
{
    (void)state;
    one_line(one_task("\"wcet\": 1, \"period\": 4, \"pe\\nriod\": 4"));
    one_line(one_task("\"wcet\": \"1\\nms\", \"period\": 4"));
    one_line("{\"tasks\": [{\"name\": \"a\\nb\", \"wcet\": 1, \"period\": 4},"
             " {\"name\": \"a\\nb\", \"wcet\": 1, \"period\": 4}]}");
}

static void test_diagnostic_lines_quoted_values(void **state)
{
    (void)state;
    rtp_taskset ts;
    rtp_diag d;
    /* the value of a bad time string is quoted in the message, one line */
    assert_int_equal(parse(one_task("\"wcet\": \"1.5ns\", \"period\": 4"), &ts, &d), RTP_EINPUT);
    assert_non_null(strstr(d.message, "1.5ns"));
}

/* docs/spec.md "Real-system terms": jitter, blocking and platform.overheads
 * are times read as strictly as the others, except that 0 is allowed; they
 * round-trip, and the writer leaves them out when absent (so documents
 * without them are written byte for byte as before). */
static void test_real_system_terms(void **state)
{
    (void)state;
    rtp_taskset ts;
    good("{\"time_unit\": \"us\", \"platform\": {\"cpus\": 2, \"overheads\":"
         " {\"release_latency\": \"1.5us\", \"context_switch\": 3}},"
         " \"tasks\": [{\"name\": \"a\", \"wcet\": 1, \"period\": 4, \"jitter\": 2,"
         " \"blocking\": \"700ns\"}, {\"name\": \"b\", \"wcet\": 1, \"period\": 4,"
         " \"jitter\": 0, \"blocking\": \"0ms\"}]}",
         &ts);
    assert_int_equal(ts.tasks[0].jitter_ns, 2000);
    assert_int_equal(ts.tasks[0].blocking_ns, 700);
    assert_int_equal(ts.tasks[1].jitter_ns, 0);
    assert_int_equal(ts.tasks[1].blocking_ns, 0);
    assert_true(ts.platform.has_overheads);
    assert_int_equal(ts.platform.overheads.release_latency_ns, 1500);
    assert_int_equal(ts.platform.overheads.context_switch_ns, 3000);
    char *text = rtp_taskset_to_json(&ts, 0);
    assert_non_null(strstr(text, "\"jitter\":2000,\"blocking\":700"));
    assert_non_null(strstr(text, "\"overheads\":{\"release_latency\":1500,\"context_switch\":3000}"));
    /* zero terms of task b are not written */
    assert_null(strstr(strstr(text, "\"b\""), "jitter"));
    rtp_taskset back;
    good(text, &back);
    assert_int_equal(back.tasks[0].jitter_ns, 2000);
    assert_int_equal(back.tasks[0].blocking_ns, 700);
    assert_int_equal(back.platform.overheads.context_switch_ns, 3000);
    free(text);
    rtp_taskset_free(&back);
    rtp_taskset_free(&ts);
    /* partial overheads: the other is 0 */
    good("{\"platform\": {\"cpus\": 1, \"overheads\": {\"context_switch\": 5}}, \"tasks\": []}", &ts);
    assert_int_equal(ts.platform.overheads.release_latency_ns, 0);
    assert_int_equal(ts.platform.overheads.context_switch_ns, 5);
    rtp_taskset_free(&ts);
    /* absent: nothing written */
    good(one_task("\"wcet\": 1, \"period\": 4"), &ts);
    text = rtp_taskset_to_json(&ts, 0);
    assert_null(strstr(text, "jitter"));
    assert_null(strstr(text, "blocking"));
    free(text);
    rtp_taskset_free(&ts);

    static const char *const bad_values[] = {
        "-1", "-0.5", "1.5", "\"1.5ns\"", "\"-5ms\"", "\"5 ms\"", "\"5\"", "true", "null",
        "[]", "{}", "\"4611686018427387905ns\"", "9007199254740992", "\"5000000000s\"",
    };
    char json[512];
    for (size_t k = 0; k < sizeof bad_values / sizeof *bad_values; k++) {
        snprintf(json, sizeof json, "{\"tasks\": [{\"name\": \"a\", \"wcet\": 1, \"period\": 4},"
                 " {\"name\": \"b\", \"wcet\": 1, \"period\": 4, \"jitter\": %s}]}", bad_values[k]);
        bad_at(json, "tasks[1].jitter");
        snprintf(json, sizeof json, "{\"tasks\": [{\"name\": \"a\", \"wcet\": 1, \"period\": 4,"
                 " \"blocking\": %s}]}", bad_values[k]);
        bad_at(json, "tasks[0].blocking");
        snprintf(json, sizeof json, "{\"platform\": {\"cpus\": 2, \"overheads\": "
                 "{\"release_latency\": %s}}, \"tasks\": []}", bad_values[k]);
        bad_at(json, "platform.overheads.release_latency");
        snprintf(json, sizeof json, "{\"platform\": {\"cpus\": 2, \"overheads\": "
                 "{\"release_latency\": 1, \"context_switch\": %s}}, \"tasks\": []}", bad_values[k]);
        bad_at(json, "platform.overheads.context_switch");
    }
    /* 2^62 itself is a valid time; 2^62 + 1 is not (above) */
    good(one_task("\"wcet\": 1, \"period\": 4, \"jitter\": \"4611686018427387904ns\""), &ts);
    assert_int_equal(ts.tasks[0].jitter_ns, (rtp_ns)1 << 62);
    rtp_taskset_free(&ts);
    bad_at("{\"time_unit\": \"s\", \"tasks\": [{\"name\": \"a\", \"wcet\": 1, \"period\": 4,"
           " \"jitter\": 4611686019}]}", "tasks[0].jitter");
    bad_at("{\"platform\": {\"cpus\": 2, \"overheads\": 5}, \"tasks\": []}", "platform.overheads");
    bad_at("{\"platform\": {\"cpus\": 2, \"overheads\": [1, 2]}, \"tasks\": []}", "platform.overheads");
    bad_at("{\"platform\": {\"cpus\": 2, \"overheads\": null}, \"tasks\": []}", "platform.overheads");
    bad_at("{\"platform\": {\"cpus\": 2, \"overheads\": {\"context_swich\": 1}}, \"tasks\": []}",
           "platform.overheads.context_swich");
    bad_at("{\"platform\": {\"cpus\": 2, \"overheads\": {\"context_switch\": 1,"
           " \"context_switch\": 2}}, \"tasks\": []}", "platform.overheads.context_switch");
    bad_at("{\"platform\": 3, \"tasks\": []}", "platform");
    bad_at(one_task("\"wcet\": 1, \"period\": 4, \"jiter\": 1"), "tasks[0].jiter");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_not_json),
        cmocka_unit_test(test_document_shape),
        cmocka_unit_test(test_missing_and_non_positive_times),
        cmocka_unit_test(test_fractional_and_big_times),
        cmocka_unit_test(test_number_forms_never_wrong),
        cmocka_unit_test(test_booleans_and_wrong_types),
        cmocka_unit_test(test_unknown_and_duplicate_keys),
        cmocka_unit_test(test_duplicate_task_names),
        cmocka_unit_test(test_platform),
        cmocka_unit_test(test_real_system_terms),
        cmocka_unit_test(test_cmd_affinity_priority),
        cmocka_unit_test(test_cpu_list_rules),
        cmocka_unit_test(test_valid_corner_cases),
        cmocka_unit_test(test_time_unit_scaling),
        cmocka_unit_test(test_round_trip_random),
        cmocka_unit_test(test_big_times_written_as_strings),
        cmocka_unit_test(test_task_copy),
        cmocka_unit_test(test_name_block),
        cmocka_unit_test(test_cpu_ids),
        cmocka_unit_test(test_load_file),
        cmocka_unit_test(test_diagnostic_lines_quoted_values),
        cmocka_unit_test(regression_embedded_nul_in_strings),
        cmocka_unit_test(regression_diagnostic_lines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
