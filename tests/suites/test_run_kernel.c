/* gs_run_kernel (suites/run.c) and the result document (reports/): the kernel object's members
 * and their order, verdict aggregation over suites, the error path, and the result's verdict,
 * exit code, totals and atomic writing.  FIXTURE_CR is the correctly rounded plug-in
 * (tests/suites/fixture_cr.c). */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
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

static const char *str(const json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s ? s : "";
}

/* Runs kernel `name` of adapter `spec` on one thread with the suites of mask under policy. */
static json_t *run(const char *spec, const char *name, unsigned mask, const char *policy,
                   int *internal)
{
    struct gc_open_options opt = GC_OPEN_OPTIONS_INIT;
    struct gc_adapter *a = NULL;
    struct gs_config cfg;
    char msg[512];
    double wall = -1;

    assert_int_equal(gc_adapter_open(spec, &opt, &a, msg, sizeof msg), GC_OK);
    const struct gc_kernel *k = NULL;
    for (size_t i = 0; i < a->n_kernels; i++)
        if (strcmp(a->kernels[i].name, name) == 0)
            k = &a->kernels[i];
    assert_non_null(k);
    gs_config_init(&cfg);
    cfg.suites = mask;
    cfg.samples = 2000;
    cfg.policy = gs_policy_builtin(policy);
    const struct gc_kernel *ks[1] = { k };
    struct gs_target t = { ks, 1, spec, NULL };
    json_t *o = gs_run_kernel(&cfg, &t, internal, &wall);
    assert_true(wall >= 0);
    gc_adapter_close(a);
    return o;
}

/* The members of a kernel object, in this order (reports.h, docs/design.md section 8). */
static void assert_keys(const json_t *o, const char *const *keys, size_t n)
{
    const char *key;
    json_t *v;
    size_t i = 0;
    json_object_foreach((json_t *)o, key, v) {
        assert_true(i < n);
        assert_string_equal(key, keys[i]);
        i++;
    }
    assert_int_equal(i, n);
}

static void test_fixture_passes(void **state)
{
    (void)state;
    int internal = -1;
    json_t *o = run(FIXTURE_CR, "gelu.f32", (1u << GS_SUITE_SPECIAL) | (1u << GS_SUITE_TAIL),
                    "strict", &internal);
    static const char *const keys[] = { "adapter", "kernel", "id", "description", "func",
                                        "dtype", "verdict", "fingerprint", "targets", "suites" };
    assert_keys(o, keys, sizeof keys / sizeof keys[0]);
    assert_int_equal(internal, 0);
    assert_string_equal(str(o, "adapter"), FIXTURE_CR);
    assert_string_equal(str(o, "kernel"), "gelu.f32");
    assert_string_equal(str(o, "func"), "gelu");
    assert_string_equal(str(o, "dtype"), "f32");
    assert_string_equal(str(o, "verdict"), "pass");
    /* the fingerprint suite was not run */
    assert_string_equal(str(json_object_get(o, "fingerprint"), "detected"), "n/a");
    json_t *s = json_object_get(o, "suites");
    assert_int_equal(json_array_size(s), 2);
    assert_string_equal(str(json_array_get(s, 0), "name"), "special");
    assert_string_equal(str(json_array_get(s, 1), "name"), "tail");
    static const char *const skeys[] = { "name", "verdict", "points", "inputs", "metrics",
                                         "finding_counts", "findings" };
    for (size_t i = 0; i < 2; i++) {
        json_t *e = json_array_get(s, i);
        assert_keys(e, skeys, sizeof skeys / sizeof skeys[0]);
        assert_string_equal(str(e, "verdict"), "pass");
        assert_true(json_integer_value(json_object_get(e, "points")) > 0);
        assert_int_equal(json_array_size(json_object_get(e, "findings")), 0);
    }
    json_decref(o);
}

static void test_no_suite_is_skip(void **state)
{
    (void)state;
    int internal = -1;
    json_t *o = run("libm", "erf1p.f32", 0, "default", &internal);
    assert_string_equal(str(o, "verdict"), "skip");
    assert_int_equal(json_array_size(json_object_get(o, "suites")), 0);
    json_decref(o);
}

/* One failing suite fails the kernel even beside a passing one. */
static void test_mutant_fails(void **state)
{
    (void)state;
    int internal = -1;
    json_t *o = run("mutants", "nan_neginf.f32",
                    (1u << GS_SUITE_SPECIAL) | (1u << GS_SUITE_VECTOR), "default", &internal);
    assert_string_equal(str(o, "verdict"), "fail");
    json_t *s = json_object_get(o, "suites");
    assert_string_equal(str(json_array_get(s, 0), "verdict"), "fail");
    assert_string_equal(str(json_array_get(s, 1), "verdict"), "pass");
    json_t *c = json_array_get(json_object_get(json_array_get(s, 0), "finding_counts"), 0);
    assert_string_equal(str(c, "kind"), "special_value");
    json_decref(o);
}

/* A context that cannot be prepared (no policy): the kernel is an error with the message. */
static void test_ctx_error(void **state)
{
    (void)state;
    struct gc_open_options opt = GC_OPEN_OPTIONS_INIT;
    struct gc_adapter *a = NULL;
    struct gs_config cfg;
    char msg[256];
    int internal = -1;
    double wall;

    assert_int_equal(gc_adapter_open("libm", &opt, &a, msg, sizeof msg), GC_OK);
    gs_config_init(&cfg); /* policy NULL */
    const struct gc_kernel *ks[1] = { &a->kernels[0] };
    struct gs_target t = { ks, 1, "libm", NULL };
    json_t *o = gs_run_kernel(&cfg, &t, &internal, &wall);
    assert_string_equal(str(o, "verdict"), "error");
    assert_true(strlen(str(o, "error")) > 0);
    assert_int_equal(internal, 0);
    json_decref(o);
    gc_adapter_close(a);
}

