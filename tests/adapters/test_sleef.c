/* The `sleef` adapter: a valid table whose backends are exactly those this CPU runs, the
 * same table through the registry, every kernel runs, known inputs against the correctly
 * rounded reference within stated bounds, exact special values; test_sleef_vector.c: the
 * backends against each other and batch tails. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>
#include <sleef.h>

#include "adapt_util.h"
#include "adapter.h"
#include "gc_sleef.h"
#include "sleef_internal.h"
#include "test_sleef.h"

#define STR2(x) #x
#define STR(x) STR2(x)
#define SLEEF_VERSION "SLEEF " STR(SLEEF_VERSION_MAJOR) "." STR(SLEEF_VERSION_MINOR) "." \
    STR(SLEEF_VERSION_PATCHLEVEL)

const char *const ts_tags[TS_NBACKENDS] = { "scalar", "sse2", "avx2", "avx512f" };
const char *const ts_forms[TS_NFORMS] = { "gelu_erf.u10", "gelu_erfc.u15", "gelu_tanh.u10",
                                          "erf.u10", "erfc.u15" };

int ts_cpu_has(int backend)
{
#if defined(__x86_64__)
    __builtin_cpu_init();
    switch (backend) {
    case 1:
        return __builtin_cpu_supports("sse2") != 0;
    case 2: /* SLEEF's avx2 code is built with -mavx2 -mfma */
        return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    case 3:
        return __builtin_cpu_supports("avx512f") != 0;
    default:
        return 1;
    }
#else
    return backend == 0;
#endif
}

unsigned ts_lanes(int backend, uint32_t dtype)
{
    static const unsigned bits[TS_NBACKENDS] = { 0, 128, 256, 512 };
    unsigned es = dtype == GELUCHECK_F64 ? 64 : 32;
    return backend == 0 ? 1 : bits[backend] / es;
}

const struct gelucheck_kernel *ts_find(const struct gelucheck_plugin *p, int form, int backend,
                                       uint32_t dtype)
{
    char name[64];
    snprintf(name, sizeof name, "%s.%s.%s", ts_forms[form], ts_tags[backend],
             dtype == GELUCHECK_F64 ? "f64" : "f32");
    for (size_t i = 0; i < p->n_kernels; i++)
        if (strcmp(p->kernels[i].name, name) == 0)
            return &p->kernels[i];
    return NULL;
}

static const struct gelucheck_plugin *sleef(void)
{
    return gc_sleef_entry(GELUCHECK_PLUGIN_ABI);
}

static void test_table(void **state)
{
    (void)state;
    const struct gelucheck_plugin *p = sleef();
    au_check_table(p, "sleef");
    assert_null(gc_sleef_entry(0));
    assert_string_equal(p->version, SLEEF_VERSION);
    size_t want = 0;
    print_message("sleef adapter: version '%s', backends on this CPU:", p->version);
    for (int b = 0; b < TS_NBACKENDS; b++) {
        int has = ts_cpu_has(b);
        for (int f = 0; f < TS_NFORMS; f++)
            for (uint32_t dt = GELUCHECK_F64; dt <= GELUCHECK_F32; dt++) {
                const struct gelucheck_kernel *k = ts_find(p, f, b, dt);
                if (has != (k != NULL))
                    fail_msg("%s.%s: CPU support %d, in the table %d", ts_forms[f], ts_tags[b],
                             has, k != NULL);
                if (k != NULL && (strstr(k->description, SLEEF_VERSION) == NULL ||
                                  strstr(k->description, "Sleef_") == NULL))
                    fail_msg("%s: description lacks the version or the entry point: %s",
                             k->name, k->description);
            }
        want += has ? 2 * TS_NFORMS : 0;
        if (has)
            print_message(" %s", ts_tags[b]);
    }
    print_message("; %zu kernels\n", p->n_kernels);
    assert_int_equal(p->n_kernels, want);

    /* a CPU with fewer sets: the builder leaves their kernels out (own buffers: the entry's
       table stays as it is) */
    static struct gelucheck_kernel ks[GC_SLEEF_MAX_KERNELS];
    static char names[GC_SLEEF_MAX_KERNELS][GC_SLEEF_NAME_MAX], descs[32768];
    assert_int_equal(gc_sleef_build(1u << GC_SLEEF_SCALAR, "lib", ks, names, descs,
                                    sizeof descs), 2 * TS_NFORMS);
    for (size_t i = 0; i < 2 * TS_NFORMS; i++)
        assert_non_null(strstr(ks[i].name, ".scalar."));
    size_t n = gc_sleef_build(gc_sleef_supported_mask() & ~(1u << GC_SLEEF_AVX512F), "lib", ks,
                              names, descs, sizeof descs);
    assert_int_equal(n, want - (ts_cpu_has(3) ? 2 * TS_NFORMS : 0));
    for (size_t i = 0; i < n; i++)
        assert_null(strstr(ks[i].name, "avx512f"));
    assert_int_equal(sleef()->n_kernels, want);
    assert_int_equal(gc_sleef_build(1u << GC_SLEEF_SCALAR, "lib", ks, names, descs, 100), 10);
    assert_string_equal(ks[9].description, "(description too long for the buffer)");
}

