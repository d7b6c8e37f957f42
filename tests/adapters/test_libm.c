/* The built-in `libm` adapter: a valid table, every kernel runs, the measured accuracy of each
 * formula against the correctly rounded reference (printed; bounds asserted where the
 * formula deserves one), the float erf1p flush near -5.54, and the f16/bf16 conversions
 * against the reference's own rounding, exhaustively. */
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "adapt_util.h"
#include "gc_libm.h"
#include "test_libm.h"

static const struct gelucheck_plugin *libm(void)
{
    return gc_libm_entry(GELUCHECK_PLUGIN_ABI);
}

static void test_table(void **state)
{
    (void)state;
    const struct gelucheck_plugin *p = libm();
    au_check_table(p, "libm");
    assert_null(gc_libm_entry(0));
    assert_ptr_equal(gc_libm_entry(GELUCHECK_PLUGIN_ABI + 1), p); /* ABI 1 serves later hosts */
    assert_int_equal(p->n_kernels, 30);
#if defined(__GLIBC__)
    char lib[64];
    assert_int_equal(strncmp(p->version, "glibc ", 6), 0);
    snprintf(lib, sizeof lib, "%s libm", p->version);
    for (size_t i = 0; i < p->n_kernels; i++)
        if (strstr(p->kernels[i].description, lib) == NULL)
            fail_msg("%s: description lacks '%s'", p->kernels[i].name, lib);
#endif
    print_message("libm adapter: version '%s', %zu kernels\n", p->version, p->n_kernels);
}

static void test_eval_all(void **state)
{
    (void)state;
    au_eval_all(libm());
}

/* What each kernel is held to (measured on glibc 2.36 x86-64; test_accuracy prints it).
 * pos: max ulp error for x >= 0, away from the cancellations of x < 0: the measured maximum
 * over 9000 inputs plus headroom, a regression guard.  fixed + x1 |x| + x2 (x^2 + 1): a bound
 * at every x that follows from glibc's claims (libm_entry.c): erfc's (5 ulp double, 3 float)
 * or exp's (1), plus 2 ulp for the formula's own roundings, plus the rounding of the
 * function's argument times its condition number c: the argument (a rounded constant times
 * x, rounded) is off by a relative 2^(1-p) at most, which costs c 2^(1-p) relative, at most
 * 2c ulp.  erfc(z), z = x/sqrt2: c <= 2z^2 + 1 = x^2 + 1; exp(-x^2/2): c = x^2/2;
 * exp(-1.702 x): c = 1.702 |x|.  Half kernels: cr_distance, every input.  INFINITY: printed,
 * not asserted. */
struct bound {
    const char *name;
    double pos, fixed, x1, x2;
};
static const struct bound bounds[] = {
    /* name               pos  fixed     x1   x2 */
    { "erf1p.f32",         2, INFINITY, 0, 0 }, /* 1 + erff cancels for x < 0 */
    { "erf1p.f64",         2, INFINITY, 0, 0 },
    { "erfc.f32",          2, 3 + 2, 0, 2 },
    { "erfc.f64",          2, 5 + 2, 0, 2 },
    { "erf1p_via_f64.f32", 0.5001, INFINITY, 0, 0 }, /* 1 + erf cancels in double too */
    { "erfc_via_f64.f32",  0.5001, 0.5001, 0, 0 }, /* double's error is far below float's */
    { "tanh.f32",          2, INFINITY, 0, 0 }, /* 1 + tanh cancels for x < 0 */
    { "tanh.f64",          2.5, INFINITY, 0, 0 },
    { "sigmoid.f32",       2.5, 1 + 2, 3.5, 0 },
    { "sigmoid.f64",       2.5, 1 + 2, 3.5, 0 },
    { "grad_erf.f32",      2, INFINITY, 0, 0 }, /* cancels at x* = -0.7518 and in 1 + erf */
    { "grad_erf.f64",      2, INFINITY, 0, 0 },
    { "grad_erfc.f32",     2, INFINITY, 0, 0 }, /* cancels at x* (GELU'(x*) = 0) */
    { "grad_erfc.f64",     2, INFINITY, 0, 0 },
    { "tanh_grad.f32",     6, INFINITY, 0, 0 }, /* 1 - t*t cancels for large |x| */
    { "tanh_grad.f64",     12, INFINITY, 0, 0 },
    { "normcdf.f32",       2, 3 + 2, 0, 2 },
    { "normcdf.f64",       2, 5 + 2, 0, 2 },
    { "normpdf.f32",       INFINITY, 1 + 2, 0, 1 },
    { "normpdf.f64",       INFINITY, 1 + 2, 0, 1 },
    { "erf_c99.f32",       1, 1, 0, 0 }, /* glibc's claims themselves */
    { "erf_c99.f64",       1, 1, 0, 0 },
    { "erfc_c99.f32",      3, 3, 0, 0 },
    { "erfc_c99.f64",      5, 5, 0, 0 },
    { "erf1p.f16",         1, INFINITY, 0, 0 }, /* cr_distance, every f16/bf16 input */
    { "erfc.f16",          1, 1, 0, 0 },
    { "tanh.f16",          1, INFINITY, 0, 0 },
    { "erf1p.bf16",        1, INFINITY, 0, 0 },
    { "erfc.bf16",         1, 1, 0, 0 },
    { "tanh.bf16",         1, INFINITY, 0, 0 },
};

