/* f16 and bf16 kernels as frameworks run them on CPUs without native half arithmetic
 * (PyTorch's CPU GELU for Half/BFloat16, ONNX Runtime's fallback): widen to float (exact),
 * evaluate the float formula on glibc's erff/erfcf/tanhf (claims: libm_entry.c), round back
 * to nearest-even once (gc_f16_from_float / gc_bf16_from_float, half.c).  Two roundings in
 * all (the float result's, then the half's): not correctly rounded in general, and the
 * float formula's own losses show wherever the half format still holds the true value:
 * erf1p's flush below -5.54 in bf16 (float's exponent range) and in f16's last subnormal
 * results (its non-zero tail ends at -5.7227; test_libm.c prints both). */
#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "gc_libm.h"
#include "libm_internal.h"

static float erf1p_f(float x) { return 0.5f * x * (1.0f + erff(x * (float)GC_SQRT1_2)); }
static float erfc_f(float x) { return 0.5f * x * erfcf(-x * (float)GC_SQRT1_2); }
static float tanh_f(float x)
{
    float inner = (float)GC_SQRT_2_PI * (x + (float)GC_KAPPA * (x * x * x));
    return 0.5f * x * (1.0f + tanhf(inner));
}

GC_LIBM_EVAL16(eval_erf1p_f16, gc_f16_to_float, gc_f16_from_float, erf1p_f)
GC_LIBM_EVAL16(eval_erfc_f16, gc_f16_to_float, gc_f16_from_float, erfc_f)
GC_LIBM_EVAL16(eval_tanh_f16, gc_f16_to_float, gc_f16_from_float, tanh_f)
GC_LIBM_EVAL16(eval_erf1p_bf16, gc_bf16_to_float, gc_bf16_from_float, erf1p_f)
GC_LIBM_EVAL16(eval_erfc_bf16, gc_bf16_to_float, gc_bf16_from_float, erfc_f)
GC_LIBM_EVAL16(eval_tanh_bf16, gc_bf16_to_float, gc_bf16_from_float, tanh_f)

#define WIDEN "x widened to float, "
#define ROUND_F16 ", rounded to f16 RN-even"
#define ROUND_BF16 ", rounded to bf16 RN-even"
#define ERF1P "gelu 0.5f*x*(1+erff(x*(float)M_SQRT1_2)) in float"
#define ERFC "gelu 0.5f*x*erfcf(-x*(float)M_SQRT1_2) in float"
#define TANH "gelu_tanh 0.5f*x*(1+tanhf(b*(x+k*(x*x*x)))) in float, " \
             "b = (float)sqrt(2/pi), k = 0.044715f"
const struct gc_libm_def gc_libm_half_defs[] = {
    { "erf1p.f16", WIDEN ERF1P ROUND_F16, GELUCHECK_GELU, GELUCHECK_F16, eval_erf1p_f16 },
    { "erfc.f16", WIDEN ERFC ROUND_F16, GELUCHECK_GELU, GELUCHECK_F16, eval_erfc_f16 },
    { "tanh.f16", WIDEN TANH ROUND_F16, GELUCHECK_GELU_TANH, GELUCHECK_F16,
      eval_tanh_f16 },
    { "erf1p.bf16", WIDEN ERF1P ROUND_BF16, GELUCHECK_GELU, GELUCHECK_BF16,
      eval_erf1p_bf16 },
    { "erfc.bf16", WIDEN ERFC ROUND_BF16, GELUCHECK_GELU, GELUCHECK_BF16,
      eval_erfc_bf16 },
    { "tanh.bf16", WIDEN TANH ROUND_BF16, GELUCHECK_GELU_TANH, GELUCHECK_BF16,
      eval_tanh_bf16 },
};
const size_t gc_libm_half_n = sizeof gc_libm_half_defs / sizeof gc_libm_half_defs[0];
