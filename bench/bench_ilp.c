/* bench/bench_ilp.c — the exact ILP partitioner (ilp/ilp.h) near the
 * feasibility boundary: solve time, lazy rounds, verdicts, how many sets the
 * ILP places that the heuristics (rtp_part_best) do not, and what symmetry
 * breaking and the warm start change.
 *
 * Sets: RandFixedSum utilizations ([Sta06]; gen/gen.h), per-task cap
 * 1, periods log-uniform in [1 ms, 1 s] rounded to 1 us. Part 1: EDF with
 * implicit deadlines, n = 10, 20, 40, 80, 128 tasks x m = 2, 4, 8, 32 CPUs
 * (n >= 1.25 m) x U/m = 0.95, 0.99. Part 2: lazy rows, EDF with constrained
 * deadlines and FP (OPA), n = 10, 20, 40 x m = 2, 4, 8, warm start off so
 * GLPK does the work, with and without the LP-guided rounding heuristic
 * (without it, the lazy rows do the work). Part 3: symmetry
 * breaking and warm start on/off on the part-1 sets of the largest shapes.
 * Part 4: sets feasible by construction (a partition with every CPU filled
 * to 0.975..1 drawn first, then shuffled), 4 x SETS_PER_POINT per shape.
 * Every instance has a time limit (default 10 s); times are wall-clock and
 * ratios compare configurations on the same sets in the same run.
 *
 * usage: bench_ilp [SETS_PER_POINT (default 3)] [TIME_LIMIT_S (default 10)]
 *                  [SEED (default 1)] */
#include "bench/bench_common.h"
#include "gen/gen.h"
#include "ilp/ilp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct tally {
    int sets, optimal, infeasible, timeouts, plans, heuristic, ilp_only, errors;
    double seconds, best_seconds;
    long rounds, cuts;
} tally;

static int make_set(size_t n, size_t m, int per_cpu_pct, rtp_gen_deadlines dl, uint64_t seed,
                    uint64_t index, rtp_taskset *ts)
{
    rtp_gen_opts g = rtp_gen_opts_default();
    g.n_tasks = n;
    g.total_util = (rtp_ratio){(int64_t)m * per_cpu_pct, 100};
    g.algo = RTP_GEN_RANDFIXEDSUM;
    g.period_min_ns = 1000000;
    g.period_max_ns = 1000000000;
    g.granularity_ns = 1000;
    g.deadlines = dl;
    uint64_t point = (uint64_t)n * 1000003u + m * 1009u + (uint64_t)per_cpu_pct * 7u + (uint64_t)dl;
    return rtp_gen_taskset(&g, seed, point, index, ts, NULL) == RTP_OK;
}

