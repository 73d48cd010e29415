/* models/plan.c — building, writing and reading partition plans.
 *
 * Invariants of a plan read by rtp_plan_parse_json: policy is known; every
 * bin has at least one CPU and no CPU appears in two bins; task names are
 * unique across the whole plan; under FP every placed task has a priority in
 * 1..(tasks on its bin). A plan written by rtp_plan_to_json reads back to the
 * same plan (response times included). */
#include "models/plan.h"
#include "models/effective.h"
#include "models/json_util.h"
#include "models/ratio.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


static int policy_is_fp(rtp_policy policy)
{
    return policy == RTP_POLICY_FP || policy == RTP_POLICY_GFP;
}

rtp_status rtp_plan_init_cpus(rtp_plan *plan, rtp_policy policy, const int *cpus,
                              size_t n_cpus)
{
    memset(plan, 0, sizeof *plan);
    plan->policy = policy;
    plan->platform_cpus = malloc((n_cpus ? n_cpus : 1) * sizeof *plan->platform_cpus);
    plan->bins = calloc(n_cpus ? n_cpus : 1, sizeof *plan->bins);
    if (!plan->platform_cpus || !plan->bins)
        goto done;
    for (size_t j = 0; j < n_cpus; j++) {
        plan->platform_cpus[j] = cpus[j];
        if (!(plan->bins[j].cpus = malloc(sizeof(int))))
            goto done;
        plan->bins[j].cpus[0] = cpus[j];
        plan->bins[j].n_cpus = 1;
        plan->n_bins = j + 1;
    }
    plan->n_platform_cpus = n_cpus;
    return RTP_OK;
done:
    rtp_plan_free(plan);
    return RTP_ENOMEM;
}

/* The room of a task list of `count` tasks (plan.h): at least 8 (a bin
 * holds a few tasks: one allocation), then the next power of two, so n
 * appends cost about log2 n reallocations instead of n. */
static size_t room(size_t count)
{
    size_t r = 8;
    while (r < count)
        r *= 2;
    return r;
}

static rtp_status append(rtp_plan_task **list, size_t *count, const rtp_task *task,
                         int priority, rtp_ns response_time_ns)
{
    if (*count == 0 || (*count >= 8 && (*count & (*count - 1)) == 0)) { /* full */
        size_t want = room(*count + 1);
        if (want > SIZE_MAX / sizeof **list)
            return RTP_ENOMEM;
        rtp_plan_task *bigger = realloc(*list, want * sizeof **list);
        if (!bigger)
            return RTP_ENOMEM;
        *list = bigger;
    }
    rtp_plan_task *slot = &(*list)[*count];
    memset(slot, 0, sizeof *slot);
    if (rtp_task_copy(&slot->task, task) != RTP_OK)
        return RTP_ENOMEM;
    slot->priority = priority;
    slot->response_time_ns = response_time_ns;
    (*count)++;
    return RTP_OK;
}

rtp_status rtp_plan_add_task(rtp_plan *plan, size_t bin_index, const rtp_task *task,
                             int priority, rtp_ns response_time_ns)
{
    if (bin_index == RTP_PLAN_UNASSIGNED)
        return append(&plan->unassigned, &plan->n_unassigned, task, 0, -1);
    if (bin_index >= plan->n_bins)
        return RTP_EINTERNAL;
    rtp_plan_bin *bin = &plan->bins[bin_index];
    return append(&bin->tasks, &bin->n_tasks, task, priority, response_time_ns);
}

static void free_tasks(rtp_plan_task *tasks, size_t n)
{
    for (size_t i = 0; i < n; i++)
        rtp_task_free_fields(&tasks[i].task);
    free(tasks);
}

void rtp_plan_proof_free(rtp_plan_proof *proof)
{
    for (size_t i = 0; proof->tasks && i < proof->n_tasks; i++)
        free(proof->tasks[i]);
    free(proof->tasks);
    free(proof->cpus);
    free(proof->explanation);
    memset(proof, 0, sizeof *proof);
}

rtp_status rtp_plan_proof_set(rtp_plan_proof *pr, const char *kind, const char *const *tasks,
                              size_t n_tasks, size_t clique, const int *cpus, size_t n_cpus,
                              const char *explanation)
{
    rtp_plan_proof_free(pr);
    if (strlen(kind) >= sizeof pr->kind || clique > n_tasks)
        return RTP_EINTERNAL;
    pr->tasks = calloc(n_tasks ? n_tasks : 1, sizeof *pr->tasks);
    pr->cpus = malloc((n_cpus ? n_cpus : 1) * sizeof *pr->cpus);
    pr->explanation = strdup(explanation);
    if (!pr->tasks || !pr->cpus || !pr->explanation)
        goto done;
    for (size_t i = 0; i < n_tasks; i++, pr->n_tasks = i)
        if (!(pr->tasks[i] = strdup(tasks[i] ? tasks[i] : "")))
            goto done;
    memcpy(pr->cpus, cpus, n_cpus * sizeof *cpus);
    pr->n_cpus = n_cpus;
    pr->clique = clique;
    strcpy(pr->kind, kind);
    return RTP_OK;
done:
    rtp_plan_proof_free(pr);
    return RTP_ENOMEM;
}

