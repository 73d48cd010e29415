/* bench/bench_common.h — what every benchmark times with: this thread's CPU
 * time, wall time, this process's CPU time (all in us, doubles: for ratios
 * and display only, never for a verdict), the machine's 1-minute load
 * average (HACKING.md "Benchmarks": ratios in one run, the load beside
 * them, since other engineers share the machine), and qsort's order of
 * doubles. No state: safe from any thread. */
#ifndef RTP_BENCH_COMMON_H
#define RTP_BENCH_COMMON_H

#include <stddef.h>

/* CPU time of the calling thread (CLOCK_THREAD_CPUTIME_ID): other
 * processes on the machine do not count. */
double bench_cpu_us(void);

/* Wall time (CLOCK_MONOTONIC). */
double bench_wall_us(void);

/* CPU time of the whole process, every thread (CLOCK_PROCESS_CPUTIME_ID). */
double bench_process_cpu_us(void);

/* The 1-minute load average, -1 when unknown. */
double bench_load_average(void);

/* qsort's comparison of doubles, ascending. */
int bench_cmp_double(const void *a, const void *b);

#endif
