/* The fast path's functions: each gives an enclosure of f(x) with a proved relative error
 * bound (GR_FX_VALUE), or a rule's stand-in interval inside the open (p+16)-bit cell that
 * holds f(x) (GR_FX_CELL), or says |f(x)| is negligible (GR_FX_TINY), or gives up
 * (GR_FX_NONE: the MPFR path decides).  x is finite and nonzero (special values go to the
 * MPFR path); the dtype's precision is at most 53, so prec = p + 16 <= 69.
 *
 * The rules, with the bounds behind them:
 *  - x < -60 (gelu, normcdf, gelu_grad), |x| > 60 (normpdf, gelu_grad2), erfc(x > 42.7):
 *    |f(x)| <= 60^2 phi(60) < 2^-2580, below every dtype's negligible bound (>= 2^-2150).
 *  - saturation, x > 40 (or erfc/erf beyond z = sqrt2 |x| > 60.4, or when the Gaussian term
 *    s is below 2^-(prec+1): gelu, normcdf, erf, erfc, gelu_grad and gelu_tanh_grad from a
 *    bound on s, each argued at its function): f(x) = c (1 -+ s), c = x, 1 or 2: the open
 *    cell next to c on that side (c is a p-bit number, so a grid point) is at least |c|
 *    2^-prec wide and holds f(x) and the stand-in interval of cell_k().
 *  - |x| < 2^-(prec+1): f(x) = c (1 + d) with c = x/2, 1/2 or 1 and |d| < 1.6 |x| < 2^-prec
 *    of a known sign (gelu: 2 phi(0) x (1 - x^2/6 + ...) > 0 relative to x/2; normcdf: 2 phi(0)
 *    x; gelu_grad: 4 phi(0) x; erfc: -2x/sqrt(pi)): the same.  Above these thresholds |d| is
 *    at least 0.4 of a cell, far beyond the enclosure's error (< 2^-65 relatively).
 *  - |x| < 2^-500 (binary64 only; x^2 would underflow): normpdf, gelu_grad2 and erf are
 *    c (1 + d) with c irrational and |d| < x^2: a VALUE with 2^-490 added to its bound. */
#include "fast_phi.h"

#ifndef GR_FAST_ENTRY /* the variant's name (reference/CMakeLists.txt) */
#define GR_FAST_ENTRY gr_fast_eval_generic
#endif

#define U2 0x1p-106 /* u^2 */

/* The near-zero and saturation rules apply below 2^-(prec+1) (see the header). */
static double near0(const struct gr_fx *o) { return dd_ldexp(1.0, -(o->prec + 1)); }

/* An enclosure m 2^e with relative error rel: err = rel |m.hi| (1 + 2^-40), where 2^-40
 * covers |m.lo| and the rounding of the product. */
static enum gr_fx_kind value(struct gr_fx *o, dd m, int64_t e, double rel)
{
    if (m.hi == 0 || !(rel < 0x1p-60))
        return o->kind = GR_FX_NONE;
    o->m = m;
    o->e = e;
    o->err = rel * fabs(m.hi) * (1 + 0x1p-40);
    return o->kind = GR_FX_VALUE;
}

/* f(x) = c 2^k (1 + dir d) with 0 < d < 2^-prec and c = fr 2^e exactly (fr = +-[1/2, 1)):
 * the open cell next to c 2^k on d's side is at least |c| 2^(k-prec) wide (c is a p-bit
 * number; toward 0 from a power of two the binade below is finer, 2^-prec |c| 2^k), and f(x)
 * lies in it; so does the stand-in interval fr (1 + dir 2^-(prec+2)) +-
 * |fr| 2^-(prec+4), at between 3/16 and 5/16 of the cell's width from c.  (k = -1 gives x/2
 * even for the smallest subnormal, which x * 0.5 would round to 0.) */
static enum gr_fx_kind cell_k(struct gr_fx *o, double c, int k, int dir)
{
    int e = dd_frexp_exp(c);
    double fr = dd_ldexp(c, -e); /* exact: c is a normal or subnormal double */
    o->m = fast_two_sum(fr, dd_ldexp(fr * dir, -(o->prec + 2)));
    o->e = (int64_t)e + k;
    o->err = dd_ldexp(fabs(fr), -(o->prec + 4));
    o->cell_c = fr;
    o->cell_dir = dir;
    return o->kind = GR_FX_CELL;
}

static enum gr_fx_kind cell(struct gr_fx *o, double c, int dir) { return cell_k(o, c, 0, dir); }

/* The rule just applied (kind k) is the branch taken for every x in (lo, hi) and its result
 * does not depend on x there: see gr_fx.run_lo.  The intervals below are the branches'
 * conditions, which are disjoint from the earlier branches of each function. */
static enum gr_fx_kind run(struct gr_fx *o, enum gr_fx_kind k, double lo, double hi)
{
    o->run_lo = lo;
    o->run_hi = hi;
    return k;
}

/* The x > 0 or x < 0 half of (-a, a) holding x. */
static enum gr_fx_kind run_half(struct gr_fx *o, enum gr_fx_kind k, double x, double a)
{
    return x > 0 ? run(o, k, 0, a) : run(o, k, -a, 0);
}

/* cell_k(o, x, k, dir), the branch taken for every x in (lo, hi): see gr_fx.run_cx. */
static enum gr_fx_kind run_x(struct gr_fx *o, double x, int k, int dir, double lo, double hi)
{
    enum gr_fx_kind r = run(o, cell_k(o, x, k, dir), lo, hi);
    o->run_cx = 1;
    o->run_k = k;
    o->run_dir = dir;
    return r;
}

static enum gr_fx_kind tiny(struct gr_fx *o, int sign)
{
    o->m = dd_make(sign, 0);
    o->e = 0;
    o->err = 0;
    return o->kind = GR_FX_TINY;
}

/* The light variants of exp and M serve results of at most GR_LIGHT_PREC bits. */
static int light(const struct gr_fx *o) { return o->prec <= GR_LIGHT_PREC; }
static double eps_exp(const struct gr_fx *o) { return light(o) ? GR_EPS_EXP_LIGHT : GR_EPS_EXP; }
static double eps_m(const struct gr_fx *o) { return light(o) ? GR_EPS_M_LIGHT : GR_EPS_M; }
static dd exp_neg(const struct gr_fx *o, dd y, int64_t *q)
{
    return light(o) ? gr_fast_exp_neg_light(y, q) : gr_fast_exp_neg(y, q);
}
static dd mills(const struct gr_fx *o, dd z)
{
    return light(o) ? gr_fast_mills_light(z) : gr_fast_mills(z);
}

/* The Gaussian part for |x| <= 60: g = e^(-x^2/2) / sqrt(2 pi) = m 2^-q with relative error
 * eps_gauss = eps_exp + 4u^2 + 2^-106 (x^2 = two_prod exactly: |x| >= 2^-500 so no underflow;
 * halving is exact; the constant's own rounding 2^-106, the product 4u^2). */
static double eps_gauss(const struct gr_fx *o) { return eps_exp(o) + 5 * U2; }
static dd gauss(const struct gr_fx *o, double x, int64_t *q)
{
    dd y = two_prod(x, x);
    y = dd_make(y.hi * 0.5, y.lo * 0.5);
    return dd_mul(exp_neg(o, y, q), gr_fast_inv_sqrt2pi);
}

/* Phi(-z) = g M(z) for z = |x| in [2^-500, 60]: m 2^-q, relative error eps_tail. */
static double eps_tail(const struct gr_fx *o) { return eps_gauss(o) + eps_m(o) + 4 * U2; }
static dd tail_prob(const struct gr_fx *o, double z, int64_t *q)
{
    return dd_mul(gauss(o, z, q), mills(o, dd_make(z, 0)));
}

/* s = a 2^-q (a > 0) as a double-double, or 0 when s < 2^-(prec+1) (the callers'
 * saturation rule: c (1 -+ s) lies in the open cell next to c).  a.lo 2^-q may round into
 * the subnormals: callers charge 2^-1070 for it. */
static int scaled(const struct gr_fx *o, dd a, int64_t q, dd *s)
{
    if (q > 1100 || dd_ldexp(a.hi, (int)-q) < near0(o))
        return 0;
    *s = dd_make(dd_ldexp(a.hi, (int)-q), dd_ldexp(a.lo, (int)-q));
    return 1;
}

/* 1 - a 2^-q for 0 < a 2^-q < 1 with a's relative error ea: the result and its
 * relative error (ea a 2^-q + 2^-1070, then 2u^2 of dd_add_d), or 0 when a 2^-q is below
 * 2^-(prec+1) (the caller's saturation rule). */
static int one_minus(const struct gr_fx *o, dd a, int64_t q, double ea, dd *r, double *er)
{
    dd s;
    if (!scaled(o, a, q, &s))
        return 0;
    *r = dd_add_d(dd_neg(s), 1.0);
    *er = (ea * fabs(s.hi) * (1 + 0x1p-40) + 0x1p-1070) / r->hi + 2 * U2;
    return 1;
}

