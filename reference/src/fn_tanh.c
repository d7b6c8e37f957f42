/* The tanh approximation and its derivative, with sqrt(2/pi) and 0.044715 as exact reals:
 *   gelu_tanh(x) = 0.5 x (1 + tanh(u)) = x / (1 + exp(-2u)),  u = c1 (x + c2 x^3),
 *   gelu_tanh_grad(x) = s + x u' / (2 cosh(u)^2),  s = 1/(1 + exp(-2u)),  u' = c1 (1 + 3 c2 x^2)
 * (s (1 - s) = 1/(4 cosh(u)^2)).  c1 = sqrt(2/pi), c2 = 44715/10^6.  u = 2^-wp below. */
#include "internal.h"

/* log2(e) (2 c1) = 2.3022080... and log2(e) (2 c1 c2) = 0.1029424..., rounded down:
 * 2u >= 2 c1 |x| + 2 c1 c2 |x|^3, so log2 exp(-2|u|) <= -(L1 |x| + L3 |x|^3). */
#define L1 2.3022
#define L3 0.10294

/* t ~ u(x) with |t - u| <= 7.5u |u|: c1 from pi (u/2), 2/pi (u/2), sqrt (u): 2.1u; x^2 exact,
 * x^3 (u), c2 (u), c2 x^3 (u): 3u; the sum of same-sign terms (u): 4u; times c1 (u): 7.1u.
 * Returns ku with |u(x)| < 2^ku, ku >= 0.  Also sets d ~ u'(x) with rel <= 7.2u if d != NULL:
 * 3 c2 (2u) x^2 (u), 1 + (u), times c1 (3.1u). */
static long tanh_arg(mpfr_ptr t, mpfr_ptr d, mpfr_srcptr x)
{
    mpfr_prec_t wp = mpfr_get_prec(t);
    mpfr_t c1, c2, x2;
    mpfr_inits2(wp, c1, c2, (mpfr_ptr)0);
    mpfr_init2(x2, 2 * mpfr_get_prec(x));
    mpfr_const_pi(c1, MPFR_RNDN);
    mpfr_ui_div(c1, 2, c1, MPFR_RNDN);
    mpfr_sqrt(c1, c1, MPFR_RNDN);
    mpfr_set_ui(c2, 44715, MPFR_RNDN);      /* exact: wp >= 16 */
    mpfr_div_ui(c2, c2, 1000000, MPFR_RNDN);
    mpfr_sqr(x2, x, MPFR_RNDN);             /* exact */
    mpfr_mul(t, x2, x, MPFR_RNDN);
    mpfr_mul(t, t, c2, MPFR_RNDN);
    mpfr_add(t, t, x, MPFR_RNDN);
    mpfr_mul(t, t, c1, MPFR_RNDN);
    if (d) {
        mpfr_mul_ui(d, c2, 3, MPFR_RNDN);
        mpfr_mul(d, d, x2, MPFR_RNDN);
        mpfr_add_ui(d, d, 1, MPFR_RNDN);
        mpfr_mul(d, d, c1, MPFR_RNDN);
    }
    mpfr_clears(c1, c2, x2, (mpfr_ptr)0);
    long ku = gr_exp(t) + 1;
    return ku > 0 ? ku : 0;
}

/* s ~ 1/(1 + exp(-2u)) into b's precision, or S = 1 + exp(-2u) when recip is 0.
 * exp's argument is off by eta <= 15u 2^ku; with eta <= 0.2 exp is off by <= 1.11 eta + u,
 * 1 + e by one more u (positive terms), the reciprocal by one more: <= 16.7 2^ku u + 3.1u. */
static void sigma2u(mpfr_ptr b, mpfr_srcptr t)
{
    mpfr_mul_2ui(b, t, 1, MPFR_RNDN);
    mpfr_neg(b, b, MPFR_RNDN);
    mpfr_exp(b, b, MPFR_RNDN);
    mpfr_add_ui(b, b, 1, MPFR_RNDN);
}

/* gelu_tanh: b = x / S: rel <= 16.7 2^ku u + 3.1u <= 2^(ku+5) u: err = wp - ku - 6. */
static mpfr_exp_t approx_tanh(mpfr_ptr b, mpfr_srcptr x, mpfr_srcptr s)
{
    (void)s;
    mpfr_prec_t wp = mpfr_get_prec(b);
    mpfr_t t;
    mpfr_init2(t, wp);
    long ku = tanh_arg(t, NULL, x);
    sigma2u(b, t);
    mpfr_div(b, x, b, MPFR_RNDN);
    mpfr_clear(t);
    if ((long)wp < ku + 8)
        return 0;
    return (mpfr_exp_t)((long)wp - ku - 6);
}

