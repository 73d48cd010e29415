/* sim/gantt.c — the Gantt chart (see gantt.h). Pixel positions are doubles
 * for display only; every decision about what is drawn (window, ticks,
 * which arrow falls inside) is made in integer ns. */
#include "sim/gantt.h"
#include "models/grow.h"

#include "models/text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LEFT 170.0     /* lane labels */
#define PLOT_W 980.0
#define RIGHT 30.0
#define TITLE_H 34.0
#define LEGEND_ROW 22.0
#define SECTION_H 26.0 /* a section's heading band */
#define LANE_H 38.0
#define BOX_H 16.0
#define AXIS_H 56.0
#define FOOT_H 22.0
#define MAX_ARROWS 4000 /* per lane and kind */
#define MIN_BOX_W 2.0

/* Colour-blind-safe colours of [OI08] without its vermillion: red means a miss. */
static const char *const palette[] = {"#0072B2", "#E69F00", "#009E73", "#CC79A7",
                                      "#56B4E9", "#F0E442", "#000000", "#999999"};
#define N_PALETTE (sizeof palette / sizeof palette[0])
#define MISS "#D00000"

void rtp_gantt_rec_init(rtp_gantt_rec *rec, rtp_ns from, rtp_ns until)
{
    memset(rec, 0, sizeof *rec);
    rec->from = from;
    rec->until = until;
}

void rtp_gantt_rec_free(rtp_gantt_rec *rec)
{
    free(rec->boxes);
    free(rec->misses);
    free(rec->locks);
    memset(rec, 0, sizeof *rec);
}

static void push(rtp_gantt_rec *rec, rtp_gantt_box **arr, size_t *n, size_t *cap,
                 rtp_gantt_box b)
{
    if (RTP_GROW(*arr, *cap, *n + 1) != 0) {
        rec->failed = 1;
        return;
    }
    (*arr)[(*n)++] = b;
}

/* Boxes that start after the cut are left out; past the cap the cut moves
 * back to the start of the box that did not fit, and boxes already kept
 * beyond it are dropped at drawing time. */
static void add_box(rtp_gantt_rec *rec, rtp_gantt_box b)
{
    if (b.to <= rec->from || b.from >= rec->until)
        return;
    if (rec->n_boxes >= RTP_GANTT_MAX_BOXES) {
        rec->truncated = 1;
        rec->until = b.from;
        return;
    }
    push(rec, &rec->boxes, &rec->n_boxes, &rec->cap_boxes, b);
}

static void on_ran(void *ctx, int cpu, const rtp_sim_job *job, rtp_ns from, rtp_ns to)
{
    rtp_gantt_rec *rec = ctx;
    size_t task = rec->task_offset + job->task;
    int id = rec->cpu_ids ? rec->cpu_ids[cpu] : cpu;
    rtp_ns dl = job->deadline_ns;
    if (from < dl)
        add_box(rec, (rtp_gantt_box){task, id, from, to < dl ? to : dl, 0});
    if (to > dl)
        add_box(rec, (rtp_gantt_box){task, id, from > dl ? from : dl, to, 1});
}

static void on_done(void *ctx, const rtp_sim_job *job)
{
    rtp_gantt_rec *rec = ctx;
    int late = job->finish_ns >= 0 ? job->finish_ns > job->deadline_ns
                                   : job->deadline_ns <= rec->until;
    if (late && job->deadline_ns >= rec->from && job->deadline_ns <= rec->until)
        push(rec, &rec->misses, &rec->n_misses, &rec->cap_misses,
             (rtp_gantt_box){rec->task_offset + job->task, -1, job->deadline_ns,
                             job->deadline_ns, 1});
}

void rtp_gantt_rec_section(void *ctx, int cpu, const rtp_sim_job *job, size_t resource,
                           int what, rtp_ns from, rtp_ns to)
{
    rtp_gantt_rec *rec = ctx;
    (void)cpu;
    if (to <= rec->from || from >= rec->until)
        return;
    if (RTP_GROW(rec->locks, rec->cap_locks, rec->n_locks + 1) != 0) {
        rec->failed = 1;
        return;
    }
    rec->locks[rec->n_locks++] =
        (rtp_gantt_lock){rec->task_offset + job->task, from, to, resource, what};
}

rtp_sim_hooks rtp_gantt_rec_hooks(rtp_gantt_rec *rec, size_t task_offset, const int *cpu_ids)
{
    rec->task_offset = task_offset;
    rec->cpu_ids = cpu_ids;
    return (rtp_sim_hooks){rec, on_done, on_ran};
}

