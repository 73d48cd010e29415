/* deploy/locks.c — shared resources on Linux (see locks.h). */
#include "deploy/locks.h"

#include "solver/locks.h"
#include "solver/rr.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

rtp_status rtp_deploy_locks(const rtp_plan *plan, const rtp_deploy_opts *opts,
                            rtp_deploy_lock *out, int *ok, rtp_diag *diag)
{
    int deadline = rtp_deploy_is_deadline(plan);
    *ok = 1;
    for (size_t r = 0; r < plan->n_resources; r++) {
        rtp_deploy_lock *l = &out[r];
        const rtp_resource *res = &plan->resources[r];
        memset(l, 0, sizeof *l);
        size_t first_bin = (size_t)-1;
        int ceiling = 0;
        for (size_t j = 0; j < plan->n_bins; j++)
            for (size_t i = 0; i < plan->bins[j].n_tasks; i++) {
                const rtp_task *t = &plan->bins[j].tasks[i].task;
                for (size_t k = 0; k < t->n_requests; k++) {
                    if (t->requests[k].resource != r)
                        continue;
                    if (first_bin == (size_t)-1)
                        first_bin = j;
                    l->global = l->global || first_bin != j;
                    int p = deadline ? 0 : rtp_deploy_fifo_priority(&plan->bins[j], i, opts);
                    if (p > ceiling)
                        ceiling = p;
                }
            }
        if (first_bin == (size_t)-1)
            continue; /* RTP_LOCK_UNUSED */
        char path[48];
        snprintf(path, sizeof path, "resources[%zu]", r);
        if (res->protocol == RTP_LOCK_FMLP) {
            if (deadline) {
                *ok = 0;
                rtp_deploy_refuse(diag, opts, path, "partition with --policy fp",
                                  "\"%.60s\" is fmlp+, which is analysed under fp only",
                                  res->name);
                return RTP_OK;
            }
            l->kind = RTP_LOCK_INHERIT; /* the nearest Linux has: see the warning */
            continue;
        }
        if (l->global || res->protocol == RTP_LOCK_MSRP) {
            if (deadline) {
                *ok = 0;
                rtp_deploy_refuse(diag, opts, path,
                                  "keep its users on one CPU (a local resource), or partition "
                                  "with --policy fp",
                                  "\"%.60s\" runs under MSRP (non-preemptive spinning), which a "
                                  "SCHED_DEADLINE task cannot do from user space",
                                  res->name);
                return RTP_OK;
            }
            if (opts->fifo_hi >= 99) {
                *ok = 0;
                rtp_deploy_refuse(diag, opts, path, "--fifo-range LO:98 or lower",
                                  "\"%.60s\" is a spin lock taken above every task's FIFO "
                                  "priority, and --fifo-range ends at 99",
                                  res->name);
                return RTP_OK;
            }
            l->kind = RTP_LOCK_SPIN;
            l->ceiling = opts->fifo_hi + 1;
        } else {
            l->kind = deadline ? RTP_LOCK_INHERIT : RTP_LOCK_PROTECT;
            l->ceiling = ceiling;
        }
    }
    return RTP_OK;
}

rtp_status rtp_deploy_locks_check(const rtp_plan *plan, const rtp_deploy_opts *opts, int *ok,
                                  rtp_diag *diag)
{
    rtp_deploy_lock *locks = calloc(plan->n_resources + 1, sizeof *locks);
    if (!locks)
        return rtp_oom(diag);
    rtp_status st = rtp_deploy_locks(plan, opts, locks, ok, diag);
    free(locks);
    if (st != RTP_OK || !*ok)
        return st;
    size_t n = 0;
    for (size_t j = 0; j < plan->n_bins; j++)
        n += plan->bins[j].n_tasks;
    rtp_task *all = malloc((n ? n : 1) * sizeof *all);
    size_t *cpu = malloc((n ? n : 1) * sizeof *cpu);
    rtp_locks_task *out = malloc((n ? n : 1) * sizeof *out);
    if (!all || !cpu || !out) {
        st = rtp_oom(diag);
        goto done;
    }
    size_t m = 0;
    for (size_t j = 0; j < plan->n_bins && st == RTP_OK; j++) {
        rtp_task *bin = rtp_deploy_bin_tasks(plan, j, opts, &st, diag);
        for (size_t i = 0; bin && i < plan->bins[j].n_tasks; i++) {
            all[m] = bin[i];
            cpu[m++] = j;
        }
        free(bin);
    }
    if (st != RTP_OK)
        goto done;
    int fp = !rtp_deploy_is_deadline(plan);
    rtp_test test = rtp_test_exact(fp ? RTP_POLICY_FP : RTP_POLICY_EDF, RTP_PRIO_GIVEN, 1,
                                   opts->limits);
    test.rr = rtp_rr_params_of(plan->rr_quantum_ns, plan->tick_ns,
                               rtp_deploy_analysed(plan, opts));
    if ((st = rtp_locks_partitioned(plan->resources, plan->n_resources, all, m, cpu,
                                    plan->n_bins, &test, ok, out, diag)) == RTP_OK && !*ok)
        rtp_deploy_refuse(diag, opts, "resources", "partition again",
                          "with the spins and blocking of its shared resources the plan fails "
                          "the exact test again (as deployed: %s)",
                     fp ? "C' and the plan's priorities" : "the SCHED_DEADLINE runtimes");
done:
    free(all);
    free(cpu);
    free(out);
    return st;
}

