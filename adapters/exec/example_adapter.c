/* An exec adapter written in C with gelucheck_exec.h: GELU as people write it with libm,
 * served over the subprocess protocol.
 *
 *   gelucheck list --adapter exec:build/default/adapters/exec/gelucheck_exec_example
 *   gelucheck run  --adapter exec:build/default/adapters/exec/gelucheck_exec_example
 *
 * What the kernels claim: nothing beyond the formula.  glibc documents erff/erfcf to a few
 * ulp; the erf form 0.5 x (1 + erf(x/sqrt2)) cancels for x < -1 and returns 0 below about
 * -5.5 in float, which gelucheck's tail suite reports; the erfc form does not cancel.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "gelucheck_exec.h"

#define SQRT1_2 0.70710678118654752440 /* 1/sqrt(2) */

static int gelu_erfc_f32(const void *x, void *y, size_t n, char *err, size_t err_size)
{
    const float *xf = x;
    float *yf = y;

    (void)err; /* these kernels cannot fail */
    (void)err_size;
    for (size_t i = 0; i < n; i++)
        yf[i] = 0.5f * xf[i] * erfcf(-xf[i] * (float)SQRT1_2);
    return 0;
}

static int gelu_erf_f64(const void *x, void *y, size_t n, char *err, size_t err_size)
{
    const double *xd = x;
    double *yd = y;

    (void)err; /* these kernels cannot fail */
    (void)err_size;
    for (size_t i = 0; i < n; i++)
        yd[i] = 0.5 * xd[i] * (1.0 + erf(xd[i] * SQRT1_2));
    return 0;
}

/* bfloat16 <-> float: bf16 is the top half of a binary32; round to nearest even. */
static float bf16_to_float(uint16_t h)
{
    uint32_t u = (uint32_t)h << 16;
    float f;

    memcpy(&f, &u, sizeof f);
    return f;
}

static uint16_t float_to_bf16(float f)
{
    uint32_t u;

    memcpy(&u, &f, sizeof u);
    if ((u & 0x7fffffffu) > 0x7f800000u)
        return (uint16_t)((u >> 16) | 0x0040u); /* NaN stays NaN (quiet) */
    u += 0x7fffu + ((u >> 16) & 1u);
    return (uint16_t)(u >> 16);
}

/* As frameworks do for bf16: compute in float, round the result to bf16. */
static int gelu_erfc_bf16(const void *x, void *y, size_t n, char *err, size_t err_size)
{
    const uint16_t *xh = x;
    uint16_t *yh = y;

    (void)err; /* these kernels cannot fail */
    (void)err_size;
    for (size_t i = 0; i < n; i++) {
        float v = bf16_to_float(xh[i]);
        yh[i] = float_to_bf16(0.5f * v * erfcf(-v * (float)SQRT1_2));
    }
    return 0;
}

static const struct gelucheck_exec_kernel kernels[] = {
    { "gelu_erfc.f32", "gelu", "f32", "0.5f*x*erfcf(-x*(float)M_SQRT1_2), libm, in float",
      gelu_erfc_f32 },
    { "gelu_erf.f64", "gelu", "f64", "0.5*x*(1+erf(x*M_SQRT1_2)), libm, in double",
      gelu_erf_f64 },
    { "gelu_erfc.bf16", "gelu", "bf16",
      "0.5f*v*erfcf(-v*(float)M_SQRT1_2) in float, v the bf16 input, rounded to bf16 (RNE)",
      gelu_erfc_bf16 },
};

int main(void)
{
    return gelucheck_exec_serve(kernels, sizeof kernels / sizeof kernels[0],
                                "gelucheck exec example 1.0 (C, libm)");
}
