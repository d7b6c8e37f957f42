/* The ulp suite: per-region errors of a real formula, the mutants it must catch, a correctly
 * rounded kernel with no finding, --range, vs_exact, and results independent of --threads. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "test_ulp_common.h"

/* Random inputs of the stratified sweep in these tests: enough for every binade of f32 (510)
 * to get a few dozen, small enough to stay within the tests' time budget. */
#define SAMPLES (1u << 14)

static double region_max_ulp(json_t *m, const char *region)
{
    return ut_num(m, "regions", region, "max_ulp", NULL);
}

/* libm erf1p.f32 = 0.5f*x*(1+erff(x/sqrt2)): accurate near 0 and for x > 0 (max ulp <= 3
 * under the default policy's measurement), and cancelling in 1+erff for x < -1, so [-5,-1) is
 * visibly worse than [-1,0). */
static void erf1p_regions(void **state)
{
    (void)state;
    struct ut_kernel u;
    struct gs_suite_result r;
    ut_open(&u, "libm", "erf1p.f32", 2, "default");
    u.cfg.samples = SAMPLES;
    ut_run(&u, GS_SUITE_ULP, &r);
    double m10 = region_max_ulp(r.metrics, "[-1,0)"), p01 = region_max_ulp(r.metrics, "[0,1)");
    double ge1 = region_max_ulp(r.metrics, "x>=1"), m51 = region_max_ulp(r.metrics, "[-5,-1)");
    print_message("erf1p.f32 max ulp: [-5,-1) %g, [-1,0) %g, [0,1) %g, x>=1 %g\n", m51, m10,
                  p01, ge1);
    assert_true(m10 <= 3 && p01 <= 3 && ge1 <= 3);
    assert_true(m51 > m10);
    assert_int_equal(r.points, (uint64_t)ut_num(r.inputs, "count", NULL));
    assert_true(r.points >= SAMPLES);
    /* the overall statistics hold every point; the regions split them */
    uint64_t sum = 0;
    const char *key;
    json_t *v;
    json_object_foreach(ut_get(r.metrics, "regions", NULL), key, v)
        sum += (uint64_t)ut_num(v, "points", NULL);
    assert_int_equal(sum, (uint64_t)ut_num(r.metrics, "overall", "points", NULL));
    ut_result_release(&r);
    ut_close(&u);
}

/* mutant ulp8_1to2.f32: 8 ulp off in [1, 2) only: ulp_exceeded in region x>=1, about 8 ulp. */
static void mutant_ulp8(void **state)
{
    (void)state;
    struct ut_kernel u;
    struct gs_suite_result r;
    ut_open(&u, "mutants", "ulp8_1to2.f32", 1, "default");
    u.cfg.samples = SAMPLES;
    ut_run(&u, GS_SUITE_ULP, &r);
    assert_int_equal(r.verdict, GS_FAIL);
    assert_true(ut_count(&r, GS_K_ULP_EXCEEDED, GS_R_GE_1) > 0);
    double w = ut_worst_ulp(&r, GS_K_ULP_EXCEEDED, GS_R_GE_1);
    assert_true(w > 7.4 && w < 8.6);
    assert_int_equal(ut_count(&r, GS_K_ULP_EXCEEDED, GS_R_0_1), 0);
    double ge1 = region_max_ulp(r.metrics, "x>=1");
    assert_true(ge1 > 7.4 && ge1 < 8.6);
    ut_result_release(&r);
    ut_close(&u);
}

/* A mutant caught by the ulp suite with a finding of kind k. */
static void caught(const char *name, enum gs_kind k)
{
    struct ut_kernel u;
    struct gs_suite_result r;
    ut_open(&u, "mutants", name, 1, "default");
    u.cfg.samples = SAMPLES;
    ut_run(&u, GS_SUITE_ULP, &r);
    if (r.verdict != GS_FAIL || ut_count(&r, k, GS_N_REGIONS) == 0)
        fail_msg("%s: verdict %s, %llu %s findings", name, gs_verdict_name(r.verdict),
                 (unsigned long long)ut_count(&r, k, GS_N_REGIONS), gs_kind_name(k));
    ut_result_release(&r);
    ut_close(&u);
}

static void mutant_grad(void **state)
{
    (void)state;
    caught("grad_no_xphi.f32", GS_K_ULP_EXCEEDED);
}

static void mutant_overflow(void **state)
{
    (void)state;
    caught("overflow2x.f32", GS_K_INF_OUTPUT);
}

static void mutant_f16div(void **state)
{
    (void)state;
    caught("tanh_f16div.f16", GS_K_NAN_OUTPUT);
}

