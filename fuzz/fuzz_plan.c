/* fuzz/fuzz_plan.c — libFuzzer target for the plan reader
 * (rtp_plan_parse_json, emit's input). Every input either fails
 * (RTP_EINPUT with a message, or RTP_ELIMIT for nesting past the reader's
 * limit; *out zeroed) or gives a plan that keeps the
 * reader's invariants (models/plan.c) and reads back unchanged after
 * rtp_plan_to_json. A broken rule aborts (a libFuzzer crash). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/plan.h"

#define CHECK(cond)                                                          \
    do {                                                                     \
        if (!(cond)) {                                                       \
            fprintf(stderr, "fuzz_plan: broken rule: %s (line %d)\n", #cond, \
                    __LINE__);                                               \
            abort();                                                         \
        }                                                                    \
    } while (0)

static int is_fp(const rtp_plan *p)
{
    return p->policy == RTP_POLICY_FP || p->policy == RTP_POLICY_GFP;
}

static void check_task(const rtp_task *t)
{
    CHECK(t->name && t->name[0]);
    CHECK(t->wcet_ns >= 1 && t->wcet_ns <= RTP_NS_LIMIT);
    CHECK(t->deadline_ns >= 1 && t->deadline_ns <= RTP_NS_LIMIT);
    CHECK(t->period_ns >= 1 && t->period_ns <= RTP_NS_LIMIT);
    CHECK(!t->has_priority); /* a plan's priority lives in rtp_plan_task */
}

static void check_plan(const rtp_plan *p)
{
    CHECK(p->policy <= RTP_POLICY_GFP);
    const char **names = NULL;
    size_t n_names = 0, total = p->n_unassigned;
    for (size_t j = 0; j < p->n_bins; j++)
        total += p->bins[j].n_tasks;
    names = malloc((total + 1) * sizeof *names);
    CHECK(names != NULL);
    for (size_t j = 0; j < p->n_bins; j++) {
        const rtp_plan_bin *bin = &p->bins[j];
        CHECK(bin->n_cpus >= 1 && (p->clustered || bin->n_cpus == 1));
        for (size_t k = 0; k < bin->n_cpus; k++) {
            int id = bin->cpus[k];
            int on_platform = 0;
            for (size_t q = 0; q < p->n_platform_cpus; q++)
                on_platform |= p->platform_cpus[q] == id;
            CHECK(on_platform);
            for (size_t jj = 0; jj <= j; jj++)
                for (size_t kk = 0; kk < p->bins[jj].n_cpus && (jj < j || kk < k); kk++)
                    CHECK(p->bins[jj].cpus[kk] != id);
        }
        for (size_t i = 0; i < bin->n_tasks; i++) {
            const rtp_plan_task *pt = &bin->tasks[i];
            check_task(&pt->task);
            if (is_fp(p)) {
                CHECK(pt->priority >= 1 && (size_t)pt->priority <= bin->n_tasks);
                CHECK(pt->response_time_ns == -1 ||
                      (pt->response_time_ns >= 1 && pt->response_time_ns <= RTP_NS_LIMIT));
            }
            names[n_names++] = pt->task.name;
        }
    }
    for (size_t i = 0; i < p->n_unassigned; i++) {
        check_task(&p->unassigned[i].task);
        names[n_names++] = p->unassigned[i].task.name;
    }
    for (size_t i = 0; i < n_names; i++)
        for (size_t k = 0; k < i; k++)
            CHECK(strcmp(names[i], names[k]) != 0);
    free(names);
}

static void check_same(const rtp_plan *a, const rtp_plan *b)
{
    CHECK(a->feasible == b->feasible && a->policy == b->policy && a->clustered == b->clustered);
    CHECK(strcmp(a->method, b->method) == 0 && strcmp(a->status, b->status) == 0);
    CHECK(strcmp(a->chosen_placement, b->chosen_placement) == 0);
    CHECK(strcmp(a->chosen_order, b->chosen_order) == 0);
    CHECK(a->n_platform_cpus == b->n_platform_cpus && a->n_bins == b->n_bins);
    CHECK(a->n_unassigned == b->n_unassigned);
    for (size_t j = 0; j < a->n_bins; j++) {
        const rtp_plan_bin *x = &a->bins[j], *y = &b->bins[j];
        CHECK(x->n_cpus == y->n_cpus && x->n_tasks == y->n_tasks);
        CHECK(strcmp(x->test, y->test) == 0);
        for (size_t k = 0; k < x->n_cpus; k++)
            CHECK(x->cpus[k] == y->cpus[k]);
        for (size_t i = 0; i < x->n_tasks; i++) {
            const rtp_plan_task *s = &x->tasks[i], *t = &y->tasks[i];
            CHECK(strcmp(s->task.name, t->task.name) == 0);
            CHECK(s->task.wcet_ns == t->task.wcet_ns && s->task.period_ns == t->task.period_ns &&
                  s->task.deadline_ns == t->task.deadline_ns);
            CHECK(s->task.cmd_len == t->task.cmd_len);
            CHECK(s->task.affinity_len == t->task.affinity_len);
            if (is_fp(a))
                CHECK(s->priority == t->priority && s->response_time_ns == t->response_time_ns);
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    rtp_plan plan, back;
    rtp_diag diag;
    rtp_diag_clear(&diag);
    rtp_status st = rtp_plan_parse_json((const char *)data, size, &plan, &diag);
    if (st != RTP_OK) {
        /* Nesting deeper than the reader's limit is a resource limit
         * (exit 3, docs/spec.md "Limits"), every other failure bad input. */
        CHECK(st == RTP_EINPUT || st == RTP_ENOMEM ||
              (st == RTP_ELIMIT && strstr(diag.message, "nested") != NULL));
        CHECK(diag.message[0] != '\0');
        CHECK(plan.bins == NULL && plan.n_bins == 0 && plan.unassigned == NULL);
        return 0;
    }
    check_plan(&plan);
    char *text = rtp_plan_to_json(&plan, (int)(size & 1));
    CHECK(text != NULL);
    rtp_diag_clear(&diag);
    st = rtp_plan_parse_json(text, strlen(text), &back, &diag);
    if (st != RTP_OK)
        fprintf(stderr, "fuzz_plan: written plan does not read back: %s: %s\n%s", diag.path,
                diag.message, text);
    CHECK(st == RTP_OK);
    check_same(&plan, &back);
    char *again = rtp_plan_to_json(&back, (int)(size & 1));
    CHECK(again != NULL && strcmp(text, again) == 0);
    free(again);
    free(text);
    rtp_plan_free(&back);
    rtp_plan_free(&plan);
    return 0;
}
