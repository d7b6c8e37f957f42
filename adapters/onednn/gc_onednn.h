/* gc_onednn: the built-in `onednn` adapter (oneDNN's eltwise gelu_erf and gelu_tanh, forward
 * and backward, through the oneDNN 2.x C API). */
#ifndef GC_ONEDNN_H
#define GC_ONEDNN_H

#include <stdint.h>

#include <gelucheck/plugin.h>

/* The plug-in table (also declared in adapters/core/adapter.h): built once, on the first
 * call, by probing which primitives oneDNN can create on this CPU; valid for the life of the
 * process; NULL when host_abi < 1.  Thread-safe. */
const struct gelucheck_plugin *gc_onednn_entry(uint32_t host_abi);

/* For the tests: how many primitives the context has created so far (each a cache miss
 * of its per-kernel cache by batch length); 0 for NULL. */
uint64_t gc_onednn_ctx_created(const void *ctx);

#endif
