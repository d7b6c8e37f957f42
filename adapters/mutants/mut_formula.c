/* Formula mutants: the wrong function, a lossy formula, or a bounded error where none should
 * be.  Each starts from an accurate double evaluation (gc_mut_round_gelu_like, mut_base.c),
 * so the one defect named is what the suites see.  Claimed: nothing; each is wrong on
 * purpose, as its description says. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "mut_internal.h"

/* x Phi(sqrt2 x) = 0.5 x erfc(-x): the /sqrt2 forgotten */
static float nosqrt2(float x)
{
    if (isinf(x))
        return x > 0 ? x : -0.0f;
    double xd = x;
    return gc_mut_round_gelu_like(xd, 0.5 * xd * erfc(-xd));
}

/* x / (1 + exp(-k x)): x sigmoid(k x), stable in both tails (no 1 + tanh cancellation) */
static float x_sigmoid(float x, double k)
{
    if (isinf(x))
        return x > 0 ? x : -0.0f;
    double xd = x;
    return gc_mut_round_gelu_like(xd, xd / (1.0 + exp(-k * xd)));
}

/* 0.5 x (1 + tanh(u)) = x sigmoid(2u), u = sqrt(2/pi) (x + 0.044715 x^3) */
static float tanh_form(float x)
{
    if (isinf(x))
        return x > 0 ? x : -0.0f;
    double xd = x, u = GC_MUT_SQRT_2_PI * (xd + GC_MUT_KAPPA * (xd * xd * xd));
    return gc_mut_round_gelu_like(xd, xd / (1.0 + exp(-2.0 * u)));
}

static float sigmoid_form(float x) { return x_sigmoid(x, 1.702); }
static float silu(float x) { return x_sigmoid(x, 1.0); }

/* the classic float formula, verbatim (libm's erf1p.f32) */
static float erf1p_float(float x) { return 0.5f * x * (1.0f + erff(x * (float)GC_MUT_SQRT1_2)); }

/* GELU(x) ~ x/2 + q(x^2) on [-4, 4], clamped outside (0 below, x above).  q: least squares
 * fit of (x/2) erf(x/sqrt2) by c0 + c1 t + c2 t^2 + c3 t^3 (t = x^2) on 801 equispaced x in
 * [-4, 4] (mpmath, 30 digits, normal equations), coefficients rounded to float.  Max abs error
 * 0.057; it rises on [-3.54, -2.5] and again just below x* where GELU falls, its minimum is
 * -0.1815 (GELU's: -0.16997), and q(0) = c0 != 0. */
static float poly6(float x)
{
    static const float c[4] = { 0x1.06f196p-5f, 0x1.3cf55ap-2f, -0x1.6e7068p-6f,
                                0x1.6612c8p-11f };
    if (isnan(x))
        return x;
    if (x <= -4.0f)
        return -0.0f;
    if (x >= 4.0f)
        return x;
    float t = x * x;
    return 0.5f * x + (((c[3] * t + c[2]) * t + c[1]) * t + c[0]);
}

/* gelu_tanh in double with a tanh that overshoots -1: for u < 0, tanh(u) (1 + 2^-23), the
 * peak magnitude of a fast rational tanh; 1 + t < 0 once e^(2u) < 2^-24 (u < -8.32, x below
 * about -4.95), and the output is positive there.  u >= 0 is left exact (1 + 2^-24 times
 * FLT_MAX would round to inf: another defect) */
static float tanh_overshoot(float x)
{
    if (isinf(x))
        return x > 0 ? x : -0.0f;
    double xd = x, u = GC_MUT_SQRT_2_PI * (xd + GC_MUT_KAPPA * (xd * xd * xd));
    double t = u < 0 ? tanh(u) * (1.0 + 0x1p-23) : tanh(u);
    return gc_mut_round_gelu_like(xd, 0.5 * xd * (1.0 + t));
}

/* the base, plus 8 ulp (8 added to the bit pattern) for x in [1, 2) only */
static float ulp8(float x)
{
    float y = gc_mut_gelu(x);
    return x >= 1.0f && x < 2.0f ? gc_mut_float(gc_mut_bits(y) + 8u) : y;
}

