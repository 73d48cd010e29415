/* tests/test_plan.c — the partition plan (models/plan.h, docs/spec.md "Plan
 * document"): built with rtp_plan_init_cpus/rtp_plan_add_task, written, read
 * back and compared field by field; FP-only fields; null response times;
 * the clustered form; and bad plans rejected with their JSON path.
 *
 * regression_* tests pin defects found in review (now fixed). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/plan.h"
#include "support/testutil.h"


static char *arg_list[] = {"tool", "--fast", "x y"};
static int affinity_list[] = {2, 7}; /* video runs on CPU 2 */

static rtp_task named(char *name, rtp_ns wcet, rtp_ns deadline, rtp_ns period)
{
    rtp_task t = tu_task(wcet, deadline, period);
    t.name = name;
    return t;
}

static void assert_same_task(const rtp_task *a, const rtp_task *b)
{
    assert_string_equal(a->name, b->name);
    assert_int_equal(a->wcet_ns, b->wcet_ns);
    assert_int_equal(a->deadline_ns, b->deadline_ns);
    assert_int_equal(a->period_ns, b->period_ns);
    assert_int_equal(a->jitter_ns, b->jitter_ns);
    assert_int_equal(a->blocking_ns, b->blocking_ns);
    assert_int_equal(a->cmd_len, b->cmd_len);
    assert_int_equal(a->cmd_is_string, b->cmd_is_string);
    for (size_t i = 0; i < a->cmd_len; i++)
        assert_string_equal(a->cmd[i], b->cmd[i]);
    assert_int_equal(a->affinity_len, b->affinity_len);
    for (size_t i = 0; i < a->affinity_len; i++)
        assert_int_equal(a->affinity[i], b->affinity[i]);
}

static void assert_same_plan(const rtp_plan *a, const rtp_plan *b)
{
    int fp = a->policy == RTP_POLICY_FP || a->policy == RTP_POLICY_GFP;
    assert_int_equal(a->feasible, b->feasible);
    assert_int_equal(a->policy, b->policy);
    assert_string_equal(a->method, b->method);
    assert_string_equal(a->status, b->status);
    assert_string_equal(a->chosen_placement, b->chosen_placement);
    assert_string_equal(a->chosen_order, b->chosen_order);
    assert_int_equal(a->clustered, b->clustered);
    assert_int_equal(a->n_platform_cpus, b->n_platform_cpus);
    assert_int_equal(a->overheads.release_latency_ns, b->overheads.release_latency_ns);
    assert_int_equal(a->overheads.context_switch_ns, b->overheads.context_switch_ns);
    for (size_t i = 0; i < a->n_platform_cpus; i++)
        assert_int_equal(a->platform_cpus[i], b->platform_cpus[i]);
    assert_int_equal(a->n_bins, b->n_bins);
    for (size_t j = 0; j < a->n_bins; j++) {
        const rtp_plan_bin *x = &a->bins[j], *y = &b->bins[j];
        assert_int_equal(x->n_cpus, y->n_cpus);
        for (size_t k = 0; k < x->n_cpus; k++)
            assert_int_equal(x->cpus[k], y->cpus[k]);
        assert_string_equal(x->test, y->test);
        assert_int_equal(x->n_tasks, y->n_tasks);
        for (size_t i = 0; i < x->n_tasks; i++) {
            assert_same_task(&x->tasks[i].task, &y->tasks[i].task);
            if (fp) {
                assert_int_equal(x->tasks[i].priority, y->tasks[i].priority);
                assert_int_equal(x->tasks[i].response_time_ns, y->tasks[i].response_time_ns);
            }
        }
    }
    assert_int_equal(a->n_unassigned, b->n_unassigned);
    for (size_t i = 0; i < a->n_unassigned; i++)
        assert_same_task(&a->unassigned[i].task, &b->unassigned[i].task);
}

static void parse_ok(const char *text, rtp_plan *plan)
{
    rtp_diag d;
    rtp_diag_clear(&d);
    rtp_status st = rtp_plan_parse_json(text, strlen(text), plan, &d);
    if (st != RTP_OK)
        fail_msg("%s\n  want RTP_OK, got %d at \"%s\": %s", text, (int)st, d.path, d.message);
}

/* write -> read -> compare -> write again gives the same bytes */
static void round_trip(const rtp_plan *plan)
{
    for (int pretty = 0; pretty < 2; pretty++) {
        char *text = rtp_plan_to_json(plan, pretty);
        assert_non_null(text);
        rtp_plan back;
        parse_ok(text, &back);
        assert_same_plan(plan, &back);
        char *again = rtp_plan_to_json(&back, pretty);
        assert_string_equal(text, again);
        free(text);
        free(again);
        rtp_plan_free(&back);
    }
}

