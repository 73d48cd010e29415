/* tests/test_deploy.c — deploy/: quoting of untrusted text (round trip
 * through a real sh, injection attempts), the Linux limit re-check against a
 * slow reference on seeded random plans, microsecond rounding for rt-app,
 * golden files of every format on the bundled plans, emit's exit codes, the
 * deployment state reader and emit's refusal to overwrite a live script.
 * Set RTP_UPDATE_GOLDEN=1 to rewrite the golden files after a reviewed
 * change. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "deploy/emit.h"
#include "deploy/recheck.h"
#include "deploy/quote.h"
#include "deploy/rtapp.h"
#include "deploy/script.h"
#include "deploy/state.h"
#include "support/testutil.h"

/* ---- helpers ---- */

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    size_t got = fread(buf, 1, (size_t)n, f);
    buf[got] = '\0';
    fclose(f);
    return buf;
}

static void spill(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* Compares text with tests/golden/deploy/NAME (or rewrites it). */
static void golden_file(const char *name, const char *text)
{
    char rel[256];
    snprintf(rel, sizeof rel, "tests/golden/deploy/%s", name);
    const char *path = tu_source_path(rel);
    if (getenv("RTP_UPDATE_GOLDEN")) {
        spill(path, text);
        return;
    }
    char *want = slurp(path);
    if (!want)
        fail_msg("missing golden file %s", path);
    if (strcmp(want, text) != 0)
        fail_msg("%s differs from the golden file (RTP_UPDATE_GOLDEN=1 rewrites it)", name);
    free(want);
}

/* The fixed part every launch script ends with: deploy/launch.sh after its
 * preamble (cmake/embed.cmake cuts it there); malloc'd. */
static char *template_body(void)
{
    char *text = slurp(tu_source_path("deploy/launch.sh"));
    assert_non_null(text);
    const char *mark = strstr(text, "\n# ---- end of preamble");
    assert_non_null(mark);
    const char *eol = strchr(mark + 1, '\n');
    assert_non_null(eol);
    char *body = strdup(eol + 1);
    assert_non_null(body);
    free(text);
    return body;
}

/* A launch script (NAME ending in .sh) is its generated head and the
 * template's body byte for byte: the golden file holds the head only, and
 * test_golden_template_body pins the body. Anything else is compared whole. */
static void golden(const char *name, const char *text)
{
    size_t n = strlen(name);
    if (n < 3 || strcmp(name + n - 3, ".sh") != 0) {
        golden_file(name, text);
        return;
    }
    char *body = template_body();
    size_t lt = strlen(text), lb = strlen(body);
    if (lt < lb || strcmp(text + lt - lb, body) != 0)
        fail_msg("%s does not end with deploy/launch.sh's body", name);
    char *head = strndup(text, lt - lb);
    assert_non_null(head);
    golden_file(name, head);
    free(head);
    free(body);
}

/* rtpack emit on a plan given as text; returns the exit code. */
static int emit_text(const char *plan, const char *args, char **out, char **err)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "emit - %s", args);
    return tu_run_cli(cmd, plan, out, err);
}

static int emit_status(const char *plan, const char *args)
{
    char *out = NULL, *err = NULL;
    int rc = emit_text(plan, args, &out, &err);
    free(out);
    free(err);
    return rc;
}

/* ---- quoting ---- */

static const char *const hostile[] = {
    "$(touch x)", "`touch x`", "'; reboot #", "a'b", "'", "''", "\"\\$HOME\\\\",
    "../../etc", "vidéo ✓", "*", "-n", "a b\tc", "%s %n", "$$", "!x", "~root",
    "\\", "a\\'b", "\\\\", "'\\'",
};

static void test_quote_sh_round_trip(void **state)
{
    (void)state;
    char dir[] = "/tmp/rtp_quote_XXXXXX";
    assert_non_null(mkdtemp(dir));
    for (size_t i = 0; i < sizeof hostile / sizeof hostile[0]; i++) {
        rtp_text cmd;
        rtp_text_init(&cmd);
        rtp_text_printf(&cmd, "cd %s && printf '%%s' ", dir);
        rtp_quote_sh(&cmd, hostile[i]);
        FILE *p = popen(cmd.data, "r");
        assert_non_null(p);
        char got[256] = "";
        size_t n = fread(got, 1, sizeof got - 1, p);
        got[n] = '\0';
        assert_int_equal(pclose(p), 0);
        assert_string_equal(got, hostile[i]);
        rtp_text_free(&cmd);
    }
    char x[64];
    snprintf(x, sizeof x, "%s/x", dir);
    assert_int_not_equal(access(x, F_OK), 0); /* nothing ran */
    rmdir(dir);
}