/* The correctly rounded fixture: no finding at all, every output correctly rounded. */
static void correctly_rounded(const char *name, uint64_t samples)
{
    struct ut_kernel u;
    struct gs_suite_result r;
    ut_open(&u, ut_fixture_cr(), name, 2, "strict");
    u.cfg.samples = samples;
    ut_run(&u, GS_SUITE_ULP, &r);
    for (int k = 0; k < GS_N_KINDS; k++)
        if (gs_findings_count(&r.findings, (enum gs_kind)k) != 0)
            fail_msg("%s: %s findings", name, gs_kind_name((enum gs_kind)k));
    assert_int_equal(r.verdict, GS_PASS);
    double pts = ut_num(r.metrics, "overall", "points", NULL);
    assert_true(pts > 0);
    assert_true(ut_num(r.metrics, "overall", "correctly_rounded", NULL) == pts);
    assert_true(ut_num(r.metrics, "overall", "max_ulp", NULL) <= 0.5);
    ut_result_release(&r);
    ut_close(&u);
}

static void cr_f16(void **state)
{
    (void)state;
    correctly_rounded("gelu.f16", 0);
}

static void cr_others(void **state)
{
    (void)state;
    correctly_rounded("gelu.bf16", 0);
    correctly_rounded("gelu.f32", 2048);
    correctly_rounded("normcdf.f64", 2048);
}

/* f16 is exhaustive: every finite non-zero pattern once; counted from the format: 2^16
 * patterns less 2 x 1023 NaNs, the 2 infinities and the 2 zeros (the special suite's). */
static void f16_exhaustive(void **state)
{
    (void)state;
    struct ut_kernel u;
    struct gs_suite_result r;
    ut_open(&u, "libm", "erfc.f16", 2, "default");
    ut_run(&u, GS_SUITE_ULP, &r);
    assert_string_equal(json_string_value(ut_get(r.inputs, "kind", NULL)), "exhaustive");
    assert_int_equal(r.points, 65536 - 2 * 1023 - 2 - 2);
    /* binades: 2 signs x 31 exponent fields (0 = subnormal) */
    assert_int_equal(json_array_size(ut_get(r.metrics, "binades", NULL)), 62);
    ut_result_release(&r);
    ut_close(&u);
}

/* --range -2:-1: only the binades [-2,-1] meets (exponents 0 and 1, sign -), inputs inside. */
static void range(void **state)
{
    (void)state;
    struct ut_kernel u;
    struct gs_suite_result r;
    ut_open(&u, "libm", "erf1p.f32", 1, "default");
    u.cfg.samples = 1000;
    u.cfg.has_range = 1;
    u.cfg.range_lo = -2;
    u.cfg.range_hi = -1;
    ut_run(&u, GS_SUITE_ULP, &r);
    json_t *bins = ut_get(r.metrics, "binades", NULL);
    size_t i;
    json_t *b;
    uint64_t pts = 0;
    json_array_foreach(bins, i, b) {
        assert_string_equal(json_string_value(ut_get(b, "sign", NULL)), "-");
        json_int_t e = json_integer_value(ut_get(b, "exponent", NULL));
        assert_true(e == 0 || e == 1);
        pts += (uint64_t)ut_num(b, "points", NULL);
    }
    assert_int_equal(pts, r.points);
    assert_true(r.points >= 1000);
    const char *key;
    json_t *v;
    json_object_foreach(ut_get(r.metrics, "regions", NULL), key, v)
        assert_true(strcmp(key, "[-5,-1)") == 0 || strcmp(key, "[-1,0)") == 0);
    double x = ut_num(r.metrics, "overall", "max_ulp", NULL);
    assert_true(x >= 0);
    ut_result_release(&r);
    ut_close(&u);
}

/* --range -1.5:-0.75 on f16 (exhaustive): every f16 value in it once.  Counted from the
 * format: [0.75, 1) in steps of 2^-11 is 512 values, [1, 1.5] in steps of 2^-10 is 513. */
static void range_f16(void **state)
{
    (void)state;
    struct ut_kernel u;
    struct gs_suite_result r;
    ut_open(&u, "libm", "erfc.f16", 1, "default");
    u.cfg.has_range = 1;
    u.cfg.range_lo = -1.5;
    u.cfg.range_hi = -0.75;
    ut_run(&u, GS_SUITE_ULP, &r);
    assert_int_equal(r.points, 512 + 513);
    ut_result_release(&r);
    ut_close(&u);
}

/* --range 1.1:1.2 on ulp8_1to2.f32 (8 ulp off in [1, 2)): the sample of binade [1, 2) stays
 * in [1.1, 1.2], so every kept worst input is there. */
static void range_mutant(void **state)
{
    (void)state;
    struct ut_kernel u;
    struct gs_suite_result r;
    ut_open(&u, "mutants", "ulp8_1to2.f32", 1, "default");
    u.cfg.samples = 4096;
    u.cfg.has_range = 1;
    u.cfg.range_lo = 1.1;
    u.cfg.range_hi = 1.2;
    ut_run(&u, GS_SUITE_ULP, &r);
    const struct gs_bucket *b = r.findings.b[GS_K_ULP_EXCEEDED][GS_R_GE_1];
    assert_non_null(b);
    assert_true(b->n_worst > 0);
    for (size_t i = 0; i < b->n_worst; i++) {
        double x = gs_to_double(GELUREF_F32, b->worst[i].x);
        if (!(x >= 1.1 && x <= 1.2))
            fail_msg("worst input %a outside the range", x);
    }
    ut_result_release(&r);
    ut_close(&u);
}

