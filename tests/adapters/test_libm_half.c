/* gc_libm's float -> f16/bf16 rounding against the reference's own one-step MPFR rounding
 * (geluref_round_to_bits, RN), and the exact widening back.  Exhaustive in the sense that
 * matters: every one of the 65536 patterns, and around each the float values where RN
 * decides (the midpoint to the next value, one float either side of it), both signs,
 * overflow to inf, the subnormals, NaN. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "adapt_util.h"
#include "gc_libm.h"
#include "test_libm.h"

/* one float v: gc's rounding vs the reference's; returns 1 on a mismatch (reported) */
static int check_round(enum geluref_dtype dt, float v)
{
    mpfr_t m;
    mpfr_init2(m, 64);
    mpfr_set_flt(m, v, MPFR_RNDN); /* exact */
    uint16_t want = (uint16_t)geluref_round_to_bits(dt, m, MPFR_RNDN);
    mpfr_clear(m);
    uint16_t got = dt == GELUREF_F16 ? gc_f16_from_float(v) : gc_bf16_from_float(v);
    if (isnan(v)) {
        int ok = dt == GELUREF_F16 ? ((got & 0x7c00) == 0x7c00 && (got & 0x200))
                                   : ((got & 0x7f80) == 0x7f80 && (got & 0x40));
        if (!ok)
            print_error("%s: NaN 0x%08llx gave 0x%04x, not a quiet NaN\n",
                        geluref_dtype_name(dt), (unsigned long long)au_bits_f32(v), got);
        return !ok;
    }
    if (got != want)
        print_error("%s: %a (0x%08llx) rounds to 0x%04x, reference 0x%04x\n",
                    geluref_dtype_name(dt), (double)v, (unsigned long long)au_bits_f32(v),
                    got, want);
    return got != want;
}

/* widening: exact (the reference's value of the bits), NaN stays NaN */
static int check_widen(enum geluref_dtype dt, uint16_t h)
{
    float f = dt == GELUREF_F16 ? gc_f16_to_float(h) : gc_bf16_to_float(h);
    mpfr_t m;
    mpfr_init2(m, 64);
    geluref_bits_to_mpfr(m, dt, h);
    int bad = mpfr_nan_p(m) ? !isnan(f) : (isnan(f) || mpfr_cmp_d(m, f) != 0 ||
                                           !signbit(f) != !mpfr_signbit(m));
    mpfr_clear(m);
    if (bad)
        print_error("%s: 0x%04x widened to %a\n", geluref_dtype_name(dt), h, (double)f);
    return bad;
}

/* every pattern, and for each finite h >= 0 the floats around the midpoint to h + 1 */
static void sweep(enum geluref_dtype dt, uint16_t max_finite, float above_max)
{
    int bad = 0;
    for (uint32_t h = 0; h < 65536 && bad < 10; h++) {
        bad += check_widen(dt, (uint16_t)h);
        float a = dt == GELUREF_F16 ? gc_f16_to_float((uint16_t)h) : gc_bf16_to_float((uint16_t)h);
        bad += check_round(dt, a); /* round trip (NaN: stays NaN) */
        if ((h & 0x8000) || h > max_finite)
            continue;
        float b = h == max_finite ? above_max
                  : dt == GELUREF_F16 ? gc_f16_to_float((uint16_t)(h + 1))
                                      : gc_bf16_to_float((uint16_t)(h + 1));
        /* the midpoint: exact in float (12 or 9 significant bits), a + b cannot overflow */
        float mid = dt == GELUREF_BF16 && h == max_finite ? 0x1.ffp127f : (a + b) * 0.5f;
        const float around[] = { mid, nextafterf(mid, 0.0f), nextafterf(mid, INFINITY),
                                 nextafterf(a, INFINITY), nextafterf(b, 0.0f) };
        for (size_t i = 0; i < sizeof around / sizeof around[0]; i++) {
            bad += check_round(dt, around[i]);
            bad += check_round(dt, -around[i]);
        }
    }
    assert_int_equal(bad, 0);
}

void test_f16_conversion(void **state)
{
    (void)state;
    /* 0x7bff = 65504, the largest f16; "above" it, 65536 = 2^16, is where inf begins */
    sweep(GELUREF_F16, 0x7bff, 65536.0f);
    assert_int_equal(gc_f16_from_float(65519.99f), 0x7bff);
    assert_int_equal(gc_f16_from_float(65520.0f), 0x7c00); /* the tie goes to inf (even) */
    assert_int_equal(gc_f16_from_float(0x1p-25f), 0x0000); /* half the least subnormal: 0 */
    assert_int_equal(gc_f16_from_float(-0x1.000002p-25f), 0x8001);
}

void test_bf16_conversion(void **state)
{
    (void)state;
    /* 0x7f7f = 0x1.fep127, the largest bf16; its midpoint to 2^128 is 0x1.ffp127 */
    sweep(GELUREF_BF16, 0x7f7f, INFINITY);
    assert_int_equal(gc_bf16_from_float(0x1.ffp127f), 0x7f80);          /* tie: to inf */
    assert_int_equal(gc_bf16_from_float(0x1.fefffep127f), 0x7f7f);
    assert_int_equal(gc_bf16_from_float(0x1p-149f), 0x0000); /* float subnormals round too */
    assert_int_equal(gc_bf16_from_float(0x1.4p-133f), 0x0001);
    assert_int_equal(gc_bf16_from_float(0x1.8p-133f), 0x0002); /* tie: to even */
}

/* 400000 random float patterns (every class: NaN, inf, subnormal, normal) */
void test_random_conversion(void **state)
{
    (void)state;
    uint64_t rng = 5;
    int bad = 0;
    for (int i = 0; i < 200000 && bad < 10; i++) {
        float v = au_f32(au_rand(&rng) >> 32);
        bad += check_round(GELUREF_F16, v);
        bad += check_round(GELUREF_BF16, v);
    }
    assert_int_equal(bad, 0);
}
