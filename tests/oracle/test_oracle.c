/* Unit tests of the test oracle (oracle.h) against values from outside gelucheck: the
 * published binary64 values of docs/design.md section 2, the binary32 subnormal midpoints and tail
 * threshold, the special-value table, MPFR's own correctly rounded erf/erfc, and invariants
 * that any correct rounding satisfies (RD and RU are neighbours, RN and RZ are one of them). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "oracle.h"
#include "test_oracle.h"

static uint64_t dbits(double d)
{
    uint64_t b;
    memcpy(&b, &d, sizeof b);
    return b;
}

static uint64_t eval_ok(enum geluref_func f, enum geluref_dtype dt, uint64_t x, mpfr_rnd_t rnd)
{
    uint64_t y = 0;
    mpfr_prec_t wp;
    int st = oracle_eval(f, dt, x, rnd, 1.0, &y, &wp);
    if (st != ORACLE_OK)
        fail_msg("oracle_eval(func %d, dtype %d, x 0x%llx, rnd %d): status %d at %ld bits",
                 (int)f, (int)dt, (unsigned long long)x, (int)rnd, st, (long)wp);
    return y;
}

struct f64_row {
    enum geluref_func f;
    double x, y; /* y = RN(f(x)) as published */
    const char *why;
};

/* docs/design.md section 2, "Useful true values (binary64, RN)". */
static const struct f64_row published[] = {
    { GELUREF_GELU, -3.0, -0.0040496940948902835, "GELU(-3)" },        /* -0x1.096697b244861p-8 */
    { GELUREF_GELU, -1.0, -0.15865525393145705, "GELU(-1)" },          /* -0x1.44ed0bb7cb20bp-3 */
    { GELUREF_GELU, 1.0, 0.8413447460685429, "GELU(1)" },              /* 0x1.aec4bd120d37dp-1 */
    { GELUREF_GELU, 3.0, 2.99595030590511, "GELU(3)" },                /* 0x1.7f7b4cb426ddcp+1 */
    { GELUREF_GELU_GRAD, -3.0, -0.011945647204183927, "GELU'(-3)" },   /* -0x1.876f5a0927b12p-7 */
    { GELUREF_GELU_GRAD, -1.0, -0.0833154705876863, "GELU'(-1)" },     /* -0x1.55429a56cca59p-4 */
    { GELUREF_GELU_GRAD, 1.0, 1.0833154705876864, "GELU'(1)" },        /* 0x1.155429a56cca6p+0 */
    { GELUREF_GELU_GRAD, 3.0, 1.011945647204184, "GELU'(3)" },         /* 0x1.030edeb4124f6p+0 */
    { GELUREF_NORMCDF, 1.0, 0.8413447460685429, "Phi(1) = GELU(1)" },  /* 0x1.aec4bd120d37dp-1 */
};

static void test_published_f64(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof published / sizeof published[0]; i++) {
        const struct f64_row *r = &published[i];
        uint64_t got = eval_ok(r->f, GELUREF_F64, dbits(r->x), MPFR_RNDN);
        if (got != dbits(r->y))
            fail_msg("%s: got 0x%016llx, want 0x%016llx (%.17g)", r->why,
                     (unsigned long long)got, (unsigned long long)dbits(r->y), r->y);
    }
}

/* x Phi(x/s) at x = 2, s = 2 is 2 Phi(1): twice the published Phi(1), exactly. */
static void test_gelu_scaled(void **state)
{
    (void)state;
    uint64_t y;
    assert_int_equal(oracle_eval(GELUREF_GELU_SCALED, GELUREF_F64, dbits(2.0), MPFR_RNDN, 2.0,
                                 &y, NULL), ORACLE_OK);
    assert_int_equal(y, dbits(2 * 0.8413447460685429));
    assert_int_equal(oracle_eval(GELUREF_GELU_SCALED, GELUREF_F64, dbits(2.0), MPFR_RNDN, 0.0,
                                 &y, NULL), ORACLE_E_INVALID);
}

struct bits_row {
    enum geluref_func f;
    enum geluref_dtype dt;
    uint64_t x, y; /* y = RN(f(x)) */
    const char *why;
};

static const struct bits_row f32_rows[] = {
    { GELUREF_GELU, GELUREF_F32, 0x00000003, 0x00000002,    /* 0x1.8p-148 -> 0x1p-148 */
      "GELU(3*2^-149): x/2 is a midpoint, + x^2/sqrt(2pi) rounds up to 2*2^-149" },
    { GELUREF_GELU, GELUREF_F32, 0x80000003, 0x80000001,    /* -0x1.8p-148 -> -0x1p-149 */
      "GELU(-3*2^-149): midpoint, + x^2/sqrt(2pi) rounds toward zero to -2^-149" },
    { GELUREF_GELU, GELUREF_F32, 0xc165b275, 0x80000000,    /* -0x1.cb64eap+3 -> -0 */
      "GELU(nextbelow(-14.356067657470703)) = -0: first f32 x with a zero RN result" },
};

