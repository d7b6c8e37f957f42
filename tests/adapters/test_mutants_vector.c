/* Vector mutants of the `mutants` adapter (adapters/mutants/mut_vector.c): the batch handled
 * wrong by position, alignment, aliasing, bounds, lanes, call count, FP environment.  Each
 * asserted against the same mutant's correct behaviour (the accurate base, cr_distance <= 1
 * from the reference) on the inputs where the defect does not fire. */
#include <fenv.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "adapt_util.h"
#include "gc_mutants.h"
#include "test_mutants.h"

#if defined(__x86_64__) || (defined(__i386__) && defined(__SSE__))
#include <xmmintrin.h>
#endif

static int run(const char *name, void *ctx, const float *x, float *y, size_t n)
{
    return au_kernel(mutants(), name)->eval(ctx, x, y, n);
}

/* x[i] = -2.5 + (i + 1/2)/8: never 0, a spread where GELU and gelu_tanh differ in float */
static void fill(float *x, size_t n)
{
    for (size_t i = 0; i < n; i++)
        x[i] = -2.5f + ((float)i + 0.5f) / 8.0f;
}

static void assert_ref(const float *x, const float *y, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (dist32(y[i], ref_at(GELUCHECK_GELU, x[i])) > 1)
            fail_msg("x[%zu] = %a: %a", i, (double)x[i], (double)y[i]);
}

void test_tail_mod8(void **state)
{
    (void)state;
    float x[17], y[17];
    for (size_t i = 0; i < 17; i++)
        x[i] = -2.5f; /* the same x everywhere: the same y is due everywhere */
    assert_int_equal(run("tail_mod8.f32", NULL, x, y, 16), 0);
    assert_ref(x, y, 16);
    assert_int_equal(run("tail_mod8.f32", NULL, x, y, 17), 0);
    assert_ref(x, y, 16);
    assert_true(dist32(y[16], y[0]) > 1000); /* gelu_tanh(-2.5) = -0.015084, GELU -0.015524 */
}

void test_misaligned32(void **state)
{
    (void)state;
    float *buf = aligned_alloc(64, 64 * sizeof(float)), x[32];
    assert_non_null(buf);
    fill(x, 32);
    assert_int_equal(run("misaligned32.f32", NULL, x, buf, 32), 0); /* 64-byte aligned */
    assert_ref(x, buf, 32);
    float aligned[32];
    memcpy(aligned, buf, sizeof aligned);
    assert_int_equal(run("misaligned32.f32", NULL, x, buf + 1, 32), 0); /* 4 bytes off */
    for (size_t i = 0; i < 32; i++)
        assert_int_equal(dist32(buf[1 + i], aligned[i]), 1);
    assert_int_equal(run("misaligned32.f32", NULL, x, buf + 8, 32), 0); /* 32 bytes: fine */
    assert_memory_equal(buf + 8, aligned, sizeof aligned);
    free(buf);
}

void test_inplace_half(void **state)
{
    (void)state;
    float x[20], y[20];
    fill(x, 20);
    assert_int_equal(run("inplace_half.f32", NULL, x, y, 20), 0);
    assert_ref(x, y, 20);
    assert_int_equal(run("inplace_half.f32", NULL, x, x, 20), 0); /* in place: -GELU(x) */
    for (size_t i = 0; i < 20; i++)
        assert_int_equal(au_bits_f32(x[i]), au_bits_f32(-y[i]));
}

void test_writes_yn(void **state)
{
    (void)state;
    float x[6], y[6 + 1];
    fill(x, 6);
    for (size_t n = 0; n <= 5; n += 5) {
        memset(y, 0, sizeof y); /* y[n] is the element past the batch */
        assert_int_equal(run("writes_yn.f32", NULL, x, y, n), 0);
        assert_ref(x, y, n);
        assert_int_equal(au_bits_f32(y[n]), n == 0 ? 0u : GC_MUT_OOB_BITS);
    }
}

void test_writes_x(void **state)
{
    (void)state;
    float x[9], x0[9], y[9];
    fill(x, 9);
    memcpy(x0, x, sizeof x);
    assert_int_equal(run("writes_x.f32", NULL, x, y, 9), 0);
    assert_ref(x0, y, 9);
    assert_int_equal(au_bits_f32(x[0]), au_bits_f32(-x0[0])); /* the input changed */
    assert_memory_equal(x + 1, x0 + 1, 8 * sizeof(float));
    assert_int_equal(run("writes_x.f32", NULL, x0, x0, 9), 0); /* in place: just the result */
    assert_memory_equal(x0, y, sizeof y);
}

void test_lane_nan8(void **state)
{
    (void)state;
    float x[27], y[27];
    fill(x, 27);
    assert_int_equal(run("lane_nan8.f32", NULL, x, y, 27), 0);
    assert_ref(x, y, 27);
    x[10] = NAN; /* lane 2 of block [8, 16) */
    x[25] = NAN; /* the partial last block [24, 27) */
    assert_int_equal(run("lane_nan8.f32", NULL, x, y, 27), 0);
    for (size_t i = 0; i < 27; i++) {
        int spoiled = (i >= 8 && i < 16) || i >= 24;
        if (spoiled)
            assert_true(isnan(y[i]));
        else
            assert_true(dist32(y[i], ref_at(GELUCHECK_GELU, x[i])) <= 1);
    }
}

void test_call_count(void **state)
{
    (void)state;
    const struct gelucheck_plugin *p = mutants();
    float x[16], y1[16], y2[16], y3[16];
    fill(x, 16);
    void *ctx = NULL;
    assert_int_equal(p->open(&ctx, NULL), 0);
    assert_non_null(ctx);
    assert_int_equal(run("call_count.f32", ctx, x, y1, 16), 0);
    assert_int_equal(run("call_count.f32", ctx, x, y2, 16), 0);
    assert_int_equal(run("call_count.f32", ctx, x, y3, 16), 0);
    assert_ref(x, y1, 16);
    assert_memory_equal(y1, y3, sizeof y1); /* 1st and 3rd agree, the 2nd does not */
    for (size_t i = 0; i < 16; i++)
        assert_int_equal(dist32(y1[i], y2[i]), 1);
    assert_non_null(p->last_error(ctx));
    p->close(ctx);
    assert_int_not_equal(run("call_count.f32", NULL, x, y1, 16), 0); /* no ctx: an error */
    assert_non_null(strstr(p->last_error(NULL), "open()"));
}

void test_fpenv(void **state)
{
    (void)state;
    float x[8], y[8];
    fill(x, 8);
    struct au_fpenv env;
    au_fpenv_save(&env);
    assert_false(au_fpenv_spoiled());
    assert_int_equal(run("fpenv_ftz.f32", NULL, x, y, 8), 0);
    assert_ref(x, y, 8); /* this batch is right; the environment is not */
#if defined(__x86_64__) || (defined(__i386__) && defined(__SSE__))
    assert_true(_mm_getcsr() & _MM_FLUSH_ZERO_ON); /* MXCSR bit 15 */
#endif
    assert_true(au_fpenv_spoiled());
    au_fpenv_restore(&env); /* the rest of this process needs it back */
    assert_false(au_fpenv_spoiled());
}
