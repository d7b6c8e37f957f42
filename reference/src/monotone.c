/* geluref_monotone: the intervals where a function is known monotone, and geluref_curvature:
 * a bound of |f''| over an interval (geluref.h).
 *
 * Each claim follows from the sign of the derivative; tests/reference/test_monotone.c checks
 * every claimed piece against correctly rounded values (ordered inputs give ordered values,
 * densely next to each excluded point, where a wrong constant would show).
 *  - normcdf and erf: Phi' = phi > 0, erf' = (2/sqrt(pi)) e^(-x^2) > 0: increasing on R.
 *  - erfc = 1 - erf: decreasing on R.
 *  - normpdf: phi' = -x phi: increasing on (-inf, 0], decreasing on [0, inf).
 *  - gelu_grad = Phi + x phi: its derivative phi (2 - x^2) is negative for |x| > sqrt2 and
 *    positive for |x| < sqrt2, so decreasing on (-inf, -sqrt2], increasing on [-sqrt2, sqrt2],
 *    decreasing on [sqrt2, inf).  The pieces below stop short of +-sqrt2 at 1.414 and 1.415
 *    (1.414^2 = 1.999396 < 2 < 2.002225 = 1.415^2: exact decimal squares).
 *  - gelu = x Phi: gelu' = gelu_grad, which by the above is decreasing on (-inf, -sqrt2] with
 *    limit 0 at -inf (Phi(x) and x phi(x) both tend to 0), hence negative there; increasing on
 *    [-sqrt2, sqrt2], where gelu'(-0.755) = -1.38e-3 < 0 and gelu'(-0.748) = +1.64e-3 > 0
 *    (in double from erfc and exp, within 1e-15 of the true values, far from 0), so negative
 *    on [-sqrt2, -0.755] and positive on [-0.748, sqrt2]; decreasing on [sqrt2, inf) with
 *    limit 1, hence above 1.  So gelu decreases on (-inf, -0.755] and increases on
 *    [-0.748, inf) (its minimum is at x* = -0.75179...).
 *  - gelu_tanh = x (1 + t)/2, t = tanh(u), u = b (x + k x^3), b = sqrt(2/pi), k = 0.044715,
 *    u' = b (1 + 3 k x^2): gelu_tanh' = (1 + t)/2 + x (1 - t^2) u'/2 = (1 + t)/2 (1 + x (1 - t)
 *    u'), and 1 + t > 0.  For x >= 0 every term is positive: increasing.  For x < 0, 1 - t =
 *    1 + |t| and the factor is 1 - |x| (1 + |t|) u', where |x|, |t| = tanh(|u|) and u' all grow
 *    with |x|: so it changes sign once, and |x| (1 + |t|) u' is 0.9023 at |x| = 0.7 (below 1:
 *    increasing on [-0.7, 0]) and 1.0924 at |x| = 0.8 (above 1: decreasing on (-inf, -0.8]).
 *    (Its minimum is at -0.75246.)
 *  - gelu_sigmoid = x s(a x), s the logistic function, a = 1.702: its derivative s(a x) (1 + a x
 *    s(-a x)) is positive for x >= 0; for x < 0 the factor is 1 - a |x| s(a |x|), where a |x|
 *    s(a |x|) grows with |x| and is 0.9138 at |x| = 0.7 and 1.0839 at 0.8: increasing on
 *    [-0.7, inf), decreasing on (-inf, -0.8] (the minimum is at -0.75115).
 *  - gelu_tanh_grad = (1 + t)/2 + x (1 - t^2) u'/2: with t' = (1 - t^2) u' and u'' = 6 b k x,
 *    its derivative is (1 - t^2) (u' (1 - x t u') + 3 b k x^2).  1 - t^2 > 0 and 3 b k x^2 >= 0;
 *    x t = |x| tanh(|u|) >= 0, and |x| tanh(|u|) u' grows with |x|, 0.9511 at |x| = 1.25: below
 *    1, so the derivative is positive and gelu_tanh_grad increasing on [-1.25, 1.25].  Beyond
 *    (extrema at +-1.4185) nothing is claimed.
 *    (The three values were computed in double from tanh and exp, within 1e-15 of the true
 *    ones, far from 1.)
 * The other functions are not claimed (0). */
