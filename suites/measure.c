/* measure.c: one reference evaluation per input, and the measurement of an output against it
 * (docs/design.md section 4).
 *
 * The reference value is geluref_eval_odd()'s: f(x) rounded to odd at P = p + 16 bits in
 * MPFR's widest exponent range, which rounds into the dtype in every mode like f(x) itself
 * (Boldo and Melquiond, 2008) and lies within 2^-(p+15) of f(x) relatively; by the fast path
 * (reference/src/fast*.c) or, with --reference mpfr or where the fast path's bound cannot
 * decide, by MPFR.  Both give the same bits (tests/reference/test_fast.c), so every number
 * measured here is the same whichever path produced it.
 *
 * The errors are computed in double arithmetic from that value V = C 2^Q (C of P <= 69 bits,
 * held exactly as a double-double ch + cl): y and V scaled by the same power of two (exact
 * away from the double range's ends), the difference by two_sum and one more addition, so
 * each error is within 2 ulps of the double nearest to the error against V, itself within
 * 2^-(p+15) of the error against f(x) (docs/design.md asks for p + 12 bits).  Values below
 * 2^(emin - p + 1 - 1076) (GELUREF_ODD_TINY) count as signed zeros of no size: every error
 * against them rounds to the same double as against f(x) (geluref.h).
 * tests/suites/test_core_measure.c cross-checks rn/rd/ru against geluref_eval() on every
 * f16/bf16 input and random f32/f64, and the errors against an MPFR computation. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "measure_hp.h"

#define MAX_P 53        /* binary64 */

__extension__ typedef unsigned __int128 gs_u128;
__extension__ typedef __int128 gs_i128;

struct gs_ref {
    struct geluref_config cfg;
    struct geluref_stats stats;
    enum geluref_path path;
    struct geluref_odd odd; /* the last evaluation's value */
    uint64_t run_inputs;    /* gs_ref_add_run_inputs */
    uint64_t fused;         /* gs_ref_add_fused */
    mpfr_t x, s;            /* input and scale, for gs_ref_eval_hp */
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
    r->path = GELUREF_PATH_FAST;
    mpfr_init2(r->x, MAX_P);
    mpfr_init2(r->s, 53);
    mpfr_set_d(r->s, r->cfg.scale, MPFR_RNDN); /* a double: exact at 53 bits */
    return r;
}

void gs_ref_use_mpfr(struct gs_ref *r, int on) { r->path = on ? GELUREF_PATH_MPFR : GELUREF_PATH_FAST; }

void gs_ref_free(struct gs_ref *r)
{
    if (r == NULL)
        return;
    mpfr_clears(r->x, r->s, (mpfr_ptr)0);
    free(r);
}

const struct geluref_stats *gs_ref_stats(const struct gs_ref *r) { return &r->stats; }

static uint64_t width_mask(enum geluref_dtype dt)
{
    return dt == GELUREF_F64 ? ~(uint64_t)0 : dt == GELUREF_F32 ? 0xffffffffu : 0xffffu;
}

/* r->odd = f(x); out filled. */
static enum geluref_status eval_v(struct gs_ref *r, enum geluref_func f, enum geluref_dtype dt,
                                  uint64_t x, struct gs_refval *out)
{
    out->x = x;
    out->nan = 0;
    enum geluref_status st = geluref_eval_odd(f, dt, x, r->path, &r->cfg, &r->stats, &r->odd);
    if (st != GELUREF_OK) {
        out->rn = out->rd = out->ru = x;
        out->exact = 0;
        return st;
    }
    out->rn = r->odd.rn;
    out->rd = r->odd.rd;
    out->ru = r->odd.ru;
    out->nan = r->odd.kind == GELUREF_ODD_NAN;
    out->exact = out->rd == out->ru;
    return GELUREF_OK;
}

enum geluref_status gs_ref_eval(struct gs_ref *r, enum geluref_func f, enum geluref_dtype dt,
                                uint64_t x, struct gs_refval *out)
{
    return eval_v(r, f, dt, x & width_mask(dt), out);
}

/* (suites.h gs_pow2_scale) */
static inline double pow2_scale(double x, int64_t k) { return gs_pow2_scale(x, k); }

