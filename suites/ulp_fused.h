/* ulp_fused.h: the binary32 ulp sweep's measurement decided from a cheap enclosure of f(x)
 * (geluref_enclose_n, the reference's double tier) instead of the value rounded to odd
 * (private to ulp.c and its tests).
 *
 * measure.c measures an output y against V, f(x) rounded to odd at P = 40 bits.  With an
 * enclosure f(x) in (m - err, m + err) 2^e (err <= 2^-40 |m|), most of that measurement
 * follows without V:
 *  - the binade of f(x) when the enclosure does not cross a power of two: its ulp 2^k,
 *    k = max(E, -126) - 23, which is V's too (rounding to odd never leaves the binade);
 *  - in units of 2^k the enclosure is (ms - es, ms + es); when it holds no integer, f(x) lies
 *    between the binary32 values n 2^k and (n + 1) 2^k (n = floor): RD and RU; when it also
 *    holds no n + 1/2, RN.  f(x) is never one of these points (transcendental at every
 *    finite nonzero x; a zero x never comes here), so the decision is the exact one;
 *  - hence cr, faithful, cr_distance, want and want_class exactly as measure.c computes them
 *    (its pos_of differences, its class_of), for every finite output, and the defect by
 *    measure.c's defect() (its tests read only these fields and the signs); NaN and
 *    infinite outputs are not decided;
 *  - the ulp error measure.c computes, RN(|y 2^-k - V 2^-k|) (errors(): one rounding,
 *    cl = 0 for binary32), lies within es + mv of |y 2^-k - ms| rounded, mv bounding
 *    |V - f(x)| 2^-k: V is within one 40-bit unit of f(x), 2^(E-39), which is 2^-16 units of
 *    2^k for a normal result and below ms 2^-38 for a subnormal one; the computed |ys - ms|
 *    rounds by u, and RN is monotone, so [ulp_lo, ulp_hi] below holds it (margins 2^-50);
 *  - the absolute error is that ulp error times 2^k (errors()'s first branch, taken for
 *    ulp >= 2^-900, which holds: the result is at least 2^-850 units here, and |y - V| is at
 *    least one 40-bit unit of V), exact or one rounding into the subnormal doubles (2^-1074);
 *    the relative error that over V 2^-k, V 2^-k within ms +- (es + mv), one rounding; when
 *    y = +-0 it is |V|/|V| = 1 exactly (rel_one).  A y of the other sign is |y| + |f| away.
 * tests/suites/test_ulp_fused.c compares every decided field and interval with gs_measure on
 * random inputs and outputs of every function. */
#ifndef GELUCHECK_ULP_FUSED_H
#define GELUCHECK_ULP_FUSED_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "suites.h"

struct gs_fused_meas {
    uint64_t want;          /* RN(f(x)) bits */
    int cr, faithful, want_class;
    int64_t cr_distance;
    enum gs_kind defect;    /* measure.c's defect() */
    int simple;             /* the defect is none (cr) or ulp_exceeded */
    int rel_one;            /* the relative error is exactly 1 (y = +-0) */
    double d, w;            /* |y - f(x)| 2^-k ~ d within w (the intervals below) */
    double ms, p2k;         /* |f(x)| 2^-k ~ ms; 2^k */
    int exact_errs;         /* V itself is known: ulp, abs and gs_fused_rel() are measure.c's
                               very errors */
    double ulp, abs;
    double a;               /* exact_errs: |V| 2^-k, the relative error's divisor */
};

/* The relative error measure.c computes where exact_errs: its very division (errors()),
 * left to the callers that need it (most need only a comparison, fused_below_max in ulp.c). */
static inline double gs_fused_rel(const struct gs_fused_meas *fm) { return fm->ulp / fm->a; }

/* 1 when gs_fused_rel(fm) < M certainly, from a product instead of the division (0: not
 * known).  ulp < t2 = RN(RN(M a) (1 - 2^-50)) puts ulp below M a (1 + u)^2 (1 - 2^-50) <
 * M a (1 - 2^-51) (u = 2^-53), so ulp / a < M (1 - 2^-51) <= M - 2 ulp_below(M)
 * (ulp_below(M) <= 2^-52 M), a double, and RN(ulp / a), rounding being monotone, is below M.
 * The roundings are relative ones: ulp >= 2^-16 (ys an integer, a an odd multiple of 2^-16),
 * so t2 > 2^-16 and M a is a normal double, M normal too (a < 2^25).  A negative M (no
 * maximum yet) or a NaN one fails the test. */
static inline int gs_fused_rel_below(const struct gs_fused_meas *fm, double M)
{
    return fm->ulp < M * fm->a * (1 - 0x1p-50);
}

/* 1 when a relative error of exactly 1 (rel_one: a flush) at input x stays below the maximum
 * M kept for input mx: below it, or equal to it with x above mx (the tie keeps the smaller x,
 * errstat.c beats()). */
static inline int gs_fused_rel_one_below(double M, uint64_t mx, uint64_t x)
{
    return M > 1.0 || (M == 1.0 && mx < x);
}

/* The ulp error measure.c computes lies in [gs_fused_ulp_lo, gs_fused_ulp_hi], the absolute
 * error in [gs_fused_abs_lo, gs_fused_abs_hi], the relative error in [gs_fused_rel_lo,
 * gs_fused_rel_hi] (1 exactly when rel_one). */
