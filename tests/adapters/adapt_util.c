/* Helpers of the built-in adapter tests (adapt_util.h). */
#include <fenv.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "adapt_util.h"

#if defined(__x86_64__) || (defined(__i386__) && defined(__SSE__))
#include <xmmintrin.h>
#define AU_X86 1
#endif

static int name_ok(const char *s)
{
    if (s == NULL || *s == '\0' || strlen(s) > 128)
        return 0;
    for (; *s; s++) {
        char c = *s;
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '.' || c == '-'))
            return 0;
    }
    return 1;
}

void au_check_table(const struct gelucheck_plugin *p, const char *name)
{
    assert_non_null(p);
    assert_int_equal(p->abi_version, GELUCHECK_PLUGIN_ABI);
    assert_int_equal(p->struct_size, sizeof(struct gelucheck_plugin));
    assert_int_equal(p->kernel_size, sizeof(struct gelucheck_kernel));
    assert_string_equal(p->name, name);
    assert_non_null(p->version);
    assert_true(p->version[0] != '\0');
    assert_true(p->n_kernels > 0);
    assert_non_null(p->kernels);
    for (size_t i = 0; i < p->n_kernels; i++) {
        const struct gelucheck_kernel *k = &p->kernels[i];
        if (!name_ok(k->name))
            fail_msg("%s: kernel %zu: illegal name '%s'", name, i, k->name ? k->name : "(null)");
        for (size_t j = 0; j < i; j++)
            if (strcmp(p->kernels[j].name, k->name) == 0)
                fail_msg("%s: duplicate kernel name '%s'", name, k->name);
        if (k->description == NULL || strlen(k->description) < 10 ||
            strstr(k->description, "too long") != NULL)
            fail_msg("%s: %s: missing or truncated description", name, k->name);
        if (k->func < GELUCHECK_GELU || k->func > GELUCHECK_ERFC)
            fail_msg("%s: %s: func %u out of range", name, k->name, (unsigned)k->func);
        if (k->dtype < GELUCHECK_F64 || k->dtype > GELUCHECK_BF16)
            fail_msg("%s: %s: dtype %u out of range", name, k->name, (unsigned)k->dtype);
        const char *dot = strrchr(k->name, '.');
        if (dot == NULL || strcmp(dot + 1, geluref_dtype_name((enum geluref_dtype)k->dtype)))
            fail_msg("%s: %s: the name does not end in its dtype", name, k->name);
        assert_non_null(k->eval);
    }
}

const struct gelucheck_kernel *au_kernel(const struct gelucheck_plugin *p, const char *name)
{
    for (size_t i = 0; i < p->n_kernels; i++)
        if (strcmp(p->kernels[i].name, name) == 0)
            return &p->kernels[i];
    fail_msg("no kernel '%s' in '%s'", name, p->name);
    return NULL;
}

size_t au_dtype_size(uint32_t dt)
{
    return dt == GELUCHECK_F64 ? 8 : dt == GELUCHECK_F32 ? 4 : 2;
}

static uint64_t load(uint32_t dt, const unsigned char *p)
{
    uint64_t b = 0;
    if (dt == GELUCHECK_F64) {
        memcpy(&b, p, 8);
    } else if (dt == GELUCHECK_F32) {
        uint32_t v;
        memcpy(&v, p, 4);
        b = v;
    } else {
        uint16_t v;
        memcpy(&v, p, 2);
        b = v;
    }
    return b;
}

static void store(uint32_t dt, unsigned char *p, uint64_t b)
{
    if (dt == GELUCHECK_F64) {
        memcpy(p, &b, 8);
    } else if (dt == GELUCHECK_F32) {
        uint32_t v = (uint32_t)b;
        memcpy(p, &v, 4);
    } else {
        uint16_t v = (uint16_t)b;
        memcpy(p, &v, 2);
    }
}

