/* tests/consumer/consumer.c — uses each installed module once: reads a task
 * set, runs the exact EDF test, partitions it with the parallel heuristics
 * (OpenMP) and the ILP (GLPK), and generates a random set. Prints one line
 * per step; exit 0 only when every answer is the known one. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rtpack/gen/gen.h>
#include <rtpack/ilp/ilp.h>
#include <rtpack/solver/edf.h>
#include <rtpack/version.h>

static const char doc[] =
    "{\"platform\":{\"cpus\":2},\"tasks\":["
    "{\"name\":\"T1\",\"wcet\":\"3ms\",\"period\":\"4ms\"},"
    "{\"name\":\"T2\",\"wcet\":\"2ms\",\"period\":\"6ms\"},"
    "{\"name\":\"T3\",\"wcet\":\"4ms\",\"period\":\"8ms\"}]}";

int main(void)
{
    rtp_taskset ts, gen;
    rtp_diag diag;
    rtp_edf_result edf;
    rtp_plan best, ilp;
    rtp_ilp_status ilp_status;
    int *cpus = NULL, ok = 1;
    size_t n_cpus = 0;

    if (strcmp(RTPACK_VERSION, EXPECTED_VERSION) != 0)
        ok = 0;
    printf("version %s\n", RTPACK_VERSION);
    if (rtp_taskset_parse_json(doc, strlen(doc), &ts, &diag) != RTP_OK ||
        rtp_taskset_cpu_ids(&ts, 0, &cpus, &n_cpus, &diag) != RTP_OK) {
        fprintf(stderr, "consumer: %s\n", diag.message);
        return 2;
    }
    /* U = 0.75 + 0.333 + 0.5 > 1: not on one CPU, fine on two. */
    if (rtp_edf_qpa(ts.tasks, ts.n_tasks, 1, NULL, &edf, &diag) != RTP_OK)
        return 2;
    printf("edf one cpu: %s\n", edf.schedulable ? "schedulable" : "not schedulable");
    ok = ok && !edf.schedulable;

    rtp_part_opts part = rtp_part_opts_default();
    if (rtp_part_best(&ts, cpus, n_cpus, &part, &best, &diag) != RTP_OK)
        return 2;
    printf("best: feasible=%d\n", best.feasible);
    ok = ok && best.feasible;

    rtp_ilp_opts iopts = rtp_ilp_opts_default();
    if (rtp_ilp_solve(&ts, cpus, n_cpus, &iopts, &ilp, &ilp_status, NULL, &diag) != RTP_OK)
        return 2;
    printf("ilp: %s feasible=%d\n", rtp_ilp_status_name(ilp_status), ilp.feasible);
    ok = ok && ilp_status == RTP_ILP_OPTIMAL && ilp.feasible;

    rtp_gen_opts gopts = rtp_gen_opts_default();
    gopts.n_tasks = 5;
    gopts.total_util = (rtp_ratio){3, 2};
    if (rtp_gen_taskset(&gopts, 7, 0, 0, &gen, &diag) != RTP_OK)
        return 2;
    printf("gen: %zu tasks\n", gen.n_tasks);
    ok = ok && gen.n_tasks == 5;

    rtp_plan_free(&best);
    rtp_plan_free(&ilp);
    rtp_taskset_free(&gen);
    rtp_taskset_free(&ts);
    free(cpus);
    return ok ? 0 : 1;
}
