/* Group examples: adapters/exec/example_adapter.py and the C example (gelucheck_exec_example)
 * through the exec client, their values against the correctly rounded reference.
 *
 * Tolerances, in representable values from RN(f(x)): the formulas are within a few ulp where
 * 1 + erf (or 1 + tanh) does not cancel, so they are checked from x = -1 up, and the erfc
 * form from x = -3 up: erfc(t) amplifies the rounding error of t = -x/sqrt2 by 2t^2 = x^2
 * (57 ulp at x = -10).  That error is the suites' business, not the transport's.  The f32
 * kernels that compute in double and round once are within 1; bf16 from float within 1. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include <geluref.h>

#include "test_exec.h"

struct value_case {
    const char *kernel;
    enum geluref_func func;
    enum geluref_dtype dtype;
    double lo;      /* inputs below lo are left out */
    int64_t steps;  /* the most representable values from the reference */
};

static const struct value_case py_cases[] = {
    { "gelu_erf.f64", GELUREF_GELU, GELUREF_F64, -1, 4 },
    { "gelu_erfc.f64", GELUREF_GELU, GELUREF_F64, -3, 8 },
    { "gelu_tanh.f64", GELUREF_GELU_TANH, GELUREF_F64, -1, 4 },
    { "gelu_erf.f32", GELUREF_GELU, GELUREF_F32, -3, 1 },
    { "gelu_erfc.f32", GELUREF_GELU, GELUREF_F32, -40, 1 },
    { "gelu_tanh.f32", GELUREF_GELU_TANH, GELUREF_F32, -3, 1 },
};

static const struct value_case c_cases[] = {
    { "gelu_erfc.f32", GELUREF_GELU, GELUREF_F32, -3, 8 },
    { "gelu_erf.f64", GELUREF_GELU, GELUREF_F64, -1, 4 },
    { "gelu_erfc.bf16", GELUREF_GELU, GELUREF_BF16, -40, 1 },
};

static const double inputs[] = { -40, -10, -5.5, -3, -1, -0.75, -0.5, -0x1p-20, -0.0, 0.0,
                                  0x1p-20, 0.25, 0.5, 1, 1.5, 3, 5.5, 10, 40 };

/* The dtype's bits of v (rounded to nearest even). */
static uint64_t bits_of(enum geluref_dtype dt, double v)
{
    uint64_t b = 0;
    float f = (float)v;
    uint32_t u;

    if (dt == GELUREF_F64) {
        memcpy(&b, &v, 8);
        return b;
    }
    memcpy(&u, &f, 4);
    if (dt == GELUREF_F32)
        return u;
    return (u + 0x7fffu + ((u >> 16) & 1u)) >> 16; /* bf16; no NaN among the inputs */
}

/* Distance in representable values (+0 and -0 at one place). */
static int64_t steps(enum geluref_dtype dt, uint64_t a, uint64_t b)
{
    int w = dt == GELUREF_F64 ? 64 : dt == GELUREF_F32 ? 32 : 16;
    uint64_t sign = (uint64_t)1 << (w - 1);
    int64_t oa = (int64_t)(a & (sign - 1)), ob = (int64_t)(b & (sign - 1));

    oa = a & sign ? -oa : oa;
    ob = b & sign ? -ob : ob;
    return oa > ob ? oa - ob : ob - oa;
}

static void put(void *buf, size_t w, size_t i, uint64_t v)
{
    if (w == 8)
        ((uint64_t *)buf)[i] = v;
    else if (w == 4)
        ((uint32_t *)buf)[i] = (uint32_t)v;
    else
        ((uint16_t *)buf)[i] = (uint16_t)v;
}

static uint64_t get(const void *buf, size_t w, size_t i)
{
    return w == 8 ? ((const uint64_t *)buf)[i]
           : w == 4 ? ((const uint32_t *)buf)[i] : ((const uint16_t *)buf)[i];
}

static void check_values(struct gc_adapter *a, const struct value_case *c)
{
    const struct gc_kernel *k = exec_kernel(a, c->kernel);
    uint64_t x[N(inputs)], y[N(inputs)];
    size_t n = 0;
    char msg[1024];

    assert_int_equal(k->func, c->func);
    assert_int_equal(k->dtype, c->dtype);
    for (size_t i = 0; i < N(inputs); i++)
        if (inputs[i] >= c->lo)
            put(x, k->elem_size, n++, bits_of(c->dtype, inputs[i]));
    if (gc_kernel_eval(k, x, y, n, msg, sizeof msg) != GC_OK)
        fail_msg("%s: %s", c->kernel, msg);
    for (size_t i = 0; i < n; i++) {
        uint64_t xb = get(x, k->elem_size, i), yb = get(y, k->elem_size, i), want = 0;
        assert_int_equal(geluref_eval(c->func, c->dtype, xb, MPFR_RNDN, &want, NULL, NULL),
                         GELUREF_OK);
        if (steps(c->dtype, yb, want) > c->steps)
            fail_msg("%s(0x%llx) = 0x%llx, reference 0x%llx: %lld steps apart (at most %lld)",
                     c->kernel, (unsigned long long)xb, (unsigned long long)yb,
                     (unsigned long long)want, (long long)steps(c->dtype, yb, want),
                     (long long)c->steps);
    }
}

