/* The bound lane, and below it the span and quick lanes, eight enclosures at a time
 * (ulp_lane.h), compiled with -mavx512f, -mavx512vl, -mavx512bw and -mavx512dq, and
 * -ffp-contract=off (no product may be fused into a sum, so that each double operation rounds
 * as the scalar build's does).  Each lane performs ulp_lane_avx2.c's operations (the bound
 * lane's bound_loop, so gs_fused_common's and gs_fused_bound_lane's) on the same values in the
 * same order; the comparisons give mask registers instead of vectors of all-ones lanes (the
 * same tests: an ordered comparison is false on a NaN either way), |t| is vpabsq instead of
 * (t ^ s) - s, and the counts are popcounts of masks.  Chosen where the CPU reports all four
 * (ulp_lane.c); the last inputs of a block, fewer than eight, go to the AVX2 version (the span
 * lane masks them off instead).  Eight lanes a batch, the constants in registers (32 of them),
 * the tests' and/andnot chains on masks: over erf_c99.f32's [-1e-8, 0] the sweep took 3.4% less
 * time with the bound lane so than with the AVX2 loop (docs/performance.md). */
#include "ulp_lane.h"

#include "ulp_fused.h"

#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* The enclosures e[0..7] as four vectors of their words: m, err (as bits), e, side (its word,
 * the upper half padding).  Two structures a 64-byte row; each pair of rows gives m and err,
 * e and side of four structures (vpermt2q), and the halves of two such are joined. */
static inline __attribute__((always_inline)) void
load8(const struct geluref_encl *e, __m512i *mb, __m512i *ee, __m512i *eb, __m512i *sd)
{
    const __m512i *p = (const __m512i *)(const void *)e;
    __m512i z0 = _mm512_loadu_si512(p), z1 = _mm512_loadu_si512(p + 1);
    __m512i z2 = _mm512_loadu_si512(p + 2), z3 = _mm512_loadu_si512(p + 3);
    const __m512i ia = _mm512_setr_epi64(0, 4, 8, 12, 1, 5, 9, 13); /* m, err of four */
    const __m512i ib = _mm512_setr_epi64(2, 6, 10, 14, 3, 7, 11, 15); /* e, side of four */
    __m512i a01 = _mm512_permutex2var_epi64(z0, ia, z1);
    __m512i b01 = _mm512_permutex2var_epi64(z0, ib, z1);
    __m512i a23 = _mm512_permutex2var_epi64(z2, ia, z3);
    __m512i b23 = _mm512_permutex2var_epi64(z2, ib, z3);
    *mb = _mm512_shuffle_i64x2(a01, a23, 0x44); /* the low halves: m0..m3, m4..m7 */
    *eb = _mm512_shuffle_i64x2(a01, a23, 0xee); /* the high halves: err */
    *ee = _mm512_shuffle_i64x2(b01, b23, 0x44);
    *sd = _mm512_shuffle_i64x2(b01, b23, 0xee);
}

/* 2^k for a normal double's exponent k, from its bits (gs_fused_pow2: (k + 1023) << 52). */
static inline __m512d pow2v8(__m512i k)
{
    return _mm512_castsi512_pd(
        _mm512_slli_epi64(_mm512_add_epi64(k, _mm512_set1_epi64(1023)), 52));
}

/* take[0..7] = the bits of m (0 or 1 each). */
static inline void take8(unsigned char *take, __mmask8 m)
{
    _mm_storel_epi64((__m128i *)(void *)take, _mm_maskz_mov_epi8(m, _mm_set1_epi8(1)));
}

/* ulp_lane_avx2.c's bound_loop eight at a time: nthr, judged and crf constants where it is
 * called; *nfa and *nfl the faithful and failed outputs taken, gt[j] those taken above
 * gs_bound_thr(j). */
