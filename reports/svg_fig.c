/* svg_fig.c: the figure of the SVG plotting library (svg.h): axes, series, marker lines,
 * spans and the legend below the plot. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "svg.h"

/* Layout in pixels: the plot area, the title above it, tick labels, axis labels and the
 * legend below it (LEG_COLS columns of LEG_ROW-pixel rows). */
#define PLOT_LEFT 84
#define PLOT_RIGHT (SVG_WIDTH - 24)
#define PLOT_TOP 48
#define PLOT_HEIGHT 300
#define LEG_GAP 58   /* from the bottom of the plot area to the first legend row */
#define LEG_ROW 18
#define LEG_COLS 2
#define LEG_CHAR_PX 6.2 /* mean advance of an 11 px sans-serif character, generously */
#define CLIP_MARGIN 6 /* markers at the edge of the plot area stay whole */
#define MAX_TICKS 24
#define TICK_CHAR_PX 6.5 /* mean advance of an 11 px tick label character, generously */

static char *dup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = malloc(n);
    return p ? memcpy(p, s, n) : NULL;
}

void svg_fig_init(struct svg_fig *f, const char *title, const struct svg_scale *x,
                  const struct svg_scale *y)
{
    memset(f, 0, sizeof *f);
    f->width = SVG_WIDTH;
    f->left = PLOT_LEFT;
    f->right = PLOT_RIGHT;
    f->top = PLOT_TOP;
    f->bottom = PLOT_TOP + PLOT_HEIGHT;
    f->x = *x;
    f->x.p0 = f->left;
    f->x.p1 = f->right;
    f->y = *y;
    f->y.p0 = f->bottom;
    f->y.p1 = f->top;
    f->title = dup(title);
    f->nomem = !f->title;
}

/* Writes " NAME=\"PX\"" for a pixel coordinate. */
static void attr_px(struct svg_buf *b, const char *name, double v)
{
    char t[32];
    svg_fmt_px(t, sizeof t, v);
    svg_printf(b, " %s=\"%s\"", name, t);
}

static void stroke_attrs(struct svg_buf *b, const struct svg_style *st)
{
    char w[32];
    svg_fmt_num(w, sizeof w, st->width, 3);
    svg_printf(b, " fill=\"none\" stroke=\"%s\" stroke-width=\"%s\"", st->color, w);
    if (st->dash)
        svg_printf(b, " stroke-dasharray=\"%s\"", st->dash);
}

static void text_el(struct svg_buf *b, const char *cls, double x, double y, const char *anchor,
                    int size, const char *text)
{
    svg_printf(b, "<text class=\"%s\"", cls);
    attr_px(b, "x", x);
    attr_px(b, "y", y);
    svg_printf(b, " text-anchor=\"%s\" font-family=\"sans-serif\" font-size=\"%d\">",
               anchor, size);
    svg_escaped(b, text);
    svg_puts(b, "</text>\n");
}

