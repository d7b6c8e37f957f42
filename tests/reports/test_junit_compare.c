/* rp_junit and rp_compare_markdown on small results built here, for what the fixtures do not
 * hold: text that needs escaping (control bytes, & < > " ' |), a kernel that ran no suite, an
 * error suite, the regions that count as "outside the tail" for each kind of func, and the
 * cells of the compare table. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <reports.h>

static json_t *stats(double max_ulp)
{
    return json_pack("{s:f, s:f}", "max_ulp", max_ulp, "fraction_correctly_rounded", 0.5);
}

/* A kernel with an ulp suite whose regions have the max ulp given (x<-10 ... x>=1), and a
 * special suite whose -inf row got got_neginf. */
static json_t *kernel(const char *adapter, const char *name, const char *func,
                      const double reg[6], const char *got_neginf)
{
    static const char *const regions[] = { "x<-10", "[-10,-5)", "[-5,-1)", "[-1,0)", "[0,1)",
                                           "x>=1" };
    json_t *r = json_object();
    for (int i = 0; i < 6; i++)
        json_object_set_new(r, regions[i], stats(reg[i]));
    json_t *ulp = json_pack("{s:s, s:s, s:i, s:{s:o, s:o}, s:[], s:[]}", "name", "ulp", "verdict",
                            "pass", "points", 6, "metrics", "overall", stats(1e6), "regions", r,
                            "finding_counts", "findings");
    json_t *special = json_pack(
        "{s:s, s:s, s:{s:i, s:i, s:[{s:s, s:{s:s, s:s, s:s}}]}, s:[], s:[]}", "name", "special",
        "verdict", "pass", "metrics", "checked", 1, "passed", 1, "table", "input", "-inf", "got",
        "dec", got_neginf, "hex", got_neginf, "bits", "0", "finding_counts", "findings");
    return json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:{s:s}, s:[o, o]}", "adapter", adapter,
                     "kernel", name, "description", "d", "func", func, "dtype", "f32", "verdict",
                     "pass", "fingerprint", "detected", "n/a", "suites", ulp, special);
}

static json_t *doc_of(json_t *k)
{
    return json_pack("{s:s, s:s, s:{s:s}, s:i, s:[], s:[o]}", "schema", RP_SCHEMA, "verdict",
                     "pass", "policy", "name", "default", "exit_code", 0, "adapters", "kernels",
                     k);
}

/* The row of kernel name in md: the line starting "| ADAPTER | name |". */
static const char *row(const char *md, const char *name)
{
    char key[128];
    snprintf(key, sizeof key, " | %s |", name);
    const char *p = strstr(md, key);
    assert_non_null(p);
    return p;
}

/* max ulp outside the tail: the largest region outside the func's tail (values 1..6 by
 * region x<-10 ... x>=1, so the cell names the region that won). */
static void outside_tail(void **state)
{
    (void)state;
    static const double up[6] = { 6, 5, 4, 3, 2, 1 };   /* largest far left */
    static const double down[6] = { 1, 2, 3, 4, 5, 6 }; /* largest far right */
    json_t *docs[5] = {
        doc_of(kernel("a", "g", "gelu", up, "-0")),     /* x >= -1: [-1,0) = 3 */
        doc_of(kernel("a", "gr", "gelu", down, "-0")),  /* x >= -1: x>=1 = 6 */
        doc_of(kernel("a", "ec", "erfc", down, "0")),   /* x < 1: [0,1) = 5 */
        doc_of(kernel("a", "np", "normpdf", up, "0")),  /* |x| < 1: [-1,0) = 3 */
        doc_of(kernel("a", "ef", "erf", up, "-1")),     /* all: x<-10 = 6 */
    };
    static const char *const names[5] = { "1.json", "2.json", "3.json", "4.json", "5.json" };
    char *md = rp_compare_markdown(docs, names, 5);
    assert_non_null(md);
    assert_non_null(strstr(row(md, "g"), "| g | 3 | 1e+06 | 50.00% |"));
    assert_non_null(strstr(row(md, "gr"), "| gr | 6 |"));
    assert_non_null(strstr(row(md, "ec"), "| ec | 5 |"));
    assert_non_null(strstr(row(md, "np"), "| np | 3 |"));
    assert_non_null(strstr(row(md, "ef"), "| ef | 6 |"));
    /* groups in geluref's order: gelu, normpdf, erf, erfc */
    const char *g = strstr(md, "## gelu f32"), *np = strstr(md, "## normpdf f32"),
               *ef = strstr(md, "## erf f32"), *ec = strstr(md, "## erfc f32");
    assert_true(g && np && ef && ec && g < np && np < ef && ef < ec);
    /* several results: each adapter cell names its result */
    assert_non_null(strstr(md, "| a [2] | gr |"));
    free(md);
    for (int i = 0; i < 5; i++)
        json_decref(docs[i]);
}

/* NaN at -inf from the special table, flush point and zero signs absent without the tail;
 * table text escaped. */