/* An FP plan on CPUs 2, 5, 7 (7 stays empty) with one unassigned task. */
static void build_fp_plan(rtp_plan *plan)
{
    static const int cpus[] = {2, 5, 7};
    assert_int_equal(rtp_plan_init_cpus(plan, RTP_POLICY_FP, cpus, 3), RTP_OK);
    assert_int_equal(plan->n_bins, 3);
    plan->feasible = 0;
    snprintf(plan->method, sizeof plan->method, "best");
    snprintf(plan->chosen_placement, sizeof plan->chosen_placement, "bf");
    snprintf(plan->chosen_order, sizeof plan->chosen_order, "density");
    rtp_task video = named("video", 5000000, 10000000, 16666666);
    video.cmd = arg_list;
    video.cmd_len = 3;
    video.affinity = affinity_list;
    video.affinity_len = 2;
    video.has_priority = 1; /* a given priority: not part of the plan */
    video.priority = 40;
    rtp_task t1 = named("T1", 1, 4, 4);
    rtp_task big = named("big", (rtp_ns)1 << 60, RTP_NS_LIMIT, RTP_NS_LIMIT);
    rtp_task shell = named("shell", 3, 9, 9);
    char *line[] = {"sleep 1; echo done"};
    shell.cmd = line;
    shell.cmd_len = 1;
    shell.cmd_is_string = 1;
    assert_int_equal(rtp_plan_add_task(plan, 0, &video, 2, 6000000), RTP_OK);
    assert_int_equal(rtp_plan_add_task(plan, 0, &t1, 1, -1), RTP_OK); /* null */
    assert_int_equal(rtp_plan_add_task(plan, 1, &big, 1, ((rtp_ns)1 << 60) + 12345), RTP_OK);
    assert_int_equal(rtp_plan_add_task(plan, 1, &shell, 2, 3), RTP_OK);
    rtp_task late = named("late", 20, 10, 30);
    assert_int_equal(rtp_plan_add_task(plan, RTP_PLAN_UNASSIGNED, &late, 0, -1), RTP_OK);
    assert_int_equal(rtp_plan_add_task(plan, 3, &late, 1, 1), RTP_EINTERNAL);
}

static void test_fp_round_trip(void **state)
{
    (void)state;
    rtp_plan plan;
    build_fp_plan(&plan);
    /* the plan holds deep copies */
    assert_ptr_not_equal(plan.bins[0].tasks[0].task.cmd, arg_list);
    assert_string_equal(plan.bins[0].tasks[0].task.cmd[2], "x y");
    round_trip(&plan);

    char *text = rtp_plan_to_json(&plan, 0);
    /* docs/spec.md: every CPU listed, empty ones too; priority and
     * response_time under fp only */
    assert_non_null(strstr(text, "\"platform\":{\"cpus\":[2,5,7]}"));
    assert_non_null(strstr(text, "{\"cpu\":7,\"utilization\":0.0,\"tasks\":[]}"));
    assert_non_null(strstr(text, "\"priority\":2,\"response_time\":6000000"));
    assert_non_null(strstr(text, "\"priority\":1,\"response_time\":null"));
    assert_non_null(strstr(text, "\"response_time\":\"1152921504606859321ns\""));
    assert_non_null(strstr(text, "\"wcet\":\"1152921504606846976ns\""));
    assert_non_null(strstr(text, "\"chosen\":{\"placement\":\"bf\",\"order\":\"density\"}"));
    assert_null(strstr(text, "\"priority\":40")); /* the given priority is not the plan's */
    assert_non_null(strstr(text, "\"given_priority\":40")); /* but emit may keep it */
    assert_non_null(strstr(text, "\"cmd\":\"sleep 1; echo done\""));
    assert_non_null(strstr(text, "\"cmd\":[\"tool\",\"--fast\",\"x y\"]"));
    /* unassigned tasks carry neither priority nor response time */
    const char *un = strstr(text, "\"unassigned\"");
    assert_non_null(un);
    assert_null(strstr(un, "priority"));
    assert_null(strstr(un, "response_time"));
    rtp_plan back;
    parse_ok(text, &back);
    assert_int_equal(back.bins[0].tasks[1].response_time_ns, -1);
    assert_int_equal(back.bins[1].tasks[0].response_time_ns, ((rtp_ns)1 << 60) + 12345);
    assert_int_equal(back.bins[0].tasks[0].priority, 2);
    assert_true(back.bins[0].tasks[0].task.has_priority);
    assert_int_equal(back.bins[0].tasks[0].task.priority, 40);
    assert_false(back.bins[0].tasks[1].task.has_priority);
    rtp_plan_free(&back);
    free(text);
    rtp_plan_free(&plan);
    rtp_plan_free(NULL);
}