static inline double gs_fused_ulp_lo(const struct gs_fused_meas *fm)
{
    return fm->exact_errs ? fm->ulp : (fm->d - fm->w) * (1 - 0x1p-50);
}
static inline double gs_fused_ulp_hi(const struct gs_fused_meas *fm)
{
    return fm->exact_errs ? fm->ulp : (fm->d + fm->w) * (1 + 0x1p-50);
}
static inline double gs_fused_abs_lo(const struct gs_fused_meas *fm)
{
    return fm->exact_errs ? fm->abs : gs_fused_ulp_lo(fm) * fm->p2k * (1 - 0x1p-50) - 0x1p-1074;
}
static inline double gs_fused_abs_hi(const struct gs_fused_meas *fm)
{
    return fm->exact_errs ? fm->abs : gs_fused_ulp_hi(fm) * fm->p2k * (1 + 0x1p-50) + 0x1p-1074;
}
static inline double gs_fused_rel_lo(const struct gs_fused_meas *fm)
{
    return fm->exact_errs ? gs_fused_rel(fm)
           : fm->rel_one  ? 1.0
                          : gs_fused_ulp_lo(fm) / (fm->ms + fm->w) * (1 - 0x1p-50);
}
static inline double gs_fused_rel_hi(const struct gs_fused_meas *fm)
{
    return fm->exact_errs ? gs_fused_rel(fm)
           : fm->rel_one  ? 1.0
                          : gs_fused_ulp_hi(fm) / (fm->ms - fm->w) * (1 + 0x1p-50);
}

/* V itself where the enclosure f(x) 2^-k in [lo, hi] (open: (lo, hi)) of a normal result
 * lies in one open cell between 40-bit numbers, (C, C + 1) 2^-16 in these units: V 2^-k =
 * (C | 1) 2^-16, rounding to odd being the truncation with the last bit set.  Then the errors
 * are measure.c's, computed by errors()'s very operations: ulp = |ys - a| with a = V 2^-k of
 * f's sign and ys = y 2^-k of y's (one rounding; exact for nearby y), abs = ulp 2^k, rel =
 * ulp / |a| (gs_fused_rel, from fm->a = |a|; its first branch: ulp >= 2^-16 > 2^-900 since
 * ys is an integer and a an odd multiple of 2^-16, V's exponent minus k is -16). */
static inline void gs_fused_exact_errs(struct gs_fused_meas *fm, double lo, double hi, int open,
                                       int neg, double ys_signed)
{
    double l16 = lo * 0x1p16, h16 = hi * 0x1p16; /* exact */
    int64_t cl = (int64_t)l16;                   /* floor: 0 < l16 < 2^40 */
    double c = (double)cl;
    fm->exact_errs = open ? h16 <= c + 1 : (l16 > c && h16 < c + 1);
    if (!fm->exact_errs)
        return;
    double a = (double)(cl | 1) * 0x1p-16;
    fm->ulp = fabs(ys_signed - (neg ? -a : a));
    fm->abs = fm->ulp * fm->p2k;
    fm->a = a;
}

/* 2^k for a normal double's exponent k (-1022 <= k <= 1023). */
static inline double gs_fused_pow2(int64_t k)
{
    uint64_t b = (uint64_t)(k + 1023) << 52;
    double d;
    memcpy(&d, &b, sizeof d);
    return d;
}

/* The subnormal results' V: f(x) below 2^-126, in the binade E (|f(x)| in [2^E, 2^(E+1)),
 * GS_FUSED_SUB_EMIN <= E <= -127), units of 2^k = 2^-149.  V is f(x) rounded to odd at 40
 * bits of its own binade (measure.c: P = p + 16 bits whatever the exponent), so its cells are
 * 2^(E-39) = 2^(E+110) units wide, narrower than the 2^-16 units of a normal result.  Where
 * the two-sided enclosure [lo, hi] (in units, rounded: compared only with integers, which are
 * doubles) lies in f(x)'s binade and in one open cell, (C, C + 1) 2^(E+110), V is
 * (C | 1) 2^(E+110) units, as gs_fused_exact_errs finds it for a normal one; lo and hi scale
 * to the cells by 2^(-E-110) exactly (normal doubles: lo >= 2^(E+149) >= 2^-551 and the
 * scaled ones below 2^40).  errors() then computes ulp = RN(|y 2^149 - V 2^149|) (one
 * rounding, as here), and takes its first branch: ulp >= 2^(E+110) >= 2^-590 (y 2^149 is an
 * integer, a an odd multiple of 2^(E+110)) and below 2^900, k = -149 and V's exponent less k,
 * E + 110 >= -590, all within +-900; abs = ulp 2^-149 (a normal double, >= 2^-739: exact),
 * rel = ulp / a.  So the errors are measure.c's exactly (exact_errs), as for a normal result.
 * The floor E >= -700 keeps every one of these numbers normal with a wide margin. */
#define GS_FUSED_SUB_EMIN (-700)
/* The cell: 1 with *cl = C where [lo, hi] lies in f(x)'s binade and in one open cell
 * (C, C + 1) 2^(E+110), else 0. */
static inline int gs_fused_cell_sub(double lo, double hi, int64_t E, int64_t *cl)
{
    double sc = gs_fused_pow2(-E - 110);
    double lc = lo * sc, hc = hi * sc; /* exact */
    if (!(lc >= 0x1p39 && hc < 0x1p40)) /* the binade E not certain: other cells */
        return 0;
    *cl = (int64_t)lc; /* floor: 0 < lc < 2^40 */
    double c = (double)*cl;
    return lc > c && hc < c + 1;
}
static inline void gs_fused_exact_errs_sub(struct gs_fused_meas *fm, double lo, double hi,
                                           int64_t E, int neg, double ys_signed)
{
    int64_t cl;
    if (!gs_fused_cell_sub(lo, hi, E, &cl))
        return;
    double a = (double)(cl | 1) * gs_fused_pow2(E + 110);
    fm->exact_errs = 1;
    fm->ulp = fabs(ys_signed - (neg ? -a : a));
    fm->abs = fm->ulp * fm->p2k;
    fm->a = a;
}

/* 1 with *fm set when the enclosure e decides the measurement of binary32 output y (bits) for
 * input x, 0 when the full measurement must be taken.  A one-sided enclosure (e->side) is an
 * open interval next to |m| 2^e, in the binade below when |m| is a power of two and the
 * interval lies below it (f(x) is never |m| 2^e itself). */
