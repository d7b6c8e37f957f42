/* musl against glibc: every kernel of the `musl` adapter and the same kernel of the `libm`
 * adapter (glibc, in-process) on the same inputs, bit for bit.  Prints, per kernel, how many
 * outputs differ and, where they do, which library is nearer the correctly rounded result and
 * the largest error of each.  Which bits differ depends on both libraries' versions and on
 * glibc's CPU dispatch (FMA variants of exp/expf), so those counts are printed, not asserted.
 * Asserted: what follows from the formulas whichever library runs them (below). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "adapt_util.h"
#include "test_musl.h"

#define SAMPLE 20000 /* f32/f64 inputs per kernel; f16/bf16: all 65536 */

static uint64_t xs[65536], ym[65536], yg[65536];

/* The f32/f64 sample, the same every run: most in [-8, 8], a tail to -40, large, tiny. */
static size_t fill(enum geluref_dtype dt)
{
    uint64_t rng = 11;

    if (dt == GELUREF_F16 || dt == GELUREF_BF16) {
        for (size_t i = 0; i < 65536; i++)
            xs[i] = i;
        return 65536;
    }
    for (size_t i = 0; i < SAMPLE; i++) {
        double v = i < 14000   ? au_uniform(&rng, -8, 8)
                   : i < 17000 ? au_uniform(&rng, -40, -8)
                   : i < 19000 ? au_uniform(&rng, 8, 1e4)
                               : ldexp(au_uniform(&rng, 1, 2), -(int)(au_rand(&rng) % 120));
        xs[i] = tm_bits(dt, i % 2 || i < 19000 ? v : -v);
    }
    return SAMPLE;
}

/* Error of y against the reference: cr_distance for f16/bf16, else ulp; results that are
 * not normal numbers count only when the output is NaN where the reference is not. */
static double err(const struct gc_kernel *k, uint64_t x, uint64_t y)
{
    if (k->dtype == GELUREF_F16 || k->dtype == GELUREF_BF16)
        return (double)au_cr_distance(k->dtype, y, au_ref(k->func, k->dtype, x));
    return au_ulp_error(k->func, k->dtype, x, y);
}

/* The float erf form flushes once erff(x/sqrt2) rounds to -1, i.e. once erf is within half
 * an ulp of -1 (2^-25): a property of binary32, not of the library.  Both erffs derive from
 * the same fdlibm code and are faithful there, so both flush points (the largest x < 0 with
 * output 0, scanned down from -5.5) lie within a few floats of -5.5426 (docs/design.md section 2:
 * "returns 0 below about -5.54"). */
static float flush_point(const struct gc_kernel *k)
{
    float x = -5.5f;
    uint64_t in[4096], out[4096];

    while (x > -6.0f) {
        for (size_t i = 0; i < N(in); i++, x = nextafterf(x, -INFINITY))
            in[i] = au_bits_f32(x);
        tm_eval(k, in, out, N(in));
        for (size_t i = 0; i < N(in); i++)
            if (au_is_zero(GELUREF_F32, out[i]))
                return au_f32(in[i]);
    }
    return -INFINITY;
}

static void test_compare(void **state)
{
    (void)state;
    struct gc_adapter *m = tm_open("musl"), *g = tm_open("libm");

    print_message("%-18s %6s %6s %6s %6s %9s %9s  %s\n", "kernel", "inputs", "differ",
                  "musl+", "glibc+", "max musl", "max glibc", "x where they differ");
    for (size_t i = 0; i < m->n_kernels; i++) {
        const struct gc_kernel *km = &m->kernels[i], *kg = tm_kernel(g, km->name);
        size_t n = fill(km->dtype), differ = 0, musl_nearer = 0, glibc_nearer = 0;
        double worst_m = 0, worst_g = 0, lo = INFINITY, hi = -INFINITY;
        tm_eval(km, xs, ym, n);
        tm_eval(kg, xs, yg, n);
        for (size_t j = 0; j < n; j++) {
            if (ym[j] == yg[j] || (au_is_nan(km->dtype, ym[j]) && au_is_nan(km->dtype, yg[j])))
                continue;
            differ++;
            double em = err(km, xs[j], ym[j]), eg = err(km, xs[j], yg[j]);
            musl_nearer += em < eg;
            glibc_nearer += eg < em;
            worst_m = fmax(worst_m, em);
            worst_g = fmax(worst_g, eg);
            lo = fmin(lo, tm_value(km->dtype, xs[j]));
            hi = fmax(hi, tm_value(km->dtype, xs[j]));
        }
        char where[64] = "-";
        if (differ)
            snprintf(where, sizeof where, "[%.4g, %.4g]", lo, hi);
        print_message("%-18s %6zu %6zu %6zu %6zu %9.4g %9.4g  %s\n", km->name, n, differ,
                      musl_nearer, glibc_nearer, worst_m, worst_g, where);
    }
    print_message("(differ: outputs whose bits differ; musl+/glibc+: of those, where that "
                  "library is nearer the correctly rounded result; max: the largest error "
                  "among them, ulp or cr_distance)\n");

    float fm = flush_point(tm_kernel(m, "erf1p.f32"));
    float fg = flush_point(tm_kernel(g, "erf1p.f32"));
    print_message("erf1p.f32 flush point: musl %a (%.9g), glibc %a (%.9g)\n", (double)fm,
                  (double)fm, (double)fg, (double)fg);
    assert_true(fm > -5.5427f && fm < -5.5425f);
    assert_true(fg > -5.5427f && fg < -5.5425f);
    gc_adapter_close(m);
    gc_adapter_close(g);
}

int tm_compare_tests(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_compare),
    };
    return cmocka_run_group_tests_name("musl_compare", tests, NULL, NULL);
}
