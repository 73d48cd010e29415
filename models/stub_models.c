/* TEMPORARY stubs so the tree links while models/ is written; removed when
 * duration.c, ratio.c, taskset.c and plan.c land. */
#include "models/duration.h"
#include "models/plan.h"
#include "models/ratio.h"
#include "models/taskset.h"

#include <stdlib.h>
#include <string.h>

rtp_ns rtp_duration_unit(const char *name) { (void)name; return 0; }
rtp_status rtp_duration_parse(const char *t, rtp_ns *o, char *w, size_t s) { (void)t; (void)o; (void)w; (void)s; return RTP_ENOTIMPL; }
rtp_status rtp_duration_scale(int64_t c, rtp_ns u, rtp_ns *o) { (void)c; (void)u; (void)o; return RTP_ENOTIMPL; }
void rtp_duration_format(rtp_ns v, char *b, size_t s) { (void)v; if (s) b[0] = 0; }
rtp_status rtp_ratio_parse_decimal(const char *t, rtp_ratio *o, char *w, size_t s) { (void)t; (void)o; (void)w; (void)s; return RTP_ENOTIMPL; }
void rtp_ratio_format(rtp_ratio r, char *b, size_t s) { (void)r; if (s) b[0] = 0; }
int rtp_ratio_cmp(rtp_ratio a, rtp_ratio b) { (void)a; (void)b; return 0; }
double rtp_ratio_double(rtp_ratio r) { return (double)r.num / (double)r.den; }
int rtp_load_cmp(const rtp_task *t, size_t n, rtp_load_kind k, rtp_ratio b) { (void)t; (void)n; (void)k; (void)b; return 0; }
int rtp_load_cmp_sets(const rtp_task *a, size_t na, const rtp_task *b, size_t nb, rtp_load_kind k) { (void)a; (void)na; (void)b; (void)nb; (void)k; return 0; }
int rtp_load_cmp_plus(const rtp_task *t, size_t n, const rtp_task *e, rtp_load_kind k, rtp_ratio b) { (void)t; (void)n; (void)e; (void)k; (void)b; return 0; }
double rtp_load_double(const rtp_task *t, size_t n, rtp_load_kind k) { (void)t; (void)n; (void)k; return 0; }
rtp_status rtp_taskset_parse_json(const char *t, size_t l, rtp_taskset *o, rtp_diag *d) { (void)t; (void)l; memset(o, 0, sizeof *o); return rtp_diag_set(d, RTP_ENOTIMPL, "", "reader not written yet"); }
rtp_status rtp_read_file(const char *p, char **t, size_t *l, rtp_diag *d) { (void)p; (void)t; (void)l; return rtp_diag_set(d, RTP_ENOTIMPL, "", "not yet"); }
rtp_status rtp_taskset_load(const char *p, rtp_taskset *o, rtp_diag *d) { (void)p; memset(o, 0, sizeof *o); return rtp_diag_set(d, RTP_ENOTIMPL, "", "reader not written yet"); }
char *rtp_taskset_to_json(const rtp_taskset *ts, int p) { (void)ts; (void)p; return strdup("{}"); }
void rtp_taskset_free(rtp_taskset *ts) { (void)ts; }
rtp_status rtp_task_copy(rtp_task *d, const rtp_task *s) { *d = *s; return RTP_OK; }
void rtp_task_free_fields(rtp_task *t) { (void)t; }
rtp_status rtp_taskset_cpu_ids(const rtp_taskset *ts, int oc, int **c, size_t *n, rtp_diag *d) { (void)ts; (void)oc; (void)c; (void)n; return rtp_diag_set(d, RTP_ENOTIMPL, "", "not yet"); }
rtp_status rtp_plan_init_cpus(rtp_plan *p, rtp_policy po, const int *c, size_t n) { (void)p; (void)po; (void)c; (void)n; return RTP_ENOTIMPL; }
rtp_status rtp_plan_add_task(rtp_plan *p, size_t b, const rtp_task *t, int pr, rtp_ns r) { (void)p; (void)b; (void)t; (void)pr; (void)r; return RTP_ENOTIMPL; }
char *rtp_plan_to_json(const rtp_plan *p, int pr) { (void)p; (void)pr; return strdup("{}"); }
rtp_status rtp_plan_parse_json(const char *t, size_t l, rtp_plan *o, rtp_diag *d) { (void)t; (void)l; memset(o, 0, sizeof *o); return rtp_diag_set(d, RTP_ENOTIMPL, "", "not yet"); }
void rtp_plan_free(rtp_plan *p) { (void)p; }
