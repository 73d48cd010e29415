/* solver/edf.c — exact uniprocessor EDF: processor demand with QPA, with
 * release jitter and blocking.
 *
 * The test (docs/spec.md "Real-system terms"; [Spu96], [Bar06]): with
 * effective tasks (C, J already C', J'), write D*_i = D_i - J_i. Then
 *   dbf(t) = sum max(0, floor((t - D*_i) / T_i) + 1) C_i,
 *   b(t)   = max { B_j : D*_j <= t } (0 if none),
 * and the set is schedulable iff U <= 1, every J_i < D_i, and
 * h(t) = dbf(t) + b(t) <= t for every t > 0. So jitter is exactly a
 * shortened deadline D* (a job arriving at a - J, released at a, due at
 * a - J + D); blocking is a non-decreasing step function of t that only
 * steps at some D*_j, which are themselves points where dbf steps.
 *
 * Steps:
 *   0. some J_i >= D_i: not schedulable, first_miss = 1 ns (docs/spec.md).
 *   1. U > 1 (exact, models/ratio.h): not schedulable.
 *   2. every D*_i >= T_i and no blocking, U <= 1: schedulable, because then
 *      dbf_i(t) <= (t - D*_i + T_i) C_i / T_i <= t C_i / T_i.
 *   3. a bound L with every failing t < L (derived below), L = min(La, Lb'),
 *      or at U = 1 the tail test (below) when it finds a miss.
 *   4. QPA [ZB09] (Theorem 5) over the step points of h (the
 *      absolute deadlines k T_i + D*_i) <= L: from the last one walk down,
 *      t <- h(t) when h(t) < t, else the previous step point, until
 *      h(t) <= d*_min (schedulable) or h(t) > t (a miss). Its argument needs
 *      only that h is a non-decreasing step function, constant between step
 *      points, whose steps are all among the points visited: true of dbf,
 *      of b (a running maximum over a growing set of tasks, stepping only
 *      at D*_j, the first deadline of task j), and of their sum. A failure
 *      can only be at a step point s (h is constant from s to the next
 *      one, so t' > s fails only if s does), and if h(t) < t then every t'
 *      in [h(t), t] has h(t') <= h(t) <= t': the walk skips no failure.
 *   5. first_miss: QPA's failure point need not be the smallest, so the step
 *      points are scanned upward (demand accumulated job by job, b as a
 *      running maximum) up to QPA's failure point.
 *
 * The testing bound (step 3), with B = max_j B_j and U = sum C_i / T_i:
 *  - La ([GRS96], with jitter and blocking): for
 *    t > 0, dbf_i(t) <= U_i max(0, t + T_i - D*_i) <= U_i t + U_i [T_i -
 *    D*_i]^+ and b(t) <= B, so h(t) > t implies
 *    t (1 - U) < B + sum_i (T_i - D*_i)^+ U_i, i.e. (U < 1)
 *      t < La = (B + sum_{D*_i < T_i} (T_i - D_i + J_i) U_i) / (1 - U).
 *    Here an integer upper bound of it (64.64 fixed point rounded up, GMP
 *    when that cannot decide), raised to max(D*_i - T_i) (harmless).
 *  - Lb' (busy period; [Spu96]'s argument, jitter and blocking added):
 *    let Lb = least w > 0 with w = sum ceil(w / T_i) C_i (the synchronous
 *    busy period; it exists when U <= 1). For t >= Lb, the jobs with
 *    deadline <= t of a synchronous arrival pattern split into those
 *    released before Lb (at most ceil(Lb / T_i) per task, Lb in all) and
 *    those released at k T_i >= Lb with k T_i + D*_i <= t (at most
 *    dbf_i(t - Lb) / C_i of them), so dbf(t) <= Lb + dbf(t - Lb). With
 *    t_B = max { D*_j : B_j > 0 } (0 if none), b(t) = b(t - Lb) = B once
 *    t - Lb >= t_B, hence h(t) <= Lb + h(t - Lb) for t >= Lb + t_B: a
 *    failure at such t implies one at t - Lb >= t_B > 0 (h(0) = 0 cannot
 *    fail when t_B = 0), and by induction one below Lb' = Lb + t_B. No
 *    "busy period with jitter" (sum ceil((w + J_i) / T_i) C_i) is needed:
 *    jitter only moves deadlines, and the argument above holds for any
 *    D*_i >= 1. Lb' exists at U = 1 too (Lb <= the hyperperiod), so the
 *    exact answer exists there (no resource limit of the method itself).
 *    The busy period is iterated at most limits->max_iterations times and
 *    stops early once Lb + t_B passes La; when it passes the cap, a miss
 *    found below its last iterate still decides "not schedulable";
 *    otherwise RTP_ELIMIT.
 *  - U = 1 exactly (there La does not exist and Lb is about the
 *    hyperperiod H, so the busy period alone took up to 50 million steps).
 *    When every D*_i <= T_i, no dbf term is clamped at 0 for t >= 0, and
 *    H U = H gives, for k >= 1, dbf(kH - 1) = kH + sum_i (floor((-1 -
 *    D*_i) / T_i) + 1) C_i = kH - S with S = sum { C_i : D*_i = T_i } (the
 *    floor is -1 when D*_i < T_i, -2 when D*_i = T_i). For k large
 *    enough, kH - 1 >= t_B and b = B there, so B + 1 > S means
 *    h(kH - 1) > kH - 1: a miss (the "tail test"). In particular a set at
 *    U = 1 with every D*_i < T_i is never schedulable. Used when the
 *    caller does not want first_miss (the miss found has no bound on how
 *    far it is: the first-miss scan needs the old path). Otherwise at_one()
 *    below decides every t >= max D* at once from the tasks' residues and
 *    leaves QPA the points below it; only when that decomposition is too
 *    costly does the busy period run (exact EDF is coNP-hard [EY15]).
 * Each phase (busy period, QPA, first-miss scan) may take up to
 * limits->max_iterations steps.
 * Demands are summed in 128 bits and saturate at 2^100 (> any rtp_ns), so a
 * comparison with t is exact and nothing overflows. */