/* x Phi(x) for 0 < |x| <= GELU_SERIES_X by its series at 0, for results of at most
 * GR_LIGHT_PREC = 40 bits (at binary64's 69 its bound would leave one value in a thousand of
 * the range to MPFR, where the general path leaves none): Phi(x) - 1/2 = phi(0) (x - x^3/6
 * + x^5/40 - x^7/336 + ...), so x Phi(x) = x/2 + T, T = phi(0) x^2 P(x^2),
 * P(t) = 1 - t/6 + t^2/40 - t^3/336 + R, |R| <= t^4/3456 < 2^-91 for t <= 2^-20.
 * Error: x^2 = two_prod exactly (|x| >= 2^-41 here: no underflow); q = RN(x^2);
 * P - 1 = q (-1/6 + q (1/40 - q/336)) in double, its terms below 2^-22.5, each operation
 * and constant and q itself within u (6 of them charged: 6u 2^-22.5 < 2^-72.9), with R:
 * P = 1 + (P - 1) by fast_two_sum exactly, within 2^-72.8 of the true P >= 1 - 2^-22, so
 * 2^-72.7 relatively; the two dd_mul and phi(0)'s rounding add 2 DD_EPS + 2^-106: T within
 * 2^-72.6 relatively.  |T| <= 0.4 x^2 (1 + 2^-20) and |x Phi(x)| >= |x|/2 (1 - 0.8 |x|), so
 * |T| < 2^-10.3 |x Phi(x)| and T's error is below 2^-82.9 of the result; dd_add_d with the
 * exact x/2 (x is normal) adds DD_EPS.  Charged: 2^-80.  The general path (exp and the
 * Mills ratio) costs several times more; this range is 31 binades of binary32 per sign. */
#define GELU_SERIES_X 0x1p-10
static enum gr_fx_kind gelu_series(double x, struct gr_fx *o)
{
    dd x2 = two_prod(x, x);
    double q = x2.hi;
    double pm1 = gr_gelu_series_pm1(q);
    dd t = dd_mul(dd_mul(x2, fast_two_sum(1.0, pm1)), gr_fast_inv_sqrt2pi);
    return value(o, dd_add_d(t, x * 0.5), 0, 0x1p-80);
}

/* The double tier of gelu, for results of at most GR_LIGHT_PREC = 40 bits (binary32 and
 * narrower) and GELU_SERIES_X < |x|, -60 <= x <= the saturation bound: x Phi(x) in double with
 * a relative error below 2^-49 = 16u (u = 2^-53):
 *  p = e^(-z^2/2) / sqrt(2 pi) M(z) 2^q, z = |x|: z^2/2 exactly (two_prod, halved), e^(-y)
 *  within 3.1u (fast_phi.h), the constant's hi part and the product u each: 5.1u; M(z) within
 *  3.7u and the product u: p within 9.8u (second-order terms < 2^-90).
 *  x < 0: x Phi(x) = x p 2^-q: one more product, 10.8u.
 *  x > 0: x (1 - s), s = p 2^-q = Phi(-z) <= 1/2 scaled exactly (z < 10: q < 50), so s's
 *  error 9.8u s is at most 9.8u (1 - s); the subtraction and the product u each: 11.8u.
 * About three times cheaper than the light double-double path; where its wider bound does not
 * decide the rounding (0.3% of binary32 gelu in [-8, 7], measured), odd.c fast() evaluates
 * again without it (GR_FX_NO_DOUBLE). */
#define GELU_DOUBLE_REL 0x1p-49
static enum gr_fx_kind gelu_double(double x, struct gr_fx *o)
{
    double z = fabs(x);
    dd y = two_prod(z, z);
    y = dd_make(y.hi * 0.5, y.lo * 0.5);
    int64_t q;
    double p = gr_fast_exp_neg_d(y, &q) * gr_fast_inv_sqrt2pi.hi * gr_fast_mills_d(z);
    double m = x < 0 ? p * x : (1 - dd_ldexp(p, (int)-q)) * x;
    o->m = dd_make(m, 0);
    o->e = x < 0 ? -q : 0;
    o->err = GELU_DOUBLE_REL * fabs(m) * (1 + 0x1p-40);
    o->tier = 1;
    return o->kind = GR_FX_VALUE;
}

/* A bound above sqrt(2 (prec+1) ln2) (5.89 for bfloat16, prec = 24, to 9.85 for binary64):
 * ln2 rounded up, two roundings and the square root's within 3u, the factor 1 + 2^-40 covers
 * them. */
static double gelu_sat_x(const struct gr_fx *o)
{
    return sqrt(2.0 * (o->prec + 1) * 0x1.62e42fefa39f0p-1) * (1 + 0x1p-40);
}

/* erf's and erfc's saturation: a bound above sqrt((prec+1) ln2) (5.33 for binary32's
 * prec = 40, 6.97 for binary64's 69), gelu_sat_x / sqrt2 (the same roundings, covered by the
 * same factor).  Beyond it erfc(z) < e^(-z^2) / (z sqrt(pi)) < e^(-z^2) (the Mills ratio
 * bound; z sqrt(pi) > 1) is below 2^-(prec+1): erf(z) = 1 - erfc(z) and erfc(-z) =
 * 2 (1 - erfc(z)/2) lie in the open cell next to 1 and 2 below them (cell()). */
static double erf_sat_z(const struct gr_fx *o)
{
    return sqrt((o->prec + 1) * 0x1.62e42fefa39f0p-1) * (1 + 0x1p-40);
}

/* The open interval of z beyond the saturation bound up to the double after ERFC_ZMAX (the
 * rule of |x| > ERFC_ZMAX, which is the same cell, takes over there). */
#define ERFC_ZMAX_NEXT 0x1.559999999999bp+5 /* the double after 42.7 = 0x1.559999999999ap+5 */

/* The exponent of the negligible bound (gr_tiny_log2, odd.c) of the dtype whose results are
 * decided at o->prec = p + 16 bits (odd.c EXTRA_BITS): binary32's at 40, bfloat16's at 24,
 * binary16's at 27; binary64's (69), or any other precision, binary64's -2150, the lowest of
 * them (so never above the dtype's own). */
static int tiny_log2_of(const struct gr_fx *o)
{
    switch (o->prec) {
    case 40: return gr_tiny_log2(GELUREF_F32);
    case 24: return gr_tiny_log2(GELUREF_BF16);
    case 27: return gr_tiny_log2(GELUREF_F16);
    default: return gr_tiny_log2(GELUREF_F64);
    }
}

/* The TINY rules of the Gaussian tail from the dtype's negligible bound 2^T (tiny_log2_of) on,
 * below 60 and 42.7 where the fixed rules start: for z >= 1, phi(z) = e^(-z^2/2) / sqrt(2 pi),
 * gelu's |f(-z)| = z Phi(-z) < phi(z) and Phi(-z) < phi(z) / z <= phi(z) (the Mills ratio M(z)
 * = Phi(-z)/phi(z) < 1/z), below 2^T once z^2 > 2 (-T ln2 - 0.918938) (ln sqrt(2 pi) =
 * 0.9189385): gauss_tiny_z, 41.19 for binary32, 40.92 for bfloat16, 39.03 for binary16,
 * 54.58 for binary64; and erfc(z) < e^(-z^2) / (z sqrt(pi)) < e^(-z^2), below 2^T once z^2 >
 * -T ln2: erfc_tiny_z, 29.14, 28.95, 27.61 and 38.60.  The bounds: 0.9189 for 0.9189385 and
 * ln2 rounded up, the roundings of the sum, product and square root (within 4u) covered by
 * (1 + 2^-40).  Beyond them the result is GELUREF_ODD_TINY, as odd.c and the MPFR path report
 * it there, so one rule (GELUREF_RUN_SAME) up to the fixed one. */
static double gauss_tiny_z(const struct gr_fx *o)
{
    return sqrt(2.0 * (-tiny_log2_of(o) * 0x1.62e42fefa39f0p-1 - 0.9189)) * (1 + 0x1p-40);
}
static double erfc_tiny_z(const struct gr_fx *o)
{
    return sqrt(-tiny_log2_of(o) * 0x1.62e42fefa39f0p-1) * (1 + 0x1p-40);
}

/* x Phi(x) */
static enum gr_fx_kind gelu(double x, struct gr_fx *o)
{
    if (x < -60)
        return run(o, tiny(o, -1), -INFINITY, -60);
    if (x < -38) { /* above every dtype's gauss_tiny_z */
        double tz = gauss_tiny_z(o);
        if (x < -tz) /* [-60, -tz): the open interval from the double below -60 */
            return run(o, tiny(o, -1), -0x1.e000000000001p+5, -tz);
    }
    if (x > 40)
        return run_x(o, x, 0, -1, 40, INFINITY);
    /* below 40 the same rule where s = Phi(-x) is below 2^-(prec+1) (one_minus below would
     * find it so and take the same cell): s < phi(x)/x <= e^(-x^2/2) for x >= 0.4 (the Mills
     * ratio M(x) < 1/x), below 2^-(prec+1) once x^2 > 2 (prec+1) ln2 */
    if (x > 5.8) { /* below every precision's bound: the square root only up here */
        double sx = gelu_sat_x(o);
        if (x > sx) /* (sx, 40]: the open interval up to the double after 40 */
            return run_x(o, x, 0, -1, sx, 0x1.4000000000001p+5);
    }
    if (fabs(x) < near0(o))
        return x > 0 ? run_x(o, x, -1, 1, 0, near0(o)) : run_x(o, x, -1, -1, -near0(o), 0);
    if (light(o) && fabs(x) <= GELU_SERIES_X)
        return gelu_series(x, o);
    if (light(o) && !o->no_double)
        return gelu_double(x, o);
    int64_t q;
    dd p = tail_prob(o, fabs(x), &q);
    if (x < 0) /* x Phi(x) = x g M(-x): one dd_mul_d more (2u^2) */
        return value(o, dd_mul_d(p, x), -q, eps_tail(o) + 2 * U2);
    dd r;
    double er;
    if (!one_minus(o, p, q, eps_tail(o), &r, &er))
        return cell(o, x, -1);
    return value(o, dd_mul_d(r, x), 0, er + 2 * U2);
}

