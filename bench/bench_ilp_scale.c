/* bench/bench_ilp_scale.c — the ILP at scale (100..200 tasks on 16..32
 * CPUs) and its infeasibility certificates (ilp/ilp_proof.c), against the
 * ILP without them in the same run.
 *
 * Configurations: "new" = the defaults (exact pre-checks, clique rows of the
 * conflict graph, exact node checks); "base" = prechecks, conflict_rows and
 * exact_nodes 0, the ILP as it was before (only the task-alone check, which
 * it always had); "rows only" = base plus clique rows and exact node checks
 * (what GLPK proves without the pre-checks). Each warm (the heuristic plan
 * as GLPK's first incumbent) and cold (warm_start 0).
 *
 * Part A, families (EDF; FP for the clique family too): feasible
 * (RandFixedSum U/m = 0.9; CPUs filled to 0.975..0.999 then shuffled) and
 * infeasible of every certificate kind (total over M by one part in 10^8,
 * and by 10^-9, one ns in a 1 s period;
 * an (M+1)-clique of pairwise-conflicting constrained-deadline tasks hidden
 * among ordinary ones; an affinity group over its CPUs by one part in 10^8;
 * M-1 tasks above 0.58 plus 3 above 0.43; 2M+1 tasks of 0.35, which the
 * existing cardinality rows refute at GLPK's root: "search"), and
 * RandFixedSum U/m = 0.99 (mixed). Per family: sets answered (optimal or
 * infeasible) within the limit, mean and largest time, the certificate
 * kinds, and the ratio of mean times new / base.
 * Part B, GLPK's own cuts (glp_iocp clq/cov/gmi/mir): on the sets where
 * GLPK has to search (RandFixedSum U/m = 0.99 and built sets with few tasks
 * per CPU, n = 16..24 on 8 CPUs and 100 / 200 on 16 / 32, cold, 4 x SETS each).
 *
 * Times are wall-clock; the load average is printed before and after.
 * usage: bench_ilp_scale [SETS (default 2)] [TIME_LIMIT_S (default 10)]
 *                        [SEED (default 1)] [PARTS (default AB)] */
#include "bench/bench_common.h"
#include "gen/gen.h"
#include "ilp/ilp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct row {
    int sets, answered, optimal, infeasible, errors;
    double seconds, worst, precheck;
    int kinds[RTP_PROOF_SEARCH + 1];
} row;

/* RandFixedSum utilizations, implicit deadlines, `n` tasks at total
 * `total_pct` / 100, periods from `set` (NULL: log-uniform 1 ms..1 s, 1 us). */
static int draw(size_t n, int64_t total_pct, const rtp_ns *set, size_t n_set, uint64_t seed,
                uint64_t index, rtp_taskset *ts)
{
    rtp_gen_opts g = rtp_gen_opts_default();
    g.n_tasks = n;
    g.total_util = (rtp_ratio){total_pct, 100};
    g.algo = RTP_GEN_RANDFIXEDSUM;
    g.period_min_ns = 1000000;
    g.period_max_ns = 1000000000;
    g.granularity_ns = 1000;
    g.period_set = set;
    g.n_period_set = n_set;
    return rtp_gen_taskset(&g, seed, n * 7919u + (uint64_t)total_pct, index, ts, NULL) == RTP_OK;
}

/* Appends k tasks to ts (names "X1".."Xk"), zeroed. */
static rtp_task *append(rtp_taskset *ts, size_t k)
{
    rtp_task *t = realloc(ts->tasks, (ts->n_tasks + k) * sizeof *t);
    if (!t)
        return NULL;
    ts->tasks = t;
    memset(t + ts->n_tasks, 0, k * sizeof *t);
    for (size_t q = 0; q < k; q++) {
        char name[24];
        snprintf(name, sizeof name, "X%zu", q + 1);
        t[ts->n_tasks + q].name = strdup(name);
    }
    ts->n_tasks += k;
    return t + ts->n_tasks - k;
}

static void set_times(rtp_task *t, rtp_ns c, rtp_ns d, rtp_ns p)
{
    t->wcet_ns = c;
    t->deadline_ns = d;
    t->period_ns = p;
}

