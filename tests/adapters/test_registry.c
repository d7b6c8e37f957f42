/* The adapter registry (adapters/core): spec resolution, the built-in table, and the helpers
 * of adapter.h.  FX_DIR and FX_GOOD_FILE locate the good fixture plug-in (registry.cmake). */
#define _POSIX_C_SOURCE 200809L /* chdir, getcwd */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "adapter.h"

struct spec_case {
    const char *spec;
    enum gc_status st;
    const char *want; /* the whole message */
};

#define BUILTINS                                                                              \
    "libm, mutants, sleef, onednn, onnxruntime, onnxruntime-web, torch, musl, ggml, tfjs, gsl, " \
    "boost, scipy"
static const struct spec_case bad_specs[] = {
    { "", GC_E_SPEC, "empty adapter spec" },
    { "nosuch", GC_E_SPEC,
      "unknown adapter 'nosuch' (built-in: " BUILTINS "; or plugin:PATH, "
      "PATH.so, exec:COMMAND, onnx:MODEL.onnx, scan:MODEL.onnx, torch-module:FILE.pt)" },
    { "LIBM", GC_E_SPEC,
      "unknown adapter 'LIBM' (built-in: " BUILTINS "; or plugin:PATH, "
      "PATH.so, exec:COMMAND, onnx:MODEL.onnx, scan:MODEL.onnx, torch-module:FILE.pt)" },
    { "lib.so.1", GC_E_SPEC,
      "unknown adapter 'lib.so.1' (built-in: " BUILTINS "; or plugin:PATH, "
      "PATH.so, exec:COMMAND, onnx:MODEL.onnx, scan:MODEL.onnx, torch-module:FILE.pt)" },
    { "exec:", GC_E_SPEC, "adapter 'exec:': nothing after the 'exec:'" },
    { "plugin:", GC_E_SPEC, "adapter 'plugin:': nothing after the 'plugin:'" },
    { "onnx:", GC_E_SPEC, "adapter 'onnx:': nothing after the 'onnx:'" },
    { "scan:", GC_E_SPEC, "adapter 'scan:': nothing after the 'scan:'" },
    { "onnx:m.onnx?opt=fast", GC_E_SPEC, "adapter 'onnx:m.onnx?opt=fast': unknown optimization "
      "level 'fast' (opt=): expected disabled, basic, extended, layout or all" },
    { "onnx:m.onnx?func=gelu&func=erf", GC_E_SPEC, "adapter 'onnx:m.onnx?func=gelu&func=erf': "
      "bad option 'func=erf' after the model path (expected func=F, opt=LEVEL or runtime=RT, "
      "each at most once, joined by '&')" },
    { "onnx:m.onnx?opt=all&x=1", GC_E_SPEC, "adapter 'onnx:m.onnx?opt=all&x=1': bad option "
      "'x=1' after the model path (expected func=F, opt=LEVEL or runtime=RT, each at most once, "
      "joined by '&')" },
    { "onnx:m.onnx?func=nosuch", GC_E_SPEC, "adapter 'onnx:m.onnx?func=nosuch': unknown func "
      "'nosuch' (func=)" },
    { "onnx:?opt=all", GC_E_SPEC, "adapter 'onnx:?opt=all': no model path before the '?'" },
    { "scan:m.onnx?func=gelu", GC_E_SPEC, "adapter 'scan:m.onnx?func=gelu': a scan: model "
      "takes no func= (each site declares its own formula)" },
};

static void test_bad_specs(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof bad_specs / sizeof bad_specs[0]; i++) {
        const struct spec_case *c = &bad_specs[i];
        struct gc_adapter *a;
        char msg[512];
        enum gc_status st = gc_adapter_open(c->spec, NULL, &a, msg, sizeof msg);
        if (st != c->st || a || strcmp(msg, c->want))
            fail_msg("spec '%s': status %d, message '%s'; want %d, '%s'", c->spec, st, msg,
                     c->st, c->want);
    }
    struct gc_adapter *a;
    assert_int_equal(gc_adapter_open(NULL, NULL, &a, NULL, 0), GC_E_SPEC); /* no buffer: fine */
    assert_int_equal(gc_adapter_open("nosuch", NULL, &a, NULL, 0), GC_E_SPEC);
}

/* A PATH.so or plugin:PATH without a '/' is a file in the current folder, never a library
 * searched for on the library path. */
static void test_relative_paths(void **state)
{
    (void)state;
    struct gc_adapter *a;
    char msg[512], cwd[4096];

    assert_non_null(getcwd(cwd, sizeof cwd));
    assert_int_equal(chdir(FX_DIR), 0);
    enum gc_status st1 = gc_adapter_open(FX_GOOD_FILE, NULL, &a, msg, sizeof msg);
    gc_adapter_close(a);
    enum gc_status st2 = gc_adapter_open("plugin:" FX_GOOD_FILE, NULL, &a, msg, sizeof msg);
    gc_adapter_close(a);
    assert_int_equal(chdir("/"), 0);
    enum gc_status st3 = gc_adapter_open(FX_GOOD_FILE, NULL, &a, msg, sizeof msg);
    assert_int_equal(chdir(cwd), 0);
    assert_int_equal(st1, GC_OK);
    assert_int_equal(st2, GC_OK);
    assert_int_equal(st3, GC_E_LOAD);
    assert_non_null(strstr(msg, "plug-in '" FX_GOOD_FILE "': ./" FX_GOOD_FILE ": cannot open"));
}

