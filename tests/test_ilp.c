/* tests/test_ilp.c — exact partitioning by ILP (ilp/ilp.c, ilp/glpk_model.c).
 *
 * - Seeded small sets (n <= 10, m <= 4; EDF with implicit, constrained and
 *   arbitrary deadlines, FP with OPA; some with affinity): the ILP says
 *   "optimal" exactly when an exhaustive search written here finds a
 *   partition, and "infeasible" otherwise (a seventh of them with a
 *   per-CPU capacity of 0.9); on feasible sets min-cpus and balanced match
 *   the exhaustive optimum. Every plan is re-checked here.
 * - Sets feasible by construction (a partition drawn first, then shuffled)
 *   on which FFD, BFD and WFD all fail: the ILP finds a plan (n = 20..40,
 *   m = 4..8).
 * - Infeasible by proof (m + 1 tasks above half a CPU): "infeasible".
 * - --write-lp: GLPK reads the file back with the model's size; /dev/null,
 *   folders and symlinks are refused and left alone.
 * - Time limit: a hard infeasible instance stops with "time_limit", never
 *   "infeasible". Solves in OpenMP threads agree with sequential ones. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ilp/glpk_model.h"
#include "ilp/ilp.h"
#include "models/ratio.h"
#include "solver/edf.h"
#include "solver/fp.h"
#include "support/testutil.h"

#define MAXN 48
#define MAXM 8

/* ---- task sets built in memory ---- */

typedef struct set {
    rtp_taskset ts;
    rtp_task tasks[MAXN];
    char names[MAXN][24];
    int affinity[MAXN][MAXM];
    int cpus[MAXM];
    size_t m;
    rtp_ratio cap; /* per-CPU utilization capacity (--capacity) */
} set;

static void set_init(set *s, size_t n, size_t m)
{
    memset(s, 0, sizeof *s);
    s->ts.time_unit_ns = 1;
    s->ts.tasks = s->tasks;
    s->ts.n_tasks = n;
    s->m = m;
    s->cap = (rtp_ratio){1, 1};
    for (size_t j = 0; j < m; j++)
        s->cpus[j] = (int)j;
    for (size_t i = 0; i < n; i++) {
        snprintf(s->names[i], sizeof s->names[i], "T%zu", i);
        s->tasks[i].name = s->names[i];
    }
}

static void set_task(set *s, size_t i, rtp_ns c, rtp_ns d, rtp_ns t)
{
    char *name = s->tasks[i].name;
    s->tasks[i] = tu_task(c, d, t);
    s->tasks[i].name = name;
}

static size_t index_of(const set *s, const rtp_task *t)
{
    for (size_t i = 0; i < s->ts.n_tasks; i++)
        if (strcmp(s->tasks[i].name, t->name) == 0)
            return i;
    fail_msg("plan task %s is not in the set", t->name);
    return 0;
}

static int may_run(const rtp_task *t, int cpu)
{
    if (!t->affinity)
        return 1;
    for (size_t a = 0; a < t->affinity_len; a++)
        if (t->affinity[a] == cpu)
            return 1;
    return 0;
}

/* ---- exhaustive reference ---- */

typedef struct ref {
    const set *s;
    rtp_policy policy;
    rtp_test test;
    size_t members[MAXM][MAXN];
    size_t count[MAXM];
    int any_affinity;
    int enumerate_all; /* objectives: visit every partition */
    int found;
    size_t best_used;  /* fewest CPUs used */
    double best_max;   /* smallest largest utilization */
} ref;

static int cpu_ok(ref *r, size_t j)
{
    rtp_task sub[MAXN];
    for (size_t q = 0; q < r->count[j]; q++)
        sub[q] = r->s->tasks[r->members[j][q]];
    if (rtp_load_cmp(sub, r->count[j], RTP_LOAD_UTIL, r->s->cap) > 0)
        return 0;
    rtp_test_result res;
    memset(&res, 0, sizeof res);
    assert_int_equal(rtp_test_run(&r->test, sub, r->count[j], &res, NULL), RTP_OK);
    return res.schedulable;
}