static inline __attribute__((always_inline)) size_t
bound_loop8(const struct geluref_encl *e, const unsigned char *ok, const uint64_t *y, size_t k,
            const struct gs_bound_limits *lim, unsigned char *take, uint64_t *np,
            uint64_t *nfa, uint64_t *nfl, __m512i *gt, double *uho, const int nthr,
            const int judged, const int crf)
{
    size_t q = 0;
    const __m512i c7ff = _mm512_set1_epi64(0x7ff), c1023 = _mm512_set1_epi64(1023);
    const __m512i cm126 = _mm512_set1_epi64(-126), c127 = _mm512_set1_epi64(127);
    const __m512i cm1023 = _mm512_set1_epi64(-1023), c1024 = _mm512_set1_epi64(1024);
    const __m512i clo32 = _mm512_set1_epi64(0xffffffff), zero = _mm512_setzero_si512();
    const __m512i mant = _mm512_set1_epi64(0x000fffffffffffff);
    const __m512i exp23 = _mm512_set1_epi64((int64_t)(23 + 1023) << 52);
    const __m512i c1046 = _mm512_set1_epi64(1023 + 23);
    const __m512i low28 = _mm512_set1_epi64(((int64_t)1 << 28) - 1);
    const __m512i bit52 = _mm512_set1_epi64((int64_t)1 << 52), one = _mm512_set1_epi64(1);
    const __m512i c126 = _mm512_set1_epi64(126), rnmax = _mm512_set1_epi64(0x7f800000);
    const __m512i sbit = _mm512_set1_epi64(0x80000000), ymagm = _mm512_set1_epi64(0x7fffffff);
    const __m512i notone = _mm512_set1_epi64(~(int64_t)1), c23 = _mm512_set1_epi64(23);
    const __m512i vdmax = _mm512_set1_epi64(lim->dmax), vemax = _mm512_set1_epi64(lim->emax);
    const __mmask8 unfa = lim->faithful ? 0 : 0xff, toloff = lim->tol > 0 ? 0 : 0xff;
    const __m512d vmaxulp = _mm512_set1_pd(lim->max_ulp), vpolulp = _mm512_set1_pd(lim->pol_ulp);
    const __m512d vmaxrel = _mm512_set1_pd(lim->max_rel), vmaxabs = _mm512_set1_pd(lim->max_abs);
    const __m512d vpolcr = _mm512_set1_pd(lim->pol_cr), vtol = _mm512_set1_pd(lim->tol);
    const __m512d vunkept = _mm512_set1_pd(lim->unkept), m50lo = _mm512_set1_pd(1 - 0x1p-50);
    const __m512d p16 = _mm512_set1_pd(0x1p-16), tiny = _mm512_set1_pd(0x1p-1074);
    const __m512d m50 = _mm512_set1_pd(1 + 0x1p-50), m48 = _mm512_set1_pd(1 + 0x1p-48);
    const __m512d m48lo = _mm512_set1_pd(1 - 0x1p-48), vm1 = _mm512_set1_pd(-1);
    const __m512d vone = _mm512_set1_pd(1.0), halfm = _mm512_set1_pd(0.5 * (1 + 0x1p-50));
    uint64_t n = 0, fa_n = 0, fl_n = 0;
    for (; q + 8 <= k; q += 8) {
        __m512i mb, ee, eb, sd;
        load8(&e[q], &mb, &ee, &eb, &sd);
        /* gs_fused_common (emax 127): em, E and the tests that return -1 */
        __m512i em = _mm512_sub_epi64(_mm512_and_si512(_mm512_srli_epi64(mb, 52), c7ff), c1023);
        __m512i E = _mm512_add_epi64(em, ee);
        __mmask8 bad = _mm512_cmpgt_epi64_mask(cm126, E) | _mm512_cmpgt_epi64_mask(E, c127) |
                       _mm512_cmpeq_epi64_mask(em, cm1023) | _mm512_cmpeq_epi64_mask(em, c1024) |
                       _mm512_test_epi64_mask(sd, clo32);
        __m512d ms = _mm512_castsi512_pd(_mm512_or_si512(_mm512_and_si512(mb, mant), exp23));
        __m512d es = _mm512_mul_pd(_mm512_castsi512_pd(eb), pow2v8(_mm512_sub_epi64(c23, em)));
        __m512d lo = _mm512_sub_pd(ms, es), hi = _mm512_add_pd(ms, es);
        __m512i lb = _mm512_castpd_si512(lo), hb = _mm512_castpd_si512(hi);
        /* the tests that return 0 */
        __mmask8 good =
            _mm512_cmpeq_epi64_mask(_mm512_srli_epi64(lb, 52), c1046) &
            _mm512_cmpeq_epi64_mask(_mm512_srli_epi64(lb, 28), _mm512_srli_epi64(hb, 28)) &
            _mm512_test_epi64_mask(lb, low28) & (__mmask8)~bad;
        /* ni, up, rz = ((E + 126) << 23) + ni, rn = rz + up */
        __m512i sig = _mm512_or_si512(_mm512_and_si512(lb, mant), bit52);
        __m512i rz = _mm512_add_epi64(_mm512_slli_epi64(_mm512_add_epi64(E, c126), 23),
                                      _mm512_srli_epi64(sig, 29));
        __m512i rn = _mm512_add_epi64(rz, _mm512_and_si512(_mm512_srli_epi64(sig, 28), one));
        /* rn < 0x7f800000, y finite and of f(x)'s sign */
        __m512i yv = _mm512_loadu_si512((const void *)&y[q]);
        __m512i ymag = _mm512_and_si512(yv, ymagm);
        good &= _mm512_cmpgt_epi64_mask(rnmax, rn) &
                _mm512_cmpeq_epi64_mask(_mm512_and_si512(yv, sbit),
                                        _mm512_slli_epi64(_mm512_srli_epi64(mb, 63), 31)) &
                _mm512_cmpgt_epi64_mask(rnmax, ymag);
        /* d = |ymag - rn|, d <= dmax, faithful: ymag - rz in {0, 1} */
        __m512i d = _mm512_abs_epi64(_mm512_sub_epi64(ymag, rn));
        good &= _mm512_cmple_epi64_mask(d, vdmax);
        __mmask8 fa = _mm512_testn_epi64_mask(_mm512_sub_epi64(ymag, rz), notone);
        __mmask8 okm = (__mmask8)_mm_test_epi8_mask(
            _mm_loadl_epi64((const __m128i *)(const void *)(ok + q)), _mm_set1_epi8(-1));
        /* the correctly rounded case, where it is every lane to decide: those taken, the rest
         * skipped (no uh) */
        __mmask8 crc = 0, gok = good & okm;
        if (crf) {
            crc = _mm512_cmple_epi64_mask(E, vemax) & _mm512_cmpeq_epi64_mask(d, zero) &
                  _mm512_cmp_pd_mask(_mm512_mul_pd(vmaxrel, _mm512_sub_pd(lo, vone)), halfm,
                                     _CMP_GT_OQ);
            if ((gok & (__mmask8)~crc) == 0) {
                if (uho != NULL)
                    _mm512_storeu_pd(uho + q, vm1);
                take8(take + q, gok);
                unsigned c = (unsigned)__builtin_popcount(gok);
                n += c;
                fa_n += c; /* faithful all, d = 0: no bucket above 0 */
                continue;
            }
        }
        /* dd = |ys - ms|, uh = (dd + w)(1 + 2^-50), w = es + 2^-16, ys = y 2^(23 - E), and the
         * tests against the maxima */
        __m256 yf = _mm256_castsi256_ps(_mm512_cvtepi64_epi32(ymag));
        __m512d ys = _mm512_mul_pd(_mm512_cvtps_pd(yf), pow2v8(_mm512_sub_epi64(c23, E)));
        __m512d w = _mm512_add_pd(es, p16);
        __m512d dd = _mm512_abs_pd(_mm512_sub_pd(ys, ms));
        __m512d uh = _mm512_mul_pd(_mm512_add_pd(dd, w), m50);
        if (uho != NULL)
            _mm512_storeu_pd(uho + q, _mm512_mask_blend_pd(gok & (__mmask8)~crc, vm1, uh));
        __m512d p2k = pow2v8(_mm512_sub_epi64(E, c23));
        __m512d ab = _mm512_add_pd(_mm512_mul_pd(_mm512_mul_pd(uh, p2k), m50), tiny);
        __m512d rl = _mm512_mul_pd(_mm512_mul_pd(vmaxrel, _mm512_sub_pd(ms, w)), m48lo);
        __mmask8 genl = _mm512_cmp_pd_mask(uh, vmaxulp, _CMP_LT_OQ) &
                        _mm512_cmp_pd_mask(ab, vmaxabs, _CMP_LT_OQ) &
                        _mm512_cmp_pd_mask(_mm512_mul_pd(uh, m48), rl, _CMP_LT_OQ);
        /* the policy: passed, or failed below the unkept bound (not judged: passed) */
        __mmask8 fail = 0;
        if (judged) {
            __m512d ddv = _mm512_cvtepi64_pd(d); /* exact: d <= dmax < 2^22 where it counts */
            __mmask8 fok = fa | unfa; /* faithful, or not asked */
            __mmask8 pass = _mm512_cmpeq_epi64_mask(d, zero) |
                            (fok & _mm512_cmp_pd_mask(ddv, vpolcr, _CMP_LE_OQ) &
                             _mm512_cmp_pd_mask(uh, vpolulp, _CMP_LE_OQ));
            __m512d ul = _mm512_mul_pd(_mm512_sub_pd(dd, w), m50lo);
            __m512d ulabs = _mm512_sub_pd(_mm512_mul_pd(_mm512_mul_pd(ul, p2k), m50lo), tiny);
            __mmask8 notol = toloff | _mm512_cmp_pd_mask(ulabs, vtol, _CMP_GT_OQ);
            __mmask8 why = _mm512_cmp_pd_mask(ddv, vpolcr, _CMP_GT_OQ) |
                           _mm512_cmp_pd_mask(ul, vpolulp, _CMP_GT_OQ) | (__mmask8)~fok;
            fail = notol & why & _mm512_cmp_pd_mask(uh, vunkept, _CMP_LT_OQ);
            fail &= (__mmask8)~pass & (__mmask8)~crc & genl;
            genl &= pass | fail;
        }
        __mmask8 tv = okm & good & (crc | genl);
        take8(take + q, tv);
        n += (unsigned)__builtin_popcount(tv);
        fa_n += (unsigned)__builtin_popcount(fa & tv);
        fl_n += (unsigned)__builtin_popcount(fail & tv);
        for (int j = 0; j < nthr; j++)
            gt[j] = _mm512_mask_add_epi64(
                gt[j], _mm512_mask_cmpgt_epi64_mask(tv, d, _mm512_set1_epi64(gs_bound_thr(j))),
                gt[j], one);
    }
    *np = n;
    *nfa = fa_n;
    *nfl = fl_n;
    return q;
}

void gs_fused_bound_lane_n_avx512(const struct geluref_encl *e, const unsigned char *ok,
                                  const uint64_t *y, size_t k, const struct gs_bound_limits *lim,
                                  unsigned char *take, struct gs_quick_counts *cnt, double *uh)
{
    __m512i gt[6];
    for (int j = 0; j < 6; j++)
        gt[j] = _mm512_setzero_si512();
    int nthr = gs_bound_nthr(lim), judged = gs_bound_judged(lim);
#define BL(nt, j, c) bound_loop8(e, ok, y, k, lim, take, &n, &nfa, &nfl, gt, uh, nt, j, c)
#define BLN(j, c) (nthr <= 2 ? BL(2, j, c) : nthr == 3 ? BL(3, j, c) : nthr == 4 ? BL(4, j, c) \
                             : BL(6, j, c))
    uint64_t n = 0, nfa = 0, nfl = 0;
    size_t q;
    if (lim->cr_first)
        q = judged ? BLN(1, 1) : BLN(0, 1);
    else
        q = judged ? BLN(1, 0) : BLN(0, 0);
#undef BLN
#undef BL
    uint64_t g[6];
    for (int j = 0; j < 6; j++)
        g[j] = (uint64_t)_mm512_reduce_add_epi64(gt[j]);
    gs_bound_counts(cnt, n, nfa, nfl, g);
    if (q < k)
        gs_fused_bound_lane_n_avx2(e + q, ok + q, y + q, k - q, lim, take + q, cnt,
                                   uh != NULL ? uh + q : NULL);
}

/* The span lane eight at a time: ulp_lane_avx2.c's gs_fused_span_lane_n_avx2 (the tests of
 * gs_fused_span_take on the same values, m_i and the relative one's right side computed as the
 * scalar code computes them, a zero's relative error 1 against the maximum), a run of GS_SPAN
 * inputs in batches of eight and its last inputs short of eight under a mask (the loads and
 * stores of the lanes beyond it masked off).  The bucket test as masks: with dlo <= dhi,
 * gs_hist_index gives both one bucket where no end 2, 4, 16 or 256 lies in [dlo, dhi), so
 * where dhi exceeds each end that dlo exceeds; the counts of the ends the taken dlo exceed
 * give the buckets ("2": dlo = 2, then one a step; where rlo = rhi, "0" and "1" too, with
 * dlo = dhi).  Each input's RN range [rlo, rhi] and rd as gs_fused_span_rn computes them; an
 * input with rlo = rhi passes to the distance test (y within [rlo, rhi] is y = r, dlo = 0),
 * which then takes dlo = 0, dlo = 1 where rd is known, and dlo >= 2; faithful: dlo = 0, y =
 * rd or y = rd + 1; judged (b->v): the policy's tests as masks (span_fail: failed for
 * certain), max_cr_distance as gs_span_crmax's and gs_span_crfail's integers.  Judged, a
 * batch whose outputs are all correctly rounded for certain, or all clean (one RN, RD known),
 * goes a shorter way (below). */
