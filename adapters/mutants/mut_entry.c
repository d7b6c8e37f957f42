/* The built-in `mutants` adapter: deliberately defective GELU kernels, one per defect class
 * of issue 3's table (docs/design.md section 6 names the suites and finding kinds).  They claim
 * nothing: each description says the defect and what must catch it.  The families:
 * mut_formula.c (wrong formula or accuracy), mut_special.c (specials, tail, overflow, f16),
 * mut_vector.c (batch handling).  open() gives each thread a ctx with a call counter. */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gc_mutants.h"
#include "mut_internal.h"

#define GC_MUT_MAX_KERNELS 32

static struct gelucheck_kernel kernels[GC_MUT_MAX_KERNELS];
static struct gelucheck_plugin plugin;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static int mut_open(void **ctx, const char *options)
{
    (void)options; /* none taken */
    struct gc_mut_ctx *c = calloc(1, sizeof *c);
    *ctx = c;
    return c == NULL;
}

static void mut_close(void *ctx)
{
    free(ctx);
}

static const char *mut_last_error(void *ctx)
{
    struct gc_mut_ctx *c = ctx;
    if (c == NULL) /* open failed (no memory) or was never called */
        return "mutants: no ctx: open() failed or was not called (call_count.f32 needs one)";
    strcpy(c->error, "mutants: no error");
    return c->error;
}

static void add(const struct gelucheck_kernel *k, size_t n, size_t *at)
{
    for (size_t i = 0; i < n && *at < GC_MUT_MAX_KERNELS; i++)
        kernels[(*at)++] = k[i];
}

static void init(void)
{
    size_t n = 0;
    add(gc_mut_formula, gc_mut_formula_n, &n);
    add(gc_mut_special, gc_mut_special_n, &n);
    add(gc_mut_vector, gc_mut_vector_n, &n);
    plugin = (struct gelucheck_plugin){
        .abi_version = GELUCHECK_PLUGIN_ABI,
        .struct_size = (uint32_t)sizeof(struct gelucheck_plugin),
        .kernel_size = (uint32_t)sizeof(struct gelucheck_kernel),
        .name = "mutants",
        .version = "1",
        .open = mut_open,
        .close = mut_close,
        .last_error = mut_last_error,
        .n_kernels = n,
        .kernels = kernels,
    };
}

const struct gelucheck_plugin *gc_mutants_entry(uint32_t host_abi)
{
    if (host_abi < 1)
        return NULL;
    pthread_once(&once, init);
    return &plugin;
}
