/* deploy/script_body.h — internal to deploy/script.c: the fixed shell code
 * of the launch script, the file deploy/launch.sh (below its preamble)
 * compiled in by cmake/embed.cmake. It expects the generated variables NAME,
 * POLICY, WANT, CG_MODE, CG_ROOT, STATE_DIR, BINS, DL_PERIOD_MIN_NS,
 * DL_PERIOD_MAX_NS and the function for_each_task. */
#ifndef RTP_DEPLOY_SCRIPT_BODY_H
#define RTP_DEPLOY_SCRIPT_BODY_H

extern const char rtp_script_body[];

#endif