/* inputs for the generic run: a spread of finite values, the specials, a NaN */
static uint64_t sample_input(uint32_t dt, size_t i)
{
    static const double specials[] = { 0.0, -0.0, 1.0, -1.0, 3.0, -3.0, -6.0, 40.0,
                                       INFINITY, -INFINITY, NAN };
    double v = i < 11 ? specials[i] : -12.0 + 24.0 * (double)((i * 7919) % 1000) / 1000.0;
    mpfr_t m;
    mpfr_init2(m, 64);
    mpfr_set_d(m, v, MPFR_RNDN);
    uint64_t b = geluref_round_to_bits((enum geluref_dtype)dt, m, MPFR_RNDN);
    mpfr_clear(m);
    return b;
}

void au_eval_all(const struct gelucheck_plugin *p)
{
    static const size_t ns[] = { 0, 1, 17, 1000 };
    enum { GUARD = 8 };
    struct au_fpenv env;
    au_fpenv_save(&env);
    for (size_t k = 0; k < p->n_kernels; k++) {
        const struct gelucheck_kernel *ker = &p->kernels[k];
        size_t es = au_dtype_size(ker->dtype);
        void *ctx = NULL;
        if (p->open != NULL)
            assert_int_equal(p->open(&ctx, NULL), 0);
        for (size_t t = 0; t < sizeof ns / sizeof ns[0]; t++) {
            size_t n = ns[t];
            unsigned char *x = calloc(n + GUARD, es), *y = calloc(n + GUARD, es);
            assert_non_null(x);
            assert_non_null(y);
            for (size_t i = 0; i < n + GUARD; i++)
                store(ker->dtype, x + i * es, sample_input(ker->dtype, i));
            memset(y, 0x5a, (n + GUARD) * es);
            if (ker->eval(ctx, x, y, n) != 0)
                fail_msg("%s: eval failed at n = %zu", ker->name, n);
            au_fpenv_restore(&env);
            if (n == 0)
                for (size_t i = 0; i < GUARD * es; i++)
                    if (y[i] != 0x5a)
                        fail_msg("%s: n = 0 wrote y", ker->name);
            if (ker->eval(ctx, x, x, n) != 0) /* in place */
                fail_msg("%s: in-place eval failed at n = %zu", ker->name, n);
            au_fpenv_restore(&env);
            free(x);
            free(y);
        }
        if (p->close != NULL)
            p->close(ctx);
    }
}

uint64_t au_eval1(const struct gelucheck_kernel *k, uint64_t x)
{
    unsigned char xb[8], yb[8 * 2]; /* room for writes_yn.f32's y[1] */
    store(k->dtype, xb, x);
    assert_int_equal(k->eval(NULL, xb, yb, 1), 0);
    return load(k->dtype, yb);
}

uint64_t au_bits_f32(float v)
{
    uint32_t b;
    memcpy(&b, &v, 4);
    return b;
}

uint64_t au_bits_f64(double v)
{
    uint64_t b;
    memcpy(&b, &v, 8);
    return b;
}

float au_f32(uint64_t b)
{
    uint32_t v = (uint32_t)b;
    float f;
    memcpy(&f, &v, 4);
    return f;
}

double au_f64(uint64_t b)
{
    double d;
    memcpy(&d, &b, 8);
    return d;
}

/* sign mask, exponent mask, significand mask of the dtype's bits */
static void masks(uint32_t dt, uint64_t *sign, uint64_t *exp, uint64_t *man)
{
    switch (dt) {
    case GELUCHECK_F64: *sign = 1ull << 63; *exp = 0x7ffull << 52; *man = (1ull << 52) - 1; break;
    case GELUCHECK_F32: *sign = 1ull << 31; *exp = 0xffull << 23; *man = (1ull << 23) - 1; break;
    case GELUCHECK_F16: *sign = 0x8000; *exp = 0x7c00; *man = 0x3ff; break;
    default: *sign = 0x8000; *exp = 0x7f80; *man = 0x7f; break;
    }
}

int au_is_nan(uint32_t dt, uint64_t b)
{
    uint64_t s, e, m;
    masks(dt, &s, &e, &m);
    return (b & e) == e && (b & m) != 0;
}

int au_is_zero(uint32_t dt, uint64_t b)
{
    uint64_t s, e, m;
    masks(dt, &s, &e, &m);
    return (b & ~s) == 0;
}

