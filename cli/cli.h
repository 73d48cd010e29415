/* cli/cli.h — the thin `rtpack` front end: one table of options per command
 * drives parsing, the usage errors, --help, the man pages and the bash
 * completion; the task-set loading every command does first; the mapping
 * from library status to the exit codes of docs/spec.md. Only the CLI prints.
 * Single-threaded; the tables are read-only.
 *
 * How a command declares its options (cli/cmd_*.c) — once, nowhere else:
 *
 *   typedef struct probe_settings {        // what the command runs with
 *       rtp_ratio seconds;
 *       cli_cpu_list cpus;
 *       int raw;
 *   } probe_settings;
 *
 *   static const cli_option options[] = {
 *       {.name = "seconds", .type = CLI_DECIMAL, CLI_TARGET(probe_settings, seconds),
 *        .metavar = "S", .range = "(0, 3600]", .def = "5",
 *        .help = "how long to measure"},
 *       {.name = "cpus", .type = CLI_CPUS, CLI_TARGET(probe_settings, cpus),
 *        .help = "CPUs to measure (default: every online CPU)"},
 *       {.name = "raw", .type = CLI_FLAG, CLI_TARGET(probe_settings, raw),
 *        .help = "print every sample"},
 *       CLI_OPTION_JSON,                    // shared --json (args->json)
 *       CLI_END,
 *   };
 *   static void init(void *s) { ((probe_settings *)s)->seconds = (rtp_ratio){5, 1}; }
 *   static int run(const cli_args *args, void *settings) { probe_settings *s = settings; ... }
 *   const cli_command cli_cmd_probe = {
 *       .name = "probe", .summary = "Measure this machine's scheduling latencies.",
 *       .options = options, .settings_size = sizeof(probe_settings), .init = init,
 *       .run = run,
 *   };
 *
 * then add &cli_cmd_probe to the list in cli/main.c. The parser writes every
 * value into its field (defaults come from init, before parsing), checks
 * types, ranges and allowed values with one message format ("--seconds wants
 * a decimal number in (0, 3600], got '0'"), suggests near names, and rejects
 * options the table does not hold. An option that only means something
 * under one value of another (`.when = "method=ilp"` on --write-lp) is a
 * usage error otherwise, so no option is ever silently ignored. Other rules
 * between options live in the command, with cli_given() to ask whether an
 * option was on the command line. */
#ifndef RTP_CLI_H
#define RTP_CLI_H

#include "models/base.h"
#include "models/ratio.h"
#include "models/plan.h"
#include "models/taskset.h"

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Exit codes (docs/spec.md "Exit status"). */
enum { CLI_EXIT_OK = 0, CLI_EXIT_NO = 1, CLI_EXIT_USAGE = 2, CLI_EXIT_LIMIT = 3 };

/* The kind of value an option takes, and so the type of its target field. */
typedef enum cli_type {
    CLI_FLAG,    /* int: 1 when given; takes no value */
    CLI_STRING,  /* const char *: the text itself (argv outlives the run) */
    CLI_ENUM,    /* an enum or int field: the value of the matching choice */
    CLI_INT,     /* signed or unsigned integer of 1, 2, 4 or 8 bytes, within [min, max] */
    CLI_DECIMAL, /* rtp_ratio: an exact decimal ("0.95"), within `range` when set */
    CLI_SECONDS, /* double: a positive, finite number of seconds ("60", "0.5") */
    CLI_TIME,    /* rtp_ns: a positive time, "5ms", "250us", or bare digits as ns */
    CLI_TIMES,   /* cli_time_list: comma-separated times, at least one */
    CLI_CPUS,    /* cli_cpu_list: Linux CPU ids, "0-3,6", below RTP_CPU_LIMIT, ascending */
    CLI_CUSTOM,  /* anything else: `parse` reads the text into the field */
} cli_type;

/* One allowed value of a CLI_ENUM option. */
typedef struct cli_choice {
    const char *name;
    int value;
} cli_choice;

/* CLI_TIMES and CLI_CPUS targets; the parser allocates, cli_settings_free frees. */
typedef struct cli_time_list {
    rtp_ns *ns;
    size_t n;
} cli_time_list;
typedef struct cli_cpu_list {
    int *ids;
    size_t n;
} cli_cpu_list;

/* CLI_CUSTOM: reads `text` into `field`; 0, or -1 with a reason in why
 * ("K is past N") — the message then reads "--NAME wants WANTS, got 'TEXT':
 * WHY". It must not allocate. */
typedef int (*cli_parse_fn)(const char *text, void *field, char *why, size_t why_size);

/* Option flags. */
enum {
    CLI_REQUIRED = 1u << 0, /* a usage error when absent */
    CLI_IN_ARGS = 1u << 1,  /* the target is in cli_args (shared --json, --cpus) */
    CLI_FILE = 1u << 2,     /* CLI_STRING naming a file: completion offers files */
    CLI_DIR = 1u << 3,      /* CLI_STRING naming a folder: completion offers folders */
    CLI_OUTPUT = 1u << 4,   /* with CLI_FILE or CLI_DIR: a path rtpack writes; the parser
                             * refuses anything but a regular file (a folder) or a new
                             * path, before the command runs (rtp_output_check) */
};

