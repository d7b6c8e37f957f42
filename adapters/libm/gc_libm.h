/* gc_libm: the built-in `libm` adapter (the GELU formulas people write, on the C library's
 * erf/erfc/tanh/exp) and the float <-> f16/bf16 conversions that it and the mutants use. */
#ifndef GC_LIBM_H
#define GC_LIBM_H

#include <stdint.h>

#include <gelucheck/plugin.h>

/* The plug-in table (also declared in adapters/core/adapter.h): static, valid for the life of
 * the process; NULL when host_abi < 1.  Thread-safe. */
const struct gelucheck_plugin *gc_libm_entry(uint32_t host_abi);

/* float <-> IEEE binary16 (f16) and bfloat16 (bf16), as uint16_t bit patterns.
 * To float: exact (every f16 and bf16 value is a float).
 * From float: one rounding to nearest, ties to even, into the target's own range: its
 * subnormals (f16) and overflow to inf (|v| >= 65520 for f16, the midpoint above 65504; for
 * bf16 the midpoint above 0x1.fep127 and up), as IEEE 754 convertFormat does in RN; the
 * rounding direction is not the caller's mode, always RN.  NaN stays NaN: quiet, its sign and
 * top payload bits kept (never an infinity, which plain truncation of a payload could give).
 * Plain C, no FPU state read or written. */
uint16_t gc_f16_from_float(float v);
float gc_f16_to_float(uint16_t h);
uint16_t gc_bf16_from_float(float v);
float gc_bf16_to_float(uint16_t h);

#endif
