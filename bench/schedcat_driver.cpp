// bench/schedcat_driver.cpp — the SchedCAT side of bench_throughput's
// comparisons [SchedCAT]: reads task sets in a plain text form and runs
// SchedCAT's native C++ tests on them, one thread. Built only when CMake is
// given RTP_SCHEDCAT_DIR (a SchedCAT checkout's native/ folder, whose
// sources are compiled in from there); never part of the tests or of CI.
//
// input: one set per line, "n C1 D1 T1 C2 D2 T2 ..." (whole ns)
// usage: schedcat_driver qpa FILE          one line per set: 1 or 0 (QPATest)
//        schedcat_driver gedf FILE M       the chain GFB, BAK, BCL, iterative
//                                          BCL (first acceptance wins): 1 or 0
//        schedcat_driver gedf-each FILE M  every test alone: "gfb bak bcl bcli"
//                                          as 0/1, then a line "# test-us ..."
// Every mode ends with "# read-us X analysis-us Y" (thread CPU time).
#include "tasks.h"
#include "schedulability.h"
#include "edf/baker.h"
#include "edf/bcl.h"
#include "edf/bcl_iterative.h"
#include "edf/gfb.h"
#include "edf/qpa.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

static double cpu_us()
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static void usage()
{
    std::fprintf(stderr, "usage: schedcat_driver qpa|gedf|gedf-each FILE [M]\n");
    std::exit(2);
}

int main(int argc, char **argv)
{
    if (argc < 3)
        usage();
    std::string mode = argv[1];
    unsigned m = argc > 3 ? (unsigned)std::strtoul(argv[3], nullptr, 10) : 1;
    if ((mode != "qpa" && m < 2) || (mode == "qpa" && argc != 3))
        usage();

    double t0 = cpu_us();
    FILE *f = std::fopen(argv[2], "rb");
    if (!f)
        usage();
    std::string text;
    char buf[1 << 16];
    size_t got;
    while ((got = std::fread(buf, 1, sizeof buf, f)) > 0)
        text.append(buf, got);
    std::fclose(f);
    std::vector<TaskSet> sets;
    const char *p = text.c_str();
    char *end;
    for (;;) {
        unsigned long n = std::strtoul(p, &end, 10);
        if (end == p)
            break;
        p = end;
        sets.emplace_back();
        for (unsigned long i = 0; i < n; i++) {
            unsigned long c = std::strtoul(p, &end, 10);
            unsigned long d = std::strtoul(end, &end, 10);
            unsigned long t = std::strtoul(end, &end, 10);
            p = end;
            sets.back().add_task(c, t, d);
        }
    }
    double t1 = cpu_us();

    std::string out;
    double each[4] = {0, 0, 0, 0};
    for (TaskSet &ts : sets) {
        if (mode == "qpa") {
            out += QPATest(1).is_schedulable(ts) ? "1\n" : "0\n";
        } else if (mode == "gedf") {
            // Preconditions once, as SchedCAT's own GlobalEDF does.
            bool ok = ts.has_only_feasible_tasks() && ts.is_not_overutilized(m) &&
                      ts.has_only_constrained_deadlines();
            ok = ok && (GFBGedf(m).is_schedulable(ts, false) ||
                        BakerGedf(m).is_schedulable(ts, false) ||
                        BCLGedf(m).is_schedulable(ts, false) ||
                        BCLIterativeGedf(m).is_schedulable(ts, false));
            out += ok ? "1\n" : "0\n";
        } else if (mode == "gedf-each") {
            SchedulabilityTest *tests[4] = {new GFBGedf(m), new BakerGedf(m), new BCLGedf(m),
                                            new BCLIterativeGedf(m)};
            for (int j = 0; j < 4; j++) {
                double s = cpu_us();
                bool ok = tests[j]->is_schedulable(ts, true);
                each[j] += cpu_us() - s;
                out += ok ? (j < 3 ? "1 " : "1\n") : (j < 3 ? "0 " : "0\n");
                delete tests[j];
            }
        } else {
            usage();
        }
    }
    double t2 = cpu_us();
    std::fwrite(out.data(), 1, out.size(), stdout);
    if (mode == "gedf-each")
        std::printf("# test-us %.1f %.1f %.1f %.1f\n", each[0], each[1], each[2], each[3]);
    std::printf("# read-us %.1f analysis-us %.1f\n", t1 - t0, t2 - t1);
    return 0;
}
