/* The suites' core helpers: contract names (docs/design.md section 6), regions, verdicts, dtype
 * bits (positions over every f16 and bf16 pattern, against MPFR's conversion), the
 * splitmix64 generator and the thread loop. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "suites.h"

/* docs/design.md section 6, "Finding kinds (contract)", in its order */
static const char *const contract_kinds[] = {
    "ulp_exceeded", "nan_output", "inf_output", "wrong_sign", "premature_flush", "ftz",
    "signed_zero", "special_value", "identity_violation", "bound_violation", "non_monotonic",
    "position_dependent", "alignment_dependent", "inplace_mismatch", "lane_contamination",
    "nondeterministic", "out_of_bounds_write", "input_modified", "fpenv_modified",
    "declared_mismatch", "crash", "timeout", "adapter_error"
};

static void test_names(void **state)
{
    (void)state;
    assert_int_equal(sizeof contract_kinds / sizeof contract_kinds[0], GS_N_KINDS);
    for (int k = 0; k < GS_N_KINDS; k++) {
        enum gs_kind back;
        assert_string_equal(gs_kind_name((enum gs_kind)k), contract_kinds[k]);
        assert_int_equal(gs_kind_from_name(contract_kinds[k], &back), 0);
        assert_int_equal(back, k);
    }
    assert_null(gs_kind_name(GS_K_NONE));
    enum gs_kind k;
    assert_int_not_equal(gs_kind_from_name("ulp", &k), 0);
    enum gs_suite s;
    assert_int_equal(gs_suite_from_name("fingerprint", &s), 0);
    assert_int_equal(s, GS_SUITE_FINGERPRINT);
    assert_null(gs_suite_name(GS_N_SUITES));
    assert_string_equal(gs_verdict_name(GS_SKIP), "skip");
    /* error > fail > pass > skip, either order */
    assert_int_equal(gs_verdict_worse(GS_PASS, GS_SKIP), GS_PASS);
    assert_int_equal(gs_verdict_worse(GS_SKIP, GS_FAIL), GS_FAIL);
    assert_int_equal(gs_verdict_worse(GS_ERROR, GS_FAIL), GS_ERROR);
    assert_int_equal(gs_verdict_worse(GS_FAIL, GS_ERROR), GS_ERROR);
}

static void test_mask(void **state)
{
    (void)state;
    unsigned m = 0;
    char bad[16];
    assert_int_equal(gs_suite_mask_parse("ulp, special ,tail", &m, bad, sizeof bad), 0);
    assert_int_equal(m, (1u << GS_SUITE_ULP) | (1u << GS_SUITE_SPECIAL) | (1u << GS_SUITE_TAIL));
    assert_int_equal(gs_suite_mask_parse("all", &m, bad, sizeof bad), 0);
    assert_int_equal(m, GS_SUITES_ALL);
    assert_int_not_equal(gs_suite_mask_parse("ulp,bogus", &m, bad, sizeof bad), 0);
    assert_string_equal(bad, "bogus");
    assert_int_not_equal(gs_suite_mask_parse("ulp,,tail", &m, bad, sizeof bad), 0);
    assert_string_equal(bad, "");
    assert_int_not_equal(gs_suite_mask_parse("", &m, bad, sizeof bad), 0);
    assert_string_equal(bad, "");
    /* a long word is cut to the buffer */
    assert_int_not_equal(gs_suite_mask_parse("averyveryverylongword", &m, bad, 6), 0);
    assert_string_equal(bad, "avery");
}

/* Regions by hand: the boundaries -10, -5, -1, 0, 1 belong to the region on their right;
 * -0 to [-1,0). */
