/* models/taskset.c — reading, writing and freeing task sets.
 *
 * The reader validates in document order and stops at the first problem, so
 * the one message names exactly one JSON path. Invariants of a parsed set:
 * every time is in 1..2^62 ns; deadline is set (= period when absent); task
 * names are unique and non-empty; CPU ids are unique in 0..RTP_CPU_LIMIT - 1;
 * clusters are disjoint non-empty subsets of the platform's CPUs. */
#include "models/taskset.h"
#include "models/text.h"
#include "models/duration.h"
#include "models/json_util.h"

#include <errno.h>
#include <stdalign.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


static char *dup_string(const char *s)
{
    size_t len = strlen(s) + 1;
    char *copy = malloc(len);
    if (copy)
        memcpy(copy, s, len);
    return copy;
}

/* A task set's CPU lists (platform.cpus, clusters, affinity): non-empty,
 * distinct ids. *ids is malloc'd. */
static rtp_status read_cpu_list(const rtp_json *doc, const cJSON *node, const char *path,
                                int **ids, size_t *count, rtp_diag *diag)
{
    return rtp_json_cpu_list(doc, node, path, RTP_CPUS_NONEMPTY | RTP_CPUS_DISTINCT, ids, count,
                             diag);
}

static int contains(const int *ids, size_t n, int id)
{
    for (size_t i = 0; i < n; i++)
        if (ids[i] == id)
            return 1;
    return 0;
}

/* platform.overheads: an object of optional times, zero allowed; noise_per_ms
 * is a share of each millisecond, so it stays below 1 ms. */
rtp_status rtp_overheads_from_json(const rtp_json *doc, const cJSON *node, rtp_ns unit,
                                  rtp_overheads *ov, rtp_diag *diag)
{
    static const char *const keys[] = {"release_latency", "context_switch", "deadline_charge",
                                       "noise_per_ms", "lock", NULL};
    if (!cJSON_IsObject(node))
        return rtp_diag_set(diag, RTP_EINPUT, "platform.overheads",
                            "must be an object {\"release_latency\": T, \"context_switch\": T}");
    rtp_status st = rtp_json_check_keys(node, "platform.overheads", keys, diag);
    rtp_ns *slots[] = {&ov->release_latency_ns, &ov->context_switch_ns, &ov->deadline_charge_ns,
                       &ov->noise_per_ms_ns, &ov->lock_ns};
    char field[RTP_DIAG_PATH_SIZE];
    for (int k = 0; keys[k] && st == RTP_OK; k++) {
        const cJSON *item = cJSON_GetObjectItemCaseSensitive(node, keys[k]);
        rtp_json_path_key(field, sizeof field, "platform.overheads", keys[k]);
        if (item)
            st = rtp_json_time(doc, item, field, unit, 1, slots[k], diag);
    }
    if (st == RTP_OK && ov->noise_per_ms_ns >= RTP_NS_PER_MS)
        st = rtp_diag_set(diag, RTP_EINPUT, "platform.overheads.noise_per_ms",
                          "must be below 1ms (it is the time taken from each millisecond a job "
                          "runs)");
    return st;
}