static void test_quote_systemd(void **state)
{
    (void)state;
    static const char *const cases[][2] = {
        {"plain", "\"plain\""},
        {"a\"b", "\"a\\\"b\""},
        {"a\\b", "\"a\\\\b\""},
        {"100%", "\"100%%\""},
        {"$HOME ${X}", "\"$$HOME $${X}\""},
        {"; reboot", "\"; reboot\""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        rtp_text t;
        rtp_text_init(&t);
        rtp_quote_systemd(&t, cases[i][0]);
        assert_string_equal(t.data, cases[i][1]);
        rtp_text_free(&t);
    }
}

static void test_check_text(void **state)
{
    (void)state;
    char why[96];
    static const char *const good[] = {"", "video", "vidéo ✓", "$(touch x)", "日本", "\xf0\x9f\x98\x80"};
    static const char *const bad[] = {
        "a\nb", "a\tb", "a\rb", "\x7f", "\x1b[31m", "\xc3", "\xc3\x28", "\xc0\xaf",
        "\xe0\x80\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\xc2\x85", "\xff",
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
        assert_int_equal(rtp_text_check_plain(good[i], why, sizeof why), 0);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_int_equal(rtp_text_check_plain(bad[i], why, sizeof why), -1);
}

static void test_names(void **state)
{
    (void)state;
    assert_true(rtp_quote_is_plain_name("video_1.main-x"));
    static const char *const not_plain[] = {"", ".hidden", "-x", "../../etc", "a/b", "a b",
                                            "$(x)", "vidéo", "'q'"};
    for (size_t i = 0; i < sizeof not_plain / sizeof not_plain[0]; i++)
        assert_false(rtp_quote_is_plain_name(not_plain[i]));
    assert_true(rtp_quote_is_ident("plan_2"));
    assert_false(rtp_quote_is_ident("plan-2"));
    assert_false(rtp_quote_is_ident("../x"));
    assert_false(rtp_quote_is_ident("abcdefghijklmnopqrstuvwxyz0123456"));
}

static void test_cmd_argv(void **state)
{
    (void)state;
    rtp_diag diag;
    char **argv, *storage;
    size_t argc;
    char *words[] = {"logger  --quiet  -x"};
    rtp_task t = tu_task(1, 1, 1);
    t.name = "t";
    t.cmd = words;
    t.cmd_len = 1;
    t.cmd_is_string = 1;
    assert_int_equal(rtp_quote_cmd_argv(&t, "p", &argv, &argc, &storage, &diag), RTP_OK);
    assert_int_equal(argc, 3);
    assert_string_equal(argv[0], "logger");
    assert_string_equal(argv[2], "-x");
    free(argv);
    free(storage);
    char *dash[] = {"-rf", "x"};
    t.cmd = dash;
    t.cmd_len = 2;
    t.cmd_is_string = 0;
    assert_int_equal(rtp_quote_cmd_argv(&t, "p", &argv, &argc, &storage, &diag), RTP_EINPUT);
    free(argv);
    free(storage);
    char *nl[] = {"echo", "a\nrm -rf /"};
    t.cmd = nl;
    assert_int_equal(rtp_quote_cmd_argv(&t, "p", &argv, &argc, &storage, &diag), RTP_EINPUT);
    free(argv);
    free(storage);
    t.cmd = NULL;
    t.cmd_len = 0;
    assert_int_equal(rtp_quote_cmd_argv(&t, "p", &argv, &argc, &storage, &diag), RTP_EINPUT);
    free(argv);
    free(storage);
}

/* ---- the Linux limit re-check against a reference ---- */

/* sum(wcet/period) <= num/den, exactly with 128-bit cross products (n <= 4,
 * periods below 2^24 keep every product below 2^100). */
static int ref_util_within(const rtp_task *tasks, size_t n, int64_t num, int64_t den)
{
    __int128 prod = 1, sum = 0;
    for (size_t i = 0; i < n; i++)
        prod *= tasks[i].period_ns;
    for (size_t i = 0; i < n; i++)
        sum += (__int128)tasks[i].wcet_ns * (prod / tasks[i].period_ns);
    return sum * den <= prod * num;
}

/* Slow, obviously-correct RTA for constrained deadlines, priorities
 * distinct: R = C + sum over higher ceil(R/T) C, iterated to a fixed point. */
static int ref_fp_ok(const rtp_task *tasks, const int *prio, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        rtp_ns r = tasks[i].wcet_ns, prev = 0;
        while (r != prev && r <= tasks[i].deadline_ns) {
            prev = r;
            r = tasks[i].wcet_ns;
            for (size_t j = 0; j < n; j++)
                if (prio[j] > prio[i])
                    r += (prev + tasks[j].period_ns - 1) / tasks[j].period_ns * tasks[j].wcet_ns;
        }
        if (r > tasks[i].deadline_ns)
            return 0;
    }
    return 1;
}

static void one_bin_plan(rtp_plan *plan, rtp_policy policy, const rtp_task *tasks,
                         const int *prio, size_t n)
{
    int cpu = 0;
    assert_int_equal(rtp_plan_init_cpus(plan, policy, &cpu, 1), RTP_OK);
    plan->feasible = 1;
    for (size_t i = 0; i < n; i++)
        assert_int_equal(rtp_plan_add_task(plan, 0, &tasks[i], prio ? prio[i] : 0, -1), RTP_OK);
}

/* The kernel's SCHED_DEADLINE admission sum (to_ratio, rounded down),
 * written out here independently of deploy/. */
static int64_t kernel_need(const rtp_task *tasks, size_t n)
{
    int64_t need = 0;
    for (size_t i = 0; i < n; i++)
        need += (int64_t)(((__int128)tasks[i].wcet_ns << 20) / tasks[i].period_ns);
    return need;
}

/* The launch script of a one-bin plan states `need` as the bin's bandwidth
 * (BINS='0:CPUS:1:NEED'), the number its pre-check compares. */
static const char *const *true_cmd(void *ctx, size_t j, size_t i)
{
    static const char *const words[] = {"true", NULL};
    (void)ctx, (void)j, (void)i;
    return words;
}

static void script_needs(const rtp_plan *plan, const rtp_deploy_opts *given, int64_t need)
{
    rtp_deploy_opts with_cmd = *given, *opts = &with_cmd;
    with_cmd.cmd_for = true_cmd;
    char *script = NULL, want[64];
    rtp_text warnings;
    rtp_text_init(&warnings);
    rtp_diag diag;
    rtp_diag_clear(&diag);
    if (rtp_deploy_script(plan, opts, &script, &warnings, &diag) != RTP_OK)
        fail_msg("script: %s", diag.message);
    snprintf(want, sizeof want, ":1:%lld'\n", (long long)need);
    if (!strstr(script, want))
        fail_msg("the script's BINS lack %s", want);
    free(script);
    rtp_text_free(&warnings);
}

static void test_check_random_edf(void **state)
{
    (void)state;
    tu_rng rng = {20260601};
    rtp_deploy_opts opts = rtp_deploy_opts_default();
    int counts[2] = {0, 0};
    char names[4][24];
    for (int iter = 0; iter < 2000; iter++) {
        size_t n = (size_t)tu_range(&rng, 1, 4);
        rtp_task tasks[4];
        for (size_t i = 0; i < n; i++) {
            rtp_ns period = tu_range(&rng, 100000, 10000000);
            rtp_ns most = period * 6 / 5 / (rtp_ns)n; /* U up to 1.2: all verdicts */
            tasks[i] = tu_task(tu_range(&rng, 1024, most < period ? most : period), period, period);
            snprintf(names[i], sizeof names[i], "t%zu", i);
            tasks[i].name = names[i];
        }
        rtp_plan plan;
        one_bin_plan(&plan, RTP_POLICY_EDF, tasks, NULL, n);
        int deployable = -1;
        rtp_diag diag;
        rtp_diag_clear(&diag);
        assert_int_equal(rtp_deploy_check(&plan, &opts, &deployable, &diag), RTP_OK);
        /* Implicit deadlines: EDF is exact at U <= 1, so the verdict is the
         * kernel's admission: sum of (C << 20) / T <= 943719, and the
         * script's pre-check sums the same. */
        int64_t need = kernel_need(tasks, n);
        int want = need <= 943719;
        assert_int_equal(deployable, want);
        if (want)
            script_needs(&plan, &opts, need);
        counts[want]++;
        rtp_plan_free(&plan);
    }
    assert_true(counts[0] > 100 && counts[1] > 100); /* both verdicts exercised */
}

/* One CPU just past 0.9, within the kernel's fixed point:
 * emit used to refuse what its own script's pre-check (and the kernel)
 * take. 0.9 x 2^20 = 943718.4; the kernel's default cap is 943719, so
 * 943720 / 2^20 = 0.9000015259 is the first bandwidth refused. */
static void test_budget_fixed_point_edge(void **state)
{
    (void)state;
    const struct { rtp_ns wcet; int want; } cases[] = {
        {900000000, 1},  /* 0.9 exactly */
        {900000001, 1},  /* 0.900000001: the issue's case */
        {900001500, 1},  /* floor(943719.97) = 943719 */
        {900001525, 1},  /* floor(943719.9991) = 943719 */
        {900001526, 0},  /* floor(943720.0001): over */
        {900010000, 0},
    };
    rtp_deploy_opts opts = rtp_deploy_opts_default();
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        rtp_task t = tu_task(cases[c].wcet, 1000000000, 1000000000);
        t.name = "a";
        rtp_plan plan;
        one_bin_plan(&plan, RTP_POLICY_EDF, &t, NULL, 1);
        int deployable = -1;
        rtp_diag diag;
        rtp_diag_clear(&diag);
        assert_int_equal(rtp_deploy_check(&plan, &opts, &deployable, &diag), RTP_OK);
        if (deployable != cases[c].want)
            fail_msg("wcet %lld of 1 s: deployable %d, want %d (%s)", (long long)cases[c].wcet,
                     deployable, cases[c].want, diag.message);
        if (deployable)
            script_needs(&plan, &opts, kernel_need(&t, 1));
        else
            assert_non_null(strstr(diag.message, "exceeds Linux's admission limit of "
                                                 "943719/1048576 (--budget 0.9 (the kernel's "
                                                 "943719/1048576) per CPU"));
        rtp_plan_free(&plan);
    }
}

/* Runtime = ceil(C' (1 + margin)); the re-check runs EDF with the runtimes,
 * so a margin that does not fit is refused (cli_terms.sh: the script and
 * rt-app files write them). */
static void test_runtime_margin(void **state)
{
    (void)state;
    rtp_deploy_opts opts = rtp_deploy_opts_default();
    rtp_task tasks[2] = {tu_task(1000000, 2000000, 2000000), tu_task(600000, 2000000, 2000000)};
    tasks[0].name = "a";
    tasks[1].name = "b";
    rtp_plan plan;
    one_bin_plan(&plan, RTP_POLICY_EDF, tasks, NULL, 2);
    plan.overheads.context_switch_ns = 10;
    rtp_ns r = 0;
    rtp_diag diag;
    rtp_diag_clear(&diag);
    opts.runtime_margin = (rtp_ratio){1, 3}; /* 1000020 x 4/3 = 1333360 */
    assert_int_equal(rtp_deploy_runtime(&plan, &tasks[0], &opts, &r, &diag), RTP_OK);
    assert_int_equal(r, 1333360);
    opts.runtime_margin = (rtp_ratio){1, 7}; /* 600020 x 8/7 = 685737.14.. */
    assert_int_equal(rtp_deploy_runtime(&plan, &tasks[1], &opts, &r, &diag), RTP_OK);
    assert_int_equal(r, 685738);
    /* Never above the deadline: 1000020 x 3 is cut to D = 2000000; a C'
     * above D is kept (the re-check refuses it, it is never hidden). */
    opts.runtime_margin = (rtp_ratio){2, 1};
    assert_int_equal(rtp_deploy_runtime(&plan, &tasks[0], &opts, &r, &diag), RTP_OK);
    assert_int_equal(r, 2000000);
    rtp_task late = tu_task(2500000, 2000000, 4000000);
    late.name = "late";
    assert_int_equal(rtp_deploy_runtime(&plan, &late, &opts, &r, &diag), RTP_OK);
    assert_int_equal(r, 2500020);
    opts.runtime_margin = (rtp_ratio){0, 1};
    late.wcet_ns = 1999960; /* C' = 1999980: any margin stops at D */
    assert_int_equal(rtp_deploy_runtime(&plan, &late, &opts, &r, &diag), RTP_OK);
    assert_int_equal(r, 1999980);
    opts.runtime_margin = (rtp_ratio){1, 1000000};
    assert_int_equal(rtp_deploy_runtime(&plan, &late, &opts, &r, &diag), RTP_OK);
    assert_int_equal(r, 1999982); /* ceil(1999980 x 1.000001) = 1999982 <= D */
    opts.runtime_margin = (rtp_ratio){1, 10000};
    assert_int_equal(rtp_deploy_runtime(&plan, &late, &opts, &r, &diag), RTP_OK);
    assert_int_equal(r, 2000000);
    /* U' = 0.80002 fits the 0.9 budget; x 1.1 = 0.88 still does; x 1.2 = 0.96 not. */
    const struct { rtp_ratio margin; int want; const char *why; } cases[] = {
        {{0, 1}, 1, NULL},
        {{1, 10}, 1, NULL},
        {{2, 10}, 0, "exceeds Linux's admission limit of 943719/1048576"},
        {{3, 10}, 0, "fails the exact EDF test with the plan's tasks and the runtimes"},
        {{2, 1}, 0, "fails the exact EDF test"}, /* runtimes 2 ms (cut) + 1.8 ms per 2 ms */
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        opts.runtime_margin = cases[c].margin;
        int deployable = -1;
        rtp_diag_clear(&diag);
        assert_int_equal(rtp_deploy_check(&plan, &opts, &deployable, &diag), RTP_OK);
        assert_int_equal(deployable, cases[c].want);
        if (cases[c].why)
            assert_non_null(strstr(diag.message, cases[c].why));
    }
    opts.runtime_margin = (rtp_ratio){-1, 10};
    int deployable;
    assert_int_equal(rtp_deploy_check(&plan, &opts, &deployable, &diag), RTP_EINPUT);
    rtp_plan_free(&plan);
}

/* Equal SCHED_FIFO priorities with a deadline past the period are taken
 * when the analysis passes (solver/fp.c counts a late tied thread as higher
 * priority for its peers, as Linux runs it; tests/test_recheck_ties.c holds
 * the re-check to a simulation of Linux's run lists), as are constrained
 * deadlines and distinct priorities. */
