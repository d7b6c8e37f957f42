/* geluref: the correctly rounded reference of gelucheck.
 *
 * Every function here returns the correctly rounded value of the exact mathematical function
 * (docs/design.md section 2) or an error status; never an approximation.  Two layers:
 *
 *  - an MPFR-style layer, geluref_gelu(y, x, rnd) and friends: the result rounded to y's
 *    precision in direction rnd, returning the ternary value, in the caller's exponent range
 *    (like any MPFR function: overflow and underflow as mpfr_check_range does them);
 *  - a dtype layer, geluref_eval(): input and output as the bit patterns of f64, f32, f16 or
 *    bf16, rounded once into that format with its exponent range and subnormals (RN, RZ, RU,
 *    RD), returning a status code.
 *
 * Thread safety: every call is reentrant; MPFR's exponent range and flags are thread-local in
 * Debian's MPFR, and each call restores them before it returns.
 */
#ifndef GELUREF_H
#define GELUREF_H

#include <stddef.h>
#include <stdint.h>
#include <mpfr.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Symbols of the shared library: only these are exported. */
#if defined(__GNUC__) && defined(GELUREF_BUILDING)
#define GELUREF_API __attribute__((visibility("default")))
#else
#define GELUREF_API
#endif

#define GELUREF_VERSION_MAJOR 0
#define GELUREF_VERSION_MINOR 2
#define GELUREF_VERSION_PATCH 0
#define GELUREF_VERSION_STRING "0.2.0"

/* Functions.  1..9 are the numbers of the plug-in ABI (enum gelucheck_func); 10 and 11 are
 * for analysis only.  Append, never renumber. */
enum geluref_func {
    GELUREF_GELU = 1,           /* x Phi(x) */
    GELUREF_GELU_TANH = 2,      /* 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))) */
    GELUREF_GELU_SIGMOID = 3,   /* x sigmoid(1.702 x) */
    GELUREF_GELU_GRAD = 4,      /* Phi(x) + x phi(x) */
    GELUREF_GELU_TANH_GRAD = 5, /* d/dx gelu_tanh */
    GELUREF_NORMCDF = 6,        /* Phi(x) = erfc(-x/sqrt2)/2 */
    GELUREF_NORMPDF = 7,        /* phi(x) = exp(-x^2/2)/sqrt(2 pi) */
    GELUREF_ERF = 8,
    GELUREF_ERFC = 9,
    GELUREF_GELU_GRAD2 = 10,    /* d2/dx2 gelu = phi(x) (2 - x^2) */
    GELUREF_GELU_SCALED = 11    /* x Phi(x/s), s > 0 (config.scale in the dtype layer) */
};
#define GELUREF_FUNC_FIRST GELUREF_GELU
#define GELUREF_FUNC_LAST GELUREF_GELU_SCALED

/* dtypes: the numbers of the plug-in ABI (enum gelucheck_dtype). */
enum geluref_dtype { GELUREF_F64 = 1, GELUREF_F32 = 2, GELUREF_F16 = 3, GELUREF_BF16 = 4 };
#define GELUREF_DTYPE_FIRST GELUREF_F64
#define GELUREF_DTYPE_LAST GELUREF_BF16

enum geluref_status {
    GELUREF_OK = 0,
    GELUREF_E_PREC_CAP = 1, /* Ziv's loop reached config.prec_cap without deciding */
    GELUREF_E_INVALID = 2,  /* unknown func, dtype or rounding mode, or a bad scale */
    GELUREF_E_SYNTAX = 3    /* geluref_parse: the text is not a number of the accepted forms */
};
GELUREF_API const char *geluref_strerror(enum geluref_status st);
/* The version of the library actually loaded (GELUREF_VERSION_STRING is the header's). */
GELUREF_API const char *geluref_version(void);

/* Names as in docs/design.md section 2: "gelu", "gelu_tanh", ..., "gelu_grad2", "gelu_scaled";
 * "f64", "f32", "f16", "bf16"; rounding "rn", "rz", "ru", "rd". NULL / nonzero when unknown. */
GELUREF_API const char *geluref_func_name(enum geluref_func f);
GELUREF_API int geluref_func_from_name(const char *name, enum geluref_func *f);
GELUREF_API const char *geluref_dtype_name(enum geluref_dtype dt);
GELUREF_API int geluref_dtype_from_name(const char *name, enum geluref_dtype *dt);
GELUREF_API const char *geluref_rnd_name(mpfr_rnd_t rnd);
GELUREF_API int geluref_rnd_from_name(const char *name, mpfr_rnd_t *rnd);

