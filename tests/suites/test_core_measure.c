/* gs_ref_eval and gs_measure.  The round-to-odd shortcut of gs_ref_eval (one evaluation at
 * p + 16 bits gives RN, RD and RU) is cross-checked against geluref_eval(), the ground truth:
 * on random f32 and f64 inputs of every function here, and with the argument "sweep" on every
 * f16 and bf16 input of gelu, normcdf, erfc and gelu_tanh.  Then ulp errors and the primary
 * finding kind of hand-made outputs (docs/design.md section 4). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "suites.h"

static struct gs_ref *ref;
static struct geluref_config cfg;

/* rn, rd, ru, exact and nan of gs_ref_eval against three geluref_eval calls */
static void cross(enum geluref_func f, enum geluref_dtype dt, uint64_t x)
{
    struct gs_refval v;
    uint64_t rn, rd, ru;
    assert_int_equal(gs_ref_eval(ref, f, dt, x, &v), GELUREF_OK);
    assert_int_equal(geluref_eval(f, dt, x, MPFR_RNDN, &rn, &cfg, NULL), GELUREF_OK);
    assert_int_equal(geluref_eval(f, dt, x, MPFR_RNDD, &rd, &cfg, NULL), GELUREF_OK);
    assert_int_equal(geluref_eval(f, dt, x, MPFR_RNDU, &ru, &cfg, NULL), GELUREF_OK);
    if (v.rn != rn || v.rd != rd || v.ru != ru || v.x != x || v.nan != gs_is_nan(dt, x)
        || (!v.nan && v.exact != (rd == ru)))
        fail_msg("%s %s x=0x%llx: rn/rd/ru 0x%llx 0x%llx 0x%llx exact %d, reference 0x%llx "
                 "0x%llx 0x%llx", geluref_func_name(f), geluref_dtype_name(dt),
                 (unsigned long long)x, (unsigned long long)v.rn, (unsigned long long)v.rd,
                 (unsigned long long)v.ru, v.exact, (unsigned long long)rn,
                 (unsigned long long)rd, (unsigned long long)ru);
}

/* Random inputs: half random bit patterns (every binade, the deep tails, NaN, inf), half
 * uniform in [-40, 40] (where every function still varies). */
static void test_cross_random(void **state)
{
    (void)state;
    static const enum geluref_dtype dts[] = { GELUREF_F32, GELUREF_F64 };
    struct gs_rng rng;
    gs_rng_seed(&rng, 20240601);
    for (int f = GELUREF_FUNC_FIRST; f <= GELUREF_FUNC_LAST; f++)
        for (size_t d = 0; d < 2; d++)
            for (int i = 0; i < 1500; i++) {
                uint64_t bits = gs_rng_next(&rng);
                if (dts[d] == GELUREF_F32)
                    bits &= 0xffffffffu;
                if (i % 2)
                    bits = gs_from_double(dts[d], ldexp((double)(bits >> 11), -53) * 80 - 40);
                cross(f, dts[d], bits);
            }
}

static void test_cross_specials(void **state)
{
    (void)state;
    for (int f = GELUREF_FUNC_FIRST; f <= GELUREF_FUNC_LAST; f++)
        for (int dt = GELUREF_DTYPE_FIRST; dt <= GELUREF_DTYPE_LAST; dt++) {
            uint64_t inf = gs_from_double(dt, INFINITY);
            const uint64_t xs[] = { 0, gs_neg(dt, 0), 1, gs_neg(dt, 1), 3, gs_neg(dt, 3), inf,
                                    gs_neg(dt, inf), inf - 1, gs_neg(dt, inf - 1), inf + 1,
                                    gs_from_double(dt, -1), gs_from_double(dt, 2) };
            for (size_t i = 0; i < sizeof xs / sizeof xs[0]; i++)
                cross(f, dt, xs[i]);
        }
}

/* every f16 and bf16 input (argument "sweep") */
static void test_cross_all16(void **state)
{
    (void)state;
    static const enum geluref_func fs[] = { GELUREF_GELU, GELUREF_NORMCDF, GELUREF_ERFC,
                                            GELUREF_GELU_TANH };
    for (size_t i = 0; i < sizeof fs / sizeof fs[0]; i++)
        for (int dt = GELUREF_F16; dt <= GELUREF_BF16; dt++)
            for (uint64_t x = 0; x < 0x10000; x++)
                cross(fs[i], dt, x);
}

