/* measure.c: one reference evaluation per input, and the measurement of an output against it
 * (DESIGN.md section 4).
 *
 * Why one evaluation gives RN, RD and RU.  Let P = p + 16 (p: the dtype's precision with the
 * implicit bit).  v = RZ_P(f(x)) in MPFR's widest exponent range, with the last significand
 * bit forced to 1 when the ternary value says f(x) != v: this is f(x) rounded to odd at P bits.
 * Rounding to odd at P >= q + 2 bits and then rounding to q bits in any of RN, RD, RU, RZ gives
 * the same result as rounding f(x) once (S. Boldo, G. Melquiond, "Emulation of FMA and
 * correctly rounded sums: proved algorithms using rounding to odd", IEEE Trans. Computers 57(4),
 * 2008, theorem 1).  A normal result has q = p <= P - 16 bits; a subnormal result has fewer,
 * so at least as many extra bits; the widest exponent range keeps v normalised at P bits
 * whatever the dtype's range (geluref_round_to_bits then applies the dtype's range and
 * subnormals in one rounding, MPFR's mpfr_subnormalize recipe).  RZ never leaves the binade
 * of f(x) and setting a zero last bit adds no carry, so v has f(x)'s exponent: ulp(f(x)) is
 * ulp(v), and |v - f(x)| < 2^(1-P) |v| = 2^-(p+15) |v|.  tests/suites/test_core_measure.c
 * cross-checks rn/rd/ru against geluref_eval() on every f16/bf16 input and random f32/f64. */
#include <math.h>
#include <stdlib.h>

#include "measure_hp.h"

#define EXTRA_BITS 16   /* P = p + 16 (suites.h, struct gs_refval) */
#define MAX_P 53        /* binary64 */
#define DIFF_PREC 256   /* |y - v| and ratios: relative error <= 2^-256 each (RNDN), far below
                           the 2^-53 of the final conversion to double and the 2^-(p+15) of v */

struct gs_ref {
    struct geluref_config cfg;
    struct geluref_stats stats;
    mpfr_t x, s, v, y, d, q; /* input, scale, the rounded-to-odd value, an output, a
                                difference, a ratio */
};

struct gs_ref *gs_ref_new(const struct geluref_config *cfg)
{
    struct gs_ref *r = calloc(1, sizeof *r);
    if (r == NULL)
        return NULL;
    if (cfg != NULL)
        r->cfg = *cfg;
    else
        geluref_config_init(&r->cfg);
    mpfr_init2(r->x, MAX_P);
    mpfr_init2(r->s, 53);
    mpfr_init2(r->v, MAX_P + EXTRA_BITS);
    mpfr_init2(r->y, MAX_P);
    mpfr_init2(r->d, DIFF_PREC);
    mpfr_init2(r->q, DIFF_PREC);
    mpfr_set_d(r->s, r->cfg.scale, MPFR_RNDN); /* a double: exact at 53 bits */
    return r;
}

void gs_ref_free(struct gs_ref *r)
{
    if (r == NULL)
        return;
    mpfr_clears(r->x, r->s, r->v, r->y, r->d, r->q, (mpfr_ptr)0);
    free(r);
}

const struct geluref_stats *gs_ref_stats(const struct gs_ref *r) { return &r->stats; }

/* MPFR's widest exponent range for the duration of a call; the caller's range and flags are
 * restored afterwards. */
struct range {
    mpfr_exp_t emin, emax;
    mpfr_flags_t flags;
};
static void range_open(struct range *g)
{
    g->emin = mpfr_get_emin();
    g->emax = mpfr_get_emax();
    g->flags = mpfr_flags_save();
    mpfr_set_emin(mpfr_get_emin_min());
    mpfr_set_emax(mpfr_get_emax_max());
}
static void range_close(const struct range *g)
{
    mpfr_set_emin(g->emin);
    mpfr_set_emax(g->emax);
    mpfr_flags_restore(g->flags, MPFR_FLAGS_ALL);
}

