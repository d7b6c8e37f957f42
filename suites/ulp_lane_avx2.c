/* The lanes four enclosures at a time (ulp_lane.h), compiled with -mavx2 (not -mfma: no
 * product may be fused into a sum, so that each double operation rounds as the scalar build's
 * does).  In the bound lane each lane performs gs_fused_common's and gs_fused_bound_lane's
 * operations on the same values in the same order: the exponent and binade tests on 64-bit
 * integers (the scalar code's int64_t arithmetic, which never wraps on an enclosure's values,
 * and its uint64_t shifts, which wrap alike), es = err 2^(23 - em) with 2^(23 - em) built from
 * its bits as gs_fused_pow2 builds it, lo = ms - es and hi = ms + es, the bit tests on lo and
 * hi, rz and rn, y's sign, d and the faithful test on integers, ys, uh and ul, and the tests
 * against the maxima and the policy as ordered comparisons (false on a NaN, as the scalar
 * code's !(a < b) refuses and its a > b does not fail).  A lane whose ok is 0 is computed on
 * whatever its enclosure holds and then masked: nothing branches on it. */
#include "ulp_lane.h"

#include "ulp_fused.h" /* GS_FUSED_SUB_EMIN */

#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* The enclosures e[0..3] as four vectors of their words: m, err (as bits), e, side (its word,
 * the upper half padding). */
static inline __attribute__((always_inline)) void
load4(const struct geluref_encl *e, __m256i *mb, __m256i *ee, __m256i *eb, __m256i *sd)
{
    const __m256i *p = (const __m256i *)(const void *)e;
    __m256i r0 = _mm256_loadu_si256(p), r1 = _mm256_loadu_si256(p + 1);
    __m256i r2 = _mm256_loadu_si256(p + 2), r3 = _mm256_loadu_si256(p + 3);
    __m256i t0 = _mm256_unpacklo_epi64(r0, r1); /* m0 m1 e0 e1 */
    __m256i t1 = _mm256_unpackhi_epi64(r0, r1); /* err0 err1 side0 side1 */
    __m256i t2 = _mm256_unpacklo_epi64(r2, r3);
    __m256i t3 = _mm256_unpackhi_epi64(r2, r3);
    *mb = _mm256_permute2x128_si256(t0, t2, 0x20);
    *ee = _mm256_permute2x128_si256(t0, t2, 0x31);
    *eb = _mm256_permute2x128_si256(t1, t3, 0x20);
    *sd = _mm256_permute2x128_si256(t1, t3, 0x31);
}

/* A 64-bit integer 0 <= i < 2^52 as a double, exactly (the scalar code's conversion). */
static inline __m256d i2d(__m256i i)
{
    const __m256i magic = _mm256_set1_epi64x(0x4330000000000000);
    return _mm256_sub_pd(_mm256_castsi256_pd(_mm256_or_si256(i, magic)),
                         _mm256_set1_pd(0x1p52));
}

/* 2^k for a normal double's exponent k, from its bits (gs_fused_pow2: (k + 1023) << 52). */
static inline __m256d pow2v(__m256i k)
{
    return _mm256_castsi256_pd(
        _mm256_slli_epi64(_mm256_add_epi64(k, _mm256_set1_epi64x(1023)), 52));
}

/* Bits 0 to 3 of m (< 16) moved to bits 0, 8, 16 and 24. */
static inline uint32_t spread4(uint32_t m)
{
#define S4(m) ((m & 1) | (m & 2) << 7 | (m & 4) << 14 | (m & 8) << 21)
    static const uint32_t t[16] = { S4(0u),  S4(1u),  S4(2u),  S4(3u), S4(4u),  S4(5u),
                                    S4(6u),  S4(7u),  S4(8u),  S4(9u), S4(10u), S4(11u),
                                    S4(12u), S4(13u), S4(14u), S4(15u) };
#undef S4
    return t[m];
}

/* The sum of the four 64-bit lanes of v (counts: no overflow). */
static inline uint64_t sum4(__m256i v)
{
    uint64_t w[4];
    _mm256_storeu_si256((__m256i *)(void *)w, v);
    return w[0] + w[1] + w[2] + w[3];
}

/* gs_fused_bound_lane_n_avx2's loop, with nthr (a constant where it is called) the number of
 * thresholds the outputs it may take can exceed (those below dmax): a taken output's bucket
 * counted as how many thresholds it exceeds, summed per threshold (gt[j] minus the lanes
 * above gs_bound_thr(j)), in vectors. */
