/* Internals of adapters/core, shared by its files only (the public side is adapter.h). */
#ifndef GC_CORE_H
#define GC_CORE_H

#include <fenv.h>
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
 * plug-in's stride, so both structs can grow by appending (docs/design.md 5.1). */
static inline const struct gelucheck_kernel *gc_kernel_at(const struct gelucheck_plugin *p,
                                                          size_t i)
{
    return (const struct gelucheck_kernel *)(const void *)((const char *)p->kernels +
                                                          i * p->kernel_size);
}

/* Files that come with gelucheck (home.c): REL found in the running program's folder or a
 * few folders above it, the same in an install and in the build tree; 0, or -1 when not. */
int gc_home_find(const char *rel, char *path, size_t size);
/* A built-in's command template (gc_builtin_config.h), each @REL@ replaced by the quoted path
 * gc_home_find gives; *out to be freed.  GC_E_LOAD naming who and REL when it is missing. */
enum gc_status gc_home_command(const char *tmpl, const char *who, char **out, char *msg,
                               size_t msize);

/* snprintf into msg; nothing when msg is NULL or size 0. */
void gc_msg(char *msg, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Outside text made safe for a one-line message: at most max bytes of s (then "..."), every
 * control or non-ASCII byte as '?'; "(null)" for NULL.  Returns buf. */
const char *gc_safe(char *buf, size_t size, const char *s, size_t max);

/* Checks a table handed over by who ("plug-in 'x.so'", "built-in adapter 'libm'") against
 * docs/design.md 5.1; GC_E_INVALID and a message naming who, the field and the kernel otherwise. */
enum gc_status gc_plugin_validate(const struct gelucheck_plugin *p, const char *who, char *msg,
                                  size_t size);

/* The floating-point environment around plug-in code (fpenv.c, docs/design.md 5.1).
 * gc_fpenv_prepare: round-to-nearest, FTZ and DAZ off, as every eval is promised.
 * gc_fpenv_check: after an eval; when the kernel left the rounding mode, FTZ or DAZ changed,
 * counts it in a->fpenv_modified, says what it saw in a->fpenv_what and prepares again. */
void gc_fpenv_prepare(void);
void gc_fpenv_check(struct gc_adapter *a);

/* A load bracketed step by step: gc_fpenv_load_begin before the first step (dlopen, the
 * entry, open) saves the environment; gc_fpenv_load_step after each puts it back whole and,
 * if the step changed the rounding mode, FTZ or DAZ and nothing was reported yet, says what
 * in what: "FTZ set (MXCSR bit 15); DAZ set (MXCSR bit 6) (in dlopen: a constructor)"
 * (step names the step).  what stays "" while no step changed anything. */
struct gc_fpenv_load {
    fenv_t env;
    int round;
    unsigned csr;  /* MXCSR before the load (x86), else 0 */
    char what[sizeof(((struct gc_adapter *)0)->fpenv_load)];
};
void gc_fpenv_load_begin(struct gc_fpenv_load *l);
void gc_fpenv_load_step(struct gc_fpenv_load *l, const char *step);

/* Validates p, copies its kernels into a new adapter and calls its open() once.  name NULL:
 * the table's own name.  dl (may be NULL) is owned from here on: dlclose'd on failure and at
 * gc_adapter_close.  load: the load so far (gc_fpenv_load_begin'd before dlopen), or NULL
 * (built-ins: begun here); open() is its last step, and what it found goes to the adapter's
 * fpenv_load. */
enum gc_status gc_plugin_adopt(const struct gelucheck_plugin *p, void *dl,
                               enum gc_adapter_kind kind, const char *name, const char *who,
                               const char *spec, const struct gc_open_options *opt,
                               struct gc_fpenv_load *load, struct gc_adapter **out, char *msg,
                               size_t size);

/* dlopen()s path and adopts what gelucheck_plugin_entry returns. */
/* "plug-in 'PATH'" (PATH made safe and cut): how messages name a plug-in, in process or in
 * the worker. */
void gc_plugin_who(char *who, size_t size, const char *path);
enum gc_status gc_plugin_dlopen(const char *path, const char *spec,
                                const struct gc_open_options *opt, struct gc_adapter **out,
                                char *msg, size_t size);

/* Opens spec in a gelucheck-worker process (worker_host.c, docs/design.md section 10); who names
 * it in messages ("plug-in 'x.so'", "built-in adapter 'libm'"). */
enum gc_status gc_worker_open(const char *spec, enum gc_adapter_kind kind, const char *who,
                              const struct gc_open_options *opt, struct gc_adapter **out,
                              char *msg, size_t size);

#endif
