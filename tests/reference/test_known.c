/* Known values: the reference against numbers published outside this project (docs/design.md
 * section 2, issue 2), never against its own output.  The approximations' deviations and the
 * minima are found by scanning the reference, as the issue asks. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "geluref.h"
#include "refcheck.h"

static double ref64(enum geluref_func f, double x)
{
    uint64_t xb, yb = 0;
    memcpy(&xb, &x, sizeof xb);
    assert_int_equal(geluref_eval(f, GELUREF_F64, xb, MPFR_RNDN, &yb, NULL, NULL), GELUREF_OK);
    double y;
    memcpy(&y, &yb, sizeof y);
    return y;
}

static float ref32(enum geluref_func f, float x)
{
    uint32_t xb;
    uint64_t yb = 0;
    memcpy(&xb, &x, sizeof xb);
    assert_int_equal(geluref_eval(f, GELUREF_F32, xb, MPFR_RNDN, &yb, NULL, NULL), GELUREF_OK);
    uint32_t y32 = (uint32_t)yb;
    float y;
    memcpy(&y, &y32, sizeof y);
    return y;
}

/* binary64 RN values, as published (shortest decimal strings of the correctly rounded
 * results): docs/design.md section 2 "Useful true values". */
static const struct {
    enum geluref_func f;
    const char *x, *want, *why;
} published[] = {
    { GELUREF_GELU, "-3", "-0.0040496940948902835", "GELU(-3)" },
    { GELUREF_GELU, "-1", "-0.15865525393145705", "GELU(-1)" },
    { GELUREF_GELU, "1", "0.8413447460685429", "GELU(1)" },
    { GELUREF_GELU, "3", "2.99595030590511", "GELU(3)" },
    { GELUREF_GELU_GRAD, "-3", "-0.011945647204183927", "GELU'(-3)" },
    { GELUREF_GELU_GRAD, "-1", "-0.0833154705876863", "GELU'(-1)" },
    { GELUREF_GELU_GRAD, "1", "1.0833154705876864", "GELU'(1)" },
    { GELUREF_GELU_GRAD, "3", "1.011945647204184", "GELU'(3)" },
    { GELUREF_GELU, "-0.75179152469356446", "-0.16997120747990366", "minimum at x*" },
};

static void test_published_f64(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof published / sizeof published[0]; i++) {
        double got = ref64(published[i].f, strtod(published[i].x, NULL));
        double want = strtod(published[i].want, NULL);
        if (memcmp(&got, &want, sizeof got) != 0)
            fail_msg("%s: got %.17g, want %s", published[i].why, got, published[i].want);
    }
}

static void test_phi_at_xstar(void **state)
{
    (void)state;
    double p = ref64(GELUREF_NORMCDF, -0.75179152469356446);
    assert_true(fabs(p - 0.2260882198) < 5e-11);
    /* GELU'(x*) = 0: the derivative there is tiny next to its terms (about 0.226) */
    assert_true(fabs(ref64(GELUREF_GELU_GRAD, -0.75179152469356446)) < 1e-15);
}

static void test_gelu_minus10(void **state)
{
    (void)state;
    assert_true(fabs(ref64(GELUREF_GELU, -10) / -7.61985e-23 - 1) < 1e-6);
    assert_true(fabs(ref32(GELUREF_GELU, -10.0f) / -7.61985e-23 - 1) < 1e-6);
}

static void test_f32_underflow_point(void **state)
{
    (void)state;
    float last = -14.356067657470703f;
    assert_true(ref32(GELUREF_GELU, last) != 0);
    float beyond = nextafterf(last, -INFINITY);
    float y = ref32(GELUREF_GELU, beyond);
    assert_true(y == 0 && signbit(y));
    /* the float formula's flush point is far earlier: the reference is not 0 at -5.6 */
    assert_true(ref32(GELUREF_GELU, -5.6f) < 0);
}

