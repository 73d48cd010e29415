/* cli/cmd_gen.c — `rtpack gen`: Generate a random task set. */
#include "cli/cli.h"

static const cli_option options[] = {
    {"tasks", 1, "N: number of tasks"},
    {"utilization", 1, "U: total utilization"},
    {"seed", 1, "S: random seed (default 1)"},
    {"generator", 1, "uunifast-discard|randfixedsum"},
    {"periods", 1, "MIN:MAX period range"},
    {"deadlines", 1, "implicit|constrained|arbitrary"},
    {"max-task-util", 1, "F: per-task utilization cap"},
    {NULL, 0, NULL},
};

static int run(const cli_args *args)
{
    return cli_not_implemented(args, "gen");
}

const cli_command cli_cmd_gen = {
    "gen", "--tasks N --utilization U [--seed S] [--generator uunifast-discard|randfixedsum]", "Generate a random task set.", options, run,
};
