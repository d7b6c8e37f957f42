/* The library's interfaces: status codes, the precision cap, the counters, the MPFR-style
 * layer at precisions other than the dtypes', and the caller's MPFR state left alone. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "geluref.h"
#include "refcheck.h"

static void test_invalid(void **state)
{
    (void)state;
    uint64_t y = 0;
    struct geluref_config cfg;
    geluref_config_init(&cfg);
    assert_int_equal(geluref_eval(0, GELUREF_F32, 0, MPFR_RNDN, &y, NULL, NULL),
                     GELUREF_E_INVALID);
    assert_int_equal(geluref_eval(GELUREF_GELU, 9, 0, MPFR_RNDN, &y, NULL, NULL),
                     GELUREF_E_INVALID);
    assert_int_equal(geluref_eval(GELUREF_GELU, GELUREF_F32, 0, MPFR_RNDA, &y, NULL, NULL),
                     GELUREF_E_INVALID);
    cfg.scale = 0;
    assert_int_equal(geluref_eval(GELUREF_GELU_SCALED, GELUREF_F32, 0, MPFR_RNDN, &y, &cfg,
                                  NULL), GELUREF_E_INVALID);
    assert_string_equal(geluref_func_name(GELUREF_GELU_TANH_GRAD), "gelu_tanh_grad");
    assert_null(geluref_func_name(0));
    enum geluref_dtype dt;
    assert_int_equal(geluref_dtype_from_name("bf16", &dt), 0);
    assert_int_equal(dt, GELUREF_BF16);
    assert_int_not_equal(geluref_dtype_from_name("f8", &dt), 0);
}

/* A cap below what an input needs is an error status, never a value. */
static void test_precision_cap(void **state)
{
    (void)state;
    struct geluref_config cfg;
    struct geluref_stats st = { 0 };
    uint64_t y = 0x1234;
    geluref_config_init(&cfg);
    cfg.prec_cap = 20; /* below the 24 bits of an f32 result */
    assert_int_equal(geluref_eval(GELUREF_GELU, GELUREF_F32, refcheck_bits(GELUREF_F32, -1.0),
                                  MPFR_RNDN, &y, &cfg, &st), GELUREF_E_PREC_CAP);
    assert_true(y == 0x1234); /* untouched */
    assert_int_equal(st.cap_hits, 1);
    mpfr_t x, r;
    int t = 7;
    mpfr_inits2(53, x, r, (mpfr_ptr)0);
    mpfr_set_si(x, -1, MPFR_RNDN);
    assert_int_equal(geluref_eval_mpfr(GELUREF_GELU, r, x, NULL, MPFR_RNDN, &cfg, NULL, &t),
                     GELUREF_E_PREC_CAP);
    assert_true(mpfr_nan_p(r) && t == 0);
    mpfr_clears(x, r, (mpfr_ptr)0);
}

/* The counters say which path decided: special, rule or Ziv. */
static void test_stats(void **state)
{
    (void)state;
    struct geluref_stats st = { 0 };
    uint64_t y;
    geluref_eval(GELUREF_GELU, GELUREF_F32, refcheck_bits(GELUREF_F32, 0.0), MPFR_RNDN, &y,
                 NULL, &st);
    geluref_eval(GELUREF_GELU, GELUREF_F32, refcheck_bits(GELUREF_F32, -100.0), MPFR_RNDN, &y,
                 NULL, &st);
    geluref_eval(GELUREF_GELU, GELUREF_F32, refcheck_bits(GELUREF_F32, 100.0), MPFR_RNDN, &y,
                 NULL, &st);
    geluref_eval(GELUREF_GELU, GELUREF_F32, refcheck_bits(GELUREF_F32, 1.5), MPFR_RNDN, &y,
                 NULL, &st);
    assert_int_equal(st.calls, 4);
    assert_int_equal(st.special, 1);
    assert_int_equal(st.rule, 2);
    assert_int_equal(st.ziv, 1);
    assert_true(st.max_prec >= 24);
}

/* MPFR-style layer at precisions no dtype has: y at p bits must be within half an ulp of the
 * value at 4p + 64 bits, with a ternary of the right sign; the same in every mode. */