/* One option, "--name VALUE", "--name=VALUE" or "--name" for a flag. */
typedef struct cli_option {
    const char *name;       /* without the leading "--" */
    cli_type type;
    size_t offset, size;    /* the target field: CLI_TARGET(settings type, member) */
    const char *metavar;    /* "F", "K/N" (default from the type); enums show choices */
    const char *help;       /* one sentence for --help and the man page */
    const char *def;        /* the default as shown to users, or NULL */
    const cli_choice *choices; /* CLI_ENUM: terminated by {NULL, 0} */
    int64_t min;            /* CLI_INT: inclusive range */
    uint64_t max;
    const char *range;      /* CLI_DECIMAL: interval such as "(0, 1]" or "[1, inf)" */
    const char *wants;      /* CLI_CUSTOM: what a good value looks like, for messages */
    cli_parse_fn parse;     /* CLI_CUSTOM */
    const char *when;       /* "method=ilp", "format=script,systemd": only valid while that
                             * CLI_ENUM option of the same table holds one of those values
                             * (given or by default); else a usage error */
    unsigned flags;
} cli_option;

#define CLI_TARGET(type, member) \
    .offset = offsetof(type, member), .size = sizeof(((type *)0)->member)
#define CLI_END {.name = NULL}

#define CLI_MAX_OPTIONS 64
#define CLI_MAX_POSITIONAL 64

struct cli_command;

/* A parsed command line: the operands, whether each option of the command's
 * table was given, and the values of the options every command may share. */
typedef struct cli_args {
    const struct cli_command *cmd;
    const char *command;      /* cmd->name */
    int json;                 /* --json (CLI_OPTION_JSON) */
    int cpus;                 /* --cpus M (CLI_OPTION_CPUS), 0 when absent */
    uint64_t max_input;       /* --max-input-bytes N (CLI_OPTION_MAX_INPUT), default
                               * RTP_INPUT_MAX_DEFAULT */
    int help;
    unsigned char given[CLI_MAX_OPTIONS]; /* by index in cmd->options */
    const char *positional[CLI_MAX_POSITIONAL];
    size_t n_positional;
} cli_args;

#define CLI_OPTION_JSON                                                                      \
    {.name = "json", .type = CLI_FLAG, CLI_TARGET(cli_args, json), .flags = CLI_IN_ARGS,     \
     .help = "print one JSON document on standard output"}
#define CLI_OPTION_MAX_INPUT                                                                 \
    {.name = "max-input-bytes", .type = CLI_INT, CLI_TARGET(cli_args, max_input),            \
     .flags = CLI_IN_ARGS, .metavar = "N", .min = 1, .max = (uint64_t)1 << 40,                \
     .def = "268435456 (256 MiB)",                                                           \
     .help = "stop reading an input (file, standard input, a --batch line) past N bytes: exit 3"}
#define CLI_OPTION_CPUS                                                                      \
    {.name = "cpus", .type = CLI_INT, CLI_TARGET(cli_args, cpus), .flags = CLI_IN_ARGS,      \
     .metavar = "M", .min = 1, .max = RTP_CPU_LIMIT,                                         \
     .help = "use CPUs 0..M-1 (overrides the file's platform)"}

typedef struct cli_command {
    const char *name;
    const char *summary;      /* one line: what the command does */
    const char *description;  /* more paragraphs for --help's end and the man page, or NULL */
    const char *operands;     /* "FILE", "DIR...", or NULL for none */
    const char *operand_help; /* what the operands are, for the man page */
    size_t min_operands, max_operands;
    const char *examples;     /* man page EXAMPLES: lines "$ command" then its comment */
    const cli_option *options;/* terminated by CLI_END */
    size_t settings_size;     /* the struct the options write into */
    void (*init)(void *settings); /* defaults, before parsing; NULL = all zero */
    int (*run)(const cli_args *args, void *settings);
} cli_command;

/* Every subcommand, in the order --help lists them (cli/main.c). */
extern const cli_command *const cli_commands[];
extern const size_t cli_n_commands;
const cli_command *cli_find_command(const char *name);

/* Parses argv[first..argc-1] for `cmd` into *out and the command's settings
 * (already initialised). Returns 0, or prints one usage error on stderr and
 * returns CLI_EXIT_USAGE (settings may then hold lists: free them anyway). */
int cli_parse(const cli_command *cmd, int argc, char **argv, int first, cli_args *out,
              void *settings);

/* 1 when the option whose target is at `offset` of the settings was given:
 * cli_given(args, offsetof(part_settings, ilp.write_lp_path)). */
int cli_given(const cli_args *args, size_t offset);
#define CLI_GIVEN(args, type, member) cli_given((args), offsetof(type, member))

/* A positive time for an option: "5ms", "1.5us", or bare digits read as ns.
 * 0, or -1 with the reason in why. */