static rtp_status read_platform(const rtp_json *doc, const cJSON *node, rtp_ns unit,
                                rtp_platform *pf, rtp_diag *diag)
{
    static const char *const keys[] = {"cpus", "clusters", "overheads", "rr_quantum", "tick",
                                       NULL};
    if (!cJSON_IsObject(node))
        return rtp_diag_set(diag, RTP_EINPUT, "platform", "must be an object");
    rtp_status st = rtp_json_check_keys(node, "platform", keys, diag);
    if (st != RTP_OK)
        return st;
    /* SCHED_RR's terms (solver/rr.h): times > 0 */
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(node, "rr_quantum");
    if (item && (st = rtp_json_time(doc, item, "platform.rr_quantum", unit, 0, &pf->rr_quantum_ns,
                                    diag)) != RTP_OK)
        return st;
    item = cJSON_GetObjectItemCaseSensitive(node, "tick");
    if (item && (st = rtp_json_time(doc, item, "platform.tick", unit, 0, &pf->tick_ns, diag)) !=
                    RTP_OK)
        return st;
    /* platform.cpus is optional (docs/spec.md: a command that needs CPUs and has
     * neither it nor --cpus is a usage error, decided by rtp_taskset_cpu_ids);
     * a platform may state only its overheads, e.g. for one-CPU analysis. */
    const cJSON *cpus = cJSON_GetObjectItemCaseSensitive(node, "cpus");
    if (!cpus) {
        if (cJSON_GetObjectItemCaseSensitive(node, "clusters"))
            return rtp_diag_set(diag, RTP_EINPUT, "platform.cpus",
                                "missing (platform.clusters lists CPUs of platform.cpus)");
    } else if (cJSON_IsNumber(cpus)) {
        int64_t m;
        st = rtp_json_int(doc, cpus, "platform.cpus", 1, RTP_CPU_LIMIT, &m, diag);
        if (st != RTP_OK)
            return st;
        pf->cpus = calloc((size_t)m, sizeof *pf->cpus);
        if (!pf->cpus)
            return rtp_diag_set(diag, RTP_ENOMEM, "platform.cpus", "out of memory");
        for (int64_t i = 0; i < m; i++)
            pf->cpus[i] = (int)i;
        pf->n_cpus = (size_t)m;
        pf->cpus_given_as_count = 1;
    } else if (cJSON_IsArray(cpus)) {
        st = read_cpu_list(doc, cpus, "platform.cpus", &pf->cpus, &pf->n_cpus, diag);
        if (st != RTP_OK)
            return st;
    } else {
        return rtp_diag_set(diag, RTP_EINPUT, "platform.cpus",
                            "must be a CPU count or a list of CPU ids");
    }
    const cJSON *overheads = cJSON_GetObjectItemCaseSensitive(node, "overheads");
    if (overheads) {
        if ((st = rtp_overheads_from_json(doc, overheads, unit, &pf->overheads, diag)) != RTP_OK)
            return st;
        pf->has_overheads = 1;
    }
    const cJSON *clusters = cJSON_GetObjectItemCaseSensitive(node, "clusters");
    if (!clusters)
        return RTP_OK;
    if (!cJSON_IsArray(clusters) || cJSON_GetArraySize(clusters) == 0)
        return rtp_diag_set(diag, RTP_EINPUT, "platform.clusters",
                            "must be a non-empty list of CPU-id lists");
    size_t n = (size_t)cJSON_GetArraySize(clusters);
    pf->clusters = calloc(n, sizeof *pf->clusters);
    pf->cluster_len = calloc(n, sizeof *pf->cluster_len);
    if (!pf->clusters || !pf->cluster_len)
        return rtp_diag_set(diag, RTP_ENOMEM, "platform.clusters", "out of memory");
    size_t k = 0;
    char path[RTP_DIAG_PATH_SIZE], item_path[RTP_DIAG_PATH_SIZE];
    for (const cJSON *c = clusters->child; c; c = c->next, k++) {
        rtp_json_path_index(path, sizeof path, "platform.clusters", k);
        st = read_cpu_list(doc, c, path, &pf->clusters[k], &pf->cluster_len[k], diag);
        if (st != RTP_OK)
            return st;
        pf->n_clusters = k + 1;
        for (size_t j = 0; j < pf->cluster_len[k]; j++) {
            int id = pf->clusters[k][j];
            rtp_json_path_index(item_path, sizeof item_path, path, j);
            if (!contains(pf->cpus, pf->n_cpus, id))
                return rtp_diag_set(diag, RTP_EINPUT, item_path,
                                    "CPU %d is not in platform.cpus", id);
            for (size_t other = 0; other < k; other++)
                if (contains(pf->clusters[other], pf->cluster_len[other], id))
                    return rtp_diag_set(diag, RTP_EINPUT, item_path,
                                        "CPU %d is already in platform.clusters[%zu]", id, other);
        }
    }
    return RTP_OK;
}

/* Linux's limits on a command (RTP_CMD_WORD_MAX, RTP_CMD_ARGV_MAX): a word
 * of `len` bytes, and the argv space so far in *used. */
static rtp_status cmd_word(size_t len, size_t word, size_t *used, const char *path,
                           rtp_diag *diag)
{
    if (len > RTP_CMD_WORD_MAX)
        return rtp_diag_set(diag, RTP_EINPUT, path,
                            "word %zu is %zu bytes: Linux starts no program with an argument "
                            "over %d bytes (MAX_ARG_STRLEN)",
                            word, len, RTP_CMD_WORD_MAX);
    *used += len + 1 + sizeof(char *);
    if (*used > RTP_CMD_ARGV_MAX)
        return rtp_diag_set(diag, RTP_EINPUT, path,
                            "the command passes %d bytes by word %zu (each word, its NUL and "
                            "its pointer): past the argument space every Linux grants; pass "
                            "the data in a file",
                            RTP_CMD_ARGV_MAX, word);
    return RTP_OK;
}