static inline __attribute__((always_inline)) size_t
bound_loop(const struct geluref_encl *e, const unsigned char *ok, const uint64_t *y, size_t k,
           const struct gs_bound_limits *lim, unsigned char *take, uint64_t *np, __m256i *fav,
           __m256i *flv, __m256i *gt, double *uho, const int nthr, const int judged,
           const int crf)
{
    size_t q = 0;
    const __m256i c7ff = _mm256_set1_epi64x(0x7ff), c1023 = _mm256_set1_epi64x(1023);
    const __m256i cm126 = _mm256_set1_epi64x(-126), c127 = _mm256_set1_epi64x(127);
    const __m256i cm1023 = _mm256_set1_epi64x(-1023), c1024 = _mm256_set1_epi64x(1024);
    const __m256i clo32 = _mm256_set1_epi64x(0xffffffff), zero = _mm256_setzero_si256();
    const __m256i mant = _mm256_set1_epi64x(0x000fffffffffffff);
    const __m256i exp23 = _mm256_set1_epi64x((int64_t)(23 + 1023) << 52);
    const __m256i c1046 = _mm256_set1_epi64x(1023 + 23);
    const __m256i low28 = _mm256_set1_epi64x(((int64_t)1 << 28) - 1);
    const __m256i bit52 = _mm256_set1_epi64x((int64_t)1 << 52), one = _mm256_set1_epi64x(1);
    const __m256i c126 = _mm256_set1_epi64x(126), rnmax = _mm256_set1_epi64x(0x7f800000);
    const __m256i sbit = _mm256_set1_epi64x(0x80000000), ymagm = _mm256_set1_epi64x(0x7fffffff);
    const __m256i notone = _mm256_set1_epi64x(~(int64_t)1), c23 = _mm256_set1_epi64x(23);
    const __m256i lo32 = _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6);
    const __m256i vdmax = _mm256_set1_epi64x(lim->dmax);
    const __m256i unfa = _mm256_set1_epi64x(lim->faithful ? 0 : -1);
    const __m256d vmaxulp = _mm256_set1_pd(lim->max_ulp), vpolulp = _mm256_set1_pd(lim->pol_ulp);
    const __m256d vmaxrel = _mm256_set1_pd(lim->max_rel), vmaxabs = _mm256_set1_pd(lim->max_abs);
    const __m256d vpolcr = _mm256_set1_pd(lim->pol_cr), vtol = _mm256_set1_pd(lim->tol);
    const __m256d vunkept = _mm256_set1_pd(lim->unkept), m50lo = _mm256_set1_pd(1 - 0x1p-50);
    const __m256d vtoloff = _mm256_castsi256_pd(_mm256_set1_epi64x(lim->tol > 0 ? 0 : -1));
    const __m256i ones = _mm256_set1_epi64x(-1);
    const __m256d p16 = _mm256_set1_pd(0x1p-16), tiny = _mm256_set1_pd(0x1p-1074);
    const __m256d m50 = _mm256_set1_pd(1 + 0x1p-50), m48 = _mm256_set1_pd(1 + 0x1p-48);
    const __m256d m48lo = _mm256_set1_pd(1 - 0x1p-48);
    const __m256d absmask = _mm256_castsi256_pd(_mm256_set1_epi64x(0x7fffffffffffffff));
    const __m256i vemax = _mm256_set1_epi64x(lim->emax);
    const __m256d vone = _mm256_set1_pd(1.0), halfm = _mm256_set1_pd(0.5 * (1 + 0x1p-50));
    uint64_t n = 0;
    for (; q + 4 <= k; q += 4) {
        __m256i mb, ee, eb, sd;
        load4(&e[q], &mb, &ee, &eb, &sd);
        /* gs_fused_common (emax 127): em, E and the tests that return -1 */
        __m256i em = _mm256_sub_epi64(_mm256_and_si256(_mm256_srli_epi64(mb, 52), c7ff), c1023);
        __m256i E = _mm256_add_epi64(em, ee);
        __m256i bad = _mm256_or_si256(_mm256_cmpgt_epi64(cm126, E), _mm256_cmpgt_epi64(E, c127));
        bad = _mm256_or_si256(bad, _mm256_cmpeq_epi64(em, cm1023));
        bad = _mm256_or_si256(bad, _mm256_cmpeq_epi64(em, c1024));
        bad = _mm256_or_si256(
            bad, _mm256_xor_si256(_mm256_cmpeq_epi64(_mm256_and_si256(sd, clo32), zero),
                                  _mm256_set1_epi64x(-1)));
        __m256d ms = _mm256_castsi256_pd(_mm256_or_si256(_mm256_and_si256(mb, mant), exp23));
        __m256d es = _mm256_mul_pd(_mm256_castsi256_pd(eb), pow2v(_mm256_sub_epi64(c23, em)));
        __m256d lo = _mm256_sub_pd(ms, es), hi = _mm256_add_pd(ms, es);
        __m256i lb = _mm256_castpd_si256(lo), hb = _mm256_castpd_si256(hi);
        /* the tests that return 0 */
        __m256i good = _mm256_cmpeq_epi64(_mm256_srli_epi64(lb, 52), c1046);
        good = _mm256_and_si256(good, _mm256_cmpeq_epi64(_mm256_srli_epi64(lb, 28),
                                                         _mm256_srli_epi64(hb, 28)));
        good = _mm256_andnot_si256(_mm256_cmpeq_epi64(_mm256_and_si256(lb, low28), zero), good);
        good = _mm256_andnot_si256(bad, good);
        /* ni, up, rz = ((E + 126) << 23) + ni, rn = rz + up */
        __m256i sig = _mm256_or_si256(_mm256_and_si256(lb, mant), bit52);
        __m256i rz = _mm256_add_epi64(_mm256_slli_epi64(_mm256_add_epi64(E, c126), 23),
                                      _mm256_srli_epi64(sig, 29));
        __m256i rn = _mm256_add_epi64(rz, _mm256_and_si256(_mm256_srli_epi64(sig, 28), one));
        /* rn < 0x7f800000 (rn >= 0 in every lane still good: E >= -126), y finite and of
         * f(x)'s sign (a zero is refused by d <= dmax) */
        good = _mm256_and_si256(good, _mm256_cmpgt_epi64(rnmax, rn));
        __m256i yv = _mm256_loadu_si256((const __m256i *)(const void *)&y[q]);
        __m256i ymag = _mm256_and_si256(yv, ymagm);
        good = _mm256_and_si256(
            good, _mm256_cmpeq_epi64(_mm256_and_si256(yv, sbit),
                                     _mm256_slli_epi64(_mm256_srli_epi64(mb, 63), 31)));
        good = _mm256_and_si256(good, _mm256_cmpgt_epi64(rnmax, ymag));
        /* d = |ymag - rn| ((t ^ s) - s, s the sign of t), d <= dmax, faithful: ymag - rz in
         * {0, 1} */
        __m256i t = _mm256_sub_epi64(ymag, rn);
        __m256i s = _mm256_cmpgt_epi64(zero, t);
        __m256i d = _mm256_sub_epi64(_mm256_xor_si256(t, s), s);
        good = _mm256_andnot_si256(_mm256_cmpgt_epi64(d, vdmax), good);
        __m256i fa =
            _mm256_cmpeq_epi64(_mm256_and_si256(_mm256_sub_epi64(ymag, rz), notone), zero);
        uint32_t okw;
        memcpy(&okw, ok + q, sizeof okw);
        __m256i okv = _mm256_xor_si256(
            _mm256_cmpeq_epi64(_mm256_cvtepu8_epi64(_mm_cvtsi32_si128((int)okw)), zero), ones);
        /* the correctly rounded case: d = 0, E <= emax, max_rel (lo - 1) > 1/2 (1 + 2^-50);
         * where it is every lane to decide, those are taken and the rest is skipped (no uh) */
        __m256i crc = zero, gok = _mm256_and_si256(good, okv);
        if (crf) {
            crc = _mm256_andnot_si256(_mm256_cmpgt_epi64(E, vemax), _mm256_cmpeq_epi64(d, zero));
            crc = _mm256_and_si256(
                crc, _mm256_castpd_si256(_mm256_cmp_pd(
                         _mm256_mul_pd(vmaxrel, _mm256_sub_pd(lo, vone)), halfm, _CMP_GT_OQ)));
        }
        if (crf && _mm256_testc_si256(crc, gok)) { /* gok within crc */
            if (uho != NULL)
                _mm256_storeu_pd(uho + q, _mm256_set1_pd(-1));
            uint32_t tm = (uint32_t)_mm256_movemask_pd(_mm256_castsi256_pd(gok));
            uint32_t tw = spread4(tm);
            memcpy(take + q, &tw, sizeof tw);
            n += (unsigned)__builtin_popcount(tm);
            *fav = _mm256_sub_epi64(*fav, gok); /* faithful all, d = 0: no bucket above 0 */
            continue;
        }
        /* dd = |ys - ms|, uh = (dd + w)(1 + 2^-50), w = es + 2^-16, ys = y 2^(23 - E)
         * (gs_fused_ys's value by its second branch alone: in f(x)'s binade its first,
         * ymag - base, is y 2^(23-E) exactly too, a binary32 widened times a power of two
         * within the double range), and the tests against the maxima */
        __m128 yf = _mm256_castps256_ps128(
            _mm256_castsi256_ps(_mm256_permutevar8x32_epi32(ymag, lo32)));
        __m256d ys = _mm256_mul_pd(_mm256_cvtps_pd(yf), pow2v(_mm256_sub_epi64(c23, E)));
        __m256d w = _mm256_add_pd(es, p16);
        __m256d dd = _mm256_and_pd(_mm256_sub_pd(ys, ms), absmask);
        __m256d uh = _mm256_mul_pd(_mm256_add_pd(dd, w), m50);
        if (uho != NULL) /* uh where the lane got this far (decided, within dmax, not the
                          * correctly rounded case), else -1 */
            _mm256_storeu_pd(uho + q, _mm256_blendv_pd(_mm256_set1_pd(-1), uh,
                                                       _mm256_castsi256_pd(
                                                           _mm256_andnot_si256(crc, gok))));
        __m256d p2k = pow2v(_mm256_sub_epi64(E, c23));
        __m256d ct = _mm256_cmp_pd(uh, vmaxulp, _CMP_LT_OQ);
        __m256d ab = _mm256_add_pd(_mm256_mul_pd(_mm256_mul_pd(uh, p2k), m50), tiny);
        ct = _mm256_and_pd(ct, _mm256_cmp_pd(ab, vmaxabs, _CMP_LT_OQ));
        __m256d rl = _mm256_mul_pd(_mm256_mul_pd(vmaxrel, _mm256_sub_pd(ms, w)), m48lo);
        ct = _mm256_and_pd(ct, _mm256_cmp_pd(_mm256_mul_pd(uh, m48), rl, _CMP_LT_OQ));
        __m256i genl = _mm256_castpd_si256(ct); /* the general case's tests */
        /* the policy: passed, or failed below the unkept bound (not judged: passed) */
        __m256i fail = zero;
        if (judged) {
            __m256d ddv = i2d(d);
            __m256i fok = _mm256_or_si256(fa, unfa); /* faithful, or not asked */
            __m256i pass = _mm256_or_si256(
                _mm256_cmpeq_epi64(d, zero),
                _mm256_and_si256(fok, _mm256_castpd_si256(_mm256_and_pd(
                                          _mm256_cmp_pd(ddv, vpolcr, _CMP_LE_OQ),
                                          _mm256_cmp_pd(uh, vpolulp, _CMP_LE_OQ)))));
            __m256d ul = _mm256_mul_pd(_mm256_sub_pd(dd, w), m50lo);
            __m256d ulabs = _mm256_sub_pd(_mm256_mul_pd(_mm256_mul_pd(ul, p2k), m50lo), tiny);
            __m256d notol = _mm256_or_pd(vtoloff, _mm256_cmp_pd(ulabs, vtol, _CMP_GT_OQ));
            __m256d why = _mm256_or_pd(_mm256_cmp_pd(ddv, vpolcr, _CMP_GT_OQ),
                                       _mm256_cmp_pd(ul, vpolulp, _CMP_GT_OQ));
            why = _mm256_or_pd(why, _mm256_castsi256_pd(_mm256_andnot_si256(fok, ones)));
            fail = _mm256_castpd_si256(_mm256_and_pd(_mm256_and_pd(notol, why),
                                                     _mm256_cmp_pd(uh, vunkept, _CMP_LT_OQ)));
            fail = _mm256_andnot_si256(pass, fail);
            fail = _mm256_andnot_si256(crc, _mm256_and_si256(genl, fail));
            genl = _mm256_and_si256(genl, _mm256_or_si256(pass, fail));
        }
        good = _mm256_and_si256(good, _mm256_or_si256(crc, genl));
        /* take[q + j] = (ok[q + j] != 0) & lane j taken, four bytes at once (the mask's bits
         * spread to bits 0, 8, 16 and 24), and the counts of the lanes taken */
        __m256i tv = _mm256_and_si256(okv, good);
        uint32_t tm = (uint32_t)_mm256_movemask_pd(_mm256_castsi256_pd(tv)), tw = spread4(tm);
        memcpy(take + q, &tw, sizeof tw);
        n += (unsigned)__builtin_popcount(tm);
        *fav = _mm256_sub_epi64(*fav, _mm256_and_si256(fa, tv));
        *flv = _mm256_sub_epi64(*flv, _mm256_and_si256(fail, tv));
        __m256i dz = _mm256_and_si256(d, tv);
        for (int j = 0; j < nthr; j++)
            gt[j] = _mm256_sub_epi64(gt[j],
                                     _mm256_cmpgt_epi64(dz, _mm256_set1_epi64x(gs_bound_thr(j))));
    }
    *np = n;
    return q;
}

void gs_fused_bound_lane_n_avx2(const struct geluref_encl *e, const unsigned char *ok,
                                const uint64_t *y, size_t k, const struct gs_bound_limits *lim,
                                unsigned char *take, struct gs_quick_counts *cnt, double *uh)
{
    __m256i fav = _mm256_setzero_si256(), flv = fav, gt[6];
    for (int j = 0; j < 6; j++)
        gt[j] = fav;
    /* each loop with its count of thresholds, whether it judges and whether it tries the
     * correctly rounded case first a constant */
    int nthr = gs_bound_nthr(lim), judged = gs_bound_judged(lim);
#define BL(nt, j, c) bound_loop(e, ok, y, k, lim, take, &n, &fav, &flv, gt, uh, nt, j, c)
#define BLN(j, c) (nthr <= 2 ? BL(2, j, c) : nthr == 3 ? BL(3, j, c) : nthr == 4 ? BL(4, j, c) \
                             : BL(6, j, c))
    uint64_t n = 0;
    size_t q;
    if (lim->cr_first)
        q = judged ? BLN(1, 1) : BLN(0, 1);
    else
        q = judged ? BLN(1, 0) : BLN(0, 0);
