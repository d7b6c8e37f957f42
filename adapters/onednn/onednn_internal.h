/* Private to adapters/onednn: the candidate kernels (slots), the primitive descriptor each
 * needs, and the per-thread context (onednn_ctx.c). */
#ifndef GC_ONEDNN_INTERNAL_H
#define GC_ONEDNN_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include <dnnl.h>

#include <gelucheck/plugin.h>

/* The eltwise primitive: 2 algorithms x forward/backward x f32, bf16, f16; then the matmul
 * epilogues: 2 algorithms as a matmul's post-op x f32, bf16.  Each probed at load time and
 * offered only when oneDNN can create its primitive on this CPU (onednn_entry.c). */
#define GC_ONEDNN_SLOTS 16

struct gc_onednn_slot {
    const char *name;      /* the kernel name */
    const char *formula;   /* the description's first part */
    uint32_t func;         /* enum gelucheck_func */
    uint32_t dtype;        /* enum gelucheck_dtype */
    dnnl_alg_kind_t alg;   /* dnnl_eltwise_gelu_erf or dnnl_eltwise_gelu_tanh */
    int backward;          /* 0: forward_inference; 1: backward_data with diff_dst = 1 */
    dnnl_data_type_t dt;   /* dnnl_f32, dnnl_bf16, dnnl_f16 */
    int matmul;            /* 1: alg as the eltwise post-op of a matmul, x an M x 1 matrix
                              times the 1 x 1 weight [1] (K = 1: no sums); forward only */
};
extern const struct gc_onednn_slot gc_onednn_slots[GC_ONEDNN_SLOTS];

/* The eval of slot i (onednn_ctx.c): the plug-in ABI's eval with the slot bound. */
extern int (*const gc_onednn_evals[GC_ONEDNN_SLOTS])(void *ctx, const void *x, void *y,
                                                      size_t n);

/* The primitive descriptor of slot s for a dense 1-D tensor of n elements on engine e
 * (backward: created with its forward_training hint, which is destroyed again; a matmul
 * epilogue: src and dst n x 1, weights 1 x 1).  *pd is NULL unless dnnl_success is returned;
 * *what names the call that failed. */
dnnl_status_t gc_onednn_make_pd(const struct gc_onednn_slot *s, dnnl_engine_t e, int64_t n,
                                dnnl_primitive_desc_t *pd, const char **what);

/* The plug-in's open/close/last_error (onednn_ctx.c). */
int gc_onednn_open(void **ctx, const char *options);
void gc_onednn_close(void *ctx);
const char *gc_onednn_last_error(void *ctx);

#endif
