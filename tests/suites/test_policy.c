/* Built-in policies against the table of docs/policies.md, their JSON, and
 * gs_policy_judge on hand-made measurements (suites.h's contract of each kind). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "suites.h"

/* Checks every key of v.  warn: the kinds whose severity is warn (all others fail). */
static void check_values(const struct gs_policy_values *v, double max_ulp, double max_crd,
                         int faithful, double abs_tol, enum gs_domain domain, int zero_exact,
                         int nan_allow, const enum gs_kind *warn, size_t n_warn)
{
    assert_true(v->max_ulp == max_ulp);
    assert_true(v->max_cr_distance == max_crd);
    assert_int_equal(v->faithful, faithful);
    assert_true(v->abs_tol == abs_tol);
    assert_int_equal(v->accuracy_domain, domain);
    assert_int_equal(v->special_zero_sign, zero_exact);
    assert_int_equal(v->nan_at_neg_inf, nan_allow);
    for (int k = 0; k < GS_N_KINDS; k++) {
        enum gs_severity want = GS_SEV_FAIL;
        for (size_t i = 0; i < n_warn; i++)
            if (warn[i] == (enum gs_kind)k)
                want = GS_SEV_WARN;
        if (v->severity[k] != want)
            fail_msg("severity of %s: %d, want %d", gs_kind_name((enum gs_kind)k),
                     (int)v->severity[k], (int)want);
    }
}

static const enum geluref_func some_funcs[] = { GELUREF_GELU, GELUREF_GELU_TANH_GRAD,
                                                GELUREF_ERFC };
static const enum geluref_dtype dtypes[] = { GELUREF_F64, GELUREF_F32, GELUREF_F16,
                                             GELUREF_BF16 };

static void test_names(void **state)
{
    (void)state;
    const char *const *n = gs_policy_builtin_names();
    const char *want[] = { "strict", "faithful", "default", "lenient" };
    for (int i = 0; i < 4; i++) {
        assert_string_equal(n[i], want[i]);
        struct gs_policy *p = gs_policy_builtin(want[i]);
        assert_non_null(p);
        assert_string_equal(gs_policy_name(p), want[i]);
        gs_policy_free(p); /* built-ins are static: freeing is allowed and harmless */
        assert_string_equal(gs_policy_name(gs_policy_builtin(want[i])), want[i]);
    }
    assert_null(n[4]);
    assert_null(gs_policy_builtin("Default"));
    assert_null(gs_policy_builtin("policy.ini"));
    assert_null(gs_policy_builtin(NULL));
}

static void test_strict(void **state)
{
    (void)state;
    struct gs_policy_values v;
    for (size_t f = 0; f < 3; f++)
        for (size_t d = 0; d < 4; d++) {
            gs_policy_resolve(gs_policy_builtin("strict"), some_funcs[f], dtypes[d], &v);
            /* README rows, strict column: max_ulp inf, max_cr_distance 0, faithful true,
             * abs_tol 0, accuracy_domain all, special_zero_sign exact, nan_at_neg_inf fail,
             * severity keys all fail */
            check_values(&v, INFINITY, 0, 1, 0, GS_DOMAIN_ALL, 1, 0, NULL, 0);
        }
}

static void test_faithful(void **state)
{
    (void)state;
    struct gs_policy_values v;
    for (size_t f = 0; f < 3; f++)
        for (size_t d = 0; d < 4; d++) {
            gs_policy_resolve(gs_policy_builtin("faithful"), some_funcs[f], dtypes[d], &v);
            /* README, faithful column: max_ulp inf, max_cr_distance inf, faithful true,
             * abs_tol 0, accuracy_domain all, special_zero_sign any, nan_at_neg_inf fail,
             * all fail */
            check_values(&v, INFINITY, INFINITY, 1, 0, GS_DOMAIN_ALL, 0, 0, NULL, 0);
        }
}

static void test_default(void **state)
{
    (void)state;
    struct gs_policy_values v;
    for (size_t f = 0; f < 3; f++)
        for (size_t d = 0; d < 4; d++) {
            gs_policy_resolve(gs_policy_builtin("default"), some_funcs[f], dtypes[d], &v);
            int half = dtypes[d] == GELUREF_F16 || dtypes[d] == GELUREF_BF16;
            /* README, default column: max_ulp 4 for f64/f32, inf for f16/bf16;
             * max_cr_distance inf for f64/f32, 1 for f16/bf16; faithful false; abs_tol 0;
             * accuracy_domain normal; special_zero_sign any; nan_at_neg_inf fail; all fail
             * (so ftz and signed_zero fail: the ftz_result and pos_zero mutants) */
            check_values(&v, half ? INFINITY : 4, half ? 1 : INFINITY, 0, 0,
                         GS_DOMAIN_NORMAL, 0, 0, NULL, 0);
        }
}

