/* TEMPORARY stub: partitioning heuristics are being written (issue 4). */
#include "heuristics/partition.h"

#include <string.h>

rtp_part_opts rtp_part_opts_default(void)
{
    rtp_part_opts o;
    memset(&o, 0, sizeof o);
    o.policy = RTP_POLICY_EDF;
    o.priority = RTP_PRIO_OPA;
    o.capacity.num = 1;
    o.capacity.den = 1;
    o.limits = rtp_limits_default();
    return o;
}
