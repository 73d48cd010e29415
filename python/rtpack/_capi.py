"""The C API of librtpack.so as cffi sees it (ABI mode: no compiler at
install time). Every struct here mirrors an installed header field for field;
python/tests/test_layout.py compiles a C program against those headers and
fails when a size or an offset differs, so a header change cannot go
unnoticed. Only what the package calls is declared."""
import ctypes.util
import os

from cffi import FFI

SONAME = "librtpack.so.0.1"

CDEF = r"""
typedef int64_t rtp_ns;
typedef enum rtp_status { RTP_OK = 0, RTP_EINPUT, RTP_ELIMIT, RTP_ENOMEM,
                          RTP_EINTERNAL } rtp_status;
typedef struct rtp_diag { char message[512]; char path[160]; int line; int column; } rtp_diag;
typedef enum rtp_policy { RTP_POLICY_EDF = 0, RTP_POLICY_FP, RTP_POLICY_GEDF,
                          RTP_POLICY_GFP } rtp_policy;
typedef enum rtp_prio_rule { RTP_PRIO_OPA = 0, RTP_PRIO_DM, RTP_PRIO_RM,
                             RTP_PRIO_GIVEN } rtp_prio_rule;
typedef struct rtp_limits { uint64_t max_iterations; rtp_ns deadline_ns;
                            const volatile int *interrupt; } rtp_limits;
typedef struct rtp_ratio { int64_t num; int64_t den; } rtp_ratio;
typedef enum rtp_load_kind { RTP_LOAD_UTIL = 0, RTP_LOAD_DENSITY } rtp_load_kind;

typedef struct rtp_overheads { rtp_ns release_latency_ns; rtp_ns context_switch_ns;
    rtp_ns deadline_charge_ns; rtp_ns noise_per_ms_ns; rtp_ns lock_ns; } rtp_overheads;
typedef struct rtp_task {
    char *name; rtp_ns wcet_ns; rtp_ns deadline_ns; rtp_ns period_ns; rtp_ns jitter_ns;
    rtp_ns blocking_ns; char **cmd; size_t cmd_len; int cmd_is_string; int *affinity;
    size_t affinity_len; int has_priority; int priority;
    void *requests; size_t n_requests;  /* rtp_request *: not read here */
    int rr; rtp_overheads charged;
} rtp_task;
typedef struct rtp_platform { int *cpus; size_t n_cpus; int **clusters; size_t *cluster_len;
    size_t n_clusters; int cpus_given_as_count; int has_overheads;
    rtp_overheads overheads; rtp_ns rr_quantum_ns; rtp_ns tick_ns; } rtp_platform;
typedef struct rtp_taskset { rtp_ns time_unit_ns; int has_platform; rtp_platform platform;
    rtp_task *tasks; size_t n_tasks;
    void *resources; size_t n_resources;  /* rtp_resource *: not read here */
    char *name_block; size_t name_block_size;
} rtp_taskset;

void rtp_diag_clear(rtp_diag *diag);
int rtp_status_exit_code(rtp_status status);
rtp_limits rtp_limits_default(void);
rtp_status rtp_taskset_parse_json(const char *text, size_t len, rtp_taskset *out,
                                  rtp_diag *diag);
char *rtp_taskset_to_json(const rtp_taskset *ts, int pretty);
void rtp_taskset_free(rtp_taskset *ts);
rtp_status rtp_taskset_cpu_ids(const rtp_taskset *ts, int override_cpus, int **cpus,
                               size_t *n_cpus, rtp_diag *diag);

typedef struct rtp_analysis_task {
    const char *name; rtp_ns wcet_ns, deadline_ns, period_ns; rtp_ns jitter_ns, blocking_ns;
    int has_priority; int priority; int has_response; rtp_ns response_time_ns;
    int has_meets_deadline; int meets_deadline; int has_wcet_max; rtp_ns wcet_max_ns;
    int has_locks; rtp_ns computed_blocking_ns; rtp_ns spin_ns; const char *blocking_resource;
    int has_suspension; rtp_ns suspension_ns;
    int has_tardiness; rtp_ns tardiness_ns, tardiness_da_ns, tardiness_cv_ns;
    const char *tardiness_by;
} rtp_analysis_task;
typedef struct rtp_scaling_text { int present; const char *decimal; const char *exact; }
    rtp_scaling_text;
typedef struct rtp_analysis_doc {
    long line; rtp_policy policy; int has_priority_rule; rtp_prio_rule priority_rule; int cpus;
    int schedulable; int has_assignment_found; int assignment_found; int has_test;
    const char *test; const char *not_applicable; double utilization;
    int has_effective_utilization; double effective_utilization; int has_first_miss;
    rtp_ns first_miss_ns; rtp_scaling_text scaling; const rtp_analysis_task *tasks;
    size_t n_tasks;
} rtp_analysis_doc;
typedef struct rtp_scaling { int unbounded; int exists; char *exact; char decimal[64];
    const char *not_defined; } rtp_scaling;
typedef struct rtp_tardiness { rtp_ns bound_ns; rtp_ns da_ns; rtp_ns cv_ns; } rtp_tardiness;
typedef struct rtp_analyze_opts { rtp_policy policy; rtp_prio_rule priority;
    rtp_limits limits; int cpus_override; int sensitivity; } rtp_analyze_opts;
typedef struct rtp_analysis { rtp_analysis_doc doc; const rtp_task *eff; rtp_task *eff_copy;
    rtp_analysis_task *rows; int *priority; rtp_ns *response; rtp_ns *wcet_max;
    rtp_scaling scaling; uint64_t *mask; char why[320]; rtp_tardiness *tardiness;
    int bounded; } rtp_analysis;

rtp_analyze_opts rtp_analyze_opts_default(rtp_policy policy);
rtp_status rtp_analyze(const rtp_taskset *ts, const rtp_analyze_opts *opts, rtp_analysis *out,
                       rtp_diag *diag);
void rtp_analysis_free(rtp_analysis *a);
char *rtp_analysis_doc_to_json(const rtp_analysis_doc *doc, int pretty);

typedef enum rtp_placement { RTP_PLACE_FF = 0, RTP_PLACE_BF, RTP_PLACE_WF, RTP_PLACE_NF,
    RTP_PLACE_SF } rtp_placement;
typedef enum rtp_order { RTP_ORDER_UTIL = 0, RTP_ORDER_DENSITY, RTP_ORDER_DEADLINE,
    RTP_ORDER_PERIOD, RTP_ORDER_INPUT } rtp_order;
typedef struct rtp_part_opts { rtp_policy policy; rtp_prio_rule priority;
    rtp_placement placement; rtp_order order; rtp_ratio capacity; rtp_load_kind fit_measure;
    int bound_admission; int soft; int keep_tie_policy; int threads; rtp_limits limits;
    void (*progress)(void *ctx, uint64_t planned, uint64_t placed); void *progress_ctx;
} rtp_part_opts;

typedef struct rtp_plan_task { rtp_task task; int priority; rtp_ns response_time_ns;
    int has_wcet_max; rtp_ns wcet_max_ns; int has_locks; rtp_ns computed_blocking_ns;
    rtp_ns spin_ns; size_t binding; int has_suspension; rtp_ns suspension_ns; } rtp_plan_task;
typedef struct rtp_plan_scaling { int present; char *exact; char decimal[64];
    const char *not_defined; } rtp_plan_scaling;
typedef struct rtp_plan_bin { int *cpus; size_t n_cpus; char test[24]; rtp_plan_task *tasks;
    size_t n_tasks; rtp_plan_scaling scaling; } rtp_plan_bin;
typedef struct rtp_plan_proof { char kind[24]; char **tasks; size_t n_tasks; size_t clique;
    int *cpus; size_t n_cpus; char *explanation; } rtp_plan_proof;
typedef struct rtp_plan { int feasible; rtp_policy policy; char method[16]; char status[16];
    char chosen_placement[8]; char chosen_order[12]; char chosen_layout[16]; int clustered;
    int *platform_cpus; size_t n_platform_cpus; rtp_overheads overheads; int soft;
    rtp_ns rr_quantum_ns; rtp_ns tick_ns; rtp_plan_bin *bins;
    size_t n_bins; rtp_plan_task *unassigned; size_t n_unassigned; rtp_plan_proof proof;
    int deploy_judged; int deployable; char deployable_reason[600];
    rtp_plan_scaling scaling; void *resources; size_t n_resources; } rtp_plan;

rtp_part_opts rtp_part_opts_default(void);
rtp_status rtp_part_pack(const rtp_taskset *ts, const int *cpus, size_t n_cpus,
                         const rtp_part_opts *opts, rtp_plan *plan, rtp_diag *diag);
rtp_status rtp_part_best(const rtp_taskset *ts, const int *cpus, size_t n_cpus,
                         const rtp_part_opts *opts, rtp_plan *plan, rtp_diag *diag);
rtp_status rtp_part_sensitivity(rtp_plan *plan, const rtp_part_opts *opts, rtp_diag *diag);

typedef enum rtp_ilp_objective { RTP_ILP_FEASIBILITY = 0, RTP_ILP_MIN_CPUS, RTP_ILP_BALANCED }
    rtp_ilp_objective;
typedef struct rtp_ilp_opts { rtp_part_opts part; rtp_ilp_objective objective;
    double time_limit_s; const char *write_lp_path; int symmetry_breaking; int warm_start;
    int lp_rounding; unsigned prechecks; int conflict_rows; int exact_nodes;
    unsigned glpk_cuts; } rtp_ilp_opts;
typedef struct rtp_partition_opts { rtp_part_opts part; rtp_ilp_opts ilp; int method;
    int override_cpus; const char *clusters; unsigned layouts; int sensitivity;
    void (*packing_done)(void *ctx); } rtp_partition_opts;
typedef struct rtp_partition_info { int undecided; int options_error; } rtp_partition_info;
rtp_partition_opts rtp_partition_opts_default(void);
rtp_status rtp_partition(const rtp_taskset *ts, const rtp_partition_opts *opts, rtp_plan *plan,
                         rtp_partition_info *info, rtp_diag *diag);
char *rtp_plan_to_json(const rtp_plan *plan, int pretty);
void rtp_plan_free(rtp_plan *plan);

typedef enum rtp_cgroup_mode { RTP_CGROUP_AUTO = 0, RTP_CGROUP_V1, RTP_CGROUP_V2 }
    rtp_cgroup_mode;
typedef struct rtp_deploy_opts { rtp_ratio budget; int fifo_lo, fifo_hi; const char *name;
    rtp_cgroup_mode cgroup; const char *cgroup_root; int duration_s; int isolate;
    rtp_ratio runtime_margin; int reclaim; int overrun_signal; const char *launcher;
    rtp_limits limits; const char *const *(*cmd_for)(void *ctx, size_t j, size_t i);
    void *cmd_ctx; const rtp_overheads *analysed; const char *fix; } rtp_deploy_opts;
rtp_deploy_opts rtp_deploy_opts_default(void);
rtp_status rtp_deploy_judge(rtp_plan *plan, const rtp_deploy_opts *opts, rtp_diag *diag);

typedef enum rtp_gen_algo { RTP_GEN_UUNIFAST_DISCARD = 0, RTP_GEN_RANDFIXEDSUM } rtp_gen_algo;
typedef enum rtp_gen_deadlines { RTP_DL_IMPLICIT = 0, RTP_DL_CONSTRAINED, RTP_DL_ARBITRARY }
    rtp_gen_deadlines;
typedef struct rtp_gen_opts { size_t n_tasks; rtp_ratio total_util; rtp_ratio max_task_util;
    rtp_gen_algo algo; rtp_ns period_min_ns; rtp_ns period_max_ns; rtp_ns granularity_ns;
    int harmonic; const rtp_ns *period_set; size_t n_period_set; rtp_gen_deadlines deadlines;
    rtp_ratio constrained_factor; rtp_ratio arbitrary_factor; uint32_t max_attempts;
    size_t n_resources; rtp_ratio access; int64_t max_requests; rtp_ns cs_min_ns, cs_max_ns; }
    rtp_gen_opts;
rtp_gen_opts rtp_gen_opts_default(void);
rtp_status rtp_gen_taskset(const rtp_gen_opts *opts, uint64_t seed, uint64_t point,
                           uint64_t index, rtp_taskset *out, rtp_diag *diag);

typedef struct rtp_sweep rtp_sweep;
rtp_sweep *rtp_sweep_open(const char *text, size_t len, rtp_diag *diag);
void rtp_sweep_close(rtp_sweep *sw);
size_t rtp_sweep_n_points(const rtp_sweep *sw);
rtp_status rtp_sweep_taskset(const rtp_sweep *sw, size_t point, size_t index,
                             rtp_taskset *out, rtp_diag *diag);
void rtp_sweep_point_key(const rtp_sweep *sw, size_t point, char *buf, size_t size);
void rtp_sweep_point_resources(const rtp_sweep *sw, size_t point, char *buf, size_t size);

typedef struct rtp_text { char *data; size_t len; size_t cap; int failed; } rtp_text;
void rtp_text_init(rtp_text *t);
void rtp_text_free(rtp_text *t);
rtp_status rtp_plan_parse_json(const char *text, size_t len, rtp_plan *out, rtp_diag *diag);
rtp_status rtp_deploy_flags_check(const rtp_plan *plan, const rtp_deploy_opts *opts, int rtapp,
                                  rtp_diag *diag);
rtp_status rtp_deploy_check(const rtp_plan *plan, const rtp_deploy_opts *opts, int *deployable,
                            rtp_diag *diag);
void rtp_deploy_priority_warnings(const rtp_plan *plan, const rtp_deploy_opts *opts,
                                  rtp_text *warnings);
rtp_status rtp_deploy_script(const rtp_plan *plan, const rtp_deploy_opts *opts, char **script,
                             rtp_text *warnings, rtp_diag *diag);
typedef enum rtp_emit_format { RTP_EMIT_SCRIPT = 0, RTP_EMIT_SYSTEMD, RTP_EMIT_RTAPP,
    RTP_EMIT_JSON, RTP_EMIT_HEADER } rtp_emit_format;
typedef struct rtp_deploy_file { char *name; char *content; int executable; } rtp_deploy_file;
typedef struct rtp_emit_result { int deployable; int options_error; char *text;
    rtp_deploy_file *files; size_t n_files; rtp_text warnings; } rtp_emit_result;
void rtp_emit_result_free(rtp_emit_result *out);
rtp_status rtp_deploy_emit(const rtp_plan *plan, rtp_emit_format format,
                           const rtp_deploy_opts *opts, const char *plan_name, const char *dir,
                           rtp_emit_result *out, rtp_diag *diag);

typedef struct rtp_sim_doc_task { const char *name; int cpu; const int *cpus; size_t n_cpus;
    rtp_policy policy; int priority; uint64_t jobs, misses; rtp_ns first_miss_ns;
    rtp_ns response_max_ns; int has_locks; rtp_ns blocking_max_ns; rtp_ns spin_max_ns; }
    rtp_sim_doc_task;
typedef struct rtp_sim_doc { rtp_ns until_ns; const rtp_sim_doc_task *tasks; size_t n_tasks;
    int schedulable; const char *not_simulated[5]; } rtp_sim_doc;
typedef struct rtp_simulate_opts { rtp_policy policy; rtp_prio_rule priority;
    int cpus_override; rtp_ns until_ns; const char *overrun_task; rtp_ns overrun_ns;
    int gantt; rtp_ns gantt_from_ns; rtp_limits limits; } rtp_simulate_opts;
typedef struct rtp_sim_bin { rtp_policy policy; const int *cpus; size_t n_cpus; size_t first, n;
    const int *priority; } rtp_sim_bin;
typedef struct rtp_gantt_rec { rtp_ns from, until; int truncated; size_t task_offset;
    const int *cpu_ids; void *boxes; size_t n_boxes, cap_boxes; void *misses;
    size_t n_misses, cap_misses; int failed; void *locks; size_t n_locks, cap_locks;
    const char *const *resource_names; } rtp_gantt_rec;
typedef struct rtp_simulation { rtp_sim_doc doc; rtp_sim_doc_task *rows; rtp_sim_bin *bins;
    size_t n_bins; const rtp_task *tasks; size_t n_tasks; const char **unassigned;
    size_t n_unassigned; long overrun_index; rtp_ns overrun_ns; int until_default;
    int option_error; rtp_gantt_rec gantt; const char **resource_names; rtp_task *task_copy;
    int *prio_store;
    int *cpu_store; } rtp_simulation;
rtp_simulate_opts rtp_simulate_opts_default(rtp_policy policy);
rtp_status rtp_simulate(const rtp_taskset *ts, const rtp_simulate_opts *opts,
                        rtp_simulation *out, rtp_diag *diag);
rtp_status rtp_simulate_plan(const rtp_plan *plan, const rtp_simulate_opts *opts,
                             rtp_simulation *out, rtp_diag *diag);
char *rtp_simulation_svg(const rtp_simulation *sim, const char *title);
void rtp_simulation_free(rtp_simulation *sim);
char *rtp_sim_doc_to_json(const rtp_sim_doc *doc, int pretty);

void free(void *);
"""