/* |y 2^-k - V 2^-k| for V = (ch + cl) 2^q (see the header), in double. */
static inline double scaled_diff(double y, double ch, double cl, int64_t q, int64_t k)
{
    double ys = pow2_scale(y, -k);
    double a = pow2_scale(ch, q - k);
    /* cl = 0 (p + 16 <= 53: every dtype but binary64): with b = 0 below, t is the exact
     * error of s = RN(ys - a), so s + t = ys - a exactly and RN(s + t) = s: the result is
     * |s|, computed here without the two_sum */
    if (cl == 0)
        return fabs(ys - a);
    double b = pow2_scale(cl, q - k);
    double s = ys - a;               /* two_sum(ys, -a) */
    double bb = s - ys;
    double t = (ys - (s - bb)) + (-a - bb);
    return fabs(s + (t - b));
}

/* ulp, abs_err and rel_err of a finite y against a finite f(x) (docs/design.md section 4):
 * ulp(v) = 2^(max(e, emin) - p + 1), |v| in [2^e, 2^(e+1)), ulp(0) = the smallest subnormal. */
static inline void errors(const struct geluref_odd *o, const struct geluref_dtype_info *d, double y,
                   struct gs_meas *m)
{
    int64_t ulp0 = (int64_t)d->emin - d->prec + 1;
    if (o->kind != GELUREF_ODD_FINITE) { /* an exact zero, or TINY */
        m->abs_err = fabs(y);
        m->ulp = pow2_scale(fabs(y), -ulp0);
        m->rel_err = y == 0 ? (o->kind == GELUREF_ODD_ZERO ? 0.0 : 1.0) : INFINITY;
        return;
    }
    double ch, cl;
    if (o->sig_hi == 0 && o->sig_lo < (uint64_t)1 << 53) { /* p + 16 <= 53: exact */
        ch = (double)o->sig_lo;
        cl = 0;
    } else {
        gs_u128 c = ((gs_u128)o->sig_hi << 64) | o->sig_lo;
        ch = (double)c;
        cl = (double)((gs_i128)c - (gs_i128)ch);
    }
    if (o->neg) {
        ch = -ch;
        cl = -cl;
    }
    int64_t e = o->exp + o->prec - 1; /* |V| in [2^e, 2^(e+1)) */
    int64_t k = (e > d->emin ? e : d->emin) - d->prec + 1;
    m->ulp = scaled_diff(y, ch, cl, o->exp, k);
    if (m->ulp >= 0x1p-900 && m->ulp <= 0x1p900 && k >= -900 && k <= 900
        && o->exp - k >= -900) {
        /* the same difference scaled back: exact, or one rounding into the subnormals */
        m->abs_err = pow2_scale(m->ulp, k);
        m->rel_err = m->ulp / fabs(pow2_scale(ch, o->exp - k));
    } else {
        m->abs_err = scaled_diff(y, ch, cl, o->exp, 0);
        m->rel_err = scaled_diff(y, ch, cl, o->exp, o->exp) / fabs(ch);
    }
}

/* The primary kind (docs/design.md section 4 order).  f(x)'s sign is v's (the sign of a zero
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

/* The bit layout of a dtype, for the inline tests below (the same answers as bits.c's). */
struct lay {
    uint64_t width, sign, exp_mask; /* storage bits, sign bit, exponent field in place */
};

static struct lay lay_of(const struct geluref_dtype_info *d)
{
    struct lay l;
    l.width = d->bits == 64 ? ~(uint64_t)0 : ((uint64_t)1 << d->bits) - 1;
    l.sign = (uint64_t)1 << (d->bits - 1);
    l.exp_mask = (((uint64_t)1 << d->exp_bits) - 1) << (d->prec - 1);
    return l;
}

/* Magnitudes above the exponent field's pattern are NaN, equal to it infinite. */
static inline uint64_t mag_of(const struct lay *l, uint64_t b) { return b & (l->sign - 1); }
static inline int64_t pos_of(const struct lay *l, uint64_t b)
{
    int64_t m = (int64_t)mag_of(l, b);
    return (b & l->sign) ? -m : m;
}

static inline int class_of(const struct lay *l, uint64_t w)
{
    uint64_t m = mag_of(l, w);
    if (m > l->exp_mask)
        return GS_WANT_NAN;
    if (m == l->exp_mask)
        return GS_WANT_INF;
    if (m == 0)
        return GS_WANT_ZERO;
    return (m & l->exp_mask) == 0 ? GS_WANT_SUBNORMAL : GS_WANT_NORMAL;
}

