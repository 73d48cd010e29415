/* deploy/script.c — see script.h. The fixed shell code is the template
 * deploy/launch.sh (script_body.h); this file writes the header, the
 * variables and the task table in front of it. */
#include "deploy/script.h"
#include "models/effective.h"
#include "deploy/quote.h"
#include "deploy/script_body.h"
#include "deploy/state.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void rtp_deploy_cpu_list(const rtp_plan_bin *bin, rtp_text *out)
{
    for (size_t k = 0; k < bin->n_cpus; k++)
        rtp_text_printf(out, "%s%d", k ? "," : "", bin->cpus[k]);
}

/* Is CPU c in task t's affinity (every CPU when it has none)? */
static int in_affinity(const rtp_task *t, int c)
{
    int in = t->affinity == NULL;
    for (size_t a = 0; !in && a < t->affinity_len; a++)
        in = t->affinity[a] == c;
    return in;
}

size_t rtp_deploy_task_cpus(const rtp_plan_bin *bin, size_t i, int *out)
{
    size_t m = 0;
    for (size_t k = 0; k < bin->n_cpus; k++)
        if (in_affinity(&bin->tasks[i].task, bin->cpus[k]))
            out[m++] = bin->cpus[k];
    return m;
}

void rtp_deploy_task_cpu_list(const rtp_plan_bin *bin, size_t i, rtp_text *out)
{
    size_t m = 0;
    for (size_t k = 0; k < bin->n_cpus; k++)
        if (in_affinity(&bin->tasks[i].task, bin->cpus[k]))
            rtp_text_printf(out, "%s%d", m++ ? "," : "", bin->cpus[k]);
}

void rtp_deploy_cmds_present(const rtp_plan *plan, const rtp_deploy_opts *opts, int *present,
                             rtp_diag *diag)
{
    *present = 1;
    for (size_t j = 0; !opts->cmd_for && j < plan->n_bins; j++)
        for (size_t i = 0; i < plan->bins[j].n_tasks; i++) {
            const rtp_task *t = &plan->bins[j].tasks[i].task;
            if (t->cmd && t->cmd_len > 0)
                continue;
            char bin[48], path[RTP_DIAG_PATH_SIZE];
            rtp_deploy_bin_path(plan, j, bin, sizeof bin);
            snprintf(path, sizeof path, "%s.tasks[%zu].cmd", bin, i);
            rtp_diag_set(diag, RTP_OK, path,
                         RTP_QUOTE_NO_CMD " (give it a cmd in the task set; rtpack rehearse "
                         "runs the plan without one)", t->name);
            *present = 0;
            return;
        }
}

rtp_status rtp_deploy_cmd_words(const rtp_plan *plan, size_t j, size_t i,
                                const rtp_deploy_opts *opts, rtp_quote_fn quote, rtp_text *out,
                                rtp_diag *diag)
{
    char path[160], bin_path[48];
    rtp_deploy_bin_path(plan, j, bin_path, sizeof bin_path);
    snprintf(path, sizeof path, "%s.tasks[%zu].cmd", bin_path, i);
    rtp_task task = plan->bins[j].tasks[i].task; /* shallow: borrowed fields */
    if (opts->cmd_for) {
        const char *const *words = opts->cmd_for(opts->cmd_ctx, j, i);
        size_t n = 0;
        while (words && words[n])
            n++;
        task.cmd = (char **)words;
        task.cmd_len = n;
        task.cmd_is_string = 0;
    }
    char **argv = NULL, *storage = NULL;
    size_t argc = 0;
    rtp_status st = rtp_quote_cmd_argv(&task, path, &argv, &argc, &storage, diag);
    for (size_t k = 0; st == RTP_OK && k < argc; k++) {
        if (k)
            rtp_text_append(out, " ");
        quote(out, argv[k]);
    }
    free(argv);
    free(storage);
    return st;
}

int rtp_deploy_uses_launcher(const rtp_plan *plan, const rtp_deploy_opts *opts)
{
    return rtp_deploy_is_deadline(plan) && (rtp_deploy_reclaims(plan, opts) || opts->overrun_signal);
}

static const char *launcher_of(const rtp_deploy_opts *opts)
{
    return opts->launcher ? opts->launcher : RTP_DEPLOY_LAUNCHER;
}

