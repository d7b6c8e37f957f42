/* The gelu family as people write it on the C library (glibc's claims for erf, erfc, tanh and
 * exp: see libm_entry.c; measured errors: tests/adapters/test_libm.c prints them).
 *
 * The float forms inherit two classic losses the suites are built to see: 1 + erff(x/sqrt2)
 * cancels for x < 0 (thousands of ulp by x = -3, exactly 0 below about x = -5.54: a premature
 * flush), and every form that multiplies x by a vanishing factor gives -inf * 0 = NaN at
 * x = -inf.  The erfc form has no cancellation; rounding x/sqrt2 still costs about
 * x^2/2 ulp deep in the tail (erfc's relative sensitivity to its argument is 2 z^2). */
#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "libm_internal.h"

static float erf1p_f(float x) { return 0.5f * x * (1.0f + erff(x * (float)GC_SQRT1_2)); }
static double erf1p_d(double x) { return 0.5 * x * (1.0 + erf(x * GC_SQRT1_2)); }
static float erfc_f(float x) { return 0.5f * x * erfcf(-x * (float)GC_SQRT1_2); }
static double erfc_d(double x) { return 0.5 * x * erfc(-x * GC_SQRT1_2); }
static float erf1p_via_d(float x) { return (float)erf1p_d(x); }
static float erfc_via_d(float x) { return (float)erfc_d(x); }

/* 0.5 x (1 + tanh(beta (x + kappa x^3))), x^3 as x*x*x (PyTorch's and most C kernels' order) */
static float tanh_f(float x)
{
    float inner = (float)GC_SQRT_2_PI * (x + (float)GC_KAPPA * (x * x * x));
    return 0.5f * x * (1.0f + tanhf(inner));
}
static double tanh_d(double x)
{
    double inner = GC_SQRT_2_PI * (x + GC_KAPPA * (x * x * x));
    return 0.5 * x * (1.0 + tanh(inner));
}

/* x sigmoid(1.702 x) = x / (1 + exp(-1.702 x)); -inf / inf = NaN at x = -inf */
static float sigmoid_f(float x) { return x / (1.0f + expf(-(float)GC_SIGMOID_K * x)); }
static double sigmoid_d(double x) { return x / (1.0 + exp(-GC_SIGMOID_K * x)); }

GC_LIBM_EVAL(eval_erf1p_f32, float, erf1p_f)
GC_LIBM_EVAL(eval_erf1p_f64, double, erf1p_d)
GC_LIBM_EVAL(eval_erfc_f32, float, erfc_f)
GC_LIBM_EVAL(eval_erfc_f64, double, erfc_d)
GC_LIBM_EVAL(eval_erf1p_via_f64, float, erf1p_via_d)
GC_LIBM_EVAL(eval_erfc_via_f64, float, erfc_via_d)
GC_LIBM_EVAL(eval_tanh_f32, float, tanh_f)
GC_LIBM_EVAL(eval_tanh_f64, double, tanh_d)
GC_LIBM_EVAL(eval_sigmoid_f32, float, sigmoid_f)
GC_LIBM_EVAL(eval_sigmoid_f64, double, sigmoid_d)

#define F32 GELUCHECK_F32
#define F64 GELUCHECK_F64
const struct gc_libm_def gc_libm_gelu_defs[] = {
    { "erf1p.f32", "gelu 0.5f*x*(1+erff(x*(float)M_SQRT1_2)), all in float", GELUCHECK_GELU,
      F32, eval_erf1p_f32 },
    { "erf1p.f64", "gelu 0.5*x*(1+erf(x*M_SQRT1_2)), all in double", GELUCHECK_GELU, F64,
      eval_erf1p_f64 },
    { "erfc.f32", "gelu 0.5f*x*erfcf(-x*(float)M_SQRT1_2), all in float", GELUCHECK_GELU,
      F32, eval_erfc_f32 },
    { "erfc.f64", "gelu 0.5*x*erfc(-x*M_SQRT1_2), all in double", GELUCHECK_GELU, F64,
      eval_erfc_f64 },
    { "erf1p_via_f64.f32", "gelu (float)(0.5*x*(1+erf(x*M_SQRT1_2))): double erf, x widened, "
      "the result rounded to float once", GELUCHECK_GELU, F32, eval_erf1p_via_f64 },
    { "erfc_via_f64.f32", "gelu (float)(0.5*x*erfc(-x*M_SQRT1_2)): double erfc, x widened, "
      "the result rounded to float once", GELUCHECK_GELU, F32, eval_erfc_via_f64 },
    { "tanh.f32", "gelu_tanh 0.5f*x*(1+tanhf(b*(x+k*(x*x*x)))), b = (float)sqrt(2/pi), "
      "k = 0.044715f, all in float", GELUCHECK_GELU_TANH, F32, eval_tanh_f32 },
    { "tanh.f64", "gelu_tanh 0.5*x*(1+tanh(b*(x+k*(x*x*x)))), b = RN(sqrt(2/pi)), "
      "k = 0.044715, all in double", GELUCHECK_GELU_TANH, F64, eval_tanh_f64 },
    { "sigmoid.f32", "gelu_sigmoid x/(1+expf(-1.702f*x)), all in float",
      GELUCHECK_GELU_SIGMOID, F32, eval_sigmoid_f32 },
    { "sigmoid.f64", "gelu_sigmoid x/(1+exp(-1.702*x)), all in double",
      GELUCHECK_GELU_SIGMOID, F64, eval_sigmoid_f64 },
};
const size_t gc_libm_gelu_n = sizeof gc_libm_gelu_defs / sizeof gc_libm_gelu_defs[0];
