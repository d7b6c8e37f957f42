/* bench_lane: the ulp sweep's quick lane (suites/ulp_lane.h) four at a time
 * (gs_fused_quick_lane_n_avx2) against one at a time (gs_fused_quick_lane_n_generic), side by
 * side in one run, on what the sweep gives it: blocks of 256 consecutive binary32 inputs of
 * one binade of a function, their enclosures (geluref_enclose_n), outputs at RN(f(x)) or a
 * few positions from it (about a third each way), statistics whose maxima lie above them;
 * judged by the default policy (max_ulp 4, as the kernel's own measurement) and not judged
 * (the exact function's), best of five runs of each in ns per input (one thread), and their
 * ratio.  Needs a CPU with AVX2 (else it says so and exits 0).
 * Usage: bench_lane [ROUNDS] (default 20000 blocks a cell). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ulp_lane.h"
#include "bench_clock.h"

#define K 256

typedef void (*lane_fn)(const struct geluref_encl *, const unsigned char *, const uint64_t *,
                        const uint64_t *, size_t, const struct gs_quick_bounds *,
                        unsigned char *, struct gs_quick_counts *, const struct gs_quick_errs *);

/* ns per input of fn over rounds passes of the block */
static double run(lane_fn fn, const struct geluref_encl *e, const unsigned char *ok,
                  const uint64_t *x, const uint64_t *y, const struct gs_quick_bounds *b,
                  size_t rounds, uint64_t *taken)
{
    unsigned char t[K];
    struct gs_quick_counts c;
    memset(&c, 0, sizeof c);
    double t0 = bench_now();
    for (size_t r = 0; r < rounds; r++)
        fn(e, ok, x, y, K, b, t, &c, NULL);
    double dt = bench_now() - t0;
    *taken = c.n;
    return dt / (double)(rounds * K) * 1e9;
}

int main(int argc, char **argv)
{
    size_t rounds = argc > 1 ? strtoull(argv[1], NULL, 10) : 20000;
    if (rounds == 0) {
        fprintf(stderr, "usage: bench_lane [ROUNDS] (ROUNDS > 0)\n");
        return 2;
    }
#if !defined(GS_HAVE_AVX2_LANE)
    printf("bench_lane: this build has no AVX2 lane (x86-64 only)\n");
    return 0;
#else
    if (!__builtin_cpu_supports("avx2")) {
        printf("bench_lane: the CPU reports no AVX2: nothing to compare\n");
        return 0;
    }
    static const struct {
        enum geluref_func f;
        float from; /* the block's first input */
    } cells[] = { { GELUREF_GELU, -3.0f },      { GELUREF_GELU_TANH, -3.0f },
                  { GELUREF_GELU_SIGMOID, -3.0f }, { GELUREF_NORMPDF, -3.0f },
                  { GELUREF_ERF, -0.5f },       { GELUREF_GELU, 2.0f } };
    struct gs_policy_values v;
    memset(&v, 0, sizeof v);
    v.max_ulp = 4;
    v.max_cr_distance = INFINITY;
    v.accuracy_domain = GS_DOMAIN_NORMAL;
    printf("the quick lane, ns per input, one thread, best of 5 (blocks of %d, %zu a cell)\n", K,
           rounds);
    printf("%-15s %-9s %-8s %9s %9s %7s %7s\n", "function", "from", "judged", "generic", "avx2",
           "ratio", "taken");
    for (size_t i = 0; i < sizeof cells / sizeof cells[0]; i++) {
        double xd[K];
        uint64_t x[K], y[K];
        struct geluref_encl e[K];
        unsigned char ok[K];
        uint32_t a;
        memcpy(&a, &cells[i].from, sizeof a);
        for (int q = 0; q < K; q++) {
            uint32_t bq = a + (uint32_t)q;
            float fq;
            memcpy(&fq, &bq, sizeof fq);
            xd[q] = fq;
            x[q] = bq;
        }
        geluref_enclose_n(cells[i].f, xd, K, e, ok);
        for (int q = 0; q < K; q++) { /* RN, or 1 to 3 positions up or down */
            float v0 = (float)ldexp(e[q].m, (int)e[q].e);
            uint32_t yb;
            memcpy(&yb, &v0, sizeof yb);
            int d = q % 3 == 0 ? 0 : (q % 7) - 3;
            y[q] = (uint64_t)(uint32_t)(yb + (uint32_t)d);
        }
        for (int judged = 1; judged >= 0; judged--) {
            struct gs_quick_bounds b = { 1e6, 1.0, 1.0, 0, 0, 0, judged ? &v : NULL, 1e9, 1e9,
                                         1e9, 1e9 };
            double best[2] = { 1e30, 1e30 };
            uint64_t taken[2] = { 0, 0 };
            for (int rep = 0; rep < 5; rep++)
                for (int w = 0; w < 2; w++) {
                    double t = run(w ? gs_fused_quick_lane_n_avx2 : gs_fused_quick_lane_n_generic,
                                   e, ok, x, y, &b, rounds, &taken[w]);
                    if (t < best[w])
                        best[w] = t;
                }
            if (taken[0] != taken[1]) {
                printf("bench_lane: the two versions took %llu and %llu inputs\n",
                       (unsigned long long)taken[0], (unsigned long long)taken[1]);
                return 1;
            }
            printf("%-15s %-9g %-8s %9.2f %9.2f %7.2f %6.1f%%\n",
                   geluref_func_name(cells[i].f), (double)cells[i].from, judged ? "yes" : "no",
                   best[0], best[1], best[0] / best[1],
                   100.0 * (double)taken[1] / (double)(rounds * K));
            fflush(stdout);
        }
    }
    return 0;
#endif
}