#include "solver/edf.h"

#include "models/arith.h"
#include "models/ratio.h"
#include "solver/edf_internal.h"
#include "solver/edf_near.h"
#include "solver/edf_tail.h"

#include <gmp.h>
#include <stdlib.h>
#include <string.h>


typedef rtp_edf_budget budget;

#define spend rtp_edf_spend

/* D* = D - J: the relative deadline counted from the release at the end of
 * the jitter window. */
static rtp_ns dstar(const rtp_task *t)
{
    return t->deadline_ns - t->jitter_ns;
}

/* dbf(t) saturated at RTP_I128_SATURATED (any D*, t >= 0). */
static rtp_i128 demand(const rtp_task *tasks, size_t n, rtp_ns t)
{
    rtp_i128 sum = 0;
    for (size_t i = 0; i < n; i++) {
        rtp_ns d = dstar(&tasks[i]);
        if (t < d)
            continue;
        rtp_i128 jobs = d >= 0 ? (rtp_i128)((t - d) / tasks[i].period_ns) + 1
                           : ((rtp_i128)t - d) / tasks[i].period_ns + 1;
        sum += jobs * tasks[i].wcet_ns;
        if (sum >= RTP_I128_SATURATED)
            return RTP_I128_SATURATED;
    }
    return sum;
}

rtp_ns rtp_edf_blocking(const rtp_task *tasks, size_t n, rtp_ns t)
{
    rtp_ns b = 0;
    for (size_t i = 0; i < n; i++)
        if (tasks[i].blocking_ns > b && dstar(&tasks[i]) <= t)
            b = tasks[i].blocking_ns;
    return b;
}

rtp_i128 rtp_edf_load(const rtp_task *tasks, size_t n, rtp_ns t, int with_blocking)
{
    rtp_i128 h = demand(tasks, n, t);
    return with_blocking ? h + rtp_edf_blocking(tasks, n, t) : h;
}

