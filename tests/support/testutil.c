/* tests/support/testutil.c — see testutil.h. */
#include "support/testutil.h"

#include "models/arith.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

uint64_t tu_next(tu_rng *rng)
{
    uint64_t z = (rng->state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

int64_t tu_range(tu_rng *rng, int64_t lo, int64_t hi)
{
    /* in unsigned arithmetic: hi - lo overflows int64_t for wide ranges */
    uint64_t span = (uint64_t)hi - (uint64_t)lo + 1;
    uint64_t offset = span ? tu_next(rng) % span : tu_next(rng);
    return (int64_t)((uint64_t)lo + offset);
}

rtp_task tu_task(rtp_ns wcet, rtp_ns deadline, rtp_ns period)
{
    rtp_task t;
    memset(&t, 0, sizeof t);
    t.wcet_ns = wcet;
    t.deadline_ns = deadline;
    t.period_ns = period;
    return t;
}

rtp_ns tu_fp_completion(const rtp_task *ts, size_t n, size_t i, rtp_ns q)
{
    rtp_ns own = ts[i].blocking_ns + (q + 1) * ts[i].wcet_ns, w = 1;
    for (;;) {
        rtp_ns next = own;
        for (size_t j = 0; j < n; j++)
            if (j != i)
                next += (w + ts[j].jitter_ns + ts[j].period_ns - 1) / ts[j].period_ns *
                        ts[j].wcet_ns;
        if (next == w)
            return w;
        w = next;
    }
}

static int by_release(const void *a, const void *b)
{
    const tu_job *x = a, *y = b;
    if (x->release != y->release)
        return x->release < y->release ? -1 : 1;
    return x->task < y->task ? -1 : x->task > y->task;
}

void tu_jobs_sort(tu_job *jobs, size_t n)
{
    qsort(jobs, n, sizeof *jobs, by_release);
}

rtp_ns tu_hyperperiod(const rtp_task *ts, size_t n)
{
    rtp_ns h = 1;
    for (size_t i = 0; i < n; i++)
        h = h / rtp_gcd(h, ts[i].period_ns) * ts[i].period_ns;
    return h;
}

rtp_ns tu_bisect_wcet(rtp_task *ts, size_t n, size_t k, rtp_ns lo, rtp_ns hi,
                      int (*accepts)(const rtp_task *ts, size_t n, const void *ctx),
                      const void *ctx)
{
    rtp_ns keep = ts[k].wcet_ns;
    while (hi - lo > 1) {
        ts[k].wcet_ns = lo + (hi - lo) / 2;
        if (accepts(ts, n, ctx))
            lo = ts[k].wcet_ns;
        else
            hi = ts[k].wcet_ns;
    }
    ts[k].wcet_ns = keep;
    return lo;
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return strdup("");
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    size_t got;
    while ((got = fread(buf + len, 1, cap - len - 1, f)) > 0) {
        len += got;
        if (cap - len < 2) {
            cap *= 2;
            buf = realloc(buf, cap);
        }
    }
    buf[len] = '\0';
    fclose(f);
    return buf;
}

char *tu_write_temp(const char *text)
{
    char tmpl[] = "/tmp/rtp_test_XXXXXX";
    int fd = mkstemp(tmpl);
    if (fd < 0)
        return NULL;
    size_t len = strlen(text);
    if (write(fd, text, len) != (ssize_t)len) {
        close(fd);
        return NULL;
    }
    close(fd);
    return strdup(tmpl);
}

int tu_run_cli(const char *args, const char *stdin_text, char **out, char **err)
{
    const char *bin = getenv("RTP_BINARY");
    if (!bin)
        bin = "./rtpack";
    char out_path[] = "/tmp/rtp_out_XXXXXX", err_path[] = "/tmp/rtp_err_XXXXXX";
    int fo = mkstemp(out_path), fe = mkstemp(err_path);
    if (fo < 0 || fe < 0)
        return -1;
    close(fo);
    close(fe);
    char *in_path = stdin_text ? tu_write_temp(stdin_text) : NULL;
    size_t size = strlen(bin) + strlen(args) + 256;
    char *cmd = malloc(size);
    snprintf(cmd, size, "'%s' %s <%s >%s 2>%s", bin, args, in_path ? in_path : "/dev/null",
             out_path, err_path);
    int status = system(cmd);
    free(cmd);
    if (out)
        *out = slurp(out_path);
    if (err)
        *err = slurp(err_path);
    unlink(out_path);
    unlink(err_path);
    if (in_path) {
        unlink(in_path);
        free(in_path);
    }
    if (status == -1 || !WIFEXITED(status))
        return -1;
    return WEXITSTATUS(status);
}

const char *tu_source_path(const char *relative)
{
    static char buf[4096];
    const char *root = getenv("RTP_SOURCE_DIR");
    snprintf(buf, sizeof buf, "%s/%s", root ? root : ".", relative);
    return buf;
}

int tu_next_permutation(int *a, size_t n)
{
    if (n < 2)
        return 0;
    size_t i = n - 1;
    while (i > 0 && a[i - 1] >= a[i])
        i--;
    if (i == 0)
        return 0;
    size_t j = n - 1;
    while (a[j] <= a[i - 1])
        j--;
    int t = a[i - 1];
    a[i - 1] = a[j];
    a[j] = t;
    for (size_t l = i, r = n - 1; l < r; l++, r--) {
        t = a[l];
        a[l] = a[r];
        a[r] = t;
    }
    return 1;
}
