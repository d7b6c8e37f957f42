/* The scalar backend (SLEEF's documented scalar functions, Sleef_erf_u10 and friends, one
 * element per call), and which backends this build and this CPU have. */
#include <stddef.h>

#include <sleef.h>

#include "sleef_internal.h"

static float ld_f32(const float *p) { return *p; }
static void st_f32(float *p, float v) { *p = v; }
static double ld_f64(const double *p) { return *p; }
static void st_f64(double *p, double v) { *p = v; }

GC_SLEEF_MAP(erf_f32, float, 1, ld_f32, st_f32, Sleef_erff_u10)
GC_SLEEF_MAP(erfc_f32, float, 1, ld_f32, st_f32, Sleef_erfcf_u15)
GC_SLEEF_MAP(tanh_f32, float, 1, ld_f32, st_f32, Sleef_tanhf_u10)
GC_SLEEF_MAP(erf_f64, double, 1, ld_f64, st_f64, Sleef_erf_u10)
GC_SLEEF_MAP(erfc_f64, double, 1, ld_f64, st_f64, Sleef_erfc_u15)
GC_SLEEF_MAP(tanh_f64, double, 1, ld_f64, st_f64, Sleef_tanh_u10)

const struct gc_sleef_isa gc_sleef_isa_scalar = {
    "scalar", "scalar C (libsleef's scalar functions)", 1, 1,
    { erf_f32, erfc_f32, tanh_f32 },
    { erf_f64, erfc_f64, tanh_f64 },
    { "Sleef_erff_u10", "Sleef_erfcf_u15", "Sleef_tanhf_u10" },
    { "Sleef_erf_u10", "Sleef_erfc_u15", "Sleef_tanh_u10" },
};

const struct gc_sleef_isa *gc_sleef_isa_get(enum gc_sleef_isa_id id)
{
    switch (id) {
    case GC_SLEEF_SCALAR:
        return &gc_sleef_isa_scalar;
#if GC_SLEEF_X86
    case GC_SLEEF_SSE2:
        return &gc_sleef_isa_sse2;
    case GC_SLEEF_AVX2:
        return &gc_sleef_isa_avx2;
    case GC_SLEEF_AVX512F:
        return &gc_sleef_isa_avx512f;
#endif
    default:
        return NULL;
    }
}

/* __builtin_cpu_supports reports a feature only when the OS saves its registers (XGETBV),
 * so a kernel with AVX disabled by the OS does not see avx2 here. */
int gc_sleef_isa_supported(enum gc_sleef_isa_id id)
{
    if (id == GC_SLEEF_SCALAR)
        return 1;
    if (gc_sleef_isa_get(id) == NULL)
        return 0;
#if GC_SLEEF_X86
    __builtin_cpu_init();
    switch (id) {
    case GC_SLEEF_SSE2:
        return __builtin_cpu_supports("sse2") != 0;
    case GC_SLEEF_AVX2:
        return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    case GC_SLEEF_AVX512F:
        return __builtin_cpu_supports("avx512f") != 0;
    default:
        break;
    }
#endif
    return 0;
}