#undef BLN
#undef BL
    uint64_t g[6];
    for (int j = 0; j < 6; j++)
        g[j] = sum4(gt[j]);
    gs_bound_counts(cnt, n, sum4(fav), sum4(flv), g);
    gs_fused_bound_lane_n_generic(e + q, ok + q, y + q, k - q, lim, take + q, cnt,
                                  uh != NULL ? uh + q : NULL);
}

/* The refusals both cases of the quick lane make, as masks: |m| a zero, subnormal, infinite
 * or NaN double (em = -1023 or 1024), a one-sided enclosure, an output of the other sign than
 * f(x) (sign: f(x)'s, in y's bit 31) that is not a zero (z), an output that is not finite. */
static inline __m256i refuse4(__m256i em, __m256i sd, __m256i yv, __m256i ymag, __m256i sign,
                              __m256i z)
{
    const __m256i zero = _mm256_setzero_si256(), ones = _mm256_set1_epi64x(-1);
    __m256i bad = _mm256_or_si256(_mm256_cmpeq_epi64(em, _mm256_set1_epi64x(-1023)),
                                  _mm256_cmpeq_epi64(em, _mm256_set1_epi64x(1024)));
    bad = _mm256_or_si256(
        bad, _mm256_xor_si256(
                 _mm256_cmpeq_epi64(_mm256_and_si256(sd, _mm256_set1_epi64x(0xffffffff)), zero),
                 ones));
    bad = _mm256_or_si256(
        bad, _mm256_andnot_si256(
                 z, _mm256_xor_si256(_mm256_cmpeq_epi64(
                                         _mm256_and_si256(yv, _mm256_set1_epi64x(0x80000000)),
                                         sign),
                                     ones)));
    return _mm256_or_si256(bad, _mm256_cmpgt_epi64(ymag, _mm256_set1_epi64x(0x7f7fffff)));
}

/* The enclosure [l, h] of f(x) in units of V's 40-bit cells (rounded; compared only with
 * integers, which are doubles) inside the binade, 2^39 <= l and h < 2^40, and inside one open
 * cell (C, C + 1), C = floor(l) (*c; rounding toward -inf, exact): the mask of the lanes
 * where it is. */
