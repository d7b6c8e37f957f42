/* The double tier's enclosures (fast_fn.c "the double tier of every function"), four inputs
 * at a time with AVX2 and FMA (gr_fast_encl_n_avx2), and eight at a time with AVX-512 F, DQ
 * and VL (gr_fast_encl_n_avx512: this file compiled again with GR_VEC_W = 8, its primitives
 * on 512-bit vectors and mask registers); geluref_enclose_n takes the widest the CPU reports
 * (odd.c).
 *
 * Each lane performs the very operations of the FMA build's scalar evaluator (fast_fn.c
 * encl_gelu, encl_normcdf, encl_normpdf, encl_gelu_grad, encl_erfc, encl_erf, encl_approx,
 * encl_tanh_grad, with fast_phi.h's gr_fast_exp_neg_d and gr_fast_mills_d and dd.h's
 * algorithms), in the same order: additions, products, quotients and fused multiply-adds
 * are correctly rounded whether one, four or eight are computed at once, and nothing is
 * contracted (-ffp-contract=off; the fused steps are the scalar code's fma() calls, here vfma
 * and vfms for fma(a, b, -p)); the rounding to an integer is the scalar code's nearbyint (the
 * current rounding direction, no inexact exception: vround), and the conversions to int32
 * round as the scalar code's casts do (vi_cvt in the current direction where the scalar code
 * converts nearbyint's integer, vi_cvtt toward 0).  A table's entries are gathered or loaded
 * whole, the same values either way.  So each lane's enclosure is the scalar one bit for bit,
 * and the scalar error analysis is the proof of all three.  A lane leaves the vector path
 * where the scalar code would branch elsewhere (the series near 0 of gelu, erf and erfc are
 * computed too; the one-sided saturation enclosures, a power of two outside the normal
 * doubles, a range check, a bound that gives up): that lane is evaluated by the scalar
 * gr_fast_encl_fma.
 * tests/reference/test_fast_encl_vec.c compares each width with the scalar code bit for bit
 * on random inputs, every boundary of the branches and every alignment of a batch;
 * test_fast_encl checks this build's enclosures against f(x) at 300 bits as it does the
 * scalar builds'.
 *
 * Compiled only on x86-64, with -mavx2 -mfma, and again with -mavx512f -mavx512dq -mavx512vl
 * -DGR_VEC_W=8 (reference/CMakeLists.txt). */
#include <immintrin.h>
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "fast_phi.h" /* fast.h, and INV_LN2_1024 */

#define UD 0x1p-53 /* u */

#if !defined(GR_VEC_W)
#define GR_VEC_W 4
#endif

/* The width's primitives: V, a vector of GR_VEC_W doubles; M, a mask of lanes (a vector of
 * all-ones lanes with AVX2, a mask register with AVX-512); VI, GR_VEC_W int32 lanes. */
#if GR_VEC_W == 8
typedef __m512d V;
typedef __mmask8 M;
typedef __m256i VI;
#define VS(c) _mm512_set1_pd(c)
#define MALL 0xffu
#define MNONE ((M)0)
static inline V vload(const double *p) { return _mm512_loadu_pd(p); }
static inline void vstore(double *p, V a) { _mm512_storeu_pd(p, a); }
static inline V vadd(V a, V b) { return _mm512_add_pd(a, b); }
static inline V vsub(V a, V b) { return _mm512_sub_pd(a, b); }
static inline V vmul(V a, V b) { return _mm512_mul_pd(a, b); }
static inline V vdiv(V a, V b) { return _mm512_div_pd(a, b); }
static inline V vfma(V a, V b, V c) { return _mm512_fmadd_pd(a, b, c); }
static inline V vfms(V a, V b, V c) { return _mm512_fmsub_pd(a, b, c); } /* fma(a, b, -c) */
static inline V vabs(V a) { return _mm512_andnot_pd(VS(-0.0), a); }
static inline V vneg(V a) { return _mm512_xor_pd(a, VS(-0.0)); }
static inline V vround(V a) /* nearbyint: the current direction (MXCSR), no inexact */
{
    return _mm512_roundscale_pd(a, _MM_FROUND_CUR_DIRECTION | _MM_FROUND_NO_EXC);
}
/* comparisons as masks (ordered: NaN compares false, as in C) */
static inline M vle(V a, V b) { return _mm512_cmp_pd_mask(a, b, _CMP_LE_OQ); }
static inline M vlt(V a, V b) { return _mm512_cmp_pd_mask(a, b, _CMP_LT_OQ); }
static inline M vgt(V a, V b) { return _mm512_cmp_pd_mask(a, b, _CMP_GT_OQ); }
static inline M vge(V a, V b) { return _mm512_cmp_pd_mask(a, b, _CMP_GE_OQ); }
static inline M vne(V a, V b) { return _mm512_cmp_pd_mask(a, b, _CMP_NEQ_OQ); }
static inline M mand(M a, M b) { return (M)(a & b); }
static inline M mandnot(M a, M b) { return (M)(~a & b); } /* ~a & b */
static inline M mor(M a, M b) { return (M)(a | b); }
static inline M msel(M m, M a, M b) { return (M)((m & a) | (~m & b)); } /* m ? a : b */
static inline V vsel(M m, V a, V b) { return _mm512_mask_blend_pd(m, b, a); } /* m ? a : b */
static inline V vmaskz(M m, V a) { return _mm512_maskz_mov_pd(m, a); }    /* m ? a : 0 */
static inline unsigned mbits(M m) { return m; }
/* int32 lanes */
static inline VI vi_set1(int i) { return _mm256_set1_epi32(i); }
static inline VI vi_sub(VI a, VI b) { return _mm256_sub_epi32(a, b); }
static inline VI vi_and(VI a, VI b) { return _mm256_and_si256(a, b); }
static inline VI vi_min(VI a, VI b) { return _mm256_min_epi32(a, b); }
static inline VI vi_max(VI a, VI b) { return _mm256_max_epi32(a, b); }
static inline VI vi_srai10(VI a) { return _mm256_srai_epi32(a, 10); }
static inline int vi_first(VI a) { return _mm_cvtsi128_si32(_mm256_castsi256_si128(a)); }
static inline int vi_all(VI a, int i) /* every lane i */
{
    return _mm256_movemask_epi8(_mm256_cmpeq_epi32(a, vi_set1(i))) == -1;
}
static inline VI vi_cvt(V a) { return _mm512_cvtpd_epi32(a); }   /* the current direction */
static inline VI vi_cvtt(V a) { return _mm512_cvttpd_epi32(a); } /* toward 0 */
static inline V v_of_vi(VI a) { return _mm512_cvtepi32_pd(a); }
/* 2^-q for integers 0 <= q <= 1022, and the mask of the lanes whose q lies there (as the
 * AVX2 versions below) */