static void test_f32_cases(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof f32_rows / sizeof f32_rows[0]; i++) {
        const struct bits_row *r = &f32_rows[i];
        uint64_t got = eval_ok(r->f, r->dt, r->x, MPFR_RNDN);
        if (got != r->y)
            fail_msg("%s: got 0x%08llx, want 0x%08llx", r->why, (unsigned long long)got,
                     (unsigned long long)r->y);
    }
    /* -0x1.cb64e8p+3 = -14.356067657470703: the last f32 x with a nonzero RN GELU */
    uint64_t last = eval_ok(GELUREF_GELU, GELUREF_F32, 0xc165b274, MPFR_RNDN);
    assert_true((last & 0x7fffffff) != 0);
    assert_true((last & 0x80000000) != 0);
}

/* docs/design.md section 2: NaN, +-inf, +-0. */
static const struct bits_row special_rows[] = {
    { GELUREF_GELU, GELUREF_F64, UINT64_C(0x7ff0000000000001), UINT64_C(0x7ff8000000000000),
      "NaN in: quiet NaN out (f64)" },
    { GELUREF_ERF, GELUREF_F32, 0xffc00001, 0x7fc00000, "NaN in: quiet NaN out (f32)" },
    { GELUREF_NORMPDF, GELUREF_F16, 0x7c01, 0x7e00, "NaN in: quiet NaN out (f16)" },
    { GELUREF_ERFC, GELUREF_BF16, 0xff81, 0x7fc0, "NaN in: quiet NaN out (bf16)" },
    { GELUREF_GELU, GELUREF_F32, 0xff800000, 0x80000000, "gelu(-inf) = -0" },
    { GELUREF_GELU_TANH, GELUREF_F32, 0x7f800000, 0x7f800000, "gelu_tanh(+inf) = +inf" },
    { GELUREF_GELU_SIGMOID, GELUREF_F16, 0xfc00, 0x8000, "gelu_sigmoid(-inf) = -0" },
    { GELUREF_GELU_GRAD, GELUREF_F32, 0xff800000, 0x80000000, "gelu_grad(-inf) = -0" },
    { GELUREF_GELU_TANH_GRAD, GELUREF_BF16, 0x7f80, 0x3f80, "gelu_tanh_grad(+inf) = 1" },
    { GELUREF_NORMCDF, GELUREF_F32, 0xff800000, 0x00000000, "normcdf(-inf) = +0" },
    { GELUREF_NORMPDF, GELUREF_F16, 0xfc00, 0x0000, "normpdf(-inf) = +0" },
    { GELUREF_ERF, GELUREF_F16, 0xfc00, 0xbc00, "erf(-inf) = -1" },
    { GELUREF_ERFC, GELUREF_F16, 0xfc00, 0x4000, "erfc(-inf) = 2" },
    { GELUREF_ERFC, GELUREF_F32, 0x7f800000, 0x00000000, "erfc(+inf) = +0" },
    { GELUREF_GELU_GRAD2, GELUREF_F32, 0x7f800000, 0x80000000, "gelu_grad2(+inf) = -0" },
    { GELUREF_GELU, GELUREF_F32, 0x80000000, 0x80000000, "gelu(-0) = -0" },
    { GELUREF_GELU_SCALED, GELUREF_F16, 0x8000, 0x8000, "gelu_scaled(-0) = -0" },
    { GELUREF_ERF, GELUREF_BF16, 0x8000, 0x8000, "erf(-0) = -0" },
    { GELUREF_ERFC, GELUREF_F32, 0x80000000, 0x3f800000, "erfc(-0) = 1" },
    { GELUREF_GELU_GRAD, GELUREF_F16, 0x8000, 0x3800, "gelu_grad(-0) = 0.5" },
    { GELUREF_NORMCDF, GELUREF_F32, 0x00000000, 0x3f000000, "normcdf(0) = 0.5" },
    { GELUREF_NORMPDF, GELUREF_F64, 0, UINT64_C(0x3fd9884533d43651),
      "normpdf(0) = 1/sqrt(2pi) = 0x1.9884533d43651p-2 (0.3989422804014327)" },
    { GELUREF_GELU_GRAD2, GELUREF_F64, 0, UINT64_C(0x3fe9884533d43651),
      "gelu_grad2(0) = 2/sqrt(2pi) = 0x1.9884533d43651p-1" },
};

static void test_specials(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof special_rows / sizeof special_rows[0]; i++) {
        const struct bits_row *r = &special_rows[i];
        uint64_t got = eval_ok(r->f, r->dt, r->x, MPFR_RNDN);
        if (got != r->y)
            fail_msg("%s: got 0x%llx, want 0x%llx", r->why, (unsigned long long)got,
                     (unsigned long long)r->y);
    }
}

struct mode_row {
    enum geluref_func f;
    enum geluref_dtype dt;
    mpfr_rnd_t rnd;
    uint64_t x, y;
    const char *why;
};

/* Directed modes where a naive enclosure is pinned at a representable value: saturation
 * (f(x) just below x, or just above 1) and the deep tail (a tiny negative value).  Expected
 * bits follow from the sign of f(x) - v alone (v the representable value). */