static void cells(void **state)
{
    (void)state;
    static const double r[6] = { 1, 1, 1, 1, 1, 1 };
    json_t *k1 = kernel("a|b", "k_*1", "gelu", r, "nan"), *k2 = kernel("c", "k2", "gelu", r, "-0");
    json_t *d = doc_of(k1);
    json_array_append_new(json_object_get(d, "kernels"), k2);
    char *md = rp_compare_markdown(&d, NULL, 1);
    assert_non_null(md);
    assert_non_null(strstr(md, "| a\\_b | k\\_\\*1 | 1 | 1e+06 | 50.00% | — | — | yes | ok | n/a | "
                               "pass |"));
    assert_non_null(strstr(row(md, "k2"), "| — | — | no | ok |"));
    free(md);
    /* a fraction just below 1 never shows as 100.00% */
    json_t *ulp2 = json_array_get(json_object_get(k2, "suites"), 0);
    json_t *overall = json_object_get(json_object_get(ulp2, "metrics"), "overall");
    json_object_set_new(overall, "fraction_correctly_rounded", json_real(0.9999999));
    md = rp_compare_markdown(&d, NULL, 1);
    assert_non_null(strstr(row(md, "k2"), "| k2 | 1 | 1e+06 | 99.99% |"));
    free(md);
    json_decref(d);
}

/* XML escaping of attributes and text, control bytes dropped; counts. */
static void junit_escape(void **state)
{
    (void)state;
    static const double r[6] = { 1, 1, 1, 1, 1, 1 };
    json_t *k = kernel("ad<&>\"'", "k\x01x", "gelu", r, "nan");
    json_t *s = json_array_get(json_object_get(k, "suites"), 1);
    json_object_set_new(s, "verdict", json_string("fail"));
    json_array_append_new(json_object_get(s, "findings"),
                          json_pack("{s:s, s:s, s:s, s:s}", "kind", "special_value", "region",
                                    "x<-10", "severity", "fail", "detail", "a\tb\nc<d"));
    json_t *d = doc_of(k);
    char *xml = rp_junit(d);
    assert_non_null(xml);
    /* named by identity: the adapter's name derived from the hostile spec (no adapter
       entry), its bytes outside [A-Za-z0-9_.-] made '_'; the kernel name escaped */
    assert_non_null(strstr(xml, "<testsuite name=\"ad_____/k?x\" tests=\"2\" "
                                "failures=\"1\" errors=\"0\" skipped=\"0\" time=\"0\">"));
    assert_non_null(strstr(xml, "classname=\"ad_____/k?x\""));
    assert_non_null(strstr(xml, "<failure message=\"special_value x&lt;-10: a&#9;b&#10;c&lt;d\" "
                                "type=\"special_value\">"));
    assert_null(strchr(xml, '\x01'));
    assert_non_null(strstr(xml, "<testsuites name=\"gelucheck\" tests=\"2\" failures=\"1\" "
                                "errors=\"0\" skipped=\"0\" time=\"0\">"));
    free(xml);
    json_decref(d);
}

/* A kernel without suites (verdict error) is one error testcase "kernel"; an error suite is
 * <error>, a skipped one <skipped> with its note. */
static void junit_error_skip(void **state)
{
    (void)state;
    static const double r[6] = { 1, 1, 1, 1, 1, 1 };
    json_t *k = kernel("a", "k", "gelu", r, "-0");
    json_t *ulp = json_array_get(json_object_get(k, "suites"), 0);
    json_t *sp = json_array_get(json_object_get(k, "suites"), 1);
    json_object_set_new(ulp, "verdict", json_string("error"));
    json_object_set_new(ulp, "note", json_string("the kernel could not be served"));
    json_object_set_new(sp, "verdict", json_string("skip"));
    json_object_set_new(sp, "note", json_string("not for this func"));
    json_t *d = doc_of(k);
    json_array_append_new(json_object_get(d, "kernels"),
                          json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:{}, s:[]}", "adapter",
                                    "a", "kernel", "gone", "description", "", "func", "gelu",
                                    "dtype", "f32", "verdict", "error", "error", "it crashed",
                                    "fingerprint", "suites"));
    char *xml = rp_junit(d);
    assert_non_null(xml);
    assert_non_null(strstr(xml, "<error message=\"the kernel could not be served\" type=\"error\">"));
    assert_non_null(strstr(xml, "<skipped message=\"not for this func\"/>"));
    assert_non_null(strstr(xml, "name=\"kernel\" time=\"0\">\n      <error message=\"it crashed\" "
                                "type=\"error\"/>"));
    assert_non_null(strstr(xml, "tests=\"3\" failures=\"0\" errors=\"2\" skipped=\"1\""));
    free(xml);
    json_decref(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(outside_tail),
        cmocka_unit_test(cells),
        cmocka_unit_test(junit_escape),
        cmocka_unit_test(junit_error_skip),
    };
    return cmocka_run_group_tests_name("reports_junit_compare", tests, NULL, NULL);
}