static double cpu_util(const set *s, const size_t *idx, size_t k)
{
    double u = 0.0;
    for (size_t q = 0; q < k; q++)
        u += (double)s->tasks[idx[q]].wcet_ns / (double)s->tasks[idx[q]].period_ns;
    return u;
}

/* Depth-first over task i's CPU; a CPU that fails is never extended (a
 * superset of a failing set fails). Without affinity the CPUs are
 * interchangeable, so a task may open at most the first empty CPU. */
static void dfs(ref *r, size_t i, size_t opened)
{
    if (r->found && !r->enumerate_all)
        return;
    const set *s = r->s;
    if (i == s->ts.n_tasks) {
        r->found = 1;
        size_t used = 0;
        double worst = 0.0;
        for (size_t j = 0; j < s->m; j++) {
            used += r->count[j] > 0;
            double u = cpu_util(s, r->members[j], r->count[j]);
            worst = u > worst ? u : worst;
        }
        if (used < r->best_used)
            r->best_used = used;
        if (worst < r->best_max)
            r->best_max = worst;
        return;
    }
    for (size_t j = 0; j < s->m; j++) {
        if (!r->any_affinity && j > opened)
            break;
        if (!may_run(&s->tasks[i], s->cpus[j]))
            continue;
        r->members[j][r->count[j]++] = i;
        if (cpu_ok(r, j))
            dfs(r, i + 1, j + 1 > opened ? j + 1 : opened);
        r->count[j]--;
    }
}

static ref reference(const set *s, rtp_policy policy, int enumerate_all)
{
    ref r;
    memset(&r, 0, sizeof r);
    r.s = s;
    r.policy = policy;
    r.test = rtp_test_exact(policy, RTP_PRIO_OPA, 1, rtp_limits_default());
    r.enumerate_all = enumerate_all;
    r.best_used = SIZE_MAX;
    r.best_max = INFINITY;
    for (size_t i = 0; i < s->ts.n_tasks; i++)
        r.any_affinity |= s->tasks[i].affinity != NULL;
    dfs(&r, 0, 0);
    return r;
}

/* ---- plan checks (exact tests on the plan's own priorities) ---- */

static void check_plan(const set *s, const rtp_plan *p, rtp_policy policy, size_t *used,
                       double *worst)
{
    assert_true(p->feasible);
    assert_string_equal(p->method, "ilp");
    assert_int_equal(p->n_bins, s->m);
    assert_int_equal(p->n_unassigned, 0);
    int seen[MAXN] = {0};
    *used = 0;
    *worst = 0.0;
    for (size_t b = 0; b < p->n_bins; b++) {
        const rtp_plan_bin *bin = &p->bins[b];
        assert_int_equal(bin->n_cpus, 1);
        assert_int_equal(bin->cpus[0], s->cpus[b]);
        rtp_task sub[MAXN];
        int prio[MAXN];
        size_t idx[MAXN];
        for (size_t q = 0; q < bin->n_tasks; q++) {
            size_t i = index_of(s, &bin->tasks[q].task);
            seen[i]++;
            idx[q] = i;
            sub[q] = s->tasks[i];
            prio[q] = bin->tasks[q].priority;
            assert_true(may_run(&s->tasks[i], bin->cpus[0]));
        }
        if (bin->n_tasks == 0)
            continue;
        (*used)++;
        double u = cpu_util(s, idx, bin->n_tasks);
        *worst = u > *worst ? u : *worst;
        rtp_limits lim = rtp_limits_default();
        assert_true(rtp_load_cmp(sub, bin->n_tasks, RTP_LOAD_UTIL, s->cap) <= 0);
        if (policy == RTP_POLICY_EDF) {
            rtp_edf_result er;
            assert_int_equal(rtp_edf_qpa(sub, bin->n_tasks, 0, &lim, &er, NULL), RTP_OK);
            assert_true(er.schedulable);
        } else {
            rtp_ns rt[MAXN];
            int ok = 0;
            assert_int_equal(rtp_fp_rta(sub, bin->n_tasks, prio, rt, &ok, &lim, NULL), RTP_OK);
            assert_true(ok);
            for (size_t q = 0; q < bin->n_tasks; q++)
                assert_int_equal(rt[q], bin->tasks[q].response_time_ns);
        }
    }
    for (size_t i = 0; i < s->ts.n_tasks; i++)
        assert_int_equal(seen[i], 1);
}

