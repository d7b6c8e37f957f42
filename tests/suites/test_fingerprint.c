/* The fingerprint suite (suites/fingerprint*.c): which formula a gelu-family kernel behaves
 * like.  The mutants that compute another formula than they declare must be caught with the
 * right name; the libm kernels must be recognised as what they declare, including the classic
 * erf1p.f32 whose tail relative error is large (cancellation in 1 + erff); a test plug-in
 * computing x Phi(x/1.3) must come out scaled with s within 1% of 1.3; non-gelu funcs skip.
 * The expected names come from the kernels' own descriptions (what each one computes), not
 * from running the suite. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "test_vf_common.h"

#define KBIT(k) (UINT64_C(1) << (k))

/* prints the candidates' scores (ctest -V shows them: the measured margins) */
static void show(const struct vf_run *u)
{
    json_t *c = json_object_get(u->r.metrics, "candidates"), *e;
    size_t i;
    printf("%-20s detected %-13s margin %5.2f:", u->k[0]->name, vf_str(u, "detected"),
           json_is_number(json_object_get(u->r.metrics, "margin")) ? vf_num(u, "margin")
                                                                    : NAN);
    json_array_foreach(c, i, e)
        printf(" %s %.2f", json_string_value(json_object_get(e, "name")),
               json_number_value(json_object_get(e, "score")));
    printf("\n");
}

static const struct {
    const char *adapter, *kernel, *detected; /* what the kernel computes (its description) */
    int mismatch;                            /* it declares something else */
} rows[] = {
    { "mutants", "nosqrt2.f32", "gelu_nosqrt2", 1 },
    { "mutants", "tanh_as_gelu.f32", "gelu_tanh", 1 },
    { "mutants", "sigmoid_as_gelu.f32", "gelu_sigmoid", 1 },
    { "mutants", "silu_as_gelu.f32", "silu", 1 },
    /* the classic float formula: relative error ~5% at x = -5 (1 + erff cancels), still gelu */
    { "mutants", "erf1p_float.f32", "gelu", 0 },
    { "libm", "erf1p.f32", "gelu", 0 },
    { "libm", "erf1p.f64", "gelu", 0 },
    { "libm", "erfc.f32", "gelu", 0 },
    { "libm", "erfc.f64", "gelu", 0 },
    { "libm", "erfc_via_f64.f32", "gelu", 0 },
    { "libm", "tanh.f32", "gelu_tanh", 0 },
    { "libm", "tanh.f64", "gelu_tanh", 0 },
    { "libm", "sigmoid.f32", "gelu_sigmoid", 0 },
    { "libm", "sigmoid.f64", "gelu_sigmoid", 0 },
    /* f16/bf16: computed in float and rounded once; the tail probes tell gelu from
       gelu_tanh even where [-2, 2] cannot (bf16: 8 bits, the two differ by < 2^-9 there) */
    { "libm", "erf1p.f16", "gelu", 0 },
    { "libm", "erfc.f16", "gelu", 0 },
    { "libm", "tanh.f16", "gelu_tanh", 0 },
    { "libm", "erf1p.bf16", "gelu", 0 },
    { "libm", "erfc.bf16", "gelu", 0 },
    { "libm", "tanh.bf16", "gelu_tanh", 0 },
};

static void test_table(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        struct vf_run u;
        vf_run(&u, rows[i].adapter, rows[i].kernel, GS_SUITE_FINGERPRINT);
        show(&u);
        if (strcmp(vf_str(&u, "detected"), rows[i].detected) != 0)
            fail_msg("%s: detected %s, want %s", rows[i].kernel, vf_str(&u, "detected"),
                     rows[i].detected);
        assert_string_equal(vf_str(&u, "declared"), geluref_func_name(u.k[0]->func));
        vf_only(&u, rows[i].mismatch ? KBIT(GS_K_DECLARED_MISMATCH) : 0);
        assert_int_equal(u.r.verdict, rows[i].mismatch ? GS_FAIL : GS_PASS);
        /* a decision is published with its margin: the runner-up at least the margin behind */
        assert_true(vf_num(&u, "margin") >= vf_num(&u, "margin_required"));
        assert_false(json_object_get(u.r.metrics, "scale") != NULL);
        vf_release(&u);
    }
}