/* The registry serves the same table as the built-in "sleef" */
static void test_registry(void **state)
{
    (void)state;
    const struct gelucheck_plugin *p = sleef();
    struct gc_open_options opt = GC_OPEN_OPTIONS_INIT;
    struct gc_adapter *a = NULL;
    char msg[256];
    if (gc_adapter_open("sleef", &opt, &a, msg, sizeof msg) != GC_OK)
        fail_msg("gc_adapter_open(sleef): %s", msg);
    assert_string_equal(a->version, p->version);
    assert_int_equal(a->n_kernels, p->n_kernels);
    for (size_t i = 0; i < a->n_kernels; i++) {
        assert_string_equal(a->kernels[i].name, p->kernels[i].name);
        float x = 1.0f, y = 0.0f;
        if (a->kernels[i].dtype == GELUREF_F32) {
            assert_int_equal(gc_kernel_eval(&a->kernels[i], &x, &y, 1, msg, sizeof msg), GC_OK);
            assert_int_equal(au_bits_f32(y), au_eval1(&p->kernels[i], au_bits_f32(x)));
        }
    }
    gc_adapter_close(a);
}

static void test_eval_all(void **state)
{
    (void)state;
    au_eval_all(sleef());
}

/* What each form is held to, in ulp of r, the correctly rounded result (where r is a
 * normal number); m = FLT_MIN or DBL_MIN in ulp(r) (SLEEF's absolute floor for erfc):
 *   erf   2.1    SLEEF claims 1.0; measured just above the smallest normal: erff 2.03 ulp at
 *                x = 0x1.18d9fcp-126 (scalar, sse2; the max over every float below 2^-100),
 *                1.10 (avx2, avx512f); erf 1.10 at 0x1.179accfdd375cp-1022 (scalar, sse2)
 *   erfc  max(c, m), c = 1.5 (f64 at x >= 26.2: 2.5): SLEEF's claim
 *   gelu_erfc  c + 2 + 2 (x^2 + 1) + |x| m / 2: erfc's claim at z = -x/sqrt2, the glue's two
 *                roundings, the rounded argument (relative 2^(1-p)) times erfc's condition
 *                number 2 z^2 + 1, and erfc's absolute floor times 0.5 |x|
 *   gelu_erf, gelu_tanh  4 for x >= -1 (1 + erf(x/sqrt2) = 2 Phi(x) >= 0.317 there, so the
 *                cancellation at most triples erf's error; measured 2.4); below -1 only: no
 *                NaN, no wrong sign (the cancellation grows without bound). */
static double bound(int form, uint32_t dt, double x, double r)
{
    int e;
    frexp(fabs(r), &e); /* |r| in [2^(e-1), 2^e) */
    double m = dt == GELUCHECK_F64 ? ldexp(1.0, -1022 - (e - 1 - 52))
                                   : ldexp(1.0, -126 - (e - 1 - 23));
    double c = dt == GELUCHECK_F64 && (form == 4 ? x : -x * 0x1.6a09e667f3bcdp-1) >= 26.2
                   ? 2.5 : 1.5;
    switch (form) {
    case 3:
        return 2.1;
    case 4:
        return c > m ? c : m;
    case 1:
        return c + 2 + 2 * (x * x + 1) + fabs(x) * m / 2;
    default:
        return x >= -1 ? 4.0 : INFINITY;
    }
}

static uint64_t bits_of(uint32_t dt, double v)
{
    return dt == GELUCHECK_F64 ? au_bits_f64(v) : au_bits_f32((float)v);
}

static double value_of(uint32_t dt, uint64_t b)
{
    return dt == GELUCHECK_F64 ? au_f64(b) : (double)au_f32(b);
}

/* Known inputs (a table) and 1500 more, the same every run (seed 5). */
static double input(size_t i, uint64_t *rng)
{
    static const double table[] = {
        -0.75, -0.5, -0.1, 0.1, 0.5, 1.0, 1.5, 2.0, 3.0, 5.0, 8.0, 27.0, 100.0, 1e30,
        -1.0, -1.5, -3.0, -5.0, -5.5, -10.0, -14.0, -27.0, -38.0,
        0x1.18d9fcp-126, -0x1.18d9fcp-126, 0x1.179accfdd375cp-1022, /* erf's worst, above */
        0x1.2639aap+3, /* erfcf's worst in the run suite: 1.57 ulp at r ~ FLT_MIN */
        0x1p-100, 0x1.8p-1000, 3e-8, -3e-8,
    };
    enum { NT = sizeof table / sizeof table[0] };
    if (i < NT)
        return table[i];
    if (i < 900)
        return au_uniform(rng, -6.0, 6.0);
    if (i < 1200)
        return au_uniform(rng, -40.0, -6.0);
    if (i < 1350)
        return au_uniform(rng, 6.0, 100.0);
    return ldexp(au_uniform(rng, 1.0, 2.0), -(int)(au_rand(rng) % 140)) * (i % 2 ? -1 : 1);
}