rtp_status rtp_deploy_flags_check(const rtp_plan *plan, const rtp_deploy_opts *opts, int rtapp,
                                  rtp_diag *diag)
{
    const char *flag = opts->reclaim == 1     ? "--reclaim"
                       : opts->overrun_signal ? "--overrun-signal"
                                              : NULL;
    if (flag && rtapp)
        return rtp_diag_set(diag, RTP_EINPUT, "",
                            "%s applies only with --format script or systemd: rt-app sets no "
                            "SCHED_DEADLINE flag (neither Debian's rt-app 1.0 nor upstream's "
                            "has a key for one)",
                            flag);
    if (flag && !rtp_deploy_is_deadline(plan))
        return rtp_diag_set(diag, RTP_EINPUT, "",
                            "%s applies only to SCHED_DEADLINE plans (policy edf or gedf); this "
                            "plan's policy is %s, deployed with SCHED_FIFO",
                            flag, rtp_policy_name(plan->policy));
    return RTP_OK;
}

rtp_status rtp_deploy_launch_words(const rtp_plan *plan, size_t j, size_t i,
                                   const rtp_deploy_opts *opts, rtp_quote_fn quote,
                                   rtp_text *out, rtp_diag *diag)
{
    const rtp_plan_bin *bin = &plan->bins[j];
    const rtp_plan_task *pt = &bin->tasks[i];
    if (rtp_deploy_is_deadline(plan)) {
        rtp_ns runtime;
        rtp_status st = rtp_deploy_runtime(plan, &pt->task, opts, &runtime, diag);
        if (st != RTP_OK)
            return st;
        if (rtp_deploy_uses_launcher(plan, opts)) {
            quote(out, launcher_of(opts));
            rtp_text_printf(out, " --reset-on-fork%s%s --runtime %lld --deadline %lld "
                                 "--period %lld -- ",
                            rtp_deploy_reclaims(plan, opts) ? " --reclaim" : "",
                            opts->overrun_signal ? " --overrun-signal" : "", (long long)runtime,
                            (long long)pt->task.deadline_ns, (long long)pt->task.period_ns);
        } else {
            rtp_text_printf(out, "chrt -R -d --sched-runtime %lld --sched-deadline %lld "
                                 "--sched-period %lld 0 ",
                            (long long)runtime, (long long)pt->task.deadline_ns,
                            (long long)pt->task.period_ns);
        }
    } else {
        rtp_text_append(out, "taskset -c ");
        rtp_deploy_task_cpu_list(bin, i, out); /* a migrating task: its mask */
        /* SCHED_RR where the task asks for it (docs/spec.md "SCHED_RR") */
        rtp_text_printf(out, " chrt -%c %d ", pt->task.rr ? 'r' : 'f',
                        rtp_deploy_fifo_priority(bin, i, opts));
    }
    return rtp_deploy_cmd_words(plan, j, i, opts, quote, out, diag);
}

/* Kernel bandwidth a bin needs, 2^20 = one CPU: the kernel's own rounding
 * (down) of each runtime / period for SCHED_DEADLINE admission, C' / period
 * rounded up for the FIFO estimate. The plan passed rtp_deploy_check, so
 * the runtimes exist. */
static int64_t bin_need(const rtp_plan *plan, const rtp_plan_bin *bin,
                        const rtp_deploy_opts *opts)
{
    int deadline = rtp_deploy_is_deadline(plan);
    int64_t need = 0;
    rtp_diag diag;
    for (size_t i = 0; i < bin->n_tasks; i++) {
        const rtp_task *t = &bin->tasks[i].task;
        rtp_ns c = t->wcet_ns;
        if (deadline)
            rtp_deploy_runtime(plan, t, opts, &c, &diag);
        else
            rtp_effective_wcet(t, &plan->overheads, plan->policy, &c);
        need += rtp_linux_bw(c, t->period_ns, !deadline);
    }
    return need;
}

/* The header's words on the launcher's flags (emit --reclaim,
 * --overrun-signal): GRUB reclaiming [LB00] as Linux implements it
 * [ALSP14], [LinuxDL] section 2.2; what it guarantees and what not:
 * docs/deploy.md section 9. */
