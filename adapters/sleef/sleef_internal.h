/* Private to adapters/sleef: the backends (one per instruction set, each in its own
 * translation unit built with that set's -m flags) and the kernel table builder. */
#ifndef GC_SLEEF_INTERNAL_H
#define GC_SLEEF_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include <gelucheck/plugin.h>

/* The glue's constants, as the C library's M_ macros give them (binary64 nearest the real
 * value); the float kernels cast them to float, as frameworks write (float)M_SQRT1_2. */
#define GC_SLEEF_SQRT1_2 0x1.6a09e667f3bcdp-1   /* RN(1/sqrt2) = M_SQRT1_2 */
#define GC_SLEEF_SQRT_2_PI 0x1.9884533d43651p-1 /* RN(sqrt(2/pi)), the tanh form's beta */
#define GC_SLEEF_KAPPA 0.044715                 /* the tanh form (Hendrycks & Gimpel 2016) */

/* The SLEEF functions a kernel calls. */
enum gc_sleef_fn { GC_SLEEF_ERF = 0, GC_SLEEF_ERFC = 1, GC_SLEEF_TANH = 2, GC_SLEEF_NFN = 3 };

/* buf[i] = fn(buf[i]) for i < n, n a multiple of the backend's lanes: whole vectors only. */
typedef void gc_sleef_map_f32(float *buf, size_t n);
typedef void gc_sleef_map_f64(double *buf, size_t n);

/* One backend.  Its maps may use its instruction set anywhere: call them only after
 * gc_sleef_isa_supported() said yes. */
struct gc_sleef_isa {
    const char *tag;     /* in kernel names: scalar, sse2, avx2, avx512f */
    const char *backend; /* in descriptions */
    unsigned lanes_f32, lanes_f64;
    gc_sleef_map_f32 *f32[GC_SLEEF_NFN];
    gc_sleef_map_f64 *f64[GC_SLEEF_NFN];
    const char *sym_f32[GC_SLEEF_NFN]; /* the SLEEF entry points the maps call */
    const char *sym_f64[GC_SLEEF_NFN];
};

enum gc_sleef_isa_id {
    GC_SLEEF_SCALAR = 0,
    GC_SLEEF_SSE2 = 1,
    GC_SLEEF_AVX2 = 2,
    GC_SLEEF_AVX512F = 3,
    GC_SLEEF_NISA = 4
};
#define GC_SLEEF_FORMS 5 /* gelu_erf, gelu_erfc, gelu_tanh, erf, erfc */
#define GC_SLEEF_MAX_KERNELS (GC_SLEEF_NISA * GC_SLEEF_FORMS * 2)

/* The backends (sleef_isa.c, sleef_sse2.c, sleef_avx2.c, sleef_avx512.c). */
extern const struct gc_sleef_isa gc_sleef_isa_scalar, gc_sleef_isa_sse2, gc_sleef_isa_avx2,
    gc_sleef_isa_avx512f;

/* The backend, or NULL when this build has none for id (not x86-64). */
const struct gc_sleef_isa *gc_sleef_isa_get(enum gc_sleef_isa_id id);
/* Nonzero when the CPU (and the OS, which must save the wider registers) runs backend id:
 * sse2: __builtin_cpu_supports("sse2"); avx2: "avx2" and "fma" (SLEEF builds its avx2
 * code with -mavx2 -mfma); avx512f: "avx512f".  scalar: always. */
int gc_sleef_isa_supported(enum gc_sleef_isa_id id);

#define GC_SLEEF_NAME_MAX 48

/* The backends this CPU supports, bit id per backend (sleef_entry.c). */
unsigned gc_sleef_supported_mask(void);

/* Fills out[] (room for GC_SLEEF_MAX_KERNELS) with the kernels of the backends in isa_mask
 * (bit id per backend; the entry passes what the CPU supports), their names written into
 * names[] and descriptions into descs (lib: the SLEEF version text).  Returns the number of
 * kernels; a description that does not fit reads "(description too long for the buffer)". */
size_t gc_sleef_build(unsigned isa_mask, const char *lib, struct gelucheck_kernel *out,
                      char (*names)[GC_SLEEF_NAME_MAX], char *descs, size_t desc_size);

/* A map over whole vectors (each backend file): name, element type, lanes, the vector
 * load and store (unaligned: the caller's buffer is aligned, but the map does not rely on
 * it), and the SLEEF function. */
#define GC_SLEEF_MAP(name, type, lanes, load, store, fn)                    \
    static void name(type *buf, size_t n)                                   \
    {                                                                       \
        for (size_t i = 0; i < n; i += (lanes))                             \
            store(buf + i, fn(load(buf + i)));                              \
    }

#endif