static inline V v_pow2_neg(VI q)
{
    return _mm512_castsi512_pd(
        _mm512_slli_epi64(_mm512_cvtepi32_epi64(vi_sub(vi_set1(1023), q)), 52));
}
static inline M v_q_normal(VI q)
{
    return (M)(_mm256_cmple_epi32_mask(q, vi_set1(1022)) &
               _mm256_cmpge_epi32_mask(q, _mm256_setzero_si256()));
}
/* gr_fast_exp2[j].hi of each lane */
static inline V v_exp2_hi(VI j)
{
    return _mm512_i32gather_pd(_mm256_slli_epi32(j, 1), (const double *)gr_fast_exp2, 8);
}
/* the rows i of the Mills ratio's tables: mh[k] = gr_fast_mh[i][k] (k < 8), mt[k] =
 * gr_fast_mt[i][k] (k < 3), gathered (rows of 8 doubles) */
static inline void v_mills_rows(VI iv, V *mh, V *mt)
{
    VI r = _mm256_slli_epi32(iv, 3);
    for (int k = 0; k < 8; k++)
        mh[k] = _mm512_i32gather_pd(r, &gr_fast_mh[0][k], 8);
    for (int k = 0; k < 3; k++)
        mt[k] = _mm512_i32gather_pd(r, &gr_fast_mt[0][k], 8);
}
#else
typedef __m256d V;
typedef __m256d M;
typedef __m128i VI;
#define VS(c) _mm256_set1_pd(c)
#define MALL 0xfu
#define MNONE _mm256_setzero_pd()
static inline V vload(const double *p) { return _mm256_loadu_pd(p); }
static inline void vstore(double *p, V a) { _mm256_storeu_pd(p, a); }
static inline V vadd(V a, V b) { return _mm256_add_pd(a, b); }
static inline V vsub(V a, V b) { return _mm256_sub_pd(a, b); }
static inline V vmul(V a, V b) { return _mm256_mul_pd(a, b); }
static inline V vdiv(V a, V b) { return _mm256_div_pd(a, b); }
static inline V vfma(V a, V b, V c) { return _mm256_fmadd_pd(a, b, c); }
static inline V vfms(V a, V b, V c) { return _mm256_fmsub_pd(a, b, c); } /* fma(a, b, -c) */
static inline V vabs(V a) { return _mm256_andnot_pd(VS(-0.0), a); }
static inline V vneg(V a) { return _mm256_xor_pd(a, VS(-0.0)); }
static inline V vround(V a) /* nearbyint: the current direction, no inexact */
{
    return _mm256_round_pd(a, _MM_FROUND_CUR_DIRECTION | _MM_FROUND_NO_EXC);
}
/* comparisons as masks (ordered: NaN compares false, as in C) */
static inline M vle(V a, V b) { return _mm256_cmp_pd(a, b, _CMP_LE_OQ); }
static inline M vlt(V a, V b) { return _mm256_cmp_pd(a, b, _CMP_LT_OQ); }
static inline M vgt(V a, V b) { return _mm256_cmp_pd(a, b, _CMP_GT_OQ); }
static inline M vge(V a, V b) { return _mm256_cmp_pd(a, b, _CMP_GE_OQ); }
static inline M vne(V a, V b) { return _mm256_cmp_pd(a, b, _CMP_NEQ_OQ); }
static inline M mand(M a, M b) { return _mm256_and_pd(a, b); }
static inline M mandnot(M a, M b) { return _mm256_andnot_pd(a, b); } /* ~a & b */
static inline M mor(M a, M b) { return _mm256_or_pd(a, b); }
static inline M msel(M m, M a, M b) { return _mm256_blendv_pd(b, a, m); } /* m ? a : b */
static inline V vsel(M m, V a, V b) { return _mm256_blendv_pd(b, a, m); } /* m ? a : b */
static inline V vmaskz(M m, V a) { return _mm256_and_pd(m, a); }         /* m ? a : 0 */
static inline unsigned mbits(M m) { return (unsigned)_mm256_movemask_pd(m); }
/* int32 lanes */
static inline VI vi_set1(int i) { return _mm_set1_epi32(i); }
static inline VI vi_sub(VI a, VI b) { return _mm_sub_epi32(a, b); }
static inline VI vi_and(VI a, VI b) { return _mm_and_si128(a, b); }
static inline VI vi_min(VI a, VI b) { return _mm_min_epi32(a, b); }
static inline VI vi_max(VI a, VI b) { return _mm_max_epi32(a, b); }
static inline VI vi_srai10(VI a) { return _mm_srai_epi32(a, 10); }
static inline int vi_first(VI a) { return _mm_cvtsi128_si32(a); }
static inline int vi_all(VI a, int i) /* every lane i */
{
    return _mm_movemask_epi8(_mm_cmpeq_epi32(a, vi_set1(i))) == 0xffff;
}
static inline VI vi_cvt(V a) { return _mm256_cvtpd_epi32(a); }   /* the current direction */
static inline VI vi_cvtt(V a) { return _mm256_cvttpd_epi32(a); } /* toward 0 */
static inline V v_of_vi(VI a) { return _mm256_cvtepi32_pd(a); }
/* 2^-q for integers 0 <= q <= 1022 (int32 lanes): the bits of a normal double; dd_ldexp's
 * product by it is its normal-range branch.  Lanes with another q are left by the caller. */
