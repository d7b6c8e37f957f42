/* The built-in `onednn` adapter: oneDNN's eltwise primitive, algorithms gelu_erf and
 * gelu_tanh, forward and backward (diff_dst = 1 gives the derivative), through the oneDNN 2.x
 * C API (docs/design.md section 5; issue 6).  f32 always; bf16 and f16 where oneDNN can create the
 * primitive on this CPU (2.x: bf16 needs avx512_core, f16 is never offered on x86-64).
 *
 * What oneDNN claims.  The eltwise developer guide (dev_guide_eltwise, 2.x) gives formulas
 * only, gelu_erf d = 0.5 s (1 + erf(s/sqrt2)) and gelu_tanh d = 0.5 s (1 + tanh(sqrt(2/pi)
 * (s + 0.044715 s^3))) and their derivatives for backward; it documents no error bound.  The
 * nearest things to a claim:
 *  - the x64 JIT (src/cpu/x64/injectors/jit_uni_eltwise_injector.cpp, 2.x) evaluates erf by
 *    Abramowitz & Stegun 7.1.26, 1 - t (a1 + ... + a5 t^4) exp(-z^2), t = 1/(1 + p |z|),
 *    |error| <= 1.5e-7 absolute (A&S), then GELU = S + S erf with S = x/2; its comment says
 *    a minimax alternative cost "~1.0e-5 -- 1.0e-3 absolute error at s = -5" against a
 *    glibc-erf GELU.  An absolute bound on erf says nothing for x < 0, where 1 + erf cancels.
 *  - benchdnn, oneDNN's conformance test (tests/benchdnn/eltwise/eltwise.cpp,
 *    get_eltwise_threshold, 2.x), accepts a relative error (absolute near zero) of 4e-6 in
 *    f32 for gelu_erf (34 to 67 ulp) and 4e-5 for gelu_tanh, one bf16 epsilon (2^-7) in bf16,
 *    against an f32 reference.
 * bf16 is widened to f32, computed as f32 and rounded back on store.
 * Measured (gelucheck run, oneDNN 2.6.3, jit:avx512_core / avx512_core_bf16): in f32 the
 * forward erf GELU is 2x off near x = -5.5 and 0 below -5.543 (last non-zero: -14.36); every
 * kernel gives NaN at -inf, the backward ones at +inf too, gelu_tanh backward for |x| above
 * about 1.2e13 (G2 overflows, times 1 - T = 0); the native bf16 store flushes subnormals.
 *
 * Threads.  Debian's libdnnl 2.6.3 runs on OpenMP (DNNL_CPU_RUNTIME in dnnl_config.h;
 * dnnl_version()->cpu_runtime says which at run time).  The host runs its own threads, so
 * each eval holds oneDNN to one thread: omp_set_num_threads(1) for the calling thread around
 * the execute, restored after (oneDNN sizes its team by omp_get_max_threads() at execute
 * time).  Another runtime is left as it is, and the description says so.
 *
 * Which code runs: oneDNN picks an implementation per CPU (DNNL_MAX_CPU_ISA caps it); each
 * description records the implementation and ISA it chose when the table was built.
 *
 * Epilogues.  Most GELUs oneDNN runs in a model are not the eltwise primitive but the eltwise
 * post-op of a matmul (PyTorch's and OpenVINO's fused Linear + GELU).  The matmul_* kernels
 * make one a function of one input: x is an M x 1 matrix times the 1 x 1 weight [1], so K = 1
 * and no sum mixes inputs (an inf or NaN stays in its own row).  What the matmul does before
 * the post-op is its own, and the description names it: its accumulator starts at +0, so -0
 * arrives as +0 (0 + -0 = +0), and in bf16 its conversions flush subnormals.  The kernel of the
 * same algorithm and dtype as a plain eltwise runs beside it, so a finding of the epilogue
 * alone is the matmul's.  A matmul chooses its implementation by shape: the description names
 * the one for M = 64 and for M = 4096 (a transformer's tokens). */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include <dnnl.h>
#include <dnnl_debug.h>

#include "gc_onednn.h"
#include "onednn_internal.h"

#define PROBE_N 64 /* batch length of the load-time probe; the impl is the same at 1..65536 */
#define PROBE_BIG_N 4096 /* a matmul epilogue's second probe: M of a transformer's tokens */

