/* The plug-in loader (adapters/core) against fixture plug-ins (fixtures/): every broken
 * table rejected with its own message naming the file, the field and the kernel; a good
 * plug-in loaded, listed, evaluated and closed; an ABI 2 table walked by its kernel_size; a
 * failing open and a failing eval reported with last_error's text.  FX_* are the fixtures'
 * paths (registry.cmake). */
#include <dlfcn.h>
#include <fenv.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#if defined(__SSE__) || defined(__x86_64__)
#include <xmmintrin.h>
#endif

#include <cmocka.h>

#include "adapter.h"

struct reject {
    const char *why;  /* the defect */
    const char *path; /* the fixture */
    enum gc_status st;
    const char *want; /* substring of the message, after "plug-in 'PATH': " */
};

static const struct reject rejects[] = {
    { "no entry symbol", FX_NOSYM, GC_E_LOAD, "undefined symbol gelucheck_plugin_entry" },
    { "entry returns NULL", FX_BAD_ENTRY_NULL, GC_E_INVALID,
      "gelucheck_plugin_entry(1) returned NULL (the plug-in cannot serve ABI 1)" },
    { "abi_version 0", FX_BAD_ABI0, GC_E_INVALID,
      "abi_version 0 is not a plug-in ABI version (1 or later)" },
    { "struct_size too small", FX_BAD_STRUCT_SIZE, GC_E_INVALID,
      "struct_size 12 is smaller than ABI 1's struct gelucheck_plugin (" },
    { "kernel_size too small", FX_BAD_KERNEL_SIZE, GC_E_INVALID,
      "kernel_size 16 is smaller than ABI 1's struct gelucheck_kernel (" },
    { "kernel_size misaligned", FX_BAD_KERNEL_SIZE_ODD, GC_E_INVALID,
      "kernel_size 33 is not a multiple of the alignment of struct gelucheck_kernel" },
    { "kernel_size absurd", FX_BAD_KERNEL_SIZE_HUGE, GC_E_INVALID,
      "kernel_size 100000 is absurd (more than 4096 bytes)" },
    { "name NULL", FX_BAD_NAME_NULL, GC_E_INVALID, "': name is NULL" },
    { "version NULL", FX_BAD_VERSION_NULL, GC_E_INVALID, "': version is NULL" },
    { "no kernels", FX_BAD_N_ZERO, GC_E_INVALID, "n_kernels 0 is not allowed" },
    { "n_kernels absurd", FX_BAD_N_HUGE, GC_E_INVALID,
      "n_kernels 1000000 is absurd (more than 100000)" },
    { "kernels NULL", FX_BAD_NULL_KERNELS, GC_E_INVALID, "kernels is NULL (n_kernels is 3)" },
    { "kernel name NULL", FX_BAD_KNAME_NULL, GC_E_INVALID, "kernel 1: name is NULL" },
    { "illegal kernel name", FX_BAD_KNAME_ILLEGAL, GC_E_INVALID,
      "kernel 1: name 'gelu f32' is not a kernel name ([A-Za-z0-9_.-]+, 1 to 128 characters)" },
    { "duplicate kernel name", FX_BAD_DUP, GC_E_INVALID,
      "kernel 2 'gelu.f64': duplicate name (kernel 0 has it too)" },
    { "unknown func", FX_BAD_FUNC, GC_E_INVALID,
      "kernel 2 'erf.f32': func 12 is not one of gelu=1, gelu_tanh=2, gelu_sigmoid=3, "
      "gelu_grad=4, gelu_tanh_grad=5, normcdf=6, normpdf=7, erf=8, erfc=9" },
    { "unknown dtype", FX_BAD_DTYPE, GC_E_INVALID,
      "kernel 2 'erf.f32': dtype 7 is not one of f64=1, f32=2, f16=3, bf16=4" },
    { "eval NULL", FX_BAD_EVAL_NULL, GC_E_INVALID, "kernel 2 'erf.f32': eval is NULL" },
    { "no such file", "/nonexistent/libnothing.so", GC_E_LOAD,
      "cannot open shared object file" },
};

