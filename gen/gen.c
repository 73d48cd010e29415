/* gen/gen.c — random task sets (see gen.h for the contract).
 *
 * Order of draws for one set, all from its own stream: n periods, then the
 * utilization vector (UUniFast-discard may redraw it), then n deadlines. The
 * stream's point key leaves the deadline model out, so the implicit and the
 * constrained sets of one (n, m, U) point share their periods and WCETs: the
 * comparison between deadline models is paired. */
#include "gen/gen.h"
#include "models/arith.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

rtp_gen_opts rtp_gen_opts_default(void)
{
    rtp_gen_opts o;
    memset(&o, 0, sizeof o);
    o.max_task_util = (rtp_ratio){1, 1};
    o.algo = RTP_GEN_UUNIFAST_DISCARD;
    o.period_min_ns = 1000000;
    o.period_max_ns = 1000000000;
    o.granularity_ns = 1;
    o.deadlines = RTP_DL_IMPLICIT;
    o.constrained_factor = (rtp_ratio){1, 2};
    o.arbitrary_factor = (rtp_ratio){2, 1};
    o.max_attempts = 10000;
    o.access = (rtp_ratio){1, 2};
    o.max_requests = 1;
    o.cs_min_ns = 1000;
    o.cs_max_ns = 100000;
    return o;
}

static const char *const algo_names[] = {"uunifast-discard", "randfixedsum"};
static const char *const deadline_names[] = {"implicit", "constrained", "arbitrary"};

const char *rtp_gen_algo_name(rtp_gen_algo algo)
{
    return rtp_enum_name(algo_names, RTP_COUNT_OF(algo_names), (int)algo);
}

int rtp_gen_algo_parse(const char *name, rtp_gen_algo *out)
{
    int i = rtp_enum_find(algo_names, RTP_COUNT_OF(algo_names), name);
    if (i < 0)
        return -1;
    *out = (rtp_gen_algo)i;
    return 0;
}

const char *rtp_gen_deadlines_name(rtp_gen_deadlines dl)
{
    return rtp_enum_name(deadline_names, RTP_COUNT_OF(deadline_names), (int)dl);
}

int rtp_gen_deadlines_parse(const char *name, rtp_gen_deadlines *out)
{
    int i = rtp_enum_find(deadline_names, RTP_COUNT_OF(deadline_names), name);
    if (i < 0)
        return -1;
    *out = (rtp_gen_deadlines)i;
    return 0;
}

/* --- deterministic elementary functions ---------------------------------
 * frexp/ldexp are exact; everything else is IEEE +, -, *, /, which round the
 * same way everywhere. Accuracy is a few ulp, which is all a generator needs. */

#define LN2_HI 6.93147180369123816490e-01 /* fdlibm's split of ln 2 */
#define LN2_LO 1.90821492927058770002e-10
#define SQRT_HALF 0.70710678118654752440

double rtp_gen_log(double x)
{
    int e;
    double m = frexp(x, &e); /* x = m 2^e, m in [0.5, 1) */
    if (m < SQRT_HALF) {
        m *= 2.0;
        e -= 1;
    }
    /* log m = 2 atanh(s), s = (m-1)/(m+1), |s| <= 0.172: 14 odd terms. */
    double s = (m - 1.0) / (m + 1.0), s2 = s * s, sum = 0.0;
    for (int k = 27; k >= 1; k -= 2)
        sum = sum * s2 + 1.0 / (double)k;
    return (double)e * LN2_HI + ((double)e * LN2_LO + 2.0 * s * sum);
}

double rtp_gen_exp(double x)
{
    if (x > 709.0)
        return HUGE_VAL;
    if (x < -745.0)
        return 0.0;
    double kd = floor(x / (LN2_HI + LN2_LO) + 0.5);
    double r = (x - kd * LN2_HI) - kd * LN2_LO; /* |r| <= 0.35 */
    double sum = 1.0;
    for (int k = 20; k >= 1; k--)
        sum = 1.0 + sum * r / (double)k;
    return ldexp(sum, (int)kd);
}

double rtp_gen_pow(double x, double y)
{
    if (x == 0.0)
        return 0.0;
    return rtp_gen_exp(y * rtp_gen_log(x));
}

/* --- checks --------------------------------------------------------------- */

