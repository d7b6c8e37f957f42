/* A test-only plug-in for the vector and fingerprint suites, two kernels declared gelu:
 *  - scaled13.f32: x Phi(x/1.3) = 0.5 x erfc(-x/(1.3 sqrt2)), evaluated in double (glibc erfc,
 *    relative error ~1e-16, argument rounded twice: ~1e-15 relative after erfc's
 *    amplification 2 z^2 <= 30 at the probes) and rounded to float once.  The fingerprint
 *    must call it `scaled` with s within 1% of 1.3;
 *  - n0_write.f32: x Phi(x) the same way, but a call with n == 0 stores +0 into y[0] (the
 *    ABI says: touch nothing).  The vector suite must see out_of_bounds_write at n = 0. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include <gelucheck/plugin.h>

#define FS_SCALE 1.3                      /* the s the test expects back */
#define FS_SQRT1_2 0x1.6a09e667f3bcdp-1   /* RN(1/sqrt2) */

static void gelu_scaled(const float *xs, float *ys, size_t n, double s)
{
    for (size_t i = 0; i < n; i++) {
        double v = xs[i];
        ys[i] = isinf(v) ? (v > 0 ? xs[i] : -0.0f)
                         : (float)(0.5 * v * erfc(-v / s * FS_SQRT1_2));
    }
}

static int eval_scaled(void *ctx, const void *x, void *y, size_t n)
{
    (void)ctx;
    gelu_scaled(x, y, n, FS_SCALE);
    return 0;
}

static int eval_n0_write(void *ctx, const void *x, void *y, size_t n)
{
    (void)ctx;
    if (n == 0)
        *(float *)y = 0.0f; /* the defect */
    gelu_scaled(x, y, n, 1.0);
    return 0;
}

static const struct gelucheck_kernel kernels[] = {
    { "scaled13.f32", "x*Phi(x/1.3) in double, rounded to float; declared gelu",
      GELUCHECK_GELU, GELUCHECK_F32, eval_scaled },
    { "n0_write.f32", "x*Phi(x) in double, rounded to float; stores +0 into y[0] when n == 0",
      GELUCHECK_GELU, GELUCHECK_F32, eval_n0_write },
};

static const struct gelucheck_plugin plugin = {
    .abi_version = GELUCHECK_PLUGIN_ABI,
    .struct_size = (uint32_t)sizeof(struct gelucheck_plugin),
    .kernel_size = (uint32_t)sizeof(struct gelucheck_kernel),
    .name = "fixture_vf",
    .version = "1",
    .n_kernels = sizeof kernels / sizeof kernels[0],
    .kernels = kernels,
};

GELUCHECK_PLUGIN_EXPORT const struct gelucheck_plugin *gelucheck_plugin_entry(uint32_t host_abi)
{
    return host_abi >= 1 ? &plugin : NULL;
}
