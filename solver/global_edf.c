/* solver/global_edf.c — the sufficient global EDF tests of solver/global.h:
 * GFB, BAK, BCL and the response-time bound of [BC07] with slack
 * iteration. See the header for the conditions and their sources. */
#include "solver/global.h"
#include "solver/global_work.h"

#include <gmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

const char *rtp_global_verdict_name(rtp_global_verdict v)
{
    switch (v) {
    case RTP_GLOBAL_ACCEPT: return "accept";
    case RTP_GLOBAL_REJECT: return "reject";
    default: return "n/a";
    }
}

/* Applicability and the necessary conditions, shared by the four tests:
 * returns 1 and sets *verdict when that already decides. */
static int screen(const rtp_task *tasks, size_t n, int m, rtp_global_verdict *verdict)
{
    if (!gw_applicable(tasks, n)) {
        *verdict = RTP_GLOBAL_NA;
        return 1;
    }
    if (!gw_necessary(tasks, n, m)) {
        *verdict = RTP_GLOBAL_REJECT;
        return 1;
    }
    return 0;
}

static void mpq_set_ns(mpq_t q, rtp_ns num, rtp_ns den)
{
    mpz_set_si(mpq_numref(q), num);
    mpz_set_si(mpq_denref(q), den);
    mpq_canonicalize(q);
}

rtp_status rtp_global_gfb(const rtp_task *tasks, size_t n, int m,
                          rtp_global_verdict *verdict)
{
    if (m < 1)
        return RTP_EINPUT;
    if (screen(tasks, n, m, verdict))
        return RTP_OK;
    /* sum C_i/D_i <= m - (m - 1) lambda_max, in exact rationals. */
    size_t kmax = 0;
    for (size_t i = 1; i < n; i++) /* C_i/D_i > C_k/D_k  <=>  C_i D_k > C_k D_i */
        if ((rtp_i128)tasks[i].wcet_ns * tasks[kmax].deadline_ns >
            (rtp_i128)tasks[kmax].wcet_ns * tasks[i].deadline_ns)
            kmax = i;
    /* sum_i C_i/D_i + (m - 1) C_k/D_k <= m: the exact load comparison of
     * models/ratio.h (a 128-bit enclosure; GMP only when it cannot decide),
     * lambda_max's m - 1 copies as one extra task of wcet (m - 1) C_k. Only
     * when that wcet overflows (C_k > 2^50 ns with 4096 CPUs) is the sum
     * built in GMP here. */
    rtp_task extra;
    if (n > 0 && !__builtin_mul_overflow((rtp_ns)(m - 1), tasks[kmax].wcet_ns, &extra.wcet_ns)) {
        extra.deadline_ns = tasks[kmax].deadline_ns;
        extra.period_ns = tasks[kmax].period_ns;
        rtp_ratio cap = {m, 1};
        *verdict = rtp_load_cmp_plus(tasks, n, &extra, RTP_LOAD_DENSITY, cap) <= 0
                       ? RTP_GLOBAL_ACCEPT : RTP_GLOBAL_REJECT;
        return RTP_OK;
    }
    mpq_t sum, term, bound;
    mpq_inits(sum, term, bound, NULL);
    for (size_t i = 0; i < n; i++) {
        mpq_set_ns(term, tasks[i].wcet_ns, tasks[i].deadline_ns);
        mpq_add(sum, sum, term);
    }
    if (n > 0) {
        mpq_set_ns(term, tasks[kmax].wcet_ns, tasks[kmax].deadline_ns);
        mpq_set_si(bound, m - 1, 1);
        mpq_mul(term, term, bound);
    }
    mpq_set_si(bound, m, 1);
    mpq_sub(bound, bound, term);
    *verdict = mpq_cmp(sum, bound) <= 0 ? RTP_GLOBAL_ACCEPT : RTP_GLOBAL_REJECT;
    mpq_clears(sum, term, bound, NULL);
    return RTP_OK;
}

/* q = a * b / (c * d), all valid task times (so the products are exact in
 * GMP, never in int64). */
static void mpq_set_prod(mpq_t q, rtp_ns a, rtp_ns b, rtp_ns c, rtp_ns d)
{
    mpz_set_si(mpq_numref(q), a);
    mpz_mul_si(mpq_numref(q), mpq_numref(q), b);
    mpz_set_si(mpq_denref(q), c);
    mpz_mul_si(mpq_denref(q), mpq_denref(q), d);
    mpq_canonicalize(q);
}

void rtp_gw_bak_beta(const rtp_task *ti, const mpq_t ci, const rtp_task *tk, const mpq_t ck,
                     mpq_t beta, mpq_t tmp)
{
    /* U_i (1 + (T_i - D_i)/D_k) = C_i (D_k + T_i - D_i) / (T_i D_k);
     * D_k + T_i - D_i <= 2^63 - 1 since D_i >= 1 and both are <= 2^62. */
    mpq_set_prod(tmp, 1, tk->deadline_ns + (ti->period_ns - ti->deadline_ns), ti->period_ns,
                 tk->deadline_ns);
    mpq_mul(beta, ci, tmp);
    /* lambda_k < U_i  <=>  C_k T_i < C_i D_k: add (C_i - C_k T_i / D_k) / D_k */
    mpq_set_prod(tmp, ti->period_ns, 1, tk->deadline_ns, 1);
    mpq_mul(tmp, tmp, ck);
    if (mpq_cmp(tmp, ci) < 0) {
        mpq_sub(tmp, ci, tmp);
        mpz_mul_si(mpq_denref(tmp), mpq_denref(tmp), tk->deadline_ns);
        mpq_canonicalize(tmp);
        mpq_add(beta, beta, tmp);
    }
}

