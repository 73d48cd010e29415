/* cli/progress.c — the reporter thread of cli/progress.h. */
#include "cli/progress.h"

#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

double cli_seconds_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void cli_put_hms(char *buf, size_t size, double seconds)
{
    long s = seconds < 0 ? 0 : seconds > 3.6e8 ? 360000000L : (long)(seconds + 0.5);
    snprintf(buf, size, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
}

void cli_put_rate(char *buf, size_t size, double rate)
{
    if (!(rate > 0))
        snprintf(buf, size, "0");
    else if (rate >= 100)
        snprintf(buf, size, "%.0f", rate);
    else if (rate >= 10)
        snprintf(buf, size, "%.1f", rate);
    else if (rate >= 0.01)
        snprintf(buf, size, "%.2f", rate);
    else
        snprintf(buf, size, "%.4f", rate);
}

/* The rate over the last W seconds of reports (progress.h), from the ring
 * of reports; the mean rate until there are two. */
static double recent_rate(const cli_progress *p, double now)
{
    double elapsed = now - p->start, w = elapsed / 3;
    w = w < p->every ? p->every : w > 60 ? 60 : w;
    double mean = elapsed > 0 ? (double)p->done / elapsed : 0.0;
    size_t size = sizeof p->at / sizeof p->at[0], n = p->n_at < size ? p->n_at : size;
    for (size_t back = 1; back <= n; back++) { /* newest first: the latest at or before now - w */
        size_t k = (p->n_at - back) % size;
        if (p->at[k] <= now - w || back == n)
            return now > p->at[k] ? (double)(p->done - p->done_at[k]) / (now - p->at[k]) : mean;
    }
    return mean;
}

/* One report (under the lock). */
static void report(cli_progress *p, double now)
{
    double elapsed = now - p->start;
    double mean = elapsed > 0 ? (double)p->done / elapsed : 0.0;
    p->rate = recent_rate(p, now);
    size_t size = sizeof p->at / sizeof p->at[0];
    p->at[p->n_at % size] = now;
    p->done_at[p->n_at % size] = p->done;
    p->n_at++;
    p->last_at = now;
    p->last_done = p->done;
    char eta[32] = "--:--:--", took[32], detail[256] = "";
    double pace = p->rate < mean ? p->rate : mean;
    if (pace > 0 && p->done > 0)
        cli_put_hms(eta, sizeof eta, (double)(p->total - p->done) / pace);
    cli_put_hms(took, sizeof took, elapsed);
    p->detail(p->detail_ctx, p->rate, detail, sizeof detail);
    fprintf(stderr, "%s%s: %s %llu/%llu %s (%.0f%%), %s, ETA %s%s", p->tty ? "\r" : "",
            p->command, took, (unsigned long long)p->done, (unsigned long long)p->total, p->unit,
            p->total ? 100.0 * (double)p->done / (double)p->total : 100.0, detail, eta,
            p->tty ? "  " : "\n");
    fflush(stderr);
    p->shown = p->tty;
}

static void *reporter(void *ctx)
{
    cli_progress *p = ctx;
    pthread_mutex_lock(&p->lock);
    while (!p->stop) {
        double now = cli_seconds_now(), due = p->last_at + p->every;
        if (now >= due) {
            report(p, now);
            continue;
        }
        double wait = due - now;
        struct timespec until;
        clock_gettime(CLOCK_MONOTONIC, &until);
        until.tv_sec += (time_t)wait;
        until.tv_nsec += (long)((wait - (double)(time_t)wait) * 1e9);
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&p->wake, &p->lock, &until);
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

void cli_progress_start(cli_progress *p, const char *command, const char *unit, double every_s,
                        cli_progress_detail detail, const void *detail_ctx)
{
    memset(p, 0, sizeof *p);
    p->command = command;
    p->unit = unit;
    p->detail = detail;
    p->detail_ctx = detail_ctx;
    p->tty = isatty(STDERR_FILENO);
    p->every = every_s > 0 ? every_s : p->tty ? 1.0 : 10.0;
    p->start = p->last_at = p->at[0] = cli_seconds_now();
    p->n_at = 1; /* (start, 0 done): the first report's rate is the mean */
    pthread_mutex_init(&p->lock, NULL);
    pthread_condattr_t clock; /* the reporter's deadlines are CLOCK_MONOTONIC */
    pthread_condattr_init(&clock);
    pthread_condattr_setclock(&clock, CLOCK_MONOTONIC);
    pthread_cond_init(&p->wake, &clock);
    pthread_condattr_destroy(&clock);
    p->started = pthread_create(&p->thread, NULL, reporter, p) == 0;
}

void cli_progress_lock(cli_progress *p)
{
    pthread_mutex_lock(&p->lock);
}

void cli_progress_unlock(cli_progress *p)
{
    pthread_mutex_unlock(&p->lock);
}

void cli_progress_add(cli_progress *p, uint64_t planned, uint64_t done_now)
{
    pthread_mutex_lock(&p->lock);
    p->total += planned;
    p->done += done_now;
    pthread_mutex_unlock(&p->lock);
}

void cli_progress_stop(cli_progress *p, int final)
{
    if (p->started) {
        pthread_mutex_lock(&p->lock);
        p->stop = 1;
        pthread_cond_signal(&p->wake);
        pthread_mutex_unlock(&p->lock);
        pthread_join(p->thread, NULL);
        if (final && p->shown) {
            report(p, cli_seconds_now());
            fputc('\n', stderr);
            p->shown = 0;
        }
    }
    pthread_cond_destroy(&p->wake);
    pthread_mutex_destroy(&p->lock);
}
