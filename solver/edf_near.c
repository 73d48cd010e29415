/* solver/edf_near.c — exact EDF just below U' = 1 (see solver/edf_near.h).
 *
 * The slack past t_lo. With U = sum U_i < 1, eps = 1 - U, t_lo = max(1,
 * t_B, max(D*_i - T_i)) (past it every task has its due-job count
 * floor((t - D*_i) / T_i) + 1 >= 0 and b(t) = B), writing m_i(t) = (t -
 * D*_i) mod T_i (the time since task i's last deadline),
 *   h(t) = U t + K0 - Phi(t),  K0 = B + sum U_i (T_i - D*_i),
 *   Phi(t) = sum U_i m_i(t) >= 0,
 * so t >= t_lo fails (h(t) > t) iff Phi(t) + eps t < K0 (as in
 * solver/edf_tail.c, where eps = 0). No failure at t >= La = K0 / eps.
 *
 * Runs. Take the tasks S with the largest C (at most DIM_MAX; how many is
 * chosen below). For a failing t let a = the last deadline of an S task at
 * or before t (a = D*_j + q T_j for some j in S): no S task resets its m_i
 * in (a, t], so Phi_S(t) = Phi_S(a) + U_S (t - a) and
 *   Phi_S(a) + eps a <= Phi_S(t) + eps t <= Phi(t) + eps t < K0,
 * and t lies in the "run" [a, e), e = the next deadline of an S task after
 * a. So every failure t >= t_lo lies in the run of a point
 *   z = (q_j, q_i for i in S \ j),  a = D*_j + q_j T_j,
 *   r_i = a - D*_i - q_i T_i >= 0,  eps a + sum_{i in S \ j} U_i r_i <= K0,
 * with a >= t_lo (when a < t_lo, t < t_lo + min_S T: the caller's QPA region
 * [1, t_lo + min_S T], walked first). For each base j these z are the
 * integer points of a simplex in Z^|S|, whose volume divided by the
 * lattice's determinant, summed over j, is about
 *   E = K^|S| (sum_{j in S} U_j) / (|S|! eps prod_{i in S} C_i)
 * (K = K0 - eps t_lo); |S| is the smallest size with E <= 2^9, else the one
 * with the least E. Every candidate run is then checked exactly by QPA
 * [ZB09] over [a, e), after a cheap exact-in-spirit filter (Phi's minimum
 * over the run, each task's term 0 when its deadline falls inside).
 *
 * Enumeration ([LLL82], [FP85]): the lattice basis is reduced with LLL in
 * floating point, in coordinates where the simplex is about a unit simplex
 * (the unimodular change of basis V is kept in integers, so the lattice
 * itself is exact). In the reduced coordinates z' the constraints are
 * g_m . z' + h_m >= 0, computed exactly (integers, GMP for the budget row)
 * and rounded once. The coordinates are fixed from the last to the first;
 * at level k (z'_{k+1..} fixed, z'_{0..k-1} free reals) the range of z'_k
 * comes from the inequalities pi^T (g z' + h) >= 0 with pi >= 0 and
 * pi^T g_{., l} = 0 for l < k: the extreme rays of that cone, found level by
 * level by Fourier-Motzkin elimination (a ray at level k has at most k + 1
 * nonzero entries). Every pi >= 0 gives a valid inequality whatever its
 * rounding: the residue pi^T g_{., l} on a free coordinate l is bounded by
 * the box |z'_l| <= Z_l (from the simplex's vertices), and every sum carries
 * an error bound (1e-13 of the sum of absolute values: some 90 times the
 * worst rounding of a sum of at most DIM_MAX = 10 products in any order,
 * 10 u with u = 2^-53); a value is pruned only when provably outside. So
 * the enumeration visits a superset of the lattice points in the simplex,
 * and floating point never decides a verdict: QPA on the runs does.
 *
 * The interval [t_lo, La) is searched in chunks of growing expected size
 * (8-fold, or the caller's growth: a first failure, when there is one,
 * usually lies early; a proof wants few chunks), and once a
 * failure is found only the region below it; so the first failure found is
 * the smallest (want_first). Exact EDF is coNP-hard [ER10] [EY15]: the
 * candidates E can be astronomically many (the budget then says so). */
#include "solver/edf_near.h"

#include <gmp.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define DIM_MAX 10          /* tasks in the lattice */
#define CON_MAX (DIM_MAX + 2)
#define REL 1e-13           /* error bound per sum, relative to its absolute sum */
#define TARGET_LOG 6.238    /* log(2^9): enough candidates in one go */

static rtp_ns dstar(const rtp_task *t)
{
    return t->deadline_ns - t->jitter_ns;
}

/* x mod m in [0, m). Its callers' x = a - D*_i lies in (-2^62, 2^63 - 1):
 * a in [1, 2^62 - 1] (run() checks the range before it), D*_i = D_i - J_i
 * in [1 - 2^62, 2^62] (fp.c passes 1 - J_j, which can be <= 0: review
 * rev11b), so int64_t holds it: a 128-bit remainder is a call
 * into libgcc (__modti3), ~14% of a search whose runs are many (the family's
 * slowest sets, callgrind). */
static rtp_ns floor_mod(rtp_ns x, rtp_ns m)
{
    rtp_ns r = x % m;
    return r < 0 ? r + m : r;
}

/* C'_i = alpha w_i + per_job, exactly. */
static void cprime(const rtp_edf_near_in *in, size_t i, mpq_t out)
{
    mpq_set_si(out, in->tasks[i].wcet_ns, 1);
    if (in->alpha)
        mpq_mul(out, out, in->alpha);
    if (in->per_job_ns) {
        mpq_t c;
        mpq_init(c);
        mpq_set_si(c, in->per_job_ns, 1);
        mpq_add(out, out, c);
        mpq_clear(c);
    }
}

