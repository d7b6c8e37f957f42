/* gelucheck plug-in ABI, version 1 (docs/design.md section 5.1): how a kernel author's shared
 * library offers GELU kernels to gelucheck.
 *
 * A plug-in exports exactly one symbol, gelucheck_plugin_entry(), returning a table that
 * lives as long as the library is loaded.  The host (gelucheck) checks everything in it
 * before it touches anything: NULL pointers, struct sizes, names, enums.  The ABI only grows
 * by appending members to the two structs; the host walks kernels[] by kernel_size, so a
 * plug-in built against a later header still works with an older host and the reverse.
 *
 * Threads: the host calls open() once for each thread that will call eval(), and hands each
 * thread its own ctx.  The floating-point environment: the host sets round-to-nearest with
 * FTZ/DAZ off before each eval() and checks it afterwards.
 *
 * Minimal plug-in (see adapters/plugin/example/):
 *
 *   static int eval(void *ctx, const void *x, void *y, size_t n)
 *   { const float *xf = x; float *yf = y;
 *     for (size_t i = 0; i < n; i++) yf[i] = 0.5f * xf[i] * erfcf(-xf[i] * M_SQRT1_2);
 *     return 0; }
 *   static const struct gelucheck_kernel kernels[] = {
 *     { "erfc.f32", "0.5 x erfcf(-x/sqrt2) in float", GELUCHECK_GELU, GELUCHECK_F32, eval } };
 *   static const struct gelucheck_plugin plugin = {
 *     GELUCHECK_PLUGIN_ABI, sizeof plugin, sizeof kernels[0], "mykernels", "1.0",
 *     NULL, NULL, NULL, 1, kernels };
 *   const struct gelucheck_plugin *gelucheck_plugin_entry(uint32_t host_abi)
 *   { return host_abi >= 1 ? &plugin : NULL; }
 */
#ifndef GELUCHECK_PLUGIN_H
#define GELUCHECK_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GELUCHECK_PLUGIN_ABI 1u

/* Element types of x and y.  f16 (IEEE binary16) and bf16 travel as uint16_t bit patterns;
 * every dtype is in the machine's byte order in memory. */
enum gelucheck_dtype { GELUCHECK_F64 = 1, GELUCHECK_F32 = 2, GELUCHECK_F16 = 3, GELUCHECK_BF16 = 4 };

/* What a kernel claims to compute (docs/design.md section 2). */
enum gelucheck_func  { GELUCHECK_GELU = 1, GELUCHECK_GELU_TANH = 2, GELUCHECK_GELU_SIGMOID = 3,
                       GELUCHECK_GELU_GRAD = 4, GELUCHECK_GELU_TANH_GRAD = 5,
                       GELUCHECK_NORMCDF = 6, GELUCHECK_NORMPDF = 7,
                       GELUCHECK_ERF = 8, GELUCHECK_ERFC = 9 };

struct gelucheck_kernel {
    /* Unique within the plug-in, [A-Za-z0-9_.-]+, naming formula and dtype briefly
     * ("erf1p.f32").  Owned by the plug-in; must stay valid while it is loaded. */
    const char *name;
    /* The formula in full, the library version, the backend.  May be NULL.  Owned by the
     * plug-in. */
    const char *description;
    uint32_t func;  /* enum gelucheck_func: what the kernel claims to compute */
    uint32_t dtype; /* enum gelucheck_dtype of x and y; f16/bf16 as uint16_t bits */
    /* Called by the host, from the thread that opened ctx (ctx is NULL when open is NULL):
     * y[i] = f(x[i]) for i < n.  x == y is allowed (in place), partial overlap never; n == 0
     * is allowed (touch nothing); only element alignment is guaranteed.  The host owns x and
     * y.  Returns 0 on success, nonzero on failure (then last_error says why).  Never NULL. */
    int (*eval)(void *ctx, const void *x, void *y, size_t n);
};