static void test_known(void **state)
{
    (void)state;
    const struct gelucheck_plugin *p = sleef();
    print_message("max ulp error where the correctly rounded result is normal, x < -1 / "
                  "x >= -1\n");
    for (size_t k = 0; k < p->n_kernels; k++) {
        const struct gelucheck_kernel *ker = &p->kernels[k];
        int form = 0;
        while (strncmp(ker->name, ts_forms[form], strlen(ts_forms[form])) != 0)
            form++;
        uint64_t rng = 5;
        double worst[2] = { 0, 0 };
        for (size_t i = 0; i < 1500; i++) {
            uint64_t x = bits_of(ker->dtype, input(i, &rng));
            double xv = value_of(ker->dtype, x);
            uint64_t y = au_eval1(ker, x), r = au_ref(ker->func, ker->dtype, x);
            if (au_is_nan(ker->dtype, y))
                fail_msg("%s: x = %a: NaN", ker->name, xv);
            double yv = value_of(ker->dtype, y);
            if ((xv < 0 && yv > 0 && form < 4) || (xv > 0 && yv < 0))
                fail_msg("%s: x = %a: wrong sign %a", ker->name, xv, yv);
            if (!au_is_normal(ker->dtype, r))
                continue;
            double e = au_ulp_error(ker->func, ker->dtype, x, y),
                   lim = bound(form, ker->dtype, xv, value_of(ker->dtype, r));
            if (!(e <= lim))
                fail_msg("%s: x = %a: %a, error %g ulp above %g", ker->name, xv, yv, e, lim);
            if (e > worst[xv >= -1])
                worst[xv >= -1] = e;
        }
        print_message("  %-26s %10.3g %6.3g\n", ker->name, worst[0], worst[1]);
    }
}

/* Exact values: the conventions of docs/design.md section 2 where the formula as written keeps
 * them, and NaN at x = -inf for the three GELU forms: -inf * 0 (erf(-inf) = -1 exactly,
 * erfc(+inf) = +0), where the reference says -0. */
static void test_specials(void **state)
{
    (void)state;
    const struct gelucheck_plugin *p = sleef();
    static const struct {
        int form;
        double x, want; /* NAN: a NaN */
    } rows[] = {
        { 0, 0.0, 0.0 }, { 0, -0.0, -0.0 }, { 0, INFINITY, INFINITY }, { 0, -INFINITY, NAN },
        { 1, 0.0, 0.0 }, { 1, -0.0, -0.0 }, { 1, INFINITY, INFINITY }, { 1, -INFINITY, NAN },
        { 2, 0.0, 0.0 }, { 2, -0.0, -0.0 }, { 2, INFINITY, INFINITY }, { 2, -INFINITY, NAN },
        { 3, 0.0, 0.0 }, { 3, -0.0, -0.0 }, { 3, INFINITY, 1.0 }, { 3, -INFINITY, -1.0 },
        { 4, 0.0, 1.0 }, { 4, -0.0, 1.0 }, { 4, INFINITY, 0.0 }, { 4, -INFINITY, 2.0 },
        { 0, 1e30, 1e30 }, { 1, 1e30, 1e30 }, { 2, 1e30, 1e30 }, /* saturation: f(x) = x */
        { 0, NAN, NAN }, { 1, NAN, NAN }, { 2, NAN, NAN }, { 3, NAN, NAN }, { 4, NAN, NAN },
    };
    for (int b = 0; b < TS_NBACKENDS; b++)
        for (uint32_t dt = GELUCHECK_F64; dt <= GELUCHECK_F32; dt++)
            for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
                const struct gelucheck_kernel *k = ts_find(p, rows[i].form, b, dt);
                if (k == NULL)
                    continue;
                uint64_t y = au_eval1(k, bits_of(dt, rows[i].x));
                int ok = isnan(rows[i].want) ? au_is_nan(dt, y)
                                             : y == bits_of(dt, rows[i].want);
                if (!ok)
                    fail_msg("%s: f(%g) = %a, want %g", k->name, rows[i].x, value_of(dt, y),
                             rows[i].want);
            }
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "exhaustive") == 0) {
        const struct CMUnitTest slow[] = { cmocka_unit_test(ts_exhaustive_f32) };
        return cmocka_run_group_tests_name("adapters_sleef_exhaustive_f32", slow, NULL, NULL);
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table),        cmocka_unit_test(test_registry),
        cmocka_unit_test(test_eval_all),     cmocka_unit_test(test_known),
        cmocka_unit_test(test_specials),     cmocka_unit_test(test_backends_agree),
        cmocka_unit_test(test_tails),
    };
    return cmocka_run_group_tests_name("adapters_sleef", tests, NULL, NULL);
}
