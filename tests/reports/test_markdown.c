/* The Markdown writer and the report files (reports.h: rp_markdown, rp_result_load,
 * rp_write_text, rp_mkdirs) on small hand-made results; the golden files of real results are
 * compared by golden_check.cmake.
 *
 *   test_markdown                   the unit tests
 *   test_markdown roundtrip A B     A and B hold equal JSON (json_equal), for the round trip
 *                                   of `gelucheck report` (result.json equals its input) */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "reports.h"

/* A minimal result with one kernel; extra (a JSON object text, may be NULL) is merged into
 * the kernel object. */
static json_t *doc_with(const char *adapter, const char *kernel, const char *extra)
{
    json_t *d = json_pack(
        "{s:s, s:{s:s, s:s, s:s, s:s, s:s}, s:[s, s, s, s, s, s, s, s], s:{s:s}, s:s, s:i,"
        " s:[{s:s, s:s, s:s, s:s, s:s, s:s, s:[]}], s:{s:i, s:i, s:i, s:i, s:i, s:{}}}",
        "schema", RP_SCHEMA, "tool", "name", "gelucheck", "version", "0.1.0", "geluref", "0.1.0",
        "mpfr", "4", "jansson", "2", "command", "gelucheck", "run", "--adapter", adapter,
        "--adapter", "other", "--samp", "5", "policy", "name", "default", "verdict", "fail",
        "exit_code", 1, "kernels", "adapter", adapter, "kernel", kernel, "func", "gelu", "dtype",
        "f32", "verdict", "fail", "description", "a|b `c` <d>", "suites", "totals", "kernels",
        1, "pass", 0, "fail", 1, "error", 0, "skip", 0, "findings");
    assert_non_null(d);
    if (extra) {
        json_error_t e;
        json_t *x = json_loads(extra, 0, &e);
        if (!x)
            fail_msg("bad test JSON: %s", e.text);
        json_object_update(json_array_get(json_object_get(d, "kernels"), 0), x);
        json_decref(x);
    }
    return d;
}

/* report.md of d, every kernel with plots mask (rp_markdown reads one entry per kernel) */
static char *render(json_t *d, unsigned mask)
{
    unsigned masks[8] = { 0 };
    assert_true(json_array_size(json_object_get(d, "kernels")) <= 8);
    for (size_t i = 0; i < 8; i++)
        masks[i] = mask;
    char *md = rp_markdown(d, masks);
    assert_non_null(md);
    json_decref(d);
    return md;
}

static void has(const char *md, const char *want)
{
    if (!strstr(md, want))
        fail_msg("report.md lacks '%s':\n%s", want, md);
}

static void lacks(const char *md, const char *bad)
{
    if (strstr(md, bad))
        fail_msg("report.md has '%s':\n%s", bad, md);
}

/* '|' in a table cell would split it; backticks in a code span need a longer fence */
static void test_escaping(void **state)
{
    (void)state;
    char *md = render(doc_with("my|lib", "k`1.f32", NULL), 0);
    has(md, "| `` k`1.f32 `` | my\\|lib | gelu | f32 | **FAIL** |");
    has(md, "`` a\\|b `c` <d> ``");
    has(md, "## my\\|lib k\\`1.f32: **FAIL**");
    free(md);
}

static void test_plot_links(void **state)
{
    (void)state;
    char *md = render(doc_with("libm", "k.f32", NULL), RP_PLOT_ULP | RP_PLOT_APPROX);
    char slug[RP_SLUG_SIZE];
    json_t *k = json_pack("{s:s, s:s}", "adapter", "libm", "kernel", "k.f32");
    char want[256];
    rp_kernel_slug(k, slug, sizeof slug);
    json_decref(k);
    snprintf(want, sizeof want, "](plots/%s-ulp.svg)", slug);
    has(md, want);
    snprintf(want, sizeof want, "](plots/%s-approx.svg)", slug);
    has(md, want);
    lacks(md, "-tail.svg");
    free(md);
    md = render(doc_with("libm", "k.f32", NULL), 0);
    lacks(md, "plots/");
    free(md);
}

/* the run command of one kernel: the other adapter, --kernel and outputs dropped, an
 * abbreviation written out, a quote quoted */
