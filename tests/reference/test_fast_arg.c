/* The double tier's tanh-form exponent (gr_fast_tanh_arg_d, reference/src/fast_phi.h) against
 * a = 2 sqrt(2/pi) z (1 + 0.044715 z^2) at 300 bits (MPFR): a.hi + a.lo must lie within
 * GR_TANH_ARG_EA a + 2^-1070 of it.  The enclosures that use it (encl_weight) add 3.1u of the
 * exponential to that bound, so a bound claimed too small by far would still not show in
 * test_fast_encl: this test checks the claim itself.  Inputs z in [2^-500, 30]:
 *   random   N random binary32 values with z in [2^-126, 30] (every binade alike), N doubles
 *            log-uniform in [2^-500, 30] and N doubles uniform in [0, 30];
 *   edges    the binary32 values and doubles around 2^-500, 2^-484.5 (z^2 = 2^-969, below
 *            which error terms are subnormal), the z where c2 z^2 = 1 (4.729: two_sum's
 *            operands change order), 1, 2, 4, 8, 16 and 30.
 * Prints the largest error seen in units of a u^2 (u = 2^-53) against the claimed 36.
 * Usage: test_fast_arg N SEED.  Exit 0 when every input is within the bound. */
#include <math.h>
#include <mpfr.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fast_phi.h"
#include "oddtest.h"

static unsigned long n_checked, n_bad;
static double worst; /* the largest |error| / (a u^2) seen */

static void check(double z, mpfr_t c, mpfr_t s)
{
    if (!(z >= 0x1p-500 && z <= 30))
        return;
    dd a = gr_fast_tanh_arg_d(z);
    mpfr_t t, v, d;
    mpfr_inits2(300, t, v, d, (mpfr_ptr)0);
    mpfr_set_d(t, z, MPFR_RNDN);
    mpfr_sqr(v, t, MPFR_RNDN);
    mpfr_mul(v, v, c, MPFR_RNDN);
    mpfr_add_ui(v, v, 1, MPFR_RNDN);
    mpfr_mul(v, v, t, MPFR_RNDN);
    mpfr_mul(v, v, s, MPFR_RNDN); /* a, within 2^-295 relatively */
    mpfr_set_d(d, a.hi, MPFR_RNDN);
    mpfr_add_d(d, d, a.lo, MPFR_RNDN); /* exact at 300 bits: the two within 2^-45 */
    mpfr_sub(d, d, v, MPFR_RNDN);
    mpfr_abs(d, d, MPFR_RNDN);
    double err = mpfr_get_d(d, MPFR_RNDU), av = mpfr_get_d(v, MPFR_RNDD);
    /* the bound in doubles, rounded up: GR_TANH_ARG_EA a + 2^-1070 */
    double bound = GR_TANH_ARG_EA * av * (1 + 0x1p-50) + 0x1p-1070;
    n_checked++;
    double r = err / (av * 0x1p-106);
    if (r > worst)
        worst = r;
    if (!(err <= bound)) {
        printf("FAIL z = %a: a = %a + %a, off by %a, bound %a (%.1f u^2)\n", z, a.hi, a.lo,
               err, bound, r);
        n_bad++;
    }
    mpfr_clears(t, v, d, (mpfr_ptr)0);
}

static double f32_of(uint32_t b)
{
    float v;
    memcpy(&v, &b, sizeof v);
    return v;
}

static uint32_t bits_of(float v)
{
    uint32_t b;
    memcpy(&b, &v, sizeof b);
    return b;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: test_fast_arg N SEED\n");
        return 2;
    }
    long n = strtol(argv[1], NULL, 10);
    rng_state = strtoull(argv[2], NULL, 10);
    mpfr_t c, s;
    mpfr_inits2(300, c, s, (mpfr_ptr)0);
    mpfr_set_str(c, "0.044715", 10, MPFR_RNDN);
    mpfr_const_pi(s, MPFR_RNDN);
    mpfr_ui_div(s, 2, s, MPFR_RNDN);
    mpfr_sqrt(s, s, MPFR_RNDN);
    mpfr_mul_ui(s, s, 2, MPFR_RNDN); /* 2 sqrt(2/pi) */
    const uint32_t lo32 = bits_of(0x1p-126f), hi32 = bits_of(30.0f);
    for (long i = 0; i < n; i++) {
        check(f32_of(lo32 + (uint32_t)(next64() % (hi32 - lo32 + 1))), c, s);
        double u1 = (double)(next64() >> 11) * 0x1p-53;
        check(0x1p-500 * pow(30 * 0x1p500, u1), c, s);
        check(30 * ((double)(next64() >> 11) * 0x1p-53), c, s);
    }
    /* c2 z^2 = 1 */
    double zc = 1 / sqrt(0.044715);
    const double edges[] = { 0x1p-500, 0x1.6a09e667f3bcdp-485, zc, 1, 2, 4, 8, 16, 30 };
    for (size_t k = 0; k < sizeof edges / sizeof edges[0]; k++) {
        double e = edges[k];
        uint32_t b = bits_of((float)e);
        for (int j = -64; j <= 64; j++) {
            check(f32_of(b + (uint32_t)j), c, s);
            check(nextafter(e, j < 0 ? 0 : 64) + j * e * 0x1p-52, c, s);
        }
    }
    printf("%lu checked, %lu outside the bound; the largest error %.2f u^2 a (claimed %.0f)\n",
           n_checked, n_bad, worst, GR_TANH_ARG_EA * 0x1p106);
    mpfr_clears(c, s, (mpfr_ptr)0);
    return n_bad != 0 || n_checked < (unsigned long)n;
}