void rtp_plan_free(rtp_plan *plan)
{
    if (!plan)
        return;
    rtp_plan_proof_free(&plan->proof);
    for (size_t j = 0; plan->bins && j < plan->n_bins; j++) {
        free(plan->bins[j].cpus);
        free(plan->bins[j].scaling.exact);
        free_tasks(plan->bins[j].tasks, plan->bins[j].n_tasks);
    }
    free(plan->bins);
    free_tasks(plan->unassigned, plan->n_unassigned);
    free(plan->platform_cpus);
    free(plan->scaling.exact);
    rtp_resources_free(plan->resources, plan->n_resources);
    memset(plan, 0, sizeof *plan);
}

/* ---- writing ---- */

rtp_status rtp_plan_set_resources(rtp_plan *plan, const rtp_taskset *ts)
{
    rtp_resources_free(plan->resources, plan->n_resources);
    plan->n_resources = 0;
    rtp_status st = rtp_resources_copy(ts->resources, ts->n_resources, &plan->resources);
    if (st == RTP_OK)
        plan->n_resources = ts->n_resources;
    return st;
}

static void task_object(rtp_json_writer *w, const rtp_plan *plan, const rtp_plan_task *pt,
                        int placed)
{
    rtp_jw_open(w, NULL, 1);
    /* In a plan "priority" is the plan's own ranking (docs/spec.md), never the
     * input's given priority, and appears under FP only. */
    rtp_task_members(w, &pt->task, 0);
    if (pt->task.n_requests > 0)
        rtp_requests_write(w, plan->resources, &pt->task);
    if (placed && policy_is_fp(plan->policy)) {
        rtp_jw_int(w, "priority", pt->priority);
        rtp_jw_time_or_null(w, "response_time", pt->response_time_ns);
        if (pt->task.has_priority) /* kept for emit (docs/spec.md "Plan document") */
            rtp_jw_int(w, "given_priority", pt->task.priority);
    }
    if (pt->has_locks) {
        rtp_jw_time(w, "computed_blocking", pt->computed_blocking_ns);
        rtp_jw_time(w, "spin", pt->spin_ns);
        if (pt->binding < plan->n_resources)
            rtp_jw_string(w, "blocking_resource", plan->resources[pt->binding].name);
        else
            rtp_jw_null(w, "blocking_resource");
        if (pt->has_suspension)
            rtp_jw_time(w, "suspension", pt->suspension_ns);
    }
    if (pt->has_wcet_max)
        rtp_jw_time_or_null(w, "wcet_max", pt->wcet_max_ns);
    rtp_jw_close(w);
}

static double bin_utilization(const rtp_plan_bin *bin)
{
    double sum = 0.0;
    for (size_t i = 0; i < bin->n_tasks; i++)
        sum += (double)bin->tasks[i].task.wcet_ns / (double)bin->tasks[i].task.period_ns;
    return sum;
}

/* C'/T summed exactly, then rounded for display (models/effective.h); 0
 * when out of memory (then *bad is set). */
static double bin_effective_utilization(const rtp_plan *plan, const rtp_plan_bin *bin, int *bad)
{
    rtp_task *eff = malloc((bin->n_tasks ? bin->n_tasks : 1) * sizeof *eff);
    if (!eff) {
        *bad = 1;
        return 0.0;
    }
    for (size_t i = 0; i < bin->n_tasks; i++)
        eff[i] = bin->tasks[i].task;
    double u = rtp_effective_tasks(eff, bin->n_tasks, &plan->overheads, plan->policy, eff, NULL) == RTP_OK
                   ? rtp_load_exact_double(eff, bin->n_tasks, RTP_LOAD_UTIL)
                   : 0.0;
    free(eff);
    return u;
}

static void bin_object(rtp_json_writer *w, const rtp_plan *plan, const rtp_plan_bin *bin,
                       int *bad)
{
    rtp_jw_open(w, NULL, 1);
    if (plan->clustered) {
        rtp_jw_int_array(w, "cpus", bin->cpus, bin->n_cpus);
        if (bin->test[0])
            rtp_jw_string(w, "test", bin->test);
        else
            rtp_jw_null(w, "test");
    } else {
        rtp_jw_int(w, "cpu", bin->cpus[0]);
    }
    rtp_jw_display(w, "utilization", bin_utilization(bin));
    if (rtp_overheads_stretch(&plan->overheads, plan->policy))
        rtp_jw_display(w, "effective_utilization", bin_effective_utilization(plan, bin, bad));
    rtp_jw_scaling(w, bin->scaling.present, bin->scaling.decimal, bin->scaling.exact);
    rtp_jw_open(w, "tasks", 0);
    for (size_t i = 0; i < bin->n_tasks; i++)
        task_object(w, plan, &bin->tasks[i], 1);
    rtp_jw_close(w);
    rtp_jw_close(w);
}

static void proof_object(rtp_json_writer *w, const rtp_plan_proof *pr)
{
    rtp_jw_open(w, "proof", 1);
    rtp_jw_string(w, "kind", pr->kind);
    rtp_jw_open(w, "tasks", 0);
    for (size_t i = 0; i < pr->n_tasks; i++)
        rtp_jw_string(w, NULL, pr->tasks[i]);
    rtp_jw_close(w);
    if (pr->clique)
        rtp_jw_int(w, "clique", (int64_t)pr->clique);
    rtp_jw_int_array(w, "cpus", pr->cpus, pr->n_cpus);
    rtp_jw_string(w, "explanation", pr->explanation ? pr->explanation : "");
    rtp_jw_close(w);
}

