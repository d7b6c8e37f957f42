/* The special suite (suites/special.c): the mutants it must catch, the policy switches
 * special_zero_sign and nan_at_neg_inf, and a correctly rounded kernel passing under strict.
 * argv[1]: the plug-in spec of the correctly rounded fixture (tests/suites/fixture_cr.c).
 * Expected bits are docs/design.md section 2's values, written out by hand (derivation beside). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "special.h"
#include "test_identity_util.h"

#define F32_NEG_INF 0xff800000u  /* -inf */
#define F32_NEG_ZERO 0x80000000u /* -0 */
#define F32_MAX 0x7f7fffffu      /* 0x1.fffffep+127 */
#define F32_INF 0x7f800000u

/* the table row of an input class, failing the test when it is missing */
static json_t *row(const struct si_run *s, const char *input)
{
    json_t *e;
    size_t i;
    json_array_foreach(json_object_get(s->r.metrics, "table"), i, e)
        if (strcmp(json_string_value(json_object_get(e, "input")), input) == 0)
            return e;
    fail_msg("no row '%s' in the special table", input);
    return NULL;
}

static const char *bits_of(json_t *row, const char *member)
{
    return json_string_value(json_object_get(json_object_get(row, member), "bits"));
}

static struct gs_policy_values values(const char *policy)
{
    struct gs_policy_values v;
    gs_policy_resolve(gs_policy_builtin(policy), GELUREF_GELU, GELUREF_F32, &v);
    return v;
}

static void add(struct gs_findings *f, enum gs_kind k, uint64_t x, uint64_t got, int tolerated)
{
    struct gs_finding fd = { .kind = k, .region = gs_region_of(GELUREF_F32, x), .has_x = 1,
                             .has_got = 1, .x = x, .got = got, .score = INFINITY,
                             .tolerated = tolerated };
    gs_findings_add(f, &fd);
}

/* the "severity" of the JSON entry (row of finding_counts, or finding) of kind k at x */
static const char *json_severity(const struct gs_findings *f, const struct gs_policy_values *v,
                                 const char *member, enum gs_kind k, uint64_t x, char *buf)
{
    json_t *o = json_object(), *e;
    size_t i;
    uint64_t bits;
    gs_findings_json(o, f, v, GELUREF_GELU, GELUREF_F32);
    strcpy(buf, "none");
    json_array_foreach(json_object_get(o, member), i, e) {
        int same = strcmp(json_string_value(json_object_get(e, "kind")), gs_kind_name(k)) == 0;
        if (strcmp(member, "findings") == 0)
            same = same && gs_bits_from_json(json_object_get(e, "x"), &bits) == 0 && bits == x;
        else
            same = same && strcmp(json_string_value(json_object_get(e, "region")),
                                  gs_region_name(gs_region_of(GELUREF_F32, x))) == 0;
        if (same) {
            strcpy(buf, json_string_value(json_object_get(e, "severity")));
            break;
        }
    }
    json_decref(o);
    return buf;
}

