/* solver/global_work.h — internal to solver/global*.c (and
 * solver/sensitivity*.c): the interference sums of the global
 * response-time bounds and their fixed-point search, and BAK's beta.
 *
 * Discrete time: every release and execution time is a whole ns, so every
 * scheduling event is too, and the "+ 1" terms of the papers apply. Values
 * are __int128, so sums of n terms of valid task times (<= 2^62) never
 * overflow. Pure and thread-safe. */
#ifndef RTP_GLOBAL_WORK_H
#define RTP_GLOBAL_WORK_H

#include <gmp.h>
#include <string.h>

#include "models/arith.h"
#include "models/ratio.h"
#include "models/taskset.h"
#include "solver/global.h"
#include "solver/schedtest.h"

/* Which bound on the interference suffered by the analysed task k in a
 * window of length x (each term clamped to x - C_k + 1):
 * GW_FP_BC  [BC07] eq. (3)-(4): sum of W_i(x) with carry-in
 *           for every more urgent task (response bound R_i = bound[i]);
 * GW_FP_LC  [GSYY09] eq. (5)-(9): no carry-in except for
 *           the m - 1 tasks with the largest carry-in excess;
 * GW_EDF    [BC07] Sect. 5: min(W_i(x), J_i^k) for every
 *           other task, J_i^k the EDF interference bound with slack
 *           S_i = D_i - bound[i] [BCL]. */
typedef enum gw_kind { GW_FP_BC = 0, GW_FP_LC, GW_EDF } gw_kind;

typedef struct gw_term { /* one piece, linear over [x, x + run] */
    rtp_i128 value, run;
    int slope;
} gw_term;

typedef struct gw_ctx {
    const rtp_task *tasks;
    const size_t *interferers; /* task indices */
    size_t n_interferers;
    const rtp_ns *bound;       /* response bound of each task (by index) */
    const rtp_task *tk;        /* the analysed task */
    int m;
    gw_kind kind;
    gw_term *scratch;          /* n_interferers entries (GW_FP_LC: 3 n_interferers),
                                * never NULL */
    rtp_i128 *cap;             /* 2 n_interferers entries (GW_EDF: J_i^k, then
                                * the x from which W_i reaches it, filled by
                                * rtp_gw_fixed_point), else NULL */
    rtp_ns from;               /* where rtp_gw_fixed_point starts: 0 (C_k), or a
                                * value <= its least fixed point (the answer is
                                * the same: no x below that point passes) */
    int wide;                  /* 1: rtp_gw_fixed_point always in rtp_i128, never
                                * its int64_t twin (tests compare the two); -1:
                                * always int64_t, the caller has checked it
                                * with rtp_gw_narrow_all */
    const rtp_ns *pair;        /* GW_EDF: for each task index i, floor(D_k / T_i)
                                * at 2i and D_k mod T_i - D_i at 2i + 1 (what
                                * J_i^k needs besides bound[i]: the caller keeps
                                * them for all the searches of k), else NULL */
    rtp_ns last;               /* in [1, D_k]: rtp_gw_fixed_point gives up past
                                * it, as past D_k (global_fp.c's [GSYY09] search
                                * below [BC07]'s bound); 0 (and any value past
                                * D_k, which the search clamps) means D_k */
} gw_ctx;

/* The interference bound at x >= 1 (*value), the classic formula. (Its
 * right slope and run went with the search's linear-piece jump: reach()
 * in solver/global_bound_t.h jumps from the terms in scratch.) For
 * GW_FP_BC and GW_EDF, scratch[j] gets interferer j's term before the
 * clamp (a nondecreasing function of x); GW_FP_LC uses its
 * 3 N entries (solver/global_bound_t.h): scratch[N + j] gets interferer
 * j's carry-in piece before the clamp, scratch[j] its piece without
 * carry-in, except for the m - 1 largest positive excesses, whose entry
 * gets the carry-in piece (none with m = 1: solver/sensitivity_global.c's
 * da_pieces reads both pieces of every interferer that way). GW_EDF needs
 * ctx->cap filled in rtp_i128 (rtp_gw_fixed_point's 128-bit search does;
 * its int64_t twin, taken when ctx->wide is 0 and the values fit or -1,
 * writes int64_t
 * values into the same buffer, which this function would misread: no
 * caller of it builds a GW_EDF context today). */
