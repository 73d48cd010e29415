/* cli/cmd_merge.c — `rtpack merge`: combine the outputs of sweep shards into
 * the files a single run would have written (explore/explore.h). */
#include "cli/cli.h"
#include "explore/explore.h"

static const cli_option options[] = {
    {"out", 1, "DIR: output folder"},
    {NULL, 0, NULL},
};

static int run(const cli_args *args)
{
    const char *out = cli_get(args, "out");
    if (!out)
        return cli_usage_error(args, "--out DIR is required");
    if (args->n_positional == 0)
        return cli_usage_error(args, "missing the shard folders DIR...");
    rtp_diag diag;
    rtp_diag_clear(&diag);
    rtp_status st = rtp_explore_merge(args->positional, args->n_positional, out, &diag);
    if (st != RTP_OK)
        return cli_fail(args, "", st, &diag);
    return CLI_EXIT_OK;
}

const cli_command cli_cmd_merge = {
    "merge", "DIR... --out DIR",
    "Combine the outputs of sweep shards (rtpack explore --shard K/N) into the results a "
    "single run gives; refuses shards of another sweep or generator version.",
    options, run,
};
