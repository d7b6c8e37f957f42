/* The candidate kernels and the oneDNN 2.x primitive descriptor each one needs: the eltwise
 * primitive, or a matmul with the GELU as its post-op (an epilogue). */
#include <stddef.h>
#include <stdint.h>

#include <dnnl.h>

#include "onednn_internal.h"

#define ERF_FWD "gelu y = 0.5 x (1 + erf(x/sqrt2)) (dnnl_eltwise_gelu_erf, forward_inference)"
#define ERF_BWD "gelu_grad diff_src = diff_dst (0.5 (1 + erf(x/sqrt2)) + x exp(-x^2/2)/" \
                "sqrt(2 pi)) with diff_dst = 1 (dnnl_eltwise_gelu_erf, backward_data from src)"
#define TANH_FWD "gelu_tanh y = 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))) " \
                 "(dnnl_eltwise_gelu_tanh, forward_inference)"
#define TANH_BWD "gelu_tanh_grad diff_src = diff_dst 0.5 (1 + T) (1 + G2 (1 - T)), " \
                 "T = tanh(sqrt(2/pi) x (1 + 0.044715 x^2)), G2 = sqrt(2/pi) x " \
                 "(1 + 3*0.044715 x^2), with diff_dst = 1 (dnnl_eltwise_gelu_tanh, " \
                 "backward_data from src)"

/* What the matmul does before its post-op, and so what its epilogue kernel shows beyond the
 * eltwise kernel's defects (measured and tested: tests/adapters/test_onednn.c): */
#define MATMUL_NOTE "as the post-op of a matmul (dnnl_matmul, x an M x 1 matrix times the " \
                    "1 x 1 weight [1], K = 1, no bias); the matmul's accumulator starts at " \
                    "+0, so x = -0 reaches the post-op as +0"
#define MATMUL_BF16_NOTE ", and its bf16 conversion flushes subnormal inputs to +0 (subnormal " \
                         "results too, as the eltwise store does)"

/* the plain eltwise kernel of the same algorithm and dtype: report.md splits the epilogue's
 * findings into those it shares with it and those only the matmul adds (markdown_companion.c) */
#define COMPANION(alg, dtname) "; the eltwise alone is its companion kernel " alg ".fwd." dtname

#define SLOTS(dtname, gdt, ddt)                                                              \
    { "gelu_erf.fwd." dtname, ERF_FWD, GELUCHECK_GELU, gdt, dnnl_eltwise_gelu_erf, 0, ddt,    \
      0 },                                                                                    \
    { "gelu_erf.bwd." dtname, ERF_BWD, GELUCHECK_GELU_GRAD, gdt, dnnl_eltwise_gelu_erf, 1,    \
      ddt, 0 },                                                                               \
    { "gelu_tanh.fwd." dtname, TANH_FWD, GELUCHECK_GELU_TANH, gdt, dnnl_eltwise_gelu_tanh, 0, \
      ddt, 0 },                                                                               \
    { "gelu_tanh.bwd." dtname, TANH_BWD, GELUCHECK_GELU_TANH_GRAD, gdt,                       \
      dnnl_eltwise_gelu_tanh, 1, ddt, 0 }
#define EPILOGUES(dtname, gdt, ddt, note)                                                    \
    { "matmul_gelu_erf." dtname, "gelu y = 0.5 x (1 + erf(x/sqrt2)) (dnnl_eltwise_gelu_erf) " \
      MATMUL_NOTE note COMPANION("gelu_erf", dtname), GELUCHECK_GELU, gdt,                    \
      dnnl_eltwise_gelu_erf, 0, ddt, 1 },                                                     \
    { "matmul_gelu_tanh." dtname, "gelu_tanh y = 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 "   \
      "x^3))) (dnnl_eltwise_gelu_tanh) " MATMUL_NOTE note COMPANION("gelu_tanh", dtname),     \
      GELUCHECK_GELU_TANH, gdt,                                                               \
      dnnl_eltwise_gelu_tanh, 0, ddt, 1 }

const struct gc_onednn_slot gc_onednn_slots[GC_ONEDNN_SLOTS] = {
    SLOTS("f32", GELUCHECK_F32, dnnl_f32),
    SLOTS("bf16", GELUCHECK_BF16, dnnl_bf16),
    SLOTS("f16", GELUCHECK_F16, dnnl_f16),
    EPILOGUES("f32", GELUCHECK_F32, dnnl_f32, ""),
    EPILOGUES("bf16", GELUCHECK_BF16, dnnl_bf16, MATMUL_BF16_NOTE),
};

