/* geluref_eval_odd(): f(x) rounded to odd at p + 16 bits, by the fast path when its bound
 * decides the rounding and by the MPFR path otherwise (geluref.h). */
#include <string.h>

#include "fast.h"
#include "internal.h"

#define EXTRA_BITS 16

__extension__ typedef unsigned __int128 u128;
__extension__ typedef __int128 i128;

/* ---- rounding a value C 2^Q (C > 0, exact) into the dtype ---- */

static int bit_length(u128 c)
{
    uint64_t hi = (uint64_t)(c >> 64);
    if (hi)
        return 128 - __builtin_clzll(hi);
    return c ? 64 - __builtin_clzll((uint64_t)c) : 0;
}

/* rn, rd, ru of (neg ? -1 : 1) C 2^Q in d.  Returns nonzero (nothing set) when the value
 * lies beyond the largest finite binade, which no caller needs. */
static int round_into(const struct geluref_dtype_info *d, int neg, u128 c, int64_t q,
                      uint64_t *rn, uint64_t *rd, uint64_t *ru)
{
    int len = bit_length(c);
    int64_t ev = q + len - 1; /* 2^ev <= C 2^Q < 2^(ev+1) */
    if (ev > d->emax) /* beyond the largest binade (the top binade's RN/RU overflow to inf
                         by the carry below) */
        return -1;
    int64_t qt = (ev > d->emin ? ev : d->emin) - d->prec + 1; /* the ulp there: 2^qt */
    int64_t s = qt - q;
    u128 n, rem_nonzero;
    int up_rn;
    if (s >= 1 && s <= 63 && (c >> 64) == 0) { /* the common case in 64-bit arithmetic */
        uint64_t c64 = (uint64_t)c, n64 = c64 >> s, rem = c64 & (((uint64_t)1 << s) - 1);
        uint64_t half = (uint64_t)1 << (s - 1);
        n = n64;
        rem_nonzero = rem != 0;
        up_rn = rem > half || (rem == half && (n64 & 1));
    } else if (s <= 0) { /* a multiple of the ulp: exact (C < 2^(p+16), so the shift is small) */
        n = c << -s;
        rem_nonzero = 0;
        up_rn = 0;
    } else if (s > len + 1) { /* C 2^Q < 2^(qt-2): below half an ulp */
        n = 0;
        rem_nonzero = 1;
        up_rn = 0;
    } else {
        n = s >= 128 ? 0 : c >> s;
        u128 rem = c - (n << s), half = (u128)1 << (s - 1);
        rem_nonzero = rem != 0;
        up_rn = rem > half || (rem == half && (n & 1));
    }
    /* magnitude bits: (field offset of the binade qt) + n; a carry into the next binade (or
     * from the subnormals into the normals) lands on the right pattern by itself */
    uint64_t base = (uint64_t)(qt - (d->emin - d->prec + 1)) << (d->prec - 1);
    uint64_t lo = base + (uint64_t)n, hi = lo + (rem_nonzero != 0);
    uint64_t sign = neg ? (uint64_t)1 << (d->bits - 1) : 0;
    *rn = sign | (base + (uint64_t)n + (uint64_t)up_rn);
    *rd = sign | (neg ? hi : lo);
    *ru = sign | (neg ? lo : hi);
    return 0;
}

static void set_sig(struct geluref_odd *o, u128 c)
{
    o->sig_hi = (uint64_t)(c >> 64);
    o->sig_lo = (uint64_t)c;
}

/* The TINY result of sign neg: RN and the rounding toward 0 give a zero of that sign, the
 * rounding away from 0 the smallest subnormal. */
static void set_tiny(const struct geluref_dtype_info *d, int neg, struct geluref_odd *o)
{
    uint64_t sign = neg ? (uint64_t)1 << (d->bits - 1) : 0;
    o->kind = GELUREF_ODD_TINY;
    o->neg = neg;
    o->sig_hi = o->sig_lo = 0;
    o->exp = 0;
    o->exact = 0;
    o->rn = sign;
    o->rd = neg ? sign | 1 : 0;
    o->ru = neg ? sign : 1;
}