/* A command string is split at spaces (deploy/quote.h): it must hold a
 * word, and its words obey Linux's limits. */
static rtp_status check_cmd_string(const char *s, const char *path, rtp_diag *diag)
{
    size_t used = 0, words = 0;
    rtp_status st = RTP_OK;
    for (const char *p = s; *p && st == RTP_OK;) {
        p += strspn(p, " ");
        size_t len = strcspn(p, " ");
        if (len)
            st = cmd_word(len, ++words, &used, path, diag);
        p += len;
    }
    if (st == RTP_OK && words == 0)
        return rtp_diag_set(diag, RTP_EINPUT, path, "holds only spaces: no command to launch");
    return st;
}

static rtp_status read_cmd(const cJSON *node, const char *path, rtp_task *task, rtp_diag *diag)
{
    char item_path[RTP_DIAG_PATH_SIZE];
    if (cJSON_IsString(node)) {
        if (node->valuestring[0] == '\0')
            return rtp_diag_set(diag, RTP_EINPUT, path, "must not be empty");
        rtp_status st = check_cmd_string(node->valuestring, path, diag);
        if (st != RTP_OK)
            return st;
        task->cmd = calloc(1, sizeof *task->cmd);
        if (!task->cmd || !(task->cmd[0] = dup_string(node->valuestring)))
            return rtp_diag_set(diag, RTP_ENOMEM, path, "out of memory");
        task->cmd_len = 1;
        task->cmd_is_string = 1;
        return RTP_OK;
    }
    if (!cJSON_IsArray(node) || cJSON_GetArraySize(node) == 0)
        return rtp_diag_set(diag, RTP_EINPUT, path,
                            "must be a command string or a non-empty list of strings");
    size_t n = (size_t)cJSON_GetArraySize(node), i = 0, used = 0;
    task->cmd = calloc(n, sizeof *task->cmd);
    if (!task->cmd)
        return rtp_diag_set(diag, RTP_ENOMEM, path, "out of memory");
    for (const cJSON *c = node->child; c; c = c->next, i++) {
        rtp_json_path_index(item_path, sizeof item_path, path, i);
        const char *arg;
        /* Every word non-empty (docs/spec.md "Task-set document"): an empty
         * one is almost always a template that was not filled in. */
        rtp_status st = rtp_json_string(c, item_path, 0, &arg, diag);
        if (st == RTP_OK)
            st = cmd_word(strlen(arg), i + 1, &used, item_path, diag);
        if (st != RTP_OK)
            return st;
        if (!(task->cmd[i] = dup_string(arg)))
            return rtp_diag_set(diag, RTP_ENOMEM, path, "out of memory");
        task->cmd_len = i + 1;
    }
    return RTP_OK;
}

/* st with the path of member `key` of `path` in diag: the members of a task
 * are read without their paths, which are built only when one is reported
 * (a path per member read cost about 4% of reading a task set). */
static rtp_status at_key(rtp_status st, rtp_diag *diag, const char *path, const char *key)
{
    char field[RTP_DIAG_PATH_SIZE];
    rtp_json_path_key(field, sizeof field, path, key);
    rtp_diag_set_path(diag, field);
    return st;
}

/* rtp_json_time without a path, its common case inline: a bare integer the
 * reader marked RTP_JSON_PLAIN_INT, from 1 to 2^53 - 1, in ns (every time of
 * a generated set), which rtp_json_time accepts as it is. */
static inline rtp_status read_time(const rtp_json *doc, const cJSON *item, rtp_ns unit,
                                   int allow_zero, rtp_ns *out, rtp_diag *diag)
{
    if (unit == 1 &&
        (item->type & (0xFF | RTP_JSON_PLAIN_INT)) == (cJSON_Number | RTP_JSON_PLAIN_INT) &&
        item->valuedouble >= 1 && item->valuedouble < 0x1p53) {
        *out = (rtp_ns)item->valuedouble;
        return RTP_OK;
    }
    return rtp_json_time(doc, item, NULL, unit, allow_zero, out, diag);
}

