/* The onednn adapter's matmul epilogues (matmul_gelu_erf, matmul_gelu_tanh) against the plain
 * eltwise kernels of the same algorithm and dtype: wherever the matmul cannot change its input
 * (a normal x whose plain result is normal) the two give the same bits, and every input where
 * they differ is one of the differences the epilogue's description names: x = -0 arrives at
 * the post-op as +0 (the accumulator starts at +0), and in bf16 a subnormal input is flushed
 * (a subnormal result is flushed by both).  bf16: all 65536 inputs; f32: every subnormal of a stride and a stride over every
 * float, in batches of 4096 (a transformer's M). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "test_onednn.h"

#define BATCH 4096

enum { AGREE, NEG_ZERO, SUB_IN, SUB_OUT, OTHER, NCLASS };
static const char *const class_names[NCLASS] = {
    "same bits", "x = -0 gives +0", "subnormal x flushed", "subnormal result flushed",
    "unexplained",
};

static const struct gelucheck_kernel *find(const char *name)
{
    const struct gelucheck_plugin *p = onednn();
    for (size_t i = 0; i < p->n_kernels; i++)
        if (strcmp(p->kernels[i].name, name) == 0)
            return &p->kernels[i];
    return NULL;
}

/* bits as a double, and whether they are zero, subnormal or NaN, per dtype */
static int is_zero(int bf16, uint32_t b) { return ((bf16 ? b << 16 : b) & 0x7fffffffu) == 0; }
static int is_sub(int bf16, uint32_t b)
{
    uint32_t f = (bf16 ? b << 16 : b) & 0x7fffffffu;
    return f != 0 && f < 0x00800000u;
}
static int is_nan(int bf16, uint32_t b)
{
    uint32_t f = (bf16 ? b << 16 : b) & 0x7fffffffu;
    return f > 0x7f800000u;
}

/* The class of one input's pair of outputs (epilogue e, plain p). */
static int classify(int bf16, uint32_t x, uint32_t e, uint32_t p)
{
    uint32_t negz = bf16 ? 0x8000u : 0x80000000u;
    if (e == p || (is_nan(bf16, e) && is_nan(bf16, p)))
        return AGREE;
    if (x == negz && e == 0 && p == negz)
        return NEG_ZERO;
    if (is_sub(bf16, x) && is_zero(bf16, e))
        return SUB_IN;
    if (is_sub(bf16, p) && is_zero(bf16, e))
        return SUB_OUT;
    return OTHER;
}

struct tally {
    uint64_t n[NCLASS];
    uint32_t first_other[8];
    uint32_t first_other_e[8], first_other_p[8];
};

static void run_batch(const struct gelucheck_kernel *epi, const struct gelucheck_kernel *plain,
                      int bf16, const uint32_t *x, size_t n, struct tally *t)
{
    static uint32_t xb[BATCH], ye[BATCH], yp[BATCH];
    static uint16_t x16[BATCH], e16[BATCH], p16[BATCH];
    for (size_t i = 0; i < n; i++) {
        xb[i] = x[i];
        x16[i] = (uint16_t)x[i];
    }
    onednn_eval(epi, bf16 ? (void *)x16 : (void *)xb, bf16 ? (void *)e16 : (void *)ye, n);
    onednn_eval(plain, bf16 ? (void *)x16 : (void *)xb, bf16 ? (void *)p16 : (void *)yp, n);
    for (size_t i = 0; i < n; i++) {
        uint32_t e = bf16 ? e16[i] : ye[i], p = bf16 ? p16[i] : yp[i];
        int c = classify(bf16, x[i], e, p);
        if (c == OTHER && t->n[OTHER] < 8) {
            t->first_other[t->n[OTHER]] = x[i];
            t->first_other_e[t->n[OTHER]] = e;
            t->first_other_p[t->n[OTHER]] = p;
        }
        t->n[c]++;
    }
}

