/* heuristics/pack_names.c — the names of the packing engine's placements and
 * orders (partition.h: rtp_placement_name, rtp_order_name and their parsers),
 * shared by the engine (heuristics/pack.c, its candidates' labels) and the
 * options of heuristics/partition.c without either calling the other. */
#include "heuristics/partition.h"

static const char *const placement_names[RTP_N_PLACEMENTS + 1] = {"ff", "bf", "wf", "nf", "sf"};
static const char *const order_names[RTP_N_ORDERS] = {"util", "density", "deadline",
                                                      "period", "input"};

const char *rtp_placement_name(rtp_placement p)
{
    return rtp_enum_name(placement_names, RTP_N_PLACEMENTS + 1, (int)p);
}

const char *rtp_order_name(rtp_order o)
{
    return rtp_enum_name(order_names, RTP_N_ORDERS, (int)o);
}

int rtp_placement_parse(const char *name, rtp_placement *out)
{
    int i = rtp_enum_find(placement_names, RTP_N_PLACEMENTS + 1, name);
    if (i < 0)
        return -1;
    *out = (rtp_placement)i;
    return 0;
}

int rtp_order_parse(const char *name, rtp_order *out)
{
    int i = rtp_enum_find(order_names, RTP_N_ORDERS, name);
    if (i < 0)
        return -1;
    *out = (rtp_order)i;
    return 0;
}
