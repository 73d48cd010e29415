/* cli/common.c — option parsing and error printing shared by all commands.
 * Options are "--name value" or "--name=value"; "-" alone is a positional
 * (standard input); "--" ends options. */
#include "cli/cli.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const cli_option common_options[] = {
    {"json", 0, "print one JSON document on standard output"},
    {"cpus", 1, "M: use CPUs 0..M-1 (overrides the file's platform)"},
    {"help", 0, "show this help"},
    {NULL, 0, NULL},
};

static const cli_option *find_option(const cli_option *table, const char *name,
                                     size_t len)
{
    for (; table && table->name; table++)
        if (strlen(table->name) == len && strncmp(table->name, name, len) == 0)
            return table;
    return NULL;
}

static int parse_cpus(const cli_args *args, const char *text, int *out)
{
    char *end = NULL;
    long v = strtol(text, &end, 10);
    if (end == text || *end != '\0' || v < 1 || v > 4096)
        return cli_usage_error(args, "--cpus wants a whole number from 1 to 4096, got '%s'", text);
    *out = (int)v;
    return 0;
}

int cli_parse(const cli_command *cmd, int argc, char **argv, int first,
              cli_args *out)
{
    memset(out, 0, sizeof *out);
    out->command = cmd->name;
    int options_done = 0;
    for (int i = first; i < argc; i++) {
        const char *arg = argv[i];
        if (options_done || arg[0] != '-' || strcmp(arg, "-") == 0) {
            if (out->n_positional == CLI_MAX_POSITIONAL)
                return cli_usage_error(out, "too many arguments");
            out->positional[out->n_positional++] = arg;
            continue;
        }
        if (strcmp(arg, "--") == 0) {
            options_done = 1;
            continue;
        }
        if (strcmp(arg, "-h") == 0) {
            out->help = 1;
            continue;
        }
        if (arg[1] != '-')
            return cli_usage_error(out, "unknown option '%s' (see rtpack %s --help)", arg, cmd->name);
        const char *name = arg + 2;
        const char *eq = strchr(name, '=');
        size_t len = eq ? (size_t)(eq - name) : strlen(name);
        /* A command's own option of a common name (probe's --cpus LIST) wins. */
        const cli_option *opt = find_option(cmd->options, name, len);
        if (!opt)
            opt = find_option(common_options, name, len);
        if (!opt)
            return cli_usage_error(out, "unknown option '--%.*s' (see rtpack %s --help)",
                                   (int)len, name, cmd->name);
        const char *value = NULL;
        if (opt->takes_value) {
            if (eq)
                value = eq + 1;
            else if (i + 1 < argc)
                value = argv[++i];
            else
                return cli_usage_error(out, "option --%s needs a value", opt->name);
        } else if (eq) {
            return cli_usage_error(out, "option --%s takes no value", opt->name);
        }
        if (opt != find_option(common_options, opt->name, strlen(opt->name))) {
            if (out->n_seen == CLI_MAX_SEEN)
                return cli_usage_error(out, "too many options");
            out->names[out->n_seen] = opt->name;
            out->values[out->n_seen] = value;
            out->n_seen++;
        } else if (strcmp(opt->name, "json") == 0) {
            out->json = 1;
        } else if (strcmp(opt->name, "help") == 0) {
            out->help = 1;
        } else if (strcmp(opt->name, "cpus") == 0) {
            int rc = parse_cpus(out, value, &out->cpus);
            if (rc)
                return rc;
        } else {
            if (out->n_seen == CLI_MAX_SEEN)
                return cli_usage_error(out, "too many options");
            out->names[out->n_seen] = opt->name;
            out->values[out->n_seen] = value;
            out->n_seen++;
        }
    }
    return 0;
}

const char *cli_get(const cli_args *args, const char *name)
{
    const char *found = NULL;
    for (size_t i = 0; i < args->n_seen; i++)
        if (strcmp(args->names[i], name) == 0)
            found = args->values[i];
    return found;
}

int cli_has(const cli_args *args, const char *name)
{
    for (size_t i = 0; i < args->n_seen; i++)
        if (strcmp(args->names[i], name) == 0)
            return 1;
    return 0;
}

static void print_options(const cli_option *table, const cli_option *shadow)
{
    for (; table && table->name; table++) {
        if (find_option(shadow, table->name, strlen(table->name)))
            continue;
        char left[48];
        snprintf(left, sizeof left, "--%s%s", table->name, table->takes_value ? " VALUE" : "");
        printf("  %-28s %s\n", left, table->help);
    }
}

void cli_print_help(const cli_command *cmd)
{
    printf("usage: rtpack %s %s\n\n%s\n\noptions:\n", cmd->name, cmd->synopsis, cmd->summary);
    print_options(cmd->options, NULL);
    print_options(common_options, cmd->options);
    printf("\nexit status: 0 schedulable/feasible/done, 1 not schedulable/no plan,\n"
           "2 usage error or bad input, 3 internal error or resource limit\n");
}

int cli_usage_error(const cli_args *args, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "rtpack %s: ", args && args->command ? args->command : "");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return CLI_EXIT_USAGE;
}

int cli_fail(const cli_args *args, const char *file, rtp_status status,
             const rtp_diag *diag)
{
    char line[1024];
    rtp_diag_format(diag, file, line, sizeof line);
    if (status == RTP_ELIMIT)
        fprintf(stderr, "rtpack %s: resource limit: %s\n", args->command, line);
    else
        fprintf(stderr, "rtpack %s: %s\n", args->command, line);
    return rtp_status_exit_code(status);
}

int cli_load_taskset(const cli_args *args, const char *file, rtp_taskset *ts)
{
    rtp_diag diag;
    rtp_diag_clear(&diag);
    rtp_status st = rtp_taskset_load(file, ts, &diag);
    if (st != RTP_OK)
        return cli_fail(args, strcmp(file, "-") == 0 ? "<stdin>" : file, st, &diag);
    return 0;
}

const char *cli_one_file(const cli_args *args, int *exit_code)
{
    if (args->n_positional != 1) {
        *exit_code = cli_usage_error(args, args->n_positional == 0
                                               ? "missing FILE (use - for standard input)"
                                               : "expected one FILE, got %zu arguments",
                                     args->n_positional);
        return NULL;
    }
    return args->positional[0];
}

int cli_not_implemented(const cli_args *args, const char *what)
{
    fprintf(stderr, "rtpack %s: %s is not implemented yet\n", args->command, what);
    return CLI_EXIT_LIMIT;
}