rtp_status rtp_edf_dbf(const rtp_task *tasks, size_t n, rtp_ns t, rtp_ns *out)
{
    rtp_i128 d = demand(tasks, n, t);
    if (d > INT64_MAX)
        return RTP_ELIMIT;
    *out = (rtp_ns)d;
    return RTP_OK;
}

rtp_ns rtp_edf_prev_deadline(const rtp_task *tasks, size_t n, rtp_ns x)
{
    rtp_ns best = 0;
    for (size_t i = 0; i < n; i++) {
        rtp_ns d = dstar(&tasks[i]);
        if (d >= x)
            continue;
        d += (x - d - 1) / tasks[i].period_ns * tasks[i].period_ns;
        if (d > best)
            best = d;
    }
    return best;
}

/* Exact ceil((B + sum_{D*<T} (T - D*) C / T) / (1 - U)) with GMP (U < 1
 * known); 0 when it does not fit an rtp_ns. */
static rtp_ns la_exact(const rtp_task *tasks, size_t n, rtp_ns blocking)
{
    mpq_t num, den, term;
    mpz_t q;
    mpq_inits(num, den, term, NULL);
    mpz_init(q);
    mpq_set_ui(den, 1, 1);
    mpz_set_si(mpq_numref(num), blocking);
    for (size_t i = 0; i < n; i++) {
        const rtp_task *t = &tasks[i];
        mpz_set_si(mpq_numref(term), t->wcet_ns);
        mpz_set_si(mpq_denref(term), t->period_ns);
        mpq_canonicalize(term);
        mpq_sub(den, den, term);
        if (dstar(t) < t->period_ns) {
            mpz_mul_si(mpq_numref(term), mpq_numref(term), t->period_ns - dstar(t));
            mpq_canonicalize(term);
            mpq_add(num, num, term);
        }
    }
    mpq_div(num, num, den);
    mpz_cdiv_q(q, mpq_numref(num), mpq_denref(num));
    rtp_ns out = mpz_fits_slong_p(q) ? (rtp_ns)mpz_get_si(q) : 0;
    mpz_clear(q);
    mpq_clears(num, den, term, NULL);
    return out;
}

/* An integer upper bound of La (U < 1), or 0 when it passes rtp_ns. */
static rtp_ns la_bound(const rtp_task *tasks, size_t n, rtp_ns blocking)
{
    const rtp_u128 one = (rtp_u128)1 << 64, cap = (rtp_u128)1 << 126;
    rtp_u128 util_hi = 0, num_hi = (rtp_u128)(uint64_t)blocking << 64; /* B <= 2^62: < cap */
    rtp_ns max_excess = 0;
    for (size_t i = 0; i < n; i++) {
        const rtp_task *t = &tasks[i];
        rtp_u128 scaled = (rtp_u128)(uint64_t)t->wcet_ns << 64;
        rtp_u128 u = scaled / (uint64_t)t->period_ns + (scaled % (uint64_t)t->period_ns != 0);
        util_hi += u; /* each u <= 2^64 when U < 1: no overflow */
        if (dstar(t) < t->period_ns) {
            rtp_u128 term = (rtp_u128)(uint64_t)(t->period_ns - dstar(t)) * u;
            num_hi = (num_hi >= cap || term >= cap) ? cap : num_hi + term;
        } else if (dstar(t) - t->period_ns > max_excess) {
            max_excess = dstar(t) - t->period_ns;
        }
    }
    rtp_ns la;
    if (util_hi < one && num_hi < cap) {
        rtp_u128 den = one - util_hi, q = num_hi / den + (num_hi % den != 0);
        la = q > (rtp_u128)INT64_MAX ? 0 : (rtp_ns)q;
    } else {
        la = la_exact(tasks, n, blocking);
    }
    if (la == 0)
        return 0;
    return la > max_excess ? la : max_excess;
}

