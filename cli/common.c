/* cli/common.c — error printing and the task-set loading shared by all
 * commands. */
#include "cli/cli.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int cli_usage_error(const cli_args *args, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "rtpack%s%s: ", args && args->command ? " " : "",
            args && args->command ? args->command : "");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return CLI_EXIT_USAGE;
}

int cli_fail(const cli_args *args, const char *file, rtp_status status,
             const rtp_diag *diag)
{
    char line[1024];
    rtp_diag_format(diag, file, line, sizeof line);
    if (status == RTP_ELIMIT)
        fprintf(stderr, "rtpack %s: resource limit: %s\n", args->command, line);
    else
        fprintf(stderr, "rtpack %s: %s\n", args->command, line);
    return rtp_status_exit_code(status);
}

const char *cli_shown_name(const char *file)
{
    return strcmp(file, "-") == 0 ? "<stdin>" : file;
}

int cli_load_taskset(const cli_args *args, const char *file, rtp_taskset *ts)
{
    rtp_diag diag;
    rtp_diag_clear(&diag);
    rtp_status st = rtp_taskset_load(file, ts, &diag);
    if (st != RTP_OK)
        return cli_fail(args, cli_shown_name(file), st, &diag);
    return 0;
}