static inline V v_pow2_neg(VI q)
{
    __m256i b = _mm256_slli_epi64(_mm256_cvtepi32_epi64(vi_sub(vi_set1(1023), q)), 52);
    return _mm256_castsi256_pd(b);
}
/* lanes whose q lies in [0, 1022], as a mask */
static inline M v_q_normal(VI q)
{
    __m128i bad = _mm_or_si128(_mm_cmpgt_epi32(q, vi_set1(1022)),
                               _mm_cmplt_epi32(q, _mm_setzero_si128()));
    return _mm256_castsi256_pd(_mm256_cvtepi32_epi64(_mm_xor_si128(bad, vi_set1(-1))));
}
/* gr_fast_exp2[j].hi of each lane */
static inline V v_exp2_hi(VI j)
{
    return _mm256_i32gather_pd((const double *)gr_fast_exp2, _mm_slli_epi32(j, 1), 8);
}
static inline void v_transpose(__m256d r0, __m256d r1, __m256d r2, __m256d r3, __m256d *c);
/* the rows i of the Mills ratio's tables: mh[k] = gr_fast_mh[i][k] (k < 8), mt[k] =
 * gr_fast_mt[i][k] (k < 3): each lane's row loaded whole (8 and 4 contiguous coefficients)
 * and transposed */
static inline void v_mills_rows(VI iv, V *mh, V *mt)
{
    int i[4];
    _mm_storeu_si128((__m128i *)i, iv);
    v_transpose(_mm256_loadu_pd(gr_fast_mh[i[0]]), _mm256_loadu_pd(gr_fast_mh[i[1]]),
                _mm256_loadu_pd(gr_fast_mh[i[2]]), _mm256_loadu_pd(gr_fast_mh[i[3]]), mh);
    v_transpose(_mm256_loadu_pd(gr_fast_mh[i[0]] + 4), _mm256_loadu_pd(gr_fast_mh[i[1]] + 4),
                _mm256_loadu_pd(gr_fast_mh[i[2]] + 4), _mm256_loadu_pd(gr_fast_mh[i[3]] + 4),
                mh + 4);
    V t[4];
    v_transpose(_mm256_loadu_pd(gr_fast_mt[i[0]]), _mm256_loadu_pd(gr_fast_mt[i[1]]),
                _mm256_loadu_pd(gr_fast_mt[i[2]]), _mm256_loadu_pd(gr_fast_mt[i[3]]), t);
    for (int k = 0; k < 3; k++)
        mt[k] = t[k];
}
#endif
static inline int many(M m) { return mbits(m) != 0; }

typedef struct {
    V hi, lo;
} vdd;

/* dd.h, lane by lane */
static inline vdd v_two_prod(V a, V b)
{
    V p = vmul(a, b);
    return (vdd){ p, vfms(a, b, p) }; /* fma(a, b, -p) */
}
static inline vdd v_two_sum(V a, V b)
{
    V s = vadd(a, b);
    V bb = vsub(s, a);
    V e = vadd(vsub(a, vsub(s, bb)), vsub(b, bb));
    return (vdd){ s, e };
}
static inline vdd v_fast_two_sum(V a, V b)
{
    V s = vadd(a, b);
    return (vdd){ s, vsub(b, vsub(s, a)) };
}
static inline vdd v_dd_mul_d(vdd x, V y)
{
    vdd c = v_two_prod(x.hi, y);
    V cl3 = vfma(x.lo, y, c.lo);
    return v_fast_two_sum(c.hi, cl3);
}
static inline vdd v_dd_const(dd c) { return (vdd){ VS(c.hi), VS(c.lo) }; }

/* gr_fast_exp_neg_d: e^(-y) = E 2^-q, q in int32 lanes (N < 2^22 for y <= 2048; other lanes
 * give some q and are left by the caller's range test). */
static inline V v_exp_neg_d(vdd y, VI *q)
{
    V nd = vround(vmul(y.hi, VS(INV_LN2_1024)));
    V r = vsub(vadd(vsub(vsub(y.hi, vmul(nd, VS(gr_fast_ln2_1))), vmul(nd, VS(gr_fast_ln2_2))),
                    y.lo),
               vmul(nd, VS(gr_fast_ln2_3)));
    V s = vneg(r);
    V t = vfma(s, VS(0x1.1111111111111p-7), VS(0x1.5555555555555p-5)); /* 1/120, 1/24 */
    t = vfma(t, s, VS(0x1.5555555555555p-3));                           /* 1/6 */
    t = vfma(t, s, VS(0.5));
    t = vfma(t, s, VS(1.0));
    V e = vfma(t, s, VS(1.0));
    VI n = vi_cvtt(nd); /* nd is an integer: (int64_t)nd where in range */
    *q = vi_srai10(n);
    VI j = vi_and(n, vi_set1(1023));
    /* the table's .hi, gathered, or broadcast where the lanes share j (a sweep's batch,
     * mostly: the same value) */
    int j0 = vi_first(j);
    V t2 = vi_all(j, j0) ? VS(gr_fast_exp2[j0].hi) : v_exp2_hi(j);
    return vmul(e, t2);
}