/* A made-up kernel object with a verdict and one finding count of a kind. */
static json_t *fake_kernel(const char *adapter, const char *name, const char *verdict,
                           const char *kind, long long count)
{
    json_t *counts = json_array();
    if (kind)
        json_array_append_new(counts, json_pack("{s:s, s:s, s:I, s:s}", "kind", kind, "region",
                                                "none", "count", (json_int_t)count, "severity",
                                                "fail"));
    return json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:[{s:s, s:o}]}", "adapter", adapter,
                     "kernel", name, "description", "", "func", "gelu", "dtype", "f32",
                     "verdict", verdict, "suites", "name", "ulp", "finding_counts", counts);
}

static json_t *new_doc(struct gs_config *cfg)
{
    static const char *const cmd[] = { "gelucheck", "run" };
    gs_config_init(cfg);
    cfg->policy = gs_policy_builtin("default");
    struct rp_meta m = { "0.1.0", cmd, 2, cfg };
    json_t *d = rp_result_new(&m);
    assert_non_null(d);
    return d;
}

/* Exit codes, docs/design.md section 7: 4 > 3 > 1 > 0. */
static void test_result_exit_codes(void **state)
{
    (void)state;
    struct gs_config cfg;
    struct { const char *v1, *v2; int adapter_error, internal, code; const char *verdict; }
    rows[] = {
        { "pass", "pass", 0, 0, 0, "pass" },
        { "pass", "skip", 0, 0, 0, "pass" },
        { "skip", "skip", 0, 0, 0, "skip" },
        { "pass", "fail", 0, 0, 1, "fail" },
        { "fail", "error", 0, 0, 3, "error" },
        { "pass", "pass", 1, 0, 3, "error" },
        { "fail", "pass", 0, 1, 4, "fail" },
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        json_t *d = new_doc(&cfg);
        struct gc_adapter *a = NULL;
        struct gc_open_options opt = GC_OPEN_OPTIONS_INIT;
        char msg[256];
        assert_int_equal(gc_adapter_open("libm", &opt, &a, msg, sizeof msg), GC_OK);
        assert_int_equal(rp_result_add_adapter(d, "libm", a->ident, a, NULL), 0);
        if (rows[i].adapter_error)
            assert_int_equal(rp_result_add_adapter(d, "x.so", NULL, NULL, "cannot load"), 0);
        rp_result_add_kernel(d, fake_kernel("libm", "a", rows[i].v1, "ulp_exceeded", 5), 0.5);
        rp_result_add_kernel(d, fake_kernel("libm", "b", rows[i].v2, "ulp_exceeded", 2), 0.25);
        int code = rp_result_finish(d, cfg.policy, rows[i].internal, 1.0);
        print_message("row %zu: %s %s -> %d\n", i, rows[i].v1, rows[i].v2, code);
        assert_int_equal(code, rows[i].code);
        assert_int_equal(json_integer_value(json_object_get(d, "exit_code")), rows[i].code);
        assert_string_equal(str(d, "verdict"), rows[i].verdict);
        json_t *t = json_object_get(d, "totals");
        assert_int_equal(json_integer_value(json_object_get(t, "kernels")), 2);
        assert_int_equal(json_integer_value(json_object_get(json_object_get(t, "findings"),
                                                            "ulp_exceeded")), 7);
        json_t *ad = json_array_get(json_object_get(d, "adapters"), 0);
        assert_int_equal(json_integer_value(json_object_get(ad, "kernels")), 2);
        /* one (func, dtype) present: gelu.f32 */
        json_t *vals = json_object_get(json_object_get(d, "policy"), "values");
        assert_int_equal(json_object_size(vals), 1);
        assert_non_null(json_object_get(vals, "gelu.f32"));
        json_t *tk = json_object_get(json_object_get(d, "timing"), "kernels");
        assert_int_equal(json_array_size(tk), 2);
        gc_adapter_close(a);
        json_decref(d);
    }
}

static void test_result_write(void **state)
{
    (void)state;
    struct gs_config cfg;
    char dir[] = "/tmp/gc_run_XXXXXX", path[128], msg[512];
    json_t *d = new_doc(&cfg);

    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/r.json", dir);
    rp_result_finish(d, cfg.policy, 0, 0.0);
    assert_int_equal(rp_write_json(d, path, msg, sizeof msg), 0);
    assert_int_equal(rp_write_json(d, path, msg, sizeof msg), 0); /* replaces */
    json_error_t e;
    json_t *back = json_load_file(path, 0, &e);
    assert_non_null(back);
    assert_true(json_equal(back, d));
    assert_string_equal(str(back, "schema"), "gelucheck-result/1");
    json_decref(back);
    snprintf(msg, sizeof msg, "%s/r.json.tmp.%ld", dir, (long)getpid());
    assert_int_not_equal(access(msg, F_OK), 0); /* no temporary left */
    unlink(path);
    rmdir(dir);
    /* a folder that does not exist: an error naming the file, nothing written */
    snprintf(path, sizeof path, "%s/r.json", dir);
    assert_int_not_equal(rp_write_json(d, path, msg, sizeof msg), 0);
    assert_non_null(strstr(msg, "cannot write '"));
    json_decref(d);
}

int main(void)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fixture_passes),
        cmocka_unit_test(test_no_suite_is_skip),
        cmocka_unit_test(test_mutant_fails),
        cmocka_unit_test(test_ctx_error),
        cmocka_unit_test(test_result_exit_codes),
        cmocka_unit_test(test_result_write),
    };
    return cmocka_run_group_tests_name("suites_run_kernel", tests, NULL, NULL);
}