/* s as a C string literal: printable ASCII but quote and backslash as
 * they are, every other byte in octal. */
static void c_string(rtp_text *out, const char *s)
{
    rtp_text_append(out, "\"");
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p >= 0x20 && *p < 0x7f && *p != '"' && *p != '\\' && *p != '?')
            rtp_text_printf(out, "%c", *p);
        else
            rtp_text_printf(out, "\\%03o", *p);
    }
    rtp_text_append(out, "\"");
}

void rtp_deploy_lock_header(const rtp_plan *plan, const rtp_deploy_opts *opts,
                            const rtp_deploy_lock *locks, rtp_text *out)
{
    (void)opts;
    rtp_text_append(out,
        "/* Generated by rtpack emit --format header: how the application takes the\n"
        " * plan's shared resources (rtpack docs/spec.md \"Shared resources\"). The\n"
        " * analysis holds only if every critical section takes its resource's lock\n"
        " * this way and lasts at most its declared length.\n"
        " *\n"
        " * RTPACK_LOCK_<i>_PROTOCOL is PTHREAD_PRIO_PROTECT (immediate priority ceiling,\n"
        " * SCHED_FIFO plans: set the mutex's ceiling to RTPACK_LOCK_<i>_CEILING),\n"
        " * PTHREAD_PRIO_INHERIT (SCHED_DEADLINE plans: PRIO_PROTECT fails there with\n"
        " * EINVAL; a holder is boosted into the deadline class and runs unthrottled\n"
        " * while boosted, and inheritance is not the SRP the analysis assumes), or\n"
        " * FMLP+ resources (fp plans) are PTHREAD_PRIO_INHERIT too: Linux queues their\n"
        " * waiters by priority and boosts a holder to its top waiter's priority only,\n"
        " * not FMLP+'s FIFO queue and boost above every task of the CPU (emit warns).\n"
        " * RTPACK_SPIN: MSRP, a FIFO-ordered spin lock taken after raising the thread\n"
        " * to SCHED_FIFO priority RTPACK_LOCK_<i>_CEILING (above every task of the\n"
        " * plan) and released before dropping back. Strict C needs POSIX 2008 for\n"
        " * the mutex protocols: define _XOPEN_SOURCE 700 (or _GNU_SOURCE) first. */\n"
        "#ifndef RTPACK_LOCKS_H\n#define RTPACK_LOCKS_H\n\n#include <pthread.h>\n"
        "#include <sched.h>\n#include <stdatomic.h>\n\n"

        "#define RTPACK_SPIN (-1)\n");
    rtp_text_printf(out, "#define RTPACK_LOCKS %zu\n\n", plan->n_resources);
    for (size_t r = 0; r < plan->n_resources; r++) {
        const rtp_deploy_lock *l = &locks[r];
        rtp_text_printf(out, "#define RTPACK_LOCK_%zu_NAME ", r);
        c_string(out, plan->resources[r].name);
        rtp_text_append(out, "\n");
        const char *proto = l->kind == RTP_LOCK_PROTECT   ? "PTHREAD_PRIO_PROTECT"
                            : l->kind == RTP_LOCK_INHERIT ? "PTHREAD_PRIO_INHERIT"
                            : l->kind == RTP_LOCK_SPIN    ? "RTPACK_SPIN"
                                                          : "PTHREAD_PRIO_NONE";
        rtp_text_printf(out, "#define RTPACK_LOCK_%zu_PROTOCOL %s%s\n", r, proto,
                        l->kind == RTP_LOCK_UNUSED ? " /* no task uses it */" : "");
        rtp_text_printf(out, "#define RTPACK_LOCK_%zu_CEILING %d\n", r, l->ceiling);
        rtp_text_printf(out, "#define RTPACK_LOCK_%zu_GLOBAL %d\n\n", r, l->global);
    }
    rtp_text_append(out,
        "/* A process-shared mutex of `protocol` (not RTPACK_SPIN) with `ceiling` for\n"
        " * PTHREAD_PRIO_PROTECT: 0 or the pthread error number. */\n"
        "static inline int rtpack_lock_init(pthread_mutex_t *m, int protocol, int ceiling)\n"
        "{\n"
        "    pthread_mutexattr_t a;\n"
        "    int e = pthread_mutexattr_init(&a);\n"
        "    if (!e)\n"
        "        e = pthread_mutexattr_setpshared(&a, PTHREAD_PROCESS_SHARED);\n"
        "    if (!e)\n"
        "        e = pthread_mutexattr_setprotocol(&a, protocol);\n"
        "    if (!e && protocol == PTHREAD_PRIO_PROTECT)\n"
        "        e = pthread_mutexattr_setprioceiling(&a, ceiling);\n"
        "    if (!e)\n"
        "        e = pthread_mutex_init(m, &a);\n"
        "    pthread_mutexattr_destroy(&a);\n"
        "    return e;\n"
        "}\n\n"
        "/* RTPACK_SPIN: a FIFO (ticket) spin lock in memory shared by the users,\n"
        " * zeroed before first use. rtpack_spin_lock raises the calling thread to\n"
        " * SCHED_FIFO `priority` first (its section is then non-preemptive on its\n"
        " * CPU) and returns the priority to restore; rtpack_spin_unlock restores it. */\n"
        "typedef struct rtpack_spin {\n"
        "    atomic_uint next, owner;\n"
        "} rtpack_spin;\n\n"
        "static inline int rtpack_spin_lock(rtpack_spin *l, int priority)\n"
        "{\n"
        "    struct sched_param was;\n"
        "    int policy;\n"
        "    pthread_getschedparam(pthread_self(), &policy, &was);\n"
        "    pthread_setschedprio(pthread_self(), priority);\n"
        "    unsigned ticket = atomic_fetch_add_explicit(&l->next, 1, memory_order_relaxed);\n"
        "    while (atomic_load_explicit(&l->owner, memory_order_acquire) != ticket)\n"
        "        ;\n"
        "    return was.sched_priority;\n"
        "}\n\n"
        "static inline void rtpack_spin_unlock(rtpack_spin *l, int restore)\n"
        "{\n"
        "    atomic_fetch_add_explicit(&l->owner, 1, memory_order_release);\n"
        "    pthread_setschedprio(pthread_self(), restore);\n"
        "}\n\n#endif\n");
}