static void test_edf_has_no_fp_fields(void **state)
{
    (void)state;
    static const int cpus[] = {0, 1};
    rtp_plan plan;
    assert_int_equal(rtp_plan_init_cpus(&plan, RTP_POLICY_EDF, cpus, 2), RTP_OK);
    plan.feasible = 1;
    snprintf(plan.method, sizeof plan.method, "ilp");
    snprintf(plan.status, sizeof plan.status, "optimal");
    rtp_task a = named("a", 1, 4, 4), b = named("b", 2, 3, 8);
    a.has_priority = 1;
    a.priority = 9;
    assert_int_equal(rtp_plan_add_task(&plan, 1, &a, 7, 1), RTP_OK);
    assert_int_equal(rtp_plan_add_task(&plan, 1, &b, 6, 3), RTP_OK);
    char *text = rtp_plan_to_json(&plan, 1);
    assert_null(strstr(text, "priority"));
    assert_null(strstr(text, "response_time"));
    assert_non_null(strstr(text, "\"status\":\t\"optimal\""));
    assert_null(strstr(text, "chosen"));
    free(text);
    round_trip(&plan);
    rtp_plan_free(&plan);

    /* a platform with no CPUs at all still writes and reads */
    assert_int_equal(rtp_plan_init_cpus(&plan, RTP_POLICY_EDF, NULL, 0), RTP_OK);
    snprintf(plan.method, sizeof plan.method, "ffd");
    rtp_task c = named("c", 1, 2, 2);
    assert_int_equal(rtp_plan_add_task(&plan, RTP_PLAN_UNASSIGNED, &c, 0, -1), RTP_OK);
    round_trip(&plan);
    rtp_plan_free(&plan);
}

/* Task lists grow geometrically (room for 8 tasks, then the next power of
 * two of their count, models/plan.h): a plan read back has that room too,
 * so tasks appended to its lists of 3 land inside their arrays, also past
 * 8 and 16 (the sanitizer build reports the overflow when the reader
 * allocates exactly 3). */
static void test_add_after_parse(void **state)
{
    (void)state;
    static const int cpus[] = {0, 1};
    rtp_plan plan, back;
    assert_int_equal(rtp_plan_init_cpus(&plan, RTP_POLICY_EDF, cpus, 2), RTP_OK);
    snprintf(plan.method, sizeof plan.method, "ffd");
    char name[16];
    for (size_t i = 0; i < 6; i++) {
        snprintf(name, sizeof name, "t%zu", i);
        rtp_task t = named(name, 1, 10, 10);
        assert_int_equal(rtp_plan_add_task(&plan, i < 3 ? 1 : RTP_PLAN_UNASSIGNED, &t, 0, -1),
                         RTP_OK);
    }
    char *text = rtp_plan_to_json(&plan, 0);
    parse_ok(text, &back);
    free(text);
    for (size_t i = 6; i < 40; i++) {
        snprintf(name, sizeof name, "t%zu", i);
        rtp_task t = named(name, 1, 10, 10);
        size_t to = i % 2 ? 1 : RTP_PLAN_UNASSIGNED;
        assert_int_equal(rtp_plan_add_task(&plan, to, &t, 0, -1), RTP_OK);
        assert_int_equal(rtp_plan_add_task(&back, to, &t, 0, -1), RTP_OK);
    }
    assert_int_equal(back.bins[1].n_tasks, 20);
    assert_int_equal(back.n_unassigned, 20);
    assert_same_plan(&plan, &back);
    round_trip(&back);
    rtp_plan_free(&back);
    rtp_plan_free(&plan);
}

static const char *const clustered_doc =
    "{\"feasible\": false, \"method\": \"ffd\", \"policy\": \"gfp\","
    " \"platform\": {\"cpus\": [0, 1, 2, 3]},"
    " \"clusters\": [{\"cpus\": [0, 1], \"test\": \"gfb\", \"utilization\": 0.5,"
    "   \"tasks\": [{\"name\": \"a\", \"wcet\": 1, \"deadline\": 4, \"period\": 4,"
    "     \"priority\": 2, \"response_time\": 1},"
    "    {\"name\": \"b\", \"wcet\": 1, \"deadline\": 4, \"period\": 4,"
    "     \"priority\": 1, \"response_time\": null}]},"
    "  {\"cpus\": [3, 2], \"test\": null, \"tasks\": []}],"
    " \"unassigned\": [{\"name\": \"c\", \"wcet\": 9, \"period\": 5}]}";

