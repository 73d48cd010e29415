/* cli/cmd_emit.c — `rtpack emit`: turn a partition plan into deployable
 * files (docs/spec.md "rtpack emit"). Reads the plan, re-checks it
 * (deploy/linux_limits.h: exit 1 with the reason when infeasible or refused
 * by Linux), then writes the chosen format to standard output or --out. */
#include "cli/cli.h"
#include "deploy/linux_limits.h"
#include "deploy/rtapp.h"
#include "deploy/script.h"
#include "deploy/systemd.h"
#include "models/plan.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const cli_option options[] = {
    {"format", 1, "script|systemd|rtapp|json"},
    {"out", 1, "PATH: output file (directory for systemd)"},
    {"budget", 1, "F: usable real-time bandwidth per CPU (default 0.9 = 0.95 - fair server)"},
    {"fifo-range", 1, "LO:HI: SCHED_FIFO priorities to map the plan onto (default 1:98)"},
    {"cgroup", 1, "v1|v2|auto: cpuset hierarchy the script uses (default auto, at run time)"},
    {"cgroup-root", 1, "PATH: cpuset folder the script uses (default: detected)"},
    {"name", 1, "NAME: deployment name, [A-Za-z0-9_] (default plan)"},
    {"duration", 1, "S: rtapp run time in seconds (default 10)"},
    {NULL, 0, NULL},
};

static int parse_int(const char *text, long lo, long hi, int *out)
{
    char *end = NULL;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno || end == text || *end != '\0' || v < lo || v > hi)
        return -1;
    *out = (int)v;
    return 0;
}

static int parse_options(const cli_args *args, rtp_deploy_opts *opts)
{
    const char *v;
    char why[128];
    if ((v = cli_get(args, "budget")) &&
        rtp_ratio_parse_decimal(v, &opts->budget, why, sizeof why) != RTP_OK)
        return cli_usage_error(args, "--budget: %s", why);
    if ((v = cli_get(args, "fifo-range"))) {
        const char *colon = strchr(v, ':');
        char lo[16];
        if (!colon || (size_t)(colon - v) >= sizeof lo)
            return cli_usage_error(args, "--fifo-range wants LO:HI, got '%s'", v);
        memcpy(lo, v, (size_t)(colon - v));
        lo[colon - v] = '\0';
        if (parse_int(lo, 1, 99, &opts->fifo_lo) || parse_int(colon + 1, 1, 99, &opts->fifo_hi))
            return cli_usage_error(args, "--fifo-range wants LO:HI within 1..99, got '%s'", v);
    }
    if ((v = cli_get(args, "cgroup"))) {
        if (strcmp(v, "auto") == 0)
            opts->cgroup = RTP_CGROUP_AUTO;
        else if (strcmp(v, "v1") == 0)
            opts->cgroup = RTP_CGROUP_V1;
        else if (strcmp(v, "v2") == 0)
            opts->cgroup = RTP_CGROUP_V2;
        else
            return cli_usage_error(args, "--cgroup wants v1, v2 or auto, got '%s'", v);
    }
    opts->cgroup_root = cli_get(args, "cgroup-root");
    if ((v = cli_get(args, "name")))
        opts->name = v;
    if ((v = cli_get(args, "duration")) && parse_int(v, 1, 1000000, &opts->duration_s))
        return cli_usage_error(args, "--duration wants whole seconds from 1, got '%s'", v);
    rtp_diag diag;
    rtp_diag_clear(&diag);
    if (rtp_deploy_opts_check(opts, &diag) != RTP_OK)
        return cli_usage_error(args, "%s", diag.message);
    return 0;
}

static int write_file(const cli_args *args, const char *path, const char *text, int executable)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "rtpack %s: cannot write %s: %s\n", args->command, path, strerror(errno));
        return CLI_EXIT_USAGE;
    }
    int bad = fputs(text, f) == EOF;
    bad |= fclose(f) != 0;
    if (!bad && executable)
        bad = chmod(path, 0755) != 0;
    if (bad) {
        fprintf(stderr, "rtpack %s: cannot write %s: %s\n", args->command, path, strerror(errno));
        return CLI_EXIT_LIMIT;
    }
    return 0;
}

/* One text to --out FILE or standard output. */
static int write_one(const cli_args *args, const char *text, int executable)
{
    const char *out = cli_get(args, "out");
    if (!out) {
        fputs(text, stdout);
        return 0;
    }
    return write_file(args, out, text, executable);
}

