/* identity_check.c: the identities, f(0) and the bounds of the identity suite.
 *
 * Identities (for every dtype input x in P, with y1 = kernel(x), y2 = kernel(-x)):
 *   gelu, gelu_tanh, gelu_sigmoid  y1 - y2 = x   (Phi(-x) = 1 - Phi(x), tanh and sigmoid
 *                                                 likewise: f(x) - f(-x) = x exactly)
 *   gelu_grad, gelu_tanh_grad      y1 + y2 = 1   (the derivative of the line above)
 *   normcdf                        y1 + y2 = 1
 *   erf                            y1 + y2 = 0;  erfc  y1 + y2 = 2;  normpdf  y1 = y2
 * The residual (y1 -+ y2 - c) is computed exactly in MPFR (precision spanning the dtype's
 * whole range) and allowed up to q (ulp(y1) + ulp(y2)), ulp as docs/design.md section 4 defines it
 * but of the outputs, q the policy's consistency_ulps: q = 1/2 (strict) is docs/design.md's
 * "half an ulp of each output", what a correctly rounded kernel can produce; a kernel whose
 * outputs are each within q ulps can produce q of each.  Why 1/2 for RN: the exact
 * residual is 0, and for RN, |RN(v) - v| <= ulp(v)/2 <= ulp(RN(v))/2, since RN(v) is never in
 * a lower binade than v (the binade's bound 2^e is a value of the dtype), and ulp(0) is the
 * smallest subnormal, twice any v that rounds to 0.  Score: |residual| / allowed (> 1).
 *
 * Bounds: the gelu family min <= f(x) <= max(x, 0); the grads min <= f(x) <= max; normcdf in
 * [0, 1], erf [-1, 1], erfc [0, 2], normpdf [0, RN(1/sqrt(2 pi))].  min is RN of the
 * function's minimum over the dtype (gs_targets.min_value = RN(f(min_x)), min_x the dtype's
 * argmin); max of the grads is RN(f(-min_x)): f(-x) = 1 - f(x) exactly for every input, so
 * the dtype's argmax is -min_x (gelu_grad: about 1.1289041 at sqrt2).  A correctly rounded
 * kernel meets these bounds, RN being monotone.  Score: positions beyond the bound (+inf for
 * NaN). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "identity_priv.h"

/* "f(x) - f(-x) = x": the identity as text, and its sign (-1: y1 - y2) and constant */
static const char *identity_of(enum geluref_func f, int *sign, double *k)
{
    *sign = 1;
    *k = 0;
    if (id_gelu_family(f)) {
        *sign = -1;
        return "f(x) - f(-x) = x";
    }
    switch (f) {
    case GELUREF_NORMPDF: *sign = -1; return "f(x) = f(-x)";
    case GELUREF_ERF: return "f(x) + f(-x) = 0";
    case GELUREF_ERFC: *k = 2; return "f(x) + f(-x) = 2";
    default: *k = 1; return "f(x) + f(-x) = 1";
    }
}

/* exponent of ulp(v) (docs/design.md section 4) for a finite value v of the dtype */
static long ulp_exp(const struct geluref_dtype_info *di, mpfr_srcptr v)
{
    long e = mpfr_zero_p(v) ? di->emin : (long)mpfr_get_exp(v) - 1; /* |v| in [2^e, 2^(e+1)) */
    return (e < di->emin ? di->emin : e) - di->prec + 1;
}

/* a finding; its detail is formatted (by fmt, from the pointers) only when it is kept */
struct id_text {
    const char *what, *why;
    uint64_t a, b;
    double u, q;
};
typedef void (*id_fmt)(char *d, size_t size, const struct id_state *s, const struct id_text *t);

static void add(struct id_state *s, enum gs_kind kind, uint64_t x, uint64_t got, double score,
                id_fmt fmt, const struct id_text *t)
{
    struct gs_finding fd = { .kind = kind, .region = gs_region_of(s->dt, x), .has_x = 1,
                             .has_got = 1, .x = x, .got = got, .score = score, .ulp = NAN,
                             .abs_err = NAN };
    if (gs_findings_may_keep(&s->r->findings, kind, fd.region, score))
        fmt(fd.detail, sizeof fd.detail, s, t);
    gs_findings_add(&s->r->findings, &fd);
}

static void dec(char *buf, size_t size, const struct id_state *s, uint64_t v)
{
    geluref_format_dec(buf, size, s->dt, v);
}

