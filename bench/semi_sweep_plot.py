#!/usr/bin/env python3
"""bench/semi_sweep_plot.py - draws docs/img/semi_sweep.svg from the CSV of
bench/bench_semi_sweep (stdlib only, no plotting library).

usage: semi_sweep_plot.py SWEEP.csv OUT.svg LOADAVG

Acceptance ratio against the total utilization on 4 CPUs, one line per
method with its 95% Wilson score interval as a band (bench/sweep_svg.py);
the semi line's label says how many accepted plans kept a task migrating;
LOADAVG (the load average of the run) goes into the caption.
"""
import sys

from sweep_svg import chart, read

COLOURS = {"ffd": "#1f77b4", "best": "#ff7f0e", "semi": "#2ca02c", "gfp": "#d62728"}
LABELS = {"ffd": "partitioned FP, first fit decreasing (OPA per CPU)",
          "best": "partitioned FP, best of every fit x order",
          "semi": "semi-partitioned FP (--method semi: APA masks [GCB13])",
          "gfp": "global FP (DM; BC07 / Guan et al. RTA)"}


def main():
    rows, methods = read(sys.argv[1])
    load = sys.argv[3] if len(sys.argv) > 3 else "?"
    xs = sorted({float(r["total_util"]) for r in rows})
    series = [(m, [(float(r["total_util"]), int(r["accepted"]), int(r["total"]))
                   for r in rows if r["method"] == m]) for m in methods]
    migrating = sum(int(r["migrating"]) for r in rows if r["method"] == "semi")
    labels = dict(LABELS)
    labels["semi"] += " - %d accepted plans kept a task migrating" % migrating
    n = series[-1][1][0][2]
    svg = chart(series, xs, lambda x: (x - xs[0]) / (xs[-1] - xs[0]), lambda x: "%.1f" % x,
                "total utilization on 4 CPUs (capacity 0.9 per CPU for the partitioned and "
                "semi plans)",
                "Partitioned vs semi-partitioned vs global FP: 10 tasks (u &lt;= 1/2, D = T, "
                "10-100 ms), 4 CPUs", labels, COLOURS,
                "%d sets per point (seed 28), bands: 95%% Wilson intervals; load average %s" %
                (n, load))
    open(sys.argv[2], "w").write(svg)


if __name__ == "__main__":
    main()
