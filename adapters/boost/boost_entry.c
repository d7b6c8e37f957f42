/* The built-in `boost` adapter: Boost.Math's error functions and normal distribution, and GELU
 * written on them, in double and float (issue 21).  T is double (.f64) or float (.f32):
 *     erf.DT          boost::math::erf(x)
 *     erfc.DT         boost::math::erfc(x)
 *     normcdf.DT      cdf(normal_distribution<T>(), x)
 *     gelu_cdf.DT     x * cdf(normal_distribution<T>(), x)
 *     gelu_erf.DT     T(0.5) * x * (T(1) + erf(x * one_div_root_two<T>()))
 *     gelu_erfc.DT    T(0.5) * x * erfc(-x * one_div_root_two<T>())
 * (boost_math.cpp; one_div_root_two<T>() is Boost's constant 1/sqrt2 rounded to T).
 *
 * What Boost claims.  The Boost.Math 1.74 documentation, "Error Functions", Accuracy: no bound,
 * but the peak errors its tests found "in units of epsilon" (for double, 2^-52: one ulp of a
 * value in [1, 2)), per test set and platform: erf (Table 8.28) from 0.841 to 0.925 eps on
 * small values and 1 to 1.5 eps on medium ones (GNU C++ 7.1 on Linux, Sun, MSVC 14.1), erfc
 * in a table of the same form.  Implementation: rational
 * approximations for 53- and 64-bit significands, "in all but a very small number of cases,
 * the error is confined to the last bit of the result"; float is "handled via promotion to
 * double".  "Normal (Gaussian) Distribution", Accuracy: "implemented in terms of the error
 * function, and as such should have very low error rates"; cdf: p = 0.5 * erfc(-(x-m)/(s *
 * sqrt(2))) (in the header, (x - 0) / (1 * root_two<T>()), a division by RN(sqrt2)), and
 * cdf(-inf) = 0, cdf(+inf) = 1 before any arithmetic.
 *
 * The policy (boost_policy.hpp): Boost's default throws on domain, pole, overflow, evaluation
 * and rounding errors; here they are errno_on_error (NaN for a NaN argument, as <math.h>),
 * the policy Boost.Math uses itself without exceptions and in its C99 library.  Precision
 * policies stay at the defaults, so double arguments are evaluated in long double (x87,
 * 64-bit significand: promote_double) and float in double (promote_float), then rounded.
 *
 * C and C++: this file is C; the Boost calls are in boost_math.cpp behind the C functions of
 * boost_internal.h, which catch every exception.  Boost.Math is header-only: the version is
 * boost/version.hpp's at build time, and the C++ compiler is named in the descriptions.
 */
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "boost_internal.h"
#include "gc_boost.h"

#define MSG_SIZE 256

struct ctx {
    char msg[MSG_SIZE];
};

static int open_ctx(void **ctx, const char *options)
{
    (void)options;
    struct ctx *c = calloc(1, sizeof *c);
    *ctx = c;
    return c == NULL;
}

static void close_ctx(void *ctx)
{
    free(ctx);
}

static const char *last_error(void *ctx)
{
    return ctx != NULL ? ((struct ctx *)ctx)->msg : "no context";
}

/* One eval per (form, dtype): the ABI's eval carries no kernel id. */
#define EVAL(f)                                                                            \
    static int ev_f64_##f(void *ctx, const void *x, void *y, size_t n)                    \
    {                                                                                      \
        struct ctx *c = ctx;                                                               \
        char spare[MSG_SIZE];                                                              \
        return gc_boost_map_f64(f, x, y, n, c != NULL ? c->msg : spare, MSG_SIZE);         \
    }                                                                                      \
    static int ev_f32_##f(void *ctx, const void *x, void *y, size_t n)                    \
    {                                                                                      \
        struct ctx *c = ctx;                                                               \
        char spare[MSG_SIZE];                                                              \
        return gc_boost_map_f32(f, x, y, n, c != NULL ? c->msg : spare, MSG_SIZE);         \
    }
EVAL(0)
EVAL(1)
EVAL(2)
EVAL(3)
EVAL(4)
EVAL(5)
_Static_assert(GC_BOOST_ERF == 0 && GC_BOOST_GELU_ERFC == 5 && GC_BOOST_NFORMS == 6,
               "EVAL(f) are the forms");

