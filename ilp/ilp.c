/* ilp/ilp.c — the solve / verify / cut loop of ilp.h.
 *
 * Formulation (ilp_model.c): binary x[i][j] for the allowed (task, CPU)
 * pairs (affinity, and the task passes the exact test alone); each task on
 * one CPU; per CPU sum_i u_i x[i][j] <= capacity; cardinality (cover) rows
 * "at most k of these L tasks per CPU", derived exactly; staircase
 * symmetry breaking inside classes of interchangeable CPUs; clique rows of
 * the conflict graph (ilp_conflict.c). Before GLPK, exact pre-checks
 * (ilp_proof.c) look for a certificate of infeasibility; inside its branch
 * and bound, an exact node check (ilp_flow.c, ilp_node_row) prunes nodes
 * whose overload the rounded rows hide. Branch and bound
 * branches on big tasks first and runs an LP-guided first fit with exact
 * checks as primal heuristic (ilp_round.c). Lazy rows (ilp_verify.c): after
 * each GLPK answer every CPU is checked with the exact test; a failing CPU
 * yields
 *   - an EDF demand row at its first miss t, sum_i dbf_i(t)/t x[i][j] <= 1
 *     on every CPU ([BB08] give the static form), and
 *   - a no-good cut on a minimal failing subset S (deletion filter),
 *     sum_{i in S} x[i][j] <= |S| - 1 on every CPU.
 *
 * FP uses the same combinatorial Benders loop, not a MILP with priority and
 * response-time variables [ZD13]: that model needs big-M
 * rows over ns-sized times, where GLPK's doubles and tolerances cannot make
 * "infeasible" a proof, while the exact RTA + OPA check per CPU is already
 * optimal for the priority part [Aud01] and the no-good cuts have 0/1
 * coefficients, exact in doubles. Demand rows still help FP: a set that EDF
 * rejects is rejected by every priority order.
 *
 * Every row is valid for every exactly feasible partition (coefficients
 * rounded down, right-hand sides up), so GLPK's "infeasible" is a proof;
 * a GLPK solution is accepted only when every CPU passes the exact test.
 * The loop ends because each round cuts the current candidate off and there
 * are finitely many partitions.
 *
 * GLPK's own cut generators (glp_iocp clq/cov/gmi/mir) are measured in
 * bench/bench_ilp_scale.c (part B); rtp_ilp_opts.glpk_cuts selects them. */
#include "ilp/ilp.h"
#include "models/effective.h"
#include "solver/rr.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ilp/ilp_internal.h"

rtp_ilp_opts rtp_ilp_opts_default(void)
{
    rtp_ilp_opts o;
    memset(&o, 0, sizeof o);
    o.part = rtp_part_opts_default();
    o.time_limit_s = 60.0;
    o.symmetry_breaking = 1;
    o.warm_start = 1;
    o.lp_rounding = 1;
    o.prechecks = RTP_PRECHECKS_ALL;
    o.conflict_rows = 1;
    o.exact_nodes = 1;
    o.glpk_cuts = 0;
    return o;
}

static const char *const status_names[] = {"optimal", "infeasible", "time_limit"};
const char *rtp_ilp_status_name(rtp_ilp_status s)
{
    return rtp_enum_name(status_names, RTP_COUNT_OF(status_names), (int)s);
}

static void ctx_free(ilp_ctx *c)
{
    rtp_glpk_free(c->g);
    free(c->allowed);
    free(c->util);
    free(c->xcol);
    free(c->ycol);
    free(c->sym_class);
    free(c->order);
    free(c->points);
    free(c->sub);
    free(c->sub_idx);
    free(c->prio);
    free(c->rt);
    free(c->rr);
    free(c->round_assign);
    free(c->round_members);
    free(c->round_count);
    free(c->round_cpu);
    free(c->row_cols);
    free(c->row_vals);
    free(c->adj);
    free(c->adj_test);
    free(c->clique_members);
    free(c->clique_start);
    free(c->max_clique);
    free(c->proof_tasks);
    free(c->proof_cpus);
    free(c->eff);
    ilp_flow_free(c->flow);
    free(c->open);
    free(c->fixed);
    free(c->cut_tasks);
    free(c->cut_cpus);
}

