/* The accurate base of the mutants and their bit helpers (see mut_internal.h).  The base is
 * what each mutant would compute without its defect, so a suite that flags a mutant flags
 * the defect and nothing else. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "mut_internal.h"

uint32_t gc_mut_bits(float v)
{
    uint32_t b;
    memcpy(&b, &v, sizeof b);
    return b;
}

float gc_mut_float(uint32_t b)
{
    float v;
    memcpy(&v, &b, sizeof v);
    return v;
}

float gc_mut_flip_lsb(float v)
{
    if (!isfinite(v) || v == 0.0f)
        return v;
    return gc_mut_float(gc_mut_bits(v) ^ 1u);
}

float gc_mut_round_gelu_like(double x, double y)
{
    /* |x| < 2^-30: f(x) = x/2 + c x^2 (1 + O(x)), the correction below 2^-31 relative and
       below 2^-150 absolute once x/2 is subnormal; x/2 is exact in double, and rounding it
       nudged up by one double ulp gives RN(f(x)): x/2 itself when it is a float, the upper
       neighbour when it is a midpoint (odd subnormals, the lowest normal binade). */
    if (fabs(x) < 0x1p-30 && x != 0.0)
        return (float)nextafter(0.5 * x, INFINITY);
    return (float)y;
}

float gc_mut_gelu_split(float x, float negx)
{
    if (isnan(x))
        return x;
    if (isinf(x))
        return x > 0 ? x : -0.0f; /* GELU(-inf) = -0 (docs/design.md section 2) */
    double xd = x;                /* exact */
    /* erfc(z) within 5 ulp (glibc's claim) and z = -x/sqrt2 within 1/2 ulp, which erfc
       amplifies by 2 z^2 <= 210 over f32's non-zero range (|x| <= 14.4): ~1e-14 relative */
    return gc_mut_round_gelu_like(xd, 0.5 * xd * erfc((double)negx * GC_MUT_SQRT1_2));
}

float gc_mut_gelu(float x)
{
    return gc_mut_gelu_split(x, -x);
}
