/* rehearse/guard.c — see guard.h. */
#include "rehearse/guard.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define PATH_SIZE 4200

int rtp_rehearse_sh(const char *script, const char *verb, const char *state_dir,
                    const char *log_dir, const char *out)
{
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        setpgid(0, 0);
        int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
            close(fd);
        }
        setenv("RTPACK_STATE_DIR", state_dir, 1);
        setenv("RTPACK_LOG_DIR", log_dir, 1);
        execl("/bin/sh", "sh", script, verb, (char *)NULL);
        _exit(127);
    }
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* Field 22 of /proc/PID/stat (the start time), or -1 when there is no
 * such process or it is a zombie. */
static long long start_time(long pid)
{
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%ld/stat", pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    size_t got = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[got] = '\0';
    char *p = strrchr(buf, ')'), state;
    long long start;
    /* after ") ": state (field 3), then fields 4..21, then 22 */
    if (!p || sscanf(p + 1, " %c %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s "
                            "%*s %*s %*s %*s %lld", &state, &start) != 2 || state == 'Z')
        return -1;
    return start;
}

/* That process runs and is the one that started at `start` (-1: any). */
static int alive(long pid, long long start)
{
    long long now = pid > 0 ? start_time(pid) : -1;
    return now >= 0 && (start < 0 || now == start);
}

static void nap_ms(long ms)
{
    struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
}

/* 1 while some process runs `sh SCRIPT ...` (a start or stop under way). */
static int script_running(const char *script)
{
    DIR *d = opendir("/proc");
    if (!d)
        return 0;
    int found = 0;
    for (struct dirent *e; !found && (e = readdir(d));) {
        if (e->d_name[0] < '1' || e->d_name[0] > '9')
            continue;
        char path[300], buf[PATH_SIZE + 16];
        snprintf(path, sizeof path, "/proc/%s/cmdline", e->d_name);
        FILE *f = fopen(path, "r");
        if (!f)
            continue;
        size_t got = fread(buf, 1, sizeof buf - 1, f);
        fclose(f);
        buf[got] = '\0';
        size_t first = strlen(buf);
        found = first + 1 < got && strcmp(buf + first + 1, script) == 0 &&
                alive(strtol(e->d_name, NULL, 10), -1);
    }
    closedir(d);
    return found;
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    return remove(path);
}

/* Runs the rehearsal's stop (after any start or stop under way, up to
 * 60 s); removes the folder when it succeeded. The status of stop. */
static int stop_rehearsal(const char *dir, const char *state_dir, const char *out_name)
{
    char script[PATH_SIZE], logs[PATH_SIZE], out[PATH_SIZE];
    snprintf(script, sizeof script, "%s/rehearse.sh", dir);
    snprintf(logs, sizeof logs, "%s/logs", dir);
    snprintf(out, sizeof out, "%s/%s", dir, out_name);
    for (int i = 0; i < 1200 && script_running(script); i++)
        nap_ms(50);
    int rc = rtp_rehearse_sh(script, "stop", state_dir, logs, out);
    if (rc == 0)
        nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
    return rc;
}

/* Closes every descriptor from `from` up. */
static void close_from(int from)
{
#ifdef SYS_close_range
    if (syscall(SYS_close_range, (unsigned)from, ~0u, 0u) == 0)
        return;
#endif
    for (int fd = from; fd < 1024; fd++)
        close(fd);
}

/* The watchdog: out of rtpack's session and signals, holding no descriptor
 * of rtpack's but the pipe; waits for "done" or the pipe's end. */
static void watchdog(int fd, const char *dir, const char *state_dir)
{
    setsid();
    int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGUSR1, SIGUSR2};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        signal(sigs[i], SIG_IGN);
    int null = open("/dev/null", O_RDWR);
    if (fd != 3) {
        dup2(fd, 3);
        fd = 3;
    }
    if (null >= 0) {
        dup2(null, 0);
        dup2(null, 1);
        dup2(null, 2);
    }
    close_from(4);
    char buf[64];
    size_t used = 0;
    for (;;) {
        ssize_t got = read(fd, buf + used, sizeof buf - 1 - used);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            break;
        used += (size_t)got;
        buf[used] = '\0';
        if (strstr(buf, "done\n"))
            _exit(0);
        if (used == sizeof buf - 1)
            used = 0;
    }
    /* rtpack is gone without tearing the rehearsal down */
    _exit(stop_rehearsal(dir, state_dir, "watchdog-stop.out") == 0 ? 0 : 1);
}

rtp_status rtp_rehearse_guard_start(rtp_rehearse_guard *g, const char *dir,
                                    const char *state_dir, rtp_diag *diag)
{
    g->fd = -1;
    g->pid = -1;
    int p[2];
    if (pipe2(p, O_CLOEXEC) != 0)
        return rtp_diag_set(diag, RTP_EINTERNAL, "", "cannot start the watchdog: %s",
                            strerror(errno));
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        int err = errno;
        close(p[0]);
        close(p[1]);
        return rtp_diag_set(diag, RTP_EINTERNAL, "", "cannot start the watchdog: %s",
                            strerror(err));
    }
    if (pid == 0) {
        close(p[1]);
        watchdog(p[0], dir, state_dir);
    }
    close(p[0]);
    g->fd = p[1];
    g->pid = pid;
    char path[PATH_SIZE];
    snprintf(path, sizeof path, "%s/owner", dir);
    FILE *f = fopen(path, "w");
    int bad = !f;
    if (f) {
        fprintf(f, "rtpack %ld %lld\nwatchdog %ld %lld\n", (long)getpid(),
                start_time((long)getpid()), (long)pid, start_time((long)pid));
        bad = ferror(f) | (fclose(f) != 0);
    }
    if (bad) {
        rtp_rehearse_guard_disarm(g);
        return rtp_diag_set(diag, RTP_EINTERNAL, "", "cannot write %s", path);
    }
    return RTP_OK;
}