static inline int gs_fused_measure_f32(const struct geluref_encl *e, uint64_t y,
                                       struct gs_fused_meas *fm)
{
    double am = fabs(e->m);
    int neg = e->m < 0;
    uint64_t mb;
    memcpy(&mb, &am, sizeof mb);
    int64_t em = (int64_t)(mb >> 52) - 1023; /* |m| in [2^em, 2^(em+1)): m normal */
    if (em == -1023 || em == 1024)
        return 0;
    int side = e->side;
    int64_t E = em + e->e; /* |m| 2^e in [2^E, 2^(E+1)) */
    if (side < 0 && (mb & 0x000fffffffffffffu) == 0)
        E--; /* just below a power of two: f(x) in the binade below */
    if (E > 127 || E < -1000)
        return 0;
    int64_t k = (E > -126 ? E : -126) - 23;
    int64_t sh = e->e - k;
    if (sh < -1000 || sh > 1000)
        return 0;
    double sc = gs_fused_pow2(sh); /* ms, es exact (normal doubles) */
    double ms = am * sc, es = e->err * sc;
    /* f(x) 2^-k in [lo, hi] (side 0), or in the open interval (lo, hi) (one-sided); lo and
     * hi are rounded, but compared only with integers and half-integers, which are doubles:
     * rounding is monotone and keeps each on its side of such a number */
    double lo = side > 0 ? ms : ms - es, hi = side < 0 ? ms : ms + es;
    if (!(ms >= 0x1p-850))
        return 0;
    int open = side != 0;
    if (E >= -126 ? !(lo >= 0x1p23 && (open ? hi <= 0x1p24 : hi < 0x1p24))
                  : !(open ? hi <= 0x1p23 : hi < 0x1p23))
        return 0; /* the binade is not certain */
    int64_t ni = (int64_t)lo; /* floor: 0 < lo < 2^24 */
    double n = (double)ni;
    if (open ? !(hi <= n + 1) : !(lo > n && hi < n + 1))
        return 0; /* RD and RU not decided */
    int up;
    if (open ? lo - n >= 0.5 : lo - n > 0.5)
        up = 1;
    else if (open ? hi - n <= 0.5 : hi - n < 0.5)
        up = 0;
    else
        return 0; /* RN not decided */
    uint64_t base = (uint64_t)(k + 149) << 23, rz = base + (uint64_t)ni, ra = rz + 1;
    uint64_t rn = up ? ra : rz;
    if (rn >= 0x7f800000u)
        return 0;
    uint64_t sign = neg ? 0x80000000u : 0;
    uint64_t ymag = y & 0x7fffffffu;
    if (ymag >= 0x7f800000u)
        return 0; /* NaN or infinite output */
    fm->want = sign | rn;
    fm->cr = y == fm->want;
    int same_sign = (y & 0x80000000u) == sign;
    /* the defect: none, or ulp_exceeded for a finite nonzero output of f(x)'s sign; a zero
     * or wrong-signed output has another (flush, ftz, wrong_sign, signed_zero) */
    fm->simple = fm->cr || (ymag != 0 && same_sign);
    /* measure.c's positions: pos = +-magnitude by the sign, +0 and -0 both 0 */
    int64_t py = same_sign ? (int64_t)ymag : -(int64_t)ymag;
    int64_t prn = (int64_t)rn, prd = (int64_t)(neg ? ra : rz), pru = (int64_t)(neg ? rz : ra);
    /* in f(x)'s orientation (positions negated for a negative f): RD and RU are rz and ra in
     * some order, and faithfulness asks for either */
    fm->faithful = py == prd || py == pru;
    fm->cr_distance = py > prn ? py - prn : prn - py;
    fm->want_class = rn == 0 ? GS_WANT_ZERO : rn < 0x00800000u ? GS_WANT_SUBNORMAL
                                                              : GS_WANT_NORMAL;
    /* measure.c's defect() for a finite output and a finite nonzero f(x), in its order */
    if (fm->cr)
        fm->defect = GS_K_NONE;
    else if (ymag != 0 && !same_sign)
        fm->defect = GS_K_WRONG_SIGN;
    else if (ymag == 0 && fm->want_class == GS_WANT_NORMAL)
        fm->defect = GS_K_PREMATURE_FLUSH;
    else if (ymag == 0 && fm->want_class == GS_WANT_SUBNORMAL && !fm->faithful)
        fm->defect = GS_K_FTZ;
    else if (ymag == 0 && rn == 0)
        fm->defect = GS_K_SIGNED_ZERO;
    else
        fm->defect = GS_K_ULP_EXCEEDED;
    uint32_t yb = (uint32_t)ymag;
    float yf;
    memcpy(&yf, &yb, sizeof yf);
    double ys = (double)yf * gs_fused_pow2(-k); /* exact: -149 <= k <= 104 */
    fm->d = same_sign ? fabs(ys - ms) : ys + ms; /* |y - f| 2^-k with signs */
    fm->w = es + (E >= -126 ? 0x1p-16 : ms * 0x1p-38);
    fm->ms = ms;
    fm->p2k = gs_fused_pow2(k);
    fm->rel_one = ymag == 0;
    fm->exact_errs = 0;
    if (E >= -126)
        gs_fused_exact_errs(fm, lo, hi, open, neg, (y & 0x80000000u) ? -ys : ys);
    else if (!open && E >= GS_FUSED_SUB_EMIN)
        gs_fused_exact_errs_sub(fm, lo, hi, E, neg, (y & 0x80000000u) ? -ys : ys);
    return 1;
}

/* The output y (magnitude bits ymag, binary32) in units of 2^k, the ulp of f(x)'s binade
 * E (base: the bits of 2^E less the implicit bit, (E + 126) << 23): in that binade the
 * significand with its implicit bit; in another (an approximation measured against the exact
 * function, a tail's large errors) the general path's product, exact (a binary32 value times
 * 2^-k, -149 <= k <= 104). */
static inline __attribute__((always_inline)) double gs_fused_ys(uint64_t ymag, int64_t E,
                                                                uint64_t base)
{
    if ((ymag >> 23) == (uint64_t)(E + 127))
        return (double)(ymag - base);
    uint32_t yb = (uint32_t)ymag;
    float yf;
    memcpy(&yf, &yb, sizeof yf);
    return (double)yf * gs_fused_pow2(23 - E);
}

/* |m| 2^(23 - em) for a double m of exponent em (its bits mb): the exponent field replaced by
 * 23's, exact; the enclosure's midpoint in units of its binade's ulp (gs_fused_common,
 * gs_fused_quick_core, ulp_lane.h gs_fused_span_of). */