static inline __m256d cell4(__m256d l, __m256d h, __m256d *c)
{
    __m256d gd = _mm256_and_pd(_mm256_cmp_pd(l, _mm256_set1_pd(0x1p39), _CMP_GE_OQ),
                               _mm256_cmp_pd(h, _mm256_set1_pd(0x1p40), _CMP_LT_OQ));
    *c = _mm256_round_pd(l, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
    gd = _mm256_and_pd(gd, _mm256_cmp_pd(l, *c, _CMP_GT_OQ));
    return _mm256_and_pd(gd, _mm256_cmp_pd(h, _mm256_add_pd(*c, _mm256_set1_pd(1.0)),
                                           _CMP_LT_OQ));
}

/* v below the maximum m kept for input mx, or equal to it at a larger x (the tie keeps the
 * smaller x: errstat.c beats(), fused_below_max), x compared unsigned: xb and mxb are x and
 * mx with the top bit flipped, compared signed. */
static inline __m256d below_tie(__m256d v, __m256d m, __m256i xb, __m256i mxb)
{
    return _mm256_or_pd(_mm256_cmp_pd(v, m, _CMP_LT_OQ),
                        _mm256_and_pd(_mm256_cmp_pd(v, m, _CMP_EQ_OQ),
                                      _mm256_castsi256_pd(_mm256_cmpgt_epi64(xb, mxb))));
}

/* The quick lane's counts: taken, correctly rounded, faithful, failed by kind (ulp_exceeded,
 * premature_flush, ftz, signed_zero: the masks f0 to f3, within good), and the cr_distance
 * buckets.  Each mask's four lanes as four bits (movemask), counted on the integer units
 * (popcount), and each taken lane's bucket (gs_hist_index) found there too, in a histogram of
 * its own lane (no two increments of one counter in a batch): the vector units, the lane's
 * bound, keep one operation a count and none for the buckets. */
struct qacc {
    uint64_t n, cr, fa, fl, flz, ftz, sz;
    uint64_t h[4][GS_HIST_N - 1]; /* lane j's buckets (not "nan": dv >= 0) */
};

/* the lanes set in mask m, as bits 0 to 3 */
static inline unsigned bits4(__m256i m)
{
    return (unsigned)_mm256_movemask_pd(_mm256_castsi256_pd(m));
}

/* gs_hist_index(d) for 0 <= d < 2^63: a table up to 16, then 5 or 6 (gs_hist_index itself
 * in this loop, six comparisons a lane, took the lane from 4.0 to 7.0 ns per input judged
 * over a block of normpdf.f32 at -3) */
static inline unsigned hist_of(uint64_t d)
{
    static const unsigned char t[17] = { 0, 1, 2, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4 };
    return d <= 16 ? t[d] : 5u + (d > 256);
}

/* The counts of the lanes g (bits 0 to 3), of which cr and fa are correctly rounded and
 * faithful, f0 to f3 failed by kind (within g). */
static inline __attribute__((always_inline)) void
qacc_add(struct qacc *c, unsigned g, unsigned cr, unsigned fa, __m256i dv, unsigned f0,
         unsigned f1, unsigned f2, unsigned f3)
{
    c->n += (unsigned)__builtin_popcount(g);
    c->cr += (unsigned)__builtin_popcount(g & cr);
    c->fa += (unsigned)__builtin_popcount(g & fa);
    c->fl += (unsigned)__builtin_popcount(f0);
    c->flz += (unsigned)__builtin_popcount(f1);
    c->ftz += (unsigned)__builtin_popcount(f2);
    c->sz += (unsigned)__builtin_popcount(f3);
    uint64_t d[4];
    _mm256_storeu_si256((__m256i *)(void *)d, dv);
    for (int j = 0; j < 4; j++)
        c->h[j][hist_of(d[j])] += (g >> j) & 1;
}

/* gs_fused_quick_sub's case (a subnormal result, E < -126) of the lanes in `lanes`: its
 * refusals on integers (E >= GS_FUSED_SUB_EMIN, em, side, sh = e + 149 within +-1000, y of
 * f(x)'s sign or a zero, and finite), ms = |m| 2^sh, es = err 2^sh, lo, hi and their cells
 * lc = lo 2^(-E-110), hc = hi 2^(-E-110), the cell test with floor(lc) taken by rounding
 * toward -inf, rz = C >> s and rn = rz + bit s - 1 of C (s = -E - 110; the variable shifts
 * give 0 for a count of 64 or more, as the scalar code's tests do), ys = y 2^149 (a binary32
 * widened exactly), a = (C | 1) 2^(E+110), ulp = |ys - a|, abs = ulp 2^-149, cr = (y = sign |
 * rn); then the same tests against the maxima as the normal case, and where judged
 * gs_fused_judge's by the defect of gs_fused_quick_sub's chain: a zero that is not correctly
 * rounded is premature_flush for rn = 2^23, else ftz where not faithful, else signed_zero for
 * rn = 0, else ulp_exceeded, as is every other output not correctly rounded; abs_tol applies
 * to all but signed_zero, and an ulp_exceeded passes where the policy's accuracy domain is the
 * normal numbers and RN(f(x)) is not one (rn < 2^23).  Returns the lanes taken; their counts
 * are added to c. */
static inline __attribute__((always_inline)) __m256i
quick_sub4(__m256i mb, __m256i ee, __m256i eb, __m256i sd, __m256i yv, __m256i ymag,
           __m256i sign, __m256i z, __m256i xv, __m256i E, __m256i em, __m256i lanes,
           const struct gs_quick_bounds *b, struct qacc *c)
{
    const __m256i zero = _mm256_setzero_si256(), ones = _mm256_set1_epi64x(-1);
    const __m256i one = _mm256_set1_epi64x(1), mant = _mm256_set1_epi64x(0x000fffffffffffff);
    const __m256i c149 = _mm256_set1_epi64x(149), c110 = _mm256_set1_epi64x(110);
    const __m256i p1000 = _mm256_set1_epi64x(1000), m1000 = _mm256_set1_epi64x(-1000);
    const __m256i cmin = _mm256_set1_epi64x(GS_FUSED_SUB_EMIN);
    const __m256i bit23 = _mm256_set1_epi64x(0x00800000);
    const __m256d p52 = _mm256_set1_pd(0x1p52);
    const __m256d p149 = _mm256_set1_pd(0x1p149), m149 = _mm256_set1_pd(0x1p-149);
    const __m256d relm = _mm256_set1_pd(1 - 0x1p-50);
    const __m256d absmask = _mm256_castsi256_pd(_mm256_set1_epi64x(0x7fffffffffffffff));
    const __m256i lo32 = _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6);
    __m256i sh = _mm256_add_epi64(ee, c149);
    __m256i bad = _mm256_or_si256(refuse4(em, sd, yv, ymag, sign, z),
                                  _mm256_cmpgt_epi64(cmin, E));
    bad = _mm256_or_si256(bad, _mm256_or_si256(_mm256_cmpgt_epi64(m1000, sh),
                                               _mm256_cmpgt_epi64(sh, p1000)));
    /* ms, es, the cells */
    __m256d sc = pow2v(sh);
    __m256d ms = _mm256_mul_pd(_mm256_and_pd(_mm256_castsi256_pd(mb), absmask), sc);
    __m256d es = _mm256_mul_pd(_mm256_castsi256_pd(eb), sc);
    __m256i ns = _mm256_sub_epi64(_mm256_sub_epi64(zero, E), c110); /* s = -E - 110 */
    __m256d s2 = pow2v(ns);
    __m256d cf;
    __m256d gd = cell4(_mm256_mul_pd(_mm256_sub_pd(ms, es), s2),
                       _mm256_mul_pd(_mm256_add_pd(ms, es), s2), &cf);
    __m256i good = _mm256_and_si256(_mm256_andnot_si256(bad, _mm256_castpd_si256(gd)), lanes);
    /* C, rz, rn */
    __m256i cl = _mm256_and_si256(_mm256_castpd_si256(_mm256_add_pd(cf, p52)), mant);
    __m256i rz = _mm256_srlv_epi64(cl, ns);
    __m256i rn = _mm256_add_epi64(
        rz, _mm256_and_si256(_mm256_srlv_epi64(cl, _mm256_sub_epi64(ns, one)), one));
    __m256i cr = _mm256_cmpeq_epi64(yv, _mm256_or_si256(sign, rn)); /* y = RN(f(x)) */
    __m256i fa = _mm256_or_si256(_mm256_cmpeq_epi64(ymag, rz),
                                 _mm256_cmpeq_epi64(ymag, _mm256_add_epi64(rz, one)));
    __m256i gt = _mm256_cmpgt_epi64(ymag, rn);
    __m256i dv = _mm256_blendv_epi8(_mm256_sub_epi64(rn, ymag), _mm256_sub_epi64(ymag, rn), gt);
    /* ys, a, the errors */
    __m128 yf = _mm256_castps256_ps128(
        _mm256_castsi256_ps(_mm256_permutevar8x32_epi32(ymag, lo32)));
    __m256d ys = _mm256_mul_pd(_mm256_cvtps_pd(yf), p149);
    __m256d a = _mm256_mul_pd(i2d(_mm256_or_si256(cl, one)),
                              pow2v(_mm256_add_epi64(E, c110)));
    __m256d ulp = _mm256_and_pd(_mm256_sub_pd(ys, a), absmask);
    __m256d ab = _mm256_mul_pd(ulp, m149);
    const __m256i bias = _mm256_set1_epi64x(INT64_MIN);
    __m256i xb = _mm256_xor_si256(xv, bias);
    __m256d below = _mm256_and_pd(
        below_tie(ulp, _mm256_set1_pd(b->max_ulp), xb,
                  _mm256_set1_epi64x((int64_t)(b->max_ulp_x ^ (uint64_t)INT64_MIN))),
        below_tie(ab, _mm256_set1_pd(b->max_abs), xb,
                  _mm256_set1_epi64x((int64_t)(b->max_abs_x ^ (uint64_t)INT64_MIN))));
    __m256i relz = _mm256_or_si256(
        _mm256_set1_epi64x(1.0 < b->max_rel ? -1 : 0),
        _mm256_and_si256(_mm256_set1_epi64x(1.0 == b->max_rel ? -1 : 0),
                         _mm256_cmpgt_epi64(xb, _mm256_set1_epi64x((int64_t)(
                                                    b->max_rel_x ^ (uint64_t)INT64_MIN)))));
    below = _mm256_and_pd(
        below, _mm256_or_pd(_mm256_cmp_pd(ulp,
                                          _mm256_mul_pd(_mm256_mul_pd(_mm256_set1_pd(b->max_rel),
                                                                      a),
                                                        relm),
                                          _CMP_LT_OQ),
                            _mm256_castsi256_pd(_mm256_and_si256(z, relz))));
    good = _mm256_and_si256(good, _mm256_castpd_si256(below));
    __m256i f0 = zero, f1 = zero, f2 = zero, f3 = zero;
    if (b->v != NULL) { /* gs_fused_judge, by the defect (measure.c's chain) */
        const struct gs_policy_values *v = b->v;
        __m256i zn = _mm256_andnot_si256(cr, z); /* a zero, not correctly rounded */
        __m256i rn0 = _mm256_cmpeq_epi64(rn, zero), rnn = _mm256_cmpeq_epi64(rn, bit23);
        __m256i dflush = _mm256_and_si256(zn, rnn);  /* RN(f(x)) normal */
        __m256i dftz = _mm256_andnot_si256(_mm256_or_si256(fa, _mm256_or_si256(rn0, rnn)), zn);
        __m256i dsz = _mm256_and_si256(zn, rn0);     /* RN(f(x)) a zero of the other sign */
        __m256i dulp = _mm256_andnot_si256(
            _mm256_or_si256(cr, _mm256_or_si256(dflush, _mm256_or_si256(dftz, dsz))), ones);
        __m256i tolon = _mm256_andnot_si256(dsz, _mm256_set1_epi64x(v->abs_tol > 0 ? -1 : 0));
        __m256d vtol = _mm256_set1_pd(v->abs_tol), vpmu = _mm256_set1_pd(v->max_ulp);
        __m256i tolpass = _mm256_and_si256(
            tolon, _mm256_castpd_si256(_mm256_cmp_pd(ab, vtol, _CMP_LE_OQ)));
        __m256i tolgo = _mm256_or_si256(_mm256_xor_si256(tolon, ones),
                                        _mm256_castpd_si256(_mm256_cmp_pd(ab, vtol, _CMP_GT_OQ)));
        __m256i failc = _mm256_castpd_si256(
            _mm256_or_pd(_mm256_cmp_pd(i2d(dv), _mm256_set1_pd(v->max_cr_distance), _CMP_GT_OQ),
                         _mm256_cmp_pd(ulp, vpmu, _CMP_GT_OQ)));
        failc = _mm256_or_si256(
            failc, _mm256_andnot_si256(fa, _mm256_set1_epi64x(v->faithful ? -1 : 0)));
        /* ulp_exceeded of a result below the normal numbers, outside a normal domain */
        __m256i dompass = _mm256_and_si256(
            _mm256_set1_epi64x(v->accuracy_domain == GS_DOMAIN_NORMAL ? -1 : 0),
            _mm256_cmpgt_epi64(bit23, rn));
        __m256i le = _mm256_castpd_si256(_mm256_cmp_pd(ulp, vpmu, _CMP_LE_OQ));
        __m256i pass = _mm256_or_si256(
            _mm256_or_si256(cr, tolpass),
            _mm256_and_si256(_mm256_and_si256(tolgo, dulp),
                             _mm256_or_si256(dompass, _mm256_andnot_si256(failc, le))));
        __m256i fail = _mm256_andnot_si256(
            _mm256_or_si256(cr, tolpass),
            _mm256_and_si256(tolgo,
                             _mm256_or_si256(_mm256_andnot_si256(dulp, ones),
                                             _mm256_andnot_si256(dompass, failc))));
        /* below the unkept bound of its kind */
        __m256d unk = _mm256_set1_pd(b->unkept);
        unk = _mm256_blendv_pd(unk, _mm256_set1_pd(b->unkept_flush), _mm256_castsi256_pd(dflush));
        unk = _mm256_blendv_pd(unk, _mm256_set1_pd(b->unkept_ftz), _mm256_castsi256_pd(dftz));
        unk = _mm256_blendv_pd(unk, _mm256_set1_pd(b->unkept_sz), _mm256_castsi256_pd(dsz));
        fail = _mm256_and_si256(fail, _mm256_castpd_si256(_mm256_cmp_pd(ulp, unk, _CMP_LT_OQ)));
        good = _mm256_and_si256(good, _mm256_or_si256(pass, fail));
        __m256i failed = _mm256_andnot_si256(pass, good);
        f0 = _mm256_and_si256(failed, dulp);
        f1 = _mm256_and_si256(failed, dflush);
        f2 = _mm256_and_si256(failed, dftz);
        f3 = _mm256_and_si256(failed, dsz);
    }
    qacc_add(c, bits4(good), bits4(cr), bits4(fa), dv, bits4(f0), bits4(f1), bits4(f2),
             bits4(f3));
    return good;
}

/* The quick lane (ulp_lane.h) four enclosures at a time: gs_fused_quick_core's operations
 * (the refusals on 64-bit integers, ms and es as gs_fused_common's, l16 = (ms - es) 2^16 and
 * h16 = (ms + es) 2^16, the cell test with floor(l16) taken by rounding toward -inf (exact;
 * the scalar truncation of a positive l16 < 2^40 is that floor), C, rz and rn on integers,
 * ys = y 2^(23 - E) (gs_fused_ys's value in either binade: a binary32 widened exactly), a,
 * ulp = |ys - a|, abs = ulp 2^k; a zero output's ys is 0, so ulp = a), then the tests
 * against the maxima
 * (the ulp and absolute errors below theirs or tied at a larger x, the relative one by
 * gs_fused_rel_below's product, a flush's by its tie with x too, x compared unsigned) and
 * gs_fused_judge's for a correctly rounded, ulp_exceeded or premature_flush measurement of a
 * normal result, each an ordered comparison (false on a NaN, as the scalar code's tests refuse). */