/* gs_special_values and tolerated findings, on hand-made findings */
static void test_values(void **state)
{
    (void)state;
    struct gs_findings f;
    struct gs_policy_values v, strict = values("strict"), def = values("default"),
                               len = values("lenient");
    char buf[16];
    gs_findings_init(&f);
    add(&f, GS_K_SIGNED_ZERO, F32_NEG_ZERO, 0, 0);
    gs_special_values(&strict, &v); /* exact */
    assert_int_equal(v.severity[GS_K_SIGNED_ZERO], GS_SEV_FAIL);
    gs_special_values(&def, &v); /* any */
    assert_int_equal(v.severity[GS_K_SIGNED_ZERO], GS_SEV_WARN);
    gs_special_values(&len, &v); /* any; the kind special_value is not bent */
    assert_int_equal(v.severity[GS_K_SIGNED_ZERO], GS_SEV_WARN);
    assert_int_equal(v.severity[GS_K_SPECIAL_VALUE], GS_SEV_FAIL);
    assert_int_equal(v.severity[GS_K_ULP_EXCEEDED], len.severity[GS_K_ULP_EXCEEDED]);
    /* ignore stays ignore under any */
    def.severity[GS_K_SIGNED_ZERO] = GS_SEV_IGNORE;
    gs_special_values(&def, &v);
    assert_int_equal(v.severity[GS_K_SIGNED_ZERO], GS_SEV_IGNORE);
    gs_findings_release(&f);

    /* NaN for -inf, tolerated: a warning, alone it fails nothing */
    gs_special_values(&len, &v);
    gs_findings_init(&f);
    add(&f, GS_K_SPECIAL_VALUE, F32_NEG_INF, 0x7fc00000u, 1);
    assert_false(gs_findings_fail(&f, &v));
    assert_string_equal(json_severity(&f, &v, "findings", GS_K_SPECIAL_VALUE, F32_NEG_INF, buf),
                        "warn");
    assert_string_equal(json_severity(&f, &v, "finding_counts", GS_K_SPECIAL_VALUE,
                                      F32_NEG_INF, buf), "warn");
    assert_int_equal(gs_findings_worst(&f, &v)->x, F32_NEG_INF);
    /* NaN for +inf beside it is not tolerated: the kind fails, and it is the worst finding,
     * while -inf's stays a warning */
    add(&f, GS_K_SPECIAL_VALUE, F32_INF, 0x7fc00000u, 0);
    assert_true(gs_findings_fail(&f, &v));
    assert_int_equal(gs_findings_worst(&f, &v)->x, F32_INF);
    assert_string_equal(json_severity(&f, &v, "findings", GS_K_SPECIAL_VALUE, F32_INF, buf),
                        "fail");
    assert_string_equal(json_severity(&f, &v, "findings", GS_K_SPECIAL_VALUE, F32_NEG_INF, buf),
                        "warn");
    assert_string_equal(json_severity(&f, &v, "finding_counts", GS_K_SPECIAL_VALUE,
                                      F32_NEG_INF, buf), "warn");
    assert_string_equal(json_severity(&f, &v, "finding_counts", GS_K_SPECIAL_VALUE, F32_INF,
                                      buf), "fail");
    /* read back, the tolerance survives (gelucheck merge, --resume) */
    json_t *o = json_object();
    struct gs_findings back;
    enum gs_severity sev[GS_N_KINDS];
    gs_findings_json(o, &f, &v, GELUREF_GELU, GELUREF_F32);
    gs_findings_init(&back);
    assert_int_equal(gs_findings_from_json(&back, sev, o), 0);
    assert_int_equal(sev[GS_K_SPECIAL_VALUE], GS_SEV_FAIL);
    assert_non_null(si_find(&back, GS_K_SPECIAL_VALUE, F32_NEG_INF));
    assert_true(si_find(&back, GS_K_SPECIAL_VALUE, F32_NEG_INF)->tolerated);
    assert_false(si_find(&back, GS_K_SPECIAL_VALUE, F32_INF)->tolerated);
    json_t *o2 = json_object();
    gs_findings_json(o2, &back, &v, GELUREF_GELU, GELUREF_F32);
    assert_true(json_equal(o, o2));
    json_decref(o);
    json_decref(o2);
    gs_findings_release(&back);
    gs_findings_release(&f);
}

static void expect_verdict(struct si_run *s, enum gs_verdict want)
{
    if (s->r.verdict != want)
        fail_msg("%s: verdict %s, want %s", s->k->name, gs_verdict_name(s->r.verdict),
                 gs_verdict_name(want));
}

/* the severity the JSON shows for the first finding of kind k */
static const char *shown(struct si_run *s, enum gs_kind k, char *buf, size_t size)
{
    struct gs_policy_values v;
    gs_special_values(&s->c.pv, &v);
    return si_severity(&s->r.findings, &v, s->c.func, s->c.dt, k, buf, size);
}