/* The index in rtp_task_from_json's member[] of a task member's key (name,
 * wcet, deadline, period, jitter, blocking, cmd, affinity, priority), by its
 * first byte and one comparison: of the bytes as a word when the reader
 * kept the key's length, else of the C strings; TASK_KEYS for no task key. */
enum { TASK_KEYS = 10 };
static size_t task_key(const cJSON *member)
{
    const char *key = member->string;
    size_t len = rtp_json_key_len(member);
#define IS(lit) (len ? len == sizeof lit - 1 && memcmp(key, lit, sizeof lit - 1) == 0 \
                     : rtp_same_string(key, lit))
    switch (key[0]) {
    case 'n': return IS("name") ? 0 : TASK_KEYS;
    case 'w': return IS("wcet") ? 1 : TASK_KEYS;
    case 'd': return IS("deadline") ? 2 : TASK_KEYS;
    case 'p': return IS("period") ? 3 : IS("priority") ? 8 : IS("policy") ? 9 : TASK_KEYS;
    case 'j': return IS("jitter") ? 4 : TASK_KEYS;
    case 'b': return IS("blocking") ? 5 : TASK_KEYS;
    case 'c': return IS("cmd") ? 6 : TASK_KEYS;
    case 'a': return IS("affinity") ? 7 : TASK_KEYS;
    default: return TASK_KEYS;
    }
#undef IS
}

/* A task's name bytes (with its NUL) go to the set's name block at *at
 * when the block's end `end` leaves room (the cursor moves past them), else
 * to an allocation of the task's own. */
typedef struct name_dest {
    char *at, *end;
} name_dest;

/* rtp_task_from_json, with the name to dest (NULL: its own allocation) and
 * each extra key's member, or NULL, in extra_member[] when not NULL. */