static void test_check_equal_late(void **state)
{
    (void)state;
    rtp_deploy_opts opts = rtp_deploy_opts_default();
    const struct {
        rtp_ns deadline_a;
        int prio_a, want;
    } cases[] = {{8000000, 1, 1}, {4000000, 1, 1}, {8000000, 2, 1}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        rtp_task tasks[2] = {tu_task(1000000, cases[c].deadline_a, 4000000),
                             tu_task(1000000, 10000000, 10000000)};
        tasks[0].name = "a";
        tasks[1].name = "b";
        int prio[2] = {cases[c].prio_a, 1};
        rtp_plan plan;
        one_bin_plan(&plan, RTP_POLICY_FP, tasks, prio, 2);
        int deployable = -1;
        rtp_diag diag;
        rtp_diag_clear(&diag);
        assert_int_equal(rtp_deploy_check(&plan, &opts, &deployable, &diag), RTP_OK);
        assert_int_equal(deployable, cases[c].want);
        rtp_plan_free(&plan);
    }
}

static void test_check_random_fp(void **state)
{
    (void)state;
    tu_rng rng = {777};
    rtp_deploy_opts opts = rtp_deploy_opts_default();
    int counts[2] = {0, 0};
    char names[4][24];
    for (int iter = 0; iter < 1500; iter++) {
        size_t n = (size_t)tu_range(&rng, 1, 4);
        rtp_task tasks[4];
        int prio[4];
        for (size_t i = 0; i < n; i++) {
            rtp_ns period = tu_range(&rng, 1000, 200000);
            rtp_ns wcet = tu_range(&rng, 1, period / 2);
            tasks[i] = tu_task(wcet, tu_range(&rng, wcet, period), period);
            snprintf(names[i], sizeof names[i], "t%zu", i);
            tasks[i].name = names[i];
        }
        /* Deadline-monotonic ranks 1..n, ties by index (distinct). */
        for (size_t i = 0; i < n; i++) {
            prio[i] = 1;
            for (size_t j = 0; j < n; j++)
                if (tasks[j].deadline_ns > tasks[i].deadline_ns ||
                    (tasks[j].deadline_ns == tasks[i].deadline_ns && j > i))
                    prio[i]++;
        }
        rtp_plan plan;
        one_bin_plan(&plan, RTP_POLICY_FP, tasks, prio, n);
        int deployable = -1;
        rtp_diag diag;
        rtp_diag_clear(&diag);
        assert_int_equal(rtp_deploy_check(&plan, &opts, &deployable, &diag), RTP_OK);
        int want = ref_fp_ok(tasks, prio, n) && ref_util_within(tasks, n, 9, 10);
        assert_int_equal(deployable, want);
        counts[want]++;
        rtp_plan_free(&plan);
    }
    assert_true(counts[0] > 100 && counts[1] > 100);
}

static void test_linux_bw_and_rounding(void **state)
{
    (void)state;
    assert_int_equal(rtp_linux_bw(950000, 1000000, 0), 996147);  /* kernel's 0.95 */
    assert_int_equal(rtp_linux_bw(50000000, 1000000000, 0), 52428); /* fair server */
    assert_int_equal(rtp_linux_bw(1, 3, 0), 349525);
    assert_int_equal(rtp_linux_bw(1, 3, 1), 349526);
    assert_int_equal(rtp_linux_bw(1, 2, 1), 524288);
    assert_int_equal(rtp_ns_to_us_ceil(1000), 1);
    assert_int_equal(rtp_ns_to_us_ceil(1001), 2);
    assert_int_equal(rtp_ns_to_us_floor(1999), 1);
    tu_rng rng = {5};
    for (int i = 0; i < 5000; i++) {
        rtp_ns t = tu_range(&rng, 1, (rtp_ns)1 << 50);
        assert_true(rtp_ns_to_us_ceil(t) * 1000 >= t && rtp_ns_to_us_ceil(t) * 1000 < t + 1000);
        assert_true(rtp_ns_to_us_floor(t) * 1000 <= t && rtp_ns_to_us_floor(t) * 1000 > t - 1000);
    }
}

/* ---- golden files and exit codes through the CLI ---- */

/* rm -rf DIR, which the test made (a path without quotes). */
static void remove_tree(const char *dir)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

/* text with every occurrence of `from` replaced by `to` (malloc'd). */
static char *replace_all(const char *text, const char *from, const char *to)
{
    rtp_text out;
    rtp_text_init(&out);
    for (const char *at; (at = strstr(text, from)); text = at + strlen(from)) {
        rtp_text_printf(&out, "%.*s%s", (int)(at - text), text, to);
    }
    rtp_text_append(&out, text);
    return rtp_text_take(&out);
}

/* The rt-app files of an EDF plan: one per CPU (cluster) and the launch
 * script, compared with the temporary folder's name replaced by /DIR. */
static void golden_rtapp_folder(const char *plan, const char *const *files, size_t n)
{
    char dir[] = "/tmp/rtp_rtapp_XXXXXX", rel[128], args[512], path[256], name[160];
    assert_non_null(mkdtemp(dir));
    snprintf(rel, sizeof rel, "examples/%s.json", plan);
    snprintf(args, sizeof args, "emit '%s' --format rtapp --out %s", tu_source_path(rel), dir);
    assert_int_equal(tu_run_cli(args, NULL, NULL, NULL), 0);
    for (size_t f = 0; f < n; f++) {
        snprintf(path, sizeof path, "%s/%s", dir, files[f]);
        char *text = slurp(path);
        assert_non_null(text);
        char *stable = replace_all(text, dir, "/DIR");
        snprintf(name, sizeof name, "%s.rtapp/%s", plan, files[f]);
        golden(name, stable);
        free(stable);
        free(text);
    }
    remove_tree(dir);
}

static void test_golden_single_files(void **state)
{
    (void)state;
    static const char *const plans[] = {"plan_edf", "plan_fp", "plan_clustered"};
    static const char *const formats[][2] = {{"script", "sh"}, {"json", "json"},
                                             {"rtapp", "rtapp.json"}};
    for (size_t p = 0; p < 3; p++) {
        for (size_t f = 0; f < (p == 1 ? 3u : 2u); f++) { /* one rt-app file: FP only */
            char rel[128], args[512], name[128];
            snprintf(rel, sizeof rel, "examples/%s.json", plans[p]);
            snprintf(args, sizeof args, "emit '%s' --format %s", tu_source_path(rel), formats[f][0]);
            char *out = NULL;
            assert_int_equal(tu_run_cli(args, NULL, &out, NULL), 0);
            snprintf(name, sizeof name, "%s.%s", plans[p], formats[f][1]);
            golden(name, out);
            free(out);
        }
    }
    static const char *const edf[] = {"rtpack-plan-0.rtapp.json", "rtpack-plan-1.rtapp.json",
                                      "rtpack-plan-rtapp.sh"};
    golden_rtapp_folder("plan_edf", edf, 3);
    static const char *const clustered[] = {"rtpack-plan-0.rtapp.json", "rtpack-plan-rtapp.sh"};
    golden_rtapp_folder("plan_clustered", clustered, 2);
}

static void test_golden_systemd(void **state)
{
    (void)state;
    static const char *const plans[] = {"plan_edf", "plan_fp"};
    static const char *const files[] = {
        "rtpack-plan.target", "rtpack-plan-video.service", "rtpack-plan-logger.service",
        "rtpack-plan-audio.service", "rtpack-plan-cpusets.service",
    };
    for (size_t p = 0; p < 2; p++) {
        char dir[] = "/tmp/rtp_systemd_XXXXXX", rel[128], args[512];
        assert_non_null(mkdtemp(dir));
        snprintf(rel, sizeof rel, "examples/%s.json", plans[p]);
        snprintf(args, sizeof args, "emit '%s' --format systemd --out %s/units",
                 tu_source_path(rel), dir);
        assert_int_equal(tu_run_cli(args, NULL, NULL, NULL), 0);
        for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
            char path[256], name[160];
            snprintf(path, sizeof path, "%s/units/%s", dir, files[f]);
            char *text = slurp(path);
            int is_edf = p == 0;
            if (strstr(files[f], "cpusets") && !is_edf) {
                assert_null(text); /* FP plans need no cpusets unit */
                continue;
            }
            assert_non_null(text);
            snprintf(name, sizeof name, "%s.systemd/%s", plans[p], files[f]);
            golden(name, text);
            free(text);
            unlink(path);
        }
        char cmd[512];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
        assert_int_equal(system(cmd), 0);
    }
}

#define PLAN_HEAD "{ \"feasible\": true, \"method\": \"ffd\", \"policy\": \"%s\", " \
                  "\"cpus\": [ { \"cpu\": 0, \"tasks\": [ %s ] } ], \"unassigned\": [] }"

static char *plan_of(const char *policy, const char *tasks)
{
    size_t size = strlen(PLAN_HEAD) + strlen(policy) + strlen(tasks) + 1;
    char *text = malloc(size);
    snprintf(text, size, PLAN_HEAD, policy, tasks);
    return text;
}

static void expect_emit(const char *policy, const char *tasks, const char *args, int want)
{
    char *plan = plan_of(policy, tasks);
    char *out = NULL, *err = NULL;
    int rc = emit_text(plan, args, &out, &err);
    if (rc != want)
        fail_msg("emit %s on %s: exit %d, want %d; stderr: %s", args, tasks, rc, want, err);
    free(plan);
    free(out);
    free(err);
}

