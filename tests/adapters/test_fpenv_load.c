/* A plug-in that changes the floating-point environment while it loads (adapters/core/
 * fpenv.c; docs/design.md 5.1 and 12): each step of a load is checked and the environment put back
 * at once; the fixture fixtures/fastmath.c sets FTZ and DAZ in a constructor, as -Ofast does.
 *   - the load check itself, one step at a time (a table of what a step does);
 *   - through the worker: the hello carries what the load did, the evals run clean;
 *   - in process (--isolation none): MXCSR is clean when gc_adapter_open returns, and the
 *     reference and the host's own arithmetic give the same bits after the load as before;
 *   - built-ins load without a finding.
 * FX_FASTMATH: the fixture's path.  The FTZ/DAZ parts need x86-64; elsewhere they skip. */
#include <fenv.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#if defined(__x86_64__)
#include <xmmintrin.h>
#define HAVE_FASTMATH 1 /* the fixture's constructor does something here */
#else
#define HAVE_FASTMATH 0
#endif

#include <cmocka.h>

#include "core.h"

#define FTZ_DAZ 0x8040u
/* what the fixture's load does, as the adapter records it */
#define FASTMATH_LOAD "FTZ set (MXCSR bit 15); DAZ set (MXCSR bit 6) (in dlopen: a constructor)"

static unsigned csr(void)
{
#if defined(__x86_64__)
    return _mm_getcsr();
#else
    return 0;
#endif
}

static void csr_set(unsigned v)
{
#if defined(__x86_64__)
    _mm_setcsr(v);
#else
    (void)v;
#endif
}

static void csr_or(unsigned bits)
{
    csr_set(csr() | bits);
}

/* ---- the load check, one step at a time ---- */

static void step_nothing(void) {}
static void step_upward(void) { fesetround(FE_UPWARD); }
static void step_ftz(void) { csr_or(0x8000u); }
static void step_daz(void) { csr_or(0x0040u); }
static void step_both(void) { csr_or(FTZ_DAZ); }
static void step_zero_ftz(void) { fesetround(FE_TOWARDZERO); csr_or(0x8000u); }

struct step_row {
    const char *why;
    void (*step)(void);
    int needs_mxcsr; /* skipped where there is no MXCSR */
    const char *want;
};

static const struct step_row step_rows[] = {
    { "a step that changes nothing: no text", step_nothing, 0, "" },
    { "the rounding mode, named", step_upward, 0, "rounding mode upward (in s)" },
    { "FTZ alone", step_ftz, 1, "FTZ set (MXCSR bit 15) (in s)" },
    { "DAZ alone", step_daz, 1, "DAZ set (MXCSR bit 6) (in s)" },
    { "both, as crtfastmath.o does", step_both, 1,
      "FTZ set (MXCSR bit 15); DAZ set (MXCSR bit 6) (in s)" },
    { "rounding and FTZ in one step", step_zero_ftz, 1,
      "rounding mode toward zero; FTZ set (MXCSR bit 15) (in s)" },
};

/* Each row: the text, and the environment of before the step back at once. */
static void test_load_steps(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof step_rows / sizeof step_rows[0]; i++) {
        const struct step_row *r = &step_rows[i];
        struct gc_fpenv_load l;
        if (r->needs_mxcsr && !HAVE_FASTMATH)
            continue;
        unsigned before = csr();
        gc_fpenv_load_begin(&l);
        r->step();
        gc_fpenv_load_step(&l, "s");
        if (strcmp(l.what, r->want) || fegetround() != FE_TONEAREST || csr() != before)
            fail_msg("%s: '%s' (want '%s'), rounding %d, MXCSR %#x (before %#x)", r->why,
                     l.what, r->want, fegetround(), csr(), before);
    }
}

/* Two steps that change things: the first is reported, both are undone. */
static void test_load_first_step_wins(void **state)
{
    (void)state;
    struct gc_fpenv_load l;
    gc_fpenv_load_begin(&l);
    step_upward();
    gc_fpenv_load_step(&l, "dlopen: a constructor");
    fesetround(FE_DOWNWARD);
    gc_fpenv_load_step(&l, "open");
    assert_string_equal(l.what, "rounding mode upward (in dlopen: a constructor)");
    assert_int_equal(fegetround(), FE_TONEAREST);
}

