/* gc_gsl: the built-in `gsl` adapter (GSL's erf, erfc, normal CDF and GELU on them, f64;
 * gsl_entry.c says what GSL claims). */
#ifndef GC_GSL_H
#define GC_GSL_H

#include <stdint.h>

#include <gelucheck/plugin.h>

/* The plug-in table (also declared in adapters/core/adapter.h): static, valid for the life of
 * the process; NULL when host_abi < 1.  The first call turns GSL's error handler off for the
 * whole process (gsl_set_error_handler_off).  Thread-safe. */
const struct gelucheck_plugin *gc_gsl_entry(uint32_t host_abi);

#endif