static struct gs_meas meas(enum geluref_func f, enum geluref_dtype dt, uint64_t x, uint64_t y)
{
    struct gs_meas m;
    assert_int_equal(gs_measure(ref, f, dt, x, y, &m), GELUREF_OK);
    return m;
}

static uint64_t want_of(enum geluref_func f, enum geluref_dtype dt, uint64_t x)
{
    uint64_t w;
    assert_int_equal(geluref_eval(f, dt, x, MPFR_RNDN, &w, NULL, NULL), GELUREF_OK);
    return w;
}

/* got = RN(f(x)) moved by k positions inside one binade: |got - f| = k ulp -+ |RN - f|, and
 * |RN - f| <= ulp/2, so the error is within [k - 1/2, k + 1/2]; cr_distance is k; faithful
 * only for k = 0 and the neighbour on f's other side. */
static void test_ulp_positions(void **state)
{
    (void)state;
    /* 0x1.8p-14, 0x1.8p-126, 0x1.8p-1022: GELU ~ x/2 is a subnormal in [2^(emin-1), 2^emin)
     * for f16, f32/bf16 and f64 (the ulp stays 2^(emin-p+1) there) */
    static const double xs[] = { -1.0, -3.0, 0.3, 2.5, -6.0, 0x1.8p-14, 0x1.8p-126,
                                 -0x1.8p-1022 };
    for (int dt = GELUREF_DTYPE_FIRST; dt <= GELUREF_DTYPE_LAST; dt++)
        for (size_t i = 0; i < sizeof xs / sizeof xs[0]; i++)
            for (int k = -5; k <= 5; k++) {
                uint64_t x = gs_from_double(dt, xs[i]), w = want_of(GELUREF_GELU, dt, x);
                uint64_t y = gs_from_pos(dt, gs_pos(dt, w) + k);
                int bin = geluref_dtype_info(dt)->prec - 1; /* exponent field from here */
                if ((y >> bin) != (w >> bin))
                    continue; /* another binade (or sign): the ulp changes */
                struct gs_meas m = meas(GELUREF_GELU, dt, x, y);
                double a = abs(k);
                if (!(m.ulp >= a - 0.5 && m.ulp <= a + 0.5))
                    fail_msg("dtype %d x=%g k=%d: ulp %g", dt, xs[i], k, m.ulp);
                assert_int_equal(m.cr_distance, abs(k));
                assert_int_equal(m.cr, k == 0);
                assert_int_equal(m.defect, k == 0 ? GS_K_NONE : GS_K_ULP_EXCEEDED);
                if (abs(k) > 1)
                    assert_false(m.faithful);
                if (k == 0)
                    assert_true(m.faithful && m.ulp <= 0.5);
                /* relative error = absolute / |f|, to the double's accuracy */
                if (m.want_class == GS_WANT_NORMAL
                    && !(fabs(m.rel_err * fabs(gs_to_double(dt, w)) - m.abs_err)
                      <= 1e-2 * m.abs_err + 1e-300))
                    fail_msg("dtype %d x=%g k=%d: rel %g abs %g want %g", dt, xs[i], k,
                             m.rel_err, m.abs_err, gs_to_double(dt, w));
            }
}

/* docs/design.md section 2: binary32 GELU(3*2^-149) = 2*2^-149 (x/2 = 1.5*2^-149 is a midpoint and
 * the x^2 term, positive, decides upwards); f(x) = 1.5 * 2^-149 + tiny, ulp(f) = 2^-149. */