static rtp_status read_task(const rtp_json *doc, const cJSON *node, const char *path,
                            rtp_ns unit, const char *const *extra_keys, rtp_task *task,
                            name_dest *dest, const cJSON **extra_member, rtp_diag *diag)
{
    char field[RTP_DIAG_PATH_SIZE];
    if (!node || (node->type & 0xFF) != cJSON_Object) /* cJSON_IsObject without a call */
        return rtp_diag_set(diag, RTP_EINPUT, path, "must be an object");
    /* One pass over the members: each to its key's slot, the first unknown
     * key reported (keys are unique: the reader rejects duplicates). The
     * caller's extra keys (the first 8) are only let through. */
    const cJSON *member[TASK_KEYS] = {NULL};
    for (const cJSON *c = node->child; c; c = c->next) {
        size_t k = task_key(c);
        if (k < TASK_KEYS) {
            member[k] = c;
            continue;
        }
        int extra = 0;
        for (size_t x = 0; !extra && extra_keys && x < 8 && extra_keys[x]; x++)
            if ((extra = rtp_same_string(extra_keys[x], c->string)) && extra_member)
                extra_member[x] = c;
        if (!extra) {
            rtp_json_path_key(field, sizeof field, path, c->string);
            return rtp_diag_set(diag, RTP_EINPUT, field, "unknown key");
        }
    }
    rtp_status st;
    const char *name;
    const cJSON *item = member[0];
    if (!item)
        return at_key(rtp_diag_set(diag, RTP_EINPUT, NULL, "missing"), diag, path, "name");
    if ((st = rtp_json_string(item, NULL, 0, &name, diag)) != RTP_OK)
        return at_key(st, diag, path, "name");
    /* Checked once, here: every output (tables, JSON, scripts, units, file
     * names) may print a name, so none carries control characters or
     * invalid UTF-8 (docs/spec.md "Structure rules"). */
    char why[96];
    size_t name_len = strlen(name);
    if (name_len > RTP_TASK_NAME_MAX)
        st = rtp_diag_set(diag, RTP_EINPUT, NULL, "longer than %d bytes", RTP_TASK_NAME_MAX);
    else if (rtp_text_check_plain(name, why, sizeof why) != 0)
        st = rtp_diag_set(diag, RTP_EINPUT, NULL, "%s", why);
    else if (dest && (size_t)(dest->end - dest->at) > name_len) {
        task->name = memcpy(dest->at, name, name_len + 1);
        dest->at += name_len + 1;
    } else if (!(task->name = malloc(name_len + 1))) {
        st = rtp_diag_set(diag, RTP_ENOMEM, NULL, "out of memory");
    } else {
        memcpy(task->name, name, name_len + 1);
    }
    if (st != RTP_OK)
        return at_key(st, diag, path, "name");

    /* wcet and period are required and positive; deadline defaults to the
     * period; jitter and blocking default to 0 and may be 0. */
    static const char *const times[] = {"wcet", "period", "deadline", "jitter", "blocking"};
    static const int slot_of[] = {1, 3, 2, 4, 5}; /* their indices in keys[] */
    rtp_ns *slots[] = {&task->wcet_ns, &task->period_ns, &task->deadline_ns, &task->jitter_ns,
                       &task->blocking_ns};
    for (int k = 0; k < 5; k++) {
        item = member[slot_of[k]];
        if (!item) {
            if (k == 2)
                task->deadline_ns = task->period_ns; /* implicit deadline */
            else if (k < 2)
                return at_key(rtp_diag_set(diag, RTP_EINPUT, NULL, "missing"), diag, path,
                              times[k]);
            continue;
        }
        if ((st = read_time(doc, item, unit, k >= 3, slots[k], diag)) != RTP_OK)
            return at_key(st, diag, path, times[k]);
    }
    if ((item = member[6])) {
        rtp_json_path_key(field, sizeof field, path, "cmd");
        if ((st = read_cmd(item, field, task, diag)) != RTP_OK)
            return st;
    }
    if ((item = member[7])) {
        rtp_json_path_key(field, sizeof field, path, "affinity");
        st = read_cpu_list(doc, item, field, &task->affinity, &task->affinity_len, diag);
        if (st != RTP_OK)
            return st;
    }
    if ((item = member[8])) {
        int64_t prio;
        rtp_json_path_key(field, sizeof field, path, "priority");
        if ((st = rtp_json_int(doc, item, field, 0, 1000000, &prio, diag)) != RTP_OK)
            return st;
        task->has_priority = 1;
        task->priority = (int)prio;
    }
    if ((item = member[9])) {
        rtp_json_path_key(field, sizeof field, path, "policy");
        const char *policy = cJSON_IsString(item) ? item->valuestring : NULL;
        if (!policy || (strcmp(policy, "fifo") != 0 && strcmp(policy, "rr") != 0))
            return rtp_diag_set(diag, RTP_EINPUT, field,
                                "must be \"fifo\" (SCHED_FIFO) or \"rr\" (SCHED_RR)");
        task->rr = policy[1] == 'r';
    }
    return RTP_OK;
}

rtp_status rtp_task_from_json(const rtp_json *doc, const cJSON *node, const char *path,
                              rtp_ns unit, const char *const *extra_keys, rtp_task *task,
                              rtp_diag *diag)
{
    return read_task(doc, node, path, unit, extra_keys, task, NULL, NULL, diag);
}

/* The bytes the names of `tasks` take with their NULs, each counted up to
 * RTP_TASK_NAME_MAX + 1 (a longer one is refused when read): the name
 * block's size. A task without a string name counts 0 (it is refused). */
static size_t names_size(const cJSON *tasks)
{
    size_t size = 0;
    for (const cJSON *c = tasks->child; c; c = c->next) {
        const cJSON *name = cJSON_IsObject(c) ? c->child : NULL;
        while (name && task_key(name) != 0)
            name = name->next;
        if (cJSON_IsString(name)) {
            size_t len = strlen(name->valuestring);
            size += (len < RTP_TASK_NAME_MAX ? len : RTP_TASK_NAME_MAX) + 1;
        }
    }
    return size;
}

/* "tasks[i]" into path (RTP_DIAG_PATH_SIZE bytes), as rtp_json_path_index
 * writes it, without its general case: it is built for every task. The
 * digits are the JSON writer's integer formatting. */
static void task_path(char *path, size_t i)
{
    memcpy(path, "tasks[", 6);
    memcpy(rtp_jw_put_int(path + 6, (int64_t)i), "]", 2);
}

