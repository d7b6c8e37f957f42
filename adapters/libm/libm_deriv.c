/* The gradients, the normal CDF and PDF, and erf/erfc themselves, as written on the C library
 * (glibc's claims: libm_entry.c).  The gradient forms follow PyTorch's CPU backward kernels:
 * cdf + x*pdf with pdf = exp(-x*x/2)/sqrt(2 pi), and for the tanh form
 * 0.5 (1 + t) + 0.5 x (1 - t^2) b (1 + 3 k x^2), t = tanh(b (x + k x^3)).  Near the zero of
 * GELU' (x* = -0.7518) cdf + x*pdf cancels: large ulp error there is the formula's, by nature. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "libm_internal.h"

static float pdf_f(float x) { return expf(-0.5f * x * x) * (float)GC_INV_SQRT_2PI; }
static double pdf_d(double x) { return exp(-0.5 * x * x) * GC_INV_SQRT_2PI; }
static float cdf_f(float x) { return 0.5f * erfcf(-x * (float)GC_SQRT1_2); }
static double cdf_d(double x) { return 0.5 * erfc(-x * GC_SQRT1_2); }

static float grad_erf_f(float x)
{
    return 0.5f * (1.0f + erff(x * (float)GC_SQRT1_2)) + x * pdf_f(x);
}
static double grad_erf_d(double x) { return 0.5 * (1.0 + erf(x * GC_SQRT1_2)) + x * pdf_d(x); }
static float grad_erfc_f(float x) { return cdf_f(x) + x * pdf_f(x); }
static double grad_erfc_d(double x) { return cdf_d(x) + x * pdf_d(x); }

static float tanh_grad_f(float x)
{
    const float b = (float)GC_SQRT_2_PI, k = (float)GC_KAPPA;
    float x2 = x * x, t = tanhf(b * (x + k * (x2 * x)));
    return 0.5f * (1.0f + t) + 0.5f * x * (1.0f - t * t) * b * (1.0f + 3.0f * k * x2);
}
static double tanh_grad_d(double x)
{
    const double b = GC_SQRT_2_PI, k = GC_KAPPA;
    double x2 = x * x, t = tanh(b * (x + k * (x2 * x)));
    return 0.5 * (1.0 + t) + 0.5 * x * (1.0 - t * t) * b * (1.0 + 3.0 * k * x2);
}

static float erf_f(float x) { return erff(x); }
static double erf_d(double x) { return erf(x); }
static float erfc_f(float x) { return erfcf(x); }
static double erfc_d(double x) { return erfc(x); }

GC_LIBM_EVAL(eval_grad_erf_f32, float, grad_erf_f)
GC_LIBM_EVAL(eval_grad_erf_f64, double, grad_erf_d)
GC_LIBM_EVAL(eval_grad_erfc_f32, float, grad_erfc_f)
GC_LIBM_EVAL(eval_grad_erfc_f64, double, grad_erfc_d)
GC_LIBM_EVAL(eval_tanh_grad_f32, float, tanh_grad_f)
GC_LIBM_EVAL(eval_tanh_grad_f64, double, tanh_grad_d)
GC_LIBM_EVAL(eval_cdf_f32, float, cdf_f)
GC_LIBM_EVAL(eval_cdf_f64, double, cdf_d)
GC_LIBM_EVAL(eval_pdf_f32, float, pdf_f)
GC_LIBM_EVAL(eval_pdf_f64, double, pdf_d)
GC_LIBM_EVAL(eval_erf_f32, float, erf_f)
GC_LIBM_EVAL(eval_erf_f64, double, erf_d)
GC_LIBM_EVAL(eval_erfc_f32, float, erfc_f)
GC_LIBM_EVAL(eval_erfc_f64, double, erfc_d)

#define F32 GELUCHECK_F32
#define F64 GELUCHECK_F64
#define GRAD GELUCHECK_GELU_GRAD
const struct gc_libm_def gc_libm_deriv_defs[] = {
    { "grad_erf.f32", "gelu_grad 0.5f*(1+erff(x*(float)M_SQRT1_2)) + x*pdf, "
      "pdf = expf(-0.5f*x*x)*(float)(1/sqrt(2 pi)), all in float", GRAD, F32,
      eval_grad_erf_f32 },
    { "grad_erf.f64", "gelu_grad 0.5*(1+erf(x*M_SQRT1_2)) + x*pdf, "
      "pdf = exp(-0.5*x*x)*RN(1/sqrt(2 pi)), all in double", GRAD, F64, eval_grad_erf_f64 },
    { "grad_erfc.f32", "gelu_grad 0.5f*erfcf(-x*(float)M_SQRT1_2) + x*pdf, "
      "pdf = expf(-0.5f*x*x)*(float)(1/sqrt(2 pi)), all in float", GRAD, F32,
      eval_grad_erfc_f32 },
    { "grad_erfc.f64", "gelu_grad 0.5*erfc(-x*M_SQRT1_2) + x*pdf, "
      "pdf = exp(-0.5*x*x)*RN(1/sqrt(2 pi)), all in double", GRAD, F64, eval_grad_erfc_f64 },
    { "tanh_grad.f32", "gelu_tanh_grad 0.5f*(1+t) + 0.5f*x*(1-t*t)*b*(1+3*k*x*x), "
      "t = tanhf(b*(x+k*x*x*x)), b = (float)sqrt(2/pi), k = 0.044715f, all in float",
      GELUCHECK_GELU_TANH_GRAD, F32, eval_tanh_grad_f32 },
    { "tanh_grad.f64", "gelu_tanh_grad 0.5*(1+t) + 0.5*x*(1-t*t)*b*(1+3*k*x*x), "
      "t = tanh(b*(x+k*x*x*x)), b = RN(sqrt(2/pi)), k = 0.044715, all in double",
      GELUCHECK_GELU_TANH_GRAD, F64, eval_tanh_grad_f64 },
    { "normcdf.f32", "normcdf 0.5f*erfcf(-x*(float)M_SQRT1_2), in float", GELUCHECK_NORMCDF,
      F32, eval_cdf_f32 },
    { "normcdf.f64", "normcdf 0.5*erfc(-x*M_SQRT1_2), in double", GELUCHECK_NORMCDF, F64,
      eval_cdf_f64 },
    { "normpdf.f32", "normpdf expf(-0.5f*x*x)*(float)(1/sqrt(2 pi)), in float",
      GELUCHECK_NORMPDF, F32, eval_pdf_f32 },
    { "normpdf.f64", "normpdf exp(-0.5*x*x)*RN(1/sqrt(2 pi)), in double", GELUCHECK_NORMPDF,
      F64, eval_pdf_f64 },
    { "erf_c99.f32", "erf: erff(x)", GELUCHECK_ERF, F32, eval_erf_f32 },
    { "erf_c99.f64", "erf: erf(x)", GELUCHECK_ERF, F64, eval_erf_f64 },
    { "erfc_c99.f32", "erfc: erfcf(x)", GELUCHECK_ERFC, F32, eval_erfc_f32 },
    { "erfc_c99.f64", "erfc: erfc(x)", GELUCHECK_ERFC, F64, eval_erfc_f64 },
};
const size_t gc_libm_deriv_n = sizeof gc_libm_deriv_defs / sizeof gc_libm_deriv_defs[0];