/* The built-in table: libm and mutants, in every build, open and have kernels; the
 * third-party ones (docs/design.md 5) follow in a fixed order, each either in-process (entry),
 * a subprocess (command) or skipped with a reason: exactly one of the three. */
static void test_builtins(void **state)
{
    (void)state;
    static const char *const names[] = { "libm",  "mutants", "sleef",       "onednn",
                                         "onnxruntime", "onnxruntime-web", "torch", "musl",
                                         "ggml",  "tfjs",    "gsl",   "boost", "scipy" };
    const size_t n = sizeof names / sizeof names[0];

    assert_int_equal(gc_builtin_count(), n);
    assert_null(gc_builtin_get(n));
    for (size_t i = 0; i < n; i++) {
        const struct gc_builtin *b = gc_builtin_get(i);
        assert_string_equal(b->name, names[i]);
        assert_true(strlen(b->summary) > 0);
        assert_int_equal(!!b->entry + !!b->command + !!b->skipped, 1);
        if (b->skipped)
            assert_true(strlen(b->skipped) > 0);
    }
    for (size_t i = 0; i < 2; i++) {
        const struct gc_builtin *b = gc_builtin_get(i);
        struct gc_adapter *a;
        char msg[512];
        assert_non_null(b->entry);
        if (gc_adapter_open(b->name, NULL, &a, msg, sizeof msg) != GC_OK)
            fail_msg("built-in '%s': %s", b->name, msg);
        assert_int_equal(a->kind, GC_ADAPTER_BUILTIN);
        assert_string_equal(a->name, names[i]);
        assert_string_equal(a->spec, names[i]);
        assert_true(a->n_kernels > 0);
        for (size_t k = 0; k < a->n_kernels; k++)
            assert_true(gc_valid_kernel_name(a->kernels[k].name) &&
                        a->kernels[k].elem_size == gc_dtype_size(a->kernels[k].dtype));
        gc_adapter_close(a);
    }
}

static void test_util(void **state)
{
    (void)state;
    char long_name[130];

    assert_true(gc_valid_kernel_name("erf1p.f32"));
    assert_true(gc_valid_kernel_name("A-z_0.9"));
    assert_false(gc_valid_kernel_name(NULL));
    assert_false(gc_valid_kernel_name(""));
    assert_false(gc_valid_kernel_name("gelu f32"));
    assert_false(gc_valid_kernel_name("gelu/f32"));
    assert_false(gc_valid_kernel_name("g\xc3\xa9lu"));
    memset(long_name, 'a', sizeof long_name);
    long_name[128] = '\0';
    assert_true(gc_valid_kernel_name(long_name)); /* 128 characters */
    long_name[128] = 'a';
    long_name[129] = '\0';
    assert_false(gc_valid_kernel_name(long_name));

    assert_int_equal(gc_dtype_size(GELUREF_F64), 8);
    assert_int_equal(gc_dtype_size(GELUREF_F32), 4);
    assert_int_equal(gc_dtype_size(GELUREF_F16), 2);
    assert_int_equal(gc_dtype_size(GELUREF_BF16), 2);
    assert_int_equal(gc_dtype_size((enum geluref_dtype)5), 0);

    assert_null(gc_strdup(NULL));
    char *s = gc_strdup("abc");
    assert_string_equal(s, "abc");
    free(s);

    for (int st = GC_OK; st <= GC_E_NOMEM; st++)
        for (int u = st + 1; u <= GC_E_NOMEM; u++)
            assert_string_not_equal(gc_strerror(st), gc_strerror(u));
    assert_string_equal(gc_strerror((enum gc_status)99), "unknown status");

    struct gc_adapter *a = gc_adapter_alloc(GC_ADAPTER_EXEC, "exec:x", 3);
    assert_non_null(a);
    assert_int_equal(a->kind, GC_ADAPTER_EXEC);
    assert_string_equal(a->spec, "exec:x");
    assert_int_equal(a->n_kernels, 3);
    assert_true(a->kernels[2].adapter == a && a->kernels[2].index == 2 && !a->kernels[2].name);
    assert_null(a->ops);
    char msg[64];
    assert_int_equal(gc_kernel_eval(&a->kernels[0], NULL, NULL, 0, msg, sizeof msg),
                     GC_E_INVALID); /* no ops */
    gc_adapter_close(a); /* no ops, NULL strings: fine */
    gc_adapter_close(NULL);
    a = gc_adapter_alloc(GC_ADAPTER_EXEC, NULL, 0);
    assert_true(a && a->spec[0] == '\0' && !a->kernels);
    gc_adapter_close(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bad_specs),
        cmocka_unit_test(test_relative_paths),
        cmocka_unit_test(test_builtins),
        cmocka_unit_test(test_util),
    };
    return cmocka_run_group_tests_name("adapters_registry", tests, NULL, NULL);
}
