/* Special values and the rule skeletons shared by the function files.  The bounds they are
 * given are argued where they are computed (fn_*.c); the decisions in ziv.c. */
#include "internal.h"

/* gelu family (gelu, gelu_tanh, gelu_sigmoid, gelu_scaled): NaN -> NaN, +inf -> +inf,
 * -inf -> -0, +-0 -> +-0 (docs/design.md section 2). */
enum gr_outcome gr_special_gelu(mpfr_ptr y, mpfr_srcptr x, mpfr_srcptr s, mpfr_rnd_t rnd,
                                int *ternary)
{
    (void)s;
    (void)rnd;
    if (mpfr_nan_p(x))
        mpfr_set_nan(y);
    else if (mpfr_inf_p(x) && mpfr_sgn(x) < 0)
        mpfr_set_zero(y, -1);
    else if (mpfr_inf_p(x) || mpfr_zero_p(x))
        mpfr_set(y, x, MPFR_RNDN);
    else
        return GR_UNDECIDED;
    *ternary = 0;
    return GR_DECIDED;
}

/* Step-like functions: NaN -> NaN, +inf -> 1, -inf -> a zero of sign neg_inf_sign,
 * +-0 -> 1/2. */
static enum gr_outcome special_step(mpfr_ptr y, mpfr_srcptr x, int neg_inf_sign, int *ternary)
{
    if (mpfr_nan_p(x))
        mpfr_set_nan(y);
    else if (mpfr_inf_p(x) && mpfr_sgn(x) > 0)
        mpfr_set_ui(y, 1, MPFR_RNDN);
    else if (mpfr_inf_p(x))
        mpfr_set_zero(y, neg_inf_sign);
    else if (mpfr_zero_p(x))
        mpfr_set_ui_2exp(y, 1, -1, MPFR_RNDN);
    else
        return GR_UNDECIDED;
    *ternary = 0;
    return GR_DECIDED;
}

/* normcdf: -inf -> +0. */
enum gr_outcome gr_special_cdf(mpfr_ptr y, mpfr_srcptr x, mpfr_srcptr s, mpfr_rnd_t rnd,
                               int *ternary)
{
    (void)s;
    (void)rnd;
    return special_step(y, x, 1, ternary);
}

/* gelu_grad, gelu_tanh_grad: -inf -> -0 (the derivative tends to 0 from below). */
enum gr_outcome gr_special_grad(mpfr_ptr y, mpfr_srcptr x, mpfr_srcptr s, mpfr_rnd_t rnd,
                                int *ternary)
{
    (void)s;
    (void)rnd;
    return special_step(y, x, -1, ternary);
}

enum gr_outcome gr_rules_gelu_family(mpfr_ptr y, mpfr_srcptr x, double l_far, double l_near,
                                     long near_exp, mpfr_rnd_t rnd, const struct gr_target *tg,
                                     int *ternary)
{
    enum gr_outcome out = GR_UNDECIDED;

    if (mpfr_sgn(x) < 0)
        out = gr_decide_tail(y, -1, l_far, rnd, tg, ternary);
    else if (l_far < (double)gr_exp(x) - (double)mpfr_get_prec(y)) /* cheap pre-test */
        out = gr_decide_near(y, x, -1, l_far, rnd, ternary);
    if (out == GR_UNDECIDED && gr_exp(x) < near_exp) {
        mpfr_t a;
        mpfr_init2(a, mpfr_get_prec(x));
        mpfr_div_2ui(a, x, 1, MPFR_RNDN); /* x/2: exact unless MPFR's own range underflows */
        if (mpfr_regular_p(a))
            out = gr_decide_near(y, a, 1, l_near, rnd, ternary);
        mpfr_clear(a);
    }
    return out;
}

enum gr_outcome gr_rules_step(mpfr_ptr y, mpfr_srcptr x, int far, int tail_dir, double l_far,
                              double l_near, mpfr_rnd_t rnd, const struct gr_target *tg,
                              int *ternary)
{
    enum gr_outcome out = GR_UNDECIDED;
    mpfr_t a;

    if (far && mpfr_sgn(x) < 0)
        return gr_decide_tail(y, tail_dir, l_far, rnd, tg, ternary);
    mpfr_init2(a, 2);
    if (far) {
        mpfr_set_ui(a, 1, MPFR_RNDN);
        out = gr_decide_near(y, a, -tail_dir, l_far, rnd, ternary);
    } else if (gr_exp(x) < -4) {
        mpfr_set_ui_2exp(a, 1, -1, MPFR_RNDN);
        out = gr_decide_near(y, a, mpfr_sgn(x), l_near, rnd, ternary);
    }
    mpfr_clear(a);
    return out;
}
