/* bench/bench_locks.c — rtpack's blocking terms for the shared-resource
 * comparison against SchedCAT [SchedCAT] (HACKING.md "Against SchedCAT",
 * bench/locks_compare.sh). Reads partitioned sets in the line format of the
 * comparison driver kept outside this tree:
 *
 *   set LABEL CPUS
 *   task NAME C T D CPU PRIO [J=JITTER] [RES:COUNT:LENGTH]...
 *   end
 *
 * (times in any one unit, PRIO larger = more urgent) and prints, per set,
 * the same facts as that driver, computed by solver/locks.h:
 *
 *   set LABEL cpus=M tasks=N
 *   msrp-fp NAME cpu=K spin=S local=B resp=R|miss     (FP, given priorities)
 *   msrp-edf-cpu K qpa=0|1                            (EDF verdict of CPU K)
 *   bt cpu=K t=D b=B                                  (b(t) at each distinct D)
 *   fmlpp NAME cpu=K remote=X local=Y total=Z resp=R|miss
 *                                 (every resource FMLP+, solver/fmlp.h; the
 *                                  set "n/a" when not analysed)
 *   end
 *
 * Usage: bench_locks [FILE|-]. Exit 2 on a malformed line. */
#include "models/base.h"
#include "models/taskset.h"
#include "solver/fmlp.h"
#include "solver/locks.h"
#include "solver/schedtest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TASKS 64
#define MAX_RES 32
#define MAX_REQ 8

typedef struct set {
    char label[128];
    size_t cpus, n, n_res;
    char names[MAX_TASKS][64];
    char res_names[MAX_RES][64];
    rtp_resource res[MAX_RES];
    rtp_task tasks[MAX_TASKS];
    rtp_request req[MAX_TASKS][MAX_REQ];
    size_t cpu_of[MAX_TASKS];
} set;

static int bad(size_t line, const char *what)
{
    fprintf(stderr, "bench_locks: line %zu: %s\n", line, what);
    return 2;
}

static size_t resource(set *s, const char *name)
{
    for (size_t r = 0; r < s->n_res; r++)
        if (strcmp(s->res_names[r], name) == 0)
            return r;
    if (s->n_res == MAX_RES)
        return MAX_RES;
    snprintf(s->res_names[s->n_res], sizeof s->res_names[0], "%s", name);
    s->res[s->n_res].name = s->res_names[s->n_res];
    s->res[s->n_res].protocol = RTP_LOCK_AUTO;
    return s->n_res++;
}

static int parse_task(set *s, char *rest, size_t line)
{
    if (s->n == MAX_TASKS)
        return bad(line, "too many tasks");
    size_t i = s->n;
    rtp_task *t = &s->tasks[i];
    memset(t, 0, sizeof *t);
    long long c, p, d, cpu, prio;
    int used = 0;
    if (sscanf(rest, "%63s %lld %lld %lld %lld %lld%n", s->names[i], &c, &p, &d, &cpu, &prio,
               &used) != 6 || c < 1 || p < 1 || d < 1 || cpu < 0 || (size_t)cpu >= s->cpus)
        return bad(line, "expected: task NAME C T D CPU PRIO ...");
    t->name = s->names[i];
    t->wcet_ns = c;
    t->period_ns = p;
    t->deadline_ns = d;
    t->has_priority = 1;
    t->priority = (int)prio;
    t->requests = s->req[i];
    s->cpu_of[i] = (size_t)cpu;
    for (char *tok = strtok(rest + used, " \t\n"); tok; tok = strtok(NULL, " \t\n")) {
        long long a, b;
        char name[64];
        if (sscanf(tok, "J=%lld", &a) == 1) {
            t->jitter_ns = a;
        } else if (sscanf(tok, "%63[^:]:%lld:%lld", name, &a, &b) == 3 && a >= 1 && b >= 1 &&
                   t->n_requests < MAX_REQ) {
            rtp_request *q = &t->requests[t->n_requests++];
            memset(q, 0, sizeof *q);
            if ((q->resource = resource(s, name)) == MAX_RES)
                return bad(line, "too many resources");
            q->count = a;
            q->length_ns = b;
        } else {
            return bad(line, "bad request or option");
        }
    }
    s->n++;
    return 0;
}

static int ns_cmp(const void *a, const void *b)
{
    rtp_ns x = *(const rtp_ns *)a, y = *(const rtp_ns *)b;
    return (x > y) - (x < y);
}

