/* plots_ulp.c: ulp error against x over the whole range (SLUG-ulp.svg) and the combined
 * plot of `gelucheck compare`, both on the symmetric log axis of plots.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plots.h"

/* The ulp suite's regions (suites/names.c) as x intervals; +-1 stands for the dtype's
 * largest finite value, 0 for its smallest subnormal of that sign. */
static const struct {
    const char *name;
    double lo, hi;
} regions[] = { { "x<-10", -1, -10 },  { "[-10,-5)", -10, -5 }, { "[-5,-1)", -5, -1 },
                { "[-1,0)", -1, -0.0 }, { "[0,1)", 0, 1 },       { "x>=1", 1, 1 } };
#define N_REGIONS (sizeof regions / sizeof regions[0])

/* The regions' max ulp as a step line: returns its number of points in x, y (3 per region). */
static size_t region_steps(const json_t *reg, double tiny, double max, double *x, double *y)
{
    size_t n = 0;
    int joined = 0;
    for (size_t i = 0; i < N_REGIONS; i++) {
        const json_t *m = json_object_get(json_object_get(reg, regions[i].name), "max_ulp");
        if (!json_is_number(m) || i == 4) { /* nothing there, or the gap at 0 */
            if (n > 0 && joined) {
                x[n] = y[n] = NAN;
                n++;
            }
            joined = 0;
            if (!json_is_number(m))
                continue;
        }
        double lo = i == 0 ? -max : i == 4 ? tiny : regions[i].lo;
        double hi = i == 5 ? max : i == 3 ? -tiny : regions[i].hi;
        double e = fmax(json_number_value(m), PL_ULP_FLOOR);
        x[n] = lo;
        y[n++] = e;
        x[n] = hi;
        y[n++] = e;
        joined = 1;
    }
    return n;
}

/* Markers at the tail's flush point and last non-zero x, the span between them shaded. */
static void flush_markers(struct svg_fig *f, const json_t *kernel, enum geluref_dtype dt)
{
    const json_t *tm = pl_metrics(kernel, "tail");
    const json_t *fp = json_object_get(tm, "flush_point"), *lnz = json_object_get(tm,
                                                                                "last_nonzero");
    double xf = pl_value(fp, dt), xl = pl_value(lnz, dt);
    char label[96];
    if (!isnan(xf) && !isnan(xl))
        svg_span(f, xf, xl, pl_palette[1], 4, "flush_region",
                 "flush region: output 0 where RN(f(x)) is not");
    if (!isnan(xl)) {
        struct svg_style st = { .color = "#555", .width = 1.2, .dash = "5 3" };
        snprintf(label, sizeof label, "last non-zero %s",
                 json_string_value(json_object_get(lnz, "dec")));
        svg_vline(f, xl, &st, label, "last_nonzero", "last x with RN(f(x)) not 0 (tail suite)");
    }
    if (!isnan(xf)) {
        struct svg_style st = { .color = pl_palette[3], .width = 1.5 };
        snprintf(label, sizeof label, "flush %s", json_string_value(json_object_get(fp, "dec")));
        svg_vline(f, xf, &st, label, "flush_point", "flush point: first x with output 0");
    }
}

/* Red triangles at the top for the binades with NaN or infinite outputs. */
static void nonfinite_markers(struct svg_fig *f, const json_t *bins, enum geluref_dtype dt,
                              double top)
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
            double lo = pl_value(json_object_get(b, "lo"), dt);
            double hi = pl_value(json_object_get(b, "hi"), dt);
            x[n] = copysign(sqrt(fabs(lo) * fabs(hi)), hi); /* the middle on the log axis */
            y[n++] = top;
        }
        struct svg_style st = { .color = pl_palette[3], .marker = SVG_MK_TRIANGLE, .size = 5 };
        if (n > 0)
            svg_series(f, x, y, n, &st, "binade with NaN or infinite outputs (at the top)");
    }
    free(x);
    free(y);
}

static const char *str(const json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s ? s : "?";
}

#define X_LABEL "x (symmetric log scale: each binade of either sign equally wide, 0 in the middle)"
#define Y_LABEL "max ulp error (0 drawn at 0.001)"

