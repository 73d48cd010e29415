/* explore/svg.c — the acceptance plot (see svg.h), drawn the way scheduling
 * papers draw it: y = acceptance ratio in [0, 1], x = utilization per CPU
 * (U/m), a light grid, one line per method told apart by colour (the
 * colour-blind-safe palette of [OI08]; black for the exact ILP), dash pattern and
 * marker, and a shared legend. The line is what the method decided to accept;
 * sets it could not decide (time-outs) are a bar above each point, from
 * accepted/total up to (accepted + timeouts)/total, never drawn as rejections;
 * the band is the Wilson 95% score interval [Wil27] of the lower end's lower
 * limit to the upper end's upper limit. Curves are dodged a few pixels apart
 * so coinciding ones stay visible. Plots only: doubles are exact enough, and
 * nothing here is a verdict. */
#include "explore/svg.h"
#include "explore/explore_internal.h"

#include "models/text.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define PANEL_W 440.0 /* plot area of one panel, px */
#define PANEL_H 280.0
#define MARGIN_L 70.0 /* room for the y ticks and label */
#define MARGIN_T 46.0 /* panel title */
#define MARGIN_B 58.0 /* x ticks and label */
#define MARGIN_R 24.0
#define LEGEND_H 44.0
#define FOOTER_H 40.0

/* By rtp_explore_method; the ILPs, the exact ones: black and grey. */
static const char *const colours[] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00",
                                      "#000000", "#56B4E9", "#555555", "#882255"};
static const char *const dashes[] = {"", "7 4", "2 3", "9 3 2 3", "4 2", "1 0", "12 3", "5 2 1 2",
                                     "3 3"};
static const char *const labels[] = {"FFD", "BFD", "WFD", "NFD", "best", "ILP", "SFD",
                                     "ILP co-loc.", "FFD oblivious"};

/* Marker k (by method) centred at (x, y). */
static void marker(rtp_text *b, int k, double x, double y, const char *colour)
{
    switch (k % 6) {
    case 0:
        rtp_text_printf(b, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"3.6\" fill=\"%s\"/>", x, y, colour);
        break;
    case 1:
        rtp_text_printf(b,
            "<rect x=\"%.2f\" y=\"%.2f\" width=\"7\" height=\"7\" fill=\"white\" stroke=\"%s\" "
            "stroke-width=\"1.6\"/>", x - 3.5, y - 3.5, colour);
        break;
    case 2:
        rtp_text_printf(b,
            "<path d=\"M%.2f %.2fl4.2 7.4h-8.4z\" fill=\"%s\"/>", x, y - 4.6, colour);
        break;
    case 3:
        rtp_text_printf(b,
            "<path d=\"M%.2f %.2fl4.4 4.4l-4.4 4.4l-4.4-4.4z\" fill=\"white\" stroke=\"%s\" "
            "stroke-width=\"1.6\"/>", x, y - 4.4, colour);
        break;
    case 4:
        rtp_text_printf(b,
            "<path d=\"M%.2f %.2fl7 7m0 -7l-7 7\" stroke=\"%s\" stroke-width=\"1.8\"/>",
            x - 3.5, y - 3.5, colour);
        break;
    default:
        rtp_text_printf(b,
            "<path d=\"M%.2f %.2fh9m-4.5 -4.5v9\" stroke=\"%s\" stroke-width=\"1.8\"/>",
            x - 4.5, y, colour);
    }
}

/* Wilson score interval [Wil27] of x successes in n, z = 1.96 (95%). */
static void wilson(int64_t x, int64_t n, double *lo, double *hi)
{
    const double z2 = 1.959963984540054 * 1.959963984540054, nn = (double)n;
    double p = (double)x / nn, d = 1.0 + z2 / nn;
    double centre = (p + z2 / (2.0 * nn)) / d;
    double half = sqrt(z2 * (p * (1.0 - p) / nn + z2 / (4.0 * nn * nn))) / d;
    *lo = centre - half > 0.0 ? centre - half : 0.0;
    *hi = centre + half < 1.0 ? centre + half : 1.0;
}

/* A tick step giving 4..10 ticks over span. */
static double tick_step(double span)
{
    static const double steps[] = {0.01, 0.02, 0.025, 0.05, 0.1, 0.2, 0.25, 0.5, 1, 2, 5, 10};
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++)
        if (span / steps[i] <= 8.0)
            return steps[i];
    return 20.0;
}

typedef struct frame {
    double left, top, x0, x1; /* pixel origin of the plot area; x data range */
    int logx;                 /* x0, x1 are log10 of the data range */
} frame;

static double px(const frame *f, double x)
{
    return f->left + ((f->logx ? log10(x) : x) - f->x0) / (f->x1 - f->x0) * PANEL_W;
}

