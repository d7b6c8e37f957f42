/* plots_tail.c: the kernel's output against the correctly rounded curve in the tail
 * (SLUG-tail.svg, from the tail suite's "curve") and an approximation's deviation from the
 * exact function (SLUG-approx.svg, from "vs_exact"."curve"). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "plots.h"

static const char *str(const json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s ? s : "?";
}

/* The curve's columns (x, got, want) as doubles into c[0..2]; returns the number of rows, 0
 * when there is none, (size_t)-1 on no memory. */
static size_t columns(const json_t *curve, double *c[3])
{
    size_t n = json_array_size(curve), i;
    const json_t *row;
    c[0] = c[1] = c[2] = NULL;
    if (n == 0)
        return 0;
    for (int j = 0; j < 3; j++)
        if (!(c[j] = malloc(n * sizeof *c[j]))) {
            for (int k = 0; k < j; k++)
                free(c[k]);
            return (size_t)-1;
        }
    json_array_foreach(curve, i, row)
        for (int j = 0; j < 3; j++)
            c[j][i] = pl_value(json_array_get(row, (size_t)j), 0);
    return n;
}

static void free3(double *c[3])
{
    for (int j = 0; j < 3; j++)
        free(c[j]);
}

/* The tail suite's marker lines: the flush point and the true underflow points. */
static void tail_markers(struct svg_fig *f, const json_t *tm, enum geluref_dtype dt)
{
    static const struct {
        const char *key, *label, *legend, *color, *dash;
    } m[] = {
        { "last_normal", "last normal", "last x with RN(f(x)) normal", "#7f7f7f", "2 2" },
        { "last_nonzero", "last non-zero", "last x with RN(f(x)) not 0", "#555", "5 3" },
        { "flush_point", "flush", "flush point: first x with output 0", "#d62728", NULL },
    };
    for (size_t i = 0; i < sizeof m / sizeof m[0]; i++) {
        const json_t *v = json_object_get(tm, m[i].key);
        double x = pl_value(v, dt);
        if (isnan(x))
            continue;
        char label[96];
        snprintf(label, sizeof label, "%s %s", m[i].label, str(v, "dec"));
        struct svg_style st = { .color = m[i].color, .width = 1.3, .dash = m[i].dash };
        svg_vline(f, x, &st, label, m[i].key, m[i].legend);
    }
}

int pl_tail_svg(const json_t *kernel, char **out)
{
    enum geluref_dtype dt;
    const json_t *tm = pl_metrics(kernel, "tail");
    double *c[3];
    *out = NULL;
    if (!pl_dtype(kernel, &dt))
        return 0;
    size_t n = columns(json_object_get(tm, "curve"), c);
    if (n == (size_t)-1)
        return -1;
    if (n == 0)
        return 0;
    /* axes: x from 0 to the curve's far end; y the decades of the non-zero |values| */
    double xlo = 0, xhi = 0, ymin = HUGE_VAL, ymax = 0;
    for (size_t i = 0; i < n; i++) {
        xlo = fmin(xlo, c[0][i]);
        xhi = fmax(xhi, c[0][i]);
        for (int j = 1; j < 3; j++) {
            double a = fabs(c[j][i]);
            c[j][i] = a;
            if (a > 0 && isfinite(a)) {
                ymin = fmin(ymin, a);
                ymax = fmax(ymax, a);
            }
        }
    }
    if (ymax == 0)
        ymin = ymax = 1;
    /* a decade below the smallest value: the zero outputs' row */
    double bottom = pow(10, floor(log10(ymin)) - 1), top = pow(10, ceil(log10(ymax) + 1e-9));
    if (bottom == 0) /* below the doubles: f64 subnormals */
        bottom = 0x1p-1074;
    struct svg_scale sx = { .kind = SVG_LINEAR, .lo = xlo, .hi = xhi > xlo ? xhi : xlo + 1 };
    struct svg_scale sy = { .kind = SVG_LOG, .lo = bottom, .hi = top };
    char title[256];
    snprintf(title, sizeof title, "%s %s (%s %s): the tail, output against the true curve",
             str(kernel, "adapter"), str(kernel, "kernel"), str(kernel, "func"),
             str(kernel, "dtype"));
    struct svg_fig f;
    svg_fig_init(&f, title, &sx, &sy);
    svg_axes(&f, "x", "|f(x)| (log scale; zero outputs on the bottom row)");
    tail_markers(&f, tm, dt);
    /* zero outputs: where RN(f(x)) is not zero (flushed), and where it is */
    double *zx = malloc(2 * n * sizeof *zx), *zy = malloc(2 * n * sizeof *zy);
    if (!zx || !zy) {
        f.nomem = 1;
    } else {
        size_t nz = 0, nb = 0;
        for (size_t i = 0; i < n; i++)
            if (c[1][i] == 0 && c[2][i] != 0) {
                zx[nz] = c[0][i];
                zy[nz++] = bottom;
            } else if (c[1][i] == 0) {
                zx[n + nb] = c[0][i];
                zy[n + nb++] = bottom;
            }
        struct svg_style both = { .color = "#7f7f7f", .marker = SVG_MK_CIRCLE, .size = 2 };
        struct svg_style flush = { .color = pl_palette[3], .marker = SVG_MK_CROSS, .size = 3 };
        if (nb)
            svg_series(&f, zx + n, zy + n, nb, &both, "output 0 = RN(f(x)) (bottom row)");
        if (nz)
            svg_series(&f, zx, zy, nz, &flush, "output 0 where RN(f(x)) is not (bottom row)");
    }
    free(zx);
    free(zy);
    for (size_t i = 0; i < n; i++) /* zeros are not on the log axis: breaks in the lines */
        for (int j = 1; j < 3; j++)
            c[j][i] = c[j][i] > 0 ? c[j][i] : NAN;
    struct svg_style want = { .color = pl_palette[0], .width = 2.2 };
    struct svg_style got = { .color = pl_palette[1], .width = 1.2, .dash = "4 2",
                             .marker = SVG_MK_CIRCLE, .size = 1.6 };
    svg_series(&f, c[0], c[2], n, &want, "|RN(f(x))|, correctly rounded");
    svg_series(&f, c[0], c[1], n, &got, "|kernel output|");
    free3(c);
    *out = svg_fig_finish(&f);
    return *out ? 0 : -1;
}

