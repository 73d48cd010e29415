/* cli/cmd_partition.c — `rtpack partition`: Assign the tasks of FILE to CPUs (or clusters), order priorities, print the plan. */
#include "cli/cli.h"

static const cli_option options[] = {
    {"policy", 1, "edf|fp (default edf)"},
    {"priority", 1, "rm|dm|opa (per CPU under fp, default opa)"},
    {"method", 1, "ffd|bfd|wfd|nfd|ilp|best (default best)"},
    {"order", 1, "util|density|deadline|period|input (default util)"},
    {"capacity", 1, "F: per-CPU utilization cap, e.g. 0.9 (default 1)"},
    {"time-limit", 1, "S: ILP time limit in seconds (default 60)"},
    {"objective", 1, "feasibility|min-cpus|balanced (ILP, default feasibility)"},
    {"write-lp", 1, "FILE: write the final ILP model in CPLEX LP format"},
    {"explain", 0, "when infeasible, say which task could not be placed and why"},
    {NULL, 0, NULL},
};

static int run(const cli_args *args)
{
    int rc = 0;
    const char *file = cli_one_file(args, &rc);
    if (!file)
        return rc;
    rtp_taskset ts;
    rc = cli_load_taskset(args, file, &ts);
    if (rc)
        return rc;
    rtp_taskset_free(&ts);
    return cli_not_implemented(args, "partitioning");
}

const cli_command cli_cmd_partition = {
    "partition", "FILE [--cpus M] [--policy edf|fp] [--method ffd|bfd|wfd|nfd|ilp|best] [--json]", "Assign the tasks of FILE to CPUs (or clusters), order priorities, print the plan.", options, run,
};