static void test_ulp_subnormal(void **state)
{
    (void)state;
    const enum geluref_dtype dt = GELUREF_F32;
    struct gs_meas m = meas(GELUREF_GELU, dt, 3, 2);
    assert_true(m.cr && m.want == 2 && m.want_class == GS_WANT_SUBNORMAL);
    assert_true(m.ulp > 0.49 && m.ulp < 0.5); /* |2 - (1.5 + tiny)| */
    m = meas(GELUREF_GELU, dt, 3, 1);             /* the other faithful neighbour */
    assert_true(m.faithful && !m.cr && m.cr_distance == 1 && m.defect == GS_K_ULP_EXCEEDED);
    assert_true(m.ulp > 0.5 && m.ulp < 0.51);
    m = meas(GELUREF_GELU, dt, 3, 0);             /* flushed: ftz, error 1.5 ulp */
    assert_true(m.defect == GS_K_FTZ && m.ulp > 1.5 && m.ulp < 1.51 && !m.faithful);
    /* GELU(-3*2^-149) = -2^-149 */
    m = meas(GELUREF_GELU, dt, 0x80000003u, 0x80000001u);
    assert_true(m.cr && m.ulp > 0.49 && m.ulp <= 0.5);
    /* x = 2^-149: f(x) = 2^-150 + tiny (x/2 a midpoint, the x^2 term decides upwards), so
     * RN = 2^-149 and RD = +0: a zero output is a faithful rounding, not a flush to zero
     * (ulp_exceeded of about 1/2 ulp, which accuracy_domain = normal excuses) */
    m = meas(GELUREF_GELU, dt, 1, 0);
    assert_true(m.want == 1 && m.want_class == GS_WANT_SUBNORMAL && m.faithful);
    assert_true(m.defect == GS_K_ULP_EXCEEDED && m.ulp > 0.49 && m.ulp < 0.51);
}

/* want 0: binary32 GELU(-20) = -20 Phi(-20) ~ -5.5e-88 * 20, far below 2^-150, so RN = -0 and
 * ulp(f) = 2^-149: any zero output has error ~0, the smallest subnormal ~1 ulp. */
static void test_ulp_zero(void **state)
{
    (void)state;
    const enum geluref_dtype dt = GELUREF_F32;
    uint64_t x = gs_from_double(dt, -20.0);
    struct gs_meas m = meas(GELUREF_GELU, dt, x, 0x80000000u);
    assert_true(m.cr && m.want == 0x80000000u && m.want_class == GS_WANT_ZERO);
    assert_true(m.ulp < 1e-30 && m.abs_err < 1e-80);
    m = meas(GELUREF_GELU, dt, x, 0);
    assert_true(m.defect == GS_K_SIGNED_ZERO && m.faithful && m.cr_distance == 0);
    m = meas(GELUREF_GELU, dt, x, 0x80000001u);
    assert_true(m.defect == GS_K_ULP_EXCEEDED && m.faithful && fabs(m.ulp - 1) < 1e-30);
    m = meas(GELUREF_GELU, dt, x, 1);
    assert_true(m.defect == GS_K_WRONG_SIGN && !m.faithful && fabs(m.ulp - 1) < 1e-30);
    assert_true(isinf(m.rel_err) || m.rel_err > 1e30);
}

/* One hand-made output per primary kind (docs/design.md section 4), binary32 GELU(-1) =
 * -0.15865525393145705 (a normal number) unless said otherwise. */
