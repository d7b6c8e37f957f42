/* Double-double ("double-word") arithmetic for the fast path (fast*.c).
 *
 * A dd is hi + lo with hi = RN(hi + lo).  The algorithms and their relative error bounds are
 * those proved in M. Joldes, J.-M. Muller, V. Popescu, "Tight and rigorous error bounds for
 * basic building blocks of double-word arithmetic", ACM TOMS 44(2), 2017 (u = 2^-53):
 *   dd_add     AccurateDWPlusDW (Alg. 6)   <= 3u^2 + 13u^3
 *   dd_add_d   DWPlusFP (Alg. 4)           <= 2u^2
 *   dd_mul     DWTimesDW3 (Alg. 12, FMA)   <= 4u^2
 *   dd_mul_d   DWTimesFP3 (Alg. 9, FMA)    <= 2u^2
 *   dd_div     DWDivDW2 (Alg. 17)          <= 15u^2 + 56u^3
 * two_sum, fast_two_sum and two_prod are exact (no underflow: the fast path keeps every
 * operand in [2^-600, 2^600] by carrying binary exponents apart, see fast.h).  The callers
 * charge DD_EPS = 16u^2 = 2^-102 per operation, which covers every bound above.
 *
 * fma() is C99's correctly rounded fused multiply-add (glibc uses the CPU's instruction when
 * the CPU reports one, a correct software emulation otherwise), so the results are the same
 * bits on every machine.  The file is compiled with -ffp-contract=off: no other operation is
 * fused. */
#ifndef GELUREF_DD_H
#define GELUREF_DD_H

#include <math.h>

typedef struct {
    double hi, lo;
} dd;

#define DD_EPS 0x1p-102 /* 16u^2: the relative error charged per dd operation */

static inline dd dd_make(double hi, double lo) { return (dd){ hi, lo }; }

/* s + e = a + b exactly (Knuth's TwoSum). */
static inline dd two_sum(double a, double b)
{
    double s = a + b;
    double bb = s - a;
    double e = (a - (s - bb)) + (b - bb);
    return (dd){ s, e };
}

/* s + e = a + b exactly, provided |a| >= |b| or a = 0 (Dekker's Fast2Sum). */
static inline dd fast_two_sum(double a, double b)
{
    double s = a + b;
    double e = b - (s - a);
    return (dd){ s, e };
}

/* p + e = a b exactly (no underflow). */
static inline dd two_prod(double a, double b)
{
    double p = a * b;
    return (dd){ p, fma(a, b, -p) };
}

static inline dd dd_neg(dd a) { return (dd){ -a.hi, -a.lo }; }

static inline dd dd_add(dd x, dd y)
{
    dd s = two_sum(x.hi, y.hi);
    dd t = two_sum(x.lo, y.lo);
    double c = s.lo + t.hi;
    dd v = fast_two_sum(s.hi, c);
    double w = t.lo + v.lo;
    return fast_two_sum(v.hi, w);
}

static inline dd dd_add_d(dd x, double y)
{
    dd s = two_sum(x.hi, y);
    double v = x.lo + s.lo;
    return fast_two_sum(s.hi, v);
}

static inline dd dd_sub(dd x, dd y) { return dd_add(x, dd_neg(y)); }

static inline dd dd_mul(dd x, dd y)
{
    dd c = two_prod(x.hi, y.hi);
    double tl0 = x.lo * y.lo;
    double tl1 = fma(x.hi, y.lo, tl0);
    double cl2 = fma(x.lo, y.hi, tl1);
    double cl3 = c.lo + cl2;
    return fast_two_sum(c.hi, cl3);
}

static inline dd dd_mul_d(dd x, double y)
{
    dd c = two_prod(x.hi, y);
    double cl3 = fma(x.lo, y, c.lo);
    return fast_two_sum(c.hi, cl3);
}

static inline dd dd_div(dd x, dd y)
{
    double th = x.hi / y.hi;
    dd r = dd_mul_d(y, th);
    dd pi = two_sum(x.hi, -r.hi);
    double dh = pi.lo - r.lo;
    double dl = dh + x.lo;
    double d = pi.hi + dl;
    double tl = d / y.hi;
    return fast_two_sum(th, tl);
}

/* x 2^k: one multiplication by an exact power of two (correctly rounded, like ldexp) when
 * 2^k is a normal double, else ldexp. */
static inline double dd_ldexp(double x, int k)
{
    if (k >= -1022 && k <= 1023) {
        union {
            double d;
            unsigned long long u;
        } p = { .u = (unsigned long long)(k + 1023) << 52 };
        return x * p.d;
    }
    return ldexp(x, k);
}

/* frexp's exponent of x (x = f 2^e, |f| in [1/2, 1)), without the call for normal x. */
static inline int dd_frexp_exp(double x)
{
    union {
        double d;
        unsigned long long u;
    } b = { .d = x };
    int field = (int)((b.u >> 52) & 0x7ff);
    if (field != 0 && field != 0x7ff)
        return field - 1022;
    int e;
    (void)frexp(x, &e);
    return e;
}

#endif