char *rtp_plan_to_json(const rtp_plan *plan, int pretty)
{
    rtp_text out;
    rtp_json_writer w;
    int bad = 0;
    rtp_text_init(&out);
    rtp_jw_init(&w, &out, pretty);
    rtp_jw_open(&w, NULL, 1);
    rtp_jw_bool(&w, "feasible", plan->feasible);
    if (plan->deploy_judged) {
        rtp_jw_bool(&w, "deployable", plan->deployable);
        if (!plan->deployable)
            rtp_jw_string(&w, "deployable_reason", plan->deployable_reason);
    }
    rtp_jw_string(&w, "method", plan->method);
    if (plan->soft)
        rtp_jw_bool(&w, "soft", 1);
    rtp_jw_string(&w, "policy", rtp_policy_name(plan->policy));
    if (plan->status[0])
        rtp_jw_string(&w, "status", plan->status);
    if (plan->chosen_placement[0] || plan->chosen_order[0] || plan->chosen_layout[0]) {
        rtp_jw_open(&w, "chosen", 1);
        if (plan->chosen_layout[0])
            rtp_jw_string(&w, "layout", plan->chosen_layout);
        if (plan->chosen_placement[0] || plan->chosen_order[0]) {
            rtp_jw_string(&w, "placement", plan->chosen_placement);
            rtp_jw_string(&w, "order", plan->chosen_order);
        }
        rtp_jw_close(&w);
    }
    rtp_jw_scaling(&w, plan->scaling.present, plan->scaling.decimal, plan->scaling.exact);
    rtp_jw_open(&w, "platform", 1);
    rtp_jw_int_array(&w, "cpus", plan->platform_cpus, plan->n_platform_cpus);
    if (!rtp_overheads_zero(&plan->overheads))
        rtp_overheads_write(&w, "overheads", &plan->overheads);
    if (plan->rr_quantum_ns)
        rtp_jw_time(&w, "rr_quantum", plan->rr_quantum_ns);
    if (plan->tick_ns)
        rtp_jw_time(&w, "tick", plan->tick_ns);
    rtp_jw_close(&w);
    if (plan->n_resources > 0)
        rtp_resources_write(&w, plan->resources, plan->n_resources);
    rtp_jw_open(&w, plan->clustered ? "clusters" : "cpus", 0);
    for (size_t j = 0; j < plan->n_bins; j++)
        bin_object(&w, plan, &plan->bins[j], &bad);
    rtp_jw_close(&w);
    rtp_jw_open(&w, "unassigned", 0);
    for (size_t i = 0; i < plan->n_unassigned; i++)
        task_object(&w, plan, &plan->unassigned[i], 0);
    rtp_jw_close(&w);
    if (plan->proof.kind[0])
        proof_object(&w, &plan->proof);
    rtp_jw_close(&w);
    char *text = rtp_jw_take(&w);
    if (bad) {
        free(text);
        return NULL;
    }
    return text;
}

/* ---- reading ---- */

