/* Reading results back (readback.c), what gelucheck merge rests on: every writer's output read
 * back and written again gives the same bytes, the "none" and non-finite cases included, and
 * merging what was read back equals reading back what was merged. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "suites.h"

/* The same bytes, as jansson writes them. */
static void same_json(const json_t *a, const json_t *b)
{
    char *sa = json_dumps(a, JSON_SORT_KEYS), *sb = json_dumps(b, JSON_SORT_KEYS);
    assert_non_null(sa);
    assert_non_null(sb);
    size_t i = 0;
    while (sa[i] && sa[i] == sb[i])
        i++;
    if (sa[i] != sb[i])
        print_error("differ at byte %zu:\n%.200s\n---\n%.200s\n", i,
                    sa + (i > 100 ? i - 100 : 0), sb + (i > 100 ? i - 100 : 0));
    assert_true(sa[i] == sb[i]);
    free(sa);
    free(sb);
}

/* A measurement: x, got, want bits and the errors. */
static struct gs_meas meas(uint64_t x, uint64_t got, uint64_t want, double ulp, double abs_err,
                           double rel_err, int cls)
{
    struct gs_meas m;
    memset(&m, 0, sizeof m);
    m.x = x;
    m.got = got;
    m.want = want;
    m.cr = got == want;
    m.faithful = m.cr;
    m.cr_distance = got == want ? 0 : 3;
    m.ulp = ulp;
    m.abs_err = abs_err;
    m.rel_err = rel_err;
    m.defect = got == want ? GS_K_NONE : GS_K_ULP_EXCEEDED;
    m.want_class = cls;
    return m;
}

/* Writes s in both forms, reads each back, writes again: the same. */
static void roundtrip(const struct gs_errstat *s)
{
    json_t *full = gs_errstat_json(s, GELUREF_F32), *brief = gs_errstat_json_brief(s, GELUREF_F32);
    struct gs_errstat r;
    assert_int_equal(gs_errstat_from_json(&r, full), 0);
    json_t *again = gs_errstat_json(&r, GELUREF_F32);
    same_json(full, again);
    json_decref(again);
    assert_int_equal(gs_errstat_from_json(&r, brief), 0);
    again = gs_errstat_json_brief(&r, GELUREF_F32);
    same_json(brief, again);
    json_decref(again);
    json_decref(full);
    json_decref(brief);
}

static void test_errstat(void **state)
{
    (void)state;
    struct gs_errstat s;
    gs_errstat_init(&s);
    roundtrip(&s); /* no point: maxima "none", fraction null */
    struct gs_meas m = meas(0x3f800000u, 0x3f000000u, 0x3f000000u, 0, 0, 0, GS_WANT_NORMAL);
    gs_errstat_add(&s, &m);
    roundtrip(&s); /* correctly rounded: maxima 0 */
    m = meas(0xc0b00000u, 0x80000000u, 0xb3800000u, 1.5e7, 6e-8, 1.0, GS_WANT_NORMAL);
    gs_errstat_add(&s, &m);
    roundtrip(&s);
    m = meas(0x7f000000u, 0x7f7fffffu, 0x7f000000u, INFINITY, INFINITY, INFINITY,
             GS_WANT_NORMAL); /* non-finite maxima: null beside their argument */
    gs_errstat_add(&s, &m);
    roundtrip(&s);
    m = meas(0x40000000u, 0x7fc00000u, 0x40000000u, INFINITY, INFINITY, INFINITY,
             GS_WANT_NORMAL);
    m.defect = GS_K_NAN_OUTPUT; /* counted as nonfinite, not in the maxima */
    gs_errstat_add(&s, &m);
    roundtrip(&s);
    assert_int_equal(s.nonfinite, 1);
    assert_true(isinf(s.max_ulp));
}

