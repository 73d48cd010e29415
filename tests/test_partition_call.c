/* tests/test_partition_call.c — rtp_partition (partition/partition.h), the
 * one call behind `rtpack partition`, against the calls it composes: on
 * seeded random sets, for EDF and FP, every method and 1..4 CPUs, its plan
 * document is the one rtp_taskset_cpu_ids + rtp_part_pack / rtp_part_best /
 * rtp_ilp_solve + rtp_deploy_judge give in that order (byte for byte), and
 * the rules between options are RTP_EINPUT with `options_error` set. The
 * packing and the ILP themselves are held to exhaustive references in
 * test_partition, test_cluster and test_ilp. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "deploy/recheck.h"
#include "models/text.h"
#include "partition/partition.h"
#include "support/testutil.h"

/* A random set of n tasks on m CPUs as a task-set document, read by the
 * library's own reader (the CLI's path). */
static void random_set(tu_rng *rng, size_t n, int m, rtp_taskset *ts)
{
    rtp_text t;
    rtp_text_init(&t);
    rtp_text_printf(&t, "{\"platform\": {\"cpus\": %d}, \"tasks\": [", m);
    for (size_t i = 0; i < n; i++) {
        int64_t period = tu_range(rng, 2, 40) * 1000;
        int64_t wcet = tu_range(rng, 1, period * 6 / 10);
        int64_t deadline = tu_range(rng, wcet, period);
        rtp_text_printf(&t, "%s{\"name\": \"t%zu\", \"wcet\": \"%lldns\", \"deadline\": "
                            "\"%lldns\", \"period\": \"%lldns\"}",
                        i ? ", " : "", i, (long long)wcet, (long long)deadline,
                        (long long)period);
    }
    rtp_text_printf(&t, "]}");
    assert_int_equal(rtp_text_status(&t), RTP_OK);
    rtp_diag diag;
    rtp_diag_clear(&diag);
    assert_int_equal(rtp_taskset_parse_json(t.data, t.len, ts, &diag), RTP_OK);
    rtp_text_free(&t);
}

/* The composition written out: what cli/cmd_partition.c did before. */
static char *composed(const rtp_taskset *ts, const rtp_partition_opts *o)
{
    int *cpus = NULL;
    size_t n_cpus = 0;
    rtp_plan plan;
    memset(&plan, 0, sizeof plan);
    rtp_diag diag;
    rtp_diag_clear(&diag);
    assert_int_equal(rtp_taskset_cpu_ids(ts, o->override_cpus, &cpus, &n_cpus, &diag), RTP_OK);
    rtp_part_opts part = o->part;
    rtp_status st;
    if (o->method == RTP_METHOD_BEST) {
        st = rtp_part_best(ts, cpus, n_cpus, &part, &plan, &diag);
    } else if (o->method == RTP_METHOD_ILP) {
        rtp_ilp_opts ilp = o->ilp;
        rtp_ilp_status status;
        ilp.part = part;
        st = rtp_ilp_solve(ts, cpus, n_cpus, &ilp, &plan, &status, NULL, &diag);
    } else {
        part.placement = (rtp_placement)o->method;
        st = rtp_part_pack(ts, cpus, n_cpus, &part, &plan, &diag);
    }
    assert_int_equal(st, RTP_OK);
    rtp_deploy_opts deploy = rtp_deploy_opts_default();
    deploy.limits = o->part.limits;
    assert_int_equal(rtp_deploy_judge(&plan, &deploy, &diag), RTP_OK);
    assert_int_equal(plan.deploy_judged, 1);
    char *text = rtp_plan_to_json(&plan, 1);
    assert_non_null(text);
    free(cpus);
    rtp_plan_free(&plan);
    return text;
}

static void test_equals_its_composition(void **state)
{
    (void)state;
    tu_rng rng = {20261206};
    static const int methods[] = {RTP_PLACE_FF, RTP_PLACE_BF, RTP_PLACE_WF, RTP_PLACE_NF,
                                  RTP_METHOD_BEST, RTP_METHOD_ILP};
    size_t compared = 0, feasible = 0;
    for (int round = 0; round < 24; round++) {
        int m = (int)tu_range(&rng, 1, 4);
        rtp_taskset ts;
        random_set(&rng, (size_t)tu_range(&rng, 2, 3 * m + 2), m, &ts);
        for (int policy = RTP_POLICY_EDF; policy <= RTP_POLICY_FP; policy++)
            for (size_t k = 0; k < sizeof methods / sizeof methods[0]; k++) {
                rtp_partition_opts o = rtp_partition_opts_default();
                o.part.policy = (rtp_policy)policy;
                o.method = methods[k];
                o.override_cpus = round % 2 ? m : 0;
                rtp_plan plan;
                rtp_partition_info info;
                rtp_diag diag;
                rtp_diag_clear(&diag);
                assert_int_equal(rtp_partition(&ts, &o, &plan, &info, &diag), RTP_OK);
                assert_int_equal(info.undecided, 0);
                char *got = rtp_plan_to_json(&plan, 1), *want = composed(&ts, &o);
                assert_string_equal(got, want);
                feasible += plan.feasible;
                compared++;
                free(got);
                free(want);
                rtp_plan_free(&plan);
            }
        rtp_taskset_free(&ts);
    }
    assert_int_equal(compared, 24 * 2 * 6);
    assert_true(feasible > compared / 4 && feasible < compared); /* both verdicts seen */
}