/* The matmul with the slot's algorithm as its only post-op (scale 1). */
static dnnl_status_t make_matmul_pd(const struct gc_onednn_slot *s, dnnl_engine_t e, int64_t n,
                                    dnnl_primitive_desc_t *pd, const char **what)
{
    dnnl_memory_desc_t src, wei, dst;
    dnnl_matmul_desc_t mm;
    dnnl_post_ops_t po = NULL;
    dnnl_primitive_attr_t attr = NULL;
    dnnl_dims_t xdims = { n, 1 }, wdims = { 1, 1 };
    dnnl_status_t st;

    *what = "dnnl_memory_desc_init_by_tag";
    st = dnnl_memory_desc_init_by_tag(&src, 2, xdims, s->dt, dnnl_ab);
    if (st == dnnl_success)
        st = dnnl_memory_desc_init_by_tag(&wei, 2, wdims, s->dt, dnnl_ab);
    if (st == dnnl_success)
        st = dnnl_memory_desc_init_by_tag(&dst, 2, xdims, s->dt, dnnl_ab);
    if (st == dnnl_success) {
        *what = "dnnl_matmul_desc_init";
        st = dnnl_matmul_desc_init(&mm, &src, &wei, NULL, &dst);
    }
    if (st == dnnl_success) {
        *what = "dnnl_post_ops_append_eltwise";
        st = dnnl_post_ops_create(&po);
    }
    if (st == dnnl_success)
        st = dnnl_post_ops_append_eltwise(po, 1.0f, s->alg, 0.0f, 0.0f);
    if (st == dnnl_success) {
        *what = "dnnl_primitive_attr_set_post_ops";
        st = dnnl_primitive_attr_create(&attr);
    }
    if (st == dnnl_success)
        st = dnnl_primitive_attr_set_post_ops(attr, po);
    if (st == dnnl_success) {
        *what = "dnnl_primitive_desc_create (matmul)";
        st = dnnl_primitive_desc_create(pd, &mm, attr, e, NULL);
    }
    if (st != dnnl_success)
        *pd = NULL;
    if (attr != NULL)
        dnnl_primitive_attr_destroy(attr);
    if (po != NULL)
        dnnl_post_ops_destroy(po);
    return st;
}

dnnl_status_t gc_onednn_make_pd(const struct gc_onednn_slot *s, dnnl_engine_t e, int64_t n,
                                dnnl_primitive_desc_t *pd, const char **what)
{
    dnnl_memory_desc_t md;
    dnnl_eltwise_desc_t fwd, bwd;
    dnnl_primitive_desc_t hint = NULL;
    dnnl_dims_t dims = { n };
    dnnl_status_t st;

    *pd = NULL;
    if (s->matmul)
        return make_matmul_pd(s, e, n, pd, what);
    *what = "dnnl_memory_desc_init_by_tag";
    st = dnnl_memory_desc_init_by_tag(&md, 1, dims, s->dt, dnnl_a);
    if (st != dnnl_success)
        return st;
    /* alpha and beta are ignored by both GELU algorithms (dnnl.h) */
    *what = "dnnl_eltwise_forward_desc_init";
    st = dnnl_eltwise_forward_desc_init(&fwd, s->backward ? dnnl_forward_training
                                                          : dnnl_forward_inference,
                                        s->alg, &md, 0.0f, 0.0f);
    if (st != dnnl_success)
        return st;
    *what = "dnnl_primitive_desc_create (forward)";
    st = dnnl_primitive_desc_create(s->backward ? &hint : pd, &fwd, NULL, e, NULL);
    if (st != dnnl_success) {
        *pd = NULL;
        return st;
    }
    if (!s->backward)
        return st;
    *what = "dnnl_eltwise_backward_desc_init";
    st = dnnl_eltwise_backward_desc_init(&bwd, s->alg, &md, &md, 0.0f, 0.0f);
    if (st == dnnl_success) {
        *what = "dnnl_primitive_desc_create (backward)";
        st = dnnl_primitive_desc_create(pd, &bwd, NULL, e, hint);
    }
    dnnl_primitive_desc_destroy(hint);
    if (st != dnnl_success)
        *pd = NULL;
    return st;
}
