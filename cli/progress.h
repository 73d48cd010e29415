/* cli/progress.h — progress lines on standard error for the long commands
 * (explore, partition).
 *
 * The library reports how far it is through a callback; the command stores
 * that under the lock (cli_progress_lock/unlock around its own fields, or
 * cli_progress_add for plain counts) and a reporter thread prints a line
 * every `every` seconds, so a line comes on time even while every worker is
 * inside one slow step. On a terminal the line is rewritten in place ("\r"),
 * otherwise one line per report.
 *
 * A line is "CMD: H:MM:SS done/total UNIT (P%), DETAIL, ETA H:MM:SS", DETAIL
 * written by the command's detail function (given the rate). The rate is
 * the recent one: the work done over the last W seconds, W = a third of the
 * run so far, at least one report period and at most 60 s; the ETA is the
 * work left divided by the smaller of that rate and the run's mean rate.
 * Work is not uniform (a sweep's later points, with more tasks or a higher
 * utilization, cost several times its first): a rate remembered from the
 * start (the exponential average with a 60 s time constant used before)
 * promised 2 s at 5 s and 3 s at 35 s of a 52 s run. The smaller rate keeps
 * the ETA from promising too little when work gets heavier, and only
 * overstates it when work gets lighter. Rates print as plain numbers
 * (cli_put_rate: "1920", "38.5", "0.42").
 *
 * Thread-safety: cli_progress_add, _lock and _unlock may be called from any
 * thread between cli_progress_start and cli_progress_stop. */
#ifndef RTP_CLI_PROGRESS_H
#define RTP_CLI_PROGRESS_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

/* DETAIL into buf (under the lock), from ctx and the smoothed rate in
 * units per second. */
typedef void (*cli_progress_detail)(const void *ctx, double rate, char *buf, size_t size);

typedef struct cli_progress {
    pthread_mutex_t lock;
    pthread_cond_t wake;
    pthread_t thread;
    const char *command, *unit;
    cli_progress_detail detail;
    const void *detail_ctx;
    uint64_t done, total;      /* under lock */
    double start, every, last_at, rate;
    uint64_t last_done;
    double at[64];             /* the last reports: time, and done then (a ring) */
    uint64_t done_at[64];
    size_t n_at;
    int tty, stop, started;
    int shown;                 /* a line is on the terminal without its newline */
} cli_progress;

/* Seconds on CLOCK_MONOTONIC. */
double cli_seconds_now(void);
/* "H:MM:SS", rounded, clamped to [0, 100000 h]. */
void cli_put_hms(char *buf, size_t size, double seconds);
/* A rate as a plain number with three significant digits at most, never
 * in exponent form: "1920", "38.5", "0.42", "0". */
void cli_put_rate(char *buf, size_t size, double rate);

/* Starts the reporter: every `every_s` seconds (0: 1 on a terminal, else
 * 10). Without a thread (creation failed) no line is printed; the command
 * still runs. */
void cli_progress_start(cli_progress *p, const char *command, const char *unit, double every_s,
                        cli_progress_detail detail, const void *detail_ctx);
void cli_progress_lock(cli_progress *p);
void cli_progress_unlock(cli_progress *p);
/* total += planned, done += done_now (thread-safe). */
void cli_progress_add(cli_progress *p, uint64_t planned, uint64_t done_now);
/* Stops the reporter; with `final`, a line already on the terminal gets one
 * last report with the final counts and its newline. */
void cli_progress_stop(cli_progress *p, int final);

#endif
