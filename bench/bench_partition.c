/* bench/bench_partition.c — acceptance ratio and time per task set of the
 * partitioning heuristics, and the speed-up of rtp_part_best with 2 OpenMP
 * threads against 1 (same sets, same run).
 *
 * Sets: UUniFast-discard utilizations [BB05] with per-task
 * cap 1, periods log-uniform in [1 ms, 1 s] rounded to 1 us, implicit
 * deadlines (or constrained in [C, T] with argument "constrained"); n = 10..100
 * tasks, m = 2..16 CPUs (n >= m), U/m = 0.50..0.95. Methods: FFD, BFD, WFD,
 * NFD (decreasing utilization, exact admission), FFD with utilization-bound
 * admission (Liu & Layland [LL73] / hyperbolic [BBB03] under FP, U <= 1
 * under EDF), best.
 *
 * usage: bench_partition [SETS_PER_POINT (default 5)] [SEED (default 1)]
 *                        [implicit|constrained]
 *        bench_partition speedup [SETS_PER_POINT]   (the speed-up part only) */
#include "bench/bench_common.h"
#include "heuristics/partition.h"

#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t next_u64(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static double uniform(uint64_t *state)
{
    return (double)(next_u64(state) >> 11) / 9007199254740992.0;
}

/* One random set of n tasks with total utilization `total` (names "T1"..). */
static int make_set(uint64_t *rng, size_t n, double total, int constrained, rtp_taskset *ts,
                    rtp_task *tasks, char (*names)[24])
{
    double util[128];
    for (int attempt = 0; attempt < 10000; attempt++) {
        double sum = total;
        int ok = 1;
        for (size_t i = 0; i + 1 < n; i++) { /* UUniFast */
            double next = sum * pow(uniform(rng), 1.0 / (double)(n - 1 - i));
            util[i] = sum - next;
            sum = next;
            ok = ok && util[i] <= 1.0;
        }
        util[n - 1] = sum;
        if (!ok || sum > 1.0)
            continue;
        memset(ts, 0, sizeof *ts);
        ts->time_unit_ns = 1;
        ts->tasks = tasks;
        ts->n_tasks = n;
        for (size_t i = 0; i < n; i++) {
            rtp_ns period = (rtp_ns)floor(exp(log(1e3) + uniform(rng) * log(1e3))) * 1000;
            rtp_ns wcet = (rtp_ns)floor(util[i] * (double)period);
            memset(&tasks[i], 0, sizeof tasks[i]);
            snprintf(names[i], sizeof names[i], "T%zu", i + 1);
            tasks[i].name = names[i];
            tasks[i].wcet_ns = wcet > 0 ? wcet : 1;
            tasks[i].period_ns = period;
            tasks[i].deadline_ns = period;
            if (constrained)
                tasks[i].deadline_ns = tasks[i].wcet_ns +
                    (rtp_ns)floor(uniform(rng) * (double)(period - tasks[i].wcet_ns));
        }
        return 0;
    }
    return -1;
}

enum { M_FFD, M_BFD, M_WFD, M_NFD, M_FFD_BOUND, M_BEST, N_METHODS };
static const char *const method_names[N_METHODS] = {"ffd", "bfd", "wfd", "nfd",
                                                    "ffd-bound", "best"};

static const size_t ns[] = {10, 25, 50, 100};
static const size_t ms[] = {2, 4, 8, 16};
static const int loads[] = {50, 65, 80, 90, 95}; /* U/m in percent */
#define N_NS (sizeof ns / sizeof ns[0])
#define N_MS (sizeof ms / sizeof ms[0])
#define N_LOADS (sizeof loads / sizeof loads[0])

typedef struct cell {
    long accepted, total, errors;
    double seconds;
} cell;

/* Fastest of three runs of rtp_part_best with `threads` threads (the
 * minimum filters out other work on a shared machine). */
static double time_best(const rtp_taskset *ts, const int *cpus, size_t m, rtp_policy policy,
                        int threads)
{
    double fastest = 1e30;
    for (int rep = 0; rep < 3; rep++) {
        rtp_part_opts o = rtp_part_opts_default();
        o.policy = policy;
        o.threads = threads;
        rtp_plan plan;
        double t0 = omp_get_wtime();
        rtp_status st = rtp_part_best(ts, cpus, m, &o, &plan, NULL);
        double dt = omp_get_wtime() - t0;
        if (st == RTP_OK)
            rtp_plan_free(&plan);
        fastest = dt < fastest ? dt : fastest;
    }
    return fastest;
}

/* Speed-up of rtp_part_best, 2 threads vs 1, on sets of n = 50 and 100
 * tasks, m = 4 and 8 CPUs, U/m = 0.8, both policies. */