static const rtp_ns divides_1s[] = {100000000, 200000000, 250000000, 500000000, 1000000000};

/* Makes sum C_i (10^9 / T_i) over tasks[first..] equal `target` (periods
 * all divide 10^9) by moving the difference onto the task with the largest
 * room below 1; 0 when no task can absorb it. */
static int settle(rtp_taskset *ts, size_t first, int64_t target)
{
    int64_t sum = 0;
    size_t best = first;
    for (size_t i = first; i < ts->n_tasks; i++) {
        rtp_task *t = &ts->tasks[i];
        sum += t->wcet_ns * (1000000000 / t->period_ns);
        if (t->period_ns == 1000000000 &&
            (ts->tasks[best].period_ns != 1000000000 || t->wcet_ns < ts->tasks[best].wcet_ns))
            best = i;
    }
    rtp_task *t = &ts->tasks[best];
    if (t->period_ns != 1000000000)
        return 0;
    int64_t c = t->wcet_ns + (target - sum);
    if (c < 1 || c > 1000000000)
        return 0;
    t->wcet_ns = c;
    return 1;
}

/* Feasible by construction: CPU j gets its share of the n tasks, drawn by
 * RandFixedSum to a total of 0.975..0.999 (periods 1..5 ms), then all are
 * renamed and shuffled. */
static int built(rtp_rng *rng, size_t n, size_t m, uint64_t seed, uint64_t k, rtp_taskset *ts)
{
    static const rtp_ns ms[] = {1000000, 2000000, 3000000, 4000000, 5000000};
    memset(ts, 0, sizeof *ts);
    ts->time_unit_ns = 1;
    for (size_t j = 0; j < m; j++) {
        rtp_gen_opts g = rtp_gen_opts_default();
        g.n_tasks = n / m + (j < n % m);
        g.total_util = (rtp_ratio){rtp_rng_range(rng, 975, 999), 1000};
        g.algo = RTP_GEN_RANDFIXEDSUM;
        g.period_set = ms;
        g.n_period_set = 5;
        rtp_taskset part;
        if (rtp_gen_taskset(&g, seed, j, k, &part, NULL) != RTP_OK)
            return 0;
        rtp_task *t = append(ts, part.n_tasks);
        for (size_t q = 0; t && q < part.n_tasks; q++)
            set_times(&t[q], part.tasks[q].wcet_ns, part.tasks[q].deadline_ns,
                      part.tasks[q].period_ns);
        rtp_taskset_free(&part);
        if (!t)
            return 0;
    }
    for (size_t i = 0; i < ts->n_tasks; i++) { /* unique names, then shuffle */
        char name[24];
        snprintf(name, sizeof name, "B%zu", i + 1);
        ts->tasks[i].name = strdup(name); /* the old one is in the set's name block */
    }
    for (size_t a = ts->n_tasks; a > 1; a--) {
        size_t b = (size_t)rtp_rng_range(rng, 0, (int64_t)a - 1);
        rtp_task tmp = ts->tasks[a - 1];
        ts->tasks[a - 1] = ts->tasks[b];
        ts->tasks[b] = tmp;
    }
    return 1;
}

typedef enum fam {
    F_FEAS90 = 0, F_BUILT, F_UTIL, F_UTIL_NS, F_CLIQUE, F_CLIQUE_FP, F_AFFINITY, F_VOLUME, F_SEARCH,
    F_MIXED99, N_FAM
} fam;

static const char *const fam_names[] = {
    "feasible U/m=0.90", "feasible built", "util over M x 1e-8", "util over 1e-9",
    "(M+1)-clique edf",
    "(M+1)-clique fp", "affinity over 1e-8", "clique-volume", "2M+1 x 0.35", "mixed U/m=0.99"};