int pl_approx_svg(const json_t *kernel, char **out)
{
    const json_t *vx = json_object_get(kernel, "vs_exact");
    double *c[3];
    *out = NULL;
    if (!json_object_get(vx, "curve")) /* older results: only in the ulp suite's metrics */
        vx = json_object_get(pl_metrics(kernel, "ulp"), "vs_exact");
    size_t n = columns(json_object_get(vx, "curve"), c);
    if (n == (size_t)-1)
        return -1;
    if (n == 0)
        return 0;
    double xlo = HUGE_VAL, xhi = -HUGE_VAL, m = 0;
    for (size_t i = 0; i < n; i++) {
        xlo = fmin(xlo, c[0][i]);
        xhi = fmax(xhi, c[0][i]);
        c[1][i] -= c[2][i]; /* got - exact, exact in the dtype's RN: 0 when they agree */
        if (isfinite(c[1][i]))
            m = fmax(m, fabs(c[1][i]));
        else
            c[1][i] = NAN;
    }
    m = m > 0 ? m * 1.15 : 1;
    struct svg_scale sx = { .kind = SVG_LINEAR, .lo = xlo, .hi = xhi > xlo ? xhi : xlo + 1 };
    struct svg_scale sy = { .kind = SVG_LINEAR, .lo = -m, .hi = m };
    char title[256], ylabel[128], legend[128];
    const char *ex = str(vx, "func");
    snprintf(title, sizeof title, "%s %s (%s %s): deviation from the exact %s",
             str(kernel, "adapter"), str(kernel, "kernel"), str(kernel, "func"),
             str(kernel, "dtype"), ex);
    snprintf(ylabel, sizeof ylabel, "output - RN(%s(x))", ex);
    snprintf(legend, sizeof legend, "kernel output - RN(%s(x)), the exact function rounded", ex);
    struct svg_fig f;
    svg_fig_init(&f, title, &sx, &sy);
    svg_axes(&f, "x", ylabel);
    struct svg_style zero = { .color = "#555", .width = 1 };
    svg_hline(&f, 0, &zero, "0: the kernel gives RN of the exact function");
    struct svg_style dev = { .color = pl_palette[4], .width = 1.4, .marker = SVG_MK_CIRCLE,
                             .size = 1.6 };
    svg_series(&f, c[0], c[1], n, &dev, legend);
    free3(c);
    *out = svg_fig_finish(&f);
    return *out ? 0 : -1;
}