/* The shape of a dtype, in IEEE 754 terms. */
struct geluref_dtype_info {
    const char *name;
    int bits;          /* storage width: 64, 32, 16, 16 */
    int prec;          /* significand bits including the implicit one: 53, 24, 11, 8 */
    int emin;          /* exponent of the smallest normal: 2^emin (-1022, -126, -14, -126) */
    int emax;          /* exponent of the largest finite binade (1023, 127, 15, 127) */
    int exp_bits;      /* width of the exponent field */
};
/* NULL if dt is unknown */
GELUREF_API const struct geluref_dtype_info *geluref_dtype_info(enum geluref_dtype dt);

/* Evaluation settings.  Initialise with GELUREF_CONFIG_INIT or geluref_config_init(). */
struct geluref_config {
    mpfr_prec_t prec_cap; /* largest working precision Ziv's loop may use (bits) */
    double scale;         /* s of gelu_scaled in the dtype layer; finite, > 0 */
};
#define GELUREF_PREC_CAP_DEFAULT 16384
#define GELUREF_CONFIG_INIT { GELUREF_PREC_CAP_DEFAULT, 1.0 }
GELUREF_API void geluref_config_init(struct geluref_config *cfg);

/* Optional counters, added to (never reset) by every call that is given one. */
struct geluref_stats {
    uint64_t calls;       /* evaluations */
    uint64_t special;     /* decided up front: NaN, infinities, zeros, exact cases */
    uint64_t rule;        /* decided by a documented rule (saturation, near 0, deep tail) */
    uint64_t ziv;         /* decided by Ziv's loop */
    uint64_t ziv_retries; /* Ziv iterations beyond the first (first-try failures) */
    uint64_t cap_hits;    /* calls that returned GELUREF_E_PREC_CAP */
    mpfr_prec_t max_prec; /* largest working precision used */
    /* appended in 0.2.0: geluref_eval_odd() */
    uint64_t fast;        /* decided by the fast path */
    uint64_t fast_miss;   /* the fast path could not decide: the MPFR path did */
};

/* ---- MPFR-style layer: correctly rounded at y's precision, ternary value returned. ----
 * The evaluation uses MPFR's widest exponent range; the result is then checked against the
 * caller's range (mpfr_check_range).  If the precision cap is reached (not expected for any
 * input: see reference/README.md), y is set to NaN, the erange flag is raised and 0 returned;
 * use geluref_eval_mpfr() to get the status instead. */
GELUREF_API int geluref_gelu(mpfr_ptr y, mpfr_srcptr x, mpfr_rnd_t rnd);
GELUREF_API int geluref_gelu_tanh(mpfr_ptr y, mpfr_srcptr x, mpfr_rnd_t rnd);
GELUREF_API int geluref_gelu_sigmoid(mpfr_ptr y, mpfr_srcptr x, mpfr_rnd_t rnd);
GELUREF_API int geluref_gelu_grad(mpfr_ptr y, mpfr_srcptr x, mpfr_rnd_t rnd);
GELUREF_API int geluref_gelu_tanh_grad(mpfr_ptr y, mpfr_srcptr x, mpfr_rnd_t rnd);
GELUREF_API int geluref_normcdf(mpfr_ptr y, mpfr_srcptr x, mpfr_rnd_t rnd);
GELUREF_API int geluref_normpdf(mpfr_ptr y, mpfr_srcptr x, mpfr_rnd_t rnd);
GELUREF_API int geluref_erf(mpfr_ptr y, mpfr_srcptr x, mpfr_rnd_t rnd);
GELUREF_API int geluref_erfc(mpfr_ptr y, mpfr_srcptr x, mpfr_rnd_t rnd);
GELUREF_API int geluref_gelu_grad2(mpfr_ptr y, mpfr_srcptr x, mpfr_rnd_t rnd);
GELUREF_API int geluref_gelu_scaled(mpfr_ptr y, mpfr_srcptr x, mpfr_srcptr s, mpfr_rnd_t rnd);

/* The same with a status.  s is used by GELUREF_GELU_SCALED only (may be NULL otherwise);
 * cfg and stats may be NULL.  On error y is NaN and *ternary 0. */
