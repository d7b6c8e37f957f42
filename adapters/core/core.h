/* Internals of adapters/core, shared by its files only (the public side is adapter.h). */
#ifndef GC_CORE_H
#define GC_CORE_H

#include <stddef.h>

#include "adapter.h"

/* Sanity limits on a plug-in's table.  No real plug-in comes near them; past them the table
 * is garbage (and index * kernel_size stays far below SIZE_MAX even on 32-bit hosts). */
#define GC_MAX_KERNELS 100000u
#define GC_MAX_STRUCT_SIZE 4096u

/* The ABI 1 sizes, from the header's ABI 1 members only: stays right when the header grows. */
#define GC_ABI1_PLUGIN_SIZE (offsetof(struct gelucheck_plugin, kernels) + sizeof(void *))
#define GC_ABI1_KERNEL_SIZE \
    (offsetof(struct gelucheck_kernel, eval) + sizeof(((struct gelucheck_kernel *)0)->eval))

/* Kernel i of a table whose kernel_size has been checked: kernels[] is walked by the
 * plug-in's stride, so both structs can grow by appending (DESIGN.md 5.1). */
static inline const struct gelucheck_kernel *gc_kernel_at(const struct gelucheck_plugin *p,
                                                          size_t i)
{
    return (const struct gelucheck_kernel *)(const void *)((const char *)p->kernels +
                                                          i * p->kernel_size);
}

/* snprintf into msg; nothing when msg is NULL or size 0. */
void gc_msg(char *msg, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Outside text made safe for a one-line message: at most max bytes of s (then "..."), every
 * control or non-ASCII byte as '?'; "(null)" for NULL.  Returns buf. */
const char *gc_safe(char *buf, size_t size, const char *s, size_t max);

/* Checks a table handed over by who ("plug-in 'x.so'", "built-in adapter 'libm'") against
 * DESIGN.md 5.1; GC_E_INVALID and a message naming who, the field and the kernel otherwise. */
enum gc_status gc_plugin_validate(const struct gelucheck_plugin *p, const char *who, char *msg,
                                  size_t size);

/* Validates p, copies its kernels into a new adapter and calls its open() once.  name NULL:
 * the table's own name.  dl (may be NULL) is owned from here on: dlclose'd on failure and at
 * gc_adapter_close. */
enum gc_status gc_plugin_adopt(const struct gelucheck_plugin *p, void *dl,
                               enum gc_adapter_kind kind, const char *name, const char *who,
                               const char *spec, const struct gc_open_options *opt,
                               struct gc_adapter **out, char *msg, size_t size);

/* dlopen()s path and adopts what gelucheck_plugin_entry returns. */
/* "plug-in 'PATH'" (PATH made safe and cut): how messages name a plug-in, in process or in
 * the worker. */
void gc_plugin_who(char *who, size_t size, const char *path);
enum gc_status gc_plugin_dlopen(const char *path, const char *spec,
                                const struct gc_open_options *opt, struct gc_adapter **out,
                                char *msg, size_t size);

/* Opens spec in a gelucheck-worker process (worker_host.c, DESIGN.md section 10); who names
 * it in messages ("plug-in 'x.so'", "built-in adapter 'libm'"). */
enum gc_status gc_worker_open(const char *spec, enum gc_adapter_kind kind, const char *who,
                              const struct gc_open_options *opt, struct gc_adapter **out,
                              char *msg, size_t size);

#endif
