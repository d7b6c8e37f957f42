/* The AVX-512F backend (512-bit: 16 floats, 8 doubles): SLEEF's ...avx512f entry points.
 * Built with -mavx512f; called only after gc_sleef_isa_supported() found avx512f. */
#include <stddef.h>

#include <sleef.h>

#include "sleef_internal.h"

GC_SLEEF_MAP(erf_f32, float, 16, _mm512_loadu_ps, _mm512_storeu_ps, Sleef_erff16_u10avx512f)
GC_SLEEF_MAP(erfc_f32, float, 16, _mm512_loadu_ps, _mm512_storeu_ps, Sleef_erfcf16_u15avx512f)
GC_SLEEF_MAP(tanh_f32, float, 16, _mm512_loadu_ps, _mm512_storeu_ps, Sleef_tanhf16_u10avx512f)
GC_SLEEF_MAP(erf_f64, double, 8, _mm512_loadu_pd, _mm512_storeu_pd, Sleef_erfd8_u10avx512f)
GC_SLEEF_MAP(erfc_f64, double, 8, _mm512_loadu_pd, _mm512_storeu_pd, Sleef_erfcd8_u15avx512f)
GC_SLEEF_MAP(tanh_f64, double, 8, _mm512_loadu_pd, _mm512_storeu_pd, Sleef_tanhd8_u10avx512f)

const struct gc_sleef_isa gc_sleef_isa_avx512f = {
    "avx512f", "AVX-512F (512-bit)", 16, 8,
    { erf_f32, erfc_f32, tanh_f32 },
    { erf_f64, erfc_f64, tanh_f64 },
    { "Sleef_erff16_u10avx512f", "Sleef_erfcf16_u15avx512f", "Sleef_tanhf16_u10avx512f" },
    { "Sleef_erfd8_u10avx512f", "Sleef_erfcd8_u15avx512f", "Sleef_tanhd8_u10avx512f" },
};
