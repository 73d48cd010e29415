/* bench/bench_common.c — the benchmarks' clocks and load average
 * (bench/bench_common.h). */
#include "bench/bench_common.h"

#include <stdlib.h>
#include <time.h>

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