static const struct mode_row directed_rows[] = {
    { GELUREF_GELU_GRAD, GELUREF_F64, MPFR_RNDU, UINT64_C(0x4072c00000000000),
      UINT64_C(0x3ff0000000000001), "gelu_grad(300) > 1: RU is 1 + 2^-52" },
    { GELUREF_GELU_GRAD, GELUREF_F64, MPFR_RNDD, UINT64_C(0x4072c00000000000),
      UINT64_C(0x3ff0000000000000), "gelu_grad(300) > 1: RD is 1" },
    { GELUREF_GELU_TANH_GRAD, GELUREF_F16, MPFR_RNDU, 0x7bff, 0x3c01,
      "gelu_tanh_grad(65504) > 1: RU is 1 + 2^-10" },
    { GELUREF_GELU_GRAD, GELUREF_BF16, MPFR_RNDD, 0xd015, 0x8001,
      "gelu_grad(-0x1.2ap+33) < 0, far below bf16's range: RD is -min subnormal" },
    { GELUREF_GELU_GRAD, GELUREF_BF16, MPFR_RNDU, 0xd015, 0x8000,
      "gelu_grad(-0x1.2ap+33) < 0, far below bf16's range: RU is -0" },
    { GELUREF_GELU, GELUREF_F16, MPFR_RNDD, 0x7bff, 0x7bfe, "gelu(65504) < 65504: RD is 65472" },
    { GELUREF_GELU, GELUREF_F64, MPFR_RNDD, UINT64_C(0x7fefffffffffffff),
      UINT64_C(0x7feffffffffffffe), "gelu(max) < max: RD is the predecessor" },
    { GELUREF_GELU, GELUREF_F64, MPFR_RNDU, UINT64_C(0x7fefffffffffffff),
      UINT64_C(0x7fefffffffffffff), "gelu(max) < max: RU is max" },
    { GELUREF_GELU_TANH, GELUREF_F64, MPFR_RNDD, UINT64_C(0xffefffffffffffff),
      UINT64_C(0x8000000000000001), "gelu_tanh(-max) < 0, tiny: RD is -min subnormal" },
    { GELUREF_GELU_SIGMOID, GELUREF_F64, MPFR_RNDD, UINT64_C(0xffefffffffffffff),
      UINT64_C(0x8000000000000001), "gelu_sigmoid(-max) < 0, tiny: RD is -min subnormal" },
    { GELUREF_GELU_TANH_GRAD, GELUREF_F64, MPFR_RNDN, UINT64_C(0xffefffffffffffff),
      UINT64_C(0x8000000000000000), "gelu_tanh_grad(-max) < 0, tiny: RN is -0" },
    { GELUREF_ERFC, GELUREF_F16, MPFR_RNDD, 0x0001, 0x3bff,
      "erfc(2^-24) < 1: RD is 1 - 2^-11 (the binade below)" },
    { GELUREF_NORMCDF, GELUREF_F64, MPFR_RNDU, 1, UINT64_C(0x3fe0000000000001),
      "normcdf(2^-1074) > 1/2: RU is 1/2 + 2^-53" },
    { GELUREF_NORMCDF, GELUREF_F64, MPFR_RNDD, UINT64_C(0x8000000000000001),
      UINT64_C(0x3fdfffffffffffff), "normcdf(-2^-1074) < 1/2: RD is 1/2 - 2^-54" },
};

static void test_directed(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof directed_rows / sizeof directed_rows[0]; i++) {
        const struct mode_row *r = &directed_rows[i];
        uint64_t got = eval_ok(r->f, r->dt, r->x, r->rnd);
        if (got != r->y)
            fail_msg("%s: got 0x%llx, want 0x%llx", r->why, (unsigned long long)got,
                     (unsigned long long)r->y);
    }
}

static void test_invalid(void **state)
{
    (void)state;
    uint64_t y;
    assert_int_equal(oracle_eval(0, GELUREF_F32, 0, MPFR_RNDN, 1.0, &y, NULL), ORACLE_E_INVALID);
    assert_int_equal(oracle_eval(GELUREF_GELU, 5, 0, MPFR_RNDN, 1.0, &y, NULL), ORACLE_E_INVALID);
    assert_int_equal(oracle_eval(GELUREF_GELU, GELUREF_F16, 0x10000, MPFR_RNDN, 1.0, &y, NULL),
                     ORACLE_E_INVALID);
    assert_int_equal(oracle_eval(GELUREF_GELU, GELUREF_F16, 0, MPFR_RNDA, 1.0, &y, NULL),
                     ORACLE_E_INVALID);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_published_f64),
        cmocka_unit_test(test_gelu_scaled),
        cmocka_unit_test(test_f32_cases),
        cmocka_unit_test(test_specials),
        cmocka_unit_test(test_directed),
        cmocka_unit_test(test_invalid),
    };
    int failed = cmocka_run_group_tests_name("oracle", tests, NULL, NULL);
    failed += test_oracle_round_group();
    failed += test_oracle_sweep_group();
    oracle_thread_release();
    return failed != 0;
}