void svg_axes(struct svg_fig *f, const char *xlabel, const char *ylabel)
{
    struct svg_buf *b = &f->body;
    double t[MAX_TICKS];
    char lab[48];
    svg_puts(b, "<g class=\"axis x\" font-family=\"sans-serif\" fill=\"#333\">\n");
    size_t n = svg_scale_ticks(&f->x, t, MAX_TICKS);
    double placed[MAX_TICKS][2]; /* the x extents of the labels written */
    size_t n_placed = 0;
    /* 0 first (a symlog axis has its neighbours close by), then the others where they fit */
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < n; i++) {
            if ((t[i] == 0) != (pass == 0))
                continue;
            double px = svg_scale_px(&f->x, t[i]);
            svg_puts(b, "<line class=\"grid\"");
            attr_px(b, "x1", px);
            attr_px(b, "y1", f->top);
            attr_px(b, "x2", px);
            attr_px(b, "y2", f->bottom + 4);
            svg_puts(b, " stroke=\"#ddd\" stroke-width=\"1\"/>\n");
            svg_tick_label(&f->x, t[i], lab, sizeof lab);
            double half = TICK_CHAR_PX * (double)strlen(lab) / 2 + 3;
            int clash = 0;
            for (size_t j = 0; j < n_placed; j++)
                clash |= px + half > placed[j][0] && px - half < placed[j][1];
            if (clash)
                continue;
            placed[n_placed][0] = px - half;
            placed[n_placed++][1] = px + half;
            text_el(b, "tick", px, f->bottom + 17, "middle", 11, lab);
        }
    text_el(b, "label", (f->left + f->right) / 2, f->bottom + 38, "middle", 12, xlabel);
    svg_puts(b, "</g>\n<g class=\"axis y\" font-family=\"sans-serif\" fill=\"#333\">\n");
    n = svg_scale_ticks(&f->y, t, MAX_TICKS);
    for (size_t i = 0; i < n; i++) {
        double py = svg_scale_px(&f->y, t[i]);
        svg_puts(b, "<line class=\"grid\"");
        attr_px(b, "x1", f->left - 4);
        attr_px(b, "y1", py);
        attr_px(b, "x2", f->right);
        attr_px(b, "y2", py);
        svg_puts(b, " stroke=\"#ddd\" stroke-width=\"1\"/>\n");
        svg_tick_label(&f->y, t[i], lab, sizeof lab);
        text_el(b, "tick", f->left - 7, py + 4, "end", 11, lab);
    }
    double cy = (f->top + f->bottom) / 2;
    svg_puts(b, "<text class=\"label\" transform=\"rotate(-90 16 ");
    char c[32];
    svg_fmt_px(c, sizeof c, cy);
    svg_printf(b, "%s)\" x=\"16\" y=\"%s\" text-anchor=\"middle\" font-size=\"12\">", c, c);
    svg_escaped(b, ylabel);
    svg_puts(b, "</text>\n</g>\n<rect class=\"frame\"");
    attr_px(b, "x", f->left);
    attr_px(b, "y", f->top);
    attr_px(b, "width", f->right - f->left);
    attr_px(b, "height", f->bottom - f->top);
    svg_puts(b, " fill=\"none\" stroke=\"#333\" stroke-width=\"1\"/>\n");
}

void svg_legend_add(struct svg_fig *f, const char *label, const struct svg_style *st,
                    enum svg_legend_kind kind)
{
    struct svg_legend_entry *p = realloc(f->legend, (f->n_legend + 1) * sizeof *p);
    char *l = dup(label);
    if (!p || !l) {
        free(l);
        if (p)
            f->legend = p;
        f->nomem = 1;
        return;
    }
    f->legend = p;
    p[f->n_legend++] = (struct svg_legend_entry){ .label = l, .st = *st, .kind = kind };
}

static void marker(struct svg_buf *b, const struct svg_style *st, double x, double y)
{
    char px[32], py[32], r[32];
    double s = st->size > 0 ? st->size : 3;
    svg_fmt_px(px, sizeof px, x);
    svg_fmt_px(py, sizeof py, y);
    svg_fmt_px(r, sizeof r, s);
    switch (st->marker) {
    case SVG_MK_CIRCLE:
        svg_printf(b, "<circle cx=\"%s\" cy=\"%s\" r=\"%s\"/>", px, py, r);
        break;
    case SVG_MK_SQUARE:
        svg_puts(b, "<rect");
        attr_px(b, "x", x - s);
        attr_px(b, "y", y - s);
        attr_px(b, "width", 2 * s);
        attr_px(b, "height", 2 * s);
        svg_puts(b, "/>");
        break;
    case SVG_MK_TRIANGLE:
    case SVG_MK_CROSS: {
        char a[4][32];
        svg_fmt_px(a[0], 32, x - s);
        svg_fmt_px(a[1], 32, x + s);
        svg_fmt_px(a[2], 32, y - s);
        svg_fmt_px(a[3], 32, y + s);
        if (st->marker == SVG_MK_TRIANGLE)
            svg_printf(b, "<path d=\"M%s,%s L%s,%s L%s,%s Z\"/>", px, a[2], a[1], a[3], a[0],
                       a[3]);
        else
            svg_printf(b, "<path d=\"M%s,%s L%s,%s M%s,%s L%s,%s\" stroke=\"%s\" "
                          "stroke-width=\"1.5\"/>",
                       a[0], a[2], a[1], a[3], a[0], a[3], a[1], a[2], st->color);
        break;
    }
    case SVG_MK_NONE:
        break;
    }
}