void rtp_gw_interference(const gw_ctx *ctx, rtp_i128 x, rtp_i128 *value);

/* The same value alone, for GW_FP_BC and GW_FP_LC at x <= D_k in int64_t
 * when it fits (rtp_gw_fixed_point's check), else as above; scratch is
 * overwritten in either width, so nothing may read it afterwards (DA's
 * and DA-LC's test, rtp_gw_da_passes, runs hundreds of times per OPA
 * search). */
rtp_i128 rtp_gw_interference_sum(const gw_ctx *ctx, rtp_ns x);

/* The least x >= C_k with C_k + floor(interference(x) / m) <= x, the
 * response-time bound of the papers (the fixed point their iteration
 * x <- C_k + floor(interference(x) / m) reaches from C_k), or -1 when it
 * passes D_k (ctx->last when set); the search starts at max(C_k, ctx->from). Each step jumps to
 * the first point that the terms frozen at x allow (reach() in
 * solver/global_bound_t.h: never short of the classic iterate or of the
 * linear piece's end), so it never skips the least fixed point yet never
 * creeps one ns at a time. *steps counts steps; RTP_ELIMIT past
 * limits->max_iterations. */
rtp_status rtp_gw_fixed_point(const gw_ctx *ctx, uint64_t *steps,
                              const rtp_limits *limits, rtp_ns *bound,
                              rtp_diag *diag);

/* gw_ctx's pair data of task k against each of tasks[0..n-1] into pair[0..2n-1]
 * (global_edf.c; the tests fill theirs with it too). */
void rtp_gw_edf_pair(const rtp_task *tasks, size_t n, size_t k, rtp_ns *pair);

/* Whether every search over tasks[0..n-1] on m CPUs (any k, the others as
 * interferers, every bound at most max_bound) fits rtp_gw_fixed_point's
 * int64_t search: its per-search check once for them all (gw_ctx's wide =
 * -1), as global_edf.c's RTA runs some 80 searches per 20-task set. */
int rtp_gw_narrow_all(const rtp_task *tasks, size_t n, int m, rtp_ns max_bound);

/* BAK's beta_k(i) [BAK] (solver/global.h) into `beta`, with the wcets of
 * task i and task k given as the rationals ci and ck (their wcet_ns is not
 * read: solver/sensitivity_global.c evaluates it between integers); tmp is
 * scratch. beta_k(i) >= 0, linear in ci and in ck wherever the side of
 * lambda_k < U_i does not change, and continuous where it does. */
void rtp_gw_bak_beta(const rtp_task *ti, const mpq_t ci, const rtp_task *tk, const mpq_t ck,
                     mpq_t beta, mpq_t tmp);

/* BAK's condition for task k alone (sum_i min(1, beta_k(i)) <= m - (m - 1)
 * lambda_k), from integer enclosures of its terms: 1 when it holds, 0 when
 * it fails, -1 when only exact rationals can tell (rtp_global_bak then
 * decides in GMP). Every time of tasks[] valid (<= 2^62 ns) and every
 * D_i <= T_i (BAK's own precondition, gw_applicable's: with D_i > T_i the
 * term C_i (D_k + T_i - D_i) can be negative and the enclosure is wrong;
 * review rev12b). */
int rtp_gw_bak_task(const rtp_task *tasks, size_t n, int m, size_t k);

/* Global EDF on test->cpus >= 2 CPUs: the tests of `which` (RTP_GW_GFB |
 * ...) in the order gfb, bak, bcl, rta, the first acceptance naming the
 * verdict; rtp_global_edf runs them all (RTP_GW_ALL), solver/sensitivity
 * one at a time. */
