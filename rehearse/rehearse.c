/* rehearse/rehearse.c — see rehearse.h. */
#include "rehearse/rehearse.h"
#include "rehearse/shared_lock.h"
#include "deploy/script.h"
#include "deploy/state.h"
#include "rehearse/dlclock.h"
#include "rehearse/guard.h"
#include "rehearse/machine.h"
#include "probe/facts.h"
#include "models/effective.h"
#include "solver/tardiness.h"

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define WORDS 16
#define LOCK_WORDS 32 /* "--locks DIR" and 15 "--lock SPEC" */

/* The workload's command words of every task, and where its result goes. */
typedef struct workload_ctx {
    const rtp_plan *plan;
    char (*text)[WORDS + LOCK_WORDS][48]; /* per task: the numbers */
    const char *(*words)[WORDS + LOCK_WORDS + 1];
    const rtp_deploy_lock *locks; /* per resource (plans with resources) */
    char locks_dir[4200];
    char (*result)[4200];
    size_t *first;           /* first[j] = index of bin j's task 0 */
    int has_offset;          /* SCHED_DEADLINE: the kernel's clock offset is known */
    rtp_dlclock clock;
} workload_ctx;

static const char *const *workload_for(void *ctx, size_t j, size_t i)
{
    workload_ctx *w = ctx;
    return w->words[w->first[j] + i];
}

/* floor(load x wcet) */
static rtp_ns burn_ns(rtp_ns wcet, rtp_ratio load)
{
    return (rtp_ns)((__int128)wcet * load.num / load.den);
}

static rtp_status build_words(workload_ctx *w, size_t n, const rtp_rehearse_opts *o,
                              const char *dir)
{
    const rtp_plan *plan = w->plan;
    size_t k = 0;
    for (size_t j = 0; j < plan->n_bins; j++) {
        w->first[j] = k;
        for (size_t i = 0; i < plan->bins[j].n_tasks; i++, k++) {
            const rtp_task *t = &plan->bins[j].tasks[i].task;
            snprintf(w->result[k], sizeof w->result[k], "%s/results/%zu.txt", dir, k);
            snprintf(w->text[k][0], 48, "%lld", (long long)t->period_ns);
            snprintf(w->text[k][1], 48, "%lld", (long long)t->deadline_ns);
            snprintf(w->text[k][2], 48, "%lld", (long long)burn_ns(t->wcet_ns, o->load));
            snprintf(w->text[k][3], 48, "%d", o->seconds + 60);
            const char **v = w->words[k];
            v[0] = o->workload;
            v[1] = "--period", v[2] = w->text[k][0];
            v[3] = "--deadline", v[4] = w->text[k][1];
            v[5] = "--spin", v[6] = w->text[k][2];
            v[7] = "--max-seconds", v[8] = w->text[k][3];
            v[9] = "--out", v[10] = w->result[k];
            v[11] = "--window", v[12] = "1";
            size_t at = 13;
            if (w->has_offset) {
                snprintf(w->text[k][4], 48, "%lld", (long long)w->clock.offset_ns);
                v[13] = "--clock-offset", v[14] = w->text[k][4];
                at = 15;
            }
            if (t->n_requests > (LOCK_WORDS - 2) / 2)
                return RTP_EINPUT;
            if (t->n_requests > 0)
                v[at++] = "--locks", v[at++] = w->locks_dir;
            for (size_t q = 0; q < t->n_requests; q++) {
                /* each section burns its share of the load, as the job */
                const rtp_request *rq = &t->requests[q];
                const rtp_deploy_lock *l = &w->locks[rq->resource];
                char *spec = w->text[k][WORDS + q];
                snprintf(spec, 48, "%zu:%d:%d:%lld:%lld", rq->resource, (int)l->kind,
                         l->ceiling, (long long)rq->count,
                         (long long)burn_ns(rq->length_ns, o->load));
                v[at++] = "--lock", v[at++] = spec;
            }
            v[at] = NULL;
        }
    }
    (void)n;
    return RTP_OK;
}

static int write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fputs(text, f);
    int bad = ferror(f);
    return fclose(f) != 0 || bad ? -1 : 0;
}

