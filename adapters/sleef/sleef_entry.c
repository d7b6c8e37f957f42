/* The built-in `sleef` adapter: GELU in the erf, erfc and tanh forms on SLEEF's erf, erfc
 * and tanh, and erf, erfc themselves, f32 and f64, through SLEEF's scalar functions and its
 * SSE2, AVX2 and AVX-512F vector entry points (issue 6).
 *
 * What SLEEF claims.  The SLEEF 3.5 documentation, "Math library reference" (doc/html/
 * purec.xhtml, sleef.org/purec.xhtml), round-to-nearest, as error bounds (not observed
 * maxima):
 *     Sleef_erf_u10, Sleef_erff_u10    1.0 ulp
 *     Sleef_erfc_u15                   max(1.5 ulp, DBL_MIN) for x < 26.2, else
 *                                      max(2.5 ulp, DBL_MIN)
 *     Sleef_erfcf_u15                  max(1.5 ulp, FLT_MIN)
 *     Sleef_tanh_u10, Sleef_tanhf_u10  1.0 ulp, 1.0001 ulp
 * and "These functions do not set errno nor raise an exception".  The x86 page (x86.xhtml)
 * says each vector function (Sleef_erfd8_u10avx512f, ...) is the vectorized function of the
 * scalar one "with the same accuracy specification".  max(1.5 ulp, DBL_MIN) is an absolute
 * floor: erfc may be off by up to DBL_MIN (FLT_MIN) where its value is subnormal or tiny.
 * Measured (SLEEF 3.5.1, issue 6): erf exceeds its claim just above the smallest normal:
 * erff 2.03 ulp at x = 0x1.18d9fcp-126 (scalar and sse2; the max over every float below
 * 2^-100), 1.10 ulp (avx2, avx512f); erf 1.10 ulp at x = 0x1.179accfdd375cp-1022 (scalar,
 * sse2).  These are claims about the functions, not the formulas: what 1 + erf loses for
 * x < 0, the rounded x/sqrt2 and -inf * 0 at x = -inf are measured too
 * (tests/adapters/test_sleef.c prints them).
 *
 * Backends: a vector one is in the table only when __builtin_cpu_supports says this CPU runs
 * it (sleef_isa.c); its code sits in a translation unit of its own, built with its -m flags.
 * The entry points are SLEEF's ISA-suffixed ones, not its dispatchers, so the name says what
 * ran.  The version: sleef.h's SLEEF_VERSION_* macros at build time (libsleef has no version
 * query), plus the file the dynamic linker actually loaded for Sleef_erf_u10.
 */
#define _GNU_SOURCE /* dladdr, realpath */
#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sleef.h>

#include "gc_sleef.h"
#include "sleef_internal.h"

#define STR2(x) #x
#define STR(x) STR2(x)
#define HEADER_VERSION STR(SLEEF_VERSION_MAJOR) "." STR(SLEEF_VERSION_MINOR) "." \
    STR(SLEEF_VERSION_PATCHLEVEL)

static struct gelucheck_kernel kernels[GC_SLEEF_MAX_KERNELS];
static char names[GC_SLEEF_MAX_KERNELS][GC_SLEEF_NAME_MAX];
static char descs[GC_SLEEF_MAX_KERNELS * 400];
static char version[160];
static struct gelucheck_plugin plugin;
static pthread_once_t once = PTHREAD_ONCE_INIT;

/* The file name of the loaded libsleef ("libsleef.so.3.5.1" after symlinks); "" if unknown. */
static void loaded_file(char *out, size_t size)
{
    Dl_info info;
    char path[PATH_MAX];
    out[0] = '\0';
    if (dladdr((void *)Sleef_erf_u10, &info) == 0 || info.dli_fname == NULL)
        return;
    const char *p = realpath(info.dli_fname, path) != NULL ? path : info.dli_fname;
    const char *base = strrchr(p, '/');
    base = base != NULL ? base + 1 : p;
    if (strlen(base) < size)
        memcpy(out, base, strlen(base) + 1);
}

unsigned gc_sleef_supported_mask(void)
{
    unsigned mask = 0;
    for (int id = 0; id < GC_SLEEF_NISA; id++)
        if (gc_sleef_isa_supported((enum gc_sleef_isa_id)id))
            mask |= 1u << id;
    return mask;
}

static void init(void)
{
    char file[96], lib[192];
    loaded_file(file, sizeof file);
    snprintf(version, sizeof version, "SLEEF %s", HEADER_VERSION);
    if (file[0] != '\0')
        snprintf(lib, sizeof lib, "SLEEF %s (sleef.h; %s loaded)", HEADER_VERSION, file);
    else
        snprintf(lib, sizeof lib, "SLEEF %s (sleef.h)", HEADER_VERSION);
    size_t n = gc_sleef_build(gc_sleef_supported_mask(), lib, kernels, names, descs,
                              sizeof descs);
    plugin = (struct gelucheck_plugin){
        .abi_version = GELUCHECK_PLUGIN_ABI,
        .struct_size = (uint32_t)sizeof(struct gelucheck_plugin),
        .kernel_size = (uint32_t)sizeof(struct gelucheck_kernel),
        .name = "sleef",
        .version = version,
        .open = NULL, /* stateless: every ctx is NULL */
        .close = NULL,
        .last_error = NULL, /* no kernel fails */
        .n_kernels = n,
        .kernels = kernels,
    };
}

const struct gelucheck_plugin *gc_sleef_entry(uint32_t host_abi)
{
    if (host_abi < 1)
        return NULL;
    pthread_once(&once, init);
    return &plugin;
}
