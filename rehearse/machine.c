/* rehearse/machine.c — see machine.h. */
#include "rehearse/machine.h"
#include "models/grow.h"
#include "models/sched_attr.h"
#include "models/text.h"

#include <dirent.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct lines {
    char **v;
    size_t n, cap;
    int failed;
} lines;

static void add(lines *l, const char *s)
{
    if (l->failed)
        return;
    if (RTP_GROW(l->v, l->cap, l->n + 1) != 0) {
        l->failed = 1;
        return;
    }
    if (!(l->v[l->n] = strdup(s)))
        l->failed = 1;
    else
        l->n++;
}

/* The first line of a small file, without its newline; "-" when absent. */
static void first_line(const char *path, char *buf, size_t size)
{
    FILE *f = fopen(path, "r");
    snprintf(buf, size, "-");
    if (!f)
        return;
    if (fgets(buf, (int)size, f))
        buf[strcspn(buf, "\n")] = '\0';
    fclose(f);
}

/* Every folder below dir (relative names under rel), with its setting. */
static void walk(lines *l, const char *dir, const char *rel, const char *setting, int depth)
{
    DIR *d = opendir(dir);
    if (!d || depth > 32) {
        if (d)
            closedir(d);
        return;
    }
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char path[4096], name[4096], value[64], line[4300];
        /* A name that does not fit is not a cpuset we could restore either. */
        if (snprintf(path, sizeof path, "%s/%s", dir, e->d_name) >= (int)sizeof path)
            continue;
        struct stat st;
        if (lstat(path, &st) != 0 || !S_ISDIR(st.st_mode))
            continue;
        if (snprintf(name, sizeof name, "%s%s%s", rel, *rel ? "/" : "", e->d_name) >=
            (int)sizeof name)
            continue;
        char file[4200];
        snprintf(file, sizeof file, "%s/%s", path, setting);
        first_line(file, value, sizeof value);
        snprintf(line, sizeof line, "cpuset %s %s", name, value);
        add(l, line);
        walk(l, path, name, setting, depth + 1);
    }
    closedir(d);
}

static const char *policy_name(int policy)
{
    switch (policy) {
    case SCHED_FIFO: return "SCHED_FIFO";
    case SCHED_RR: return "SCHED_RR";
    case SCHED_DEADLINE: return "SCHED_DEADLINE";
    default: return NULL;
    }
}

/* 1 for a thread that has exited but is not yet reaped (state Z or X): it
 * runs nothing, whatever policy it still shows. Orphans wait for init,
 * which may reap them late. */
static int exited(const char *tasks, const char *tid)
{
    char path[900], state = 0;
    snprintf(path, sizeof path, "%s/%s/stat", tasks, tid);
    FILE *f = fopen(path, "r");
    if (!f)
        return 1;
    int n = fscanf(f, "%*d (%*[^)]) %c", &state);
    fclose(f);
    return n != 1 || state == 'Z' || state == 'X';
}

static void rt_threads(lines *l, const char *proc)
{
    DIR *d = opendir(proc);
    struct dirent *p;
    while (d && (p = readdir(d))) {
        if (p->d_name[0] < '1' || p->d_name[0] > '9')
            continue;
        char tasks[600];
        snprintf(tasks, sizeof tasks, "%s/%s/task", proc, p->d_name);
        DIR *t = opendir(tasks);
        struct dirent *e;
        while (t && (e = readdir(t))) {
            if (e->d_name[0] < '1' || e->d_name[0] > '9')
                continue;
            if (exited(tasks, e->d_name))
                continue;
            int tid = atoi(e->d_name), policy = sched_getscheduler(tid) & ~SCHED_RESET_ON_FORK;
            const char *name = policy_name(policy);
            if (!name)
                continue;
            struct sched_param sp = {0};
            sched_getparam(tid, &sp);
            char comm_path[900], comm[64], line[200];
            snprintf(comm_path, sizeof comm_path, "%s/%s", tasks, e->d_name);
            strncat(comm_path, "/comm", sizeof comm_path - strlen(comm_path) - 1);
            first_line(comm_path, comm, sizeof comm);
            snprintf(line, sizeof line, "thread %d (%s) %s %d", tid, comm, name,
                     sp.sched_priority);
            add(l, line);
        }
        if (t)
            closedir(t);
    }
    if (d)
        closedir(d);
}

static int str_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

rtp_status rtp_machine_snapshot(const char *cgroup_base, const char *proc, char **text,
                                rtp_diag *diag)
{
    lines l = {0};
    char v1[4096];
    snprintf(v1, sizeof v1, "%s/cpuset", cgroup_base);
    struct stat st;
    if (stat(v1, &st) == 0 && S_ISDIR(st.st_mode))
        walk(&l, v1, "", "cpuset.sched_load_balance", 0);
    else
        walk(&l, cgroup_base, "", "cpuset.cpus.partition", 0);
    rt_threads(&l, proc);
    rtp_text out;
    rtp_text_init(&out);
    if (!l.failed) {
        if (l.n)
            qsort(l.v, l.n, sizeof *l.v, str_cmp); /* l.v is NULL when empty */
        for (size_t i = 0; i < l.n; i++)
            rtp_text_printf(&out, "%s\n", l.v[i]);
    }
    for (size_t i = 0; i < l.n; i++)
        free(l.v[i]);
    free(l.v);
    *text = out.data ? out.data : strdup("");
    if (l.failed || !*text || out.failed) {
        free(*text);
        *text = NULL;
        return rtp_diag_set(diag, RTP_ENOMEM, "", "out of memory");
    }
    return RTP_OK;
}

/* The first line of `a` that is not in `b` (both sorted, "\n"-ended). */
static int first_missing(const char *a, const char *b, char *line, size_t size)
{
    for (const char *p = a; *p;) {
        size_t len = strcspn(p, "\n");
        int found = 0;
        for (const char *q = b; *q && !found;) {
            size_t ql = strcspn(q, "\n");
            found = ql == len && memcmp(p, q, len) == 0;
            q += ql + (q[ql] == '\n');
        }
        if (!found) {
            snprintf(line, size, "%.*s", (int)len, p);
            return 1;
        }
        p += len + (p[len] == '\n');
    }
    return 0;
}

void rtp_machine_diff(const char *before, const char *after, char *out, size_t size)
{
    char line[300];
    out[0] = '\0';
    if (strcmp(before, after) == 0)
        return;
    if (first_missing(after, before, line, sizeof line))
        snprintf(out, size, "%s: new since before the rehearsal (left behind)", line);
    else if (first_missing(before, after, line, sizeof line))
        snprintf(out, size, "%s: gone since before the rehearsal", line);
}
