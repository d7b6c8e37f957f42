/* The fast path's two building blocks: e^(-y) and the Mills ratio M(z) = Phi(-z)/phi(z), in
 * double-double with proved relative error bounds (u = 2^-53; DD_EPS and the dd bounds are
 * in dd.h; the table conditions are checked by reference/gen/gen_fast_tables.c).  Included
 * by fast_fn.c, which is compiled once per instruction-set variant (fast.h), and by
 * fast_vec.c, whose lanes perform the double tier's operations (its constants from here). */
#ifndef GELUREF_FAST_PHI_H
#define GELUREF_FAST_PHI_H

#include "fast.h"

/* a b + c for the double parts of the evaluations: one fused instruction in the FMA variant,
 * two roundings otherwise; the error analyses charge two roundings. */
#ifdef GR_FAST_FMA
#define GR_MULADD(a, b, c) fma((a), (b), (c))
#else
#define GR_MULADD(a, b, c) ((a) * (b) + (c))
#endif

/* 1/k! as double-double for k = 2..4 (1/2 exact; 1/6 and 1/24 with relative error 2^-106),
 * and 1/k! rounded to double for k = 5..8 (relative error 2^-53). */
static const dd INV_FACT3 = { 0x1.5555555555555p-3, 0x1.5555555555555p-57 };
static const dd INV_FACT4 = { 0x1.5555555555555p-5, 0x1.5555555555555p-59 };
#define INV_FACT5 0x1.1111111111111p-7
#define INV_FACT6 0x1.6c16c16c16c17p-10
#define INV_FACT7 0x1.a01a01a01a01ap-13
#define INV_FACT8 0x1.a01a01a01a01ap-16
#define INV_LN2_1024 0x1.71547652b82fep+10 /* 1024/ln2 rounded: only chooses N */

/* The range reduction of e^(-y), y in [0, 2048]: N = round(1024 y/ln2) < 2^22, q = N >> 10,
 * j = N & 1023, e^(-y) = 2^-q 2^(-j/1024) e^(-r), r = y - N ln2/1024; returns s = -r.
 *  a = y.hi - N L1 is exact (N L1 has 22 + 31 bits; N >= 1 puts N L1 within a factor 2 of
 *  y.hi, Sterbenz; N = 0: a = y.hi); N L2 is exact too; two_sum is exact; adding y.lo and
 *  -N L3 errs by 2u^2 |r| each (dd_add_d); N L3 rounds by <= 2^-53 |N L3| < 2^-104, and
 *  L1 + L2 + L3 misses ln2/1024 by < 2^-126, times N < 2^22: |r~ - r| < 2^-102.8 in all.
 *  |r| <= (1/2 + 2^-30) ln2/1024 + |y.lo| < 2^-11.5. */
static inline dd gr_fast_exp_reduce(dd y, int64_t *n)
{
    double nd = nearbyint(y.hi * INV_LN2_1024);
    double a = y.hi - nd * gr_fast_ln2_1;
    dd r = two_sum(a, -(nd * gr_fast_ln2_2));
    r = dd_add_d(r, y.lo);
    r = dd_add_d(r, -(nd * gr_fast_ln2_3));
    *n = (int64_t)nd;
    return dd_neg(r);
}

/* e^(-y) = m 2^-q:
 *  e^(-r) = sum_{k<=8} s^k/k!, s = -r: truncation < |s|^9/9! 1.01 < 2^-122.  The terms
 *     k >= 5 in double with s.hi: each < 2^-57.5 |...| absolute error < 2^-114.  The dd Horner
 *     steps k = 4..0: the last dd_add errs by 3u^2, the last dd_mul by 4u^2 |s| < 2^-113,
 *     earlier steps weigh |s|^k less: < 3.1u^2 = 2^-104.4 in all.
 *  the product with the table entry (relative error 2^-106): 4u^2 + 2^-106.
 * With the reduction: < 2^-102.8 + 2^-104.4 + 2^-104 + 2^-105 < 2^-101.4 <= GR_EPS_EXP. */
