/* rp_baseline_apply (reports/baseline.c) on the fixture reports/fixtures_r3/b.json (mutants
 * under lenient; path in argv[1]): a result against itself has no regression; against a copy
 * made better than reality in one metric at a time (as if the kernel got worse since) the
 * kernel fails naming that metric, and the verdict, totals and exit code follow. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <reports.h>

static json_t *fixture; /* b.json as loaded */

static const char *str(const json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s ? s : "";
}

static json_t *kernel(const json_t *doc, const char *name)
{
    size_t i;
    json_t *k;
    json_array_foreach(json_object_get(doc, "kernels"), i, k)
        if (strcmp(str(k, "kernel"), name) == 0)
            return k;
    fail_msg("no kernel '%s' in the fixture", name);
    return NULL;
}

static json_t *suite(const json_t *k, const char *name)
{
    size_t i;
    json_t *s;
    json_array_foreach(json_object_get(k, "suites"), i, s)
        if (strcmp(str(s, "name"), name) == 0)
            return s;
    fail_msg("no suite '%s' in kernel '%s'", name, str(k, "kernel"));
    return NULL;
}

static json_t *metrics(const json_t *doc, const char *k, const char *s)
{
    return json_object_get(suite(kernel(doc, k), s), "metrics");
}

/* A copy of the fixture with only its passing kernels (nan_neginf.f32, pos_zero.f32): a
 * result whose exit code is 0. */
static json_t *passing(void)
{
    json_t *d = json_deep_copy(fixture), *ks = json_object_get(d, "kernels");
    for (size_t i = json_array_size(ks); i-- > 0;)
        if (strcmp(str(json_array_get(ks, i), "verdict"), "pass") != 0)
            json_array_remove(ks, i);
    assert_int_equal(json_array_size(ks), 2);
    json_object_set_new(d, "verdict", json_string("pass"));
    json_object_set_new(d, "exit_code", json_integer(0));
    json_object_set_new(json_object_get(d, "totals"), "fail", json_integer(0));
    return d;
}

/* The "baseline" entry of metric name in kernel k of doc; fails when absent. */
static const json_t *entry(const json_t *doc, const char *k, const char *name)
{
    const json_t *b = json_object_get(kernel(doc, k), "baseline");
    size_t i;
    json_t *m;
    assert_non_null(b);
    json_array_foreach(json_object_get(b, "metrics"), i, m)
        if (strcmp(str(m, "name"), name) == 0)
            return m;
    fail_msg("kernel '%s': no baseline metric '%s'", k, name);
    return NULL;
}

static json_int_t total(const json_t *doc, const char *key)
{
    return json_integer_value(json_object_get(json_object_get(doc, "totals"), key));
}

/* Applies old to a passing doc and checks that exactly kernel k regressed in metric name
 * (NULL: by a new finding kind, new_kind), failing the run with exit 1. */
static void expect_regression(json_t *doc, json_t *old, const char *k, const char *name,
                              const char *new_kind)
{
    assert_int_equal(rp_baseline_apply(doc, old, NULL), 1);
    assert_string_equal(str(doc, "verdict"), "fail");
    assert_int_equal(json_integer_value(json_object_get(doc, "exit_code")), 1);
    assert_int_equal(total(doc, "fail"), 1);
    assert_int_equal(total(doc, "pass"), 1);
    assert_string_equal(str(kernel(doc, k), "verdict"), "fail");
    assert_string_equal(str(json_array_get(json_object_get(doc, "adapters"), 0), "verdict"),
                        "fail");
    const json_t *b = json_object_get(kernel(doc, k), "baseline");
    assert_int_equal(json_integer_value(json_object_get(b, "regressions")), 1);
    if (name)
        assert_true(json_is_true(json_object_get(entry(doc, k, name), "worse")));
    if (new_kind)
        assert_string_equal(json_string_value(json_array_get(json_object_get(b, "new_kinds"), 0)),
                            new_kind);
    /* the other kernel did not regress and still passes */
    const char *other = strcmp(k, "pos_zero.f32") == 0 ? "nan_neginf.f32" : "pos_zero.f32";
    assert_string_equal(str(kernel(doc, other), "verdict"), "pass");
    /* and the JUnit names the metric in the baseline testcase's failure */
    char *xml = rp_junit(doc);
    char want[128];
    snprintf(want, sizeof want, "type=\"regression\"");
    assert_non_null(xml);
    assert_non_null(strstr(xml, want));
    assert_non_null(strstr(xml, name ? name : new_kind));
    free(xml);
    json_decref(doc);
    json_decref(old);
}