static void test_exit_codes(void **state)
{
    (void)state;
    const char *sleep1 = "\"cmd\": [\"sleep\", \"1\"]";
    char t[1024];
    /* Usage and malformed plans: 2. */
    snprintf(t, sizeof t, "{ \"name\": \"a\", \"wcet\": 1000000, \"period\": 10000000, %s }", sleep1);
    expect_emit("edf", t, "", 2);
    expect_emit("edf", t, "--format pdf", 2);
    expect_emit("edf", t, "--format systemd", 2);
    expect_emit("edf", t, "--format script --budget 1.5", 2);
    expect_emit("edf", t, "--format script --fifo-range 50:10", 2);
    expect_emit("edf", t, "--format script --name 'a/b'", 2);
    expect_emit("edf", t, "--format script --cgroup-root relative/path", 2);
    expect_emit("edf", t, "--format script --cgroup v3", 2);
    expect_emit("edf", t, "--format script", 0);
    expect_emit("edf", "{ \"name\": \"a\", \"wcet\": 1, \"perod\": 2 }", "--format json", 2);
    assert_int_equal(emit_status("{ \"feasible\": true }", "--format json"), 2);
    assert_int_equal(emit_status("not json", "--format json"), 2);
    /* Not deployable: 1. */
    snprintf(t, sizeof t, "{ \"name\": \"a\", \"wcet\": 6000000, \"period\": 10000000, %s },"
                          "{ \"name\": \"b\", \"wcet\": 5000000, \"period\": 10000000, %s }",
             sleep1, sleep1);
    expect_emit("edf", t, "--format json", 1); /* fails the exact test */
    snprintf(t, sizeof t, "{ \"name\": \"a\", \"wcet\": 9500000, \"period\": 10000000, %s }", sleep1);
    expect_emit("edf", t, "--format script", 1);          /* over 0.9 */
    expect_emit("edf", t, "--format script --budget 1", 0); /* allowed by the option */
    snprintf(t, sizeof t, "{ \"name\": \"a\", \"wcet\": 1000, \"period\": 10000000, %s }", sleep1);
    expect_emit("edf", t, "--format script", 1); /* runtime < 1024 ns */
    snprintf(t, sizeof t, "{ \"name\": \"a\", \"wcet\": 1000000, \"deadline\": 20000000, "
                          "\"period\": 10000000, %s }", sleep1);
    expect_emit("edf", t, "--format script", 1); /* deadline > period */
    snprintf(t, sizeof t, "{ \"name\": \"a\", \"wcet\": 1000000, \"period\": \"5s\", %s }", sleep1);
    expect_emit("edf", t, "--format script", 1); /* period above 4.194304 s */
    expect_emit("fp", "{ \"name\": \"a\", \"wcet\": 1, \"period\": 10, \"priority\": 1, \"cmd\": \"x\" },"
                      "{ \"name\": \"b\", \"wcet\": 1, \"period\": 10, \"priority\": 2, \"cmd\": \"x\" }",
                "--format script --fifo-range 5:5", 1);
    snprintf(t, sizeof t, "{ \"name\": \"a\", \"wcet\": 9500000, \"period\": 10000000, \"priority\": 1, %s }",
             sleep1);
    expect_emit("fp", t, "--format script", 1); /* FIFO over the throttling budget */
    assert_int_equal(emit_status("{ \"feasible\": false, \"method\": \"ffd\", \"policy\": \"edf\", "
                                 "\"cpus\": [ { \"cpu\": 0, \"tasks\": [] } ], \"unassigned\": "
                                 "[ { \"name\": \"u\", \"wcet\": 1, \"period\": 2 } ] }",
                                 "--format json"),
                     1);
}

static void test_untrusted_values(void **state)
{
    (void)state;
    /* Refused everywhere: control characters in names or commands. */
    expect_emit("edf", "{ \"name\": \"a\\nb\", \"wcet\": 1000000, \"period\": 10000000, \"cmd\": \"x\" }",
                "--format script", 2);
    expect_emit("edf", "{ \"name\": \"a\", \"wcet\": 1000000, \"period\": 10000000, "
                       "\"cmd\": [\"echo\", \"a\\nreboot\"] }", "--format script", 2);
    expect_emit("edf", "{ \"name\": \"a\", \"wcet\": 1000000, \"period\": 10000000, "
                       "\"cmd\": [\"-rf\", \"x\"] }", "--format script", 2);
    expect_emit("edf", "{ \"name\": \"a\", \"wcet\": 1000000, \"period\": 10000000 }",
                "--format script", 1); /* no command: well formed, not deployable */
    expect_emit("fp", "{ \"name\": \"a\", \"wcet\": 1000000, \"period\": 10000000, \"priority\": 1 }",
                "--format rtapp", 0); /* rt-app needs none */
    expect_emit("edf", "{ \"name\": \"a\", \"wcet\": 1000000, \"period\": 10000000 }",
                "--format rtapp", 2); /* an EDF plan: one file per CPU, --out DIR */
    /* Names that cannot be unit or thread names: refused by systemd and rtapp,
     * quoted by the script. */
    static const char *const names[] = {"$(touch x)", "'; reboot #", "../../etc", "vidéo"};
    for (size_t i = 0; i < 4; i++) {
        char t[512], dir[] = "/tmp/rtp_units_XXXXXX", args[256];
        assert_non_null(mkdtemp(dir));
        snprintf(t, sizeof t, "{ \"name\": \"%s\", \"wcet\": 1000000, \"period\": 10000000, "
                              "\"cmd\": [\"echo\", \"%s\"] }", names[i], names[i]);
        snprintf(args, sizeof args, "--format systemd --out %s", dir);
        expect_emit("edf", t, args, 2);
        snprintf(args, sizeof args, "--format rtapp --out %s", dir);
        expect_emit("edf", t, args, 2);
        expect_emit("edf", t, "--format script", 0);
        rmdir(dir);
    }
}

/* Under an EDF plan a task named "cpusets" would overwrite
 * the plan's own cpuset unit (which the task units require): refused for
 * systemd, fine for the script and for FP units (FP has no cpuset unit). */
static void test_systemd_unit_name_clash(void **state)
{
    (void)state;
    char dir[] = "/tmp/rtp_clash_XXXXXX", args[256];
    assert_non_null(mkdtemp(dir));
    const char *t = "{ \"name\": \"cpusets\", \"wcet\": 1000000, \"period\": 10000000, "
                    "\"cmd\": [\"sleep\", \"1\"] }";
    snprintf(args, sizeof args, "--format systemd --out %s/u", dir);
    char *plan = plan_of("edf", t), *err = NULL;
    assert_int_equal(emit_text(plan, args, NULL, &err), 2);
    assert_non_null(strstr(err, "cpus[0].tasks[0].name: a task named 'cpusets' would take the "
                                "unit rtpack-plan-cpusets.service"));
    free(plan);
    free(err);
    char units[64];
    snprintf(units, sizeof units, "%s/u", dir);
    assert_int_not_equal(access(units, F_OK), 0); /* nothing written */
    expect_emit("edf", t, "--format script", 0);
    snprintf(args, sizeof args, "--format systemd --out %s/u", dir);
    const char *fp = "{ \"name\": \"cpusets\", \"wcet\": 1000000, \"period\": 10000000, "
                     "\"priority\": 1, \"cmd\": [\"sleep\", \"1\"] }";
    expect_emit("fp", fp, args, 0);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

/* Emitting again into a folder removes the files of the
 * previous plan of that deployment that the new one no longer has (the
 * EDF plan's cpuset unit and script, the units of removed tasks), from the
 * list the previous emit left (rtpack-NAME.files), and nothing else: not a
 * file of the user's, not another deployment's, not a path a tampered list
 * names outside the folder. */
static void test_systemd_reemit_removes_stale(void **state)
{
    (void)state;
    char dir[] = "/tmp/rtp_reemit_XXXXXX", args[600], path[300];
    assert_non_null(mkdtemp(dir));
    snprintf(args, sizeof args, "emit '%s' --format systemd --out %s/u",
             tu_source_path("examples/plan_edf.json"), dir);
    assert_int_equal(tu_run_cli(args, NULL, NULL, NULL), 0);
    snprintf(path, sizeof path, "%s/u/rtpack-plan-cpusets.service", dir);
    assert_int_equal(access(path, F_OK), 0);
    snprintf(path, sizeof path, "%s/u/mine.service", dir); /* the user's */
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fclose(f);
    snprintf(path, sizeof path, "%s/outside", dir); /* named by a tampered list */
    assert_non_null(f = fopen(path, "w"));
    fclose(f);
    snprintf(path, sizeof path, "%s/u/rtpack-plan.files", dir);
    assert_non_null(f = fopen(path, "a"));
    fputs("../outside\nmine.service/\n", f);
    fclose(f);
    snprintf(args, sizeof args, "emit '%s' --format systemd --out %s/u",
             tu_source_path("examples/plan_fp.json"), dir);
    char *err = NULL;
    assert_int_equal(tu_run_cli(args, NULL, NULL, &err), 0);
    assert_non_null(strstr(err, "rtpack-plan-cpusets.service: the previous plan's"));
    free(err);
    static const char *const gone[] = {"u/rtpack-plan-cpusets.service", "u/rtpack-plan.sh"};
    static const char *const kept[] = {"u/mine.service", "outside", "u/rtpack-plan.target",
                                       "u/rtpack-plan-network.service"};
    for (size_t i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, gone[i]);
        assert_int_not_equal(access(path, F_OK), 0);
    }
    for (size_t i = 0; i < 4; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, kept[i]);
        assert_int_equal(access(path, F_OK), 0);
    }
    /* a plan without the network task: its unit goes too */
    char *plan = slurp(tu_source_path("examples/plan_fp.json"));
    assert_non_null(plan);
    char *at = strstr(plan, "\"network\"");
    assert_non_null(at);
    memcpy(at, "\"netw0rk\"", 9);
    snprintf(path, sizeof path, "%s/renamed.json", dir);
    assert_non_null(f = fopen(path, "w"));
    fputs(plan, f);
    fclose(f);
    free(plan);
    snprintf(args, sizeof args, "emit '%s' --format systemd --out %s/u", path, dir);
    assert_int_equal(tu_run_cli(args, NULL, NULL, NULL), 0);
    snprintf(path, sizeof path, "%s/u/rtpack-plan-network.service", dir);
    assert_int_not_equal(access(path, F_OK), 0);
    snprintf(path, sizeof path, "%s/u/rtpack-plan-netw0rk.service", dir);
    assert_int_equal(access(path, F_OK), 0);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