static int family(fam f, size_t n, size_t m, uint64_t seed, uint64_t k, rtp_taskset *ts)
{
    rtp_rng rng = rtp_rng_stream(seed, (uint64_t)f * 7919u + n * 31u + m, k);
    int ok = 1;
    switch (f) {
    case F_FEAS90:
        return draw(n, 90 * (int64_t)m, NULL, 0, seed, k, ts);
    case F_MIXED99:
        return draw(n, 99 * (int64_t)m, NULL, 0, seed, k, ts);
    case F_BUILT:
        return built(&rng, n, m, seed, k, ts);
    case F_UTIL:
    case F_UTIL_NS: /* total M (1 + 10^-8), or M + 10^-9 (1 ns in a 1 s period) */
        ok = draw(n, 100 * (int64_t)m, divides_1s, 5, seed, k, ts);
        return ok && settle(ts, 0, (int64_t)m * 1000000000 + (f == F_UTIL ? 10 * (int64_t)m : 1));
    case F_CLIQUE:
    case F_CLIQUE_FP: {
        if (!draw(n - m - 1, 60 * (int64_t)m, NULL, 0, seed, k, ts))
            return 0;
        rtp_task *t = append(ts, m + 1);
        for (size_t i = 0; t && i <= m; i++)
            set_times(&t[i], 1000 * rtp_rng_range(&rng, 61, 70), 1000 * rtp_rng_range(&rng, 100, 120),
                      1000000 * rtp_rng_range(&rng, 10, 50));
        return t != NULL;
    }
    case F_AFFINITY: {
        size_t g = m / 4, kg = 4 * g;
        if (!draw(n - kg, 60 * (int64_t)(m - g), NULL, 0, seed, k, ts))
            return 0;
        size_t first = ts->n_tasks;
        rtp_task *t = append(ts, kg);
        for (size_t i = 0; t && i < kg; i++) {
            rtp_ns p = divides_1s[rtp_rng_range(&rng, 0, 4)];
            set_times(&t[i], p / 4, p, p); /* 0.25 each: U = g, then + 10^-8 x g */
            t[i].affinity = malloc(g * sizeof *t[i].affinity);
            t[i].affinity_len = 0;
            for (size_t j = 0; j < g; j++)
                if (rtp_rng_range(&rng, 0, 3) || j + 1 == g)
                    t[i].affinity[t[i].affinity_len++] = (int)j;
        }
        return t && settle(ts, first, (int64_t)g * 1000000010);
    }
    case F_VOLUME: {
        if (!draw(n - m - 2, 5 * (int64_t)m / 4 + 1, NULL, 0, seed, k, ts))
            return 0;
        rtp_task *t = append(ts, m + 2);
        for (size_t i = 0; t && i < m + 2; i++)
            set_times(&t[i], 1000 * rtp_rng_range(&rng, i + 1 < m ? 58 : 43, i + 1 < m ? 62 : 47),
                      100000, 100000);
        return t != NULL;
    }
    case F_SEARCH: {
        if (!draw(n - 2 * m - 1, 10 * (int64_t)m, NULL, 0, seed, k, ts))
            return 0;
        rtp_task *t = append(ts, 2 * m + 1);
        for (size_t i = 0; t && i <= 2 * m; i++) {
            rtp_ns p = 1000000 * rtp_rng_range(&rng, 1, 20);
            set_times(&t[i], p * 35 / 100, p, p);
        }
        return t != NULL;
    }
    default:
        return 0;
    }
}

static void run(const rtp_taskset *ts, const int *cpus, size_t m, rtp_policy policy, int base,
                int warm, double limit, row *r)
{
    rtp_ilp_opts o = rtp_ilp_opts_default();
    o.part.policy = policy;
    o.time_limit_s = limit;
    o.warm_start = warm;
    if (base) { /* 1: the ILP before; 2: the new rows without the pre-checks */
        o.prechecks = 0;
        o.conflict_rows = base == 2;
        o.exact_nodes = base == 2;
    }
    rtp_plan p;
    rtp_ilp_status status;
    rtp_ilp_stats stats;
    r->sets++;
    if (rtp_ilp_solve(ts, cpus, m, &o, &p, &status, &stats, NULL) != RTP_OK) {
        r->errors++;
        return;
    }
    r->seconds += stats.seconds;
    r->precheck += stats.precheck_seconds;
    r->worst = stats.seconds > r->worst ? stats.seconds : r->worst;
    r->optimal += status == RTP_ILP_OPTIMAL;
    r->infeasible += status == RTP_ILP_INFEASIBLE;
    r->answered += status != RTP_ILP_TIME_LIMIT;
    if (status == RTP_ILP_INFEASIBLE)
        r->kinds[stats.proof]++;
    rtp_plan_free(&p);
}