_Static_assert(GS_HIST_N == 8, "\">256\" is bucket 6");

/* The policy's fail test of the span lane (gs_fused_span_take's), its constants broadcast */
struct span_judge {
    __m512i crfail;        /* gs_span_crfail(max_cr_distance) */
    __m512d pu, tol, unk;  /* max_ulp, abs_tol, the unkept bound */
    __mmask8 toloff, fask; /* no abs_tol; faithful asked */
};
static inline struct span_judge span_judge_of(const struct gs_quick_bounds *b)
{
    const struct gs_policy_values *v = b->v;
    struct span_judge j = { _mm512_set1_epi64(v != NULL ? gs_span_crfail(v->max_cr_distance) : 0),
                            _mm512_set1_pd(v != NULL ? v->max_ulp : 0),
                            _mm512_set1_pd(v != NULL ? v->abs_tol : 0),
                            _mm512_set1_pd(b->unkept),
                            (__mmask8)(v != NULL && v->abs_tol > 0 ? 0 : 0xff),
                            (__mmask8)(v != NULL && v->faithful ? 0xff : 0) };
    return j;
}

/* The lanes the policy fails for certain (ulp_exceeded) below the unkept bound, from the
 * distance d of y from m_i, its bound uh, the span's wc and 2^k, y's least cr_distance dlo
 * and whether it is faithful (fam) */
static inline __attribute__((always_inline)) __mmask8
span_fail(__m512d d, __m512d uh, __m512d wc, __m512d p2k, __m512i dlo, __mmask8 fam,
          const struct span_judge j)
{
    const __m512d lo50 = _mm512_set1_pd(1 - 0x1p-50), tiny = _mm512_set1_pd(0x1p-1074);
    __m512d ul = _mm512_mul_pd(_mm512_sub_pd(d, wc), lo50);
    __m512d al = _mm512_sub_pd(_mm512_mul_pd(_mm512_mul_pd(ul, p2k), lo50), tiny);
    return (__mmask8)((j.toloff | _mm512_cmp_pd_mask(al, j.tol, _CMP_GT_OQ)) &
                      (_mm512_cmpgt_epi64_mask(dlo, j.crfail) | (__mmask8)(~fam & j.fask) |
                       _mm512_cmp_pd_mask(ul, j.pu, _CMP_GT_OQ)) &
                      _mm512_cmp_pd_mask(uh, j.unk, _CMP_LT_OQ));
}