static void test_defects(void **state)
{
    (void)state;
    const enum geluref_dtype dt = GELUREF_F32;
    uint64_t x = gs_from_double(dt, -1.0), w = want_of(GELUREF_GELU, dt, x);
    uint64_t inf = 0x7f800000u, qnan = 0x7fc00000u;
    static const struct { uint64_t y; enum gs_kind k; const char *why; } rows[] = {
        { 0x7fc00000u, GS_K_NAN_OUTPUT, "nan" },
        { 0xffc00001u, GS_K_NAN_OUTPUT, "nan, other sign and payload" },
        { 0xff800000u, GS_K_INF_OUTPUT, "-inf: before wrong_sign" },
        { 0x7f800000u, GS_K_INF_OUTPUT, "+inf" },
        { 0x3e227686u, GS_K_WRONG_SIGN, "+0.15865525 (-want)" },
        { 0x00000001u, GS_K_WRONG_SIGN, "+2^-149" },
        { 0x80000000u, GS_K_PREMATURE_FLUSH, "-0 for a normal" },
        { 0x00000000u, GS_K_PREMATURE_FLUSH, "+0 for a normal" },
        { 0xbe800000u, GS_K_ULP_EXCEEDED, "-0.25" },
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        struct gs_meas m = meas(GELUREF_GELU, dt, x, rows[i].y);
        if (m.defect != rows[i].k)
            fail_msg("row %zu (%s): kind %d", i, rows[i].why, (int)m.defect);
        assert_false(m.cr);
        if (rows[i].k == GS_K_NAN_OUTPUT || rows[i].k == GS_K_INF_OUTPUT)
            assert_true(isinf(m.ulp) && isinf(m.abs_err) && !m.faithful);
        if (rows[i].k == GS_K_NAN_OUTPUT)
            assert_int_equal(m.cr_distance, -1);
    }
    struct gs_meas m = meas(GELUREF_GELU, dt, x, w);
    assert_true(m.cr && m.defect == GS_K_NONE && m.want_class == GS_WANT_NORMAL);
    /* ftz and signed_zero: see test_ulp_subnormal and test_ulp_zero.  NaN in: any NaN out is
     * correctly rounded, a number is not. */
    m = meas(GELUREF_GELU, dt, qnan, 0xffc00123u);
    assert_true(m.cr && m.faithful && m.ulp == 0 && m.cr_distance == -1);
    assert_int_equal(m.want_class, GS_WANT_NAN);
    m = meas(GELUREF_GELU, dt, qnan, 0);
    assert_true(!m.cr && m.defect == GS_K_ULP_EXCEEDED && isinf(m.ulp));
    /* x = +inf: GELU = +inf; -inf out has the wrong sign, the largest float is just wrong */
    m = meas(GELUREF_GELU, dt, inf, inf);
    assert_true(m.cr && m.ulp == 0 && m.want_class == GS_WANT_INF);
    m = meas(GELUREF_GELU, dt, inf, 0xff800000u);
    assert_true(m.defect == GS_K_WRONG_SIGN && isinf(m.ulp));
    m = meas(GELUREF_GELU, dt, inf, 0x7f7fffffu);
    assert_true(m.defect == GS_K_ULP_EXCEEDED && isinf(m.ulp));
    /* x = -inf: GELU = -0; +0 out is a zero sign */
    m = meas(GELUREF_GELU, dt, 0xff800000u, 0);
    assert_int_equal(m.defect, GS_K_SIGNED_ZERO);
    /* exact zero f(+0) = +0: a negative output has the wrong sign */
    m = meas(GELUREF_GELU, dt, 0, 0x80000001u);
    assert_int_equal(m.defect, GS_K_WRONG_SIGN);
}

/* The deep tail below MPFR's exponent range (|x| > 2.5e9 for gelu): decided, not a cap hit. */
static void test_deep_tail(void **state)
{
    (void)state;
    struct geluref_stats before = *gs_ref_stats(ref);
    uint64_t x = gs_from_double(GELUREF_F32, -1e20);
    cross(GELUREF_GELU, GELUREF_F32, x);
    struct gs_meas m = meas(GELUREF_GELU, GELUREF_F32, x, 0x80000001u);
    assert_true(m.faithful && m.defect == GS_K_ULP_EXCEEDED && fabs(m.ulp - 1) < 1e-30);
    assert_int_equal(gs_ref_stats(ref)->cap_hits, before.cap_hits);
    assert_true(gs_ref_stats(ref)->calls > before.calls);
}

/* The errors computed in double from the p+16-bit value against errors computed with MPFR
 * from f(x) at 300 bits: |V - f| <= 2^-(p+15) |f| moves the ulp error by <= 2^-15 and the
 * absolute error by <= 2^-(p+15) |f|; the double arithmetic adds 2^-50 relatively.  Outputs:
 * RN(f) moved by 0, 1, 7 and 5000 positions, and +0. */
