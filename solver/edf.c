/* solver/edf.c — exact uniprocessor EDF: processor demand with QPA.
 *
 * A set is EDF-schedulable on one CPU iff U <= 1 and dbf(t) <= t for every
 * absolute deadline t below a bound L [BMR90]. The steps:
 *   1. U > 1 (exact, models/ratio.h): not schedulable.
 *   2. every D >= T and U <= 1: schedulable, because then
 *      dbf_i(t) <= (t - D_i + T_i) C_i / T_i <= t C_i / T_i.
 *   3. L = min(La, Lb): La = max(max(D_i - T_i), sum (T_i - D_i) U_i / (1 - U))
 *      [GRS96] only when U < 1, here an integer upper
 *      bound of it (terms with D_i > T_i dropped, 64.64 fixed point rounded
 *      up, GMP when that cannot decide); Lb the synchronous busy period
 *      [Spu96], iterated at most limits->max_iterations times.
 *      When the busy period passes the cap, a miss found below its last
 *      iterate still decides "not schedulable"; otherwise RTP_ELIMIT.
 *   4. QPA [ZB09] (Theorem 5): from the last deadline <= L walk
 *      down, t <- dbf(t) when dbf(t) < t, else the previous deadline, until
 *      dbf(t) <= d_min (schedulable) or dbf(t) > t (a miss).
 *   5. first_miss: QPA's failure point need not be the smallest, so the
 *      absolute deadlines are scanned upward (demand accumulated job by job)
 *      up to QPA's failure point.
 * Each phase (busy period, QPA, first-miss scan) may take up to
 * limits->max_iterations steps.
 * Demands are summed in 128 bits and saturate at 2^100 (> any rtp_ns), so a
 * comparison with t is exact and nothing overflows. */
#include "solver/edf.h"

#include "models/ratio.h"

#include <gmp.h>
#include <stdlib.h>

typedef __int128 i128;
typedef unsigned __int128 u128;
#define SATURATED ((i128)1 << 100)

typedef struct budget {
    uint64_t used, max;
} budget;

static int spend(budget *b)
{
    return ++b->used > b->max;
}

/* dbf(t) saturated at SATURATED. */
static i128 demand(const rtp_task *tasks, size_t n, rtp_ns t)
{
    i128 sum = 0;
    for (size_t i = 0; i < n; i++) {
        if (t < tasks[i].deadline_ns)
            continue;
        rtp_ns jobs = (t - tasks[i].deadline_ns) / tasks[i].period_ns + 1;
        sum += (i128)jobs * tasks[i].wcet_ns;
        if (sum >= SATURATED)
            return SATURATED;
    }
    return sum;
}

rtp_status rtp_edf_dbf(const rtp_task *tasks, size_t n, rtp_ns t, rtp_ns *out)
{
    i128 d = demand(tasks, n, t);
    if (d > INT64_MAX)
        return RTP_ELIMIT;
    *out = (rtp_ns)d;
    return RTP_OK;
}

/* Largest absolute deadline k T_i + D_i (k >= 0) strictly below x; 0 if none. */
static rtp_ns prev_deadline(const rtp_task *tasks, size_t n, rtp_ns x)
{
    rtp_ns best = 0;
    for (size_t i = 0; i < n; i++) {
        rtp_ns d = tasks[i].deadline_ns;
        if (d >= x)
            continue;
        d += (x - d - 1) / tasks[i].period_ns * tasks[i].period_ns;
        if (d > best)
            best = d;
    }
    return best;
}

/* Exact ceil(sum_{D<T} (T - D) C / T / (1 - U)) with GMP (U < 1 known);
 * 0 when it does not fit an rtp_ns. */