struct gelucheck_plugin {
    uint32_t abi_version; /* GELUCHECK_PLUGIN_ABI the plug-in was built with */
    uint32_t struct_size; /* sizeof(struct gelucheck_plugin) as built */
    uint32_t kernel_size; /* sizeof(struct gelucheck_kernel) as built: the stride of kernels[] */
    const char *name;     /* e.g. "mykernels"; never NULL; owned by the plug-in */
    const char *version;  /* the implementation's version string; never NULL */
    /* Called by the host once per thread that will call eval, before any eval on it, with
     * the text of --adapter-options (NULL when none).  Sets *ctx (may stay NULL).  Returns 0
     * on success.  On failure the host calls last_error(*ctx) for the reason, then close(*ctx)
     * when *ctx is not NULL, and does not use the plug-in.  May be NULL: every ctx is NULL. */
    int (*open)(void **ctx, const char *options);
    /* Called by the host once per ctx that open() set, after its last eval.  May be NULL. */
    void (*close)(void *ctx);
    /* Called by the host after open or eval failed, with that ctx: a message the plug-in
     * owns, valid until the next call on that ctx.  May be NULL; may return NULL. */
    const char *(*last_error)(void *ctx);
    size_t n_kernels;                       /* number of entries in kernels[] */
    const struct gelucheck_kernel *kernels; /* kernel_size bytes apart; owned by the plug-in */
    /* ABI 1 ends here; later versions only append */
};

/* Marks the entry point exported even when a plug-in builds with -fvisibility=hidden. */
#if defined(__GNUC__)
#define GELUCHECK_PLUGIN_EXPORT __attribute__((visibility("default")))
#else
#define GELUCHECK_PLUGIN_EXPORT
#endif

/* The one exported symbol.  The host passes its GELUCHECK_PLUGIN_ABI; the plug-in returns
 * its table, or NULL when it cannot serve that host. */
const struct gelucheck_plugin *gelucheck_plugin_entry(uint32_t host_abi);
typedef const struct gelucheck_plugin *(*gelucheck_plugin_entry_fn)(uint32_t host_abi);

/* ABI 1 layout, pinned (LP64 and ILP32 alike: offsets follow from the member order). */
#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
_Static_assert(offsetof(struct gelucheck_kernel, name) == 0, "ABI 1: kernel.name");
_Static_assert(offsetof(struct gelucheck_kernel, description) == sizeof(void *),
               "ABI 1: kernel.description");
_Static_assert(offsetof(struct gelucheck_kernel, func) == 2 * sizeof(void *),
               "ABI 1: kernel.func");
_Static_assert(offsetof(struct gelucheck_kernel, dtype) == 2 * sizeof(void *) + 4,
               "ABI 1: kernel.dtype");
_Static_assert(offsetof(struct gelucheck_kernel, eval) == 2 * sizeof(void *) + 8,
               "ABI 1: kernel.eval");
_Static_assert(offsetof(struct gelucheck_plugin, abi_version) == 0, "ABI 1: abi_version");
_Static_assert(offsetof(struct gelucheck_plugin, struct_size) == 4, "ABI 1: struct_size");
_Static_assert(offsetof(struct gelucheck_plugin, kernel_size) == 8, "ABI 1: kernel_size");
#define GELUCHECK_ABI1_NAME_ (sizeof(void *) == 8 ? 16u : 12u) /* after three uint32_t */
_Static_assert(offsetof(struct gelucheck_plugin, name) == GELUCHECK_ABI1_NAME_, "ABI 1: name");
_Static_assert(offsetof(struct gelucheck_plugin, version) ==
                   GELUCHECK_ABI1_NAME_ + sizeof(void *), "ABI 1: version");
_Static_assert(offsetof(struct gelucheck_plugin, open) ==
                   GELUCHECK_ABI1_NAME_ + 2 * sizeof(void *), "ABI 1: open");
_Static_assert(offsetof(struct gelucheck_plugin, close) ==
                   GELUCHECK_ABI1_NAME_ + 3 * sizeof(void *), "ABI 1: close");
_Static_assert(offsetof(struct gelucheck_plugin, last_error) ==
                   GELUCHECK_ABI1_NAME_ + 4 * sizeof(void *), "ABI 1: last_error");
_Static_assert(offsetof(struct gelucheck_plugin, n_kernels) ==
                   GELUCHECK_ABI1_NAME_ + 5 * sizeof(void *), "ABI 1: n_kernels");
_Static_assert(offsetof(struct gelucheck_plugin, kernels) ==
                   GELUCHECK_ABI1_NAME_ + 5 * sizeof(void *) + sizeof(size_t),
               "ABI 1: kernels");
#endif

#ifdef __cplusplus
}
#endif
#endif /* GELUCHECK_PLUGIN_H */
