/* cli/cmd_emit.c — `rtpack emit`: turn a partition plan into deployable
 * files (docs/spec.md "rtpack emit"). Reads the plan, makes the format in
 * memory with one call (deploy/emit.h: the re-check, exit 1 with the reason
 * when infeasible or refused by Linux), then writes it to standard output
 * or --out (all or nothing; folders with their list of files). */
#include "cli/cli.h"
#include "deploy/emit.h"
#include "deploy/script.h"
#include "deploy/state.h"
#include "models/fileio.h"
#include "models/plan.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct emit_settings {
    rtp_emit_format format;
    const char *out;
    rtp_deploy_opts deploy;
    int fifo_range[2];        /* --fifo-range LO:HI, copied into deploy */
    int no_reclaim;           /* --no-reclaim: deploy.reclaim = 0 */
} emit_settings;

static const cli_choice formats[] = {
    {"script", RTP_EMIT_SCRIPT}, {"systemd", RTP_EMIT_SYSTEMD}, {"rtapp", RTP_EMIT_RTAPP},
    {"json", RTP_EMIT_JSON},     {"header", RTP_EMIT_HEADER}, {NULL, 0},
};
static const cli_choice cgroups[] = {
    {"v1", RTP_CGROUP_V1}, {"v2", RTP_CGROUP_V2}, {"auto", RTP_CGROUP_AUTO}, {NULL, 0},
};

/* "LO:HI", both in 1..99. */
static int parse_fifo_range(const char *text, void *field, char *why, size_t why_size)
{
    int *range = field;
    char tail;
    (void)why;
    (void)why_size;
    if (strspn(text, "0123456789:") != strlen(text) ||
        sscanf(text, "%d:%d%c", &range[0], &range[1], &tail) != 2)
        return -1;
    return range[0] >= 1 && range[0] <= 99 && range[1] >= 1 && range[1] <= 99 ? 0 : -1;
}

static const cli_option options[] = {
    {.name = "format", .type = CLI_ENUM, CLI_TARGET(emit_settings, format), .choices = formats,
     .flags = CLI_REQUIRED, .help = "what to write"},
    {.name = "out", .type = CLI_STRING, CLI_TARGET(emit_settings, out), .metavar = "PATH",
     .flags = CLI_FILE,
     .help = "output file (a folder for systemd); default standard output"},
    {.name = "budget", .type = CLI_DECIMAL, CLI_TARGET(emit_settings, deploy.budget),
     .range = "(0, 1]", .def = "0.9 = 0.95 - fair server",
     .help = "usable real-time bandwidth per CPU"},
    {.name = "runtime-margin", .type = CLI_DECIMAL,
     CLI_TARGET(emit_settings, deploy.runtime_margin), .range = "[0, 10]", .def = "0",
     .help = "SCHED_DEADLINE runtime = C' x (1 + F), C' = wcet + 2 x context switch"},
    {.name = "reclaim", .type = CLI_FLAG, CLI_TARGET(emit_settings, deploy.reclaim),
     .def = "on when the plan carries a measured deadline_charge",
     .help = "script and systemd: SCHED_DEADLINE tasks may also use bandwidth the others "
             "leave unused (SCHED_FLAG_RECLAIM, GRUB); they start through --launcher"},
    {.name = "no-reclaim", .type = CLI_FLAG, CLI_TARGET(emit_settings, no_reclaim),
     .help = "SCHED_DEADLINE tasks never reclaim (started with chrt unless --overrun-signal)"},
    {.name = "overrun-signal", .type = CLI_FLAG,
     CLI_TARGET(emit_settings, deploy.overrun_signal),
     .help = "script and systemd: the kernel sends SIGXCPU to a SCHED_DEADLINE task that "
             "overruns its runtime (SCHED_FLAG_DL_OVERRUN); tasks start with it ignored, so "
             "only one that installs a handler sees it"},
    {.name = "launcher", .type = CLI_STRING, CLI_TARGET(emit_settings, deploy.launcher),
     .metavar = "PATH", .flags = CLI_FILE,
     .def = RTP_DEPLOY_LAUNCHER ", found on PATH when the script runs",
     .help = "with --reclaim or --overrun-signal: the program that starts SCHED_DEADLINE tasks"},
    {.name = "fifo-range", .type = CLI_CUSTOM, CLI_TARGET(emit_settings, fifo_range),
     .metavar = "LO:HI", .parse = parse_fifo_range, .wants = "LO:HI within 1..99",
     .def = "51:98, above the kernel's IRQ threads at 50",
     .help = "SCHED_FIFO priorities to map the plan onto"},
    {.name = "cgroup", .type = CLI_ENUM, CLI_TARGET(emit_settings, deploy.cgroup),
     .choices = cgroups, .def = "auto, decided when the script runs",
     .when = "format=script,systemd,rtapp",
     .help = "cpuset hierarchy the script uses"},
    {.name = "cgroup-root", .type = CLI_STRING, CLI_TARGET(emit_settings, deploy.cgroup_root),
     .metavar = "PATH", .flags = CLI_DIR, .def = "detected", .when = "format=script,systemd,rtapp",
     .help = "cpuset folder the script uses"},
    {.name = "name", .type = CLI_STRING, CLI_TARGET(emit_settings, deploy.name),
     .metavar = "NAME", .def = "plan", .when = "format=script,systemd,rtapp",
     .help = "deployment name, [A-Za-z0-9_]"},
    {.name = "duration", .type = CLI_INT, CLI_TARGET(emit_settings, deploy.duration_s),
     .metavar = "S", .min = 1, .max = 1000000, .def = "10", .when = "format=rtapp",
     .help = "rtapp run time in seconds"},
    {.name = "isolate", .type = CLI_FLAG, CLI_TARGET(emit_settings, deploy.isolate),
     .when = "format=script,systemd,rtapp",
     .help = "move other processes and IRQs to the CPUs the plan leaves free"},
    CLI_OPTION_MAX_INPUT,
    CLI_END,
};