int pl_ulp_svg(const json_t *kernel, char **out)
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
    struct svg_scale sx, sy;
    pl_ulp_xscale(pl_tiny(dt), pl_max(dt), &sx);
    pl_ulp_yscale(max, &sy);
    char title[256];
    snprintf(title, sizeof title, "%s %s (%s %s): max ulp error per binade of x",
             str(kernel, "adapter"), str(kernel, "kernel"), str(kernel, "func"),
             str(kernel, "dtype"));
    struct svg_fig f;
    svg_fig_init(&f, title, &sx, &sy);
    svg_axes(&f, X_LABEL, Y_LABEL);
    flush_markers(&f, kernel, dt);
    struct svg_style reg = { .color = "#7f7f7f", .width = 1.2, .dash = "6 3" };
    size_t nr = region_steps(json_object_get(um, "regions"), pl_tiny(dt), pl_max(dt), x, y);
    if (nr > 0)
        svg_series(&f, x, y, nr, &reg, "max ulp per region (x<-10, [-10,-5), ..., x>=1)");
    n = pl_binade_steps(bins, dt, x, y, &max);
    struct svg_style line = { .color = pl_palette[0], .width = 1.6 };
    svg_series(&f, x, y, n, &line, "max ulp per binade (ulp suite)");
    nonfinite_markers(&f, bins, dt, sy.hi);
    free(x);
    free(y);
    *out = svg_fig_finish(&f);
    return *out ? 0 : -1;
}

/* Dash patterns of the compare plot's lines past the tenth (the palette repeats). */
static const char *const dashes[] = { NULL, "6 3", "2 2", "8 3 2 3" };

int pl_compare_svg(json_t *const *docs, size_t n_docs, char **out)
{
    double tiny = 0x1p-24, max = 65504, ymax = 0; /* f16's, widened by every kernel */
    size_t cap = 1, n_lines = 0, d, i;
    const json_t *k;
    *out = NULL;
    for (d = 0; d < n_docs; d++)
        json_array_foreach(json_object_get(docs[d], "kernels"), i, k) {
            enum geluref_dtype dt;
            const json_t *bins = json_object_get(pl_metrics(k, "ulp"), "binades");
            if (!pl_dtype(k, &dt) || !json_is_array(bins))
                continue;
            tiny = fmin(tiny, pl_tiny(dt));
            max = fmax(max, pl_max(dt));
            cap = cap > 3 * json_array_size(bins) + 1 ? cap : 3 * json_array_size(bins) + 1;
        }
    double *x = malloc(cap * sizeof *x), *y = malloc(cap * sizeof *y);
    if (!x || !y) {
        free(x);
        free(y);
        return -1;
    }
    for (d = 0; d < n_docs; d++) /* the y axis: the largest max ulp of all */
        json_array_foreach(json_object_get(docs[d], "kernels"), i, k) {
            enum geluref_dtype dt;
            double m = 0;
            if (pl_dtype(k, &dt))
                pl_binade_steps(json_object_get(pl_metrics(k, "ulp"), "binades"), dt, x, y, &m);
            ymax = fmax(ymax, m);
        }
    struct svg_scale sx, sy;
    pl_ulp_xscale(tiny, max, &sx);
    pl_ulp_yscale(ymax, &sy);
    struct svg_fig f;
    svg_fig_init(&f, "max ulp error per binade of x, by kernel", &sx, &sy);
    svg_axes(&f, X_LABEL, Y_LABEL);
    for (d = 0; d < n_docs; d++)
        json_array_foreach(json_object_get(docs[d], "kernels"), i, k) {
            enum geluref_dtype dt;
            const json_t *bins = json_object_get(pl_metrics(k, "ulp"), "binades");
            double m;
            if (!pl_dtype(k, &dt) || !json_is_array(bins))
                continue;
            size_t n = pl_binade_steps(bins, dt, x, y, &m);
            struct svg_style st = { .color = pl_palette[n_lines % 10], .width = 1.4,
                                    .dash = dashes[n_lines / 10 % 4] };
            char label[256];
            snprintf(label, sizeof label, "%s %s", str(k, "adapter"), str(k, "kernel"));
            svg_series(&f, x, y, n, &st, label);
            n_lines++;
        }
    if (n_lines == 0) {
        struct svg_style none = { .color = "#333" };
        svg_legend_add(&f, "no kernel with ulp suite results", &none, SVG_LEG_LINE);
    }
    free(x);
    free(y);
    *out = svg_fig_finish(&f);
    return *out ? 0 : -1;
}
