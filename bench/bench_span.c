/* bench_span: the ulp sweep's span lane (suites/ulp_lane.h) one, four (AVX2) and eight
 * (AVX-512) at a time, side by side in one run, on what the sweep gives it in a tail: blocks
 * of 128 consecutive binary32 inputs of one binade (the sweep's are 256 since 2026-12-05: the
 * lane works run by run, so a block's length moves only its per-call costs), the spans of
 * their runs of GS_SPAN inputs formed as ulp.c's span_ends forms them (enclosures at the
 * runs' ends, chords from geluref_curvature), and the outputs of glibc's float sigmoid form of
 * GELU,
 * x / (1 + expf(-1.702f x)) (the libm adapter's sigmoid.f32).  Two measurements, as an
 * exhaustive sweep of that kernel makes them: its own function (gelu_sigmoid), judged by a
 * policy of max_ulp 4 with maxima above every error (most outputs taken, those failing the
 * policy as failures), and the exact GELU, not judged (outputs far from it).  Best of five
 * runs of each in ns per output (one thread), how many outputs each takes (the same for every
 * width, or the lanes disagree), and the ratios to one at a time.
 * Usage: bench_span [ROUNDS] (default 20000 blocks a cell). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ulp_lane.h"
#include "bench_clock.h"

#define K 128
#define NB 4 /* blocks: starts below */

typedef void (*span_fn)(const struct gs_fused_span *, const unsigned char *, const uint64_t *,
                        const uint64_t *, size_t, const struct gs_quick_bounds *,
                        unsigned char *, struct gs_quick_counts *);

struct width {
    const char *name;
    span_fn fn;
    int have; /* the CPU reports what it needs */
};

struct block {
    uint64_t x[K], y[K];
    unsigned char ok[K];
    struct gs_fused_span s[K / GS_SPAN + 1];
};

/* The spans of f over block b (as ulp.c's span_ends); 0 where f is not monotone there. */
static int spans_of(enum geluref_func f, struct block *b)
{
    double xd[K], xe[K / GS_SPAN + 2];
    size_t ie[K / GS_SPAN + 2], nsb = (K - 1) / GS_SPAN + 1;
    struct geluref_encl ee[K / GS_SPAN + 2];
    unsigned char oke[K / GS_SPAN + 2];
    for (size_t q = 0; q < K; q++) {
        float v;
        uint32_t u = (uint32_t)b->x[q];
        memcpy(&v, &u, sizeof v);
        xd[q] = v;
    }
    double lo = fmin(xd[0], xd[K - 1]), hi = fmax(xd[0], xd[K - 1]);
    if (geluref_monotone(f, lo, hi) == 0)
        return 0;
    for (size_t j = 0; j <= nsb; j++) {
        ie[j] = GS_SPAN * j < K - 1 ? GS_SPAN * j : K - 1;
        xe[j] = xd[ie[j]];
    }
    geluref_enclose_n(f, xe, nsb + 1, ee, oke);
    double m = geluref_curvature(f, lo, hi);
    for (size_t j = 0; j < nsb; j++) {
        uint64_t xa = b->x[ie[j]], xb = b->x[ie[j + 1]];
        size_t n = ie[j + 1] - ie[j];
        double h = fabs(xe[j + 1] - xe[j]);
        double curv = m >= 0 && xb - xa == n && (xa >> 23) == (xb >> 23) ? m * h * h * 0.125 : -1;
        gs_fused_span_of(&ee[j], oke[j], &ee[j + 1], oke[j + 1], curv, (double)n, &b->s[j]);
    }
    return 1;
}

/* ns per output of fn over rounds passes of the blocks (best of five); *taken: per pass */
static double run(span_fn fn, const struct block *bl, const struct gs_quick_bounds *b,
                  size_t rounds, uint64_t *taken)
{
    double best = INFINITY;
    for (int rep = 0; rep < 5; rep++) {
        unsigned char t[K];
        struct gs_quick_counts c;
        memset(&c, 0, sizeof c);
        double t0 = bench_now();
        for (size_t r = 0; r < rounds; r++)
            fn(bl[r % NB].s, bl[r % NB].ok, bl[r % NB].x, bl[r % NB].y, K, b, t, &c);
        double dt = (bench_now() - t0) / (double)(rounds * K) * 1e9;
        best = dt < best ? dt : best;
        *taken = c.n / rounds;
    }
    return best;
}