/* The arrays of a context that begin() has zeroed. */
static rtp_status ctx_init(ilp_ctx *c, const rtp_taskset *ts, const int *cpus,
                           size_t m, const rtp_ilp_opts *opts)
{
    c->tasks = c->declared = ts->tasks;
    c->n = ts->n_tasks;
    c->m = m;
    c->cpus = cpus;
    c->opts = opts;
    c->zcol = -1;
    c->test = rtp_test_exact(opts->part.policy, opts->part.priority, 1, opts->part.limits);
    c->test.rr = rtp_rr_params_of(ts->platform.rr_quantum_ns, ts->platform.tick_ns,
                                  &ts->platform.overheads);
    c->test.choose_ties = !opts->part.keep_tie_policy;
    c->edf = rtp_test_exact(RTP_POLICY_EDF, RTP_PRIO_OPA, 1, opts->part.limits);
    c->edf.want_first_miss = 1;
    size_t n1 = c->n + 1, nm = (c->n ? c->n : 1) * (m ? m : 1);
    c->allowed = calloc(nm, sizeof *c->allowed);
    c->xcol = calloc(nm, sizeof *c->xcol);
    c->util = calloc(n1, sizeof *c->util);
    c->sym_class = calloc(m + 1, sizeof *c->sym_class);
    c->order = calloc(n1, sizeof *c->order);
    c->sub = calloc(n1, sizeof *c->sub);
    c->sub_idx = calloc(n1, sizeof *c->sub_idx);
    c->prio = calloc(n1, sizeof *c->prio);
    c->rt = calloc(n1, sizeof *c->rt);
    c->rr = calloc(n1, sizeof *c->rr);
    c->round_assign = calloc(n1, sizeof *c->round_assign);
    c->round_members = calloc(nm, sizeof *c->round_members);
    c->round_count = calloc(m + 1, sizeof *c->round_count);
    c->round_cpu = calloc(m + 1, sizeof *c->round_cpu);
    /* a row has at most one entry per task plus one (capacity), or one per
     * CPU (assignment, symmetry): more CPUs than tasks is common */
    size_t row_len = (c->n > m ? c->n : m) + 1;
    c->row_cols = calloc(row_len, sizeof *c->row_cols);
    c->row_vals = calloc(row_len, sizeof *c->row_vals);
    if (opts->objective == RTP_ILP_MIN_CPUS)
        c->ycol = calloc(m + 1, sizeof *c->ycol);
    c->open = calloc(nm, sizeof *c->open);
    c->fixed = calloc(n1, sizeof *c->fixed);
    c->cut_tasks = calloc(n1, sizeof *c->cut_tasks);
    c->cut_cpus = calloc(m + 1, sizeof *c->cut_cpus);
    if (!c->open || !c->fixed || !c->cut_tasks || !c->cut_cpus)
        return RTP_ENOMEM;
    if (!c->allowed || !c->xcol || !c->util || !c->sym_class || !c->order || !c->sub || !c->sub_idx ||
        !c->prio || !c->rt || !c->rr || !c->round_assign || !c->round_members || !c->round_count ||
        !c->round_cpu || !c->row_cols || !c->row_vals ||
        (opts->objective == RTP_ILP_MIN_CPUS && !c->ycol))
        return RTP_ENOMEM;
    return RTP_OK;
}

static int same_task(const rtp_task *a, const rtp_task *b)
{
    if (a->wcet_ns != b->wcet_ns || a->deadline_ns != b->deadline_ns ||
        a->period_ns != b->period_ns || a->affinity_len != b->affinity_len ||
        (!a->name) != (!b->name) || (a->name && strcmp(a->name, b->name) != 0) ||
        (!a->affinity) != (!b->affinity))
        return 0;
    return !a->affinity || memcmp(a->affinity, b->affinity, a->affinity_len * sizeof(int)) == 0;
}

/* The best heuristic plan (rtp_part_best) as an assignment, when it is
 * complete; *have = 0 otherwise (the warm start is optional, so heuristic
 * errors other than out-of-memory only mean "no warm start"). Plan tasks are
 * copies: each is matched to the first unused input task equal in every
 * field that matters, and equal tasks are interchangeable. */
