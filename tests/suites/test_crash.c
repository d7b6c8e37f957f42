/* The bisection of a batch that crashes or hangs (suites/crash.c), on an in-memory adapter:
 * its eval "dies" (GC_E_DIED with a signal) or "stalls" (GC_E_TIMEOUT) on chosen inputs,
 * its restart counts calls and can be made to fail.  No process is involved, so the tests
 * check exactly which sub-batch is found, how many evaluations and restarts it took, and the
 * caps. */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "crash.h"

#define N_MAX 4096

/* What the fake kernel does with a batch.  A batch fails when it holds an input of bad[] (all
 * of them when need_all), or always with fail_all; a failure is a death by sig (0: a
 * stall). */
static struct fake {
    double bad[2];
    size_t n_bad;
    int need_all, fail_all;
    int sig;                 /* SIGSEGV, or 0 for a timeout */
    int other_sig_below;     /* a batch smaller than this dies by SIGABRT instead (0: never) */
    unsigned fail_first;     /* fail only the first this many batches (0: always) */
    int restart_fails;
    unsigned evals, restarts; /* since the bisection started */
    unsigned calls;           /* batches with inputs since the test started */
} fk;

static enum gc_status fake_eval(struct gc_adapter *a, const struct gc_kernel *k, const void *x,
                                void *y, size_t n, struct gc_eval_extra *ex, char *msg,
                                size_t size)
{
    (void)a;
    (void)k;
    const double *xd = x;
    size_t hits[2] = { 0, 0 };
    fk.evals++;
    fk.calls += n > 0;
    for (size_t i = 0; i < n; i++) {
        ((double *)y)[i] = xd[i];
        for (size_t j = 0; j < fk.n_bad; j++)
            hits[j] += xd[i] == fk.bad[j];
    }
    int fails = (n > 0 && fk.fail_all) || (fk.need_all ? hits[0] && hits[1] : hits[0] || hits[1]);
    if (fk.fail_first && fk.calls > fk.fail_first)
        fails = 0;
    if (!fails)
        return GC_OK;
    snprintf(msg, size, "fake: batch of %zu failed", n);
    if (fk.sig == 0)
        return GC_E_TIMEOUT;
    ex->signal = fk.other_sig_below && n < (size_t)fk.other_sig_below ? SIGABRT : fk.sig;
    return GC_E_DIED;
}

static void fake_close(struct gc_adapter *a) { (void)a; }

static enum gc_status fake_restart(struct gc_adapter *a, char *msg, size_t size)
{
    (void)a;
    fk.restarts++;
    if (!fk.restart_fails)
        return GC_OK;
    snprintf(msg, size, "fake: cannot restart");
    return GC_E_LOAD;
}

static const struct gc_adapter_ops fake_ops = { fake_eval, fake_close, fake_restart };
static struct gc_adapter *ad;
static double xs[N_MAX];

static int setup(void **state)
{
    (void)state;
    memset(&fk, 0, sizeof fk);
    fk.sig = SIGSEGV;
    ad = gc_adapter_alloc(GC_ADAPTER_PLUGIN, "fake", 1);
    assert_non_null(ad);
    ad->ops = &fake_ops;
    ad->kernels[0].name = gc_strdup("fake.f64");
    ad->kernels[0].description = gc_strdup("");
    ad->kernels[0].func = GELUREF_GELU;
    ad->kernels[0].dtype = GELUREF_F64;
    ad->kernels[0].elem_size = 8;
    for (size_t i = 0; i < N_MAX; i++)
        xs[i] = (double)i;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    gc_adapter_close(ad);
    return 0;
}

/* Evaluates xs[0, n) once (it must fail), then bisects as gs_kernel_eval_ex does. */
static void run(size_t n, struct gs_crash *c)
{
    struct gc_eval_extra ex = { 0 };
    char msg[256];
    enum gc_status st = gc_kernel_eval_ex(&ad->kernels[0], xs, xs + n, 0, &ex, msg, sizeof msg);
    assert_int_equal(st, GC_OK); /* n = 0 passes (touches nothing) */
    fk.evals = 0;
    double y[N_MAX];
    st = gc_kernel_eval_ex(&ad->kernels[0], xs, y, n, &ex, msg, sizeof msg);
    assert_true(st == GC_E_DIED || st == GC_E_TIMEOUT);
    fk.evals = fk.restarts = 0;
    gs_crash_bisect(&ad->kernels[0], xs, n, st, &ex, c);
    /* what the bisection says it spent is what the adapter saw */
    assert_int_equal(c->evals, fk.evals);
    assert_int_equal(c->restarts, fk.restarts);
}

/* One bad input among 1000: found exactly, with one eval per halving (two when the first
 * half passes) and a restart after each failure plus the first. */