/* Each defect: the status, one line, "plug-in 'PATH': " first, then the specific text. */
static void test_rejects(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof rejects / sizeof rejects[0]; i++) {
        const struct reject *r = &rejects[i];
        struct gc_adapter *a = (struct gc_adapter *)&a; /* not NULL: a failure must clear it */
        char msg[1024], head[1100];
        enum gc_status st = gc_adapter_open(r->path, NULL, &a, msg, sizeof msg);
        snprintf(head, sizeof head, "plug-in '%s': ", r->path);
        if (st != r->st || a || strncmp(msg, head, strlen(head)) || !strstr(msg, r->want) ||
            strchr(msg, '\n'))
            fail_msg("%s: status %d (want %d), message '%s', want '%s...%s'", r->why, st, r->st,
                     msg, head, r->want);
    }
}

/* Counters the good fixture exports, read through a handle of our own on the same file. */
struct fx_counters {
    void *dl;
    int *live, *opens;
    char *options;
};

static void counters(struct fx_counters *c, const char *path)
{
    c->dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    assert_non_null(c->dl);
    c->live = dlsym(c->dl, "gcfx_live");
    c->opens = dlsym(c->dl, "gcfx_opens");
    c->options = dlsym(c->dl, "gcfx_options");
    assert_non_null(c->live);
}

static void test_good(void **state)
{
    (void)state;
    struct gc_open_options opt = GC_OPEN_OPTIONS_INIT;
    struct fx_counters c;
    struct gc_adapter *a;
    char msg[512];
    static const char *const names[] = { "gelu.f64", "half.f32", "fpenv.f64", "neg.f16",
                                         "neg.bf16" };
    static const size_t sizes[] = { 8, 4, 8, 2, 2 };

    counters(&c, FX_GOOD);
    opt.options = "alpha=1";
    opt.in_process = 1; /* the test counts open() and close() in the fixture as loaded here:
                           in-process behaviour (the worker's copy is tests/adapters/
                           test_isolation.c's) */
    assert_int_equal(gc_adapter_open(FX_GOOD, &opt, &a, msg, sizeof msg), GC_OK);
    assert_int_equal(*c.opens, 1); /* open() once, with the options */
    assert_int_equal(*c.live, 1);
    assert_string_equal(c.options, "alpha=1");
    assert_int_equal(a->kind, GC_ADAPTER_PLUGIN);
    assert_string_equal(a->name, "goodfx");
    assert_string_equal(a->version, "1.2.3");
    assert_string_equal(a->spec, FX_GOOD);
    assert_int_equal(a->n_kernels, 5);
    for (size_t i = 0; i < 5; i++) {
        assert_string_equal(a->kernels[i].name, names[i]);
        assert_int_equal(a->kernels[i].elem_size, sizes[i]);
        assert_ptr_equal(a->kernels[i].adapter, a);
        assert_int_equal(a->kernels[i].index, i);
    }
    assert_string_equal(a->kernels[1].description, ""); /* NULL in the table */
    assert_int_equal(a->kernels[3].func, GELUREF_ERF);
    assert_int_equal(a->kernels[4].dtype, GELUREF_BF16);

    /* GELU(-1) = -0.15865525393145705, GELU(1) = 0.8413447460685429 (docs/design.md 2); the eval
     * also checks it got the ctx open() set */
    double x[3] = { -1, 0, 1 }, y[3];
    assert_int_equal(gc_kernel_eval(&a->kernels[0], x, y, 3, msg, sizeof msg), GC_OK);
    assert_true(fabs(y[0] - -0.15865525393145705) < 1e-15);
    assert_true(fabs(y[2] - 0.8413447460685429) < 1e-15);
    assert_int_equal(gc_kernel_eval(&a->kernels[0], x, x, 3, msg, sizeof msg), GC_OK);
    assert_true(x[1] == 0 && x[2] == y[2]); /* in place */
    assert_int_equal(gc_kernel_eval(&a->kernels[0], NULL, NULL, 0, msg, sizeof msg), GC_OK);
    uint16_t h[2] = { 0x3c00, 0x8001 };
    assert_int_equal(gc_kernel_eval(&a->kernels[3], h, h, 2, msg, sizeof msg), GC_OK);
    assert_true(h[0] == 0xbc00 && h[1] == 0x0001);

    /* the host sets round-to-nearest, FTZ and DAZ off before each eval (docs/design.md 5.1) */
    fesetround(FE_UPWARD);
#if defined(__SSE__) || defined(__x86_64__)
    unsigned csr = _mm_getcsr();
    _mm_setcsr(csr | 0x8040u);
#endif
    double env[2] = { 0, 0 };
    enum gc_status st = gc_kernel_eval(&a->kernels[2], env, env, 2, msg, sizeof msg);
    fesetround(FE_TONEAREST);
#if defined(__SSE__) || defined(__x86_64__)
    _mm_setcsr(csr);
#endif
    assert_int_equal(st, GC_OK);
    assert_true(env[0] == 1 && env[1] == 1);

    gc_adapter_close(a);
    assert_int_equal(*c.live, 0); /* close() called with the ctx */
    dlclose(c.dl);
}