/* One inequality G . z' + H >= 0 derived at a level (see the top). */
typedef struct facet {
    double g[DIM_MAX], e[DIM_MAX]; /* coefficients and their error bounds */
    double h, eh, slack;           /* slack: the free coordinates' worst part */
    /* dfs's error terms that do not change within a chunk: eh + slack +
     * (e_k + REL |g_k|) Z_k at the facet's level k (dfs adds the fixed
     * coordinates' part). Summed here in another order than beside that
     * part, which moves the bound by a few ulps: it bounds rounding errors
     * with REL = 1e-13, some 90 times their worst (see the top). */
    double cerr;
} facet;

/* A level's facets' running sums over the fixed coordinates from m up (m
 * = d: none), h + sum g_l z'_l, |h| + sum |g_l z'_l| and sum e_l |z'_l|,
 * one row per m, facets side by side (see sums_above). */
typedef struct partial {
    double *v, *ab, *err;          /* row m at [m * nfac] */
    uint64_t stamp[DIM_MAX + 1];   /* row m is current while stamp[m] > tick[m] */
} partial;

typedef struct ray {
    double pi[CON_MAX];
    uint32_t supp;
} ray;

/* The search: its inputs and what it found. */
typedef struct near {
    const rtp_edf_near_in *in;
    const rtp_task *tasks;
    size_t n;
    int want_first;
    rtp_edf_budget *b;
    rtp_diag *diag;
    double *cd;                /* C'_i, rounded */
    rtp_ns t_lo;
    double eps, k0;            /* exact values rounded once */
    mpq_t eps_q, k0_q;
    size_t s;
    size_t sel[DIM_MAX];       /* S, by C descending */
    int ext;                   /* in->base given: one base, outside S */
    const rtp_task *bt;        /* the current base */
    size_t oth[DIM_MAX], no;   /* the tasks of S beside it (indices into tasks) */
    size_t opos[DIM_MAX];      /* their positions in sel */
    /* S's exact terms at the current alpha, shared by every base and chunk:
     * C'_i and U'_i = C'_i / T_i (by position in sel), sum U'_i and sum U'_i
     * D*_i; made again, with cd[], when the caller lowers alpha (refresh) */
    mpq_t cs[DIM_MAX], us[DIM_MAX], usum, wsum;
    size_t d;                  /* the lattice's dimension, 1 + no */
    rtp_ns best;               /* smallest failure found, 0 = none */
    int stop;                  /* !want_first and a failure found */
    /* the current base and chunk */
    size_t j;
    rtp_ns lo, hi;             /* run starts a in [lo, hi] */
    int64_t v[DIM_MAX][DIM_MAX], vinv[DIM_MAX][DIM_MAX]; /* z = V z', z' = Vinv z */
    double zmax[DIM_MAX];
    facet *fac[DIM_MAX];
    size_t nfac[DIM_MAX];
    partial part[DIM_MAX];     /* each level's facets' sums (sums_above) */
    int64_t z[DIM_MAX];        /* z' being enumerated */
    uint64_t tick[DIM_MAX], clock; /* tick[m]: when z'_m was last set */
} near;

/* ------------------------------------------------------------------ LLL */

/* Gram-Schmidt of the columns b[from..to-1] (each of length s), those
 * before `from` (and their bs, mu, norm) unchanged. */
static void gram_schmidt(size_t from, size_t to, size_t s, double b[][DIM_MAX],
                         double bs[][DIM_MAX], double mu[][DIM_MAX], double *norm)
{
    for (size_t i = from; i < to; i++) {
        memcpy(bs[i], b[i], sizeof bs[i]);
        for (size_t k = 0; k < i; k++) {
            double d = 0;
            for (size_t r = 0; r < s; r++)
                d += b[i][r] * bs[k][r];
            mu[i][k] = norm[k] > 0 ? d / norm[k] : 0;
            for (size_t r = 0; r < s; r++)
                bs[i][r] -= mu[i][k] * bs[k][r];
        }
        norm[i] = 0;
        for (size_t r = 0; r < s; r++)
            norm[i] += bs[i][r] * bs[i][r];
    }
}

/* b_k -= q b_j with V and Vinv kept exact; 0 when V would pass 2^40. */
static int reduce(near *c, double b[][DIM_MAX], size_t k, size_t j, double q)
{
    if (fabs(q) > 1e9)
        return 0;
    int64_t iq = (int64_t)q;
    for (size_t r = 0; r < c->d; r++) {
        b[k][r] -= q * b[j][r];
        c->v[r][k] -= iq * c->v[r][j];
        c->vinv[j][r] += iq * c->vinv[k][r];
        if (llabs(c->v[r][k]) > ((int64_t)1 << 40) || llabs(c->vinv[j][r]) > ((int64_t)1 << 40))
            return 0;
    }
    return 1;
}

static void swap_cols(near *c, double b[][DIM_MAX], size_t k)
{
    for (size_t r = 0; r < c->d; r++) {
        double x = b[k][r];
        b[k][r] = b[k - 1][r];
        b[k - 1][r] = x;
        int64_t y = c->v[r][k];
        c->v[r][k] = c->v[r][k - 1];
        c->v[r][k - 1] = y;
        y = c->vinv[k][r];
        c->vinv[k][r] = c->vinv[k - 1][r];
        c->vinv[k - 1][r] = y;
    }
}

/* LLL (delta 0.99) of the columns b, V and Vinv from the identity; 0 when
 * it does not converge in floating point (the caller declines). */
