#!/usr/bin/env python3
"""bench/locks_sweep_plot.py - draws docs/img/locks_sweep.svg from the CSV of
bench/bench_locks_sweep (stdlib only, no plotting library).

usage: locks_sweep_plot.py SWEEP.csv OUT.svg LOADAVG

Acceptance ratio against the longest critical section (log axis), one line
per method with its 95% Wilson score interval as a band; LOADAVG (the load
average of the run) goes into the caption.
"""
import csv
import math
import sys

COLOURS = {"ffd-oblivious": "#d62728", "ilp-oblivious": "#9467bd", "ffd": "#1f77b4",
           "sfd": "#2ca02c", "best": "#ff7f0e"}
LABELS = {"ffd-oblivious": "ffd, lock-oblivious (placement ignores the locks)",
          "ilp-oblivious": "ILP, lock-oblivious (exact, locks ignored)",
          "ffd": "ffd, lock-aware (every CPU re-checked)",
          "sfd": "sfd, Greedy Slacker",
          "best": "best (every fit x order, sf included)"}


def wilson(k, n, z=1.96):
    if n == 0:
        return 0.0, 0.0
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, c - h), min(1.0, c + h)


def main():
    rows = list(csv.DictReader(open(sys.argv[1])))
    load = sys.argv[3] if len(sys.argv) > 3 else "?"
    methods = []
    for r in rows:
        if r["method"] not in methods:
            methods.append(r["method"])
    xs = sorted({int(r["cs_max_us"]) for r in rows})
    W, H, L, R, T, B = 760, 470, 70, 20, 40, 150
    pw, ph = W - L - R, H - T - B
    lo, hi = math.log10(xs[0]), math.log10(xs[-1])

    def px(x):
        return L + (math.log10(x) - lo) / (hi - lo) * pw

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
        out.append('<text x="%.1f" y="%d" text-anchor="middle">%s</text>' %
                   (px(x), T + ph + 16, x if x < 1000 else "%gk" % (x / 1000)))
    out.append('<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="black"/>' %
               (L, T, pw, ph))
    out.append('<text x="%.1f" y="%d" text-anchor="middle">longest critical section '
               '(us; sections drawn in [max/2, max])</text>' % (L + pw / 2, T + ph + 34))
    out.append('<text transform="translate(18,%.1f) rotate(-90)" text-anchor="middle">'
               'acceptance ratio</text>' % (T + ph / 2))
    n = 0
    for m in methods:
        pts = [(int(r["cs_max_us"]), int(r["accepted"]), int(r["total"]))
               for r in rows if r["method"] == m]
        n = pts[0][2]
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
    out.append('<text x="%d" y="22" font-size="14">Partitioned FP (OPA per CPU), MSRP + '
               'PCP: 12 tasks, U = 2.6 on 4 CPUs, 4 resources</text>' % L)
    for i, m in enumerate(methods):
        y = T + ph + 56 + 16 * i
        out.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="3"/>' %
                   (L, y - 4, L + 24, y - 4, COLOURS.get(m, "gray")))
        out.append('<text x="%d" y="%d">%s</text>' % (L + 30, y, LABELS.get(m, m)))
    out.append('<text x="%d" y="%d" fill="#555">%d sets per point (seed 24), bands: 95%% '
               'Wilson intervals; load average %s</text>' % (L, H - 8, n, load))
    out.append("</svg>")
    open(sys.argv[2], "w").write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
