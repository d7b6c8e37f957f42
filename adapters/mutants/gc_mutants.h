/* gc_mutants: the built-in `mutants` adapter, deliberately defective kernels, one per defect
 * class of issue 3's table, each documented with the suite and finding kind (docs/design.md
 * section 6) that must catch it.  They are the suites' own test fixtures. */
#ifndef GC_MUTANTS_H
#define GC_MUTANTS_H

#include <stdint.h>

#include <gelucheck/plugin.h>

/* The plug-in table (also declared in adapters/core/adapter.h): static, valid for the life of
 * the process; NULL when host_abi < 1.  Thread-safe.  It has open/close/last_error: the
 * call_count.f32 kernel counts calls in its ctx (one per thread, as the ABI says). */
const struct gelucheck_plugin *gc_mutants_entry(uint32_t host_abi);

/* The bit pattern writes_yn.f32 stores at y[n]: a quiet NaN whose payload reads "c0ffee". */
#define GC_MUT_OOB_BITS 0x7fc0ffeeu

#endif