int gr_tiny_log2(enum geluref_dtype dt)
{
    const struct geluref_dtype_info *d = geluref_dtype_info(dt);
    return d->emin - d->prec + 1 - 1076;
}

/* The variant the CPU supports (chosen once per batch by geluref_eval_odd_n). */
typedef enum gr_fx_kind (*gr_fast_fn)(enum geluref_func, double, int, struct gr_fx *);
static gr_fast_fn gr_fast_variant(void)
{
#if defined(GR_HAVE_FMA_VARIANT)
    if (__builtin_cpu_supports("fma"))
        return gr_fast_eval_fma;
#endif
    return gr_fast_eval_generic;
}

enum gr_fx_kind gr_fast_eval(enum geluref_func f, double x, int prec, struct gr_fx *out)
{
    return gr_fast_variant()(f, x, prec, out);
}

int gr_fast_avx512(void)
{
#if defined(GR_HAVE_AVX512_VARIANT)
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
           __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx2") &&
           __builtin_cpu_supports("fma");
#else
    return 0;
#endif
}

size_t geluref_enclose_n(enum geluref_func f, const double *x, size_t n,
                         struct geluref_encl *out, unsigned char *ok)
{
#if defined(GR_HAVE_AVX512_VARIANT)
    if (gr_fast_avx512())
        return gr_fast_encl_n_avx512(f, x, n, out, ok);
#endif
#if defined(GR_HAVE_AVX2_VARIANT)
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
        return gr_fast_encl_n_avx2(f, x, n, out, ok);
#endif
#if defined(GR_HAVE_FMA_VARIANT)
    if (__builtin_cpu_supports("fma"))
        return gr_fast_encl_n_fma(f, x, n, out, ok);
#endif
    return gr_fast_encl_n_generic(f, x, n, out, ok);
}

/* ---- the fast path's decision ---- */

/* The value of finite dtype bits x as a double (exact: every f32, f16 and bf16 value is a
 * double). */
static double to_double(enum geluref_dtype dt, uint64_t x)
{
    if (dt == GELUREF_F64) {
        double v;
        memcpy(&v, &x, sizeof v);
        return v;
    }
    if (dt == GELUREF_F32 || dt == GELUREF_BF16) {
        uint32_t b = dt == GELUREF_F32 ? (uint32_t)x : (uint32_t)x << 16;
        float v;
        memcpy(&v, &b, sizeof v);
        return v;
    }
    /* binary16: sign, 5 exponent bits (bias 15), 10 fraction bits */
    int e = (int)(x >> 10) & 0x1f;
    double m = (double)(x & 0x3ff);
    double v = e == 0 ? dd_ldexp(m, -24) : dd_ldexp(m + 1024, e - 25);
    return (x & 0x8000) ? -v : v;
}

/* The enclosure fx (or a rule's stand-in interval) lies strictly inside one open cell
 * between consecutive prec-bit numbers: sets the odd end of that cell, C 2^Q, and returns 1;
 * 0 when it does not (the MPFR path decides).  Scaling by powers of two is exact (the values
 * are normal doubles); h - floor(h) is exact; frac errs by <= 2^-53 (|frac| < 2), and the
 * margin 2^-50 covers it. */