/* Phi(x) */
static enum gr_fx_kind normcdf(double x, struct gr_fx *o)
{
    if (x < -60)
        return run(o, tiny(o, 1), -INFINITY, -60);
    if (x < -38) { /* above every dtype's gauss_tiny_z */
        double tz = gauss_tiny_z(o);
        if (x < -tz)
            return run(o, tiny(o, 1), -0x1.e000000000001p+5, -tz);
    }
    if (x > 40)
        return run(o, cell(o, 1.0, -1), 40, INFINITY);
    /* below 40 the same cell where Phi(-x) < e^(-x^2/2) (x >= 0.4: gelu's argument) is below
     * 2^-(prec+1), as one_minus below would find it */
    if (x > 5.8) {
        double sx = gelu_sat_x(o);
        if (x > sx)
            return run(o, cell(o, 1.0, -1), sx, 0x1.4000000000001p+5);
    }
    if (fabs(x) < near0(o))
        return run_half(o, cell(o, 0.5, x > 0 ? 1 : -1), x, near0(o));
    int64_t q;
    dd p = tail_prob(o, fabs(x), &q);
    if (x < 0)
        return value(o, p, -q, eps_tail(o));
    dd r;
    double er;
    if (!one_minus(o, p, q, eps_tail(o), &r, &er))
        return cell(o, 1.0, -1);
    return value(o, r, 0, er);
}

/* phi's flat top: |x| < T = 2^-max(32, floor(prec/2) + 12) (2^-32 for binary32's prec = 40,
 * 2^-46 for binary64's 69).  phi(x) = phi(0) e^(-x^2/2) with 0 < 1 - e^(-x^2/2) < x^2/2 <
 * T^2/2 <= 2^-(prec+23) and <= 2^-65: one enclosure for the whole interval, m = 1/sqrt(2 pi)
 * (within 2^-106), relative error below 2^-106 + T^2/2 over (1 - T^2/2), charged 2^-105 +
 * T^2/2 (1 + 2^-50) < 2^-60.  It does not depend on x, so the rule is a run (GELUREF_RUN_SAME)
 * where it decides phi(0)'s prec-bit cell: phi(0) is no closer to a cell's end than that bound
 * (otherwise fast() gives up and the MPFR path decides, with no run; tests/reference/
 * test_run.c checks each reported run against the MPFR path).  The binades below T are 94 of
 * the 126 negative binades of binary32 below 1. */
static double normpdf_flat_x(const struct gr_fx *o)
{
    int k = o->prec / 2 + 12;
    return dd_ldexp(1.0, -(k > 32 ? k : 32));
}

/* phi(x) */
static enum gr_fx_kind normpdf(double x, struct gr_fx *o)
{
    if (fabs(x) > 60)
        return x > 0 ? run(o, tiny(o, 1), 60, INFINITY) : run(o, tiny(o, 1), -INFINITY, -60);
    if (fabs(x) > 38) { /* above every dtype's gauss_tiny_z */
        double tz = gauss_tiny_z(o);
        if (fabs(x) > tz) /* [-60, -tz) and (tz, 60]: up to the doubles beyond +-60 */
            return x > 0 ? run(o, tiny(o, 1), tz, 0x1.e000000000001p+5)
                         : run(o, tiny(o, 1), -0x1.e000000000001p+5, -tz);
    }
    double t = normpdf_flat_x(o);
    if (fabs(x) < t)
        return run_half(o, value(o, gr_fast_inv_sqrt2pi, 0, 0x1p-105 + t * t * 0.5 * (1 + 0x1p-50)),
                        x, t);
    if (fabs(x) < 0x1p-500)
        return value(o, gr_fast_inv_sqrt2pi, 0, 0x1p-106 + 0x1p-490);
    int64_t q;
    dd g = gauss(o, x, &q);
    return value(o, g, -q, eps_gauss(o));
}

/* gelu_grad's saturation from below 40: for x >= 1, f = 1 + s with s = phi(x) (x - M(x)) in
 * (0, x phi(x)) (0 < M(x) < x there), and ln(x phi(x)) = ln x - x^2/2 - ln sqrt(2 pi) <=
 * (x - 1) - x^2/2 - 0.918938 = -(x - 1)^2/2 - 1.418938 (ln x <= x - 1), below -(prec+1) ln2
 * once (x - 1)^2 > 2 ((prec+1) ln2 - 1.418938).  The bound: 1.4189 for 1.418938, ln2 rounded
 * up, the roundings of the sum, product and square root (within 4u) covered by 1 + 2^-40:
 * 6.64 for bfloat16, 8.35 for binary32, 10.71 for binary64 (xphi_below_x(n): the x beyond
 * which x phi(x) < 2^-n, here n = prec + 1).  Beyond it f lies in the open cell next to 1
 * above (cell(): what x > 40 gives, and what the general path below finds there too), so one
 * rule (GELUREF_RUN_SAME) up to 40. */
static double xphi_below_x(double n)
{
    return (1 + sqrt(2.0 * (n * 0x1.62e42fefa39f0p-1 - 1.4189))) * (1 + 0x1p-40);
}
static double gelu_grad_sat_x(const struct gr_fx *o) { return xphi_below_x(o->prec + 1); }

/* Bisection on [lo, hi] for a point z with h(z) < -L, h decreasing there: n halvings, the
 * upper end kept (h(hi) < -L holds throughout where it holds at the start). */
static double bisect_below(double (*h)(double), double lo, double hi, double L, int n)
{
    for (int i = 0; i < n; i++) {
        double m = 0.5 * (lo + hi);
        if (h(m) < -L)
            hi = m;
        else
            lo = m;
    }
    return hi;
}

/* tanh_grad_sat_x's h (below) */
static double tanh_grad_sat_h(double m)
{
    return 0.46736 + m * (0.5 - 1.5957691) + m * m * (0.134146 - 0.0713548 * m);
}

/* gelu_tanh_grad's saturation from below 30: for x > 2, 0 < f - 1 < A w (gelu_tanh_grad
 * below), and ln(A w) = ln(2b) + ln x + ln(1 + 3 c2 x^2) - 2b (x + c2 x^3) <= h(x) = 0.46736 +
 * x/2 + 0.134146 x^2 - 1.5957691 x - 0.0713548 x^3 (b = sqrt(2/pi); ln x <= x/2 for x >= 2,
 * ln(1 + t) <= t; ln(2b) = 0.467356, 3 c2 = 0.134145, 2b = 1.59576912, 2b c2 = 0.07135482,
 * each rounded toward the larger h).  h decreases on [2, inf) (h' = -1.0958 + 0.2683 x -
 * 0.2141 x^2, whose discriminant is negative), so bisection finds a point x_t of [2, 30] with
 * h(x_t) < -(prec+1) ln2 - 2^-20 (h in double errs by far less than 2^-20 there), and for every
 * x >= x_t, A w < 2^-(prec+1): f lies in the open cell next to 1 above, as for x > 30.  (7.33
 * for binary32, 6.09 for bfloat16, 8.87 for binary64.) */
static double tanh_grad_sat_x(const struct gr_fx *o)
{
    /* (it depends on prec alone: the last one found, kept per thread, spares the bisection's
     * 40 steps on every evaluation beyond 6) */
    static _Thread_local int kept_prec = -1;
    static _Thread_local double kept_x;
    if (o->prec == kept_prec)
        return kept_x;
    const double L = (o->prec + 1) * 0x1.62e42fefa39f0p-1 + 0x1p-20;
    kept_prec = o->prec;
    kept_x = bisect_below(tanh_grad_sat_h, 2, 30, L, 40);
    return kept_x;
}

/* gelu_grad's TINY rule from above -60: for x = -z, z >= 1, f = phi(z) (M(z) - z) < 0 and
 * |f| = phi(z) (z - M(z)) < z phi(z) <= e^(-(z - 1)^2/2 - 1.418938) (as gelu_grad_sat_x), below
 * the dtype's negligible bound 2^T once (z - 1)^2 > 2 (-T ln2 - 1.418938): xphi_below_x(-T)
 * (42.17 for binary32, 41.90 for bfloat16, 40.01 for binary16, 55.57 for binary64, all below
 * 60).  Beyond it the result is GELUREF_ODD_TINY, as odd.c and the MPFR path report it there,
 * so one rule (GELUREF_RUN_SAME) down to -60. */
static double gelu_grad_tiny_z(const struct gr_fx *o) { return xphi_below_x(-tiny_log2_of(o)); }

/* Phi(x) + x phi(x) = g (M(z) - z) for x = -z < 0, 1 + g (x - M(x)) for x > 0.  The
 * difference D = M -+ z is charged absolutely: |dD| <= GR_EPS_M M + 2u^2 |D| (dd_add_d),
 * so near the zero x* = -0.7518 the relative bound grows and the MPFR path takes over. */