static int lll(near *c, double b[][DIM_MAX])
{
    size_t s = c->d;
    double bs[DIM_MAX][DIM_MAX], mu[DIM_MAX][DIM_MAX], norm[DIM_MAX];
    for (size_t i = 0; i < s; i++)
        for (size_t r = 0; r < s; r++)
            c->v[i][r] = c->vinv[i][r] = i == r;
    gram_schmidt(0, s, s, b, bs, mu, norm);
    size_t k = 1, rounds = 0;
    while (k < s) {
        if (++rounds > 100000)
            return 0;
        for (size_t j = k; j-- > 0;) {
            double q = nearbyint(mu[k][j]);
            if (q == 0)
                continue;
            if (!reduce(c, b, k, j, q))
                return 0;
            for (size_t l = 0; l <= j; l++)
                mu[k][l] -= q * (l == j ? 1 : mu[j][l]);
        }
        if (norm[k] >= (0.99 - mu[k][k - 1] * mu[k][k - 1]) * norm[k - 1]) {
            k++;
        } else {
            /* the columns before k - 1 keep their b*, and so do those
             * after k (the span before each is the same): the swapped pair
             * is orthogonalised again, and the later columns' mu against
             * it (a full pass from k - 1 on was ~20% of a search: bench_sens_edf's
             * family tail, ~100 swaps a lattice of 10) */
            swap_cols(c, b, k);
            gram_schmidt(k - 1, k + 1, s, b, bs, mu, norm);
            for (size_t i = k + 1; i < s; i++)
                for (size_t l = k - 1; l <= k; l++) {
                    double d = 0;
                    for (size_t r = 0; r < s; r++)
                        d += b[i][r] * bs[l][r];
                    mu[i][l] = norm[l] > 0 ? d / norm[l] : 0;
                }
            k = k > 1 ? k - 1 : 1;
        }
    }
    for (size_t i = 0; i < s; i++)
        if (!(norm[i] > 0) || !isfinite(norm[i]))
            return 0;
    return 1;
}

/* ------------------------------------------------------------ constraints */

/* The constraints of base j over [lo, hi], in the reduced coordinates:
 * g[m] . z' + h[m] >= 0, each scaled by a power of two (exactly). Rows: 0
 * a >= lo, 1 a <= hi, 2 the budget, 3.. r_i >= 0 for i in S \ j. Returns
 * the row count. */
static size_t constraints(near *c, double g[][DIM_MAX], double *h)
{
    const rtp_task *tj = c->bt;
    size_t s = c->d;
    /* the integer rows over z = (q_j, q_i for the others, in order) */
    rtp_i128 rows[CON_MAX][DIM_MAX], cst[CON_MAX];
    memset(rows, 0, sizeof rows);
    memset(cst, 0, sizeof cst);
    rows[0][0] = tj->period_ns; /* a - lo */
    cst[0] = (rtp_i128)dstar(tj) - c->lo;
    rows[1][0] = -tj->period_ns; /* hi - a */
    cst[1] = (rtp_i128)c->hi - dstar(tj);
    /* the budget K0 - eps a - sum U_i r_i = cst - (eps + U_S') T_j q_j +
     * sum C_i q_i, in rationals: with x = eps + U_S' (U_S' = the others'
     * sum U'_i), cst = K0 - D*_j x + sum U'_i D*_i over the others, from
     * S's sums less the base's terms (the same exact values as summed
     * over the others; a rational sum of each base's others was ~6% of a
     * search: the family's slowest sets, callgrind) */
    mpq_t x, y, k, b0;
    mpq_srcptr cq[DIM_MAX];
    mpq_inits(x, y, k, b0, NULL);
    mpq_add(x, c->eps_q, c->usum);
    mpq_set(b0, c->wsum);
    if (!c->ext) {
        mpq_sub(x, x, c->us[c->j]);
        mpq_set_si(y, dstar(tj), 1);
        mpq_mul(y, y, c->us[c->j]);
        mpq_sub(b0, b0, y);
    }
    mpq_add(b0, b0, c->k0_q);
    mpq_set_si(y, dstar(tj), 1);
    mpq_mul(y, y, x);
    mpq_sub(b0, b0, y);
    size_t m = 3;
    for (size_t o = 0; o < c->no; o++) {
        const rtp_task *ti = &c->tasks[c->oth[o]];
        size_t r = m - 2; /* its coordinate in z */
        rows[m][0] = tj->period_ns;
        rows[m][r] = -ti->period_ns;
        cst[m] = (rtp_i128)dstar(tj) - dstar(ti);
        cq[r] = c->cs[c->opos[o]];
        m++;
    }
    mpq_set_si(y, tj->period_ns, 1);
    mpq_mul(x, x, y); /* -(coefficient of q_j) */
    /* the budget row's coefficients sum_r V_rl C'_r - V_0l x over one
     * denominator den (numerators xn, cn[r]): integer products and sums,
     * one canonical fraction per coefficient, the same value (and double)
     * as summed in rationals (a rational sum per term was ~10% of a
     * search: bench_sens_edf's family tail, perf) */
    mpz_t den, xn, cn[DIM_MAX], acc, term;
    mpz_inits(den, xn, acc, term, NULL);
    mpz_set(den, mpq_denref(x));
    for (size_t r = 1; r < s; r++)
        mpz_lcm(den, den, mpq_denref(cq[r]));
    mpz_divexact(xn, den, mpq_denref(x));
    mpz_mul(xn, xn, mpq_numref(x));
    for (size_t r = 1; r < s; r++) {
        mpz_init(cn[r]);
        mpz_divexact(cn[r], den, mpq_denref(cq[r]));
        mpz_mul(cn[r], cn[r], mpq_numref(cq[r]));
    }
    for (size_t q = 0; q < m; q++) {
        for (size_t l = 0; l < s && q != 2; l++) {
            rtp_i128 sum = 0;
            for (size_t v = 0; v < s; v++)
                sum += rows[q][v] * c->v[v][l];
            g[q][l] = (double)sum;
        }
        for (size_t l = 0; l < s && q == 2; l++) {
            mpz_mul_si(acc, xn, -c->v[0][l]); /* |V| <= 2^40 */
            for (size_t r = 1; r < s; r++) {
                mpz_mul_si(term, cn[r], c->v[r][l]);
                mpz_add(acc, acc, term);
            }
            mpq_set_num(k, acc);
            mpq_set_den(k, den);
            mpq_canonicalize(k);
            g[q][l] = mpq_get_d(k);
        }
        h[q] = q == 2 ? mpq_get_d(b0) : (double)cst[q];
    }
    for (size_t r = 1; r < s; r++)
        mpz_clear(cn[r]);
    mpz_clears(den, xn, acc, term, NULL);
    mpq_clears(x, y, k, b0, NULL);
    for (size_t q = 0; q < m; q++) { /* scale rows to about 1, exactly */
        double big = 0;
        for (size_t l = 0; l < s; l++)
            if (fabs(g[q][l]) > big)
                big = fabs(g[q][l]);
        if (big > 0) {
            int e;
            frexp(big, &e);
            for (size_t l = 0; l < s; l++)
                g[q][l] = ldexp(g[q][l], -e);
            h[q] = ldexp(h[q], -e);
        }
    }
    return m;
}

