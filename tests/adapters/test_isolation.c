/* gelucheck-worker (docs/design.md section 10) against the hostile fixture (fixtures/hostile.c):
 * each crash, exit and hang gives its status and gc_eval_extra (signal, exit status), each
 * stray write its fault kind and offset with whole outputs; a restart brings back the same
 * kernels and a good kernel then evaluates correctly; a plug-in whose entry or open crashes is
 * a load error naming the signal; built-ins give the same bits as in-process, misaligned and in
 * place; the fpenv count comes back.  FX_HOSTILE, FX_HOSTILE_ENTRY: the fixtures' paths. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "adapter.h"

#define N 100

static const struct gc_kernel *kernel(const struct gc_adapter *a, const char *name)
{
    for (size_t i = 0; i < a->n_kernels; i++)
        if (strcmp(a->kernels[i].name, name) == 0)
            return &a->kernels[i];
    fail_msg("no kernel %s", name);
    return NULL;
}

static struct gc_adapter *open_hostile(double batch_s)
{
    struct gc_open_options opt = GC_OPEN_OPTIONS_INIT;
    struct gc_adapter *a = NULL;
    char msg[1024];
    opt.batch_timeout_s = batch_s;
    if (gc_adapter_open(FX_HOSTILE, &opt, &a, msg, sizeof msg) != GC_OK)
        fail_msg("open: %s", msg);
    return a;
}

/* good.f32 computes 2x: checks every element */
static void check_good(const struct gc_adapter *a, size_t n)
{
    float *x = malloc((n + 1) * sizeof *x), *y = malloc((n + 1) * sizeof *y);
    char msg[1024];
    assert_non_null(x);
    assert_non_null(y);
    for (size_t i = 0; i < n + 1; i++)
        x[i] = (float)i - 7.25f;
    /* misaligned (x + 1: 4 mod 64) and out of place, then in place */
    assert_int_equal(gc_kernel_eval(kernel(a, "good.f32"), x + 1, y, n, msg, sizeof msg), GC_OK);
    for (size_t i = 0; i < n; i++)
        assert_true(y[i] == 2.0f * x[i + 1]);
    assert_int_equal(gc_kernel_eval(kernel(a, "good.f32"), x, x, n, msg, sizeof msg), GC_OK);
    for (size_t i = 0; i < n; i++)
        assert_true(x[i] == 2.0f * ((float)i - 7.25f));
    free(x);
    free(y);
}

static void test_table(void **state)
{
    (void)state;
    struct gc_adapter *a = open_hostile(60);
    assert_int_equal(a->kind, GC_ADAPTER_PLUGIN);
    assert_string_equal(a->name, "hostilefx");
    assert_string_equal(a->version, "0.1");
    assert_string_equal(a->spec, FX_HOSTILE);
    assert_int_equal(a->n_kernels, 12);
    for (size_t i = 0; i < a->n_kernels; i++) {
        assert_ptr_equal(a->kernels[i].adapter, a);
        assert_int_equal(a->kernels[i].index, i);
        assert_int_equal(a->kernels[i].elem_size, 4);
        assert_int_equal(a->kernels[i].func, GELUREF_GELU);
        assert_string_equal(a->kernels[i].description, "hostile fixture");
    }
    check_good(a, 5);
    check_good(a, 300000); /* the shared memory grows; never split */
    check_good(a, 0);
    gc_adapter_close(a);
}

struct death {
    const char *kernel;
    enum gc_status st;
    int sig, exit_status; /* what gc_eval_extra must say */
    const char *text;     /* in the message */
};

static const struct death deaths[] = {
    { "segv.f32", GC_E_DIED, SIGSEGV, 0, "was killed by signal 11 (SIGSEGV)" },
    { "abort.f32", GC_E_DIED, SIGABRT, 0, "(SIGABRT)" },
    { "sigfpe.f32", GC_E_DIED, SIGFPE, 0, "(SIGFPE)" },
    { "exit3.f32", GC_E_DIED, 0, 3, "exited with status 3" },
    { "hang.f32", GC_E_TIMEOUT, 0, 0, "no reply within 1 s (batch of 100)" },
    { "sleep.f32", GC_E_TIMEOUT, 0, 0, "no reply within 1 s (batch of 100)" },
};

/* Each death: its status, extras and message; the adapter stays dead until restarted; the
 * restart keeps the kernel pointers and the good kernel works. */