static enum gr_fx_kind gelu_grad(double x, struct gr_fx *o)
{
    if (x < -60)
        return run(o, tiny(o, -1), -INFINITY, -60);
    if (x < -40) { /* above every dtype's gelu_grad_tiny_z */
        double tz = gelu_grad_tiny_z(o);
        if (x < -tz) /* [-60, -tz): the open interval from the double below -60 */
            return run(o, tiny(o, -1), -0x1.e000000000001p+5, -tz);
    }
    if (x > 40)
        return run(o, cell(o, 1.0, 1), 40, INFINITY);
    if (x > 6.5) { /* below every precision's gelu_grad_sat_x */
        double sx = gelu_grad_sat_x(o);
        if (x > sx) /* (sx, 40]: the open interval up to the double after 40 */
            return run(o, cell(o, 1.0, 1), sx, 0x1.4000000000001p+5);
    }
    if (fabs(x) < near0(o))
        return run_half(o, cell(o, 0.5, x > 0 ? 1 : -1), x, near0(o));
    double z = fabs(x);
    int64_t q;
    dd g = gauss(o, z, &q);
    dd mz = mills(o, dd_make(z, 0));
    dd d = x < 0 ? dd_add_d(mz, x) : dd_add_d(dd_neg(mz), x);
    if (d.hi == 0)
        return o->kind = GR_FX_NONE;
    double ed = (eps_m(o) * fabs(mz.hi) * (1 + 0x1p-40)) / fabs(d.hi) + 2 * U2;
    dd p = dd_mul(g, d); /* relative error ed + eps_gauss(o) + 4u^2 */
    double ep = ed + eps_gauss(o) + 4 * U2;
    if (x < 0)
        return value(o, p, -q, ep);
    if (!(ep < 0x1p-60)) /* near the zero of D at x = 0.7518 its sign is not known */
        return o->kind = GR_FX_NONE;
    dd s;
    int dir = p.hi > 0 ? 1 : -1;
    if (!scaled(o, dir > 0 ? p : dd_neg(p), q, &s)) /* 1 + g d, |g d| < 2^-(prec+1) */
        return cell(o, 1.0, dir);
    if (dir < 0)
        s = dd_neg(s);
    dd r = dd_add_d(s, 1.0); /* r >= 1/2 (gelu_grad > 1/2 for x > 0) */
    return value(o, r, 0, (ep * fabs(s.hi) * (1 + 0x1p-40) + 0x1p-1070) / r.hi + 2 * U2);
}

/* phi(x) (2 - x^2): 2 - x^2 from the exact x^2 = y.hi + y.lo by two_sum (exact) and
 * dd_add_d (2u^2 of the exact result, however much cancels). */
static enum gr_fx_kind gelu_grad2(double x, struct gr_fx *o)
{
    if (fabs(x) > 60)
        return x > 0 ? run(o, tiny(o, -1), 60, INFINITY) : run(o, tiny(o, -1), -INFINITY, -60);
    if (fabs(x) < 0x1p-500)
        return value(o, dd_mul_d(gr_fast_inv_sqrt2pi, 2.0), 0, 0x1p-106 + 0x1p-490);
    dd y = two_prod(x, x);
    dd w = dd_add_d(two_sum(2.0, -y.hi), -y.lo);
    int64_t q;
    dd g = gauss(o, x, &q);
    return value(o, dd_mul(g, w), -q, eps_gauss(o) + 6 * U2);
}

/* erfc(z) for z = |x| in [2^-500, 42.7]: erfc(z) = e^(-z^2) M(sqrt2 z) sqrt(2/pi) = m 2^-q.
 * The argument w = sqrt2 z (dd_mul_d, 2u^2, and the constant's 2^-106) errs by < 2.5u^2 w;
 * |M'| <= 1 on [0, inf) and M(w) >= 1/(w + 1) (Birnbaum's bound M(w) > 2/(w + sqrt(w^2+4))),
 * so M errs by another 2.5u^2 w (w + 1) relatively.  Returns the relative error. */
static double erfc_pos(const struct gr_fx *o, double z, dd *m, int64_t *q)
{
    dd w = dd_mul_d(gr_fast_sqrt2, z);
    dd y = two_prod(z, z);
    dd e = exp_neg(o, y, q);
    *m = dd_mul(dd_mul(e, mills(o, w)), gr_fast_sqrt_2_pi);
    return eps_exp(o) + eps_m(o) + 2.5 * U2 * w.hi * (w.hi + 1) * (1 + 0x1p-40) + 9 * U2;
}

#define ERFC_ZMAX 42.7 /* sqrt2 42.7 = 60.39 <= GR_M_ZMAX */

static enum gr_fx_kind erfc_fn(double x, struct gr_fx *o)
{
    if (x > ERFC_ZMAX)
        return run(o, tiny(o, 1), ERFC_ZMAX, INFINITY);
    if (x > 27) { /* above every dtype's erfc_tiny_z */
        double tz = erfc_tiny_z(o);
        if (x > tz) /* (tz, 42.7]: the open interval up to the double after 42.7 */
            return run(o, tiny(o, 1), tz, ERFC_ZMAX_NEXT);
    }
    if (x < -ERFC_ZMAX)
        return run(o, cell(o, 2.0, -1), -INFINITY, -ERFC_ZMAX);
    if (x < -4.1) { /* saturation: erf_sat_z (4.16 for bfloat16, the smallest bound) */
        double sz = erf_sat_z(o);
        if (x < -sz)
            return run(o, cell(o, 2.0, -1), -ERFC_ZMAX_NEXT, -sz);
    }
    if (fabs(x) < near0(o))
        return run_half(o, cell(o, 1.0, x > 0 ? -1 : 1), x, near0(o));
    dd m;
    int64_t q;
    double em = erfc_pos(o, fabs(x), &m, &q);
    if (x > 0)
        return value(o, m, -q, em);
    dd s;
    if (!scaled(o, m, q, &s))
        return cell(o, 2.0, -1);
    dd r = dd_add_d(dd_neg(s), 2.0); /* r in [1, 2] */
    return value(o, r, 0, (em * fabs(s.hi) * (1 + 0x1p-40) + 0x1p-1070) / r.hi + 2 * U2);
}

/* erf(z), z = |x| > 0; odd.  z < 2^-4: erf(z) = 2/sqrt(pi) z sum_{n<10} c_n z^(2n), an
 * alternating series with decreasing terms: truncation < z^20/(10! 21) < 2^-106; Horner in
 * dd over u = z^2 (exact) errs by < 4u^2 (the steps n >= 1 weigh <= 2^-8 each), the two
 * products 6u^2, the constants 2^-106 each: < 2^-101.  Above: 1 - erfc(z), whose relative
 * bound one_minus computes (erfc(z)/erf(z) <= 14 for z >= 2^-4). */
static enum gr_fx_kind erf_fn(double x, struct gr_fx *o)
{
    double z = fabs(x), sg = x < 0 ? -1.0 : 1.0;
    if (z < 0x1p-500) {
        int e;
        double fr = frexp(x, &e);
        return value(o, dd_mul_d(gr_fast_two_sqrtpi, fr), e, 0x1p-104 + 0x1p-490);
    }
    if (z < 0x1p-4) {
        dd u = two_prod(z, z);
        dd s = gr_fast_erf_c[GR_ERF_TERMS - 1];
        for (int n = GR_ERF_TERMS - 2; n >= 0; n--)
            s = dd_add(dd_mul(s, u), gr_fast_erf_c[n]);
        return value(o, dd_mul_d(dd_mul(s, gr_fast_two_sqrtpi), x), 0, 0x1p-100);
    }
    if (z > ERFC_ZMAX)
        return x > 0 ? run(o, cell(o, sg, -1), ERFC_ZMAX, INFINITY)
                     : run(o, cell(o, sg, -1), -INFINITY, -ERFC_ZMAX);
    if (z > 4.1) { /* saturation: erf_sat_z (4.16 for bfloat16, the smallest bound) */
        double sz = erf_sat_z(o);
        if (z > sz)
            return x > 0 ? run(o, cell(o, sg, -1), sz, ERFC_ZMAX_NEXT)
                         : run(o, cell(o, sg, -1), -ERFC_ZMAX_NEXT, -sz);
    }
    dd m;
    int64_t q;
    double em = erfc_pos(o, z, &m, &q);
    dd r;
    double er;
    if (!one_minus(o, m, q, em, &r, &er))
        return cell(o, sg, -1);
    return value(o, dd_mul_d(r, sg), 0, er);
}

/* The approximations' TINY rules from above -30 (the tanh form and its derivative) and -1200
 * (the sigmoid form), as tiny_rule_z finds their starts (below).  For x = -z:
 *  - gelu_tanh_grad (z >= 2): f = w/(1+w) (1 + A/(1+w)) (below) with A < -1, so |f| < w (1 +
 *    |A|) <= 2 w |A|, and ln(2 w |A|) = ln(4b) + ln z + ln(1 + 3 c2 z^2) - 2b (z + c2 z^3) <=
 *    H(z) = 1.160504 + ln z + ln(1 + 0.134146 z^2) - 1.5957691 z - 0.0713548 z^3 (ln(4b) =
 *    1.1605033 rounded up, the other constants as tanh_grad_sat_x's h, each rounded toward the
 *    larger H); H decreases on [2, inf) (H' <= 1/2 + sqrt(0.134146) - 1.5957691 < 0: 2 a z /
 *    (1 + a z^2) <= sqrt(a));
 *  - gelu_tanh: |f| = z w/(1+w) < z w, ln(z w) <= H(z) = ln z - 1.5957691 z - 0.0713548 z^3,
 *    decreasing for z >= 1;
 *  - gelu_sigmoid: |f| = z w/(1+w) < z w with w = e^(-1.702 z), ln(z w) <= H(z) = ln z -
 *    1.7019 z, decreasing for z >= 1.
 * (22.58, 22.48, 21.77 and 27.32 for binary32, bfloat16, binary16 and binary64 for
 * gelu_tanh_grad; 22.53, 22.43, 21.72, 27.29 for gelu_tanh; 502.6, 496.0, 451.6, 879.6 for
 * gelu_sigmoid.) */