static int decide(const struct gr_fx *fx, int prec, int *neg, u128 *c, int64_t *q)
{
    dd m = fx->m;
    *neg = m.hi < 0;
    if (*neg)
        m = dd_neg(m);
    int sh = prec - dd_frexp_exp(m.hi); /* m.hi 2^sh in [2^(prec-1), 2^prec) */
    double h = dd_ldexp(m.hi, sh), l = dd_ldexp(m.lo, sh), r = dd_ldexp(fx->err, sh);
    if (h == dd_ldexp(1.0, prec - 1) && l < 0) { /* the value lies in the binade below */
        h *= 2;
        l *= 2;
        r *= 2;
        sh++;
    }
    /* floor(h): h > 0 and below 2^63 for prec <= 62, where truncating to int64_t is floor
     * (two instructions; floor() is a sequence of them without SSE4.1) */
    double fl = prec <= 62 ? (double)(int64_t)h : floor(h);
    double frac = (h - fl) + l;
    double fl2 = frac >= 0 && frac < 1 ? 0 : floor(frac);
    frac -= fl2;
    if (!(frac - r > 0x1p-50 && frac + r < 1 - 0x1p-50))
        return 0;
    if (prec <= 62) { /* fl < 2^62: exact in int64_t */
        int64_t c64 = (int64_t)fl + (int64_t)fl2;
        if (c64 < (int64_t)1 << (prec - 1) || c64 >= (int64_t)1 << prec)
            return 0;
        *c = (u128)(uint64_t)(c64 | 1);
        *q = fx->e - sh;
        return 1;
    }
    /* prec = 69: h is a multiple of 2^16 */
    i128 ci = ((i128)(int64_t)(fl * 0x1p-16) << 16) + (int64_t)fl2;
    if (ci < (i128)1 << (prec - 1) || ci >= (i128)1 << prec)
        return 0;
    *c = (u128)ci | 1;
    *q = fx->e - sh;
    return 1;
}

/* A rule's cell (GR_FX_CELL) directly: |c| = C0 2^-prec with C0 = |cell_c| 2^prec an even
 * integer in [2^(prec-1), 2^prec) (cell_c has at most 53 <= prec - 16 bits); the odd end of
 * the cell next to it is C0 + 1 away from 0, C0 - 1 toward 0, except below a power of two
 * (C0 = 2^(prec-1)), where the binade below has the odd end 2^prec - 1 one exponent lower.
 * The same as decide() gives for the stand-in interval, without its arithmetic. */
static void decide_cell(const struct gr_fx *fx, int prec, int *neg, u128 *c, int64_t *q)
{
    double a = fabs(fx->cell_c);
    *neg = fx->cell_c < 0;
    int away = fx->cell_dir > 0;
    u128 c0 = prec <= 53 ? (u128)(uint64_t)dd_ldexp(a, prec)
                         : (u128)(uint64_t)(a * 0x1p53) << (prec - 53);
    *q = fx->e - prec;
    if (away) {
        *c = c0 + 1;
    } else if (c0 == (u128)1 << (prec - 1)) {
        *c = ((u128)1 << prec) - 1;
        *q -= 1;
    } else {
        *c = c0 - 1;
    }
}

/* The fast path; returns 0 with *o set, or -1 when the MPFR path must decide. */
/* The value C 2^Q decided (odd C of prec bits) into *o: TINY below 2^tiny, else rounded
 * into the dtype; -1 beyond the largest binade (the MPFR path decides). */
static inline int finish(const struct geluref_dtype_info *d, int prec, int tiny, int neg,
                         u128 c, int64_t q, struct geluref_odd *o)
{
    if (q + prec <= tiny) {
        set_tiny(d, neg, o);
        return 0;
    }
    if (round_into(d, neg, c, q, &o->rn, &o->rd, &o->ru) != 0)
        return -1;
    o->kind = GELUREF_ODD_FINITE;
    o->neg = neg;
    set_sig(o, c);
    o->exp = q;
    return 0;
}

static int fast_decide(const struct geluref_dtype_info *d, int prec, int tiny,
                       enum gr_fx_kind k, const struct gr_fx *fx, struct geluref_odd *o);

/* *o depends on fx alone (x only through fx), which is what lets geluref_eval_odd_n copy
 * the result of a run (gr_fx.run_lo).  fx_out (may be NULL) gets fx. */
