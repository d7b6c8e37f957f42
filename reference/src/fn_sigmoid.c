/* gelu_sigmoid(x) = x sigmoid(1.702 x) = x / (1 + exp(-1.702 x)), 1.702 = 851/500 exact. */
#include "internal.h"

/* log2(e) 1.702 = 2.4554861..., rounded down: log2 exp(-1.702 |x|) <= -L1 |x|. */
#define L1 2.4554

/* w = c x with c = RN(851/500) (u) and the product (u): |w~ - w| <= 2.1u |w|, |w| < 2^kw.
 * exp(-w~) is off by <= 1.11 eta + u with eta = 2.1u 2^kw <= 0.2, 1 + e by one more u, the
 * quotient by one more: <= 2.4 2^kw u + 3.1u <= 2^(kw+3) u: err = wp - kw - 4. */
static mpfr_exp_t approx_sigmoid(mpfr_ptr b, mpfr_srcptr x, mpfr_srcptr s)
{
    (void)s;
    mpfr_prec_t wp = mpfr_get_prec(b);
    mpfr_t w;
    mpfr_init2(w, wp);
    mpfr_set_ui(w, 851, MPFR_RNDN);         /* exact: wp >= 10 */
    mpfr_div_ui(w, w, 500, MPFR_RNDN);
    mpfr_mul(w, w, x, MPFR_RNDN);
    long kw = gr_exp(w) + 1;
    if (kw < 0)
        kw = 0;
    mpfr_neg(w, w, MPFR_RNDN);
    mpfr_exp(w, w, MPFR_RNDN);
    mpfr_add_ui(w, w, 1, MPFR_RNDN);
    mpfr_div(b, x, w, MPFR_RNDN);
    mpfr_clear(w);
    if ((long)wp < kw + 6)
        return 0;
    return (mpfr_exp_t)((long)wp - kw - 4);
}

static mpfr_prec_t wp0_sigmoid(mpfr_prec_t prec, mpfr_srcptr x, mpfr_srcptr s)
{
    (void)s;
    long k = gr_exp(x);
    return prec + 24 + (k > 0 ? k : 0);
}

/* With E = exp(-1.702 |x|):
 *  - deep tail x < 0: |v| = |x| / (1 + exp(1.702 |x|)) < |x| E;
 *  - saturation x > 0: v = x - x/(1 + exp(1.702 x)), 0 < d < |x| E;
 *  - near 0: v = x/2 + x tanh(0.851 x)/2, 0 < d <= 0.4255 x^2 < 2^-1.23 x^2. */
static enum gr_outcome rules_sigmoid(mpfr_ptr y, mpfr_srcptr x, mpfr_srcptr s, mpfr_rnd_t rnd,
                                     const struct gr_target *tg, int *ternary)
{
    (void)s;
    double lo = gr_abs_lo(x);
    double l_far = (double)gr_exp(x) - L1 * lo;
    return gr_rules_gelu_family(y, x, l_far, 2.0 * gr_exp(x) - 1.23, -4, rnd, tg, ternary);
}

const struct gr_fn gr_fn_gelu_sigmoid = { GELUREF_GELU_SIGMOID, gr_special_gelu, rules_sigmoid,
                                          approx_sigmoid, wp0_sigmoid };
