"""bench/sweep_svg.py - the acceptance-ratio chart of the sweep plots
(bench/semi_sweep_plot.py) as SVG text, stdlib
only: one line per method with its 95% Wilson score interval as a band.
"""
import csv
import math


def read(path):
    """The CSV's rows and its methods in order of appearance."""
    rows = list(csv.DictReader(open(path)))
    methods = []
    for r in rows:
        if r["method"] not in methods:
            methods.append(r["method"])
    return rows, methods


def wilson(k, n, z=1.96):
    if n == 0:
        return 0.0, 0.0
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, c - h), min(1.0, c + h)


def chart(series, xs, unit, tick, xlabel, title, labels, colours, caption):
    """series: [(method, [(x, accepted, total), ...])]; unit(x) places x in
    [0, 1] on the axis, tick(x) is its label; labels and colours by method."""
    W, H, L, R, T, B = 760, 470, 70, 20, 40, 150
    pw, ph = W - L - R, H - T - B

    def px(x):
        return L + unit(x) * pw

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
                   (px(x), T + ph + 16, tick(x)))
    out.append('<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="black"/>' %
               (L, T, pw, ph))
    out.append('<text x="%.1f" y="%d" text-anchor="middle">%s</text>' %
               (L + pw / 2, T + ph + 34, xlabel))
    out.append('<text transform="translate(18,%.1f) rotate(-90)" text-anchor="middle">'
               'acceptance ratio</text>' % (T + ph / 2))
    for m, pts in series:
        band = [(px(x), py(wilson(k, t)[1])) for x, k, t in pts]
        band += [(px(x), py(wilson(k, t)[0])) for x, k, t in reversed(pts)]
        out.append('<polygon points="%s" fill="%s" fill-opacity="0.18" stroke="none"/>' %
                   (" ".join("%.1f,%.1f" % p for p in band), colours.get(m, "gray")))
        line = " ".join("%.1f,%.1f" % (px(x), py(k / t)) for x, k, t in pts)
        out.append('<polyline points="%s" fill="none" stroke="%s" stroke-width="2"/>' %
                   (line, colours.get(m, "gray")))
        for x, k, t in pts:
            out.append('<circle cx="%.1f" cy="%.1f" r="3" fill="%s"/>' %
                       (px(x), py(k / t), colours.get(m, "gray")))
    out.append('<text x="%d" y="22" font-size="14">%s</text>' % (L, title))
    for i, (m, _) in enumerate(series):
        y = T + ph + 56 + 16 * i
        out.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="3"/>' %
                   (L, y - 4, L + 24, y - 4, colours.get(m, "gray")))
        out.append('<text x="%d" y="%d">%s</text>' % (L + 30, y, labels.get(m, m)))
    out.append('<text x="%d" y="%d" fill="#555">%s</text>' % (L, H - 8, caption))
    out.append("</svg>")
    return "\n".join(out) + "\n"
