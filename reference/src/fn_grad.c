/* phi and the derivatives of GELU: normpdf = phi(x), gelu_grad = Phi(x) + x phi(x),
 * gelu_grad2 = phi(x) (2 - x^2). */
#include "internal.h"

#define LOG2E_2 0.72134      /* log2(e)/2 = 0.7213475..., rounded down */
#define LOG2_SQRT2PI 1.3257  /* log2(sqrt(2 pi)) = 1.3257480..., rounded down */

/* x^2 is formed exactly (2 PREC(x) bits), so exp's argument carries no error:
 * exp(-x^2/2) (1 + d1); sqrt(2 pi) from pi (1 + d2): (1 + d2)^(1/2) (1 + d3);
 * the quotient (1 + d4): relative error <= u + u/2 + u + u + O(u^2) <= 4u. */
void gr_pdf(mpfr_ptr b, mpfr_srcptr x)
{
    mpfr_t x2, c;
    mpfr_init2(x2, 2 * mpfr_get_prec(x));
    mpfr_init2(c, mpfr_get_prec(b));
    mpfr_sqr(x2, x, MPFR_RNDN);             /* exact */
    mpfr_div_2ui(x2, x2, 1, MPFR_RNDN);     /* exact */
    mpfr_neg(x2, x2, MPFR_RNDN);
    mpfr_exp(b, x2, MPFR_RNDN);             /* (1 + d1) */
    mpfr_const_pi(c, MPFR_RNDN);            /* (1 + d2) */
    mpfr_mul_2ui(c, c, 1, MPFR_RNDN);       /* exact */
    mpfr_sqrt(c, c, MPFR_RNDN);             /* (1 + d3) */
    mpfr_div(b, b, c, MPFR_RNDN);           /* (1 + d4) */
    mpfr_clear(x2);
    mpfr_clear(c);
}

static mpfr_prec_t wp0_pdf(mpfr_prec_t prec, mpfr_srcptr x, mpfr_srcptr s)
{
    (void)x;
    (void)s;
    return prec + 24;
}

/* normpdf: rel <= 4u = 2^(2-wp): err = wp - 3. */
static mpfr_exp_t approx_normpdf(mpfr_ptr b, mpfr_srcptr x, mpfr_srcptr s)
{
    (void)s;
    gr_pdf(b, x);
    return (mpfr_exp_t)mpfr_get_prec(b) - 3;
}

/* gelu_grad2: t = RN(2 - x^2) from the exact x^2 (1 + d5), product (1 + d6): rel <= 6u + O(u^2)
 * < 2^3 u: err = wp - 4.  2 - x^2 = 0 only at x = +-sqrt2, which no float is. */
static mpfr_exp_t approx_grad2(mpfr_ptr b, mpfr_srcptr x, mpfr_srcptr s)
{
    (void)s;
    mpfr_t t;
    mpfr_init2(t, 2 * mpfr_get_prec(x));
    mpfr_sqr(t, x, MPFR_RNDN);              /* exact */
    mpfr_prec_round(t, mpfr_get_prec(b) > mpfr_get_prec(t) ? mpfr_get_prec(b)
                                                           : mpfr_get_prec(t), MPFR_RNDN);
    mpfr_ui_sub(t, 2, t, MPFR_RNDN);        /* (1 + d5) at max(wp, 2 PREC(x)) bits */
    gr_pdf(b, x);
    mpfr_mul(b, b, t, MPFR_RNDN);           /* (1 + d6) */
    mpfr_clear(t);
    return (mpfr_exp_t)mpfr_get_prec(b) - 4;
}

/* gelu_grad: T1 = Phi(x) = erfc(-x/sqrt2)/2 with rel 2^(r1-wp) (gr_erfc_arg), T2 = x phi(x)
 * with rel 4u + u < 2^3 u; the sum's error by gr_sum_into (cancellation near x* = -0.7518). */
static mpfr_exp_t approx_grad(mpfr_ptr b, mpfr_srcptr x, mpfr_srcptr s)
{
    (void)s;
    mpfr_t t2;
    mpfr_init2(t2, mpfr_get_prec(b));
    mpfr_exp_t r1 = gr_erfc_arg(b, x, NULL);
    mpfr_div_2ui(b, b, 1, MPFR_RNDN);       /* exact */
    gr_pdf(t2, x);
    mpfr_mul(t2, t2, x, MPFR_RNDN);
    long r = r1 > 3 ? (long)r1 : 3;
    mpfr_exp_t err = gr_sum_into(b, t2, r); /* b := RN(T1 + T2) */
    mpfr_clear(t2);
    return err;
}