static int fast(gr_fast_fn eval, enum geluref_func f, const struct geluref_dtype_info *d,
                enum geluref_dtype dt, uint64_t x, struct geluref_odd *o, struct gr_fx *fx_out)
{
    int prec = d->prec + EXTRA_BITS, tiny = d->emin - d->prec + 1 - 1076; /* gr_tiny_log2 */
    double xd = to_double(dt, x);
    struct gr_fx local, *fxp = fx_out ? fx_out : &local;
    enum gr_fx_kind k = eval(f, xd, prec, fxp);
    int r = fast_decide(d, prec, tiny, k, fxp, o);
    /* the double tier's bound did not decide: the double-double evaluation may */
    if (r != 0 && fxp->tier)
        r = fast_decide(d, prec, tiny, eval(f, xd, prec | GR_FX_NO_DOUBLE, fxp), fxp, o);
    return r;
}

/* The rest of fast(): fx (of kind k) decided into *o, or -1.  fx is read in place: a copy of
 * the whole struct, just written field by field, costs a stall per 16-byte load (store
 * forwarding). */
static int fast_decide(const struct geluref_dtype_info *d, int prec, int tiny,
                       enum gr_fx_kind k, const struct gr_fx *fx, struct geluref_odd *o)
{
    if (k == GR_FX_NONE)
        return -1;
    o->prec = prec;
    o->exact = 0;
    o->exp = 0;
    if (k == GR_FX_TINY) {
        set_tiny(d, fx->m.hi < 0, o);
        return 0;
    }
    /* the whole enclosure below 2^tiny: |f| < |m.hi| (1 + 2^-50) 2^e < 2^(ex + e) */
    int ex = dd_frexp_exp(fx->m.hi);
    if (fx->err < 0x1p-60 * fabs(fx->m.hi) && (int64_t)ex + fx->e < tiny) {
        set_tiny(d, fx->m.hi < 0, o);
        return 0;
    }
    int neg;
    u128 c;
    int64_t q;
    if (k == GR_FX_CELL)
        decide_cell(fx, prec, &neg, &c, &q);
    else if (!decide(fx, prec, &neg, &c, &q))
        return -1;
    return finish(d, prec, tiny, neg, c, q, o);
}

/* fast() for x in a run of the rule "the cell next to x 2^k on side dir" (gr_fx.run_cx), at
 * prec <= 56 bits: fx as cell_k sets the fields decide_cell reads (cell_c = the fraction of x,
 * e = its exponent + k, cell_dir = dir), and fast()'s test of the enclosure against 2^tiny is
 * left out because it cannot hold: cell_k's err = |fr| 2^-(prec+4) is not below
 * 2^-60 |m.hi| < 2^-60 |fr| (1 + 2^-41) unless prec >= 57.  The same result as fast(). */
static int fast_cell_x(const struct geluref_dtype_info *d, double xd, int k, int dir,
                       struct geluref_odd *o)
{
    int prec = d->prec + EXTRA_BITS, tiny = d->emin - d->prec + 1 - 1076;
    struct gr_fx fx;
    int ex = dd_frexp_exp(xd);
    fx.cell_c = dd_ldexp(xd, -ex); /* exact, as in cell_k */
    fx.cell_dir = dir;
    fx.e = (int64_t)ex + k;
    o->prec = prec;
    o->exact = 0;
    o->exp = 0;
    int neg;
    u128 c;
    int64_t q;
    decide_cell(&fx, prec, &neg, &c, &q);
    return finish(d, prec, tiny, neg, c, q, o);
}

/* ---- the MPFR path ---- */

/* The deep tails beyond MPFR's exponent range (|x| > about 2.5e9 for gelu, 3.6e6 for
 * gelu_tanh): geluref_eval_mpfr reports the precision cap where geluref_eval decides by its
 * tail rule; when RD and RU are then 0 and the smallest subnormal of one sign, f(x) is a
 * TINY value of that sign (far below 2^-2150).  Returns 0 when this applies. */