static rtp_status read_task_list(const rtp_json *doc, const cJSON *node, const char *path,
                                 int placed, rtp_plan *plan, rtp_plan_task **list,
                                 size_t *count, rtp_diag *diag)
{
    if (!cJSON_IsArray(node))
        return rtp_diag_set(diag, RTP_EINPUT, path, "must be a list of tasks");
    size_t n = (size_t)cJSON_GetArraySize(node), i = 0;
    if (n == 0)
        return RTP_OK;
    if (!(*list = calloc(room(n), sizeof **list))) /* rtp_plan_add_task may append */
        return rtp_diag_set(diag, RTP_ENOMEM, path, "out of memory");
    char item_path[RTP_DIAG_PATH_SIZE], field[RTP_DIAG_PATH_SIZE];
    for (const cJSON *c = node->child; c; c = c->next, i++) {
        rtp_plan_task *pt = &(*list)[i];
        *count = i + 1;
        pt->response_time_ns = -1;
        rtp_json_path_index(item_path, sizeof item_path, path, i);
        static const char *const extra[] = {"response_time", "given_priority", "wcet_max",
                                            "requests", "computed_blocking", "spin",
                                            "blocking_resource", "suspension", NULL};
        rtp_status st = rtp_task_from_json(doc, c, item_path, 1, extra, &pt->task, diag);
        if (st != RTP_OK)
            return st;
        const cJSON *req = cJSON_GetObjectItemCaseSensitive(c, "requests");
        if (req) {
            rtp_json_path_key(field, sizeof field, item_path, "requests");
            if ((st = rtp_requests_from_json(doc, req, field, 1, plan->resources,
                                             plan->n_resources, &pt->task, diag)) != RTP_OK)
                return st;
        }
        int fp = placed && policy_is_fp(plan->policy);
        rtp_json_path_key(field, sizeof field, item_path, "priority");
        if (pt->task.has_priority && !fp)
            return rtp_diag_set(diag, RTP_EINPUT, field,
                                "a priority belongs only to a task placed under fp");
        if (fp && !pt->task.has_priority)
            return rtp_diag_set(diag, RTP_EINPUT, field, "missing (fp plans rank every task)");
        if (fp && (pt->task.priority < 1 || (size_t)pt->task.priority > n))
            return rtp_diag_set(diag, RTP_EINPUT, field, "must be between 1 and %zu", n);
        pt->priority = pt->task.priority;
        pt->task.has_priority = 0;
        pt->task.priority = 0;
        const cJSON *given = cJSON_GetObjectItemCaseSensitive(c, "given_priority");
        rtp_json_path_key(field, sizeof field, item_path, "given_priority");
        if (given && !fp)
            return rtp_diag_set(diag, RTP_EINPUT, field,
                                "a given priority belongs only to a task placed under fp");
        int64_t value;
        if (given && (st = rtp_json_int(doc, given, field, INT32_MIN, INT32_MAX, &value, diag)) != RTP_OK)
            return st;
        if (given) {
            pt->task.has_priority = 1;
            pt->task.priority = (int)value;
        }
        const cJSON *rt = cJSON_GetObjectItemCaseSensitive(c, "response_time");
        rtp_json_path_key(field, sizeof field, item_path, "response_time");
        if (rt && !fp)
            return rtp_diag_set(diag, RTP_EINPUT, field,
                                "a response time belongs only to a task placed under fp");
        if (rt && !cJSON_IsNull(rt) &&
            (st = rtp_json_time(doc, rt, field, 1, 0, &pt->response_time_ns, diag)) != RTP_OK)
            return st;
        for (size_t k = 0; k < 3; k++) { /* types only: emit analyses again */
            const char *key = k == 2 ? "suspension" : k ? "spin" : "computed_blocking";
            const cJSON *v = cJSON_GetObjectItemCaseSensitive(c, key);
            rtp_ns ignored;
            rtp_json_path_key(field, sizeof field, item_path, key);
            if (v && (st = rtp_json_time(doc, v, field, 1, 1, &ignored, diag)) != RTP_OK)
                return st;
        }
        const cJSON *br = cJSON_GetObjectItemCaseSensitive(c, "blocking_resource");
        if (br && !cJSON_IsNull(br) && !cJSON_IsString(br)) {
            rtp_json_path_key(field, sizeof field, item_path, "blocking_resource");
            return rtp_diag_set(diag, RTP_EINPUT, field, "must be a resource name or null");
        }
        const cJSON *wm = cJSON_GetObjectItemCaseSensitive(c, "wcet_max");
        rtp_json_path_key(field, sizeof field, item_path, "wcet_max");
        rtp_ns ignored;
        if (wm && !cJSON_IsNull(wm) &&
            (st = rtp_json_time(doc, wm, field, 1, 0, &ignored, diag)) != RTP_OK)
            return st; /* read for its type only: emit analyses again */
    }
    return RTP_OK;
}

/* --sensitivity members (a bin's or the plan's): strings or null, read for
 * their type only (emit analyses again). */
static rtp_status scaling_types(const cJSON *node, const char *path, rtp_diag *diag)
{
    static const char *const keys[] = {"critical_scaling_factor",
                                       "critical_scaling_factor_exact"};
    char field[RTP_DIAG_PATH_SIZE];
    for (int k = 0; k < 2; k++) {
        const cJSON *item = cJSON_GetObjectItemCaseSensitive(node, keys[k]);
        rtp_json_path_key(field, sizeof field, path, keys[k]);
        if (item && !cJSON_IsString(item) && !cJSON_IsNull(item))
            return rtp_diag_set(diag, RTP_EINPUT, field, "must be a string or null");
    }
    return RTP_OK;
}

static rtp_status read_bin(const rtp_json *doc, const cJSON *node, const char *path,
                           rtp_plan *plan, rtp_plan_bin *bin, rtp_diag *diag)
{
    static const char *const cpu_keys[] = {"cpu", "utilization", "effective_utilization",
                                           "critical_scaling_factor",
                                           "critical_scaling_factor_exact", "tasks", NULL};
    static const char *const cluster_keys[] = {"cpus", "test", "utilization",
                                               "effective_utilization",
                                               "critical_scaling_factor",
                                               "critical_scaling_factor_exact", "tasks", NULL};
    char field[RTP_DIAG_PATH_SIZE];
    if (!cJSON_IsObject(node))
        return rtp_diag_set(diag, RTP_EINPUT, path, "must be an object");
    rtp_status st = rtp_json_check_keys(node, path, plan->clustered ? cluster_keys : cpu_keys, diag);
    if (st != RTP_OK)
        return st;
    const cJSON *item;
    if (plan->clustered) {
        rtp_json_path_key(field, sizeof field, path, "cpus");
        item = cJSON_GetObjectItemCaseSensitive(node, "cpus");
        if (!item)
            return rtp_diag_set(diag, RTP_EINPUT, field, "missing");
        /* A CPU twice, here or in another bin: check_plan ("appears twice"). */
        st = rtp_json_cpu_list(doc, item, field, RTP_CPUS_NONEMPTY, &bin->cpus, &bin->n_cpus,
                               diag);
        if (st != RTP_OK)
            return st;
        item = cJSON_GetObjectItemCaseSensitive(node, "test");
        if (item && !cJSON_IsNull(item)) {
            const char *test;
            rtp_json_path_key(field, sizeof field, path, "test");
            if ((st = rtp_json_string(item, field, 0, &test, diag)) != RTP_OK)
                return st;
            /* the names the global tests (solver/global.c; "edf", "rta" on
             * one CPU), the APA analysis and the soft test accept with:
             * rehearse and emit act on "soft" and "apa", so a name not among
             * them is a plan no rtpack wrote (audit rev13c: "magic" passed) */
            static const char *const known[] = {"gfb", "bak", "bcl", "rta", "rta-lc", "apa",
                                                "soft", "edf", NULL};
            size_t k = 0;
            while (known[k] && strcmp(known[k], test) != 0)
                k++;
            if (!known[k])
                return rtp_diag_set(diag, RTP_EINPUT, field,
                                    "\"%.40s\" is not a test rtpack names (gfb, bak, bcl, rta, "
                                    "rta-lc, apa, soft, edf, or null)", test);
            snprintf(bin->test, sizeof bin->test, "%s", test);
        }
    } else {
        int id;
        rtp_json_path_key(field, sizeof field, path, "cpu");
        item = cJSON_GetObjectItemCaseSensitive(node, "cpu");
        if (!item)
            return rtp_diag_set(diag, RTP_EINPUT, field, "missing");
        if ((st = rtp_json_cpu_id(doc, item, field, &id, diag)) != RTP_OK)
            return st;
        if (!(bin->cpus = malloc(sizeof *bin->cpus)))
            return rtp_diag_set(diag, RTP_ENOMEM, field, "out of memory");
        bin->cpus[0] = id;
        bin->n_cpus = 1;
    }
    if ((st = scaling_types(node, path, diag)) != RTP_OK)
        return st;
    static const char *const displays[] = {"utilization", "effective_utilization"};
    for (int k = 0; k < 2; k++) { /* display values: read for their type only */
        item = cJSON_GetObjectItemCaseSensitive(node, displays[k]);
        rtp_json_path_key(field, sizeof field, path, displays[k]);
        if (item && !cJSON_IsNumber(item))
            return rtp_diag_set(diag, RTP_EINPUT, field, "must be a number");
    }
    rtp_json_path_key(field, sizeof field, path, "tasks");
    item = cJSON_GetObjectItemCaseSensitive(node, "tasks");
    if (!item)
        return rtp_diag_set(diag, RTP_EINPUT, field, "missing");
    return read_task_list(doc, item, field, 1, plan, &bin->tasks, &bin->n_tasks, diag);
}

