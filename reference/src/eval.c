/* The two public layers over one core: special values, then the rules, then Ziv's loop, all
 * in MPFR's widest exponent range; the result is then put into the caller's range (MPFR-style
 * layer) or rounded into the dtype with its subnormals (dtype layer). */
#include <math.h>

#include "internal.h"

const struct gr_fn *gr_fn_lookup(enum geluref_func f)
{
    static const struct gr_fn *const fns[] = {
        [GELUREF_GELU] = &gr_fn_gelu,
        [GELUREF_GELU_TANH] = &gr_fn_gelu_tanh,
        [GELUREF_GELU_SIGMOID] = &gr_fn_gelu_sigmoid,
        [GELUREF_GELU_GRAD] = &gr_fn_gelu_grad,
        [GELUREF_GELU_TANH_GRAD] = &gr_fn_gelu_tanh_grad,
        [GELUREF_NORMCDF] = &gr_fn_normcdf,
        [GELUREF_NORMPDF] = &gr_fn_normpdf,
        [GELUREF_ERF] = &gr_fn_erf,
        [GELUREF_ERFC] = &gr_fn_erfc,
        [GELUREF_GELU_GRAD2] = &gr_fn_gelu_grad2,
        [GELUREF_GELU_SCALED] = &gr_fn_gelu_scaled,
    };
    if (f < GELUREF_FUNC_FIRST || f > GELUREF_FUNC_LAST)
        return NULL;
    return fns[f];
}

static int rnd_ok(mpfr_rnd_t rnd)
{
    return rnd == MPFR_RNDN || rnd == MPFR_RNDZ || rnd == MPFR_RNDU || rnd == MPFR_RNDD;
}

/* Saves the caller's exponent range and flags and opens MPFR's widest range. */
struct expo {
    mpfr_exp_t emin, emax;
    mpfr_flags_t flags;
};

static void expo_open(struct expo *e)
{
    e->emin = mpfr_get_emin();
    e->emax = mpfr_get_emax();
    e->flags = mpfr_flags_save();
    mpfr_set_emin(mpfr_get_emin_min());
    mpfr_set_emax(mpfr_get_emax_max());
}

static void expo_close(const struct expo *e)
{
    mpfr_set_emin(e->emin);
    mpfr_set_emax(e->emax);
    mpfr_flags_restore(e->flags, MPFR_FLAGS_ALL);
}

/* y = f(x) rounded to PREC(y) in rnd, in the widest range; tg says what follows. */
static enum geluref_status core(const struct gr_fn *fn, mpfr_ptr y, mpfr_srcptr x,
                                mpfr_srcptr s, mpfr_rnd_t rnd, const struct gr_target *tg,
                                struct geluref_stats *stats, int *ternary)
{
    struct geluref_stats dummy = { 0 };
    if (!stats)
        stats = &dummy;
    stats->calls++;
    if (fn->special(y, x, s, rnd, ternary) == GR_DECIDED) {
        stats->special++;
        return GELUREF_OK;
    }
    if (fn->rules(y, x, s, rnd, tg, ternary) == GR_DECIDED) {
        stats->rule++;
        return GELUREF_OK;
    }
    enum geluref_status st = gr_ziv(fn, y, x, s, rnd, tg, stats, ternary);
    if (st == GELUREF_OK)
        stats->ziv++;
    else
        stats->cap_hits++;
    return st;
}

enum geluref_status geluref_eval_mpfr(enum geluref_func f, mpfr_ptr y, mpfr_srcptr x,
                                      mpfr_srcptr s, mpfr_rnd_t rnd,
                                      const struct geluref_config *cfg,
                                      struct geluref_stats *stats, int *ternary)
{
    const struct gr_fn *fn = gr_fn_lookup(f);
    struct geluref_config def = GELUREF_CONFIG_INIT;
    int inex = 0;

