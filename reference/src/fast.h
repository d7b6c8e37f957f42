/* The fast path of the reference (internal, prefix gr_fast_): f(x) in double-double with a
 * rigorous error bound, decided into the value rounded to odd that geluref_eval_odd()
 * returns, or left to the MPFR path when the bound cannot decide it.  The error analysis of
 * each function is in fast_fn.c and fast_phi.c; reference/README.md ("The fast path") sums
 * it up; tests/reference/test_fast.c compares both paths bit for bit. */
#ifndef GELUREF_FAST_H
#define GELUREF_FAST_H

#include <stdint.h>

#include "dd.h"
#include "geluref.h"

/* ---- tables (fast_tables.c, written by reference/gen/gen_fast_tables.c) ---- */
#define GR_M_POINTS 1936 /* Mills-ratio grid z_i = i/32, i < GR_M_POINTS */
#define GR_M_ZMAX 60.4   /* largest z the grid serves (|z - z_i| <= 1/64) */
#define GR_ERF_TERMS 10
extern const double gr_fast_mh[GR_M_POINTS][8], gr_fast_ml[GR_M_POINTS][8],
    gr_fast_mt[GR_M_POINTS][8];
extern const dd gr_fast_exp2[1024];
extern const double gr_fast_ln2_1, gr_fast_ln2_2, gr_fast_ln2_3;
extern const dd gr_fast_inv_sqrt2pi, gr_fast_sqrt2, gr_fast_sqrt_2_pi, gr_fast_two_sqrtpi,
    gr_fast_tanh_c, gr_fast_sigmoid_c, gr_fast_erf_c[GR_ERF_TERMS];

/* A value with its bound: f = (m.hi + m.lo) 2^e + d with |d| <= err 2^e, m normalised
 * (m.hi = RN(m.hi + m.lo)).  kind says which of three things an evaluator established. */
enum gr_fx_kind {
    GR_FX_NONE = 0, /* nothing: the MPFR path decides */
    GR_FX_VALUE,    /* the enclosure above */
    GR_FX_CELL,     /* f lies in the same open cell between (p+16)-bit numbers as every point
                       of the enclosure: a rule (saturation, x/2 + tiny) names a stand-in
                       interval inside that cell; the rounding to odd is the same */
    GR_FX_TINY      /* |f| < the dtype's negligible bound (GR_TINY_LOG2 below); sign in m.hi */
};
struct gr_fx {
    enum gr_fx_kind kind;
    dd m;
    int64_t e;
    double err;
    int prec; /* the precision the result is decided at (p + 16), for the rules' stand-ins */
    double cell_c; /* GR_FX_CELL: f(x) lies in the open cell next to cell_c 2^e (cell_c in */
    int cell_dir;  /* +-[1/2, 1), a p-bit number): away from 0 (cell_dir = +1) or toward 0
                      (-1) */
    double run_lo, run_hi; /* a rule whose result does not depend on x (a TINY, or the cell
                              next to a constant) sets the open interval of x where that rule
                              is the branch taken: every x in it gives this same gr_fx, so a
                              batch of consecutive inputs copies the result
                              (geluref_eval_odd_n); empty (run_lo >= run_hi) otherwise */
    int run_cx;            /* 1: in (run_lo, run_hi) the rule is instead the cell next to
                              x 2^run_k on the side run_dir (cell_k in fast_fn.c), a result
                              that depends on x only through that */
    int run_k, run_dir;
    int tier;              /* 1: a GR_FX_VALUE of the double tier (gelu, prec <= 40), whose
                              wider bound may not decide: then the caller evaluates again with
                              GR_FX_NO_DOUBLE (odd.c fast()) */
    int no_double;         /* set from GR_FX_NO_DOUBLE: the double tier is not tried */
};

/* P(q) - 1 for gelu's series near 0, P(t) = 1 - t/6 + t^2/40 - t^3/336 (fast_fn.c gelu_series,
 * whose comment gives its error; odd.c's binary32 lane uses the same). */
static inline double gr_gelu_series_pm1(double q)
{
    return q * (-1.0 / 6 + q * (1.0 / 40 + q * (-1.0 / 336)));
}

