/* The enclosures of oracle_eval: the textbook formulas of docs/design.md section 2 in interval
 * arithmetic (interval.h), at a given working precision. */
#include <stdint.h>
#include "oracle_internal.h"

#include <stdbool.h>

/* Thread-local workspace per (dtype, level): temporaries and constants at that precision,
 * so that constants are computed once per thread and precision, not once per call. */
struct ws {
    bool ready;
    struct iv x, s, t, u, v, r;     /* x, temporaries, result */
    struct iv sqrt2;                /* sqrt(2) */
    struct iv sqrt2pi;              /* sqrt(2 pi) */
    struct iv c;                    /* sqrt(2/pi) */
    struct iv a;                    /* 0.044715 = 44715/1000000, exact real */
    struct iv a3;                   /* 3 * 0.044715 = 134145/1000000 */
    struct iv b;                    /* 1.702 = 851/500 */
};
#define WS_IVS 12

static _Thread_local struct ws cache[GELUREF_DTYPE_LAST + 1][ORACLE_LEVELS];

static void ws_list(struct ws *w, struct iv *all[WS_IVS])
{
    struct iv *l[WS_IVS] = { &w->x, &w->s, &w->t, &w->u, &w->v, &w->r,
                             &w->sqrt2, &w->sqrt2pi, &w->c, &w->a, &w->a3, &w->b };
    for (int i = 0; i < WS_IVS; i++)
        all[i] = l[i];
}

static void ws_make(struct ws *w, mpfr_prec_t wp)
{
    struct iv *all[WS_IVS];
    ws_list(w, all);
    for (int i = 0; i < WS_IVS; i++)
        iv_init(all[i], wp);
    iv_sqrt2(&w->sqrt2);
    iv_pi(&w->t);
    iv_mul_2si(&w->t, &w->t, 1);    /* 2 pi, exact scaling */
    iv_sqrt(&w->sqrt2pi, &w->t);
    iv_set_q(&w->u, 2, 1);
    iv_pi(&w->t);
    iv_div(&w->c, &w->u, &w->t);    /* 2/pi: [pi] > 3 does not contain 0 */
    iv_sqrt(&w->c, &w->c);
    iv_set_q(&w->a, 44715, 1000000);
    iv_set_q(&w->a3, 134145, 1000000);
    iv_set_q(&w->b, 851, 500);
    w->ready = true;
}

void oracle_enclose_release(void)
{
    for (int d = 0; d <= GELUREF_DTYPE_LAST; d++)
        for (int l = 0; l < ORACLE_LEVELS; l++) {
            struct ws *w = &cache[d][l];
            if (!w->ready)
                continue;
            struct iv *all[WS_IVS];
            ws_list(w, all);
            for (int i = 0; i < WS_IVS; i++)
                iv_clear(all[i]);
            w->ready = false;
        }
    iv_scratch_release();
}

/* ---- the formulas; each leaves f(x) enclosed in w->r and returns nonzero on failure ---- */

/* r = Phi(y) = erfc(-y/sqrt2)/2 (never 1 - ..., docs/design.md); r may alias y */
static int cdf(struct ws *w, struct iv *r, const struct iv *y)
{
    iv_neg(r, y);
    if (iv_div(r, r, &w->sqrt2))
        return 1;
    iv_erfc(r, r);
    iv_mul_2si(r, r, -1);
    return 0;
}

/* r = phi(y) = exp(-y^2/2)/sqrt(2 pi); r may alias y */
static int pdf(struct ws *w, struct iv *r, const struct iv *y)
{
    iv_sqr(r, y);
    iv_mul_2si(r, r, -1);
    iv_neg(r, r);
    iv_exp(r, r);
    return iv_div(r, r, &w->sqrt2pi);
}

/* r = u(x) = sqrt(2/pi) (x + 0.044715 x^3) */
static void tanh_arg(struct ws *w, struct iv *r)
{
    iv_sqr(r, &w->x);
    iv_mul(r, r, &w->x);
    iv_mul(r, r, &w->a);
    iv_add(r, r, &w->x);
    iv_mul(r, r, &w->c);
}

static int f_gelu(struct ws *w, double scale)
{
    (void)scale;
    if (cdf(w, &w->t, &w->x))
        return 1;
    iv_mul(&w->r, &w->x, &w->t); /* x Phi(x) */
    return 0;
}

static int f_gelu_tanh(struct ws *w, double scale)
{
    (void)scale;
    tanh_arg(w, &w->t);
    iv_tanh(&w->t, &w->t);
    iv_add_si(&w->t, &w->t, 1);
    iv_mul(&w->t, &w->t, &w->x);
    iv_mul_2si(&w->r, &w->t, -1); /* 0.5 x (1 + tanh u) */
    return 0;
}

static int f_gelu_sigmoid(struct ws *w, double scale)
{
    (void)scale;
    iv_mul(&w->t, &w->x, &w->b);
    iv_neg(&w->t, &w->t);
    iv_exp(&w->t, &w->t);
    iv_add_si(&w->t, &w->t, 1);
    return iv_div(&w->r, &w->x, &w->t); /* x / (1 + exp(-1.702 x)); 1 + exp > 1 */
}