static inline double value_of(enum geluref_dtype dt, uint64_t y)
{
    if (dt == GELUREF_F32) { /* gs_to_double's case, inline */
        uint32_t u = (uint32_t)y;
        float v;
        memcpy(&v, &u, sizeof v);
        return (double)v;
    }
    return gs_to_double(dt, y);
}

/* measure_odd for a correctly rounded finite output of a dtype whose p + 16 bits fit a double
 * (every dtype but binary64): y = RN(f(x)), f(x) finite and RN(f(x)) not infinite.  Then y is
 * RD(f) or RU(f) (round_into gives RN as one of them), so faithful, cr_distance 0 and no
 * defect; the errors as measure_odd computes them.  The same fields measure_odd sets
 * (tests/suites/test_ulp_measure_n.c compares them). */
static inline void measure_cr_narrow(const struct geluref_odd *o,
                                     const struct geluref_dtype_info *d, const struct lay *l,
                                     enum geluref_dtype dt, uint64_t x, uint64_t y,
                                     struct gs_meas *m)
{
    m->x = x;
    m->got = y;
    m->want = y;
    m->want_class = class_of(l, y);
    m->cr = 1;
    m->exact = o->rd == o->ru;
    m->faithful = 1;
    m->cr_distance = 0;
    errors(o, d, value_of(dt, y), m);
    m->defect = GS_K_NONE;
}

/* The measurement of output y (masked) for input x (masked) against f(x) = o. */
static inline void measure_odd(const struct geluref_odd *o, const struct geluref_dtype_info *d,
                               const struct lay *l, enum geluref_dtype dt, uint64_t x,
                               uint64_t y, struct gs_meas *m)
{
    uint64_t ymag = mag_of(l, y);
    int y_nan = ymag > l->exp_mask, y_inf = ymag == l->exp_mask;
    int f_nan = o->kind == GELUREF_ODD_NAN, f_inf = !f_nan && o->kind == GELUREF_ODD_INF;
    int f_sign = !f_nan && o->neg;
    m->x = x;
    m->got = y;
    m->want = o->rn;
    m->want_class = class_of(l, o->rn);
    m->cr = y == o->rn || (y_nan && f_nan);
    m->exact = o->rd == o->ru;
    if (y_nan || f_nan) {
        m->faithful = y_nan && f_nan;
        m->cr_distance = -1;
    } else {
        int64_t py = pos_of(l, y);
        m->faithful = py == pos_of(l, o->rd) || py == pos_of(l, o->ru);
        /* |py - pr| in unsigned arithmetic: binary64 positions of opposite signs are up to
         * 2^64 - 2^53 apart, which int64_t cannot hold (clamped to INT64_MAX, "> 256") */
        int64_t pr = pos_of(l, o->rn);
        uint64_t dd = py >= pr ? (uint64_t)py - (uint64_t)pr : (uint64_t)pr - (uint64_t)py;
        m->cr_distance = dd > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)dd;
    }
    if (y_nan || f_nan || y_inf || f_inf) {
        /* 0 for the same non-finite value (both NaN, the same infinity), else +inf */
        int same = (y_nan && f_nan) || (y_inf && f_inf && ((y & l->sign) != 0) == f_sign);
        m->ulp = m->abs_err = m->rel_err = same ? 0.0 : INFINITY;
    } else {
        errors(o, d, value_of(dt, y), m);
    }
    m->defect = defect(dt, m, f_nan, f_inf, f_sign);
}

enum geluref_status gs_measure(struct gs_ref *r, enum geluref_func f, enum geluref_dtype dt,
                               uint64_t x, uint64_t y, struct gs_meas *m)
{
    return gs_measure_run(r, f, dt, x, y, m, NULL);
}

enum geluref_status gs_measure_run(struct gs_ref *r, enum geluref_func f, enum geluref_dtype dt,
                                   uint64_t x, uint64_t y, struct gs_meas *m,
                                   struct geluref_odd_run *run)
{
    const struct geluref_dtype_info *d = geluref_dtype_info(dt);
    if (d == NULL)
        return GELUREF_E_INVALID;
    struct lay l = lay_of(d);
    x &= l.width;
    enum geluref_status st =
        geluref_eval_odd_run(f, dt, x, r->path, &r->cfg, &r->stats, &r->odd, run);
    if (st != GELUREF_OK)
        return st;
    measure_odd(&r->odd, d, &l, dt, x, y & l.width, m);
    return GELUREF_OK;
}

