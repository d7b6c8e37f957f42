/* An example gelucheck plug-in (ABI 1, <gelucheck/plugin.h>): three GELU kernels as people
 * write them in C, to copy from.
 *
 *   erfc.f64  0.5 x erfc(-x/sqrt2) in double: the erfc form keeps the tail (no 1 + erf(...)
 *             cancellation), claimed within a few ulps wherever glibc's erfc is
 *   erfc.f32  the same in float with erfcf
 *   tanh.f32  0.5 x (1 + tanhf(sqrt(2/pi) (x + 0.044715 x^3))) in float: declared as
 *             gelu_tanh, the approximation it is, not as gelu
 *
 * It also shows the optional members: open() allocates a per-thread context that holds the
 * last error message, refuses any --adapter-options text (this plug-in takes none), and
 * last_error() returns the message; close() frees the context.
 *
 * Build (README.md in this folder): cmake with find_package(gelucheck), or
 *   cc -std=c11 -O2 -fPIC -shared -I PREFIX/include example.c \
 *                             -o libexample.so -lm */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <gelucheck/plugin.h>

#ifndef EXAMPLE_REGRESSED
#define SQRT1_2 0.70710678118654752440  /* 1/sqrt(2) */
#else
/* What a regression looks like (CMakeLists.txt: -DEXAMPLE_REGRESSED=ON): 1/sqrt(2) cut to
 * four digits, 1e-5 off, so every kernel is hundreds of ulps off and fails any policy. */
#define SQRT1_2 0.7071
#endif
#define SQRT_2_PI 0.79788456080286535588 /* sqrt(2/pi) */

struct ctx {
    char error[160]; /* what last_error() returns; valid until the next call on this ctx */
};

/* Called once per thread that will evaluate.  A ctx set here is closed even when open fails,
 * so the error message can live in it. */
static int example_open(void **ctx, const char *options)
{
    struct ctx *c = calloc(1, sizeof *c);
    if (!c)
        return 1; /* *ctx stays NULL: last_error(NULL) below still answers */
    *ctx = c;
    if (options && options[0]) {
        snprintf(c->error, sizeof c->error, "unknown options '%.100s' (example takes none)",
                 options);
        return 2;
    }
    return 0;
}

static void example_close(void *ctx)
{
    free(ctx);
}

static const char *example_last_error(void *ctx)
{
    struct ctx *c = ctx;
    return c ? c->error : "out of memory";
}

/* y and x may be the same array (in place): each x[i] is read before y[i] is written. */
static int erfc_f64(void *ctx, const void *x, void *y, size_t n)
{
    const double *xd = x;
    double *yd = y;
    (void)ctx;
    for (size_t i = 0; i < n; i++)
        yd[i] = 0.5 * xd[i] * erfc(-xd[i] * SQRT1_2);
    return 0;
}

static int erfc_f32(void *ctx, const void *x, void *y, size_t n)
{
    const float *xf = x;
    float *yf = y;
    (void)ctx;
    for (size_t i = 0; i < n; i++)
        yf[i] = 0.5f * xf[i] * erfcf(-xf[i] * (float)SQRT1_2);
    return 0;
}

static int tanh_f32(void *ctx, const void *x, void *y, size_t n)
{
    const float *xf = x;
    float *yf = y;
    (void)ctx;
    for (size_t i = 0; i < n; i++) {
        float v = xf[i];
        yf[i] = 0.5f * v * (1.0f + tanhf((float)SQRT_2_PI * (v + 0.044715f * v * v * v)));
    }
    return 0;
}

static const struct gelucheck_kernel kernels[] = {
    { "erfc.f64", "0.5*x*erfc(-x/sqrt2) in double (C library erfc)", GELUCHECK_GELU,
      GELUCHECK_F64, erfc_f64 },
    { "erfc.f32", "0.5f*x*erfcf(-x/sqrt2) in float (C library erfcf)", GELUCHECK_GELU,
      GELUCHECK_F32, erfc_f32 },
    { "tanh.f32", "0.5f*x*(1+tanhf(sqrt(2/pi)*(x+0.044715*x^3))) in float (C library tanhf)",
      GELUCHECK_GELU_TANH, GELUCHECK_F32, tanh_f32 },
};

static const struct gelucheck_plugin plugin = {
    GELUCHECK_PLUGIN_ABI,  /* abi_version: the header this was built with */
    sizeof plugin,         /* struct_size */
    sizeof kernels[0],     /* kernel_size: the stride the host walks kernels[] by */
    "example-rename-me",   /* name: your adapter's name, the ADAPTER of your kernels'
                              identities ADAPTER/KERNEL that baselines and policies find
                              them by (docs/ci.md): change it when you copy this file */
    "1.0",                 /* version of the implementation */
    example_open,          /* the next three may be NULL */
    example_close,
    example_last_error,
    sizeof kernels / sizeof kernels[0],
    kernels,
};

/* The one symbol the host looks up: visible even with -fvisibility=hidden. */
GELUCHECK_PLUGIN_EXPORT const struct gelucheck_plugin *gelucheck_plugin_entry(uint32_t host_abi)
{
    return host_abi >= 1 ? &plugin : NULL; /* ABI 1 is all this plug-in needs */
}
