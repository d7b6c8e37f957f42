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

#include "suites.h"

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

/* The quick lane: ulp.c's fused_quick over a block, where it would account the measurement
 * at once (return 2) against statistics and findings that do not change during the block.
 * take[q] is 0 where the lane leaves input q (x[q], y[q]) to fused_quick, 1 where it takes
 * it: *cnt gains the taken ones' counts (fused_count's: cr, faithful, the cr_distance
 * buckets; and those the policy fails, whose ulp_exceeded, premature_flush, ftz or
 * signed_zero findings are counted, not kept), for the caller to add, and the caller is done
 * with them.  Taken: ok[q], gs_fused_quick_core decides (V known; y of f(x)'s sign, or a
 * zero: for a normal result a flush, for a subnormal one, gs_fused_quick_sub, correctly
 * rounded or any of the four defects), the errors below the maxima as fused_below_max has
 * them (the ulp and absolute ones below theirs or equal at a larger x than max_ulp_x,
 * max_abs_x; the relative one by gs_fused_rel_below's product, or for a zero output, whose
 * relative error is 1, below max_rel or equal to it at a larger x than max_rel_x; the other
 * ties of the relative error, which need its quotient, are left to it), and the policy's
 * verdict certain: passed, or
 * failed with an ulp error below the unkept bound of its defect (gs_findings_unkept_below of
 * the kind).  The AVX2 version
 * (ulp_lane_avx2.c) performs gs_fused_quick_core's, gs_fused_judge's and the tests' integer
 * and double operations in order, so the same decisions (checked by
 * tests/suites/test_ulp_lane.c); the generic one calls them. */
struct gs_quick_bounds {
    double max_ulp, max_abs, max_rel;   /* the statistics' maxima */
    uint64_t max_rel_x;                 /* and the x of max_rel, */
    uint64_t max_ulp_x, max_abs_x;      /* of max_ulp, of max_abs */
    const struct gs_policy_values *v;   /* the policy; NULL: not judged (the exact function) */
    double unkept, unkept_flush;        /* a failed measurement is taken below this ulp error
                                           (ulp_exceeded; premature_flush) */
    double unkept_ftz, unkept_sz;       /* (ftz; signed_zero) */
};
struct gs_quick_counts {
    uint64_t n, cr, faithful;           /* taken; of them correctly rounded, faithful */
    uint64_t failed, failed_flush;      /* of them failed: ulp_exceeded, premature_flush, */
    uint64_t failed_ftz, failed_sz;     /* ftz, signed_zero */
    uint64_t hist[GS_HIST_N];           /* their cr_distance buckets (gs_hist_index) */
};

/* Where the caller passes er (not NULL): er->ulp[q], er->abs[q] and er->a[q] receive input
 * q's ulp and absolute errors and a (gs_fused_meas's) wherever gs_fused_quick_core decides it
 * for a normal result (2^-126 <= V), taken or not; er->ulp[q] = -1 elsewhere.  The caller
 * chooses from them which inputs to account in full first (ulp.c block_lanes). */
struct gs_quick_errs {
    double *ulp, *abs, *a;
};

void gs_fused_quick_lane_n(const struct geluref_encl *e, const unsigned char *ok,
                           const uint64_t *x, const uint64_t *y, size_t k,
                           const struct gs_quick_bounds *b, unsigned char *take,
                           struct gs_quick_counts *cnt, const struct gs_quick_errs *er);
void gs_fused_quick_lane_n_generic(const struct geluref_encl *e, const unsigned char *ok,
                                   const uint64_t *x, const uint64_t *y, size_t k,
                                   const struct gs_quick_bounds *b, unsigned char *take,
                                   struct gs_quick_counts *cnt, const struct gs_quick_errs *er);
#if defined(GS_HAVE_AVX2_LANE)
void gs_fused_quick_lane_n_avx2(const struct geluref_encl *e, const unsigned char *ok,
                                const uint64_t *x, const uint64_t *y, size_t k,
                                const struct gs_quick_bounds *b, unsigned char *take,
                                struct gs_quick_counts *cnt, const struct gs_quick_errs *er);
#endif

#endif