/* sh SCRIPT VERB with the logs in dir and the state in the shared state
 * folder; output to dir/VERB.out; the exit status, or -1 when it could not
 * run (rehearse/guard.h). */
static int run_script(const char *dir, const char *state_dir, const char *verb)
{
    char script[4200], out[4200], logs[4200];
    snprintf(script, sizeof script, "%s/rehearse.sh", dir);
    snprintf(out, sizeof out, "%s/%s.out", dir, verb);
    snprintf(logs, sizeof logs, "%s/logs", dir);
    return rtp_rehearse_sh(script, verb, state_dir, logs, out);
}

/* The last `size` - 1 bytes of dir/NAME, newlines as "; ". */
static void tail_of(const char *dir, const char *name, char *buf, size_t size)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    buf[0] = '\0';
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    fseek(f, 0, SEEK_END);
    long len = ftell(f), from = len > (long)size - 1 ? len - ((long)size - 1) : 0;
    fseek(f, from, SEEK_SET);
    size_t got = fread(buf, 1, size - 1, f);
    buf[got] = '\0';
    fclose(f);
    for (char *p = buf; *p; p++)
        if (*p == '\n')
            *p = p[1] ? ';' : '\0';
}

static rtp_ns monotonic_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (rtp_ns)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Waits `seconds` of the monotonic clock, or until *interrupt; the whole
 * seconds waited. By the clock, not by counting sleeps: this process is
 * SCHED_OTHER beside the plan's real-time tasks, and on a busy machine each
 * wake-up can come tens of ms late (counted sleeps ran 30 s as 50). */
static int wait_run(int seconds, const volatile sig_atomic_t *interrupt)
{
    rtp_ns start = monotonic_ns(), end = start + (rtp_ns)seconds * 1000000000;
    for (rtp_ns now = start; now < end; now = monotonic_ns()) {
        if (interrupt && *interrupt)
            return (int)((now - start) / 1000000000);
        rtp_ns left = end - now < 100000000 ? end - now : 100000000;
        struct timespec step = {0, (long)left};
        nanosleep(&step, NULL);
    }
    return seconds;
}

/* The steal ticks (/proc/stat) of every CPU of the plan, into r->steal
 * (allocated at the first call, the CPUs ascending; time_ns holds ticks until
 * steal_end). Best effort: a host that reports no steal column, or a read
 * that fails, leaves n_steal 0 and the report without the member. The
 * hypervisor's steal is the one stall no probe can bound ahead: it tells a
 * rehearsal that missed because the host took the CPU from one that missed
 * on the plan's own account (rtp_rehearse_verdict's advice). */
static void steal_begin(const rtp_plan *plan, rtp_rehearse_report *r)
{
    rtp_cpumask used = {{0}};
    for (size_t j = 0; j < plan->n_bins; j++)
        for (size_t c = 0; c < plan->bins[j].n_cpus; c++)
            rtp_cpumask_set(&used, plan->bins[j].cpus[c]);
    size_t n = rtp_cpumask_count(&used);
    char *text = rtp_probe_read_text("", "/proc/stat");
    if (!text || !(r->steal = calloc(n ? n : 1, sizeof *r->steal))) {
        free(text);
        return;
    }
    for (int cpu = rtp_cpumask_next(&used, -1); cpu >= 0; cpu = rtp_cpumask_next(&used, cpu)) {
        uint64_t total, steal;
        if (rtp_probe_parse_stat(text, cpu, &total, &steal) != 0) {
            r->n_steal = 0;
            break;
        }
        r->steal[r->n_steal].cpu = cpu;
        r->steal[r->n_steal++].time_ns = (rtp_ns)steal;
    }
    free(text);
}

static void steal_end(rtp_rehearse_report *r)
{
    char *text = r->n_steal ? rtp_probe_read_text("", "/proc/stat") : NULL;
    long hz = sysconf(_SC_CLK_TCK);
    for (size_t i = 0; i < r->n_steal; i++) {
        uint64_t total, steal;
        if (!text || hz <= 0 || rtp_probe_parse_stat(text, r->steal[i].cpu, &total, &steal) != 0 ||
            steal < (uint64_t)r->steal[i].time_ns) {
            r->n_steal = 0;
            break;
        }
        r->steal[i].time_ns = (rtp_ns)((steal - (uint64_t)r->steal[i].time_ns) * 1000000000 /
                                       (uint64_t)hz);
    }
    free(text);
}

