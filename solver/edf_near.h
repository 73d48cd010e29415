/* solver/edf_near.h — internal to solver/ (not installed): the exact EDF
 * test just below U' = 1, where the testing interval (La ~ 1 / (1 - U'), the
 * busy period ~ the hyperperiod) is far too long for QPA to walk. A failing
 * t needs the deadlines of the tasks with the largest C' to fall just before
 * t at once, a simultaneous Diophantine approximation [ER10]; the search
 * enumerates the points of a lattice [LLL82] in a simplex and confirms each
 * candidate exactly (solver/edf_near.c). Tasks are effective tasks (C', D* =
 * D - J'). Units: ns. Pure and thread-safe; allocates only scratch it frees. */
#ifndef RTP_EDF_NEAR_H
#define RTP_EDF_NEAR_H

#include "solver/edf_internal.h"

typedef struct rtp_edf_near_result {
    int decided;        /* 1: `failed` is exact */
    rtp_ns failed;      /* 0: no t > 0 with h(t) > t; else the smallest such t
                         * (want_first) or one such t */
    rtp_ns clear_below; /* decided = 0: no failure below this (La past 2^62) */
    rtp_ns bound;       /* La rounded up (0 when it passes 2^62), for messages */
    size_t dims;        /* tasks in the lattice */
} rtp_edf_near_result;

/* Preconditions: every D* >= 1 and U' < 1 exactly. Every step budget of b
 * counts (a lattice node or a QPA step is one). RTP_ELIMIT (diag says what
 * was searched) when the budget runs out; RTP_OK with decided = 0 when the
 * method does not apply (La past 2^62 with no failure below it, or a
 * lattice the floating-point reduction cannot handle): the caller falls back
 * to the busy period. */
rtp_status rtp_edf_near(const rtp_task *tasks, size_t n, int want_first, rtp_edf_budget *b,
                        rtp_edf_near_result *out, rtp_diag *diag);

#endif
