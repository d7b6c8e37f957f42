/* fuzz_plugin: a plug-in table built from a recipe of fuzz bytes, and an independent model of
 * the contract it must meet (docs/design.md 5.1), for fuzz_plugin.c. */
#ifndef GELUCHECK_FUZZ_PLUGIN_H
#define GELUCHECK_FUZZ_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#include <gelucheck/plugin.h>

/* What the table's functions do (fuzz_plugin.c's fp_open, fp_last_error, fp_eval_*). */
struct fp_behaviour {
    int open_rc;            /* open() returns this */
    int open_sets_ctx;      /* and sets *ctx first */
    int eval_rc;            /* eval returns this */
    const char *last_error; /* last_error() returns this (may be NULL; any bytes) */
};

/* A built table: p in a heap block of exactly the bytes it claims (struct_size, when that is
 * at least the 8 bytes of abi_version and struct_size and at most GC_MAX_STRUCT_SIZE), its
 * kernels[] in one of n x kernel_size bytes (n_kernels when the host must walk it, else at
 * most 4), its strings in a pool. */
struct fp_table {
    struct gelucheck_plugin *p;
    void *kernels;
    char *pool;
};

int fp_open(void **ctx, const char *options);
void fp_close(void *ctx);
const char *fp_last_error(void *ctx);
int fp_eval_a(void *ctx, const void *x, void *y, size_t n);
int fp_eval_b(void *ctx, const void *x, void *y, size_t n);

/* Builds t from data (a recipe: fuzz_plugin_build.c says how bytes are read; missing bytes
 * read as 0, which always picks something valid) and sets *b.  0, or -1 on no memory. */
int fp_build(struct fp_table *t, const uint8_t *data, size_t size, struct fp_behaviour *b);
void fp_release(struct fp_table *t);

/* The model: whether docs/design.md 5.1 allows p (abi_version >= 1; struct_size and kernel_size at
 * least ABI 1's and at most 4096; kernel_size a multiple of the kernel's alignment; name and
 * version set; 1 <= n_kernels <= 100000; kernels set; each kernel a valid unique name, func
 * 1..9, dtype 1..4, eval set).  Reads only what the contract lets it read. */
int fp_model_accepts(const struct gelucheck_plugin *p);
/* [A-Za-z0-9_.-]{1,128} */
int fp_model_name_ok(const char *s);

#endif