/* floor(a / b) for 0 <= a < 2^126, 1 <= b: 64-bit division when both fit. */
static rtp_i128 quot128(rtp_i128 a, rtp_i128 b)
{
    if (a < ((rtp_i128)1 << 64) && b < ((rtp_i128)1 << 64))
        return (rtp_i128)((uint64_t)a / (uint64_t)b);
    return a / b;
}

/* BAK's condition for task k, both sides multiplied by D_k (integers and
 * rationals over T_i and D_k):
 *   sum_i min(D_k, C_i (D_k + T_i - D_i) / T_i + [C_i D_k - C_k T_i]_0 / D_k)
 *   <= m D_k - (m - 1) C_k.
 * Each term lies in [lo, hi], lo = min(D_k, the floors' sum), hi = lo's
 * floors plus one for each inexact quotient, clamped likewise: returns 1
 * (holds) when sum hi <= the bound, 0 when sum lo exceeds it, -1 when the
 * enclosure cannot tell (an exact comparison in GMP then decides). Products
 * of two valid times stay below 2^125 and sums of n terms of at most D_k
 * below 2^127 for any n a size_t can count in memory. */
static int bak_enclosed(const rtp_task *tasks, size_t n, int m, const rtp_task *tk)
{
    rtp_i128 dk = tk->deadline_ns, bound = (rtp_i128)m * dk - (rtp_i128)(m - 1) * tk->wcet_ns;
    rtp_i128 lo = 0, hi = 0;
    for (size_t i = 0; i < n && lo <= bound; i++) {
        const rtp_task *ti = &tasks[i];
        rtp_i128 a = (rtp_i128)ti->wcet_ns * (dk + (ti->period_ns - ti->deadline_ns));
        rtp_i128 b = (rtp_i128)ti->wcet_ns * dk - (rtp_i128)tk->wcet_ns * ti->period_ns;
        rtp_i128 qa = quot128(a, ti->period_ns), q = qa, up = qa * ti->period_ns != a;
        if (b > 0) {
            rtp_i128 qb = quot128(b, dk);
            q += qb;
            up += qb * dk != b;
        }
        lo += q < dk ? q : dk;
        hi += q + up < dk ? q + up : dk;
    }
    return hi <= bound ? 1 : lo > bound ? 0 : -1;
}

int rtp_gw_bak_task(const rtp_task *tasks, size_t n, int m, size_t k)
{
    return bak_enclosed(tasks, n, m, &tasks[k]);
}

/* BAK's condition for task k in exact GMP rationals (mpq_t scratch from the
 * caller: one, sum, beta, tmp, bound, ci, ck). */
static int bak_exact(const rtp_task *tasks, size_t n, int m, const rtp_task *tk, mpq_t one,
                     mpq_t sum, mpq_t beta, mpq_t tmp, mpq_t bound, mpq_t ci, mpq_t ck)
{
    /* bound = m (1 - lambda_k) + lambda_k = m - (m - 1) C_k / D_k */
    mpq_set_prod(bound, m - 1, tk->wcet_ns, 1, tk->deadline_ns);
    mpq_set_si(tmp, m, 1);
    mpq_sub(bound, tmp, bound);
    mpq_set_ui(sum, 0, 1);
    mpq_set_si(ck, tk->wcet_ns, 1);
    for (size_t i = 0; i < n && mpq_cmp(sum, bound) <= 0; i++) {
        mpq_set_si(ci, tasks[i].wcet_ns, 1);
        rtp_gw_bak_beta(&tasks[i], ci, tk, ck, beta, tmp);
        mpq_add(sum, sum, mpq_cmp(beta, one) < 0 ? beta : one);
    }
    return mpq_cmp(sum, bound) <= 0;
}

rtp_status rtp_global_bak(const rtp_task *tasks, size_t n, int m,
                          rtp_global_verdict *verdict)
{
    if (m < 1)
        return RTP_EINPUT;
    if (screen(tasks, n, m, verdict))
        return RTP_OK;
    int gmp = 0, holds = 1;
    mpq_t one, sum, beta, tmp, bound, ci, ck;
    for (size_t k = 0; k < n && holds; k++) {
        holds = bak_enclosed(tasks, n, m, &tasks[k]);
        if (holds >= 0)
            continue;
        if (!gmp) {
            mpq_inits(one, sum, beta, tmp, bound, ci, ck, NULL);
            mpq_set_ui(one, 1, 1);
            gmp = 1;
        }
        holds = bak_exact(tasks, n, m, &tasks[k], one, sum, beta, tmp, bound, ci, ck);
    }
    if (gmp)
        mpq_clears(one, sum, beta, tmp, bound, ci, ck, NULL);
    *verdict = holds ? RTP_GLOBAL_ACCEPT : RTP_GLOBAL_REJECT;
    return RTP_OK;
}

rtp_status rtp_global_bcl(const rtp_task *tasks, size_t n, int m,
                          rtp_global_verdict *verdict)
{
    if (m < 1)
        return RTP_EINPUT;
    if (screen(tasks, n, m, verdict))
        return RTP_OK;
    *verdict = RTP_GLOBAL_ACCEPT;
    for (size_t k = 0; k < n; k++) {
        const rtp_task *tk = &tasks[k];
        /* beta_i and 1 - lambda_k multiplied by D_k: W_i and D_k - C_k. */
        rtp_i128 room = tk->deadline_ns - tk->wcet_ns, sum = 0;
        int small_beta = 0;
        for (size_t i = 0; i < n; i++) {
            if (i == k)
                continue;
            const rtp_task *ti = &tasks[i];
            rtp_i128 jobs = ti->deadline_ns > tk->deadline_ns
                                ? 0 : (tk->deadline_ns - ti->deadline_ns) / ti->period_ns + 1;
            rtp_i128 rest = tk->deadline_ns - jobs * ti->period_ns;
            rtp_i128 w = jobs * ti->wcet_ns +
                         (rest <= 0 ? 0 : rest < ti->wcet_ns ? rest : ti->wcet_ns);
            sum += w < room ? w : room;
            small_beta |= (w > 0 && w <= room);
        }
        rtp_i128 cap = (rtp_i128)m * room;
        if (!(sum < cap || (sum == cap && small_beta))) {
            *verdict = RTP_GLOBAL_REJECT;
            break;
        }
    }
    return RTP_OK;
}