static void test_mpfr_layer(void **state)
{
    (void)state;
    static const mpfr_prec_t precs[] = { 2, 7, 64, 113, 300 };
    static const double xs[] = { -37.25, -5.5, -0.75179, -1e-30, 3e-9, 0.5, 2.7, 9.0 };
    uint64_t rs = 7;
    for (int f = GELUREF_GELU; f <= GELUREF_GELU_GRAD2; f++)
        for (size_t i = 0; i < sizeof precs / sizeof precs[0]; i++)
            for (size_t j = 0; j < sizeof xs / sizeof xs[0]; j++) {
                mpfr_t x, y, h, d;
                mpfr_prec_t p = precs[i];
                mpfr_rnd_t rnd = refcheck_modes[refcheck_rand(&rs) % 4];
                mpfr_init2(x, 53);
                mpfr_init2(y, p);
                mpfr_init2(h, 4 * p + 64);
                mpfr_init2(d, 4 * p + 64);
                mpfr_set_d(x, xs[j], MPFR_RNDN);
                int t, th;
                assert_int_equal(geluref_eval_mpfr(f, y, x, NULL, rnd, NULL, NULL, &t), 0);
                assert_int_equal(geluref_eval_mpfr(f, h, x, NULL, MPFR_RNDN, NULL, NULL, &th), 0);
                mpfr_sub(d, y, h, MPFR_RNDN); /* y - v, up to ulp(h)/2 */
                mpfr_exp_t ulp = mpfr_get_exp(y) - p, ulph = mpfr_get_exp(h) - (4 * p + 64);
                mpfr_t e;
                mpfr_init2(e, 2);
                mpfr_set_ui_2exp(e, 1, ulph, MPFR_RNDN);
                int sure = mpfr_cmpabs(d, e) > 0; /* sign(y - v) known */
                if (sure && ((mpfr_sgn(d) > 0) != (t > 0) || t == 0))
                    fail_msg("%s(%g) at %ld bits %s: ternary %d, y - v has sign %d",
                             geluref_func_name(f), xs[j], (long)p, geluref_rnd_name(rnd), t,
                             mpfr_sgn(d));
                /* |y - v| <= ulp(y)/2 (RN) or < ulp(y) (directed), widened by ulp(h)/2 */
                mpfr_abs(d, d, MPFR_RNDN);
                mpfr_div_2ui(e, e, 1, MPFR_RNDN);
                mpfr_sub(d, d, e, MPFR_RNDN);
                mpfr_clear(e);
                if (rnd == MPFR_RNDN ? mpfr_cmp_ui_2exp(d, 1, ulp - 1) > 0
                                     : mpfr_cmp_ui_2exp(d, 1, ulp) >= 0)
                    fail_msg("%s(%g) at %ld bits %s: not correctly rounded",
                             geluref_func_name(f), xs[j], (long)p, geluref_rnd_name(rnd));
                if (rnd == MPFR_RNDU || rnd == MPFR_RNDD)
                    assert_true((t > 0) == (rnd == MPFR_RNDU));
                mpfr_clears(x, y, h, d, (mpfr_ptr)0);
            }
}

/* The caller's exponent range and flags survive a call; the result obeys the caller's
 * range (an underflow there is the caller's underflow). */
static void test_caller_state(void **state)
{
    (void)state;
    mpfr_t x, y;
    mpfr_inits2(53, x, y, (mpfr_ptr)0);
    mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
    mpfr_set_emin(-100);
    mpfr_set_emax(100);
    mpfr_clear_flags();
    mpfr_set_si(x, -20, MPFR_RNDN); /* gelu(-20) ~ -5.5e-88 ~ -2^-290: below 2^-101 */
    int t = geluref_gelu(y, x, MPFR_RNDN);
    assert_true(mpfr_zero_p(y) && mpfr_signbit(y) && t > 0);
    assert_true(mpfr_underflow_p() && mpfr_inexflag_p());
    assert_int_equal(mpfr_get_emin(), -100);
    assert_int_equal(mpfr_get_emax(), 100);
    t = geluref_gelu(y, x, MPFR_RNDD);
    assert_true(mpfr_cmp_si_2exp(y, -1, -101) == 0 && t < 0);
    mpfr_set_emin(emin);
    mpfr_set_emax(emax);
    mpfr_clear_flags();
    mpfr_set_si(x, 1, MPFR_RNDN);
    geluref_gelu_tanh(y, x, MPFR_RNDN);
    assert_false(mpfr_underflow_p() || mpfr_erangeflag_p() || mpfr_nanflag_p());
    assert_true(mpfr_inexflag_p());
    mpfr_clears(x, y, (mpfr_ptr)0);
}

