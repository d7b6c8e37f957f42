/* The built-in `libm` adapter: GELU and its relatives written the ways people write them, on
 * the C library's erf, erfc, tanh and exp (docs/design.md section 5; issue 3).
 *
 * What glibc claims.  The glibc manual's "Known Maximum Errors in Math Functions" prints, per
 * architecture, the largest error glibc's own test suite observed (sysdeps/<arch>/fpu/
 * libm-test-ulps), in ulp, round-to-nearest; it says they are observed maxima, not proven
 * bounds.  For x86_64:
 *     erf    double 1   float 1
 *     erfc   double 5   float 3
 *     tanh   double 2   float 2
 *     exp    double 1   float 1
 * Sources: the double and tanh/exp rows as in the current upstream libm-test-ulps for x86_64;
 * the float erf/erfc rows as the glibc 2.3x manuals list them, from memory (newer upstream
 * files drop them since glibc replaced erff/erfcf by correctly rounded CORE-MATH code).  These
 * are claims about the functions, not about formulas built on them: what the formulas lose
 * (cancellation in 1+erf, the rounded x/sqrt2, -inf*0) is measured, not claimed.  Measured
 * maxima: tests/adapters/test_libm.c prints them.
 *
 * Same bits on every x86-64 CPU as far as this code goes: plain C, no intrinsics, built with
 * -ffp-contract=off (no FMA contraction) and never -ffast-math.  glibc itself picks FMA/AVX2
 * variants of some functions at load time (ifunc: exp, expf, log, pow, sin, ...), so its
 * results may still differ in rare last bits between CPUs; the version string says which
 * glibc, not which variant.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#if defined(__GLIBC__)
#include <gnu/libc-version.h>
#endif

#include "gc_libm.h"
#include "libm_internal.h"

#define GC_LIBM_MAX_KERNELS 48
#define GC_LIBM_DESC_BYTES 16384 /* all descriptions, formula + "; glibc X.Y libm" each */

static struct gelucheck_kernel kernels[GC_LIBM_MAX_KERNELS];
static char descs[GC_LIBM_DESC_BYTES];
static char version[64] = "unknown";
static struct gelucheck_plugin plugin;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void add_defs(const struct gc_libm_def *defs, size_t n, const char *lib, size_t *k,
                     size_t *used)
{
    for (size_t i = 0; i < n && *k < GC_LIBM_MAX_KERNELS; i++) {
        char *buf = descs + *used;
        const char *d = buf;
        int len = snprintf(buf, sizeof descs - *used, "%s; %s", defs[i].formula, lib);
        if (len < 0 || (size_t)len >= sizeof descs - *used)
            d = "(description too long for the buffer)"; /* the tests look for this */
        else
            *used += (size_t)len + 1;
        kernels[*k] = (struct gelucheck_kernel){ defs[i].name, d, defs[i].func, defs[i].dtype,
                                                 defs[i].eval };
        (*k)++;
    }
}

static void init(void)
{
    char lib[96] = "libm (version unknown)";
#if defined(__GLIBC__)
    const char *v = gnu_get_libc_version(); /* the glibc actually loaded, e.g. "2.36" */
    if (v != NULL && *v != '\0' && strlen(v) < sizeof version - 8) {
        snprintf(version, sizeof version, "glibc %s", v);
        snprintf(lib, sizeof lib, "glibc %s libm", v);
    }
#endif
    size_t k = 0, used = 0;
    add_defs(gc_libm_gelu_defs, gc_libm_gelu_n, lib, &k, &used);
    add_defs(gc_libm_deriv_defs, gc_libm_deriv_n, lib, &k, &used);
    add_defs(gc_libm_half_defs, gc_libm_half_n, lib, &k, &used);
    plugin = (struct gelucheck_plugin){
        .abi_version = GELUCHECK_PLUGIN_ABI,
        .struct_size = (uint32_t)sizeof(struct gelucheck_plugin),
        .kernel_size = (uint32_t)sizeof(struct gelucheck_kernel),
        .name = "libm",
        .version = version,
        .open = NULL, /* stateless: every ctx is NULL */
        .close = NULL,
        .last_error = NULL, /* no kernel fails */
        .n_kernels = k,
        .kernels = kernels,
    };
}

const struct gelucheck_plugin *gc_libm_entry(uint32_t host_abi)
{
    if (host_abi < 1)
        return NULL;
    pthread_once(&once, init);
    return &plugin;
}
