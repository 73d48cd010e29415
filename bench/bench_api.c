/* bench/bench_api.c — the C side of bench/bench_python.py: the same work as
 * rtpack.analyze(ts, "edf") for one task-set file (rtp_analyze + the result
 * document as text, as the Python package gets it), repeated; prints the
 * median microseconds per call over 7 rounds.
 *
 * usage: bench_api FILE [CALLS (default 2000)] */
#include "bench/bench_common.h"
#include "solver/analyze.h"

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    if (argc < 2)
        return 2;
    long calls = argc > 2 ? atol(argv[2]) : 2000;
    rtp_taskset ts;
    rtp_diag diag;
    if (calls < 1 || rtp_taskset_load(argv[1], (size_t)1 << 26, &ts, &diag) != RTP_OK) {
        fprintf(stderr, "bench_api: %s\n", diag.message);
        return 2;
    }
    rtp_analyze_opts opts = rtp_analyze_opts_default(RTP_POLICY_EDF);
    double rounds[7];
    for (int r = 0; r < 7; r++) {
        double t0 = bench_wall_us();
        for (long k = 0; k < calls; k++) {
            rtp_analysis a;
            if (rtp_analyze(&ts, &opts, &a, &diag) != RTP_OK)
                return 3;
            char *text = rtp_analysis_doc_to_json(&a.doc, 0);
            if (!text)
                return 3;
            free(text);
            rtp_analysis_free(&a);
        }
        rounds[r] = (bench_wall_us() - t0) / (double)calls;
    }
    qsort(rounds, 7, sizeof rounds[0], bench_cmp_double);
    printf("%.3f\n", rounds[3]);
    rtp_taskset_free(&ts);
    return 0;
}
