/* The error bounds behind Ziv's loop, checked directly: for every function with an
 * approximation, at several working precisions and inputs across the whole range, the
 * approximation b and its claimed bound err must satisfy |b - f(x)| <= 2^(EXP(b) - err),
 * f(x) taken from the reference at a much higher precision.  A bound claimed too small would
 * only show as a wrong rounding on rare hard inputs; here it shows at once.  Also: the rule
 * helpers decide exactly what the cell argument of reference/README.md says. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "internal.h"
#include "refcheck.h"

static void check_fn(const struct gr_fn *fn, double xd, mpfr_prec_t wp, size_t *checked)
{
    mpfr_t x, s, b, v, d;
    mpfr_init2(x, 53);
    mpfr_init2(s, 53);
    mpfr_init2(b, wp);
    mpfr_init2(v, wp + 200);
    mpfr_init2(d, wp + 200);
    mpfr_set_d(x, xd, MPFR_RNDN);
    mpfr_set_d(s, 0.7, MPFR_RNDN);
    mpfr_srcptr sp = fn->id == GELUREF_GELU_SCALED ? s : NULL;
    mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
    mpfr_set_emin(mpfr_get_emin_min());
    mpfr_set_emax(mpfr_get_emax_max());
    mpfr_exp_t err = fn->approx(b, x, sp);
    mpfr_set_emin(emin);
    mpfr_set_emax(emax);
    int t;
    assert_int_equal(geluref_eval_mpfr(fn->id, v, x, sp, MPFR_RNDN, NULL, NULL, &t), 0);
    if (err > 0 && mpfr_regular_p(b)) {
        /* |b - v~| <= 2^(EXP(b) - err) - ulp(v~)/2 would be exact; the half ulp of v~ at
         * wp + 200 bits is negligible next to the bound, so compare |b - v~| with it */
        mpfr_sub(d, b, v, MPFR_RNDA);
        mpfr_abs(d, d, MPFR_RNDN);
        if (mpfr_cmp_ui_2exp(d, 1, mpfr_get_exp(b) - err) > 0)
            fail_msg("%s(%a) at %ld bits: error 2^%.2f exceeds the claimed 2^%ld",
                     geluref_func_name(fn->id), xd, (long)wp,
                     log2(mpfr_get_d(d, MPFR_RNDN)) , (long)(mpfr_get_exp(b) - err));
        (*checked)++;
    }
    mpfr_clears(x, s, b, v, d, (mpfr_ptr)0);
}

static void test_approx_bounds(void **state)
{
    (void)state;
    static const mpfr_prec_t wps[] = { 24, 40, 64, 100, 256 };
    uint64_t rs = 11;
    size_t checked = 0;
    for (int f = GELUREF_FUNC_FIRST; f <= GELUREF_FUNC_LAST; f++) {
        const struct gr_fn *fn = gr_fn_lookup(f);
        if (!fn->approx)
            continue; /* erf, erfc: MPFR's own functions */
        for (int i = 0; i < 400; i++) {
            /* |x| log-uniform in [2^-40, 2^6), both signs, plus the minimum's neighbourhood */
            double u = (double)(refcheck_rand(&rs) >> 11) * 0x1p-53;
            double x = ldexp(1.0 + u, (int)(refcheck_rand(&rs) % 46) - 40);
            if (i % 2)
                x = -x;
            if (i % 10 == 0)
                x = -0.7517915246935645 + (u - 0.5) * 1e-3;
            check_fn(fn, x, wps[i % 5], &checked);
        }
    }
    print_message("%zu approximations within their claimed bounds\n", checked);
    assert_true(checked > 3000);
}

/* gr_decide_near at a = 1 (a (p+1)-bit number), p = 24: the next 25-bit number below 1 is
 * 2^-25 away (the binade below is finer), so a bound delta < 2^-25 decides and one of
 * 2^-24 does not; above 1 the next one is 2^-24 away.  (Bounds are given as log2 values
 * that the helper rounds up: -25.5 means delta < 2^-25.) */