void rtp_gw_edf_pair(const rtp_task *tasks, size_t n, size_t k, rtp_ns *pair)
{
    rtp_ns dk = tasks[k].deadline_ns;
    for (size_t i = 0; i < n; i++) {
        rtp_ns jobs = dk / tasks[i].period_ns;
        pair[2 * i] = jobs;
        pair[2 * i + 1] = dk - jobs * tasks[i].period_ns - tasks[i].deadline_ns;
    }
}

/* gw_ctx's pair data of the tasks of one RTA call, cached: task k's row in
 * slot k mod slots, filled when the slot holds another task's (a row is n
 * divisions; an RTA call makes some 80 searches of 20 tasks). Up to
 * GW_PAIR_ROWS tasks every task has its own row, filled once. Past that
 * one row, refilled at every search: shared slots would be overwritten
 * before their task's next search anyway (a round visits every task), and
 * 256 rows of 2n cost 87 MB at 20,000 tasks (review rev8b), against 2n. */
enum { GW_PAIR_ROWS = 256 };

typedef struct gw_pairs {
    rtp_ns *table; /* slots rows of 2n */
    size_t *holds; /* the task in each slot, SIZE_MAX: none */
    size_t slots;  /* n up to GW_PAIR_ROWS, else 1 */
} gw_pairs;

/* What every search() of one run shares: its scratch (the others, their
 * terms, the caps) and the pair table. */
typedef struct gw_search_mem {
    size_t *others;
    gw_term *scratch;
    rtp_i128 *cap;
    gw_pairs pairs;
} gw_search_mem;

/* 0, or -1 when out of memory (search_mem_free still applies). */
static int search_mem_init(gw_search_mem *w, size_t n)
{
    size_t cells = n ? n : 1;
    w->others = malloc(cells * sizeof *w->others);
    w->scratch = malloc(cells * sizeof *w->scratch);
    w->cap = malloc(2 * cells * sizeof *w->cap);
    w->pairs.slots = n <= GW_PAIR_ROWS ? cells : 1;
    w->pairs.table = malloc(w->pairs.slots * 2 * cells * sizeof *w->pairs.table);
    w->pairs.holds = malloc(w->pairs.slots * sizeof *w->pairs.holds);
    if (!w->others || !w->scratch || !w->cap || !w->pairs.table || !w->pairs.holds)
        return -1;
    for (size_t s = 0; s < w->pairs.slots; s++)
        w->pairs.holds[s] = SIZE_MAX;
    return 0;
}

static void search_mem_free(gw_search_mem *w)
{
    free(w->others);
    free(w->scratch);
    free(w->cap);
    free(w->pairs.table);
    free(w->pairs.holds);
}

static const rtp_ns *pair_row(const rtp_task *tasks, size_t n, size_t k, gw_pairs *p)
{
    size_t slot = k % p->slots;
    rtp_ns *row = p->table + 2 * n * slot;
    if (p->holds[slot] != k) {
        rtp_gw_edf_pair(tasks, n, k, row);
        p->holds[slot] = k;
    }
    return row;
}

/* Task k's bound (rtp_gw_fixed_point, GW_EDF) with the others' response
 * bounds r[], its search starting at `from`, in the run's memory w; wide
 * as gw_ctx's. */
static rtp_status search(const rtp_task *tasks, size_t n, int m, size_t k, const rtp_ns *r,
                         rtp_ns from, gw_search_mem *w, int wide, uint64_t *steps,
                         const rtp_limits *limits, rtp_ns *bound, rtp_diag *diag)
{
    size_t n_others = 0;
    for (size_t i = 0; i < n; i++)
        if (i != k)
            w->others[n_others++] = i;
    gw_ctx ctx = {tasks, w->others, n_others, r, &tasks[k], m, GW_EDF, w->scratch, w->cap,
                  from, wide, pair_row(tasks, n, k, &w->pairs), 0};
    return rtp_gw_fixed_point(&ctx, steps, limits, bound, diag);
}

