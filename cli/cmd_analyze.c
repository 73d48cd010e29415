/* cli/cmd_analyze.c — `rtpack analyze`: Analyse all tasks of FILE on one CPU (or one cluster of --cpus M CPUs). */
#include "cli/cli.h"

static const cli_option options[] = {
    {"policy", 1, "fp|edf|gedf|gfp (default edf)"},
    {"priority", 1, "rm|dm|opa|given (default opa under fp, dm under gfp)"},
    {"batch", 1, "FILE.jsonl: one task set per line, one JSON result per line"},
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
    return cli_not_implemented(args, "analysis");
}

const cli_command cli_cmd_analyze = {
    "analyze", "FILE [--policy fp|edf|gedf|gfp] [--priority rm|dm|opa|given] [--json]", "Analyse all tasks of FILE on one CPU (or one cluster of --cpus M CPUs).", options, run,
};