static void test_deaths(void **state)
{
    (void)state;
    struct gc_adapter *a = open_hostile(1.0);
    const struct gc_kernel *good = kernel(a, "good.f32");
    float x[N], y[N];
    char msg[1024], head[600];
    for (size_t i = 0; i < N; i++)
        x[i] = (float)i;
    snprintf(head, sizeof head, "plug-in '%s': kernel '", FX_HOSTILE);
    for (size_t r = 0; r < sizeof deaths / sizeof deaths[0]; r++) {
        const struct death *d = &deaths[r];
        struct gc_eval_extra ex = { 0 };
        enum gc_status st = gc_kernel_eval_ex(kernel(a, d->kernel), x, y, N, &ex, msg,
                                              sizeof msg);
        if (st != d->st || ex.signal != d->sig || ex.exit_status != d->exit_status ||
            strncmp(msg, head, strlen(head)) || !strstr(msg, d->kernel) ||
            !strstr(msg, d->text) || strchr(msg, '\n'))
            fail_msg("%s: status %d (want %d), signal %d (want %d), exit %d (want %d), "
                     "message '%s'", d->kernel, st, d->st, ex.signal, d->sig, ex.exit_status,
                     d->exit_status, msg);
        /* dead until restarted */
        assert_int_equal(gc_kernel_eval(good, x, y, 3, msg, sizeof msg), d->st);
        assert_non_null(strstr(msg, "restart the adapter"));
        assert_int_equal(gc_adapter_restart(a, msg, sizeof msg), GC_OK);
        assert_ptr_equal(kernel(a, "good.f32"), good);
        check_good(a, 9);
    }
    gc_adapter_close(a);
}

/* crash_on_1_5: a batch without 1.5 is fine, one with it kills the worker */
static void test_crash_on_value(void **state)
{
    (void)state;
    struct gc_adapter *a = open_hostile(60);
    const struct gc_kernel *k = kernel(a, "crash_on_1_5.f32");
    float x[4] = { 0.5f, 1.0f, 2.0f, 1.5f }, y[4];
    struct gc_eval_extra ex = { 0 };
    char msg[1024];
    assert_int_equal(gc_kernel_eval_ex(k, x, y, 3, &ex, msg, sizeof msg), GC_OK);
    assert_true(y[2] == 4.0f);
    assert_int_equal(gc_kernel_eval_ex(k, x, y, 4, &ex, msg, sizeof msg), GC_E_DIED);
    assert_int_equal(ex.signal, SIGSEGV);
    assert_null(strstr(msg, "fault address")); /* address 0: near neither x nor y */
    gc_adapter_close(a);
}

struct stray {
    const char *kernel;
    size_t slack;
    enum gc_fault_kind fault;
    long long offset;
    const char *text;
};

static const struct stray strays[] = {
    { "write_after.f32", 0, GC_FAULT_AFTER_Y, N + 2048, "past y[n-1] at y[2148]" },
    { "write_after.f32", 128, GC_FAULT_AFTER_Y, N + 2048, "past y[n-1] at y[2148]" },
    { "write_before.f32", 0, GC_FAULT_BEFORE_Y, -2048, "before y[0] at y[-2048]" },
    { "write_before.f32", 128, GC_FAULT_BEFORE_Y, -2048, "before y[0] at y[-2048]" },
    { "write_x.f32", 0, GC_FAULT_INPUT, 3, "read-only input at x[3]" },
};

/* Each stray write: GC_E_FAULT with its kind and offset, whole outputs, the caller's x and
 * slack untouched, and the worker still serving (no restart needed). */
static void test_strays(void **state)
{
    (void)state;
    struct gc_adapter *a = open_hostile(60);
    float buf[N + 64], x[N];
    char msg[1024];
    for (size_t r = 0; r < sizeof strays / sizeof strays[0]; r++) {
        const struct stray *s = &strays[r];
        float *y = buf + 32; /* 32 floats = 128 bytes of slack on either side */
        struct gc_eval_extra ex = { .y_slack = s->slack };
        for (size_t i = 0; i < N; i++)
            x[i] = (float)i + 0.5f;
        for (size_t i = 0; i < N + 64; i++)
            buf[i] = -1.0f;
        enum gc_status st = gc_kernel_eval_ex(kernel(a, s->kernel), x, y, N, &ex, msg,
                                              sizeof msg);
        if (st != GC_E_FAULT || ex.fault != s->fault || ex.offset != s->offset ||
            !strstr(msg, s->text))
            fail_msg("%s (slack %zu): status %d, fault %d (want %d), offset %lld (want %lld), "
                     "message '%s'", s->kernel, s->slack, st, ex.fault, s->fault, ex.offset,
                     s->offset, msg);
        for (size_t i = 0; i < N; i++) {
            assert_true(y[i] == 2.0f * ((float)i + 0.5f)); /* whole outputs */
            assert_true(x[i] == (float)i + 0.5f);          /* x as the caller left it */
        }
        for (size_t i = 0; i < 32; i++) /* the slack came back untouched */
            assert_true(buf[i] == -1.0f && buf[32 + N + i] == -1.0f);
        check_good(a, 7); /* no restart needed */
    }
    /* in place, write_x writes nothing extra: no fault */
    assert_int_equal(gc_kernel_eval(kernel(a, "write_x.f32"), x, x, N, msg, sizeof msg), GC_OK);
    /* restart of a live worker keeps it */
    assert_int_equal(gc_adapter_restart(a, msg, sizeof msg), GC_OK);
    check_good(a, 7);
    gc_adapter_close(a);
}

