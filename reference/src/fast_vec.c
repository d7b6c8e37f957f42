/* The double tier's enclosures (fast_fn.c "the double tier of every function"), four inputs
 * at a time with AVX2 and FMA: gr_fast_encl_n_avx2, which geluref_enclose_n takes where the
 * CPU reports both (odd.c).
 *
 * Each lane performs the very operations of the FMA build's scalar evaluator (fast_fn.c
 * encl_gelu, encl_normcdf, encl_normpdf, encl_gelu_grad, encl_erfc, encl_erf, encl_approx,
 * encl_tanh_grad, with fast_phi.h's gr_fast_exp_neg_d and gr_fast_mills_d and dd.h's
 * algorithms), in the same order: additions, products, quotients and fused multiply-adds
 * are correctly rounded whether one or four are computed at once, and nothing is contracted (-ffp-contract=off; the
 * fused steps are the scalar code's fma() calls, here _mm256_fmadd_pd and _mm256_fmsub_pd
 * for fma(a, b, -p)); the rounding to an integer is the scalar code's nearbyint (the current
 * rounding direction, no inexact exception).  So each lane's enclosure is the scalar one bit
 * for bit, and the scalar error analysis is the proof of both.  A lane leaves the vector path
 * where the scalar code would branch elsewhere (the series near 0 of gelu, erf and erfc are
 * computed too; the one-sided saturation enclosures, a power of two outside the normal
 * doubles, a range check, a bound that gives up): that lane is evaluated by the scalar
 * gr_fast_encl_fma.
 * tests/reference/test_fast_encl_vec.c compares both bit for bit on random inputs, every
 * boundary of the branches and every alignment of a batch; test_fast_encl checks this
 * build's enclosures against f(x) at 300 bits as it does the scalar builds'.
 *
 * Compiled only on x86-64, with -mavx2 -mfma (reference/CMakeLists.txt). */
#include <immintrin.h>
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "fast_phi.h" /* fast.h, and INV_LN2_1024 */

#define UD 0x1p-53 /* u */

typedef __m256d V;
typedef struct {
    V hi, lo;
} vdd;

#define VS(c) _mm256_set1_pd(c)
#define ROUND_CUR (_MM_FROUND_CUR_DIRECTION | _MM_FROUND_NO_EXC) /* nearbyint */

static inline V vadd(V a, V b) { return _mm256_add_pd(a, b); }
static inline V vsub(V a, V b) { return _mm256_sub_pd(a, b); }
static inline V vmul(V a, V b) { return _mm256_mul_pd(a, b); }
static inline V vdiv(V a, V b) { return _mm256_div_pd(a, b); }
static inline V vfma(V a, V b, V c) { return _mm256_fmadd_pd(a, b, c); }
static inline V vabs(V a) { return _mm256_andnot_pd(VS(-0.0), a); }
static inline V vneg(V a) { return _mm256_xor_pd(a, VS(-0.0)); }
/* comparisons as masks (ordered: NaN compares false, as in C) */
static inline V vle(V a, V b) { return _mm256_cmp_pd(a, b, _CMP_LE_OQ); }
static inline V vlt(V a, V b) { return _mm256_cmp_pd(a, b, _CMP_LT_OQ); }
static inline V vgt(V a, V b) { return _mm256_cmp_pd(a, b, _CMP_GT_OQ); }
static inline V vge(V a, V b) { return _mm256_cmp_pd(a, b, _CMP_GE_OQ); }
static inline V vne(V a, V b) { return _mm256_cmp_pd(a, b, _CMP_NEQ_OQ); }
static inline V vand(V a, V b) { return _mm256_and_pd(a, b); }
static inline V vandnot(V a, V b) { return _mm256_andnot_pd(a, b); } /* ~a & b */
static inline V vor(V a, V b) { return _mm256_or_pd(a, b); }
static inline V vsel(V m, V a, V b) { return _mm256_blendv_pd(b, a, m); } /* m ? a : b */