int main(int argc, char **argv)
{
    size_t rounds = argc > 1 ? strtoull(argv[1], NULL, 10) : 20000;
    if (rounds == 0) {
        fprintf(stderr, "usage: bench_span [ROUNDS] (ROUNDS > 0)\n");
        return 2;
    }
    /* blocks in the tail at -2, -5, -9 and -12: each start's pattern and the next 127 */
    static const float starts[NB] = { -2.0625f, -5.125f, -9.25f, -12.5f };
    static struct block own[NB], ex[NB];
    for (int i = 0; i < NB; i++) {
        uint32_t u0;
        memcpy(&u0, &starts[i], sizeof u0);
        for (size_t q = 0; q < K; q++) {
            uint32_t u = u0 + (uint32_t)q;
            float x, y;
            memcpy(&x, &u, sizeof x);
            y = x / (1 + expf(-1.702f * x));
            uint32_t yb;
            memcpy(&yb, &y, sizeof yb);
            own[i].x[q] = ex[i].x[q] = u;
            own[i].y[q] = ex[i].y[q] = yb;
            own[i].ok[q] = ex[i].ok[q] = 1;
        }
        if (!spans_of(GELUREF_GELU_SIGMOID, &own[i]) || !spans_of(GELUREF_GELU, &ex[i])) {
            fprintf(stderr, "bench_span: a block is not monotone\n");
            return 1;
        }
    }
    struct gs_policy_values v;
    memset(&v, 0, sizeof v);
    v.max_ulp = 4;
    v.max_cr_distance = INFINITY;
    v.accuracy_domain = GS_DOMAIN_NORMAL;
    struct gs_quick_bounds jb = { INFINITY, INFINITY, INFINITY, 0,        0,        0, &v,
                                  INFINITY, INFINITY, INFINITY, INFINITY };
    struct gs_quick_bounds xb = jb;
    xb.v = NULL;
    xb.unkept = xb.unkept_flush = xb.unkept_ftz = xb.unkept_sz = -INFINITY;
    struct width w[3] = { { "one at a time", gs_fused_span_lane_n_generic, 1 } };
    int nw = 1;
#if defined(GS_HAVE_AVX2_LANE)
    w[nw++] = (struct width){ "four (AVX2)", gs_fused_span_lane_n_avx2,
                              __builtin_cpu_supports("avx2") };
#endif
#if defined(GS_HAVE_AVX512_LANE)
    w[nw++] = (struct width){ "eight (AVX-512)", gs_fused_span_lane_n_avx512, gs_lane_avx512() };
#endif
    printf("span lane, %d blocks of %d inputs (sigmoid.f32's outputs), ns per output, best of 5 "
           "runs of %zu blocks\n",
           NB, K, rounds);
    printf("%-16s %12s %8s %7s %12s %8s %7s\n", "width", "own (judged)", "taken", "ratio",
           "exact", "taken", "ratio");
    double g_own = 0, g_ex = 0;
    for (int i = 0; i < nw; i++) {
        if (!w[i].have) {
            printf("%-16s (the CPU lacks it)\n", w[i].name);
            continue;
        }
        uint64_t to, tx;
        double o = run(w[i].fn, own, &jb, rounds, &to);
        double e = run(w[i].fn, ex, &xb, rounds, &tx);
        if (i == 0) {
            g_own = o;
            g_ex = e;
        }
        printf("%-16s %12.2f %8llu %7.2f %12.2f %8llu %7.2f\n", w[i].name, o,
               (unsigned long long)to, g_own / o, e, (unsigned long long)tx, g_ex / e);
    }
    return 0;
}
