/* fixture_cr: a test plug-in (ABI 1) whose kernels are correctly rounded by construction.
 *
 * Claim: every kernel returns RN(f(x)), the reference's own answer (geluref_eval, MPFR-backed),
 * for each func 1..9 (gelu .. erfc) and each dtype (f64, f32, f16, bf16): 36 kernels named
 * "FUNC.DTYPE" ("gelu.f32", "erfc.bf16").  A conformant run of it must pass `--policy strict`
 * with no finding in any suite; the tests of the suites and of `gelucheck run` rely on that.
 * It is slow (one MPFR evaluation per element) and meant for small sample counts.
 *
 * open() keeps a per-thread context holding the last error (a reference failure, which would
 * be a bug in geluref: the precision cap reached); options are refused. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <geluref.h>
#include <gelucheck/plugin.h>

struct fx_ctx {
    char error[160]; /* what last_error() returns */
};

static int fx_open(void **ctx, const char *options)
{
    struct fx_ctx *c = calloc(1, sizeof *c);
    if (!c)
        return 1;
    *ctx = c;
    if (options && options[0]) {
        snprintf(c->error, sizeof c->error, "unknown options '%.100s' (fixture_cr takes none)",
                 options);
        return 2;
    }
    return 0;
}

static void fx_close(void *ctx)
{
    free(ctx);
}

static const char *fx_last_error(void *ctx)
{
    struct fx_ctx *c = ctx;
    return c ? c->error : "out of memory";
}

/* y[i] = RN(f(x[i])); x == y allowed: x[i] is read before y[i] is written. */
static int fx_eval(void *ctx, enum geluref_func f, enum geluref_dtype dt, const void *x,
                   void *y, size_t n)
{
    struct fx_ctx *c = ctx;
    for (size_t i = 0; i < n; i++) {
        uint64_t xb = 0, yb = 0;
        switch (dt) {
        case GELUREF_F64: memcpy(&xb, (const char *)x + 8 * i, 8); break;
        case GELUREF_F32: { uint32_t v; memcpy(&v, (const char *)x + 4 * i, 4); xb = v; break; }
        default: { uint16_t v; memcpy(&v, (const char *)x + 2 * i, 2); xb = v; break; }
        }
        enum geluref_status st = geluref_eval(f, dt, xb, MPFR_RNDN, &yb, NULL, NULL);
        if (st != GELUREF_OK) {
            if (c)
                snprintf(c->error, sizeof c->error, "reference failed at element %zu: %s", i,
                         geluref_strerror(st));
            return 1;
        }
        switch (dt) {
        case GELUREF_F64: memcpy((char *)y + 8 * i, &yb, 8); break;
        case GELUREF_F32: { uint32_t v = (uint32_t)yb; memcpy((char *)y + 4 * i, &v, 4); break; }
        default: { uint16_t v = (uint16_t)yb; memcpy((char *)y + 2 * i, &v, 2); break; }
        }
    }
    return 0;
}

/* One eval function per (func, dtype): the ABI's eval gets no kernel pointer. */
#define FX_EVAL(fn, F, D)                                                                    \
    static int fn(void *ctx, const void *x, void *y, size_t n)                               \
    {                                                                                        \
        return fx_eval(ctx, F, D, x, y, n);                                                  \
    }
#define FX_FUNC(tag, F)                                                                      \
    FX_EVAL(tag##_f64, F, GELUREF_F64)                                                       \
    FX_EVAL(tag##_f32, F, GELUREF_F32)                                                       \
    FX_EVAL(tag##_f16, F, GELUREF_F16)                                                       \
    FX_EVAL(tag##_bf16, F, GELUREF_BF16)
FX_FUNC(gelu, GELUREF_GELU)
FX_FUNC(gelu_tanh, GELUREF_GELU_TANH)
FX_FUNC(gelu_sigmoid, GELUREF_GELU_SIGMOID)
FX_FUNC(gelu_grad, GELUREF_GELU_GRAD)
FX_FUNC(gelu_tanh_grad, GELUREF_GELU_TANH_GRAD)
FX_FUNC(normcdf, GELUREF_NORMCDF)
FX_FUNC(normpdf, GELUREF_NORMPDF)
FX_FUNC(erf, GELUREF_ERF)
FX_FUNC(erfc, GELUREF_ERFC)

#define FX_DESC "RN(f(x)) from geluref_eval (the correctly rounded reference itself)"
#define FX_KERNELS(tag, F)                                                                   \
    { #tag ".f64", FX_DESC, F, GELUCHECK_F64, tag##_f64 },                                   \
    { #tag ".f32", FX_DESC, F, GELUCHECK_F32, tag##_f32 },                                   \
    { #tag ".f16", FX_DESC, F, GELUCHECK_F16, tag##_f16 },                                   \
    { #tag ".bf16", FX_DESC, F, GELUCHECK_BF16, tag##_bf16 }

static const struct gelucheck_kernel kernels[] = {
    FX_KERNELS(gelu, GELUCHECK_GELU),
    FX_KERNELS(gelu_tanh, GELUCHECK_GELU_TANH),
    FX_KERNELS(gelu_sigmoid, GELUCHECK_GELU_SIGMOID),
    FX_KERNELS(gelu_grad, GELUCHECK_GELU_GRAD),
    FX_KERNELS(gelu_tanh_grad, GELUCHECK_GELU_TANH_GRAD),
    FX_KERNELS(normcdf, GELUCHECK_NORMCDF),
    FX_KERNELS(normpdf, GELUCHECK_NORMPDF),
    FX_KERNELS(erf, GELUCHECK_ERF),
    FX_KERNELS(erfc, GELUCHECK_ERFC),
};

static const struct gelucheck_plugin plugin = {
    GELUCHECK_PLUGIN_ABI,
    sizeof plugin,
    sizeof kernels[0],
    "fixture_cr",
    GELUREF_VERSION_STRING, /* the reference it returns */
    fx_open,
    fx_close,
    fx_last_error,
    sizeof kernels / sizeof kernels[0],
    kernels,
};

GELUCHECK_PLUGIN_EXPORT const struct gelucheck_plugin *gelucheck_plugin_entry(uint32_t host_abi)
{
    return host_abi >= 1 ? &plugin : NULL;
}
