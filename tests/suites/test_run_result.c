/* Checks a result written by `gelucheck run --json` (run.cmake runs the command first):
 *
 *   test_run_result mutants R.json [R2.json]  every mutant fails, each caught by the suite
 *                                      and kind its description names (table below); the
 *                                      kernels of R2 (a second run) count as R's
 *   test_run_result fixture R.json     fixture_cr under strict: every kernel passes, no
 *                                      finding in any suite; all 36 (func, dtype) present
 *                                      when it is the full run
 *   test_run_result erf1p R.json       libm erf1p.f32 under default (docs/design.md section 2)
 *   test_run_result gradzero R.json    libm grad_erfc.f32, a default run: its worst input is
 *                                      the float nearest the zero x* of gelu_grad
 *   test_run_result same A.json B.json equal byte for byte without "timing"
 *   test_run_result sameref F.json M.json  the fast path's run and the MPFR path's: equal
 *                                      byte for byte without "timing", "command", "reference"
 *   test_run_result merged R.json M.json SHARD.json...
 *                                      M (gelucheck merge of the SHARDs, in shard order)
 *                                      equals R (the run without --shard) byte for byte
 *                                      without "timing", "shard" and "complete"; the
 *                                      shards split the ulp suite and skip the others
 *   test_run_result mpfr R.json        the run recorded --reference mpfr and measured
 *
 * Each check names the row or member that failed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

static json_t *doc, *doc2;

static const char *str(const json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s ? s : "";
}

static const json_t *find(const json_t *array, const char *key, const char *value)
{
    size_t i;
    json_t *e;
    json_array_foreach(array, i, e)
        if (strcmp(str(e, key), value) == 0)
            return e;
    return NULL;
}

/* The number of findings of kind in suite s (with severity fail when need_fail). */
static long long kind_count(const json_t *s, const char *kind, int need_fail)
{
    long long n = 0;
    size_t i;
    json_t *c;
    json_array_foreach(json_object_get(s, "finding_counts"), i, c)
        if (strcmp(str(c, "kind"), kind) == 0 && (!need_fail || strcmp(str(c, "severity"), "fail") == 0))
            n += json_integer_value(json_object_get(c, "count"));
    return n;
}

/* ---------------------------------------------------------------- mutants -------------- */

/* The mutants adapter's kernels and what must catch each (their descriptions, `gelucheck list
 * --adapter mutants`).  kind NULL: the suite must fail, by any finding.  fail 0: the finding
 * must be there, its severity may be warn (signed zeros of the special suite under default). */
struct mrow {
    const char *kernel, *suite, *kind;
    int fail;
    const char *detected; /* the fingerprint's verdict, or NULL */
};
static const struct mrow mrows[] = {
    { "nosqrt2.f32", "fingerprint", "declared_mismatch", 1, "gelu_nosqrt2" },
    { "tanh_as_gelu.f32", "fingerprint", "declared_mismatch", 1, "gelu_tanh" },
    { "sigmoid_as_gelu.f32", "fingerprint", "declared_mismatch", 1, "gelu_sigmoid" },
    { "silu_as_gelu.f32", "fingerprint", "declared_mismatch", 1, "silu" },
    { "erf1p_float.f32", "tail", "premature_flush", 1, NULL },
    { "poly6.f32", "identity", "non_monotonic", 1, NULL },
    { "tanh_overshoot.f32", "ulp", "wrong_sign", 1, NULL },
    { "ulp8_1to2.f32", "ulp", "ulp_exceeded", 1, NULL },
    { "grad_no_xphi.f32", "ulp", "ulp_exceeded", 1, NULL },
    { "clamp0.f32", "identity", "identity_violation", 1, NULL },
    { "clamp0.f32", "tail", "premature_flush", 1, NULL },
    { "nan_neginf.f32", "special", "special_value", 1, NULL },
    { "pos_zero.f32", "special", "signed_zero", 0, NULL },
    { "pos_zero.f32", "tail", "signed_zero", 1, NULL },
    { "overflow2x.f32", "special", NULL, 1, NULL },
    { "overflow2x.f32", "ulp", "inf_output", 1, NULL },
    { "ftz_result.f32", "tail", "ftz", 1, NULL },
    { "tanh_f16div.f16", "ulp", "nan_output", 1, NULL },
    { "tail_mod8.f32", "vector", "position_dependent", 1, NULL },
    { "misaligned32.f32", "vector", "alignment_dependent", 1, NULL },
    { "inplace_half.f32", "vector", "inplace_mismatch", 1, NULL },
    { "writes_yn.f32", "vector", "out_of_bounds_write", 1, NULL },
    { "writes_x.f32", "vector", "input_modified", 1, NULL },
    { "lane_nan8.f32", "vector", "lane_contamination", 1, NULL },
    { "call_count.f32", "vector", "nondeterministic", 1, NULL },
    { "fpenv_ftz.f32", "vector", "fpenv_modified", 1, NULL },
};
#define N_MROWS (sizeof mrows / sizeof mrows[0])

