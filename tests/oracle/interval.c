/* Interval arithmetic on MPFR: see interval.h.  Every MPFR call below rounds the lower end
 * toward -inf (RNDD) and the upper end toward +inf (RNDU); a comment says so where the
 * direction is not read off the line itself. */
#include "interval.h"

#include <stdbool.h>

/* Per-thread scratch: operations write one end into scratch and swap it in, so that r may
 * alias an operand.  Resized to r's precision on demand. */
static _Thread_local struct {
    bool ready;
    mpfr_t s[3];
} scratch;

static mpfr_ptr tmp(int i, mpfr_prec_t prec)
{
    if (!scratch.ready) {
        for (int k = 0; k < 3; k++)
            mpfr_init2(scratch.s[k], prec);
        scratch.ready = true;
    }
    if (mpfr_get_prec(scratch.s[i]) != prec)
        mpfr_set_prec(scratch.s[i], prec);
    return scratch.s[i];
}

void iv_scratch_release(void)
{
    if (!scratch.ready)
        return;
    for (int k = 0; k < 3; k++)
        mpfr_clear(scratch.s[k]);
    scratch.ready = false;
}

static mpfr_prec_t prec_of(const struct iv *r)
{
    return mpfr_get_prec(r->lo);
}

void iv_init(struct iv *a, mpfr_prec_t prec)
{
    mpfr_init2(a->lo, prec);
    mpfr_init2(a->hi, prec);
}

void iv_clear(struct iv *a)
{
    mpfr_clear(a->lo);
    mpfr_clear(a->hi);
}

void iv_set_prec(struct iv *a, mpfr_prec_t prec)
{
    mpfr_set_prec(a->lo, prec);
    mpfr_set_prec(a->hi, prec);
}

void iv_set_fr(struct iv *r, mpfr_srcptr v)
{
    mpfr_set(r->lo, v, MPFR_RNDD);
    mpfr_set(r->hi, v, MPFR_RNDU);
}

void iv_set_d(struct iv *r, double d)
{
    mpfr_set_d(r->lo, d, MPFR_RNDD);
    mpfr_set_d(r->hi, d, MPFR_RNDU);
}

void iv_set_q(struct iv *r, long p, unsigned long q)
{
    /* lo <= p then lo/q rounded down stays <= p/q since q > 0; hi symmetrically */
    mpfr_set_si(r->lo, p, MPFR_RNDD);
    mpfr_div_ui(r->lo, r->lo, q, MPFR_RNDD);
    mpfr_set_si(r->hi, p, MPFR_RNDU);
    mpfr_div_ui(r->hi, r->hi, q, MPFR_RNDU);
}

void iv_sqrt2(struct iv *r)
{
    mpfr_set_ui(r->lo, 2, MPFR_RNDN); /* exact */
    mpfr_sqrt(r->lo, r->lo, MPFR_RNDD);
    mpfr_set_ui(r->hi, 2, MPFR_RNDN); /* exact */
    mpfr_sqrt(r->hi, r->hi, MPFR_RNDU);
}

void iv_pi(struct iv *r)
{
    mpfr_const_pi(r->lo, MPFR_RNDD);
    mpfr_const_pi(r->hi, MPFR_RNDU);
}

void iv_add(struct iv *r, const struct iv *a, const struct iv *b)
{
    /* each end reads only the same ends of a and b: aliasing is harmless */
    mpfr_add(r->lo, a->lo, b->lo, MPFR_RNDD);
    mpfr_add(r->hi, a->hi, b->hi, MPFR_RNDU);
}

void iv_sub(struct iv *r, const struct iv *a, const struct iv *b)
{
    mpfr_ptr lo = tmp(0, prec_of(r));
    mpfr_sub(lo, a->lo, b->hi, MPFR_RNDD);
    mpfr_sub(r->hi, a->hi, b->lo, MPFR_RNDU);
    mpfr_swap(r->lo, lo);
}

/* The product bound x*y rounded in direction rnd, with the interval convention 0 * inf = 0
 * (an infinite end is an overflowed bound of a finite quantity; 0 is an exact factor). */