/* columns k = 0..3 of four rows r_l (the coefficients k of four lanes) */
static inline void v_transpose(__m256d r0, __m256d r1, __m256d r2, __m256d r3, __m256d *c)
{
    __m256d t0 = _mm256_unpacklo_pd(r0, r1), t1 = _mm256_unpackhi_pd(r0, r1);
    __m256d t2 = _mm256_unpacklo_pd(r2, r3), t3 = _mm256_unpackhi_pd(r2, r3);
    c[0] = _mm256_permute2f128_pd(t0, t2, 0x20);
    c[1] = _mm256_permute2f128_pd(t1, t3, 0x20);
    c[2] = _mm256_permute2f128_pd(t0, t2, 0x31);
    c[3] = _mm256_permute2f128_pd(t1, t3, 0x31);
}

/* gr_fast_mills_d's polynomial at t for the grid indices iv (clamped into the table for the
 * lanes outside, left by the caller, so that no load leaves it): each lane's row of the
 * tables (v_mills_rows), or where the lanes share one row (a sweep's batch: a step of 2^-5
 * in z holds many inputs) its coefficients broadcast, the same values. */
static inline V v_mills_poly(VI iv, V t)
{
    V mh[8], mt[3];
    int i0 = vi_first(iv);
    if (vi_all(iv, i0)) {
        for (int k = 0; k < 8; k++)
            mh[k] = VS(gr_fast_mh[i0][k]);
        for (int k = 0; k < 3; k++)
            mt[k] = VS(gr_fast_mt[i0][k]);
    } else {
        v_mills_rows(iv, mh, mt);
    }
    V s = vfma(mt[2], t, mt[1]);
    s = vfma(s, t, mt[0]);
    for (int k = 7; k >= 0; k--)
        s = vfma(s, t, mh[k]);
    return s;
}

/* gr_fast_mills_d: M(z), z in [0, 60.4] */
static inline V v_mills_d(V z)
{
    VI iv = vi_cvt(vround(vmul(z, VS(32.0))));
    iv = vi_min(vi_max(iv, vi_set1(0)), vi_set1(GR_M_POINTS - 1));
    return v_mills_poly(iv, vsub(z, vmul(v_of_vi(iv), VS(0x1p-5))));
}

/* encl_gauss: phi(z) = g 2^-q */
static inline V v_gauss(V z, VI *q)
{
    vdd y = v_two_prod(z, z);
    y = (vdd){ vmul(y.hi, VS(0.5)), vmul(y.lo, VS(0.5)) };
    return vmul(v_exp_neg_d(y, q), VS(gr_fast_inv_sqrt2pi.hi));
}

/* One batch of four: m, the exponent e (an integer held as a double), err, and the mask of
 * the lanes the vector path served (all bits set). */
struct vout {
    V m, e, err;
    M ok;
};

/* -q as doubles (exact) */
static inline V v_negq(VI q) { return vneg(v_of_vi(q)); }

/* encl_value's test and bound: rel *= 1.01; served where rel < 2^-40, m != 0 and |m| finite;
 * err = rel |m| (1 + 2^-40). */
static inline void v_value(V m, V e, V rel, M ok, struct vout *o)
{
    rel = vmul(rel, VS(1.01));
    V am = vabs(m);
    ok = mand(ok, mand(vlt(rel, VS(0x1p-40)),
                       mand(vne(m, VS(0.0)), vle(am, VS(0x1.fffffffffffffp+1023)))));
    o->m = m;
    o->e = e;
    o->err = vmul(vmul(rel, am), VS(1 + 0x1p-40));
    o->ok = ok;
}

/* the lanes of o where m is set, the rest from a */
static inline void v_merge(M m, const struct vout *a, struct vout *o)
{
    o->m = vsel(m, o->m, a->m);
    o->e = vsel(m, o->e, a->e);
    o->err = vsel(m, o->err, a->err);
    o->ok = msel(m, o->ok, a->ok);
}

/* x in the batch loop's range (ENCL_LOOP: 2^-500 <= |x| <= 2^11, which also holds the
 * evaluator's |x| >= 2^-500; NaN fails) */
static inline M v_in_range(V z) { return mand(vge(z, VS(0x1p-500)), vle(z, VS(0x1p+11))); }