enum { RTP_GW_GFB = 1, RTP_GW_BAK = 2, RTP_GW_BCL = 4, RTP_GW_RTA = 8, RTP_GW_ALL = 15 };
rtp_status rtp_gw_edf_chain(const rtp_test *test, const rtp_task *tasks, size_t n,
                           unsigned which, rtp_test_result *result, rtp_diag *diag);

/* rtp_global_edf_rta with its iteration from below started at warm[i]
 * (when above C_i) instead of C_i: the verdict and the bounds are the same
 * whenever every warm[i] is at most r*_i, the bound the iteration from
 * above settles at (global_edf.c). On acceptance warm[] gets the values the
 * iteration from below reached (each <= r*_i of this set, hence of any set
 * with the same tasks and no smaller wcet: r* is non-decreasing in every
 * C, solver/sensitivity.h). With warm the iteration from above also jumps
 * over runs of rounds that repeat a descent (global_edf.c, jump(): the
 * same verdict, fewer rounds). The iteration from above starts at
 * above[i] instead of D_i when above is given, each in [r*_i, D_i] (the
 * verdict is the same: global_edf.c, the comment of jump()); on rejection
 * above[] gets the state it reached (each >= r*_i of this set, hence of any
 * set with the same tasks and no larger wcet: the sensitivity search only
 * passes above[] to tries below the wcet that produced it). warm and above may be NULL
 * (rtp_global_edf_rta). With warm, a set the iteration from below rejects
 * is rejected at once, so response_time (when not NULL) is meaningful on
 * acceptance only: then it holds the bounds of the round that accepted
 * (each >= r*_i). *slowest (when not NULL) gets, on acceptance, the least
 * fall of the sum of the bounds over one round from above, among the
 * rounds other than the first and the one that accepted (-1: none, and
 * on rejection): a measure only, no verdict depends on it. Near a wcet at
 * which the iteration from above gets stuck (a fixed point that appears
 * there), the rounds crawl past where it will be, and that least fall
 * shrinks towards 0 roughly in proportion to the distance (measured on
 * bench_analysis's families; solver/sensitivity_global.c guesses with it). */
rtp_status rtp_gw_edf_rta_from(const rtp_task *tasks, size_t n, int m,
                               const rtp_limits *limits, rtp_ns *warm, rtp_ns *above,
                               rtp_ns *slowest, rtp_ns *response_time,
                               rtp_global_verdict *verdict, rtp_diag *diag);

/* The gedf RTA's iteration from below alone, from low[] (each a lower bound
 * of r*_i, the end of the iteration from above: every bound stays one,
 * global_edf.c) until no search raises a bound: *outcome = 0 when some
 * search has no value, which proves that the RTA rejects the set; 1 when
 * every search has one (low[] then holds their values, still lower bounds
 * of r*: it proves nothing about the verdict, the iteration from above can
 * still reject); -1 when the steps passed limits->max_iterations first
 * (undecided: no error). low[] is raised to at least the wcets. */
rtp_status rtp_gw_edf_below(const rtp_task *tasks, size_t n, int m, const rtp_limits *limits,
                            int max_rounds, rtp_ns *low, int *outcome, rtp_diag *diag);

/* Where rtp_gw_fp_rta_from's searches start and in which width they run
 * (solver/sensitivity_global.c's runs, which see the same tasks again and
 * again). start[i]: a lower bound of task i's least fixed point (the
 * smaller of [BC07]'s and [GSYY09]'s), rtp_gw_fixed_point's from;
 * start_bc[i] (NULL: start[i]) one of [BC07]'s alone, which may lie above
 * the smaller one (past D_i: [BC07]'s is known to be); wide: gw_ctx's for
 * every search (-1 after rtp_gw_narrow_all said yes for them all). */
typedef struct gw_fp_starts {
    const rtp_ns *start, *start_bc;
    int wide;
} gw_fp_starts;