static void init(void *opaque)
{
    emit_settings *s = opaque;
    s->deploy = rtp_deploy_opts_default();
    s->fifo_range[0] = s->deploy.fifo_lo;
    s->fifo_range[1] = s->deploy.fifo_hi;
}

/* A script file that a deployment started from and has not stopped is
 * never overwritten: its stop would still work (it reads the state), but
 * the user would lose the file that says what runs. */
static int refuse_live(const cli_args *args, const char *path)
{
    const char *dir = getenv("RTPACK_STATE_DIR");
    char name[64];
    if (!dir || !*dir)
        dir = RTP_DEPLOY_STATE_DIR;
    if (!rtp_deploy_live_script(dir, path, name, sizeof name))
        return 0;
    fprintf(stderr, "rtpack %s: refusing to overwrite %s: it is the launch script of deployment "
                    "'%s', which is running (state %s/%s/state); run `sh %s stop` first, or "
                    "write elsewhere\n",
            args->command, path, name, dir, name, path);
    return CLI_EXIT_NO;
}

/* path written all or nothing (models/fileio.h): a failure leaves the old
 * file or none, exit 3. */
static int write_file(const cli_args *args, const char *path, const char *text, int executable)
{
    int rc = executable ? refuse_live(args, path) : 0;
    if (rc)
        return rc;
    rtp_diag diag;
    rtp_diag_clear(&diag);
    rtp_status st = rtp_write_file(path, text, strlen(text), executable ? 0755 : 0644, &diag);
    return st == RTP_OK ? 0 : cli_fail(args, "", st, &diag);
}

/* The list of files a folder format wrote (DIR/rtpack-NAME.files for
 * systemd, DIR/rtpack-NAME-rtapp.files for rt-app), so that emitting again
 * removes what the new plan no longer has (the units of removed tasks, an
 * EDF plan's cpuset unit and script after an FP plan): only files that an
 * emit of this deployment and format wrote, never anything else. */
typedef struct manifest {
    char *path;     /* DIR/MANIFEST */
    char *old;      /* the previous list (malloc'd text), or NULL */
    char **stale;   /* names in it that this emit does not write (into old) */
    size_t n_stale;
} manifest;

static int in_files(const rtp_deploy_file *files, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(files[i].name, name) == 0)
            return 1;
    return 0;
}

