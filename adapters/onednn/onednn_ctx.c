/* The per-thread context of the onednn adapter (open/close/last_error) and the evals.
 *
 * A context holds a CPU engine, a stream, and per kernel a cache of primitives by batch
 * length: a primitive is made for one tensor shape, making one costs far more than a short
 * batch, and the suites call many lengths (the vector suite 0..131).  Batches are never
 * padded or split, so a tail-handling defect of oneDNN stays visible.  The host's buffers are
 * handed to oneDNN as they are (only element-aligned; x == y allowed: the eltwise primitive
 * works in place, a matmul gets a copy of x). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dnnl.h>
#include <dnnl_debug.h>

#include "gc_onednn.h"
#include "onednn_internal.h"

#if defined(_OPENMP) && DNNL_CPU_RUNTIME == DNNL_RUNTIME_OMP
#include <omp.h>
#define HOLD_OMP 1
#else
#define HOLD_OMP 0
#endif

#define CACHE_N 32 /* primitives kept per kernel; the least recently used one goes */

struct entry {
    size_t n;             /* batch length; 0: empty */
    uint64_t used;        /* the context's clock at the last use */
    dnnl_primitive_t prim;
    dnnl_memory_t src;    /* DNNL_ARG_SRC: x */
    dnnl_memory_t dst;    /* DNNL_ARG_DST (forward) or DNNL_ARG_DIFF_SRC (backward): y */
    dnnl_memory_t ddst;   /* DNNL_ARG_DIFF_DST (backward only): ones */
    dnnl_memory_t wei;    /* DNNL_ARG_WEIGHTS (matmul epilogues only): the 1 x 1 matrix [1] */
};

struct ctx {
    dnnl_engine_t engine;
    dnnl_stream_t stream;
    struct entry cache[GC_ONEDNN_SLOTS][CACHE_N];
    uint64_t clock, created;
    void *ones[3];        /* diff_dst = 1 in f32, bf16, f16; ones_n elements each */
    size_t ones_n[3];
    void *scratch;        /* a matmul epilogue's copy of x when x == y: a matmul may write
                             dst before it has read all of src (the AVX2 one does) */
    size_t scratch_size;
    char err[512];
};

static int fail(struct ctx *c, const struct gc_onednn_slot *s, size_t n, const char *what,
                dnnl_status_t st)
{
    snprintf(c->err, sizeof c->err, "oneDNN: %s failed for %s at n = %zu: %s", what, s->name,
             n, dnnl_status2str(st));
    return 1;
}

static void entry_free(struct entry *en)
{
    if (en->prim)
        dnnl_primitive_destroy(en->prim);
    if (en->src)
        dnnl_memory_destroy(en->src);
    if (en->dst)
        dnnl_memory_destroy(en->dst);
    if (en->ddst)
        dnnl_memory_destroy(en->ddst);
    if (en->wei)
        dnnl_memory_destroy(en->wei);
    memset(en, 0, sizeof *en);
}

static dnnl_status_t memory(struct ctx *c, dnnl_primitive_desc_t pd, dnnl_query_t q,
                            dnnl_memory_t *m)
{
    const dnnl_memory_desc_t *md = dnnl_primitive_desc_query_md(pd, q, 0);
    if (md == NULL)
        return dnnl_invalid_arguments;
    return dnnl_memory_create(m, md, c->engine, DNNL_MEMORY_NONE); /* handle set per eval */
}

/* The cached primitive of slot i for length n, made on a miss; NULL after a failure. */
static struct entry *lookup(struct ctx *c, size_t i, size_t n)
{
    const struct gc_onednn_slot *s = &gc_onednn_slots[i];
    struct entry *row = c->cache[i], *en = &row[0];
    dnnl_primitive_desc_t pd = NULL;
    const char *what = "dnnl_primitive_create";
    dnnl_status_t st;

