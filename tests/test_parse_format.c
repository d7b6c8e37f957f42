/* geluref_parse: table tests (group parse); the format group is in test_format.c.
 *
 * Every expected bit pattern was computed independently of MPFR, by exact rational
 * round-to-nearest-even in Python (fractions.Fraction), and checked against Python's struct
 * module where a native format exists.  Groups: parse, format. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <geluref.h>

#include "test_format.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

struct parse_ok {
    const char *text;
    enum geluref_dtype dt;
    uint64_t bits;
    const char *why;
};

static const struct parse_ok accepted[] = {
    { "0", GELUREF_F32, 0x00000000, "zero" },
    { "-0", GELUREF_F32, 0x80000000, "negative zero keeps its sign" },
    { "+0", GELUREF_F64, 0x0000000000000000, "explicit plus" },
    { "+1", GELUREF_F32, 0x3f800000, "explicit plus" },
    { ".5", GELUREF_F32, 0x3f000000, "no integer digits" },
    { "5.", GELUREF_F32, 0x40a00000, "no fraction digits" },
    { "1E3", GELUREF_F32, 0x447a0000, "upper-case exponent" },
    { "1e+3", GELUREF_F32, 0x447a0000, "signed exponent" },
    { "0.1", GELUREF_F64, 0x3fb999999999999a, "0x1.999999999999ap-4" },
    { "0.1", GELUREF_F32, 0x3dcccccd, "0x1.99999ap-4" },
    { "0.1", GELUREF_F16, 0x2e66, "0x1.998p-4" },
    { "0.1", GELUREF_BF16, 0x3dcd, "0x1.9ap-4" },
    { "-5.6", GELUREF_F32, 0xc0b33333, "-0x1.666666p+2" },
    { "-5.6", GELUREF_F64, 0xc016666666666666, "-0x1.6666666666666p+2" },
    { "-5.6", GELUREF_F16, 0xc59a, "-0x1.668p+2" },
    { "-5.6", GELUREF_BF16, 0xc0b3, "-0x1.66p+2" },
    { "-0.15865525393145705", GELUREF_F64, 0xbfc44ed0bb7cb20b, "GELU(-1)" },
    { "-14.356067657470703", GELUREF_F32, 0xc165b274, "last f32 x with GELU(x) != 0" },
    { "-0.7517915246935645", GELUREF_F64, 0xbfe80ead197f00b4, "x*, the minimum of GELU" },
    /* hex floats */
    { "0X1P0", GELUREF_F32, 0x3f800000, "upper-case hex float" },
    { "0x.8p1", GELUREF_F32, 0x3f800000, "hex float without integer digits" },
    { "0x1.p0", GELUREF_F32, 0x3f800000, "hex float without fraction digits" },
    { "-0x1.8p+1", GELUREF_F32, 0xc0400000, "-3" },
    { "0x1p-149", GELUREF_F32, 0x00000001, "smallest f32 subnormal" },
    { "0x1p-150", GELUREF_F32, 0x00000000, "half the smallest subnormal: tie to even 0" },
    { "0x1.000002p-150", GELUREF_F32, 0x00000001, "just above the half: up" },
    { "0x1.8p-149", GELUREF_F32, 0x00000002, "1.5 subnormal ulps: tie to even 2" },
    { "0x1.7fffffp-149", GELUREF_F32, 0x00000001, "below the tie" },
    { "0x1.7fffff8p-149", GELUREF_F32, 0x00000001,
      "a tie at 24 bits just below a subnormal tie: double rounding would give 2" },
    { "0x1.80000001p-149", GELUREF_F32, 0x00000002, "above the tie" },
    { "0x1p-24", GELUREF_F16, 0x0001, "smallest f16 subnormal" },
    { "0x1p-25", GELUREF_F16, 0x0000, "half of it: tie to even 0" },
    { "0x1.8p-25", GELUREF_F16, 0x0001, "0.75 of it: up" },
    /* decimal subnormals and range ends */
    { "7.0064923216240853546e-46", GELUREF_F32, 0x00000000, "just below 2^-150" },
    { "7.0064923216240853547e-46", GELUREF_F32, 0x00000001, "just above 2^-150" },
    { "1e-45", GELUREF_F32, 0x00000001, "shortest text of 2^-149" },
    { "4.9e-324", GELUREF_F64, 0x0000000000000001, "smallest f64 subnormal" },
    { "2.4703282292062327e-324", GELUREF_F64, 0x0000000000000000, "just below 2^-1075" },
    { "2.4703282292062328e-324", GELUREF_F64, 0x0000000000000001, "just above 2^-1075" },
    { "1.7976931348623157e308", GELUREF_F64, 0x7fefffffffffffff, "largest f64" },
    { "1.7976931348623158e308", GELUREF_F64, 0x7fefffffffffffff, "below the overflow tie" },
    { "1.7976931348623159e308", GELUREF_F64, 0x7ff0000000000000, "above it: inf" },
    { "1e309", GELUREF_F64, 0x7ff0000000000000, "overflow" },
    { "1e99999", GELUREF_F32, 0x7f800000, "huge exponent" },
    { "1e-99999", GELUREF_F32, 0x00000000, "tiny exponent" },
    { "-1e-99999", GELUREF_F32, 0x80000000, "underflow keeps the sign" },
    { "3.4028235e38", GELUREF_F32, 0x7f7fffff, "largest f32" },
    { "3.4028236e38", GELUREF_F32, 0x7f800000, "above the f32 overflow tie" },
    /* f16: range end, subnormals, ties to even */
    { "65504", GELUREF_F16, 0x7bff, "largest f16" },
    { "65519.99", GELUREF_F16, 0x7bff, "just below the overflow tie 65520" },
    { "65520", GELUREF_F16, 0x7c00, "the overflow tie: to even, inf" },
    { "-65520", GELUREF_F16, 0xfc00, "the overflow tie, negative" },
    { "6e-8", GELUREF_F16, 0x0001, "near the smallest subnormal 2^-24" },
    { "6.097555160522461e-05", GELUREF_F16, 0x03ff, "largest f16 subnormal" },
    { "2.98e-8", GELUREF_F16, 0x0000, "below 2^-25" },
    { "2.99e-8", GELUREF_F16, 0x0001, "above 2^-25" },
    { "1.00048828125", GELUREF_F16, 0x3c00, "1+2^-11: tie to even 1" },
    { "1.00146484375", GELUREF_F16, 0x3c02, "1+3*2^-11: tie to even, up" },
    { "2049", GELUREF_F16, 0x6800, "integer tie: 2048" },
    { "2051", GELUREF_F16, 0x6802, "integer tie: 2052" },
    { "1.0004882813", GELUREF_F16, 0x3c01, "just above 1+2^-11: through float it ties to 1" },
    /* bf16 */
    { "1.00390625", GELUREF_BF16, 0x3f80, "1+2^-8: tie to even 1" },
    { "1.01171875", GELUREF_BF16, 0x3f82, "1+3*2^-8: tie to even, up" },
    { "1.00390625001", GELUREF_BF16, 0x3f81, "just above 1+2^-8: through float it ties to 1" },
    { "3.3895313892515355e38", GELUREF_BF16, 0x7f7f, "largest bf16" },
    { "3.396177529230460e38", GELUREF_BF16, 0x7f7f, "just below the bf16 overflow tie" },
    { "3.396177529230461e38", GELUREF_BF16, 0x7f80, "just above it: inf" },
    { "9.2e-41", GELUREF_BF16, 0x0001, "smallest bf16 subnormal 2^-133" },
    /* raw bits, specials */
    { "0x3f800000", GELUREF_F32, 0x3f800000, "raw bits" },
    { "0X3F800000", GELUREF_F32, 0x3f800000, "raw bits, upper case" },
    { "0x7f800001", GELUREF_F32, 0x7f800001, "raw bits of a signalling NaN, kept" },
    { "0xffff", GELUREF_F16, 0xffff, "raw bits of a negative NaN, kept" },
    { "0x8000", GELUREF_BF16, 0x8000, "raw bits -0" },
    { "0xbfc44ed0bb7cb20b", GELUREF_F64, 0xbfc44ed0bb7cb20b, "raw f64 bits" },
    { "inf", GELUREF_F32, 0x7f800000, "inf" },
    { "-INF", GELUREF_F16, 0xfc00, "-inf, any case" },
    { "+Infinity", GELUREF_F64, 0x7ff0000000000000, "infinity" },
    { "-infinity", GELUREF_BF16, 0xff80, "-infinity" },
    { "nan", GELUREF_F32, 0x7fc00000, "the default quiet NaN" },
    { "-NaN", GELUREF_F16, 0x7e00, "NaN's sign is not kept" },
    { "NAN", GELUREF_BF16, 0x7fc0, "bf16 quiet NaN" },
};