/* An "ABI 2" plug-in: larger structs, kernels walked by its kernel_size. */
static void test_abi2(void **state)
{
    (void)state;
    struct gc_adapter *a;
    char msg[512];

    assert_int_equal(gc_adapter_open("plugin:" FX_ABI2, NULL, &a, msg, sizeof msg), GC_OK);
    assert_string_equal(a->name, "abi2fx");
    assert_string_equal(a->spec, "plugin:" FX_ABI2);
    assert_int_equal(a->n_kernels, 3);
    assert_string_equal(a->kernels[0].name, "k0.f64");
    assert_string_equal(a->kernels[1].name, "k1.f32");
    assert_string_equal(a->kernels[2].name, "k2.bf16");
    assert_string_equal(a->kernels[1].description, "second");
    assert_int_equal(a->kernels[1].func, GELUREF_ERF);
    assert_int_equal(a->kernels[2].func, GELUREF_NORMCDF);
    assert_int_equal(a->kernels[2].dtype, GELUREF_BF16);
    double d = 5;
    float f = 5;
    uint16_t b = 5;
    assert_int_equal(gc_kernel_eval(&a->kernels[0], &d, &d, 1, msg, sizeof msg), GC_OK);
    assert_int_equal(gc_kernel_eval(&a->kernels[1], &f, &f, 1, msg, sizeof msg), GC_OK);
    assert_int_equal(gc_kernel_eval(&a->kernels[2], &b, &b, 1, msg, sizeof msg), GC_OK);
    assert_true(d == 5 && f == 6 && b == 7); /* each kernel's own eval ran */
    gc_adapter_close(a);
}

/* open() fails: its last_error text (made one line), and the ctx it set is closed. */
static void test_open_fails(void **state)
{
    (void)state;
    struct gc_open_options opt = GC_OPEN_OPTIONS_INIT;
    struct fx_counters c;
    struct gc_adapter *a;
    char msg[512], want[600];

    counters(&c, FX_FAIL);
    opt.options = "fail-open";
    assert_int_equal(gc_adapter_open(FX_FAIL, &opt, &a, msg, sizeof msg), GC_E_LOAD);
    assert_null(a);
    snprintf(want, sizeof want, "plug-in '%s': open failed (returned 5): options 'fail-open' "
             "refused?second line", FX_FAIL);
    assert_string_equal(msg, want);
    assert_int_equal(*c.live, 0);
    dlclose(c.dl);
}

/* eval fails: GC_E_EVAL with the kernel's name and last_error's text; the adapter stays
 * usable. */
static void test_eval_fails(void **state)
{
    (void)state;
    struct gc_adapter *a;
    char msg[512], want[600];
    float x[3] = { 1, 2, 3 }, y[3];

    assert_int_equal(gc_adapter_open(FX_FAIL, NULL, &a, msg, sizeof msg), GC_OK);
    assert_int_equal(gc_kernel_eval(&a->kernels[0], x, y, 2, msg, sizeof msg), GC_OK);
    assert_int_equal(gc_kernel_eval(&a->kernels[0], x, y, 3, msg, sizeof msg), GC_E_EVAL);
    snprintf(want, sizeof want, "plug-in '%s': kernel 'picky.f32': eval of 3 elements failed "
             "(returned 7): batch of 3 is more than 2 elements", FX_FAIL);
    assert_string_equal(msg, want);
    assert_int_equal(gc_kernel_eval(&a->kernels[0], x, y, 1, msg, sizeof msg), GC_OK);
    assert_true(y[0] == 1);
    gc_adapter_close(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rejects),
        cmocka_unit_test(test_good),
        cmocka_unit_test(test_abi2),
        cmocka_unit_test(test_open_fails),
        cmocka_unit_test(test_eval_fails),
    };
    return cmocka_run_group_tests_name("adapters_plugin_loader", tests, NULL, NULL);
}