static mpfr_prec_t wp0_grad(mpfr_prec_t prec, mpfr_srcptr x, mpfr_srcptr s)
{
    (void)s;
    long k = gr_exp(x);
    return prec + 32 + (k > 0 ? 2 * k : 0);
}

static enum gr_outcome special_pdf(mpfr_ptr y, mpfr_srcptr x, mpfr_srcptr s, mpfr_rnd_t rnd,
                                   int *ternary)
{
    (void)s;
    (void)rnd;
    if (mpfr_nan_p(x))
        mpfr_set_nan(y);
    else if (mpfr_inf_p(x))
        mpfr_set_zero(y, 1);   /* normpdf(+-inf) = +0 */
    else
        return GR_UNDECIDED;   /* phi(0) = 1/sqrt(2 pi) goes through Ziv's loop */
    *ternary = 0;
    return GR_DECIDED;
}

static enum gr_outcome special_grad2(mpfr_ptr y, mpfr_srcptr x, mpfr_srcptr s, mpfr_rnd_t rnd,
                                     int *ternary)
{
    (void)s;
    (void)rnd;
    if (mpfr_nan_p(x))
        mpfr_set_nan(y);
    else if (mpfr_inf_p(x))
        mpfr_set_zero(y, -1);  /* phi (2 - x^2) -> 0 from below at both ends */
    else
        return GR_UNDECIDED;   /* 2 phi(0) goes through Ziv's loop */
    *ternary = 0;
    return GR_DECIDED;
}

/* normpdf: deep tail only, 0 < v = phi(x) < 2^(-LOG2E_2 x^2 - LOG2_SQRT2PI). */
static enum gr_outcome rules_pdf(mpfr_ptr y, mpfr_srcptr x, mpfr_srcptr s, mpfr_rnd_t rnd,
                                 const struct gr_target *tg, int *ternary)
{
    (void)s;
    double lo = gr_abs_lo(x);
    return gr_decide_tail(y, 1, -LOG2E_2 * lo * lo - LOG2_SQRT2PI, rnd, tg, ternary);
}

/* gelu_grad2, |x| >= 2: v < 0 and |v| = phi(x) (x^2 - 2) < x^2 phi(x). */
static enum gr_outcome rules_grad2(mpfr_ptr y, mpfr_srcptr x, mpfr_srcptr s, mpfr_rnd_t rnd,
                                   const struct gr_target *tg, int *ternary)
{
    (void)s;
    double lo = gr_abs_lo(x);
    if (lo < 2)
        return GR_UNDECIDED;
    double l = 2.0 * gr_exp(x) - LOG2E_2 * lo * lo - LOG2_SQRT2PI;
    return gr_decide_tail(y, -1, l, rnd, tg, ternary);
}

/* gelu_grad, with Phi(-|x|) < phi(x)/|x| <= |x| phi(x) for |x| >= 1 (Mills):
 *  - deep tail x <= -1: v = Phi(x) + x phi(x) < 0, |v| < |x| phi(x);
 *  - saturation x >= 1: v = 1 + (x phi(x) - Phi(-x)), 0 < d < x phi(x);
 *  - near 0: v = 1/2 + (Phi(x) - 1/2) + x phi(x), both terms of x's sign, |d| < 0.8 |x|. */
static enum gr_outcome rules_grad(mpfr_ptr y, mpfr_srcptr x, mpfr_srcptr s, mpfr_rnd_t rnd,
                                  const struct gr_target *tg, int *ternary)
{
    (void)s;
    double lo = gr_abs_lo(x);
    double l_far = (double)gr_exp(x) - LOG2E_2 * lo * lo - LOG2_SQRT2PI;
    return gr_rules_step(y, x, lo >= 1, -1, l_far, (double)gr_exp(x) - 0.32, rnd, tg, ternary);
}

const struct gr_fn gr_fn_normpdf = { GELUREF_NORMPDF, special_pdf, rules_pdf, approx_normpdf,
                                     wp0_pdf };
const struct gr_fn gr_fn_gelu_grad2 = { GELUREF_GELU_GRAD2, special_grad2, rules_grad2,
                                        approx_grad2, wp0_pdf };
const struct gr_fn gr_fn_gelu_grad = { GELUREF_GELU_GRAD, gr_special_grad, rules_grad, approx_grad,
                                       wp0_grad };
