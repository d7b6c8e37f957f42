/* The file names of a kernel's plots (reports/slug.c, rp_kernel_slug): the identity as it is
 * where it is a plain name, a hash where it had to be cut or cleaned, never a hidden file; and
 * the plots of kernels whose adapter specs share a long prefix written to files of their own
 * and linked from their own sections (rp_plots_write, rp_markdown). */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "reports.h"

/* A kernel object with these members (id NULL: none). */
static json_t *kernel(const char *adapter, const char *name, const char *id)
{
    json_t *k = json_pack("{s:s, s:s, s:s, s:s}", "adapter", adapter, "kernel", name, "func",
                          "gelu", "dtype", "f32");
    if (id)
        json_object_set_new(k, "id", json_string(id));
    return k;
}

static void stem_of(const char *adapter, const char *name, const char *id, char *b)
{
    json_t *k = kernel(adapter, name, id);
    rp_kernel_slug(k, b, RP_SLUG_SIZE);
    json_decref(k);
}

/* Only [A-Za-z0-9_.-], neither '.' nor '-' first. */
static int visible_name(const char *s)
{
    return *s && *s != '.' && *s != '-' &&
           strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-") ==
               strlen(s);
}

static const struct {
    const char *adapter, *kernel, *id;
    const char *want;   /* the whole stem, or its part before the hash */
    int hashed;         /* "-" and 12 hex digits follow want */
    const char *why;
} cases[] = {
    { "libm", "erf1p.f32", NULL, "libm-erf1p.f32", 0, "a built-in: the names as they are" },
    { "./x.so", "k.f32", "x/k.f32", "x-k.f32", 0, "the id, not the spec" },
    { "./x.so", "k.f32", NULL, "__x.so-k.f32", 1, "a spec with '/' and a leading '.'" },
    { "/opt/lib k.so", "gelu.f32", NULL, "_opt_lib_k.so-gelu.f32", 1, "bytes replaced" },
    { "a-b", "c", NULL, "a-b-c", 1, "ADAPTER with '-': a-b/c and a/b-c must differ" },
    { "a", "b-c", NULL, "a-b-c", 0, "KERNEL with '-' is still unambiguous" },
    { "x", "k", ".hidden/k", "_hidden-k", 1, "an id starting with '.'" },
    { "x", "k", "noslash", "noslash", 1, "an id without '/'" },
    { "", "", NULL, "_", 1, "empty names: '/' as '-' first, then '_'" },
};

static void stems(void **state)
{
    (void)state;
    char b[RP_SLUG_SIZE];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        stem_of(cases[i].adapter, cases[i].kernel, cases[i].id, b);
        size_t n = strlen(cases[i].want);
        int ok = strncmp(b, cases[i].want, n) == 0 && visible_name(b) &&
                 (cases[i].hashed ? strlen(b) == n + 13 && b[n] == '-' &&
                                        strspn(b + n + 1, "0123456789abcdef") == 12
                                  : b[n] == '\0');
        if (!ok)
            fail_msg("row %zu (%s): got '%s', want '%s'%s", i, cases[i].why, b, cases[i].want,
                     cases[i].hashed ? " + hash" : "");
    }
    /* a-b/c and a/b-c, ./x.so and ._x.so (one byte replaced): each pair two stems */
    char c[RP_SLUG_SIZE];
    stem_of("a-b", "c", NULL, b);
    stem_of("a", "b-c", NULL, c);
    assert_string_not_equal(b, c);
    stem_of("./x.so", "k", NULL, b);
    stem_of("._x.so", "k", NULL, c);
    assert_string_not_equal(b, c);
    /* a small buffer: cut to size - 1 */
    json_t *k = kernel("libm", "erf1p.f32", NULL);
    rp_kernel_slug(k, b, 8);
    assert_string_equal(b, "libm-er");
    json_decref(k);
}

/* Two specs 300 bytes long that share their first 200: two short, visible stems. */
static void long_specs(void **state)
{
    (void)state;
    char s1[301], s2[301], b1[RP_SLUG_SIZE], b2[RP_SLUG_SIZE];
    memset(s1, 'a', 300);
    s1[0] = '.';
    s1[300] = '\0';
    memcpy(s2, s1, sizeof s2);
    s2[250] = 'b';
    stem_of(s1, "k.f32", NULL, b1);
    stem_of(s2, "k.f32", NULL, b2);
    assert_string_not_equal(b1, b2);
    assert_true(visible_name(b1) && visible_name(b2));
    assert_true(strlen(b1) <= 113 && strlen(b2) <= 113);
    /* the same kernel name in another dtype or func: another stem too */
    json_t *k = kernel(s1, "k.f32", NULL);
    json_object_set_new(k, "dtype", json_string("f64"));
    rp_kernel_slug(k, b2, sizeof b2);
    assert_string_not_equal(b1, b2);
    json_decref(k);
}

