/* cli/batch.c — the ordered parallel line pipeline of cli/batch.h.
 *
 * Invariants, all under batch_pipe.mu:
 *  - units[] are FREE, TAKEN (owned by exactly one thread, which fills and
 *    analyses it without the lock), DONE (waiting to be printed) or
 *    PRINTING (being written by the one thread with `printing` set);
 *  - sequence numbers are handed out under read_mu in input order, so the
 *    units' lines are in seq order, and next_print is the oldest seq not yet
 *    printed;
 *  - when no thread is printing, the unit of seq next_print is not DONE
 *    (the printer takes every done unit in order before it stops), so
 *    every unit is printed, in order, by one thread at a time;
 *  - once `stop` is set (out of memory), nothing more is printed or read. */
#include "cli/batch.h"
#include "models/grow.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* A unit's size: ~10 lines of 50 tasks, each ~30 us to analyse, so a
 * unit is a few hundred us of work: lock traffic is negligible and the
 * last unit leaves other threads idle only that long. At most UNIT_LINES
 * lines, so one of tiny lines is bounded too. */
#define UNIT_BYTES ((size_t)32 << 10)
#define UNIT_LINES 1024
/* Units a thread may run ahead of the oldest unprinted one, ~3 ms of work
 * each thread: a thread other load descheduled for a few ms (a scheduler
 * slice at load 4) then holds back only its own unit. With 4, a 2-thread
 * EDF batch of 5,000 sets at load 3.7 slept waiting for a free unit
 * 116-189 times a run, with 16 0-1 times (sched_switch traces). */
#define UNITS_PER_THREAD 16

typedef struct item {
    size_t start, len;  /* the line in unit.text (len 0: refused when read) */
    long number;
    size_t at, size;    /* refused: its result in unit.errors */
} item;

enum { FREE, TAKEN, DONE, PRINTING };

typedef struct unit {
    int state;
    long seq;
    char *text;
    size_t len, cap;
    item *items;
    size_t n, items_cap;
    rtp_text errors;    /* results of the lines rtp_lines_next refused */
    rtp_text out;       /* the results, in order */
    int flags;          /* 1 bad, 2 limit */
    long oom_line;      /* > 0: out of memory at this line; nothing after it counts */
    pthread_t user;     /* the thread that took it last (used: one did) */
    int used;
} unit;

typedef struct batch_pipe {
    pthread_mutex_t mu, read_mu;
    pthread_cond_t cv;
    unit *units;
    size_t n_units;
    long next_print;
    int flags, stop, input_done; /* input_done: mu; in/next_seq: read_mu */
    int printing;                /* a thread is in drain's writes (mu) */
    rtp_lines *in;
    int in_ended;
    long next_seq;
    cli_batch_line_fn line;
    cli_batch_error_fn error;
    const void *ctx;
    FILE *out;
} batch_pipe;

static int is_blank(const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
            return 0;
    return 1;
}

/* Adds a line (text copied), or, when rtp_lines_next refused it (st), its
 * result line; 0 when out of memory. */
static int unit_add(unit *u, const batch_pipe *p, const char *text, size_t len, long number,
                    rtp_status st, const rtp_diag *diag)
{
    if (RTP_GROW(u->items, u->items_cap, u->n + 1) != 0)
        return 0;
    item *it = &u->items[u->n];
    it->number = number;
    it->start = u->len;
    it->len = 0;
    if (st != RTP_OK) {
        it->at = u->errors.len;
        int kind = p->error(&u->errors, number, st, diag);
        if (kind < 0)
            return 0;
        it->size = u->errors.len - it->at;
        u->flags |= kind == 2 ? 1 : 2;
        u->n++;
        return 1;
    }
    if (u->len + len > u->cap) {
        size_t cap = u->cap ? u->cap : UNIT_BYTES;
        while (cap < u->len + len)
            cap *= 2;
        char *bigger = realloc(u->text, cap);
        if (!bigger)
            return 0;
        u->text = bigger;
        u->cap = cap;
    }
    memcpy(u->text + u->len, text, len);
    it->len = len;
    u->len += len;
    u->n++;
    return 1;
}

/* Fills an empty unit from the input (caller holds read_mu): 1 when more
 * may follow, 0 at the end of the input or when out of memory (oom_line). */