/* The byte counters of v (byte j of each lane) added into h[j] */
static inline void span_bytes(__m512i v, uint64_t *h)
{
    const __m512i ff = _mm512_set1_epi64(0xff);
    for (int j = 0; j < 8; j++)
        h[j] += (uint64_t)_mm512_reduce_add_epi64(
            _mm512_and_si512(_mm512_srli_epi64(v, (unsigned)(8 * j)), ff));
}
static inline __attribute__((always_inline)) void
span_loop8(const struct gs_fused_span *s, const unsigned char *ok, const uint64_t *x,
           const uint64_t *y, size_t k, const struct gs_quick_bounds *b, unsigned char *take,
           struct gs_quick_counts *cnt, const int judged)
{
    const __m512i zero = _mm512_setzero_si512(), one = _mm512_set1_epi64(1);
    const __m512i ymagm = _mm512_set1_epi64(0x7fffffff), cinf = _mm512_set1_epi64(0x7f800000);
    const __m512i signm = _mm512_set1_epi64((int64_t)0xffffffff80000000u);
    const __m512i nsign = _mm512_set1_epi64((int64_t)0xffffffff7fffffffu);
    /* a zero's relative error 1 below the maximum: always, at x above max_rel_x, never */
    const __m512i vmrx = _mm512_set1_epi64((int64_t)b->max_rel_x);
    const int rel1_all = b->max_rel > 1.0, rel1_tie = b->max_rel == 1.0;
    const __m512i t2 = _mm512_set1_epi64(2), t4 = _mm512_set1_epi64(4);
    const __m512i t16 = _mm512_set1_epi64(16), t256 = _mm512_set1_epi64(256);
    const __m512d c50 = _mm512_set1_pd(1 + 0x1p-50), c48 = _mm512_set1_pd(1 + 0x1p-48);
    const __m512d tiny = _mm512_set1_pd(0x1p-1074);
    const __m512d vmu = _mm512_set1_pd(b->max_ulp), vma = _mm512_set1_pd(b->max_abs);
    const __m512d vmr = _mm512_set1_pd(b->max_rel), c48m = _mm512_set1_pd(1 - 0x1p-48);
    const __m512d iota = _mm512_setr_pd(0, 1, 2, 3, 4, 5, 6, 7), v8 = _mm512_set1_pd(8);
    const __m512d half = _mm512_set1_pd(0.5), c20 = _mm512_set1_pd(0x1p-20);
    const __m128i ones8 = _mm_set1_epi8(1);
    const __m512i vcrmax = _mm512_set1_epi64(judged ? gs_span_crmax(b->v->max_cr_distance) : 0);
    const __m512d vpu = _mm512_set1_pd(judged ? b->v->max_ulp : 0);
    const __mmask8 nofa = judged && b->v->faithful ? 0 : 0xff; /* faithful not asked */
    const struct span_judge jp = span_judge_of(b);
    const __m512i notone = _mm512_set1_epi64(~(int64_t)1), c15 = _mm512_set1_epi64(15);
    const __m512i b40 = _mm512_set1_epi64((int64_t)1 << 40);
    const __m512i b48 = _mm512_set1_epi64((int64_t)1 << 48);
    /* one in the byte of D's bucket for D = 0 to 15 (0, 1, 2, 3-4, 5-16) */
    const __m512i blo = _mm512_setr_epi64(1, (int64_t)1 << 8, (int64_t)1 << 16, (int64_t)1 << 24,
                                          (int64_t)1 << 24, (int64_t)1 << 32, (int64_t)1 << 32,
                                          (int64_t)1 << 32);
    const __m512i bhi = _mm512_set1_epi64((int64_t)1 << 32);
    const __m512i fa56 = _mm512_set1_epi64((int64_t)1 << 56);
    /* the clean path's counts: a byte each (bucket j in byte j, faithful in byte 7), and
     * the failed ones */
    __m512i vbk = zero, vfl = zero;
    unsigned nbk = 0;   /* the batches added into vbk (below 256: no byte overflows) */
    uint64_t hb[8] = { 0 };
    __m512i vn = zero, vcr = zero, vfa = zero, vc1 = zero, vc2 = zero, vc4 = zero, vc16 = zero;
    __m512i vc256 = zero;
    uint64_t nfar = 0, ncrf = 0; /* taken far, correctly rounded for certain (below) */
    uint64_t nfl = 0; /* taken failed (the general path) */
    int gen = 0, cln = 0; /* the general path, the clean one, taken */
    for (size_t j = 0; j * GS_SPAN < k; j++) {
        const struct gs_fused_span *sp = &s[j];
        size_t q = j * GS_SPAN, end = q + GS_SPAN < k ? q + GS_SPAN : k;
        if (!sp->ok || (judged && sp->sub)) { /* (a span below the normal range: unjudged) */
            memset(take + q, 0, end - q);
            continue;
        }
        if (!judged) {
            /* The run at once where every output asked about is far and within the maxima
             * (gs_fused_span_far_run, from their least and greatest bits): each batch's
             * takes stored as it goes (ok), kept where the run's test passes, else written
             * again by the batches below. */
            __m512i vlo = _mm512_set1_epi64(-1), vhi = zero;
            uint64_t nok = 0;
            for (size_t r = q; r < end; r += 8) {
                __mmask8 lm = end - r >= 8 ? (__mmask8)0xff : (__mmask8)((1u << (end - r)) - 1);
                __mmask8 okm = _mm_test_epi8_mask(_mm_maskz_loadu_epi8(lm, ok + r),
                                                  _mm_set1_epi8(-1));
                __m512i yv = _mm512_maskz_loadu_epi64(okm, &y[r]);
                vlo = _mm512_mask_min_epu64(vlo, okm, vlo, yv);
                vhi = _mm512_mask_max_epu64(vhi, okm, vhi, yv);
                _mm_mask_storeu_epi8(take + r, lm, _mm_maskz_mov_epi8(okm, ones8));
                nok += (uint64_t)__builtin_popcount(okm);
            }
            if (nok == 0 || gs_fused_span_far_run(sp, end - q,
                                                  (uint64_t)_mm512_reduce_min_epu64(vlo),
                                                  (uint64_t)_mm512_reduce_max_epu64(vhi), b)) {
                nfar += nok;
                continue;
            }
        }
        const __m512i vsign = _mm512_set1_epi64((int64_t)sp->sign);
        const __m512i rlo = _mm512_set1_epi64(sp->rlo), rhi = _mm512_set1_epi64(sp->rhi);
        const __m512i vbase = _mm512_set1_epi64(sp->base);
        const __m512i rflo = _mm512_set1_epi64(sp->flo), rfhi = _mm512_set1_epi64(sp->fhi);
        /* far: outputs of f's sign, finite and not zero, more than 256 from [rlo, rhi] */
        const __m512i flo = _mm512_set1_epi64(sp->rlo - 256);
        const __m512i fhi = _mm512_set1_epi64(sp->rhi + 256);
        const __m512i smin = _mm512_set1_epi64((int64_t)(sp->sign | 1));
        const __m512i smax = _mm512_set1_epi64((int64_t)(sp->sign | 0x7f7fffff));
        const __m512d vsc = _mm512_set1_pd(sp->sc), vc0 = _mm512_set1_pd(sp->c0);
        const __m512d vdc = _mm512_set1_pd(sp->dc), vw = _mm512_set1_pd(sp->wc);
        const __m512d vp2k = _mm512_set1_pd(sp->p2k), vcrd = _mm512_set1_pd(sp->crd);
        /* zeros refused where RN(f(x)) may be one (below the normal range) */
        const __mmask8 zok = sp->sub && sp->rlo == 0 ? 0 : 0xff;
        __m512d vi = iota; /* the batch's places in the run (its inputs from 0) */
        int crm_try = 1;   /* (judged: the correctly rounded batch's test, below) */
        for (; q < end; q += 8, vi = _mm512_add_pd(vi, v8)) {
            __mmask8 lm = end - q >= 8 ? (__mmask8)0xff : (__mmask8)((1u << (end - q)) - 1);
            __mmask8 okm = _mm_test_epi8_mask(_mm_maskz_loadu_epi8(lm, ok + q),
                                              _mm_set1_epi8(-1));
            if (okm == 0) {
                _mm_mask_storeu_epi8(take + q, lm, _mm_setzero_si128());
                continue;
            }
            __m512i yv = _mm512_maskz_loadu_epi64(lm, &y[q]);
            __m512i ymag = _mm512_and_si512(yv, ymagm);
            __m512d mi = _mm512_add_pd(vc0, _mm512_mul_pd(vdc, vi));
            __m512d vrel = _mm512_mul_pd(_mm512_mul_pd(vmr, _mm512_sub_pd(mi, vw)), c48m);
            __m256 yf = _mm256_castsi256_ps(_mm512_cvtepi64_epi32(ymag));
            __m512d ys = _mm512_mul_pd(_mm512_cvtps_pd(yf), vsc);
            __m512d d = _mm512_abs_pd(_mm512_sub_pd(ys, mi));
            /* the errors (a zero's relative one below) */
            __m512d uh = _mm512_mul_pd(_mm512_add_pd(d, vw), c50);
            __m512d ab = _mm512_add_pd(_mm512_mul_pd(_mm512_mul_pd(uh, vp2k), c50), tiny);
            __mmask8 rel = _mm512_cmp_pd_mask(_mm512_mul_pd(uh, c48), vrel, _CMP_LT_OQ);
            __mmask8 e2 = _mm512_cmp_pd_mask(uh, vmu, _CMP_LT_OQ) &
                          _mm512_cmp_pd_mask(ab, vma, _CMP_LT_OQ);
            if (judged && crm_try) {
                /* every output it may take correctly rounded for certain (ulp_lane.h: of f's
                 * sign, |ys - m_i| below crd): only the errors' tests decide.  Tried from each
                 * run's start until a batch is not (a kernel seldom correctly rounded, whose
                 * batches are mostly clean, skips the test; the paths below decide the same) */
                __mmask8 crm = _mm512_cmpeq_epi64_mask(_mm512_and_si512(yv, signm), vsign) &
                               _mm512_cmp_pd_mask(d, vcrd, _CMP_LT_OQ);
                if ((okm & (__mmask8)~crm) == 0) {
                    __mmask8 good = okm & rel & e2;
                    _mm_mask_storeu_epi8(take + q, lm, _mm_maskz_mov_epi8(good, ones8));
                    ncrf += (uint64_t)__builtin_popcount(good);
                    continue;
                }
                crm_try = 0;
            } else if (!judged) {
                /* Where every output it may take is far (an approximation's tail against the
                 * exact function), the tests below come to: dlo and dhi above 256 (bucket
                 * ">256"), neither correctly rounded nor faithful (y is more than 256 from
                 * RN(f(x)), RD and RU; each input's own range lies within the run's), no
                 * zero; only the errors' tests decide, computed as below.  The same
                 * decisions, in fewer operations. */
                __mmask8 far = _mm512_cmpge_epu64_mask(yv, smin) &
                               _mm512_cmple_epu64_mask(yv, smax) &
                               (_mm512_cmplt_epi64_mask(ymag, flo) |
                                _mm512_cmpgt_epi64_mask(ymag, fhi));
                if ((okm & (__mmask8)~far) == 0) {
                    __mmask8 good = okm & rel & e2;
                    _mm_mask_storeu_epi8(take + q, lm, _mm_maskz_mov_epi8(good, ones8));
                    nfar += (uint64_t)__builtin_popcount(good);
                    continue;
                }
            }
            /* each input's RN range and RD (gs_fused_span_rn: truncations of values in [0,
             * 2^25); intersected with the run's below) */
            __m512d ml = _mm512_sub_pd(mi, vw), mh = _mm512_add_pd(mi, vw);
            __m512i ta = _mm512_cvttpd_epi64(_mm512_sub_pd(_mm512_add_pd(ml, half), c20));
            __m512i tb = _mm512_cvttpd_epi64(_mm512_add_pd(_mm512_add_pd(mh, half), c20));
            __m512i ua = _mm512_cvttpd_epi64(_mm512_sub_pd(ml, c20));
            __m512i ub = _mm512_cvttpd_epi64(_mm512_add_pd(mh, c20));
            /* the policy's verdict where dlo = dhi = D (below: one RN) */
            if (judged) {
                /* Every output it may take clean: its own range one RN(f(x)) and RD known
                 * (the run's range, which holds both, then changes neither: its
                 * intersection is not needed), of f's sign, finite, not zero (one unsigned
                 * interval of bits; a tail under a chord, mostly).  Then dlo = dhi = D = |y
                 * - rn|, the bucket test passes (one bucket), and so does the one of D = 1
                 * (RD known); faithful: y - rd in {0, 1} (RN is rd or rd + 1, so D = 0 is
                 * among them); the bucket from D - 1's binade.  The same decisions and
                 * counts as below, in fewer operations (a batch one RN only after the
                 * intersection goes below: the same decisions too). */
                __mmask8 clean = _mm512_cmpeq_epi64_mask(ta, tb) & _mm512_cmpeq_epi64_mask(ua, ub) &
                                 _mm512_cmpge_epu64_mask(yv, smin) &
                                 _mm512_cmple_epu64_mask(yv, smax);
                if ((okm & (__mmask8)~clean) == 0) {
                    __m512i dd = _mm512_abs_epi64(
                        _mm512_sub_epi64(ymag, _mm512_add_epi64(vbase, ta)));
                    __mmask8 z0 = _mm512_cmpeq_epi64_mask(dd, zero);
                    __mmask8 fam = _mm512_testn_epi64_mask(
                        _mm512_sub_epi64(ymag, _mm512_add_epi64(vbase, ua)), notone);
                    __mmask8 pass = z0 | (_mm512_cmple_epi64_mask(dd, vcrmax) & (fam | nofa) &
                                          _mm512_cmp_pd_mask(uh, vpu, _CMP_LE_OQ));
                    __mmask8 good = okm & rel & e2, nopass = good & (__mmask8)~pass;
                    if (nopass != 0) /* (where every lane passes, no failure to test) */
                        good &= pass | span_fail(d, uh, vw, vp2k, dd, fam, jp);
                    _mm_mask_storeu_epi8(take + q, lm, _mm_maskz_mov_epi8(good, ones8));
                    vfl = _mm512_mask_add_epi64(vfl, good & (__mmask8)~pass, vfl, one);
                    /* the bucket (gs_hist_index: 0, 1, 2, 3-4, 5-16, 17-256, above) of D: one
                     * in its byte from a table of D = 0 to 15 (D = 16 as 15), then 17-256 and
                     * above by two comparisons where some D exceeds 16; and one in byte 7
                     * where faithful; added to the counters */
                    __m512i inc = _mm512_permutex2var_epi64(blo, _mm512_min_epu64(dd, c15), bhi);
                    __mmask8 g16 = _mm512_cmpgt_epi64_mask(dd, t16);
                    if (g16 != 0) {
                        inc = _mm512_mask_mov_epi64(inc, g16, b40);
                        inc = _mm512_mask_mov_epi64(inc, _mm512_cmpgt_epi64_mask(dd, t256), b48);
                    }
                    inc = _mm512_mask_or_epi64(inc, fam, inc, fa56);
                    vbk = _mm512_mask_add_epi64(vbk, good, vbk, inc);
                    cln = 1;
                    if (++nbk == 255) {
                        span_bytes(vbk, hb);
                        vbk = zero;
                        nbk = 0;
                    }
                    continue;
                }
            }
            __m512i ilo = _mm512_max_epi64(rlo, _mm512_add_epi64(vbase, ta));
            __m512i ihi = _mm512_min_epi64(rhi, _mm512_add_epi64(vbase, tb));
            __m512i fa = _mm512_max_epi64(rflo, ua), fb = _mm512_min_epi64(rfhi, ub);
            const __mmask8 one_r = _mm512_cmpeq_epi64_mask(ilo, ihi); /* RN(f(x)) one */
            const __mmask8 rdk = _mm512_cmpeq_epi64_mask(fa, fb);
            const __mmask8 d1ok = one_r & rdk; /* and RD(f(x)) too */
            const __m512i vrd = _mm512_mask_blend_epi64(rdk, _mm512_set1_epi64(-2),
                                                        _mm512_add_epi64(vbase, fa));
            const __m512i vrd1 = _mm512_add_epi64(vrd, one);
            __mmask8 below = _mm512_cmpgt_epi64_mask(ilo, ymag);
            __mmask8 yz = _mm512_mask_cmpeq_epi64_mask(lm & zok, _mm512_and_si512(yv, nsign), zero);
            __mmask8 good = okm &
                            ((_mm512_cmpeq_epi64_mask(_mm512_and_si512(yv, signm), vsign) &
                              _mm512_cmpgt_epi64_mask(ymag, zero)) |
                             yz) &
                            _mm512_cmpgt_epi64_mask(cinf, ymag) &
                            (below | _mm512_cmpgt_epi64_mask(ymag, ihi) | one_r);
            __m512i dlo = _mm512_mask_blend_epi64(below, _mm512_sub_epi64(ymag, ihi),
                                                  _mm512_sub_epi64(ilo, ymag));
            __m512i dhi = _mm512_mask_blend_epi64(below, _mm512_sub_epi64(ymag, ilo),
                                                  _mm512_sub_epi64(ihi, ymag));
            __mmask8 g0 = _mm512_cmpgt_epi64_mask(dlo, zero);
            __mmask8 g1 = _mm512_cmpgt_epi64_mask(dlo, one);
            __mmask8 g2 = _mm512_cmpgt_epi64_mask(dlo, t2), g4 = _mm512_cmpgt_epi64_mask(dlo, t4);
            __mmask8 g16 = _mm512_cmpgt_epi64_mask(dlo, t16);
            __mmask8 g256 = _mm512_cmpgt_epi64_mask(dlo, t256);
            __mmask8 fam = (__mmask8)(~g0 | _mm512_cmpeq_epi64_mask(ymag, vrd) |
                                      _mm512_cmpeq_epi64_mask(ymag, vrd1));
            good &= (g1 | (one_r & (__mmask8)~g0) | (d1ok & g0 & (__mmask8)~g1)) &
                    (__mmask8)~(_mm512_cmpgt_epi64_mask(dhi, t2) & (__mmask8)~g2) &
                    (__mmask8)~(_mm512_cmpgt_epi64_mask(dhi, t4) & (__mmask8)~g4) &
                    (__mmask8)~(_mm512_cmpgt_epi64_mask(dhi, t16) & (__mmask8)~g16) &
                    (__mmask8)~(_mm512_cmpgt_epi64_mask(dhi, t256) & (__mmask8)~g256);
            /* the errors (computed above) */
            if (yz != 0) {
                __mmask8 r1 = rel1_all   ? (__mmask8)0xff
                              : rel1_tie ? _mm512_cmpgt_epu64_mask(
                                               _mm512_maskz_loadu_epi64(lm, &x[q]), vmrx)
                                         : (__mmask8)0;
                rel = (__mmask8)((rel & ~yz) | (r1 & yz));
            }
            good &= e2 & rel;
            if (judged) { /* passed, or failed (ulp_exceeded) below unkept */
                __mmask8 pass = (__mmask8)(~g0 | (_mm512_cmple_epi64_mask(dhi, vcrmax) &
                                                  (fam | nofa) &
                                                  _mm512_cmp_pd_mask(uh, vpu, _CMP_LE_OQ)));
                good &= (__mmask8)~yz & (pass | span_fail(d, uh, vw, vp2k, dlo, fam, jp));
                nfl += (uint64_t)__builtin_popcount(good & (__mmask8)~pass);
            }
            _mm_mask_storeu_epi8(take + q, lm, _mm_maskz_mov_epi8(good, ones8));
            /* the counts lane by lane (masked adds, summed once at the end) */
            gen = 1;
            vn = _mm512_mask_add_epi64(vn, good, vn, one);
            vcr = _mm512_mask_add_epi64(vcr, good & (__mmask8)~g0, vcr, one);
            vfa = _mm512_mask_add_epi64(vfa, good & fam, vfa, one);
            vc1 = _mm512_mask_add_epi64(vc1, good & g1, vc1, one);
            vc2 = _mm512_mask_add_epi64(vc2, good & g2, vc2, one);
            vc4 = _mm512_mask_add_epi64(vc4, good & g4, vc4, one);
            vc16 = _mm512_mask_add_epi64(vc16, good & g16, vc16, one);
            vc256 = _mm512_mask_add_epi64(vc256, good & g256, vc256, one);
        }
    }
    /* (the far outputs taken are above every end: in each count but cr's and faithful's; the
     * correctly rounded ones for certain below every end: in n, cr and faithful; the clean
     * path's in its buckets hb, and faithful and failed counted there) */
    if (nbk > 0)
        span_bytes(vbk, hb);
    uint64_t nclean = hb[0] + hb[1] + hb[2] + hb[3] + hb[4] + hb[5] + hb[6];
    /* (the vector counts summed only where a path added to them) */
    uint64_t g[8] = { 0 }; /* the general path's n, cr, faithful, c1, c2, c4, c16, c256 */
    if (gen) {
        const __m512i gv[8] = { vn, vcr, vfa, vc1, vc2, vc4, vc16, vc256 };
        for (int i = 0; i < 8; i++)
            g[i] = (uint64_t)_mm512_reduce_add_epi64(gv[i]);
    }
    if (cln)
        nfl += (uint64_t)_mm512_reduce_add_epi64(vfl);
    uint64_t n = g[0] + nfar + ncrf + nclean;
    uint64_t ncr = g[1] + ncrf + hb[0];
    uint64_t nfa = g[2] + ncrf + hb[7];
    uint64_t c256 = g[7] + nfar + hb[6];
    uint64_t c16 = g[6] + nfar + hb[5] + hb[6];
    uint64_t c4 = g[5] + nfar + hb[4] + hb[5] + hb[6];
    uint64_t c2 = g[4] + nfar + hb[3] + hb[4] + hb[5] + hb[6];
    uint64_t c1 = g[3] + nfar + nclean - hb[0] - hb[1];
    cnt->n += n;
    cnt->cr += ncr;
    cnt->faithful += nfa;
    cnt->failed += nfl;
    cnt->hist[0] += ncr;
    cnt->hist[1] += n - ncr - c1;
    cnt->hist[2] += c1 - c2;
    cnt->hist[3] += c2 - c4;
    cnt->hist[4] += c4 - c16;
    cnt->hist[5] += c16 - c256;
    cnt->hist[6] += c256; /* ">256" */
}

