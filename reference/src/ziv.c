/* Ziv's loop and the two rule helpers every function uses.  The error analysis that makes
 * each step sound is in reference/README.md; the comments here say which bound is used. */
#include <math.h>

#include "internal.h"

/* Rules receive log2 bounds computed in double.  Each such bound is a sum of a few products
 * of doubles, each rounded to nearest: relative error < 2^-50 in all.  Widening by
 * |L| 2^-30 + 2^-20 covers that with a wide margin; the result is the exponent bexp with
 * delta < 2^bexp.  Clamped to +-2^60 (beyond MPFR's exponents, so still a valid bound). */
static long bound_exp(double l)
{
    if (l == -HUGE_VAL)
        return -(long)0x1p60;
    double w = l + fabs(l) * 0x1p-30 + 0x1p-20;
    if (!(w < 0x1p60)) /* also NaN: no bound, no rule */
        return (long)0x1p60;
    if (w < -0x1p60)
        return -(long)0x1p60;
    return (long)ceil(w);
}

long gr_exp(mpfr_srcptr x)
{
    if (!mpfr_regular_p(x))
        return 0;
    mpfr_exp_t e = mpfr_get_exp(x);
    return e > 1000000 ? 1000000 : e < -1000000 ? -1000000 : (long)e;
}

double gr_abs_lo(mpfr_srcptr x)
{
    /* RNDZ gives a lower bound of |x|; saturated at 2^300 so that lo^3 stays finite: a bound
     * computed with lo = 2^300 is still a valid (weaker) bound. */
    double l = fabs(mpfr_get_d(x, MPFR_RNDZ));
    return l > 0x1p300 ? 0x1p300 : l;
}

void gr_sqrt_half(mpfr_ptr c)
{
    mpfr_set_ui_2exp(c, 1, -1, MPFR_RNDN); /* exact */
    mpfr_sqrt(c, c, MPFR_RNDN);            /* rel err <= 2^-PREC(c) */
}

enum gr_outcome gr_decide_near(mpfr_ptr y, mpfr_srcptr a, int dir, double log2_bound,
                               mpfr_rnd_t rnd, int *ternary)
{
    mpfr_prec_t p = mpfr_get_prec(y), pa = mpfr_get_prec(a);
    mpfr_prec_t q = (pa > p + 1 ? pa : p + 1) + 2;
    long bexp = bound_exp(log2_bound);
    mpfr_exp_t ea = mpfr_get_exp(a); /* |a| in [2^(ea-1), 2^ea) */
    mpfr_t b, d, t;

    if (mpfr_min_prec(a) <= p + 1) {
        /* a is a (p+1)-bit number: the next one in direction dir is 2^(ea-p-1) away, or half
         * that when moving toward 0 from a power of two (the binade below is finer). */
        int toward0 = (dir > 0) != (mpfr_sgn(a) > 0);
        long dexp = (long)ea - (long)p - 1 - (toward0 && mpfr_min_prec(a) == 1 ? 1 : 0);
        if (bexp > dexp)
            return GR_UNDECIDED;
    } else {
        /* a lies inside a cell: its end in direction dir is a rounded to p+1 bits that way;
         * the distance is computed exactly (q + p bits hold it: both are multiples of
         * 2^(ea-1-q) and their difference is below 2^ea). */
        mpfr_init2(b, p + 1);
        mpfr_init2(d, q + p + 2);
        mpfr_set(b, a, dir > 0 ? MPFR_RNDU : MPFR_RNDD);
        int exact = mpfr_sub(d, b, a, MPFR_RNDN) == 0;
        int ok = exact && mpfr_regular_p(d) && bexp <= (long)mpfr_get_exp(d) - 1;
        mpfr_clear(b);
        mpfr_clear(d);
        if (!ok)
            return GR_UNDECIDED;
    }
    /* v and t = a + dir ulp_q(a) lie in the same open cell between (p+1)-bit numbers, so
     * they round alike at p bits, on the same side; t is not a p-bit number: ternary != 0. */
    mpfr_init2(t, q);
    mpfr_set(t, a, MPFR_RNDN); /* exact: q >= PREC(a) */
    if (dir > 0)
        mpfr_nextabove(t);
    else
        mpfr_nextbelow(t);
    *ternary = mpfr_set(y, t, rnd);
    mpfr_clear(t);
    return GR_DECIDED;
}