static struct gelucheck_kernel kernels[GC_ONEDNN_SLOTS];
static char descs[GC_ONEDNN_SLOTS][900];
static char version[96] = "oneDNN (version unknown)";
static struct gelucheck_plugin plugin;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static const char *threads_text(unsigned runtime)
{
#if defined(_OPENMP) && DNNL_CPU_RUNTIME == DNNL_RUNTIME_OMP
    if (runtime == DNNL_RUNTIME_OMP)
        return "held to 1 thread per eval";
#endif
    (void)runtime;
    return "its own thread count";
}

static const char *dtype_text(dnnl_data_type_t dt)
{
    return dt == dnnl_f32 ? "f32 in and out" : dt == dnnl_bf16 ? "bf16 in and out"
                                                                 : "f16 in and out";
}

static void init(void)
{
    const dnnl_version_t *v = dnnl_version();
    const char *isa = dnnl_cpu_isa2str(dnnl_get_effective_cpu_isa());
    dnnl_engine_t e = NULL;
    dnnl_status_t est = dnnl_engine_create(&e, dnnl_cpu, 0);
    char lib[64];
    size_t k = 0;

    if (strncmp(isa, "cpu_isa_", 8) == 0)
        isa += 8;
    snprintf(version, sizeof version, "oneDNN %d.%d.%d%s%s (CPU runtime %s)", v->major,
             v->minor, v->patch, strcmp(v->hash, "N/A") ? " git " : "",
             strcmp(v->hash, "N/A") ? v->hash : "", dnnl_runtime2str(v->cpu_runtime));
    snprintf(lib, sizeof lib, "oneDNN %d.%d.%d", v->major, v->minor, v->patch);
    for (size_t i = 0; i < GC_ONEDNN_SLOTS; i++) {
        const struct gc_onednn_slot *s = &gc_onednn_slots[i];
        char impl[240];
        if (est == dnnl_success) {
            dnnl_primitive_desc_t pd;
            const char *what, *info = NULL;
            if (gc_onednn_make_pd(s, e, PROBE_N, &pd, &what) != dnnl_success)
                continue; /* not on this CPU (dnnl_unimplemented) */
            if (dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &info) !=
                    dnnl_success || info == NULL)
                info = "(not reported)";
            snprintf(impl, sizeof impl, "%s", info);
            dnnl_primitive_desc_destroy(pd);
            /* a matmul may choose by shape: say what a transformer-sized M gets too */
            if (s->matmul && gc_onednn_make_pd(s, e, PROBE_BIG_N, &pd, &what) == dnnl_success) {
                if (dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &info) !=
                        dnnl_success || info == NULL)
                    info = "(not reported)";
                if (strcmp(info, impl) != 0) {
                    char small[sizeof impl];
                    memcpy(small, impl, sizeof impl);
                    snprintf(impl, sizeof impl, "%.100s at M = %d, %.100s at M = %d", small,
                             PROBE_N, info, PROBE_BIG_N);
                } else {
                    size_t l = strlen(impl);
                    snprintf(impl + l, sizeof impl - l, " (at M = %d and %d)", PROBE_N,
                             PROBE_BIG_N);
                }
                dnnl_primitive_desc_destroy(pd);
            }
        } else if (s->dt == dnnl_f32) {
            /* kept in the table so that open() can say what went wrong */
            snprintf(impl, sizeof impl, "unknown (no CPU engine: %s)", dnnl_status2str(est));
        } else {
            continue;
        }
        snprintf(descs[i], sizeof descs[i], "%s, %s; %s, impl %s on CPU ISA %s, CPU runtime "
                 "%s %s", s->formula, dtype_text(s->dt), lib, impl, isa,
                 dnnl_runtime2str(v->cpu_runtime), threads_text(v->cpu_runtime));
        kernels[k++] = (struct gelucheck_kernel){ s->name, descs[i], s->func, s->dtype,
                                                  gc_onednn_evals[i] };
    }
    if (e != NULL)
        dnnl_engine_destroy(e);
    plugin = (struct gelucheck_plugin){
        .abi_version = GELUCHECK_PLUGIN_ABI,
        .struct_size = (uint32_t)sizeof(struct gelucheck_plugin),
        .kernel_size = (uint32_t)sizeof(struct gelucheck_kernel),
        .name = "onednn",
        .version = version,
        .open = gc_onednn_open,
        .close = gc_onednn_close,
        .last_error = gc_onednn_last_error,
        .n_kernels = k,
        .kernels = kernels,
    };
}

const struct gelucheck_plugin *gc_onednn_entry(uint32_t host_abi)
{
    if (host_abi < 1)
        return NULL;
    pthread_once(&once, init);
    return &plugin;
}