static void test_clustered(void **state)
{
    (void)state;
    rtp_plan plan;
    parse_ok(clustered_doc, &plan);
    assert_true(plan.clustered);
    assert_int_equal(plan.policy, RTP_POLICY_GFP);
    assert_int_equal(plan.n_bins, 2);
    assert_int_equal(plan.bins[0].n_cpus, 2);
    assert_string_equal(plan.bins[0].test, "gfb");
    assert_string_equal(plan.bins[1].test, "");
    assert_int_equal(plan.bins[1].cpus[0], 3);
    assert_int_equal(plan.bins[0].tasks[0].response_time_ns, 1);
    assert_int_equal(plan.bins[0].tasks[1].response_time_ns, -1);
    assert_int_equal(plan.unassigned[0].task.deadline_ns, 5);
    round_trip(&plan);
    char *text = rtp_plan_to_json(&plan, 0);
    assert_non_null(strstr(text, "\"clusters\":[{\"cpus\":[0,1],\"test\":\"gfb\""));
    assert_non_null(strstr(text, "\"test\":null"));
    assert_null(strstr(text, "\"cpu\":"));
    free(text);
    rtp_plan_free(&plan);
}

/* A bad plan: RTP_EINPUT with exactly `path`, and *out zeroed. */
static void bad_at(const char *text, const char *path)
{
    rtp_plan plan;
    memset(&plan, 0x5a, sizeof plan);
    rtp_diag d;
    rtp_diag_clear(&d);
    rtp_status st = rtp_plan_parse_json(text, strlen(text), &plan, &d);
    if (st != RTP_EINPUT || strcmp(d.path, path) != 0 || !d.message[0])
        fail_msg("%s\n  want RTP_EINPUT at \"%s\", got %d at \"%s\": %s", text, path, (int)st,
                 d.path, d.message);
    rtp_plan zero;
    memset(&zero, 0, sizeof zero);
    if (memcmp(&plan, &zero, sizeof plan) != 0)
        fail_msg("%s\n  *out not zeroed after an error", text);
}

/* A one-CPU-per-bin document: head members, then `bins` as "cpus". */
static const char *doc(const char *policy, const char *bins, const char *extra)
{
    static char buf[2048];
    snprintf(buf, sizeof buf, "{\"feasible\": true, \"method\": \"ffd\", \"policy\": \"%s\","
             " \"cpus\": %s%s}", policy, bins, extra);
    return buf;
}

#define TASK_FP(name, prio) "{\"name\": \"" name "\", \"wcet\": 1, \"period\": 4, \"priority\": " #prio "}"
#define TASK(name) "{\"name\": \"" name "\", \"wcet\": 1, \"period\": 4}"