static int read_result(const char *path, rtp_rehearse_task *t)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char key[32];
    long long v;
    int seen = 0;
    while (fscanf(f, "%31s %lld", key, &v) == 2) {
        if (strcmp(key, "jobs") == 0)
            t->jobs = (unsigned long long)v, seen |= 1;
        else if (strcmp(key, "misses") == 0)
            t->misses = (unsigned long long)v, seen |= 2;
        else if (strcmp(key, "response_max") == 0)
            t->response_max_ns = v, seen |= 4;
        else if (strcmp(key, "response_p99") == 0)
            t->response_p99_ns = v, seen |= 8;
        else if (strcmp(key, "overruns") == 0)
            t->overruns = v;
    }
    char grid[16];
    rewind(f);
    while (fscanf(f, "%31s", key) == 1)
        if (strcmp(key, "grid") == 0 && fscanf(f, "%15s", grid) == 1)
            t->kernel_grid = strcmp(grid, "kernel") == 0;
    fclose(f);
    return seen == 15 ? 0 : -1;
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    return remove(path);
}

/* A soft bin's bounds (rtp_rehearse_bounds): deadline + tardiness bound
 * (bins the soft test accepted: test "soft"). */
static rtp_status soft_bounds(const rtp_plan *plan, const rtp_plan_bin *bin,
                              const rtp_limits *limits, rtp_ns *out, rtp_diag *diag)
{
    size_t n = bin->n_tasks;
    rtp_task *eff = calloc(n ? n : 1, sizeof *eff);
    rtp_tardiness *tard = calloc(n ? n : 1, sizeof *tard);
    rtp_status st = RTP_ENOMEM;
    int bounded = 0;
    if (!eff || !tard) {
        rtp_diag_set(diag, st, "", "out of memory");
        goto done;
    }
    for (size_t i = 0; i < n; i++)
        eff[i] = bin->tasks[i].task;
    if ((st = rtp_effective_tasks(eff, n, &plan->overheads, RTP_POLICY_GEDF, eff, diag)) ||
        (st = rtp_tardiness_bounds(eff, n, (int)bin->n_cpus, limits, tard, &bounded, diag)))
        goto done;
    for (size_t i = 0; i < n && bounded; i++)
        if (__builtin_add_overflow(out[i], tard[i].bound_ns, &out[i]))
            st = rtp_diag_set(diag, RTP_ELIMIT, "", "%s: its deadline plus its tardiness "
                              "bound passes 2^63 ns", bin->tasks[i].task.name);
done:
    free(eff);
    free(tard);
    return st;
}

int rtp_rehearse_soft_bin(const rtp_plan *plan, const rtp_plan_bin *bin)
{
    return plan->soft && plan->policy != RTP_POLICY_FP && plan->policy != RTP_POLICY_GFP &&
           !strcmp(bin->test, "soft");
}

rtp_status rtp_rehearse_bounds(const rtp_plan *plan, const rtp_limits *limits, rtp_ns *out,
                               rtp_diag *diag)
{
    int fp = plan->policy == RTP_POLICY_FP || plan->policy == RTP_POLICY_GFP;
    rtp_deploy_opts dopts = rtp_deploy_opts_default();
    dopts.limits = *limits;
    for (size_t j = 0, k = 0; j < plan->n_bins; k += plan->bins[j].n_tasks, j++) {
        const rtp_plan_bin *bin = &plan->bins[j];
        for (size_t i = 0; i < bin->n_tasks; i++)
            out[k + i] = fp ? bin->tasks[i].response_time_ns : bin->tasks[i].task.deadline_ns;
        /* one CPU under FP: the bounds the re-check proves, not the plan's
         * members, which a hand edit may have changed (emit writes the
         * same: rtp_deploy_bin_responses) */
        int have = 0;
        rtp_status st = fp ? rtp_deploy_bin_responses(plan, j, &dopts, &out[k], &have, diag)
                           : RTP_OK;
        for (size_t i = 0; st == RTP_OK && fp && !have && i < bin->n_tasks; i++)
            out[k + i] = bin->tasks[i].response_time_ns; /* rt unspecified when !have */
        if (st == RTP_OK && rtp_rehearse_soft_bin(plan, bin))
            st = soft_bounds(plan, bin, limits, &out[k], diag);
        if (st != RTP_OK)
            return st;
    }
    return RTP_OK;
}

