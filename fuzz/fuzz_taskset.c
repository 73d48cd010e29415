/* fuzz/fuzz_taskset.c — libFuzzer target for the task-set reader
 * (rtp_taskset_parse_json). Beyond "no crash, no sanitizer report", every
 * input must either fail (RTP_EINPUT with a message, or RTP_ELIMIT for
 * nesting past the reader's limit; *out zeroed) or give a set that keeps
 * the reader's invariants and survives to_json -> parse unchanged; exact
 * load sums are checked against GMP and every time against
 * rtp_duration_format/parse. A broken rule aborts, which libFuzzer reports
 * as a crash with the input saved. */
#include <gmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/duration.h"
#include "models/ratio.h"
#include "models/taskset.h"

#define CHECK(cond)                                                          \
    do {                                                                     \
        if (!(cond)) {                                                       \
            fprintf(stderr, "fuzz_taskset: broken rule: %s (line %d)\n", #cond, \
                    __LINE__);                                               \
            abort();                                                         \
        }                                                                    \
    } while (0)

static int valid_time(rtp_ns t) { return t >= 1 && t <= RTP_NS_LIMIT; }

static void check_time_text(rtp_ns t)
{
    char buf[64], why[128];
    rtp_ns back = -1;
    rtp_duration_format(t, buf, sizeof buf);
    CHECK(rtp_duration_parse(buf, &back, why, sizeof why) == RTP_OK && back == t);
}

static void check_task(const rtp_task *t)
{
    CHECK(t->name && t->name[0]);
    CHECK(valid_time(t->wcet_ns) && valid_time(t->deadline_ns) && valid_time(t->period_ns));
    check_time_text(t->wcet_ns);
    check_time_text(t->deadline_ns);
    check_time_text(t->period_ns);
    CHECK((t->cmd == NULL) == (t->cmd_len == 0));
    CHECK(!t->cmd_is_string || t->cmd_len == 1);
    for (size_t i = 0; i < t->cmd_len; i++)
        CHECK(t->cmd[i] != NULL);
    CHECK((t->affinity == NULL) == (t->affinity_len == 0));
    for (size_t i = 0; i < t->affinity_len; i++) {
        CHECK(t->affinity[i] >= 0);
        for (size_t j = 0; j < i; j++)
            CHECK(t->affinity[i] != t->affinity[j]);
    }
}

static int has(const int *ids, size_t n, int id)
{
    for (size_t i = 0; i < n; i++)
        if (ids[i] == id)
            return 1;
    return 0;
}

static void check_set(const rtp_taskset *ts)
{
    CHECK(ts->time_unit_ns == 1 || ts->time_unit_ns == 1000 || ts->time_unit_ns == 1000000 ||
          ts->time_unit_ns == 1000000000);
    for (size_t i = 0; i < ts->n_tasks; i++) {
        check_task(&ts->tasks[i]);
        for (size_t j = 0; j < i; j++)
            CHECK(strcmp(ts->tasks[i].name, ts->tasks[j].name) != 0);
    }
    const rtp_platform *pf = &ts->platform;
    if (!ts->has_platform)
        return;
    /* platform.cpus is optional (a platform of overheads only); clusters need it */
    CHECK(pf->n_cpus >= 1 ||
          (pf->cpus == NULL && pf->n_clusters == 0 && !pf->cpus_given_as_count));
    for (size_t i = 0; i < pf->n_cpus; i++) {
        CHECK(pf->cpus[i] >= 0);
        CHECK(!has(pf->cpus, i, pf->cpus[i]));
    }
    for (size_t k = 0; k < pf->n_clusters; k++) {
        CHECK(pf->cluster_len[k] >= 1);
        for (size_t j = 0; j < pf->cluster_len[k]; j++) {
            int id = pf->clusters[k][j];
            CHECK(has(pf->cpus, pf->n_cpus, id));
            CHECK(!has(pf->clusters[k], j, id));
            for (size_t other = 0; other < k; other++)
                CHECK(!has(pf->clusters[other], pf->cluster_len[other], id));
        }
    }
}

