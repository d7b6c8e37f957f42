/* The identity suite (suites/identity*.c): the mutants it must catch (clamp0: identity,
 * poly6: monotonicity and bounds), a correctly rounded kernel without any finding, and
 * determinism.  argv[1]: the plug-in spec of the correctly rounded fixture. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "test_identity_util.h"

static json_int_t metric(const struct si_run *s, const char *group, const char *name)
{
    json_t *v = json_object_get(json_object_get(s->r.metrics, group), name);
    if (!json_is_integer(v))
        fail_msg("metric %s.%s missing", group, name);
    return json_integer_value(v);
}

static json_int_t input(const struct si_run *s, const char *name);
static void check_pieces(const struct si_run *s);

static void expect_verdict(struct si_run *s, enum gs_verdict want)
{
    if (s->r.verdict != want)
        fail_msg("%s: verdict %s, want %s", s->k->name, gs_verdict_name(s->r.verdict),
                 gs_verdict_name(want));
}

/* clamp0.f32 = max(GELU(x), +0): f(x) - f(-x) = x fails wherever GELU(-x) rounds to a
 * non-zero.  At x = 1 by hand: f(1) = RN(0.8413447...), f(-1) = +0 instead of
 * RN(-0.15865525393145705) (docs/design.md section 2), so the residual is GELU(-1) up to the
 * rounding of f(1): |r| = 0.158655 +- 2^-25; allowed under default (consistency_ulps q = 4)
 * q (ulp(f(1)) + ulp(0)) = 4 (2^-24 + 2^-149) (f(1) in [0.5, 1): ulp 2^-24), score
 * |r| / allowed = 0.158655 * 2^22 = 6.6545e5. */
static void test_clamp0(void **state)
{
    (void)state;
    struct si_run s;
    si_run(&s, "mutants", "clamp0.f32", "default", GS_SUITE_IDENTITY, 0);
    assert_true(gs_findings_count(&s.r.findings, GS_K_IDENTITY_VIOLATION) > 1000);
    assert_int_equal(gs_findings_count(&s.r.findings, GS_K_IDENTITY_VIOLATION),
                     metric(&s, "identity", "violations"));
    const struct gs_finding *fd = si_find(&s.r.findings, GS_K_IDENTITY_VIOLATION, 0x3f800000u);
    assert_non_null(fd);
    assert_true(fabs(fd->score / (0.15865525393145705 * 0x1p22) - 1) < 1e-6);
    assert_non_null(strstr(fd->detail, "f(x) - f(-x) = x: f(-x) = 0,"));
    assert_int_equal(gs_findings_count(&s.r.findings, GS_K_NON_MONOTONIC), 0);
    /* P: 255 binades x (256 random + first + last), and the targets (+-64 inputs around each
     * of at least four thresholds: last non-zero, last normal, saturation, minimum) */
    assert_int_equal(json_integer_value(json_object_get(s.r.inputs, "binades")), 255);
    assert_true(json_integer_value(json_object_get(s.r.inputs, "positive")) > 255 * 258 + 400);
    expect_verdict(&s, GS_FAIL);
    si_done(&s);
    /* lenient: identity violations are warnings */
    si_run(&s, "mutants", "clamp0.f32", "lenient", GS_SUITE_IDENTITY, 0);
    assert_true(gs_findings_count(&s.r.findings, GS_K_IDENTITY_VIOLATION) > 1000);
    expect_verdict(&s, GS_PASS);
    si_done(&s);
}

/* poly6.f32: x/2 + a cubic in x^2, fitted on [-4, 4], clamped outside: rises on [-3.5, -2.5]
 * where GELU falls (the mutant's description), and is above max(x, 0) near 0 (its constant
 * term).  x/2 + an even function meets f(x) - f(-x) = x: no identity violation but f(0). */