static const struct bound *bound_of(const char *name)
{
    for (size_t i = 0; i < sizeof bounds / sizeof bounds[0]; i++)
        if (strcmp(bounds[i].name, name) == 0)
            return &bounds[i];
    fail_msg("no bound for %s", name);
    return NULL;
}

/* The f32/f64 sample: 1500 inputs, the same every run (seed 3). */
static uint64_t sample(uint32_t dt, size_t i, uint64_t *rng)
{
    double v;
    if (i < 800)
        v = au_uniform(rng, -6.0, 6.0);
    else if (i < 1100)
        v = au_uniform(rng, -16.0, -6.0);
    else if (i < 1250)
        v = au_uniform(rng, -40.0, -16.0);
    else if (i < 1400)
        v = au_uniform(rng, 6.0, 100.0);
    else
        v = ldexp(au_uniform(rng, 1.0, 2.0), -(int)(au_rand(rng) % 140)) * (i % 2 ? -1 : 1);
    return dt == GELUCHECK_F64 ? au_bits_f64(v) : au_bits_f32((float)v);
}

static double value(uint32_t dt, uint64_t b)
{
    return dt == GELUCHECK_F64 ? au_f64(b) : dt == GELUCHECK_F32 ? (double)au_f32(b)
           : dt == GELUCHECK_F16 ? (double)gc_f16_to_float((uint16_t)b)
                                 : (double)gc_bf16_to_float((uint16_t)b);
}

/* the ulp suite's regions (docs/design.md section 6) */
static int region(double x)
{
    return x < -10 ? 0 : x < -5 ? 1 : x < -1 ? 2 : x < 0 ? 3 : x < 1 ? 4 : 5;
}

static void test_accuracy(void **state)
{
    (void)state;
    const struct gelucheck_plugin *p = libm();
    print_message("max ulp error where the correctly rounded result is normal, per region "
                  "(f16/bf16: cr_distance, every input); flushed: 0 where the reference is "
                  "not; nan: NaN where it is not\n%-18s %9s %9s %9s %9s %9s %9s %7s %4s\n",
                  "kernel", "<-10", "[-10,-5)", "[-5,-1)", "[-1,0)", "[0,1)", ">=1", "flushed",
                  "nan");
    for (size_t k = 0; k < p->n_kernels; k++) {
        const struct gelucheck_kernel *ker = &p->kernels[k];
        const struct bound *b = bound_of(ker->name);
        int half = ker->dtype == GELUCHECK_F16 || ker->dtype == GELUCHECK_BF16;
        size_t n = half ? 65536 : 1500;
        uint64_t rng = 3;
        double reg[6] = { 0 };
        size_t flushed = 0, nans = 0;
        for (size_t i = 0; i < n; i++) {
            uint64_t x = half ? i : sample(ker->dtype, i, &rng);
            if (au_is_nan(ker->dtype, x))
                continue;
            uint64_t y = au_eval1(ker, x), r = au_ref(ker->func, ker->dtype, x);
            nans += au_is_nan(ker->dtype, y) && !au_is_nan(ker->dtype, r);
            flushed += au_is_zero(ker->dtype, y) && !au_is_zero(ker->dtype, r);
            if (!au_is_normal(ker->dtype, r))
                continue;
            double e = half ? (double)au_cr_distance(ker->dtype, y, r)
                            : au_ulp_error(ker->func, ker->dtype, x, y);
            double xv = value(ker->dtype, x);
            int g = region(xv);
            if (!(e <= reg[g]))
                reg[g] = e;
            if (xv >= 0 && !(e <= b->pos))
                fail_msg("%s: x = %a: error %g above %g for x >= 0", ker->name, xv, e, b->pos);
            double lim = b->fixed + b->x1 * fabs(xv) + b->x2 * (xv * xv + 1);
            if (!(e <= lim))
                fail_msg("%s: x = %a: error %g above its bound %g", ker->name, xv, e, lim);
        }
        print_message("%-18s %9.3g %9.3g %9.3g %9.3g %9.3g %9.3g %7zu %4zu\n", ker->name,
                      reg[0], reg[1], reg[2], reg[3], reg[4], reg[5], flushed, nans);
    }
}

/* The flush point (docs/design.md section 6, tail suite): the largest x < 0 where the kernel
 * returns +-0 while the correctly rounded result is not.  Exhaustive: every float from -4
 * down to -8. */