/* Cross-bin invariants: CPUs in one bin only (and on the platform when it
 * is given); task names unique across the plan. */
static rtp_status check_plan(const rtp_plan *plan, const char *bins_key, rtp_diag *diag)
{
    char path[RTP_DIAG_PATH_SIZE];
    for (size_t j = 0; j < plan->n_bins; j++) {
        for (size_t k = 0; k < plan->bins[j].n_cpus; k++) {
            int id = plan->bins[j].cpus[k];
            snprintf(path, sizeof path, plan->clustered ? "%s[%zu].cpus[%zu]" : "%s[%zu].cpu",
                     bins_key, j, k);
            int on_platform = 0;
            for (size_t p = 0; p < plan->n_platform_cpus; p++)
                on_platform |= plan->platform_cpus[p] == id;
            if (!on_platform)
                return rtp_diag_set(diag, RTP_EINPUT, path, "CPU %d is not in platform.cpus", id);
            for (size_t jj = 0; jj <= j; jj++)
                for (size_t kk = 0; kk < plan->bins[jj].n_cpus && (jj < j || kk < k); kk++)
                    if (plan->bins[jj].cpus[kk] == id)
                        return rtp_diag_set(diag, RTP_EINPUT, path, "CPU %d appears twice", id);
        }
    }
    for (size_t p = 0; !plan->clustered && p < plan->n_platform_cpus; p++) {
        int listed = 0;
        for (size_t j = 0; j < plan->n_bins && !listed; j++)
            listed = plan->bins[j].cpus[0] == plan->platform_cpus[p];
        if (!listed)
            return rtp_diag_set(diag, RTP_EINPUT, "cpus",
                                "CPU %d of platform.cpus has no entry (every CPU is listed)",
                                plan->platform_cpus[p]);
    }
    /* Placement within affinity: a task with an affinity runs only on CPUs
     * it names (every CPU of its cluster, in a clustered plan; in a cluster
     * whose test is "apa", a semi-partitioned plan's, its mask: at least one
     * CPU of the cluster and none outside it). */
    for (size_t j = 0; j < plan->n_bins; j++)
        for (size_t i = 0; i < plan->bins[j].n_tasks; i++) {
            const rtp_task *t = &plan->bins[j].tasks[i].task;
            if (t->affinity && strcmp(plan->bins[j].test, "apa") == 0) {
                size_t in = 0;
                for (size_t a = 0; a < t->affinity_len; a++)
                    for (size_t k = 0; k < plan->bins[j].n_cpus; k++)
                        in += t->affinity[a] == plan->bins[j].cpus[k];
                if (in == t->affinity_len && in > 0)
                    continue;
                snprintf(path, sizeof path, "%s[%zu].tasks[%zu].affinity", bins_key, j, i);
                return rtp_diag_set(diag, RTP_EINPUT, path,
                                    "a task of an \"apa\" cluster runs on CPUs of its cluster "
                                    "only (its mask)");
            }
            for (size_t k = 0; t->affinity && k < plan->bins[j].n_cpus; k++) {
                int id = plan->bins[j].cpus[k], allowed = 0;
                for (size_t a = 0; a < t->affinity_len; a++)
                    allowed |= t->affinity[a] == id;
                if (allowed)
                    continue;
                snprintf(path, sizeof path, "%s[%zu].tasks[%zu].affinity", bins_key, j, i);
                return rtp_diag_set(diag, RTP_EINPUT, path,
                                    "task placed on CPU %d, outside its affinity", id);
            }
        }
    /* Names: a flat list in document order; the later of two equal names is
     * the one reported (docs/spec.md "Error messages"). */
    size_t total = plan->n_unassigned;
    for (size_t j = 0; j < plan->n_bins; j++)
        total += plan->bins[j].n_tasks;
    rtp_nameset names;
    if (rtp_nameset_init(&names, total) != RTP_OK)
        return rtp_diag_set(diag, RTP_ENOMEM, "", "out of memory");
    rtp_status st = RTP_OK;
    for (size_t j = 0; j <= plan->n_bins && st == RTP_OK; j++) {
        size_t n = j < plan->n_bins ? plan->bins[j].n_tasks : plan->n_unassigned;
        for (size_t i = 0; i < n && st == RTP_OK; i++) {
            const char *name = j < plan->n_bins ? plan->bins[j].tasks[i].task.name
                                                : plan->unassigned[i].task.name;
            if (!rtp_nameset_add(&names, name))
                continue;
            if (j < plan->n_bins)
                snprintf(path, sizeof path, "%s[%zu].tasks[%zu].name", bins_key, j, i);
            else
                snprintf(path, sizeof path, "unassigned[%zu].name", i);
            st = rtp_diag_set(diag, RTP_EINPUT, path, "duplicate task name \"%.60s\"", name);
        }
    }
    rtp_nameset_free(&names);
    return st;
}

