/* The tail suite: the flush point of the classic float formula, the tail mutants, a correctly
 * rounded kernel with no finding, saturation, the f64 refinement and thread independence. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "test_ulp_common.h"

static double value(json_t *m, const char *key)
{
    json_t *v = ut_get(m, key, NULL);
    return gs_to_double(GELUREF_F32, ut_bits(v));
}

/* The flush point is exact: the kernel gives +-0 there and non-zero one float towards 0. */
static void check_flush_exact(struct ut_kernel *u, json_t *metrics)
{
    enum geluref_dtype dt = u->k[0]->dtype;
    uint64_t f = ut_bits(ut_get(metrics, "flush_point", NULL));
    assert_true(gs_is_zero(dt, ut_eval1(u, f)));
    assert_false(gs_is_zero(dt, ut_eval1(u, f - 1))); /* magnitude - 1: towards 0 */
}

/* libm erf1p.f32 = 0.5f*x*(1+erff(x/sqrt2)): 1+erff is exactly 0 below about -5.54
 * (docs/design.md section 2), far before the last non-zero GELU, -14.356067657470703 (ibid.). */
static void erf1p_flush(void **state)
{
    (void)state;
    struct ut_kernel u;
    struct gs_suite_result r;
    ut_open(&u, "libm", "erf1p.f32", 2, "default");
    ut_run(&u, GS_SUITE_TAIL, &r);
    double fp = value(r.metrics, "flush_point");
    print_message("erf1p.f32 flush point %.9g, %g floats before last_nonzero\n", fp,
                  ut_num(r.metrics, "flush_gap", "floats", NULL));
    assert_true(fp >= -5.6 && fp <= -5.45);
    assert_true(value(r.metrics, "last_nonzero") == -14.356067657470703);
    assert_true(ut_count(&r, GS_K_PREMATURE_FLUSH, GS_N_REGIONS) > 0);
    assert_true(ut_num(r.metrics, "premature_flush", NULL) > 0);
    assert_true(fabs(ut_num(r.metrics, "flush_gap", "x", NULL) - (fp + 14.356067657470703)) <
                1e-9);
    check_flush_exact(&u, r.metrics);
    assert_int_equal(r.verdict, GS_FAIL);
    /* depth: ceil(14.36) = 15 unit bins, accurate near 0, cancelling from x = -1 on */
    json_t *d = ut_get(r.metrics, "depth", NULL);
    assert_int_equal(json_array_size(d), 15);
    assert_string_equal(json_string_value(ut_get(json_array_get(d, 0), "bin", NULL)), "[-1,0)");
    assert_string_equal(json_string_value(ut_get(json_array_get(d, 14), "bin", NULL)),
                        "[-15,-14)");
    assert_true(ut_num(json_array_get(d, 0), "max_ulp", NULL) <= 3);
    assert_true(ut_num(json_array_get(d, 4), "max_ulp", NULL) > 100);
    assert_true(ut_num(json_array_get(d, 0), "points", NULL) >= 60);
    ut_result_release(&r);
    ut_close(&u);
}

/* A mutant caught by the tail suite with a finding of kind k. */
static void caught(const char *name, enum gs_kind k, struct gs_suite_result *r,
                   struct ut_kernel *u)
{
    ut_open(u, "mutants", name, 2, "default");
    ut_run(u, GS_SUITE_TAIL, r);
    if (r->verdict != GS_FAIL || ut_count(r, k, GS_N_REGIONS) == 0)
        fail_msg("%s: verdict %s, %llu %s findings", name, gs_verdict_name(r->verdict),
                 (unsigned long long)ut_count(r, k, GS_N_REGIONS), gs_kind_name(k));
}

/* ftz_result.f32 flushes subnormal results only, in the deep tail beyond last_normal and
 * next to 0 (GELU(x) about x/2): nothing is a premature_flush; the flush point is the first
 * non-zero result next to 0, -2^-148 (RN(GELU(-2^-148)) = -2^-149: see mutant_clamp0). */
