/* cli/cmd_rehearse.c — `rtpack rehearse PLAN`: deploy the plan here with the
 * synthetic workload, run it, tear it down and print per task what the jobs
 * saw beside the analysed bound (rehearse/rehearse.h; docs/spec.md
 * "rtpack rehearse"). SIGINT, SIGTERM and SIGHUP end the run early; the library
 * still tears the deployment down and reports what ran. */
#include "cli/cli.h"
#include "deploy/script.h"
#include "rehearse/rehearse.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct rehearse_settings {
    rtp_rehearse_opts r;
    int no_reclaim;
} rehearse_settings;

static const cli_option options[] = {
    {.name = "seconds", .type = CLI_INT, CLI_TARGET(rehearse_settings, r.seconds),
     .metavar = "S", .min = 1, .max = 86400, .def = "10", .help = "how long the workload runs"},
    {.name = "load", .type = CLI_DECIMAL, CLI_TARGET(rehearse_settings, r.load),
     .range = "(0, 1]", .def = "1", .help = "CPU time each job burns, as a fraction of its wcet"},
    {.name = "hog", .type = CLI_FLAG, CLI_TARGET(rehearse_settings, r.hog),
     .help = "also run a normal-priority busy loop on every CPU (a busy machine)"},
    {.name = "reclaim", .type = CLI_FLAG, CLI_TARGET(rehearse_settings, r.deploy.reclaim),
     .def = "on when the plan carries a measured deadline_charge",
     .help = "as emit's: SCHED_DEADLINE tasks reclaim bandwidth others leave unused"},
    {.name = "no-reclaim", .type = CLI_FLAG, CLI_TARGET(rehearse_settings, no_reclaim),
     .help = "as emit's: SCHED_DEADLINE tasks never reclaim"},
    {.name = "overrun-signal", .type = CLI_FLAG,
     CLI_TARGET(rehearse_settings, r.deploy.overrun_signal),
     .help = "as emit's; each task counts the SIGXCPU it receives (overruns)"},
    {.name = "runtime-margin", .type = CLI_DECIMAL,
     CLI_TARGET(rehearse_settings, r.deploy.runtime_margin), .range = "[0, 10]", .def = "0",
     .help = "as emit's: SCHED_DEADLINE runtime = C' x (1 + F)"},
    {.name = "budget", .type = CLI_DECIMAL, CLI_TARGET(rehearse_settings, r.deploy.budget),
     .range = "(0, 1]", .def = "0.9", .help = "as emit's: usable real-time bandwidth per CPU"},
    CLI_OPTION_JSON,
    CLI_OPTION_MAX_INPUT,
    CLI_END,
};

static void init(void *opaque)
{
    rehearse_settings *s = opaque;
    s->r.seconds = 10;
    s->r.load = (rtp_ratio){1, 1};
    s->r.deploy = rtp_deploy_opts_default();
    s->r.scratch_parent = "/tmp";
}

/* PROGRAM beside this program (build/ or the install's bin/). */
static int find_beside(const char *program, char *path, size_t size)
{
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0)
        return -1;
    self[n] = '\0';
    char *slash = strrchr(self, '/');
    if (!slash)
        return -1;
    *slash = '\0';
    if ((size_t)snprintf(path, size, "%s/%s", self, program) >= size)
        return -1;
    return access(path, X_OK);
}

static void us(char *buf, size_t size, rtp_ns v)
{
    if (v < 0)
        snprintf(buf, size, "-");
    else
        snprintf(buf, size, "%lld.%03lld", (long long)(v / 1000), (long long)(v % 1000));
}

static void print_human(const rtp_rehearse_report *r)
{
    char load[32];
    if (r->leftovers[0])
        printf("before this rehearsal: %s\n", r->leftovers);
    rtp_ratio_format(r->load, load, sizeof load);
    printf("rehearsed %d s, each job doing %s x wcet of work%s%s; arrivals: %s\n", r->seconds,
           load, r->hog ? ", a CPU hog on every CPU" : "",
           r->reclaim ? ", reclaiming" : "",
           !r->arrival_grid                          ? "-"
           : strcmp(r->arrival_grid, "kernel") == 0  ? "the kernel's SCHED_DEADLINE periods"
           : strcmp(r->arrival_grid, "release") == 0 ? "each task's absolute release times"
                                                     : "each task's first job");
    if (r->grid_note[0])
        printf("note: %s\n", r->grid_note);
    printf("%-20s %4s %8s %8s %12s %12s %12s\n", "task", "cpu", "jobs", "misses",
           "max (us)", "p99 (us)", "bound (us)");
    for (size_t k = 0; k < r->n_tasks; k++) {
        const rtp_rehearse_task *t = &r->tasks[k];
        char mx[32], p99[32], bound[32];
        us(mx, sizeof mx, t->response_max_ns);
        us(p99, sizeof p99, t->response_p99_ns);
        us(bound, sizeof bound, t->bound_ns);
        printf("%-20s %4d %8llu %8llu %12s %12s %12s", t->name, t->cpu, t->jobs, t->misses, mx,
               p99, bound);
        if (r->overrun_signal)
            printf("  %lld overrun%s", t->overruns, t->overruns == 1 ? "" : "s");
        printf("%s\n", rtp_rehearse_over_bound(t) ? "  over the bound" : "");
    }
    if (r->n_steal) {
        printf("hypervisor steal:");
        for (size_t i = 0; i < r->n_steal; i++)
            printf("%s cpu %d %.1f%%", i ? "," : "", r->steal[i].cpu,
                   (double)rtp_rehearse_steal_ppm_of(r, i) / 1e4);
        printf("\n");
    }
    printf("machine restored: %s%s%s\n", r->machine_restored ? "yes" : "no: ",
           r->machine_restored ? "" : r->left, "");
    char verdict[1024], advice[1024];
    rtp_rehearse_verdict(r, verdict, sizeof verdict, advice, sizeof advice);
    printf("verdict: %s\nadvice: %s\n", verdict, advice);
}

