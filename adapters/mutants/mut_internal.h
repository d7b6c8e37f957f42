/* Private to adapters/mutants: the accurate base every single-defect mutant starts from, bit
 * helpers, the per-thread ctx, and the per-family kernel lists. */
#ifndef GC_MUT_INTERNAL_H
#define GC_MUT_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include <gelucheck/plugin.h>

#define GC_MUT_SQRT1_2 0x1.6a09e667f3bcdp-1   /* RN(1/sqrt2) = M_SQRT1_2 */
#define GC_MUT_SQRT_2_PI 0x1.9884533d43651p-1 /* RN(sqrt(2/pi)) */
#define GC_MUT_KAPPA 0.044715                 /* tanh formula's cubic coefficient */

/* ctx from open(): one per thread. */
struct gc_mut_ctx {
    uint64_t calls;  /* evals so far on this ctx (call_count.f32) */
    char error[128]; /* last_error's text */
};

/* The accurate base, "gelu done right" in f32: x Phi(x) evaluated in double on glibc's erfc
 * (relative error ~1e-15) and rounded to float once, -inf -> -0, and the near-zero midpoints
 * decided (GELU(x) > x/2 for x != 0, so a tie at x/2 rounds up).  Within 0.5 ulp plus a
 * double-rounding hazard of ~2^-28 ulp: passes the `default` policy everywhere.
 * gc_mut_gelu_split takes -x separately: inplace_half.f32 feeds it a half-updated buffer. */
float gc_mut_gelu(float x);
float gc_mut_gelu_split(float x, float negx);
/* Rounds y = f(x), computed in double, to float for an f that is x/2 + c x^2 + ... (c > 0)
 * near 0 (every gelu-like candidate): below |x| = 2^-30 the result is x/2 nudged up. */
float gc_mut_round_gelu_like(double x, double y);

uint32_t gc_mut_bits(float v);
float gc_mut_float(uint32_t b);
/* v with the lowest significand bit flipped (1 ulp away) when finite and non-zero; else v. */
float gc_mut_flip_lsb(float v);

/* A batch loop y[i] = fn(x[i]) for f32 (x == y fine: x[i] is read before y[i] is written). */
#define GC_MUT_EVAL_F32(name, fn)                                        \
    static int name(void *ctx, const void *x, void *y, size_t n)         \
    {                                                                    \
        const float *xs = x;                                             \
        float *ys = y;                                                   \
        (void)ctx;                                                       \
        for (size_t i = 0; i < n; i++)                                   \
            ys[i] = fn(xs[i]);                                           \
        return 0;                                                        \
    }

/* The kernels of each family file. */
extern const struct gelucheck_kernel gc_mut_formula[]; /* mut_formula.c */
extern const size_t gc_mut_formula_n;
extern const struct gelucheck_kernel gc_mut_special[]; /* mut_special.c */
extern const size_t gc_mut_special_n;
extern const struct gelucheck_kernel gc_mut_vector[];  /* mut_vector.c */
extern const size_t gc_mut_vector_n;

#endif