void gs_ref_add_run_inputs(struct gs_ref *r, uint64_t n) { r->run_inputs += n; }
void gs_ref_add_fused(struct gs_ref *r, uint64_t n) { r->fused += n; }
uint64_t gs_ref_fused(const struct gs_ref *r) { return r->fused; }
int gs_ref_is_fast(const struct gs_ref *r) { return r->path == GELUREF_PATH_FAST; }
uint64_t gs_ref_run_inputs(const struct gs_ref *r) { return r->run_inputs; }

/* Reference values per geluref_eval_odd_n call: small enough to stay in the L1 cache. */
#define MEASURE_BLOCK 128

/* Whether two reference values are the same in every field measure_odd reads. */
static inline int same_odd(const struct geluref_odd *a, const struct geluref_odd *b)
{
    return a->kind == b->kind && a->neg == b->neg && a->sig_hi == b->sig_hi &&
           a->sig_lo == b->sig_lo && a->exp == b->exp && a->prec == b->prec &&
           a->exact == b->exact && a->rn == b->rn && a->rd == b->rd && a->ru == b->ru;
}

enum geluref_status gs_measure_n(struct gs_ref *r, enum geluref_func f, enum geluref_dtype dt,
                                 const uint64_t *x, const uint64_t *y, size_t n,
                                 struct gs_meas *m, unsigned char *rep, size_t *failed)
{
    const struct geluref_dtype_info *d = geluref_dtype_info(dt);
    if (d == NULL) {
        *failed = 0;
        return GELUREF_E_INVALID;
    }
    struct lay l = lay_of(d);
    int narrow = d->prec + 16 <= 53; /* the p + 16-bit values fit a double (errors()) */
    struct geluref_odd o[MEASURE_BLOCK];
    uint64_t xb[MEASURE_BLOCK];
    for (size_t i = 0; i < n; i += MEASURE_BLOCK) {
        size_t k = n - i < MEASURE_BLOCK ? n - i : MEASURE_BLOCK, bad = 0;
        for (size_t j = 0; j < k; j++)
            xb[j] = x[i + j] & l.width;
        enum geluref_status st =
            geluref_eval_odd_n(f, dt, xb, k, r->path, &r->cfg, &r->stats, o, &bad);
        for (size_t j = 0; j < (st == GELUREF_OK ? k : bad); j++) {
            uint64_t yj = y[i + j] & l.width;
            /* measure_odd reads x only into m->x: the same value and output measure the
             * same */
            int same = i + j > 0 && yj == m[i + j - 1].got &&
                       same_odd(&o[j], j > 0 ? &o[j - 1] : &r->odd);
            if (same) {
                m[i + j] = m[i + j - 1];
                m[i + j].x = xb[j];
            } else if (narrow && o[j].kind == GELUREF_ODD_FINITE && yj == o[j].rn &&
                       mag_of(&l, yj) < l.exp_mask) {
                measure_cr_narrow(&o[j], d, &l, dt, xb[j], yj, &m[i + j]);
            } else {
                measure_odd(&o[j], d, &l, dt, xb[j], yj, &m[i + j]);
            }
            if (rep)
                rep[i + j] = (unsigned char)same;
        }
        if (st != GELUREF_OK) {
            *failed = i + bad;
            return st;
        }
        r->odd = o[k - 1]; /* the last evaluation's value, as gs_measure leaves it */
    }
    return GELUREF_OK;
}

enum geluref_status gs_ref_eval_hp(struct gs_ref *r, enum geluref_func f,
                                   enum geluref_dtype dt, uint64_t x, mpfr_ptr out)
{
    const struct geluref_dtype_info *d = geluref_dtype_info(dt);
    int t;
    if (d == NULL)
        return GELUREF_E_INVALID;
    mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
    mpfr_flags_t flags = mpfr_flags_save();
    mpfr_set_emin(mpfr_get_emin_min());
    mpfr_set_emax(mpfr_get_emax_max());
    mpfr_set_prec(r->x, d->prec);
    geluref_bits_to_mpfr(r->x, dt, x & width_mask(dt)); /* exact */
    enum geluref_status st = geluref_eval_mpfr(f, out, r->x, r->s, MPFR_RNDN, &r->cfg,
                                               &r->stats, &t);
    mpfr_set_emin(emin);
    mpfr_set_emax(emax);
    mpfr_flags_restore(flags, MPFR_FLAGS_ALL);
    return st;
}