/* nan_neginf.f32: NaN for -inf where GELU(-inf) = -0 (docs/design.md section 2) */
static void test_nan_neginf(void **state)
{
    (void)state;
    struct si_run s;
    char sev[16];
    si_run(&s, "mutants", "nan_neginf.f32", "default", GS_SUITE_SPECIAL, 0);
    const struct gs_finding *fd = si_find(&s.r.findings, GS_K_SPECIAL_VALUE, F32_NEG_INF);
    assert_non_null(fd);
    assert_int_equal(fd->want, F32_NEG_ZERO);
    assert_true((fd->got & 0x7fffffffu) > F32_INF); /* a NaN */
    assert_int_equal(fd->region, GS_R_LT_M10);
    assert_non_null(strstr(fd->detail, "x = -inf: got nan, want -0"));
    json_t *r = row(&s, "-inf");
    assert_false(json_is_true(json_object_get(r, "ok")));
    assert_string_equal(bits_of(r, "want"), "0x80000000");
    expect_verdict(&s, GS_FAIL);
    assert_string_equal(shown(&s, GS_K_SPECIAL_VALUE, sev, sizeof sev), "fail");
    si_done(&s);

    /* lenient: nan_at_neg_inf = allow; the finding stays, as a warning */
    si_run(&s, "mutants", "nan_neginf.f32", "lenient", GS_SUITE_SPECIAL, 0);
    fd = si_find(&s.r.findings, GS_K_SPECIAL_VALUE, F32_NEG_INF);
    assert_non_null(fd);
    assert_non_null(strstr(fd->detail, "nan_at_neg_inf = allow"));
    expect_verdict(&s, GS_PASS);
    assert_string_equal(shown(&s, GS_K_SPECIAL_VALUE, sev, sizeof sev), "warn");
    si_done(&s);
}

/* libm grad_erfc.f32: 0.5f*erfcf(-x/sqrt2) + x*pdf is NaN at both infinities (inf * 0 in
 * x*pdf).  Under lenient (nan_at_neg_inf = allow) only the -inf one is tolerated: the suite
 * fails on +inf, and the worst finding is +inf's, not the tolerated one */
static void test_nan_both_inf(void **state)
{
    (void)state;
    struct si_run s;
    struct gs_policy_values v;
    char sev[16];
    si_run(&s, "libm", "grad_erfc.f32", "lenient", GS_SUITE_SPECIAL, 0);
    const struct gs_finding *lo = si_find(&s.r.findings, GS_K_SPECIAL_VALUE, F32_NEG_INF);
    const struct gs_finding *hi = si_find(&s.r.findings, GS_K_SPECIAL_VALUE, F32_INF);
    assert_non_null(lo);
    assert_non_null(hi);
    assert_true(lo->tolerated);
    assert_non_null(strstr(lo->detail, "tolerated (nan_at_neg_inf = allow)"));
    assert_false(hi->tolerated);
    assert_null(strstr(hi->detail, "tolerated"));
    expect_verdict(&s, GS_FAIL);
    gs_special_values(&s.c.pv, &v);
    assert_ptr_equal(gs_findings_worst(&s.r.findings, &v), hi);
    assert_string_equal(json_severity(&s.r.findings, &v, "findings", GS_K_SPECIAL_VALUE,
                                      F32_NEG_INF, sev), "warn");
    assert_string_equal(json_severity(&s.r.findings, &v, "findings", GS_K_SPECIAL_VALUE,
                                      F32_INF, sev), "fail");
    si_done(&s);
    /* default: both fail, and neither says tolerated */
    si_run(&s, "libm", "grad_erfc.f32", "default", GS_SUITE_SPECIAL, 0);
    lo = si_find(&s.r.findings, GS_K_SPECIAL_VALUE, F32_NEG_INF);
    assert_non_null(lo);
    assert_false(lo->tolerated);
    assert_null(strstr(lo->detail, "tolerated"));
    expect_verdict(&s, GS_FAIL);
    si_done(&s);
}

/* pos_zero.f32: +0 for x = -0, where GELU(-0) = -0 (docs/design.md section 2) */
static void test_pos_zero(void **state)
{
    (void)state;
    struct si_run s;
    char sev[16];
    si_run(&s, "mutants", "pos_zero.f32", "strict", GS_SUITE_SPECIAL, 0);
    const struct gs_finding *fd = si_find(&s.r.findings, GS_K_SIGNED_ZERO, F32_NEG_ZERO);
    assert_non_null(fd);
    assert_int_equal(fd->got, 0);
    assert_int_equal(fd->want, F32_NEG_ZERO);
    assert_null(si_find(&s.r.findings, GS_K_SPECIAL_VALUE, F32_NEG_ZERO));
    /* x = -inf also gives +0 there (the negative tail): a zero sign, not a special value */
    assert_non_null(si_find(&s.r.findings, GS_K_SIGNED_ZERO, F32_NEG_INF));
    expect_verdict(&s, GS_FAIL);
    assert_string_equal(shown(&s, GS_K_SIGNED_ZERO, sev, sizeof sev), "fail");
    si_done(&s);

    si_run(&s, "mutants", "pos_zero.f32", "default", GS_SUITE_SPECIAL, 0);
    assert_non_null(si_find(&s.r.findings, GS_K_SIGNED_ZERO, F32_NEG_ZERO));
    assert_int_equal(gs_findings_count(&s.r.findings, GS_K_SPECIAL_VALUE), 0);
    expect_verdict(&s, GS_PASS);
    assert_string_equal(shown(&s, GS_K_SIGNED_ZERO, sev, sizeof sev), "warn");
    si_done(&s);
}