/* "f(x) - f(-x) = x: f(-x) = -0.15865526, residual 0.159 ulp (allowed 0.5)" */
static void fmt_identity(char *d, size_t size, const struct id_state *s, const struct id_text *t)
{
    char y2[40];
    dec(y2, sizeof y2, s, t->a);
    if (t->why != NULL)
        snprintf(d, size, "%s: f(-x) = %s, %s", t->what, y2, t->why);
    else
        snprintf(d, size, "%s: f(-x) = %s, residual %.3g ulp (allowed %.3g)", t->what, y2,
                 t->u, t->q);
}

/* "f(-0) = 0.5, want 0" */
static void fmt_zero(char *d, size_t size, const struct id_state *s, const struct id_text *t)
{
    char y[40], w[40];
    dec(y, sizeof y, s, t->a);
    dec(w, sizeof w, s, t->b);
    snprintf(d, size, "%s = %s, want %s", t->what, y, w);
}

/* "f(x) = 0.05 is above max(x, 0) 0" */
static void fmt_bound(char *d, size_t size, const struct id_state *s, const struct id_text *t)
{
    char y[40], b[40];
    dec(y, sizeof y, s, t->a);
    dec(b, sizeof b, s, t->b);
    if (t->what == NULL)
        snprintf(d, size, "f(x) = %s is %s", y, t->why);
    else
        snprintf(d, size, "f(x) = %s is %s %s", y, t->why, b);
}

int id_identity(struct id_state *s)
{
    const struct geluref_dtype_info *di = s->di;
    /* the exact sum of three values of the dtype spans 2^(emax+2) .. 2^(emin-prec+1) */
    mpfr_prec_t prec = (mpfr_prec_t)(di->emax + 2 - (di->emin - di->prec + 1) + 2);
    mpfr_t a, b, res, al, t, q;
    int sign, inexact = 0;
    double k;
    const char *what = identity_of(s->c->func, &sign, &k);

    mpfr_inits2(prec, a, b, res, al, t, (mpfr_ptr)0);
    mpfr_init2(q, 53);
    for (size_t i = 0; i < s->np; i++) {
        uint64_t x = s->p[i];
        size_t i1 = id_find(s, x), i2 = id_find(s, gs_neg(s->dt, x));
        uint64_t y1 = s->y[i1], y2 = s->y[i2];
        s->id_checked++;
        if (gs_is_nan(s->dt, y1) || gs_is_nan(s->dt, y2) || gs_is_inf(s->dt, y1) ||
            gs_is_inf(s->dt, y2)) {
            struct id_text nf = { .what = what, .why = "an output is not finite", .a = y2 };
            s->id_viol++;
            add(s, GS_K_IDENTITY_VIOLATION, x, y1, INFINITY, fmt_identity, &nf);
            continue;
        }
        geluref_bits_to_mpfr(a, s->dt, y1);
        geluref_bits_to_mpfr(b, s->dt, y2);
        inexact |= sign < 0 ? mpfr_sub(res, a, b, MPFR_RNDN) : mpfr_add(res, a, b, MPFR_RNDN);
        if (id_gelu_family(s->c->func)) {
            geluref_bits_to_mpfr(t, s->dt, x);
            inexact |= mpfr_sub(res, res, t, MPFR_RNDN);
        } else {
            inexact |= mpfr_sub_d(res, res, k, MPFR_RNDN); /* k in {0, 1, 2}: exact */
        }
        long e1 = ulp_exp(di, a), e2 = ulp_exp(di, b);
        mpfr_set_ui_2exp(al, 1, e1, MPFR_RNDN);
        mpfr_set_ui_2exp(t, 1, e2, MPFR_RNDN);
        inexact |= mpfr_add(al, al, t, MPFR_RNDN);
        /* times q (a double: exact at this precision) */
        inexact |= mpfr_mul_d(al, al, s->c->pv.consistency_ulps, MPFR_RNDN);
        mpfr_abs(res, res, MPFR_RNDN);
        mpfr_mul_2si(t, res, -(e1 > e2 ? e1 : e2), MPFR_RNDN); /* |residual| in ulps */
        double ulps = mpfr_get_d(t, MPFR_RNDN);
        if (ulps > s->id_max_ulps)
            s->id_max_ulps = ulps;
        if (mpfr_cmp(res, al) <= 0)
            continue;
        mpfr_div(q, res, al, MPFR_RNDN);
        double score = mpfr_get_d(q, MPFR_RNDN);
        struct id_text tx = { .what = what, .a = y2, .u = ulps, .q = ulps / score };
        s->id_viol++;
        add(s, GS_K_IDENTITY_VIOLATION, x, y1, score, fmt_identity, &tx);
    }
    mpfr_clears(a, b, res, al, t, q, (mpfr_ptr)0);
    if (inexact) {
        s->c->internal_error = 1;
        snprintf(s->c->internal_msg, sizeof s->c->internal_msg,
                 "identity suite: a residual was not exact (precision too small)");
        s->failed = 1;
        return -1;
    }
    return 0;
}

