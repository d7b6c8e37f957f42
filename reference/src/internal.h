/* Internal interfaces of libgeluref (prefix gr_).  Not installed. */
#ifndef GELUREF_INTERNAL_H
#define GELUREF_INTERNAL_H

#include <stdint.h>

#include "geluref.h"

/* MPFR exponent range that emulates a dtype with subnormals (MPFR's convention: x = m 2^e
 * with 1/2 <= m < 1).  emin: the exponent of the smallest subnormal 2^(emin_ieee - p + 1) is
 * emin_ieee - p + 2; emax = emax_ieee + 1 (f32: -148, 128; f64: -1073, 1024). */
mpfr_exp_t gr_dtype_emin(const struct geluref_dtype_info *d);
mpfr_exp_t gr_dtype_emax(const struct geluref_dtype_info *d);
uint64_t gr_dtype_qnan(const struct geluref_dtype_info *d);

/* What a rule or the Ziv driver rounds for: the result is rounded at PREC(y) bits in MPFR's
 * widest exponent range; emin is the exponent range floor that applies afterwards (the
 * dtype's, or the caller's for the MPFR-style layer), used by the deep-tail rule; subnormals
 * says whether the final target has subnormals below 2^(emin-1+...), so that Ziv's loop may
 * decide at the number of bits the result really has. */
struct gr_target {
    mpfr_exp_t emin;
    int subnormals;
    mpfr_prec_t prec_cap;
};

/* Outcome of an attempt to decide the result. */
enum gr_outcome { GR_UNDECIDED = 0, GR_DECIDED = 1 };

/* A function's pieces.  Each may assume x finite and nonzero (special() runs first).
 *  special: NaN, infinities, zeros; returns GR_DECIDED with y set exactly and *ternary.
 *  rules:   the documented rules (saturation, near 0, deep tail); GR_DECIDED when one applies.
 *  approx:  b ~ f(x) at b's precision wp; returns err such that |b - f(x)| <= 2^(EXP(b)-err),
 *           or a value <= 0 when wp is too small for its own error analysis to hold.
 *  wp0:     the first working precision for a result of prec bits at input x. */
struct gr_fn {
    enum geluref_func id;
    enum gr_outcome (*special)(mpfr_ptr y, mpfr_srcptr x, mpfr_srcptr s, mpfr_rnd_t rnd,
                               int *ternary);
    enum gr_outcome (*rules)(mpfr_ptr y, mpfr_srcptr x, mpfr_srcptr s, mpfr_rnd_t rnd,
                             const struct gr_target *tg, int *ternary);
    mpfr_exp_t (*approx)(mpfr_ptr b, mpfr_srcptr x, mpfr_srcptr s);
    mpfr_prec_t (*wp0)(mpfr_prec_t prec, mpfr_srcptr x, mpfr_srcptr s);
};

extern const struct gr_fn gr_fn_gelu, gr_fn_gelu_scaled, gr_fn_normcdf, gr_fn_erf, gr_fn_erfc,
    gr_fn_gelu_tanh, gr_fn_gelu_tanh_grad, gr_fn_gelu_sigmoid, gr_fn_gelu_grad,
    gr_fn_gelu_grad2, gr_fn_normpdf;
const struct gr_fn *gr_fn_lookup(enum geluref_func f);

/* ---- helpers for rules (ziv.c) ---- */

/* v = a + dir * delta with 0 < delta < 2^bexp, a exact, nonzero and finite, dir = +1 or -1.
 * Decides RND(v) at PREC(y) bits when [a, a + dir 2^bexp] holds no (PREC(y)+1)-bit number
 * other than a itself; sets y and *ternary (never 0).  See reference/README.md, "near". */
enum gr_outcome gr_decide_near(mpfr_ptr y, mpfr_srcptr a, int dir, double log2_bound,
                               mpfr_rnd_t rnd, int *ternary);

/* v = dir * delta with 0 < delta < 2^log2_bound: when that is below half the smallest
 * positive number of the target (2^(tg->emin - 2)), sets y to a stand-in of the right sign
 * far below the range, which the final mpfr_check_range turns into +-0 or the smallest
 * number as rnd says.  See reference/README.md, "deep tail". */
