/* The AVX2 backend (256-bit: 8 floats, 4 doubles): SLEEF's ...avx2 entry points, which
 * SLEEF builds with -mavx2 -mfma.  Built with the same flags; called only after
 * gc_sleef_isa_supported() found avx2 and fma. */
#include <stddef.h>

#include <sleef.h>

#include "sleef_internal.h"

GC_SLEEF_MAP(erf_f32, float, 8, _mm256_loadu_ps, _mm256_storeu_ps, Sleef_erff8_u10avx2)
GC_SLEEF_MAP(erfc_f32, float, 8, _mm256_loadu_ps, _mm256_storeu_ps, Sleef_erfcf8_u15avx2)
GC_SLEEF_MAP(tanh_f32, float, 8, _mm256_loadu_ps, _mm256_storeu_ps, Sleef_tanhf8_u10avx2)
GC_SLEEF_MAP(erf_f64, double, 4, _mm256_loadu_pd, _mm256_storeu_pd, Sleef_erfd4_u10avx2)
GC_SLEEF_MAP(erfc_f64, double, 4, _mm256_loadu_pd, _mm256_storeu_pd, Sleef_erfcd4_u15avx2)
GC_SLEEF_MAP(tanh_f64, double, 4, _mm256_loadu_pd, _mm256_storeu_pd, Sleef_tanhd4_u10avx2)

const struct gc_sleef_isa gc_sleef_isa_avx2 = {
    "avx2", "AVX2+FMA (256-bit)", 8, 4,
    { erf_f32, erfc_f32, tanh_f32 },
    { erf_f64, erfc_f64, tanh_f64 },
    { "Sleef_erff8_u10avx2", "Sleef_erfcf8_u15avx2", "Sleef_tanhf8_u10avx2" },
    { "Sleef_erfd4_u10avx2", "Sleef_erfcd4_u15avx2", "Sleef_tanhd4_u10avx2" },
};
