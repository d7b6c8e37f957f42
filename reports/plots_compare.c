/* plots_compare.c: the combined plot of `gelucheck compare` (compare.svg): max ulp error per
 * binade of x, one line per kernel of every result, on the symmetric log axis of plots.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "plots.h"

static const char *str(const json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s ? s : "?";
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
    svg_axes(&f, PL_ULP_XLABEL, PL_ULP_YLABEL);
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
