/* The fast path's enclosures checked directly, as test_bounds.c checks the MPFR path's: for
 * gelu at the precisions of every dtype (P = p + 16: 24, 27, 40, 69) and inputs over the
 * ranges of its evaluators (the near-zero rule, the series near 0, the double tier, the
 * double-double path, the tails), each evaluator's value m 2^e and bound err must hold
 * |(m.hi + m.lo) 2^e - f(x)| <= err 2^e, f(x) from geluref_eval_mpfr at 300 bits; with and
 * without the double tier (GR_FX_NO_DOUBLE), in the generic build and, where the CPU has FMA,
 * the FMA build.  A bound claimed too small shows here at once; in the comparison with the
 * MPFR path's roundings (test_fast.c) only when it turns a decision.  Rule cells (GR_FX_CELL)
 * are checked to hold f(x) in the open cell next to cell_c 2^e on side cell_dir.  Each input
 * is a value of the dtype of that precision (p = P - 16 bits).
 * Usage: test_fast_enclosure N SEED.  Exit 0 when every enclosure holds. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "fast.h"
#include "internal.h"
#include "oddtest.h"

typedef enum gr_fx_kind (*eval_fn)(enum geluref_func, double, int, struct gr_fx *);

static unsigned long n_value, n_tier, n_cell, n_bad;

/* v = f(x) rounded to nearest at 300 bits, t its ternary value (sign of v - f(x)). */
static void check(eval_fn ev, const char *variant, double x, int prec, mpfr_srcptr v, int t)
{
    struct gr_fx fx;
    enum gr_fx_kind k = ev(GELUREF_GELU, x, prec, &fx);
    mpfr_t m, d;
    mpfr_init2(m, 400);
    mpfr_init2(d, 400);
    if (k == GR_FX_VALUE) {
        mpfr_set_d(m, fx.m.hi, MPFR_RNDN);
        mpfr_add_d(m, m, fx.m.lo, MPFR_RNDN); /* exact at 400 bits */
        mpfr_mul_2si(m, m, fx.e, MPFR_RNDN);
        mpfr_sub(d, m, v, MPFR_RNDA);
        mpfr_abs(d, d, MPFR_RNDN);
        mpfr_set_d(m, fx.err, MPFR_RNDN);
        mpfr_mul_2si(m, m, fx.e, MPFR_RNDN);
        if (mpfr_cmp(d, m) > 0) {
            printf("FAIL %s gelu(%a) at %d bits%s: error %.3g above the bound %.3g\n", variant, x,
                   prec & ~GR_FX_NO_DOUBLE, fx.tier ? " (double tier)" : "",
                   mpfr_get_d(d, MPFR_RNDN), mpfr_get_d(m, MPFR_RNDN));
            n_bad++;
        }
        n_value++;
        n_tier += fx.tier != 0;
    } else if (k == GR_FX_CELL) {
        /* f(x) strictly between c = cell_c 2^e and its P-bit neighbour on side cell_dir */
        int p = prec & ~GR_FX_NO_DOUBLE;
        mpfr_set_prec(m, p);
        mpfr_set_d(m, fx.cell_c, MPFR_RNDN); /* cell_c has at most 53 <= p bits here */
        mpfr_mul_2si(m, m, fx.e, MPFR_RNDN);
        mpfr_set_prec(d, p);
        mpfr_set(d, m, MPFR_RNDN);
        if ((fx.cell_dir > 0) == (mpfr_sgn(m) > 0))
            mpfr_nextabove(d);
        else
            mpfr_nextbelow(d);
        /* strictly inside, judged by f(x) itself: where v is an end, t says on which side
         * of it f(x) lies (far in the tails f(x) is within 2^-300 of c) */
        mpfr_srcptr lo = mpfr_less_p(m, d) ? m : d, hi = mpfr_less_p(m, d) ? d : m;
        int lo_ok = mpfr_cmp(v, lo) > 0 || (mpfr_equal_p(v, lo) && t < 0);
        int hi_ok = mpfr_cmp(v, hi) < 0 || (mpfr_equal_p(v, hi) && t > 0);
        if (!lo_ok || !hi_ok) {
            printf("FAIL %s gelu(%a) at %d bits: the rule's cell does not hold f(x)\n", variant,
                   x, p);
            n_bad++;
        }
        n_cell++;
    }
    mpfr_clears(m, d, (mpfr_ptr)0);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: test_fast_enclosure N SEED\n");
        return 2;
    }
    unsigned long n = strtoul(argv[1], NULL, 10);
    rng_state = strtoull(argv[2], NULL, 10);
    eval_fn variants[2] = { gr_fast_eval_generic, NULL };
    const char *names[2] = { "generic", "fma" };
#if defined(GR_HAVE_FMA_VARIANT)
    if (__builtin_cpu_supports("fma"))
        variants[1] = gr_fast_eval_fma;
#endif
    static const int precs[] = { 24, 27, 40, 69 };
    mpfr_t xm, v;
    mpfr_init2(xm, 53);
    mpfr_init2(v, 300);
    mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
    mpfr_set_emin(mpfr_get_emin_min());
    mpfr_set_emax(mpfr_get_emax_max());
    for (unsigned long i = 0; i < n; i++) {
        /* |x| = 2^e (1 + r), e in [-45, 6], both signs: every evaluator of gelu below 64 */
        uint64_t r = next64();
        int e = -45 + (int)(r % 52);
        double x = ldexp(1.0 + (double)(next64() >> 11) * 0x1p-53, e);
        if ((r >> 32) & 1)
            x = -x;
        for (size_t p = 0; p < sizeof precs / sizeof precs[0]; p++) {
            /* x rounded to the dtype's p = P - 16 bits: the evaluators' inputs are dtype
             * values (the rules' cells rest on it) */
            mpfr_set_prec(xm, precs[p] - 16);
            mpfr_set_d(xm, x, MPFR_RNDN);
            double xp = mpfr_get_d(xm, MPFR_RNDN);
            int t;
            if (geluref_eval_mpfr(GELUREF_GELU, v, xm, NULL, MPFR_RNDN, NULL, NULL, &t) != 0) {
                printf("FAIL: the MPFR path failed at %a\n", xp);
                n_bad++;
                continue;
            }
            for (int w = 0; w < 2; w++)
                if (variants[w]) {
                    check(variants[w], names[w], xp, precs[p], v, t);
                    check(variants[w], names[w], xp, precs[p] | GR_FX_NO_DOUBLE, v, t);
                }
        }
    }
    mpfr_set_emin(emin);
    mpfr_set_emax(emax);
    mpfr_clears(xm, v, (mpfr_ptr)0);
    printf("%lu enclosures (%lu of the double tier) and %lu rule cells checked, %lu failures\n",
           n_value, n_tier, n_cell, n_bad);
    return n_bad != 0 || n_tier == 0 || n_cell == 0;
}
