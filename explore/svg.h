/* explore/svg.h — the acceptance plot of a sweep as a self-contained SVG file
 * (no plotting library): acceptance ratio against utilization per CPU, one
 * line (distinct colour, dash and marker) per method, one panel per
 * (policy, tasks, cpus, deadline model), panels in a grid with one column per
 * policy, shared legend. Ownership: returns malloc'd text (caller frees),
 * NULL when out of memory. Thread-safety: pure. */
#ifndef RTP_SVG_H
#define RTP_SVG_H

#include "explore/explore.h"

/* cells[point * n_policies * n_methods + policy * n_methods + method];
 * points with have[point] == 0 are left out. */
char *rtp_svg_acceptance(const rtp_sweep *sw, const rtp_explore_cell *cells,
                         const unsigned char *have);

#endif
