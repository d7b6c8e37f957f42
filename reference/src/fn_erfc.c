/* Functions built on erfc: gelu = x Phi(x), gelu_scaled = x Phi(x/s), normcdf = Phi, and
 * erf, erfc themselves (MPFR's own correctly rounded functions).  Phi(x) is always
 * erfc(-x/sqrt2)/2, never 1 - ...: no cancellation in the tail. */
#include "internal.h"

/* log2(e)/2 = 0.72134752..., rounded down: -LOG2E_2 x^2 bounds log2 exp(-x^2/2) from above.
 * LOG2_SQRT2PI = log2(sqrt(2 pi)) = 1.3257480..., rounded down. */
#define LOG2E_2 0.72134
#define LOG2_SQRT2PI 1.3257

/* e ~ erfc(z), z = -x/(s sqrt2) (s = 1 when NULL), at e's precision wp.  Returns r with
 * |e - erfc(z)| <= 2^(r-wp) erfc(z), or r = wp when wp is too small for the analysis:
 *   z~ = z (1 + t), |t| <= 4u (sqrt(1/2), x/s and the product each round once; u = 2^-wp);
 *   z > 0: |(ln erfc)'(xi)| < xi + sqrt(xi^2 + 2) (A&S 7.1.13), |xi| < 2^k, so
 *          |d ln erfc| <= 4u 2^k (2^(k+1) + 1.42) < 2^(2k+4) u; if that is <= 1/2 the
 *          relative error is <= 1.3 times it; with erfc's own rounding: <= 2^(2k+5) u;
 *   z < 0: erfc in (1, 2], |erfc'| <= 1.13 e^(-xi^2), |z| e^(-z^2/2) <= 0.61: abs and rel
 *          error <= 2.8u, with the rounding <= 4u = 2^2 u. */
mpfr_exp_t gr_erfc_arg(mpfr_ptr e, mpfr_srcptr x, mpfr_srcptr s)
{
    mpfr_prec_t wp = mpfr_get_prec(e);
    mpfr_t z;
    mpfr_init2(z, wp);
    gr_sqrt_half(z);                      /* (1 + d1) */
    if (s) {
        mpfr_t q;
        mpfr_init2(q, wp);
        mpfr_div(q, x, s, MPFR_RNDN);     /* (1 + d2) */
        mpfr_mul(z, z, q, MPFR_RNDN);     /* (1 + d3) */
        mpfr_clear(q);
    } else {
        mpfr_mul(z, z, x, MPFR_RNDN);     /* (1 + d2) */
    }
    mpfr_neg(z, z, MPFR_RNDN);            /* exact */
    long k = gr_exp(z) + 1;               /* |z|, xi < 2^k, also with the 4u error */
    if (k < 1)
        k = 1;
    mpfr_erfc(e, z, MPFR_RNDN);           /* (1 + d4) */
    int pos = mpfr_sgn(z) > 0;
    mpfr_clear(z);
    if (!pos)
        return 2;
    if (2 * k + 5 >= (long)wp)
        return (mpfr_exp_t)wp;
    return (mpfr_exp_t)(2 * k + 5);
}

static mpfr_prec_t wp0_erfc(mpfr_prec_t prec, mpfr_srcptr x, mpfr_srcptr s)
{
    long k = gr_exp(x) - (s ? gr_exp(s) - 1 : 0);
    return prec + 24 + (k > 0 ? 2 * k : 0);
}

/* normcdf: b = e/2 exactly; |b - v| <= 2^(r-wp) |v| <= 2^(r-wp+1) 2^EXP(b). */
static mpfr_exp_t approx_normcdf(mpfr_ptr b, mpfr_srcptr x, mpfr_srcptr s)
{
    (void)s;
    mpfr_exp_t r = gr_erfc_arg(b, x, NULL);
    mpfr_div_2ui(b, b, 1, MPFR_RNDN);
    return (mpfr_exp_t)mpfr_get_prec(b) - r - 1;
}

/* gelu, gelu_scaled: b = x e / 2, one more rounding: rel <= 2^(r-wp) + 2u <= 2^(r+1-wp). */
static mpfr_exp_t approx_gelu(mpfr_ptr b, mpfr_srcptr x, mpfr_srcptr s)
{
    mpfr_exp_t r = gr_erfc_arg(b, x, s);
    mpfr_mul(b, b, x, MPFR_RNDN);
    mpfr_div_2ui(b, b, 1, MPFR_RNDN);
    return (mpfr_exp_t)mpfr_get_prec(b) - r - 2;
}

