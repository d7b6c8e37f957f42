/* gs_policy_judge: a truth table of hand-made measurements against suites.h's contract (each
 * row says which rule it checks), and the built-ins' thresholds at their boundaries. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "suites.h"

#define INF INFINITY
#define ALL GS_DOMAIN_ALL
#define NORMAL GS_DOMAIN_NORMAL

struct row {
    const char *why;
    /* the policy: max_ulp, max_cr_distance, faithful, abs_tol, accuracy_domain */
    double max_ulp, max_crd;
    int need_faithful;
    double abs_tol;
    enum gs_domain domain;
    /* the measurement: primary defect, ulp, cr_distance, faithful, abs_err, want_class */
    enum gs_kind defect;
    double ulp;
    int64_t crd;
    int faithful;
    double abs_err;
    int want_class;
    enum gs_kind expect;
};

static const struct row rows[] = {
    { "correctly rounded: none, under the strictest values",
      0, 0, 1, 0, ALL, GS_K_NONE, 0.3, 0, 1, 1e-20, GS_WANT_NORMAL, GS_K_NONE },
    { "nan_output is returned even within abs_tol and outside the domain",
      INF, INF, 0, 1, NORMAL, GS_K_NAN_OUTPUT, INF, -1, 0, 0, GS_WANT_SUBNORMAL,
      GS_K_NAN_OUTPUT },
    { "inf_output is returned even within abs_tol",
      INF, INF, 0, 1, NORMAL, GS_K_INF_OUTPUT, INF, 5, 0, 0, GS_WANT_NORMAL,
      GS_K_INF_OUTPUT },
    { "signed_zero is returned as is, abs_tol does not excuse it",
      INF, INF, 0, 1, NORMAL, GS_K_SIGNED_ZERO, 0, 0, 1, 0, GS_WANT_ZERO, GS_K_SIGNED_ZERO },
    { "wrong_sign within abs_tol: excused",
      4, INF, 0, 1e-6, NORMAL, GS_K_WRONG_SIGN, 3e9, 7, 0, 1e-7, GS_WANT_NORMAL, GS_K_NONE },
    { "wrong_sign beyond abs_tol: returned",
      4, INF, 0, 1e-6, NORMAL, GS_K_WRONG_SIGN, 3e9, 7, 0, 2e-6, GS_WANT_NORMAL,
      GS_K_WRONG_SIGN },
    { "premature_flush at exactly abs_tol: excused (abs_err <= abs_tol)",
      4, INF, 0, 1e-3, NORMAL, GS_K_PREMATURE_FLUSH, 1e4, 900, 0, 1e-3, GS_WANT_NORMAL,
      GS_K_NONE },
    { "premature_flush with abs_tol 0 and abs_err 0: abs_tol 0 means no tolerance",
      INF, INF, 0, 0, ALL, GS_K_PREMATURE_FLUSH, 1, 1, 0, 0, GS_WANT_NORMAL,
      GS_K_PREMATURE_FLUSH },
    { "ftz beyond abs_tol: returned, even where accuracy_domain is normal",
      INF, INF, 0, 1e-45, NORMAL, GS_K_FTZ, 1, 1, 1, 1e-40, GS_WANT_SUBNORMAL, GS_K_FTZ },
    { "ftz within abs_tol: excused",
      INF, INF, 0, 1e-12, NORMAL, GS_K_FTZ, 1, 1, 1, 1e-40, GS_WANT_SUBNORMAL, GS_K_NONE },
    { "ulp equal to max_ulp: passes (the limit is inclusive)",
      4, INF, 0, 0, ALL, GS_K_ULP_EXCEEDED, 4.0, 4, 0, 1e-9, GS_WANT_NORMAL, GS_K_NONE },
    { "ulp just above max_ulp: ulp_exceeded",
      4, INF, 0, 0, ALL, GS_K_ULP_EXCEEDED, 4.0000001, 4, 0, 1e-9, GS_WANT_NORMAL,
      GS_K_ULP_EXCEEDED },
    { "ulp above max_ulp where RN(f) is subnormal, domain normal: excused",
      4, INF, 0, 0, NORMAL, GS_K_ULP_EXCEEDED, 1000, 1000, 0, 1e-40, GS_WANT_SUBNORMAL,
      GS_K_NONE },
    { "the same with accuracy_domain all: ulp_exceeded",
      4, INF, 0, 0, ALL, GS_K_ULP_EXCEEDED, 1000, 1000, 0, 1e-40, GS_WANT_SUBNORMAL,
      GS_K_ULP_EXCEEDED },
    { "RN(f) zero (want_class zero), domain normal: excused",
      0, 0, 1, 0, NORMAL, GS_K_ULP_EXCEEDED, 1, 1, 0, 1e-45, GS_WANT_ZERO, GS_K_NONE },
    { "ulp above max_ulp, domain normal, RN(f) normal: ulp_exceeded",
      4, INF, 0, 0, NORMAL, GS_K_ULP_EXCEEDED, 5, 5, 0, 1e-9, GS_WANT_NORMAL,
      GS_K_ULP_EXCEEDED },
    { "ulp far above max_ulp but abs_err within abs_tol: excused",
      4, 0, 1, 1e-6, ALL, GS_K_ULP_EXCEEDED, 1e6, 99, 0, 5e-7, GS_WANT_NORMAL, GS_K_NONE },
    { "cr_distance equal to max_cr_distance: passes",
      INF, 1, 0, 0, ALL, GS_K_ULP_EXCEEDED, 0.9, 1, 0, 1e-9, GS_WANT_NORMAL, GS_K_NONE },
    { "cr_distance above max_cr_distance: ulp_exceeded",
      INF, 1, 0, 0, ALL, GS_K_ULP_EXCEEDED, 1.6, 2, 0, 1e-9, GS_WANT_NORMAL,
      GS_K_ULP_EXCEEDED },
    { "faithful required, output faithful (not CR): passes",
      INF, INF, 1, 0, ALL, GS_K_ULP_EXCEEDED, 0.9, 1, 1, 1e-9, GS_WANT_NORMAL, GS_K_NONE },
    { "faithful required, output not faithful: ulp_exceeded",
      INF, INF, 1, 0, ALL, GS_K_ULP_EXCEEDED, 1.1, 1, 0, 1e-9, GS_WANT_NORMAL,
      GS_K_ULP_EXCEEDED },
    { "no accuracy limit at all: any finite error passes",
      INF, INF, 0, 0, ALL, GS_K_ULP_EXCEEDED, 1e300, 1000000, 0, 1e300, GS_WANT_NORMAL,
      GS_K_NONE },
    { "a non-accuracy kind passes through unchanged",
      INF, INF, 0, 1, NORMAL, GS_K_SPECIAL_VALUE, 0, 0, 1, 0, GS_WANT_NORMAL,
      GS_K_SPECIAL_VALUE },
};