struct parse_bad {
    const char *text;
    enum geluref_dtype dt;
    const char *why_part; /* must occur in the why string */
};

static const struct parse_bad rejected[] = {
    { "", GELUREF_F32, "empty" },
    { " 1", GELUREF_F32, "white space" },
    { "1 ", GELUREF_F32, "white space" },
    { "1 2", GELUREF_F32, "white space" },
    { "\t1", GELUREF_F32, "white space" },
    { "1e", GELUREF_F32, "exponent has no digits" },
    { "1e+", GELUREF_F32, "exponent has no digits" },
    { "1.5e", GELUREF_F64, "exponent has no digits" },
    { "--1", GELUREF_F32, "more than one sign" },
    { "+-1", GELUREF_F32, "more than one sign" },
    { "1.5.2", GELUREF_F32, "more than one decimal point" },
    { "abc", GELUREF_F32, "not a number" },
    { "e5", GELUREF_F32, "not a number" },
    { ".", GELUREF_F32, "no digits" },
    { "-", GELUREF_F32, "not a number" },
    { "1x", GELUREF_F32, "unexpected character" },
    { "1,5", GELUREF_F32, "unexpected character" },
    { "1e5.5", GELUREF_F32, "unexpected character" },
    { "1_000", GELUREF_F32, "unexpected character" },
    { "infinit", GELUREF_F32, "not a number" },
    { "nan(1)", GELUREF_F32, "not a number" },
    { "@inf@", GELUREF_F32, "not a number" },
    { "0b101", GELUREF_F32, "unexpected character" },
    { "0x1.8", GELUREF_F32, "hex float needs a 'p' exponent" },
    { "0x1.8e", GELUREF_F16, "hex float needs a 'p' exponent" },
    { "0x3f80", GELUREF_F32, "exactly 8 hex digits for f32 bits" },
    { "0x3f800000", GELUREF_F16, "exactly 4 hex digits for f16 bits" },
    { "0x3f800000", GELUREF_BF16, "exactly 4 hex digits for bf16 bits" },
    { "0x3f800000", GELUREF_F64, "exactly 16 hex digits for f64 bits" },
    { "0x", GELUREF_F32, "exactly 8 hex digits" },
    { "0xzzzzzzzz", GELUREF_F32, "not a hex digit" },
    { "-0x3f800000", GELUREF_F32, "raw bits take no sign" },
    { "0x1p", GELUREF_F32, "exponent has no digits" },
    { "0x1.8p+", GELUREF_F32, "exponent has no digits" },
    { "0xp1", GELUREF_F32, "not a number" },
    { "0x1.8p1.5", GELUREF_F32, "unexpected character" },
    { "0x1g.8p0", GELUREF_F32, "unexpected character in hex float" },
};