/* ----------------------------------------------------------------- facets */

/* The rows in a support. __builtin_popcount without the popcnt
 * instruction (the default target) is a call into libgcc: ~3% of a
 * search's time in it (bench_sens_edf's family tail, perf). */
static size_t bits(uint32_t x)
{
    x -= (x >> 1) & 0x55555555u;
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    x = (x + (x >> 4)) & 0x0f0f0f0fu;
    return (x * 0x01010101u) >> 24;
}

/* Rays of level k from those of level k - 1 by eliminating coordinate
 * k - 1 (Fourier-Motzkin; see the top). Returns the new count. */
static size_t eliminate(const ray *in, size_t nin, size_t m, double g[][DIM_MAX], size_t l,
                        ray *out, size_t cap)
{
    double cf[256], ab[256];
    /* the supports already out (a support is a subset of the CON_MAX rows):
     * a ray per support, the first one made */
    uint64_t seen[((1u << CON_MAX) + 63) / 64] = {0};
    size_t nout = 0;
    for (size_t a = 0; a < nin; a++) {
        cf[a] = ab[a] = 0;
        for (uint32_t w = in[a].supp; w; w &= w - 1) { /* its nonzero entries */
            size_t q = (size_t)__builtin_ctz(w);
            cf[a] += in[a].pi[q] * g[q][l];
            ab[a] += in[a].pi[q] * fabs(g[q][l]);
        }
        if (fabs(cf[a]) <= 1e-12 * ab[a]) {
            cf[a] = 0;
            if (nout < cap) {
                seen[in[a].supp / 64] |= (uint64_t)1 << (in[a].supp % 64);
                out[nout++] = in[a];
            }
        }
    }
    for (size_t a = 0; a < nin; a++) {
        if (!(cf[a] > 0))
            continue;
        for (size_t b = 0; b < nin; b++) {
            if (!(cf[b] < 0))
                continue;
            uint32_t supp = in[a].supp | in[b].supp;
            if (bits(supp) > l + 2)
                continue; /* not extreme: at most (level + 1) nonzeros */
            uint64_t bit = (uint64_t)1 << (supp % 64);
            if ((seen[supp / 64] & bit) || nout >= cap)
                continue;
            ray r;
            double big = 0;
            for (size_t q = 0; q < m; q++) {
                r.pi[q] = -cf[b] * in[a].pi[q] + cf[a] * in[b].pi[q];
                if (r.pi[q] > big)
                    big = r.pi[q];
            }
            if (!(big > 0))
                continue;
            for (size_t q = 0; q < m; q++)
                r.pi[q] = r.pi[q] / big;
            r.supp = supp;
            seen[supp / 64] |= bit;
            out[nout++] = r;
        }
    }
    return nout;
}

/* The facets of every level from the constraints; RTP_ENOMEM. */
static rtp_status make_facets(near *c, size_t m, double g[][DIM_MAX], const double *h)
{
    enum { CAP = 256 };
    double ga[CON_MAX][DIM_MAX]; /* |g| */
    for (size_t q = 0; q < m; q++)
        for (size_t l = 0; l < c->d; l++)
            ga[q][l] = fabs(g[q][l]);
    ray *cur = malloc(CAP * sizeof *cur), *next = malloc(CAP * sizeof *next);
    rtp_status st = cur && next ? RTP_OK : RTP_ENOMEM;
    size_t ncur = 0;
    for (size_t q = 0; q < m && st == RTP_OK; q++) {
        memset(&cur[ncur], 0, sizeof cur[ncur]);
        cur[ncur].pi[q] = 1;
        cur[ncur++].supp = 1u << q;
    }
    for (size_t k = 0; k < c->d && st == RTP_OK; k++) {
        if (k > 0) {
            size_t nn = eliminate(cur, ncur, m, g, k - 1, next, CAP);
            ray *t = cur;
            cur = next;
            next = t;
            ncur = nn;
        }
        free(c->fac[k]);
        free(c->part[k].v);
        size_t rows = (ncur ? ncur : 1) * (c->d + 1);
        c->fac[k] = malloc((ncur ? ncur : 1) * sizeof *c->fac[k]);
        c->part[k].v = malloc(3 * rows * sizeof *c->part[k].v);
        c->nfac[k] = 0;
        if (!c->fac[k] || !c->part[k].v) {
            st = RTP_ENOMEM;
            break;
        }
        c->part[k].ab = c->part[k].v + rows;
        c->part[k].err = c->part[k].ab + rows;
        memset(c->part[k].stamp, 0, sizeof c->part[k].stamp);
        for (size_t a = 0; a < ncur; a++) {
            facet *f = &c->fac[k][c->nfac[k]];
            memset(f, 0, sizeof *f);
            int useful = 0;
            /* row by row over the ray's support (its other entries are
             * 0), each coordinate's sum in the same order (q up) as one
             * coordinate at a time, but a loop over coordinates the
             * compiler can keep in vector registers */
            double ab_l[DIM_MAX] = {0};
            for (uint32_t w = cur[a].supp; w; w &= w - 1) {
                size_t q = (size_t)__builtin_ctz(w);
                for (size_t l = 0; l < c->d; l++) {
                    f->g[l] += cur[a].pi[q] * g[q][l];
                    ab_l[l] += cur[a].pi[q] * ga[q][l];
                }
            }
            for (size_t l = 0; l < c->d; l++) {
                double sum = f->g[l];
                f->e[l] = REL * ab_l[l];
                if (l < k)
                    f->slack += (fabs(sum) + f->e[l]) * c->zmax[l];
                else
                    useful = useful || fabs(sum) > f->e[l];
            }
            double ab = 0;
            for (uint32_t w = cur[a].supp; w; w &= w - 1) {
                size_t q = (size_t)__builtin_ctz(w);
                f->h += cur[a].pi[q] * h[q];
                ab += cur[a].pi[q] * fabs(h[q]);
            }
            f->eh = REL * ab;
            f->cerr = f->eh + f->slack + (f->e[k] + REL * fabs(f->g[k])) * c->zmax[k];
            c->nfac[k] += (size_t)useful;
        }
        partial *p = &c->part[k]; /* row d: no coordinate fixed */
        for (size_t f = 0; f < c->nfac[k]; f++) {
            p->v[c->d * c->nfac[k] + f] = c->fac[k][f].h;
            p->ab[c->d * c->nfac[k] + f] = fabs(c->fac[k][f].h);
            p->err[c->d * c->nfac[k] + f] = 0;
        }
    }
    free(cur);
    free(next);
    return st;
}

