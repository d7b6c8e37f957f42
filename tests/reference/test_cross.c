/* f32 and f64: the reference against the independent oracle on inputs spread over every
 * binade and both signs, denser where the functions are neither saturated nor underflowed,
 * plus runs of consecutive floats around the saturation and underflow thresholds and the
 * inputs whose x/2 is a midpoint (odd subnormals, the lowest normal binade).
 * Usage: test_cross DTYPE N [SEED]: N random inputs per function (each in one of the four
 * rounding modes, in turn), plus the targeted ones in all four modes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "geluref.h"
#include "refcheck.h"

static enum geluref_dtype dtype;
static size_t nrandom;
static uint64_t seed = 1;

/* A random input: half over all binades (exponent field uniform), half with |x| in
 * [2^-30, 2^6), where the reference runs Ziv's loop rather than a rule. */
static uint64_t random_input(uint64_t *st, size_t i)
{
    const struct geluref_dtype_info *d = geluref_dtype_info(dtype);
    uint64_t r = refcheck_rand(st);
    int fb = d->prec - 1;
    uint64_t sign = (uint64_t)(i & 1) << (d->bits - 1);
    uint64_t frac = r & ((UINT64_C(1) << fb) - 1);
    uint64_t nb = (UINT64_C(1) << d->exp_bits) - 1; /* exponent fields 0 .. nb-1 are finite */
    uint64_t ef = (i & 2) ? (r >> fb) % nb : (uint64_t)(d->emax + 6 - (long)((r >> fb) % 36));
    return sign | (ef << fb) | frac;
}

/* Consecutive floats around t (rounded to the dtype): K below and K above. */
static size_t around(uint64_t *xs, size_t n, double t, int k)
{
    mpfr_t v;
    mpfr_init2(v, 53);
    mpfr_set_d(v, t, MPFR_RNDN);
    uint64_t c = geluref_round_to_bits(dtype, v, MPFR_RNDN);
    mpfr_clear(v);
    uint64_t up = c, down = c;
    xs[n++] = c;
    for (int i = 0; i < k; i++) {
        up = refcheck_next_up(dtype, up);
        down = refcheck_next_down(dtype, down);
        xs[n++] = up;
        xs[n++] = down;
    }
    return n;
}

static size_t targeted(uint64_t *xs)
{
    /* thresholds: f32 saturation of gelu near 5.35, tanh/sigmoid ~ 4.3-9.8, the f32 and f64
     * underflow points (-14.356, -38.4 and their approximations' -9.9 .. -60), f64
     * saturation near 8.3, bf16-sized steps near 1.0 */
    static const double anchors32[] = { 5.3475156, -14.356067657470703, -10.0, -5.54,
                                        4.3, 9.8, -9.9, -60.0, 2.70, 2.27, -0.75179152 };
    static const double anchors64[] = { 8.3, 8.45, -38.4, -37.5, -26.5, 6.2, 19.0, -30.0,
                                        2.70, 2.27, -0.75179152469356446 };
    const double *a = dtype == GELUREF_F32 ? anchors32 : anchors64;
    size_t n = 0;
    for (int i = 0; i < 11; i++) {
        n = around(xs, n, a[i], 20);
        n = around(xs, n, -a[i], 20);
    }
    /* x/2 a midpoint: odd multiples of the smallest subnormal, odd last bit in the lowest
     * normal binade */
    const struct geluref_dtype_info *d = geluref_dtype_info(dtype);
    uint64_t sign = UINT64_C(1) << (d->bits - 1), minn = UINT64_C(1) << (d->prec - 1);
    for (uint64_t k = 1; k < 40; k += 2) {
        xs[n++] = k;
        xs[n++] = sign | k;
        xs[n++] = minn | k;
        xs[n++] = sign | minn | k;
    }
    return n;
}

static void test_cross(void **state)
{
    (void)state;
    uint64_t *xs = malloc(sizeof *xs * (nrandom + 2048)), st = seed;
    assert_non_null(xs);
    size_t bad = 0, nt = targeted(xs);
    for (int f = GELUREF_FUNC_FIRST; f <= GELUREF_FUNC_LAST; f++) {
        enum geluref_func fn = (enum geluref_func)f;
        size_t b = refcheck_many(&fn, 1, dtype, xs, nt, refcheck_modes, 4);
        for (size_t i = 0; i < nrandom; i++) {
            uint64_t x = random_input(&st, i);
            b += refcheck_many(&fn, 1, dtype, &x, 1, &refcheck_modes[i % 4], 1);
        }
        print_message("%s %s: %zu targeted x 4 modes + %zu random, %zu mismatches\n",
                      geluref_func_name(fn), geluref_dtype_name(dtype), nt, nrandom, b);
        bad += b;
    }
    /* gelu_scaled with scales other than 1: the targeted set and a share of random inputs */
    static const double scales[] = { 0.25, 0.58, 3.0 };
    char msg[512];
    for (size_t k = 0; k < 3; k++) {
        size_t b = 0;
        for (size_t i = 0; i < nt + nrandom / 4; i++) {
            uint64_t x = i < nt ? xs[i] : random_input(&st, i);
            if (refcheck_one_scaled(GELUREF_GELU_SCALED, dtype, x, refcheck_modes[i % 4],
                                    scales[k], msg, sizeof msg) && b++ < 10)
                fprintf(stderr, "mismatch: %s\n", msg);
        }
        print_message("gelu_scaled s=%g %s: %zu inputs, %zu mismatches\n", scales[k],
                      geluref_dtype_name(dtype), nt + nrandom / 4, b);
        bad += b;
    }
    free(xs);
    assert_int_equal(bad, 0);
}

int main(int argc, char **argv)
{
    if (argc < 3 || geluref_dtype_from_name(argv[1], &dtype) != 0
        || (dtype != GELUREF_F32 && dtype != GELUREF_F64)) {
        fprintf(stderr, "usage: %s f32|f64 N [SEED]\n", argv[0]);
        return 2;
    }
    nrandom = strtoul(argv[2], NULL, 10);
    if (argc > 3)
        seed = strtoull(argv[3], NULL, 10);
    const struct CMUnitTest tests[] = { cmocka_unit_test(test_cross) };
    int failed = cmocka_run_group_tests_name("reference_cross", tests, NULL, NULL);
    refcheck_report_paths();
    return failed;
}