/* encl_gelu */
#define GELU_SERIES_X 0x1p-10 /* fast_fn.c */
static inline void v_gelu(V x, struct vout *o)
{
    V z = vabs(x);
    M in = v_in_range(z);
    M ser = mand(in, vle(z, VS(GELU_SERIES_X)));
    M main = mandnot(ser, mand(in, vle(z, VS(60.0))));
    struct vout so;
    *o = (struct vout){ VS(0.0), VS(0.0), VS(0.0), MNONE };
    if (many(main)) {
        vdd y = v_two_prod(z, z);
        y = (vdd){ vmul(y.hi, VS(0.5)), vmul(y.lo, VS(0.5)) };
        VI q;
        V p = vmul(vmul(v_exp_neg_d(y, &q), VS(gr_fast_inv_sqrt2pi.hi)), v_mills_d(z));
        M neg = vlt(x, VS(0.0));
        if (!many(mandnot(neg, main))) { /* no lane of x > 0 to serve */
            v_value(vmul(p, x), v_negq(q), VS(12 * UD), main, o);
        } else {
            /* x > 0: s = p 2^-q, served where q <= 1022 (dd_ldexp's product) and s >= 2^-45
             * (else the one-sided enclosure) */
            V s = vmul(p, v_pow2_neg(q));
            M ok = mand(main, mor(neg, mand(v_q_normal(q), vge(s, VS(0x1p-45)))));
            V m = vsel(neg, vmul(p, x), vmul(vsub(VS(1.0), s), x));
            v_value(m, vmaskz(neg, v_negq(q)), VS(12 * UD), ok, o);
        }
    }
    if (many(ser)) { /* x/2 + T */
        V q = vmul(x, x);
        V pm1 = vmul(q, vadd(VS(-1.0 / 6), vmul(q, vadd(VS(1.0 / 40), vmul(q, VS(-1.0 / 336))))));
        V t = vmul(vmul(VS(gr_fast_inv_sqrt2pi.hi), q), vadd(VS(1.0), pm1));
        v_value(vadd(vmul(x, VS(0.5)), t), VS(0.0), VS(2 * UD), ser, &so);
        v_merge(ser, o, &so);
        *o = so;
    }
}

/* encl_normcdf */
static inline void v_normcdf(V x, struct vout *o)
{
    V z = vabs(x);
    M ok = mand(v_in_range(z), vle(z, VS(60.0)));
    VI q;
    V p = vmul(v_gauss(z, &q), v_mills_d(z));
    M neg = vlt(x, VS(0.0));
    V s = vmul(p, v_pow2_neg(q));
    ok = mand(ok, mor(neg, mand(v_q_normal(q), vge(s, VS(0x1p-45)))));
    struct vout po;
    v_value(p, v_negq(q), VS(9.8 * UD), ok, o);
    v_value(vsub(VS(1.0), s), VS(0.0), VS(10.8 * UD), ok, &po);
    v_merge(neg, &po, o);
}

/* encl_normpdf */
static inline void v_normpdf(V x, struct vout *o)
{
    M ok = mand(v_in_range(vabs(x)), vle(vabs(x), VS(60.0)));
    VI q;
    V g = v_gauss(x, &q);
    v_value(g, v_negq(q), VS(5.1 * UD), ok, o);
}

/* encl_gelu_grad */
static inline void v_gelu_grad(V x, struct vout *o)
{
    V z = vabs(x);
    M ok = mand(v_in_range(z), vle(z, VS(60.0)));
    VI q;
    V g = v_gauss(z, &q);
    V mz = v_mills_d(z);
    M neg = vlt(x, VS(0.0));
    V d = vsel(neg, vsub(mz, z), vsub(z, mz));
    V ad = vabs(d);
    ok = mand(ok, vne(d, VS(0.0)));
    V ed = vmul(vdiv(vadd(vmul(vmul(VS(3.7 * UD), mz), VS(1.01)), vmul(VS(UD), ad)), ad),
                VS(1.01));
    ok = mand(ok, vlt(ed, VS(0x1p-40)));
    V p = vmul(g, d);
    V e1 = vadd(vadd(ed, VS(5.1 * UD)), VS(UD)); /* ed + ENCL_EPS_G + UD */
    /* each sign's branch only where a lane takes it (x > 0 has a quotient more): a sweep's
     * batches are of one sign */
    unsigned nm = mbits(neg);
    if (nm != 0)
        v_value(p, v_negq(q), e1, ok, o);
    if (nm != MALL) {
        /* x > 0: s = p 2^-q (q <= 1022), |s| >= 2^-45; f = 1 + s */
        V s = vmul(p, v_pow2_neg(q));
        M okp = mand(ok, mor(neg, mand(v_q_normal(q), vge(vabs(s), VS(0x1p-45)))));
        V f = vadd(VS(1.0), s);
        V rel = vadd(vdiv(vadd(vmul(vmul(e1, VS(1.01)), vabs(s)), VS(0x1p-1022)), f), VS(UD));
        struct vout po;
        v_value(f, VS(0.0), rel, okp, nm == 0 ? o : &po);
        if (nm != 0)
            v_merge(neg, &po, o);
    }
}

/* gr_fast_tanh_arg_d and gr_fast_sigmoid_arg_d (fast_phi.h), and encl_weight: w = E 2^-q,
 * its error ew; ok cleared where a.hi > GR_EXP_YMAX (or NaN) or E < 0 */
static inline V v_weight(V z, int tanh_form, VI *q, V *ew, M *ok)
{
    vdd a;
    double ea;
    if (tanh_form) { /* gr_fast_tanh_arg_d */
        vdd z2 = v_two_prod(z, z);
        vdd p = v_two_prod(VS(gr_fast_tanh_c.hi), z2.hi);
        V pl = vfma(VS(gr_fast_tanh_c.hi), z2.lo, vfma(VS(gr_fast_tanh_c.lo), z2.hi, p.lo));
        vdd t = v_two_sum(VS(1.0), p.hi);
        V tl = vadd(t.lo, pl);
        vdd m = v_two_prod(t.hi, z);
        V ml = vfma(tl, z, m.lo);
        V sh = VS(2 * gr_fast_sqrt_2_pi.hi), sl = VS(2 * gr_fast_sqrt_2_pi.lo);
        vdd ah = v_two_prod(m.hi, sh);
        a = (vdd){ ah.hi, vfma(m.hi, sl, vfma(ml, sh, ah.lo)) };
        ea = GR_TANH_ARG_EA;
    } else {
        vdd ah = v_two_prod(VS(gr_fast_sigmoid_c.hi), z); /* gr_fast_sigmoid_arg_d */
        a = (vdd){ ah.hi, vfma(VS(gr_fast_sigmoid_c.lo), z, ah.lo) };
        ea = GR_SIGMOID_ARG_EA;
    }
    *ok = mand(*ok, vle(a.hi, VS(GR_EXP_YMAX)));
    *ew = vadd(VS(3.1 * UD), vmul(vmul(VS(1.01 * ea), a.hi), VS(1.01)));
    V e = v_exp_neg_d(a, q);
    *ok = mandnot(vlt(e, VS(0.0)), *ok);
    return e;
}

