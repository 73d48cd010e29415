/* cli/explain_locks.h — `partition --explain` for plans with shared
 * resources (cli/explain_locks.c). */
#ifndef RTP_CLI_EXPLAIN_LOCKS_H
#define RTP_CLI_EXPLAIN_LOCKS_H

#include "cli/cli.h"
#include "heuristics/partition.h"

#include <stdio.h>

/* Prints the explanation to out; 0, or the exit status of a failure. */
int rtp_cli_explain_locks(FILE *out, const cli_args *args, rtp_plan *plan,
                          const rtp_part_opts *opts);

#endif