/* Global FP response-time bounds ([BC07]; with limited_carry_in also
 * [GSYY09]'s, the smaller of the two per task) of the tasks at positions
 * from..n-1 of order[] (task indices, most urgent first), given the bounds
 * r[] of the more urgent ones; the searches as `starts` says (NULL: from
 * C_k, width checked per search). Writes r[] of those tasks (-1: none, and
 * none for every later one), bc[] when not NULL ([BC07]'s bound alone, -1:
 * none or not searched) and *all_fit (every one has a bound).
 * rtp_global_fp_rta runs it from 0; solver/sensitivity_global.c from the
 * task whose wcet it raises (the more urgent tasks' bounds do not depend
 * on it). */
rtp_status rtp_gw_fp_rta_from(const rtp_task *tasks, size_t n, int m, const size_t *order,
                              size_t from, int limited_carry_in, const gw_fp_starts *starts,
                              const rtp_limits *limits, rtp_ns *r, rtp_ns *bc, int *all_fit,
                              rtp_diag *diag);

/* One step of rtp_gw_fp_rta_from: the bound of the task at position p of
 * order[] given the bounds r[] of the more urgent ones (*bound, -1: none;
 * [BC07]'s alone into *bc_bound when not NULL), its searches as `starts`
 * says; *steps counts against limits. solver/sensitivity_global.c also
 * calls it with lower bounds of the more urgent tasks' bounds, for a lower
 * bound of the task's (every least fixed point is non-decreasing in the
 * bounds it uses). scratch: 3 p entries. */
rtp_status rtp_gw_fp_bound(const rtp_task *tasks, const size_t *order, size_t p, int m,
                           int limited_carry_in, const gw_fp_starts *starts, const rtp_ns *r,
                           gw_term *scratch, uint64_t *steps, const rtp_limits *limits,
                           rtp_ns *bound, rtp_ns *bc_bound, rtp_diag *diag);

/* DA (lc = 0) or DA-LC (lc = 1) of task k against the tasks hp[0..n_hp-1]
 * (solver/global.h, rtp_global_fp_da): the interference at L = D_k with
 * R_i = deadlines[i], strictly below m (D_k - C_k + 1); 0 when C_k > D_k.
 * wide: gw_ctx's (-1 only when rtp_gw_narrow_all admits the tasks with
 * the largest deadline as max_bound; 0: checked per call). scratch: 3 n_hp
 * entries. global_fp.c's OPA and solver/sensitivity_global.c (the same test
 * under a fixed order). */
int rtp_gw_da_passes(const rtp_task *tasks, const size_t *hp, size_t n_hp, int m, size_t k,
                     int lc, int wide, gw_term *scratch, const rtp_ns *deadlines);

/* rtp_global_fp_opa, with the order hint[] (task indices, most urgent first)
 * that an earlier run found for the same tasks with task `changed`'s wcet
 * no larger than now and every other the same (hint NULL: none; changed
 * is then not read): the same *found and priority[], with fewer DA tests
 * (global_fp.c says why the skipped ones cannot change them).
 * solver/sensitivity_global.c's OPA search. */
rtp_status rtp_gw_fp_opa_hint(const rtp_task *tasks, size_t n, int m, const size_t *hint,
                              size_t changed, int *priority, int *found, rtp_diag *diag);

/* --priority given on m >= 2 CPUs: the dense ranks (1..) of the given
 * priorities into priority[]; *distinct = no two tasks share one (the
 * global tests need a strict order: rtp_global_fp calls a set with ties not
 * applicable). RTP_EINPUT naming the first task without a priority
 * (global.c; solver/sensitivity.c's gfp wcet_max under the same order). */
rtp_status rtp_gw_given_ranks(const rtp_task *tasks, size_t n, int *priority, int *distinct,
                              rtp_diag *diag);