static inline double gs_fused_ms_of(uint64_t mb)
{
    uint64_t msb = (mb & 0x000fffffffffffffu) | (uint64_t)(23 + 1023) << 52;
    double ms;
    memcpy(&ms, &msb, sizeof ms);
    return ms;
}

/* The common case's scaling: for a two-sided enclosure e of a normal result whose binade E
 * (|m| 2^e in [2^E, 2^(E+1))) is at most emax, f(x) 2^-k in [*lo, *hi] (k = E - 23) with
 * *ms = |m| 2^(23 - em) (the exponent field replaced: exact) and the error scaled exactly
 * (lo and hi then rounded: compared only with integers and half-integers, which are doubles;
 * rounding is monotone), the binade certain (2^23 <= lo, hi < 2^24) and RD, RU and RN
 * decided: *ni = floor(lo), *up = 1 when RN is n + 1.  Returns 1, 0 when the enclosure does
 * not decide, -1 when the case is not this one. */
static inline __attribute__((always_inline)) int
gs_fused_common(const struct geluref_encl *e, int64_t emax, uint64_t *mbp, int64_t *Ep,
                double *msp, double *esp, double *lop, double *hip, int64_t *nip, int *upp)
{
    uint64_t mb;
    memcpy(&mb, &e->m, sizeof mb);
    int64_t em = (int64_t)((mb >> 52) & 0x7ff) - 1023;
    int64_t E = em + e->e;
    if (E < -126 || E > emax || em == -1023 || em == 1024 || e->side != 0)
        return -1;
    double ms = gs_fused_ms_of(mb);
    double es = e->err * gs_fused_pow2(23 - em);
    double lo = ms - es, hi = ms + es;
    /* The binade certain (2^23 <= lo, hi < 2^24) and no integer nor half-integer in [lo, hi],
     * lo not one: lo > b and hi < b + 1/2 for b = floor(2 lo)/2, so f(x) 2^-k lies between
     * the same such numbers.  In that binade a double's exponent field is 1023 + 23 and its
     * significand (with the implicit bit) holds the value in units of 2^-29: bit 29 up the
     * integer part, bit 28 the half, below it the rest.  So the test is one of bits: the same
     * exponent field and bits 28 up in lo and hi, and lo's lower bits not all zero; n = the
     * integer part, RN = n + 1 when the half bit is set.  The same decision as
     * gs_fused_measure_f32's lo > n, hi < n + 1 and lo - n > 1/2 or hi - n < 1/2 (a lo
     * exactly at n + 1/2 fails both), without a conversion to an integer and back. */
    uint64_t lb, hb;
    memcpy(&lb, &lo, sizeof lb);
    memcpy(&hb, &hi, sizeof hb);
    if ((lb >> 52) != 1023 + 23 || (lb >> 28) != (hb >> 28) ||
        (lb & (((uint64_t)1 << 28) - 1)) == 0)
        return 0;
    uint64_t sig = (lb & 0x000fffffffffffffu) | (uint64_t)1 << 52;
    int64_t ni = (int64_t)(sig >> 29);
    int up = (int)((sig >> 28) & 1);
    *mbp = mb;
    *Ep = E;
    *msp = ms;
    *esp = es;
    *lop = lo;
    *hip = hi;
    *nip = ni;
    *upp = up;
    return 1;
}

/* gs_fused_measure_f32 for the common case, in fewer operations: a two-sided enclosure of a
 * normal result
 * (E >= -126: ms is |m|'s significand scaled to [2^23, 2^24), k = E - 23, base
 * (E + 126) 2^23) and an output that is RN, a zero, or a finite nonzero value of f(x)'s sign
 * (in f(x)'s binade y 2^-k = ymag - base exactly: the significand with its implicit bit).  The
 * same fields and values (tests/suites/test_ulp_fused.c compares them); -1 when the case is
 * not this one (the caller asks gs_fused_measure_f32), 0 when the enclosure does not decide,
 * 1 when *fm is set. */
static inline int gs_fused_measure_f32_fast(const struct geluref_encl *e, uint64_t y,
                                            struct gs_fused_meas *fm)
{
    uint64_t mb;
    int64_t E, ni;
    double ms, es, lo, hi;
    int up;
    int r = gs_fused_common(e, 127, &mb, &E, &ms, &es, &lo, &hi, &ni, &up);
    if (r != 1)
        return r;
    uint64_t base = (uint64_t)(E + 126) << 23, rn = base + (uint64_t)ni + (uint64_t)up;
    if (rn >= 0x7f800000u)
        return 0;
    uint64_t sign = (mb >> 63) << 31;
    fm->want = sign | rn;
    fm->want_class = GS_WANT_NORMAL;
    fm->ms = ms;
    fm->w = es + 0x1p-16;
    fm->p2k = gs_fused_pow2(E - 23);
    fm->rel_one = 0;
    fm->simple = 1;
    if (y == fm->want) {
        fm->cr = fm->faithful = 1;
        fm->cr_distance = 0;
        fm->defect = GS_K_NONE;
        double ys = (double)(ni + up);
        fm->d = fabs(ys - ms);
        gs_fused_exact_errs(fm, lo, hi, 0, (int)(sign != 0), sign ? -ys : ys);
        return 1;
    }
    uint64_t ymag = y & 0x7fffffffu;
    if (ymag == 0) { /* a zero for a normal result: premature_flush, |y - f| = |f| */
        fm->cr = fm->faithful = 0;
        fm->cr_distance = (int64_t)rn; /* positions: |0 - +-rn| */
        fm->defect = GS_K_PREMATURE_FLUSH;
        fm->simple = 0;
        fm->rel_one = 1;
        fm->d = ms;
        gs_fused_exact_errs(fm, lo, hi, 0, (int)(sign != 0), (y & 0x80000000u) ? -0.0 : 0.0);
        return 1;
    }
    if ((y & 0x80000000u) != sign || ymag >= 0x7f800000u)
        return -1; /* another sign, NaN or infinity */
    fm->cr = 0;
    fm->faithful = ymag == base + (uint64_t)ni || ymag == base + (uint64_t)ni + 1;
    fm->cr_distance = (int64_t)(ymag > rn ? ymag - rn : rn - ymag);
    fm->defect = GS_K_ULP_EXCEEDED;
    double ys = gs_fused_ys(ymag, E, base);
    fm->d = fabs(ys - ms);
    gs_fused_exact_errs(fm, lo, hi, 0, (int)(sign != 0), sign ? -ys : ys);
    return 1;
}

