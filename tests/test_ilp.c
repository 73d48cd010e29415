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
 *   "infeasible". Solves in OpenMP threads agree with sequential ones.
 * - Certificates: generated families of each kind (total utilization over
 *   M by one part in 10^8, (M+1)-cliques of pairwise-conflicting
 *   constrained-deadline tasks hidden among 20..40 ordinary tasks, affinity
 *   Hall violations, a clique plus tasks that conflict with all of it, a
 *   task that fails alone) are answered "infeasible" with that kind and no
 *   GLPK solve; thousands of random small sets run each pre-check alone
 *   against the exhaustive search (a certificate on a set it partitions is a
 *   failure). Every certificate is re-checked by verify_proof, written
 *   here from the definitions: pairs through the exact test directly,
 *   utilization sums in GMP, CPU sets from the affinities. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <gmp.h>
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

#define MAXN 64
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

static void verify_proof(const set *s, rtp_policy policy, const rtp_plan_proof *pr);

static void small_sets(rtp_policy policy, uint64_t seed, int count)
{
    tu_rng rng = {seed};
    int feasible = 0, infeasible = 0, objective_checks = 0, proofs[RTP_PROOF_SEARCH + 1] = {0};
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
        if (k % 2) { /* the model without pre-checks and clique rows: lazy rows at work */
            o.prechecks = 0;
            o.conflict_rows = 0;
        }
        rtp_plan p;
        rtp_ilp_stats stats;
        rtp_ilp_status status = solve(&s, &o, &p, &stats);
        cuts += k % 2 ? stats.cuts : 0;
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
            /* every "infeasible" carries its certificate, re-checked here */
            if (strcmp(p.proof.kind, "search") == 0)
                assert_int_equal(p.proof.n_tasks, n);
            else
                verify_proof(&s, policy, &p.proof);
            proofs[stats.proof]++;
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
    print_message("%s: %d sets, %d feasible, %d infeasible (%d by search), %d objective checks, "
                  "%ld lazy rows (without pre-checks and clique rows)\n",
                  rtp_policy_name(policy), count, feasible, infeasible, proofs[RTP_PROOF_SEARCH],
                  objective_checks, cuts);
    assert_true(feasible > count / 5 && infeasible > count / 10 && cuts > count / 2);
    assert_true(proofs[RTP_PROOF_SEARCH] > 0);
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

    /* refused: /dev/null, a folder, each left as it was; a link to a
     * regular file is replaced by the model, as every rtpack output does
     * (models/fileio.h; it used to be refused here alone, audit rev13c) */
    char link[160];
    snprintf(link, sizeof link, "%s/link.lp", dir);
    assert_int_equal(symlink(path, link), 0);
    const char *bad[] = {"/dev/null", dir};
    for (size_t b = 0; b < 2; b++) {
        rtp_ilp_opts o = opts_for(RTP_POLICY_EDF);
        o.write_lp_path = bad[b];
        rtp_plan p;
        rtp_ilp_status status;
        rtp_diag d;
        rtp_diag_clear(&d);
        assert_int_equal(rtp_ilp_solve(&s.ts, s.cpus, s.m, &o, &p, &status, NULL, &d), RTP_EINPUT);
        assert_non_null(strstr(d.message, "rtpack writes only regular files"));
    }
    struct stat sb;
    assert_int_equal(stat("/dev/null", &sb), 0);
    assert_true(S_ISCHR(sb.st_mode));
    {
        rtp_ilp_opts o = opts_for(RTP_POLICY_EDF);
        o.write_lp_path = link;
        rtp_plan p;
        rtp_ilp_status status;
        rtp_diag d;
        assert_int_equal(rtp_ilp_solve(&s.ts, s.cpus, s.m, &o, &p, &status, NULL, &d), RTP_OK);
        rtp_plan_free(&p);
        assert_int_equal(lstat(link, &sb), 0);
        assert_true(S_ISREG(sb.st_mode));
    }
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

/* ---- certificates ---- */

/* CPUs (indices into s->cpus) task i may use by its affinity. */
static int usable(const set *s, size_t i, size_t j)
{
    return may_run(&s->tasks[i], s->cpus[j]);
}

static void mpq_util(mpq_t sum, const set *s, const size_t *idx, size_t k)
{
    mpq_t term;
    mpq_init(term);
    mpq_set_ui(sum, 0, 1);
    for (size_t q = 0; q < k; q++) {
        mpq_set_si(term, s->tasks[idx[q]].wcet_ns, (unsigned long)s->tasks[idx[q]].period_ns);
        mpq_canonicalize(term);
        mpq_add(sum, sum, term);
    }
    mpq_clear(term);
}

/* sign(U(idx) - capacity x cpus), in GMP. */
static int gmp_over(const set *s, const size_t *idx, size_t k, size_t cpus)
{
    mpq_t sum, bound;
    mpq_inits(sum, bound, NULL);
    mpq_util(sum, s, idx, k);
    mpq_set_si(bound, s->cap.num * (int64_t)cpus, (unsigned long)s->cap.den);
    mpq_canonicalize(bound);
    int r = mpq_cmp(sum, bound);
    mpq_clears(sum, bound, NULL);
    return r;
}

/* The tasks fail together on one CPU: over the capacity (GMP) or rejected
 * by the policy's exact test, called directly. */
static int fails_together(const set *s, rtp_policy policy, const size_t *idx, size_t k)
{
    if (gmp_over(s, idx, k, 1) > 0)
        return 1;
    rtp_task sub[MAXN];
    for (size_t q = 0; q < k; q++)
        sub[q] = s->tasks[idx[q]];
    rtp_limits lim = rtp_limits_default();
    if (policy == RTP_POLICY_EDF) {
        rtp_edf_result er;
        assert_int_equal(rtp_edf_qpa(sub, k, 0, &lim, &er, NULL), RTP_OK);
        return !er.schedulable;
    }
    int prio[MAXN], found = 0;
    assert_int_equal(rtp_fp_assign(sub, k, RTP_PRIO_OPA, prio, &found, &lim, NULL), RTP_OK);
    return !found;
}

static int conflict(const set *s, rtp_policy policy, size_t a, size_t b)
{
    size_t pair[2] = {a, b};
    return fails_together(s, policy, pair, 2);
}

/* Number of CPUs in the union of the tasks' usable CPUs; *mask gets it. */
static size_t union_cpus(const set *s, const size_t *idx, size_t k, int *mask)
{
    size_t count = 0;
    for (size_t j = 0; j < s->m; j++) {
        mask[j] = 0;
        for (size_t q = 0; q < k; q++)
            mask[j] |= usable(s, idx[q], j);
        count += (size_t)mask[j];
    }
    return count;
}

/* Re-checks a certificate from the definitions alone. */
static void verify_proof(const set *s, rtp_policy policy, const rtp_plan_proof *pr)
{
    size_t idx[MAXN], k = pr->n_tasks;
    assert_true(k >= 1 && k <= s->ts.n_tasks);
    assert_non_null(pr->explanation);
    assert_true(strlen(pr->explanation) > 10);
    for (size_t q = 0; q < k; q++) {
        rtp_task probe = tu_task(1, 1, 1);
        probe.name = pr->tasks[q];
        idx[q] = index_of(s, &probe);
        for (size_t p = 0; p < q; p++)
            assert_true(idx[p] != idx[q]);
    }
    int mask[MAXM];
    size_t cpus = union_cpus(s, idx, k, mask);
    if (strcmp(pr->kind, "task-alone") == 0) {
        assert_int_equal(k, 1);
        assert_true(fails_together(s, policy, idx, 1));
    } else if (strcmp(pr->kind, "utilization") == 0 || strcmp(pr->kind, "affinity") == 0) {
        assert_int_equal(pr->n_cpus, cpus); /* the proof names exactly N(S) */
        for (size_t q = 0; q < pr->n_cpus; q++) {
            size_t j = 0;
            while (j < s->m && s->cpus[j] != pr->cpus[q])
                j++;
            assert_true(j < s->m && mask[j]);
        }
        if (strcmp(pr->kind, "utilization") == 0)
            assert_int_equal(k, s->ts.n_tasks);
        assert_true(gmp_over(s, idx, k, cpus) > 0);
    } else if (strcmp(pr->kind, "conflict-clique") == 0) {
        for (size_t p = 0; p < k; p++)
            for (size_t q = p + 1; q < k; q++)
                assert_true(conflict(s, policy, idx[p], idx[q]));
        assert_true(cpus < k);
    } else if (strcmp(pr->kind, "clique-volume") == 0) {
        size_t kk = pr->clique, r = k - kk;
        assert_true(kk >= 1 && r >= 1);
        for (size_t p = 0; p < kk; p++)
            for (size_t q = p + 1; q < k; q++)
                assert_true(conflict(s, policy, idx[p], idx[q]));
        int nk[MAXM], nr[MAXM];
        union_cpus(s, idx, kk, nk);
        size_t n_nr = union_cpus(s, idx + kk, r, nr), outside = 0;
        for (size_t j = 0; j < s->m; j++)
            outside += (size_t)(nk[j] && !nr[j]);
        /* K holds kk distinct CPUs, at most `outside` of them out of R's reach */
        size_t held = kk > outside ? kk - outside : 0, left = n_nr > held ? n_nr - held : 0;
        assert_true(gmp_over(s, idx + kk, r, left) > 0);
    } else {
        fail_msg("unexpected certificate kind %s", pr->kind);
    }
}

/* Periods that divide 10^9, so utilizations sum exactly over 10^9. */
static const rtp_ns ns_periods[] = {100000000, 200000000, 250000000, 500000000, 1000000000};

/* Tasks first..first+k-1 get utilizations summing to exactly target / 10^9
 * (weights in [wlo, whi]); the last one has period 10^9 and takes the rest. */
static void exact_group(tu_rng *rng, set *s, size_t first, size_t k, int64_t target, int64_t wlo,
                        int64_t whi)
{
    int64_t w[MAXN], total = 0, sum = 0;
    for (size_t q = 0; q < k; q++)
        total += w[q] = tu_range(rng, wlo, whi);
    for (size_t q = 0; q + 1 < k; q++) {
        rtp_ns t = ns_periods[tu_range(rng, 0, 4)];
        rtp_ns c = (rtp_ns)((__int128)target * w[q] / total / (1000000000 / t));
        c = c < 1 ? 1 : c;
        set_task(s, first + q, c, t, t);
        sum += c * (1000000000 / t);
    }
    set_task(s, first + k - 1, target - sum, 1000000000, 1000000000);
    assert_true(target - sum > 0 && target - sum <= 1000000000);
}

static void shuffle(tu_rng *rng, set *s)
{
    for (size_t a = s->ts.n_tasks; a > 1; a--) {
        size_t b = (size_t)tu_range(rng, 0, (int64_t)a - 1);
        rtp_task tmp = s->tasks[a - 1];
        s->tasks[a - 1] = s->tasks[b];
        s->tasks[b] = tmp;
    }
}

/* Ordinary tasks first..end-1: implicit deadlines, periods 1..100 ms,
 * utilization `each` (in 1/10^4) +-50%. */
static void ordinary(tu_rng *rng, set *s, size_t first, size_t end, int64_t each)
{
    for (size_t i = first; i < end; i++) {
        rtp_ns t = 1000000 * tu_range(rng, 1, 100);
        set_task(s, i, t / 10000 * tu_range(rng, each / 2, each + each / 2), t, t);
    }
}

typedef enum family {
    FAM_UTIL = 0, FAM_CLIQUE, FAM_AFFINITY, FAM_VOLUME, FAM_ALONE, N_FAMILIES
} family;

static const char *const family_kind[] = {"utilization", "conflict-clique", "affinity",
                                          "clique-volume", "task-alone"};

static void make_family(tu_rng *rng, set *s, family f)
{
    size_t m = (size_t)tu_range(rng, f == FAM_VOLUME || f == FAM_AFFINITY ? 3 : 2, MAXM);
    size_t extra = (size_t)tu_range(rng, 20, 40);
    switch (f) {
    case FAM_UTIL: /* total = m (1 + 10^-8) exactly */
        set_init(s, extra, m);
        exact_group(rng, s, 0, extra, (int64_t)m * 1000000010, 20, 100);
        break;
    case FAM_CLIQUE: /* m + 1 tasks, any two miss a deadline together */
        set_init(s, m + 1 + extra, m);
        for (size_t i = 0; i <= m; i++)
            set_task(s, i, 1000 * tu_range(rng, 61, 70), 1000 * tu_range(rng, 100, 120),
                     1000000 * tu_range(rng, 10, 50));
        ordinary(rng, s, m + 1, m + 1 + extra, 5000 * (int64_t)m / (int64_t)extra);
        break;
    case FAM_AFFINITY: { /* g CPUs, tasks allowed only there, U = g (1 + 10^-8) */
        size_t g = (size_t)tu_range(rng, 1, (int64_t)m - 1), k = (size_t)tu_range(rng, 2 * g, 4 * g);
        set_init(s, k + extra, m);
        exact_group(rng, s, 0, k, (int64_t)g * 1000000010, 60, 100);
        for (size_t i = 0; i < k; i++) {
            size_t len = 0;
            for (size_t j = 0; j < g; j++)
                if (tu_range(rng, 0, 3) || j + 1 == g)
                    s->affinity[i][len++] = (int)j;
            s->tasks[i].affinity = s->affinity[i];
            s->tasks[i].affinity_len = len;
        }
        ordinary(rng, s, k, k + extra, 4000 * (int64_t)(m - g) / (int64_t)extra);
        break;
    }
    case FAM_VOLUME: /* m - 1 tasks above 0.58, 3 above 0.43: no two of the first
                      * group, and no first with a second, share a CPU */
        set_init(s, m - 1 + 3 + extra, m);
        for (size_t i = 0; i < m - 1; i++)
            set_task(s, i, 1000 * tu_range(rng, 58, 62), 100000, 100000);
        for (size_t i = m - 1; i < m + 2; i++)
            set_task(s, i, 1000 * tu_range(rng, 43, 47), 100000, 100000);
        ordinary(rng, s, m + 2, m + 2 + extra, 50);
        break;
    default: /* one task with wcet > deadline */
        set_init(s, extra, m);
        ordinary(rng, s, 0, extra, 2000 * (int64_t)m / (int64_t)extra);
        set_task(s, 0, 2000000, 1000000, 5000000);
        break;
    }
    shuffle(rng, s);
    for (size_t i = 0; i < s->ts.n_tasks; i++) /* names follow the shuffle */
        s->tasks[i].name = s->names[i];
}

static void test_certificate_families(void **state)
{
    (void)state;
    tu_rng rng = {0xce57};
    for (int f = 0; f < N_FAMILIES; f++)
        for (int policy = RTP_POLICY_EDF; policy <= RTP_POLICY_FP; policy++)
            for (int k = 0; k < 8; k++) {
                set s;
                make_family(&rng, &s, (family)f);
                rtp_ilp_opts o = opts_for((rtp_policy)policy);
                rtp_plan p;
                rtp_ilp_stats stats;
                rtp_ilp_status status = solve(&s, &o, &p, &stats);
                if (status != RTP_ILP_INFEASIBLE || strcmp(p.proof.kind, family_kind[f]) != 0)
                    fail_msg("family %s, %s, set %d: %s with proof '%s'", family_kind[f],
                             rtp_policy_name((rtp_policy)policy), k, rtp_ilp_status_name(status),
                             p.proof.kind);
                assert_int_equal(stats.rounds, 0); /* no GLPK solve needed */
                assert_int_equal(stats.proof, f == FAM_UTIL ? RTP_PROOF_UTILIZATION
                                              : f == FAM_CLIQUE ? RTP_PROOF_CLIQUE
                                              : f == FAM_AFFINITY ? RTP_PROOF_AFFINITY
                                              : f == FAM_VOLUME ? RTP_PROOF_CLIQUE_VOLUME
                                                                : RTP_PROOF_TASK_ALONE);
                verify_proof(&s, (rtp_policy)policy, &p.proof);
                if (f == FAM_CLIQUE)
                    assert_int_equal(p.proof.n_tasks, s.m + 1);
                /* the plan document carries it and reads back */
                char *text = rtp_plan_to_json(&p, 0);
                assert_non_null(text);
                rtp_plan back;
                assert_int_equal(rtp_plan_parse_json(text, strlen(text), &back, NULL), RTP_OK);
                assert_string_equal(back.proof.kind, p.proof.kind);
                assert_string_equal(back.proof.explanation, p.proof.explanation);
                assert_int_equal(back.proof.n_tasks, p.proof.n_tasks);
                assert_int_equal(back.proof.n_cpus, p.proof.n_cpus);
                assert_int_equal(back.proof.clique, p.proof.clique);
                rtp_plan_free(&back);
                free(text);
                rtp_plan_free(&p);
            }
}

/* The ILP sees effective tasks (C' = wcet + 2 x context switch): four tasks
 * of 0.49 on two CPUs fit as declared, not with a 10 us context switch
 * (0.51 each); the certificate says "effective" and its sum is C'/T. */
static void test_effective_certificate(void **state)
{
    (void)state;
    set s;
    set_init(&s, 4, 2);
    for (size_t i = 0; i < 4; i++)
        set_task(&s, i, 490000, 1000000, 1000000);
    rtp_ilp_opts o = opts_for(RTP_POLICY_EDF);
    rtp_plan p;
    assert_int_equal(solve(&s, &o, &p, NULL), RTP_ILP_OPTIMAL);
    rtp_plan_free(&p);
    s.ts.platform.overheads.context_switch_ns = 10000;
    rtp_ilp_stats stats;
    assert_int_equal(solve(&s, &o, &p, &stats), RTP_ILP_INFEASIBLE);
    assert_string_equal(p.proof.kind, "utilization");
    assert_non_null(strstr(p.proof.explanation, "effective utilization"));
    assert_int_equal(stats.rounds, 0);
    mpq_t sum, term;
    mpq_inits(sum, term, NULL);
    for (size_t i = 0; i < 4; i++) { /* (wcet + 2 cs) / period, summed in GMP */
        mpq_set_si(term, s.tasks[i].wcet_ns + 2 * 10000, (unsigned long)s.tasks[i].period_ns);
        mpq_canonicalize(term);
        mpq_add(sum, sum, term);
    }
    mpq_set_si(term, 2, 1);
    assert_true(mpq_cmp(sum, term) > 0);
    mpq_clears(sum, term, NULL);
    rtp_plan_free(&p);
}

/* Without the pre-checks, GLPK itself must prove a total over M by 10^-9
 * (one ns in a 1 s period), far below its tolerance: the exact node check
 * (exact_nodes) does it at the root; without it the search is blind, and a
 * time limit must then say "time_limit", never "infeasible". */
static void test_exact_nodes(void **state)
{
    (void)state;
    tu_rng rng = {0xe8ac7};
    for (int k = 0; k < 6; k++) {
        set s;
        size_t m = (size_t)tu_range(&rng, 4, 8), n = (size_t)tu_range(&rng, 5 * (int64_t)m, 40);
        set_init(&s, n, m);
        exact_group(&rng, &s, 0, n, (int64_t)m * 1000000000 + 1, 20, 100);
        rtp_ilp_opts o = opts_for(k % 2 ? RTP_POLICY_FP : RTP_POLICY_EDF);
        o.prechecks = 0;
        o.warm_start = k % 3 == 0;
        rtp_plan p;
        rtp_ilp_stats stats;
        assert_int_equal(solve(&s, &o, &p, &stats), RTP_ILP_INFEASIBLE);
        assert_string_equal(p.proof.kind, "search");
        assert_int_equal(p.proof.n_tasks, n);
        assert_true(stats.node_cuts >= 1);
        rtp_plan_free(&p);
        if (k > 0)
            continue;
        o.exact_nodes = 0;
        o.time_limit_s = 0.5;
        assert_int_equal(solve(&s, &o, &p, &stats), RTP_ILP_TIME_LIMIT);
        assert_false(p.feasible);
        assert_int_equal(p.proof.kind[0], '\0');
        rtp_plan_free(&p);
    }
}

/* Random small sets in five styles that reach each certificate often:
 * near-full totals, tight affinities, constrained deadlines with large
 * wcet / deadline, large utilizations, and totals within 3 x 10^-9 of M. */
static void style_set(tu_rng *rng, set *s, int style)
{
    size_t m = (size_t)tu_range(rng, 2, 4), n = (size_t)tu_range(rng, 3, m == 4 ? 8 : 9);
    if (style == 4) { /* m <= 3 and n >= 2m + 2: every task stays below 1 */
        m = (size_t)tu_range(rng, 2, 3);
        n = (size_t)tu_range(rng, 2 * (int64_t)m + 2, 9);
        set_init(s, n, m);
        exact_group(rng, s, 0, n, (int64_t)m * 1000000000 + tu_range(rng, -3, 3), 50, 100);
        shuffle(rng, s);
        for (size_t i = 0; i < n; i++)
            s->tasks[i].name = s->names[i];
        return;
    }
    random_set(rng, s, n, m, (int)tu_range(rng, 0, 1), style == 1);
    for (size_t i = 0; i < n; i++) {
        rtp_task *t = &s->tasks[i];
        if (style == 0) { /* U/m in about [0.85, 1.1] */
            t->wcet_ns = t->wcet_ns * 100 / 70 + 1;
        } else if (style == 1 && tu_range(rng, 0, 9) < 7) { /* tight affinity */
            size_t len = 0;
            for (size_t j = 0; j < m; j++)
                if (tu_range(rng, 0, 2) == 0)
                    s->affinity[i][len++] = (int)j;
            if (len == 0 || len == m)
                len = 1, s->affinity[i][0] = (int)tu_range(rng, 0, (int64_t)m - 1);
            t->affinity = s->affinity[i];
            t->affinity_len = len;
        } else if (style == 2) { /* wcet 30..80% of a short deadline */
            t->period_ns = tu_range(rng, 40, 200);
            t->deadline_ns = tu_range(rng, 5, 30);
            t->wcet_ns = t->deadline_ns * tu_range(rng, 30, 80) / 100 + 1;
        } else if (style == 3) { /* utilization 0.3..0.7 */
            t->period_ns = tu_range(rng, 10, 60);
            t->deadline_ns = t->period_ns;
            t->wcet_ns = t->period_ns * tu_range(rng, 30, 70) / 100;
        }
        if (t->wcet_ns > t->period_ns * 2)
            t->wcet_ns = t->period_ns * 2;
    }
}

static void test_certificates_sound(void **state)
{
    (void)state;
    tu_rng rng = {0x50d};
    int fired[RTP_PROOF_SEARCH + 1] = {0}, feasible = 0, infeasible = 0, sets = 0;
    for (int k = 0; k < 4000; k++) {
        set s;
        style_set(&rng, &s, k % 5);
        if (k % 6 == 5)
            s.cap = (rtp_ratio){9, 10};
        rtp_policy policy = k % 3 == 2 ? RTP_POLICY_FP : RTP_POLICY_EDF;
        ref r = reference(&s, policy, 0);
        sets++;
        feasible += r.found;
        infeasible += !r.found;
        for (int kind = RTP_PROOF_TASK_ALONE; kind <= RTP_PROOF_CLIQUE_VOLUME; kind++) {
            rtp_ilp_opts o = opts_for(policy);
            o.part.capacity = s.cap;
            o.prechecks = RTP_PROOF_BIT(kind);
            rtp_plan_proof pr;
            rtp_diag d;
            rtp_diag_clear(&d);
            if (rtp_ilp_precheck(&s.ts, s.cpus, s.m, &o, &pr, NULL, &d) != RTP_OK)
                fail_msg("set %d: precheck: %s", k, d.message);
            if (pr.kind[0]) {
                if (r.found)
                    fail_msg("set %d (%s): certificate %s (%s) on a set the exhaustive search "
                             "partitions", k, rtp_policy_name(policy), pr.kind, pr.explanation);
                verify_proof(&s, policy, &pr);
                int got = 0;
                while (got <= RTP_PROOF_SEARCH && strcmp(rtp_ilp_proof_name((rtp_ilp_proof_kind)got), pr.kind) != 0)
                    got++;
                assert_true(got == kind || got == RTP_PROOF_TASK_ALONE); /* task-alone always runs */
                fired[got]++;
            }
            rtp_plan_proof_free(&pr);
        }
    }
    print_message("%d sets (%d feasible, %d infeasible); certificates: task-alone %d, utilization "
                  "%d, affinity %d, conflict-clique %d, clique-volume %d\n",
                  sets, feasible, infeasible, fired[RTP_PROOF_TASK_ALONE],
                  fired[RTP_PROOF_UTILIZATION], fired[RTP_PROOF_AFFINITY], fired[RTP_PROOF_CLIQUE],
                  fired[RTP_PROOF_CLIQUE_VOLUME]);
    assert_true(feasible > sets / 5 && infeasible > sets / 5);
    for (int kind = RTP_PROOF_TASK_ALONE; kind <= RTP_PROOF_CLIQUE_VOLUME; kind++)
        assert_true(fired[kind] >= 40);
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
        cmocka_unit_test(test_certificate_families),
        cmocka_unit_test(test_certificates_sound),
        cmocka_unit_test(test_exact_nodes),
        cmocka_unit_test(test_effective_certificate),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