static rtp_status fill_tasks(const rtp_plan *plan, const rtp_limits *limits,
                             rtp_rehearse_report *r, rtp_diag *diag)
{
    rtp_ns *bounds = calloc(r->n_tasks ? r->n_tasks : 1, sizeof *bounds);
    if (!bounds)
        return rtp_diag_set(diag, RTP_ENOMEM, "", "out of memory");
    rtp_status st = rtp_rehearse_bounds(plan, limits, bounds, diag);
    for (size_t j = 0, k = 0; j < plan->n_bins; j++)
        for (size_t i = 0; i < plan->bins[j].n_tasks; i++, k++) {
            rtp_rehearse_task *t = &r->tasks[k];
            snprintf(t->name, sizeof t->name, "%s", plan->bins[j].tasks[i].task.name);
            t->cpu = plan->bins[j].n_cpus ? plan->bins[j].cpus[0] : -1;
            t->response_max_ns = t->response_p99_ns = -1;
            t->bound_ns = bounds[k];
        }
    free(bounds);
    return st;
}

/* The PIDs start recorded (deploy/state.h), at most max. */
static size_t task_pids(const char *state_dir, const char *name, long *pids, size_t max)
{
    rtp_deploy_state st;
    rtp_diag diag;
    size_t n = 0;
    if (rtp_deploy_state_read(state_dir, name, &st, &diag) != RTP_OK)
        return 0;
    for (size_t i = 0; i < st.n_tasks && n < max; i++)
        if (st.tasks[i].pid > 0)
            pids[n++] = st.tasks[i].pid;
    rtp_deploy_state_free(&st);
    return n;
}

/* How many of the processes still exist, zombies included: rehearse is
 * their subreaper (rtp_rehearse_run), so an ended workload is reaped here
 * and leaves no process behind, not even one that a later look at the
 * real-time threads would count until init reaps it. */
static size_t alive(const long *pids, size_t n)
{
    while (waitpid(-1, NULL, WNOHANG) > 0) {
    }
    size_t count = 0;
    for (size_t i = 0; i < n; i++) {
        char path[64];
        snprintf(path, sizeof path, "/proc/%ld", pids[i]);
        count += access(path, F_OK) == 0;
    }
    return count;
}

/* Waits until the processes are gone: stop returns once it has signalled
 * them, and a workload may still be exiting. After 9 s, SIGKILL; 0 when
 * all are gone after 10 s, else how many are left. */
static size_t wait_gone(const long *pids, size_t n)
{
    struct timespec step = {0, 10000000};
    for (int tries = 0; tries < 1000 && alive(pids, n); tries++) {
        if (tries == 999 - 100)
            for (size_t i = 0; i < n; i++)
                kill((pid_t)pids[i], SIGKILL);
        nanosleep(&step, NULL);
    }
    return alive(pids, n);
}

/* A SCHED_OTHER busy loop pinned to each online CPU (docs/spec.md
 * "rtpack rehearse" --hog): children that die with this process. */
static size_t start_hogs(pid_t *hogs, size_t max)
{
    cpu_set_t mine;
    size_t n = 0;
    pid_t parent = getpid();
    if (sched_getaffinity(0, sizeof mine, &mine) != 0)
        return 0;
    for (int cpu = 0; cpu < CPU_SETSIZE && n < max; cpu++) {
        if (!CPU_ISSET(cpu, &mine))
            continue;
        pid_t pid = fork();
        if (pid < 0)
            break;
        if (pid == 0) {
            prctl(PR_SET_PDEATHSIG, SIGKILL);
            if (getppid() != parent)
                _exit(0);
            cpu_set_t one;
            CPU_ZERO(&one);
            CPU_SET(cpu, &one);
            sched_setaffinity(0, sizeof one, &one);
            for (volatile unsigned long spin = 0;; spin++) {
            }
        }
        hogs[n++] = pid;
    }
    return n;
}