/* encl_approx */
static inline void v_approx(V x, int tanh_form, struct vout *o)
{
    V z = vabs(x);
    M ok = mand(v_in_range(z), vle(z, VS(tanh_form ? 30.0 : 1200.0)));
    VI q;
    V ew;
    V e = v_weight(z, tanh_form, &q, &ew, &ok);
    /* w = E 2^-q: served where q <= 1022 (dd_ldexp's product; q > 1100 gives 0 there) */
    ok = mand(ok, v_q_normal(q));
    V w = vmul(e, v_pow2_neg(q));
    V d = vadd(VS(1.0), w);
    V ed = vadd(vadd(vmul(vmul(ew, w), VS(1.01)), VS(UD)), VS(0x1p-1022));
    M neg = vlt(x, VS(0.0));
    ok = mand(ok, mor(neg, vge(w, VS(0x1p-45)))); /* x > 0, w < 2^-45: one-sided */
    /* each sign's branch only where a lane takes it (its quotient is dear): a sweep's
     * batches are of one sign */
    unsigned nm = mbits(neg);
    struct vout po;
    if (nm != 0)
        v_value(vdiv(vmul(x, e), d), v_negq(q), vadd(vadd(ew, ed), VS(2 * UD)), ok, o);
    if (nm != MALL) {
        v_value(vdiv(x, d), VS(0.0), vadd(ed, VS(UD)), ok, nm == 0 ? o : &po);
        if (nm != 0)
            v_merge(neg, &po, o);
    }
}

/* encl_tanh_grad */
static inline void v_tanh_grad(V x, struct vout *o)
{
    V z = vabs(x);
    M ok = mand(v_in_range(z), vle(z, VS(30.0)));
    VI q;
    V ew;
    V e = v_weight(z, 1, &q, &ew, &ok);
    ok = mand(ok, v_q_normal(q));
    V w = vmul(e, v_pow2_neg(q));
    V d = vadd(VS(1.0), w);
    V ed = vadd(vadd(vmul(vmul(ew, w), VS(1.01)), VS(UD)), VS(0x1p-1022));
    V big = vadd(VS(1.0), vmul(VS(3 * gr_fast_tanh_c.hi), vmul(x, x)));
    V am = vmul(vmul(big, VS(2 * gr_fast_sqrt_2_pi.hi)), x);
    V eam = VS(8 * UD);
    M neg = vlt(x, VS(0.0));
    /* x > 2 and A w < 2^-45: one-sided */
    ok = mandnot(mand(vgt(x, VS(2.0)), vlt(vmul(am, w), VS(0x1p-45))), ok);
    /* each sign's branch only where a lane takes it (three quotients each): a sweep's
     * batches are of one sign */
    unsigned nm = mbits(neg);
    struct vout po;
    if (nm != MALL) { /* x > 0 */
        V t = vdiv(vmul(am, w), d);
        V et = vmul(vadd(vadd(vadd(eam, ew), ed), VS(2 * UD)), VS(1.01));
        V num = vadd(VS(1.0), t);
        V en = vadd(vmul(vdiv(vmul(et, t), num), VS(1.01)), VS(UD));
        v_value(vdiv(num, d), VS(0.0), vadd(vadd(en, ed), VS(UD)), ok, nm == 0 ? o : &po);
        if (nm == 0)
            return;
    }
    /* x < 0 */
    V r = vdiv(am, d);
    V er = vmul(vadd(vadd(eam, ed), VS(UD)), VS(1.01));
    V b = vadd(VS(1.0), r);
    V ab = vabs(b);
    V eb = vmul(vdiv(vadd(vmul(er, vabs(r)), vmul(VS(UD), ab)), ab), VS(1.01));
    M nok = mand(ok, mand(vne(b, VS(0.0)), vlt(eb, VS(0x1p-40))));
    v_value(vmul(vdiv(e, d), b), v_negq(q),
            vadd(vadd(vadd(vadd(ew, ed), VS(UD)), eb), VS(UD)), nok, o);
    if (nm != MALL)
        v_merge(neg, &po, o);
}

/* fast_fn.c encl_erf_series: erf(z) for z < 2^-4 (x instead of z keeps the sign) */
static inline V v_erf_series(V z)
{
    V v = vmul(z, z);
    V s = VS(gr_fast_erf_c[5].hi);
    for (int n = 4; n >= 0; n--)
        s = vfma(s, v, VS(gr_fast_erf_c[n].hi));
    return vmul(vmul(s, VS(gr_fast_two_sqrtpi.hi)), z);
}

/* encl_mills_dd: M(w) at t = RN((w.hi - i/32) + w.lo) */
static inline V v_mills_dd(vdd w)
{
    VI iv = vi_cvt(vround(vmul(w.hi, VS(32.0))));
    iv = vi_min(vi_max(iv, vi_set1(0)), vi_set1(GR_M_POINTS - 1));
    V t = vadd(vsub(w.hi, vmul(v_of_vi(iv), VS(0x1p-5))), w.lo);
    return v_mills_poly(iv, t);
}

