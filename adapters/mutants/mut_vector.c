/* Vector mutants: the accurate base (mut_base.c) per element, with a defect in how the batch
 * is handled: position, alignment, aliasing, bounds, lanes, state, the FP environment.
 * Claimed: nothing; each is wrong on purpose, as its description says. */
#include <fenv.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "gc_mutants.h"
#include "mut_internal.h"

#if defined(__x86_64__) || (defined(__i386__) && defined(__SSE__))
#include <xmmintrin.h>
#define GC_MUT_HAVE_FPENV 1
#define GC_MUT_FPENV_DEFECT "sets FTZ in MXCSR (bit 15, _MM_FLUSH_ZERO_ON) and leaves it set"
static void spoil_fpenv(void) { _mm_setcsr(_mm_getcsr() | _MM_FLUSH_ZERO_ON); }
#elif defined(FE_TOWARDZERO)
/* no portable FTZ control off x86: the rounding mode is the part of the environment spoiled */
#define GC_MUT_HAVE_FPENV 1
#define GC_MUT_FPENV_DEFECT "sets the rounding mode to FE_TOWARDZERO and leaves it set"
static void spoil_fpenv(void) { fesetround(FE_TOWARDZERO); }
#endif /* else: fpenv_ftz.f32 is left out of the table */

/* the other formula for the n mod 8 stragglers: 0.5 x (1 + tanh(...)) as x sigmoid(2u) */
static float straggler(float x)
{
    if (isinf(x))
        return x > 0 ? x : -0.0f;
    double xd = x, u = GC_MUT_SQRT_2_PI * (xd + GC_MUT_KAPPA * (xd * xd * xd));
    return gc_mut_round_gelu_like(xd, xd / (1.0 + exp(-2.0 * u)));
}

static int eval_tail_mod8(void *ctx, const void *x, void *y, size_t n)
{
    const float *xs = x;
    float *ys = y;
    size_t full = n - n % 8;
    (void)ctx;
    for (size_t i = 0; i < n; i++)
        ys[i] = i < full ? gc_mut_gelu(xs[i]) : straggler(xs[i]);
    return 0;
}

static int eval_misaligned32(void *ctx, const void *x, void *y, size_t n)
{
    const float *xs = x;
    float *ys = y;
    int misaligned = (uintptr_t)y % 32 != 0;
    (void)ctx;
    for (size_t i = 0; i < n; i++) {
        float v = gc_mut_gelu(xs[i]);
        ys[i] = misaligned ? gc_mut_flip_lsb(v) : v;
    }
    return 0;
}

/* pass 1 stores -x (the erfc argument's sign, exact), pass 2 reads x again: in place x[i]
 * already holds -x[i], so the result is 0.5 (-x) erfc(-x/sqrt2) = -GELU(x) */
static int eval_inplace_half(void *ctx, const void *x, void *y, size_t n)
{
    const float *xs = x;
    float *ys = y;
    (void)ctx;
    for (size_t i = 0; i < n; i++)
        ys[i] = -xs[i];
    for (size_t i = 0; i < n; i++)
        ys[i] = gc_mut_gelu_split(xs[i], ys[i]);
    return 0;
}

/* !!! Writes one float PAST THE END of y, at y[n], after every non-empty batch.  In a host
 * without a guard page after y this corrupts whatever lies there (heap metadata, another
 * buffer): run it only under gelucheck's vector suite (guard pages, canaries) or with a
 * buffer of n + 1 elements, as tests/adapters/test_mutants.c does. */
static int eval_writes_yn(void *ctx, const void *x, void *y, size_t n)
{
    const float *xs = x;
    float *ys = y;
    const uint32_t nan_bits = GC_MUT_OOB_BITS;
    (void)ctx;
    for (size_t i = 0; i < n; i++)
        ys[i] = gc_mut_gelu(xs[i]);
    if (n > 0)
        memcpy((unsigned char *)y + n * sizeof(float), &nan_bits, sizeof nan_bits);
    return 0;
}

