/* Formula mutants of the `mutants` adapter (adapters/mutants/mut_formula.c): each is its own
 * wrong function, or the right one with its one defect, asserted on chosen inputs. */
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

void test_wrong_formulas(void **state)
{
    (void)state;
    /* GELU(-1) = -0.15865525: each candidate is far from it, and is its own function */
    assert_true(fabsf(mut_at("nosqrt2.f32", -1.0f) - -0.0786496f) < 1e-6f); /* -erfc(1)/2 */
    assert_true(fabsf(mut_at("silu_as_gelu.f32", -1.0f) - -0.26894142f) < 1e-6f);
    assert_true(fabsf(mut_at("sigmoid_as_gelu.f32", -1.0f) - -0.15420423f) < 1e-6f);
    assert_true(fabsf(mut_at("tanh_as_gelu.f32", -3.0f) - -0.0036373921f) < 1e-8f);
    assert_true(dist32(mut_at("tanh_as_gelu.f32", -3.0f), ref_at(GELUCHECK_GELU, -3.0f)) > 1000);
    agrees("tanh_as_gelu.f32", GELUCHECK_GELU_TANH, -INFINITY, INFINITY);
    agrees("sigmoid_as_gelu.f32", GELUCHECK_GELU_SIGMOID, -INFINITY, INFINITY);
    uint64_t rng = 9;
    for (size_t i = 0; i < 300; i++) { /* x Phi(sqrt2 x), x sigmoid(x) from double */
        float x = sample(&rng, i, -12.0f, 12.0f);
        double xd = x;
        float a = (float)(0.5 * xd * erfc(-xd)), b = (float)(xd / (1.0 + exp(-xd)));
        if (isinf(x))
            continue;
        assert_true(dist32(mut_at("nosqrt2.f32", x), a) <= 1);
        assert_true(dist32(mut_at("silu_as_gelu.f32", x), b) <= 1);
    }
}

void test_erf1p_float(void **state)
{
    (void)state;
    const struct gelucheck_kernel *classic = au_kernel(gc_libm_entry(1), "erf1p.f32");
    uint64_t rng = 11;
    for (size_t i = 0; i < 300; i++) { /* the libm kernel, bit for bit */
        float x = sample(&rng, i, -8.0f, 8.0f);
        assert_int_equal(au_bits_f32(mut_at("erf1p_float.f32", x)),
                         au_eval1(classic, au_bits_f32(x)));
    }
    /* the flush: 0 at -5.6, non-zero at -5.4; the reference is -5.9e-8 and -1.8e-7 there */
    assert_true(mut_at("erf1p_float.f32", -5.6f) == 0.0f && ref_at(GELUCHECK_GELU, -5.6f) < 0);
    assert_true(mut_at("erf1p_float.f32", -5.4f) < 0.0f);
}

void test_poly6(void **state)
{
    (void)state;
    /* GELU falls on (-inf, x*], x* = -0.7518; the fit rises on [-3.5, -2.5] */
    assert_true(ref_at(GELUCHECK_GELU, -3.0f) < ref_at(GELUCHECK_GELU, -3.5f));
    assert_true(mut_at("poly6.f32", -3.0f) > mut_at("poly6.f32", -3.5f));
    assert_true(mut_at("poly6.f32", -0.9f) < -0.17f); /* below GELU's minimum -0.16997 */
    assert_true(mut_at("poly6.f32", 5.0f) == 5.0f && mut_at("poly6.f32", -5.0f) == 0.0f);
    assert_true(fabsf(mut_at("poly6.f32", 1.0f) - ref_at(GELUCHECK_GELU, 1.0f)) < 0.06f);
}

void test_tanh_overshoot(void **state)
{
    (void)state;
    /* gelu_tanh(-6) < 0; the overshooting tanh makes it positive (1 + t = -2^-23 there) */
    static const float deep[] = { -5.0f, -6.0f, -10.0f, -14.0f };
    for (size_t i = 0; i < sizeof deep / sizeof deep[0]; i++) {
        assert_true(mut_at("tanh_overshoot.f32", deep[i]) > 0.0f);
        assert_true(signbit(ref_at(GELUCHECK_GELU_TANH, deep[i]))); /* < 0, or -0 at -14 */
    }
    /* where 1 + tanh(u) is not small, a relative 2^-23 is about an ulp */
    static const float near[] = { -0.5f, -0.25f, 0.25f, 1.0f, 3.0f, 100.0f };
    for (size_t i = 0; i < sizeof near / sizeof near[0]; i++)
        assert_true(dist32(mut_at("tanh_overshoot.f32", near[i]),
                           ref_at(GELUCHECK_GELU_TANH, near[i])) <= 2);
    assert_int_equal(au_bits_f32(mut_at("tanh_overshoot.f32", -INFINITY)), 0x80000000u);
}

void test_ulp8(void **state)
{
    (void)state;
    static const float inside[] = { 1.0f, 1.5f, 0x1.fffffep0f }, outside[] = {
        0x1.fffffep-1f, 2.0f, -1.5f, 0.5f, 3.0f };
    for (size_t i = 0; i < 3; i++) /* the base is correctly rounded at these */
        assert_int_equal(dist32(mut_at("ulp8_1to2.f32", inside[i]),
                                ref_at(GELUCHECK_GELU, inside[i])), 8);
    for (size_t i = 0; i < 5; i++)
        assert_true(dist32(mut_at("ulp8_1to2.f32", outside[i]),
                           ref_at(GELUCHECK_GELU, outside[i])) <= 1);
}

void test_grad_no_xphi(void **state)
{
    (void)state;
    assert_int_equal(au_kernel(mutants(), "grad_no_xphi.f32")->func, GELUCHECK_GELU_GRAD);
    agrees("grad_no_xphi.f32", GELUCHECK_NORMCDF, -INFINITY, INFINITY);
    /* GELU'(1) = 1.0833154705876864 (docs/design.md section 2); Phi(1) = 0.8413 */
    assert_true(fabsf(mut_at("grad_no_xphi.f32", 1.0f) - 0.84134475f) < 1e-7f);
    assert_true(fabsf(ref_at(GELUCHECK_GELU_GRAD, 1.0f) - 1.0833155f) < 1e-7f);
}