    if (!cfg)
        cfg = &def;
    *ternary = 0;
    if (!fn || !rnd_ok(rnd)
        || (f == GELUREF_GELU_SCALED && (!s || !mpfr_regular_p(s) || mpfr_sgn(s) < 0))) {
        mpfr_set_nan(y);
        return GELUREF_E_INVALID;
    }
    if (f != GELUREF_GELU_SCALED)
        s = NULL;
    struct expo e;
    expo_open(&e);
    struct gr_target tg = { e.emin, 0, cfg->prec_cap };
    enum geluref_status st = core(fn, y, x, s, rnd, &tg, stats, &inex);
    expo_close(&e);
    if (st != GELUREF_OK) {
        mpfr_set_nan(y);
        mpfr_set_erangeflag();
        return st;
    }
    /* the caller's range; a rule's result below it is already final (gr_decide_tail) */
    inex = mpfr_check_range(y, inex, rnd);
    if (inex)
        mpfr_set_inexflag();
    if (inex && (mpfr_zero_p(y) || (mpfr_get_exp(y) == e.emin && mpfr_min_prec(y) == 1
                                    && (inex > 0) == (mpfr_sgn(y) > 0))))
        mpfr_set_underflow(); /* |v| below the smallest positive number */
    *ternary = inex;
    return GELUREF_OK;
}

#define MPFR_STYLE(name, id)                                                                \
    int geluref_##name(mpfr_ptr y, mpfr_srcptr x, mpfr_rnd_t rnd)                           \
    {                                                                                       \
        int t;                                                                              \
        geluref_eval_mpfr(id, y, x, NULL, rnd, NULL, NULL, &t);                             \
        return t;                                                                           \
    }
MPFR_STYLE(gelu, GELUREF_GELU)
MPFR_STYLE(gelu_tanh, GELUREF_GELU_TANH)
MPFR_STYLE(gelu_sigmoid, GELUREF_GELU_SIGMOID)
MPFR_STYLE(gelu_grad, GELUREF_GELU_GRAD)
MPFR_STYLE(gelu_tanh_grad, GELUREF_GELU_TANH_GRAD)
MPFR_STYLE(normcdf, GELUREF_NORMCDF)
MPFR_STYLE(normpdf, GELUREF_NORMPDF)
MPFR_STYLE(erf, GELUREF_ERF)
MPFR_STYLE(erfc, GELUREF_ERFC)
MPFR_STYLE(gelu_grad2, GELUREF_GELU_GRAD2)

int geluref_gelu_scaled(mpfr_ptr y, mpfr_srcptr x, mpfr_srcptr s, mpfr_rnd_t rnd)
{
    int t;
    geluref_eval_mpfr(GELUREF_GELU_SCALED, y, x, s, rnd, NULL, NULL, &t);
    return t;
}

enum geluref_status geluref_eval(enum geluref_func f, enum geluref_dtype dt, uint64_t xbits,
                                 mpfr_rnd_t rnd, uint64_t *ybits,
                                 const struct geluref_config *cfg,
                                 struct geluref_stats *stats)
{
    const struct gr_fn *fn = gr_fn_lookup(f);
    const struct geluref_dtype_info *d = geluref_dtype_info(dt);
    struct geluref_config def = GELUREF_CONFIG_INIT;
    int inex = 0;

    if (!cfg)
        cfg = &def;
    if (!fn || !d || !rnd_ok(rnd)
        || (f == GELUREF_GELU_SCALED && !(isfinite(cfg->scale) && cfg->scale > 0)))
        return GELUREF_E_INVALID;

    mpfr_t x, y, s;
    mpfr_init2(x, d->prec);
    mpfr_init2(y, d->prec);
    mpfr_init2(s, 53);
    mpfr_set_d(s, cfg->scale, MPFR_RNDN); /* exact */
    struct expo e;
    expo_open(&e);
    geluref_bits_to_mpfr(x, dt, xbits);
    struct gr_target tg = { gr_dtype_emin(d), 1, cfg->prec_cap };
    enum geluref_status st =
        core(fn, y, x, f == GELUREF_GELU_SCALED ? s : NULL, rnd, &tg, stats, &inex);
    if (st == GELUREF_OK) {
        /* one rounding into the dtype: y is RND(v) at PREC bits with the exact ternary (or
         * decided at the bits the dtype really holds, ziv.c), so check_range and
         * subnormalize give RND(v) in the dtype, without double rounding */
        mpfr_set_emin(gr_dtype_emin(d));
        mpfr_set_emax(gr_dtype_emax(d));
        inex = mpfr_check_range(y, inex, rnd);
        mpfr_subnormalize(y, inex, rnd);
        mpfr_set_emin(mpfr_get_emin_min());
        mpfr_set_emax(mpfr_get_emax_max());
        geluref_mpfr_to_bits(dt, y, ybits);
    }
    expo_close(&e);
    mpfr_clears(x, y, s, (mpfr_ptr)0);
    return st;
}