/* sign(a - b * k) for ratios and a whole k >= 0. */
static int cmp_scaled(rtp_ratio a, rtp_ratio b, int64_t k)
{
    __int128 l = (__int128)a.num * b.den, r = (__int128)b.num * k * a.den;
    return (l > r) - (l < r);
}

rtp_status rtp_gen_check(const rtp_gen_opts *o, rtp_diag *diag)
{
    const rtp_ratio one = {1, 1}, zero = {0, 1};
    char total[40], cap[40];
    if (o->n_tasks < 1 || o->n_tasks > 100000)
        return rtp_diag_set(diag, RTP_EINPUT, "", "the number of tasks must be 1..100000");
    if (o->total_util.den <= 0 || o->total_util.num <= 0)
        return rtp_diag_set(diag, RTP_EINPUT, "", "the total utilization must be positive");
    if (o->n_resources > 1000)
        return rtp_diag_set(diag, RTP_EINPUT, "", "the number of resources must be 0..1000");
    if (o->n_resources > 0 &&
        (o->access.den <= 0 || o->access.num < 0 || rtp_ratio_cmp(o->access, one) > 0))
        return rtp_diag_set(diag, RTP_EINPUT, "", "the access probability must be in [0, 1]");
    if (o->n_resources > 0 && (o->max_requests < 1 || o->max_requests > 1000))
        return rtp_diag_set(diag, RTP_EINPUT, "", "the requests per job must be 1..1000");
    if (o->n_resources > 0 && (o->cs_min_ns < 1 || o->cs_max_ns < o->cs_min_ns))
        return rtp_diag_set(diag, RTP_EINPUT, "",
                            "critical-section lengths need 1 ns <= MIN <= MAX");
    if (o->max_task_util.den <= 0 || o->max_task_util.num <= 0 ||
        rtp_ratio_cmp(o->max_task_util, one) > 0)
        return rtp_diag_set(diag, RTP_EINPUT, "", "the per-task utilization cap must be in (0, 1]");
    rtp_ratio_format(o->total_util, total, sizeof total);
    rtp_ratio_format(o->max_task_util, cap, sizeof cap);
    int vs_max = cmp_scaled(o->total_util, o->max_task_util, (int64_t)o->n_tasks);
    if (vs_max > 0)
        return rtp_diag_set(diag, RTP_EINPUT, "",
                            "impossible: total utilization %s is above %zu tasks x cap %s",
                            total, o->n_tasks, cap);
    if (vs_max == 0 && o->algo == RTP_GEN_UUNIFAST_DISCARD && o->n_tasks > 1)
        return rtp_diag_set(diag, RTP_EINPUT, "",
                            "impossible for uunifast-discard: total utilization %s equals "
                            "%zu tasks x cap %s (use randfixedsum)", total, o->n_tasks, cap);
    if (o->n_period_set > 0) {
        for (size_t i = 0; i < o->n_period_set; i++)
            if (o->period_set[i] < 1 || o->period_set[i] > RTP_NS_LIMIT)
                return rtp_diag_set(diag, RTP_EINPUT, "", "period set entries must be in 1..2^62 ns");
    } else {
        if (o->granularity_ns < 1 || o->period_min_ns < 1 || o->period_max_ns > RTP_NS_LIMIT ||
            o->period_min_ns > o->period_max_ns)
            return rtp_diag_set(diag, RTP_EINPUT, "",
                                "periods need 1 <= min <= max <= 2^62 ns and a positive granularity");
        rtp_ns first = (o->period_min_ns + o->granularity_ns - 1) / o->granularity_ns;
        if (first > o->period_max_ns / o->granularity_ns)
            return rtp_diag_set(diag, RTP_EINPUT, "",
                                "no multiple of the granularity %lld ns lies in [%lld, %lld] ns",
                                (long long)o->granularity_ns, (long long)o->period_min_ns,
                                (long long)o->period_max_ns);
    }
    if (o->constrained_factor.den <= 0 || rtp_ratio_cmp(o->constrained_factor, zero) < 0 ||
        rtp_ratio_cmp(o->constrained_factor, one) > 0)
        return rtp_diag_set(diag, RTP_EINPUT, "", "the constrained-deadline factor must be in [0, 1]");
    rtp_ns longest = o->period_max_ns, scaled;
    for (size_t i = 0; i < o->n_period_set; i++)
        longest = i == 0 || o->period_set[i] > longest ? o->period_set[i] : longest;
    /* the 2^62 bound matters only where the factor scales deadlines */
    if (o->arbitrary_factor.den <= 0 || rtp_ratio_cmp(o->arbitrary_factor, one) < 0 ||
        (o->deadlines == RTP_DL_ARBITRARY &&
         (rtp_muldiv_floor(longest, o->arbitrary_factor.num, o->arbitrary_factor.den,
                           &scaled) != RTP_OK || scaled > RTP_NS_LIMIT)))
        return rtp_diag_set(diag, RTP_EINPUT, "",
                            "the arbitrary-deadline factor must be >= 1 and keep deadlines below 2^62 ns");
    if (o->max_attempts < 1)
        return rtp_diag_set(diag, RTP_EINPUT, "", "max_attempts must be positive");
    /* Every wcet is at least 1 ns, so every set has U >= n / longest: a
     * total below that cannot be drawn at any seed (a sweep point would
     * measure other sets than it names). */
    if (cmp_scaled(o->total_util, (rtp_ratio){1, longest}, (int64_t)o->n_tasks) < 0)
        return rtp_diag_set(diag, RTP_EINPUT, "",
                            "impossible: %zu tasks of at least 1 ns each, with periods of at "
                            "most %lld ns, have a total utilization of at least %zu/%lld, "
                            "above %s; ask for longer periods or fewer tasks",
                            o->n_tasks, (long long)longest, o->n_tasks, (long long)longest,
                            total);
    return RTP_OK;
}