/* Rules between options: RTP_EINPUT, options_error, an empty plan. */
static void test_option_rules(void **state)
{
    (void)state;
    tu_rng rng = {7};
    rtp_taskset ts;
    random_set(&rng, 4, 4, &ts);
    rtp_partition_opts o = rtp_partition_opts_default();
    rtp_diag diag;
    rtp_diag_clear(&diag);
    o.layouts = 1u << RTP_LAYOUT_GLOBAL;
    o.method = RTP_PLACE_FF;
    assert_int_equal(rtp_partition_check_opts(&o, &diag), RTP_EINPUT);
    assert_string_equal(diag.message, "--layouts compares layouts under --method best");
    struct {
        int method;
        const char *clusters;
        int bound;
        const char *starts;
    } cases[] = {
        {RTP_METHOD_ILP, "2x2", 0, "--method ilp partitions onto single CPUs"},
        {RTP_PLACE_FF, "2x2", 1, "--admission applies to partitioned CPUs"},
        {RTP_PLACE_FF, "3x3", 0, ""}, /* a shape that does not fit the CPUs */
        {7, NULL, 0, "unknown method"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        o = rtp_partition_opts_default();
        o.method = cases[i].method;
        o.clusters = cases[i].clusters;
        o.part.bound_admission = cases[i].bound;
        rtp_plan plan;
        rtp_partition_info info;
        rtp_diag_clear(&diag);
        assert_int_equal(rtp_partition(&ts, &o, &plan, &info, &diag), RTP_EINPUT);
        assert_int_equal(info.options_error, 1);
        assert_int_equal(plan.n_bins, 0);
        assert_non_null(strstr(diag.message, cases[i].starts));
    }
    /* clusters of the 2x2 shape are used: one bin per cluster */
    o = rtp_partition_opts_default();
    o.clusters = "2x2";
    rtp_plan plan;
    assert_int_equal(rtp_partition(&ts, &o, &plan, NULL, &diag), RTP_OK);
    assert_int_equal(plan.clustered, 1);
    assert_int_equal(plan.n_bins, 2);
    assert_int_equal(plan.deploy_judged, 1);
    rtp_plan_free(&plan);
    rtp_taskset_free(&ts);
}

/* Sensitivity is the plan's (rtp_part_sensitivity), with shared resources
 * too (wcet_max, no factor); they are refused where partitioning does not
 * model them yet. */
static void test_sensitivity_and_resources(void **state)
{
    (void)state;
    size_t len = 0;
    char *text = NULL;
    rtp_diag diag;
    rtp_diag_clear(&diag);
    FILE *f = fopen(tu_source_path("examples/shared_resources.json"), "rb");
    assert_non_null(f);
    text = calloc(1, 1 << 20);
    len = fread(text, 1, (1 << 20) - 1, f);
    fclose(f);
    rtp_taskset ts;
    assert_int_equal(rtp_taskset_parse_json(text, len, &ts, &diag), RTP_OK);
    free(text);
    rtp_partition_opts o = rtp_partition_opts_default();
    o.part.policy = RTP_POLICY_FP;
    o.sensitivity = 1;
    rtp_plan plan;
    rtp_partition_info info;
    assert_int_equal(rtp_partition(&ts, &o, &plan, &info, &diag), RTP_OK);
    assert_true(plan.n_resources > 0 && plan.scaling.not_defined && !plan.scaling.present);
    for (size_t j = 0; j < plan.n_bins; j++)
        for (size_t k = 0; k < plan.bins[j].n_tasks; k++)
            assert_true(plan.bins[j].tasks[k].has_wcet_max &&
                        plan.bins[j].tasks[k].wcet_max_ns >= plan.bins[j].tasks[k].task.wcet_ns);
    rtp_plan_free(&plan);
    o.sensitivity = 0;
    o.part.bound_admission = 1;
    assert_int_equal(rtp_partition(&ts, &o, &plan, &info, &diag), RTP_EINPUT);
    assert_int_equal(info.options_error, 1);
    assert_non_null(strstr(diag.message, "--admission does not model shared resources"));
    o.part.bound_admission = 0;
    rtp_taskset_free(&ts);

    tu_rng rng = {11};
    random_set(&rng, 5, 2, &ts);
    o = rtp_partition_opts_default();
    o.sensitivity = 1;
    assert_int_equal(rtp_partition(&ts, &o, &plan, NULL, &diag), RTP_OK);
    for (size_t j = 0; j < plan.n_bins; j++)
        for (size_t k = 0; k < plan.bins[j].n_tasks; k++)
            assert_int_equal(plan.bins[j].tasks[k].has_wcet_max, 1);
    rtp_plan_free(&plan);
    rtp_taskset_free(&ts);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_equals_its_composition),
        cmocka_unit_test(test_option_rules),
        cmocka_unit_test(test_sensitivity_and_resources),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
