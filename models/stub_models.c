/* TEMPORARY stubs so the tree links while models/ is written; removed when
 * duration.c, ratio.c, taskset.c and plan.c land. */
#include "models/duration.h"
#include "models/plan.h"
#include "models/ratio.h"
#include "models/taskset.h"

#include <stdlib.h>
#include <string.h>

rtp_status rtp_plan_init_cpus(rtp_plan *p, rtp_policy po, const int *c, size_t n) { (void)p; (void)po; (void)c; (void)n; return RTP_ENOTIMPL; }
rtp_status rtp_plan_add_task(rtp_plan *p, size_t b, const rtp_task *t, int pr, rtp_ns r) { (void)p; (void)b; (void)t; (void)pr; (void)r; return RTP_ENOTIMPL; }
char *rtp_plan_to_json(const rtp_plan *p, int pr) { (void)p; (void)pr; return strdup("{}"); }
rtp_status rtp_plan_parse_json(const char *t, size_t l, rtp_plan *o, rtp_diag *d) { (void)t; (void)l; memset(o, 0, sizeof *o); return rtp_diag_set(d, RTP_ENOTIMPL, "", "not yet"); }
void rtp_plan_free(rtp_plan *p) { (void)p; }
