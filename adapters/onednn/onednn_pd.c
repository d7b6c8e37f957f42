/* The candidate kernels and the oneDNN 2.x primitive descriptor each one needs. */
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

#define SLOTS(dtname, gdt, ddt)                                                              \
    { "gelu_erf.fwd." dtname, ERF_FWD, GELUCHECK_GELU, gdt, dnnl_eltwise_gelu_erf, 0, ddt },  \
    { "gelu_erf.bwd." dtname, ERF_BWD, GELUCHECK_GELU_GRAD, gdt, dnnl_eltwise_gelu_erf, 1,    \
      ddt },                                                                                  \
    { "gelu_tanh.fwd." dtname, TANH_FWD, GELUCHECK_GELU_TANH, gdt, dnnl_eltwise_gelu_tanh, 0, \
      ddt },                                                                                  \
    { "gelu_tanh.bwd." dtname, TANH_BWD, GELUCHECK_GELU_TANH_GRAD, gdt,                       \
      dnnl_eltwise_gelu_tanh, 1, ddt }

const struct gc_onednn_slot gc_onednn_slots[GC_ONEDNN_SLOTS] = {
    SLOTS("f32", GELUCHECK_F32, dnnl_f32),
    SLOTS("bf16", GELUCHECK_BF16, dnnl_bf16),
    SLOTS("f16", GELUCHECK_F16, dnnl_f16),
};

dnnl_status_t gc_onednn_make_pd(const struct gc_onednn_slot *s, dnnl_engine_t e, int64_t n,
                                dnnl_primitive_desc_t *pd, const char **what)
{
    dnnl_memory_desc_t md;
    dnnl_eltwise_desc_t fwd, bwd;
    dnnl_primitive_desc_t hint = NULL;
    dnnl_dims_t dims = { n };
    dnnl_status_t st;

    *pd = NULL;
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