/* Z_l: |z'_l| over the simplex of the current base and chunk, from its
 * vertices (a in {lo, hi'}, r = 0 or all the budget on one r_i). 0 when
 * the chunk holds no point (La below lo). */
static int box(near *c)
{
    const rtp_task *tj = c->bt;
    size_t s = c->d;
    double ends[2] = {(double)c->lo, (double)c->hi};
    double la = c->k0 / c->eps;
    if (ends[0] > la * (1 + 1e-9))
        return 0;
    if (ends[1] > la)
        ends[1] = la;
    for (size_t l = 0; l < s; l++)
        c->zmax[l] = 0;
    for (int e = 0; e < 2; e++) {
        double a = ends[e], budget = c->k0 - c->eps * a;
        if (budget < 0)
            budget = 0;
        for (size_t spent = 0; spent <= c->no; spent++) { /* spent == no: r = 0 */
            double z[DIM_MAX];
            z[0] = (a - (double)dstar(tj)) / (double)tj->period_ns;
            for (size_t o = 0; o < c->no; o++) {
                const rtp_task *ti = &c->tasks[c->oth[o]];
                double ri = o == spent ? budget * (double)ti->period_ns / c->cd[c->oth[o]] : 0;
                z[o + 1] = (a - (double)dstar(ti) - ri) / (double)ti->period_ns;
            }
            for (size_t l = 0; l < s; l++) {
                double v = 0, ab = 0;
                for (size_t r = 0; r < s; r++) {
                    v += (double)c->vinv[l][r] * z[r];
                    ab += fabs((double)c->vinv[l][r] * z[r]);
                }
                v = fabs(v) * (1 + 1e-9) + 1e-9 * ab + 2;
                if (v > c->zmax[l])
                    c->zmax[l] = v;
            }
        }
    }
    for (size_t l = 0; l < s; l++)
        if (!(c->zmax[l] < 1e15))
            return -1; /* the reduction failed: decline */
    return 1;
}

/* ------------------------------------------------------------------- runs */

/* The run of a = D*_j + q_j T_j: is there a failure in [a, e)? Records the
 * smallest one (want_first) or any one in c->best. */
static rtp_status run(near *c, rtp_i128 at)
{
    if (at < c->lo || at > c->hi || (c->best > 0 && at >= c->best))
        return RTP_OK;
    rtp_ns a = (rtp_ns)at, e = c->ext ? a + 1 : INT64_MAX; /* ext: the point alone */
    for (size_t x = 0; x < c->s && !c->ext; x++) {
        const rtp_task *ti = &c->tasks[c->sel[x]];
        rtp_ns next = a + (ti->period_ns - floor_mod(a - dstar(ti), ti->period_ns));
        if (next < e)
            e = next;
    }
    if (c->best > 0 && e > c->best)
        e = c->best;
    /* Phi(t) + eps t over [a, e) is at least sum U_i min m_i + eps a, each
     * minimum 0 when a deadline of i falls inside; no failure when that
     * reaches K0 by more than its rounding */
    double sum = c->eps * (double)a, ab = sum;
    for (size_t i = 0; i < c->n; i++) {
        const rtp_task *ti = &c->tasks[i];
        rtp_ns m = floor_mod(a - dstar(ti), ti->period_ns);
        if (m + (e - 1 - a) >= ti->period_ns)
            continue;
        double term = c->cd[i] / (double)ti->period_ns * (double)m;
        sum += term;
        ab += term;
    }
    if (sum - c->k0 > 1e-9 * (ab + fabs(c->k0)) + 1)
        return RTP_OK;
    rtp_ns failed = 0;
    rtp_status st = c->in->check(c->in->check_ctx, a, e - 1, c->want_first, &failed);
    if (st != RTP_OK || failed == 0)
        return st;
    if (c->best == 0 || failed < c->best)
        c->best = failed;
    c->stop = !c->want_first;
    return RTP_OK;
}

/* ------------------------------------------------------------ enumeration */

/* Level j's facets' sums over the coordinates from m up (m <= d), z'_m..
 * fixed: dfs at level j reads row j + 2 and adds z'_{j+1}'s term itself.
 * Row m is row m + 1 plus z'_m's term, made when first asked for after z'_m
 * was set (rows above it first, when not current), so each fixed value
 * adds one term per facet of a level it reaches (a sum of all the terms
 * from j + 2 up per child was 10-15% of a search: the family's slowest
 * sets, callgrind). Row m read at stamp > tick[m] is current: z'_m was set
 * after every coordinate above it (dfs sets them top-down), so nothing
 * it depends on changed since it was made. The order of the terms differs
 * from a left-to-right sum, which REL * ab bounds all the same: at most
 * DIM_MAX = 10 products, summed in any order, err by at most (10 - 1) u + u
 * of their absolute sum (u = 2^-53: ~1.1e-15, against REL = 1e-13). */