static void write_launcher_comment(const rtp_plan *plan, const rtp_deploy_opts *opts,
                                   rtp_text *out)
{
    rtp_text_append(out,
        "# Tasks run under SCHED_DEADLINE with SCHED_RESET_ON_FORK, started by the\n"
        "# launcher (LAUNCHER below) since chrt cannot set the flags that follow: a\n"
        "# task that forks gets SCHED_OTHER children, which the analysis does not cover.\n");
    if (rtp_deploy_reclaims(plan, opts))
        rtp_text_append(out,
            opts->reclaim == 1
                ? "# SCHED_FLAG_RECLAIM (emit --reclaim): a task may also use bandwidth the\n"
                  "# others leave unused (GRUB), never what is reserved to them.\n"
                : "# SCHED_FLAG_RECLAIM (the default for a plan made with a measured\n"
                  "# deadline_charge; emit --no-reclaim turns it off): a task may also use\n"
                  "# bandwidth the others leave unused (GRUB), never what is reserved to them.\n");
    if (opts->overrun_signal)
        rtp_text_append(out,
            "# SCHED_FLAG_DL_OVERRUN (emit --overrun-signal): the kernel sends a task\n"
            "# SIGXCPU when it overruns its runtime. Tasks start with SIGXCPU ignored\n"
            "# (its default action would end them): one that installs a handler sees it.\n");
}

/* LAUNCHER and the check start, check and run make before anything else:
 * the launcher must be there, else one line naming it and exit 1. */
static void write_launcher_check(const rtp_deploy_opts *opts, rtp_text *out)
{
    const char *launcher = launcher_of(opts);
    rtp_text_append(out, "# The program that starts each deadline task (emit --launcher).\n");
    if (strpbrk(launcher, "$`"))
        rtp_text_append(out, "# shellcheck disable=SC2016 # --launcher stays literal\n");
    rtp_text_append(out, "LAUNCHER=");
    rtp_quote_sh(out, launcher);
    rtp_text_append(out,
        "\ncase ${1:-} in\n"
        "start | check | run)\n"
        "    case $LAUNCHER in\n"
        "    /*) [ -f \"$LAUNCHER\" ] && [ -x \"$LAUNCHER\" ] ;;\n"
        "    *) command -v \"$LAUNCHER\" > /dev/null 2>&1 ;;\n"
        "    esac || {\n"
        "        printf 'rtpack %s: cannot find the launcher %s (PATH=%s): it comes with "
        "rtpack (rtpack-launch, installed beside it) and starts the deadline tasks with "
        "the flags chrt cannot set; install it, or emit again with --launcher PATH\\n' "
        "\"$NAME\" \"$LAUNCHER\" \"${PATH:-}\" >&2\n"
        "        exit 1\n"
        "    }\n"
        "    ;;\n"
        "esac\n\n");
}

/* A plan with SCHED_RR tasks: `check` compares the machine's quantum with
 * the one the plan was analysed with (platform.rr_quantum, Linux's 100 ms
 * when absent; docs/spec.md "SCHED_RR"). The sysctl reads back the value
 * written, in ms, while the kernel applies it rounded up to whole ticks:
 * with the plan's tick the script rounds it the same way (under
 * RTPACK_PROC_ROOT, launch.sh's test seam, like every /proc path). One read(2)
 * (head): /proc/sys files answer nothing at an offset, so sh's read, a
 * byte at a time, gets nothing. */