static void stop_hogs(const pid_t *hogs, size_t n)
{
    for (size_t i = 0; i < n; i++)
        kill(hogs[i], SIGKILL);
    for (size_t i = 0; i < n; i++)
        while (waitpid(hogs[i], NULL, 0) < 0 && errno == EINTR) {
        }
}

/* Waits (up to 10 s) until every workload has its signal handlers in place
 * (its OUT.ready exists); 0 when all have. */
static int wait_ready(const char *dir, size_t n)
{
    rtp_ns end = monotonic_ns() + 10 * (rtp_ns)1000000000;
    struct timespec step = {0, 20000000};
    for (size_t k = 0; k < n;) {
        char path[4200];
        snprintf(path, sizeof path, "%s/results/%zu.txt.ready", dir, k);
        if (access(path, F_OK) == 0) {
            k++;
            continue;
        }
        if (monotonic_ns() > end)
            return -1;
        nanosleep(&step, NULL);
    }
    return 0;
}

static void signal_all(const long *pids, size_t n, int sig)
{
    for (size_t i = 0; i < n; i++)
        kill((pid_t)pids[i], sig);
}

/* start, open the counting window of every workload (SIGUSR1), wait, close
 * it (SIGUSR2), stop, results; returns the status and leaves the folder.
 * The window keeps the start and stop phases out of the counts: while
 * start launches the tasks one by one and stop takes them down and
 * restores load balancing, the plan is not what runs. */
static rtp_status deploy_and_run(const rtp_plan *plan, const rtp_rehearse_opts *o,
                                 const char *name, const char *dir, rtp_rehearse_report *r,
                                 rtp_diag *diag)
{
    const char *state_dir = o->state_dir ? o->state_dir : RTP_DEPLOY_STATE_DIR;
    int started = run_script(dir, state_dir, "start");
    if (started != 0) {
        tail_of(dir, "start.out", r->script_output, sizeof r->script_output);
        run_script(dir, state_dir, "stop"); /* undoes whatever start recorded */
        return rtp_diag_set(diag, RTP_EINTERNAL, "", "could not deploy the plan: start "
                            "exited %d: %s", started, r->script_output);
    }
    long pids[256];
    size_t n_pids = task_pids(state_dir, name, pids, sizeof pids / sizeof pids[0]);
    int ready = wait_ready(dir, r->n_tasks) == 0 && n_pids == r->n_tasks;
    if (ready) {
        steal_begin(plan, r);
        signal_all(pids, n_pids, SIGUSR1);
        r->seconds = wait_run(o->seconds, o->interrupt);
        signal_all(pids, n_pids, SIGUSR2);
        steal_end(r);
    }
    int stopped = run_script(dir, state_dir, "stop");
    size_t left = wait_gone(pids, n_pids);
    if (left) {
        snprintf(r->left, sizeof r->left, "%zu workload process(es) still ran 10 s after stop "
                 "and a SIGKILL", left);
        r->machine_restored = 0;
    }
    if (stopped != 0) {
        char out[300];
        tail_of(dir, "stop.out", out, sizeof out);
        return rtp_diag_set(diag, RTP_EINTERNAL, "", "the launch script's stop exited %d: %s",
                            stopped, out);
    }
    if (!ready)
        return rtp_diag_set(diag, RTP_EINTERNAL, "",
                            "the workloads did not all start (%zu of %zu PIDs recorded, or one "
                            "not ready within 10 s; see their logs)",
                            n_pids, r->n_tasks);
    for (size_t k = 0; k < r->n_tasks; k++) {
        char path[4200];
        snprintf(path, sizeof path, "%s/results/%zu.txt", dir, k);
        if (read_result(path, &r->tasks[k]) != 0)
            return rtp_diag_set(diag, RTP_EINTERNAL, "",
                                "task %s left no result (it did not run or was killed; see "
                                "its log)", r->tasks[k].name);
    }
    return RTP_OK;
}