/* The gradients' sums far out in the negative tail, where both terms lie below 2^-1000000
 * but inside MPFR's range: the cancellation charge must use the terms' real exponents
 * (a review found the cap error here for x from -214 and -1178 on). */
static void test_grad_far_tail(void **state)
{
    (void)state;
    static const double xs[] = { -214, -300, -1200, -5000, -30000 };
    for (size_t i = 0; i < sizeof xs / sizeof xs[0]; i++) {
        mpfr_t x, y, v, t;
        int inex;
        mpfr_init2(x, 53);
        mpfr_init2(y, 53);
        mpfr_inits2(4000, v, t, (mpfr_ptr)0);
        mpfr_set_d(x, xs[i], MPFR_RNDN);
        assert_int_equal(geluref_eval_mpfr(GELUREF_GELU_GRAD, y, x, NULL, MPFR_RNDN, NULL, NULL,
                                           &inex), GELUREF_OK);
        /* naive at 4000 bits: erfc(-x/sqrt2)/2 + x exp(-x^2/2)/sqrt(2 pi); the terms cancel
         * by about 1/x^2, far less than the 4000 - 53 spare bits */
        mpfr_set_d(t, 0.5, MPFR_RNDN);
        mpfr_sqrt(t, t, MPFR_RNDN);
        mpfr_mul(t, t, x, MPFR_RNDN);
        mpfr_neg(t, t, MPFR_RNDN);
        mpfr_erfc(v, t, MPFR_RNDN);
        mpfr_div_2ui(v, v, 1, MPFR_RNDN);
        mpfr_sqr(t, x, MPFR_RNDN);
        mpfr_div_2ui(t, t, 1, MPFR_RNDN);
        mpfr_neg(t, t, MPFR_RNDN); /* -x^2/2, exact */
        mpfr_exp(t, t, MPFR_RNDN);
        mpfr_mul(t, t, x, MPFR_RNDN);
        mpfr_t c;
        mpfr_init2(c, 4000);
        mpfr_const_pi(c, MPFR_RNDN);
        mpfr_mul_2ui(c, c, 1, MPFR_RNDN);
        mpfr_sqrt(c, c, MPFR_RNDN);
        mpfr_div(t, t, c, MPFR_RNDN);
        mpfr_add(v, v, t, MPFR_RNDN);
        mpfr_prec_round(v, 53, MPFR_RNDN);
        if (!mpfr_equal_p(y, v))
            fail_msg("gelu_grad(%g) at 53 bits differs from the naive 4000-bit value", xs[i]);
        assert_int_equal(geluref_eval_mpfr(GELUREF_GELU_TANH_GRAD, y, x, NULL, MPFR_RNDN, NULL,
                                           NULL, &inex), GELUREF_OK);
        assert_true(mpfr_signbit(y)); /* negative, or -0 where it underflows the range */
        mpfr_clears(x, y, v, t, c, (mpfr_ptr)0);
    }
}

/* geluref.h promises reentrancy because MPFR keeps its exponent range, flags and constant
 * caches per thread: that needs an MPFR built with thread-local storage. */
static void test_mpfr_is_thread_safe(void **state)
{
    (void)state;
    assert_true(mpfr_buildopt_tls_p());
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_invalid),
        cmocka_unit_test(test_precision_cap),
        cmocka_unit_test(test_stats),
        cmocka_unit_test(test_mpfr_layer),
        cmocka_unit_test(test_caller_state),
        cmocka_unit_test(test_mpfr_is_thread_safe),
        cmocka_unit_test(test_grad_far_tail),
    };
    return cmocka_run_group_tests_name("reference_api", tests, NULL, NULL);
}