/* Or'ed into the precision passed to the evaluator: skip the double tier. */
#define GR_FX_NO_DOUBLE 0x10000

/* |f| below 2^tiny_log2(dtype) changes no measurement (geluref.h, GELUREF_ODD_TINY). */
int gr_tiny_log2(enum geluref_dtype dt);

/* The fast evaluation of f at x (a double holding the dtype value exactly), for a result to
 * be decided at prec bits.  Returns the kind of what it established in out.
 * fast_fn.c is compiled twice: gr_fast_eval_generic for every CPU and, on x86-64,
 * gr_fast_eval_fma with -mfma, so that fma() is one instruction instead of a library call;
 * fma() is correctly rounded either way (and nothing else is contracted: -ffp-contract=off),
 * and the double parts written GR_MULADD round once (FMA) or twice, which their bounds charge,
 * so both decide the same values (tests/reference/test_fast_enclosure.c checks both builds'
 * enclosures against f(x)).  gr_fast_eval picks the one the CPU supports. */
enum gr_fx_kind gr_fast_eval_generic(enum geluref_func f, double x, int prec,
                                     struct gr_fx *out);
enum gr_fx_kind gr_fast_eval_fma(enum geluref_func f, double x, int prec, struct gr_fx *out);
enum gr_fx_kind gr_fast_eval(enum geluref_func f, double x, int prec, struct gr_fx *out);

/* The double tier of every function (fast_fn.c, geluref_enclose_n): 0 with *o set, or -1;
 * compiled in both builds like gr_fast_eval. */
int gr_fast_encl_generic(enum geluref_func f, double x, struct geluref_encl *o);
int gr_fast_encl_fma(enum geluref_func f, double x, struct geluref_encl *o);
size_t gr_fast_encl_n_generic(enum geluref_func f, const double *x, size_t n,
                              struct geluref_encl *out, unsigned char *ok);
size_t gr_fast_encl_n_fma(enum geluref_func f, const double *x, size_t n,
                          struct geluref_encl *out, unsigned char *ok);
/* gr_fast_encl_n_fma's enclosures four inputs at a time (fast_vec.c, x86-64 with AVX2 and
 * FMA): the same bits. */
size_t gr_fast_encl_n_avx2(enum geluref_func f, const double *x, size_t n,
                           struct geluref_encl *out, unsigned char *ok);
/* And eight at a time (the same source with GR_VEC_W = 8, x86-64 with AVX-512 F, DQ and VL,
 * AVX2 and FMA): the same bits. */
size_t gr_fast_encl_n_avx512(enum geluref_func f, const double *x, size_t n,
                             struct geluref_encl *out, unsigned char *ok);
/* gr_fast_encl_n_avx512 where the CPU reports what it needs (and the build has it). */
int gr_fast_avx512(void);
/* The enclosures gr_fast_encl_n_avx2 and gr_fast_encl_n_avx512 served from their vector lanes
 * on this thread (not handed to gr_fast_encl_fma; eight at a time: its eight-wide lanes only):
 * for the tests, which must see the vector path at work. */
extern _Thread_local unsigned long gr_fast_vec_lanes, gr_fast_vec_lanes8;

/* ---- building blocks (fast_phi.h) ---- */
/* e^(-y) = m 2^(-q) (1 + t), |t| <= GR_EPS_EXP, for y = y.hi + y.lo in [0, GR_EXP_YMAX]. */
#define GR_EXP_YMAX 2048.0
#define GR_EPS_EXP 0x1p-100
/* M(z) for z = z.hi + z.lo in [0, GR_M_ZMAX]: relative error <= GR_EPS_M (z taken exact). */
#define GR_EPS_M 0x1p-101
/* The light variants, for results decided at p + 16 <= GR_LIGHT_PREC bits (binary32 and
 * narrower): about three times faster, error bounds 2^-67 and 2^-74, far below the 2^-40 of
 * a cell (the bound is checked for every value, so a wider one only sends more to MPFR). */
#define GR_LIGHT_PREC 40
#define GR_EPS_M_LIGHT 0x1p-66
#define GR_EPS_EXP_LIGHT 0x1p-74

#endif