static void test_poly6(void **state)
{
    (void)state;
    struct si_run s;
    si_run(&s, "mutants", "poly6.f32", "default", GS_SUITE_IDENTITY, 0);
    assert_true(gs_findings_count(&s.r.findings, GS_K_NON_MONOTONIC) > 0);
    assert_int_equal(gs_findings_count(&s.r.findings, GS_K_NON_MONOTONIC),
                     metric(&s, "monotonic", "violations"));
    const struct gs_bucket *b = s.r.findings.b[GS_K_NON_MONOTONIC][GS_R_M5_M1];
    int inside = 0; /* the worst include the rise on [-3.5, -2.5] (and the clamp's jump at -4) */
    assert_non_null(b);
    for (size_t i = 0; i < b->n_worst; i++) {
        float x;
        uint32_t u = (uint32_t)b->worst[i].x;
        memcpy(&x, &u, sizeof x);
        inside += x >= -3.5f && x <= -2.5f;
    }
    assert_true(inside > 0);
    assert_true(gs_findings_count(&s.r.findings, GS_K_BOUND_VIOLATION) > 0);
    assert_int_equal(gs_findings_count(&s.r.findings, GS_K_BOUND_VIOLATION),
                     metric(&s, "bounds", "violations"));
    assert_true(metric(&s, "monotonic", "checked_pairs") > 4000000);
    assert_int_equal(metric(&s, "identity", "violations"), 0);
    assert_int_equal(metric(&s, "zero", "violations"), 2);
    expect_verdict(&s, GS_FAIL);
    si_done(&s);
}

/* overflow2x.f32: +inf for x >= 2^127, so f(max) - f(-max) = x cannot hold: a violation
 * with an infinite score, saying why */
static void test_overflow2x(void **state)
{
    (void)state;
    struct si_run s;
    si_run(&s, "mutants", "overflow2x.f32", "default", GS_SUITE_IDENTITY, 0);
    const struct gs_bucket *b = s.r.findings.b[GS_K_IDENTITY_VIOLATION][GS_R_GE_1];
    assert_non_null(b);
    const struct gs_finding *fd = &b->worst[0]; /* the smallest x of the infinite scores */
    assert_true(fd->x >= 0x7f000000u && fd->x <= 0x7f7fffffu); /* [2^127, max] */
    assert_int_equal(fd->got, 0x7f800000u);
    assert_true(isinf(fd->score));
    assert_non_null(strstr(fd->detail, "not finite"));
    expect_verdict(&s, GS_FAIL);
    si_done(&s);
}

/* libm kernels (real formulas, not correctly rounded): whatever they get, the suite runs to a
 * verdict and its metrics agree with its findings (the measured numbers are in the report of
 * the change, not asserted: they depend on the libm). */
static void test_libm_consistent(void **state)
{
    (void)state;
    static const char *const kernels[] = { "erfc.f64", "erf1p.f32", "grad_erf.f32", "erf1p.f16" };
    for (size_t i = 0; i < sizeof kernels / sizeof kernels[0]; i++) {
        struct si_run s;
        si_run(&s, "libm", kernels[i], "default", GS_SUITE_IDENTITY, 0);
        assert_true(s.r.verdict == GS_PASS || s.r.verdict == GS_FAIL);
        const struct gs_findings *f = &s.r.findings;
        assert_int_equal(gs_findings_count(f, GS_K_IDENTITY_VIOLATION),
                         metric(&s, "identity", "violations") + metric(&s, "zero", "violations"));
        assert_int_equal(gs_findings_count(f, GS_K_BOUND_VIOLATION),
                         metric(&s, "bounds", "violations"));
        assert_int_equal(gs_findings_count(f, GS_K_NON_MONOTONIC),
                         metric(&s, "monotonic", "violations"));
        assert_int_equal(s.r.points, input(&s, "evaluated") + input(&s, "run_points"));
        assert_int_equal(metric(&s, "bounds", "checked"), input(&s, "evaluated"));
        assert_int_equal(metric(&s, "identity", "checked"), input(&s, "positive"));
        check_pieces(&s);
        si_done(&s);
    }
}