static void test_decide_near_cells(void **state)
{
    (void)state;
    mpfr_t y, a;
    int t;
    mpfr_init2(y, 24);
    mpfr_init2(a, 24);
    mpfr_set_ui(a, 1, MPFR_RNDN);
    assert_int_equal(gr_decide_near(y, a, -1, -26.5, MPFR_RNDN, &t), GR_DECIDED);
    assert_true(mpfr_cmp_ui(y, 1) == 0 && t > 0);
    assert_int_equal(gr_decide_near(y, a, -1, -26.5, MPFR_RNDD, &t), GR_DECIDED);
    assert_true(mpfr_cmp_ui(y, 1) < 0 && t < 0);
    assert_int_equal(gr_decide_near(y, a, -1, -25.5, MPFR_RNDN, &t), GR_DECIDED);
    assert_int_equal(gr_decide_near(y, a, -1, -24.5, MPFR_RNDN, &t), GR_UNDECIDED);
    assert_int_equal(gr_decide_near(y, a, 1, -24.5, MPFR_RNDU, &t), GR_DECIDED);
    assert_true(mpfr_cmp_ui(y, 1) > 0 && t > 0);
    assert_int_equal(gr_decide_near(y, a, 1, -23.5, MPFR_RNDU, &t), GR_UNDECIDED);
    /* a = 1 + 2^-24 (a midpoint at 24 bits): v just above rounds up in RN, just below down */
    mpfr_set_prec(a, 30);
    mpfr_set_ui(a, 1, MPFR_RNDN);
    mpfr_add_d(a, a, 0x1p-24, MPFR_RNDN);
    assert_int_equal(gr_decide_near(y, a, 1, -60, MPFR_RNDN, &t), GR_DECIDED);
    assert_true(mpfr_cmp_d(y, 1 + 0x1p-23) == 0 && t > 0);
    assert_int_equal(gr_decide_near(y, a, -1, -60, MPFR_RNDN, &t), GR_DECIDED);
    assert_true(mpfr_cmp_ui(y, 1) == 0 && t < 0);
    mpfr_clears(y, a, (mpfr_ptr)0);
}

/* gr_decide_tail decides only below half the smallest positive number, 2^(emin-2). */
static void test_decide_tail(void **state)
{
    (void)state;
    mpfr_t y;
    int t;
    struct gr_target tg = { -148, 1, 1000 };
    mpfr_init2(y, 24);
    assert_int_equal(gr_decide_tail(y, -1, -149.5, MPFR_RNDN, &tg, &t), GR_UNDECIDED);
    assert_int_equal(gr_decide_tail(y, -1, -150.5, MPFR_RNDN, &tg, &t), GR_DECIDED);
    assert_true(mpfr_zero_p(y) && mpfr_signbit(y) && t > 0);
    assert_int_equal(gr_decide_tail(y, -1, -151, MPFR_RNDD, &tg, &t), GR_DECIDED);
    assert_true(mpfr_cmp_si_2exp(y, -1, -149) == 0 && t < 0);
    assert_int_equal(gr_decide_tail(y, 1, -151, MPFR_RNDU, &tg, &t), GR_DECIDED);
    assert_true(mpfr_cmp_si_2exp(y, 1, -149) == 0 && t > 0);
    assert_int_equal(gr_decide_tail(y, 1, -151, MPFR_RNDZ, &tg, &t), GR_DECIDED);
    assert_true(mpfr_zero_p(y) && !mpfr_signbit(y) && t < 0);
    mpfr_clear(y);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_approx_bounds),
        cmocka_unit_test(test_decide_near_cells),
        cmocka_unit_test(test_decide_tail),
    };
    return cmocka_run_group_tests_name("reference_bounds", tests, NULL, NULL);
}
