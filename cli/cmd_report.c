/* cli/cmd_report.c — `rtpack report PLAN --out F.html`: the plan's review
 * page (report/report.h; docs/spec.md "rtpack report"), with a rehearsal
 * and a probe document beside it when given. Every input is read and
 * checked first; the page is written once, whole (models/fileio.h), so a
 * bad input (exit 2) or a limit (exit 3) leaves no file. Exit 0 when the
 * page is written, whatever it says of the plan. */
#include "cli/cli.h"
#include "models/fileio.h"
#include "probe/probe_doc.h"
#include "rehearse/rehearse_doc.h"
#include "report/report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct report_settings {
    const char *out;
    const char *rehearsal;
    const char *probe;
    const char *title;
    rtp_report_opts r;
} report_settings;

static const cli_option options[] = {
    {.name = "out", .type = CLI_STRING, CLI_TARGET(report_settings, out), .metavar = "F.html",
     .flags = CLI_FILE | CLI_REQUIRED | CLI_OUTPUT,
     .help = "the page to write: a new path or a regular file, replaced whole"},
    {.name = "rehearsal", .type = CLI_STRING, CLI_TARGET(report_settings, rehearsal),
     .metavar = "R.json", .flags = CLI_FILE,
     .help = "a rehearse --json document of this plan: observed responses beside the bounds"},
    {.name = "probe", .type = CLI_STRING, CLI_TARGET(report_settings, probe),
     .metavar = "P.json", .flags = CLI_FILE,
     .help = "a probe --json document of the plan's machine: facts, measured overheads, "
             "warnings"},
    {.name = "window", .type = CLI_TIME, CLI_TARGET(report_settings, r.window_ns),
     .metavar = "T", .def = "the hyperperiod if it holds at most 500 jobs, else the largest "
                           "period",
     .help = "the simulated Gantt window [0, T)"},
    {.name = "priority", .type = CLI_ENUM, CLI_TARGET(report_settings, r.priority),
     .choices = cli_priority_choices, .def = "opa",
     .help = "FP plans: the rule the plan was made with, re-run by the sensitivity search"},
    {.name = "capacity", .type = CLI_DECIMAL, CLI_TARGET(report_settings, r.capacity),
     .range = "(0, 1]", .def = "1",
     .help = "partition's --capacity, to explain tasks the plan could not place"},
    {.name = "budget", .type = CLI_DECIMAL, CLI_TARGET(report_settings, r.deploy.budget),
     .range = "(0, 1]", .def = "0.9", .help = "as emit's: usable real-time bandwidth per CPU"},
    {.name = "runtime-margin", .type = CLI_DECIMAL,
     CLI_TARGET(report_settings, r.deploy.runtime_margin), .range = "[0, 10]",
     .def = "the rehearsal's, else 0",
     .help = "as emit's: SCHED_DEADLINE runtime = C' x (1 + F)"},
    {.name = "title", .type = CLI_STRING, CLI_TARGET(report_settings, title), .metavar = "TEXT",
     .def = "PLAN's file name", .help = "the page's title"},
    CLI_OPTION_MAX_INPUT,
    CLI_END,
};

static void init(void *opaque)
{
    report_settings *s = opaque;
    s->r = rtp_report_opts_default();
}

/* Reads FILE ("-" for standard input) into a document with `parse`. */
static int load(const cli_args *args, const char *file,
                rtp_status (*parse)(const char *, size_t, void *, rtp_diag *), void *out)
{
    rtp_diag diag;
    rtp_diag_clear(&diag);
    char *text = NULL;
    size_t len = 0;
    rtp_status st = rtp_read_file_max(file, args->max_input, &text, &len, &diag);
    if (st == RTP_OK)
        st = parse(text, len, out, &diag);
    free(text);
    return st == RTP_OK ? 0 : cli_fail(args, cli_shown_name(file), st, &diag);
}

static rtp_status parse_rehearsal(const char *text, size_t len, void *out, rtp_diag *diag)
{
    return rtp_rehearse_report_parse_json(text, len, out, diag);
}

static rtp_status parse_probe(const char *text, size_t len, void *out, rtp_diag *diag)
{
    return rtp_probe_report_parse_json(text, len, out, diag);
}