static void test_bad_plans(void **state)
{
    (void)state;
    bad_at("{\"feasible\": true,", "");
    bad_at("[]", "");
    bad_at(doc("edf", "[]", ", \"platfrom\": {}"), "platfrom");
    bad_at(doc("edf", "[{\"cpu\": 0, \"tasks\": [], \"tasks_\": []}]", ""), "cpus[0].tasks_");
    bad_at(doc("edf", "[{\"cpu\": 0, \"tasks\": [{\"name\": \"a\", \"wcet\": 1, \"perod\": 4}]}]", ""),
           "cpus[0].tasks[0].perod");
    bad_at(doc("edf", "[{\"cpu\": 0, \"tasks\": []}, {\"cpu\": 0, \"tasks\": []}]", ""),
           "cpus[1].cpu");
    bad_at(doc("edf", "[{\"cpu\": 0, \"tasks\": [" TASK("a") "]}, {\"cpu\": 1, \"tasks\": [" TASK("a") "]}]", ""),
           "cpus[1].tasks[0].name");
    bad_at(doc("edf", "[{\"cpu\": 0, \"tasks\": [" TASK("a") ", " TASK("a") "]}]", ""),
           "cpus[0].tasks[1].name");
    bad_at(doc("edf", "[{\"cpu\": 0, \"tasks\": [" TASK("a") "]}]", ", \"unassigned\": [" TASK("a") "]"),
           "unassigned[0].name");
    bad_at(doc("fp", "[{\"cpu\": 0, \"tasks\": [" TASK("a") "]}]", ""), "cpus[0].tasks[0].priority");
    /* given_priority: fp only, an integer; deployable: a boolean, its reason a string */
    bad_at(doc("edf", "[{\"cpu\": 0, \"tasks\": [{\"name\": \"a\", \"wcet\": 1, \"period\": 4, "
                      "\"given_priority\": 5}]}]", ""), "cpus[0].tasks[0].given_priority");
    bad_at(doc("fp", "[{\"cpu\": 0, \"tasks\": [{\"name\": \"a\", \"wcet\": 1, \"period\": 4, "
                     "\"priority\": 1, \"given_priority\": 1.5}]}]", ""), "cpus[0].tasks[0].given_priority");
    bad_at(doc("fp", "[{\"cpu\": 0, \"tasks\": [" TASK_FP("a", 1) "]}]", ", \"deployable\": 1"),
           "deployable");
    bad_at(doc("fp", "[{\"cpu\": 0, \"tasks\": [" TASK_FP("a", 1) "]}]",
               ", \"deployable\": false, \"deployable_reason\": 3"), "deployable_reason");
    bad_at(doc("fp", "[{\"cpu\": 0, \"tasks\": [" TASK_FP("a", 0) "]}]", ""), "cpus[0].tasks[0].priority");
    bad_at(doc("fp", "[{\"cpu\": 0, \"tasks\": [" TASK_FP("a", 2) "]}]", ""), "cpus[0].tasks[0].priority");
    bad_at(doc("fp", "[{\"cpu\": 0, \"tasks\": [" TASK_FP("a", "1") "]}]", ""), "cpus[0].tasks[0].priority");
    bad_at(doc("fp", "[{\"cpu\": 0, \"tasks\": []}]", ", \"unassigned\": [" TASK_FP("u", 1) "]"),
           "unassigned[0].priority");
    bad_at(doc("edf", "[{\"cpu\": 0, \"tasks\": [" TASK_FP("a", 1) "]}]", ""), "cpus[0].tasks[0].priority");
    bad_at(doc("edf", "[{\"cpu\": 0, \"tasks\": [{\"name\": \"a\", \"wcet\": 1, \"period\": 4,"
                      " \"response_time\": 1}]}]", ""),
           "cpus[0].tasks[0].response_time");
    bad_at(doc("fp", "[{\"cpu\": 0, \"tasks\": [{\"name\": \"a\", \"wcet\": 1, \"period\": 4,"
                     " \"priority\": 1, \"response_time\": 1.5}]}]", ""),
           "cpus[0].tasks[0].response_time");
    bad_at(doc("fp", "[{\"cpu\": 0, \"tasks\": [{\"name\": \"a\", \"wcet\": 1, \"period\": 4,"
                     " \"priority\": 1, \"response_time\": true}]}]", ""),
           "cpus[0].tasks[0].response_time");
    bad_at(doc("edf", "[{\"cpu\": 0, \"tasks\": [{\"name\": \"a\", \"wcet\": \"1.5ns\", \"period\": 4}]}]", ""),
           "cpus[0].tasks[0].wcet");
    bad_at(doc("edf", "[{\"cpu\": 0, \"tasks\": [{\"name\": \"a\", \"wcet\": 1, \"period\": 9007199254740993}]}]", ""),
           "cpus[0].tasks[0].period");
    bad_at(doc("edf", "[{\"tasks\": []}]", ""), "cpus[0].cpu");
    bad_at(doc("edf", "[{\"cpu\": -1, \"tasks\": []}]", ""), "cpus[0].cpu");
    bad_at(doc("edf", "[{\"cpu\": true, \"tasks\": []}]", ""), "cpus[0].cpu");
    bad_at(doc("edf", "[{\"cpu\": 0}]", ""), "cpus[0].tasks");
    bad_at(doc("edf", "[{\"cpu\": 0, \"tasks\": {}}]", ""), "cpus[0].tasks");
    bad_at(doc("edf", "[{\"cpu\": 0, \"utilization\": \"0.5\", \"tasks\": []}]", ""), "cpus[0].utilization");
    bad_at(doc("edf", "[{\"cpu\": 3, \"tasks\": []}]", ", \"platform\": {\"cpus\": [0, 1]}"), "cpus[0].cpu");
    bad_at(doc("edf", "[]", ", \"platform\": {\"cpus\": [0], \"clusters\": []}"), "platform.clusters");
    bad_at(doc("edf", "[]", ", \"platform\": [0]"), "platform");
    bad_at(doc("edf", "[]", ", \"platform\": {}"), "platform.cpus");
    bad_at(doc("edf", "[]", ", \"platform\": {\"cpus\": [\"0\"]}"), "platform.cpus[0]");
    bad_at(doc("edf", "{}", ""), "cpus");
    bad_at(doc("edf", "[5]", ""), "cpus[0]");
    bad_at(doc("edf", "[]", ", \"clusters\": []"), "clusters");
    bad_at(doc("edf", "[]", ", \"unassigned\": {}"), "unassigned");
    bad_at(doc("edf", "[]", ", \"unassigned\": [5]"), "unassigned[0]");
    bad_at(doc("rm", "[]", ""), "policy");
    bad_at(doc("edf", "[]", ", \"feasible\": false"), "feasible");
    bad_at(doc("edf", "[]", ", \"chosen\": {\"placement\": \"ff\", \"oder\": \"util\"}"), "chosen.oder");
    bad_at(doc("edf", "[]", ", \"chosen\": {\"placement\": 1}"), "chosen.placement");
    bad_at(doc("edf", "[]", ", \"chosen\": []"), "chosen");
    bad_at(doc("edf", "[]", ", \"status\": 1"), "status");
    bad_at(doc("edf", "[]", ", \"status\": \"a-status-much-too-long\""), "status");
    bad_at("{\"method\": \"ffd\", \"policy\": \"edf\", \"cpus\": []}", "feasible");
    bad_at("{\"feasible\": 1, \"policy\": \"edf\", \"cpus\": []}", "feasible");
    bad_at("{\"feasible\": true, \"cpus\": []}", "policy");
    bad_at("{\"feasible\": true, \"policy\": \"edf\"}", "cpus");
    bad_at("{\"feasible\": true, \"method\": 5, \"policy\": \"edf\", \"cpus\": []}", "method");
    /* placed outside its own affinity (a hand-edited plan) */
    bad_at(doc("edf", "[{\"cpu\": 0, \"tasks\": [{\"name\": \"a\", \"wcet\": 1, \"period\": 4,"
                      " \"affinity\": [1]}]}, {\"cpu\": 1, \"tasks\": []}]", ""),
           "cpus[0].tasks[0].affinity");
    bad_at("{\"feasible\": true, \"policy\": \"gedf\", \"clusters\": [{\"cpus\": [0, 1], \"tasks\": ["
           "{\"name\": \"a\", \"wcet\": 1, \"period\": 4, \"affinity\": [0]}]}]}",
           "clusters[0].tasks[0].affinity");
    /* clustered */
    bad_at("{\"feasible\": true, \"policy\": \"gedf\", \"clusters\": [{\"cpus\": [0, 1], \"tasks\": []},"
           " {\"cpus\": [1], \"tasks\": []}]}",
           "clusters[1].cpus[0]");
    bad_at("{\"feasible\": true, \"policy\": \"gedf\", \"clusters\": [{\"cpus\": [0, 0], \"tasks\": []}]}",
           "clusters[0].cpus[1]");
    bad_at("{\"feasible\": true, \"policy\": \"gedf\", \"clusters\": [{\"cpus\": [], \"tasks\": []}]}",
           "clusters[0].cpus");
    bad_at("{\"feasible\": true, \"policy\": \"gedf\", \"clusters\": [{\"tasks\": []}]}",
           "clusters[0].cpus");
    bad_at("{\"feasible\": true, \"policy\": \"gedf\", \"clusters\": [{\"cpu\": 0, \"tasks\": []}]}",
           "clusters[0].cpu");
    bad_at("{\"feasible\": true, \"policy\": \"gedf\", \"clusters\": [{\"cpus\": [0], \"test\": 5,"
           " \"tasks\": []}]}",
           "clusters[0].test");
    bad_at("{\"feasible\": true, \"policy\": \"gedf\", \"cpus\": [], \"clusters\": []}", "clusters");
    bad_at("{\"feasible\": true, \"policy\": \"gfp\", \"clusters\": [{\"cpus\": [0], \"tasks\": ["
           TASK("a") "]}]}",
           "clusters[0].tasks[0].priority");
    bad_at("{\"feasible\": true, \"feasible\": true, \"policy\": \"edf\", \"cpus\": []}", "feasible");
}