static int write_systemd(const cli_args *args, const rtp_plan *plan, const rtp_deploy_opts *opts,
                         const char *file, rtp_text *warnings)
{
    const char *dir = cli_get(args, "out");
    if (!dir)
        return cli_usage_error(args, "--format systemd writes several files: give --out DIR");
    rtp_deploy_file *files = NULL;
    size_t n = 0;
    rtp_diag diag;
    rtp_diag_clear(&diag);
    rtp_status st = rtp_deploy_systemd(plan, opts, &files, &n, warnings, &diag);
    if (st != RTP_OK)
        return cli_fail(args, file, st, &diag);
    if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
        fprintf(stderr, "rtpack %s: cannot create %s: %s\n", args->command, dir, strerror(errno));
        rtp_deploy_files_free(files, n);
        return CLI_EXIT_USAGE;
    }
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        size_t len = strlen(dir) + strlen(files[i].name) + 2;
        char *path = malloc(len);
        if (!path) {
            rc = CLI_EXIT_LIMIT;
            break;
        }
        snprintf(path, len, "%s/%s", dir, files[i].name);
        rc = write_file(args, path, files[i].content, files[i].executable);
        free(path);
    }
    rtp_deploy_files_free(files, n);
    return rc;
}

static int emit(const cli_args *args, const char *format, const rtp_plan *plan,
                const rtp_deploy_opts *opts, const char *file, rtp_text *warnings)
{
    rtp_diag diag;
    rtp_diag_clear(&diag);
    char *text = NULL;
    rtp_status st = RTP_OK;
    int deployable = 1;
    if (strcmp(format, "systemd") == 0)
        return write_systemd(args, plan, opts, file, warnings);
    if (strcmp(format, "script") == 0)
        st = rtp_deploy_script(plan, opts, &text, warnings, &diag);
    else if (strcmp(format, "rtapp") == 0)
        st = rtp_deploy_rtapp(plan, opts, &text, &deployable, warnings, &diag);
    else if (!(text = rtp_plan_to_json(plan, 1)))
        st = rtp_diag_set(&diag, RTP_ENOMEM, "", "out of memory");
    if (st != RTP_OK)
        return cli_fail(args, file, st, &diag);
    if (!deployable) {
        char line[1024];
        rtp_diag_format(&diag, file, line, sizeof line);
        fprintf(stderr, "rtpack %s: not deployable: %s\n", args->command, line);
        return CLI_EXIT_NO;
    }
    int rc = write_one(args, text, strcmp(format, "script") == 0);
    free(text);
    return rc;
}

static int run(const cli_args *args)
{
    int rc = 0;
    const char *file = cli_one_file(args, &rc);
    if (!file)
        return rc;
    const char *format = cli_get(args, "format");
    if (!format)
        return cli_usage_error(args, "missing --format script|systemd|rtapp|json");
    if (strcmp(format, "script") && strcmp(format, "systemd") && strcmp(format, "rtapp") &&
        strcmp(format, "json"))
        return cli_usage_error(args, "--format wants script, systemd, rtapp or json, got '%s'",
                               format);
    rtp_deploy_opts opts = rtp_deploy_opts_default();
    if ((rc = parse_options(args, &opts)) != 0)
        return rc;
    const char *shown = strcmp(file, "-") == 0 ? "<stdin>" : file;
    rtp_diag diag;
    rtp_diag_clear(&diag);
    char *text = NULL;
    size_t len = 0;
    rtp_plan plan;
    memset(&plan, 0, sizeof plan);
    rtp_status st = rtp_read_file(file, &text, &len, &diag);
    if (st == RTP_OK)
        st = rtp_plan_parse_json(text, len, &plan, &diag);
    free(text);
    if (st != RTP_OK)
        return cli_fail(args, shown, st, &diag);
    int deployable = 0;
    st = rtp_deploy_check(&plan, &opts, &deployable, &diag);
    if (st != RTP_OK) {
        rc = cli_fail(args, shown, st, &diag);
    } else if (!deployable) {
        char line[1024];
        rtp_diag_format(&diag, shown, line, sizeof line);
        fprintf(stderr, "rtpack %s: not deployable: %s\n", args->command, line);
        rc = CLI_EXIT_NO;
    } else {
        rtp_text warnings;
        rtp_text_init(&warnings);
        rc = emit(args, format, &plan, &opts, shown, &warnings);
        if (rc == 0 && warnings.data)
            fprintf(stderr, "%s", warnings.data);
        rtp_text_free(&warnings);
    }
    rtp_plan_free(&plan);
    return rc;
}

const cli_command cli_cmd_emit = {
    "emit", "PLAN --format script|systemd|rtapp|json [--out PATH]",
    "Turn a partition plan into deployable files.", options, run,
};
