/* geluref_format_dec, _hex, _bits (group format).
 *
 * Expected strings come from an independent exact implementation (Python fractions: the
 * shortest digit string whose round-to-nearest-even reads back to the bits, the nearer of
 * floor and ceiling when both do), cross-checked against Python's repr for f64. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include <geluref.h>

#include "test_format.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

struct fmt_case {
    enum geluref_dtype dt;
    uint64_t bits;
    const char *dec, *hex, *why;
};

static const struct fmt_case cases[] = {
    { GELUREF_F64, 0xbfc44ed0bb7cb20b, "-0.15865525393145705", "-0x1.44ed0bb7cb20bp-3",
      "GELU(-1)" },
    { GELUREF_F64, 0x3fb999999999999a, "0.1", "0x1.999999999999ap-4", "0.1" },
    { GELUREF_F64, 0x0000000000000001, "5e-324", "0x1p-1074", "smallest subnormal" },
    { GELUREF_F64, 0x00005c0ab9347ed7, "5e-310", "0x1.702ae4d1fb5cp-1028", "a subnormal" },
    { GELUREF_F64, 0x0010000000000000, "2.2250738585072014e-308", "0x1p-1022", "smallest normal" },
    { GELUREF_F64, 0x7fefffffffffffff, "1.7976931348623157e+308", "0x1.fffffffffffffp+1023",
      "largest" },
    { GELUREF_F64, 0x4341c37937e08000, "10000000000000000", "0x1.1c37937e08p+53",
      "1e16: positional" },
    { GELUREF_F64, 0x4376345785d8a000, "1e+17", "0x1.6345785d8ap+56", "1e17: exponent form" },
    { GELUREF_F64, 0x3ee4f8b588e368f1, "0.00001", "0x1.4f8b588e368f1p-17", "1e-5: positional" },
    { GELUREF_F64, 0x3eb0c6f7a0b5ed8d, "1e-06", "0x1.0c6f7a0b5ed8dp-20", "1e-6: exponent form" },
    { GELUREF_F64, 0x405edd2f1a9fbe77, "123.456", "0x1.edd2f1a9fbe77p+6", "point inside" },
    { GELUREF_F64, 0x3f201f31f46ed246, "0.000123", "0x1.01f31f46ed246p-13", "leading zeros" },
    { GELUREF_F64, 0x3fd5555555555555, "0.3333333333333333", "0x1.5555555555555p-2", "1/3" },
    { GELUREF_F64, 0x44b52d02c7e14af6, "1e+23", "0x1.52d02c7e14af6p+76", "1e23, inexact" },
    { GELUREF_F64, 0x437b69b4ba630f35, "1.2345678901234568e+17", "0x1.b69b4ba630f35p+56",
      "17 digits" },
    { GELUREF_F64, 0x4340000000000000, "9007199254740992", "0x1p+53", "2^53" },
    { GELUREF_F64, 0x3ff0000000000001, "1.0000000000000002", "0x1.0000000000001p+0", "1 + ulp" },
    { GELUREF_F64, 0x8000000000000000, "-0", "-0x0p+0", "-0" },
    { GELUREF_F64, 0x0000000000000000, "0", "0x0p+0", "+0" },
    { GELUREF_F64, 0x7ff0000000000000, "inf", "inf", "inf" },
    { GELUREF_F64, 0xfff0000000000000, "-inf", "-inf", "-inf" },
    { GELUREF_F64, 0x7ff8000000000000, "nan", "nan", "quiet NaN" },
    { GELUREF_F64, 0xfff0000000000001, "nan", "nan", "negative signalling NaN" },
    { GELUREF_F32, 0x00000001, "1e-45", "0x1p-149", "smallest subnormal" },
    { GELUREF_F32, 0x007fffff, "1.1754942e-38", "0x1.fffffcp-127", "largest subnormal" },
    { GELUREF_F32, 0x7f7fffff, "3.4028235e+38", "0x1.fffffep+127", "largest" },
    { GELUREF_F32, 0xc0b33333, "-5.6", "-0x1.666666p+2", "-5.6" },
    { GELUREF_F32, 0x3dcccccd, "0.1", "0x1.99999ap-4", "0.1" },
    { GELUREF_F32, 0x3eaaaaab, "0.33333334", "0x1.555556p-2", "1/3" },
    { GELUREF_F32, 0x3f800001, "1.0000001", "0x1.000002p+0", "1 + ulp" },
    { GELUREF_F32, 0x40400000, "3", "0x1.8p+1", "3" },
    { GELUREF_F32, 0xc165b274, "-14.356068", "-0x1.cb64e8p+3", "last x with GELU(x) != 0" },
    { GELUREF_F32, 0x3727c5ac, "0.00001", "0x1.4f8b58p-17", "1e-5" },
    { GELUREF_F32, 0x5a0e1bca, "10000000000000000", "0x1.1c3794p+53", "1e16" },
    { GELUREF_F32, 0x80000000, "-0", "-0x0p+0", "-0" },
    { GELUREF_F32, 0xff800000, "-inf", "-inf", "-inf" },
    { GELUREF_F32, 0x7fc00000, "nan", "nan", "quiet NaN" },
    { GELUREF_F16, 0x7bff, "65500", "0x1.ffcp+15", "largest: 65504" },
    { GELUREF_F16, 0x0001, "6e-08", "0x1p-24", "smallest subnormal" },
    { GELUREF_F16, 0x0003, "2e-07", "0x1.8p-23", "a subnormal" },
    { GELUREF_F16, 0x03ff, "0.000061", "0x1.ff8p-15", "largest subnormal" },
    { GELUREF_F16, 0x0400, "0.00006104", "0x1p-14", "smallest normal" },
    { GELUREF_F16, 0x3555, "0.3333", "0x1.554p-2", "1/3" },
    { GELUREF_F16, 0x3c01, "1.001", "0x1.004p+0", "1 + ulp" },
    { GELUREF_F16, 0xb114, "-0.1587", "-0x1.45p-3", "GELU(-1)" },
    { GELUREF_F16, 0x8000, "-0", "-0x0p+0", "-0" },
    { GELUREF_F16, 0xfc00, "-inf", "-inf", "-inf" },
    { GELUREF_F16, 0xffff, "nan", "nan", "negative NaN" },
    { GELUREF_BF16, 0x3f80, "1", "0x1p+0", "1" },
    { GELUREF_BF16, 0x3f81, "1.01", "0x1.02p+0", "1 + ulp" },
    { GELUREF_BF16, 0x4049, "3.14", "0x1.92p+1", "pi" },
    { GELUREF_BF16, 0x7f7f, "3.39e+38", "0x1.fep+127", "largest" },
    { GELUREF_BF16, 0x0001, "9e-41", "0x1p-133", "smallest subnormal" },
    { GELUREF_BF16, 0x0080, "1.18e-38", "0x1p-126", "smallest normal" },
    { GELUREF_BF16, 0xbe22, "-0.158", "-0x1.44p-3", "GELU(-1) in rz" },
    { GELUREF_BF16, 0x7fc0, "nan", "nan", "quiet NaN" },
};

static void format_exact(void **state)
{
    char got[64];
    (void)state;
    for (size_t i = 0; i < N(cases); i++) {
        const struct fmt_case *c = &cases[i];
        size_t n = geluref_format_dec(got, sizeof got, c->dt, c->bits);
        if (strcmp(got, c->dec) != 0 || n != strlen(c->dec))
            fail_msg("row %zu %#llx (%s): dec '%s', want '%s'", i, (unsigned long long)c->bits,
                     c->why, got, c->dec);
        n = geluref_format_hex(got, sizeof got, c->dt, c->bits);
        if (strcmp(got, c->hex) != 0 || n != strlen(c->hex))
            fail_msg("row %zu %#llx (%s): hex '%s', want '%s'", i, (unsigned long long)c->bits,
                     c->why, got, c->hex);
    }
}

static void format_bits_and_truncation(void **state)
{
    char b[32];
    (void)state;
    assert_int_equal(geluref_format_bits(b, sizeof b, GELUREF_F16, 0x0001), 6);
    assert_string_equal(b, "0x0001");
    assert_int_equal(geluref_format_bits(b, sizeof b, GELUREF_BF16, 0xff80), 6);
    assert_string_equal(b, "0xff80");
    assert_int_equal(geluref_format_bits(b, sizeof b, GELUREF_F32, 0xc0b33333), 10);
    assert_string_equal(b, "0xc0b33333");
    assert_int_equal(geluref_format_bits(b, sizeof b, GELUREF_F64, 1), 18);
    assert_string_equal(b, "0x0000000000000001");
    /* snprintf-like: the full length is returned, the text cut and terminated */
    assert_int_equal(geluref_format_dec(b, 4, GELUREF_F32, 0xc0b33333), 4);
    assert_string_equal(b, "-5.");
    assert_int_equal(geluref_format_hex(b, 5, GELUREF_F32, 0xc0b33333), 14);
    assert_string_equal(b, "-0x1");
    assert_int_equal(geluref_format_bits(b, 1, GELUREF_F32, 0), 10);
    assert_string_equal(b, "");
    assert_int_equal(geluref_format_dec(NULL, 0, GELUREF_F64, 0xbfc44ed0bb7cb20b), 20);
}