static int run(const cli_args *args, void *settings)
{
    report_settings *s = settings;
    const char *file = args->positional[0];
    char why[160];
    int stdin_twice = (strcmp(file, "-") == 0) + (s->rehearsal && strcmp(s->rehearsal, "-") == 0) +
                      (s->probe && strcmp(s->probe, "-") == 0);
    if (stdin_twice > 1)
        return cli_usage_error(args, "standard input (-) can be only one of PLAN, --rehearsal "
                                     "and --probe");
    if (s->title && rtp_text_check_plain(s->title, why, sizeof why) != 0)
        return cli_usage_error(args, "--title %s", why);
    rtp_plan plan;
    rtp_rehearse_report rehearsal;
    rtp_probe_report probe;
    memset(&rehearsal, 0, sizeof rehearsal);
    rtp_probe_report_init(&probe);
    int rc = cli_load_plan(args, file, &plan);
    if (rc != 0)
        return rc;
    if (CLI_GIVEN(args, report_settings, r.priority) &&
        !(plan.policy == RTP_POLICY_FP || plan.policy == RTP_POLICY_GFP)) {
        rc = cli_usage_error(args, "--priority applies only to a fixed-priority plan (%s is %s)",
                             cli_shown_name(file), rtp_policy_name(plan.policy));
        goto done;
    }
    if ((s->rehearsal && (rc = load(args, s->rehearsal, parse_rehearsal, &rehearsal))) ||
        (s->probe && (rc = load(args, s->probe, parse_probe, &probe))))
        goto done;
    s->r.margin_given = CLI_GIVEN(args, report_settings, r.deploy.runtime_margin);
    rtp_diag diag;
    rtp_diag_clear(&diag);
    rtp_status st = RTP_OK;
    if (s->rehearsal &&
        (st = rtp_report_check_rehearsal(&plan, &rehearsal, &s->r, &diag)) != RTP_OK) {
        rc = cli_fail(args, cli_shown_name(s->rehearsal), st, &diag);
        goto done;
    }
    if (s->probe && (st = rtp_report_check_probe(&plan, &probe, &diag)) != RTP_OK) {
        rc = cli_fail(args, cli_shown_name(s->probe), st, &diag);
        goto done;
    }
    const char *base = strrchr(file, '/');
    s->r.title = s->title ? s->title : strcmp(file, "-") == 0 ? "standard input"
                                     : base                   ? base + 1
                                                              : file;
    s->r.generator = cli_version();
    rtp_text page;
    rtp_text_init(&page);
    st = rtp_report_html(&plan, s->rehearsal ? &rehearsal : NULL, s->probe ? &probe : NULL,
                         &s->r, &page, &diag);
    if (st == RTP_OK)
        st = rtp_write_file(s->out, page.data, page.len, 0644, &diag);
    rc = st == RTP_OK ? CLI_EXIT_OK : cli_fail(args, "", st, &diag);
    rtp_text_free(&page);
done:
    rtp_plan_free(&plan);
    rtp_rehearse_report_free(&rehearsal);
    rtp_probe_report_free(&probe);
    return rc;
}

const cli_command cli_cmd_report = {
    .name = "report",
    .summary = "Write one self-contained HTML page of a plan for a design review: proof, "
               "margins, schedule, and a rehearsal and a probe beside it.",
    .description =
        "The page shows the platform and its overheads, per CPU the load against the "
        "real-time budget and the tasks tightest first with their response bounds and slack, "
        "the sensitivity margins (wcet_max per task, the critical scaling factor per CPU), "
        "the proof or the refusal in words, what emit writes per task, and a simulated Gantt "
        "window; with --rehearsal the observed responses beside every bound, with --probe "
        "the machine's facts, measured overheads and warnings. Everything is computed again "
        "from the plan. The page needs no network and no script (inline CSS and SVG) and "
        "reads on a phone and on paper. A rehearsal or probe document that does not belong "
        "to the plan is exit 2 with its JSON path, and no file is written. Exit 0 when the "
        "page is written, whatever it says.",
    .operands = "PLAN",
    .operand_help = "a partition --json document; - reads standard input",
    .min_operands = 1, .max_operands = 1,
    .examples = "rtpack report plan.json --out plan.html\n"
                "rtpack report plan.json --rehearsal rehearsal.json --probe probe.json --out "
                "review.html\n"
                "rtpack report plan.json --window 5ms --out detail.html\n",
    .options = options,
    .settings_size = sizeof(report_settings),
    .init = init,
    .run = run,
};