static uint64_t width_mask(enum geluref_dtype dt)
{
    return dt == GELUREF_F64 ? ~(uint64_t)0 : dt == GELUREF_F32 ? 0xffffffffu : 0xffffu;
}

/* The deep tails (gelu, gelu_grad, normcdf, normpdf for |x| > about 2.5e9; gelu_tanh and its
 * grad beyond about 3.6e6; gelu_sigmoid beyond about 1.9e18): f(x) is a non-zero number below
 * MPFR's whole exponent range (e^(-x^2/2) < 2^-(2^62)), which the MPFR layer cannot hold and
 * reports as the precision cap, while geluref_eval() decides it in the dtype's range by its
 * tail rule.  When RD and RU are then 0 and the smallest subnormal of one sign, v becomes the
 * smallest MPFR number of that sign, 2^(emin_min - 1): it rounds like f(x) in every mode and
 * its distance to f(x) (< 2^(emin_min - 1)) changes no ulp or absolute error by anything a
 * double can show.  The failed call's counters are dropped (it is not a cap hit); returns 0
 * when this applies. */
static int below_mpfr(struct gs_ref *r, enum geluref_func f, enum geluref_dtype dt, uint64_t x,
                      const struct geluref_stats *saved, struct gs_refval *out)
{
    uint64_t rn, rd, ru;
    r->stats = *saved;
    if (geluref_eval(f, dt, x, MPFR_RNDD, &rd, &r->cfg, &r->stats) != GELUREF_OK
        || geluref_eval(f, dt, x, MPFR_RNDU, &ru, &r->cfg, &r->stats) != GELUREF_OK
        || geluref_eval(f, dt, x, MPFR_RNDN, &rn, &r->cfg, &r->stats) != GELUREF_OK)
        return -1;
    int pos = gs_is_zero(dt, rd) && gs_pos(dt, ru) == 1;
    int neg = gs_is_zero(dt, ru) && gs_pos(dt, rd) == -1;
    if (!pos && !neg)
        return -1;
    mpfr_set_ui_2exp(r->v, 1, mpfr_get_emin() - 1, MPFR_RNDN); /* exact: the widest range */
    if (neg)
        mpfr_neg(r->v, r->v, MPFR_RNDN);
    out->rn = rn;
    out->rd = rd;
    out->ru = ru;
    out->exact = 0;
    return 0;
}

/* r->v = f(x) rounded to odd at p + 16 bits; out filled.  Within an open range. */
static enum geluref_status eval_v(struct gs_ref *r, enum geluref_func f, enum geluref_dtype dt,
                                  uint64_t x, struct gs_refval *out)
{
    const struct geluref_dtype_info *d = geluref_dtype_info(dt);
    out->x = x;
    out->nan = 0;
    if (d == NULL)
        return GELUREF_E_INVALID;
    if (gs_is_nan(dt, x)) {
        /* the dtype's default quiet NaN, as the reference gives it (NaN in, NaN out) */
        uint64_t q = 0;
        enum geluref_status st = geluref_eval(f, dt, x, MPFR_RNDN, &q, &r->cfg, &r->stats);
        out->rn = out->rd = out->ru = q;
        out->exact = 1; /* rn == rd == ru */
        out->nan = 1;
        mpfr_set_nan(r->v);
        return st;
    }
    mpfr_prec_t prec = d->prec + EXTRA_BITS;
    mpfr_set_prec(r->x, d->prec);
    mpfr_set_prec(r->v, prec);
    geluref_bits_to_mpfr(r->x, dt, x); /* exact */
    int t = 0;
    struct geluref_stats saved = r->stats;
    enum geluref_status st = geluref_eval_mpfr(f, r->v, r->x, r->s, MPFR_RNDZ, &r->cfg,
                                               &r->stats, &t);
    if (st == GELUREF_E_PREC_CAP && below_mpfr(r, f, dt, x, &saved, out) == 0)
        return GELUREF_OK;
    if (st != GELUREF_OK) {
        out->rn = out->rd = out->ru = x;
        out->exact = 0;
        return st;
    }
    /* round to odd: inexact and the last bit 0 (fewer than prec bits needed) -> the next value
     * away from zero, which has the last bit 1 and the same exponent (a zero from RZ, only
     * below MPFR's whole range, becomes the smallest number of its sign) */
    if (t != 0 && mpfr_min_prec(r->v) < prec) {
        if (mpfr_signbit(r->v))
            mpfr_nextbelow(r->v);
        else
            mpfr_nextabove(r->v);
    }
    out->rn = geluref_round_to_bits(dt, r->v, MPFR_RNDN);
    out->rd = geluref_round_to_bits(dt, r->v, MPFR_RNDD);
    out->ru = geluref_round_to_bits(dt, r->v, MPFR_RNDU);
    out->exact = out->rd == out->ru;
    return GELUREF_OK;
}