/* The script of a hostile plan, run for real (`check`, which prints every
 * name and command), executes nothing from the plan. */
static void test_hostile_script_runs_nothing(void **state)
{
    (void)state;
    char dir[] = "/tmp/rtp_hostile_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char *plan = plan_of("fp",
        "{ \"name\": \"$(touch x)\", \"wcet\": 1, \"period\": 10, \"priority\": 2,"
        "  \"cmd\": [\"echo\", \"$(touch x)\", \"`touch x`\", \"'; touch x #\"] },"
        "{ \"name\": \"'; touch x #\", \"wcet\": 1, \"period\": 10, \"priority\": 1,"
        "  \"cmd\": \"echo $(touch x) ; touch x\" }");
    char *script = NULL;
    assert_int_equal(emit_text(plan, "--format script", &script, NULL), 0);
    char path[128], cmd[512];
    snprintf(path, sizeof path, "%s/s.sh", dir);
    spill(path, script);
    /* A fake cgroup v1 folder, so that check runs to the end. */
    snprintf(cmd, sizeof cmd, "cd %s && mkdir cg && echo 0 > cg/cpuset.cpu_exclusive && "
                              "echo 0 > cg/cpuset.cpus && echo 0 > cg/cpuset.mems && "
                              "RTPACK_CGROUP_ROOT=%s/cg dash s.sh check > out 2>&1",
             dir, dir);
    assert_int_equal(system(cmd), 0);
    snprintf(path, sizeof path, "%s/x", dir);
    assert_int_not_equal(access(path, F_OK), 0);
    snprintf(path, sizeof path, "%s/out", dir);
    char *out = slurp(path);
    assert_non_null(strstr(out, "$(touch x): taskset -c 0 chrt -f 52 echo $(touch x) `touch x` '; touch x #"));
    assert_non_null(strstr(out, "'; touch x #: taskset -c 0 chrt -f 51 echo $(touch x) ; touch x"));
    free(out);
    free(script);
    free(plan);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

/* rt-app rounding: a plan that fits in ns but not in whole microseconds is
 * refused; the values written are rounded the safe way. */
static void test_rtapp_rounding(void **state)
{
    (void)state;
    char dir[] = "/tmp/rtp_rounding_XXXXXX", args[128], path[160];
    assert_non_null(mkdtemp(dir));
    snprintf(args, sizeof args, "--format rtapp --out %s", dir);
    /* 900500 / 1000999 < 0.9, but 901 us / 1000 us > 0.9. */
    expect_emit("edf", "{ \"name\": \"a\", \"wcet\": 900500, \"period\": 1000999 }", args, 1);
    /* a bandwidth refusal (not the exact test's) names rt-app's fix too,
     * in place of its own */
    char *err = NULL, *bw = plan_of("edf", "{ \"name\": \"a\", \"wcet\": 900500, "
                                           "\"period\": 1000999 }");
    assert_int_equal(emit_text(bw, args, NULL, &err), 1);
    assert_non_null(strstr(err, "after rounding to whole microseconds for rt-app (wcet up, "
                                "deadline and period down): CPU 0: SCHED_DEADLINE bandwidth "));
    assert_non_null(strstr(err, "fixed point); fix: --format script deploys the plan unrounded"));
    assert_null(strstr(err, "--capacity 0.9"));
    free(err);
    free(bw);
    expect_emit("edf", "{ \"name\": \"a\", \"wcet\": 900500, \"period\": 1000999 }", "--format json", 0);
    char *plan = plan_of("edf", "{ \"name\": \"a\", \"wcet\": 1500, \"deadline\": 99999, \"period\": 200999 }");
    assert_int_equal(emit_text(plan, args, NULL, NULL), 0);
    snprintf(path, sizeof path, "%s/rtpack-plan-0.rtapp.json", dir);
    char *out = slurp(path);
    assert_non_null(out);
    assert_non_null(strstr(out, "\"dl-runtime\":\t2,"));
    assert_non_null(strstr(out, "\"dl-deadline\":\t99,"));
    assert_non_null(strstr(out, "\"dl-period\":\t200,"));
    assert_non_null(strstr(out, "\"run\":\t2,"));
    free(out);
    free(plan);
    remove_tree(dir);
    expect_emit("fp", "{ \"name\": \"a\", \"wcet\": 1, \"period\": 999, \"priority\": 1 }", "--format rtapp", 1);
}


/* The fix of a refusal is the caller's choice (opts.fix) whatever kind
 * the refusal is: its reason is kept word for word, its own fix replaced,
 * and a refusal without one gets the caller's. */
static void test_refusal_fix(void **state)
{
    (void)state;
    static const struct {
        rtp_policy policy;
        rtp_ns wcet, deadline, period;
        int feasible;
        const char *own_fix; /* NULL: the refusal names none */
    } cases[] = {
        {RTP_POLICY_EDF, 950000, 1000000, 1000000, 1, "partition with --capacity 0.9"},
        {RTP_POLICY_EDF, 1000, 1000000, 1000000, 1, "budget at least 1024 ns"},
        {RTP_POLICY_EDF, 5000, 2000000, 1000000, 1, "make the deadline at most the period"},
        {RTP_POLICY_FP, 1200000, 1000000, 1000000, 1, "partition again (rtpack partition)"},
        {RTP_POLICY_FP, 1000, 1000000, 1000000, 0, NULL},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        rtp_task t = tu_task(cases[c].wcet, cases[c].deadline, cases[c].period);
        t.name = "a";
        int prio = 1;
        rtp_plan plan;
        one_bin_plan(&plan, cases[c].policy, &t, &prio, 1);
        plan.feasible = cases[c].feasible;
        rtp_deploy_opts opts = rtp_deploy_opts_default();
        rtp_diag own, chosen;
        rtp_diag_clear(&own);
        rtp_diag_clear(&chosen);
        int deployable = -1;
        assert_int_equal(rtp_deploy_check(&plan, &opts, &deployable, &own), RTP_OK);
        assert_int_equal(deployable, 0);
        opts.fix = "do X";
        assert_int_equal(rtp_deploy_check(&plan, &opts, &deployable, &chosen), RTP_OK);
        assert_int_equal(deployable, 0);
        assert_string_equal(own.path, chosen.path);
        char *fix = strstr(own.message, "; fix: ");
        size_t reason = fix ? (size_t)(fix - own.message) : strlen(own.message);
        if (cases[c].own_fix)
            assert_non_null(fix && strstr(fix, cases[c].own_fix) == fix + 7);
        else
            assert_null(fix);
        assert_int_equal(strncmp(own.message, chosen.message, reason), 0);
        assert_string_equal(chosen.message + reason, "; fix: do X");
        rtp_plan_free(&plan);
    }
}

/* ---- deployment state (the live start/stop/status runs are in
 * tests/cli_deploy_lifecycle_real.sh) ---- */


static void write_state(const char *dir, const char *name, const char *script)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    assert_int_equal(mkdir(path, 0755), 0);
    snprintf(path, sizeof path, "%s/%s/state", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "version 1\nstarter 4242\nscript %s\nmode v1\nroot /sys/fs/cgroup/cpuset\n"
               "policy edf\nlogdir /var/log/rtpack/%s\nplanned 0 SCHED_DEADLINE a b\n"
               "planned 1 SCHED_DEADLINE c\ncgroup bin /x/rtpack-%s-0\n"
               "set 1 /x/cpuset.sched_load_balance\ntask 101 5555 0 task@0 a b\n"
               "task 102 - 1 c c\n",
            script, name, name);
    fclose(f);
}

static void test_state_read(void **state)
{
    (void)state;
    char dir[] = "/tmp/rtp_state_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char script[600];
    snprintf(script, sizeof script, "%s/./rt.sh", dir);
    spill(script, "#!/bin/sh\n");
    write_state(dir, "dep1", script);
    rtp_deploy_state st;
    rtp_diag diag;
    rtp_diag_clear(&diag);
    assert_int_equal(rtp_deploy_state_read(dir, "dep1", &st, &diag), RTP_OK);
    assert_string_equal(st.script, script);
    assert_string_equal(st.root, "/sys/fs/cgroup/cpuset");
    assert_int_equal(st.starter, 4242);
    assert_int_equal(st.started, 0);
    assert_int_equal(st.n_planned, 2);
    assert_int_equal(st.n_tasks, 2);
    assert_int_equal(st.tasks[0].pid, 101);
    assert_int_equal(st.tasks[0].start_time, 5555);
    assert_string_equal(st.tasks[0].name, "a b"); /* names keep their spaces */
    assert_string_equal(st.tasks[0].log, "/var/log/rtpack/dep1/task@0.log");
    assert_int_equal(st.tasks[1].bin, 1);
    assert_int_equal(st.tasks[1].start_time, -1);
    rtp_deploy_state_free(&st);
    /* Not a state file, or none: an error naming it. */
    char path[600];
    snprintf(path, sizeof path, "%s/bad", dir);
    assert_int_equal(mkdir(path, 0755), 0);
    snprintf(path, sizeof path, "%s/bad/state", dir);
    spill(path, "version 2\n");
    assert_int_equal(rtp_deploy_state_read(dir, "bad", &st, &diag), RTP_EINPUT);
    assert_non_null(strstr(diag.message, "version-1"));
    assert_int_equal(rtp_deploy_state_read(dir, "none", &st, &diag), RTP_EINPUT);
    /* The live script is found by file identity, not by spelling. */
    char name[64] = "";
    snprintf(path, sizeof path, "%s/rt.sh", dir);
    assert_int_equal(rtp_deploy_live_script(dir, path, name, sizeof name), 1);
    assert_string_equal(name, "dep1");
    snprintf(path, sizeof path, "%s/other.sh", dir);
    spill(path, "x");
    assert_int_equal(rtp_deploy_live_script(dir, path, name, sizeof name), 0);
    assert_int_equal(rtp_deploy_live_script(dir, "/nonexistent/rt.sh", name, sizeof name), 0);
    assert_int_equal(rtp_deploy_live_script("/nonexistent", path, name, sizeof name), 0);
    remove_tree(dir);
}

