/* geluref_monotone: the intervals where a function is known monotone (geluref.h).
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
    switch (f) {
    case GELUREF_NORMCDF:
    case GELUREF_ERF: return within(inc, 1, lo, hi);
    case GELUREF_ERFC: return within(dec, 1, lo, hi);
    case GELUREF_NORMPDF: return within(pdf, 2, lo, hi);
    case GELUREF_GELU_GRAD: return within(grad, 3, lo, hi);
    case GELUREF_GELU: return within(gelu, 2, lo, hi);
    default: return 0;
    }
}