static void self_passes(void **state)
{
    (void)state;
    json_t *doc = passing(), *old = passing();
    assert_int_equal(rp_baseline_apply(doc, old, NULL), 0);
    assert_string_equal(str(doc, "verdict"), "pass");
    assert_int_equal(total(doc, "pass"), 2);
    const json_t *b = json_object_get(kernel(doc, "pos_zero.f32"), "baseline");
    assert_true(json_is_true(json_object_get(b, "found")));
    assert_int_equal(json_integer_value(json_object_get(b, "regressions")), 0);
    assert_int_equal(json_array_size(json_object_get(b, "new_kinds")), 0);
    /* every metric compared, none worse */
    static const char *const names[] = { "max_ulp", "fraction_correctly_rounded", "flush_point",
                                         "special_passed" };
    for (size_t i = 0; i < 4; i++)
        assert_false(json_is_true(json_object_get(entry(doc, "pos_zero.f32", names[i]), "worse")));
    json_decref(doc);
    json_decref(old);
}

/* The whole fixture (failing kernels included) against itself: nothing changes. */
static void self_keeps_fail(void **state)
{
    (void)state;
    json_t *doc = json_deep_copy(fixture);
    assert_int_equal(rp_baseline_apply(doc, fixture, NULL), 1);
    assert_int_equal(total(doc, "fail"), total(fixture, "fail"));
    assert_int_equal(total(doc, "pass"), total(fixture, "pass"));
    assert_string_equal(str(doc, "verdict"), str(fixture, "verdict"));
    json_decref(doc);
}

static void max_ulp_worse(void **state)
{
    (void)state;
    json_t *doc = passing(), *old = passing();
    json_object_set_new(json_object_get(metrics(old, "nan_neginf.f32", "ulp"), "overall"),
                        "max_ulp", json_real(0.25));
    expect_regression(doc, old, "nan_neginf.f32", "max_ulp", NULL);
}

static void fraction_worse(void **state)
{
    (void)state;
    json_t *doc = passing(), *old = passing();
    json_object_set_new(json_object_get(metrics(old, "pos_zero.f32", "ulp"), "overall"),
                        "fraction_correctly_rounded", json_real(1.0));
    expect_regression(doc, old, "pos_zero.f32", "fraction_correctly_rounded", NULL);
}

static json_t *value(const char *hex)
{
    return json_pack("{s:s, s:s, s:s}", "dec", hex, "hex", hex, "bits", "0");
}

/* A flush point where there was none (old null), and one moved nearer 0. */
static void flush_appears(void **state)
{
    (void)state;
    json_t *doc = passing(), *old = passing();
    assert_true(json_is_null(json_object_get(metrics(old, "pos_zero.f32", "tail"), "flush_point")));
    json_object_set_new(metrics(doc, "pos_zero.f32", "tail"), "flush_point", value("-0x1p+3"));
    expect_regression(doc, old, "pos_zero.f32", "flush_point", NULL);
}

static void flush_nearer_zero(void **state)
{
    (void)state;
    json_t *doc = passing(), *old = passing();
    json_object_set_new(metrics(doc, "pos_zero.f32", "tail"), "flush_point", value("-0x1.4p+3"));
    json_object_set_new(metrics(old, "pos_zero.f32", "tail"), "flush_point", value("-0x1.8p+3"));
    expect_regression(doc, old, "pos_zero.f32", "flush_point", NULL);
}

