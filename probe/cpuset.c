/* probe/cpuset.c — temporary one-CPU root domains (see cpuset.h). */
#include "probe/cpuset.h"
#include "models/grow.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "probe/facts.h"

#define PREFIX "rtpack-probe."
#define SCHED_DEADLINE_POLICY 6
#define RMDIR_TRIES 100 /* x 10 ms: a thread that just left needs a moment */

static int write_file(const char *dir, const char *name, const char *value)
{
    char path[RTP_PROBE_PATH_SIZE];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (!f)
        return errno;
    int rc = fputs(value, f) < 0 ? errno : 0;
    if (fclose(f) != 0 && !rc)
        rc = errno ? errno : EIO;
    return rc;
}

/* First line of dir/name without its newline; 0 or errno. */
static int read_file(const char *dir, const char *name, char *out, size_t size)
{
    char path[RTP_PROBE_PATH_SIZE];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "r");
    if (!f)
        return errno;
    if (!fgets(out, (int)size, f))
        out[0] = '\0';
    fclose(f);
    out[strcspn(out, "\n")] = '\0';
    return 0;
}

static void nap(void)
{
    struct timespec ts = {0, 10 * 1000 * 1000};
    nanosleep(&ts, NULL);
}

/* Moves every thread in dir back to the root cpuset, then removes dir. */
static int remove_child(const char *base, const char *dir)
{
    char tasks[RTP_PROBE_PATH_SIZE], line[32], root_tasks[RTP_PROBE_PATH_SIZE];
    snprintf(tasks, sizeof tasks, "%s/tasks", dir);
    snprintf(root_tasks, sizeof root_tasks, "%s/tasks", base);
    for (int i = 0; i < RMDIR_TRIES; i++) {
        FILE *f = fopen(tasks, "r");
        while (f && fgets(line, sizeof line, f)) {
            FILE *r = fopen(root_tasks, "w");
            if (r) {
                fputs(line, r);
                fclose(r);
            }
        }
        if (f)
            fclose(f);
        if (rmdir(dir) == 0 || errno == ENOENT)
            return 0;
        nap();
    }
    return errno ? errno : EBUSY;
}

static char *dup_path(const char *a, const char *b)
{
    char path[RTP_PROBE_PATH_SIZE];
    snprintf(path, sizeof path, "%s/%s", a, b);
    return strdup(path);
}

/* The first SCHED_DEADLINE thread on the machine (its TID), or 0. */
static long deadline_thread(void)
{
    DIR *proc = opendir("/proc");
    long found = 0;
    for (struct dirent *p; proc && !found && (p = readdir(proc));) {
        if (p->d_name[0] < '1' || p->d_name[0] > '9')
            continue;
        char path[2 * 256 + 32]; /* two d_names */
        snprintf(path, sizeof path, "/proc/%s/task", p->d_name);
        DIR *tasks = opendir(path);
        for (struct dirent *t; tasks && !found && (t = readdir(tasks));) {
            if (t->d_name[0] < '1' || t->d_name[0] > '9')
                continue;
            char stat[1024];
            snprintf(path, sizeof path, "/proc/%s/task/%s/stat", p->d_name, t->d_name);
            FILE *f = fopen(path, "r");
            size_t len = f ? fread(stat, 1, sizeof stat - 1, f) : 0;
            if (f)
                fclose(f);
            stat[len] = '\0';
            /* after "(comm)", field 41 (policy) is the 39th word */
            char *s = strrchr(stat, ')');
            int field = 2;
            for (; s && *s && field < 41; s++)
                if (*s == ' ')
                    field++;
            if (s && field == 41 && atoi(s) == SCHED_DEADLINE_POLICY)
                found = atol(t->d_name);
        }
        if (tasks)
            closedir(tasks);
    }
    if (proc)
        closedir(proc);
    return found;
}

int rtp_probe_cpuset_clean_stale(const char *base, int *live_pid, int *dead_pid, char *why,
                                 size_t why_size)
{
    DIR *d = opendir(base);
    int rc = 0, restore = -1;
    *live_pid = *dead_pid = 0;
    for (struct dirent *e; d && (e = readdir(d));) {
        int pid = 0, lb = -1;
        if (strncmp(e->d_name, PREFIX, strlen(PREFIX)) != 0 ||
            sscanf(e->d_name + strlen(PREFIX), "%d.lb%d", &pid, &lb) != 2 || pid <= 0)
            continue;
        if (pid != getpid() && (kill(pid, 0) == 0 || errno == EPERM)) {
            *live_pid = pid;
            continue;
        }
        char dir[RTP_PROBE_PATH_SIZE];
        snprintf(dir, sizeof dir, "%s/%s", base, e->d_name);
        int err = remove_child(base, dir);
        if (err) {
            snprintf(why, why_size, "cannot remove the stale cpuset %s: %s", dir, strerror(err));
            rc = -1;
        }
        if (lb == 0 || lb == 1)
            restore = lb;
        *dead_pid = pid;
    }
    if (d)
        closedir(d);
    if (!rc && restore >= 0 && write_file(base, "cpuset.sched_load_balance", restore ? "1" : "0")) {
        snprintf(why, why_size, "cannot restore %s/cpuset.sched_load_balance", base);
        rc = -1;
    }
    return rc;
}