static void test_mutants_caught(void **state)
{
    (void)state;
    int bad = 0;
    for (size_t i = 0; i < N_MROWS; i++) {
        const struct mrow *r = &mrows[i];
        const json_t *k = find(json_object_get(doc, "kernels"), "kernel", r->kernel);
        const json_t *s = k ? find(json_object_get(k, "suites"), "name", r->suite) : NULL;
        const char *why = NULL;
        if (!k)
            why = "kernel missing from the result";
        else if (strcmp(str(k, "verdict"), "fail") != 0)
            why = "kernel does not fail";
        else if (!s)
            why = "suite missing";
        else if (r->fail && strcmp(str(s, "verdict"), "fail") != 0)
            why = "suite does not fail";
        else if (r->kind && kind_count(s, r->kind, r->fail) == 0)
            why = r->fail ? "no failing finding of the kind" : "no finding of the kind";
        else if (r->detected &&
                 strcmp(str(json_object_get(k, "fingerprint"), "detected"), r->detected) != 0)
            why = "fingerprint detected something else";
        if (why) {
            print_error("%s: %s %s: %s (verdict %s, suite verdict %s)\n", r->kernel, r->suite,
                        r->kind ? r->kind : "(any)", why, k ? str(k, "verdict") : "-",
                        s ? str(s, "verdict") : "-");
            bad++;
        }
    }
    assert_int_equal(bad, 0);
}

/* Every mutant of the result is in the table (a new mutant needs its row) and fails. */
static void test_mutants_all_fail(void **state)
{
    (void)state;
    size_t i, n = 0;
    json_t *k;
    json_array_foreach(json_object_get(doc, "kernels"), i, k) {
        int row = 0;
        for (size_t j = 0; j < N_MROWS; j++)
            row |= strcmp(mrows[j].kernel, str(k, "kernel")) == 0;
        if (!row || strcmp(str(k, "verdict"), "fail") != 0)
            print_error("%s: %s\n", str(k, "kernel"), row ? "does not fail" : "not in the table");
        n += row && strcmp(str(k, "verdict"), "fail") == 0;
    }
    assert_int_equal(n, json_array_size(json_object_get(doc, "kernels")));
    assert_int_equal(n, 23); /* the mutants adapter's kernel count (adapters/mutants) */
    for (const json_t *d = doc; d; d = d == doc ? doc2 : NULL) {
        assert_string_equal(str(d, "verdict"), "fail");
        assert_int_equal(json_integer_value(json_object_get(d, "exit_code")), 1);
        const json_t *t = json_object_get(d, "totals");
        assert_int_equal(json_integer_value(json_object_get(t, "fail")),
                         json_integer_value(json_object_get(t, "kernels")));
    }
}

/* The erf1p_float mutant flushes near -5.54 (docs/design.md section 2). */
static void test_mutants_erf1p_flush(void **state)
{
    (void)state;
    const json_t *k = find(json_object_get(doc, "kernels"), "kernel", "erf1p_float.f32");
    const json_t *s = find(json_object_get(k, "suites"), "name", "tail");
    const json_t *fp = json_object_get(json_object_get(s, "metrics"), "flush_point");
    double x = atof(str(fp, "dec"));
    print_message("erf1p_float.f32 flush point %s\n", str(fp, "dec"));
    assert_true(x < -5.5 && x > -5.6);
}

/* ---------------------------------------------------------------- fixture_cr ----------- */

