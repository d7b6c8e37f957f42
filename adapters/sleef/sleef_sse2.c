/* The SSE2 backend (128-bit: 4 floats, 2 doubles): SLEEF's ...sse2 entry points.  Built
 * with -msse2 (the x86-64 baseline); called only after gc_sleef_isa_supported(). */
#include <stddef.h>

#include <sleef.h>

#include "sleef_internal.h"

GC_SLEEF_MAP(erf_f32, float, 4, _mm_loadu_ps, _mm_storeu_ps, Sleef_erff4_u10sse2)
GC_SLEEF_MAP(erfc_f32, float, 4, _mm_loadu_ps, _mm_storeu_ps, Sleef_erfcf4_u15sse2)
GC_SLEEF_MAP(tanh_f32, float, 4, _mm_loadu_ps, _mm_storeu_ps, Sleef_tanhf4_u10sse2)
GC_SLEEF_MAP(erf_f64, double, 2, _mm_loadu_pd, _mm_storeu_pd, Sleef_erfd2_u10sse2)
GC_SLEEF_MAP(erfc_f64, double, 2, _mm_loadu_pd, _mm_storeu_pd, Sleef_erfcd2_u15sse2)
GC_SLEEF_MAP(tanh_f64, double, 2, _mm_loadu_pd, _mm_storeu_pd, Sleef_tanhd2_u10sse2)

const struct gc_sleef_isa gc_sleef_isa_sse2 = {
    "sse2", "SSE2 (128-bit)", 4, 2,
    { erf_f32, erfc_f32, tanh_f32 },
    { erf_f64, erfc_f64, tanh_f64 },
    { "Sleef_erff4_u10sse2", "Sleef_erfcf4_u15sse2", "Sleef_tanhf4_u10sse2" },
    { "Sleef_erfd2_u10sse2", "Sleef_erfcd2_u15sse2", "Sleef_tanhd2_u10sse2" },
};