static void bound_mul(mpfr_ptr z, mpfr_srcptr x, mpfr_srcptr y, mpfr_rnd_t rnd)
{
    mpfr_mul(z, x, y, rnd);
    if (mpfr_nan_p(z))
        mpfr_set_zero(z, 1);
}

void iv_mul(struct iv *r, const struct iv *a, const struct iv *b)
{
    mpfr_prec_t prec = prec_of(r);
    mpfr_ptr lo = tmp(0, prec), hi = tmp(1, prec), t = tmp(2, prec);
    mpfr_srcptr ae[2] = { a->lo, a->hi }, be[2] = { b->lo, b->hi };
    mpfr_set_inf(lo, 1);
    mpfr_set_inf(hi, -1);
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++) {
            bound_mul(t, ae[i], be[j], MPFR_RNDD); /* candidate for the minimum, rounded down */
            mpfr_min(lo, lo, t, MPFR_RNDD);
            bound_mul(t, ae[i], be[j], MPFR_RNDU); /* candidate for the maximum, rounded up */
            mpfr_max(hi, hi, t, MPFR_RNDU);
        }
    mpfr_swap(r->lo, lo);
    mpfr_swap(r->hi, hi);
}

int iv_div(struct iv *r, const struct iv *a, const struct iv *b)
{
    if (mpfr_sgn(b->lo) <= 0 && mpfr_sgn(b->hi) >= 0)
        return 1; /* b contains 0 (or is NaN) */
    mpfr_prec_t prec = prec_of(r);
    mpfr_ptr lo = tmp(0, prec), hi = tmp(1, prec), t = tmp(2, prec);
    mpfr_srcptr ae[2] = { a->lo, a->hi }, be[2] = { b->lo, b->hi };
    bool lost = false;
    mpfr_set_inf(lo, 1);
    mpfr_set_inf(hi, -1);
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++) {
            mpfr_div(t, ae[i], be[j], MPFR_RNDD); /* candidate for the minimum, rounded down */
            lost |= mpfr_nan_p(t) != 0;           /* inf/inf bounds nothing */
            mpfr_min(lo, lo, t, MPFR_RNDD);
            mpfr_div(t, ae[i], be[j], MPFR_RNDU); /* candidate for the maximum, rounded up */
            mpfr_max(hi, hi, t, MPFR_RNDU);
        }
    if (lost) { /* the enclosure is gone: say so with NaN (see iv_nan_p) */
        mpfr_set_nan(lo);
        mpfr_set_nan(hi);
    }
    mpfr_swap(r->lo, lo);
    mpfr_swap(r->hi, hi);
    return 0;
}

void iv_neg(struct iv *r, const struct iv *a)
{
    mpfr_ptr lo = tmp(0, prec_of(r));
    mpfr_neg(lo, a->hi, MPFR_RNDD);
    mpfr_neg(r->hi, a->lo, MPFR_RNDU);
    mpfr_swap(r->lo, lo);
}

void iv_sqr(struct iv *r, const struct iv *a)
{
    if (mpfr_sgn(a->lo) >= 0) { /* 0 <= lo <= hi: increasing */
        mpfr_sqr(r->lo, a->lo, MPFR_RNDD);
        mpfr_sqr(r->hi, a->hi, MPFR_RNDU);
    } else if (mpfr_sgn(a->hi) <= 0) { /* lo <= hi <= 0: decreasing */
        mpfr_ptr lo = tmp(0, prec_of(r));
        mpfr_sqr(lo, a->hi, MPFR_RNDD);
        mpfr_sqr(r->hi, a->lo, MPFR_RNDU);
        mpfr_swap(r->lo, lo);
    } else { /* lo < 0 < hi: the minimum 0 is attained */
        mpfr_ptr hi = tmp(0, prec_of(r));
        mpfr_sqr(hi, a->lo, MPFR_RNDU);
        mpfr_sqr(r->hi, a->hi, MPFR_RNDU);
        mpfr_max(r->hi, r->hi, hi, MPFR_RNDU);
        mpfr_set_zero(r->lo, 1);
    }
}