int cli_parse_time(const char *text, rtp_ns *out, char *why, size_t why_size);

/* Frees what the parser allocated in the settings (CLI_TIMES, CLI_CPUS). */
void cli_settings_free(const cli_command *cmd, void *settings);

/* The closest of `names` (NULL-terminated, or every `stride` bytes from
 * names for tables) to `word` when it is plausibly a typo, else NULL. */
const char *cli_suggest(const char *word, const char *const *names);

/* Checks a command's table (field sizes match types, names unique, choices
 * and ranges well-formed); 0, or -1 after printing what is wrong. */
int cli_check_table(const cli_command *cmd);

/* "--policy edf|fp" and "scheduling policy (default edf)": the two columns
 * of an option in --help, shared by the man page. */
void cli_option_left(const cli_option *opt, char *buf, size_t size);
void cli_option_text(const cli_option *opt, char *buf, size_t size);

/* --help text of a command, on `out`. */
void cli_print_help(const cli_command *cmd, FILE *out);
/* roff man page rtpack-CMD(1), or rtpack(1) for cmd NULL. */
void cli_print_man(const cli_command *cmd, FILE *out);
/* The bash completion script for every command. */
void cli_print_completion(FILE *out);
/* Writes DIR/man1/rtpack.1, DIR/man1/rtpack-CMD.1 for every command and
 * DIR/completion/rtpack (folders created); the exit code: 0, 2 when a
 * target is not a folder / a regular file or new (nothing written), 3 when
 * a write failed; a message on stderr. */
int cli_write_docs(const char *dir);
/* The version line, "rtpack X.Y.Z". */
const char *cli_version(void);

/* Prints "rtpack CMD: MESSAGE" on stderr; returns CLI_EXIT_USAGE. */
int cli_usage_error(const cli_args *args, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Prints a failed library status with its diagnostic ("FILE: PATH: MSG",
 * "resource limit: ..." for RTP_ELIMIT) and returns the exit code. */
int cli_fail(const cli_args *args, const char *file, rtp_status status,
             const rtp_diag *diag);

/* Prints "rtpack CMD: out of memory"; returns CLI_EXIT_LIMIT. */
int cli_out_of_memory(const cli_args *args);

/* "<stdin>" for "-", else the file name: how messages name an input. */
const char *cli_shown_name(const char *file);

/* Loads and validates a task-set FILE ("-" = stdin); on failure prints the
 * one-line diagnostic and returns its exit code (2 for bad input). */
int cli_load_taskset(const cli_args *args, const char *file, rtp_taskset *ts);

/* The same for a plan document (partition --json): *plan zeroed first, so
 * rtp_plan_free is safe whatever happens. */
int cli_load_plan(const cli_args *args, const char *file, rtp_plan *plan);

/* Long runs the library can stop early (probe, rehearse, explore): SIGINT,
 * SIGTERM and SIGHUP set the returned flag to the signal's number instead
 * of ending the process; the library polls it. The previous actions go to
 * *saved (may be NULL) for cli_stop_signals_restore. The flag is the one
 * piece of process state a signal handler needs. */
typedef struct cli_stop_signals {
    struct sigaction old[3];
} cli_stop_signals;
volatile sig_atomic_t *cli_stop_signals_catch(cli_stop_signals *saved);
void cli_stop_signals_restore(const cli_stop_signals *saved);

/* `explore --json` and `merge --json`: the summary document of DIR. */
int cli_print_explore_summary(const cli_args *args, const char *dir);

/* (ratio - 1) as a signed percentage, "+12.5%", "-20%", into buf (display
 * only); returns buf. */
const char *cli_percent_change(double ratio, char *buf, size_t size);

/* One line "<indent>critical scaling factor 1.08 (+8%) ..." for
 * --sensitivity (docs/spec.md "Sensitivity"). */
struct rtp_scaling;
void cli_print_scaling(const struct rtp_scaling *s, const char *indent);

/* "platform overheads: ..." (one line) when some overhead is non-zero; the
 * deadline charge is named only under SCHED_DEADLINE policies. */
void cli_print_overheads(const rtp_overheads *ov, rtp_policy policy);

/* What C' adds to wcet under `policy`, in words for a table's legend:
 * "wcet + 2 x context switch" (the only words before the charge and the
 * noise existed), with "+ noise" and "+ deadline charge" where they apply. */
const char *cli_effective_words(const rtp_overheads *ov, rtp_policy policy);

/* Choices shared by the commands that take a task set's policy and
 * priority rule (analyze, simulate). */
extern const cli_choice cli_policy_choices[];
extern const cli_choice cli_priority_choices[];

extern const cli_command cli_cmd_analyze;
extern const cli_command cli_cmd_partition;
extern const cli_command cli_cmd_emit;
extern const cli_command cli_cmd_gen;
extern const cli_command cli_cmd_explore;
extern const cli_command cli_cmd_merge;
extern const cli_command cli_cmd_probe;
extern const cli_command cli_cmd_rehearse;
extern const cli_command cli_cmd_simulate;
extern const cli_command cli_cmd_report;

#endif