/* ------------------------------------- jumps of the slack iteration
 *
 * Near the boundary of acceptance the iteration from above can descend for
 * thousands of rounds by the same few ns per round (bench_analysis's
 * 20-task families, 2 CPUs: one run of 73,231 rounds, 5.6 million steps,
 * every round lowering the same 13 bounds by 66, 33, 132, 8 or 9, ... ns):
 * the bounds feed each other around a cycle whose slope is 1. jump()
 * proves that the rounds would go on descending at least as far as the
 * last L rounds did (L <= GW_WINDOW, try_jump()), again and again, S
 * times, and the iteration continues from there.
 *
 * Why that is exact. A state r is post-fixed when no search improves it
 * (every fp_k(r) >= r_k, or none). r*, the iteration's end (comment of
 * rtp_gw_edf_rta_from below), is one, and it is the greatest below D: the
 * iteration from any state z >= p, p post-fixed, stays >= p (min(z_k,
 * fp_k(z)) >= min(p_k, fp_k(p)) = p_k), so it ends above every post-fixed
 * p <= D; and from any state z with r* <= z <= D it ends at a post-fixed
 * state, hence at r*. So a jump to any such z changes neither the end nor
 * the verdict (accept iff every fp_k(r*) is a value: a round that accepts
 * at a state >= r* implies it, fp being monotone), only the bounds of the
 * round that accepts (each still >= r*) and the work. Let Psi_pi be one
 * round in the order pi (each task in turn re-bounded with the latest r,
 * r_k = min(r_k, b_k)): for every order Psi_pi is monotone and Psi_pi(p) =
 * p for a post-fixed p. Given states z_0 >= z_1 >= ... >= z_L and orders
 * pi_0 .. pi_(L-1) with Psi_(pi_i)(z_i) <= z_(i+1) for each i, p <= z_0
 * gives p = Psi_(pi_i)(p) <= Psi_(pi_i)(z_i) <= z_(i+1), by induction p <=
 * z_L. Round i of the window is repeated in every period with its own
 * order pi_i (the one it ran in: index order, or the verdict-only run's
 * unbound-first order, rtp_gw_edf_rta_from). The path: y(0) = the state
 * L rounds ago, delta = how far those rounds lowered it
 * (integers >= 0), y(s) = y(0) - s delta, each period [y(s), y(s + 1)]
 * cut at y(s) minus the partial sums of those rounds' decrements d_i. If
 * the certificate Psi_(pi_i)(z_i) <= z_(i+1) holds along every period for s in
 * [0, S), then r* <= y(0) gives r* <= y(S), a state to jump to.
 * Psi_pi(z) <= z' (one round, decrement d = z - z') holds when for every
 * task j with d_j > 0, h_j(x) < 0 at x = z'_j >= C_j with the others'
 * bounds V_l = z'_l (l before j in pi) and z_l (l after j): by induction
 * over j in pi Psi_pi(z)_l <= V_l for l before j, so the round's fp_j <= x
 * (fp_j is the least point >= C_j with h < 0, and monotone in the others'
 * bounds); the tasks with d_j = 0 have Psi_pi(z)_j <= z_j anyway. At s = 0 this is what the
 * last L rounds did (fp_j = x where j improved), so only carrying it
 * along the path has to be proved:
 * h_j(x) = sum_l min(W_l(x + V_l - C_l), J_l^j(V_l), x - C_j + 1) - m (x -
 * C_j + 1), and along s each argument falls by a fixed integer per period
 * (delta_j + delta_l, delta_l, delta_j) and each of the three functions is
 * piecewise linear (slopes 0 and 1), so on the run where the component
 * that is the minimum at s0 stays on one linear piece, that component is
 * an affine upper bound of the term (a minimum is at most each of its
 * parts), and their sum minus the line m (x - C_j + 1) an affine upper
 * bound G_j of h_j, exact at s0. Where G_j <= -1 at both ends of such a
 * run, h_j < 0 all along it. The runs are walked from s = 0, each from an
 * exact evaluation, until a G_j would reach 0 (the proof stops there) or y
 * would pass the lower bounds low[] (r* >= low: no state below is ever
 * needed). test_global.c checks the verdicts against the plain iteration. */

/* A piece of a nondecreasing piecewise-linear function of an argument
 * that falls by `fall` per round: its value now, its fall per round, and
 * for how many more rounds that stays exact. */
typedef struct gw_piece {
    rtp_i128 value, rate, run;
} gw_piece;

static const rtp_i128 gw_forever = (rtp_i128)1 << 100;

static gw_piece piece_of(rtp_i128 value, int slope, rtp_i128 room, rtp_i128 fall)
{
    gw_piece p = {value, slope ? fall : 0, gw_forever};
    if (fall > 0 && room < gw_forever)
        p.run = room / fall;
    return p;
}

/* floor(u / T) C + min(C, u mod T) (u >= 1) as u falls: slope 1 on
 * [qT, qT + C], flat on [qT + C, (q + 1) T]. */
static gw_piece stair_down(rtp_i128 u, const rtp_task *ti, rtp_i128 fall)
{
    rtp_i128 t = ti->period_ns, c = ti->wcet_ns, q = u / t, rem = u - q * t;
    rtp_i128 value = q * c + (rem < c ? rem : c);
    if (c >= t) /* the line u (c == t: C <= D <= T, so never c > t) */
        return piece_of(value, 1, u, fall);
    if (rem == 0) /* the flat part below */
        return piece_of(value, 0, u - (q * t - (t - c)), fall);
    if (rem <= c)
        return piece_of(value, 1, rem, fall);
    return piece_of(value, 0, rem - c, fall);
}

/* J_l^j = floor(D_j / T_l) C_l + min(C_l, [v]_0), v = D_j mod T_l - D_l +
 * V_l, as V_l falls. */
static gw_piece cap_down(const rtp_task *tl, const rtp_task *tj, rtp_i128 bound_l,
                         rtp_i128 fall)
{
    rtp_i128 c = tl->wcet_ns, jobs = tj->deadline_ns / tl->period_ns;
    rtp_i128 v = tj->deadline_ns - jobs * tl->period_ns - (tl->deadline_ns - bound_l);
    if (v <= 0)
        return piece_of(jobs * c, 0, gw_forever, 0);
    if (v > c)
        return piece_of(jobs * c + c, 0, v - c, fall);
    return piece_of(jobs * c + v, 1, v, fall);
}

/* Task j's check in one sub-round of the jump (the comment above; its
 * terms are global_bound_t.h's GW_EDF ones, which must stay the same): the
 * sub-round starts at base - s delta and lowers j by d_j (d_j > 0), the
 * tasks before j in its order (pos[l] < pos[j]) by their d_l. The largest
 * e >= 0 such that G_j <= -1 from s = s0 to s0 + e (G_j affine there), or
 * -1 when G_j(s0) > -1. */