static rtp_ilp_opts opts_for(rtp_policy policy)
{
    rtp_ilp_opts o = rtp_ilp_opts_default();
    o.part.policy = policy;
    o.time_limit_s = 30.0;
    return o;
}

static rtp_ilp_status solve(const set *s, const rtp_ilp_opts *o, rtp_plan *p, rtp_ilp_stats *stats)
{
    rtp_ilp_status status = (rtp_ilp_status)-1;
    rtp_diag d;
    rtp_diag_clear(&d);
    rtp_status st = rtp_ilp_solve(&s->ts, s->cpus, s->m, o, p, &status, stats, &d);
    if (st != RTP_OK)
        fail_msg("rtp_ilp_solve: %s: %s", rtp_status_name(st), d.message);
    assert_string_equal(p->status, rtp_ilp_status_name(status));
    return status;
}

/* ---- random small sets ---- */

static void random_set(tu_rng *rng, set *s, size_t n, size_t m, int deadlines, int affinity)
{
    set_init(s, n, m);
    double per_cpu = 0.55 + (double)tu_range(rng, 0, 50) / 100.0;
    int64_t w[MAXN], total = 0;
    for (size_t i = 0; i < n; i++)
        total += w[i] = tu_range(rng, 1, 100);
    for (size_t i = 0; i < n; i++) {
        rtp_ns t = tu_range(rng, 5, 60);
        rtp_ns c = llround(per_cpu * (double)m * (double)w[i] / (double)total * (double)t);
        c = c < 1 ? 1 : c > t ? t : c;
        rtp_ns d = deadlines == 0 ? t : deadlines == 1 ? tu_range(rng, c, t) : tu_range(rng, c, 2 * t);
        set_task(s, i, c, d, t);
        if (affinity && tu_range(rng, 0, 2) == 0) {
            size_t len = 0;
            for (size_t j = 0; j < m; j++)
                if (tu_range(rng, 0, 1))
                    s->affinity[i][len++] = (int)j;
            if (len == 0)
                s->affinity[i][len++] = (int)tu_range(rng, 0, (int64_t)m - 1);
            s->tasks[i].affinity = s->affinity[i];
            s->tasks[i].affinity_len = len;
        }
    }
}

static void small_sets(rtp_policy policy, uint64_t seed, int count)
{
    tu_rng rng = {seed};
    int feasible = 0, infeasible = 0, objective_checks = 0;
    long cuts = 0;
    for (int k = 0; k < count; k++) {
        int affinity = k % 4 == 3;
        size_t m = (size_t)tu_range(&rng, 2, affinity ? 3 : 4);
        size_t n = (size_t)tu_range(&rng, 3, affinity ? 8 : 10);
        set s;
        random_set(&rng, &s, n, m, k % 3, affinity);
        if (k % 7 == 6)
            s.cap = (rtp_ratio){9, 10};
        int small = n <= 8;
        ref r = reference(&s, policy, small);
        rtp_ilp_opts o = opts_for(policy);
        o.part.capacity = s.cap;
        o.warm_start = k % 5 == 0;
        o.symmetry_breaking = k % 2 == 0;
        o.lp_rounding = k % 3 != 0; /* without it the lazy rows do all the work */
        rtp_plan p;
        rtp_ilp_stats stats;
        rtp_ilp_status status = solve(&s, &o, &p, &stats);
        cuts += stats.cuts;
        if (r.found) {
            if (status != RTP_ILP_OPTIMAL)
                fail_msg("set %d: exhaustive search finds a partition, ILP says %s", k,
                         rtp_ilp_status_name(status));
            size_t used;
            double worst;
            check_plan(&s, &p, policy, &used, &worst);
            feasible++;
        } else {
            if (status != RTP_ILP_INFEASIBLE)
                fail_msg("set %d: no partition exists, ILP says %s", k, rtp_ilp_status_name(status));
            assert_false(p.feasible);
            assert_int_equal(p.n_unassigned, n);
            infeasible++;
        }
        rtp_plan_free(&p);
        if (!r.found || !small || k % 3 != 0)
            continue;
        /* objectives against the exhaustive optimum */
        for (int obj = RTP_ILP_MIN_CPUS; obj <= RTP_ILP_BALANCED; obj++) {
            o.objective = (rtp_ilp_objective)obj;
            status = solve(&s, &o, &p, &stats);
            assert_int_equal(status, RTP_ILP_OPTIMAL);
            size_t used;
            double worst;
            check_plan(&s, &p, policy, &used, &worst);
            if (obj == RTP_ILP_MIN_CPUS && used != r.best_used)
                fail_msg("set %d: min-cpus uses %zu CPUs, the optimum is %zu", k, used, r.best_used);
            if (obj == RTP_ILP_BALANCED && fabs(worst - r.best_max) > 1e-9)
                fail_msg("set %d: balanced gives %.12f, the optimum is %.12f", k, worst, r.best_max);
            rtp_plan_free(&p);
            objective_checks++;
        }
    }
    print_message("%s: %d sets, %d feasible, %d infeasible, %d objective checks, %ld lazy rows\n",
                  rtp_policy_name(policy), count, feasible, infeasible, objective_checks, cuts);
    assert_true(feasible > count / 5 && infeasible > count / 10 && cuts > count);
}

