/* Special-value mutants: right almost everywhere, wrong at the infinities, the zeros, the
 * tail, overflow or subnormals; and the f16 tanh formula whose division overflows.  Claimed:
 * nothing; each is wrong on purpose, as its description says. */
#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "gc_libm.h"
#include "mut_internal.h"

/* max(GELU(x), +0): ReLU-like, every negative result lost (-0 kept: -0 < 0 is false) */
static float clamp0(float x)
{
    float y = gc_mut_gelu(x);
    return y < 0.0f ? 0.0f : y;
}

static float nan_neginf(float x) { return isinf(x) && x < 0 ? NAN : gc_mut_gelu(x); }

/* every zero result made +0: x = -0 and the whole negative tail (x < -14.36) */
static float pos_zero(float x)
{
    float y = gc_mut_gelu(x);
    return y == 0.0f ? 0.0f : y;
}

/* x*(1+erf(x/sqrt2)) = 2 GELU(x) formed in float before the *0.5: inf from x = 2^127 on
 * (2x >= 2^128; below, 2x is exact); elsewhere the accurate base, so overflow is the defect */
static float overflow2x(float x)
{
    float twice = (float)((double)x * erfc(-(double)x * GC_MUT_SQRT1_2));
    return isinf(twice) ? 0.5f * twice : gc_mut_gelu(x);
}

/* subnormal results (x in [-14.356, -13.146], and |x| < 2^-125) flushed to a signed 0 */
static float ftz_result(float x)
{
    float y = gc_mut_gelu(x);
    return y != 0.0f && fabsf(y) < FLT_MIN ? copysignf(0.0f, y) : y;
}

/* one f16 operation: the float result rounded to f16.  Float has 24 >= 2*11 + 2 bits, so
 * for + - * / on f16 operands this double rounding is innocuous: exactly IEEE f16
 * arithmetic.  (expf is then rounded once more: an f16 exp good to about 1 f16 ulp.) */
static float h(float v) { return gc_f16_to_float(gc_f16_from_float(v)); }

/* gelu_tanh in f16 arithmetic with tanh(u) = (e^2u - 1)/(e^2u + 1): e^2u is inf in f16 once
 * 2u >= ln(65520) = 11.09 (from the f16 x = 4.03125 on, measured), and inf/inf = NaN where
 * gelu_tanh(x) = x.  Below that, within 2 f16 ulp of the reference (test_mutants_special.c). */
static uint16_t tanh_f16div(uint16_t xb)
{
    float x = gc_f16_to_float(xb);
    float x3 = h(h(x * x) * x);
    float inner = h(x + h(h((float)GC_MUT_KAPPA) * x3));
    float u = h(h((float)GC_MUT_SQRT_2_PI) * inner);
    float e = h(expf(h(2.0f * u)));
    float t = h(h(e - 1.0f) / h(e + 1.0f));
    return gc_f16_from_float(h(0.5f * x) * h(1.0f + t));
}

static int eval_tanh_f16div(void *ctx, const void *x, void *y, size_t n)
{
    const uint16_t *xs = x;
    uint16_t *ys = y;
    (void)ctx;
    for (size_t i = 0; i < n; i++)
        ys[i] = tanh_f16div(xs[i]);
    return 0;
}

GC_MUT_EVAL_F32(eval_clamp0, clamp0)
GC_MUT_EVAL_F32(eval_nan_neginf, nan_neginf)
GC_MUT_EVAL_F32(eval_pos_zero, pos_zero)
GC_MUT_EVAL_F32(eval_overflow2x, overflow2x)
GC_MUT_EVAL_F32(eval_ftz_result, ftz_result)

#define GELU GELUCHECK_GELU
#define F32 GELUCHECK_F32
const struct gelucheck_kernel gc_mut_special[] = {
    { "clamp0.f32", "accurate GELU clamped at 0, max(GELU(x), +0): ReLU-like; caught by "
      "identity: identity_violation (f(x) - f(-x) = x fails for every x != 0 with a negative "
      "result) and tail: premature_flush (all x < 0)", GELU, F32, eval_clamp0 },
    { "nan_neginf.f32", "accurate GELU, but NaN for x = -inf (want -0); caught by special: "
      "special_value", GELU, F32, eval_nan_neginf },
    { "pos_zero.f32", "accurate GELU, but +0 for every zero result: x = -0 and the negative "
      "tail x < -14.36 (want -0); caught by special and tail: signed_zero", GELU, F32,
      eval_pos_zero },
    { "overflow2x.f32", "x*(1+erf(x/sqrt2)) rounded to float before the *0.5: +inf for x >= "
      "2^127 (want x); accurate elsewhere; caught by special (+max) and ulp: inf_output",
      GELU, F32, eval_overflow2x },
    { "ftz_result.f32", "accurate GELU with subnormal results flushed to a signed zero "
      "(x in [-14.356, -13.146], |x| < 2^-125); caught by tail: ftz", GELU, F32,
      eval_ftz_result },
    { "tanh_f16div.f16", "gelu_tanh in f16 arithmetic (every step rounded to f16), tanh(u) "
      "as (e^2u-1)/(e^2u+1): e^2u = inf for x >= 4.03 and inf/inf = NaN; caught by ulp: "
      "nan_output", GELUCHECK_GELU_TANH, GELUCHECK_F16, eval_tanh_f16div },
};
const size_t gc_mut_special_n = sizeof gc_mut_special / sizeof gc_mut_special[0];