static void test_lenient(void **state)
{
    (void)state;
    struct gs_policy_values v;
    /* README, lenient column, severity row: fail except these four = warn */
    static const enum gs_kind warn[] = { GS_K_SIGNED_ZERO, GS_K_IDENTITY_VIOLATION,
                                         GS_K_BOUND_VIOLATION, GS_K_NON_MONOTONIC };
    /* README, lenient abs_tol row: 1e-12 f64, 1e-6 f32, 1e-3 f16/bf16 (dtypes[] order) */
    static const double abs_tol[] = { 1e-12, 1e-6, 1e-3, 1e-3 };
    for (size_t f = 0; f < 3; f++)
        for (size_t d = 0; d < 4; d++) {
            gs_policy_resolve(gs_policy_builtin("lenient"), some_funcs[f], dtypes[d], &v);
            /* README, lenient column: max_ulp 16, max_cr_distance inf, faithful false,
             * accuracy_domain normal, special_zero_sign any, nan_at_neg_inf allow */
            check_values(&v, 16, INFINITY, 0, abs_tol[d], GS_DOMAIN_NORMAL, 0, 1, warn, 4);
        }
}

/* consistency_ulps (docs/policies.md): strict 0.5 (docs/design.md section 6: half an ulp of each
 * output), faithful 1, default 4 for f64/f32 and 1.5 for f16/bf16 (cr_distance <= 1 is an
 * error below 1.5 ulp), lenient 16 (as its max_ulp). */
static void test_consistency(void **state)
{
    (void)state;
    static const struct { const char *p; double want[4]; } rows[] = {
        { "strict", { 0.5, 0.5, 0.5, 0.5 } },   /* f64, f32, f16, bf16 */
        { "faithful", { 1, 1, 1, 1 } },
        { "default", { 4, 4, 1.5, 1.5 } },
        { "lenient", { 16, 16, 16, 16 } },
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        for (size_t d = 0; d < 4; d++) {
            struct gs_policy_values v;
            gs_policy_resolve(gs_policy_builtin(rows[i].p), GELUREF_GELU, dtypes[d], &v);
            if (v.consistency_ulps != rows[i].want[d])
                fail_msg("%s %s: consistency_ulps %g, want %g", rows[i].p,
                         geluref_dtype_name(dtypes[d]), v.consistency_ulps, rows[i].want[d]);
        }
}

/* The JSON: every key once, in the fixed order, with the types suites.h names. */
static void test_json(void **state)
{
    (void)state;
    struct gs_policy_values v;
    gs_policy_resolve(gs_policy_builtin("lenient"), GELUREF_GELU, GELUREF_F32, &v);
    json_t *o = gs_policy_values_json(&v);
    assert_non_null(o);
    /* 8 accuracy/special/consistency keys + one severity per kind (README: crash, timeout
     * and adapter_error are listed, always "fail") */
    assert_int_equal(json_object_size(o), 8 + GS_N_KINDS);
    char *s = json_dumps(o, JSON_COMPACT);
    assert_non_null(s);
    /* the key order and the value types (abs_tol's digits are jansson's business) */
    const char *head = "{\"max_ulp\":16.0,\"max_cr_distance\":\"inf\",\"faithful\":false,"
                       "\"abs_tol\":";
    const char *tail = ",\"accuracy_domain\":\"normal\",\"special_zero_sign\":\"any\","
                       "\"nan_at_neg_inf\":\"allow\",\"consistency_ulps\":16.0,"
                       "\"ulp_exceeded\":\"fail\","
                       "\"nan_output\":\"fail\"";
    if (strncmp(s, head, strlen(head)) != 0 || strstr(s, tail) == NULL)
        fail_msg("json: %s", s);
    assert_true(json_real_value(json_object_get(o, "abs_tol")) == 1e-6);
    assert_non_null(strstr(s, ",\"signed_zero\":\"warn\",\"special_value\":\"fail\","));
    assert_non_null(strstr(s, "\"adapter_error\":\"fail\"}"));
    free(s);
    json_decref(o);

    gs_policy_resolve(gs_policy_builtin("strict"), GELUREF_ERF, GELUREF_BF16, &v);
    v.severity[GS_K_FTZ] = GS_SEV_IGNORE;
    o = gs_policy_values_json(&v);
    assert_string_equal(json_string_value(json_object_get(o, "max_ulp")), "inf");
    assert_int_equal(json_integer_value(json_object_get(o, "max_cr_distance")), 0);
    assert_true(json_is_integer(json_object_get(o, "max_cr_distance")));
    assert_true(json_is_true(json_object_get(o, "faithful")));
    assert_true(json_is_real(json_object_get(o, "abs_tol")));
    assert_string_equal(json_string_value(json_object_get(o, "accuracy_domain")), "all");
    assert_string_equal(json_string_value(json_object_get(o, "special_zero_sign")), "exact");
    assert_string_equal(json_string_value(json_object_get(o, "nan_at_neg_inf")), "fail");
    assert_string_equal(json_string_value(json_object_get(o, "ftz")), "ignore");
    json_decref(o);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_strict),
        cmocka_unit_test(test_faithful),
        cmocka_unit_test(test_default),
        cmocka_unit_test(test_lenient),
        cmocka_unit_test(test_json),
        cmocka_unit_test(test_consistency),
    };
    return cmocka_run_group_tests_name("suites_policy", tests, NULL, NULL);
}