/* The facts for the two derivatives g = gelu_grad, gelu_tanh_grad (both satisfy
 * g(x) + g(-x) = 1, so g(x) < 0 for x <= -1 follows from g(x) > 1 for x >= 1):
 *  - gelu_grad(x) - 1 = x phi(x) - Phi(-x) > phi(x) (x - 1/x) >= 0 for x >= 1, by the Mills
 *    ratio bound Phi(-x) < phi(x)/x (x > 0);
 *  - gelu_tanh_grad(x) - 1 = (1 - t)/2 (x (1 + t) u'(x) - 1) with t = tanh u(x) in (0, 1),
 *    u' = sqrt(2/pi)(1 + 0.134145 x^2); for x >= 1 the bracket is increasing and at x = 1
 *    equals 1.682 * 0.7979 * 1.134145 - 1 > 0.52. */
static int meet_grad_facts(struct ws *w)
{
    if (mpfr_cmp_si(w->x.lo, 1) >= 0)
        return iv_meet_lo_si(&w->r, 1);
    if (mpfr_cmp_si(w->x.hi, -1) <= 0)
        return iv_meet_hi_si(&w->r, 0);
    return 0;
}

static int f_gelu_grad(struct ws *w, double scale)
{
    (void)scale;
    if (cdf(w, &w->t, &w->x) || pdf(w, &w->u, &w->x))
        return 1;
    iv_mul(&w->u, &w->u, &w->x);
    iv_add(&w->r, &w->t, &w->u); /* Phi(x) + x phi(x) */
    return meet_grad_facts(w);
}

/* d/dx 0.5 x (1 + t), t = tanh u, u = sqrt(2/pi)(x + a x^3):
 *   0.5 (1 + t) + 0.5 x (1 - t^2) sqrt(2/pi) (1 + 3 a x^2) */
static int f_gelu_tanh_grad(struct ws *w, double scale)
{
    (void)scale;
    tanh_arg(w, &w->t);
    iv_tanh(&w->t, &w->t);             /* t */
    iv_add_si(&w->u, &w->t, 1);
    iv_mul_2si(&w->u, &w->u, -1);      /* 0.5 (1 + t) */
    iv_sqr(&w->v, &w->t);
    iv_si_sub(&w->v, 1, &w->v);        /* 1 - t^2 */
    iv_mul(&w->v, &w->v, &w->x);
    iv_mul_2si(&w->v, &w->v, -1);
    iv_mul(&w->v, &w->v, &w->c);       /* 0.5 x (1 - t^2) sqrt(2/pi) */
    iv_sqr(&w->s, &w->x);
    iv_mul(&w->s, &w->s, &w->a3);
    iv_add_si(&w->s, &w->s, 1);        /* 1 + 3 a x^2 */
    iv_mul(&w->v, &w->v, &w->s);
    iv_add(&w->r, &w->u, &w->v);
    return meet_grad_facts(w);
}

static int f_normcdf(struct ws *w, double scale)
{
    (void)scale;
    return cdf(w, &w->r, &w->x);
}

static int f_normpdf(struct ws *w, double scale)
{
    (void)scale;
    return pdf(w, &w->r, &w->x);
}

static int f_erf(struct ws *w, double scale)
{
    (void)scale;
    iv_erf(&w->r, &w->x);
    return 0;
}

static int f_erfc(struct ws *w, double scale)
{
    (void)scale;
    iv_erfc(&w->r, &w->x);
    return 0;
}

static int f_gelu_grad2(struct ws *w, double scale)
{
    (void)scale;
    if (pdf(w, &w->t, &w->x))
        return 1;
    iv_sqr(&w->u, &w->x);
    iv_si_sub(&w->u, 2, &w->u);
    iv_mul(&w->r, &w->t, &w->u); /* phi(x) (2 - x^2) */
    return 0;
}

static int f_gelu_scaled(struct ws *w, double scale)
{
    iv_set_d(&w->s, scale); /* exact: wp >= 144 > 53 */
    if (iv_div(&w->t, &w->x, &w->s) || cdf(w, &w->t, &w->t))
        return 1;
    iv_mul(&w->r, &w->x, &w->t); /* x Phi(x/s) */
    return 0;
}

typedef int (*formula)(struct ws *w, double scale);
static const formula formulas[GELUREF_FUNC_LAST + 1] = {
    [GELUREF_GELU] = f_gelu,
    [GELUREF_GELU_TANH] = f_gelu_tanh,
    [GELUREF_GELU_SIGMOID] = f_gelu_sigmoid,
    [GELUREF_GELU_GRAD] = f_gelu_grad,
    [GELUREF_GELU_TANH_GRAD] = f_gelu_tanh_grad,
    [GELUREF_NORMCDF] = f_normcdf,
    [GELUREF_NORMPDF] = f_normpdf,
    [GELUREF_ERF] = f_erf,
    [GELUREF_ERFC] = f_erfc,
    [GELUREF_GELU_GRAD2] = f_gelu_grad2,
    [GELUREF_GELU_SCALED] = f_gelu_scaled,
};

const struct iv *oracle_enclose(enum geluref_func f, enum geluref_dtype dt, int level,
                                mpfr_prec_t wp, mpfr_srcptr x, double scale)
{
    struct ws *w = &cache[dt][level];
    if (!w->ready)
        ws_make(w, wp);
    iv_set_fr(&w->x, x); /* exact: x has at most 53 bits, wp >= 144 */
    if (formulas[f](w, scale) != 0 || iv_nan_p(&w->r))
        return NULL;
    return &w->r;
}