/* Farther from 0 is better, and so is no flush where there was one. */
static void flush_better(void **state)
{
    (void)state;
    json_t *doc = passing(), *old = passing();
    json_object_set_new(metrics(doc, "pos_zero.f32", "tail"), "flush_point", value("-0x1.8p+3"));
    json_object_set_new(metrics(old, "pos_zero.f32", "tail"), "flush_point", value("-0x1.4p+3"));
    json_object_set_new(metrics(old, "nan_neginf.f32", "tail"), "flush_point", value("-0x1p+2"));
    assert_int_equal(rp_baseline_apply(doc, old, NULL), 0);
    assert_false(json_is_true(json_object_get(entry(doc, "pos_zero.f32", "flush_point"), "worse")));
    json_decref(doc);
    json_decref(old);
}

/* A kernel worse in one metric and better in another is a regression, and not counted or
 * listed as an improvement (docs/ci.md: "with an improvement (and no regression)"). */
static void worse_and_better(void **state)
{
    (void)state;
    json_t *doc = passing(), *old = passing();
    json_object_set_new(metrics(doc, "pos_zero.f32", "tail"), "flush_point", value("-0x1.4p+3"));
    json_object_set_new(metrics(old, "pos_zero.f32", "tail"), "flush_point", value("-0x1.8p+3"));
    json_object_set_new(json_object_get(metrics(doc, "pos_zero.f32", "ulp"), "overall"),
                        "max_ulp", json_real(0.25));
    json_object_set_new(json_object_get(metrics(old, "pos_zero.f32", "ulp"), "overall"),
                        "max_ulp", json_real(3.0));
    assert_int_equal(rp_baseline_apply(doc, old, NULL), 1);
    const json_t *kb = json_object_get(kernel(doc, "pos_zero.f32"), "baseline");
    assert_int_equal(json_integer_value(json_object_get(kb, "regressions")), 1);
    assert_true(json_integer_value(json_object_get(kb, "improvements")) >= 1);
    const json_t *b = json_object_get(doc, "baseline");
    assert_int_equal(json_integer_value(json_object_get(b, "regressions")), 1);
    assert_int_equal(json_integer_value(json_object_get(b, "improvements")), 0);
    assert_int_equal(json_array_size(json_object_get(b, "improved_kernels")), 0);
    assert_int_equal(json_array_size(json_object_get(b, "regressed_kernels")), 1);
    json_decref(doc);
    json_decref(old);
}

static void special_worse(void **state)
{
    (void)state;
    json_t *doc = passing(), *old = passing();
    json_t *m = metrics(old, "nan_neginf.f32", "special");
    json_object_set_new(m, "passed",
                        json_integer(json_integer_value(json_object_get(m, "passed")) + 1));
    expect_regression(doc, old, "nan_neginf.f32", "special_passed", NULL);
}

/* pos_zero.f32 has signed_zero findings (warnings under lenient): an old result without them
 * makes signed_zero a new kind. */
static void new_kind(void **state)
{
    (void)state;
    json_t *doc = passing(), *old = passing();
    size_t i;
    json_t *s;
    json_array_foreach(json_object_get(kernel(old, "pos_zero.f32"), "suites"), i, s) {
        json_t *fc = json_object_get(s, "finding_counts");
        for (size_t j = json_array_size(fc); j-- > 0;)
            if (strcmp(str(json_array_get(fc, j), "kind"), "signed_zero") == 0)
                json_array_remove(fc, j);
    }
    expect_regression(doc, old, "pos_zero.f32", NULL, "signed_zero");
}

/* The baseline's pos_zero.f32 became f64 there: this run's f32 one is new ("found": false,
 * no regression, a skipped JUnit testcase) and the baseline's f64 one, which the run selected
 * (no --dtype), is missing: the run fails with a failing testcase of its own, unless
 * allow_missing. */
