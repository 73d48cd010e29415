/* tests/test_base.c — models/base.h: diagnostics (set, clear, one-line
 * formatting), status -> exit code mapping of docs/spec.md, enum name tables. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "models/base.h"

static void test_diag_set_and_clear(void **state)
{
    (void)state;
    rtp_diag d;
    memset(&d, 'x', sizeof d);
    rtp_diag_clear(&d);
    assert_string_equal(d.message, "");
    assert_string_equal(d.path, "");
    assert_int_equal(d.line, 0);
    assert_int_equal(d.column, 0);
    rtp_diag_clear(NULL); /* safe */

    assert_int_equal(rtp_diag_set(&d, RTP_EINPUT, "tasks[1].period", "missing %d", 7), RTP_EINPUT);
    assert_string_equal(d.path, "tasks[1].period");
    assert_string_equal(d.message, "missing 7");
    assert_int_equal(rtp_diag_set(&d, RTP_ELIMIT, NULL, "x"), RTP_ELIMIT);
    assert_string_equal(d.path, "");
    assert_int_equal(rtp_diag_set(NULL, RTP_ENOMEM, "p", "m"), RTP_ENOMEM);

    /* Over-long path and message are truncated, never overrun. */
    char long_text[2000];
    memset(long_text, 'a', sizeof long_text - 1);
    long_text[sizeof long_text - 1] = '\0';
    rtp_diag_set(&d, RTP_EINPUT, long_text, "%s", long_text);
    assert_int_equal(strlen(d.path), sizeof d.path - 1);
    assert_int_equal(strlen(d.message), sizeof d.message - 1);
}

static void test_diag_format(void **state)
{
    (void)state;
    rtp_diag d;
    char buf[256];
    rtp_diag_clear(&d);
    rtp_diag_set(&d, RTP_EINPUT, "tasks[0].perod", "unknown key");
    rtp_diag_format(&d, "ts.json", buf, sizeof buf);
    assert_string_equal(buf, "ts.json: tasks[0].perod: unknown key");
    rtp_diag_format(&d, NULL, buf, sizeof buf);
    assert_string_equal(buf, "tasks[0].perod: unknown key");
    rtp_diag_format(&d, "", buf, sizeof buf);
    assert_string_equal(buf, "tasks[0].perod: unknown key");

    rtp_diag_set(&d, RTP_EINPUT, "", "not valid JSON");
    d.line = 3;
    d.column = 14;
    rtp_diag_format(&d, "ts.json", buf, sizeof buf);
    assert_string_equal(buf, "ts.json: not valid JSON (line 3, column 14)");
    rtp_diag_format(&d, NULL, buf, sizeof buf);
    assert_string_equal(buf, "not valid JSON (line 3, column 14)");

    rtp_diag_clear(&d);
    rtp_diag_format(&d, "f", buf, sizeof buf);
    assert_string_equal(buf, "f: unknown error");
    rtp_diag_format(NULL, NULL, buf, sizeof buf);
    assert_string_equal(buf, "unknown error");

    char tiny[8];
    rtp_diag_set(&d, RTP_EINPUT, "platform", "must be an object");
    rtp_diag_format(&d, "file.json", tiny, sizeof tiny);
    assert_int_equal(strlen(tiny), sizeof tiny - 1);
}

static void test_exit_codes_and_names(void **state)
{
    (void)state;
    assert_int_equal(rtp_status_exit_code(RTP_OK), 0);
    assert_int_equal(rtp_status_exit_code(RTP_EINPUT), 2);
    assert_int_equal(rtp_status_exit_code(RTP_ELIMIT), 3);
    assert_int_equal(rtp_status_exit_code(RTP_ENOMEM), 3);
    assert_int_equal(rtp_status_exit_code(RTP_EINTERNAL), 3);
    assert_string_equal(rtp_status_name(RTP_ELIMIT), "resource limit");
    assert_string_equal(rtp_status_name(RTP_EINPUT), "bad input");
    for (int s = RTP_OK; s <= RTP_EINTERNAL; s++)
        assert_true(strlen(rtp_status_name((rtp_status)s)) > 0);
}

static void test_policy_and_rule_names(void **state)
{
    (void)state;
    static const char *const table[] = {"a", "b"};
    assert_string_equal(rtp_enum_name(table, RTP_COUNT_OF(table), 1), "b");
    assert_string_equal(rtp_enum_name(table, RTP_COUNT_OF(table), 2), "?");
    assert_string_equal(rtp_enum_name(table, RTP_COUNT_OF(table), -1), "?");
    assert_int_equal(rtp_enum_find(table, RTP_COUNT_OF(table), "b"), 1);
    assert_int_equal(rtp_enum_find(table, RTP_COUNT_OF(table), "c"), -1);
    assert_int_equal(rtp_enum_find(table, RTP_COUNT_OF(table), NULL), -1);
    static const char *const policies[] = {"edf", "fp", "gedf", "gfp"};
    static const rtp_policy policy_values[] = {RTP_POLICY_EDF, RTP_POLICY_FP, RTP_POLICY_GEDF,
                                               RTP_POLICY_GFP};
    for (int i = 0; i < 4; i++) {
        rtp_policy p = (rtp_policy)99;
        assert_int_equal(rtp_policy_parse(policies[i], &p), 0);
        assert_int_equal(p, policy_values[i]);
        assert_string_equal(rtp_policy_name(p), policies[i]);
    }
    static const char *const rules[] = {"opa", "dm", "rm", "given"};
    static const rtp_prio_rule rule_values[] = {RTP_PRIO_OPA, RTP_PRIO_DM, RTP_PRIO_RM,
                                                RTP_PRIO_GIVEN};
    for (int i = 0; i < 4; i++) {
        rtp_prio_rule r = (rtp_prio_rule)99;
        assert_int_equal(rtp_prio_rule_parse(rules[i], &r), 0);
        assert_int_equal(r, rule_values[i]);
        assert_string_equal(rtp_prio_rule_name(r), rules[i]);
    }
    static const char *const bad[] = {"", "EDF", "fp ", "edf2", "Rm", "g"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        rtp_policy p = RTP_POLICY_GFP;
        rtp_prio_rule r = RTP_PRIO_GIVEN;
        assert_int_equal(rtp_policy_parse(bad[i], &p), -1);
        assert_int_equal(rtp_prio_rule_parse(bad[i], &r), -1);
        assert_int_equal(p, RTP_POLICY_GFP); /* untouched */
        assert_int_equal(r, RTP_PRIO_GIVEN);
    }
    rtp_policy p = RTP_POLICY_FP;
    assert_int_equal(rtp_policy_parse(NULL, &p), -1);
    assert_string_equal(rtp_policy_name((rtp_policy)17), "?");
}

static void test_limits_default(void **state)
{
    (void)state;
    rtp_limits l = rtp_limits_default();
    assert_int_equal(l.max_iterations, 50000000u);
    assert_int_equal(l.deadline_ns, 0);
    assert_null(l.interrupt);
    assert_int_equal(RTP_NS_LIMIT, (rtp_ns)4611686018427387904LL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_diag_set_and_clear),
        cmocka_unit_test(test_diag_format),
        cmocka_unit_test(test_exit_codes_and_names),
        cmocka_unit_test(test_policy_and_rule_names),
        cmocka_unit_test(test_limits_default),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