static inline dd gr_fast_exp_neg(dd y, int64_t *q)
{
    int64_t n;
    dd s = gr_fast_exp_reduce(y, &n);
    double t = INV_FACT8;
    t = t * s.hi + INV_FACT7;
    t = t * s.hi + INV_FACT6;
    t = t * s.hi + INV_FACT5;
    dd p = dd_add(dd_mul_d(s, t), INV_FACT4);
    p = dd_add(dd_mul(p, s), INV_FACT3);
    p = dd_add_d(dd_mul(p, s), 0.5);
    p = dd_add_d(dd_mul(p, s), 1.0);
    p = dd_add_d(dd_mul(p, s), 1.0);
    *q = n >> 10;
    return dd_mul(p, gr_fast_exp2[n & 1023]);
}

/* The light variant (binary32 and narrower: results decided at p + 16 <= 40 bits): terms up
 * to s^6/6! (truncation < |s|^7/7! 1.01 < 2^-92), those k >= 2 in double: they are < |s|^2/2
 * 1.01 < 2^-24, so their rounding (2u of their sum, with s.hi for s: |s.lo| < 2^-64) costs
 * < 2^-76; then 1 + s (1 + s T) in dd: 3 operations, < 2^-102.  With the reduction and the
 * table: < 2^-75 <= GR_EPS_EXP_LIGHT. */
static inline dd gr_fast_exp_neg_light(dd y, int64_t *q)
{
    int64_t n;
    dd s = gr_fast_exp_reduce(y, &n);
    double t = GR_MULADD(INV_FACT6, s.hi, INV_FACT5);
    t = GR_MULADD(t, s.hi, 0x1.5555555555555p-5); /* 1/24 */
    t = GR_MULADD(t, s.hi, 0x1.5555555555555p-3); /* 1/6 */
    t = GR_MULADD(t, s.hi, 0.5);
    dd p = dd_add_d(dd_mul_d(s, t), 1.0);
    p = dd_add_d(dd_mul(p, s), 1.0);
    *q = n >> 10;
    return dd_mul(p, gr_fast_exp2[n & 1023]);
}

/* The light variant: 11 terms (remainder <= 2^-72 M, generator), the terms k >= 3 in double
 * (their sum is <= 2^-16 M, generator), so 8 Horner steps, each rounding once or twice
 * (GR_MULADD), cost < 2 2^-52 2^-16 M = 2^-67 M; then three dd steps (< 2^-101).  In all
 * < 2^-66.9 M <= GR_EPS_M_LIGHT. */
static inline dd gr_fast_mills_light(dd z)
{
    int i = (int)nearbyint(z.hi * 32.0);
    dd t = two_sum(z.hi - i * 0x1p-5, z.lo);
    const double *mh = gr_fast_mh[i], *mt = gr_fast_mt[i];
    double tail = GR_MULADD(mt[2], t.hi, mt[1]);
    tail = GR_MULADD(tail, t.hi, mt[0]);
    for (int k = 7; k >= 3; k--)
        tail = GR_MULADD(tail, t.hi, mh[k]);
    const double *ml = gr_fast_ml[i];
    dd s = dd_add(dd_mul_d(t, tail), dd_make(mh[2], ml[2]));
    s = dd_add(dd_mul(s, t), dd_make(mh[1], ml[1]));
    return dd_add(dd_mul(s, t), dd_make(mh[0], ml[0]));
}

/* ---- the double tier: e^(-y) and M(z) in double, for results of at most 40 bits ----
 * (fast_fn.c gelu_double: about 2^-49 in all, against 2^-66 of the light variants; where
 * that does not decide, the light variants do.)  u = 2^-53. */

/* e^(-y) = m 2^-q for y = y.hi + y.lo in [0, 2048], relative error < 3.1u:
 *  r = y - N ln2/1024 as in gr_fast_exp_reduce, but in double: a = y.hi - N L1 and N L2 are
 *  exact, then three additions (a - N L2, + y.lo, - N L3) round by u |r| 1.01 each, with
 *  |r| < 2^-11.4; N L3 < 2^22 2^-72 rounds by < 2^-102; L1 + L2 + L3 misses ln2/1024 by
 *  < 2^-126, times N: the computed r is within 2^-62.7 of the true one, which moves e^(-r)
 *  by a relative 2^-62.7 (1 + 2^-11).
 *  e^(-r) = 1 + s (1 + s (1/2 + s (1/6 + s (1/24 + s/120)))), s = -r: truncation
 *  < |s|^6/720 1.01 < 2^-78; the last addition rounds by u, the rest (|s T| < 2^-11.3, each
 *  of its operations and coefficients within u, at most 3u of it) by < 2^-62.
 *  Times the table's 2^(-j/1024) rounded to double (u) and the product's rounding (u): in
 *  all < (1 + 2^-8.9 + 1 + 1 + 2^-9.7) u < 3.1u. */