static void test_run_command(void **state)
{
    (void)state;
    json_t *d = doc_with("libm", "k.f32", NULL);
    json_t *cmd = json_object_get(d, "command");
    const char *more[] = { "--kernel", "x.f32", "--json=r.json", "--report", "out",
                           "--policy", "it's", "--exhaustive" };
    for (size_t i = 0; i < sizeof more / sizeof more[0]; i++)
        json_array_append_new(cmd, json_string(more[i]));
    char *md = render(d, 0);
    has(md, "\ngelucheck run --adapter libm --samples 5 --policy 'it'\\''s' --exhaustive "
            "--kernel k.f32\n");
    free(md);
}

/* the options of the other adapters (their --adapter-name; libm again under another name) and
 * of the baseline are dropped (run refuses --baseline-tolerance without --baseline; a second
 * --adapter-name after libm is an error); the adapter's own name and the options with values
 * are kept whole */
static void test_run_command_names(void **state)
{
    (void)state;
    json_t *d = doc_with("libm", "k.f32", NULL);
    json_t *cmd = json_array();
    json_object_set_new(json_array_get(json_object_get(d, "kernels"), 0), "id",
                        json_string("L/k.f32"));
    const char *words[] = { "gelucheck", "run", "--adapter", "libm", "--adapter-name", "L",
                            "--adapter", "other", "--adapter-name", "O", "--adapter", "libm",
                            "--adapter-name=M", "--runtime",
                            "onnxruntime-web", "--baseline", "b.json", "--baseline-tolerance",
                            "1", "--baseline-allow-missing", "--isolation", "none",
                            "--torch-module", "m.pt", "--site-map", "m.json" };
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        json_array_append_new(cmd, json_string(words[i]));
    json_object_set_new(d, "command", cmd);
    char *md = render(d, 0);
    has(md, "\ngelucheck run --adapter libm --adapter-name L --runtime onnxruntime-web "
            "--isolation none --torch-module m.pt --kernel k.f32\n");
    free(md);
}

/* the ten worst: sorted by ulp ("inf" first), one row per x, the eleventh left out */
static void test_worst(void **state)
{
    (void)state;
    char ks[4096] = "{\"suites\": [{\"name\": \"ulp\", \"verdict\": \"fail\", \"metrics\": {}, "
                    "\"findings\": [";
    for (int i = 0; i < 11; i++)
        snprintf(ks + strlen(ks), sizeof ks - strlen(ks),
                 "%s{\"kind\": \"ulp_exceeded\", \"region\": \"[0,1)\", \"x\": {\"dec\": "
                 "\"x%d\", \"hex\": \"h\", \"bits\": \"0x%08d\"}, \"ulp\": %d}",
                 i ? ", " : "", i, i, 10 + i);
    strcat(ks, ", {\"kind\": \"nan_output\", \"region\": \"[0,1)\", \"x\": {\"dec\": \"x3\", "
               "\"hex\": \"h\", \"bits\": \"0x00000003\"}, \"ulp\": \"inf\"}]}]}");
    char *md = render(doc_with("libm", "k.f32", ks), 0);
    const char *t = strstr(md, "### The worst inputs");
    assert_non_null(t);
    const char *inf = strstr(t, "`x3`"), *x10 = strstr(t, "`x10`"), *x1 = strstr(t, "`x1`");
    assert_non_null(inf);
    assert_non_null(x10);
    assert_non_null(x1);
    assert_true(inf < x10 && x10 < x1);         /* inf first, then by ulp */
    assert_null(strstr(inf + 1, "`x3`"));       /* x3 once: the worse (inf) kept */
    assert_null(strstr(t, "`x0`"));             /* the eleventh: ulp 10, the smallest */
    free(md);
}

/* a kernel of finding counts: "kind:count" pairs */
static json_t *counted(const char *adapter, const char *kernel, const char *desc, const char *kc)
{
    json_t *k = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:[{s:s, s:s, s:{}, s:[], s:[]}]}",
                          "adapter", adapter, "kernel", kernel, "func", "gelu", "dtype", "f32",
                          "verdict", "fail", "description", desc, "suites", "name", "ulp",
                          "verdict", "fail", "metrics", "findings", "finding_counts");
    json_t *counts = json_object_get(json_array_get(json_object_get(k, "suites"), 0),
                                     "finding_counts");
    char kind[64];
    int n, used;
    while (sscanf(kc, " %63[a-z_]:%d%n", kind, &n, &used) == 2) {
        json_array_append_new(counts, json_pack("{s:s, s:s, s:s, s:i}", "kind", kind, "region",
                                                "[0,1)", "severity", "fail", "count", n));
        kc += used;
    }
    return k;
}