static rtp_status read_taskset(const rtp_json *doc, rtp_taskset *ts, rtp_diag *diag)
{
    static const char *const keys[] = {"time_unit", "platform", "resources", "tasks", NULL};
    static const char *const task_extra[] = {"requests", NULL};
    const cJSON *root = doc->root;
    if (!cJSON_IsObject(root))
        return rtp_diag_set(diag, RTP_EINPUT, "", "the document must be a JSON object");
    rtp_status st = rtp_json_check_keys(root, "", keys, diag);
    if (st != RTP_OK)
        return st;
    ts->time_unit_ns = 1;
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(root, "time_unit");
    if (item) {
        if (!cJSON_IsString(item) || !(ts->time_unit_ns = rtp_duration_unit(item->valuestring)))
            return rtp_diag_set(diag, RTP_EINPUT, "time_unit", "must be one of \"ns\", \"us\", \"ms\", \"s\"");
    }
    if ((item = cJSON_GetObjectItemCaseSensitive(root, "platform"))) {
        if ((st = read_platform(doc, item, ts->time_unit_ns, &ts->platform, diag)) != RTP_OK)
            return st;
        ts->has_platform = 1;
    }
    if ((item = cJSON_GetObjectItemCaseSensitive(root, "resources")) &&
        (st = rtp_resources_from_json(item, &ts->resources, &ts->n_resources, diag)) !=
            RTP_OK)
        return st;
    const cJSON *tasks = cJSON_GetObjectItemCaseSensitive(root, "tasks");
    if (!tasks)
        return rtp_diag_set(diag, RTP_EINPUT, "tasks", "missing");
    if (!cJSON_IsArray(tasks))
        return rtp_diag_set(diag, RTP_EINPUT, "tasks", "must be a list of tasks");
    size_t n = (size_t)cJSON_GetArraySize(tasks), i = 0;
    if (n > 0 && !(ts->tasks = calloc(n, sizeof *ts->tasks)))
        return rtp_diag_set(diag, RTP_ENOMEM, "tasks", "out of memory");
    size_t block = n > 0 ? names_size(tasks) : 0;
    if (block > 0 && !(ts->name_block = malloc(block)))
        return rtp_diag_set(diag, RTP_ENOMEM, "tasks", "out of memory");
    ts->name_block_size = block;
    /* no offset from a NULL block (no names, or only non-strings): UB clang's
     * UBSan reports (pointer-overflow), though never dereferenced */
    name_dest dest = {ts->name_block, ts->name_block ? ts->name_block + block : NULL};
    char path[RTP_DIAG_PATH_SIZE], name_path[RTP_DIAG_PATH_SIZE];
    rtp_nameset names;
    rtp_nameset_slot small[256]; /* up to 127 tasks: no allocation */
    if (rtp_nameset_init_in(&names, n, small, sizeof small / sizeof *small) != RTP_OK)
        return rtp_diag_set(diag, RTP_ENOMEM, "tasks", "out of memory");
    for (const cJSON *c = tasks->child; c; c = c->next, i++) {
        task_path(path, i);
        ts->n_tasks = i + 1;
        const cJSON *req = NULL; /* task_extra's member */
        st = read_task(doc, c, path, ts->time_unit_ns, task_extra, &ts->tasks[i], &dest, &req,
                       diag);
        if (st == RTP_OK && req) {
            rtp_json_path_key(name_path, sizeof name_path, path, "requests");
            st = rtp_requests_from_json(doc, req, name_path, ts->time_unit_ns, ts->resources,
                                        ts->n_resources, &ts->tasks[i], diag);
        }
        if (st == RTP_OK && rtp_nameset_add(&names, ts->tasks[i].name)) {
            rtp_json_path_key(name_path, sizeof name_path, path, "name");
            st = rtp_diag_set(diag, RTP_EINPUT, name_path, "duplicate task name \"%.60s\"",
                              ts->tasks[i].name);
        }
        if (st != RTP_OK)
            break;
    }
    rtp_nameset_free(&names);
    return st;
}

rtp_status rtp_taskset_parse_json(const char *text, size_t len, rtp_taskset *out,
                                  rtp_diag *diag)
{
    memset(out, 0, sizeof *out);
    rtp_json doc;
    /* the tree lives only in this call: its first arena block on the stack */
    alignas(max_align_t) unsigned char scratch[48 * 1024];
    rtp_status st = rtp_json_open_scratch(&doc, text, len, scratch, sizeof scratch, diag);
    if (st != RTP_OK)
        return st;
    st = rtp_taskset_from_json(&doc, out, diag);
    rtp_json_close(&doc);
    return st;
}

