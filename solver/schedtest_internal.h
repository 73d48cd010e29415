/* solver/schedtest_internal.h — what the FP entry points of solver/schedtest.c and
 * solver/global.c share (not installed): the arrays a test fills. */
#ifndef RTP_SCHEDTEST_INTERNAL_H
#define RTP_SCHEDTEST_INTERNAL_H

#include "solver/schedtest.h"

/* The priority and response-time arrays of n entries a test fills: the
 * caller's (result->priority, result->response_time) where given, else
 * scratch. RTP_ENOMEM (nothing left allocated) when scratch cannot be had;
 * rtp_test_arrays_free frees only the scratch. */
rtp_status rtp_test_arrays(const rtp_test_result *result, size_t n, int **priority,
                           rtp_ns **response, rtp_diag *diag);
void rtp_test_arrays_free(const rtp_test_result *result, int *priority, rtp_ns *response);

#endif