static void one_input(void **state)
{
    (void)state;
    struct gs_crash c;
    fk.bad[0] = 637;
    fk.n_bad = 1;
    run(1000, &c);
    assert_true(c.reproduced);
    assert_false(c.capped || c.restart_failed);
    assert_int_equal(c.offset, 637);
    assert_int_equal(c.count, 1);
    /* 1000 -> 500 -> 250 -> 125 -> 62 or 63 -> ... -> 1: 9 or 10 halvings (an odd count
       leaves the larger half second), each one try or two (the first half passed) */
    unsigned halvings = c.restarts - 2; /* a restart before the confirmation, one after it,
                                           one after each halving's failing try */
    assert_true(halvings == 9 || halvings == 10);
    assert_true(c.evals >= 1 + halvings && c.evals <= 1 + 2 * halvings);
}

/* Fails only with both of two inputs in the batch: stops at the smallest batch holding both
 * (neither half fails alone). */
static void needs_two(void **state)
{
    (void)state;
    struct gs_crash c;
    fk.bad[0] = 100;
    fk.bad[1] = 900;
    fk.n_bad = 2;
    fk.need_all = 1;
    run(1024, &c);
    assert_true(c.reproduced);
    assert_false(c.capped);
    assert_int_equal(c.offset, 0);
    assert_int_equal(c.count, 1024);
    assert_int_equal(c.evals, 3); /* the confirmation, then both halves pass */
}

/* Every input stalls: GS_CRASH_MAX_TIMEOUTS timeouts (the confirmation included), each
 * halving the batch, then the cap; what was found is kept. */
static void timeout_cap(void **state)
{
    (void)state;
    struct gs_crash c;
    fk.fail_all = 1;
    fk.sig = 0;
    run(1024, &c);
    assert_true(c.reproduced && c.capped);
    assert_int_equal(c.timeouts, GS_CRASH_MAX_TIMEOUTS);
    assert_int_equal(c.evals, GS_CRASH_MAX_TIMEOUTS);
    assert_int_equal(c.offset, 0);
    assert_int_equal(c.count, 1024u >> (GS_CRASH_MAX_TIMEOUTS - 1));
}

/* Every input crashes: one input (the first) in log2(n) halvings; no timeout cap. */
static void crash_all(void **state)
{
    (void)state;
    struct gs_crash c;
    fk.fail_all = 1;
    run(4096, &c);
    assert_true(c.reproduced);
    assert_false(c.capped);
    assert_int_equal(c.count, 1);
    assert_int_equal(c.offset, 0);
    assert_int_equal(c.evals, 1 + 12);
    assert_true(c.evals <= GS_CRASH_MAX_EVALS);
}

/* A crash that does not come back after the restart: not reproducible, nothing bisected. */
static void flaky(void **state)
{
    (void)state;
    struct gs_crash c;
    fk.fail_all = 1;
    fk.fail_first = 1; /* the first eval (before the bisection) fails, no later one */
    run(512, &c);
    assert_false(c.reproduced);
    assert_int_equal(c.evals, 1);
    assert_int_equal(c.restarts, 1);
    assert_int_equal(c.count, 512);
}

/* Sub-batches below 64 die of another signal: "the same way" stops the bisection at 64. */
static void other_signal(void **state)
{
    (void)state;
    struct gs_crash c;
    fk.fail_all = 1;
    fk.other_sig_below = 64;
    run(1024, &c);
    assert_true(c.reproduced);
    assert_int_equal(c.count, 64);
    assert_int_equal(c.offset, 0);
}

/* The restart fails: recorded, nothing evaluated after it. */
static void restart_fails(void **state)
{
    (void)state;
    struct gs_crash c;
    fk.fail_all = 1;
    fk.restart_fails = 1;
    run(100, &c);
    assert_true(c.restart_failed);
    assert_false(c.reproduced);
    assert_int_equal(c.evals, 0);
    assert_string_equal(c.msg, "fake: cannot restart");
}

static void signal_names(void **state)
{
    (void)state;
    char b[32];
    assert_string_equal(gc_signal_name(SIGSEGV, b, sizeof b), "SIGSEGV");
    assert_string_equal(gc_signal_name(SIGBUS, b, sizeof b), "SIGBUS");
    assert_string_equal(gc_signal_name(SIGFPE, b, sizeof b), "SIGFPE");
    assert_string_equal(gc_signal_name(SIGABRT, b, sizeof b), "SIGABRT");
    assert_string_equal(gc_signal_name(77, b, sizeof b), "signal 77");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(one_input, setup, teardown),
        cmocka_unit_test_setup_teardown(needs_two, setup, teardown),
        cmocka_unit_test_setup_teardown(timeout_cap, setup, teardown),
        cmocka_unit_test_setup_teardown(crash_all, setup, teardown),
        cmocka_unit_test_setup_teardown(flaky, setup, teardown),
        cmocka_unit_test_setup_teardown(other_signal, setup, teardown),
        cmocka_unit_test_setup_teardown(restart_fails, setup, teardown),
        cmocka_unit_test(signal_names),
    };
    return cmocka_run_group_tests_name("suites_crash", tests, NULL, NULL);
}
