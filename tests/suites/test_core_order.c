/* The order of severity (suites/severity.c, docs/findings.md): every kind ranked once, the
 * order the docs publish, and gs_rank_cmp on severities, kinds, scores and inputs, for struct
 * findings and for findings of the result alike. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "suites.h"

/* docs/findings.md, "Order of severity", most severe first: the published contract */
static const char *const published[] = {
    "crash", "timeout", "adapter_error", "declared_mismatch", "nan_output", "inf_output",
    "wrong_sign", "out_of_bounds_write", "input_modified", "fpenv_modified", "premature_flush",
    "special_value", "lane_contamination", "nondeterministic", "position_dependent",
    "alignment_dependent", "inplace_mismatch", "ulp_exceeded", "bound_violation",
    "non_monotonic", "identity_violation", "ftz", "signed_zero" };

static void test_ranks(void **state)
{
    (void)state;
    int seen[GS_N_KINDS] = { 0 };
    assert_int_equal(sizeof published / sizeof published[0], GS_N_KINDS);
    for (int r = 0; r < GS_N_KINDS; r++) {
        enum gs_kind k = gs_kind_at_rank(r);
        assert_true((unsigned)k < GS_N_KINDS);
        if (strcmp(gs_kind_name(k), published[r]) != 0)
            fail_msg("rank %d: %s, docs/findings.md says %s", r, gs_kind_name(k), published[r]);
        assert_int_equal(gs_kind_rank(k), r);
        seen[k]++;
    }
    for (int k = 0; k < GS_N_KINDS; k++)
        assert_int_equal(seen[k], 1);
    assert_int_equal(gs_kind_rank(GS_K_NONE), GS_N_KINDS);
    assert_int_equal(gs_kind_at_rank(GS_N_KINDS), GS_K_NONE);
    assert_int_equal(gs_kind_at_rank(-1), GS_K_NONE);
}

static struct gs_finding mk(enum gs_kind k, double score, uint64_t x)
{
    struct gs_finding f;
    memset(&f, 0, sizeof f);
    f.kind = k;
    f.region = GS_R_NONE;
    f.score = score;
    f.has_x = 1;
    f.x = x;
    f.ulp = f.abs_err = NAN;
    return f;
}

static int cmp(const struct gs_policy_values *v, const struct gs_finding *a,
               const struct gs_finding *b)
{
    struct gs_rank_key ka, kb;
    gs_rank_key_of(&ka, v, a);
    gs_rank_key_of(&kb, v, b);
    return gs_rank_cmp(&ka, &kb);
}

static void test_cmp(void **state)
{
    (void)state;
    struct gs_policy_values v;
    gs_policy_resolve(gs_policy_builtin("default"), GELUREF_GELU, GELUREF_F32, &v);
    struct gs_finding crash = mk(GS_K_CRASH, 0, 1), ulp = mk(GS_K_ULP_EXCEEDED, 6170, 2);
    struct gs_finding ulp_small = mk(GS_K_ULP_EXCEEDED, 60, 1);
    struct gs_finding zero = mk(GS_K_SIGNED_ZERO, INFINITY, 1);
    assert_true(cmp(&v, &crash, &ulp) < 0); /* the kind before the size */
    assert_true(cmp(&v, &ulp, &ulp_small) < 0); /* then the size */
    assert_true(cmp(&v, &ulp, &zero) < 0);
    assert_int_equal(cmp(&v, &ulp, &ulp), 0);
    /* a warning after every failing finding, a tolerated one too */
    v.severity[GS_K_ULP_EXCEEDED] = GS_SEV_WARN;
    assert_true(cmp(&v, &zero, &ulp) < 0);
    struct gs_finding sv = mk(GS_K_SPECIAL_VALUE, INFINITY, 0xff800000u);
    struct gs_finding sv2 = mk(GS_K_SPECIAL_VALUE, INFINITY, 0x7f800000u);
    assert_true(cmp(&v, &sv2, &sv) < 0); /* same score: the smaller bits */
    sv2.tolerated = 1;
    assert_true(cmp(&v, &sv, &sv2) < 0);
    assert_int_equal(gs_finding_severity(&v, &sv2), GS_SEV_WARN);
    /* crashes fail whatever the policy says */
    v.severity[GS_K_CRASH] = GS_SEV_IGNORE;
    assert_int_equal(gs_kind_severity(&v, GS_K_CRASH), GS_SEV_FAIL);
    assert_int_equal(gs_finding_severity(&v, &crash), GS_SEV_FAIL);
}

/* The JSON form orders like the struct form; a missing score falls back on the ulp. */
static void test_json(void **state)
{
    (void)state;
    json_t *a = json_pack("{s:s, s:s, s:f, s:{s:s}}", "kind", "ulp_exceeded", "severity", "fail",
                          "score", 6170.0, "x", "bits", "0xbf405e5b");
    json_t *b = json_pack("{s:s, s:s, s:f, s:{s:s}}", "kind", "ulp_exceeded", "severity", "fail",
                          "score", 60.0, "x", "bits", "0xc148a056");
    json_t *c = json_pack("{s:s, s:s, s:f}", "kind", "crash", "severity", "fail", "score", 0.0);
    json_t *w = json_pack("{s:s, s:s, s:s}", "kind", "crash", "severity", "warn", "ulp", "inf");
    json_t *u = json_pack("{s:s, s:s}", "kind", "no_such_kind", "severity", "fail");
    assert_true(gs_finding_json_cmp(a, b) < 0);
    assert_true(gs_finding_json_cmp(b, a) > 0);
    assert_true(gs_finding_json_cmp(c, a) < 0);
    assert_true(gs_finding_json_cmp(a, w) < 0); /* fail before warn */
    assert_true(gs_finding_json_cmp(a, u) < 0); /* an unknown kind last */
    struct gs_rank_key k;
    gs_rank_key_of_json(&k, w);
    assert_true(isinf(k.score));
    json_object_del(b, "score");
    json_object_set_new(b, "ulp", json_real(7000.0));
    assert_true(gs_finding_json_cmp(b, a) < 0);
    json_decref(a);
    json_decref(b);
    json_decref(c);
    json_decref(w);
    json_decref(u);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ranks),
        cmocka_unit_test(test_cmp),
        cmocka_unit_test(test_json),
    };
    return cmocka_run_group_tests_name("suites_core_order", tests, NULL, NULL);
}