static rtp_status heuristic(ilp_ctx *c, const rtp_taskset *ts, int *assign, int *have)
{
    *have = 0;
    rtp_plan hp;
    memset(&hp, 0, sizeof hp);
    rtp_diag scratch;
    rtp_diag_clear(&scratch);
    rtp_status st = rtp_part_best(ts, c->cpus, c->m, &c->opts->part, &hp, &scratch);
    if (st != RTP_OK || !hp.feasible || hp.n_unassigned > 0 || hp.n_bins != c->m) {
        rtp_plan_free(&hp);
        return st == RTP_ENOMEM ? st : RTP_OK;
    }
    for (size_t i = 0; i < c->n; i++)
        assign[i] = -1;
    int ok = 1;
    for (size_t b = 0; b < hp.n_bins && ok; b++) {
        size_t j = 0;
        while (j < c->m && !(hp.bins[b].n_cpus == 1 && hp.bins[b].cpus[0] == c->cpus[j]))
            j++;
        ok = j < c->m;
        for (size_t q = 0; q < hp.bins[b].n_tasks && ok; q++) {
            size_t i = 0;
            while (i < c->n && (assign[i] >= 0 || !same_task(&c->declared[i], &hp.bins[b].tasks[q].task)))
                i++;
            ok = i < c->n && c->allowed[ILP_AT(c, i, j)];
            if (ok)
                assign[i] = (int)j;
        }
    }
    for (size_t i = 0; i < c->n && ok; i++)
        ok = assign[i] >= 0;
    rtp_plan_free(&hp);
    if (!ok)
        return RTP_OK;
    int failed;
    st = ilp_verify(c, assign, 0, &failed); /* never trust: re-check exactly */
    *have = st == RTP_OK && failed == 0;
    return st;
}

/* GLPK's integer solution as task -> CPU index. */
static rtp_status read_assign(ilp_ctx *c, int *assign)
{
    for (size_t i = 0; i < c->n; i++) {
        assign[i] = -1;
        double best = 0.5;
        for (size_t j = 0; j < c->m; j++) {
            int col = c->xcol[ILP_AT(c, i, j)];
            double v = col >= 0 ? rtp_glpk_value(c->g, col) : 0.0;
            if (v > best) {
                best = v;
                assign[i] = (int)j;
            }
        }
        if (assign[i] < 0)
            return rtp_diag_set(c->diag, RTP_EINTERNAL, "", "ILP: GLPK returned no CPU for task %zu", i);
    }
    return RTP_OK;
}

/* The loop. *have_plan / plan_assign carry the best verified assignment;
 * *outcome is the verdict. */
static rtp_status loop(ilp_ctx *c, double deadline, int *plan_assign, int *have_plan,
                       rtp_ilp_status *outcome)
{
    double *incumbent = NULL;
    int *assign = malloc((c->n ? c->n : 1) * sizeof *assign);
    if (!assign)
        return RTP_ENOMEM;
    rtp_status st = RTP_OK;
    int objective = c->opts->objective != RTP_ILP_FEASIBILITY;
    for (;;) {
        double left = deadline > 0 ? deadline - ilp_now() : 0.0;
        if ((deadline > 0 && left <= 0) || rtp_limits_check(&c->opts->part.limits, NULL)) {
            *outcome = RTP_ILP_TIME_LIMIT;
            break;
        }
        if (*have_plan && objective) {
            free(incumbent);
            incumbent = malloc((size_t)(rtp_glpk_cols(c->g) + 1) * sizeof *incumbent);
            if (!incumbent) {
                st = RTP_ENOMEM;
                break;
            }
            if ((st = ilp_incumbent(c, plan_assign, incumbent)) != RTP_OK)
                break;
        }
        rtp_glpk_outcome go;
        c->stats->rounds++;
        st = rtp_glpk_solve(c->g, left, *have_plan && objective ? incumbent : NULL,
                            c->opts->lp_rounding && !c->colocate ? ilp_round : NULL, c,
                            &go);
        if (st != RTP_OK) {
            rtp_diag_set(c->diag, st, "", "ILP: GLPK failed (%s)", rtp_status_name(st));
            break;
        }
        if (go == RTP_GLPK_INFEASIBLE) {
            if (*have_plan) { /* a verified plan satisfies every row */
                st = rtp_diag_set(c->diag, RTP_EINTERNAL, "",
                                  "ILP: GLPK declared a model infeasible that a verified plan satisfies");
                break;
            }
            *outcome = RTP_ILP_INFEASIBLE;
            break;
        }
        if (go == RTP_GLPK_TIME_NONE) {
            *outcome = RTP_ILP_TIME_LIMIT;
            break;
        }
        if ((st = read_assign(c, assign)) != RTP_OK)
            break;
        int failed;
        if ((st = ilp_verify(c, assign, go == RTP_GLPK_OPTIMAL, &failed)) != RTP_OK)
            break;
        if (failed == 0) {
            memcpy(plan_assign, assign, c->n * sizeof *assign);
            *have_plan = 1;
        }
        if (go == RTP_GLPK_TIME_SOLUTION) {
            *outcome = RTP_ILP_TIME_LIMIT;
            break;
        }
        if (failed == 0) {
            *outcome = RTP_ILP_OPTIMAL;
            break;
        }
    }
    free(incumbent);
    free(assign);
    return st;
}