/* --- utilizations --------------------------------------------------------- */

/* UUniFast [BB05] (Fig. 2): uniform over the simplex sum = U. */
static void uunifast(size_t n, double total, rtp_rng *rng, double *util)
{
    double sum = total;
    for (size_t i = 1; i < n; i++) {
        double next = sum * rtp_gen_pow(rtp_rng_unit(rng), 1.0 / (double)(n - i));
        util[i - 1] = sum - next;
        sum = next;
    }
    util[n - 1] = sum;
}

/* RandFixedSum [Sta06] [ESD10], one vector
 * of n values in [0, 1] with sum s, uniform over that polytope; a port of
 * Stafford's MATLAB code with 0-based indices. Its tables (w of simplex
 * volumes, n x (n+1), and t of transition probabilities, (n-1) x n) are
 * quadratic in n, but the draw reads t only along one path: row R at a
 * column J within k - (n - 2 - R) .. k (k = floor(s)), and each row of w
 * needs one column more of the row above. So only that band is kept (rows
 * of w two at a time, t band by band), each entry computed by the same
 * operations as the full tables: the same numbers in O(n min(k, n - k))
 * time and memory. *cells, when not NULL, gets the band's size first, and
 * the draw is skipped (the caller's up-front limit). */
#define RFS_BAND_MAX ((size_t)1 << 26) /* t entries: 512 MiB */

static size_t rfs_lo(size_t n, size_t k, size_t r) /* first column of w row r kept */
{
    return k + 1 + r >= n ? k + 1 + r - n : 0; /* max(0, k - (n - 2 - r) - 1) */
}

static size_t rfs_hi(size_t k, size_t r) /* last column of w row r kept */
{
    return r + 1 < k + 2 ? r + 1 : k + 2;
}

