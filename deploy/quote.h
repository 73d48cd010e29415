/* deploy/quote.h — making untrusted plan text (task names, commands) safe
 * for the places the emitters put it: POSIX sh words, systemd unit values,
 * file and unit names.
 *
 * The rule: a value is either quoted so that its bytes reach the program
 * unchanged (sh single quotes; systemd double quotes with %, $, \ and "
 * escaped), or validated against a small character set where quoting is not
 * possible (unit and thread names). Control characters and invalid UTF-8 are
 * never accepted anywhere: nothing downstream can show them safely.
 * A string `cmd` is split at spaces and never given to a shell. Pure and
 * thread-safe; appends go to a caller-owned rtp_text. */
#ifndef RTP_DEPLOY_QUOTE_H
#define RTP_DEPLOY_QUOTE_H

#include "models/text.h"
#include "models/taskset.h"


/* 1 when s is 1..64 characters of [A-Za-z0-9_.-] not starting with '.' or
 * '-': safe as a file, unit or thread name without quoting. */
int rtp_quote_is_plain_name(const char *s);

/* 1 when s is 1..32 characters of [A-Za-z0-9_] (deployment names, which
 * become cgroup folder names). */
int rtp_quote_is_ident(const char *s);

/* Appends s as one POSIX sh word in single quotes ('it'\''s'). */
void rtp_quote_sh(rtp_text *out, const char *s);

/* Appends s as one systemd command-line word: double-quoted, with \ and "
 * backslash-escaped, % doubled (specifiers) and $ doubled (variables). */
void rtp_quote_systemd(rtp_text *out, const char *s);

/* The task's command as argv words: the array form as given, the string
 * form split at spaces (no shell). *argv is malloc'd (the strings are the
 * task's or point into *storage, also malloc'd); free both. RTP_EINPUT at
 * `path` when the task has no command, a word is empty, the first word
 * starts with '-', or a word fails rtp_text_check_plain (models/text.h). */
/* The message for a task without a command (one %s: its name), shared by
 * rtp_quote_cmd_argv and rtp_deploy_cmds_present (script.h). */
#define RTP_QUOTE_NO_CMD "missing: task \"%.60s\" has no command to launch"

rtp_status rtp_quote_cmd_argv(const rtp_task *task, const char *path,
                              char ***argv, size_t *argc, char **storage,
                              rtp_diag *diag);

#endif
