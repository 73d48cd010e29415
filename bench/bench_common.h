/* bench/bench_common.h — what every benchmark times with: this thread's CPU
 * time, wall time, this process's CPU time (all in us, doubles: for ratios
 * and display only, never for a verdict), the machine's 1-minute load
 * average (HACKING.md "Benchmarks": ratios in one run, the load beside
 * them, since other engineers share the machine), and qsort's order of
 * doubles; and, for the two-thread goal, programs run as child processes
 * and the table of two threads against the machine's ceiling (two 1-thread
 * copies at once). No state: safe from any thread (the child runs from one
 * thread: fork). */
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

/* What `copies` child processes (1 or 2) started together used. */
typedef struct bench_run {
    double wall_us;  /* from the first start to the last exit */
    double cpu_us;   /* user + system of all of them */
    long sleeps;     /* voluntary context switches of all of them: waits for a
                      * lock, a free unit or I/O, which other load does not
                      * add (unlike the wall time) */
} bench_run;

/* Runs argv[k] (argv[k][0] is the program's path, NULL-ended) for k <
 * copies at once, each with OMP_NUM_THREADS=threads and standard output
 * and error to /dev/null. Exits (status 3, the command named) when one
 * ends with a status above 1. */
bench_run bench_run_copies(char *const *const argv[], int copies, int threads);

/* Two threads against the ceiling for n_progs programs (a new binary, then
 * a base to compare with), alternated over `rounds` (1..64) rounds of:
 * argv[p][0] on 1 thread, on 2 threads, and argv[p][0] with argv[p][1] as
 * two 1-thread copies at once (two commands so that copies writing files
 * can write to different places). 2 threads reach pair / (2 x two-thread
 * wall) of the ceiling (the 1-thread wall cancels); printed from the
 * minima (the quietest moment of each) and as the median and range of the
 * rounds' own ratios, with the load average before and after, the
 * 2-thread runs' sleeps, and the CPU time of 2 threads and of each of the
 * two copies against 1 thread's (less disturbed by other load than wall
 * time: what the second thread costs beyond what a second copy costs). */
void bench_ceiling_table(const char *what, char *const *const argv[][2], const char *const *names,
                         int n_progs, int rounds);

#endif