static rtp_status randfixedsum(size_t n, double s, rtp_rng *rng, double *x, size_t *cells)
{
    double kf = floor(s);
    if (kf > (double)(n - 1))
        kf = (double)(n - 1);
    if (kf < 0.0)
        kf = 0.0;
    size_t k = (size_t)kf;
    /* t row R is kept for columns rfs_lo(R) .. rfs_hi(R) (offsets in toff) */
    size_t total = 0;
    for (size_t r = 0; r + 1 < n; r++)
        total += rfs_hi(k, r) - rfs_lo(n, k, r) + 1;
    if (cells) {
        *cells = total;
        return RTP_OK;
    }
    double *w0 = calloc(n + 2, sizeof *w0), *w1 = calloc(n + 2, sizeof *w1);
    double *t = malloc((total ? total : 1) * sizeof *t);
    size_t *toff = malloc(n * sizeof *toff);
    double *s1 = malloc(n * sizeof *s1), *s2 = malloc(n * sizeof *s2);
    if (!w0 || !w1 || !t || !toff || !s1 || !s2) {
        free(w0), free(w1), free(t), free(toff), free(s1), free(s2);
        return RTP_ENOMEM;
    }
    for (size_t r = 0, at = 0; r + 1 < n; r++) {
        toff[r] = at;
        at += rfs_hi(k, r) - rfs_lo(n, k, r) + 1;
    }
#define T(i, j) t[toff[i] + (j) - rfs_lo(n, k, (i))]
    if (s < kf)
        s = kf;
    if (s > kf + 1.0)
        s = kf + 1.0;
    for (size_t i = 0; i < n; i++) {
        s1[i] = s - (kf - (double)i);
        s2[i] = (kf + (double)(n - i)) - s;
    }
    w0[1] = DBL_MAX; /* w row 0 */
    const double tiny = 4.9406564584124654e-324;
    for (size_t i = 2; i <= n; i++) {
        size_t r = i - 1, lo = rfs_lo(n, k, r), hi = rfs_hi(k, r);
        /* w row r from row r - 1 (w0): the next row reads this one at
         * lo .. hi and at hi + 1, which is past the row's end when it is
         * read (0 in the full table too) */
        w1[hi + 1] = 0.0;
        for (size_t j = lo > 1 ? lo : 1; j <= i && j <= hi; j++) {
            double tmp1 = w0[j] * s1[j - 1] / (double)i;
            double tmp2 = w0[j - 1] * s2[n - i + j - 1] / (double)i;
            w1[j] = tmp1 + tmp2;
            double tmp3 = w1[j] + tiny;
            int right = s2[n - i + j - 1] > s1[j - 1];
            size_t tr = r - 1;
            if (j - 1 >= rfs_lo(n, k, tr) && j - 1 <= rfs_hi(k, tr))
                T(tr, j - 1) = right ? tmp2 / tmp3 : 1.0 - tmp1 / tmp3;
        }
        double *swap = w0;
        w0 = w1;
        w1 = swap;
    }
    double sm = 0.0, pr = 1.0;
    size_t j = k + 1; /* 1-based column of the t table */
    for (size_t i = n - 1; i >= 1; i--) {
        double rt = rtp_rng_unit(rng), rs = rtp_rng_unit(rng);
        int e = rt <= T(i - 1, j - 1);
        double sx = rtp_gen_pow(rs, 1.0 / (double)i);
        sm += (1.0 - sx) * pr * s / (double)(i + 1);
        pr *= sx;
        x[n - i - 1] = sm + pr * (double)e;
        s -= (double)e;
        j -= (size_t)e;
    }
    x[n - 1] = sm + pr * s;
#undef T
    free(w0), free(w1), free(t), free(toff), free(s1), free(s2);
    /* Random order (Fisher-Yates), as the original's random permutation. */
    for (size_t i = n - 1; i >= 1; i--) {
        size_t pick = (size_t)rtp_rng_range(rng, 0, (int64_t)i);
        double tmp = x[i];
        x[i] = x[pick];
        x[pick] = tmp;
    }
    return RTP_OK;
}

rtp_status rtp_gen_utilizations(const rtp_gen_opts *o, rtp_rng *rng, double *util,
                                rtp_diag *diag)
{
    size_t n = o->n_tasks;
    double total = rtp_ratio_double(o->total_util), cap = rtp_ratio_double(o->max_task_util);
    if (o->algo == RTP_GEN_RANDFIXEDSUM) {
        size_t cells = 0;
        randfixedsum(n, total / cap, rng, util, &cells);
        if (cells > RFS_BAND_MAX)
            return rtp_diag_set(diag, RTP_ELIMIT, "",
                                "randfixedsum for %zu tasks at total utilization %.6g / cap "
                                "%.6g needs a table of %zu entries (about n x min(U / cap, n - "
                                "U / cap)), past its limit of %zu: use uunifast-discard", n,
                                total, cap, cells, RFS_BAND_MAX);
        if (randfixedsum(n, total / cap, rng, util, NULL) != RTP_OK)
            return rtp_diag_set(diag, RTP_ENOMEM, "", "out of memory");
        for (size_t i = 0; i < n; i++)
            util[i] *= cap;
        return RTP_OK;
    }
    for (uint32_t attempt = 0; attempt < o->max_attempts; attempt++) {
        uunifast(n, total, rng, util);
        size_t i = 0;
        while (i < n && util[i] <= cap)
            i++;
        if (i == n)
            return RTP_OK;
    }
    return rtp_diag_set(diag, RTP_ELIMIT, "",
                        "uunifast-discard rejected %u draws in a row (total utilization too "
                        "close to tasks x cap: use randfixedsum)", (unsigned)o->max_attempts);
}