rtp_status rtp_edf_walk(const rtp_task *tasks, size_t n, int with_blocking, rtp_ns lo,
                        rtp_ns hi, rtp_ns d_min, budget *b, rtp_ns *failed_at, rtp_diag *diag)
{
    rtp_ns t = hi < INT64_MAX ? rtp_edf_prev_deadline(tasks, n, hi + 1) : hi;
    *failed_at = 0;
    while (t >= lo && t > 0) {
        if (spend(b, diag, "EDF QPA did not finish"))
            return RTP_ELIMIT;
        rtp_i128 h = rtp_edf_load(tasks, n, t, with_blocking);
        if (h > t) {
            *failed_at = t;
            break;
        }
        if (h <= d_min)
            break; /* no step point below t fails */
        t = h < t ? (rtp_ns)h : rtp_edf_prev_deadline(tasks, n, t);
    }
    return RTP_OK;
}

/* QPA over the step points <= bound. */
static rtp_status qpa(const rtp_task *tasks, size_t n, int with_blocking, rtp_ns bound,
                      rtp_ns d_min, budget *b, rtp_ns *failed_at, rtp_diag *diag)
{
    return rtp_edf_walk(tasks, n, with_blocking, 1, bound, d_min, b, failed_at, diag);
}

/* The set's shape for steps 0-3. */
typedef struct shape {
    int late;          /* some J >= D */
    int overloaded;    /* U > 1 */
    rtp_ns blocking;   /* B = max blocking */
    rtp_ns t_block;    /* t_B = max D* of a task with blocking, 0 if none */
    rtp_ns d_min;      /* smallest D* */
    int tail_miss;     /* U = 1 and the tail test finds a miss (step 3) */
    rtp_ns miss;       /* > 0: a failing t found while bounding (step 3) */
    int decided;       /* U < 1 decided by solver/edf_near.c: miss is the
                        * smallest failing t (0: schedulable) */
} shape;

/* What interval() is for: the bound itself (rtp_edf_bound), or a verdict
 * with first_miss (a miss anywhere will do: the scan starts below it) or
 * without (the tail test's miss will do too). */
enum { BOUND_ONLY, VERDICT_FIRST_MISS, VERDICT };

/* Lb: least fixed point of w = sum ceil(w / T_i) C_i, or stop as soon as w
 * passes `stop` (> 0: the point past which the other bound is smaller):
 * *lb = 0 then. On RTP_ELIMIT, *lb is the last iterate (a lower bound of
 * Lb, so a miss below it is still a valid answer).
 * With `probe` (the set's shape), a long iteration is interleaved with QPA
 * below the current iterate after 2^10, 2^11, ... steps: near U = 1 the
 * iteration creeps (Lb near the hyperperiod) while a miss, when there is
 * one, is usually far below Lb; a miss found anywhere is the exact answer
 * (*miss = its t, *lb = 0). The probes cost at most about twice the
 * iteration itself (each walks below an iterate reached by as many
 * steps); a probe that hits a limit only ends the probing. */
static rtp_status busy_period(const rtp_task *tasks, size_t n, rtp_ns stop, const shape *probe,
                              budget *b, rtp_ns *lb, rtp_ns *miss, rtp_diag *diag)
{
    *miss = 0;
    rtp_i128 w = 0;
    for (size_t i = 0; i < n; i++)
        w += tasks[i].wcet_ns;
    *lb = 0;
    for (;;) {
        if (stop > 0 && w > stop) {
            *lb = 0; /* not the previous iterate: that is below Lb */
            return RTP_OK;
        }
        if (w > INT64_MAX)
            return rtp_diag_set(diag, RTP_ELIMIT, "",
                                "EDF busy period passes 2^63 ns");
        *lb = (rtp_ns)w;
        if (spend(b, diag, "EDF busy period not found"))
            return RTP_ELIMIT;
        rtp_i128 next = 0;
        for (size_t i = 0; i < n && next < RTP_I128_SATURATED; i++) {
            rtp_ns jobs = ((rtp_ns)w - 1) / tasks[i].period_ns + 1; /* ceil, w >= 1 */
            next += (rtp_i128)jobs * tasks[i].wcet_ns;
        }
        if (next == w)
            return RTP_OK;
        w = next;
        if (probe && b->used >= 1024 && (b->used & (b->used - 1)) == 0) {
            budget pb = {0, b->max, b->limits};
            rtp_diag scratch;
            rtp_ns upto = (rtp_ns)w;
            if (qpa(tasks, n, probe->blocking > 0, upto, probe->d_min, &pb, miss, &scratch) !=
                RTP_OK) {
                probe = NULL;
                *miss = 0;
            } else if (*miss > 0) {
                *lb = 0;
                return RTP_OK;
            }
        }
    }
}