static void print_row(const char *label, const row *r, const row *base)
{
    double k = r->sets ? (double)r->sets : 1.0;
    printf("  %-22s %4d %3d/%-3d %4d %4d %9.3f %8.3f %8.3f", label, r->sets, r->answered, r->sets,
           r->optimal, r->infeasible, r->seconds / k, r->worst, r->precheck / k);
    if (base)
        printf(" %7.3f", base->seconds > 0 ? r->seconds / base->seconds : 0.0);
    else
        printf(" %7s", "");
    printf("  ");
    for (int q = RTP_PROOF_TASK_ALONE; q <= RTP_PROOF_SEARCH; q++)
        if (r->kinds[q])
            printf("%s:%d ", rtp_ilp_proof_name((rtp_ilp_proof_kind)q), r->kinds[q]);
    printf("%s\n", r->errors ? "ERRORS" : "");
}

static void part_a(int sets, double limit, uint64_t seed, const int *cpus)
{
    static const size_t shapes[][2] = {{100, 16}, {150, 24}, {200, 32}};
    printf("\n== part A: families at scale; base = without pre-checks and clique rows ==\n");
    printf("  %-22s %4s %7s %4s %4s %9s %8s %8s %7s  %s\n", "config", "sets", "answer", "opt",
           "inf", "mean_s", "max_s", "pre_s", "new/base", "certificates");
    row total[2][2];
    memset(total, 0, sizeof total);
    for (int f = 0; f < N_FAM; f++)
        for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
            size_t n = shapes[s][0], m = shapes[s][1];
            rtp_policy policy = f == F_CLIQUE_FP ? RTP_POLICY_FP : RTP_POLICY_EDF;
            row r[3][2]; /* [new, base, rows only][warm] */
            memset(r, 0, sizeof r);
            for (int k = 0; k < sets; k++) {
                rtp_taskset ts;
                memset(&ts, 0, sizeof ts);
                if (!family((fam)f, n, m, seed, (uint64_t)k, &ts)) {
                    rtp_taskset_free(&ts);
                    continue;
                }
                for (int b = 0; b < 3; b++)
                    for (int w = 0; w < 2; w++)
                        run(&ts, cpus, m, policy, b, w, limit, &r[b][w]);
                rtp_taskset_free(&ts);
            }
            printf("%s, n=%zu m=%zu:\n", fam_names[f], n, m);
            static const char *const labels[3][2] = {{"new cold", "new warm"},
                                                     {"base cold", "base warm"},
                                                     {"rows only cold", "rows only warm"}};
            static const int shown[] = {1, 2, 0};
            for (int q = 0; q < 3; q++)
                for (int w = 0; w < 2; w++) {
                    int b = shown[q];
                    print_row(labels[b][w], &r[b][w], b == 1 ? NULL : &r[1][w]);
                    if (b == 2)
                        continue;
                    row *t = &total[b][w];
                    t->sets += r[b][w].sets;
                    t->answered += r[b][w].answered;
                    t->seconds += r[b][w].seconds;
                    t->errors += r[b][w].errors;
                }
        }
    printf("all families: answered within %.0f s (share), mean s, new/base:\n", limit);
    for (int w = 0; w < 2; w++)
        printf("  %s: new %d/%d (%.0f%%) %.3f s, base %d/%d (%.0f%%) %.3f s, time ratio %.3f\n",
               w ? "warm" : "cold", total[0][w].answered, total[0][w].sets,
               100.0 * total[0][w].answered / (total[0][w].sets ? total[0][w].sets : 1),
               total[0][w].seconds / (total[0][w].sets ? total[0][w].sets : 1),
               total[1][w].answered, total[1][w].sets,
               100.0 * total[1][w].answered / (total[1][w].sets ? total[1][w].sets : 1),
               total[1][w].seconds / (total[1][w].sets ? total[1][w].sets : 1),
               total[1][w].seconds > 0 ? total[0][w].seconds / total[1][w].seconds : 0.0);
}

