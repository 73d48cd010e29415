/* solver/sensitivity_internal.h — what the three files of the sensitivity
 * module share (not installed): the computation's context, exact rational
 * helpers and the two closed forms. See solver/sensitivity.c. */
#ifndef RTP_SENSITIVITY_INTERNAL_H
#define RTP_SENSITIVITY_INTERNAL_H

#include "solver/sensitivity.h"

#include "models/arith.h"

#include <gmp.h>

#define BIG ((rtp_i128)1 << 120)

typedef struct sctx {
    const rtp_task *e; /* wcet_ns = declared w, jitter_ns = J' */
    size_t n;
    rtp_ns c;          /* 2 x context switch */
    uint64_t used, max;
    rtp_diag *diag;
} sctx;

/* One step of the computation; RTP_ELIMIT past s->max. */
rtp_status rtp_sens_spend(sctx *s);
/* RTP_ELIMIT: a demand passes 2^120. */
rtp_status rtp_sens_too_big(sctx *s);
/* q = num / den (den > 0), canonical. */
void rtp_sens_qset(mpq_t q, rtp_i128 num, rtp_i128 den);
void rtp_sens_zset(mpz_t z, rtp_i128 v);
/* alpha_U of the tasks with mask[i] set (all when NULL): (1 - sum c / T) /
 * (sum w / T); 0 when the numerator is <= 0 (no alpha > 0 fits). */
int rtp_sens_util_alpha(const sctx *s, const char *mask, mpq_t out);
/* alpha rounded down to 9 significant digits, trailing zeros dropped. */
void rtp_sens_format_decimal(const mpq_t a, char *buf, size_t size);

/* alpha* under EDF (sensitivity_edf.c); *exists = 0 when none > 0. */
rtp_status rtp_sens_edf(sctx *s, mpq_t out, int *exists);
/* alpha* under FP with priorities prio[] (none equal), and under OPA
 * (sensitivity_fp.c). */
rtp_status rtp_sens_fp_fixed(sctx *s, const int *prio, mpq_t out, int *exists);
rtp_status rtp_sens_fp_opa(sctx *s, mpq_t out, int *exists);

#endif