static void test_plan_without_platform(void **state)
{
    (void)state;
    /* no "platform": the bins define it */
    rtp_plan plan;
    parse_ok(doc("edf", "[{\"cpu\": 4, \"tasks\": []}, {\"cpu\": 1, \"tasks\": [" TASK("a") "]}]", ""),
             &plan);
    assert_int_equal(plan.n_platform_cpus, 2);
    assert_int_equal(plan.platform_cpus[0], 4);
    assert_int_equal(plan.platform_cpus[1], 1);
    assert_int_equal(plan.bins[1].tasks[0].task.deadline_ns, 4);
    rtp_plan_free(&plan);
}

static void regression_empty_strings_round_trip(void **state)
{
    (void)state;
    rtp_plan plan;
    parse_ok("{\"feasible\": true, \"policy\": \"edf\", \"cpus\": [{\"cpu\": 0, \"tasks\": []}]}",
             &plan);
    round_trip(&plan);
    rtp_plan_free(&plan);
    parse_ok(doc("edf", "[]", ", \"chosen\": {\"placement\": \"ff\"}"), &plan);
    round_trip(&plan);
    rtp_plan_free(&plan);
}

static void regression_chosen_truncated(void **state)
{
    (void)state;
    rtp_plan plan;
    rtp_diag d;
    const char *text = doc("edf", "[]", ", \"chosen\": {\"placement\": \"firstfit\", \"order\": \"util\"}");
    rtp_status st = rtp_plan_parse_json(text, strlen(text), &plan, &d);
    if (st == RTP_OK) {
        assert_string_equal(plan.chosen_placement, "firstfit");
        rtp_plan_free(&plan);
    }
}