typedef int eval_fn(void *ctx, const void *x, void *y, size_t n);
static eval_fn *const evals[GC_BOOST_NFORMS][2] = {
    { ev_f64_0, ev_f32_0 }, { ev_f64_1, ev_f32_1 }, { ev_f64_2, ev_f32_2 },
    { ev_f64_3, ev_f32_3 }, { ev_f64_4, ev_f32_4 }, { ev_f64_5, ev_f32_5 },
};

static const struct {
    const char *name, *formula[2], *claim;
    uint32_t func;
} forms[GC_BOOST_NFORMS] = {
    { "erf", { "erf boost::math::erf(x) (double)", "erf boost::math::erf(x) (float)" },
      "peak errors of 0.84 to 1.5 eps on its tests", GELUCHECK_ERF },
    { "erfc", { "erfc boost::math::erfc(x) (double)", "erfc boost::math::erfc(x) (float)" },
      "peak errors in eps on its tests, no bound", GELUCHECK_ERFC },
    { "normcdf",
      { "normcdf cdf(normal_distribution<double>(), x)",
        "normcdf cdf(normal_distribution<float>(), x)" },
      "'very low error rates' (erfc(-x/root_two)/2)", GELUCHECK_NORMCDF },
    { "gelu_cdf",
      { "gelu x*cdf(normal_distribution<double>(), x), in double",
        "gelu x*cdf(normal_distribution<float>(), x), in float" },
      "cdf: 'very low error rates'", GELUCHECK_GELU },
    { "gelu_erf",
      { "gelu 0.5*x*(1+erf(x*one_div_root_two<double>())), in double",
        "gelu 0.5f*x*(1+erf(x*one_div_root_two<float>())), in float" },
      "erf: peak errors of 0.84 to 1.5 eps on its tests", GELUCHECK_GELU },
    { "gelu_erfc",
      { "gelu 0.5*x*erfc(-x*one_div_root_two<double>()), in double",
        "gelu 0.5f*x*erfc(-x*one_div_root_two<float>()), in float" },
      "erfc: peak errors in eps on its tests, no bound", GELUCHECK_GELU },
};

static struct gelucheck_kernel kernels[GC_BOOST_NFORMS * 2];
static char names[GC_BOOST_NFORMS * 2][24];
static char descs[GC_BOOST_NFORMS * 2][400];
static char version[64];
static struct gelucheck_plugin plugin;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void init(void)
{
    snprintf(version, sizeof version, "Boost.Math %s", gc_boost_version());
    size_t k = 0;
    for (int d = 0; d < 2; d++) /* f64, then f32 */
        for (int f = 0; f < GC_BOOST_NFORMS; f++, k++) {
            snprintf(names[k], sizeof names[k], "%s.%s", forms[f].name, d == 0 ? "f64" : "f32");
            snprintf(descs[k], sizeof descs[k],
                     "%s; Boost claims: %s; Boost.Math %s (header-only, compiled by %s), "
                     "policy errno_on_error, evaluated in %s",
                     forms[f].formula[d], forms[f].claim, gc_boost_version(),
                     gc_boost_compiler(),
                     d == 0 ? "long double (promote_double)" : "double (promote_float)");
            kernels[k] = (struct gelucheck_kernel){ names[k], descs[k], forms[f].func,
                                                    d == 0 ? GELUCHECK_F64 : GELUCHECK_F32,
                                                    evals[f][d] };
        }
    plugin = (struct gelucheck_plugin){
        .abi_version = GELUCHECK_PLUGIN_ABI,
        .struct_size = (uint32_t)sizeof(struct gelucheck_plugin),
        .kernel_size = (uint32_t)sizeof(struct gelucheck_kernel),
        .name = "boost",
        .version = version,
        .open = open_ctx,
        .close = close_ctx,
        .last_error = last_error,
        .n_kernels = k,
        .kernels = kernels,
    };
}

const struct gelucheck_plugin *gc_boost_entry(uint32_t host_abi)
{
    if (host_abi < 1)
        return NULL;
    pthread_once(&once, init);
    return &plugin;
}
