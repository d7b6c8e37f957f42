/* oracle_eval: special inputs by the table of docs/design.md section 2, then a loop that encloses
 * f(x) (oracle_enclose.c) and rounds both ends (oracle_dtype.c) until they agree. */
#include <stdint.h>
#include "oracle_internal.h"

#include <math.h>
#include <stdbool.h>

static bool valid_rnd(mpfr_rnd_t rnd)
{
    return rnd == MPFR_RNDN || rnd == MPFR_RNDZ || rnd == MPFR_RNDU || rnd == MPFR_RNDD;
}

static bool gelu_family(enum geluref_func f)
{
    return f == GELUREF_GELU || f == GELUREF_GELU_TANH || f == GELUREF_GELU_SIGMOID ||
           f == GELUREF_GELU_SCALED;
}

/* f at x = +-inf (the limits of docs/design.md section 2; gelu_grad2 -> -0 on both sides). */
static double at_inf(enum geluref_func f, bool pos)
{
    switch (f) {
    case GELUREF_GELU_GRAD:
    case GELUREF_GELU_TANH_GRAD: return pos ? 1.0 : -0.0;
    case GELUREF_NORMCDF: return pos ? 1.0 : 0.0;
    case GELUREF_NORMPDF: return 0.0;
    case GELUREF_ERF: return pos ? 1.0 : -1.0;
    case GELUREF_ERFC: return pos ? 0.0 : 2.0;
    case GELUREF_GELU_GRAD2: return -0.0;
    default: return pos ? INFINITY : -0.0; /* the gelu family */
    }
}

/* The exact value of f at a special x (+-inf, +-0) as a double (every one is exactly
 * representable in all four dtypes); false when x is not special or f(x) is irrational
 * (normpdf(0) = 1/sqrt(2 pi), gelu_grad2(0) = 2/sqrt(2 pi): left to the general path). */
static bool special_value(enum geluref_func f, mpfr_srcptr x, double *y)
{
    if (mpfr_inf_p(x)) {
        *y = at_inf(f, mpfr_sgn(x) > 0);
        return true;
    }
    if (!mpfr_zero_p(x))
        return false;
    if (gelu_family(f) || f == GELUREF_ERF) {
        *y = mpfr_signbit(x) ? -0.0 : 0.0; /* odd through 0: +-0 -> +-0 */
        return true;
    }
    if (f == GELUREF_ERFC) {
        *y = 1.0;
        return true;
    }
    if (f == GELUREF_NORMCDF || f == GELUREF_GELU_GRAD || f == GELUREF_GELU_TANH_GRAD) {
        *y = 0.5;
        return true;
    }
    return false;
}

static mpfr_prec_t level_prec(mpfr_prec_t wp0, int level)
{
    mpfr_prec_t wp = wp0 << level;
    return wp < ORACLE_PREC_MAX ? wp : ORACLE_PREC_MAX;
}

/* The body of oracle_eval, run in MPFR's widest exponent range. */
static int decide(enum geluref_func f, enum geluref_dtype dt, uint64_t xbits, mpfr_rnd_t rnd,
                  double scale, uint64_t *ybits, mpfr_prec_t *prec_used)
{
    MPFR_DECL_INIT(x, 64); /* >= 53: every dtype value is exact */
    oracle_decode(x, dt, xbits);
    if (mpfr_nan_p(x)) {
        *ybits = oracle_qnan(dt);
        return ORACLE_OK;
    }
    double sv;
    if (special_value(f, x, &sv)) {
        mpfr_set_d(x, sv, MPFR_RNDN); /* exact */
        *ybits = oracle_round(dt, x, 0, rnd); /* exact in dt: rnd plays no part */
        return ORACLE_OK;
    }
    mpfr_prec_t wp0 = 2 * (mpfr_prec_t)oracle_dtype_info(dt)->prec + 128;
    for (int level = 0; level < ORACLE_LEVELS; level++) {
        mpfr_prec_t wp = level_prec(wp0, level);
        *prec_used = wp;
        const struct iv *e = oracle_enclose(f, dt, level, wp, x, scale);
        if (e == NULL)
            return ORACLE_E_ENCLOSURE;
        /* lo < f(x) < hi strictly (f(x) is transcendental, the ends are dyadic) */
        uint64_t lo = oracle_round(dt, e->lo, +1, rnd); /* round lo + infinitesimal */
        uint64_t hi = oracle_round(dt, e->hi, -1, rnd); /* round hi - infinitesimal */
        if (lo == hi) {
            *ybits = lo;
            return ORACLE_OK;
        }
        if (wp == ORACLE_PREC_MAX)
            break;
    }
    return ORACLE_E_UNDECIDED;
}

int oracle_eval(enum geluref_func f, enum geluref_dtype dt, uint64_t xbits, mpfr_rnd_t rnd,
                double scale, uint64_t *ybits, mpfr_prec_t *prec_used)
{
    const struct geluref_dtype_info *d = oracle_dtype_info(dt);
    if (d == NULL || f < GELUREF_FUNC_FIRST || f > GELUREF_FUNC_LAST || !valid_rnd(rnd))
        return ORACLE_E_INVALID;
    if (d->bits < 64 && (xbits >> d->bits) != 0)
        return ORACLE_E_INVALID;
    if (f == GELUREF_GELU_SCALED && !(isfinite(scale) && scale > 0))
        return ORACLE_E_INVALID;
    mpfr_prec_t used = 0;
    mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
    mpfr_flags_t flags = mpfr_flags_save();
    mpfr_set_emin(mpfr_get_emin_min());
    mpfr_set_emax(mpfr_get_emax_max());
    int st = decide(f, dt, xbits, rnd, scale, ybits, &used);
    mpfr_set_emin(emin);
    mpfr_set_emax(emax);
    mpfr_flags_restore(flags, MPFR_FLAGS_ALL);
    if (prec_used != NULL)
        *prec_used = used;
    return st;
}

void oracle_thread_release(void)
{
    oracle_enclose_release();
}
