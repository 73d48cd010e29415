/* cli/cli.h — the thin `rtpack` front end: one option parser shared by every
 * subcommand, the task-set loading every command does first, and the mapping
 * from library status to the exit codes of docs/spec.md. Only the CLI prints. */
#ifndef RTP_CLI_H
#define RTP_CLI_H

#include "models/base.h"
#include "models/taskset.h"

/* docs/spec.md "Exit status". */
enum { CLI_EXIT_OK = 0, CLI_EXIT_NO = 1, CLI_EXIT_USAGE = 2, CLI_EXIT_LIMIT = 3 };

/* An option a command accepts: "--name VALUE" when takes_value, else a flag. */
typedef struct cli_option {
    const char *name;  /* without the leading "--" */
    int takes_value;
    const char *help;  /* one line, shown by --help */
} cli_option;

#define CLI_MAX_SEEN 64
#define CLI_MAX_POSITIONAL 64

/* Parsed command line. Common options every command shares are parsed here:
 * --json, --cpus M (M >= 1), --help. */
typedef struct cli_args {
    const char *command;
    int json;
    int cpus;                 /* --cpus M, 0 when absent */
    int help;
    const char *names[CLI_MAX_SEEN];
    const char *values[CLI_MAX_SEEN]; /* NULL for flags */
    size_t n_seen;
    const char *positional[CLI_MAX_POSITIONAL];
    size_t n_positional;
} cli_args;

typedef struct cli_command {
    const char *name;
    const char *synopsis;     /* "FILE [--policy fp|edf] ..." */
    const char *summary;      /* one line */
    const cli_option *options;/* terminated by {NULL} */
    int (*run)(const cli_args *args);
} cli_command;

/* Parses argv[first..argc-1] for `cmd`. Returns 0, or prints a usage error
 * on stderr and returns CLI_EXIT_USAGE. */
int cli_parse(const cli_command *cmd, int argc, char **argv, int first,
              cli_args *out);

/* The value of --name, or NULL when absent (last occurrence wins). */
const char *cli_get(const cli_args *args, const char *name);
/* 1 when --name appeared. */
int cli_has(const cli_args *args, const char *name);

/* Prints the command's --help text on stdout. */
void cli_print_help(const cli_command *cmd);

/* Prints "rtpack CMD: MESSAGE" on stderr; returns CLI_EXIT_USAGE. */
int cli_usage_error(const cli_args *args, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Prints a failed library status with its diagnostic ("FILE: PATH: MSG",
 * "resource limit: ..." for RTP_ELIMIT) and returns the exit code. */
int cli_fail(const cli_args *args, const char *file, rtp_status status,
             const rtp_diag *diag);

/* Loads and validates a task-set FILE ("-" = stdin); on failure prints the
 * one-line diagnostic and returns its exit code (2 for bad input). */
int cli_load_taskset(const cli_args *args, const char *file, rtp_taskset *ts);

/* The single positional FILE of a command, or a usage error (returns NULL and
 * sets *exit_code). */
const char *cli_one_file(const cli_args *args, int *exit_code);

/* Says that a command is not built yet (exit 3). */
int cli_not_implemented(const cli_args *args, const char *what);

/* Every subcommand, defined in cli/cmd_*.c. */
extern const cli_command cli_cmd_analyze;
extern const cli_command cli_cmd_partition;
extern const cli_command cli_cmd_emit;
extern const cli_command cli_cmd_gen;
extern const cli_command cli_cmd_explore;
extern const cli_command cli_cmd_merge;
extern const cli_command cli_cmd_probe;

#endif