enum gr_outcome gr_decide_tail(mpfr_ptr y, int dir, double log2_bound, mpfr_rnd_t rnd,
                               const struct gr_target *tg, int *ternary)
{
    /* |v| < 2^bexp <= 2^(emin-2), half the smallest positive number 2^(emin-1): RN and the
     * rounding toward 0 give a zero of v's sign, the rounding away from 0 gives the smallest
     * number of v's sign.  The value is final: in range for the target, check_range and
     * subnormalize leave it alone. */
    if (bound_exp(log2_bound) > (long)tg->emin - 2)
        return GR_UNDECIDED;
    int away = (rnd == MPFR_RNDU && dir > 0) || (rnd == MPFR_RNDD && dir < 0);
    if (away) {
        mpfr_set_si_2exp(y, dir, tg->emin - 1, MPFR_RNDN);
        *ternary = dir; /* |y| > |v| on v's side */
    } else {
        mpfr_set_zero(y, dir);
        *ternary = -dir;
    }
    return GR_DECIDED;
}

/* Bits of the result that the target really holds: all of PREC(y) unless the target has
 * subnormals and b's binade lies below the normal range.  For RN one more bit, so that the
 * decision also places v relative to the midpoints (MPFR's mpfr_can_round trick).  A value
 * below half the smallest subnormal still needs its binade decided: 1 bit. */
static mpfr_prec_t decision_prec(mpfr_srcptr b, mpfr_prec_t p, mpfr_rnd_t rnd,
                                 const struct gr_target *tg)
{
    long bits = p;
    if (tg->subnormals) {
        long have = (long)mpfr_get_exp(b) - (long)tg->emin + 1;
        if (have < bits)
            bits = have;
    }
    if (bits < 1)
        return 1;
    return (mpfr_prec_t)bits + (rnd == MPFR_RNDN);
}

enum geluref_status gr_ziv(const struct gr_fn *fn, mpfr_ptr y, mpfr_srcptr x, mpfr_srcptr s,
                           mpfr_rnd_t rnd, const struct gr_target *tg,
                           struct geluref_stats *stats, int *ternary)
{
    mpfr_prec_t p = mpfr_get_prec(y), wp = fn->wp0(p, x, s);
    enum geluref_status st = GELUREF_E_PREC_CAP;
    mpfr_t b;

    if (wp < GR_WP_MIN)
        wp = GR_WP_MIN;
    if (wp > tg->prec_cap)
        wp = tg->prec_cap;
    if (wp < GR_WP_MIN)
        return GELUREF_E_PREC_CAP; /* a cap below what the error analyses assume */
    mpfr_init2(b, wp);
    for (;;) {
        mpfr_exp_t err = fn->approx(b, x, s);
        if (stats && wp > stats->max_prec)
            stats->max_prec = wp;
        if (err > 0 && mpfr_regular_p(b)
            && mpfr_can_round(b, err, MPFR_RNDN, MPFR_RNDZ, decision_prec(b, p, rnd, tg))) {
            *ternary = mpfr_set(y, b, rnd);
            st = GELUREF_OK;
            break;
        }
        if (wp >= tg->prec_cap)
            break;
        wp += wp / 2 > 32 ? wp / 2 : 32;
        if (wp > tg->prec_cap)
            wp = tg->prec_cap;
        mpfr_set_prec(b, wp);
        if (stats)
            stats->ziv_retries++;
    }
    mpfr_clear(b);
    return st;
}

/* s~ = RN(T1~ + T2~) with |Ti~ - Ti| <= 2^(R-wp) |Ti| (R >= 1): then
 * |s~ - (T1+T2)| <= 2 2^(R-wp) (|T1~| + |T2~|) + 2u |s~| <= 2^(R+2+eT-wp) + 2^(EXP(s~)+1-wp)
 * with eT = max EXP(Ti~): the bits lost to cancellation are charged as eT - EXP(s~).  The
 * exponents are MPFR's own, never clamped (a clamped eT next to an unclamped EXP(s~) would
 * charge a million bits too many, or, both clamped, too few); their difference fits in an
 * int64_t (MPFR's exponents lie within +-2^62). */
mpfr_exp_t gr_sum_into(mpfr_ptr t1, mpfr_srcptr t2, long r)
{
    if (!mpfr_regular_p(t1) || !mpfr_regular_p(t2))
        return 0; /* a term left MPFR's range: no bound */
    int64_t e1 = mpfr_get_exp(t1), e2 = mpfr_get_exp(t2);
    mpfr_add(t1, t1, t2, MPFR_RNDN);
    if (!mpfr_regular_p(t1))
        return 0;
    int64_t wp = (int64_t)mpfr_get_prec(t1);
    int64_t d = (e1 > e2 ? e1 : e2) - (int64_t)mpfr_get_exp(t1); /* bits lost, >= -1 */
    if (d >= wp)
        return 0;
    int64_t lost = d + r + 2;
    if (lost < 1)
        lost = 1;
    if (lost >= wp - 1)
        return 0;
    return (mpfr_exp_t)(wp - 1 - lost);
}