rtp_status rtp_edf_scan(const rtp_task *tasks, size_t n, rtp_ns from, rtp_ns upto,
                        budget *b, rtp_ns *out, rtp_diag *diag)
{
    rtp_ns *next = malloc((n ? n : 1) * sizeof *next);
    if (!next)
        return rtp_oom(diag);
    rtp_i128 dem = 0; /* dbf(t) of the step points passed */
    rtp_ns blocked = 0; /* b(t): a running maximum over the first deadlines seen */
    for (size_t i = 0; i < n; i++) {
        rtp_ns d = dstar(&tasks[i]);
        if (d >= from) {
            next[i] = d;
            continue;
        }
        rtp_ns k = (from - 1 - d) / tasks[i].period_ns + 1; /* deadlines <= from - 1 */
        dem += (rtp_i128)k * tasks[i].wcet_ns;
        if (tasks[i].blocking_ns > blocked)
            blocked = tasks[i].blocking_ns;
        if (__builtin_mul_overflow(k, tasks[i].period_ns, &next[i]) ||
            __builtin_add_overflow(next[i], d, &next[i]))
            next[i] = INT64_MAX;
    }
    rtp_status st = RTP_EINTERNAL;
    for (;;) {
        rtp_ns t = INT64_MAX;
        for (size_t i = 0; i < n; i++)
            if (next[i] < t)
                t = next[i];
        if (t > upto)
            break; /* cannot happen: upto fails */
        if (spend(b, diag, "EDF first deadline miss not found")) {
            st = RTP_ELIMIT;
            break;
        }
        for (size_t i = 0; i < n; i++) {
            if (next[i] != t)
                continue;
            dem += tasks[i].wcet_ns;
            if (t == dstar(&tasks[i]) && tasks[i].blocking_ns > blocked)
                blocked = tasks[i].blocking_ns;
            if (__builtin_add_overflow(next[i], tasks[i].period_ns, &next[i]))
                next[i] = INT64_MAX;
        }
        if (dem + blocked > t) {
            *out = t;
            st = RTP_OK;
            break;
        }
    }
    free(next);
    return st;
}

/* Steps 0-3: *bound = L, or 0 when the shape decides at once (late,
 * overloaded, or every D* >= T without blocking). On RTP_ELIMIT, *bound is
 * the last busy-period iterate (0 if none): a miss below it still decides. */
/* The tail test at U = 1 (step 3): every D* <= T and B + 1 > S. */
static int tail_miss(const rtp_task *tasks, size_t n, rtp_ns blocking)
{
    rtp_i128 implicit = 0;
    for (size_t i = 0; i < n; i++) {
        if (dstar(&tasks[i]) > tasks[i].period_ns)
            return 0;
        if (dstar(&tasks[i]) == tasks[i].period_ns)
            implicit += tasks[i].wcet_ns;
    }
    return (rtp_i128)blocking + 1 > implicit;
}