static void check_errors(enum geluref_func f, enum geluref_dtype dt, uint64_t x, uint64_t y)
{
    const struct geluref_dtype_info *d = geluref_dtype_info(dt);
    struct gs_meas m;
    assert_int_equal(gs_measure(ref, f, dt, x, y, &m), GELUREF_OK);
    if (gs_is_nan(dt, y) || gs_is_inf(dt, y) || gs_is_nan(dt, x))
        return;
    mpfr_exp_t emin = mpfr_get_emin();
    mpfr_set_emin(mpfr_get_emin_min());
    mpfr_t xm, fx, ym, dm;
    mpfr_inits2(300, xm, fx, ym, dm, (mpfr_ptr)0);
    geluref_bits_to_mpfr(xm, dt, x);
    geluref_bits_to_mpfr(ym, dt, y);
    int t;
    /* RZ keeps f(x)'s binade (2 - tiny would round to 2 in RN) */
    assert_int_equal(geluref_eval_mpfr(f, fx, xm, NULL, MPFR_RNDZ, &cfg, NULL, &t), GELUREF_OK);
    mpfr_sub(dm, ym, fx, MPFR_RNDN);
    mpfr_abs(dm, dm, MPFR_RNDN);
    double abs_err = mpfr_get_d(dm, MPFR_RNDN);
    long e = mpfr_zero_p(fx) ? d->emin : (long)mpfr_get_exp(fx) - 1;
    if (e < d->emin)
        e = d->emin;
    mpfr_mul_2si(dm, dm, -(e - d->prec + 1), MPFR_RNDN);
    double ulp = mpfr_get_d(dm, MPFR_RNDN);
    double fabsv = fabs(mpfr_get_d(fx, MPFR_RNDN));
    mpfr_clears(xm, fx, ym, dm, (mpfr_ptr)0);
    mpfr_set_emin(emin);
    if (!(fabs(m.ulp - ulp) <= 0x1p-15 + 0x1p-50 * ulp)
        || !(fabs(m.abs_err - abs_err) <= ldexp(fabsv, -(d->prec + 15)) + 0x1p-50 * abs_err))
        fail_msg("%s %s x=0x%llx y=0x%llx: ulp %.17g abs %.17g, MPFR says %.17g %.17g",
                 geluref_func_name(f), geluref_dtype_name(dt), (unsigned long long)x,
                 (unsigned long long)y, m.ulp, m.abs_err, ulp, abs_err);
}

static void test_errors_vs_mpfr(void **state)
{
    (void)state;
    const enum geluref_func fs[] = { GELUREF_GELU, GELUREF_ERFC, GELUREF_GELU_TANH,
                                     GELUREF_GELU_GRAD };
    const enum geluref_dtype dts[] = { GELUREF_F32, GELUREF_F64, GELUREF_F16 };
    const int64_t moves[] = { 0, 1, -7, 5000 };
    struct gs_rng r;
    gs_rng_seed(&r, 77);
    for (size_t i = 0; i < 300; i++) {
        enum geluref_func f = fs[i % 4];
        enum geluref_dtype dt = dts[(i / 4) % 3];
        uint64_t x = gs_from_double(dt, -45.0 + 60.0 * (double)gs_rng_below(&r, 1000000) / 1e6);
        struct gs_refval v;
        assert_int_equal(gs_ref_eval(ref, f, dt, x, &v), GELUREF_OK);
        for (size_t k = 0; k < 4; k++) {
            int64_t p = gs_pos(dt, v.rn) + moves[k];
            check_errors(f, dt, x, gs_from_pos(dt, p));
        }
        check_errors(f, dt, x, 0);
    }
}

static int setup(void **state)
{
    (void)state;
    geluref_config_init(&cfg);
    cfg.scale = 1.5; /* gelu_scaled: an s that is not 1 */
    ref = gs_ref_new(&cfg);
    return ref == NULL;
}

static int teardown(void **state)
{
    (void)state;
    gs_ref_free(ref);
    return 0;
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cross_specials), cmocka_unit_test(test_cross_random),
        cmocka_unit_test(test_ulp_positions),  cmocka_unit_test(test_ulp_subnormal),
        cmocka_unit_test(test_ulp_zero),       cmocka_unit_test(test_defects),
        cmocka_unit_test(test_deep_tail),      cmocka_unit_test(test_errors_vs_mpfr),
    };
    const struct CMUnitTest sweep[] = { cmocka_unit_test(test_cross_all16) };
    if (argc > 1 && strcmp(argv[1], "sweep") == 0)
        return cmocka_run_group_tests_name("suites core measure sweep", sweep, setup, teardown);
    return cmocka_run_group_tests_name("suites core measure", tests, setup, teardown);
}
