/* gs_fused_cr_lane four enclosures at a time (ulp_lane.h), compiled with -mavx2 (not -mfma:
 * no product may be fused into a sum, so that each double operation rounds as the scalar
 * build's does).  Each lane performs gs_fused_common's and gs_fused_cr_lane's operations on
 * the same values in the same order: the exponent and binade tests on 64-bit integers (the
 * scalar code's int64_t arithmetic, which never wraps on an enclosure's values, and its
 * uint64_t shifts, which wrap alike), es = err 2^(23 - em) with 2^(23 - em) built from its
 * bits as gs_fused_pow2 builds it, lo = ms - es and hi = ms + es, the bit tests on lo and hi,
 * the relative test max_rel (lo - 1) > 1/2 (1 + 2^-50) (an ordered comparison: false on a
 * NaN, as the scalar !(a > b) refuses), and rn compared with y.  A lane whose ok is 0 is
 * computed on whatever its enclosure holds and then masked: nothing branches on it. */
#include "ulp_lane.h"

#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* The four structures are loaded as rows of four 64-bit words: m, err, e, side (an int, the
 * upper half of its word padding, masked off). */
_Static_assert(sizeof(struct geluref_encl) == 32 && offsetof(struct geluref_encl, m) == 0 &&
                   offsetof(struct geluref_encl, err) == 8 &&
                   offsetof(struct geluref_encl, e) == 16 &&
                   offsetof(struct geluref_encl, side) == 24 && sizeof(int) == 4,
               "struct geluref_encl is not four 64-bit words");

