/* solver/global.h — sufficient schedulability tests for global scheduling of
 * one cluster of m identical CPUs: global EDF (GFB, BAK, BCL, Bertogna &
 * Cirinei's response-time bound) and global FP (Bertogna & Cirinei 2007 RTA,
 * DA/DA-LC for OPA). Each test states its preconditions; outside them it is
 * "not applicable", never a verdict. m == 1 uses the exact uniprocessor tests.
 * Times are rtp_ns. Pure: no globals, safe from many threads. */
#ifndef RTP_GLOBAL_H
#define RTP_GLOBAL_H

#include "solver/test.h"

/* Global EDF on test->cpus CPUs: accepted when any enabled test accepts;
 * result->accepted_by names it ("gfb", "bak", "bcl", "rta"), else NULL. */
rtp_status rtp_global_edf(const rtp_test *test, const rtp_task *tasks, size_t n,
                          rtp_test_result *result, rtp_diag *diag);

/* Global FP on test->cpus CPUs with priorities by test->priority (DM, RM or
 * OPA with an OPA-compatible test); result->priority/response_time filled
 * when given. */
rtp_status rtp_global_fp(const rtp_test *test, const rtp_task *tasks, size_t n,
                         rtp_test_result *result, rtp_diag *diag);

#endif
