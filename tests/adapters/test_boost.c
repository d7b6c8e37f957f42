/* The `boost` adapter: a valid table with Boost's version, the same table through the
 * registry, every kernel runs (in place too), known inputs give known bits, and the policy
 * returns values instead of throwing:
 *   - "ref" rows: the correctly rounded value, written here from `gelucheck ref FUNC --dtype
 *     DT X` (MPFR) and checked against the reference again at run time; rows where Boost.Math
 *     1.74 rounds correctly (cdf(normal_distribution<float>(), 1) does not: not a row);
 *   - "src" rows: what Boost's headers make of special inputs, derived by hand from them:
 *     cdf(normal, -inf) = 0 and cdf(normal, +inf) = 1 before any arithmetic (normal.hpp), so
 *     x * cdf is -inf * 0 = NaN at -inf; erf_imp saturates to +-1 and erfc to 0 or 2 for large
 *     |z|, and its z < 0 test leaves -0 to the positive branch, which returns +0;
 *     float erf is double erf rounded to float (promote_float), so erf(-6/sqrt2) = -1 + 2e-9
 *     rounds to -1 and the float erf form gives 0.5f * -6 * 0 = -0.
 * A "src" row whose correctly rounded value differs says so (a finding the suites report). */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "adapt_util.h"
#include "adapter.h"
#include "boost_internal.h"
#include "gc_boost.h"

static const struct gelucheck_plugin *boost(void)
{
    return gc_boost_entry(GELUCHECK_PLUGIN_ABI);
}

static void test_table(void **state)
{
    (void)state;
    const struct gelucheck_plugin *p = boost();
    au_check_table(p, "boost");
    assert_null(gc_boost_entry(0));
    char want[64];
    snprintf(want, sizeof want, "Boost.Math %s", gc_boost_version());
    assert_string_equal(p->version, want);
    assert_non_null(strstr(p->version, "Boost.Math 1."));
    static const char *const forms[] = { "erf", "erfc", "normcdf", "gelu_cdf", "gelu_erf",
                                         "gelu_erfc" };
    static const uint32_t funcs[] = { GELUCHECK_ERF,  GELUCHECK_ERFC, GELUCHECK_NORMCDF,
                                      GELUCHECK_GELU, GELUCHECK_GELU, GELUCHECK_GELU };
    assert_int_equal(p->n_kernels, 12);
    for (size_t i = 0; i < 6; i++)
        for (int d = 0; d < 2; d++) {
            char name[32];
            snprintf(name, sizeof name, "%s.%s", forms[i], d == 0 ? "f64" : "f32");
            const struct gelucheck_kernel *k = au_kernel(p, name);
            assert_int_equal(k->func, funcs[i]);
            assert_int_equal(k->dtype, d == 0 ? GELUCHECK_F64 : GELUCHECK_F32);
            if (strstr(k->description, want) == NULL ||
                strstr(k->description, "errno_on_error") == NULL)
                fail_msg("%s: the description lacks the version or the policy: %s", name,
                         k->description);
        }
}

/* The registry serves the same table as the built-in "boost" (open, eval, close, and the
 * plug-in's own ctx through its open) */
static void test_registry(void **state)
{
    (void)state;
    struct gc_open_options opt = GC_OPEN_OPTIONS_INIT;
    struct gc_adapter *a = NULL;
    char msg[256];
    if (gc_adapter_open("boost", &opt, &a, msg, sizeof msg) != GC_OK)
        fail_msg("gc_adapter_open(boost): %s", msg);
    assert_string_equal(a->version, boost()->version);
    assert_int_equal(a->n_kernels, boost()->n_kernels);
    for (size_t i = 0; i < a->n_kernels; i++) {
        double x = 1.0, y = 0.0;
        float xf = 1.0f, yf = 0.0f;
        const struct gelucheck_kernel *k = &boost()->kernels[i];
        if (k->dtype == GELUCHECK_F64) {
            assert_int_equal(gc_kernel_eval(&a->kernels[i], &x, &y, 1, msg, sizeof msg), GC_OK);
            assert_int_equal(au_bits_f64(y), au_eval1(k, au_bits_f64(x)));
        } else {
            assert_int_equal(gc_kernel_eval(&a->kernels[i], &xf, &yf, 1, msg, sizeof msg),
                             GC_OK);
            assert_int_equal(au_bits_f32(yf), au_eval1(k, au_bits_f32(xf)));
        }
    }
    gc_adapter_close(a);
}

static void test_eval_all(void **state)
{
    (void)state;
    au_eval_all(boost());
}