    c->clock++;
    for (size_t j = 0; j < CACHE_N; j++) {
        if (row[j].n == n) {
            row[j].used = c->clock;
            return &row[j];
        }
        if (row[j].used < en->used)
            en = &row[j]; /* empty entries have used == 0 */
    }
    entry_free(en);
    if (n > (size_t)INT64_MAX)
        st = dnnl_invalid_arguments;
    else
        st = gc_onednn_make_pd(s, c->engine, (int64_t)n, &pd, &what);
    if (st == dnnl_success)
        st = dnnl_primitive_create(&en->prim, pd);
    if (st == dnnl_success) {
        what = "dnnl_memory_create";
        st = memory(c, pd, dnnl_query_src_md, &en->src);
    }
    if (st == dnnl_success)
        st = memory(c, pd, s->backward ? dnnl_query_diff_src_md : dnnl_query_dst_md, &en->dst);
    if (st == dnnl_success && s->backward)
        st = memory(c, pd, dnnl_query_diff_dst_md, &en->ddst);
    if (st == dnnl_success && s->matmul) {
        /* the weight 1 in the slot's dtype: read only, shared by every entry */
        static const float one_f32 = 1.0f;
        static const uint16_t one_bf16 = 0x3f80;
        const void *one = s->dt == dnnl_f32 ? (const void *)&one_f32 : (const void *)&one_bf16;
        st = memory(c, pd, dnnl_query_weights_md, &en->wei);
        if (st == dnnl_success) {
            what = "dnnl_memory_set_data_handle";
            st = dnnl_memory_set_data_handle(en->wei, (void *)(uintptr_t)one);
        }
    }
    if (pd != NULL)
        dnnl_primitive_desc_destroy(pd); /* the primitive keeps its own copy */
    if (st != dnnl_success) {
        entry_free(en);
        fail(c, s, n, what, st);
        return NULL;
    }
    en->n = n;
    en->used = c->clock;
    c->created++;
    return en;
}

/* diff_dst: n ones of the slot's dtype, grown on demand and kept */
static void *ones(struct ctx *c, const struct gc_onednn_slot *s, size_t n)
{
    size_t d = s->dt == dnnl_f32 ? 0 : s->dt == dnnl_bf16 ? 1 : 2;
    if (c->ones_n[d] >= n)
        return c->ones[d];
    size_t cap = n < 1024 ? 1024 : n;
    void *p = realloc(c->ones[d], cap * (d == 0 ? 4 : 2));
    if (p == NULL)
        return NULL;
    for (size_t i = 0; i < cap; i++) {
        if (d == 0) {
            float one = 1.0f;
            memcpy((char *)p + 4 * i, &one, 4);
        } else {
            uint16_t one = d == 1 ? 0x3f80 : 0x3c00; /* 1.0 in bf16, in f16 */
            memcpy((char *)p + 2 * i, &one, 2);
        }
    }
    c->ones[d] = p;
    c->ones_n[d] = cap;
    return p;
}

static int eval_slot(size_t i, void *vctx, const void *x, void *y, size_t n)
{
    struct ctx *c = vctx;
    const struct gc_onednn_slot *s = &gc_onednn_slots[i];
    struct entry *en;
    void *dd = NULL;
    dnnl_status_t st;

    if (c == NULL)
        return 1; /* last_error(NULL) says why */
    if (n == 0)
        return 0;
    if ((en = lookup(c, i, n)) == NULL)
        return 1;
    if (s->backward && (dd = ones(c, s, n)) == NULL) {
        snprintf(c->err, sizeof c->err, "oneDNN: %s: out of memory for diff_dst", s->name);
        return 1;
    }
    if (s->matmul && x == y) { /* in place, as the plug-in ABI allows */
        size_t bytes = n * (s->dt == dnnl_f32 ? 4 : 2);
        if (c->scratch_size < bytes) {
            void *p = realloc(c->scratch, bytes);
            if (p == NULL) {
                snprintf(c->err, sizeof c->err, "oneDNN: %s: out of memory for a copy of x",
                         s->name);
                return 1;
            }
            c->scratch = p;
            c->scratch_size = bytes;
        }
        memcpy(c->scratch, x, bytes);
        x = c->scratch;
    }
    /* oneDNN takes void * for every argument; it only reads src and diff_dst */
    st = dnnl_memory_set_data_handle(en->src, (void *)(uintptr_t)x);
    if (st == dnnl_success)
        st = dnnl_memory_set_data_handle(en->dst, y);
    if (st == dnnl_success && dd != NULL)
        st = dnnl_memory_set_data_handle(en->ddst, dd);
    if (st != dnnl_success)
        return fail(c, s, n, "dnnl_memory_set_data_handle", st);

    dnnl_exec_arg_t args[3] = { { DNNL_ARG_SRC, en->src } };
    int nargs = 2;
    if (s->matmul) {
        args[1] = (dnnl_exec_arg_t){ DNNL_ARG_WEIGHTS, en->wei };
        args[2] = (dnnl_exec_arg_t){ DNNL_ARG_DST, en->dst };
        nargs = 3;
    } else if (s->backward) {
        args[1] = (dnnl_exec_arg_t){ DNNL_ARG_DIFF_DST, en->ddst };
        args[2] = (dnnl_exec_arg_t){ DNNL_ARG_DIFF_SRC, en->dst };
        nargs = 3;
    } else {
        args[1] = (dnnl_exec_arg_t){ DNNL_ARG_DST, en->dst };
    }
#if HOLD_OMP
    int threads = omp_get_max_threads();
    if (threads != 1)
        omp_set_num_threads(1);
#endif
    st = dnnl_primitive_execute(en->prim, c->stream, nargs, args);
    if (st == dnnl_success)
        st = dnnl_stream_wait(c->stream);
#if HOLD_OMP
    if (threads != 1)
        omp_set_num_threads(threads);
#endif
    return st == dnnl_success ? 0 : fail(c, s, n, "dnnl_primitive_execute", st);
}