/* The policy's verdict on a decided measurement (gs_policy_judge's tests, with the error
 * intervals): 1 passed, 0 failed, -1 not certain. */
static inline int gs_fused_judge(const struct gs_policy_values *v,
                                 const struct gs_fused_meas *fm)
{
    if (fm->defect == GS_K_NONE)
        return 1;
    if (fm->defect != GS_K_SIGNED_ZERO && v->abs_tol > 0) { /* within_tol */
        if (gs_fused_abs_hi(fm) <= v->abs_tol)
            return 1;
        if (!(gs_fused_abs_lo(fm) > v->abs_tol))
            return -1;
    }
    if (fm->defect != GS_K_ULP_EXCEEDED)
        return 0; /* signed_zero, wrong_sign, premature_flush, ftz */
    if (v->accuracy_domain == GS_DOMAIN_NORMAL && fm->want_class != GS_WANT_NORMAL)
        return 1;
    if ((double)fm->cr_distance > v->max_cr_distance || (v->faithful && !fm->faithful) ||
        gs_fused_ulp_lo(fm) > v->max_ulp)
        return 0;
    return gs_fused_ulp_hi(fm) <= v->max_ulp ? 1 : -1;
}

/* gs_fused_quick_core's case of a subnormal result: a two-sided enclosure of f(x) in the
 * binade E, GS_FUSED_SUB_EMIN <= E <= -127 (units 2^k = 2^-149), that lies in one open cell
 * of V, (C, C + 1) 2^(E+110) units (gs_fused_exact_errs_sub, on gs_fused_measure_f32's very
 * ms, es, lo and hi), and a finite output of f(x)'s sign or a zero of either sign (its
 * position 0 both ways: gs_fused_measure_f32's d, ys + ms or |ys - ms|, is ms either way).
 * The cell decides the roundings: the integers and half-integers of the units are multiples
 * of 2^s and 2^(s-1) cells (s = -E - 110 >= 17), never inside an open cell, so n = floor(C
 * 2^-s) (C >> s; 0 for s >= 64) and RN is n + 1 exactly when bit s - 1 of C is set, which is
 * gs_fused_measure_f32's decision.  A subnormal binary32 number's bits are its value in
 * units, so RZ, RA and RN are n, n + 1 and n + up (2^23, the smallest normal number's bits,
 * when f(x) rounds up to it).  Every field as gs_fused_measure_f32 sets it, the defect by
 * its chain (measure.c's defect() for such a y: none, premature_flush, ftz, signed_zero for
 * a zero of the other sign where RN(f(x)) is a zero, or ulp_exceeded); the errors exact (V
 * known; y = +-0 and V of either sign: |+-0 - +-a| = a = |ys - a|). */
static inline __attribute__((always_inline)) int
gs_fused_quick_sub(const struct geluref_encl *e, uint64_t mb, int64_t em, int64_t E,
                   uint64_t y, struct gs_fused_meas *fm, int all)
{
    uint64_t sign = (mb >> 63) << 31, ymag = y & 0x7fffffffu;
    int64_t sh = e->e + 149; /* gs_fused_measure_f32's e - k */
    if (E < GS_FUSED_SUB_EMIN || em == -1023 || em == 1024 || e->side != 0 || sh < -1000 ||
        sh > 1000 || ((y & 0x80000000u) != sign && ymag != 0) || ymag >= 0x7f800000u)
        return 0;
    double sc = gs_fused_pow2(sh);
    double ms = fabs(e->m) * sc, es = e->err * sc; /* exact */
    int64_t cl;
    if (!gs_fused_cell_sub(ms - es, ms + es, E, &cl))
        return 0;
    int64_t s = -E - 110; /* 17 <= s <= 590 */
    uint64_t rz = s < 64 ? (uint64_t)cl >> s : 0;
    uint64_t rn = rz + (s - 1 < 64 ? ((uint64_t)cl >> (s - 1)) & 1 : 0);
    int zero = ymag == 0;
    fm->want = sign | rn;
    fm->cr = y == fm->want;
    fm->faithful = ymag == rz || ymag == rz + 1;
    fm->cr_distance = (int64_t)(ymag > rn ? ymag - rn : rn - ymag);
    fm->want_class = rn == 0 ? GS_WANT_ZERO : rn < 0x00800000u ? GS_WANT_SUBNORMAL
                                                              : GS_WANT_NORMAL;
    fm->defect = fm->cr                                                ? GS_K_NONE
                 : zero && fm->want_class == GS_WANT_NORMAL            ? GS_K_PREMATURE_FLUSH
                 : zero && fm->want_class == GS_WANT_SUBNORMAL && !fm->faithful ? GS_K_FTZ
                 : zero && rn == 0                                     ? GS_K_SIGNED_ZERO
                                                                       : GS_K_ULP_EXCEEDED;
    fm->rel_one = zero;
    uint32_t yb = (uint32_t)ymag;
    float yf;
    memcpy(&yf, &yb, sizeof yf);
    double ys = (double)yf * 0x1p149; /* exact: gs_fused_measure_f32's ys */
    double a = (double)(cl | 1) * gs_fused_pow2(E + 110);
    if (all) {
        fm->simple = fm->cr || !zero;
        fm->d = fabs(ys - ms);
        fm->w = es + ms * 0x1p-38;
        fm->ms = ms;
    }
    fm->p2k = 0x1p-149;
    fm->exact_errs = 1;
    fm->ulp = fabs(ys - a); /* y and V of one sign, or y a zero */
    fm->abs = fm->ulp * fm->p2k;
    fm->a = a;
    return 1;
}

