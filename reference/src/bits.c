/* dtype bit patterns <-> exact MPFR values, and one correct rounding into a dtype. */
#include "internal.h"

mpfr_exp_t gr_dtype_emin(const struct geluref_dtype_info *d)
{
    return d->emin - d->prec + 2;
}

mpfr_exp_t gr_dtype_emax(const struct geluref_dtype_info *d)
{
    return d->emax + 1;
}

uint64_t gr_dtype_qnan(const struct geluref_dtype_info *d)
{
    /* exponent all ones, top fraction bit set: 0x7ff8..., 0x7fc00000, 0x7e00, 0x7fc0 */
    int fbits = d->prec - 1;
    uint64_t e = ((UINT64_C(1) << d->exp_bits) - 1) << fbits;
    return e | (UINT64_C(1) << (fbits - 1));
}

void geluref_bits_to_mpfr(mpfr_ptr v, enum geluref_dtype dt, uint64_t bits)
{
    const struct geluref_dtype_info *d = geluref_dtype_info(dt);
    int fbits = d->prec - 1, bias = d->emax;
    uint64_t frac = bits & ((UINT64_C(1) << fbits) - 1);
    uint64_t ef = (bits >> fbits) & ((UINT64_C(1) << d->exp_bits) - 1);
    int neg = (int)((bits >> (d->bits - 1)) & 1);

    if (ef == (UINT64_C(1) << d->exp_bits) - 1) {
        if (frac)
            mpfr_set_nan(v);
        else
            mpfr_set_inf(v, neg ? -1 : 1);
        return;
    }
    if (ef == 0 && frac == 0) {
        mpfr_set_zero(v, neg ? -1 : 1);
        return;
    }
    /* exact: at most 53 significant bits, v has at least the dtype's precision */
    if (ef == 0)
        mpfr_set_uj_2exp(v, frac, d->emin - fbits, MPFR_RNDN);
    else
        mpfr_set_uj_2exp(v, frac | (UINT64_C(1) << fbits), (long)ef - bias - fbits, MPFR_RNDN);
    if (neg)
        mpfr_neg(v, v, MPFR_RNDN);
}

int geluref_mpfr_to_bits(enum geluref_dtype dt, mpfr_srcptr v, uint64_t *bits)
{
    const struct geluref_dtype_info *d = geluref_dtype_info(dt);
    int fbits = d->prec - 1, bias = d->emax;
    uint64_t sign = (uint64_t)(mpfr_signbit(v) ? 1 : 0) << (d->bits - 1);
    uint64_t emask = (UINT64_C(1) << d->exp_bits) - 1;

    if (mpfr_nan_p(v)) {
        *bits = gr_dtype_qnan(d);
        return 0;
    }
    if (mpfr_inf_p(v)) {
        *bits = sign | (emask << fbits);
        return 0;
    }
    if (mpfr_zero_p(v)) {
        *bits = sign;
        return 0;
    }
    long e = mpfr_get_exp(v) - 1; /* |v| in [2^e, 2^(e+1)) */
    if (e > d->emax)
        return -1;
    long q = e >= d->emin ? e - fbits : d->emin - fbits; /* quantum exponent */
    mpfr_t m;
    mpfr_init2(m, mpfr_get_prec(v) > 64 ? mpfr_get_prec(v) : 64);
    mpfr_abs(m, v, MPFR_RNDN);
    mpfr_mul_2si(m, m, -q, MPFR_RNDN); /* exact: only the exponent changes */
    int ok = mpfr_integer_p(m) && mpfr_cmp_ui_2exp(m, 1, d->prec) < 0;
    uint64_t n = ok ? mpfr_get_uj(m, MPFR_RNDN) : 0;
    mpfr_clear(m);
    if (!ok)
        return -1;
    if (e >= d->emin)
        *bits = sign | ((uint64_t)(e + bias) << fbits) | (n & ((UINT64_C(1) << fbits) - 1));
    else
        *bits = sign | n;
    return 0;
}

uint64_t geluref_round_to_bits(enum geluref_dtype dt, mpfr_srcptr v, mpfr_rnd_t rnd)
{
    const struct geluref_dtype_info *d = geluref_dtype_info(dt);
    mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
    mpfr_flags_t flags = mpfr_flags_save();
    mpfr_t t;
    uint64_t bits = 0;

    mpfr_init2(t, d->prec);
    /* the documented MPFR recipe for one rounding into an IEEE format with subnormals */
    mpfr_set_emin(gr_dtype_emin(d));
    mpfr_set_emax(gr_dtype_emax(d));
    int inex = mpfr_set(t, v, rnd);
    inex = mpfr_check_range(t, inex, rnd);
    mpfr_subnormalize(t, inex, rnd);
    mpfr_set_emin(emin);
    mpfr_set_emax(emax);
    mpfr_flags_restore(flags, MPFR_FLAGS_ALL);
    geluref_mpfr_to_bits(dt, t, &bits);
    mpfr_clear(t);
    return bits;
}
