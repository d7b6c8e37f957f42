/* The double tier's enclosures (geluref_enclose_n, reference/src/fast_fn.c "the double tier
 * of every function") checked against f(x) at 300 bits (geluref_eval_mpfr): every enclosure
 * m 2^e +- err 2^e a build gives must hold f(x), in the generic build and, where the CPU has
 * FMA, the FMA build, where it has AVX2 too, the batch of four (fast_vec.c: each input
 * evaluated in a full batch of four, so by the vector path), and where it has AVX-512 F, DQ
 * and VL, the batch of eight (likewise).  Inputs: binary32 values, for
 * every function of the plug-in ABI:
 *   random   N random bit patterns (every binade and both signs alike) and N values uniform
 *            in [-32, 32] (where every function varies), per function;
 *   file     the inputs of a hard-case file of tests/data (binary32), for one function.
 * A bound claimed too small shows here at once.  The test also asks that the enclosures serve
 * most inputs of the core range (a double tier that gave up everywhere would pass otherwise).
 * Usage: test_fast_encl random N SEED | test_fast_encl file PATH FUNC.  Exit 0 when every
 * enclosure holds. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fast.h"
#include "internal.h"
#include "oddtest.h"

typedef size_t (*encl_n_fn)(enum geluref_func, const double *, size_t, struct geluref_encl *,
                            unsigned char *);

#define NV 4 /* generic, FMA, AVX2, AVX-512 */

#if defined(GR_HAVE_AVX2_VARIANT)
/* x[0] in a batch of w of fn (the vector path; one input at a time would take the scalar
 * rest) */
static size_t batch_one(encl_n_fn fn, size_t w, enum geluref_func f, const double *x,
                        struct geluref_encl *out, unsigned char *ok)
{
    double xs[8];
    struct geluref_encl o[8];
    unsigned char k[8];
    for (size_t i = 0; i < w; i++)
        xs[i] = x[0];
    fn(f, xs, w, o, k);
    out[0] = o[0];
    ok[0] = k[0];
    return k[0];
}
static size_t avx2_one(enum geluref_func f, const double *x, size_t n, struct geluref_encl *out,
                       unsigned char *ok)
{
    (void)n;
    return batch_one(gr_fast_encl_n_avx2, 4, f, x, out, ok);
}
#endif
#if defined(GR_HAVE_AVX512_VARIANT)
static size_t avx512_one(enum geluref_func f, const double *x, size_t n,
                         struct geluref_encl *out, unsigned char *ok)
{
    (void)n;
    return batch_one(gr_fast_encl_n_avx512, 8, f, x, out, ok);
}
#endif

static unsigned long n_checked, n_served_core, n_core, n_bad, n_side;

/* x's enclosures of f in each build against f(x) at 300 bits. */
static void check(enum geluref_func f, double x, encl_n_fn *variants, const char **names)
{
    int core = x >= -32 && x <= 32 && (x > 1e-3 || x < -1e-3);
    struct geluref_encl e[NV];
    unsigned char ok[NV] = { 0, 0, 0, 0 };
    for (int w = 0; w < NV; w++)
        if (variants[w]) {
            variants[w](f, &x, 1, &e[w], &ok[w]);
            n_core += core;
            n_served_core += core && ok[w];
        }
    if (!ok[0] && !ok[1] && !ok[2] && !ok[3])
        return;
    mpfr_t xm, v, d, b;
    mpfr_inits2(400, xm, v, d, b, (mpfr_ptr)0);
    mpfr_set_prec(v, 300);
    mpfr_set_d(xm, x, MPFR_RNDN);
    int t;
    if (geluref_eval_mpfr(f, v, xm, NULL, MPFR_RNDN, NULL, NULL, &t) != 0) {
        printf("FAIL: the MPFR path failed at %s(%a)\n", geluref_func_name(f), x);
        n_bad++;
        mpfr_clears(xm, v, d, b, (mpfr_ptr)0);
        return;
    }
    for (int w = 0; w < NV; w++) {
        if (!ok[w])
            continue;
        n_checked++;
        /* |m 2^e - f(x)| <= err 2^e, f(x) = v within 2^-300 relatively: v's rounding is
         * charged to the difference (RNDA) and leaves err untouched */
        mpfr_set_d(d, e[w].m, MPFR_RNDN);
        mpfr_mul_2si(d, d, e[w].e, MPFR_RNDN);
        int side_ok = 1;
        if (e[w].side != 0) {
            /* one-sided: |f(x)| strictly below (side -1) or above (+1) |m| 2^e, by less than
             * err 2^e; where v is m 2^e itself (f(x) within 2^-300 of it), the ternary t says
             * on which side f(x) lies */
            int c = mpfr_cmpabs(v, d);
            int f_above = c > 0 || (c == 0 && (mpfr_sgn(v) > 0 ? t < 0 : t > 0));
            int f_below = c < 0 || (c == 0 && (mpfr_sgn(v) > 0 ? t > 0 : t < 0));
            side_ok = mpfr_sgn(v) * (e[w].m > 0 ? 1 : -1) > 0 &&
                      (e[w].side < 0 ? f_below : f_above);
            n_side++;
        }
        mpfr_sub(d, d, v, MPFR_RNDA);
        mpfr_abs(d, d, MPFR_RNDN);
        mpfr_set_d(b, e[w].err, MPFR_RNDN);
        mpfr_mul_2si(b, b, e[w].e, MPFR_RNDN);
        if (!side_ok || mpfr_cmp(d, b) >= 0 ||
            !(e[w].err <= 0x1p-40 * fabs(e[w].m) * (1 + 0x1p-39))) {
            printf("FAIL %s %s(%a): error %.3g, bound %.3g (relative %.3g)\n", names[w],
                   geluref_func_name(f), x, mpfr_get_d(d, MPFR_RNDN), mpfr_get_d(b, MPFR_RNDN),
                   e[w].err / fabs(e[w].m));
            n_bad++;
        }
    }
    mpfr_clears(xm, v, d, b, (mpfr_ptr)0);
}