void rtp_rehearse_guard_disarm(rtp_rehearse_guard *g)
{
    if (g->fd >= 0) {
        ssize_t n = write(g->fd, "done\n", 5);
        (void)n; /* a watchdog that is gone needs no word */
        close(g->fd);
        g->fd = -1;
    }
    if (g->pid > 0) {
        while (waitpid(g->pid, NULL, 0) < 0 && errno == EINTR)
            ;
        g->pid = -1;
    }
}

/* "script PATH" of STATE into script; 0, or -1 without one. */
static int state_script(const char *state, char *script, size_t size)
{
    FILE *f = fopen(state, "r");
    if (!f)
        return -1;
    char line[PATH_SIZE + 16];
    int found = -1;
    while (found < 0 && fgets(line, sizeof line, f)) {
        if (strncmp(line, "script ", 7) != 0)
            continue;
        line[strcspn(line, "\n")] = '\0';
        if (strlen(line + 7) < size) {
            memcpy(script, line + 7, strlen(line + 7) + 1);
            found = 0;
        }
    }
    fclose(f);
    return found;
}

/* dir/owner's two processes; 0 when read. */
static int read_owner(const char *dir, long *pid, long long *start, long *wpid,
                      long long *wstart)
{
    char path[PATH_SIZE + 8];
    snprintf(path, sizeof path, "%s/owner", dir);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    int n = fscanf(f, "rtpack %ld %lld watchdog %ld %lld", pid, start, wpid, wstart);
    fclose(f);
    return n == 4 ? 0 : -1;
}

static void note_add(char *note, size_t size, const char *text)
{
    size_t used = strlen(note);
    if (used + 1 < size)
        snprintf(note + used, size - used, "%s%s", used ? "; " : "", text);
}

rtp_status rtp_rehearse_leftovers(const char *state_dir, char *note, size_t size,
                                  rtp_diag *diag)
{
    note[0] = '\0';
    DIR *d = opendir(state_dir);
    if (!d)
        return RTP_OK;
    rtp_status st = RTP_OK;
    for (struct dirent *e; st == RTP_OK && (e = readdir(d));) {
        const char *name = e->d_name;
        if (strncmp(name, "rehearse_", 9) != 0)
            continue;
        char state[PATH_SIZE], script[PATH_SIZE], dir[PATH_SIZE];
        snprintf(state, sizeof state, "%s/%s/state", state_dir, name);
        if (state_script(state, script, sizeof script) != 0)
            continue; /* no deployment recorded (yet) */
        snprintf(dir, sizeof dir, "%s", script);
        char *slash = strrchr(dir, '/');
        if (slash)
            *slash = '\0';
        long pid = strtol(name + 9, NULL, 10), wpid = -1;
        long long start = -1, wstart = -1;
        read_owner(dir, &pid, &start, &wpid, &wstart);
        if (alive(pid, start))
            continue; /* a rehearsal in progress: the script's clash check names it */
        /* its watchdog may be tearing it down right now */
        for (int i = 0; i < 600 && alive(wpid, wstart); i++)
            nap_ms(50);
        char text[300];
        if (access(state, F_OK) != 0) {
            snprintf(text, sizeof text, "the watchdog of rehearsal %.64s (its rtpack, pid %ld, "
                     "was killed) stopped it", name, pid);
            note_add(note, size, text);
            continue;
        }
        if (access(script, F_OK) != 0) {
            st = rtp_diag_set(diag, RTP_EINTERNAL, "",
                              "the leftover of rehearsal %s (rtpack pid %ld is gone; state %s) "
                              "cannot be stopped: its script %s is gone; emit any plan with "
                              "--name %s and run RTPACK_STATE_DIR=%s sh THAT_SCRIPT stop "
                              "(stop follows the state file)",
                              name, pid, state, script, name, state_dir);
            break;
        }
        int rc = stop_rehearsal(dir, state_dir, "leftover-stop.out");
        if (rc != 0)
            st = rtp_diag_set(diag, RTP_EINTERNAL, "",
                              "the leftover of rehearsal %s (rtpack pid %ld is gone) did not "
                              "stop (exit %d; see %s/leftover-stop.out): run RTPACK_STATE_DIR=%s "
                              "sh %s stop",
                              name, pid, rc, dir, state_dir, script);
        else {
            snprintf(text, sizeof text, "stopped the leftover of rehearsal %.64s (its rtpack, "
                     "pid %ld, and its watchdog were killed)", name, pid);
            note_add(note, size, text);
        }
    }
    closedir(d);
    return st;
}