/* --- periods, WCETs, deadlines --------------------------------------------- */

static rtp_ns draw_period(const rtp_gen_opts *o, rtp_rng *rng)
{
    if (o->n_period_set > 0)
        return o->period_set[rtp_rng_range(rng, 0, (int64_t)o->n_period_set - 1)];
    rtp_ns g = o->granularity_ns;
    rtp_ns lo = (o->period_min_ns + g - 1) / g, hi = o->period_max_ns / g;
    if (o->harmonic) {
        int top = 0;
        while (top < 62 && lo <= (hi >> (top + 1)))
            top++;
        return (lo << rtp_rng_range(rng, 0, top)) * g;
    }
    /* Log-uniform in [lo, hi + 1), floored to a whole multiple ([ESD10],
     * section 4). */
    double a = rtp_gen_log((double)lo), b = rtp_gen_log((double)hi + 1.0);
    double x = rtp_gen_exp(a + rtp_rng_unit(rng) * (b - a));
    rtp_ns k = x >= (double)hi ? hi : (rtp_ns)floor(x);
    if (k < lo)
        k = lo;
    return k * g;
}

static rtp_ns draw_deadline(const rtp_gen_opts *o, rtp_ns wcet, rtp_ns period, rtp_rng *rng)
{
    rtp_ns lo = wcet, hi = period;
    switch (o->deadlines) {
    case RTP_DL_CONSTRAINED: { /* [C + ceil(a (T - C)), T], a = num/den <= 1 */
        __int128 den = o->constrained_factor.den;
        lo = wcet + (rtp_ns)(((__int128)(period - wcet) * o->constrained_factor.num + den - 1) / den);
        break;
    }
    case RTP_DL_ARBITRARY: /* [C, floor(b T)] */
        if (rtp_muldiv_floor(period, o->arbitrary_factor.num, o->arbitrary_factor.den,
                             &hi) != RTP_OK)
            hi = period; /* unreachable: rtp_gen_check bounds b x max period */
        break;
    default:
        return period;
    }
    return rtp_rng_range(rng, lo, hi);
}

/* round(x) for 0 <= x, clamped to [1, cap] (cap >= 1). */
static rtp_ns round_clamp(double x, rtp_ns cap)
{
    if (x <= 1.0)
        return 1;
    if (x >= (double)cap)
        return cap;
    return (rtp_ns)floor(x + 0.5);
}