/* The x ticks: k step from the first multiple of step (linear), or 1, 2, 5
 * x 10^k (log); 0 when past the range. */
static double next_tick(const frame *f, double step, double x)
{
    if (!f->logx)
        return x + step;
    double decade = pow(10.0, floor(log10(x) + 1e-9)), m = x / decade;
    return (m < 1.5 ? 2.0 : m < 3.5 ? 5.0 : 10.0) * decade;
}
static double py(const frame *f, double y) { return f->top + (1.0 - y) * PANEL_H; }

static void axes(rtp_text *b, const frame *f, const char *title, const char *xlabel)
{
    rtp_text_printf(b,
        "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"middle\" font-size=\"14\" "
        "font-weight=\"bold\">%s</text>\n", f->left + PANEL_W / 2, f->top - 14, title);
    rtp_text_printf(b, "<g stroke=\"#dddddd\" stroke-width=\"1\">");
    for (int i = 0; i <= 10; i += 2)
        rtp_text_printf(b, "<path d=\"M%.2f %.2fh%.2f\"/>", f->left, py(f, i / 10.0), PANEL_W);
    double step = f->logx ? 0.0 : tick_step(f->x1 - f->x0);
    double first = f->logx ? pow(10.0, floor(f->x0)) : ceil(f->x0 / step - 1e-9) * step;
    double last = f->logx ? pow(10.0, f->x1) * (1 + 1e-9) : f->x1 + 1e-9;
    while (f->logx && first < pow(10.0, f->x0) * (1 - 1e-9))
        first = next_tick(f, step, first);
    for (double x = first; x <= last; x = next_tick(f, step, x))
        rtp_text_printf(b, "<path d=\"M%.2f %.2fv%.2f\"/>", px(f, x), f->top, PANEL_H);
    rtp_text_printf(b, "</g>\n<g font-size=\"12\" fill=\"#222222\">");
    for (int i = 0; i <= 10; i += 2)
        rtp_text_printf(b, "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"end\">%g</text>", f->left - 8,
                        py(f, i / 10.0) + 4, i / 10.0);
    for (double x = first; x <= last; x = next_tick(f, step, x))
        rtp_text_printf(b, "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"middle\">%g</text>", px(f, x),
                        f->top + PANEL_H + 18, f->logx ? x : round(x / step) * step);
    rtp_text_printf(b,
        "</g>\n<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"none\" "
        "stroke=\"#222222\" stroke-width=\"1.2\"/>\n", f->left, f->top, PANEL_W, PANEL_H);
    rtp_text_printf(b,
        "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"middle\" font-size=\"13\">"
        "%s</text>\n", f->left + PANEL_W / 2, f->top + PANEL_H + 42, xlabel);
    rtp_text_printf(b,
        "<text transform=\"translate(%.2f %.2f) rotate(-90)\" text-anchor=\"middle\" "
        "font-size=\"13\">Acceptance ratio</text>\n", f->left - 46, f->top + PANEL_H / 2);
}