/* dd.h, lane by lane */
static inline vdd v_two_prod(V a, V b)
{
    V p = vmul(a, b);
    return (vdd){ p, _mm256_fmsub_pd(a, b, p) }; /* fma(a, b, -p) */
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

/* 2^-q for integers 0 <= q <= 1022 (int32 lanes): the bits of a normal double; dd_ldexp's
 * product by it is its normal-range branch.  Lanes with another q are left by the caller. */
static inline V v_pow2_neg(__m128i q)
{
    __m256i b = _mm256_slli_epi64(_mm256_cvtepi32_epi64(_mm_sub_epi32(_mm_set1_epi32(1023), q)),
                                  52);
    return _mm256_castsi256_pd(b);
}
/* lanes whose q lies in [0, 1022], as a mask */
static inline V v_q_normal(__m128i q)
{
    __m128i bad = _mm_or_si128(_mm_cmpgt_epi32(q, _mm_set1_epi32(1022)),
                               _mm_cmplt_epi32(q, _mm_setzero_si128()));
    return _mm256_castsi256_pd(_mm256_cvtepi32_epi64(_mm_xor_si128(bad, _mm_set1_epi32(-1))));
}

/* gr_fast_exp_neg_d: e^(-y) = E 2^-q, q in int32 lanes (N < 2^22 for y <= 2048; other lanes
 * give some q and are left by the caller's range test). */
static inline V v_exp_neg_d(vdd y, __m128i *q)
{
    V nd = _mm256_round_pd(vmul(y.hi, VS(INV_LN2_1024)), ROUND_CUR);
    V r = vsub(vadd(vsub(vsub(y.hi, vmul(nd, VS(gr_fast_ln2_1))), vmul(nd, VS(gr_fast_ln2_2))),
                    y.lo),
               vmul(nd, VS(gr_fast_ln2_3)));
    V s = vneg(r);
    V t = vfma(s, VS(0x1.1111111111111p-7), VS(0x1.5555555555555p-5)); /* 1/120, 1/24 */
    t = vfma(t, s, VS(0x1.5555555555555p-3));                           /* 1/6 */
    t = vfma(t, s, VS(0.5));
    t = vfma(t, s, VS(1.0));
    V e = vfma(t, s, VS(1.0));
    __m128i n = _mm256_cvttpd_epi32(nd); /* nd is an integer: (int64_t)nd where in range */
    *q = _mm_srai_epi32(n, 10);
    __m128i j = _mm_and_si128(n, _mm_set1_epi32(1023));
    /* the table's .hi, gathered, or broadcast where the four lanes share j (a sweep's
     * batch, mostly: the same value) */
    int j0 = _mm_cvtsi128_si32(j);
    V t2 = _mm_movemask_epi8(_mm_cmpeq_epi32(j, _mm_set1_epi32(j0))) == 0xffff
               ? _mm256_broadcast_sd(&gr_fast_exp2[j0].hi)
               : _mm256_i32gather_pd((const double *)gr_fast_exp2, _mm_slli_epi32(j, 1), 8);
    return vmul(e, t2);
}

/* columns k = 0..3 of four rows r_l (the coefficients k of four lanes) */
static inline void v_transpose(V r0, V r1, V r2, V r3, V *c)
{
    V t0 = _mm256_unpacklo_pd(r0, r1), t1 = _mm256_unpackhi_pd(r0, r1);
    V t2 = _mm256_unpacklo_pd(r2, r3), t3 = _mm256_unpackhi_pd(r2, r3);
    c[0] = _mm256_permute2f128_pd(t0, t2, 0x20);
    c[1] = _mm256_permute2f128_pd(t1, t3, 0x20);
    c[2] = _mm256_permute2f128_pd(t0, t2, 0x31);
    c[3] = _mm256_permute2f128_pd(t1, t3, 0x31);
}

/* gr_fast_mills_d's polynomial at t for the grid indices iv (clamped into the table for the
 * lanes outside, left by the caller, so that no load leaves it): each lane's row of the
 * tables is loaded whole (8 and 4 contiguous coefficients) and transposed, or where the four
 * lanes share one row (a sweep's batch: a step of 2^-5 in z holds many inputs) its
 * coefficients are broadcast, the same values as the transpose's columns. */
static inline V v_mills_poly(__m128i iv, V t)
{
    V mh[8], mt[4];
    int i0 = _mm_cvtsi128_si32(iv);
    if (_mm_movemask_epi8(_mm_cmpeq_epi32(iv, _mm_set1_epi32(i0))) == 0xffff) {
        for (int k = 0; k < 8; k++)
            mh[k] = _mm256_broadcast_sd(&gr_fast_mh[i0][k]);
        for (int k = 0; k < 3; k++)
            mt[k] = _mm256_broadcast_sd(&gr_fast_mt[i0][k]);
    } else {
        int i[4];
        _mm_storeu_si128((__m128i *)i, iv);
        v_transpose(_mm256_loadu_pd(gr_fast_mh[i[0]]), _mm256_loadu_pd(gr_fast_mh[i[1]]),
                    _mm256_loadu_pd(gr_fast_mh[i[2]]), _mm256_loadu_pd(gr_fast_mh[i[3]]), mh);
        v_transpose(_mm256_loadu_pd(gr_fast_mh[i[0]] + 4), _mm256_loadu_pd(gr_fast_mh[i[1]] + 4),
                    _mm256_loadu_pd(gr_fast_mh[i[2]] + 4), _mm256_loadu_pd(gr_fast_mh[i[3]] + 4),
                    mh + 4);
        v_transpose(_mm256_loadu_pd(gr_fast_mt[i[0]]), _mm256_loadu_pd(gr_fast_mt[i[1]]),
                    _mm256_loadu_pd(gr_fast_mt[i[2]]), _mm256_loadu_pd(gr_fast_mt[i[3]]), mt);
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
    __m128i iv = _mm256_cvtpd_epi32(_mm256_round_pd(vmul(z, VS(32.0)), ROUND_CUR));
    iv = _mm_min_epi32(_mm_max_epi32(iv, _mm_setzero_si128()), _mm_set1_epi32(GR_M_POINTS - 1));
    return v_mills_poly(iv, vsub(z, vmul(_mm256_cvtepi32_pd(iv), VS(0x1p-5))));
}

/* encl_gauss: phi(z) = g 2^-q */
static inline V v_gauss(V z, __m128i *q)
{
    vdd y = v_two_prod(z, z);
    y = (vdd){ vmul(y.hi, VS(0.5)), vmul(y.lo, VS(0.5)) };
    return vmul(v_exp_neg_d(y, q), VS(gr_fast_inv_sqrt2pi.hi));
}

/* One batch of four: m, the exponent e (an integer held as a double), err, and the mask of
 * the lanes the vector path served (all bits set). */
struct vout {
    V m, e, err, ok;
};

/* -q as doubles (exact) */
static inline V v_negq(__m128i q) { return vneg(_mm256_cvtepi32_pd(q)); }

/* encl_value's test and bound: rel *= 1.01; served where rel < 2^-40, m != 0 and |m| finite;
 * err = rel |m| (1 + 2^-40). */
static inline void v_value(V m, V e, V rel, V ok, struct vout *o)
{
    rel = vmul(rel, VS(1.01));
    V am = vabs(m);
    ok = vand(ok, vand(vlt(rel, VS(0x1p-40)),
                       vand(vne(m, VS(0.0)), vle(am, VS(0x1.fffffffffffffp+1023)))));
    o->m = m;
    o->e = e;
    o->err = vmul(vmul(rel, am), VS(1 + 0x1p-40));
    o->ok = ok;
}

/* the lanes of o where m is set, the rest from a */
static inline void v_merge(V m, const struct vout *a, struct vout *o)
{
    o->m = vsel(m, o->m, a->m);
    o->e = vsel(m, o->e, a->e);
    o->err = vsel(m, o->err, a->err);
    o->ok = vsel(m, o->ok, a->ok);
}

/* x in the batch loop's range (ENCL_LOOP: 2^-500 <= |x| <= 2^11, which also holds the
 * evaluator's |x| >= 2^-500; NaN fails) */
static inline V v_in_range(V z) { return vand(vge(z, VS(0x1p-500)), vle(z, VS(0x1p+11))); }

static inline int v_any(V m) { return _mm256_movemask_pd(m) != 0; }

/* encl_gelu */
#define GELU_SERIES_X 0x1p-10 /* fast_fn.c */
static inline void v_gelu(V x, struct vout *o)
{
    V z = vabs(x);
    V in = v_in_range(z);
    V ser = vand(in, vle(z, VS(GELU_SERIES_X)));
    V main = vandnot(ser, vand(in, vle(z, VS(60.0))));
    struct vout so;
    *o = (struct vout){ VS(0.0), VS(0.0), VS(0.0), VS(0.0) };
    if (v_any(main)) {
        vdd y = v_two_prod(z, z);
        y = (vdd){ vmul(y.hi, VS(0.5)), vmul(y.lo, VS(0.5)) };
        __m128i q;
        V p = vmul(vmul(v_exp_neg_d(y, &q), VS(gr_fast_inv_sqrt2pi.hi)), v_mills_d(z));
        V neg = vlt(x, VS(0.0));
        if (_mm256_movemask_pd(vandnot(neg, main)) == 0) { /* no lane of x > 0 to serve */
            v_value(vmul(p, x), v_negq(q), VS(12 * UD), main, o);
        } else {
            /* x > 0: s = p 2^-q, served where q <= 1022 (dd_ldexp's product) and s >= 2^-45
             * (else the one-sided enclosure) */
            V s = vmul(p, v_pow2_neg(q));
            V ok = vand(main, vor(neg, vand(v_q_normal(q), vge(s, VS(0x1p-45)))));
            V m = vsel(neg, vmul(p, x), vmul(vsub(VS(1.0), s), x));
            v_value(m, vand(neg, v_negq(q)), VS(12 * UD), ok, o);
        }
    }
    if (v_any(ser)) { /* x/2 + T */
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
    V ok = vand(v_in_range(z), vle(z, VS(60.0)));
    __m128i q;
    V p = vmul(v_gauss(z, &q), v_mills_d(z));
    V neg = vlt(x, VS(0.0));
    V s = vmul(p, v_pow2_neg(q));
    ok = vand(ok, vor(neg, vand(v_q_normal(q), vge(s, VS(0x1p-45)))));
    struct vout po;
    v_value(p, v_negq(q), VS(9.8 * UD), ok, o);
    v_value(vsub(VS(1.0), s), VS(0.0), VS(10.8 * UD), ok, &po);
    v_merge(neg, &po, o);
}

/* encl_normpdf */
static inline void v_normpdf(V x, struct vout *o)
{
    V ok = vand(v_in_range(vabs(x)), vle(vabs(x), VS(60.0)));
    __m128i q;
    V g = v_gauss(x, &q);
    v_value(g, v_negq(q), VS(5.1 * UD), ok, o);
}

/* encl_gelu_grad */
static inline void v_gelu_grad(V x, struct vout *o)
{
    V z = vabs(x);
    V ok = vand(v_in_range(z), vle(z, VS(60.0)));
    __m128i q;
    V g = v_gauss(z, &q);
    V mz = v_mills_d(z);
    V neg = vlt(x, VS(0.0));
    V d = vsel(neg, vsub(mz, z), vsub(z, mz));
    V ad = vabs(d);
    ok = vand(ok, vne(d, VS(0.0)));
    V ed = vmul(vdiv(vadd(vmul(vmul(VS(3.7 * UD), mz), VS(1.01)), vmul(VS(UD), ad)), ad),
                VS(1.01));
    ok = vand(ok, vlt(ed, VS(0x1p-40)));
    V p = vmul(g, d);
    V e1 = vadd(vadd(ed, VS(5.1 * UD)), VS(UD)); /* ed + ENCL_EPS_G + UD */
    /* each sign's branch only where a lane takes it (x > 0 has a quotient more): a sweep's
     * batches are of one sign */
    int nm = _mm256_movemask_pd(neg);
    if (nm != 0)
        v_value(p, v_negq(q), e1, ok, o);
    if (nm != 15) {
        /* x > 0: s = p 2^-q (q <= 1022), |s| >= 2^-45; f = 1 + s */
        V s = vmul(p, v_pow2_neg(q));
        V okp = vand(ok, vor(neg, vand(v_q_normal(q), vge(vabs(s), VS(0x1p-45)))));
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
static inline V v_weight(V z, int tanh_form, __m128i *q, V *ew, V *ok)
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
    *ok = vand(*ok, vle(a.hi, VS(GR_EXP_YMAX)));
    *ew = vadd(VS(3.1 * UD), vmul(vmul(VS(1.01 * ea), a.hi), VS(1.01)));
    V e = v_exp_neg_d(a, q);
    *ok = vandnot(vlt(e, VS(0.0)), *ok);
    return e;
}

/* encl_approx */
static inline void v_approx(V x, int tanh_form, struct vout *o)
{
    V z = vabs(x);
    V ok = vand(v_in_range(z), vle(z, VS(tanh_form ? 30.0 : 1200.0)));
    __m128i q;
    V ew;
    V e = v_weight(z, tanh_form, &q, &ew, &ok);
    /* w = E 2^-q: served where q <= 1022 (dd_ldexp's product; q > 1100 gives 0 there) */
    ok = vand(ok, v_q_normal(q));
    V w = vmul(e, v_pow2_neg(q));
    V d = vadd(VS(1.0), w);
    V ed = vadd(vadd(vmul(vmul(ew, w), VS(1.01)), VS(UD)), VS(0x1p-1022));
    V neg = vlt(x, VS(0.0));
    ok = vand(ok, vor(neg, vge(w, VS(0x1p-45)))); /* x > 0, w < 2^-45: one-sided */
    /* each sign's branch only where a lane takes it (its quotient is dear): a sweep's
     * batches are of one sign */
    int nm = _mm256_movemask_pd(neg);
    struct vout po;
    if (nm != 0)
        v_value(vdiv(vmul(x, e), d), v_negq(q), vadd(vadd(ew, ed), VS(2 * UD)), ok, o);
    if (nm != 15) {
        v_value(vdiv(x, d), VS(0.0), vadd(ed, VS(UD)), ok, nm == 0 ? o : &po);
        if (nm != 0)
            v_merge(neg, &po, o);
    }
}

/* encl_tanh_grad */
static inline void v_tanh_grad(V x, struct vout *o)
{
    V z = vabs(x);
    V ok = vand(v_in_range(z), vle(z, VS(30.0)));
    __m128i q;
    V ew;
    V e = v_weight(z, 1, &q, &ew, &ok);
    ok = vand(ok, v_q_normal(q));
    V w = vmul(e, v_pow2_neg(q));
    V d = vadd(VS(1.0), w);
    V ed = vadd(vadd(vmul(vmul(ew, w), VS(1.01)), VS(UD)), VS(0x1p-1022));
    V big = vadd(VS(1.0), vmul(VS(3 * gr_fast_tanh_c.hi), vmul(x, x)));
    V am = vmul(vmul(big, VS(2 * gr_fast_sqrt_2_pi.hi)), x);
    V eam = VS(8 * UD);
    V neg = vlt(x, VS(0.0));
    /* x > 2 and A w < 2^-45: one-sided */
    ok = vandnot(vand(vgt(x, VS(2.0)), vlt(vmul(am, w), VS(0x1p-45))), ok);
    /* each sign's branch only where a lane takes it (three quotients each): a sweep's
     * batches are of one sign */
    int nm = _mm256_movemask_pd(neg);
    struct vout po;
    if (nm != 15) { /* x > 0 */
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
    V nok = vand(ok, vand(vne(b, VS(0.0)), vlt(eb, VS(0x1p-40))));
    v_value(vmul(vdiv(e, d), b), v_negq(q),
            vadd(vadd(vadd(vadd(ew, ed), VS(UD)), eb), VS(UD)), nok, o);
    if (nm != 15)
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
    __m128i iv = _mm256_cvtpd_epi32(_mm256_round_pd(vmul(w.hi, VS(32.0)), ROUND_CUR));
    iv = _mm_min_epi32(_mm_max_epi32(iv, _mm_setzero_si128()), _mm_set1_epi32(GR_M_POINTS - 1));
    V t = vadd(vsub(w.hi, vmul(_mm256_cvtepi32_pd(iv), VS(0x1p-5))), w.lo);
    return v_mills_poly(iv, t);
}

/* encl_erfc_pos: erfc(z) = m 2^-q, z in [2^-500, 42.7] */
#define ERFC_ZMAX 42.7 /* fast_fn.c */
#define ENCL_EPS_ERFC (11 * UD)
static inline V v_erfc_pos(V z, __m128i *q)
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
    V in = v_in_range(z);
    V ser = vand(in, vlt(z, VS(0x1p-4)));
    V main = vandnot(ser, vand(in, vle(z, VS(ERFC_ZMAX))));
    *o = (struct vout){ VS(0.0), VS(0.0), VS(0.0), VS(0.0) };
    if (v_any(main)) {
        __m128i q;
        V m = v_erfc_pos(z, &q);
        V s = vmul(m, v_pow2_neg(q));
        V ok = vand(main, vand(v_q_normal(q), vge(s, VS(0x1p-45))));
        V r = vsub(VS(1.0), s);
        V rel = vadd(vmul(vdiv(vmul(VS(ENCL_EPS_ERFC), s), r), VS(1.01)), VS(UD));
        v_value(vsel(vlt(x, VS(0.0)), vneg(r), r), VS(0.0), rel, ok, o);
    }
    if (v_any(ser)) {
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
    V in = v_in_range(z);
    V ser = vand(in, vlt(z, VS(0x1p-4)));
    V main = vandnot(ser, vand(in, vle(z, VS(ERFC_ZMAX))));
    V pos = vgt(x, VS(0.0));
    *o = (struct vout){ VS(0.0), VS(0.0), VS(0.0), VS(0.0) };
    if (v_any(main)) {
        __m128i q;
        V m = v_erfc_pos(z, &q);
        V s = vmul(m, v_pow2_neg(q));
        V ok = vand(main, vor(pos, vand(v_q_normal(q), vge(s, VS(0x1p-45)))));
        struct vout no;
        v_value(m, v_negq(q), VS(ENCL_EPS_ERFC), ok, o);
        v_value(vsub(VS(2.0), s), VS(0.0), VS(ENCL_EPS_ERFC + UD), ok, &no);
        v_merge(pos, &no, o);
    }
    if (v_any(ser)) {
        struct vout so;
        V e = v_erf_series(z);
        v_value(vsel(pos, vsub(VS(1.0), e), vadd(VS(1.0), e)), VS(0.0), VS(2 * UD), ser, &so);
        v_merge(ser, o, &so);
        *o = so;
    }
}

/* The four lanes of o stored as out[0..3], each {m, err, (int64_t)e, side 0} as the batch
 * loop stores a served lane one at a time: e is an integer (0 or -q) of magnitude below 2^31,
 * so e + 1.5 2^52 is exact and its low 52 bits, less those of 1.5 2^52, are e's two's
 * complement (the conversion's result); side's word is 0, its padding too.  The rows are
 * built by the transpose of four columns (m, err, e, 0). */
_Static_assert(sizeof(struct geluref_encl) == 32 && offsetof(struct geluref_encl, m) == 0 &&
                   offsetof(struct geluref_encl, err) == 8 &&
                   offsetof(struct geluref_encl, e) == 16 &&
                   offsetof(struct geluref_encl, side) == 24,
               "struct geluref_encl is not four 64-bit words");
static inline void v_store4(struct vout o, struct geluref_encl *out)
{
    const V magic = VS(0x1.8p52);
    __m256i ei = _mm256_sub_epi64(_mm256_castpd_si256(vadd(o.e, magic)),
                                  _mm256_castpd_si256(magic));
    V r[4];
    v_transpose(o.m, o.err, _mm256_castsi256_pd(ei), _mm256_setzero_pd(), r);
    for (int l = 0; l < 4; l++)
        _mm256_storeu_pd((double *)(void *)&out[l], r[l]);
}

/* The batch: four lanes at a time where the function has a vector path, each lane the
 * vector's or, where it left, gr_fast_encl_fma's (as ENCL_LOOP); the rest of the batch and
 * the other functions by gr_fast_encl_n_fma. */
_Thread_local unsigned long gr_fast_vec_lanes;

size_t gr_fast_encl_n_avx2(enum geluref_func f, const double *x, size_t n,
                           struct geluref_encl *out, unsigned char *ok)
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
    unsigned long lanes = 0; /* into gr_fast_vec_lanes once (a TLS access in a shared library
                                is a call) */
    for (; i + 4 <= n; i += 4) {
        V xv = _mm256_loadu_pd(x + i);
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
        int served = _mm256_movemask_pd(o.ok);
        lanes += (unsigned long)__builtin_popcount((unsigned)served);
        if (served == 15) { /* the four structures at once: the loop's stores below */
            v_store4(o, &out[i]);
            memcpy(ok + i, &(uint32_t){ 0x01010101u }, 4);
            k += 4;
            continue;
        }
        double m[4], e[4], err[4];
        _mm256_storeu_pd(m, o.m);
        _mm256_storeu_pd(e, o.e);
        _mm256_storeu_pd(err, o.err);
        for (int l = 0; l < 4; l++) {
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
    gr_fast_vec_lanes += lanes;
    if (i < n)
        k += gr_fast_encl_n_fma(f, x + i, n - i, out + i, ok + i);
    return k;
}