/* A zero output where f(x) lies far below the subnormal numbers: |f(x)| in [2^E, 2^(E+1)) with
 * GS_FUSED_TINY_EMIN <= E < GS_FUSED_SUB_EMIN (where gs_fused_quick_sub stops; above the
 * dtype's negligible bound 2^-1225, below which the reference reports TINY), as a tail's
 * kernel gives it (+0 for a tiny negative f(x): signed_zero).  Where the two-sided enclosure
 * lies in f(x)'s binade and in one open cell of V, (C, C + 1) 2^(E-39) (in units of 2^(E-39):
 * |m| 2^(39 - em) and err likewise scaled, exactly; the rounded ends compared only with
 * integers, which are doubles), V = (C | 1) 2^(E-39) is known, and so is the whole of
 * measure.c's measurement, computed by its own operations: RN(f(x)) is the zero of f's sign
 * (|f(x)| < 2^-699, far below half the smallest subnormal), so want = that zero, want_class
 * zero, cr_distance 0, faithful (a zero is RZ), correctly rounded for that zero and otherwise
 * signed_zero (defect()'s chain: not a flush, not ftz, both zeros); errors() with ch = C | 1,
 * exp = E - 39, k = -149 and y = 0: ulp = |0 - pow2_scale(ch, E + 110)| (scaled_diff), which
 * is at least 2^-1074 (odd ch: never 2^-1075 itself, and E >= -1224), then abs =
 * pow2_scale(ulp, -149) on its first branch (ulp in [2^-900, 2^900], E + 110 >= -900), else
 * pow2_scale(ch, E - 39) (scaled_diff at k = 0), and rel = 1 either way (ulp / ulp, |ch| /
 * |ch|: fm->a = ulp, so gs_fused_rel gives it).  Every field is set (as gs_fused_quick_sub
 * with all = 1; d, w and ms in units of 2^-149 as the stand-ins of the picks); 0 when the case
 * is not this one.  The quick lanes do not take it: ulp.c fused_quick asks it one at a time
 * after gs_fused_quick_core, where an output would otherwise be measured in full
 * (tests/suites/test_ulp_fused.c compares it with gs_measure). */
#define GS_FUSED_TINY_EMIN (-1224)
static inline int gs_fused_quick_tiny(const struct geluref_encl *e, uint64_t y,
                                      struct gs_fused_meas *fm)
{
    uint64_t mb;
    memcpy(&mb, &e->m, sizeof mb);
    int64_t em = (int64_t)((mb >> 52) & 0x7ff) - 1023;
    int64_t E = em + e->e;
    if (E < GS_FUSED_TINY_EMIN || E >= GS_FUSED_SUB_EMIN || em < -984 || em > 1000 ||
        e->side != 0 || (y & 0x7fffffffu) != 0)
        return 0;
    double sc = gs_fused_pow2(39 - em), am = fabs(e->m);
    double lc = (am - e->err) * sc, hc = (am + e->err) * sc;
    if (!(lc >= 0x1p39 && hc < 0x1p40))
        return 0;
    int64_t cl = (int64_t)lc; /* floor: 0 < lc < 2^40 */
    double c = (double)cl;
    if (!(lc > c && hc < c + 1))
        return 0;
    double ch = (double)(cl | 1);
    double ulp = fabs(0.0 - gs_pow2_scale(ch, E + 110));
    fm->want = (mb >> 63) << 31;
    fm->cr = y == fm->want;
    fm->faithful = 1;
    fm->cr_distance = 0;
    fm->want_class = GS_WANT_ZERO;
    fm->defect = fm->cr ? GS_K_NONE : GS_K_SIGNED_ZERO;
    fm->simple = fm->cr;
    fm->rel_one = 1;
    fm->d = ulp;
    fm->w = ulp * 0x1p-38;
    fm->ms = ulp;
    fm->p2k = 0x1p-149;
    fm->exact_errs = 1;
    fm->ulp = ulp;
    fm->abs = ulp >= 0x1p-900 && ulp <= 0x1p900 && E + 110 >= -900 ? gs_pow2_scale(ulp, -149)
                                                                    : gs_pow2_scale(ch, E - 39);
    fm->a = ulp;
    return 1;
}

/* The measurement's quick case, for the sweep's loop (ulp.c fused_quick): a two-sided enclosure
 * of a normal result (E >= -126, as gs_fused_measure_f32_fast; a subnormal one is
 * gs_fused_quick_sub's) that lies in one open cell between
 * 40-bit numbers, (C, C + 1) 2^-16 in units of 2^k, and a finite nonzero output of f(x)'s sign or
 * a zero of either sign.  The cell alone decides all three roundings: the integers n and n + 1/2
 * of the units are multiples of 2^16 and 2^15 cells, never inside an open cell, so f(x) 2^-k and
 * the whole enclosure lie on the same side of each: n = floor(C 2^-16) (C >> 16) and RN is n + 1
 * exactly when C 2^-16 - n >= 1/2 (bit 15 of C), which is gs_fused_measure_f32's decision (its
 * lo > n, hi < n + 1 and lo - n > 1/2 or hi - n < 1/2 all hold then).  V itself is known
 * (gs_fused_exact_errs): the errors are measure.c's.  Sets every field, with the same values as
 * gs_fused_measure_f32 (tests/suites/test_ulp_fused.c compares them): the defect is none or
 * ulp_exceeded (y has f(x)'s sign and is finite and nonzero), simple, not rel_one, exact_errs;
 * for a zero output (premature_flush: a normal result flushed, its position 0, the relative error
 * exactly 1, ulp = |0 - a| = a) not simple, rel_one, exact_errs, as gs_fused_measure_f32_fast's
 * branch for it; 0 when the case is not this one (nothing set).  With all = 0
 * (gs_fused_quick_core) d, w, ms and simple are left unset: the fields that the exact case's
 * tests read (gs_fused_judge, ulp.c fused_below_max, fused_count) are set, by the same
 * operations. */