/* encl_erfc_pos: erfc(z) = m 2^-q, z in [2^-500, 42.7] */
#define ERFC_ZMAX 42.7 /* fast_fn.c */
#define ENCL_EPS_ERFC (11 * UD)
static inline V v_erfc_pos(V z, VI *q)
{
    vdd w = v_dd_mul_d(v_dd_const(gr_fast_sqrt2), z);
    vdd y = v_two_prod(z, z);
    V e = v_exp_neg_d(y, q);
    return vmul(vmul(e, v_mills_dd(w)), VS(gr_fast_sqrt_2_pi.hi));
}

/* encl_erf: the series below 2^-4, 1 - erfc(z) above (s = erfc(z) 2^-q with q <= 1022 and
 * s >= 2^-45, else the scalar code) */
static inline void v_erf(V x, struct vout *o)
{
    V z = vabs(x);
    M in = v_in_range(z);
    M ser = mand(in, vlt(z, VS(0x1p-4)));
    M main = mandnot(ser, mand(in, vle(z, VS(ERFC_ZMAX))));
    *o = (struct vout){ VS(0.0), VS(0.0), VS(0.0), MNONE };
    if (many(main)) {
        VI q;
        V m = v_erfc_pos(z, &q);
        V s = vmul(m, v_pow2_neg(q));
        M ok = mand(main, mand(v_q_normal(q), vge(s, VS(0x1p-45))));
        V r = vsub(VS(1.0), s);
        V rel = vadd(vmul(vdiv(vmul(VS(ENCL_EPS_ERFC), s), r), VS(1.01)), VS(UD));
        v_value(vsel(vlt(x, VS(0.0)), vneg(r), r), VS(0.0), rel, ok, o);
    }
    if (many(ser)) {
        struct vout so;
        v_value(v_erf_series(x), VS(0.0), VS(3.5 * UD), ser, &so);
        v_merge(ser, o, &so);
        *o = so;
    }
}

/* encl_erfc: 1 -+ erf(z) below 2^-4; erfc_pos for x > 0, 2 - s for x < 0 (q <= 1022 and
 * s >= 2^-45, else the scalar code) */
static inline void v_erfc(V x, struct vout *o)
{
    V z = vabs(x);
    M in = v_in_range(z);
    M ser = mand(in, vlt(z, VS(0x1p-4)));
    M main = mandnot(ser, mand(in, vle(z, VS(ERFC_ZMAX))));
    M pos = vgt(x, VS(0.0));
    *o = (struct vout){ VS(0.0), VS(0.0), VS(0.0), MNONE };
    if (many(main)) {
        VI q;
        V m = v_erfc_pos(z, &q);
        V s = vmul(m, v_pow2_neg(q));
        M ok = mand(main, mor(pos, mand(v_q_normal(q), vge(s, VS(0x1p-45)))));
        struct vout no;
        v_value(m, v_negq(q), VS(ENCL_EPS_ERFC), ok, o);
        v_value(vsub(VS(2.0), s), VS(0.0), VS(ENCL_EPS_ERFC + UD), ok, &no);
        v_merge(pos, &no, o);
    }
    if (many(ser)) {
        struct vout so;
        V e = v_erf_series(z);
        v_value(vsel(pos, vsub(VS(1.0), e), vadd(VS(1.0), e)), VS(0.0), VS(2 * UD), ser, &so);
        v_merge(ser, o, &so);
        *o = so;
    }
}

/* The lanes of o stored as out[0..GR_VEC_W-1], each {m, err, (int64_t)e, side 0} as the
 * batch loop stores a served lane one at a time: e is an integer (0 or -q) of magnitude below
 * 2^31, so e + 1.5 2^52 is exact and its low 52 bits, less those of 1.5 2^52, are e's two's
 * complement (the conversion's result); side's word is 0, its padding too.  The rows of four
 * structures are built by the transpose of four columns (m, err, e, 0); with AVX-512, of each
 * half of the eight lanes. */
_Static_assert(sizeof(struct geluref_encl) == 32 && offsetof(struct geluref_encl, m) == 0 &&
                   offsetof(struct geluref_encl, err) == 8 &&
                   offsetof(struct geluref_encl, e) == 16 &&
                   offsetof(struct geluref_encl, side) == 24,
               "struct geluref_encl is not four 64-bit words");
static inline void v_store4(__m256d m, __m256d err, __m256d e, struct geluref_encl *out)
{
    const __m256d magic = _mm256_set1_pd(0x1.8p52);
    __m256i ei = _mm256_sub_epi64(_mm256_castpd_si256(_mm256_add_pd(e, magic)),
                                  _mm256_castpd_si256(magic));
    __m256d r[4];
    v_transpose(m, err, _mm256_castsi256_pd(ei), _mm256_setzero_pd(), r);
    for (int l = 0; l < 4; l++)
        _mm256_storeu_pd((double *)(void *)&out[l], r[l]);
}
static inline void v_store(struct vout o, struct geluref_encl *out)
{
#if GR_VEC_W == 8
    v_store4(_mm512_castpd512_pd256(o.m), _mm512_castpd512_pd256(o.err),
             _mm512_castpd512_pd256(o.e), out);
    v_store4(_mm512_extractf64x4_pd(o.m, 1), _mm512_extractf64x4_pd(o.err, 1),
             _mm512_extractf64x4_pd(o.e, 1), out + 4);
#else
    v_store4(o.m, o.err, o.e, out);
#endif
}

