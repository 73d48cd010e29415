/* cli/cmd_merge.c — `rtpack merge`: Combine the outputs of sweep shards. */
#include "cli/cli.h"

static const cli_option options[] = {
    {"out", 1, "DIR: output folder"},
    {NULL, 0, NULL},
};

static int run(const cli_args *args)
{
    return cli_not_implemented(args, "merge");
}

const cli_command cli_cmd_merge = {
    "merge", "DIR... --out DIR", "Combine the outputs of sweep shards.", options, run,
};
