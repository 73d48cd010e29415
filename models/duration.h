/* models/duration.h — exact parsing and printing of times (docs/spec.md "Times").
 *
 * "<digits>[.<digits>]<unit>" with unit ns|us|ms|s becomes integer nanoseconds
 * with no floating point: the decimal is scaled by the unit and must come out
 * whole ("1.5ns" is an error, "16.666666ms" is 16666666 ns). Results above
 * RTP_NS_LIMIT are errors. Pure and thread-safe; no allocation. */
#ifndef RTP_DURATION_H
#define RTP_DURATION_H

#include "models/base.h"

/* Nanoseconds per unit name "ns", "us", "ms", "s"; 0 for an unknown name. */
rtp_ns rtp_duration_unit(const char *name);

/* Parses a time string. On error returns RTP_EINPUT with a short reason in
 * `why` (e.g. "not a whole number of ns"); *out is untouched. Zero is
 * accepted here (callers decide whether it is allowed). */
rtp_status rtp_duration_parse(const char *text, rtp_ns *out, char *why,
                              size_t why_size);

/* Scales a whole count of `unit_ns` (a bare JSON integer) to ns, rejecting
 * results above RTP_NS_LIMIT. */
rtp_status rtp_duration_scale(int64_t count, rtp_ns unit_ns, rtp_ns *out);

/* Human form with the largest unit that keeps it exact: 5000000 -> "5ms",
 * 16666666 -> "16.666666ms", 1500 -> "1.5us". */
void rtp_duration_format(rtp_ns value, char *buf, size_t size);

#endif