GELUREF_API enum geluref_status geluref_eval_mpfr(enum geluref_func f, mpfr_ptr y, mpfr_srcptr x,
                                                  mpfr_srcptr s, mpfr_rnd_t rnd,
                                                  const struct geluref_config *cfg,
                                                  struct geluref_stats *stats, int *ternary);

/* ---- dtype layer ----
 * x: the input's bit pattern in the low bits (f16/bf16: 16 bits, f32: 32, f64: 64).
 * *y: the correctly rounded result's bit pattern in the same dtype.  rnd: MPFR_RNDN, RNDZ,
 * RNDU or RNDD.  cfg and stats may be NULL.  NaN in gives the dtype's default quiet NaN. */
GELUREF_API enum geluref_status geluref_eval(enum geluref_func f, enum geluref_dtype dt, uint64_t x,
                                             mpfr_rnd_t rnd, uint64_t *y,
                                             const struct geluref_config *cfg,
                                             struct geluref_stats *stats);

/* ---- the measurement layer: f(x) rounded to odd at p + 16 bits ----
 * Rounding f(x) to odd at P = p + 16 bits (RZ, then the last bit set when inexact) and then
 * into the dtype in any mode gives the same bits as rounding f(x) once (S. Boldo,
 * G. Melquiond, IEEE Trans. Computers 57(4), 2008, theorem 1: P >= p + 2 suffices), and the
 * value is within 2^-(p+15) of f(x) relatively: what an error measurement needs (docs/design.md
 * section 4).  One evaluation gives RN, RD, RU and the ulp error.
 *
 * Two paths give the same result bit for bit (tests/reference/test_fast.c):
 *  GELUREF_PATH_MPFR: geluref_eval_mpfr() in RZ at P bits, MPFR's widest exponent range.
 *  GELUREF_PATH_FAST: double-double evaluation with a proved error bound (reference/src/
 *    fast*.c, reference/README.md "The fast path") for every function but gelu_scaled;
 *    whenever the bound cannot decide the rounding (and for gelu_scaled and for NaN,
 *    infinite and zero inputs), the MPFR path.
 * Values below 2^(emin - p + 1 - 1076) in magnitude (emin, p of the dtype: f64 2^-2150, f32
 * 2^-1225, f16 2^-1100, bf16 2^-1209) are reported as GELUREF_ODD_TINY with their sign only:
 * for them |y - f(x)| / ulp(f(x)) rounds to the same double for every output y as if f(x) were
 * 0 (it is below 2^-1076 ulp of the smallest subnormal), and so do the absolute and relative
 * errors (reference/README.md), so no measurement needs their digits. */
enum geluref_odd_kind {
    GELUREF_ODD_FINITE = 0, /* sig and exp below hold the rounded-to-odd value */
    GELUREF_ODD_TINY = 1,   /* 0 < |f(x)| < 2^(emin - p + 1 - 1076): sign only */
    GELUREF_ODD_ZERO = 2,   /* f(x) is a zero of sign neg */
    GELUREF_ODD_INF = 3,    /* f(x) is an infinity of sign neg */
    GELUREF_ODD_NAN = 4     /* f(x) is NaN (x is NaN) */
};
enum geluref_path { GELUREF_PATH_FAST = 0, GELUREF_PATH_MPFR = 1 };
struct geluref_odd {
    enum geluref_odd_kind kind;
    int neg;            /* the sign of f(x) (of a zero or an infinity too) */
    uint64_t sig_hi;    /* FINITE: |f(x)| rounded to odd = (sig_hi 2^64 + sig_lo) 2^exp, the */
    uint64_t sig_lo;    /* significand exactly prec bits long (its top bit set) */
    int64_t exp;
    int prec;           /* P = p + 16 */
    int exact;          /* FINITE: f(x) is that value exactly (no rounding happened) */
    uint64_t rn, rd, ru; /* f(x) rounded into the dtype in each mode (bits); for NaN the
                            dtype's default quiet NaN */
};
/* Evaluates f at x (dtype bits); cfg (NULL: defaults) and stats may be NULL.  Status as
 * geluref_eval(); on error *out is unspecified. */