/* ---- the fixture, through the worker and in process ---- */

static const struct gc_kernel *kernel(const struct gc_adapter *a, const char *name)
{
    for (size_t i = 0; i < a->n_kernels; i++)
        if (strcmp(a->kernels[i].name, name) == 0)
            return &a->kernels[i];
    fail_msg("no kernel %s", name);
    return NULL;
}

/* The kernels see the promised environment: fpenv.f32 says so, half.f32 neither reads its
 * subnormal input as 0 nor flushes its subnormal result, and no eval counts as a change. */
static void check_evals_clean(const struct gc_adapter *a)
{
    static const uint32_t xb[3] = { 0x00000003u,   /* 0x1.8p-148: DAZ would read 0 */
                                    0x00800000u,   /* 0x1p-126: x/2 subnormal, FTZ gives 0 */
                                    0xbf800000u }, /* -1 */
                          want[3] = { 0x00000002u, 0x00400000u, 0xbf000000u };
    float x[3], y[3];
    uint32_t yb[3];
    char msg[1024];
    memcpy(x, xb, sizeof x);
    assert_int_equal(gc_kernel_eval(kernel(a, "half.f32"), x, y, 3, msg, sizeof msg), GC_OK);
    memcpy(yb, y, sizeof yb);
    for (int i = 0; i < 3; i++)
        if (yb[i] != want[i])
            fail_msg("half.f32(%#010x) = %#010x, want %#010x", xb[i], yb[i], want[i]);
    assert_int_equal(gc_kernel_eval(kernel(a, "fpenv.f32"), x, y, 3, msg, sizeof msg), GC_OK);
    assert_true(y[0] == 1.0f && y[1] == 1.0f && y[2] == 1.0f);
    assert_int_equal(a->fpenv_modified, 0);
}

static void test_worker(void **state)
{
    (void)state;
    struct gc_adapter *a;
    char msg[1024];
    if (!HAVE_FASTMATH)
        skip();
    assert_int_equal(gc_adapter_open(FX_FASTMATH, NULL, &a, msg, sizeof msg), GC_OK);
    assert_string_equal(a->fpenv_load, FASTMATH_LOAD); /* carried by the hello */
    assert_int_equal(csr() & FTZ_DAZ, 0);              /* this process never loaded it */
    check_evals_clean(a);
    gc_adapter_close(a);
}

/* f32 and f64 gelu at inputs whose values are subnormal or whose results are: what FTZ and
 * DAZ would change if they reached the reference's arithmetic (`gelucheck ref gelu`). */
struct ref_row {
    enum geluref_dtype dt;
    uint64_t x, want; /* RN */
    const char *why;
};
static const struct ref_row ref_rows[] = {
    { GELUREF_F32, 0xc164cccd, 0x80000001, "-0x1.c9999ap+3 (-14.3): result -0x1p-149" },
    { GELUREF_F32, 0xc1600000, 0x8000004e, "-0x1.cp+3 (-14): result -0x1.38p-143" },
    { GELUREF_F32, 0x00000003, 0x00000002, "0x1.8p-148: x/2 a midpoint, the x^2 term decides" },
    { GELUREF_F32, 0x80000003, 0x80000001, "-0x1.8p-148: rounds the other way" },
    { GELUREF_F32, 0x00800001, 0x00400001, "0x1.000002p-126: result 0x1.000004p-127" },
    { GELUREF_F64, 0x0000000000000003, 0x0000000000000002, "0x1.8p-1073: subnormal x" },
    { GELUREF_F64, 0xc043400000000000, 0x800000000000000b, "-0x1.34p+5 (-38.5): result "
                                                           "-0x1.6p-1071" },
};
#define N_REF (sizeof ref_rows / sizeof ref_rows[0])

/* Each row through both reference layers (the suites use the odd one's fast path). */
static void ref_eval(uint64_t *rn, struct geluref_odd *odd)
{
    for (size_t i = 0; i < N_REF; i++) {
        assert_int_equal(geluref_eval(GELUREF_GELU, ref_rows[i].dt, ref_rows[i].x, MPFR_RNDN,
                                      &rn[i], NULL, NULL), GELUREF_OK);
        assert_int_equal(geluref_eval_odd(GELUREF_GELU, ref_rows[i].dt, ref_rows[i].x,
                                          GELUREF_PATH_FAST, NULL, NULL, &odd[i]), GELUREF_OK);
    }
}