rtp_status rtp_rehearse_run(const rtp_plan *plan, const rtp_rehearse_opts *opts,
                            rtp_rehearse_report *r, rtp_diag *diag)
{
    memset(r, 0, sizeof *r);
    r->load = opts->load;
    r->runtime_margin = opts->deploy.runtime_margin;
    r->machine_restored = 1;
    if (opts->seconds < 1 || opts->load.num <= 0 || opts->load.num > opts->load.den)
        return rtp_diag_set(diag, RTP_EINPUT, "", "rehearse wants --seconds >= 1 and --load in (0, 1]");
    rtp_deploy_opts dopts = opts->deploy;
    char name[40];
    snprintf(name, sizeof name, "rehearse_%ld", (long)getpid());
    dopts.name = name;
    int deployable = 0;
    rtp_status st = rtp_deploy_check(plan, &dopts, &deployable, diag);
    if (st != RTP_OK)
        return st;
    if (!deployable) {
        rtp_diag why = *diag;
        return rtp_diag_set(diag, RTP_EINPUT, why.path, "not deployable: %s", why.message);
    }
    size_t n = 0;
    for (size_t j = 0; j < plan->n_bins; j++)
        n += plan->bins[j].n_tasks;
    r->n_tasks = n;
    r->tasks = calloc(n ? n : 1, sizeof *r->tasks);
    workload_ctx w = {.plan = plan};
    w.text = calloc(n ? n : 1, sizeof *w.text);
    w.words = calloc(n ? n : 1, sizeof *w.words);
    w.result = calloc(n ? n : 1, sizeof *w.result);
    w.first = calloc(plan->n_bins ? plan->n_bins : 1, sizeof *w.first);
    char *before = NULL, *after = NULL, *script = NULL;
    rtp_deploy_lock *locks = NULL;
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/rtpack-rehearse-XXXXXX", opts->scratch_parent);
    if (!r->tasks || !w.text || !w.words || !w.result || !w.first) {
        st = rtp_diag_set(diag, RTP_ENOMEM, "", "out of memory");
        goto done;
    }
    if ((st = fill_tasks(plan, &dopts.limits, r, diag)) != RTP_OK)
        goto done;
    r->deadline_policy = rtp_deploy_is_deadline(plan);
    const char *state_dir = opts->state_dir ? opts->state_dir : RTP_DEPLOY_STATE_DIR;
    if ((st = rtp_rehearse_leftovers(state_dir, r->leftovers, sizeof r->leftovers, diag)) !=
        RTP_OK)
        goto done;
    if (!mkdtemp(dir)) {
        st = rtp_diag_set(diag, RTP_EINTERNAL, "", "cannot create a folder in %s: %s",
                          opts->scratch_parent, strerror(errno));
        goto done;
    }
    char path[4200];
    snprintf(path, sizeof path, "%s/results", dir);
    int deadline = rtp_deploy_is_deadline(plan);
    r->hog = opts->hog;
    r->reclaim = rtp_deploy_reclaims(plan, &opts->deploy);
    r->overrun_signal = opts->deploy.overrun_signal;
    r->arrival_grid = deadline ? "first_job" : "release";
    if (deadline) { /* before the plan takes the bandwidth */
        char why[160];
        if (rtp_dlclock_measure(&w.clock, why, sizeof why) == 0)
            w.has_offset = 1;
        else
            snprintf(r->grid_note, sizeof r->grid_note, "the kernel's clock could not be "
                     "placed on CLOCK_MONOTONIC (%s): arrivals from each task's first job", why);
    }
    /* the locks, as emit --format header tells an application to make them */
    locks = calloc(plan->n_resources + 1, sizeof *locks);
    int lock_ok = 1;
    if (!locks)
        st = rtp_oom(diag);
    else if ((st = rtp_deploy_locks(plan, &dopts, locks, &lock_ok, diag)) == RTP_OK && !lock_ok)
        st = RTP_EINTERNAL; /* rtp_deploy_check refused it already */
    snprintf(w.locks_dir, sizeof w.locks_dir, "%s/locks", dir);
    w.locks = locks;
    if (st == RTP_OK && plan->n_resources > 0 && mkdir(w.locks_dir, 0700) != 0)
        st = rtp_diag_set(diag, RTP_EINTERNAL, "", "cannot create %s", w.locks_dir);
    for (size_t q = 0; st == RTP_OK && q < plan->n_resources; q++) {
        snprintf(path, sizeof path, "%s/locks/%zu", dir, q); /* dir < 4096 bytes: fits */
        if (locks[q].kind != RTP_LOCK_UNUSED)
            st = rtp_shared_lock_create(path, locks[q].kind, locks[q].ceiling, diag);
    }
    if (st == RTP_OK && build_words(&w, n, opts, dir) != RTP_OK)
        st = rtp_diag_set(diag, RTP_EINPUT, "", "rehearse takes at most %d critical-section "
                          "declarations per task", (LOCK_WORDS - 2) / 2);
    dopts.cmd_for = workload_for;
    dopts.cmd_ctx = &w;
    rtp_text warnings;
    rtp_text_init(&warnings);
    if (st == RTP_OK)
        st = rtp_deploy_script(plan, &dopts, &script, &warnings, diag);
    rtp_text_free(&warnings);
    snprintf(path, sizeof path, "%s/results", dir);
    if (st == RTP_OK && mkdir(path, 0700) != 0)
        st = rtp_diag_set(diag, RTP_EINTERNAL, "", "cannot create %s", path);
    snprintf(path, sizeof path, "%s/rehearse.sh", dir);
    if (st == RTP_OK && write_file(path, script) != 0)
        st = rtp_diag_set(diag, RTP_EINTERNAL, "", "cannot write %s", path);
    if (st == RTP_OK)
        st = rtp_machine_snapshot("/sys/fs/cgroup", "/proc", &before, diag);
    /* Workloads orphaned when the launch script's shell exits come to this
     * process, which reaps them: it reports only once they are gone. */
    prctl(PR_SET_CHILD_SUBREAPER, 1);
    rtp_rehearse_guard guard = {-1, -1};
    if (st == RTP_OK)
        st = rtp_rehearse_guard_start(&guard, dir, state_dir, diag);
    if (st == RTP_OK) {
        pid_t hogs[CPU_SETSIZE];
        size_t n_hogs = opts->hog ? start_hogs(hogs, CPU_SETSIZE) : 0;
        st = deploy_and_run(plan, opts, name, dir, r, diag);
        stop_hogs(hogs, n_hogs);
    }
    rtp_rehearse_guard_disarm(&guard); /* torn down (or never deployed) */
    int kernel = deadline && n > 0;
    for (size_t k = 0; k < n; k++)
        kernel &= r->tasks[k].kernel_grid;
    if (kernel)
        r->arrival_grid = "kernel";
    else if (deadline && w.has_offset && st == RTP_OK)
        snprintf(r->grid_note, sizeof r->grid_note, "a workload could not read its kernel "
                 "deadline: its arrivals come from its first job");
    if (before) {
        rtp_diag scratch;
        if (r->left[0] == '\0' && /* else: workloads outlived stop */
            rtp_machine_snapshot("/sys/fs/cgroup", "/proc", &after, &scratch) == RTP_OK)
            rtp_machine_diff(before, after, r->left, sizeof r->left);
        else if (r->left[0] == '\0')
            snprintf(r->left, sizeof r->left, "the machine could not be read afterwards");
        r->machine_restored = r->left[0] == '\0';
        if (!r->machine_restored && st == RTP_OK)
            st = rtp_diag_set(diag, RTP_EINTERNAL, "", "the machine is not as it was: %s",
                              r->left);
    }
    if (!getenv("RTPACK_REHEARSE_KEEP"))
        nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
done:
    free(locks);
    free(before);
    free(after);
    free(script);
    free(w.text);
    free(w.words);
    free(w.result);
    free(w.first);
    return st;
}
