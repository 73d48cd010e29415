/* cli/main.c — `rtpack COMMAND ...`: finds the subcommand, parses its options
 * in one place (cli/common.c) and hands over. */
#include "cli/cli.h"
#include "rtpack/version.h"

#include <stdio.h>
#include <string.h>

static const cli_command *const commands[] = {
    &cli_cmd_analyze, &cli_cmd_partition, &cli_cmd_emit,
    &cli_cmd_gen,     &cli_cmd_explore,   &cli_cmd_merge,
    &cli_cmd_probe,
};
#define N_COMMANDS (sizeof commands / sizeof commands[0])

static void usage(FILE *out)
{
    fprintf(out, "usage: rtpack COMMAND [OPTIONS]\n\ncommands:\n");
    for (size_t i = 0; i < N_COMMANDS; i++)
        fprintf(out, "  %-10s %s\n", commands[i]->name, commands[i]->summary);
    fprintf(out, "\n'rtpack COMMAND --help' describes one command.\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return CLI_EXIT_USAGE;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
        strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return CLI_EXIT_OK;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("rtpack %s\n", RTPACK_VERSION);
        return CLI_EXIT_OK;
    }
    for (size_t i = 0; i < N_COMMANDS; i++) {
        if (strcmp(argv[1], commands[i]->name) != 0)
            continue;
        cli_args args;
        int rc = cli_parse(commands[i], argc, argv, 2, &args);
        if (rc)
            return rc;
        if (args.help) {
            cli_print_help(commands[i]);
            return CLI_EXIT_OK;
        }
        rc = commands[i]->run(&args);
        if (fflush(stdout) != 0) {
            fprintf(stderr, "rtpack %s: cannot write standard output\n", argv[1]);
            return CLI_EXIT_LIMIT;
        }
        return rc;
    }
    fprintf(stderr, "rtpack: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return CLI_EXIT_USAGE;
}