/* consistency_ulps: glibc's erfc-based GELU in double (a few ulp per output) shows identity
 * residuals above the half ulp of each output that strict (q = 1/2, docs/design.md section 6)
 * allows, none above the 4 ulp of each that default (q = 4) allows: the kind of kernel the
 * default policy is for is not failed for inconsistencies its accuracy implies */
static void test_consistency_ulps(void **state)
{
    (void)state;
    struct si_run s;
    si_run(&s, "libm", "erfc.f64", "strict", GS_SUITE_IDENTITY, 0);
    assert_true(gs_findings_count(&s.r.findings, GS_K_IDENTITY_VIOLATION) > 0);
    expect_verdict(&s, GS_FAIL);
    si_done(&s);
    si_run(&s, "libm", "erfc.f64", "default", GS_SUITE_IDENTITY, 0);
    assert_int_equal(gs_findings_count(&s.r.findings, GS_K_IDENTITY_VIOLATION), 0);
    assert_int_equal(gs_findings_count(&s.r.findings, GS_K_BOUND_VIOLATION), 0);
    assert_int_equal(gs_findings_count(&s.r.findings, GS_K_NON_MONOTONIC), 0);
    expect_verdict(&s, GS_PASS);
    si_done(&s);
}

/* the same seed gives the same result */
static void test_deterministic(void **state)
{
    (void)state;
    struct si_run a, b;
    si_run(&a, "mutants", "poly6.f32", "default", GS_SUITE_IDENTITY, 3000);
    si_run(&b, "mutants", "poly6.f32", "default", GS_SUITE_IDENTITY, 3000);
    assert_true(json_equal(a.r.metrics, b.r.metrics));
    assert_true(json_equal(a.r.inputs, b.r.inputs));
    assert_int_equal(a.r.points, b.r.points);
    si_done(&a);
    si_done(&b);
}

static const char *const funcs[] = { "gelu", "gelu_tanh", "gelu_sigmoid", "gelu_grad",
                                     "gelu_tanh_grad", "normcdf", "normpdf", "erf", "erfc" };

static json_int_t input(const struct si_run *s, const char *name)
{
    return json_integer_value(json_object_get(s->r.inputs, name));
}

/* The pieces cover -inf .. inf, and every neighbour pair evaluated is checked but those next to
 * a turning point (at most 2 per turning point, each pair of S and of the runs). */
static void check_pieces(const struct si_run *s)
{
    json_t *p = json_object_get(json_object_get(s->r.metrics, "monotonic"), "pieces");
    size_t n = json_array_size(p);
    assert_true(n >= 1 && n <= 3);
    const char *lo = json_string_value(
        json_object_get(json_object_get(json_array_get(p, 0), "from"), "dec"));
    const char *hi = json_string_value(
        json_object_get(json_object_get(json_array_get(p, n - 1), "to"), "dec"));
    assert_string_equal(lo, "-inf");
    assert_string_equal(hi, "inf");
    json_int_t runs = input(s, "run_length") ? input(s, "run_points") / input(s, "run_length")
                                             : 0;
    json_int_t pairs = input(s, "evaluated") - 1 + input(s, "run_points") - runs;
    json_int_t missed = pairs - metric(s, "monotonic", "checked_pairs");
    if (missed < 0 || missed > 2 * (json_int_t)(n - 1) * (1 + runs))
        fail_msg("%s: %lld of %lld neighbour pairs not checked", s->k->name, (long long)missed,
                 (long long)pairs);
}

/* A correctly rounded kernel has no identity, bound or monotonicity finding (the argument in
 * suites/identity_check.c), under strict: every func, f16 and bf16 exhaustively, f32 and f64
 * on a sample. */
