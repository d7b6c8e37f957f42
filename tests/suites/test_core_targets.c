/* gs_targets_build: each threshold checked with geluref_eval() (not the round-to-odd path) at
 * the threshold and at its neighbour past it, for every function 1..9 in f16, bf16 and f32;
 * the binary32 gelu values of docs/design.md; the target list; the zeros of gelu_grad and
 * gelu_tanh_grad and the window around them, and that no function has another. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "suites.h"

static uint64_t rn(enum geluref_func f, enum geluref_dtype dt, uint64_t x)
{
    uint64_t y;
    assert_int_equal(geluref_eval(f, dt, x, MPFR_RNDN, &y, NULL, NULL), GELUREF_OK);
    return y;
}

/* the neighbour of x one position farther from 0 */
static uint64_t outward(enum geluref_dtype dt, uint64_t x)
{
    int64_t p = gs_pos(dt, x);
    return gs_from_pos(dt, p < 0 ? p - 1 : p + 1);
}

static uint64_t inward(enum geluref_dtype dt, uint64_t x)
{
    int64_t p = gs_pos(dt, x);
    return gs_from_pos(dt, p < 0 ? p + 1 : p - 1);
}

static int normal(enum geluref_dtype dt, uint64_t y)
{
    return !gs_is_zero(dt, y) && !gs_is_subnormal(dt, y) && !gs_is_inf(dt, y) && !gs_is_nan(dt, y);
}

static int is_gelu_family(enum geluref_func f)
{
    return f == GELUREF_GELU || f == GELUREF_GELU_TANH || f == GELUREF_GELU_SIGMOID;
}

/* the saturation predicate: RN(f(x)) is the limit (x itself for the gelu family) */
static int saturated(enum geluref_func f, enum geluref_dtype dt, uint64_t x)
{
    uint64_t y = rn(f, dt, x);
    if (is_gelu_family(f))
        return y == x;
    double want = f == GELUREF_ERFC ? 2.0 : gs_sign(dt, x) ? -1.0 : 1.0;
    return y == gs_from_double(dt, want);
}

static void check(enum geluref_func f, enum geluref_dtype dt)
{
    struct gs_ref *r = gs_ref_new(NULL);
    struct gs_targets t;
    const char *fn = geluref_func_name(f), *dn = geluref_dtype_name(dt);
    assert_non_null(r);
    assert_int_equal(gs_targets_build(r, f, dt, &t), GELUREF_OK);
    /* which thresholds exist (suites.h) */
    assert_int_equal(t.has_last_nonzero, f != GELUREF_ERF);
    assert_int_equal(t.has_last_normal, f != GELUREF_ERF);
    assert_int_equal(t.has_sat, f != GELUREF_NORMPDF);
    assert_int_equal(t.has_sat_neg, f == GELUREF_ERF);
    assert_int_equal(t.has_min, is_gelu_family(f) || f == GELUREF_GELU_GRAD
                                    || f == GELUREF_GELU_TANH_GRAD);
    assert_int_equal(t.has_zero, f == GELUREF_GELU_GRAD || f == GELUREF_GELU_TANH_GRAD);
    if (t.has_last_nonzero) {
        assert_int_equal(gs_sign(dt, t.last_nonzero), f != GELUREF_ERFC);
        if (gs_is_zero(dt, rn(f, dt, t.last_nonzero))
            || !gs_is_zero(dt, rn(f, dt, outward(dt, t.last_nonzero))))
            fail_msg("%s %s: last_nonzero 0x%llx", fn, dn, (unsigned long long)t.last_nonzero);
    }
    if (t.has_last_normal
        && (!normal(dt, rn(f, dt, t.last_normal))
            || normal(dt, rn(f, dt, outward(dt, t.last_normal)))))
        fail_msg("%s %s: last_normal 0x%llx", fn, dn, (unsigned long long)t.last_normal);
    if (t.has_sat) {
        assert_int_equal(gs_sign(dt, t.sat), f == GELUREF_ERFC);
        if (!saturated(f, dt, t.sat) || saturated(f, dt, inward(dt, t.sat))
            || !saturated(f, dt, outward(dt, t.sat)))
            fail_msg("%s %s: saturation 0x%llx", fn, dn, (unsigned long long)t.sat);
    }
    if (t.has_sat_neg
        && (!saturated(f, dt, t.sat_neg) || saturated(f, dt, inward(dt, t.sat_neg))))
        fail_msg("%s %s: saturation_neg 0x%llx", fn, dn, (unsigned long long)t.sat_neg);
    if (t.has_min) {
        /* RN of the minimum is the smallest RN over +-64 floats around it */
        assert_int_equal(t.min_value, rn(f, dt, t.min_x));
        double m = gs_to_double(dt, t.min_value);
        for (int k = -64; k <= 64; k++)
            if (gs_to_double(dt, rn(f, dt, gs_from_pos(dt, gs_pos(dt, t.min_x) + k))) < m)
                fail_msg("%s %s: minimum at 0x%llx, smaller %d floats away", fn, dn,
                         (unsigned long long)t.min_x, k);
    }
    /* the list: sorted by bits, no duplicates, finite, holding every threshold and +-1 */
    assert_true(t.n > 100);
    for (size_t i = 0; i < t.n; i++) {
        assert_false(gs_is_nan(dt, t.x[i]) || gs_is_inf(dt, t.x[i]));
        if (i > 0)
            assert_true(t.x[i - 1] < t.x[i]);
    }
    const uint64_t must[] = { t.has_last_nonzero ? t.last_nonzero : 0,
                              t.has_sat ? t.sat : 0, t.has_min ? t.min_x : 0,
                              t.has_zero ? t.zero_x : 0,
                              gs_from_double(dt, -1.0), gs_from_double(dt, 3.0),
                              gs_neg(dt, 0), 1, gs_neg(dt, 3) };
    for (size_t i = 0; i < sizeof must / sizeof must[0]; i++) {
        size_t j = 0;
        while (j < t.n && t.x[j] != must[i])
            j++;
        if (j == t.n)
            fail_msg("%s %s: 0x%llx not a target", fn, dn, (unsigned long long)must[i]);
    }
    json_t *j = gs_targets_json(&t, dt);
    assert_int_equal(json_integer_value(json_object_get(j, "count")), t.n);
    assert_int_equal(json_object_get(j, "saturation_neg") != NULL, t.has_sat_neg);
    assert_int_equal(json_object_get(j, "zero_at") != NULL, t.has_zero);
    json_decref(j);
    gs_targets_release(&t);
    assert_null(t.x);
    gs_ref_free(r);
}

