/* The report's plots (internal to reports/, prefix pl_): plots.c writes the files
 * (rp_plots_write, rp_plot_compare_write), plots_ulp.c draws the ulp error per binade (on a
 * symlog and a linear x axis), plots_compare.c the combined plot of compare, plots_tail.c
 * the tail and the deviation of an approximation from the exact function.
 *
 * Each pl_*_svg returns 0 with *out the malloc'ed SVG document, or *out NULL when the kernel
 * has nothing to draw (the suite did not run, an older result without the plot data); -1 on
 * no memory. */
#ifndef GELUCHECK_PLOTS_H
#define GELUCHECK_PLOTS_H

#include <jansson.h>

#include "geluref.h"
#include "svg.h"

/* Error shown as this when it is 0 on the log axis of the ulp plots. */
#define PL_ULP_FLOOR 1e-3

/* The kernel's dtype from its "dtype" member; 0 when missing or unknown. */
int pl_dtype(const json_t *kernel, enum geluref_dtype *dt);
/* The "metrics" of the kernel's suite `name`, NULL when it did not run. */
const json_t *pl_metrics(const json_t *kernel, const char *name);
/* A value object {"dec", "hex", "bits"} as a double (from its bits in dtype dt, else from
 * "hex"); a JSON number as itself; "nan", "inf", "-inf" as those; NaN when missing. */
double pl_value(const json_t *v, enum geluref_dtype dt);
/* The smallest subnormal and the largest finite value of dt. */
double pl_tiny(enum geluref_dtype dt);
double pl_max(enum geluref_dtype dt);

/* The x range of the linear ulp plot: the ulp suite's regions from -10 up (x < -10 is the
 * tail plot's), far enough up that every func of the gelu family has reached f(x) = x in
 * every dtype (binary64: from about 8.2) and erf, normcdf their saturation. */
#define PL_LINEAR_LO -10.0
#define PL_LINEAR_HI 10.0
/* Axis labels of the symlog ulp plots. */
#define PL_ULP_XLABEL \
    "x (symmetric log scale: each binade of either sign equally wide, 0 in the middle)"
#define PL_ULP_YLABEL "max ulp error (0 drawn at 0.001)"

/* The x axis of the ulp plots: symlog over [-max, max] with tiny as its smallest magnitude. */
void pl_ulp_xscale(double tiny, double max, struct svg_scale *x);
/* Step line data of an ulp suite's "binades": for each binade with a finite max_ulp the points
 * (lo, e) and (hi, e), e = max(max_ulp, PL_ULP_FLOOR); NaN, NaN between binades that do not
 * meet.  Returns the number of points written into x, y (at most 3 per binade), *max the
 * largest max_ulp seen (0 if none). */
size_t pl_binade_steps(const json_t *binades, enum geluref_dtype dt, double *x, double *y,
                       double *max);
/* The y axis of the ulp plots: log from PL_ULP_FLOOR to the power of ten above max (at
 * least 10). */
void pl_ulp_yscale(double max, struct svg_scale *y);

/* Colours of successive series (the "tab10" palette). */
extern const char *const pl_palette[10];

int pl_ulp_svg(const json_t *kernel, char **out);
int pl_ulp_linear_svg(const json_t *kernel, char **out);
int pl_tail_svg(const json_t *kernel, char **out);
int pl_approx_svg(const json_t *kernel, char **out);
int pl_compare_svg(json_t *const *docs, size_t n, char **out);

#endif
