/* cli/cmd_explore.c — `rtpack explore`: Batch design-space exploration over generated task sets (OpenMP parallel). */
#include "cli/cli.h"

static const cli_option options[] = {
    {"out", 1, "DIR: output folder"},
    {"shard", 1, "K/N: run the K-th of N disjoint slices"},
    {"resume", 0, "continue a sweep in DIR"},
    {NULL, 0, NULL},
};

static int run(const cli_args *args)
{
    return cli_not_implemented(args, "explore");
}

const cli_command cli_cmd_explore = {
    "explore", "SWEEP --out DIR [--shard K/N] [--resume]", "Batch design-space exploration over generated task sets (OpenMP parallel).", options, run,
};