void svg_series(struct svg_fig *f, const double *x, const double *y, size_t n,
                const struct svg_style *st, const char *legend)
{
    struct svg_buf *b = &f->body;
    svg_puts(b, "<g class=\"series\" clip-path=\"url(#plot-area)\">\n");
    if (st->width > 0) {
        svg_puts(b, "<path d=\"");
        int pen = 0;
        for (size_t i = 0; i < n; i++) {
            if (isnan(x[i]) || isnan(y[i])) {
                pen = 0;
                continue;
            }
            char px[32], py[32];
            svg_fmt_px(px, sizeof px, svg_scale_px(&f->x, x[i]));
            svg_fmt_px(py, sizeof py, svg_scale_px(&f->y, y[i]));
            svg_printf(b, "%s%s,%s", pen ? " L" : (i ? " M" : "M"), px, py);
            pen = 1;
        }
        svg_puts(b, "\"");
        stroke_attrs(b, st);
        svg_puts(b, " stroke-linejoin=\"round\"/>\n");
    }
    if (st->marker != SVG_MK_NONE) {
        svg_printf(b, "<g fill=\"%s\">", st->color);
        for (size_t i = 0; i < n; i++)
            if (!isnan(x[i]) && !isnan(y[i]))
                marker(b, st, svg_scale_px(&f->x, x[i]), svg_scale_px(&f->y, y[i]));
        svg_puts(b, "</g>\n");
    }
    svg_puts(b, "</g>\n");
    if (legend)
        svg_legend_add(f, legend, st, SVG_LEG_LINE);
}

void svg_vline(struct svg_fig *f, double x, const struct svg_style *st, const char *label,
               const char *id, const char *legend)
{
    struct svg_buf *b = &f->body;
    double px = svg_scale_px(&f->x, x);
    svg_puts(b, "<g class=\"marker\"");
    if (id) {
        svg_puts(b, " id=\"");
        svg_escaped(b, id);
        svg_puts(b, "\"");
    }
    svg_puts(b, ">\n<line");
    attr_px(b, "x1", px);
    attr_px(b, "y1", f->top);
    attr_px(b, "x2", px);
    attr_px(b, "y2", f->bottom);
    stroke_attrs(b, st);
    svg_puts(b, "/>\n");
    if (label) {
        /* staggered rows so that labels of close lines do not overlap */
        double y = f->top + 13 + 14 * (f->n_labels++ % 3);
        int left = px > f->right - 170;
        svg_printf(b, "<text font-family=\"sans-serif\" font-size=\"11\" fill=\"%s\"",
                   st->color);
        attr_px(b, "x", left ? px - 4 : px + 4);
        attr_px(b, "y", y);
        svg_printf(b, " text-anchor=\"%s\">", left ? "end" : "start");
        svg_escaped(b, label);
        svg_puts(b, "</text>\n");
    }
    svg_puts(b, "</g>\n");
    if (legend)
        svg_legend_add(f, legend, st, SVG_LEG_LINE);
}

void svg_hline(struct svg_fig *f, double y, const struct svg_style *st, const char *legend)
{
    struct svg_buf *b = &f->body;
    double py = svg_scale_px(&f->y, y);
    svg_puts(b, "<line class=\"marker\"");
    attr_px(b, "x1", f->left);
    attr_px(b, "y1", py);
    attr_px(b, "x2", f->right);
    attr_px(b, "y2", py);
    stroke_attrs(b, st);
    svg_puts(b, "/>\n");
    if (legend)
        svg_legend_add(f, legend, st, SVG_LEG_LINE);
}

void svg_span(struct svg_fig *f, double x0, double x1, const char *color, double min_px,
              const char *id, const char *legend)
{
    struct svg_buf *b = &f->body;
    double a = svg_scale_px(&f->x, x0), c = svg_scale_px(&f->x, x1);
    double lo = fmin(a, c), hi = fmax(a, c);
    if (hi - lo < min_px) {
        double mid = (lo + hi) / 2;
        lo = mid - min_px / 2;
        hi = mid + min_px / 2;
    }
    svg_puts(b, "<rect class=\"span\"");
    if (id) {
        svg_puts(b, " id=\"");
        svg_escaped(b, id);
        svg_puts(b, "\"");
    }
    attr_px(b, "x", lo);
    attr_px(b, "y", f->top);
    attr_px(b, "width", hi - lo);
    attr_px(b, "height", f->bottom - f->top);
    svg_printf(b, " fill=\"%s\" fill-opacity=\"0.25\"/>\n", color);
    if (legend) {
        struct svg_style st = { .color = color };
        svg_legend_add(f, legend, &st, SVG_LEG_SPAN);
    }
}