void gs_fused_quick_lane_n_avx2(const struct geluref_encl *e, const unsigned char *ok,
                                const uint64_t *x, const uint64_t *y, size_t k,
                                const struct gs_quick_bounds *b, unsigned char *take,
                                struct gs_quick_counts *cnt, const struct gs_quick_errs *er)
{
    size_t q = 0;
    const __m256i c7ff = _mm256_set1_epi64x(0x7ff), c1023 = _mm256_set1_epi64x(1023);
    const __m256i cm126 = _mm256_set1_epi64x(-126), c127 = _mm256_set1_epi64x(127);
    const __m256i zero = _mm256_setzero_si256();
    const __m256i one = _mm256_set1_epi64x(1);
    const __m256i mant = _mm256_set1_epi64x(0x000fffffffffffff);
    const __m256i exp23 = _mm256_set1_epi64x((int64_t)(23 + 1023) << 52);
    const __m256i c23 = _mm256_set1_epi64x(23), c126 = _mm256_set1_epi64x(126);
    const __m256i ymagm = _mm256_set1_epi64x(0x7fffffff), cinf = _mm256_set1_epi64x(0x7f800000);
    const __m256i lo32 = _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6);
    const __m256d p16 = _mm256_set1_pd(0x1p16), m16 = _mm256_set1_pd(0x1p-16);
    const __m256d p52 = _mm256_set1_pd(0x1p52);
    const __m256d relm = _mm256_set1_pd(1 - 0x1p-50);
    const __m256d absmask = _mm256_castsi256_pd(_mm256_set1_epi64x(0x7fffffffffffffff));
    const __m256d vmu = _mm256_set1_pd(b->max_ulp), vma = _mm256_set1_pd(b->max_abs);
    const __m256d vmr = _mm256_set1_pd(b->max_rel), vunk = _mm256_set1_pd(b->unkept);
    const int judge = b->v != NULL;
    const struct gs_policy_values *v = b->v;
    const __m256d vtol = _mm256_set1_pd(judge ? v->abs_tol : 0);
    const __m256d vmcr = _mm256_set1_pd(judge ? v->max_cr_distance : 0);
    const __m256d vpmu = _mm256_set1_pd(judge ? v->max_ulp : 0);
    const __m256d vunkz = _mm256_set1_pd(b->unkept_flush);
    /* x > max_rel_x unsigned, as signed on both with the top bit flipped */
    const __m256i bias = _mm256_set1_epi64x(INT64_MIN);
    const __m256i vmrx = _mm256_set1_epi64x((int64_t)(b->max_rel_x ^ (uint64_t)INT64_MIN));
    const __m256i vmux = _mm256_set1_epi64x((int64_t)(b->max_ulp_x ^ (uint64_t)INT64_MIN));
    const __m256i vmax = _mm256_set1_epi64x((int64_t)(b->max_abs_x ^ (uint64_t)INT64_MIN));
    const __m256i relz_all = _mm256_set1_epi64x(1.0 < b->max_rel ? -1 : 0);
    const __m256i relz_tie = _mm256_set1_epi64x(1.0 == b->max_rel ? -1 : 0);
    const unsigned tolon = judge && v->abs_tol > 0 ? 15u : 0; /* as four-bit masks */
    const unsigned faithreq = judge && v->faithful ? 15u : 0;
    struct qacc acc;
    memset(&acc, 0, sizeof acc);
    for (; q + 4 <= k; q += 4) {
        uint32_t okw;
        memcpy(&okw, ok + q, sizeof okw);
        if (okw == 0) { /* none of the four to decide (the caller's, or taken already) */
            memcpy(take + q, &okw, sizeof okw);
            if (er != NULL)
                _mm256_storeu_pd(er->ulp + q, _mm256_set1_pd(-1));
            continue;
        }
        __m256i okv = _mm256_cmpgt_epi64(_mm256_cvtepu8_epi64(_mm_cvtsi32_si128((int)okw)), zero);
        __m256i mb, ee, eb, sd;
        load4(&e[q], &mb, &ee, &eb, &sd);
        __m256i yv = _mm256_loadu_si256((const __m256i *)(const void *)&y[q]);
        /* the refusals, on integers */
        __m256i em = _mm256_sub_epi64(_mm256_and_si256(_mm256_srli_epi64(mb, 52), c7ff), c1023);
        __m256i E = _mm256_add_epi64(em, ee);
        __m256i sign = _mm256_slli_epi64(_mm256_srli_epi64(mb, 63), 31);
        __m256i ymag = _mm256_and_si256(yv, ymagm);
        __m256i sub = _mm256_cmpgt_epi64(cm126, E); /* a subnormal result: quick_sub4 */
        __m256i z = _mm256_cmpeq_epi64(ymag, zero); /* a zero: a flush */
        __m256i bad = _mm256_or_si256(refuse4(em, sd, yv, ymag, sign, z),
                                      _mm256_or_si256(sub, _mm256_cmpgt_epi64(E, c127)));
        /* ms, es and the cell: l16 = (ms - es) 2^16, h16 = (ms + es) 2^16 */
        __m256d ms = _mm256_castsi256_pd(_mm256_or_si256(_mm256_and_si256(mb, mant), exp23));
        __m256d es = _mm256_mul_pd(_mm256_castsi256_pd(eb), pow2v(_mm256_sub_epi64(c23, em)));
        __m256d c;
        __m256d gd = cell4(_mm256_mul_pd(_mm256_sub_pd(ms, es), p16),
                           _mm256_mul_pd(_mm256_add_pd(ms, es), p16), &c);
        __m256i good = _mm256_and_si256(_mm256_andnot_si256(bad, _mm256_castpd_si256(gd)), okv);
        /* C, rz, rn (C < 2^40 where good: its bits below 2^52's) */
        __m256i cl = _mm256_and_si256(_mm256_castpd_si256(_mm256_add_pd(c, p52)), mant);
        __m256i base = _mm256_slli_epi64(_mm256_add_epi64(E, c126), 23);
        __m256i rz = _mm256_add_epi64(base, _mm256_srli_epi64(cl, 16));
        __m256i rn = _mm256_add_epi64(rz, _mm256_and_si256(_mm256_srli_epi64(cl, 15), one));
        good = _mm256_and_si256(good, _mm256_cmpgt_epi64(cinf, rn));
        __m256i cr = _mm256_cmpeq_epi64(ymag, rn);
        __m256i fa = _mm256_or_si256(_mm256_cmpeq_epi64(ymag, rz),
                                     _mm256_cmpeq_epi64(ymag, _mm256_add_epi64(rz, one)));
        __m256i gt = _mm256_cmpgt_epi64(ymag, rn);
        __m256i dv = _mm256_blendv_epi8(_mm256_sub_epi64(rn, ymag), _mm256_sub_epi64(ymag, rn),
                                        gt);
        /* ys, a, the errors.  gs_fused_ys's value by its second branch alone: in f(x)'s binade
         * its first, ymag - base = 2^23 + the significand's bits, is y 2^(23-E) exactly too
         * (a binary32 widened, times a power of two within the double range: exact), so the
         * same double */
        __m128 yf = _mm256_castps256_ps128(
            _mm256_castsi256_ps(_mm256_permutevar8x32_epi32(ymag, lo32)));
        __m256d ys = _mm256_mul_pd(_mm256_cvtps_pd(yf), pow2v(_mm256_sub_epi64(c23, E)));
        __m256d a = _mm256_mul_pd(i2d(_mm256_or_si256(cl, one)), m16);
        __m256d ulp = _mm256_and_pd(_mm256_sub_pd(ys, a), absmask);
        __m256d ab = _mm256_mul_pd(ulp, pow2v(_mm256_sub_epi64(E, c23)));
        if (er != NULL) { /* good so far: decided, a normal result */
            _mm256_storeu_pd(er->ulp + q, _mm256_blendv_pd(_mm256_set1_pd(-1), ulp,
                                                           _mm256_castsi256_pd(good)));
            _mm256_storeu_pd(er->abs + q, ab);
            _mm256_storeu_pd(er->a + q, a);
        }
        __m256i xv = _mm256_loadu_si256((const __m256i *)(const void *)&x[q]);
        __m256i xb = _mm256_xor_si256(xv, bias);
        __m256d below = _mm256_and_pd(below_tie(ulp, vmu, xb, vmux), below_tie(ab, vma, xb, vmax));
        /* gs_fused_rel_below: ulp < M a (1 - 2^-50), no division; a flush's 1 below M or
         * equal to it at a larger x */
        __m256i relz = _mm256_or_si256(relz_all,
                                       _mm256_and_si256(relz_tie, _mm256_cmpgt_epi64(xb, vmrx)));
        __m256d relp =
            _mm256_cmp_pd(ulp, _mm256_mul_pd(_mm256_mul_pd(vmr, a), relm), _CMP_LT_OQ);
        /* a tie of the relative error itself (ulp / a, measure.c's division) at a larger x:
         * near 0 an output and V hold for many inputs, so their errors are all the same */
        __m256d tie = _mm256_andnot_pd(_mm256_or_pd(relp, _mm256_castsi256_pd(z)),
                                       _mm256_and_pd(below, _mm256_castsi256_pd(good)));
        if (_mm256_movemask_pd(tie) != 0) {
            __m256d eq = _mm256_cmp_pd(_mm256_div_pd(ulp, a), vmr, _CMP_EQ_OQ);
            relp = _mm256_or_pd(relp, _mm256_and_pd(_mm256_and_pd(tie, eq),
                                                    _mm256_castsi256_pd(
                                                        _mm256_cmpgt_epi64(xb, vmrx))));
        }
        below = _mm256_and_pd(below,
                              _mm256_or_pd(relp, _mm256_castsi256_pd(_mm256_and_si256(z, relz))));
        good = _mm256_and_si256(good, _mm256_castpd_si256(below));
        /* gs_fused_judge on the comparisons' four-bit masks (the integer units: the vector
         * units are the lane's bound), each lane's verdict by the same logic */
        unsigned gb = bits4(good), crb = bits4(cr), fab = bits4(fa);
        if (judge) {
            unsigned zb = bits4(z);
            unsigned tolpass =
                tolon & bits4(_mm256_castpd_si256(_mm256_cmp_pd(ab, vtol, _CMP_LE_OQ)));
            unsigned tolgo = (~tolon & 15u) |
                             bits4(_mm256_castpd_si256(_mm256_cmp_pd(ab, vtol, _CMP_GT_OQ)));
            unsigned failc =
                bits4(_mm256_castpd_si256(_mm256_cmp_pd(i2d(dv), vmcr, _CMP_GT_OQ))) |
                bits4(_mm256_castpd_si256(_mm256_cmp_pd(ulp, vpmu, _CMP_GT_OQ))) |
                (~fab & faithreq) | zb; /* a flush fails but within abs_tol */
            unsigned le = bits4(_mm256_castpd_si256(_mm256_cmp_pd(ulp, vpmu, _CMP_LE_OQ)));
            unsigned pass = crb | tolpass | (tolgo & ~failc & le);
            unsigned fail = ~(crb | tolpass) & tolgo & failc;
            fail &= bits4(_mm256_castpd_si256(_mm256_cmp_pd(
                ulp, _mm256_blendv_pd(vunk, vunkz, _mm256_castsi256_pd(z)), _CMP_LT_OQ)));
            gb &= pass | fail;
            unsigned failed = ~pass & gb;
            qacc_add(&acc, gb, crb, fab, dv, failed & ~zb, failed & zb, 0, 0);
        } else {
            qacc_add(&acc, gb, crb, fab, dv, 0, 0, 0, 0);
        }
        /* take[q + j], four bytes at once (the lanes of a subnormal result too) */
        if (_mm256_movemask_pd(_mm256_castsi256_pd(_mm256_and_si256(sub, okv))) != 0)
            gb |= bits4(quick_sub4(mb, ee, eb, sd, yv, ymag, sign, z, xv, E, em,
                                   _mm256_and_si256(sub, okv), b, &acc));
        uint32_t tw = spread4(gb);
        memcpy(take + q, &tw, sizeof tw);
    }
    cnt->n += acc.n;
    cnt->cr += acc.cr;
    cnt->faithful += acc.fa;
    cnt->failed += acc.fl;
    cnt->failed_flush += acc.flz;
    cnt->failed_ftz += acc.ftz;
    cnt->failed_sz += acc.sz;
    for (int i = 0; i < GS_HIST_N - 1; i++)
        cnt->hist[i] += acc.h[0][i] + acc.h[1][i] + acc.h[2][i] + acc.h[3][i];
    struct gs_quick_errs rest;
    if (er != NULL)
        rest = (struct gs_quick_errs){ er->ulp + q, er->abs + q, er->a + q };
    gs_fused_quick_lane_n_generic(e + q, ok + q, x + q, y + q, k - q, b, take + q, cnt,
                                  er != NULL ? &rest : NULL);
}