static rtp_i128 cert_task(const rtp_task *tasks, size_t n, int m, size_t j, const rtp_ns *base,
                          const rtp_ns *d, const size_t *pos, const rtp_ns *delta, rtp_i128 s0)
{
    const rtp_task *tj = &tasks[j];
    rtp_i128 x = base[j] - s0 * delta[j] - d[j], clamp = x - tj->wcet_ns + 1;
    rtp_i128 g = -(rtp_i128)m * clamp, slope = (rtp_i128)m * delta[j], run = gw_forever;
    for (size_t l = 0; l < n; l++) {
        if (l == j)
            continue;
        const rtp_task *tl = &tasks[l];
        rtp_i128 v = base[l] - s0 * delta[l] - (pos[l] < pos[j] ? d[l] : 0);
        gw_piece w = stair_down(x + v - tl->wcet_ns, tl, delta[j] + delta[l]);
        gw_piece c = cap_down(tl, tj, v, delta[l]);
        gw_piece k = {clamp, delta[j], gw_forever};
        gw_piece best = w; /* the minimum, falling fastest among ties */
        if (c.value < best.value || (c.value == best.value && c.rate > best.rate))
            best = c;
        if (k.value < best.value || (k.value == best.value && k.rate > best.rate))
            best = k;
        g += best.value;
        slope -= best.rate;
        run = best.run < run ? best.run : run;
    }
    if (g > -1)
        return -1;
    if (slope > 0 && (-1 - g) / slope < run)
        run = (-1 - g) / slope;
    return run;
}

/* The jumps' state: the states at the start of the last GW_WINDOW + 1
 * rounds and each task's position in those rounds' orders (rings, round
 * t's at t mod (GW_WINDOW + 1)), each of the last GW_WINDOW rounds'
 * decrement, the decrement of all of them, and the first round a jump may
 * be tried. */
enum { GW_WINDOW = 8 };

typedef struct gw_jumps {
    rtp_ns *ring, *d, *delta;
    size_t *pos;
    int next;
} gw_jumps;

/* Sets up jp's arrays (n cells each) so that the first jump is tried
 * GW_WINDOW rounds after round `rounds`: 0 when out of memory. */
static int start_jumps(gw_jumps *jp, size_t cells, int rounds)
{
    jp->ring = malloc((2 * GW_WINDOW + 2) * cells * sizeof *jp->ring);
    jp->pos = malloc((GW_WINDOW + 1) * cells * sizeof *jp->pos);
    if (!jp->ring || !jp->pos)
        return 0;
    jp->d = jp->ring + (GW_WINDOW + 1) * cells;
    jp->delta = jp->d + GW_WINDOW * cells;
    jp->next = rounds + GW_WINDOW;
    return 1;
}

static size_t slot_of(int round)
{
    return (size_t)(round % (GW_WINDOW + 1));
}

static const rtp_ns *start_of(const gw_jumps *jp, size_t n, int round)
{
    return jp->ring + slot_of(round) * n;
}

/* The path of jump (the comment above) from y(0) = the state `window`
 * (<= GW_WINDOW) rounds ago, each period repeating those rounds' decrements, round by
 * round (at s = 0 the certificate is what those rounds did, so the proof
 * only has to carry it along the path): the largest S proved, at most the
 * periods that keep every y_k(S) >= low_k. r[] is the state now, y(1). */
static rtp_i128 jump(const rtp_task *tasks, size_t n, int m, const rtp_ns *r, gw_jumps *jp,
                     int rounds, const rtp_ns *low, int window)
{
    const rtp_ns *y0 = start_of(jp, n, rounds - window);
    rtp_i128 top = gw_forever, s0 = 0;
    for (size_t k = 0; k < n; k++) {
        for (int i = 0; i < window; i++) {
            const rtp_ns *to = i + 1 < window ? start_of(jp, n, rounds - window + i + 1) : r;
            jp->d[(size_t)i * n + k] = start_of(jp, n, rounds - window + i)[k] - to[k];
        }
        jp->delta[k] = y0[k] - r[k];
        if (jp->delta[k] > 0 && (y0[k] - low[k]) / jp->delta[k] < top)
            top = (y0[k] - low[k]) / jp->delta[k];
    }
    while (s0 < top) {
        rtp_i128 e = gw_forever;
        for (int i = 0; i < window && e >= 0; i++) {
            const rtp_ns *d = jp->d + (size_t)i * n, *base = start_of(jp, n, rounds - window + i);
            const size_t *pos = jp->pos + slot_of(rounds - window + i) * n;
            for (size_t j = 0; j < n && e >= 0; j++)
                if (d[j] > 0) {
                    rtp_i128 ej = cert_task(tasks, n, m, j, base, d, pos, jp->delta, s0);
                    e = ej < e ? ej : e;
                }
        }
        if (e < 0)
            break;
        s0 = s0 + e + 1 < top ? s0 + e + 1 : top;
    }
    return s0;
}

/* Which searches are stale: changed[i] is the stamp (a count of changes,
 * now) of task i's last change; a task's bound is searched again when
 * another task changed after its last search. `last` is the task of the
 * latest change and `other` the latest stamp of any other task, so the
 * latest change among the tasks other than k is O(1), not a scan of all n
 * per task and round. */
typedef struct gw_stamps {
    uint64_t *changed, now, other;
    size_t last; /* SIZE_MAX: nothing changed yet */
} gw_stamps;

static void mark_changed(gw_stamps *s, size_t k)
{
    if (k != s->last) {
        s->other = s->last == SIZE_MAX ? 0 : s->changed[s->last];
        s->last = k;
    }
    s->changed[k] = ++s->now;
}

static uint64_t latest_other(const gw_stamps *s, size_t k)
{
    return k == s->last ? s->other : s->last == SIZE_MAX ? 0 : s->changed[s->last];
}