/* Phi(x) only: the x phi(x) term of GELU' = Phi + x phi dropped */
static float grad_no_xphi(float x)
{
    return (float)(0.5 * erfc(-(double)x * GC_MUT_SQRT1_2));
}

GC_MUT_EVAL_F32(eval_nosqrt2, nosqrt2)
GC_MUT_EVAL_F32(eval_tanh_form, tanh_form)
GC_MUT_EVAL_F32(eval_sigmoid_form, sigmoid_form)
GC_MUT_EVAL_F32(eval_silu, silu)
GC_MUT_EVAL_F32(eval_erf1p_float, erf1p_float)
GC_MUT_EVAL_F32(eval_poly6, poly6)
GC_MUT_EVAL_F32(eval_tanh_overshoot, tanh_overshoot)
GC_MUT_EVAL_F32(eval_ulp8, ulp8)
GC_MUT_EVAL_F32(eval_grad_no_xphi, grad_no_xphi)

#define GELU GELUCHECK_GELU
#define F32 GELUCHECK_F32
const struct gelucheck_kernel gc_mut_formula[] = {
    { "nosqrt2.f32", "x*Phi(sqrt2 x) = 0.5*x*erfc(-x): the /sqrt2 forgotten; caught by "
      "fingerprint: declared_mismatch (detected gelu_nosqrt2)", GELU, F32, eval_nosqrt2 },
    { "tanh_as_gelu.f32", "0.5*x*(1+tanh(sqrt(2/pi)*(x+0.044715*x^3))) in double, declared "
      "gelu; caught by fingerprint: declared_mismatch (detected gelu_tanh)", GELU, F32,
      eval_tanh_form },
    { "sigmoid_as_gelu.f32", "x*sigmoid(1.702*x) in double, declared gelu; caught by "
      "fingerprint: declared_mismatch (detected gelu_sigmoid)", GELU, F32, eval_sigmoid_form },
    { "silu_as_gelu.f32", "SiLU x*sigmoid(x) in double, declared gelu; caught by "
      "fingerprint: declared_mismatch (detected silu)", GELU, F32, eval_silu },
    { "erf1p_float.f32", "0.5f*x*(1+erff(x/sqrt2)) all in float, the classic: 1+erff cancels "
      "for x < 0 and is exactly 0 below about x = -5.54; caught by tail: premature_flush near "
      "x = -5.54 (also ulp: ulp_exceeded for x < -1, special: special_value, NaN at -inf)",
      GELU, F32, eval_erf1p_float },
    { "poly6.f32", "x/2 + cubic in x^2 fitted to GELU on [-4, 4], clamped outside (0 below, x "
      "above): rises on [-3.5, -2.5] where GELU falls; caught by identity: non_monotonic "
      "(also bound_violation, ulp_exceeded, and tail: premature_flush below -4)", GELU, F32,
      eval_poly6 },
    { "tanh_overshoot.f32", "gelu_tanh 0.5*x*(1+t) in double with t = tanh(u)*(1+2^-23) for u < 0: "
      "a fast tanh that goes below -1, so 1+t < 0 and the output is positive for x below about "
      "-4.95; caught by ulp and tail: wrong_sign", GELUCHECK_GELU_TANH, F32,
      eval_tanh_overshoot },
    { "ulp8_1to2.f32", "accurate GELU plus 8 ulp for x in [1, 2) only; caught by ulp: "
      "ulp_exceeded (8 ulp, in region x >= 1, binade [1, 2))", GELU, F32, eval_ulp8 },
    { "grad_no_xphi.f32", "Phi(x) = 0.5*erfc(-x/sqrt2) declared gelu_grad: the x*phi(x) term "
      "missing; caught by ulp: ulp_exceeded", GELUCHECK_GELU_GRAD, F32, eval_grad_no_xphi },
};
const size_t gc_mut_formula_n = sizeof gc_mut_formula / sizeof gc_mut_formula[0];