static void speedup(uint64_t seed, int constrained, int per_point, const int *cpus,
                    rtp_task *tasks, char (*names)[24])
{
    double total[2][2] = {{0, 0}, {0, 0}};
    for (int pol = 0; pol < 2; pol++)
        for (size_t n = 50; n <= 100; n += 50)
            for (size_t m = 4; m <= 8; m += 4)
                for (int s = 0; s < per_point; s++) {
                    uint64_t rng = seed * 7919u + n * 131u + m * 17u + (uint64_t)s;
                    rtp_taskset ts;
                    if (make_set(&rng, n, 0.8 * (double)m, constrained, &ts, tasks, names) != 0)
                        continue;
                    rtp_policy policy = pol ? RTP_POLICY_FP : RTP_POLICY_EDF;
                    total[pol][0] += time_best(&ts, cpus, m, policy, 1);
                    total[pol][1] += time_best(&ts, cpus, m, policy, 2);
                }
    printf("\nrtp_part_best speed-up, 2 threads vs 1 (n = 50, 100; m = 4, 8; U/m = 0.8; "
           "fastest of 3 runs; load average %.2f):\n", bench_load_average());
    for (int pol = 0; pol < 2; pol++)
        printf("  %-4s %.3f s with 1 thread, %.3f s with 2: %.2fx\n", pol ? "fp" : "edf",
               total[pol][0], total[pol][1],
               total[pol][1] > 0 ? total[pol][0] / total[pol][1] : 0.0);
}

int main(int argc, char **argv)
{
    int speedup_only = argc > 1 && strcmp(argv[1], "speedup") == 0;
    if (speedup_only) {
        argv++;
        argc--;
    }
    int per_point = argc > 1 ? atoi(argv[1]) : 5;
    uint64_t seed = argc > 2 ? strtoull(argv[2], NULL, 10) : 1;
    int constrained = argc > 3 && strcmp(argv[3], "constrained") == 0;
    static rtp_task tasks[128];
    static char names[128][24];
    int cpus[16];
    for (int j = 0; j < 16; j++)
        cpus[j] = j;
    static cell by_load[2][N_METHODS][N_LOADS], by_n[2][N_METHODS][N_NS];
    printf("bench_partition: %d sets per point, seed %llu, %s deadlines\n", per_point,
           (unsigned long long)seed, constrained ? "constrained" : "implicit");
    for (size_t a = 0; a < N_NS && !speedup_only; a++)
        for (size_t b = 0; b < N_MS; b++)
            for (size_t c = 0; c < N_LOADS; c++)
                for (int s = 0; s < per_point; s++) {
                    size_t n = ns[a], m = ms[b];
                    if (n < m)
                        continue;
                    uint64_t rng = seed * 1000003u + ((a * N_MS + b) * N_LOADS + c) * 1009u +
                                   (uint64_t)s;
                    rtp_taskset ts;
                    if (make_set(&rng, n, (double)m * loads[c] / 100.0, constrained, &ts, tasks,
                                 names) != 0)
                        continue;
                    for (int pol = 0; pol < 2; pol++)
                        for (int k = 0; k < N_METHODS; k++) {
                            rtp_part_opts o = rtp_part_opts_default();
                            o.policy = pol ? RTP_POLICY_FP : RTP_POLICY_EDF;
                            o.placement = k == M_FFD_BOUND || k == M_BEST ? RTP_PLACE_FF
                                                                          : (rtp_placement)k;
                            o.bound_admission = k == M_FFD_BOUND;
                            o.threads = 1;
                            rtp_plan plan;
                            rtp_diag diag;
                            double t0 = omp_get_wtime();
                            rtp_status st = k == M_BEST
                                                ? rtp_part_best(&ts, cpus, m, &o, &plan, &diag)
                                                : rtp_part_pack(&ts, cpus, m, &o, &plan, &diag);
                            double dt = omp_get_wtime() - t0;
                            int ok = st == RTP_OK && plan.feasible;
                            cell *cl[2] = {&by_load[pol][k][c], &by_n[pol][k][a]};
                            for (int q = 0; q < 2; q++) {
                                cl[q]->accepted += ok;
                                cl[q]->total++;
                                cl[q]->errors += st != RTP_OK;
                                cl[q]->seconds += dt;
                            }
                            if (st == RTP_OK)
                                rtp_plan_free(&plan);
                        }
                }
    for (int pol = 0; pol < 2 && !speedup_only; pol++) {
        printf("\n%s: acceptance ratio by U/m (all n, m)\n%-10s", pol ? "fp (opa)" : "edf",
               "method");
        for (size_t c = 0; c < N_LOADS; c++)
            printf("  %6.2f", loads[c] / 100.0);
        printf("   errors\n");
        for (int k = 0; k < N_METHODS; k++) {
            long errors = 0;
            printf("%-10s", method_names[k]);
            for (size_t c = 0; c < N_LOADS; c++) {
                cell *cl = &by_load[pol][k][c];
                printf("  %6.3f", cl->total ? (double)cl->accepted / (double)cl->total : 0.0);
                errors += cl->errors;
            }
            printf("   %ld\n", errors);
        }
        printf("%s: mean time per set (ms) by n (all m, U/m)\n%-10s", pol ? "fp (opa)" : "edf",
               "method");
        for (size_t a = 0; a < N_NS; a++)
            printf("  %8zu", ns[a]);
        printf("\n");
        for (int k = 0; k < N_METHODS; k++) {
            printf("%-10s", method_names[k]);
            for (size_t a = 0; a < N_NS; a++) {
                cell *cl = &by_n[pol][k][a];
                printf("  %8.3f", cl->total ? 1e3 * cl->seconds / (double)cl->total : 0.0);
            }
            printf("\n");
        }
    }
    speedup(seed, constrained, per_point, cpus, tasks, names);
    return 0;
}
