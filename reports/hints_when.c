/* hints_when.c: the conditions of the hint table (hints_when.h).  Each reads the finding,
 * its kernel's declared func and dtype, the formula the fingerprint detected and the
 * kernel's other findings. */
#include <math.h>
#include <string.h>

#include <geluref.h>

#include "findings.h"
#include "hints_when.h"
#include "resread.h"

static int is_func(const struct hx *c, int f) { return c->func == f; }
static int grad(const struct hx *c)
{
    return is_func(c, GELUREF_GELU_GRAD) || is_func(c, GELUREF_GELU_TANH_GRAD);
}
static int has(const struct hx *c, enum gs_kind k) { return rp_kernel_has(c->k, k); }
static int in_detail(const struct hx *c, const char *s) { return strstr(c->detail, s) != NULL; }

/* the fingerprint saw a known formula other than the declared one */
static int other_formula(const struct hx *c)
{
    static const char *const known[] = { "gelu", "gelu_tanh", "gelu_sigmoid", "gelu_nosqrt2",
                                         "silu", "relu", "scaled" };
    const char *fn = c->func ? geluref_func_name((enum geluref_func)c->func) : NULL;
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (strcmp(c->detected, known[i]) == 0)
            return !fn || strcmp(fn, known[i]) != 0;
    return 0;
}
/* Phi written on erf or erfc: gelu that the fingerprint saw as gelu (or did not look at),
 * its grad, normcdf */
static int erf_form(const struct hx *c)
{
    /* no fingerprint (the suite did not run): as declared */
    int seen = strcmp(c->detected, "gelu") == 0 || strcmp(c->detected, "n/a") == 0 ||
               !c->detected[0];
    return (is_func(c, GELUREF_GELU) && seen) ||
           is_func(c, GELUREF_GELU_GRAD) || is_func(c, GELUREF_NORMCDF);
}
static int tanh_form(const struct hx *c)
{
    return !other_formula(c) &&
           (is_func(c, GELUREF_GELU_TANH) || is_func(c, GELUREF_GELU_TANH_GRAD));
}

int hw_other(const struct hx *c) { return other_formula(c); }
/* the kernel has non-finite outputs, and the finding is not a derivative's noise next to its
 * zero (-0.85 < x < -0.65: rounding there breaks monotonicity by itself) */
int hw_nonfinite(const struct hx *c)
{
    int at_zero = grad(c) && c->has_x && c->x > -0.85 && c->x < -0.65;
    return (has(c, GS_K_NAN_OUTPUT) || has(c, GS_K_INF_OUTPUT)) && !at_zero;
}
int hw_segv(const struct hx *c) { return in_detail(c, "SIGSEGV") || in_detail(c, "SIGBUS"); }
int hw_fpe(const struct hx *c) { return in_detail(c, "SIGFPE"); }
int hw_abort(const struct hx *c) { return in_detail(c, "SIGABRT"); }
int hw_is_tanh(const struct hx *c) { return strcmp(c->detected, "gelu_tanh") == 0; }
int hw_is_sigmoid(const struct hx *c) { return strcmp(c->detected, "gelu_sigmoid") == 0; }
int hw_is_nosqrt2(const struct hx *c) { return strcmp(c->detected, "gelu_nosqrt2") == 0; }
int hw_is_silu(const struct hx *c) { return strcmp(c->detected, "silu") == 0; }
int hw_tanh_gelu(const struct hx *c) { return tanh_form(c) && !grad(c); }
/* a derivative below its zero (x < -0.7518): there the result is negative */
/* below gelu_grad's zero x* = -0.75179152469356446, where GELU' < 0 */
int hw_grad_neg(const struct hx *c)
{
    return grad(c) && c->has_x && c->x < -0.75179152469356446;
}
int hw_erf_deep(const struct hx *c) { return erf_form(c) && c->has_x && c->x < -5; }
int hw_tanh_deep(const struct hx *c) { return tanh_form(c) && c->has_x && c->x < -1; }
int hw_sigmoid_deep(const struct hx *c)
{
    return is_func(c, GELUREF_GELU_SIGMOID) && c->has_x && c->x < -5;
}
int hw_clamp(const struct hx *c) { return c->has_x && c->x > -5 && c->x < 0; }
int hw_lanes(const struct hx *c) { return has(c, GS_K_LANE_CONTAMINATION); }
static int c_nan_at(const struct hx *c, double inf)
{
    return c->has_x && c->x == inf && c->has_got && isnan(c->got);
}
int hw_nan_neg_inf(const struct hx *c) { return c_nan_at(c, -INFINITY); }
int hw_nan_pos_inf(const struct hx *c) { return c_nan_at(c, INFINITY); }
/* huge ulp error, small absolute error, near the zero of a derivative (x* = -0.7518 for
 * gelu_grad, about -0.7525 for gelu_tanh_grad): 16 eps of the dtype at most */
