#!/usr/bin/env python3
"""bench/locks_sweep_plot.py - draws docs/img/locks_sweep.svg from the CSV of
bench/bench_locks_sweep (stdlib only, no plotting library).

usage: locks_sweep_plot.py SWEEP.csv OUT.svg LOADAVG

Acceptance ratio against the longest critical section (log axis), one line
per method with its 95% Wilson score interval as a band (bench/sweep_svg.py);
LOADAVG (the load average of the run) goes into the caption.
"""
import math
import sys

from sweep_svg import chart, read

COLOURS = {"ffd-oblivious": "#d62728", "ilp-oblivious": "#9467bd", "ffd": "#1f77b4",
           "sfd": "#2ca02c", "best": "#ff7f0e"}
LABELS = {"ffd-oblivious": "ffd, lock-oblivious (placement ignores the locks)",
          "ilp-oblivious": "ILP, lock-oblivious (exact, locks ignored)",
          "ffd": "ffd, lock-aware (every CPU re-checked)",
          "sfd": "sfd, Greedy Slacker",
          "best": "best (every fit x order, sf included)"}


def main():
    rows, methods = read(sys.argv[1])
    load = sys.argv[3] if len(sys.argv) > 3 else "?"
    xs = sorted({int(r["cs_max_us"]) for r in rows})
    lo, hi = math.log10(xs[0]), math.log10(xs[-1])
    series = [(m, [(int(r["cs_max_us"]), int(r["accepted"]), int(r["total"]))
                   for r in rows if r["method"] == m]) for m in methods]
    n = series[-1][1][0][2]
    svg = chart(series, xs, lambda x: (math.log10(x) - lo) / (hi - lo),
                lambda x: x if x < 1000 else "%gk" % (x / 1000),
                "longest critical section (us; sections drawn in [max/2, max])",
                "Partitioned FP (OPA per CPU), MSRP + PCP: 12 tasks, U = 2.6 on 4 CPUs, 4 "
                "resources", LABELS, COLOURS,
                "%d sets per point (seed 24), bands: 95%% Wilson intervals; load average %s" %
                (n, load))
    open(sys.argv[2], "w").write(svg)


if __name__ == "__main__":
    main()