static void test_fixture_clean(void **state)
{
    (void)state;
    size_t i, j;
    json_t *k, *s;
    int bad = 0, pairs[10][5] = { { 0 } };
    json_array_foreach(json_object_get(doc, "kernels"), i, k) {
        if (strcmp(str(k, "verdict"), "pass") != 0) {
            print_error("%s: verdict %s\n", str(k, "kernel"), str(k, "verdict"));
            bad++;
        }
        json_array_foreach(json_object_get(k, "suites"), j, s) {
            const char *v = str(s, "verdict");
            size_t nf = json_array_size(json_object_get(s, "findings"));
            size_t nc = json_array_size(json_object_get(s, "finding_counts"));
            /* fingerprint is skipped (n/a) for the non-gelu funcs; nothing else may skip */
            int skip_ok = strcmp(str(s, "name"), "fingerprint") == 0;
            if ((strcmp(v, "pass") != 0 && !(skip_ok && strcmp(v, "skip") == 0)) || nf || nc) {
                print_error("%s %s: verdict %s, %zu findings\n", str(k, "kernel"),
                            str(s, "name"), v, nc);
                bad++;
            }
        }
        assert_int_equal(json_array_size(json_object_get(k, "suites")), 6);
        /* the kernel name is FUNC.DTYPE */
        char want[64];
        snprintf(want, sizeof want, "%s.%s", str(k, "func"), str(k, "dtype"));
        assert_string_equal(str(k, "kernel"), want);
        static const char *const dts[] = { "f64", "f32", "f16", "bf16" };
        static const char *const fs[] = { "gelu", "gelu_tanh", "gelu_sigmoid", "gelu_grad",
                                          "gelu_tanh_grad", "normcdf", "normpdf", "erf", "erfc" };
        for (int f = 0; f < 9; f++)
            for (int d = 0; d < 4; d++)
                pairs[f][d] |= strcmp(str(k, "func"), fs[f]) == 0 && strcmp(str(k, "dtype"), dts[d]) == 0;
    }
    /* the full run has every (func, dtype); a partial one at least every dtype */
    size_t n = json_array_size(json_object_get(doc, "kernels"));
    for (int d = 0; d < 4; d++) {
        int any = 0;
        for (int f = 0; f < 9; f++) {
            any |= pairs[f][d];
            if (n == 36)
                assert_int_equal(pairs[f][d], 1);
        }
        assert_int_equal(any, 1);
    }
    assert_int_equal(bad, 0);
    assert_int_equal(json_object_size(json_object_get(json_object_get(doc, "totals"), "findings")), 0);
    assert_int_equal(json_integer_value(json_object_get(json_object_get(doc, "totals"), "pass")), n);
    assert_int_equal(json_integer_value(json_object_get(doc, "exit_code")), 0);
    assert_string_equal(str(json_object_get(doc, "policy"), "name"), "strict");
    /* policy values for every (func, dtype) present: one kernel each */
    assert_int_equal(json_object_size(json_object_get(json_object_get(doc, "policy"), "values")), n);
}

/* ---------------------------------------------------------------- libm erf1p.f32 ------- */

static double region_max_ulp(const json_t *ulp, const char *region)
{
    const json_t *r = json_object_get(json_object_get(json_object_get(ulp, "metrics"), "regions"),
                                      region);
    const json_t *m = json_object_get(r, "max_ulp");
    assert_non_null(r);
    assert_true(json_is_number(m));
    print_message("erf1p.f32 region %-9s max_ulp %g\n", region, json_number_value(m));
    return json_number_value(m);
}

static void test_erf1p(void **state)
{
    (void)state;
    const json_t *k = find(json_object_get(doc, "kernels"), "kernel", "erf1p.f32");
    assert_non_null(k);
    assert_string_equal(str(k, "verdict"), "fail");
    assert_string_equal(str(doc, "reference"), "fast"); /* the default */
    const json_t *tail = find(json_object_get(k, "suites"), "name", "tail");
    const json_t *ulp = find(json_object_get(k, "suites"), "name", "ulp");
    assert_non_null(tail);
    assert_non_null(ulp);
    assert_true(kind_count(tail, "premature_flush", 1) > 0);
    const json_t *tm = json_object_get(tail, "metrics");
    double flush = atof(str(json_object_get(tm, "flush_point"), "dec"));
    print_message("erf1p.f32 flush point %g, last nonzero %s\n", flush,
                  str(json_object_get(tm, "last_nonzero"), "dec"));
    /* 0.5f*x*(1+erff(x/sqrt2)) returns 0 below about -5.54 (docs/design.md section 2) */
    assert_true(flush < -5.5 && flush > -5.6);
    /* -14.356067657470703 = 0xc165b274 (python struct.pack('>f', ...)): docs/design.md section 2 */
    assert_string_equal(str(json_object_get(tm, "last_nonzero"), "bits"), "0xc165b274");
    assert_string_equal(str(json_object_get(json_object_get(k, "targets"), "last_nonzero"),
                            "bits"), "0xc165b274");
    /* accurate where 1+erf does not cancel: at most 3 ulp for x >= -1 */
    double m10 = region_max_ulp(ulp, "[-1,0)"), p01 = region_max_ulp(ulp, "[0,1)");
    double p1 = region_max_ulp(ulp, "x>=1");
    assert_true(m10 <= 3 && p01 <= 3 && p1 <= 3);
    /* the cancellation grows as x goes down: each region below -1 worse than the one above */
    double m51 = region_max_ulp(ulp, "[-5,-1)"), m105 = region_max_ulp(ulp, "[-10,-5)");
    assert_true(m51 > m10 && m105 > m51);
}