static void part_b(int sets, double limit, uint64_t seed, const int *cpus)
{
    static const unsigned cfgs[] = {0, RTP_GLPK_CUTS_CLIQUE, RTP_GLPK_CUTS_COVER,
                                    RTP_GLPK_CUTS_GOMORY, RTP_GLPK_CUTS_MIR,
                                    RTP_GLPK_CUTS_CLIQUE | RTP_GLPK_CUTS_COVER |
                                        RTP_GLPK_CUTS_GOMORY | RTP_GLPK_CUTS_MIR};
    static const char *const names[] = {"none", "clique", "cover", "gomory", "mir", "all"};
    static const size_t shapes[][2] = {{16, 8}, {20, 8}, {24, 8}, {100, 16}, {200, 32}};
    printf("\n== part B: GLPK's own cuts (cold, defaults otherwise) ==\n");
    printf("  %-22s %4s %7s %4s %4s %9s %8s %8s %7s\n", "cuts", "sets", "answer", "opt", "inf",
           "mean_s", "max_s", "pre_s", "x/none");
    for (int f = F_BUILT; f <= F_MIXED99; f += F_MIXED99 - F_BUILT)
        for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
            size_t n = shapes[s][0], m = shapes[s][1];
            row r[6];
            memset(r, 0, sizeof r);
            for (int k = 0; k < 4 * sets; k++) {
                rtp_taskset ts;
                memset(&ts, 0, sizeof ts);
                if (!family((fam)f, n, m, seed, (uint64_t)k, &ts)) {
                    rtp_taskset_free(&ts);
                    continue;
                }
                for (int q = 0; q < 6; q++) {
                    rtp_ilp_opts o = rtp_ilp_opts_default();
                    o.time_limit_s = limit;
                    o.warm_start = 0;
                    o.glpk_cuts = cfgs[q];
                    rtp_plan p;
                    rtp_ilp_status status;
                    rtp_ilp_stats stats;
                    r[q].sets++;
                    if (rtp_ilp_solve(&ts, cpus, m, &o, &p, &status, &stats, NULL) != RTP_OK) {
                        r[q].errors++;
                        continue;
                    }
                    r[q].seconds += stats.seconds;
                    r[q].worst = stats.seconds > r[q].worst ? stats.seconds : r[q].worst;
                    r[q].answered += status != RTP_ILP_TIME_LIMIT;
                    r[q].optimal += status == RTP_ILP_OPTIMAL;
                    r[q].infeasible += status == RTP_ILP_INFEASIBLE;
                    rtp_plan_free(&p);
                }
                rtp_taskset_free(&ts);
            }
            printf("%s, n=%zu m=%zu:\n", fam_names[f], n, m);
            for (int q = 0; q < 6; q++)
                print_row(names[q], &r[q], q ? &r[0] : NULL);
        }
}

int main(int argc, char **argv)
{
    int sets = argc > 1 ? atoi(argv[1]) : 2;
    double limit = argc > 2 ? atof(argv[2]) : 10.0;
    uint64_t seed = argc > 3 ? strtoull(argv[3], NULL, 10) : 1;
    const char *parts = argc > 4 ? argv[4] : "AB";
    int cpus[32];
    for (int j = 0; j < 32; j++)
        cpus[j] = j;
    printf("bench_ilp_scale: %d sets per point, time limit %.1f s, seed %llu\n", sets, limit,
           (unsigned long long)seed);
    printf("columns: answer = optimal or infeasible within the limit; mean_s/max_s = wall "
           "clock per set;\n         pre_s = conflict graph + pre-checks; new/base = mean time "
           "ratio, same sets\n");
    printf("load average (start): %.2f\n", bench_load_average());
    if (strchr(parts, 'A'))
        part_a(sets, limit, seed, cpus);
    if (strchr(parts, 'B'))
        part_b(sets, limit, seed, cpus);
    printf("load average (end): %.2f\n", bench_load_average());
    return 0;
}