static int below_mpfr(enum geluref_func f, enum geluref_dtype dt, uint64_t x,
                      const struct geluref_config *cfg, struct geluref_stats *stats,
                      struct geluref_odd *o)
{
    uint64_t rn, rd, ru;
    if (geluref_eval(f, dt, x, MPFR_RNDD, &rd, cfg, stats) != GELUREF_OK
        || geluref_eval(f, dt, x, MPFR_RNDU, &ru, cfg, stats) != GELUREF_OK
        || geluref_eval(f, dt, x, MPFR_RNDN, &rn, cfg, stats) != GELUREF_OK)
        return -1;
    const struct geluref_dtype_info *d = geluref_dtype_info(dt);
    uint64_t sign = (uint64_t)1 << (d->bits - 1);
    int pos = rd == 0 && ru == 1, neg = ru == sign && rd == (sign | 1);
    if (!pos && !neg)
        return -1;
    set_tiny(d, neg, o);
    return 0;
}

static enum geluref_status slow(enum geluref_func f, const struct geluref_dtype_info *d,
                                enum geluref_dtype dt, uint64_t x,
                                const struct geluref_config *cfg, struct geluref_stats *stats,
                                struct geluref_odd *o)
{
    int prec = d->prec + EXTRA_BITS;
    mpfr_t xm, v, s;
    mpfr_init2(xm, d->prec);
    mpfr_init2(v, prec);
    mpfr_init2(s, 53);
    mpfr_set_d(s, cfg->scale, MPFR_RNDN); /* a double: exact */
    mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
    mpfr_flags_t flags = mpfr_flags_save();
    mpfr_set_emin(mpfr_get_emin_min());
    mpfr_set_emax(mpfr_get_emax_max());
    geluref_bits_to_mpfr(xm, dt, x); /* exact */
    int t = 0;
    struct geluref_stats saved = stats ? *stats : (struct geluref_stats){ 0 };
    enum geluref_status st = geluref_eval_mpfr(f, v, xm, s, MPFR_RNDZ, cfg, stats, &t);
    o->prec = prec;
    o->exp = 0;
    o->exact = 0;
    o->sig_hi = o->sig_lo = 0;
    if (st == GELUREF_E_PREC_CAP) {
        if (stats)
            *stats = saved; /* not a cap hit: decided below (or reported as one there) */
        st = below_mpfr(f, dt, x, cfg, stats, o) == 0 ? GELUREF_OK : GELUREF_E_PREC_CAP;
        if (st != GELUREF_OK && stats)
            stats->cap_hits++;
    } else if (st == GELUREF_OK) {
        o->neg = mpfr_signbit(v) != 0;
        if (mpfr_zero_p(v) && t == 0) {
            o->kind = GELUREF_ODD_ZERO;
            o->exact = 1;
        } else if (mpfr_inf_p(v)) {
            o->kind = GELUREF_ODD_INF;
            o->exact = 1;
        } else if (mpfr_zero_p(v) || mpfr_get_exp(v) <= gr_tiny_log2(dt)) {
            /* an RZ zero comes only from below MPFR's range; |v| < 2^EXP(v) <= 2^tiny */
            set_tiny(d, o->neg, o);
        } else {
            /* round to odd: inexact with the last bit 0 -> the next value away from 0 */
            if (t != 0 && mpfr_min_prec(v) < prec) {
                if (o->neg)
                    mpfr_nextbelow(v);
                else
                    mpfr_nextabove(v);
            }
            o->kind = GELUREF_ODD_FINITE;
            o->exact = t == 0;
            mpz_t z;
            mpz_init(z);
            mpfr_exp_t e = mpfr_get_z_2exp(z, v); /* |v| = |z| 2^e, z of prec bits */
            mpz_abs(z, z);
            u128 c = (u128)mpz_getlimbn(z, 0);
            if (mpz_size(z) > 1)
                c |= (u128)mpz_getlimbn(z, 1) << 64;
            mpz_clear(z);
            set_sig(o, c);
            o->exp = e;
        }
        if (o->kind != GELUREF_ODD_TINY) {
            o->rn = geluref_round_to_bits(dt, v, MPFR_RNDN);
            o->rd = geluref_round_to_bits(dt, v, MPFR_RNDD);
            o->ru = geluref_round_to_bits(dt, v, MPFR_RNDU);
        }
    }
    mpfr_set_emin(emin);
    mpfr_set_emax(emax);
    mpfr_flags_restore(flags, MPFR_FLAGS_ALL);
    mpfr_clears(xm, v, s, (mpfr_ptr)0);
    return st;
}