/* ---- drawing ---- */

typedef struct axis {
    rtp_ns from, until, step, unit;
    const char *unit_name;
} axis;

/* The unit that makes the window at least 1 unit wide, and a 1-2-5 tick
 * step giving at most 16 ticks. */
static axis make_axis(rtp_ns from, rtp_ns until)
{
    axis a = {from, until, 1, 1, "ns"};
    rtp_ns span = until - from;
    if (span >= 1000000000)
        a.unit = 1000000000, a.unit_name = "s";
    else if (span >= 1000000)
        a.unit = 1000000, a.unit_name = "ms";
    else if (span >= 1000)
        a.unit = 1000, a.unit_name = "\xc2\xb5s";
    for (rtp_ns base = 1;; base *= 10) {
        static const rtp_ns mult[] = {1, 2, 5};
        for (int k = 0; k < 3; k++)
            if (span / (base * mult[k]) <= 16) {
                a.step = base * mult[k];
                return a;
            }
        if (base > RTP_NS_LIMIT / 10)
            return a;
    }
}

static double xpos(const axis *a, rtp_ns t)
{
    return LEFT + (double)(t - a->from) / (double)(a->until - a->from) * PLOT_W;
}

/* t in the axis unit, with the decimals the step needs ("2.5"). */
static void label(const axis *a, rtp_ns t, char *buf, size_t size)
{
    int decimals = 0;
    for (rtp_ns u = a->unit; u > 1 && a->step % u != 0; u /= 10)
        decimals++;
    int len = snprintf(buf, size, "%lld", (long long)(t / a->unit));
    rtp_ns frac = t % a->unit, digit = a->unit;
    for (int d = 0; d < decimals && len > 0 && (size_t)len + 2 < size; d++) {
        if (d == 0)
            buf[len++] = '.';
        digit /= 10;
        buf[len++] = (char)('0' + frac / digit % 10);
        buf[len] = '\0';
    }
}

static void duration_text(rtp_ns v, char *buf, size_t size)
{
    static const struct { rtp_ns ns; const char *name; } units[] = {
        {1000000000, "s"}, {1000000, "ms"}, {1000, "\xc2\xb5s"}, {1, "ns"}};
    for (size_t k = 0; k < 4; k++)
        if (v % units[k].ns == 0) {
            snprintf(buf, size, "%lld %s", (long long)(v / units[k].ns), units[k].name);
            return;
        }
}

/* Arrows from `base` up, or down to `base`, `len` px long. */
static void arrow_up(rtp_text *b, double x, double base, double len, const char *colour)
{
    rtp_text_printf(b, "<path d=\"M%.2f %.2fV%.2f\" stroke=\"%s\" stroke-width=\"1.4\"/>"
                       "<path d=\"M%.2f %.2fl-3.5 6h7z\" fill=\"%s\"/>",
                    x, base, base - len + 2, colour, x, base - len, colour);
}

static void arrow_down(rtp_text *b, double x, double base, double len, const char *colour,
                       double width)
{
    rtp_text_printf(b, "<path d=\"M%.2f %.2fV%.2f\" stroke=\"%s\" stroke-width=\"%.1f\"/>"
                       "<path d=\"M%.2f %.2fl-%.1f -7h%.1fz\" fill=\"%s\"/>",
                    x, base - len, base - 2, colour, width, x, base, 2.5 + width,
                    5 + 2 * width, colour);
}

/* "T1 (C 1 ms, D 4 ms, T 4 ms)" and its width in px (12 px DejaVu Sans
 * averages under 7 px a character). */
static double legend_entry(const rtp_gantt_task *t, char *buf, size_t size)
{
    char c[32], d[32], p[32];
    duration_text(t->wcet_ns, c, sizeof c);
    duration_text(t->deadline_ns, d, sizeof d);
    duration_text(t->period_ns, p, sizeof p);
    snprintf(buf, size, " (C %s, D %s, T %s)", c, d, p);
    return 40.0 + 7.0 * (double)(strlen(t->name) + strlen(buf));
}