/* gelu_tanh_grad: T1 = 1/S as above, <= 2^(ku+5) u; T2 = x u' / (2 C^2), C = cosh(t):
 * |ln C~ - ln C| <= |tanh| 7.5u |u| -> C rel <= 8.3 2^ku u + u, C^2 twice that + u, then
 * x u' (7.2u + u) and the quotient (u): <= 16.6 2^ku u + 12.2u <= 2^(ku+5) u. */
static mpfr_exp_t approx_tanh_grad(mpfr_ptr b, mpfr_srcptr x, mpfr_srcptr s)
{
    (void)s;
    mpfr_prec_t wp = mpfr_get_prec(b);
    mpfr_t t, d, c;
    mpfr_inits2(wp, t, d, c, (mpfr_ptr)0);
    long ku = tanh_arg(t, d, x);
    sigma2u(b, t);
    mpfr_ui_div(b, 1, b, MPFR_RNDN);        /* T1 */
    mpfr_cosh(c, t, MPFR_RNDN);
    mpfr_sqr(c, c, MPFR_RNDN);
    mpfr_mul_2ui(c, c, 1, MPFR_RNDN);       /* exact */
    mpfr_mul(d, d, x, MPFR_RNDN);
    mpfr_div(d, d, c, MPFR_RNDN);           /* T2 */
    mpfr_exp_t err = gr_sum_into(b, d, ku + 5); /* b := RN(T1 + T2) */
    mpfr_clears(t, d, c, (mpfr_ptr)0);
    if ((long)wp < ku + 8)
        return 0;
    return err;
}

static mpfr_prec_t wp0_tanh(mpfr_prec_t prec, mpfr_srcptr x, mpfr_srcptr s)
{
    (void)s;
    long k = 3 * gr_exp(x);
    return prec + 32 + (k > 0 ? k : 0);
}

/* gelu_tanh, with E = exp(-2|u|) <= 2^-(L1 |x| + L3 |x|^3):
 *  - deep tail x < 0: v = x/(1 + exp(-2u)), |v| < |x| E;
 *  - saturation x > 0: v = x - x/(1 + exp(2u)), 0 < d < |x| E;
 *  - near 0, |x| <= 1: v = x/2 + x tanh(u)/2, 0 < d <= |x| |u|/2 <= 0.417 x^2 < 2^-1.25 x^2. */
static enum gr_outcome rules_tanh(mpfr_ptr y, mpfr_srcptr x, mpfr_srcptr s, mpfr_rnd_t rnd,
                                  const struct gr_target *tg, int *ternary)
{
    (void)s;
    double lo = gr_abs_lo(x);
    double l_far = (double)gr_exp(x) - (L1 * lo + L3 * lo * lo * lo);
    return gr_rules_gelu_family(y, x, l_far, 2.0 * gr_exp(x) - 1.25, -4, rnd, tg, ternary);
}

/* gelu_tanh_grad, u' <= 0.8 (1 + 0.135 x^2) <= 0.31 x^2 for |x| >= 2:
 *  - saturation x >= 2: v - 1 = (1 - s)(2 x u' s - 1), 2 x u' s > 4.7 there, so
 *    0 < d < 2 x u' E < |x|^3 E;
 *  - deep tail x <= -2: T2 < 0 dominates s (|T2| >= x u' E / 2 > 1.2 E > s), v < 0 and
 *    |v| <= |T2| <= 2 |x| u' E < |x|^3 E;
 *  - near 0, |x| <= 1: v = 1/2 + tanh(u)/2 + T2, both of x's sign, |d| < 0.87 |x|. */
static enum gr_outcome rules_tanh_grad(mpfr_ptr y, mpfr_srcptr x, mpfr_srcptr s,
                                       mpfr_rnd_t rnd, const struct gr_target *tg,
                                       int *ternary)
{
    (void)s;
    double lo = gr_abs_lo(x);
    double l_far = 3.0 * gr_exp(x) - (L1 * lo + L3 * lo * lo * lo);
    return gr_rules_step(y, x, lo >= 2, -1, l_far, (double)gr_exp(x) - 0.2, rnd, tg, ternary);
}

const struct gr_fn gr_fn_gelu_tanh = { GELUREF_GELU_TANH, gr_special_gelu, rules_tanh,
                                       approx_tanh, wp0_tanh };
const struct gr_fn gr_fn_gelu_tanh_grad = { GELUREF_GELU_TANH_GRAD, gr_special_grad,
                                            rules_tanh_grad, approx_tanh_grad, wp0_tanh };