/* geluref_eval_odd, and the rule that decided x into *run (may be NULL). */
static enum geluref_status eval_odd(enum geluref_func f, enum geluref_dtype dt, uint64_t x,
                                    enum geluref_path path, const struct geluref_config *cfg,
                                    struct geluref_stats *stats, struct geluref_odd *out,
                                    struct geluref_odd_run *run)
{
    if (run) {
        run->kind = GELUREF_RUN_NONE;
        run->lo = 1;
        run->hi = 0;
        run->k = run->dir = 0;
    }
    const struct geluref_dtype_info *d = geluref_dtype_info(dt);
    struct geluref_config def = GELUREF_CONFIG_INIT;
    if (!cfg)
        cfg = &def;
    if (!d || !gr_fn_lookup(f))
        return GELUREF_E_INVALID;
    memset(out, 0, sizeof *out);
    out->prec = d->prec + EXTRA_BITS;
    uint64_t mask = d->bits == 64 ? ~(uint64_t)0 : ((uint64_t)1 << d->bits) - 1;
    x &= mask;
    uint64_t mag = x & (mask >> 1), inf = (((uint64_t)1 << d->exp_bits) - 1) << (d->prec - 1);
    if (mag > inf) { /* NaN in: the dtype's default quiet NaN, as geluref_eval gives it */
        uint64_t qn = 0;
        enum geluref_status st = geluref_eval(f, dt, x, MPFR_RNDN, &qn, cfg, stats);
        out->kind = GELUREF_ODD_NAN;
        out->rn = out->rd = out->ru = qn;
        out->exact = 1;
        return st;
    }
    if (path == GELUREF_PATH_FAST && f != GELUREF_GELU_SCALED && mag != 0 && mag != inf) {
        struct gr_fx fx;
        if (fast(gr_fast_variant(), f, d, dt, x, out, &fx) == 0) {
            if (stats) {
                stats->calls++;
                stats->fast++;
            }
            /* fx.run_lo < fx.run_hi: the rule's branch is taken for every x' in the interval
             * and its gr_fx does not depend on x' (fast_fn.c, run()), so fast() gives x' the
             * same result (run_cx = 0), or the cell next to x' 2^run_k on the side run_dir
             * (run_x(): cell_k, whose rule states f(x') = x' 2^k (1 + dir d), 0 < d < 2^-prec) */
            if (run && fx.run_lo < fx.run_hi) {
                run->kind = fx.run_cx ? GELUREF_RUN_SCALED : GELUREF_RUN_SAME;
                run->lo = fx.run_lo;
                run->hi = fx.run_hi;
                if (fx.run_cx) {
                    run->k = fx.run_k;
                    run->dir = fx.run_dir;
                }
            }
            return GELUREF_OK;
        }
        if (stats)
            stats->fast_miss++;
    }
    return slow(f, d, dt, x, cfg, stats, out);
}

enum geluref_status geluref_eval_odd(enum geluref_func f, enum geluref_dtype dt, uint64_t x,
                                     enum geluref_path path, const struct geluref_config *cfg,
                                     struct geluref_stats *stats, struct geluref_odd *out)
{
    return eval_odd(f, dt, x, path, cfg, stats, out, NULL);
}