/* Legend columns: LEG_COLS, or one when a label would not fit beside another. */
static size_t legend_cols(const struct svg_fig *f)
{
    double colw = (f->right - f->left) / LEG_COLS;
    for (size_t i = 0; i < f->n_legend; i++)
        if (30 + LEG_CHAR_PX * (double)strlen(f->legend[i].label) > colw)
            return 1;
    return LEG_COLS;
}

static void legend(struct svg_fig *f, struct svg_buf *b, double y0, size_t cols)
{
    double colw = (f->right - f->left) / (double)cols;
    svg_puts(b, "<g class=\"legend\" font-family=\"sans-serif\" font-size=\"11\" "
                "fill=\"#333\">\n");
    for (size_t i = 0; i < f->n_legend; i++) {
        const struct svg_legend_entry *e = &f->legend[i];
        double x = f->left + colw * (double)(i % cols);
        double y = y0 + LEG_ROW * (double)(i / cols);
        if (e->kind == SVG_LEG_SPAN) {
            svg_puts(b, "<rect");
            attr_px(b, "x", x);
            attr_px(b, "y", y - 9);
            svg_printf(b, " width=\"24\" height=\"10\" fill=\"%s\" fill-opacity=\"0.25\"/>",
                       e->st.color);
        } else {
            if (e->st.width > 0) {
                svg_puts(b, "<line");
                attr_px(b, "x1", x);
                attr_px(b, "y1", y - 4);
                attr_px(b, "x2", x + 24);
                attr_px(b, "y2", y - 4);
                stroke_attrs(b, &e->st);
                svg_puts(b, "/>");
            }
            if (e->st.marker != SVG_MK_NONE) {
                svg_printf(b, "<g fill=\"%s\">", e->st.color);
                marker(b, &e->st, x + 12, y - 4);
                svg_puts(b, "</g>");
            }
        }
        svg_puts(b, "<text");
        attr_px(b, "x", x + 30);
        attr_px(b, "y", y);
        svg_puts(b, ">");
        svg_escaped(b, e->label);
        svg_puts(b, "</text>\n");
    }
    svg_puts(b, "</g>\n");
}

void svg_fig_release(struct svg_fig *f)
{
    for (size_t i = 0; i < f->n_legend; i++)
        free(f->legend[i].label);
    free(f->legend);
    free(f->title);
    free(f->body.p);
    memset(f, 0, sizeof *f);
}

char *svg_fig_finish(struct svg_fig *f)
{
    struct svg_buf b = { 0 };
    double y0 = f->bottom + LEG_GAP;
    size_t cols = legend_cols(f), rows = (f->n_legend + cols - 1) / cols;
    double height = (rows ? y0 + LEG_ROW * (double)(rows - 1) : f->bottom + 40) + 12;
    char h[32];
    svg_fmt_px(h, sizeof h, height);
    svg_printf(&b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                   "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%d\" "
                   "height=\"%s\" viewBox=\"0 0 %d %s\">\n<title>",
               SVG_WIDTH, h, SVG_WIDTH, h);
    svg_escaped(&b, f->title ? f->title : "");
    svg_printf(&b, "</title>\n<rect width=\"%d\" height=\"%s\" fill=\"#fff\"/>\n<defs>"
                   "<clipPath id=\"plot-area\"><rect",
               SVG_WIDTH, h);
    attr_px(&b, "x", f->left - CLIP_MARGIN);
    attr_px(&b, "y", f->top - CLIP_MARGIN);
    attr_px(&b, "width", f->right - f->left + 2 * CLIP_MARGIN);
    attr_px(&b, "height", f->bottom - f->top + 2 * CLIP_MARGIN);
    svg_puts(&b, "/></clipPath></defs>\n");
    text_el(&b, "title", (double)SVG_WIDTH / 2, 26, "middle", 15, f->title ? f->title : "");
    if (f->body.p)
        svg_puts(&b, f->body.p);
    legend(f, &b, y0, cols);
    svg_puts(&b, "</svg>\n");
    int bad = b.nomem || f->nomem || f->body.nomem;
    svg_fig_release(f);
    if (bad) {
        free(b.p);
        return NULL;
    }
    return b.p;
}