static int unit_fill(unit *u, batch_pipe *p)
{
    rtp_diag diag;
    for (;;) {
        const char *text;
        size_t len;
        rtp_diag_clear(&diag);
        rtp_status st = rtp_lines_next(p->in, &text, &len, &diag);
        if (st == RTP_OK && !text)
            return 0;
        if ((st != RTP_OK || !is_blank(text, len)) &&
            !unit_add(u, p, text, len, p->in->number, st, &diag)) {
            u->oom_line = p->in->number;
            return 0;
        }
        if (u->len >= UNIT_BYTES || u->n >= UNIT_LINES)
            return 1;
    }
}

/* Analyses the unit's lines in order into u->out (no lock held). */
static void unit_analyse(unit *u, const batch_pipe *p)
{
    for (size_t i = 0; i < u->n; i++) {
        item *it = &u->items[i];
        size_t at = u->out.len;
        int kind;
        if (it->len == 0) {
            rtp_text_appendn(&u->out, u->errors.data + it->at, it->size);
            kind = rtp_text_status(&u->out) == RTP_OK ? 0 : -1;
        } else
            kind = p->line(u->text + it->start, it->len, it->number, p->ctx, &u->out);
        if (kind < 0) { /* out of memory says nothing about the line: stop there */
            u->out.len = at;
            u->oom_line = it->number;
            return;
        }
        u->flags |= kind == 2 ? 1 : kind == 3 ? 2 : 0;
    }
}

/* A buffer past KEEP_BYTES held an unusually long line (or its results):
 * given back instead of kept for the next unit, so memory returns to about
 * units x UNIT_BYTES after it (the old chunks were two, whatever the thread
 * count; with UNITS_PER_THREAD x threads units, keeping every grown buffer
 * multiplied one long line's cost by the unit count). */
#define KEEP_BYTES (4 * UNIT_BYTES)

static void unit_trim_text(unit *u)
{
    if (u->cap > KEEP_BYTES) {
        free(u->text);
        u->text = NULL;
        u->cap = 0;
    }
    u->len = 0;
}

static void unit_reset(unit *u)
{
    unit_trim_text(u);
    if (u->out.cap > KEEP_BYTES)
        rtp_text_free(&u->out);
    if (u->errors.cap > KEEP_BYTES)
        rtp_text_free(&u->errors);
    u->state = FREE;
    u->n = 0;
    u->errors.len = u->out.len = 0;
    u->flags = 0;
    u->oom_line = 0;
}

/* Prints every done unit from next_print on, in order (caller holds mu;
 * the writes themselves happen without it, so a thread finishing or taking
 * a unit never waits behind a write). One printer at a time: a thread that
 * finds another printing leaves its unit DONE, and the printer takes it
 * before it stops. */
static void drain(batch_pipe *p)
{
    if (p->printing)
        return;
    p->printing = 1;
    for (;;) {
        unit *u = NULL;
        for (size_t k = 0; k < p->n_units && !u; k++)
            if (p->units[k].state == DONE && p->units[k].seq == p->next_print)
                u = &p->units[k];
        if (!u || p->stop)
            break;
        u->state = PRINTING;
        pthread_mutex_unlock(&p->mu);
        if (u->out.len)
            fwrite(u->out.data, 1, u->out.len, p->out);
        if (u->oom_line > 0)
            fprintf(stderr, "rtpack analyze: out of memory at line %ld\n", u->oom_line);
        pthread_mutex_lock(&p->mu);
        p->flags |= u->flags;
        if (u->oom_line > 0) {
            p->flags |= 4;
            p->stop = 1;
        }
        unit_reset(u);
        p->next_print++;
        pthread_cond_broadcast(&p->cv);
    }
    p->printing = 0;
}

/* A free unit, one this thread used before if any (caller holds mu): its
 * buffers are then in this thread's cache, not another's (filling a unit
 * another thread had analysed wrote its 32 KiB over that thread's cache
 * lines). */
static unit *take(batch_pipe *p, pthread_t me)
{
    unit *any = NULL;
    for (size_t k = 0; k < p->n_units; k++) {
        unit *u = &p->units[k];
        if (u->state != FREE)
            continue;
        if (u->used && pthread_equal(u->user, me))
            return u;
        if (!any)
            any = u;
    }
    return any;
}

/* One thread's loop: take a free unit, fill, analyse, finish; until the
 * input is read to its end (or the run stopped). */
