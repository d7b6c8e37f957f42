/* A small SVG plotting library for the report's plots (internal to reports/, prefix svg_).
 *
 * What it writes is plain SVG 1.1 as a code-hosting site shows it through an <img>: no
 * scripts, no external fonts (the generic "sans-serif"), all text as <text>, every number
 * written without the C locale's help (a locale with a decimal comma changes nothing).
 *
 * Use: svg_fig_init(&f, title, &xscale, &yscale); svg_axes(&f, xlabel, ylabel); series,
 * markers and spans in drawing order; doc = svg_fig_finish(&f) (malloc'ed, NULL on no memory;
 * the figure is released either way).  Elements carry a class ("title", "axis x", "tick",
 * "label", "legend", "series", "marker") so that tests can find them.
 *
 * Scales map data values to pixels in two steps: t = svg_scale_t(s, v) (linear: v; log:
 * log10 v; symlog: see below), then t is mapped linearly from [t(lo), t(hi)] onto [p0, p1].
 * Symmetric log (SVG_SYMLOG), which shows -max .. -tiny, 0, tiny .. max on one axis:
 *     t(v) = sign(v) (log2(|v| / tiny) + 1)   for |v| >= tiny,
 *     t(v) = v / tiny                          for |v| < tiny,
 * continuous and increasing; every binade of either sign is one unit wide, and the open
 * interval (-tiny, tiny) (only 0 among the floats) two units. */
#ifndef GELUCHECK_SVG_H
#define GELUCHECK_SVG_H

#include <stddef.h>

/* A growing text buffer; after a failed allocation nomem stays set and nothing is added. */
struct svg_buf {
    char *p;
    size_t n, cap;
    int nomem;
};
void svg_puts(struct svg_buf *b, const char *s);
void svg_printf(struct svg_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* s as XML character data or attribute value: & < > " ' escaped, the control bytes that XML
 * 1.0 cannot carry (all below 0x20 but tab, newline, CR) and invalid UTF-8 as U+FFFD. */
void svg_escaped(struct svg_buf *b, const char *s);

/* v with `digits` significant digits ("%.*g"), '.' as the decimal point whatever the locale;
 * "nan", "inf", "-inf" when not finite. */
void svg_fmt_num(char *buf, size_t size, double v, int digits);
/* A pixel coordinate with two decimals ("123.45", "-0.5"), by integer arithmetic. */
void svg_fmt_px(char *buf, size_t size, double v);

enum svg_scale_kind { SVG_LINEAR, SVG_LOG, SVG_SYMLOG };
struct svg_scale {
    enum svg_scale_kind kind;
    double lo, hi;   /* data domain, lo < hi (log: 0 < lo) */
    double tiny;     /* symlog: the smallest magnitude on a log scale (> 0) */
    double p0, p1;   /* pixels of lo and hi (a y axis has p0 > p1) */
};
/* The transformed coordinate (log of v <= 0: -HUGE_VAL). */
double svg_scale_t(const struct svg_scale *s, double v);
/* The pixel of v; values outside the domain, non-finite ones and log v <= 0 included, are
 * clamped to within 5% of the axis length beyond its ends. */
double svg_scale_px(const struct svg_scale *s, double v);
/* At most max tick values in increasing order, all within [lo, hi]; returns their number.
 * Linear: multiples of 1, 2 or 5 x 10^k, about 6 of them.  Log: powers of ten, every 1, 2,
 * 5, 10, 20, 50, 100, ... decades (at most 8).  Symlog: 0 and +-powers of ten likewise (at
 * most 6 per sign). */
size_t svg_scale_ticks(const struct svg_scale *s, double *v, size_t max);
/* A tick's label: linear "%.6g"; log and symlog "0.001" .. "1000", else "1e-30", "-1e30". */
void svg_tick_label(const struct svg_scale *s, double v, char *buf, size_t size);

/* How a series, marker line or legend entry looks. */
enum svg_marker { SVG_MK_NONE, SVG_MK_CIRCLE, SVG_MK_SQUARE, SVG_MK_TRIANGLE, SVG_MK_CROSS };
struct svg_style {
    const char *color;   /* "#1f77b4" */
    double width;        /* stroke width; 0: no line */
    const char *dash;    /* stroke-dasharray ("4 3") or NULL */
    enum svg_marker marker;
    double size;         /* marker radius in pixels */
};

enum svg_legend_kind { SVG_LEG_LINE, SVG_LEG_SPAN };
struct svg_legend_entry {
    char *label;
    struct svg_style st;
    enum svg_legend_kind kind;
};

struct svg_fig {
    struct svg_buf body;     /* everything between the head and the legend */
    struct svg_scale x, y;   /* with the plot area's pixels */
    double width;
    double left, right, top, bottom; /* the plot area */
    char *title;
    struct svg_legend_entry *legend;
    size_t n_legend;
    int nomem;
    int n_labels;            /* vertical line labels so far (staggered in rows) */
};

/* Width of every figure in pixels (about a page width on a code-hosting site). */
#define SVG_WIDTH 720

/* Starts a figure: x and y give kind, domain and (symlog) tiny; their pixels are set here. */
void svg_fig_init(struct svg_fig *f, const char *title, const struct svg_scale *x,
                  const struct svg_scale *y);
/* The frame, grid lines, ticks with labels and the two axis labels. */
void svg_axes(struct svg_fig *f, const char *xlabel, const char *ylabel);
/* A polyline through (x[i], y[i]), broken where either is NaN; markers at each point when the
 * style has one.  legend: an entry, or NULL. */
void svg_series(struct svg_fig *f, const double *x, const double *y, size_t n,
                const struct svg_style *st, const char *legend);
/* A vertical line at data x across the plot area, with a text label at its top (NULL: none),
 * id the element's id (NULL: none) and an optional legend entry. */
void svg_vline(struct svg_fig *f, double x, const struct svg_style *st, const char *label,
               const char *id, const char *legend);
/* A horizontal line at data y across the plot area. */
void svg_hline(struct svg_fig *f, double y, const struct svg_style *st, const char *legend);
/* A shaded band between data x0 and x1, at least min_px pixels wide (centred). */
void svg_span(struct svg_fig *f, double x0, double x1, const char *color, double min_px,
              const char *id, const char *legend);
/* A legend entry without drawing anything. */
void svg_legend_add(struct svg_fig *f, const char *label, const struct svg_style *st,
                    enum svg_legend_kind kind);
/* The whole document (malloc'ed; NULL on no memory); releases the figure. */
char *svg_fig_finish(struct svg_fig *f);
/* Releases a figure without finishing it. */
void svg_fig_release(struct svg_fig *f);

#endif