enum geluref_status geluref_eval_odd_run(enum geluref_func f, enum geluref_dtype dt,
                                         uint64_t x, enum geluref_path path,
                                         const struct geluref_config *cfg,
                                         struct geluref_stats *stats, struct geluref_odd *out,
                                         struct geluref_odd_run *run)
{
    return eval_odd(f, dt, x, path, cfg, stats, out, run);
}

/* ---- a batch lane: binary32 gelu by its series near 0 ----
 * gelu at 2^-41 <= |x| <= 2^-10 in binary32 (31 binades of each sign: an eighth of all
 * inputs) is x/2 + T, T = phi(0) x^2 P(x^2) (fast_fn.c gelu_series).  Here the rounding to odd
 * at 40 bits is decided in integers, without the general enclosure: h = x/2 is exact, with
 * |h| in [2^E, 2^(E+1)) and 40-bit significand H (a multiple of 2^16); in units U = 2^(E-39)
 * of the 40-bit cells of that binade |f|/U = |H| + D or |H| - D, D = T/U exactly scaled.
 * T in double: q = RN(x^2), P = 1 + q (-1/6 + q (1/40 - q/336)) (terms below 2^-22.5, so
 * within 1.001u of the series, whose remainder is below 2^-91), times RN(phi(0)) and q: two
 * products and three roundings of inputs, T within 5.01u < 2^-50.6 relatively.  |x| < 2^(E+2)
 * bounds |D| <= 0.4 x^2/U < 0.4 2^(E+43) <= 2^30.7 (E <= -11), so D errs by < 2^-19.9: with
 * D's fraction in [2^-19, 1 - 2^-19] the cell holding |f| is the one holding |H| +- D, and
 * its odd end is the value.  Otherwise, or when the cell leaves the binade, the general path
 * decides (geluref_eval_odd, which evaluates the series in double-double).  The result is the
 * same either way: the rounding to odd of f(x) is unique.  tests/reference/test_batch.c
 * compares batches (this lane) with single calls (the general path), every field and
 * counter. */
static int lane_gelu_series_f32(double xd, struct geluref_odd *o)
{
    double ax = fabs(xd);
    if (!(ax >= 0x1p-41 && ax <= 0x1p-10))
        return -1;
    double h = xd * 0.5, q = xd * xd;
    double pm = 1.0 + gr_gelu_series_pm1(q);
    double t = gr_fast_inv_sqrt2pi.hi * q * pm;
    uint64_t hb;
    memcpy(&hb, &h, sizeof hb);
    int e = (int)((hb >> 52) & 0x7ff) - 1023; /* h normal: |x| >= 2^-41 */
    int64_t hh = (int64_t)((hb & (((uint64_t)1 << 52) - 1)) | ((uint64_t)1 << 52)) >> 13;
    double dv = dd_ldexp(t, 39 - e); /* exact: t is far from both ends of the range */
    int64_t fl = (int64_t)dv;        /* floor: 0 < dv < 2^31 */
    double fr = dv - (double)fl;
    if (!(fr >= 0x1p-19 && fr <= 1 - 0x1p-19))
        return -1;
    int neg = xd < 0;
    /* the lower end of the cell: |H| + fl (x > 0) or |H| - fl - 1 (x < 0), in [2^39, 2^40) */
    int64_t lo_end = neg ? hh - fl - 1 : hh + fl;
    if (lo_end < ((int64_t)1 << 39) || lo_end >= ((int64_t)1 << 40))
        return -1;
    uint64_t c = (uint64_t)lo_end | 1;
    o->kind = GELUREF_ODD_FINITE;
    o->neg = neg;
    o->sig_hi = 0;
    o->sig_lo = c;
    o->exp = e - 39;
    o->prec = 40;
    o->exact = 0;
    /* into binary32 (normal: |f| >= 2^-42): the 24 bits above 16 more, C odd so never a tie;
     * round_into's bits */
    uint64_t lo = ((uint64_t)(e + 126) << 23) + (c >> 16), hi = lo + 1;
    uint64_t sign = neg ? (uint64_t)1 << 31 : 0;
    o->rn = sign | (lo + ((c & 0xffff) > 0x8000));
    o->rd = sign | (neg ? hi : lo);
    o->ru = sign | (neg ? lo : hi);
    return 0;
}