/* Reads the previous list and picks its stale names; 0, or an exit code
 * after a message. A line that is not a plain file name is ignored (the
 * list is never a way to delete elsewhere). */
static int manifest_read(const cli_args *args, manifest *m, const rtp_deploy_file *files,
                         size_t n)
{
    rtp_diag diag;
    rtp_diag_clear(&diag);
    size_t len = 0;
    if (access(m->path, F_OK) != 0)
        return 0;
    if (rtp_output_check(m->path, 0, &diag) != RTP_OK)
        return cli_usage_error(args, "--out: %s", diag.message);
    if (rtp_read_file(m->path, &m->old, &len, &diag) != RTP_OK)
        return cli_fail(args, m->path, RTP_EINPUT, &diag);
    size_t lines = 1;
    for (const char *p = m->old; *p; p++)
        lines += *p == '\n';
    if (!(m->stale = calloc(lines, sizeof *m->stale)))
        return cli_out_of_memory(args);
    for (char *line = m->old, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        if (line[0] == '#' || !line[0] || strchr(line, '/') || strcmp(line, ".") == 0 ||
            strcmp(line, "..") == 0 || in_files(files, n, line))
            continue;
        m->stale[m->n_stale++] = line;
    }
    return 0;
}

/* The new list, as one more file of the set. */
static char *manifest_text(const cli_args *args, const rtp_deploy_file *files, size_t n)
{
    rtp_text t;
    rtp_text_init(&t);
    rtp_text_printf(&t, "# Files written by `rtpack %s` into this folder; the next emit of this "
                        "deployment here removes those it no longer writes.\n",
                    args->command);
    for (size_t i = 0; i < n; i++)
        rtp_text_printf(&t, "%s\n", files[i].name);
    return rtp_text_take(&t);
}

/* Removes the stale files (regular files only) and says so. */
static void manifest_prune(const cli_args *args, const char *dir, const manifest *m)
{
    for (size_t i = 0; i < m->n_stale; i++) {
        char path[4200];
        struct stat sb;
        snprintf(path, sizeof path, "%s/%s", dir, m->stale[i]);
        if (lstat(path, &sb) != 0 || !S_ISREG(sb.st_mode))
            continue;
        if (unlink(path) == 0)
            fprintf(stderr, "rtpack %s: removed %s: the previous plan's, not in this one\n",
                    args->command, path);
        else
            fprintf(stderr, "rtpack %s: warning: could not remove %s (the previous plan's): "
                            "%s\n", args->command, path, strerror(errno));
    }
}

/* The files of a folder format, all or nothing (rtp_write_files), with
 * the list of them (`list` = the manifest's file name). */
static int write_set(const cli_args *args, const char *dir, const char *list,
                     const rtp_deploy_file *files, size_t n)
{
    manifest m = {0};
    size_t len = strlen(dir) + strlen(list) + 2;
    rtp_file_out *out = calloc(n + 1, sizeof *out);
    char *text = NULL;
    int rc = out && (m.path = malloc(len)) ? 0 : cli_out_of_memory(args);
    if (rc == 0) {
        snprintf(m.path, len, "%s/%s", dir, list);
        rc = manifest_read(args, &m, files, n);
    }
    size_t named = 0;
    for (; rc == 0 && named < n; named++) {
        len = strlen(dir) + strlen(files[named].name) + 2;
        char *path = malloc(len);
        if (!path) {
            rc = cli_out_of_memory(args);
            break;
        }
        snprintf(path, len, "%s/%s", dir, files[named].name);
        out[named] = (rtp_file_out){path, files[named].content, strlen(files[named].content),
                                    files[named].executable ? 0755 : 0644};
        if (files[named].executable)
            rc = refuse_live(args, path);
    }
    /* a stale script may be the one a running deployment started from */
    for (size_t i = 0; rc == 0 && i < m.n_stale; i++) {
        char path[4200];
        snprintf(path, sizeof path, "%s/%s", dir, m.stale[i]);
        rc = refuse_live(args, path);
    }
    if (rc == 0 && !(text = manifest_text(args, files, n)))
        rc = cli_out_of_memory(args);
    if (rc == 0) {
        out[n] = (rtp_file_out){m.path, text, strlen(text), 0644};
        rtp_diag diag;
        rtp_diag_clear(&diag);
        rtp_status st = rtp_write_files(out, n + 1, &diag);
        rc = st == RTP_OK ? 0 : cli_fail(args, "", st, &diag);
    }
    if (rc == 0)
        manifest_prune(args, dir, &m);
    for (size_t i = 0; out && i < named && i < n; i++)
        free((char *)out[i].path);
    free(out);
    free(text);
    free(m.path);
    free(m.old);
    free(m.stale);
    return rc;
}

