/* tests/test_analysis_doc.c — the analyze document's writer
 * (solver/analysis_doc.c) against the same document built as a cJSON tree
 * and printed by cJSON, byte for byte. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "models/json_util.h"
#include "solver/analysis_doc.h"
#include "support/json_tree.h"
#include "support/testutil.h"

/* solver/analysis_doc.c's compact task objects (written straight into
 * one reservation) against the same document built as a cJSON tree and
 * printed: random optional members, names that need escapes, times on both
 * sides of 2^53 (strings there), null response times and wcet_max; the
 * pretty form (the generic writer) too. */
static void test_analysis_doc_as_cjson(void **state)
{
    (void)state;
    static const char *const names[] = {"T1", "a\"b\\c", "\xc3\xa9\xe2\x82\xac", "x y", "n/m"};
    static const rtp_ns times[] = {1, 999, 1000000, 9007199254740991, 9007199254740992,
                                   4611686018427387904};
    tu_rng rng = {23};
    for (int k = 0; k < 2000; k++) {
        rtp_analysis_task tasks[6];
        size_t n = (size_t)tu_range(&rng, 0, 6);
        rtp_analysis_doc doc;
        memset(&doc, 0, sizeof doc);
        doc.line = tu_range(&rng, 0, 3);
        doc.policy = RTP_POLICY_FP;
        doc.schedulable = (int)tu_range(&rng, 0, 1);
        doc.utilization = 0.5;
        doc.tasks = tasks;
        doc.n_tasks = n;
        cJSON *root = cJSON_CreateObject(), *arr = cJSON_CreateArray();
        if (doc.line > 0)
            cJSON_AddItemToObject(root, "line", tu_json_new_int(doc.line));
        cJSON_AddStringToObject(root, "policy", "fp");
        cJSON_AddBoolToObject(root, "schedulable", doc.schedulable);
        cJSON_AddItemToObject(root, "utilization", tu_json_new_display(0.5));
        cJSON_AddItemToObject(root, "tasks", arr);
        for (size_t i = 0; i < n; i++) {
            rtp_analysis_task *t = &tasks[i];
            memset(t, 0, sizeof *t);
            t->name = names[tu_range(&rng, 0, 4)];
            t->wcet_ns = times[tu_range(&rng, 0, 5)];
            t->deadline_ns = times[tu_range(&rng, 0, 5)];
            t->period_ns = times[tu_range(&rng, 0, 5)];
            t->jitter_ns = tu_range(&rng, 0, 2) ? 0 : times[tu_range(&rng, 0, 5)];
            t->blocking_ns = tu_range(&rng, 0, 2) ? 0 : times[tu_range(&rng, 0, 5)];
            t->has_priority = (int)tu_range(&rng, 0, 1);
            t->priority = (int)tu_range(&rng, 1, 1000000);
            t->has_response = (int)tu_range(&rng, 0, 1);
            t->response_time_ns = tu_range(&rng, 0, 1) ? -1 : times[tu_range(&rng, 0, 5)];
            t->has_meets_deadline = (int)tu_range(&rng, 0, 1);
            t->meets_deadline = (int)tu_range(&rng, 0, 1);
            t->has_wcet_max = (int)tu_range(&rng, 0, 1);
            t->wcet_max_ns = tu_range(&rng, 0, 1) ? -1 : times[tu_range(&rng, 0, 5)];
            cJSON *o = cJSON_CreateObject();
            cJSON_AddStringToObject(o, "name", t->name);
            cJSON_AddItemToObject(o, "wcet", tu_json_new_time(t->wcet_ns));
            cJSON_AddItemToObject(o, "deadline", tu_json_new_time(t->deadline_ns));
            cJSON_AddItemToObject(o, "period", tu_json_new_time(t->period_ns));
            if (t->jitter_ns)
                cJSON_AddItemToObject(o, "jitter", tu_json_new_time(t->jitter_ns));
            if (t->blocking_ns)
                cJSON_AddItemToObject(o, "blocking", tu_json_new_time(t->blocking_ns));
            if (t->has_priority)
                cJSON_AddItemToObject(o, "priority", tu_json_new_int(t->priority));
            if (t->has_response)
                cJSON_AddItemToObject(o, "response_time", t->response_time_ns < 0
                                          ? cJSON_CreateNull()
                                          : tu_json_new_int(t->response_time_ns));
            if (t->has_meets_deadline)
                cJSON_AddBoolToObject(o, "meets_deadline", t->meets_deadline);
            if (t->has_wcet_max)
                cJSON_AddItemToObject(o, "wcet_max", t->wcet_max_ns < 0
                                          ? cJSON_CreateNull()
                                          : tu_json_new_time(t->wcet_max_ns));
            cJSON_AddItemToArray(arr, o);
        }
        for (int pretty = 0; pretty < 2; pretty++) {
            char *want = tu_json_print(root, pretty);
            rtp_text text;
            rtp_text_init(&text);
            assert_int_equal(rtp_analysis_doc_write(&text, &doc, pretty), RTP_OK);
            char *got = rtp_text_take(&text);
            assert_non_null(want);
            assert_non_null(got);
            if (strcmp(want, got) != 0)
                fail_msg("analysis document differs from cJSON (pretty %d):\n%s\nvs\n%s",
                         pretty, got, want);
            free(want);
            free(got);
        }
        cJSON_Delete(root);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_analysis_doc_as_cjson),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
