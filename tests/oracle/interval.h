/* Interval arithmetic on MPFR for the test oracle (tests/oracle/).
 *
 * An interval [lo, hi] holds two mpfr_t of one precision with lo <= v <= hi for the exact real
 * v it stands for.  Every operation rounds lo downward (MPFR_RNDD) and hi upward (MPFR_RNDU),
 * so containment is kept by construction; monotone functions take the endpoint that gives the
 * bound (erfc is decreasing, so r.lo = erfc(a.hi) rounded down).
 *
 * Overflow and underflow: MPFR's directed rounding is consistent at the ends of the exponent
 * range too (RNDD: an overflow gives the largest finite number, an underflow +0 or -min; RNDU
 * symmetrically), so containment holds in any exponent range.  The oracle runs everything in
 * MPFR's widest range (mpfr_get_emin_min() .. mpfr_get_emax_max()) so that nothing decidable is
 * lost to underflow; values made in another range must not be mixed in.
 *
 * All results take the precision of r.  Every operation accepts r aliasing any operand.
 * This code is independent of reference/ and must stay so: it is the reference's judge.
 */
#ifndef GC_INTERVAL_H
#define GC_INTERVAL_H

#include <stdint.h>
#include <mpfr.h>

struct iv {
    mpfr_t lo; /* lower bound, rounded toward -inf */
    mpfr_t hi; /* upper bound, rounded toward +inf */
};

void iv_init(struct iv *a, mpfr_prec_t prec);
void iv_clear(struct iv *a);
/* Changes the precision (contents lost). */
void iv_set_prec(struct iv *a, mpfr_prec_t prec);

/* Constants and inputs. */
void iv_set_fr(struct iv *r, mpfr_srcptr v);        /* [v, v] if v fits r's precision */
void iv_set_d(struct iv *r, double d);              /* [d, d] for a finite double */
void iv_set_q(struct iv *r, long p, unsigned long q); /* p/q, q > 0 */
void iv_sqrt2(struct iv *r);
void iv_pi(struct iv *r);

/* Arithmetic. */
void iv_add(struct iv *r, const struct iv *a, const struct iv *b);
void iv_sub(struct iv *r, const struct iv *a, const struct iv *b);
void iv_mul(struct iv *r, const struct iv *a, const struct iv *b);
/* Returns nonzero (r untouched) when b contains 0. */
int iv_div(struct iv *r, const struct iv *a, const struct iv *b);
void iv_neg(struct iv *r, const struct iv *a);
void iv_sqr(struct iv *r, const struct iv *a);
void iv_add_si(struct iv *r, const struct iv *a, long k); /* a + k */
void iv_si_sub(struct iv *r, long k, const struct iv *a); /* k - a */
void iv_mul_2si(struct iv *r, const struct iv *a, long k); /* a * 2^k */

/* Elementary functions. */
void iv_exp(struct iv *r, const struct iv *a);
void iv_tanh(struct iv *r, const struct iv *a);
void iv_erf(struct iv *r, const struct iv *a);
void iv_erfc(struct iv *r, const struct iv *a);
void iv_sqrt(struct iv *r, const struct iv *a); /* the part of a below 0 is dropped */

/* Intersections with a known half-line (a proven fact about the exact value).  They return
 * nonzero when the result would be empty, which means a bug: the fact or the enclosure is
 * wrong. */
int iv_meet_lo_si(struct iv *r, long k); /* r := r meet [k, +inf) */
int iv_meet_hi_si(struct iv *r, long k); /* r := r meet (-inf, k] */

/* Nonzero when an endpoint is NaN (e.g. 0 * inf): the enclosure is lost. */
int iv_nan_p(const struct iv *a);

/* Frees this thread's scratch variables (they are remade on demand). */
void iv_scratch_release(void);

#endif /* GC_INTERVAL_H */