static void test_all(void **state)
{
    (void)state;
    static const enum geluref_dtype dts[] = { GELUREF_F16, GELUREF_BF16, GELUREF_F32 };
    for (int f = GELUREF_GELU; f <= GELUREF_ERFC; f++)
        for (size_t d = 0; d < sizeof dts / sizeof dts[0]; d++)
            check(f, dts[d]);
    check(GELUREF_GELU, GELUREF_F64);
    check(GELUREF_GELU_GRAD, GELUREF_F64);
    check(GELUREF_GELU_TANH_GRAD, GELUREF_F64);
}

/* docs/design.md section 2: the last binary32 x whose correctly rounded GELU is non-zero is
 * -14.356067657470703; the minimum of GELU is at x* = -0.75179152469356446 (f64: the float
 * nearest it); STYLE.md quotes musl's threshold 0x1.563db2p+2 (5.3475156) above which
 * RN(GELU(x)) = x in binary32. */
static void test_gelu_f32_values(void **state)
{
    (void)state;
    struct gs_ref *r = gs_ref_new(NULL);
    struct gs_targets t;
    assert_int_equal(gs_targets_build(r, GELUREF_GELU, GELUREF_F32, &t), GELUREF_OK);
    assert_true(gs_to_double(GELUREF_F32, t.last_nonzero) == -14.356067657470703);
    assert_true(gs_to_double(GELUREF_F32, t.sat) == 0x1.563db2p+2);
    assert_true(fabs(gs_to_double(GELUREF_F32, t.min_x) + 0.75179152469356446) < 1e-4);
    gs_targets_release(&t);
    assert_int_equal(gs_targets_build(r, GELUREF_GELU, GELUREF_F64, &t), GELUREF_OK);
    assert_true(fabs(gs_to_double(GELUREF_F64, t.min_x) + 0.75179152469356446) < 3e-16);
    assert_true(gs_to_double(GELUREF_F64, t.min_value) == -0.16997120747990366);
    gs_targets_release(&t);
    gs_ref_free(r);
}

/* The zeros of gelu_grad and gelu_tanh_grad: the float nearest each, from 40 digits of the
 * zero (python3 with mpmath 1.3: mp.dps = 50; findroot(lambda x: ncdf(x) + x*npdf(x), -0.75)
 * = -0.75179152469356445745790...; the tanh form's derivative, 0.5 (1 + tanh u) + 0.5 x
 * sech(u)^2 c (1 + 3a x^2), u = c (x + a x^3), c = sqrt(2/pi), a = 0.044715:
 * -0.75246142207101625848795...), rounded to nearest in the binade [-1, -0.5). */
static const struct {
    enum geluref_func f;
    enum geluref_dtype dt;
    uint64_t bits;
    const char *why;
} zeros[] = {
    { GELUREF_GELU_GRAD, GELUREF_F64, UINT64_C(0xbfe80ead197f00b4),
      "-0x1.80ead197f00b4p-1: x* is 0.135 of a spacing above it" },
    { GELUREF_GELU_GRAD, GELUREF_F32, 0xbf407569, "-0x1.80ead2p-1: x* 0.203 above" },
    { GELUREF_GELU_GRAD, GELUREF_F16, 0xba04, "-0x1.81p-1: x* 0.331 above" },
    { GELUREF_GELU_GRAD, GELUREF_BF16, 0xbf40, "-0x1.8p-1 (-0.75): x* 0.459 below" },
    { GELUREF_GELU_TANH_GRAD, GELUREF_F64, UINT64_C(0xbfe81429f9e97e4d),
      "-0x1.81429f9e97e4dp-1: the zero 0.327 above" },
    { GELUREF_GELU_TANH_GRAD, GELUREF_F32, 0xbf40a150, "-0x1.8142ap-1: the zero 0.190 above" },
    { GELUREF_GELU_TANH_GRAD, GELUREF_F16, 0xba05, "-0x1.814p-1: the zero 0.041 below" },
    { GELUREF_GELU_TANH_GRAD, GELUREF_BF16, 0xbf41, "-0x1.82p-1: the zero 0.370 above" },
};