GELUREF_API enum geluref_status geluref_eval_odd(enum geluref_func f, enum geluref_dtype dt,
                                                 uint64_t x, enum geluref_path path,
                                                 const struct geluref_config *cfg,
                                                 struct geluref_stats *stats,
                                                 struct geluref_odd *out);
/* appended after 0.2.0: the same for x[0..n-1] into out[0..n-1], as n calls of
 * geluref_eval_odd() give them, with the per-call set-up done once (a sweep's batches).
 * Returns GELUREF_OK, or the first failing input's status with *failed (may be NULL) its
 * index; out[i] for i before it are set, the rest unspecified. */
GELUREF_API enum geluref_status geluref_eval_odd_n(enum geluref_func f, enum geluref_dtype dt,
                                                   const uint64_t *x, size_t n,
                                                   enum geluref_path path,
                                                   const struct geluref_config *cfg,
                                                   struct geluref_stats *stats,
                                                   struct geluref_odd *out, size_t *failed);

/* appended after 0.2.0: how far the rule that decides x reaches (geluref_eval_odd_run).  The
 * fast path decides the deep tails, the saturated ranges and the neighbourhood of 0 by rules
 * (reference/README.md "The fast path"); each is the branch taken for every input in an open interval
 * (lo, hi) of values, and there the result follows from the input alone:
 *  - GELUREF_RUN_SAME: every input x' of the dtype with lo < x' < hi has the very result of
 *    x (every field of struct geluref_odd);
 *  - GELUREF_RUN_SCALED: every such x' has f(x') = x' 2^k (1 + dir d) with 0 < d < 2^-prec
 *    (dir = +1: away from 0, -1: toward 0), so f(x') rounded to odd at prec bits is the odd
 *    end of the open prec-bit cell next to x' 2^k on that side;
 *  - GELUREF_RUN_NONE: no rule (x evaluated on its own, or by the MPFR path); lo, hi, k and
 *    dir are then 1, 0, 0, 0.
 * A sweep uses it to judge the inputs after x without evaluating them (suites/ulp.c). */
enum geluref_run_kind { GELUREF_RUN_NONE = 0, GELUREF_RUN_SAME = 1, GELUREF_RUN_SCALED = 2 };
struct geluref_odd_run {
    enum geluref_run_kind kind;
    double lo, hi; /* the open interval of input values where the rule holds */
    int k, dir;    /* GELUREF_RUN_SCALED: f(x') = x' 2^k (1 + dir d) */
};
/* geluref_eval_odd() that also reports, in *run, the rule that decided x (GELUREF_RUN_NONE
 * when none did); run may be NULL. */
GELUREF_API enum geluref_status geluref_eval_odd_run(enum geluref_func f, enum geluref_dtype dt,
                                                     uint64_t x, enum geluref_path path,
                                                     const struct geluref_config *cfg,
                                                     struct geluref_stats *stats,
                                                     struct geluref_odd *out,
                                                     struct geluref_odd_run *run);

/* appended after 0.2.0: cheap enclosures of f(x) in plain double (reference/README.md "The
 * double tier"), for a sweep that decides most of its binary32 measurements without the value
 * rounded to odd (the ulp suite) and asks geluref_eval_odd() for the rest.  For each x[i] (a
 * double; every binary32 value is one) in the range served, ok[i] = 1 and, with m != 0 of
 * f(x[i])'s sign and 0 < err <= 2^-40 |m| (1 + 2^-40):
 *   side = 0:  f(x[i]) = (m + d) 2^e with |d| <= err;
 *   side = -1: |f(x[i])| = (|m| - d) 2^e with 0 < d < err (just below |m| 2^e: saturation
 *              toward a constant or x from below, where m holds that value exactly);
 *   side = +1: |f(x[i])| = (|m| + d) 2^e with 0 < d < err.
 * Elsewhere (|x| < 2^-500, the tails beyond each function's range, the zeros of gelu_grad and
 * gelu_tanh_grad, the functions 10 and 11, NaN and infinities) ok[i] = 0 and out[i]
 * unspecified.  Returns the number of x[i] with ok[i] = 1. */
struct geluref_encl {
    double m, err;
    int64_t e;
    int side;
};
GELUREF_API size_t geluref_enclose_n(enum geluref_func f, const double *x, size_t n,
                                     struct geluref_encl *out, unsigned char *ok);