/* Draws the legend from y (when draw) and returns the rows it takes. */
static size_t legend(rtp_text *b, const rtp_gantt_task *tasks, size_t n, double y, int draw)
{
    double x = LEFT;
    size_t rows = 2;
    for (size_t i = 0; i < n; i++) {
        char text[120];
        double w = legend_entry(&tasks[i], text, sizeof text);
        if (x + w > LEFT + PLOT_W && x > LEFT) {
            x = LEFT;
            y += LEGEND_ROW;
            rows++;
        }
        if (draw) {
            rtp_text_printf(b, "<rect x=\"%.2f\" y=\"%.2f\" width=\"14\" height=\"12\" "
                               "fill=\"%s\"/><text x=\"%.2f\" y=\"%.2f\" font-size=\"12\">",
                            x, y - 10, palette[i % N_PALETTE], x + 19, y);
            rtp_text_append_xml(b, tasks[i].name);
            rtp_text_printf(b, "%s</text>", text);
        }
        x += w;
    }
    if (!draw)
        return rows;
    y += LEGEND_ROW;
    x = LEFT;
    arrow_up(b, x + 4, y + 3, 15, "#333333");
    rtp_text_printf(b, "<text x=\"%.2f\" y=\"%.2f\" font-size=\"12\">release</text>", x + 14, y);
    x += 80;
    arrow_down(b, x + 4, y + 3, 15, "#777777", 1.2);
    rtp_text_printf(b, "<text x=\"%.2f\" y=\"%.2f\" font-size=\"12\">deadline</text>", x + 14, y);
    x += 90;
    arrow_down(b, x + 4, y + 3, 15, MISS, 2.4);
    rtp_text_printf(b, "<text x=\"%.2f\" y=\"%.2f\" font-size=\"12\" fill=\"%s\">missed "
                       "deadline</text>", x + 14, y, MISS);
    x += 130;
    rtp_text_printf(b, "<rect x=\"%.2f\" y=\"%.2f\" width=\"22\" height=\"12\" fill=\"%s\"/>"
                       "<text x=\"%.2f\" y=\"%.2f\" font-size=\"12\" fill=\"%s\">running past "
                       "its deadline</text>", x, y - 10, MISS, x + 28, y, MISS);
    return rows;
}

/* Up arrows at k T, down arrows at k T + D, inside the window. */
static void arrows(rtp_text *b, const axis *a, const rtp_gantt_task *t, double base)
{
    rtp_ns k0 = a->from / t->period_ns;
    int drawn = 0;
    for (rtp_ns r = k0 * t->period_ns; r <= a->until && drawn < MAX_ARROWS; r += t->period_ns) {
        if (r >= a->from)
            arrow_up(b, xpos(a, r), base, LANE_H - 6, "#333333"), drawn++;
        if (r + t->deadline_ns >= a->from && r + t->deadline_ns <= a->until)
            arrow_down(b, xpos(a, r + t->deadline_ns), base, LANE_H - 6, "#777777", 1.2);
    }
}

/* Lane i's sections (a dark bar over the box, the resource named when it
 * fits; a boosted one framed), spins (a striped box) and suspensions (a
 * dashed empty box, the resource named when it fits). */
static void locks(rtp_text *b, const axis *a, const rtp_gantt_rec *rec, size_t i, double base)
{
    for (size_t k = 0; k < rec->n_locks; k++) {
        const rtp_gantt_lock *l = &rec->locks[k];
        if (l->task != i || l->from >= a->until)
            continue;
        rtp_ns f = l->from > a->from ? l->from : a->from;
        rtp_ns t = l->to < a->until ? l->to : a->until;
        double x0 = xpos(a, f), x1 = xpos(a, t);
        if (x1 - x0 < MIN_BOX_W)
            x1 = x0 + MIN_BOX_W;
        if (l->what == RTP_SIM_SPINNING) {
            rtp_text_printf(b, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.0f\" "
                               "fill=\"url(#spin)\" stroke=\"#222222\" stroke-width=\"0.6\"/>",
                            x0, base - BOX_H, x1 - x0, BOX_H);
            continue;
        }
        if (l->what == RTP_SIM_SUSPENDED)
            rtp_text_printf(b, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.0f\" "
                               "fill=\"none\" stroke=\"#555555\" stroke-width=\"1\" "
                               "stroke-dasharray=\"3 2\"/>", x0, base - BOX_H, x1 - x0, BOX_H);
        else
            rtp_text_printf(b, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"5\" "
                               "fill=\"#222222\"/>", x0, base - BOX_H, x1 - x0);
        if (l->what == RTP_SIM_BOOSTED)
            rtp_text_printf(b, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.0f\" "
                               "fill=\"none\" stroke=\"#222222\" stroke-width=\"1.5\"/>",
                            x0, base - BOX_H, x1 - x0, BOX_H);
        const char *name = rec->resource_names ? rec->resource_names[l->resource] : NULL;
        if (name && x1 - x0 >= 8.0 * (double)strlen(name)) {
            rtp_text_printf(b, "<text x=\"%.2f\" y=\"%.2f\" font-size=\"9\" "
                               "text-anchor=\"middle\" fill=\"#222222\">",
                            (x0 + x1) / 2, base - BOX_H - 2);
            rtp_text_append_xml(b, name);
            rtp_text_append(b, "</text>");
        }
    }
}