/* (judged or not as a constant of each loop: the kernel's own measurement, and the exact
 * function's) */
void gs_fused_span_lane_n_avx512(const struct gs_fused_span *s, const unsigned char *ok,
                                 const uint64_t *x, const uint64_t *y, size_t k,
                                 const struct gs_quick_bounds *b, unsigned char *take,
                                 struct gs_quick_counts *cnt)
{
    if (b->v != NULL)
        span_loop8(s, ok, x, y, k, b, take, cnt, 1);
    else
        span_loop8(s, ok, x, y, k, b, take, cnt, 0);
}

/* ulp_lane_avx2.c's cell4 eight at a time: the enclosure [l, h] of f(x) in units of V's 40-bit
 * cells inside the binade, 2^39 <= l and h < 2^40, and inside one open cell (C, C + 1), C =
 * floor(l) (*c; rounding toward -inf, exact): the mask of the lanes where it is. */
static inline __mmask8 cell8(__m512d l, __m512d h, __m512d *c)
{
    *c = _mm512_roundscale_pd(l, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
    return _mm512_cmp_pd_mask(l, _mm512_set1_pd(0x1p39), _CMP_GE_OQ) &
           _mm512_cmp_pd_mask(h, _mm512_set1_pd(0x1p40), _CMP_LT_OQ) &
           _mm512_cmp_pd_mask(l, *c, _CMP_GT_OQ) &
           _mm512_cmp_pd_mask(h, _mm512_add_pd(*c, _mm512_set1_pd(1.0)), _CMP_LT_OQ);
}

/* The quick lane's counts eight at a time: taken, correctly rounded, faithful, failed by kind
 * (ulp_exceeded, premature_flush, ftz, signed_zero), and g[j] those whose cr_distance exceeds
 * gs_bound_thr(j) (the buckets, as the bound lane counts them). */
struct qacc8 {
    uint64_t n, cr, fa, fl, flz, ftz, sz, g[6];
};

/* The counts of the lanes g, of which cr and fa are correctly rounded and faithful, f0 to f3
 * failed by kind (within g), dv their cr_distances. */
static inline __attribute__((always_inline)) void
qacc8_add(struct qacc8 *c, __mmask8 g, __mmask8 cr, __mmask8 fa, __m512i dv, __mmask8 f0,
          __mmask8 f1, __mmask8 f2, __mmask8 f3)
{
    c->n += (unsigned)__builtin_popcount(g);
    c->cr += (unsigned)__builtin_popcount(g & cr);
    c->fa += (unsigned)__builtin_popcount(g & fa);
    c->fl += (unsigned)__builtin_popcount(f0);
    c->flz += (unsigned)__builtin_popcount(f1);
    c->ftz += (unsigned)__builtin_popcount(f2);
    c->sz += (unsigned)__builtin_popcount(f3);
    for (int j = 0; j < 6; j++)
        c->g[j] += (unsigned)__builtin_popcount(
            _mm512_mask_cmpgt_epi64_mask(g, dv, _mm512_set1_epi64(gs_bound_thr(j))));
}

/* ulp_lane_avx2.c's quick_sub4 eight at a time (a subnormal result, E < -126, in the lanes
 * `lanes`): the same refusals, ms, es, the cells lc = lo 2^(-E-110) and hc = hi 2^(-E-110)
 * with floor(lc) by rounding toward -inf, rz = C >> s and rn = rz + bit s - 1 of C (variable
 * shifts: 0 for a count of 64 or more, as there), ys = y 2^149, a = (C | 1) 2^(E+110), the
 * errors, the tests against the maxima, and where judged gs_fused_judge's by the defect of
 * gs_fused_quick_sub's chain (premature_flush, ftz, signed_zero, ulp_exceeded; abs_tol for all
 * but signed_zero; an ulp_exceeded passes where the accuracy domain is the normal numbers and
 * RN(f(x)) is not one).  Returns the lanes taken; their counts are added to c. */
static inline __attribute__((always_inline)) __mmask8
quick_sub8(__m512i mb, __m512i ee, __m512i eb, __m512i yv, __m512i ymag, __m512i sign,
           __mmask8 z, __m512i xv, __m512i E, __mmask8 bad0, __mmask8 lanes,
           const struct gs_quick_bounds *b, struct qacc8 *c)
{
    const __m512i one = _mm512_set1_epi64(1), mant = _mm512_set1_epi64(0x000fffffffffffff);
    const __m512i c149 = _mm512_set1_epi64(149), c110 = _mm512_set1_epi64(110);
    const __m512i p1000 = _mm512_set1_epi64(1000), m1000 = _mm512_set1_epi64(-1000);
    const __m512i cmin = _mm512_set1_epi64(GS_FUSED_SUB_EMIN), zero = _mm512_setzero_si512();
    const __m512i bit23 = _mm512_set1_epi64(0x00800000);
    const __m512d p52 = _mm512_set1_pd(0x1p52);
    const __m512d p149 = _mm512_set1_pd(0x1p149), m149 = _mm512_set1_pd(0x1p-149);
    const __m512d relm = _mm512_set1_pd(1 - 0x1p-50);
    __m512i sh = _mm512_add_epi64(ee, c149);
    __mmask8 bad = bad0 | _mm512_cmpgt_epi64_mask(cmin, E) |
                   _mm512_cmpgt_epi64_mask(m1000, sh) | _mm512_cmpgt_epi64_mask(sh, p1000);
    /* ms, es, the cells */
    __m512d sc = pow2v8(sh);
    __m512d ms = _mm512_mul_pd(_mm512_abs_pd(_mm512_castsi512_pd(mb)), sc);
    __m512d es = _mm512_mul_pd(_mm512_castsi512_pd(eb), sc);
    __m512i ns = _mm512_sub_epi64(_mm512_sub_epi64(zero, E), c110); /* s = -E - 110 */
    __m512d s2 = pow2v8(ns);
    __m512d cf;
    __mmask8 good = lanes & (__mmask8)~bad &
                    cell8(_mm512_mul_pd(_mm512_sub_pd(ms, es), s2),
                          _mm512_mul_pd(_mm512_add_pd(ms, es), s2), &cf);
    /* C, rz, rn */
    __m512i cl = _mm512_and_si512(_mm512_castpd_si512(_mm512_add_pd(cf, p52)), mant);
    __m512i rz = _mm512_srlv_epi64(cl, ns);
    __m512i rn = _mm512_add_epi64(
        rz, _mm512_and_si512(_mm512_srlv_epi64(cl, _mm512_sub_epi64(ns, one)), one));
    __mmask8 cr = _mm512_cmpeq_epi64_mask(yv, _mm512_or_si512(sign, rn)); /* y = RN(f(x)) */
    __mmask8 fa = _mm512_cmpeq_epi64_mask(ymag, rz) |
                  _mm512_cmpeq_epi64_mask(ymag, _mm512_add_epi64(rz, one));
    __m512i dv = _mm512_abs_epi64(_mm512_sub_epi64(ymag, rn));
    /* ys, a, the errors */
    __m256 yf = _mm256_castsi256_ps(_mm512_cvtepi64_epi32(ymag));
    __m512d ys = _mm512_mul_pd(_mm512_cvtps_pd(yf), p149);
    __m512d a = _mm512_mul_pd(_mm512_cvtepi64_pd(_mm512_or_si512(cl, one)),
                              pow2v8(_mm512_add_epi64(E, c110)));
    __m512d ulp = _mm512_abs_pd(_mm512_sub_pd(ys, a));
    __m512d ab = _mm512_mul_pd(ulp, m149);
    __m512d vmu = _mm512_set1_pd(b->max_ulp), vma = _mm512_set1_pd(b->max_abs);
    __mmask8 below =
        (_mm512_cmp_pd_mask(ulp, vmu, _CMP_LT_OQ) |
         (_mm512_cmp_pd_mask(ulp, vmu, _CMP_EQ_OQ) &
          _mm512_cmpgt_epu64_mask(xv, _mm512_set1_epi64((int64_t)b->max_ulp_x)))) &
        (_mm512_cmp_pd_mask(ab, vma, _CMP_LT_OQ) |
         (_mm512_cmp_pd_mask(ab, vma, _CMP_EQ_OQ) &
          _mm512_cmpgt_epu64_mask(xv, _mm512_set1_epi64((int64_t)b->max_abs_x))));
    __mmask8 relz = (1.0 < b->max_rel ? 0xff : 0) |
                    ((1.0 == b->max_rel ? 0xff : 0) &
                     _mm512_cmpgt_epu64_mask(xv, _mm512_set1_epi64((int64_t)b->max_rel_x)));
    below &= _mm512_cmp_pd_mask(ulp, _mm512_mul_pd(_mm512_mul_pd(_mm512_set1_pd(b->max_rel), a),
                                                   relm),
                                _CMP_LT_OQ) |
             (z & relz);
    good &= below;
    __mmask8 f0 = 0, f1 = 0, f2 = 0, f3 = 0;
    if (b->v != NULL) { /* gs_fused_judge, by the defect (measure.c's chain) */
        const struct gs_policy_values *v = b->v;
        __mmask8 zn = z & (__mmask8)~cr; /* a zero, not correctly rounded */
        __mmask8 rn0 = _mm512_cmpeq_epi64_mask(rn, zero), rnn = _mm512_cmpeq_epi64_mask(rn, bit23);
        __mmask8 dflush = zn & rnn; /* RN(f(x)) normal */
        __mmask8 dftz = zn & (__mmask8)~(fa | rn0 | rnn);
        __mmask8 dsz = zn & rn0; /* RN(f(x)) a zero of the other sign */
        __mmask8 dulp = (__mmask8)~(cr | dflush | dftz | dsz);
        __mmask8 tolon = (__mmask8)~dsz & (v->abs_tol > 0 ? 0xff : 0);
        __m512d vtol = _mm512_set1_pd(v->abs_tol), vpmu = _mm512_set1_pd(v->max_ulp);
        __mmask8 tolpass = tolon & _mm512_cmp_pd_mask(ab, vtol, _CMP_LE_OQ);
        __mmask8 tolgo = (__mmask8)~tolon | _mm512_cmp_pd_mask(ab, vtol, _CMP_GT_OQ);
        __mmask8 failc = _mm512_cmp_pd_mask(_mm512_cvtepi64_pd(dv),
                                            _mm512_set1_pd(v->max_cr_distance), _CMP_GT_OQ) |
                         _mm512_cmp_pd_mask(ulp, vpmu, _CMP_GT_OQ) |
                         ((__mmask8)~fa & (v->faithful ? 0xff : 0));
        /* ulp_exceeded of a result below the normal numbers, outside a normal domain */
        __mmask8 dompass = (v->accuracy_domain == GS_DOMAIN_NORMAL ? 0xff : 0) &
                           _mm512_cmpgt_epi64_mask(bit23, rn);
        __mmask8 le = _mm512_cmp_pd_mask(ulp, vpmu, _CMP_LE_OQ);
        __mmask8 pass = cr | tolpass | (tolgo & dulp & (dompass | ((__mmask8)~failc & le)));
        __mmask8 fail = (__mmask8)~(cr | tolpass) & tolgo &
                        ((__mmask8)~dulp | ((__mmask8)~dompass & failc));
        /* below the unkept bound of its kind */
        __m512d unk = _mm512_set1_pd(b->unkept);
        unk = _mm512_mask_blend_pd(dflush, unk, _mm512_set1_pd(b->unkept_flush));
        unk = _mm512_mask_blend_pd(dftz, unk, _mm512_set1_pd(b->unkept_ftz));
        unk = _mm512_mask_blend_pd(dsz, unk, _mm512_set1_pd(b->unkept_sz));
        fail &= _mm512_cmp_pd_mask(ulp, unk, _CMP_LT_OQ);
        good &= pass | fail;
        __mmask8 failed = (__mmask8)~pass & good;
        f0 = failed & dulp;
        f1 = failed & dflush;
        f2 = failed & dftz;
        f3 = failed & dsz;
    }
    qacc8_add(c, good, cr, fa, dv, f0, f1, f2, f3);
    return good;
}

/* The quick lane eight at a time: ulp_lane_avx2.c's gs_fused_quick_lane_n_avx2 for a normal
 * result (its refusals, ms and es, the cell test with floor(l16) by rounding toward -inf, C,
 * rz and rn, ys, a, the errors, the tests against the maxima with their ties at a larger x,
 * now compared unsigned, and gs_fused_judge's logic on the masks), and its subnormal case's
 * (quick_sub8), the buckets as the bound lane counts them (the ends each taken output's
 * cr_distance exceeds).  The last inputs of a block, fewer than eight, go to the AVX2 version:
 * the same decisions either way. */
void gs_fused_quick_lane_n_avx512(const struct geluref_encl *e, const unsigned char *ok,
                                  const uint64_t *x, const uint64_t *y, size_t k,
                                  const struct gs_quick_bounds *b, unsigned char *take,
                                  struct gs_quick_counts *cnt, const struct gs_quick_errs *er)
{
    size_t q = 0;
    const __m512i c7ff = _mm512_set1_epi64(0x7ff), c1023 = _mm512_set1_epi64(1023);
    const __m512i cm126 = _mm512_set1_epi64(-126), c127 = _mm512_set1_epi64(127);
    const __m512i cm1023 = _mm512_set1_epi64(-1023), c1024 = _mm512_set1_epi64(1024);
    const __m512i zero = _mm512_setzero_si512(), one = _mm512_set1_epi64(1);
    const __m512i clo32 = _mm512_set1_epi64(0xffffffff), sbit = _mm512_set1_epi64(0x80000000);
    const __m512i maxfin = _mm512_set1_epi64(0x7f7fffff);
    const __m512i mant = _mm512_set1_epi64(0x000fffffffffffff);
    const __m512i exp23 = _mm512_set1_epi64((int64_t)(23 + 1023) << 52);
    const __m512i c23 = _mm512_set1_epi64(23), c126 = _mm512_set1_epi64(126);
    const __m512i ymagm = _mm512_set1_epi64(0x7fffffff), cinf = _mm512_set1_epi64(0x7f800000);
    const __m512d p16 = _mm512_set1_pd(0x1p16), m16 = _mm512_set1_pd(0x1p-16);
    const __m512d p52 = _mm512_set1_pd(0x1p52);
    const __m512d relm = _mm512_set1_pd(1 - 0x1p-50), vm1 = _mm512_set1_pd(-1);
    const __m512d vmu = _mm512_set1_pd(b->max_ulp), vma = _mm512_set1_pd(b->max_abs);
    const __m512d vmr = _mm512_set1_pd(b->max_rel), vunk = _mm512_set1_pd(b->unkept);
    const int judge = b->v != NULL;
    const struct gs_policy_values *v = b->v;
    const __m512d vtol = _mm512_set1_pd(judge ? v->abs_tol : 0);
    const __m512d vmcr = _mm512_set1_pd(judge ? v->max_cr_distance : 0);
    const __m512d vpmu = _mm512_set1_pd(judge ? v->max_ulp : 0);
    const __m512d vunkz = _mm512_set1_pd(b->unkept_flush);
    const __m512i vmrx = _mm512_set1_epi64((int64_t)b->max_rel_x);
    const __m512i vmux = _mm512_set1_epi64((int64_t)b->max_ulp_x);
    const __m512i vmax = _mm512_set1_epi64((int64_t)b->max_abs_x);
    const __mmask8 relz_all = 1.0 < b->max_rel ? 0xff : 0, relz_tie = 1.0 == b->max_rel ? 0xff : 0;
    const __mmask8 tolon = judge && v->abs_tol > 0 ? 0xff : 0;
    const __mmask8 faithreq = judge && v->faithful ? 0xff : 0;
    struct qacc8 acc;
    memset(&acc, 0, sizeof acc);
    for (; q + 8 <= k; q += 8) {
        __mmask8 okm = (__mmask8)_mm_test_epi8_mask(
            _mm_loadl_epi64((const __m128i *)(const void *)(ok + q)), _mm_set1_epi8(-1));
        if (okm == 0) { /* none of the eight to decide */
            _mm_storel_epi64((__m128i *)(void *)(take + q), _mm_setzero_si128());
            if (er != NULL)
                _mm512_storeu_pd(er->ulp + q, vm1);
            continue;
        }
        __m512i mb, ee, eb, sd;
        load8(&e[q], &mb, &ee, &eb, &sd);
        /* the refusals, on integers */
        __m512i em = _mm512_sub_epi64(_mm512_and_si512(_mm512_srli_epi64(mb, 52), c7ff), c1023);
        __m512i E = _mm512_add_epi64(em, ee);
        __mmask8 sub = _mm512_cmpgt_epi64_mask(cm126, E); /* a subnormal result: quick_sub8 */
        __m512i yv = _mm512_loadu_si512((const void *)&y[q]);
        __m512i sign = _mm512_slli_epi64(_mm512_srli_epi64(mb, 63), 31);
        __m512i ymag = _mm512_and_si512(yv, ymagm);
        __mmask8 z = _mm512_cmpeq_epi64_mask(ymag, zero); /* a zero: a flush */
        /* refuse4's: |m| a zero, subnormal, infinite or NaN double, a one-sided enclosure, an
         * output of the other sign that is not a zero, an output that is not finite */
        __mmask8 refuse = _mm512_cmpeq_epi64_mask(em, cm1023) |
                          _mm512_cmpeq_epi64_mask(em, c1024) | _mm512_test_epi64_mask(sd, clo32) |
                          ((__mmask8)~z &
                           _mm512_cmpneq_epi64_mask(_mm512_and_si512(yv, sbit), sign)) |
                          _mm512_cmpgt_epi64_mask(ymag, maxfin);
        __mmask8 bad = refuse | sub | _mm512_cmpgt_epi64_mask(E, c127);
        /* ms, es and the cell: l16 = (ms - es) 2^16, h16 = (ms + es) 2^16 */
        __m512d ms = _mm512_castsi512_pd(_mm512_or_si512(_mm512_and_si512(mb, mant), exp23));
        __m512d es = _mm512_mul_pd(_mm512_castsi512_pd(eb), pow2v8(_mm512_sub_epi64(c23, em)));
        __m512d c;
        __mmask8 good = okm & (__mmask8)~bad &
                        cell8(_mm512_mul_pd(_mm512_sub_pd(ms, es), p16),
                              _mm512_mul_pd(_mm512_add_pd(ms, es), p16), &c);
        /* C, rz, rn */
        __m512i cl = _mm512_and_si512(_mm512_castpd_si512(_mm512_add_pd(c, p52)), mant);
        __m512i base = _mm512_slli_epi64(_mm512_add_epi64(E, c126), 23);
        __m512i rz = _mm512_add_epi64(base, _mm512_srli_epi64(cl, 16));
        __m512i rn = _mm512_add_epi64(rz, _mm512_and_si512(_mm512_srli_epi64(cl, 15), one));
        good &= _mm512_cmpgt_epi64_mask(cinf, rn);
        __mmask8 cr = _mm512_cmpeq_epi64_mask(ymag, rn);
        __mmask8 fa = _mm512_cmpeq_epi64_mask(ymag, rz) |
                      _mm512_cmpeq_epi64_mask(ymag, _mm512_add_epi64(rz, one));
        __m512i dv = _mm512_abs_epi64(_mm512_sub_epi64(ymag, rn));
        /* ys, a, the errors */
        __m256 yf = _mm256_castsi256_ps(_mm512_cvtepi64_epi32(ymag));
        __m512d ys = _mm512_mul_pd(_mm512_cvtps_pd(yf), pow2v8(_mm512_sub_epi64(c23, E)));
        __m512d a = _mm512_mul_pd(_mm512_cvtepi64_pd(_mm512_or_si512(cl, one)), m16);
        __m512d ulp = _mm512_abs_pd(_mm512_sub_pd(ys, a));
        __m512d ab = _mm512_mul_pd(ulp, pow2v8(_mm512_sub_epi64(E, c23)));
        if (er != NULL) { /* good so far: decided, a normal result */
            _mm512_storeu_pd(er->ulp + q, _mm512_mask_blend_pd(good, vm1, ulp));
            _mm512_storeu_pd(er->abs + q, ab);
            _mm512_storeu_pd(er->a + q, a);
        }
        __m512i xv = _mm512_loadu_si512((const void *)&x[q]);
        __mmask8 below =
            (_mm512_cmp_pd_mask(ulp, vmu, _CMP_LT_OQ) |
             (_mm512_cmp_pd_mask(ulp, vmu, _CMP_EQ_OQ) & _mm512_cmpgt_epu64_mask(xv, vmux))) &
            (_mm512_cmp_pd_mask(ab, vma, _CMP_LT_OQ) |
             (_mm512_cmp_pd_mask(ab, vma, _CMP_EQ_OQ) & _mm512_cmpgt_epu64_mask(xv, vmax)));
        /* gs_fused_rel_below: ulp < M a (1 - 2^-50); a flush's 1 below M or equal to it at a
         * larger x */
        __mmask8 relz = relz_all | (relz_tie & _mm512_cmpgt_epu64_mask(xv, vmrx));
        __mmask8 relp = _mm512_cmp_pd_mask(ulp, _mm512_mul_pd(_mm512_mul_pd(vmr, a), relm),
                                           _CMP_LT_OQ);
        /* a tie of the relative error itself (ulp / a, measure.c's division) at a larger x:
         * near 0 an output and V hold for many inputs, so their errors are all the same */
        __mmask8 tie = good & below & (__mmask8)~(relp | z);
        if (tie != 0)
            relp |= tie & _mm512_cmp_pd_mask(_mm512_div_pd(ulp, a), vmr, _CMP_EQ_OQ) &
                    _mm512_cmpgt_epu64_mask(xv, vmrx);
        below &= relp | (z & relz);
        good &= below;
        __mmask8 failed = 0, f0 = 0, f1 = 0;
        if (judge) {
            __mmask8 tolpass = tolon & _mm512_cmp_pd_mask(ab, vtol, _CMP_LE_OQ);
            __mmask8 tolgo = (__mmask8)~tolon | _mm512_cmp_pd_mask(ab, vtol, _CMP_GT_OQ);
            __mmask8 failc = _mm512_cmp_pd_mask(_mm512_cvtepi64_pd(dv), vmcr, _CMP_GT_OQ) |
                             _mm512_cmp_pd_mask(ulp, vpmu, _CMP_GT_OQ) |
                             ((__mmask8)~fa & faithreq) | z; /* a flush fails but within
                                                                abs_tol */
            __mmask8 le = _mm512_cmp_pd_mask(ulp, vpmu, _CMP_LE_OQ);
            __mmask8 pass = cr | tolpass | (tolgo & (__mmask8)~failc & le);
            __mmask8 fail = (__mmask8)~(cr | tolpass) & tolgo & failc &
                            _mm512_cmp_pd_mask(ulp, _mm512_mask_blend_pd(z, vunk, vunkz),
                                               _CMP_LT_OQ);
            good &= pass | fail;
            failed = (__mmask8)~pass & good;
            f0 = failed & (__mmask8)~z;
            f1 = failed & z;
        }
        qacc8_add(&acc, good, cr, fa, dv, f0, f1, 0, 0);
        if ((sub & okm) != 0) /* the lanes of a subnormal result too */
            good |= quick_sub8(mb, ee, eb, yv, ymag, sign, z, xv, E, refuse, sub & okm, b, &acc);
        take8(take + q, good);
    }
    cnt->n += acc.n;
    cnt->cr += acc.cr;
    cnt->faithful += acc.fa;
    cnt->failed += acc.fl;
    cnt->failed_flush += acc.flz;
    cnt->failed_ftz += acc.ftz;
    cnt->failed_sz += acc.sz;
    gs_bound_hist(cnt, acc.n, acc.g);
    if (q < k) {
        struct gs_quick_errs rest;
        if (er != NULL)
            rest = (struct gs_quick_errs){ er->ulp + q, er->abs + q, er->a + q };
        gs_fused_quick_lane_n_avx2(e + q, ok + q, x + q, y + q, k - q, b, take + q, cnt,
                                   er != NULL ? &rest : NULL);
    }
}

/* gs_left_n eight at a time: the lanes whose take is 0 compressed to the front of a register
 * (their x, and their indices as 64-bit lanes narrowed to bytes), stored whole at xl + nl and
 * il + nl (nl <= q: within the first k entries; a batch without any stores nothing); the
 * last inputs, fewer than eight, one at a time. */
size_t gs_left_n_avx512(const double *xd, const unsigned char *take, size_t k, double *xl,
                        unsigned char *il)
{
    size_t q = 0, nl = 0;
    __m512i idx = _mm512_setr_epi64(0, 1, 2, 3, 4, 5, 6, 7);
    const __m512i eight = _mm512_set1_epi64(8), s64 = _mm512_set1_epi64(64);
    /* 64 takes at a time first: where the span lane took them all (most of a block), one test
     * passes over them; else their batches of eight with any left, as below */
    for (; q + 64 <= k; q += 64) {
        __m512i t = _mm512_loadu_si512((const void *)(take + q));
        __mmask64 z = _mm512_testn_epi8_mask(t, t); /* take 0 */
        if (z == 0) {
            idx = _mm512_add_epi64(idx, s64);
            continue;
        }
        for (int s = 0; s < 64; s += 8, idx = _mm512_add_epi64(idx, eight)) {
            __mmask8 m = (__mmask8)(z >> s);
            if (m == 0)
                continue;
            _mm512_storeu_pd(xl + nl, _mm512_maskz_compress_pd(m, _mm512_loadu_pd(xd + q + s)));
            _mm_storel_epi64((__m128i *)(void *)(il + nl),
                             _mm512_cvtepi64_epi8(_mm512_maskz_compress_epi64(m, idx)));
            nl += (unsigned)__builtin_popcount(m);
        }
    }
    for (; q + 8 <= k; q += 8) {
        __m128i t = _mm_loadl_epi64((const __m128i *)(const void *)(take + q));
        __mmask8 m = (__mmask8)_mm_testn_epi8_mask(t, t); /* take 0 */
        _mm512_storeu_pd(xl + nl, _mm512_maskz_compress_pd(m, _mm512_loadu_pd(xd + q)));
        _mm_storel_epi64((__m128i *)(void *)(il + nl),
                         _mm512_cvtepi64_epi8(_mm512_maskz_compress_epi64(m, idx)));
        nl += (unsigned)__builtin_popcount(m);
        idx = _mm512_add_epi64(idx, eight);
    }
    for (; q < k; q++) {
        xl[nl] = xd[q];
        il[nl] = (unsigned char)q;
        nl += !take[q];
    }
    return nl;
}

/* gs_f32_values_n eight at a time: the low halves narrowed (vpmovqd), widened as floats; the
 * last inputs, fewer than eight, under a mask. */
void gs_f32_values_n_avx512(const uint64_t *x, size_t k, double *xd)
{
    for (size_t q = 0; q < k; q += 8) {
        __mmask8 lm = k - q >= 8 ? (__mmask8)0xff : (__mmask8)((1u << (k - q)) - 1);
        __m256i lo = _mm512_cvtepi64_epi32(_mm512_maskz_loadu_epi64(lm, &x[q]));
        _mm512_mask_storeu_pd(&xd[q], lm, _mm512_cvtps_pd(_mm256_castsi256_ps(lo)));
    }
}
