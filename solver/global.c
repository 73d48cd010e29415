/* TEMPORARY stub: global tests are being written (issue 8). */
#include "solver/global.h"

rtp_status rtp_global_edf(const rtp_test *test, const rtp_task *tasks, size_t n,
                          rtp_test_result *result, rtp_diag *diag)
{
    (void)test; (void)tasks; (void)n; (void)result;
    return rtp_diag_set(diag, RTP_ENOTIMPL, "", "global EDF tests are not implemented yet");
}

rtp_status rtp_global_fp(const rtp_test *test, const rtp_task *tasks, size_t n,
                         rtp_test_result *result, rtp_diag *diag)
{
    (void)test; (void)tasks; (void)n; (void)result;
    return rtp_diag_set(diag, RTP_ENOTIMPL, "", "global FP tests are not implemented yet");
}