static inline double gr_fast_exp_neg_d(dd y, int64_t *q)
{
    double nd = nearbyint(y.hi * INV_LN2_1024);
    double r = ((y.hi - nd * gr_fast_ln2_1) - nd * gr_fast_ln2_2 + y.lo) - nd * gr_fast_ln2_3;
    double s = -r;
    double t = GR_MULADD(s, 0x1.1111111111111p-7, 0x1.5555555555555p-5); /* 1/120, 1/24 */
    t = GR_MULADD(t, s, 0x1.5555555555555p-3);                           /* 1/6 */
    t = GR_MULADD(t, s, 0.5);
    t = GR_MULADD(t, s, 1.0);
    double e = GR_MULADD(t, s, 1.0);
    int64_t n = (int64_t)nd;
    *q = n >> 10;
    return e * gr_fast_exp2[n & 1023].hi;
}

/* The tanh form's exponent a = 2 |u(z)| = 2 sqrt(2/pi) z (1 + c2 z^2) for the double tier
 * (encl_weight), z in [2^-500, 30]: a.hi + a.lo within ea a of it, ea = GR_TANH_ARG_EA =
 * 36u^2 (a <= 2048: under 2^-84 absolutely, where the exponential's own error is 3.1u), plus
 * an absolute 2^-1070 for error terms that fall below the normal doubles.  fast_fn.c's
 * tanh_arg renormalises after every operation (15u^2); here the error terms are carried
 * unnormalised and their smallest products dropped, which the double tier can afford: 20
 * operations against 38, and a shorter chain of dependent ones (fast_vec.c performs the same
 * operations four lanes at a time, so the four-at-a-time enclosures stay the scalar bits).
 * u = 2^-53; C = c2.hi + c2.lo and S = 2 sqrt(2/pi) (.hi and .lo doubled, exact) are each
 * within u^2 of their reals, |c2.lo| <= u c2.hi, |S.lo| <= u S.hi.  Each fma() rounds once
 * (dd.h), by at most u of its result (or 2^-1075 below the normal doubles).
 *  Z = z2.hi + z2.lo = z^2 exactly; p.hi + p.lo = c2.hi z2.hi exactly (|p.lo| <= u p.hi).
 *  pl = fma(c2.hi, z2.lo, fma(c2.lo, z2.hi, p.lo)): the inner sum is at most 2.01u c2.hi
 *   z2.hi and rounds by 2.01u^2 of it, the outer at most 3.02u and rounds by 3.02u^2, and
 *   c2.lo z2.lo (dropped) is at most u^2: p.hi + pl = C Z within 6.1u^2 of it, |pl| <= 3.04u
 *   p.hi.
 *  t.hi + t0 = 1 + p.hi exactly (two_sum, |t0| <= u t.hi); tl = t0 + pl rounds by u |t0 +
 *   pl| <= 4.04u^2 t.hi: t.hi + tl = T = 1 + C Z within (6.1 + 4.1)u^2 T = 10.2u^2 T, |tl|
 *   <= 4.05u t.hi.
 *  m.hi + m0 = t.hi z exactly; ml = fma(tl, z, m0): at most 5.06u t.hi z, rounds by 5.06u^2
 *   of it: m.hi + ml = z T within 15.3u^2 z T, |ml| <= 5.07u m.hi.
 *  a.hi + a0 = m.hi S.hi exactly; al = fma(m.hi, S.lo, fma(ml, S.hi, a0)): the inner at most
 *   6.08u m.hi S.hi, rounding 6.08u^2 of it, the outer 7.09u and 7.09u^2; ml S.lo (dropped)
 *   <= 5.07u^2: a.hi + al = (m.hi + ml) S within 18.3u^2 of it.
 *  With C's and S's own u^2 each: 15.3 + 18.3 + 2 = 35.6u^2 (the products of these small
 *  terms far below), charged 36u^2.  Where z^2 < 2^-969 some error terms are subnormal and
 *  their roundings absolute, at most 2^-1075 each (five of them, times factors below 2):
 *  the 2^-1070.  |al| <= 7.2u a.hi, so that gr_fast_exp_neg_d's |r| < 2^-11.4 holds. */
