/* The correctly rounded lane over a block (ulp_lane.h): one at a time, and the choice of the
 * AVX2 version by what the CPU reports. */
#include "ulp_lane.h"

#include "ulp_fused.h"

void gs_fused_cr_lane_n_generic(const struct geluref_encl *e, const unsigned char *ok,
                                const uint64_t *y, size_t k, int64_t emax, double max_rel,
                                unsigned char *take)
{
    for (size_t q = 0; q < k; q++)
        take[q] = (unsigned char)(ok[q] && gs_fused_cr_lane(&e[q], y[q], emax, max_rel));
}

void gs_fused_cr_lane_n(const struct geluref_encl *e, const unsigned char *ok, const uint64_t *y,
                        size_t k, int64_t emax, double max_rel, unsigned char *take)
{
#if defined(GS_HAVE_AVX2_LANE)
    if (__builtin_cpu_supports("avx2")) {
        gs_fused_cr_lane_n_avx2(e, ok, y, k, emax, max_rel, take);
        return;
    }
#endif
    gs_fused_cr_lane_n_generic(e, ok, y, k, emax, max_rel, take);
}