static void sums_above(near *c, size_t j, size_t m)
{
    partial *p = &c->part[j];
    if (m >= c->d || p->stamp[m] > c->tick[m])
        return;
    sums_above(c, j, m + 1);
    size_t nf = c->nfac[j];
    const facet *fa = c->fac[j];
    double z = (double)c->z[m], za = fabs(z);
    const double *v1 = p->v + (m + 1) * nf, *a1 = p->ab + (m + 1) * nf,
                 *e1 = p->err + (m + 1) * nf;
    double *v = p->v + m * nf, *ab = p->ab + m * nf, *err = p->err + m * nf;
    for (size_t f = 0; f < nf; f++) {
        double t = fa[f].g[m] * z;
        v[f] = v1[f] + t;
        ab[f] = a1[f] + fabs(t);
        err[f] = e1[f] + fa[f].e[m] * za;
    }
    p->stamp[m] = ++c->clock;
}

static rtp_status dfs(near *c, size_t k)
{
    double lo = -c->zmax[k], hi = c->zmax[k];
    int top = k + 1 == c->d;
    double zu = top ? 0 : (double)c->z[k + 1], zua = fabs(zu); /* the level above's value */
    size_t row = k + 2 < c->d ? k + 2 : c->d, nf = c->nfac[k];
    sums_above(c, k, row);
    const partial *p = &c->part[k];
    for (size_t f = 0; f < nf; f++) {
        const facet *fa = &c->fac[k][f];
        double val = p->v[row * nf + f], fe = p->err[row * nf + f], ab = p->ab[row * nf + f];
        if (!top) {
            double t = fa->g[k + 1] * zu;
            val += t;
            ab += fabs(t);
            fe += fa->e[k + 1] * zua;
        }
        double err = fa->cerr + fe + REL * ab;
        double gk = fa->g[k];
        if (fabs(gk) <= fa->e[k]) { /* no hold on z'_k: a check of the rest */
            if (val + err + fabs(gk) * c->zmax[k] < 0)
                return RTP_OK;
            continue;
        }
        double bound = (-val - err) / gk, pad = 1e-6 + 1e-12 * fabs(bound);
        if (gk > 0 && bound - pad > lo)
            lo = bound - pad;
        if (gk < 0 && bound + pad < hi)
            hi = bound + pad;
        if (lo > hi)
            return RTP_OK;
    }
    for (double zk = ceil(lo); zk <= hi && !c->stop; zk++) {
        if (rtp_edf_spend(c->b, c->diag, "EDF lattice search did not finish"))
            return RTP_ELIMIT;
        c->z[k] = (int64_t)zk;
        c->tick[k] = ++c->clock;
        rtp_status st;
        if (k > 0) {
            st = dfs(c, k - 1);
        } else {
            rtp_i128 qj = 0; /* z = V z', its first coordinate */
            for (size_t l = 0; l < c->d; l++)
                qj += (rtp_i128)c->v[0][l] * c->z[l];
            st = run(c, (rtp_i128)dstar(c->bt) + qj * c->bt->period_ns);
        }
        if (st != RTP_OK)
            return st;
    }
    return RTP_OK;
}

/* Every run of base j starting in [lo, hi]. *declined = 1 when the
 * floating-point reduction cannot be trusted to be complete. */
static rtp_status base(near *c, int *declined)
{
    c->no = 0;
    c->bt = c->ext ? c->in->base : &c->tasks[c->sel[c->j]];
    for (size_t q = 0; q < c->s; q++)
        if (c->ext || q != c->j) {
            c->opos[c->no] = q;
            c->oth[c->no++] = c->sel[q];
        }
    c->d = c->no + 1;
    const rtp_task *tj = c->bt;
    size_t s = c->d;
    double b[DIM_MAX][DIM_MAX]; /* columns: the lattice in unit-simplex coordinates */
    double w = (double)(c->hi - c->lo) + 1, kk = c->k0 - c->eps * (double)c->lo;
    if (!(kk > 0))
        return RTP_OK;
    memset(b, 0, sizeof b);
    b[0][0] = (double)tj->period_ns / w;
    for (size_t o = 0; o < c->no; o++) {
        const rtp_task *ti = &c->tasks[c->oth[o]];
        double cc = c->cd[c->oth[o]];
        b[0][o + 1] = cc / (double)ti->period_ns * (double)tj->period_ns / kk;
        b[o + 1][o + 1] = -cc / kk;
    }
    if (!lll(c, b)) {
        *declined = 1;
        return RTP_OK;
    }
    int in = box(c);
    if (in <= 0) {
        *declined = in < 0;
        return RTP_OK;
    }
    double g[CON_MAX][DIM_MAX], h[CON_MAX];
    size_t m = constraints(c, g, h);
    rtp_status st = make_facets(c, m, g, h);
    if (st != RTP_OK)
        return rtp_oom(c->diag);
    c->clock = 0; /* the facets are new: every row is made afresh */
    memset(c->tick, 0, sizeof c->tick);
    return dfs(c, s - 1);
}

/* ----------------------------------------------------------------- driver */

/* S: the tasks with the largest C, as many as the estimate E asks; the
 * estimate's log into *log_e. RTP_ENOMEM. */
