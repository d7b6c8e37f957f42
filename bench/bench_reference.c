/* bench_reference: throughput of the reference's two paths, side by side in one run.
 * For each function and dtype, the same inputs through geluref_eval_odd() with the fast path
 * and with the MPFR path; prints values per second of each, their ratio and the fraction the
 * fast path left to MPFR.  Two input sets: "bits" (random bit patterns: every binade and both
 * signs alike, as the suites' stratified sweeps) and "core" (uniform in [-8, 8], where every
 * function varies and nothing is decided by a rule).
 * Usage: bench_reference [N_FAST [N_MPFR]]   (defaults 400000 and 4000 per row) */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "geluref.h"
#include "bench_clock.h"

static uint64_t state;
static uint64_t next64(void)
{
    uint64_t z = (state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

/* n inputs of set "bits" or "core" for dt, NaN/inf/zero left out (the ulp suite's domain) */
static void inputs(enum geluref_dtype dt, int core, uint64_t *x, size_t n)
{
    const struct geluref_dtype_info *d = geluref_dtype_info(dt);
    uint64_t mask = d->bits == 64 ? ~(uint64_t)0 : ((uint64_t)1 << d->bits) - 1;
    uint64_t inf = (((uint64_t)1 << d->exp_bits) - 1) << (d->prec - 1);
    for (size_t i = 0; i < n;) {
        uint64_t b;
        if (core) {
            char txt[64];
            double v = -8.0 + 16.0 * (double)(next64() >> 11) * 0x1p-53;
            snprintf(txt, sizeof txt, "%a", v);
            if (geluref_parse(txt, dt, &b, NULL) != GELUREF_OK)
                continue;
        } else {
            b = next64() & mask;
        }
        uint64_t mag = b & (mask >> 1);
        if (mag == 0 || mag >= inf)
            continue;
        x[i++] = b;
    }
}

static double rate(enum geluref_func f, enum geluref_dtype dt, const uint64_t *x, size_t n,
                   enum geluref_path path, struct geluref_stats *st)
{
    struct geluref_odd o;
    double t0 = bench_now();
    for (size_t i = 0; i < n; i++)
        if (geluref_eval_odd(f, dt, x[i], path, NULL, st, &o) != GELUREF_OK) {
            fprintf(stderr, "bench_reference: evaluation failed\n");
            exit(1);
        }
    return (double)n / (bench_now() - t0);
}

int main(int argc, char **argv)
{
    size_t nf = argc > 1 ? strtoull(argv[1], NULL, 10) : 400000;
    size_t nm = argc > 2 ? strtoull(argv[2], NULL, 10) : 4000;
    if (nf == 0 || nm == 0 || nm > nf) {
        fprintf(stderr, "usage: bench_reference [N_FAST [N_MPFR]] (N_MPFR <= N_FAST)\n");
        return 2;
    }
    uint64_t *x = malloc(nf * sizeof *x);
    if (!x)
        return 1;
    printf("reference throughput, one thread (geluref %s, MPFR %s)\n", geluref_version(),
           mpfr_get_version());
    printf("%-15s %-4s %-4s %14s %14s %9s %10s\n", "func", "dt", "set", "fast (1/s)",
           "mpfr (1/s)", "ratio", "fallback");
    const enum geluref_dtype dts[] = { GELUREF_F32, GELUREF_F64, GELUREF_F16, GELUREF_BF16 };
    for (int f = GELUREF_FUNC_FIRST; f <= GELUREF_GELU_GRAD2; f++)
        for (size_t k = 0; k < 4; k++)
            for (int core = 0; core < 2; core++) {
                enum geluref_func fn = (enum geluref_func)f;
                state = (uint64_t)(f * 16 + (int)k * 2 + core);
                inputs(dts[k], core, x, nf);
                struct geluref_stats st = { 0 };
                double rf = rate(fn, dts[k], x, nf, GELUREF_PATH_FAST, &st);
                double rm = rate(fn, dts[k], x, nm, GELUREF_PATH_MPFR, NULL);
                printf("%-15s %-4s %-4s %14.0f %14.0f %9.1f %9.4f%%\n", geluref_func_name(fn),
                       geluref_dtype_name(dts[k]), core ? "core" : "bits", rf, rm, rf / rm,
                       100.0 * (double)st.fast_miss / (double)nf);
                fflush(stdout);
            }
    free(x);
    return 0;
}