static void test_small_edf(void **state)
{
    (void)state;
    small_sets(RTP_POLICY_EDF, 0x11f, 500);
}

static void test_small_fp(void **state)
{
    (void)state;
    small_sets(RTP_POLICY_FP, 0x22f, 400);
}

/* ---- feasible by construction, where the fit heuristics fail ---- */

/* Each CPU gets k tasks whose utilizations (in 1/1000) sum to `fill`; the
 * tasks are then shuffled. Periods are multiples of 1000 ns. */
static void constructed(tu_rng *rng, set *s, size_t n, size_t m)
{
    set_init(s, n, m);
    size_t i = 0;
    for (size_t j = 0; j < m; j++) {
        size_t k = n / m + (j < n % m);
        int64_t fill = tu_range(rng, 975, 1000), rest = fill - 40 * (int64_t)k;
        int64_t w[MAXN], total = 0;
        for (size_t q = 0; q < k; q++)
            total += w[q] = tu_range(rng, 1, 100);
        for (size_t q = 0; q < k; q++) {
            int64_t share = 40 + rest * w[q] / total;
            fill -= share;
            if (q + 1 == k)
                share += fill; /* rounding leftovers: the CPU sums to its fill */
            rtp_ns t = 1000 * tu_range(rng, 1, 5);
            set_task(s, i++, share * t / 1000, t, t);
        }
    }
    for (size_t a = n; a > 1; a--) {
        size_t b = (size_t)tu_range(rng, 0, (int64_t)a - 1);
        rtp_task tmp = s->tasks[a - 1];
        s->tasks[a - 1] = s->tasks[b];
        s->tasks[b] = tmp;
    }
}

static int heuristic_feasible(const set *s, rtp_placement place)
{
    rtp_part_opts o = rtp_part_opts_default();
    o.placement = place;
    o.order = RTP_ORDER_UTIL;
    rtp_plan p;
    assert_int_equal(rtp_part_pack(&s->ts, s->cpus, s->m, &o, &p, NULL), RTP_OK);
    int ok = p.feasible;
    rtp_plan_free(&p);
    return ok;
}

static void test_constructed(void **state)
{
    (void)state;
    static const size_t shapes[][2] = {{20, 4}, {24, 4}, {30, 6}, {32, 8}, {36, 6}, {40, 8}};
    tu_rng rng = {0xc0ffee};
    for (size_t sh = 0; sh < sizeof shapes / sizeof shapes[0]; sh++) {
        size_t n = shapes[sh][0], m = shapes[sh][1];
        int solved = 0, tries = 0;
        while (solved < 2 && tries++ < 400) {
            set s;
            constructed(&rng, &s, n, m);
            if (heuristic_feasible(&s, RTP_PLACE_FF) || heuristic_feasible(&s, RTP_PLACE_BF) ||
                heuristic_feasible(&s, RTP_PLACE_WF))
                continue;
            rtp_ilp_opts o = opts_for(RTP_POLICY_EDF);
            o.warm_start = 0; /* GLPK's plan, not the heuristics' */
            rtp_plan p;
            rtp_ilp_stats stats;
            rtp_ilp_status status = solve(&s, &o, &p, &stats);
            if (status != RTP_ILP_OPTIMAL)
                fail_msg("n=%zu m=%zu: a partition exists, ILP says %s", n, m,
                         rtp_ilp_status_name(status));
            size_t used;
            double worst;
            check_plan(&s, &p, RTP_POLICY_EDF, &used, &worst);
            rtp_plan_free(&p);
            solved++;
        }
        if (solved < 2)
            fail_msg("n=%zu m=%zu: too few sets where FFD, BFD and WFD all fail", n, m);
    }
}