static rtp_status fill_tasks(const rtp_gen_opts *o, rtp_rng *rng, const double *util,
                             rtp_task *tasks, rtp_diag *diag)
{
    /* WCET = round((u_i + carried error) T_i) in [1, floor(cap T_i)]: the
     * carried error keeps |sum C/T - U| below 1/(2 T_n). When a cap or the
     * 1 ns floor stops a task from taking its share, a second pass hands the
     * rest to tasks that still have room; only when every task sits at its
     * cap (U = n x cap) can the total stay below U, by less than n / T_min. */
    size_t n = o->n_tasks;
    double carry = 0.0;
    for (int pass = 0; pass < 2; pass++) {
        for (size_t i = 0; i < n; i++) {
            rtp_task *t = &tasks[i];
            rtp_ns cap_wcet;
            if (rtp_muldiv_floor(t->period_ns, o->max_task_util.num, o->max_task_util.den,
                                 &cap_wcet) != RTP_OK)
                return RTP_ELIMIT;
            if (cap_wcet < 1)
                cap_wcet = 1;
            double period = (double)t->period_ns;
            if (pass == 0) {
                t->wcet_ns = round_clamp((util[i] + carry) * period, cap_wcet);
                carry += util[i] - (double)t->wcet_ns / period;
            } else {
                rtp_ns old = t->wcet_ns;
                t->wcet_ns = round_clamp((double)old + carry * period, cap_wcet);
                carry -= (double)(t->wcet_ns - old) / period;
            }
        }
    }
    /* Never above the request (exact check): the last tasks give back whole
     * ns until sum C/T <= U, at most 1/T_i each past the rounding. */
    for (size_t i = n; i-- > 0 && rtp_load_cmp(tasks, n, RTP_LOAD_UTIL, o->total_util) > 0;) {
        double excess = rtp_load_double(tasks, n, RTP_LOAD_UTIL) - rtp_ratio_double(o->total_util);
        rtp_ns give = (rtp_ns)ceil(excess * (double)tasks[i].period_ns);
        give = give < 1 ? 1 : give;
        tasks[i].wcet_ns = tasks[i].wcet_ns - give < 1 ? 1 : tasks[i].wcet_ns - give;
        if (rtp_load_cmp(tasks, n, RTP_LOAD_UTIL, o->total_util) > 0 && tasks[i].wcet_ns > 1)
            i++; /* still above: take more from the same task */
    }
    /* Still above: the 1 ns floor of short periods, which no rounding can
     * meet (the periods drawn give sum 1/T_i > U). A set of another
     * utilization than asked for is never handed back. */
    if (rtp_load_cmp(tasks, n, RTP_LOAD_UTIL, o->total_util) > 0) {
        char total[40];
        rtp_ratio_format(o->total_util, total, sizeof total);
        return rtp_diag_set(diag, RTP_EINPUT, "",
                            "impossible at whole-ns resolution: the periods drawn give %zu "
                            "tasks of 1 ns each a total utilization of %.6g, above %s; ask for "
                            "longer periods or fewer tasks",
                            n, rtp_load_double(tasks, n, RTP_LOAD_UTIL), total);
    }
    for (size_t i = 0; i < n; i++)
        tasks[i].deadline_ns = draw_deadline(o, tasks[i].wcet_ns, tasks[i].period_ns, rng);
    return RTP_OK;
}

/* The tasks' names T1..Tn, all in the set's name block (models/taskset.h):
 * one allocation per set. */
static rtp_status name_tasks(rtp_taskset *ts, rtp_diag *diag)
{
    size_t size = 0;
    for (size_t i = 1; i <= ts->n_tasks; i++)
        size += (size_t)snprintf(NULL, 0, "T%zu", i) + 1;
    if (!(ts->name_block = malloc(size ? size : 1)))
        return rtp_diag_set(diag, RTP_ENOMEM, "", "out of memory");
    ts->name_block_size = size;
    char *at = ts->name_block;
    for (size_t i = 0; i < ts->n_tasks; i++) {
        ts->tasks[i].name = at;
        at += snprintf(at, (size_t)(ts->name_block + size - at), "T%zu", i + 1) + 1;
    }
    return RTP_OK;
}

rtp_status rtp_gen_taskset(const rtp_gen_opts *o, uint64_t seed, uint64_t point,
                           uint64_t index, rtp_taskset *out, rtp_diag *diag)
{
    memset(out, 0, sizeof *out);
    rtp_status st = rtp_gen_check(o, diag);
    if (st != RTP_OK)
        return st;
    size_t n = o->n_tasks;
    rtp_taskset ts;
    memset(&ts, 0, sizeof ts);
    ts.time_unit_ns = 1;
    ts.n_tasks = n;
    ts.tasks = calloc(n, sizeof *ts.tasks);
    double *util = malloc(n * sizeof *util);
    if (!ts.tasks || !util) {
        st = rtp_diag_set(diag, RTP_ENOMEM, "", "out of memory");
        goto done;
    }
    if ((st = name_tasks(&ts, diag)) != RTP_OK)
        goto done;
    rtp_rng rng = rtp_rng_stream(seed, point, index);
    for (size_t i = 0; i < n; i++)
        ts.tasks[i].period_ns = draw_period(o, &rng);
    if ((st = rtp_gen_utilizations(o, &rng, util, diag)) != RTP_OK)
        goto done;
    if ((st = fill_tasks(o, &rng, util, ts.tasks, diag)) != RTP_OK) {
        if (st == RTP_ELIMIT)
            rtp_diag_set(diag, st, "", "a WCET overflowed");
        goto done;
    }
    if (o->n_resources > 0 && (st = rtp_gen_requests(o, seed, point, index, &ts, diag)) != RTP_OK)
        goto done;
    free(util);
    *out = ts;
    return RTP_OK;
done:
    free(util);
    rtp_taskset_free(&ts);
    return st;
}