void gs_fused_cr_lane_n_avx2(const struct geluref_encl *e, const unsigned char *ok,
                             const uint64_t *y, size_t k, int64_t emax, double max_rel,
                             unsigned char *take)
{
    size_t q = 0;
    const __m256i c7ff = _mm256_set1_epi64x(0x7ff), c1023 = _mm256_set1_epi64x(1023);
    const __m256i cm126 = _mm256_set1_epi64x(-126), cemax = _mm256_set1_epi64x(emax);
    const __m256i cm1023 = _mm256_set1_epi64x(-1023), c1024 = _mm256_set1_epi64x(1024);
    const __m256i clo32 = _mm256_set1_epi64x(0xffffffff), zero = _mm256_setzero_si256();
    const __m256i mant = _mm256_set1_epi64x(0x000fffffffffffff);
    const __m256i exp23 = _mm256_set1_epi64x((int64_t)(23 + 1023) << 52);
    const __m256i c1046 = _mm256_set1_epi64x(1023 + 23);
    const __m256i low28 = _mm256_set1_epi64x(((int64_t)1 << 28) - 1);
    const __m256i bit52 = _mm256_set1_epi64x((int64_t)1 << 52), one = _mm256_set1_epi64x(1);
    const __m256i c126 = _mm256_set1_epi64x(126), rnmax = _mm256_set1_epi64x(0x7f800000);
    const __m256d vmaxrel = _mm256_set1_pd(max_rel), vone = _mm256_set1_pd(1.0);
    const __m256d half = _mm256_set1_pd(0.5 * (1 + 0x1p-50));
    for (; q + 4 <= k; q += 4) {
        const __m256i *p = (const __m256i *)(const void *)&e[q];
        __m256i r0 = _mm256_loadu_si256(p), r1 = _mm256_loadu_si256(p + 1);
        __m256i r2 = _mm256_loadu_si256(p + 2), r3 = _mm256_loadu_si256(p + 3);
        __m256i t0 = _mm256_unpacklo_epi64(r0, r1); /* m0 m1 e0 e1 */
        __m256i t1 = _mm256_unpackhi_epi64(r0, r1); /* err0 err1 side0 side1 */
        __m256i t2 = _mm256_unpacklo_epi64(r2, r3);
        __m256i t3 = _mm256_unpackhi_epi64(r2, r3);
        __m256i mb = _mm256_permute2x128_si256(t0, t2, 0x20);
        __m256i ee = _mm256_permute2x128_si256(t0, t2, 0x31);
        __m256i eb = _mm256_permute2x128_si256(t1, t3, 0x20);
        __m256i sd = _mm256_permute2x128_si256(t1, t3, 0x31);
        /* gs_fused_common: em, E and the tests that return -1 */
        __m256i em = _mm256_sub_epi64(_mm256_and_si256(_mm256_srli_epi64(mb, 52), c7ff), c1023);
        __m256i E = _mm256_add_epi64(em, ee);
        __m256i bad = _mm256_or_si256(_mm256_cmpgt_epi64(cm126, E),
                                      _mm256_cmpgt_epi64(E, cemax));
        bad = _mm256_or_si256(bad, _mm256_cmpeq_epi64(em, cm1023));
        bad = _mm256_or_si256(bad, _mm256_cmpeq_epi64(em, c1024));
        bad = _mm256_or_si256(
            bad, _mm256_xor_si256(_mm256_cmpeq_epi64(_mm256_and_si256(sd, clo32), zero),
                                  _mm256_set1_epi64x(-1)));
        __m256d ms = _mm256_castsi256_pd(_mm256_or_si256(_mm256_and_si256(mb, mant), exp23));
        /* gs_fused_pow2(23 - em): (23 - em + 1023) << 52 */
        __m256i p2 = _mm256_slli_epi64(
            _mm256_add_epi64(_mm256_sub_epi64(_mm256_set1_epi64x(23), em), c1023), 52);
        __m256d es = _mm256_mul_pd(_mm256_castsi256_pd(eb), _mm256_castsi256_pd(p2));
        __m256d lo = _mm256_sub_pd(ms, es), hi = _mm256_add_pd(ms, es);
        __m256i lb = _mm256_castpd_si256(lo), hb = _mm256_castpd_si256(hi);
        /* the tests that return 0 */
        __m256i good = _mm256_cmpeq_epi64(_mm256_srli_epi64(lb, 52), c1046);
        good = _mm256_and_si256(good, _mm256_cmpeq_epi64(_mm256_srli_epi64(lb, 28),
                                                         _mm256_srli_epi64(hb, 28)));
        good = _mm256_andnot_si256(_mm256_cmpeq_epi64(_mm256_and_si256(lb, low28), zero), good);
        good = _mm256_andnot_si256(bad, good);
        /* gs_fused_cr_lane's relative test */
        __m256d rel = _mm256_cmp_pd(_mm256_mul_pd(vmaxrel, _mm256_sub_pd(lo, vone)), half,
                                    _CMP_GT_OQ);
        good = _mm256_and_si256(good, _mm256_castpd_si256(rel));
        /* ni, up and rn = ((E + 126) << 23) + ni + up */
        __m256i sig = _mm256_or_si256(_mm256_and_si256(lb, mant), bit52);
        __m256i ni = _mm256_srli_epi64(sig, 29);
        __m256i up = _mm256_and_si256(_mm256_srli_epi64(sig, 28), one);
        __m256i rn = _mm256_slli_epi64(_mm256_add_epi64(E, c126), 23);
        rn = _mm256_add_epi64(_mm256_add_epi64(rn, ni), up);
        /* rn < 0x7f800000 (rn >= 0 in every lane still good: E >= -126) */
        good = _mm256_and_si256(good, _mm256_cmpgt_epi64(rnmax, rn));
        __m256i want = _mm256_or_si256(_mm256_slli_epi64(_mm256_srli_epi64(mb, 63), 31), rn);
        __m256i yv = _mm256_loadu_si256((const __m256i *)(const void *)&y[q]);
        good = _mm256_and_si256(good, _mm256_cmpeq_epi64(yv, want));
        /* take[q + j] = (ok[q + j] != 0) & bit j of the mask, four bytes at once: each
         * byte of ok folded to its bit 0 (the shifts by 4, 2 and 1 bring only the byte's
         * own bits there), the mask's bits spread to bits 0, 8, 16 and 24 */
        uint32_t mask = (uint32_t)_mm256_movemask_pd(_mm256_castsi256_pd(good));
        uint32_t okw, tw;
        memcpy(&okw, ok + q, sizeof okw);
        okw |= okw >> 4;
        okw |= okw >> 2;
        okw |= okw >> 1;
        tw = (mask & 1) | (mask & 2) << 7 | (mask & 4) << 14 | (mask & 8) << 21;
        tw &= okw & 0x01010101u;
        memcpy(take + q, &tw, sizeof tw);
    }
    gs_fused_cr_lane_n_generic(e + q, ok + q, y + q, k - q, emax, max_rel, take + q);
}
