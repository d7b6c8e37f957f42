/* plots_ulp.c: ulp error against x, over the whole range on the symmetric log axis of plots.h
 * (SLUG-ulp.svg), and on a linear axis from PL_LINEAR_LO to PL_LINEAR_HI, where the function
 * is neither flushed nor saturated (SLUG-ulp_linear.svg). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plots.h"
#include "suites.h"

/* The ulp suite's regions (suites/names.c) as x intervals; +-1 stands for the dtype's
 * largest finite value, 0 for its smallest subnormal of that sign. */
static const struct {
    const char *name;
    double lo, hi;
} regions[] = { { "x<-10", -1, -10 },  { "[-10,-5)", -10, -5 }, { "[-5,-1)", -5, -1 },
                { "[-1,0)", -1, -0.0 }, { "[0,1)", 0, 1 },       { "x>=1", 1, 1 } };
#define N_REGIONS (sizeof regions / sizeof regions[0])

/* The regions' max ulp as a step line, each region cut to [lo, hi] of the axis (those
 * outside left out): returns its number of points in x, y (3 per region). */
static size_t region_steps(const json_t *reg, double tiny, double max, double lo, double hi,
                           double *x, double *y)
{
    size_t n = 0;
    int joined = 0;
    for (size_t i = 0; i < N_REGIONS; i++) {
        const json_t *m = json_object_get(json_object_get(reg, regions[i].name), "max_ulp");
        double a = fmax(i == 0 ? -max : i == 4 ? tiny : regions[i].lo, lo);
        double b = fmin(i == 5 ? max : i == 3 ? -tiny : regions[i].hi, hi);
        if (!json_is_number(m) || i == 4 || !(a < b)) { /* nothing there, the gap at 0 */
            if (n > 0 && joined) {
                x[n] = y[n] = NAN;
                n++;
            }
            joined = 0;
            if (!json_is_number(m) || !(a < b))
                continue;
        }
        double e = fmax(json_number_value(m), PL_ULP_FLOOR);
        x[n] = a;
        y[n++] = e;
        x[n] = b;
        y[n++] = e;
        joined = 1;
    }
    return n;
}

/* Markers at the tail's flush point and last non-zero x, the span between them shaded; only
 * what lies within [lo, hi] of the axis. */
static void flush_markers(struct svg_fig *f, const json_t *kernel, enum geluref_dtype dt,
                          double lo, double hi)
{
    const json_t *tm = pl_metrics(kernel, "tail");
    const json_t *fp = json_object_get(tm, "flush_point"), *lnz = json_object_get(tm,
                                                                                "last_nonzero");
    double xf = pl_value(fp, dt), xl = pl_value(lnz, dt);
    char label[96];
    if (!isnan(xf) && !isnan(xl) && fmax(xf, xl) >= lo && fmin(xf, xl) <= hi)
        svg_span(f, fmax(fmin(xf, xl), lo), fmin(fmax(xf, xl), hi), pl_palette[1], 4,
                 "flush_region", "flush region: output 0 where RN(f(x)) is not");
    if (!isnan(xl) && xl >= lo && xl <= hi) {
        struct svg_style st = { .color = "#555", .width = 1.2, .dash = "5 3" };
        snprintf(label, sizeof label, "last non-zero %s",
                 json_string_value(json_object_get(lnz, "dec")));
        svg_vline(f, xl, &st, label, "last_nonzero", "last x with RN(f(x)) not 0 (tail suite)");
    }
    if (!isnan(xf) && xf >= lo && xf <= hi) {
        struct svg_style st = { .color = pl_palette[3], .width = 1.5 };
        snprintf(label, sizeof label, "flush %s", json_string_value(json_object_get(fp, "dec")));
        svg_vline(f, xf, &st, label, "flush_point", "flush point: first x with output 0");
    }
}

/* Red triangles at the top for the binades with NaN or infinite outputs (their middles
 * within [lo, hi] of the axis). */
static void nonfinite_markers(struct svg_fig *f, const json_t *bins, enum geluref_dtype dt,
                              double top, double lo, double hi)
{
    size_t i, n = 0;
    const json_t *b;
    double *x = malloc((json_array_size(bins) + 1) * sizeof *x);
    double *y = malloc((json_array_size(bins) + 1) * sizeof *y);
    if (!x || !y) {
        f->nomem = 1;
    } else {
        json_array_foreach(bins, i, b) {
            if (json_integer_value(json_object_get(b, "nonfinite")) <= 0)
                continue;
            double blo = pl_value(json_object_get(b, "lo"), dt);
            double bhi = pl_value(json_object_get(b, "hi"), dt);
            double mid = copysign(sqrt(fabs(blo) * fabs(bhi)), bhi); /* on the log axis */
            if (mid >= lo && mid <= hi) {
                x[n] = mid;
                y[n++] = top;
            }
        }
        struct svg_style st = { .color = pl_palette[3], .marker = SVG_MK_TRIANGLE, .size = 5 };
        if (n > 0)
            svg_series(f, x, y, n, &st, "binade with NaN or infinite outputs (at the top)");
    }
    free(x);
    free(y);
}