/* One text to --out FILE or standard output. */
static int write_one(const cli_args *args, const char *out, const char *text, int executable)
{
    if (!out) {
        fputs(text, stdout);
        return 0;
    }
    return write_file(args, out, text, executable);
}

/* "not deployable: FILE: PATH: reason", exit 1. */
static int not_deployable(const cli_args *args, const char *file, const rtp_diag *diag)
{
    char line[1024];
    rtp_diag_format(diag, file, line, sizeof line);
    fprintf(stderr, "rtpack %s: not deployable: %s\n", args->command, line);
    return CLI_EXIT_NO;
}

/* The library's verdict as an exit code (0: write the result). */
static int verdict(const cli_args *args, const char *file, rtp_status st,
                   const rtp_emit_result *res, const rtp_diag *diag)
{
    if (st != RTP_OK)
        return res->options_error ? cli_usage_error(args, "%s", diag->message)
                                  : cli_fail(args, file, st, diag);
    return res->deployable ? 0 : not_deployable(args, file, diag);
}

/* The folder of a folder format, created when missing; *abs its absolute
 * path (malloc'd), which rt-app files name. 0 or an exit code. */
static int make_folder(const cli_args *args, const char *dir, int *created, char **abs)
{
    *created = mkdir(dir, 0755) == 0;
    if (!*created && errno != EEXIST) {
        fprintf(stderr, "rtpack %s: cannot create %s: %s\n", args->command, dir, strerror(errno));
        return CLI_EXIT_USAGE;
    }
    if ((*abs = realpath(dir, NULL)) != NULL)
        return 0;
    int rc = errno == ENOMEM ? cli_out_of_memory(args)
                             : cli_usage_error(args, "cannot use %s: %s", dir, strerror(errno));
    if (*created)
        rmdir(dir);
    return rc;
}

/* Emits into memory (deploy/emit.h) and writes: one text to --out or
 * standard output; the folder formats (systemd units, an EDF plan's rt-app
 * files and script) into --out DIR with their list. An EDF plan's rt-app
 * files name their folder, so it is made before the call; a folder this
 * run made is removed again when nothing went into it. */
static int emit(const cli_args *args, const emit_settings *s, const rtp_plan *plan,
                const char *file)
{
    int files_named = s->format == RTP_EMIT_RTAPP && rtp_deploy_is_deadline(plan) && s->out;
    int folder = s->format == RTP_EMIT_SYSTEMD || files_named;
    int created = 0, rc = 0;
    char *abs = NULL;
    rtp_emit_result res;
    rtp_diag diag;
    rtp_diag_clear(&diag);
    if (files_named) {
        if (rtp_output_check(s->out, 1, &diag) != RTP_OK)
            return cli_usage_error(args, "--out: %s", diag.message);
        if ((rc = make_folder(args, s->out, &created, &abs)) != 0)
            return rc;
    }
    rtp_status st = rtp_deploy_emit(plan, s->format, &s->deploy, file, abs, &res, &diag);
    rc = verdict(args, file, st, &res, &diag);
    if (rc == 0 && !files_named && s->out && rtp_output_check(s->out, folder, &diag) != RTP_OK)
        rc = cli_usage_error(args, "--out: %s", diag.message);
    if (rc == 0 && folder && !abs)
        rc = make_folder(args, s->out, &created, &abs);
    if (rc == 0 && folder) {
        char list[96];
        snprintf(list, sizeof list, "rtpack-%s%s.files", s->deploy.name,
                 s->format == RTP_EMIT_SYSTEMD ? "" : "-rtapp");
        rc = write_set(args, s->out, list, res.files, res.n_files);
    } else if (rc == 0) {
        rc = write_one(args, s->out, res.text, s->format == RTP_EMIT_SCRIPT);
    }
    if (rc == 0 && res.warnings.data)
        fprintf(stderr, "%s", res.warnings.data);
    rtp_emit_result_free(&res);
    free(abs);
    if (rc && created)
        rmdir(s->out);
    return rc;
}

