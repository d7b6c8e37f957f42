/* Special values and signed zeros of every function, dtype and rounding mode, against the
 * table of docs/design.md section 2 (typed in here, not taken from the reference). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "geluref.h"
#include "refcheck.h"

/* Expected results at NaN, -inf, +inf, -0, +0; NAN means "a NaN"; X_ORACLE means "not exact:
 * ask the oracle" (normpdf(0) = 1/sqrt(2 pi), gelu_grad2(0) = 2/sqrt(2 pi)). */
#define X_ORACLE 12345.0
static const struct {
    enum geluref_func f;
    double at_nan, at_minf, at_pinf, at_m0, at_p0;
} table[] = {
    { GELUREF_GELU, NAN, -0.0, INFINITY, -0.0, 0.0 },
    { GELUREF_GELU_TANH, NAN, -0.0, INFINITY, -0.0, 0.0 },
    { GELUREF_GELU_SIGMOID, NAN, -0.0, INFINITY, -0.0, 0.0 },
    { GELUREF_GELU_SCALED, NAN, -0.0, INFINITY, -0.0, 0.0 },
    { GELUREF_GELU_GRAD, NAN, -0.0, 1.0, 0.5, 0.5 },
    { GELUREF_GELU_TANH_GRAD, NAN, -0.0, 1.0, 0.5, 0.5 },
    { GELUREF_NORMCDF, NAN, 0.0, 1.0, 0.5, 0.5 },
    { GELUREF_NORMPDF, NAN, 0.0, 0.0, X_ORACLE, X_ORACLE },
    { GELUREF_ERF, NAN, -1.0, 1.0, -0.0, 0.0 },
    { GELUREF_ERFC, NAN, 2.0, 0.0, 1.0, 1.0 },
    { GELUREF_GELU_GRAD2, NAN, -0.0, -0.0, X_ORACLE, X_ORACLE },
};

static void check(enum geluref_func f, enum geluref_dtype dt, mpfr_rnd_t rnd, double in,
                  double want)
{
    uint64_t x = refcheck_bits(dt, in), y = 0;
    char msg[512];
    if (want == X_ORACLE) {
        if (refcheck_one(f, dt, x, rnd, msg, sizeof msg))
            fail_msg("%s", msg);
        return;
    }
    int st = geluref_eval(f, dt, x, rnd, &y, NULL, NULL);
    double got = refcheck_value(dt, y);
    int ok = st == GELUREF_OK
             && (isnan(want) ? isnan(got)
                             : memcmp(&got, &want, sizeof got) == 0); /* sign of zero too */
    if (!ok)
        fail_msg("%s %s %s at %g: got %g (bits 0x%llx, status %d), want %g",
                 geluref_func_name(f), geluref_dtype_name(dt), geluref_rnd_name(rnd), in, got,
                 (unsigned long long)y, st, want);
}

static void test_specials(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        for (int dt = GELUREF_DTYPE_FIRST; dt <= GELUREF_DTYPE_LAST; dt++)
            for (int m = 0; m < 4; m++) {
                mpfr_rnd_t r = refcheck_modes[m];
                check(table[i].f, dt, r, NAN, table[i].at_nan);
                check(table[i].f, dt, r, -INFINITY, table[i].at_minf);
                check(table[i].f, dt, r, INFINITY, table[i].at_pinf);
                check(table[i].f, dt, r, -0.0, table[i].at_m0);
                check(table[i].f, dt, r, 0.0, table[i].at_p0);
            }
}

/* Every NaN pattern is a NaN in; the result is the dtype's quiet NaN. */
static void test_nan_payloads(void **state)
{
    (void)state;
    static const struct { enum geluref_dtype dt; uint64_t in, qnan; } rows[] = {
        { GELUREF_F16, 0x7c01, 0x7e00 }, { GELUREF_F16, 0xfe00, 0x7e00 },
        { GELUREF_BF16, 0x7f81, 0x7fc0 }, { GELUREF_BF16, 0xffc0, 0x7fc0 },
        { GELUREF_F32, 0x7f800001, 0x7fc00000 }, { GELUREF_F32, 0xffc00000, 0x7fc00000 },
        { GELUREF_F64, 0x7ff0000000000001, 0x7ff8000000000000 },
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        for (int f = GELUREF_FUNC_FIRST; f <= GELUREF_FUNC_LAST; f++) {
            uint64_t y = 0;
            assert_int_equal(geluref_eval(f, rows[i].dt, rows[i].in, MPFR_RNDN, &y, NULL, NULL),
                             GELUREF_OK);
            assert_true(y == rows[i].qnan);
        }
}

/* The smallest and largest finite inputs of each sign decide like their neighbours: the
 * results must be what the oracle says, in every mode. */
static void test_extreme_finite(void **state)
{
    (void)state;
    for (int dt = GELUREF_DTYPE_FIRST; dt <= GELUREF_DTYPE_LAST; dt++) {
        const struct geluref_dtype_info *d = geluref_dtype_info(dt);
        uint64_t sign = UINT64_C(1) << (d->bits - 1);
        uint64_t maxf = (((UINT64_C(1) << d->exp_bits) - 1) << (d->prec - 1)) - 1;
        uint64_t minn = UINT64_C(1) << (d->prec - 1);
        uint64_t xs[] = { 1, sign | 1, maxf, sign | maxf, minn, sign | minn, 3, sign | 3 };
        enum geluref_func all[GELUREF_FUNC_LAST];
        for (int f = GELUREF_FUNC_FIRST; f <= GELUREF_FUNC_LAST; f++)
            all[f - 1] = (enum geluref_func)f;
        assert_int_equal(refcheck_many(all, GELUREF_FUNC_LAST, dt, xs,
                                       sizeof xs / sizeof xs[0], refcheck_modes, 4), 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_specials),
        cmocka_unit_test(test_nan_payloads),
        cmocka_unit_test(test_extreme_finite),
    };
    return cmocka_run_group_tests_name("reference_special", tests, NULL, NULL);
}
