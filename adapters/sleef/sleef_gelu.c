/* The kernels: five forms (three GELU formulas and erf, erfc themselves) x f32, f64 x the
 * backends, and the batch driver they share.
 *
 * The batch goes through a local buffer of CHUNK elements, 64-byte aligned: the argument
 * glue (x*(float)M_SQRT1_2, ...) fills it in plain C, the backend's SLEEF function maps it
 * in whole vectors, and the result glue (0.5f*x*(1.0f+e), ...) writes y in plain C.  The
 * tail of a batch (n not a multiple of the lanes) is padded with +0 to one whole vector, so
 * the vector function computes it too, in the same code as every other element; the padding
 * lanes' results are dropped.  The glue is built with -ffp-contract=off: every * and + one
 * rounding, as written.  x == y works: each chunk reads x before writing y, and y[j] is
 * written only after x[j] was read for the last time. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "sleef_internal.h"

enum form { GELU_ERF = 0, GELU_ERFC = 1, GELU_TANH = 2, ERF = 3, ERFC = 4 };
#define CHUNK 256 /* a multiple of every backend's lanes (16 floats at most) */

static float pre_f32(int f, float x)
{
    switch (f) {
    case GELU_ERF:
        return x * (float)GC_SLEEF_SQRT1_2;
    case GELU_ERFC:
        return -x * (float)GC_SLEEF_SQRT1_2;
    case GELU_TANH: /* x^3 as x*x*x, PyTorch's and most C kernels' order */
        return (float)GC_SLEEF_SQRT_2_PI * (x + (float)GC_SLEEF_KAPPA * (x * x * x));
    default:
        return x;
    }
}

static float post_f32(int f, float x, float e)
{
    return f == GELU_ERF || f == GELU_TANH ? 0.5f * x * (1.0f + e)
           : f == GELU_ERFC                ? 0.5f * x * e
                                           : e;
}

static double pre_f64(int f, double x)
{
    switch (f) {
    case GELU_ERF:
        return x * GC_SLEEF_SQRT1_2;
    case GELU_ERFC:
        return -x * GC_SLEEF_SQRT1_2;
    case GELU_TANH:
        return GC_SLEEF_SQRT_2_PI * (x + GC_SLEEF_KAPPA * (x * x * x));
    default:
        return x;
    }
}

static double post_f64(int f, double x, double e)
{
    return f == GELU_ERF || f == GELU_TANH ? 0.5 * x * (1.0 + e)
           : f == GELU_ERFC                ? 0.5 * x * e
                                           : e;
}

static const enum gc_sleef_fn fn_of[GC_SLEEF_FORMS] = { GC_SLEEF_ERF, GC_SLEEF_ERFC,
                                                        GC_SLEEF_TANH, GC_SLEEF_ERF,
                                                        GC_SLEEF_ERFC };

static void run_f32(int f, enum gc_sleef_isa_id id, const void *xv, void *yv, size_t n)
{
    const struct gc_sleef_isa *isa = gc_sleef_isa_get(id);
    gc_sleef_map_f32 *map = isa->f32[fn_of[f]];
    size_t w = isa->lanes_f32;
    const float *x = xv;
    float *y = yv;
    _Alignas(64) float buf[CHUNK];
    for (size_t i = 0; i < n; i += CHUNK) {
        size_t m = n - i < CHUNK ? n - i : CHUNK, whole = (m + w - 1) / w * w;
        for (size_t j = 0; j < m; j++)
            buf[j] = pre_f32(f, x[i + j]);
        for (size_t j = m; j < whole; j++)
            buf[j] = 0.0f;
        map(buf, whole);
        for (size_t j = 0; j < m; j++)
            y[i + j] = post_f32(f, x[i + j], buf[j]);
    }
}

static void run_f64(int f, enum gc_sleef_isa_id id, const void *xv, void *yv, size_t n)
{
    const struct gc_sleef_isa *isa = gc_sleef_isa_get(id);
    gc_sleef_map_f64 *map = isa->f64[fn_of[f]];
    size_t w = isa->lanes_f64;
    const double *x = xv;
    double *y = yv;
    _Alignas(64) double buf[CHUNK];
    for (size_t i = 0; i < n; i += CHUNK) {
        size_t m = n - i < CHUNK ? n - i : CHUNK, whole = (m + w - 1) / w * w;
        for (size_t j = 0; j < m; j++)
            buf[j] = pre_f64(f, x[i + j]);
        for (size_t j = m; j < whole; j++)
            buf[j] = 0.0;
        map(buf, whole);
        for (size_t j = 0; j < m; j++)
            y[i + j] = post_f64(f, x[i + j], buf[j]);
    }
}

/* One eval per (backend, form, dtype): the ABI's eval carries no kernel id. */
#define EVAL(id, f, dt)                                                                  \
    static int ev_##id##_##f##_##dt(void *ctx, const void *x, void *y, size_t n)        \
    {                                                                                    \
        (void)ctx;                                                                       \
        run_##dt(f, id, x, y, n);                                                        \
        return 0;                                                                        \
    }