static void regression_platform_cpus(void **state)
{
    (void)state;
    bad_at(doc("edf", "[{\"cpu\": 0, \"tasks\": []}, {\"cpu\": 1, \"tasks\": []}]",
               ", \"platform\": {\"cpus\": [0, 1, 1]}"),
           "platform.cpus[2]");
    rtp_plan plan;
    rtp_diag d;
    const char *text = doc("edf", "[{\"cpu\": 0, \"tasks\": []}]", ", \"platform\": {\"cpus\": [0, 1]}");
    assert_int_equal(rtp_plan_parse_json(text, strlen(text), &plan, &d), RTP_EINPUT);
}

/* bad_at with exactly `message` too. */
static void bad_says(const char *text, const char *path, const char *message)
{
    bad_at(text, path);
    rtp_plan plan;
    rtp_diag d;
    rtp_diag_clear(&d);
    assert_int_equal(rtp_plan_parse_json(text, strlen(text), &plan, &d), RTP_EINPUT);
    if (strcmp(d.message, message) != 0)
        fail_msg("%s\n  want \"%s\", got \"%s\"", text, message, d.message);
}

static void good_plan(const char *text, rtp_plan *plan)
{
    rtp_diag d;
    rtp_diag_clear(&d);
    if (rtp_plan_parse_json(text, strlen(text), plan, &d) != RTP_OK)
        fail_msg("%s\n  want RTP_OK: %s: %s", text, d.path, d.message);
}

/* The CPU lists of a plan (docs/spec.md "Plan document"), each read by the
 * one CPU-list reader (models/json_util.h) with its own rules:
 * platform.cpus may be empty (a plan of no CPUs is written so) but lists
 * each CPU once; a cluster's cpus must not be empty, and a CPU given twice
 * there (or in two bins) is the cross-bin check's "appears twice"; a
 * proof's cpus are echoed as given. Ids are 0..4095 everywhere. */
static void test_cpu_list_rules(void **state)
{
    (void)state;
    rtp_plan plan;
    char text[512];
    /* platform.cpus */
    good_plan(doc("edf", "[]", ", \"platform\": {\"cpus\": []}"), &plan);
    assert_int_equal(plan.n_platform_cpus, 0);
    rtp_plan_free(&plan);
    bad_says(doc("edf", "[]", ", \"platform\": {\"cpus\": [3, 3]}"), "platform.cpus[1]",
             "CPU 3 is listed twice");
    bad_says(doc("edf", "[]", ", \"platform\": {\"cpus\": 2}"), "platform.cpus",
             "must be a list of CPU ids");
    bad_says(doc("edf", "[]", ", \"platform\": {\"cpus\": [4096]}"), "platform.cpus[0]",
             "must be between 0 and 4095");
    /* clusters[j].cpus */
#define CLUSTER(cpus) "{\"feasible\": true, \"policy\": \"gedf\", \"clusters\": [{\"cpus\": " \
                      cpus ", \"tasks\": []}]}"
    bad_says(CLUSTER("[]"), "clusters[0].cpus", "must not be empty");
    bad_says(CLUSTER("0"), "clusters[0].cpus", "must be a list of CPU ids");
    bad_says(CLUSTER("[0, 1, 0]"), "clusters[0].cpus[2]", "CPU 0 appears twice");
    bad_says(CLUSTER("[0, -1]"), "clusters[0].cpus[1]", "must be between 0 and 4095");
    good_plan(CLUSTER("[5, 2]"), &plan);
    assert_int_equal(plan.bins[0].n_cpus, 2);
    assert_int_equal(plan.bins[0].cpus[0], 5);
    rtp_plan_free(&plan);
#undef CLUSTER
    /* proof.cpus */
    static const char *const proofs[] = {"[]", "[1, 1]", "[4096]", "{}", NULL};
    for (int k = 0; k < 5; k++) {
        char member[64] = "";
        if (proofs[k])
            snprintf(member, sizeof member, ", \"cpus\": %s", proofs[k]);
        snprintf(text, sizeof text,
                 "{\"feasible\": false, \"method\": \"ilp\", \"status\": \"infeasible\","
                 " \"policy\": \"edf\", \"cpus\": [], \"proof\": {\"kind\": \"search\","
                 " \"tasks\": [], \"explanation\": \"none\"%s}}", member);
        if (k == 2)
            bad_says(text, "proof.cpus[0]", "must be between 0 and 4095");
        else if (k == 3)
            bad_says(text, "proof.cpus", "must be a list of CPU ids");
        else if (k == 4)
            bad_says(text, "proof.cpus", "missing");
        else {
            good_plan(text, &plan);
            assert_int_equal(plan.proof.n_cpus, (size_t)k * 2);
            rtp_plan_free(&plan);
        }
    }
}