# The structs test_layout.py checks against the C headers.
STRUCTS = ["rtp_diag", "rtp_limits", "rtp_ratio", "rtp_task", "rtp_overheads", "rtp_platform",
           "rtp_taskset", "rtp_analysis_task", "rtp_scaling_text", "rtp_analysis_doc",
           "rtp_scaling", "rtp_analyze_opts", "rtp_analysis", "rtp_part_opts",
           "rtp_plan_task", "rtp_plan_scaling", "rtp_plan_bin", "rtp_plan_proof", "rtp_plan",
           "rtp_deploy_opts", "rtp_gen_opts", "rtp_text", "rtp_sim_doc_task", "rtp_sim_doc",
           "rtp_simulate_opts", "rtp_sim_bin", "rtp_gantt_rec", "rtp_simulation",
           "rtp_ilp_opts", "rtp_partition_opts", "rtp_partition_info", "rtp_deploy_file",
           "rtp_emit_result"]

ffi = FFI()
ffi.cdef(CDEF)


def _open():
    """RTPACK_LIBRARY (a path) first; then the library `cmake --install`
    put beside this package (PREFIX/lib/librtpack.so.0.1 for
    PREFIX/lib/python3.X/dist-packages/rtpack); then the dynamic linker's
    search (LD_LIBRARY_PATH, ldconfig), then ctypes' lookup of -lrtpack."""
    path = os.environ.get("RTPACK_LIBRARY")
    if path:
        return ffi.dlopen(path)
    beside = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", SONAME)
    if os.path.exists(beside):
        return ffi.dlopen(os.path.normpath(beside))
    try:
        return ffi.dlopen(SONAME)
    except OSError:
        found = ctypes.util.find_library("rtpack")
        if not found:
            raise
        return ffi.dlopen(found)


lib = _open()
libc = ffi.dlopen(None)