/* ---- infeasible by proof ---- */

static void test_pigeonhole_infeasible(void **state)
{
    (void)state;
    tu_rng rng = {0x9};
    for (size_t m = 2; m <= 8; m++)
        for (int policy = RTP_POLICY_EDF; policy <= RTP_POLICY_FP; policy++) {
            set s;
            set_init(&s, m + 1 + 3, m);
            for (size_t i = 0; i <= m; i++)
                set_task(&s, i, 51 + tu_range(&rng, 0, 20), 100, 100);
            for (size_t i = m + 1; i < m + 4; i++)
                set_task(&s, i, 1, 50, 100);
            rtp_ilp_opts o = opts_for((rtp_policy)policy);
            rtp_plan p;
            rtp_ilp_stats stats;
            assert_int_equal(solve(&s, &o, &p, &stats), RTP_ILP_INFEASIBLE);
            assert_false(p.feasible);
            rtp_plan_free(&p);
        }
}

/* Regression: more CPUs than tasks + 1 overflowed the row scratch arrays
 * (sized by tasks) in the assignment and symmetry rows. */
static void test_more_cpus_than_tasks(void **state)
{
    (void)state;
    for (size_t m = 3; m <= 8; m++)
        for (int obj = RTP_ILP_FEASIBILITY; obj <= RTP_ILP_BALANCED; obj++) {
            set s;
            set_init(&s, 2, m);
            set_task(&s, 0, 3, 4, 4);
            set_task(&s, 1, 1, 4, 4);
            rtp_ilp_opts o = opts_for(obj % 2 ? RTP_POLICY_FP : RTP_POLICY_EDF);
            o.objective = (rtp_ilp_objective)obj;
            o.warm_start = 0;
            rtp_plan p;
            rtp_ilp_stats stats;
            assert_int_equal(solve(&s, &o, &p, &stats), RTP_ILP_OPTIMAL);
            assert_true(p.feasible);
            assert_int_equal(p.n_bins, m);
            rtp_plan_free(&p);
        }
}

/* ---- input rules ---- */

static void test_inputs(void **state)
{
    (void)state;
    set s;
    set_init(&s, 2, 2);
    set_task(&s, 0, 1, 4, 4);
    set_task(&s, 1, 1, 4, 4);
    s.affinity[1][0] = 5;
    s.tasks[1].affinity = s.affinity[1];
    s.tasks[1].affinity_len = 1;
    rtp_ilp_opts o = opts_for(RTP_POLICY_EDF);
    rtp_plan p;
    rtp_ilp_status status;
    rtp_diag d;
    rtp_diag_clear(&d);
    assert_int_equal(rtp_ilp_solve(&s.ts, s.cpus, 2, &o, &p, &status, NULL, &d), RTP_EINPUT);
    assert_string_equal(d.path, "tasks[1].affinity");
    assert_int_equal(rtp_ilp_solve(&s.ts, s.cpus, 0, &o, &p, &status, NULL, &d), RTP_EINPUT);
    o.part.policy = RTP_POLICY_GEDF;
    assert_int_equal(rtp_ilp_solve(&s.ts, s.cpus, 2, &o, &p, &status, NULL, &d), RTP_EINPUT);

    /* affinity honoured; a task no CPU can hold alone: infeasible */
    s.affinity[1][0] = 1;
    o = opts_for(RTP_POLICY_FP);
    assert_int_equal(solve(&s, &o, &p, NULL), RTP_ILP_OPTIMAL);
    assert_int_equal(p.bins[1].n_tasks, 1);
    rtp_plan_free(&p);
    set_task(&s, 0, 5, 4, 4);
    char lp[] = "/tmp/rtp_ilp_lp_XXXXXX";
    int fd = mkstemp(lp);
    assert_true(fd >= 0);
    close(fd);
    o.write_lp_path = lp; /* the model with an empty assignment row reads back */
    rtp_ilp_stats stats;
    assert_int_equal(solve(&s, &o, &p, &stats), RTP_ILP_INFEASIBLE);
    rtp_plan_free(&p);
    int rows, cols, bins;
    assert_int_equal(rtp_glpk_read_lp_counts(lp, &rows, &cols, &bins, NULL), RTP_OK);
    assert_int_equal(rows, stats.rows);
    assert_int_equal(cols, stats.cols);
    unlink(lp);
    o.write_lp_path = NULL;

    /* no tasks: optimal, empty CPUs */
    s.ts.n_tasks = 0;
    o.warm_start = 0;
    assert_int_equal(solve(&s, &o, &p, NULL), RTP_ILP_OPTIMAL);
    assert_true(p.feasible);
    assert_int_equal(p.n_bins, 2);
    rtp_plan_free(&p);
}