#define EVAL(i)                                                                   \
    static int eval_##i(void *ctx, const void *x, void *y, size_t n)              \
    {                                                                             \
        return eval_slot(i, ctx, x, y, n);                                        \
    }
EVAL(0) EVAL(1) EVAL(2) EVAL(3) EVAL(4) EVAL(5)
EVAL(6) EVAL(7) EVAL(8) EVAL(9) EVAL(10) EVAL(11)
EVAL(12) EVAL(13) EVAL(14) EVAL(15)
int (*const gc_onednn_evals[GC_ONEDNN_SLOTS])(void *, const void *, void *, size_t) = {
    eval_0, eval_1, eval_2, eval_3, eval_4, eval_5,
    eval_6, eval_7, eval_8, eval_9, eval_10, eval_11,
    eval_12, eval_13, eval_14, eval_15,
};

int gc_onednn_open(void **vctx, const char *options)
{
    struct ctx *c = calloc(1, sizeof *c);
    dnnl_status_t st;

    *vctx = c;
    if (c == NULL)
        return 1; /* last_error(NULL) */
    if (options != NULL && *options != '\0') {
        snprintf(c->err, sizeof c->err, "oneDNN: unknown options '%.200s' (the onednn "
                 "adapter takes none)", options);
        return 1;
    }
    st = dnnl_engine_create(&c->engine, dnnl_cpu, 0);
    if (st != dnnl_success) {
        c->engine = NULL;
        snprintf(c->err, sizeof c->err, "oneDNN: cannot create a CPU engine: %s",
                 dnnl_status2str(st));
        return 1;
    }
    st = dnnl_stream_create(&c->stream, c->engine, dnnl_stream_default_flags);
    if (st != dnnl_success) {
        c->stream = NULL;
        snprintf(c->err, sizeof c->err, "oneDNN: cannot create a stream: %s",
                 dnnl_status2str(st));
        return 1;
    }
    return 0;
}

void gc_onednn_close(void *vctx)
{
    struct ctx *c = vctx;
    if (c == NULL)
        return;
    for (size_t i = 0; i < GC_ONEDNN_SLOTS; i++)
        for (size_t j = 0; j < CACHE_N; j++)
            entry_free(&c->cache[i][j]);
    for (size_t d = 0; d < 3; d++)
        free(c->ones[d]);
    free(c->scratch);
    if (c->stream)
        dnnl_stream_destroy(c->stream);
    if (c->engine)
        dnnl_engine_destroy(c->engine);
    free(c);
}

const char *gc_onednn_last_error(void *vctx)
{
    const struct ctx *c = vctx;
    if (c == NULL)
        return "oneDNN: no context (out of memory in open(), or open() not called)";
    return c->err[0] ? c->err : NULL;
}

uint64_t gc_onednn_ctx_created(const void *vctx)
{
    const struct ctx *c = vctx;
    return c ? c->created : 0;
}