/* ---------------------------------------------------------------- libm grad_erfc.f32 --- */

/* 0.5f*erfcf(-x/sqrt2) + x*pdf subtracts two terms of 0.226 at x* = -0.7517915246935645;
 * the float nearest it, -0x1.80ead2p-1 = 0xbf407569 (tests/suites/test_core_targets.c), is a
 * target of the default run, where the kernel returns -1.49e-8 for -5.23e-9: 2.18e7 ulp
 * (measured), the exhaustive run's maximum (docs/suites.md section 6).  Before the zeros were
 * targets the default's maximum was 355 ulp. */
static void test_gradzero(void **state)
{
    (void)state;
    const json_t *k = find(json_object_get(doc, "kernels"), "kernel", "grad_erfc.f32");
    assert_non_null(k);
    assert_string_equal(str(json_object_get(json_object_get(k, "targets"), "zero_at"), "bits"),
                        "0xbf407569");
    const json_t *ulp = find(json_object_get(k, "suites"), "name", "ulp");
    assert_non_null(ulp);
    const json_t *o = json_object_get(json_object_get(ulp, "metrics"), "overall");
    double m = json_number_value(json_object_get(o, "max_ulp"));
    const char *at = str(json_object_get(json_object_get(o, "max_ulp_at"), "x"), "bits");
    print_message("grad_erfc.f32 max_ulp %g at %s\n", m, at);
    assert_true(m > 1e7);
    assert_string_equal(at, "0xbf407569");
}

/* ---------------------------------------------------------------- timeout -------------- */

/* misbehave.py hang: the ulp suite's first batch times out: the kernel and that suite fail
 * with a timeout finding that names the batch's first input; the suites after it are not run
 * (the adapter was killed) and say why */
static void test_timeout(void **state)
{
    (void)state;
    const json_t *k = json_array_get(json_object_get(doc, "kernels"), 0);
    assert_string_equal(json_string_value(json_object_get(k, "verdict")), "fail");
    assert_string_equal(json_string_value(json_object_get(doc, "verdict")), "fail");
    const json_t *suites = json_object_get(k, "suites");
    const json_t *ulp = json_array_get(suites, 0);
    assert_string_equal(json_string_value(json_object_get(ulp, "verdict")), "fail");
    const json_t *f = json_array_get(json_object_get(ulp, "findings"), 0);
    assert_string_equal(json_string_value(json_object_get(f, "kind")), "timeout");
    assert_non_null(json_object_get(f, "x"));
    for (size_t i = 1; i < json_array_size(suites); i++) {
        const json_t *s = json_array_get(suites, i);
        assert_string_equal(json_string_value(json_object_get(s, "verdict")), "skip");
        assert_non_null(strstr(json_string_value(json_object_get(s, "note")), "timed out"));
    }
}

/* ---------------------------------------------------------------- same, merged --------- */

/* doc and doc2 are the same bytes (as jansson writes them) once the members strip[] are
 * taken out of both. */
static void assert_same_without(const char *const *strip, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        json_object_del(doc, strip[i]);
        json_object_del(doc2, strip[i]);
    }
    char *a = json_dumps(doc, JSON_INDENT(1)), *b = json_dumps(doc2, JSON_INDENT(1));
    assert_non_null(a);
    assert_non_null(b);
    size_t i = 0;
    while (a[i] && a[i] == b[i])
        i++;
    if (a[i] != b[i])
        print_error("results differ at byte %zu:\n%.200s\n---\n%.200s\n", i,
                    a + (i > 100 ? i - 100 : 0), b + (i > 100 ? i - 100 : 0));
    assert_true(a[i] == b[i]);
    free(a);
    free(b);
}