enum { TZ_TANH_GRAD, TZ_TANH, TZ_SIGMOID, TZ_N };
static double tiny_h_tanh_grad(double z)
{
    return 1.160504 + log(z) + log1p(0.134146 * z * z) - 1.5957691 * z - 0.0713548 * z * z * z;
}
static double tiny_h_tanh(double z) { return log(z) - 1.5957691 * z - 0.0713548 * z * z * z; }
static double tiny_h_sigmoid(double z) { return log(z) - 1.7019 * z; }
static double (*const tiny_rule_h[TZ_N])(double) = { tiny_h_tanh_grad, tiny_h_tanh,
                                                      tiny_h_sigmoid };

/* The start z_t of a TINY rule: bisection on [lo, hi] (which: the function's bound H above,
 * decreasing there) for a point with H(z_t) < T ln2 - 2^-20, T the dtype's negligible bound's
 * exponent (tiny_log2_of); H in double (libm's log and log1p within an ulp, sums of terms
 * below 2^31 within 2^-20 by far) errs by less than that margin.  For every x <= -z_t, |f| <
 * 2^T: the result is GELUREF_ODD_TINY, as odd.c and the MPFR path report it there, so one rule
 * (GELUREF_RUN_SAME) from there on.  The last start found for each function is kept per
 * thread (it depends on T alone). */
static double tiny_rule_z(int which, const struct gr_fx *o, double lo, double hi)
{
    static _Thread_local int kept_t[TZ_N];
    static _Thread_local double kept_z[TZ_N];
    int T = tiny_log2_of(o);
    if (kept_t[which] == T) /* (T < 0: never the 0 of an unset entry) */
        return kept_z[which];
    kept_t[which] = T;
    kept_z[which] = bisect_below(tiny_rule_h[which], lo, hi, -T * 0x1.62e42fefa39f0p-1 + 0x1p-20,
                                 60);
    return kept_z[which];
}

/* ---- the approximations: w = e^(-a) with a = 2|u|, u = sqrt(2/pi) (x + 0.044715 x^3), or
 * a = 1.702 |x|; 0.5 (1 + tanh u) = 1/(1 + w) for x > 0 and w/(1 + w) for x < 0. ----
 * a is a double-double with relative error ea (the constants' own 2^-106 included); an
 * absolute error ea a of the exponent is a relative error < 1.01 ea a of w.  a <= 2048 (the
 * exp's range) is |x| <= 30.6 for the tanh form and 1203 for the sigmoid; beyond, |f| <
 * 2^-2800 for x < 0 (TINY) and f = x (1 - d), d < 2^-2800, for x > 0 (saturation). */
static inline __attribute__((always_inline)) dd tanh_arg(double z, double *ea)
{
    dd z2 = two_prod(z, z);
    dd t = dd_add_d(dd_mul(z2, gr_fast_tanh_c), 1.0);       /* 1 + c2 z^2: 4u^2 + 2u^2 + 2^-106 */
    t = dd_mul(dd_mul_d(t, z), gr_fast_sqrt_2_pi);           /* 2u^2 + 4u^2 + 2^-106 */
    *ea = 15 * U2;
    return dd_make(2 * t.hi, 2 * t.lo);                      /* exact */
}

static inline __attribute__((always_inline)) dd sigmoid_arg(double z, double *ea)
{
    *ea = 3 * U2;
    return dd_mul_d(gr_fast_sigmoid_c, z);
}

/* w = e^(-a) as m 2^-q, with its relative error; 0 when a is beyond the exp's range. */
static int weight(const struct gr_fx *o, dd a, double ea, dd *m, int64_t *q, double *ew)
{
    if (!(a.hi <= GR_EXP_YMAX))
        return 0;
    *m = exp_neg(o, a, q);
    *ew = eps_exp(o) + 1.01 * ea * a.hi * (1 + 0x1p-40);
    return 1;
}

/* 1 + w, w = m 2^-q in (0, 1], and the relative error (w's error weighs w/(1+w) <= 1/2;
 * a w below 2^-1000 is left out and charged). */
static dd one_plus(dd m, int64_t q, double ew, double *ed)
{
    if (q > 1000) {
        *ed = 0x1p-999;
        return dd_make(1.0, 0.0);
    }
    dd s = dd_make(dd_ldexp(m.hi, (int)-q), dd_ldexp(m.lo, (int)-q));
    dd d = dd_add_d(s, 1.0);
    *ed = ew * s.hi / d.hi * (1 + 0x1p-40) + 0x1p-1070 + 2 * U2;
    return d;
}

/* approx_sat_x's h (below): the tanh form's -(1.5957691 x + 0.0713548 x^3) >= -a = ln w */
static double approx_sat_h(double m) { return -(1.5957691 * m + 0.0713548 * m * m * m); }

/* The approximations' saturation from below 30 and 1200: for x > 0, f = x (1 - w/(1+w)) with
 * 0 < w/(1+w) < w, so f lies in the open cell next to x below (cell(o, x, -1), what x > lim
 * gives, and what the general path below finds once it sees w < 2^-(prec+1)) wherever w <
 * 2^-(prec+1), i.e. a > (prec+1) ln2 for w = e^(-a): for the tanh form a = 2b (x + c2 x^3) >=
 * 1.5957691 x + 0.0713548 x^3 (2b and 2b c2 rounded down), increasing, so bisection finds a
 * point x_s of [1, 30] with that bound above (prec+1) ln2 + 2^-20 (ln2 rounded up; the bound
 * in double errs by far less than 2^-20); for the sigmoid form a = 1.702 x > 1.7019 x, so x_s
 * = ((prec+1) ln2 / 1.7019) (1 + 2^-40) (the roundings within 3u).  Then one rule
 * (GELUREF_RUN_SCALED, run_x) up to lim.  (6.35 and 16.70 for binary32, 5.06 and 10.18 for
 * bfloat16, 5.34 and 11.40 for binary16, 7.95 and 28.51 for binary64.) */
static double approx_sat_x(const struct gr_fx *o, int tanh_form)
{
    const double L = (o->prec + 1) * 0x1.62e42fefa39f0p-1 + 0x1p-20;
    if (!tanh_form)
        return L / 1.7019 * (1 + 0x1p-40);
    static _Thread_local int kept_prec = -1; /* (the last one found, as tanh_grad_sat_x) */
    static _Thread_local double kept_x;
    if (o->prec == kept_prec)
        return kept_x;
    kept_prec = o->prec;
    kept_x = bisect_below(approx_sat_h, 1, 30, L, 60);
    return kept_x;
}

/* x / (1 + e^-a(x)), the tanh form (tanh_form = 1) or the sigmoid form. */
static enum gr_fx_kind approx_gelu(double x, int tanh_form, struct gr_fx *o)
{
    double lim = tanh_form ? 30.0 : 1200.0;
    if (x < -lim)
        return run(o, tiny(o, -1), -INFINITY, -lim);
    if (x < (tanh_form ? -20.0 : -400.0)) { /* above every dtype's start (tiny_rule_z) */
        double tz = tanh_form ? tiny_rule_z(TZ_TANH, o, 1, 30)
                              : tiny_rule_z(TZ_SIGMOID, o, 1, 1200);
        if (x < -tz) /* [-lim, -tz): the open interval from the double below -lim */
            return run(o, tiny(o, -1), tanh_form ? -0x1.e000000000001p+4 : -0x1.2c00000000001p+10,
                       -tz);
    }
    if (x > lim)
        return run_x(o, x, 0, -1, lim, INFINITY);
    if (x > (tanh_form ? 4.0 : 10.0)) { /* below every precision's approx_sat_x */
        double sx = approx_sat_x(o, tanh_form);
        if (x > sx) /* (sx, lim]: the open interval up to the double after lim */
            return run_x(o, x, 0, -1, sx,
                         tanh_form ? 0x1.e000000000001p+4 : 0x1.2c00000000001p+10);
    }
    if (fabs(x) < near0(o)) /* 0.5 x (1 + tanh(c x)), |tanh(c x)| < 0.86 |x| < 2^-prec */
        return x > 0 ? run_x(o, x, -1, 1, 0, near0(o)) : run_x(o, x, -1, -1, -near0(o), 0);
    double ea, ew, ed;
    dd a = tanh_form ? tanh_arg(fabs(x), &ea) : sigmoid_arg(fabs(x), &ea);
    dd m;
    int64_t q;
    if (!weight(o, a, ea, &m, &q, &ew))
        return o->kind = GR_FX_NONE;
    dd d = one_plus(m, q, ew, &ed);
    if (x > 0) {
        dd s;
        if (!scaled(o, m, q, &s)) /* x (1 - w/(1+w)), w < 2^-(prec+1) */
            return cell(o, x, -1);
        /* x / d: 15u^2 of dd_div; w's error weighs w/(1+w) */
        return value(o, dd_div(dd_make(x, 0), d), 0,
                     ew * s.hi / d.hi * (1 + 0x1p-40) + 0x1p-1070 + 2 * U2 + 16 * U2);
    }
    /* x w / (1 + w) = (x m / d) 2^-q */
    return value(o, dd_div(dd_mul_d(m, x), d), -q, ew + ed + 2 * U2 + 16 * U2);
}

