/* fingerprint_cand.c: the values of the fingerprint's candidate formulas at the probes.
 *
 * gelu, gelu_tanh, gelu_sigmoid and scaled come from geluref (correctly rounded into the
 * dtype).  gelu_nosqrt2 and silu are not reference functions; they are evaluated here with
 * MPFR at GS_FP_PREC bits in round-to-nearest and then rounded into the dtype.  Why 128 bits
 * is ample: each takes three correctly rounded MPFR steps, so the 128-bit value is within
 * 2 ulp = 2^-126 relative of the exact one (no cancellation: x erfc(-x)/2 and x/(1+e^-x)
 * multiply and divide positive quantities, and 1 + e^-x > 1 adds two positive terms).
 * Rounding that into a dtype of at most 53 bits differs from the correctly rounded result
 * only when the exact value lies within 2^-126 relative of a midpoint between two values of
 * the dtype, and even then by one position, which moves a probe's score (log2 of the
 * distance in positions, see fingerprint.c) by at most one bit on one probe of fourteen. */
#include <math.h>
#include <stdlib.h>

#include "fingerprint_internal.h"

#define GS_FP_PREC 128 /* see above */
#define GS_FP_SQRT1_2 0x1.6a09e667f3bcdp-1 /* RN(1/sqrt2) */

static const char *const names[GS_FP_N] = { "gelu", "gelu_tanh", "gelu_sigmoid",
                                            "gelu_nosqrt2", "silu", "relu", "scaled" };

const char *gs_fp_name(enum gs_fp_cand c)
{
    return (unsigned)c < GS_FP_N ? names[c] : NULL;
}

enum gs_fp_cand gs_fp_of_func(enum geluref_func f)
{
    switch (f) {
    case GELUREF_GELU: return GS_FP_GELU;
    case GELUREF_GELU_TANH: return GS_FP_TANH;
    case GELUREF_GELU_SIGMOID: return GS_FP_SIGMOID;
    default: return GS_FP_N;
    }
}

/* gelu_nosqrt2 or silu at GS_FP_PREC bits into y; each step RN, error <= 1/2 ulp */
static void by_mpfr(enum gs_fp_cand c, mpfr_ptr y, mpfr_srcptr x)
{
    mpfr_t t;
    mpfr_init2(t, GS_FP_PREC);
    if (c == GS_FP_NOSQRT2) {
        mpfr_neg(t, x, MPFR_RNDN);        /* exact */
        mpfr_erfc(t, t, MPFR_RNDN);       /* erfc(-x), err <= 1/2 ulp */
        mpfr_mul(y, t, x, MPFR_RNDN);     /* err <= 1 ulp + 1/2 ulp */
        mpfr_div_2ui(y, y, 1, MPFR_RNDN); /* exact */
    } else {
        mpfr_neg(t, x, MPFR_RNDN);        /* exact */
        mpfr_exp(t, t, MPFR_RNDN);        /* e^-x, err <= 1/2 ulp */
        mpfr_add_ui(t, t, 1, MPFR_RNDN);  /* 1 + e^-x, err <= 1 ulp */
        mpfr_div(y, x, t, MPFR_RNDN);     /* err <= 2 ulp (1/2 + 1 relative, growing) */
    }
    mpfr_clear(t);
}

enum geluref_status gs_fp_value(enum gs_fp_cand c, enum geluref_dtype dt, uint64_t x, double s,
                                const struct geluref_config *cfg, uint64_t *bits,
                                double *approx)
{
    enum geluref_status st = GELUREF_OK;
    struct geluref_config k = cfg != NULL ? *cfg : (struct geluref_config)GELUREF_CONFIG_INIT;
    mpfr_t xm, y, sm;
    int tern;
    mpfr_inits2(GS_FP_PREC, xm, y, sm, (mpfr_ptr)0);
    geluref_bits_to_mpfr(xm, dt, x); /* exact: the dtype has at most 53 bits */
    switch (c) {
    case GS_FP_GELU:
    case GS_FP_TANH:
    case GS_FP_SIGMOID:
    case GS_FP_SCALED: {
        enum geluref_func f = c == GS_FP_GELU ? GELUREF_GELU : c == GS_FP_TANH
                              ? GELUREF_GELU_TANH : c == GS_FP_SIGMOID ? GELUREF_GELU_SIGMOID
                              : GELUREF_GELU_SCALED;
        k.scale = c == GS_FP_SCALED ? s : 1.0;
        mpfr_set_d(sm, k.scale, MPFR_RNDN); /* exact */
        st = geluref_eval(f, dt, x, MPFR_RNDN, bits, &k, NULL);
        if (st == GELUREF_OK)
            st = geluref_eval_mpfr(f, y, xm, sm, MPFR_RNDN, &k, NULL, &tern);
        break;
    }
    case GS_FP_NOSQRT2:
    case GS_FP_SILU:
        by_mpfr(c, y, xm);
        *bits = geluref_round_to_bits(dt, y, MPFR_RNDN);
        break;
    default: /* relu: exact; +0 for x <= 0 (the zero sign is not what a fingerprint judges) */
        if (mpfr_sgn(xm) > 0)
            mpfr_set(y, xm, MPFR_RNDN);
        else
            mpfr_set_zero(y, 1);
        *bits = geluref_round_to_bits(dt, y, MPFR_RNDN);
        break;
    }
    *approx = mpfr_get_d(y, MPFR_RNDN);
    mpfr_clears(xm, y, sm, (mpfr_ptr)0);
    return st;
}

/* Phi(z) = erfc(-z/sqrt2)/2, in double: erfc's relative error is a few ulp over the tail */
static double phi_cdf(double z)
{
    return 0.5 * erfc(-z * GS_FP_SQRT1_2);
}

/* z < 0 with Phi(z) = g for 0 < g < 1/2: bisection on [-40, 0] (Phi(-40) < 1e-300), 200
 * halvings, far more than the 64 that exhaust a double interval */
static double phi_inverse(double g)
{
    double lo = -40.0, hi = 0.0;
    for (int i = 0; i < 200; i++) {
        double mid = 0.5 * (lo + hi);
        if (mid == lo || mid == hi)
            break;
        if (phi_cdf(mid) < g)
            lo = mid;
        else
            hi = mid;
    }
    return 0.5 * (lo + hi);
}

static int cmp_double(const void *a, const void *b)
{
    double u = *(const double *)a, v = *(const double *)b;
    return (u > v) - (u < v);
}

double gs_fp_scale(const double *x, const double *y, size_t n)
{
    double s[32];
    size_t k = 0;
    for (size_t i = 0; i < n && k < sizeof s / sizeof s[0]; i++) {
        double g = y[i] / x[i]; /* the gate: y = x g(x) */
        if (!(x[i] < 0.0) || !(g > 0.0 && g < 0.5))
            continue;
        double z = phi_inverse(g);
        if (z < 0.0)
            s[k++] = x[i] / z;
    }
    if (k == 0)
        return NAN;
    qsort(s, k, sizeof s[0], cmp_double);
    return k % 2 ? s[k / 2] : 0.5 * (s[k / 2 - 1] + s[k / 2]);
}