#include <math.h>

#include "geluref.h"

/* +1 or -1 when [lo, hi] lies in a piece of pieces[] (n of them, each [a, b] with its
 * direction), else 0. */
struct piece {
    double a, b;
    int dir;
};
static int within(const struct piece *p, int n, double lo, double hi)
{
    for (int i = 0; i < n; i++)
        if (p[i].a <= lo && hi <= p[i].b)
            return p[i].dir;
    return 0;
}

int geluref_monotone(enum geluref_func f, double lo, double hi)
{
    if (!(lo <= hi)) /* NaN, or an empty interval */
        return 0;
    static const struct piece inc[] = { { -INFINITY, INFINITY, 1 } };
    static const struct piece dec[] = { { -INFINITY, INFINITY, -1 } };
    static const struct piece pdf[] = { { -INFINITY, 0, 1 }, { 0, INFINITY, -1 } };
    static const struct piece grad[] = { { -INFINITY, -1.415, -1 },
                                         { -1.414, 1.414, 1 },
                                         { 1.415, INFINITY, -1 } };
    static const struct piece gelu[] = { { -INFINITY, -0.755, -1 }, { -0.748, INFINITY, 1 } };
    static const struct piece approx[] = { { -INFINITY, -0.8, -1 }, { -0.7, INFINITY, 1 } };
    static const struct piece tgrad[] = { { -1.25, 1.25, 1 } };
    switch (f) {
    case GELUREF_NORMCDF:
    case GELUREF_ERF: return within(inc, 1, lo, hi);
    case GELUREF_ERFC: return within(dec, 1, lo, hi);
    case GELUREF_NORMPDF: return within(pdf, 2, lo, hi);
    case GELUREF_GELU_GRAD: return within(grad, 3, lo, hi);
    case GELUREF_GELU: return within(gelu, 2, lo, hi);
    case GELUREF_GELU_TANH:
    case GELUREF_GELU_SIGMOID: return within(approx, 2, lo, hi);
    case GELUREF_GELU_TANH_GRAD: return within(tgrad, 1, lo, hi);
    default: return 0;
    }
}