static inline __attribute__((always_inline)) int
gs_fused_quick_core(const struct geluref_encl *e, uint64_t y, struct gs_fused_meas *fm, int all)
{
    uint64_t mb;
    memcpy(&mb, &e->m, sizeof mb);
    int64_t em = (int64_t)((mb >> 52) & 0x7ff) - 1023;
    int64_t E = em + e->e;
    uint64_t sign = (mb >> 63) << 31, ymag = y & 0x7fffffffu;
    if (E < -126)
        return gs_fused_quick_sub(e, mb, em, E, y, fm, all);
    if (E > 127 || em == -1023 || em == 1024 || e->side != 0 ||
        ((y & 0x80000000u) != sign && ymag != 0) || ymag >= 0x7f800000u)
        return 0;
    double ms = gs_fused_ms_of(mb);
    double es = e->err * gs_fused_pow2(23 - em);
    /* lo 2^16 and hi 2^16 as gs_fused_exact_errs (the scaling is exact) */
    double l16 = (ms - es) * 0x1p16, h16 = (ms + es) * 0x1p16;
    if (!(l16 >= 0x1p39 && h16 < 0x1p40)) /* lo >= 2^23, hi < 2^24: the binade */
        return 0;
    int64_t cl = (int64_t)l16; /* floor: 0 < l16 < 2^40 */
    double c = (double)cl;
    if (!(l16 > c && h16 < c + 1))
        return 0;
    uint64_t base = (uint64_t)(E + 126) << 23, rz = base + ((uint64_t)cl >> 16);
    uint64_t rn = rz + (((uint64_t)cl >> 15) & 1);
    if (rn >= 0x7f800000u)
        return 0;
    int zero = ymag == 0;
    fm->want = sign | rn;
    fm->cr = ymag == rn; /* 0 for a zero: rn >= 2^23 */
    fm->faithful = ymag == rz || ymag == rz + 1;
    fm->cr_distance = (int64_t)(ymag > rn ? ymag - rn : rn - ymag);
    fm->want_class = GS_WANT_NORMAL;
    fm->defect = fm->cr ? GS_K_NONE : zero ? GS_K_PREMATURE_FLUSH : GS_K_ULP_EXCEEDED;
    fm->rel_one = zero;
    double ys = gs_fused_ys(ymag, E, base); /* as gs_fused_measure_f32_fast (0 for a zero) */
    /* gs_fused_exact_errs with y and V of one sign: |(-ys) - (-a)| = |ys - a| exactly; for a
     * zero |+-0 - +-a| = a */
    double a = (double)(cl | 1) * 0x1p-16;
    if (all) {
        fm->simple = !zero;
        fm->d = fabs(ys - ms); /* ms for a zero (ys = 0) */
        fm->w = es + 0x1p-16;
        fm->ms = ms;
    }
    fm->p2k = gs_fused_pow2(E - 23);
    fm->exact_errs = 1;
    fm->ulp = fabs(ys - a);
    fm->abs = fm->ulp * fm->p2k;
    fm->a = a;
    return 1;
}

/* The bound lane: 1 when the enclosure e decides y's measurement as
 * gs_fused_measure_f32_fast does (RN(f(x)) for a normal result, y finite, nonzero and of
 * f(x)'s sign: cr, faithful, cr_distance, want_class normal, the defect none or ulp_exceeded,
 * and the error intervals from d = |ys - ms| rounded and w = es + 2^-16: gs_fused_ulp_hi's
 * uh = (d + w)(1 + 2^-50), gs_fused_ulp_lo's ul = (d - w)(1 - 2^-50)), those intervals lie
 * below the maxima in lim as fused_below_max's interval case has them (ulp.c: uh < max_ulp,
 * uh 2^k (1 + 2^-50) + 2^-1074 < max_abs, uh (1 + 2^-48) < max_rel (ms - w)(1 - 2^-48);
 * strictly, so no tie), and the policy's verdict is certain:
 *  - passed: a correctly rounded output always; another one where its cr_distance is at most
 *    max_cr_distance, it is faithful where the policy asks it, and uh <= the policy's
 *    max_ulp, whatever its abs_tol says (within it, y passes too: gs_fused_judge's -1 there
 *    is a measurement in full that passes);
 *  - or failed (gs_fused_judge's 0 for ulp_exceeded): not within abs_tol (none, or abs_lo =
 *    ul 2^k (1 - 2^-50) - 2^-1074 above it), and a cr_distance above max_cr_distance, not
 *    faithful where the policy asks it, or ul above its max_ulp; and then uh below
 *    lim->unkept, so that its finding cannot enter the worst list (gs_findings_count_unkept
 *    with score uh, as pass 4 counts a decided failure).
 * A correctly rounded output is taken by the correctly rounded case's shorter tests first
 * (below).  Wherever it gets as far as the error intervals (the measurement decided, y within
 * dmax, not taken so), *uhp = uh, taken or not (ulp.c block_lanes picks the largest to
 * account first).  Then *dp = y's cr_distance, *fap = whether y is faithful, *failp = whether
 * the policy fails it, and what the measurement adds is certain: one point, cr (cr_distance
 * 0), faithful, its bucket, the maxima unchanged, and where failed one ulp_exceeded finding
 * counted, not kept.  0 when it does not decide that (the caller measures y the other ways:
 * ulp.c block_lanes).
 * Only outputs within lim->dmax of RN(f(x)) are taken.  The same operations as those
 * functions', on the same values. */
struct gs_bound_limits {
    int64_t dmax;            /* the largest cr_distance taken (-1: none), below 2^22 */
    int64_t emax;            /* the correctly rounded case's binade bound (-1000: none) */
    int cr_first;            /* try the correctly rounded case first */
    double max_ulp, max_abs, max_rel; /* the statistics' maxima */
    double pol_ulp, pol_cr;  /* the policy's max_ulp, max_cr_distance (INFINITY: not judged) */
    double tol;              /* the policy's abs_tol (0: none) */
    double unkept;           /* a failed output is taken below this ulp error */
    int faithful;            /* the policy asks for faithful outputs */
};