int hw_grad_zero(const struct hx *c)
{
    const struct geluref_dtype_info *di = geluref_dtype_info((enum geluref_dtype)c->dt);
    return grad(c) && c->has_x && c->x > -0.85 && c->x < -0.65 && di &&
           c->abs_err <= ldexp(16.0, 1 - di->prec);
}
int hw_erf1p_tail(const struct hx *c)
{
    return erf_form(c) && c->has_x && c->x < -1 && has(c, GS_K_PREMATURE_FLUSH);
}
/* a formula on erfc or exp, in its tail, with an error such an amplification can make: the
 * argument's half ulp times about x^2 (erfc(-x/sqrt2), exp(-x^2/2)) or |1.702x|, with room
 * to spare (64 x^2 ulps) */
int hw_arg_tail(const struct hx *c)
{
    if (!c->has_x || !(c->ulp <= 64 * c->x * c->x))
        return 0;
    if (is_func(c, GELUREF_NORMPDF))
        return fabs(c->x) > 1;
    return (erf_form(c) || is_func(c, GELUREF_GELU_SIGMOID)) && !other_formula(c) && c->x < -1;
}
/* some lanes or calls compute differently */
int hw_vector(const struct hx *c)
{
    return has(c, GS_K_POSITION_DEPENDENT) || has(c, GS_K_ALIGNMENT_DEPENDENT) ||
           has(c, GS_K_NONDETERMINISTIC);
}
/* a finding of kind k with lo < x < hi */
static int any_between(const struct hx *c, enum gs_kind k, double lo, double hi)
{
    size_t i, j;
    const json_t *s, *e;
    json_array_foreach(json_object_get(c->k, "suites"), i, s) {
        json_array_foreach(json_object_get(s, "findings"), j, e) {
            double x;
            if (strcmp(rr_str(e, "kind"), gs_kind_name(k)) == 0 &&
                rr_value(json_object_get(e, "x"), &x) == 0 && x > lo && x < hi)
                return 1;
        }
    }
    return 0;
}
/* negative outputs set to 0 far from underflow: a clamp */
/* a derivative's flush next to its zero is cancellation (flush_grad_zero), not a clamp */
int hw_clamped(const struct hx *c)
{
    return !grad(c) && any_between(c, GS_K_PREMATURE_FLUSH, -5, 0);
}
/* a positive subnormal result flushed: only FTZ/DAZ or a flushing conversion does that to
 * GELU(x) ~ x/2 */
int hw_ftz_env(const struct hx *c) { return any_between(c, GS_K_FTZ, 0, INFINITY); }
/* a derivative with both terms, +0 in its negative tail */
int hw_grad_sum_zero(const struct hx *c)
{
    return grad(c) && !has(c, GS_K_WRONG_SIGN) && c->has_x && c->x < 0 && c->has_got &&
           c->got == 0 && !signbit(c->got);
}

int hw_tanh_form(const struct hx *c) { return tanh_form(c); }

int hw_init(struct hx *c, const json_t *k, const json_t *fd, enum gs_kind *kind)
{
    enum geluref_func f;
    enum geluref_dtype dt;
    memset(c, 0, sizeof *c);
    c->k = k;
    c->fd = fd;
    if (gs_kind_from_name(rr_str(fd, "kind"), kind))
        return -1;
    c->func = geluref_func_from_name(rr_str(k, "func"), &f) == 0 ? (int)f : 0;
    c->dt = geluref_dtype_from_name(rr_str(k, "dtype"), &dt) == 0 ? (int)dt : 0;
    c->detected = rr_str(json_object_get(k, "fingerprint"), "detected");
    c->detail = rr_str(fd, "detail");
    c->has_x = rr_value(json_object_get(fd, "x"), &c->x) == 0;
    c->has_got = rr_value(json_object_get(fd, "got"), &c->got) == 0;
    if (rr_real(json_object_get(fd, "abs_err"), &c->abs_err))
        c->abs_err = NAN;
    if (rr_real(json_object_get(fd, "ulp"), &c->ulp))
        c->ulp = NAN;
    return 0;
}
