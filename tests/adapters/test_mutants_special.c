/* Special-value mutants of the `mutants` adapter (adapters/mutants/mut_special.c): wrong at
 * the infinities, zeros, tail, overflow, subnormals; the f16 tanh formula's NaN. */
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "adapt_util.h"
#include "gc_libm.h"
#include "test_mutants.h"

#define GELU GELUCHECK_GELU

void test_clamp0(void **state)
{
    (void)state;
    /* GELU(-1) = -0.15865525393145705: the clamp gives +0 */
    assert_int_equal(au_bits_f32(mut_at("clamp0.f32", -1.0f)), 0x00000000u);
    assert_true(ref_at(GELU, -1.0f) < -0.1586f);
    assert_int_equal(au_bits_f32(mut_at("clamp0.f32", -0.0f)), 0x80000000u); /* -0 kept */
    agrees("clamp0.f32", GELU, 0.0f, INFINITY);
    uint64_t rng = 13;
    for (size_t i = 0; i < 100; i++) { /* every negative result lost */
        float x = (float)au_uniform(&rng, -14.0f, -0x1p-20f);
        assert_true(mut_at("clamp0.f32", x) == 0.0f && ref_at(GELU, x) < 0.0f);
    }
}

void test_nan_neginf(void **state)
{
    (void)state;
    assert_true(isnan(mut_at("nan_neginf.f32", -INFINITY)));
    assert_int_equal(au_bits_f32(ref_at(GELU, -INFINITY)), 0x80000000u); /* want -0 */
    agrees("nan_neginf.f32", GELU, -INFINITY, INFINITY); /* +inf, +-0, tiny, +-1e30 too */
    /* and it is libm's erfc_via_f64.f32 where that one is right (|x| >= 2^-30 here) */
    const struct gelucheck_kernel *k = au_kernel(gc_libm_entry(1), "erfc_via_f64.f32");
    for (float x = -14.5f; x < 14.5f; x += 0.37f)
        assert_int_equal(au_bits_f32(mut_at("nan_neginf.f32", x)), au_eval1(k, au_bits_f32(x)));
}

void test_pos_zero(void **state)
{
    (void)state;
    static const float zeros[] = { -0.0f, -20.0f, -15.0f, -1e30f, -INFINITY };
    for (size_t i = 0; i < sizeof zeros / sizeof zeros[0]; i++) {
        assert_int_equal(au_bits_f32(mut_at("pos_zero.f32", zeros[i])), 0x00000000u);
        assert_int_equal(au_bits_f32(ref_at(GELU, zeros[i])), 0x80000000u);
    }
    agrees("pos_zero.f32", GELU, -14.3f, INFINITY); /* +-0: one position apart 0 */
}

void test_overflow2x(void **state)
{
    (void)state;
    /* 2 x overflows float from x = 2^127 on; GELU(x) = x there */
    static const float big[] = { 0x1p127f, FLT_MAX, 0x1.8p127f };
    for (size_t i = 0; i < 3; i++) {
        assert_true(isinf(mut_at("overflow2x.f32", big[i])));
        assert_true(ref_at(GELU, big[i]) == big[i]);
    }
    assert_true(mut_at("overflow2x.f32", 0x1.fffffep126f) == 0x1.fffffep126f);
    agrees("overflow2x.f32", GELU, -INFINITY, INFINITY);
}

void test_ftz_result(void **state)
{
    (void)state;
    /* subnormal GELU results: x <= -13.1462469 (down to -14.356), and |x| < 2^-125 */
    static const float sub[] = { -13.5f, -14.0f, -13.15f, 0x1p-130f, -0x1p-127f, 0x1p-149f };
    for (size_t i = 0; i < sizeof sub / sizeof sub[0]; i++) {
        float r = ref_at(GELU, sub[i]), y = mut_at("ftz_result.f32", sub[i]);
        assert_true(r != 0.0f && fabsf(r) < FLT_MIN);
        assert_true(y == 0.0f && !signbit(y) == !signbit(r));
    }
    uint64_t rng = 17; /* normal results agree */
    for (size_t i = 0; i < 300; i++) {
        float x = (float)au_uniform(&rng, -13.1, 13.1);
        if (fabsf(x) >= 0x1p-120f)
            assert_true(dist32(mut_at("ftz_result.f32", x), ref_at(GELU, x)) <= 1);
    }
}

static uint16_t f16_at(float x)
{
    const struct gelucheck_kernel *k = au_kernel(mutants(), "tanh_f16div.f16");
    return (uint16_t)au_eval1(k, gc_f16_from_float(x));
}

void test_tanh_f16div(void **state)
{
    (void)state;
    /* e^2u overflows f16 (> 65504) once 2u >= ln 65520 = 11.09: the first such f16 x */
    uint16_t first_nan = 0;
    for (uint16_t h = 0x0000; h < 0x7c00; h++) {
        uint16_t y = f16_at(gc_f16_to_float(h));
        if (au_is_nan(GELUCHECK_F16, y)) {
            first_nan = h;
            break;
        }
        uint64_t r = au_ref(GELUCHECK_GELU_TANH, GELUCHECK_F16, h); /* finite below: close */
        assert_true(au_cr_distance(GELUCHECK_F16, y, r) <= 2);
    }
    print_message("tanh_f16div.f16: NaN from x = %g on (reference gelu_tanh there: %g)\n",
                  (double)gc_f16_to_float(first_nan),
                  (double)gc_f16_to_float((uint16_t)au_ref(GELUCHECK_GELU_TANH, GELUCHECK_F16,
                                                           first_nan)));
    assert_true(gc_f16_to_float(first_nan) > 3.9f && gc_f16_to_float(first_nan) < 4.2f);
    for (uint16_t h = first_nan; h < 0x7c00; h++) /* and NaN all the way to 65504 */
        assert_true(au_is_nan(GELUCHECK_F16, f16_at(gc_f16_to_float(h))));
    assert_false(au_is_nan(GELUCHECK_F16, au_ref(GELUCHECK_GELU_TANH, GELUCHECK_F16, 0x4500)));
}