/* A kernel with the data of an ulp and a tail plot. */
static json_t *plotted(const char *adapter)
{
    json_t *k = kernel(adapter, "erf1p.f32", NULL);
    json_object_set_new(k, "verdict", json_string("pass"));
    json_object_set_new(k, "suites", json_loads(
        "[{\"name\": \"ulp\", \"verdict\": \"pass\", \"findings\": [], \"metrics\": {"
        "  \"binades\": [{\"sign\": \"-\", \"exponent\": 2, \"lo\": {\"bits\": \"0xc0ffffff\"},"
        "   \"hi\": {\"bits\": \"0xc0800000\"}, \"max_ulp\": 1.5, \"nonfinite\": 0}]}},"
        " {\"name\": \"tail\", \"verdict\": \"pass\", \"findings\": [], \"metrics\": {"
        "  \"curve\": [[-1.0, -0.15, -0.15], [-6.0, 0.0, -1e-9]]}}]", 0, NULL));
    return k;
}

/* rp_plots_write and rp_markdown for kernels whose specs share their first 200 bytes and for
 * './x.so': one set of files each, none hidden, each section linking its own. */
static void plot_files(void **state)
{
    (void)state;
    char dir[] = "/tmp/test_slug.XXXXXX", msg[512], long1[260], long2[260];
    assert_non_null(mkdtemp(dir));
    memset(long1, 'p', 259);
    memcpy(long1, "plugin:/", 8);
    long1[259] = '\0';
    memcpy(long2, long1, sizeof long2);
    long2[230] = 'q';
    const char *specs[] = { long1, long2, "./x.so" };
    json_t *doc = json_pack("{s:s, s:[]}", "schema", RP_SCHEMA, "kernels");
    unsigned masks[3];
    char stem[3][RP_SLUG_SIZE];
    for (int i = 0; i < 3; i++) {
        json_t *k = plotted(specs[i]);
        rp_kernel_slug(k, stem[i], sizeof stem[i]);
        assert_int_equal(rp_plots_write(k, dir, &masks[i], msg, sizeof msg), 0);
        assert_int_equal(masks[i] & (RP_PLOT_ULP | RP_PLOT_TAIL), RP_PLOT_ULP | RP_PLOT_TAIL);
        json_array_append_new(json_object_get(doc, "kernels"), k);
    }
    assert_string_not_equal(stem[0], stem[1]);
    /* every file visible, and each kernel's files its own */
    DIR *d = opendir(dir);
    assert_non_null(d);
    int files = 0, mine[3] = { 0 };
    for (struct dirent *e; (e = readdir(d));) {
        char path[600];
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        if (e->d_name[0] == '.')
            fail_msg("a hidden plot file: '%s'", e->d_name);
        files++;
        for (int i = 0; i < 3; i++)
            mine[i] += strncmp(e->d_name, stem[i], strlen(stem[i])) == 0 &&
                       e->d_name[strlen(stem[i])] == '-';
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        unlink(path);
    }
    closedir(d);
    rmdir(dir);
    int want = 0;
    for (int i = 0; i < 3; i++) {
        int n = __builtin_popcount(masks[i]);
        if (mine[i] != n)
            fail_msg("kernel %d (stem '%s'): %d files, want %d", i, stem[i], mine[i], n);
        want += n;
    }
    assert_int_equal(files, want);
    /* report.md: each section links its own stem's plots */
    char *md = rp_markdown(doc, masks);
    assert_non_null(md);
    for (int i = 0; i < 3; i++) {
        char link[512];
        snprintf(link, sizeof link, "](plots/%s-ulp.svg)", stem[i]);
        const char *p = strstr(md, link);
        if (!p || strstr(p + 1, link))
            fail_msg("report.md links '%s' %s", link, p ? "twice" : "nowhere");
    }
    free(md);
    json_decref(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(stems),
        cmocka_unit_test(long_specs),
        cmocka_unit_test(plot_files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