/* d/dx of the tanh form: with w = e^(-2|u|), A = 2 x u'(x) = 2 sqrt(2/pi) x (1 + 3 c2 x^2):
 *   x > 0: (1 + A w/(1+w)) / (1+w)   (all terms positive)
 *   x < 0: w/(1+w) (1 + A/(1+w))     (A < 0: 1 + A/(1+w) cancels near x* = -0.75; charged
 *                                     absolutely, so that the MPFR path takes over there) */
static enum gr_fx_kind gelu_tanh_grad(double x, struct gr_fx *o)
{
    if (x < -30) /* |f| < w (1 + |A|) < 2^-2800, and negative */
        return run(o, tiny(o, -1), -INFINITY, -30);
    if (x < -20) { /* above every dtype's start (tiny_rule_z) */
        double tz = tiny_rule_z(TZ_TANH_GRAD, o, 2, 30);
        if (x < -tz) /* [-30, -tz): the open interval from the double below -30 */
            return run(o, tiny(o, -1), -0x1.e000000000001p+4, -tz);
    }
    if (x > 30) /* 1 + (A - 1) w + ..., A w < 2^-2800 */
        return run(o, cell(o, 1.0, 1), 30, INFINITY);
    if (x > 6.0) { /* below every precision's tanh_grad_sat_x */
        double sx = tanh_grad_sat_x(o);
        if (x > sx) /* (sx, 30]: the open interval up to the double after 30 */
            return run(o, cell(o, 1.0, 1), sx, 0x1.e000000000001p+4);
    }
    if (fabs(x) < near0(o)) /* 1/2 + sqrt(2/pi) x + O(x^3): |d| < 1.6 |x| */
        return run_half(o, cell(o, 0.5, x > 0 ? 1 : -1), x, near0(o));
    double ea, ew, ed;
    dd a = tanh_arg(fabs(x), &ea);
    dd m;
    int64_t q;
    if (!weight(o, a, ea, &m, &q, &ew))
        return o->kind = GR_FX_NONE;
    dd d = one_plus(m, q, ew, &ed);
    dd x2 = two_prod(x, x);
    dd big = dd_add_d(dd_mul_d(dd_mul(x2, gr_fast_tanh_c), 3.0), 1.0); /* 1 + 3 c2 x^2 */
    dd am = dd_mul_d(dd_mul(big, gr_fast_sqrt_2_pi), 2 * x);           /* A: < 16u^2 */
    double eam = 16 * U2;
    if (x > 0) {
        /* f = 1 + w (A - 1 - w)/(1 + w)^2; for x > 2, A > 4.8, so 0 < f - 1 < A w: the cell
         * above 1 once A w < 2^-(prec+1) (A < 2^13 for x <= 30) */
        if (q > 1100)
            return cell(o, 1.0, 1);
        dd s = dd_make(dd_ldexp(m.hi, (int)-q), dd_ldexp(m.lo, (int)-q));
        if (x > 2 && am.hi * s.hi < 0.5 * near0(o))
            return cell(o, 1.0, 1);
        dd t = dd_div(dd_mul(am, s), d);                  /* A w/(1+w), positive */
        double et = eam + ew + ed + 20 * U2;
        dd num = dd_add_d(t, 1.0);
        double en = (et * t.hi + 0x1p-1060) / num.hi * (1 + 0x1p-40) + 2 * U2; /* s.lo may be
                                                                         subnormal */
        return value(o, dd_div(num, d), 0, en + ed + 16 * U2);
    }
    dd r = dd_div(am, d);                                 /* A/(1+w), negative */
    double er = eam + ed + 16 * U2;
    dd b = dd_add_d(r, 1.0);
    if (b.hi == 0)
        return o->kind = GR_FX_NONE;
    double eb = er * fabs(r.hi) / fabs(b.hi) * (1 + 0x1p-40) + 2 * U2;
    return value(o, dd_mul(dd_div(m, d), b), -q, ew + ed + 16 * U2 + eb + 4 * U2);
}

enum gr_fx_kind GR_FAST_ENTRY(enum geluref_func f, double x, int prec, struct gr_fx *out)
{
    out->kind = GR_FX_NONE;
    out->no_double = (prec & GR_FX_NO_DOUBLE) != 0;
    out->tier = 0;
    prec &= ~GR_FX_NO_DOUBLE;
    out->prec = prec;
    out->run_lo = 1; /* no run unless a rule sets one */
    out->run_hi = 0;
    out->run_cx = 0;
    if (!isfinite(x) || x == 0)
        return GR_FX_NONE;
    switch (f) {
    case GELUREF_GELU:
        return gelu(x, out);
    case GELUREF_NORMCDF:
        return normcdf(x, out);
    case GELUREF_NORMPDF:
        return normpdf(x, out);
    case GELUREF_GELU_GRAD:
        return gelu_grad(x, out);
    case GELUREF_GELU_GRAD2:
        return gelu_grad2(x, out);
    case GELUREF_ERFC:
        return erfc_fn(x, out);
    case GELUREF_ERF:
        return erf_fn(x, out);
    case GELUREF_GELU_TANH:
        return approx_gelu(x, 1, out);
    case GELUREF_GELU_SIGMOID:
        return approx_gelu(x, 0, out);
    case GELUREF_GELU_TANH_GRAD:
        return gelu_tanh_grad(x, out);
    default:
        return GR_FX_NONE;
    }
}

/* ---- the double tier of every function: cheap enclosures for binary32 sweeps ----
 * gr_fast_encl (geluref_enclose_n): f(x) = (m + d) 2^e with |d| <= err, in plain double, for
 * the ulp suite's binary32 sweep, which decides most of its measurements from it without the
 * value rounded to odd (suites/ulp_fused.c); where it cannot, it asks geluref_eval_odd.
 * Each evaluator computes m 2^e with a relative error rel (relative to f(x)) bounded
 * operation by operation below, u = 2^-53; the building blocks are fast_phi.h's double tier:
 *   E(y) = gr_fast_exp_neg_d: e^(-y) = E 2^-q within 3.1u, y = y.hi + y.lo in [0, 2048];
 *   Md(z) = gr_fast_mills_d: M(z) within 3.7u, z a double in [0, 60.4] taken exactly.
 * Every constant c.hi of the tables is within u of the exact real (dd tables: |c.lo| <= u
 * |c.hi|).  Each product, quotient, sum of same-sign terms rounds by at most u; a product of
 * (1 + d_i) factors with sum |d_i| = D <= 2^-40 is within D (1 + 2^-39) of 1, which the
 * final factor 1.01 covers many times over.  The result: encl_value() turns rel into
 * err = rel |m| (1 + 2^-40) (|m 2^e - f| <= rel |f| <= rel (|m| 2^e + err 2^e)), and gives up
 * (returns -1) when rel >= 2^-40, where no binary32 decision would follow anyway.
 * Inputs: |x| >= 2^-500 (x^2 and the products stay normal) and each function's range below;
 * outside, -1 (the caller's general path: the rules, the double-double path, MPFR).
 * tests/reference/test_fast_encl.c checks every enclosure against f(x) at 300 bits (MPFR)
 * on random binary32 inputs of every function and on the hard cases, both builds. */
#ifdef GR_FAST_FMA
#define GR_FAST_ENCL gr_fast_encl_fma
#define GR_FAST_ENCL_N gr_fast_encl_n_fma
#else
#define GR_FAST_ENCL gr_fast_encl_generic
#define GR_FAST_ENCL_N gr_fast_encl_n_generic
#endif
#define UD 0x1p-53 /* u */
/* each function's evaluation inlined into its batch loop (GR_FAST_ENCL_N) */
#define ENCL_INLINE __attribute__((always_inline))

static inline ENCL_INLINE int encl_value(double m, int64_t e, double rel, struct geluref_encl *o)
{
    rel *= 1.01;
    if (!(rel < 0x1p-40) || m == 0 || !(fabs(m) <= 0x1.fffffffffffffp+1023))
        return -1;
    o->m = m;
    o->e = e;
    o->err = rel * fabs(m) * (1 + 0x1p-40);
    o->side = 0;
    return 0;
}

/* The one-sided enclosures of saturation: f = c (1 + dir s) with 0 < s < 2^-44 (c exact,
 * nonzero; dir = -1 toward 0, +1 away from it): |f| strictly between |c| and |c| (1 + dir
 * 2^-44).  The callers take it where their computed s is below 2^-45: the true s is then
 * below 2^-45 (1 + 16u) < 2^-44, and above 0 by the sign argued at each call. */
#define ENCL_SIDE_S 0x1p-45
static inline ENCL_INLINE int encl_side(double c, int dir, struct geluref_encl *o)
{
    o->m = c;
    o->e = 0;
    o->err = fabs(c) * 0x1p-44;
    o->side = dir;
    return 0;
}

/* phi(z) = g 2^-q: y = z^2/2 exactly (two_prod, halved; |z| >= 2^-500), E within 3.1u, the
 * constant 1/sqrt(2 pi) and the product u each: 5.1u. */