static void missing_kernel(void **state)
{
    (void)state;
    json_t *doc = passing(), *old = passing();
    json_object_set_new(kernel(old, "pos_zero.f32"), "dtype", json_string("f64"));
    assert_int_equal(rp_baseline_apply(doc, old, NULL), 1);
    const json_t *b = json_object_get(kernel(doc, "pos_zero.f32"), "baseline");
    const json_t *sum = json_object_get(doc, "baseline");
    assert_true(json_is_false(json_object_get(b, "found")));
    assert_int_equal(json_integer_value(json_object_get(b, "regressions")), 0);
    assert_int_equal(json_integer_value(json_object_get(sum, "missing")), 1);
    assert_int_equal(json_integer_value(json_object_get(sum, "new")), 1);
    assert_int_equal(json_integer_value(json_object_get(sum, "compared")), 1);
    assert_string_equal(json_string_value(json_array_get(json_object_get(sum, "missing_kernels"),
                                                         0)), "mutants/pos_zero.f32");
    assert_string_equal(str(doc, "verdict"), "fail");
    char *xml = rp_junit(doc);
    /* the skipped testcase says why (the kernel's baseline "why") */
    char want[512];
    snprintf(want, sizeof want, "<skipped message=\"new: not in the baseline: %s\"",
             json_string_value(json_object_get(b, "why")));
    assert_non_null(json_object_get(b, "why"));
    assert_non_null(strstr(xml, want));
    assert_non_null(strstr(xml, "<testcase classname=\"mutants/pos_zero.f32\" name=\"baseline\""));
    assert_non_null(strstr(xml, "type=\"missing\""));
    free(xml);
    json_decref(doc);
    struct rp_baseline_opts allow = { 0, 0, 1, NULL, NULL };
    doc = passing();
    assert_int_equal(rp_baseline_apply(doc, old, &allow), 0);
    xml = rp_junit(doc);
    assert_null(strstr(xml, "type=\"missing\""));
    free(xml);
    json_decref(doc);
    json_decref(old);
}

/* --baseline-tolerance: a max_ulp that grew by less than ULPS and a fraction that fell by
 * less than FRACTION are not regressions; by more, they are. */
static void tolerance(void **state)
{
    (void)state;
    json_t *doc = passing(), *old = passing();
    json_t *ov = json_object_get(metrics(old, "nan_neginf.f32", "ulp"), "overall");
    double mu = json_number_value(json_object_get(ov, "max_ulp"));
    double fr = json_number_value(json_object_get(ov, "fraction_correctly_rounded"));
    json_object_set_new(ov, "max_ulp", json_real(mu - 0.5));
    json_object_set_new(ov, "fraction_correctly_rounded", json_real(fr + 0.01));
    struct rp_baseline_opts wide = { 1.0, 0.02, 0, NULL, NULL },
                            narrow = { 0.25, 0.005, 0, NULL, NULL };
    assert_int_equal(rp_baseline_apply(doc, old, &wide), 0);
    json_decref(doc);
    doc = passing();
    assert_int_equal(rp_baseline_apply(doc, old, &narrow), 1);
    assert_true(json_is_true(json_object_get(entry(doc, "nan_neginf.f32", "max_ulp"), "worse")));
    assert_true(json_is_true(json_object_get(entry(doc, "nan_neginf.f32",
                                                   "fraction_correctly_rounded"), "worse")));
    json_decref(doc);
    json_decref(old);
}

/* A kernel of old renamed to identity id (another adapter's: by identity it matches nothing),
 * a copy of the kernel named k when copy. */
static json_t *renamed(json_t *old, const char *k, const char *id, int copy)
{
    json_t *o = kernel(old, k);
    if (copy) {
        o = json_deep_copy(o);
        json_array_append_new(json_object_get(old, "kernels"), o);
    }
    json_object_set_new(o, "id", json_string(id));
    return o;
}

static const json_t *summary_list(const json_t *doc, const char *list)
{
    return json_object_get(json_object_get(json_object_get(doc, "baseline"), "site_map"), list);
}

/* --site-map: kernels of another adapter (ref/...) matched by site.  nan_neginf.f32's baseline
 * ref/n1 has another func (a regression: "func"); pos_zero.f32 sits at two sites, with ref/p1
 * (as good) and ref/p2 (better than reality): it is compared with both, the worse comparison
 * kept and the other listed under "also"; an entry in no result is listed; without the map
 * nothing matches and every kernel says why. */