enum gr_outcome gr_decide_tail(mpfr_ptr y, int dir, double log2_bound, mpfr_rnd_t rnd,
                               const struct gr_target *tg, int *ternary);

/* A double lower bound of |x|, saturating at 2^300 (beyond which the rules' Gaussian factors
 * are below any exponent MPFR has); the rules bound log2|x| from above by EXP(x). */
double gr_abs_lo(mpfr_srcptr x);

/* Exponent of x as a small integer, clamped to [-1000000, 1000000]; 0 for x = 0. */
long gr_exp(mpfr_srcptr x);

/* rules.c: special values of the gelu family, of normcdf and of the two gradients. */
enum gr_outcome gr_special_gelu(mpfr_ptr y, mpfr_srcptr x, mpfr_srcptr s, mpfr_rnd_t rnd,
                                int *ternary);
enum gr_outcome gr_special_cdf(mpfr_ptr y, mpfr_srcptr x, mpfr_srcptr s, mpfr_rnd_t rnd,
                               int *ternary);
enum gr_outcome gr_special_grad(mpfr_ptr y, mpfr_srcptr x, mpfr_srcptr s, mpfr_rnd_t rnd,
                                int *ternary);

/* Rules of the gelu family, v = x g(x) with g -> 0, 1/2, 1:
 *  x < 0: deep tail, |v| < 2^l_far;  x > 0: saturation, v = x - d, 0 < d < 2^l_far;
 *  EXP(x) < near_exp: v = x/2 + d, 0 < d < 2^l_near. */
enum gr_outcome gr_rules_gelu_family(mpfr_ptr y, mpfr_srcptr x, double l_far, double l_near,
                                     long near_exp, mpfr_rnd_t rnd, const struct gr_target *tg,
                                     int *ternary);

/* Rules of step-like functions (normcdf, gelu_grad, gelu_tanh_grad), when far is set
 * (|x| beyond the bounds' validity): x < 0: v = tail_dir delta, delta < 2^l_far; x > 0:
 * v = 1 - tail_dir delta; when EXP(x) < -4: v = 1/2 + sign(x) delta, delta < 2^l_near. */
enum gr_outcome gr_rules_step(mpfr_ptr y, mpfr_srcptr x, int far, int tail_dir, double l_far,
                              double l_near, mpfr_rnd_t rnd, const struct gr_target *tg,
                              int *ternary);

/* The smallest working precision the approximations' error analyses hold for (exact small
 * integer constants such as 44715, the conditions wp >= 2k + 5 and the like at k = 0). */
#define GR_WP_MIN 32

/* Ziv's loop (ziv.c): evaluates fn at x rounded to PREC(y) in rnd.  GELUREF_E_PREC_CAP when
 * the cap is reached, or is below GR_WP_MIN. */
enum geluref_status gr_ziv(const struct gr_fn *fn, mpfr_ptr y, mpfr_srcptr x, mpfr_srcptr s,
                           mpfr_rnd_t rnd, const struct gr_target *tg,
                           struct geluref_stats *stats, int *ternary);

/* t1 := RN(t1 + t2) at PREC(t1), the terms having relative error <= 2^(r - PREC(t1)); returns
 * the error exponent for mpfr_can_round, or 0 when it cannot be bounded (the sum or a term
 * zero or out of MPFR's range). */
mpfr_exp_t gr_sum_into(mpfr_ptr t1, mpfr_srcptr t2, long r);

/* erfc(-x/(s sqrt2)) at PREC(e) (s NULL: 1); returns r, relative error <= 2^(r - PREC(e));
 * r = PREC(e) when the precision is too small for the analysis (fn_erfc.c). */
mpfr_exp_t gr_erfc_arg(mpfr_ptr e, mpfr_srcptr x, mpfr_srcptr s);

/* phi(x) at PREC(b), relative error <= 4u (x^2 is exact: see fn_grad.c). */
void gr_pdf(mpfr_ptr b, mpfr_srcptr x);

/* Shared constant: c = sqrt(1/2) at c's precision, relative error <= 2^-PREC(c) (RN). */
void gr_sqrt_half(mpfr_ptr c);

#endif
