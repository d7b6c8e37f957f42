/* Private to adapters/libm: the kernel definitions each file contributes, and the constants
 * the formulas use (each the binary64 value nearest the real one unless said otherwise, as
 * the C library's M_ macros give them; float kernels cast them, as frameworks write). */
#ifndef GC_LIBM_INTERNAL_H
#define GC_LIBM_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include <gelucheck/plugin.h>

#define GC_SQRT1_2 0x1.6a09e667f3bcdp-1      /* RN(1/sqrt2) = M_SQRT1_2 */
#define GC_SQRT_2_PI 0x1.9884533d43651p-1    /* RN(sqrt(2/pi)), tanh formula's beta */
#define GC_INV_SQRT_2PI 0x1.9884533d43651p-2 /* RN(1/sqrt(2 pi)), phi's factor */
#define GC_KAPPA 0.044715                    /* tanh formula (Hendrycks & Gimpel 2016) */
#define GC_SIGMOID_K 1.702                   /* x sigmoid(1.702 x) (Hendrycks & Gimpel) */

/* One kernel: name, the formula (the entry appends "; glibc X.Y libm"), func, dtype, eval. */
struct gc_libm_def {
    const char *name;
    const char *formula;
    uint32_t func;
    uint32_t dtype;
    int (*eval)(void *ctx, const void *x, void *y, size_t n);
};

/* Kernel definitions per file, n entries each. */
extern const struct gc_libm_def gc_libm_gelu_defs[];   /* libm_gelu.c: gelu family */
extern const size_t gc_libm_gelu_n;
extern const struct gc_libm_def gc_libm_deriv_defs[];  /* libm_deriv.c: grads, cdf, pdf, erf */
extern const size_t gc_libm_deriv_n;
extern const struct gc_libm_def gc_libm_half_defs[];   /* libm_half.c: f16 and bf16 */
extern const size_t gc_libm_half_n;

/* Batch loops y[i] = fn(x[i]) (x == y allowed: x[i] is read before y[i] is written).
 * GC_LIBM_EVAL: f32 or f64.  GC_LIBM_EVAL16: f16/bf16 bits widened to float, fn in float,
 * rounded back RN-even. */
#define GC_LIBM_EVAL(name, type, fn)                                        \
    static int name(void *ctx, const void *x, void *y, size_t n)            \
    {                                                                       \
        const type *xs = x;                                                 \
        type *ys = y;                                                       \
        (void)ctx;                                                          \
        for (size_t i = 0; i < n; i++)                                      \
            ys[i] = fn(xs[i]);                                              \
        return 0;                                                           \
    }
#define GC_LIBM_EVAL16(name, to_float, from_float, fn)                      \
    static int name(void *ctx, const void *x, void *y, size_t n)            \
    {                                                                       \
        const uint16_t *xs = x;                                             \
        uint16_t *ys = y;                                                   \
        (void)ctx;                                                          \
        for (size_t i = 0; i < n; i++)                                      \
            ys[i] = from_float(fn(to_float(xs[i])));                        \
        return 0;                                                           \
    }

#endif