/* After a round from above that improved without accepting (the state
 * before it is in the ring): every GW_WINDOW rounds at most, the jump to
 * y(S) when S > 1 (y(1) is the state now), marking the tasks it lowers as
 * changed. From the 32nd round on (a long descent) every window of 1 to
 * GW_WINDOW rounds is tried and the one that skips the most rounds taken:
 * a descent whose per-round falls repeat with a period that 8 rounds do
 * not fit (the floors' rounding: 8, 9, 8, 9, 9, ... ns) is one that a
 * shorter window repeats, and the proof holds for any window (the comment
 * of jump(), with L the window). Measured (callgrind, main 2d04891
 * against this, `--sensitivity` under gedf, 6 gen sets each of 20 tasks,
 * constrained): U 1.2 on 2 CPUs 4.66 -> 2.28 G instructions (0.49x),
 * U 0.8 on 2 CPUs 0.81 -> 0.85 G (1.05x); every window from the first
 * try on: 0.72x and 1.27x. */
static void try_jump(const rtp_task *tasks, size_t n, int m, rtp_ns *r, gw_jumps *jp,
                     const rtp_ns *low, gw_stamps *stamps, int rounds)
{
    if (rounds < jp->next)
        return;
    int best_window = 0;
    rtp_i128 best = 0, best_s = 0; /* rounds skipped, and the periods */
    for (int w = GW_WINDOW; w >= (rounds >= 4 * GW_WINDOW ? 1 : GW_WINDOW); w--) {
        rtp_i128 s = jump(tasks, n, m, r, jp, rounds, low, w);
        if (s > 1 && (s - 1) * w > best) {
            best = (s - 1) * w;
            best_window = w;
            best_s = s;
        }
    }
    jp->next = rounds + GW_WINDOW;
    if (best_window == 0)
        return;
    /* y(S) = y(1) - (S - 1) delta, delta the best window's fall (jp->delta
     * holds the last window's) */
    const rtp_ns *y0 = start_of(jp, n, rounds - best_window);
    for (size_t k = 0; k < n; k++)
        if (y0[k] > r[k]) {
            rtp_ns delta = y0[k] - r[k];
            r[k] -= (rtp_ns)((best_s - 1) * delta);
            mark_changed(stamps, k);
        }
}

/* Slack iteration ([BC07], Sect. 5; first used in [BCL]), from above and
 * from below.
 *
 * From above (the papers' iteration, which alone names the bounds): every
 * response bound r_i starts at D_i (slack 0); each round re-bounds every task
 * in index order with the latest r (b_k = fp_k(r), the least fixed point of
 * its search, or none past D_k; r_k = min(r_k, b_k)), until a round bounds
 * every task within its deadline (accept) or no r_k improves (reject). A
 * task's bound depends only on the others' r, so it is searched again only
 * when one of them changed since its last search (gw_stamps; searched[k] is
 * the stamp of its last search, 0: never).
 *
 * Verdict only (response_time and warm NULL: the chain and
 * rtp_global_edf_report, where no bound is reported): each round from
 * above takes the tasks without a bound first and stops as soon as every
 * task has one. The verdict is the same, only the work changes. Every state
 * the rounds pass is >= r* (below), in any order of the re-bounds, and a
 * bound fp_k(z) found at such a state z stays a value at every later state
 * z' <= z (fp_k is monotone) and gives fp_k(r*) <= fp_k(z) <= D_k: so when
 * every task has a bound, every fp_k(r*) is a value and the set is accepted,
 * as the plain rounds would. A round that improves nothing visits every task
 * with the others unchanged since its last search: the state is post-fixed,
 * hence r* (comment of jump()), and it rejects exactly when some fp_k(r*) is
 * none, as the plain rounds.
 *
 * The jumps (jump()) run with warm from the start. Without warm they start
 * once the steps pass a share of the limit (jump_after: 1/16 of it for the
 * verdict only, 1/2 when the bounds are reported), the rounds keeping
 * their order (unbound-first for the verdict only, index order with the
 * bounds): jump() proves its certificate for the order each round of its
 * window ran in (gw_jumps' pos). Only the work and, with response_time,
 * the bounds of sets that take more than half the limit change: the
 * verdict is the same (it is decided by r*, which no jump passes, comment
 * of jump()), and every state the rounds pass, jumps included, is >= r*,
 * so each reported bound fp_k(z) (z that state) is >= fp_k(r*) = r*_k, a
 * valid [BC07] bound as the plain rounds' are. Before, a slow steady
 * descent near the edge (same few ns per round for tens of thousands of
 * rounds) exhausted the limit, where the sensitivity search's run on the
 * same set jumped and accepted: wcet_max was reported at a wcet the plain
 * test could not decide (test_edf_rta_plain_jumps). Until the first jump
 * the rounds and their searches are those of a run without jumps. (The
 * first version switched the verdict-only rounds to index order at the
 * share, which puts the tasks without a bound last: at a tiny
 * --max-iterations a set decided just under the limit could then pass it,
 * rev9a's F1, test_edf_rta_tiny_limit.) The mirror case remains: past the
 * share, after the jumps, the index order can finish a set sooner, so at a
 * small limit (rev10a: 3,000-5,000 steps and below) some sets that first
 * version decided pass it here; none the build before the jumps (2d04891)
 * decided, on 4,718 near-edge variants at 13 limits from 64 to 200,000,
 * and none at 10,000 or more. On the batch families no set comes
 * near the share (rounds from above per set average 1.0-3.3 there,
 * bench_throughput's families with the RTA reached).
 *
 * From below (ours; it never changes a verdict or a bound, only the work):
 * every interference term grows with the others' r_i (W_i's window
 * x + r_i - C_i and J_i^k's [D_k mod T_i - (D_i - r_i)]_0 do), so fp_k is
 * monotone: r <= r' (each i) implies fp_k(r) <= fp_k(r') (a fixed point
 * under the larger interference is one under the smaller), none counting as
 * above every value. Continued past acceptance, the iteration from above
 * would end at r* where no r_k improves; r* lies below every state it
 * passes, so every search it makes sees r >= r*. At r*, fp_k(r*) = r*_k for
 * every task that ever improved (fp_k(r*) <= fp_k(the state of its last
 * improvement) = r*_k, and no improvement means fp_k(r*) >= r*_k) and
 * fp_k(r*) >= D_k = r*_k, or none, for the others; a set is accepted iff
 * every fp_k(r*) is a value (a round where all fit sees states >= r*, so all
 * fit at r*; conversely the rounds at r* all fit).
 * Now let low start at C (every bound is >= C_i, so low <= r*) and re-bound
 * low_k = fp_k(low) in rounds (fp_k only grows as low does). While low <= r*,
 * fp_k(low) <= fp_k(r*), which is r*_k or none when k ever improved, and
 * <= D_k = r*_k (when a value) otherwise: low stays <= r*. Hence:
 *  - fp_k(low) is none: fp_k(r*) is none, so the set is rejected at once
 *    (when response_time is NULL or warm given; else the rounds from
 *    above still run, as the last bounds they report are theirs);
 *  - every search from above sees r >= r* >= low, so its least fixed point
 *    is >= low_k: it may start at low_k instead of C_k and finds the same
 *    point (no x in [C_k, low_k) passes, rtp_gw_fixed_point's jumps never
 *    skip a fixed point from wherever they start).
 * One round from below comes first (it catches most rejections of issue
 * 17's 8-task sets and moves every search's start up); the next ones come
 * only before the fourth and later rounds from above, one each, until low
 * stops moving: a rejected 20-task set takes 7-9 rounds from above, and
 * the second or third round from below mostly rejects it, while accepted
 * sets are mostly done within three rounds from above and need no more
 * from below (measured: with a round from below before every round from
 * above, RTA on 2000 implicit-deadline 20-task sets took 1.18x the time,
 * constrained the same, 8-task 1.09x). */