static void check_same(const rtp_taskset *a, const rtp_taskset *b)
{
    CHECK(a->n_tasks == b->n_tasks && a->has_platform == b->has_platform);
    for (size_t i = 0; i < a->n_tasks; i++) {
        const rtp_task *x = &a->tasks[i], *y = &b->tasks[i];
        CHECK(strcmp(x->name, y->name) == 0);
        CHECK(x->wcet_ns == y->wcet_ns && x->deadline_ns == y->deadline_ns &&
              x->period_ns == y->period_ns);
        CHECK(x->cmd_len == y->cmd_len && x->cmd_is_string == y->cmd_is_string);
        for (size_t k = 0; k < x->cmd_len; k++)
            CHECK(strcmp(x->cmd[k], y->cmd[k]) == 0);
        CHECK(x->affinity_len == y->affinity_len);
        for (size_t k = 0; k < x->affinity_len; k++)
            CHECK(x->affinity[k] == y->affinity[k]);
        CHECK(x->has_priority == y->has_priority && x->priority == y->priority);
    }
    CHECK(a->platform.n_cpus == b->platform.n_cpus);
    CHECK(a->platform.n_clusters == b->platform.n_clusters);
    for (size_t i = 0; i < a->platform.n_cpus; i++)
        CHECK(a->platform.cpus[i] == b->platform.cpus[i]);
}

/* sign(load - 1) by GMP, against rtp_load_cmp. */
static void check_load(const rtp_taskset *ts, rtp_load_kind kind)
{
    mpq_t sum, term;
    mpq_inits(sum, term, NULL);
    for (size_t i = 0; i < ts->n_tasks; i++) {
        const rtp_task *t = &ts->tasks[i];
        rtp_ns d = kind == RTP_LOAD_DENSITY && t->deadline_ns < t->period_ns ? t->deadline_ns
                                                                             : t->period_ns;
        mpq_set_si(term, t->wcet_ns, (unsigned long)d);
        mpq_canonicalize(term);
        mpq_add(sum, sum, term);
    }
    mpq_set_ui(term, 1, 1);
    int want = mpq_cmp(sum, term);
    want = (want > 0) - (want < 0);
    mpq_clears(sum, term, NULL);
    rtp_ratio one = {1, 1};
    CHECK(rtp_load_cmp(ts->tasks, ts->n_tasks, kind, one) == want);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    rtp_taskset ts, back;
    rtp_diag diag;
    rtp_diag_clear(&diag);
    rtp_status st = rtp_taskset_parse_json((const char *)data, size, &ts, &diag);
    if (st != RTP_OK) {
        /* Nesting deeper than the reader's limit is a resource limit
         * (exit 3, docs/spec.md "Limits"), every other failure bad input. */
        CHECK(st == RTP_EINPUT || st == RTP_ENOMEM ||
              (st == RTP_ELIMIT && strstr(diag.message, "nested") != NULL));
        CHECK(diag.message[0] != '\0');
        CHECK(ts.tasks == NULL && ts.n_tasks == 0 && ts.platform.cpus == NULL);
        return 0;
    }
    check_set(&ts);
    check_load(&ts, RTP_LOAD_UTIL);
    check_load(&ts, RTP_LOAD_DENSITY);
    char *text = rtp_taskset_to_json(&ts, (int)(size & 1));
    CHECK(text != NULL);
    rtp_diag_clear(&diag);
    st = rtp_taskset_parse_json(text, strlen(text), &back, &diag);
    if (st != RTP_OK)
        fprintf(stderr, "fuzz_taskset: written set does not read back: %s: %s\n%s", diag.path,
                diag.message, text);
    CHECK(st == RTP_OK);
    check_same(&ts, &back);
    char *again = rtp_taskset_to_json(&back, (int)(size & 1));
    CHECK(again != NULL && strcmp(text, again) == 0);
    free(again);
    free(text);
    rtp_taskset_free(&back);
    rtp_taskset_free(&ts);
    return 0;
}