#define ENCL_EPS_G (5.1 * UD)
static inline ENCL_INLINE double encl_gauss(double z, int64_t *q)
{
    dd y = two_prod(z, z);
    y = dd_make(y.hi * 0.5, y.lo * 0.5);
    return gr_fast_exp_neg_d(y, q) * gr_fast_inv_sqrt2pi.hi;
}

/* M(w) for w = w.hi + w.lo in [0, 60.4] (w.lo below u w.hi): gr_fast_mills_d's polynomial
 * at t = RN((w.hi - i/32) + w.lo) (w.hi - i/32 is exact, as there): t errs by at most
 * u |t| <= u/64; |M'| <= 1 on [0, inf) and M(w) >= 1/(w + 1) (Birnbaum), so the argument's
 * error d (with w's own error e_w) moves M by at most (|d| + e_w)(w + 1) relatively; the
 * polynomial at the computed t is within 3.7u of M there.  The caller charges the argument. */
static inline ENCL_INLINE double encl_mills_dd(dd w)
{
    int i = (int)nearbyint(w.hi * 32.0);
    double t = (w.hi - i * 0x1p-5) + w.lo;
    const double *mh = gr_fast_mh[i], *mt = gr_fast_mt[i];
    double s = GR_MULADD(mt[2], t, mt[1]);
    s = GR_MULADD(s, t, mt[0]);
    for (int k = 7; k >= 0; k--)
        s = GR_MULADD(s, t, mh[k]);
    return s;
}

/* erfc(z) = e^(-z^2) M(sqrt2 z) sqrt(2/pi) = m 2^-q, z in [2^-500, 42.7]:
 *  z^2 exact (two_prod): E within 3.1u;
 *  w = sqrt2 z as dd_mul_d of the dd constant: within 2u^2 w + 2^-106 w < 2^-99 (w <= 60.4);
 *  M at it: 3.7u, plus the argument's error (u/64 (1.01) + 2^-99)(w + 1) <= 0.98u (w <= 60.4);
 *  sqrt(2/pi).hi u, two products 2u: 10.78u; charged 11u. */
#define ENCL_EPS_ERFC (11 * UD)
static inline ENCL_INLINE double encl_erfc_pos(double z, int64_t *q)
{
    dd w = dd_mul_d(gr_fast_sqrt2, z);
    dd y = two_prod(z, z);
    double e = gr_fast_exp_neg_d(y, q);
    return e * encl_mills_dd(w) * gr_fast_sqrt_2_pi.hi;
}

static inline ENCL_INLINE int encl_gelu(double x, struct geluref_encl *o)
{
    double z = fabs(x);
    if (z <= GELU_SERIES_X) {
        /* x/2 + T as gelu_series (above), all in double: T = phi(0) q P with q = RN(x^2),
         * P = 1 + (P - 1) rounded, phi(0).hi, two products: 5.01u of T (the series' remainder
         * 2^-91); |T| < 2^-10.3 |f| (gelu_series' comment), so T's error is < 0.005u |f|;
         * x/2 is exact (|x| >= 2^-500) and the sum rounds by u: 1.01u, charged 2u */
        double q = x * x;
        double t = gr_fast_inv_sqrt2pi.hi * q * (1.0 + gr_gelu_series_pm1(q));
        return encl_value(x * 0.5 + t, 0, 2 * UD, o);
    }
    if (z > 60)
        return -1;
    /* gelu_double's evaluation and bound (16u = 2^-49 covers its 11.8u), valid for every z
     * up to 60 (e^(-z^2/2) and M in range; x > 0: s = p 2^-q, whose subnormal or zero
     * rounding loses < 2^-1022 < u against 1 - s >= 1/2) */
    dd y = two_prod(z, z);
    y = dd_make(y.hi * 0.5, y.lo * 0.5);
    int64_t q;
    double p = gr_fast_exp_neg_d(y, &q) * gr_fast_inv_sqrt2pi.hi * gr_fast_mills_d(z);
    if (x < 0)
        return encl_value(p * x, -q, 12 * UD, o);
    double s = q > 1100 ? 0.0 : dd_ldexp(p, (int)-q);
    if (s < ENCL_SIDE_S) /* x (1 - Phi(-x)), Phi(-x) > 0 */
        return encl_side(x, -1, o);
    return encl_value((1 - s) * x, 0, 12 * UD, o);
}

/* Phi(x): x < 0, g M(z) 2^-q: 5.1u + 3.7u + the product u = 9.8u; x > 0, 1 - s with
 * s = Phi(-z) <= 1/2 within 9.8u s <= 9.8u (1 - s) (s's subnormal rounding < 2^-1022), the
 * subtraction u: 10.8u. */
static inline ENCL_INLINE int encl_normcdf(double x, struct geluref_encl *o)
{
    double z = fabs(x);
    if (z > 60)
        return -1;
    int64_t q;
    double p = encl_gauss(z, &q) * gr_fast_mills_d(z);
    if (x < 0)
        return encl_value(p, -q, 9.8 * UD, o);
    double s = q > 1100 ? 0.0 : dd_ldexp(p, (int)-q);
    if (s < ENCL_SIDE_S) /* 1 - Phi(-x), Phi(-x) > 0 */
        return encl_side(1.0, -1, o);
    return encl_value(1 - s, 0, 10.8 * UD, o);
}

static inline ENCL_INLINE int encl_normpdf(double x, struct geluref_encl *o)
{
    if (fabs(x) > 60)
        return -1;
    int64_t q;
    double g = encl_gauss(x, &q);
    return encl_value(g, -q, ENCL_EPS_G, o);
}

/* erf(z) for 2^-500 <= z < 2^-4: (2/sqrt(pi)) z S, S = sum_{n<=5} c_n v^n, v = RN(z^2) <=
 *  2^-8 (u), by Horner in double with the tables' c_n.hi (u each): the tail v (c_1 + ...) is
 *  below v/3 < 2^-9.5 and carries < 5u of itself (v, coefficients, products, sums), so
 *  < 5u 2^-9.5 absolutely; c_0 = 1 exact and the last sum's rounding u; the truncation
 *  |c_6| v^6 < 2^-61.2; S >= 1 - v/3 > 0.998: S within 1.3u; the constant's hi and two
 *  products: 3.3u, charged 3.5u (ENCL_EPS_ERF0).  The result is below 2/sqrt(pi) 2^-4 <
 *  0.0706. */
#define ENCL_EPS_ERF0 (3.5 * UD)
static inline ENCL_INLINE double encl_erf_series(double z)
{
    double v = z * z;
    double s = gr_fast_erf_c[5].hi;
    for (int n = 4; n >= 0; n--)
        s = GR_MULADD(s, v, gr_fast_erf_c[n].hi);
    return s * gr_fast_two_sqrtpi.hi * z;
}

/* erfc: x > 0 as encl_erfc_pos; x < 0, 2 - s with s = erfc(z) <= 1 within 11u s <=
 * 11u (2 - s) (s's subnormal rounding < 2^-1022 against 2 - s >= 1), the subtraction u.
 * Near 0 (z < 2^-4) from erf's series instead of e^(-z^2) M(sqrt2 z): 1 -+ E with E =
 * erf(z) < 0.0706 within 3.5u E, so within 0.25u absolutely, against 1 -+ E >= 0.929: 0.27u,
 * and the sum's rounding u: 1.27u, charged 2u. */
static inline ENCL_INLINE int encl_erfc(double x, struct geluref_encl *o)
{
    double z = fabs(x);
    if (z < 0x1p-4) {
        double e = encl_erf_series(z);
        return encl_value(x > 0 ? 1 - e : 1 + e, 0, 2 * UD, o);
    }
    if (z > ERFC_ZMAX)
        return -1;
    int64_t q;
    double m = encl_erfc_pos(z, &q);
    if (x > 0)
        return encl_value(m, -q, ENCL_EPS_ERFC, o);
    double s = q > 1100 ? 0.0 : dd_ldexp(m, (int)-q);
    if (s < ENCL_SIDE_S) /* 2 - erfc(z) = 2 (1 - erfc(z)/2), erfc(z) > 0 */
        return encl_side(2.0, -1, o);
    return encl_value(2 - s, 0, ENCL_EPS_ERFC + UD, o);
}

/* erf(z), odd.  z < 2^-4: encl_erf_series (x instead of z: the sign is exact).
 * Above: 1 - s, s = erfc(z) within 11u s (encl_erfc_pos), the subtraction u: relative
 *  11u s/(1 - s) + u (s/(1 - s) <= 14 at z >= 2^-4). */
static inline ENCL_INLINE int encl_erf(double x, struct geluref_encl *o)
{
    double z = fabs(x);
    if (z < 0x1p-4)
        return encl_value(encl_erf_series(x), 0, ENCL_EPS_ERF0, o);
    if (z > ERFC_ZMAX)
        return -1;
    int64_t q;
    double m = encl_erfc_pos(z, &q);
    double s = q > 1100 ? 0.0 : dd_ldexp(m, (int)-q);
    if (s < ENCL_SIDE_S) /* +-(1 - erfc(z)), erfc(z) > 0 */
        return encl_side(x < 0 ? -1.0 : 1.0, -1, o);
    double r = 1 - s;
    return encl_value(x < 0 ? -r : r, 0, ENCL_EPS_ERFC * s / r * 1.01 + UD, o);
}