/* Findings of random scores (inf among them), x with duplicates. */
static void add_random(struct gs_findings *f, struct gs_rng *r, int n)
{
    for (int i = 0; i < n; i++) {
        struct gs_finding v;
        memset(&v, 0, sizeof v);
        v.kind = gs_rng_below(r, 2) ? GS_K_ULP_EXCEEDED : GS_K_FPENV_MODIFIED;
        v.region = v.kind == GS_K_ULP_EXCEEDED ? (enum gs_region)gs_rng_below(r, 3) : GS_R_NONE;
        v.has_x = v.has_got = v.has_want = v.kind == GS_K_ULP_EXCEEDED;
        /* no NaN score: findings.c orders it as +inf, so a NaN and an inf finding alike in
         * everything else tie, and which one a full list keeps depends on the order of
         * insertion (no suite scores NaN: gs_ut_judge makes it +inf) */
        uint64_t s = gs_rng_below(r, 7);
        v.score = s == 6 ? INFINITY : (double)s / 3;
        /* the members without their has_ flag stay 0, as every suite leaves them (the order
         * of the worst lists compares them, and the JSON does not carry them) */
        v.x = v.has_x ? 0x40000000u + gs_rng_below(r, 30) : 0;
        v.got = v.has_got ? gs_rng_below(r, 1u << 20) : 0;
        v.want = v.has_want ? 7 : 0;
        v.ulp = v.has_x ? v.score : NAN;
        v.abs_err = v.has_x ? (double)s * 1e-9 : NAN;
        snprintf(v.detail, sizeof v.detail, "batch %d", (int)gs_rng_below(r, 4));
        gs_findings_add(f, &v);
    }
}

static json_t *findings_json(const struct gs_findings *f, const struct gs_policy_values *v)
{
    json_t *o = json_object();
    gs_findings_json(o, f, v, GELUREF_GELU, GELUREF_F32);
    return o;
}

static void test_findings(void **state)
{
    (void)state;
    struct gs_findings a, b, ra, rb;
    struct gs_policy_values v;
    enum gs_severity sev[GS_N_KINDS];
    struct gs_rng r;
    memset(&v, 0, sizeof v);
    v.severity[GS_K_FPENV_MODIFIED] = GS_SEV_WARN;
    gs_rng_seed(&r, 11);
    gs_findings_init(&a);
    gs_findings_init(&b);
    gs_findings_init(&ra);
    gs_findings_init(&rb);
    add_random(&a, &r, 400);
    add_random(&b, &r, 300);
    json_t *ja = findings_json(&a, &v), *jb = findings_json(&b, &v);
    assert_int_equal(gs_findings_from_json(&ra, sev, ja), 0);
    assert_int_equal(gs_findings_from_json(&rb, sev, jb), 0);
    assert_int_equal(sev[GS_K_FPENV_MODIFIED], GS_SEV_WARN);
    json_t *again = findings_json(&ra, &v);
    same_json(ja, again); /* read back, written again */
    json_decref(again);
    gs_findings_merge(&a, &b);
    gs_findings_merge(&rb, &ra); /* the other order */
    json_t *merged = findings_json(&a, &v), *merged_back = findings_json(&rb, &v);
    same_json(merged, merged_back); /* merging what was read back = what the run merges */
    json_decref(merged);
    json_decref(merged_back);
    /* a count without its findings listed, or fewer than listed: refused */
    gs_findings_release(&ra);
    gs_findings_init(&ra);
    json_array_clear(json_object_get(ja, "findings"));
    assert_int_not_equal(gs_findings_from_json(&ra, sev, ja), 0);
    json_decref(ja);
    json_decref(jb);
    gs_findings_release(&a);
    gs_findings_release(&b);
    gs_findings_release(&ra);
    gs_findings_release(&rb);
}

static void test_scalars(void **state)
{
    (void)state;
    double d;
    uint64_t bits;
    json_t *j = gs_real_json(-INFINITY);
    assert_int_equal(gs_real_from_json(j, &d), 0);
    assert_true(isinf(d) && d < 0);
    json_decref(j);
    j = json_real(0.1);
    assert_int_equal(gs_real_from_json(j, &d), 0);
    assert_true(d == 0.1);
    json_decref(j);
    j = json_string("infinity");
    assert_int_not_equal(gs_real_from_json(j, &d), 0);
    json_decref(j);
    j = gs_value_json(GELUREF_F64, 0xc0b15cef00000001ull);
    assert_int_equal(gs_bits_from_json(j, &bits), 0);
    assert_true(bits == 0xc0b15cef00000001ull);
    json_decref(j);
    static const char *const bad[] = { "", "0x", "12", "0x12g", "x12" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        j = json_string(bad[i]);
        assert_int_not_equal(gs_bits_from_json(j, &bits), 0);
        json_decref(j);
    }
}

int main(void)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_errstat),
        cmocka_unit_test(test_findings),
        cmocka_unit_test(test_scalars),
    };
    return cmocka_run_group_tests_name("suites_readback", tests, NULL, NULL);
}