static rtp_status choose(near *c, double *log_e)
{
    size_t *idx = malloc(c->n * sizeof *idx);
    if (!idx)
        return RTP_ENOMEM;
    size_t dims = c->in->dims_max > 0 && c->in->dims_max < DIM_MAX ? c->in->dims_max : DIM_MAX;
    size_t cap = dims - (size_t)c->ext; /* ext: the base takes a dimension */
    size_t top = c->n < cap ? c->n : cap;
    for (size_t i = 0; i < c->n; i++)
        idx[i] = i;
    /* partial selection of the top C's (n may be large) */
    for (size_t x = 0; x < top; x++)
        for (size_t y = x + 1; y < c->n; y++)
            if (c->cd[idx[y]] > c->cd[idx[x]]) {
                size_t t = idx[x];
                idx[x] = idx[y];
                idx[y] = t;
            }
    double kk = c->k0 - c->eps * (double)c->t_lo, logc = 0, usum = 0, best = INFINITY;
    double range = (double)c->in->t_cap - (double)c->t_lo;
    if (c->eps > 0 && kk / c->eps < range)
        range = kk / c->eps;
    if (!(range > 1))
        range = 1;
    size_t pick = 1;
    for (size_t s = 1; s <= top; s++) {
        const rtp_task *t = &c->tasks[idx[s - 1]];
        logc += log(c->cd[idx[s - 1]]);
        usum += c->cd[idx[s - 1]] / (double)t->period_ns;
        /* over the range R = min(La, t_cap) - t_lo: R K^(s-1) sum U / ((s-1)! prod C)
         * (bases in S), R K^s / (T_b s! prod C) (one base outside) */
        /* lgamma_r, not lgamma: lgamma writes the sign to libm's global
         * signgam, a data race between threads (audit rev13c, TSan); the
         * same values */
        int sign;
        double e = c->ext ? log(range) - log((double)c->in->base->period_ns) +
                                (double)s * log(kk) - lgamma_r((double)s + 1, &sign) - logc
                          : log(range) + (double)(s - 1) * log(kk) -
                                lgamma_r((double)s, &sign) - logc + log(usum);
        if (e < best) {
            best = e;
            pick = s;
        }
        if (e <= TARGET_LOG)
            break;
    }
    c->s = pick;
    *log_e = best;
    memcpy(c->sel, idx, pick * sizeof *idx);
    free(idx);
    return RTP_OK;
}

void rtp_edf_near_terms(const rtp_task *tasks, size_t n, mpq_srcptr alpha, rtp_ns per_job_ns,
                        mpq_t k0, mpq_t eps, double *cd)
{
    rtp_edf_near_in in = {.tasks = tasks, .n = n, .alpha = alpha, .per_job_ns = per_job_ns};
    mpq_t u, x;
    mpq_inits(u, x, NULL);
    mpq_set_ui(eps, 1, 1);
    mpq_set_ui(k0, 0, 1);
    rtp_ns bmax = 0;
    for (size_t i = 0; i < n; i++) {
        const rtp_task *t = &tasks[i];
        cprime(&in, i, u);
        if (cd)
            cd[i] = mpq_get_d(u);
        mpq_set_si(x, t->period_ns, 1);
        mpq_div(u, u, x);
        mpq_sub(eps, eps, u);
        mpq_set_si(x, t->period_ns - dstar(t), 1);
        mpq_mul(x, x, u);
        mpq_add(k0, k0, x);
        if (t->blocking_ns > bmax)
            bmax = t->blocking_ns;
    }
    mpq_set_si(x, bmax, 1);
    mpq_add(k0, k0, x);
    mpq_clears(u, x, NULL);
}

/* The exact terms: eps = 1 - U, K0, t_lo. 0 when K0 <= 0 (no failure at
 * t >= t_lo). */
static int terms(near *c)
{
    rtp_edf_near_terms(c->tasks, c->n, c->in->alpha, c->in->per_job_ns, c->k0_q, c->eps_q,
                       c->cd);
    rtp_ns t_b = 0;
    c->t_lo = 1;
    for (size_t i = 0; i < c->n; i++) {
        const rtp_task *t = &c->tasks[i];
        if (t->blocking_ns > 0 && dstar(t) > t_b)
            t_b = dstar(t);
        if (dstar(t) - t->period_ns > c->t_lo)
            c->t_lo = dstar(t) - t->period_ns;
    }
    if (t_b > c->t_lo)
        c->t_lo = t_b;
    if (c->in->k0) { /* the caller's relaxation */
        mpq_set(c->k0_q, c->in->k0);
        mpq_set(c->eps_q, c->in->eps);
    }
    c->eps = mpq_get_d(c->eps_q);
    c->k0 = mpq_get_d(c->k0_q);
    return mpq_sgn(c->k0_q) > 0;
}

/* La = K0 / eps rounded up, or RTP_NS_LIMIT + 1 when it passes 2^62. */
static rtp_ns la_ceil(near *c)
{
    if (mpq_sgn(c->eps_q) <= 0)
        return RTP_NS_LIMIT + 1;
    mpq_t q;
    mpz_t z;
    mpq_init(q);
    mpz_init(z);
    mpq_div(q, c->k0_q, c->eps_q);
    mpz_cdiv_q(z, mpq_numref(q), mpq_denref(q));
    rtp_ns la = mpz_cmp_si(z, RTP_NS_LIMIT) <= 0 ? mpz_get_si(z) : RTP_NS_LIMIT + 1;
    mpz_clear(z);
    mpq_clear(q);
    return la;
}

/* The end of the chunk that holds about the fraction f of the candidates
 * past t_lo (see the top), as a time in (from, to]. */
static rtp_ns chunk_end(const near *c, double f, rtp_ns from, rtp_ns to)
{
    if (f >= 1)
        return to;
    double kk = c->k0 - c->eps * (double)c->t_lo, x;
    if (c->eps * ((double)to - (double)c->t_lo) < kk / 64) /* about a prism: linear */
        x = (double)c->t_lo + f * ((double)to - (double)c->t_lo);
    else
        x = (c->k0 - kk * pow(1 - f, 1.0 / (double)c->s)) / c->eps;
    if (!(x < (double)to))
        return to;
    rtp_ns end = (rtp_ns)x;
    return end > from ? end : from + 1;
}

/* S's exact terms at in->alpha (near's cs, us, usum, wsum). */
static void s_terms(near *c)
{
    mpq_t q;
    mpq_init(q);
    mpq_set_ui(c->usum, 0, 1);
    mpq_set_ui(c->wsum, 0, 1);
    for (size_t x = 0; x < c->s; x++) {
        const rtp_task *t = &c->tasks[c->sel[x]];
        cprime(c->in, c->sel[x], c->cs[x]);
        mpq_set_si(q, t->period_ns, 1);
        mpq_div(c->us[x], c->cs[x], q);
        mpq_add(c->usum, c->usum, c->us[x]);
        mpq_set_si(q, dstar(t), 1);
        mpq_mul(q, q, c->us[x]);
        mpq_add(c->wsum, c->wsum, q);
    }
    mpq_clear(q);
}

