/* ulp_lane.h: the correctly rounded lane of the ulp sweep's fused pass (gs_fused_cr_lane,
 * ulp_fused.h) over a block of inputs at once (private to ulp.c and its tests).
 * gs_fused_cr_lane_n sets take[q] = ok[q] && gs_fused_cr_lane(&e[q], y[q], emax, max_rel)
 * for q < k: with AVX2 where the CPU reports it (ulp_lane_avx2.c, four enclosures at a time,
 * the same integer and double operations in the same order, so the same decisions: checked
 * by tests/suites/test_ulp_lane.c), else one at a time.  emax < 2^39 (gs_fused_cr_emax's are
 * below 1100). */
#ifndef GELUCHECK_ULP_LANE_H
#define GELUCHECK_ULP_LANE_H

#include <stddef.h>
#include <stdint.h>

#include <geluref.h>

void gs_fused_cr_lane_n(const struct geluref_encl *e, const unsigned char *ok, const uint64_t *y,
                        size_t k, int64_t emax, double max_rel, unsigned char *take);
/* One at a time (gs_fused_cr_lane), whatever the CPU. */
void gs_fused_cr_lane_n_generic(const struct geluref_encl *e, const unsigned char *ok,
                                const uint64_t *y, size_t k, int64_t emax, double max_rel,
                                unsigned char *take);
#if defined(GS_HAVE_AVX2_LANE)
/* Four at a time; only where the CPU reports AVX2. */
void gs_fused_cr_lane_n_avx2(const struct geluref_encl *e, const unsigned char *ok,
                             const uint64_t *y, size_t k, int64_t emax, double max_rel,
                             unsigned char *take);
#endif

#endif