/* emit --out never overwrites the script of a deployment that has not been
 * stopped (exit 1, naming it); the file stays as it was. */
static void test_emit_refuses_live_script(void **state)
{
    (void)state;
    char dir[] = "/tmp/rtp_live_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char script[600], units[600], args[1400];
    snprintf(script, sizeof script, "%s/rt.sh", dir);
    spill(script, "old\n");
    snprintf(units, sizeof units, "%s/units", dir);
    assert_int_equal(mkdir(units, 0755), 0);
    snprintf(units, sizeof units, "%s/units/rtpack-plan.sh", dir);
    spill(units, "old\n");
    char states[600];
    snprintf(states, sizeof states, "%s/state", dir);
    assert_int_equal(mkdir(states, 0755), 0);
    write_state(states, "plan", script);
    write_state(states, "sys", units);
    setenv("RTPACK_STATE_DIR", states, 1);
    const char *plan = tu_source_path("examples/plan_edf.json");
    char *err = NULL;
    snprintf(args, sizeof args, "emit '%s' --format script --out '%s'", plan, script);
    assert_int_equal(tu_run_cli(args, NULL, NULL, &err), 1);
    assert_non_null(strstr(err, "refusing to overwrite"));
    assert_non_null(strstr(err, "'plan'"));
    free(err);
    char *kept = slurp(script);
    assert_string_equal(kept, "old\n");
    free(kept);
    snprintf(args, sizeof args, "emit '%s' --format systemd --out '%s/units'", plan, dir);
    assert_int_equal(tu_run_cli(args, NULL, NULL, NULL), 1);
    /* Elsewhere, or once the deployment is stopped (no state), it writes. */
    snprintf(args, sizeof args, "emit '%s' --format script --out '%s/new.sh'", plan, dir);
    assert_int_equal(tu_run_cli(args, NULL, NULL, NULL), 0);
    snprintf(states, sizeof states, "%s/state/plan", dir);
    remove_tree(states);
    snprintf(args, sizeof args, "emit '%s' --format script --out '%s'", plan, script);
    assert_int_equal(tu_run_cli(args, NULL, NULL, NULL), 0);
    unsetenv("RTPACK_STATE_DIR");
    remove_tree(dir);
}

static const char *const workload[] = {"rtpack-workload", "--load", "0.9", "$(x)", NULL};

static const char *const *workload_for(void *ctx, size_t j, size_t i)
{
    (void)j;
    (void)i;
    ++*(int *)ctx;
    return workload;
}

/* A placed task without cmd: the plan is not deployable by script or
 * systemd (status OK, the task's cmd path, the fix), unless opts.cmd_for
 * supplies the commands (rehearse). */
static void test_cmds_present(void **state)
{
    (void)state;
    char *text = NULL;
    size_t len = 0;
    rtp_diag diag;
    rtp_diag_clear(&diag);
    assert_int_equal(rtp_read_file(tu_source_path("examples/plan_edf.json"), &text, &len, &diag),
                     RTP_OK);
    rtp_plan plan;
    assert_int_equal(rtp_plan_parse_json(text, len, &plan, &diag), RTP_OK);
    free(text);
    rtp_deploy_opts opts = rtp_deploy_opts_default();
    int present = 0;
    rtp_deploy_cmds_present(&plan, &opts, &present, &diag);
    assert_int_equal(present, 1);
    rtp_task *t = &plan.bins[1].tasks[0].task;
    for (size_t k = 0; k < t->cmd_len; k++)
        free(t->cmd[k]);
    free(t->cmd);
    t->cmd = NULL;
    t->cmd_len = 0;
    rtp_deploy_cmds_present(&plan, &opts, &present, &diag);
    assert_int_equal(present, 0);
    assert_string_equal(diag.path, "cpus[1].tasks[0].cmd");
    assert_non_null(strstr(diag.message, "has no command to launch"));
    int calls = 0;
    opts.cmd_for = workload_for;
    opts.cmd_ctx = &calls;
    rtp_deploy_cmds_present(&plan, &opts, &present, &diag);
    assert_int_equal(present, 1);
    rtp_plan_free(&plan);
}

/* opts.cmd_for puts other command words in every row, quoted like a plan's
 * (rehearse's synthetic workload); rows name hostile tasks' logs task@K. */
static void test_script_cmd_for_and_logs(void **state)
{
    (void)state;
    char *text = NULL;
    size_t len = 0;
    rtp_diag diag;
    rtp_diag_clear(&diag);
    assert_int_equal(rtp_read_file(tu_source_path("examples/plan_edf.json"), &text, &len, &diag),
                     RTP_OK);
    rtp_plan plan;
    assert_int_equal(rtp_plan_parse_json(text, len, &plan, &diag), RTP_OK);
    free(text);
    free(plan.bins[1].tasks[0].task.name);
    plan.bins[1].tasks[0].task.name = strdup("au dio");
    rtp_deploy_opts opts = rtp_deploy_opts_default();
    int calls = 0;
    opts.cmd_for = workload_for;
    opts.cmd_ctx = &calls;
    rtp_text warnings;
    rtp_text_init(&warnings);
    char *script = NULL;
    assert_int_equal(rtp_deploy_script(&plan, &opts, &script, &warnings, &diag), RTP_OK);
    assert_int_equal(calls, 6);
    assert_null(strstr(script, "video_processing_tool"));
    assert_non_null(strstr(script, "\"$1\" 0 SCHED_DEADLINE 'video' 'video' chrt -R -d "
                                   "--sched-runtime 5000000 --sched-deadline 10000000 "
                                   "--sched-period 16666666 0 'rtpack-workload' '--load' "
                                   "'0.9' '$(x)'\n"));
    assert_non_null(strstr(script, "\"$1\" 1 SCHED_DEADLINE 'au dio' 'task@3' chrt"));
    free(script);
    rtp_text_free(&warnings);
    rtp_plan_free(&plan);
}

/* --isolate needs a CPU the plan leaves free (check refuses, exit 1), and
 * check describes what it would move; a fake cgroup v1 folder stands in,
 * and a recorded /proc (RTPACK_PROC_ROOT) for the live one, so the other
 * real-time threads it lists are the fixture's one FIFO thread. */
static void test_isolate_check(void **state)
{
    (void)state;
    char dir[] = "/tmp/rtp_isolate_XXXXXX", cmd[2048], path[600], proc[600];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/s.sh", dir);
    snprintf(proc, sizeof proc, "%s", tu_source_path("tests/fixtures/deploy/proc"));
    snprintf(cmd, sizeof cmd, "emit '%s' --format script --isolate --out %s",
             tu_source_path("examples/plan_edf.json"), path);
    assert_int_equal(tu_run_cli(cmd, NULL, NULL, NULL), 0);
    snprintf(cmd, sizeof cmd, "cd %s && mkdir cg && echo 0 > cg/cpuset.cpu_exclusive && "
                              "echo 0-1 > cg/cpuset.cpus && echo 0 > cg/cpuset.mems && "
                              "printf '1\\n2\\n' > cg/cgroup.procs && "
                              "RTPACK_PROC_ROOT='%s' RTPACK_CGROUP_ROOT=%s/cg dash s.sh check "
                              "> out 2>&1",
             dir, proc, dir);
    assert_int_not_equal(system(cmd), 0);
    snprintf(path, sizeof path, "%s/out", dir);
    char *out = slurp(path);
    assert_non_null(strstr(out, "--isolate needs a housekeeping CPU"));
    free(out);
    snprintf(cmd, sizeof cmd, "cd %s && echo 0-2 > cg/cpuset.cpus && export "
                              "RTPACK_PROC_ROOT='%s' && "
                              "RTPACK_CGROUP_ROOT=%s/cg dash s.sh check > out 2>&1 && "
                              "RTPACK_ISOLATE=0 RTPACK_CGROUP_ROOT=%s/cg dash s.sh check > out0 2>&1",
             dir, proc, dir, dir);
    assert_int_equal(system(cmd), 0);
    out = slurp(path);
    assert_non_null(strstr(out, "isolate: the 2 processes of the root cpuset move to the "
                                "housekeeping CPUs 2"));
    assert_non_null(strstr(out, "other real-time threads on the planned CPUs (1; they take CPU "
                                "time the analysis does not count): migration/0 (tid 18, "
                                "SCHED_FIFO 99, CPUs 0)"));
    free(out);
    snprintf(path, sizeof path, "%s/out0", dir);
    out = slurp(path);
    assert_non_null(strstr(out, "isolate: no "));
    free(out);
    remove_tree(dir);
}

/* rtp_deploy_emit, `rtpack emit` as one call, against the emitters it
 * composes on the example plans: the script and rt-app text and the
 * systemd files are theirs, the json format says the plan was judged, and
 * the rules between format and plan are options errors. */