/* docs/spec.md "Real-system terms": a plan carries each task's jitter and
 * blocking and the platform's overheads (written when non-zero), so emit
 * re-checks with them; reading them back is as strict as the task-set
 * reader. */
static void test_real_system_terms(void **state)
{
    (void)state;
    rtp_plan plan;
    build_fp_plan(&plan);
    plan.bins[0].tasks[0].task.jitter_ns = 250000;
    plan.bins[1].tasks[1].task.blocking_ns = 2;
    plan.unassigned[0].task.jitter_ns = (rtp_ns)1 << 60;
    plan.overheads.release_latency_ns = 30000;
    plan.overheads.context_switch_ns = 4000;
    round_trip(&plan);
    char *text = rtp_plan_to_json(&plan, 0);
    assert_non_null(strstr(text, "\"platform\":{\"cpus\":[2,5,7],\"overheads\":"
                                 "{\"release_latency\":30000,\"context_switch\":4000}}"));
    assert_non_null(strstr(text, "\"period\":16666666,\"jitter\":250000,\"cmd\""));
    assert_non_null(strstr(text, "\"period\":9,\"blocking\":2,"));
    assert_non_null(strstr(text, "\"jitter\":\"1152921504606846976ns\""));
    free(text);
    /* only one overhead non-zero: both written, and read back */
    plan.overheads.release_latency_ns = 0;
    round_trip(&plan);
    plan.overheads.context_switch_ns = 0;
    text = rtp_plan_to_json(&plan, 0);
    assert_null(strstr(text, "overheads"));
    free(text);
    rtp_plan_free(&plan);

    static const char *const bins =
        "[{\"cpu\": 0, \"tasks\": [{\"name\": \"a\", \"wcet\": 1, \"period\": 4, \"jitter\": 1}]}]";
    rtp_plan back;
    parse_ok(doc("edf", bins, ", \"platform\": {\"cpus\": [0], \"overheads\":"
                              " {\"context_switch\": \"2us\"}}"),
             &back);
    assert_int_equal(back.overheads.context_switch_ns, 2000);
    assert_int_equal(back.bins[0].tasks[0].task.jitter_ns, 1);
    rtp_plan_free(&back);
    bad_at(doc("edf", bins, ", \"platform\": {\"cpus\": [0], \"overheads\": 3}"),
           "platform.overheads");
    bad_at(doc("edf", bins, ", \"platform\": {\"cpus\": [0], \"overheads\": {\"switch\": 3}}"),
           "platform.overheads.switch");
    bad_at(doc("edf", bins, ", \"platform\": {\"cpus\": [0], \"overheads\":"
                            " {\"release_latency\": -3}}"),
           "platform.overheads.release_latency");
    bad_at(doc("edf", "[{\"cpu\": 0, \"tasks\": [{\"name\": \"a\", \"wcet\": 1, \"period\": 4,"
                      " \"blocking\": \"1.5ns\"}]}]", ""),
           "cpus[0].tasks[0].blocking");
    bad_at(doc("edf", "[{\"cpu\": 0, \"tasks\": [{\"name\": \"a\", \"wcet\": 1, \"period\": 4,"
                      " \"jitter\": \"4611686018427387905ns\"}]}]", ""),
           "cpus[0].tasks[0].jitter");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fp_round_trip),
        cmocka_unit_test(test_real_system_terms),
        cmocka_unit_test(test_edf_has_no_fp_fields),
        cmocka_unit_test(test_clustered),
        cmocka_unit_test(test_add_after_parse),
        cmocka_unit_test(test_bad_plans),
        cmocka_unit_test(test_cpu_list_rules),
        cmocka_unit_test(test_plan_without_platform),
        cmocka_unit_test(regression_empty_strings_round_trip),
        cmocka_unit_test(regression_chosen_truncated),
        cmocka_unit_test(regression_platform_cpus),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