enum geluref_status geluref_eval_odd_n(enum geluref_func f, enum geluref_dtype dt,
                                       const uint64_t *x, size_t n, enum geluref_path path,
                                       const struct geluref_config *cfg,
                                       struct geluref_stats *stats, struct geluref_odd *out,
                                       size_t *failed)
{
    const struct geluref_dtype_info *d = geluref_dtype_info(dt);
    if (!d || !gr_fn_lookup(f)) {
        if (failed)
            *failed = 0;
        return GELUREF_E_INVALID;
    }
    gr_fast_fn eval = gr_fast_variant();
    uint64_t mask = d->bits == 64 ? ~(uint64_t)0 : ((uint64_t)1 << d->bits) - 1;
    uint64_t inf = (((uint64_t)1 << d->exp_bits) - 1) << (d->prec - 1);
    int try_fast = path == GELUREF_PATH_FAST && f != GELUREF_GELU_SCALED;
    int lane_series = try_fast && f == GELUREF_GELU && dt == GELUREF_F32;
    uint64_t n_fast = 0;
    enum geluref_status st = GELUREF_OK;
    /* the last run (gr_fx.run_lo): the interval of x and the result every x in it gets */
    double run_lo = 1, run_hi = 0;
    int run_cx = 0, run_k = 0, run_dir = 0, cx_ok = d->prec + EXTRA_BITS <= 56;
    struct geluref_odd run_out;
    memset(&run_out, 0, sizeof run_out);
    size_t i;
    for (i = 0; i < n; i++) {
        uint64_t xi = x[i] & mask, mag = xi & (mask >> 1);
        /* geluref_eval_odd for this input, its checks above made once: the fast path sets
         * every field of out[i] when it decides; otherwise (and for NaN, +-inf, +-0 and
         * gelu_scaled) geluref_eval_odd itself, which counts the miss and takes the MPFR
         * path */
        if (try_fast && mag != 0 && mag < inf) {
            double xd = to_double(dt, xi);
            if (run_lo < xd && xd < run_hi) { /* the rule's branch: its fx, so its result */
                if (!run_cx) {
                    out[i] = run_out;
                    n_fast++;
                    continue;
                }
                if (fast_cell_x(d, xd, run_k, run_dir, &out[i]) == 0) {
                    n_fast++;
                    continue;
                }
            }
            if (lane_series && lane_gelu_series_f32(xd, &out[i]) == 0) {
                n_fast++;
                continue;
            }
            struct gr_fx fx;
            if (fast(eval, f, d, dt, xi, &out[i], &fx) == 0) {
                n_fast++;
                run_lo = fx.run_lo;
                run_hi = fx.run_hi;
                run_cx = fx.run_cx;
                run_k = fx.run_k;
                run_dir = fx.run_dir;
                if (run_cx && !cx_ok) /* fast_cell_x serves prec <= 56 only */
                    run_lo = 1, run_hi = 0;
                run_out = out[i];
                continue;
            }
        }
        st = geluref_eval_odd(f, dt, xi, path, cfg, stats, &out[i]);
        if (st != GELUREF_OK)
            break;
    }
    if (stats) { /* what each decided call adds (geluref_eval_odd) */
        stats->calls += n_fast;
        stats->fast += n_fast;
    }
    if (st != GELUREF_OK && failed)
        *failed = i;
    return st;
}