/* The host's own arithmetic that FTZ and DAZ do change: a subnormal float widened to double
 * (DAZ reads 0) and a product that is subnormal (FTZ gives 0).  Not inlined: the compiler
 * must not move the arithmetic across the MXCSR writes around the call. */
__attribute__((noinline)) static void host_probe(volatile double *wide, volatile float *tiny)
{
    volatile float sub = 0x1.8p-148f, min = 0x1p-126f, half = 0.5f;
    *wide = sub;
    *tiny = min * half;
}

static void test_in_process(void **state)
{
    (void)state;
    struct gc_open_options in = GC_OPEN_OPTIONS_INIT;
    struct gc_adapter *a, *again;
    uint64_t rn0[N_REF], rn1[N_REF];
    struct geluref_odd o0[N_REF], o1[N_REF];
    volatile double wide;
    volatile float tiny;
    char msg[1024];
    if (!HAVE_FASTMATH)
        skip();
    /* the probe is one FTZ and DAZ change (else the comparison below proves nothing) */
    unsigned saved = csr();
    csr_or(FTZ_DAZ);
    host_probe(&wide, &tiny);
    csr_set(saved);
    assert_true(wide == 0.0 && tiny == 0.0f);
    ref_eval(rn0, o0);
    in.in_process = 1;
    assert_int_equal(gc_adapter_open(FX_FASTMATH, &in, &a, msg, sizeof msg), GC_OK);
    /* restored when the open returns, before anything of gelucheck's runs (the control
       bits: the exception flags, bits 0 to 5, are whatever the arithmetic left) */
    assert_int_equal(csr() & ~0x3fu, saved & ~0x3fu);
    assert_int_equal(fegetround(), FE_TONEAREST);
    assert_string_equal(a->fpenv_load, FASTMATH_LOAD);
    host_probe(&wide, &tiny);
    assert_true(wide == 0x1.8p-148 && tiny == 0x1p-127f);
    ref_eval(rn1, o1);
    for (size_t i = 0; i < N_REF; i++) {
        const struct ref_row *r = &ref_rows[i];
        if (rn1[i] != r->want || rn0[i] != r->want || o1[i].rn != r->want ||
            memcmp(&o0[i], &o1[i], sizeof o0[i]) != 0)
            fail_msg("%s: RN %#llx before the load, %#llx after, odd %#llx (want %#llx)",
                     r->why, (unsigned long long)rn0[i], (unsigned long long)rn1[i],
                     (unsigned long long)o1[i].rn, (unsigned long long)r->want);
    }
    check_evals_clean(a);
    /* opened again while loaded: dlopen runs no constructor, so nothing to report (the
       suites look at every thread's instance) */
    assert_int_equal(gc_adapter_open(FX_FASTMATH, &in, &again, msg, sizeof msg), GC_OK);
    assert_string_equal(again->fpenv_load, "");
    gc_adapter_close(again);
    gc_adapter_close(a);
}

/* No false alarm: the built-ins' loads change nothing, in process and in the worker. */
static void test_builtins_clean(void **state)
{
    (void)state;
    static const char *const specs[] = { "libm", "mutants" };
    struct gc_open_options in = GC_OPEN_OPTIONS_INIT;
    char msg[1024];
    for (int iso = 0; iso < 2; iso++)
        for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
            struct gc_adapter *a;
            in.in_process = iso;
            assert_int_equal(gc_adapter_open(specs[i], &in, &a, msg, sizeof msg), GC_OK);
            if (a->fpenv_load[0])
                fail_msg("%s (in_process %d): '%s'", specs[i], iso, a->fpenv_load);
            gc_adapter_close(a);
        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_load_steps),     cmocka_unit_test(test_load_first_step_wins),
        cmocka_unit_test(test_worker),         cmocka_unit_test(test_in_process),
        cmocka_unit_test(test_builtins_clean),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