static rtp_ns la_exact(const rtp_task *tasks, size_t n)
{
    mpq_t num, den, term;
    mpz_t q;
    mpq_inits(num, den, term, NULL);
    mpz_init(q);
    mpq_set_ui(den, 1, 1);
    for (size_t i = 0; i < n; i++) {
        const rtp_task *t = &tasks[i];
        mpz_set_si(mpq_numref(term), t->wcet_ns);
        mpz_set_si(mpq_denref(term), t->period_ns);
        mpq_canonicalize(term);
        mpq_sub(den, den, term);
        if (t->deadline_ns < t->period_ns) {
            mpz_mul_si(mpq_numref(term), mpq_numref(term), t->period_ns - t->deadline_ns);
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
static rtp_ns la_bound(const rtp_task *tasks, size_t n)
{
    const u128 one = (u128)1 << 64, cap = (u128)1 << 126;
    u128 util_hi = 0, num_hi = 0;
    rtp_ns max_excess = 0;
    for (size_t i = 0; i < n; i++) {
        const rtp_task *t = &tasks[i];
        u128 scaled = (u128)(uint64_t)t->wcet_ns << 64;
        u128 u = scaled / (uint64_t)t->period_ns + (scaled % (uint64_t)t->period_ns != 0);
        util_hi += u; /* each u <= 2^64 when U < 1: no overflow */
        if (t->deadline_ns < t->period_ns) {
            u128 term = (u128)(uint64_t)(t->period_ns - t->deadline_ns) * u;
            num_hi = (num_hi >= cap || term >= cap) ? cap : num_hi + term;
        } else if (t->deadline_ns - t->period_ns > max_excess) {
            max_excess = t->deadline_ns - t->period_ns;
        }
    }
    rtp_ns la;
    if (util_hi < one && num_hi < cap) {
        u128 den = one - util_hi, q = num_hi / den + (num_hi % den != 0);
        la = q > (u128)INT64_MAX ? 0 : (rtp_ns)q;
    } else {
        la = la_exact(tasks, n);
    }
    if (la == 0)
        return 0;
    return la > max_excess ? la : max_excess;
}

/* Lb: least fixed point of w = sum ceil(w / T_i) C_i, or stop as soon as w
 * passes `stop` (> 0: La, the other bound): *lb = 0 then. On RTP_ELIMIT,
 * *lb is the last iterate (a lower bound of Lb, so a miss below it is still
 * a valid answer). */
static rtp_status busy_period(const rtp_task *tasks, size_t n, rtp_ns stop,
                              budget *b, rtp_ns *lb, rtp_diag *diag)
{
    i128 w = 0;
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
        if (spend(b))
            return rtp_diag_set(diag, RTP_ELIMIT, "",
                                "EDF busy period not found in %llu iterations",
                                (unsigned long long)b->max);
        i128 next = 0;
        for (size_t i = 0; i < n && next < SATURATED; i++) {
            rtp_ns jobs = ((rtp_ns)w - 1) / tasks[i].period_ns + 1; /* ceil, w >= 1 */
            next += (i128)jobs * tasks[i].wcet_ns;
        }
        if (next == w)
            return RTP_OK;
        w = next;
    }
}

/* QPA [ZB09] over the deadlines <= bound: *failed_at = a t
 * with dbf(t) > t, or 0 when there is none. */
static rtp_status qpa(const rtp_task *tasks, size_t n, rtp_ns bound, rtp_ns d_min,
                      budget *b, rtp_ns *failed_at, rtp_diag *diag)
{
    rtp_ns t = bound < INT64_MAX ? prev_deadline(tasks, n, bound + 1) : bound;
    *failed_at = 0;
    while (t > 0) {
        if (spend(b))
            return rtp_diag_set(diag, RTP_ELIMIT, "", "EDF QPA did not finish in %llu iterations",
                                (unsigned long long)b->max);
        i128 h = demand(tasks, n, t);
        if (h > t) {
            *failed_at = t;
            break;
        }
        if (h <= d_min)
            break;
        t = h < t ? (rtp_ns)h : prev_deadline(tasks, n, t);
    }
    return RTP_OK;
}

/* The smallest absolute deadline t <= upto with dbf(t) > t (one exists). */
static rtp_status first_miss(const rtp_task *tasks, size_t n, rtp_ns upto,
                             budget *b, rtp_ns *out, rtp_diag *diag)
{
    rtp_ns *next = malloc(n * sizeof *next);
    if (!next)
        return RTP_ENOMEM;
    for (size_t i = 0; i < n; i++)
        next[i] = tasks[i].deadline_ns;
    i128 dem = 0;
    rtp_status st = RTP_EINTERNAL;
    for (;;) {
        rtp_ns t = INT64_MAX;
        for (size_t i = 0; i < n; i++)
            if (next[i] < t)
                t = next[i];
        if (t > upto)
            break; /* cannot happen: QPA saw a miss at or below upto */
        if (spend(b)) {
            st = rtp_diag_set(diag, RTP_ELIMIT, "",
                              "EDF first deadline miss not found in %llu iterations",
                              (unsigned long long)b->max);
            break;
        }
        for (size_t i = 0; i < n; i++) {
            if (next[i] != t)
                continue;
            dem += tasks[i].wcet_ns;
            if (__builtin_add_overflow(next[i], tasks[i].period_ns, &next[i]))
                next[i] = INT64_MAX;
        }
        if (dem > t) {
            *out = t;
            st = RTP_OK;
            break;
        }
    }
    free(next);
    return st;
}

/* Steps 1-3: *overloaded = U > 1; otherwise *bound = L, or 0 when every
 * D >= T (schedulable at once). On RTP_ELIMIT, *bound is the last busy-period
 * iterate (0 if none): a miss below it still decides. */
static rtp_status interval(const rtp_task *tasks, size_t n, budget *b, int *overloaded,
                           rtp_ns *bound, rtp_diag *diag)
{
    rtp_ratio one = {1, 1};
    int cmp = rtp_load_cmp(tasks, n, RTP_LOAD_UTIL, one), all_loose = 1;
    for (size_t i = 0; i < n; i++)
        all_loose = all_loose && tasks[i].deadline_ns >= tasks[i].period_ns;
    *overloaded = cmp > 0;
    *bound = 0;
    if (cmp > 0 || all_loose)
        return RTP_OK;
    rtp_ns la = cmp < 0 ? la_bound(tasks, n) : 0, lb = 0;
    rtp_status st = busy_period(tasks, n, la, b, &lb, diag);
    *bound = st != RTP_OK ? lb : (lb > 0 && (la == 0 || lb < la)) ? lb : la;
    return st;
}

rtp_status rtp_edf_bound(const rtp_task *tasks, size_t n, const rtp_limits *limits,
                         rtp_ns *bound, rtp_diag *diag)
{
    budget b = {0, (limits ? *limits : rtp_limits_default()).max_iterations};
    int overloaded;
    rtp_status st = interval(tasks, n, &b, &overloaded, bound, diag);
    if (st != RTP_OK)
        *bound = 0;
    return st;
}

rtp_status rtp_edf_qpa(const rtp_task *tasks, size_t n, int want_first_miss,
                       const rtp_limits *limits, rtp_edf_result *result,
                       rtp_diag *diag)
{
    const uint64_t max = (limits ? *limits : rtp_limits_default()).max_iterations;
    budget b = {0, max};
    result->schedulable = 0;
    result->has_first_miss = 0;
    result->first_miss_ns = 0;
    rtp_ns d_min = INT64_MAX, bound = 0, failed_at = 0;
    for (size_t i = 0; i < n; i++)
        if (tasks[i].deadline_ns < d_min)
            d_min = tasks[i].deadline_ns;
    int overloaded;
    rtp_status st = interval(tasks, n, &b, &overloaded, &bound, diag);
    if (st == RTP_ELIMIT && bound > 0) {
        /* No bound: a miss below the last busy-period iterate still decides. */
        budget b2 = {0, max};
        if (qpa(tasks, n, bound, d_min, &b2, &failed_at, diag) != RTP_OK || failed_at == 0)
            return RTP_ELIMIT;
        rtp_diag_clear(diag);
    } else if (st != RTP_OK) {
        return st;
    } else if (overloaded) {
        return RTP_OK; /* U > 1: first_miss left out */
    } else if (bound > 0 && (st = qpa(tasks, n, bound, d_min, &b, &failed_at, diag)) != RTP_OK) {
        return st;
    }
    if (failed_at == 0) {
        result->schedulable = 1;
        return RTP_OK;
    }
    if (!want_first_miss)
        return RTP_OK;
    budget b3 = {0, max};
    st = first_miss(tasks, n, failed_at, &b3, &result->first_miss_ns, diag);
    if (st == RTP_OK)
        result->has_first_miss = 1;
    return st;
}