rtp_status rtp_global_edf_rta(const rtp_task *tasks, size_t n, int m,
                              const rtp_limits *limits, rtp_ns *response_time,
                              rtp_global_verdict *verdict, rtp_diag *diag)
{
    return rtp_gw_edf_rta_from(tasks, n, m, limits, NULL, NULL, NULL, response_time, verdict,
                               diag);
}

rtp_status rtp_gw_edf_rta_from(const rtp_task *tasks, size_t n, int m,
                               const rtp_limits *limits, rtp_ns *warm, rtp_ns *above,
                               rtp_ns *slowest, rtp_ns *response_time,
                               rtp_global_verdict *verdict, rtp_diag *diag)
{
    if (slowest)
        *slowest = -1;
    rtp_status st = gw_begin(m, n, response_time, diag);
    if (st != RTP_OK)
        return st;
    if (screen(tasks, n, m, verdict))
        return RTP_OK;
    size_t cells = n ? n : 1;
    rtp_ns *rbound = malloc(cells * sizeof *rbound); /* r_i = D_i - S_i */
    rtp_ns *bound = malloc(cells * sizeof *bound), *low = malloc(cells * sizeof *low);
    size_t *order = malloc(cells * sizeof *order);
    uint64_t *changed = calloc(cells, sizeof *changed), *searched = calloc(cells, sizeof *searched);
    gw_search_mem w;
    int mem = search_mem_init(&w, n);
    /* the jumps (jump() above): with warm (the sensitivity search) from the
     * start, else once the steps pass a share of the limit (below) */
    gw_jumps jp = {NULL, NULL, NULL, NULL, 0};
    if (!rbound || !bound || !low || mem != 0 || !order || !changed || !searched ||
        (warm && !start_jumps(&jp, cells, 0))) {
        st = rtp_diag_set(diag, RTP_ENOMEM, "", "out of memory");
        goto done;
    }
    /* Every bound a search sees stays within [0, the largest of these]: r
     * only falls (to bounds >= C), low only rises to bounds <= D. */
    rtp_ns most = 0;
    for (size_t i = 0; i < n; i++) {
        rbound[i] = above ? above[i] : tasks[i].deadline_ns;
        low[i] = warm && warm[i] > tasks[i].wcet_ns ? warm[i] : tasks[i].wcet_ns;
        rtp_ns top = rbound[i] > low[i] ? rbound[i] : low[i];
        most = most < 0 || rbound[i] < 0 ? -1 : top > most ? top : most;
    }
    int wide = rtp_gw_narrow_all(tasks, n, m, most) ? -1 : 0;
    uint64_t steps = 0;
    gw_stamps stamps = {changed, 1, 0, SIZE_MAX};
    int all_fit = 0, improved = 1, rising = 1, rounds = 0; /* rounds from above */
    /* no bounds reported: the tasks without a bound first in each round,
     * which ends once every task has one (the comment above) */
    const int unbound_first = !response_time && !warm;
    /* the plain test's steps after which it jumps too (the comment above) */
    uint64_t jump_after = limits->max_iterations / (unbound_first ? 16 : 2);
    size_t n_fit = 0;                             /* tasks whose bound[] is a value */
    rtp_i128 least_fall = -1; /* *slowest: over the rounds after the first */
    while (improved && !all_fit) {
        /* a round from below: before the first round from above, then from
         * the fourth on (most accepted sets are done by then) */
        for (size_t k = 0, moved = 0; rising && (rounds == 0 || rounds >= 3); k++) {
            if (k == n) {
                rising = moved != 0;
                break;
            }
            rtp_ns b;
            if ((st = search(tasks, n, m, k, low, low[k], &w, wide, &steps, limits, &b, diag)))
                goto done;
            if (b < 0 && (!response_time || warm)) {
                *verdict = RTP_GLOBAL_REJECT;
                goto done;
            }
            rising = b >= 0;
            if (b > low[k]) {
                low[k] = b;
                moved = 1;
            }
        }
        if (!jp.ring && steps > jump_after) {
            if (!start_jumps(&jp, cells, rounds)) {
                st = rtp_diag_set(diag, RTP_ENOMEM, "", "out of memory");
                goto done;
            }
        }
        improved = 0;
        rtp_i128 fall = 0; /* the round's, without the jump after it */
        for (size_t i = 0; slowest && i < n; i++)
            fall += rbound[i];
        size_t n_order = 0;
        for (int fit = 0; fit < 2; fit++)
            for (size_t k = 0; k < n; k++)
                if (!unbound_first ? fit == 0 : (searched[k] != 0 && bound[k] >= 0) == fit)
                    order[n_order++] = k;
        if (jp.ring) { /* the round's start and order, for jump() */
            memcpy(jp.ring + slot_of(rounds) * n, rbound, n * sizeof *rbound);
            for (size_t p = 0; p < n; p++)
                jp.pos[slot_of(rounds) * n + order[p]] = p;
        }
        for (size_t p = 0; p < n && !(unbound_first && n_fit == n); p++) {
            size_t k = order[p];
            if (searched[k] == 0 || latest_other(&stamps, k) > searched[k]) {
                n_fit -= searched[k] != 0 && bound[k] >= 0;
                searched[k] = stamps.now;
                if ((st = search(tasks, n, m, k, rbound, low[k], &w, wide, &steps, limits,
                                 &bound[k], diag)))
                    goto done;
                n_fit += bound[k] >= 0;
            }
            if (bound[k] >= 0 && bound[k] < rbound[k]) { /* slack D_k - bound grew */
                rbound[k] = bound[k];
                mark_changed(&stamps, k);
                improved = 1;
            }
        }
        all_fit = n_fit == n;
        for (size_t i = 0; slowest && i < n; i++)
            fall -= rbound[i];
        if (slowest && rounds > 0 && !all_fit && (least_fall < 0 || fall < least_fall))
            least_fall = fall;
        rounds++;
        if (jp.ring && improved && !all_fit)
            try_jump(tasks, n, m, rbound, &jp, low, &stamps, rounds);
    }
    *verdict = all_fit ? RTP_GLOBAL_ACCEPT : RTP_GLOBAL_REJECT;
    for (size_t i = 0; response_time && i < n; i++)
        response_time[i] = bound[i];
    for (size_t i = 0; warm && all_fit && i < n; i++)
        warm[i] = low[i];
    if (slowest) /* a fall is at most the sum of n deadlines */
        *slowest = !all_fit ? -1 : least_fall > INT64_MAX ? INT64_MAX : (rtp_ns)least_fall;
done:
    if (st == RTP_OK && above && *verdict == RTP_GLOBAL_REJECT) /* every rbound >= r* */
        memcpy(above, rbound, n * sizeof *above);
    free(jp.ring);
    free(jp.pos);
    free(rbound);
    free(bound);
    free(low);
    free(order);
    free(changed);
    free(searched);
    search_mem_free(&w);
    return st;
}