/* NaN stays NaN, +inf gives +inf: the payload travels bit for bit. */
static void check_specials(struct gc_adapter *a, const char *f64_kernel)
{
    double x[2] = { NAN, INFINITY }, y[2] = { 0, 0 };
    char msg[1024];

    if (gc_kernel_eval(exec_kernel(a, f64_kernel), x, y, 2, msg, sizeof msg) != GC_OK)
        fail_msg("%s", msg);
    assert_true(isnan(y[0]));
    assert_true(y[1] == INFINITY);
}

static struct gc_adapter *open_or_fail(const char *cmd)
{
    struct gc_adapter *a = NULL;
    char msg[1024];

    if (exec_open(cmd, EXEC_SLOW, EXEC_SLOW, &a, msg, sizeof msg) != GC_OK)
        fail_msg("%s", msg);
    return a;
}

static void python_example(void **state)
{
    (void)state;
    if (!exec_python())
        skip();
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s '%s'", exec_python(), EXEC_EXAMPLE_PY);
    struct gc_adapter *a = open_or_fail(cmd);

    assert_int_equal(a->n_kernels, N(py_cases));
    assert_true(strncmp(a->version, "example_adapter.py 1.0 (Python 3.", 33) == 0);
    for (size_t i = 0; i < N(py_cases); i++) {
        assert_true(strlen(exec_kernel(a, py_cases[i].kernel)->description) > 20);
        check_values(a, &py_cases[i]);
    }
    check_specials(a, "gelu_erfc.f64");
    gc_adapter_close(a);
}

static void c_example(void **state)
{
    (void)state;
    struct gc_adapter *a = open_or_fail("'" EXEC_EXAMPLE_C "'");

    assert_int_equal(a->n_kernels, N(c_cases));
    assert_string_equal(a->version, "gelucheck exec example 1.0 (C, libm)");
    for (size_t i = 0; i < N(c_cases); i++)
        check_values(a, &c_cases[i]);
    check_specials(a, "gelu_erf.f64");
    gc_adapter_close(a);
}

/* 2 * 65536 + 3 elements go as three requests and come back in order: y[i] must equal the
 * result of a small batch holding the same x (period 1000, prime to 65536). */
static void big_batch(void **state)
{
    (void)state;
    enum { BIG = 2 * 65536 + 3, PERIOD = 1000 };
    static float x[BIG], y[BIG], xs[PERIOD], ys[PERIOD];
    struct gc_adapter *a = open_or_fail("'" EXEC_EXAMPLE_C "'");
    const struct gc_kernel *k = exec_kernel(a, "gelu_erfc.f32");
    char msg[1024];

    for (size_t i = 0; i < PERIOD; i++)
        xs[i] = (float)i / 100.0f - 5.0f;
    for (size_t i = 0; i < BIG; i++)
        x[i] = xs[i % PERIOD];
    assert_int_equal(gc_kernel_eval(k, xs, ys, PERIOD, msg, sizeof msg), GC_OK);
    if (gc_kernel_eval(k, x, y, BIG, msg, sizeof msg) != GC_OK)
        fail_msg("%s", msg);
    for (size_t i = 0; i < BIG; i++)
        if (memcmp(&y[i], &ys[i % PERIOD], sizeof y[i]) != 0)
            fail_msg("y[%zu] = %a, want %a", i, (double)y[i], (double)ys[i % PERIOD]);
    gc_adapter_close(a);
}

/* The registry hands "exec:COMMAND" to gc_exec_open. */
static void through_registry(void **state)
{
    (void)state;
    struct gc_adapter *a = NULL;
    struct gc_open_options opt = GC_OPEN_OPTIONS_INIT;
    char msg[1024];
    const char *spec = "exec:'" EXEC_EXAMPLE_C "'";

    if (gc_adapter_open(spec, &opt, &a, msg, sizeof msg) != GC_OK)
        fail_msg("%s", msg);
    assert_int_equal(a->kind, GC_ADAPTER_EXEC);
    assert_string_equal(a->spec, spec);
    assert_string_equal(a->name, spec + 5);
    gc_adapter_close(a);
}

int exec_example_tests(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(python_example, exec_setup, exec_teardown),
        cmocka_unit_test_setup_teardown(c_example, exec_setup, exec_teardown),
        cmocka_unit_test_setup_teardown(big_batch, exec_setup, exec_teardown),
        cmocka_unit_test_setup_teardown(through_registry, exec_setup, exec_teardown),
    };
    return cmocka_run_group_tests_name("adapters_exec_examples", tests, NULL, NULL);
}