static void work(batch_pipe *p)
{
    pthread_t me = pthread_self();
    for (;;) {
        unit *u = NULL;
        pthread_mutex_lock(&p->mu);
        while (!p->stop && !p->input_done) {
            u = take(p, me);
            if (u)
                break;
            pthread_cond_wait(&p->cv, &p->mu);
        }
        if (u) {
            u->state = TAKEN;
            u->user = me;
            u->used = 1;
        }
        pthread_mutex_unlock(&p->mu);
        if (!u)
            return;

        pthread_mutex_lock(&p->read_mu);
        int ended = p->in_ended;
        if (!ended) {
            u->seq = p->next_seq++;
            p->in_ended = !unit_fill(u, p);
        }
        int now_ended = p->in_ended;
        pthread_mutex_unlock(&p->read_mu);
        if (ended) { /* another thread read the end meanwhile: give it back */
            pthread_mutex_lock(&p->mu);
            u->state = FREE;
            pthread_mutex_unlock(&p->mu);
            return;
        }
        if (now_ended) {
            pthread_mutex_lock(&p->mu);
            p->input_done = 1;
            pthread_cond_broadcast(&p->cv);
            pthread_mutex_unlock(&p->mu);
        }

        unit_analyse(u, p);
        unit_trim_text(u); /* the lines are done with; only the results wait */

        pthread_mutex_lock(&p->mu);
        u->state = DONE;
        drain(p);
        pthread_mutex_unlock(&p->mu);
    }
}

static void *helper(void *arg)
{
    work(arg);
    return NULL;
}

int cli_batch_run(rtp_lines *in, int threads, cli_batch_line_fn line, cli_batch_error_fn error,
                  const void *ctx, FILE *out)
{
    if (threads < 1)
        threads = 1;
    batch_pipe p = {.in = in, .line = line, .error = error, .ctx = ctx, .out = out};
    p.n_units = (size_t)threads * UNITS_PER_THREAD;
    p.units = calloc(p.n_units, sizeof *p.units);
    if (!p.units) {
        fprintf(stderr, "rtpack analyze: out of memory\n");
        return 4;
    }
    /* Both locks are held for microseconds (mu: a scan of the units;
     * read_mu: one unit's fill, ~8 us for 32 KiB, p99 ~22 us), while a futex
     * sleep and its wake-up cost tens of microseconds of idle CPU on a VM:
     * with a plain mutex, 2 threads on 5,000 sets slept 20-30 times, mostly
     * at read_mu. glibc's adaptive mutex spins a while before it sleeps;
     * measured against a hand-written 50 us spin (load 0.5-1.0, two
     * threads' share of the ceiling): 0.903 / 0.918 on 5,000 EDF sets,
     * 0.962 / 0.918 on 20,000, FP and gedf the same within noise. */
    pthread_mutexattr_t adaptive;
    pthread_mutexattr_init(&adaptive);
    pthread_mutexattr_settype(&adaptive, PTHREAD_MUTEX_ADAPTIVE_NP);
    pthread_mutex_init(&p.mu, &adaptive);
    pthread_mutex_init(&p.read_mu, &adaptive);
    pthread_mutexattr_destroy(&adaptive);
    pthread_cond_init(&p.cv, NULL);
    /* The calling thread starts on the input at once and the helpers join
     * as they get a CPU: an OpenMP team's start waits until every member
     * runs, which left both threads idle 0.1-6 ms at the start of a 48 ms
     * two-thread batch on a loaded machine. A helper that cannot be
     * created leaves fewer threads, same output. */
    pthread_t *helpers = threads > 1 ? calloc((size_t)threads - 1, sizeof *helpers) : NULL;
    int started = 0;
    while (helpers && started < threads - 1 &&
           pthread_create(&helpers[started], NULL, helper, &p) == 0)
        started++;
    work(&p);
    for (int k = 0; k < started; k++)
        pthread_join(helpers[k], NULL);
    free(helpers);
    pthread_cond_destroy(&p.cv);
    pthread_mutex_destroy(&p.read_mu);
    pthread_mutex_destroy(&p.mu);
    for (size_t k = 0; k < p.n_units; k++) {
        free(p.units[k].text);
        free(p.units[k].items);
        rtp_text_free(&p.units[k].errors);
        rtp_text_free(&p.units[k].out);
    }
    free(p.units);
    return p.flags;
}
