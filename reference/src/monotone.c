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
 * underflows (far tails: |f''| below 2^-1022), the 2^-1022 added bounds it. */
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
    default: return -1;
    }
    return p * g * 1.01 + 0x1p-1022;
}
