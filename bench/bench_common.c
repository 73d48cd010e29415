/* bench/bench_common.c — the benchmarks' clocks, load average, child
 * processes and ceiling table (bench/bench_common.h). */
#include "bench/bench_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double clock_us(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

double bench_cpu_us(void)
{
    return clock_us(CLOCK_THREAD_CPUTIME_ID);
}

double bench_wall_us(void)
{
    return clock_us(CLOCK_MONOTONIC);
}

double bench_process_cpu_us(void)
{
    return clock_us(CLOCK_PROCESS_CPUTIME_ID);
}

double bench_load_average(void)
{
    double l[1];
    return getloadavg(l, 1) == 1 ? l[0] : -1;
}

int bench_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double tv_us(struct timeval tv)
{
    return (double)tv.tv_sec * 1e6 + (double)tv.tv_usec;
}

bench_run bench_run_copies(char *const *const argv[], int copies, int threads)
{
    bench_run r = {0, 0, 0};
    pid_t pid[2];
    if (copies < 1 || copies > 2)
        exit(3);
    fflush(stdout); /* or the child's buffer prints it again */
    fflush(stderr);
    double t0 = bench_wall_us();
    for (int k = 0; k < copies; k++)
        if ((pid[k] = fork()) == 0) {
            char th[16];
            snprintf(th, sizeof th, "%d", threads);
            setenv("OMP_NUM_THREADS", th, 1);
            if (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr))
                _exit(3);
            execv(argv[k][0], argv[k]);
            _exit(3);
        }
    for (int k = 0; k < copies; k++) {
        int status;
        struct rusage ru;
        if (pid[k] < 0 || wait4(pid[k], &status, 0, &ru) < 0 || !WIFEXITED(status) ||
            WEXITSTATUS(status) > 1) {
            fprintf(stderr, "bench: %s %s failed\n", argv[k][0], argv[k][1] ? argv[k][1] : "");
            exit(3);
        }
        r.cpu_us += tv_us(ru.ru_utime) + tv_us(ru.ru_stime);
        r.sleeps += ru.ru_nvcsw;
    }
    r.wall_us = bench_wall_us() - t0;
    return r;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, bench_cmp_double);
    return v[n / 2];
}

void bench_ceiling_table(const char *what, char *const *const argv[][2], const char *const *names,
                         int n_progs, int rounds)
{
    enum { MAXR = 64, MAXP = 2 };
    double one[MAXP][MAXR], two[MAXP][MAXR], pair[MAXP][MAXR], ratio[MAXP][MAXR];
    double slept[MAXP][MAXR], cpu_two[MAXP][MAXR], cpu_pair[MAXP][MAXR];
    if (rounds < 1 || rounds > MAXR || n_progs < 1 || n_progs > MAXP)
        exit(3);
    double load0 = bench_load_average();
    for (int r = 0; r < rounds; r++)
        for (int p = 0; p < n_progs; p++) {
            bench_run a = bench_run_copies(argv[p], 1, 1), b = bench_run_copies(argv[p], 1, 2);
            bench_run c = bench_run_copies(argv[p], 2, 1);
            one[p][r] = a.wall_us;
            two[p][r] = b.wall_us;
            slept[p][r] = (double)b.sleeps;
            pair[p][r] = c.wall_us;
            ratio[p][r] = c.wall_us / (2 * b.wall_us);
            cpu_two[p][r] = b.cpu_us / a.cpu_us;
            cpu_pair[p][r] = c.cpu_us / (2 * a.cpu_us);
        }
    printf("%s, %d rounds (load %.2f -> %.2f):\n", what, rounds, load0, bench_load_average());
    for (int p = 0; p < n_progs; p++) {
        qsort(one[p], (size_t)rounds, sizeof(double), bench_cmp_double);
        qsort(two[p], (size_t)rounds, sizeof(double), bench_cmp_double);
        qsort(pair[p], (size_t)rounds, sizeof(double), bench_cmp_double);
        double mid = median(ratio[p], rounds), lo = ratio[p][0], hi = ratio[p][rounds - 1];
        printf("  %-4s 1 thread %.1f ms, 2 threads %.1f ms (%.2fx), two copies %.1f ms "
               "(ceiling %.2fx): %.3f of it; per round median %.3f [%.3f..%.3f]; 2 threads "
               "slept %.0f times; CPU time against 1 thread's: 2 threads %.3f, two copies %.3f each "
               "(medians)\n",
               names[p], one[p][0] / 1e3, two[p][0] / 1e3, one[p][0] / two[p][0],
               pair[p][0] / 1e3, 2 * one[p][0] / pair[p][0], pair[p][0] / (2 * two[p][0]), mid,
               lo, hi, median(slept[p], rounds), median(cpu_two[p], rounds),
               median(cpu_pair[p], rounds));
    }
}