/* the companion split: kinds shared, kinds only here, kinds only in the companion; only when
 * the companion named in the description ran, in the same adapter */
static void test_companion(void **state)
{
    (void)state;
    json_t *d = doc_with("onednn", "unused", NULL), *ks = json_object_get(d, "kernels");
    json_array_clear(ks);
    json_array_append_new(ks, counted("onednn", "mm.f32", "post-op; companion kernel el.f32, "
                                      "more", "ulp_exceeded:12 signed_zero:1 ftz:3"));
    json_array_append_new(ks, counted("onednn", "el.f32", "plain", "ulp_exceeded:10 "
                                      "special_value:2"));
    json_array_append_new(ks, counted("other", "mm2.f32", "companion kernel el.f32.",
                                      "ftz:1"));
    char *md = render(d, 0);
    const char *t = strstr(md, "### Beside its companion `el.f32`");
    assert_non_null(t);
    has(t, "- shared with `el.f32`: none\n");
    has(t, "- more here than in the companion: `ulp_exceeded` (12 here, 10 there)\n");
    has(t, "- only in this kernel: `ftz` (3), `signed_zero` (1)\n");
    has(t, "- only in the companion: `special_value` (2)\n");
    assert_null(strstr(t + 1, "### Beside its companion")); /* not for other/mm2.f32 */
    free(md);
}

static void test_baseline(void **state)
{
    (void)state;
    char *md = render(doc_with("libm", "k.f32",
                               "{\"baseline\": {\"found\": true, \"regressions\": 1, "
                               "\"metrics\": [{\"name\": \"max_ulp\", \"old\": 1, \"new\": 2.5,"
                               " \"worse\": true}, {\"name\": \"flush_point\", \"old\": {\"dec\":"
                               " \"-5\"}, \"new\": {\"dec\": \"-5\"}, \"worse\": false}], "
                               "\"new_kinds\": [\"ftz\"]}}"),
                      0);
    has(md, "1 regression.\n");
    has(md, "| max\\_ulp | 1 | 2.5 | **yes** |\n");
    has(md, "| flush\\_point | -5 | -5 | no |\n");
    has(md, "New finding kinds: `ftz`.");
    free(md);
}

