/* bench_isolation: what running a kernel in gelucheck-worker costs (docs/design.md section 10),
 * measured side by side in one run: libm's erfc.f32 over 2^26 binary32 inputs (every 64th bit
 * pattern, so the whole range) in batches of 65536, as the exhaustive ulp sweep calls it,
 * in-process and through the worker; the times, the ratio (goal: isolated / in-process <=
 * 1.10) and the overhead per call.  Each configuration runs REPEATS times, alternating, and
 * the best time counts (the machine is shared).
 * Usage: bench_isolation [--adapter SPEC] [--kernel NAME] [--log2n N] */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "adapter.h"
#include "bench_clock.h"

#define BATCH 65536u /* the sweep's batch (ulp suite chunk) */
#define REPEATS 3    /* best of: the machine is shared with other work */

/* seconds for n inputs through k, or a negative number on failure */
static double run(const struct gc_kernel *k, uint64_t n, uint32_t *x, uint32_t *y)
{
    char msg[512];
    uint32_t step = (uint32_t)((UINT64_C(1) << 32) / n);
    double t0 = bench_now();
    for (uint64_t b = 0; b < n; b += BATCH) {
        for (uint32_t j = 0; j < BATCH; j++)
            x[j] = (uint32_t)(b + j) * step;
        if (gc_kernel_eval(k, x, y, BATCH, msg, sizeof msg) != GC_OK) {
            fprintf(stderr, "bench_isolation: %s\n", msg);
            return -1;
        }
    }
    return bench_now() - t0;
}

static const struct gc_kernel *find(struct gc_adapter *a, const char *name)
{
    for (size_t i = 0; i < a->n_kernels; i++)
        if (strcmp(a->kernels[i].name, name) == 0)
            return &a->kernels[i];
    return NULL;
}

int main(int argc, char **argv)
{
    const char *spec = "libm", *kname = "erfc.f32";
    unsigned log2n = 26;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--adapter") == 0)
            spec = argv[i + 1];
        else if (strcmp(argv[i], "--kernel") == 0)
            kname = argv[i + 1];
        else if (strcmp(argv[i], "--log2n") == 0)
            log2n = (unsigned)atoi(argv[i + 1]);
    }
    if (log2n < 16 || log2n > 32) {
        fprintf(stderr, "bench_isolation: --log2n must be 16..32\n");
        return 2;
    }
    uint64_t n = UINT64_C(1) << log2n;
    struct gc_adapter *a[2] = { NULL, NULL };
    const struct gc_kernel *k[2];
    char msg[512];
    for (int iso = 0; iso < 2; iso++) {
        struct gc_open_options opt = GC_OPEN_OPTIONS_INIT;
        opt.in_process = !iso;
        if (gc_adapter_open(spec, &opt, &a[iso], msg, sizeof msg) != GC_OK) {
            fprintf(stderr, "bench_isolation: %s\n", msg);
            return 1;
        }
        k[iso] = find(a[iso], kname);
        if (!k[iso] || k[iso]->elem_size != 4) {
            fprintf(stderr, "bench_isolation: no f32 kernel '%s' in '%s'\n", kname, spec);
            return 1;
        }
    }
    uint32_t *x = aligned_alloc(64, BATCH * 4), *y = aligned_alloc(64, BATCH * 4);
    if (!x || !y)
        return 1;
    double best[2] = { 1e300, 1e300 };
    for (int r = 0; r < REPEATS; r++)
        for (int iso = 0; iso < 2; iso++) {
            double t = run(k[iso], n, x, y);
            if (t < 0)
                return 1;
            best[iso] = t < best[iso] ? t : best[iso];
        }
    double calls = (double)(n / BATCH);
    printf("%s %s, 2^%u inputs in %.0f batches of %u, best of %d:\n", spec, kname, log2n,
           calls, BATCH, REPEATS);
    printf("  %-12s %9s %12s %14s\n", "mode", "seconds", "ns/input", "us/call");
    const char *names[2] = { "in-process", "worker" };
    for (int iso = 0; iso < 2; iso++)
        printf("  %-12s %9.3f %12.2f %14.1f\n", names[iso], best[iso], 1e9 * best[iso] / (double)n,
               1e6 * best[iso] / calls);
    printf("  ratio worker / in-process: %.3f (goal <= 1.10); overhead %.1f us per call\n",
           best[1] / best[0], 1e6 * (best[1] - best[0]) / calls);
    free(x);
    free(y);
    gc_adapter_close(a[0]);
    gc_adapter_close(a[1]);
    return 0;
}