/* U = 1 exactly, every t >= T0 = max D* at once (docs/spec.md: at U' = 1
 * the exact answer exists, no resource limit there). Past T0 the slack
 * t - h(t) is a sum of per-task sawtooth terms of t's residues modulo the
 * periods minus a constant, so "no failure at any t >= T0" is a minimum
 * over residues, found without walking the hyperperiod by the Chinese
 * remainder decomposition of solver/edf_tail.c (the same
 * computation the critical scaling factor uses at U' = 1, here with
 * alpha = 1 and the effective tasks). No failure there: every failing t is
 * below T0, so *bound = T0 for QPA. A failure at t_f: QPA below T0 looks
 * for a smaller one first (the first-miss scan then starts low), else
 * sh->miss = t_f. *decided = 0 when the decomposition would pass the step
 * budget or its failure lies past 2^62 ns: the busy-period path runs. */
static rtp_status at_one(const rtp_task *tasks, size_t n, budget *b, shape *sh,
                         rtp_ns *bound, int *decided, rtp_diag *diag)
{
    rtp_ns t0 = 0, failed = 0;
    for (size_t i = 0; i < n; i++)
        if (dstar(&tasks[i]) > t0)
            t0 = dstar(&tasks[i]);
    uint64_t used = 0;
    mpq_t one;
    mpq_init(one);
    mpq_set_ui(one, 1, 1);
    rtp_status st = rtp_edf_tail(tasks, n, 0, one, t0, &used,
                                 b->max > b->used ? b->max - b->used : 0, decided, &failed);
    mpq_clear(one);
    b->used += used;
    if (st == RTP_ELIMIT) { /* the budget only chose not to decide here */
        *decided = 0;
        return RTP_OK;
    }
    if (st != RTP_OK || !*decided || failed < 0) {
        *decided = 0;
        return st == RTP_ENOMEM ? rtp_oom(diag) : st;
    }
    if (failed == 0) {
        *bound = t0;
        return RTP_OK;
    }
    rtp_ns below = 0;
    if ((st = qpa(tasks, n, sh->blocking > 0, t0, sh->d_min, b, &below, diag)) != RTP_OK)
        return st;
    sh->miss = below > 0 ? below : failed;
    return RTP_OK;
}

/* The exact check of step points in [lo, hi] for solver/edf_near.c: QPA
 * over them, then the smallest failure by an upward scan. */
typedef struct near_check {
    const rtp_task *tasks;
    size_t n;
    int with_blocking;
    rtp_ns d_min;
    budget *b;
    rtp_diag *diag;
} near_check;

static rtp_status check_steps(void *ctx, rtp_ns lo, rtp_ns hi, int want_first, rtp_ns *failed)
{
    near_check *c = ctx;
    rtp_status st = rtp_edf_walk(c->tasks, c->n, c->with_blocking, lo, hi, c->d_min, c->b,
                                 failed, c->diag);
    if (st == RTP_OK && *failed > 0 && want_first)
        st = rtp_edf_scan(c->tasks, c->n, lo, *failed, c->b, failed, c->diag);
    return st;
}

/* Just below U' = 1 (step 3): is the testing interval long enough for the
 * lattice search of solver/edf_near.c? La past 2^14 longest periods (QPA
 * would walk it in steps of about a period's work), unless the busy period
 * ends within 4096 steps and below La (then Lb' bounds QPA instead). */
static int near_one(const rtp_task *tasks, size_t n, rtp_ns la, rtp_ns t_block,
                    const rtp_limits *limits)
{
    rtp_ns longest = 1;
    for (size_t i = 0; i < n; i++)
        if (tasks[i].period_ns > longest)
            longest = tasks[i].period_ns;
    if (la > 0 && la / longest <= ((rtp_ns)1 << 14))
        return 0;
    budget quick = {0, 4096, limits};
    rtp_diag scratch;
    rtp_ns lb = 0, miss = 0;
    if (busy_period(tasks, n, 0, NULL, &quick, &lb, &miss, &scratch) != RTP_OK || lb == 0)
        return 1;
    return la > 0 && lb + t_block >= la; /* Lb' past La: no help (both <= 2^62) */
}