/* format_dec then parse gives the same bits (NaN: any NaN), and -0 stays -0. */
static void check_round_trip(enum geluref_dtype dt, uint64_t bits)
{
    char dec[64];
    uint64_t back = ~bits;
    const char *why = NULL;
    mpfr_t v;

    geluref_format_dec(dec, sizeof dec, dt, bits);
    if (geluref_parse(dec, dt, &back, &why) != GELUREF_OK)
        fail_msg("%s %#llx: '%s' rejected: %s", geluref_dtype_name(dt),
                 (unsigned long long)bits, dec, why);
    mpfr_init2(v, 64);
    geluref_bits_to_mpfr(v, dt, bits);
    int nan = mpfr_nan_p(v);
    mpfr_clear(v);
    if (nan ? strcmp(dec, "nan") != 0 : back != bits)
        fail_msg("%s %#llx: '%s' reads back as %#llx", geluref_dtype_name(dt),
                 (unsigned long long)bits, dec, (unsigned long long)back);
}

static void format_round_trip_f16_bf16(void **state)
{
    (void)state;
    for (uint64_t b = 0; b <= 0xffff; b++) {
        check_round_trip(GELUREF_F16, b);
        check_round_trip(GELUREF_BF16, b);
    }
}

/* f32: every 65537th pattern and the neighbours of every binade edge; f64: 20000 patterns
 * of a fixed LCG.  About 3 s. */
static void format_round_trip_f32_f64_sampled(void **state)
{
    uint64_t s = 0x9e3779b97f4a7c15u;
    (void)state;
    for (uint64_t b = 0; b <= 0xffffffffu; b += 65537)
        check_round_trip(GELUREF_F32, b);
    for (uint64_t e = 0; e < 256; e++)
        for (uint64_t d = 0; d < 4; d++) {
            check_round_trip(GELUREF_F32, (e << 23) + d);
            check_round_trip(GELUREF_F32, ((e << 23) - 1 - d) & 0xffffffffu);
        }
    for (int i = 0; i < 20000; i++) {
        s = s * 6364136223846793005u + 1442695040888963407u;
        check_round_trip(GELUREF_F64, s);
    }
}

int run_format_tests(void)
{
    const struct CMUnitTest format[] = {
        cmocka_unit_test(format_exact),
        cmocka_unit_test(format_bits_and_truncation),
        cmocka_unit_test(format_round_trip_f16_bf16),
        cmocka_unit_test(format_round_trip_f32_f64_sampled),
    };
    return cmocka_run_group_tests_name("format", format, NULL, NULL);
}