rtp_status rtp_global_edf_report(const rtp_task *tasks, size_t n, int m,
                                 const rtp_limits *limits,
                                 rtp_global_report *report, rtp_diag *diag)
{
    static const char *const names[RTP_GLOBAL_EDF_TESTS] = {"gfb", "bak", "bcl", "rta"};
    for (size_t j = 0; j < RTP_GLOBAL_EDF_TESTS; j++) {
        report->test[j] = names[j];
        report->verdict[j] = RTP_GLOBAL_NA;
    }
    rtp_status st = gw_check_cpus(m, diag);
    if (st != RTP_OK)
        return st;
    if ((st = rtp_global_gfb(tasks, n, m, &report->verdict[0])) ||
        (st = rtp_global_bak(tasks, n, m, &report->verdict[1])) ||
        (st = rtp_global_bcl(tasks, n, m, &report->verdict[2])))
        return st;
    return rtp_global_edf_rta(tasks, n, m, limits, NULL, &report->verdict[3], diag);
}

/* The iteration from below alone (rtp_gw_edf_below in global_work.h): the
 * rounds of rtp_gw_edf_rta_from's comment ("From below"), from low[] to
 * where no search raises a bound. */
rtp_status rtp_gw_edf_below(const rtp_task *tasks, size_t n, int m, const rtp_limits *limits,
                            int max_rounds, rtp_ns *low, int *outcome, rtp_diag *diag)
{
    gw_search_mem w;
    rtp_status st = RTP_OK;
    *outcome = -1;
    if (search_mem_init(&w, n) != 0) {
        st = rtp_diag_set(diag, RTP_ENOMEM, "", "out of memory");
        goto done;
    }
    /* every bound seen stays within [C_i, max(low_i, D_i)] */
    rtp_ns most = 0;
    for (size_t i = 0; i < n; i++) {
        if (low[i] < tasks[i].wcet_ns)
            low[i] = tasks[i].wcet_ns;
        rtp_ns top = low[i] > tasks[i].deadline_ns ? low[i] : tasks[i].deadline_ns;
        most = top > most ? top : most;
    }
    int wide = rtp_gw_narrow_all(tasks, n, m, most) ? -1 : 0;
    uint64_t steps = 0;
    rtp_diag mine;
    *outcome = 1;
    for (int moved = 1, rounds = 0; moved && *outcome == 1; rounds++) {
        if (rounds == max_rounds) {
            *outcome = -1; /* undecided */
            break;
        }
        moved = 0;
        for (size_t k = 0; k < n && *outcome == 1; k++) {
            rtp_ns b;
            st = search(tasks, n, m, k, low, low[k], &w, wide, &steps, limits, &b, &mine);
            if (st == RTP_ELIMIT && steps > limits->max_iterations) {
                st = RTP_OK; /* the steps' limit: undecided, as documented */
                *outcome = -1;
            } else if (st != RTP_OK) {
                *diag = mine;
                goto done;
            } else if (b < 0) {
                *outcome = 0;
            } else if (b > low[k]) {
                low[k] = b;
                moved = 1;
            }
        }
    }
done:
    search_mem_free(&w);
    return st;
}