/* FMLP+ was recorded (its legend). */
static int suspends(const rtp_gantt_rec *rec)
{
    for (size_t k = 0; k < rec->n_locks; k++)
        if (rec->locks[k].what == RTP_SIM_SUSPENDED || rec->locks[k].what == RTP_SIM_BOOSTED)
            return 1;
    return 0;
}

char *rtp_gantt_svg(const char *title, const rtp_gantt_task *tasks, size_t n_tasks,
                    const rtp_gantt_section *sections, size_t n_sections,
                    const rtp_gantt_rec *rec)
{
    if (rec->failed || rec->until <= rec->from)
        return NULL;
    axis a = make_axis(rec->from, rec->until);
    size_t lanes = 0;
    for (size_t s = 0; s < n_sections; s++)
        lanes += sections[s].n;
    double legend_h = (double)legend(NULL, tasks, n_tasks, 0, 0) * LEGEND_ROW + 8;
    double top = TITLE_H + legend_h;
    double height = top + (double)n_sections * SECTION_H + (double)lanes * LANE_H + AXIS_H +
                    FOOT_H;
    double width = LEFT + PLOT_W + RIGHT;
    rtp_text b;
    rtp_text_init(&b);
    rtp_text_printf(&b,
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
        "viewBox=\"0 0 %.0f %.0f\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\">\n"
        "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
        "<text x=\"%.2f\" y=\"22\" font-size=\"16\" font-weight=\"bold\">",
        width, height, width, height, LEFT);
    rtp_text_append_xml(&b, title);
    rtp_text_append(&b, "</text>\n");
    if (rec->n_locks > 0)
        rtp_text_printf(&b, "<defs><pattern id=\"spin\" width=\"6\" height=\"6\" "
                            "patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\">"
                            "<rect width=\"6\" height=\"6\" fill=\"#dddddd\"/><path d=\"M0 0V6\" "
                            "stroke=\"#555555\" stroke-width=\"2\"/></pattern></defs>\n"
                            "<text x=\"%.2f\" y=\"22\" font-size=\"11\" text-anchor=\"end\" "
                            "fill=\"#555555\">%s</text>\n", LEFT + PLOT_W,
                            suspends(rec) ? "dark bar: critical section, framed: boosted; "
                                            "dashed: suspended (FMLP+)"
                                          : "dark bar: critical section; striped: spinning "
                                            "(MSRP)");
    legend(&b, tasks, n_tasks, TITLE_H + 14, 1);
    rtp_text_append(&b, "\n");
    double plot_bottom = height - AXIS_H - FOOT_H;
    /* Grid lines under everything. */
    rtp_ns first = (a.from + a.step - 1) / a.step * a.step;
    for (rtp_ns t = first; t <= a.until; t += a.step)
        rtp_text_printf(&b, "<path d=\"M%.2f %.2fV%.2f\" stroke=\"#e4e4e4\"/>", xpos(&a, t),
                        top, plot_bottom);
    rtp_text_append(&b, "\n");
    double y = top;
    for (size_t s = 0; s < n_sections; s++) {
        const rtp_gantt_section *sec = &sections[s];
        rtp_text_printf(&b, "<rect x=\"8\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" "
                            "fill=\"#f2f2f2\"/><text x=\"14\" y=\"%.2f\" font-size=\"13\" "
                            "font-weight=\"bold\">",
                        y + 2, width - 16, SECTION_H - 4, y + 18);
        rtp_text_append_xml(&b, sec->title);
        rtp_text_append(&b, "</text>\n");
        y += SECTION_H;
        for (size_t l = 0; l < sec->n; l++) {
            size_t i = sec->first + l;
            double base = y + LANE_H - 6;
            rtp_text_printf(&b, "<text x=\"%.2f\" y=\"%.2f\" font-size=\"13\" "
                                "text-anchor=\"end\">", LEFT - 10, base - 4);
            rtp_text_append_xml(&b, tasks[i].name);
            rtp_text_append(&b, "</text>");
            char note[96] = "", o[32];
            if (tasks[i].priority > 0)
                snprintf(note, sizeof note, "priority %d", tasks[i].priority);
            if (tasks[i].overrun_ns > 0) {
                duration_text(tasks[i].overrun_ns, o, sizeof o);
                snprintf(note + strlen(note), sizeof note - strlen(note), "%sfirst job runs %s",
                         note[0] ? ", " : "", o);
            }
            if (note[0])
                rtp_text_printf(&b, "<text x=\"%.2f\" y=\"%.2f\" font-size=\"10\" "
                                    "text-anchor=\"end\" fill=\"#555555\">%s</text>",
                                LEFT - 10, base + 7, note);
            rtp_text_printf(&b, "<path d=\"M%.2f %.2fH%.2f\" stroke=\"#444444\"/>", LEFT, base,
                            LEFT + PLOT_W);
            for (size_t k = 0; k < rec->n_boxes; k++) {
                const rtp_gantt_box *x = &rec->boxes[k];
                if (x->task != i || x->from >= a.until)
                    continue;
                rtp_ns f = x->from > a.from ? x->from : a.from;
                rtp_ns t = x->to < a.until ? x->to : a.until;
                double x0 = xpos(&a, f), x1 = xpos(&a, t);
                if (x1 - x0 < MIN_BOX_W) /* short runs stay visible at any scale */
                    x1 = x0 + MIN_BOX_W;
                rtp_text_printf(&b, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.0f\" "
                                    "fill=\"%s\" stroke=\"%s\" stroke-width=\"%s\"/>",
                                x0, base - BOX_H, x1 - x0, BOX_H,
                                x->late ? MISS : palette[i % N_PALETTE],
                                x->late ? palette[i % N_PALETTE] : "#222222",
                                x->late ? "1.5" : "0.6");
                if (sec->n_cpus > 1 && x1 - x0 >= 30)
                    rtp_text_printf(&b, "<text x=\"%.2f\" y=\"%.2f\" font-size=\"10\" "
                                        "text-anchor=\"middle\" fill=\"white\">cpu%d</text>",
                                    (x0 + x1) / 2, base - 4, x->cpu);
            }
            locks(&b, &a, rec, i, base);
            arrows(&b, &a, &tasks[i], base);
            for (size_t k = 0; k < rec->n_misses; k++)
                if (rec->misses[k].task == i && rec->misses[k].from <= a.until) {
                    double mx = xpos(&a, rec->misses[k].from);
                    arrow_down(&b, mx, base, LANE_H - 6, MISS, 2.4);
                    rtp_text_printf(&b, "<text x=\"%.2f\" y=\"%.2f\" font-size=\"10\" "
                                        "fill=\"%s\" font-weight=\"bold\">miss</text>",
                                    mx + 4, base - LANE_H + 14, MISS);
                }
            rtp_text_append(&b, "\n");
            y += LANE_H;
        }
    }
    /* The time axis. */
    rtp_text_printf(&b, "<path d=\"M%.2f %.2fH%.2f\" stroke=\"black\"/>", LEFT, plot_bottom + 4,
                    LEFT + PLOT_W);
    for (rtp_ns t = first; t <= a.until; t += a.step) {
        char l[48];
        label(&a, t, l, sizeof l);
        rtp_text_printf(&b, "<path d=\"M%.2f %.2fv6\" stroke=\"black\"/><text x=\"%.2f\" "
                            "y=\"%.2f\" font-size=\"12\" text-anchor=\"middle\">%s</text>",
                        xpos(&a, t), plot_bottom + 4, xpos(&a, t), plot_bottom + 24, l);
    }
    rtp_text_printf(&b, "\n<text x=\"%.2f\" y=\"%.2f\" font-size=\"13\" "
                        "text-anchor=\"middle\">time (%s)</text>\n",
                    LEFT + PLOT_W / 2, plot_bottom + 46, a.unit_name);
    if (rec->truncated) {
        char at[32];
        duration_text(rec->until, at, sizeof at);
        rtp_text_printf(&b, "<text x=\"%.2f\" y=\"%.2f\" font-size=\"12\" fill=\"#555555\">"
                            "Cut at %s: more than %d execution boxes; --from and --until "
                            "choose another window.</text>\n",
                        LEFT, height - 8, at, RTP_GANTT_MAX_BOXES);
    }
    rtp_text_append(&b, "</svg>\n");
    return rtp_text_take(&b);
}