static void test_f32_midpoints_near_zero(void **state)
{
    (void)state;
    /* x/2 is a midpoint there and the x^2 term decides (docs/design.md section 2) */
    assert_true(ref32(GELUREF_GELU, 3 * 0x1p-149f) == 2 * 0x1p-149f);
    assert_true(ref32(GELUREF_GELU, -3 * 0x1p-149f) == -0x1p-149f);
}

/* max |approx(x) - gelu(x)| over x >= 0 on a 2^-12 grid, then refined on 2^-20 around the
 * argmax; the deviation is even (all three satisfy f(x) - f(-x) = x), so x >= 0 suffices. */
static void max_deviation(enum geluref_func f, double *dmax, double *at)
{
    *dmax = 0;
    *at = 0;
    for (double x = 0; x <= 8; x += 0x1p-12) {
        double d = fabs(ref64(f, x) - ref64(GELUREF_GELU, x));
        if (d > *dmax) {
            *dmax = d;
            *at = x;
        }
    }
    double c = *at;
    for (double x = c - 0x1p-12; x <= c + 0x1p-12; x += 0x1p-20) {
        double d = fabs(ref64(f, x) - ref64(GELUREF_GELU, x));
        if (d > *dmax) {
            *dmax = d;
            *at = x;
        }
    }
}

static void test_approximation_deviation(void **state)
{
    (void)state;
    double d, at;
    max_deviation(GELUREF_GELU_TANH, &d, &at);
    print_message("tanh: max deviation %.6g at |x| = %.5f\n", d, at);
    assert_true(fabs(d - 4.73e-4) < 0.005e-4);
    assert_true(fabs(at - 2.70) < 0.05);
    max_deviation(GELUREF_GELU_SIGMOID, &d, &at);
    print_message("sigmoid: max deviation %.6g at |x| = %.5f\n", d, at);
    assert_true(fabs(d - 0.0203) < 0.00005);
    assert_true(fabs(at - 2.27) < 0.05);
}

/* Minimum by golden-section search on the reference's f64 values in [-1, -0.5]. */
static double argmin(enum geluref_func f, double *fmin)
{
    double a = -1, b = -0.5, g = (sqrt(5) - 1) / 2;
    for (int i = 0; i < 80 && b - a > 1e-12; i++) {
        double c = b - g * (b - a), e = a + g * (b - a);
        if (ref64(f, c) < ref64(f, e))
            b = e;
        else
            a = c;
    }
    *fmin = ref64(f, (a + b) / 2);
    return (a + b) / 2;
}

static void test_minima(void **state)
{
    (void)state;
    double m, x = argmin(GELUREF_GELU, &m);
    /* the value is flat at the minimum: every x within ~1e-8 of x* rounds to the same double */
    assert_true(m == strtod("-0.16997120747990366", NULL));
    assert_true(fabs(x - -0.75179152469356446) < 1e-6);
    x = argmin(GELUREF_GELU_TANH, &m);
    print_message("gelu_tanh: minimum %.9g at %.7f\n", m, x);
    assert_true(fabs(m - -0.1700408) < 5e-8 && fabs(x - -0.75246) < 5e-5);
    x = argmin(GELUREF_GELU_SIGMOID, &m);
    print_message("gelu_sigmoid: minimum %.9g at %.7f\n", m, x);
    assert_true(fabs(m - -0.1636102) < 5e-8 && fabs(x - -0.75115) < 5e-5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_published_f64),
        cmocka_unit_test(test_phi_at_xstar),
        cmocka_unit_test(test_gelu_minus10),
        cmocka_unit_test(test_f32_underflow_point),
        cmocka_unit_test(test_f32_midpoints_near_zero),
        cmocka_unit_test(test_approximation_deviation),
        cmocka_unit_test(test_minima),
    };
    return cmocka_run_group_tests_name("reference_known", tests, NULL, NULL);
}
