/* gc_boost: the built-in `boost` adapter (Boost.Math's erf, erfc, normal cdf and GELU on
 * them, f64 and f32; boost_entry.c says what Boost claims). */
#ifndef GC_BOOST_H
#define GC_BOOST_H

#include <stdint.h>

#include <gelucheck/plugin.h>

/* The plug-in table (also declared in adapters/core/adapter.h): static, valid for the life of
 * the process; NULL when host_abi < 1.  Thread-safe.  Its open allocates the ctx that holds
 * last_error's message. */
const struct gelucheck_plugin *gc_boost_entry(uint32_t host_abi);

#endif