static void write_rr_check(const rtp_plan *plan, rtp_text *out)
{
    int rr = 0;
    for (size_t j = 0; j < plan->n_bins; j++)
        for (size_t i = 0; i < plan->bins[j].n_tasks; i++)
            rr |= plan->bins[j].tasks[i].task.rr;
    if (!rr)
        return;
    rtp_text_printf(out,
        "# SCHED_RR: the quantum and tick (ns, 0 = not given) the plan was analysed with.\n"
        "RR_QUANTUM_NS=%lld\nRR_TICK_NS=%lld\n"
        "case ${1:-} in\n"
        "check)\n"
        "    RR_MS=$(head -n 1 \"${RTPACK_PROC_ROOT:-/proc}/sys/kernel/sched_rr_timeslice_ms\" "
        "2>/dev/null) || RR_MS=''\n"
        "    case $RR_MS in\n"
        "    '' | *[!0-9-]*) printf 'SCHED_RR quantum: cannot read "
        "sys/kernel/sched_rr_timeslice_ms; the plan assumes %%s ns\\n' \"$RR_QUANTUM_NS\" ;;\n"
        "    *)\n"
        "        if [ \"$RR_MS\" -le 0 ]; then RR_HERE=100000000; else RR_HERE=$((RR_MS * 1000000)); fi\n"
        "        if [ \"$RR_TICK_NS\" -gt 0 ]; then\n"
        "            RR_HERE=$(((RR_HERE + RR_TICK_NS - 1) / RR_TICK_NS * RR_TICK_NS))\n"
        "        fi\n"
        "        if [ \"$RR_HERE\" -eq \"$RR_QUANTUM_NS\" ]; then\n"
        "            printf 'SCHED_RR quantum: %%s ns here (sched_rr_timeslice_ms %%s), as the plan assumes\\n' "
        "\"$RR_HERE\" \"$RR_MS\"\n"
        "        else\n"
        "            printf 'warning: SCHED_RR quantum %%s ns here (sched_rr_timeslice_ms %%s) but the plan was "
        "analysed with %%s ns: its SCHED_RR bounds do not hold here; probe this machine and "
        "partition again, or set the sysctl to match\\n' \"$RR_HERE\" \"$RR_MS\" \"$RR_QUANTUM_NS\"\n"
        "        fi\n"
        "        ;;\n"
        "    esac\n"
        "    ;;\n"
        "esac\n\n",
        (long long)(plan->rr_quantum_ns ? plan->rr_quantum_ns : RTP_RR_QUANTUM_DEFAULT_NS),
        (long long)plan->tick_ns);
}