/* [GSYY09]'s "the m - 1 largest carry-in excesses" (global_bound_t.h's
 * interference sum and sensitivity_global.c's da_decide): moves the first
 * min(keep, n) of items[0..n-1] (each `size` bytes) in the order `first`
 * (first(a, b) nonzero: a goes strictly before b) to the front, in that
 * order, by selection: O(n keep) for the small keep = m - 1, where a full
 * sort was most of OPA's and the RTA-LC's time. Among ties the item
 * nearest the front at each pick wins (the swaps move the others), so a
 * caller's results depend only on `first` and the input order. Always
 * inlined: with each caller's constant size and comparator it is the plain
 * loop (callgrind: no more instructions than the two loops it replaced). */
static inline __attribute__((always_inline)) void
gw_select_first(void *items, size_t n, size_t keep, size_t size,
                int (*first)(const void *a, const void *b))
{
    unsigned char *at = items;
    for (size_t j = 0; j < n && j < keep; j++) {
        size_t top = j;
        for (size_t l = j + 1; l < n; l++)
            if (first(at + l * size, at + top * size))
                top = l;
        unsigned char tmp[64]; /* both callers' items fit (GW_TERM: 48 bytes) */
        if (top == j)
            continue;
        if (size <= sizeof tmp) { /* a constant: whole-item moves */
            memcpy(tmp, at + j * size, size);
            memcpy(at + j * size, at + top * size, size);
            memcpy(at + top * size, tmp, size);
        } else {
            for (size_t b = 0; b < size; b++) {
                unsigned char c = at[j * size + b];
                at[j * size + b] = at[top * size + b];
                at[top * size + b] = c;
            }
        }
    }
}

/* RTP_EINPUT unless the cluster has a CPU (m >= 1). */
static inline rtp_status gw_check_cpus(int m, rtp_diag *diag)
{
    return m >= 1 ? RTP_OK
                  : rtp_diag_set(diag, RTP_EINPUT, "", "a cluster needs at least one CPU");
}

/* The start of both response-time analyses (global_edf.c, global_fp.c):
 * gw_check_cpus, then every bound "none" (-1) until one is proved. */
static inline rtp_status gw_begin(int m, size_t n, rtp_ns *response_time, rtp_diag *diag)
{
    rtp_status st = gw_check_cpus(m, diag);
    for (size_t i = 0; st == RTP_OK && response_time && i < n; i++)
        response_time[i] = -1;
    return st;
}

/* order[p] = the task of priority n - p (most urgent first) from
 * priority[] (1..n, distinct); RTP_EINPUT naming `what` otherwise. */
static inline rtp_status gw_priority_order(const int *priority, size_t n, size_t *order,
                                           const char *what, rtp_diag *diag)
{
    for (size_t i = 0; i < n; i++)
        order[i] = (size_t)-1;
    for (size_t i = 0; i < n; i++) {
        if (priority[i] < 1 || (size_t)priority[i] > n || order[n - priority[i]] != (size_t)-1)
            return rtp_diag_set(diag, RTP_EINPUT, "", "%s needs distinct priorities 1..n",
                                what);
        order[n - priority[i]] = i;
    }
    return RTP_OK;
}

/* The shared precondition: constrained deadlines (D <= T for every task)
 * and no release jitter or blocking (these tests do not model them; the
 * tasks are effective ones, so J' includes the platform's release latency). */
static inline int gw_applicable(const rtp_task *tasks, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (tasks[i].deadline_ns > tasks[i].period_ns || tasks[i].jitter_ns != 0 ||
            tasks[i].blocking_ns != 0)
            return 0;
    return 1;
}

/* Necessary conditions: every C <= D and total utilization <= m (exact).
 * A set failing them is unschedulable on m CPUs under any scheduler. */
static inline int gw_necessary(const rtp_task *tasks, size_t n, int m)
{
    for (size_t i = 0; i < n; i++)
        if (tasks[i].wcet_ns > tasks[i].deadline_ns)
            return 0;
    rtp_ratio cap = {m, 1};
    return rtp_load_cmp(tasks, n, RTP_LOAD_UTIL, cap) <= 0;
}

#endif