/* One optional string member of `node` into a fixed buffer; "too long" past it. */
static rtp_status read_label(const cJSON *node, const char *key, const char *path, char *slot,
                             size_t size, rtp_diag *diag)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(node, key);
    const char *value;
    rtp_status st;
    if (!item)
        return RTP_OK;
    if ((st = rtp_json_string(item, path, 1, &value, diag)) != RTP_OK)
        return st;
    if (strlen(value) >= size)
        return rtp_diag_set(diag, RTP_EINPUT, path, "too long");
    strcpy(slot, value);
    return RTP_OK;
}

/* feasible, policy, method, status and chosen: what the plan says of itself. */
static rtp_status read_header(const cJSON *root, rtp_plan *plan, rtp_diag *diag)
{
    static const char *const chosen_keys[] = {"placement", "order", "layout", NULL};
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(root, "feasible");
    rtp_status st;
    if (!item || !cJSON_IsBool(item))
        return rtp_diag_set(diag, RTP_EINPUT, "feasible", item ? "must be true or false" : "missing");
    plan->feasible = cJSON_IsTrue(item);
    /* A judgement of an earlier run: checked for type, not kept. */
    item = cJSON_GetObjectItemCaseSensitive(root, "deployable");
    if (item && !cJSON_IsBool(item))
        return rtp_diag_set(diag, RTP_EINPUT, "deployable", "must be true or false");
    item = cJSON_GetObjectItemCaseSensitive(root, "soft");
    if (item && !cJSON_IsBool(item))
        return rtp_diag_set(diag, RTP_EINPUT, "soft", "must be true or false");
    plan->soft = item && cJSON_IsTrue(item);
    item = cJSON_GetObjectItemCaseSensitive(root, "deployable_reason");
    if (item && !cJSON_IsString(item))
        return rtp_diag_set(diag, RTP_EINPUT, "deployable_reason", "must be a string");
    item = cJSON_GetObjectItemCaseSensitive(root, "policy");
    if (!item || !cJSON_IsString(item) || rtp_policy_parse(item->valuestring, &plan->policy) != 0)
        return rtp_diag_set(diag, RTP_EINPUT, "policy",
                            item ? "must be \"edf\", \"fp\", \"gedf\" or \"gfp\"" : "missing");
    if ((st = read_label(root, "method", "method", plan->method, sizeof plan->method, diag)) ||
        (st = read_label(root, "status", "status", plan->status, sizeof plan->status, diag)))
        return st;
    if (!(item = cJSON_GetObjectItemCaseSensitive(root, "chosen")))
        return RTP_OK;
    if (!cJSON_IsObject(item))
        return rtp_diag_set(diag, RTP_EINPUT, "chosen", "must be an object");
    if ((st = rtp_json_check_keys(item, "chosen", chosen_keys, diag)) ||
        (st = read_label(item, "placement", "chosen.placement", plan->chosen_placement,
                         sizeof plan->chosen_placement, diag)) ||
        (st = read_label(item, "order", "chosen.order", plan->chosen_order,
                         sizeof plan->chosen_order, diag)))
        return st;
    return read_label(item, "layout", "chosen.layout", plan->chosen_layout,
                      sizeof plan->chosen_layout, diag);
}