/* overflow2x.f32: +inf for x >= 2^127 where GELU(max) = max (x Phi(x) rounds to x there);
 * +max is a finite input, judged by the policy: the kind is the judge's, inf_output */
static void test_overflow2x(void **state)
{
    (void)state;
    struct si_run s;
    si_run(&s, "mutants", "overflow2x.f32", "default", GS_SUITE_SPECIAL, 0);
    const struct gs_finding *fd = si_find(&s.r.findings, GS_K_INF_OUTPUT, F32_MAX);
    assert_non_null(fd);
    assert_int_equal(fd->got, F32_INF);
    assert_int_equal(fd->want, F32_MAX);
    assert_false(json_is_true(json_object_get(row(&s, "+max"), "ok")));
    expect_verdict(&s, GS_FAIL);
    si_done(&s);
}

/* libm erf1p.f32: 0.5f*x*(1+erff(x/sqrt2)) at -inf is -inf * (1 + -1) = -inf * 0 = NaN
 * (IEEE 754 7.2), the real-world defect the special suite exists for */
static void test_libm_erf1p(void **state)
{
    (void)state;
    struct si_run s;
    si_run(&s, "libm", "erf1p.f32", "default", GS_SUITE_SPECIAL, 0);
    const struct gs_finding *fd = si_find(&s.r.findings, GS_K_SPECIAL_VALUE, F32_NEG_INF);
    assert_non_null(fd);
    assert_true((fd->got & 0x7fffffffu) > F32_INF);
    expect_verdict(&s, GS_FAIL);
    /* a NaN input gives a NaN, whatever its sign and payload: ok (only NaN-ness is judged),
     * though the reference's NaN is the default +nan */
    static const char *const nans[] = { "-nan", "-snan", "nan payload" };
    for (size_t i = 0; i < sizeof nans / sizeof nans[0]; i++) {
        json_t *r = row(&s, nans[i]);
        assert_string_not_equal(bits_of(r, "got"), bits_of(r, "want"));
        assert_true(json_is_true(json_object_get(r, "ok")));
    }
    si_done(&s);
}

static const char *const funcs[] = { "gelu", "gelu_tanh", "gelu_sigmoid", "gelu_grad",
                                     "gelu_tanh_grad", "normcdf", "normpdf", "erf", "erfc" };
static const char *const dtypes[] = { "f64", "f32", "f16", "bf16" };

/* every input class of the suite is in the table */
static void check_classes(struct si_run *s)
{
    static const char *const classes[] = {
        "+nan", "-nan", "+snan", "-snan", "nan payload", "+inf", "-inf", "+0", "-0", "+max",
        "-max", "+min normal", "-min normal", "+min subnormal", "-min subnormal", "+1", "-1",
        "+3*min subnormal", "-3*min subnormal", "+max subnormal", "-min normal next" };
    for (size_t i = 0; i < sizeof classes / sizeof classes[0]; i++)
        row(s, classes[i]);
}

/* The correctly rounded fixture: no finding under strict, every row ok, for every func and
 * dtype; and the conventions of docs/design.md section 2 in the f32 table. */