int main(int argc, char **argv)
{
    encl_n_fn variants[NV] = { gr_fast_encl_n_generic, NULL, NULL, NULL };
    const char *names[NV] = { "generic", "fma", "avx2", "avx512" };
#if defined(GR_HAVE_FMA_VARIANT)
    if (__builtin_cpu_supports("fma"))
        variants[1] = gr_fast_encl_n_fma;
#endif
#if defined(GR_HAVE_AVX2_VARIANT)
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
        variants[2] = avx2_one;
#endif
#if defined(GR_HAVE_AVX512_VARIANT)
    if (gr_fast_avx512())
        variants[3] = avx512_one;
#endif
    mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
    mpfr_set_emin(mpfr_get_emin_min());
    mpfr_set_emax(mpfr_get_emax_max());
    int usage = 0;
    if (argc == 4 && strcmp(argv[1], "random") == 0) {
        unsigned long n = strtoul(argv[2], NULL, 10);
        rng_state = strtoull(argv[3], NULL, 10);
        for (int f = GELUREF_GELU; f <= GELUREF_ERFC; f++)
            for (unsigned long i = 0; i < n; i++) {
                uint32_t b;
                do
                    b = (uint32_t)next64();
                while ((b & 0x7f800000u) == 0x7f800000u);
                check((enum geluref_func)f, f32_of(b), variants, names);
                float u = (float)(((double)(next64() >> 11) * 0x1p-53 - 0.5) * 64);
                check((enum geluref_func)f, u, variants, names);
            }
    } else if (argc == 4 && strcmp(argv[1], "file") == 0) {
        enum geluref_func f;
        FILE *fp = fopen(argv[2], "r");
        if (geluref_func_from_name(argv[3], &f) != 0 || !fp) {
            fprintf(stderr, "test_fast_encl: cannot read %s or unknown function %s\n", argv[2],
                    argv[3]);
            return 2;
        }
        char line[256];
        unsigned long lines = 0;
        while (fgets(line, sizeof line, fp)) {
            unsigned long b;
            if (line[0] == '#' || sscanf(line, "%lx", &b) != 1)
                continue;
            check(f, f32_of((uint32_t)b), variants, names);
            lines++;
        }
        fclose(fp);
        (void)lines;
        n_core = n_served_core = 0; /* the hard cases: checked where served */
    } else {
        usage = 1;
    }
    mpfr_set_emin(emin);
    mpfr_set_emax(emax);
    if (usage) {
        fprintf(stderr, "usage: test_fast_encl random N SEED | file PATH FUNC\n");
        return 2;
    }
    printf("%lu enclosures checked (%lu one-sided), %lu failures; %lu of %lu core-range "
           "evaluations served\n", n_checked, n_side, n_bad, n_served_core, n_core);
    return n_bad != 0 || n_served_core < n_core * 0.9;
}
