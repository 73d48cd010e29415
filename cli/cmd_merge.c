/* cli/cmd_merge.c — `rtpack merge`: combine the outputs of sweep shards into
 * the files a single run would have written (explore/explore.h). */
#include "cli/cli.h"
#include "explore/explore.h"

typedef struct merge_settings {
    const char *out;
    int force;
} merge_settings;

static const cli_option options[] = {
    {.name = "out", .type = CLI_STRING, CLI_TARGET(merge_settings, out), .metavar = "DIR",
     .flags = CLI_REQUIRED | CLI_DIR | CLI_OUTPUT, .help = "output folder"},
    {.name = "force", .type = CLI_FLAG, CLI_TARGET(merge_settings, force),
     .help = "replace the results DIR already holds"},
    {.name = "json", .type = CLI_FLAG, CLI_TARGET(cli_args, json), .flags = CLI_IN_ARGS,
     .help = "print a summary of the merged DIR (points, acceptance per policy and method, "
             "files) as one JSON document"},
    CLI_END,
};

static int run(const cli_args *args, void *settings)
{
    merge_settings *s = settings;
    rtp_diag diag;
    rtp_diag_clear(&diag);
    rtp_status st =
        rtp_explore_merge(args->positional, args->n_positional, s->out, s->force, &diag);
    if (st != RTP_OK)
        return cli_fail(args, "", st, &diag);
    return args->json ? cli_print_explore_summary(args, s->out) : CLI_EXIT_OK;
}

const cli_command cli_cmd_merge = {
    .name = "merge",
    .summary = "Combine the outputs of sweep shards (rtpack explore --shard K/N) into the "
               "results a single run gives.",
    .description =
        "The folders may come in any order; every shard 1/N .. N/N must be there once, "
        "complete, from the same sweep and generator version (the message names a missing "
        "shard). A --out DIR that already holds results is refused unless --force.",
    .operands = "DIR...",
    .operand_help = "the output folders of every shard 1/N .. N/N, in any order",
    .min_operands = 1, .max_operands = CLI_MAX_POSITIONAL,
    .examples = "rtpack merge part1/ part2/ part3/ --out results/\n",
    .options = options,
    .settings_size = sizeof(merge_settings),
    .run = run,
};