/* The binade steps of x, y[0..n) cut to [lo, hi]: the binades outside left out (they are
 * the first and the last ones: binades come in increasing x), the two at the ends cut.
 * Returns the new n. */
static size_t cut_steps(double *x, double *y, size_t n, double lo, double hi)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (isnan(x[i])) {
            if (k > 0 && !isnan(x[k - 1])) {
                x[k] = y[k] = NAN;
                k++;
            }
        } else if (i + 1 < n && !(x[i + 1] < lo || x[i] > hi)) {
            x[k] = fmax(x[i], lo), y[k++] = y[i];
            x[k] = fmin(x[i + 1], hi), y[k++] = y[i + 1];
            i++;
        } else {
            i++; /* a binade outside */
        }
    }
    return k;
}

/* Circles at the x where each binade within [lo, hi] has its largest error. */
static void argmax_markers(struct svg_fig *f, const json_t *bins, enum geluref_dtype dt,
                           double lo, double hi, double *x, double *y)
{
    size_t i, n = 0;
    const json_t *b;
    json_array_foreach(bins, i, b) {
        const char *bits = json_string_value(json_object_get(b, "max_ulp_x"));
        const json_t *m = json_object_get(b, "max_ulp");
        char *end;
        if (!bits || !json_is_number(m))
            continue;
        double v = gs_to_double(dt, strtoull(bits, &end, 16));
        if (*end == '\0' && v >= lo && v <= hi) {
            x[n] = v;
            y[n++] = fmax(json_number_value(m), PL_ULP_FLOOR);
        }
    }
    struct svg_style st = { .color = pl_palette[0], .marker = SVG_MK_CIRCLE, .size = 2.5 };
    if (n > 0)
        svg_series(f, x, y, n, &st, "where each binade has its largest error");
}

static const char *str(const json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s ? s : "?";
}

#define LINEAR_X_LABEL \
    "x (linear scale; x < -10 is in the tail plot, |x| > 10 in the full-range one)"

/* The ulp plot of a kernel over the whole range (linear 0) or on [PL_LINEAR_LO, PL_LINEAR_HI]
 * (linear 1); both with the y axis of the whole range, so that heights compare. */
static int ulp_svg(const json_t *kernel, char **out, int linear)
{
    enum geluref_dtype dt;
    const json_t *um = pl_metrics(kernel, "ulp");
    const json_t *bins = json_object_get(um, "binades");
    *out = NULL;
    if (!json_is_array(bins) || !pl_dtype(kernel, &dt))
        return 0;
    size_t cap = 3 * json_array_size(bins) + 3 * N_REGIONS + 1;
    double *x = malloc(cap * sizeof *x), *y = malloc(cap * sizeof *y), max;
    if (!x || !y) {
        free(x);
        free(y);
        return -1;
    }
    size_t n = pl_binade_steps(bins, dt, x, y, &max);
    double lo = linear ? fmax(PL_LINEAR_LO, -pl_max(dt)) : -pl_max(dt);
    double hi = linear ? fmin(PL_LINEAR_HI, pl_max(dt)) : pl_max(dt);
    struct svg_scale sx = { .kind = SVG_LINEAR, .lo = lo, .hi = hi }, sy;
    if (!linear)
        pl_ulp_xscale(pl_tiny(dt), pl_max(dt), &sx);
    pl_ulp_yscale(max, &sy);
    char title[256];
    snprintf(title, sizeof title, "%s %s (%s %s): max ulp error per binade of x%s",
             str(kernel, "adapter"), str(kernel, "kernel"), str(kernel, "func"),
             str(kernel, "dtype"), linear ? ", -10 <= x <= 10" : "");
    struct svg_fig f;
    svg_fig_init(&f, title, &sx, &sy);
    svg_axes(&f, linear ? LINEAR_X_LABEL : PL_ULP_XLABEL, PL_ULP_YLABEL);
    flush_markers(&f, kernel, dt, lo, hi);
    struct svg_style reg = { .color = "#7f7f7f", .width = 1.2, .dash = "6 3" };
    size_t nr = region_steps(json_object_get(um, "regions"), pl_tiny(dt), pl_max(dt), lo, hi,
                             x, y);
    if (nr > 0)
        svg_series(&f, x, y, nr, &reg,
                   linear ? "max ulp per region ([-10,-5), [-5,-1), ..., x>=1)"
                          : "max ulp per region (x<-10, [-10,-5), ..., x>=1)");
    n = pl_binade_steps(bins, dt, x, y, &max);
    if (linear)
        n = cut_steps(x, y, n, lo, hi);
    struct svg_style line = { .color = pl_palette[0], .width = 1.6 };
    svg_series(&f, x, y, n, &line, "max ulp per binade (ulp suite)");
    if (linear)
        argmax_markers(&f, bins, dt, lo, hi, x, y);
    nonfinite_markers(&f, bins, dt, sy.hi, lo, hi);
    free(x);
    free(y);
    *out = svg_fig_finish(&f);
    return *out ? 0 : -1;
}

int pl_ulp_svg(const json_t *kernel, char **out) { return ulp_svg(kernel, out, 0); }
int pl_ulp_linear_svg(const json_t *kernel, char **out) { return ulp_svg(kernel, out, 1); }