enum geluref_status gs_ref_eval(struct gs_ref *r, enum geluref_func f, enum geluref_dtype dt,
                                uint64_t x, struct gs_refval *out)
{
    struct range g;
    range_open(&g);
    enum geluref_status st = eval_v(r, f, dt, x & width_mask(dt), out);
    range_close(&g);
    return st;
}

static int want_class(enum geluref_dtype dt, uint64_t w)
{
    if (gs_is_nan(dt, w))
        return GS_WANT_NAN;
    if (gs_is_inf(dt, w))
        return GS_WANT_INF;
    if (gs_is_zero(dt, w))
        return GS_WANT_ZERO;
    return gs_is_subnormal(dt, w) ? GS_WANT_SUBNORMAL : GS_WANT_NORMAL;
}

/* ulp, abs_err and rel_err of a finite y against a finite v (DESIGN.md section 4):
 * ulp(v) = 2^(max(e, emin) - p + 1), |v| in [2^e, 2^(e+1)), ulp(0) = the smallest subnormal.
 * MPFR's exponent E has |v| in [2^(E-1), 2^E), so e = E - 1.  Within an open range. */
static void errors(struct gs_ref *r, const struct geluref_dtype_info *d, uint64_t ybits,
                   enum geluref_dtype dt, struct gs_meas *m)
{
    mpfr_set_prec(r->y, d->prec);
    geluref_bits_to_mpfr(r->y, dt, ybits);
    mpfr_sub(r->d, r->y, r->v, MPFR_RNDN); /* rel. err <= 2^-256 */
    mpfr_abs(r->d, r->d, MPFR_RNDN);        /* exact */
    m->abs_err = mpfr_get_d(r->d, MPFR_RNDN);
    if (mpfr_zero_p(r->v))
        m->rel_err = mpfr_zero_p(r->d) ? 0.0 : INFINITY;
    else {
        mpfr_div(r->q, r->d, r->v, MPFR_RNDN); /* rel. err <= 2^-256 */
        mpfr_abs(r->q, r->q, MPFR_RNDN);
        m->rel_err = mpfr_get_d(r->q, MPFR_RNDN);
    }
    long e = mpfr_zero_p(r->v) ? (long)d->emin : (long)mpfr_get_exp(r->v) - 1;
    if (e < d->emin)
        e = d->emin;
    mpfr_mul_2si(r->d, r->d, -(e - d->prec + 1), MPFR_RNDN); /* a power of 2: exact */
    m->ulp = mpfr_get_d(r->d, MPFR_RNDN);
}

/* The primary kind (DESIGN.md section 4 order).  f(x)'s sign is v's (the sign of a zero
 * f(x) included); NaN outputs where f(x) is NaN and equal infinities are correctly rounded. */