/* writes text to a temporary file; returns its name (static buffer) */
static const char *temp_file(const char *text)
{
    static char name[64];
    snprintf(name, sizeof name, "/tmp/test_markdown.%ld.json", (long)getpid());
    FILE *f = fopen(name, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return name;
}

static void load_fails(const char *text, const char *want)
{
    char msg[512], full[600];
    const char *p = temp_file(text);
    json_t *d = rp_result_load(p, msg, sizeof msg);
    unlink(p);
    if (d)
        fail_msg("'%s' loaded", text);
    snprintf(full, sizeof full, "%s: %s", p, want);
    if (strcmp(msg, full) != 0)
        fail_msg("message '%s', want '%s'", msg, full);
}

static void test_load(void **state)
{
    (void)state;
    char msg[512];
    load_fails("{\"schema\": \"gelucheck-result/1\",\n \"kernels\": [}",
               "line 2, column 14: unexpected token near '}'");
    load_fails("[1]", "not a JSON object");
    load_fails("{\"kernels\": []}", "no 'schema' (want 'gelucheck-result/1')");
    load_fails("{\"schema\": \"x\"}", "schema is 'x', want 'gelucheck-result/1'");
    /* a control byte in the value stays on the message's one line (found by fuzz_result) */
    load_fails("{\"schema\": \"gelucheck\\result/1\\n\"}",
               "schema is 'gelucheck\\x0desult/1\\x0a', want 'gelucheck-result/1'");
    load_fails("{\"schema\": \"gelucheck-result/1\"}", "no 'kernels'");
    load_fails("{\"schema\": \"gelucheck-result/1\", \"kernels\": {}}",
               "'kernels' is not an array");
    load_fails("{\"schema\": \"gelucheck-result/1\", \"kernels\": [{\"adapter\": \"a\", "
               "\"kernel\": \"k\", \"func\": \"gelu\", \"verdict\": \"pass\", \"suites\": []}]}",
               "kernels[0]: no 'dtype'");
    load_fails("{\"schema\": \"gelucheck-result/1\", \"kernels\": [{\"adapter\": \"a\", "
               "\"kernel\": \"k\", \"func\": \"gelu\", \"dtype\": 1, \"verdict\": \"pass\", "
               "\"suites\": []}]}",
               "kernels[0]: 'dtype' is not a string");
    load_fails("{\"schema\": \"gelucheck-result/1\", \"kernels\": [{\"adapter\": \"a\", "
               "\"kernel\": \"k\", \"func\": \"gelu\", \"dtype\": \"f32\", \"verdict\": \"pass\", "
               "\"suites\": [{\"name\": \"ulp\", \"verdict\": \"pass\", \"findings\": []}]}]}",
               "kernels[0].suites[0]: no 'metrics'");
    assert_null(rp_result_load("/nonexistent/r.json", msg, sizeof msg));
    assert_string_equal(msg, "/nonexistent/r.json: cannot read: No such file or directory");
    const char *p = temp_file("{\"schema\": \"gelucheck-result/1\", \"kernels\": []}");
    json_t *d = rp_result_load(p, msg, sizeof msg);
    unlink(p);
    assert_non_null(d);
    json_decref(d);
}

static void test_files(void **state)
{
    (void)state;
    char dir[128], sub[400], file[256], msg[512], buf[64];
    snprintf(dir, sizeof dir, "/tmp/test_markdown.%ld.d", (long)getpid());
    snprintf(sub, sizeof sub, "%s/a//b/", dir);
    assert_int_equal(rp_mkdirs(sub, msg, sizeof msg), 0);
    assert_int_equal(rp_mkdirs(sub, msg, sizeof msg), 0); /* again: already there */
    snprintf(file, sizeof file, "%s/a/t.txt", dir);
    assert_int_equal(rp_write_text(file, "one\ntwo\n", msg, sizeof msg), 0);
    FILE *f = fopen(file, "r");
    assert_non_null(f);
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    assert_string_equal(buf, "one\ntwo\n");
    assert_int_not_equal(rp_mkdirs(file, msg, sizeof msg), 0); /* a file, not a folder */
    assert_non_null(strstr(msg, "a file of that name exists"));
    snprintf(sub, sizeof sub, "%s/x", file);
    assert_int_not_equal(rp_mkdirs(sub, msg, sizeof msg), 0);
    assert_non_null(strstr(msg, "Not a directory"));
    snprintf(sub, sizeof sub, "%s/none/t.txt", dir);
    assert_int_not_equal(rp_write_text(sub, "x", msg, sizeof msg), 0);
    assert_non_null(strstr(msg, "No such file or directory"));
    unlink(file);
    snprintf(sub, sizeof sub, "%s/a/b", dir);
    rmdir(sub);
    snprintf(sub, sizeof sub, "%s/a", dir);
    rmdir(sub);
    rmdir(dir);
}

static int roundtrip(const char *a, const char *b)
{
    json_error_t e;
    json_t *ja = json_load_file(a, 0, &e), *jb = json_load_file(b, 0, &e);
    int same = ja && jb && json_equal(ja, jb);
    if (!same)
        fprintf(stderr, "test_markdown: '%s' and '%s' differ (or do not load)\n", a, b);
    json_decref(ja);
    json_decref(jb);
    return same ? 0 : 1;
}

int main(int argc, char **argv)
{
    if (argc == 4 && strcmp(argv[1], "roundtrip") == 0)
        return roundtrip(argv[2], argv[3]);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_escaping),   cmocka_unit_test(test_plot_links),
        cmocka_unit_test(test_run_command), cmocka_unit_test(test_run_command_names),
        cmocka_unit_test(test_worst),
        cmocka_unit_test(test_baseline),   cmocka_unit_test(test_companion),   cmocka_unit_test(test_load),
        cmocka_unit_test(test_files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