static void site_map_rules(void **state)
{
    (void)state;
    json_t *doc = passing(), *old = passing();
    json_object_set_new(renamed(old, "nan_neginf.f32", "ref/n1", 0), "func",
                        json_string("gelu_tanh"));
    renamed(old, "pos_zero.f32", "ref/p1", 0);
    json_t *p2 = renamed(old, "pos_zero.f32", "ref/p2", 1);
    json_t *ov = json_object_get(json_object_get(suite(p2, "ulp"), "metrics"), "overall");
    json_object_set_new(ov, "max_ulp", json_real(json_number_value(json_object_get(
                                                     ov, "max_ulp")) - 0.5));
    json_t *map = json_pack("{s:[s,s], s:[s,s], s:[s,s], s:[s]}",
                            "s1", "mutants/nan_neginf.f32", "ref/n1",
                            "s2", "mutants/pos_zero.f32", "ref/p1",
                            "s3", "ref/p2", "mutants/pos_zero.f32", "s4", "nosuch/x");
    struct rp_baseline_opts o = { 0, 0, 0, map, "map.json" };
    assert_int_equal(rp_baseline_apply(doc, old, &o), 1);
    const json_t *b = json_object_get(kernel(doc, "nan_neginf.f32"), "baseline");
    assert_string_equal(str(b, "kernel"), "ref/n1");
    assert_string_equal(str(b, "site"), "s1");
    assert_string_equal(str(b, "matched_by"), "site map");
    const json_t *f = entry(doc, "nan_neginf.f32", "func");
    assert_string_equal(str(f, "old"), "gelu_tanh");
    assert_true(json_is_true(json_object_get(f, "worse")));
    b = json_object_get(kernel(doc, "pos_zero.f32"), "baseline");
    assert_string_equal(str(b, "kernel"), "ref/p2");
    assert_string_equal(str(b, "site"), "s3");
    assert_true(json_is_true(json_object_get(entry(doc, "pos_zero.f32", "max_ulp"), "worse")));
    const json_t *also = json_object_get(b, "also");
    assert_int_equal(json_array_size(also), 1);
    assert_string_equal(str(json_array_get(also, 0), "kernel"), "ref/p1");
    assert_int_equal(json_integer_value(json_object_get(json_array_get(also, 0), "regressions")),
                     0);
    assert_int_equal(json_integer_value(json_object_get(json_object_get(doc, "baseline"),
                                                        "compared")), 2);
    assert_int_equal(json_array_size(summary_list(doc, "unmatched_kernels")), 0);
    assert_int_equal(json_array_size(summary_list(doc, "unmatched_baseline")), 0);
    assert_int_equal(json_array_size(summary_list(doc, "entries_in_no_result")), 1);
    assert_string_equal(str(json_array_get(summary_list(doc, "entries_in_no_result"), 0),
                            "kernel"), "nosuch/x");
    json_decref(doc);
    /* the kernel's own name is preferred at a site: mutants/pos_zero.f32 beside
     * ref/pos_zero.f32 and ref/p2 is compared with the first only; ref/p2, compared with
     * nothing, is listed; nan_neginf.f32 is in no site: it says so */
    json_decref(map);
    renamed(old, "pos_zero.f32", "ref/pos_zero.f32", 1);
    map = json_pack("{s:[s,s,s]}", "s", "ref/p2", "ref/pos_zero.f32", "mutants/pos_zero.f32");
    o.site_map = map;
    doc = passing();
    assert_int_equal(rp_baseline_apply(doc, old, &o), 0);
    b = json_object_get(kernel(doc, "pos_zero.f32"), "baseline");
    assert_string_equal(str(b, "kernel"), "ref/pos_zero.f32");
    assert_null(json_object_get(b, "also"));
    b = json_object_get(kernel(doc, "nan_neginf.f32"), "baseline");
    assert_false(json_is_true(json_object_get(b, "found")));
    assert_string_equal(str(b, "why"), "not in the site map 'map.json'");
    assert_int_equal(json_array_size(summary_list(doc, "unmatched_kernels")), 1);
    const json_t *ub = summary_list(doc, "unmatched_baseline");
    assert_int_equal(json_array_size(ub), 3); /* ref/n1 and ref/p1 (in no site), ref/p2 */
    assert_string_equal(str(json_array_get(ub, 2), "kernel"), "ref/p2");
    assert_non_null(strstr(str(json_array_get(ub, 2), "why"), "at its site 's'"));
    json_decref(doc);
    /* without a map: nothing compared, each kernel says why */
    doc = passing();
    assert_int_equal(rp_baseline_apply(doc, old, NULL), 0);
    assert_int_equal(json_integer_value(json_object_get(json_object_get(doc, "baseline"),
                                                        "compared")), 0);
    b = json_object_get(kernel(doc, "pos_zero.f32"), "baseline");
    assert_false(json_is_true(json_object_get(b, "found")));
    assert_non_null(strstr(str(b, "why"), "identity"));
    json_decref(doc);
    json_decref(map);
    json_decref(old);
}

