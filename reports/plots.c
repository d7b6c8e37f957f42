/* plots.c: writing the plots of a report (reports.h) and what the plot files share: reading
 * values out of a result, the axes of the ulp plots (plots.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plots.h"
#include "resread.h"
#include "reports.h"

const char *const pl_palette[10] = { "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                                     "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf" };

int pl_dtype(const json_t *kernel, enum geluref_dtype *dt)
{
    const char *s = json_string_value(json_object_get(kernel, "dtype"));
    return s && geluref_dtype_from_name(s, dt) == 0;
}

const json_t *pl_metrics(const json_t *kernel, const char *name)
{
    return json_object_get(rr_suite(kernel, name), "metrics");
}

double pl_value(const json_t *v, enum geluref_dtype dt)
{
    if (json_is_number(v))
        return json_number_value(v);
    const char *s = json_string_value(v);
    if (s)
        return strcmp(s, "inf") == 0 ? HUGE_VAL : strcmp(s, "-inf") == 0 ? -HUGE_VAL : NAN;
    const char *bits = json_string_value(json_object_get(v, "bits"));
    if (bits && dt) {
        char *end;
        unsigned long long b = strtoull(bits, &end, 16);
        if (*end == '\0' && end != bits)
            return gs_to_double(dt, b);
    }
    const char *hex = json_string_value(json_object_get(v, "hex"));
    return hex ? strtod(hex, NULL) : NAN;
}

double pl_tiny(enum geluref_dtype dt)
{
    const struct geluref_dtype_info *i = geluref_dtype_info(dt);
    return i ? ldexp(1, i->emin - i->prec + 1) : 0x1p-1074;
}

double pl_max(enum geluref_dtype dt)
{
    const struct geluref_dtype_info *i = geluref_dtype_info(dt);
    return i ? ldexp(2 - ldexp(1, 1 - i->prec), i->emax) : 0x1.fffffffffffffp+1023;
}

void pl_ulp_xscale(double tiny, double max, struct svg_scale *x)
{
    *x = (struct svg_scale){ .kind = SVG_SYMLOG, .lo = -max, .hi = max, .tiny = tiny };
}

void pl_ulp_yscale(double max, struct svg_scale *y)
{
    double hi = pow(10, ceil(log10(fmax(max, 10)) + 1e-9));
    *y = (struct svg_scale){ .kind = SVG_LOG, .lo = PL_ULP_FLOOR, .hi = hi };
}

size_t pl_binade_steps(const json_t *binades, enum geluref_dtype dt, double *x, double *y,
                       double *max)
{
    size_t n = 0, i;
    const json_t *b;
    double prev_hi = NAN;
    struct svg_scale sx;
    pl_ulp_xscale(pl_tiny(dt), pl_max(dt), &sx);
    *max = 0;
    json_array_foreach(binades, i, b) {
        const json_t *m = json_object_get(b, "max_ulp");
        if (!json_is_number(m)) {
            prev_hi = NAN;
            continue;
        }
        double lo = pl_value(json_object_get(b, "lo"), dt);
        double hi = pl_value(json_object_get(b, "hi"), dt);
        double e = json_number_value(m);
        /* the subnormal binade's field range reaches +-0 (the special suite's): from +-tiny */
        lo = lo == 0 ? pl_tiny(dt) : lo;
        hi = hi == 0 ? -pl_tiny(dt) : hi;
        *max = fmax(*max, e);
        /* binades that do not meet (one left out between, or -tiny .. tiny, two units apart
         * on the symlog axis) are not joined; neighbours are a float apart */
        if (n > 0 && !(svg_scale_t(&sx, lo) - svg_scale_t(&sx, prev_hi) < 0.5)) {
            x[n] = y[n] = NAN;
            n++;
        }
        x[n] = lo;
        y[n++] = fmax(e, PL_ULP_FLOOR);
        x[n] = hi;
        y[n++] = fmax(e, PL_ULP_FLOOR);
        prev_hi = hi;
    }
    return n;
}

/* Writes one plot file, DIR/SLUG-SUFFIX.svg; *which |= bit when one was written.  No suffix
 * holds a '-': then no SLUG-SUFFIX is another kernel's SLUG2-SUFFIX2. */
static int write_one(int (*draw)(const json_t *, char **), const json_t *kernel,
                     const char *dir, const char *slug, const char *suffix, unsigned bit,
                     unsigned *which, char *msg, size_t size)
{
    char *text = NULL;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s-%s.svg", dir, slug, suffix);
    if (draw(kernel, &text) != 0) {
        snprintf(msg, size, "cannot draw '%s': out of memory", path);
        return -1;
    }
    if (!text)
        return 0;
    int rc = rp_write_text(path, text, msg, size);
    free(text);
    if (rc == 0)
        *which |= bit;
    return rc;
}

int rp_plots_write(const json_t *kernel, const char *plots_dir, unsigned *which, char *msg,
                   size_t size)
{
    char slug[RP_SLUG_SIZE];
    unsigned w = 0;
    rp_kernel_slug(kernel, slug, sizeof slug);
    int rc = write_one(pl_ulp_svg, kernel, plots_dir, slug, "ulp", RP_PLOT_ULP, &w, msg, size);
    if (rc == 0)
        rc = write_one(pl_ulp_linear_svg, kernel, plots_dir, slug, "ulp_linear",
                       RP_PLOT_ULP_LINEAR, &w, msg, size);
    if (rc == 0)
        rc = write_one(pl_tail_svg, kernel, plots_dir, slug, "tail", RP_PLOT_TAIL, &w, msg,
                       size);
    if (rc == 0)
        rc = write_one(pl_approx_svg, kernel, plots_dir, slug, "approx", RP_PLOT_APPROX, &w,
                       msg, size);
    if (which)
        *which = w;
    return rc;
}

int rp_plot_compare_write(json_t *const *docs, size_t n, const char *path, char *msg,
                          size_t size)
{
    char *text = NULL;
    if (pl_compare_svg(docs, n, &text) != 0 || !text) {
        snprintf(msg, size, "cannot draw '%s': out of memory", path);
        return -1;
    }
    int rc = rp_write_text(path, text, msg, size);
    free(text);
    return rc;
}