void iv_add_si(struct iv *r, const struct iv *a, long k)
{
    mpfr_add_si(r->lo, a->lo, k, MPFR_RNDD);
    mpfr_add_si(r->hi, a->hi, k, MPFR_RNDU);
}

void iv_si_sub(struct iv *r, long k, const struct iv *a)
{
    mpfr_ptr lo = tmp(0, prec_of(r));
    mpfr_si_sub(lo, k, a->hi, MPFR_RNDD);
    mpfr_si_sub(r->hi, k, a->lo, MPFR_RNDU);
    mpfr_swap(r->lo, lo);
}

void iv_mul_2si(struct iv *r, const struct iv *a, long k)
{
    /* exact unless it leaves the exponent range; then the direction keeps the bound */
    mpfr_mul_2si(r->lo, a->lo, k, MPFR_RNDD);
    mpfr_mul_2si(r->hi, a->hi, k, MPFR_RNDU);
}

typedef int (*mfun)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t);

/* f at the exact point x with one evaluation: RNDD gives the lower end; when it was inexact
 * the value lies strictly between it and its successor (also at overflow and underflow:
 * max -> inf, +0 -> the least positive number). */
static void point(struct iv *r, mpfr_srcptr x, mfun f)
{
    int t = f(r->lo, x, MPFR_RNDD); /* r->lo may alias x: x is not read again */
    mpfr_set(r->hi, r->lo, MPFR_RNDU); /* exact: same precision */
    if (t != 0)
        mpfr_nextabove(r->hi);
}

static void mono_inc(struct iv *r, const struct iv *a, mfun f)
{
    if (mpfr_equal_p(a->lo, a->hi)) {
        point(r, a->lo, f);
        return;
    }
    f(r->lo, a->lo, MPFR_RNDD); /* increasing: lower end from a.lo, rounded down */
    f(r->hi, a->hi, MPFR_RNDU); /* upper end from a.hi, rounded up */
}

static void mono_dec(struct iv *r, const struct iv *a, mfun f)
{
    if (mpfr_equal_p(a->lo, a->hi)) {
        point(r, a->lo, f);
        return;
    }
    mpfr_ptr lo = tmp(0, prec_of(r));
    f(lo, a->hi, MPFR_RNDD);    /* decreasing: lower end from a.hi, rounded down */
    f(r->hi, a->lo, MPFR_RNDU); /* upper end from a.lo, rounded up */
    mpfr_swap(r->lo, lo);
}

void iv_exp(struct iv *r, const struct iv *a) { mono_inc(r, a, mpfr_exp); }
void iv_tanh(struct iv *r, const struct iv *a) { mono_inc(r, a, mpfr_tanh); }
void iv_erf(struct iv *r, const struct iv *a) { mono_inc(r, a, mpfr_erf); }
void iv_erfc(struct iv *r, const struct iv *a) { mono_dec(r, a, mpfr_erfc); }

void iv_sqrt(struct iv *r, const struct iv *a)
{
    if (mpfr_sgn(a->lo) < 0) { /* sqrt is defined on [0, hi] only */
        mpfr_sqrt(r->hi, a->hi, MPFR_RNDU);
        mpfr_set_zero(r->lo, 1);
        return;
    }
    mono_inc(r, a, mpfr_sqrt);
}

int iv_meet_lo_si(struct iv *r, long k)
{
    if (iv_nan_p(r) || mpfr_cmp_si(r->hi, k) < 0)
        return 1;
    if (mpfr_cmp_si(r->lo, k) < 0)
        mpfr_set_si(r->lo, k, MPFR_RNDD); /* <= k: the bound stays valid */
    return 0;
}

int iv_meet_hi_si(struct iv *r, long k)
{
    if (iv_nan_p(r) || mpfr_cmp_si(r->lo, k) > 0)
        return 1;
    if (mpfr_cmp_si(r->hi, k) > 0)
        mpfr_set_si(r->hi, k, MPFR_RNDU); /* >= k */
    return 0;
}

int iv_nan_p(const struct iv *a)
{
    return mpfr_nan_p(a->lo) || mpfr_nan_p(a->hi);
}