/* ---- --write-lp ---- */

static void test_write_lp(void **state)
{
    (void)state;
    tu_rng rng = {0x1b};
    set s;
    random_set(&rng, &s, 8, 3, 1, 0);
    char dir[] = "/tmp/rtp_ilp_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[128];
    snprintf(path, sizeof path, "%s/model.lp", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("old content\n", f);
    fclose(f);
    for (int obj = RTP_ILP_FEASIBILITY; obj <= RTP_ILP_BALANCED; obj++) {
        rtp_ilp_opts o = opts_for(RTP_POLICY_EDF);
        o.objective = (rtp_ilp_objective)obj;
        o.warm_start = 0;
        o.write_lp_path = path;
        rtp_plan p;
        rtp_ilp_stats stats;
        solve(&s, &o, &p, &stats);
        rtp_plan_free(&p);
        int rows = -1, cols = -1, bins = -1;
        assert_int_equal(rtp_glpk_read_lp_counts(path, &rows, &cols, &bins, NULL), RTP_OK);
        assert_int_equal(rows, stats.rows);
        assert_int_equal(cols, stats.cols);
        assert_int_equal(bins, stats.cols - (obj == RTP_ILP_BALANCED));
    }
    /* nothing left behind but the model */
    char cmd[256];
    snprintf(cmd, sizeof cmd, "test $(ls -A %s | wc -l) -eq 1", dir);
    assert_int_equal(system(cmd), 0);

    /* refused: /dev/null, a folder, a symlink; each left as it was */
    char link[160];
    snprintf(link, sizeof link, "%s/link.lp", dir);
    assert_int_equal(symlink(path, link), 0);
    const char *bad[] = {"/dev/null", dir, link};
    for (size_t b = 0; b < 3; b++) {
        rtp_ilp_opts o = opts_for(RTP_POLICY_EDF);
        o.write_lp_path = bad[b];
        rtp_plan p;
        rtp_ilp_status status;
        rtp_diag d;
        rtp_diag_clear(&d);
        assert_int_equal(rtp_ilp_solve(&s.ts, s.cpus, s.m, &o, &p, &status, NULL, &d), RTP_EINPUT);
        assert_non_null(strstr(d.message, "not a regular file"));
    }
    struct stat sb;
    assert_int_equal(stat("/dev/null", &sb), 0);
    assert_true(S_ISCHR(sb.st_mode));
    assert_int_equal(lstat(link, &sb), 0);
    assert_true(S_ISLNK(sb.st_mode));
    unlink(link);
    unlink(path);
    rmdir(dir);
}

/* ---- time limit ---- */

/* 24 tasks at U = 0.99 x 8 (UUniFast) with no partition on 8 CPUs: the ILP
 * proves it with symmetry breaking in about a second; without it branch and
 * bound runs far past 10 s, so a 0.3 s limit must say "time_limit". */
static const rtp_ns hard_set[][2] = {
    {57564, 73000}, {16549, 18000}, {8176, 87000}, {8091, 30000}, {4618, 74000},
    {10859, 46000}, {1721, 11000},  {17613, 68000}, {21340, 91000}, {1164, 50000},
    {24653, 51000}, {10115, 47000}, {8758, 18000}, {1535, 23000}, {9317, 26000},
    {17455, 75000}, {2040, 35000},  {7347, 13000}, {3530, 58000}, {41470, 60000},
    {9570, 35000},  {26704, 65000}, {2689, 87000}, {17911, 19000}};

static void test_time_limit(void **state)
{
    (void)state;
    set s;
    size_t n = sizeof hard_set / sizeof hard_set[0];
    set_init(&s, n, 8);
    for (size_t i = 0; i < n; i++)
        set_task(&s, i, hard_set[i][0], hard_set[i][1], hard_set[i][1]);
    rtp_ilp_opts o = opts_for(RTP_POLICY_EDF);
    rtp_plan p;
    rtp_ilp_stats stats;
    assert_int_equal(solve(&s, &o, &p, &stats), RTP_ILP_INFEASIBLE);
    rtp_plan_free(&p);
    o.symmetry_breaking = 0;
    o.time_limit_s = 0.3;
    assert_int_equal(solve(&s, &o, &p, &stats), RTP_ILP_TIME_LIMIT);
    assert_false(p.feasible);
    assert_string_equal(p.status, "time_limit");
    assert_true(stats.seconds < 2.0);
    rtp_plan_free(&p);

    /* with a verified plan in hand (the warm start), a time-out returns it */
    tu_rng rng = {0x77};
    set big;
    constructed(&rng, &big, 40, 8);
    for (size_t i = 0; i < 40; i++)
        big.tasks[i].wcet_ns = big.tasks[i].wcet_ns * 9 / 10 + 1;
    o = opts_for(RTP_POLICY_EDF);
    o.objective = RTP_ILP_BALANCED;
    o.time_limit_s = 0.001;
    rtp_ilp_status status = solve(&big, &o, &p, &stats);
    assert_true(status == RTP_ILP_TIME_LIMIT || status == RTP_ILP_OPTIMAL);
    size_t used;
    double worst;
    check_plan(&big, &p, RTP_POLICY_EDF, &used, &worst);
    rtp_plan_free(&p);
}

/* ---- threads ---- */

static void test_threads(void **state)
{
    (void)state;
    enum { SETS = 8 };
    static set sets[SETS];
    int seq[SETS], par[SETS];
    tu_rng rng = {0x5eed};
    for (int k = 0; k < SETS; k++)
        random_set(&rng, &sets[k], 9, 3, k % 3, 0);
    for (int k = 0; k < SETS; k++) {
        rtp_ilp_opts o = opts_for(k % 2 ? RTP_POLICY_FP : RTP_POLICY_EDF);
        o.warm_start = 0;
        rtp_plan p;
        seq[k] = (int)solve(&sets[k], &o, &p, NULL);
        rtp_plan_free(&p);
    }
    int errors = 0;
#pragma omp parallel for schedule(dynamic) reduction(+ : errors)
    for (int k = 0; k < SETS; k++) {
        rtp_ilp_opts o = opts_for(k % 2 ? RTP_POLICY_FP : RTP_POLICY_EDF);
        o.warm_start = 0;
        rtp_plan p;
        rtp_ilp_status status;
        errors += rtp_ilp_solve(&sets[k].ts, sets[k].cpus, sets[k].m, &o, &p, &status, NULL, NULL) != RTP_OK;
        par[k] = (int)status;
        rtp_plan_free(&p);
    }
    assert_int_equal(errors, 0);
    for (int k = 0; k < SETS; k++)
        assert_int_equal(seq[k], par[k]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_inputs),
        cmocka_unit_test(test_pigeonhole_infeasible),
        cmocka_unit_test(test_more_cpus_than_tasks),
        cmocka_unit_test(test_write_lp),
        cmocka_unit_test(test_time_limit),
        cmocka_unit_test(test_threads),
        cmocka_unit_test(test_small_edf),
        cmocka_unit_test(test_small_fp),
        cmocka_unit_test(test_constructed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