/* (int64_t)v for doubles v in [0, 2^52) (the span lane's RN ranges: below 2^25): truncated,
 * then added to 2^52, whose low bits it fills exactly */
static inline __m256i trunc64(__m256d v)
{
    const __m256d c52 = _mm256_set1_pd(0x1p52);
    __m256d t = _mm256_round_pd(v, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
    return _mm256_sub_epi64(_mm256_castpd_si256(_mm256_add_pd(t, c52)),
                            _mm256_castpd_si256(c52));
}

/* The larger and the smaller of signed 64-bit lanes (AVX2 has no such instruction) */
static inline __m256i max64(__m256i a, __m256i b)
{
    return _mm256_blendv_epi8(b, a, _mm256_cmpgt_epi64(a, b));
}
static inline __m256i min64(__m256i a, __m256i b)
{
    return _mm256_blendv_epi8(a, b, _mm256_cmpgt_epi64(a, b));
}

/* The policy's fail test of the span lane (gs_fused_span_take's) four at a time: the lanes
 * failed for certain (ulp_exceeded) below the unkept bound, from the distance d of y from
 * m_i, its bound uh, the span's wc and 2^k, whether y's least cr_distance exceeds
 * max_cr_distance (crfail) and whether it is faithful (fam) */
struct span_judge4 {
    __m256d pu, tol, unk; /* max_ulp, abs_tol, the unkept bound */
    __m256i toloff, unasked; /* all ones: no abs_tol; faithful not asked */
};
static inline __m256i span_fail4(__m256d d, __m256d uh, __m256d wc, __m256d p2k, __m256i crfail,
                                 __m256i fam, const struct span_judge4 *j)
{
    const __m256d lo50 = _mm256_set1_pd(1 - 0x1p-50), tiny = _mm256_set1_pd(0x1p-1074);
    const __m256i all = _mm256_set1_epi64x(-1);
    __m256d ul = _mm256_mul_pd(_mm256_sub_pd(d, wc), lo50);
    __m256d al = _mm256_sub_pd(_mm256_mul_pd(_mm256_mul_pd(ul, p2k), lo50), tiny);
    __m256i unfa = _mm256_andnot_si256(_mm256_or_si256(fam, j->unasked), all);
    __m256i why = _mm256_or_si256(_mm256_or_si256(crfail, unfa),
                                  _mm256_castpd_si256(_mm256_cmp_pd(ul, j->pu, _CMP_GT_OQ)));
    __m256i tolf = _mm256_or_si256(j->toloff,
                                   _mm256_castpd_si256(_mm256_cmp_pd(al, j->tol, _CMP_GT_OQ)));
    return _mm256_and_si256(_mm256_and_si256(tolf, why),
                            _mm256_castpd_si256(_mm256_cmp_pd(uh, j->unk, _CMP_LT_OQ)));
}

/* Minus the count of the bucket ends 2, 4, 16 and 256 that each distance d exceeds (a
 * comparison's true is -1) */
static inline __m256i span_ends4(__m256i d)
{
    const __m256i t2 = _mm256_set1_epi64x(2), t4 = _mm256_set1_epi64x(4);
    const __m256i t16 = _mm256_set1_epi64x(16), t256 = _mm256_set1_epi64x(256);
    return _mm256_add_epi64(
        _mm256_add_epi64(_mm256_cmpgt_epi64(d, t2), _mm256_cmpgt_epi64(d, t4)),
        _mm256_add_epi64(_mm256_cmpgt_epi64(d, t16), _mm256_cmpgt_epi64(d, t256)));
}

/* The span lane (ulp_lane.h) four outputs at a time, run by run (each run's span broadcast
 * once): gs_fused_span_take's tests on 64-bit integers (the sign or a zero, a non-finite
 * output, the distances to [rlo, rhi] and their buckets, counted as gs_hist_index counts
 * them) and its double operations in order (m_i = c0 + dc i for the run's input i, ys = y sc,
 * d = |ys - m_i|, uh = (d + wc)(1 + 2^-50), the three comparisons, the relative one's right
 * side max_rel (m_i - wc) (1 - 2^-48) as the scalar code computes it; for a zero the relative
 * error 1 against the maximum, x's tie compared with the top bits flipped: unsigned); a
 * run's last inputs short of four one at a time.  Each input's RN range [rlo, rhi] and rd
 * as gs_fused_span_rn computes them (trunc64 for its conversions); an input with rlo = rhi
 * passes to the distance test (y within [rlo, rhi] is y = r, dlo = 0), which takes dlo = 0,
 * dlo = 1 where rd is known, and dlo >= 2; faithful: dlo = 0, y = rd or rd + 1; judged
 * (b->v): the policy's tests (passed, or failed for certain below unkept: span_fail4),
 * max_cr_distance as gs_span_crmax's and gs_span_crfail's integers, and a batch of four clean
 * outputs (one RN, RD known) a shorter way (below).  The bucket: minus
 * the count of the ends 0, 1, 2, 4, 16, 256 that dlo exceeds.  Not judged, four outputs all
 * far from [rlo, rhi] (of f's sign, finite, not zero, more than 256 from it) are decided by
 * the error tests alone: every integer test passes them in bucket ">256", neither correctly
 * rounded nor faithful (ulp_lane_avx512.c says why); the same decisions. */
_Static_assert(GS_SPAN % 4 == 0 && GS_HIST_N == 8,
               "a run is whole batches of four; \">256\" is bucket 6");
void gs_fused_span_lane_n_avx2(const struct gs_fused_span *s, const unsigned char *ok,
                               const uint64_t *x, const uint64_t *y, size_t k,
                               const struct gs_quick_bounds *b, unsigned char *take,
                               struct gs_quick_counts *cnt)
{
    const __m256i zero = _mm256_setzero_si256(), one = _mm256_set1_epi64x(1);
    const __m256i ymagm = _mm256_set1_epi64x(0x7fffffff), cinf = _mm256_set1_epi64x(0x7f800000);
    const __m256i signm = _mm256_set1_epi64x((int64_t)0xffffffff80000000u);
    const __m256i nsign = _mm256_set1_epi64x((int64_t)0xffffffff7fffffffu);
    /* a zero's relative error 1 below the maximum: always, at x above max_rel_x, never */
    const __m256i tbit = _mm256_set1_epi64x(INT64_MIN);
    const __m256i vmrx = _mm256_xor_si256(_mm256_set1_epi64x((int64_t)b->max_rel_x), tbit);
    const int rel1_all = b->max_rel > 1.0, rel1_tie = b->max_rel == 1.0;
    const __m256i lo32 = _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6);
    const __m256d absmask = _mm256_castsi256_pd(_mm256_set1_epi64x(0x7fffffffffffffff));
    const __m256d c50 = _mm256_set1_pd(1 + 0x1p-50), c48 = _mm256_set1_pd(1 + 0x1p-48);
    const __m256d tiny = _mm256_set1_pd(0x1p-1074);
    const __m256d vmu = _mm256_set1_pd(b->max_ulp), vma = _mm256_set1_pd(b->max_abs);
    const __m256d vmr = _mm256_set1_pd(b->max_rel), c48m = _mm256_set1_pd(1 - 0x1p-48);
    const __m256d iota = _mm256_setr_pd(0, 1, 2, 3);
    const __m256d half = _mm256_set1_pd(0.5), c20 = _mm256_set1_pd(0x1p-20);
    const __m256i m2 = _mm256_set1_epi64x(-2);
    const __m256i m6 = _mm256_set1_epi64x(-6), all = _mm256_cmpeq_epi64(zero, zero);
    const int judged = b->v != NULL;
    const __m256i vcrmax =
        _mm256_set1_epi64x(judged ? gs_span_crmax(b->v->max_cr_distance) : 0);
    const __m256d vpu = _mm256_set1_pd(judged ? b->v->max_ulp : 0);
    const __m256i nofa = judged && b->v->faithful ? zero : all; /* faithful not asked */
    const __m256i vcrfail =
        _mm256_set1_epi64x(judged ? gs_span_crfail(b->v->max_cr_distance) : 0);
    const struct span_judge4 jp = { vpu, _mm256_set1_pd(judged ? b->v->abs_tol : 0),
                                    _mm256_set1_pd(b->unkept),
                                    judged && b->v->abs_tol > 0 ? zero : all, nofa };
    const __m256i notone = _mm256_set1_epi64x(~(int64_t)1);
    uint64_t n = 0, ntop = 0, ncr = 0, nfa = 0, nfl = 0, h[4][GS_HIST_N - 1];
    memset(h, 0, sizeof h);
    for (size_t j = 0; j * GS_SPAN < k; j++) {
        const struct gs_fused_span *sp = &s[j];
        size_t q = j * GS_SPAN, end = q + GS_SPAN < k ? q + GS_SPAN : k;
        if (!sp->ok || (judged && sp->sub)) { /* (a span below the normal range: unjudged) */
            memset(take + q, 0, end - q);
            continue;
        }
        if (!judged) {
            /* The run at once where every output asked about is far and within the maxima
             * (gs_fused_span_far_run, from their least and greatest bits; unsigned
             * comparisons as signed ones of the bits with the top one flipped, the outputs
             * not asked about set to all ones for the least and to 0 for the greatest): each
             * batch's takes stored as it goes (ok), kept where the run's test passes, else
             * written again below. */
            __m256i vlo = _mm256_set1_epi64x(INT64_MAX), vhi = tbit; /* (flipped) */
            uint64_t nok = 0, ylo = UINT64_MAX, yhi = 0;
            size_t r = q;
            for (; r + 4 <= end; r += 4) {
                uint32_t okw;
                memcpy(&okw, ok + r, sizeof okw);
                __m256i okv =
                    _mm256_cmpgt_epi64(_mm256_cvtepu8_epi64(_mm_cvtsi32_si128((int)okw)), zero);
                __m256i yv = _mm256_loadu_si256((const __m256i *)(const void *)&y[r]);
                __m256i a = _mm256_xor_si256(_mm256_or_si256(yv, _mm256_xor_si256(okv, all)),
                                             tbit);
                __m256i c = _mm256_xor_si256(_mm256_and_si256(yv, okv), tbit);
                vlo = _mm256_blendv_epi8(vlo, a, _mm256_cmpgt_epi64(vlo, a));
                vhi = _mm256_blendv_epi8(vhi, c, _mm256_cmpgt_epi64(c, vhi));
                unsigned ob = bits4(okv);
                uint32_t tw = spread4(ob);
                memcpy(take + r, &tw, sizeof tw);
                nok += (unsigned)__builtin_popcount(ob);
            }
            for (; r < end; r++) { /* fewer than four */
                take[r] = ok[r] != 0;
                nok += take[r];
                ylo = take[r] && y[r] < ylo ? y[r] : ylo;
                yhi = take[r] && y[r] > yhi ? y[r] : yhi;
            }
            uint64_t lv[4], hv[4];
            _mm256_storeu_si256((__m256i *)(void *)lv, vlo);
            _mm256_storeu_si256((__m256i *)(void *)hv, vhi);
            for (int i = 0; i < 4; i++) {
                ylo = (lv[i] ^ (uint64_t)INT64_MIN) < ylo ? lv[i] ^ (uint64_t)INT64_MIN : ylo;
                yhi = (hv[i] ^ (uint64_t)INT64_MIN) > yhi ? hv[i] ^ (uint64_t)INT64_MIN : yhi;
            }
            if (nok == 0 || gs_fused_span_far_run(sp, end - q, ylo, yhi, b)) {
                n += nok;
                ntop += nok; /* ">256" */
                continue;
            }
        }
        const __m256i vsign = _mm256_set1_epi64x((int64_t)sp->sign);
        const __m256i rlo = _mm256_set1_epi64x(sp->rlo), rhi = _mm256_set1_epi64x(sp->rhi);
        const __m256i vbase = _mm256_set1_epi64x(sp->base);
        const __m256i rflo = _mm256_set1_epi64x(sp->flo), rfhi = _mm256_set1_epi64x(sp->fhi);
        /* far: more than 256 from [rlo, rhi] (the AVX-512 lane's shorter path) */
        const __m256i flo = _mm256_set1_epi64x(sp->rlo - 256);
        const __m256i fhi = _mm256_set1_epi64x(sp->rhi + 256);
        const __m256d vsc = _mm256_set1_pd(sp->sc), vc0 = _mm256_set1_pd(sp->c0);
        const __m256d vdc = _mm256_set1_pd(sp->dc), vw = _mm256_set1_pd(sp->wc);
        const __m256d vp2k = _mm256_set1_pd(sp->p2k);
        const size_t q0 = q; /* the run's first input */
        /* zeros refused where RN(f(x)) may be one (below the normal range) */
        const __m256i zok = sp->sub && sp->rlo == 0 ? zero : all;
        for (; q + 4 <= end; q += 4) {
            uint32_t okw;
            memcpy(&okw, ok + q, sizeof okw);
            if (okw == 0) {
                memset(take + q, 0, 4);
                continue;
            }
            __m256i okv =
                _mm256_cmpgt_epi64(_mm256_cvtepu8_epi64(_mm_cvtsi32_si128((int)okw)), zero);
            __m256i yv = _mm256_loadu_si256((const __m256i *)(const void *)&y[q]);
            __m256i ymag = _mm256_and_si256(yv, ymagm);
            __m256d vi = _mm256_add_pd(iota, _mm256_set1_pd((double)(q - q0)));
            __m256d mi = _mm256_add_pd(vc0, _mm256_mul_pd(vdc, vi));
            __m256d vrel = _mm256_mul_pd(_mm256_mul_pd(vmr, _mm256_sub_pd(mi, vw)), c48m);
            __m128 yf = _mm256_castps256_ps128(
                _mm256_castsi256_ps(_mm256_permutevar8x32_epi32(ymag, lo32)));
            __m256d ys = _mm256_mul_pd(_mm256_cvtps_pd(yf), vsc);
            __m256d d = _mm256_and_pd(_mm256_sub_pd(ys, mi), absmask);
            __m256d uh = _mm256_mul_pd(_mm256_add_pd(d, vw), c50);
            __m256d ab = _mm256_add_pd(_mm256_mul_pd(_mm256_mul_pd(uh, vp2k), c50), tiny);
            __m256i rel = _mm256_castpd_si256(
                _mm256_cmp_pd(_mm256_mul_pd(uh, c48), vrel, _CMP_LT_OQ));
            __m256d e2 = _mm256_and_pd(_mm256_cmp_pd(uh, vmu, _CMP_LT_OQ),
                                       _mm256_cmp_pd(ab, vma, _CMP_LT_OQ));
            if (!judged) {
                /* every output it may take far (of f's sign, finite, not zero, more than 256
                 * from [rlo, rhi]): only the errors' tests decide, as in the AVX-512 lane */
                __m256i far = _mm256_and_si256(
                    _mm256_and_si256(_mm256_cmpeq_epi64(_mm256_and_si256(yv, signm), vsign),
                                     _mm256_cmpgt_epi64(ymag, zero)),
                    _mm256_and_si256(_mm256_cmpgt_epi64(cinf, ymag),
                                     _mm256_or_si256(_mm256_cmpgt_epi64(flo, ymag),
                                                     _mm256_cmpgt_epi64(ymag, fhi))));
                if (bits4(_mm256_andnot_si256(far, okv)) == 0) {
                    unsigned gb = bits4(_mm256_and_si256(
                        _mm256_and_si256(okv, rel), _mm256_castpd_si256(e2)));
                    uint32_t tw = spread4(gb);
                    memcpy(take + q, &tw, sizeof tw);
                    n += (unsigned)__builtin_popcount(gb);
                    ntop += (unsigned)__builtin_popcount(gb); /* ">256" */
                    continue;
                }
            }
            __m256i yz = _mm256_and_si256(_mm256_cmpeq_epi64(_mm256_and_si256(yv, nsign), zero),
                                          zok); /* +-0 (where taken) */
            __m256i good = _mm256_or_si256(
                _mm256_and_si256(_mm256_cmpeq_epi64(_mm256_and_si256(yv, signm), vsign),
                                 _mm256_cmpgt_epi64(ymag, zero)),
                yz);
            good = _mm256_and_si256(good, _mm256_cmpgt_epi64(cinf, ymag));
            /* each input's RN range and RD (gs_fused_span_rn: its own truncations, intersected
             * with the run's below) */
            __m256d ml = _mm256_sub_pd(mi, vw), mh = _mm256_add_pd(mi, vw);
            __m256i ta = _mm256_add_epi64(
                vbase, trunc64(_mm256_sub_pd(_mm256_add_pd(ml, half), c20)));
            __m256i tb = _mm256_add_epi64(
                vbase, trunc64(_mm256_add_pd(_mm256_add_pd(mh, half), c20)));
            __m256i ua = trunc64(_mm256_sub_pd(ml, c20)), ub = trunc64(_mm256_add_pd(mh, c20));
            if (judged) {
                /* Every output clean: its own range one RN(f(x)) and RD known (the run's
                 * range, which holds both, then changes neither: no intersection needed, as
                 * in the AVX-512 lane), of f's sign, finite, not zero.  Then dlo = dhi = D =
                 * |y - rn|, the bucket test passes, and the one of D = 1; faithful: y - rd in
                 * {0, 1}.  The same decisions and counts as below, in fewer operations (a
                 * batch one RN only after the intersection goes below: the same decisions). */
                __m256i clean = _mm256_and_si256(
                    _mm256_and_si256(_mm256_cmpeq_epi64(ta, tb), _mm256_cmpeq_epi64(ua, ub)),
                    _mm256_andnot_si256(yz, good));
                if (bits4(_mm256_andnot_si256(clean, okv)) == 0) {
                    __m256i vrd = _mm256_add_epi64(vbase, ua);
                    __m256i df = _mm256_sub_epi64(ymag, ta);
                    __m256i dd = max64(df, _mm256_sub_epi64(zero, df));
                    __m256i g0 = _mm256_cmpgt_epi64(dd, zero), g1 = _mm256_cmpgt_epi64(dd, one);
                    __m256i fam = _mm256_cmpeq_epi64(
                        _mm256_and_si256(_mm256_sub_epi64(ymag, vrd), notone), zero);
                    __m256i pass = _mm256_or_si256(
                        _mm256_andnot_si256(g0, all),
                        _mm256_and_si256(_mm256_andnot_si256(_mm256_cmpgt_epi64(dd, vcrmax),
                                                             _mm256_or_si256(fam, nofa)),
                                         _mm256_castpd_si256(
                                             _mm256_cmp_pd(uh, vpu, _CMP_LE_OQ))));
                    __m256i gd =
                        _mm256_and_si256(okv, _mm256_and_si256(_mm256_castpd_si256(e2), rel));
                    if (bits4(_mm256_andnot_si256(pass, gd)) != 0) /* (some lane to fail) */
                        gd = _mm256_and_si256(
                            gd, _mm256_or_si256(pass, span_fail4(d, uh, vw, vp2k,
                                                                 _mm256_cmpgt_epi64(dd, vcrfail),
                                                                 fam, &jp)));
                    unsigned gb = bits4(gd);
                    uint32_t tw = spread4(gb);
                    memcpy(take + q, &tw, sizeof tw);
                    if (gb == 0)
                        continue;
                    /* minus the bucket (the ends 0, 1, 2, 4, 16, 256 that D exceeds) */
                    __m256i hb = _mm256_add_epi64(span_ends4(dd), _mm256_add_epi64(g0, g1));
                    n += (unsigned)__builtin_popcount(gb);
                    nfl += (unsigned)__builtin_popcount(gb & ~bits4(pass));
                    ncr += (unsigned)__builtin_popcount(gb & ~bits4(g0));
                    nfa += (unsigned)__builtin_popcount(gb & bits4(fam));
                    int64_t hv[4];
                    _mm256_storeu_si256((__m256i *)(void *)hv, hb);
                    for (int i = 0; i < 4; i++)
                        h[i][-hv[i]] += gb >> i & 1;
                    continue;
                }
            }
            __m256i ilo = max64(rlo, ta), ihi = min64(rhi, tb);
            __m256i fa = max64(rflo, ua), fb = min64(rfhi, ub);
            __m256i one_r = _mm256_cmpeq_epi64(ilo, ihi); /* RN(f(x)) one */
            __m256i rdk = _mm256_cmpeq_epi64(fa, fb);
            __m256i d1ok = _mm256_and_si256(one_r, rdk); /* and RD(f(x)) too */
            __m256i vrd = _mm256_blendv_epi8(m2, _mm256_add_epi64(vbase, fa), rdk);
            __m256i vrd1 = _mm256_add_epi64(vrd, one);
            __m256i below = _mm256_cmpgt_epi64(ilo, ymag), above = _mm256_cmpgt_epi64(ymag, ihi);
            good = _mm256_and_si256(good, _mm256_or_si256(_mm256_or_si256(below, above), one_r));
            __m256i dlo = _mm256_blendv_epi8(_mm256_sub_epi64(ymag, ihi),
                                             _mm256_sub_epi64(ilo, ymag), below);
            __m256i dhi = _mm256_blendv_epi8(_mm256_sub_epi64(ymag, ilo),
                                             _mm256_sub_epi64(ihi, ymag), below);
            __m256i g0 = _mm256_cmpgt_epi64(dlo, zero), g1 = _mm256_cmpgt_epi64(dlo, one);
            __m256i fam = _mm256_or_si256(
                _mm256_andnot_si256(g0, all),
                _mm256_or_si256(_mm256_cmpeq_epi64(ymag, vrd), _mm256_cmpeq_epi64(ymag, vrd1)));
            good = _mm256_and_si256(
                good, _mm256_or_si256(_mm256_or_si256(g1, _mm256_andnot_si256(g0, one_r)),
                                      _mm256_and_si256(d1ok, _mm256_andnot_si256(g1, g0))));
            /* the buckets (gs_hist_index: the ends 0, 1, 2, 4, 16, 256 exceeded; dlo > 1
             * exceeds the first two) as minus the count of the ends 2, 4, 16 and 256 */
            __m256i hlo = span_ends4(dlo), hhi = span_ends4(dhi);
            good = _mm256_and_si256(good, _mm256_cmpeq_epi64(hlo, hhi));
            /* the errors (computed above) */
            if (_mm256_movemask_pd(_mm256_castsi256_pd(yz)) != 0) {
                __m256i xv = _mm256_loadu_si256((const __m256i *)(const void *)&x[q]);
                __m256i r1 = rel1_all   ? _mm256_cmpeq_epi64(zero, zero)
                             : rel1_tie ? _mm256_cmpgt_epi64(_mm256_xor_si256(xv, tbit), vmrx)
                                        : zero;
                rel = _mm256_blendv_epi8(rel, r1, yz);
            }
            good = _mm256_and_si256(_mm256_and_si256(good, okv),
                                    _mm256_and_si256(_mm256_castpd_si256(e2), rel));
            unsigned flb = 0; /* taken failed (ulp_exceeded) */
            if (judged) { /* passed, or failed below unkept */
                __m256i pass = _mm256_and_si256(_mm256_andnot_si256(_mm256_cmpgt_epi64(dhi, vcrmax),
                                                                    _mm256_or_si256(fam, nofa)),
                                                _mm256_castpd_si256(_mm256_cmp_pd(uh, vpu,
                                                                                  _CMP_LE_OQ)));
                pass = _mm256_or_si256(_mm256_andnot_si256(g0, all), pass);
                __m256i fail =
                    span_fail4(d, uh, vw, vp2k, _mm256_cmpgt_epi64(dlo, vcrfail), fam, &jp);
                good = _mm256_andnot_si256(yz, _mm256_and_si256(good, _mm256_or_si256(pass, fail)));
                flb = bits4(_mm256_andnot_si256(pass, good));
            }
            unsigned gb = bits4(good);
            uint32_t tw = spread4(gb);
            memcpy(take + q, &tw, sizeof tw);
            if (gb == 0)
                continue;
            /* the bucket ">256" (an approximation's tail) by its mask, the others lane by
             * lane */
            __m256i hb = _mm256_add_epi64(hlo, _mm256_add_epi64(g0, g1));
            unsigned top = gb & bits4(_mm256_cmpeq_epi64(hb, m6));
            n += (unsigned)__builtin_popcount(gb);
            nfl += (unsigned)__builtin_popcount(flb);
            ntop += (unsigned)__builtin_popcount(top);
            ncr += (unsigned)__builtin_popcount(gb & ~bits4(g0));
            nfa += (unsigned)__builtin_popcount(gb & bits4(fam));
            if (top == gb)
                continue;
            int64_t hv[4];
            _mm256_storeu_si256((__m256i *)(void *)hv, hb);
            for (int i = 0; i < 4; i++)
                h[i][-hv[i]] += (gb & ~top) >> i & 1;
        }
        for (; q < end; q++) /* fewer than four */
            gs_fused_span_take_count(sp, q - q0, ok[q], x[q], y[q], b, take + q, cnt);
    }
    cnt->n += n;
    cnt->cr += ncr;
    cnt->faithful += nfa;
    cnt->failed += nfl;
    cnt->hist[GS_HIST_N - 2] += ntop; /* ">256" */
    for (int i = 0; i < GS_HIST_N - 1; i++)
        cnt->hist[i] += h[0][i] + h[1][i] + h[2][i] + h[3][i];
}