static void write_header(const rtp_plan *plan, const rtp_deploy_opts *opts, rtp_text *out)
{
    int deadline = rtp_deploy_is_deadline(plan);
    rtp_text_append(out,
        "#!/bin/sh\n"
        "# Launch script generated by `rtpack emit --format script` from a partition\n"
        "# plan: edit the plan and emit again rather than editing this file.\n"
        "#\n"
        "# usage: sh THIS_FILE start|stop|status|check (start and stop as root)\n"
        "#   start   checks the live kernel limits, creates one cpuset per planned CPU\n"
        "#           (or cluster), starts every task in it, in its own session, with\n"
        "#           the planned policy and parameters; all or nothing: on a failure\n"
        "#           it undoes everything. Every change is recorded in the state\n"
        "#           file as it is made.\n"
        "#   stop    stops the tasks and undoes the changes the state file records,\n"
        "#           even after this file was emitted again (or start was killed).\n"
        "#   status  per task: PID, CPUs, policy and parameters as the kernel reports\n"
        "#           them; exit 0 when every task runs, 1 otherwise (naming the rest).\n"
        "#   check   the limit checks and what start would do; changes nothing.\n"
        "# Files: state in $RTPACK_STATE_DIR/NAME/state (default /run/rtpack), each\n"
        "#   task's standard output and error in $RTPACK_LOG_DIR/NAME/TASK.log\n"
        "#   (default /var/log/rtpack; kept after stop).\n"
        "# Environment: RTPACK_CGROUP=auto|v1|v2, RTPACK_CGROUP_ROOT=DIR (the cpuset\n"
        "#   hierarchy to use), RTPACK_STATE_DIR=DIR, RTPACK_LOG_DIR=DIR,\n"
        "#   RTPACK_ISOLATE=0|1 (default: emit --isolate), RTPACK_SKIP_BUDGET_CHECK=1\n"
        "#   (leave bandwidth admission to the kernel).\n");
    if (rtp_deploy_uses_launcher(plan, opts))
        write_launcher_comment(plan, opts, out);
    else if (deadline)
        rtp_text_append(out,
            "# Tasks run under SCHED_DEADLINE with SCHED_RESET_ON_FORK (chrt -R): a task\n"
            "# that forks gets SCHED_OTHER children, which the analysis does not cover.\n");
    if (deadline)
        rtp_text_append(out,
            "# Under cgroup v1 the root cpuset stops load balancing while deployed; CPUs\n"
            "# the plan leaves free go to a load-balanced housekeeping cpuset.\n");
    else
        rtp_text_append(out,
            "# Tasks run under SCHED_FIFO; children of a task inherit its priority.\n"
            "# Since Linux 6.12 the fair server may take up to 5% of each CPU from\n"
            "# SCHED_FIFO tasks when normal tasks wait; the plan's budget allows for it.\n");
    rtp_text_append(out, "set -eu\n\n");
    rtp_text_printf(out, "NAME=%s\nPOLICY=%s\n", opts->name, deadline ? "edf" : "fp");
    static const char *const modes[] = {"auto", "v1", "v2"};
    rtp_text_printf(out, "CG_MODE=${RTPACK_CGROUP:-%s}\n", modes[opts->cgroup]);
    if (opts->cgroup_root && strpbrk(opts->cgroup_root, "$`"))
        rtp_text_append(out, "# shellcheck disable=SC2016 # --cgroup-root stays literal\n");
    rtp_text_append(out, "CG_ROOT_DEFAULT=");
    rtp_quote_sh(out, opts->cgroup_root ? opts->cgroup_root : "");
    rtp_text_printf(out, "\nCG_ROOT=${RTPACK_CGROUP_ROOT:-$CG_ROOT_DEFAULT}\n"
                         "STATE_DIR_DEFAULT=" RTP_DEPLOY_STATE_DIR "\n"
                         "STATE_DIR=${RTPACK_STATE_DIR:-$STATE_DIR_DEFAULT}\n"
                         "LOG_DIR=${RTPACK_LOG_DIR:-" RTP_DEPLOY_LOG_DIR "}\n"
                         "ISOLATE=${RTPACK_ISOLATE:-%d}\n",
                    opts->isolate ? 1 : 0);
    rtp_text_append(out, "# Bins with tasks: index:CPUs:CPU count:bandwidth (2^20 = one CPU)\n"
                         "BINS='");
    rtp_ns min_period = 0, max_period = 0;
    int first = 1;
    for (size_t j = 0; j < plan->n_bins; j++) {
        const rtp_plan_bin *bin = &plan->bins[j];
        if (bin->n_tasks == 0)
            continue;
        rtp_text_printf(out, "%s%zu:", first ? "" : " ", j);
        rtp_deploy_cpu_list(bin, out);
        rtp_text_printf(out, ":%zu:%lld", bin->n_cpus, (long long)bin_need(plan, bin, opts));
        first = 0;
        for (size_t i = 0; deadline && i < bin->n_tasks; i++) {
            rtp_ns p = bin->tasks[i].task.period_ns;
            min_period = min_period == 0 || p < min_period ? p : min_period;
            max_period = p > max_period ? p : max_period;
        }
    }
    rtp_text_printf(out, "'\nDL_PERIOD_MIN_NS=%lld\nDL_PERIOD_MAX_NS=%lld\n\n",
                    (long long)min_period, (long long)max_period);
    if (rtp_deploy_uses_launcher(plan, opts))
        write_launcher_check(opts, out);
    write_rr_check(plan, out);
}

/* The task table: one row "$1" BIN WANT NAME LOGBASE COMMAND... per task.
 * LOGBASE names the task's log file: the task's name when it is a plain
 * name, else "task@K" (K = its index in the table; '@' never occurs in a
 * plain name, so the two cannot collide). */
static rtp_status write_rows(const rtp_plan *plan, const rtp_deploy_opts *opts, rtp_text *out,
                             size_t *n_tasks, rtp_diag *diag)
{
    int deadline = rtp_deploy_is_deadline(plan);
    *n_tasks = 0;
    for (size_t j = 0; j < plan->n_bins; j++) {
        for (size_t i = 0; i < plan->bins[j].n_tasks; i++, ++*n_tasks) {
            const char *name = plan->bins[j].tasks[i].task.name;
            const char *want = deadline ? "SCHED_DEADLINE"
                               : plan->bins[j].tasks[i].task.rr ? "SCHED_RR" : "SCHED_FIFO";
            rtp_text_printf(out, "    \"$1\" %zu %s ", j, want);
            rtp_quote_sh(out, name);
            if (rtp_quote_is_plain_name(name)) {
                rtp_text_append(out, " ");
                rtp_quote_sh(out, name);
                rtp_text_append(out, " ");
            } else {
                rtp_text_printf(out, " 'task@%zu' ", *n_tasks);
            }
            rtp_status st = rtp_deploy_launch_words(plan, j, i, opts, rtp_quote_sh, out, diag);
            if (st != RTP_OK)
                return st;
            rtp_text_append(out, "\n");
        }
    }
    return RTP_OK;
}