static void mutant_ftz(void **state)
{
    (void)state;
    struct ut_kernel u;
    struct gs_suite_result r;
    caught("ftz_result.f32", GS_K_FTZ, &r, &u);
    assert_int_equal(ut_count(&r, GS_K_PREMATURE_FLUSH, GS_N_REGIONS), 0);
    assert_int_equal((uint64_t)ut_num(r.metrics, "premature_flush", NULL), 0);
    assert_true(ut_num(r.metrics, "ftz", NULL) > 0);
    assert_int_equal(ut_bits(ut_get(r.metrics, "flush_point", NULL)), 0x80000002u);
    assert_true(ut_count(&r, GS_K_FTZ, GS_R_LT_M10) > 0);
    assert_true(ut_count(&r, GS_K_FTZ, GS_R_M1_0) > 0);
    ut_result_release(&r);
    ut_close(&u);
}

/* pos_zero.f32: +0 where RN(GELU) is -0 (x < -14.36): signed_zero, and no early zero. */
static void mutant_pos_zero(void **state)
{
    (void)state;
    struct ut_kernel u;
    struct gs_suite_result r;
    caught("pos_zero.f32", GS_K_SIGNED_ZERO, &r, &u);
    assert_true(ut_num(r.metrics, "signed_zero", NULL) > 0);
    assert_int_equal((uint64_t)ut_num(r.metrics, "zero_outputs", NULL), 0);
    assert_true(json_is_null(ut_get(r.metrics, "flush_point", NULL)));
    ut_result_release(&r);
    ut_close(&u);
}

/* clamp0.f32 = max(GELU, +0): every x < 0 flushes.  The first premature zero is at -2^-148:
 * GELU(x) = x/2 + x^2 phi(0) + ..., so RN(GELU(-2^-148)) = -2^-149 (x/2 exact, the x^2 term
 * far below half an ulp), while RN(GELU(-2^-149)) = -0 (x/2 a midpoint, the x^2 term pushing
 * it towards 0: docs/design.md section 2). */
static void mutant_clamp0(void **state)
{
    (void)state;
    struct ut_kernel u;
    struct gs_suite_result r;
    caught("clamp0.f32", GS_K_PREMATURE_FLUSH, &r, &u);
    assert_int_equal(ut_bits(ut_get(r.metrics, "flush_point", NULL)), 0x80000002u);
    /* the reference is asked about a bounded number of them */
    assert_true(ut_num(r.metrics, "zero_outputs_measured", NULL) <= 17 * 64 + 2);
    ut_result_release(&r);
    ut_close(&u);
}

static void mutant_erf1p_float(void **state)
{
    (void)state;
    struct ut_kernel u;
    struct gs_suite_result r;
    caught("erf1p_float.f32", GS_K_PREMATURE_FLUSH, &r, &u);
    ut_result_release(&r);
    ut_close(&u);
}

/* overflow2x.f32 gives +inf for x >= 2^127 where GELU(x) = x: the saturation check sees it. */
static void mutant_overflow_saturation(void **state)
{
    (void)state;
    struct ut_kernel u;
    struct gs_suite_result r;
    caught("overflow2x.f32", GS_K_INF_OUTPUT, &r, &u);
    assert_true(ut_num(r.metrics, "saturation", "failures", NULL) > 0);
    assert_true(ut_num(r.metrics, "saturation", "checked", NULL) >= 256);
    ut_result_release(&r);
    ut_close(&u);
}

/* The inputs the saturation check takes from threshold magnitude m of bf16 (7 stored
 * significand bits, largest finite magnitude 0x7f7f), by the documented rule: the first 256
 * floats, then per binade all inputs when there are at most 64, else 64 of them. */
static uint64_t bf16_sat_inputs(uint64_t m)
{
    const uint64_t maxmag = 0x7f7f, per = 64;
    uint64_t first = m + 255 < maxmag ? m + 255 : maxmag, n = first - m + 1;
    for (uint64_t lo = first + 1; lo <= maxmag;) {
        uint64_t end = ((lo >> 7) + 1) * 128 - 1, hi = end < maxmag ? end : maxmag;
        n += hi - lo + 1 <= per ? hi - lo + 1 : per;
        lo = hi + 1;
    }
    return n;
}