/* The caller lowered alpha (the factor's search, in->refresh): eps and K0
 * come from in->eps and in->k0, and every term made from C' is made again
 * at the new alpha, the doubles cd[] that run()'s filter and box() read
 * and S's exact terms the budget rows read. With C' left at the old, larger
 * alpha, a budget row pairs the new eps with the old U' and can leave out a
 * run that fails at the new alpha (review rev11b: a 2.1e-5 relative gap,
 * against margins of 1e-13 and 1e-6; no answer was seen to change). */
static void refresh_terms(near *c)
{
    mpq_t k0, eps;
    mpq_inits(k0, eps, NULL);
    rtp_edf_near_terms(c->tasks, c->n, c->in->alpha, c->in->per_job_ns, k0, eps, c->cd);
    mpq_clears(k0, eps, NULL);
    s_terms(c);
    mpq_set(c->k0_q, c->in->k0);
    mpq_set(c->eps_q, c->in->eps);
    c->k0 = mpq_get_d(c->k0_q);
    c->eps = mpq_get_d(c->eps_q);
}

rtp_status rtp_edf_near(const rtp_edf_near_in *in, rtp_edf_near_result *out, rtp_diag *diag)
{
    memset(out, 0, sizeof *out);
    near c;
    memset(&c, 0, sizeof c);
    c.in = in;
    c.ext = in->base != NULL;
    c.tasks = in->tasks;
    c.n = in->n;
    c.want_first = in->want_first;
    c.b = in->b;
    c.diag = diag;
    mpq_inits(c.eps_q, c.k0_q, c.usum, c.wsum, NULL);
    for (size_t k = 0; k < DIM_MAX; k++) {
        mpq_init(c.cs[k]);
        mpq_init(c.us[k]);
    }
    rtp_status st = RTP_OK;
    if (!(c.cd = malloc((c.n ? c.n : 1) * sizeof *c.cd))) {
        st = rtp_oom(diag);
        goto done;
    }
    int open = terms(&c);
    rtp_ns la = open ? la_ceil(&c) : c.t_lo, cap = in->t_cap;
    double log_e = 0;
    out->bound = la <= RTP_NS_LIMIT ? la : 0;
    if (open && (st = choose(&c, &log_e)) != RTP_OK) {
        st = rtp_oom(diag);
        goto done;
    }
    out->dims = c.s;
    if (open)
        s_terms(&c);
    /* the region below t_lo + min_S T by QPA (all of it when K0 <= 0) */
    rtp_ns x = c.t_lo, failed = 0;
    for (size_t q = 0; open && q < c.s; q++) {
        rtp_ns t = c.tasks[c.sel[q]].period_ns;
        if (q == 0 || c.t_lo + t < x)
            x = c.t_lo + t; /* t_lo, T <= 2^62: no overflow */
    }
    if (x > la)
        x = la;
    if (x > cap)
        x = cap;
    if (x < c.t_lo)
        x = c.t_lo; /* below t_lo La bounds nothing */
    if ((st = in->check(in->check_ctx, 1, x, c.want_first, &failed)) != RTP_OK)
        goto done;
    if (failed > 0) {
        out->decided = 1;
        out->failed = failed;
        goto done;
    }
    /* the runs starting in [t_lo, min(La, t_cap)), chunk by chunk */
    rtp_ns end = la < cap ? la : cap;
    int declined = 0;
    double f = exp(log(64.0) - log_e), prev = f / 8; /* the fraction up to the chunk's end, before */
    for (rtp_ns from = c.t_lo; open && from < end && !c.stop && !declined;) {
        if (in->refresh && in->refresh(in->check_ctx)) {
            refresh_terms(&c);
            if (mpq_sgn(c.k0_q) <= 0)
                break; /* nothing can fail any more */
            rtp_ns la2 = la_ceil(&c);
            if (la2 < end)
                end = la2;
            if (la2 < la)
                la = la2;
            if (from >= end)
                break;
        }
        if (c.best > 0 && c.best < end)
            end = c.best;
        /* the chunk's expected candidates past the budget left: decline (a
         * first failure, when there is one, usually lies in the chunks
         * before; what is left to the caller is then no worse) */
        double left = (double)(c.b->max > c.b->used ? c.b->max - c.b->used : 0);
        double est = ((f < 1 ? f : 1) - prev) * exp(log_e);
        if (from > c.t_lo && est > left) {
            declined = 1;
            break;
        }
        rtp_ns to = chunk_end(&c, f, from, end);
        c.lo = from;
        c.hi = to - 1;
        for (c.j = 0; c.j < (c.ext ? 1 : c.s) && !c.stop && !declined && st == RTP_OK; c.j++)
            st = base(&c, &declined);
        if (st != RTP_OK)
            goto done;
        from = to;
        /* the next chunk by the caller's growth while its candidates
         * fit the budget left, else by 8 */
        double next = f * (in->growth > 8 ? in->growth : 8);
        left = (double)(c.b->max > c.b->used ? c.b->max - c.b->used : 0);
        if (next > f * 8 && ((next < 1 ? next : 1) - f) * exp(log_e) > left)
            next = f * 8;
        prev = f;
        f = next;
    }
    out->decided = !declined && (c.best > 0 || la <= cap);
    out->failed = c.best;
    out->clear_below = declined ? 0 : end;
done:
    for (size_t k = 0; k < DIM_MAX; k++) {
        free(c.fac[k]);
        free(c.part[k].v);
    }
    free(c.cd);
    for (size_t k = 0; k < DIM_MAX; k++) {
        mpq_clear(c.cs[k]);
        mpq_clear(c.us[k]);
    }
    mpq_clears(c.eps_q, c.k0_q, c.usum, c.wsum, NULL);
    return st;
}