static void check_cr(const char *dtype, uint64_t samples)
{
    for (size_t f = 0; f < sizeof funcs / sizeof funcs[0]; f++) {
        struct si_run s;
        char name[32];
        snprintf(name, sizeof name, "%s.%s", funcs[f], dtype);
        si_run(&s, si_fixture, name, "strict", GS_SUITE_IDENTITY, samples);
        for (int k = 0; k < GS_N_KINDS; k++)
            if (gs_findings_count(&s.r.findings, (enum gs_kind)k) != 0)
                fail_msg("%s: %s finding", name, gs_kind_name((enum gs_kind)k));
        expect_verdict(&s, GS_PASS);
        assert_true(metric(&s, "identity", "checked") > 0);
        assert_int_equal(metric(&s, "zero", "checked"), 2);
        assert_true(metric(&s, "monotonic", "checked_pairs") > 0);
        assert_true(metric(&s, "bounds", "checked") > 0);
        check_pieces(&s);
        /* |residual| <= ulp(y1)/2 + ulp(y2)/2 <= the larger ulp */
        double r = json_real_value(json_object_get(json_object_get(s.r.metrics, "identity"),
                                                   "max_residual_ulps"));
        assert_true(r >= 0 && r <= 1);
        si_done(&s);
    }
}

/* The bounds of gelu_grad, by hand: the maximum is at sqrt2, Phi(sqrt2) + sqrt2 phi(sqrt2) =
 * 0.92135039647485756 + sqrt2 * exp(-1)/sqrt(2 pi) = 1.128904145185155, and the minimum at
 * -sqrt2 is 1 minus that (Phi(-x) = 1 - Phi(x), phi even); the gelu minimum -0.16997120747990366
 * (docs/design.md section 2). */
static double bound(const struct si_run *s, const char *which)
{
    json_t *v = json_object_get(json_object_get(s->r.metrics, "bounds"), which);
    return strtod(json_string_value(json_object_get(v, "dec")), NULL);
}

static void test_bounds_values(void **state)
{
    (void)state;
    struct si_run s;
    if (!si_fixture[0])
        skip();
    si_run(&s, si_fixture, "gelu_grad.f64", "strict", GS_SUITE_IDENTITY, 100);
    assert_true(fabs(bound(&s, "max") - 1.128904145185155) < 4e-16);
    assert_true(fabs(bound(&s, "min") + 0.128904145185155) < 4e-16);
    si_done(&s);
    si_run(&s, si_fixture, "gelu.f64", "strict", GS_SUITE_IDENTITY, 100);
    assert_true(bound(&s, "min") == -0.16997120747990366);
    assert_null(json_string_value(json_object_get(json_object_get(s.r.metrics, "bounds"), "max")));
    si_done(&s);
}

static void test_cr_f16(void **state) { (void)state; if (!si_fixture[0]) skip(); check_cr("f16", 0); }
static void test_cr_bf16(void **state) { (void)state; if (!si_fixture[0]) skip(); check_cr("bf16", 0); }
static void test_cr_f32(void **state) { (void)state; if (!si_fixture[0]) skip(); check_cr("f32", 2000); }
static void test_cr_f64(void **state) { (void)state; if (!si_fixture[0]) skip(); check_cr("f64", 4000); }

int main(int argc, char **argv)
{
    if (argc > 1)
        si_fixture = argv[1];
    if (argc > 2)
        cmocka_set_test_filter(argv[2]); /* one test by name, for timing and debugging */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_clamp0),
        cmocka_unit_test(test_poly6),
        cmocka_unit_test(test_overflow2x),
        cmocka_unit_test(test_libm_consistent),
        cmocka_unit_test(test_consistency_ulps),
        cmocka_unit_test(test_deterministic),
        cmocka_unit_test(test_bounds_values),
        cmocka_unit_test(test_cr_f16),
        cmocka_unit_test(test_cr_bf16),
        cmocka_unit_test(test_cr_f32),
        cmocka_unit_test(test_cr_f64),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