/* The lattice search ran out of steps: say what it searched. */
static rtp_status near_limit(rtp_status st, const rtp_edf_near_result *nr, size_t n,
                             rtp_diag *diag)
{
    if (st != RTP_ELIMIT)
        return st;
    char why[sizeof diag->message];
    memcpy(why, diag->message, sizeof why);
    return rtp_diag_set(diag, RTP_ELIMIT, "",
                        "EDF just below U' = 1: %s (testing bound La = %lld ns; every "
                        "deadline miss there needs the deadlines of the %zu largest of %zu "
                        "tasks to fall together, searched as a lattice)",
                        why, (long long)nr->bound, nr->dims, n);
}

/* mode: see above; sh->tail_miss or sh->miss set means no bound. */
static rtp_status interval(const rtp_task *tasks, size_t n, int mode, budget *b,
                           shape *sh, rtp_ns *bound, rtp_diag *diag)
{
    int all_loose = 1;
    sh->tail_miss = 0;
    sh->miss = 0;
    sh->decided = 0;
    sh->late = 0;
    sh->blocking = sh->t_block = 0;
    sh->d_min = INT64_MAX;
    for (size_t i = 0; i < n; i++) {
        const rtp_task *t = &tasks[i];
        rtp_ns d = dstar(t);
        sh->late = sh->late || d <= 0;
        all_loose = all_loose && d >= t->period_ns;
        if (t->blocking_ns > sh->blocking)
            sh->blocking = t->blocking_ns;
        if (t->blocking_ns > 0 && d > sh->t_block)
            sh->t_block = d;
        if (d < sh->d_min)
            sh->d_min = d;
    }
    *bound = 0;
    sh->overloaded = 0;
    if (sh->late)
        return RTP_OK;
    rtp_ratio one = {1, 1};
    int cmp = rtp_load_cmp(tasks, n, RTP_LOAD_UTIL, one);
    sh->overloaded = cmp > 0;
    if (cmp > 0 || (all_loose && sh->blocking == 0))
        return RTP_OK;
    if (cmp == 0 && mode == VERDICT && (sh->tail_miss = tail_miss(tasks, n, sh->blocking)))
        return RTP_OK;
    if (cmp == 0 && mode != BOUND_ONLY) {
        int decided = 0;
        rtp_status st = at_one(tasks, n, b, sh, bound, &decided, diag);
        if (st != RTP_OK || decided)
            return st;
    }
    rtp_ns la = cmp < 0 ? la_bound(tasks, n, sh->blocking) : 0, lb = 0;
    if (cmp < 0 && mode != BOUND_ONLY && near_one(tasks, n, la, sh->t_block, b->limits)) {
        rtp_edf_near_result nr;
        near_check ck = {tasks, n, sh->blocking > 0, sh->d_min, b, diag};
        rtp_edf_near_in in = {.tasks = tasks, .n = n, .t_cap = RTP_NS_LIMIT,
                              .want_first = mode == VERDICT_FIRST_MISS, .check = check_steps,
                              .check_ctx = &ck, .b = b};
        rtp_status st = rtp_edf_near(&in, &nr, diag);
        if (st != RTP_OK)
            return near_limit(st, &nr, n, diag);
        if (nr.decided) {
            sh->decided = 1;
            sh->miss = nr.failed;
            return RTP_OK;
        }
    }
    if (la > 0 && la <= sh->t_block) {
        *bound = la; /* Lb' = Lb + t_B > La already */
        return RTP_OK;
    }
    rtp_status st = busy_period(tasks, n, la > 0 ? la - sh->t_block : 0,
                                mode == BOUND_ONLY ? NULL : sh, b, &lb, &sh->miss, diag);
    if (st != RTP_OK) {
        *bound = lb;
        return st;
    }
    if (sh->miss > 0)
        return RTP_OK;
    rtp_ns lb_prime = 0;
    if (lb > 0 && __builtin_add_overflow(lb, sh->t_block, &lb_prime))
        lb_prime = 0;
    if (lb_prime > 0 && (la == 0 || lb_prime < la))
        *bound = lb_prime;
    else if (la > 0)
        *bound = la;
    else
        return rtp_diag_set(diag, RTP_ELIMIT, "", "EDF testing bound passes 2^63 ns");
    return RTP_OK;
}