/* Whether erf's or erfc's (f) vector path would serve none of x[0 .. GR_VEC_W-1] for certain,
 * decided with 256-bit operations only: erf's lanes with |x| >= 5.5 and erfc's with x <= -5.5
 * (or NaN) are never served, since there erfc(|x|) <= erfc(5.5) < 7.4e-15, below the 2^-45 =
 * 2.8e-14 that s must reach, by far more than the computed s's error (ENCL_EPS_ERFC
 * relative).  Such a batch goes to the scalar code whole, as each of its lanes would after
 * the vector work, so the enclosures are the same (and were the bound wrong, a lane sent so
 * would still get the scalar code's enclosure, the vector one's bits: only time is at stake;
 * tests/reference/test_fast_encl_vec.c checks the claim four at a time).  Measured over erf's
 * [-16, -6], in batches of 128 (one thread): the scalar code alone 9.4 ns an input; the vector
 * work and the scalar code after it 11.8 four at a time and 20 eight at a time; eight at a
 * time with this test 10.6 (the scalar code runs slower after 512-bit work; whether for the
 * registers' state or the clock, I could not tell here). */
static inline int v_erf_tail(enum geluref_func f, const double *x)
{
    const __m256d lo = _mm256_set1_pd(-5.5);
    const __m256d hi = _mm256_set1_pd(f == GELUREF_ERF ? 5.5 : INFINITY);
    int all = 1;
    for (int h = 0; h < GR_VEC_W; h += 4) { /* (NGT_UQ: a NaN lane counts too) */
        __m256d a = _mm256_loadu_pd(x + h);
        all &= _mm256_movemask_pd(_mm256_or_pd(_mm256_cmp_pd(a, lo, _CMP_NGT_UQ),
                                               _mm256_cmp_pd(a, hi, _CMP_GE_OQ))) == 15;
    }
    return all;
}

/* The batch: GR_VEC_W lanes at a time where the function has a vector path, each lane the
 * vector's or, where it left, gr_fast_encl_fma's (as ENCL_LOOP); the rest of the batch (by
 * gr_fast_encl_n_avx2 after eight at a time, then gr_fast_encl_n_fma) and the other
 * functions by gr_fast_encl_n_fma. */
#if GR_VEC_W == 8
#define GR_VEC_ENTRY gr_fast_encl_n_avx512
#define GR_VEC_REST gr_fast_encl_n_avx2
#define GR_VEC_LANES gr_fast_vec_lanes8
_Thread_local unsigned long gr_fast_vec_lanes8;
#else
#define GR_VEC_ENTRY gr_fast_encl_n_avx2
#define GR_VEC_REST gr_fast_encl_n_fma
#define GR_VEC_LANES gr_fast_vec_lanes
_Thread_local unsigned long gr_fast_vec_lanes;
#endif

size_t GR_VEC_ENTRY(enum geluref_func f, const double *x, size_t n, struct geluref_encl *out,
                    unsigned char *ok)
{
    switch (f) {
    case GELUREF_GELU:
    case GELUREF_NORMCDF:
    case GELUREF_NORMPDF:
    case GELUREF_GELU_GRAD:
    case GELUREF_GELU_TANH:
    case GELUREF_GELU_SIGMOID:
    case GELUREF_GELU_TANH_GRAD:
    case GELUREF_ERF:
    case GELUREF_ERFC:
        break;
    default:
        return gr_fast_encl_n_fma(f, x, n, out, ok);
    }
    size_t k = 0, i = 0;
    unsigned long lanes = 0; /* into GR_VEC_LANES once (a TLS access in a shared library is a
                                call) */
    for (; i + GR_VEC_W <= n; i += GR_VEC_W) {
        if ((f == GELUREF_ERF || f == GELUREF_ERFC) && v_erf_tail(f, x + i)) {
            /* served nowhere: the scalar code, without the vector work */
            k += gr_fast_encl_n_fma(f, x + i, GR_VEC_W, out + i, ok + i);
            continue;
        }
        V xv = vload(x + i);
        struct vout o;
        switch (f) {
        case GELUREF_GELU: v_gelu(xv, &o); break;
        case GELUREF_NORMCDF: v_normcdf(xv, &o); break;
        case GELUREF_NORMPDF: v_normpdf(xv, &o); break;
        case GELUREF_GELU_GRAD: v_gelu_grad(xv, &o); break;
        case GELUREF_GELU_TANH: v_approx(xv, 1, &o); break;
        case GELUREF_GELU_SIGMOID: v_approx(xv, 0, &o); break;
        case GELUREF_GELU_TANH_GRAD: v_tanh_grad(xv, &o); break;
        case GELUREF_ERF: v_erf(xv, &o); break;
        default: v_erfc(xv, &o); break;
        }
        unsigned served = mbits(o.ok);
        lanes += (unsigned long)__builtin_popcount(served);
        if (served == MALL) { /* the structures at once: the loop's stores below */
            v_store(o, &out[i]);
            memset(ok + i, 1, GR_VEC_W);
            k += GR_VEC_W;
            continue;
        }
        double m[GR_VEC_W], e[GR_VEC_W], err[GR_VEC_W];
        vstore(m, o.m);
        vstore(e, o.e);
        vstore(err, o.err);
        for (int l = 0; l < GR_VEC_W; l++) {
            double xi = x[i + l];
            if (served >> l & 1) {
                out[i + l].m = m[l];
                out[i + l].err = err[l];
                out[i + l].e = (int64_t)e[l];
                out[i + l].side = 0;
                ok[i + l] = 1;
            } else {
                ok[i + l] = fabs(xi) >= 0x1p-500 && fabs(xi) <= 0x1p+11 &&
                            gr_fast_encl_fma(f, xi, &out[i + l]) == 0;
            }
            k += ok[i + l];
        }
    }
    GR_VEC_LANES += lanes;
    if (i < n)
        k += GR_VEC_REST(f, x + i, n - i, out + i, ok + i);
    return k;
}