static uint64_t next_u64(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static int64_t range(uint64_t *rng, int64_t lo, int64_t hi)
{
    return lo + (int64_t)(next_u64(rng) % (uint64_t)(hi - lo + 1));
}

/* A partition drawn first: each CPU gets n/m tasks whose utilizations (in
 * 1/1000) sum to 975..1000, periods 1..5 ms; then the tasks are shuffled. */
static void constructed(uint64_t *rng, size_t n, size_t m, rtp_taskset *ts)
{
    memset(ts, 0, sizeof *ts);
    ts->time_unit_ns = 1;
    ts->n_tasks = n;
    ts->tasks = calloc(n, sizeof *ts->tasks);
    size_t i = 0;
    for (size_t j = 0; j < m; j++) {
        size_t k = n / m + (j < n % m);
        int64_t fill = range(rng, 975, 1000), rest = fill - 40 * (int64_t)k, w[64], total = 0;
        for (size_t q = 0; q < k; q++)
            total += w[q] = range(rng, 1, 100);
        for (size_t q = 0; q < k; q++) {
            int64_t share = 40 + rest * w[q] / total;
            fill -= share;
            share += q + 1 == k ? fill : 0;
            rtp_ns period = 1000000 * range(rng, 1, 5);
            ts->tasks[i].wcet_ns = share * period / 1000;
            ts->tasks[i].deadline_ns = ts->tasks[i].period_ns = period;
            i++;
        }
    }
    for (size_t a = n; a > 1; a--) {
        size_t b = (size_t)range(rng, 0, (int64_t)a - 1);
        rtp_task tmp = ts->tasks[a - 1];
        ts->tasks[a - 1] = ts->tasks[b];
        ts->tasks[b] = tmp;
    }
    for (size_t q = 0; q < n; q++) {
        char name[24];
        snprintf(name, sizeof name, "T%zu", q + 1);
        ts->tasks[q].name = strdup(name);
    }
}

/* One ILP run (and the heuristic baseline when `with_best`). */
static void run_opts(const rtp_taskset *ts, const int *cpus, size_t m, rtp_policy policy,
                     int symmetry, int warm, int rounding, double limit, int with_best, tally *t)
{
    rtp_ilp_opts o = rtp_ilp_opts_default();
    o.lp_rounding = rounding;
    o.part.policy = policy;
    o.time_limit_s = limit;
    o.symmetry_breaking = symmetry;
    o.warm_start = warm;
    int best_ok = 0;
    if (with_best) {
        rtp_plan bp;
        double t0 = bench_wall_us() / 1e6;
        if (rtp_part_best(ts, cpus, m, &o.part, &bp, NULL) == RTP_OK)
            best_ok = bp.feasible;
        t->best_seconds += bench_wall_us() / 1e6 - t0;
        rtp_plan_free(&bp);
    }
    rtp_plan p;
    rtp_ilp_status status;
    rtp_ilp_stats stats;
    rtp_status st = rtp_ilp_solve(ts, cpus, m, &o, &p, &status, &stats, NULL);
    t->sets++;
    if (st != RTP_OK) {
        t->errors++;
        return;
    }
    t->seconds += stats.seconds;
    t->rounds += stats.rounds;
    t->cuts += stats.cuts;
    t->optimal += status == RTP_ILP_OPTIMAL;
    t->infeasible += status == RTP_ILP_INFEASIBLE;
    t->timeouts += status == RTP_ILP_TIME_LIMIT;
    t->plans += p.feasible;
    t->heuristic += best_ok;
    t->ilp_only += with_best && p.feasible && !best_ok;
    rtp_plan_free(&p);
}

static void run(const rtp_taskset *ts, const int *cpus, size_t m, rtp_policy policy,
                int symmetry, int warm, double limit, int with_best, tally *t)
{
    run_opts(ts, cpus, m, policy, symmetry, warm, 1, limit, with_best, t);
}

static void print_row(const char *label, const tally *t)
{
    double k = t->sets ? (double)t->sets : 1.0;
    printf("%-26s %4d %4d %4d %4d %5d %5d %6d %9.3f %9.4f %7.1f %7.1f %3d\n", label, t->sets,
           t->optimal, t->infeasible, t->timeouts, t->heuristic, t->plans, t->ilp_only,
           t->seconds / k, t->best_seconds / k, (double)t->rounds / k, (double)t->cuts / k,
           t->errors);
}

static void header(void)
{
    printf("%-26s %4s %4s %4s %4s %5s %5s %6s %9s %9s %7s %7s %3s\n", "point", "sets", "opt",
           "inf", "tlim", "heur", "plan", "ilp+", "ilp_s", "heur_s", "rounds", "cuts", "err");
}

/* No partition on 8 CPUs; proved in about a second with symmetry breaking. */
static const rtp_ns hard_set[][2] = {
    {57564, 73000}, {16549, 18000}, {8176, 87000}, {8091, 30000}, {4618, 74000},
    {10859, 46000}, {1721, 11000},  {17613, 68000}, {21340, 91000}, {1164, 50000},
    {24653, 51000}, {10115, 47000}, {8758, 18000}, {1535, 23000}, {9317, 26000},
    {17455, 75000}, {2040, 35000},  {7347, 13000}, {3530, 58000}, {41470, 60000},
    {9570, 35000},  {26704, 65000}, {2689, 87000}, {17911, 19000}};

static const size_t part1_n[] = {10, 20, 40, 80, 128};
static const size_t part1_m[] = {2, 4, 8, 32};
static const int pcts[] = {95, 99};

int main(int argc, char **argv)
{
    int sets = argc > 1 ? atoi(argv[1]) : 3;
    double limit = argc > 2 ? atof(argv[2]) : 10.0;
    uint64_t seed = argc > 3 ? strtoull(argv[3], NULL, 10) : 1;
    int cpus[32];
    for (int j = 0; j < 32; j++)
        cpus[j] = j;
    double start = bench_wall_us() / 1e6;
    printf("bench_ilp: %d sets per point, time limit %.1f s, seed %llu\n", sets, limit,
           (unsigned long long)seed);
    printf("columns: opt/inf/tlim = ILP verdicts; heur = rtp_part_best feasible; plan = ILP plan "
           "in hand;\n         ilp+ = ILP plan where the heuristics found none; ilp_s, heur_s "
           "= mean seconds;\n         rounds = mean GLPK solves; cuts = mean lazy rows\n");

    printf("\n== part 1: EDF, implicit deadlines ==\n");
    header();
    tally all = {0};
    for (size_t a = 0; a < 5; a++)
        for (size_t b = 0; b < 4; b++)
            for (size_t c = 0; c < 2; c++) {
                size_t n = part1_n[a], m = part1_m[b];
                if (n * 4 < m * 5)
                    continue;
                tally t = {0};
                for (int k = 0; k < sets; k++) {
                    rtp_taskset ts;
                    if (!make_set(n, m, pcts[c], RTP_DL_IMPLICIT, seed, (uint64_t)k, &ts))
                        continue;
                    run(&ts, cpus, m, RTP_POLICY_EDF, 1, 1, limit, 1, &t);
                    rtp_taskset_free(&ts);
                }
                char label[64];
                snprintf(label, sizeof label, "n=%zu m=%zu U/m=0.%d", n, m, pcts[c]);
                print_row(label, &t);
                all.sets += t.sets;
                all.plans += t.plans;
                all.ilp_only += t.ilp_only;
                all.heuristic += t.heuristic;
                all.timeouts += t.timeouts;
            }
    printf("part 1 total: %d sets, heuristics place %d, ILP places %d (%d that the heuristics "
           "do not), %d time-outs\n", all.sets, all.heuristic, all.plans, all.ilp_only,
           all.timeouts);

    printf("\n== part 2: lazy rows, warm start off, LP rounding on / off (EDF constrained "
           "deadlines, FP with OPA) ==\n");
    header();
    static const size_t p2_n[] = {10, 20, 40}, p2_m[] = {2, 4, 8};
    for (int policy = RTP_POLICY_EDF; policy <= RTP_POLICY_FP; policy++)
        for (size_t a = 0; a < 3; a++)
            for (size_t b = 0; b < 3; b++)
                for (size_t c = 0; c < 2; c++) {
                    size_t n = p2_n[a], m = p2_m[b];
                    if (n * 4 < m * 5)
                        continue;
                    tally t = {0}, raw = {0};
                    rtp_gen_deadlines dl = policy == RTP_POLICY_EDF ? RTP_DL_CONSTRAINED
                                                                    : RTP_DL_IMPLICIT;
                    int pct = pcts[c] - 10; /* constrained / FP sets are full well below U = m */
                    for (int k = 0; k < sets; k++) {
                        rtp_taskset ts;
                        if (!make_set(n, m, pct, dl, seed, (uint64_t)k, &ts))
                            continue;
                        run_opts(&ts, cpus, m, (rtp_policy)policy, 1, 0, 1, limit, 1, &t);
                        run_opts(&ts, cpus, m, (rtp_policy)policy, 1, 0, 0, limit, 0, &raw);
                        rtp_taskset_free(&ts);
                    }
                    char label[64];
                    snprintf(label, sizeof label, "%s n=%zu m=%zu U/m=0.%d",
                             policy == RTP_POLICY_EDF ? "edf-c" : "fp", n, m, pct);
                    print_row(label, &t);
                    snprintf(label, sizeof label, "  same, no LP rounding");
                    print_row(label, &raw);
                }

    printf("\n== part 3: symmetry breaking / warm start (EDF implicit, U/m = 0.99; heur not run) ==\n");
    static const size_t p3[][2] = {{40, 8}, {80, 32}, {128, 32}};
    static const int cfg[][2] = {{1, 1}, {0, 1}, {1, 0}, {0, 0}};
    for (size_t s = 0; s < 3; s++) {
        size_t n = p3[s][0], m = p3[s][1];
        tally t[4] = {{0}};
        for (int k = 0; k < sets; k++) {
            rtp_taskset ts;
            if (!make_set(n, m, 99, RTP_DL_IMPLICIT, seed, (uint64_t)k, &ts))
                continue;
            for (int q = 0; q < 4; q++)
                run(&ts, cpus, m, RTP_POLICY_EDF, cfg[q][0], cfg[q][1], limit, 0, &t[q]);
            rtp_taskset_free(&ts);
        }
        printf("n=%zu m=%zu:\n", n, m);
        header();
        for (int q = 0; q < 4; q++) {
            char label[64];
            snprintf(label, sizeof label, "  sym=%s warm=%s", cfg[q][0] ? "on" : "off",
                     cfg[q][1] ? "on" : "off");
            print_row(label, &t[q]);
        }
        for (int q = 1; q < 4; q++)
            printf("  time ratio (sym=%s warm=%s) / (sym=on warm=on): %.2f\n",
                   cfg[q][0] ? "on" : "off", cfg[q][1] ? "on" : "off",
                   t[0].seconds > 0 ? t[q].seconds / t[0].seconds : 0.0);
    }
    printf("hard infeasible set (tests/test_ilp.c, n=24 m=8 U/m=0.99):\n");
    header();
    rtp_taskset hard;
    memset(&hard, 0, sizeof hard);
    hard.n_tasks = sizeof hard_set / sizeof hard_set[0];
    rtp_task hard_tasks[sizeof hard_set / sizeof hard_set[0]];
    memset(hard_tasks, 0, sizeof hard_tasks);
    hard.tasks = hard_tasks;
    for (size_t i = 0; i < hard.n_tasks; i++) {
        hard_tasks[i].wcet_ns = hard_set[i][0];
        hard_tasks[i].deadline_ns = hard_tasks[i].period_ns = hard_set[i][1];
    }
    tally th[4] = {{0}};
    for (int q = 0; q < 4; q++) {
        run(&hard, cpus, 8, RTP_POLICY_EDF, cfg[q][0], cfg[q][1], limit, 0, &th[q]);
        char label[64];
        snprintf(label, sizeof label, "  sym=%s warm=%s", cfg[q][0] ? "on" : "off",
                 cfg[q][1] ? "on" : "off");
        print_row(label, &th[q]);
    }

    printf("\n== part 4: feasible by construction (CPUs filled to 0.975..1, shuffled), EDF ==\n");
    header();
    static const size_t p4[][2] = {{20, 4}, {30, 6}, {40, 8}};
    for (size_t s4 = 0; s4 < 3; s4++) {
        size_t n = p4[s4][0], m = p4[s4][1];
        tally t = {0};
        uint64_t rng = seed * 7919u + n;
        for (int k = 0; k < 4 * sets; k++) {
            rtp_taskset ts;
            constructed(&rng, n, m, &ts);
            run(&ts, cpus, m, RTP_POLICY_EDF, 1, 1, limit, 1, &t);
            rtp_taskset_free(&ts);
        }
        char label[64];
        snprintf(label, sizeof label, "built n=%zu m=%zu", n, m);
        print_row(label, &t);
    }
    printf("\nwhole run: %.1f s (load average %.2f)\n", bench_wall_us() / 1e6 - start,
           bench_load_average());
    return 0;
}