/* uses x as scratch: flips the sign bit of x[0] (always a visible change) when not in place */
static int eval_writes_x(void *ctx, const void *x, void *y, size_t n)
{
    const float *xs = x;
    float *ys = y;
    (void)ctx;
    for (size_t i = 0; i < n; i++)
        ys[i] = gc_mut_gelu(xs[i]);
    if (n > 0 && x != y) {
        float *xw = (float *)(uintptr_t)x; /* the defect: writing the caller's input */
        xw[0] = -xw[0];
    }
    return 0;
}

/* blocks of 8 "lanes": a NaN anywhere in a block makes the whole block NaN */
static int eval_lane_nan8(void *ctx, const void *x, void *y, size_t n)
{
    const float *xs = x;
    float *ys = y;
    (void)ctx;
    for (size_t b = 0; b < n; b += 8) {
        size_t end = n - b < 8 ? n : b + 8;
        int any_nan = 0;
        for (size_t i = b; i < end; i++)
            any_nan |= isnan(xs[i]) != 0;
        for (size_t i = b; i < end; i++)
            ys[i] = any_nan ? NAN : gc_mut_gelu(xs[i]);
    }
    return 0;
}

/* every second call on a ctx (the 2nd, 4th, ...) returns results 1 ulp off */
static int eval_call_count(void *ctx, const void *x, void *y, size_t n)
{
    struct gc_mut_ctx *c = ctx;
    const float *xs = x;
    float *ys = y;
    if (c == NULL)
        return 1; /* open() not called: last_error(NULL) says so */
    int odd = (int)(c->calls++ & 1u);
    for (size_t i = 0; i < n; i++) {
        float v = gc_mut_gelu(xs[i]);
        ys[i] = odd ? gc_mut_flip_lsb(v) : v;
    }
    return 0;
}

#ifdef GC_MUT_HAVE_FPENV
static int eval_fpenv(void *ctx, const void *x, void *y, size_t n)
{
    const float *xs = x;
    float *ys = y;
    (void)ctx;
    for (size_t i = 0; i < n; i++)
        ys[i] = gc_mut_gelu(xs[i]);
    spoil_fpenv(); /* after the results: this batch is right, the environment is not */
    return 0;
}
#endif

#define GELU GELUCHECK_GELU
#define F32 GELUCHECK_F32
const struct gelucheck_kernel gc_mut_vector[] = {
    { "tail_mod8.f32", "accurate GELU in blocks of 8, the last n mod 8 elements by the tanh "
      "formula instead; caught by vector: position_dependent", GELU, F32, eval_tail_mod8 },
    { "misaligned32.f32", "accurate GELU, 1 ulp off (last bit flipped) whenever y is not "
      "32-byte aligned; caught by vector: alignment_dependent", GELU, F32,
      eval_misaligned32 },
    { "inplace_half.f32", "two passes, y = -x then y = 0.5*x*erfc(y/sqrt2) reading x again: "
      "in place that x is half-updated and the result is -GELU(x); caught by vector: "
      "inplace_mismatch", GELU, F32, eval_inplace_half },
    { "writes_yn.f32", "accurate GELU, then writes a NaN (0x7fc0ffee) to y[n], one past the "
      "end; CORRUPTS MEMORY in a host without guard pages; caught by vector: "
      "out_of_bounds_write", GELU, F32, eval_writes_yn },
    { "writes_x.f32", "accurate GELU, then flips the sign of x[0] when x != y; caught by "
      "vector: input_modified", GELU, F32, eval_writes_x },
    { "lane_nan8.f32", "accurate GELU in blocks of 8, where a NaN input makes its whole block "
      "NaN; caught by vector: lane_contamination", GELU, F32, eval_lane_nan8 },
    { "call_count.f32", "accurate GELU, 1 ulp off on every second call on a ctx (a counter "
      "kept by open()); caught by vector: nondeterministic", GELU, F32, eval_call_count },
#ifdef GC_MUT_HAVE_FPENV
    { "fpenv_ftz.f32", "accurate GELU, then " GC_MUT_FPENV_DEFECT "; caught by vector: "
      "fpenv_modified", GELU, F32, eval_fpenv },
#endif
};
const size_t gc_mut_vector_n = sizeof gc_mut_vector / sizeof gc_mut_vector[0];
