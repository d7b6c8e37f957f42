/* The findings of a kernel as the renderers show them (reports/findings.h): the kinds in the
 * order of severity, the hint table, and on real results each hint for a kernel with its
 * defect and for none without (hints_expect.h), in report.md and junit.xml too.
 *   test_findings                     the unit tests on hand-made kernels
 *   test_findings hints RESULT...     the hints of real results (findings_check.py runs it)
 *   test_findings print RESULT...     each kernel's kinds and hint ids, for writing the table */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "findings.h"
#include "reports.h"
#include "test_findings.h"

/* A kernel object with the suites given as a JSON text. */
static json_t *kernel(const char *func, const char *detected, const char *suites)
{
    json_error_t e;
    json_t *k = json_pack("{s:s, s:s, s:s, s:s, s:{s:s}}", "adapter", "t", "kernel", "k.f32",
                          "func", func, "dtype", "f32", "fingerprint", "detected", detected);
    json_t *s = json_loads(suites, 0, &e);
    if (!s)
        fail_msg("bad test JSON: %s", e.text);
    json_object_set_new(k, "suites", s);
    return k;
}

/* a crash in the vector suite after ulp findings: the crash is the worst kind; the ulp
 * suite's finding in [-1,0) with the largest score is the worst of its kind, though another
 * region comes first in the list; a warning comes after every failing kind */
static const char *const mixed =
    "[{\"name\": \"ulp\", \"finding_counts\": ["
    " {\"kind\": \"ulp_exceeded\", \"region\": \"x<-10\", \"count\": 439, \"severity\": \"fail\"},"
    " {\"kind\": \"ulp_exceeded\", \"region\": \"[-1,0)\", \"count\": 325, \"severity\": \"fail\"},"
    "  {\"kind\": \"signed_zero\", \"region\": \"x<-10\", \"count\": 5, \"severity\": \"warn\"}],"
    " \"findings\": ["
    "  {\"kind\": \"ulp_exceeded\", \"region\": \"x<-10\", \"severity\": \"fail\", \"score\": 60,"
    "   \"x\": {\"bits\": \"0xc148a056\", \"hex\": \"-0x1.9140acp+3\", \"dec\": \"-12.54\"}},"
    " {\"kind\": \"ulp_exceeded\", \"region\": \"[-1,0)\", \"severity\": \"fail\", \"score\": 6170,"
    "   \"x\": {\"bits\": \"0xbf405e5b\", \"hex\": \"-0x1.80bcb6p-1\", \"dec\": \"-0.7514\"}},"
    "  {\"kind\": \"signed_zero\", \"region\": \"x<-10\", \"severity\": \"warn\", \"score\": 0}]},"
    " {\"name\": \"tail\", \"finding_counts\": ["
    "  {\"kind\": \"ulp_exceeded\", \"region\": \"[-1,0)\", \"count\": 9, \"severity\": \"fail\"}],"
    " \"findings\": ["
    "  {\"kind\": \"ulp_exceeded\", \"region\": \"[-1,0)\", \"severity\": \"fail\", \"score\": 333,"
    "   \"x\": {\"bits\": \"0xbf401c00\", \"hex\": \"-0x1.8038p-1\", \"dec\": \"-0.7504\"}}]},"
    " {\"name\": \"vector\", \"finding_counts\": ["
    "  {\"kind\": \"crash\", \"region\": \"none\", \"count\": 1, \"severity\": \"fail\"}],"
    " \"findings\": [{\"kind\": \"crash\", \"region\": \"none\", \"severity\": \"fail\","
    "   \"score\": 0, \"detail\": \"killed by SIGSEGV; reproduced by 1 input\"}]}]";

static void test_kinds(void **state)
{
    (void)state;
    struct rp_kind r[GS_N_KINDS];
    json_t *k = kernel("gelu_grad", "n/a", mixed);
    size_t n = rp_kernel_kinds(k, r);
    assert_int_equal(n, 3);
    assert_int_equal(r[0].kind, GS_K_CRASH);
    assert_string_equal(json_string_value(json_object_get(r[0].suite, "name")), "vector");
    assert_int_equal(r[1].kind, GS_K_ULP_EXCEEDED);
    assert_int_equal(r[1].count, 439 + 325 + 9);
    assert_true(json_number_value(json_object_get(r[1].worst, "score")) == 6170);
    assert_string_equal(json_string_value(json_object_get(r[1].suite, "name")), "ulp");
    assert_int_equal(r[2].kind, GS_K_SIGNED_ZERO);
    assert_int_equal(r[2].severity, GS_SEV_WARN);
    assert_true(rp_kernel_has(k, GS_K_SIGNED_ZERO));
    assert_false(rp_kernel_has(k, GS_K_FTZ));
    /* the crash's hint: the signal decides */
    assert_string_equal(rp_hint(k, r[0].worst)->id, "crash_segv");
    json_decref(k);
}