static int listed(const struct gs_targets *t, uint64_t x)
{
    size_t lo = 0, hi = t->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (t->x[mid] < x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < t->n && t->x[lo] == x;
}

/* zero_x is the tabled float; the whole window is in the list; over it, RN(f) is negative
 * below zero_x and positive above it, and no |RN(f)| is smaller than at zero_x. */
static void test_zero_windows(void **state)
{
    (void)state;
    struct gs_ref *r = gs_ref_new(NULL);
    assert_non_null(r);
    for (size_t i = 0; i < sizeof zeros / sizeof zeros[0]; i++) {
        enum geluref_func f = zeros[i].f;
        enum geluref_dtype dt = zeros[i].dt;
        const char *fn = geluref_func_name(f), *dn = geluref_dtype_name(dt);
        struct gs_targets t;
        assert_int_equal(gs_targets_build(r, f, dt, &t), GELUREF_OK);
        if (!t.has_zero || t.zero_x != zeros[i].bits)
            fail_msg("%s %s: zero_x 0x%llx, want 0x%llx (%s)", fn, dn,
                     (unsigned long long)t.zero_x, (unsigned long long)zeros[i].bits,
                     zeros[i].why);
        int64_t w = gs_target_zero_window(dt), c = gs_pos(dt, t.zero_x);
        assert_int_equal(w, dt == GELUREF_F16 ? 256 : dt == GELUREF_BF16 ? 32 : 4096);
        double at = fabs(gs_to_double(dt, rn(f, dt, t.zero_x)));
        for (int64_t k = -w; k <= w; k++) {
            uint64_t x = gs_from_pos(dt, c + k);
            if (!listed(&t, x))
                fail_msg("%s %s: 0x%llx (%lld from the zero) not a target", fn, dn,
                         (unsigned long long)x, (long long)k);
            if (k == 0)
                continue;
            uint64_t y = rn(f, dt, x);
            if (gs_sign(dt, y) != (k < 0) || fabs(gs_to_double(dt, y)) < at)
                fail_msg("%s %s: RN(f) = 0x%llx at %lld floats from 0x%llx (%s)", fn, dn,
                         (unsigned long long)y, (long long)k, (unsigned long long)t.zero_x,
                         zeros[i].why);
        }
        gs_targets_release(&t);
    }
    gs_ref_free(r);
}

/* No other function changes sign away from x = 0: RN(f) in binary64 on a grid of step 1/16
 * over [-40, 40] (past it every function is saturated or 0 of one sign) changes sign, on
 * either side of 0, only in the grid cell of zero_x (gelu_grad, gelu_tanh_grad).  A pair of
 * zeros closer than 1/16 would escape the grid; none of these functions has two extrema
 * that close (their derivatives are phi(x) times polynomials of degree <= 4, or sech^2). */
static void test_no_other_zeros(void **state)
{
    (void)state;
    struct gs_ref *r = gs_ref_new(NULL);
    assert_non_null(r);
    for (int f = GELUREF_GELU; f <= GELUREF_ERFC; f++) {
        struct gs_targets t;
        assert_int_equal(gs_targets_build(r, f, GELUREF_F64, &t), GELUREF_OK);
        int changes = 0;
        for (int side = -1; side <= 1; side += 2) {
            int prev = -1;
            for (int i = 1; i <= 40 * 16; i++) {
                double x = side * i / 16.0;
                int sg = gs_sign(GELUREF_F64, rn(f, GELUREF_F64, gs_from_double(GELUREF_F64, x)));
                if (prev >= 0 && sg != prev) {
                    double z = t.has_zero ? gs_to_double(GELUREF_F64, t.zero_x) : 0;
                    double a = side * (i - 1) / 16.0;
                    if (!t.has_zero || z < fmin(a, x) || z > fmax(a, x))
                        fail_msg("%s: a sign change between %g and %g", geluref_func_name(f),
                                 a, x);
                    changes++;
                }
                prev = sg;
            }
        }
        assert_int_equal(changes, t.has_zero);
        gs_targets_release(&t);
    }
    gs_ref_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gelu_f32_values),
        cmocka_unit_test(test_all),
        cmocka_unit_test(test_zero_windows),
        cmocka_unit_test(test_no_other_zeros),
    };
    return cmocka_run_group_tests_name("suites core targets", tests, NULL, NULL);
}
