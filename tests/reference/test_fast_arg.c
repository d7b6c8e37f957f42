/* The double tier's exponents of the approximations (reference/src/fast_phi.h) against 300
 * bits (MPFR): the tanh form's gr_fast_tanh_arg_d, a = 2 sqrt(2/pi) z (1 + 0.044715 z^2),
 * within GR_TANH_ARG_EA a + 2^-1070, and the sigmoid form's gr_fast_sigmoid_arg_d, a =
 * 1.702 z, within GR_SIGMOID_ARG_EA a.  The enclosures that use them (encl_weight) add 3.1u
 * of the exponential to that bound, so a bound claimed too small by far would still not
 * show in test_fast_encl: this test checks the claims themselves.  Inputs z in [2^-500,
 * ZMAX] (30 for the tanh form, 1200 for the sigmoid form):
 *   random   N random binary32 values with z in [2^-126, ZMAX] (every binade alike), N
 *            doubles log-uniform in [2^-500, ZMAX] and N doubles uniform in [0, ZMAX];
 *   edges    the binary32 values and doubles around 2^-500, 2^-484.5 (z^2 = 2^-969, below
 *            which error terms are subnormal), the z where c2 z^2 = 1 (4.729: two_sum's
 *            operands change order), 1, 2, 4, 8, 16, 30 and 1200.
 * Prints the largest error seen in units of a u^2 (u = 2^-53) against the claims.
 * Usage: test_fast_arg N SEED.  Exit 0 when every input is within the bound. */
#include <math.h>
#include <mpfr.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fast_phi.h"
#include "oddtest.h"

static unsigned long n_checked, n_bad;
static double worst[2]; /* the largest |error| / (a u^2) seen, per form */
static mpfr_t c2, s2, c17; /* 0.044715, 2 sqrt(2/pi), 1.702 */

/* form 0: the tanh form, 1: the sigmoid form */
static void check(int form, double z)
{
    if (!(z >= 0x1p-500 && z <= (form ? 1200 : 30)))
        return;
    dd a = form ? gr_fast_sigmoid_arg_d(z) : gr_fast_tanh_arg_d(z);
    double ea = form ? GR_SIGMOID_ARG_EA : GR_TANH_ARG_EA;
    mpfr_t t, v, d;
    mpfr_inits2(300, t, v, d, (mpfr_ptr)0);
    mpfr_set_d(t, z, MPFR_RNDN);
    if (form) {
        mpfr_mul(v, t, c17, MPFR_RNDN);
    } else {
        mpfr_sqr(v, t, MPFR_RNDN);
        mpfr_mul(v, v, c2, MPFR_RNDN);
        mpfr_add_ui(v, v, 1, MPFR_RNDN);
        mpfr_mul(v, v, t, MPFR_RNDN);
        mpfr_mul(v, v, s2, MPFR_RNDN);
    } /* a, within 2^-295 relatively */
    mpfr_set_d(d, a.hi, MPFR_RNDN);
    mpfr_add_d(d, d, a.lo, MPFR_RNDN); /* within 2^-299 of a, far below the bound */
    mpfr_sub(d, d, v, MPFR_RNDN);
    mpfr_abs(d, d, MPFR_RNDN);
    double err = mpfr_get_d(d, MPFR_RNDU), av = mpfr_get_d(v, MPFR_RNDD);
    /* the bound, ea a (+ 2^-1070 for the tanh form), with a rounded down, the error up and
     * the product's rounding covered by 2^-50: within 2^-49 of the claim */
    double bound = ea * av * (1 + 0x1p-50) + (form ? 0 : 0x1p-1070);
    n_checked++;
    double r = err / (av * 0x1p-106);
    if (r > worst[form])
        worst[form] = r;
    if (!(err <= bound)) {
        printf("FAIL %s form, z = %a: a = %a + %a, off by %a, bound %a (%.1f u^2)\n",
               form ? "sigmoid" : "tanh", z, a.hi, a.lo, err, bound, r);
        n_bad++;
    }
    mpfr_clears(t, v, d, (mpfr_ptr)0);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: test_fast_arg N SEED\n");
        return 2;
    }
    long n = strtol(argv[1], NULL, 10);
    rng_state = strtoull(argv[2], NULL, 10);
    mpfr_inits2(300, c2, s2, c17, (mpfr_ptr)0);
    mpfr_set_str(c2, "0.044715", 10, MPFR_RNDN);
    mpfr_set_str(c17, "1.702", 10, MPFR_RNDN);
    mpfr_const_pi(s2, MPFR_RNDN);
    mpfr_ui_div(s2, 2, s2, MPFR_RNDN);
    mpfr_sqrt(s2, s2, MPFR_RNDN);
    mpfr_mul_ui(s2, s2, 2, MPFR_RNDN); /* 2 sqrt(2/pi) */
    for (int form = 0; form < 2; form++) {
        double zmax = form ? 1200 : 30;
        const uint32_t lo32 = f32_bits(0x1p-126f), hi32 = f32_bits((float)zmax);
        for (long i = 0; i < n; i++) {
            check(form, f32_of(lo32 + (uint32_t)(next64() % (hi32 - lo32 + 1))));
            double u1 = (double)(next64() >> 11) * 0x1p-53;
            check(form, 0x1p-500 * pow(zmax * 0x1p500, u1));
            check(form, zmax * ((double)(next64() >> 11) * 0x1p-53));
        }
        /* c2 z^2 = 1 */
        double zc = 1 / sqrt(0.044715);
        const double edges[] = { 0x1p-500, 0x1.6a09e667f3bcdp-485, zc, 1, 2, 4, 8, 16, 30,
                                 1200 };
        for (size_t k = 0; k < sizeof edges / sizeof edges[0]; k++) {
            double e = edges[k];
            uint32_t b = f32_bits((float)e);
            for (int j = -64; j <= 64; j++) {
                check(form, f32_of(b + (uint32_t)j));
                check(form, nextafter(e, j < 0 ? 0 : 64) + j * e * 0x1p-52);
            }
        }
    }
    printf("%lu checked, %lu outside the bound; the largest error %.2f u^2 a for the tanh "
           "form (claimed %.0f), %.2f for the sigmoid form (claimed %.0f)\n",
           n_checked, n_bad, worst[0], GR_TANH_ARG_EA * 0x1p106, worst[1],
           GR_SIGMOID_ARG_EA * 0x1p106);
    mpfr_clears(c2, s2, c17, (mpfr_ptr)0);
    return n_bad != 0 || n_checked < 2 * (unsigned long)n;
}
