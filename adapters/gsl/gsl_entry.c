/* The built-in `gsl` adapter: the GNU Scientific Library's error functions and normal CDF, and
 * GELU written on them the ways people write it, all in double (issue 21):
 *     erf.f64          gsl_sf_erf(x)
 *     erfc.f64         gsl_sf_erfc(x)
 *     normcdf.f64      gsl_cdf_ugaussian_P(x)
 *     gelu_cdf.f64     x * gsl_cdf_ugaussian_P(x)
 *     gelu_erf.f64     0.5 * x * (1 + gsl_sf_erf(x / M_SQRT2))
 *     gelu_erfc.f64    0.5 * x * gsl_sf_erfc(-x / M_SQRT2)
 *
 * What GSL claims.  The reference manual (GSL 2.7, "Special Functions") documents no accuracy
 * bound for gsl_sf_erf or gsl_sf_erfc: every special function "also computes an estimate of
 * the numerical error", returned only by the _e forms (gsl_sf_erf_e: result->err, an estimate
 * of the absolute error), and the natural forms called here return the value alone.  The
 * precision modes (GSL_PREC_DOUBLE, "a relative accuracy of approximately 2 * 10^-16") apply
 * to functions that take a mode argument; the error functions take none.  gsl_sf_erf.h says
 * "exceptions: none" for both.  The manual documents no accuracy for gsl_cdf_ugaussian_P
 * either ("The Gaussian Distribution"); its source (cdf/gauss.c) says: Cody's rational
 * Chebyshev approximations (1969), "accurate to at least double precision ... The largest
 * error found was about 1.4E-20", and returns exactly 0.5 for |x| < DBL_EPSILON/2, 1 for
 * x > 8.572 and 0 for x < -37.519.  specfunc/erfc.c: Chebyshev fits of erfc on |x| <= 1,
 * (1, 5] and (5, 10), Hart's rational erfc8 above; erf = 1 - erfc for |x| >= 1, a 30-term
 * Taylor series below; erfc(-x) = 2 - erfc(x).
 *
 * Errors.  GSL's default error handler prints and calls abort(); a user's numeric kernel
 * turns it off (gsl_set_error_handler_off), as this adapter does at its first entry, so that
 * an error status (underflow, say) returns the value instead of killing the process.
 *
 * The glue is plain C built with -ffp-contract=off: every * and + rounds once, as written.
 * M_SQRT2 is gsl_math.h's RN(sqrt 2).  The version: gsl_version.h's GSL_VERSION at build time
 * and the library's gsl_version string at run time.
 */
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_math.h>
#include <gsl/gsl_sf_erf.h>
#include <gsl/gsl_version.h>

#include "gc_gsl.h"

enum form { ERF, ERFC, NORMCDF, GELU_CDF, GELU_ERF, GELU_ERFC, NFORMS };

static double form_eval(enum form f, double x)
{
    switch (f) {
    case ERF:
        return gsl_sf_erf(x);
    case ERFC:
        return gsl_sf_erfc(x);
    case NORMCDF:
        return gsl_cdf_ugaussian_P(x);
    case GELU_CDF:
        return x * gsl_cdf_ugaussian_P(x);
    case GELU_ERF:
        return 0.5 * x * (1 + gsl_sf_erf(x / M_SQRT2));
    default:
        return 0.5 * x * gsl_sf_erfc(-x / M_SQRT2);
    }
}

static void run(enum form f, const void *xv, void *yv, size_t n)
{
    const double *x = xv;
    double *y = yv;
    for (size_t i = 0; i < n; i++) /* x == y works: y[i] is written after x[i] is read */
        y[i] = form_eval(f, x[i]);
}

#define EVAL(f)                                                          \
    static int ev_##f(void *ctx, const void *x, void *y, size_t n)       \
    {                                                                    \
        (void)ctx;                                                       \
        run(f, x, y, n);                                                 \
        return 0;                                                        \
    }
EVAL(ERF)
EVAL(ERFC)
EVAL(NORMCDF)
EVAL(GELU_CDF)
EVAL(GELU_ERF)
EVAL(GELU_ERFC)

static const struct {
    const char *name, *formula, *claim;
    uint32_t func;
    int (*eval)(void *, const void *, void *, size_t);
} forms[NFORMS] = {
    { "erf.f64", "erf gsl_sf_erf(x)",
      "no bound documented (an error estimate only from gsl_sf_erf_e)", GELUCHECK_ERF,
      ev_ERF },
    { "erfc.f64", "erfc gsl_sf_erfc(x)",
      "no bound documented (an error estimate only from gsl_sf_erfc_e)", GELUCHECK_ERFC,
      ev_ERFC },
    { "normcdf.f64", "normcdf gsl_cdf_ugaussian_P(x)",
      "no bound documented; source: Cody's rational approximations, 0 below x = -37.519, "
      "1 above 8.572", GELUCHECK_NORMCDF, ev_NORMCDF },
    { "gelu_cdf.f64", "gelu x*gsl_cdf_ugaussian_P(x), in double",
      "no bound documented for gsl_cdf_ugaussian_P; source: 0 below x = -37.519",
      GELUCHECK_GELU, ev_GELU_CDF },
    { "gelu_erf.f64", "gelu 0.5*x*(1+gsl_sf_erf(x/M_SQRT2)), in double",
      "no bound documented for gsl_sf_erf", GELUCHECK_GELU, ev_GELU_ERF },
    { "gelu_erfc.f64", "gelu 0.5*x*gsl_sf_erfc(-x/M_SQRT2), in double",
      "no bound documented for gsl_sf_erfc", GELUCHECK_GELU, ev_GELU_ERFC },
};

static struct gelucheck_kernel kernels[NFORMS];
static char descs[NFORMS][400];
static char version[96];
static struct gelucheck_plugin plugin;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void init(void)
{
    gsl_set_error_handler_off();
    /* gsl_version: the library loaded at run time; GSL_VERSION: the header built against */
    snprintf(version, sizeof version, "GSL %s", gsl_version);
    for (int f = 0; f < NFORMS; f++) {
        snprintf(descs[f], sizeof descs[f],
                 "%s; GSL claims: %s; GSL %s (gsl_version.h %s), error handler off, f64",
                 forms[f].formula, forms[f].claim, gsl_version, GSL_VERSION);
        kernels[f] = (struct gelucheck_kernel){ forms[f].name, descs[f], forms[f].func,
                                                GELUCHECK_F64, forms[f].eval };
    }
    plugin = (struct gelucheck_plugin){
        .abi_version = GELUCHECK_PLUGIN_ABI,
        .struct_size = (uint32_t)sizeof(struct gelucheck_plugin),
        .kernel_size = (uint32_t)sizeof(struct gelucheck_kernel),
        .name = "gsl",
        .version = version,
        .open = NULL, /* stateless: every ctx is NULL */
        .close = NULL,
        .last_error = NULL, /* no kernel fails */
        .n_kernels = NFORMS,
        .kernels = kernels,
    };
}

const struct gelucheck_plugin *gc_gsl_entry(uint32_t host_abi)
{
    if (host_abi < 1)
        return NULL;
    pthread_once(&once, init);
    return &plugin;
}