/* gelu_grad = g (M(z) - z) 2^-q for x = -z < 0, 1 + g (z - M(z)) 2^-q for x = z > 0.
 * D = +-(M - z) rounded: absolute error 3.7u M (1.01) + u |D~| (M~ within 3.7u); relative to
 * D at most that over |D~| (1.01 once it is below 2^-40, else no enclosure): the zero of D
 * near |x| = 0.7518 leaves the enclosure to the general path.
 * x < 0: g D with g within 5.1u and the product u.
 * x > 0: s = g D 2^-q within (5.1u + u + eD) |s|, the sum 1 + s rounds by u |f|, f >= 1/2. */
static inline ENCL_INLINE int encl_gelu_grad(double x, struct geluref_encl *o)
{
    double z = fabs(x);
    if (z > 60)
        return -1;
    int64_t q;
    double g = encl_gauss(z, &q);
    double mz = gr_fast_mills_d(z);
    double d = x < 0 ? mz - z : z - mz;
    if (d == 0)
        return -1;
    double ed = (3.7 * UD * mz * 1.01 + UD * fabs(d)) / fabs(d) * 1.01;
    if (!(ed < 0x1p-40))
        return -1;
    double p = g * d;
    if (x < 0)
        return encl_value(p, -q, ed + ENCL_EPS_G + UD, o);
    double s = q > 1100 ? 0.0 : dd_ldexp(p, (int)-q);
    if (fabs(s) < ENCL_SIDE_S) /* 1 + s, s of d's sign, which is certain (ed < 1) */
        return encl_side(1.0, d > 0 ? 1 : -1, o);
    double f = 1 + s;
    /* |s| <= 2^-1022 lost to subnormal rounding is below u |f| */
    double rel = ((ed + ENCL_EPS_G + UD) * 1.01 * fabs(s) + 0x1p-1022) / f + UD;
    return encl_value(f, 0, rel, o);
}

/* The approximations' weight w = e^(-a) = E 2^-q: a = 2|u(x)| (gr_fast_tanh_arg_d, relative
 * error 36u^2 plus an absolute 2^-1070, which is below 2^-400 of ea a for a >= 2^-500 and
 * is covered by the second factor 1.01) or 1.702 |x| (gr_fast_sigmoid_arg_d, 3u^2) as a
 * double-double; an absolute error eta = ea a of the exponent is a relative 1.01 eta of w
 * (a <= 2048: eta < 2^-80); E within 3.1u: ew = 3.1u + 1.01 ea a. */
static inline ENCL_INLINE double encl_weight(double z, int tanh_form, int64_t *q, double *ew)
{
    double ea;
    dd a;
    if (tanh_form) {
        a = gr_fast_tanh_arg_d(z);
        ea = GR_TANH_ARG_EA;
    } else {
        a = gr_fast_sigmoid_arg_d(z);
        ea = GR_SIGMOID_ARG_EA;
    }
    if (!(a.hi <= GR_EXP_YMAX))
        return -1;
    *ew = 3.1 * UD + 1.01 * ea * a.hi * 1.01;
    return gr_fast_exp_neg_d(a, q);
}

/* x/(1 + w) for x > 0: W = w (its rounding into the subnormals or to 0 loses < 2^-1022,
 * against 1 + W >= 1), d = 1 + W within ew W/d + u, the quotient u.  The bound charges
 * ew W instead of ew W/d (d >= 1: no smaller, and no division; the computed ew W 1.01 is at
 * least ew W/d 1.01 (1 - u)^2, as the quotient's was with one rounding more).
 * x w/(1 + w) for x < 0: (x E / d) 2^-q: ew, d's error, the product and the quotient u
 * each. */
static inline ENCL_INLINE int encl_approx(double x, int tanh_form, struct geluref_encl *o)
{
    double z = fabs(x);
    if (z > (tanh_form ? 30.0 : 1200.0))
        return -1;
    int64_t q;
    double ew;
    double e = encl_weight(z, tanh_form, &q, &ew);
    if (e < 0)
        return -1;
    double w = q > 1100 ? 0.0 : dd_ldexp(e, (int)-q);
    double d = 1 + w;
    double ed = ew * w * 1.01 + UD + 0x1p-1022;
    if (x > 0 && w < ENCL_SIDE_S) /* x (1 - w/(1 + w)), w > 0 */
        return encl_side(x, -1, o);
    if (x > 0)
        return encl_value(x / d, 0, ed + UD, o);
    return encl_value(x * e / d, -q, ew + ed + 2 * UD, o);
}

/* gelu_tanh_grad (fast_fn.c gelu_tanh_grad's formulas), A = 2 sqrt(2/pi) x (1 + 3 c2 x^2):
 * (ed as there: ew W, no smaller than ew W/d.)
 * big = 1 + RN(RN(3 c2.hi) RN(x^2)): 3 c2.hi within 2u of 3 c2, x^2 u, the product u: the
 * term within 4u, the sum of positive terms u: big within 5u; times 2 sqrt(2/pi).hi (u) and
 * x (u): A within 7u, charged 8u.  W, d, ed as encl_approx.
 * x > 0: t = A W / d: 8u + ew + ed + 2u; num = 1 + t: et t/num + u; f = num/d: + ed + u.
 * x < 0: r = A/d: 8u + ed + u; b = 1 + r (negative A: cancels near x = -0.75): absolute
 *  er |r| + u |b|, relative to b over |b| (1.01 below 2^-40, else no enclosure);
 *  f = (E/d) b 2^-q: ew + ed + u + eb + u. */
static inline ENCL_INLINE int encl_tanh_grad(double x, struct geluref_encl *o)
{
    double z = fabs(x);
    if (z > 30)
        return -1;
    int64_t q;
    double ew;
    double e = encl_weight(z, 1, &q, &ew);
    if (e < 0)
        return -1;
    double w = q > 1100 ? 0.0 : dd_ldexp(e, (int)-q);
    double d = 1 + w;
    double ed = ew * w * 1.01 + UD + 0x1p-1022;
    double big = 1 + (3 * gr_fast_tanh_c.hi) * (x * x);
    double am = big * (2 * gr_fast_sqrt_2_pi.hi) * x;
    double eam = 8 * UD;
    if (x > 2 && am * w < ENCL_SIDE_S) /* 0 < f - 1 < A w (fast_fn.c gelu_tanh_grad) */
        return encl_side(1.0, 1, o);
    if (x > 0) {
        double t = am * w / d;
        double et = (eam + ew + ed + 2 * UD) * 1.01;
        double num = 1 + t;
        double en = et * t / num * 1.01 + UD;
        return encl_value(num / d, 0, en + ed + UD, o);
    }
    double r = am / d;
    double er = (eam + ed + UD) * 1.01;
    double b = 1 + r;
    if (b == 0)
        return -1;
    double eb = (er * fabs(r) + UD * fabs(b)) / fabs(b) * 1.01;
    if (!(eb < 0x1p-40))
        return -1;
    return encl_value(e / d * b, -q, ew + ed + UD + eb + UD, o);
}

int GR_FAST_ENCL(enum geluref_func f, double x, struct geluref_encl *o)
{
    if (!(fabs(x) >= 0x1p-500) || !isfinite(x))
        return -1;
    switch (f) {
    case GELUREF_GELU:
        return encl_gelu(x, o);
    case GELUREF_NORMCDF:
        return encl_normcdf(x, o);
    case GELUREF_NORMPDF:
        return encl_normpdf(x, o);
    case GELUREF_GELU_GRAD:
        return encl_gelu_grad(x, o);
    case GELUREF_ERFC:
        return encl_erfc(x, o);
    case GELUREF_ERF:
        return encl_erf(x, o);
    case GELUREF_GELU_TANH:
        return encl_approx(x, 1, o);
    case GELUREF_GELU_SIGMOID:
        return encl_approx(x, 0, o);
    case GELUREF_GELU_TANH_GRAD:
        return encl_tanh_grad(x, o);
    default:
        return -1;
    }
}

/* GR_FAST_ENCL over a batch, the function chosen once (geluref_enclose_n). */
#define ENCL_LOOP(call)                                                                    \
    for (size_t i = 0; i < n; i++) {                                                       \
        double xi = x[i];                                                                  \
        ok[i] = fabs(xi) >= 0x1p-500 && fabs(xi) <= 0x1p+11 && (call) == 0;                \
        k += ok[i];                                                                        \
    }
size_t GR_FAST_ENCL_N(enum geluref_func f, const double *x, size_t n, struct geluref_encl *out,
                      unsigned char *ok)
{
    size_t k = 0;
    switch (f) {
    case GELUREF_GELU: ENCL_LOOP(encl_gelu(xi, &out[i])) break;
    case GELUREF_NORMCDF: ENCL_LOOP(encl_normcdf(xi, &out[i])) break;
    case GELUREF_NORMPDF: ENCL_LOOP(encl_normpdf(xi, &out[i])) break;
    case GELUREF_GELU_GRAD: ENCL_LOOP(encl_gelu_grad(xi, &out[i])) break;
    case GELUREF_ERFC: ENCL_LOOP(encl_erfc(xi, &out[i])) break;
    case GELUREF_ERF: ENCL_LOOP(encl_erf(xi, &out[i])) break;
    case GELUREF_GELU_TANH: ENCL_LOOP(encl_approx(xi, 1, &out[i])) break;
    case GELUREF_GELU_SIGMOID: ENCL_LOOP(encl_approx(xi, 0, &out[i])) break;
    case GELUREF_GELU_TANH_GRAD: ENCL_LOOP(encl_tanh_grad(xi, &out[i])) break;
    default:
        for (size_t i = 0; i < n; i++)
            ok[i] = 0;
    }
    return k;
}