static void test_regions(void **state)
{
    (void)state;
    static const struct { double x; enum gs_region r; } rows[] = {
        { -INFINITY, GS_R_LT_M10 }, { -10.5, GS_R_LT_M10 }, { -10.0, GS_R_M10_M5 },
        { -5.0, GS_R_M5_M1 }, { -1.0, GS_R_M1_0 }, { -0.0, GS_R_M1_0 }, { 0.0, GS_R_0_1 },
        { 0.99, GS_R_0_1 }, { 1.0, GS_R_GE_1 }, { INFINITY, GS_R_GE_1 }, { NAN, GS_R_NONE },
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        for (int dt = GELUREF_DTYPE_FIRST; dt <= GELUREF_DTYPE_LAST; dt++)
            if (gs_region_of(dt, gs_from_double(dt, rows[i].x)) != rows[i].r)
                fail_msg("row %zu (%g) dtype %d", i, rows[i].x, dt);
    assert_string_equal(gs_region_name(GS_R_M10_M5), "[-10,-5)");
    assert_string_equal(gs_region_name(GS_R_NONE), "none");
}

/* Every f16 and bf16 pattern: the value against MPFR's conversion (geluref_bits_to_mpfr),
 * the classification, positions as an order-preserving bijection with +-0 at 0, and the
 * round trip through gs_from_double. */
static void check_all16(enum geluref_dtype dt)
{
    mpfr_t v;
    mpfr_init2(v, 53);
    int64_t prev_pos = 0;
    double prev = -INFINITY;
    int seen_first = 0;
    /* ascending values: negative patterns from -inf (0xfc00/0xff80) down to -0, then +0 up */
    uint64_t inf = gs_from_double(dt, INFINITY);
    for (int64_t p = -(int64_t)inf; p <= (int64_t)inf; p++) {
        uint64_t b = gs_from_pos(dt, p);
        assert_int_equal(gs_pos(dt, b), p);
        double d = gs_to_double(dt, b);
        geluref_bits_to_mpfr(v, dt, b);
        if (mpfr_get_d(v, MPFR_RNDN) != d)
            fail_msg("dtype %d bits 0x%llx: %a", dt, (unsigned long long)b, d);
        if (seen_first && !(d > prev))
            fail_msg("dtype %d position %lld not increasing", dt, (long long)p);
        if (seen_first)
            assert_int_equal(p, prev_pos + 1);
        assert_int_equal(gs_from_double(dt, d), b);
        prev = d;
        prev_pos = p;
        seen_first = 1;
    }
    for (uint64_t b = 0; b < 0x10000; b++) {
        double d = gs_to_double(dt, b);
        assert_int_equal(gs_is_nan(dt, b), isnan(d) != 0);
        assert_int_equal(gs_is_inf(dt, b), isinf(d) != 0);
        assert_int_equal(gs_is_zero(dt, b), d == 0);
        if (!isnan(d)) {
            assert_int_equal(gs_sign(dt, b), signbit(d) != 0);
            assert_true(gs_to_double(dt, gs_neg(dt, b)) == -d);
            assert_true(gs_to_double(dt, gs_abs(dt, b)) == fabs(d));
            /* subnormal: nonzero below the smallest normal 2^emin */
            int sub = d != 0 && fabs(d) < ldexp(1.0, geluref_dtype_info(dt)->emin);
            assert_int_equal(gs_is_subnormal(dt, b), sub);
        }
    }
    /* +-0 share position 0; gs_from_pos(0) is +0; positions clamp beyond +-inf */
    assert_int_equal(gs_pos(dt, gs_neg(dt, 0)), 0);
    assert_int_equal(gs_from_pos(dt, 0), 0);
    assert_int_equal(gs_from_pos(dt, INT64_MAX), inf);
    assert_int_equal(gs_from_pos(dt, INT64_MIN), gs_neg(dt, inf));
    mpfr_clear(v);
}

static void test_bits16(void **state)
{
    (void)state;
    check_all16(GELUREF_F16);
    check_all16(GELUREF_BF16);
}

static void test_bits_wide(void **state)
{
    (void)state;
    /* RN ties to even into f16 (11 bits): 1 + 2^-11 is a tie -> 1; 1 + 3*2^-11 -> 1 + 2^-9.
     * bf16 (8 bits): 1 + 2^-8 is a tie -> 1; 1 + 2^-8 + 2^-30 is above it -> 1 + 2^-7, where
     * rounding through float first (24 bits: 1 + 2^-8, a tie) would give 1 */
    assert_int_equal(gs_from_double(GELUREF_F16, 1 + ldexp(1, -11)), 0x3c00);
    assert_int_equal(gs_from_double(GELUREF_F16, 1 + 3 * ldexp(1, -11)), 0x3c02);
    assert_int_equal(gs_from_double(GELUREF_BF16, 1 + ldexp(1, -8)), 0x3f80);
    assert_int_equal(gs_from_double(GELUREF_BF16, 1 + ldexp(1, -8) + ldexp(1, -30)), 0x3f81);
    /* f32 and f64 positions: the smallest subnormals and the largest finite values */
    assert_int_equal(gs_pos(GELUREF_F32, 0x00000001u), 1);
    assert_int_equal(gs_pos(GELUREF_F32, 0x80000001u), -1);
    assert_int_equal(gs_pos(GELUREF_F32, 0x7f7fffffu) + 1, gs_pos(GELUREF_F32, 0x7f800000u));
    assert_int_equal(gs_pos(GELUREF_F64, 0x8000000000000000u), 0);
    assert_true(gs_to_double(GELUREF_F64, gs_from_pos(GELUREF_F64, -1)) == -0x1p-1074);
    assert_true(gs_to_double(GELUREF_F32, gs_from_pos(GELUREF_F32, 2)) == 0x1p-148);
    /* load and store with the element sizes 8, 4, 2 */
    unsigned char buf[32] = { 0 };
    gs_store(GELUREF_F16, buf, 3, 0xabcd);
    assert_int_equal(gs_load(GELUREF_F16, buf, 3), 0xabcd);
    assert_int_equal(gs_load(GELUREF_F16, buf, 2), 0);
    gs_store(GELUREF_F32, buf, 1, 0x12345678u);
    assert_int_equal(gs_load(GELUREF_F32, buf, 1), 0x12345678u);
    gs_store(GELUREF_F64, buf, 2, 0x0123456789abcdefu);
    assert_int_equal(gs_load(GELUREF_F64, buf, 2), 0x0123456789abcdefu);
    char text[GS_VALUE_TEXT];
    gs_format_value(text, sizeof text, GELUREF_F32, 0xc0400000u);
    assert_string_equal(text, "-3 (-0x1.8p+1, 0xc0400000)");
}

/* splitmix64 from state 0: the first outputs of the published generator (Vigna's
 * splitmix64.c, the seeding generator of xoshiro) */
static void test_rng(void **state)
{
    (void)state;
    struct gs_rng r;
    gs_rng_seed(&r, 0);
    assert_int_equal(gs_rng_next(&r), 0xe220a8397b1dcdafu);
    assert_int_equal(gs_rng_next(&r), 0x6e789e6aa1b965f4u);
    assert_int_equal(gs_rng_next(&r), 0x06c45d188009454fu);
    /* below: in range, every value hit, roughly uniform (3 x 30000 draws: each count within
     * 5 standard deviations, sqrt(30000 * 2/9) ~ 82) */
    uint64_t c[3] = { 0 };
    gs_rng_seed(&r, 42);
    for (int i = 0; i < 90000; i++) {
        uint64_t v = gs_rng_below(&r, 3);
        assert_true(v < 3);
        c[v]++;
    }
    for (int i = 0; i < 3; i++)
        assert_true(c[i] > 30000 - 410 && c[i] < 30000 + 410);
    assert_int_equal(gs_rng_below(&r, 1), 0);
    /* n = 3 * 2^62: 2^64 mod n = 2^62, so without rejection [0, 2^62) would be drawn with
     * probability 1/2 instead of 1/3 (10000 draws: standard deviation 0.0047) */
    int low = 0;
    for (int i = 0; i < 10000; i++)
        low += gs_rng_below(&r, 3 * ((uint64_t)1 << 62)) < ((uint64_t)1 << 62);
    assert_true(low > 3100 && low < 3570);
    /* n just above 2^63: half of the raw draws are rejected, results stay below n */
    for (int i = 0; i < 1000; i++)
        assert_true(gs_rng_below(&r, ((uint64_t)1 << 63) + 1) <= ((uint64_t)1 << 63));
    /* sub-stream seeds: deterministic, and different for a different a or b */
    assert_int_equal(gs_seed_mix(1, 2, 3), gs_seed_mix(1, 2, 3));
    assert_int_not_equal(gs_seed_mix(1, 2, 3), gs_seed_mix(1, 3, 2));
    assert_int_not_equal(gs_seed_mix(1, 2, 3), gs_seed_mix(1, 2, 4));
    assert_int_not_equal(gs_seed_mix(1, 2, 3), gs_seed_mix(2, 2, 3));
}

#define N_ITEMS 5000
struct par {
    atomic_int done[N_ITEMS];
    atomic_int per_thread[8];
    uint64_t stop_at; /* item that returns nonzero, or N_ITEMS */
    unsigned n_threads;
    atomic_int bad_thread;
};

static int par_fn(void *arg, unsigned thread, uint64_t item)
{
    struct par *p = arg;
    if (thread >= p->n_threads)
        atomic_store(&p->bad_thread, 1);
    else
        atomic_fetch_add(&p->per_thread[thread], 1);
    atomic_fetch_add(&p->done[item], 1);
    return item == p->stop_at;
}

static void test_parallel(void **state)
{
    (void)state;
    static struct par p;
    for (unsigned nt = 1; nt <= 4; nt++) {
        memset(&p, 0, sizeof p);
        p.stop_at = N_ITEMS;
        p.n_threads = nt;
        assert_int_equal(gs_parallel_for(nt, N_ITEMS, par_fn, &p), 0);
        for (int i = 0; i < N_ITEMS; i++)
            if (atomic_load(&p.done[i]) != 1)
                fail_msg("%u threads: item %d done %d times", nt, i, atomic_load(&p.done[i]));
        assert_int_equal(atomic_load(&p.bad_thread), 0);
    }
    /* a nonzero return stops handing out items: at most one more per other thread */
    memset(&p, 0, sizeof p);
    p.stop_at = 10;
    p.n_threads = 3;
    assert_int_equal(gs_parallel_for(3, N_ITEMS, par_fn, &p), 0);
    int total = 0;
    for (int i = 0; i < N_ITEMS; i++)
        total += atomic_load(&p.done[i]);
    assert_true(total >= 11 && total <= 11 + 2 * 2);
    /* no items: fn is never called */
    memset(&p, 0, sizeof p);
    p.n_threads = 2;
    assert_int_equal(gs_parallel_for(2, 0, par_fn, &p), 0);
    assert_int_equal(atomic_load(&p.per_thread[0]) + atomic_load(&p.per_thread[1]), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names),     cmocka_unit_test(test_mask),
        cmocka_unit_test(test_regions),   cmocka_unit_test(test_bits16),
        cmocka_unit_test(test_bits_wide), cmocka_unit_test(test_rng),
        cmocka_unit_test(test_parallel),
    };
    return cmocka_run_group_tests_name("suites core basics", tests, NULL, NULL);
}