static void check_pair(const char *alg, const char *dt)
{
    char en[64], pn[64];
    int bf16 = strcmp(dt, "bf16") == 0;
    snprintf(en, sizeof en, "matmul_%s.%s", alg, dt);
    snprintf(pn, sizeof pn, "%s.fwd.%s", alg, dt);
    const struct gelucheck_kernel *epi = find(en), *plain = find(pn);
    if (epi == NULL || plain == NULL) {
        print_message("%s or %s not on this CPU: skipped\n", en, pn);
        return;
    }
    static uint32_t x[BATCH];
    struct tally t;
    size_t n = 0;
    memset(&t, 0, sizeof t);
    if (bf16) {
        for (uint32_t b = 0; b <= 0xffffu; b++) {
            x[n++] = b;
            if (n == BATCH) {
                run_batch(epi, plain, 1, x, n, &t);
                n = 0;
            }
        }
    } else {
        /* both signs: subnormals (stride 4099), then every float (stride 65537) */
        for (uint32_t s = 0; s < 2; s++) {
            for (uint64_t b = 1; b < 0x00800000u; b += 4099) {
                x[n++] = (s << 31) | (uint32_t)b;
                if (n == BATCH) {
                    run_batch(epi, plain, 0, x, n, &t);
                    n = 0;
                }
            }
            for (uint64_t b = 0; b <= 0x7fffffffu; b += 65537) {
                x[n++] = (s << 31) | (uint32_t)b;
                if (n == BATCH) {
                    run_batch(epi, plain, 0, x, n, &t);
                    n = 0;
                }
            }
        }
    }
    if (n)
        run_batch(epi, plain, bf16, x, n, &t);
    print_message("%-22s vs %-18s", en, pn);
    for (int c = 0; c < NCLASS; c++)
        print_message(" %s %llu;", class_names[c], (unsigned long long)t.n[c]);
    print_message("\n");
    for (uint64_t i = 0; i < t.n[OTHER] && i < 8; i++)
        print_message("  unexplained: x 0x%08x epilogue 0x%08x plain 0x%08x\n",
                      t.first_other[i], t.first_other_e[i], t.first_other_p[i]);
    assert_int_equal(t.n[OTHER], 0);
    assert_true(t.n[AGREE] > 0);
    /* x = -0 reaches the post-op as +0, named in every epilogue's description: f(-0) is
       +0 there, and differs from the plain kernel's exactly when that one keeps the sign
       (gelu_tanh does, oneDNN's gelu_erf gives +0 itself) */
    uint32_t negz = bf16 ? 0x8000u : 0x80000000u, ye = 1, yp = 1;
    uint16_t x16 = (uint16_t)negz, e16 = 1, p16 = 1;
    onednn_eval(epi, bf16 ? (void *)&x16 : (void *)&negz, bf16 ? (void *)&e16 : (void *)&ye, 1);
    onednn_eval(plain, bf16 ? (void *)&x16 : (void *)&negz, bf16 ? (void *)&p16 : (void *)&yp,
                1);
    if (bf16) {
        ye = e16;
        yp = p16;
    }
    assert_int_equal(ye, 0);
    assert_int_equal(t.n[NEG_ZERO], yp == negz);
    assert_non_null(strstr(epi->description, "-0 reaches the post-op as +0"));
    /* the bf16 flushes happen and are named; f32 has none and names none */
    if (bf16) {
        /* subnormal results: the eltwise kernel's bf16 store flushes them as well */
        assert_true(t.n[SUB_IN] > 0);
        assert_non_null(strstr(epi->description, "flushes subnormal inputs to +0"));
    } else {
        assert_int_equal(t.n[SUB_IN] + t.n[SUB_OUT], 0);
        assert_null(strstr(epi->description, "flush"));
    }
}

void test_epilogues(void **state)
{
    (void)state;
    check_pair("gelu_erf", "f32");
    check_pair("gelu_tanh", "f32");
    check_pair("gelu_erf", "bf16");
    check_pair("gelu_tanh", "bf16");
}