/* the declared_mismatch finding: x/got/want at the probe where the declared formula is
 * farthest; want is RN(gelu(x)) there, checked against the reference directly */
static void test_finding(void **state)
{
    struct vf_run u;
    uint64_t want;
    (void)state;
    vf_run(&u, "mutants", "tanh_as_gelu.f32", GS_SUITE_FINGERPRINT);
    assert_int_equal(vf_count(&u, GS_K_DECLARED_MISMATCH), 1);
    const struct gs_bucket *b = u.r.findings.b[GS_K_DECLARED_MISMATCH][GS_R_NONE];
    assert_non_null(b);
    const struct gs_finding *f = &b->worst[0];
    assert_true(f->has_x && f->has_got && f->has_want);
    assert_int_equal(geluref_eval(GELUREF_GELU, GELUREF_F32, f->x, MPFR_RNDN, &want, NULL,
                                  NULL), GELUREF_OK);
    assert_int_equal(f->want, want);
    assert_true(f->got != want);
    assert_non_null(strstr(f->detail, "declared gelu, behaves like gelu_tanh"));
    assert_true(f->score > vf_num(&u, "tolerance"));
    vf_release(&u);
}

/* x Phi(x/1.3) (tests/suites/fixture_vf.c): scaled, s within 1% of 1.3, a mismatch */
static void test_scaled(void **state)
{
    struct vf_run u;
    char spec[1024];
    (void)state;
    snprintf(spec, sizeof spec, "plugin:%s", vf_fixture());
    vf_run(&u, spec, "scaled13.f32", GS_SUITE_FINGERPRINT);
    show(&u);
    assert_string_equal(vf_str(&u, "detected"), "scaled");
    double s = vf_num(&u, "scale");
    if (!(fabs(s / 1.3 - 1.0) <= 0.01))
        fail_msg("scale %.9g, want 1.3 within 1%%", s);
    printf("scale %.9g: %s\n", s,
           u.r.findings.b[GS_K_DECLARED_MISMATCH][GS_R_NONE]->worst[0].detail);
    vf_only(&u, KBIT(GS_K_DECLARED_MISMATCH));
    assert_int_equal(u.r.verdict, GS_FAIL);
    vf_release(&u);
}

/* a formula nobody computes: poly6.f32 (a cubic fit, 0.057 off) is none of the candidates */
static void test_unknown(void **state)
{
    struct vf_run u;
    (void)state;
    vf_run(&u, "mutants", "poly6.f32", GS_SUITE_FINGERPRINT);
    show(&u);
    assert_string_equal(vf_str(&u, "detected"), "unknown");
    assert_int_equal(vf_count(&u, GS_K_DECLARED_MISMATCH), 1);
    vf_release(&u);
}

/* non-gelu funcs: skip, "n/a" */
static void test_skip(void **state)
{
    static const char *const names[] = { "grad_erf.f32", "normcdf.f64", "erf_c99.f32" };
    (void)state;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        struct vf_run u;
        vf_run(&u, "libm", names[i], GS_SUITE_FINGERPRINT);
        assert_int_equal(u.r.verdict, GS_SKIP);
        assert_string_equal(vf_str(&u, "detected"), "n/a");
        vf_only(&u, 0);
        vf_release(&u);
    }
}

/* the probes are published and include the tail x < -3 */
static void test_probes(void **state)
{
    struct vf_run u;
    json_t *p, *e;
    size_t i, tail = 0;
    (void)state;
    vf_run(&u, "libm", "erfc.f32", GS_SUITE_FINGERPRINT);
    p = json_object_get(u.r.metrics, "probes");
    assert_true(json_is_array(p));
    json_array_foreach(p, i, e)
        tail += json_number_value(e) < -3.0;
    assert_true(tail >= 4);
    assert_int_equal(u.r.points, json_array_size(p));
    vf_release(&u);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table),   cmocka_unit_test(test_finding),
        cmocka_unit_test(test_scaled),  cmocka_unit_test(test_unknown),
        cmocka_unit_test(test_skip),    cmocka_unit_test(test_probes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
