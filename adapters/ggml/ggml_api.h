/* The few pieces of ggml's C API the ggml adapter calls, declared by hand (the npm package
 * ships libraries, no headers).  Copied from ggml 0.19.0, the version libggml-base.so of npm
 * @node-llama-cpp/linux-x64 3.20.0 reports (ggml_version() "0.19.0", ggml_commit() "adb92f2",
 * llama.cpp release b10361), as github.com/ggml-org/ggml has them at 30bf8685 ("ggml : bump
 * version to 0.19.0") and acfb0dde (the 0.19.0 sync of llama.cpp 1692f9e): include/ggml.h,
 * include/ggml-cpu.h, src/ggml-backend-impl.h.  Every declaration below is the same at
 * 77be358c (0.18.1) and d99724f2 (0.21.0), so at any commit between; gc_ggml_load() refuses
 * any other version than GC_GGML_VERSION, because the API moves between releases.
 *
 * Only opaque pointers cross the boundary except struct ggml_init_params, passed by value;
 * the tensor's data is reached through ggml_get_data(), never through struct ggml_tensor. */
#ifndef GC_GGML_API_H
#define GC_GGML_API_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GC_GGML_VERSION "0.19.0" /* the one ggml_version() this file matches */

/* include/ggml.h: enum ggml_type { GGML_TYPE_F32 = 0, ... } */
#define GC_GGML_TYPE_F32 0
/* include/ggml.h: enum ggml_status { ..., GGML_STATUS_SUCCESS = 0, ... } */
#define GC_GGML_STATUS_SUCCESS 0

struct ggml_context;
struct ggml_tensor;
struct ggml_cgraph;

/* include/ggml.h */
struct gc_ggml_init_params {
    size_t mem_size;   /* bytes */
    void *mem_buffer;  /* if NULL, memory will be allocated internally */
    bool no_alloc;     /* don't allocate memory for the tensor data */
};

/* libggml-base.so: the graph is built here */
struct gc_ggml_base {
    void *handle;
    const char *(*version)(void);                                      /* ggml_version */
    const char *(*commit)(void);                                       /* ggml_commit */
    struct ggml_context *(*init)(struct gc_ggml_init_params params);   /* ggml_init */
    void (*free)(struct ggml_context *ctx);                            /* ggml_free */
    size_t (*tensor_overhead)(void);                                   /* ggml_tensor_overhead */
    size_t (*graph_overhead)(void);                                    /* ggml_graph_overhead */
    struct ggml_tensor *(*new_tensor_1d)(struct ggml_context *ctx, int type, int64_t ne0);
    void *(*get_data)(const struct ggml_tensor *tensor);               /* ggml_get_data */
    struct ggml_cgraph *(*new_graph)(struct ggml_context *ctx);        /* ggml_new_graph */
    void (*build_forward_expand)(struct ggml_cgraph *cgraph, struct ggml_tensor *tensor);
    /* ggml_gelu, ggml_gelu_quick, ggml_gelu_erf: (ctx, a) -> the op's result tensor */
    struct ggml_tensor *(*op[3])(struct ggml_context *ctx, struct ggml_tensor *a);
};

/* libggml-cpu-VARIANT.so: the CPU backend built for one instruction-set level */
struct gc_ggml_cpu {
    void *handle;
    /* src/ggml-backend-impl.h, GGML_BACKEND_DL_SCORE_IMPL: 0 when this CPU cannot run it */
    int (*score)(void);                                                /* ggml_backend_score */
    void (*cpu_init)(void);                                            /* ggml_cpu_init */
    /* include/ggml-cpu.h; returns enum ggml_status */
    int (*compute_with_ctx)(struct ggml_context *ctx, struct ggml_cgraph *cgraph, int n_threads);
};

#endif