static void test_table(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        const struct row *r = &rows[i];
        struct gs_policy_values v;
        /* start from a built-in for the fields the table does not set */
        gs_policy_resolve(gs_policy_builtin("strict"), GELUREF_GELU, GELUREF_F32, &v);
        v.max_ulp = r->max_ulp;
        v.max_cr_distance = r->max_crd;
        v.faithful = r->need_faithful;
        v.abs_tol = r->abs_tol;
        v.accuracy_domain = r->domain;
        struct gs_meas m;
        memset(&m, 0, sizeof m);
        m.defect = r->defect;
        m.cr = r->defect == GS_K_NONE;
        m.ulp = r->ulp;
        m.cr_distance = r->crd;
        m.faithful = r->faithful;
        m.abs_err = r->abs_err;
        m.rel_err = r->abs_err;
        m.want_class = r->want_class;
        enum gs_kind got = gs_policy_judge(&v, &m);
        if (got != r->expect)
            fail_msg("row %zu (%s): got %s, want %s", i, r->why,
                     got == GS_K_NONE ? "none" : gs_kind_name(got),
                     r->expect == GS_K_NONE ? "none" : gs_kind_name(r->expect));
    }
}

/* The built-ins at their published thresholds (docs/policies.md). */
static enum gs_kind judge(const char *policy, enum geluref_dtype dt, double ulp, int64_t crd,
                          int faithful, double abs_err, int want_class)
{
    struct gs_policy_values v;
    gs_policy_resolve(gs_policy_builtin(policy), GELUREF_GELU, dt, &v);
    struct gs_meas m;
    memset(&m, 0, sizeof m);
    m.defect = GS_K_ULP_EXCEEDED;
    m.ulp = ulp;
    m.cr_distance = crd;
    m.faithful = faithful;
    m.abs_err = abs_err;
    m.want_class = want_class;
    return gs_policy_judge(&v, &m);
}

static void test_builtins(void **state)
{
    (void)state;
    /* default f32: max_ulp 4 where RN(f) is normal */
    assert_int_equal(judge("default", GELUREF_F32, 4.0, 4, 0, 1e-9, GS_WANT_NORMAL), GS_K_NONE);
    assert_int_equal(judge("default", GELUREF_F32, 4.5, 5, 0, 1e-9, GS_WANT_NORMAL),
                     GS_K_ULP_EXCEEDED);
    assert_int_equal(judge("default", GELUREF_F32, 50, 50, 0, 1e-43, GS_WANT_SUBNORMAL),
                     GS_K_NONE);
    /* default bf16: cr_distance 1 where normal, ulp unlimited */
    assert_int_equal(judge("default", GELUREF_BF16, 1.4, 1, 0, 1e-3, GS_WANT_NORMAL),
                     GS_K_NONE);
    assert_int_equal(judge("default", GELUREF_BF16, 1.6, 2, 0, 1e-3, GS_WANT_NORMAL),
                     GS_K_ULP_EXCEEDED);
    /* strict: any non-CR output fails, subnormal results included */
    assert_int_equal(judge("strict", GELUREF_F64, 0.51, 1, 1, 1e-300, GS_WANT_SUBNORMAL),
                     GS_K_ULP_EXCEEDED);
    /* faithful: RD/RU pass everywhere, anything else fails */
    assert_int_equal(judge("faithful", GELUREF_F16, 0.99, 1, 1, 1e-3, GS_WANT_NORMAL),
                     GS_K_NONE);
    assert_int_equal(judge("faithful", GELUREF_F16, 1.01, 1, 0, 1e-6, GS_WANT_SUBNORMAL),
                     GS_K_ULP_EXCEEDED);
    /* lenient f32: 16 ulp, or within 1e-6 absolute */
    assert_int_equal(judge("lenient", GELUREF_F32, 17, 17, 0, 2e-6, GS_WANT_NORMAL),
                     GS_K_ULP_EXCEEDED);
    assert_int_equal(judge("lenient", GELUREF_F32, 17, 17, 0, 1e-6, GS_WANT_NORMAL), GS_K_NONE);
    assert_int_equal(judge("lenient", GELUREF_F64, 17, 17, 0, 1e-6, GS_WANT_NORMAL),
                     GS_K_ULP_EXCEEDED);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table),
        cmocka_unit_test(test_builtins),
    };
    return cmocka_run_group_tests_name("suites_policy_judge", tests, NULL, NULL);
}
