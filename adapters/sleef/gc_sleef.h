/* gc_sleef: the built-in `sleef` adapter (GELU on SLEEF's erf, erfc and tanh, scalar and
 * vector; sleef_entry.c says what SLEEF claims). */
#ifndef GC_SLEEF_H
#define GC_SLEEF_H

#include <stdint.h>

#include <gelucheck/plugin.h>

/* The plug-in table (also declared in adapters/core/adapter.h): static, valid for the life of
 * the process, the vector backends this CPU runs only; NULL when host_abi < 1.  Thread-safe. */
const struct gelucheck_plugin *gc_sleef_entry(uint32_t host_abi);

#endif