/* gelu_tanh: vs_exact measures the same outputs against gelu; the approximation's own error
 * is small in [0,1), its distance from gelu there (up to about 1e-4 relative) hundreds of ulp. */
static void vs_exact(void **state)
{
    (void)state;
    struct ut_kernel u;
    struct gs_suite_result r;
    ut_open(&u, "libm", "tanh.f32", 1, "default");
    u.cfg.samples = 4096;
    ut_run(&u, GS_SUITE_ULP, &r);
    assert_string_equal(json_string_value(ut_get(r.metrics, "vs_exact", "func", NULL)), "gelu");
    double own = ut_num(r.metrics, "regions", "[0,1)", "max_ulp", NULL);
    double ex = ut_num(r.metrics, "vs_exact", "regions", "[0,1)", "max_ulp", NULL);
    print_message("tanh.f32 [0,1): %g ulp, vs gelu %g ulp\n", own, ex);
    assert_true(ex > 100 * (own > 1 ? own : 1));
    assert_int_equal((uint64_t)ut_num(r.metrics, "vs_exact", "overall", "points", NULL),
                     r.points);
    ut_result_release(&r);
    ut_close(&u);
}

/* The same seed gives the same metrics with 1 and 2 threads. */
static void determinism(void **state)
{
    (void)state;
    char *dump[2];
    uint64_t counts[2][GS_N_KINDS];
    for (unsigned t = 1; t <= 2; t++) {
        struct ut_kernel u;
        struct gs_suite_result r;
        ut_open(&u, "libm", "erf1p.f32", t, "default");
        u.cfg.samples = 8192;
        u.cfg.seed = 12345;
        ut_run(&u, GS_SUITE_ULP, &r);
        dump[t - 1] = json_dumps(r.metrics, JSON_SORT_KEYS | JSON_COMPACT);
        for (int k = 0; k < GS_N_KINDS; k++)
            counts[t - 1][k] = gs_findings_count(&r.findings, (enum gs_kind)k);
        ut_result_release(&r);
        ut_close(&u);
    }
    assert_string_equal(dump[0], dump[1]);
    assert_memory_equal(counts[0], counts[1], sizeof counts[0]);
    free(dump[0]);
    free(dump[1]);
}

/* An exec adapter that answers its first request with an error: the suite stops with the
 * verdict error and an adapter_error finding. */
static void unserved(void **state)
{
    (void)state;
    struct ut_kernel u;
    struct gs_suite_result r;
    ut_open(&u, "exec:printf 'gelucheck-exec 1\\nkernel bad.f16 gelu f16\\nready\\n'; "
                "read l; echo 'error not today'; cat >/dev/null",
            "bad.f16", 1, "default");
    ut_run(&u, GS_SUITE_ULP, &r);
    assert_int_equal(r.verdict, GS_ERROR);
    assert_true(gs_findings_count(&r.findings, GS_K_ADAPTER_ERROR) > 0);
    assert_true(r.note[0] != '\0');
    ut_result_release(&r);
    ut_close(&u);
}

/* Progress: reported for this suite, the last report saying done = total. */
struct progress_seen {
    unsigned calls;
    uint64_t done, total;
    int bad_suite;
};

static void on_progress(void *arg, const char *kernel, const char *suite, uint64_t done,
                        uint64_t total)
{
    struct progress_seen *p = arg;
    (void)kernel;
    p->calls++;
    p->done = done;
    p->total = total;
    p->bad_suite |= strcmp(suite, "ulp") != 0;
}

static void progress(void **state)
{
    (void)state;
    struct ut_kernel u;
    struct gs_suite_result r;
    struct progress_seen seen = { 0, 0, 0, 0 };
    ut_open(&u, "libm", "erfc.f16", 1, "default");
    u.cfg.progress = on_progress;
    u.cfg.progress_arg = &seen;
    ut_run(&u, GS_SUITE_ULP, &r);
    assert_true(seen.calls >= 1);
    assert_false(seen.bad_suite);
    assert_true(seen.total > 0);
    assert_int_equal(seen.done, seen.total);
    ut_result_release(&r);
    ut_close(&u);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(erf1p_regions),  cmocka_unit_test(mutant_ulp8),
        cmocka_unit_test(mutant_grad),    cmocka_unit_test(mutant_overflow),
        cmocka_unit_test(mutant_f16div),  cmocka_unit_test(cr_f16),
        cmocka_unit_test(cr_others),      cmocka_unit_test(f16_exhaustive),
        cmocka_unit_test(range),          cmocka_unit_test(range_f16),
        cmocka_unit_test(range_mutant),   cmocka_unit_test(vs_exact),
        cmocka_unit_test(determinism),    cmocka_unit_test(unserved),
        cmocka_unit_test(progress),
    };
    return cmocka_run_group_tests_name("suites_ulp", tests, NULL, NULL);
}
