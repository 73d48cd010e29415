/* cli/batch.h — the ordered parallel line pipeline behind `analyze --batch`.
 *
 * Purpose: run one function over every non-blank line of a stream on a team
 * of threads and write the results in input order, so the output is the
 * same bytes for any number of threads, with bounded memory on an endless
 * input.
 *
 * How (the idea first): the input is cut into units of about 32 KiB of
 * lines. A thread with nothing to do takes a free unit, fills it from the
 * input (one reader at a time), analyses its lines into the unit's own
 * output, and marks it done; whoever marks the oldest unprinted unit done
 * prints every done unit that follows it in order and frees them. No
 * barrier ends a chunk: a thread waits (asleep, on a condition variable)
 * only when all 16 x threads units are taken, i.e. when the oldest unit is
 * still being analysed and every later one is finished. On a shared machine
 * a descheduled thread then delays only the units behind its own, never the
 * whole team at every chunk end.
 *
 * Memory: at most 16 x threads units of about 32 KiB and their results; a
 * line longer than that (up to --max-input-bytes) is held only while its
 * thread reads and analyses it: a unit gives its grown buffers back once
 * done with them.
 * Thread-safety: cli_batch_run is called once per run from one thread; the
 * line function is called from several threads at once and must only
 * write its `out`. */
#ifndef RTP_CLI_BATCH_H
#define RTP_CLI_BATCH_H

#include <stdio.h>

#include "models/fileio.h"
#include "models/text.h"

/* A line's kind, as both callbacks return it: 0 analysed, 2 bad line,
 * 3 resource limit (a result line appended to out in each case), -1 out of
 * memory (nothing usable appended: the run stops there). */
typedef int (*cli_batch_line_fn)(const char *text, size_t len, long number, const void *ctx,
                                 rtp_text *out);
/* The result line of a line rtp_lines_next refused with st. */
typedef int (*cli_batch_error_fn)(rtp_text *out, long number, rtp_status st,
                                  const rtp_diag *diag);

/* Runs `line` over every non-blank line of `in` (blank: only spaces, tabs,
 * CRs) on `threads` >= 1 threads, writing the results to `out` in input
 * order. Returns the kinds seen: 1 a bad line, 2 a limit line, 4 out of
 * memory (then "rtpack analyze: out of memory at line N" is on stderr, after
 * the results of every line before N). */
int cli_batch_run(rtp_lines *in, int threads, cli_batch_line_fn line, cli_batch_error_fn error,
                  const void *ctx, FILE *out);

#endif
