/* The `gsl` adapter: a valid table with GSL's version, the same table through the registry,
 * every kernel runs (in place too), and known inputs give known bits:
 *   - "ref" rows: the correctly rounded value, written here from `gelucheck ref FUNC --dtype
 *     f64 X` (MPFR) and checked against the reference again at run time; rows where GSL 2.7.1
 *     rounds correctly (at x = -1, gsl_sf_erf and gsl_sf_erfc do not: not rows);
 *   - "src" rows: what GSL's source makes of special inputs, derived by hand from it:
 *     cdf/gauss.c returns 0 for x < -37.519 (GAUSS_XLOWER), 1 for x > 8.572 (GAUSS_XUPPER);
 *     specfunc/erfc.c's erfc8_sum is a ratio of polynomials in x, inf/inf = NaN at |x| = inf,
 *     and erf = 1 - erfc, erfc(-x) = 2 - erfc(x) carry the NaN; exp(-x*x) = 0 for |x| > 27.3
 *     makes erfc 0, erf +-1; erf's series at x = -0 sums -0 + (-0 * -0 ...) = +0.
 * Each "src" row whose correctly rounded value differs says so (a finding the suites report). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>
#include <gsl/gsl_sf_erf.h>
#include <gsl/gsl_version.h>

#include "adapt_util.h"
#include "adapter.h"
#include "gc_gsl.h"

static const struct gelucheck_plugin *gsl(void)
{
    return gc_gsl_entry(GELUCHECK_PLUGIN_ABI);
}

static void test_table(void **state)
{
    (void)state;
    const struct gelucheck_plugin *p = gsl();
    au_check_table(p, "gsl");
    assert_null(gc_gsl_entry(0));
    assert_string_equal(p->version, "GSL " GSL_VERSION); /* libgsl as loaded = the header */
    static const char *const names[] = { "erf.f64",      "erfc.f64",     "normcdf.f64",
                                         "gelu_cdf.f64", "gelu_erf.f64", "gelu_erfc.f64" };
    static const uint32_t funcs[] = { GELUCHECK_ERF,  GELUCHECK_ERFC, GELUCHECK_NORMCDF,
                                      GELUCHECK_GELU, GELUCHECK_GELU, GELUCHECK_GELU };
    assert_int_equal(p->n_kernels, 6);
    for (size_t i = 0; i < 6; i++) {
        const struct gelucheck_kernel *k = au_kernel(p, names[i]);
        assert_int_equal(k->func, funcs[i]);
        assert_int_equal(k->dtype, GELUCHECK_F64);
        if (strstr(k->description, "GSL " GSL_VERSION) == NULL ||
            strstr(k->description, "gsl_") == NULL)
            fail_msg("%s: the description lacks the version or the GSL call: %s", k->name,
                     k->description);
    }
}

/* The registry serves the same table as the built-in "gsl" */
static void test_registry(void **state)
{
    (void)state;
    struct gc_open_options opt = GC_OPEN_OPTIONS_INIT;
    struct gc_adapter *a = NULL;
    char msg[256];
    if (gc_adapter_open("gsl", &opt, &a, msg, sizeof msg) != GC_OK)
        fail_msg("gc_adapter_open(gsl): %s", msg);
    assert_string_equal(a->version, gsl()->version);
    assert_int_equal(a->n_kernels, gsl()->n_kernels);
    for (size_t i = 0; i < a->n_kernels; i++) {
        double x = 1.0, y = 0.0;
        assert_int_equal(gc_kernel_eval(&a->kernels[i], &x, &y, 1, msg, sizeof msg), GC_OK);
        assert_int_equal(au_bits_f64(y), au_eval1(&gsl()->kernels[i], au_bits_f64(x)));
    }
    gc_adapter_close(a);
}

static void test_eval_all(void **state)
{
    (void)state;
    au_eval_all(gsl());
}

