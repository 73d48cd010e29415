/* TEMPORARY stub: the ILP path is being written (issue 5). */
#include "ilp/ilp.h"

#include <string.h>

rtp_ilp_opts rtp_ilp_opts_default(void)
{
    rtp_ilp_opts o;
    memset(&o, 0, sizeof o);
    o.part = rtp_part_opts_default();
    o.time_limit_s = 60.0;
    o.symmetry_breaking = 1;
    o.warm_start = 1;
    return o;
}

const char *rtp_ilp_status_name(rtp_ilp_status s)
{
    return s == RTP_ILP_OPTIMAL ? "optimal" : s == RTP_ILP_INFEASIBLE ? "infeasible" : "time_limit";
}

const char *rtp_ilp_objective_name(rtp_ilp_objective o)
{
    return o == RTP_ILP_FEASIBILITY ? "feasibility" : o == RTP_ILP_MIN_CPUS ? "min-cpus" : "balanced";
}

int rtp_ilp_objective_parse(const char *name, rtp_ilp_objective *out)
{
    for (int i = 0; i < 3; i++)
        if (strcmp(name, rtp_ilp_objective_name((rtp_ilp_objective)i)) == 0) {
            *out = (rtp_ilp_objective)i;
            return 0;
        }
    return -1;
}

rtp_status rtp_ilp_solve(const rtp_taskset *ts, const int *cpus, size_t n_cpus,
                         const rtp_ilp_opts *opts, rtp_plan *plan,
                         rtp_ilp_status *status, rtp_ilp_stats *stats,
                         rtp_diag *diag)
{
    (void)ts; (void)cpus; (void)n_cpus; (void)opts; (void)plan; (void)status; (void)stats;
    return rtp_diag_set(diag, RTP_ENOTIMPL, "", "--method ilp is not implemented yet");
}