struct row {
    const char *kernel;
    uint32_t func, dtype; /* what the reference computes for a "ref" row */
    uint64_t x, y;        /* bits of the dtype */
    int ref;              /* 1: y is the correctly rounded value (checked again below) */
    const char *why;
};
#define NAN_ANY UINT64_MAX /* any NaN: compared as NaN-ness */
#define F64 GELUCHECK_F64
#define F32 GELUCHECK_F32
static const struct row rows[] = {
    { "erf.f64", GELUCHECK_ERF, F64, 0xbff0000000000000, 0xbfeaf767a741088b, 1,
      "erf(-1) = -0x1.af767a741088bp-1 (gelucheck ref erf --dtype f64 -- -1)" },
    { "erfc.f64", GELUCHECK_ERFC, F64, 0x3ff0000000000000, 0x3fc4226162fbddd5, 1,
      "erfc(1) = 0x1.4226162fbddd5p-3" },
    { "erfc.f64", GELUCHECK_ERFC, F64, 0xbff0000000000000, 0x3ffd7bb3d3a08445, 1,
      "erfc(-1) = 0x1.d7bb3d3a08445p+0" },
    { "normcdf.f64", GELUCHECK_NORMCDF, F64, 0x4008000000000000, 0x3feff4f10f033d25, 1,
      "Phi(3) = 0x1.ff4f10f033d25p-1" },
    { "gelu_cdf.f64", GELUCHECK_GELU, F64, 0xbff0000000000000, 0xbfc44ed0bb7cb20b, 1,
      "GELU(-1) = -0x1.44ed0bb7cb20bp-3 (docs/design.md: -0.15865525393145705)" },
    { "gelu_cdf.f64", GELUCHECK_GELU, F64, 0x4008000000000000, 0x4007f7b4cb426ddc, 1,
      "GELU(3) = 0x1.7f7b4cb426ddcp+1 (2.99595030590511)" },
    { "erf.f32", GELUCHECK_ERF, F32, 0x3f800000, 0x3f57bb3d, 1, "erff(1) = 0x1.af767ap-1" },
    { "erfc.f32", GELUCHECK_ERFC, F32, 0x40400000, 0x37b94efb, 1, "erfcf(3) = 0x1.729df6p-16" },
    { "normcdf.f32", GELUCHECK_NORMCDF, F32, 0xbf800000, 0x3e227686, 1,
      "Phi(-1) in f32 = 0x1.44ed0cp-3" },
    { "gelu_cdf.f32", GELUCHECK_GELU, F32, 0x40400000, 0x403fbda6, 1,
      "GELU(3) in f32 = 0x1.7f7b4cp+1" },
    { "normcdf.f64", 0, F64, 0xfff0000000000000, 0x0000000000000000, 0,
      "src: cdf(normal, -inf) = 0 (normal.hpp, before any arithmetic)" },
    { "normcdf.f64", 0, F64, 0x7ff0000000000000, 0x3ff0000000000000, 0,
      "src: cdf(normal, +inf) = 1" },
    { "gelu_cdf.f64", 0, F64, 0xfff0000000000000, NAN_ANY, 0,
      "src: -inf * cdf(normal, -inf) = -inf * 0 = NaN (GELU(-inf) = -0)" },
    { "gelu_cdf.f32", 0, F32, 0xff800000, NAN_ANY, 0, "src: the same in float" },
    { "erf.f64", 0, F64, 0xfff0000000000000, 0xbff0000000000000, 0, "src: erf(-inf) = -1" },
    { "erfc.f64", 0, F64, 0xfff0000000000000, 0x4000000000000000, 0, "src: erfc(-inf) = 2" },
    { "erf.f64", 0, F64, 0x8000000000000000, 0x0000000000000000, 0,
      "src: erf(-0) = +0 (erf(-0) = -0: a signed_zero finding)" },
    { "gelu_erf.f32", 0, F32, 0xc0c00000, 0x80000000, 0,
      "src: x = -6: erff(-6/sqrt2) rounds to -1, 1 + -1 = 0, 0.5f * -6 * 0 = -0; GELU(-6) in "
      "f32 is a normal number: a premature flush" },
};

static void test_known(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        const struct row *r = &rows[i];
        const struct gelucheck_kernel *k = au_kernel(boost(), r->kernel);
        assert_int_equal(k->dtype, r->dtype);
        uint64_t got = au_eval1(k, r->x);
        int ok = r->y == NAN_ANY ? au_is_nan(r->dtype, got) : got == r->y;
        if (!ok)
            fail_msg("row %zu %s(0x%llx): got 0x%llx, want 0x%llx: %s", i, r->kernel,
                     (unsigned long long)r->x, (unsigned long long)got,
                     (unsigned long long)r->y, r->why);
        if (r->ref && au_ref(r->func, r->dtype, r->x) != r->y)
            fail_msg("row %zu: the reference disagrees with the written value: %s", i, r->why);
    }
}

/* The policy: cdf(normal, NaN) is a domain error (check_x in Boost's
 * distributions/detail/common_error_handling.hpp).  The default policy would throw
 * std::domain_error; errno_on_error returns NaN and sets errno to EDOM, and eval succeeds. */
static void test_policy(void **state)
{
    (void)state;
    const struct gelucheck_kernel *k = au_kernel(boost(), "normcdf.f64");
    void *ctx = NULL;
    assert_int_equal(boost()->open(&ctx, NULL), 0);
    double x[2] = { NAN, 1.0 }, y[2] = { 0.0, 0.0 };
    errno = 0;
    assert_int_equal(k->eval(ctx, x, y, 2), 0);
    assert_int_equal(errno, EDOM);
    assert_true(isnan(y[0]));
    assert_true(y[1] > 0.84 && y[1] < 0.85);
    assert_string_equal(boost()->last_error(ctx), "");
    boost()->close(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table),    cmocka_unit_test(test_registry),
        cmocka_unit_test(test_eval_all), cmocka_unit_test(test_known),
        cmocka_unit_test(test_policy),
    };
    return cmocka_run_group_tests_name("adapters_boost", tests, NULL, NULL);
}