/* appended after 0.2.0: +1 when f is known non-decreasing on [lo, hi] (closed; infinite ends
 * allowed), -1 when known non-increasing, 0 when not known (a NaN end, lo > hi, an interval
 * holding an extremum or its neighbourhood, gelu_tanh_grad beyond +-1.25, the functions 10
 * and 11).  Known: normcdf and erf increasing and erfc decreasing everywhere; normpdf
 * increasing up to 0 and decreasing from it; gelu decreasing up to -0.755 and increasing from
 * -0.748 (its minimum is at -0.7518); gelu_tanh and gelu_sigmoid decreasing up to -0.8 and
 * increasing from -0.7 (minima at -0.7525, -0.7512); gelu_grad decreasing up to -1.415,
 * increasing on [-1.414, 1.414], decreasing from 1.415 (extrema at -+sqrt2); gelu_tanh_grad
 * increasing on [-1.25, 1.25] (extrema at -+1.4185).  The ulp sweep bounds f over a run of
 * inputs by its enclosures at the run's ends (suites/ulp_lane.h). */
GELUREF_API int geluref_monotone(enum geluref_func f, double lo, double hi);

/* appended after 0.2.0: a bound M >= |f''(x)| for every x in [lo, hi], or -1 where none is
 * known (lo > hi, a NaN or infinite end, |x| beyond 2^10, the functions 10 and 11).  Known
 * for gelu, gelu_grad, normcdf, normpdf, erf, erfc and (since the sessions of 2026-12-05) the
 * approximations gelu_tanh, gelu_sigmoid and gelu_tanh_grad, from f'' in closed form
 * (reference/src/monotone.c); a bound, not the maximum (within a factor of a few of it, away
 * from f'''s zeros).  The ulp sweep bounds f between a
 * run's end enclosures by their chord and h^2 M / 8 (suites/ulp_lane.h). */
GELUREF_API double geluref_curvature(enum geluref_func f, double lo, double hi);

/* ---- dtype values ---- */
/* Sets v (any precision >= the dtype's) to the exact value of bits; NaN for NaN. */
GELUREF_API void geluref_bits_to_mpfr(mpfr_ptr v, enum geluref_dtype dt, uint64_t bits);
/* The dtype's bits of v, which must be exactly representable (finite, zero, inf or NaN);
 * returns nonzero (and leaves *bits alone) when it is not. */
GELUREF_API int geluref_mpfr_to_bits(enum geluref_dtype dt, mpfr_srcptr v, uint64_t *bits);
/* Rounds any MPFR value into the dtype in direction rnd (one rounding, subnormals honoured). */
GELUREF_API uint64_t geluref_round_to_bits(enum geluref_dtype dt, mpfr_srcptr v, mpfr_rnd_t rnd);

/* Parses a number for the dtype (docs/design.md section 11): raw bits "0x" + exactly 4 (f16,
 * bf16), 8 (f32) or 16 (f64) hex digits; a hex float, which must contain a 'p' exponent
 * ("-0x1.8p+1"); a decimal ("-5.6", "1e-3"); or "inf", "-inf", "nan" (any case, optional
 * sign; any NaN text gives the dtype's default quiet NaN).  Raw bits take no sign.  Decimal
 * and hex float are rounded to nearest-even into the dtype.  On failure returns
 * GELUREF_E_SYNTAX (GELUREF_E_INVALID for an unknown dtype) and, if why is not NULL, a static
 * string saying what is wrong. */
GELUREF_API enum geluref_status geluref_parse(const char *text, enum geluref_dtype dt,
                                              uint64_t *bits, const char **why);

/* Formatting into buf (always NUL-terminated when size > 0); returns the length the full
 * text needs, like snprintf.  dec: the shortest decimal that reads back to the same value
 * ("-0.15865525393145705", "1e-45", "-0", "inf", "nan"); hex: a normalised hex float
 * ("-0x1.8p+1", "0x0p+0"); bits: "0x" and the dtype's width in hex digits ("0xc0400000"). */
GELUREF_API size_t geluref_format_dec(char *buf, size_t size, enum geluref_dtype dt, uint64_t bits);
GELUREF_API size_t geluref_format_hex(char *buf, size_t size, enum geluref_dtype dt, uint64_t bits);
GELUREF_API size_t geluref_format_bits(char *buf, size_t size, enum geluref_dtype dt,
                                       uint64_t bits);

#ifdef __cplusplus
}
#endif
#endif /* GELUREF_H */