/* The rt-app variant of the task table: one row per bin with a file,
 * "$1" BIN - rtapp-BIN rtapp-BIN rt-app FILE (rt-app sets its threads'
 * policies itself, so start only waits for it to run). */
static rtp_status write_rtapp_rows(const rtp_plan *plan, const char *const *bin_files,
                                   rtp_text *out, size_t *n_rows, rtp_diag *diag)
{
    char why[96];
    *n_rows = 0;
    for (size_t j = 0; j < plan->n_bins; j++) {
        if (!bin_files[j])
            continue;
        if (rtp_text_check_plain(bin_files[j], why, sizeof why) != 0)
            return rtp_diag_set(diag, RTP_EINPUT, "", "the rt-app file name %s", why);
        rtp_text_printf(out, "    \"$1\" %zu - 'rtapp-%zu' 'rtapp-%zu' rt-app ", j, j, j);
        rtp_quote_sh(out, bin_files[j]);
        rtp_text_append(out, "\n");
        ++*n_rows;
    }
    return RTP_OK;
}

/* Header, table and body: the task table of the plan, or with bin_files
 * the rt-app rows. */
static rtp_status script_of(const rtp_plan *plan, const rtp_deploy_opts *opts,
                            const char *const *bin_files, char **script, rtp_text *warnings,
                            rtp_diag *diag)
{
    rtp_text out;
    *script = NULL;
    rtp_status st = rtp_deploy_flags_check(plan, opts, bin_files != NULL, diag);
    if (st != RTP_OK)
        return st;
    rtp_text_init(&out);
    write_header(plan, opts, &out);
    if (bin_files)
        rtp_text_append(&out, "# Each row starts rt-app on one bin's JSON file inside that bin's\n"
                              "# cpuset; rt-app gives its threads their policies itself.\n");
    rtp_text_append(&out, "# for_each_task ACTION: ACTION BIN WANT NAME LOGBASE COMMAND... per task\n"
                          "# (WANT: the policy start waits for; LOGBASE: the log file's name).\n"
                          "# shellcheck disable=SC2016 # plan strings stay literal on purpose\n"
                          "for_each_task() {\n    :\n");
    size_t n_rows = 0;
    st = bin_files ? write_rtapp_rows(plan, bin_files, &out, &n_rows, diag)
                              : write_rows(plan, opts, &out, &n_rows, diag);
    if (st != RTP_OK) {
        rtp_text_free(&out);
        return st;
    }
    rtp_text_append(&out, "}\n\n");
    rtp_text_append(&out, rtp_script_body);
    if (!bin_files && rtp_deploy_is_deadline(plan) && n_rows > 0)
        rtp_text_printf(warnings, "warning: deadline tasks start with %s: children of a "
                                  "forking command run as SCHED_OTHER, outside the analysis\n",
                        rtp_deploy_uses_launcher(plan, opts) ? "the launcher's --reset-on-fork"
                                                             : "chrt -R");
    if (rtp_text_status(&out) != RTP_OK) {
        rtp_text_free(&out);
        return rtp_diag_set(diag, RTP_ENOMEM, "", "out of memory");
    }
    *script = rtp_text_take(&out);
    return RTP_OK;
}

rtp_status rtp_deploy_script(const rtp_plan *plan, const rtp_deploy_opts *opts, char **script,
                             rtp_text *warnings, rtp_diag *diag)
{
    return script_of(plan, opts, NULL, script, warnings, diag);
}

rtp_status rtp_deploy_script_rtapp(const rtp_plan *plan, const rtp_deploy_opts *opts,
                                   const char *const *bin_files, char **script,
                                   rtp_diag *diag)
{
    return script_of(plan, opts, bin_files, script, NULL, diag);
}