int au_is_normal(uint32_t dt, uint64_t b)
{
    uint64_t s, e, m;
    masks(dt, &s, &e, &m);
    return (b & e) != 0 && (b & e) != e;
}

uint64_t au_ref(uint32_t func, uint32_t dt, uint64_t x)
{
    uint64_t y = 0;
    enum geluref_status st = geluref_eval((enum geluref_func)func, (enum geluref_dtype)dt, x,
                                          MPFR_RNDN, &y, NULL, NULL);
    if (st != GELUREF_OK)
        fail_msg("geluref_eval(%u, %u, 0x%llx): %s", (unsigned)func, (unsigned)dt,
                 (unsigned long long)x, geluref_strerror(st));
    return y;
}

/* position in the ordered values: +-0 -> 0, positives 1.., negatives ..-1 */
static int64_t pos(uint32_t dt, uint64_t b)
{
    uint64_t s, e, m;
    masks(dt, &s, &e, &m);
    int64_t mag = (int64_t)(b & ~s);
    return (b & s) ? -mag : mag;
}

uint64_t au_cr_distance(uint32_t dt, uint64_t y, uint64_t r)
{
    int yn = au_is_nan(dt, y), rn = au_is_nan(dt, r);
    if (yn || rn)
        return yn && rn ? 0 : UINT64_MAX;
    int64_t d = pos(dt, y) - pos(dt, r);
    return (uint64_t)(d < 0 ? -d : d);
}

double au_ulp_error(uint32_t func, uint32_t dt, uint64_t x, uint64_t y)
{
    const struct geluref_dtype_info *di = geluref_dtype_info((enum geluref_dtype)dt);
    mpfr_t xv, v, yv;
    mpfr_inits2(160, xv, v, yv, (mpfr_ptr)0);
    geluref_bits_to_mpfr(xv, (enum geluref_dtype)dt, x);
    geluref_bits_to_mpfr(yv, (enum geluref_dtype)dt, y);
    int tern;
    assert_int_equal(geluref_eval_mpfr((enum geluref_func)func, v, xv, NULL, MPFR_RNDN, NULL,
                                       NULL, &tern), GELUREF_OK);
    double err;
    if (mpfr_nan_p(v) || mpfr_inf_p(v)) {
        err = mpfr_equal_p(v, yv) || (mpfr_nan_p(v) && mpfr_nan_p(yv)) ? 0.0 : INFINITY;
    } else if (!mpfr_number_p(yv)) {
        err = INFINITY;
    } else {
        /* ulp(v) = 2^(max(e, emin) - p + 1), |v| in [2^e, 2^(e+1)); ulp(0): 2^(emin-p+1) */
        long e = mpfr_zero_p(v) ? di->emin : (long)mpfr_get_exp(v) - 1;
        if (e < di->emin)
            e = di->emin;
        mpfr_sub(yv, yv, v, MPFR_RNDN);
        mpfr_abs(yv, yv, MPFR_RNDN);
        mpfr_mul_2si(yv, yv, -(e - di->prec + 1), MPFR_RNDN);
        err = mpfr_get_d(yv, MPFR_RNDU);
    }
    mpfr_clears(xv, v, yv, (mpfr_ptr)0);
    return err;
}

uint64_t au_rand(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull); /* splitmix64 (Vigna) */
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

double au_uniform(uint64_t *state, double lo, double hi)
{
    return lo + (hi - lo) * (double)(au_rand(state) >> 11) * 0x1p-53;
}

void au_fpenv_save(struct au_fpenv *e)
{
    fegetenv(&e->env);
#ifdef AU_X86
    e->mxcsr = _mm_getcsr();
#else
    e->mxcsr = 0;
#endif
}

void au_fpenv_restore(const struct au_fpenv *e)
{
    fesetenv(&e->env);
#ifdef AU_X86
    _mm_setcsr(e->mxcsr);
#endif
}

int au_fpenv_spoiled(void)
{
#ifdef AU_X86
    if (_mm_getcsr() & _MM_FLUSH_ZERO_ON)
        return 1;
#endif
    return fegetround() != FE_TONEAREST;
}