/* Hand-made findings where one condition decides between two rows. */
static void test_choice(void **state)
{
    (void)state;
    json_t *k = kernel("gelu", "gelu", "[]");
    json_t *fd = json_pack("{s:s, s:s, s:{s:s}, s:{s:s}}", "kind", "special_value", "region",
                           "x<-10", "x", "hex", "-inf", "got", "hex", "nan");
    assert_string_equal(rp_hint(k, fd)->id, "nan_neg_inf");
    json_object_set_new(fd, "x", json_pack("{s:s}", "hex", "inf"));
    assert_string_equal(rp_hint(k, fd)->id, "nan_pos_inf");
    json_object_set_new(fd, "got", json_pack("{s:s}", "hex", "0x0p+0"));
    assert_string_equal(rp_hint(k, fd)->id, "special_value");
    /* a flush below -5 in the erf form: 1 + erf cancels; the same in the tanh form: 1 + tanh */
    json_object_set_new(fd, "kind", json_string("premature_flush"));
    json_object_set_new(fd, "x", json_pack("{s:s}", "hex", "-0x1.8p+2"));
    assert_string_equal(rp_hint(k, fd)->id, "flush_erf1p");
    json_object_set_new(k, "func", json_string("gelu_tanh"));
    json_object_set_new(k, "fingerprint", json_pack("{s:s}", "detected", "gelu_tanh"));
    assert_string_equal(rp_hint(k, fd)->id, "flush_tanh");
    /* declared gelu, behaves like the sigmoid form: the formula, for every accuracy kind */
    json_object_set_new(k, "func", json_string("gelu"));
    json_object_set_new(k, "fingerprint", json_pack("{s:s}", "detected", "gelu_sigmoid"));
    assert_string_equal(rp_hint(k, fd)->id, "formula");
    json_object_set_new(fd, "kind", json_string("declared_mismatch"));
    assert_string_equal(rp_hint(k, fd)->id, "mismatch_sigmoid");
    json_object_set_new(fd, "kind", json_string("no_such_kind"));
    assert_null(rp_hint(k, fd));
    json_decref(fd);
    json_decref(k);
}

/* Every row: an id, a cause and a fix; ids unique; every kind has a general row (one
 * without a condition) so that every finding gets a hint. */
static void test_table(void **state)
{
    (void)state;
    size_t n = 0;
    while (rp_hint_at(n))
        n++;
    assert_true(n >= GS_N_KINDS);
    for (size_t i = 0; i < n; i++) {
        const struct rp_hint *h = rp_hint_at(i);
        assert_true(h->id[0] && strlen(h->cause) > 20 && strlen(h->fix) > 10);
        for (size_t j = 0; j < i; j++)
            if (strcmp(rp_hint_at(j)->id, h->id) == 0)
                fail_msg("hint id '%s' twice", h->id);
    }
    json_t *k = kernel("erf", "n/a", "[]");
    for (int kind = 0; kind < GS_N_KINDS; kind++) {
        json_t *fd = json_pack("{s:s, s:s}", "kind", gs_kind_name((enum gs_kind)kind),
                               "region", "none");
        if (!rp_hint(k, fd))
            fail_msg("no hint for a finding of kind %s", gs_kind_name((enum gs_kind)kind));
        json_decref(fd);
    }
    json_decref(k);
}

int main(int argc, char **argv)
{
    if (argc > 2 && strcmp(argv[1], "hints") == 0)
        return tf_check_hints((const char *const *)argv + 2, (size_t)argc - 2);
    if (argc > 2 && strcmp(argv[1], "print") == 0)
        return tf_print((const char *const *)argv + 2, (size_t)argc - 2);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kinds),
        cmocka_unit_test(test_choice),
        cmocka_unit_test(test_table),
    };
    return cmocka_run_group_tests_name("reports_findings", tests, NULL, NULL);
}