/* The same input rules as rtp_part_pack, plus the ILP's own options. */
static rtp_status validate(const rtp_taskset *ts, const int *cpus, size_t m,
                           const rtp_ilp_opts *opts, rtp_diag *diag)
{
    if (!cpus)
        return rtp_diag_set(diag, RTP_EINPUT, "", "no CPUs to partition onto");
    rtp_status st = rtp_part_check_input(ts, cpus, m, &opts->part, diag);
    if (st != RTP_OK)
        return st;
    if ((unsigned)opts->objective > RTP_ILP_BALANCED)
        return rtp_diag_set(diag, RTP_EINPUT, "", "unknown ILP objective");
    if (!(opts->time_limit_s >= 0))
        return rtp_diag_set(diag, RTP_EINPUT, "", "--time-limit must be a non-negative number of seconds");
    return opts->write_lp_path ? rtp_glpk_lp_path_ok(opts->write_lp_path, diag) : RTP_OK;
}

/* validate, context, allowed pairs, pre-checks: shared by rtp_ilp_solve and
 * rtp_ilp_precheck (stats may be NULL: then the context's own). On error the
 * context may be half built (ctx_free). */
static rtp_status begin(ilp_ctx *c, const rtp_taskset *ts, const int *cpus, size_t n_cpus,
                        const rtp_ilp_opts *opts, rtp_ilp_stats *stats, rtp_diag *diag)
{
    memset(c, 0, sizeof *c);
    c->start = ilp_now();
    c->stats = stats ? stats : &c->own_stats;
    memset(c->stats, 0, sizeof *c->stats);
    /* the exact check of one CPU cannot see the spin a resource shared
     * across CPUs costs (solver/locks.h): resources are modelled only with
     * every one's users on one CPU (co-location rows, ilp_model.c), where
     * that check is exact and a failing CPU still fails with more tasks */
    c->colocate = rtp_tasks_have_requests(ts->tasks, ts->n_tasks);
    if (c->colocate && !opts->colocate)
        return rtp_diag_set(diag, RTP_EINPUT, "resources",
                            "the ILP models shared resources only with every resource's "
                            "users on one CPU: ask for it with --colocate");
    c->diag = diag;
    rtp_status st = validate(ts, cpus, n_cpus, opts, diag);
    if (st != RTP_OK)
        return st;
    st = ctx_init(c, ts, cpus, n_cpus, opts);
    /* every check below, pre-checks included, sees the effective tasks */
    if (st == RTP_OK && (c->eff = rtp_effective_new(ts->tasks, c->n, &ts->platform.overheads,
                                                    opts->part.policy, &st,
                                                    diag)))
        c->tasks = c->eff;
    c->effective = !rtp_overheads_zero(&ts->platform.overheads);
    c->deadline = opts->time_limit_s > 0 ? c->start + opts->time_limit_s : 0.0;
    if (opts->part.limits.deadline_ns > 0) { /* the caller's deadline (same clock) */
        double until = (double)opts->part.limits.deadline_ns * 1e-9;
        c->deadline = c->deadline > 0 && c->deadline < until ? c->deadline : until;
    }
    int homeless = 0;
    if (st == RTP_OK)
        st = ilp_allowed(c, &homeless);
    if (st == RTP_OK)
        st = ilp_prove(c); /* exact pre-checks: a proof needs no search */
    c->stats->precheck_seconds = ilp_now() - c->start;
    return st;
}