/* One panel of policy `pol`: curves over the nu points pts[] at xs[]. */
static void panel(rtp_text *b, const rtp_sweep *sw, const rtp_explore_cell *cells,
                  const unsigned char *have, const frame *f, size_t pol, const size_t *pts,
                  const double *xs, size_t nu)
{
    size_t pm = sw->n_policies * sw->n_methods;
#define CELL(u) (&cells[pts[u] * pm + pol * sw->n_methods + k])
#define HAVE(u) (have[pts[u]] && CELL(u)->total > 0)
    /* Bands first, under every line: one polygon per run of present points. */
    for (size_t k = 0; k < sw->n_methods; k++) {
        int id = (int)sw->methods[k];
        for (size_t u = 0; u < nu;) {
            size_t end = u;
            while (end < nu && HAVE(end))
                end++;
            if (end == u) {
                u++;
                continue;
            }
            rtp_text_printf(b, "<path fill=\"%s\" fill-opacity=\"0.12\" d=\"", colours[id]);
            for (size_t v = u; v < end; v++) { /* upper edge, left to right */
                double lo, hi;
                wilson(CELL(v)->accepted + CELL(v)->timeouts, CELL(v)->total, &lo, &hi);
                rtp_text_printf(b, "%s%.2f %.2f", v == u ? "M" : "L",
                                px(f, xs[v]), py(f, hi));
            }
            for (size_t v = end; v-- > u;) { /* lower edge, back */
                double lo, hi;
                wilson(CELL(v)->accepted, CELL(v)->total, &lo, &hi);
                rtp_text_printf(b, "L%.2f %.2f", px(f, xs[v]),
                                py(f, lo));
            }
            rtp_text_printf(b, "z\"/>\n");
            u = end;
        }
    }
    for (size_t k = 0; k < sw->n_methods; k++) {
        int id = (int)sw->methods[k];
        double dodge = ((double)k - (double)(sw->n_methods - 1) / 2.0) * 2.5;
        rtp_text_printf(b,
            "<g><path fill=\"none\" stroke=\"%s\" stroke-width=\"2\" stroke-dasharray=\"%s\" "
            "stroke-linejoin=\"round\" d=\"", colours[id], dashes[id]);
        int pen_down = 0;
        for (size_t u = 0; u < nu; u++) {
            if (!HAVE(u)) {
                pen_down = 0;
                continue;
            }
            const rtp_explore_cell *x = CELL(u);
            rtp_text_printf(b, "%s%.2f %.2f", pen_down ? "L" : "M",
                            px(f, xs[u]) + dodge,
                            py(f, (double)x->accepted / (double)x->total));
            pen_down = 1;
        }
        rtp_text_printf(b, "\"/>");
        for (size_t u = 0; u < nu; u++) {
            if (!HAVE(u))
                continue;
            const rtp_explore_cell *x = CELL(u);
            double xx = px(f, xs[u]) + dodge;
            double low = (double)x->accepted / (double)x->total;
            if (x->timeouts > 0) /* undecided: a bar up to all-accepted */
                rtp_text_printf(b,
                    "<path d=\"M%.2f %.2fV%.2fm-3 0h6\" stroke=\"%s\" stroke-width=\"2.5\" "
                    "stroke-opacity=\"0.55\"/>", xx, py(f, low),
                    py(f, (double)(x->accepted + x->timeouts) / (double)x->total), colours[id]);
            marker(b, id, xx, py(f, low), colours[id]);
        }
        rtp_text_printf(b, "</g>\n");
    }
#undef CELL
#undef HAVE
}

/* The panels of a sweep without resources: one per (t, c, l) x policy, x =
 * utilization per CPU. */
static void util_panels(rtp_text *b, const rtp_sweep *sw, const rtp_explore_cell *cells,
                        const unsigned char *have, double cell_w, double cell_h, double *xs,
                        size_t *pts)
{
    const rtp_sweep_doc *d = &sw->doc;
    double x0 = rtp_ratio_double(d->utilizations[0]), x1 = x0;
    for (size_t u = 0; u < d->n_utilizations; u++) {
        xs[u] = rtp_ratio_double(d->utilizations[u]);
        x0 = xs[u] < x0 ? xs[u] : x0;
        x1 = xs[u] > x1 ? xs[u] : x1;
    }
    double pad = x1 > x0 ? (x1 - x0) * 0.02 : 0.05;
    size_t g = 0;
    for (size_t t = 0; t < d->n_tasks; t++)
        for (size_t c = 0; c < d->n_cpus; c++)
            for (size_t l = 0; l < d->n_deadlines; l++, g++)
                for (size_t pol = 0; pol < sw->n_policies; pol++) {
                    frame f = {10 + cell_w * (double)pol + MARGIN_L,
                               LEGEND_H + cell_h * (double)g + MARGIN_T, x0 - pad, x1 + pad, 0};
                    char title[200];
                    snprintf(title, sizeof title, "%s: n = %lld tasks, m = %lld CPUs, %s deadlines",
                             sw->policies[pol] == RTP_POLICY_FP ? "FP" : "EDF",
                             (long long)d->tasks[t], (long long)d->cpus[c], d->deadlines[l]);
                    axes(b, &f, title, "Utilization per CPU, U/m");
                    for (size_t u = 0; u < d->n_utilizations; u++)
                        pts[u] = explore_point_index(sw, t, c, u, l, 0, 0);
                    panel(b, sw, cells, have, &f, pol, pts, xs, d->n_utilizations);
                }
}

/* The panels of a sweep with resources: one per (t, c, u, l, resources) x
 * policy, x = the longest critical section (us, log axis). */