static void parse_accepts(void **state)
{
    (void)state;
    for (size_t i = 0; i < N(accepted); i++) {
        const struct parse_ok *r = &accepted[i];
        const char *why = NULL;
        uint64_t got = 0;
        if (geluref_parse(r->text, r->dt, &got, &why) != GELUREF_OK)
            fail_msg("row %zu '%s' (%s): rejected: %s", i, r->text, r->why, why);
        if (got != r->bits)
            fail_msg("row %zu '%s' (%s): got %#llx, want %#llx", i, r->text, r->why,
                     (unsigned long long)got, (unsigned long long)r->bits);
    }
}

static void parse_rejects(void **state)
{
    (void)state;
    for (size_t i = 0; i < N(rejected); i++) {
        const struct parse_bad *r = &rejected[i];
        const char *why = NULL;
        uint64_t got = 0x5a5a;
        if (geluref_parse(r->text, r->dt, &got, &why) != GELUREF_E_SYNTAX)
            fail_msg("row %zu '%s': accepted as %#llx", i, r->text, (unsigned long long)got);
        if (!why || !strstr(why, r->why_part))
            fail_msg("row %zu '%s': why '%s' lacks '%s'", i, r->text, why ? why : "(null)",
                     r->why_part);
        if (got != 0x5a5a)
            fail_msg("row %zu '%s': *bits written on failure", i, r->text);
    }
    uint64_t b = 0;
    const char *why = NULL;
    assert_int_equal(geluref_parse("1", GELUREF_F32, &b, NULL), GELUREF_OK);
    assert_int_equal(geluref_parse("x", GELUREF_F32, &b, NULL), GELUREF_E_SYNTAX);
    assert_int_equal(geluref_parse("1", (enum geluref_dtype)9, &b, &why), GELUREF_E_INVALID);
    assert_string_equal(why, "unknown dtype");
}

/* The table rows marked "through float" would fail for a parser that reads float first:
 * shown here by doing exactly that (strtof is correctly rounded in glibc, then one more RN). */
static void parse_through_float_would_fail(void **state)
{
    static const struct parse_ok traps[] = {
        { "1.00390625001", GELUREF_BF16, 0x3f81, "bf16" },
        { "1.0004882813", GELUREF_F16, 0x3c01, "f16" },
    };
    (void)state;
    for (size_t i = 0; i < N(traps); i++) {
        mpfr_t v;
        mpfr_init2(v, 24);
        mpfr_set_flt(v, strtof(traps[i].text, NULL), MPFR_RNDN);
        uint64_t twice = geluref_round_to_bits(traps[i].dt, v, MPFR_RNDN);
        mpfr_clear(v);
        uint64_t once = 0;
        assert_int_equal(geluref_parse(traps[i].text, traps[i].dt, &once, NULL), GELUREF_OK);
        assert_int_equal(once, traps[i].bits);
        if (twice == once)
            fail_msg("'%s' (%s) is no double-rounding trap", traps[i].text, traps[i].why);
    }
}

int main(void)
{
    const struct CMUnitTest parse[] = {
        cmocka_unit_test(parse_accepts),
        cmocka_unit_test(parse_rejects),
        cmocka_unit_test(parse_through_float_would_fail),
    };
    int failed = cmocka_run_group_tests_name("parse", parse, NULL, NULL);
    failed += run_format_tests();
    return failed ? 1 : 0;
}