/* geluref_curvature.  Each f'' is a polynomial P times a Gaussian factor, from the derivatives
 * quoted above (phi' = -x phi):
 *  - normcdf'' = phi' = -x phi, so |P| = |x|;
 *  - normpdf'' = (x^2 - 1) phi, |P| <= x^2 + 1;
 *  - gelu'' = gelu_grad' = (2 - x^2) phi, |P| <= x^2 + 2;
 *  - gelu_grad'' = -x phi (2 - x^2) - 2 x phi = x (x^2 - 4) phi, |P| <= |x| (x^2 + 4);
 *  - erf'' = -(4 / sqrt(pi)) x e^(-x^2) and erfc'' = -erf'': |f''| = 2.2567... |x| e^(-x^2).
 * Over [lo, hi], with z = |x| between za (0 where the interval holds 0, else the smaller of
 * |lo| and |hi|) and zb (the larger): each |P| above is at most its right side at zb (each
 * grows with z), and phi(x) = e^(-z^2/2) / sqrt(2 pi) <= 0.4 e^(-za^2/2) (1/sqrt(2 pi) =
 * 0.3989...), e^(-x^2) <= e^(-za^2).  In double, za^2, exp (glibc's, within an ulp) and the
 * products are each within a few 2^-53 relatively, and za^2 <= 2^20 moves e^(-za^2/2) by a
 * factor e^(2^20 2^-53) at most: the factor 1.01 covers all of it.  Where the product
 * underflows (far tails: |f''| below 2^-1022), the 2^-1022 added bounds it.
 *
 * The approximations (|x| between za and zb as above).  Their factors that shrink with |x|
 * are bounded at za with constants rounded down in the exponent (a_lo = 1.7019 < 1.702,
 * b_lo = 0.797884 < sqrt(2/pi) = 0.7978845608..., k_lo = 0.044714 < 0.044715: a smaller
 * exponent, a larger bound), the polynomials at zb with constants rounded up (a_hi = 1.7021,
 * b_hi = 0.797885, k_hi = 0.044716); the roundings of double are covered by 1.01 as above
 * (the exponents below 2^32 in size move the exponential by 2^32 2^-52 relatively at most,
 * and where they are that large it underflows to the 2^-1022 added).
 *  - gelu_sigmoid = x s(a x): with s = s(a x) and q = s (1 - s) (s' = a q, q' = a q (1 - 2 s)),
 *    f' = s + a x q and f'' = a q (2 + a x (1 - 2 s)), so |f''| <= a q (2 + a |x|) as
 *    |1 - 2 s| <= 1; and q = s(a |x|) s(-a |x|) <= s(-a |x|) = 1 / (1 + e^(a |x|)) <
 *    e^(-a |x|), and q <= 1/4: q <= min(1/4, e^(-a za)).
 *  - gelu_tanh = x (1 + t) / 2 (monotone.c's geluref_monotone comment): with T = 1 - t^2 (T' =
 *    -2 t T u') and u'' = 6 b k x, f' = (1 + t) / 2 + x T u' / 2 and f'' = T P, P = u' - x t
 *    u'^2 + 3 b k x^2, so |f''| <= T (u' + |x| u'^2 + 3 b k x^2) (|t| <= 1, u' > 0); u' =
 *    b (1 + 3 k x^2) grows with |x|; T = sech^2(u) = 4 / (e^u + e^-u)^2 <= min(1, 4 e^(-2 |u|))
 *    and |u| = b (|x| + k |x|^3) grows with |x|.
 *  - gelu_tanh_grad = gelu_tanh': its f'' is gelu_tanh''' = (T P)' = T (P' - 2 t u' P), P' =
 *    12 b k x - t u'^2 - x T u'^3 - 12 b k x^2 t u' (from t' = T u', u'' = 6 b k x), so
 *    |f''| <= T (2 u' |P| + |P'|) with |P| and |P'| bounded by the sums of their terms'
 *    magnitudes (|t| <= 1, T <= 1), each growing with |x|. */
double geluref_curvature(enum geluref_func f, double lo, double hi)
{
    if (!(lo <= hi) || !isfinite(lo) || !isfinite(hi) || fmax(fabs(lo), fabs(hi)) > 0x1p10)
        return -1;
    double za = lo <= 0 && hi >= 0 ? 0 : fmin(fabs(lo), fabs(hi)), zb = fmax(fabs(lo), fabs(hi));
    double g = 0.4 * exp(-0.5 * (za * za)); /* phi's bound */
    double p;
    switch (f) {
    case GELUREF_NORMCDF: p = zb; break;
    case GELUREF_NORMPDF: p = zb * zb + 1; break;
    case GELUREF_GELU: p = zb * zb + 2; break;
    case GELUREF_GELU_GRAD: p = zb * (zb * zb + 4); break;
    case GELUREF_ERF:
    case GELUREF_ERFC:
        p = 2.26 * zb;
        g = exp(-(za * za));
        break;
    case GELUREF_GELU_SIGMOID:
        p = 1.7021 * (2 + 1.7021 * zb);
        g = fmin(0.25, exp(-1.7019 * za));
        break;
    case GELUREF_GELU_TANH:
    case GELUREF_GELU_TANH_GRAD: {
        const double b = 0.797885, bk = b * 0.044716;
        double u1 = b + 3 * bk * (zb * zb); /* u' at zb */
        double pp = u1 + zb * (u1 * u1) + 3 * bk * (zb * zb); /* |P| */
        g = fmin(1, 4 * exp(-2 * (0.797884 * (za + 0.044714 * (za * za * za)))));
        if (f == GELUREF_GELU_TANH)
            p = pp;
        else
            p = 2 * u1 * pp + (12 * bk * zb + u1 * u1 + zb * (u1 * u1 * u1) +
                               12 * bk * (zb * zb) * u1);
        break;
    }
    default: return -1;
    }
    return p * g * 1.01 + 0x1p-1022;
}
