/* ulp_lane.h: the lanes of the ulp sweep's fused pass over a block of inputs at once
 * (private to ulp.c and its tests): the bound lane (gs_fused_bound_lane, ulp_fused.h), the
 * quick lane and the span lane below.  Each has an AVX2 version where the CPU reports it
 * (ulp_lane_avx2.c, four enclosures at a time, the same integer and double operations in the
 * same order, so the same decisions: checked by tests/suites/test_ulp_lane.c and
 * test_ulp_span.c), else one at a time; the bound and span lanes an AVX-512 one too
 * (ulp_lane_avx512.c, eight at a time, where gs_lane_avx512 says so, checked by the same
 * tests). */
#ifndef GELUCHECK_ULP_LANE_H
#define GELUCHECK_ULP_LANE_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <geluref.h>

#include "suites.h"
#include "ulp_fused.h" /* gs_fused_pow2, gs_fused_ms_of, gs_fused_rel_one_below */

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
 * relative error is 1, below max_rel or equal to it at a larger x than max_rel_x, or for a
 * normal result by its quotient ulp / a (measure.c's very division) equal to max_rel at a
 * larger x: near 0 one V holds for thousands of inputs, whose errors are then all equal; the
 * relative error's other cases are left to it), and the policy's verdict certain: passed, or
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

/* The bound lane over a block: take[q] = ok[q] && gs_fused_bound_lane(&e[q], y[q], lim, ...)
 * for q < k, the taken ones' counts added to *cnt (n; cr, those of cr_distance 0; faithful;
 * failed, the ulp_exceeded ones the policy fails; their cr_distance buckets).  Where uh is not
 * NULL, uh[q] = its uh where ok[q] and it sets one, else -1. */
void gs_fused_bound_lane_n(const struct geluref_encl *e, const unsigned char *ok,
                           const uint64_t *y, size_t k, const struct gs_bound_limits *lim,
                           unsigned char *take, struct gs_quick_counts *cnt, double *uh);
/* One at a time (gs_fused_bound_lane), whatever the CPU. */
void gs_fused_bound_lane_n_generic(const struct geluref_encl *e, const unsigned char *ok,
                                   const uint64_t *y, size_t k, const struct gs_bound_limits *lim,
                                   unsigned char *take, struct gs_quick_counts *cnt,
                                   double *uh);
#if defined(GS_HAVE_AVX2_LANE)
/* Four at a time; only where the CPU reports AVX2. */
void gs_fused_bound_lane_n_avx2(const struct geluref_encl *e, const unsigned char *ok,
                                const uint64_t *y, size_t k, const struct gs_bound_limits *lim,
                                unsigned char *take, struct gs_quick_counts *cnt, double *uh);
#endif
#if defined(GS_HAVE_AVX512_LANE)
/* Eight at a time (ulp_lane_avx512.c); only where gs_lane_avx512() says so. */
void gs_fused_bound_lane_n_avx512(const struct geluref_encl *e, const unsigned char *ok,
                                  const uint64_t *y, size_t k, const struct gs_bound_limits *lim,
                                  unsigned char *take, struct gs_quick_counts *cnt, double *uh);
#endif
/* Whether the CPU reports what the eight-at-a-time version needs (AVX-512 F, VL, BW and DQ)
 * and the build has it: 0 elsewhere. */
int gs_lane_avx512(void);

/* What the vector versions of the bound lane share.  They load the enclosures as rows of four
 * 64-bit words: m, err, e, side (an int, the upper half of its word padding, masked off). */
_Static_assert(sizeof(struct geluref_encl) == 32 && offsetof(struct geluref_encl, m) == 0 &&
                   offsetof(struct geluref_encl, err) == 8 &&
                   offsetof(struct geluref_encl, e) == 16 &&
                   offsetof(struct geluref_encl, side) == 24 && sizeof(int) == 4,
               "struct geluref_encl is not four 64-bit words");

/* The thresholds of the cr_distance buckets, j = 0 to 5: 0, 1, 2, 4, 16, 256 (gs_hist_index:
 * the bucket of d is how many of them d exceeds). */
static inline int64_t gs_bound_thr(int j)
{
    return j < 3 ? j : j == 3 ? 4 : j == 4 ? 16 : 256;
}

/* How many thresholds a taken output can exceed (those below lim->dmax), and whether the lane
 * judges (the policy's tests are left out where there is none: the exact function's
 * measurement): each vector loop has both as constants. */
static inline int gs_bound_nthr(const struct gs_bound_limits *lim)
{
    int nthr = 0;
    while (nthr < 6 && gs_bound_thr(nthr) < lim->dmax)
        nthr++;
    return nthr;
}

static inline int gs_bound_judged(const struct gs_bound_limits *lim)
{
    return lim->pol_ulp != INFINITY || lim->pol_cr != INFINITY || lim->faithful ||
           lim->unkept != -INFINITY;
}

/* The cr_distance buckets of n outputs into cnt, g[j] of them above gs_bound_thr(j): bucket
 * 0 has n - g[0], bucket j (above j thresholds, not above j + 1) g[j - 1] - g[j], bucket 6
 * g[5]. */
static inline void gs_bound_hist(struct gs_quick_counts *cnt, uint64_t n, const uint64_t *g)
{
    cnt->hist[0] += n - g[0];
    for (int j = 1; j < 6; j++)
        cnt->hist[j] += g[j - 1] - g[j];
    cnt->hist[6] += g[5];
}

/* The counts of the outputs a vector loop took into cnt: n of them, fa faithful, fl failed,
 * g[j] above gs_bound_thr(j) (so cr = n - g[0]). */
static inline void gs_bound_counts(struct gs_quick_counts *cnt, uint64_t n, uint64_t fa,
                                   uint64_t fl, const uint64_t *g)
{
    cnt->n += n;
    cnt->faithful += fa;
    cnt->failed += fl;
    cnt->cr += n - g[0];
    gs_bound_hist(cnt, n, g);
}

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
#if defined(GS_HAVE_AVX512_LANE)
/* Eight at a time (ulp_lane_avx512.c); only where gs_lane_avx512() says so. */
void gs_fused_quick_lane_n_avx512(const struct geluref_encl *e, const unsigned char *ok,
                                  const uint64_t *x, const uint64_t *y, size_t k,
                                  const struct gs_quick_bounds *b, unsigned char *take,
                                  struct gs_quick_counts *cnt, const struct gs_quick_errs *er);
#endif


/* The span lane: the exact function's measurement of an approximation kernel (ulp.c
 * fused_block) from enclosures at the ends of runs of GS_SPAN inputs instead of one enclosure
 * an input.  Where f is monotone over the run's inputs (geluref_monotone, the inputs sorted),
 * f(x) of each lies between f at the run's ends, so between their enclosures a and b; where
 * these share f's sign and a normal binade E, in units of its ulp 2^k (k = E - 23) the
 * enclosures (ms_i - es_i, ms_i + es_i) give lo = min(ms_a - es_a, ms_b - es_b) and hi =
 * max(ms_a + es_a, ms_b + es_b) (each one rounding: within 2^-30 of the real ends, both in
 * [2^23, 2^24)), and the span
 *   ms = (lo + hi) / 2,  w = (hi - lo) / 2 + 2^-15
 * holds f(x) 2^-k and V 2^-k (V, f(x) rounded to odd at 40 bits, within 2^-16 of it) for every
 * x of the run: ms is within 2^-30 of (lo + hi) / 2 (the sum rounds by 2^-29, the halving is
 * exact), hi - lo is exact (Sterbenz), w's sum rounds by 2^-30, and 2^-15 exceeds 2^-16 + 4
 * 2^-30.  The run's E holds for every x where lo - 2^-14 >= 2^23 and hi + 2^-14 < 2^24 (both
 * exact comparisons: lo and hi are multiples of 2^-29).  Then for an output y of f's sign,
 * finite and not zero, as for a decided measurement whose enclosure is (ms - w, ms + w)
 * (ulp_fused.h, ulp.c fused_below_max's interval case): d = |y 2^-k - ms| rounded, measure.c's
 * ulp error at most uh = (d + w)(1 + 2^-50), the absolute one at most uh 2^k (1 + 2^-50) +
 * 2^-1074, the relative one below uh (1 + 2^-48) / ((ms - w)(1 - 2^-48)); and RN(f(x)) =
 * r 2^k with r = floor(f(x) 2^-k + 1/2) (f(x) is never a 25-bit number: transcendental) in
 * [rlo, rhi] = [floor(ms - w + 1/2 - 2^-20), floor(ms + w + 1/2 + 2^-20)], each computed
 * with three roundings of at most 2^-29 (values below 2^25), which the 2^-20 outweighs, so
 * y's cr_distance (bits, sign cleared) lies in [dlo, dhi], y's distances to the ends of that
 * range.  An input is taken where y is at least 2 from it (neither correctly rounded nor
 * faithful: RD and RU are within 1 of RN), dlo and dhi fall in one bucket of the histogram,
 * and the three errors are below the maxima (strictly: no ties).  A zero output of either
 * sign (an approximation's tail flushed, where f(x) is still a normal number) is taken the
 * same way: its ulp error is V 2^-k itself (|+-0 - V| 2^-k, exact), so within the same uh
 * (d = ms), its absolute error that times 2^k, its cr_distance RN(f(x))'s bits (at least
 * 2^23: bucket ">256", dlo = rlo), and its relative error exactly 1 (|V| / |V|), which stays
 * below the maximum where that is above 1, or 1 with its x below this input's
 * (gs_fused_rel_one_below: the tie keeps the smaller x, as the quick lane tests it) instead
 * of the relative bound from uh.  What the exact measurement adds for such an input is then
 * certain: one point, not correctly rounded, not faithful, that bucket, the maxima
 * unchanged.
 *
 * Where the run's f changes by less than an ulp (near 0, where many inputs share one value of
 * the output's binade), rlo = rhi: RN(f(x)) = r is the same for every x of the run, and so is
 * RD(f(x)) where floor(ms - w - 2^-20) = floor(ms + w + 2^-20) (rd below: its bits; the same
 * three roundings argument as rlo's).  Then an output of f's sign at any distance d = |y - r|
 * is certain too: its cr_distance is d itself (bucket gs_hist_index(d)), it is correctly
 * rounded for d = 0, and faithful where it is RD or RU, y = rd or rd + 1 (for d = 1 that
 * needs rd; d = 0 is always faithful, d >= 2 never).  Such an output is taken with the same
 * tests of its errors against the maxima (uh from d = |ys - ms| as above).  Where the lane
 * measures a kernel's own function (b->v, the policy, not NULL; ulp.c takes it where that
 * function is monotone too), an output is taken only where the policy's verdict is certain,
 * as gs_fused_bound_lane's tests: passed, d = 0 (correctly rounded passes every policy), or
 * dhi <= max_cr_distance (the farthest RN(f(x)) can be), faithful where the policy asks it,
 * and uh <= max_ulp (then the ulp_exceeded measurement passes whatever abs_tol is); or failed
 * (ulp_exceeded): not within abs_tol (none, or the absolute error's lower bound ul 2^k (1 -
 * 2^-50) - 2^-1074 above it, ul = (d - w)(1 - 2^-50) below the real ulp error as uh is
 * above it), and dlo above max_cr_distance, or not faithful where the policy asks it, or ul
 * above max_ulp; and then uh below b->unkept, so that its finding cannot enter the worst list
 * (the lane counts it, the caller adds it to the findings' count).  A zero output is refused
 * there (a flush is another defect).  (Where an approximation is close to the exact function
 * but outputs move by an ulp or more over a run, its errors are within a run's width and the
 * lane takes little; ulp.c then leaves it out for a while.)
 *
 * The chord.  Over a run of an approximation's tail, f moves by some ulps an input, so the run's
 * width (half of what f moves over GS_SPAN inputs) exceeds what its errors grow by over most of a
 * block, and every input near a block's end (whose last input's measurement sets the maxima
 * first, ulp.c) would be left.  Where the run's inputs are equally spaced (consecutive patterns
 * of one binade: x_i = x_0 + i u, the end b at x_n) and M bounds |f''| between its ends
 * (geluref_curvature), f(x_i) lies within curv = M (n u)^2 / 8 of the chord through f(x_0) and
 * f(x_n) (the interpolation error (x - x_0)(x_n - x) f''(xi) / 2).  With each end's enclosure (l,
 * h) as above (within 2^-30 of the real ends), c = (l + h) / 2 is within (h - l) / 2 + 2^-29 of f
 * at that end (the sum rounds by 2^-29, the halving is exact, h - l is exact), r the larger of
 * the two half-widths; c_1 - c_0 is exact (Sterbenz), dc = (c_1 - c_0) / n rounds by 2^-30, its
 * product by i and m_i = c_0 + dc i by 2^-30 each (below 2^24), so m_i is within i 2^-30 + 2^-29
 * < 2^-24 (i < GS_SPAN = 32) of the chord through c_0 and c_1, which is within r + 2^-29 of the
 * chord through f's ends.  So f(x_i) 2^-k and V 2^-k (2^-16 from it) lie within wc = (r + curv
 * 2^-k 1.01) + 2^-14 of m_i: 2^-14 exceeds 2^-16 + 2^-24 + 2^-29 and wc's two roundings (2^-30
 * each below 2^23, where a chord is used: it is taken only where wc < w).  The lane's tests are
 * then those above with m_i and wc for ms and w (the relative one's right side max_rel (m_i - wc)
 * (1 - 2^-48) an input), and RN(f(x_i))'s range and RD the input's (gs_fused_span_rn): [rlo, rhi]
 * and rd as above from m_i and wc for ms and w (m_i - wc >= lo - 2 wc > 0, wc < w < 2^22, so the
 * truncations are floors, and every value below 2^25: the same three roundings of at most 2^-29
 * that 2^-20 outweighs), intersected with the run's (both hold RN(f(x_i)); floor(f(x_i) 2^-k)
 * lies in both floors' ranges).  Where a chord holds f to a thousandth of an ulp, RN(f(x_i)) is
 * then one for most inputs (rlo = rhi), so that an output's cr_distance and faithfulness are
 * certain even where f moves by ulps an input: the kernel's own measurement (judged) in a tail.
 * A run without a chord has c_0 = ms, dc = 0, wc = w: m_i = ms for each i (ms + 0 i is ms), its
 * range and rd the run's, the tests as before.
 *
 * Correctly rounded for certain.  An output y of f's sign with d = |y 2^-k - m_i| (computed:
 * within 2^-30 of the real distance) below crd = 0.5 - wc - 2^-18 is RN(f(x)) (the real
 * |y - f(x)| 2^-k is below 0.5 - 2^-18 + 2^-30: y is the float nearest f(x), f(x) in binade
 * E and no float within half an ulp of it outside E's grid), and the input's range is y
 * alone: m_i - wc + 0.5 - 2^-20 exceeds ys = y 2^-k by 2^-18 - 2^-20 - 2^-30 before its three
 * roundings (2^-29 each), m_i + wc + 0.5 + 2^-20 falls short of ys + 1 by as much, so both
 * floors are ys, rlo = rhi = y's bits (the run's range holds RN(f(x)) = y too).  So the
 * lane's integer tests pass it with dlo = dhi = 0 (bucket 0, faithful, passed by any policy)
 * and only the three errors' tests decide: the vector lanes test such batches so, the same
 * decisions in fewer operations.
 *
 * Below the normal range.  Where f at both ends of a run lies below 2^-126 (or one end in
 * [2^-126, 2^-125) and the other below it), every f(x) of the run is below 2^-125 (the same
 * test of hi, with 2^24), so its ulp is 2^-149 (measure.c: k = max(e, emin) - 23), one grid
 * for the subnormals and the first binade, where r 2^-149 has the bits r (base 0): the span
 * is formed in units of 2^-149 (sub; each end's ms and es scaled by 2^(E_i + 126), exact for
 * E_i >= -900), and every argument above holds with these changes.  (a) The values lie in
 * [0, 2^24), not [2^23, 2^24): a rounding of one of them errs by at most 2^-30, and by at
 * most 2^-52 times the largest value in play (hi, or 2 hi for a sum).  (b) V is f(x) rounded
 * to odd at 40 bits of its own binade (measure.c: P = p + 16 bits at any exponent), within
 * f(x) 2^-39 <= hi 2^-39 of it, below the 2^-16 of a normal result.  So the margins 2^-15
 * (w) and 2^-14 (wc) become mu and 2 mu with mu = min(2^-15, hi 2^-36): hi 2^-36 exceeds
 * hi 2^-39 and the forty-odd roundings (each at most hi 2^-52, c_1 - c_0 and hi - lo among
 * them: no longer exact by Sterbenz where the ends differ by more than twice) with room
 * (where f is far below one unit, an absolute margin would be wider than f itself and the
 * relative error's bound m_i - wc would fall to nothing).  (c) The truncations are floors
 * only for values above -1: m_i - wc may be below 0 where f(x) is, but f(x) >= 0 (a
 * magnitude), so a truncation (toward 0, at least the floor) stays a lower bound of
 * floor(f(x) 2^149 + 1/2) and of floor(f(x) 2^149), both at least 0.  (d) RN(f(x)) may be a
 * zero (f(x) below 2^-150: rlo = 0); then a zero output is not what the lane assumes (+0 for
 * a negative f is not correctly rounded though at distance 0), so zeros are refused where
 * the run's rlo is 0 (and are taken as before where RN(f(x)) is at least the least
 * subnormal: cr_distance its bits, the relative error 1).  (e) The policy's verdict for a
 * result below the normal range depends on its accuracy_domain, and a zero output's defect
 * is ftz or signed_zero there: such a span serves the exact function's measurement alone
 * (unjudged), and the lanes refuse it judged. */
/* The inputs of a run: 32, where the chords bound f between a run's ends to about 10^-3 ulp
 * (16 before the chords: a run's width grows with its length, a chord's term as its square
 * but from next to nothing), so that a block of 256 (ulp.c) needs 9 enclosures at its runs'
 * ends, not 17. */
#define GS_SPAN 32
struct gs_fused_span {
    double ms, w;      /* f(x) 2^-k and V 2^-k within [ms - w, ms + w] */
    double c0, dc, wc; /* and for the run's input i (from 0) within [m_i - wc, m_i + wc], m_i =
                          c0 + dc i: the chord, or c0 = ms, dc = 0, wc = w */
    double sc, p2k;    /* 2^-k = 2^(23 - E); 2^k */
    int64_t rlo, rhi;  /* RN(f(x))'s bits, sign cleared, within [rlo, rhi] */
    int64_t base;      /* r 2^k has the bits base + r */
    double crd;        /* 0.5 - wc - 2^-18: an output of f's sign nearer m_i is RN(f(x)) */
    int64_t flo, fhi;  /* floor(ms - w - 2^-20), floor(ms + w + 2^-20): RD's r within them
                          (one RD for the run where they are equal) */
    uint64_t sign;     /* f's sign, in bit 31 */
    int ok;            /* 0: the run decides nothing */
    int sub;           /* f below 2^-125 (k = -149, values in [0, 2^24)): the exact function's
                          lane only, zeros refused where RN(f(x)) may be one (see above) */
};

/* The span of a run between the enclosures a and b (oka, okb: they hold; ulp.c checks that
 * f is monotone between their inputs); curv >= 0: the run's inputs are equally spaced, n steps
 * from a's input to b's, and f within curv of the chord between (M h^2 / 8 for the run's
 * width h, in f's units), else -1 (no chord).  Below the normal range, in units of 2^-149
 * (sub: see above). */
static inline void gs_fused_span_of(const struct geluref_encl *a, int oka,
                                    const struct geluref_encl *b, int okb, double curv, double n,
                                    struct gs_fused_span *s)
{
    s->ok = 0;
    s->sub = 0;
    if (!oka || !okb || a->side != 0 || b->side != 0)
        return;
    const struct geluref_encl *ab[2] = { a, b };
    double ms[2], es[2], lo = 0, hi = 0, c[2], r = 0;
    int64_t Ei[2];
    uint64_t si[2];
    for (int i = 0; i < 2; i++) {
        uint64_t mb;
        memcpy(&mb, &ab[i]->m, sizeof mb);
        int64_t em = (int64_t)(mb >> 52 & 0x7ff) - 1023;
        if (em == -1023 || em == 1024)
            return;
        Ei[i] = em + ab[i]->e;
        si[i] = (mb >> 63) << 31;
        ms[i] = gs_fused_ms_of(mb);
        es[i] = ab[i]->err * gs_fused_pow2(23 - em);
    }
    if (si[0] != si[1])
        return;
    int64_t E = Ei[0];
    if (Ei[0] < -126 || Ei[1] < -126) { /* below the normal range (above) */
        if (Ei[0] > -126 || Ei[1] > -126 || Ei[0] < -900 || Ei[1] < -900)
            return;
        for (int i = 0; i < 2; i++) { /* in units of 2^-149: exact (normal doubles) */
            ms[i] *= gs_fused_pow2(Ei[i] + 126);
            es[i] *= gs_fused_pow2(Ei[i] + 126);
        }
        E = -126;
        s->sub = 1;
    } else if (Ei[1] != E) {
        return;
    }
    for (int i = 0; i < 2; i++) {
        double l = ms[i] - es[i], h = ms[i] + es[i];
        c[i] = (l + h) * 0.5;
        r = (h - l) * 0.5 > r ? (h - l) * 0.5 : r;
        lo = i == 0 || l < lo ? l : lo;
        hi = i == 0 || h > hi ? h : hi;
    }
    uint64_t sign = si[0];
    if (E > 127 || !(hi + 0x1p-14 < 0x1p24) || (!s->sub && !(lo - 0x1p-14 >= 0x1p23)))
        return;
    /* the margin for V and the roundings: 2^-15, or below the normal range where f is
     * small, hi 2^-36 (above) */
    double mu = s->sub && hi * 0x1p-36 < 0x1p-15 ? hi * 0x1p-36 : 0x1p-15;
    s->ms = (lo + hi) * 0.5;
    s->w = (hi - lo) * 0.5 + mu;
    s->sc = gs_fused_pow2(23 - E);
    s->p2k = gs_fused_pow2(E - 23);
    int64_t base = (E + 126) * ((int64_t)1 << 23); /* bits of r 2^k: base + r */
    /* (floor as the conversion's truncation: every one of these is above 2^23 - 1; below
     * the normal range a lower bound where negative, see above) */
    s->rlo = base + (int64_t)(s->ms - s->w + 0.5 - 0x1p-20);
    s->rhi = base + (int64_t)(s->ms + s->w + 0.5 + 0x1p-20);
    s->flo = (int64_t)(s->ms - s->w - 0x1p-20);
    s->fhi = (int64_t)(s->ms + s->w + 0x1p-20);
    s->base = base;
    s->sign = sign;
    s->c0 = s->ms;
    s->dc = 0;
    s->wc = s->w;
    double wc = (r + curv * s->sc * 1.01) + 2 * mu;
    if (curv >= 0 && n >= 1 && wc < s->w) { /* the chord, where it is the narrower */
        s->c0 = c[0];
        s->dc = (c[1] - c[0]) / n;
        s->wc = wc;
    }
    s->crd = 0.5 - s->wc - 0x1p-18;
    s->ok = 1;
}

/* |y 2^-k - m_i|: the distance of output y (binary32 bits, sign cleared, finite) from the
 * run's input i's m_i, in ulps of f's binade (one rounding). */
static inline double gs_fused_span_dist(const struct gs_fused_span *s, size_t i, uint32_t ymag)
{
    float yf;
    memcpy(&yf, &ymag, sizeof yf);
    return fabs((double)yf * s->sc - (s->c0 + s->dc * (double)i));
}

/* RN(f(x))'s bits for the run's input i (m_i its chord's point) within [*rlo, *rhi], and
 * *rd RD(|f(x)|)'s bits where one, else -2: from m_i and wc, intersected with the run's (see
 * above; a run without a chord gives the run's own). */
static inline void gs_fused_span_rn(const struct gs_fused_span *s, double mi, int64_t *rlo,
                                    int64_t *rhi, int64_t *rd)
{
    int64_t a = s->base + (int64_t)(mi - s->wc + 0.5 - 0x1p-20);
    int64_t b = s->base + (int64_t)(mi + s->wc + 0.5 + 0x1p-20);
    int64_t fa = (int64_t)(mi - s->wc - 0x1p-20), fb = (int64_t)(mi + s->wc + 0x1p-20);
    fa = fa > s->flo ? fa : s->flo;
    fb = fb < s->fhi ? fb : s->fhi;
    *rlo = a > s->rlo ? a : s->rlo;
    *rhi = b < s->rhi ? b : s->rhi;
    *rd = fa == fb ? s->base + fa : -2;
}

/* The policy's max_cr_distance as an integer bound of a distance d >= 0 below 2^53: d <=
 * gs_span_crmax(c) exactly where (double)d <= c (-1 for NaN or a negative c). */
static inline int64_t gs_span_crmax(double c)
{
    return c >= 0x1p62 ? INT64_MAX : c >= 0 ? (int64_t)floor(c) : -1;
}

/* The policy's max_cr_distance as an integer bound of a failing distance d >= 0 below 2^53:
 * d > gs_span_crfail(c) exactly where (double)d > c (never for NaN). */
static inline int64_t gs_span_crfail(double c)
{
    return c >= 0x1p62 || c != c ? INT64_MAX : c >= 0 ? (int64_t)floor(c) : -1;
}

/* Whether the span lane takes output y (binary32 bits) at input x (its pattern, the run's
 * input i) of a run of span s against the bounds b (their maxima, and b->v the policy where
 * the kernel's own function is measured, NULL for the exact function's); *bucket receives its
 * cr_distance bucket (0: correctly rounded), *fa whether it is faithful and *fail whether the
 * policy fails it (ulp_exceeded). */
static inline int gs_fused_span_take(const struct gs_fused_span *s, size_t i, uint64_t x,
                                     uint64_t y, const struct gs_quick_bounds *b, int *bucket,
                                     int *fa, int *fail)
{
    int64_t ymag = (int64_t)(y & 0x7fffffff);
    int zero = (y & ~(uint64_t)0x80000000u) == 0; /* +-0 */
    if (!s->ok || !(zero || ((y & 0xffffffff80000000u) == s->sign && ymag != 0)) ||
        ymag >= 0x7f800000 || (s->sub && (b->v != NULL || (zero && s->rlo == 0))))
        return 0;
    double mi = s->c0 + s->dc * (double)i;
    int64_t rlo, rhi, rd, dlo, dhi;
    gs_fused_span_rn(s, mi, &rlo, &rhi, &rd);
    if (ymag < rlo) {
        dlo = rlo - ymag;
        dhi = rhi - ymag;
    } else if (ymag > rhi) {
        dlo = ymag - rhi;
        dhi = ymag - rlo;
    } else if (rlo == rhi) {
        dlo = dhi = 0; /* y = RN(f(x)) */
    } else {
        return 0;
    }
    int h = gs_hist_index(dlo);
    if (h != gs_hist_index(dhi) || (dlo == 1 && (rlo != rhi || rd < 0)))
        return 0; /* (dlo <= 1 with rlo < rhi is dlo = 1: y next to the range) */
    int faith = dlo == 0 || ymag == rd || ymag == rd + 1;
    double d = gs_fused_span_dist(s, i, (uint32_t)ymag);
    double uh = (d + s->wc) * (1 + 0x1p-50);
    if (!(uh < b->max_ulp && uh * s->p2k * (1 + 0x1p-50) + 0x1p-1074 < b->max_abs))
        return 0;
    if (zero ? !gs_fused_rel_one_below(b->max_rel, b->max_rel_x, x)
             : !(uh * (1 + 0x1p-48) < b->max_rel * (mi - s->wc) * (1 - 0x1p-48)))
        return 0;
    int pass = 1;
    if (b->v != NULL) {
        const struct gs_policy_values *v = b->v;
        if (zero)
            return 0;
        pass = dlo == 0 || (dhi <= gs_span_crmax(v->max_cr_distance) &&
                            (faith || !v->faithful) && uh <= v->max_ulp);
        if (!pass) {
            double ul = (d - s->wc) * (1 - 0x1p-50);
            if (!((!(v->abs_tol > 0) || ul * s->p2k * (1 - 0x1p-50) - 0x1p-1074 > v->abs_tol) &&
                  (dlo > gs_span_crfail(v->max_cr_distance) || (v->faithful && !faith) ||
                   ul > v->max_ulp) &&
                  uh < b->unkept))
                return 0;
        }
    }
    *bucket = h;
    *fa = faith;
    *fail = !pass;
    return 1;
}

/* Whether gs_fused_span_take takes, unjudged (b->v NULL: the exact function's measurement),
 * every output of span s's run of n inputs (0 .. n - 1) whose bits lie in [ylo, yhi]
 * (unsigned), far: the vector lanes test a run so from the least and greatest bits of its
 * outputs (those the lane is asked about), instead of each, and take them all as far (bucket
 * ">256", neither correctly rounded nor faithful) where it holds.  The same decisions: each
 * such output is of f's sign, finite and not zero (the bits of one sign, not zero and
 * finite, are the interval [sign | 1, sign | 0x7f7fffff]), its magnitude as far from [rlo,
 * rhi] (so from its input's own range within it) as the nearest end's; and each of its
 * computed errors at most the run's below, every step of them monotone (rounding is):
 * m_i = c0 + dc i moves one way along i, so lies between m_0 and m_{n-1} (ml, mh, computed
 * as the lanes compute m_i); ys = y 2^-k (exact) between ys(ylo) and ys(yhi) (the magnitude
 * grows with the bits in one sign); so |ys - m_i| is at most the larger of ys(yhi) - ml and
 * mh - ys(ylo), and its rounding at most theirs; uh and the absolute bound grow with d, and
 * max_rel (m_i - wc) (1 - 2^-48) is least at ml for max_rel >= 0 (a negative or NaN maximum
 * fails the run's test, and each output's).  So where the run's three tests pass, each
 * output's pass too. */
static inline int gs_fused_span_far_run(const struct gs_fused_span *s, size_t n, uint64_t ylo,
                                        uint64_t yhi, const struct gs_quick_bounds *b)
{
    if (!s->ok || b->v != NULL || n == 0 || ylo < (s->sign | 1) || yhi > (s->sign | 0x7f7fffff))
        return 0;
    int64_t al = (int64_t)(ylo & 0x7fffffff), ah = (int64_t)(yhi & 0x7fffffff);
    if (!(ah < s->rlo - 256 || al > s->rhi + 256))
        return 0;
    double m0 = s->c0 + s->dc * 0.0, m1 = s->c0 + s->dc * (double)(n - 1);
    double ml = m0 < m1 ? m0 : m1, mh = m0 < m1 ? m1 : m0;
    uint32_t bl = (uint32_t)al, bh = (uint32_t)ah;
    float fl, fh;
    memcpy(&fl, &bl, sizeof fl);
    memcpy(&fh, &bh, sizeof fh);
    double du = (double)fh * s->sc - ml, dd = mh - (double)fl * s->sc;
    double uh = ((du > dd ? du : dd) + s->wc) * (1 + 0x1p-50);
    return uh < b->max_ulp && uh * s->p2k * (1 + 0x1p-50) + 0x1p-1074 < b->max_abs &&
           uh * (1 + 0x1p-48) < b->max_rel * (ml - s->wc) * (1 - 0x1p-48);
}

/* *take = ok && gs_fused_span_take(s, i, x, y, b), counted into *cnt where taken (the lanes'
 * one at a time). */
static inline void gs_fused_span_take_count(const struct gs_fused_span *s, size_t i,
                                            unsigned char ok, uint64_t x, uint64_t y,
                                            const struct gs_quick_bounds *b, unsigned char *take,
                                            struct gs_quick_counts *cnt)
{
    int h, fa, fl;
    *take = (unsigned char)(ok && gs_fused_span_take(s, i, x, y, b, &h, &fa, &fl));
    if (*take) {
        cnt->n++;
        cnt->cr += h == 0;
        cnt->faithful += (uint64_t)fa;
        cnt->failed += (uint64_t)fl;
        cnt->hist[h]++;
    }
}

/* take[q] = ok[q] && gs_fused_span_take(&s[q / GS_SPAN], q % GS_SPAN, x[q], y[q], b) for q <
 * k, the taken ones' counts (n, cr, faithful, failed and their buckets) added to *cnt.  Four
 * at a time with AVX2 where the CPU reports it (ulp_lane_avx2.c: the same operations in the
 * same order, so the same decisions, checked by tests/suites/test_ulp_span.c with the decisions
 * themselves). */
void gs_fused_span_lane_n(const struct gs_fused_span *s, const unsigned char *ok,
                          const uint64_t *x, const uint64_t *y, size_t k,
                          const struct gs_quick_bounds *b, unsigned char *take,
                          struct gs_quick_counts *cnt);
void gs_fused_span_lane_n_generic(const struct gs_fused_span *s, const unsigned char *ok,
                                  const uint64_t *x, const uint64_t *y, size_t k,
                                  const struct gs_quick_bounds *b, unsigned char *take,
                                  struct gs_quick_counts *cnt);
#if defined(GS_HAVE_AVX2_LANE)
void gs_fused_span_lane_n_avx2(const struct gs_fused_span *s, const unsigned char *ok,
                               const uint64_t *x, const uint64_t *y, size_t k,
                               const struct gs_quick_bounds *b, unsigned char *take,
                               struct gs_quick_counts *cnt);
#endif
#if defined(GS_HAVE_AVX512_LANE)
/* Eight at a time (ulp_lane_avx512.c); only where gs_lane_avx512() says so. */
void gs_fused_span_lane_n_avx512(const struct gs_fused_span *s, const unsigned char *ok,
                                 const uint64_t *x, const uint64_t *y, size_t k,
                                 const struct gs_quick_bounds *b, unsigned char *take,
                                 struct gs_quick_counts *cnt);
#endif

/* The inputs the span lane left (ulp.c fused_block encloses them side by side): xl[0 .. nl) =
 * xd[q] and il[..] = q for each q < k (k <= 256) with take[q] 0, in order; returns nl.  xl and
 * il hold k entries: eight at a time (AVX-512, by compression, where gs_lane_avx512() says
 * so) stores eight whole at nl, which is at most the batch's own start q, so within them.
 * tests/suites/test_ulp_span.c compares both ways. */
size_t gs_left_n(const double *xd, const unsigned char *take, size_t k, double *xl,
                 unsigned char *il);
size_t gs_left_n_generic(const double *xd, const unsigned char *take, size_t k, double *xl,
                         unsigned char *il);
#if defined(GS_HAVE_AVX512_LANE)
size_t gs_left_n_avx512(const double *xd, const unsigned char *take, size_t k, double *xl,
                        unsigned char *il);
#endif

/* xd[q] = the binary32 value whose bits are x[q]'s low 32, for q < k (exact: every binary32
 * value is a double; the block's inputs as doubles, ulp.c fused_block): eight at a time with
 * AVX-512 where gs_lane_avx512() says so, the same conversion (tests/suites/test_ulp_span.c
 * compares both ways). */
void gs_f32_values_n(const uint64_t *x, size_t k, double *xd);
void gs_f32_values_n_generic(const uint64_t *x, size_t k, double *xd);
#if defined(GS_HAVE_AVX512_LANE)
void gs_f32_values_n_avx512(const uint64_t *x, size_t k, double *xd);
#endif

#endif