static float flush_point_f32(const struct gelucheck_kernel *k)
{
    enum { CHUNK = 4096 };
    static float xs[CHUNK], ys[CHUNK];
    float x = -4.0f;
    while (x > -8.0f) {
        for (size_t i = 0; i < CHUNK; i++, x = nextafterf(x, -INFINITY))
            xs[i] = x;
        assert_int_equal(k->eval(NULL, xs, ys, CHUNK), 0);
        for (size_t i = 0; i < CHUNK; i++)
            if (ys[i] == 0.0f) {
                uint64_t r = au_ref(k->func, GELUCHECK_F32, au_bits_f32(xs[i]));
                assert_false(au_is_zero(GELUCHECK_F32, r)); /* a flush, not a true zero */
                return xs[i];
            }
    }
    return -INFINITY;
}

static double eval_at(const struct gelucheck_kernel *k, double v)
{
    return k->dtype == GELUCHECK_F64 ? au_f64(au_eval1(k, au_bits_f64(v)))
                                     : (double)au_f32(au_eval1(k, au_bits_f32((float)v)));
}

/* The same by bisection on [-40, -4] (f32: on floats) for formulas that flush monotonically;
 * NAN when the reference is zero there too (no premature flush), -inf when nothing flushes. */
static double flush_point_bisect(const struct gelucheck_kernel *k)
{
    double lo = -40.0, hi = -4.0;
    if (eval_at(k, lo) != 0.0)
        return -INFINITY;
    for (;;) {
        double mid = lo + (hi - lo) / 2;
        if (k->dtype == GELUCHECK_F32)
            mid = (double)(float)mid;
        if (mid == lo || mid == hi)
            break;
        if (eval_at(k, mid) == 0.0)
            lo = mid;
        else
            hi = mid;
    }
    uint64_t xb = k->dtype == GELUCHECK_F64 ? au_bits_f64(lo) : au_bits_f32((float)lo);
    return au_is_zero(k->dtype, au_ref(k->func, k->dtype, xb)) ? NAN : lo;
}

static void test_flush_points(void **state)
{
    (void)state;
    const struct gelucheck_plugin *p = libm();
    /* docs/design.md section 2: 0.5f*x*(1+erff(x/sqrt2)) returns 0 below about -5.54, where
       erff(x/sqrt2) rounds to -1: 1 + erf = 2 Phi(x) < 2^-25, half an ulp of 1 (below 1). */
    float f = flush_point_f32(au_kernel(p, "erf1p.f32"));
    print_message("flush points (largest x with output 0, reference not; nan: none):\n"
                  "  erf1p.f32          %.9g (every float in [-8, -4]; the reference's last "
                  "non-zero f32 is -14.356068)\n", f);
    assert_true(f >= -5.6f && f <= -5.4f);
    static const char *const names[] = { "tanh.f32", "erf1p_via_f64.f32", "erfc.f32",
                                         "erfc_via_f64.f32", "erf1p.f64", "tanh.f64",
                                         "erfc.f64" };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        print_message("  %-18s %.17g (bisection)\n", names[i],
                      flush_point_bisect(au_kernel(p, names[i])));
    /* the erfc form does not cancel: it flushes only at the very end of the f32 tail, where
       erfcf(-x/sqrt2) itself underflows */
    assert_true(flush_point_bisect(au_kernel(p, "erfc.f32")) < -14.0);
}

/* x = -inf: every form that multiplies x by a vanishing factor gives -inf * 0 = NaN (the
 * reference: -0).  Real behaviour of the formulas, kept (the policies decide). */
static void test_neginf(void **state)
{
    (void)state;
    const struct gelucheck_plugin *p = libm();
    static const char *const nan_at_neginf[] = { "erf1p.f32", "erfc.f32", "tanh.f32",
                                                 "sigmoid.f32", "erfc_via_f64.f32" };
    for (size_t i = 0; i < sizeof nan_at_neginf / sizeof nan_at_neginf[0]; i++) {
        const struct gelucheck_kernel *k = au_kernel(p, nan_at_neginf[i]);
        assert_true(au_is_nan(GELUCHECK_F32, au_eval1(k, au_bits_f32(-INFINITY))));
        assert_int_equal(au_ref(k->func, GELUCHECK_F32, au_bits_f32(-INFINITY)),
                         au_bits_f32(-0.0f));
    }
    print_message("NaN at x = -inf (reference -0): erf1p, erfc, tanh, sigmoid forms\n");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table),
        cmocka_unit_test(test_eval_all),
        cmocka_unit_test(test_accuracy),
        cmocka_unit_test(test_flush_points),
        cmocka_unit_test(test_neginf),
        cmocka_unit_test(test_f16_conversion),
        cmocka_unit_test(test_bf16_conversion),
        cmocka_unit_test(test_random_conversion),
    };
    return cmocka_run_group_tests_name("adapters_libm", tests, NULL, NULL);
}
