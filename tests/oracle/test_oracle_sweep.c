/* Sweeps over spread-out inputs: erf and erfc against MPFR's own correctly rounded mpfr_erf
 * and mpfr_erfc (rounded into the dtype with the dtype's exponent range and
 * mpfr_subnormalize, a path the oracle does not use), and invariants every correct rounding
 * of a value that is never exact satisfies, for all functions, dtypes and modes. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdbool.h>

#include "oracle.h"
#include "test_oracle.h"

static const mpfr_rnd_t modes[4] = { MPFR_RNDN, MPFR_RNDZ, MPFR_RNDU, MPFR_RNDD };

/* Inputs of a sweep: f16/bf16 every `step`-th pattern, f32 and f64 a spread of patterns. */
static bool next_input(enum geluref_dtype dt, uint64_t i, uint64_t step, uint64_t *x)
{
    switch (dt) {
    case GELUREF_F16:
    case GELUREF_BF16: *x = i * step; return *x < 0x10000;
    case GELUREF_F32: *x = i * (step * 0x10001); return *x < 0x100000000;
    default: *x = i * (step * UINT64_C(0x1000100010001)); return i < 0x10000 / step;
    }
}

/* RN(erf(x)) etc. by MPFR: the dtype's precision and exponent range, then subnormalize. */
static void mpfr_ref(mpfr_ptr y, enum geluref_func f, mpfr_srcptr x, enum geluref_dtype dt,
                     mpfr_rnd_t rnd)
{
    const struct geluref_dtype_info *d = oracle_dtype_info(dt);
    mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
    mpfr_set_emin(d->emin - d->prec + 2); /* MPFR's exponents: significand in [1/2, 1) */
    mpfr_set_emax(d->emax + 1);
    int t = f == GELUREF_ERF ? mpfr_erf(y, x, rnd) : mpfr_erfc(y, x, rnd);
    t = mpfr_check_range(y, t, rnd);
    mpfr_subnormalize(y, t, rnd);
    mpfr_set_emin(emin);
    mpfr_set_emax(emax);
}

static int cross_check(enum geluref_func f, enum geluref_dtype dt, uint64_t step)
{
    int failed = 0;
    mpfr_t x, y, z;
    mpfr_inits2(64, x, z, NULL);
    mpfr_init2(y, oracle_dtype_info(dt)->prec);
    uint64_t xb;
    for (uint64_t i = 0; next_input(dt, i, step, &xb); i++) {
        oracle_decode(x, dt, xb);
        for (int k = 0; k < 4; k++) {
            uint64_t got;
            if (oracle_eval(f, dt, xb, modes[k], 1.0, &got, NULL) != ORACLE_OK) {
                failed++;
                continue;
            }
            mpfr_ref(y, f, x, dt, modes[k]);
            oracle_decode(z, dt, got);
            bool same = mpfr_nan_p(y) ? mpfr_nan_p(z)
                                      : mpfr_equal_p(y, z) && mpfr_signbit(y) == mpfr_signbit(z);
            if (!same && failed++ < 10)
                print_error("func %d dtype %d x 0x%llx mode %d: oracle 0x%llx, mpfr %s\n",
                            (int)f, (int)dt, (unsigned long long)xb, k,
                            (unsigned long long)got, mpfr_get_str(NULL, NULL, 16, 0, y, 0));
        }
    }
    mpfr_clears(x, y, z, NULL);
    return failed;
}

static void test_erf_vs_mpfr(void **state)
{
    (void)state;
    int failed = 0;
    for (enum geluref_dtype dt = GELUREF_F64; dt <= GELUREF_BF16; dt++) {
        failed += cross_check(GELUREF_ERF, dt, 7);
        failed += cross_check(GELUREF_ERFC, dt, 7);
    }
    assert_int_equal(failed, 0);
}

/* The position of a value in the dtype's order, +0 and -0 at one place. */
static int64_t pos(enum geluref_dtype dt, uint64_t bits)
{
    int w = oracle_dtype_info(dt)->bits;
    uint64_t sign = UINT64_C(1) << (w - 1);
    int64_t mag = (int64_t)(bits & (sign - 1));
    return bits & sign ? -mag : mag;
}

/* For one x and f: all modes decide; RU is RD's successor (f(x) is never exact except at the
 * special inputs, where RD = RU); RN is one of them; RZ is RD for positive, RU for negative. */
static int invariants(enum geluref_func f, enum geluref_dtype dt, uint64_t xb)
{
    uint64_t y[4];
    for (int k = 0; k < 4; k++)
        if (oracle_eval(f, dt, xb, modes[k], 1.0, &y[k], NULL) != ORACLE_OK)
            return 1;
    uint64_t rn = y[0], rz = y[1], ru = y[2], rd = y[3];
    if (rn == oracle_qnan(dt)) /* NaN input */
        return !(rz == rn && ru == rn && rd == rn);
    int64_t gap = pos(dt, ru) - pos(dt, rd);
    if (gap == 0)
        return !(rn == rd && rz == rd && ru == rd);
    if (gap != 1 || (rn != rd && rn != ru))
        return 1;
    bool positive = pos(dt, ru) > 0; /* the value lies in (RD, RU) */
    return rz != (positive ? rd : ru);
}

static void test_invariants(void **state)
{
    (void)state;
    int failed = 0;
    for (enum geluref_dtype dt = GELUREF_F64; dt <= GELUREF_BF16; dt++)
        for (enum geluref_func f = GELUREF_FUNC_FIRST; f <= GELUREF_FUNC_LAST; f++) {
            uint64_t xb;
            for (uint64_t i = 0; next_input(dt, i, 127, &xb); i++)
                if (invariants(f, dt, xb) && failed++ < 10)
                    print_error("invariants: func %d dtype %d x 0x%llx\n", (int)f, (int)dt,
                                (unsigned long long)xb);
        }
    assert_int_equal(failed, 0);
}

/* erf is odd; normpdf and gelu_grad2 are even: RN commutes with negation. */
static void test_symmetry(void **state)
{
    (void)state;
    int failed = 0;
    for (uint64_t x = 0; x < 0x8000; x += 5) {
        uint64_t a, b;
        int st = oracle_eval(GELUREF_ERF, GELUREF_BF16, x, MPFR_RNDN, 1, &a, NULL) |
                 oracle_eval(GELUREF_ERF, GELUREF_BF16, x | 0x8000, MPFR_RNDN, 1, &b, NULL);
        failed += st != 0 || (a != (b ^ 0x8000) && a != oracle_qnan(GELUREF_BF16));
        st = oracle_eval(GELUREF_GELU_GRAD2, GELUREF_F16, x, MPFR_RNDN, 1, &a, NULL) |
             oracle_eval(GELUREF_GELU_GRAD2, GELUREF_F16, x | 0x8000, MPFR_RNDN, 1, &b, NULL);
        failed += st != 0 || a != b;
        st = oracle_eval(GELUREF_NORMPDF, GELUREF_F16, x, MPFR_RNDN, 1, &a, NULL) |
             oracle_eval(GELUREF_NORMPDF, GELUREF_F16, x | 0x8000, MPFR_RNDN, 1, &b, NULL);
        failed += st != 0 || a != b;
    }
    assert_int_equal(failed, 0);
}

int test_oracle_sweep_group(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_erf_vs_mpfr),
        cmocka_unit_test(test_invariants),
        cmocka_unit_test(test_symmetry),
    };
    return cmocka_run_group_tests_name("oracle_sweep", tests, NULL, NULL);
}