static int add_child(rtp_probe_cpuset *cs, const char *name, const char *cpus, const char *mems,
                     int exclusive, char *why, size_t why_size)
{
    char dir[RTP_PROBE_PATH_SIZE];
    snprintf(dir, sizeof dir, "%s/" PREFIX "%ld.lb%d.%s", cs->base, (long)getpid(), cs->saved_lb,
             name);
    if (RTP_GROW(cs->dirs, cs->cap_dirs, cs->n_dirs + 1) != 0 ||
        !(cs->dirs[cs->n_dirs] = strdup(dir))) {
        snprintf(why, why_size, "out of memory");
        return -1;
    }
    if (mkdir(dir, 0755) != 0) {
        snprintf(why, why_size, "cannot create the cpuset %s: %s", dir, strerror(errno));
        free(cs->dirs[cs->n_dirs]);
        return -1;
    }
    cs->n_dirs++;
    int err = write_file(dir, "cpuset.cpus", cpus);
    const char *what = "cpuset.cpus";
    if (!err && (err = write_file(dir, "cpuset.mems", mems)))
        what = "cpuset.mems";
    if (!err && exclusive && (err = write_file(dir, "cpuset.cpu_exclusive", "1")))
        what = "cpuset.cpu_exclusive";
    if (err)
        snprintf(why, why_size, "cannot set %s/%s: %s", dir, what, strerror(err));
    return err ? -1 : 0;
}

int rtp_probe_cpuset_open(const char *base, const int *cpus, size_t n, rtp_probe_cpuset *cs,
                          char *why, size_t why_size)
{
    char root_cpus[4096], mems[256], lb[8], name[32], buf[RTP_PROBE_PATH_SIZE];
    memset(cs, 0, sizeof *cs);
    snprintf(cs->base, sizeof cs->base, "%s", base);
    snprintf(cs->root_tasks, sizeof cs->root_tasks, "%s/tasks", base);
    if (read_file(base, "cpuset.cpu_exclusive", lb, sizeof lb) != 0) {
        snprintf(why, why_size, "no cgroup v1 cpuset controller at %s", base);
        return -1;
    }
    int live = 0;
    if (rtp_probe_cpuset_clean_stale(base, &live, &cs->stale_pid, why, why_size) != 0)
        return -1;
    if (live) {
        snprintf(why, why_size, "another rtpack probe (PID %d) holds cpusets under %s", live, base);
        return -1;
    }
    long dl = deadline_thread();
    if (dl) {
        snprintf(why, why_size, "thread %ld runs SCHED_DEADLINE: new root domains would be built "
                                "under it", dl);
        return -1;
    }
    if (read_file(base, "cpuset.sched_load_balance", lb, sizeof lb) != 0 ||
        read_file(base, "cpuset.cpus", root_cpus, sizeof root_cpus) != 0 ||
        read_file(base, "cpuset.mems", mems, sizeof mems) != 0) {
        snprintf(why, why_size, "cannot read the root cpuset at %s", base);
        return -1;
    }
    if (strcmp(lb, "1") != 0) {
        snprintf(why, why_size, "load balancing is already off in the root cpuset (%s): the "
                                "machine is partitioned by someone else", base);
        return -1;
    }
    cs->saved_lb = 1;
    rtp_cpumask rest;
    if (rtp_probe_parse_cpulist(root_cpus, &rest) != 0) {
        snprintf(why, why_size, "cannot parse %s/cpuset.cpus", base);
        return -1;
    }
    cs->join_tasks = calloc(n ? n : 1, sizeof *cs->join_tasks);
    if (!cs->join_tasks) {
        snprintf(why, why_size, "out of memory");
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        snprintf(name, sizeof name, "cpu%d", cpus[i]);
        snprintf(buf, sizeof buf, "%d", cpus[i]);
        if (add_child(cs, name, buf, mems, 1, why, why_size) != 0)
            goto done;
        if (!(cs->join_tasks[i] = dup_path(cs->dirs[cs->n_dirs - 1], "tasks"))) {
            snprintf(why, why_size, "out of memory");
            goto done;
        }
        cs->n_join++;
        rest.bits[cpus[i] / 64] &= ~((uint64_t)1 << (cpus[i] % 64));
    }
    if (rtp_cpumask_count(&rest) > 0) {
        rtp_cpumask_format(&rest, buf, sizeof buf);
        if (add_child(cs, "housekeeping", buf, mems, 0, why, why_size) != 0)
            goto done;
    }
    int err = write_file(base, "cpuset.sched_load_balance", "0");
    if (err) {
        snprintf(why, why_size, "cannot turn off %s/cpuset.sched_load_balance: %s", base,
                 strerror(err));
        goto done;
    }
    cs->lb_changed = 1;
    return 0;
done:
    rtp_probe_cpuset_close(cs, buf, sizeof buf);
    return -1;
}

int rtp_probe_cpuset_close(rtp_probe_cpuset *cs, char *why, size_t why_size)
{
    int rc = 0;
    for (size_t i = cs->n_dirs; i-- > 0;) {
        int err = remove_child(cs->base, cs->dirs[i]);
        if (err && !rc) {
            snprintf(why, why_size, "cannot remove the cpuset %s: %s", cs->dirs[i], strerror(err));
            rc = -1;
        }
    }
    if (cs->lb_changed) {
        int err = write_file(cs->base, "cpuset.sched_load_balance", cs->saved_lb ? "1" : "0");
        if (err && !rc) {
            snprintf(why, why_size, "cannot restore %s/cpuset.sched_load_balance to %d: %s",
                     cs->base, cs->saved_lb, strerror(err));
            rc = -1;
        }
        if (!err)
            cs->lb_changed = 0;
    }
    for (size_t i = 0; i < cs->n_dirs; i++)
        free(cs->dirs[i]);
    for (size_t i = 0; i < cs->n_join; i++)
        free(cs->join_tasks[i]);
    free(cs->dirs);
    free(cs->join_tasks);
    cs->dirs = cs->join_tasks = NULL;
    cs->n_dirs = cs->cap_dirs = cs->n_join = 0;
    return rc;
}