/* "cpus" (one CPU per bin) or "clusters": the bins with their tasks. */
static rtp_status read_bins(const rtp_json *doc, const cJSON *root, rtp_plan *plan,
                            const char **bins_key, rtp_diag *diag)
{
    const cJSON *cpus = cJSON_GetObjectItemCaseSensitive(root, "cpus");
    const cJSON *clusters = cJSON_GetObjectItemCaseSensitive(root, "clusters");
    if (cpus && clusters)
        return rtp_diag_set(diag, RTP_EINPUT, "clusters", "a plan has \"cpus\" or \"clusters\", not both");
    if (!cpus && !clusters)
        return rtp_diag_set(diag, RTP_EINPUT, "cpus", "missing");
    plan->clustered = clusters != NULL;
    *bins_key = plan->clustered ? "clusters" : "cpus";
    const cJSON *bins = plan->clustered ? clusters : cpus;
    if (!cJSON_IsArray(bins))
        return rtp_diag_set(diag, RTP_EINPUT, *bins_key, "must be a list");
    size_t n = (size_t)cJSON_GetArraySize(bins), j = 0;
    if (n > 0 && !(plan->bins = calloc(n, sizeof *plan->bins)))
        return rtp_diag_set(diag, RTP_ENOMEM, *bins_key, "out of memory");
    char path[RTP_DIAG_PATH_SIZE];
    for (const cJSON *c = bins->child; c; c = c->next, j++) {
        rtp_status st;
        rtp_json_path_index(path, sizeof path, *bins_key, j);
        plan->n_bins = j + 1;
        if ((st = read_bin(doc, c, path, plan, &plan->bins[j], diag)) != RTP_OK)
            return st;
    }
    return RTP_OK;
}

/* platform.cpus when given, else every CPU of the bins. */
static rtp_status read_platform(const rtp_json *doc, const cJSON *root, rtp_plan *plan,
                                rtp_diag *diag)
{
    static const char *const platform_keys[] = {"cpus", "overheads", "rr_quantum", "tick", NULL};
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(root, "platform"), *list;
    rtp_status st;
    if (!item) {
        size_t m = 0;
        for (size_t b = 0; b < plan->n_bins; b++)
            m += plan->bins[b].n_cpus;
        if (!(plan->platform_cpus = calloc(m ? m : 1, sizeof *plan->platform_cpus)))
            return rtp_diag_set(diag, RTP_ENOMEM, "platform", "out of memory");
        for (size_t b = 0; b < plan->n_bins; b++)
            for (size_t k = 0; k < plan->bins[b].n_cpus; k++)
                plan->platform_cpus[plan->n_platform_cpus++] = plan->bins[b].cpus[k];
        return RTP_OK;
    }
    if (!cJSON_IsObject(item))
        return rtp_diag_set(diag, RTP_EINPUT, "platform", "must be an object");
    if ((st = rtp_json_check_keys(item, "platform", platform_keys, diag)) != RTP_OK)
        return st;
    if (!(list = cJSON_GetObjectItemCaseSensitive(item, "cpus")))
        return rtp_diag_set(diag, RTP_EINPUT, "platform.cpus", "missing");
    /* May be empty: a plan of no CPUs is written that way. */
    st = rtp_json_cpu_list(doc, list, "platform.cpus", RTP_CPUS_DISTINCT, &plan->platform_cpus,
                           &plan->n_platform_cpus, diag);
    if (st != RTP_OK)
        return st;
    const cJSON *q = cJSON_GetObjectItemCaseSensitive(item, "rr_quantum");
    if (q && (st = rtp_json_time(doc, q, "platform.rr_quantum", 1, 0, &plan->rr_quantum_ns,
                                 diag)) != RTP_OK)
        return st;
    q = cJSON_GetObjectItemCaseSensitive(item, "tick");
    if (q && (st = rtp_json_time(doc, q, "platform.tick", 1, 0, &plan->tick_ns, diag)) != RTP_OK)
        return st;
    const cJSON *ov = cJSON_GetObjectItemCaseSensitive(item, "overheads");
    return ov ? rtp_overheads_from_json(doc, ov, 1, &plan->overheads, diag) : RTP_OK;
}

/* "proof": { "kind", "tasks", "clique", "cpus", "explanation" } (kind and
 * explanation non-empty strings, tasks a list of names, cpus of CPU ids). */
static rtp_status read_proof(const rtp_json *doc, const cJSON *node, rtp_plan *plan,
                             rtp_diag *diag)
{
    static const char *const keys[] = {"kind", "tasks", "clique", "cpus", "explanation", NULL};
    rtp_status st;
    if (!cJSON_IsObject(node))
        return rtp_diag_set(diag, RTP_EINPUT, "proof", "must be an object");
    if ((st = rtp_json_check_keys(node, "proof", keys, diag)) != RTP_OK)
        return st;
    const char *kind, *explanation;
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(node, "kind");
    if (!item)
        return rtp_diag_set(diag, RTP_EINPUT, "proof.kind", "missing");
    if ((st = rtp_json_string(item, "proof.kind", 0, &kind, diag)) != RTP_OK)
        return st;
    if (strlen(kind) >= sizeof plan->proof.kind)
        return rtp_diag_set(diag, RTP_EINPUT, "proof.kind", "too long");
    if (!(item = cJSON_GetObjectItemCaseSensitive(node, "explanation")))
        return rtp_diag_set(diag, RTP_EINPUT, "proof.explanation", "missing");
    if ((st = rtp_json_string(item, "proof.explanation", 0, &explanation, diag)) != RTP_OK)
        return st;
    const cJSON *tasks = cJSON_GetObjectItemCaseSensitive(node, "tasks");
    const cJSON *cpus = cJSON_GetObjectItemCaseSensitive(node, "cpus");
    if (!tasks || !cJSON_IsArray(tasks))
        return rtp_diag_set(diag, RTP_EINPUT, "proof.tasks", tasks ? "must be a list of task names" : "missing");
    if (!cpus)
        return rtp_diag_set(diag, RTP_EINPUT, "proof.cpus", "missing");
    int *ids = NULL;
    size_t nc = 0, nt = (size_t)cJSON_GetArraySize(tasks), k = 0;
    if ((st = rtp_json_cpu_list(doc, cpus, "proof.cpus", 0, &ids, &nc, diag)) != RTP_OK)
        return st;
    int64_t clique = 0;
    const char **names = NULL;
    char path[RTP_DIAG_PATH_SIZE];
    if ((item = cJSON_GetObjectItemCaseSensitive(node, "clique")) &&
        (st = rtp_json_int(doc, item, "proof.clique", 1, (int64_t)nt, &clique, diag)) != RTP_OK)
        goto done;
    if (!(names = calloc(nt ? nt : 1, sizeof *names))) {
        st = rtp_diag_set(diag, RTP_ENOMEM, "proof", "out of memory");
        goto done;
    }
    for (const cJSON *c = tasks->child; c; c = c->next, k++) {
        rtp_json_path_index(path, sizeof path, "proof.tasks", k);
        if ((st = rtp_json_string(c, path, 0, &names[k], diag)) != RTP_OK)
            goto done;
    }
    st = rtp_plan_proof_set(&plan->proof, kind, names, nt, (size_t)clique, ids, nc, explanation);
    if (st != RTP_OK)
        st = rtp_diag_set(diag, st, "proof", "out of memory");
done:
    free(names);
    free(ids);
    return st;
}