static int run(const cli_args *args, void *settings)
{
    rehearse_settings *s = settings;
    const char *file = args->positional[0], *shown = cli_shown_name(file);
    char workload[PATH_MAX], launcher[PATH_MAX];
    rtp_diag diag;
    rtp_diag_clear(&diag);
    if (find_beside("rtpack-workload", workload, sizeof workload) != 0) {
        rtp_diag_set(&diag, RTP_EINTERNAL, "", "rtpack-workload is not installed beside rtpack");
        return cli_fail(args, "", RTP_EINTERNAL, &diag);
    }
    s->r.workload = workload;
    if (s->no_reclaim && s->r.deploy.reclaim == 1)
        return cli_usage_error(args, "--reclaim and --no-reclaim say opposite things: give one");
    if (s->no_reclaim)
        s->r.deploy.reclaim = 0;
    rtp_plan plan;
    int rc = cli_load_plan(args, file, &plan);
    if (rc != 0)
        return rc;
    if (rtp_deploy_uses_launcher(&plan, &s->r.deploy)) {
        if (find_beside("rtpack-launch", launcher, sizeof launcher) != 0) {
            rtp_plan_free(&plan);
            rtp_diag_set(&diag, RTP_EINTERNAL, "", "rtpack-launch is not installed beside rtpack");
            return cli_fail(args, "", RTP_EINTERNAL, &diag);
        }
        s->r.deploy.launcher = launcher;
    }
    if ((s->r.deploy.reclaim == 1 || s->r.deploy.overrun_signal) &&
        !rtp_deploy_is_deadline(&plan)) {
        rtp_plan_free(&plan);
        return cli_usage_error(args, "%s applies only to SCHED_DEADLINE plans (policy edf), "
                               "not to this %s plan",
                               s->r.deploy.reclaim == 1 ? "--reclaim" : "--overrun-signal",
                               rtp_policy_name(plan.policy));
    }
    s->r.interrupt = cli_stop_signals_catch(NULL);
    rtp_rehearse_report report;
    rtp_status st = rtp_rehearse_run(&plan, &s->r, &report, &diag);
    rtp_plan_free(&plan);
    rc = CLI_EXIT_OK;
    if (st == RTP_EINPUT) {
        rc = cli_fail(args, shown, st, &diag);
    } else {
        if (report.tasks && (st == RTP_OK || report.machine_restored == 0)) {
            if (args->json) {
                char *doc = rtp_rehearse_report_to_json(&report, 1);
                if (doc)
                    fputs(doc, stdout);
                free(doc);
            } else {
                print_human(&report);
            }
        }
        for (size_t k = 0; k < report.n_tasks && st == RTP_OK; k++)
            if (report.tasks[k].misses || rtp_rehearse_over_bound(&report.tasks[k]))
                rc = CLI_EXIT_NO;
        if (st != RTP_OK)
            rc = cli_fail(args, shown, st, &diag);
    }
    rtp_rehearse_report_free(&report);
    return rc;
}

const cli_command cli_cmd_rehearse = {
    .name = "rehearse",
    .summary = "Deploy a plan here with a synthetic workload, run it, tear it down, and "
               "report misses and response times beside the analysed bounds.",
    .description =
        "PLAN is a partition --json document. rehearse deploys it exactly as emit --format "
        "script would (same checks, cpusets, policies and runtimes), with rtpack-workload in "
        "place of each task's command: each job burns --load x wcet of CPU time and waits "
        "for its next release with the pattern docs/deploy.md documents for its policy. "
        "After --seconds it stops everything, reads what every task recorded, and checks "
        "that the machine's cpusets, load-balancing settings and real-time threads are as "
        "before. Needs root. Exit 0: no miss and every response within its bound; 1: a miss "
        "or a response above its bound; 2: bad or undeployable plan; 3: could not deploy, or "
        "the machine is not as it was (the message says what is left).",
    .operands = "PLAN",
    .operand_help = "a partition --json document; - reads standard input",
    .min_operands = 1, .max_operands = 1,
    .examples = "rtpack rehearse plan.json --seconds 30\n"
                "rtpack rehearse plan.json --runtime-margin 0.2 --json > rehearsal.json\n",
    .options = options,
    .settings_size = sizeof(rehearse_settings),
    .init = init,
    .run = run,
};
