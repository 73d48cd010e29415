/* cli/main.c — `rtpack COMMAND ...`: finds the subcommand, parses its
 * options from its table (cli/options.c) into its settings and hands over;
 * `rtpack help` (of one command too), `--version`. */
#include "cli/cli.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *out)
{
    fprintf(out, "usage: rtpack COMMAND [OPTIONS]\n\ncommands:\n");
    for (size_t i = 0; i < cli_n_commands; i++)
        fprintf(out, "  %-10s %s\n", cli_commands[i]->name, cli_commands[i]->summary);
    fprintf(out, "\n'rtpack help COMMAND' (or 'rtpack COMMAND --help') describes one command;\n"
                 "'rtpack --version' prints the version.\n");
}

/* "unknown command 'partiton' (did you mean partition?)". */
static int unknown_command(const char *word)
{
    const char *names[16 + 2];
    size_t n = 0;
    for (; n < cli_n_commands && n < 16; n++)
        names[n] = cli_commands[n]->name;
    names[n++] = "help";
    names[n] = NULL;
    const char *near = cli_suggest(word, names);
    if (word[0] == '-')
        fprintf(stderr, "rtpack: unknown option '%s'", word);
    else
        fprintf(stderr, "rtpack: unknown command '%s'", word);
    if (near)
        fprintf(stderr, " (did you mean %s?)", near);
    fprintf(stderr, "; 'rtpack --help' lists the commands\n");
    return CLI_EXIT_USAGE;
}

/* rtpack help, help COMMAND, help --man (COMMAND), help --completion, and
 * for the build: help --write-docs DIR (DIR/man1/rtpack*.1, DIR/completion/rtpack). */
static int help(int argc, char **argv)
{
    if (argc == 2) {
        usage(stdout);
        return CLI_EXIT_OK;
    }
    if (strcmp(argv[2], "--write-docs") == 0 && argc == 4)
        return cli_write_docs(argv[3]);
    int man = strcmp(argv[2], "--man") == 0;
    if (strcmp(argv[2], "--completion") == 0 && argc == 3) {
        cli_print_completion(stdout);
        return CLI_EXIT_OK;
    }
    const char *name = man ? (argc > 3 ? argv[3] : NULL) : argv[2];
    if (argc > (man ? 4 : 3)) {
        fprintf(stderr, "rtpack help: takes one COMMAND\n");
        return CLI_EXIT_USAGE;
    }
    const cli_command *cmd = name ? cli_find_command(name) : NULL;
    if (name && !cmd)
        return unknown_command(name);
    if (cmd && cli_check_table(cmd) != 0)
        return CLI_EXIT_LIMIT;
    if (man)
        cli_print_man(cmd, stdout);
    else
        cli_print_help(cmd, stdout);
    return CLI_EXIT_OK;
}

/* Every way out of rtpack that printed goes through here: standard output
 * that could not be written (a full disk, /dev/full, a closed pipe) is exit 3
 * with a message, whatever the command's own answer was. ferror too: stdio
 * may have flushed (and failed) long before this. */
static int finish(const char *name, int rc)
{
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "rtpack%s%s: cannot write standard output: %s\n", name ? " " : "",
                name ? name : "", strerror(errno ? errno : EIO));
        return CLI_EXIT_LIMIT;
    }
    return rc;
}

/* SIGPIPE (a reader such as `head -1` that went away) must not kill rtpack
 * with status 141: the write then fails with EPIPE and finish() says so
 * (exit 3, docs/spec.md "Exit status"). A handler that does nothing, not
 * SIG_IGN: an ignored signal stays ignored in the programs rtpack runs
 * (rehearse's launch script and workloads), a caught one is reset at exec. */
static void on_sigpipe(int sig)
{
    (void)sig;
}

static int run_command(const cli_command *cmd, int argc, char **argv)
{
    if (cli_check_table(cmd) != 0)
        return CLI_EXIT_LIMIT;
    void *settings = calloc(1, cmd->settings_size ? cmd->settings_size : 1);
    if (!settings) {
        fprintf(stderr, "rtpack %s: out of memory\n", cmd->name);
        return CLI_EXIT_LIMIT;
    }
    if (cmd->init)
        cmd->init(settings);
    cli_args args;
    int rc = cli_parse(cmd, argc, argv, 2, &args, settings);
    if (rc == 0 && args.help)
        cli_print_help(cmd, stdout);
    else if (rc == 0)
        rc = cmd->run(&args, settings);
    cli_settings_free(cmd, settings);
    free(settings);
    return finish(cmd->name, rc);
}

int main(int argc, char **argv)
{
    struct sigaction pipe_action;
    memset(&pipe_action, 0, sizeof pipe_action);
    pipe_action.sa_handler = on_sigpipe;
    pipe_action.sa_flags = SA_RESTART;
    sigemptyset(&pipe_action.sa_mask);
    sigaction(SIGPIPE, &pipe_action, NULL);
    if (argc < 2) {
        usage(stderr);
        return CLI_EXIT_USAGE;
    }
    const char *word = argv[1];
    if (strcmp(word, "--help") == 0 || strcmp(word, "-h") == 0) {
        usage(stdout);
        return finish(NULL, CLI_EXIT_OK);
    }
    if (strcmp(word, "help") == 0)
        return finish("help", help(argc, argv));
    if (strcmp(word, "--version") == 0 || strcmp(word, "-V") == 0) {
        printf("%s\n", cli_version());
        return finish(NULL, CLI_EXIT_OK);
    }
    const cli_command *cmd = cli_find_command(word);
    return cmd ? run_command(cmd, argc, argv) : unknown_command(word);
}