/* The correctly rounded fixture: no finding, no flush point, saturation all exact. */
static void cr(const char *name)
{
    struct ut_kernel u;
    struct gs_suite_result r;
    ut_open(&u, ut_fixture_cr(), name, 2, "strict");
    ut_run(&u, GS_SUITE_TAIL, &r);
    for (int k = 0; k < GS_N_KINDS; k++)
        if (gs_findings_count(&r.findings, (enum gs_kind)k) != 0)
            fail_msg("%s: %s findings", name, gs_kind_name((enum gs_kind)k));
    assert_int_equal(r.verdict, GS_PASS);
    assert_true(json_is_null(ut_get(r.metrics, "flush_point", NULL)));
    assert_int_equal((uint64_t)ut_num(r.metrics, "zero_outputs", NULL), 0);
    json_t *s = ut_get(r.metrics, "saturation", NULL);
    if (!json_is_null(s))
        assert_int_equal((uint64_t)ut_num(s, "failures", NULL), 0);
    if (strcmp(name, "gelu.bf16") == 0)
        assert_int_equal((uint64_t)ut_num(s, "checked", NULL),
                         bf16_sat_inputs(ut_bits(ut_get(s, "from", NULL))));
    assert_true(r.points > 0);
    ut_result_release(&r);
    ut_close(&u);
}

static void cr_fixture(void **state)
{
    (void)state;
    cr("gelu.f16");
    cr("gelu.bf16");
    cr("erfc.f16"); /* the underflow side is x > 0 */
    cr("erf.bf16"); /* no underflow side: saturation on both sides */
}

/* erf1p.f64 = 0.5*x*(1+erf(x/sqrt2)): 1+erf is exactly 0 once erfc(|x|/sqrt2) < 2^-54, near
 * x = -8.3; the refinement narrows 2^42-float gaps to the exact float. */
static void f64_refinement(void **state)
{
    (void)state;
    struct ut_kernel u;
    struct gs_suite_result r;
    ut_open(&u, "libm", "erf1p.f64", 1, "default");
    ut_run(&u, GS_SUITE_TAIL, &r);
    double fp = gs_to_double(GELUREF_F64, ut_bits(ut_get(r.metrics, "flush_point", NULL)));
    print_message("erf1p.f64 flush point %.17g\n", fp);
    assert_true(fp > -9 && fp < -7.5);
    check_flush_exact(&u, r.metrics);
    ut_result_release(&r);
    ut_close(&u);
}

static void determinism(void **state)
{
    (void)state;
    char *dump[2];
    for (unsigned t = 1; t <= 2; t++) {
        struct ut_kernel u;
        struct gs_suite_result r;
        ut_open(&u, "mutants", "erf1p_float.f32", t, "default");
        u.cfg.seed = 99;
        ut_run(&u, GS_SUITE_TAIL, &r);
        dump[t - 1] = json_dumps(r.metrics, JSON_SORT_KEYS | JSON_COMPACT);
        ut_result_release(&r);
        ut_close(&u);
    }
    assert_string_equal(dump[0], dump[1]);
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
    ut_run(&u, GS_SUITE_TAIL, &r);
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
    p->bad_suite |= strcmp(suite, "tail") != 0;
}

static void progress(void **state)
{
    (void)state;
    struct ut_kernel u;
    struct gs_suite_result r;
    struct progress_seen seen = { 0, 0, 0, 0 };
    ut_open(&u, "libm", "erfc.bf16", 1, "default");
    u.cfg.progress = on_progress;
    u.cfg.progress_arg = &seen;
    ut_run(&u, GS_SUITE_TAIL, &r);
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
        cmocka_unit_test(erf1p_flush),        cmocka_unit_test(mutant_ftz),
        cmocka_unit_test(mutant_pos_zero),    cmocka_unit_test(mutant_clamp0),
        cmocka_unit_test(mutant_erf1p_float), cmocka_unit_test(mutant_overflow_saturation),
        cmocka_unit_test(cr_fixture),         cmocka_unit_test(f64_refinement),
        cmocka_unit_test(determinism),    cmocka_unit_test(unserved),
        cmocka_unit_test(progress),
    };
    return cmocka_run_group_tests_name("suites_tail", tests, NULL, NULL);
}