static void test_emit_call(void **state)
{
    (void)state;
    static const char *plans[] = {"examples/plan_edf.json", "examples/plan_fp.json",
                                  "examples/plan_clustered.json"};
    for (size_t p = 0; p < sizeof plans / sizeof plans[0]; p++) {
        char *text = NULL;
        size_t len = 0;
        rtp_diag diag;
        rtp_diag_clear(&diag);
        assert_int_equal(rtp_read_file(tu_source_path(plans[p]), &text, &len, &diag), RTP_OK);
        rtp_plan plan;
        assert_int_equal(rtp_plan_parse_json(text, len, &plan, &diag), RTP_OK);
        free(text);
        rtp_deploy_opts opts = rtp_deploy_opts_default();
        rtp_emit_result res;
        /* the script: rtp_deploy_script's text and warnings */
        assert_int_equal(rtp_deploy_emit(&plan, RTP_EMIT_SCRIPT, &opts, "p", NULL, &res, &diag),
                         RTP_OK);
        assert_int_equal(res.deployable, 1);
        char *script = NULL;
        rtp_text warnings;
        rtp_text_init(&warnings);
        rtp_deploy_priority_warnings(&plan, &opts, &warnings);
        assert_int_equal(rtp_deploy_script(&plan, &opts, &script, &warnings, &diag), RTP_OK);
        assert_string_equal(res.text, script);
        assert_string_equal(res.warnings.data ? res.warnings.data : "",
                            warnings.data ? warnings.data : "");
        free(script);
        rtp_text_free(&warnings);
        rtp_emit_result_free(&res);
        /* systemd: rtp_deploy_systemd's files */
        assert_int_equal(rtp_deploy_emit(&plan, RTP_EMIT_SYSTEMD, &opts, "p", NULL, &res, &diag),
                         RTP_OK);
        rtp_deploy_file *files = NULL;
        size_t n = 0;
        rtp_text_init(&warnings);
        assert_int_equal(rtp_deploy_systemd(&plan, &opts, &files, &n, &warnings, &diag), RTP_OK);
        assert_int_equal(res.n_files, n);
        assert_null(res.text);
        for (size_t k = 0; k < n; k++) {
            assert_string_equal(res.files[k].name, files[k].name);
            assert_string_equal(res.files[k].content, files[k].content);
        }
        rtp_deploy_files_free(files, n);
        rtp_text_free(&warnings);
        rtp_emit_result_free(&res);
        /* rt-app: an EDF plan's files name their folder, which it needs */
        int edf = rtp_deploy_is_deadline(&plan);
        rtp_status st = rtp_deploy_emit(&plan, RTP_EMIT_RTAPP, &opts, "p", NULL, &res, &diag);
        assert_int_equal(st, edf ? RTP_EINPUT : RTP_OK);
        assert_int_equal(res.options_error, edf);
        assert_true(edf ? res.text == NULL : strstr(res.text, "\"global\"") != NULL);
        rtp_emit_result_free(&res);
        /* json: judged deployable; header: only for a plan with resources */
        assert_int_equal(rtp_deploy_emit(&plan, RTP_EMIT_JSON, &opts, "p", NULL, &res, &diag),
                         RTP_OK);
        assert_non_null(strstr(res.text, "\"deployable\":\ttrue"));
        rtp_emit_result_free(&res);
        assert_int_equal(rtp_deploy_emit(&plan, RTP_EMIT_HEADER, &opts, "p", NULL, &res, &diag),
                         RTP_EINPUT);
        assert_int_equal(res.options_error, 1);
        assert_string_equal(diag.message, "--format header writes the locks of a plan with "
                                          "shared resources; p has none");
        rtp_emit_result_free(&res);
        /* not deployable: the reason in diag, no output */
        opts.budget = (rtp_ratio){1, 100};
        assert_int_equal(rtp_deploy_emit(&plan, RTP_EMIT_SCRIPT, &opts, "p", NULL, &res, &diag),
                         RTP_OK);
        assert_int_equal(res.deployable, 0);
        assert_null(res.text);
        assert_true(diag.message[0] != '\0');
        rtp_emit_result_free(&res);
        rtp_plan_free(&plan);
    }
}

/* SCHED_FIFO priorities: ranks go to 51.. (above the kernel's IRQ threads
 * at 50); a bin keeps its given priorities when they all fit the range and
 * order the tasks as the plan's ranks do, else ranks and a warning. */
static void test_fifo_priorities(void **state)
{
    (void)state;
    rtp_deploy_opts opts = rtp_deploy_opts_default();
    assert_int_equal(opts.fifo_lo, 51);
    assert_int_equal(opts.fifo_hi, 98);
    rtp_task tasks[3] = {tu_task(1, 10, 10), tu_task(1, 20, 20), tu_task(1, 5, 5)};
    tasks[0].name = "a";
    tasks[1].name = "b";
    tasks[2].name = "c";
    int ranks[3] = {2, 1, 3};
    int given[3] = {80, 70, 90};
    rtp_plan plan;
    for (size_t i = 0; i < 3; i++) {
        tasks[i].has_priority = 1;
        tasks[i].priority = given[i];
    }
    one_bin_plan(&plan, RTP_POLICY_FP, tasks, ranks, 3);
    const rtp_plan_bin *bin = &plan.bins[0];
    assert_true(rtp_deploy_keeps_given(bin, &opts));
    assert_int_equal(rtp_deploy_fifo_priority(bin, 0, &opts), 80);
    assert_int_equal(rtp_deploy_fifo_priority(bin, 2, &opts), 90);
    rtp_text warnings;
    rtp_text_init(&warnings);
    rtp_deploy_priority_warnings(&plan, &opts, &warnings);
    assert_null(warnings.data);
    /* out of range: ranks from fifo_lo, with a warning */
    opts.fifo_lo = 85;
    assert_false(rtp_deploy_keeps_given(bin, &opts));
    assert_int_equal(rtp_deploy_fifo_priority(bin, 0, &opts), 86);
    assert_int_equal(rtp_deploy_fifo_priority(bin, 1, &opts), 85);
    rtp_deploy_priority_warnings(&plan, &opts, &warnings);
    assert_non_null(strstr(warnings.data, "CPU 0: the given priorities do not fit --fifo-range 85:98"));
    opts.fifo_lo = 51;
    /* another order than the plan's (a hand-edited plan): ranks */
    plan.bins[0].tasks[1].task.priority = 85;
    assert_false(rtp_deploy_keeps_given(bin, &opts));
    assert_int_equal(rtp_deploy_fifo_priority(bin, 1, &opts), 51);
    /* ties must match ties */
    plan.bins[0].tasks[1].task.priority = 80;
    assert_false(rtp_deploy_keeps_given(bin, &opts));
    plan.bins[0].tasks[1].priority = 2;
    assert_true(rtp_deploy_keeps_given(bin, &opts));
    /* one task without a given priority: ranks, no warning */
    plan.bins[0].tasks[2].task.has_priority = 0;
    assert_false(rtp_deploy_keeps_given(bin, &opts));
    rtp_text_free(&warnings);
    rtp_text_init(&warnings);
    rtp_deploy_priority_warnings(&plan, &opts, &warnings);
    assert_null(warnings.data);
    rtp_text_free(&warnings);
    rtp_plan_free(&plan);
}

/* partition and emit agree: a plan partition calls deployable is one emit
 * writes (exit 0), and one it calls not deployable emit refuses (exit 1),
 * on seeded random sets at loads around Linux's 0.9 budget. */
static void test_partition_emit_agree(void **state)
{
    (void)state;
    tu_rng rng = {2026};
    int seen[2] = {0, 0};
    for (int iter = 0; iter < 60; iter++) {
        const char *policy = iter % 2 ? "fp" : "edf";
        char args[256], *set = NULL, *plan = NULL;
        int u = (int)tu_range(&rng, 150, 198); /* total utilization x 100 on 2 CPUs */
        snprintf(args, sizeof args, "gen --tasks %d --utilization %d.%02d --seed %d "
                                    "--periods 1ms:100ms",
                 (int)tu_range(&rng, 2, 8), u / 100, u % 100, iter);
        assert_int_equal(tu_run_cli(args, NULL, &set, NULL), 0);
        snprintf(args, sizeof args, "partition - --cpus 2 --policy %s --json", policy);
        int prc = tu_run_cli(args, set, &plan, NULL);
        if (prc != 0) { /* infeasible: not deployable, and emit says so */
            assert_int_equal(prc, 1);
            assert_non_null(strstr(plan, "\"deployable\":\tfalse"));
        }
        int says = strstr(plan, "\"deployable\":\ttrue") != NULL;
        assert_true(says || strstr(plan, "\"deployable_reason\"") != NULL);
        int rc = tu_run_cli("emit - --format json", plan, NULL, NULL);
        assert_int_equal(rc, says ? 0 : 1);
        seen[says]++;
        free(set);
        free(plan);
    }
    assert_true(seen[0] > 5 && seen[1] > 5); /* both answers exercised */
}

/* ---- SCHED_DEADLINE flags through the launcher (emit --reclaim, --overrun-signal) ---- */

static void load_example(const char *name, rtp_plan *plan)
{
    char rel[128], *text = NULL;
    size_t len = 0;
    rtp_diag diag;
    rtp_diag_clear(&diag);
    snprintf(rel, sizeof rel, "examples/%s.json", name);
    assert_int_equal(rtp_read_file(tu_source_path(rel), &text, &len, &diag), RTP_OK);
    assert_int_equal(rtp_plan_parse_json(text, len, plan, &diag), RTP_OK);
    free(text);
}

/* --launcher: a command name or an absolute path (quoted where it goes);
 * the flags need a SCHED_DEADLINE plan and a format that can set them, and
 * every emitter refuses them otherwise, never drops them. */