static enum gr_outcome exact(int *ternary, int inex)
{
    *ternary = inex;
    return GR_DECIDED;
}

/* For x Phi(x/s) with t = x/s:
 *  - deep tail, x < 0: |v| = |x| Phi(t) < s phi(t) (Mills: Phi(t) < phi(t)/|t| for t < 0);
 *  - saturation, x > 0: v = x - x Phi(-t), 0 < x Phi(-t) < s phi(t);
 *  - near 0: v = x/2 + d, d = x (Phi(t) - 1/2), 0 < d <= x^2 phi(0)/s < 0.4 x^2/s.
 * log2 (s phi(t)) <= log2 s - LOG2E_2 t^2 - LOG2_SQRT2PI. */
static enum gr_outcome rules_gelu(mpfr_ptr y, mpfr_srcptr x, mpfr_srcptr s, mpfr_rnd_t rnd,
                                  const struct gr_target *tg, int *ternary)
{
    double lo, l2s = 0;
    mpfr_t t;
    mpfr_init2(t, 64);
    if (s) {
        mpfr_div(t, x, s, MPFR_RNDZ); /* |t| rounded down: lo below stays a lower bound */
        mpfr_t l;
        mpfr_init2(l, 64);
        mpfr_log2(l, s, MPFR_RNDN);   /* rel err 2^-64, far inside the rules' margin */
        l2s = mpfr_get_d(l, MPFR_RNDN);
        mpfr_clear(l);
    } else {
        mpfr_set(t, x, MPFR_RNDZ);
    }
    lo = gr_abs_lo(t);
    mpfr_clear(t);
    double l_far = l2s - LOG2E_2 * lo * lo - LOG2_SQRT2PI;
    double l_near = 2.0 * gr_exp(x) - 1.32 - l2s;
    return gr_rules_gelu_family(y, x, l_far, l_near, -4 + (s ? gr_exp(s) : 0), rnd, tg,
                                ternary);
}

/* normcdf, for |x| >= 1 the Mills bound Phi(-|x|) < phi(x)/|x| <= phi(x):
 *  - deep tail x <= -1: 0 < v < phi(x);  saturation x >= 1: v = 1 - d, 0 < d < phi(x);
 *  - near 0: v = 1/2 + d, sign(d) = sign(x), |d| <= phi(0) |x| < 0.4 |x|. */
static enum gr_outcome rules_normcdf(mpfr_ptr y, mpfr_srcptr x, mpfr_srcptr s, mpfr_rnd_t rnd,
                                     const struct gr_target *tg, int *ternary)
{
    (void)s;
    double lo = gr_abs_lo(x);
    return gr_rules_step(y, x, lo >= 1, 1, -LOG2E_2 * lo * lo - LOG2_SQRT2PI,
                         (double)gr_exp(x) - 1.32, rnd, tg, ternary);
}

/* erf and erfc: MPFR's functions are correctly rounded at any precision, including their
 * saturation (erf -> +-1, erfc -> 0 or 2) and tiny ranges; its ternary is exact, which is all
 * the final rounding into a dtype needs.  Decided here, before any rule or Ziv loop. */
static enum gr_outcome direct_erf(mpfr_ptr y, mpfr_srcptr x, mpfr_srcptr s, mpfr_rnd_t rnd,
                                  int *ternary)
{
    (void)s;
    return exact(ternary, mpfr_erf(y, x, rnd));
}

static enum gr_outcome direct_erfc(mpfr_ptr y, mpfr_srcptr x, mpfr_srcptr s, mpfr_rnd_t rnd,
                                   int *ternary)
{
    (void)s;
    return exact(ternary, mpfr_erfc(y, x, rnd));
}

const struct gr_fn gr_fn_gelu = { GELUREF_GELU, gr_special_gelu, rules_gelu, approx_gelu,
                                  wp0_erfc };
const struct gr_fn gr_fn_gelu_scaled = { GELUREF_GELU_SCALED, gr_special_gelu, rules_gelu,
                                         approx_gelu, wp0_erfc };
const struct gr_fn gr_fn_normcdf = { GELUREF_NORMCDF, gr_special_cdf, rules_normcdf,
                                     approx_normcdf, wp0_erfc };
const struct gr_fn gr_fn_erf = { GELUREF_ERF, direct_erf, NULL, NULL, NULL };
const struct gr_fn gr_fn_erfc = { GELUREF_ERFC, direct_erfc, NULL, NULL, NULL };