rtp_status rtp_edf_bound(const rtp_task *tasks, size_t n, const rtp_limits *limits,
                         rtp_ns *bound, rtp_diag *diag)
{
    budget b = {0, (limits ? *limits : rtp_limits_default()).max_iterations, limits};
    shape sh;
    rtp_status st = interval(tasks, n, BOUND_ONLY, &b, &sh, bound, diag);
    if (st != RTP_OK)
        *bound = 0;
    return st;
}

/* The test; want: 0 verdict only, 1 first_miss, 2 some failing t (into
 * first_miss_ns, without the upward scan: rtp_edf_failure). */
static rtp_status test(const rtp_task *tasks, size_t n, int want, const rtp_limits *limits,
                       rtp_edf_result *result, rtp_diag *diag)
{
    const uint64_t max = (limits ? *limits : rtp_limits_default()).max_iterations;
    if (rtp_limits_check(limits, diag) != RTP_OK)
        return RTP_ELIMIT;
    int want_first_miss = want > 0;
    budget b = {0, max, limits};
    result->schedulable = 0;
    result->has_first_miss = 0;
    result->first_miss_ns = 0;
    rtp_ns bound = 0, failed_at = 0;
    shape sh;
    rtp_status st = interval(tasks, n, want_first_miss ? VERDICT_FIRST_MISS : VERDICT, &b, &sh,
                             &bound, diag);
    int with_blocking = sh.blocking > 0;
    if (st == RTP_ELIMIT && bound > 0) {
        /* No bound: a miss below the last busy-period iterate still decides. */
        budget b2 = {0, max, limits};
        if (qpa(tasks, n, with_blocking, bound, sh.d_min, &b2, &failed_at, diag) != RTP_OK ||
            failed_at == 0)
            return RTP_ELIMIT;
        rtp_diag_clear(diag);
    } else if (st != RTP_OK) {
        return st;
    } else if (sh.late) {
        /* A job released at the end of its jitter window cannot finish by
         * its deadline: docs/spec.md says first_miss = 1 ns. */
        result->has_first_miss = want_first_miss;
        result->first_miss_ns = want_first_miss ? 1 : 0;
        return RTP_OK;
    } else if (sh.overloaded || sh.tail_miss) {
        return RTP_OK; /* U > 1, or a miss far out at U = 1: first_miss not wanted */
    } else if (sh.miss > 0) {
        failed_at = sh.miss;
    } else if (bound > 0 &&
               (st = qpa(tasks, n, with_blocking, bound, sh.d_min, &b, &failed_at, diag)) !=
                   RTP_OK) {
        return st;
    }
    if (failed_at == 0) {
        result->schedulable = 1;
        return RTP_OK;
    }
    if (!want_first_miss)
        return RTP_OK;
    if (sh.decided || want == 2) { /* the lattice search's miss is the smallest already */
        result->has_first_miss = 1;
        result->first_miss_ns = failed_at;
        return RTP_OK;
    }
    budget b3 = {0, max, limits};
    st = rtp_edf_scan(tasks, n, 1, failed_at, &b3, &result->first_miss_ns, diag);
    if (st == RTP_OK)
        result->has_first_miss = 1;
    return st;
}

rtp_status rtp_edf_qpa(const rtp_task *tasks, size_t n, int want_first_miss,
                       const rtp_limits *limits, rtp_edf_result *result,
                       rtp_diag *diag)
{
    return test(tasks, n, want_first_miss ? 1 : 0, limits, result, diag);
}

rtp_status rtp_edf_failure(const rtp_task *tasks, size_t n, const rtp_limits *limits,
                           rtp_ns *failed, rtp_diag *diag)
{
    rtp_edf_result r;
    rtp_status st = test(tasks, n, 2, limits, &r, diag);
    *failed = st == RTP_OK && !r.schedulable ? r.first_miss_ns : 0;
    return st;
}