#define EVAL_FORM(id, f) EVAL(id, f, f32) EVAL(id, f, f64)
#define EVAL_ISA(id) EVAL_FORM(id, 0) EVAL_FORM(id, 1) EVAL_FORM(id, 2) EVAL_FORM(id, 3) \
    EVAL_FORM(id, 4)
EVAL_ISA(0)
EVAL_ISA(1)
EVAL_ISA(2)
EVAL_ISA(3)

typedef int eval_fn(void *ctx, const void *x, void *y, size_t n);
#define ROW_FORM(id, f) { ev_##id##_##f##_f32, ev_##id##_##f##_f64 }
#define ROW(id) { ROW_FORM(id, 0), ROW_FORM(id, 1), ROW_FORM(id, 2), ROW_FORM(id, 3), \
                  ROW_FORM(id, 4) }
static eval_fn *const evals[GC_SLEEF_NISA][GC_SLEEF_FORMS][2] = { ROW(0), ROW(1), ROW(2),
                                                                  ROW(3) };
_Static_assert(GC_SLEEF_SCALAR == 0 && GC_SLEEF_AVX512F == 3, "ROW(id) are the isa ids");

/* Names, funcs and descriptions: the formula written around the SLEEF call ("%s" would be
 * a non-literal format), then what SLEEF claims for that function. */
struct form_def {
    const char *name, *acc;
    uint32_t func;
    const char *pre[2], *post[2]; /* f32, f64 */
};
static const struct form_def forms[GC_SLEEF_FORMS] = {
    { "gelu_erf", "u10", GELUCHECK_GELU,
      { "gelu 0.5f*x*(1.0f+", "gelu 0.5*x*(1.0+" },
      { "(x*(float)M_SQRT1_2)), all in float", "(x*M_SQRT1_2)), all in double" } },
    { "gelu_erfc", "u15", GELUCHECK_GELU,
      { "gelu 0.5f*x*", "gelu 0.5*x*" },
      { "(-x*(float)M_SQRT1_2), all in float", "(-x*M_SQRT1_2), all in double" } },
    { "gelu_tanh", "u10", GELUCHECK_GELU_TANH,
      { "gelu_tanh 0.5f*x*(1.0f+", "gelu_tanh 0.5*x*(1.0+" },
      { "(b*(x+k*(x*x*x)))), b = (float)RN(sqrt(2/pi)), k = 0.044715f, all in float",
        "(b*(x+k*(x*x*x)))), b = RN(sqrt(2/pi)), k = 0.044715, all in double" } },
    { "erf", "u10", GELUCHECK_ERF, { "erf ", "erf " }, { "(x)", "(x)" } },
    { "erfc", "u15", GELUCHECK_ERFC, { "erfc ", "erfc " }, { "(x)", "(x)" } },
};
/* SLEEF's documented bounds (sleef_entry.c), per function and dtype */
static const char *const claims[GC_SLEEF_NFN][2] = {
    { "erf: 1.0 ulp", "erf: 1.0 ulp" },
    { "erfc: max(1.5 ulp, FLT_MIN)",
      "erfc: max(1.5 ulp, DBL_MIN) for x < 26.2, max(2.5 ulp, DBL_MIN) above" },
    { "tanh: 1.0001 ulp", "tanh: 1.0 ulp" },
};

size_t gc_sleef_build(unsigned isa_mask, const char *lib, struct gelucheck_kernel *out,
                      char (*names)[GC_SLEEF_NAME_MAX], char *descs, size_t desc_size)
{
    size_t k = 0, used = 0;
    for (int id = 0; id < GC_SLEEF_NISA; id++) {
        const struct gc_sleef_isa *isa = gc_sleef_isa_get((enum gc_sleef_isa_id)id);
        if (isa == NULL || !(isa_mask >> id & 1u))
            continue;
        for (int f = 0; f < GC_SLEEF_FORMS; f++)
            for (int d = 0; d < 2; d++) {
                const struct form_def *fd = &forms[f];
                enum gc_sleef_fn fn = fn_of[f];
                unsigned lanes = d == 0 ? isa->lanes_f32 : isa->lanes_f64;
                snprintf(names[k], sizeof names[k], "%s.%s.%s.%s", fd->name, fd->acc, isa->tag,
                         d == 0 ? "f32" : "f64");
                const char *desc = descs + used;
                int len = snprintf(descs + used, desc_size - used,
                                   "%s%s%s; SLEEF claims %s; %s, %s backend, %u lane%s%s",
                                   fd->pre[d], d == 0 ? isa->sym_f32[fn] : isa->sym_f64[fn],
                                   fd->post[d], claims[fn][d], lib, isa->backend, lanes,
                                   lanes == 1 ? "" : "s",
                                   lanes == 1 ? "" : ", the batch's tail padded with +0 to "
                                                     "a whole vector");
                if (len < 0 || (size_t)len >= desc_size - used)
                    desc = "(description too long for the buffer)";
                else
                    used += (size_t)len + 1;
                out[k] = (struct gelucheck_kernel){ names[k], desc, fd->func,
                                                    d == 0 ? GELUCHECK_F32 : GELUCHECK_F64,
                                                    evals[id][f][d] };
                k++;
            }
    }
    return k;
}