#define GR_TANH_ARG_EA (36 * 0x1p-106)
static inline dd gr_fast_tanh_arg_d(double z)
{
    dd z2 = two_prod(z, z);
    dd p = two_prod(gr_fast_tanh_c.hi, z2.hi);
    double pl = fma(gr_fast_tanh_c.hi, z2.lo, fma(gr_fast_tanh_c.lo, z2.hi, p.lo));
    dd t = two_sum(1.0, p.hi);
    double tl = t.lo + pl;
    dd m = two_prod(t.hi, z);
    double ml = fma(tl, z, m.lo);
    double sh = 2 * gr_fast_sqrt_2_pi.hi, sl = 2 * gr_fast_sqrt_2_pi.lo; /* exact */
    dd a = two_prod(m.hi, sh);
    return dd_make(a.hi, fma(m.hi, sl, fma(ml, sh, a.lo)));
}

/* The sigmoid form's exponent a = 1.702 z for the double tier (encl_weight), z in [2^-500,
 * 1200]: a.hi + a.lo within GR_SIGMOID_ARG_EA a = 3u^2 a of it, as fast_fn.c's sigmoid_arg
 * but without its final renormalisation (three operations fewer on the chain to the
 * exponential).  C = c.hi + c.lo is within u^2/4 of 1.702 and |c.lo| <= 0.23u c.hi; a.hi + a0
 * = c.hi z exactly (|a0| <= u a.hi, normal for z >= 2^-500); fma(c.lo, z, a0) is at most
 * 1.23u a.hi and rounds by 1.23u^2 a.hi: 1.5u^2 in all, charged 3u^2.  |a.lo| <= 1.24u a.hi. */
#define GR_SIGMOID_ARG_EA (3 * 0x1p-106)
static inline dd gr_fast_sigmoid_arg_d(double z)
{
    dd a = two_prod(gr_fast_sigmoid_c.hi, z);
    return dd_make(a.hi, fma(gr_fast_sigmoid_c.lo, z, a.lo));
}

/* M(z) for z in [0, 60.4] (a double: t = z - i/32 is exact), relative error < 3.7u: the 11
 * terms of the light variant (remainder <= 2^-72 M, generator) with every coefficient rounded
 * to double (its hi part, within u), by Horner in double.  a_k t^k passes through its own
 * rounding and k steps of at most two roundings each: (2k + 1) u 1.01; the generator checks
 * sum_{k>=1} |a_k t^k| <= 2^-4 M, so the terms k >= 1 cost < 21.3u 2^-4 M < 1.4u M; a_0 <=
 * (1 + 2^-4) M costs its rounding and the last addition's, 2u (1 + 2^-4) 1.01 < 2.2u M. */
static inline double gr_fast_mills_d(double z)
{
    int i = (int)nearbyint(z * 32.0);
    double t = z - i * 0x1p-5;
    const double *mh = gr_fast_mh[i], *mt = gr_fast_mt[i];
    double s = GR_MULADD(mt[2], t, mt[1]);
    s = GR_MULADD(s, t, mt[0]);
    for (int k = 7; k >= 0; k--)
        s = GR_MULADD(s, t, mh[k]);
    return s;
}

static inline dd gr_fast_mills(dd z)
{
    int i = (int)nearbyint(z.hi * 32.0);
    dd t = two_sum(z.hi - i * 0x1p-5, z.lo);
    const double *mh = gr_fast_mh[i], *ml = gr_fast_ml[i], *mt = gr_fast_mt[i];
    double tail = mt[7];
    for (int k = 6; k >= 0; k--)
        tail = tail * t.hi + mt[k];
    dd s = dd_add(dd_mul_d(t, tail), dd_make(mh[7], ml[7]));
    for (int k = 6; k >= 0; k--)
        s = dd_add(dd_mul(s, t), dd_make(mh[k], ml[k]));
    return s;
}

#endif