/* f(+0) and f(-0): 0 for the gelu family and erf, 1/2 for the grads and normcdf, 1 for erfc,
 * RN(1/sqrt(2 pi)) for normpdf; compared by value (the zero sign is the special suite's). */
int id_zero(struct id_state *s)
{
    enum geluref_func f = s->c->func;
    uint64_t want = gs_from_double(s->dt, id_grad(f) || f == GELUREF_NORMCDF ? 0.5
                                          : f == GELUREF_ERFC ? 1.0 : 0.0); /* exact */
    if (f == GELUREF_NORMPDF && id_ref(s, 0, &want) != 0)
        return -1;
    for (int neg = 0; neg < 2; neg++) {
        uint64_t x = neg ? gs_neg(s->dt, 0) : 0, y = s->y[id_find(s, x)];
        struct id_text t = { .what = neg ? "f(-0)" : "f(+0)", .a = y, .b = want };
        s->zero_checked++;
        if (gs_to_double(s->dt, y) == gs_to_double(s->dt, want))
            continue;
        /* normpdf(0) = 1/sqrt(2 pi) is not a value of the dtype: an output within q ulps of
         * it (consistency_ulps) lies at most ceil(q - 1/2) values from its RN */
        double q = s->c->pv.consistency_ulps;
        if (f == GELUREF_NORMPDF && !gs_is_nan(s->dt, y) &&
            (isinf(q) || llabs(gs_pos(s->dt, y) - gs_pos(s->dt, want)) <= (int64_t)ceil(q - 0.5)))
            continue;
        s->zero_viol++;
        add(s, GS_K_IDENTITY_VIOLATION, x, y, INFINITY, fmt_zero, &t);
    }
    return 0;
}

static int set_bounds(struct id_state *s)
{
    enum geluref_func f = s->c->func;
    const struct gs_targets *t = &s->c->targets;
    static const double lo[] = { [GELUREF_NORMCDF] = 0, [GELUREF_NORMPDF] = 0,
                                 [GELUREF_ERF] = -1, [GELUREF_ERFC] = 0 };
    static const double hi[] = { [GELUREF_NORMCDF] = 1, [GELUREF_ERF] = 1, [GELUREF_ERFC] = 2 };
    if (f >= GELUREF_NORMCDF) {
        s->has_lo = s->has_hi = 1;
        s->lo = gs_from_double(s->dt, lo[f]); /* exact */
        if (f == GELUREF_NORMPDF)
            return id_ref(s, 0, &s->hi);
        s->hi = gs_from_double(s->dt, hi[f]);
        return 0;
    }
    if (!t->has_min)
        return 0;
    s->lo = t->min_value;
    s->has_lo = 1;
    if (id_grad(f)) {
        s->has_hi = 1;
        return id_ref(s, gs_neg(s->dt, t->min_x), &s->hi);
    }
    return 0;
}

int id_bounds(struct id_state *s)
{
    if (set_bounds(s) != 0)
        return -1;
    /* an output within q ulps of a value inside the bound lies at most ceil(q - 1/2)
     * positions beyond it (RN of the bound is the bound; q = 1/2: none) */
    double q = s->c->pv.consistency_ulps;
    int64_t slack = isinf(q) ? INT64_MAX : (int64_t)ceil(q - 0.5);
    int fam = id_gelu_family(s->c->func);
    double lo = gs_to_double(s->dt, s->lo), hi = gs_to_double(s->dt, s->hi);
    for (size_t i = 0; i < s->n; i++) {
        uint64_t x = s->x[i], y = s->y[i], bound = s->hi;
        double v = gs_to_double(s->dt, y), up = hi;
        const char *why = NULL;
        int has_up = s->has_hi;
        if (fam) { /* f(x) <= max(x, 0) */
            bound = gs_sign(s->dt, x) ? 0 : x;
            up = gs_to_double(s->dt, bound);
            has_up = 1;
        }
        s->b_checked++;
        if (isnan(v))
            why = "not a number";
        else if (s->has_lo && v < lo) {
            why = "below the minimum";
            bound = s->lo;
        } else if (has_up && v > up)
            why = fam ? "above max(x, 0)" : "above the maximum";
        if (why == NULL)
            continue;
        struct id_text t = { .what = isnan(v) ? NULL : "", .why = why, .a = y, .b = bound };
        double score = isnan(v) ? INFINITY
                                : (double)llabs(gs_pos(s->dt, y) - gs_pos(s->dt, bound));
        if (!isnan(v) && score <= (double)slack)
            continue;
        s->b_viol++;
        add(s, GS_K_BOUND_VIOLATION, x, y, score, fmt_bound, &t);
    }
    return 0;
}