static rtp_status read_plan(const rtp_json *doc, rtp_plan *plan, rtp_diag *diag)
{
    static const char *const keys[] = {"feasible", "deployable", "deployable_reason", "method",
                                       "soft", "policy", "status", "chosen", "platform", "cpus",
                                       "clusters", "unassigned", "proof", "resources",
                                       "critical_scaling_factor",
                                       "critical_scaling_factor_exact", NULL};
    const cJSON *root = doc->root, *item;
    const char *bins_key = "cpus";
    rtp_status st;
    if (!cJSON_IsObject(root))
        return rtp_diag_set(diag, RTP_EINPUT, "", "the plan must be a JSON object");
    if (cJSON_HasObjectItem(root, "tasks") && !cJSON_HasObjectItem(root, "cpus") &&
        !cJSON_HasObjectItem(root, "clusters"))
        return rtp_diag_set(diag, RTP_EINPUT, "",
                            "this is a task set, not a plan: give the plan that "
                            "'rtpack partition FILE --json' prints");
    if ((item = cJSON_GetObjectItemCaseSensitive(root, "resources")) &&
        (st = rtp_resources_from_json(item, &plan->resources, &plan->n_resources, diag)) !=
            RTP_OK)
        return st;
    if ((st = rtp_json_check_keys(root, "", keys, diag)) ||
        (st = scaling_types(root, "", diag)) ||
        (st = read_header(root, plan, diag)) ||
        (st = read_bins(doc, root, plan, &bins_key, diag)) ||
        (st = read_platform(doc, root, plan, diag)))
        return st;
    if ((item = cJSON_GetObjectItemCaseSensitive(root, "unassigned")) &&
        (st = read_task_list(doc, item, "unassigned", 0, plan, &plan->unassigned,
                             &plan->n_unassigned, diag)) != RTP_OK)
        return st;
    if ((item = cJSON_GetObjectItemCaseSensitive(root, "proof")) &&
        (st = read_proof(doc, item, plan, diag)) != RTP_OK)
        return st;
    return check_plan(plan, bins_key, diag);
}

rtp_status rtp_plan_parse_json(const char *text, size_t len, rtp_plan *out, rtp_diag *diag)
{
    memset(out, 0, sizeof *out);
    rtp_json doc;
    rtp_status st = rtp_json_open(&doc, text, len, diag);
    if (st != RTP_OK)
        return st;
    st = read_plan(&doc, out, diag);
    rtp_json_close(&doc);
    if (st != RTP_OK)
        rtp_plan_free(out);
    return st;
}

rtp_status rtp_doc_kind(const char *text, size_t len, int *is_plan, rtp_diag *diag)
{
    *is_plan = 0;
    rtp_json doc;
    rtp_diag mine;
    rtp_status st = rtp_json_open(&doc, text, len, &mine);
    if (st == RTP_ENOMEM) /* else the task-set reader reports what is wrong */
        return rtp_oom(diag);
    if (st != RTP_OK)
        return RTP_OK;
    /* A task set missing "tasks" is still a task set (its reader says
     * "tasks: missing"): a plan has a member no task set has, or its bins
     * as an array "cpus" (a task set's cpus sit in "platform"). */
    static const char *const own[] = {"feasible", "method", "clusters", "unassigned", "proof",
                                      "deployable", NULL};
    const cJSON *root = doc.root;
    int plan = cJSON_IsObject(root) && !cJSON_GetObjectItemCaseSensitive(root, "tasks") &&
               cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(root, "cpus"));
    for (size_t k = 0; cJSON_IsObject(root) && !plan && own[k]; k++)
        plan = !cJSON_GetObjectItemCaseSensitive(root, "tasks") &&
               cJSON_GetObjectItemCaseSensitive(root, own[k]) != NULL;
    rtp_json_close(&doc);
    *is_plan = plan;
    return RTP_OK;
}

int rtp_doc_is_plan(const char *text, size_t len)
{
    int plan;
    return rtp_doc_kind(text, len, &plan, NULL) == RTP_OK && plan;
}
