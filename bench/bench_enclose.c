/* bench_enclose: the reference's double tier (geluref_enclose_n) one input at a time (the FMA
 * build's scalar evaluators, gr_fast_encl_n_fma) against four at a time (gr_fast_encl_n_avx2,
 * reference/src/fast_vec.c) and eight at a time (gr_fast_encl_n_avx512, where the CPU reports
 * AVX-512 F, DQ and VL), side by side in one run: for every function and each region of the
 * sweep table (bench_sweep --only table), batches of 128 consecutive binary32 inputs spread
 * over the region, the variants alternating, the best of five runs of each in ns per input
 * (one thread), and the ratios scalar / four and four / eight.  Needs a CPU with AVX2 and FMA
 * (else it says so and exits 0).  Usage: bench_enclose [BATCHES] (default 4000 batches per
 * function and region). */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fast.h"
#include "bench_clock.h"

typedef size_t (*encl_n_fn)(enum geluref_func, const double *, size_t, struct geluref_encl *,
                            unsigned char *);

static uint32_t bits_of(float v)
{
    uint32_t b;
    memcpy(&b, &v, sizeof b);
    return b;
}

/* ns per input of fn over nb batches of 128 consecutive binary32 inputs from bit pattern a,
 * a step apart */
static double run(encl_n_fn fn, enum geluref_func f, uint32_t a, uint32_t step, size_t nb,
                  volatile double *sink)
{
    double x[128];
    struct geluref_encl o[128];
    unsigned char ok[128];
    double t0 = bench_now();
    for (size_t b = 0; b < nb; b++) {
        uint32_t u = a + (uint32_t)b * step;
        for (int i = 0; i < 128; i++) {
            uint32_t v = u + (uint32_t)i;
            float fx;
            memcpy(&fx, &v, sizeof fx);
            x[i] = fx;
        }
        fn(f, x, 128, o, ok);
        *sink += o[0].m + ok[127];
    }
    return (bench_now() - t0) / (double)(nb * 128) * 1e9;
}

int main(int argc, char **argv)
{
    size_t nb = argc > 1 ? strtoull(argv[1], NULL, 10) : 4000;
    if (nb == 0) {
        fprintf(stderr, "usage: bench_enclose [BATCHES] (BATCHES > 0)\n");
        return 2;
    }
#if !defined(GR_HAVE_AVX2_VARIANT)
    printf("bench_enclose: this build has no AVX2 variant (x86-64 only)\n");
    return 0;
#else
    if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma")) {
        printf("bench_enclose: the CPU reports no AVX2 or no FMA: nothing to compare\n");
        return 0;
    }
    /* the regions as binary32 bit ranges [lo, hi] (negative: larger bits are larger |x|) */
    static const struct {
        const char *name;
        float a, b;
    } rg[] = { { "[-16,-1]", -1.0f, -16.0f }, { "[-1,0)", -0x1p-126f, -1.0f },
               { "[0,8)", 0x1p-126f, 8.0f } };
    volatile double sink = 0;
    printf("the double tier, ns per input, one thread, best of 5 (batches of 128, %zu per "
           "cell)\n", nb);
    int nv = gr_fast_avx512() ? 3 : 2;
    if (nv == 2)
        printf("(the CPU does not report AVX-512 F, DQ and VL: no eight at a time)\n");
    printf("%-15s %-9s %9s %9s %9s %7s %7s\n", "function", "region", "scalar", "four", "eight",
           "s/four", "4/8");
    for (int f = GELUREF_GELU; f <= GELUREF_ERFC; f++)
        for (size_t r = 0; r < sizeof rg / sizeof rg[0]; r++) {
            uint32_t a = bits_of(rg[r].a), b = bits_of(rg[r].b);
            uint32_t step = (b - a) / (uint32_t)nb;
            static const encl_n_fn fns[3] = { gr_fast_encl_n_fma, gr_fast_encl_n_avx2,
                                              gr_fast_encl_n_avx512 };
            double best[3] = { 1e30, 1e30, 1e30 };
            for (int rep = 0; rep < 5; rep++)
                for (int w = 0; w < nv; w++) {
                    double t = run(fns[w], (enum geluref_func)f, a, step, nb, &sink);
                    if (t < best[w])
                        best[w] = t;
                }
            char eight[16] = "-", ratio8[16] = "-"; /* (no eight at a time: "-") */
            if (nv == 3) {
                snprintf(eight, sizeof eight, "%.2f", best[2]);
                snprintf(ratio8, sizeof ratio8, "%.2f", best[1] / best[2]);
            }
            printf("%-15s %-9s %9.2f %9.2f %9s %7.2f %7s\n",
                   geluref_func_name((enum geluref_func)f), rg[r].name, best[0], best[1], eight,
                   best[0] / best[1], ratio8);
            fflush(stdout);
        }
    return sink == 12345.678; /* keeps the sink; never true */
#endif
}