rtp_status rtp_taskset_from_json(const rtp_json *doc, rtp_taskset *out, rtp_diag *diag)
{
    memset(out, 0, sizeof *out);
    rtp_status st = read_taskset(doc, out, diag);
    if (st != RTP_OK)
        rtp_taskset_free(out);
    return st;
}

rtp_status rtp_taskset_load(const char *path, size_t max_bytes, rtp_taskset *out,
                            rtp_diag *diag)
{
    char *text;
    size_t len;
    memset(out, 0, sizeof *out);
    rtp_status st = rtp_read_file_max(path, max_bytes, &text, &len, diag);
    if (st != RTP_OK)
        return st;
    st = rtp_taskset_parse_json(text, len, out, diag);
    free(text);
    return st;
}

void rtp_task_members(rtp_json_writer *w, const rtp_task *task, int with_priority)
{
    rtp_jw_string(w, "name", task->name ? task->name : "");
    rtp_jw_time(w, "wcet", task->wcet_ns);
    rtp_jw_time(w, "deadline", task->deadline_ns);
    rtp_jw_time(w, "period", task->period_ns);
    if (task->jitter_ns)
        rtp_jw_time(w, "jitter", task->jitter_ns);
    if (task->blocking_ns)
        rtp_jw_time(w, "blocking", task->blocking_ns);
    if (task->cmd) {
        if (task->cmd_is_string) {
            rtp_jw_string(w, "cmd", task->cmd[0]);
        } else {
            rtp_jw_open(w, "cmd", 0);
            for (size_t i = 0; i < task->cmd_len; i++)
                rtp_jw_string(w, NULL, task->cmd[i]);
            rtp_jw_close(w);
        }
    }
    if (task->affinity)
        rtp_jw_int_array(w, "affinity", task->affinity, task->affinity_len);
    if (with_priority && task->has_priority)
        rtp_jw_int(w, "priority", task->priority);
    if (task->rr)
        rtp_jw_string(w, "policy", "rr");
}

void rtp_overheads_write(rtp_json_writer *w, const char *key, const rtp_overheads *ov)
{
    rtp_jw_open(w, key, 1);
    rtp_jw_time(w, "release_latency", ov->release_latency_ns);
    rtp_jw_time(w, "context_switch", ov->context_switch_ns);
    if (ov->deadline_charge_ns != 0)
        rtp_jw_time(w, "deadline_charge", ov->deadline_charge_ns);
    if (ov->noise_per_ms_ns != 0)
        rtp_jw_time(w, "noise_per_ms", ov->noise_per_ms_ns);
    if (ov->lock_ns != 0)
        rtp_jw_time(w, "lock", ov->lock_ns);
    rtp_jw_close(w);
}

char *rtp_taskset_to_json(const rtp_taskset *ts, int pretty)
{
    rtp_text out;
    rtp_json_writer w;
    rtp_text_init(&out);
    rtp_jw_init(&w, &out, pretty);
    rtp_jw_open(&w, NULL, 1);
    rtp_jw_string(&w, "time_unit", "ns");
    if (ts->has_platform) {
        const rtp_platform *pf = &ts->platform;
        rtp_jw_open(&w, "platform", 1);
        if (pf->cpus_given_as_count)
            rtp_jw_int(&w, "cpus", (int64_t)pf->n_cpus);
        else if (pf->n_cpus > 0)
            rtp_jw_int_array(&w, "cpus", pf->cpus, pf->n_cpus);
        if (pf->has_overheads)
            rtp_overheads_write(&w, "overheads", &pf->overheads);
        if (pf->rr_quantum_ns)
            rtp_jw_time(&w, "rr_quantum", pf->rr_quantum_ns);
        if (pf->tick_ns)
            rtp_jw_time(&w, "tick", pf->tick_ns);
        if (pf->n_clusters > 0) {
            rtp_jw_open(&w, "clusters", 0);
            for (size_t k = 0; k < pf->n_clusters; k++)
                rtp_jw_int_array(&w, NULL, pf->clusters[k], pf->cluster_len[k]);
            rtp_jw_close(&w);
        }
        rtp_jw_close(&w);
    }
    if (ts->n_resources > 0)
        rtp_resources_write(&w, ts->resources, ts->n_resources);
    rtp_jw_open(&w, "tasks", 0);
    for (size_t i = 0; i < ts->n_tasks; i++) {
        rtp_jw_open(&w, NULL, 1);
        rtp_task_members(&w, &ts->tasks[i], 1);
        if (ts->tasks[i].n_requests > 0)
            rtp_requests_write(&w, ts->resources, &ts->tasks[i]);
        rtp_jw_close(&w);
    }
    rtp_jw_close(&w);
    rtp_jw_close(&w);
    return rtp_jw_take(&w);
}