static void test_correctly_rounded(void **state)
{
    (void)state;
    if (si_fixture[0] == '\0')
        skip();
    for (size_t f = 0; f < sizeof funcs / sizeof funcs[0]; f++)
        for (size_t d = 0; d < sizeof dtypes / sizeof dtypes[0]; d++) {
            struct si_run s;
            char name[32];
            snprintf(name, sizeof name, "%s.%s", funcs[f], dtypes[d]);
            si_run(&s, si_fixture, name, "strict", GS_SUITE_SPECIAL, 0);
            expect_verdict(&s, GS_PASS);
            for (int k = 0; k < GS_N_KINDS; k++)
                if (gs_findings_count(&s.r.findings, (enum gs_kind)k) != 0)
                    fail_msg("%s: %s finding", name, gs_kind_name((enum gs_kind)k));
            json_int_t n = json_integer_value(json_object_get(s.r.metrics, "checked"));
            assert_true(n >= 33 && (uint64_t)n == s.r.points);
            assert_int_equal(n, json_integer_value(json_object_get(s.r.metrics, "passed")));
            assert_int_equal(n, json_array_size(json_object_get(s.r.metrics, "table")));
            check_classes(&s);
            si_done(&s);
        }
}

/* docs/design.md section 2, by hand: GELU(3*2^-149) = 2*2^-149 and GELU(-3*2^-149) = -2^-149 (x/2
 * is a midpoint, the x^2 term decides); gelu(-inf) = -0; gelu_grad(+-0) = 1/2 = 0x3f000000;
 * erf(-0) = -0; normpdf(-inf) = +0. */
static void test_conventions(void **state)
{
    (void)state;
    static const struct { const char *kernel, *input, *want; } rows[] = {
        { "gelu.f32", "+3*min subnormal", "0x00000002" },
        { "gelu.f32", "-3*min subnormal", "0x80000001" },
        { "gelu.f32", "-inf", "0x80000000" },
        { "gelu.f32", "+inf", "0x7f800000" },
        { "gelu.f32", "-0", "0x80000000" },
        { "gelu_grad.f32", "-0", "0x3f000000" },
        { "gelu_grad.f32", "+inf", "0x3f800000" },
        { "gelu_grad.f32", "-inf", "0x80000000" },
        { "normcdf.f32", "-0", "0x3f000000" },
        { "erf.f32", "-0", "0x80000000" },
        { "erf.f32", "-inf", "0xbf800000" },
        { "erfc.f32", "-inf", "0x40000000" },
        { "normpdf.f32", "-inf", "0x00000000" },
    };
    if (si_fixture[0] == '\0')
        skip();
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        struct si_run s;
        si_run(&s, si_fixture, rows[i].kernel, "strict", GS_SUITE_SPECIAL, 0);
        const char *want = bits_of(row(&s, rows[i].input), "want");
        if (strcmp(want, rows[i].want) != 0)
            fail_msg("%s %s: want %s in the table, docs/design.md says %s", rows[i].kernel,
                     rows[i].input, want, rows[i].want);
        si_done(&s);
    }
    /* the thresholds: the last x with a non-zero GELU is -14.356067657470703 = 0xc165b274
     * (docs/design.md section 2), its outer neighbour gives -0; from the saturation on GELU(x) = x,
     * one input nearer 0 it is below x */
    struct si_run s;
    si_run(&s, si_fixture, "gelu.f32", "strict", GS_SUITE_SPECIAL, 0);
    assert_string_equal(bits_of(row(&s, "last_nonzero"), "x"), "0xc165b274");
    assert_string_not_equal(bits_of(row(&s, "last_nonzero"), "want"), "0x80000000");
    assert_string_equal(bits_of(row(&s, "last_nonzero outer"), "want"), "0x80000000");
    json_t *sat = row(&s, "saturation"), *in = row(&s, "saturation inner");
    assert_string_equal(bits_of(sat, "want"), bits_of(sat, "x"));
    assert_string_not_equal(bits_of(in, "want"), bits_of(in, "x"));
    row(&s, "saturation outer");
    row(&s, "last_normal");
    si_done(&s);
}

int main(int argc, char **argv)
{
    if (argc > 1)
        si_fixture = argv[1];
    if (argc > 2)
        cmocka_set_test_filter(argv[2]); /* one test by name, for timing and debugging */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_values),
        cmocka_unit_test(test_nan_neginf),
        cmocka_unit_test(test_nan_both_inf),
        cmocka_unit_test(test_pos_zero),
        cmocka_unit_test(test_overflow2x),
        cmocka_unit_test(test_libm_erf1p),
        cmocka_unit_test(test_correctly_rounded),
        cmocka_unit_test(test_conventions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
