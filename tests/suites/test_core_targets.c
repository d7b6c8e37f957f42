/* gs_targets_build: each threshold checked with geluref_eval() (not the round-to-odd path) at
 * the threshold and at its neighbour past it, for every function 1..9 in f16, bf16 and f32;
 * the binary32 gelu values of DESIGN.md; the target list. */
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
}

/* DESIGN.md section 2: the last binary32 x whose correctly rounded GELU is non-zero is
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gelu_f32_values),
        cmocka_unit_test(test_all),
    };
    return cmocka_run_group_tests_name("suites core targets", tests, NULL, NULL);
}