static void test_launcher_opts(void **state)
{
    (void)state;
    rtp_diag diag;
    rtp_diag_clear(&diag);
    rtp_deploy_opts opts = rtp_deploy_opts_default();
    assert_null(opts.launcher);
    assert_int_equal(opts.reclaim, RTP_RECLAIM_AUTO);
    assert_false(opts.overrun_signal);
    static const char *const good[] = {"rtpack-launch", "/opt/rt tools/rtpack-launch",
                                       "/a'b$c`d", "launch.v2"};
    static const char *const bad[] = {"", "-x", "rel/x", "./x", "/a\nb", "/a\tb"};
    for (size_t k = 0; k < sizeof good / sizeof good[0]; k++) {
        opts.launcher = good[k];
        assert_int_equal(rtp_deploy_opts_check(&opts, &diag), RTP_OK);
    }
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        opts.launcher = bad[k];
        assert_int_equal(rtp_deploy_opts_check(&opts, &diag), RTP_EINPUT);
        assert_non_null(strstr(diag.message, "--launcher"));
    }
    opts.launcher = NULL;

    rtp_plan edf, fp;
    load_example("plan_edf", &edf);
    load_example("plan_fp", &fp);
    char *text = NULL;
    rtp_deploy_file *files = NULL;
    size_t n = 0;
    int deployable;
    assert_int_equal(rtp_deploy_flags_check(&fp, &opts, 1, &diag), RTP_OK); /* no flag */
    assert_false(rtp_deploy_uses_launcher(&edf, &opts));
    /* reclaim by default exactly when the plan carries a measured charge */
    assert_false(rtp_deploy_reclaims(&edf, &opts));
    edf.overheads.deadline_charge_ns = 1;
    assert_true(rtp_deploy_reclaims(&edf, &opts));
    assert_true(rtp_deploy_uses_launcher(&edf, &opts));
    assert_int_equal(rtp_deploy_flags_check(&edf, &opts, 1, &diag), RTP_OK); /* not asked for */
    fp.overheads.deadline_charge_ns = 1;
    assert_false(rtp_deploy_reclaims(&fp, &opts)); /* SCHED_FIFO has no budget */
    fp.overheads.deadline_charge_ns = 0;
    opts.reclaim = 0;
    assert_false(rtp_deploy_reclaims(&edf, &opts));
    assert_false(rtp_deploy_uses_launcher(&edf, &opts));
    edf.overheads.deadline_charge_ns = 0;
    for (int flag = 0; flag < 2; flag++) {
        opts.reclaim = flag == 0;
        opts.overrun_signal = flag == 1;
        const char *name = flag == 0 ? "--reclaim" : "--overrun-signal";
        assert_true(rtp_deploy_uses_launcher(&edf, &opts));
        assert_false(rtp_deploy_uses_launcher(&fp, &opts));
        assert_int_equal(rtp_deploy_flags_check(&edf, &opts, 0, &diag), RTP_OK);
        assert_int_equal(rtp_deploy_flags_check(&fp, &opts, 0, &diag), RTP_EINPUT);
        assert_non_null(strstr(diag.message, name));
        assert_non_null(strstr(diag.message, "applies only to SCHED_DEADLINE plans"));
        assert_int_equal(rtp_deploy_flags_check(&edf, &opts, 1, &diag), RTP_EINPUT);
        assert_non_null(strstr(diag.message, "rt-app sets no SCHED_DEADLINE flag"));
        /* every emitter refuses what it cannot deploy */
        assert_int_equal(rtp_deploy_script(&fp, &opts, &text, NULL, &diag), RTP_EINPUT);
        assert_null(text);
        assert_int_equal(rtp_deploy_systemd(&fp, &opts, &files, &n, NULL, &diag), RTP_EINPUT);
        assert_null(files);
        assert_int_equal(rtp_deploy_rtapp(&fp, &opts, &text, &deployable, &diag), RTP_EINPUT);
        assert_null(text);
        assert_int_equal(rtp_deploy_rtapp_files(&edf, &opts, "/tmp", &files, &n, &deployable,
                                                &diag),
                         RTP_EINPUT);
        assert_null(files);
    }
    /* The rows: launcher quoted, its flags, then -- and the command. */
    rtp_text warnings;
    rtp_text_init(&warnings);
    opts.reclaim = 0;
    opts.overrun_signal = 1;
    opts.launcher = "/opt/it's $x/launch";
    assert_int_equal(rtp_deploy_script(&edf, &opts, &text, &warnings, &diag), RTP_OK);
    assert_non_null(strstr(text, "LAUNCHER='/opt/it'\\''s $x/launch'\n"));
    assert_non_null(strstr(text, "'video' 'video' '/opt/it'\\''s $x/launch' --reset-on-fork "
                                 "--overrun-signal --runtime 5000000 --deadline 10000000 "
                                 "--period 16666666 -- 'video_processing_tool' '--fast'\n"));
    assert_null(strstr(text, "--reclaim"));
    assert_null(strstr(text, "chrt -R -d"));
    assert_non_null(strstr(warnings.data, "the launcher's --reset-on-fork"));
    free(text);
    rtp_text_free(&warnings);
    rtp_plan_free(&edf);
    rtp_plan_free(&fp);
}

/* Golden files with the launcher: the script of --reclaim (plan_edf), of
 * --overrun-signal with a --launcher path (plan_clustered), and the
 * systemd units of --reclaim, whose launch script is the script's. */
static void test_golden_launcher(void **state)
{
    (void)state;
    static const struct { const char *plan, *args, *golden; } scripts[] = {
        {"plan_edf", "--reclaim", "plan_edf.reclaim.sh"},
        {"plan_clustered", "--overrun-signal --launcher '/opt/rt tools/rtpack-launch'",
         "plan_clustered.overrun.sh"},
    };
    char rel[128], args[512], *out = NULL;
    for (size_t k = 0; k < sizeof scripts / sizeof scripts[0]; k++) {
        snprintf(rel, sizeof rel, "examples/%s.json", scripts[k].plan);
        snprintf(args, sizeof args, "emit '%s' --format script %s", tu_source_path(rel),
                 scripts[k].args);
        assert_int_equal(tu_run_cli(args, NULL, &out, NULL), 0);
        golden(scripts[k].golden, out);
        free(out);
    }
    char dir[] = "/tmp/rtp_systemd_XXXXXX", path[256];
    assert_non_null(mkdtemp(dir));
    snprintf(args, sizeof args, "emit '%s' --format systemd --reclaim --out %s/units",
             tu_source_path("examples/plan_edf.json"), dir);
    assert_int_equal(tu_run_cli(args, NULL, NULL, NULL), 0);
    static const char *const files[] = {"rtpack-plan.target", "rtpack-plan-video.service",
                                        "rtpack-plan-cpusets.service"};
    for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
        snprintf(path, sizeof path, "%s/units/%s", dir, files[f]);
        char *text = slurp(path), name[160];
        assert_non_null(text);
        snprintf(name, sizeof name, "plan_edf.reclaim.systemd/%s", files[f]);
        golden(name, text);
        free(text);
    }
    snprintf(path, sizeof path, "%s/units/rtpack-plan.sh", dir);
    char *unit_script = slurp(path);
    assert_non_null(unit_script);
    golden("plan_edf.reclaim.sh", unit_script); /* the script's, head and body */
    free(unit_script);
    remove_tree(dir);
}

/* The launch scripts' fixed part (deploy/launch.sh after its preamble)
 * changes only on purpose: its FNV-1a hash is pinned in
 * tests/golden/deploy/launch.body.fnv1a (RTP_UPDATE_GOLDEN=1 rewrites it
 * after review), so the five goldens need not repeat its 977 lines. */
static void test_golden_template_body(void **state)
{
    (void)state;
    char *body = template_body();
    uint64_t h = 14695981039346656037u;
    for (const unsigned char *p = (const unsigned char *)body; *p; p++)
        h = (h ^ *p) * 1099511628211u;
    char line[32];
    snprintf(line, sizeof line, "%016" PRIx64 "\n", h);
    golden_file("launch.body.fnv1a", line);
    free(body);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_golden_template_body),
        cmocka_unit_test(test_quote_sh_round_trip),
        cmocka_unit_test(test_quote_systemd),
        cmocka_unit_test(test_check_text),
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_check_equal_late),
        cmocka_unit_test(test_runtime_margin),
        cmocka_unit_test(test_budget_fixed_point_edge),
        cmocka_unit_test(test_cmd_argv),
        cmocka_unit_test(test_check_random_edf),
        cmocka_unit_test(test_check_random_fp),
        cmocka_unit_test(test_linux_bw_and_rounding),
        cmocka_unit_test(test_golden_single_files),
        cmocka_unit_test(test_golden_systemd),
        cmocka_unit_test(test_systemd_unit_name_clash),
        cmocka_unit_test(test_systemd_reemit_removes_stale),
        cmocka_unit_test(test_exit_codes),
        cmocka_unit_test(test_untrusted_values),
        cmocka_unit_test(test_hostile_script_runs_nothing),
        cmocka_unit_test(test_rtapp_rounding),
        cmocka_unit_test(test_state_read),
        cmocka_unit_test(test_emit_refuses_live_script),
        cmocka_unit_test(test_script_cmd_for_and_logs),
        cmocka_unit_test(test_isolate_check),
        cmocka_unit_test(test_emit_call),
        cmocka_unit_test(test_fifo_priorities),
        cmocka_unit_test(test_refusal_fix),
        cmocka_unit_test(test_partition_emit_agree),
        cmocka_unit_test(test_cmds_present),
        cmocka_unit_test(test_launcher_opts),
        cmocka_unit_test(test_golden_launcher),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