static inline __attribute__((always_inline)) int
gs_fused_bound_lane(const struct geluref_encl *e, uint64_t y, const struct gs_bound_limits *lim,
                    int64_t *dp, int *fap, int *failp, double *uhp)
{
    uint64_t mb;
    int64_t E, ni;
    double ms, es, lo, hi;
    int up;
    if (gs_fused_common(e, 127, &mb, &E, &ms, &es, &lo, &hi, &ni, &up) != 1)
        return 0;
    uint64_t base = (uint64_t)(E + 126) << 23, rz = base + (uint64_t)ni;
    uint64_t rn = rz + (uint64_t)up, ymag = y & 0x7fffffffu;
    if (rn >= 0x7f800000u || (y & 0x80000000u) != (mb >> 63) << 31 || ymag >= 0x7f800000u)
        return 0;
    int64_t d = ymag > rn ? (int64_t)(ymag - rn) : (int64_t)(rn - ymag);
    int fa = ymag - rz <= 1; /* ymag = rz or rz + 1 (unsigned: below rz wraps) */
    if (d > lim->dmax) /* a zero y too: d = rn >= 2^23 > dmax */
        return 0;
    *dp = d;
    *fap = fa;
    *failp = 0;
    /* the correctly rounded case (y = RN(f(x))) of the old correctly rounded lane, without
     * the intervals: V, f(x) rounded to odd at 40 bits, lies in f(x)'s 40-bit cell, on f(x)'s
     * side of the midpoint n + 1/2 (a 25-bit number, never inside a cell), and is odd, so
     * never that midpoint: y's ulp error, computed exactly (small integers and multiples of
     * 2^-16), is at most 1/2 - 2^-16, below max_ulp >= 1/2; its absolute error below
     * 2^(E-24) <= max_abs (E <= emax); its relative error RN(q), q = ulp / a with a = |V|
     * 2^-k > lo - 1, where RN(max_rel (lo - 1)) > 1/2 (1 + 2^-50): then max_rel (lo - 1) > 1/2
     * (1 + 2^-51), so max_rel > q (1 + 2^-51) and RN(q) <= q (1 + 2^-53) < max_rel.  A
     * correctly rounded output passes every policy.  Tried where lim->cr_first says so (most
     * outputs correctly rounded); the AVX2 version then skips the rest of a batch whose every
     * lane is this case. */
    if (lim->cr_first && d == 0 && E <= lim->emax &&
        lim->max_rel * (lo - 1) > 0.5 * (1 + 0x1p-50))
        return 1;
    double w = es + 0x1p-16, dd = fabs(gs_fused_ys(ymag, E, base) - ms);
    double uh = (dd + w) * (1 + 0x1p-50), p2k = gs_fused_pow2(E - 23);
    *uhp = uh;
    if (!(uh < lim->max_ulp && uh * p2k * (1 + 0x1p-50) + 0x1p-1074 < lim->max_abs &&
          uh * (1 + 0x1p-48) < lim->max_rel * (ms - w) * (1 - 0x1p-48)))
        return 0;
    int pass = d == 0 || ((double)d <= lim->pol_cr && (fa || !lim->faithful) &&
                          uh <= lim->pol_ulp);
    if (!pass) {
        double ul = (dd - w) * (1 - 0x1p-50);
        int fail = (!(lim->tol > 0) || ul * p2k * (1 - 0x1p-50) - 0x1p-1074 > lim->tol) &&
                   ((double)d > lim->pol_cr || (lim->faithful && !fa) || ul > lim->pol_ulp);
        if (!(fail && uh < lim->unkept))
            return 0;
    }
    *failp = !pass;
    return 1;
}

/* The bound lane's limits (gs_bound_limits) for statistics with maxima max_ulp, max_abs and
 * max_rel and counts cr of points, judged by policy v (NULL: not judged, the exact function's
 * measurement), a failed output taken below unkept (gs_findings_unkept_below of
 * ulp_exceeded; -INFINITY: none).
 * emax: the largest E with 2^(E-24) <= max_abs where max_ulp >= 1/2, else -1000; cr_first:
 * where cr is at least three quarters of points (the statistics' correctly rounded outputs so
 * far: most of the next are likely to be too).
 * dmax: at most 2 max_ulp + 2 and 2^22 - 1, a limit that bounds the buckets the lane counts
 * and refuses only outputs far below f(x)'s binade (a taken output's ulp error is below
 * max_ulp, and each pattern step is at least half a unit in f(x)'s binade and the one below
 * it); -1 where there is no maximum yet (max_ulp < 0: the lane takes nothing). */
static inline struct gs_bound_limits gs_fused_bound_limits(double max_ulp, double max_abs,
                                                           double max_rel, uint64_t cr,
                                                           uint64_t points,
                                                           const struct gs_policy_values *v,
                                                           double unkept)
{
    struct gs_bound_limits lim = { .dmax = -1,         .emax = -1000,      .max_ulp = max_ulp,
                                   .max_abs = max_abs, .max_rel = max_rel, .pol_ulp = INFINITY,
                                   .pol_cr = INFINITY, .tol = 0,           .unkept = unkept,
                                   .faithful = 0 };
    lim.cr_first = points > 0 && cr / 3 >= points - cr; /* about 3/4, without an overflow */
    if (max_ulp >= 0.5 && max_abs > 0 && max_abs <= 0x1p1000) {
        int ex;
        (void)frexp(max_abs, &ex); /* max_abs in [2^(ex-1), 2^ex): the largest E with
                                      2^(E-24) <= max_abs is ex - 1 + 24 */
        lim.emax = (int64_t)ex - 1 + 24;
    }
    if (v != NULL) {
        lim.pol_ulp = v->max_ulp;
        lim.pol_cr = v->max_cr_distance;
        lim.tol = v->abs_tol;
        lim.faithful = v->faithful;
    }
    if (max_ulp >= 0)
        lim.dmax = (int64_t)(2 * max_ulp + 2 < 0x1p22 - 1 ? floor(2 * max_ulp + 2) : 0x1p22 - 1);
    return lim;
}

static inline int gs_fused_measure_f32_quick(const struct geluref_encl *e, uint64_t y,
                                             struct gs_fused_meas *fm)
{
    return gs_fused_quick_core(e, y, fm, 1);
}

#endif