/* The same placement with every resource under FMLP+. */
static int report_fmlp(const set *s, const rtp_limits *lim)
{
    static rtp_task t[MAX_TASKS];
    static rtp_request rq[MAX_TASKS][MAX_REQ];
    rtp_locks_task out[MAX_TASKS];
    rtp_diag diag = {0};
    int sched, found;
    for (size_t i = 0; i < s->n; i++) {
        t[i] = s->tasks[i];
        t[i].requests = rq[i];
        for (size_t k = 0; k < t[i].n_requests; k++) {
            rq[i][k] = s->tasks[i].requests[k];
            rq[i][k].susp = 1;
        }
    }
    rtp_status st = rtp_fmlp_partitioned(t, s->n, s->cpu_of, s->cpus, RTP_PRIO_GIVEN, lim,
                                         &sched, &found, out, &diag);
    if (st == RTP_ELIMIT) {
        printf("fmlpp n/a reason=%s\n", diag.message);
        return 0;
    }
    if (st != RTP_OK) {
        fprintf(stderr, "bench_locks: %s: %s\n", s->label, diag.message);
        return 3;
    }
    for (size_t i = 0; i < s->n; i++) {
        printf("fmlpp %s cpu=%zu remote=%lld local=%lld total=%lld resp=", s->names[i],
               s->cpu_of[i], (long long)out[i].suspension_ns,
               (long long)(out[i].blocking_ns - out[i].suspension_ns),
               (long long)out[i].blocking_ns);
        if (out[i].response_ns < 0)
            printf("miss\n");
        else
            printf("%lld\n", (long long)out[i].response_ns);
    }
    return 0;
}

static int report(const set *s)
{
    rtp_limits lim = rtp_limits_default();
    rtp_locks_task out[MAX_TASKS];
    rtp_diag diag = {0};
    int sched;
    printf("set %s cpus=%zu tasks=%zu\n", s->label, s->cpus, s->n);
    rtp_test fp = rtp_test_exact(RTP_POLICY_FP, RTP_PRIO_GIVEN, 1, lim);
    if (rtp_locks_partitioned(s->res, s->n_res, s->tasks, s->n, s->cpu_of, s->cpus, &fp, &sched,
                              out, &diag) != RTP_OK) {
        fprintf(stderr, "bench_locks: %s: %s\n", s->label, diag.message);
        return 3;
    }
    for (size_t i = 0; i < s->n; i++) {
        printf("msrp-fp %s cpu=%zu spin=%lld local=%lld resp=", s->names[i], s->cpu_of[i],
               (long long)out[i].spin_ns, (long long)out[i].blocking_ns);
        if (out[i].response_ns < 0)
            printf("miss\n");
        else
            printf("%lld\n", (long long)out[i].response_ns);
    }
    /* EDF, CPU by CPU, with b(t) at each distinct deadline */
    rtp_request *store;
    rtp_task placed[MAX_TASKS], bin[MAX_TASKS];
    if (rtp_locks_place(s->res, s->n_res, s->tasks, s->n, s->cpu_of, s->cpus, placed, &store,
                        &diag) != RTP_OK)
        return 3;
    rtp_test edf = rtp_test_exact(RTP_POLICY_EDF, RTP_PRIO_DM, 1, lim);
    int rc = 0;
    for (size_t c = 0; c < s->cpus && rc == 0; c++) {
        size_t m = 0;
        rtp_ns ds[MAX_TASKS];
        for (size_t i = 0; i < s->n; i++)
            if (s->cpu_of[i] == c) {
                ds[m] = placed[i].deadline_ns;
                bin[m++] = placed[i];
            }
        if (m == 0)
            continue;
        rtp_test_result r = {0};
        rtp_status st = rtp_test_run(&edf, bin, m, &r, &diag);
        if (st == RTP_ELIMIT)
            printf("msrp-edf-cpu %zu qpa=n/a\n", c);
        else if (st != RTP_OK)
            rc = 3;
        else
            printf("msrp-edf-cpu %zu qpa=%d\n", c, r.schedulable);
        qsort(ds, m, sizeof *ds, ns_cmp);
        for (size_t k = 0; k < m; k++)
            if (k == 0 || ds[k] != ds[k - 1])
                printf("bt cpu=%zu t=%lld b=%lld\n", c, (long long)ds[k],
                       (long long)rtp_locks_edf_b(bin, m, ds[k], NULL));
    }
    free(store);
    if (rc == 0)
        rc = report_fmlp(s, &lim);
    printf("end\n");
    return rc;
}

int main(int argc, char **argv)
{
    FILE *in = argc > 1 && strcmp(argv[1], "-") != 0 ? fopen(argv[1], "r") : stdin;
    if (!in) {
        perror(argv[1]);
        return 2;
    }
    static set s;
    char buf[4096];
    int open = 0, rc = 0;
    for (size_t line = 1; rc == 0 && fgets(buf, sizeof buf, in); line++) {
        char *p = buf + strspn(buf, " \t");
        if (*p == '#' || *p == '\n' || *p == '\0')
            continue;
        long long cpus;
        if (!open && sscanf(p, "set %127s %lld", s.label, &cpus) == 2 && cpus >= 1 &&
            cpus <= MAX_TASKS) {
            s.cpus = (size_t)cpus;
            s.n = s.n_res = 0;
            open = 1;
        } else if (open && strncmp(p, "task ", 5) == 0) {
            rc = parse_task(&s, p + 5, line);
        } else if (open && strncmp(p, "end", 3) == 0) {
            rc = report(&s);
            open = 0;
        } else {
            rc = bad(line, "expected set, task or end");
        }
    }
    if (in != stdin)
        fclose(in);
    return rc;
}