struct row {
    const char *kernel;
    uint32_t func; /* what the reference computes for a "ref" row */
    uint64_t x, y; /* f64 bits */
    int ref;       /* 1: y is the correctly rounded value (checked again below) */
    const char *why;
};
#define NAN_BITS 0x7ff8000000000000u /* any NaN: compared as NaN-ness */
static const struct row rows[] = {
    { "erf.f64", GELUCHECK_ERF, 0x3ff0000000000000, 0x3feaf767a741088b, 1,
      "erf(1) = 0x1.af767a741088bp-1 (gelucheck ref erf --dtype f64 1)" },
    { "erf.f64", GELUCHECK_ERF, 0x4008000000000000, 0x3fefffd1ac4135f9, 1,
      "erf(3) = 0x1.fffd1ac4135f9p-1" },
    { "normcdf.f64", GELUCHECK_NORMCDF, 0xbff0000000000000, 0x3fc44ed0bb7cb20b, 1,
      "Phi(-1) = 0x1.44ed0bb7cb20bp-3" },
    { "normcdf.f64", GELUCHECK_NORMCDF, 0x3ff0000000000000, 0x3feaec4bd120d37d, 1,
      "Phi(1) = 0x1.aec4bd120d37dp-1" },
    { "gelu_cdf.f64", GELUCHECK_GELU, 0xbff0000000000000, 0xbfc44ed0bb7cb20b, 1,
      "GELU(-1) = -0x1.44ed0bb7cb20bp-3 (docs/design.md: -0.15865525393145705)" },
    { "gelu_cdf.f64", GELUCHECK_GELU, 0x3ff0000000000000, 0x3feaec4bd120d37d, 1,
      "GELU(1) = 0x1.aec4bd120d37dp-1 (0.8413447460685429)" },
    { "gelu_cdf.f64", GELUCHECK_GELU, 0x4008000000000000, 0x4007f7b4cb426ddc, 1,
      "GELU(3) = 0x1.7f7b4cb426ddcp+1 (2.99595030590511)" },
    { "normcdf.f64", 0, 0x4022000000000000, 0x3ff0000000000000, 0,
      "src: P(9) = 1, x > GAUSS_XUPPER = 8.572 (RN(Phi(9)) is 1 too)" },
    { "normcdf.f64", 0, 0xc043000000000000, 0x0000000000000000, 0,
      "src: P(-38) = +0, x < GAUSS_XLOWER = -37.519; Phi(-38) = 0x1.bd91dcp-1049, a subnormal (ftz)" },
    { "gelu_cdf.f64", 0, 0xc042c80000000000, 0x8000000000000000, 0,
      "src: x = -37.5625 < -37.519: x * 0 = -0; GELU(-37.5625) = -0x1.dbc74d68fadd1p-1020 is "
      "normal: a premature flush" },
    { "gelu_cdf.f64", 0, 0xfff0000000000000, NAN_BITS, 0,
      "src: x = -inf: P = 0, -inf * 0 = NaN (GELU(-inf) = -0)" },
    { "gelu_cdf.f64", 0, 0x7ff0000000000000, 0x7ff0000000000000, 0,
      "src: x = +inf: P = 1, inf * 1 = inf" },
    { "erf.f64", 0, 0x7ff0000000000000, NAN_BITS, 0,
      "src: erf(+inf) = 1 - erfc8(inf), erfc8_sum(inf) = inf/inf = NaN (erf(inf) = 1)" },
    { "erfc.f64", 0, 0xfff0000000000000, NAN_BITS, 0,
      "src: erfc(-inf) = 2 - erfc8(inf) = NaN (erfc(-inf) = 2)" },
    { "erfc.f64", 0, 0x403c000000000000, 0x0000000000000000, 0,
      "src: erfc(28) = erfc8_sum(28) * exp(-784) = +0 (RN(erfc(28)) is +0 too)" },
    { "erf.f64", 0, 0xc03c000000000000, 0xbff0000000000000, 0,
      "src: erf(-28) = -(1 - erfc(28)) = -1" },
    { "erf.f64", 0, 0x8000000000000000, 0x0000000000000000, 0,
      "src: erf(-0) = +0 from the series (erf(-0) = -0: a signed_zero finding)" },
    { "gelu_erf.f64", 0, 0xc044000000000000, 0x8000000000000000, 0,
      "src: x = -40: erf(-40/sqrt2) = -1, 1 + -1 = 0, 0.5 * -40 * 0 = -0 (RN(GELU(-40)) is "
      "-0 too)" },
};

static void test_known(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        const struct row *r = &rows[i];
        uint64_t got = au_eval1(au_kernel(gsl(), r->kernel), r->x);
        int ok = r->y == NAN_BITS ? au_is_nan(GELUCHECK_F64, got) : got == r->y;
        if (!ok)
            fail_msg("row %zu %s(%a): got %a (0x%016llx), want %a (0x%016llx): %s", i,
                     r->kernel, au_f64(r->x), au_f64(got), (unsigned long long)got,
                     au_f64(r->y), (unsigned long long)r->y, r->why);
        if (r->ref && au_ref(r->func, GELUCHECK_F64, r->x) != r->y)
            fail_msg("row %zu: the reference disagrees with the written value: %s", i, r->why);
    }
}

/* GSL's error handler is off after the adapter's first entry: gsl_sf_erf_Z (the normal PDF)
 * underflows at x = 100 and reports GSL_EUNDRFLW through the handler, whose default prints
 * and calls abort(); off, the natural form returns the value, 0. */
static void test_error_handler_off(void **state)
{
    (void)state;
    (void)gsl();
    assert_true(gsl_sf_erf_Z(100.0) == 0.0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table),     cmocka_unit_test(test_registry),
        cmocka_unit_test(test_eval_all),  cmocka_unit_test(test_known),
        cmocka_unit_test(test_error_handler_off),
    };
    return cmocka_run_group_tests_name("adapters_gsl", tests, NULL, NULL);
}
