#!/usr/bin/env python3
"""bench/semi_sweep_plot.py - draws docs/img/semi_sweep.svg from the CSV of
bench/bench_semi_sweep (stdlib only, no plotting library).

usage: semi_sweep_plot.py SWEEP.csv OUT.svg LOADAVG

Acceptance ratio against the total utilization on 4 CPUs, one line per
method with its 95% Wilson score interval (bench/locks_sweep_plot.py's) as a
band; the semi line is labelled with how many accepted plans kept a task
migrating; LOADAVG (the load average of the run) goes into the caption.
"""
import csv
import sys

from locks_sweep_plot import wilson

COLOURS = {"ffd": "#1f77b4", "best": "#ff7f0e", "semi": "#2ca02c", "gfp": "#d62728"}
LABELS = {"ffd": "partitioned FP, first fit decreasing (OPA per CPU)",
          "best": "partitioned FP, best of every fit x order",
          "semi": "semi-partitioned FP (--method semi: APA masks [GCB13])",
          "gfp": "global FP (DM; BC07 / Guan et al. RTA)"}


def main():
    rows = list(csv.DictReader(open(sys.argv[1])))
    load = sys.argv[3] if len(sys.argv) > 3 else "?"
    methods = []
    for r in rows:
        if r["method"] not in methods:
            methods.append(r["method"])
    xs = sorted({float(r["total_util"]) for r in rows})
    W, H, L, R, T, B = 760, 470, 70, 20, 40, 150
    pw, ph = W - L - R, H - T - B

    def px(x):
        return L + (x - xs[0]) / (xs[-1] - xs[0]) * pw

    def py(y):
        return T + (1 - y) * ph

    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
           'font-family="sans-serif" font-size="12">' % (W, H),
           '<rect width="100%" height="100%" fill="white"/>']
    for y in (0, 0.25, 0.5, 0.75, 1):
        out.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#ddd"/>' %
                   (L, py(y), L + pw, py(y)))
        out.append('<text x="%d" y="%.1f" text-anchor="end">%.2f</text>' % (L - 6, py(y) + 4, y))
    for x in xs:
        out.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#eee"/>' %
                   (px(x), T, px(x), T + ph))
        out.append('<text x="%.1f" y="%d" text-anchor="middle">%.1f</text>' %
                   (px(x), T + ph + 16, x))
    out.append('<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="black"/>' %
               (L, T, pw, ph))
    out.append('<text x="%.1f" y="%d" text-anchor="middle">total utilization on 4 CPUs '
               '(capacity 0.9 per CPU for the partitioned and semi plans)</text>' %
               (L + pw / 2, T + ph + 34))
    out.append('<text transform="translate(18,%.1f) rotate(-90)" text-anchor="middle">'
               'acceptance ratio</text>' % (T + ph / 2))
    n, migrating = 0, 0
    for m in methods:
        pts = [(float(r["total_util"]), int(r["accepted"]), int(r["total"]))
               for r in rows if r["method"] == m]
        n = pts[0][2]
        if m == "semi":
            migrating = sum(int(r["migrating"]) for r in rows if r["method"] == m)
        band = [(px(x), py(wilson(k, t)[1])) for x, k, t in pts]
        band += [(px(x), py(wilson(k, t)[0])) for x, k, t in reversed(pts)]
        out.append('<polygon points="%s" fill="%s" fill-opacity="0.18" stroke="none"/>' %
                   (" ".join("%.1f,%.1f" % p for p in band), COLOURS.get(m, "gray")))
        line = " ".join("%.1f,%.1f" % (px(x), py(k / t)) for x, k, t in pts)
        out.append('<polyline points="%s" fill="none" stroke="%s" stroke-width="2"/>' %
                   (line, COLOURS.get(m, "gray")))
        for x, k, t in pts:
            out.append('<circle cx="%.1f" cy="%.1f" r="3" fill="%s"/>' %
                       (px(x), py(k / t), COLOURS.get(m, "gray")))
    out.append('<text x="%d" y="22" font-size="14">Partitioned vs semi-partitioned vs global '
               'FP: 10 tasks (u &lt;= 1/2, D = T, 10-100 ms), 4 CPUs</text>' % L)
    for i, m in enumerate(methods):
        y = T + ph + 56 + 16 * i
        label = LABELS.get(m, m)
        if m == "semi":
            label += " - %d accepted plans kept a task migrating" % migrating
        out.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="3"/>' %
                   (L, y - 4, L + 24, y - 4, COLOURS.get(m, "gray")))
        out.append('<text x="%d" y="%d">%s</text>' % (L + 30, y, label))
    out.append('<text x="%d" y="%d" fill="#555">%d sets per point (seed 28), bands: 95%% '
               'Wilson intervals; load average %s</text>' % (L, H - 8, n, load))
    out.append("</svg>")
    open(sys.argv[2], "w").write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