/* A task's allocations but its name, freed; a task of a generated set has
 * none. */
static void free_fields(rtp_task *task)
{
    if (task->cmd) {
        for (size_t i = 0; i < task->cmd_len; i++)
            free(task->cmd[i]);
        free(task->cmd);
    }
    if (task->affinity)
        free(task->affinity);
    free(task->requests);
}

void rtp_task_free_fields(rtp_task *task)
{
    if (!task)
        return;
    free(task->name);
    free_fields(task);
    memset(task, 0, sizeof *task);
}

rtp_status rtp_task_copy(rtp_task *dst, const rtp_task *src)
{
    *dst = *src;
    dst->name = NULL;
    dst->cmd = NULL;
    dst->affinity = NULL;
    dst->cmd_len = 0;
    dst->affinity_len = 0;
    dst->requests = NULL;
    dst->n_requests = 0;
    if (src->name && !(dst->name = dup_string(src->name)))
        goto done;
    if (src->cmd) {
        if (!(dst->cmd = calloc(src->cmd_len, sizeof *dst->cmd)))
            goto done;
        for (size_t i = 0; i < src->cmd_len; i++) {
            if (!(dst->cmd[i] = dup_string(src->cmd[i])))
                goto done;
            dst->cmd_len = i + 1;
        }
    }
    if (src->affinity) {
        if (!(dst->affinity = malloc(src->affinity_len * sizeof *dst->affinity)))
            goto done;
        memcpy(dst->affinity, src->affinity, src->affinity_len * sizeof *dst->affinity);
        dst->affinity_len = src->affinity_len;
    }
    if (src->requests) {
        if (!(dst->requests = malloc(src->n_requests * sizeof *dst->requests)))
            goto done;
        memcpy(dst->requests, src->requests, src->n_requests * sizeof *dst->requests);
        dst->n_requests = src->n_requests;
    }
    return RTP_OK;
done:
    rtp_task_free_fields(dst);
    return RTP_ENOMEM;
}

void rtp_taskset_free(rtp_taskset *ts)
{
    if (!ts)
        return;
    for (size_t i = 0; ts->tasks && i < ts->n_tasks; i++) {
        const char *name = ts->tasks[i].name;
        /* the block's names go with it (an integer comparison: name may
         * point anywhere, and C orders only pointers into one object) */
        if ((uintptr_t)name - (uintptr_t)ts->name_block >= ts->name_block_size)
            free(ts->tasks[i].name);
        free_fields(&ts->tasks[i]); /* no zeroing: the array goes too */
    }
    free(ts->name_block);
    free(ts->tasks);
    free(ts->platform.cpus);
    for (size_t k = 0; ts->platform.clusters && k < ts->platform.n_clusters; k++)
        free(ts->platform.clusters[k]);
    free(ts->platform.clusters);
    free(ts->platform.cluster_len);
    rtp_resources_free(ts->resources, ts->n_resources);
    memset(ts, 0, sizeof *ts);
}

rtp_status rtp_taskset_cpu_ids(const rtp_taskset *ts, int override_cpus, int **cpus,
                               size_t *n_cpus, rtp_diag *diag)
{
    size_t n;
    if (override_cpus > 0)
        n = (size_t)override_cpus;
    else if (ts->has_platform && ts->platform.n_cpus > 0)
        n = ts->platform.n_cpus;
    else
        return rtp_diag_set(diag, RTP_EINPUT, "platform",
                            "no CPUs: give platform.cpus in the file or --cpus M");
    int *ids = malloc(n * sizeof *ids);
    if (!ids)
        return rtp_diag_set(diag, RTP_ENOMEM, "", "out of memory");
    for (size_t i = 0; i < n; i++)
        ids[i] = override_cpus > 0 ? (int)i : ts->platform.cpus[i];
    *cpus = ids;
    *n_cpus = n;
    return RTP_OK;
}