/* A plug-in whose entry or open() crashes: a load error naming the file and the signal. */
static void test_load_crashes(void **state)
{
    (void)state;
    struct gc_open_options opt = GC_OPEN_OPTIONS_INIT;
    struct gc_adapter *a = (struct gc_adapter *)&a;
    char msg[1024], head[600];
    assert_int_equal(gc_adapter_open(FX_HOSTILE_ENTRY, NULL, &a, msg, sizeof msg), GC_E_LOAD);
    assert_null(a);
    snprintf(head, sizeof head, "plug-in '%s': the worker was killed by signal 11 (SIGSEGV) "
             "while opening it", FX_HOSTILE_ENTRY);
    assert_memory_equal(msg, head, strlen(head));
    opt.options = "crash-open";
    assert_int_equal(gc_adapter_open(FX_HOSTILE, &opt, &a, msg, sizeof msg), GC_E_LOAD);
    assert_non_null(strstr(msg, "(SIGSEGV) while opening it"));
}

/* GELUCHECK_WORKER names a file that is not there: a load error saying so */
static void test_worker_missing(void **state)
{
    (void)state;
    struct gc_adapter *a;
    char msg[1024];
    setenv("GELUCHECK_WORKER", "/nonexistent/gelucheck-worker", 1);
    enum gc_status st = gc_adapter_open("libm", NULL, &a, msg, sizeof msg);
    unsetenv("GELUCHECK_WORKER");
    assert_int_equal(st, GC_E_LOAD);
    assert_string_equal(msg, "built-in adapter 'libm': GELUCHECK_WORKER "
                        "'/nonexistent/gelucheck-worker' is not an executable file");
}

/* libm through the worker and in-process: the same bits, misaligned and in place; an
 * in-process adapter cannot be restarted. */
static void test_builtin_same_bits(void **state)
{
    (void)state;
    struct gc_open_options in = GC_OPEN_OPTIONS_INIT;
    struct gc_adapter *w, *p;
    char msg[1024];
    enum { M = 70001 };
    float *x = malloc((M + 3) * sizeof *x), *y1 = malloc((M + 3) * sizeof *x),
          *y2 = malloc((M + 3) * sizeof *x);
    assert_true(x && y1 && y2);
    in.in_process = 1;
    assert_int_equal(gc_adapter_open("libm", NULL, &w, msg, sizeof msg), GC_OK);
    assert_int_equal(gc_adapter_open("libm", &in, &p, msg, sizeof msg), GC_OK);
    assert_int_equal(w->kind, GC_ADAPTER_BUILTIN);
    assert_string_equal(w->version, p->version);
    assert_int_equal(w->n_kernels, p->n_kernels);
    const struct gc_kernel *kw = kernel(w, "erfc.f32"), *kp = kernel(p, "erfc.f32");
    for (size_t i = 0; i < M + 3; i++)
        x[i] = -12.0f + 24.0f * (float)i / (float)M;
    assert_int_equal(gc_kernel_eval(kw, x + 1, y1 + 3, M, msg, sizeof msg), GC_OK);
    assert_int_equal(gc_kernel_eval(kp, x + 1, y2 + 3, M, msg, sizeof msg), GC_OK);
    assert_memory_equal(y1 + 3, y2 + 3, M * sizeof *x);
    memcpy(y1, x, (M + 3) * sizeof *x);
    assert_int_equal(gc_kernel_eval(kw, y1 + 2, y1 + 2, M, msg, sizeof msg), GC_OK);
    assert_int_equal(gc_kernel_eval(kp, x + 2, y2 + 2, M, msg, sizeof msg), GC_OK);
    assert_memory_equal(y1 + 2, y2 + 2, M * sizeof *x);
    assert_int_equal(gc_adapter_restart(p, msg, sizeof msg), GC_E_INVALID);
    gc_adapter_close(w);
    gc_adapter_close(p);
    free(x);
    free(y1);
    free(y2);
}

/* mutants' fpenv_ftz.f32 leaves FTZ set: the worker's count reaches the host's adapter */
static void test_fpenv_carried(void **state)
{
    (void)state;
    struct gc_adapter *a;
    char msg[1024];
    float x[4] = { 1, 2, 3, 4 }, y[4];
    assert_int_equal(gc_adapter_open("mutants", NULL, &a, msg, sizeof msg), GC_OK);
    const struct gc_kernel *k = kernel(a, "fpenv_ftz.f32");
    assert_int_equal(gc_kernel_eval(k, x, y, 4, msg, sizeof msg), GC_OK);
    assert_int_equal(gc_kernel_eval(k, x, y, 4, msg, sizeof msg), GC_OK);
    assert_int_equal(a->fpenv_modified, 2);
    assert_non_null(strstr(a->fpenv_what, "FTZ set"));
    gc_adapter_close(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table),          cmocka_unit_test(test_deaths),
        cmocka_unit_test(test_crash_on_value), cmocka_unit_test(test_strays),
        cmocka_unit_test(test_load_crashes),   cmocka_unit_test(test_worker_missing),
        cmocka_unit_test(test_builtin_same_bits), cmocka_unit_test(test_fpenv_carried),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