/* Rules between options, before the plan is read. */
static int check(const cli_args *args, emit_settings *s)
{
    s->deploy.fifo_lo = s->fifo_range[0];
    s->deploy.fifo_hi = s->fifo_range[1];
    if (s->format == RTP_EMIT_SYSTEMD && !s->out)
        return cli_usage_error(args, "--format systemd writes several files: give --out DIR");
    if (s->no_reclaim && s->deploy.reclaim == 1)
        return cli_usage_error(args, "--reclaim and --no-reclaim say opposite things: give one");
    if (s->no_reclaim)
        s->deploy.reclaim = 0;
    /* the launcher serves explicit flags, and the default reclaim of a plan
     * made with a measured deadline_charge */
    int flags = s->deploy.reclaim != 0 || s->deploy.overrun_signal;
    int launcher = CLI_GIVEN(args, emit_settings, deploy.launcher);
    const char *deadline_option = s->deploy.reclaim == 1     ? "--reclaim"
                                  : s->deploy.overrun_signal ? "--overrun-signal"
                                  : launcher                 ? "--launcher"
                                                             : NULL;
    if (deadline_option && (s->format == RTP_EMIT_JSON || s->format == RTP_EMIT_HEADER))
        return cli_usage_error(args, "%s applies only with --format script or systemd (here "
                                     "--format is %s)",
                               deadline_option, s->format == RTP_EMIT_JSON ? "json" : "header");
    if (launcher && !flags)
        return cli_usage_error(args, "--launcher means nothing with --no-reclaim and without "
                                     "--overrun-signal (deadline tasks then start with chrt)");
    rtp_diag diag;
    rtp_diag_clear(&diag);
    if (rtp_deploy_opts_check(&s->deploy, &diag) != RTP_OK)
        return cli_usage_error(args, "%s", diag.message);
    return 0;
}

static int run(const cli_args *args, void *settings)
{
    emit_settings *s = settings;
    const char *file = args->positional[0];
    int rc = check(args, s);
    if (rc)
        return rc;
    rtp_plan plan;
    if ((rc = cli_load_plan(args, file, &plan)) != 0)
        return rc;
    rc = emit(args, s, &plan, cli_shown_name(file));
    rtp_plan_free(&plan);
    return rc;
}

const cli_command cli_cmd_emit = {
    .name = "emit",
    .summary = "Turn a partition plan into deployable files.",
    .description =
        "PLAN is a partition --json document. emit re-checks it with the exact tests and "
        "Linux's limits (SCHED_DEADLINE admission against --budget, SCHED_FIFO priorities, "
        "cpusets) and exits 1 with the reason when the plan is infeasible or Linux would "
        "refuse it. The launch script is POSIX sh and takes one argument: start, stop, status "
        "or check; systemd writes one unit per task into --out DIR; rtapp writes an rt-app "
        "workload that replays the plan (an FP plan: one file; an EDF plan: one file per CPU "
        "and a launch script running each in its cpuset, into --out DIR); json writes the "
        "re-checked plan; header writes, for a plan with shared resources, a C header with "
        "each lock's protocol and ceiling.",
    .operands = "PLAN",
    .operand_help = "a partition --json document; - reads standard input",
    .min_operands = 1, .max_operands = 1,
    .examples = "rtpack emit plan.json --format script --out rt.sh\n"
                "rtpack emit plan.json --format systemd --out units/ --name video\n"
                "rtpack emit fp-plan.json --format rtapp --duration 30 > workload.json\n"
                "rtpack emit edf-plan.json --format rtapp --duration 30 --out workload/\n",
    .options = options,
    .settings_size = sizeof(emit_settings),
    .init = init,
    .run = run,
};