/* The compact baseline compares like the whole result, and a result without "id" members
 * (gelucheck 0.1) derives the same identities. */
static void compact_and_old_ids(void **state)
{
    (void)state;
    json_t *doc = passing(), *old = passing(), *compact = rp_baseline_compact(old);
    size_t i;
    json_t *k;
    assert_non_null(compact);
    assert_string_equal(str(compact, "schema"), "gelucheck-baseline/1");
    json_array_foreach(json_object_get(compact, "kernels"), i, k)
        assert_non_null(strstr(str(k, "id"), "mutants/"));
    json_array_foreach(json_object_get(old, "kernels"), i, k)
        json_object_del(k, "id");
    assert_int_equal(rp_baseline_apply(doc, compact, NULL), 0);
    assert_int_equal(json_integer_value(json_object_get(json_object_get(doc, "baseline"),
                                                        "compared")), 2);
    json_decref(doc);
    doc = passing();
    assert_int_equal(rp_baseline_apply(doc, old, NULL), 0);
    assert_int_equal(json_integer_value(json_object_get(json_object_get(doc, "baseline"),
                                                        "compared")), 2);
    json_decref(compact);
    json_decref(doc);
    json_decref(old);
}

/* Exit 4 (the reference failed in the run) stays 4; an error kernel stays error (exit 3). */
static void severe_codes_stay(void **state)
{
    (void)state;
    json_t *doc = passing(), *old = passing();
    json_object_set_new(doc, "exit_code", json_integer(4));
    assert_int_equal(rp_baseline_apply(doc, old, NULL), 4);
    json_decref(doc);
    doc = passing();
    json_object_set_new(kernel(doc, "pos_zero.f32"), "verdict", json_string("error"));
    json_object_set_new(json_object_get(metrics(old, "pos_zero.f32", "ulp"), "overall"),
                        "max_ulp", json_real(0.25));
    assert_int_equal(rp_baseline_apply(doc, old, NULL), 3);
    assert_string_equal(str(kernel(doc, "pos_zero.f32"), "verdict"), "error");
    assert_int_equal(total(doc, "error"), 1);
    json_decref(doc);
    json_decref(old);
}

int main(int argc, char **argv)
{
    char msg[4200];
    if (argc != 2 || !(fixture = rp_result_load(argv[1], msg, sizeof msg))) {
        fprintf(stderr, "usage: test_baseline b.json (%s)\n", argc == 2 ? msg : "");
        return 2;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(self_passes),     cmocka_unit_test(self_keeps_fail),
        cmocka_unit_test(max_ulp_worse),   cmocka_unit_test(fraction_worse),
        cmocka_unit_test(flush_appears),   cmocka_unit_test(flush_nearer_zero),
        cmocka_unit_test(flush_better),    cmocka_unit_test(special_worse),
        cmocka_unit_test(worse_and_better),
        cmocka_unit_test(new_kind),        cmocka_unit_test(missing_kernel),
        cmocka_unit_test(tolerance),       cmocka_unit_test(site_map_rules),
        cmocka_unit_test(compact_and_old_ids),
        cmocka_unit_test(severe_codes_stay),
    };
    int rc = cmocka_run_group_tests_name("reports_baseline", tests, NULL, NULL);
    json_decref(fixture);
    return rc;
}
