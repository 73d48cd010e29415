/* cli/commands.c — the command table every part of the CLI looks commands up
 * in (main.c dispatches, manual.c writes the man pages and completion,
 * options.c names the command an option belongs to), and the version line. */
#include "cli/cli.h"
#include "rtpack/version.h"

#include <string.h>

const cli_command *const cli_commands[] = {
    &cli_cmd_analyze, &cli_cmd_partition, &cli_cmd_emit,
    &cli_cmd_gen,     &cli_cmd_explore,   &cli_cmd_merge,
    &cli_cmd_probe,   &cli_cmd_rehearse, &cli_cmd_simulate,
    &cli_cmd_report,
};
const size_t cli_n_commands = sizeof cli_commands / sizeof cli_commands[0];

const char *cli_version(void)
{
    return "rtpack " RTPACK_VERSION;
}

const cli_command *cli_find_command(const char *name)
{
    for (size_t i = 0; i < cli_n_commands; i++)
        if (strcmp(name, cli_commands[i]->name) == 0)
            return cli_commands[i];
    return NULL;
}