static enum gs_kind defect(enum geluref_dtype dt, const struct gs_meas *m, int f_nan,
                           int f_inf, int f_sign)
{
    uint64_t y = m->got, w = m->want;
    if (m->cr)
        return GS_K_NONE;
    if (gs_is_nan(dt, y))
        return GS_K_NAN_OUTPUT;           /* f(x) is not NaN (else cr) */
    if (gs_is_inf(dt, y) && !f_nan && !f_inf)
        return GS_K_INF_OUTPUT;           /* inf where f(x) is finite */
    if (!f_nan && !gs_is_zero(dt, y) && gs_sign(dt, y) != f_sign)
        return GS_K_WRONG_SIGN;           /* also -inf for +inf, and any sign vs a zero f(x) */
    if (gs_is_zero(dt, y) && m->want_class == GS_WANT_NORMAL)
        return GS_K_PREMATURE_FLUSH;
    /* a zero for a subnormal result is a flush (ftz) unless zero is a faithful rounding of
     * f(x) (|f(x)| below the smallest subnormal, RN rounding it up): that is an ordinary
     * rounding error of at most one ulp, judged by the accuracy keys like any other (glibc's
     * erfcf(10.0541935) = 0 for 0.5 ulp must not read as a flush to zero) */
    if (gs_is_zero(dt, y) && m->want_class == GS_WANT_SUBNORMAL && !m->faithful)
        return GS_K_FTZ;
    if (gs_is_zero(dt, y) && gs_is_zero(dt, w))
        return GS_K_SIGNED_ZERO;          /* both zero, not equal: the signs differ */
    return GS_K_ULP_EXCEEDED;
}

enum geluref_status gs_measure(struct gs_ref *r, enum geluref_func f, enum geluref_dtype dt,
                               uint64_t x, uint64_t y, struct gs_meas *m)
{
    const struct geluref_dtype_info *d = geluref_dtype_info(dt);
    struct gs_refval rv;
    struct range g;
    if (d == NULL)
        return GELUREF_E_INVALID;
    y &= width_mask(dt);
    range_open(&g);
    enum geluref_status st = eval_v(r, f, dt, x & width_mask(dt), &rv);
    if (st != GELUREF_OK) {
        range_close(&g);
        return st;
    }
    int y_nan = gs_is_nan(dt, y), y_inf = gs_is_inf(dt, y);
    int f_nan = rv.nan, f_inf = !f_nan && mpfr_inf_p(r->v);
    int f_sign = !f_nan && mpfr_signbit(r->v);
    m->x = rv.x;
    m->got = y;
    m->want = rv.rn;
    m->want_class = want_class(dt, rv.rn);
    m->cr = y == rv.rn || (y_nan && f_nan);
    m->exact = rv.exact;
    if (y_nan || f_nan) {
        m->faithful = y_nan && f_nan;
        m->cr_distance = -1;
    } else {
        int64_t py = gs_pos(dt, y);
        m->faithful = py == gs_pos(dt, rv.rd) || py == gs_pos(dt, rv.ru);
        int64_t dd = py - gs_pos(dt, rv.rn); /* positions fit in 63 bits: no overflow */
        m->cr_distance = dd < 0 ? -dd : dd;
    }
    if (y_nan || f_nan || y_inf || f_inf) {
        /* 0 for the same non-finite value (both NaN, the same infinity), else +inf */
        int same = (y_nan && f_nan) || (y_inf && f_inf && gs_sign(dt, y) == f_sign);
        m->ulp = m->abs_err = m->rel_err = same ? 0.0 : INFINITY;
    } else {
        errors(r, d, y, dt, m);
    }
    m->defect = defect(dt, m, f_nan, f_inf, f_sign);
    range_close(&g);
    return GELUREF_OK;
}

enum geluref_status gs_ref_eval_hp(struct gs_ref *r, enum geluref_func f,
                                   enum geluref_dtype dt, uint64_t x, mpfr_ptr out)
{
    const struct geluref_dtype_info *d = geluref_dtype_info(dt);
    struct range g;
    int t;
    if (d == NULL)
        return GELUREF_E_INVALID;
    range_open(&g);
    mpfr_set_prec(r->x, d->prec);
    geluref_bits_to_mpfr(r->x, dt, x & width_mask(dt)); /* exact */
    enum geluref_status st = geluref_eval_mpfr(f, out, r->x, r->s, MPFR_RNDN, &r->cfg,
                                               &r->stats, &t);
    range_close(&g);
    return st;
}