static void cs_panels(rtp_text *b, const rtp_sweep *sw, const rtp_explore_cell *cells,
                      const unsigned char *have, double cell_w, double cell_h, double *xs,
                      size_t *pts)
{
    const rtp_sweep_doc *d = &sw->doc;
    size_t ns = d->n_cs_lengths, g = 0;
    double x0 = (double)d->cs_max_ns[0] / 1000.0, x1 = x0;
    for (size_t s = 0; s < ns; s++) {
        xs[s] = (double)d->cs_max_ns[s] / 1000.0;
        x0 = xs[s] < x0 ? xs[s] : x0;
        x1 = xs[s] > x1 ? xs[s] : x1;
    }
    double lo = log10(x0), hi = log10(x1), pad = hi > lo ? (hi - lo) * 0.03 : 0.3;
    for (size_t t = 0; t < d->n_tasks; t++)
        for (size_t c = 0; c < d->n_cpus; c++)
            for (size_t u = 0; u < d->n_utilizations; u++)
                for (size_t l = 0; l < d->n_deadlines; l++)
                    for (size_t r = 0; r < d->n_resource_counts; r++, g++)
                        for (size_t pol = 0; pol < sw->n_policies; pol++) {
                            frame f = {10 + cell_w * (double)pol + MARGIN_L,
                                       LEGEND_H + cell_h * (double)g + MARGIN_T, lo - pad,
                                       hi + pad, 1};
                            char title[200], util[48];
                            rtp_ratio_format(d->utilizations[u], util, sizeof util);
                            snprintf(title, sizeof title,
                                     "%s: n = %lld, m = %lld, U/m = %s, %lld resources, %s",
                                     sw->policies[pol] == RTP_POLICY_FP ? "FP" : "EDF",
                                     (long long)d->tasks[t], (long long)d->cpus[c], util,
                                     (long long)d->resource_counts[r], d->deadlines[l]);
                            axes(b, &f, title, "Longest critical section (us)");
                            for (size_t s = 0; s < ns; s++)
                                pts[s] = explore_point_index(sw, t, c, u, l, r, s);
                            panel(b, sw, cells, have, &f, pol, pts, xs, ns);
                        }
}

char *rtp_svg_acceptance(const rtp_sweep *sw, const rtp_explore_cell *cells,
                         const unsigned char *have)
{
    const rtp_sweep_doc *d = &sw->doc;
    int by_cs = d->n_resource_counts > 0;
    size_t groups = d->n_tasks * d->n_cpus * d->n_deadlines, cols = sw->n_policies;
    size_t nx = by_cs ? d->n_cs_lengths : d->n_utilizations;
    if (by_cs)
        groups *= d->n_utilizations * d->n_resource_counts;
    double cell_w = MARGIN_L + PANEL_W + MARGIN_R, cell_h = MARGIN_T + PANEL_H + MARGIN_B;
    double width = cell_w * (double)cols + 20, height = LEGEND_H + cell_h * (double)groups + FOOTER_H;
    double entry = 96.0;
    for (size_t k = 0; k < sw->n_methods; k++)
        entry = sw->methods[k] >= RTP_EX_ILP_COLOCATE ? 136.0 : entry; /* longer labels */
    if (by_cs && entry * (double)sw->n_methods + 20 > width) /* room for the legend */
        width = entry * (double)sw->n_methods + 20;
    double *xs = malloc(nx * sizeof *xs);
    size_t *pts = malloc(nx * sizeof *pts);
    if (!xs || !pts) {
        free(xs);
        free(pts);
        return NULL;
    }
    rtp_text b;
    rtp_text_init(&b);
    rtp_text_printf(&b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
                        "viewBox=\"0 0 %.0f %.0f\" font-family=\"Helvetica, Arial, sans-serif\">\n"
                        "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
                        width, height, width, height);
    /* Legend: one entry per method, centred above the panels. */
    double lx = (width - entry * (double)sw->n_methods) / 2;
    for (size_t k = 0; k < sw->n_methods; k++) {
        int id = (int)sw->methods[k];
        double x = lx + entry * (double)k;
        rtp_text_printf(&b,
            "<path d=\"M%.2f 24h34\" stroke=\"%s\" stroke-width=\"2\" stroke-dasharray=\"%s\"/>",
            x, colours[id], dashes[id]);
        marker(&b, id, x + 17, 24, colours[id]);
        rtp_text_printf(&b,
            "<text x=\"%.2f\" y=\"29\" font-size=\"13\">%s</text>\n", x + 40, labels[id]);
    }
    if (by_cs)
        cs_panels(&b, sw, cells, have, cell_w, cell_h, xs, pts);
    else
        util_panels(&b, sw, cells, have, cell_w, cell_h, xs, pts);
    free(xs);
    free(pts);
    rtp_text_printf(&b,
        "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"end\" font-size=\"11\" fill=\"#666666\">"
        "lines: accepted; bars: undecided (time-outs); bands: Wilson 95%% intervals</text>\n"
        "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"end\" font-size=\"11\" fill=\"#666666\">"
        "%lld task sets per point, %s utilizations, seed %lld, generator version %d</text>\n"
        "</svg>\n", width - 12, height - 24, width - 12, height - 9, (long long)d->sets_per_point, d->generator,
        (long long)d->seed, RTP_GEN_VERSION);
    return rtp_text_take(&b);
}