void rtp_deploy_lock_warnings(const rtp_plan *plan, const rtp_deploy_lock *locks,
                              rtp_text *out)
{
    for (size_t r = 0; r < plan->n_resources; r++)
        if (plan->resources[r].protocol == RTP_LOCK_FMLP && locks[r].kind == RTP_LOCK_INHERIT)
            rtp_text_printf(out,
                            "warning: resource \"%.60s\" is analysed as FMLP+ (waiters in FIFO "
                            "order, the holder boosted above every non-boosted task of its CPU) "
                            "and written as a PTHREAD_PRIO_INHERIT mutex, which Linux runs "
                            "differently: waiters queue by priority and the holder inherits "
                            "only its top waiter's priority, so a task can wait longer than "
                            "the FMLP+ bound; the bound holds for a lock that implements "
                            "FMLP+\n",
                            plan->resources[r].name);
        else if (locks[r].kind == RTP_LOCK_INHERIT)
            rtp_text_printf(out,
                            "warning: resource \"%.60s\" is a PTHREAD_PRIO_INHERIT mutex "
                            "(SCHED_DEADLINE refuses PTHREAD_PRIO_PROTECT): a holder boosted "
                            "into the deadline class runs unthrottled, beyond its runtime, while "
                            "boosted, and priority inheritance may block a job longer than the "
                            "SRP bound the analysis used\n",
                            plan->resources[r].name);
}
