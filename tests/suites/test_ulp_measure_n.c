/* gs_measure_n (the ulp sweep's block measurement, suites/measure.c) against gs_measure, one
 * input at a time: every field of struct gs_meas, the doubles bit for bit.  Outputs are the
 * correctly rounded one, its neighbours, +-0, +-inf, NaN, the largest finite and a random
 * pattern, so every finding kind and every branch of the error computation is met.
 *   default: every f16 and bf16 input of gelu, gelu_grad, erfc, gelu_tanh and normpdf (one
 *            gs_measure_n call of 65536 inputs each), and runs of consecutive f32 and f64
 *            patterns of every function;
 *   "sweep": every f16 and bf16 input of every function, and longer f32 runs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "measure_hp.h"

static struct gs_ref *ref;
static int full; /* "sweep" */

static int same_double(double a, double b) { return memcmp(&a, &b, sizeof a) == 0; }

static void same_meas(const struct gs_meas *a, const struct gs_meas *b, enum geluref_func f,
                      enum geluref_dtype dt)
{
    if (a->x != b->x || a->got != b->got || a->want != b->want || a->cr != b->cr ||
        a->faithful != b->faithful || a->exact != b->exact || a->cr_distance != b->cr_distance ||
        !same_double(a->ulp, b->ulp) || !same_double(a->abs_err, b->abs_err) ||
        !same_double(a->rel_err, b->rel_err) || a->defect != b->defect ||
        a->want_class != b->want_class)
        fail_msg("%s %s x=0x%llx y=0x%llx: gs_measure_n and gs_measure differ (ulp %a/%a, "
                 "defect %d/%d, cr_distance %lld/%lld)", geluref_func_name(f),
                 geluref_dtype_name(dt), (unsigned long long)b->x, (unsigned long long)b->got,
                 a->ulp, b->ulp, (int)a->defect, (int)b->defect, (long long)a->cr_distance,
                 (long long)b->cr_distance);
}

/* The output of kind k (0..9) for input x. */
static uint64_t output(enum geluref_func f, enum geluref_dtype dt, uint64_t x, int k,
                       struct gs_rng *rng)
{
    const struct geluref_dtype_info *d = geluref_dtype_info(dt);
    uint64_t width = d->bits == 64 ? ~(uint64_t)0 : ((uint64_t)1 << d->bits) - 1;
    uint64_t sign = (uint64_t)1 << (d->bits - 1);
    uint64_t inf = (((uint64_t)1 << d->exp_bits) - 1) << (d->prec - 1);
    struct gs_refval v;
    assert_int_equal(gs_ref_eval(ref, f, dt, x, &v), GELUREF_OK);
    switch (k) {
    case 0: return v.rn;
    case 1: return (v.rn + 1) & width;
    case 2: return (v.rn - 1) & width;
    case 3: return 0;
    case 4: return sign;
    case 5: return inf | (x & sign);
    case 6: return inf + 1;          /* a NaN */
    case 7: return (inf - 1) | sign; /* -max */
    case 8: return v.rn ^ sign;
    default: return gs_rng_next(rng) & width;
    }
}

/* x[0..n-1] with outputs of every kind (cycling), measured both ways. */
static void check(enum geluref_func f, enum geluref_dtype dt, const uint64_t *x, size_t n,
                  struct gs_rng *rng)
{
    uint64_t *y = malloc(n * sizeof *y);
    struct gs_meas *m = malloc(n * sizeof *m);
    unsigned char *rep = malloc(n);
    assert_non_null(y);
    assert_non_null(m);
    assert_non_null(rep);
    /* the outputs' kind changes every `hold` inputs: runs of the same output too (rep) */
    size_t hold = n > 1000 ? 7 : 1;
    for (size_t i = 0; i < n; i++)
        y[i] = output(f, dt, x[i], (int)(i / hold % 10), rng);
    size_t failed = n;
    assert_int_equal(gs_measure_n(ref, f, dt, x, y, n, m, rep, &failed), GELUREF_OK);
    for (size_t i = 0; i < n; i++) {
        struct gs_meas one;
        assert_int_equal(gs_measure(ref, f, dt, x[i], y[i], &one), GELUREF_OK);
        same_meas(&m[i], &one, f, dt);
        if (rep[i]) { /* said to equal the previous measurement but for x */
            struct gs_meas prev = m[i - 1];
            prev.x = m[i].x;
            same_meas(&m[i], &prev, f, dt);
        }
    }
    free(y);
    free(m);
    free(rep);
}

static void test_all16(void **state)
{
    (void)state;
    static const enum geluref_func some[] = { GELUREF_GELU, GELUREF_GELU_GRAD, GELUREF_ERFC,
                                              GELUREF_GELU_TANH, GELUREF_NORMPDF };
    static const enum geluref_dtype dts[] = { GELUREF_F16, GELUREF_BF16 };
    uint64_t *x = malloc(65536 * sizeof *x);
    assert_non_null(x);
    for (uint64_t i = 0; i < 65536; i++)
        x[i] = i; /* NaN, +-inf and +-0 included */
    struct gs_rng rng;
    gs_rng_seed(&rng, 7);
    for (size_t d = 0; d < 2; d++)
        for (int f = GELUREF_FUNC_FIRST; f <= GELUREF_GELU_GRAD2; f++) {
            int listed = 0;
            for (size_t j = 0; j < sizeof some / sizeof some[0]; j++)
                listed |= some[j] == (enum geluref_func)f;
            if (full || listed)
                check((enum geluref_func)f, dts[d], x, 65536, &rng);
        }
    free(x);
}

static void test_runs(void **state)
{
    (void)state;
    static const enum geluref_dtype dts[] = { GELUREF_F32, GELUREF_F64 };
    enum { LEN = 300 }; /* not a multiple of the block: a partial last block */
    uint64_t x[LEN];
    struct gs_rng rng;
    gs_rng_seed(&rng, 11);
    int runs = full ? 200 : 6;
    for (size_t d = 0; d < 2; d++)
        for (int f = GELUREF_FUNC_FIRST; f <= GELUREF_GELU_GRAD2; f++)
            for (int r = 0; r < runs; r++) {
                uint64_t start = gs_rng_next(&rng);
                if (dts[d] == GELUREF_F32)
                    start &= 0xffffffffu;
                for (size_t i = 0; i < LEN; i++)
                    x[i] = dts[d] == GELUREF_F32 ? (start + i) & 0xffffffffu : start + i;
                check((enum geluref_func)f, dts[d], x, LEN, &rng);
            }
}

static int setup(void **state)
{
    (void)state;
    ref = gs_ref_new(NULL);
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
    full = argc > 1 && strcmp(argv[1], "sweep") == 0;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_all16),
        cmocka_unit_test(test_runs),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