static void test_same(void **state)
{
    (void)state;
    const json_t *t1 = json_object_get(doc, "timing"), *t2 = json_object_get(doc2, "timing");
    static const char *const strip[] = { "timing" };
    /* the two runs really used different thread counts */
    assert_int_not_equal(json_integer_value(json_object_get(t1, "threads")),
                         json_integer_value(json_object_get(t2, "threads")));
    assert_same_without(strip, 1);
}

/* The same run on the fast path (doc) and the MPFR path (doc2): the same result but for the
 * timing, the command and the path's name.  The MPFR path reports no rule's run, so every
 * input it measures is evaluated (suites/ulp.c counts a run's inputs instead). */
static void test_same_ref(void **state)
{
    (void)state;
    assert_string_equal(str(doc, "reference"), "fast");
    assert_string_equal(str(doc2, "reference"), "mpfr");
    static const char *const strip[] = { "timing", "command", "reference" };
    assert_same_without(strip, 3);
}

#define MAX_SHARDS 64
static json_t *shards[MAX_SHARDS]; /* merged mode: the shard results, in shard order */
static size_t n_shards;

/* Whether the whole run's suite entry e splits across shards (suites/shard.c): the ulp suite,
 * and the tail suite where its scan takes every input or there is none. */
static int splits(const json_t *e)
{
    if (strcmp(str(e, "name"), "ulp") == 0)
        return 1;
    if (strcmp(str(e, "name"), "tail") != 0 || strcmp(str(e, "verdict"), "skip") == 0)
        return 0;
    const json_t *scan = json_object_get(json_object_get(e, "inputs"), "scan");
    return json_is_null(scan) || strcmp(str(scan, "kind"), "exhaustive") == 0;
}

/* Kernel j's points of each suite that splits add up over the shards to the run's, and more
 * than one shard measured some (the suite really split); the other suites ran in shard 0
 * only. */
static void check_split(size_t j, const json_t *k)
{
    size_t m;
    const json_t *e;
    json_array_foreach(json_object_get(k, "suites"), m, e) {
        json_int_t want = json_integer_value(json_object_get(e, "points")), sum = 0;
        size_t busy = 0;
        int split = splits(e);
        for (size_t i = 0; i < n_shards; i++) {
            const json_t *ks = json_array_get(json_object_get(shards[i], "kernels"), j);
            const json_t *s = json_array_get(json_object_get(ks, "suites"), m);
            json_int_t p = json_integer_value(json_object_get(s, "points"));
            assert_string_equal(str(s, "name"), str(e, "name"));
            if (split) {
                sum += p;
                busy += p > 0;
            } else if (i > 0) {
                assert_string_equal(str(s, "verdict"), "skip");
                assert_non_null(strstr(str(s, "note"), "shard 0 only"));
            }
        }
        if (!split)
            continue;
        print_message("%s: %s points %lld in %zu shards, %zu of them busy\n", str(k, "kernel"),
                      str(e, "name"), (long long)want, n_shards, busy);
        assert_int_equal(sum, want);
        if (n_shards > 1 && want > 0)
            assert_true(busy >= 2);
    }
}

static void test_merged(void **state)
{
    (void)state;
    static const char *const strip[] = { "timing", "shard", "complete" };
    const json_t *sh = json_object_get(doc2, "shard");
    assert_int_equal(json_integer_value(json_object_get(sh, "merged")), n_shards);
    assert_int_equal(json_integer_value(json_object_get(sh, "count")), 1);
    assert_true(json_is_true(json_object_get(doc2, "complete")));
    for (size_t i = 0; i < n_shards; i++) {
        const json_t *si = json_object_get(shards[i], "shard");
        assert_int_equal(json_integer_value(json_object_get(si, "index")), i);
        assert_int_equal(json_integer_value(json_object_get(si, "count")), n_shards);
    }
    size_t j;
    json_t *k;
    json_array_foreach(json_object_get(doc, "kernels"), j, k)
        check_split(j, k);
    assert_same_without(strip, 3);
}

/* ---------------------------------------------------------------- --reference mpfr ----- */

