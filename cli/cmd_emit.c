/* cli/cmd_emit.c — `rtpack emit`: Turn a partition plan into deployable files. */
#include "cli/cli.h"

static const cli_option options[] = {
    {"format", 1, "script|systemd|rtapp|json"},
    {"out", 1, "PATH: output file (directory for systemd)"},
    {NULL, 0, NULL},
};

static int run(const cli_args *args)
{
    int rc = 0;
    const char *file = cli_one_file(args, &rc);
    if (!file)
        return rc;
    return cli_not_implemented(args, "emit");
}

const cli_command cli_cmd_emit = {
    "emit", "PLAN --format script|systemd|rtapp|json [--out PATH]", "Turn a partition plan into deployable files.", options, run,
};