rtp_status rtp_ilp_precheck(const rtp_taskset *ts, const int *cpus, size_t n_cpus,
                            const rtp_ilp_opts *opts, rtp_plan_proof *proof,
                            rtp_ilp_stats *stats, rtp_diag *diag)
{
    memset(proof, 0, sizeof *proof);
    ilp_ctx c;
    rtp_status st = begin(&c, ts, cpus, n_cpus, opts, stats, diag);
    if (st == RTP_OK)
        st = ilp_proof_write(&c, proof);
    if (st == RTP_ENOMEM)
        rtp_diag_set(diag, st, "", "out of memory");
    c.stats->seconds = ilp_now() - c.start;
    ctx_free(&c);
    return st;
}

rtp_status rtp_ilp_solve(const rtp_taskset *ts, const int *cpus, size_t n_cpus,
                         const rtp_ilp_opts *opts, rtp_plan *plan,
                         rtp_ilp_status *status, rtp_ilp_stats *stats,
                         rtp_diag *diag)
{
    memset(plan, 0, sizeof *plan);
    ilp_ctx c;
    rtp_status st = begin(&c, ts, cpus, n_cpus, opts, stats, diag);
    int *best = malloc((c.n ? c.n : 1) * sizeof *best);
    if (st == RTP_OK && !best)
        st = RTP_ENOMEM;
    int have_plan = 0;
    rtp_ilp_status outcome = RTP_ILP_INFEASIBLE;
    int proved = c.proof != RTP_PROOF_NONE;
    if (st == RTP_OK && !proved && opts->warm_start && !c.colocate)
        st = heuristic(&c, ts, best, &have_plan);
    if (st == RTP_OK && (!proved || opts->write_lp_path))
        st = ilp_build(&c);
    if (st == RTP_OK && c.n == 0)
        have_plan = 1; /* nothing to place */
    if (st != RTP_OK || proved) {
        /* outcome stays INFEASIBLE: the certificate is in c */
    } else if (have_plan && (opts->objective == RTP_ILP_FEASIBILITY || c.n == 0)) {
        outcome = RTP_ILP_OPTIMAL;
    } else {
        st = loop(&c, c.deadline, best, &have_plan, &outcome);
        if (st == RTP_OK && outcome == RTP_ILP_INFEASIBLE)
            st = ilp_prove_search(&c);
    }
    if (st == RTP_OK && c.g) {
        c.stats->rows = rtp_glpk_rows(c.g);
        c.stats->cols = rtp_glpk_cols(c.g);
    }
    if (st == RTP_OK && opts->write_lp_path)
        st = rtp_glpk_write_lp(c.g, opts->write_lp_path, diag);
    if (st == RTP_OK && (st = rtp_plan_init_cpus(plan, opts->part.policy, cpus, n_cpus)) == RTP_OK) {
        plan->overheads = ts->platform.overheads;
        plan->rr_quantum_ns = ts->platform.rr_quantum_ns;
        plan->tick_ns = ts->platform.tick_ns;
        if (c.colocate) /* placed or not, its tasks name the resources */
            st = rtp_plan_set_resources(plan, ts);
    }
    if (st == RTP_OK && have_plan) {
        st = ilp_plan(&c, best, plan);
        if (st == RTP_OK && c.colocate)
            st = ilp_plan_locks(&c, ts, best, plan);
    } else {
        for (size_t i = 0; i < c.n && st == RTP_OK; i++)
            st = rtp_plan_add_task(plan, RTP_PLAN_UNASSIGNED, &c.declared[i], 0, -1);
    }
    if (st == RTP_OK && outcome == RTP_ILP_INFEASIBLE)
        st = ilp_proof_write(&c, &plan->proof);
    if (st == RTP_OK) {
        snprintf(plan->method, sizeof plan->method, "ilp");
        snprintf(plan->status, sizeof plan->status, "%s", rtp_ilp_status_name(outcome));
        *status = outcome;
    } else {
        rtp_plan_free(plan);
        if (st == RTP_ENOMEM)
            rtp_diag_set(diag, st, "", "out of memory");
    }
    if (outcome != RTP_ILP_INFEASIBLE)
        c.stats->proof = RTP_PROOF_NONE;
    c.stats->seconds = ilp_now() - c.start;
    free(best);
    ctx_free(&c);
    return st;
}