static void test_mpfr(void **state)
{
    (void)state;
    assert_string_equal(str(doc, "reference"), "mpfr");
    const json_t *k = json_array_get(json_object_get(doc, "kernels"), 0);
    const json_t *ulp = find(json_object_get(k, "suites"), "name", "ulp");
    assert_non_null(ulp);
    assert_true(json_integer_value(json_object_get(ulp, "points")) > 0);
}

static json_t *load(const char *path)
{
    json_error_t e;
    json_t *j = json_load_file(path, 0, &e);
    if (!j)
        fprintf(stderr, "%s:%d: %s\n", path, e.line, e.text);
    return j;
}

int main(int argc, char **argv)
{
    static const struct CMUnitTest mutants[] = {
        cmocka_unit_test(test_mutants_caught),
        cmocka_unit_test(test_mutants_all_fail),
        cmocka_unit_test(test_mutants_erf1p_flush),
    };
    static const struct CMUnitTest fixture[] = { cmocka_unit_test(test_fixture_clean) };
    static const struct CMUnitTest erf1p[] = { cmocka_unit_test(test_erf1p) };
    static const struct CMUnitTest gradzero[] = { cmocka_unit_test(test_gradzero) };
    static const struct CMUnitTest same[] = { cmocka_unit_test(test_same) };
    static const struct CMUnitTest same_ref[] = { cmocka_unit_test(test_same_ref) };
    static const struct CMUnitTest merged[] = { cmocka_unit_test(test_merged) };
    static const struct CMUnitTest mpfr[] = { cmocka_unit_test(test_mpfr) };
    static const struct CMUnitTest timeout[] = { cmocka_unit_test(test_timeout) };

    int is_merged = argc > 1 && strcmp(argv[1], "merged") == 0;
    for (int i = 4; is_merged && i < argc && n_shards < MAX_SHARDS; i++)
        if (!(shards[n_shards++] = load(argv[i])))
            return 2;
    if (argc < 3 || !(doc = load(argv[2])) || (argc > 3 && !(doc2 = load(argv[3]))) ||
        ((strcmp(argv[1], "same") == 0 || strcmp(argv[1], "sameref") == 0 || is_merged) &&
         !doc2) ||
        (is_merged && (n_shards == 0 || argc - 4 > MAX_SHARDS))) {
        fprintf(stderr, "usage: test_run_result mutants|fixture|erf1p|gradzero|timeout|mpfr R.json "
                        "[R2.json] | same A B | sameref FAST MPFR | merged R M SHARD...\n");
        return 2;
    }
    int rc = 2;
    if (strcmp(argv[1], "mutants") == 0) {
        /* the second run's kernels join the first's (a copy: doc2 keeps its own) */
        json_t *all = json_deep_copy(json_object_get(doc, "kernels"));
        json_array_extend(all, json_object_get(doc2, "kernels"));
        json_object_set_new(doc, "kernels", all);
        rc = cmocka_run_group_tests_name("run_mutants", mutants, NULL, NULL);
    }
    else if (strcmp(argv[1], "fixture") == 0)
        rc = cmocka_run_group_tests_name("run_fixture", fixture, NULL, NULL);
    else if (strcmp(argv[1], "erf1p") == 0)
        rc = cmocka_run_group_tests_name("run_erf1p", erf1p, NULL, NULL);
    else if (strcmp(argv[1], "gradzero") == 0)
        rc = cmocka_run_group_tests_name("run_gradzero", gradzero, NULL, NULL);
    else if (strcmp(argv[1], "same") == 0)
        rc = cmocka_run_group_tests_name("run_same", same, NULL, NULL);
    else if (strcmp(argv[1], "sameref") == 0)
        rc = cmocka_run_group_tests_name("run_same_ref", same_ref, NULL, NULL);
    else if (strcmp(argv[1], "timeout") == 0)
        rc = cmocka_run_group_tests_name("run_timeout", timeout, NULL, NULL);
    else if (is_merged)
        rc = cmocka_run_group_tests_name("run_merged", merged, NULL, NULL);
    else if (strcmp(argv[1], "mpfr") == 0)
        rc = cmocka_run_group_tests_name("run_mpfr", mpfr, NULL, NULL);
    for (size_t i = 0; i < n_shards; i++)
        json_decref(shards[i]);
    json_decref(doc);
    json_decref(doc2);
    return rc;
}
